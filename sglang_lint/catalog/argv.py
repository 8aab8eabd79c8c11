"""Read a server's argv exactly as SGLang's argparse would (sglang-semantics.md section 3).

``parse_server_args`` turns the :class:`~sglang_lint.model.ArgToken` words of one
launch into :class:`~sglang_lint.catalog.settings.ServerSettings`: one Setting per
option of the target version's table, with the location that set it, plus the
:class:`~sglang_lint.catalog.settings.ArgProblem` s argparse would exit on.

The argparse parts mirror CPython 3.11's ``argparse.py`` (the same in 3.10 and
3.12.1 for everything used here; sglang's wheels are built for 3.11):

- every word is classified first (``_parse_optional``): an option ('O') or an
  argument ('A'); a word after ``--`` is always an argument;
- an option word is an exact name, ``name=value`` with an exact name, or a unique
  prefix of a long name (``allow_abbrev``; ``_get_option_tuples``); a prefix with
  several matches is "ambiguous" (argparse exits) even when the matches are
  spellings of one option;
- a word that looks like a negative number is an argument unless some option looks
  like one; an unknown word with a space is an argument;
- an option takes the run of argument words after it that its ``nargs`` allows
  (``consume_optional``); option words are never taken as values;
- argument words no option takes are "unrecognized arguments" (SGLang's parser has
  no positionals).

Words we cannot see (:class:`~sglang_lint.model.Value` s that are not known) are
handled without guessing:

- a word whose option *name* is known - the whole word, a known prefix up to an
  ``=`` (``--tp=$TP``), or alternatives that all name the same option - is parsed as
  that option, with the unknown part as its value;
- a word that may be a value (``$TP``, ``${TP:-8}``) is taken as the value of an
  option that wants one, keeping the Value as it is (symbol, default, ...);
- anything else (``$FLAGS``, a spread ``"$@"``) is *opaque*: it is recorded in
  ``ServerSettings.opaque`` and every setting made before it - defaults included -
  may be overridden by it, so its value becomes UNKNOWN (``Setting.written`` keeps
  what was written). Settings made after it are final (the last occurrence wins).

Defaults: an option whose default is a literal reads as that literal (``1``,
``auto``, ``false`` for store_true). A default of ``None`` reads as
``Value.unknown(DEFAULT_NONE_REASON)``: SGLang resolves such options at startup
(``--page-size`` becomes 1 or more depending on the backend), so they must not
compare equal or different to anything; :func:`is_default_none` tells them apart
from other unknown values, and never confuses them with the string ``"None"``.
A default that is not a literal in SGLang's source is UNKNOWN with that source text.

``--config FILE`` is merged like SGLang's ``ConfigArgumentMerger``
(``srt/utils/server_args_config_parser.py``): see :func:`_merge_config`. The file's
words go before the whole command line, so the command line always wins; when the
file cannot be read (its path is not static, or ``read_config`` returns None) only
the settings still at their default may come from it, and those read UNKNOWN
("may be set by --config ...").
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import Any, Callable, Iterable


from sglang_lint.catalog.settings import LEGACY_DESTS, ArgProblem, Overlay, ServerSettings, Setting
from sglang_lint.catalog.tables import Option, OptionTable, version_key
from sglang_lint.model import ArgToken, EntryPoint, KeywordArg, Kind, Location, Value, is_ascii_digits
from sglang_lint.records import Record, replace

__all__ = [
    "DEFAULT_NONE_REASON",
    "ConfigEntry",
    "ConfigFile",
    "flag_state",
    "is_default_none",
    "load_config_yaml",
    "parse_server_args",
]

# The reason of the UNKNOWN value of an option whose default is None.
DEFAULT_NONE_REASON = "default None, resolved by SGLang at startup"

# =================================================================================
# --config files


class ConfigEntry(Record, frozen=True):
    """One top-level ``key: value`` of a ``--config`` YAML file.

    ``key`` and ``value`` are what PyYAML's safe loader builds (SGLang reads the file
    with ``yaml.safe_load``), so ``8`` is an int, ``true`` a bool, ``[a, b]`` a list.
    """

    key: Any
    value: Any
    key_location: Location
    value_location: Location

    def __init__(self, key: Any, value: Any, key_location: Location, value_location: Location) -> None:
        fields = self.__dict__  # frozen: written past __setattr__
        fields["key"] = key
        fields["value"] = value
        fields["key_location"] = key_location
        fields["value_location"] = value_location


class ConfigFile(Record, frozen=True):
    """A ``--config`` file as SGLang would read it.

    ``entries`` are in the order of the dict ``yaml.safe_load`` returns (a repeated
    key keeps its first position and its last value). ``error`` is set when SGLang
    would refuse the file (bad YAML, not a mapping); ``error_location`` is where.
    """

    path: str
    entries: tuple[ConfigEntry, ...]
    error: str | None
    error_location: Location | None

    def __init__(self, path: str, entries: tuple[ConfigEntry, ...] = (), error: str | None = None, error_location: Location | None = None) -> None:
        fields = self.__dict__  # frozen: written past __setattr__
        fields["path"] = path
        fields["entries"] = entries
        fields["error"] = error
        fields["error_location"] = error_location


def _mark_location(path: str, start: Any, end: Any | None = None) -> Location:
    """PyYAML marks are 0-based lines and code-point columns; ours are 1-based."""
    if end is None:
        return Location(path, start.line + 1, start.column + 1)
    return Location(path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def load_config_yaml(text: str, path: str) -> ConfigFile:
    """Parse the text of a ``--config`` file with safe YAML semantics, keeping the
    position of every top-level key. Never raises."""
    import yaml  # only launches with --config need it

    loader = yaml.SafeLoader(text)
    try:
        try:
            root = loader.get_single_node()
            if root is None:  # an empty file: SGLang reads it as {}
                return ConfigFile(path)
            if not isinstance(root, yaml.MappingNode):
                return ConfigFile(
                    path,
                    error="Config file must contain a dictionary at root level",
                    error_location=_mark_location(path, root.start_mark),
                )
            loader.flatten_mapping(root)  # `<<: *anchor` merge keys, as safe_load does
            by_key: dict[Any, ConfigEntry] = {}
            for key_node, value_node in root.value:
                key = loader.construct_object(key_node, deep=True)
                value = loader.construct_object(value_node, deep=True)
                try:
                    hash(key)
                except TypeError:
                    return ConfigFile(
                        path,
                        error="found unhashable key",
                        error_location=_mark_location(path, key_node.start_mark),
                    )
                # A dict keeps a repeated key where it first appeared, with the last value.
                by_key[key] = ConfigEntry(
                    key,
                    value,
                    _mark_location(path, key_node.start_mark, key_node.end_mark),
                    _mark_location(path, value_node.start_mark, value_node.end_mark),
                )
            return ConfigFile(path, tuple(by_key.values()))
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
            location = _mark_location(path, mark) if mark is not None else Location(path, 1, 1)
            return ConfigFile(path, error=f"invalid YAML: {error}", error_location=location)
        except Exception as error:  # noqa: BLE001 - odd input must never crash the linter
            return ConfigFile(path, error=f"unreadable YAML: {error}", error_location=Location(path, 1, 1))
    finally:
        loader.dispose()


# =================================================================================
# Reading settings


def is_default_none(setting: Setting) -> bool:
    """True for an option left at a default of None (see DEFAULT_NONE_REASON)."""
    return (
        setting.is_default
        and setting.value.kind is Kind.UNKNOWN
        and setting.value.reason == DEFAULT_NONE_REASON
    )


def flag_state(setting: Setting) -> bool | None:
    """Whether a store_true-like option is on: True, False, or None when unknown.

    A default of None counts as off: SGLang tests these flags for truth
    (``if not cfg.enable_dp_attention``).
    """
    value = setting.value
    if value.is_known:
        if value.text == "true":
            return True
        if value.text == "false":
            return False
        return None
    if is_default_none(setting):
        return False
    return None


# =================================================================================
# argparse's view of the option table


def _looks_like_negative_number(text: str) -> bool:
    """argparse's ``^-\\d+$|^-\\d*\\.\\d+$`` (``$`` also matches before a final newline)."""
    if text.endswith("\n"):
        text = text[:-1]
    if len(text) < 2 or text[0] != "-":
        return False
    digits = text[1:]
    if digits.isdecimal():
        return True
    whole, dot, fraction = digits.partition(".")
    return bool(dot) and (whole == "" or whole.isdecimal()) and fraction.isdecimal()


class _OptionWord(Record, frozen=True):
    """What argparse makes of an option word.

    ``option`` is None for an unknown option; ``ambiguous`` lists the matches of a
    prefix that has several. ``option_string`` is the full name argparse matched,
    ``written`` the name as written (``--tp`` for ``--tp-size``).
    """

    option: Option | None
    option_string: str
    written: str
    explicit: Value | None  # the text after "=", when there is one
    ambiguous: tuple[str, ...]

    def __init__(self, option: Option | None, option_string: str, written: str, explicit: Value | None = None, ambiguous: tuple[str, ...] = ()) -> None:
        fields = self.__dict__  # frozen: written past __setattr__
        fields["option"] = option
        fields["option_string"] = option_string
        fields["written"] = written
        fields["explicit"] = explicit
        fields["ambiguous"] = ambiguous


_UNPARSED = object()


class _Argparse:
    """The parts of ``argparse.ArgumentParser`` that depend on the option table."""

    def __init__(self, table: OptionTable) -> None:
        # argparse's _option_string_actions, in the order options were added.
        self.actions: dict[str, Option] = {}
        for option in table.options:
            for name in option.names:
                self.actions.setdefault(name, option)
        self.has_negative_number_optionals = any(_looks_like_negative_number(n) for n in self.actions)
        self._parsed: dict[str, _OptionWord | None] = {}

    def parse_optional(self, text: str) -> _OptionWord | None:
        """``ArgumentParser._parse_optional``: None means an argument word. The
        answer depends on the text alone, and launches repeat their words: it is
        remembered (the view lives as long as its table's facts)."""
        if not text or text[0] != "-":
            return None
        known = self._parsed.get(text, _UNPARSED)
        if known is not _UNPARSED:
            return known  # type: ignore[return-value]
        parsed = self._parse_optional(text)
        if len(self._parsed) > 100_000:
            self._parsed.clear()
        self._parsed[text] = parsed
        return parsed

    def _parse_optional(self, text: str) -> _OptionWord | None:
        if text in self.actions:
            return _OptionWord(self.actions[text], text, text)
        if len(text) == 1:
            return None
        if "=" in text:
            name, explicit = text.split("=", 1)
            if name in self.actions:
                return _OptionWord(self.actions[name], name, name, Value.known(explicit))
        matches = self._option_tuples(text)
        if len(matches) > 1:
            written = text.split("=", 1)[0] if text[1] == "-" else text
            return _OptionWord(None, text, written, ambiguous=tuple(m.option_string for m in matches))
        if len(matches) == 1:
            return matches[0]
        if _looks_like_negative_number(text) and not self.has_negative_number_optionals:
            return None
        if " " in text:
            return None
        return _OptionWord(None, text, text.split("=", 1)[0] if text[1] == "-" else text)

    def _option_tuples(self, text: str) -> list[_OptionWord]:
        """``ArgumentParser._get_option_tuples`` (allow_abbrev is on in SGLang)."""
        result = []
        if text[1] == "-":
            # Long options: only split at "=", then any long name with that prefix.
            if "=" in text:
                prefix, explicit_text = text.split("=", 1)
                explicit: Value | None = Value.known(explicit_text)
            else:
                prefix, explicit = text, None
            for name, option in self.actions.items():
                if name.startswith(prefix):
                    result.append(_OptionWord(option, name, prefix, explicit))
        else:
            # A single dash: "-xVALUE" for a short option "-x", or a prefix of a name.
            short_name, short_explicit = text[:2], text[2:]
            for name, option in self.actions.items():
                if name == short_name:
                    result.append(_OptionWord(option, name, short_name, Value.known(short_explicit)))
                elif name.startswith(text):
                    result.append(_OptionWord(option, name, text))
        return result

    def parse_name_with_unknown_value(self, name: str, explicit: Value) -> _OptionWord:
        """A long option word ``NAME=...`` whose text after ``=`` we cannot see.

        Everything argparse decides for such a word depends on ``NAME`` alone, except
        the last-resort test "an unknown option containing a space is an argument",
        which cannot turn an error into a valid launch."""
        if name in self.actions:
            return _OptionWord(self.actions[name], name, name, explicit)
        matches = [
            _OptionWord(option, option_name, name, explicit)
            for option_name, option in self.actions.items()
            if option_name.startswith(name)
        ]
        if len(matches) > 1:
            return _OptionWord(None, name, name, explicit, ambiguous=tuple(m.option_string for m in matches))
        if len(matches) == 1:
            return matches[0]
        return _OptionWord(None, name, name, explicit)


# =================================================================================
# Words


class _Word(Record, frozen=True):
    """One argv word on its way through SGLang's argv handling."""

    token: ArgToken
    # Set on words made from a --config file entry: the key as written.
    config_key: str | None
    # How to name the option in messages when the word itself does not say it
    # ("sglang serve" for the positional model of `sglang serve MODEL`).
    spelling: str | None

    def __init__(self, token: ArgToken, config_key: str | None = None, spelling: str | None = None) -> None:
        fields = self.__dict__  # frozen: written past __setattr__
        fields["token"] = token
        fields["config_key"] = config_key
        fields["spelling"] = spelling

    @property
    def value(self) -> Value:
        return self.token.value

    @property
    def location(self) -> Location:
        return self.token.location


class _Role:
    OPTION = "option"  # an option word whose name we know (maybe unknown to SGLang)
    ARGUMENT = "argument"  # certainly an argument word ('A')
    MAYBE_ARGUMENT = "maybe-argument"  # a word we cannot see: a value, or opaque
    OPAQUE = "opaque"  # could be options, and maybe several words
    SPREAD = "spread"  # any number of words we cannot see ("$@")
    DOUBLE_DASH = "double-dash"  # "--": every later word is an argument


class _Classified(Record, frozen=True):
    role: str
    option_word: _OptionWord | None

    def __init__(self, role: str, option_word: _OptionWord | None = None) -> None:
        fields = self.__dict__  # frozen: written past __setattr__
        fields["role"] = role
        fields["option_word"] = option_word


def _classify(word: _Word, argparse_view: _Argparse) -> _Classified:
    value = word.value
    if word.token.spread:
        return _Classified(_Role.SPREAD)
    if value.kind is Kind.KNOWN:
        if value.text == "--":
            return _Classified(_Role.DOUBLE_DASH)
        parsed = argparse_view.parse_optional(value.text)
        return _Classified(_Role.ARGUMENT) if parsed is None else _Classified(_Role.OPTION, parsed)
    if value.kind is Kind.ALTERNATIVES:
        combined = _classify_alternatives(value.alternatives, argparse_view)
        if combined is not None:
            return combined
    prefix = value.literal_prefix()
    if prefix.startswith("--") and "=" in prefix:
        name = prefix.split("=", 1)[0]
        if len(name) > 2:
            explicit = value.drop_prefix(len(name) + 1)
            return _Classified(_Role.OPTION, argparse_view.parse_name_with_unknown_value(name, explicit))
    if prefix and prefix[0] != "-":
        return _Classified(_Role.ARGUMENT)  # the first character is known: not an option
    if prefix.startswith("--"):
        return _Classified(_Role.OPAQUE)  # an option whose name we cannot see
    return _Classified(_Role.MAYBE_ARGUMENT)


def _classify_alternatives(texts: Iterable[str], argparse_view: _Argparse) -> _Classified | None:
    """A word that is one of several known strings: classified when every
    alternative is an argument, or every one names the same option (with or
    without a value after "=")."""
    parsed = [None if t == "--" else argparse_view.parse_optional(t) for t in texts]
    if all(p is None for p in parsed) and "--" not in texts:
        return _Classified(_Role.ARGUMENT)
    if any(p is None or p.option is None for p in parsed):
        return None
    first = parsed[0]
    assert first is not None
    if any(p.option is not first.option for p in parsed):  # type: ignore[union-attr]
        return None
    if any(p.option_string != first.option_string for p in parsed) and first.option.action == "boolean_optional":  # type: ignore[union-attr]
        return None  # --x and --no-x set opposite values
    if all(p.explicit is None for p in parsed):  # type: ignore[union-attr]
        return _Classified(_Role.OPTION, first)
    if any(p.explicit is None for p in parsed):  # type: ignore[union-attr]
        return None
    explicit = Value.one_of(p.explicit for p in parsed)  # type: ignore[union-attr, misc]
    written = first.written if all(p.written == first.written for p in parsed) else first.option_string  # type: ignore[union-attr]
    return _Classified(_Role.OPTION, _OptionWord(first.option, first.option_string, written, explicit))


# =================================================================================
# Values and defaults


def _literal_text(value: Any) -> str | None:
    """A JSON literal from an option table as the text a launch would carry."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    if isinstance(value, list):
        parts = [_literal_text(v) for v in value]
        return None if any(p is None for p in parts) else " ".join(parts)  # type: ignore[arg-type]
    if isinstance(value, dict):
        return json.dumps(value)
    return None


def _default_value(option: Option) -> Value:
    """The value of an option nobody set (see the module docstring)."""
    if option.default is not None:
        text = _literal_text(option.default)
        return Value.known(text) if text is not None else Value.unknown(f"default {option.default!r}")
    source = (option.default_source or "").strip()
    if source in ("", "None"):
        # argparse's store_true/store_false default to False/True when none is given.
        if not source and option.action == "store_true":
            return Value.known("false")
        if not source and option.action == "store_false":
            return Value.known("true")
        return Value.unknown(DEFAULT_NONE_REASON)
    return Value.unknown(f"default computed by SGLang: {source}")


def _takes_no_value(option: Option) -> bool:
    """Whether the option is a flag. An action with ``choices`` checks a value, so it
    takes one: SGLang's DeprecatedStoreConstAction with ``nargs=None, choices=[...]``
    (``--monokernel-backend amd``, arg_groups/argparse_actions.py 0.5.23 L103-133)."""
    if option.nargs is not None:
        return option.nargs == 0
    return option.is_flag and option.choices is None


def _converted(option: Option, text: str) -> tuple[bool, Any]:
    """``type(text)`` for the types we can run: (False, None) when it raises, and
    (True, None) when the type is one we cannot check."""
    kind = option.type
    try:
        if kind == "int":
            return True, int(text)
        if kind == "float":
            return True, float(text)
        if kind == "json.loads":
            return True, json.loads(text)
        if kind in (None, "str"):
            return True, text
    except (ValueError, TypeError, OverflowError):
        return False, None
    return True, None


def _checkable_type(option: Option) -> bool:
    return option.type in (None, "str", "int", "float", "json.loads")


def _value_problem(option: Option, written: str, value: Value, location: Location) -> ArgProblem | None:
    """argparse's type conversion and ``choices`` check, reported only when every
    text the value can be fails (a symbol's default counts as its value)."""
    if option.choices is None and option.type in (None, "str"):
        return None  # every text converts: nothing to check (most options)
    if not _checkable_type(option):
        return None
    texts = (value.text,) if value.kind is Kind.KNOWN else value.candidates()
    if not texts:
        return None
    failures: list[str] = []
    for text in sorted(texts):
        ok, converted = _converted(option, text)
        if not ok:
            failures.append(f"invalid {option.type} value: {text!r}")
            continue
        if option.choices is not None and option.type != "json.loads":
            # Compared after conversion, as argparse does; also by text, so that a
            # table listing int choices as strings cannot make up an error.
            try:
                allowed = converted in option.choices
            except TypeError:
                allowed = False
            allowed = allowed or text in {str(c) for c in option.choices}
            if not allowed:
                choices = ", ".join(repr(c) for c in option.choices)
                failures.append(f"invalid choice: {text!r} (choose from {choices})")
                continue
        return None  # at least one possible text is accepted
    origin = " (from the default of " + value.name + ")" if value.uses_default and value.kind is Kind.SYMBOL else ""
    return ArgProblem(
        "invalid-value",
        f"argument {written}: {failures[0]}{origin}",
        location,
        option=written,
    )


def _normalized(option: Option, value: Value) -> Value:
    """An int option's known value in canonical form (``08`` is ``8``), so that equal
    numbers compare equal."""
    if option.type != "int" or value.kind not in (Kind.KNOWN, Kind.ALTERNATIVES):
        return value
    if value.kind is Kind.KNOWN and is_ascii_digits(value.text) and (value.text == "0" or value.text[0] != "0"):
        return value  # already canonical (most int values: "8", "30000")
    texts = value.candidates() or frozenset()
    numbers = []
    for text in texts:
        ok, number = _converted(option, text)
        if not ok:
            return value
        numbers.append(str(number))
    return Value.one_of(Value.known(n) for n in numbers)


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
# SGLang's argv rewriting before argparse


def _version_at_least(version: str, minimum: tuple[int, ...]) -> bool:
    try:
        return version_key(version) >= minimum
    except ValueError:
        return True  # not a release number: behave like the newest release


def _serve_words(words: list[_Word], version: str, problems: list[ArgProblem]) -> list[_Word]:
    """What ``sglang serve`` hands to ``prepare_server_args``.

    ``cli/serve.py`` (0.5.23 L30-66): ``--model-type X`` / ``--model-type=X`` are
    removed (0.5.10+, exact spelling only), then a first word that does not start
    with "-" becomes ``--model-path WORD`` (0.5.16+; before, argparse rejects it).
    """
    if _version_at_least(version, (0, 5, 10)):
        kept: list[_Word] = []
        index = 0
        while index < len(words):
            word = words[index]
            if word.value.is_known and word.value.text == "--model-type" and not word.token.spread:
                if index + 1 >= len(words):
                    problems.append(
                        ArgProblem("invalid-value", "Error: --model-type requires a value.", word.location, "--model-type")
                    )
                # The next word is the backend name; a spread may hold more words than that.
                index += 1 if index + 1 < len(words) and words[index + 1].token.spread else 2
                continue
            if word.value.literal_prefix().startswith("--model-type=") and not word.token.spread:
                index += 1
                continue
            kept.append(word)
            index += 1
        words = kept
    if _version_at_least(version, (0, 5, 16)) and words:
        first = words[0]
        if not first.token.spread and _surely_not_dash(first.value):
            marker = ArgToken(Value.known("--model-path"), first.location)
            return [_Word(marker, spelling="sglang serve"), *words]
    return words


def _surely_not_dash(value: Value) -> bool:
    """Whether a word does not start with "-". A lone unseen word (``$MODEL``) is
    taken as a model path: a value with no visible text is one word, and the first
    word of ``sglang serve`` is a model unless it is an option."""
    prefix = value.literal_prefix()
    if prefix:
        return not prefix.startswith("-")
    candidates = value.candidates()
    if candidates is not None:
        return all(not c.startswith("-") for c in candidates)
    return value.kind is Kind.SYMBOL


class _ConfigOutcome(Record):
    """What the --config step leaves for the settings."""

    # Set when a config file may set options we cannot see: why.
    unseen_reason: str | None

    def __init__(self, unseen_reason: str | None = None) -> None:
        self.unseen_reason = unseen_reason


def _config_generation(version: str) -> str:
    """Which ConfigArgumentMerger a release has (all read keys verbatim as --{key}):

    - "0.5.4": ``srt/server_args_config_parser.py``; every ``true`` adds ``--key``,
      ``false`` omits it (its list of boolean actions reads an attribute argparse
      actions do not have, so it is always empty); no key checks; no dicts.
    - "0.5.9": same file grown a parser: ``true`` adds ``--key`` only for store_true
      dests (else ``--key true``); a key whose dest has another action is refused
      ("Unsupported config option"); dicts become JSON from 0.5.14.
    - "0.5.23": ``srt/utils/server_args_config_parser.py`` L17-66: keys may name any
      long spelling, and every action taking one value is supported.
    """
    if not _version_at_least(version, (0, 5, 9)):
        return "0.5.4"
    if not _version_at_least(version, (0, 5, 23)):
        return "0.5.9"
    return "0.5.23"


def _is_plain_store_true(option: Option) -> bool:
    # SGLang's DeprecatedStoreTrueAction is an argparse.Action, not a _StoreTrueAction.
    return option.action == "store_true" and not option.deprecated


def _is_plain_store(option: Option) -> bool:
    return option.action == "store" and not option.deprecated


def _config_keys(option: Option, generation: str) -> set[str]:
    if generation == "0.5.23":
        return {option.dest} | {n[2:].replace("-", "_") for n in option.names if n.startswith("--")}
    return {option.dest}


def _config_key_sets(table: OptionTable, generation: str) -> tuple[set[str], dict[str, Option]]:
    """(store_true keys, unsupported key -> option) of ConfigArgumentMerger.__init__."""
    if generation == "0.5.4":
        return set(), {}
    store_true_keys: set[str] = set()
    supported: list[Option] = []
    for option in table.options:
        if _is_plain_store_true(option):
            store_true_keys |= _config_keys(option, generation)
        takes_one_value = _is_plain_store(option) or (
            generation == "0.5.23" and option.nargs is None and not _takes_no_value(option)
        )
        if _is_plain_store_true(option) or takes_one_value:
            supported.append(option)
    supported_keys = {key for option in supported for key in _config_keys(option, generation)}
    unsupported: dict[str, Option] = {}
    for option in table.options:
        if option in supported or not option.names:
            continue
        if any(name in ("--config", "--help", "-h") for name in option.names):
            continue
        for key in _config_keys(option, generation):
            if generation == "0.5.23" and key in supported_keys:
                continue
            unsupported[key] = option
    return store_true_keys, unsupported


def _config_words(
    config: ConfigFile, table: OptionTable, problems: list[ArgProblem]
) -> list[_Word]:
    """``ConfigArgumentMerger._convert_config_to_args`` with locations."""
    generation = _config_generation(table.version)
    store_true_keys, unsupported = _config_key_sets(table, generation)
    words: list[_Word] = []
    for entry in config.entries:
        key = entry.key
        if not isinstance(key, str):
            problems.append(
                ArgProblem(
                    "config-file",
                    f"config key {key!r} is not a string: SGLang fails reading {config.path}",
                    entry.key_location,
                    option=str(key),
                )
            )
            continue
        normalized = key.replace("-", "_")
        if normalized in unsupported:
            option = unsupported[normalized]
            problems.append(
                ArgProblem(
                    "config-file",
                    f"Unsupported config option '{normalized}' ({option.names[0]} is a "
                    f"{option.action} option): SGLang refuses {config.path}",
                    entry.key_location,
                    option=key,
                )
            )
            continue
        texts: list[str] | None
        value = entry.value
        if isinstance(value, bool):
            if generation == "0.5.4" or normalized in store_true_keys:
                texts = [] if value else None  # the bare flag, or nothing at all
            else:
                texts = [str(value).lower()]
        elif isinstance(value, list):
            texts = [str(item) for item in value] if value else None
        elif isinstance(value, dict) and _version_at_least(table.version, (0, 5, 14)):
            texts = [json.dumps(value)]
        else:
            texts = [str(value)]  # None becomes "None", as in SGLang
        if texts is None:
            continue
        option_token = ArgToken(Value.known(f"--{key}"), entry.key_location)
        words.append(_Word(option_token, config_key=key))
        for text in texts:
            words.append(_Word(ArgToken(Value.known(text), entry.value_location), config_key=key))
    return words


def _merge_config(
    words: list[_Word],
    table: OptionTable,
    read_config: Callable[[str, Location], ConfigFile | None] | None,
    problems: list[ArgProblem],
) -> tuple[list[_Word], _ConfigOutcome]:
    """``prepare_server_args`` + ``ConfigArgumentMerger.merge_config_with_args``.

    Only a word that is exactly ``--config`` triggers the merge (``"--config" in
    argv``, server_args.py 0.5.23 L683); ``--config=f.yaml`` and abbreviations are
    parsed by argparse and then ignored. Two such words, or one at the end, are
    errors. The path must end in .yaml/.yml. The file's words go *before* the whole
    remaining command line (``config_args + before_config + after_config``), so the
    command line wins.
    """
    outcome = _ConfigOutcome()
    indices = [
        i for i, w in enumerate(words) if not w.token.spread and w.value.is_known and w.value.text == "--config"
    ]
    if not indices:
        return words, outcome
    if len(indices) > 1:
        problems.append(
            ArgProblem(
                "config-file",
                "Multiple config files specified! Only one allowed. (SGLang refuses to start)",
                words[indices[1]].location,
                option="--config",
            )
        )
        return words, outcome
    index = indices[0]
    config_word = words[index]
    if index == len(words) - 1:
        problems.append(
            ArgProblem(
                "config-file",
                "No config file specified after --config flag! (SGLang refuses to start)",
                config_word.location,
                option="--config",
            )
        )
        return words[:index], outcome
    path_word = words[index + 1]
    rest = words[:index] + words[index + 2 :]
    at = config_word.location.short()
    if path_word.token.spread:
        # The path is the first word of something we cannot see; the rest stays.
        outcome.unseen_reason = f"may be set by --config {path_word.value.describe()} at {at}"
        return words[:index] + words[index + 1 :], outcome
    candidates = path_word.value.candidates()
    if candidates is None or len(candidates) != 1:
        outcome.unseen_reason = f"may be set by --config {path_word.value.describe()} at {at}"
        return rest, outcome
    (path_text,) = candidates
    suffix = _path_suffix(path_text)
    if suffix not in (".yaml", ".yml"):
        problems.append(
            ArgProblem(
                "config-file",
                f"Config file must be YAML format, got: {suffix!r} (SGLang refuses to start)",
                path_word.location,
                option="--config",
            )
        )
        return rest, outcome
    config = read_config(path_text, path_word.location) if read_config is not None else None
    if config is None:
        outcome.unseen_reason = f"may be set by --config {path_text} at {at} (file not read)"
        return rest, outcome
    if config.error is not None:
        problems.append(
            ArgProblem(
                "config-file",
                f"{config.path}: {config.error} (SGLang refuses to start)",
                config.error_location or path_word.location,
                option="--config",
            )
        )
        outcome.unseen_reason = f"may be set by --config {path_text} at {at} (file unreadable)"
        return rest, outcome
    return _config_words(config, table, problems) + rest, outcome


def _path_suffix(path_text: str) -> str:
    """``pathlib.Path(path).suffix.lower()`` as SGLang checks it, without the file system."""
    return PurePosixPath(path_text).suffix.lower()


# =================================================================================
# The argparse pass


class _Assignment(Record):
    """A setting made by a word, with the index of that word in argv order."""

    index: int
    setting: Setting

    def __init__(self, index: int, setting: Setting) -> None:
        self.index = index
        self.setting = setting


class _Parse(Record):
    table: OptionTable
    words: list[_Word]
    roles: list[_Classified]
    problems: list[ArgProblem]
    assignments: dict[str, _Assignment]
    opaque: list[int]

    def __init__(
        self,
        table: OptionTable,
        words: list[_Word],
        roles: list[_Classified],
        problems: list[ArgProblem],
        assignments: dict[str, _Assignment] | None = None,
        opaque: list[int] | None = None,
    ) -> None:
        self.table = table
        self.words = words
        self.roles = roles
        self.problems = problems
        self.assignments = {} if assignments is None else assignments
        self.opaque = [] if opaque is None else opaque

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
        previous_flag: str | None = None  # a value-less option right before
        while index < len(self.words):
            role = self.roles[index]
            if role.role == _Role.OPTION:
                index, previous_flag = self._consume_option(index)
                previous_unseen = False
                continue
            if role.role == _Role.ARGUMENT:
                if not previous_unseen:  # after an unseen word it may be that word's value
                    self._unrecognized(index, previous_flag)
                index += 1
                continue
            if role.role == _Role.DOUBLE_DASH:
                self._after_double_dash(index)
                return
            # MAYBE_ARGUMENT, OPAQUE, SPREAD left over: we cannot tell what they do.
            self.opaque.append(index)
            previous_unseen = True
            previous_flag = None
            index += 1

    def _after_double_dash(self, index: int) -> None:
        """Every word from "--" on is an argument, and SGLang takes none: "--"
        itself and each later word are unrecognized. Unseen words there cannot set
        options, so they are not opaque."""
        for position in range(index, len(self.words)):
            if not self.words[position].token.spread:  # a spread may be no word at all
                self._unrecognized(position, None)

    def _unrecognized(self, index: int, previous_flag: str | None) -> None:
        word = self.words[index]
        text = word.value.describe()
        hint = f" ({previous_flag} takes no value)" if previous_flag else ""
        if word.config_key is not None:
            hint = f" (from config key {word.config_key!r})"
        self.problems.append(
            ArgProblem("unknown", f"unrecognized argument: {text!r}{hint}", word.location, option="")
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
            if role in (_Role.ARGUMENT, _Role.MAYBE_ARGUMENT):
                taken.append(position)
                position += 1
                continue
            if role in (_Role.SPREAD, _Role.OPAQUE):
                return taken, self.words[position].value.describe()
            break
        return taken, None

    def _consume_option(self, index: int) -> tuple[int, str | None]:
        """``consume_optional``: returns the next index and, for an option that
        takes no value, its spelling (for the hint on a stray value after it)."""
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
            # argparse stops here; go on as if the option took what it most likely takes.
            candidates = [self._argparse_option(name) for name in parsed.ambiguous]
            if parsed.explicit is not None or all(c is not None and _takes_no_value(c) for c in candidates):
                return index + 1, None
            values, _ = self._value_words(index + 1)
            return index + 1 + min(1, len(values)), None
        if parsed.option is None:
            config_hint = ""
            if word.config_key is not None and "_" in word.config_key:
                config_hint = f" (config keys are used verbatim as --KEY: write {word.config_key.replace('_', '-')})"
            elif word.config_key is not None:
                config_hint = f" (from config key {word.config_key!r})"
            self.problems.append(
                ArgProblem("unknown", f"unrecognized option: {parsed.written}{config_hint}", word.location, option=parsed.written)
            )
            # The words right after it are most likely its value: one problem is enough.
            values, _ = self._value_words(index + 1)
            return index + 1 + len(values), None
        option = parsed.option
        if option.action == "help" and parsed.explicit is None:
            return index + 1, None  # prints the help and exits: no server, nothing to check
        if parsed.explicit is not None:
            return self._consume_explicit(index, word, parsed, spelling), None
        return self._consume_following(index, word, option, parsed.option_string, spelling)

    def _argparse_option(self, name: str) -> Option | None:
        return self.table.by_name.get(name)

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
            if _takes_no_value(option):
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
        if _takes_no_value(option):
            self._store(index, word, option, option_string, spelling, [], word.location)
            return index + 1, spelling
        available, unseen_after = self._value_words(index + 1)
        nargs = option.nargs
        if nargs is None or nargs == "?":
            wanted = min(1, len(available))
        elif isinstance(nargs, int):
            wanted = min(nargs, len(available))
        else:  # "*", "+" and anything else that takes a list
            wanted = len(available)
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
        for value, value_word in values:
            problem = _value_problem(option, spelling, value, value_word.location)
            if problem is not None:
                self.problems.append(problem)
            checked.append(_normalized(option, value))
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
            text = _literal_text(option.const)
            result = Value.known(text) if text is not None else Value.unknown(f"constant {option.const!r}")
        elif action == "count":
            result = self._counted(option)
        elif not values and option.nargs == "?":
            text = _literal_text(option.const)
            result = Value.known(text) if text is not None else Value.unknown(DEFAULT_NONE_REASON)
        elif option.nargs in (None, "?") and len(checked) == 1:
            result = checked[0]
        else:
            result = _joined(checked)
        if more_values_from is not None:
            result = Value.unknown(f"more values may come from {more_values_from}")
        if action == "append":
            previous = self.assignments.get(option.dest)
            if previous is not None:
                result = _joined([previous.setting.written or previous.setting.value, result])
        setting = Setting(option.dest, result, location, spelling, origin)
        self._assign(index, option, setting)

    def _counted(self, option: Option) -> Value:
        previous = self.assignments.get(option.dest)
        before = previous.setting.value if previous is not None else _default_value(option)
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


# =================================================================================
# Entry point


def parse_server_args(
    tokens: list[ArgToken],
    table: OptionTable,
    *,
    entry: EntryPoint = EntryPoint.LAUNCH_SERVER,
    read_config: Callable[[str, Location], ConfigFile | None] | None = None,
    launch_location: Location | None = None,
    keywords: Iterable[KeywordArg] = (),
) -> ServerSettings:
    """The settings one server launch ends up with, for the table's SGLang version.

    ``tokens`` are the words after the entry point (after ``-m sglang.launch_server``,
    ``sglang serve`` or ``-m dynamo.sglang``, which takes the same arguments).
    ``read_config(path, location)`` reads a ``--config`` file (e.g. with
    :func:`load_config_yaml`), or returns None when it cannot. ``launch_location`` is
    the launch's first word; every problem found today belongs to a word, so it is
    kept for problems of the launch as a whole. Never raises on any token list.

    ``keywords`` are the arguments of the Python entries (``sglang.Engine(...)``,
    ``ServerArgs(...)``), which take field names instead of argv words.
    """
    if entry in (EntryPoint.ENGINE, EntryPoint.SERVER_ARGS):
        return _keyword_settings(list(keywords), table)
    problems: list[ArgProblem] = []
    words = [_Word(token) for token in tokens]
    if entry is EntryPoint.SGLANG_SERVE:
        words = _serve_words(words, table.version, problems)
    words, config = _merge_config(words, table, read_config, problems)

    argparse_view = _facts(table).argparse
    roles = [_classify(word, argparse_view) for word in words]
    parse = _Parse(table, words, roles, problems)
    parse.run()
    _report_ignored_config(parse)
    return _settings(table, parse, config)


def _report_ignored_config(parse: _Parse) -> None:
    """``--config=FILE`` and abbreviations such as ``--conf FILE`` reach argparse,
    which stores them, and SGLang never reads that value (SGL206)."""
    for index, role in enumerate(parse.roles):
        parsed = role.option_word
        if parsed is None or parsed.option is None or "--config" not in parsed.option.names:
            continue
        word = parse.words[index]
        if word.config_key is not None:
            continue
        if parsed.explicit is not None:
            message = (
                f"{parsed.written}={parsed.explicit.describe()} is silently ignored by SGLang: it only "
                "merges a config file given as two words, --config FILE"
            )
        elif parsed.written != "--config":
            message = (
                f"{parsed.written} (an abbreviation of --config) is silently ignored by SGLang: it only "
                "merges a config file given as --config FILE"
            )
        else:
            continue
        parse.problems.append(ArgProblem("config-equals", message, word.location, option=parsed.written))


class _TableFacts:
    """What every launch parsed against one table shares, computed once per
    table: its argparse view, the default Setting of each dest, and the dests some
    option can store a value other than true into."""

    def __init__(self, table: OptionTable) -> None:
        self.argparse = _Argparse(table)
        self.defaults: dict[str, Setting] = {}
        # The first non-help option of each dest (argparse gives a dest the default
        # of its first action).
        self.options_by_dest: dict[str, Option] = {}
        for option in table.options:
            if option.action == "help" or option.dest in self.defaults:
                continue
            self.options_by_dest[option.dest] = option
            self.defaults[option.dest] = Setting(option.dest, _default_value(option))
        self.resettable = frozenset(o.dest for o in table.options if o.action not in ("store_true", "help"))


# id(table) -> (table, facts). Tables come from load_table's cache, so there are
# a handful; the table is kept to make the id safe to reuse.
_FACTS: dict[int, tuple[OptionTable, _TableFacts]] = {}


def passes_through(token: ArgToken) -> bool:
    """Words the file passes on from whoever runs it, unseen: the script's or an
    uncalled function's ``"$@"``, ``sys.argv[1:]``, an ``$EXTRA_ARGS`` the file
    never sets. Not a command's output or an array the file built and lost."""
    value = token.value
    if value.kind is Kind.SYMBOL:
        name = value.name
        return value.default is None and name.startswith("$") and (name[1:].isidentifier() or name[1:] in ("@", "*"))
    if value.kind is Kind.UNKNOWN and token.spread:
        return value.reason.startswith(('"$@" of', '"$*" of', "$@ of", "$* of")) or value.reason == "sys.argv" or value.reason.startswith("sys.argv")
    return False


def _passed_name(value: Value) -> str:
    return value.reason if value.kind is Kind.UNKNOWN else value.describe()


def _facts(table: OptionTable) -> _TableFacts:
    entry = _FACTS.get(id(table))
    if entry is None or entry[0] is not table:
        if len(_FACTS) > 64:
            _FACTS.clear()
        entry = _FACTS[id(table)] = (table, _TableFacts(table))
    return entry[1]


def _settings(table: OptionTable, parse: _Parse, config: _ConfigOutcome) -> ServerSettings:
    facts = _facts(table)
    settings = ServerSettings(version=table.version, problems=parse.problems)
    settings.opaque = [parse.words[i].location for i in parse.opaque]
    # The table's defaults are shared by every launch; this launch's own
    # settings go into the first map (a dict of every dest per launch cost
    # megabytes on a tree of launches).
    settings.values = Overlay(facts.defaults)
    for dest, assignment in parse.assignments.items():
        settings.values[dest] = assignment.setting

    # Arguments passed through from the file's caller are assumed to add no
    # options (issue 16, part 5): the options written in the file are judged,
    # and the findings name the pass-through.
    blocking = [i for i in parse.opaque if not passes_through(parse.words[i].token)]
    settings.passed_through = [(parse.words[i].location, _passed_name(parse.words[i].value)) for i in parse.opaque if i not in blocking]

    def overridden_by(index: int) -> str | None:
        later = [i for i in blocking if i > index]
        if not later:
            return None
        word = parse.words[later[0]]
        return f"may be overridden by {word.value.describe()} at {word.location.short()}"

    # A store_true flag that was given stays on whatever words follow, unless some
    # option can store another value into its dest (a --no-x, a store_false).
    resettable = facts.resettable
    # Every default is unknown past an opaque word ("$@") or an unseen config file;
    # when there is neither (most launches), only the assigned dests need a look.
    unassigned_reason = config.unseen_reason or overridden_by(-1)
    dests = list(settings.values) if unassigned_reason is not None else list(parse.assignments)
    for dest in dests:
        setting = settings.values[dest]
        assignment = parse.assignments.get(dest)
        if assignment is None:
            reason = unassigned_reason
        elif dest not in resettable and setting.value == Value.known("true"):
            reason = None
        else:
            reason = overridden_by(assignment.index)
        if reason is not None:
            settings.values[dest] = replace(
                setting, value=Value.unknown(reason), written=setting.written or setting.value
            )
    return settings


# =================================================================================
# Python entries: ServerArgs fields as keyword arguments


def _keyword_settings(keywords: list[KeywordArg], table: OptionTable) -> ServerSettings:
    """``ServerArgs(tp_size=8, enable_dp_attention=True)``: a dataclass, so no
    argparse at all - no abbreviations, no aliases, no type conversion. Each field
    is the dest of its command-line option (up to 0.5.13 some dests were the long
    spelling, ``tensor_parallel_size``: LEGACY_DESTS). ``Engine(**kwargs)`` passes
    its keywords to ServerArgs unchanged (0.5.23 entrypoints/engine.py:288-297).
    A ``**mapping`` we cannot see may set any field not given by name (Python
    rejects a field given twice)."""
    facts = _facts(table)
    settings = ServerSettings(version=table.version)
    options_by_dest = facts.options_by_dest
    # The table's defaults are shared by every launch; this launch's own
    # settings go into the first map (a dict of every dest per launch cost
    # megabytes on a tree of launches).
    settings.values = Overlay(facts.defaults)
    given: set[str] = set()
    for keyword in keywords:
        if keyword.name is None:
            continue
        option = options_by_dest.get(keyword.name) or options_by_dest.get(LEGACY_DESTS.get(keyword.name, ""))
        if option is None:
            # A field without a command-line option, or a misspelt one: Python's
            # TypeError is for the rules to report (issue 5), not a setting.
            continue
        value = _keyword_flag_value(keyword.value) if _takes_no_value(option) else _normalized(option, keyword.value)
        settings.values[option.dest] = Setting(option.dest, value, keyword.location, f"{keyword.name}=", keyword.origin)
        given.add(option.dest)
    spreads = [keyword for keyword in keywords if keyword.name is None]
    if spreads:
        reason = f"may be set by {spreads[0].value.describe()} at {spreads[0].location.short()}"
        for dest, setting in list(settings.values.items()):
            if dest not in given:
                settings.values[dest] = replace(setting, value=Value.unknown(reason), written=setting.value)
    return settings


def _keyword_flag_value(value: Value) -> Value:
    """A boolean field as the flag state rules read (``true``/``false``): SGLang
    tests these fields for truth, so ``1`` is on and ``None`` or ``0`` is off."""
    if not value.is_known:
        return value
    text = value.text
    if text in ("true", "false"):
        return value
    if text in ("None", "0", "0.0", ""):
        return Value.known("false")
    return Value.known("true")
