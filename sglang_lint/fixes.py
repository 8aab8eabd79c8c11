"""Quick fixes as text edits: a rule's :class:`~sglang_lint.model.Fix` resolved
against the file's text, and the ``# noqa: SGLxxx`` comment that silences a
finding. Used by the language server's code actions.

An edit is offered only when it is certain: the text to replace is found exactly
once where the finding points, and a ``# noqa`` is placed only where the file's
own source reader then sees it as a comment on a line of the launch (checked by
reading the edited text again), never inside a string, a YAML block scalar
that is not shell, or before a line continuation.
"""

from __future__ import annotations

import re
from typing import Mapping

from sglang_lint.fix_edits import TextEdit, insertion_edit, split_edit
from sglang_lint.model import Finding, Fix

__all__ = ["TextEdit", "apply_edits", "noqa_edit", "noqa_line_edits", "preferred_edit", "resolve_fix"]

# Characters that continue an option name: a match must not be part of a longer word.
_NAME_CHARS = re.compile(r"[A-Za-z0-9_.-]")
_NOQA_CODES = re.compile(r"#\s*noqa\s*:\s*(?P<codes>[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*)", re.IGNORECASE)
_BARE_NOQA = re.compile(r"#\s*noqa(?!\s*:)", re.IGNORECASE)


def resolve_fix(fix: Fix, lines: list[str]) -> TextEdit | None:
    """The edit of ``fix`` in a file of ``lines``: ``fix.old`` found exactly once,
    as a whole word, on the first line of its location from its column on
    (``--pp`` in ``--pp 2``, ``"--pp"`` or ``--pp=2``; a backslash and a note after
    ``8``). None when it is not."""
    location = fix.location
    if fix.insert:
        # Words after the word at the location, as the file's language writes them.
        return insertion_edit(lines, location, fix.insert)
    if fix.split:
        return split_edit(lines, location, fix.old, fix.new)
    if not fix.old or not 1 <= location.line <= len(lines):
        return None
    if "\n" in fix.old:
        # Lines moved (SGL205): the span must hold exactly the old text.
        if not location.line < location.end_line <= len(lines):
            return None
        span = "\n".join([lines[location.line - 1][location.column - 1 :], *lines[location.line : location.end_line - 1], lines[location.end_line - 1][: location.end_column - 1]])
        if span != fix.old:
            return None
        return TextEdit(location.path, location.line, location.column, location.end_line, location.end_column, fix.new)
    text = lines[location.line - 1]
    start = max(0, location.column - 1)
    stop = location.end_column - 1 if location.end_line == location.line else len(text)
    if stop <= start:
        stop = len(text)
    found: list[int] = []
    # A whole word where the old text starts or ends like a name: `--pp` is not
    # the start of `--pp-size`. Text that starts with another character (the `\`
    # of a broken continuation, glued to `8\ `) has no word to be part of there.
    check_before = _NAME_CHARS.match(fix.old[0]) is not None
    check_after = _NAME_CHARS.match(fix.old[-1]) is not None
    index = text.find(fix.old, start, stop)
    while index != -1:
        before = text[index - 1] if index > 0 and check_before else ""
        after = text[index + len(fix.old)] if index + len(fix.old) < len(text) and check_after else ""
        if not (before and _NAME_CHARS.match(before)) and not (after and _NAME_CHARS.match(after)):
            found.append(index)
        index = text.find(fix.old, index + 1, stop)
    if len(found) != 1:
        return None
    column = found[0] + 1
    return TextEdit(location.path, location.line, column, location.line, column + len(fix.old), fix.new)


def noqa_line_edits(finding: Finding, path: str, lines: list[str]) -> list[TextEdit]:
    """Candidate edits that put ``finding.code`` in a ``# noqa`` comment on a line
    of ``path`` where it silences the finding (its noqa ranges), best first: the
    last line of the launch, then earlier ones. Each must still be verified by
    :func:`comment_lines_after` (whether the source reads it as a comment)."""
    edits: list[TextEdit] = []
    for range_path, first, last in finding.noqa_ranges:
        if range_path != path:
            continue
        for line in range(min(last, len(lines)), max(first, 1) - 1, -1):
            edit = _noqa_edit(path, line, lines[line - 1], finding.code)
            if edit is not None:
                edits.append(edit)
    return edits


def _noqa_edit(path: str, line: int, text: str, code: str) -> TextEdit | None:
    stripped = text.rstrip()
    if stripped.endswith("\\"):
        return None  # a comment would end the continuation (SGL205)
    if _BARE_NOQA.search(text):
        return None  # a bare `# noqa` silences every code already
    existing = _NOQA_CODES.search(text)
    if existing is not None:
        codes = [c.strip().upper() for c in existing.group("codes").split(",")]
        if code in codes:
            return None
        end = existing.end("codes") + 1
        return TextEdit(path, line, end, line, end, f", {code}")
    column = len(stripped) + 1
    return TextEdit(path, line, column, line, len(text) + 1, f"  # noqa: {code}")


def apply_edits(lines: list[str], edits: list[TextEdit]) -> str:
    """The text of ``lines`` with ``edits`` (non-overlapping, one file) applied;
    an edit may span lines (a Python list regenerated by libcst)."""
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    text = "\n".join(lines)

    def offset(line: int, column: int) -> int:
        return starts[line - 1] + column - 1

    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        start, end = offset(edit.line, edit.column), offset(edit.end_line, edit.end_column)
        text = text[:start] + edit.new_text + text[end:]
    return text


def noqa_edit(finding: Finding, path: str, lines: list[str], comments_of) -> TextEdit | None:
    """The first candidate of :func:`noqa_line_edits` that the file's source
    reads as a comment holding the code: ``comments_of(text)`` gives the
    comment text by line of an edited text (the source's own reading)."""
    for edit in noqa_line_edits(finding, path, lines):
        comments: Mapping[int, str] = comments_of(apply_edits(lines, [edit]))
        comment = comments.get(edit.line, "")
        match = _NOQA_CODES.search(comment)
        if match and finding.code in [c.strip().upper() for c in match.group("codes").split(",")]:
            return edit
    return None


def preferred_edit(finding: Finding, sources: Mapping[str, list[str]]) -> tuple[Fix, TextEdit] | None:
    """The fix to show in a report (the preferred one first) with its edit, when
    one resolves against the file's lines; None otherwise. An insertion into a
    Python file is left out: it needs libcst, which a report never loads (it is
    applied by --fix and offered by the editor)."""
    for fix in sorted(finding.fixes, key=lambda f: not f.preferred):
        lines = sources.get(fix.location.path)
        if lines is None or ((fix.insert or fix.split) and fix.location.path.endswith(".py")):
            continue
        edit = resolve_fix(fix, lines)
        if edit is not None:
            return fix, edit
    return None
