"""Every deployment under fixtures/ gives exactly the findings its EXPECTED file lists.

EXPECTED holds one ``CODE path:line`` per finding (path relative to the fixture
directory), optionally followed by the severity (``error``/``warning``/``info``,
checked when given: a finding that holds on some launch variants only is a
warning, issue 16); ``#`` lines are comments; an EXPECTED with no finding line
means the fixture must be clean.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sglang_lint.pipeline import LintOptions, lint_paths

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CASES = sorted(p for p in FIXTURES.iterdir() if (p / "EXPECTED").is_file())


def _expected(case: Path) -> list[tuple[str, str, int]]:
    rows = []
    for raw in (case / "EXPECTED").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        code, where = line.split()[:2]
        path, _, number = where.rpartition(":")
        rows.append((code, path, int(number)))
    return sorted(rows)


def _expected_severities(case: Path) -> list[tuple[str, str, int, str]]:
    rows = []
    for raw in (case / "EXPECTED").read_text(encoding="utf-8").splitlines():
        fields = raw.split()
        if len(fields) == 3 and not raw.strip().startswith("#"):
            path, _, number = fields[1].rpartition(":")
            rows.append((fields[0], path, int(number), fields[2]))
    return sorted(rows)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fixture_findings(case: Path) -> None:
    # A fixture whose name ends in -strict is linted with --strict (opt-in rules on).
    result = lint_paths([str(case)], LintOptions(strict=case.name.endswith("-strict")))
    actual = sorted(
        (f.code, os.path.relpath(f.location.path, case), f.location.line) for f in result.findings
    )
    assert actual == _expected(case), "\n".join(f"{f.location}: {f.code} {f.message}" for f in result.findings)
    severities = {(f.code, os.path.relpath(f.location.path, case), f.location.line, f.severity.value) for f in result.findings}
    for row in _expected_severities(case):
        assert row in severities, (row, sorted(severities))


def test_every_fixture_has_expectations() -> None:
    missing = [p.name for p in FIXTURES.iterdir() if p.is_dir() and not (p / "EXPECTED").is_file()]
    assert not missing


def test_every_rule_has_a_fixture() -> None:
    """Issue 5: every rule has at least one realistic fixture that produces it."""
    from sglang_lint.rules import ALL_RULES

    expected_codes = {code for case in CASES for code, _, _ in _expected(case)}
    missing = [rule.code for rule in ALL_RULES if rule.code not in expected_codes]
    assert not missing, f"rules without a fixture: {missing}"
