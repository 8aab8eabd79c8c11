"""A ruff-compatible JSON array (``ruff check --output-format json``), plus the
``name``, ``severity``, ``related`` locations, ``help`` (what to do, null when
none) and ``notes`` (the why, a list of lines) of sglang-lint findings.

Columns are 1-based code points and ``end_location`` is exclusive, as in ruff.
``filename`` is the path as given on the command line. ``fix`` is ruff's shape
(``applicability``, ``message``, ``edits`` with ``content``, ``location`` and
``end_location``) for a finding with a quick fix (the preferred one, with the
rule's applicability: ``safe``, ``unsafe`` or ``display-only``), else null; ``cell`` is always null (no notebooks); ``url`` is null
when a finding has none.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from ..fixes import preferred_edit
from ..model import Finding, Location


def _position(line: int, column: int) -> dict[str, int]:
    return {"row": line, "column": column}


def _span(location: Location) -> dict[str, Any]:
    return {
        "filename": location.path,
        "location": _position(location.line, location.column),
        "end_location": _position(location.end_line, location.end_column),
    }


def _fix(finding: Finding, sources: Mapping[str, list[str]]) -> dict[str, Any] | None:
    resolved = preferred_edit(finding, sources)
    if resolved is None:
        return None
    fix, edit = resolved
    return {
        "applicability": fix.applicability,
        "message": fix.title,
        "edits": [
            {
                "content": edit.new_text,
                "location": _position(edit.line, edit.column),
                "end_location": _position(edit.end_line, edit.end_column),
            }
        ],
    }


def finding_to_dict(finding: Finding, sources: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """One finding as a JSON-ready dict (also used by ``json-lines``-like callers);
    ``sources`` (path -> lines) resolves its fix."""
    location = finding.location
    return {
        "code": finding.code,
        "name": finding.name,
        "message": finding.message,
        "severity": finding.severity.value,
        **_span(location),
        "related": [{**_span(r.location), "message": r.message} for r in finding.related],
        "help": finding.help or None,
        "notes": list(finding.notes),
        "url": finding.url or None,
        "fix": _fix(finding, sources or {}),
        "noqa_row": location.line,
        "cell": None,
    }


def render(findings: Sequence[Finding], *, sources: Mapping[str, list[str]] | None = None, color: bool = False) -> str:
    return json.dumps([finding_to_dict(f, sources) for f in findings], indent=2, ensure_ascii=False) + "\n"
