"""Output formats (sglang_lint.report)."""

from __future__ import annotations

import json

import pytest

from sglang_lint.model import Finding, Location, Related, Severity
from sglang_lint.report import FORMATS, render

SOURCES = {
    "run.sh": [
        "#!/bin/bash\n",
        "python -m sglang.launch_server --tp-size 8 --enable-unified-memory \\\n",
        "  --disaggregation-mode prefill &\n",
        "python -m sglang.launch_server --tp-size 1 --enable-unified-memory \\\n",
        "  --disaggregation-mode decode &\n",
    ],
    "日本/サーバ.sh": [
        "# 起動\r\n",
        "echo 日本 --tp-szie 8\r\n",
    ],
}

TP_MISMATCH = Finding(
    code="SGL001",
    name="unified-memory-attn-tp-mismatch",
    message="attention TP 8 (prefill, run.sh:2: --tp-size 8) vs 1 (decode, run.sh:4: --tp-size 1)",
    location=Location("run.sh", 4, 42, 4, 43),
    related=(Related(Location("run.sh", 2, 42, 2, 43), "prefill side"),),
    url="https://example.invalid/rules/SGL001",
)
TYPO = Finding(
    code="SGL202",
    name="unknown-option",
    message="unknown option --tp-szie (did you mean --tp-size?) in «サーバ»",
    location=Location("日本/サーバ.sh", 2, 9, 2, 18),
    severity=Severity.WARNING,
)
EARLY = Finding(
    code="SGL205",
    name="comment-ends-continuation",
    message="a comment ends the continuation",
    location=Location("run.sh", 2, 1),
)


def test_formats_registered() -> None:
    assert set(FORMATS) == {"full", "concise", "json", "json-lines", "sarif", "github", "rdjson", "pylint"}
    with pytest.raises(ValueError, match="unknown output format 'xml'"):
        render([], "xml")


# -- concise --------------------------------------------------------------------------


def test_concise() -> None:
    out = render([TYPO, TP_MISMATCH, EARLY], "concise", sources=SOURCES)
    assert out == (
        "run.sh:2:1: SGL205 a comment ends the continuation\n"
        f"run.sh:4:42: SGL001 {TP_MISMATCH.message}\n"
        f"日本/サーバ.sh:2:9: SGL202 {TYPO.message}\n"
        "Found 2 errors and 1 warning.\n"
    )


def test_concise_empty_and_singular() -> None:
    assert render([], "concise") == "All checks passed!\n"
    assert render([EARLY], "concise").endswith("\nFound 1 error.\n")


def test_untrusted_text_cannot_reach_the_terminal() -> None:
    evil = Finding("SGL202", "unknown-option", "unknown option --x\x1b[2J\nfake:1:1: SGL001 y\u202e", Location("a.sh", 1, 1))
    for fmt in ("concise", "full"):
        out = render([evil], fmt, sources={"a.sh": ["--x\x1b[2J\n"]})
        assert "\x1b" not in out and "\u202e" not in out
        assert not any(line.startswith("fake:") for line in out.splitlines())


# -- summary, help and notes (issue 23 part 4) ----------------------------------------

EXPLAINED = Finding(
    code="SGL001",
    name="unified-memory-attn-tp-mismatch",
    message="attention TP differs across the pair: prefill 8, decode 1 (unified memory needs them equal)",
    location=Location("run.sh", 4, 42, 4, 43),
    related=(Related(Location("run.sh", 2, 42, 2, 43), "prefill attention TP 8"),),
    url="https://example.invalid/rules/SGL001",
    help="give the decode attention TP 8, or drop --enable-unified-memory on both sides",
    notes=(
        "prefill attention TP 8 = --tp-size 8 (run.sh:2)",
        "decode attention TP 1 = --tp-size 8 / --dp-size 8 with --enable-dp-attention (run.sh:4)",
    ),
)


def _with_severity(finding: Finding, severity: Severity) -> Finding:
    from msgspec.structs import replace

    return replace(finding, severity=severity)


@pytest.mark.parametrize(
    "severities, expected",
    [
        ((), "All checks passed!"),
        ((Severity.ERROR,), "Found 1 error."),
        ((Severity.ERROR,) * 3, "Found 3 errors."),
        ((Severity.WARNING,), "Found 1 warning."),
        ((Severity.ERROR, Severity.WARNING, Severity.WARNING), "Found 1 error and 2 warnings."),
        ((Severity.WARNING, Severity.INFO), "Found 1 warning and 1 info finding."),
        ((Severity.INFO, Severity.INFO), "Found 2 info findings."),
        ((Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.ERROR), "Found 2 errors, 1 warning and 1 info finding."),
    ],
)
def test_summary_counts_by_severity(severities, expected) -> None:
    findings = [_with_severity(EARLY, severity) for severity in severities]
    for fmt in ("full", "concise"):
        assert render(findings, fmt).splitlines()[-1] == expected


def test_full_prints_help_and_notes_after_the_snippets() -> None:
    lines = render([EXPLAINED], "full", sources=SOURCES).splitlines()
    assert lines[0] == f"run.sh:4:42: SGL001 [unified-memory-attn-tp-mismatch] {EXPLAINED.message}"
    # the other side stays a labelled secondary span
    assert lines[5] == "  = prefill attention TP 8: run.sh:2:42"
    assert lines[8] == "  |                                          ^ prefill attention TP 8"
    assert lines[10:14] == [
        "  = help: give the decode attention TP 8, or drop --enable-unified-memory on both sides",
        "  = note: prefill attention TP 8 = --tp-size 8 (run.sh:2)",
        "  = note: decode attention TP 1 = --tp-size 8 / --dp-size 8 with --enable-dp-attention (run.sh:4)",
        "  = docs: https://example.invalid/rules/SGL001",
    ]


def test_concise_keeps_one_line_a_finding() -> None:
    out = render([EXPLAINED, TYPO], "concise", sources=SOURCES)
    assert out.splitlines() == [
        f"run.sh:4:42: SGL001 {EXPLAINED.message}",
        f"日本/サーバ.sh:2:9: SGL202 {TYPO.message}",
        "Found 1 error and 1 warning.",
    ]


def test_json_carries_help_and_notes() -> None:
    (entry,) = json.loads(render([EXPLAINED], "json", sources=SOURCES))
    assert entry["message"] == EXPLAINED.message
    assert entry["help"] == EXPLAINED.help
    assert entry["notes"] == list(EXPLAINED.notes)
    (line,) = render([TYPO], "json-lines").splitlines()
    assert json.loads(line)["help"] is None and json.loads(line)["notes"] == []


def test_single_text_formats_show_the_message_then_the_help() -> None:
    expected = f"{EXPLAINED.message}\nhelp: {EXPLAINED.help}"
    sarif = json.loads(render([EXPLAINED], "sarif", sources=SOURCES))
    message = sarif["runs"][0]["results"][0]["message"]
    assert message["text"] == expected
    assert "- note: decode attention TP 1" in message["markdown"]
    rdjson = json.loads(render([EXPLAINED], "rdjson", sources=SOURCES))
    assert rdjson["diagnostics"][0]["message"] == expected
    github = render([EXPLAINED], "github")
    assert github.endswith(f"::{EXPLAINED.message}%0Ahelp: {EXPLAINED.help}\n")
    pylint = render([EXPLAINED], "pylint")
    assert pylint == f"run.sh:4: [SGL001(unified-memory-attn-tp-mismatch), ] {EXPLAINED.message}; help: {EXPLAINED.help}\n"
    # No help: the message alone.
    assert render([TP_MISMATCH], "pylint").endswith(f"] {TP_MISMATCH.message}\n")


# -- full -----------------------------------------------------------------------------


def test_full_snippet_shape() -> None:
    out = render([TP_MISMATCH], "full", sources=SOURCES)
    assert out == (
        f"run.sh:4:42: SGL001 [unified-memory-attn-tp-mismatch] {TP_MISMATCH.message}\n"
        "  |\n"
        "4 | python -m sglang.launch_server --tp-size 1 --enable-unified-memory \\\n"
        "  |                                          ^ SGL001\n"
        "  |\n"
        "  = prefill side: run.sh:2:42\n"
        "  |\n"
        "2 | python -m sglang.launch_server --tp-size 8 --enable-unified-memory \\\n"
        "  |                                          ^ prefill side\n"
        "  |\n"
        "  = docs: https://example.invalid/rules/SGL001\n"
        "\n"
        "Found 1 error.\n"
    )
    # The carets sit under the value in the source line.
    lines = out.splitlines()
    assert lines[2][lines[3].index("^")] == "1"
    assert lines[7][lines[8].index("^")] == "8"


def test_full_non_ascii_underline_counts_cells_and_drops_crlf() -> None:
    out = render([TYPO], "full", sources=SOURCES)
    lines = out.splitlines()
    assert lines[0] == f"日本/サーバ.sh:2:9: SGL202 [unknown-option] {TYPO.message}"
    assert lines[2] == "2 | echo 日本 --tp-szie 8"
    # "echo 日本 " is 8 code points but 10 terminal cells; the span is 9 cells.
    assert lines[3] == "  | " + " " * 10 + "^" * 9 + " SGL202"
    assert "\r" not in out


def test_full_tabs_and_zero_width_spans() -> None:
    finding = Finding("SGL203", "invalid-option-value", "bad", Location("t.sh", 1, 3))
    lines = render([finding], "full", sources={"t.sh": ["\t\t--tp-size x\n"]}).splitlines()
    assert lines[2] == "1 |         --tp-size x"
    assert lines[3] == "  |         ^ SGL203"


def test_full_multiline_span_underlines_to_end_of_first_line() -> None:
    finding = Finding("SGL205", "comment-ends-continuation", "m", Location("run.sh", 3, 3, 5, 1))
    lines = render([finding], "full", sources=SOURCES).splitlines()
    assert lines[2] == "3 |   --disaggregation-mode prefill &"
    assert lines[3] == "  |   " + "^" * len("--disaggregation-mode prefill &") + " SGL205"


def test_full_without_sources_shows_locations_only() -> None:
    out = render([TP_MISMATCH], "full")
    assert out.splitlines() == [
        f"run.sh:4:42: SGL001 [unified-memory-attn-tp-mismatch] {TP_MISMATCH.message}",
        "  = prefill side: run.sh:2:42",
        "  = docs: https://example.invalid/rules/SGL001",
        "",
        "Found 1 error.",
    ]


def test_full_gutter_width_follows_the_largest_line_number() -> None:
    lines = [f"line {i}\n" for i in range(1, 121)]
    finding = Finding(
        "SGL003",
        "pd-page-size-mismatch",
        "m",
        Location("big.sh", 120, 1, 120, 5),
        related=(Related(Location("big.sh", 7, 1, 7, 5), "prefill side"),),
    )
    out = render([finding], "full", sources={"big.sh": lines}).splitlines()
    assert "120 | line 120" in out
    assert "  7 | line 7" in out
    assert "    | ^^^^ prefill side" in out


def test_full_empty() -> None:
    assert render([], "full") == "All checks passed!\n"
    assert render([]) == "All checks passed!\n"


def test_color_off_by_default_and_on_when_asked() -> None:
    for fmt in ("full", "concise"):
        assert "\x1b[" not in render([TP_MISMATCH, TYPO], fmt, sources=SOURCES)
    colored = render([TP_MISMATCH], "full", sources=SOURCES, color=True)
    assert "\x1b[1;31mSGL001\x1b[0m" in colored
    assert "\x1b[" in render([TYPO], "concise", color=True)
    assert "\x1b[" not in render([TP_MISMATCH], "json", color=True)


# -- json -----------------------------------------------------------------------------


def test_json_round_trips_with_ruff_keys() -> None:
    out = render([TYPO, TP_MISMATCH], "json", sources=SOURCES)
    data = json.loads(out)
    assert [d["code"] for d in data] == ["SGL001", "SGL202"]  # sorted by path
    first = data[0]
    assert set(first) >= {
        "code",
        "name",
        "message",
        "filename",
        "location",
        "end_location",
        "severity",
        "url",
        "fix",
        "noqa_row",
        "related",
    }
    assert first["filename"] == "run.sh"
    assert first["location"] == {"row": 4, "column": 42}
    assert first["end_location"] == {"row": 4, "column": 43}
    assert first["severity"] == "error"
    assert first["fix"] is None
    assert first["noqa_row"] == 4
    assert first["url"] == "https://example.invalid/rules/SGL001"
    assert first["related"] == [
        {
            "filename": "run.sh",
            "location": {"row": 2, "column": 42},
            "end_location": {"row": 2, "column": 43},
            "message": "prefill side",
        }
    ]
    second = data[1]
    assert second["filename"] == "日本/サーバ.sh"
    assert second["message"] == TYPO.message
    assert second["severity"] == "warning"
    assert second["url"] is None
    assert second["related"] == []
    # Non-ASCII is written as is, indented by two, and the output is deterministic.
    assert "サーバ" in out and '\n  {\n    "code"' in out
    assert out == render([TP_MISMATCH, TYPO], "json", sources=SOURCES)


def test_json_empty() -> None:
    assert render([], "json") == "[]\n"
    assert json.loads(render([], "json")) == []


def test_sort_order_is_path_line_column_code() -> None:
    a = Finding("SGL004", "n", "m", Location("b.sh", 1, 1))
    b = Finding("SGL003", "n", "m", Location("b.sh", 1, 1))
    c = Finding("SGL001", "n", "m", Location("b.sh", 1, 2))
    d = Finding("SGL009", "n", "m", Location("a.sh", 9, 9))
    e = Finding("SGL001", "n", "m", Location("b.sh", 10, 1))
    out = render([e, c, a, b, d], "concise").splitlines()
    assert out[:-1] == [
        "a.sh:9:9: SGL009 m",
        "b.sh:1:1: SGL003 m",
        "b.sh:1:1: SGL004 m",
        "b.sh:1:2: SGL001 m",
        "b.sh:10:1: SGL001 m",
    ]


# -- quick fixes in the machine formats ------------------------------------------------


def _finding_with_fix(line: str) -> tuple[Finding, dict[str, list[str]]]:
    from sglang_lint.model import Fix

    column = line.index("--pp ") + 1
    location = Location("run.sh", 1, column, 1, column + 4)
    fixes = (
        Fix("Replace --pp with --pp-max-micro-batch-size", location, "--pp", "--pp-max-micro-batch-size"),
        Fix("Replace --pp with --pp-size", location, "--pp", "--pp-size", preferred=True),
    )
    finding = Finding("SGL201", "ambiguous-abbreviation", "--pp is ambiguous", location, fixes=fixes)
    return finding, {"run.sh": [line]}


def test_json_rdjson_and_sarif_carry_the_preferred_fix_in_their_units() -> None:
    # "é𝔘" before the option: 2 code points, 3 UTF-16 units, 6 UTF-8 bytes.
    line = "python -m sglang.launch_server --served-model-name é𝔘 --pp 2"
    finding, sources = _finding_with_fix(line)
    points = line.index("--pp ") + 1
    (entry,) = json.loads(render([finding], "json", sources=sources))
    assert entry["fix"] == {
        "applicability": "unsafe",
        "message": "Replace --pp with --pp-size",
        "edits": [{"content": "--pp-size", "location": {"row": 1, "column": points}, "end_location": {"row": 1, "column": points + 4}}],
    }
    assert json.loads(render([finding], "json-lines", sources=sources).splitlines()[0])["fix"] == entry["fix"]
    (diagnostic,) = json.loads(render([finding], "rdjson", sources=sources))["diagnostics"]
    utf8 = len(line[: points - 1].encode("utf-8")) + 1
    assert diagnostic["suggestions"] == [{"range": {"start": {"line": 1, "column": utf8}, "end": {"line": 1, "column": utf8 + 4}}, "text": "--pp-size"}]
    (result,) = json.loads(render([finding], "sarif", sources=sources))["runs"][0]["results"]
    utf16 = len(line[: points - 1].encode("utf-16-le")) // 2 + 1
    (fix,) = result["fixes"]
    assert fix["description"]["text"] == "Replace --pp with --pp-size"
    (change,) = fix["artifactChanges"]
    (replacement,) = change["replacements"]
    assert replacement["deletedRegion"] == {"startLine": 1, "startColumn": utf16, "endLine": 1, "endColumn": utf16 + 4}
    assert replacement["insertedContent"] == {"text": "--pp-size"}


def test_github_annotations_carry_the_suggested_line_and_json_the_applicability() -> None:
    from msgspec.structs import replace

    from sglang_lint.model import SAFE

    line = "python -m sglang.launch_server --pp 2  # decode"
    finding, sources = _finding_with_fix(line)
    annotation = render([finding], "github", sources=sources)
    assert annotation.endswith("suggested change (unsafe): line 1 becomes%0Apython -m sglang.launch_server --pp-size 2  # decode\n")
    safe = replace(finding, fixes=tuple(replace(fix, applicability=SAFE) for fix in finding.fixes))
    assert json.loads(render([safe], "json", sources=sources))[0]["fix"]["applicability"] == "safe"
    assert "suggested change (safe)" in render([safe], "github", sources=sources)
    assert "suggested change" not in render([finding], "github", sources={"run.sh": ["the file changed since"]})


def test_a_fix_that_does_not_match_the_text_is_left_out() -> None:
    finding, _ = _finding_with_fix("python -m sglang.launch_server --pp 2")
    sources = {"run.sh": ["the file changed since"]}
    assert json.loads(render([finding], "json", sources=sources))[0]["fix"] is None
    assert "suggestions" not in json.loads(render([finding], "rdjson", sources=sources))["diagnostics"][0]
    assert "fixes" not in json.loads(render([finding], "sarif", sources=sources))["runs"][0]["results"][0]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_summary_false_leaves_out_only_the_summary_line(fmt) -> None:
    # --quiet: the formats that end with a summary line drop it, whatever it says;
    # the others are unchanged.
    from sglang_lint.report import WITH_SUMMARY

    loud = render([TP_MISMATCH, TYPO], fmt, sources=SOURCES)
    quiet = render([TP_MISMATCH, TYPO], fmt, sources=SOURCES, summary=False)
    if fmt in WITH_SUMMARY:
        last = loud.rstrip("\n").rsplit("\n", 1)[-1]
        assert quiet == loud[: loud.rindex(last)] and "SGL202" in quiet
        assert render([], fmt, summary=False) == ""
    else:
        assert quiet == loud


def test_concise_tells_apart_a_finding_repeated_with_several_peers() -> None:
    """One decode against two prefills: two findings with the same location and
    message; each concise line names its other side, so they do not read as one
    finding printed twice."""
    from sglang_lint.pipeline import LintOptions, lint_texts
    from sglang_lint.report import render

    script = (
        "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000 &\n"
        "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30002 &\n"
        "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 4 --port 30001 &\n"
    )
    result = lint_texts({"run.sh": script}, LintOptions(select=frozenset({"SGL001"})))
    lines = render(result.findings, "concise", sources=result.sources).splitlines()
    assert lines[:2] == [
        f"run.sh:3:{lines[0].split(':')[2]}: SGL001 {result.findings[0].message} (with run.sh:{line})" for line in (1, 2)
    ]
    single = lint_texts({"run.sh": script.split("\n", 1)[1]}, LintOptions(select=frozenset({"SGL001"})))
    assert "(with" not in render(single.findings, "concise", sources=single.sources)
