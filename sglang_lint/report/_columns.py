"""Column units at output.

Findings carry 1-based code-point columns (model.Location). Machine formats want
other units: SARIF counts UTF-16 code units, reviewdog's rdjson UTF-8 bytes. The
conversion needs the text of the line; ``sources`` maps a path to its lines.
When the line is unknown (an unreadable file) or the column lies past its end,
the missing characters count as one unit each, so the result is never smaller
than the code-point column.
"""

from __future__ import annotations

from typing import Mapping

_ENDINGS = ("\r\n", "\n", "\r")


def line_text(sources: Mapping[str, list[str]], path: str, line: int) -> str | None:
    """The text of 1-based ``line`` of ``path`` without its line ending, or None."""
    lines = sources.get(path)
    if lines is None or not 1 <= line <= len(lines):
        return None
    text = lines[line - 1]
    for ending in _ENDINGS:
        if text.endswith(ending):
            return text[: -len(ending)]
    return text


def _units(text: str, encoding: str, width: int) -> int:
    return len(text.encode(encoding, errors="surrogatepass")) // width


def _convert(sources: Mapping[str, list[str]], path: str, line: int, column: int, encoding: str, width: int) -> int:
    if column < 1:
        return column
    text = line_text(sources, path, line)
    if text is None:
        return column
    before = text[: column - 1]
    past_end = max(column - 1 - len(text), 0)
    return 1 + _units(before, encoding, width) + past_end


def utf16_column(sources: Mapping[str, list[str]], path: str, line: int, column: int) -> int:
    """1-based UTF-16 code-unit column of code-point ``column`` (SARIF's default)."""
    return _convert(sources, path, line, column, "utf-16-le", 2)


def utf8_column(sources: Mapping[str, list[str]], path: str, line: int, column: int) -> int:
    """1-based UTF-8 byte column of code-point ``column`` (reviewdog's rdjson)."""
    return _convert(sources, path, line, column, "utf-8", 1)
