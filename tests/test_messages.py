"""The shape of every message (issue 23, part 4): the first line says what is
wrong in under 120 characters, on one line; the why goes to ``notes`` and what
to do to ``help``."""

from __future__ import annotations

from pathlib import Path

import pytest

from sglang_lint.pipeline import LintOptions, lint_paths, lint_texts
from sglang_lint.rules import ALL_RULES

MAX_FIRST_LINE = 120

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FIXTURE_CASES = sorted(p for p in FIXTURES.iterdir() if (p / "EXPECTED").is_file())
# The goldens' fixtures (tests/golden/fixture, tests/golden/messages) too.
FIXTURE_CASES += sorted(p for p in (Path(__file__).resolve().parent / "golden").iterdir() if p.is_dir())

EXAMPLE_CASES = [
    pytest.param(rule, example, id=f"{rule.code}-{kind}-{index}")
    for rule in ALL_RULES
    for kind, examples in (("valid", rule.valid), ("invalid", rule.invalid))
    for index, example in enumerate(examples)
]


def _check_shape(findings) -> None:
    problems = []
    for finding in findings:
        where = f"{finding.location}: {finding.code}"
        if "\n" in finding.message or "\r" in finding.message:
            problems.append(f"{where}: message has a line break: {finding.message!r}")
        # A finding that holds on some launch variants only starts with its path
        # condition ("when $DPA is non-empty (line 4), ..."; issue 16), which is as
        # long as the decisions are: the rule's own message is what must be short.
        own = finding.message
        if finding.path and own.startswith("when "):
            own = own.split("), ", 1)[-1]
        elif own.startswith("when the ") and " is the one of " in own:
            # (one of several launches at a router's URL, as long as its URL and
            # place are: variant_findings.fold_alternatives)
            own = own.split(" is the one of ", 1)[1].split(", ", 1)[-1]
        if len(own) >= MAX_FIRST_LINE:
            problems.append(f"{where}: message is {len(own)} characters: {finding.message}")
        if not finding.message.strip():
            problems.append(f"{where}: empty message")
        if "\n" in finding.help:
            problems.append(f"{where}: help has a line break: {finding.help!r}")
        for note in finding.notes:
            if "\n" in note or not note.strip():
                problems.append(f"{where}: bad note {note!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("rule, example", EXAMPLE_CASES)
def test_rule_example_messages_are_short(rule, example) -> None:
    result = lint_texts(
        example.files,
        LintOptions(target_version=example.target_version, select=frozenset({rule.code, *example.also_select}), strict=True),
    )
    _check_shape(result.findings)


@pytest.mark.parametrize("case", FIXTURE_CASES, ids=[c.name for c in FIXTURE_CASES])
def test_fixture_messages_are_short(case: Path) -> None:
    result = lint_paths([str(case)], LintOptions(strict=True))
    _check_shape(result.findings)


def test_every_rule_finding_says_what_to_do() -> None:
    """Each rule's invalid examples give findings with a help line."""
    missing = []
    for rule in ALL_RULES:
        for example in rule.invalid:
            result = lint_texts(
                example.files,
                LintOptions(target_version=example.target_version, select=frozenset({rule.code, *example.also_select})),
            )
            missing += [f"{rule.code}: {f.message}" for f in result.findings if f.code == rule.code and not f.help]
    assert not missing, "\n".join(missing)


def _sgl_location(code: str, decode_args: str, prefill_args: str = "--tp-size 8") -> tuple[int, str]:
    text = (
        f"python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory {prefill_args} --port 30000 &\n"
        f"python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory {decode_args} --port 30001 &\n"
    )
    result = lint_texts({"run.sh": text}, LintOptions(select=frozenset({code})))
    (finding,) = [f for f in result.findings if f.code == code]
    line = text.splitlines()[finding.location.line - 1]
    return finding.location.line, line[finding.location.column - 1 : finding.location.end_column - 1]


@pytest.mark.parametrize(
    "decode_args, prefill_args, underlined",
    [
        # tp equal on both sides: the attention-DP factor makes them differ (issue 23 part 4).
        ("--tp-size 8 --dp-size 8 --enable-dp-attention", "--tp-size 8", "--dp-size 8"),
        ("--tp-size 8 --attn-dp-size 4", "--tp-size 8", "--attn-dp-size 4"),
        # attention CP is the differing factor.
        ("--tp-size 8 --attn-cp-size 2", "--tp-size 8", "--attn-cp-size 2"),
        # the tp differs: the decode's tp.
        ("--dp-size 2 --enable-dp-attention --tp-size 4", "--tp-size 8 --dp-size 2 --enable-dp-attention", "--tp-size 4"),
    ],
)
def test_sgl001_points_at_the_decode_factor_that_differs(decode_args, prefill_args, underlined) -> None:
    line, text = _sgl_location("SGL001", decode_args, prefill_args)
    assert (line, text) == (2, underlined)


def test_sgl001_falls_back_to_the_first_written_input() -> None:
    # The decode leaves its tp at the default 1: nothing written differs, so the
    # first written attention-TP input (there is none here: the launch) is used.
    line, text = _sgl_location("SGL001", "", "--tp-size 2")
    assert line == 2 and text.startswith("python")


def test_sgl009_points_at_the_decode_factor_that_differs() -> None:
    line, text = _sgl_location("SGL009", "--tp-size 12 --dp-size 4 --enable-dp-attention", "--tp-size 12 --dp-size 3 --enable-dp-attention")
    assert (line, text) == (2, "--dp-size 4")
