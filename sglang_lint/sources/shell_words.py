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
    """A shell variable: a scalar word or an array of words (None: unknown array)."""

    scalar: Word | None = None
    array: list[Word] | None = None
    is_array: bool = False
    defined_at: Location | None = None


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


class _SpreadSeg(Seg):
    """A piece standing for any number of words we cannot see."""


def spread_word(value: Value, loc: Location) -> Word:
    return (_SpreadSeg(value, loc),)


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
    values = []
    for option in options:
        if option is None or option.is_array:
            return Var(scalar=(Seg(Value.unknown(f"${name} differs between branches"), NOWHERE),))
        values.append(word_value(option.scalar or ()))
    if any(value.uses_default for value in values):
        # `${X:-d}` counts as d alone, not merged with other branches' values:
        # the launch variants give it exactly.
        return Var(scalar=(Seg(Value.unknown(f"${name} differs between branches"), NOWHERE),))
    merged = Value.one_of(values)
    return Var(scalar=(Seg(merged, NOWHERE),))


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
        if a.array is None or b.array is None:
            return a.array is b.array
        return [word_value(w) for w in a.array] == [word_value(w) for w in b.array]
    return word_value(a.scalar or ()) == word_value(b.scalar or ()) and a.defined_at == b.defined_at


NOWHERE = Location("", 0, 0)


# The name the other modules of the shell source and other sources that build
# words (Python argv lists, command strings) use.
SpreadSeg = _SpreadSeg
