"""Words as the shell interpreter sees them: the value domain of the shell source.

A word is a tuple of pieces (``Seg``): each holds a value (known text, a symbol,
unknown), where it appears and whether bash splits it into fields. A variable
(``Var``) holds a word or an array of words; ``Env`` is what the interpreter
knows of the variables at one point of the script. Field splitting, the texts a
value can be, and the variables after branches merge are here too. Other
sources that build words (Python argv lists, command strings of manifests) use
the same domain; nothing here reads the syntax tree.
"""

from __future__ import annotations

import os
from typing import Iterable

from msgspec import Struct, field

from sglang_lint.model import Kind, Location, Value

IFS_WHITESPACE = " \t\n"


class Seg(Struct, frozen=True, gc=False):
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
    split: bool = False
    quoted: bool = False
    chars: tuple[tuple[int, int], ...] | None = None
    origin: Location | None = None


Word = tuple[Seg, ...]


class Var(Struct):
    """A shell variable: a scalar word or an array of words (None: unknown array).
    ``table``: an associative array's values by key (`declare -A`; its
    ``array`` is None: bash lists its values in no order we know)."""

    scalar: Word | None = None
    array: list[Word] | None = None
    is_array: bool = False
    defined_at: Location | None = None
    table: dict[str, Word] | None = None


class Frame(Struct):
    """A function call: its positional parameters and its local variables."""

    function: str
    positional: list[Word] | None  # None: not known (uncalled function)
    locals: dict[str, Var | None] = {}
    call_site: Location | None = None


class Env(Struct):
    globals: dict[str, Var | None] = {}
    frames: list[Frame] = []
    # The script's positional parameters ($1, "$@" outside functions): unknown
    # (what the caller passes) until `set -- ...`.
    script: Frame = field(default_factory=lambda: Frame('', None))

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


# The words a merge of branches may hold (ArgToken.held): one tuple per way.
Held = tuple[tuple[Value, ...], ...]

# Past this many words over all ways, a merge's words are not kept (any words).
MAX_HELD_WORDS = 256


class _SpreadSeg(Seg):
    """A piece standing for any number of words we cannot see (``held``: the
    ways a merge of branches made it from, when known)."""

    held: Held | None = None


class _WordsSeg(Seg):
    """Text we cannot see that holds any number of words, in a string (what
    branches added to `CMD="$CMD --decode $URL"`): where the shell splits it,
    that many words (a spread); where it does not, a piece of one word.
    ``held``: the words each way had there, as the shell splits them."""

    held: Held | None = None


class _DefaultWordsSeg(Seg):
    """An unquoted ``${NAME:-a b}`` that bash splits: by its default (which
    counts as the value), several words. Kept as one piece (its words may
    be others when the environment sets it: an argument list reads it as
    words we cannot see), and known as such where it is run as a command,
    also from an array it was put in (`launcher=($LAUNCH_CMD)`)."""


def default_fields(word: Word) -> list[Word] | None:
    """The words of a lone ``${NAME:-a b}`` that bash splits, by its default;
    None for any other word."""
    if len(word) != 1:
        return None
    seg = word[0]
    value = seg.value
    if not (seg.split or isinstance(seg, _DefaultWordsSeg)) or value.kind is not Kind.SYMBOL or value.default is None:
        return None
    if not any(char in value.default for char in IFS_WHITESPACE):
        return None
    return [(Seg(Value.known(field), seg.loc, origin=seg.origin),) for field in value.default.split()]


def restated(seg: Seg, loc: Location, split: bool, quoted: bool, chars: tuple[tuple[int, int], ...] | None = None, origin: Location | None = None) -> Seg:
    """``seg`` with new flags: a string's words we cannot see stay so (a
    spread glued into a string is a piece of it, as before)."""
    if isinstance(seg, _WordsSeg):
        return _WordsSeg(seg.value, loc, split, quoted, chars, origin, seg.held)
    return Seg(seg.value, loc, split, quoted, chars, origin)


def holds_words(seg: Seg) -> bool:
    """Whether ``seg`` stands for any number of words where a command's text is
    read again (`eval`)."""
    return isinstance(seg, (_SpreadSeg, _WordsSeg))


def spread_word(value: Value, loc: Location, held: Held | None = None) -> Word:
    return (_SpreadSeg(value, loc, held=held),)


def unset_symbol(name: str) -> Var:
    return Var(scalar=(Seg(Value.symbol("$" + name), NOWHERE),))


def text_size(value: Value) -> int:
    """The characters of text a value holds."""
    if value.kind is Kind.KNOWN:
        return len(value.text)
    if value.kind is Kind.ALTERNATIVES:
        return sum(map(len, value.alternatives))
    if value.kind is Kind.CONCAT:
        return sum(map(text_size, value.parts))
    return 1


def word_value(word: Word) -> Value:
    return Value.concat(seg.value for seg in word)


def merge_vars(options: list[Var | None], name: str) -> Var | None:
    """The variable after one of several branches ran."""
    first = options[0]
    if all(_same_var(o, first) for o in options):
        return first
    if any(option is not None and option.table is not None for option in options):
        return Var(is_array=True)  # (an associative array that differs: its values are not known)
    if all(option is not None and option.is_array and option.array is not None for option in options):
        return Var(array=_merge_arrays([option.array for option in options], name), is_array=True)  # type: ignore[union-attr,misc]
    values = []
    for option in options:
        if option is None or option.is_array:
            return Var(scalar=(Seg(Value.unknown(f"${name} differs between branches"), NOWHERE),))
        values.append(word_value(option.scalar or ()))
    merged = None if any(value.uses_default for value in values) else Value.one_of(values)
    if merged is None or merged.kind is Kind.UNKNOWN:
        # A string the ways add words to (`CMD="$CMD --decode $URL"` in a
        # loop over the decode servers, a flag under an `if`): the words all
        # ways begin and end with, and between them any number we cannot see.
        # As one unknown, the command the string runs was lost (`eval "$CMD"`).
        # (`${X:-d}` counts as d alone, never merged with other branches'
        # values: the launch variants give it exactly; words the ways share
        # are no merge.)
        between = _words_between([option.scalar or () for option in options], name)  # type: ignore[union-attr]
        if between is not None:
            return Var(scalar=between)
        return Var(scalar=(Seg(Value.unknown(f"${name} differs between branches"), NOWHERE),))
    return Var(scalar=(Seg(merged, NOWHERE),))


def _words_between(words: list[Word], name: str) -> Word | None:
    """The word the ways' ``words`` all begin with up to a blank, a piece
    for any number of words, and the word they all end with from a blank;
    None when they share neither and every way has some text."""
    # (the empty pieces quotes leave hold no text: `"${CMD}"" --x"`)
    words = [tuple(seg for seg in word if not (seg.value.is_known and not seg.value.text)) for word in words]
    head = _common_pieces(words)
    head = _to_blank(head, [_after(word, head) for word in words], at_end=True)
    rests = [_after(word, head) for word in words]
    tail = _common_pieces([tuple(reversed(rest)) for rest in rests], from_end=True)[::-1]
    tail = _to_blank(tail, [_before(rest, tail) for rest in rests], at_end=False)
    if not head and not tail and all(words):
        return None
    # (no shared words, but a way that has none: `ARGS=""`, then `[ -n "$X" ]
    # && ARGS="$ARGS --x $X"`; its words are all the merge's)
    where = next((seg.loc for seg in (*head, *tail, *(seg for word in words for seg in word)) if seg.loc is not NOWHERE), NOWHERE)
    held = held_words([split_words(_before(rest, tail)) for rest in rests])
    middle = _WordsSeg(Value.unknown(f"words of ${name} that differ between branches"), where, held=held)
    return (*head, middle, *tail)


def split_words(segs: Iterable[Seg]) -> list[Word]:
    """The words text becomes where the shell splits it (a string's value
    expanded unquoted)."""
    return split_fields([restated(seg, seg.loc, True, False, seg.chars, seg.origin) for seg in segs])


def held_words(ways: list[list[Word]]) -> Held | None:
    """The words each way of a merge had where they differ (ArgToken.held);
    None when one of them is words we cannot see, or they are too many."""
    if sum(map(len, ways)) > MAX_HELD_WORDS:
        return None
    if any(holds_words(seg) for words in ways for word in words for seg in word):
        return None
    return tuple(dict.fromkeys(tuple(word_value(word) for word in words) for words in ways))


def _common_pieces(words: list[Word], from_end: bool = False) -> tuple[Seg, ...]:
    """The pieces all ``words`` begin with (their ends when ``from_end``, the
    words given reversed): whole pieces of the same value, then the text two
    known pieces share."""
    common: list[Seg] = []
    for index, seg in enumerate(words[0]):
        others = [word[index] if index < len(word) else None for word in words[1:]]
        if all(other is not None and other.value == seg.value and type(other) is type(seg) and _held_of((other,)) == _held_of((seg,)) for other in others):
            common.append(seg)
            continue
        if seg.value.is_known and type(seg) is Seg and all(other is not None and other.value.is_known and type(other) is Seg for other in others):
            texts = [seg.value.text, *(other.value.text for other in others)]  # type: ignore[union-attr]
            shared = _shared_text(texts, from_end)
            if shared:
                common.append(_cut(seg, len(seg.value.text) - len(shared), len(seg.value.text)) if from_end else _cut(seg, 0, len(shared)))
        break
    return tuple(common)


def _after(word: Word, head: tuple[Seg, ...]) -> Word:
    """What ``word`` holds after ``head``, pieces it begins with of which the
    last may be the start of a known piece of ``word`` (:func:`_cut`): the
    rest of that piece comes first (skipped, `--model abc` after a shared
    `--model ab` looked like a word's end)."""
    if not head:
        return word
    last = len(head) - 1
    piece = word[last]
    if piece.value == head[last].value:
        return word[last + 1 :]
    return (_cut(piece, len(head[last].value.text), len(piece.value.text)), *word[last + 1 :])


def _before(word: Word, tail: tuple[Seg, ...]) -> Word:
    """What ``word`` holds before ``tail`` (as :func:`_after`, from the end)."""
    if not tail:
        return word
    first = len(word) - len(tail)
    piece = word[first]
    if piece.value == tail[0].value:
        return word[:first]
    return (*word[:first], _cut(piece, 0, len(piece.value.text) - len(tail[0].value.text)))


def _shared_text(texts: list[str], from_end: bool) -> str:
    if from_end:
        return os.path.commonprefix([text[::-1] for text in texts])[::-1]
    return os.path.commonprefix(texts)


def _cut(seg: Seg, start: int, end: int) -> Seg:
    chars = seg.chars[start:end] if seg.chars and len(seg.chars) == len(seg.value.text) else None
    return Seg(Value.known(seg.value.text[start:end]), seg.loc, seg.split, seg.quoted, chars, seg.origin)


def _to_blank(common: tuple[Seg, ...], rests: list[Word], at_end: bool) -> tuple[Seg, ...]:
    """``common`` cut back to a word's edge: it ends (``at_end``; else
    begins) with a blank, or every way's rest is empty or begins (ends) with
    one there. Nothing when it has no blank to cut at."""
    if not common:
        return common

    def blank_next_to(rest: Word) -> bool:
        if not rest:
            return True
        seg = rest[0] if at_end else rest[-1]
        if not seg.value.is_known or not seg.value.text:
            return False
        return (seg.value.text[0] if at_end else seg.value.text[-1]) in IFS_WHITESPACE

    edge = common[-1] if at_end else common[0]
    if edge.value.is_known and edge.value.text and (edge.value.text[-1] if at_end else edge.value.text[0]) in IFS_WHITESPACE:
        return common
    if all(blank_next_to(rest) for rest in rests):
        return common
    pieces = list(common) if at_end else list(reversed(common))
    while pieces:
        seg = pieces.pop()
        text = seg.value.text if seg.value.is_known else ""
        blanks = [index for index, char in enumerate(text) if char in IFS_WHITESPACE]
        if blanks:
            if at_end:
                pieces.append(_cut(seg, 0, blanks[-1] + 1))
            else:
                pieces.append(_cut(seg, blanks[0], len(text)))
            break
    return tuple(pieces) if at_end else tuple(reversed(pieces))


def _merge_arrays(arrays: list[list[Word]], name: str) -> list[Word]:
    """An array after branches (or a loop's rounds) that left it with
    different words: word by word when they have as many (each word one of
    its texts), else the words they all begin and end with, and between them
    any number of words we cannot see. `ARGS+=(--decode "$URL")` in a loop
    over the decode servers keeps the router's `--pd-disaggregation` and
    `--prefill` before it; as one unknown the router was no PD router.
    (sources/python_interpreter.py ``_merge_items`` does the same for
    Python's lists.)"""
    first = arrays[0]
    if all(len(words) == len(first) for words in arrays):
        return [_merge_words([words[index] for words in arrays], name) for index in range(len(first))]
    texts = [[(word_value(word), _held_of(word)) for word in words] for words in arrays]
    shortest = min(map(len, texts))
    head = 0
    while head < shortest and all(values[head] == texts[0][head] for values in texts):
        head += 1
    tail = 0
    while tail < shortest - head and all(values[-1 - tail] == texts[0][-1 - tail] for values in texts):
        tail += 1
    where = next((seg.loc for words in arrays for word in words for seg in word), NOWHERE)
    held = held_words([words[head : len(words) - tail] for words in arrays])
    middle = spread_word(Value.unknown(f"words of ${{{name}[@]}} that differ between branches"), where, held)
    return [*first[:head], middle, *(first[len(first) - tail :] if tail else ())]


def _merge_words(words: list[Word], name: str) -> Word:
    """One word of an array after branches: itself when they agree, else one
    of its texts (a merge of branches, as :func:`merge_vars` makes)."""
    if all(word_value(word) == word_value(words[0]) and _held_of(word) == _held_of(words[0]) for word in words[1:]):
        return words[0]
    where = next((seg.loc for word in words for seg in word), NOWHERE)
    if any(is_spread_word(word) for word in words):
        return spread_word(Value.unknown(f"words of ${{{name}[@]}} that differ between branches"), where)
    values = [word_value(word) for word in words]
    if any(value.uses_default for value in values):
        return (Seg(Value.unknown(f"a word of ${{{name}[@]}} that differs between branches"), where),)
    return (Seg(Value.one_of(values), where),)


def strict_texts(value: Value) -> set[str] | None:
    """The texts a value can be when the file itself decides it (known pieces and
    alternatives of known pieces); None as soon as a symbol or an unknown is in it."""
    if value.kind is Kind.KNOWN:
        return {value.text}
    if value.kind is Kind.ALTERNATIVES:
        return set(value.alternatives)
    if value.kind is Kind.CONCAT:
        texts = {""}
        for part in value.parts:
            piece = strict_texts(part)
            if piece is None or len(texts) * len(piece) > 64:
                return None
            texts = {a + b for a in texts for b in piece}
        return texts
    return None


def split_fields(segs: list[Seg]) -> list[Word]:
    """Bash field splitting: unquoted expansions split at IFS whitespace; empty
    unquoted expansions vanish; quoted empty strings stay."""
    fields: list[list[Seg]] = [[]]
    for seg in segs:
        if isinstance(seg, _SpreadSeg):
            fields.append([seg])
            fields.append([])
            continue
        if isinstance(seg, _WordsSeg) and seg.split:
            fields.append([_SpreadSeg(seg.value, seg.loc, origin=seg.origin, held=seg.held)])
            fields.append([])
            continue
        if seg.split and seg.value.kind is Kind.SYMBOL and seg.value.default is not None and any(c in IFS_WHITESPACE for c in seg.value.default):
            seg = _DefaultWordsSeg(seg.value, seg.loc, seg.split, seg.quoted, seg.chars, seg.origin)
        if seg.split and seg.value.is_known:
            text_value = seg.value.text
            index = 0
            length = len(text_value)
            while index < length:
                if text_value[index] in IFS_WHITESPACE:
                    while index < length and text_value[index] in IFS_WHITESPACE:
                        index += 1
                    fields.append([])
                    continue
                end = index
                while end < length and text_value[end] not in IFS_WHITESPACE:
                    end += 1
                chars = seg.chars[index:end] if seg.chars and len(seg.chars) == length else None
                fields[-1].append(Seg(Value.known(text_value[index:end]), seg.loc, True, False, chars, seg.origin))
                index = end
            continue
        if seg.split and seg.value.kind is Kind.ALTERNATIVES and any(
            any(c in IFS_WHITESPACE for c in alt) for alt in seg.value.alternatives
        ):
            if all(other is seg or (other.value.is_known and not other.value.text) for other in segs):
                # The whole word (`$BASE_CONFIG`, one of several option strings
                # by the branch taken): the words of one of them (ArgToken.held).
                held = tuple(tuple(map(Value.known, alt.split())) for alt in seg.value.alternatives)
                fields.append([_SpreadSeg(Value.unknown("one of several texts with different numbers of words"), seg.loc, origin=seg.origin, held=held)])
                fields.append([])
                continue
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


def is_identifier(name: str) -> bool:
    return bool(name) and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name) and name.isascii()


def is_spread_word(word: Word) -> bool:
    return len(word) == 1 and isinstance(word[0], _SpreadSeg)


def positional_key(words: list[Word] | None) -> tuple[Value, ...] | None:
    return None if words is None else tuple(word_value(w) for w in words)


def same_words(a: Var | None, b: Var | None) -> bool:
    """The same words, wherever they were assigned: branches that set a variable
    to the same value make no launch variants."""
    if _same_var(a, b):
        return True
    if a is None or b is None or a.is_array != b.is_array:
        return False
    if a.is_array:
        return a.array is not None and b.array is not None and [word_value(w) for w in a.array] == [word_value(w) for w in b.array]
    return word_value(a.scalar or ()) == word_value(b.scalar or ())


def _same_var(a: Var | None, b: Var | None) -> bool:
    if a is b:
        return True  # a variable no branch touched: the same object in every snapshot
    if a is None or b is None:
        return False
    if a.is_array != b.is_array:
        return False
    if a.is_array:
        if a.table is not None or b.table is not None:
            return a.table == b.table
        if a.array is None or b.array is None:
            return a.array is b.array
        return [word_value(w) for w in a.array] == [word_value(w) for w in b.array] and list(map(_held_of, a.array)) == list(map(_held_of, b.array))
    return word_value(a.scalar or ()) == word_value(b.scalar or ()) and a.defined_at == b.defined_at and _held_of(a.scalar or ()) == _held_of(b.scalar or ())


def _held_of(word: Word) -> tuple:
    """The ways the merges in ``word`` hold (words of the same value may hold
    different ones: a merge's value names only the variable)."""
    return tuple(seg.held for seg in word if isinstance(seg, (_SpreadSeg, _WordsSeg)))


NOWHERE = Location("", 0, 0)


# The name the other modules of the shell source and other sources that build
# words (Python argv lists, command strings) use.
SpreadSeg = _SpreadSeg
# A string's words we cannot see (what a command whose output we cannot see
# printed into the output `$(...)` captures: shell_walk).
WordsSeg = _WordsSeg
