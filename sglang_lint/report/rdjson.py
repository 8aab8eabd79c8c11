"""``rdjson``: reviewdog's Diagnostic Format, the ``DiagnosticResult`` message as
JSON (reviewdog ``proto/rdf/reviewdog.proto``; ``reviewdog -f=rdjson``).

Lines are 1-based; columns are 1-based UTF-8 byte offsets (the proto's
``Position.column``: "byte count in UTF-8"), converted from code points with the
line text; ``end`` is exclusive. Severities are ``ERROR``, ``WARNING``, ``INFO``.
The message is the finding's, then ``help: ...`` on a second line.
Related locations go to ``related_locations`` (``RelatedLocation``: ``message``,
``location``). A finding with a quick fix carries it in ``suggestions`` (the
preferred one: a replacement of a range), which reviewdog shows as a suggested
change in a pull-request review. Paths are as given on the command line.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from ..fixes import preferred_edit
from ..model import Finding, Location, Severity
from ._columns import utf8_column
from ._text import result_text

SOURCE = {"name": "sglang-lint", "url": "https://github.com/sglang-lint/sglang-lint"}

_SEVERITY = {Severity.ERROR: "ERROR", Severity.WARNING: "WARNING", Severity.INFO: "INFO"}


def _location(location: Location, sources: Mapping[str, list[str]]) -> dict[str, Any]:
    def position(line: int, column: int) -> dict[str, int]:
        return {"line": line, "column": utf8_column(sources, location.path, line, column)}

    return {
        "path": location.path,
        "range": {
            "start": position(location.line, location.column),
            "end": position(location.end_line, location.end_column),
        },
    }


def diagnostic(finding: Finding, sources: Mapping[str, list[str]]) -> dict[str, Any]:
    code: dict[str, str] = {"value": finding.code}
    if finding.url:
        code["url"] = finding.url
    result: dict[str, Any] = {
        "message": result_text(finding),
        "location": _location(finding.location, sources),
        "severity": _SEVERITY.get(finding.severity, "ERROR"),
        "code": code,
    }
    resolved = preferred_edit(finding, sources)
    if resolved is not None:
        _, edit = resolved
        result["suggestions"] = [
            {
                "range": _location(Location(edit.path, edit.line, edit.column, edit.end_line, edit.end_column), sources)["range"],
                "text": edit.new_text,
            }
        ]
    if finding.related:
        result["related_locations"] = [
            {"message": r.message, "location": _location(r.location, sources)} for r in finding.related
        ]
    return result


def render(findings: Sequence[Finding], *, sources: Mapping[str, list[str]] | None = None, color: bool = False) -> str:
    sources = sources or {}
    document = {
        "source": dict(SOURCE),
        "diagnostics": [diagnostic(f, sources) for f in findings],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
