"""A ruff-compatible JSON array (``ruff check --output-format json``), plus the
``name``, ``severity`` and ``related`` locations of sglang-lint findings.

Columns are 1-based code points and ``end_location`` is exclusive, as in ruff.
``filename`` is the path as given on the command line. ``fix`` and ``cell`` are
always null (sglang-lint has no fixes and reads no notebooks); ``url`` is null when
a finding has none.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from ..model import Finding, Location


def _position(line: int, column: int) -> dict[str, int]:
    return {"row": line, "column": column}


def _span(location: Location) -> dict[str, Any]:
    return {
        "filename": location.path,
        "location": _position(location.line, location.column),
        "end_location": _position(location.end_line, location.end_column),
    }


def finding_to_dict(finding: Finding) -> dict[str, Any]:
    """One finding as a JSON-ready dict (also used by ``json-lines``-like callers)."""
    location = finding.location
    return {
        "code": finding.code,
        "name": finding.name,
        "message": finding.message,
        "severity": finding.severity.value,
        **_span(location),
        "related": [{**_span(r.location), "message": r.message} for r in finding.related],
        "url": finding.url or None,
        "fix": None,
        "noqa_row": location.line,
        "cell": None,
    }


def render(findings: Sequence[Finding], *, sources: Mapping[str, list[str]] | None = None, color: bool = False) -> str:
    return json.dumps([finding_to_dict(f) for f in findings], indent=2, ensure_ascii=False) + "\n"
