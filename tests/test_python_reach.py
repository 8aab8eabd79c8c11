"""Demand-driven interpretation (issue 20): only what can reach a launch runs.

The interpreter runs every function and method nothing calls ("roots"), with
unknown parameters; on SGLang's own tree that was 90% of the time, spent on code
that starts nothing. ``python_reach`` finds from the syntax which functions can
reach a launch, and which statements of a root come after its last launch; the
interpreter runs only those. The findings must not change: the fixtures (their
EXPECTED files) hold that; these tests hold the analysis itself, and that code
which cannot reach a launch is really not run (its notes are gone).
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from sglang_lint.sources.python import analyze_python
from sglang_lint.sources.python_reach import function_references, hands_on_a_command, reaching_functions, statement_references, tail_statements

LAUNCH_NAMES = {"Popen", "popen_launch_server"}


def _reaching(source: str) -> set[str]:
    tree = ast.parse(textwrap.dedent(source))
    functions = function_references(tree)
    reached, names = reaching_functions(functions, lambda refs: not refs.names.isdisjoint(LAUNCH_NAMES))
    assert {f.name for f in functions if id(f.node) in reached} == names
    return names


def test_a_function_reaches_through_the_functions_it_refers_to() -> None:
    names = _reaching(
        """
        def start(port):
            return subprocess.Popen(["python", "-m", "sglang.launch_server", "--port", str(port)])

        class TestPD:
            def setUp(self):
                self.launch()

            def launch(self):
                self.proc = start(30000)

            def test_requests(self):
                requests.post(self.url)

        def helper():
            threading.Thread(target=launch_later).start()

        def launch_later():
            start(1)

        def unrelated():
            return 1 + 1
        """
    )
    assert names == {"start", "launch", "setUp", "launch_later", "helper"}


def test_a_function_declaring_global_is_kept() -> None:
    # Its side effects are what later roots read.
    assert _reaching("def configure():\n    global ARGS\n    ARGS = ['--tp', '4']\n") == {"configure"}


def _tail(source: str, reaching: set[str]) -> list[str]:
    tree = ast.parse(textwrap.dedent(source))
    function = tree.body[0]
    body = function.body

    def reaches(statement: ast.AST) -> bool:
        return not statement_references(statement).names.isdisjoint(reaching)

    skipped, last_calls = tail_statements(function, reaches)
    kept: list[str] = []

    def run(block: list[ast.stmt]) -> None:  # what the interpreter executes
        for statement in block:
            if id(statement) in skipped:
                continue
            kept.append(ast.unparse(statement).splitlines()[0])
            for field in ("body", "orelse", "finalbody"):
                run(getattr(statement, field, []))
            for handler in getattr(statement, "handlers", []):
                run(handler.body)

    run(body)
    calls = [ast.unparse(node) for node in ast.walk(tree) if id(node) in last_calls]
    return kept + [f"last call: {call}" for call in calls]


def test_the_tail_of_a_root_after_its_last_launch_is_cut() -> None:
    kept = _tail(
        """
        def run_bench(model, args):
            process = popen_launch_server(model, URL, other_args=args)
            try:
                for a in args:
                    run_benchmark(a)
            finally:
                kill(process.pid)
            return results
        """,
        {"popen_launch_server"},
    )
    # (its value is read only by the cut tail: the launcher's own tail is cut too)
    assert kept == ["process = popen_launch_server(model, URL, other_args=args)", "last call: popen_launch_server(model, URL, other_args=args)"]


def test_branches_are_cut_each_and_loops_never_inside() -> None:
    kept = _tail(
        """
        def root(role):
            if role == "prefill":
                start_prefill()
                log("prefill")
            else:
                for tp in (2, 4):
                    start_decode(tp)
                    bump(tp)
                log("decode")
            report()
        """,
        {"start_prefill", "start_decode"},
    )
    # The if is the last statement that reaches; in each branch what follows the
    # launch is cut; the loop body stays whole (a later round may read bump's work).
    assert "report()" not in kept and "log('prefill')" not in kept and "log('decode')" not in kept
    assert "bump(tp)" in kept and "start_decode(tp)" in kept and "start_prefill()" in kept
    assert "last call: start_prefill()" in kept


def test_a_try_is_cut_only_when_its_handlers_do_not_reach() -> None:
    kept = _tail(
        """
        def root():
            try:
                start()
                work()
            except OSError:
                start_again()
        """,
        {"start", "start_again"},
    )
    assert "work()" in kept and "start_again()" in kept


def test_a_returned_call_whose_value_is_dropped_is_a_last_call() -> None:
    kept = _tail("def root():\n    prepare()\n    return start_all(model)[0]\n", {"start_all"})
    assert "last call: start_all(model)" in kept


def test_a_call_whose_value_only_local_names_keep_is_a_last_call() -> None:
    kept = _tail("def root(cfg):\n    prepare()\n    cache = build(cfg)\n    cache.run()\n", {"build"})
    assert "cache.run()" not in kept and "last call: build(cfg)" in kept
    kept = _tail("def root(cfg):\n    tree, *pools = await build(cfg)\n    check(pools)\n", {"build"})
    assert "last call: build(cfg)" in kept
    # An attribute outlives the call (a later test reads self.cache); so does a
    # global (a later root reads it).
    assert not [line for line in _tail("def root(self):\n    self.cache = build(cfg)\n    run(self.cache)\n", {"build"}) if line.startswith("last call")]
    assert not [line for line in _tail("def root():\n    global CACHE\n    cache = build(cfg)\n    CACHE = cache\n", {"build"}) if line.startswith("last call")]
    assert not [line for line in _tail("def root(cfg):\n    cache[0] = build(cfg)\n    run(cache)\n", {"build"}) if line.startswith("last call")]


def _notes(source: str) -> list[str]:
    result = analyze_python("launcher.py", textwrap.dedent(source))
    return [note.message for note in result.notes]


DEEP = "[" * 120 + "1" + "]" * 120  # nested lists: past the interpreter's expression depth


def test_code_that_cannot_reach_a_launch_is_not_run() -> None:
    """A benchmark helper nothing calls, whose body is too deep to analyze: it
    launches nothing, so it is not run, and says nothing."""
    source = f"""
        import subprocess

        def start():
            subprocess.Popen(["python", "-m", "sglang.launch_server", "--tp", "4"])

        def summarize(results):
            return {DEEP}
        """
    result = analyze_python("launcher.py", textwrap.dedent(source))
    assert len(result.servers) == 1
    assert [note.message for note in result.notes] == []


def test_code_that_can_reach_a_launch_still_runs() -> None:
    source = f"""
        import subprocess

        def start():
            value = {DEEP}
            subprocess.Popen(["python", "-m", "sglang.launch_server", "--tp", "4"])
        """
    result = analyze_python("launcher.py", textwrap.dedent(source))
    assert len(result.servers) == 1
    assert any("nesting" in note.message or "deep" in note.message for note in result.notes)


def test_what_a_root_does_after_its_last_launch_is_not_run() -> None:
    source = f"""
        import subprocess

        def test_serving():
            subprocess.Popen(["python", "-m", "sglang.launch_server", "--tp", "4"])
            return {DEEP}
        """
    result = analyze_python("launcher.py", textwrap.dedent(source))
    assert len(result.servers) == 1
    assert [note.message for note in result.notes] == []


@pytest.mark.parametrize("target, cut", [("pools", True), ("self.pools", False)])
def test_a_helper_whose_value_only_the_cut_tail_reads_is_cut_too(target, cut) -> None:
    """SGLang's radix-cache test kits: a helper builds a ServerArgs, then the
    cache pools the test goes on to read (~30,000 steps a test, issue 20).
    What the helper does after its launch is run only when its value outlives
    the root's cut tail (an attribute a later test reads)."""
    source = f"""
        import subprocess
        import unittest

        def build(tp):
            subprocess.Popen(["python", "-m", "sglang.launch_server", "--tp", str(tp)])
            pools = {DEEP}
            return pools

        class TestCache(unittest.TestCase):
            def test_serving(self):
                {target} = build(4)
                self.assertTrue({target})
        """
    result = analyze_python("launcher.py", textwrap.dedent(source))
    assert len(result.servers) == 1
    assert [note.message for note in result.notes] == ([] if cut else ["nesting too deep to analyze here; launches inside may be missing"])


def test_asyncio_run_is_no_subprocess_run() -> None:
    """``run`` reaches a launch only as ``subprocess.run`` (by what the name
    is bound to), not as ``asyncio.run`` or a method of an object."""
    source = f"""
        import asyncio
        import subprocess

        def start():
            subprocess.run(["python", "-m", "sglang.launch_server", "--tp", "4"])

        def bench():
            asyncio.run(go())
            runner.run()
            return {DEEP}
        """
    result = analyze_python("launcher.py", textwrap.dedent(source))
    assert len(result.servers) == 1
    assert [note.message for note in result.notes] == []


def test_a_renamed_runner_still_reaches() -> None:
    source = """
        from subprocess import Popen as P

        def start():
            P(["python", "-m", "sglang.launch_server", "--tp", "4"])
        """
    assert len(analyze_python("launcher.py", textwrap.dedent(source)).servers) == 1


def test_a_file_nothing_of_which_can_launch_is_not_run(tmp_path, monkeypatch) -> None:
    """The pre-check lets a file through on a word (a docstring naming
    `sglang.launch_server`); when no statement of it can reach a launch, the
    interpreter does not run it at all (issue 20: SGLang's own modules)."""
    import os

    from sglang_lint.files import FileKind
    from sglang_lint.sources import extract
    from sglang_lint.sources.project import ProjectFiles
    from sglang_lint.sources.python_interpreter import PythonInterpreter

    source = '"""Started by python -m sglang.launch_server."""\nimport os\n\nWORKERS = os.cpu_count()\n\n\ndef plan():\n    return [WORKERS] * 2\n'
    (tmp_path / "plan.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    blocks: list[int] = []
    original = PythonInterpreter._exec_block
    monkeypatch.setattr(PythonInterpreter, "_exec_block", lambda self, statements, depth: blocks.append(depth) or original(self, statements, depth))
    result = extract("plan.py", source, FileKind.PYTHON, None, ProjectFiles((os.path.realpath(tmp_path),)))
    assert (result.servers, result.notes, blocks) == ([], [], [])
    launching = source + "\nimport subprocess\nsubprocess.run(['python3', '-m', 'sglang.launch_server', '--tp', '2'])\n"
    (tmp_path / "plan.py").write_text(launching)
    assert len(extract("plan.py", launching, FileKind.PYTHON, None, ProjectFiles((os.path.realpath(tmp_path),))).servers) == 1
    assert blocks


# SGLang 0.5.23's srt/runtime_context.py, in small: `get_exec()` reads a
# context whose fallback builds `ServerArgs(model_path="dummy")` (a ServerArgs
# imported in the function), and `get_platform()` caches a global. Its model
# files (srt/models/gemma4_causal.py) call `get_exec()` and passed the pre-check
# on a comment naming `launch_server`.
RUNTIME_CONTEXT = {
    "rt/__init__.py": "",
    "rt/context.py": (
        "_PLATFORM = None\n"
        "\n"
        "\n"
        "def get_exec():\n"
        "    from sglang.srt.server_args import ServerArgs\n"
        "\n"
        "    return ServerArgs(model_path='dummy')\n"
        "\n"
        "\n"
        "def get_platform():\n"
        "    global _PLATFORM\n"
        "    _PLATFORM = _PLATFORM or object()\n"
        "    return _PLATFORM\n"
    ),
    "model.py": (
        "# DISABLED: breaks the launch_server path\n"
        "from rt.context import get_exec, get_platform\n"
        "\n"
        "\n"
        "class Model:\n"
        "    def forward(self):\n"
        "        return get_exec(), get_platform()\n"
    ),
}


def test_a_configuration_another_module_builds_makes_none_of_its_names_a_launch(tmp_path, monkeypatch) -> None:
    """A `ServerArgs(...)` another module builds (SGLang's runtime context), an
    import of ServerArgs in its function, a function that sets a global: none
    makes what an importer calls a launch, so a model file calling them is not
    run (issue 20: gemma4_causal.py was, until its nesting overflowed). The
    module that builds the configuration still finds it when it is linted."""
    import os

    from sglang_lint.files import FileKind
    from sglang_lint.sources import extract
    from sglang_lint.sources.project import ProjectFiles
    from sglang_lint.sources.python_interpreter import PythonInterpreter
    from test_cross_file import write

    write(tmp_path, RUNTIME_CONTEXT)
    monkeypatch.chdir(tmp_path)
    runs: list[str] = []
    original = PythonInterpreter._run_uncalled
    monkeypatch.setattr(PythonInterpreter, "_run_uncalled", lambda self, tree: runs.append(self.result.path) or original(self, tree))
    project = ProjectFiles((os.path.realpath(tmp_path),))
    model = extract("model.py", RUNTIME_CONTEXT["model.py"], FileKind.PYTHON, None, project)
    assert (model.servers, model.notes, runs) == ([], [], [])
    context = os.path.join("rt", "context.py")
    built = extract(context, RUNTIME_CONTEXT["rt/context.py"], FileKind.PYTHON, None, project)
    assert [launch.location.line for launch in built.servers] == [7]


def test_a_launcher_imported_in_a_function_still_reaches(tmp_path, monkeypatch) -> None:
    """What a function imports in its body can launch: a module of the project
    that may, or a process runner of the standard library by the name it takes
    (`from subprocess import Popen` in the function: it was cut as the root's
    tail and the launch lost, since the module's names do not bind it)."""
    import os

    from sglang_lint.files import FileKind
    from sglang_lint.sources import extract
    from sglang_lint.sources.project import ProjectFiles
    from test_cross_file import write

    files = {
        "pkg/__init__.py": "",
        "pkg/serving.py": "import subprocess\n\n\ndef serve(tp):\n    subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(tp)])\n",
        "helper_user.py": "# calls sglang.launch_server through pkg.serving\n\n\ndef main():\n    from pkg.serving import serve\n\n    serve(4)\n",
        "runner_user.py": "# sglang.launch_server\n\n\ndef main():\n    from subprocess import Popen\n\n    Popen(['python3', '-m', 'sglang.launch_server', '--tp', '2'])\n",
        # The module imported whole and used through an attribute: the
        # statement names it only as the head of `serving.serve` (it was cut
        # as the root's tail, and the launch lost).
        "module_user.py": "# sglang.launch_server\n\n\ndef main():\n    from pkg import serving\n\n    serving.serve(3)\n",
    }
    write(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    project = ProjectFiles((os.path.realpath(tmp_path),))
    for name, tp in (("helper_user.py", "4"), ("runner_user.py", "2"), ("module_user.py", "3")):
        (launch,) = extract(name, files[name], FileKind.PYTHON, None, project).servers
        assert launch.args[-1].value.text == tp


def _recording_roots(tmp_path, monkeypatch, files: dict[str, str]):
    """The project of ``files`` written in ``tmp_path`` (the working
    directory now), and the list the functions run as launch roots are
    recorded in, by name."""
    import os

    from sglang_lint.sources.project import ProjectFiles
    from sglang_lint.sources.python_interpreter import PythonInterpreter
    from test_cross_file import write

    write(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    roots: list[str] = []
    original = PythonInterpreter._call_root
    monkeypatch.setattr(PythonInterpreter, "_call_root", lambda self, func: roots.append(func.name) or original(self, func))
    return ProjectFiles((os.path.realpath(tmp_path),)), roots


def test_a_function_importing_a_helper_that_cannot_launch_is_not_run(tmp_path, monkeypatch) -> None:
    """A name a function imports in its body is judged as a name imported at
    the top is: by what it is in its module, not by what else the module
    holds. SGLang 0.5.23's diffusion server tests
    (multimodal_gen/test/server/test_server_common.py) import a constant
    (`MESH_OUTPUT_PATHS`) from test_server_utils.py, a module that also
    launches, inside a method every test calls: all their validation
    helpers ran (83,000 statements of test_utils.py over the tree) for
    nothing. A launcher passed on by a module that spells no launch itself
    (`from pkg import serve`, pkg's __init__ importing it) reaches, in a
    body or at the top (both were lost before)."""

    from sglang_lint.files import FileKind
    from sglang_lint.sources import extract

    files = {
        "pkg/__init__.py": "from pkg.serving import serve\n",
        "pkg/serving.py": (
            "import subprocess\n\nOUTPUTS = ('mesh.glb',)\n\n\n"
            "def serve(tp):\n    subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(tp)])\n"
        ),
        "test_checks.py": (
            "# checks outputs of sglang.launch_server\n\n\n"
            "def validate(path):\n    from pkg.serving import OUTPUTS\n\n    return path in OUTPUTS\n\n\n"
            "def test_outputs():\n    assert validate('mesh.glb')\n\n\n"
            "def test_serving():\n    from pkg import serve\n\n    serve(4)\n"
        ),
        # The same launcher imported at the top, and a cycle of modules
        # passing a name on to each other (nothing to find, no hang).
        "test_top.py": "# sglang.launch_server\nfrom pkg import serve\n\n\ndef test_serving():\n    serve(2)\n",
        "pkg/left.py": "from pkg.right import helper\n",
        "pkg/right.py": "from pkg.left import helper\n",
        "test_cycle.py": "# sglang.launch_server\nfrom pkg.left import helper\n\n\ndef test_helper():\n    helper()\n",
    }
    project, roots = _recording_roots(tmp_path, monkeypatch, files)
    (launch,) = extract("test_checks.py", files["test_checks.py"], FileKind.PYTHON, None, project).servers
    assert launch.args[-1].value.text == "4"
    assert roots == ["test_serving"]
    (launch,) = extract("test_top.py", files["test_top.py"], FileKind.PYTHON, None, project).servers
    assert launch.args[-1].value.text == "2"
    roots.clear()
    cycle = extract("test_cycle.py", files["test_cycle.py"], FileKind.PYTHON, None, project)
    assert (cycle.servers, cycle.notes, roots) == ([], [], [])


def test_a_name_a_function_imports_is_that_import_not_a_launch_by_its_name(tmp_path, monkeypatch) -> None:
    """A function that imports a module named like a launcher (SGLang 0.5.23's
    diffusion runtime, multimodal_gen/runtime/managers/worker_bootstrap.py:180:
    `from sglang.multimodal_gen.runtime import launch_server`, then
    `launch_server.launch_http_server_only(...)`) imports what that import
    takes, the diffusion launcher's module: its bare name `launch_server` made
    the function, and every caller, a launcher by name, and they were run for
    no launch. The same name imported from SGLang's LLM server still reaches."""

    from sglang_lint.files import FileKind
    from sglang_lint.sources import extract

    files = {
        "bootstrap.py": (
            "# the diffusion server; not sglang.launch_server's LLM server\n\n\n"
            "def start_http(args):\n"
            "    from sglang.multimodal_gen.runtime import launch_server\n\n"
            "    launch_server.launch_http_server_only(args)\n\n\n"
            "def main():\n    start_http(None)\n"
        ),
        "llm.py": (
            "# sglang.launch_server\n\n\n"
            "def start(args):\n"
            "    from sglang.srt.entrypoints.http_server import launch_server\n\n"
            "    launch_server(args)\n\n\n"
            "def main():\n    start(None)\n"
        ),
    }
    project, roots = _recording_roots(tmp_path, monkeypatch, files)
    diffusion = extract("bootstrap.py", files["bootstrap.py"], FileKind.PYTHON, None, project)
    assert (diffusion.servers, diffusion.notes, roots) == ([], [], [])
    extract("llm.py", files["llm.py"], FileKind.PYTHON, None, project)
    assert roots  # the LLM launcher's import still makes its callers roots


def test_a_module_used_whole_may_launch_only_through_a_name_it_defines(tmp_path, monkeypatch) -> None:
    """A module imported whole (`from pkg import worker`, then
    `worker.run_scheduler(...)`) is reached through its names, and what its
    top level calls never runs for an importer: a module whose text spells a
    launch entry but none of whose names can reach a launch (SGLang 0.5.23's
    diffusion worker, multimodal_gen/runtime/managers/gpu_worker.py, builds
    an LLM ServerArgs in one function to read its defaults) makes none of its
    users a launcher. One with a function that launches still does."""

    from sglang_lint.files import FileKind
    from sglang_lint.sources import extract

    files = {
        "pkg/__init__.py": "",
        "pkg/worker.py": (
            "def defaults():\n"
            "    from sglang.srt.server_args import ServerArgs\n\n"
            "    return ServerArgs(model_path='dummy')\n\n\n"
            "def run_scheduler(args):\n    return args\n"
        ),
        "pkg/launcher.py": "import subprocess\n\n\ndef serve(tp):\n    subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(tp)])\n",
        "bootstrap.py": (
            "# sglang.launch_server\n\n\n"
            "def start(args):\n    from pkg import worker\n\n    worker.run_scheduler(args)\n\n\n"
            "def main():\n    start(None)\n"
        ),
        "user.py": "# sglang.launch_server\n\n\ndef main():\n    from pkg import launcher\n\n    launcher.serve(2)\n",
    }
    project, roots = _recording_roots(tmp_path, monkeypatch, files)
    bootstrap = extract("bootstrap.py", files["bootstrap.py"], FileKind.PYTHON, None, project)
    assert (bootstrap.servers, bootstrap.notes, roots) == ([], [], [])
    (launch,) = extract("user.py", files["user.py"], FileKind.PYTHON, None, project).servers
    assert launch.args[-1].value.text == "2"
    assert roots == ["main"]


@pytest.mark.parametrize(
    "call, launches",
    [
        ('subprocess.run(["nvidia-smi", "-L"], capture_output=True)', False),
        ('subprocess.check_output("nvidia-smi --query-gpu=name --format=csv", shell=True)', False),
        ('os.system("hostname")', False),
        ('asyncio.create_subprocess_exec("rocm-smi", "--showuse")', False),
        ('subprocess.run(["python3", "-m", "sglang.launch_server", "--tp", "8"])', True),
        ('subprocess.run("sglang serve --model-path m", shell=True)', True),
        ("subprocess.run(command)", True),  # a name: what it holds is seen only by running
        ('subprocess.run(["nvidia-smi", flag])', True),
        ('subprocess.run(["nvidia-smi"], executable=program)', True),
        ('subprocess.run(["nvidia-smi"], **options)', True),
    ],
)
def test_a_process_with_a_fixed_command_naming_no_entry_point_is_no_launch(call, launches) -> None:
    """Every entry point the sources recognise spells `sglang`, and a script a
    command runs is another file: a command written out in full without it
    starts no SGLang server (issue 20: SGLang's helpers asking nvidia-smi made
    every file calling them a launcher to run)."""
    tree = ast.parse(f"def probe():\n    return {call}\n")
    (refs,) = function_references(tree)
    assert bool({"subprocess.run", "subprocess.check_output", "os.system", "asyncio.create_subprocess_exec"} & refs.dotted) == launches


def test_what_a_fixed_command_is_given_is_still_a_reference() -> None:
    tree = ast.parse('def probe():\n    return subprocess.run(["nvidia-smi"], env=make_env())\n')
    (refs,) = function_references(tree)
    assert "make_env" in refs.names and "subprocess.run" not in refs.dotted


_STDLIB = {"subprocess": "subprocess", "sp": "subprocess", "os": "os", "asyncio": "asyncio", "Popen": "subprocess.Popen", "run": "subprocess.run"}


@pytest.mark.parametrize(
    "source, hands_on",
    [
        ("def start(cmd):\n    return subprocess.Popen(cmd)\n", True),
        ("def start(cmd, env):\n    sp.Popen(cmd, env=env)\n", True),
        ("def start(cmd):\n    return Popen(cmd)\n", True),  # `from subprocess import Popen`
        ("def start(*args):\n    run(['python3', '-m', 'sglang.launch_server', *args])\n", True),
        ("def start(module, args):\n    cmd = [sys.executable, '-m', module]\n    cmd.extend(args)\n    subprocess.Popen(cmd)\n", True),
        ("def start(args):\n    cmd = []\n    cmd += args\n    subprocess.Popen(cmd)\n", True),
        ("def start(command):\n    os.system(f'nohup {command} &')\n", True),
        ("async def start(cmd):\n    await asyncio.create_subprocess_exec(*cmd)\n", True),
        ("def start(args):\n    subprocess.Popen(args=args)\n", True),
        # The program is written out and runs no other command.
        ("def kill(pid):\n    subprocess.run(['kill', str(pid)])\n", False),
        ("def gpus(index):\n    return subprocess.check_output(['nvidia-smi', '-i', str(index)])\n", False),
        # Nothing the caller hands reaches the command.
        ("def start(tp):\n    print(tp)\n    subprocess.Popen(['sleep', '1'])\n", False),
        ("def start():\n    subprocess.Popen(CMD)\n", False),
        # Not a process call (a method of the caller's, an unbound `run`).
        ("def start(cmd):\n    self.run(cmd)\n", False),
        ("def start(cmd):\n    pool.run(cmd)\n", False),
    ],
)
def test_a_function_hands_on_the_command_its_caller_gives(source: str, hands_on: bool) -> None:
    """python_reach.hands_on_a_command: what makes a generic process helper
    (a module that spells no SGLang launch) launch what its caller hands it."""
    function = ast.parse(source).body[0]
    assert hands_on_a_command(function, _STDLIB.get) is hands_on
