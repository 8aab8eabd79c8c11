"""``json-lines``: one JSON object per line, each the same object as an element of
the ``json`` format's array (ruff's ``json-lines``). No findings, no output."""

from __future__ import annotations

import json
from typing import Mapping, Sequence

from ..model import Finding
from .json import finding_to_dict


def render(findings: Sequence[Finding], *, sources: Mapping[str, list[str]] | None = None, color: bool = False) -> str:
    return "".join(json.dumps(finding_to_dict(f, sources), ensure_ascii=False) + "\n" for f in findings)
