"""What every rule module provides, and helpers for writing findings.

A rule reads settings and pairs; it never parses. Each rule module defines one
subclass of :class:`Rule` with its documentation (ruff's sections) and examples
that the test suite runs (Fixit's habit): ``valid`` examples yield no finding of
the rule, ``invalid`` ones yield exactly the listed number.
"""

from __future__ import annotations

from typing import ClassVar, Iterable, Sequence

from msgspec import Struct

from sglang_lint.catalog.settings import DIFFUSION, LLM, LLM_OR_DIFFUSION, Setting
from sglang_lint.model import Finding, Fix, Location, Related, Severity, SourceResult
from sglang_lint.selection import DOCS_URL
from sglang_lint.suppress import UnusedSuppression
from sglang_lint.topology import Deployment, Server


class Example(Struct, frozen=True):
    """Files of a small deployment (name -> text) for a rule's tests and docs."""

    files: dict[str, str]
    findings: int = 0
    # Text that must appear in every finding's text (message, help or notes).
    message_contains: str = ""
    target_version: str | None = None
    # Other rules the example needs running (SGL902 judges other rules' directives).
    also_select: tuple[str, ...] = ()


# The rules that report argparse's problems (SGL201-SGL203, SGL206): the catalog
# parsed each program's launch with its own parser.
ARGV_PROGRAMS = frozenset({LLM, DIFFUSION, LLM_OR_DIFFUSION})


class RuleContext(Struct):
    version: str


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity] = Severity.ERROR
    summary: ClassVar[str]
    doc: ClassVar[str]
    valid: ClassVar[list[Example]] = []
    invalid: ClassVar[list[Example]] = []

    # An opt-in rule runs only with --strict (LintOptions.strict) or when selected
    # by its code.
    opt_in: ClassVar[bool] = False

    # Whether its findings carry a fix (issue 21; ruff's rule metadata): "" never,
    # "sometimes" (when the value's origin is in a file the fix can edit), "always".
    fix: ClassVar[str] = ""

    # The server programs (ServerSettings.program) whose launches the rule
    # judges: the LLM server's rules do not hold for the diffusion server, and
    # for an `sglang serve` the model alone decides (LLM_OR_DIFFUSION), only what
    # the catalog kept as holding under both readings does (ARGV_PROGRAMS).
    programs: ClassVar[frozenset[str]] = frozenset({LLM})

    def judges(self, *servers: Server) -> bool:
        return all(server.settings.program in self.programs for server in servers)

    def check_pair(self, context: RuleContext, deployment: Deployment, prefill: Server, decode: Server) -> Iterable[Finding]:
        """Every prefill x decode pair a router can form (design.md "Pairing")."""
        return ()

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        """Every server once (a server two routers name is still checked once),
        for constraints of one launch (its argv, its own parallel sizes)."""
        return ()

    def check_source(self, context: RuleContext, source: SourceResult) -> Iterable[Finding]:
        """Every analyzed file once, for the facts a source recorded about the
        file itself (``SourceResult.continuation_breaks``)."""
        return ()

    def check_suppressions(self, context: RuleContext, unused: Sequence[UnusedSuppression]) -> Iterable[Finding]:
        """After suppression: the directive codes that silenced no finding."""
        return ()

    # -- helpers for rule authors -------------------------------------------------
    def finding(
        self,
        message: str,
        location: Location,
        related: Iterable[Related] = (),
        noqa_ranges: tuple[tuple[str, int, int], ...] = (),
        fixes: Iterable[Fix] = (),
        help: str = "",
        notes: Iterable[str] = (),
    ) -> Finding:
        """A finding of this rule. ``message`` is one line under 120 characters
        saying what is wrong; ``help`` says what to do (one sentence); ``notes``
        say why: how each value was derived, what SGLang would do, versions."""
        return Finding(
            code=self.code,
            name=self.name,
            message=message,
            location=location,
            severity=self.severity,
            related=tuple(related),
            url=DOCS_URL.format(code=self.code.lower()),
            noqa_ranges=noqa_ranges,
            fixes=tuple(fixes),
            help=help,
            notes=tuple(n for n in notes if n),
        )


def setting_location(server: Server, setting: Setting) -> Location:
    """Where to point for a setting: where its value was written (the call site
    of ``serve decode 4``, the ``TP=8`` line), else the option, else the launch."""
    if setting.origin is not None:
        return setting.origin
    if setting.location is not None:
        return setting.location
    return server.launch.location


# A value a fix may write into any literal unchanged: no quote, blank, `$`, `\`.
_PLAIN_VALUE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:/+-")


def value_fix(title: str, setting: Setting, new_text: str, other: Setting | None = None, preferred: bool = True) -> Fix | None:
    """An unsafe fix that gives ``setting`` the value ``new_text`` where its
    value was written (issue 21): at its origin (the ``TP=8`` line, a Python
    constant, a ``--config`` YAML key's line), else right after its option
    (``--page-size 32``, ``--page-size=32``, ``"--page-size", "32"``,
    ``page_size=32``); the text between quotes only, so the quoting stays.

    None where the edit would guess: a value SGLang defaults (nothing written to
    change), one that is not a single known text (an environment variable, a
    value a later ``"$@"`` may override), a value defined once for both sides
    (``other``'s origin too: the edit would change the other side as well), or
    a new value that is not a plain word. The fix engine drops it too when the
    old text is not found exactly once where it points."""
    value = setting.value
    if setting.location is None or setting.written is not None or not value.is_known or not value.text:
        return None
    old = value.text
    if old == new_text or not new_text or not set(new_text) <= _PLAIN_VALUE or not set(old) <= _PLAIN_VALUE:
        return None
    if setting.origin is not None:
        if other is not None and other.origin == setting.origin:
            return None
        where = setting.origin
        # To the end of the line of the definition.
        location = Location(where.path, where.line, where.column, where.line + 1, 1)
    else:
        where = setting.location
        if where.end_line > where.line:
            # The option and its value on two lines (YAML list items, a
            # continuation): the value is on the last one.
            location = Location(where.path, where.end_line, 1, where.end_line, where.end_column + 2)
        else:
            # The option and the word after it: `--page-size "32"`, `"--page-size", "32"`.
            end = max(where.end_column + 2, where.column + len(setting.spelling) + len(old) + 8)
            location = Location(where.path, where.line, where.column, where.line, end)
    return Fix(title, location, old, new_text, preferred=preferred)


def append_fix(title: str, server: Server, words: tuple[str, ...]) -> Fix | None:
    """An unsafe fix that adds argv ``words`` after the last word of ``server``'s
    launch (after its last keyword for ``Engine(...)``: ``--page-size 16``
    becomes ``page_size=16``), written as the file writes the launch
    (sglang_lint.fix_edits). None when the launch has no word of its own to
    follow, or its last word may be followed by arguments we cannot see (a
    spread: they may set the option again)."""
    launch = server.launch
    if launch.args:
        last = launch.args[-1]
        if any(token.spread for token in launch.args) or last.location.path != launch.location.path:
            return None
        anchor = last.location
    elif launch.keywords:
        if any(keyword.name is None for keyword in launch.keywords):
            return None  # a **mapping we cannot see
        anchor = launch.keywords[-1].location
    else:
        return None
    return Fix(title, anchor, "", "", preferred=True, insert=words)


def give_decode(what: str, option: str, prefill: Setting, decode: Server, setting: Setting) -> tuple[Fix, ...]:
    """The pair rules' fix (SGL003/004/006/010): the decode takes the prefill's
    value of ``option`` (named ``what`` in the title) where its own was written
    (:func:`value_fix`), or, when SGLang's default stands on the decode, the
    option added after its launch's last word (:func:`append_fix`). Nothing when
    the prefill's value is not one known text."""
    if not prefill.value.is_known:
        return ()
    new_text = prefill.value.text
    title = f"Give the decode the prefill's {what} {new_text}"
    if setting.location is None:
        fix = append_fix(title, decode, (option, new_text)) if new_text and set(new_text) <= _PLAIN_VALUE else None
    else:
        fix = value_fix(title, setting, new_text, other=prefill)
    return (fix,) if fix is not None else ()


def orphaned_words(source: SourceResult, location: Location, width: int) -> str:
    """The words a broken continuation left on their own, as written: their
    first line, shortened to ``width`` characters (SGL205, SGL207)."""
    if not (1 <= location.line <= len(source.lines)):
        return ""
    line = source.lines[location.line - 1]
    end = location.end_column - 1 if location.end_line == location.line and location.end_column > location.column else len(line)
    text = line[location.column - 1 : end].strip().rstrip("\\").strip()
    if location.end_line > location.line:
        text += " ..."
    return text if len(text) <= width else text[: width - 3] + "..."


def launch_noqa_ranges(server: Server) -> tuple[tuple[str, int, int], ...]:
    return tuple((server.launch.path, first, last) for first, last in server.launch.line_ranges)
