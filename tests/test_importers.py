"""The cross-file pre-check (issue 20, part 1: "an import of a module that the
tree knows to launch"): a Python file that spells no launch, but calls a
function of another module of the project that launches with what it is given
(or derives a class that launches), is analyzed. Before it, such a file was
dismissed by the text pre-check and its deployment lost without a word.

How it works (extraction.extract_importers): each analyzed module exports the
names a launch was made through (SourceResult.exports); each dismissed Python
file keeps what its imports name (prefilter.imported_names, also in the cache
of dismissed files); a file importing an exported name is read and extracted,
round after round (re-exports, wrappers of wrappers). A file named alone
(pre-commit) is read when one of its imports points at a module whose text
may launch (extraction.importing_launchers)."""

from __future__ import annotations

import os
import time
from pathlib import Path


from sglang_lint.cache import DismissedFiles
from sglang_lint.pipeline import LintOptions, lint_paths
from sglang_lint.sources.project import ProjectFiles
from test_cross_file import write

HELPERS = (
    "import subprocess\n"
    "import sys\n"
    "\n"
    "\n"
    "def start(role, tp):\n"
    '    return subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--model-path", "m",\n'
    '                             "--disaggregation-mode", role, "--tp", str(tp), "--enable-unified-memory"])\n'
    "\n"
    "\n"
    "def start_default():\n"
    '    return subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--model-path", "m", "--tp", "8"])\n'
)
DEPLOY = 'from helpers import start\n\nstart("prefill", 8)\nstart("decode", 4)\n'


def findings(root: Path, monkeypatch, *paths: str, **options) -> list[tuple[str, str, int]]:
    monkeypatch.chdir(root)
    result = lint_paths(list(paths) or ["."], LintOptions(**options))
    return sorted((f.code, os.path.relpath(f.location.path), f.location.line) for f in result.findings)


def test_a_file_that_only_calls_a_launcher_is_analyzed(tmp_path: Path, monkeypatch) -> None:
    write(tmp_path, {"helpers.py": HELPERS, "deploy.py": DEPLOY})
    assert findings(tmp_path, monkeypatch) == [("SGL001", "deploy.py", 4)]


def test_import_forms(tmp_path: Path, monkeypatch) -> None:
    """`import helpers` / `helpers.start(...)`, an alias, a relative import in
    a package, and a star import."""
    write(
        tmp_path,
        {
            "helpers.py": HELPERS,
            "a.py": 'import helpers\n\nhelpers.start("prefill", 8)\nhelpers.start("decode", 4)\n',
            "b.py": 'from helpers import start as launch\n\nlaunch("prefill", 8)\nlaunch("decode", 2)\n',
            "c.py": 'from helpers import *\n\nstart("prefill", 8)\nstart("decode", 1)\n',
            "pkg/__init__.py": "",
            "pkg/tools.py": HELPERS,
            "pkg/run.py": 'from .tools import start\n\nstart("prefill", 2)\nstart("decode", 1)\n',
        },
    )
    assert findings(tmp_path, monkeypatch) == [("SGL001", "a.py", 4), ("SGL001", "b.py", 4), ("SGL001", "c.py", 4), ("SGL001", os.path.join("pkg", "run.py"), 4)]


def test_wrappers_of_wrappers_are_followed_round_by_round(tmp_path: Path, monkeypatch) -> None:
    """A module that spells no launch wraps the helper (found in round 1, it
    exports its own launcher); the script calls the wrapper (round 2)."""
    wrapper = 'from helpers import start\n\n\ndef start_pd(prefill_tp, decode_tp):\n    start("prefill", prefill_tp)\n    start("decode", decode_tp)\n'
    write(tmp_path, {"helpers.py": HELPERS, "wrapper.py": wrapper, "run.py": "from wrapper import start_pd\n\nstart_pd(8, 4)\n"})
    assert findings(tmp_path, monkeypatch) == [("SGL001", "run.py", 3)]


def test_what_launches_nothing_from_a_caller_leaves_a_file_dismissed(tmp_path: Path, monkeypatch) -> None:
    """A launcher without parameters (its launch is the helper's own, found
    when the helper is analyzed) and names that launch nothing do not make a
    file read."""
    write(tmp_path, {"helpers.py": HELPERS + "\n\ndef port():\n    return 30000\n", "other.py": "from helpers import start_default, port\n\nstart_default()\nprint(port())\n"})
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["."], LintOptions())
    assert {server.launch.path for deployment in result.deployments for server in deployment.servers} == {"helpers.py"}


def test_a_file_named_alone_reads_what_it_imports(tmp_path: Path, monkeypatch) -> None:
    """pre-commit hands over the changed file only: its import is looked up
    where it points."""
    write(tmp_path, {"helpers.py": HELPERS, "deploy.py": DEPLOY, "unrelated.py": "import os\nprint(os.getcwd())\n"})
    assert findings(tmp_path, monkeypatch, "deploy.py") == [("SGL001", "deploy.py", 4)]
    assert findings(tmp_path, monkeypatch, "unrelated.py") == []


def _touch_later(path: Path, text: str) -> None:
    # A new stat for the caches' stamps, whatever the file system's clock.
    before = path.stat()
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))


def test_warm_runs_follow_the_importer_and_its_imports(tmp_path: Path, monkeypatch) -> None:
    """With the caches (per-file results, dismissed files with their imports,
    findings): an edit of the importer's values, of its imports, and of the
    helper each give the findings a cold run gives."""
    project = tmp_path / "project"
    write(project, {"helpers.py": HELPERS, "deploy.py": DEPLOY})
    cache = dict(cache=True, cache_dir=str(tmp_path / "cache"), reuse_findings=True)
    assert findings(project, monkeypatch, **cache) == [("SGL001", "deploy.py", 4)]
    assert findings(project, monkeypatch, **cache) == [("SGL001", "deploy.py", 4)]
    _touch_later(project / "deploy.py", DEPLOY.replace('"decode", 4', '"decode", 8'))
    assert findings(project, monkeypatch, **cache) == []
    _touch_later(project / "deploy.py", DEPLOY)
    assert findings(project, monkeypatch, **cache) == [("SGL001", "deploy.py", 4)]
    _touch_later(project / "deploy.py", DEPLOY.replace("from helpers import start", "from os import path as start"))
    assert findings(project, monkeypatch, **cache) == []
    _touch_later(project / "deploy.py", DEPLOY)
    assert findings(project, monkeypatch, **cache) == [("SGL001", "deploy.py", 4)]
    # The helper no longer launches with its caller's values.
    _touch_later(project / "helpers.py", HELPERS.replace("str(tp)", '"8"').replace('"--disaggregation-mode", role', '"--disaggregation-mode", "prefill"'))
    assert findings(project, monkeypatch, **cache) == []


def test_a_dismissed_file_keeps_its_imports(tmp_path: Path) -> None:
    path = tmp_path / "deploy.py"
    path.write_text(DEPLOY)
    info = path.stat()
    dismissed = DismissedFiles(tmp_path / "cache", "fingerprint")
    dismissed.dismiss(str(path), info, "", "python", "helpers\x1fstart")
    assert dismissed.save() is None
    again = DismissedFiles(tmp_path / "cache", "fingerprint").entry(str(path), info, "")
    assert again is not None and (again.kind, again.imports) == ("python", "helpers\x1fstart")
    time.sleep(0.01)
    path.write_text(DEPLOY + "\n")
    assert DismissedFiles(tmp_path / "cache", "fingerprint").entry(str(path), path.stat(), "") is None


def test_importers_extracted_by_worker_processes_agree_with_one_process(tmp_path: Path, monkeypatch) -> None:
    """Enough importers for a pool of workers (8 files each): the same findings."""
    files = {"helpers.py": HELPERS}
    for number in range(24):
        files[f"deploy_{number:02d}.py"] = DEPLOY.replace('"decode", 4', f'"decode", {(2, 8, 4)[number % 3]}')
    write(tmp_path, files)
    serial = findings(tmp_path, monkeypatch, jobs=1)
    assert serial == findings(tmp_path, monkeypatch, jobs=2)
    assert len(serial) == 16 and {code for code, _, _ in serial} == {"SGL001"}  # decode tp 2 and 4 differ from the prefill's 8


def test_every_file_named_finds_the_importer_among_them(tmp_path: Path, monkeypatch) -> None:
    """pre-commit --all-files names every file: past MAX_NAMED_FILES the
    imports of each are not looked up one by one; the launcher is among the
    named files, and its importers are found as in a walk."""
    from sglang_lint import extraction

    files = {"helpers.py": HELPERS, "deploy.py": DEPLOY}
    files.update({f"mod_{number:03d}.py": f"import os\n\nVALUE = {number}\n" for number in range(extraction.MAX_NAMED_FILES)})
    write(tmp_path, files)
    assert findings(tmp_path, monkeypatch, *sorted(files)) == [("SGL001", "deploy.py", 4)]


def test_standard_input_that_only_calls_a_launcher(tmp_path: Path, monkeypatch, capsys) -> None:
    """An editor piping its buffer (`--stdin-filename deploy.py -`), with and
    without the cache."""
    import io
    import sys

    from sglang_lint.cli import main

    write(tmp_path, {"helpers.py": HELPERS})
    monkeypatch.chdir(tmp_path)
    for cache in ([], ["--no-cache"]):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(DEPLOY.encode())))
        code = main(["check", "--output-format", "concise", *cache, "--stdin-filename", "deploy.py", "-"])
        out = capsys.readouterr().out
        assert code == 1 and out.startswith("deploy.py:4:17: SGL001 "), out


def test_a_fixture_class_whose_launch_goes_through_a_helper_of_its_module(tmp_path: Path, monkeypatch) -> None:
    """A test module that spells a marker itself (`...ServerBase`, so it passes
    the text pre-check) deriving a base class whose `setUpClass` launches
    through a function of the base's module that nothing had looked up yet:
    that function was no launch to the reach analysis (only the parsed
    definitions of another module join it), so no class ran (the first), or
    only the first (the next found the function defined, outside the reach
    computed before). Every class runs now."""
    import shutil

    fixture = Path(__file__).resolve().parent.parent / "fixtures" / "python-imported-helper"
    project = tmp_path / "project"
    shutil.copytree(fixture, project)
    for name in ("deploy/pd_helpers.py", "deploy/__init__.py", "tests/test_pd_layouts.py"):
        path = project / name
        path.write_text(path.read_text().replace("PDFixture", "PDServerBase"))
    found = findings(project, monkeypatch)
    assert ("SGL001", os.path.join("tests", "test_pd_layouts.py"), 12) in found
    # (the test module passes the text pre-check by the marker)
    from sglang_lint.prefilter import python_may_run_a_launch

    assert python_may_run_a_launch((project / "tests" / "test_pd_layouts.py").read_text())


def test_named_files_are_judged_by_the_python_source_s_own_check(tmp_path: Path, monkeypatch) -> None:
    """A file named alone is read when an import points at a module whose
    text may launch, and then judged by what its statements can reach: a
    test module deriving the helper's fixture class launches; one that only
    takes a constant of that module does not (nothing is run)."""
    import shutil

    fixture = Path(__file__).resolve().parent.parent / "fixtures" / "python-imported-helper"
    project = tmp_path / "project"
    shutil.copytree(fixture, project)
    (project / "scripts" / "show_model.py").write_text("from deploy.pd_helpers import MODEL\n\nprint(MODEL)\n")
    assert findings(project, monkeypatch, "tests/test_pd_layouts.py") == [("SGL001", os.path.join("tests", "test_pd_layouts.py"), 12)]
    monkeypatch.chdir(project)
    result = lint_paths(["scripts/show_model.py"], LintOptions())
    assert result.findings == [] and result.deployments == []


def test_launching_definitions_are_told_from_the_text() -> None:
    """What a named file's import must name to be read: a definition that
    starts a process or names an entry, calls or derives one that does; not
    one whose text only mentions an executor or a file system, nor one the
    pre-check's own markers name (a file launching through them spells them)."""
    from sglang_lint.extraction import launching_definitions

    text = (
        "import subprocess\nfrom concurrent.futures import ThreadPoolExecutor\n\nSGLANG = 'sglang'\n\n\n"
        "def start(role, tp):\n    return subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', str(tp)])\n\n\n"
        "def start_pd(tp):\n    start('prefill', tp)\n    start('decode', tp)\n\n\n"
        "class Fixture:\n    @classmethod\n    def setUpClass(cls):\n        cls.p = start_pd(cls.tp)\n\n\n"
        "class Derived(Fixture):\n    tp = 2\n\n\n"
        "def pool() -> ThreadPoolExecutor:\n    # the filesystem's executor\n    return ThreadPoolExecutor()\n\n\n"
        "def annotated() -> Fixture:\n    return None\n\n\n"
        "def launch_server(args):\n    subprocess.run(args)\n"
    )
    assert launching_definitions(text) == {"start", "start_pd", "Fixture", "Derived"}
    assert launching_definitions("import subprocess\n\ndef run(cmd):\n    subprocess.run(cmd)\n") == frozenset()  # (no SGLang: the pre-check)


def test_the_editor_s_workspace_index_reads_importers_and_follows_edits(tmp_path: Path) -> None:
    """The language server's index (workspace.WorkspaceLinter): an importer of
    a launcher of the workspace is analyzed at the scan; an edit of the helper
    that makes it launch nothing a caller gives reads the importer as
    dismissed again; an edit of an importer's buffer is judged at once."""
    from sglang_lint.workspace import WorkspaceLinter

    write(tmp_path, {"helpers.py": HELPERS, "deploy.py": DEPLOY, "other.py": "import os\n"})
    linter = WorkspaceLinter([str(tmp_path)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    deploy, helpers = str(tmp_path / "deploy.py"), str(tmp_path / "helpers.py")

    def codes(outcome) -> list[str]:
        return sorted(finding.code for finding in outcome.findings.get(deploy, []))

    assert codes(linter.run({})) == ["SGL001"]
    assert codes(linter.update({deploy: DEPLOY.replace('"decode", 4', '"decode", 8')}, {deploy})) == []
    assert codes(linter.update({deploy: DEPLOY}, {deploy})) == ["SGL001"]
    fixed = HELPERS.replace("str(tp)", '"8"').replace('"--disaggregation-mode", role', '"--disaggregation-mode", "prefill"')
    assert codes(linter.update({deploy: DEPLOY, helpers: fixed}, {helpers})) == []
    assert codes(linter.update({deploy: DEPLOY}, {helpers})) == ["SGL001"]  # (closed: the disk's helper again)


def test_imports_read_before_any_file_that_may_launch_are_scanned_when_needed(tmp_path: Path, monkeypatch) -> None:
    """Without a cache, the imports of the Python files dismissed before the
    first file that may launch are not scanned as they are read (a tree where
    nothing launches has nothing to import: perf.py's standard-library tree);
    an importer read first (`a_deploy.py` sorts before `helpers.py`) is still
    found, its imports scanned from the file when the helper's exports ask."""
    from sglang_lint import extraction

    write(tmp_path, {"a_deploy.py": DEPLOY, "helpers.py": HELPERS, "z_notes.py": "import os\n\nprint(os.sep)\n"})
    scanned: list[str] = []
    original = extraction.imports_text
    monkeypatch.setattr(extraction, "imports_text", lambda data: (scanned.append(data[:4].decode()), original(data))[1])
    assert findings(tmp_path, monkeypatch, cache=False) == [("SGL001", "a_deploy.py", 4)]
    # z_notes.py as it was read (after helpers.py, the first file that may
    # launch), then a_deploy.py when the helper's exports asked (read again)
    assert scanned == ["impo", "from"]
    scanned.clear()
    write(tmp_path, {"helpers.py": "print('nothing starts here')\n"})
    assert findings(tmp_path, monkeypatch, cache=False) == [] and scanned == []


def test_the_candidates_of_an_import_are_the_files_python_imports_would_rank(tmp_path: Path, monkeypatch) -> None:
    """python_imports.module_candidates (the named-file pre-check's lookup,
    unranked) gives the files module_files gives, for relative and absolute
    imports, modules and packages, from a directory that holds the first part
    of the module and from one that does not."""
    from sglang_lint.sources.python_imports import module_candidates, module_files

    write(
        tmp_path,
        {
            "src/app/__init__.py": "",
            "src/app/helpers.py": "",
            "src/app/sub/__init__.py": "",
            "src/app/sub/tools.py": "",
            "src/app/run.py": "",
            "scripts/app/helpers.py": "",  # a second app.helpers, nearer to scripts/
            "scripts/deploy.py": "",
            "scripts/helpers.py": "",
        },
    )
    monkeypatch.chdir(tmp_path)
    roots = (os.path.realpath(tmp_path),)
    known: dict = {}
    for importer in ("src/app/run.py", "scripts/deploy.py", "src/app/sub/tools.py"):
        directory = os.path.dirname(os.path.abspath(importer))
        for module, level in (("app.helpers", 0), ("app", 0), ("app.sub", 0), ("helpers", 0), ("sub.tools", 0), ("helpers", 1), ("sub", 1), ("", 1), ("app", 2), ("missing.x", 0)):
            expected = {os.path.abspath(path) for path in module_files(importer, module, level, roots, {})}
            assert set(module_candidates(directory, module, level, roots, known)) == expected, (importer, module, level)
    assert {os.path.relpath(p) for p in module_candidates(os.path.abspath("scripts"), "app.helpers", 0, roots, known)} == {
        os.path.join("scripts", "app", "helpers.py"),
        os.path.join("src", "app", "helpers.py"),
    }


def test_what_a_module_may_launch_is_told_again_when_it_changes(tmp_path: Path, monkeypatch) -> None:
    """The named-file pre-check keeps what each module may launch with its
    stat (RunCache.lasting lives as long as an editor's session): an edit
    that makes the helper launch is seen; with ``stable`` (one flake8 run,
    files do not change) the first answer holds without a stat."""
    from sglang_lint.extraction import imports_a_launching_definition

    write(tmp_path, {"helpers.py": "def start(role, tp):\n    return None\n", "deploy.py": DEPLOY})
    monkeypatch.chdir(tmp_path)
    project = ProjectFiles((os.path.realpath(tmp_path),))
    imports = [("helpers", "start")]
    known: dict = {}
    assert not imports_a_launching_definition("deploy.py", imports, project, known)
    _touch_later(tmp_path / "helpers.py", HELPERS)
    assert imports_a_launching_definition("deploy.py", imports, project, known)
    stable: dict = {}
    assert imports_a_launching_definition("deploy.py", imports, project, stable, stable=True)
    _touch_later(tmp_path / "helpers.py", "def start(role, tp):\n    return None\n")
    assert imports_a_launching_definition("deploy.py", imports, project, stable, stable=True)  # (kept)
    assert not imports_a_launching_definition("deploy.py", imports, project, known)


WRAPPER = 'from helpers import start\n\n\ndef start_pd(prefill_tp, decode_tp):\n    start("prefill", prefill_tp)\n    start("decode", decode_tp)\n'


def test_a_file_named_alone_follows_a_wrapper_of_the_helper(tmp_path: Path, monkeypatch) -> None:
    """run.py calls a wrapper module that spells no launch and calls the
    helper that does: named alone (pre-commit, an editor), run.py was "All
    checks passed!" while a walk of the tree found the mismatch; now the
    wrapper's imports are followed and run.py's statements are run, as the
    walk runs them (deeper wrappers: test_a_file_named_alone_follows_a_wrapper_of_a_wrapper)."""
    write(tmp_path, {"helpers.py": HELPERS, "wrapper.py": WRAPPER, "run.py": "from wrapper import start_pd\n\nstart_pd(8, 4)\n"})
    assert findings(tmp_path, monkeypatch, "run.py") == [("SGL001", "run.py", 3)]
    # A package passing the helper on; a constant of the wrapper (what a
    # module may launch rests on its own and its imports' texts).
    write(
        tmp_path,
        {
            "pkg/__init__.py": "from helpers import start\n",
            "run3.py": 'from pkg import start\n\nstart("prefill", 4)\nstart("decode", 2)\n',
            "constant.py": "from wrapper import WRAPPED\n\nprint(WRAPPED)\n",
        },
    )
    (tmp_path / "wrapper.py").write_text(WRAPPER + "\nWRAPPED = 1\n")
    assert findings(tmp_path, monkeypatch, "run3.py") == [("SGL001", "run3.py", 4)]
    assert findings(tmp_path, monkeypatch, "constant.py") == []


def test_a_named_run_then_a_walk_each_read_an_importer_their_way(tmp_path: Path, monkeypatch) -> None:
    """The cache keeps an importer's result with how it was read past the
    pre-check (extraction.result_key): a "module" result (judged by the
    Python source's own check) never answers a "launcher" read (its
    statements run). Before, a pre-commit run over run.py alone (then judged
    "module": nothing reached) hid the mismatch from the next walk of the tree."""
    from sglang_lint.extraction import result_key

    assert len({result_key("env", None), result_key("env", None, "module"), result_key("env", None, "launcher")}) == 3
    project = tmp_path / "project"
    write(project, {"helpers.py": HELPERS, "wrapper.py": WRAPPER, "run.py": "from wrapper import start_pd\n\nstart_pd(8, 4)\n"})
    cache = dict(cache=True, cache_dir=str(tmp_path / "cache"))
    assert findings(project, monkeypatch, "run.py", **cache) == [("SGL001", "run.py", 3)]
    assert findings(project, monkeypatch, **cache) == [("SGL001", "run.py", 3)]


def test_what_a_wrapper_may_launch_is_told_again_when_it_or_its_helper_changes(tmp_path: Path, monkeypatch) -> None:
    """A wrapper's answer rests on its own text and on what its imports spell:
    an edit of its body (imports and spelled launches unchanged) or of the
    helper is seen by the next question of a long session (an editor)."""
    from sglang_lint.extraction import imports_a_launching_definition

    write(tmp_path, {"helpers.py": HELPERS, "wrapper.py": WRAPPER, "run.py": "from wrapper import start_pd\n\nstart_pd(8, 4)\n"})
    monkeypatch.chdir(tmp_path)
    project = ProjectFiles((os.path.realpath(tmp_path),))
    imports = [("wrapper", "start_pd")]
    known: dict = {}
    assert imports_a_launching_definition("run.py", imports, project, known) == "launcher"
    _touch_later(tmp_path / "wrapper.py", WRAPPER.replace('start("prefill", prefill_tp)\n    start("decode", decode_tp)', "return prefill_tp, decode_tp"))
    assert imports_a_launching_definition("run.py", imports, project, known) == ""
    _touch_later(tmp_path / "wrapper.py", WRAPPER)
    assert imports_a_launching_definition("run.py", imports, project, known) == "launcher"
    _touch_later(tmp_path / "helpers.py", "def start(role, tp):\n    return None\n")
    assert imports_a_launching_definition("run.py", imports, project, known) == ""


OUTER = "from wrapper import start_pd\n\n\ndef everything(prefill_tp, decode_tp):\n    start_pd(prefill_tp, decode_tp)\n"


def test_a_walk_follows_a_wrapper_of_a_wrapper(tmp_path: Path, monkeypatch) -> None:
    """run2.py -> outer.everything -> wrapper.start_pd -> helpers.start: the
    two middle modules spell no launch. Round 1 finds the wrapper (it imports
    the helper) and its export; round 2 reads outer.py, whose call of the
    wrapper's export ran as a call of a module that cannot launch (its text
    spells none): nothing exported, run2.py never read, "All checks passed!".
    A round's files now follow a call of what an earlier round exported
    (ReadFile.launching); the same with worker processes and warm."""
    files = {"helpers.py": HELPERS, "wrapper.py": WRAPPER, "outer.py": OUTER, "run2.py": "from outer import everything\n\neverything(8, 4)\n"}
    write(tmp_path / "one", files)
    assert findings(tmp_path / "one", monkeypatch, jobs=1) == [("SGL001", "run2.py", 3)]
    write(tmp_path / "two", files)
    assert findings(tmp_path / "two", monkeypatch, jobs=2) == [("SGL001", "run2.py", 3)]
    project = tmp_path / "cached"
    write(project, files)
    cache = dict(cache=True, cache_dir=str(tmp_path / "cache"), reuse_findings=True)
    assert findings(project, monkeypatch, **cache) == [("SGL001", "run2.py", 3)]
    assert findings(project, monkeypatch, **cache) == [("SGL001", "run2.py", 3)]
    # The helper no longer launches with what it is given: nothing left.
    _touch_later(project / "helpers.py", "def start(role, tp):\n    return None\n")
    assert findings(project, monkeypatch, **cache) == []
    _touch_later(project / "helpers.py", HELPERS)
    assert findings(project, monkeypatch, **cache) == [("SGL001", "run2.py", 3)]


def test_what_earlier_rounds_found_to_launch_is_part_of_a_results_key() -> None:
    """A result read with what modules of the run launch through is kept
    under a key of its own: the same file read without (a round before the
    wrapper was found) or with other names is analyzed again."""
    from sglang_lint.extraction import result_key

    keys = {
        result_key("env", None, "launcher"),
        result_key("env", None, "launcher", (("wrapper.py", ("start_pd",)),)),
        result_key("env", None, "launcher", (("wrapper.py", ("start_pd", "start_all")),)),
    }
    assert len(keys) == 3


def test_the_editor_s_workspace_index_follows_a_wrapper_of_a_wrapper(tmp_path: Path) -> None:
    """The language server's index reads importers round after round as a
    walk does (workspace.WorkspaceLinter._promote_importers), handing each
    round what the earlier ones found to launch: run2.py's mismatch is
    found, an edit of the middle wrapper that launches nothing clears it,
    and the wrapper back brings it back."""
    from sglang_lint.workspace import WorkspaceLinter

    write(tmp_path, {"helpers.py": HELPERS, "wrapper.py": WRAPPER, "outer.py": OUTER, "run2.py": "from outer import everything\n\neverything(8, 4)\n"})
    linter = WorkspaceLinter([str(tmp_path)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    run2, outer = str(tmp_path / "run2.py"), str(tmp_path / "outer.py")

    def codes(outcome) -> list[str]:
        return sorted(finding.code for finding in outcome.findings.get(run2, []))

    assert codes(linter.run({})) == ["SGL001"]
    idle = OUTER.replace("start_pd(prefill_tp, decode_tp)", "return prefill_tp, decode_tp")
    assert codes(linter.update({outer: idle}, {outer})) == []
    assert codes(linter.update({outer: OUTER}, {outer})) == ["SGL001"]


def test_a_file_named_alone_follows_a_wrapper_of_a_wrapper(tmp_path: Path, monkeypatch) -> None:
    """What a walk finds (test_a_walk_follows_a_wrapper_of_a_wrapper), named
    alone (pre-commit): the named-file pre-check tells what a module may
    launch from its own and its imports' texts, to MAX_WRAPPER_DEPTH
    wrappers deep, and hands the analysis the wrappers it found
    (ReadFile.launching); one wrapper deeper than that is not followed,
    as a walk's rounds are bounded too, and said at the import as a walk
    says it (it was silence: the launch lost without a word). Warm, and
    after an edit of the middle wrapper, the same as cold."""
    from sglang_lint.extraction import MAX_WRAPPER_DEPTH

    assert MAX_WRAPPER_DEPTH == 3
    chain = {"helpers.py": HELPERS, "wrapper.py": WRAPPER, "outer.py": OUTER}
    # wrapper -> outer -> outer2 -> outer3: each calls the one before.
    for depth in (2, 3):
        previous = "outer" if depth == 2 else "outer2"
        chain[f"outer{depth}.py"] = f"from {previous} import everything as inner\n\n\ndef everything(prefill_tp, decode_tp):\n    inner(prefill_tp, decode_tp)\n"
    runs = {f"run_{name}.py": f"from {name} import {'start_pd' if name == 'wrapper' else 'everything'} as go\n\ngo(8, 4)\n" for name in ("wrapper", "outer", "outer2", "outer3")}
    write(tmp_path, {**chain, **runs})
    for name, found in (("wrapper", True), ("outer", True), ("outer2", True), ("outer3", False)):
        assert findings(tmp_path, monkeypatch, f"run_{name}.py") == ([("SGL001", f"run_{name}.py", 3)] if found else [("SGL900", "run_outer3.py", 1)]), name
    (note,) = lint_paths([str(tmp_path / "run_outer3.py")], LintOptions(cache=False)).findings
    assert note.message.startswith("launch not analyzed: `everything` from outer3 may launch through a chain of more than 3 wrapper modules")
    # Two wrappers past the depth: neither followed nor told (a walk's rounds say as little).
    write(tmp_path, {"outer4.py": chain["outer3.py"].replace("outer2", "outer3"), "run_outer4.py": runs["run_outer3.py"].replace("outer3", "outer4")})
    assert findings(tmp_path, monkeypatch, "run_outer4.py") == []
    (tmp_path / "outer4.py").unlink()
    (tmp_path / "run_outer4.py").unlink()
    # A walk's rounds reach as deep (the helper's file is the first round),
    # and say where they stop (test_a_walk_says_where_its_rounds_stop).
    assert findings(tmp_path, monkeypatch) == [*[("SGL001", f"run_{name}.py", 3) for name in ("outer", "outer2", "wrapper")], ("SGL900", "run_outer3.py", 1)]
    cache = dict(cache=True, cache_dir=str(tmp_path / "cache"))
    assert findings(tmp_path, monkeypatch, "run_outer.py", **cache) == [("SGL001", "run_outer.py", 3)]
    assert findings(tmp_path, monkeypatch, "run_outer.py", **cache) == [("SGL001", "run_outer.py", 3)]
    _touch_later(tmp_path / "wrapper.py", WRAPPER.replace('start("prefill", prefill_tp)\n    start("decode", decode_tp)', "return prefill_tp, decode_tp"))
    assert findings(tmp_path, monkeypatch, "run_outer.py", **cache) == []
    _touch_later(tmp_path / "wrapper.py", WRAPPER)
    assert findings(tmp_path, monkeypatch, "run_outer.py", **cache) == [("SGL001", "run_outer.py", 3)]


def test_what_a_module_launches_through_does_not_depend_on_who_asked_first(tmp_path: Path, monkeypatch) -> None:
    """The named-file pre-check's answer for a module rests on the texts and
    the depth alone: asked about the outer wrapper first, or about the
    script first, it is the same; and an import cycle ends."""
    from sglang_lint.extraction import launching_imports

    write(
        tmp_path,
        {
            "helpers.py": HELPERS,
            "wrapper.py": WRAPPER,
            "outer.py": OUTER,
            "a.py": "from b import g\nfrom wrapper import start_pd\n\n\ndef f(x):\n    g(x)\n    start_pd(x, x)\n",
            "b.py": "from a import f\n\n\ndef g(x):\n    f(x)\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    project = ProjectFiles((os.path.realpath(tmp_path),))
    questions = [("run.py", [("outer", "everything")]), ("c.py", [("b", "g")]), ("d.py", [("a", "f")])]
    answers = []
    for order in (questions, list(reversed(questions))):
        known: dict = {}
        answers.append({path: launching_imports(path, imports, project, known) for path, imports in order})
    assert answers[0] == answers[1]
    kind, wrappers = answers[0]["run.py"]
    assert kind == "launcher"
    assert {os.path.realpath(path): names for path, names in wrappers} == {os.path.realpath(tmp_path / "outer.py"): ("everything",), os.path.realpath(tmp_path / "wrapper.py"): ("start_pd",)}
    assert answers[0]["c.py"][0] == "launcher"  # b.g -> a.f -> wrapper.start_pd


def test_past_one_wrapper_only_functions_calling_a_wrapper_count(tmp_path: Path, monkeypatch) -> None:
    """A wrapper's names, or names a package passes on, make a function that
    calls them a launcher for a file named alone, not a class that calls or
    derives them (launching_definitions' ``functions_only``): classes
    deriving classes through packages' re-exports, each "launching" by a
    word in a comment, made 46 of SGLang's diffusion pipelines launchers to
    read (and a module spelling a launch itself is judged as before)."""
    from sglang_lint.extraction import launching_definitions, launching_imports

    text = "from wrapper import start_pd\n\n\ndef go(tp):\n    start_pd(tp, tp)\n\n\ndef again(tp):\n    go(tp)\n\n\nclass Base(Fixture):\n    def up(self):\n        start_pd(1, 1)\n"
    assert launching_definitions(text, frozenset({"start_pd", "Fixture"}), functions_only=True) == {"go", "again"}
    assert launching_definitions(text, frozenset({"start_pd", "Fixture"})) == {"go", "again", "Base"}
    write(
        tmp_path,
        {
            "helpers.py": HELPERS,
            "stages/__init__.py": "from stages.validate import Stage\n",
            "stages/validate.py": "# run with `python -m sglang.launch_server` first\nclass Stage:\n    pass\n",
            "pipeline.py": "from stages import Stage\n\n\nclass Pipeline:\n    def build(self):\n        return Stage()\n",
            "flux.py": "from pipeline import Pipeline\n\n\nclass Flux(Pipeline):\n    pass\n",
            "wrapper.py": WRAPPER,
            "tools/__init__.py": "from wrapper import start_pd\n",
            "deploy.py": "from tools import start_pd\n\n\ndef both(tp):\n    start_pd(tp, tp)\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    project = ProjectFiles((os.path.realpath(tmp_path),))
    assert launching_imports("flux.py", [("pipeline", "Pipeline")], project, {})[0] == ""
    assert launching_imports("run.py", [("deploy", "both")], project, {})[0] == "launcher"


def test_a_module_found_to_launch_is_judged_by_what_its_functions_call(tmp_path: Path, monkeypatch) -> None:
    """What the analysis is handed (ReadFile.launching) opens a module to the
    Python source's own reach, never makes its names launchers: a named
    file's wrappers come from the texts, generous (SGLang's gemma4_mm.py
    derives a class of a module that says `sglang serve` in a comment; its
    class made three model files "launchers" whose overflowing nesting gave
    a false "launches may be missing" under flake8)."""
    from sglang_lint.sources.python_launches import LaunchInterpreter

    write(
        tmp_path,
        {
            "helpers.py": HELPERS,
            "wrapper.py": WRAPPER,
            "base.py": "# serve it with `sglang serve --model-path m` first\nclass Base:\n    def forward(self):\n        return 1\n",
            "mm.py": "from base import Base\n\n\nclass MM(Base):\n    pass\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    project = ProjectFiles((os.path.realpath(tmp_path),))
    interpreter = LaunchInterpreter("run.py", "", files=project.reader())
    interpreter.set_launching({"mm.py": ["MM"], "wrapper.py": ["start_pd"]})
    assert interpreter._module_reaching("mm.py", (tmp_path / "mm.py").read_text())[0] == frozenset()
    assert interpreter._module_reaching("wrapper.py", WRAPPER)[0] == {"start", "start_pd"}  # (and the helper it imports)
    # Without being handed the wrapper, it is a module that spells no launch.
    plain = LaunchInterpreter("run.py", "", files=project.reader())
    assert plain._module_reaching("wrapper.py", WRAPPER)[0] == frozenset()


def test_a_kept_answer_is_checked_once_for_each_module_a_question_reaches(tmp_path: Path, monkeypatch) -> None:
    """Checking a module's kept answer checks its imports' (to the depth):
    a module many others import is checked once for one file's question,
    not once along each chain (a flake8 run over SGLang's tree spent 19% more
    time in these checks)."""
    from sglang_lint import extraction

    files = {"shared.py": "import os\n", "top.py": "".join(f"from m{index} import f{index}\n" for index in range(8))}
    files.update({f"m{index}.py": f"from shared import os\n\n\ndef f{index}():\n    return os.getcwd()\n" for index in range(8)})
    write(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    project = ProjectFiles((os.path.realpath(tmp_path),))
    known: dict = {}
    imports = [("top", "f0")]
    assert extraction.launching_imports("run.py", imports, project, known) == ("", ())
    checks: list[str] = []
    real = extraction._signature
    monkeypatch.setattr(extraction, "_signature", lambda absolute: checks.append(os.path.basename(absolute)) or real(absolute))
    assert extraction.launching_imports("run.py", imports, project, known) == ("", ())
    assert checks.count("shared.py") <= extraction.MAX_WRAPPER_DEPTH  # (once at each depth it is seen at)


def test_a_flake8_run_keeps_no_more_than_the_answers(tmp_path: Path, monkeypatch) -> None:
    """Under ``stable`` (one flake8 run) a kept answer is never checked
    again, so what it rested on is not kept: flake8's collector walks all
    that its process keeps, and these made twice the objects of a flake8
    worker on SGLang's tree (its warm run +18% CPU)."""
    from sglang_lint.extraction import launching_imports

    write(tmp_path, {"helpers.py": HELPERS, "wrapper.py": WRAPPER, "outer.py": OUTER})
    monkeypatch.chdir(tmp_path)
    project = ProjectFiles((os.path.realpath(tmp_path),))
    stable: dict = {}
    checked: dict = {}
    assert launching_imports("run.py", [("outer", "everything")], project, stable, stable=True) == launching_imports("run.py", [("outer", "everything")], project, checked)
    kept = [value for key, value in stable.items() if key[0] == "launching"]
    assert kept and all(value[0] is None and value[2] == () for value in kept)
    assert any(value[2] for key, value in checked.items() if key[0] == "launching")  # (checked again outside flake8)


def _deep_chain(root: Path, script: str) -> None:
    """helpers <- wrapper <- outer <- outer2 <- outer3 <- ``script`` (run.py):
    each module calls the one before; the script imports outer3, one module
    of wrappers deeper than a walk's rounds follow."""
    chain = {"helpers.py": HELPERS, "wrapper.py": WRAPPER, "outer.py": OUTER}
    for depth in (2, 3):
        previous = "outer" if depth == 2 else "outer2"
        chain[f"outer{depth}.py"] = f"from {previous} import everything as inner\n\n\ndef everything(prefill_tp, decode_tp):\n    inner(prefill_tp, decode_tp)\n"
    write(root, {**chain, "run.py": script})


def test_a_walk_says_where_its_rounds_stop(tmp_path: Path, monkeypatch) -> None:
    """A file importing a wrapper of the last round a walk follows
    (MAX_IMPORT_ROUNDS) was "All checks passed!": its launch was dropped
    silently. It gets a note (SGL900) at the import, naming what it imports
    and how deep the walk follows; one that imports something else from
    that module, or nothing of it, gets none."""
    from sglang_lint.extraction import MAX_WRAPPER_DEPTH

    script = '"""Both roles, one call."""\nimport os\ntry:\n    from outer3 import everything as go\nexcept ImportError:\n    go = None\n\ngo(8, 4)\n'
    _deep_chain(tmp_path, script)
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["."], LintOptions())
    notes = [(f.code, f.location.path, f.location.line, f.location.column, f.message) for f in result.findings if f.location.path == "run.py"]
    assert [f.notes for f in result.findings if f.location.path == "run.py"] == [(f"sglang-lint follows wrappers (functions calling a launcher of another module) {MAX_WRAPPER_DEPTH} modules deep",)]
    assert notes == [
        (
            "SGL900",
            "run.py",
            4,
            5,
            f"launch not analyzed: `everything` from outer3 may launch through a chain of more than {MAX_WRAPPER_DEPTH} wrapper modules",
        )
    ]
    # `import outer3` then `outer3.everything(...)`: at that import.
    (tmp_path / "run.py").write_text("import sys\nimport outer3\n\nouter3.everything(8, 4)\n")
    assert [(f.code, f.location.line, f.message.split(" may ")[0]) for f in lint_paths(["."], LintOptions()).findings if f.location.path == "run.py"] == [
        ("SGL900", 2, "launch not analyzed: outer3")
    ]
    (tmp_path / "run.py").write_text("from outer3 import unrelated\n\nunrelated()\n")
    assert [f for f in findings(tmp_path, monkeypatch) if f[1] == "run.py"] == []


def test_a_walk_past_its_rounds_is_checked_again_when_the_file_changes(tmp_path: Path, monkeypatch) -> None:
    """The note's file is one the run's findings rest on: warm, a line
    added above the import moves the note (the findings cache checks its
    text), and a script that no longer imports the wrapper has none."""
    script = "from outer3 import everything\n\neverything(8, 4)\n"
    _deep_chain(tmp_path, script)
    cache = dict(cache=True, cache_dir=str(tmp_path / "cache"))
    assert findings(tmp_path, monkeypatch, **cache) == [("SGL900", "run.py", 1)]
    assert findings(tmp_path, monkeypatch, **cache) == [("SGL900", "run.py", 1)]
    _touch_later(tmp_path / "run.py", "# deploy both roles\n" + script)
    assert findings(tmp_path, monkeypatch, **cache) == [("SGL900", "run.py", 2)]
    _touch_later(tmp_path / "run.py", "print('nothing to launch')\n")
    assert findings(tmp_path, monkeypatch, **cache) == []


def test_the_editor_s_workspace_index_says_where_its_rounds_stop(tmp_path: Path) -> None:
    """The language server's index stops where a walk does
    (test_a_walk_says_where_its_rounds_stop) and says so at the import: the
    note follows an edit that moves the import, goes when the script no
    longer imports the wrapper, and the mismatch is found when a chain
    shortened to what is followed (outer3 calling the helper's wrapper
    itself)."""
    from sglang_lint.workspace import WorkspaceLinter

    script = "from outer3 import everything\n\neverything(8, 4)\n"
    _deep_chain(tmp_path, script)
    linter = WorkspaceLinter([str(tmp_path)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    run, outer3 = str(tmp_path / "run.py"), str(tmp_path / "outer3.py")

    def found(outcome) -> list[tuple[str, int]]:
        return sorted((finding.code, finding.location.line) for finding in outcome.findings.get(run, []))

    assert found(linter.run({})) == [("SGL900", 1)]
    moved = "# both roles\n" + script
    assert found(linter.update({run: moved}, {run})) == [("SGL900", 2)]
    shorter = OUTER  # (outer3 calls the helper's wrapper itself)
    assert found(linter.update({run: moved, outer3: shorter}, {outer3})) == [("SGL001", 4)]
    assert found(linter.update({run: "print(1)\n", outer3: shorter}, {run})) == []


def test_where_a_note_past_the_rounds_points() -> None:
    """The import a note past the last round points at, for each form
    imports_of gives (a relative import, a star import, `import a.b`), and
    the file's first line when its text no longer says (not valid Python)."""
    from sglang_lint.extraction import _import_position

    text = "import os\nfrom . import helpers\nfrom ..pkg.outer import *\nimport pkg.outer3\nif True:\n    from .m import start as go\n"
    assert _import_position(text, ".", "helpers") == (2, 1)
    assert _import_position(text, "..pkg.outer", "*") == (3, 1)
    assert _import_position(text, "pkg.outer3", "") == (4, 1)
    assert _import_position(text, ".m", "start") == (6, 5)
    assert _import_position(text, "m", "start") == (1, 1)  # (absolute: another module)
    assert _import_position("from .m import (start\n", ".m", "start") == (1, 1)


def test_the_editor_s_note_past_the_rounds_survives_a_file_it_cannot_decode(tmp_path: Path) -> None:
    """The note past the last round reads the importing file again from disk:
    changed behind the editor's back into bytes that are not UTF-8, it
    cannot be decoded, and the note goes to the file's first line (the
    language server's update raised TypeError on it)."""
    from sglang_lint.workspace import WorkspaceLinter

    _deep_chain(tmp_path, "from outer3 import everything\n\neverything(8, 4)\n")
    linter = WorkspaceLinter([str(tmp_path)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    run, outer3 = str(tmp_path / "run.py"), str(tmp_path / "outer3.py")
    assert [(f.code, f.location.line) for f in linter.run({}).findings.get(run, [])] == [("SGL900", 1)]
    (tmp_path / "run.py").write_bytes(b"# \xff\nfrom outer3 import everything\n")
    # (outer3 imports one more module: the rounds are run again)
    more = "import os\n" + (tmp_path / "outer3.py").read_text()
    outcome = linter.update({outer3: more}, {outer3})
    assert [(f.code, f.location.line) for f in outcome.findings.get(run, [])] == [("SGL900", 1)]
