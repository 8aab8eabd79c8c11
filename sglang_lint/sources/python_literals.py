"""Python string literals read from their source text: the value of a run of
(implicitly concatenated) string literals with the file position of each of its
characters, so that a string built in a launcher keeps exact positions all the way
to a finding. ``ast`` gives a literal's value and its span, not where each
character of the value was written (escapes, continuation lines, f-string fields)."""

from __future__ import annotations


def simple_literal_start(source: str, value: str) -> int | None:
    """Offset of the value in ``source`` when ``source`` is one plain literal of
    ``value``: an optional ``r``/``u`` prefix, one quote character, the value
    without backslashes or that quote, the same quote. None otherwise."""
    start = 0
    while start < len(source) and source[start] in "rRuU":
        start += 1
    if start > 2 or len(source) < start + 2:
        return None
    quote = source[start]
    if quote not in "'\"" or source[-1] != quote:
        return None
    body = source[start + 1 : -1]
    if body != value or quote in body or "\\" in body:
        return None
    return start + 1


_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def scan_string_literals(chars: list[tuple[str, tuple[int, int]]]):
    """The value of a run of (implicitly concatenated) string literals, with the
    position of each character, from their source text. Returns (text, positions,
    has_fields) or None when the source is not such a run (bytes, odd escapes).
    In f-strings the replacement fields are skipped (``has_fields``), ``{{`` and
    ``}}`` read as one brace."""
    text: list[str] = []
    positions: list[tuple[int, int]] = []
    has_fields = False
    index = 0
    length = len(chars)
    while index < length:
        char = chars[index][0]
        if char in " \t\r\n\f(":
            index += 1
            continue
        if char == "\\" and index + 1 < length and chars[index + 1][0] in "\r\n":
            index += 2
            continue
        if char == "#":
            while index < length and chars[index][0] != "\n":
                index += 1
            continue
        prefix_start = index
        while index < length and chars[index][0] in "rRbBuUfF":
            index += 1
        prefix = "".join(c for c, _ in chars[prefix_start:index]).lower()
        if index >= length or chars[index][0] not in "'\"" or "b" in prefix:
            return None
        quote = chars[index][0]
        triple = index + 2 < length and chars[index + 1][0] == quote and chars[index + 2][0] == quote
        delimiter = quote * 3 if triple else quote
        index += len(delimiter)
        raw = "r" in prefix
        fstring = "f" in prefix
        while True:
            if index >= length:
                return None
            char, position = chars[index]
            if chars[index][0] == quote and "".join(c for c, _ in chars[index : index + len(delimiter)]) == delimiter:
                index += len(delimiter)
                break
            if fstring and char in "{}":
                if index + 1 < length and chars[index + 1][0] == char:
                    text.append(char)
                    positions.append(position)
                    index += 2
                    continue
                if char == "}":
                    return None
                has_fields = True
                index = _skip_field(chars, index)
                if index < 0:
                    return None
                continue
            if char == "\\":
                if index + 1 >= length:
                    return None
                following = chars[index + 1][0]
                if raw:
                    text.append("\\")
                    positions.append(position)
                    text.append(following)
                    positions.append(chars[index + 1][1])
                    index += 2
                    continue
                if following == "\n":
                    index += 2
                    continue
                if following in _ESCAPES:
                    text.append(_ESCAPES[following])
                    positions.append(position)
                    index += 2
                    continue
                decoded, used = _numeric_escape(chars, index)
                if decoded is None:
                    # An unknown escape keeps its backslash.
                    text.append("\\")
                    positions.append(position)
                    index += 1
                    continue
                text.append(decoded)
                positions.append(position)
                index += used
                continue
            text.append(char)
            positions.append(position)
            index += 1
    return "".join(text), positions, has_fields


def _skip_field(chars, index: int) -> int:
    """Past the ``}`` closing the replacement field opened at ``index``."""
    depth = 0
    quote = None
    length = len(chars)
    while index < length:
        char = chars[index][0]
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return -1


def _numeric_escape(chars, index: int) -> tuple[str | None, int]:
    following = chars[index + 1][0]
    source = "".join(c for c, _ in chars[index : index + 12])
    try:
        if following in "01234567":
            digits = 1
            while digits < 3 and index + 1 + digits < len(chars) and chars[index + 1 + digits][0] in "01234567":
                digits += 1
            return chr(int(source[1 : 1 + digits], 8)), 1 + digits
        if following == "x":
            return chr(int(source[2:4], 16)), 4
        if following == "u":
            return chr(int(source[2:6], 16)), 6
        if following == "U":
            return chr(int(source[2:10], 16)), 10
        if following == "N":
            end = source.find("}")
            if end < 0:
                return None, 0
            import unicodedata

            return unicodedata.lookup(source[3:end]), end + 1
    except (ValueError, KeyError, OverflowError):
        return None, 0
    return None, 0
