"""The argparse pass over a launch's classified words (:mod:`~sglang_lint.catalog.argv_words`):
each option takes the values its ``nargs`` allows and its action stores a
:class:`~sglang_lint.catalog.settings.Setting`; what argparse would exit on becomes an
:class:`~sglang_lint.catalog.settings.ArgProblem`.

This mirrors CPython 3.11's ``argparse.py`` (the same in 3.10 and 3.12.1 for
everything used here; sglang's wheels are built for 3.11):

- an option takes the run of argument words after it that its ``nargs`` allows
  (``consume_optional``); option words are never taken as values;
- argument words no option takes are "unrecognized arguments" (SGLang's parser has
  no positionals);
- an ambiguous or unknown option takes the words the options it may mean would
  take, and what those would have set becomes unknown (``_consume_unparsed``):
  one mistake, one finding, here and in the rules that compare settings; a value
  argparse refuses is no setting either (``_store``).

A word that may be a value (``$TP``, ``${TP:-8}``) is taken as the value of an
option that wants one, keeping the Value as it is (symbol, default, ...). The words
left over that we cannot see are recorded as opaque (``_Parse.opaque``): what they
do to the settings is decided in :mod:`~sglang_lint.catalog.argv`.
"""

from __future__ import annotations

import functools

from msgspec import Struct

from sglang_lint.catalog.argv_words import ArgparseView, Role, _Classified, _OptionWord, _Word, close_match
from sglang_lint.catalog.option_values import (
    DEFAULT_NONE_REASON,
    default_value,
    is_default_none,
    literal_text,
    normalized_value,
    rejected_value,
    takes_no_value,
    value_problem,
)
from sglang_lint.catalog.settings import ArgProblem, Setting
from sglang_lint.catalog.tables import Option, OptionTable, known_versions, load_table
from sglang_lint.model import Location, Value, is_ascii_digits

# =================================================================================
# Value words


def _joined(values: list[Value]) -> Value:
    """Several value words (nargs) as one Value: the words joined by spaces."""
    if not values:
        return Value.known("")
    pieces: list[Value] = []
    for index, value in enumerate(values):
        if index:
            pieces.append(Value.known(" "))
        pieces.append(value)
    return Value.concat(pieces)


def _span(first: Location, last: Location) -> Location:
    if last.path != first.path or (last.line, last.column) < (first.line, first.column):
        return first
    return Location(first.path, first.line, first.column, last.end_line, last.end_column)


# =================================================================================
# The options an ambiguous or unknown option word may have meant

_DISAGREE = object()


def _nargs_of(option: Option) -> object:
    """How many words an option takes, as ``consume_optional`` counts them: 0 for
    the actions that take none, else its ``nargs``."""
    return 0 if takes_no_value(option) else option.nargs


def _agreed_nargs(candidates: list[Option]) -> object:
    """The ``nargs`` every candidate shares, or ``_DISAGREE``."""
    counts = {repr(_nargs_of(option)) for option in candidates}
    return _nargs_of(candidates[0]) if len(counts) == 1 else _DISAGREE


def _count_text(nargs: object) -> str:
    """``nargs`` in words, for a nargs that leaves words over (not ``*``/``+``)."""
    if nargs is None:
        return "one value"
    if nargs == "?":
        return "at most one value"
    return f"{nargs} values"


def _taken_count(nargs: object, available: int) -> int:
    """How many of ``available`` argument words an option with ``nargs`` takes
    (``_match_argument``'s pattern: ``None``/``?`` one at most, an int that many,
    ``*``/``+`` all of them)."""
    if nargs is None or nargs == "?":
        return min(1, available)
    if isinstance(nargs, int):
        return min(nargs, available)
    return available


def _meant_options(table: OptionTable, written: str) -> list[Option]:
    """The options an unknown long option word may have meant: the option of
    that very name in the releases that have it, else the option of this
    release a typo most likely names."""
    if not written.startswith("--"):
        return []
    elsewhere = _options_named(written)
    if elsewhere:
        return list(elsewhere)
    key = (id(table), written)
    known = _TYPOS.get(key)
    if known is None or known[0] is not table:
        if len(_TYPOS) > 10_000:
            _TYPOS.clear()
        known = _TYPOS[key] = (table, close_match(written, table.long_names))
    meant = known[1]
    return [table.by_name[meant]] if meant is not None else []


# (id(table), word) -> (table, the close match): difflib over every long name
# is the slow part of an unknown option; launches repeat their words. The table
# is kept to make the id safe to reuse.
_TYPOS: dict[tuple[int, str], tuple[OptionTable, str | None]] = {}


@functools.lru_cache(maxsize=1024)
def _options_named(name: str) -> tuple[Option, ...]:
    """The option named ``name`` in each release that has one."""
    found = (load_table(version).by_name.get(name) for version in known_versions())
    return tuple(option for option in found if option is not None)


# =================================================================================
# The argparse pass


# Characters a script glues before an option by mistake: an unbalanced
# brace or bracket of `"{$ARGS} ..."`, a quote of a broken quoting.
_STRAY_BEFORE_OPTION = "{([\"'`,"


class _Assignment(Struct):
    """A setting made by a word, with the index of that word in argv order."""

    index: int
    setting: Setting


class _Parse(Struct):
    table: OptionTable
    words: list[_Word]
    roles: list[_Classified]
    problems: list[ArgProblem]
    assignments: dict[str, _Assignment] = {}
    opaque: list[int] = []
    # argparse's reading of an option word (catalog.argv_words), for a word
    # with a stray character before an option
    view: ArgparseView | None = None

    # -- the main loop ------------------------------------------------------------
    def run(self) -> None:
        """Parse every word, then keep only what argparse would report.

        argparse exits at the first error it meets, and it meets an ambiguous
        option first of all: ``_parse_known_args`` classifies every word
        (``_parse_optional``, which raises "ambiguous option") before it consumes
        any (values are converted in ``consume_optional``; "unrecognized
        arguments" come last, from ``parse_args``). Nothing after an ambiguous
        option is reported: what its words would have meant is a guess (which
        match, how many values), and reporting them would cascade (issue 23:
        ``--cuda-graph-bs 8 16`` is one ambiguous option, not also an
        unrecognized ``16``). Problems before it are kept: they are real, and
        argparse shows them once the option is spelled out."""
        start = len(self.problems)
        self._run()
        for position in range(start, len(self.problems)):
            if self.problems[position].kind == "ambiguous":
                del self.problems[position + 1 :]
                break

    def _run(self) -> None:
        index = 0
        previous_unseen = False  # the last word left over was one we cannot see
        stray_hint: str | None = None  # why a word after the last option is not its value
        while index < len(self.words):
            role = self.roles[index]
            if role.role == Role.OPTION:
                index, stray_hint = self._consume_option(index)
                previous_unseen = False
                continue
            if role.role == Role.ARGUMENT:
                if not previous_unseen:  # after an unseen word it may be that word's value
                    glued = self._glued_option(index)
                    if glued is not None:
                        index, stray_hint = glued
                        continue
                    self._unrecognized(index, stray_hint)
                index += 1
                continue
            if role.role == Role.DOUBLE_DASH:
                self._after_double_dash(index)
                return
            # MAYBE_ARGUMENT, OPAQUE, SPREAD left over: we cannot tell what they do.
            self.opaque.append(index)
            previous_unseen = True
            stray_hint = None
            index += 1

    def _after_double_dash(self, index: int) -> None:
        """Every word from "--" on is an argument, and SGLang takes none: "--"
        itself and each later word are unrecognized. Unseen words there cannot set
        options, so they are not opaque."""
        for position in range(index, len(self.words)):
            if not self.words[position].token.spread:  # a spread may be no word at all
                self._unrecognized(position, None)

    def _glued_option(self, index: int) -> tuple[int, str | None] | None:
        """An argument word that is an option with a stray character glued
        before it (``{--host`` of ``"{$ARGS} ..."``, ``"--tp``): argparse sees
        an argument, unrecognized, and then the option's values as more
        unrecognized arguments. One mistake, one finding (issue 18): the word
        is reported with the option it is meant to be, and takes that option's
        values as a misspelled option does."""
        word = self.words[index]
        if not word.value.is_known:
            return None
        text = word.value.describe()
        stripped = text.lstrip(_STRAY_BEFORE_OPTION)
        if stripped == text or not stripped.startswith("-"):
            return None
        meant = self.view.parse_optional(stripped) if self.view is not None else None
        if meant is None or meant.option is None:
            return None
        stray = text[: len(text) - len(stripped)]
        self.problems.append(
            ArgProblem("unknown", f"unrecognized argument: {text!r} (a stray {stray!r} before {meant.written})", word.location, option="")
        )
        parsed = _OptionWord(None, stripped, stray + meant.written, meant.explicit)
        return self._consume_unparsed(index, word, parsed, [meant.option], "unknown")

    def _unrecognized(self, index: int, stray_hint: str | None) -> None:
        word = self.words[index]
        text = word.value.describe()
        hint = stray_hint or ""
        if word.config_key is not None:
            hint = f" (from config key {word.config_key!r})"
        self.problems.append(
            ArgProblem("unknown", f"unrecognized argument: {text!r}{hint}", word.location, option="", word=text)
        )

    # -- options ------------------------------------------------------------------
    def _value_words(self, start: int) -> tuple[list[int], str | None]:
        """The run of words after an option that can be its values, and what ends
        the run: None (end of argv or an option word, "--") or the describe() of an
        unseen word that might hold more values."""
        taken: list[int] = []
        position = start
        while position < len(self.words):
            role = self.roles[position].role
            if role in (Role.ARGUMENT, Role.MAYBE_ARGUMENT):
                taken.append(position)
                position += 1
                continue
            if role in (Role.SPREAD, Role.OPAQUE):
                return taken, self.words[position].value.describe()
            break
        return taken, None

    def _consume_option(self, index: int) -> tuple[int, str | None]:
        """``consume_optional``: returns the next index and, when a word right
        after the option cannot be its value, why (the hint on that stray word:
        the option takes no value, or the option it may mean takes no more)."""
        word = self.words[index]
        parsed = self.roles[index].option_word
        assert parsed is not None
        spelling = self._spelling(word, parsed)
        if parsed.ambiguous:
            self.problems.append(
                ArgProblem(
                    "ambiguous",
                    f"ambiguous option: {parsed.written} could match {', '.join(parsed.ambiguous)}",
                    word.location,
                    option=parsed.written,
                    candidates=parsed.ambiguous,
                )
            )
            candidates = [o for o in (self._argparse_option(name) for name in parsed.ambiguous) if o is not None]
            return self._consume_unparsed(index, word, parsed, candidates, "ambiguous")
        if parsed.option is None:
            config_hint = ""
            if word.config_key is not None and "_" in word.config_key:
                config_hint = f" (config keys are used verbatim as --KEY: write {word.config_key.replace('_', '-')})"
            elif word.config_key is not None:
                config_hint = f" (from config key {word.config_key!r})"
            self.problems.append(
                ArgProblem("unknown", f"unrecognized option: {parsed.written}{config_hint}", word.location, option=parsed.written)
            )
            candidates = _meant_options(self.table, parsed.written)
            return self._consume_unparsed(index, word, parsed, candidates, "unknown")
        option = parsed.option
        if option.action == "help" and parsed.explicit is None:
            return index + 1, None  # prints the help and exits: no server, nothing to check
        if parsed.explicit is not None:
            return self._consume_explicit(index, word, parsed, spelling), None
        return self._consume_following(index, word, option, parsed.option_string, spelling)

    def _argparse_option(self, name: str) -> Option | None:
        return self.table.by_name.get(name)

    def _consume_unparsed(
        self, index: int, word: _Word, parsed: _OptionWord, candidates: list[Option], kind: str
    ) -> tuple[int, str | None]:
        """The words an ambiguous or unknown option takes: as many as its
        candidates' ``nargs`` would (one mistake, one finding: issue 18).

        argparse itself never consumes values for these words: an ambiguous
        prefix exits in ``_parse_optional`` (CPython 3.11 argparse.py, "ambiguous
        option: %(option)s could match %(matches)s"), and an unknown option goes
        to the extras with every argument word after it (``_parse_known_args``:
        ``consume_optional`` appends the option to ``extras`` when ``action is
        None``, the loop then adds the argument words up to the next option), all
        in one "unrecognized arguments: ..." error from ``parse_args``. Which of
        those words were meant as its values, and which are mistakes of their
        own, depends on the option the user meant: when every candidate (the
        matches of an ambiguous prefix; the option a typo most likely names, or
        the option of that name in other releases) takes the same number of
        values, it takes that many and a word past them is reported as what it
        is (``--tp-szie 8 16``: "16" is still refused once the typo is fixed).
        When the candidates disagree, or there are none, it takes every argument
        word up to the next option: none of them is reported.

        The candidates' settings become unknown: what the option would have set
        is a guess, and a rule comparing it (a page size on one side only, a
        pipeline size 1 against 2) would report the same mistake again."""
        unset = Value.unknown(f"may be meant by the {kind} option {parsed.written} at {word.location.short()}")
        for option in candidates:
            own = self.table.by_dest.get(option.dest)
            if own is not None:
                self._assign(index, own, Setting(own.dest, unset, word.location, parsed.written, written=parsed.explicit))
        available, _ = self._value_words(index + 1)
        if not candidates:
            return index + 1 + len(available), None
        meant = candidates[0].names[0] if len({o.names[0] for o in candidates}) == 1 else "each option it may mean"
        # (For these words option_string is the whole word, "=VALUE" included.)
        if parsed.explicit is not None or "=" in parsed.option_string:
            # "--name=VALUE" takes exactly its explicit value, whatever the option.
            return index + 1, f" (after {parsed.written}=..., which takes no further word)"
        agreed = _agreed_nargs(candidates)
        if agreed is _DISAGREE:
            return index + 1 + len(available), None
        # Not "... takes no value)": that marks a value given to a flag written right (SGL203).
        what = "is a flag" if agreed == 0 else f"takes {_count_text(agreed)}"
        hint = f" (after {parsed.written}: {meant} {what})"
        return index + 1 + _taken_count(agreed, len(available)), hint

    def _consume_explicit(self, index: int, word: _Word, parsed: _OptionWord, spelling: str) -> int:
        """``consume_optional`` for ``--name=VALUE`` and ``-xVALUE``.

        A value-less short option chains (``-ab`` is ``-a -b``); anything else takes
        exactly the explicit value. argparse applies the actions only when the whole
        word is valid, so on an error nothing is set."""
        option: Option | None = parsed.option
        option_string = parsed.option_string
        explicit: Value | None = parsed.explicit
        pending: list[tuple[Option, str, str, list[tuple[Value, _Word]]]] = []
        while option is not None:
            if explicit is None:
                # The last of chained short options: it takes the following words.
                for flag, flag_string, flag_spelling, _ in pending:
                    if flag.action != "help":
                        self._store(index, word, flag, flag_string, flag_spelling, [], word.location)
                next_index, _ = self._consume_following(index, word, option, option_string, option_string)
                return next_index
            if takes_no_value(option):
                chains = option_string[1] != "-" and not (explicit.is_known and explicit.text == "")
                if chains and explicit.is_known:
                    pending.append((option, option_string, option_string, []))
                    option_string = "-" + explicit.text[0]
                    rest = explicit.text[1:]
                    if option_string in self.table.by_name:
                        option = self.table.by_name[option_string]
                        explicit = Value.known(rest) if rest else None
                        continue
                    self._ignored_explicit(word, option_string, explicit.describe())
                    return index + 1
                if chains:
                    return index + 1  # "-x$Y": we cannot tell which short options follow
                self._ignored_explicit(word, option_string, explicit.describe(), takes_none=spelling)
                return index + 1
            if isinstance(option.nargs, int) and option.nargs > 1:
                self.problems.append(
                    ArgProblem(
                        "invalid-value",
                        f"argument {option_string}: expected {option.nargs} arguments",
                        word.location,
                        option=spelling,
                    )
                )
                return index + 1
            pending.append((option, option_string, spelling if not pending else option_string, [(explicit, word)]))
            break
        for each_option, each_string, each_spelling, values in pending:
            if each_option.action != "help":
                self._store(index, word, each_option, each_string, each_spelling, values, word.location)
        return index + 1

    def _ignored_explicit(self, word: _Word, option_string: str, explicit_text: str, takes_none: str = "") -> None:
        hint = f" ({takes_none} takes no value)" if takes_none else ""
        self.problems.append(
            ArgProblem(
                "invalid-value",
                f"argument {option_string}: ignored explicit argument {explicit_text!r}{hint}",
                word.location,
                option=takes_none or option_string,
            )
        )

    def _consume_following(
        self, index: int, word: _Word, option: Option, option_string: str, spelling: str
    ) -> tuple[int, str | None]:
        """``consume_optional`` without an explicit value: the option takes the run
        of argument words after it that its nargs allows."""
        if option.action == "help":
            return index + 1, None
        if takes_no_value(option):
            self._store(index, word, option, option_string, spelling, [], word.location)
            return index + 1, f" ({spelling} takes no value)"  # rules/argv_problems.is_stray_flag_value
        available, unseen_after = self._value_words(index + 1)
        nargs = option.nargs
        wanted = _taken_count(nargs, len(available))
        needed = 1 if nargs in (None, "+") else (nargs if isinstance(nargs, int) else 0)
        taken = available[:wanted]
        # Were the values cut short by a word we cannot see, which may hold more?
        cut_by_unseen = unseen_after is not None and len(taken) == len(available)
        if len(taken) < needed:
            if cut_by_unseen:
                # "--tp-size $@": the value is in a word we cannot see; no error.
                value = Value.unknown(f"value in {unseen_after}")
                self._assign(index, option, Setting(option.dest, value, word.location, spelling, word.token.origin))
                return index + 1 + len(taken), None
            expected = {None: "expected one argument", "+": "expected at least one argument"}.get(
                nargs, f"expected {nargs} argument{'s' if nargs != 1 else ''}"  # type: ignore[arg-type]
            )
            self.problems.append(
                ArgProblem("invalid-value", f"argument {option_string}: {expected}", word.location, option=spelling)
            )
            return index + 1 + len(taken), None
        values = [(self.words[p].value, self.words[p]) for p in taken]
        last_location = self.words[taken[-1]].location if taken else word.location
        open_ended = cut_by_unseen and (nargs in ("*", "+") or (nargs == "?" and not taken))
        self._store(
            index,
            word,
            option,
            option_string,
            spelling,
            values,
            _span(word.location, last_location),
            unseen_after if open_ended else None,
        )
        return index + 1 + len(taken), None

    # -- actions ------------------------------------------------------------------
    def _store(
        self,
        index: int,
        word: _Word,
        option: Option,
        option_string: str,
        spelling: str,
        values: list[tuple[Value, _Word]],
        location: Location,
        more_values_from: str | None = None,
    ) -> None:
        """Check the value words (``_get_values``) and apply the action."""
        # _get_values first drops one "--" from the strings (only "--x=--" gets here).
        for position, (value, _) in enumerate(values):
            if value.is_known and value.text == "--":
                values = values[:position] + values[position + 1 :]
                break
        checked: list[Value] = []
        refused: ArgProblem | None = None
        for value, value_word in values:
            problem = value_problem(option, spelling, value, value_word.location)
            if problem is not None:
                self.problems.append(problem)
                if refused is None and rejected_value(option, self.table.version, problem):
                    refused = problem
            checked.append(normalized_value(option, value))
        origin = next((w.token.origin for _, w in values if w.token.origin is not None), None)
        action = option.action
        if action in ("store_true",):
            result = Value.known("true")
        elif action == "store_false":
            result = Value.known("false")
        elif action == "boolean_optional":
            result = Value.known("false" if option_string.startswith("--no-") else "true")
        elif action == "store_const" and (option.const is not None or not values):
            # (With a value word, SGLang's DeprecatedStoreConstAction still stores its constant.)
            text = literal_text(option.const)
            result = Value.known(text) if text is not None else Value.unknown(f"constant {option.const!r}")
        elif action == "count":
            result = self._counted(option)
        elif not values and option.nargs == "?":
            text = literal_text(option.const)
            result = Value.known(text) if text is not None else Value.unknown(DEFAULT_NONE_REASON)
        elif option.nargs in (None, "?") and len(checked) == 1:
            result = checked[0]
        else:
            result = _joined(checked)
        if more_values_from is not None:
            result = Value.unknown(f"more values may come from {more_values_from}")
        if refused is not None:
            # argparse exits on it: the server never runs with this value, and
            # comparing it would report the same mistake again (SGL203 has it).
            unset = Value.unknown(f"refused by argparse at {refused.location.short()}")
            self._assign(index, option, Setting(option.dest, unset, location, spelling, origin, written=result))
            return
        if action == "append":
            previous = self.assignments.get(option.dest)
            if previous is not None:
                result = _joined([previous.setting.written or previous.setting.value, result])
        setting = Setting(option.dest, result, location, spelling, origin)
        self._assign(index, option, setting)

    def _counted(self, option: Option) -> Value:
        previous = self.assignments.get(option.dest)
        before = previous.setting.value if previous is not None else default_value(option)
        if before.is_known and is_ascii_digits(before.text.lstrip("-")):
            return Value.known(str(int(before.text) + 1))
        if previous is None and is_default_none(Setting(option.dest, before)):
            return Value.known("1")
        return Value.unknown("counted from an unknown start")

    def _assign(self, index: int, option: Option, setting: Setting) -> None:
        self.assignments[option.dest] = _Assignment(index, setting)

    def _spelling(self, word: _Word, parsed: _OptionWord) -> str:
        if word.spelling is not None:
            return word.spelling
        if word.config_key is not None:
            return f"{word.config_key}:"
        return parsed.written
