"""What the analyses of one run share in a process (issue 20): the texts of the
project's files, where an import's module lies, and what a module may launch.

The promise that makes sharing safe: a file's result (launches, notes, and the
dependencies the on-disk cache checks) is the same whether it is analyzed alone
or after other files of the run drew the conclusions it needs; and nothing
carries over from one run to the next (the editor's server lints again after
each change)."""

from __future__ import annotations

import os
from pathlib import Path

from sglang_lint.files import FileKind
from sglang_lint.sources import extract
from sglang_lint.sources.project import MAX_FILES, ProjectFiles, run_cache
from sglang_lint.sources.python_interpreter import PARSED, ParsedModules, parse_module
from sglang_lint.sources.python_reach import functions_in
from test_cross_file import write

# A launch two imports away from the files that use it: `helpers.start` calls
# `inner.launch`, which runs the server. What `helpers` may launch is concluded
# by reading both modules.
PROJECT = {
    "pkg/inner.py": (
        "import subprocess\n"
        "\n"
        "\n"
        "def launch(mode, tp):\n"
        '    subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", mode, "--tp", str(tp)])\n'
    ),
    "pkg/helpers.py": "import subprocess  # runs sglang.launch_server through pkg.inner\nfrom pkg.inner import launch\n\n\ndef start(mode, tp):\n    launch(mode, tp)\n",
    "prefill.py": "import subprocess  # wraps sglang.launch_server\nfrom pkg.helpers import start\n\n\ndef main():\n    start('prefill', 4)\n",
    "decode.py": "import subprocess  # wraps sglang.launch_server\nfrom pkg.helpers import start\n\n\ndef main():\n    start('decode', 8)\n",
}


def _result(root: Path, name: str, project: ProjectFiles):
    return extract(name, (root / name).read_text(), FileKind.PYTHON, None, project)


def _shape(result) -> tuple:
    return (
        [(launch.location.line, tuple(token.value.text for token in launch.args)) for launch in result.servers],
        [(note.line, note.message) for note in result.notes],
        sorted(result.dependencies),
    )


def _alone_and_after(root: Path, monkeypatch, files: dict[str, str], first: str, second: str) -> tuple:
    """``second``'s result analyzed alone in its run, and after ``first`` in one
    run they share."""
    write(root, files)
    monkeypatch.chdir(root)
    roots = (os.path.realpath(root),)
    alone = _result(root, second, ProjectFiles(roots, run="alone"))
    _result(root, first, ProjectFiles(roots, run="shared"))
    return alone, _result(root, second, ProjectFiles(roots, run="shared"))


def test_a_file_after_another_gives_what_it_gives_alone(tmp_path, monkeypatch) -> None:
    alone, after = _alone_and_after(tmp_path, monkeypatch, PROJECT, "prefill.py", "decode.py")
    unshared = _result(tmp_path, "decode.py", ProjectFiles((os.path.realpath(tmp_path),)))
    assert _shape(after) == _shape(alone) == _shape(unshared)
    # The modules the shared conclusion read are this file's dependencies too:
    # a change to pkg/inner.py makes decode.py's cached result stale.
    assert {os.path.join("pkg", "helpers.py"), os.path.join("pkg", "inner.py")} <= {path for path, _ in after.dependencies}
    assert [tuple(token.value.text for token in launch.args)[-1] for launch in after.servers] == ["8"]


def test_conclusions_past_the_file_bound_do_not_depend_on_the_order(tmp_path, monkeypatch) -> None:
    # A chain of more modules than one file may read: whether the chain's head
    # may launch is a fact of the texts, the same for a file analyzed first or
    # after another one drew it (it once depended on --jobs).
    chain = MAX_FILES + 6
    files = {f"chain/m{index}.py": f"import subprocess  # runs sglang.launch_server\nfrom chain.m{index + 1} import step\n\n\ndef go():\n    step()\n" for index in range(chain)}
    files[f"chain/m{chain}.py"] = 'import subprocess\n\n\ndef step():\n    subprocess.run(["python3", "-m", "sglang.launch_server", "--tp", "2"])\n'
    files["first.py"] = "import subprocess  # wraps sglang.launch_server\nfrom chain.m0 import go\n\n\ndef main():\n    go()\n"
    files["second.py"] = "import os\nimport subprocess  # wraps sglang.launch_server\nfrom chain.m0 import go\n\n\ndef main():\n    go()\n"
    alone, after = _alone_and_after(tmp_path, monkeypatch, files, "first.py", "second.py")
    assert _shape(after) == _shape(alone)


def test_a_new_run_starts_afresh(tmp_path) -> None:
    roots = (os.path.realpath(tmp_path),)
    first = run_cache(ProjectFiles(roots, run="one"))
    assert first is not None
    first["x"] = 1
    assert run_cache(ProjectFiles(roots, run="one")) is first
    assert run_cache(ProjectFiles(roots, run="two")) == {}
    assert run_cache(ProjectFiles(roots)) is None  # no run named: nothing shared


def test_a_run_that_follows_another_is_handed_its_lasting_facts_not_a_copy(tmp_path) -> None:
    """What holds while no file is created or deleted (where modules lie) goes
    to the following run as it is; the conclusions stay the previous run's,
    checked before use. Copying the lasting facts from run to run cost the
    flake8 plugin (a run a file) a time growing with every file before it."""
    roots = (os.path.realpath(tmp_path),)
    first = run_cache(ProjectFiles(roots, run="first"))
    first.lasting[("module files", "d", "m", 0)] = ["m.py"]
    first[("memo", "k")] = ("v", ())
    second = run_cache(ProjectFiles(roots, run="second", follows="first"))
    assert second.lasting is first.lasting
    assert ("memo", "k") not in second and second.previous is first
    third = run_cache(ProjectFiles(roots, run="third"))  # follows nothing: starts afresh
    assert third.lasting == {}


def test_a_file_changed_between_runs_is_read_again(tmp_path, monkeypatch) -> None:
    write(tmp_path, PROJECT)
    monkeypatch.chdir(tmp_path)
    roots = (os.path.realpath(tmp_path),)
    before = _result(tmp_path, "decode.py", ProjectFiles(roots, run="before"))
    (tmp_path / "pkg" / "inner.py").write_text(PROJECT["pkg/inner.py"].replace('"--tp", str(tp)', '"--tp", "16"'))
    after = _result(tmp_path, "decode.py", ProjectFiles(roots, run="after"))
    assert [launch.args[-1].value.text for launch in before.servers] == ["8"]
    assert [launch.args[-1].value.text for launch in after.servers] == ["16"]


def test_parsed_outlines_are_bounded_by_the_source_they_parsed(monkeypatch) -> None:
    monkeypatch.setattr("sglang_lint.sources.python_interpreter.PARSED_CHARS", 100)
    parsed = ParsedModules()
    texts = [f"X{index} = {index}\n" + "#" * 40 + "\n" for index in range(5)]
    outlines = [parsed.outline(text) for text in texts]
    assert parsed.chars <= 100 and parsed.parses == 5
    assert parsed.outline(texts[-1]) is outlines[-1] and parsed.parses == 5  # the latest is kept
    parsed.outline(texts[0])
    assert parsed.parses == 6  # the oldest was let go
    assert parsed.outline("X = (\n") is None


def test_a_definition_weighs_in_the_parse_cache_once_it_is_parsed(monkeypatch) -> None:
    monkeypatch.setattr("sglang_lint.sources.python_interpreter.PARSED_CHARS", 100)
    parsed = ParsedModules()
    text = "X = 1\n" + "def helper():\n    return " + "1 + " * 30 + "1\n"
    first = parsed.outline(text, "a.py")
    assert first is not None and parsed.chars == len("X = 1\n")  # the body is not parsed yet
    parsed.outline("Y = 2\n", "b.py")
    assert parsed.outline(text, "a.py") is first  # both fit
    assert [type(statement).__name__ for statement in first.statements(first.binders["helper"][0])] == ["FunctionDef"]
    assert parsed.chars > 100
    parsed.outline("Z = 3\n", "c.py")
    assert parsed.outline(text, "a.py") is not first  # now it weighed too much and was let go


def test_two_files_of_one_text_have_an_outline_each() -> None:
    """A node keeps its location (file, line) once computed: a tree shared by
    two copies of one module would place the second copy's launches in the
    first."""
    parsed = ParsedModules()
    text = "def serve():\n    launch()\n"
    assert parsed.outline(text, "a/launcher.py") is not parsed.outline(text, "b/launcher.py")
    assert parsed.outline(text, "a/launcher.py") is parsed.outline(text, "a/launcher.py")


def test_what_is_derived_from_a_tree_lives_on_the_tree() -> None:
    PARSED.clear()
    parsed = parse_module("def serve():\n    launch()\n", "serve.py")
    assert parsed is not None
    (index,) = parsed.binders["serve"]
    assert parsed.derived(index, functions_in) is parsed.derived(index, functions_in)
    assert [refs.name for (references,) in [parsed.derived(index, functions_in)] for refs in references] == ["serve"]


def test_judging_what_a_file_imports_does_not_use_up_what_it_may_read(tmp_path, monkeypatch) -> None:
    # Whether `go` may launch is concluded by reading a chain of more modules
    # than one file may read; the constant the launch reads from another module
    # is still followed (issue 20: SGLang's cli/serve.py lost an import to the
    # bound once the names it imports were judged one by one).
    chain = MAX_FILES + 6
    files = {f"chain/m{index}.py": f"import subprocess  # runs sglang.launch_server\nfrom chain.m{index + 1} import step\n\n\ndef go():\n    step()\n" for index in range(chain)}
    files[f"chain/m{chain}.py"] = 'import subprocess\n\n\ndef step():\n    subprocess.run(["python3", "-m", "sglang.launch_server", "--tp", "2"])\n'
    files["settings.py"] = "TP = 8\n"
    files["main.py"] = (
        "import subprocess\n"
        "from chain.m0 import go\n"
        "from settings import TP\n"
        "\n"
        "\n"
        "def main():\n"
        '    subprocess.run(["python3", "-m", "sglang.launch_server", "--tp", str(TP)])\n'
        "    go()\n"
    )
    write(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    result = _result(tmp_path, "main.py", ProjectFiles((os.path.realpath(tmp_path),), run="bound"))
    assert [note.message for note in result.notes] == []
    assert result.servers[0].args[-1].value.text == "8"


def test_the_run_cache_keeps_the_latest_texts_and_every_conclusion(monkeypatch) -> None:
    from sglang_lint.sources.project import RunCache

    monkeypatch.setattr(RunCache, "TEXT_CHARS", 100)
    cache = RunCache()
    for index in range(5):
        cache[("text", f"m{index}.py")] = ("x" * 40, None)
        cache[("memo", ("may launch", f"m{index}"))] = (True, ())
    assert [key for key in cache if key[0] == "text"] == [("text", "m3.py"), ("text", "m4.py")]
    assert len([key for key in cache if key[0] == "memo"]) == 5


def test_the_positions_of_a_literals_characters_live_on_its_node() -> None:
    """Computed once per literal, however many runs and files evaluate it (a
    test fixture's method literals: every variant of every file deriving it)."""
    import ast

    from sglang_lint.sources.python_interpreter import PythonInterpreter, _loop_carried_of

    text = "cmd = ['--tp', '4']\nfor i in range(3):\n    port = port + 1\n"
    interpreter = PythonInterpreter("launch.py", text)
    interpreter.run()
    tree = interpreter.tree
    literal = next(node for node in ast.walk(tree) if isinstance(node, ast.Constant) and node.value == "--tp")
    assert literal.__dict__["_sglang_lint_chars"] == ((1, 9), (1, 10), (1, 11), (1, 12))
    loop = next(node for node in ast.walk(tree) if isinstance(node, ast.For))
    assert _loop_carried_of(loop) is _loop_carried_of(loop) and _loop_carried_of(loop) == ["port"]


def test_whether_a_file_may_launch_is_judged_once_for_all_its_runs(tmp_path, monkeypatch) -> None:
    """A file is run once per launch variant (SGLang's PD fixture: 56 runs);
    whether anything in it can reach a launch is a fact of its syntax and the
    files it imports, judged once for all the runs."""
    from sglang_lint.sources.python_interpreter import PythonInterpreter

    write(
        tmp_path,
        {
            "run.py": (
                "import os\nimport subprocess\n\n"
                "if os.environ.get('ROLE') == 'prefill':\n    tp = 8\nelse:\n    tp = 4\n"
                "subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(tp)])\n"
            )
        },
    )
    monkeypatch.chdir(tmp_path)
    judged = []
    real = PythonInterpreter._file_may_launch_now
    monkeypatch.setattr(PythonInterpreter, "_file_may_launch_now", lambda self, tree: judged.append(1) or real(self, tree))
    result = _result(tmp_path, "run.py", ProjectFiles((os.path.realpath(tmp_path),)))
    assert sorted(launch.args[-1].value.text for launch in result.servers) == ["4", "8"]  # two runs
    assert judged == [1]


def test_an_fstrings_character_positions_live_on_its_node(monkeypatch) -> None:
    """An f-string's literal parts are located once, however many runs and
    files evaluate it (SGLang's tree scanned ~1,000 f-strings 11,500 times)."""
    import ast

    from sglang_lint.sources import python_interpreter
    from sglang_lint.sources.python_interpreter import PythonInterpreter

    scans = []
    real = python_interpreter.scan_string_literals
    monkeypatch.setattr(python_interpreter, "scan_string_literals", lambda chars: scans.append(1) or real(chars))
    text = "def port(i):\n    return f'--port={i}'\n\nfor i in range(3):\n    port(i)\n"
    interpreter = PythonInterpreter("launch.py", text)
    interpreter.run()
    fstring = next(node for node in ast.walk(interpreter.tree) if isinstance(node, ast.JoinedStr))
    assert len(scans) == 1
    assert fstring.__dict__["_sglang_lint_chars"] == [(2, column) for column in range(14, 21)]  # `--port=`


def test_a_texts_digest_is_computed_once_while_the_text_is_kept(monkeypatch) -> None:
    """Every analyzed file records the digests of the modules it read, most
    of them the same ones: each is computed once a run while its text is
    kept, and let go with it (a text read again is digested again)."""
    from sglang_lint.sources import project as project_module
    from sglang_lint.sources.project import RunCache, text_digest

    computed = []
    monkeypatch.setattr(project_module, "text_digest", lambda text: computed.append(text) or text_digest(text))
    monkeypatch.setattr(RunCache, "TEXT_CHARS", 100)
    cache = RunCache()
    text = "x" * 40
    cache[("text", "m.py")] = (text, None)
    assert cache.digest("m.py", text) == cache.digest("m.py", text) == text_digest(text)
    assert len(computed) == 1
    other = "y" * 40  # another text of the same path (an edit): digested anew
    assert cache.digest("m.py", other) == text_digest(other) and len(computed) == 2
    for index in range(3):  # m.py's text is let go, and its digest with it
        cache[("text", f"n{index}.py")] = ("z" * 40, None)
    assert ("digest", "m.py") not in cache


def test_the_import_bindings_of_a_module_are_built_once_however_much_is_parsed() -> None:
    """What a module's imports bind is asked once for each name it passes on
    (SGLang's tree built them 7,600 times for ~1,000 modules): kept with the
    outline, and the same as built anew once its definitions are parsed."""
    from sglang_lint.sources.python_interpreter import _import_bindings, _outline_import_bindings
    from sglang_lint.sources.python_outline import outline

    text = "import subprocess\nfrom pkg.helpers import start as begin\n\n\ndef serve(tp):\n    begin('prefill', tp)\n\n\nclass Fixture:\n    pass\n\nrun = subprocess.run\n"
    parsed = outline(text, "mod.py")
    kept = _outline_import_bindings(parsed, "mod.py")
    assert _outline_import_bindings(parsed, "mod.py") is kept
    assert set(kept) == {"subprocess", "begin", "serve", "run"}
    list(parsed.all_statements())  # every definition parsed now
    assert dict(kept) == _import_bindings(parsed.top_level(), "mod.py")
    # A module read under another path's name (an importer's view) is built for it.
    assert _outline_import_bindings(parsed, "other.py")["begin"].importer == "other.py"
