"""The default format, shaped like ruff's and rustc's diagnostics:

```
run.sh:5:13: SGL001 [unified-memory-attn-tp-mismatch] attention TP differs across the pair: prefill 8, decode 1
  |
5 |   --tp-size 1 \\
  |             ^ SGL001
  |
  = prefill attention TP 8: run.sh:3:13
  |
3 |   --tp-size 8 \\
  |             ^ prefill attention TP 8
  |
  = help: give the decode attention TP 8, or drop --enable-unified-memory on both sides
  = note: prefill attention TP 8 = --tp-size 8 (run.sh:3)
  = note: decode attention TP 1 = --tp-size 1 (run.sh:5)
  = docs: https://...

Found 1 error.
```

After the snippets come the finding's ``help`` (what to do), its fixes (``= fix
(unsafe): Give the decode --tp 8``, with the applicability that says whether
``--fix`` applies it) and its ``notes`` (the why), one ``= help:`` / ``= fix:`` /
``= note:`` line each, as rustc prints them.

The source line of the primary location and of every related location is shown
when ``sources`` has it (otherwise only the ``path:line:col`` lines). Source text is
untrusted and shown with control characters made visible; tabs are shown as four
spaces and carets account for wide characters. A span over several lines is
underlined to the end of its first line.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ..model import Finding, Location
from ._text import cell_width, sanitize, summary as summary_line
from .colors import Palette


def _source_line(sources: Mapping[str, list[str]], location: Location) -> str | None:
    lines = sources.get(location.path)
    if lines is None or not 1 <= location.line <= len(lines):
        return None
    text = lines[location.line - 1]
    for ending in ("\r\n", "\n", "\r"):
        if text.endswith(ending):
            return text[: -len(ending)]
    return text


def _underline(text: str, location: Location) -> tuple[int, int]:
    """(cells before the span, cells of the span) on the displayed ``text``."""
    start = max(location.column - 1, 0)
    if location.end_line > location.line:
        end = len(text)
    else:
        end = location.end_column - 1
    before = cell_width(sanitize(text[:start]))
    span = cell_width(sanitize(text[start:end])) if end > start else 0
    if span == 0 and start < len(text):
        span = cell_width(sanitize(text[start]))
    return before, max(span, 1)


class _Writer:
    def __init__(self, palette: Palette, gutter_width: int) -> None:
        self.palette = palette
        self.width = gutter_width
        self.lines: list[str] = []

    def bar(self) -> None:
        self.lines.append(self.palette.gutter(" " * self.width + " |"))

    def note(self, text: str) -> None:
        self.lines.append(" " * self.width + " " + self.palette.gutter("=") + " " + text)

    def snippet(self, number: int, text: str, location: Location, label: str, style: str) -> None:
        shown = sanitize(text)
        self.lines.append((self.palette.gutter(f"{number:>{self.width}} |") + " " + shown).rstrip())
        before, span = _underline(text, location)
        marks = " " * before + self.palette.style(style, "^" * span + (" " + label if label else ""))
        self.lines.append(self.palette.gutter(" " * self.width + " |") + " " + marks)


def _render_one(finding: Finding, sources: Mapping[str, list[str]], palette: Palette) -> list[str]:
    location = finding.location
    header = (
        palette.path(f"{sanitize(location.path)}:{location.line}:{location.column}:")
        + " "
        + palette.code(finding.severity, finding.code)
        + " "
        + palette.style("dim", f"[{finding.name}]")
        + " "
        + palette.style("bold", sanitize(finding.message))
    )
    shown = [(location, _source_line(sources, location))]
    shown += [(r.location, _source_line(sources, r.location)) for r in finding.related]
    width = max([len(str(loc.line)) for loc, text in shown if text is not None] or [1])
    writer = _Writer(palette, width)
    writer.lines.append(header)

    severity_style = {"error": "bold_red", "warning": "bold_yellow", "info": "bold_blue"}[finding.severity.value]
    primary_text = shown[0][1]
    if primary_text is not None:
        writer.bar()
        writer.snippet(location.line, primary_text, location, finding.code, severity_style)
        writer.bar()
    for related, (_, text) in zip(finding.related, shown[1:]):
        writer.note(f"{sanitize(related.message)}: {sanitize(str(related.location))}")
        if text is not None:
            writer.bar()
            writer.snippet(related.location.line, text, related.location, sanitize(related.message), "bold_cyan")
            writer.bar()
    if finding.help:
        writer.note(palette.style("bold", "help") + f": {sanitize(finding.help)}")
    for fix in finding.fixes:
        # What `--fix` would do (safe), what needs `--unsafe-fixes` too, and what
        # is only shown (display-only): ruff's applicability, said per fix.
        writer.note(palette.style("bold", "fix") + f" ({fix.applicability}): {sanitize(fix.title)}")
    for note in finding.notes:
        writer.note(palette.style("bold", "note") + f": {sanitize(note)}")
    if finding.url:
        writer.note(f"docs: {sanitize(finding.url)}")
    writer.lines.append("")
    return writer.lines


def render(findings: Sequence[Finding], *, sources: Mapping[str, list[str]] | None = None, color: bool = False, summary: bool = True) -> str:
    palette = Palette(color)
    lines: list[str] = []
    for finding in findings:
        lines.extend(_render_one(finding, sources or {}, palette))
    if summary:
        lines.append(summary_line(findings))
    return "\n".join(lines) + "\n" if lines else ""
