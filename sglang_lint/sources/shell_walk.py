"""The shell interpreter: an abstract interpretation of a bash script's syntax tree.

``ShellAnalyzer`` walks the tree in order, as bash would run the script, keeping
what it can know about variables: assignments, functions called with arguments,
``if``/``case``/``&&``/``||`` decided by known values or else taken as
alternatives (or as forks of the run's path, paths.py), loops, subshells,
``exit``, ``read``, ``set --``/``shift``, here-documents fed to a shell. Every
other command's words go to launch detection (shell_launches), which builds on
word expansion (shell_expansion); the script is never run.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Callable, Iterable, Mapping

from msgspec import Struct

from sglang_lint.files import DEFAULT_EXCLUDED_DIRS
from sglang_lint.model import Kind, Location, PathStep, SourceResult, Value, is_ascii_digits
from sglang_lint.sources.paths import Paths, decision, suspended
from sglang_lint.sources.paths import subject as path_subject
from sglang_lint.sources.project import FileReader, resolve
from sglang_lint.sources.shell_expansion import MAX_TREE_DEPTH, POSITIONAL, NotConstant, SourcedText
from sglang_lint.sources.shell_launches import DATA_COMMANDS, MANIFEST_LAUNCH_KEY, MAX_CALL_DEPTH, PYTHON_NAME, SHELLS, SOURCED, LaunchDetection, ScriptExit, names_an_entry_point
from sglang_lint.sources.shell_syntax import ScriptParse, node_text, parse_script
from sglang_lint.sources.shell_words import (
    IFS_WHITESPACE,
    NOWHERE,
    Env,
    Frame,
    Seg,
    SpreadSeg,
    Var,
    Word,
    WordsSeg,
    is_identifier,
    is_spread_word,
    merge_vars,
    positional_key,
    same_words,
    split_fields,
    strict_texts,
    text_size,
    unset_symbol,
    word_value,
)
from sglang_lint.sources.textpos import FileText
from sglang_lint.sources.wrappers import APPTAINER_CLIS, DOCKER_CLIS, SSH_VALUE_OPTIONS, WRAPPERS, apptainer_command_start, docker_command_start

# Commands interpreted per file: a bound on work for scripts whose functions call
# each other many times over.
MAX_COMMANDS = 50_000
# What one variable may hold: pieces of words, and characters of text beyond the
# file's own length. `A=$A$A` (or `A+=$A`, `A=("${A[@]}" "${A[@]}")`) doubles a
# value on every line: twenty such lines took minutes and gigabytes. A larger value
# is stored as unknown, and so is every value built from it.
MAX_VALUE_SEGS = 1_000
MAX_VALUE_CHARS = 1_000_000
_TOO_LARGE = "is too large to follow"
# Groups of lines tree-sitter-bash cannot parse that get a note each; the rest
# share one.
MAX_SKIPPED_NOTES = 10
# `source`d files nested in each other (a.sh sources b.sh sources c.sh ...):
# deeper ones are not read, with a note (the files read in all are bounded by
# sources.project.MAX_FILES).
MAX_SOURCE_DEPTH = 8
# The directive naming the file a `source` line reads when its path cannot be
# told (ShellCheck's `# shellcheck source=`): `# sglang-lint: source=path`.
_DIRECTIVE = "sglang-lint:"


# Command names _stmt_command/_detect_launch act on (besides functions and
# python*): a command by any other plain name is _inert.
_LAUNCH_NAMES = {
    *WRAPPERS,
    *SHELLS,
    "ssh",
    *DOCKER_CLIS,
    # (`apptainer exec IMAGE "${cmd[@]}"`: the command is in the array, and the
    # text of the words names no launch; the container CLIs are looked
    # through, so they are never plain commands)
    *APPTAINER_CLIS,
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
    "source",
    ".",
    "cd",
}
# A command name with one of these is not a plain word.
_NOT_PLAIN = (b"$", b"\\", b"'", b'"', b"`", b"=", b"{", b"*", b"?", b"[", b"~")
# Arguments with one of these may run a command (a command or process
# substitution) or assign a variable (`${X:=...}`).
_MAY_RUN_OR_ASSIGN = re.compile(rb"\$\(|`|<\(|>\(|\$\{[^}]*=")


# More positional parameters than this (`set -- "$@" "$@"` repeated) are unknown.
MAX_POSITIONAL = 256

# A `for` loop over known words is run once per word while the loops it is
# nested in and its own run the body at most this many times in all (nested
# loops multiply launches, and the pairs of launches grow as their square);
# past that its values are alternatives of one iteration.
MAX_UNROLLED_ITERATIONS = 16


class EmbeddedManifest(Struct, frozen=True):
    """A YAML text a command reads from a here-document (``kubectl apply -f -``,
    ``cat > x.yaml``): its text as the command reads it, the file position of
    each of its characters, the program, and where the command is."""

    text: str
    positions: tuple[tuple[int, int], ...]
    program: str
    location: Location


class CommandBudgetSpent(Exception):
    """More than MAX_COMMANDS commands and assignments: the analysis stops here."""


class ShellAnalyzer(LaunchDetection):
    """The interpreter of one script, over the layers that expand its words
    (shell_expansion) and detect its launches (shell_launches)."""

    def __init__(
        self,
        path: str,
        text: str,
        env: Mapping[str, str] | None = None,
        paths: Paths | None = None,
        parsed: ScriptParse | None = None,
        files: FileReader | None = None,
        names_entry: bool | None = None,
        interactive: bool = False,
    ) -> None:
        super().__init__(path, text, env, paths)
        # Aliases (`alias drun='docker run ...'`): bash expands them only in an
        # interactive shell, as a runbook's reader types its commands (the
        # Markdown source), or after `shopt -s expand_aliases`; a script's are
        # defined and never used. Name -> the value's characters (a Word).
        self.aliases: dict[str, Word] = {}
        self.expand_aliases = interactive
        self.expanding: set[str] = set()
        # Where `source`d files are read (None: `source` is not followed).
        self.files = files
        self.follows_sources = files is not None
        # The sourced files being read, outermost first (paths as shown).
        self.sourcing: list[str] = []
        # The script's parse (shell_syntax.parse_script: its text is ``text``, with
        # the lines tree-sitter-bash cannot parse blanked); made in run() if not given.
        self.parsed = parsed
        # The first branch condition of the statement being decided that the
        # file does not decide and the path has not fixed: (key, (step if true,
        # step if false)).
        self.pending: tuple[str, tuple[PathStep, PathStep]] | None = None
        self.max_value_chars = MAX_VALUE_CHARS + len(text)
        self.functions: dict[str, tuple["object", object]] = {}  # name -> (body node, text)
        # The file's lines as written, when ``text`` has lines blanked (the
        # notes about them quote what is there: shell.analyze_shell sets it).
        self.written_lines: list[str] | None = None
        self.called_functions: set[str] = set()
        # A `source` or `.` command was met (followed or not).
        self.sourced_any = False
        # The script as written, or the config's env, names an entry point
        # (``names_entry``: shell.analyze_shell tells it from the file's text,
        # once for all its runs; ``text`` here has the lines tree-sitter-bash
        # cannot parse blanked).
        self.names_entry = names_an_entry_point(text, env) if names_entry is None else names_entry
        self.commands_seen = 0
        # How many times the loops being unrolled run the current body in all.
        self.unrolled = 1
        # Kubernetes manifests given to `kubectl apply -f -` and the like in a
        # here-document: the YAML source reads them (shell.analyze_shell).
        self.manifests: list[EmbeddedManifest] = []

    # -- entry ------------------------------------------------------------------
    def run(self) -> SourceResult:
        parsed = self.parsed if self.parsed is not None else parse_script(self.file_text.data)
        tree = parsed.tree
        env = Env()
        try:
            try:
                self._walk_script(tree.root_node, self.file_text, env)
            except ScriptExit:
                pass
            # Functions that were never called: analyze them once with unknown
            # positional parameters, so their launches are still seen.
            for name, (body, text) in list(self.functions.items()):
                # (a sourced file's functions the script never calls are its own
                # business: analyzed with that file, not as the script's launches)
                if name not in self.called_functions and not isinstance(text, SourcedText):
                    self.called_functions.add(name)
                    frame_env = env.snapshot()
                    frame_env.frames.append(Frame(name, None))
                    try:
                        self._walk(body, text, frame_env, 0)
                    except ScriptExit:
                        pass
        except CommandBudgetSpent:
            self.result.notes.append(
                self._note(f"stopped after {MAX_COMMANDS} commands and assignments (a very long script, or functions that call each other too often to follow); launches after this point may be missing")
            )
        except RecursionError:
            # Depth is bounded everywhere we recurse (MAX_TREE_DEPTH), but the
            # caller's own stack is not ours to know: "never raise" must hold even
            # when it is already deep. Keep what was found so far.
            self.result.notes.append(self._note("nesting too deep to analyze; launches after this point may be missing"))
        self._note_syntax(parsed)
        self._find_continuation_breaks(tree.root_node)
        self._find_broken_continuations(tree.root_node, self.file_text, [*self.result.servers, *self.result.routers])
        self.result.notes.extend(self.drop_notes())
        return self.result

    def _note_syntax(self, parsed: ScriptParse) -> None:
        """Notes for what could not be parsed. Only a construct left open at the
        end of the file (a quote, a `fi`, a here-document) is one bash refuses too:
        tree-sitter-bash also fails on lines bash accepts, which are skipped
        (their neighbours are analyzed) and never called a bash syntax error.
        None for a script that may launch nothing: it names no entry point,
        sources no file, hands no manifest on and launched nothing (a teaching
        script printing a guide with `cat <<'GUIDE'`, a candidate only for the
        word "source" in it, got 16 notes): its syntax is not ours to judge,
        as for a Markdown block."""
        if not (
            self.result.servers
            or self.result.routers
            or self.manifests
            or self.sourced_any
            or self.names_entry
        ):
            return
        for first, last in parsed.skipped[:MAX_SKIPPED_NOTES]:
            lines = f"line {first}" if first == last else f"lines {first}-{last}"
            them = "it" if first == last else "them"
            bad = self._bad_substitution(first, last)
            if bad is not None:
                # (bash refuses it too, when it runs the line: "bad substitution")
                line, column, written = bad
                message = (
                    f"`{written}` is a bad substitution: bash stops the command with an error when it runs it "
                    f"(`${{NAME}}` names a variable without `$`); no launch on {lines} is analyzed"
                )
                self.result.notes.append(self._note(message, line, column))
                continue
            message = f"tree-sitter-bash cannot parse {lines} (bash may accept {them}): no launch on {them} is analyzed; the rest of the script is, without {them}"
            self.result.notes.append(self._note(message, first, 1))
        if len(parsed.skipped) > MAX_SKIPPED_NOTES:
            more = parsed.skipped[MAX_SKIPPED_NOTES:]
            count = sum(last - first + 1 for first, last in more)
            self.result.notes.append(
                self._note(f"tree-sitter-bash cannot parse {count} more lines from here (bash may accept them): no launch on them is analyzed", more[0][0], 1)
            )
        root = parsed.tree.root_node
        if not root.has_error:
            return
        line, column, heredoc = self._first_error(root)
        if heredoc is not None:
            # bash only warns ("here-document delimited by end-of-file") and
            # takes the rest of the file as the here-document's text.
            message = f"here-document {heredoc} is never closed: bash reads the rest of the file as its text; nothing after it is analyzed"
        elif parsed.unclosed:
            message = "shell syntax error (bash would refuse part of this script); launches around it may be incomplete"
        else:
            message = "tree-sitter-bash cannot parse this part of the script (bash may accept it); launches around it may be incomplete"
        self.result.notes.append(self._note(message, line, column))

    def _bad_substitution(self, first: int, last: int) -> tuple[int, int, str] | None:
        """A `${$NAME}` on the lines ``first``-``last`` (a `$` too many: bash's
        "bad substitution"; `${$}` alone is the shell's PID): its line, column
        and text."""
        lines = (self.written_lines or self.result.lines)[first - 1 : last]
        for number, line in enumerate(lines, first):
            match = _BAD_SUBSTITUTION.search(line)
            if match is not None:
                return number, match.start() + 1, match.group(0)
        return None

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

    # -- statements -----------------------------------------------------------------
    def _walk_script(self, root, text, env: Env) -> None:
        self._walk(root, text, env, 0)

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
        variable = node_text(target, text)
        self._remember_mentions(variable, assignment, text, [word], False)
        env.assign(variable, Var(scalar=word, defined_at=self._loc(assignment, text)))
        return True

    def _lost_dollar_segs(self, part, text, env: Env, depth: int) -> list[Seg]:
        """tree-sitter-bash drops the ``$`` of a positional parameter that follows
        a concatenation of two or more pieces: ``"--tp "$1" --dp "$2""`` parses as
        ``"--tp "$1" --dp "`` and a separate word ``2""``. Bash reads one word;
        this is the ``$2`` (one digit: ``$23`` is ``${2}3``) and what follows it."""
        first = part if part.type == "number" else part.named_children[0]
        digits = node_text(first, text)
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
        name = node_text(name_node, text)
        appending = any(child.type == "+=" for child in node.children)
        depends = self._depends(reads) | (self.taint.get(name, frozenset()) if appending or name_node.type == "subscript" else frozenset())
        if depends:
            self.taint[name] = depends
        else:
            self.taint.pop(name, None)

    def _assign_variable(self, node, text, env, depth, local: bool = False) -> None:
        # Assignments count toward the budget too: a multi-megabyte script of
        # assignments alone took a minute and gigabytes without it.
        self.commands_seen += 1
        if self.commands_seen > MAX_COMMANDS:
            raise CommandBudgetSpent()
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None:
            return
        name = node_text(name_node, text)
        if name_node.type == "subscript":
            # A[3]=x: the array changes in a way we do not model element by element.
            base = name_node.child_by_field_name("name")
            index = name_node.child_by_field_name("index")
            if base is not None and index is not None:
                found, old = env.lookup(node_text(base, text))
                if found and old is not None and old.table is not None:
                    # `CONFIGS[$model]=...` of an associative array: that key's value.
                    key = word_value(tuple(self._eval_parts(index, text, env, True, depth + 1, True)))
                    appending = any(child.type == "+=" for child in node.children)
                    value = self._eval_word_scalar(value_node, text, env, depth) if value_node is not None else ()
                    table = None
                    if key.is_known and not appending:
                        table = {**old.table, key.text: value}
                    env.assign(node_text(base, text), Var(is_array=True, table=table, defined_at=old.defined_at), local)
                    return
            if base is not None:
                base_name = node_text(base, text)
                env.assign(base_name, Var(is_array=True, array=None), local)
                if base_name in self.name_mentions:
                    self.name_lost[base_name] = (self._loc(node, text), "an array changed element by element")
            return
        if not is_identifier(name):
            return
        appending = any(child.type == "+=" for child in node.children)
        loc = self._loc(node, text)
        if value_node is not None and value_node.type == "array":
            words: list[Word] = []
            for element in value_node.named_children:
                if element.type != "comment":  # (bash allows comments between the words; each was an unknown word)
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
                chars += text_size(seg.value)
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
        options = [node_text(child, text) for child in node.named_children if child.type == "word"]
        associative = keyword in ("local", "declare", "typeset") and any(option.startswith("-") and "A" in option for option in options)
        for child in node.named_children:
            if associative and child.type in ("variable_assignment", "variable_name"):
                self._declare_table(child, text, env, depth, local)
            elif child.type == "variable_assignment":
                self._stmt_variable_assignment(child, text, env, depth, local=local)
            elif child.type == "variable_name" and keyword in ("local", "declare", "typeset") and env.frames:
                name = node_text(child, text)
                env.assign(name, Var(scalar=(), defined_at=self._loc(child, text)), local=True)

    def _declare_table(self, node, text, env: Env, depth: int, local: bool) -> None:
        """`declare -A NAME=([key]=value ...)` (or `local -A NAME`): an
        associative array, its values by key. An element whose key is not a
        text the file decides, or that is not `[key]=value`, leaves the
        values unknown."""
        self.commands_seen += 1
        name_node = node.child_by_field_name("name") if node.type == "variable_assignment" else node
        if name_node is None or name_node.type != "variable_name":
            return
        name = node_text(name_node, text)
        value_node = node.child_by_field_name("value") if node.type == "variable_assignment" else None
        loc = self._loc(node, text)
        table: dict[str, Word] | None = {}
        if value_node is not None:
            if value_node.type != "array":
                table = None
            else:
                for element in value_node.named_children:
                    if element.type == "comment":
                        continue
                    entry = self._table_entry(element, text, env, depth)
                    if entry is None:
                        table = None
                        break
                    table[entry[0]] = entry[1]  # type: ignore[index]
        if table is not None and self._too_large(list(table.values())):
            table = None
        env.assign(name, Var(is_array=True, table=table, defined_at=loc), local)

    def _table_entry(self, element, text, env: Env, depth: int) -> tuple[str, Word] | None:
        """``[key]=value`` in an associative array's parentheses: the key's
        text and the value (one word: no splitting, as in an assignment)."""
        parts = element.children if element.type == "concatenation" else []
        texts = [node_text(part, text) for part in parts]
        if len(parts) < 4 or texts[0] != "[" or "]" not in texts or texts.index("]") + 1 >= len(parts) or texts[texts.index("]") + 1] != "=":
            return None
        close = texts.index("]")
        key = word_value(tuple(seg for part in parts[1:close] for seg in self._eval_parts(part, text, env, True, depth + 1, True)))
        if not key.is_known:
            return None
        value = tuple(seg for part in parts[close + 2 :] for seg in self._eval_parts(part, text, env, True, depth + 1, True))
        return key.text, value

    def _stmt_unset_command(self, node, text, env, depth) -> None:
        for child in node.named_children:
            name = node_text(child, text)
            if is_identifier(name):
                env.assign(name, None)

    def _stmt_function_definition(self, node, text, env, depth) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is not None and body is not None:
            name = node_text(name_node, text)
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
            self.dropped.setdefault((where.path, where.line, where.column), self._note(message, where.line, where.column, where.path))

    def _stmt_redirected_statement(self, node, text, env, depth) -> None:
        for child in node.named_children:
            if child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                continue
            self._walk(child, text, env, depth + 1)
        for child in node.named_children:
            if child.type == "heredoc_redirect":
                # tree-sitter-bash hangs the rest of the line (`| kubectl apply -f -
                # && python3 -m sglang.launch_server ...`) under the redirect.
                for part in child.named_children:
                    if part.type not in ("heredoc_start", "heredoc_body", "heredoc_end", "file_redirect", "heredoc_redirect", "herestring_redirect"):
                        self._walk(part, text, env, depth + 1)
                reader = _stdin_reader(node, child, text)
                if reader is not None:
                    word = self._heredoc_word(child, text, env, depth)
                    if word is not None:
                        self._fed_text(reader, word, self._loc(node, text), env, depth)

    def _fed_text(self, reader: tuple[str, str], word: Word, command_loc: Location, env: Env, depth: int) -> None:
        """The text of a here-document or here-string given to a program that reads
        it as a shell script (``bash``, ``ssh HOST``) or as a Kubernetes manifest
        (``kubectl apply -f -``, ``cat > x.yaml``). To any other program it is data."""
        language, program = reader
        if language == "shell":
            # A new shell (here or on another host): it sees none of this
            # script's variables that are not in its environment, and which of
            # them are exported is not tracked, so it starts with none of them
            # (what it reads is unknown, never this script's value).
            remote = program == "ssh"
            self.remote_depth += remote
            try:
                self._nested_script(word, command_loc, Env(), depth)
            finally:
                self.remote_depth -= remote
            return
        if any(not seg.value.is_known for seg in word):
            unknown = next(seg for seg in word if not seg.value.is_known)
            known = "".join(seg.value.text for seg in word if seg.value.is_known)
            # (a manifest that may start a server: it names SGLang and has a
            # key a launch is written under, or names an entry point)
            if "sglang" in known and (MANIFEST_LAUNCH_KEY.search(known) or names_an_entry_point(known)):
                self.result.notes.append(
                    self._note(
                        f"manifest given to `{program}` here is not analyzed: its text holds {unknown.value.describe()} ({unknown.loc.short()}), which is not known here",
                        command_loc.line,
                        command_loc.column,
                    )
                )
            return
        chars: list[str] = []
        positions: list[tuple[int, int]] = []
        for seg in word:
            chars.append(seg.value.text)
            # Where each character was written, also in a variable's assignment
            # (`POD='...'` then `<<< "$POD"`): that is where the manifest is.
            if seg.chars is not None and len(seg.chars) == len(seg.value.text):
                positions.extend(seg.chars)
            else:
                positions.extend([(seg.loc.line, seg.loc.column)] * len(seg.value.text))
        manifest = EmbeddedManifest("".join(chars), tuple(positions), program, command_loc)
        if manifest.text and manifest not in self.manifests:
            self.manifests.append(manifest)

    def _branch(
        self,
        bodies: list[list],
        text,
        env: Env,
        depth: int,
        exhaustive: bool,
        where: Location | None = None,
        fork: tuple[str, tuple[PathStep, PathStep]] | None = None,
    ) -> set[int]:
        """Run each alternative body on a copy of ``env`` and merge the results.
        ``fork``: the undecided condition that chose between them; when the bodies
        made a difference (a variable differs, a launch is inside one), the path
        forks there instead (paths.py). Returns the positions of the bodies
        that ended the script."""
        results = []
        ended: set[int] = set()
        launches_before = len(self.result.servers) + len(self.result.routers) + len(self.dropped)
        self.branch_depth += 1
        try:
            with suspended(self.paths, fork):
                for position, statements in enumerate(bodies):
                    branch_env = env.snapshot()
                    try:
                        for statement in statements:
                            self._walk(statement, text, branch_env, depth + 1)
                    except ScriptExit:
                        ended.add(position)
                        continue  # this way through ends the script
                    results.append(branch_env)
        finally:
            self.branch_depth -= 1
        exited = len(results) < len(bodies)
        if not exhaustive:
            results.append(env.snapshot())
        if not results:
            raise ScriptExit()  # every way through ends the script
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
        return ended

    def _merge_into(self, env: Env, results: list[Env], where: Location | None = None, key: str | None = None, exited: bool = False) -> bool:
        """``where``: the statement that branched (for notes). Whether a variable
        differs between the results. ``exited``: some ways through ended the
        script, so what the others changed holds only where they ran: it depends
        on the decision ``key`` too."""
        # The script's positional parameters after branches that `set --` them
        # differently: not known.
        script_words = [r.script.positional for r in results]
        differs = False
        if any(positional_key(p) != positional_key(script_words[0]) for p in script_words):
            env.script.positional = None
            differs = True
            self._taint(POSITIONAL, key)
        else:
            env.script.positional = script_words[0]
        names = set()
        for result in results:
            names.update(result.globals)
        for name in names:
            options = []
            for result in results:
                found, var = result.lookup(name) if name in result.globals else (False, None)
                options.append(var if found else unset_symbol(name))
            differs |= self._merge_name(env.globals, name, options, where, key, exited)
        for index, frame in enumerate(env.frames):
            local_names = set()
            for result in results:
                local_names.update(result.frames[index].locals)
            for name in local_names:
                options = [result.frames[index].locals.get(name, frame.locals.get(name)) for result in results]
                differs |= self._merge_name(frame.locals, name, options, where, key, exited)
        return differs

    def _merge_name(self, scope: dict[str, Var | None], name: str, options: list, where: Location | None, key: str | None, exited: bool) -> bool:
        """Set ``name`` in ``scope`` (the globals or a frame's locals) to the merge
        of its values on the ways through (``options``); whether they differ."""
        before = scope.get(name)
        scope[name] = merge_vars(options, name)
        differs = not all(same_words(o, options[0]) for o in options)
        if differs or (exited and not same_words(options[0], before)):
            self._taint(name, key)
        if name in self.name_mentions:
            self._note_lost(name, before, options, scope[name], where)
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
            ((lambda c=condition: True if c is None else self._run_condition(c, text, env, depth, undecided)), body) for condition, body in clauses
        )
        ended = self._branch(bodies, text, env, depth, exhaustive, self._loc(node, text), undecided[0] if undecided else None)
        if ended and undecided and len(clauses) <= 2 and len(bodies) == len(clauses) and clauses[0][0] is not None:
            # `if [ -z "$TP" ]; then exit 1; fi` (or its `else` ends the
            # script): past it, the way that goes on holds.
            then_ended, else_ended = 0 in ended, (1 in ended if len(bodies) == 2 else False)
            if then_ended != else_ended:
                self._guard(clauses[0][0], undecided[0], holds=else_ended, text=text, env=env, depth=depth)

    def _guard(self, condition: list, fork: tuple[str, tuple[PathStep, PathStep]], holds: bool, text, env: Env, depth: int) -> None:
        """Past an `if` one of whose ways ended the script, the decision
        ``fork`` took the way under which ``condition`` is ``holds``: told by
        deciding the condition again under each way (`-z "$TP"` holds where
        `$TP is non-empty` does not). Only at the script's own level: inside a
        branch, the other branch's way goes on without it."""
        if self.branch_depth:
            return
        def decide() -> bool | None:
            self.pending = None
            try:
                return self._decide_all(condition, text, env, depth)
            finally:
                self.pending = None

        self.paths.guard_from(fork[0], fork[1], decide, holds)

    def _run_condition(self, nodes: list, text, env: Env, depth: int, undecided: list) -> bool | None:
        """An `if`/`elif` condition list runs before it decides (bash runs each
        condition reached): `if ! start_server "$cmd"; then return 1; fi`
        starts the server. Its commands were only decided, never run, and a
        launch in one (a function that evals a `docker exec ... bash -c`
        command, Mooncake's test scripts) was lost without a note."""
        for condition in nodes:
            if condition.type != "comment":
                self._walk(condition, text, env, depth + 1)
        return self._path_verdict(nodes, text, env, depth, undecided)

    def _path_verdict(self, nodes: list, text, env: Env, depth: int, undecided: list) -> bool | None:
        """Whether a condition list succeeds: decided by the file's values, or by
        this run's path (paths.py). The first condition neither decides is added
        to ``undecided`` as the key to fork on."""
        self.pending = None
        verdict = self._decide_all(nodes, text, env, depth)
        if verdict is None:
            opaque = self.pending is None
            fork = self.pending or self._opaque_condition(nodes, text)
            verdict = self.paths.outcome(fork[0])
            if verdict is None and not undecided and self.paths.take(*fork):
                # The first undecided condition of a list: a decision another
                # run forked on is taken here (paths.Paths.take). Its way is the
                # decision's (`$ROLE is decode`), not the condition's (`!=`, `!`):
                # the condition is decided again on the path that fixes it.
                if opaque:
                    verdict = True
                else:
                    self.pending = None
                    verdict = self._decide_all(nodes, text, env, depth)
                    fork = self.pending or fork
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
            shown = " ".join(node_text(nodes[-1], text).split())
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
            alternatives = _case_alternatives(item, value_ids)
            if subject is None and any(len(group) == 1 and node_text(group[0], text) == "*" for group in alternatives):
                exhaustive = True
            body = [c for c in item.named_children if c.id not in value_ids]
            clauses.append(((lambda v=alternatives, i=item: self._case_verdict(subject, symbol, v, i, text, env, depth, undecided, fallthrough, subject_node)), body))
        bodies, decided = _taken_bodies(clauses)
        exhaustive = exhaustive or decided
        self._branch(bodies, text, env, depth, exhaustive, self._loc(node, text), undecided[0] if undecided else None)

    def _case_verdict(self, subject, symbol, alternatives, item, text, env, depth, undecided: list, fallthrough: bool, subject_node=None) -> bool | None:
        patterns = [self._pattern_texts(group, text, env, depth) for group in alternatives]
        values = [node for group in alternatives for node in group]
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
            shown_subject = " ".join(node_text(subject_node, text).split())[:30] if subject_node is not None else "the subject"
            shown_patterns = "|".join(node_text(v, text) for v in values)[:30]
            fork = self._opaque_condition(
                list(values) or [item], text, (f"{shown_subject} matches {shown_patterns}", f"{shown_subject} does not match {shown_patterns}")
            )
            verdict = self.paths.outcome(fork[0])
            if verdict is not None:
                return verdict
        if not undecided:
            if self.paths.take(*fork):
                return True
            undecided.append(fork)
        return None

    def _pattern_texts(self, group: list, text, env: Env, depth: int) -> set[str] | None:
        """The texts a pattern (one alternative of a case item, the right side
        of `[[ == ]]`) can be (a glob, marked): one piece as any operand;
        several (`*","*`, which tree-sitter-bash gives as three) joined
        (:func:`_joined_pattern`)."""
        if len(group) == 1:
            return self._condition_texts(group[0], text, env, depth, split=False, pattern=True)
        glob = _joined_pattern(group, text)
        return None if glob is None else {_GLOB_MARK + glob}

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
                if self._branch([named[1:]], text, env, depth, exhaustive=False, where=self._loc(node, text), fork=fork) and undecided:
                    # `[ -z "$TP" ] && exit 1`: the right side ended the script,
                    # so past it the left side failed (`||`: succeeded).
                    self._guard([named[0]], undecided[0], holds=operators == ["||"], text=text, env=env, depth=depth)
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
        if kind == "compound_statement" and node_text(node, text).startswith("(("):
            # `(( NNODES > 1 ))`: true when the arithmetic value is not 0.
            inner = node.named_children
            if len(inner) != 1:
                return None
            self.strict_arith = True
            try:
                values = self._arith(inner[0], text, env, depth + 1)
            except NotConstant:
                return None
            finally:
                self.strict_arith = False
            truths = {value != 0 for value in values}
            return truths.pop() if len(truths) == 1 else None
        if kind == "command":
            name = node.child_by_field_name("name")
            command = node_text(name, text) if name is not None else ""
            if command == "cd" and self.follows_sources:
                return self._decide_cd(node, text, env, depth)
            return self._decide_test_command(node, text, env, depth) if command == "test" else None
        if kind != "test_command":
            return None
        inner = node.named_children
        if len(inner) != 1:
            return None
        return self._decide_test(inner[0], text, env, depth + 1, node_text(node, text).startswith("[["))

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
            return self._decide_unary(node_text(operator, text), operands[0], expression, text, env, depth, split=not double)
        if kind != "binary_expression":
            return None
        left = expression.child_by_field_name("left")
        right = expression.child_by_field_name("right")
        operator = expression.child_by_field_name("operator")
        if left is None or right is None or operator is None:
            return None
        if operator.type in ("&&", "||") and double:
            return _combine(operator.type, self._decide_test(left, text, env, depth + 1, double), self._decide_test(right, text, env, depth + 1, double))
        after = expression.children[[child.id for child in expression.children].index(operator.id) + 1 :]
        if len(after) > 1:
            # `[[ "$X" == *","* ]]`: tree-sitter-bash gives the pattern in pieces
            # (`*`, `","`, `*`) and its `right` is the first alone. As `*` the
            # test always held, and a guard `then exit 1` ended every path
            # before the launch after it, without a note.
            rights = self._pattern_texts(after, text, env, depth) if double else None
            if rights is None:
                return None
            return self._decide_binary(operator.type, left, right, expression, text, env, depth, split=False, pattern=True, rights=rights)
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

    def _decide_binary(self, op: str, left, right, where, text, env: Env, depth: int, *, split: bool, pattern: bool, rights: set[str] | None = None) -> bool | None:
        """``A = B``, ``A == B`` (B a glob when ``pattern``), ``A != B``
        (``rights``: B's texts, when the caller read them)."""
        if op not in ("==", "=", "!="):
            return None
        lefts = self._condition_texts(left, text, env, depth, split=split)
        if rights is None:
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

    def _decide_cd(self, node, text, env: Env, depth: int) -> bool | None:
        """``cd DIR && ...``: succeeds when DIR is a directory that is there
        (then the right side runs, in it); else undecided. A script's
        ``cd build && cd out`` went on merging "moved" with "stayed" and lost
        the directory a later relative ``source`` needs."""
        words: list[Word] = []
        for index, child in enumerate(node.children):
            if node.field_name_for_child(index) == "argument":
                words.extend(self._eval_word_fields(child, text, env, depth + 1))
        directory = self._cd_target(words, env)
        return True if directory is not None and self._directory_is_there(directory) else None

    def _directory_is_there(self, directory: str) -> bool:
        """Whether ``directory`` (absolute) is a directory of the project on
        disk (not an editor's unsaved buffers alone, never one outside)."""
        if self.files is None or not self.files.project.disk or self.files.project.problem(directory) is not None:
            return False
        return os.path.isdir(directory)

    def _decide_test_command(self, node, text, env: Env, depth: int) -> bool | None:
        """``test -n "$X"``, ``test "$1" = decode``, ``test ! ...``: the
        command form of ``[ ]`` (its words, split as a command's)."""
        words = [child for index, child in enumerate(node.children) if node.field_name_for_child(index) == "argument"]
        negated = bool(words) and node_text(words[0], text) == "!"
        if negated:
            words = words[1:]
        verdict: bool | None = None
        if len(words) == 2:
            verdict = self._decide_unary(node_text(words[0], text), words[1], node, text, env, depth, split=True)
        elif len(words) == 3:
            verdict = self._decide_binary(node_text(words[1], text), words[0], words[2], node, text, env, depth, split=True, pattern=False)
        return None if verdict is None else verdict != negated

    def _condition_subject(self, node, text, env: Env, depth: int, *, split: bool) -> str | None:
        """The name a condition's operand stands for when it is one value the file
        does not set: ``$DPA``, ``$1``, ``${ROLE:-prefill}``; else None."""
        fields = self._eval_word_fields(node, text, env, depth + 1) if split else [tuple(self._eval_parts(node, text, env, quoted=True, depth=depth + 1, scalar=True))]
        if len(fields) != 1:
            return None
        return path_subject(word_value(fields[0]))

    def _condition_texts(self, node, text, env: Env, depth: int, *, split: bool, pattern: bool = False) -> set[str] | None:
        """Every text an operand can be in this run (a glob pattern, marked, when
        ``pattern`` and it is not quoted), or None when one is not known. Known
        means set by the file: a symbol (with or without a default) is not."""
        if pattern and node.type in ("extglob_pattern", "word") and not _has_expansion(node):
            raw = node_text(node, text)
            return {_GLOB_MARK + raw} if _is_plain_glob(raw) else None
        if pattern and node.type == "concatenation":
            # `d"ecod"*`, `"b c"*`: a glob of pieces, some quoted. Evaluated
            # as a word it was the text `decod*`, and the test compared the
            # value with that text (bash's oracle: a launch the path never
            # reached). With an expansion among them, a glob character outside
            # quotes leaves it undecided.
            if not _has_expansion(node):
                glob = _joined_pattern(node.children, text)
                return None if glob is None else {_GLOB_MARK + glob}
            if any(child.type in ("extglob_pattern", "word") and any(c in node_text(child, text) for c in "*?[") for child in node.children):
                return None
        fields = self._eval_word_fields(node, text, env, depth + 1) if split else [tuple(self._eval_parts(node, text, env, quoted=True, depth=depth + 1, scalar=True))]
        if len(fields) != 1:
            return None
        texts = strict_texts(word_value(fields[0]))
        if texts is None or len(texts) > 16:
            return None
        return texts

    def _stmt_subshell(self, node, text, env, depth) -> None:
        inner = env.snapshot()
        try:
            for child in node.named_children:
                self._walk(child, text, inner, depth + 1)
        except ScriptExit:
            pass  # `( ... exit )` leaves the subshell only

    def _stmt_for_statement(self, node, text, env, depth) -> None:
        variable = node.child_by_field_name("variable")
        body = node.child_by_field_name("body")
        values = node.children_by_field_name("value")
        name = node_text(variable, text) if variable is not None else ""
        items: list[Word] = []
        for value_node in values:
            items.extend(self._eval_word_fields(value_node, text, env, depth))
        if (
            values
            and is_identifier(name)
            and body is not None
            and 0 < len(items) <= MAX_UNROLLED_ITERATIONS
            and self.unrolled * len(items) <= MAX_UNROLLED_ITERATIONS
            and not any(isinstance(seg, SpreadSeg) or seg.value.kind is Kind.UNKNOWN for item in items for seg in item)
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
            loop_value = Value.one_of(word_value(item) for item in items) if items else Value.known("")
        loop_env = env.snapshot()
        if is_identifier(name):
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
            except ScriptExit:
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
        for child in node.children:
            if child.type == "herestring_redirect" and len(child.named_children) == 1:
                reader = _reader_of(node, text)
                if reader is not None:
                    # The word is expanded without splitting, and a newline follows it.
                    where = self._loc(child, text)
                    word = (*self._eval_parts(child.named_children[0], text, env, True, depth + 1, True), Seg(Value.known("\n"), where))
                    self._fed_text(reader, word, self._loc(node, text), env, depth)

    def _run_command(self, node, text, env: Env, depth: int) -> None:
        self.commands_seen += 1
        if self.commands_seen > MAX_COMMANDS:
            raise CommandBudgetSpent()
        name_node = node.child_by_field_name("name")
        if name_node is not None and node_text(name_node, text) == "exit":
            raise ScriptExit()
        if self._misparsed_assignment(node, text, env, depth):
            return
        found, captured = env.lookup(CAPTURED)
        capturing = found and captured is not None and _prints_to_the_capture(node, text)
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
        if not capturing and self._inert(node, groups, text):
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
                words.extend(split_fields(segs))
        if not words:
            return
        if capturing and (self._capture(node, text, env, words) or self._inert(node, groups, text)):
            return
        command_loc = self._loc(node, text)
        first = word_value(words[0])
        if first.is_known and first.text in _ALIAS_COMMANDS:
            self._alias_command(first.text, words[1:])
        if first.is_known and first.text in self.aliases and first.text not in self.expanding and name_node is not None:
            if self.expand_aliases:
                self._expand_alias(first.text, node, name_node, text, command_loc, env, depth)
            elif names_an_entry_point(node_text(node, text)):
                self.result.notes.append(
                    self._note(
                        f"launch never runs: `{first.text}` is an alias, which bash does not expand in a script "
                        f"(`shopt -s expand_aliases` turns that on), so this line looks for a program named {first.text}",
                        command_loc.line,
                        command_loc.column,
                    )
                )
            return
        if first.is_known and first.text in self.functions:
            self._call_function(first.text, words[1:], command_loc, env, depth)
            return
        if first.is_known and first.text in ("shift", "set"):
            self._shift_positional(first.text, words[1:], env)
            return
        if first.is_known and first.text in ("source", "."):
            self.sourced_any = True
            if self.files is not None:
                self._source(node, text, words[1:], command_loc, env, depth)
                return
        if first.is_known and first.text == "cd" and self.follows_sources:
            self._cd(words[1:], command_loc, env)
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
            # (running: a launch lost in the string is noted at the names this
            # command expands, `eval "$CMD"`, where a merge of branches made the
            # string one we cannot read; before, such a launch was lost without
            # a note and its path never forked)
            self.running.append((node, text))
            try:
                self._nested_script(tuple(joined), command_loc, env, depth, in_place=True)
            finally:
                self.running.pop()
            return
        if first.is_known and first.text == "read" and self._read_herestring(node, words, text, env, depth, command_loc):
            return
        if first.is_known and first.text in ("read", "mapfile", "readarray"):
            for word in words[1:]:
                value = word_value(word)
                if value.is_known and is_identifier(value.text):
                    env.assign(value.text, Var(scalar=(Seg(Value.unknown(f"read at {command_loc.short()}"), command_loc),)))
            return
        self.running.append((node, text))
        try:
            self._detect_launch(words, command_loc, env, depth)
        finally:
            self.running.pop()

    # -- the output of `$(function ...)` ---------------------------------------------
    def _function_output(self, node, text, env: Env, depth: int) -> Word | None:
        """``$(f ARGS)`` of a function the script defines that neither returns
        nor exits early (`PREFILL_CONFIG=$(build_server_config prefill ...)`,
        whose `echo "$parallel_args ..."` gives the `--tp-size`, `--ep-size`
        and `--dp-size` of AMD's PD servers): run in a subshell (a copy of
        ``env``), what its `echo`s and `printf`s print, in order, merged
        across branches as a variable is; a command whose output we cannot
        see prints words we cannot see. Trailing newlines are dropped, as bash
        does. None for any other substitution (a program, a pipeline, a
        redirection, a function that returns early)."""
        commands = [child for child in node.named_children if child.type != "comment"]
        if len(commands) != 1 or commands[0].type != "command":
            return None
        command = commands[0]
        name_node = command.child_by_field_name("name")
        name = node_text(name_node, text) if name_node is not None else ""
        if name not in self.functions or self.call_depth >= MAX_CALL_DEPTH or any(frame.function == name for frame in env.frames):
            return None
        body, body_text = self.functions[name]
        if _ends_early(body, body_text):
            return None
        args = [word for child in command.children_by_field_name("argument") for word in self._eval_word_fields(child, text, env, depth + 1)]
        subshell = env.snapshot()
        subshell.globals[CAPTURED] = Var(scalar=())
        try:
            self._call_function(name, args, self._loc(node, text), subshell, depth + 1)
        except ScriptExit:
            return None  # (an `exit` of a helper it calls)
        printed = subshell.globals.get(CAPTURED)
        if printed is None or printed.scalar is None:
            return None
        return _without_trailing_newlines(printed.scalar)

    def _capture(self, node, text, env: Env, words: list[Word]) -> bool:
        """A command of a function run for ``$(...)`` (``words``: its words):
        what it prints goes to the output captured (``CAPTURED``). True for
        `echo` and `printf`, whose printing is all they do; for another command
        that prints, words we cannot see are printed, and it runs as any
        command does (False)."""
        name_node = node.child_by_field_name("name")
        name = node_text(name_node, text) if name_node is not None else ""
        loc = self._loc(node, text)
        if name in ("echo", "printf"):
            printed = _echoed(words[1:], loc) if name == "echo" else _printed(words[1:], loc)
            self._print(env, printed if printed is not None else (WordsSeg(Value.unknown(f"output of {name}"), loc),))
            return True
        if name in self.functions or name in _SILENT or not name:
            return False
        self._print(env, (WordsSeg(Value.unknown(f"output of {name[:40]}"), loc),))
        return False

    def _print(self, env: Env, segs: tuple[Seg, ...]) -> None:
        _, captured = env.lookup(CAPTURED)
        before = captured.scalar if captured is not None and captured.scalar is not None else ()
        if len(before) + len(segs) > MAX_VALUE_SEGS:
            segs, before = (WordsSeg(Value.unknown("output too long"), segs[0].loc if segs else NOWHERE),), ()
        env.assign(CAPTURED, Var(scalar=(*before, *segs)))

    def _read_herestring(self, node, words: list[Word], text, env: Env, depth: int, command_loc: Location) -> bool:
        """``read -r -a ARR <<< "$STRING"`` / ``read -r NAME <<< "$STRING"`` of a
        string the file knows: the array of its whitespace-separated fields, or
        the string without its leading and trailing blanks (default IFS; -r: no
        backslash processing). False (not handled) for anything else."""
        herestrings = [child for child in node.children if child.type == "herestring_redirect"]
        if len(herestrings) != 1 or len(herestrings[0].named_children) != 1:
            return False
        options = [word_value(word) for word in words[1:]]
        if not all(option.is_known for option in options):
            return False
        raw, array, names = False, None, []
        index = 0
        while index < len(options):
            option = options[index].text
            if option.startswith("-") and len(option) > 1 and set(option[1:]) <= {"r", "a"}:
                raw = raw or "r" in option
                if "a" in option:
                    if index + 1 >= len(options) or not is_identifier(options[index + 1].text):
                        return False
                    array = options[index + 1].text
                    index += 1
            elif is_identifier(option):
                names.append(option)
            else:
                return False
            index += 1
        if not raw or (array is None) == (len(names) != 1) or (array is not None and names):
            return False
        segs = self._eval_parts(herestrings[0].named_children[0], text, env, True, depth + 1, True)
        value = word_value(tuple(segs))
        if not value.is_known:
            return False
        where = self._loc(herestrings[0], text)
        if array is not None:
            fields = [(Seg(Value.known(field), where),) for field in value.text.split()]
            env.assign(array, Var(array=fields, is_array=True, defined_at=where))
        else:
            env.assign(names[0], Var(scalar=(Seg(Value.known(value.text.strip(IFS_WHITESPACE)), where),), defined_at=where))
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
        if name in _LAUNCH_NAMES or name in self.functions or name in self.aliases or name in _ALIAS_COMMANDS or PYTHON_NAME.fullmatch(name):
            return False
        if len(groups) > 1:
            # The arguments' source in one slice (what lies between them is blank
            # or a line continuation; a redirection there only makes us evaluate).
            arguments = text.data[groups[1][0].start_byte : groups[-1][-1].end_byte]
            if _MAY_RUN_OR_ASSIGN.search(arguments):
                return False
            if b"sglang" in arguments and name not in DATA_COMMANDS:
                return False  # may run a launch under a command we do not look through
        return True

    def _shift_positional(self, command: str, args: list[Word], env: Env) -> None:
        # The script's own positional parameters live in a frame of their own
        # (Env.script), unknown until `set --` gives them.
        frame = env.frames[-1] if env.frames else env.script
        if command == "set":
            if args and word_value(args[0]) == Value.known("--"):
                # (`set -- "$@" "$@"` in a loop doubles them: past the bound, unknown)
                words = []
                for word in args[1:]:
                    if words and is_spread_word(word) and is_spread_word(words[-1]):
                        continue  # any words, then any words: any words
                    words.append(word)
                frame.positional = words if len(words) <= MAX_POSITIONAL and sum(map(len, words)) <= MAX_VALUE_SEGS else None
            return
        if frame.positional is None:
            return
        count = word_value(args[0]) if args else Value.known("1")
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
        file_path, file_lines = self.path, self.current_lines
        if isinstance(text, SourcedText):
            self.path, self.current_lines = text.path, text.lines
        elif text is self.file_text:
            self.path, self.current_lines = self.result.path, self.result.lines
        # `$1`/`"$@"` in the body depend on what the call's words read.
        saved_taint = self.taint.get(POSITIONAL)
        self.taint[POSITIONAL] = self._depends(self.reads[-1]) if self.reads else frozenset()
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
            self.path, self.current_lines = file_path, file_lines
            if saved_taint is None:
                self.taint.pop(POSITIONAL, None)
            else:
                self.taint[POSITIONAL] = saved_taint


    # -- aliases ------------------------------------------------------------------------
    def _alias_command(self, name: str, args: list[Word]) -> None:
        """``alias NAME=VALUE ...``, ``unalias NAME ...``, ``shopt -s|-u
        expand_aliases``: what later commands expand."""
        texts = [word_value(arg) for arg in args]
        if name == "shopt":
            if any(t.is_known and t.text == "expand_aliases" for t in texts) and texts[0].is_known and texts[0].text in ("-s", "-u"):
                self.expand_aliases = texts[0].text == "-s"
            return
        for arg, value in zip(args, texts):
            if name == "unalias":
                if value.is_known:
                    self.aliases.pop(value.text, None)
                continue
            if not value.is_known or "=" not in value.text:
                continue  # `alias` (a listing), `alias name` (a lookup), a value we cannot see
            alias, _, _ = value.text.partition("=")
            if is_identifier(alias.replace("-", "_")):
                self.aliases[alias] = _after_characters(arg, len(alias) + 1)

    def _expand_alias(self, name: str, node, name_node, text, command_loc: Location, env: Env, depth: int) -> None:
        """A command whose first word is an alias: bash puts the alias's value
        in its place and reads the line again, in this shell (so
        ``drun -p 30000:30000 IMAGE python3 -m sglang.launch_server ...``,
        with ``alias drun='docker run -it --rm ...'``, is that docker run).
        The value is not expanded again for its own name."""
        rest = self._raw_segs(text, name_node.end_byte, node.end_byte, command_loc)
        self.expanding.add(name)
        try:
            self._nested_script((*self.aliases[name], *rest), command_loc, env, depth, in_place=True)
        finally:
            self.expanding.discard(name)

    def _raw_segs(self, text, start: int, end: int, loc: Location) -> tuple[Seg, ...]:
        """The script's characters between two byte offsets as written, each at
        its place (the rest of a command line an alias is expanded in)."""
        raw = text.data[start:end].decode("utf-8", "surrogatepass")
        if not raw:
            return ()
        chars = self._chars_from(start, raw, text)
        return (Seg(Value.known(raw), Location(loc.path, chars[0][0], chars[0][1]), chars=chars),)

    # -- `source` / `.` (issue 19) -------------------------------------------------------
    def _source(self, node, text, args: list[Word], command_loc: Location, env: Env, depth: int) -> None:
        """``source FILE [ARGS]``: read FILE's statements here, in this shell (its
        functions, variables and arrays are the script's from now on), when it is
        a file of the project the script names so that it can be told: a known
        path (relative to the directory of the file being read, as when the
        script is run from its directory), ``$(dirname "${BASH_SOURCE[0]}")``-style
        directories (shell_expansion), or ``# sglang-lint: source=PATH``. Anything
        else gets a note at the line."""
        command = node_text(node.child_by_field_name("name"), text) if node.child_by_field_name("name") is not None else "source"
        directive = self._source_directive(node, text)
        if directive is not None:
            target = resolve(self.path, directive)
        elif not args:
            return  # bash: "filename argument required"
        else:
            if self._machine_file(args[0]):
                return
            target = None if self.remote_depth else self._source_path(args[0], env)
            if target is None and not self.remote_depth and not self._mentions_sglang():
                return  # (another host's copy of a project file is noted)
            if target is None:
                # (the remote host's file may differ from the project's; a path
                # built from what the file does not know names no file)
                why = "it runs on another host (ssh), where the file may differ" if self.remote_depth else "which file it reads cannot be told here"
                written = self._as_written(node_text(node, text).split("\n")[0], env)[:60]
                self._source_note(
                    command_loc,
                    f"`{written}` not followed: {why}; name the project's file with `# sglang-lint: source=path/to/file.sh` "
                    "on the line above (relative to this file's directory)",
                )
                return
            if any(part in DEFAULT_EXCLUDED_DIRS for part in target.split(os.sep)[:-1]):
                return  # `source .venv/bin/activate`: an installed environment (see _machine_file)
        shown = target
        if len(self.sourcing) >= MAX_SOURCE_DEPTH:
            self._source_note(command_loc, f"`{command} {shown}` not followed: sourced files nest more than {MAX_SOURCE_DEPTH} deep here")
            return
        real = os.path.realpath(target)
        if real in {os.path.realpath(p) for p in [self.result.path, *self.sourcing]}:
            # bash would read it again, and again: the functions and variables
            # are the ones it defines already.
            self._source_note(command_loc, f"`{command} {shown}` not followed: it is being read already (it sources itself through {' -> '.join([self.result.path, *self.sourcing])})")
            return
        assert self.files is not None
        source_text, problem = self.files.read(target)
        if source_text is None:
            self._source_note(command_loc, f"`{command} {shown}` not followed: {problem}; its functions and variables are unknown here")
            return
        sourced, parsed = self._sourced_text(target, source_text)
        file_path, file_lines = self.path, self.current_lines
        self.path, self.current_lines = sourced.path, sourced.lines
        self.sourcing.append(target)
        self.call_stack.append((SOURCED + target, command_loc, (command_loc.line, command_loc.end_line)))
        frame = None
        if len(args) > 1:
            # `source FILE ARGS`: its positional parameters while it is read.
            frame = Frame(f"source {shown}", list(args[1:]), call_site=command_loc)
            env.frames.append(frame)
        try:
            self._walk(parsed.tree.root_node, sourced, env, depth + 1)
        finally:
            if frame is not None:
                env.frames.pop()
            self.call_stack.pop()
            self.sourcing.pop()
            self.path, self.current_lines = file_path, file_lines

    def _mentions_sglang(self) -> bool:
        """Whether the script (or the config's env) mentions SGLang at all: a
        file it sources that cannot be told is then worth a note (a codegen
        script's `source "${CODEGEN_PKG}/kube_codegen.sh"` is not; a helper of
        the project it may call launches in its own file, analyzed as one).
        Asked only for such a file, rarely: not worked out for every run."""
        return self.names_entry or "sglang" in self.file_text.text.lower() or any("sglang" in value.lower() for value in self.configured_env.values())

    def _source_note(self, where: Location, message: str) -> None:
        self.result.notes.append(self._note(message, where.line, where.column, where.path))

    def _machine_file(self, word: Word) -> bool:
        """A file of the machine rather than of the project, not followed and not
        noted: a known absolute path outside the project or a path in the home
        directory (`source /opt/venv/bin/activate`, `. ~/.bashrc`, conda's
        profile script set up the environment, they define no launch helpers).
        So does a file in a directory a walk never enters (files.DEFAULT_EXCLUDED_DIRS:
        `.venv`, `site-packages`, `node_modules`), also inside the project. A path
        written relative to the script that leaves the project is noted."""
        value = word_value(word)
        if value.kind is Kind.CONCAT and value.parts[0].kind is Kind.SYMBOL and value.parts[0].name == "$HOME" and value.parts[0].default is None:
            return True  # `source "$HOME/.local/bin/env"` (uv's installer), as `~/...`
        ending = value.text if value.is_known else value.parts[-1].text if value.kind is Kind.CONCAT and value.parts[-1].is_known else ""
        if ending == "activate" or ending.endswith(("/bin/activate", "/etc/profile.d/conda.sh", "/etc/profile.d/mamba.sh")):
            # A Python environment's activation (`source "$VENV/bin/activate"`,
            # `source sglang/.venv/bin/activate`, conda's `source activate env`
            # and `source "$CONDA_PREFIX/etc/profile.d/conda.sh"`) wherever it
            # lies: it sets PATH; a note for each was noise.
            return True
        if not value.is_known:
            return False
        if value.text.startswith("~"):
            return True
        assert self.files is not None
        return value.text.startswith("/") and self.files.project.problem(value.text) is not None

    def _source_path(self, word: Word, env: Env) -> str | None:
        """The file (as shown) a ``source`` word names, or None. A relative
        path is bash's: relative to the working directory, which is the
        directory a ``cd`` of the script went to when it names one
        (:meth:`_cd`), else taken to be the script's own."""
        directory = self.directory_path(word)
        if directory is not None:
            return resolve(self.path, directory)
        value = word_value(word)
        if value.is_known and value.text and not value.text.startswith("~"):
            working = self._working_directory(env)
            if working is not None and not value.text.startswith("/"):
                return resolve(self.path, os.path.join(working, value.text))
            return resolve(self.path, value.text)
        return None

    def _cd(self, args: list[Word], command_loc: Location, env: Env) -> None:
        """``cd DIR``: the working directory (bash's ``PWD``) is DIR when it
        names a directory (a script-directory idiom, an absolute path, or a
        path relative to a working directory known so far); any other ``cd``
        makes it one we cannot see. Only a relative ``source`` reads it."""
        directory = self._cd_target(args, env)
        moved = Value.symbol("$PWD") if directory is None else self.directory_symbol(directory)
        env.assign("PWD", Var(scalar=(Seg(moved, command_loc),), defined_at=command_loc))

    def _cd_target(self, args: list[Word], env: Env) -> str | None:
        """The absolute directory ``cd ARGS`` goes to, or None when it is not
        told. A relative one is joined to the working directory: one a ``cd``
        went to, else (no ``cd`` yet) the script's own, which a relative
        ``source`` takes it to be too, when the directory is there."""
        operands = [word for word in args if word_value(word) not in (Value.known("-P"), Value.known("-L"))]
        if len(operands) != 1:
            return None
        directory = self.directory_path(operands[0])
        value = word_value(operands[0])
        if directory is None and value.is_known and value.text and value.text[0] not in "~-/":
            working = self._working_directory(env)
            if working is not None:
                return os.path.normpath(os.path.join(working, value.text))
            if not env.lookup("PWD")[0]:
                below = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(self.path)), value.text))
                return below if self._directory_is_there(below) else None
        return directory

    def _working_directory(self, env: Env) -> str | None:
        """The working directory a ``cd`` of the script went to, when it is
        told (None: no ``cd``, or one we cannot see)."""
        found, var = env.lookup("PWD")
        if not found or var is None or not var.scalar or len(var.scalar) != 1:
            return None
        value = var.scalar[0].value
        return self.directories.get(value.name) if value.kind is Kind.SYMBOL else None

    def _source_directive(self, node, text) -> str | None:
        """The path of a ``# sglang-lint: source=PATH`` comment on the lines just
        above the statement or at the end of its line."""
        statement = node
        while statement.parent is not None and statement.parent.type in ("list", "redirected_statement", "pipeline", "negated_command"):
            statement = statement.parent
        comments = []
        following = statement.next_sibling
        if following is not None and following.type == "comment" and following.start_point[0] == statement.end_point[0]:
            comments.append(following)
        row = statement.start_point[0]
        previous = statement.prev_sibling
        while previous is not None and previous.type == "comment" and previous.end_point[0] == row - 1:
            comments.append(previous)
            row = previous.start_point[0]
            previous = previous.prev_sibling
        for comment in comments:
            words = node_text(comment, text).lstrip("#").split()
            if len(words) >= 2 and words[0] == _DIRECTIVE:
                for word in words[1:]:
                    key, _, value = word.partition("=")
                    if key == "source" and value:
                        return value
        return None

    def _sourced_text(self, path: str, source_text: str) -> tuple[SourcedText, ScriptParse]:
        """A sourced file's text (as the interpreter reads it, with the file's
        own lines) and its parse."""
        script, parsed = _parse_sourced(source_text)
        sourced = SourcedText(script, path)
        sourced.lines = source_text.split("\n")
        return sourced, parsed


@functools.lru_cache(maxsize=16)
def _parse_sourced(source_text: str) -> tuple[str, ScriptParse]:
    """The parse of a sourced file's text, made once per process for a helper
    that many scripts source (and each script once per path through its
    branches); the lines tree-sitter-bash cannot parse are blank in the text
    returned (shell_syntax.parse_script)."""
    data = FileText(source_text).data
    parsed = parse_script(data)
    return (source_text if parsed.data == data else parsed.data.decode("utf-8", "surrogatepass")), parsed


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


# `${$NAME}`: bash's "bad substitution" (tree-sitter-bash cannot parse it).
_BAD_SUBSTITUTION = re.compile(r"\$\{\$[A-Za-z_][A-Za-z0-9_]*[^}]*\}")


# A case pattern or the right side of `[[ == ]]` that is a glob, not a string.
_GLOB_MARK = "\0glob:"


def _is_plain_glob(raw: str) -> bool:
    """A glob fnmatch reads as bash does (no extglob, quotes or escapes)."""
    return not any(c in raw for c in "\\'\"$`(){}!@+") and "[!" not in raw and "[^" not in raw


def _case_alternatives(item, value_ids: set[int]) -> list[list]:
    """A case item's patterns, each the pieces between its `|` separators
    (tree-sitter-bash gives `*","*)` as three values, and each was read as an
    alternative of its own: `*`, which always matched)."""
    groups: list[list] = [[]]
    for child in item.children:
        if child.type == "|":
            groups.append([])
        elif child.id in value_ids:
            groups[-1].append(child)
    return [group for group in groups if group]


def _joined_pattern(nodes, text) -> str | None:
    """The glob the pieces of a `[[ == ]]` pattern make (``*","*``): unquoted
    ones as written, quoted ones as the text they hold (their glob characters
    escaped, as fnmatch reads ``[*]``); None when a piece expands a value or
    is not a plain glob."""
    parts = []
    for node in nodes:
        if _has_expansion(node):
            return None
        raw = node_text(node, text)
        if node.type in ("extglob_pattern", "word"):
            if not _is_plain_glob(raw):
                return None
            parts.append(raw)
        elif node.type == "string" and len(raw) >= 2 and "\\" not in raw:
            parts.append(_glob_escape(raw[1:-1]))
        elif node.type == "raw_string" and len(raw) >= 2:
            parts.append(_glob_escape(raw[1:-1]))
        else:
            return None
    return "".join(parts)


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
        return POSITIONAL
    return name if is_identifier(name) else None


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


# The variable a function run for `$(f ...)` prints into (no name a script can
# write: it holds a space).
CAPTURED = " output"
# Commands that print nothing on their standard output.
_SILENT = frozenset(
    {"mkdir", "rm", "rmdir", "cp", "mv", "ln", "touch", "sleep", "chmod", "chown", "cd", "export", "unset", "shift", "set", "shopt",
     "source", ".", "true", "false", ":", "test", "[", "wait", "kill", "trap", "ulimit", "umask", "let", "read", "mapfile", "readarray", "local", "declare", "typeset", "readonly"}
)
# Redirections that send standard output elsewhere (a file, standard error).
_OUT_REDIRECTS = frozenset({">", ">>", "&>", "&>>", ">|", ">&"})


def _prints_to_the_capture(node, text) -> bool:
    """Whether what the command ``node`` prints goes to its shell's standard
    output: not into a pipe to a later command, not redirected (itself, or a
    group, `if` or loop around it, up to the function it is in)."""
    child, parent = node, node.parent
    while parent is not None and parent.type not in ("function_definition", "command_substitution", "program"):
        if parent.type == "pipeline" and child.start_byte != parent.named_children[-1].start_byte:
            return False
        if parent.type == "redirected_statement":
            for redirect in parent.children_by_field_name("redirect"):
                if redirect.type != "file_redirect":
                    continue
                descriptor = redirect.child_by_field_name("descriptor")
                operator = next((node_text(part, text) for part in redirect.children if not part.is_named), "")
                if operator in _OUT_REDIRECTS and (descriptor is None or node_text(descriptor, text) == "1"):
                    return False
        child, parent = parent, parent.parent
    return True


def _ends_early(body, text) -> bool:
    """Whether a function body may stop before its end (`return`, `exit`):
    its output then depends on where (not followed)."""
    stack = [body]
    while stack:
        current = stack.pop()
        if current.type == "command":
            name = current.child_by_field_name("name")
            if name is not None and node_text(name, text) in ("return", "exit"):
                return True
        stack.extend(current.named_children)
    return False


def _as_text(word: Word) -> tuple[Seg, ...]:
    """A printed word's pieces, as text: words we cannot see stay so."""
    return tuple(WordsSeg(seg.value, seg.loc, held=seg.held) if isinstance(seg, SpreadSeg) else seg for seg in word)


def _echoed(words: list[Word], loc: Location) -> tuple[Seg, ...] | None:
    """What `echo WORDS` prints (its -n, -e, -E flags read); None when it
    interprets escapes we would have to follow."""
    newline, escapes = True, False
    while words:
        flag = word_value(words[0])
        if not (flag.is_known and re.fullmatch(r"-[neE]+", flag.text)):
            break
        newline = newline and "n" not in flag.text
        escapes = flag.text.rfind("e") > flag.text.rfind("E")
        words = words[1:]
    out: list[Seg] = []
    for index, word in enumerate(words):
        if index:
            out.append(Seg(Value.known(" "), loc))
        out.extend(_as_text(word))
    if escapes and any(not seg.value.is_known or "\\" in seg.value.text for seg in out):
        return None
    if newline:
        out.append(Seg(Value.known("\n"), loc))
    return tuple(out)


def _printed(words: list[Word], loc: Location) -> tuple[Seg, ...] | None:
    """What `printf FORMAT ARGS` prints when FORMAT is text with `%s` and
    `\\n` only (reused while arguments are left, as printf does); None for
    any other format."""
    if not words:
        return None
    form = word_value(words[0])
    if not form.is_known or "\\" in form.text.replace("\\n", "") or "%" in form.text.replace("%s", ""):
        return None
    pieces = form.text.replace("\\n", "\n").split("%s")
    slots = len(pieces) - 1
    args = words[1:]
    out: list[Seg] = []
    while True:
        for index, piece in enumerate(pieces):
            if piece:
                out.append(Seg(Value.known(piece), loc))
            if index < slots and args:
                out.extend(_as_text(args[0]))
                args = args[1:]
        if not args or not slots:
            return tuple(out)


def _without_trailing_newlines(segs: Word) -> Word:
    """The output `$(...)` gives: its trailing newlines removed."""
    out = list(segs)
    while out and out[-1].value.is_known:
        last = out[-1]
        kept = last.value.text.rstrip("\n")
        if kept:
            chars = last.chars[: len(kept)] if last.chars and len(last.chars) == len(last.value.text) else None
            out[-1] = Seg(Value.known(kept), last.loc, last.split, last.quoted, chars, last.origin)
            break
        out.pop()
    return tuple(out)


def _leaves_loop(node, text) -> bool:
    """Whether a loop body may stop early (``break``, ``continue``, ``return``,
    ``exit``): then it is not unrolled (the iterations that run are not known)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "command":
            name = current.child_by_field_name("name")
            if name is not None and node_text(name, text) in ("break", "continue", "return", "exit"):
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


# `kubectl`/`oc` subcommands that read manifests from `-f -`.
_MANIFEST_SUBCOMMANDS = {"apply", "create", "replace"}


def _stdin_reader(statement, redirect, text) -> tuple[str, str] | None:
    """What reads the here-document ``redirect`` of ``statement``: ("shell",
    program) for a shell that runs it as a script, ("yaml", program) for a
    manifest (``kubectl apply -f -``, ``oc create -f -``, ``cat > x.yaml``,
    ``tee x.yaml``), else None (data). ``cat <<EOF | CMD`` hands it to CMD."""
    command = statement.named_children[0] if statement.named_children else None
    words = _plain_words(command, text, redirect.start_byte)
    if not words:
        return None
    name = words[0].rsplit("/", 1)[-1]
    if name == "cat" and all(word.startswith("-") for word in words[1:]):
        targets = [_redirect_target(child, text) for parent in (statement, redirect) for child in parent.named_children if child.type == "file_redirect"]
        if any(target is not None and target.endswith((".yaml", ".yml")) for target in targets):
            return "yaml", "cat"
        if targets:
            return None
        # `cat <<EOF | CMD [&& ...]`: CMD reads it.
        pipeline = next((child for child in redirect.named_children if child.type == "pipeline"), None)
        reader = pipeline.named_children[0] if pipeline is not None and pipeline.named_children else None
        while reader is not None and reader.type in ("list", "pipeline", "redirected_statement"):
            reader = reader.named_children[0] if reader.named_children else None
        return _reader_of(reader, text)
    return _reader_of(command, text, redirect.start_byte)


def _reader_of(command, text, until: int | None = None) -> tuple[str, str] | None:
    shell = _reads_script_from_stdin(command, text)
    if shell is not None:
        return "shell", shell
    words = _plain_words(command, text, until)
    if not words:
        return None
    name = words[0].rsplit("/", 1)[-1]
    if name in ("kubectl", "oc") and any(word in _MANIFEST_SUBCOMMANDS for word in words[1:]):
        for index, word in enumerate(words):
            if word in ("-f-", "--filename=-", "-f=-") or (word in ("-f", "--filename") and words[index + 1 : index + 2] == ["-"]):
                return "yaml", name
        return None
    if name == "tee" and any(word.endswith((".yaml", ".yml")) for word in words[1:] if not word.startswith("-")):
        return "yaml", "tee"
    return None


def _redirect_target(redirect, text) -> str | None:
    """The file of ``> FILE`` / ``>> FILE`` (None for other redirections)."""
    operator = next((child for child in redirect.children if not child.is_named), None)
    destination = redirect.child_by_field_name("destination")
    if operator is None or operator.type not in (">", ">>", ">|") or destination is None:
        return None
    return node_text(destination, text).strip("'\"")


def _plain_words(command, text, until: int | None = None) -> list[str]:
    """The words of ``command`` as written, quotes dropped (enough to tell the
    program and its options). ``until``: where the redirection after the command
    starts; tree-sitter-bash leaves a lone ``-`` before it (``kubectl apply -f -
    <<EOF``) out of the command, and bash does not."""
    if command is None or command.type != "command":
        return []
    words = []
    for child in command.named_children:
        if child.type == "command_name":
            child = child.named_children[0] if child.named_children else child
        if child.type in ("word", "raw_string", "string", "simple_expansion", "expansion", "concatenation", "number"):
            words.append(node_text(child, text).strip("'\""))
    if until is not None and until > command.end_byte:
        words.extend(word for word in text.data[command.end_byte : until].decode("utf-8", "replace").split() if word == "-")
    return words


def _reads_script_from_stdin(command, text) -> str | None:
    """The program of ``command`` that reads a here-document as a script: a shell
    without ``-c`` or a script file (``bash``, ``bash -s``, ``sudo -u x bash``), or
    ``ssh HOST`` without a remote command (the remote shell reads it). The
    program is ``ssh`` when the script runs on another host (``ssh HOST bash``
    too: its files are that host's)."""
    words = _plain_words(command, text)
    if not words:
        return None
    first = words[0].rsplit("/", 1)[-1]
    if first in DOCKER_CLIS or first in APPTAINER_CLIS:
        start = max(docker_command_start(words, 0, "exec"), docker_command_start(words, 0, "run")) if first in DOCKER_CLIS else apptainer_command_start(words, 0)
        if start < 0:
            return None
        words = words[start:]  # the command run in the container
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
        return "ssh" if _shell_reading_stdin(operands[1:]) is not None else None  # the remote command
    return _shell_reading_stdin(words)


def _shell_reading_stdin(words: list[str]) -> str | None:
    """The shell among ``words`` (a command, or the command a wrapper runs) that
    reads its script from standard input, or None."""
    # The shell is the command, or the command a wrapper runs (`sudo -u x bash`);
    # `grep bash <<EOF` feeds grep.
    wrapped = words[0].rsplit("/", 1)[-1] in WRAPPERS
    for index, word in enumerate(words if wrapped else words[:1]):
        name = word.rsplit("/", 1)[-1]
        if name in SHELLS:
            rest = words[index + 1 :]
            if any(w.startswith("-") and not w.startswith("--") and "c" in w for w in rest):
                return None
            if any(not w.startswith("-") for w in rest):
                return None  # a script file
            return name
    return None


def _after_keyword(node, keyword: str) -> list:
    children = node.children
    for index, child in enumerate(children):
        if not child.is_named and child.type == keyword:
            return [c for c in children[index + 1 :] if c.is_named]
    return []


# The builtins that define, drop or turn on aliases (ShellAnalyzer._alias_command).
_ALIAS_COMMANDS = frozenset({"alias", "unalias", "shopt"})


def _after_characters(word: Word, count: int) -> Word:
    """``word`` without its first ``count`` characters (known text), each
    character keeping where it was written."""
    kept: list[Seg] = []
    for seg in word:
        size = len(seg.value.text) if seg.value.is_known else 0
        if count >= size and seg.value.is_known:
            count -= size
            continue
        if count and seg.value.is_known:
            chars = seg.chars[count:] if seg.chars is not None and len(seg.chars) == size else None
            kept.append(Seg(Value.known(seg.value.text[count:]), seg.loc, chars=chars, origin=seg.origin))
            count = 0
            continue
        kept.append(seg)
    return tuple(kept)

