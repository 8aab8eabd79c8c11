"""The README's rule table is generated from the rule modules: this fails when they
drift (fix with `python -m sglang_lint.rules.table --write`)."""

from __future__ import annotations

from pathlib import Path

from sglang_lint.rules import ALL_RULES
from sglang_lint.rules.base import DOCS_URL
from sglang_lint.rules.table import readme_with_table, rule_table, rules_page

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_rule_table_is_current() -> None:
    text = README.read_text(encoding="utf-8")
    assert readme_with_table(text) == text, "README rule table is stale: run `python -m sglang_lint.rules.table --write`"


def test_table_lists_every_rule_once() -> None:
    table = rule_table()
    for rule in ALL_RULES:
        assert table.count(f"| {rule.code} |") == 1


def test_rules_page_is_current_and_has_every_anchor() -> None:
    """Every finding's url (DOCS_URL) points into docs/rules.md."""
    page = (README.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    assert page == rules_page(), "docs/rules.md is stale: run `python -m sglang_lint.rules.table --write`"
    assert DOCS_URL.endswith("docs/rules.md#{code}")
    for code in [rule.code for rule in ALL_RULES] + ["SGL900"]:
        assert f'<a id="{code.lower()}"></a>' in page
