"""The argv tokenizer: each word of a launch as argparse's ``_parse_optional``
classifies it - an option word (which option, as written, with any ``=VALUE``), an
argument word, ``--``, or a word we cannot see - against the option table of one
SGLang release.

This mirrors CPython 3.11's ``argparse.py`` (the same in 3.10 and 3.12.1 for
everything used here; sglang's wheels are built for 3.11):

- every word is classified first (``_parse_optional``): an option ('O') or an
  argument ('A'); a word after ``--`` is always an argument;
- an option word is an exact name, ``name=value`` with an exact name, or a unique
  prefix of a long name (``allow_abbrev``; ``_get_option_tuples``); a prefix with
  several matches is "ambiguous" (argparse exits) even when the matches are
  spellings of one option;
- a word that looks like a negative number is an argument unless some option looks
  like one; an unknown word with a space is an argument.

Words we cannot see (:class:`~sglang_lint.model.Value` s that are not known) are
classified without guessing:

- a word whose option *name* is known - the whole word, a known prefix up to an
  ``=`` (``--tp=$TP``), or alternatives that all name the same option - is
  classified as that option, with the unknown part as its value;
- a word that may be a value (``$TP``, ``${TP:-8}``) is a maybe-argument, which
  an option that wants a value takes (see :mod:`~sglang_lint.catalog.argparse_emulation`);
- anything else (``$FLAGS``, a spread ``"$@"``) is opaque.
"""

from __future__ import annotations

import difflib
from typing import Iterable

from msgspec import Struct

from sglang_lint.catalog.tables import Option, OptionTable
from sglang_lint.model import ArgToken, Kind, Location, Value

__all__ = [
    "ArgparseView",
    "Role",
    "classify",
    "close_match",
]

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


class _OptionWord(Struct, frozen=True):
    """What argparse makes of an option word.

    ``option`` is None for an unknown option; ``ambiguous`` lists the matches of a
    prefix that has several. ``option_string`` is the full name argparse matched,
    ``written`` the name as written (``--tp`` for ``--tp-size``).
    """

    option: Option | None
    option_string: str
    written: str
    explicit: Value | None = None  # the text after "=", when there is one
    ambiguous: tuple[str, ...] = ()


_UNPARSED = object()


class ArgparseView:
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
# What a misspelt option most likely names

# difflib's ratio is 2*matches/total length: 0.8 keeps typos (--tp-szie,
# --enable-unified-memroy, --kv-cache-dtpye) and drops unrelated names.
TYPO_CUTOFF = 0.8


def close_match(written: str, names: list[str]) -> str | None:
    """The long option a misspelt ``written`` most likely names, if one is close."""
    matches = difflib.get_close_matches(written, names, n=1, cutoff=TYPO_CUTOFF)
    return matches[0] if matches else None


# =================================================================================
# Words


class _Word(Struct, frozen=True):
    """One argv word on its way through SGLang's argv handling."""

    token: ArgToken
    # Set on words made from a --config file entry: the key as written.
    config_key: str | None = None
    # How to name the option in messages when the word itself does not say it
    # ("sglang serve" for the positional model of `sglang serve MODEL`).
    spelling: str | None = None

    @property
    def value(self) -> Value:
        return self.token.value

    @property
    def location(self) -> Location:
        return self.token.location


class Role:
    OPTION = "option"  # an option word whose name we know (maybe unknown to SGLang)
    ARGUMENT = "argument"  # certainly an argument word ('A')
    MAYBE_ARGUMENT = "maybe-argument"  # a word we cannot see: a value, or opaque
    OPAQUE = "opaque"  # could be options, and maybe several words
    SPREAD = "spread"  # any number of words we cannot see ("$@")
    DOUBLE_DASH = "double-dash"  # "--": every later word is an argument


class _Classified(Struct, frozen=True):
    role: str
    option_word: _OptionWord | None = None


def classify(word: _Word, argparse_view: ArgparseView) -> _Classified:
    value = word.value
    if word.token.spread:
        return _Classified(Role.SPREAD)
    if value.kind is Kind.KNOWN:
        if value.text == "--":
            return _Classified(Role.DOUBLE_DASH)
        parsed = argparse_view.parse_optional(value.text)
        return _Classified(Role.ARGUMENT) if parsed is None else _Classified(Role.OPTION, parsed)
    if value.kind is Kind.ALTERNATIVES:
        combined = _classify_alternatives(value.alternatives, argparse_view)
        if combined is not None:
            return combined
    prefix = value.literal_prefix()
    if prefix.startswith("--") and "=" in prefix:
        name = prefix.split("=", 1)[0]
        if len(name) > 2:
            explicit = value.drop_prefix(len(name) + 1)
            return _Classified(Role.OPTION, argparse_view.parse_name_with_unknown_value(name, explicit))
    if prefix and prefix[0] != "-":
        return _Classified(Role.ARGUMENT)  # the first character is known: not an option
    if prefix.startswith("--"):
        return _Classified(Role.OPAQUE)  # an option whose name we cannot see
    return _Classified(Role.MAYBE_ARGUMENT)


def _classify_alternatives(texts: Iterable[str], argparse_view: ArgparseView) -> _Classified | None:
    """A word that is one of several known strings: classified when every
    alternative is an argument, or every one names the same option (with or
    without a value after "=")."""
    parsed = [None if t == "--" else argparse_view.parse_optional(t) for t in texts]
    if all(p is None for p in parsed) and "--" not in texts:
        return _Classified(Role.ARGUMENT)
    if any(p is None or p.option is None for p in parsed):
        return None
    first = parsed[0]
    assert first is not None
    if any(p.option is not first.option for p in parsed):  # type: ignore[union-attr]
        return None
    if any(p.option_string != first.option_string for p in parsed) and first.option.action == "boolean_optional":  # type: ignore[union-attr]
        return None  # --x and --no-x set opposite values
    if all(p.explicit is None for p in parsed):  # type: ignore[union-attr]
        return _Classified(Role.OPTION, first)
    if any(p.explicit is None for p in parsed):  # type: ignore[union-attr]
        return None
    explicit = Value.one_of(p.explicit for p in parsed)  # type: ignore[union-attr, misc]
    written = first.written if all(p.written == first.written for p in parsed) else first.option_string  # type: ignore[union-attr]
    return _Classified(Role.OPTION, _OptionWord(first.option, first.option_string, written, explicit))
