"""Suppression: ``# noqa: SGL001[, SGL002]`` on a line of the launch a finding is
about, and ``# sglang-lint: disable=SGL001[,...]`` before a file's first command.

A malformed code list never silences anything (it would hide every finding of
the launch): it is reported instead, as ShellCheck does for bad directives.
"""

from __future__ import annotations

import re
from typing import Mapping

from msgspec import Struct

from sglang_lint.model import SAFE, Finding, Fix, Location, Note

_CODE = re.compile(r"SGL\d{3}")
# `noqa` must be the comment's own word: "# noqa", "# noqa: X", "# ... # noqa: X".
_NOQA = re.compile(r"#\s*noqa(?P<colon>\s*:\s*(?P<codes>[^#]*))?", re.IGNORECASE)
_DISABLE = re.compile(r"#\s*sglang-lint\s*:\s*disable\s*=\s*(?P<codes>[^#]*)", re.IGNORECASE)


class Directives(Struct):
    # line -> codes (None: every code)
    noqa: dict[int, frozenset[str] | None]
    file_disabled: frozenset[str]
    notes: list[Note]
    # code -> line of the `# sglang-lint: disable=` naming it (the first one).
    disabled_at: dict[str, int] = {}


# A directive that silenced a finding: (path, line, code). For a bare `# noqa`,
# code is None.
DirectiveUse = tuple[str, int, "str | None"]


# flake8's notion of a code (pycodestyle E501, flake8-bugbear B006, ruff BLE001).
_ANY_CODE = re.compile(r"[A-Z]+[0-9]+")


def _parse_codes(raw: str, others_allowed: bool = False) -> list[str] | None:
    """SGL codes at the head of a directive, or None when the list is malformed.

    ``SGL001, SGL002 - reason`` gives both codes (a reason may follow, as flake8
    allows); an item that looks like an SGL code but is not one (``SGL1``) or a list
    with no code at all is malformed. With ``others_allowed`` (a ``# noqa`` shared
    with other linters: ``# noqa: E501, SGL001``) other tools' codes are skipped,
    and a list of only theirs gives no SGL code (an empty list) rather than None.
    """
    codes: list[str] = []
    seen_other = False
    for item in (item for item in re.split(r"[\s,]+", raw.strip()) if item):
        upper = item.upper()
        if _CODE.fullmatch(upper):
            codes.append(upper)
            continue
        if upper.startswith("SGL"):
            return None
        if others_allowed and _ANY_CODE.fullmatch(item):
            seen_other = True
            continue
        break
    if codes:
        return codes
    return [] if seen_other else None


def parse_directives(path: str, comments: dict[int, str], first_command_line: int | None) -> Directives:
    noqa: dict[int, frozenset[str] | None] = {}
    disabled: dict[str, int] = {}
    notes: list[Note] = []
    for line, comment in sorted(comments.items()):
        match = _DISABLE.search(comment)
        if match:
            codes = _parse_codes(match.group("codes"))
            if codes is None:
                notes.append(Note(path, f"malformed directive {comment.strip()!r}: expected '# sglang-lint: disable=SGL001[,SGL002]'; it silences nothing", line))
            elif first_command_line is not None and line > first_command_line:
                notes.append(Note(path, "'# sglang-lint: disable=' applies only before the first command of the file; this one silences nothing", line))
            else:
                for code in codes:
                    disabled.setdefault(code, line)
            continue
        match = _NOQA.search(comment)
        if not match:
            continue
        if match.group("colon") is None:
            noqa[line] = None
            continue
        codes = _parse_codes(match.group("codes") or "", others_allowed=True)
        if codes == []:
            continue  # only other linters' codes: not about our findings
        if codes is None:
            notes.append(Note(path, f"malformed noqa comment {comment.strip()!r}: expected '# noqa: SGL001[, SGL002]'; it silences nothing", line))
            continue
        noqa[line] = frozenset(codes)
    return Directives(noqa, frozenset(disabled), notes, disabled)


NO_DIRECTIVES = Directives({}, frozenset(), [])


def is_suppressed(finding: Finding, directives_by_path: Mapping[str, Directives]) -> bool:
    """Silenced by a noqa on a line of the launch or on the finding's own line, or
    by a file-level directive of the file holding the launch or the finding."""
    return bool(suppressing(finding, directives_by_path))


def suppressing(finding: Finding, directives_by_path: Mapping[str, Directives]) -> list[DirectiveUse]:
    """Every directive that silences ``finding`` (empty: it is reported). All of
    them, not the first: a finding silenced twice uses both directives."""
    location = finding.location
    # The finding's own line counts too (what flake8 and ruff users expect: a
    # `# noqa` where the error is shown), besides every line of the launch.
    ranges = (*finding.noqa_ranges, (location.path, location.line, location.line))
    uses: list[DirectiveUse] = []
    for path in sorted({location.path, *(path for path, _, _ in ranges)}):
        directives = directives_by_path.get(path, NO_DIRECTIVES)
        if finding.code in directives.file_disabled:
            uses.append((path, directives.disabled_at.get(finding.code, 0), finding.code))
    for path, start, end in ranges:
        noqa = directives_by_path.get(path, NO_DIRECTIVES).noqa
        for line in range(start, end + 1):
            if line in noqa:
                codes = noqa[line]
                if codes is None:
                    uses.append((path, line, None))
                elif finding.code in codes:
                    uses.append((path, line, finding.code))
    return uses


class UnusedSuppression(Struct, frozen=True):
    """A code in a directive that silenced no finding of this run."""

    location: Location
    code: str
    # "noqa" or "disable"
    directive: str
    # The edit that takes the code out of the comment (the whole comment when it
    # was its only code); None when the comment cannot be found on the line.
    removal: Fix | None = None


def unused_suppressions(
    directives_by_path: Mapping[str, Directives],
    used: set[DirectiveUse],
    ran: frozenset[str],
    lines_by_path: Mapping[str, list[str]],
) -> list[UnusedSuppression]:
    """The codes of ``# noqa: SGL...`` and ``# sglang-lint: disable=`` directives
    that silenced nothing. Only codes of rules that ran (``ran``) can be judged: a
    directive for a rule this run did not select may be needed by another run.
    Bare ``# noqa`` is not judged (it is every linter's)."""
    unused: list[UnusedSuppression] = []
    for path, directives in directives_by_path.items():
        lines = lines_by_path.get(path, [])
        for line, codes in directives.noqa.items():
            for code in sorted(codes or ()):
                if code in ran and (path, line, code) not in used:
                    unused.append(UnusedSuppression(_code_location(path, line, code, lines), code, "noqa", _removal(path, line, code, lines, _NOQA)))
        for code, line in directives.disabled_at.items():
            if code in ran and (path, line, code) not in used:
                unused.append(UnusedSuppression(_code_location(path, line, code, lines), code, "disable", _removal(path, line, code, lines, _DISABLE)))
    return sorted(unused, key=lambda item: (item.location, item.code))


def _removal(path: str, line: int, code: str, lines: list[str], directive: re.Pattern[str]) -> Fix | None:
    """The fix that removes ``code`` from the last ``directive`` comment of
    ``line`` naming it: with its separator when other codes stay, else the whole
    comment and the blanks before it. Safe: a suppression changes no launch."""
    text = lines[line - 1] if 1 <= line <= len(lines) else ""
    found = None
    for match in directive.finditer(text):
        if match.group("codes") is not None and any(c.group() == code for c in _ANY_CODE.finditer(match.group("codes").upper())):
            found = match
    if found is None:
        return None
    codes_start = found.start("codes")
    codes = list(_ANY_CODE.finditer(found.group("codes").upper()))
    if len(codes) == 1:
        start = found.start()
        while start > 0 and text[start - 1] in " \t":
            start -= 1
        end = len(found.group(0).rstrip()) + found.start()
        title = f"Remove the unused `{found.group(0).strip()}`"
    else:
        index = next(i for i, c in enumerate(codes) if c.group() == code)
        this = codes[index]
        if index + 1 < len(codes):  # `SGL001, ` before the next code
            start, end = codes_start + this.start(), codes_start + codes[index + 1].start()
        else:  # `, SGL005` after the previous code
            start, end = codes_start + codes[index - 1].end(), codes_start + this.end()
        title = f"Remove {code} from the comment"
    if start >= end:
        return None
    return Fix(title, Location(path, line, start + 1, line, end + 1), text[start:end], "", preferred=True, applicability=SAFE)


def _code_location(path: str, line: int, code: str, lines: list[str]) -> Location:
    """Where ``code`` is written on ``line`` (after the last `#`), else the line."""
    text = lines[line - 1] if 1 <= line <= len(lines) else ""
    start = text.upper().rfind(code, text.find("#") if "#" in text else 0)
    if start < 0:
        return Location(path, line, 1)
    return Location(path, line, start + 1, line, start + 1 + len(code))
