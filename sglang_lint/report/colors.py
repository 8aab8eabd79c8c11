"""ANSI styling shared by the text formats; a no-op when colour is off."""

from __future__ import annotations

from ..model import Severity

_RESET = "\x1b[0m"
_CODES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "yellow": "33",
    "blue": "34",
    "cyan": "36",
    "bold_red": "1;31",
    "bold_yellow": "1;33",
    "bold_blue": "1;34",
    "bold_cyan": "1;36",
}

_SEVERITY_STYLE = {
    Severity.ERROR: "bold_red",
    Severity.WARNING: "bold_yellow",
    Severity.INFO: "bold_blue",
}


class Palette:
    """``palette.style("bold_red", text)``: wraps ``text`` in an ANSI style only
    when the palette is enabled, so formats write one code path for both."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def style(self, name: str, text: str) -> str:
        if not self.enabled or not text:
            return text
        return f"\x1b[{_CODES[name]}m{text}{_RESET}"

    def severity(self, severity: Severity, text: str) -> str:
        return self.style(_SEVERITY_STYLE.get(severity, "bold"), text)

    # The pieces every text format styles the same way.
    def path(self, text: str) -> str:
        return self.style("bold", text)

    def code(self, severity: Severity, text: str) -> str:
        return self.severity(severity, text)

    def gutter(self, text: str) -> str:
        return self.style("bold_blue", text)
