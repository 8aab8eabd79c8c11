"""The names a configuration file may use: rule codes and output formats.

Data only, so that ``config`` checks a `select = [...]` or an `output-format`
without importing the rules or the output formats (it sits below them;
docs/architecture.md). ``tests/test_architecture.py`` holds these to
``rules.ALL_RULES`` and ``report.FORMATS``: a new rule or format is added here too.
"""

from __future__ import annotations

# Every rule's code, and SGL900 (a note about a file the analyzer could not read).
RULE_CODES = frozenset(
    {
        "SGL001", "SGL002", "SGL003", "SGL004", "SGL005", "SGL006", "SGL007", "SGL008", "SGL009", "SGL010",
        "SGL101", "SGL102", "SGL103", "SGL104",
        "SGL201", "SGL202", "SGL203", "SGL204", "SGL205", "SGL206", "SGL207", "SGL208", "SGL209",
        "SGL900", "SGL901", "SGL902",
    }
)  # fmt: skip

# The --output-format / output-format names, in report.FORMATS's order.
OUTPUT_FORMATS = ("full", "concise", "json", "json-lines", "sarif", "github", "rdjson", "pylint")
