"""A module other files import, parsed one top-level definition at a time
(issues 20 and 24).

A file is analyzed with the modules of the project it imports, and those are
read for the few definitions it uses: a test reads ``DEFAULT_URL_FOR_TEST`` and
``popen_launch_server`` from SGLang's 5,000-line test helpers. Parsing whole
modules was a quarter of the time on SGLang's own tree (21 MB of source parsed
for ~143 files) and most of each worker's memory (a tree takes ~25 bytes per
character of source), while three quarters of that source are function and
class bodies no analysis runs.

An outline splits a module's text at its top-level ``def``/``class``
statements (decorators included), found by a lexer that knows strings and
comments and nothing else. Everything else (imports, assignments, ``if`` and
``try`` blocks) is parsed at once, in one pass over the text with the
definitions blanked out, so positions are the file's. A definition is parsed
when its statement first runs.

The split is checked by the parser itself, never trusted: a top-level line
that continues a bracket (``@`` at column 0 is also matrix multiplication)
makes the eager pass or a definition's own parse fail, and then the whole
module is parsed once and its statements are dealt to the units by the lines
they start on. A definition's names are read from its header, and from every
header line in its text (a string the lexer misread can only add a name that
binds nothing when its unit runs, never hide one).
"""

from __future__ import annotations

import ast
import re
import unicodedata
import warnings
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
_UNSET = object()


class ModuleOutline:
    """The top-level statements of one module, as units in source order: an
    eagerly parsed statement, or a ``def``/``class`` (with its decorators) parsed
    when first asked for. ``binders`` maps each name a unit binds at the top
    level to the units' indices, in order (``*``: star imports)."""

    __slots__ = ("text", "path", "_units", "_statements", "binders", "parsed_chars", "_whole", "_unparsable", "_derived", "_lines", "all_ascii", "ascii_lines")

    def __init__(self, text: str, path: str, units: list[tuple[int, int, int, tuple[str, ...], bool]], statements: list[list[ast.stmt] | None]) -> None:
        self.text = text
        self.path = path
        # Per unit: (start offset, end offset, first line, names its headers
        # bind, whether it is a function rather than a class); eager units have
        # their statements already.
        self._units = units
        self._statements = statements
        self._whole: list[ast.stmt] | None = None  # the whole module's statements, once a split failed
        self._unparsable: set[int] = set()  # units whose text is not valid Python
        self._derived: dict[tuple[int, Callable[[Any], Any]], Any] = {}
        # The text's lines and whether they are ASCII (positions: columns are
        # UTF-8 bytes in the tree, characters in a finding), for every run.
        self._lines: list[str] | None = None
        self.all_ascii = text.isascii()
        self.ascii_lines: dict[int, bool] = {}
        # How much of the text is parsed: what the parse cache weighs it by.
        self.parsed_chars = len(text) - sum(end - start for (start, end, *_), parsed in zip(units, statements) if parsed is None)
        binders: dict[str, list[int]] = {}
        for index, (unit, parsed) in enumerate(zip(units, statements)):
            names = unit[3] if parsed is None else tuple(name for statement in parsed for name in bound_names(statement))
            for name in dict.fromkeys(names):
                binders.setdefault(name, []).append(index)
        self.binders: dict[str, tuple[int, ...]] = {name: tuple(indices) for name, indices in binders.items()}

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.split("\n")
        return self._lines

    def __len__(self) -> int:
        return len(self._units)

    def statements(self, index: int) -> list[ast.stmt]:
        """The statements of unit ``index`` (one, unless the split was off),
        parsed now if they were not."""
        parsed = self._statements[index]
        if parsed is None:
            start, end, line, _, _ = self._units[index]
            try:
                parsed = parse_python("\n" * (line - 1) + self.text[start:end]).body
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                parsed = self._dealt(index)
            self._statements[index] = parsed
            self.parsed_chars += end - start
        return parsed

    def derived(self, index: int, function: Callable[[ast.stmt], T]) -> list[T]:
        """``function`` of each statement of unit ``index``, computed once and
        kept with the outline (kept on the node, a result that names the node
        would make a reference cycle)."""
        key = (index, function)
        known = self._derived.get(key)
        if known is None:
            known = self._derived[key] = [function(statement) for statement in self.statements(index)]
        return known

    def of_top_level(self, function: Callable[["ModuleOutline"], T]) -> T:
        """``function`` of what :meth:`top_level` yields, computed once and
        kept with the outline. A definition parsed since yields what its
        header said (its name), so the answer holds however much is parsed;
        unless a unit's text alone was not valid Python (the whole module's
        parse then deals its statements, which may bind more): computed anew."""
        if self._whole is not None:
            return function(self)
        key = (-1, function)
        known = self._derived.get(key, _UNSET)
        if known is _UNSET:
            known = self._derived[key] = function(self)
        return known

    def unparsable(self, index: int) -> bool:
        """Whether unit ``index`` was parsed and is not valid Python."""
        return index in self._unparsable

    def first_line(self, index: int) -> int:
        return self._units[index][2]

    def top_level(self) -> Iterator[ast.stmt | str]:
        """Each statement parsed so far and, for a definition not parsed yet,
        the function names its header binds, in order."""
        for index, parsed in enumerate(self._statements):
            if parsed is None:
                yield from self.function_names(index)
            else:
                yield from parsed

    def all_statements(self) -> Iterator[ast.stmt]:
        """Every statement of the module, each unit parsed now if it was not."""
        for index in range(len(self._units)):
            yield from self.statements(index)

    def function_names(self, index: int) -> tuple[str, ...]:
        """The names a not yet parsed unit's ``def`` headers bind (a class binds
        no function name)."""
        _, _, _, names, is_function = self._units[index]
        return names if is_function else ()

    def _dealt(self, index: int) -> list[ast.stmt]:
        """The statements of the whole module's parse that start in unit
        ``index``'s lines (its text alone is not valid Python: the split was
        off); none when the module is not valid Python either."""
        if self._whole is None:
            try:
                self._whole = parse_python(self.text).body
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                self._whole = []
        if not self._whole:
            self._unparsable.add(index)
            return []
        first = self._units[index][2]
        following = self._units[index + 1][2] if index + 1 < len(self._units) else None
        return [statement for statement in self._whole if first <= _first_line(statement) and (following is None or _first_line(statement) < following)]


# Strings and comments, whole (so nothing inside them is taken for a line of
# code), and the start of each line whose first character is code. A string
# without its closing quote ends at its line (a single quote) or at the end of
# the text (a triple quote), as the lexer would stop there too. Each string
# pattern is an "unrolled loop" (every repetition starts with a backslash or a
# quote): a loop of alternatives that each take a run of characters can split
# one run in exponentially many ways when the match fails, and an unterminated
# triple-quoted string ending in a backslash took 30 s for 30 characters.
_LEXER = re.compile(
    r"(?P<line>^(?=[^\s#]))"
    r"|#[^\n]*"
    r'|"""[^"\\]*(?:(?:\\.|\\\Z|"(?!""))[^"\\]*)*(?:"""|\Z)'
    r"|'''[^'\\]*(?:(?:\\.|\\\Z|'(?!''))[^'\\]*)*(?:'''|\Z)"
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"?'
    r"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'?",
    re.MULTILINE | re.DOTALL,
)
_DEFINITION = re.compile(r"(?:@|(?:async[ \t]+)?def\b|class\b)")
_HEADER = re.compile(r"^(?:async[ \t]+)?(def|class)[ \t]+(\w+)", re.MULTILINE)
# A line at column 0 that goes on the statement before it.
_CONTINUATION = re.compile(r"(?:[)\]}]|(?:else|elif|except|finally)\b)")


def outline(text: str, path: str = "") -> ModuleOutline | None:
    """The outline of a module's text; None when it is not valid Python."""
    units = _split(text)
    if units is not None:
        eager = _eager_statements(text, units)
        if eager is not None:
            return _merge(text, path, units, eager)
    # The split is not sound here (a form feed or a lone carriage return
    # ending lines, a future import that changes the grammar) or the text is
    # not valid Python: parse it whole, each statement a unit of its own.
    try:
        body = parse_python(text).body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    return ModuleOutline(text, path, [(0, 0, _first_line(statement), (), False) for statement in body], [[statement] for statement in body])


def _split(text: str) -> list[tuple[int, int, int, tuple[str, ...], bool]] | None:
    """The ``def``/``class`` units of ``text``: (start, end, first line, the
    names their headers bind, whether a function); None when lines may end
    otherwise than with a newline (the lexer's lines would not be Python's)."""
    if "\f" in text or "\r" in text.replace("\r\n", "") or "barry_as_FLUFL" in text:
        return None
    starts: list[int] = []
    comment_end = -1
    for match in _LEXER.finditer(text):
        start = match.start()
        if match.lastgroup != "line":
            if text.startswith("#", start):
                comment_end = match.end()
            continue
        # A line after one ending in a backslash (outside a comment) goes on
        # that line: `assert f() == \` then a string at column 0.
        before = start - 2
        if before >= 0 and text[before] == "\r":
            before -= 1
        if before >= 0 and text[before] == "\\" and comment_end != start - 1:
            continue
        starts.append(start)
    units: list[tuple[int, int, int, tuple[str, ...], bool]] = []
    line = 1
    counted = 0  # the offset `line` was counted up to
    open_unit: int | None = None  # the start of the definition being read
    header_seen = False
    for start in starts:
        if _DEFINITION.match(text, start):
            is_decorator = text.startswith("@", start)
            if open_unit is not None and not header_seen:
                # Decorators go on to their def; another def ends nothing here.
                header_seen = not is_decorator
                continue
            if open_unit is not None:
                line += text.count("\n", counted, open_unit)
                counted = open_unit
                units.append(_unit(text, open_unit, start, line))
            open_unit, header_seen = start, not is_decorator
        elif open_unit is not None and not _CONTINUATION.match(text, start):
            if not header_seen:
                open_unit = None  # decorators of nothing: a line of an expression, kept with the code around
                continue
            line += text.count("\n", counted, open_unit)
            counted = open_unit
            units.append(_unit(text, open_unit, start, line))
            open_unit = None
    if open_unit is not None and header_seen:
        line += text.count("\n", counted, open_unit)
        units.append(_unit(text, open_unit, len(text), line))
    return units


def _unit(text: str, start: int, end: int, line: int) -> tuple[int, int, int, tuple[str, ...], bool]:
    headers = [(kind, _identifier(name)) for kind, name in _HEADER.findall(text, start, end)]
    names = tuple(dict.fromkeys(name for _, name in headers))
    return (start, end, line, names, bool(headers) and headers[0][0] == "def")


def _identifier(name: str) -> str:
    # Python folds identifiers to NFKC (`def ﬁle()` binds `file`).
    return name if name.isascii() else unicodedata.normalize("NFKC", name)


def _eager_statements(text: str, units: list[tuple[int, int, int, tuple[str, ...], bool]]) -> list[ast.stmt] | None:
    """The statements outside the definitions, parsed in one pass over the text
    with each definition's lines left blank (positions stay the file's); None
    when that is not valid Python."""
    pieces: list[str] = []
    offset = 0
    for start, end, _, _, _ in units:
        pieces.append(text[offset:start])
        pieces.append("\n" * text.count("\n", start, end))
        offset = end
    pieces.append(text[offset:])
    try:
        return parse_python("".join(pieces)).body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def _merge(text: str, path: str, units: list[tuple[int, int, int, tuple[str, ...], bool]], eager: list[ast.stmt]) -> ModuleOutline:
    merged: list[tuple[int, int, int, tuple[str, ...], bool]] = []
    statements: list[list[ast.stmt] | None] = []
    definitions = iter(units)
    following = next(definitions, None)
    for statement in eager:
        first = _first_line(statement)
        while following is not None and following[2] < first:
            merged.append(following)
            statements.append(None)
            following = next(definitions, None)
        merged.append((0, 0, first, (), False))
        statements.append([statement])
    while following is not None:
        merged.append(following)
        statements.append(None)
        following = next(definitions, None)
    return ModuleOutline(text, path, merged, statements)


def _first_line(statement: ast.stmt) -> int:
    decorators = getattr(statement, "decorator_list", None)
    return min(statement.lineno, *(decorator.lineno for decorator in decorators)) if decorators else statement.lineno


def parse_python(text: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse`` without the compiler's warnings about the analyzed file
    (``invalid escape sequence '\\c'``: a DeprecationWarning, a SyntaxWarning
    printed to stderr since Python 3.12). They are the file's business, not ours,
    and under ``-W error`` they became a SyntaxError: the file was reported
    unparsable and its launches lost."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text, filename=filename)


def bound_names(node: ast.AST) -> Iterator[str]:
    """The names a top-level statement binds (``*`` for a star import);
    function and class bodies bind nothing at the top level."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        for alias in node.names:
            yield alias.asname or alias.name.split(".")[0] if alias.name != "*" or alias.asname else "*"
    elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
        targets = node.targets if isinstance(node, ast.Assign) else [item.optional_vars for item in node.items] if isinstance(node, (ast.With, ast.AsyncWith)) else [node.target]
        for target in targets:
            for part in ast.walk(target) if target is not None else ():
                if isinstance(part, ast.Name):
                    yield part.id
    if isinstance(node, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, getattr(ast, "TryStar", ast.Try))):
        for block in (node.body, getattr(node, "orelse", []), getattr(node, "finalbody", []), *[h.body for h in getattr(node, "handlers", [])]):
            for statement in block:
                yield from bound_names(statement)
    elif isinstance(node, ast.Match):
        for case in node.cases:
            for statement in case.body:
                yield from bound_names(statement)
