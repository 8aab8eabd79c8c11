"""Text helpers shared by the formats: safe display of untrusted text, terminal
cell widths, sorting and the summary line."""

from __future__ import annotations

import unicodedata
from typing import Iterable

from ..model import Finding

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


def summary(count: int) -> str:
    if count == 0:
        return "All checks passed!"
    return f"Found {count} error{'s' if count != 1 else ''}."
