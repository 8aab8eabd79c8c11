"""The flake8 plugin (sglang_lint/flake8_plugin.py) on real Python launchers: the
class called directly, and ``flake8 --select SGL`` run in a subprocess as users run
it. flake8 finds the plugin through its ``SGL`` entry point, which
``pip install -e '.[test]'`` installs."""

from __future__ import annotations

import argparse
import ast
import gc
import io
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import textwrap
import tokenize
from pathlib import Path

import pytest

from sglang_lint import flake8_plugin
from sglang_lint import pipeline as lint
from sglang_lint.catalog.tables import known_versions
from sglang_lint.flake8_plugin import SglangLintChecker, _position
from sglang_lint.model import Finding, Location
from sglang_lint.pipeline import LintOptions, lint_paths
from sglang_lint.report._text import sanitize

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
# One finding a line; tabs never occur in messages (sanitize shows them as spaces).
FORMAT = "%(path)s\t%(row)d\t%(col)d\t%(code)s\t%(text)s"

# A PD pair whose attention TP differs: SGL001 on the decode's line, at its
# "--tp-size", "4". The decode's name is not ASCII, so a column counted in UTF-8
# bytes would differ from one counted in code points.
PD = textwrap.dedent(
    """\
    import subprocess
    PREFILL = ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--enable-unified-memory", "--tp-size", "8", "--port", "30000"]
    DÉCODE = ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "--enable-unified-memory", "--tp-size", "4", "--port", "30001"]
    subprocess.Popen(PREFILL)
    subprocess.Popen(DÉCODE)
    """
)
PD_LINE = 3
PD_OFFSET = PD.split("\n")[PD_LINE - 1].index('"--tp-size", "4"')
PD_LAUNCH_LINE = 5  # subprocess.Popen(DÉCODE): a line of the launch, not the reported one

# Clean for the newest SGLang (--attn-dp-size 2: the decode's attention TP is
# 8 / 2 = 4, the prefill's); SGL001 for OLD_VERSION, which has no --attn-dp-size.
BY_VERSION = textwrap.dedent(
    """\
    import subprocess
    subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--enable-unified-memory", "--tp-size", "4"])
    subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "--enable-unified-memory", "--tp-size", "8", "--attn-dp-size", "2"])
    """
)
OLD_VERSION = "0.5.21"


def with_comment(text: str, line: int, comment: str) -> str:
    lines = text.split("\n")
    lines[line - 1] += f"  {comment}"
    return "\n".join(lines)


@pytest.fixture(autouse=True)
def _restore_class_options(monkeypatch) -> None:
    # parse_options sets these on the class; put them back after each test
    for name in ("target_version", "disable_noqa", "use_cache"):
        monkeypatch.setattr(SglangLintChecker, name, getattr(SglangLintChecker, name, False), raising=False)
    # and each test starts with an empty context cache (the process's)
    monkeypatch.setattr(flake8_plugin, "_CONTEXT_CACHE", None, raising=False)


# ---------------------------------------------------------------------------------
# The class, called directly


def check(text: str, filename: str = "launch.py") -> list[tuple[int, int, str]]:
    results = list(SglangLintChecker(None, text.splitlines(keepends=True), filename).run())
    assert all(kind is SglangLintChecker for *_, kind in results)
    return [(line, offset, message) for line, offset, message, _ in results]


def codes(results) -> list[str]:
    return [message.split()[0] for _, _, message in results]


def test_flake8_classifies_it_as_a_tree_plugin() -> None:
    from flake8.plugins import finder

    assert finder._parameters_for(SglangLintChecker) == {"tree": True, "lines": True, "filename": True}
    valid_code = getattr(finder, "VALID_CODE_PREFIX", None) or finder.VALID_CODE  # flake8 >= 6 / 5
    assert valid_code.match("SGL")


@pytest.mark.parametrize(
    "text", ["", "import os\nprint(os.getcwd())\n", "import sglang as sgl\nprint(sgl.__version__)\n"]
)
def test_file_without_a_launch_yields_nothing(text: str) -> None:
    assert check(text) == []


def test_finding_position_and_message() -> None:
    [(line, offset, message)] = check(PD)
    assert (line, offset) == (PD_LINE, PD_OFFSET)  # 0-based, in code points
    assert message.startswith("SGL001 attention TP differs across the pair: prefill ")
    assert "\t" not in message and "\n" not in message


@pytest.mark.parametrize(
    ("line", "comment", "expected"),
    [
        (PD_LINE, "# noqa: SGL001", []),
        (PD_LINE, "# noqa", []),
        (PD_LAUNCH_LINE, "# noqa: SGL001", []),  # any line of the launch
        (PD_LINE, "# noqa: SGL002", ["SGL001"]),
        (PD_LINE, "# noqa: E501", ["SGL001"]),
    ],
)
def test_noqa(line: int, comment: str, expected: list[str]) -> None:
    assert codes(check(with_comment(PD, line, comment))) == expected


@pytest.mark.parametrize("line", [PD_LINE, PD_LAUNCH_LINE])
def test_disable_noqa_reports_silenced_findings(line: int) -> None:
    SglangLintChecker.disable_noqa = True
    assert codes(check(with_comment(PD, line, "# noqa: SGL001"))) == ["SGL001"]


@pytest.mark.parametrize(
    ("function", "error"),
    [
        ("analyze_results", RuntimeError("boom")),
        ("analyze_results", RecursionError("maximum recursion depth exceeded")),
        ("analyze_results", MemoryError()),
        ("analyze_results", RuntimeError("\x1b[2J\nx" * 200)),
        ("extract", ValueError("bad")),
    ],
    ids=["RuntimeError", "RecursionError", "MemoryError", "long-and-unprintable", "in-extract"],
)
def test_internal_error_is_one_sgl900_on_line_1(monkeypatch, function: str, error: BaseException) -> None:
    def boom(*args, **kwargs):
        raise error

    monkeypatch.setattr(lint, function, boom)
    [(line, offset, message)] = check(PD)
    assert (line, offset) == (1, 0)
    assert message.startswith(f"SGL900 sglang-lint internal error ({type(error).__name__}")
    assert message.endswith("; please report it")
    assert message.isprintable() and len(message) < 300


def test_notes_are_sgl900_at_their_position() -> None:
    text = 'import subprocess\nsubprocess.Popen(["python3", "-m", "sglang.launch_server"])  # noqa: SGL1\n'
    [(line, offset, message)] = check(text)
    assert (line, offset) == (2, 0)
    assert message.startswith("SGL900 malformed noqa comment '# noqa: SGL1'")


def test_target_version_is_used() -> None:
    assert check(BY_VERSION) == []
    SglangLintChecker.target_version = OLD_VERSION
    # 0.5.21 has no --attn-dp-size: unknown there (SGL202), so attention TP 8 vs 4
    assert sorted(codes(check(BY_VERSION))) == ["SGL001", "SGL202"]


def test_unknown_version_set_directly_is_sgl900_naming_known_versions() -> None:
    SglangLintChecker.target_version = "0.0.1"
    [(line, offset, message)] = check(PD)
    assert (line, offset) == (1, 0)
    assert message.startswith("SGL900 ") and known_versions()[-1] in message


def test_a_release_after_every_table_is_accepted_and_judged_with_the_newest() -> None:
    SglangLintChecker.parse_options(argparse.Namespace(sglang_target_version="9.9.9", disable_noqa=False))
    assert SglangLintChecker.target_version == "9.9.9"
    assert check(PD) != [] and not any("no option table" in message for _, _, message in check(PD))


def test_parse_options(capsys) -> None:
    version = known_versions()[-2]
    SglangLintChecker.parse_options(argparse.Namespace(sglang_target_version=f" {version} ", disable_noqa=True))
    assert (SglangLintChecker.target_version, SglangLintChecker.disable_noqa) == (version, True)
    SglangLintChecker.parse_options(argparse.Namespace(sglang_target_version=None, disable_noqa=False))
    assert (SglangLintChecker.target_version, SglangLintChecker.disable_noqa) == (None, False)
    with pytest.raises(SystemExit) as exit_:
        SglangLintChecker.parse_options(argparse.Namespace(sglang_target_version="0.0.1", disable_noqa=False))
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("flake8: error: argument --sglang-target-version:") and known_versions()[-1] in err


def test_analysis_leaves_flake8s_process_as_it_was(tmp_path, monkeypatch) -> None:
    # flake8 goes on checking thousands of files in the same process after one
    # that launches. The analysis itself runs with the CLI's collector
    # thresholds; flake8's are restored after it. What it keeps for the next
    # analyses (the outline of the module it imported, for the next file that
    # imports it: dropped, every file parsed its imports again) is frozen out
    # of the collector, so that flake8's full collections do not walk it (on
    # SGLang's tree that walk cost more CPU than the analyses).
    from sglang_lint.sources.python_interpreter import PARSED

    launch = 'import subprocess\nfrom helpers import TP\nsubprocess.Popen(["python3", "-m", "sglang.launch_server", "--tp-size", TP])\n'
    write(tmp_path, **{"helpers.py": "TP = '8'\n", "launch.py": launch})
    monkeypatch.chdir(tmp_path)
    PARSED.clear()
    parses = PARSED.parses
    during = []
    lint_paths_ = lint.lint_paths

    def recording(*args, **kwargs):
        during.append(gc.get_threshold())
        return lint_paths_(*args, **kwargs)

    monkeypatch.setattr(lint, "lint_paths", recording)
    freezes = _count_freezes(monkeypatch)
    flake8s = (1234, 11, 12)
    threshold = gc.get_threshold()
    gc.set_threshold(*flake8s)
    try:
        assert check(launch, "launch.py") == []
        after = gc.get_threshold()
    finally:
        gc.set_threshold(*threshold)
    assert during == [(50_000, 20, 100)] and after == flake8s  # the CLI's (cli._fewer_collections)
    assert PARSED.parses > parses  # helpers.py was parsed (the import followed) ...
    assert any(path == "helpers.py" for path, _ in PARSED.outlines)  # ... and is kept for the next file ...
    assert freezes == [True]  # ... frozen out of flake8's collections


def _count_freezes(monkeypatch) -> list[bool]:
    """gc.freeze() calls from now on (each a True); none happens for real."""
    calls: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(True))
    return calls


def test_an_analysis_freezes_what_it_keeps_a_cache_answer_freezes_nothing(tmp_path, monkeypatch) -> None:
    """This package's modules, the option tables and the results, and the
    outlines of the modules a file imported, stay for the next files: after
    each analysis that made anything new they are frozen (gc.freeze), so
    that flake8's later full collections do not walk them (issue 24: the warm
    overhead on SGLang's tree, whole runs +10% -> +5%; cold, with the outlines
    kept, 18.5 -> 13.5 CPU-s for the plugin). A file the process's cache
    answers made nothing new: no collection, no freeze (once per process)."""
    monkeypatch.setattr(flake8_plugin, "_SETTLED", False)
    monkeypatch.setattr(flake8_plugin, "_CONTEXT_CACHE", None)
    monkeypatch.chdir(tmp_path)
    freezes = _count_freezes(monkeypatch)
    launch = 'import subprocess\nsubprocess.Popen(["python3", "-m", "sglang.launch_server", "--tp-size", "8"])\n'
    check(launch, "launch.py")
    assert freezes == [True]
    check(launch + "# changed\n", "launch.py")  # analyzed anew
    assert freezes == [True, True]
    check(launch + "# changed\n", "launch.py")  # the process's cache answers
    assert freezes == [True, True]


def test_a_file_follows_the_run_of_the_file_before_it(tmp_path, monkeypatch) -> None:
    """flake8 hands a process its files one by one, each a run of its own:
    the next one follows the run before it (ProjectFiles.follows), so what
    the first concluded about a module both import (what its names may
    launch) is not drawn again while its text is the same; in another
    working directory, or after a new flake8 run's options, nothing is
    followed."""
    from sglang_lint.sources.project import FileReader

    helpers = "import subprocess\n\n\ndef serve(tp):\n    subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', tp])\n"
    first = "# starts sglang.launch_server\nfrom helpers import serve\n\nserve('2')\n"
    second = "# starts sglang.launch_server\nfrom helpers import serve\n\nserve('4')\n"
    write(tmp_path, **{"helpers.py": helpers, "a.py": first, "b.py": second})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(flake8_plugin, "_CONTEXT_CACHE", None)
    monkeypatch.setattr(flake8_plugin, "_PREVIOUS_RUN", ("", ""))
    drawn: list[tuple] = []
    conclude = FileReader.conclude
    monkeypatch.setattr(FileReader, "conclude", lambda self, key, value: drawn.append(key) or conclude(self, key, value))
    flake8_plugin.SglangLintChecker.parse_options(argparse.Namespace(sglang_target_version=None, disable_noqa=False, sglang_no_cache=True))
    # (the key also holds whether the file writes out a command it may hand on)
    reaching = ("reaching", "helpers.py", True, frozenset())  # (no module of the run found to launch through a wrapper)
    check(first, "a.py")
    assert reaching in drawn
    drawn.clear()
    check(second, "b.py")
    assert reaching not in drawn  # kept from a.py's run
    flake8_plugin.SglangLintChecker.parse_options(argparse.Namespace(sglang_target_version=None, disable_noqa=False, sglang_no_cache=True))
    check(second + "# a new flake8 run\n", "b.py")
    assert reaching in drawn


def test_a_file_calling_a_wrapper_is_judged_once_and_found(tmp_path, monkeypatch) -> None:
    """The plugin judges the imports of a file that spells no launch
    (_imports_a_launcher) and hands its judgement to the analysis
    (pipeline.StdinFile.judged): the analysis judged them again with a memo
    of its own (~1 s more of each flake8 worker on SGLang's tree). A wrapper
    of a wrapper of the helper is followed, as by the CLI."""
    from sglang_lint import extraction

    helpers = "import subprocess\nimport sys\n\n\ndef start(role, tp):\n    return subprocess.Popen([sys.executable, '-m', 'sglang.launch_server', '--model-path', 'm', '--disaggregation-mode', role, '--tp', str(tp), '--enable-unified-memory'])\n"
    wrapper = "from helpers import start\n\n\ndef start_pd(prefill_tp, decode_tp):\n    start('prefill', prefill_tp)\n    start('decode', decode_tp)\n"
    outer = "from wrapper import start_pd\n\n\ndef everything(prefill_tp, decode_tp):\n    start_pd(prefill_tp, decode_tp)\n"
    run2 = "from outer import everything\n\neverything(8, 4)\n"
    write(tmp_path, **{"helpers.py": helpers, "wrapper.py": wrapper, "outer.py": outer, "run2.py": run2})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(flake8_plugin, "_CONTEXT_CACHE", None)
    monkeypatch.setattr(flake8_plugin, "_PREVIOUS_RUN", ("", ""))
    judged_again: list[str] = []
    real = extraction.importing_launchers
    monkeypatch.setattr(extraction, "importing_launchers", lambda files, *args, **kwargs: judged_again.extend(read.path for read in files) or real(files, *args, **kwargs))
    flake8_plugin.SglangLintChecker.parse_options(argparse.Namespace(sglang_target_version=None, disable_noqa=False, sglang_no_cache=True))
    assert [result[2].split()[0] for result in check(run2, "run2.py")] == ["SGL001"]
    assert judged_again == []


def test_a_file_calling_a_wrapper_past_the_depth_gets_the_note(tmp_path, monkeypatch) -> None:
    """One wrapper module more than are followed: the note the CLI gives, at
    the import (it was silence in both)."""
    helpers = "import subprocess\nimport sys\n\n\ndef start(role, tp):\n    return subprocess.Popen([sys.executable, '-m', 'sglang.launch_server', '--model-path', 'm', '--disaggregation-mode', role, '--tp', str(tp)])\n"
    files = {"helpers.py": helpers, "w1.py": "from helpers import start\n\n\ndef go(tp):\n    start('prefill', tp)\n"}
    for level in (2, 3, 4):
        files[f"w{level}.py"] = f"from w{level - 1} import go as inner\n\n\ndef go(tp):\n    inner(tp)\n"
    run = "import os\nfrom w4 import go\n\ngo(8)\n"
    write(tmp_path, **files, **{"run.py": run})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(flake8_plugin, "_CONTEXT_CACHE", None)
    monkeypatch.setattr(flake8_plugin, "_PREVIOUS_RUN", ("", ""))
    flake8_plugin.SglangLintChecker.parse_options(argparse.Namespace(sglang_target_version=None, disable_noqa=False, sglang_no_cache=True))
    ((line, _, message),) = check(run, "run.py")
    assert (line, message.split()[0]) == (2, "SGL900") and "more than 3 wrapper modules" in message


def test_positions_of_findings_located_elsewhere() -> None:
    here = os.path.normpath("deploy/pd.py")

    def finding(path: str, line: int, column: int, ranges=()) -> Finding:
        return Finding("SGL001", "n", "m", Location(path, line, column), noqa_ranges=tuple(ranges))

    assert _position(finding("deploy/./pd.py", 7, 12), here) == (7, 11)
    # elsewhere: the first line of the launch in this file, else line 1
    assert _position(finding("deploy/pd.yaml", 3, 5, [("deploy/pd.py", 9, 11), ("deploy/pd.py", 4, 5)]), here) == (4, 0)
    assert _position(finding("deploy/pd.yaml", 3, 5, [("other.py", 2, 2)]), here) == (1, 0)
    assert _position(finding("deploy/pd.py", 0, 0), here) == (1, 0)


# ---------------------------------------------------------------------------------
# flake8 in a subprocess

# flake8 with a chosen multiprocessing start method; with a non-empty second
# argument, analyzing a file whose path contains it raises: the plugin's error path,
# which no real input is known to reach (run with fork, so -j 2 workers inherit it).
DRIVER = """\
import multiprocessing, sys
from flake8.main.cli import main
start_method, crash, *argv = sys.argv[1:]
multiprocessing.set_start_method(start_method)
if crash:
    from sglang_lint import pipeline as lint
    analyze = lint.analyze_results
    def analyze_results(results, options, *rest):
        if crash in results[0].path:  # the file flake8 checks (its context follows)
            raise RecursionError("maximum recursion depth exceeded while calling a Python object")
        return analyze(results, options, *rest)
    lint.analyze_results = analyze_results
sys.exit(main(argv))
"""


def run_flake8(
    cwd: Path,
    *args: str,
    config: str | None = None,
    stdin: str | None = None,
    select: str = "SGL",
    start_method: str | None = None,
    crash: str = "",
) -> subprocess.CompletedProcess:
    """flake8 in ``cwd``, reading only ``config`` (the text of a flake8 config) if given."""
    if start_method or crash:
        command = [sys.executable, "-c", DRIVER, start_method or "fork", crash]
    else:
        command = [sys.executable, "-m", "flake8"]
    if config is None:
        command.append("--isolated")
    else:
        (cwd / "flake8.cfg").write_text(config, encoding="utf-8")
        command += ["--config", str(cwd / "flake8.cfg")]
    command += ["--select", select, "--format", FORMAT, *args]
    env = {**os.environ}
    env.pop("PYTHONWARNINGS", None)
    return subprocess.run(command, check=False, cwd=cwd, capture_output=True, text=True, input=stdin, env=env, timeout=300)


def rows(process: subprocess.CompletedProcess) -> list[tuple[str, int, int, str, str]]:
    """(path, line, column, code, text) of each reported finding."""
    assert "Traceback" not in process.stderr, process.stderr
    assert process.returncode in (0, 1), process.stderr
    found = []
    for line in process.stdout.splitlines():
        path, row, col, code, text = line.split("\t", 4)
        found.append((path, int(row), int(col), code, text))
    return found


def write(directory: Path, **files: str) -> list[str]:
    for name, text in files.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(text, encoding="utf-8")
    return list(files)


def test_flake8_loads_the_plugin_and_a_file_without_launch_imports_nothing_heavy(tmp_path) -> None:
    write(tmp_path, **{"plain.py": "import os\n\nprint(os.getcwd())\n"})
    code = textwrap.dedent(
        """
        import json, sys
        import sglang_lint.flake8_plugin as plugin
        calls = []
        run = plugin.SglangLintChecker.run
        def counting_run(self):
            calls.append(self.filename)
            return run(self)
        plugin.SglangLintChecker.run = counting_run
        from flake8.main.application import Application
        app = Application()
        app.run(["--isolated", "--select", "SGL", "plain.py"])
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in
                        ("sglang_lint", "yaml", "tree_sitter", "tree_sitter_bash", "libcst", "pathspec"))
        print(json.dumps({"calls": calls, "loaded": loaded, "target": app.options.sglang_target_version,
                          "exit": app.exit_code()}))
        """
    )
    process = subprocess.run([sys.executable, "-c", code], check=False, cwd=tmp_path, capture_output=True, text=True)
    assert process.returncode == 0, process.stderr
    # calls: flake8 found the SGL entry point (no config names it) and ran it once
    # for the file; loaded: only the prefilter, no analyzer
    assert json.loads(process.stdout.splitlines()[-1]) == {
        "calls": ["plain.py"],
        "loaded": ["sglang_lint", "sglang_lint.flake8_plugin", "sglang_lint.prefilter"],
        "target": None,
        "exit": 0,
    }


# flake8 (in a subprocess, its files checked in that process: -j 1) with
# sglang_lint.pipeline.extract counted by file, and the extraction pool recorded.
COUNTING_DRIVER = """\
import collections, json, os, sys
import sglang_lint.flake8_plugin as plugin
from sglang_lint import extraction, pipeline
extracted = collections.Counter()
pools = []
extract = pipeline.extract
def counting_extract(path, *args, **kwargs):
    extracted[os.path.basename(path)] += 1
    return extract(path, *args, **kwargs)
pipeline.extract = counting_extract
in_pool = extraction._extract_in_pool
def recording_pool(pending, *args, **kwargs):
    pools.append(len(pending))
    return in_pool(pending, *args, **kwargs)
extraction._extract_in_pool = recording_pool
if sys.argv[1] == "no-cache":
    plugin._context_cache = lambda *args: None
from flake8.main.application import Application
app = Application()
app.run(["--isolated", "--select", "SGL", "-j", "1", "--format", "%(path)s:%(row)d:%(col)d:%(code)s", *sys.argv[2:]])
print(json.dumps({"extracted": extracted, "pools": pools}))
"""


def run_counting_flake8(cwd: Path, *args: str, cache: bool = True) -> tuple[list[str], dict]:
    """The findings (path:line:column:code) of ``flake8 -j 1 ARGS`` in ``cwd`` and
    what it extracted: {"extracted": {file name: times}, "pools": [files]}."""
    command = [sys.executable, "-c", COUNTING_DRIVER, "cache" if cache else "no-cache", *args]
    env = {**os.environ}
    env.pop("PYTHONWARNINGS", None)
    process = subprocess.run(command, check=False, cwd=cwd, capture_output=True, text=True, env=env, timeout=300)
    assert process.returncode == 0 and "Traceback" not in process.stderr, process.stderr
    *found, counts = process.stdout.splitlines()
    return sorted(found), json.loads(counts)


def _launcher(*args: str) -> str:
    argv = ", ".join(f'"{arg}"' for arg in ["python3", "-m", "sglang.launch_server", *args])
    return f"import subprocess\nsubprocess.Popen([{argv}])\n"


PREFILL_8 = _launcher("--disaggregation-mode", "prefill", "--enable-unified-memory", "--tp-size", "8", "--port", "30000")
DECODE_4 = _launcher("--disaggregation-mode", "decode", "--enable-unified-memory", "--tp-size", "4", "--port", "30001")


def test_flake8_analyzes_each_context_file_once_per_process(tmp_path) -> None:
    # Four single-role launchers in one directory: each file flake8 hands the
    # plugin brings the other three along as its deployment context. Each file is
    # analyzed when flake8 names it and at most once more as a context file (the
    # process's cache), not once for every sibling (n files cost n x n analyses:
    # SGLang's test directories, +55% of flake8's CPU time on its tree).
    write(
        tmp_path,
        **{
            "prefill.py": PREFILL_8,
            "decode.py": DECODE_4,
            "serve_a.py": _launcher("--model-path", "a", "--tp-size", "2"),
            "serve_b.py": _launcher("--model-path", "b", "--tp-size", "2"),
        },
    )
    found, counts = run_counting_flake8(tmp_path, ".")
    assert sorted(counts["extracted"]) == ["decode.py", "prefill.py", "serve_a.py", "serve_b.py"]
    assert max(counts["extracted"].values()) <= 2, counts
    # the same findings as without the cache: the pair's, in both of its files
    uncached, uncached_counts = run_counting_flake8(tmp_path, ".", cache=False)
    assert found == uncached
    assert [line.split(":")[3] for line in found] == ["SGL001", "SGL001"]
    assert {line.split(":")[0] for line in found} == {os.path.join(".", "decode.py"), os.path.join(".", "prefill.py")}
    assert sum(uncached_counts["extracted"].values()) > sum(counts["extracted"].values())


def test_flake8_worker_starts_no_process_pool_of_its_own(tmp_path) -> None:
    # A named file's context of 16 launching files was extracted in a pool of
    # sglang-lint's own (two workers from 16 files): forked from each flake8
    # worker, on the CPUs flake8's workers already use. flake8 runs the files in
    # parallel; the plugin analyzes in the process flake8 gives it.
    write(tmp_path, **{f"serve_{i:02}.py": _launcher("--model-path", f"m{i}", "--tp-size", "2") for i in range(17)})
    found, counts = run_counting_flake8(tmp_path, "serve_00.py")
    assert found == []
    assert counts["pools"] == []
    assert counts["extracted"] == {f"serve_{i:02}.py": 1 for i in range(17)}  # all of them, here


def test_flake8_reports_what_the_cli_reports_at_the_same_column(tmp_path, monkeypatch) -> None:
    write(tmp_path, **{"launch_pd.py": PD})
    found = rows(run_flake8(tmp_path, "."))  # flake8 names it ./launch_pd.py
    monkeypatch.chdir(tmp_path)
    [expected] = lint_paths(["launch_pd.py"], LintOptions()).findings
    assert (expected.location.line, expected.location.column) == (PD_LINE, PD_OFFSET + 1)
    # The message names files as the CLI does (flake8's ./ prefix is its own).
    message = sanitize(expected.message)
    assert found == [(os.path.join(".", "launch_pd.py"), PD_LINE, PD_OFFSET + 1, "SGL001", message)]
    # One line: the message only, not the help and notes the other formats show.
    assert expected.help and expected.notes and "help:" not in found[0][4]


IMPORTER_HELPERS = textwrap.dedent(
    """\
    import subprocess
    import sys


    def start(role, tp):
        return subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--model-path", "m",
                                 "--disaggregation-mode", role, "--tp", str(tp), "--enable-unified-memory"])
    """
)


def test_flake8_follows_a_launch_through_an_imported_helper(tmp_path, monkeypatch) -> None:
    """A file that spells no launch and calls a helper of the project that
    launches with what it is given is analyzed, as `sglang-lint check FILE`
    analyzes it (extraction.importing_launchers); flake8 was silent on it. A
    file importing only what launches nothing, or only the standard library,
    stays dismissed."""
    write(
        tmp_path,
        **{
            "ops/__init__.py": "",
            "ops/helpers.py": IMPORTER_HELPERS,
            "deploy.py": 'from ops.helpers import start\n\nstart("prefill", 8)\nstart("decode", 4)\n',
            "matched.py": 'from ops import helpers\n\nhelpers.start("prefill", 8)\nhelpers.start("decode", 8)\n',
            "unrelated.py": "from ops import __name__ as name\nimport os\n\nprint(name, os.getcwd())\n",
        },
    )
    found = rows(run_flake8(tmp_path, "deploy.py", "matched.py", "unrelated.py"))
    assert [r[:4] for r in found] == [("deploy.py", 4, 17, "SGL001")]  # start("decode", 4)
    monkeypatch.chdir(tmp_path)
    [cli] = lint_paths(["deploy.py"], LintOptions(cache=False)).findings
    assert (cli.location.line, cli.location.column, cli.code) == found[0][1:4]


def test_flake8_matches_the_cli_on_a_fixture_launching_through_imported_helpers(monkeypatch) -> None:
    """fixtures/python-imported-helper: the scripts and the test module launch
    through `deploy.pd_helpers`; flake8 on each file reports what the CLI
    reports on the fixture (the matching test over all fixtures skips it: its
    findings point into the helper too)."""
    case = FIXTURES / "python-imported-helper"
    monkeypatch.chdir(ROOT)
    relative = case.relative_to(ROOT)
    cli = lint_paths([str(relative)], LintOptions())
    expected = sorted((os.path.normpath(f.location.path), f.location.line, f.location.column, f.code) for f in cli.findings)
    assert len(expected) == 2
    py_files = sorted(os.path.normpath(p.relative_to(ROOT)) for p in case.rglob("*.py"))
    found = rows(run_flake8(ROOT, "--sglang-no-cache", *py_files))
    assert sorted((os.path.normpath(r[0]), r[1], r[2], r[3]) for r in found) == expected


def test_flake8_noqa_on_the_reported_line(tmp_path) -> None:
    comments = {"none": "", "sgl001": "# noqa: SGL001", "sgl002": "# noqa: SGL002", "e501": "# noqa: E501"}
    names = write(tmp_path, **{f"{name}.py": with_comment(PD, PD_LINE, c) for name, c in comments.items()})
    found = rows(run_flake8(tmp_path, *names))
    assert sorted((r[0], r[1], r[3]) for r in found) == [(f"{n}.py", PD_LINE, "SGL001") for n in ("e501", "none", "sgl002")]


def test_flake8_disable_noqa(tmp_path) -> None:
    # flake8 applies a noqa on the reported line itself; one on another line of the
    # launch only the plugin applies, and --disable-noqa must turn that off too
    names = write(
        tmp_path,
        **{
            "reported_line.py": with_comment(PD, PD_LINE, "# noqa: SGL001"),
            "launch_line.py": with_comment(PD, PD_LAUNCH_LINE, "# noqa: SGL001"),
        },
    )
    assert rows(run_flake8(tmp_path, *names)) == []
    found = rows(run_flake8(tmp_path, "--disable-noqa", *names))
    assert sorted((r[0], r[1], r[2], r[3]) for r in found) == [
        (name, PD_LINE, PD_OFFSET + 1, "SGL001") for name in sorted(names)
    ]


def test_stdin(tmp_path) -> None:
    found = rows(run_flake8(tmp_path, "--stdin-display-name", "launch_pd.py", "-", stdin=PD))
    assert [r[:4] for r in found] == [("launch_pd.py", PD_LINE, PD_OFFSET + 1, "SGL001")]
    # flake8 names it "stdin": analyzed as Python all the same
    found = rows(run_flake8(tmp_path, "-", stdin=PD))
    assert [r[:4] for r in found] == [("stdin", PD_LINE, PD_OFFSET + 1, "SGL001")]


def test_target_version_from_the_command_line_and_bad_values(tmp_path) -> None:
    write(tmp_path, **{"pd.py": BY_VERSION})
    assert rows(run_flake8(tmp_path, "pd.py")) == []
    found = rows(run_flake8(tmp_path, "--sglang-target-version", OLD_VERSION, "pd.py"))
    assert sorted((r[0], r[3]) for r in found) == [("pd.py", "SGL001"), ("pd.py", "SGL202")]
    for config, args in (
        ("[flake8]\nsglang-target-version = 0.0.1\n", ["pd.py"]),
        (None, ["--sglang-target-version", "0.0.1", "pd.py"]),
    ):
        process = run_flake8(tmp_path, *args, config=config)
        assert (process.returncode, process.stdout) == (2, "")
        assert "flake8: error: argument --sglang-target-version: no sglang-lint option table for SGLang '0.0.1'" in process.stderr
        assert known_versions()[-1] in process.stderr and "Traceback" not in process.stderr


# fork: workers inherit the options flake8's main process parsed; spawn (like
# forkserver): each worker parses the command line and config file again.
@pytest.mark.parametrize("start_method", [m for m in ("fork", "spawn") if m in multiprocessing.get_all_start_methods()])
def test_jobs_2_options_from_the_config_reach_the_workers(tmp_path, start_method: str) -> None:
    names = write(tmp_path, **{f"pd_{i}.py": BY_VERSION for i in range(4)})
    process = run_flake8(
        tmp_path, "-vv", "-j", "2", *names,
        config=f"[flake8]\nsglang-target-version = {OLD_VERSION}\n", start_method=start_method,
    )
    assert sorted((r[0], r[3]) for r in rows(process)) == [(name, code) for name in names for code in ("SGL001", "SGL202")]
    from flake8 import checker

    if start_method == "fork" or hasattr(checker, "_mp_init"):  # flake8 < 6 runs serially unless fork
        # the files were checked in worker processes (flake8's log names the process)
        checked_in = {line.split()[1] for line in process.stderr.splitlines() if "Logical line:" in line}
        assert checked_in and all("PoolWorker-" in name for name in checked_in), checked_in


def test_an_internal_error_never_aborts_flake8(tmp_path) -> None:
    names = write(tmp_path, **{"crash_me.py": PD, "pd.py": PD, "style.py": "import os\nx=1\n"})
    for jobs in ("1", "2"):
        process = run_flake8(tmp_path, "-j", jobs, *names, crash="crash_me", select="SGL,E,F")
        found = rows(process)
        crash = [r for r in found if r[0] == "crash_me.py" and r[3].startswith("SGL")]
        assert [r[:4] for r in crash] == [("crash_me.py", 1, 1, "SGL900")]
        assert crash[0][4].startswith("sglang-lint internal error (RecursionError") and crash[0][4].endswith("please report it")
        # the other files' findings, the plugin's and flake8's own, are all there
        assert {("pd.py", "SGL001"), ("style.py", "F401"), ("style.py", "E225")} <= {(r[0], r[3]) for r in found}


def test_finding_located_in_a_config_file_is_reported_on_the_launch_line(tmp_path, monkeypatch) -> None:
    launcher = textwrap.dedent(
        """\
        import subprocess
        subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--enable-unified-memory", "--tp-size", "8", "--port", "30000"])
        import os
        subprocess.Popen(["python3", "-m", "sglang.launch_server", "--config", "decode.yaml",
                          "--port", "30001"])
        """
    )
    write(
        tmp_path,
        **{
            "deploy/decode.yaml": "disaggregation-mode: decode\nenable-unified-memory: true\ntp-size: 4\n",
            "deploy/pd.py": launcher,
            "deploy/pd_noqa.py": with_comment(launcher, 4, "# noqa: SGL001"),
        },
    )
    monkeypatch.chdir(tmp_path)
    [expected] = lint_paths(["deploy/pd.py"], LintOptions()).findings
    yaml = os.path.join("deploy", "decode.yaml")
    assert (expected.location.path, expected.location.line) == (yaml, 3)
    # the YAML is found next to the launcher, not in flake8's working directory
    found = rows(run_flake8(tmp_path, "deploy/pd.py", "deploy/pd_noqa.py"))
    assert found == [
        ("deploy/pd.py", 4, 1, "SGL001", f"{sanitize(expected.message)} (at {yaml}:3:1)")
    ]


# ---------------------------------------------------------------------------------
# Parity with the CLI on the fixtures that hold Python files

PY_FIXTURES = sorted(d for d in FIXTURES.iterdir() if d.is_dir() and any(d.rglob("*.py")))


def _files_of(finding) -> set[str]:
    paths = {finding.location.path, *(r.location.path for r in finding.related), *(p for p, _, _ in finding.noqa_ranges)}
    return {os.path.normpath(p) for p in paths}


def _parses(path: Path) -> bool:
    try:
        ast.parse(path.read_bytes(), str(path))
    except (SyntaxError, ValueError):
        return False
    return True


@pytest.mark.parametrize("case", PY_FIXTURES, ids=[d.name for d in PY_FIXTURES])
def test_flake8_matches_the_cli_on_python_fixtures(case: Path, monkeypatch, tmp_path) -> None:
    """flake8 --select SGL on each .py file of a fixture reports what the CLI reports
    in that file. A file that does not parse gets flake8's E999 instead (flake8
    runs no plugin on it), whatever the CLI says about it."""
    skip = case / "FLAKE8_SKIP"
    if skip.is_file():
        pytest.skip(f"FLAKE8_SKIP: {skip.read_text(encoding='utf-8').strip()}")
    monkeypatch.chdir(ROOT)
    relative = case.relative_to(ROOT)
    cli = lint_paths([str(relative)], LintOptions())
    crossing = [f for f in cli.findings if len(_files_of(f)) > 1]
    if crossing:
        pytest.skip(f"a finding pairs launches in several files ({crossing[0].location}); flake8 sees one file at a time")
    py_files = sorted(os.path.normpath(p.relative_to(ROOT)) for p in case.rglob("*.py"))
    broken = {p for p in py_files if not _parses(ROOT / p)}
    expected = sorted(
        (os.path.normpath(f.location.path), f.location.line, f.location.column, f.code, sanitize(f.message))
        for f in cli.findings
        if os.path.normpath(f.location.path) in set(py_files) - broken
    )
    # (not the checkout's cache: results of another run must not answer this one)
    found = rows(run_flake8(ROOT, "--sglang-no-cache", *py_files, select="SGL,E999"))
    assert {os.path.normpath(r[0]) for r in found if r[3] == "E999"} == broken
    actual = sorted((os.path.normpath(r[0]), r[1], r[2], r[3], r[4]) for r in found if r[3] != "E999")
    assert actual == expected
    if not actual:
        return
    # `# noqa: CODE` where flake8 reported each finding silences it.
    copy = tmp_path / "copy"
    shutil.copytree(case, copy)
    by_file: dict[str, dict[int, set[str]]] = {}
    for path, line, _column, code, _text in actual:
        by_file.setdefault(path, {}).setdefault(line, set()).add(code)
    for path, codes_by_line in by_file.items():
        target = copy / Path(path).relative_to(relative)
        target.write_text(_with_noqa(target.read_text(encoding="utf-8"), codes_by_line), encoding="utf-8")
    silenced = rows(run_flake8(tmp_path, *[str(Path("copy") / Path(p).relative_to(relative)) for p in py_files if p not in broken]))
    assert silenced == []


def _with_noqa(text: str, codes_by_line: dict[int, set[str]]) -> str:
    """Append `# noqa: CODES` to each line; a line inside a multi-line string gets
    it after the string ends (where flake8 reads a noqa for every line of it)."""
    comment_line = {}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.start[0] != token.end[0]:
            for line in range(token.start[0], token.end[0] + 1):
                comment_line[line] = token.end[0]
    lines = text.split("\n")
    wanted: dict[int, set[str]] = {}
    for line, codes in codes_by_line.items():
        wanted.setdefault(comment_line.get(line, line), set()).update(codes)
    for line, codes in wanted.items():
        lines[line - 1] += "  # noqa: " + ", ".join(sorted(codes))
    return "\n".join(lines)


ENV_PD = """\
import os
import subprocess

subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--enable-unified-memory", "--tp", "8"])
subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "--enable-unified-memory",
                  "--tp", os.environ["DECODE_TP"], "--port", "30001"])
"""


def test_the_sglang_lint_config_gives_env_and_a_broken_one_is_sgl900(tmp_path) -> None:
    write(tmp_path, **{"svc/pd.py": ENV_PD})
    assert rows(run_flake8(tmp_path, "svc/pd.py")) == []  # $DECODE_TP unknown
    write(tmp_path, **{"sglang-lint.toml": '[env]\nDECODE_TP = "4"\n'})
    assert [r[:4] for r in rows(run_flake8(tmp_path, "svc/pd.py"))] == [("svc/pd.py", 6, 27, "SGL001")]
    write(tmp_path, **{"svc/sglang-lint.toml": "[env]\nDECODE_TP = []\n"})
    found = rows(run_flake8(tmp_path, "svc/pd.py"))
    assert [r[:4] for r in found] == [("svc/pd.py", 1, 1, "SGL900")]
    assert "sglang-lint.toml: env.DECODE_TP must be a string" in found[0][4]


# ---------------------------------------------------------------------------------
# The on-disk cache: flake8 runs again and again over the same files


def test_a_file_checked_before_is_answered_from_the_disk_cache(tmp_path, monkeypatch) -> None:
    """What one flake8 process analyzed, the next reads from the on-disk cache
    (the process's cache written when it ends, then a new process): no
    analysis, the same findings. Before, every run analyzed every launching
    file again (SGLang's tree: 143 files, ~25% of flake8's time)."""
    from sglang_lint import pipeline

    monkeypatch.setenv("SGLANG_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(SglangLintChecker, "use_cache", True)
    (tmp_path / "pd.py").write_text(PD)
    analyzed = []
    extract = pipeline.extract
    monkeypatch.setattr(pipeline, "extract", lambda path, *rest: analyzed.append(path) or extract(path, *rest))
    first = check(PD, str(tmp_path / "pd.py"))
    flake8_plugin._save_cache()  # what the process does when it ends
    assert analyzed and list((tmp_path / "cache").glob("extract-*.json"))
    monkeypatch.setattr(flake8_plugin, "_CONTEXT_CACHE", None)  # a new process
    analyzed.clear()
    assert check(PD, str(tmp_path / "pd.py")) == first
    assert analyzed == []
    # An edited file is analyzed again.
    edited = PD.replace('"8"', '"4"')
    check(edited, str(tmp_path / "pd.py"))
    assert analyzed == [str(tmp_path / "pd.py")]


def test_a_file_read_two_ways_is_answered_from_the_cache_both_ways(tmp_path, monkeypatch) -> None:
    """deploy.py spells no launch and calls helpers.start: flake8 reads it
    named alone (judged by the Python source's own check, "module") and as the
    context of pd.py beside it (a walk's round over pd.py's context, where
    helpers.py exports `start`: "launcher"). Both results
    are kept (extraction.cache_slot); with one slot a path, each put its result
    over the other and the next flake8 run analyzed the file again, every run
    (6 of SGLang's files)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SGLANG_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(SglangLintChecker, "use_cache", True)
    write(tmp_path, **{"helpers.py": IMPORTER_HELPERS, "deploy.py": 'from helpers import start\n\nstart("prefill", 8)\nstart("decode", 4)\n', "pd.py": PD})

    def flake8_run() -> tuple[list, int]:
        monkeypatch.setattr(flake8_plugin, "_CONTEXT_CACHE", None)  # a new process
        flake8_plugin.SglangLintChecker.parse_options(argparse.Namespace(sglang_target_version=None, disable_noqa=False, sglang_no_cache=False))
        found = [(name, codes(check((tmp_path / name).read_text(), name))) for name in ("deploy.py", "pd.py")]
        made = flake8_plugin._analyses_made()
        flake8_plugin._save_cache()  # what the process does when it ends
        return found, made

    first, made = flake8_run()
    assert first == [("deploy.py", ["SGL001"]), ("pd.py", ["SGL001"])] and made == 4  # deploy.py twice
    assert flake8_run() == (first, 0)


def test_a_warm_flake8_run_reads_each_dependency_once(tmp_path, monkeypatch) -> None:
    """Each file's cached result is checked against the modules it read; in
    one flake8 run (the files do not change meanwhile) each module is read
    and hashed once, not once per file resting on it (SGLang's tree, warm:
    the plugin's time for its 153 launching files 3.0 -> 0.5 CPU-s)."""
    from sglang_lint.sources.project import ProjectFiles

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SGLANG_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(SglangLintChecker, "use_cache", True)
    helpers = "import subprocess\n\n\ndef serve(tp):\n    subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', tp])\n"
    names = [f"serve_{index}.py" for index in range(3)]
    write(tmp_path, **{"pkg/__init__.py": "", "pkg/helpers.py": helpers})
    write(tmp_path, **{name: f"# starts sglang.launch_server\nfrom pkg.helpers import serve\n\nserve('{index}')\n" for index, name in enumerate(names)})
    digested: list[str] = []
    digest = ProjectFiles.digest
    monkeypatch.setattr(ProjectFiles, "digest", lambda self, shown: digested.append(os.path.normpath(shown)) or digest(self, shown))

    def flake8_run() -> int:
        monkeypatch.setattr(flake8_plugin, "_CONTEXT_CACHE", None)  # a new process
        flake8_plugin.SglangLintChecker.parse_options(argparse.Namespace(sglang_target_version=None, disable_noqa=False, sglang_no_cache=False))
        for name in names:
            check((tmp_path / name).read_text(), name)
        flake8_plugin._save_cache()
        return flake8_plugin._analyses_made()

    assert flake8_run() > 0
    digested.clear()
    assert flake8_run() == 0  # warm: every result from the cache ...
    assert digested.count(os.path.join("pkg", "helpers.py")) == 1  # ... checked against the helper read once


def test_flake8_processes_write_the_cache_and_the_next_run_reads_it(tmp_path) -> None:
    """Real flake8 runs: the first writes .sglang-lint-cache at the project
    root (when its process ends), the second analyzes nothing and reports
    the same; --sglang-no-cache writes nothing."""
    write(tmp_path, **{"prefill.py": PREFILL_8, "decode.py": DECODE_4})
    first, counts = run_counting_flake8(tmp_path, ".")
    assert sorted(counts["extracted"]) == ["decode.py", "prefill.py"]
    assert list((tmp_path / ".sglang-lint-cache").glob("extract-*.json"))
    second, counts = run_counting_flake8(tmp_path, ".")
    assert second == first and counts["extracted"] == {}
    elsewhere = tmp_path / "no-cache"
    write(elsewhere, **{"prefill.py": PREFILL_8, "decode.py": DECODE_4})
    found, counts = run_counting_flake8(elsewhere, "--sglang-no-cache", ".")
    assert found == first
    assert not (elsewhere / ".sglang-lint-cache").exists()


def test_flake8_workers_each_keep_their_entries(tmp_path) -> None:
    """With -j 2 each worker writes the cache when it ends, reading it again
    first: both workers' files are in it."""
    names = {f"serve_{i:02}.py": _launcher("--model-path", f"m{i}", "--tp-size", "2") for i in range(8)}
    write(tmp_path, **names)
    rows(run_flake8(tmp_path, "-j", "2", ".", config="[flake8]\n"))
    import json

    (cache_file,) = (tmp_path / ".sglang-lint-cache").glob("extract-*.json")
    stored = {os.path.basename(path) for path in json.loads(cache_file.read_text())["entries"]}
    assert set(names) <= stored
