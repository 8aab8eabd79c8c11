"""``github``: GitHub Actions workflow commands, one annotation a finding::

    ::error file=run.sh,line=5,col=13,endLine=5,endColumn=14,title=SGL001 unified-memory-attn-tp-mismatch::attention TP 8 vs 1

The annotation's text is the message, then ``help: ...`` on a second line, and
for a finding with a single-line fix (the preferred one) the suggested change:
``suggested change (<applicability>): line N becomes`` and the fixed line, as a
reviewer would paste it into a pull request's suggestion.
``error``/``warning``/``notice`` follow the severity. Escaping follows the runner
(actions/toolkit ``command.ts``): ``%``, CR and LF in the message; additionally
``:`` and ``,`` in property values. Columns are code points (GitHub does not define
a unit; ruff writes code points too); ``endColumn`` is exclusive, as in ``json``.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ..fixes import preferred_edit
from ..model import Finding, Severity
from ._text import result_text

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _suggestion(finding: Finding, sources: Mapping[str, list[str]]) -> str:
    """The fixed line of the finding's preferred single-line fix, or ""."""
    resolved = preferred_edit(finding, sources)
    if resolved is None:
        return ""
    fix, edit = resolved
    lines = sources[edit.path]
    if edit.line != edit.end_line or "\n" in edit.new_text or not 1 <= edit.line <= len(lines):
        return ""
    line = lines[edit.line - 1]
    fixed = line[: edit.column - 1] + edit.new_text + line[edit.end_column - 1 :]
    return f"\nsuggested change ({fix.applicability}): line {edit.line} becomes\n{fixed}"


def _annotation(finding: Finding, sources: Mapping[str, list[str]]) -> str:
    location = finding.location
    properties = (
        ("file", location.path),
        ("line", str(location.line)),
        ("col", str(location.column)),
        ("endLine", str(location.end_line)),
        ("endColumn", str(location.end_column)),
        ("title", f"{finding.code} {finding.name}"),
    )
    joined = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    text = result_text(finding) + _suggestion(finding, sources)
    return f"::{_COMMAND.get(finding.severity, 'error')} {joined}::{escape_data(text)}"


def render(findings: Sequence[Finding], *, sources: Mapping[str, list[str]] | None = None, color: bool = False) -> str:
    return "".join(_annotation(f, sources or {}) + "\n" for f in findings)
