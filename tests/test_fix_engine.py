"""The fix engine and its command line (issue 21): ruff's --fix / --unsafe-fixes /
--no-fix / --fix-only / --diff / --show-fixes, the config keys fix, unsafe-fixes,
fixable and unfixable, and the engine's promises: applicability, only the files
checked, edits that do not overlap, files that still parse, nothing written by
--diff, idempotence."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sglang_lint.cli import main
from sglang_lint.fix_engine import FixSettings, fix_paths, unified_diff
from sglang_lint.model import DISPLAY_ONLY, SAFE, UNSAFE, Finding, Fix, Location
from sglang_lint.options import LintOptions, LintResult

# A pair whose prefill misspells an option (SGL202, an unsafe fix: the option
# the user most likely meant) and whose decode abbreviates one (SGL201 with one
# candidate sharing the meaning would be a single fix; `--disagg` is ambiguous).
SCRIPT = (
    "#!/bin/bash\n"
    "MODEL=Qwen/Qwen3-8B\n"
    "python -m sglang.launch_server --model-path $MODEL --disaggregation-mode prefill \\\n"
    "    --enable-unified-memory --tp 8 --dissagregation-transfer-backend mooncake &  # prefill\n"
    "python -m sglang.launch_server --model-path $MODEL --disaggregation-mode decode \\\n"
    "    --enable-unified-memory --tp 8 --port 30001 &\n"
)
FIXED = SCRIPT.replace("--dissagregation-transfer-backend", "--disaggregation-transfer-backend")


def _check(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["check", "--no-cache", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def script(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "run.sh"
    path.write_text(SCRIPT)
    return path


def test_fix_applies_no_unsafe_fix_and_says_how(script, capsys) -> None:
    code, out, err = _check(capsys, "--fix", "run.sh")
    assert script.read_text() == SCRIPT
    assert code == 1 and "SGL202" in out
    assert "1 hidden fix can be enabled with the `--unsafe-fixes` option." in err


def test_unsafe_fixes_rewrite_only_the_token_and_a_second_run_changes_nothing(script, capsys) -> None:
    code, out, err = _check(capsys, "--fix", "--unsafe-fixes", "--show-fixes", "run.sh")
    assert script.read_text() == FIXED  # the comment, quoting and layout kept
    assert code == 0 and "All checks passed!" in out
    assert "Fixed 1 finding:" in err and "1 x SGL202 (unknown-option)" in err
    code, _, err = _check(capsys, "--fix", "--unsafe-fixes", "run.sh")
    assert script.read_text() == FIXED and code == 0 and "Fixed" not in err


def test_fix_only_reports_nothing_that_remains(script, capsys) -> None:
    code, out, _ = _check(capsys, "--fix-only", "run.sh")
    assert (code, out, script.read_text()) == (0, "", SCRIPT)


def test_no_fix_wins_over_the_config(script, capsys) -> None:
    (script.parent / "sglang-lint.toml").write_text("fix = true\nunsafe-fixes = true\n")
    code, _, _ = _check(capsys, "--no-fix", "run.sh")
    assert code == 1 and script.read_text() == SCRIPT
    code, _, _ = _check(capsys, "--no-unsafe-fixes", "run.sh")
    assert code == 1 and script.read_text() == SCRIPT
    code, _, _ = _check(capsys, "run.sh")
    assert code == 0 and script.read_text() == FIXED


def test_unfixable_and_fixable_codes(script, capsys) -> None:
    config = script.parent / "sglang-lint.toml"
    config.write_text('unfixable = ["SGL202"]\n')
    _check(capsys, "--fix", "--unsafe-fixes", "run.sh")
    assert script.read_text() == SCRIPT
    config.write_text('fixable = ["SGL001"]\n')
    _check(capsys, "--fix", "--unsafe-fixes", "run.sh")
    assert script.read_text() == SCRIPT
    config.write_text('fixable = ["SGL2"]\n')
    _check(capsys, "--fix", "--unsafe-fixes", "run.sh")
    assert script.read_text() == FIXED


def test_a_bad_fix_key_is_a_config_error(script, capsys) -> None:
    (script.parent / "sglang-lint.toml").write_text('fix = "yes"\n')
    code, _, err = _check(capsys, "run.sh")
    assert code == 2 and "fix must be true or false" in err


def test_diff_writes_nothing_and_applies_with_patch_and_git(script, capsys) -> None:
    code, out, err = _check(capsys, "--diff", "--unsafe-fixes", "run.sh")
    assert code == 1 and script.read_text() == SCRIPT
    assert out.startswith("--- run.sh\n+++ run.sh\n") and "Would fix 1 finding." in err
    (script.parent / "fix.diff").write_text(out)
    if shutil.which("patch"):
        subprocess.run(["patch", "-p0", "-i", "fix.diff"], check=True, capture_output=True, timeout=60)
        assert script.read_text() == FIXED
        script.write_text(SCRIPT)
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q", "."], check=True, capture_output=True, timeout=60)
        subprocess.run(["git", "apply", "-p0", "fix.diff"], check=True, capture_output=True, timeout=60)
        assert script.read_text() == FIXED
    code, out, _ = _check(capsys, "--diff", "run.sh")  # no unsafe fix allowed: no diff
    assert (code, out) == (0, "")


def test_fixes_are_not_applied_to_standard_input(script, capsys, monkeypatch) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SCRIPT.encode())))
    code, _, err = _check(capsys, "--fix", "--stdin-filename", "run.sh", "-")
    assert code == 2 and "not to standard input" in err


# -- the engine, with findings made up for it ----------------------------------------


def _finding(code: str, path: str, line: int, old: str, new: str, applicability: str = UNSAFE, column: int = 1) -> Finding:
    where = Location(path, line, column)
    return Finding(code, "made-up", f"{old} -> {new}", where, fixes=(Fix(f"Replace {old}", where, old, new, applicability=applicability),))


class _Lint:
    """A lint that reports the findings given for each text of the files
    (what the real lint would find again in the fixed text)."""

    def __init__(self, root: Path, findings_for) -> None:
        self.root = root
        self.findings_for = findings_for
        self.calls = 0

    def __call__(self, paths, options, overlays=None) -> LintResult:
        self.calls += 1
        sources: dict[str, list[str]] = {}
        findings: list[Finding] = []
        for path in sorted(p for p in self.root.rglob("*") if p.is_file()):
            shown = os.path.relpath(path)
            text = (overlays or {}).get(str(path.resolve()), (overlays or {}).get(os.path.abspath(shown))) or path.read_text()
            sources[shown] = text.split("\n")
            findings.extend(self.findings_for(shown, text))
        return LintResult(findings=findings, sources=sources)


def test_applicability_decides_what_is_applied(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "run.sh").write_text("a --b c --d e --f g\n")

    def findings(shown, text):
        found = []
        for old, new, applicability in (("--b", "--bb", SAFE), ("--d", "--dd", UNSAFE), ("--f", "--ff", DISPLAY_ONLY)):
            if f"{old} " in text:
                found.append(_finding("SGL202", shown, 1, old, new, applicability))
        return found

    safe = fix_paths(["."], LintOptions(), FixSettings(), _Lint(tmp_path, findings))
    assert safe.texts == {"run.sh": ("a --b c --d e --f g\n", "a --bb c --d e --f g\n")}
    assert safe.hidden_unsafe == 1
    unsafe = fix_paths(["."], LintOptions(), FixSettings(unsafe=True), _Lint(tmp_path, findings))
    assert unsafe.texts["run.sh"][1] == "a --bb c --dd e --f g\n"  # display-only never
    assert [code for _, code, _, _ in unsafe.fixed] == ["SGL202", "SGL202"]


def test_overlapping_edits_take_turns_in_later_passes(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "run.sh").write_text("x --tp 8\n")

    def findings(shown, text):
        # Two findings on one token: the second applies after a re-lint.
        if "--tp 8" in text:
            return [_finding("SGL202", shown, 1, "--tp", "--tp-size"), _finding("SGL201", shown, 1, "--tp", "--tensor-parallel-size")]
        if "--tp-size" in text:
            return [_finding("SGL201", shown, 1, "--tp-size", "--tensor-parallel-size")]
        return []

    lint = _Lint(tmp_path, findings)
    outcome = fix_paths(["."], LintOptions(), FixSettings(unsafe=True), lint)
    assert outcome.texts["run.sh"][1] == "x --tensor-parallel-size 8\n"
    assert lint.calls == 3  # the first lint, one after each pass that changed something


def test_a_fix_that_would_break_the_file_is_dropped_with_a_note(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "launch.py").write_text('ARGS = ["--tp", "8"]\n')

    def findings(shown, text):
        return [_finding("SGL202", shown, 1, '"--tp"', '"--tp', SAFE)] if '"--tp"' in text else []

    outcome = fix_paths(["."], LintOptions(), FixSettings(), _Lint(tmp_path, findings))
    assert outcome.texts == {}
    assert outcome.notes and "would not parse" in outcome.notes[0] and "launch.py" in outcome.notes[0]


def test_files_outside_the_paths_and_changed_files_are_left_alone(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "run.sh").write_text("x --b\n")
    (tmp_path / "lib.sh").write_text("y --b\n")

    def findings(shown, text):
        return [_finding("SGL202", shown, 1, "--b", "--bb", SAFE)] if "--b\n" in text else []

    outcome = fix_paths(["deploy"], LintOptions(), FixSettings(), _Lint(tmp_path, findings))
    assert set(outcome.texts) == {os.path.join("deploy", "run.sh")}  # lib.sh is no path given

    class _Stale(_Lint):
        def __call__(self, paths, options, overlays=None):
            result = super().__call__(paths, options, overlays)
            if overlays is None:
                (tmp_path / "deploy" / "run.sh").write_text("x --b  # edited meanwhile\n")
            return result

    stale = fix_paths(["deploy"], LintOptions(), FixSettings(), _Stale(tmp_path, findings))
    assert stale.texts == {} and "not the UTF-8 text that was checked" in stale.notes[0]


def test_the_diff_of_a_file_without_a_final_newline() -> None:
    diff = unified_diff({"a.sh": ("x --b", "x --bb")})
    assert diff.splitlines()[-1] == "\\ No newline at end of file"


# -- SGL902: an unused suppression is removed (a safe fix) ---------------------------

PREFILL = "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"
DECODE = "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 8 --port 30001 &"


@pytest.mark.parametrize(
    ("comment", "left"),
    [
        ("  # noqa: SGL001", ""),  # the only code: the whole comment and the blanks before it
        ("  # noqa: SGL001, E501", "  # noqa: E501"),  # another linter's code stays
        ("  # noqa:SGL005,SGL001  # why", "  # noqa:SGL005  # why"),  # the last code, with its separator
        ("  # noqa: SGL001, SGL005", "  # noqa: SGL005"),  # the first code
    ],
)
def test_fix_removes_an_unused_suppression(tmp_path, monkeypatch, capsys, comment: str, left: str) -> None:
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "run.sh"
    script.write_text(PREFILL + DECODE + comment + "\n")
    code, _, err = _check(capsys, "--strict", "--select", "SGL001,SGL902", "--fix", "run.sh")  # SGL005 did not run: kept
    assert script.read_text() == PREFILL + DECODE + left + "\n"
    assert code == 0 and "Fixed" in err


def test_fix_removes_an_unused_file_directive_in_python(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    launcher = tmp_path / "launch.py"
    text = (
        "# sglang-lint: disable=SGL005\n"
        "import subprocess\n"
        'subprocess.run(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp", "2"])\n'
    )
    launcher.write_text(text)
    _check(capsys, "--strict", "--fix", "launch.py")
    assert launcher.read_text() == "\n" + text.split("\n", 1)[1]


# -- pair rules: the decode takes the prefill's value where its own was written -----


@pytest.mark.parametrize(
    "decode_page",
    [
        "--page-size ${DECODE_PAGE:-32}",  # the environment decides
    ],
)
def test_no_value_fix_where_it_would_guess(tmp_path, monkeypatch, capsys, decode_page: str) -> None:
    monkeypatch.chdir(tmp_path)
    script = (
        "PAGE=16\n"
        'python -m sglang.launch_server --disaggregation-mode prefill --page-size "$PAGE" --kv-cache-dtype fp8_e5m2 &\n'
        f"python -m sglang.launch_server --disaggregation-mode decode {decode_page} --port 30001 &\n"
    )
    (tmp_path / "pd.sh").write_text(script)
    code, out, _ = _check(capsys, "--select", "SGL003", "--diff", "--unsafe-fixes", "pd.sh")
    assert (code, out) == (0, "")
    assert _check(capsys, "--select", "SGL003", "pd.sh")[0] == 1  # the finding is there all the same


def test_a_value_fix_is_unsafe_and_names_the_value(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pd.sh").write_text(
        "python -m sglang.launch_server --disaggregation-mode prefill --disaggregation-transfer-backend mooncake &\n"
        "python -m sglang.launch_server --disaggregation-mode decode --disaggregation-transfer-backend nixl --port 30001 &\n"
    )
    code, out, _ = _check(capsys, "--select", "SGL006", "--output-format", "json", "pd.sh")
    (finding,) = __import__("json").loads(out)
    assert finding["fix"]["applicability"] == "unsafe"
    assert finding["fix"]["message"] == "Give the decode the prefill's transfer backend mooncake"
    assert finding["fix"]["edits"][0]["content"] == "mooncake"


def test_sgl001_offers_two_layouts_and_the_command_line_applies_neither(tmp_path, monkeypatch, capsys) -> None:
    """attn_tp = tp // attn_dp // attn_cp (0.5.23 srt/runtime_context.py:73-76):
    the decode's 8 / 4 = 2 becomes 8 with --tp 32 (the attention DP layout
    kept, preferred) or with --dp 1; which one is the user's call."""
    monkeypatch.chdir(tmp_path)
    text = (
        "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000 &\n"
        "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 8 --dp 4 --enable-dp-attention --port 30001 &\n"
    )
    (tmp_path / "pd.sh").write_text(text)
    from sglang_lint.pipeline import lint_paths

    (finding,) = lint_paths(["pd.sh"], LintOptions(cache=False)).findings
    assert [(fix.title, fix.old, fix.new, fix.preferred, fix.applicability) for fix in finding.fixes] == [
        ("Give the decode --tp 32 (attention TP 8)", "8", "32", True, "unsafe"),
        ("Give the decode --dp 1 (attention TP 8)", "4", "1", False, "unsafe"),
        # The other way out, shown and never applied (it changes both servers).
        ("Drop --enable-unified-memory on both sides", "--enable-unified-memory", "", False, "display-only"),
    ]
    code, out, _ = _check(capsys, "--diff", "--unsafe-fixes", "pd.sh")
    assert (code, out) == (0, "")
    full = _check(capsys, "pd.sh")[1]
    assert "= fix (unsafe): Give the decode --tp 32 (attention TP 8)" in full
    assert "= fix (display-only): Drop --enable-unified-memory on both sides" in full
    from sglang_lint.fixes import apply_edits, resolve_fix

    for fix in finding.fixes[:2]:  # each alternative, applied as an editor would, makes the pair agree
        edit = resolve_fix(fix, text.split("\n"))
        assert edit is not None
        (tmp_path / "pd.sh").write_text(apply_edits(text.split("\n"), [edit]))
        assert _check(capsys, "pd.sh")[0] == 0


def test_a_plain_check_loads_neither_the_fix_engine_nor_libcst(tmp_path) -> None:
    """Fixing costs nothing to a run that does not fix (issue 21): the engine
    and libcst load only with --fix / --diff, not even for a report that shows
    fixes (an insertion into a Python file, which needs libcst, is left out of
    the JSON report's `fix`)."""
    from test_prefilter import _modules_loaded_by_a_check

    consistent = str(Path(__file__).resolve().parent.parent / "fixtures" / "consistent-pd")
    assert _modules_loaded_by_a_check(["--no-cache", consistent], ("sglang_lint.fix_engine", "libcst")) == []
    launcher = tmp_path / "launch.py"
    launcher.write_text(
        "import subprocess\n"
        'subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--enable-unified-memory"])\n'
        'subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "--port", "30001"])\n'
    )
    arguments = ["--no-cache", "--exit-zero", "--output-format", "json", str(launcher)]
    assert _modules_loaded_by_a_check(arguments, ("sglang_lint.fix_engine", "libcst")) == []


def test_a_quoted_shell_word_is_not_split(tmp_path, monkeypatch, capsys) -> None:
    """`"--config=$CFG"` split would put the blank inside the quotes: one word
    still. SGL206 keeps the finding and offers no edit there."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "run.sh").write_text('CFG=p.yaml\npython -m sglang.launch_server "--config=$CFG" --port 30000\n')
    (tmp_path / "p.yaml").write_text("tp-size: 2\n")
    code, out, _ = _check(capsys, "--diff", "run.sh")
    assert (code, out) == (0, "")
    assert _check(capsys, "--select", "SGL206", "run.sh")[0] == 1


def test_a_config_file_is_read_from_its_overlay(tmp_path, monkeypatch) -> None:
    """An SGLang `--config` YAML file whose text is an overlay (an editor's
    unsaved buffer, a file the fix engine edited in memory) is read as that
    text, not from the disk: the fix engine's next round saw the old page size
    and kept the fixed finding (bug found by tests/golden/fixes/sgl003-yaml-config)."""
    from sglang_lint.pipeline import lint_paths

    monkeypatch.chdir(tmp_path)
    (tmp_path / "decode.yaml").write_text("page-size: 32\n")
    (tmp_path / "pd.sh").write_text(
        "python -m sglang.launch_server --disaggregation-mode prefill --page-size 16 &\n"
        "python -m sglang.launch_server --disaggregation-mode decode --config decode.yaml --port 30001 &\n"
    )
    options = LintOptions(cache=False, select=frozenset({"SGL003"}))
    assert [f.code for f in lint_paths(["."], options).findings] == ["SGL003"]
    overlays = {str(tmp_path / "decode.yaml"): "page-size: 16\n"}
    assert lint_paths(["."], options, overlays=overlays).findings == []


# ---------------------------------------------------------------------------------
# A fix is offered only where its text is written (analysis._fixes_that_apply)

SERVE_SHELL = "sglang serve --model-path /models/m --tp 2\n"
SERVE_YAML = (
    "containers:\n"
    "  - name: llm\n"
    "    image: lmsysorg/sglang:v0.5.4-cu126\n"
    "    command: [sglang, serve, --model-path, /models/m, --tp, '2']\n"
)


def test_a_fix_whose_words_are_apart_in_the_file_is_not_offered(tmp_path, capsys) -> None:
    # SGL209 rewrites `sglang serve` as one text. A shell line has it; a YAML
    # list has the two words apart, where --fix could never apply it: the
    # finding stays, the fix is not listed (the full report listed it, then
    # --fix did nothing).
    (tmp_path / "run.sh").write_text(SERVE_SHELL, encoding="utf-8")
    (tmp_path / "serve.yaml").write_text(SERVE_YAML, encoding="utf-8")
    code, out, _ = _check(capsys, "--target-version", "0.5.4", "--output-format", "full", str(tmp_path))
    assert code == 1
    blocks = {block.split(":", 1)[0].rsplit("/", 1)[-1]: block for block in out.split("\n\n") if "SGL209" in block}
    assert set(blocks) == {"run.sh", "serve.yaml"}
    assert "= fix (unsafe): Start the server with python3 -m sglang.launch_server" in blocks["run.sh"]
    assert "= fix" not in blocks["serve.yaml"]


def test_sgl209_fix_writes_the_llm_servers_own_entry_point(tmp_path, capsys) -> None:
    (tmp_path / "run.sh").write_text(SERVE_SHELL, encoding="utf-8")
    code, _, _ = _check(capsys, "--target-version", "0.5.4", "--fix", "--unsafe-fixes", str(tmp_path / "run.sh"))
    assert code == 0
    assert (tmp_path / "run.sh").read_text(encoding="utf-8") == "python3 -m sglang.launch_server --model-path /models/m --tp 2\n"
