"""``path:line:col: CODE message``: one finding a line (the message's one line;
help and notes are for ``full``), what editors and problem matchers parse, then
ruff's summary line."""

from __future__ import annotations

from collections import Counter
from typing import Mapping, Sequence

from ..model import Finding
from ._text import sanitize, summary as summary_line
from .colors import Palette


def render(findings: Sequence[Finding], *, sources: Mapping[str, list[str]] | None = None, color: bool = False, summary: bool = True) -> str:
    palette = Palette(color)
    lines = []
    # One decode paired with several prefills can have the same finding with each:
    # such lines name their first related location (the other side), or they
    # would read as one finding printed twice.
    shown = Counter((f.location, f.code, f.message) for f in findings)
    for finding in findings:
        where = f"{sanitize(finding.location.path)}:{finding.location.line}:{finding.location.column}:"
        message = sanitize(finding.message)
        if shown[(finding.location, finding.code, finding.message)] > 1 and finding.related:
            other = finding.related[0].location
            message += f" (with {sanitize(other.path)}:{other.line})"
        lines.append(f"{palette.path(where)} {palette.code(finding.severity, finding.code)} {message}")
    if summary:
        lines.append(summary_line(findings))
    return "\n".join(lines) + "\n" if lines else ""
