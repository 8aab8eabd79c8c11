"""The shell source: SGLang launches in bash/sh scripts, found with tree-sitter-bash.

The script is never run. A small abstract interpreter walks the syntax tree in
order, keeping what it can know about variables (a ``Value`` per word, with the
file position of every character that came from a literal), so that a launch's
argv is what bash would build: quoting, concatenation, ``${VAR:-default}``, arrays,
word splitting of unquoted expansions, ``$((...))``, functions called with
arguments, branches and loops as alternatives. What it cannot know it keeps as a
symbol or as unknown; it never guesses.

Launch detection looks through wrappers (``nohup``, ``env``, ``docker run``,
``bash -c``, ``ssh HOST CMD``, ...) to the entry point (``python -m
sglang.launch_server``, ``sglang serve``, the router). Text in ``echo``/``printf``
arguments, comments and heredoc bodies is never a launch.
"""

from __future__ import annotations

import itertools
import os
import re
from typing import Callable, Iterable, Mapping

from sglang_lint.model import (
    ArgToken,
    BrokenContinuation,
    EntryPoint,
    Kind,
    Location,
    Note,
    PathStep,
    RouterLaunch,
    ServerLaunch,
    SourceResult,
    Value,
    is_ascii_digits,
)
from sglang_lint.records import Record
from sglang_lint.sources.paths import Fork, Paths, decision, explore, implied, imprecise_launch, suspended, variants
from sglang_lint.sources.paths import subject as path_subject
from sglang_lint.sources.textpos import EmbeddedText, FileText
from sglang_lint.sources.wrappers import WRAPPERS, DOCKER_RUN_VALUE_OPTIONS, SSH_VALUE_OPTIONS

# Nesting of the syntax tree we follow: deeper subtrees are skipped with a note
# rather than risking Python's recursion limit.
MAX_TREE_DEPTH = 150
# Function calls and `bash -c` strings within each other.
MAX_CALL_DEPTH = 12
# Commands interpreted per file: a bound on work for scripts whose functions call
# each other many times over.
MAX_COMMANDS = 50_000
# What one variable may hold: pieces of words, and characters of text beyond the
# file's own length. `A=$A$A` (or `A+=$A`, `A=("${A[@]}" "${A[@]}")`) doubles a
# value on every line: twenty such lines took minutes and gigabytes. A larger value
# is stored as unknown, and so is every value built from it.
MAX_VALUE_SEGS = 1_000
MAX_VALUE_CHARS = 1_000_000
# Here-documents fed to a shell are read (for notes) up to this deep in each other:
# each level parses its text again.
MAX_HEREDOC_DEPTH = 2
_TOO_LARGE = "is too large to follow"
# The name under which reads of `$1`, `"$@"`, ... are tracked (ShellAnalyzer.taint).
_POSITIONAL = "\0positional"

_PYTHON_NAME = re.compile(r"python(\d+(\.\d+)*)?[mtw]?(\.exe)?")
_SHELLS = {"bash", "sh", "dash", "zsh", "ksh"}
# Commands whose arguments are data, never a command to run.
_DATA_COMMANDS = {"echo", "printf", ":", "true", "false", "test", "[", "[[", "cat", "read", "logger", "tee"}
_IFS_WHITESPACE = " \t\n"

# Command names _stmt_command/_detect_launch act on (besides functions and
# python*): a command by any other plain name is _inert.
_LAUNCH_NAMES = {
    *WRAPPERS,
    *_SHELLS,
    "ssh",
    "docker",
    "podman",
    "nvidia-docker",
    "sglang",
    "sglang-router",
    "dynamo",
    "eval",
    "shift",
    "set",
    "read",
    "mapfile",
    "readarray",
    "pypy",
    "pypy3",
}
# A command name with one of these is not a plain word.
_NOT_PLAIN = (b"$", b"\\", b"'", b'"', b"`", b"=", b"{", b"*", b"?", b"[", b"~")
# Arguments with one of these may run a command (a command or process
# substitution) or assign a variable (`${X:=...}`).
_MAY_RUN_OR_ASSIGN = re.compile(rb"\$\(|`|<\(|>\(|\$\{[^}]*=")

_ENTRY_MODULES = {
    "sglang.launch_server": EntryPoint.LAUNCH_SERVER,
    "dynamo.sglang": EntryPoint.DYNAMO_SGLANG,
    "sglang_router.launch_router": EntryPoint.ROUTER,
}
_ROUTER_ENTRIES = {EntryPoint.ROUTER, EntryPoint.ROUTER_BINARY}
# A launch entry point named in a piece of text that may run (a word of a command,
# the value of a variable a command expands): the module of `python -m`, or a CLI.
_ENTRY_MENTION = re.compile(r"(?<![\w.-])(?:sglang\.launch_server|dynamo\.sglang|sglang_router\.launch_router|sglang-router|sglang[ \t]+serve)(?![\w-])")
# Commands that run a command string given as an argument, which sglang-lint
# does not read (`tmux new -d "python -m ..."`, `screen -dmS p sh -c "..."`).
_COMMAND_STRING_RUNNERS = {"tmux", "screen"}
# Words that make a command ask for help, not start a server.
_HELP_WORDS = {"-h", "--help", "--version"}


def _parser():
    global _PARSER
    try:
        return _PARSER
    except NameError:
        import tree_sitter
        import tree_sitter_bash

        _PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
        return _PARSER


# tree-sitter-bash's external scanner calls isdigit() on the lookahead code point
# (src/scanner.c:1158 in 0.25.1, after `{` where a brace range may start); for a
# code point past 255 that reads outside glibc's ctype table and can segfault,
# depending on where the table lies in memory. Every byte of a non-ASCII UTF-8
# character becomes 'x' before parsing: byte offsets stay the same, a run of word
# characters stays one run (bash treats them as word characters too), and node
# text is always sliced from the original bytes.
_ASCII_ONLY = bytes(range(128)) + b"x" * 128


def parse_bash(data: bytes):
    return _parser().parse(data if data.isascii() else data.translate(_ASCII_ONLY))


# ---------------------------------------------------------------------------------
# Words as the interpreter sees them


class Seg(Record, frozen=True):
    """A piece of a word.

    ``value``: its text (or symbol/unknown). ``split``: it came from an unquoted
    expansion, so bash splits it into fields at whitespace. ``quoted``: it was in
    quotes (an empty quoted piece still makes a word). ``loc``: where it appears
    in the command being built. ``chars``: for known text, the file position of
    each character where the text was written (None when not exact, e.g. after
    escapes). ``origin``: the assignment it came from, for expansions.
    """

    value: Value
    loc: Location
    split: bool
    quoted: bool
    chars: tuple[tuple[int, int], ...] | None
    origin: Location | None

    def __init__(self, value: Value, loc: Location, split: bool = False, quoted: bool = False, chars: tuple[tuple[int, int], ...] | None = None, origin: Location | None = None) -> None:
        fields = self.__dict__  # frozen: written past __setattr__
        fields["value"] = value
        fields["loc"] = loc
        fields["split"] = split
        fields["quoted"] = quoted
        fields["chars"] = chars
        fields["origin"] = origin


Word = tuple[Seg, ...]


class Var(Record):
    """A shell variable: a scalar word or an array of words (None: unknown array)."""

    scalar: Word | None
    array: list[Word] | None
    is_array: bool
    defined_at: Location | None

    def __init__(self, scalar: Word | None = None, array: list[Word] | None = None, is_array: bool = False, defined_at: Location | None = None) -> None:
        self.scalar = scalar
        self.array = array
        self.is_array = is_array
        self.defined_at = defined_at


class Frame(Record):
    """A function call: its positional parameters and its local variables."""

    function: str
    positional: list[Word] | None  # None: not known (uncalled function)
    locals: dict[str, Var | None]
    call_site: Location | None

    def __init__(self, function: str, positional: list[Word] | None, locals: dict[str, Var | None] | None = None, call_site: Location | None = None) -> None:
        self.function = function
        self.positional = positional
        self.locals = {} if locals is None else locals
        self.call_site = call_site


class Env(Record):
    globals: dict[str, Var | None]
    frames: list[Frame]
    # The script's positional parameters ($1, "$@" outside functions): unknown
    # (what the caller passes) until `set -- ...`.
    script: Frame

    def __init__(self, globals: dict[str, Var | None] | None = None, frames: list[Frame] | None = None, script: Frame | None = None) -> None:
        self.globals = {} if globals is None else globals
        self.frames = [] if frames is None else frames
        self.script = Frame("", None) if script is None else script

    def lookup(self, name: str) -> tuple[bool, Var | None]:
        """(found, var). A found None is a variable explicitly unset."""
        for frame in reversed(self.frames):
            if name in frame.locals:
                return True, frame.locals[name]
        if name in self.globals:
            return True, self.globals[name]
        return False, None

    def assign(self, name: str, var: Var | None, local: bool = False) -> None:
        if local and self.frames:
            self.frames[-1].locals[name] = var
            return
        for frame in reversed(self.frames):
            if name in frame.locals:
                frame.locals[name] = var
                return
        self.globals[name] = var

    def snapshot(self) -> "Env":
        return Env(
            globals=dict(self.globals),
            frames=[Frame(f.function, f.positional, dict(f.locals), f.call_site) for f in self.frames],
            script=Frame("", self.script.positional),
        )


def _text_size(value: Value) -> int:
    """The characters of text a value holds."""
    if value.kind is Kind.KNOWN:
        return len(value.text)
    if value.kind is Kind.ALTERNATIVES:
        return sum(map(len, value.alternatives))
    if value.kind is Kind.CONCAT:
        return sum(map(_text_size, value.parts))
    return 1


def _word_value(word: Word) -> Value:
    return Value.concat(seg.value for seg in word)


def _merge_vars(options: list[Var | None], name: str) -> Var | None:
    """The variable after one of several branches ran."""
    first = options[0]
    if all(_same_var(o, first) for o in options):
        return first
    values = []
    for option in options:
        if option is None or option.is_array:
            return Var(scalar=(Seg(Value.unknown(f"${name} differs between branches"), _NOWHERE),))
        values.append(_word_value(option.scalar or ()))
    if any(value.uses_default for value in values):
        # `${X:-d}` counts as d alone, not merged with other branches' values:
        # the launch variants give it exactly.
        return Var(scalar=(Seg(Value.unknown(f"${name} differs between branches"), _NOWHERE),))
    merged = Value.one_of(values)
    return Var(scalar=(Seg(merged, _NOWHERE),))


def _combine(operator: str, left: bool | None, right: bool | None) -> bool | None:
    """``&&`` / ``||`` of two tests, None standing for undecided."""
    if operator == "&&":
        return False if False in (left, right) else (True if left and right else None)
    return True if True in (left, right) else (False if left is False and right is False else None)


def _taken_bodies(clauses: Iterable[tuple[Callable[[], bool | None], list]]) -> tuple[list[list], bool]:
    """The bodies of an if/elif/else chain or a case that may run, in order, and
    whether one of them surely runs: a clause decided false adds nothing, the
    first decided true ends the chain (the conditions after it are not looked
    at), an undecided one is an alternative."""
    bodies: list[list] = []
    for decide, body in clauses:
        verdict = decide()
        if verdict is False:
            continue
        bodies.append(body)
        if verdict is True:
            return bodies, True
    return bodies, False


def _is_spread_word(word: Word) -> bool:
    return len(word) == 1 and isinstance(word[0], _SpreadSeg)


def _guarded_array(node, text) -> object | None:
    """The ``"${A[@]}"`` string node of a ``${A[@]+"${A[@]}"}`` (or ``:+``)
    expansion of the same array, else None."""
    named = node.named_children
    if len(named) != 2 or named[0].type != "subscript" or named[1].type != "string":
        return None
    operators = [child.type for child in node.children if not child.is_named and child.type not in ("${", "}")]
    if operators not in (["+"], [":+"]):
        return None
    operand = named[1]
    if len(operand.named_children) != 1 or operand.named_children[0].type != "expansion":
        return None
    inner = operand.named_children[0]
    if len(inner.named_children) != 1 or len(inner.children) != 3 or inner.named_children[0].type != "subscript":
        return None
    if _node_text(inner.named_children[0], text) != _node_text(named[0], text) or not _node_text(named[0], text).endswith("[@]"):
        return None
    return operand


def _positional_key(words: list[Word] | None) -> tuple[Value, ...] | None:
    return None if words is None else tuple(_word_value(w) for w in words)


def _same_words(a: Var | None, b: Var | None) -> bool:
    """The same words, wherever they were assigned: branches that set a variable
    to the same value make no launch variants."""
    if _same_var(a, b):
        return True
    if a is None or b is None or a.is_array != b.is_array:
        return False
    if a.is_array:
        return a.array is not None and b.array is not None and [_word_value(w) for w in a.array] == [_word_value(w) for w in b.array]
    return _word_value(a.scalar or ()) == _word_value(b.scalar or ())


def _same_var(a: Var | None, b: Var | None) -> bool:
    if a is b:
        return True  # a variable no branch touched: the same object in every snapshot
    if a is None or b is None:
        return False
    if a.is_array != b.is_array:
        return False
    if a.is_array:
        if a.array is None or b.array is None:
            return a.array is b.array
        return [_word_value(w) for w in a.array] == [_word_value(w) for w in b.array]
    return _word_value(a.scalar or ()) == _word_value(b.scalar or ()) and a.defined_at == b.defined_at


_NOWHERE = Location("", 0, 0)


# ---------------------------------------------------------------------------------
# The interpreter


# More positional parameters than this (`set -- "$@" "$@"` repeated) are unknown.
MAX_POSITIONAL = 256

# A `for` loop over known words is run once per word while the loops it is
# nested in and its own run the body at most this many times in all (nested
# loops multiply launches, and the pairs of launches grow as their square);
# past that its values are alternatives of one iteration.
MAX_UNROLLED_ITERATIONS = 16


class _Budget(Exception):
    pass


class _Exit(Exception):
    """`exit`: the script (or the subshell, `bash -c` string) ends here; the
    branch whose body exits is a path that launches nothing after it."""


class ShellAnalyzer:
    def __init__(self, path: str, text: str, env: Mapping[str, str] | None = None, paths: Paths | None = None, tree=None) -> None:
        self.path = path
        # The decisions this run's path has fixed (issue 16, launch variants); a
        # run without one merges the branches it cannot decide.
        self.paths = paths or Paths()
        self.tree = tree
        # The first branch condition of the statement being decided that the
        # file does not decide and the path has not fixed: (key, (step if true,
        # step if false)).
        self.pending: tuple[str, tuple[PathStep, PathStep]] | None = None
        # Which merged branches each variable's value depends on (their keys),
        # and the names the commands being evaluated read: a launch forks only
        # on a merged branch it read from (paths.Paths.launch).
        self.taint: dict[str, frozenset[str]] = {}
        self.reads: list[set[str]] = []
        # Decisions some ways of which end the script (`*) exit 1 ;;`): a launch
        # that reads what they touched runs on the other ways only.
        self.exit_keys: set[str] = set()
        # Values for environment variables the script reads but never sets (the
        # config's `env`): consulted only when the script itself has no value.
        self.configured_env: Mapping[str, str] = env or {}
        self.result = SourceResult(path=path, lines=text.split("\n"))
        self.file_text = FileText(text)
        self.max_value_chars = MAX_VALUE_CHARS + len(text)
        self.functions: dict[str, tuple["object", object]] = {}  # name -> (body node, text)
        self.called_functions: set[str] = set()
        self.commands_seen = 0
        self.call_depth = 0
        self.noted_depth = False
        # Launch line ranges of the call sites currently active (outermost first).
        self.call_stack: list[tuple[str, Location, tuple[int, int]]] = []
        # How many times the loops being unrolled run the current body in all.
        self.unrolled = 1
        # Evaluating the arithmetic of a condition: only values the file sets count.
        self.strict_arith = False
        self._loc_cache: dict[tuple, Location] = {}
        self._chars_cache: dict[tuple, tuple[tuple[int, int], ...]] = {}
        # Never drop a launch silently: where a launch entry point was written into
        # a variable (name -> places), where such a variable stopped being known
        # (name -> (place, what happened)), the commands being run (their syntax:
        # which variables they expand), the lines launches came from, and the notes
        # for mentions that yielded no launch ((line, column) -> note).
        self.name_mentions: dict[str, list[Location]] = {}
        self.name_lost: dict[str, tuple[Location, str]] = {}
        self.running: list[tuple[object, object]] = []
        self.launch_lines: set[int] = set()
        self.dropped: dict[tuple[int, int], Note] = {}
        self.heredoc_depth = 0  # here-documents fed to a shell, within each other
        self.branch_depth = 0  # inside a branch or loop body: assignments add up

    # -- entry ------------------------------------------------------------------
    def run(self) -> SourceResult:
        tree = self.tree if self.tree is not None else parse_bash(self.file_text.data)
        env = Env()
        try:
            try:
                self._walk_script(tree.root_node, self.file_text, env)
            except _Exit:
                pass
            # Functions that were never called: analyze them once with unknown
            # positional parameters, so their launches are still seen.
            for name, (body, text) in list(self.functions.items()):
                if name not in self.called_functions:
                    self.called_functions.add(name)
                    frame_env = env.snapshot()
                    frame_env.frames.append(Frame(name, None))
                    try:
                        self._walk(body, text, frame_env, 0)
                    except _Exit:
                        pass
        except _Budget:
            self.result.notes.append(
                Note(self.path, f"stopped after {MAX_COMMANDS} commands and assignments (a very long script, or functions that call each other too often to follow); launches after this point may be missing")
            )
        except RecursionError:
            # Depth is bounded everywhere we recurse (MAX_TREE_DEPTH), but the
            # caller's own stack is not ours to know: "never raise" must hold even
            # when it is already deep. Keep what was found so far.
            self.result.notes.append(Note(self.path, "nesting too deep to analyze; launches after this point may be missing"))
        if tree.root_node.has_error:
            line, column, heredoc = self._first_error(tree.root_node)
            if heredoc is not None:
                # bash only warns ("here-document delimited by end-of-file") and
                # takes the rest of the file as the here-document's text.
                message = (
                    f"here-document {heredoc} is never closed: bash reads the rest of the file as its text; "
                    "nothing after it is analyzed"
                )
            else:
                message = "shell syntax error (bash would refuse part of this script); launches around it may be incomplete"
            self.result.notes.append(Note(self.path, message, line, column))
        self._find_continuation_breaks(tree.root_node)
        self._find_broken_continuations(tree.root_node, self.file_text, [*self.result.servers, *self.result.routers])
        self.result.notes.extend(self.drop_notes())
        return self.result

    # -- launches that could not be followed ---------------------------------------
    def drop_notes(self) -> list[Note]:
        """A note for each place a launch entry point is named where it could run
        and no launch came of it (issue 16: never drop a launch silently)."""
        return [note for note in self.dropped.values() if note.line not in self.launch_lines]

    def _mentions(self, words: list[Word]) -> list[Location]:
        return entry_mentions(self.path, words)

    def _remember_mentions(self, name: str, node, text, words: list[Word], appending: bool) -> None:
        """An assignment to ``name``: keep where it names a launch entry point, its
        own text or a variable it copies that did (a plain assignment outside any
        branch that names none forgets the earlier ones)."""
        mentions = self._mentions(words) if b"sglang" in text.data[node.start_byte : node.end_byte] else []
        if self.name_mentions:
            for used in _expanded_names(node, text):
                if used != name:
                    mentions.extend(self.name_mentions.get(used, ()))
        if mentions:
            known = self.name_mentions.setdefault(name, [])
            known.extend(m for m in mentions if m not in known)
        elif not appending and not self.branch_depth:
            self.name_mentions.pop(name, None)
            self.name_lost.pop(name, None)

    def _dropped_launch(self, words: list[Word], index: int, command_loc: Location, how: str) -> None:
        """The command ``words[index:]`` may start a launch but cannot be followed
        (``how``: "word", its command word is not known; "module", the module of
        ``python -m`` is not; "eval"; "wrapper", a command not looked through
        runs it). When it names a launch entry point,
        in its own words or in a variable it expands, each such place gets a note
        (kept only if no launch comes from that line)."""
        rest = words[index:]
        if any(_word_value(word).is_known and _word_value(word).text in _HELP_WORDS for word in rest):
            return
        self.paths.launch(True, self._depends(name for reads in self.reads for name in reads))
        mentions = self._mentions(rest)
        names: set[str] = set()
        for node, text in self.running:
            names.update(_expanded_names(node, text))
        from_names = [(name, loc) for name in sorted(names) for loc in self.name_mentions.get(name, ())]
        if not mentions and not from_names:
            return
        run_at = command_loc.line
        if how in ("word", "module"):
            subject, what = self._unknown_command(words[index], names)
        for location in mentions + [loc for _, loc in from_names]:
            elsewhere = location.line != run_at
            if how == "eval":
                message = f"line {run_at} runs it through `eval`" if elsewhere else "it runs through `eval`"
                message += ", which sglang-lint does not follow"
            elif how == "wrapper":
                message = f"it runs under `{_word_value(words[index]).describe()}`, a command sglang-lint does not look through"
            elif how == "module":
                message = f"line {run_at} runs the module {subject}, {what}" if elsewhere else f"its module {subject} is {what}"
            else:
                message = f"line {run_at} runs {subject}, {what}" if elsewhere else f"its command {subject} is {what}"
            key = (location.line, location.column)
            if key not in self.dropped:
                self.dropped[key] = Note(self.path, "launch not analyzed: " + message, location.line, location.column)

    def _unknown_command(self, word: Word, names: set[str]) -> tuple[str, str]:
        """The command word ``word`` that is not known, as written, and what it is
        (a noun phrase), as precisely as we can tell."""
        value = _word_value(word)
        written = self._written(word)
        subject = f"`{written}`" if written else f"`{value.describe()[:40]}`"
        if value.kind is Kind.SYMBOL:
            if written and value.name.lstrip("$") not in written:
                return subject, f"`{value.describe()[:40]}`, which this file never sets"
            return subject, "a variable this file never sets"
        reason = value.reason if value.kind is Kind.UNKNOWN else ""
        for seg in word:
            if seg.value.kind is Kind.UNKNOWN:
                reason = seg.value.reason
                break
        lost = [name for name in sorted(names) if name in self.name_lost]
        named = [name for name in lost if f"${name}" in reason or f"{{{name}[" in reason]
        if named or len(lost) == 1:
            where, what = self.name_lost[(named or lost)[0]]
            return subject, f"{what} (line {where.line})"
        if reason.startswith("output of "):
            return subject, "the output of a command substitution"
        if reason.startswith("the result of "):
            return subject, "the result of a call sglang-lint cannot see"
        if reason.endswith("differs between branches"):
            return subject, "a variable that differs between branches"
        if reason.endswith("differ between branches"):
            return subject, "a value whose words differ between branches"
        if reason.startswith("read at "):
            return subject, f"a value {reason}"
        if value.kind is Kind.ALTERNATIVES:
            return subject, "one of several commands"
        return subject, "a value sglang-lint cannot follow" + (f" ({reason[:40]})" if reason else "")

    def _written(self, word: Word) -> str | None:
        """The word as written in the file, when it lies on one line of it."""
        located = [seg.loc for seg in word if seg.loc.path and seg.loc is not _NOWHERE]
        if not located:
            return None
        loc = located[0]
        if loc.end_line != loc.line or not 1 <= loc.line <= len(self.result.lines):
            return None
        written = self.result.lines[loc.line - 1][loc.column - 1 : loc.end_column - 1]
        if len(written) < 2 and word[0].origin is not None and word[0].origin.line == word[0].origin.end_line:
            # A placeholder for the outer command's word in a `bash -c` string.
            origin = word[0].origin
            written = self.result.lines[origin.line - 1][origin.column - 1 : origin.end_column - 1] if 1 <= origin.line <= len(self.result.lines) else ""
        if written.count("{") != written.count("}"):
            written = written.strip("{}")  # an f-string's `{name}` piece
        return written if 1 < len(written) <= 40 and "`" not in written else None

    def _first_error(self, root) -> tuple[int, int, str | None]:
        """The innermost ERROR node first in the file (a MISSING token when there
        is none): tree-sitter wraps a long stretch of valid statements in an ERROR
        node when a quote is left open at the end, and the user needs the open
        quote, not the start of the stretch. The third item: the ``<<EOF`` of a
        here-document left open at the end of the file, when that is the error."""
        missing = None
        missing_type = ""
        stack = [root]
        while stack:
            node = stack.pop()
            if node.is_error and not any(c.has_error for c in node.children):
                # `<<EOF` as the file's last line, with no text after it.
                heredoc = self._heredoc(node) if node.child_count == 2 and node.children[1].type == "heredoc_start" else None
                return (*self.file_text.position(node.start_byte), heredoc)
            if node.is_missing and missing is None:
                # A MISSING closing token (`"`, heredoc end, `fi`) sits at the end of
                # the file; the user needs where the unclosed construct opens.
                parent = node.parent
                missing = parent if parent is not None and parent.type != "program" else node
                missing_type = node.type
            if node.has_error:
                stack.extend(reversed(node.children))
        if missing is None:
            return 1, 1, None
        heredoc = self._heredoc(missing) if missing_type == "heredoc_end" and missing.child_count >= 2 else None
        return (*self.file_text.position(missing.start_byte), heredoc)

    def _heredoc(self, node) -> str:
        """``<<EOF`` (``<<-``, ``<< 'EOF'``) as written, from the first two
        children of ``node`` (the operator and the heredoc_start)."""
        written = self.file_text.data[node.children[0].start_byte : node.children[1].end_byte]
        return written.decode("utf-8", "replace")[:60]

    # -- locations ----------------------------------------------------------------
    def _loc(self, node, text) -> Location:
        # Cached for the file itself: a function body is evaluated once per call,
        # and up to MAX_COMMANDS calls must stay quick (a position lookup costs the
        # length of its line). Embedded texts (`bash -c` strings, made anew per
        # evaluation) look positions up in a table and are not kept alive.
        key = (node.start_byte, node.end_byte)
        location = self._loc_cache.get(key) if text is self.file_text else None
        if location is None:
            line, column = text.position(node.start_byte)
            end_line, end_column = text.position(node.end_byte)
            if text is not self.file_text:
                line, column = self._after_line_end(line, column)
                end_line, end_column = self._after_line_end(end_line, end_column)
            location = Location(self.path, line, column, end_line, end_column)
            if text is self.file_text:
                self._loc_cache[key] = location
        return location

    def _after_line_end(self, line: int, column: int) -> tuple[int, int]:
        """EmbeddedText puts the end of its text one column after its last
        character; when that character is a newline, the column is past the end
        of its line. The position after a newline is the next line's start."""
        lines = self.result.lines
        if 1 <= line <= len(lines) and column > len(lines[line - 1]) + 1:
            return (line + 1, 1) if line < len(lines) else (line, len(lines[line - 1]) + 1)
        return line, column

    def _span(self, start: tuple[int, int], end: tuple[int, int]) -> Location:
        return Location(self.path, start[0], start[1], end[0], end[1])

    # -- statements -----------------------------------------------------------------
    def _walk_script(self, root, text, env: Env) -> None:
        self._walk(root, text, env, 0)

    def _note_depth(self, node, text) -> None:
        if not self.noted_depth:
            self.noted_depth = True
            line, column = text.position(node.start_byte)
            self.result.notes.append(Note(self.path, f"nesting deeper than {MAX_TREE_DEPTH} levels is not analyzed", line, column))

    def _walk(self, node, text, env: Env, depth: int) -> None:
        if depth > MAX_TREE_DEPTH:
            self._note_depth(node, text)
            return
        kind = node.type
        handler = getattr(self, "_stmt_" + kind, None)
        if handler is not None:
            handler(node, text, env, depth)
            return
        if kind in ("comment", "heredoc_body", "heredoc_start", "heredoc_end", "test_command", "word", "string"):
            return
        # program, ERROR, compound_statement, do_group, pipeline, redirected_statement...
        for child in node.named_children:
            if child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                continue
            self._walk(child, text, env, depth + 1)

    def _misparsed_assignment(self, node, text, env: Env, depth: int) -> bool:
        """``A="--tp "$1" --dp "$2""`` alone on its line: tree-sitter-bash reads an
        assignment ``A="--tp "$1" --dp "`` and a command ``2""`` (see
        _lost_dollar_segs). Bash reads one assignment; assign it."""
        first = node.named_child(0) if node.named_child_count > 1 else None
        if first is None or first.type != "variable_assignment":
            return False
        children = [c for c in node.named_children if c.type != "comment"]
        if len(children) < 2 or children[1].type != "command_name":
            return False
        assignment = children[0]
        # Each `$N` after the first lost one splits the word again: a chain of
        # pieces, each starting where the one before ends.
        pieces = [children[1].named_children[0] if children[1].named_children else children[1], *children[2:]]
        end = assignment.end_byte
        for piece in pieces:
            if piece.start_byte != end or not _after_lost_dollar(piece, text):
                return False
            end = piece.end_byte
        target = assignment.child_by_field_name("name")
        value = assignment.child_by_field_name("value")
        if target is None or value is None or target.type != "variable_name" or any(c.type == "+=" for c in assignment.children):
            return False
        word = tuple(self._eval_parts(value, text, env, True, depth + 1, True)) + tuple(
            Seg(seg.value, seg.loc, False, True, seg.chars, seg.origin) for piece in pieces for seg in self._lost_dollar_segs(piece, text, env, depth)
        )
        variable = _node_text(target, text)
        self._remember_mentions(variable, assignment, text, [word], False)
        env.assign(variable, Var(scalar=word, defined_at=self._loc(assignment, text)))
        return True

    def _lost_dollar_segs(self, part, text, env: Env, depth: int) -> list[Seg]:
        """tree-sitter-bash drops the ``$`` of a positional parameter that follows
        a concatenation of two or more pieces: ``"--tp "$1" --dp "$2""`` parses as
        ``"--tp "$1" --dp "`` and a separate word ``2""``. Bash reads one word;
        this is the ``$2`` (one digit: ``$23`` is ``${2}3``) and what follows it."""
        first = part if part.type == "number" else part.named_children[0]
        digits = _node_text(first, text)
        loc = self._loc(first, text)
        segs = list(self._expand_variable(digits[0], env, False, loc) or [])
        if digits[1:]:
            segs.append(Seg(Value.known(digits[1:]), loc))
        if part.type == "concatenation":
            for child in part.named_children[1:]:
                segs.extend(self._eval_parts(child, text, env, False, depth + 1, False))
        return segs

    def _stmt_variable_assignment(self, node, text, env, depth, local: bool = False) -> None:
        """An assignment; the variable then depends on the merged branches that
        what it read depends on (``self.taint``)."""
        reads: set[str] = set()
        self.reads.append(reads)
        try:
            self._assign_variable(node, text, env, depth, local)
        finally:
            self.reads.pop()
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        if name_node.type == "subscript":
            name_node = name_node.child_by_field_name("name") or name_node
        name = _node_text(name_node, text)
        appending = any(child.type == "+=" for child in node.children)
        depends = self._depends(reads) | (self.taint.get(name, frozenset()) if appending or name_node.type == "subscript" else frozenset())
        if depends:
            self.taint[name] = depends
        else:
            self.taint.pop(name, None)

    def _depends(self, names: Iterable[str]) -> frozenset[str]:
        return frozenset().union(*(self.taint.get(name, frozenset()) for name in names))

    def _assign_variable(self, node, text, env, depth, local: bool = False) -> None:
        # Assignments count toward the budget too: a multi-megabyte script of
        # assignments alone took a minute and gigabytes without it.
        self.commands_seen += 1
        if self.commands_seen > MAX_COMMANDS:
            raise _Budget()
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None:
            return
        name = _node_text(name_node, text)
        if name_node.type == "subscript":
            # A[3]=x: the array changes in a way we do not model element by element.
            base = name_node.child_by_field_name("name")
            if base is not None:
                base_name = _node_text(base, text)
                env.assign(base_name, Var(is_array=True, array=None), local)
                if base_name in self.name_mentions:
                    self.name_lost[base_name] = (self._loc(node, text), "an array changed element by element")
            return
        if not _is_identifier(name):
            return
        appending = any(child.type == "+=" for child in node.children)
        loc = self._loc(node, text)
        if value_node is not None and value_node.type == "array":
            words: list[Word] = []
            for element in value_node.named_children:
                words.extend(self._eval_word_fields(element, text, env, depth))
            if appending:
                found, old = env.lookup(name)
                if found and old is not None and old.is_array and old.array is not None:
                    words = old.array + words
                elif found and old is not None and not old.is_array and old.scalar is not None:
                    words = [old.scalar] + words
                elif found:
                    env.assign(name, Var(is_array=True, array=None, defined_at=loc), local)
                    return
            self._remember_mentions(name, node, text, words, appending)
            if self._too_large(words):
                words = None  # an array we do not follow
            env.assign(name, Var(is_array=True, array=words, defined_at=loc), local)
            return
        word = self._eval_word_scalar(value_node, text, env, depth) if value_node is not None else ()
        if appending:
            found, old = env.lookup(name)
            if found and old is not None and not old.is_array and old.scalar is not None:
                word = old.scalar + word
            elif found and old is not None and old.is_array and old.array is not None and old.array:
                # A+=x on an array appends to its first element.
                array = [old.array[0] + word, *old.array[1:]]
                env.assign(name, Var(is_array=True, array=None if self._too_large(array) else array, defined_at=loc), local)
                return
            elif not found:
                word = (Seg(Value.symbol("$" + name), loc),) + word
        self._remember_mentions(name, node, text, [word], appending)
        if self._too_large([word]):
            word = (Seg(Value.unknown(f"${name} {_TOO_LARGE}"), loc),)
        env.assign(name, Var(scalar=word, defined_at=loc), local)

    def _too_large(self, words: list[Word]) -> bool:
        """Whether a variable's words exceed MAX_VALUE_SEGS / the character bound,
        or hold a piece of a value that did."""
        segs = chars = 0
        for word in words:
            segs += len(word)
            if segs > MAX_VALUE_SEGS:
                return True
            for seg in word:
                chars += _text_size(seg.value)
                if seg.value.kind is Kind.UNKNOWN and seg.value.reason.endswith(_TOO_LARGE):
                    return len(words) > 1 or len(word) > 1
            if chars > self.max_value_chars:
                return True
        return False

    def _stmt_variable_assignments(self, node, text, env, depth) -> None:
        for child in node.named_children:
            if child.type == "variable_assignment":
                self._stmt_variable_assignment(child, text, env, depth)

    def _stmt_declaration_command(self, node, text, env, depth) -> None:
        keyword = node.children[0].type if node.children else ""
        local = keyword in ("local", "declare", "typeset") and bool(env.frames)
        for child in node.named_children:
            if child.type == "variable_assignment":
                self._stmt_variable_assignment(child, text, env, depth, local=local)
            elif child.type == "variable_name" and keyword in ("local", "declare", "typeset") and env.frames:
                name = _node_text(child, text)
                env.assign(name, Var(scalar=(), defined_at=self._loc(child, text)), local=True)

    def _stmt_unset_command(self, node, text, env, depth) -> None:
        for child in node.named_children:
            name = _node_text(child, text)
            if _is_identifier(name):
                env.assign(name, None)

    def _stmt_function_definition(self, node, text, env, depth) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is not None and body is not None:
            name = _node_text(name_node, text)
            previous = self.functions.get(name)
            if previous is not None and name not in self.called_functions:
                self._never_run(name, previous, self._loc(node, text), env, depth)
            self.functions[name] = (body, text)

    def _never_run(self, name: str, definition: tuple, redefined_at: Location, env: Env, depth: int) -> None:
        """A function defined again before any call: bash never runs the earlier
        body. Its launches (found as for an uncalled function, then taken back)
        each get a note instead of disappearing."""
        body, text = definition
        if b"sglang" not in text.data[body.start_byte : body.end_byte]:
            return
        servers, routers = len(self.result.servers), len(self.result.routers)
        lines = set(self.launch_lines)
        frame_env = env.snapshot()
        frame_env.frames.append(Frame(name, None))
        try:
            self._walk(body, text, frame_env, depth + 1)
        finally:
            found = self.result.servers[servers:] + self.result.routers[routers:]
            del self.result.servers[servers:], self.result.routers[routers:]
            self.launch_lines = lines
        for launch in found:
            where = launch.location
            message = f"launch never runs: {name}() is defined again at line {redefined_at.line} before any call to this definition"
            self.dropped.setdefault((where.line, where.column), Note(self.path, message, where.line, where.column))

    def _stmt_redirected_statement(self, node, text, env, depth) -> None:
        for child in node.named_children:
            if child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                continue
            self._walk(child, text, env, depth + 1)
        if text is not self.file_text or self.heredoc_depth >= MAX_HEREDOC_DEPTH:
            return
        for child in node.named_children:
            if child.type != "heredoc_redirect":
                continue
            body = next((c for c in child.named_children if c.type == "heredoc_body"), None)
            if body is None or b"sglang" not in text.data[body.start_byte : body.end_byte]:
                continue
            shell = _reads_script_from_stdin(node.named_children[0], text)
            if shell is not None:
                self._heredoc_script(body, shell, self._loc(node, text))

    def _heredoc_script(self, body, shell: str, command_loc: Location) -> None:
        """A here-document fed to a shell (``bash <<EOF``, ``ssh HOST <<EOF``) is a
        script that runs; sglang-lint does not analyze it, but each launch in it
        gets a note (found by analyzing the text on its own)."""
        row = body.start_point[0]
        analyzer = ShellAnalyzer(self.path, _node_text(body, self.file_text))
        analyzer.heredoc_depth = self.heredoc_depth + 1
        inner = analyzer.run()
        message = f"launch not analyzed: it is in a here-document fed to `{shell}` (line {command_loc.line}), which sglang-lint does not read"
        for launch in [*inner.servers, *inner.routers]:
            line = launch.location.line + row
            column = launch.location.column + (body.start_point[1] if launch.location.line == 1 else 0)
            self.dropped.setdefault((line, column), Note(self.path, message, line, column))

    def _branch(
        self,
        bodies: list[list],
        text,
        env: Env,
        depth: int,
        exhaustive: bool,
        where: Location | None = None,
        fork: tuple[str, tuple[PathStep, PathStep]] | None = None,
    ) -> None:
        """Run each alternative body on a copy of ``env`` and merge the results.
        ``fork``: the undecided condition that chose between them; when the bodies
        made a difference (a variable differs, a launch is inside one), the path
        forks there instead (paths.py)."""
        results = []
        launches_before = len(self.result.servers) + len(self.result.routers) + len(self.dropped)
        self.branch_depth += 1
        try:
            with suspended(self.paths, fork):
                for statements in bodies:
                    branch_env = env.snapshot()
                    try:
                        for statement in statements:
                            self._walk(statement, text, branch_env, depth + 1)
                    except _Exit:
                        continue  # this way through ends the script
                    results.append(branch_env)
        finally:
            self.branch_depth -= 1
        exited = len(results) < len(bodies)
        if not exhaustive:
            results.append(env.snapshot())
        if not results:
            raise _Exit()  # every way through ends the script
        if exited:
            self.paths.differs(*(fork or (None, None)), where)
            if fork is not None:
                self.exit_keys.add(fork[0])
                # Past a branch that exits unless `$1` is prefill, `$1` is prefill.
                subject = _subject_name(fork[0])
                if subject is not None:
                    self._taint(subject, fork[0])
        launched = len(self.result.servers) + len(self.result.routers) + len(self.dropped) > launches_before
        if self._merge_into(env, results, where, fork[0] if fork else None, exited) or launched:
            self.paths.differs(*(fork or (None, None)), where, launched)

    def _merge_into(self, env: Env, results: list[Env], where: Location | None = None, key: str | None = None, exited: bool = False) -> bool:
        """``where``: the statement that branched (for notes). Whether a variable
        differs between the results. ``exited``: some ways through ended the
        script, so what the others changed holds only where they ran: it depends
        on the decision ``key`` too."""
        # The script's positional parameters after branches that `set --` them
        # differently: not known.
        script_words = [r.script.positional for r in results]
        differs = False
        if any(_positional_key(p) != _positional_key(script_words[0]) for p in script_words):
            env.script.positional = None
            differs = True
            self._taint(_POSITIONAL, key)
        else:
            env.script.positional = script_words[0]
        names = set()
        for result in results:
            names.update(result.globals)
        for name in names:
            options = []
            for result in results:
                found, var = result.lookup(name) if name in result.globals else (False, None)
                options.append(var if found else _unset_symbol(name))
            before = env.globals.get(name)
            env.globals[name] = _merge_vars(options, name)
            if not all(_same_words(o, options[0]) for o in options):
                differs = True
                self._taint(name, key)
            elif exited and not _same_words(options[0], before):
                self._taint(name, key)
            if name in self.name_mentions:
                self._note_lost(name, before, options, env.globals[name], where)
        for index, frame in enumerate(env.frames):
            local_names = set()
            for result in results:
                local_names.update(result.frames[index].locals)
            for name in local_names:
                options = [result.frames[index].locals.get(name, frame.locals.get(name)) for result in results]
                before = frame.locals.get(name)
                frame.locals[name] = _merge_vars(options, name)
                if not all(_same_words(o, options[0]) for o in options):
                    differs = True
                    self._taint(name, key)
                elif exited and not _same_words(options[0], before):
                    self._taint(name, key)
                if name in self.name_mentions:
                    self._note_lost(name, before, options, frame.locals[name], where)
        return differs

    def _taint(self, name: str, key: str | None) -> None:
        if key is not None:
            self.taint[name] = self.taint.get(name, frozenset()) | {key}

    def _note_lost(self, name: str, before: Var | None, options: list[Var | None], merged: Var | None, where: Location | None) -> None:
        """A variable that names a launch entry point differs between branches:
        where a branch changed it (for the note if its launch is lost)."""
        if merged is None or merged is before or any(merged is option for option in options):
            return
        array = any(option is not None and option.is_array for option in options)
        for option in options:
            if option is not None and option is not before and option.defined_at is not None and (before is None or option.defined_at != before.defined_at):
                what = "an array whose words differ between branches" if array else "a variable that differs between branches"
                self.name_lost[name] = (where or option.defined_at, what)
                return

    def _stmt_if_statement(self, node, text, env, depth) -> None:
        # (condition nodes, body) of the `if`, each `elif` and the `else` (None).
        clauses: list[tuple[list | None, list]] = []
        conditions = [c for c in node.children_by_field_name("condition") if c.is_named]
        condition_ids = {child.id for child in conditions}
        current: list = []
        for child in node.named_children:
            if child.id in condition_ids:
                continue
            if child.type == "elif_clause":
                clauses.append((conditions, current))
                # The body is what follows `then`; before it is the condition list.
                current = _after_keyword(child, "then")
                conditions = [c for c in _before_keyword(child, "then") if c.is_named]
            elif child.type == "else_clause":
                clauses.append((conditions, current))
                current = list(child.named_children)
                conditions = None
            else:
                current.append(child)
        clauses.append((conditions, current))
        # A condition decided by known values (`[[ "$1" == decode ]]` in a function
        # called with `decode`) runs its body alone, or not at all: the clauses
        # after a true one never run, a false one adds no alternative.
        undecided: list[tuple[str, tuple[PathStep, PathStep]]] = []
        bodies, exhaustive = _taken_bodies(
            ((lambda c=condition: True if c is None else self._path_verdict(c, text, env, depth, undecided)), body) for condition, body in clauses
        )
        self._branch(bodies, text, env, depth, exhaustive, self._loc(node, text), undecided[0] if undecided else None)

    def _path_verdict(self, nodes: list, text, env: Env, depth: int, undecided: list) -> bool | None:
        """Whether a condition list succeeds: decided by the file's values, or by
        this run's path (paths.py). The first condition neither decides is added
        to ``undecided`` as the key to fork on."""
        self.pending = None
        verdict = self._decide_all(nodes, text, env, depth)
        if verdict is None:
            fork = self.pending or self._opaque_condition(nodes, text)
            verdict = self.paths.outcome(fork[0])
            if verdict is None and not undecided:
                undecided.append(fork)
        self.pending = None
        return verdict

    def _opaque_condition(self, nodes: list, text, texts: tuple[str, str] | None = None) -> tuple[str, tuple[PathStep, PathStep]]:
        """A condition over what the file cannot see (``[ -f x ]``, ``grep -q``):
        a decision of its own at this place of this call."""
        nodes = [n for n in nodes if n.type != "comment"] or nodes
        where = self._loc(nodes[0], text)
        context = " <- ".join(loc.short() for _, loc, _ in self.call_stack)
        key = f"at\0{where.short()}:{where.column}\0{context}"
        if texts is None:
            shown = " ".join(_node_text(nodes[-1], text).split())
            if len(shown) > 40:
                shown = shown[:37] + "..."
            texts = (f"`{shown}` succeeds", f"`{shown}` fails")
        return decision(key, texts, where)

    def _path_decision(self, key: str, texts: tuple[str, str], node, text) -> bool | None:
        """The outcome of a test over a value the file does not set (``-n
        "$DPA"``, ``"$ROLE" == decode``) on this run's path, or None (and the test
        becomes the one to fork on, when it is the first)."""
        verdict = self._implied(key)
        if verdict is None and self.pending is None:
            where = self._loc(node, text)
            self.pending = decision(key, texts, where)
        return verdict

    def _implied(self, key: str) -> bool | None:
        return implied(self.paths.fixed, key)

    def _stmt_case_statement(self, node, text, env, depth) -> None:
        subject_node = node.child_by_field_name("value")
        subject = self._condition_texts(subject_node, text, env, depth, split=False) if subject_node is not None else None
        # Over a value the file does not set (`case "$ROLE" in`), each item is a
        # decision of the path (paths.py).
        symbol = self._condition_subject(subject_node, text, env, depth, split=False) if subject is None and subject_node is not None else None
        items = [item for item in node.named_children if item.type == "case_item"]
        fallthrough = any(item.child_by_field_name("fallthrough") is not None for item in items)
        if fallthrough:
            subject = symbol = None  # `;&` / `;;&` run on into the next items: not decided
        clauses = []
        exhaustive = False
        undecided: list[tuple[str, tuple[PathStep, PathStep]]] = []
        for item in items:
            values = item.children_by_field_name("value")
            value_ids = {c.id for c in values}
            if subject is None and "*" in (_node_text(c, text) for c in values):
                exhaustive = True
            body = [c for c in item.named_children if c.id not in value_ids]
            clauses.append(((lambda v=values, i=item: self._case_verdict(subject, symbol, v, i, text, env, depth, undecided, fallthrough, subject_node)), body))
        bodies, decided = _taken_bodies(clauses)
        exhaustive = exhaustive or decided
        self._branch(bodies, text, env, depth, exhaustive, self._loc(node, text), undecided[0] if undecided else None)

    def _case_verdict(self, subject, symbol, values, item, text, env, depth, undecided: list, fallthrough: bool, subject_node=None) -> bool | None:
        patterns = [self._condition_texts(c, text, env, depth, split=False, pattern=True) for c in values]
        if subject is not None:
            return _case_matches(subject, patterns)
        if fallthrough:
            return None
        fork = None
        if symbol is not None and all(p is not None and len(p) == 1 for p in patterns):
            texts = [_plain(next(iter(p))) for p in patterns]  # type: ignore[arg-type]
            if len(texts) == 1 and not texts[0].startswith(_GLOB_MARK):
                key = f"eq\0{symbol}\0{texts[0]}"
                verdict = self._implied(key)
                word = texts[0] or "''"
                shown = (f"{symbol} is {word}", f"{symbol} is not {word}")
            else:
                globs = [t[len(_GLOB_MARK):] if t.startswith(_GLOB_MARK) else _glob_escape(t) for t in texts]
                key = f"glob\0{symbol}\0{'|'.join(globs)}"
                verdict = self._implied(key)
                shown = (f"{symbol} matches {'|'.join(globs)}", f"{symbol} does not match {'|'.join(globs)}")
            if verdict is not None:
                return verdict
            where = self._loc(values[0], text) if values else self._loc(item, text)
            fork = decision(key, shown, where)
        else:
            shown_subject = " ".join(_node_text(subject_node, text).split())[:30] if subject_node is not None else "the subject"
            shown_patterns = "|".join(_node_text(v, text) for v in values)[:30]
            fork = self._opaque_condition(
                list(values) or [item], text, (f"{shown_subject} matches {shown_patterns}", f"{shown_subject} does not match {shown_patterns}")
            )
            verdict = self.paths.outcome(fork[0])
            if verdict is not None:
                return verdict
        if not undecided:
            undecided.append(fork)
        return None

    def _stmt_list(self, node, text, env, depth) -> None:
        # `a && b`, `a || b`: the left side runs, the right side may or may not,
        # unless the left side is a test decided by known values.
        named = node.named_children
        if not named:
            return
        operators = [child.type for child in node.children if not child.is_named]
        undecided: list[tuple[str, tuple[PathStep, PathStep]]] = []
        simple = len(named) == 2 and operators in (["&&"], ["||"])
        verdict = self._path_verdict([named[0]], text, env, depth, undecided) if simple else None
        self._walk(named[0], text, env, depth + 1)
        if len(named) > 1:
            if verdict is None:
                fork = None
                if undecided:
                    # The right side runs when the left succeeds (`&&`) or fails
                    # (`||`): the fork's first path is the one that runs it.
                    key, (when_true, when_false) = undecided[0]
                    fork = (key, (when_true, when_false) if operators == ["&&"] else (when_false, when_true))
                self._branch([named[1:]], text, env, depth, exhaustive=False, where=self._loc(node, text), fork=fork)
            elif verdict == (operators == ["&&"]):
                self._walk(named[1], text, env, depth + 1)

    # -- conditions decided by known values ---------------------------------------------
    def _decide_all(self, nodes: list, text, env: Env, depth: int) -> bool | None:
        """The exit status of a condition list (its last command decides), or None
        when it depends on what the file does not say."""
        nodes = [n for n in nodes if n.type != "comment"]
        if len(nodes) != 1:
            return None
        return self._decide(nodes[0], text, env, depth)

    def _decide(self, node, text, env: Env, depth: int) -> bool | None:
        """Whether a test succeeds, when every operand is a known string: ``[[ A ==
        B ]]`` (B a glob unless quoted), ``[ A = B ]``, ``!=``, ``-n``, ``-z``,
        ``!``, ``&&``/``||`` of such tests. A variable the file does not set (an
        environment variable, a script argument) decides nothing, even with a
        ``${X:-default}``: the condition is over what the caller passes."""
        if depth > MAX_TREE_DEPTH:
            return None
        kind = node.type
        if kind == "negated_command":
            inner = node.named_children
            verdict = self._decide(inner[0], text, env, depth + 1) if len(inner) == 1 else None
            return None if verdict is None else not verdict
        if kind == "list":
            parts = node.named_children
            operators = [child.type for child in node.children if not child.is_named]
            if len(parts) != 2 or operators not in (["&&"], ["||"]):
                return None
            return _combine(operators[0], self._decide(parts[0], text, env, depth + 1), self._decide(parts[1], text, env, depth + 1))
        if kind == "compound_statement" and _node_text(node, text).startswith("(("):
            # `(( NNODES > 1 ))`: true when the arithmetic value is not 0.
            inner = node.named_children
            if len(inner) != 1:
                return None
            self.strict_arith = True
            try:
                values = self._arith(inner[0], text, env, depth + 1)
            except _NotConstant:
                return None
            finally:
                self.strict_arith = False
            truths = {value != 0 for value in values}
            return truths.pop() if len(truths) == 1 else None
        if kind == "command":
            name = node.child_by_field_name("name")
            return self._decide_test_command(node, text, env, depth) if name is not None and _node_text(name, text) == "test" else None
        if kind != "test_command":
            return None
        inner = node.named_children
        if len(inner) != 1:
            return None
        return self._decide_test(inner[0], text, env, depth + 1, _node_text(node, text).startswith("[["))

    def _decide_test(self, expression, text, env: Env, depth: int, double: bool) -> bool | None:
        """A test expression inside ``[ ]`` / ``[[ ]]`` (see _decide)."""
        if depth > MAX_TREE_DEPTH:
            return None
        kind = expression.type
        if kind == "parenthesized_expression":
            inner = expression.named_children
            return self._decide_test(inner[0], text, env, depth + 1, double) if len(inner) == 1 else None
        if kind == "unary_expression":
            tokens = expression.children
            if tokens and tokens[0].type == "!":
                operands = expression.named_children
                verdict = self._decide_test(operands[0], text, env, depth + 1, double) if len(operands) == 1 else None
                return None if verdict is None else not verdict
            operator = expression.named_children[0] if expression.named_children else None
            operands = expression.named_children[1:]
            if operator is None or operator.type != "test_operator" or len(operands) != 1:
                return None
            return self._decide_unary(_node_text(operator, text), operands[0], expression, text, env, depth, split=not double)
        if kind != "binary_expression":
            return None
        left = expression.child_by_field_name("left")
        right = expression.child_by_field_name("right")
        operator = expression.child_by_field_name("operator")
        if left is None or right is None or operator is None:
            return None
        if operator.type in ("&&", "||") and double:
            return _combine(operator.type, self._decide_test(left, text, env, depth + 1, double), self._decide_test(right, text, env, depth + 1, double))
        return self._decide_binary(operator.type, left, right, expression, text, env, depth, split=not double, pattern=double)

    def _decide_unary(self, op: str, operand, where, text, env: Env, depth: int, *, split: bool) -> bool | None:
        """``-n WORD`` / ``-z WORD``; over a value the file does not set, a
        decision of the path (``where``: the test, for its location)."""
        if op not in ("-n", "-z"):
            return None
        texts = self._condition_texts(operand, text, env, depth, split=split)
        if texts is None:
            symbol = self._condition_subject(operand, text, env, depth, split=split)
            if symbol is None:
                return None
            nonempty = self._path_decision(f"nonempty\0{symbol}", (f"{symbol} is non-empty", f"{symbol} is empty"), where, text)
            return None if nonempty is None else nonempty == (op == "-n")
        verdicts = {bool(t) == (op == "-n") for t in texts}
        return verdicts.pop() if len(verdicts) == 1 else None

    def _decide_binary(self, op: str, left, right, where, text, env: Env, depth: int, *, split: bool, pattern: bool) -> bool | None:
        """``A = B``, ``A == B`` (B a glob when ``pattern``), ``A != B``."""
        if op not in ("==", "=", "!="):
            return None
        lefts = self._condition_texts(left, text, env, depth, split=split)
        rights = self._condition_texts(right, text, env, depth, split=split, pattern=pattern)
        if (lefts is None) != (rights is None):
            # A value the file does not set against a word: a decision of the path.
            symbol = self._condition_subject(left if lefts is None else right, text, env, depth, split=split)
            words = rights if lefts is None else lefts
            if symbol is None or words is None or len(words) != 1:
                return None
            word = _plain(next(iter(words)))
            if word.startswith(_GLOB_MARK):
                glob = word[len(_GLOB_MARK) :]
                equal = self._path_decision(f"glob\0{symbol}\0{glob}", (f"{symbol} matches {glob}", f"{symbol} does not match {glob}"), where, text)
            else:
                shown = word or "''"
                equal = self._path_decision(f"eq\0{symbol}\0{word}", (f"{symbol} is {shown}", f"{symbol} is not {shown}"), where, text)
            return None if equal is None else equal == (op != "!=")
        if lefts is None or rights is None:
            return None
        verdicts = {_case_matches({a}, [{b}]) for a in lefts for b in rights}
        if None in verdicts or len(verdicts) != 1:
            return None
        equal = verdicts.pop()
        return equal if op != "!=" else not equal

    def _decide_test_command(self, node, text, env: Env, depth: int) -> bool | None:
        """``test -n "$X"``, ``test "$1" = decode``, ``test ! ...``: the
        command form of ``[ ]`` (its words, split as a command's)."""
        words = [child for index, child in enumerate(node.children) if node.field_name_for_child(index) == "argument"]
        negated = bool(words) and _node_text(words[0], text) == "!"
        if negated:
            words = words[1:]
        verdict: bool | None = None
        if len(words) == 2:
            verdict = self._decide_unary(_node_text(words[0], text), words[1], node, text, env, depth, split=True)
        elif len(words) == 3:
            verdict = self._decide_binary(_node_text(words[1], text), words[0], words[2], node, text, env, depth, split=True, pattern=False)
        return None if verdict is None else verdict != negated

    def _condition_subject(self, node, text, env: Env, depth: int, *, split: bool) -> str | None:
        """The name a condition's operand stands for when it is one value the file
        does not set: ``$DPA``, ``$1``, ``${ROLE:-prefill}``; else None."""
        fields = self._eval_word_fields(node, text, env, depth + 1) if split else [tuple(self._eval_parts(node, text, env, quoted=True, depth=depth + 1, scalar=True))]
        if len(fields) != 1:
            return None
        return path_subject(_word_value(fields[0]))

    def _condition_texts(self, node, text, env: Env, depth: int, *, split: bool, pattern: bool = False) -> set[str] | None:
        """Every text an operand can be in this run (a glob pattern, marked, when
        ``pattern`` and it is not quoted), or None when one is not known. Known
        means set by the file: a symbol (with or without a default) is not."""
        if pattern and node.type in ("extglob_pattern", "word") and not _has_expansion(node):
            raw = _node_text(node, text)
            return {_GLOB_MARK + raw} if _is_plain_glob(raw) else None
        fields = self._eval_word_fields(node, text, env, depth + 1) if split else [tuple(self._eval_parts(node, text, env, quoted=True, depth=depth + 1, scalar=True))]
        if len(fields) != 1:
            return None
        texts = _strict_texts(_word_value(fields[0]))
        if texts is None or len(texts) > 16:
            return None
        return texts

    def _stmt_subshell(self, node, text, env, depth) -> None:
        inner = env.snapshot()
        try:
            for child in node.named_children:
                self._walk(child, text, inner, depth + 1)
        except _Exit:
            pass  # `( ... exit )` leaves the subshell only

    def _stmt_for_statement(self, node, text, env, depth) -> None:
        variable = node.child_by_field_name("variable")
        body = node.child_by_field_name("body")
        values = node.children_by_field_name("value")
        name = _node_text(variable, text) if variable is not None else ""
        items: list[Word] = []
        for value_node in values:
            items.extend(self._eval_word_fields(value_node, text, env, depth))
        if (
            values
            and _is_identifier(name)
            and body is not None
            and 0 < len(items) <= MAX_UNROLLED_ITERATIONS
            and self.unrolled * len(items) <= MAX_UNROLLED_ITERATIONS
            and not any(isinstance(seg, _SpreadSeg) or seg.value.kind is Kind.UNKNOWN for item in items for seg in item)
            and not _leaves_loop(body, text)
        ):
            # Known words: the body runs once per word, in order, as in bash (`for
            # role in prefill decode; do case $role in ...`), each launch with its
            # own values.
            where = self._loc(variable, text)
            self.unrolled *= len(items)
            try:
                for item in items:
                    env.assign(name, Var(scalar=item, defined_at=where))
                    self._walk(body, text, env, depth + 1)
            finally:
                self.unrolled //= len(items)
            return
        if not values:
            loop_value = Value.unknown('"$@" of the script')
        elif any(any(seg.value.kind is Kind.UNKNOWN for seg in item) for item in items):
            loop_value = Value.unknown("loop over a list that is not static")
        else:
            loop_value = Value.one_of(_word_value(item) for item in items) if items else Value.known("")
        loop_env = env.snapshot()
        if _is_identifier(name):
            loop_env.assign(name, Var(scalar=(Seg(loop_value, self._loc(variable, text)),), defined_at=self._loc(variable, text)))
        if body is not None:
            self.branch_depth += 1
            try:
                self._walk(body, text, loop_env, depth + 1)
            finally:
                self.branch_depth -= 1
        self._merge_into(env, [env.snapshot(), loop_env], self._loc(node, text))

    def _stmt_c_style_for_statement(self, node, text, env, depth) -> None:
        self._loop_unknown(node, text, env, depth)

    def _stmt_while_statement(self, node, text, env, depth) -> None:
        self._loop_unknown(node, text, env, depth)

    def _loop_unknown(self, node, text, env, depth) -> None:
        body = node.child_by_field_name("body")
        loop_env = env.snapshot()
        exited = False
        if body is not None:
            self.branch_depth += 1
            try:
                # The body runs any number of times, with other values each time
                # (`while ...; do case "$1" in ...; shift; done`): no decision in
                # it is one of the path's.
                with suspended(self.paths, "loop"):
                    self._walk(body, text, loop_env, depth + 1)
            except _Exit:
                exited = True
            finally:
                self.branch_depth -= 1
        self._merge_into(env, [env.snapshot()] + ([] if exited else [loop_env]), self._loc(node, text))

    def _stmt_command(self, node, text, env: Env, depth: int) -> None:
        self.reads.append(set())
        try:
            self._run_command(node, text, env, depth)
        finally:
            self.reads.pop()

    def _run_command(self, node, text, env: Env, depth: int) -> None:
        self.commands_seen += 1
        if self.commands_seen > MAX_COMMANDS:
            raise _Budget()
        name_node = node.child_by_field_name("name")
        if name_node is not None and _node_text(name_node, text) == "exit":
            raise _Exit()
        if self._misparsed_assignment(node, text, env, depth):
            return
        # Argument nodes, grouped into the words bash sees: tree-sitter splits
        # `--tp 8\<newline>--dp 2` at the continuation, but bash removes the
        # backslash-newline before it splits words, so `8` and `--dp` are one word
        # `8--dp` (a broken launch that must not look fine).
        groups: list[list] = []
        previous_end = -1
        for index, child in enumerate(node.children):
            field_name = node.field_name_for_child(index)
            if field_name == "name":
                child = child.named_children[0] if child.type == "command_name" and child.named_children else child
            elif field_name != "argument":
                continue
            if groups and text.data[previous_end : child.start_byte] == b"\\\n":
                groups[-1].append(child)
            elif groups and previous_end == child.start_byte and _after_lost_dollar(child, text):
                groups[-1].append(child)  # see _lost_dollar_segs
            else:
                groups.append([child])
            previous_end = child.end_byte
        if self._inert(node, groups, text):
            return
        words: list[Word] = []
        for group in groups:
            if len(group) == 1:
                words.extend(self._eval_word_fields(group[0], text, env, depth))
            else:
                segs = [
                    seg
                    for part in group
                    for seg in (self._lost_dollar_segs(part, text, env, depth) if _after_lost_dollar(part, text) else self._eval_parts(part, text, env, False, depth, False))
                ]
                words.extend(_split_fields(segs))
        if not words:
            return
        command_loc = self._loc(node, text)
        first = _word_value(words[0])
        if first.is_known and first.text in self.functions:
            self._call_function(first.text, words[1:], command_loc, env, depth)
            return
        if first.is_known and first.text in ("shift", "set"):
            self._shift_positional(first.text, words[1:], env)
            return
        if first.is_known and first.text == "eval" and len(words) > 1:
            # eval joins its arguments with spaces and runs the result in this
            # shell (its assignments stay): the string the script built is read
            # as script text, never run.
            joined: list[Seg] = []
            for number, word in enumerate(words[1:]):
                if number:
                    joined.append(Seg(Value.known(" "), command_loc))
                joined.extend(word)
            self._nested_script(tuple(joined), command_loc, env, depth, in_place=True)
            return
        if first.is_known and first.text == "read" and self._read_herestring(node, words, text, env, depth, command_loc):
            return
        if first.is_known and first.text in ("read", "mapfile", "readarray"):
            for word in words[1:]:
                value = _word_value(word)
                if value.is_known and _is_identifier(value.text):
                    env.assign(value.text, Var(scalar=(Seg(Value.unknown(f"read at {command_loc.short()}"), command_loc),)))
            return
        self.running.append((node, text))
        try:
            self._detect_launch(words, command_loc, env, depth)
        finally:
            self.running.pop()

    def _read_herestring(self, node, words: list[Word], text, env: Env, depth: int, command_loc: Location) -> bool:
        """``read -r -a ARR <<< "$STRING"`` / ``read -r NAME <<< "$STRING"`` of a
        string the file knows: the array of its whitespace-separated fields, or
        the string without its leading and trailing blanks (default IFS; -r: no
        backslash processing). False (not handled) for anything else."""
        herestrings = [child for child in node.children if child.type == "herestring_redirect"]
        if len(herestrings) != 1 or len(herestrings[0].named_children) != 1:
            return False
        options = [_word_value(word) for word in words[1:]]
        if not all(option.is_known for option in options):
            return False
        raw, array, names = False, None, []
        index = 0
        while index < len(options):
            option = options[index].text
            if option.startswith("-") and len(option) > 1 and set(option[1:]) <= {"r", "a"}:
                raw = raw or "r" in option
                if "a" in option:
                    if index + 1 >= len(options) or not _is_identifier(options[index + 1].text):
                        return False
                    array = options[index + 1].text
                    index += 1
            elif _is_identifier(option):
                names.append(option)
            else:
                return False
            index += 1
        if not raw or (array is None) == (len(names) != 1) or (array is not None and names):
            return False
        segs = self._eval_parts(herestrings[0].named_children[0], text, env, True, depth + 1, True)
        value = _word_value(tuple(segs))
        if not value.is_known:
            return False
        where = self._loc(herestrings[0], text)
        if array is not None:
            fields = [(Seg(Value.known(field), where),) for field in value.text.split()]
            env.assign(array, Var(array=fields, is_array=True, defined_at=where))
        else:
            env.assign(names[0], Var(scalar=(Seg(Value.known(value.text.strip(_IFS_WHITESPACE)), where),), defined_at=where))
        return True

    def _inert(self, node, groups: list[list], text) -> bool:
        """A command that can neither start a launch nor change a variable, told
        from its source text without evaluating its words (most commands of a
        script: `echo`, `curl`, `nvidia-smi`, `sleep`): its name is a plain word
        that no launch, wrapper, shell, function or positional-parameter builtin
        goes by, and no argument holds a command or process substitution (which
        may launch) or a `${X:=...}` expansion (which assigns)."""
        name_node = node.child_by_field_name("name")
        if name_node is None or not groups or name_node.start_byte != groups[0][0].start_byte:
            return False
        raw = text.data[name_node.start_byte : name_node.end_byte]
        if not raw or any(marker in raw for marker in _NOT_PLAIN):
            return False
        name = raw.rsplit(b"/", 1)[-1].decode("utf-8", "replace")
        if name in _LAUNCH_NAMES or name in self.functions or _PYTHON_NAME.fullmatch(name):
            return False
        if len(groups) > 1:
            # The arguments' source in one slice (what lies between them is blank
            # or a line continuation; a redirection there only makes us evaluate).
            arguments = text.data[groups[1][0].start_byte : groups[-1][-1].end_byte]
            if _MAY_RUN_OR_ASSIGN.search(arguments):
                return False
            if b"sglang" in arguments and name not in _DATA_COMMANDS:
                return False  # may run a launch under a command we do not look through
        return True

    def _shift_positional(self, command: str, args: list[Word], env: Env) -> None:
        # The script's own positional parameters live in a frame of their own
        # (Env.script), unknown until `set --` gives them.
        frame = env.frames[-1] if env.frames else env.script
        if command == "set":
            if args and _word_value(args[0]) == Value.known("--"):
                # (`set -- "$@" "$@"` in a loop doubles them: past the bound, unknown)
                words = []
                for word in args[1:]:
                    if words and _is_spread_word(word) and _is_spread_word(words[-1]):
                        continue  # any words, then any words: any words
                    words.append(word)
                frame.positional = words if len(words) <= MAX_POSITIONAL and sum(map(len, words)) <= MAX_VALUE_SEGS else None
            return
        if frame.positional is None:
            return
        count = _word_value(args[0]) if args else Value.known("1")
        if count.is_known and is_ascii_digits(count.text):
            frame.positional = frame.positional[int(count.text) :]
        else:
            frame.positional = None

    def _call_function(self, name: str, args: list[Word], call_loc: Location, env: Env, depth: int) -> None:
        self.called_functions.add(name)
        if self.call_depth >= MAX_CALL_DEPTH:
            return
        if any(frame.function == name for frame in env.frames):
            # A recursive call: its launches are the ones the outer call already
            # records. Following it only repeated each of them once per level of
            # MAX_CALL_DEPTH (12 copies of the same server).
            return
        body, text = self.functions[name]
        # `$1`/`"$@"` in the body depend on what the call's words read.
        saved_taint = self.taint.get(_POSITIONAL)
        self.taint[_POSITIONAL] = self._depends(self.reads[-1]) if self.reads else frozenset()
        env.frames.append(Frame(name, list(args), call_site=call_loc))
        self.call_stack.append((name, call_loc, (call_loc.line, call_loc.end_line)))
        self.call_depth += 1
        try:
            # The body nests inside the call: counting on from the caller's depth
            # (not from 0) keeps the Python stack bounded by MAX_TREE_DEPTH; from 0,
            # 12 nested calls of deep bodies overflowed it (RecursionError).
            self._walk(body, text, env, depth + 1)
        finally:
            self.call_depth -= 1
            self.call_stack.pop()
            env.frames.pop()
            if saved_taint is None:
                self.taint.pop(_POSITIONAL, None)
            else:
                self.taint[_POSITIONAL] = saved_taint

    # -- words ------------------------------------------------------------------
    def _eval_word_scalar(self, node, text, env: Env, depth: int) -> Word:
        """A word where bash does no field splitting (assignment values)."""
        segs = self._eval_parts(node, text, env, quoted=False, depth=depth, scalar=True)
        return tuple(Seg(s.value, s.loc, False, True, s.chars, s.origin) for s in segs)

    def _eval_word_fields(self, node, text, env: Env, depth: int) -> list[Word]:
        """The words (fields) one argument node becomes."""
        spread = self._eval_spread(node, text, env)
        if spread is not None:
            return spread
        segs = self._eval_parts(node, text, env, quoted=False, depth=depth, scalar=False)
        return _split_fields(segs)

    def _eval_spread(self, node, text, env: Env) -> list[Word] | None:
        """``"$@"``, ``"${A[@]}"`` and their unquoted forms as the whole word."""
        quoted = False
        inner = node
        if node.type == "string" and len(node.named_children) == 1:
            inner = node.named_children[0]
            quoted = True
        loc = self._loc(node, text)
        if inner.type == "simple_expansion" and inner.named_children and inner.named_children[0].type == "special_variable_name":
            name = _node_text(inner.named_children[0], text)
            if name in ("@", "*") and (quoted is False or name == "@"):
                return self._positional_words(env, loc, split=not quoted)
        if not quoted and inner.type == "expansion":
            guarded = _guarded_array(inner, text)
            if guarded is not None:
                # `${A[@]+"${A[@]}"}` (safe under `set -u` when A may be empty or
                # unset) expands to exactly what `"${A[@]}"` does.
                return self._eval_spread(guarded, text, env)
        if inner.type == "expansion" and inner.named_children and inner.named_children[0].type == "subscript" and len(inner.children) > 3:
            # `${A[@]:1}`, `${A[@]/x/y}`, `${!A[@]}`: a list of words we do not
            # compute. (These used to be taken for `${A[@]}`: every element,
            # the slice or substitution ignored; `${#A[@]}` gave the elements
            # instead of their count.)
            subscript = inner.named_children[0]
            index = subscript.child_by_field_name("index")
            prefix_count = inner.children[1].type == "#"
            if index is not None and _node_text(index, text) in ("@", "*") and not prefix_count and not (quoted and _node_text(index, text) == "*"):
                return [_spread_word(Value.unknown(f"{_node_text(inner, text)[:40]} is not evaluated"), loc)]
            return None
        if inner.type == "expansion" and len(inner.named_children) == 1 and inner.named_children[0].type == "subscript":
            subscript = inner.named_children[0]
            base = subscript.child_by_field_name("name")
            index = subscript.child_by_field_name("index")
            if base is not None and index is not None and _node_text(index, text) in ("@", "*"):
                if _node_text(index, text) == "*" and quoted:
                    return None
                name = _node_text(base, text)
                found, var = self._lookup(env, name)
                if found and var is not None and var.is_array:
                    if var.array is None:
                        return [(Seg(Value.unknown(f"${{{name}[@]}}"), loc, quoted=quoted),)]
                    return [self._relocate(word, loc, var.defined_at, split=not quoted) for word in var.array] if quoted else _split_fields(
                        [seg for word in var.array for seg in self._relocate(word, loc, var.defined_at, split=True) + (Seg(Value.known(" "), loc, split=True),)]
                    )
                if found and var is not None and var.scalar is not None:
                    return _split_fields(list(self._relocate(var.scalar, loc, var.defined_at, split=not quoted))) if not quoted else [self._relocate(var.scalar, loc, var.defined_at, split=False)]
                return [_spread_word(Value.unknown(f"${{{name}[@]}} is not set in this file"), loc)]
        return None

    def _positional_words(self, env: Env, loc: Location, split: bool) -> list[Word]:
        frame = env.frames[-1] if env.frames else env.script
        if frame.positional is None:
            owner = f"{frame.function}()" if frame.function else "the script"
            return [_spread_word(Value.unknown(f'"$@" of {owner}'), loc)]
        words = []
        for word in frame.positional:
            relocated = self._relocate(word, loc, None, split=split)
            words.extend(_split_fields(list(relocated)) if split else [relocated])
        return words

    def _relocate(self, word: Word, use_loc: Location, origin: Location | None, split: bool) -> Word:
        """The pieces of a stored word expanded at ``use_loc``."""
        return tuple(
            type(seg)(seg.value, use_loc, split=split, quoted=not split, chars=seg.chars, origin=seg.origin or origin or (seg.loc if seg.loc is not _NOWHERE else None))
            for seg in word
        )

    def _eval_parts(self, node, text, env: Env, quoted: bool, depth: int, scalar: bool) -> list[Seg]:
        kind = node.type
        loc = self._loc(node, text)
        if depth > MAX_TREE_DEPTH:
            # `${A:-"${A:-"${A:-...}"}"}` nests without bound: recursing on it
            # raised RecursionError. Words count on from their statement's depth.
            self._note_depth(node, text)
            return [Seg(Value.unknown("nested too deeply"), loc, split=not quoted)]
        if kind in ("word", "number", "extglob_pattern"):
            raw = _node_text(node, text)
            if kind == "word" and "\\" in raw:
                unescaped, kept = _unescape(raw, None)
                return [Seg(Value.known(unescaped), loc, quoted=True, chars=self._kept_chars(node.start_byte, raw, kept, text))]
            return [Seg(Value.known(raw), loc, chars=self._char_positions(node, text, raw))]
        if kind == "raw_string":
            raw = _node_text(node, text)[1:-1]
            start = node.start_byte + 1
            return [Seg(Value.known(raw), loc, quoted=True, chars=self._chars_from(start, raw, text))]
        if kind == "ansi_c_string":
            raw = _node_text(node, text)[2:-1]
            if "\\" in raw:
                return [Seg(Value.known(_ansi_c(raw)), loc, quoted=True)]
            return [Seg(Value.known(raw), loc, quoted=True, chars=self._chars_from(node.start_byte + 2, raw, text))]
        if kind == "string":
            segs: list[Seg] = [Seg(Value.known(""), loc, quoted=True)]
            previous_end = node.start_byte + 1  # after the opening quote

            def between(end: int) -> None:
                # Text tree-sitter leaves between the pieces: the line breaks of a
                # string over several lines (`bash -c "cd /w<newline>python3 ..."` is
                # two commands, not one), and blanks it folds into the next token
                # (`"$A $B"`: the second `$` token is ` $`; `" "`: the closing quote
                # token is ` "`), which bash keeps.
                if end > previous_end:
                    raw = text.data[previous_end:end].decode("utf-8", "surrogatepass")
                    unescaped, kept = _unescape(raw, _DOUBLE_QUOTE_ESCAPES)
                    if unescaped:
                        segs.append(Seg(Value.known(unescaped), loc, quoted=True, chars=self._kept_chars(previous_end, raw, kept, text)))

            for child in node.named_children:
                start = child.start_byte
                if child.type != "string_content":
                    while start < child.end_byte and text.data[start : start + 1] in (b" ", b"\t", b"\n"):
                        start += 1
                between(start)
                previous_end = max(previous_end, child.end_byte)
                if child.type == "string_content":
                    raw = _node_text(child, text)
                    if "\\" in raw:
                        # Keep each remaining character's position: `bash -c "... \$P"`
                        # is common, and without them every word of the inner
                        # command was located at the string's start.
                        unescaped, kept = _unescape(raw, _DOUBLE_QUOTE_ESCAPES)
                        chars = self._kept_chars(child.start_byte, raw, kept, text)
                        segs.append(Seg(Value.known(unescaped), self._loc(child, text), quoted=True, chars=chars))
                    else:
                        segs.append(Seg(Value.known(raw), self._loc(child, text), quoted=True, chars=self._char_positions(child, text, raw)))
                else:
                    segs.extend(Seg(s.value, s.loc, False, True, s.chars, s.origin) for s in self._eval_parts(child, text, env, True, depth + 1, scalar))
            if text.data[node.end_byte - 1 : node.end_byte] == b'"':
                between(node.end_byte - 1)  # before the closing quote: `" $X "`
            return segs
        if kind == "variable_name":
            # Only a name outside an expansion reaches here: tree-sitter-bash reads
            # the `deepseek` of `${MODEL:-deepseek-ai/DeepSeek-V3}` as one; bash,
            # as text.
            raw = _node_text(node, text)
            return [Seg(Value.known(raw), loc, quoted=quoted, chars=self._char_positions(node, text, raw))]
        if kind == "concatenation":
            segs = []
            for child in node.named_children:
                segs.extend(self._eval_parts(child, text, env, quoted, depth + 1, scalar))
            # A concatenation's pieces may sit next to unnamed tokens; those are literal.
            return segs
        if kind == "simple_expansion":
            return self._expand_simple(node, text, env, quoted, loc)
        if kind == "expansion":
            return self._expand_braced(node, text, env, quoted, loc, depth)
        if kind == "arithmetic_expansion":
            value = self._eval_arith_node(node.named_children[0] if node.named_children else None, text, env, depth + 1)
            return [Seg(value, loc, split=not quoted)]
        if kind in ("command_substitution", "process_substitution"):
            return [Seg(Value.unknown(f"output of {_node_text(node, text)[:40]}"), loc, split=not quoted)]
        if kind == "translated_string":
            return [Seg(Value.unknown("locale-translated string"), loc, quoted=True)]
        if kind == "brace_expression":
            return [Seg(Value.unknown("brace expansion"), loc)]
        return [Seg(Value.unknown(f"{kind} is not evaluated"), loc)]

    def _kept_chars(self, start_byte: int, raw: str, kept: list[int], text) -> tuple[tuple[int, int], ...]:
        positions = self._chars_from(start_byte, raw, text)
        return tuple(positions[index] for index in kept)

    def _char_positions(self, node, text, raw: str) -> tuple[tuple[int, int], ...] | None:
        return self._chars_from(node.start_byte, raw, text)

    def _chars_from(self, start_byte: int, raw: str, text) -> tuple[tuple[int, int], ...]:
        if text is not self.file_text:  # see _loc
            return self._compute_chars(start_byte, raw, text)
        key = (start_byte, len(raw))
        cached = self._chars_cache.get(key)
        if cached is None:
            cached = self._chars_cache[key] = self._compute_chars(start_byte, raw, text)
        return cached

    def _compute_chars(self, start_byte: int, raw: str, text) -> tuple[tuple[int, int], ...]:
        if isinstance(text, FileText):
            # In the file itself the characters are contiguous: one position lookup
            # and then counting. (A lookup per character costs the length of the
            # line each: a 1 MB word took 40 s.)
            line, column = text.position(start_byte)
            if "\n" not in raw:  # most words: one run of columns, built in C
                return tuple(zip(itertools.repeat(line, len(raw)), range(column, column + len(raw))))
            positions = []
            for char in raw:
                positions.append((line, column))
                if char == "\n":
                    line, column = line + 1, 1
                else:
                    column += 1
            return tuple(positions)
        positions = []
        offset = start_byte
        for char in raw:
            positions.append(text.position(offset))
            offset += len(char.encode("utf-8", "surrogatepass"))
        return tuple(positions)

    def _lookup(self, env: Env, name: str) -> tuple[bool, Var | None]:
        """``env.lookup`` of an array read as ``${A[@]}``, noted as read."""
        for collector in self.reads:
            collector.add(name)
        return env.lookup(name)

    def _expand_variable(self, name: str, env: Env, quoted: bool, loc: Location) -> list[Seg] | None:
        """Segs of ``$name``, or None when the variable is not set in the script."""
        if self.reads:
            read = _POSITIONAL if is_ascii_digits(name) or name in ("@", "*", "#") else name
            for collector in self.reads:
                collector.add(read)
        if is_ascii_digits(name):
            frame = env.frames[-1] if env.frames else env.script
            index = int(name)
            if index == 0:
                return [Seg(Value.unknown("$0"), loc, split=not quoted)]
            if frame.positional is None:
                owner = f" of {frame.function}()" if frame.function else ""
                return [Seg(Value.symbol(f"${name}{owner}"), loc, split=not quoted)]
            if index > len(frame.positional):
                return [Seg(Value.known(""), loc, split=not quoted)]
            return list(self._relocate(frame.positional[index - 1], loc, None, split=not quoted))
        if name in ("@", "*"):
            words = self._positional_words(env, loc, split=False)
            if len(words) == 1 and words[0] and words[0][0].value.kind is Kind.UNKNOWN:
                return [Seg(words[0][0].value, loc, split=not quoted)]
            segs: list[Seg] = []
            for index, word in enumerate(words):
                if index:
                    segs.append(Seg(Value.known(" "), loc, split=not quoted))
                segs.extend(Seg(s.value, loc, not quoted, quoted, s.chars, s.origin) for s in word)
            return segs
        if name == "#":
            frame = env.frames[-1] if env.frames else env.script
            if frame.positional is not None:
                return [Seg(Value.known(str(len(frame.positional))), loc)]
            return [Seg(Value.unknown("$#"), loc)]
        if not _is_identifier(name):
            return [Seg(Value.unknown(f"${name}"), loc, split=not quoted)]
        found, var = env.lookup(name)
        if not found:
            configured = self.configured_env.get(name)
            return None if configured is None else [Seg(Value.known(configured), loc, split=not quoted)]
        if var is None:
            return [Seg(Value.known(""), loc, split=not quoted)]
        if var.is_array:
            if var.array is None:
                return [Seg(Value.unknown(f"${name} (an array changed element by element)"), loc, split=not quoted)]
            first = var.array[0] if var.array else ()
            return list(self._relocate(first, loc, var.defined_at, split=not quoted))
        return list(self._relocate(var.scalar or (), loc, var.defined_at, split=not quoted))

    def _expand_simple(self, node, text, env: Env, quoted: bool, loc: Location) -> list[Seg]:
        named = node.named_children
        if not named:
            return [Seg(Value.known("$"), loc, quoted=quoted)]
        name = _node_text(named[0], text)
        if len(name) > 1 and is_ascii_digits(name):
            # `$23` is `${2}3`: one digit names a positional parameter.
            return [*(self._expand_variable(name[0], env, quoted, loc) or []), Seg(Value.known(name[1:]), loc, quoted=quoted)]
        segs = self._expand_variable(name, env, quoted, loc)
        if segs is None:
            return [Seg(Value.symbol("$" + name), loc, split=not quoted)]
        return segs

    def _expand_braced(self, node, text, env: Env, quoted: bool, loc: Location, depth: int) -> list[Seg]:
        named = node.named_children
        children = node.children
        if not named:
            return [Seg(Value.unknown("${}"), loc)]
        target = named[0]
        operator = node.child_by_field_name("operator")
        # ${#A}: the operator comes before the name.
        if operator is not None and operator.start_byte < target.start_byte:
            return [Seg(Value.unknown(f"{_node_text(node, text)}"), loc, split=not quoted)]
        if target.type == "subscript":
            base = target.child_by_field_name("name")
            index = target.child_by_field_name("index")
            name = _node_text(base, text) if base is not None else ""
            index_text = _node_text(index, text) if index is not None else ""
            found, var = self._lookup(env, name)
            if len(children) > 3:
                # An operator (`${A[5]:-x}`, `${A[@]:1}`): not the element itself,
                # which is what this branch used to return.
                return [Seg(Value.unknown(f"{_node_text(node, text)[:40]} is not evaluated"), loc, split=not quoted)]
            if index_text in ("@", "*"):
                if found and var is not None and var.is_array and var.array is not None:
                    segs = []
                    for i, word in enumerate(var.array):
                        if i:
                            segs.append(Seg(Value.known(" "), loc, split=not quoted))
                        segs.extend(self._relocate(word, loc, var.defined_at, split=not quoted))
                    return segs
                return [Seg(Value.unknown(f"${{{name}[@]}}"), loc, split=not quoted)]
            if found and var is not None and var.is_array and var.array is not None and is_ascii_digits(index_text):
                position = int(index_text)
                if position < len(var.array):
                    return list(self._relocate(var.array[position], loc, var.defined_at, split=not quoted))
                return [Seg(Value.known(""), loc, split=not quoted)]
            return [Seg(Value.unknown(_node_text(node, text)), loc, split=not quoted)]
        name = _node_text(target, text)
        if operator is None and len(named) == 1:
            segs = self._expand_variable(name, env, quoted, loc)
            if segs is None:
                return [Seg(Value.symbol("$" + name), loc, split=not quoted)]
            return segs
        op = _node_text(operator, text) if operator is not None else ""
        if not op:
            # tree-sitter does not always tag the operator; find the unnamed token.
            for child in children:
                if not child.is_named and child.type not in ("${", "}"):
                    op = child.type
                    break
        operand_nodes = [c for c in named[1:]]
        if op in (":-", "-", ":=", "="):
            segs = self._expand_variable(name, env, quoted, loc)
            if is_ascii_digits(name) and name != "0":
                frame = env.frames[-1] if env.frames else env.script
                if frame.positional is None:
                    # `${2:-8}` of parameters the caller passes: the default counts,
                    # as for an environment variable (it was dropped).
                    segs = None
                    owner = f" of {frame.function}()" if frame.function else ""
                    operand_value = _word_value(tuple(self._eval_operand(operand_nodes, text, env, depth)))
                    default = operand_value.text if operand_value.is_known else None
                    return [Seg(Value.symbol(f"${name}{owner}", default), loc, split=not quoted)]
            if segs is not None and (op in ("-", "=") or _word_value(tuple(segs)) != Value.known("")):
                return segs
            operand = self._eval_operand(operand_nodes, text, env, depth)
            operand_value = _word_value(tuple(operand))
            if segs is not None:
                # Set but possibly empty (":-" on an empty variable gives the default).
                return [Seg(operand_value, loc, split=not quoted)] if operand else [Seg(Value.known(""), loc)]
            default = None
            if operand_value.is_known:
                default = operand_value.text
            if op in (":=", "="):
                env.assign(name, Var(scalar=(Seg(Value.symbol("$" + name, default), loc),), defined_at=loc))
            return [Seg(Value.symbol("$" + name, default), loc, split=not quoted)]
        if op in (":+", "+"):
            segs = self._expand_variable(name, env, quoted, loc)
            symbol = f"${name}" if segs is None else path_subject(_word_value(tuple(segs)))
            if symbol is not None and op == ":+" and not (is_ascii_digits(name) and segs is None):
                # `${DPA:+--enable-dp-attention}` of a variable the file does not
                # set: a decision of the path, as `[ -n "$DPA" ]` (paths.py).
                key = f"nonempty\0{symbol}"
                taken = self._implied(key)
                if taken is None:
                    where = loc if loc.path else self._loc(node, text)
                    self.paths.differs(*decision(key, (f"{symbol} is non-empty", f"{symbol} is empty"), where), where)
                    # What reads this word depends on the decision.
                    self.taint["\0" + key] = frozenset((key,))
                    for collector in self.reads:
                        collector.add("\0" + key)
                elif taken:
                    return self._alternate_word(operand_nodes, text, env, depth, quoted, loc)
                else:
                    return [Seg(Value.known(""), loc, split=not quoted)]
            if segs is None:
                return [Seg(Value.unknown(f"${{{name}{op}...}} of a variable not set in this file"), loc, split=not quoted)]
            value = _word_value(tuple(segs))
            if op == "+" or (value.is_known and value.text != ""):
                return self._alternate_word(operand_nodes, text, env, depth, quoted, loc)
            if value.is_known:
                return [Seg(Value.known(""), loc)]
            return [Seg(Value.unknown(f"${{{name}{op}...}}"), loc, split=not quoted)]
        return [Seg(Value.unknown(f"{_node_text(node, text)[:40]} is not evaluated"), loc, split=not quoted)]

    def _alternate_word(self, nodes, text, env: Env, depth: int, quoted: bool, loc: Location) -> list[Seg]:
        """The word of ``${X:+word}`` when X is set: unquoted, its unquoted pieces
        split into fields at the blanks between them, its quoted pieces
        (``"$TP"``) stay whole (found by the bash oracle: ``--page-size "$TP"``
        was one field)."""
        segs: list[Seg] = []
        previous = None
        # tree-sitter makes the word one concatenation whose pieces may have
        # blanks between them that no node covers.
        pieces = [child for node in nodes for child in (node.named_children if node.type == "concatenation" else [node])]
        for node in pieces:
            if previous is not None and node.start_byte > previous.end_byte:
                gap = text.data[previous.end_byte : node.start_byte].decode("utf-8", "replace")
                segs.append(Seg(Value.known(gap), loc, split=not quoted, quoted=quoted))
            inner_quoted = quoted or node.type in ("string", "raw_string", "ansi_c_string")
            for seg in self._eval_parts(node, text, env, True, depth + 1, True):
                segs.append(Seg(seg.value, loc, not inner_quoted, inner_quoted, seg.chars, seg.origin))
            previous = node
        return segs

    def _eval_operand(self, nodes, text, env, depth) -> list[Seg]:
        segs: list[Seg] = []
        for node in nodes:
            segs.extend(self._eval_parts(node, text, env, True, depth + 1, True))
        return segs

    def _eval_arith_node(self, node, text, env: Env, depth: int) -> Value:
        if node is None:
            return Value.unknown("empty arithmetic")
        try:
            candidates = self._arith(node, text, env, depth)
        except _NotConstant as reason:
            return Value.unknown(f"$(( {_node_text(node, text)} )) is not constant: {reason}")
        return Value.one_of(Value.known(str(c)) for c in candidates)

    def _arith(self, node, text, env: Env, depth: int) -> set[int]:
        # ``depth`` counts on from the word's (it used to restart at 0 in each
        # nested $((...)) inside ${...}, an unbounded recursion).
        if depth > MAX_TREE_DEPTH:
            raise _NotConstant("too deep")
        kind = node.type
        if kind == "number":
            raw = _node_text(node, text)
            try:
                return {int(raw, 0)}
            except ValueError as error:
                raise _NotConstant(raw) from error
        if kind in ("variable_name", "word", "simple_expansion", "expansion"):
            if kind in ("variable_name", "word"):
                name = _node_text(node, text)
                if is_ascii_digits(name):
                    return {int(name)}
                segs = self._expand_variable(name, env, True, _NOWHERE) if _is_identifier(name) else None
            else:
                segs = self._eval_parts(node, text, env, True, depth + 1, True)
            if segs is None:
                raise _NotConstant(f"${_node_text(node, text)} is not set in this file")
            value = _word_value(tuple(segs))
            # In a condition only what the file sets counts (not a `${N:-1}` default).
            candidates = _strict_texts(value) if self.strict_arith else value.candidates()
            if candidates is None:
                raise _NotConstant(value.describe())
            result = set()
            for candidate in candidates:
                try:
                    result.add(int(candidate.strip() or "0", 0))
                except ValueError as error:
                    raise _NotConstant(candidate) from error
            return result
        if kind == "parenthesized_expression":
            inner = node.named_children
            if len(inner) != 1:
                raise _NotConstant("expression")
            return self._arith(inner[0], text, env, depth + 1)
        if kind == "binary_expression":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            operator = node.child_by_field_name("operator")
            if left is None or right is None or operator is None:
                raise _NotConstant("expression")
            op = operator.type
            lhs = self._arith(left, text, env, depth + 1)
            rhs = self._arith(right, text, env, depth + 1)
            if len(lhs) * len(rhs) > 64:
                raise _NotConstant("too many alternatives")
            result = set()
            for a in lhs:
                for b in rhs:
                    result.add(_arith_op(op, a, b))
            return result
        if kind == "unary_expression":
            operand = node.named_children[0] if node.named_children else None
            op = node.children[0].type if node.children else ""
            if operand is None or op not in ("-", "+"):
                raise _NotConstant("expression")
            values = self._arith(operand, text, env, depth + 1)
            return {-v if op == "-" else v for v in values}
        raise _NotConstant(kind)

    # -- launches ---------------------------------------------------------------------
    def _detect_launch(self, words: list[Word], command_loc: Location, env: Env, depth: int) -> None:
        index = 0
        while index < len(words):
            value = _word_value(words[index])
            name = _command_basename(value)
            if name is None:
                self._dropped_launch(words, index, command_loc, "word")
                return
            if name == "eval":
                self._dropped_launch(words, index + 1, command_loc, "eval")
                return
            if name in _DATA_COMMANDS or name in ("source", ".", "export", "alias"):
                return
            if name in WRAPPERS:
                index = WRAPPERS[name].skip(words, index, _word_value)
                continue
            if _is_env_assignment(value):
                index += 1
                continue
            if name in _SHELLS:
                self._shell_c(words, index, command_loc, env, depth)
                return
            if name == "ssh":
                self._ssh(words, index, command_loc, env, depth)
                return
            if name in ("docker", "podman", "nvidia-docker"):
                index = _skip_docker_run(words, index)
                if index < 0:
                    return
                continue
            if name == "sglang" and index + 1 < len(words) and _word_value(words[index + 1]) == Value.known("serve"):
                self._record(EntryPoint.SGLANG_SERVE, words, index, index + 2, command_loc)
                return
            if name == "sglang-router":
                start = index + 1
                if start < len(words) and _word_value(words[start]) == Value.known("launch"):
                    start += 1
                self._record(EntryPoint.ROUTER_BINARY, words, index, start, command_loc)
                return
            if _PYTHON_NAME.fullmatch(name):
                module, after = _python_module(words, index + 1)
                if module in _ENTRY_MODULES:
                    self._record(_ENTRY_MODULES[module], words, index, after, command_loc)
                elif module is None and after > index + 1 and after <= len(words) and _word_value(words[after - 1]).kind is not Kind.KNOWN:
                    self._dropped_launch(words, after - 1, command_loc, "module")  # `python -m $MODULE`
                return
            if _runs_python_module(words, index + 1) or (name in _COMMAND_STRING_RUNNERS and self._mentions(words[index + 1 :])):
                self._dropped_launch(words, index, command_loc, "wrapper")
            return

    def _record(self, entry: EntryPoint, words: list[Word], start: int, args_from: int, command_loc: Location) -> None:
        tokens = [self._token(word, command_loc) for word in words[args_from:]]
        first = self._token(words[start], command_loc).location if words[start] else command_loc
        ranges = [(command_loc.line, command_loc.end_line)] + [r for _, _, r in self.call_stack]
        context = ""
        if self.call_stack:
            context = " <- ".join(f"{name}() called at {loc.short()}" for name, loc, _ in reversed(self.call_stack))
        self.launch_lines.add(first.line)
        for word in words[start:args_from]:
            for seg in word:
                if seg.chars:
                    self.launch_lines.add(seg.chars[0][0])
                elif seg.loc.path:
                    self.launch_lines.add(seg.loc.line)
        record_cls = RouterLaunch if entry in _ROUTER_ENTRIES else ServerLaunch
        launch = record_cls(
            path=self.path,
            location=first,
            entry=entry,
            args=tokens,
            line_ranges=tuple(dict.fromkeys(ranges)),
            context=context,
        )
        if isinstance(launch, RouterLaunch):
            self.result.routers.append(launch)
        else:
            self.result.servers.append(launch)
        relevant = self._depends(name for reads in self.reads for name in reads)
        self.paths.launch(imprecise_launch(launch) or bool(relevant & self.exit_keys), relevant)

    def _token(self, word: Word, fallback: Location) -> ArgToken:
        if not word:
            return ArgToken(Value.known(""), fallback)
        value = _word_value(word)
        spread = any(isinstance(seg, _SpreadSeg) for seg in word)
        located = [seg.loc for seg in word if seg.loc is not _NOWHERE and seg.loc.path]
        if located:
            # The first piece of `"$X"` is the whole string and the last one only
            # `$X`: the word spans from the smallest start to the largest end (the
            # last piece's end cut the closing quote off).
            start = min((loc.line, loc.column) for loc in located)
            end = max((loc.end_line, loc.end_column) for loc in located)
            location = Location(self.path, start[0], start[1], end[0], end[1])
        else:
            location = fallback
        origin = None
        defined = [seg for seg in word if seg.origin is not None]
        # The empty piece that opens a quoted word carries no text of its own.
        defined = [seg for seg in defined if not (seg.value.is_known and seg.value.text == "")] or defined
        if defined:
            # The text that came from elsewhere is the pieces with an origin. Their
            # exact characters are the origin when they come from one place; the
            # literal pieces written at the use site (`--tp=` of `--tp=$TP`) are not
            # part of it (mixing them made a span from the use line back to the
            # assignment line, end before start).
            char_positions = [pos for seg in defined if seg.chars for pos in seg.chars]
            one_place = len({seg.origin for seg in defined}) == 1
            if one_place and char_positions and all(seg.chars for seg in defined if seg.value.is_known and seg.value.text):
                first, last = char_positions[0], char_positions[-1]
                origin = Location(self.path, first[0], first[1], last[0], last[1] + 1)
            else:
                origin = defined[0].origin
        return ArgToken(value, location, origin, spread)

    def _shell_c(self, words: list[Word], index: int, command_loc: Location, env: Env, depth: int) -> None:
        """``bash -c 'CMD'``: the string is a script of its own."""
        position = index + 1
        while position < len(words):
            option = _word_value(words[position])
            if not option.is_known or not option.text.startswith("-") or option.text in ("-", "--"):
                return  # `bash script.sh`: another file, not followed
            position += 1
            if "c" in option.text[1:] and not option.text.startswith("--"):
                break
            if option.text in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
                position += 1
        else:
            return
        if position >= len(words):
            return
        self._nested_script(words[position], command_loc, env, depth)

    def _ssh(self, words: list[Word], index: int, command_loc: Location, env: Env, depth: int) -> None:
        position = index + 1
        while position < len(words):
            option = _word_value(words[position])
            if not option.is_known:
                break  # the host, most often a variable (`ssh $PREFILL_HOST "..."`)
            if option.text.startswith("-") and len(option.text) > 1:
                flag = option.text[:2]
                position += 1
                if flag in SSH_VALUE_OPTIONS and len(option.text) == 2:
                    position += 1
                continue
            break
        position += 1  # the host
        if position >= len(words):
            return
        # ssh joins the remaining words with spaces and the remote shell parses them.
        joined: list[Seg] = []
        for number, word in enumerate(words[position:]):
            if number:
                # The joining space sits right after the previous word (at the next
                # word's start it made every word end one column too far).
                previous = [seg.loc for seg in words[position + number - 1] if seg.loc.path]
                space_loc = Location(self.path, previous[-1].end_line, previous[-1].end_column) if previous else command_loc
                joined.append(Seg(Value.known(" "), space_loc))
            joined.extend(word)
        self._nested_script(tuple(joined), command_loc, env, depth)

    def _nested_script(self, word: Word, command_loc: Location, env: Env, depth: int, in_place: bool = False) -> None:
        if self.call_depth >= MAX_CALL_DEPTH:
            return
        chars: list[str] = []
        positions: list[tuple[int, int]] = []
        placeholders: dict[str, Seg] = {}
        for seg in word:
            start = (seg.loc.line, seg.loc.column) if seg.loc.path else (command_loc.line, command_loc.column)
            if seg.value.is_known:
                chars.append(seg.value.text)
                if seg.chars and len(seg.chars) == len(seg.value.text) and seg.origin is None:
                    positions.extend(seg.chars)
                else:
                    positions.extend([start] * len(seg.value.text))
            else:
                # Stand in for what the outer shell substitutes with a variable of the
                # inner script that holds the same value.
                name = f"__sglang_lint_{len(placeholders)}"
                placeholders[name] = seg
                stand_in = "${" + name + "}"
                chars.append(stand_in)
                positions.extend([start] * len(stand_in))
        script = "".join(chars)
        embedded = EmbeddedText(script, positions)
        inner_env = env if in_place else env.snapshot()
        for name, seg in placeholders.items():
            inner_env.globals[name] = Var(scalar=(Seg(seg.value, seg.loc, chars=None, origin=seg.origin),))
        tree = parse_bash(embedded.data)
        found = len(self.result.servers), len(self.result.routers)
        self.call_depth += 1
        try:
            try:
                self._walk(tree.root_node, embedded, inner_env, depth + 1)  # see _call_function
            except _Exit:
                if in_place:
                    raise  # `eval exit` ends this shell
        finally:
            self.call_depth -= 1
        if b"\\" in embedded.data:
            launches = [*self.result.servers[found[0] :], *self.result.routers[found[1] :]]
            self._find_broken_continuations(tree.root_node, embedded, launches)

    # -- facts for SGL205 ------------------------------------------------------------
    def _find_continuation_breaks(self, root) -> None:
        """A comment line inside a backslash continuation ends the command (bash
        drops the backslash-newline, then the comment runs to the end of the line);
        the option lines after it become a command of their own."""
        lines = self.result.lines
        found = []
        # A `#` inside a string or a heredoc is text, not a comment.
        for node in _comment_nodes(root, self.file_text.data):
            if _inside_text(node):
                continue
            line, column = self.file_text.position(node.start_byte)
            self.result.comments[line] = _node_text(node, self.file_text)
            found.append((line, column, node))
        # In file order (the walk above visits the last children first).
        for line, column, node in sorted(found, key=lambda item: item[:2]):
            # The previous line must end in a real continuation: a backslash at the
            # end of a comment (`# see \`) is part of that comment, and taking it for
            # one reported breaks where no command was continued. A backslash with
            # blanks after it continued nothing either: the command already ended
            # there (SGL207's break, not this one).
            if not (
                line >= 2
                and _odd_backslashes(lines[line - 2].rstrip("\r").encode(), len(lines[line - 2].rstrip("\r").encode()))
                and (line - 1) not in self.result.comments
                and lines[line - 1][: column - 1].strip() == ""
            ):
                continue
            # The orphaned words may come after more comment lines; the break is
            # at the first comment, the one that ended the command.
            following = node.next_named_sibling
            while following is not None and following.type == "comment":
                following = following.next_named_sibling
            if following is not None:
                next_line, next_col = self.file_text.position(following.start_byte)
                first_word = lines[next_line - 1][next_col - 1 :].lstrip()
                if first_word.startswith("-"):
                    self.result.continuation_breaks.append(
                        (self._loc(node, self.file_text), self._loc(following, self.file_text))
                    )


    # -- facts for SGL207 ------------------------------------------------------------
    def _find_broken_continuations(self, root, text, launches: list) -> None:
        """A backslash followed by blanks (and maybe a comment) at the end of a line
        of a launch's command: bash reads an escaped blank (a word of its own, or
        the start of one: ``\\ #c`` is the word `` #c``), so the command ends at
        this line and the next line runs as a command of its own. tree-sitter drops
        the escaped blank and ends the command there too, so the launch already
        lacks the lost options; this records where and why.

        Only where the continued command is a launch, leads into one (``nohup \\ ``
        before ``python3 -m sglang.launch_server``), or was itself cut off a
        launch by an earlier break."""
        data = text.data
        if b"\\" not in data or not launches:
            return
        raw_lines = data.split(b"\n")
        offsets = [0]
        for raw in raw_lines[:-1]:
            offsets.append(offsets[-1] + len(raw) + 1)
        lines = [raw.rstrip(b"\r") for raw in raw_lines]
        continued = [_odd_backslashes(line, len(line)) for line in lines]

        def file_line(row: int) -> int:
            return text.position(offsets[row])[0]

        starts: set[int] = set()
        for launch in launches:
            starts.add(launch.location.line)
            starts.update(first for first, _ in launch.line_ranges[1:])  # call sites
        orphan_rows: set[int] = set()
        seen = {fact.location for fact in self.result.broken_continuations}
        for row, line in enumerate(lines):
            match = _BROKEN_CONTINUATION.search(line)
            if match is None or not _odd_backslashes(line, match.start() + 1):
                continue
            offset = offsets[row] + match.start()
            node = root.descendant_for_byte_range(offset, offset + 1)
            if node is None or node.type in ("comment", "heredoc_body", "string", "raw_string", "string_content", "ansi_c_string", "translated_string") or _inside_text(node):
                continue
            # The lines bash joins into this command, and the ones it runs next.
            first = row
            while first > 0 and continued[first - 1]:
                first -= 1
            after = row + 1
            while after < len(lines) and lines[after].lstrip(b" \t").startswith(b"#"):
                after += 1
            orphan: tuple[int, int] | None = None
            if after < len(lines) and lines[after].strip(b" \t"):
                last = after
                while continued[last] and last + 1 < len(lines):
                    last += 1
                orphan = (after, last)
            rows = [(first, row)] + ([orphan] if orphan is not None else [])
            leads_to_launch = any(file_line(a) <= start <= file_line(b) for a, b in rows for start in starts)
            if not leads_to_launch and first not in orphan_rows:
                continue
            if orphan is not None:
                orphan_rows.add(orphan[0])
            line_no, column = text.position(offset)
            end_line, end_column = text.position(offsets[row] + len(line))
            location = Location(self.path, line_no, column, end_line, end_column)
            if location in seen:
                continue
            seen.add(location)
            orphaned = None
            if orphan is not None:
                a, b = orphan
                start_offset = offsets[a] + len(lines[a]) - len(lines[a].lstrip(b" \t"))
                stop_offset = offsets[b] + len(lines[b].rstrip(b" \t\\"))
                o_line, o_col = text.position(start_offset)
                e_line, e_col = text.position(max(stop_offset, start_offset))
                orphaned = Location(self.path, o_line, o_col, e_line, e_col)
            trailing = match.group(1).decode("utf-8", "replace")
            # `8\ ` is the word `8 ` (bash and tree-sitter agree): nothing is added.
            glued = match.start() > 0 and line[match.start() - 1 : match.start()] not in (b" ", b"\t")
            extra = () if glued else _escaped_words(trailing)
            self.result.broken_continuations.append(BrokenContinuation(location, trailing, extra, orphaned))


# `\` then blanks, maybe a comment, to the end of the line (\r already cut).
_BROKEN_CONTINUATION = re.compile(rb"\\([ \t]+(?:#.*)?)$")
# What may follow `\ ` glued (`\ #note`) and still be plain words: no quotes,
# expansions, escapes or operators.
_PLAIN_WORDS = re.compile(r"[^'\"`$\\;&|<>(){}\[\]*?~=]*")


def _odd_backslashes(line: bytes, end: int) -> bool:
    """The backslashes that end at ``end`` are an odd run: the last escapes what
    follows (``\\\\`` is an escaped backslash)."""
    count = 0
    while count < end and line[end - 1 - count] == 0x5C:
        count += 1
    return count % 2 == 1


def _escaped_words(trailing: str) -> tuple[str, ...]:
    """The words bash makes of ``\\`` + ``trailing``: the escaped blank alone
    (``\\ `` then blanks or a comment), or glued to what follows (``\\ #c``
    is `` #c``: ``#`` inside a word starts no comment); () when that text holds
    quotes, expansions or operators bash would interpret."""
    escaped, rest = trailing[0], trailing[1:]
    if not rest or rest[0] in " \t":
        return (escaped,)
    if not _PLAIN_WORDS.fullmatch(rest):
        return ()
    words = rest.split()
    return (escaped + words[0], *words[1:])


def _comment_nodes(root, data: bytes) -> list:
    """The comment nodes of the tree, in order. Every comment starts with a `#`:
    each `#` of the text is looked up in the tree (in C) and kept when a comment
    starts there; one inside a string, a heredoc or `${#x}` is another node.
    (Walking every node in Python cost a tenth of a script's analysis; a
    tree-sitter query costs ~10 ms to compile in each process.)"""
    nodes = []
    find = data.find
    offset = find(b"#")
    while offset != -1:
        node = root.descendant_for_byte_range(offset, offset + 1)
        if node is not None and node.type == "comment" and node.start_byte == offset:
            nodes.append(node)
            offset = find(b"#", max(node.end_byte, offset + 1))
        else:
            offset = find(b"#", offset + 1)
    return nodes


def _inside_text(node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in ("heredoc_body", "string", "raw_string", "ansi_c_string", "translated_string"):
            return True
        parent = parent.parent
    return False


# A case pattern or the right side of `[[ == ]]` that is a glob, not a string.
_GLOB_MARK = "\0glob:"


def _is_plain_glob(raw: str) -> bool:
    """A glob fnmatch reads as bash does (no extglob, quotes or escapes)."""
    return not any(c in raw for c in "\\'\"$`(){}!@+") and "[!" not in raw and "[^" not in raw


def _has_expansion(node) -> bool:
    return any(child.type in ("simple_expansion", "expansion", "command_substitution", "arithmetic_expansion") or _has_expansion(child) for child in node.children)


def _subject_name(key: str) -> str | None:
    """The variable a decision's key is about (``eq\\0$1\\0prefill`` -> the
    positional parameters), as ShellAnalyzer.taint names it."""
    kind, subject, *_ = key.split("\0")
    if kind not in ("eq", "glob", "nonempty") or not subject.startswith("$"):
        return None
    name = subject[1:]
    if name.startswith("{") and ":-" in name:
        name = name[1:].split(":-", 1)[0]
    if is_ascii_digits(name) or name in ("@", "*"):
        return _POSITIONAL
    return name if _is_identifier(name) else None


def _starts_with_number(node) -> bool:
    return node.type == "number" or (node.type == "concatenation" and bool(node.named_children) and node.named_children[0].type == "number")


def _after_lost_dollar(node, text) -> bool:
    """A word tree-sitter-bash split off after dropping the ``$`` of ``$2`` (see
    ShellAnalyzer._lost_dollar_segs)."""
    return node.start_byte > 0 and text.data[node.start_byte - 1 : node.start_byte] == b"$" and _starts_with_number(node)


def _plain(pattern: str) -> str:
    """A glob pattern without special characters is the text it matches."""
    if pattern.startswith(_GLOB_MARK) and not any(c in pattern[len(_GLOB_MARK) :] for c in "*?[\\"):
        return pattern[len(_GLOB_MARK) :]
    return pattern


def _glob_escape(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[|" else c for c in text)


def _strict_texts(value: Value) -> set[str] | None:
    """The texts a value can be when the file itself decides it (known pieces and
    alternatives of known pieces); None as soon as a symbol or an unknown is in it."""
    if value.kind is Kind.KNOWN:
        return {value.text}
    if value.kind is Kind.ALTERNATIVES:
        return set(value.alternatives)
    if value.kind is Kind.CONCAT:
        texts = {""}
        for part in value.parts:
            piece = _strict_texts(part)
            if piece is None or len(texts) * len(piece) > 64:
                return None
            texts = {a + b for a in texts for b in piece}
        return texts
    return None


def _case_matches(subjects: set[str], patterns: list[set[str] | None]) -> bool | None:
    """Whether the subject matches one of the patterns (each a set of texts, a glob
    marked with _GLOB_MARK), or None when that depends on unknown values."""
    import fnmatch

    verdicts = set()
    for subject in subjects:
        matched: bool | None = False
        for options in patterns:
            if options is None:
                matched = None if matched is False else matched
                continue
            results = {fnmatch.fnmatchcase(subject, o[len(_GLOB_MARK):]) if o.startswith(_GLOB_MARK) else subject == o for o in options}
            if results == {True}:
                matched = True
                break
            if True in results and matched is False:
                matched = None
        verdicts.add(matched)
    return verdicts.pop() if len(verdicts) == 1 else None


def _leaves_loop(node, text) -> bool:
    """Whether a loop body may stop early (``break``, ``continue``, ``return``,
    ``exit``): then it is not unrolled (the iterations that run are not known)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "command":
            name = current.child_by_field_name("name")
            if name is not None and _node_text(name, text) in ("break", "continue", "return", "exit"):
                return True
        stack.extend(current.named_children)
    return False


def _before_keyword(node, keyword: str) -> list:
    """The children of ``node`` between its first token and ``keyword``."""
    children = node.children
    for index, child in enumerate(children):
        if child.type == keyword:
            return list(children[1:index])
    return []


def entry_mentions(path: str, words: list[Word]) -> list[Location]:
    """Where the known text of ``words`` names a launch entry point: a module of
    ``python -m`` or a CLI, as a word or inside a command string."""
    found: list[Location] = []
    previous_sglang: Location | None = None
    for word in words:
        for seg in word:
            value = seg.value
            if value.kind is not Kind.KNOWN or "sglang" not in value.text:
                continue
            for match in _ENTRY_MENTION.finditer(value.text):
                if match.group(0) == "sglang-router" and "install" in value.text[: match.start()]:
                    continue  # `pip install sglang-router`
                location = _char_location(path, seg, match.start())
                if location is not None:
                    found.append(location)
        value = _word_value(word)
        if previous_sglang is not None and value == Value.known("serve"):
            found.append(previous_sglang)
        previous_sglang = None
        if value.is_known and value.text.rsplit("/", 1)[-1] == "sglang" and word:
            previous_sglang = _char_location(path, word[0], 0)
    return found


def _char_location(path: str, seg: Seg, index: int) -> Location | None:
    if seg.chars and len(seg.chars) == len(seg.value.text) and index < len(seg.chars):
        line, column = seg.chars[index]
        return Location(path, line, column)
    if seg.loc.path:
        return Location(path, seg.loc.line, seg.loc.column)
    return None


def _expanded_names(node, text) -> list[str]:
    """The variables a piece of syntax expands (``$X``, ``${X:-..}``, ``${A[@]}``)."""
    names = []
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.type
        if kind == "variable_name" and current.parent is not None and current.parent.type in ("simple_expansion", "expansion", "subscript"):
            names.append(_node_text(current, text))
        elif kind in ("command_substitution", "process_substitution", "heredoc_body"):
            continue
        stack.extend(current.named_children)
    return names


def _reads_script_from_stdin(command, text) -> str | None:
    """The program of ``command`` that reads a here-document as a script: a shell
    without ``-c`` or a script file (``bash``, ``bash -s``, ``sudo -u x bash``), or
    ``ssh HOST`` without a remote command (the remote shell reads it)."""
    if command is None or command.type != "command":
        return None
    words = []
    for child in command.named_children:
        if child.type == "command_name":
            child = child.named_children[0] if child.named_children else child
        if child.type in ("word", "raw_string", "string", "simple_expansion", "expansion", "concatenation"):
            words.append(_node_text(child, text).strip("'\""))
    if not words:
        return None
    first = words[0].rsplit("/", 1)[-1]
    if first == "ssh":
        operands = []
        index = 1
        while index < len(words):
            word = words[index]
            if word.startswith("-") and len(word) > 1:
                index += 2 if word in SSH_VALUE_OPTIONS else 1
                continue
            operands.append(word)
            index += 1
        if len(operands) == 1:
            return "ssh"
        if len(operands) < 2:
            return None
        words = operands[1:]  # the remote command
    for index, word in enumerate(words):
        name = word.rsplit("/", 1)[-1]
        if name in _SHELLS:
            rest = words[index + 1 :]
            if any(w.startswith("-") and not w.startswith("--") and "c" in w for w in rest):
                return None
            if any(not w.startswith("-") for w in rest):
                return None  # a script file
            return name
    return None


def _runs_python_module(words: list[Word], start: int) -> bool:
    """Whether ``words[start:]`` hold ``python -m <entry point>`` or ``sglang serve``
    (a command we do not look through runs a launch)."""
    for index in range(start, len(words)):
        name = _command_basename(_word_value(words[index]))
        if name is None:
            continue
        if _PYTHON_NAME.fullmatch(name) and _python_module(words, index + 1)[0] in _ENTRY_MODULES:
            return True
        if name == "sglang" and index + 1 < len(words) and _word_value(words[index + 1]) == Value.known("serve"):
            return True
    return False


def _after_keyword(node, keyword: str) -> list:
    children = node.children
    for index, child in enumerate(children):
        if not child.is_named and child.type == keyword:
            return [c for c in children[index + 1 :] if c.is_named]
    return []


class _NotConstant(Exception):
    pass


class _SpreadSeg(Seg):
    """A piece standing for any number of words we cannot see."""


def _spread_word(value: Value, loc: Location) -> Word:
    return (_SpreadSeg(value, loc),)


def _unset_symbol(name: str) -> Var:
    return Var(scalar=(Seg(Value.symbol("$" + name), _NOWHERE),))


def _arith_op(op: str, a: int, b: int) -> int:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op in ("/", "%"):
        if b == 0:
            raise _NotConstant("division by zero")
        quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)  # bash truncates
        return quotient if op == "/" else a - b * quotient
    if op == "**":
        if b < 0 or b > 64:
            raise _NotConstant("exponent")
        return a**b
    if op == "<<":
        return a << b if 0 <= b < 64 else 0
    if op == ">>":
        return a >> b if 0 <= b < 64 else 0
    if op == "&":
        return a & b
    if op == "|":
        return a | b
    if op == "^":
        return a ^ b
    comparisons = {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "==": a == b, "!=": a != b, "&&": bool(a and b), "||": bool(a or b)}
    if op in comparisons:
        return int(comparisons[op])
    raise _NotConstant(op)


def _split_fields(segs: list[Seg]) -> list[Word]:
    """Bash field splitting: unquoted expansions split at IFS whitespace; empty
    unquoted expansions vanish; quoted empty strings stay."""
    fields: list[list[Seg]] = [[]]
    for seg in segs:
        if isinstance(seg, _SpreadSeg):
            fields.append([seg])
            fields.append([])
            continue
        if seg.split and seg.value.is_known:
            text_value = seg.value.text
            index = 0
            length = len(text_value)
            while index < length:
                if text_value[index] in _IFS_WHITESPACE:
                    while index < length and text_value[index] in _IFS_WHITESPACE:
                        index += 1
                    fields.append([])
                    continue
                end = index
                while end < length and text_value[end] not in _IFS_WHITESPACE:
                    end += 1
                chars = seg.chars[index:end] if seg.chars and len(seg.chars) == length else None
                fields[-1].append(Seg(Value.known(text_value[index:end]), seg.loc, True, False, chars, seg.origin))
                index = end
            continue
        if seg.split and seg.value.kind is Kind.ALTERNATIVES and any(
            any(c in _IFS_WHITESPACE for c in alt) for alt in seg.value.alternatives
        ):
            fields[-1].append(Seg(Value.unknown("alternatives with different numbers of words"), seg.loc, origin=seg.origin))
            continue
        fields[-1].append(seg)
    words = []
    for pieces in fields:
        if not pieces:
            continue
        if all(p.split and p.value == Value.known("") for p in pieces) and not any(p.quoted for p in pieces):
            continue
        words.append(tuple(pieces))
    return words


def _node_text(node, text) -> str:
    return text.data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _is_identifier(name: str) -> bool:
    return bool(name) and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name) and name.isascii()


def _is_env_assignment(value: Value) -> bool:
    prefix = value.literal_prefix()
    name, sep, _ = prefix.partition("=")
    return bool(sep) and _is_identifier(name)


def _command_basename(value: Value) -> str | None:
    """The command name as a basename, when static. ``${PYTHON:-python3}`` counts
    as its default, like every other default."""
    candidates = value.candidates()
    if candidates is None or len(candidates) != 1:
        return None
    (text,) = candidates
    return os.path.basename(text) if "/" in text else text


def _python_module(words: list[Word], index: int) -> tuple[str | None, int]:
    """Skip interpreter options; return (module of -m, index of its first arg)."""
    while index < len(words):
        option = _word_value(words[index])
        if not option.is_known:
            return None, index
        text = option.text
        if text == "-m":
            if index + 1 < len(words):
                module = _word_value(words[index + 1])
                return (module.text if module.is_known else None), index + 2
            return None, index + 1
        if text.startswith("-m") and len(text) > 2:
            return text[2:], index + 1
        if text in ("-X", "-W", "--check-hash-based-pycs"):
            index += 2
            continue
        if text.startswith("-") and not text.startswith("--") and len(text) > 1:
            # Clustered flags such as -uB; a cluster ending in m takes the module next.
            if text.endswith("m") and all(c in "bBdEhiIOqsSuvVxR" for c in text[1:-1]):
                if index + 1 < len(words):
                    module = _word_value(words[index + 1])
                    return (module.text if module.is_known else None), index + 2
                return None, index + 1
            index += 1
            continue
        return None, index  # a script path or -c: not a module launch
    return None, index


def _skip_docker_run(words: list[Word], index: int) -> int:
    """Index of the container's command in ``docker run [opts] IMAGE CMD``, or -1."""
    position = index + 1
    if position >= len(words):
        return -1
    sub = _word_value(words[position])
    if sub == Value.known("container") and position + 1 < len(words):
        position += 1
        sub = _word_value(words[position])
    if sub != Value.known("run"):
        return -1
    position += 1
    while position < len(words):
        option = _word_value(words[position])
        if not option.is_known:
            # The image, most often a variable (`$IMAGE`, `lmsysorg/sglang:$TAG`):
            # returning -1 here lost every such launch. An option with an unknown
            # value after `=` (`--gpus=$G`) is still an option.
            if option.literal_prefix().startswith("--") and "=" in option.literal_prefix():
                position += 1
                continue
            break
        text = option.text
        if text == "--":
            position += 1
            break
        if text.startswith("--"):
            position += 1
            if "=" not in text and text in DOCKER_RUN_VALUE_OPTIONS:
                position += 1
            continue
        if text.startswith("-") and len(text) > 1:
            position += 1
            # -e X, -v a:b, -p 80:80, and clusters like -it; -eFOO=1 carries its value.
            last = text[-1]
            if len(text) == 2 and ("-" + last) in DOCKER_RUN_VALUE_OPTIONS:
                position += 1
            elif len(text) > 2 and ("-" + text[1]) in DOCKER_RUN_VALUE_OPTIONS:
                pass
            elif ("-" + last) in DOCKER_RUN_VALUE_OPTIONS:
                position += 1
            continue
        break
    position += 1  # the image
    return position if position < len(words) else -1


_DOUBLE_QUOTE_ESCAPES = '$`"\\\n'


def _unescape(raw: str, escapable: str | None) -> tuple[str, list[int]]:
    """Remove backslash escapes (of any character when ``escapable`` is None, as
    outside quotes; else only of those in it, as inside double quotes); a
    backslash-newline vanishes. Returns the text and, for each of its characters,
    its index in ``raw`` (so that positions survive)."""
    out = []
    kept = []
    index = 0
    while index < len(raw):
        char = raw[index]
        if char == "\\" and index + 1 < len(raw) and (escapable is None or raw[index + 1] in escapable):
            if raw[index + 1] != "\n":
                out.append(raw[index + 1])
                kept.append(index + 1)
            index += 2
            continue
        out.append(char)
        kept.append(index)
        index += 1
    return "".join(out), kept


def _ansi_c(raw: str) -> str:
    escapes = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "v": "\v"}
    out = []
    index = 0
    while index < len(raw):
        char = raw[index]
        if char == "\\" and index + 1 < len(raw):
            out.append(escapes.get(raw[index + 1], "\\" + raw[index + 1]))
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out)


class EmbeddedShell:
    """Shell launch detection for commands that other sources build: an argv list
    (Python's ``subprocess.Popen([...])``) or a shell command string (``shell=True``,
    ``os.system``). Wrappers (``nohup``, ``env``, ``docker run``, ``ssh``, ``bash -c``)
    and entry points are recognised exactly as in scripts, and positions stay those
    of the outer file: every piece of a word carries its own location."""

    def __init__(self, path: str, text: str, env: Mapping[str, str] | None = None) -> None:
        self._shell = ShellAnalyzer(path, text, env)

    @property
    def notes(self) -> list[Note]:
        """The notes of the command strings and argv lists, with one for each
        launch entry point named where it could run and no launch came of it."""
        return self._shell.result.notes + self._shell.drop_notes()

    def dropped(self, location: Location, message: str, replace: bool = False) -> None:
        """A launch the caller saw named at ``location`` and could not follow
        (``replace``: this message says it better than the one already there)."""
        key = (location.line, location.column)
        if replace or key not in self._shell.dropped:
            self._shell.dropped[key] = Note(self._shell.path, message, location.line, location.column)

    def dropped_at(self) -> set[tuple[int, int]]:
        """Where notes about launches not followed are, as (line, column)."""
        return set(self._shell.dropped)

    @property
    def broken_continuations(self) -> list[BrokenContinuation]:
        """SGL207's facts found in the command strings (``sh -c`` scripts)."""
        return self._shell.result.broken_continuations

    def argv(
        self,
        words: list[Word],
        command_loc: Location,
        call_stack: list[tuple[str, Location, tuple[int, int]]],
        variables: dict[str, Seg] | None = None,
    ) -> tuple[list[ServerLaunch], list[RouterLaunch]]:
        """The launch an argv list starts, if any (words as the program sees them).
        ``variables`` are environment variables a ``sh -c`` script among them sees
        (a Kubernetes container's ``env``)."""
        env = Env()
        for name, seg in (variables or {}).items():
            env.globals[name] = Var(scalar=(seg,), defined_at=seg.loc if seg.loc.path else None)
        return self._run(lambda: self._shell._detect_launch(list(words), command_loc, env, 0), call_stack)

    def script(
        self, word: Word, command_loc: Location, call_stack: list[tuple[str, Location, tuple[int, int]]]
    ) -> tuple[list[ServerLaunch], list[RouterLaunch]]:
        """The launches of a shell command string; pieces that are not known text
        stand for shell variables holding their value."""
        return self._run(lambda: self._shell._nested_script(word, command_loc, Env(), 0), call_stack)

    def record(
        self, entry: EntryPoint, words: list[Word], command_loc: Location, call_stack: list[tuple[str, Location, tuple[int, int]]]
    ) -> tuple[list[ServerLaunch], list[RouterLaunch]]:
        """A launch whose argv the caller built (a test helper's command line):
        ``words[0]`` stands for the entry point and gives the launch's location."""
        return self._run(lambda: self._shell._record(entry, list(words), 0, 1, command_loc), call_stack)

    def _run(self, action, call_stack) -> tuple[list[ServerLaunch], list[RouterLaunch]]:
        result = self._shell.result
        servers, routers = len(result.servers), len(result.routers)
        saved = self._shell.call_stack
        self._shell.call_stack = list(call_stack)
        try:
            action()
        except _Exit:
            pass
        except _Budget:
            message = f"stopped after {MAX_COMMANDS} shell commands in command strings"
            if not any(note.message == message for note in result.notes):
                result.notes.append(Note(self._shell.path, message))
        finally:
            self._shell.call_stack = saved
        return result.servers[servers:], result.routers[routers:]


def analyze_shell(path: str, text: str, env: Mapping[str, str] | None = None) -> SourceResult:
    """Extract the launches of one shell script. Never raises for any text.
    ``env``: values for environment variables the script reads without setting.

    The script is interpreted once per path through the branches it does not
    decide that make a difference (paths.py), and launches whose argv differs
    between paths come out as variants."""
    tree = parse_bash(FileText(text).data)

    def run(paths: Paths) -> tuple[SourceResult, int]:
        analyzer = ShellAnalyzer(path, text, env, paths, tree)
        try:
            return analyzer.run(), analyzer.commands_seen
        except Fork as fork:
            fork.cost = analyzer.commands_seen
            raise

    return variants(explore(run))


# For other sources that build words (Python argv lists, command strings).
SpreadSeg = _SpreadSeg
spread_word = _spread_word
NOWHERE = _NOWHERE
