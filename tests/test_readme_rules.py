"""The README's rule table is generated from the rule modules: this fails when they
drift (fix with `python -m sglang_lint.rules.table --write`)."""

from __future__ import annotations

from pathlib import Path

from sglang_lint.rules import ALL_RULES
from sglang_lint.rules.table import readme_with_table, rule_table

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_rule_table_is_current() -> None:
    text = README.read_text(encoding="utf-8")
    assert readme_with_table(text) == text, "README rule table is stale: run `python -m sglang_lint.rules.table --write`"


def test_table_lists_every_rule_once() -> None:
    table = rule_table()
    for rule in ALL_RULES:
        assert table.count(f"| {rule.code} |") == 1
