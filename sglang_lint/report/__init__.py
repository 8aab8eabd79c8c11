"""Output formats over findings.

``render(findings, fmt, sources=..., color=...)`` sorts the findings (path, line,
column, code) and hands them to one module per format:

- ``full`` (default): ruff/rustc-style header, source snippets of the primary and
  related locations with ``^^^`` underlines, and a summary line;
- ``concise``: ``path:line:col: CODE message`` per finding, then the summary;
- ``json``: a ruff-compatible JSON array with ``related`` locations;
- ``json-lines``: the ``json`` objects one per line;
- ``sarif``: SARIF 2.1.0 (GitHub code scanning), UTF-16 columns;
- ``github``: GitHub Actions annotations (workflow commands);
- ``rdjson``: reviewdog's Diagnostic Format, UTF-8 byte columns;
- ``pylint``: ``path:line: [CODE(name), ] message``.

Findings carry code-point columns; a format that needs another unit converts at
output with the line text from ``sources`` (``_columns``).

Each format module exposes ``render(findings, *, sources, color) -> str`` taking
already-sorted findings (and ``summary: bool``, for those in ``WITH_SUMMARY``); add a format by adding a module and a ``FORMATS`` entry
(name -> module name: modules are imported when their format is used).
"""

from __future__ import annotations

import importlib
from typing import Callable, Iterable, Mapping

from ..model import Finding
from ._text import sorted_findings

Renderer = Callable[..., str]

# Format name -> the module rendering it, imported when that format is used (the
# SARIF one loads every rule for its rule table; a run printing `concise` need not).
FORMATS: dict[str, str] = {
    "full": "full",
    "concise": "concise",
    "json": "json",
    "json-lines": "json_lines",
    "sarif": "sarif",
    "github": "github",
    "rdjson": "rdjson",
    "pylint": "pylint",
}

DEFAULT_FORMAT = "full"

# The formats that end with a summary line ("Found ..."); their ``render`` takes
# ``summary: bool`` too.
WITH_SUMMARY = frozenset({"full", "concise"})

__all__ = ["DEFAULT_FORMAT", "FORMATS", "WITH_SUMMARY", "render"]


def render(
    findings: Iterable[Finding],
    fmt: str = DEFAULT_FORMAT,
    *,
    sources: Mapping[str, list[str]] | None = None,
    color: bool = False,
    summary: bool = True,
) -> str:
    """The report text for ``findings`` in format ``fmt`` (see :data:`FORMATS`).

    ``sources`` maps a finding's path (as in its Location) to the file's lines
    (index 0 is line 1, line endings optional), for snippets; colour (ANSI) is used
    only when ``color`` is True. ``summary=False`` (``--quiet``) leaves out the
    summary line of the formats that print one (:data:`WITH_SUMMARY`). Raises
    ValueError for an unknown format.
    """
    try:
        module = FORMATS[fmt]
    except KeyError:
        raise ValueError(f"unknown output format {fmt!r}; expected one of: {', '.join(FORMATS)}") from None
    renderer: Renderer = importlib.import_module(f"{__name__}.{module}").render
    extra = {"summary": summary} if fmt in WITH_SUMMARY else {}
    return renderer(sorted_findings(findings), sources=sources or {}, color=color, **extra)
