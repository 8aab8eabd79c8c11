"""``sarif``: SARIF 2.1.0, as GitHub code scanning and other SARIF viewers read it.

One run; ``tool.driver.rules`` lists every rule (and SGL900, ``unreadable-input``)
with its documentation; each result points at its rule by ``ruleId`` and
``ruleIndex``. Columns are UTF-16 code units (SARIF's default ``columnKind``,
stated on the run), converted from code points with the line text; ``endColumn``
is exclusive, as SARIF defines it.

URIs are relative to the repository root (the nearest directory above the current
one holding ``.git``, else the current directory), with forward slashes,
percent-encoded, and ``uriBaseId`` ``%SRCROOT%``; a file outside the root gets an
absolute ``file://`` URI.

A result's ``message.text`` is the finding's message, then ``help: ...`` on a
second line; ``message.markdown`` adds the notes as a list.

``partialFingerprints["sglangLint/v1"]`` identifies a result across commits: a
hash of the code, the URI, the stripped text of the primary lines and the
message without line/column numbers (which change when lines are added above),
plus ``:N`` for the N-th result with the same hash.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any, Mapping, Sequence
from urllib.parse import quote

from .. import __version__
from ..fixes import preferred_edit
from ..model import Finding, Location, Severity
from ..rules import ALL_RULES, INTERNAL_ERROR_CODE, INTERNAL_ERROR_DOC, INTERNAL_ERROR_NAME, INTERNAL_ERROR_SUMMARY
from ..selection import DOCS_URL
from ._columns import line_text, utf16_column
from ._text import result_text

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/sglang-lint/sglang-lint"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "sglangLint/v1"

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}

def _rule_descriptors() -> list[dict[str, Any]]:
    entries = [(r.code, r.name, r.summary, r.doc, r.severity) for r in ALL_RULES]
    entries.append((INTERNAL_ERROR_CODE, INTERNAL_ERROR_NAME, INTERNAL_ERROR_SUMMARY, INTERNAL_ERROR_DOC, Severity.WARNING))
    descriptors = []
    for code, name, summary, doc, severity in entries:
        summary = summary.strip().rstrip(".") + "."
        doc = doc.strip()
        descriptors.append(
            {
                "id": code,
                "name": name,
                "shortDescription": {"text": summary},
                "fullDescription": {"text": summary},
                "help": {"text": doc, "markdown": doc},
                "helpUri": DOCS_URL.format(code=code.lower()),
                "defaultConfiguration": {"level": _LEVEL[severity]},
            }
        )
    return descriptors


def _repository_root(cwd: Path) -> Path:
    for directory in (cwd, *cwd.parents):
        if (directory / ".git").exists():
            return directory
    return cwd


def artifact_location(path: str, root: Path) -> dict[str, str]:
    """``artifactLocation`` of ``path`` (as given, relative to the current directory)."""
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(root)
    except ValueError:
        return {"uri": absolute.as_uri()}
    return {"uri": quote(relative.as_posix(), safe="/"), "uriBaseId": SRCROOT}


def _region(location: Location, sources: Mapping[str, list[str]]) -> dict[str, int]:
    start = utf16_column(sources, location.path, location.line, location.column)
    end = utf16_column(sources, location.path, location.end_line, location.end_column)
    if location.end_line == location.line and end < start:
        end = start
    return {"startLine": location.line, "startColumn": start, "endLine": location.end_line, "endColumn": end}


def _physical(location: Location, sources: Mapping[str, list[str]], root: Path) -> dict[str, Any]:
    return {"artifactLocation": artifact_location(location.path, root), "region": _region(location, sources)}


_POSITION = re.compile(r":\d+(?::\d+)?")


def fingerprint(finding: Finding, uri: str, sources: Mapping[str, list[str]]) -> str:
    location = finding.location
    texts = [line_text(sources, location.path, n) or "" for n in range(location.line, location.end_line + 1)]
    material = "\0".join(
        (finding.code, uri, "\n".join(t.strip() for t in texts), _POSITION.sub(":", finding.message))
    )
    return hashlib.sha256(material.encode("utf-8", errors="surrogatepass")).hexdigest()[:32]


def _markdown_escape(text: str) -> str:
    return re.sub(r"([\\`*_{}\[\]<>#|])", r"\\\1", text)


def _message(finding: Finding) -> dict[str, str]:
    message = {"text": result_text(finding)}
    if finding.help or finding.notes:
        lines = [_markdown_escape(finding.message)]
        if finding.help:
            lines += ["", f"**help**: {_markdown_escape(finding.help)}"]
        if finding.notes:
            lines += [""] + [f"- note: {_markdown_escape(note)}" for note in finding.notes]
        message["markdown"] = "\n".join(lines)
    return message


def sarif_log(findings: Sequence[Finding], sources: Mapping[str, list[str]], cwd: Path | None = None) -> dict[str, Any]:
    root = _repository_root(cwd or Path.cwd())
    rules = _rule_descriptors()
    index = {rule["id"]: number for number, rule in enumerate(rules)}
    seen: dict[str, int] = {}
    results = []
    for finding in findings:
        physical = _physical(finding.location, sources, root)
        digest = fingerprint(finding, physical["artifactLocation"]["uri"], sources)
        seen[digest] = seen.get(digest, 0) + 1
        result: dict[str, Any] = {"ruleId": finding.code}
        if finding.code in index:
            result["ruleIndex"] = index[finding.code]
        result.update(
            {
                "level": _LEVEL.get(finding.severity, "error"),
                "message": _message(finding),
                "locations": [{"physicalLocation": physical}],
                "partialFingerprints": {FINGERPRINT_KEY: f"{digest}:{seen[digest]}"},
            }
        )
        resolved = preferred_edit(finding, sources)
        if resolved is not None:
            fix, edit = resolved
            result["fixes"] = [
                {
                    "description": {"text": fix.title},
                    "artifactChanges": [
                        {
                            "artifactLocation": artifact_location(edit.path, root),
                            "replacements": [
                                {
                                    "deletedRegion": _region(Location(edit.path, edit.line, edit.column, edit.end_line, edit.end_column), sources),
                                    "insertedContent": {"text": edit.new_text},
                                }
                            ],
                        }
                    ],
                }
            ]
        if finding.related:
            result["relatedLocations"] = [
                {
                    "id": number,
                    "physicalLocation": _physical(related.location, sources, root),
                    "message": {"text": related.message},
                }
                for number, related in enumerate(finding.related, 1)
            ]
        if finding.path:
            # The path through the script's branches on which the finding holds
            # (issue 16): SARIF's way to show a path is a code flow, the
            # decisions in order, then the finding itself.
            steps = [(step.location, step.text) for step in finding.path] + [(finding.location, finding.message)]
            result["codeFlows"] = [
                {
                    "threadFlows": [
                        {
                            "locations": [
                                {"location": {"physicalLocation": _physical(location, sources, root), "message": {"text": text}}, "nestingLevel": 0}
                                for location, text in steps
                            ]
                        }
                    ]
                }
            ]
        results.append(result)
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "sglang-lint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }


def render(findings: Sequence[Finding], *, sources: Mapping[str, list[str]] | None = None, color: bool = False) -> str:
    return json.dumps(sarif_log(findings, sources or {}), indent=2, ensure_ascii=False) + "\n"
