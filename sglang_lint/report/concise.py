"""``path:line:col: CODE message``: one finding a line (the message's one line;
help and notes are for ``full``), what editors and problem matchers parse, then
ruff's summary line."""

from __future__ import annotations

from typing import Mapping, Sequence

from ..model import Finding
from ._text import sanitize, summary as summary_line
from .colors import Palette


def render(findings: Sequence[Finding], *, sources: Mapping[str, list[str]] | None = None, color: bool = False, summary: bool = True) -> str:
    palette = Palette(color)
    lines = []
    for finding in findings:
        where = f"{sanitize(finding.location.path)}:{finding.location.line}:{finding.location.column}:"
        lines.append(
            f"{palette.path(where)} {palette.code(finding.severity, finding.code)} {sanitize(finding.message)}"
        )
    if summary:
        lines.append(summary_line(findings))
    return "\n".join(lines) + "\n" if lines else ""
