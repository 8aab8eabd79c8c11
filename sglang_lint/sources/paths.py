"""Launch variants (issue 16): one run of a source's interpreter per path through
the branches that matter, and the launches of those runs as variants.

A branch whose condition the file decides (``[[ "$1" == decode ]]`` in a function
called with ``decode``) has one way to go. One it does not decide (``[ -n "$DPA"
]``, an environment variable) used to be merged: each variable became the values
of both branches, and an array or string whose words differ between them became
unknown, so the launch built from it was lost. Instead, the interpreter asks
``Paths.decide`` for the outcome of such a branch:

- on a path that has fixed it (a key the path holds), it goes that way;
- otherwise, if the branch made a difference (a variable differs between its
  bodies, or a launch is inside one), the run stops there (``Fork``) and the
  explorer runs the file again, once with each outcome fixed.

A branch that only changed variables is forked when a launch came out
imprecise, and then only a branch that launch's merged words came from
(``Paths.launch``'s ``relevant``: the Python interpreter records what each
merged value was merged over, and the early returns a launch comes after), or,
when that is not known, any branch met.

Every path is one run of the interpreter from the start: a path fixes a prefix of
decisions and, the interpreter being deterministic, meets the same branches in
the same order up to its next fork. So a run need not stop at a decision the
explorer already knows it must fork on (``learned``: the branches the first,
merging run found a launch's merged words came from, and any a later run
stopped at): it takes the decision's true way where it meets one, and leaves
the false way as a path of its own (``Paths.take``). Each run is then a path's
whole run, not one that stops at its end (SGLang's Ascend multi-node PD test
utilities: 117 runs -> 66). The paths are bounded (``MAX_PATHS`` per
file, and ``MAX_WORK`` interpreted commands over all runs); past the bound a run
merges the remaining branches as before, with a note naming the line where
precision was lost.

``variants()`` then groups the launches of all paths: the same launch (the same
place, call chain and occurrence) with the same argv on every path is one launch,
as before; otherwise each distinct argv is a variant carrying the decisions all
its paths share (``ServerLaunch.path_condition``) and the paths that gave it
(``runs``), which topology uses to pair only variants that can run together.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Callable, Iterable, Mapping

from msgspec.structs import replace

from sglang_lint.model import ArgToken, Kind, Location, Note, PathStep, RouterLaunch, ServerLaunch, SourceResult, Value, merge_made

# Paths per file: each is a run of the file's interpreter, so this bounds the work
# a file with many independent branches costs (2**6 launches variants at most).
MAX_PATHS = 64
# Commands interpreted over all the runs of one file (a run counts its own). SGLang's
# PD test fixtures (disaggregation_fixture.py: 28 paths of ~1,700 steps, the test
# modules deriving it) need up to 96,000; the slowest file then takes 2 s.
MAX_WORK = 100_000


# How the sources' notes about a launch they could not follow begin.
NOT_FOLLOWED = "launch not analyzed"
# What the note says when the paths' bounds were reached and the branches past
# them were merged; analysis keeps it only where a merged value reached a
# launch's setting (analysis.merges_that_matter).
MERGED_PAST_BOUND = "from here on, values that differ between branches are merged"


class Fork(Exception):
    """Raised by the interpreter at the first branch a path has not fixed that
    made a difference."""

    def __init__(self, key: str, steps: tuple[PathStep, PathStep]) -> None:
        super().__init__(key)
        self.key = key
        self.steps = steps  # (the step when true, the step when false)
        self.cost = 0  # the commands the run interpreted before it (set by the runner)


# The key under which ``explore``'s ``learned`` keeps what the merged run
# reached (``Paths.reached``) for an analysis that skips that run; no decision
# key is spelled so.
_REACHED = "\0reached by the merged run"


class Paths:
    """What one run of an interpreter knows about its path: the decisions fixed
    for it, and whether it may fork (else it merges, and remembers where)."""

    def __init__(
        self, fixed: dict[str, PathStep] | None = None, may_fork: bool = False, learned: Mapping[str, object] | None = None, room: int = 0
    ) -> None:
        self.fixed: dict[str, PathStep] = dict(fixed or {})
        self.may_fork = may_fork
        # Decisions another run of the file had to fork on, and how many more
        # paths this run may leave to others (``take``); the paths it left,
        # in the order it left them.
        self.learned: Mapping[str, object] = learned or {}
        self.room = room
        self.spawned: list[dict[str, PathStep]] = []
        # Where a branch that made a difference was merged (no budget to fork).
        self.merged_at: list[Location] = []
        # Inside the bodies of a branch that may fork itself: a branch nested in
        # them is decided on the paths that fix the outer one first.
        self.suspended = 0
        # A launch was found inside a branch that was merged.
        self.conditional = False
        # Branches that made a difference and were merged on this path, in the
        # order met: forked only when a launch needs them (``launch``).
        self.candidates: dict[str, tuple[PathStep, PathStep]] = {}
        # In a run that may not fork (the explorer's first): the fork a run
        # that may would have stopped at first. Up to there the two runs are
        # the same, so the explorer starts from its two ways instead of
        # running the file again only to stop there (issue 24: a PD test whose
        # launches fork on `is_in_ci()` at their end ran 4 times, now 3).
        self.first_fork: tuple[str, tuple[PathStep, PathStep]] | None = None
        # In that run: every merged branch a launch's words came from (the
        # explorer's ``learned``, taken by the runs after it).
        self.needed: dict[str, tuple[PathStep, PathStep]] = {}
        # Every branch over a key that made a difference, in the order met
        # (repeats too): a source that knows which part of a run a launch came
        # from tells ``launch`` which of them it may have read.
        self.met: list[str] = []
        # What a source's merged run reached by the file's own flow (the
        # explorer's first run sets it, and hands it to the runs after it): a
        # source may tell from it that a part one path does not reach runs on
        # another (python_interpreter: a function only a branch calls is no
        # entry point of its own on the path that skips the call; there, each
        # function by its name and nesting depth).
        self.reached: frozenset[tuple[str, int]] | None = None
        # Decisions the rest of this run holds to because their other way ended
        # the script (a guard: `[ -z "$TP" ] && exit 1`, `if not model: raise`):
        # past it `$TP` is non-empty. Not a decision of the path (every run
        # that goes on holds to it), so no launch variant names it.
        self.guarded: dict[str, PathStep] = {}

    def known(self) -> dict[str, PathStep]:
        """The decisions this run holds to: fixed for it, and past guards."""
        return {**self.guarded, **self.fixed} if self.guarded else self.fixed

    def guard(self, step: PathStep) -> None:
        """Past a branch whose other way ended the script: ``step`` holds."""
        if step.key not in self.fixed:
            self.guarded[step.key] = step

    def guard_from(self, key: str, steps: tuple[PathStep, PathStep], decide: Callable[[], bool | None], holds: bool) -> None:
        """Past a branch one of whose ways ended the script, where the way that
        goes on is the one under which ``decide()`` (the branch's condition,
        decided on this run's decisions) is ``holds``: the decision ``key``
        holds the way that gives it, when it alone decides the condition, each
        way its own; else, when the condition takes the ending way for an empty
        value of its subject, that subject is non-empty (past `[ "$M" !=
        prefill ] && [ "$M" != decode ] && exit`, `$M` is one of them, so not
        empty, though neither for sure)."""
        if key in self.fixed:
            return
        verdicts = [self._deciding(key, step, decide) for step in steps]
        if None not in verdicts and verdicts[0] != verdicts[1]:
            self.guard(steps[verdicts.index(holds)])
            return
        subject = key.split("\0")[1] if key.count("\0") >= 1 else ""
        empty_key = f"nonempty\0{subject}"
        if not subject.startswith("$") or key == empty_key or empty_key in self.fixed or empty_key in self.guarded:
            return
        where = steps[0].location
        empty = PathStep(empty_key, False, f"{subject} is empty", where)
        verdict = self._deciding(empty_key, empty, decide)
        if verdict is not None and verdict != holds:
            self.guard(PathStep(empty_key, True, f"{subject} is non-empty", where))

    def _deciding(self, key: str, step: PathStep, decide: Callable[[], bool | None]) -> bool | None:
        self.fixed[key] = step
        try:
            return decide()
        finally:
            del self.fixed[key]

    def outcome(self, key: str) -> bool | None:
        step = self.fixed.get(key)
        return None if step is None else step.taken

    def take(self, key: str, steps: tuple[PathStep, PathStep]) -> bool | None:
        """A branch this path has not fixed, met before its bodies run: when
        another run of the file had to fork on it (``learned``), take the
        decision's true way now (True) and leave the false way to a run of
        its own (``spawned``). The caller decides its condition on the path
        that now fixes the decision: a condition may negate it (`!=`).

        Such a run used to merge the branch, reach its end, find the launch
        imprecise and stop (``Fork``): a whole run for nothing at each
        decision of each path (SGLang's Ascend multi-node test utilities: 57
        of 117 runs; issue 20). The run from the start with the same
        decisions fixed meets the same branches in the same order, so taking
        the way here is that run."""
        if not self.may_fork or self.suspended or key not in self.learned or self.room < 1:
            return None
        when_true, when_false = steps
        self.spawned.append({**self.fixed, key: when_false})
        self.fixed[key] = when_true
        self.room -= 1
        return True

    def differs(self, key: str | None, steps: tuple[PathStep, PathStep] | None, where: Location | None, launched: bool = False) -> None:
        """A branch over ``key`` (None: no key, e.g. a loop) made a difference and
        was not fixed (``launched``: a launch is inside it): fork if this run
        may, else remember the merge."""
        self.conditional = self.conditional or (launched and key is not None)
        if self.suspended or key is None or steps is None:
            return
        self.met.append(key)
        if not self.may_fork or self.room < 1:
            if where is not None:
                self.merged_at.append(where)
            if self.first_fork is None:
                if launched:
                    self.first_fork = (key, steps)
                else:
                    self.candidates.setdefault(key, steps)
            return
        if launched:
            raise Fork(key, steps)  # a launch inside: it exists on some paths only
        # Merged for now: most branches (a log file name, a retry count) change
        # nothing a launch reads.
        self.candidates.setdefault(key, steps)

    def launch(self, imprecise: bool, relevant: Iterable[str] | None = None) -> None:
        """A launch was recorded (or could not be followed). When a word of it
        is one a merge may have made (``imprecise``), fork on the first merged
        branch it read (``relevant``: the keys of what it read; None: not
        known, any merged branch may be)."""
        if not imprecise or not self.candidates:
            return
        for key, steps in self.candidates.items():
            if relevant is None or key in relevant:
                if not self.may_fork:
                    # The explorer's first run: every branch the launch's
                    # merged words came from is one the runs will fork on.
                    if self.first_fork is None:
                        self.first_fork = (key, steps)
                    self.needed.setdefault(key, steps)
                    continue
                if self.room < 1:
                    # No path left to split into (this run took its share):
                    # merged past the bound, and the explorer says so.
                    self.merged_at.append(steps[0].location)
                    return
                raise Fork(key, steps)


class suspended:
    """``with suspended(paths, fork):`` around the bodies of a branch over
    ``fork`` (None: not a decision, nothing suspended)."""

    def __init__(self, paths: Paths, fork) -> None:
        self.paths = paths
        self.active = fork is not None

    def __enter__(self) -> None:
        if self.active:
            self.paths.suspended += 1

    def __exit__(self, *exc) -> None:
        if self.active:
            self.paths.suspended -= 1


# Between the texts of an ``in`` decision's key (``in\\0$X\\0true<US>1``).
IN_SEPARATOR = "\x1f"


def implied(fixed: dict[str, PathStep], key: str) -> bool | None:
    """A decision the path fixed, or one that follows from them: ``$ROLE`` is
    ``decode`` means it is not ``prefill``, is non-empty and matches ``d*``.
    Keys over a value the run does not set are ``nonempty\\0$X``, ``eq\\0$X\\0text``
    and ``glob\\0$X\\0pattern|pattern`` (the same in every source, so that a
    shell test and a Python condition over one variable agree), and Python's
    ``in\\0$X\\0text<IN_SEPARATOR>text`` (``os.getenv("X") in ("a", "b")``) and
    ``set\\0$X`` (``os.getenv("X") is None``)."""
    if key in fixed:
        return fixed[key].taken
    kind, subject, *rest = key.split("\0")
    if kind == "glob" and rest and rest[0] == "*":
        return True
    if kind == "set":
        # Python's `os.getenv("X") is None` (set: X has a value, maybe empty).
        # A value the path fixed, a non-empty one, one among texts is set.
        for other, step in fixed.items():
            other_kind, other_subject, *other_rest = other.split("\0")
            if other_subject == subject and step.taken and (other_kind in ("nonempty", "in") or (other_kind == "eq" and other_rest[0] != "")):
                return True
        return None
    unset = fixed.get(f"set\0{subject}")
    if unset is not None and not unset.taken:
        # Unset: Python's os.getenv gives None, which is empty, equal to no
        # text and in no tuple of texts (only Python makes `set` keys).
        return False if kind in ("eq", "nonempty", "in") else None
    if kind == "in" and rest:
        # Known when the path fixed the value itself (`$X` is 'a', or empty).
        for other, step in fixed.items():
            other_kind, other_subject, *other_rest = other.split("\0")
            if other_subject == subject and other_kind == "eq" and step.taken:
                return other_rest[0] in rest[0].split(IN_SEPARATOR)
            if other_subject == subject and other_kind == "nonempty" and not step.taken:
                return "" in rest[0].split(IN_SEPARATOR)
        return None
    if kind not in ("eq", "glob", "nonempty"):
        return None
    for other, step in fixed.items():
        other_kind, other_subject, *other_rest = other.split("\0")
        if other_subject != subject:
            continue
        if other_kind == "eq" and step.taken:
            value = other_rest[0]
        elif other_kind == "nonempty" and not step.taken:
            value = ""
        else:
            # What the value is not: `$X` that does not match `decode|d` is not
            # `decode`; one that matches `p*` is not `decode`; a non-empty one is
            # not ''.
            if kind == "eq" and other_kind == "glob" and _matches(rest[0], other_rest[0]) != step.taken:
                return False
            if kind == "eq" and other_kind == "nonempty" and step.taken and rest[0] == "":
                return False
            if kind == "nonempty" and other_kind == "in" and step.taken and "" not in other_rest[0].split(IN_SEPARATOR):
                return True  # one of texts that are not empty
            continue
        if kind == "eq":
            return value == rest[0]
        if kind == "nonempty":
            return value != ""
        return _matches(value, rest[0])
    return None


# The `|` between a decision's alternatives; one in brackets (`a[|]b*`, a
# quoted `|` of the pattern) is the character.
_ALTERNATIVES = re.compile(r"\|(?![^\[]*\])")


def _matches(value: str, patterns: str) -> bool:
    return any(fnmatch.fnmatchcase(value, pattern) for pattern in _ALTERNATIVES.split(patterns))


def subject(value: Value) -> str | None:
    """A value the run's environment or caller decides (a symbol), named as the
    decisions over it name it: ``$DPA``, ``$1``, ``${ROLE:-prefill}``."""
    if value.kind is not Kind.SYMBOL:
        return None
    if value.default in (None, ""):
        return value.name
    if value.name.startswith("$"):
        return "${" + value.name[1:] + ":-" + value.default + "}"
    return f"{value.name}:-{value.default}"


def decision(key: str, texts: tuple[str, str], where: Location) -> tuple[str, tuple[PathStep, PathStep]]:
    """A branch to fork on: its key and its two steps (true, false)."""
    return key, (PathStep(key, True, texts[0], where), PathStep(key, False, texts[1], where))


def explore(
    run: Callable[[Paths], tuple[SourceResult, int]],
    imprecise: Callable[[SourceResult], bool] | None = None,
    learned: dict[str, tuple[PathStep, PathStep] | None] | None = None,
) -> list[tuple[dict[str, PathStep], SourceResult]]:
    """Every path's result, in order (the true outcome first). ``run(paths)``
    interprets the file once and returns its result and the commands it
    interpreted; it raises ``Fork`` at a branch it must split.

    The first run merges every branch, as a file without variants needs: when no
    launch came out imprecise (``imprecise``, by default a word that is
    alternatives or unknown) or inside a branch that made a difference, the
    merges lost nothing a launch uses, and that run is the answer (most files,
    and every file that launches nothing: its branches are never forked).

    ``learned``: the decisions an earlier analysis of the file forked on (an
    editor's previous version of it), filled with this one's. Given some,
    the merged first run is skipped: the runs fork from the start, taking
    those decisions where they meet them (one run of the file less for each
    edit; a hint the file no longer needs costs a run whose launches are
    the same as its sibling's, folded by ``variants``)."""
    learned = {} if learned is None else learned
    leaves: list[tuple[dict[str, PathStep], SourceResult]] = []
    pending: list[dict[str, PathStep]] = [{}]
    work = 0
    if not learned:
        first_paths = Paths({}, may_fork=False)
        first, work = run(first_paths)
        if not first_paths.merged_at or not (first_paths.conditional or (imprecise or _imprecise)(first)):
            return [({}, first)]
        if first_paths.first_fork is None:
            # No branch it merged is one a launch read or sits in: a run that
            # may fork meets the same branches and forks on none of them, so it
            # is this run again (SGLang's test_utils.py: 0.14 s for nothing;
            # a launch whose merged words' branches are not known forks on any
            # branch it met, and so has a first fork).
            return [({}, first)]
        # The decisions runs had to fork on: a later run takes a way at them
        # as it meets them (Paths.take) instead of stopping at its end.
        learned.update(first_paths.needed)
        if first_paths.reached is not None:
            learned[_REACHED] = first_paths.reached  # (for the next analysis, which skips this run)
    else:
        first_paths = Paths({}, may_fork=False)  # (no first run: nothing it met)
    reached = first_paths.reached if first_paths.reached is not None else learned.get(_REACHED)
    if first_paths.first_fork is not None:
        # The first run met the fork a run from the start would stop at.
        key, (when_true, when_false) = first_paths.first_fork
        learned[key] = (when_true, when_false)
        pending = [{key: when_false}, {key: when_true}]
    noted = False
    while pending:
        fixed = pending.pop()
        out_of_work = work >= MAX_WORK
        # This run is one path; each it leaves or splits into is one more.
        room = 0 if out_of_work else MAX_PATHS - len(leaves) - len(pending) - 1
        paths = Paths(fixed, room >= 1, learned, room)
        paths.reached = reached
        try:
            result, cost = run(paths)
        except Fork as fork:
            work += fork.cost
            learned.setdefault(fork.key, fork.steps)
            when_true, when_false = fork.steps
            # Popped from the end: the true outcome runs first, then the ways
            # the run left, the last one first (depth first, as the runs that
            # stopped at each of them would have been).
            pending.extend(paths.spawned)
            pending.append({**paths.fixed, fork.key: when_false})
            pending.append({**paths.fixed, fork.key: when_true})
            continue
        work += cost
        pending.extend(paths.spawned)
        fixed = paths.fixed
        # Said once, when the merges past the bound may have cost a launch its
        # precision (``imprecise``, when the source can tell; else any launch).
        if paths.merged_at and not noted and (imprecise(result) if imprecise else (result.servers or result.routers)):
            noted = True
            where = paths.merged_at[0]
            # Which bound stopped the forks: the paths, or the work of all runs
            # (a file whose every run is long: SGLang's test helpers).
            bound = f"more than {MAX_PATHS} paths through the branches of this file" if not out_of_work else f"exploring the branches of this file took more than {MAX_WORK:,} steps"
            result.notes.append(
                Note(
                    where.path,
                    f"{bound}: {MERGED_PAST_BOUND} (and may be unknown) instead of giving launch variants",
                    where.line,
                    where.column,
                )
            )
        leaves.append((fixed, result))
    return leaves


def launch_values(launch) -> list[Value]:
    """The values of a launch's words and (a ServerLaunch's) keywords."""
    return [token.value for token in launch.args] + [keyword.value for keyword in getattr(launch, "keywords", ())]


def not_followed(notes: Iterable[Note]) -> bool:
    """Whether one of ``notes`` says a launch could not be followed."""
    return any(note.message.startswith(NOT_FOLLOWED) for note in notes)


def imprecise_launch(launch) -> bool:
    """A word a merge may have made: alternatives, unknown, or within a concat."""
    return any(_merged_shape(value) for value in launch_values(launch))


def merged_launch(launch) -> bool:
    """A word a merge of branches made: alternatives, or unknown because it
    differs between branches or was set in only some (not a parameter or a
    call result we cannot see)."""
    return any(merge_made(value) for value in launch_values(launch))


def merge_imprecise(result: SourceResult) -> bool:
    """:func:`_imprecise` for a source whose unknown values say why
    (:func:`merged_launch`): a launch with a word a merge of branches made,
    or one that could not be followed. A launch whose unknowns are its
    parameters or values it cannot see (a pass-through) gains nothing from
    variants."""
    if not_followed(result.notes):
        return True
    return any(merged_launch(launch) for launch in [*result.servers, *result.routers])


def _imprecise(result: SourceResult) -> bool:
    """A launch with a word a merge may have made (alternatives or unknown), or
    one that could not be followed at all (its SGL900 note)."""
    if not_followed(result.notes):
        return True
    return any(imprecise_launch(launch) for launch in [*result.servers, *result.routers])


def _merged_shape(value: Value) -> bool:
    if value.kind in (Kind.ALTERNATIVES, Kind.UNKNOWN):
        return True
    return value.kind is Kind.CONCAT and any(_merged_shape(part) for part in value.parts)


def known_on_path(value: Value, fixed: Mapping[str, PathStep]) -> Value:
    """A value with what the path decided about it: ``$1`` on the path where
    ``[ "$1" = decode ]`` held is ``decode``. Only a text that bash would not
    split further (non-empty, no blanks) replaces a symbol, so the argv keeps
    its words."""
    if value.kind is Kind.SYMBOL:
        prefix = f"eq\0{subject(value)}\0"
        for key, step in fixed.items():
            if step.taken and key.startswith(prefix):
                text = key[len(prefix) :]
                if text and not any(c in text for c in " \t\n"):
                    return Value.known(text)
        if value.default == "":
            # `X="${X:-}"` ... `[[ -n "$X" ]] && CMD+=(--opt "$X")`, Python's
            # `x = os.getenv("X", "")` ... `if x:` / `if x != "":`: on the path
            # where the value is not empty, its empty default is not what it
            # holds (it was "invalid choice: ''" for an option with choices).
            # (Not '' means non-empty here: the default stands for unset.)
            differs = fixed.get(f"eq\0{value.name}\0")
            if implied(fixed, f"nonempty\0{value.name}") or (differs is not None and not differs.taken):
                return Value.symbol(value.name)
        return value
    if value.kind is Kind.CONCAT:
        parts = [known_on_path(part, fixed) for part in value.parts]
        return value if parts == list(value.parts) else Value.concat(parts)
    return value


def refined_launch(launch, fixed: Mapping[str, PathStep]):
    """``launch`` with what ``fixed`` decided about its values (known_on_path):
    its argv words, and the keyword arguments of a Python entry."""
    if not fixed:
        return launch
    args = [token if (value := known_on_path(token.value, fixed)) is token.value else ArgToken(value, token.location, token.origin, token.spread, token.held) for token in launch.args]
    keywords = getattr(launch, "keywords", ())
    refined_keywords = tuple(k if (value := known_on_path(k.value, fixed)) is k.value else replace(k, value=value) for k in keywords)
    if all(a is b for a, b in zip(args, launch.args)) and all(a is b for a, b in zip(refined_keywords, keywords)):
        return launch
    return replace(launch, args=args, keywords=refined_keywords) if keywords else replace(launch, args=args)


def _launch_identity(launch: ServerLaunch | RouterLaunch) -> tuple:
    return (type(launch).__name__, launch.entry, launch.location, launch.context, launch.scope)


def _argv_signature(launch: ServerLaunch | RouterLaunch) -> tuple:
    keywords = launch.keywords if isinstance(launch, ServerLaunch) else ()
    return (tuple(launch.args), keywords, launch.line_ranges)


def variants(leaves: list[tuple[dict[str, PathStep], SourceResult]]) -> SourceResult:
    """One result for all paths (see the module docstring). The notes and other
    facts of all paths are kept once each, in order."""
    if len(leaves) == 1:
        return leaves[0][1]
    first = leaves[0][1]
    combined = SourceResult(path=first.path, lines=first.lines)
    combined.continuation_breaks = first.continuation_breaks
    combined.comments = first.comments
    # Every path's facts, once each, in the order found.
    combined.broken_continuations = list(dict.fromkeys(item for _, result in leaves for item in result.broken_continuations))
    combined.notes = list(dict.fromkeys(note for _, result in leaves for note in result.notes))
    combined.version_hints = list(dict.fromkeys(hint for _, result in leaves for hint in result.version_hints))
    combined.exports = list(dict.fromkeys(name for _, result in leaves for name in result.exports))
    # identity -> signature -> (a launch, the paths that gave it)
    found: dict[tuple, dict[tuple, tuple[ServerLaunch | RouterLaunch, list[int]]]] = {}
    for index, (fixed, result) in enumerate(leaves):
        occurrences: dict[tuple, int] = {}
        for launch in [*result.servers, *result.routers]:
            launch = refined_launch(launch, fixed)
            identity = _launch_identity(launch)
            occurrences[identity] = occurrences.get(identity, 0) + 1
            by_argv = found.setdefault((*identity, occurrences[identity]), {})
            entry = by_argv.setdefault(_argv_signature(launch), (launch, []))
            entry[1].append(index)
    every = list(range(len(leaves)))
    for by_argv in found.values():
        for launch, runs in by_argv.values():
            if len(by_argv) == 1 and runs == every:
                variant = launch
            else:
                variant = _variant(launch, runs, leaves)
            if isinstance(variant, RouterLaunch):
                combined.routers.append(variant)
            else:
                combined.servers.append(variant)
    return combined


def _implied_by_value(key: str, step: PathStep, values: dict[str, str]) -> bool:
    """A decision that went the way the subject's known value says anyway."""
    kind, subject, *rest = key.split("\0")
    if step.taken or subject not in values or kind not in ("eq", "glob"):
        return False
    return not (values[subject] == rest[0] if kind == "eq" else _matches(values[subject], rest[0]))


def _variant(launch, runs: list[int], leaves) -> ServerLaunch | RouterLaunch:
    """The launch with the decisions all of ``runs`` share, in the order made."""
    shared = dict(leaves[runs[0]][0])
    for index in runs[1:]:
        fixed = leaves[index][0]
        shared = {key: step for key, step in shared.items() if key in fixed and fixed[key].taken == step.taken}
    # `$ROLE is not decode` says nothing more next to `$ROLE is prefill`.
    values = {key.split("\0")[1]: key.split("\0")[2] for key, step in shared.items() if step.taken and key.startswith("eq\0")}
    shared = {key: step for key, step in shared.items() if not _implied_by_value(key, step, values)}
    steps = tuple(sorted(shared.values(), key=lambda step: (step.location, step.key)))
    return replace(launch, path_condition=steps, runs=tuple(runs))
