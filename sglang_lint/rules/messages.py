"""Helpers for the shape of findings (rustc's and ruff's): a first line that
says what is wrong in under 120 characters, a ``help`` that says what to do and
``notes`` that say why (how each value was derived, the error SGLang would show,
version history). See Rule.finding."""

from __future__ import annotations

# Values quoted in a first line are clipped to this many characters (a model
# path, a long unresolved expression); the notes quote them whole.
VALUE_WIDTH = 32


def clip(text: str, width: int = VALUE_WIDTH) -> str:
    """``text`` on one line, at most ``width`` characters: the middle of a longer
    one gives way to ``...`` (paths keep their start and their last part)."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    keep = width - 3
    head = (keep + 1) // 2
    return text[:head] + "..." + text[len(text) - (keep - head) :]


def sides(what: str, prefill: str, decode: str) -> str:
    """``page size differs across the pair: prefill 64, decode 16``."""
    return f"{what} differs across the pair: prefill {clip(prefill)}, decode {clip(decode)}"


def sglang_error(text: str, where: str = "") -> str:
    """The note quoting the error SGLang shows."""
    return f"SGLang fails with \"{text}\"" + (f" ({where})" if where else "")
