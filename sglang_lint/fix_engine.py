"""The fix engine (issue 21): the fixes rules propose, applied to the files checked.

Ruff's model. Each :class:`~sglang_lint.model.Fix` has an applicability:
``safe`` fixes keep what is deployed and ``--fix`` applies them; ``unsafe`` ones
change it (the decode's ``--tp``, a misspelt option's meaning) and need
``--unsafe-fixes`` too; ``display-only`` ones are shown and never applied. The
``fixable`` / ``unfixable`` codes (config keys, like ruff's) narrow which rules'
fixes may be applied.

One pass: lint; for each finding take its fix (none when a rule offers
alternatives: only the user can choose, in an editor), find
its text in the file (:func:`sglang_lint.fixes.resolve_fix`, dropped when not
there exactly once), keep the edits that do not overlap an edit already taken,
and apply them to the file's text in memory. The edited text must still parse
as the file's kind did (``ast.parse`` for Python, ``bash -n`` for shell, the
YAML loader for YAML; nothing is run), else that file's edits are dropped with
a note. Then lint again with the edited texts as overlays (what the language
server does with unsaved buffers), up to ``MAX_PASSES`` passes, until no fix
applies: an edit can make or unmake another finding, and edits that overlapped
get their turn.

A fix is applied only inside the files the run was asked to check (never a
file read as context, a sourced helper outside the paths, or an installed
SGLang module), and only to a file whose bytes are the UTF-8 text that was
linted (a file that changed meanwhile, or in another encoding, is left alone
with a note). Nothing is written here: the caller writes (``--fix``) or shows a
diff (``--diff``).
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
from typing import Callable, Iterable, Mapping, Sequence

from msgspec import Struct

from sglang_lint.files import FileKind, is_inside, read_bytes, source_kind
from sglang_lint.fixes import TextEdit, apply_edits, resolve_fix
from sglang_lint.model import DISPLAY_ONLY, SAFE, UNSAFE, Finding, Fix
from sglang_lint.options import LintOptions, LintResult

# Lint-and-fix rounds at most (ruff stops at 100; our fixes do not chain long).
MAX_PASSES = 10
# `bash -n` on a fixed shell script: it parses, never runs; a bound all the same.
BASH_TIMEOUT = 10


class FixSettings(Struct, frozen=True):
    """Which fixes may be applied: ``unsafe`` ones too; only the codes (or
    prefixes) of ``fixable`` (None: every code); never those of ``unfixable``."""

    unsafe: bool = False
    fixable: frozenset[str] | None = None
    unfixable: frozenset[str] = frozenset()

    def code_fixable(self, code: str) -> bool:
        if any(_matches(code, pattern) for pattern in self.unfixable):
            return False
        return self.fixable is None or any(_matches(code, pattern) for pattern in self.fixable)

    def applies(self, fix: Fix) -> bool:
        if fix.applicability == DISPLAY_ONLY:
            return False
        return fix.applicability == SAFE or self.unsafe

    def fix_of(self, finding: Finding) -> Fix | None:
        """The fix of ``finding`` this run applies (:func:`chosen_fix`, of a
        fixable code, applicable), or None."""
        fix = chosen_fix(finding)
        return fix if fix is not None and self.code_fixable(finding.code) and self.applies(fix) else None

    def hides(self, finding: Finding) -> bool:
        """Whether ``finding`` has a fix this run leaves out only because it is
        unsafe (for the `--unsafe-fixes` hint)."""
        fix = chosen_fix(finding)
        return not self.unsafe and fix is not None and fix.applicability == UNSAFE and self.code_fixable(finding.code)


def _matches(code: str, pattern: str) -> bool:
    return pattern == "ALL" or code.startswith(pattern)


class FixOutcome(Struct):
    """What fixing did: the last lint (the findings that remain), the fixed
    text of each file that changed (path as shown -> (original, fixed)), how
    many findings of each code were fixed, the unsafe fixes left unapplied
    (for the hint), and notes on fixes that could not be applied."""

    result: LintResult
    texts: dict[str, tuple[str, str]] = {}
    # (path as shown, code, rule name, message) of each finding fixed.
    fixed: list[tuple[str, str, str, str]] = []
    hidden_unsafe: int = 0
    notes: list[str] = []

    @property
    def fixed_count(self) -> int:
        return len(self.fixed)


def chosen_fix(finding: Finding) -> Fix | None:
    """The fix of ``finding`` to apply: its only one. Alternatives (SGL201's
    abbreviation of two options that mean different things) are the user's to
    choose, in an editor's code actions: the command line applies none."""
    return finding.fixes[0] if len(finding.fixes) == 1 else None


def fix_paths(
    paths: Sequence[str],
    options: LintOptions,
    settings: FixSettings,
    lint: Callable[..., LintResult],
    first: LintResult | None = None,
) -> FixOutcome:
    """Lint ``paths`` (``lint(paths, options, overlays=...)``; ``first``: that
    lint, done already), apply the fixes ``settings`` allow, and lint again
    until none applies; nothing is written."""
    given = [os.path.abspath(path) for path in paths] or [os.path.abspath(".")]
    result = first if first is not None else lint(paths, options)
    originals: dict[str, str] = {}  # path as shown -> the text on disk
    current: dict[str, str] = {}  # path as shown -> the text fixed so far
    fixed: list[tuple[str, str, str, str]] = []
    notes: list[str] = []
    refused: set[str] = set()  # files no fix may touch (said once)
    for _ in range(MAX_PASSES):
        chosen = _edits(result, given, settings, originals, current, notes, refused)
        if not chosen:
            break
        changed = False
        for shown, picked in chosen.items():
            before = current.get(shown, originals[shown])
            after = apply_edits(before.split("\n"), [edit for _, edit in picked])
            if after == before:
                continue
            problem = _parse_problem(shown, before, after)
            if problem is not None:
                notes.append(f"{shown}: fixes not applied: the fixed file would not parse ({problem})")
                refused.add(shown)
                continue
            current[shown] = after
            changed = True
            fixed.extend((shown, finding.code, finding.name, finding.message) for finding, _ in picked)
        if not changed:
            break
        overlays = {os.path.abspath(shown): text for shown, text in current.items()}
        result = lint(paths, options, overlays=overlays)
    texts = {shown: (originals[shown], text) for shown, text in current.items() if text != originals[shown]}
    hidden = sum(1 for finding in result.findings if settings.hides(finding))
    return FixOutcome(result=result, texts=texts, fixed=fixed, hidden_unsafe=hidden, notes=notes)


def _edits(
    result: LintResult,
    given: list[str],
    settings: FixSettings,
    originals: dict[str, str],
    current: Mapping[str, str],
    notes: list[str],
    refused: set[str],
) -> dict[str, list[tuple[Finding, TextEdit]]]:
    """The edits of this pass by file: one per finding whose fix applies,
    resolved against the file's current text, none overlapping another."""
    chosen: dict[str, list[tuple[Finding, TextEdit]]] = {}
    context = set(result.context_files)
    for finding in result.findings:
        fix = settings.fix_of(finding)
        if fix is None:
            continue
        shown = fix.location.path
        if shown in refused or shown in context or not any(is_inside(os.path.abspath(shown), root) for root in given):
            continue
        if shown not in originals and not _read_original(shown, result, originals, notes, refused):
            continue
        _take(finding, fix, current.get(shown, originals[shown]).split("\n"), chosen.setdefault(shown, []))
    return {shown: picked for shown, picked in chosen.items() if picked}


def _take(finding: Finding, fix: Fix, lines: list[str], taken: list[tuple[Finding, TextEdit]]) -> None:
    """Add the edit of ``fix`` to ``taken`` when it resolves in ``lines`` and
    overlaps no edit taken (its turn comes in a later pass, if it still applies)."""
    edit = resolve_fix(fix, lines)
    if edit is not None and not any(_overlaps(edit, other) for _, other in taken):
        taken.append((finding, edit))


def document_fixes(findings: Iterable[Finding], shown: str, text: str, settings: FixSettings) -> list[tuple[Finding, TextEdit]]:
    """One round of the fixes ``settings`` allow among the findings of one
    file (``shown``, its text ``text``: an editor's buffer): the edits that do
    not overlap; none when the fixed text would not parse (the editor's "fix
    all" action, `source.fixAll.sglang-lint`)."""
    taken: list[tuple[Finding, TextEdit]] = []
    lines = text.split("\n")
    for finding in findings:
        fix = settings.fix_of(finding)
        if fix is not None and fix.location.path == shown:
            _take(finding, fix, lines, taken)
    if taken and _parse_problem(shown, text, apply_edits(lines, [edit for _, edit in taken])) is not None:
        return []
    return taken


def _read_original(shown: str, result: LintResult, originals: dict[str, str], notes: list[str], refused: set[str]) -> bool:
    """Keep the text of ``shown`` on disk, when it is the UTF-8 text that was
    linted (what the fix's positions refer to)."""
    data, note = read_bytes(shown)
    linted = result.sources.get(shown)
    text = None
    if data is not None and not data.startswith(b"\xef\xbb\xbf"):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
    if text is None or linted is None or text.split("\n") != linted:
        reason = note.message if note is not None else "not the UTF-8 text that was checked (changed meanwhile, or another encoding)"
        notes.append(f"{shown}: fixes not applied: {reason}")
        refused.add(shown)
        return False
    originals[shown] = text
    return True


def _overlaps(edit: TextEdit, other: TextEdit) -> bool:
    """Whether two edits touch the same text (two insertions at one place
    count: their order would be a guess)."""
    start, end = (edit.line, edit.column), (edit.end_line, edit.end_column)
    other_start, other_end = (other.line, other.column), (other.end_line, other.end_column)
    return (start < other_end and other_start < end) or start == other_start


def _parse_problem(shown: str, before: str, after: str) -> str | None:
    """Why ``after`` (the fixed text of ``shown``) no longer parses as its kind
    did, or None. A file that did not parse before is not judged by it."""
    kind = source_kind(shown, before)
    if kind is FileKind.PYTHON:
        check: Callable[[str], str | None] = _python_problem
    elif kind is FileKind.SHELL:
        check = _shell_problem
    elif kind is FileKind.YAML:
        check = _yaml_problem
    elif kind is FileKind.NOTEBOOK:
        check = _json_problem
    else:
        return None
    if check(before) is not None:
        return None
    return check(after)


def _python_problem(text: str) -> str | None:
    from sglang_lint.sources.python_interpreter import parse_python  # ast.parse without the file's warnings

    try:
        parse_python(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError) as error:
        return f"Python: {type(error).__name__}: {error}"
    return None


def _json_problem(text: str) -> str | None:
    """A notebook is JSON: an edit inside a cell's string must keep it so."""
    import json

    try:
        json.loads(text)
    except (ValueError, RecursionError) as error:
        return f"JSON: {error}"
    return None


def _shell_problem(text: str) -> str | None:
    """``bash -n``: bash reads the script without running any of it."""
    bash = shutil.which("bash")
    if bash is None:
        return None
    try:
        done = subprocess.run([bash, "-n"], input=text.encode("utf-8"), capture_output=True, timeout=BASH_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError) as error:
        return f"bash -n could not run: {error}"
    if done.returncode != 0:
        return "bash -n: " + done.stderr.decode("utf-8", "replace").strip().splitlines()[-1] if done.stderr.strip() else "bash -n failed"
    return None


def _yaml_problem(text: str) -> str | None:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        for _ in yaml.load_all(text, Loader=loader):
            pass
    except yaml.YAMLError as error:
        return f"YAML: {' '.join(str(error).split())}"
    except RecursionError:
        return "YAML: nested too deeply"
    return None


def unified_diff(texts: Mapping[str, tuple[str, str]]) -> str:
    """The changes as a unified diff, file by file in path order, that
    ``patch -p0`` (and ``git apply -p0``) applies from the current directory."""
    chunks: list[str] = []
    for shown in sorted(texts):
        before, after = texts[shown]
        lines = difflib.unified_diff(_diff_lines(before), _diff_lines(after), fromfile=shown, tofile=shown)
        chunks.append("".join(lines))
    return "".join(chunks)


def _diff_lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines


def write_fixed(texts: Mapping[str, tuple[str, str]]) -> list[str]:
    """Write each fixed text over its file (through a file beside it, renamed
    over it: never a half-written file); the problems, one per file."""
    problems: list[str] = []
    for shown, (_, after) in texts.items():
        target = os.path.realpath(shown)  # a symlink stays one
        temporary = f"{target}.sglang-lint-fix.tmp"
        try:
            mode = os.stat(target).st_mode
            with open(temporary, "w", encoding="utf-8", newline="") as handle:
                handle.write(after)
            os.chmod(temporary, mode & 0o7777)
            os.replace(temporary, target)
        except OSError as error:
            problems.append(f"{shown}: cannot write the fixed file: {error.strerror or error}")
            try:
                os.unlink(temporary)
            except OSError:
                pass
    return problems


def summary(outcome: FixOutcome, diff: bool = False, show_fixes: bool = False) -> Iterable[str]:
    """ruff's closing lines: what was fixed (or would be; with ``show_fixes``,
    per file and rule), and the hint about unsafe fixes left out."""
    if outcome.fixed_count:
        verb = "Would fix" if diff else "Fixed"
        yield f"{verb} {outcome.fixed_count} finding{'s' if outcome.fixed_count != 1 else ''}{':' if show_fixes else '.'}"
        if show_fixes:
            counts: dict[str, dict[tuple[str, str], int]] = {}
            for shown, code, name, _ in outcome.fixed:
                per_file = counts.setdefault(shown, {})
                per_file[(code, name)] = per_file.get((code, name), 0) + 1
            for shown in sorted(counts):
                yield f"- {shown}:"
                for (code, name), count in sorted(counts[shown].items()):
                    yield f"    {count} x {code} ({name})"
    if outcome.hidden_unsafe:
        count = outcome.hidden_unsafe
        yield f"{count} hidden fix{'es' if count != 1 else ''} can be enabled with the `--unsafe-fixes` option."
