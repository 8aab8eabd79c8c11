"""Text helpers shared by the formats: safe display of untrusted text, terminal
cell widths, sorting and the summary line."""

from __future__ import annotations

import unicodedata
from typing import Iterable

from ..model import Finding, Severity

TAB = "    "

# Bidirectional controls (Trojan Source) and other invisible format characters are
# shown, never obeyed.
_SHOWN_AS_ESCAPE = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0xFEFF}


def display_char(char: str) -> str:
    """How one code point of a source line or message is shown in a terminal.

    Text from the analyzed files is untrusted: control characters (an ESC could
    rewrite the terminal or a CI log) become visible control pictures or escapes.
    """
    point = ord(char)
    if char == "\t":
        return TAB
    if point < 0x20:
        return chr(0x2400 + point)  # ␀ .. ␟
    if point == 0x7F:
        return "\u2421"  # ␡
    if 0x80 <= point < 0xA0 or point in _SHOWN_AS_ESCAPE or unicodedata.category(char) in ("Cs", "Co", "Cn"):
        return f"<U+{point:04X}>"
    return char


def sanitize(text: str) -> str:
    """``text`` with every character passed through :func:`display_char`."""
    if text.isprintable() and "\t" not in text:
        return text
    return "".join(display_char(c) for c in text)


def cell_width(text: str) -> int:
    """Terminal cells taken by already-sanitized ``text``: East Asian wide and
    full-width characters take two, combining marks and zero-width joiners none."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or char in "\u200b\u200c\u200d":
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def sorted_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Findings in report order: path, line, column, code (then message, so that
    the order never depends on how rules happened to run)."""
    return sorted(findings, key=Finding.sort_key)


_SEVERITY_WORDS = (
    (Severity.ERROR, "error", "errors"),
    (Severity.WARNING, "warning", "warnings"),
    (Severity.INFO, "info finding", "info findings"),
)


def summary(findings: Iterable[Finding]) -> str:
    """ruff's summary line, counted by severity: "Found 1 error and 2 warnings.",
    "Found 3 errors.", "Found 1 error, 1 warning and 1 info finding."."""
    counts = {severity: 0 for severity, _, _ in _SEVERITY_WORDS}
    for finding in findings:
        counts[finding.severity] = counts.get(finding.severity, 0) + 1
    parts = [
        f"{counts[severity]} {one if counts[severity] == 1 else many}"
        for severity, one, many in _SEVERITY_WORDS
        if counts[severity]
    ]
    if not parts:
        return "All checks passed!"
    if len(parts) == 1:
        return f"Found {parts[0]}."
    return f"Found {', '.join(parts[:-1])} and {parts[-1]}."


def result_text(finding: Finding, *, one_line: bool = False) -> str:
    """The text of a format with a single text field (SARIF, GitHub, rdjson,
    pylint): the message, then ``help: ...`` on its own line, or after ``; ``
    when the format needs one line (pylint)."""
    if not finding.help:
        return finding.message
    return f"{finding.message}{'; ' if one_line else chr(10)}help: {finding.help}"
