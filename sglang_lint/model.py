"""The records that flow between the stages of sglang-lint.

sources -> (ServerLaunch / RouterLaunch with ArgTokens of Values)
        -> catalog (ServerSettings of Settings)
        -> topology (Deployments, pairs)
        -> rules (Findings) -> suppression -> report

Everything here is plain data: no parsing, no rule logic. The records are
``msgspec.Struct`` classes (issue 17): their ``__init__``, equality, ordering,
hashing (frozen ones) and pickling are written in C, at class creation without
``exec``; the frozen records made by the hundred thousand (``Location``,
``Value``, ``ArgToken``) are slotted and left out of the cyclic garbage
collector (``gc=False``: they hold only immutable values, so never a cycle).
``array_like`` records encode as JSON arrays in field order: the on-disk cache
(sglang_lint.cache) stores them with ``msgspec.json`` and decodes them typed.

Positions: ``line`` is 1-based, ``column`` is a 1-based count of Unicode code points
(what ruff's JSON output shows). Output formats that need bytes or UTF-16 convert from
this one unit with the line text.
"""

from __future__ import annotations

import enum
import itertools
from typing import Iterable, Iterator, Sequence

from msgspec import Struct
from msgspec.structs import force_setattr

# A value that could be any of more than this many strings is treated as unknown:
# the alternatives of nested branches multiply, and past this bound listing them
# helps nobody.
MAX_ALTERNATIVES = 64


class Location(Struct, frozen=True, order=True, gc=False, array_like=True):
    path: str
    line: int
    column: int
    # A span of 0 is a point: it ends where it starts (set in __post_init__).
    end_line: int = 0
    end_column: int = 0

    def __post_init__(self) -> None:
        if self.end_line == 0:
            force_setattr(self, "end_line", self.line)
        if self.end_column == 0 and self.end_line == self.line:
            force_setattr(self, "end_column", self.column)

    def short(self) -> str:
        return f"{self.path}:{self.line}"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


class Kind(enum.Enum):
    KNOWN = "known"
    ALTERNATIVES = "alternatives"
    SYMBOL = "symbol"
    CONCAT = "concat"
    UNKNOWN = "unknown"


class Value(Struct, frozen=True, gc=False, array_like=True):
    """A statically evaluated string.

    - KNOWN: ``text``.
    - ALTERNATIVES: one of ``alternatives`` (sorted, distinct, all known), e.g. the
      branches of an ``if`` or the items of a ``for`` loop.
    - SYMBOL: a name we cannot see (``$TP``, a function parameter), with the
      ``default`` of ``${TP:-8}`` when there is one.
    - CONCAT: a concatenation of ``parts`` at least one of which is not known
      (``--tp=$TP``, ``$HOST:8000``, ``--nodelist=<unknown>``).
    - UNKNOWN: nothing can be said; ``reason`` tells why.

    Build values with the constructors below; they keep the representation canonical
    so that equal values compare equal.
    """

    kind: Kind
    text: str = ""
    alternatives: tuple[str, ...] = ()
    name: str = ""
    default: str | None = None
    parts: tuple[Value, ...] = ()
    reason: str = ""

    def __reduce_ex__(self, protocol):  # type: ignore[override]
        # Worker processes send tens of thousands of values, mostly the same
        # few texts (`--tp-size`, `8`, `python3`): a known value travels as its
        # text and arrives as one shared (immutable) object per text. Unpickling
        # a full record each was most of the parent's share of a parallel run,
        # and the copies most of its memory (issue 7).
        if self.kind is Kind.KNOWN:
            return (_shared_known, (self.text,))
        return super().__reduce_ex__(protocol)

    # -- constructors -------------------------------------------------------------
    @staticmethod
    def known(text: str) -> "Value":
        return Value(Kind.KNOWN, text=text)

    @staticmethod
    def symbol(name: str, default: str | None = None) -> "Value":
        return Value(Kind.SYMBOL, name=name, default=default)

    @staticmethod
    def unknown(reason: str = "") -> "Value":
        return Value(Kind.UNKNOWN, reason=reason)

    @staticmethod
    def one_of(options: Iterable["Value"]) -> "Value":
        """The value of a variable set differently in several branches."""
        options = list(options)
        if not options:
            return Value.unknown("no alternatives")
        first = options[0]
        if all(o == first for o in options):
            return first
        texts: set[str] = set()
        for option in options:
            candidates = option.candidates()
            if candidates is None:
                # One branch we cannot see through makes the whole set open-ended.
                return Value.unknown("one of several branches is not static")
            texts.update(candidates)
        return Value._from_texts(texts)

    @staticmethod
    def _from_texts(texts: Iterable[str]) -> "Value":
        ordered = tuple(sorted(set(texts), key=_natural_key))
        if len(ordered) == 1:
            return Value.known(ordered[0])
        if len(ordered) > MAX_ALTERNATIVES:
            return Value.unknown(f"more than {MAX_ALTERNATIVES} alternatives")
        return Value(Kind.ALTERNATIVES, alternatives=ordered)

    @staticmethod
    def concat(values: Iterable["Value"]) -> "Value":
        """Concatenate, merging adjacent known text and expanding alternatives."""
        flat: list[Value] = []
        for value in values:
            pieces = value.parts if value.kind is Kind.CONCAT else (value,)
            for piece in pieces:
                if piece.kind is Kind.KNOWN and piece.text == "":
                    continue
                if flat and piece.kind is Kind.KNOWN and flat[-1].kind is Kind.KNOWN:
                    flat[-1] = Value.known(flat[-1].text + piece.text)
                else:
                    flat.append(piece)
        if not flat:
            return Value.known("")
        if len(flat) == 1:
            return flat[0]
        if all(p.kind is Kind.UNKNOWN for p in flat):
            reasons = [p.reason for p in flat if p.reason]
            return Value.unknown(reasons[0] if reasons else "")
        # A known prefix stays visible around an unknown piece: `--nodelist=$(...)`
        # is still an option of srun, `--tp=<unknown>` still names --tp.
        if all(p.kind in (Kind.KNOWN, Kind.ALTERNATIVES) for p in flat):
            combos = 1
            for p in flat:
                combos *= len(p.alternatives) if p.kind is Kind.ALTERNATIVES else 1
            if combos > MAX_ALTERNATIVES:
                return Value.unknown(f"more than {MAX_ALTERNATIVES} alternatives")
            texts = (
                "".join(choice)
                for choice in itertools.product(
                    *[p.alternatives if p.kind is Kind.ALTERNATIVES else (p.text,) for p in flat]
                )
            )
            return Value._from_texts(texts)
        return Value(Kind.CONCAT, parts=tuple(flat))

    # -- queries ------------------------------------------------------------------
    @property
    def is_known(self) -> bool:
        return self.kind is Kind.KNOWN

    def candidates(self) -> frozenset[str] | None:
        """Every string this value can be, or None when that set is open.

        A symbol's ``${VAR:-default}`` counts as its value (design.md: "a default
        from ${VAR:-8} counts as the value").
        """
        if self.kind is Kind.KNOWN:
            return frozenset((self.text,))
        if self.kind is Kind.ALTERNATIVES:
            return frozenset(self.alternatives)
        if self.kind is Kind.SYMBOL:
            return None if self.default is None else frozenset((self.default,))
        if self.kind is Kind.CONCAT:
            sets = [p.candidates() for p in self.parts]
            if any(s is None for s in sets):
                return None
            total = 1
            for s in sets:
                total *= len(s)  # type: ignore[arg-type]
            if total > MAX_ALTERNATIVES:
                return None
            return frozenset("".join(t) for t in itertools.product(*[sorted(s) for s in sets]))  # type: ignore[arg-type]
        return None

    @property
    def uses_default(self) -> bool:
        """True when the candidates come from a ``${VAR:-default}`` default."""
        if self.kind is Kind.SYMBOL:
            return self.default is not None
        if self.kind is Kind.CONCAT:
            return any(p.uses_default for p in self.parts)
        return False

    def literal_prefix(self) -> str:
        """The known text this value certainly starts with."""
        if self.kind is Kind.KNOWN:
            return self.text
        if self.kind is Kind.CONCAT and self.parts[0].kind is Kind.KNOWN:
            return self.parts[0].text
        if self.kind is Kind.ALTERNATIVES:
            return _common_prefix(self.alternatives)
        return ""

    def drop_prefix(self, count: int) -> "Value":
        """This value without its first ``count`` characters, which must be part of
        :meth:`literal_prefix`."""
        if count == 0:
            return self
        if self.kind is Kind.KNOWN:
            return Value.known(self.text[count:])
        if self.kind is Kind.ALTERNATIVES:
            return Value._from_texts(a[count:] for a in self.alternatives)
        if self.kind is Kind.CONCAT:
            head = Value.known(self.parts[0].text[count:])
            return Value.concat((head, *self.parts[1:]))
        raise ValueError("no literal prefix to drop")

    def describe(self) -> str:
        """Human-readable, as in messages: ``8``, ``{4, 8}``, ``$TP``, ``$TP (default 8)``."""
        if self.kind is Kind.KNOWN:
            return self.text
        if self.kind is Kind.ALTERNATIVES:
            return "{" + ", ".join(self.alternatives) + "}"
        if self.kind is Kind.SYMBOL:
            return self.name if self.default is None else f"{self.name} (default {self.default})"
        if self.kind is Kind.CONCAT:
            return "".join(p.text if p.is_known else _bracket(p) for p in self.parts)
        return "<unknown" + (f": {self.reason}>" if self.reason else ">")

    def __str__(self) -> str:
        return self.describe()


def merged_leaves(value: Value) -> Iterator[Value]:
    """The parts of ``value`` a merge of branches made: one of several texts,
    or unknown because it differs between branches or was set in only some."""
    if value.kind is Kind.ALTERNATIVES or (value.kind is Kind.UNKNOWN and "branches" in value.reason):
        yield value
    elif value.kind is Kind.CONCAT:
        for part in value.parts:
            yield from merged_leaves(part)


def merge_made(value: Value) -> bool:
    """Whether a merge of branches made ``value`` or a part of it. A source that
    explores branches (sources/paths.py) makes such values past its bounds;
    analysis asks whether one reached a setting."""
    return next(merged_leaves(value), None) is not None


def _bracket(value: Value) -> str:
    if value.kind is Kind.SYMBOL and (value.name[:1] in "<[{" or value.name.startswith(("${{", "$("))):
        # A runbook or template placeholder, or a Kubernetes `$(VAR)`, shown as
        # the user wrote it.
        return value.name
    if value.kind is Kind.SYMBOL:
        return "${" + value.name.lstrip("$") + (f":-{value.default}" if value.default is not None else "") + "}"
    return value.describe()


def is_ascii_digits(text: str) -> bool:
    """``str.isdigit`` also accepts "²" and "٣"; bash, argparse's int() on
    options and version numbers mean the ASCII digits only."""
    return text.isascii() and text.isdigit()


def _natural_key(text: str) -> tuple[int, int, str]:
    """Numbers in numeric order (2 before 16), then other text."""
    return (0, int(text), text) if is_ascii_digits(text) and len(text) < 20 else (1, 0, text)


def _common_prefix(texts: Iterable[str]) -> str:
    texts = list(texts)
    if not texts:
        return ""
    prefix = texts[0]
    for text in texts[1:]:
        while not text.startswith(prefix):
            prefix = prefix[:-1]
    return prefix


def _same_symbolically(a: Value, b: Value) -> bool:
    """Structurally the same expression, so equal whatever the unseen names hold."""
    if a.kind is Kind.UNKNOWN or b.kind is Kind.UNKNOWN:
        return False
    if any(p.kind is Kind.UNKNOWN for p in (*a.parts, *b.parts)):
        return False  # two unknown pieces are not the same value, whatever their reason
    return a == b and a.kind in (Kind.KNOWN, Kind.SYMBOL, Kind.CONCAT)


def provably_equal(a: Value, b: Value) -> bool:
    """Equal in every run: the same known text, or the same symbol/expression."""
    if _same_symbolically(a, b):
        return True
    ca, cb = a.candidates(), b.candidates()
    return ca is not None and cb is not None and len(ca) == 1 and ca == cb


def provably_different(a: Value, b: Value) -> bool:
    """Different in every run: the candidate sets are both closed and disjoint.

    The same symbol on both sides is never different, even with different defaults
    in two places, unless both defaults are what we compare (they are the values
    that count), so that case is decided by the defaults.
    """
    if _same_symbolically(a, b):
        return False
    ca, cb = a.candidates(), b.candidates()
    if ca is None or cb is None:
        return False
    return ca.isdisjoint(cb)


# ---------------------------------------------------------------------------------
# What sources produce


class ArgToken(Struct, frozen=True, gc=False, array_like=True):
    """One argv word of a launch.

    ``location`` is where the word appears in the command; ``origin`` is where its
    text was defined when that is elsewhere (the ``TP=8`` of ``--tp $TP``). A
    ``spread`` token stands for any number of words we cannot see (``"$@"`` of an
    unknown caller, an unknown array): options after it are not known to be final.

    ``held``: for a spread a merge of branches made (`[ -n "$X" ] && ARGS="$ARGS
    --x $X"` past the paths' bound), the words each way between the shared ones
    had (one tuple per way): it holds one of them, so it may set only the
    options they name (catalog.argv). None: any words.
    """

    value: Value
    location: Location
    origin: Location | None = None
    spread: bool = False
    held: tuple[tuple[Value, ...], ...] | None = None

    def describe(self) -> str:
        return self.value.describe()


_SHARED_KNOWN: dict[str, Value] = {}


def _shared_known(text: str) -> Value:
    """The KNOWN value of ``text``, one object per text (see Value.__reduce_ex__)."""
    value = _SHARED_KNOWN.get(text)
    if value is None:
        value = Value(Kind.KNOWN, text=text)
        if len(text) <= 256 and len(_SHARED_KNOWN) < 100_000:
            _SHARED_KNOWN[text] = value
    return value


class EntryPoint(enum.Enum):
    LAUNCH_SERVER = "sglang.launch_server"
    SGLANG_SERVE = "sglang serve"
    # `python -m sglang.multimodal_gen.runtime.entrypoints.cli.main serve`: the
    # diffusion server's own CLI (0.5.23 multimodal_gen/runtime/entrypoints/cli/main.py).
    DIFFUSION_SERVE = "sglang.multimodal_gen serve"
    DYNAMO_SGLANG = "dynamo.sglang"
    ROUTER = "sglang_router.launch_router"
    ROUTER_BINARY = "sglang-router"
    # Python: keyword arguments named after ServerArgs fields, not argv words.
    ENGINE = "sglang.Engine"
    SERVER_ARGS = "ServerArgs"
    # The frontend language's `sglang.Runtime(**fields)`: an HTTP server started
    # from ServerArgs keywords (0.5.23 lang/backend/runtime_endpoint.py:364-413).
    RUNTIME = "sglang.Runtime"


class UnderTest(enum.Enum):
    """Whether a launch is a server configuration a test builds rather than a
    server that runs (a fact the Python source records; topology decides what
    it means). SGLang's ``ServerArgs(...)`` starts nothing by itself: its
    ``__post_init__`` leaves the record unresolved (0.5.23
    srt/server_args.py:241-242); ``launch_server(server_args)``
    (srt/entrypoints/http_server.py:3125), ``run_server(server_args)``
    (launch_server.py:17) and ``Engine(...)`` (srt/entrypoints/engine.py:278,
    subprocesses at :330) start the server."""

    # A server that runs, or may: its configuration is launched, or passed on
    # where sglang-lint cannot see (a function of another module, a container).
    NO = "no"
    # A configuration a test function builds and only inspects (reads its
    # fields, calls its methods, asserts on it): never started, never paired.
    INSPECTED = "inspected"
    # Built or launched where the test expects an exception (``with
    # self.assertRaises(...)``, ``with pytest.raises(...)``, the callable form's
    # arguments): validation under test, expected to be invalid.
    EXPECTED_FAILURE = "expected-failure"


class KeywordArg(Struct, frozen=True, gc=False, array_like=True):
    """One keyword argument of ``sglang.Engine(...)`` / ``ServerArgs(...)``.

    ``name`` is the ServerArgs field (``tp_size``), None for a ``**mapping`` whose
    keys we cannot see (it may set any field). ``value`` is the text the field's
    option would carry on a command line: ``8``, ``true``/``false`` for booleans.
    """

    name: str | None
    value: Value
    location: Location
    origin: Location | None = None


class PathStep(Struct, frozen=True, gc=False, array_like=True):
    """One decision on the way to a launch variant (issue 16): the branch at
    ``location`` went the way ``text`` says ("$DPA is non-empty").

    ``key`` names what was decided, the same for every branch that decides the
    same thing in one run of the file (``[ -n "$DPA" ]`` and ``${DPA:+...}``);
    two variants whose steps give one key different outcomes cannot come from
    one run. ``taken`` is the outcome."""

    key: str
    taken: bool
    text: str
    location: Location

    def describe(self) -> str:
        return f"{self.text} ({self.location.short()})"


def describe_path(steps: Iterable[PathStep]) -> str:
    """``$DPA is non-empty (run.sh:4) and $ROLE is decode (run.sh:9)``."""
    return " and ".join(step.describe() for step in steps)


class WrittenValue(Struct, frozen=True, gc=False, array_like=True):
    """A value a file gives outside any argv, and where it is written."""

    value: Value
    location: Location


class Resources(Struct, frozen=True, gc=False, array_like=True):
    """What a job file allots one launch (an srt-slurm recipe's ``resources:`` for
    one role): ``workers`` servers like it run, on ``nodes`` nodes of
    ``gpus_per_node`` GPUs, each worker getting ``gpus_per_worker`` GPUs (the
    launcher's own arithmetic, None when it cannot be done statically) on
    ``nodes_per_worker`` nodes. None for what the file does not say."""

    location: Location
    workers: WrittenValue | None = None
    nodes: WrittenValue | None = None
    gpus_per_node: WrittenValue | None = None
    gpus_per_worker: int | None = None
    nodes_per_worker: int | None = None


class Heading(Struct, frozen=True, gc=False, array_like=True):
    """A Markdown heading: the line its text starts on, its level (1-6) and its
    text. A launch's ``section`` is the path of headings from the outermost to the
    innermost one above it: Markdown guides show alternative setups in sibling
    sections, and servers pair within a section (topology)."""

    line: int
    level: int
    title: str


class ServerLaunch(Struct, array_like=True):
    """An SGLang server start found in a file, with the arguments as written."""

    path: str
    location: Location  # the command's first word
    entry: EntryPoint
    args: list[ArgToken]
    # Line ranges (first, last) of the command and of every call site that led to
    # it (a function called once per role), for `# noqa` comments on any of them.
    line_ranges: tuple[tuple[int, int], ...] = ()
    # How the launch was reached, e.g. "serve() called at run.sh:12".
    context: str = ""
    # For ENGINE / SERVER_ARGS entries: the keyword arguments (``args`` is empty).
    keywords: tuple[KeywordArg, ...] = ()
    # A deployment scope inside the file: "" for the file itself; a Python test
    # class (each runs its own servers) gets its name.
    scope: str = ""
    # A variant of a launch whose argv differs between paths (issue 16): the
    # decisions every path to this argv made, and the paths (numbered per file)
    # that gave it. Both empty for a launch that is the same on every path.
    path_condition: tuple[PathStep, ...] = ()
    runs: tuple[int, ...] = ()
    # What a job file says about the servers besides their argv (an srt-slurm
    # recipe): how many run and on what, the environment they get, and the
    # container image they run in (as written: "lmsysorg+sglang+v0.5.5.sqsh").
    resources: Resources | None = None
    environment: tuple[tuple[str, Value], ...] = ()
    container_image: WrittenValue | None = None
    # A launch in a Markdown document: the headings of the section it is run in,
    # outermost first (empty before the first heading and in other files).
    section: tuple[Heading, ...] = ()
    # A configuration a test builds rather than a server that runs (UnderTest).
    under_test: UnderTest = UnderTest.NO


class RouterLaunch(Struct, array_like=True):
    path: str
    location: Location
    entry: EntryPoint
    args: list[ArgToken]
    line_ranges: tuple[tuple[int, int], ...] = ()
    context: str = ""
    scope: str = ""
    path_condition: tuple[PathStep, ...] = ()  # as for ServerLaunch
    runs: tuple[int, ...] = ()
    section: tuple[Heading, ...] = ()  # as for ServerLaunch


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Note(Struct, frozen=True, gc=False, array_like=True):
    """Something about a file the user should know that is not a rule finding:
    skipped, unreadable, parse trouble. Shown as SGL900 findings by the CLI."""

    path: str
    message: str
    line: int = 1
    column: int = 1
    # For a note in another file than the one analyzed (a helper a script
    # `source`s): the analyzed file's line whose run led there. A run over the
    # script alone (pre-commit names it, the helper is context) reports the
    # note for it; without this the helper's note was not reported at all.
    reached_from: Location | None = None


def reached_from(path: str, analyzed: str, call_stack: Sequence[tuple[str, Location, tuple[int, int]]]) -> Location | None:
    """For a note in ``path`` while the file ``analyzed`` runs: None in that
    file itself; in another (a helper it sources or imports), the analyzed
    file's outermost call on ``call_stack`` (the walkers' stack: name, call
    site, lines), its own line rather than a helper's call of a helper."""
    if path == analyzed:
        return None
    return next((location for _, location, _ in call_stack if location.path == analyzed), None)


class BrokenContinuation(Struct, frozen=True, gc=False, array_like=True):
    """A backslash meant to continue a launch's command line but followed by
    blanks (and maybe a comment) before the line's end: bash reads an escaped
    blank, the command ends at this line, and the next line runs on its own
    (a fact for rule SGL207).

    ``location``: the backslash and what follows it on its line; ``trailing``:
    that text after the backslash, as written; ``extra``: the words bash adds to
    the command from it (``(" ",)``; ``(" #", "the", "size")`` for ``\\ # the
    size``), empty when bash adds no word of its own (``8\\ `` is the word ``8 ``)
    or they are not plain words; ``orphaned``: the words of the
    next line(s) that run as a command of their own, None when none follow."""

    location: Location
    trailing: str
    extra: tuple[str, ...] = ()
    orphaned: Location | None = None


class VersionHint(Struct, frozen=True, gc=False, array_like=True):
    """A fact in a file that names the SGLang release its launches run
    (design.md: each deployment is judged with its own version): a container
    image (``kind`` "image": ``lmsysorg/sglang:v0.5.14-cu130``, an srt-slurm
    ``lmsysorg+sglang+v0.5.5.post2.sqsh``) for the launches on ``lines``, or an
    install pin (``kind`` "pin": ``pip install sglang==0.5.9``, a requirements
    line) for the whole file, or the version of the SGLang package the project
    holds (``kind`` "package": a checkout's, a fork's, an unpacked wheel's
    ``sglang/version.py``), whose launches run it.

    ``text``: as written; ``release``: the release it names (``"0.5.14"``,
    ``"0.5.5.post2"``), "" when it names none (``latest``, a nightly, an image
    that is not SGLang's); ``lines``: (first, last) line of the launches an
    image runs, (0, 0) for a pin."""

    kind: str
    text: str
    release: str
    location: Location
    lines: tuple[int, int] = (0, 0)

    def describe(self) -> str:
        """``image lmsysorg/sglang:v0.5.14-cu130 at d.yaml:91``."""
        if self.kind == "package":
            return f"SGLang package, version {self.text} at {self.location.short()}"
        what = "image" if self.kind == "image" else "pin"
        return f"{what} {self.text} at {self.location.short()}"


class SourceResult(Struct, array_like=True):
    """Everything one source extracted from one file."""

    path: str
    servers: list[ServerLaunch] = []
    routers: list[RouterLaunch] = []
    notes: list[Note] = []
    # Per-line text, kept for noqa and snippets (index 0 is line 1).
    lines: list[str] = []
    # Comment lines that ended a backslash continuation, each with the location of
    # the orphaned option words that follow it (facts for rule SGL205).
    continuation_breaks: list[tuple[Location, Location]] = []
    # Comment text by line (real comments only, not `#` inside strings), for
    # suppression directives.
    comments: dict[int, str] = {}
    # Backslashes followed by blanks (or a comment) inside a launch's command:
    # facts for rule SGL207.
    broken_continuations: list[BrokenContinuation] = []
    # The images and install pins that name the SGLang release of the launches
    # (catalog/versions picks each launch's version from them).
    version_hints: list[VersionHint] = []
    # The other files of the project this file's analysis read (a shell script's
    # `source`d helpers), each as (path as shown, digest of the text read; "" when
    # it did not exist): the result is stale when one of them changes (issue 19).
    dependencies: list[tuple[str, str]] = []
    # The names this module's top level binds to functions and classes whose
    # launches take what a caller gives (a parameter, a deriving class's
    # attributes): a file that imports one and launches nothing by its own
    # text is analyzed too (issue 20, extraction.extract_importers).
    exports: list[str] = []


def gives_nothing(result: SourceResult) -> bool:
    """A result that gives the cross-file stages nothing: no launch, comment,
    note or continuation break (and so keeps no lines: a finding never points
    into it, and the report reads the lines of any file one does)."""
    return not (result.servers or result.routers or result.notes or result.comments or result.continuation_breaks or result.broken_continuations or result.exports)


class Related(Struct, frozen=True, gc=False, array_like=True):
    location: Location
    message: str


# How far a fix may be applied (ruff's applicability, issue 21): ``safe`` keeps
# what is deployed (``--fix``), ``unsafe`` changes it (``--fix --unsafe-fixes``),
# ``display-only`` is shown and never applied.
SAFE = "safe"
UNSAFE = "unsafe"
DISPLAY_ONLY = "display-only"
APPLICABILITIES = (SAFE, UNSAFE, DISPLAY_ONLY)


class Fix(Struct, frozen=True, gc=False, array_like=True):
    """A replacement a rule proposes (a quick fix): the text ``old``, written
    inside ``location``, becomes ``new``. Rules know options, not source text;
    whoever applies a fix finds ``old`` in the file (sglang_lint.fixes) and drops
    the fix when it is not there exactly once."""

    title: str
    location: Location
    old: str
    new: str
    # The one to offer first when a finding has several (the likely intent).
    preferred: bool = False
    # SAFE, UNSAFE or DISPLAY_ONLY (above).
    applicability: str = UNSAFE
    # An insertion: these argv words go after the word written at ``location``
    # (``old`` unused), in the file's own syntax (sglang_lint.fix_edits).
    insert: tuple[str, ...] = ()
    # A split: the word at ``location``, ``OLD=VALUE``, becomes the two words
    # ``NEW`` and ``VALUE``, in the file's own syntax (sglang_lint.fix_edits).
    split: bool = False


class Finding(Struct, frozen=True, gc=False, array_like=True):
    code: str
    name: str
    message: str
    location: Location
    severity: Severity = Severity.ERROR
    related: tuple[Related, ...] = ()
    url: str = ""
    # (path, first line, last line) where a `# noqa` comment silences this
    # finding: every line of the launch it is about (and the calls that led to
    # it). The path is the launch's file, which need not be the primary
    # location's (a value set in a --config YAML file).
    noqa_ranges: tuple[tuple[str, int, int], ...] = ()
    # Quick fixes, when the fix is certain (or one of a few listed choices).
    fixes: tuple[Fix, ...] = ()
    # What to do, one sentence ("" when there is nothing to add to the message).
    help: str = ""
    # The why: how each value was derived, what SGLang does with it, version
    # history. One line each; ``message`` stays a single short line.
    notes: tuple[str, ...] = ()
    # The decisions along the path where the finding holds, when it does not
    # hold on every path (issue 16): shown as SARIF codeFlows.
    path: tuple[PathStep, ...] = ()

    def text_lines(self) -> list[str]:
        """The message, then ``help: ...`` and one ``note: ...`` per note: the
        whole finding as lines of text (editors, the LSP diagnostic)."""
        lines = [self.message]
        if self.help:
            lines.append(f"help: {self.help}")
        lines.extend(f"note: {note}" for note in self.notes)
        return lines

    def sort_key(self) -> tuple:
        # The related locations last: one decode with the same finding against two
        # prefills is listed in their order, not in a set's.
        return (self.location.path, self.location.line, self.location.column, self.code, self.message, tuple(r.location for r in self.related))

