"""Golden outputs of every ``--format`` on one fixture, and the machine formats
checked against their consumers' definitions: SARIF with Microsoft's validator,
rdjson against reviewdog's documented shape (proto/rdf/reviewdog.proto).

The fixture (tests/golden/fixture) has non-ASCII text before the findings'
columns, so the UTF-16 (SARIF) and UTF-8 (rdjson) column conversions show in the
goldens. Regenerate the goldens after an intended change with::

    SGLANG_LINT_UPDATE_GOLDEN=1 python -m pytest tests/test_formats_golden.py
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from sglang_lint.cli import main
from sglang_lint.model import Finding, Location, Related, Severity
from sglang_lint.pipeline import lint_paths
from sglang_lint.report import FORMATS, render
from sglang_lint.report._columns import utf8_column, utf16_column
from sglang_lint.report.github import escape_data, escape_property
from sglang_lint.report.sarif import FINGERPRINT_KEY
from sglang_lint.rules import ALL_RULES

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
FIXTURE = "tests/golden/fixture"  # relative: the goldens hold relative paths
UPDATE = os.environ.get("SGLANG_LINT_UPDATE_GOLDEN") == "1"


def check_output(capsys, monkeypatch, fmt: str, *paths: str) -> str:
    monkeypatch.chdir(ROOT)
    code = main(["check", "--format", fmt, "--color", "never", *(paths or (FIXTURE,))])
    out, err = capsys.readouterr()
    assert code == 1, err
    return out


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_golden(fmt: str, capsys, monkeypatch) -> None:
    out = check_output(capsys, monkeypatch, fmt)
    golden = GOLDEN / f"{fmt}.txt"
    if UPDATE:
        golden.write_bytes(out.encode("utf-8"))
    assert golden.exists(), f"no golden for {fmt}; run with SGLANG_LINT_UPDATE_GOLDEN=1"
    assert out == golden.read_bytes().decode("utf-8"), (
        f"{fmt} output changed (SARIF embeds every rule's doc); if intended, regenerate: "
        "SGLANG_LINT_UPDATE_GOLDEN=1 python -m pytest tests/test_formats_golden.py"
    )


MESSAGES_FIXTURE = "tests/golden/messages"


@pytest.mark.parametrize("fmt", ["full", "concise"])
def test_golden_messages(fmt: str, capsys, monkeypatch) -> None:
    """Issue 23 part 4: a pair finding (SGL001) with its secondary span, help and
    notes in ``full``; one line a finding in ``concise``; the summary counting
    errors and warnings apart."""
    out = check_output(capsys, monkeypatch, fmt, MESSAGES_FIXTURE)
    golden = GOLDEN / f"messages-{fmt}.txt"
    if UPDATE:
        golden.write_bytes(out.encode("utf-8"))
    assert out == golden.read_bytes().decode("utf-8"), (
        "regenerate if intended: SGLANG_LINT_UPDATE_GOLDEN=1 python -m pytest tests/test_formats_golden.py"
    )
    assert out.endswith("Found 1 error and 2 warnings.\n")
    if fmt == "concise":
        assert len(out.splitlines()) == 4  # three findings, one line each, and the summary
    else:
        assert "   = help: give the decode attention TP 8" in out
        assert "   = note: decode attention TP 1 = --tp-size 8 / --dp-size 8 with --enable-dp-attention" in out


def test_every_format_has_a_golden() -> None:
    # (tests/golden is shared with other goldens, e.g. topology's.)
    assert set(FORMATS) <= {p.name[: -len(".txt")] for p in GOLDEN.glob("*.txt")}


# -- columns ------------------------------------------------------------------------


def test_column_units_follow_reviewdogs_example() -> None:
    # reviewdog.proto Position.column: in 'a𐐀b' the column of b is 6 (UTF-8 bytes).
    sources = {"f": ["a𐐀b\n"]}
    assert [utf8_column(sources, "f", 1, c) for c in (1, 2, 3, 4)] == [1, 2, 6, 7]
    assert [utf16_column(sources, "f", 1, c) for c in (1, 2, 3, 4)] == [1, 2, 4, 5]
    # Unknown line or past the end: one unit per missing character.
    assert utf8_column(sources, "g", 1, 5) == 5
    assert utf8_column(sources, "f", 1, 6) == 9


def test_converted_columns_select_the_same_text(capsys, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    result = lint_paths([FIXTURE])
    by_code = {f.code: f for f in result.findings}
    finding = by_code["SGL003"]
    loc = finding.location
    expected = result.sources[loc.path][loc.line - 1][loc.column - 1 : loc.end_column - 1]
    assert expected == "--page-size 32"

    rdjson = json.loads(check_output(capsys, monkeypatch, "rdjson"))
    diag = next(d for d in rdjson["diagnostics"] if d["code"]["value"] == "SGL003")
    rng = diag["location"]["range"]
    text = result.sources[loc.path][rng["start"]["line"] - 1].encode("utf-8")
    assert text[rng["start"]["column"] - 1 : rng["end"]["column"] - 1].decode("utf-8") == expected
    related = diag["related_locations"][0]["location"]["range"]
    text = result.sources[loc.path][related["start"]["line"] - 1].encode("utf-8")
    assert text[related["start"]["column"] - 1 : related["end"]["column"] - 1].decode("utf-8") == "--page-size 64"

    sarif = json.loads(check_output(capsys, monkeypatch, "sarif"))
    res = next(r for r in sarif["runs"][0]["results"] if r["ruleId"] == "SGL003")
    region = res["locations"][0]["physicalLocation"]["region"]
    text = result.sources[loc.path][region["startLine"] - 1].encode("utf-16-le")
    assert text[2 * (region["startColumn"] - 1) : 2 * (region["endColumn"] - 1)].decode("utf-16-le") == expected
    assert region["startColumn"] != loc.column  # the fixture really exercises the conversion


# -- SARIF --------------------------------------------------------------------------

MULTITOOL_PACKAGE = "@microsoft/sarif-multitool@5.7.0"


def _multitool() -> Path:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: cannot fetch Microsoft's SARIF validator (@microsoft/sarif-multitool)")
    cache = Path(tempfile.gettempdir()) / "sglang-lint-sarif-multitool"
    binary = cache / "node_modules" / "@microsoft" / "sarif-multitool-linux" / "Sarif.Multitool"
    if not binary.exists():
        cache.mkdir(parents=True, exist_ok=True)
        try:
            done = subprocess.run(
                [npm, "install", "--prefix", str(cache), "--no-audit", "--no-fund", MULTITOOL_PACKAGE],
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.skip(f"npm install {MULTITOOL_PACKAGE} timed out (offline?)")
        if done.returncode != 0:
            pytest.skip(f"npm install {MULTITOOL_PACKAGE} failed (offline?): {done.stderr.strip()[-300:]}")
        if not binary.exists():
            pytest.skip(f"{MULTITOOL_PACKAGE} ships no Linux binary for this platform ({binary} missing)")
    # npm may refuse the package's postinstall script (its `chmod u+x`).
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    return binary


def test_sarif_passes_microsofts_validator(tmp_path, capsys, monkeypatch) -> None:
    log = tmp_path / "out.sarif"
    log.write_text(check_output(capsys, monkeypatch, "sarif"), encoding="utf-8")
    binary = _multitool()
    report = tmp_path / "validation.sarif"
    done = subprocess.run(
        [str(binary), "validate", str(log), "-o", str(report), "--log", "ForceOverwrite"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert report.exists(), f"validator wrote no report: {done.stdout}\n{done.stderr}"
    results = json.loads(report.read_text(encoding="utf-8"))["runs"][0].get("results", [])
    errors = [r for r in results if r.get("level", "warning") == "error"]
    assert errors == [], json.dumps(errors, indent=2)


def test_sarif_structure(capsys, monkeypatch) -> None:
    log = json.loads(check_output(capsys, monkeypatch, "sarif"))
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    assert run["columnKind"] == "utf16CodeUnits"
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.code for r in ALL_RULES] + ["SGL900"]
    assert rules[-1]["name"] == "unreadable-input"
    for rule in rules:
        assert rule["help"]["text"] and rule["help"]["markdown"] and rule["helpUri"].startswith("https://")
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert artifact["uriBaseId"] == "%SRCROOT%" and artifact["uri"].startswith("tests/golden/fixture/")
    assert {r["level"] for r in run["results"]} == {"error", "warning"}


def _fingerprints(tmp_path: Path, monkeypatch, text: str) -> list[str]:
    folder = tmp_path / "repo"
    folder.mkdir(exist_ok=True)
    (folder / "launch_pd.sh").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["repo"])
    log = json.loads(render(result.findings, "sarif", sources=result.sources))
    return [r["partialFingerprints"][FINGERPRINT_KEY] for r in log["runs"][0]["results"]]


def test_sarif_fingerprints_survive_lines_added_above(tmp_path, monkeypatch) -> None:
    text = (ROOT / FIXTURE / "launch_pd.sh").read_text(encoding="utf-8")
    before = _fingerprints(tmp_path, monkeypatch, text)
    head, rest = text.split("\n", 1)
    after = _fingerprints(tmp_path, monkeypatch, head + "\n# an unrelated comment\nexport A=1\n\n" + rest)
    assert before and before == after
    changed = _fingerprints(tmp_path, monkeypatch, text.replace("--page-size 32", "--page-size 16"))
    assert changed != before


def test_sarif_fingerprints_of_identical_results_differ() -> None:
    finding = Finding("SGL202", "unknown-option", "unknown option", Location("a.sh", 1, 1, 1, 3))
    log = json.loads(render([finding, finding], "sarif", sources={"a.sh": ["x y\n"]}))
    prints = [r["partialFingerprints"][FINGERPRINT_KEY] for r in log["runs"][0]["results"]]
    assert prints[0] != prints[1] and prints[0].endswith(":1") and prints[1].endswith(":2")


# -- rdjson: reviewdog's documented shape -------------------------------------------

_RESULT_KEYS = {"diagnostics", "source", "severity"}
_DIAGNOSTIC_KEYS = {"message", "location", "severity", "source", "code", "suggestions", "original_output", "related_locations", "images"}
_SEVERITIES = {"UNKNOWN_SEVERITY", "ERROR", "WARNING", "INFO"}


def _check_position(position: object) -> None:
    assert isinstance(position, dict) and set(position) <= {"line", "column"}
    for value in position.values():
        assert type(value) is int and value >= 1


def _check_location(location: object) -> None:
    assert isinstance(location, dict) and set(location) <= {"path", "range"}
    assert isinstance(location["path"], str) and location["path"]
    rng = location["range"]
    assert isinstance(rng, dict) and set(rng) <= {"start", "end"} and "start" in rng
    _check_position(rng["start"])
    if "end" in rng:
        _check_position(rng["end"])
        assert (rng["end"]["line"], rng["end"]["column"]) >= (rng["start"]["line"], rng["start"]["column"])


def test_rdjson_matches_reviewdogs_shape(capsys, monkeypatch) -> None:
    document = json.loads(check_output(capsys, monkeypatch, "rdjson"))
    assert set(document) <= _RESULT_KEYS
    assert document["source"] == {"name": "sglang-lint", "url": "https://github.com/sglang-lint/sglang-lint"}
    assert document["diagnostics"]
    for diagnostic in document["diagnostics"]:
        assert set(diagnostic) <= _DIAGNOSTIC_KEYS
        assert isinstance(diagnostic["message"], str) and diagnostic["message"]
        assert diagnostic["severity"] in _SEVERITIES
        _check_location(diagnostic["location"])
        code = diagnostic["code"]
        assert set(code) <= {"value", "url"} and isinstance(code["value"], str) and isinstance(code.get("url", ""), str)
        for related in diagnostic.get("related_locations", []):
            assert set(related) <= {"message", "location"} and isinstance(related["message"], str)
            _check_location(related["location"])


# -- github and the line formats ----------------------------------------------------


def test_github_escaping() -> None:
    assert escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    finding = Finding(
        "SGL001",
        "unified-memory-attn-tp-mismatch",
        "line one\nline two, 50%",
        Location("dir,x/a:b.sh", 3, 2, 3, 5),
        severity=Severity.INFO,
        related=(Related(Location("dir,x/a:b.sh", 1, 1), "other"),),
    )
    assert render([finding], "github") == (
        "::notice file=dir%2Cx/a%3Ab.sh,line=3,col=2,endLine=3,endColumn=5,"
        "title=SGL001 unified-memory-attn-tp-mismatch::line one%0Aline two, 50%25\n"
    )


def test_line_formats_keep_one_finding_per_line() -> None:
    finding = Finding("SGL202", "unknown-option", "bad\nvalue \x1b[31m", Location("a.sh", 2, 1))
    assert render([finding], "pylint") == "a.sh:2: [SGL202(unknown-option), ] bad\u240avalue \u241b[31m\n"
    lines = render([finding, finding], "json-lines").splitlines()
    assert len(lines) == 2 and json.loads(lines[0])["message"] == "bad\nvalue \x1b[31m"
    assert json.loads(lines[0]) == json.loads(render([finding], "json"))[0]
    assert render([], "json-lines") == "" and render([], "pylint") == "" and render([], "github") == ""
