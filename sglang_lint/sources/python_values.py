"""What the Python source's abstract interpreter knows about a value.

Strings are shell :data:`~sglang_lint.sources.shell_words.Word` s - pieces that each
carry a :class:`~sglang_lint.model.Value`, the location where they appear and the
file position of every character written literally - so that a string built in
Python (``f"--tp={tp}"``, ``" ".join(cmd)``) keeps exact positions all the way to a
finding, and can be handed to the shell source as a command string.

Lists, dicts, objects and classes live in a heap (``ref`` -> contents) so that a
list mutated through another name (``cmd.extend(...)`` in a helper) is the same
list, and so that the heap can be forked for the two branches of an ``if`` and
merged afterwards. Contents are immutable tuples, or dicts copied on fork.

The string operations here (``str.format``, ``%``, ``join``, ``split``,
``shlex.split``) never guess: a piece they cannot see stays a piece of unknown
value, never made-up text.

After the values come the operations on them that the interpreter
(:mod:`sglang_lint.sources.python_interpreter`) and the launch recognisers
(:mod:`sglang_lint.sources.python_launches`) share: words, format strings,
scalars, and the items of a list after an edit.
"""

from __future__ import annotations

from typing import Any, Iterable

from msgspec import Struct

from sglang_lint.model import Kind, Location, Value
from sglang_lint.sources.shell_words import Seg, SpreadSeg, Word

# Longest string the interpreter builds; longer results are unknown (`"x" * 10**9`).
MAX_STRING = 100_000
# Longest list built by repetition or comprehension.
MAX_ITEMS = 10_000


class PyValue(Struct, frozen=True):
    """Base of every abstract value."""



class PStr(PyValue, frozen=True, eq=False):
    word: Word
    loc: Location

    @property
    def value(self) -> Value:
        return word_value(self.word)


class PNum(PyValue, frozen=True):
    """A known int, float or bool; ``origin`` is where the literal was written."""

    number: int | float | bool
    loc: Location
    origin: Location | None = None


class PNone(PyValue, frozen=True):
    loc: Location


class PUnknown(PyValue, frozen=True):
    """A value we cannot see. ``value`` is a symbol (``$TP``, a parameter) or
    unknown with a reason; used as a string it is one piece of that value, used as
    a list it is any number of unknown items."""

    value: Value
    loc: Location
    origin: Location | None = None
    # What the environment alone decides about it, the same wherever the same
    # computation is made: ``subject``, an environment variable through case
    # and whitespace changes (``os.getenv("X", "false").lower()``: the subject
    # of path decisions over it); ``condition``, a truth over one (``value in
    # ("true", "1")``): the decision's key and texts, and whether the value is
    # its negation. Two branches over ``is_in_ci()`` are then one decision of
    # the run, not one per place (issue 24: SGLang's PD fixture had 28 paths,
    # most of them in CI at one branch and not at the next).
    subject: str | None = None
    condition: tuple[str, tuple[str, str], bool] | None = None
    # A name bound to a different imported function on each way of a branch
    # (`if is_in_ci(): from patch import launch_server_cmd / else: from
    # sglang.utils import launch_server_cmd`): their qualified names.
    callees: tuple[str, ...] = ()


class PSpread(PyValue, frozen=True):
    """Inside list contents: any number of items we cannot see (``held``: for
    one a merge of branches made, the words of the items each way had there;
    ArgToken.held)."""

    value: Value
    loc: Location
    held: tuple[tuple[Value, ...], ...] | None = None


class PList(PyValue, frozen=True):
    ref: int
    loc: Location
    kind: str = "list"  # list | tuple | set


class PDict(PyValue, frozen=True):
    ref: int
    loc: Location


class DictContents(Struct, frozen=True):
    entries: tuple[tuple[PyValue, PyValue], ...]
    # Set when the dict may hold keys we cannot see (``**unknown``).
    open: Value | None = None


class PClass(PyValue, frozen=True):
    ref: int  # heap dict of class attributes
    name: str
    bases: tuple[PyValue, ...]
    loc: Location
    node: Any = None


class PObject(PyValue, frozen=True):
    ref: int  # heap dict of instance attributes
    cls: PClass | None
    loc: Location


class PFunc(PyValue, frozen=True):
    node: Any  # ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
    scopes: tuple[int, ...]  # enclosing function scopes, innermost first
    name: str
    kind: str = "function"  # function | classmethod | staticmethod | property
    owner: PClass | None = None  # the class whose body defined it (for super())
    bound: PyValue | None = None  # self / cls once looked up through one
    # The module of the project it was defined in when not the analyzed file
    # (python_interpreter.Module): its globals and its file's positions.
    module: Any = None


class PImported(PyValue, frozen=True):
    """A name an import binds, before it is used (issue 19): the module of the
    project is read when the name is first looked up, not at the import.
    ``name`` is the name imported from ``module`` ("" for the module itself;
    ``dotted``: the ``a.b.c`` of ``import a.b.c`` binding ``a``)."""

    importer: str
    module: str
    level: int
    name: str
    qualname: str
    loc: Location
    dotted: str = ""


class PModule(PyValue, frozen=True):
    """A module of the project, read for its definitions (issue 19): ``ref`` is
    its globals' heap dict; names it does not define are ``qualname.name``."""

    ref: int
    qualname: str
    loc: Location


class PExternal(PyValue, frozen=True):
    """Something imported, by qualified name (``subprocess.Popen``)."""

    qualname: str
    loc: Location


class PBuiltin(PyValue, frozen=True):
    name: str


class PMethod(PyValue, frozen=True):
    """A method of a built-in value (``" ".join``, ``cmd.append``)."""

    receiver: PyValue
    name: str


class PSuper(PyValue, frozen=True):
    cls: PClass
    receiver: PyValue


# ---------------------------------------------------------------------------------
# Words


def word_value(word: Word) -> Value:
    if any(isinstance(seg, SpreadSeg) for seg in word):
        return Value.unknown("a list we cannot see in a string")
    return Value.concat(seg.value for seg in word)


def known_seg(text: str, loc: Location, chars=None, origin: Location | None = None) -> Seg:
    return Seg(Value.known(text), loc, chars=chars if chars is not None and len(chars) == len(text) else None, origin=origin)


def relocate(word: Word, use: Location) -> Word:
    """A stored string used at ``use``: each piece keeps where its text was written
    (``origin``) and now appears at ``use``."""
    return tuple(
        type(seg)(seg.value, use, chars=seg.chars, origin=seg.origin or seg.loc)
        for seg in word
    )


def word_length_ok(word: Word) -> bool:
    """At most MAX_STRING characters of known text, in at most MAX_ITEMS pieces
    (`s = f"{s}{s}"` on a string we cannot see doubles its pieces, not its text)."""
    return len(word) <= MAX_ITEMS and sum(len(seg.value.text) for seg in word if seg.value.is_known) <= MAX_STRING


def literal_text(word: Word) -> str | None:
    """The whole text when every piece is known."""
    if all(seg.value.is_known and not isinstance(seg, SpreadSeg) for seg in word):
        return "".join(seg.value.text for seg in word)
    return None


class _Chars:
    """A word as a sequence of characters (known text) and opaque pieces, each
    character with its piece and its position, for scanners that work per
    character (format strings, splitting)."""

    def __init__(self, word: Word) -> None:
        # items: (char or None, seg, index in seg's text)
        self.items: list[tuple[str | None, Seg, int]] = []
        for seg in word:
            if seg.value.is_known and not isinstance(seg, SpreadSeg):
                for index, char in enumerate(seg.value.text):
                    self.items.append((char, seg, index))
            else:
                self.items.append((None, seg, 0))


def _piece(seg: Seg, start: int, end: int) -> Seg:
    """Characters ``start:end`` of a known piece, keeping their positions. A piece
    of text written right here (no ``origin``) is located at its characters: the
    ``--tp`` inside ``"python -m ... --tp 8"``, not the whole literal."""
    text = seg.value.text[start:end]
    chars = seg.chars[start:end] if seg.chars and len(seg.chars) == len(seg.value.text) else None
    loc = seg.loc
    if chars and seg.origin is None and (start, end) != (0, len(seg.value.text)):
        first, last = chars[0], chars[-1]
        loc = Location(seg.loc.path, first[0], first[1], last[0], last[1] + 1)
    return type(seg)(Value.known(text), loc, chars=chars, origin=seg.origin)


def _collect(items: list[tuple[str | None, Seg, int]]) -> Word:
    """Rebuild pieces from a run of characters (consecutive characters of one
    piece stay one piece with their positions)."""
    out: list[Seg] = []
    run_seg: Seg | None = None
    run_start = run_end = 0
    run_text: list[str] = []

    def flush() -> None:
        nonlocal run_seg
        if run_seg is not None:
            if "".join(run_text) == run_seg.value.text[run_start:run_end]:
                out.append(_piece(run_seg, run_start, run_end))
            else:
                out.append(known_seg("".join(run_text), run_seg.loc, origin=run_seg.origin))
            run_seg = None

    for char, seg, index in items:
        if char is None:
            flush()
            out.append(seg)
            continue
        if run_seg is seg and index == run_end:
            run_end += 1
            run_text.append(char)
            continue
        flush()
        run_seg, run_start, run_end, run_text = seg, index, index + 1, [char]
    flush()
    return tuple(out)


def split_word(word: Word, separator: str | None, maxsplit: int = -1) -> list[Word]:
    """``str.split``: by ``separator``, or by runs of whitespace when None. An
    opaque piece may hold the separator itself; it is taken as the shell
    source takes an unquoted ``$(cmd)``: part of the field it stands in (a
    symbol such as a host name holds no ``:``, a path no blank), and, when it
    is a whole field of a whitespace split, one that may be any number of
    fields (``f"... --tp 4 {extra}".split()``: the extra options). Before, a
    whitespace split of any opaque piece was unknown as a whole, and
    ``subprocess.run(f"python -m sglang.launch_server --model-path {path}
    ...".split())`` was a launch not analyzed (SWE-smith's Modal server)."""
    chars = _Chars(word).items
    fields: list[list] = [[]]
    index = 0
    splits = 0
    while index < len(chars):
        char = chars[index][0]
        if maxsplit < 0 or splits < maxsplit:
            if separator is None and char is not None and char.isspace():
                while index < len(chars) and chars[index][0] is not None and chars[index][0].isspace():
                    index += 1
                if fields[-1]:
                    fields.append([])
                    splits += 1
                continue
            if separator and char is not None and _matches(chars, index, separator):
                fields.append([])
                splits += 1
                index += len(separator)
                continue
        fields[-1].append(chars[index])
        index += 1
    if separator is None:
        fields = [f for f in fields if f]
        return [_whole_field(_collect(f)) for f in fields]
    return [_collect(f) for f in fields]


def _whole_field(field: Word) -> Word:
    """A whitespace split's field that is one opaque piece, not an environment
    variable's value (a parameter, a value we cannot see): any number of
    fields, as the shell's unquoted expansion (the CPython oracle's
    environment values are single words, as the tests that set them are)."""
    value = field[0].value if len(field) == 1 else None
    if value is not None and (value.kind is Kind.UNKNOWN or (value.kind is Kind.SYMBOL and not value.name.startswith("$"))) and not field[0].split:
        seg = field[0]
        return (Seg(seg.value, seg.loc, split=True, quoted=seg.quoted, chars=seg.chars, origin=seg.origin),)
    return field


def _matches(chars, index: int, text: str) -> bool:
    if index + len(text) > len(chars):
        return False
    return all(chars[index + k][0] == text[k] for k in range(len(text)))


def shlex_split(word: Word) -> list[Word] | None:
    """``shlex.split(s)`` (POSIX mode, no comments): quotes, backslash escapes and
    whitespace. An opaque piece is part of the word it stands in (like an unquoted
    ``$TP`` in the shell source); None when the quoting is broken (shlex raises)."""
    items = _Chars(word).items
    words: list[list] = []
    current: list | None = None
    quote: str | None = None
    index = 0
    while index < len(items):
        char, seg, position = items[index]
        index += 1
        if char is None:
            if current is None:
                current = []
            current.append((char, seg, position))
            continue
        if quote is None:
            if char in " \t\r\n":
                if current is not None:
                    words.append(current)
                    current = None
                continue
            if current is None:
                current = []
            if char in "'\"":
                quote = char
                continue
            if char == "\\":
                if index >= len(items):
                    return None
                escaped = items[index]
                index += 1
                current.append(escaped)
                continue
            current.append((char, seg, position))
            continue
        if char == quote:
            quote = None
            continue
        if quote == '"' and char == "\\" and index < len(items) and items[index][0] in ('"', "\\"):
            current.append(items[index])  # type: ignore[union-attr]
            index += 1
            continue
        current.append((char, seg, position))  # type: ignore[union-attr]
    if quote is not None:
        return None
    if current is not None:
        words.append(current)
    return [_collect(w) if w else (known_seg("", items[0][1].loc),) for w in words]


def join_words(separator: Word, parts: list[Word]) -> Word:
    """The parts with the separator between them; once past MAX_ITEMS pieces the
    rest is left out (the result then fails word_length_ok: joining 10,000 items
    of 10,000 pieces each would build 10**8)."""
    out: list[Seg] = []
    for index, part in enumerate(parts):
        if index:
            out.extend(separator)
        out.extend(part)
        if len(out) > MAX_ITEMS:
            break
    return tuple(out)


# ---------------------------------------------------------------------------------
# Format strings: str.format and %


class FormatError(Exception):
    """The format string cannot be evaluated statically (or Python would raise)."""


def parse_format(word: Word) -> list[tuple[str, Any]]:
    """``str.format`` template -> [("text", items) | ("field", (name, conversion,
    spec))]. Only known text can be a template: an opaque piece is kept as text."""
    items = _Chars(word).items
    out: list[tuple[str, Any]] = []
    text: list = []
    index = 0
    while index < len(items):
        char = items[index][0]
        if char == "{":
            if index + 1 < len(items) and items[index + 1][0] == "{":
                text.append(items[index])
                index += 2
                continue
            end = index + 1
            depth = 1
            while end < len(items):
                c = items[end][0]
                if c is None:
                    raise FormatError("a replacement field holds a value we cannot see")
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if depth == 0:
                        break
                end += 1
            else:
                raise FormatError("unclosed replacement field")
            field = "".join(items[k][0] for k in range(index + 1, end))  # type: ignore[misc]
            if text:
                out.append(("text", text))
                text = []
            out.append(("field", _split_field(field)))
            index = end + 1
            continue
        if char == "}":
            if index + 1 < len(items) and items[index + 1][0] == "}":
                text.append(items[index])
                index += 2
                continue
            raise FormatError("single '}'")
        text.append(items[index])
        index += 1
    if text:
        out.append(("text", text))
    return out


def _split_field(field: str) -> tuple[str, str | None, str]:
    spec = ""
    conversion = None
    name = field
    if ":" in name:
        name, spec = name.split(":", 1)
    if "!" in name:
        name, conversion = name.split("!", 1)
    return name, conversion, spec


def collect_text(items: list) -> Word:
    return _collect(items)


def format_percent_specs(word: Word) -> list[tuple[str, Any]]:
    """``%``-format template -> [("text", items) | ("spec", (key, flags, type))]."""
    items = _Chars(word).items
    out: list[tuple[str, Any]] = []
    text: list = []
    index = 0
    while index < len(items):
        char = items[index][0]
        if char != "%":
            text.append(items[index])
            index += 1
            continue
        index += 1
        if index < len(items) and items[index][0] == "%":
            text.append(items[index])
            index += 1
            continue
        key = None
        if index < len(items) and items[index][0] == "(":
            end = index + 1
            while end < len(items) and items[end][0] not in (")", None):
                end += 1
            if end >= len(items) or items[end][0] is None:
                raise FormatError("bad mapping key")
            key = "".join(items[k][0] for k in range(index + 1, end))  # type: ignore[misc]
            index = end + 1
        flags = []
        while index < len(items) and items[index][0] is not None and items[index][0] in "#0- +*.0123456789":
            flags.append(items[index][0])
            index += 1
        if index >= len(items) or items[index][0] is None:
            raise FormatError("incomplete format")
        conversion = items[index][0]
        index += 1
        if text:
            out.append(("text", text))
            text = []
        out.append(("spec", (key, "".join(flags), conversion)))  # type: ignore[arg-type]
    if text:
        out.append(("text", text))
    return out


# ---------------------------------------------------------------------------------
# Words: where their text was written


def origin_of_word(word: Word) -> Location | None:
    for seg in word:
        if seg.origin is not None:
            return seg.origin
    return None


def as_written(word: Word) -> Word:
    """A command string's pieces located where their text was written rather than
    where the string is used: its words (``python3``, ``--tp``) are read from
    the literal, like the items of an argv list, which keep their places too."""
    out = []
    for seg in word:
        if seg.origin is not None and seg.chars and seg.value.is_known and len(seg.chars) == len(seg.value.text):
            first, last = seg.chars[0], seg.chars[-1]
            loc = Location(seg.loc.path, first[0], first[1], last[0], last[1] + 1)
            out.append(type(seg)(seg.value, loc, chars=seg.chars))
        else:
            out.append(seg)
    return tuple(out)


def sub_chars(word: Word, start: int, length: int) -> tuple | None:
    positions: list = []
    for seg in word:
        if not seg.chars or len(seg.chars) != len(seg.value.text):
            return None
        positions.extend(seg.chars)
    return tuple(positions[start : start + length])


# ---------------------------------------------------------------------------------
# Scalars: locations, equality, keys, the Python value of a known scalar


def loc_of(value: Any) -> Location | None:
    return getattr(value, "loc", None)


def first_loc(items: tuple) -> Location | None:
    for item in items:
        loc = loc_of(item)
        if loc is not None:
            return loc
    return None


def same_value(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if isinstance(a, PStr) and isinstance(b, PStr):
        return a.word == b.word
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - comparing analysis values never matters enough to fail
        return False


def same_text(a: Any, b: Any) -> bool:
    """Equal as argv items: the same text, wherever each was written (the
    branches of an ``if`` often spell the same option twice). One value in both
    (an item the branches did not touch: a port only a path decides, a spread
    of the caller's arguments) is the same on every path, seen or not; that it
    was not kept cost the items after it (SGLang's Ascend router: everything
    after `--port` became items that differ between branches)."""
    if a is b:
        return True
    if isinstance(a, PStr) and isinstance(b, PStr):
        return a.value == b.value and a.value.is_known
    if isinstance(a, PNum) and isinstance(b, PNum):
        return a.number == b.number and type(a.number) is type(b.number)
    return same_value(a, b)


def scalar_key(value: Any) -> tuple | None:
    """A comparable key for known scalars (dict keys, ``==``, ``in``)."""
    if isinstance(value, PStr):
        text = literal_text(value.word)
        return ("s", text) if text is not None else None
    if isinstance(value, PNum):
        return ("n", value.number)
    if isinstance(value, PNone):
        return ("none",)
    return None


def unique_keys(entries: tuple) -> list:
    return unique_items(key for key, _ in entries)


def unique_items(items: Iterable[Any]) -> list:
    """Each known scalar once, in the order first met (a dict's keys, a set's
    items: ``{1, 1.0, True}`` is one, as for CPython); values we cannot see may
    equal others, and are kept."""
    seen: dict = {}
    for item in items:
        marker = scalar_key(item)
        if marker is None:
            seen[id(item)] = item
        elif marker not in seen:
            seen[marker] = item
    return list(seen.values())


def known_int(value: Any) -> int | None:
    if isinstance(value, PNum) and isinstance(value.number, int) and not isinstance(value.number, bool):
        return value.number
    return None


def known_text(value: Any) -> str | None:
    if isinstance(value, PStr):
        return literal_text(value.word)
    return None


def is_none(value: Any) -> bool | None:
    if isinstance(value, PNone):
        return True
    if isinstance(value, (PStr, PNum, PList, PDict, PFunc, PClass, PObject)):
        return False
    return None


def num_text(number: int | float | bool) -> str:
    return str(number)


# What is not there: a heap slot not set, a value that is not a Python scalar.
MISSING = object()


def python_scalar(value: Any) -> Any:
    if isinstance(value, PNum):
        return value.number
    if isinstance(value, PNone):
        return None
    if isinstance(value, PStr):
        text = literal_text(value.word)
        return text if text is not None else MISSING
    return MISSING


def spec_too_wide(spec: str) -> bool:
    digits = "".join(c if c.isdigit() else " " for c in spec).split()
    return any(len(d) > 4 for d in digits)


# ---------------------------------------------------------------------------------
# Lists: the items after an edit (around items we cannot see) and their bound


def list_changed(name: str, items: list, args: list, loc: Location) -> tuple[list, PyValue | None] | None:
    """(the items after, what it returns) of ``.pop([i])`` / ``.remove(x)`` /
    ``.clear()`` / ``.reverse()``; None when we cannot say. Around a spread
    (items we cannot count) the seen items before it stay, and those an index
    from the end still reaches."""
    spreads = [position for position, item in enumerate(items) if isinstance(item, PSpread)]
    first = spreads[0] if spreads else len(items)
    rest = PSpread(Value.unknown(f"a list changed by .{name}()"), loc)
    if name == "clear" and not args:
        return [], None
    if name == "reverse" and not args:
        return (items[::-1], None) if not spreads else None
    if name == "pop" and len(args) <= 1:
        index = known_int(args[0]) if args else -1
        if index is None:
            return None
        if 0 <= index < first or (index < 0 and -index <= len(items) - 1 - (spreads[-1] if spreads else -1)):
            popped = items.pop(index)
            return items, popped
        if index >= first:
            return items[:first] + [rest], PUnknown(Value.unknown("an item .pop() took from where we cannot see"), loc)
        return None
    if name == "remove" and len(args) == 1:
        wanted = scalar_key(args[0])
        if wanted is None:
            return None
        for position, item in enumerate(items):
            key = scalar_key(item)
            if key == wanted:
                return items[:position] + items[position + 1 :], None
            if key is None:
                # It may be this one: what comes before stays.
                return items[:position] + [rest], None
        return None
    return None


def items_without(items: tuple, where: int | slice, loc: Location) -> tuple | None:
    """``items`` after ``del items[where]``; None when we cannot say. Around a
    spread, an index before it or one from the end that reaches only the seen
    tail is exact; otherwise the seen items before what may be deleted stay."""
    spreads = [position for position, item in enumerate(items) if isinstance(item, PSpread)]
    updated = list(items)
    if not spreads:
        try:
            del updated[where]
        except IndexError:
            return None
        return tuple(updated)
    if isinstance(where, int):
        changed = list_changed("pop", updated, [PNum(where, loc)], loc)
        return tuple(changed[0]) if changed is not None else None
    first, tail = spreads[0], len(items) - 1 - spreads[-1]
    start, stop = where.start, where.stop
    if where.step in (None, 1):
        if (start is None or start >= 0) and stop is not None and 0 <= stop <= first:
            del updated[where]
            return tuple(updated)
        if start is not None and -tail <= start < 0 and (stop is None or start <= stop < 0):
            del updated[where]
            return tuple(updated)
    seen = len(items) - len(spreads)  # the list has at least these many items
    low = 0 if start is None else (min(first, start) if start >= 0 else min(first, max(0, seen + start)))
    return (*items[:low], PSpread(Value.unknown("a list items were deleted from"), loc))


def items_inserted(items: tuple, index: int | None, item: PyValue, loc: Location) -> tuple:
    """``items`` after ``.insert(index, item)``. Around a spread (items we cannot
    count), the seen items before a non-negative index, or after a negative one,
    still say where it goes; past them, the items before the first spread stay."""
    spread = [position for position, existing in enumerate(items) if isinstance(existing, PSpread)]
    if index is not None:
        if not spread:
            updated = list(items)
            updated.insert(index, item)
            return tuple(updated)
        if 0 <= index <= spread[0]:
            return (*items[:index], item, *items[index:])
        if index < 0 and -index <= len(items) - 1 - spread[-1]:
            return (*items[:index], item, *items[index:])
        if index > spread[0]:
            return (*items[: spread[0]], PSpread(Value.unknown("an item inserted where we cannot see"), loc))
    return (PSpread(Value.unknown("an item inserted where we cannot see"), loc),)


def bounded_items(items: tuple[PyValue, ...], loc: Location) -> tuple[PyValue, ...]:
    """A list's items, or one unknown spread for a list longer than MAX_ITEMS:
    `cmd = cmd + cmd` (or `cmd += cmd`, `cmd.extend(cmd)`, `[*cmd, *cmd]`) doubles
    a list on every line, and twenty such lines took 21 s."""
    if len(items) <= MAX_ITEMS:
        return items
    return (PSpread(Value.unknown(f"a list of more than {MAX_ITEMS} items"), loc),)
