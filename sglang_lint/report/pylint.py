"""``pylint``: ``path:line: [CODE(name), ] message``, pylint's parseable format
(what ruff's ``pylint`` output and pylint-reading CI tools parse). One finding a
line (the message, then ``; help: ...``), no summary; untrusted text is shown with control characters made visible so
that a finding never spans two lines."""

from __future__ import annotations

from typing import Mapping, Sequence

from ..model import Finding
from ._text import result_text, sanitize


def render(findings: Sequence[Finding], *, sources: Mapping[str, list[str]] | None = None, color: bool = False) -> str:
    return "".join(
        f"{sanitize(f.location.path)}:{f.location.line}: [{f.code}({f.name}), ] {sanitize(result_text(f, one_line=True))}\n"
        for f in findings
    )
