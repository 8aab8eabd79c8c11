"""Word expansion in the shell source: what bash makes of a word of the syntax tree.

``WordExpansion`` is the bottom layer of the shell interpreter (shell_walk). It
evaluates a word node against what is known of the variables (an ``Env``) into
pieces of words (shell_words): quoting and escapes, concatenation, ``$X``,
``${X:-default}`` and the other parameter expansions, arrays, ``"$@"`` and the
positional parameters, ``$((...))``; every character that came from a literal
keeps its file position. It records which variables the command being evaluated
reads (``reads``) and which merged branches they depend on (``taint``), for the
launch variants (paths.py). What it cannot know it keeps as a symbol or as
unknown.
"""

from __future__ import annotations

import itertools
import os
import re
from typing import Iterable, Mapping

from msgspec.structs import replace

from sglang_lint.model import Kind, Location, Note, SourceResult, Value, is_ascii_digits
from sglang_lint.sources.paths import Paths, decision, implied
from sglang_lint.sources.paths import subject as path_subject
from sglang_lint.sources.shell_syntax import node_text
from sglang_lint.sources.shell_words import (
    NOWHERE,
    Env,
    Seg,
    Var,
    Word,
    WordsSeg,
    held_words,
    is_identifier,
    restated,
    split_fields,
    split_words,
    spread_word,
    strict_texts,
    word_value,
)
from sglang_lint.sources.textpos import FileText

# Nesting of the syntax tree we follow: deeper subtrees are skipped with a note
# rather than risking Python's recursion limit.
MAX_TREE_DEPTH = 150
# The name under which reads of `$1`, `"$@"`, ... are tracked (WordExpansion.taint).
POSITIONAL = "\0positional"
# `${BASH_SOURCE[0]}` and the like: the file being read (a sourced file in a
# sourced file); `$0` is the script bash runs, also in a file it sources.
_CURRENT_FILE = frozenset({"$BASH_SOURCE", "${BASH_SOURCE}", "${BASH_SOURCE[0]}", "${BASH_SOURCE[@]}"})
_SCRIPT_FILE = frozenset({"$0", "${0}"})
# Commands that print the real path of their argument (the directory idioms'
# `$(realpath "$0")`, `$(readlink -f "${BASH_SOURCE[0]}")`), with the options
# that make them do so.
_REAL_PATH = {"realpath": frozenset({"", "-e", "-m", "-s", "-P", "-L"}), "readlink": frozenset({"-f", "-e", "-m"})}
# The variables standing in a nested script (`bash -c "..."`, an ssh command)
# for what the outer shell substitutes into its text (shell_launches
# _nested_script); inside the nested script's single quotes, where no
# expansion happens, the text itself is the outer value (_stand_ins).
STAND_IN_PREFIX = "__sglang_lint_"
STAND_IN = re.compile(r"\$\{(" + STAND_IN_PREFIX + r"\d+)\}")


def _and_chain(node) -> list | None:
    """The statements of ``a && b && c`` (tree-sitter nests the lists to the
    left), or None when another operator joins them."""
    parts = node.children
    if node.type != "list":
        return [node]
    if len(parts) != 3 or parts[1].type != "&&":
        return None
    left = _and_chain(parts[0])
    return None if left is None else [*left, parts[2]]


class SourcedText(FileText):
    """The text of a file the script sources (issue 19): positions in it are that
    file's (``path``, as shown), with locations kept as for the script's own."""

    def __init__(self, text: str, path: str) -> None:
        super().__init__(text)
        self.path = path
        self.lines = text.split("\n")
        self.locations: dict[tuple[int, int], Location] = {}
        self.chars: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}


class WordExpansion:
    """The words of commands and assignments, expanded as bash would, and the
    interpreter's state they need (see the module's docstring)."""

    def __init__(self, path: str, text: str, env: Mapping[str, str] | None = None, paths: Paths | None = None) -> None:
        self.path = path
        # The decisions this run's path has fixed (issue 16, launch variants); a
        # run without one merges the branches it cannot decide.
        self.paths = paths or Paths()
        # Which merged branches each variable's value depends on (their keys),
        # and the names the commands being evaluated read: a launch forks only
        # on a merged branch it read from (paths.Paths.launch).
        self.taint: dict[str, frozenset[str]] = {}
        self.reads: list[set[str]] = []
        # Values for environment variables the script reads but never sets (the
        # config's `env`): consulted only when the script itself has no value.
        self.configured_env: Mapping[str, str] = env or {}
        self.result = SourceResult(path=path, lines=text.split("\n"))
        self.file_text = FileText(text)
        self.noted_depth = False
        # Evaluating the arithmetic of a condition: only values the file sets count.
        self.strict_arith = False
        self._loc_cache: dict[tuple, Location] = {}
        self._chars_cache: dict[tuple, tuple[tuple[int, int], ...]] = {}
        # The lines of the file being read (``path``): the script's, or a sourced
        # file's while the interpreter reads it.
        self.current_lines = self.result.lines
        # Follow `source`: the idioms for the script's directory
        # (`$(dirname "${BASH_SOURCE[0]}")`, `$(cd "$(dirname "$0")" && pwd)`)
        # expand to a symbol standing for that directory (name -> absolute path).
        self.follows_sources = False
        self.directories: dict[str, str] = {}

    # -- locations ----------------------------------------------------------------
    def _loc(self, node, text) -> Location:
        # Cached for the file itself: a function body is evaluated once per call,
        # and up to MAX_COMMANDS calls must stay quick (a position lookup costs the
        # length of its line). Embedded texts (`bash -c` strings, made anew per
        # evaluation) look positions up in a table and are not kept alive.
        key = (node.start_byte, node.end_byte)
        if text is self.file_text:
            cache, path = self._loc_cache, self.result.path
        elif isinstance(text, SourcedText):
            cache, path = text.locations, text.path
        else:
            cache, path = None, self.path
        location = cache.get(key) if cache is not None else None
        if location is None:
            line, column = text.position(node.start_byte)
            end_line, end_column = text.position(node.end_byte)
            if cache is None:
                line, column = self._after_line_end(line, column)
                end_line, end_column = self._after_line_end(end_line, end_column)
            location = Location(path, line, column, end_line, end_column)
            if cache is not None:
                cache[key] = location
        return location

    def _after_line_end(self, line: int, column: int) -> tuple[int, int]:
        """EmbeddedText puts the end of its text one column after its last
        character; when that character is a newline, the column is past the end
        of its line. The position after a newline is the next line's start."""
        lines = self.current_lines
        if 1 <= line <= len(lines) and column > len(lines[line - 1]) + 1:
            return (line + 1, 1) if line < len(lines) else (line, len(lines[line - 1]) + 1)
        return line, column

    def _span(self, start: tuple[int, int], end: tuple[int, int]) -> Location:
        return Location(self.path, start[0], start[1], end[0], end[1])

    def _note(self, message: str, line: int = 1, column: int = 1, path: str | None = None) -> Note:
        """A note at ``line``:``column`` of ``path`` (the file being read), which
        may be a helper the script sources: then with the script's line that led there."""
        path = path or self.path
        return Note(path, message, line, column, self._reached_from(path))

    def _reached_from(self, path: str) -> Location | None:
        """The script's line whose run led into ``path`` (the walker's call
        stack knows it; expansion alone reads the script only)."""
        return None

    def _note_depth(self, node, text) -> None:
        if not self.noted_depth:
            self.noted_depth = True
            line, column = text.position(node.start_byte)
            self.result.notes.append(self._note(f"nesting deeper than {MAX_TREE_DEPTH} levels is not analyzed", line, column))

    def _depends(self, names: Iterable[str]) -> frozenset[str]:
        return frozenset().union(*(self.taint.get(name, frozenset()) for name in names))

    def _implied(self, key: str) -> bool | None:
        return implied(self.paths.known(), key)

    # -- words ------------------------------------------------------------------
    def _eval_word_scalar(self, node, text, env: Env, depth: int) -> Word:
        """A word where bash does no field splitting (assignment values)."""
        segs = self._eval_parts(node, text, env, quoted=False, depth=depth, scalar=True)
        return tuple(restated(s, s.loc, False, True, s.chars, s.origin) for s in segs)

    def _eval_word_fields(self, node, text, env: Env, depth: int) -> list[Word]:
        """The words (fields) one argument node becomes."""
        spread = self._eval_spread(node, text, env)
        if spread is not None:
            return spread
        segs = self._eval_parts(node, text, env, quoted=False, depth=depth, scalar=False)
        return split_fields(segs)

    def _eval_spread(self, node, text, env: Env) -> list[Word] | None:
        """``"$@"``, ``"${A[@]}"`` and their unquoted forms as the whole word."""
        quoted = False
        inner = node
        if node.type == "string" and len(node.named_children) == 1:
            inner = node.named_children[0]
            quoted = True
        loc = self._loc(node, text)
        if inner.type == "simple_expansion" and inner.named_children and inner.named_children[0].type == "special_variable_name":
            name = node_text(inner.named_children[0], text)
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
            if index is not None and node_text(index, text) in ("@", "*") and not prefix_count and not (quoted and node_text(index, text) == "*"):
                return [spread_word(Value.unknown(f"{node_text(inner, text)[:40]} is not evaluated"), loc)]
            return None
        if inner.type == "expansion" and len(inner.named_children) == 1 and inner.named_children[0].type == "subscript":
            subscript = inner.named_children[0]
            base = subscript.child_by_field_name("name")
            index = subscript.child_by_field_name("index")
            if base is not None and index is not None and node_text(index, text) in ("@", "*"):
                if node_text(index, text) == "*" and quoted:
                    return None
                name = node_text(base, text)
                found, var = self._lookup(env, name)
                if found and var is not None and var.is_array:
                    if var.array is None:
                        # (changed element by element: any number of words)
                        return [spread_word(Value.unknown(f"${{{name}[@]}}"), loc)]
                    return [self._relocate(word, loc, var.defined_at, split=not quoted) for word in var.array] if quoted else split_fields(
                        [seg for word in var.array for seg in self._relocate(word, loc, var.defined_at, split=True) + (Seg(Value.known(" "), loc, split=True),)]
                    )
                if found and var is not None and var.scalar is not None:
                    return split_fields(list(self._relocate(var.scalar, loc, var.defined_at, split=not quoted))) if not quoted else [self._relocate(var.scalar, loc, var.defined_at, split=False)]
                return [spread_word(Value.unknown(f"${{{name}[@]}} is not set in this file"), loc)]
        return None

    def _positional_words(self, env: Env, loc: Location, split: bool) -> list[Word]:
        frame = env.frames[-1] if env.frames else env.script
        if frame.positional is None:
            owner = f"{frame.function}()" if frame.function else "the script"
            return [spread_word(Value.unknown(f'"$@" of {owner}'), loc)]
        words = []
        for word in frame.positional:
            relocated = self._relocate(word, loc, None, split=split)
            words.extend(split_fields(list(relocated)) if split else [relocated])
        return words

    def _relocate(self, word: Word, use_loc: Location, origin: Location | None, split: bool) -> Word:
        """The pieces of a stored word expanded at ``use_loc``."""
        # (replace keeps what a kind of piece holds besides: a merge's ways)
        return tuple(
            replace(seg, loc=use_loc, split=split, quoted=not split, origin=seg.origin or origin or (seg.loc if seg.loc is not NOWHERE else None))
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
            raw = node_text(node, text)
            if kind == "word" and "\\" in raw:
                unescaped, kept = _unescape(raw, None)
                return [Seg(Value.known(unescaped), loc, quoted=True, chars=self._kept_chars(node.start_byte, raw, kept, text))]
            return [Seg(Value.known(raw), loc, chars=self._char_positions(node, text, raw))]
        if kind == "raw_string":
            raw = node_text(node, text)[1:-1]
            start = node.start_byte + 1
            if STAND_IN_PREFIX in raw:
                return self._stand_ins(raw, loc, env)
            return [Seg(Value.known(raw), loc, quoted=True, chars=self._chars_from(start, raw, text))]
        if kind == "ansi_c_string":
            raw = node_text(node, text)[2:-1]
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
                    raw = node_text(child, text)
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
                    segs.extend(restated(s, s.loc, False, True, s.chars, s.origin) for s in self._eval_parts(child, text, env, True, depth + 1, scalar))
            if text.data[node.end_byte - 1 : node.end_byte] == b'"':
                between(node.end_byte - 1)  # before the closing quote: `" $X "`
            return segs
        if kind == "variable_name":
            # Only a name outside an expansion reaches here: tree-sitter-bash reads
            # the `deepseek` of `${MODEL:-deepseek-ai/DeepSeek-V3}` as one; bash,
            # as text.
            raw = node_text(node, text)
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
        if kind == "command_substitution" and self.follows_sources:
            directory = self._directory_idiom(node, text, env, depth)
            if directory is not None:
                return [Seg(self.directory_symbol(directory), loc, split=not quoted)]
        if kind == "command_substitution":
            output = self._function_output(node, text, env, depth)
            if output is not None:
                return [restated(seg, loc, not quoted, quoted, seg.chars, seg.origin or (seg.loc if seg.loc.path else None)) for seg in output]
        if kind in ("command_substitution", "process_substitution"):
            return [Seg(Value.unknown(f"output of {node_text(node, text)[:40]}"), loc, split=not quoted)]
        if kind == "translated_string":
            return [Seg(Value.unknown("locale-translated string"), loc, quoted=True)]
        if kind == "brace_expression":
            return [Seg(Value.unknown("brace expansion"), loc)]
        return [Seg(Value.unknown(f"{kind} is not evaluated"), loc)]

    def _table_value(self, name: str, var: Var, index, text, env: Env, quoted: bool, loc: Location, depth: int) -> list[Seg]:
        """``${NAME[key]}`` of an associative array (Var.table): the key's
        value ("" when it has none). For a key the file does not decide
        (`${MODEL_BASE_CONFIGS[$model_name]}`), one of its values or "":
        split, words holding one of their ways (ArgToken.held: only the
        options the values name may be set); quoted, one of the texts."""
        table = var.table or {}
        key = word_value(tuple(self._eval_parts(index, text, env, True, depth + 1, True)))
        if key.is_known:
            value = table.get(key.text)
            if value is None:
                return [Seg(Value.known(""), loc, split=not quoted)]
            return list(self._relocate(value, loc, var.defined_at, split=not quoted))
        symbol = path_subject(key)
        if symbol is not None and table:
            # A key the environment or caller decides (`$MODEL_NAME`,
            # `${ROLE:-prefill}`): a decision of the path per key, as a `case`
            # over it (paths.py); on a path that decided it, that key's value.
            undecided = None
            for known_key, value in table.items():
                verdict = self._implied(f"eq\0{symbol}\0{known_key}")
                if verdict:
                    return list(self._relocate(value, loc, var.defined_at, split=not quoted))
                if verdict is None and undecided is None:
                    undecided = known_key
            if undecided is None:
                # None of its keys: bash gives "", but scripts check the key
                # first (a `case` that exits on any other, a menu that loops
                # until one is chosen), and a loop we merge may keep a way
                # that never runs: `--model-path ${MODELS[$1]}` gave "expected
                # one argument" there. Not known, rather than a finding on a
                # path that may not exist.
                missing = Value.unknown(f"${{{name}[{node_text(index, text)[:30]}]}} of a key it has no entry for")
                return [WordsSeg(missing, loc, split=not quoted, quoted=quoted)]  # (any words, none too, where it is split)
            self._word_decision(f"eq\0{symbol}\0{undecided}", (f"{symbol} is {undecided}", f"{symbol} is not {undecided}"), loc)
        ways = [*table.values(), ()]
        what = Value.unknown(f"${{{name}[{node_text(index, text)[:30]}]}}, one of its values")
        if quoted:
            merged = Value.one_of(word_value(way) for way in ways)
            return [Seg(merged if merged.kind is not Kind.UNKNOWN else what, loc, quoted=True)]
        return [WordsSeg(what, loc, split=True, held=held_words([split_words(way) for way in ways]))]

    def _word_decision(self, key: str, texts: tuple[str, str], where: Location) -> None:
        """A decision of the path a word's value depends on and this path has
        not made (`${DPA:+...}`, `${CONFIGS[$MODEL]}`): a difference of the
        branches (paths.py), and one what reads the word depends on."""
        self.paths.differs(*decision(key, texts, where), where)
        self.taint["\0" + key] = frozenset((key,))
        for collector in self.reads:
            collector.add("\0" + key)

    def _function_output(self, node, text, env: Env, depth: int) -> Word | None:
        """Hook: what ``$(...)`` (``node``) prints when it calls a function of
        the script (shell_walk); None: output we cannot see."""
        return None

    # -- the script's directory (issue 19) ----------------------------------------
    def directory_symbol(self, directory: str) -> Value:
        """The value standing for the absolute ``directory``: a symbol (bash knows
        the path only where the script runs), which :meth:`directory_path` reads."""
        shown = os.path.relpath(directory) if not os.path.isabs(self.result.path) else directory
        name = f"<directory {shown}>"
        self.directories[name] = directory
        return Value.symbol(name)

    def directory_path(self, word: Word) -> str | None:
        """The absolute path ``word`` names: a directory symbol followed by known
        text (``$SCRIPT_DIR/../common.sh``, ``..`` followed), or an absolute
        known path; None for anything else."""
        # (the empty piece that opens a quoted word holds nothing)
        word = tuple(seg for seg in word if not (seg.value.is_known and seg.value.text == ""))
        if not word:
            return None
        first = word[0].value
        rest = word_value(word[1:]) if len(word) > 1 else Value.known("")
        if not rest.is_known:
            return None
        if first.kind is Kind.SYMBOL and first.name in self.directories and first.default is None:
            if rest.text and not rest.text.startswith("/"):
                return None  # `$DIR-x`: not inside the directory
            return os.path.normpath(self.directories[first.name] + rest.text)
        whole = word_value(word)
        if whole.is_known and whole.text.startswith("/"):
            return os.path.normpath(whole.text)
        return None

    def _directory_idiom(self, node, text, env: Env, depth: int) -> str | None:
        """The directory a command substitution prints when it is one of the
        idioms for a script's directory: ``$(dirname FILE)`` (or ``$(dirname
        DIR)``, its parent), ``$(cd DIR && pwd)``
        (``pwd -P``; ``cd -P``; more ``cd`` before the ``pwd``, ``cd DIR && cd ..
        && pwd``), ``$(realpath DIR)``, ``$(readlink -f DIR)``, where FILE is
        ``$0`` or ``${BASH_SOURCE[0]}`` (maybe through realpath/readlink) and DIR
        a word naming a directory (:meth:`directory_path`). Read from the
        syntax, never run; None for any other command."""
        statements = [child for child in node.named_children if child.type != "comment"]
        if len(statements) == 1 and statements[0].type == "list":
            statements = _and_chain(statements[0]) or statements
        if len(statements) >= 2:
            commands = [self._plain_command(statement, text) for statement in statements]
            pwd = commands[-1]
            if pwd is None or pwd[0] != "pwd" or [a for a in pwd[2] if a not in ("-P", "-L")]:
                return None
            directory: str | None = None
            for command in commands[:-1]:
                if command is None or command[0] != "cd":
                    return None
                arguments = [a for a in command[1] if node_text(a, text) not in ("-P", "-L")]
                if len(arguments) != 1:
                    return None
                directory = self._next_directory(directory, arguments[0], text, env, depth)
                if directory is None:
                    return None
            return directory
        if len(statements) != 1:
            return None
        command = self._plain_command(statements[0], text)
        if command is None:
            return None
        name, arguments, texts = command
        if name == "dirname" and texts[:1] == ["--"]:
            arguments = arguments[1:]
        if name == "dirname" and len(arguments) == 1:
            # (of the script's file, or of a directory already told: the
            # repository above `$(dirname "$SCRIPT_DIR")`)
            path = self._file_word(arguments[0], text, env, depth) or self._directory_word(arguments[0], text, env, depth)
            return os.path.dirname(path) if path is not None else None
        if name in _REAL_PATH:
            operands = [a for a in arguments if not node_text(a, text).startswith("-")]
            options = {node_text(a, text) for a in arguments if node_text(a, text).startswith("-")}
            if len(operands) != 1 or not (options or {""}) <= _REAL_PATH[name] or (name == "readlink" and not options):
                return None
            return self._file_word(operands[0], text, env, depth) or self._directory_word(operands[0], text, env, depth)
        return None

    def _stand_ins(self, raw: str, loc: Location, env: Env) -> list[Seg]:
        """A single-quoted string of a nested script holding stand-ins: the
        outer shell put its values' text there (`bash -c "cd '$REPO_DIR'"`),
        which stays as it is inside the quotes; the stand-in's text read as
        literal made `cd '${__sglang_lint_1}'` a directory of that name."""
        segs: list[Seg] = []
        last = 0
        for match in STAND_IN.finditer(raw):
            found, var = env.lookup(match.group(1))
            if not found or var is None or not var.scalar:
                continue
            if match.start() > last:
                segs.append(Seg(Value.known(raw[last : match.start()]), loc, quoted=True))
            segs.extend(restated(seg, seg.loc, False, True, origin=seg.origin) for seg in var.scalar)
            last = match.end()
        if last < len(raw) or not segs:
            segs.append(Seg(Value.known(raw[last:]), loc, quoted=True))
        return segs

    def _next_directory(self, current: str | None, node, text, env: Env, depth: int) -> str | None:
        """Where ``cd WORD`` leads from ``current`` (None: the first ``cd``,
        which must name a directory :meth:`directory_path` knows): a directory
        it names, or known text relative to ``current`` (``..``)."""
        named = self._directory_word(node, text, env, depth)
        if named is not None or current is None:
            return named
        value = word_value(tuple(self._eval_parts(node, text, env, True, depth + 1, True)))
        if not value.is_known or not value.text or value.text.startswith("-"):
            return None
        return os.path.normpath(os.path.join(current, value.text))

    def _plain_command(self, node, text) -> tuple[str, list, list[str]] | None:
        """A simple command's name, argument nodes and argument texts, when it
        has no redirection or assignment."""
        if node.type != "command" or any(child.type in ("variable_assignment", "file_redirect") for child in node.children):
            return None
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return None
        arguments = [child for index, child in enumerate(node.children) if node.field_name_for_child(index) == "argument"]
        return node_text(name_node, text), arguments, [node_text(a, text) for a in arguments]

    def _file_word(self, node, text, env: Env, depth: int) -> str | None:
        """The absolute path of the script file a word names: ``$0`` (the script
        bash runs), ``${BASH_SOURCE[0]}`` (the file being read), quoted or not,
        or their real path."""
        if node.type == "string" and len(node.named_children) == 1 and node_text(node, text) == f'"{node_text(node.named_children[0], text)}"':
            node = node.named_children[0]
        written = node_text(node, text)
        if written in _SCRIPT_FILE:
            return os.path.abspath(self.result.path)
        if written in _CURRENT_FILE:
            return os.path.abspath(self.path)
        if node.type == "command_substitution":
            statements = [child for child in node.named_children if child.type != "comment"]
            command = self._plain_command(statements[0], text) if len(statements) == 1 else None
            if command is not None and command[0] in _REAL_PATH:
                operands = [a for a in command[1] if not node_text(a, text).startswith("-")]
                options = {t for t in command[2] if t.startswith("-")}
                if len(operands) == 1 and (options or {""}) <= _REAL_PATH[command[0]] and (command[0] != "readlink" or options):
                    return self._file_word(operands[0], text, env, depth)
        return None

    def _directory_word(self, node, text, env: Env, depth: int) -> str | None:
        return self.directory_path(tuple(self._eval_parts(node, text, env, True, depth + 1, True)))

    def _heredoc_word(self, redirect, text, env: Env, depth: int) -> Word | None:
        """The text a here-document feeds its command, as one word whose pieces
        keep their positions. With a quoted delimiter (``<<'EOF'``, ``<<"EOF"``,
        ``<<\\EOF``) the text is literal; otherwise parameter expansion, command
        substitution and arithmetic expansion are done and a backslash escapes
        only ``$``, a backquote, ``\\`` and a newline (bash(1), "Here Documents").
        ``<<-`` strips the tabs that start each line."""
        body = next((child for child in redirect.named_children if child.type == "heredoc_body"), None)
        start = next((child for child in redirect.children if child.type == "heredoc_start"), None)
        if body is None or start is None:
            return None
        quoted = any(mark in node_text(start, text) for mark in ("'", '"', "\\"))
        strip_tabs = redirect.children[0].type == "<<-"
        loc = self._loc(body, text)
        segs: list[Seg] = [Seg(Value.known(""), loc, quoted=True)]

        def literal(begin: int, end: int) -> None:
            if end <= begin:
                return
            raw = text.data[begin:end].decode("utf-8", "surrogatepass")
            kept = list(range(len(raw)))
            if strip_tabs:
                at_line_start = begin == 0 or text.data[begin - 1 : begin] == b"\n"
                kept = []
                for index, char in enumerate(raw):
                    if at_line_start and char == "\t":
                        continue
                    at_line_start = char == "\n"
                    kept.append(index)
            stripped = "".join(raw[index] for index in kept)
            if not quoted:
                stripped, unescaped = _unescape(stripped, _HEREDOC_ESCAPES)
                kept = [kept[index] for index in unescaped]
            if stripped:
                segs.append(Seg(Value.known(stripped), loc, quoted=True, chars=self._kept_chars(begin, raw, kept, text)))

        previous_end = body.start_byte
        if not quoted:
            for child in body.named_children:
                if child.type not in ("simple_expansion", "expansion", "command_substitution", "arithmetic_expansion"):
                    continue
                literal(previous_end, child.start_byte)
                segs.extend(restated(s, s.loc, False, True, s.chars, s.origin) for s in self._eval_parts(child, text, env, True, depth + 1, True))
                previous_end = child.end_byte
        literal(previous_end, body.end_byte)
        return tuple(segs)

    def _kept_chars(self, start_byte: int, raw: str, kept: list[int], text) -> tuple[tuple[int, int], ...]:
        positions = self._chars_from(start_byte, raw, text)
        return tuple(positions[index] for index in kept)

    def _char_positions(self, node, text, raw: str) -> tuple[tuple[int, int], ...] | None:
        return self._chars_from(node.start_byte, raw, text)

    def _chars_from(self, start_byte: int, raw: str, text) -> tuple[tuple[int, int], ...]:
        if text is self.file_text:  # see _loc
            cache = self._chars_cache
        elif isinstance(text, SourcedText):
            cache = text.chars
        else:
            return self._compute_chars(start_byte, raw, text)
        key = (start_byte, len(raw))
        cached = cache.get(key)
        if cached is None:
            cached = cache[key] = self._compute_chars(start_byte, raw, text)
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
            read = POSITIONAL if is_ascii_digits(name) or name in ("@", "*", "#") else name
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
        if not is_identifier(name):
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
        name = node_text(named[0], text)
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
            return [Seg(Value.unknown(f"{node_text(node, text)}"), loc, split=not quoted)]
        if target.type == "subscript":
            base = target.child_by_field_name("name")
            index = target.child_by_field_name("index")
            name = node_text(base, text) if base is not None else ""
            index_text = node_text(index, text) if index is not None else ""
            found, var = self._lookup(env, name)
            if len(children) > 3:
                # An operator (`${A[5]:-x}`, `${A[@]:1}`): not the element itself,
                # which is what this branch used to return.
                return [Seg(Value.unknown(f"{node_text(node, text)[:40]} is not evaluated"), loc, split=not quoted)]
            if index_text in ("@", "*"):
                if found and var is not None and var.is_array and var.array is not None:
                    segs = []
                    for i, word in enumerate(var.array):
                        if i:
                            segs.append(Seg(Value.known(" "), loc, split=not quoted))
                        segs.extend(self._relocate(word, loc, var.defined_at, split=not quoted))
                    return segs
                return [Seg(Value.unknown(f"${{{name}[@]}}"), loc, split=not quoted)]
            if found and var is not None and var.table is not None and index is not None:
                return self._table_value(name, var, index, text, env, quoted, loc, depth)
            if found and var is not None and var.is_array and var.array is not None and is_ascii_digits(index_text):
                position = int(index_text)
                if position < len(var.array):
                    return list(self._relocate(var.array[position], loc, var.defined_at, split=not quoted))
                return [Seg(Value.known(""), loc, split=not quoted)]
            return [Seg(Value.unknown(node_text(node, text)), loc, split=not quoted)]
        name = node_text(target, text)
        if operator is None and len(named) == 1:
            segs = self._expand_variable(name, env, quoted, loc)
            if segs is None:
                return [Seg(Value.symbol("$" + name), loc, split=not quoted)]
            return segs
        op = node_text(operator, text) if operator is not None else ""
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
                    operand_value = word_value(tuple(self._eval_operand(operand_nodes, text, env, depth)))
                    default = operand_value.text if operand_value.is_known else None
                    return [Seg(Value.symbol(f"${name}{owner}", default), loc, split=not quoted)]
            if segs is not None and (op in ("-", "=") or word_value(tuple(segs)) != Value.known("")):
                held = word_value(tuple(segs))
                if op in (":-", ":=") and held.kind is Kind.SYMBOL and not held.default:
                    # X holds what the environment gives, empty when it is
                    # unset (`_E="${KV:-}"`): `${X:-fp8_e4m3}` is fp8_e4m3
                    # then (the default was dropped, and the empty one told
                    # argparse an invalid choice '').
                    operand_value = word_value(tuple(self._eval_operand(operand_nodes, text, env, depth)))
                    if operand_value.is_known and operand_value.text:
                        defaulted = Value.symbol(held.name, operand_value.text)
                        if op == ":=":
                            env.assign(name, Var(scalar=(Seg(defaulted, loc),), defined_at=loc))
                        return [Seg(defaulted, loc, split=not quoted)]
                return segs
            operand = self._eval_operand(operand_nodes, text, env, depth)
            operand_value = word_value(tuple(operand))
            if segs is not None:
                # Set but possibly empty (":-" on an empty variable gives the default).
                return [Seg(operand_value, loc, split=not quoted)] if operand else [Seg(Value.known(""), loc)]
            if operand_value.kind is Kind.SYMBOL and operand_value.name in self.directories:
                # `BASE_DIR=${BASE_DIR:-$(cd "$(dirname "$0")" && pwd)}`: a
                # `source` under it reads the file beside the script, as the
                # script run without BASE_DIR set does.
                if op in (":=", "="):
                    env.assign(name, Var(scalar=(Seg(operand_value, loc),), defined_at=loc))
                return [Seg(operand_value, loc, split=not quoted)]
            default = None
            if operand_value.is_known:
                default = operand_value.text
            if op in (":=", "="):
                env.assign(name, Var(scalar=(Seg(Value.symbol("$" + name, default), loc),), defined_at=loc))
            return [Seg(Value.symbol("$" + name, default), loc, split=not quoted)]
        if op in (":+", "+"):
            segs = self._expand_variable(name, env, quoted, loc)
            symbol = f"${name}" if segs is None else path_subject(word_value(tuple(segs)))
            if symbol is not None and op == ":+" and not (is_ascii_digits(name) and segs is None):
                # `${DPA:+--enable-dp-attention}` of a variable the file does not
                # set: a decision of the path, as `[ -n "$DPA" ]` (paths.py).
                key = f"nonempty\0{symbol}"
                taken = self._implied(key)
                if taken is None:
                    where = loc if loc.path else self._loc(node, text)
                    self._word_decision(key, (f"{symbol} is non-empty", f"{symbol} is empty"), where)
                elif taken:
                    return self._alternate_word(operand_nodes, text, env, depth, quoted, loc)
                else:
                    return [Seg(Value.known(""), loc, split=not quoted)]
            if segs is None:
                return [Seg(Value.unknown(f"${{{name}{op}...}} of a variable not set in this file"), loc, split=not quoted)]
            value = word_value(tuple(segs))
            if op == "+" or (value.is_known and value.text != ""):
                return self._alternate_word(operand_nodes, text, env, depth, quoted, loc)
            if value.is_known:
                return [Seg(Value.known(""), loc)]
            return [Seg(Value.unknown(f"${{{name}{op}...}}"), loc, split=not quoted)]
        return [Seg(Value.unknown(f"{node_text(node, text)[:40]} is not evaluated"), loc, split=not quoted)]

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
        except NotConstant as reason:
            return Value.unknown(f"$(( {node_text(node, text)} )) is not constant: {reason}")
        return Value.one_of(Value.known(str(c)) for c in candidates)

    def _arith(self, node, text, env: Env, depth: int) -> set[int]:
        # ``depth`` counts on from the word's (it used to restart at 0 in each
        # nested $((...)) inside ${...}, an unbounded recursion).
        if depth > MAX_TREE_DEPTH:
            raise NotConstant("too deep")
        kind = node.type
        if kind == "number":
            raw = node_text(node, text)
            try:
                return {int(raw, 0)}
            except ValueError as error:
                raise NotConstant(raw) from error
        if kind in ("variable_name", "word", "simple_expansion", "expansion"):
            if kind in ("variable_name", "word"):
                name = node_text(node, text)
                if is_ascii_digits(name):
                    return {int(name)}
                segs = self._expand_variable(name, env, True, NOWHERE) if is_identifier(name) else None
            else:
                segs = self._eval_parts(node, text, env, True, depth + 1, True)
            if segs is None:
                raise NotConstant(f"${node_text(node, text)} is not set in this file")
            value = word_value(tuple(segs))
            # In a condition only what the file sets counts (not a `${N:-1}` default).
            candidates = strict_texts(value) if self.strict_arith else value.candidates()
            if candidates is None:
                raise NotConstant(value.describe())
            result = set()
            for candidate in candidates:
                try:
                    result.add(int(candidate.strip() or "0", 0))
                except ValueError as error:
                    raise NotConstant(candidate) from error
            return result
        if kind == "parenthesized_expression":
            inner = node.named_children
            if len(inner) != 1:
                raise NotConstant("expression")
            return self._arith(inner[0], text, env, depth + 1)
        if kind == "binary_expression":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            operator = node.child_by_field_name("operator")
            if left is None or right is None or operator is None:
                raise NotConstant("expression")
            op = operator.type if operator.type != ">>" else node_text(operator, text)  # (shell_syntax._shift_right)
            lhs = self._arith(left, text, env, depth + 1)
            rhs = self._arith(right, text, env, depth + 1)
            if len(lhs) * len(rhs) > 64:
                raise NotConstant("too many alternatives")
            result = set()
            for a in lhs:
                for b in rhs:
                    result.add(_arith_op(op, a, b))
            return result
        if kind == "unary_expression":
            operand = node.named_children[0] if node.named_children else None
            op = node.children[0].type if node.children else ""
            if operand is None or op not in ("-", "+"):
                raise NotConstant("expression")
            values = self._arith(operand, text, env, depth + 1)
            return {-v if op == "-" else v for v in values}
        raise NotConstant(kind)


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
    if node_text(inner.named_children[0], text) != node_text(named[0], text) or not node_text(named[0], text).endswith("[@]"):
        return None
    return operand


class NotConstant(Exception):
    pass


def _arith_op(op: str, a: int, b: int) -> int:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op in ("/", "%"):
        if b == 0:
            raise NotConstant("division by zero")
        quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)  # bash truncates
        return quotient if op == "/" else a - b * quotient
    if op == "**":
        if b < 0 or b > 64:
            raise NotConstant("exponent")
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
    raise NotConstant(op)


_DOUBLE_QUOTE_ESCAPES = '$`"\\\n'
_HEREDOC_ESCAPES = "$`\\\n"


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
