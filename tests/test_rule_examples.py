"""Each rule's own valid/invalid examples (Fixit's habit): the documentation's
examples are tests."""

from __future__ import annotations

import pytest

from sglang_lint.pipeline import LintOptions, lint_texts
from sglang_lint.rules import ALL_RULES

CASES = [
    pytest.param(rule, example, kind, id=f"{rule.code}-{kind}-{index}")
    for rule in ALL_RULES
    for kind, examples in (("valid", rule.valid), ("invalid", rule.invalid))
    for index, example in enumerate(examples)
]


@pytest.mark.parametrize("rule, example, kind", CASES)
def test_rule_example(rule, example, kind) -> None:
    result = lint_texts(example.files, LintOptions(target_version=example.target_version, select=frozenset({rule.code, *example.also_select})))
    findings = [f for f in result.findings if f.code == rule.code]
    expected = example.findings if kind == "invalid" else 0
    assert len(findings) == expected, [f.message for f in findings]
    for finding in findings:
        # The finding's whole text: the message, its help and notes.
        assert example.message_contains in "\n".join(finding.text_lines()), finding.text_lines()


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_rule_has_docs_and_examples(rule) -> None:
    for section in ("## What it does", "## Why is this bad?", "## Example", "## How to fix", "## Versions"):
        assert section in rule.doc, f"{rule.code} lacks {section}"
    assert len(rule.valid) >= 2 and len(rule.invalid) >= 2
    assert rule.name == rule.name.lower() and " " not in rule.name


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_a_rule_says_whether_its_findings_carry_fixes(rule) -> None:
    """`rule --output-format json`'s "fix" (ruff's field) holds on the rule's own
    invalid examples: "always", every finding has a fix; "" (not available),
    none has; "sometimes", at least one example has one (issue 21)."""
    fixed = []
    for example in rule.invalid:
        result = lint_texts(example.files, LintOptions(target_version=example.target_version, select=frozenset({rule.code, *example.also_select})))
        fixed.extend(bool(f.fixes) for f in result.findings if f.code == rule.code)
    assert rule.fix in ("", "sometimes", "always")
    if rule.fix == "always":
        assert fixed and all(fixed)
    elif rule.fix == "sometimes":
        assert any(fixed)
    else:
        assert not any(fixed)
