"""A counter of the hypothesis examples run by tests/test_properties.py (issue 8:
"at least 10,000 examples run in CI in total"). Every @given test body there calls
count_example() first; tests/conftest.py reports the count and, when
SGLANG_LINT_MIN_EXAMPLES is set, fails a full run of that file that counted fewer."""

from __future__ import annotations

examples_run = 0


def count_example() -> None:
    global examples_run
    examples_run += 1


def count() -> int:
    return examples_run
