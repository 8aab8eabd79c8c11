"""Python imports across the analyzed tree (issue 19, parts 2 and 5): modules of
the project found by relative path, by the importing file's directory (a test
directory's sibling modules) and by the module path's suffix (src/ and python/
layouts); what they define (constants, functions, classes) used by the analyzed
file; a test class deriving a base class of another file runs the base's launch
methods with its own attributes; the files read are dependencies of the result."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from sglang_lint.files import FileKind
from sglang_lint.pipeline import LintOptions, lint_paths
from sglang_lint.prefilter import may_launch, python_may_run_a_launch
from sglang_lint.sources import extract
from sglang_lint.sources.project import ProjectFiles, text_digest
from sglang_lint.sources.python_interpreter import MAX_NONLAUNCHING_CALL_STEPS
from test_cross_file import argv, write

LAUNCHER = (
    "import subprocess\n"
    "\n"
    "TP = 8\n"
    "\n"
    "\n"
    "def serve(mode, tp):\n"
    '    subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", mode, "--tp", str(tp)])\n'
)


def analyze(root: Path, name: str, monkeypatch):
    monkeypatch.chdir(root)
    return extract(name, (root / name).read_text(), FileKind.PYTHON, None, ProjectFiles((os.path.realpath(root),)))


def option(launch, name: str) -> str:
    words = argv(launch)
    return words[words.index(name) + 1]


@pytest.mark.parametrize(
    "files, main",
    [
        # from x.y import z
        ({"pkg/launcher.py": LAUNCHER, "run.py": "from pkg.launcher import serve, TP\nserve('decode', TP)\n"}, "run.py"),
        # import x.y (a package with an __init__.py and a namespace package)
        ({"pkg/__init__.py": "", "pkg/launcher.py": LAUNCHER, "run.py": "import pkg.launcher\npkg.launcher.serve('decode', pkg.launcher.TP)\n"}, "run.py"),
        ({"pkg/launcher.py": LAUNCHER, "run.py": "import pkg.launcher\npkg.launcher.serve('decode', pkg.launcher.TP)\n"}, "run.py"),
        # import x.y as z; from x import y (a submodule)
        ({"pkg/launcher.py": LAUNCHER, "run.py": "import pkg.launcher as l\nl.serve('decode', l.TP)\n"}, "run.py"),
        ({"pkg/launcher.py": LAUNCHER, "run.py": "from pkg import launcher\nlauncher.serve('decode', launcher.TP)\n"}, "run.py"),
        # relative imports, one and two levels
        ({"pkg/__init__.py": "", "pkg/launcher.py": LAUNCHER, "pkg/run.py": "from .launcher import serve, TP\nserve('decode', TP)\n"}, "pkg/run.py"),
        ({"pkg/launcher.py": LAUNCHER, "pkg/sub/run.py": "from ..launcher import serve\nfrom .. import launcher\nserve('decode', launcher.TP)\n"}, "pkg/sub/run.py"),
        # src layout, and SGLang's python/ layout
        ({"src/mypkg/launcher.py": LAUNCHER, "scripts/run.py": "from mypkg.launcher import serve, TP\nserve('decode', TP)\n"}, "scripts/run.py"),
        ({"python/mypkg/launcher.py": LAUNCHER, "test/srt/run.py": "from mypkg.launcher import serve, TP\nserve('decode', TP)\n"}, "test/srt/run.py"),
        # a sibling module of a test directory (sys.path[0])
        ({"test/launcher.py": LAUNCHER, "test/test_run.py": "from launcher import serve, TP\nserve('decode', TP)\n"}, "test/test_run.py"),
        # from x import *
        ({"pkg/launcher.py": LAUNCHER, "run.py": "from pkg.launcher import *\nserve('decode', TP)\n"}, "run.py"),
    ],
    ids=["from-import", "import-dotted", "namespace-package", "import-as", "from-package-import-module", "relative", "relative-two-levels", "src-layout", "python-layout", "sibling", "star"],
)
def test_a_function_and_a_constant_of_another_module_launch_from_the_importer(tmp_path, monkeypatch, files, main) -> None:
    # The importer must pass the pre-check itself (issue 20: a launch entry it
    # spells; an import of a launching module does not count yet).
    text = "import subprocess  # wraps sglang.launch_server\n" + files[main]
    write(tmp_path, {**files, main: text})
    result = analyze(tmp_path, main, monkeypatch)
    (server,) = result.servers
    assert option(server, "--tp") == "8" and option(server, "--disaggregation-mode") == "decode"
    assert server.path == main
    # Located where the command is written, in the module; no `# noqa` line of the module.
    assert server.location.path.endswith("launcher.py") and server.location.line == 7
    call = text.count("\n")  # the last line calls serve()
    assert server.line_ranges == ((call, call),)
    assert "serve() called at " + main in server.context
    launcher = next(name for name in files if name.endswith("launcher.py"))
    assert (launcher, text_digest(files[launcher])) in result.dependencies
    assert not result.notes


BASE = (
    "import unittest\n"
    "from sglang.test.test_utils import popen_launch_pd_server\n"
    "\n"
    "\n"
    "class ServerBase(unittest.TestCase):\n"
    "    prefill_tp = 1\n"
    "    decode_tp = 1\n"
    "    extra_args = []\n"
    "\n"
    "    @classmethod\n"
    "    def setUpClass(cls):\n"
    "        cls.start('prefill', cls.prefill_tp, 'http://127.0.0.1:30000')\n"
    "        cls.start('decode', cls.decode_tp, 'http://127.0.0.1:30001')\n"
    "\n"
    "    @classmethod\n"
    "    def start(cls, mode, tp, url):\n"
    "        args = ['--disaggregation-mode', mode, '--tp', str(tp)] + cls.extra_args\n"
    "        popen_launch_pd_server(cls.model, url, other_args=args)\n"
)
SUBCLASS = (
    "from fixtures.server_base import ServerBase\n"
    "from common import UNIFIED\n"
    "\n"
    "\n"
    "class TestUnified(ServerBase):\n"
    "    model = 'Qwen/Qwen3-8B'\n"
    "    decode_tp = 4\n"
    "    extra_args = UNIFIED\n"
    "\n"
    "    def test_it(self):\n"
    "        pass\n"
)
SUITE = {"fixtures/server_base.py": BASE, "tests/common.py": "UNIFIED = ['--enable-unified-memory']\n", "tests/test_unified.py": SUBCLASS}


def test_a_subclass_runs_the_base_class_launches_with_its_attributes(tmp_path, monkeypatch) -> None:
    """MRO: decode_tp and extra_args overridden by the subclass, prefill_tp
    inherited, model only in the subclass; the constant from a sibling module;
    the built-in model of popen_launch_pd_server (sglang is not in the tree)."""
    write(tmp_path, SUITE)
    result = analyze(tmp_path, "tests/test_unified.py", monkeypatch)
    prefill, decode = result.servers
    assert (option(prefill, "--tp"), option(decode, "--tp")) == ("1", "4")
    assert option(decode, "--model-path") == "Qwen/Qwen3-8B" and "--enable-unified-memory" in argv(decode)
    assert {prefill.scope, decode.scope} == {"TestUnified"}
    # The subclass is named in the context, with the file and line of its class statement.
    assert decode.context.endswith("TestUnified via ServerBase.setUpClass() called at " + os.path.join("tests", "test_unified.py") + ":5")
    assert (5, 5) in decode.line_ranges and all(first <= 11 for first, _ in decode.line_ranges)
    # The decode's TP is the subclass's, written at its line 7.
    (tp,) = [t for t in decode.args if t.value.text == "4"]
    assert (tp.origin or tp.location).path == os.path.join("tests", "test_unified.py") and (tp.origin or tp.location).line == 7
    assert {path for path, _ in result.dependencies} >= {os.path.join("fixtures", "server_base.py"), os.path.join("tests", "common.py")}


def test_self_and_an_instance_method_of_the_base_see_the_subclass_attributes(tmp_path, monkeypatch) -> None:
    base = (
        "import subprocess\n"
        "class Base:\n"
        "    tp = 1\n"
        "    def setUp(self):\n"
        "        self.launch()\n"
        "    def launch(self):\n"
        "        subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(self.tp)])\n"
    )
    write(tmp_path, {"lib/base.py": base, "test_x.py": "from lib.base import Base  # ServerBase\nclass TestX(Base):\n    tp = 16\n    def test_a(self):\n        pass\n"})
    (server,) = analyze(tmp_path, "test_x.py", monkeypatch).servers
    assert option(server, "--tp") == "16"


def test_the_fixture_module_alone_runs_its_own_defaults(tmp_path, monkeypatch) -> None:
    write(tmp_path, {**SUITE, "fixtures/server_base.py": BASE.replace("    extra_args = []\n", "    extra_args = []\n    model = 'm'\n")})
    prefill, decode = analyze(tmp_path, "fixtures/server_base.py", monkeypatch).servers
    assert (option(prefill, "--tp"), option(decode, "--tp")) == ("1", "1")
    assert "via" not in decode.context


def test_a_cycle_between_modules_ends(tmp_path, monkeypatch) -> None:
    write(
        tmp_path,
        {
            "a.py": "import subprocess  # wraps sglang.launch_server\nfrom b import serve\nTP = 2\nserve(TP)\n",
            "b.py": "from c import ARGS\ndef serve(tp):\n    import subprocess\n    subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(tp), *ARGS])\n",
            "c.py": "from b import serve\nfrom a import TP\nARGS = ['--port', '30000']\n",
        },
    )
    (server,) = analyze(tmp_path, "a.py", monkeypatch).servers
    assert argv(server)[-4:] == ["--tp", "2", "--port", "30000"]


def test_a_module_that_cannot_be_found_keeps_the_built_in_model_without_noise(tmp_path, monkeypatch) -> None:
    test = (
        "from sglang.test.test_utils import popen_launch_pd_server\n"
        "from nowhere.at.all import helper\n"
        "import also_missing\n"
        "popen_launch_pd_server('m', 'http://127.0.0.1:30000', other_args=['--tp', '2'])\n"
        "helper()\n"
        "also_missing.run()\n"
    )
    write(tmp_path, {"test_missing.py": test})
    result = analyze(tmp_path, "test_missing.py", monkeypatch)
    (server,) = result.servers
    assert option(server, "--tp") == "2" and not result.notes


def test_a_helper_of_the_tree_named_like_sglangs_keeps_the_built_in_model(tmp_path, monkeypatch) -> None:
    """SGLang's own repository holds test_utils.py: its popen_launch_pd_server is
    still read with the model (what it runs), not followed through its plumbing;
    a stdlib module is never looked for in the tree."""
    write(
        tmp_path,
        {
            "python/sglang/test/test_utils.py": "def popen_launch_pd_server(*a, **k):\n    raise RuntimeError\n",
            "subprocess.py": "def Popen(*a, **k):\n    pass\n",
            "test/test_pd.py": "import subprocess\nfrom sglang.test.test_utils import popen_launch_pd_server\npopen_launch_pd_server('m', 'http://h:1', other_args=['--tp', '2'])\n"
            "subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', '2'])\n",
        },
    )
    assert len(analyze(tmp_path, "test/test_pd.py", monkeypatch).servers) == 2


def test_an_imported_module_runs_nothing(tmp_path, monkeypatch) -> None:
    """A module read for its definitions: its top-level launches are its own
    file's, its `if __name__ == "__main__"` block is not run, its functions are
    run only when the importer calls them."""
    module = LAUNCHER + "serve('prefill', 1)\nif __name__ == '__main__':\n    serve('prefill', 2)\n"
    write(tmp_path, {"pkg/launcher.py": module, "run.py": "import subprocess  # wraps sglang.launch_server\nfrom pkg.launcher import TP\nprint(TP)\n"})
    assert analyze(tmp_path, "run.py", monkeypatch).servers == []


def test_a_test_module_deriving_a_server_fixture_is_a_candidate() -> None:
    assert python_may_run_a_launch("from sglang.test.server_fixtures.disaggregation_fixture import PDDisaggregationServerBase\n")
    assert may_launch("python", "from mypkg.test.server_fixtures import pd_fixture\n")
    assert not python_may_run_a_launch("import os\nfrom mypkg.models import Llama\n")


def test_the_fixture_in_the_repository(monkeypatch) -> None:
    """fixtures/python-test-base-class: one finding, on the subclass's line,
    the subclass named in the launch's context (topology's JSON `context`)."""
    root = Path(__file__).resolve().parent.parent / "fixtures" / "python-test-base-class"
    monkeypatch.chdir(root)
    report = lint_paths(["."], LintOptions(cache=False))
    assert [(f.code, f.location.path, f.location.line) for f in report.findings] == [("SGL001", os.path.join("test", "registered", "test_pd_unified_tp.py"), 11)]
    result = extract(os.path.join("test", "registered", "test_pd_unified_tp.py"), (root / "test" / "registered" / "test_pd_unified_tp.py").read_text(), FileKind.PYTHON, None, ProjectFiles((str(root),)))
    assert {launch.context.rsplit(" <- ", 1)[-1] for launch in result.servers} == {
        "TestUnifiedTPScatter via PDServerBase.setUpClass() called at " + os.path.join("test", "registered", "test_pd_unified_tp.py") + ":7"
    }


def test_a_module_imported_by_many_is_parsed_once(tmp_path, monkeypatch) -> None:
    from sglang_lint.sources.python_interpreter import PARSED

    write(tmp_path, SUITE)
    for index in range(5):
        write(tmp_path, {f"tests/test_unified_{index}.py": SUBCLASS.replace("decode_tp = 4", f"decode_tp = {index + 1}")})
    PARSED.clear()
    before = PARSED.parses
    for index in range(5):
        (_, decode) = analyze(tmp_path, f"tests/test_unified_{index}.py", monkeypatch).servers
        assert option(decode, "--tp") == str(index + 1)
    assert PARSED.parses - before == 2  # server_base.py and common.py


def test_copies_of_one_module_place_their_launches_in_their_own_file(tmp_path, monkeypatch) -> None:
    """Two packages vendoring the same launcher: each importer's launch is
    located in the copy it imports (a node keeps its location once computed,
    so the copies must not share a tree)."""
    importer = "import subprocess  # wraps sglang.launch_server\nfrom {package}.launcher import serve\nserve('decode', 8)\n"
    write(tmp_path, {"a/launcher.py": LAUNCHER, "b/launcher.py": LAUNCHER, "run_a.py": importer.format(package="a"), "run_b.py": importer.format(package="b")})
    for package in ("a", "b"):
        (server,) = analyze(tmp_path, f"run_{package}.py", monkeypatch).servers
        assert server.location.path == os.path.join(package, "launcher.py")


def test_a_module_is_read_only_when_a_name_it_gives_is_used(tmp_path, monkeypatch) -> None:
    """A launcher's imports cost nothing until used: pkg/unused.py is neither
    read nor a dependency."""
    write(tmp_path, {"pkg/launcher.py": LAUNCHER, "pkg/unused.py": "X = 1\n", "run.py": "import subprocess  # wraps sglang.launch_server\nfrom pkg.unused import X\nfrom pkg.launcher import serve\nserve('decode', 8)\n"})
    result = analyze(tmp_path, "run.py", monkeypatch)
    assert len(result.servers) == 1
    assert [path for path, _ in result.dependencies] == [os.path.join("pkg", "launcher.py")]


def test_a_server_fixture_class_that_is_not_the_projects_is_named(tmp_path, monkeypatch) -> None:
    """Never drop a deployment silently: SGLang's PD tests linted without SGLang's
    python/ directory in the tree get a note at the class line."""
    test = (
        "from sglang.test.server_fixtures.disaggregation_fixture import PDDisaggregationServerBase\n"
        "\n"
        "class TestUnified(PDDisaggregationServerBase):\n"
        "    decode_tp_size = 2\n"
        "\n"
        "    def test_it(self):\n"
        "        pass\n"
    )
    write(tmp_path, {"test_unified.py": test})
    result = analyze(tmp_path, "test_unified.py", monkeypatch)
    assert result.servers == []
    (note,) = result.notes
    assert (note.line, note.path) == (3, "test_unified.py") and "PDDisaggregationServerBase" in note.message
    # A base class that is the project's: no note.
    write(tmp_path, {"sglang/test/server_fixtures/disaggregation_fixture.py": "class PDDisaggregationServerBase:\n    pass\n"})
    assert analyze(tmp_path, "test_unified.py", monkeypatch).notes == []


def test_topology_json_names_the_subclass_and_noqa_on_the_class_line_silences(tmp_path, monkeypatch, capsys) -> None:
    """Each server's `context` in `topology --format json` ends with the class
    that brought it (file and line of its `class` statement); a `# noqa` there
    silences the finding located in the base class's launch."""
    import json

    from sglang_lint.cli import main

    write(tmp_path, {**SUITE, "tests/test_unified.py": SUBCLASS.replace("decode_tp = 4", "decode_tp = 1  # keep")})
    monkeypatch.chdir(tmp_path)
    main(["topology", "--format", "json", "--no-cache", "tests"])
    data = json.loads(capsys.readouterr().out)
    contexts = [server["context"] for deployment in data["deployments"] for server in deployment["servers"]]
    assert len(contexts) == 2
    assert all(c.endswith("TestUnified via ServerBase.setUpClass() called at " + os.path.join("tests", "test_unified.py") + ":5") for c in contexts)
    # prefill 1 vs decode 4 with unified memory: SGL001 unless silenced on the class line.
    write(tmp_path, {"tests/test_unified.py": SUBCLASS.replace("    decode_tp = 4\n", "    prefill_tp = 4\n    decode_tp = 1\n")})
    report = lint_paths(["tests"], LintOptions(cache=False))
    assert [f.code for f in report.findings] == ["SGL001"]
    write(tmp_path, {"tests/test_unified.py": SUBCLASS.replace("    decode_tp = 4\n", "    prefill_tp = 4\n    decode_tp = 1\n").replace("(ServerBase):", "(ServerBase):  # noqa: SGL001")})
    assert lint_paths(["tests"], LintOptions(cache=False)).findings == []


def test_an_installed_environment_in_the_tree_is_not_the_projects(tmp_path, monkeypatch) -> None:
    from sglang_lint.sources.python_imports import module_files

    write(tmp_path, {".venv/lib/python3.11/site-packages/mypkg/launcher.py": LAUNCHER, "node_modules/mypkg/launcher.py": LAUNCHER, "run.py": "import subprocess  # wraps sglang.launch_server\nfrom mypkg.launcher import serve\nserve('decode', 8)\n"})
    result = analyze(tmp_path, "run.py", monkeypatch)
    assert result.servers == [] and result.dependencies == []
    assert module_files("run.py", "mypkg.launcher", 0, (os.path.realpath(tmp_path),)) == []


@pytest.mark.parametrize("run", ["", "run-2"], ids=["no-run", "a-run"])
def test_a_module_created_after_a_first_analysis_is_found_by_the_next(tmp_path, monkeypatch, run) -> None:
    """An editor's server analyzes again and again in one process: the
    listing of the project's modules is one run's, never the process's (a
    module created after the first listing was never found: its import
    stayed "not followed" until the server restarted)."""
    write(tmp_path, {"src/mypkg/__init__.py": "", "scripts/run.py": "# serves sglang.launch_server\nfrom mypkg.launcher import serve, TP\nserve('decode', TP)\n"})
    monkeypatch.chdir(tmp_path)
    text = (tmp_path / "scripts" / "run.py").read_text()
    first = extract("scripts/run.py", text, FileKind.PYTHON, None, ProjectFiles((os.path.realpath(tmp_path),), run=run))
    assert first.servers == []
    write(tmp_path, {"src/mypkg/launcher.py": LAUNCHER})
    second = extract("scripts/run.py", text, FileKind.PYTHON, None, ProjectFiles((os.path.realpath(tmp_path),), run=run + "-next" if run else ""))
    assert [option(server, "--tp") for server in second.servers] == ["8"]


def test_a_base_class_helper_no_code_calls_is_not_run_for_the_subclass(tmp_path, monkeypatch) -> None:
    """SGLang's fixture has launch_all() beside start_prefill()/start_decode(); a
    test calling the latter from its setUpClass never runs the former: one
    prefill and one decode, not two of each (each pair a copy of a finding)."""
    base = BASE + "\n    @classmethod\n    def launch_all(cls):\n        cls.start('prefill', 1, 'http://127.0.0.1:30000')\n        cls.start('decode', 1, 'http://127.0.0.1:30001')\n"
    base = base.replace("    def setUpClass(cls):\n", "    def setUpClass(cls):\n        return\n")
    test = SUBCLASS + "\n    @classmethod\n    def setUpClass(cls):\n        cls.start('prefill', cls.prefill_tp, 'http://127.0.0.1:30000')\n        cls.start('decode', cls.decode_tp, 'http://127.0.0.1:30001')\n"
    write(tmp_path, {**SUITE, "fixtures/server_base.py": base, "tests/test_unified.py": test})
    prefill, decode = analyze(tmp_path, "tests/test_unified.py", monkeypatch).servers
    assert (option(prefill, "--tp"), option(decode, "--tp")) == ("1", "4")
    # Analyzed alone, the base class runs every method nobody calls.
    assert len(analyze(tmp_path, "fixtures/server_base.py", monkeypatch).servers) >= 2


def test_only_the_statements_binding_the_names_used_run(tmp_path, monkeypatch) -> None:
    """consts.py's `DERIVED = other.VALUE` is not needed for TP: other.py is
    never read; a name bound twice takes its last value."""
    write(
        tmp_path,
        {
            "pkg/consts.py": "import other\nTP = 2\nDERIVED = other.VALUE\nTP = TP * 4\n",
            "pkg/other.py": "VALUE = 1\n",
            "run.py": "import subprocess  # wraps sglang.launch_server\nfrom pkg.consts import TP\nsubprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(TP)])\n",
        },
    )
    result = analyze(tmp_path, "run.py", monkeypatch)
    (server,) = result.servers
    assert option(server, "--tp") == "8"
    assert [path for path, _ in result.dependencies] == [os.path.join("pkg", "consts.py")]


@pytest.mark.parametrize("star", ["from pkg import *", "from pkg.consts import *"])
def test_a_star_import_runs_only_the_statements_binding_the_names_used(tmp_path, monkeypatch, star) -> None:
    """`from m import *` binds m's public names as `from m import name` does:
    read when used. It ran every statement of m (SGLang's `from
    sglang.srt.utils.common import *`, 5,000 lines, was a third of a PD test's
    analysis); here other.py, which only an unused name needs, is never read,
    through a package's `__init__.py` re-exporting its module too."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "from .consts import *\nfrom .consts import _private\n",
            "pkg/consts.py": "import other\nTP = 2\nDERIVED = other.VALUE\nTP = TP * 4\n_private = 1\n",
            "pkg/other.py": "VALUE = 1\n",
            "run.py": f"import subprocess  # wraps sglang.launch_server\n{star}\nsubprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(TP)])\n",
        },
    )
    result = analyze(tmp_path, "run.py", monkeypatch)
    (server,) = result.servers
    assert option(server, "--tp") == "8"
    read = [path for path, _ in result.dependencies]
    assert os.path.join("pkg", "other.py") not in read and os.path.join("pkg", "consts.py") in read


def test_a_star_import_binds_no_private_name(tmp_path, monkeypatch) -> None:
    write(
        tmp_path,
        {
            "pkg/consts.py": "_TP = 2\nTP = 4\n",
            "run.py": "import subprocess  # wraps sglang.launch_server\nfrom pkg.consts import *\n_TP = 8\nsubprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(_TP), '--dp', str(TP)])\n",
        },
    )
    (server,) = analyze(tmp_path, "run.py", monkeypatch).servers
    assert option(server, "--tp") == "8" and option(server, "--dp") == "4"


INSTALLED_FIXTURE = (
    "from sglang.test.test_utils import popen_launch_pd_server\n"
    "from sglang.test.broken import MARKER\n"
    "\n"
    "class FakeInstalledPDBase:\n"
    "    marker = MARKER\n"
    "    model = 'm'\n"
    "    prefill_tp = 1\n"
    "    decode_tp = 1\n"
    "    extra_prefill_args = []\n"
    "    extra_decode_args = []\n"
    "\n"
    "    @classmethod\n"
    "    def setUpClass(cls):\n"
    "        cls.start_prefill()\n"
    "        cls.start_decode()\n"
    "\n"
    "    @classmethod\n"
    "    def start_prefill(cls):\n"
    "        if cls.extra_prefill_args:\n"
    "            pass\n"
    "        popen_launch_pd_server(cls.model, 'http://127.0.0.1:30000', other_args=['--disaggregation-mode', 'prefill', '--tp', str(cls.prefill_tp)] + cls.extra_prefill_args)\n"
    "\n"
    "    @classmethod\n"
    "    def start_decode(cls):\n"
    "        popen_launch_pd_server(cls.model, 'http://127.0.0.1:30001', other_args=['--disaggregation-mode', 'decode', '--tp', str(cls.decode_tp)] + cls.extra_decode_args)\n"
)
# SGLang's helper, installed: its built-in model stays in force (it would launch nothing here).
INSTALLED_TEST_UTILS = "def popen_launch_pd_server(model, base_url, other_args=()):\n    return None\n"
INSTALLED_USER = (
    "from sglang.test.server_fixtures.disaggregation_fixture import FakeInstalledPDBase\n"
    "\n"
    "\n"
    "class TestUnified(FakeInstalledPDBase):\n"
    "    decode_tp = 4\n"
    "    extra_prefill_args = extra_decode_args = ['--enable-unified-memory']\n"
    "\n"
    "    def test_it(self):\n"
    "        pass\n"
)


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A fake environment: site-packages/sglang with the fixture module, on sys.path."""
    site = tmp_path / "env" / "site-packages"
    write(site, {"sglang/__init__.py": "raise RuntimeError('never imported')\n", "sglang/test/__init__.py": "", "sglang/test/server_fixtures/__init__.py": "", "sglang/test/server_fixtures/disaggregation_fixture.py": INSTALLED_FIXTURE, "sglang/test/broken.py": "def (:\n", "sglang/test/test_utils.py": INSTALLED_TEST_UTILS})
    monkeypatch.syspath_prepend(str(site))
    project = tmp_path / "project"
    write(project, {"test/test_unified.py": INSTALLED_USER})
    monkeypatch.chdir(project)
    return site, project


def _check(project: Path, **config):
    from sglang_lint.config import Config

    options = LintOptions(cache=False, config=Config(path=project / "sglang-lint.toml", **config))
    return lint_paths(["."], options)


def test_an_installed_sglang_module_is_read_and_findings_stay_on_the_users_file(installed) -> None:
    site, project = installed
    report = _check(project)
    user = os.path.join("test", "test_unified.py")
    assert [(f.code, f.location.path) for f in report.findings] == [("SGL001", user)]
    result = extract(user, (project / user).read_text(), FileKind.PYTHON, None, ProjectFiles((os.path.realpath(project),)))
    prefill, decode = result.servers
    assert (option(prefill, "--tp"), option(decode, "--tp")) == ("1", "4")
    assert {launch.location.path for launch in result.servers} == {user}
    # The note about the installed module's own unreadable import is dropped
    # (nothing the user can change); none points into site-packages.
    assert result.notes == []
    # Never imported: the fake package raises on import.
    imported = [name for name, module in sys.modules.items() if os.path.realpath(str(getattr(module, "__file__", None) or "")).startswith(os.path.realpath(site))]
    assert imported == [] and "sglang.test.server_fixtures.disaggregation_fixture" not in sys.modules
    assert any(os.path.realpath(path) == os.path.realpath(site / "sglang/test/server_fixtures/disaggregation_fixture.py") for path, _ in result.dependencies)


def test_follow_installed_false_turns_it_off(installed) -> None:
    _, project = installed
    # No launch and no false finding; the unfollowed base class is named (SGL900).
    assert [f.code for f in _check(project, follow_installed=False).findings] == ["SGL900"]
    user = os.path.join("test", "test_unified.py")
    result = extract(user, (project / user).read_text(), FileKind.PYTHON, None, ProjectFiles((os.path.realpath(project),), follow_installed=False))
    assert result.servers == [] and result.dependencies == []


def test_a_module_of_the_tree_wins_over_the_installed_one(installed) -> None:
    site, project = installed
    tree = os.path.join("python", "sglang", "test", "server_fixtures", "disaggregation_fixture.py")
    write(project, {tree: INSTALLED_FIXTURE.replace("prefill_tp = 1", "prefill_tp = 2")})
    user = os.path.join("test", "test_unified.py")
    result = extract(user, (project / user).read_text(), FileKind.PYTHON, None, ProjectFiles((os.path.realpath(project),)))
    prefill, _ = result.servers
    assert option(prefill, "--tp") == "2"
    read = {os.path.realpath(path) for path, _ in result.dependencies}
    assert os.path.realpath(tree) in read and os.path.realpath(site / "sglang/test/server_fixtures/disaggregation_fixture.py") not in read


def test_editing_the_installed_file_invalidates_the_cached_result(installed, tmp_path) -> None:
    from sglang_lint.config import Config

    site, project = installed
    options = LintOptions(cache=True, cache_dir=str(tmp_path / "cache"), config=Config(path=project / "sglang-lint.toml"))
    assert [f.code for f in lint_paths(["."], options).findings] == ["SGL001"]
    fixture = site / "sglang/test/server_fixtures/disaggregation_fixture.py"
    fixture.write_text(fixture.read_text().replace("'--tp', str(cls.prefill_tp)", "'--tp', '4'"))
    assert lint_paths(["."], options).findings == []
    # Toggling the key is part of the cache key.
    off = LintOptions(cache=True, cache_dir=str(tmp_path / "cache"), config=Config(path=project / "sglang-lint.toml", follow_installed=False))
    assert [f.code for f in lint_paths(["."], off).findings] == ["SGL900"]


def test_follow_installed_is_a_validated_setting_shown_by_show_settings(installed, capsys) -> None:
    from sglang_lint.cli import main

    _, project = installed
    (project / "sglang-lint.toml").write_text("follow-installed = false\n", encoding="utf-8")
    assert main(["--show-settings", "."]) == 0
    assert "follow-installed = false" in capsys.readouterr().out
    # The file's key reaches the run: the installed fixture is not followed.
    assert main(["check", "--no-cache", "--output-format", "concise", "."]) != 0
    assert "SGL900" in capsys.readouterr().out
    (project / "sglang-lint.toml").write_text('follow-installed = "no"\n', encoding="utf-8")
    assert main(["check", "--no-cache", "."]) == 2
    assert "follow-installed must be true or false, not a string" in capsys.readouterr().err


def test_a_note_about_the_installed_modules_branches_moves_to_the_users_file(installed) -> None:
    """More than 64 paths through the installed fixture's branches (seven
    environment variables, each adding an option): the note says so at the
    user's line that led to the launches, naming the installed file."""
    site, project = installed
    branches = "".join(f"        if os.environ.get('FLAG{i}'):\n            args = args + ['--flag-{i}']\n" for i in range(7))
    fixture = site / "sglang/test/server_fixtures/disaggregation_fixture.py"
    fixture.write_text(
        "import os\n"
        + INSTALLED_FIXTURE.replace(
            "    def start_decode(cls):\n",
            "    def start_decode(cls):\n        args = []\n" + branches,
        ).replace("+ cls.extra_decode_args)", "+ cls.extra_decode_args + args)")
    )
    user = os.path.join("test", "test_unified.py")
    result = extract(user, (project / user).read_text(), FileKind.PYTHON, None, ProjectFiles((os.path.realpath(project),)))
    assert result.servers and {launch.location.path for launch in result.servers} == {user}
    (note,) = [note for note in result.notes if "more than 64 paths" in note.message]
    assert (note.path, note.line) == (user, 4)
    assert "branches of the installed " in note.message and "disaggregation_fixture.py (line " in note.message
    assert all(note.path == user for note in result.notes)


def test_an_import_not_followed_is_noted_only_where_a_launch_may_have_read_it(tmp_path, monkeypatch) -> None:
    """Issue 20: SGLang's own modules read each other's definitions in long
    chains; an import that could not be followed (here, a binary file) hides
    nothing from a file that launches nothing, nor in a module read for its
    definitions. In a file that launches, it is noted: a value of the launch
    may be unknown because of it."""
    write(
        tmp_path,
        {
            "helpers.py": "from broken import WEIGHTS\n\ndef serve():\n    return WEIGHTS\n",
            "quiet.py": "from broken import WEIGHTS\nfrom helpers import serve\n\nprint(WEIGHTS, serve())\n\n\ndef launch_server_help():\n    return 'see sglang.launch_server'\n",
            "loud.py": (
                "import subprocess\nfrom broken import TP\n\n"
                "subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(TP)])\n"
            ),
        },
    )
    (tmp_path / "broken.py").write_bytes(b"\x00\x01binary")
    quiet = analyze(tmp_path, "quiet.py", monkeypatch)
    assert quiet.servers == [] and quiet.notes == []
    loud = analyze(tmp_path, "loud.py", monkeypatch)
    assert len(loud.servers) == 1
    assert [(note.line, note.message.split(":")[0]) for note in loud.notes] == [(2, "import of broken not followed")]


def test_a_root_reaches_a_launch_two_modules_away(tmp_path, monkeypatch) -> None:
    # A function nothing in the file calls (a test runner's entry) calls a
    # helper of another module, which calls the launcher of a third. The
    # helper's statements were judged by the analyzed file's names, in which
    # `launch` is unbound: its call was cut as "after the last launch" and the
    # launch was lost without a word.
    write(
        tmp_path,
        {
            "pkg/inner.py": LAUNCHER.replace("def serve(", "def launch("),
            "pkg/helpers.py": "import subprocess  # runs sglang.launch_server through pkg.inner\nfrom pkg.inner import launch\n\n\ndef start(mode, tp):\n    launch(mode, tp)\n",
            "decode.py": "import subprocess  # wraps sglang.launch_server\nfrom pkg.helpers import start\n\n\ndef main():\n    start('decode', 8)\n",
        },
    )
    (decode,) = analyze(tmp_path, "decode.py", monkeypatch).servers
    assert option(decode, "--tp") == "8"
    assert option(decode, "--disaggregation-mode") == "decode"


@pytest.mark.parametrize("helper_launches", [False, True])
def test_a_call_too_deep_is_noted_only_where_it_could_launch(tmp_path, monkeypatch, helper_launches) -> None:
    # SGLang's model files: a launcher imports helpers that cannot start
    # anything, and the interpreter's stack overflows inside one (simulated
    # here: CPython's limit depends on the frames around the test). What is
    # lost is a value, already unknown; "launches inside may be missing" was a
    # false note. A helper that can launch keeps it.
    from sglang_lint.sources.python_interpreter import PythonInterpreter

    body = 'subprocess.run(["python3", "-m", "sglang.launch_server"])\n    return x\n' if helper_launches else "return [x, x]\n"
    write(tmp_path, {"helpers.py": "import subprocess\n\n\ndef widen(x):\n    " + body, "run.py": "import subprocess  # wraps sglang.launch_server\nfrom helpers import widen\n\nTP = widen(8)\n" + LAUNCHER.split("\n\n\n")[1] + "\nserve('decode', TP)\n"})
    original = PythonInterpreter._exec_block

    def overflow(self, statements, depth):
        if statements and self.module is not None and self.module.path.endswith("helpers.py") and depth == 1:
            raise RecursionError("simulated")
        return original(self, statements, depth)

    monkeypatch.setattr(PythonInterpreter, "_exec_block", overflow)
    result = analyze(tmp_path, "run.py", monkeypatch)
    assert [option(launch, "--disaggregation-mode") for launch in result.servers] == ["decode"]
    depth_notes = [note for note in result.notes if note.message.startswith("nesting too deep")]
    assert bool(depth_notes) is helper_launches, result.notes


def test_a_helper_importing_a_configuration_class_in_its_body_is_no_launcher(tmp_path, monkeypatch) -> None:
    """A helper of another module that imports ServerArgs in its body builds a
    configuration, which is that module's to report: calling it makes the
    importer no launcher to run, and the module ServerArgs comes from is not
    even read to decide it (issue 20: SGLang's runtime_context.py and its
    `publish`; one_batch.py read 90 modules, 73 MB, for no launch)."""
    files = {
        "pkg/server_args.py": "import subprocess\n\nclass ServerArgs:\n    def probe(self):\n        subprocess.run(['python3', '-m', 'sglang.launch_server'])\n",
        "pkg/context.py": "def _install():\n    from pkg.server_args import ServerArgs\n    return ServerArgs(model_path='dummy')\n\n\ndef publish(args):\n    return _install()\n",
        "bench.py": "import subprocess  # the bench can start sglang.launch_server\nfrom pkg.context import publish\n\n\ndef main(args):\n    publish(args)\n",
    }
    write(tmp_path, files)
    result = analyze(tmp_path, "bench.py", monkeypatch)
    assert result.servers == [] and not result.notes
    assert os.path.join("pkg", "server_args.py") not in [path for path, _ in result.dependencies]


@pytest.mark.parametrize("launches", [False, True])
def test_a_function_the_file_defines_is_judged_by_its_body_not_its_name(tmp_path, monkeypatch, launches) -> None:
    """SGLang's entry modules define their own `launch_server` (it serves in
    the same process): calling it is a launch only when its body reaches one,
    as running it shows, not because the name is an entry point's (issue 20:
    such files were interpreted for nothing)."""
    from sglang_lint.sources import python_interpreter

    body = "    subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', '8'])\n" if launches else "    return serve_in_this_process(args)\n"
    text = "import subprocess  # sglang.launch_server's own module\n\n\ndef launch_server(args):\n" + body + "\n\nif __name__ == '__main__':\n    launch_server(None)\n"
    write(tmp_path, {"entry.py": text})
    runs = []
    original = python_interpreter.PythonInterpreter._run_uncalled
    monkeypatch.setattr(python_interpreter.PythonInterpreter, "_run_uncalled", lambda self, tree: (runs.append(1), original(self, tree))[1])
    result = analyze(tmp_path, "entry.py", monkeypatch)
    assert bool(result.servers) == launches == bool(runs)


def test_a_module_is_parsed_one_definition_at_a_time(tmp_path, monkeypatch) -> None:
    """Issues 20 and 24: an imported module's functions and classes are parsed
    when they first run (python_outline). A syntax error in a definition the
    launch needs is noted at the import, as for a module that cannot be read;
    the module's other names are still followed."""
    write(
        tmp_path,
        {
            "helpers.py": "TP = 8\n\n\ndef port():\n    return 30000\n\n\ndef broken():\n    x = = 1\n",
            "run.py": (
                "import subprocess\nfrom helpers import TP, port, broken\n\n"
                "subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(TP), '--port', str(port())])\n"
            ),
            "uses_broken.py": (
                "import subprocess\nfrom helpers import TP, broken\n\n"
                "subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(TP), '--port', str(broken())])\n"
            ),
        },
    )
    result = analyze(tmp_path, "run.py", monkeypatch)
    (server,) = result.servers
    assert (option(server, "--tp"), option(server, "--port")) == ("8", "30000")
    assert result.notes == []  # `broken` is imported, never used: its body is never parsed
    result = analyze(tmp_path, "uses_broken.py", monkeypatch)
    (server,) = result.servers
    assert option(server, "--tp") == "8"
    assert [(note.line, note.message) for note in result.notes] == [
        (2, "import of helpers not followed: helpers.py:8 is not valid Python; the names it defines are unknown here")
    ]


def test_a_name_a_module_defines_inside_a_branch_stays_defined_after_it(tmp_path, monkeypatch) -> None:
    """A module's names are defined when first looked up; one first looked up
    inside a branch is the same on every path and stays (before, the branch's
    undo log took it back: the other branch found `helpers.port` missing, its
    value differed between the branches and the file was interpreted four
    times to find `--port 30000` on both ways)."""
    write(
        tmp_path,
        {
            "helpers.py": "def port():\n    return '30000'\n\n\ndef tp():\n    return '2'\n",
            "run.py": (
                "import os, subprocess\n"
                "import helpers\n\n"
                "t = helpers.tp()\n"
                "if os.getenv('A'):\n"
                "    p = helpers.port()\n"
                "else:\n"
                "    p = helpers.port()\n"
                "subprocess.run(['python3', '-m', 'sglang.launch_server', '--port', p, '--tp', t])\n"
            ),
        },
    )
    from test_launch_variants import record_runs

    runs = record_runs(monkeypatch)
    result = analyze(tmp_path, "run.py", monkeypatch)
    (server,) = result.servers
    assert (option(server, "--port"), option(server, "--tp")) == ("30000", "2")
    assert server.path_condition == () and len(runs) == 1


def test_an_environment_none_test_in_a_base_class_of_another_module_forks(tmp_path, monkeypatch) -> None:
    # SGLang's PD fixture pattern (0.5.23 disaggregation_fixture.py:109-114):
    # the base class reads the RDMA devices from the environment and drops the
    # option when there are none. A condition of another module's code is
    # merged unless the environment decides it; `is None` of an environment
    # value now does, so each way is a variant and the roles stay known (before,
    # the merged list was any number of words that might override them).
    write(
        tmp_path,
        {
            "fixtures/pd_fixture.py": (
                "import os, subprocess, sys\n"
                "\n"
                "class PDServerBase:\n"
                "    @classmethod\n"
                "    def setUpClass(cls):\n"
                '        cls.devices = ["--disaggregation-ib-device", os.getenv("DEVS")]\n'
                "        if cls.devices[1] is None:\n"
                "            cls.devices = []\n"
                "\n"
                "    @classmethod\n"
                "    def start(cls, role):\n"
                '        subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", role, "--tp", "2"] + cls.devices)\n'
            ),
            "tests/test_pd.py": (
                "import subprocess\nfrom fixtures.pd_fixture import PDServerBase\n\n\nclass TestPD(PDServerBase):\n"
                "    @classmethod\n    def setUpClass(cls):\n        super().setUpClass()\n        cls.start('prefill')\n        cls.start('decode')\n"
            ),
        },
    )
    result = analyze(tmp_path, "tests/test_pd.py", monkeypatch)
    seen = sorted((option(launch, "--disaggregation-mode"), [step.text for step in launch.path_condition], argv(launch)[-1]) for launch in result.servers)
    assert seen == [
        ("decode", ["$DEVS is set"], "<symbol>"),
        ("decode", ["$DEVS is unset"], "2"),
        ("prefill", ["$DEVS is set"], "<symbol>"),
        ("prefill", ["$DEVS is unset"], "2"),
    ]


ENVIRON = (
    "import os\n"
    "\n"
    "class EnvField:\n"
    "    def __init__(self, default):\n"
    "        self.default = default\n"
    "\n"
    "    def get(self):\n"
    "        value = os.getenv(self.name)\n"
    "        return self.default if value is None else self.parse(value)\n"
    "\n"
    "class EnvStr(EnvField):\n"
    "    def parse(self, value):\n"
    "        return value\n"
    "\n"
    "class EnvBool(EnvField):\n"
    "    pass\n"
    "\n"
    "class Envs:\n"
    '    SGLANG_TEST_BACKEND = EnvStr("mooncake")\n'
    "    SGLANG_TEST_DEVICES = EnvStr(None)\n"
    "    SGLANG_TEST_FLAG = EnvBool(False)\n"
    "\n"
    "envs = Envs()\n"
)


@pytest.mark.parametrize("with_environ", [True, False])
def test_sglangs_environment_registry_reads_are_environment_reads(tmp_path, monkeypatch, with_environ) -> None:
    # SGLang's PD fixture (0.5.23 disaggregation_fixture.py:101-114) takes the
    # transfer backend and RDMA devices from `envs.X.get()` (sglang/srt/environ.py:
    # os.getenv(X), else the field's default) and drops the devices option when
    # none is given. Read as the environment's values, the paths outside CI are
    # variants over $SGLANG_TEST_DEVICES with their roles known (before: unknown
    # calls, a merged list, roles unknown). Without environ.py to say what a
    # field is, a read stays unknown.
    files = {
        "tests/test_pd.py": (
            "import subprocess, sys\n"
            "from sglang.srt.environ import envs\n"
            "\n"
            "backend = envs.SGLANG_TEST_BACKEND.get()\n"
            'devices = ["--disaggregation-ib-device", envs.SGLANG_TEST_DEVICES.get()]\n'
            "if devices[1] is None:\n"
            "    devices = []\n"
            "flag = envs.SGLANG_TEST_FLAG.get()\n"
            'subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--flag", str(flag), "--disaggregation-transfer-backend", backend] + devices)\n'
        ),
    }
    if with_environ:
        files["sglang/srt/environ.py"] = ENVIRON
    write(tmp_path, files)
    result = analyze(tmp_path, "tests/test_pd.py", monkeypatch)
    seen = sorted(([t.value.describe() for t in launch.args[-4:]], [step.text for step in launch.path_condition]) for launch in result.servers)
    flag = "<unknown: the result of sglang.srt.environ.envs.SGLANG_TEST_FLAG.get()>"  # a bool is parsed: not modeled
    if with_environ:
        backend, devices = "$SGLANG_TEST_BACKEND (default mooncake)", "$SGLANG_TEST_DEVICES"
        conditions = ["$SGLANG_TEST_DEVICES is set"], ["$SGLANG_TEST_DEVICES is unset"]
    else:
        backend = "<unknown: the result of sglang.srt.environ.envs.SGLANG_TEST_BACKEND.get()>"
        devices = "<unknown: the result of sglang.srt.environ.envs.SGLANG_TEST_DEVICES.get()>"
        conditions = ["`devices[1] is None` is false"], ["`devices[1] is None` is true"]
    assert seen == [
        (["--disaggregation-transfer-backend", backend, "--disaggregation-ib-device", devices], conditions[0]),
        (["--flag", flag, "--disaggregation-transfer-backend", backend], conditions[1]),
    ]
    if with_environ:
        assert os.path.join("sglang", "srt", "environ.py") in {path for path, _ in result.dependencies}


def test_the_environment_registry_fields_are_read_from_the_class_alone() -> None:
    from sglang_lint.sources.python_interpreter import env_fields

    assert env_fields(ENVIRON) == {"SGLANG_TEST_BACKEND": ("EnvStr", "mooncake"), "SGLANG_TEST_DEVICES": ("EnvStr", None)}
    assert env_fields("class Envs:\n    X = EnvStr(\n") == {}  # not valid Python
    assert env_fields("X = EnvStr('a')\nclass Other:\n    Y = EnvStr('b')\n") == {}
    assert env_fields("class Envs:\n    X = EnvInt(3)\n    Y = EnvStr(f'{X}')\n    Z: str = EnvStr('z')\n") == {}


def test_items_that_differ_between_branches_are_located_where_they_are_written(tmp_path, monkeypatch) -> None:
    # A helper of another module empties a list on a condition it does not
    # decide (merged: not a decision of the environment), as SGLang's PD
    # fixture does with its RDMA devices. The merged items were located at line
    # 1 of the helper's file (the branch's list has no item to place them), and
    # the role's message said "may be overridden by ... at helpers.py:1"; they
    # are where the other list is written.
    write(
        tmp_path,
        {
            "helpers.py": (
                "import shutil\n"
                "\n"
                "\n"
                "def device_args():\n"
                '    args = ["--disaggregation-ib-device", "mlx5_0"]\n'
                "    if not shutil.which('ibstat'):\n"
                "        args = []\n"
                "    return args\n"
            ),
            "launch.py": (
                "import subprocess, sys\n"
                "from helpers import device_args\n"
                "\n"
                'subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", "prefill"] + device_args())\n'
            ),
        },
    )
    result = analyze(tmp_path, "launch.py", monkeypatch)
    (launch,) = result.servers
    (merged,) = [token for token in launch.args if token.spread]
    assert (merged.location.path, merged.location.line) == ("helpers.py", 5)


# -- exports: the names a file that launches nothing by its own text may call (issue 20)
EXPORTING = (
    "import subprocess\n"
    "\n"
    "\n"
    "def serve(mode, tp):\n"
    '    subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", mode, "--tp", str(tp)])\n'
    "\n"
    "\n"
    "def serve_extra(extra):\n"
    '    subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", *extra])\n'
    "\n"
    "\n"
    "def serve_fixed():\n"
    '    subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp", "8"])\n'
    "\n"
    "\n"
    "def _config(tp):\n"
    '    return ["--tp", str(tp)]\n'
    "\n"
    "\n"
    "class ServerFixture:\n"
    "    tp = 1\n"
    "\n"
    "    @classmethod\n"
    "    def setUpClass(cls):\n"
    '        cls.process = subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp", str(cls.tp)])\n'
    "\n"
    "\n"
    "class Client:\n"
    "    def ask(self, prompt):\n"
    "        return prompt\n"
    "\n"
    "\n"
    "def _outer():\n"
    "    def inner(tp):\n"
    '        subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp", str(tp)])\n'
    "    return inner\n"
)


def test_exports_are_the_launchers_that_take_what_a_caller_gives(tmp_path: Path, monkeypatch) -> None:
    """A function with parameters that a launch was made in (run as a root:
    a word, a spread list) and a class a method of which launched (a deriving
    class sets its attributes) are exports; a launcher without parameters (a
    caller gives it nothing: its launches are found in this file already), a
    helper that launches nothing (`_config` builds words and returns), a class
    that launches nothing and a nested function (not importable) are not."""
    write(tmp_path, {"helpers.py": EXPORTING})
    result = analyze(tmp_path, "helpers.py", monkeypatch)
    assert sorted(result.exports) == ["ServerFixture", "serve", "serve_extra"]


def test_exports_of_every_path_are_kept(tmp_path: Path, monkeypatch) -> None:
    """A file analyzed along several paths (launch variants: here 3 runs over
    `$ROLE`) exports what the roots of any path export, once each."""
    from sglang_lint.model import SourceResult
    from sglang_lint.sources.paths import decision, variants

    source = EXPORTING + "\nimport os\n\nif os.environ.get('ROLE') == 'decode':\n    MODE = 'decode'\nelse:\n    MODE = 'prefill'\n\n\ndef serve_mode(tp):\n    serve(MODE, tp)\n"
    write(tmp_path, {"helpers.py": source})
    result = analyze(tmp_path, "helpers.py", monkeypatch)
    assert len(result.servers) > 3  # (variants: serve_mode's launch forks on the role)
    assert sorted(result.exports) == ["ServerFixture", "serve", "serve_extra", "serve_mode"]  # serve: called here, still a launcher
    _, (when_true, when_false) = decision("eq\0$ROLE\0decode", ("yes", "no"), result.servers[0].location)
    one, other = SourceResult("a.py", exports=["serve", "Base"]), SourceResult("a.py", exports=["Base", "serve_mode"])
    assert variants([({"k": when_true}, one), ({"k": when_false}, other)]).exports == ["serve", "Base", "serve_mode"]


def test_a_module_that_launches_nothing_exports_nothing(tmp_path: Path, monkeypatch) -> None:
    write(tmp_path, {"helpers.py": "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run(cmd)\n# sglang\n"})
    assert analyze(tmp_path, "helpers.py", monkeypatch).exports == []


# A body of straight-line statements longer than a call of a function that
# cannot launch may run (each statement is a step).
_LONG_BODY = "".join(f"    filler_{index} = {index}\n" for index in range(MAX_NONLAUNCHING_CALL_STEPS + 20))
_LAUNCH = 'subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp", str({})])\n'


def _tp_words(root: Path, monkeypatch) -> list[str]:
    result = analyze(root, "run.py", monkeypatch)
    return [" ".join(token.value.text if token.value.is_known else f"<{token.value.reason}>" for token in launch.args[-1:]) for launch in result.servers]


def test_a_long_call_that_cannot_launch_is_given_up_and_its_result_unknown(tmp_path, monkeypatch) -> None:
    """A function of another module that can neither launch nor build a
    configuration runs at most MAX_NONLAUNCHING_CALL_STEPS steps (issue 20:
    such calls were 69% of the steps run on SGLang's tree, a test kit building
    memory pools); past them its result is unknown, and says why; a short one
    gives its value. A second call of the long one is not run at all."""
    helpers = "def short_tp():\n    return 8\n\n\ndef long_tp():\n" + _LONG_BODY + "    return 8\n"
    run = "import subprocess\nfrom helpers import long_tp, short_tp\n\n" + _LAUNCH.format("short_tp()") + _LAUNCH.format("long_tp()") + _LAUNCH.format("long_tp()")
    write(tmp_path, {"helpers.py": helpers, "run.py": run})
    assert _tp_words(tmp_path, monkeypatch) == ["8", *["<the result of long_tp(), which cannot start a server and is too long to follow>"] * 2]


@pytest.mark.parametrize("long", [False, True])
def test_what_a_call_given_up_on_changed_is_unknown_not_undone(tmp_path, monkeypatch, long) -> None:
    """`configure(config)` set `config.tp = 8` and then ran past the bound: the
    caller's 4 is not what it is now (undoing the call's changes left it 4, a
    wrong value for SGL001 to compare), nor 8 (it may change it again): it is
    unknown. A call within the bound keeps what it changed."""
    helpers = "def configure(config):\n    config.tp = 8\n" + (_LONG_BODY if long else "")
    run = (
        "import subprocess\nfrom helpers import configure\n\n\nclass Config:\n    pass\n\n\n"
        "config = Config()\nconfig.tp = 4\nif config.tp:\n    configure(config)\n" + _LAUNCH.format("config.tp")
    )
    write(tmp_path, {"helpers.py": helpers, "run.py": run})
    assert _tp_words(tmp_path, monkeypatch) == (["<the result of configure(), which cannot start a server and is too long to follow>"] if long else ["8"])


@pytest.mark.parametrize("handed", ["self", "function"])
def test_a_long_call_handed_the_files_code_runs_to_the_end(tmp_path, monkeypatch, handed) -> None:
    """A base fixture's method that calls back into the test class (an
    override of `server_args`), or a helper handed a function of the file,
    may launch or build a configuration through it after any number of steps:
    it is not bounded."""
    long_body = _LONG_BODY.replace("    ", "        ")
    if handed == "self":
        base = "class Base:\n    def start(self):\n" + long_body + "        return self.server_args()\n"
        test = "class TestBuild(Base):\n    def server_args(self):\n        return ServerArgs(model_path='m', tp_size=2)\n\n    def test_build(self):\n        self.start()\n"
    else:
        base = "def start(make):\n" + _LONG_BODY + "    return make()\n\n\nclass Base:\n    pass\n"
        test = "def make():\n    return ServerArgs(model_path='m', tp_size=2)\n\n\nclass TestBuild(Base):\n    def test_build(self):\n        start(make)\n"
    files = {"base.py": base, "test_run.py": "from sglang.srt.server_args import ServerArgs\nfrom base import Base, start\n\n\n" + test}
    if handed == "self":
        files["test_run.py"] = files["test_run.py"].replace("from base import Base, start", "from base import Base")
    write(tmp_path, files)
    result = analyze(tmp_path, "test_run.py", monkeypatch)
    assert [[(keyword.name, keyword.value.text) for keyword in server.keywords] for server in result.servers] == [[("model_path", "m"), ("tp_size", "2")]]


def test_a_long_generic_process_helper_runs_to_its_launch(tmp_path, monkeypatch) -> None:
    """A helper that starts whatever command its caller hands it spells no
    SGLang launch itself (`subprocess.Popen(cmd)`), but its module starts a
    process: it runs to the end, however long, and the launch is found."""
    helpers = "import subprocess\n\n\ndef start(cmd):\n" + _LONG_BODY + "    return subprocess.Popen(cmd)\n"
    run = 'from helpers import start\n\nstart(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp", "4"])\n'
    write(tmp_path, {"helpers.py": helpers, "run.py": run})
    assert _tp_words(tmp_path, monkeypatch) == ["4"]


def test_a_command_handed_to_an_imported_helper_passes_the_pre_check(tmp_path, monkeypatch) -> None:
    """`run(["sglang", "serve", ...])` through a helper the file imports: the
    file spells the command and no way to run it (the helper's module does),
    and was dismissed before it was parsed."""
    helpers = "import subprocess\n\n\ndef run(cmd):\n    return subprocess.Popen(cmd)\n"
    run = 'from helpers import run\n\nrun(["sglang", "serve", "--model-path", "m", "--tp", "4"])\n'
    assert python_may_run_a_launch(run) and not python_may_run_a_launch(run.replace("from helpers import run\n", ""))
    write(tmp_path, {"helpers.py": helpers, "run.py": run})
    assert _tp_words(tmp_path, monkeypatch) == ["4"]


def test_a_call_that_built_a_configuration_bounds_the_calls_it_makes_after(tmp_path, monkeypatch) -> None:
    """A call of another module's function that cannot launch runs on past its
    bound once it built a configuration (what it made is reported); the calls
    it makes from then on that cannot launch are bounded each, as the file's
    own are. SGLang's test kit (`build_fixture`) builds a ServerArgs and then
    memory pools whose constructors ran to their end: 37,000 steps, 12% of the
    tree's time (issue 20)."""
    sizes = "def long_tp():\n" + _LONG_BODY + "    return 8\n"
    helpers = "from sglang.srt.server_args import ServerArgs\nfrom sizes import long_tp\n\n\ndef build():\n    ServerArgs(model_path='m', tp_size=2)\n    return long_tp()\n"
    run = "import subprocess\nfrom helpers import build\n\n" + _LAUNCH.format("build()")
    write(tmp_path, {"sizes.py": sizes, "helpers.py": helpers, "run.py": run})
    result = analyze(tmp_path, "run.py", monkeypatch)
    assert [[(keyword.name, keyword.value.text) for keyword in server.keywords] for server in result.servers if server.keywords] == [[("model_path", "m"), ("tp_size", "2")]]
    assert _tp_words(tmp_path, monkeypatch)[-1] == "<the result of long_tp(), which cannot start a server and is too long to follow>"


OTHER_HELPER = '''\
import subprocess
import sys


def popen_launch_server(model, base_url, timeout, other_args=None):
    """sglang-jax's helper of the same name: it starts sgl_jax's own server."""
    _, host, port = base_url.split(":")
    command = [sys.executable, "-m", "sgl_jax.launch_server", "--model-path", model, "--port", port, *(other_args or [])]
    return subprocess.Popen(command)
'''

OTHER_TEST = '''\
import unittest

from sgl_jax.test.test_utils import popen_launch_server


class TestRetract(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.process = popen_launch_server(
            "Qwen/Qwen3-8B", "http://127.0.0.1:30000", 600, other_args=["--precompile-token-paddings", "8192"]
        )
'''


def test_another_packages_helper_of_the_same_name_is_read_not_taken_for_sglangs(tmp_path, monkeypatch) -> None:
    """sgl-project/sglang-jax's tests call `popen_launch_server` from
    `sgl_jax.test.test_utils`, which runs `python -m sgl_jax.launch_server`:
    taken for SGLang's helper by its name, its options (`--precompile-token-
    paddings`) were 80 false SGL202. A helper of another package that the tree
    holds is read as any function of the project; SGLang's own, imported from
    `sglang.test.test_utils`, keeps its model."""
    write(tmp_path, {"python/sgl_jax/__init__.py": "", "python/sgl_jax/test/__init__.py": "", "python/sgl_jax/test/test_utils.py": OTHER_HELPER, "test/srt/test_retract.py": OTHER_TEST})
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["."], LintOptions(cache=False))
    assert result.findings == [] and [s for d in result.deployments for s in d.servers] == []
    write(tmp_path, {"test/srt/test_retract.py": OTHER_TEST.replace("sgl_jax.test.test_utils", "sglang.test.test_utils")})
    ours = lint_paths(["."], LintOptions(cache=False))
    assert [f.code for f in ours.findings] == ["SGL202"]


UNFOLLOWED_HELPER = (
    "import os\n"
    "import subprocess\n"
    "\n"
    "def start(role):\n"
    '    cmd = [os.environ["LAUNCHER"], "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", role]\n'
    "    return subprocess.Popen(cmd)\n"
    "\n"
    "def start_known(role):\n"
    '    return subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", role])\n'
)


def test_a_launch_lost_in_an_imported_helper_is_noted_in_the_helper(tmp_path, monkeypatch) -> None:
    """The note of a launch an imported function could not follow was given the
    importer's path with the helper's line and column (`main.py:5:24`, past
    the end of main.py's line 5). It lies in the helper, with the importer's
    line that reached it; over the directory, the helper's own note and the
    importer's are one."""
    write(tmp_path, {"helper.py": UNFOLLOWED_HELPER, "main.py": "from helper import start, start_known\n\nstart('prefill')\nstart_known('decode')\n"})
    monkeypatch.chdir(tmp_path)
    result = extract("main.py", (tmp_path / "main.py").read_text(), FileKind.PYTHON, None, ProjectFiles((os.path.realpath(tmp_path),)), precheck=False, launcher_imported=True)
    (note,) = [note for note in result.notes if note.message.startswith("launch not analyzed")]
    assert (note.path, note.line, note.column) == ("helper.py", 5, 43)
    assert note.reached_from is not None and (note.reached_from.path, note.reached_from.line) == ("main.py", 3)
    for named in (["."], ["main.py"]):  # (the helper is context of main.py)
        found = [f for f in lint_paths(named, LintOptions()).findings if f.code == "SGL900"]
        assert [(f.location.path, f.location.line, [(r.location.path, r.location.line) for r in f.related]) for f in found] == [("helper.py", 5, [("main.py", 3)])]


def test_a_command_list_another_module_hands_to_a_process_is_its_launch(tmp_path) -> None:
    """A benchmark library writes the server's command as a list; a Modal app
    imports it and starts it with `subprocess.Popen`. The app spells no launch
    and imports no function that launches: the pre-check dismissed it, and
    the launch was lost without a note (ree2raz/inference-bench)."""
    write(
        tmp_path,
        {
            "bench_lib.py": (
                'MODEL = "Qwen/Qwen3-8B"\n'
                'SGLANG_SERVER_ARGS = ["python3", "-m", "sglang.launch_server", "--model-path", MODEL, "--tp", "2", "--port", "8000"]\n'
            ),
            "modal_app.py": (
                "import subprocess\n\n"
                "from bench_lib import SGLANG_SERVER_ARGS\n\n\n"
                "class Bench:\n"
                "    def start(self):\n"
                "        self.proc = subprocess.Popen(SGLANG_SERVER_ARGS)\n"
            ),
        },
    )
    result = lint_paths([str(tmp_path)], LintOptions(cache=False))
    launched = [(os.path.basename(deployment.name.split(" ")[0]), server.setting("tp_size").value.describe()) for deployment in result.deployments for server in deployment.servers]
    assert launched == [("modal_app.py", "2")]
