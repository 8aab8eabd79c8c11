"""``github``: GitHub Actions workflow commands, one annotation a finding::

    ::error file=run.sh,line=5,col=13,endLine=5,endColumn=14,title=SGL001 unified-memory-attn-tp-mismatch::attention TP 8 vs 1

The annotation's text is the message, then ``help: ...`` on a second line.
``error``/``warning``/``notice`` follow the severity. Escaping follows the runner
(actions/toolkit ``command.ts``): ``%``, CR and LF in the message; additionally
``:`` and ``,`` in property values. Columns are code points (GitHub does not define
a unit; ruff writes code points too); ``endColumn`` is exclusive, as in ``json``.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ..model import Finding, Severity
from ._text import result_text

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _annotation(finding: Finding) -> str:
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
    return f"::{_COMMAND.get(finding.severity, 'error')} {joined}::{escape_data(result_text(finding))}"


def render(findings: Sequence[Finding], *, sources: Mapping[str, list[str]] | None = None, color: bool = False) -> str:
    return "".join(_annotation(f) + "\n" for f in findings)
