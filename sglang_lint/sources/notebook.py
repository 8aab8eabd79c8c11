"""Jupyter notebooks (``*.ipynb``): what their code cells run.

A notebook is a runbook whose commands run: SGLang's documentation notebooks
and the cloud cookbooks that copy them start servers from code cells
(``launch_server_cmd(...)``, ``!python -m sglang.launch_server ... &``,
``%%bash`` cells). The cells are read as the Markdown source reads a runbook's
fenced blocks (sources.markdown): one Python program of every Python cell, in
order (one kernel runs them all), and the shell commands beside it, each
reported at the notebook file's own line.

How IPython runs a Python cell's lines:

- ``!cmd`` runs ``cmd`` in a shell (a trailing backslash continues it on the
  next line); ``{name}`` in it is a Python value (a placeholder here);
- ``%pip install ...`` / ``%conda install ...`` are the package managers (an
  install pin names the release, as in a script);
- another ``%magic`` line, and ``x = !cmd``, run no launch: blank;
- ``%%bash``, ``%%sh``, ``%%script bash|sh`` make the whole cell a shell script;
  ``%%time``, ``%%timeit``, ``%%capture``, ``%%prun`` run it as Python;
  ``%%writefile NAME`` (``%%file``) writes the cell to a file, which is read
  as the program its name or ``#!`` line says (SageMaker's ``serve`` script):
  on its own, not as part of the kernel; other cell magics (``%%html``) run
  no Python and no shell.

Positions: Jupyter writes a cell's source as a list of strings, one per line of
the file, so a cell's line is the file's line of its string, and a column is
counted from the string's opening quote, plus what each escape before it on the
line (``\\"``, ``\\\\``, ``\\u00e9``) takes beyond the one character it stands
for. A cell written as one string of several lines
cannot be placed line by line: it is noted (when it names SGLang) and not read.
Markdown cells are read as a runbook is: their headings make the sections,
and their fenced code blocks are the guide's commands.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from typing import Any

from sglang_lint.model import Heading, Note, SourceResult
from sglang_lint.files import FileKind, source_kind
from sglang_lint.sources.markdown import PYTHON, SHELL, YAML, Block, MarkdownAnalyzer, blocks_and_headings
from sglang_lint.sources.shell import names_an_entry_point

# A JSON string token (JSON strings hold no raw line break), its loop unrolled:
# an output's base64 image is megabytes of one string.
_STRING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
_SHELL_CELL_MAGICS = frozenset({"%%bash", "%%sh"})
_PYTHON_CELL_MAGICS = frozenset({"%%time", "%%timeit", "%%capture", "%%prun"})
_WRITEFILE_MAGICS = frozenset({"%%writefile", "%%file"})
_WRITTEN_FAMILIES = {FileKind.SHELL: SHELL, FileKind.PYTHON: PYTHON, FileKind.YAML: YAML}
_PACKAGE_MAGICS = ("%pip ", "%conda ")
# `files = !ls`: a shell command's output assigned (no launch of ours)
_SHELL_ASSIGNMENT = re.compile(r"[\w.]+\s*=\s*!")


class NotebookError(Exception):
    """The text is not a notebook this source reads (the message says why)."""


class _Strings:
    """The string tokens of a JSON text in order, each with its line and the
    column of its opening quote (0-based), to pair with the parsed values."""

    def __init__(self, text: str) -> None:
        import json  # (here: the run imports every source before its workers fork)

        self.decode = json.loads
        self.matches = _STRING.finditer(text)
        self.line_starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]

    def next(self, expected: str) -> tuple[int, int, Escapes]:
        match = next(self.matches, None)
        if match is None or self.decode(match.group(0)) != expected:
            raise NotebookError("its strings do not follow its structure")
        offset = match.start()
        line = bisect.bisect_right(self.line_starts, offset)
        raw = match.group(0)
        return line, offset - self.line_starts[line - 1], _escapes(raw[1:-1]) if "\\" in raw else ()


# For a JSON string's body: (index in the decoded text, characters the text
# written in the file is longer than the decoded text before that index), at
# each index past an escape; () without escapes.
Escapes = tuple[tuple[int, int], ...]


def _escapes(raw: str) -> Escapes:
    """Where the file's text of a valid JSON string body ``raw`` runs ahead of
    its decoded text: ``\\"`` is two characters for one, ``\\u00e9`` six, a
    surrogate pair's two escapes twelve for one code point."""
    found: list[tuple[int, int]] = []
    decoded = extra = index = 0
    while (escape := raw.find("\\", index)) >= 0:
        length = 2
        if raw[escape + 1] == "u":
            length = 6
            if 0xD800 <= int(raw[escape + 2 : escape + 6], 16) < 0xDC00 and raw[escape + 6 : escape + 8] == "\\u" and 0xDC00 <= int(raw[escape + 8 : escape + 12], 16) < 0xE000:
                length = 12
        decoded += escape - index + 1
        extra += length - 1
        found.append((decoded, extra))
        index = escape + length
    return tuple(found)


def escaped_column(escapes: Escapes, index: int) -> int:
    """The characters the file's text runs ahead of the decoded text at the
    decoded ``index`` (0-based)."""
    at = bisect.bisect_right(escapes, (index, float("inf"))) - 1
    return escapes[at][1] if at >= 0 else 0


Position = tuple[int, int, Escapes]  # (line, column of the opening quote, its escapes)


def _positions(node: Any, strings: _Strings, found: dict[int, list[Position]]) -> None:
    """Walk ``node`` in the text's order, consuming one string token per string
    key and value; each list's strings' positions go to ``found`` by id()."""
    stack: list[tuple[Any, list[Position] | None]] = [(node, None)]
    while stack:
        value, into = stack.pop()
        if isinstance(value, str):
            position = strings.next(value)
            if into is not None:
                into.append(position)
        elif isinstance(value, dict):
            # (keys and values in the text's order: pushed in reverse; a cell's
            # source written as one string is found by the cell's id())
            for key, item in reversed(list(value.items())):
                stack.append((item, found.setdefault(id(value), []) if key == "source" and isinstance(item, str) else None))
                stack.append((key, None))
        elif isinstance(value, list):
            positions: list[Position] = []
            if value and all(isinstance(item, str) for item in value):
                found[id(value)] = positions
            for item in reversed(value):
                stack.append((item, positions if isinstance(item, str) else None))


def _parse(text: str) -> tuple[dict, dict[int, list[Position]]]:
    import json

    try:
        document = json.loads(text)
    except RecursionError:
        raise NotebookError("it is nested too deeply") from None
    except ValueError as error:
        raise NotebookError(f"it is not valid JSON: {error}") from None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        if isinstance(document, dict) and "worksheets" in document:
            raise NotebookError("it is in the nbformat 3 layout, which sglang-lint does not read")
        raise NotebookError("it has no list of cells")
    found: dict[int, list[Position]] = {}
    _positions(document, _Strings(text), found)
    return document, found


def _language(document: dict) -> str:
    metadata = document.get("metadata") if isinstance(document.get("metadata"), dict) else {}
    for key in ("kernelspec", "language_info"):
        entry = metadata.get(key)
        if isinstance(entry, dict):
            name = entry.get("language") or entry.get("name")
            if isinstance(name, str):
                return name.lower()
    return "python"


class _Cells:
    """The blocks and headings of a notebook's cells, and the notes about cells
    that cannot be read."""

    def __init__(self, path: str, document: dict, positions: dict[int, list[Position]]) -> None:
        self.path = path
        self.blocks: list[Block] = []
        self.headings: list[Heading] = []
        self.notes: list[Note] = []
        self.used_lines: set[int] = set()  # (the file's lines cells' lines are on)
        # For a line with escapes: the 1-based file column of its text's first
        # character, and the escapes (to place a column after them).
        self.escapes: dict[int, tuple[int, Escapes]] = {}
        shell_kernel = _language(document) in ("bash", "sh", "shell")
        for cell in document["cells"]:
            if not isinstance(cell, dict):
                continue
            lines = self._lines(cell, positions)
            if lines is None:
                continue
            if cell.get("cell_type") == "markdown":
                self._markdown_cell(lines)
            elif cell.get("cell_type") == "code":
                if shell_kernel:
                    self.blocks.append(Block(SHELL, "bash", lines[0][0] - 1, lines))
                else:
                    self._python_cell(lines)

    def _lines(self, cell: dict, positions: dict[int, list[Position]]) -> list[tuple[int, int, str]] | None:
        """The cell's lines as (file line, characters before the text, text)."""
        source: Any = cell.get("source")
        if isinstance(source, str):
            where = positions.get(id(cell))
            source, found = ([source], where) if source and where else ([], None)
        else:
            found = positions.get(id(source)) if isinstance(source, list) else None
        if not source or found is None:
            return None
        lines: list[tuple[int, int, str]] = []
        escapes: dict[int, tuple[int, Escapes]] = {}
        for text, (line, column, line_escapes) in zip(source, found):
            body = text[:-1] if text.endswith("\n") else text
            if "\n" in body or line in self.used_lines or any(line == seen for seen, _, _ in lines):
                # (one string of several lines, or a notebook written without
                # line breaks: two lines of code on one line of the file)
                if "sglang" in "".join(item for item in source if isinstance(item, str)):
                    self.notes.append(
                        Note(self.path, "a cell whose lines are not each on a line of their own in the file (one string of several lines, or a notebook written on one line) is not analyzed: its lines cannot be placed in the file", line, column + 1)
                    )
                return None
            lines.append((line, column + 1, body))
            if line_escapes:
                escapes[line] = (column + 2, line_escapes)
        self.used_lines.update(line for line, _, _ in lines)
        self.escapes.update(escapes)
        return lines

    def _markdown_cell(self, lines: list[tuple[int, int, str]]) -> None:
        """A Markdown cell is a runbook: its headings make the sections, and
        its fenced code blocks are read as a Markdown document's are (a PD
        guide's servers are started from them)."""
        blocks, headings = blocks_and_headings([text for _, _, text in lines])
        for block in blocks:
            block.fence_line = lines[block.fence_line - 1][0] if 1 <= block.fence_line <= len(lines) else lines[0][0] - 1
            block.lines = [(lines[n - 1][0], lines[n - 1][1] + cut, text) for n, cut, text in block.lines]
            self.blocks.append(block)
        self.headings.extend(Heading(lines[heading.line - 1][0], heading.level, heading.title) for heading in headings)

    def _python_cell(self, lines: list[tuple[int, int, str]]) -> None:
        first = lines[0][2].strip()
        magic = first.split()[0] if first.startswith("%%") else ""
        if magic in _SHELL_CELL_MAGICS or (magic == "%%script" and first.split()[1:2] in (["bash"], ["sh"])):
            if len(lines) > 1:
                self.blocks.append(Block(SHELL, "bash", lines[0][0], lines[1:]))
            return
        if magic in _WRITEFILE_MAGICS:
            self._written_file(first, lines)
            return
        if magic and magic not in _PYTHON_CELL_MAGICS:
            return  # (%%html, %%javascript, ...: no Python, no shell)
        python: list[tuple[int, int, str]] = []
        shell: list[tuple[int, int, str]] = []
        continued = False
        for index, (number, cut, text) in enumerate(lines):
            stripped = text.lstrip()
            indent = len(text) - len(stripped)
            if continued or stripped.startswith("!"):
                start = 0 if continued else indent + 1  # (the `!`)
                shell.append((number, cut + start, text[start:]))
                continued = text.rstrip().endswith("\\")
                python.append((number, cut, ""))
                continue
            if shell:
                self.blocks.append(Block(SHELL, "bash", shell[0][0] - 1, shell))
                shell = []
            if (index == 0 and magic) or stripped.startswith("%") or _SHELL_ASSIGNMENT.match(stripped):
                if stripped.startswith(_PACKAGE_MAGICS):
                    # `%pip install sglang==0.5.9`: the install pin names the release
                    self.blocks.append(Block(SHELL, "bash", number - 1, [(number, cut + indent + 1, stripped[1:])]))
                python.append((number, cut, ""))
                continue
            python.append((number, cut, text))
        if shell:
            self.blocks.append(Block(SHELL, "bash", shell[0][0] - 1, shell))
        if any(text.strip() for _, _, text in python):
            self.blocks.append(Block(PYTHON, "python", python[0][0] - 1, python))


    def _written_file(self, first: str, lines: list[tuple[int, int, str]]) -> None:
        """``%%writefile [-a] NAME``: the cell's other lines are the file NAME,
        a program of its own. One whose language neither its name nor a ``#!``
        line tells, and which names an SGLang entry point, is noted: its launch
        would otherwise be lost without a word."""
        name = next((word for word in first.split()[1:] if not word.startswith("-")), "")
        body = lines[1:]
        if not name or not body:
            return
        text = "\n".join(text for _, _, text in body)
        family = _WRITTEN_FAMILIES.get(source_kind(name, text))  # type: ignore[arg-type]
        if family is not None:
            self.blocks.append(Block(family, family, lines[0][0], body, written=name))
        elif names_an_entry_point(text):
            self.notes.append(
                Note(self.path, f"the file `{name}` this cell writes is not analyzed: neither its name nor a `#!` line says it is a shell, Python or YAML file", lines[0][0], lines[0][1] + 1)
            )


class NotebookAnalyzer(MarkdownAnalyzer):
    """The Markdown source's reading of blocks, over a notebook's cells."""

    def __init__(self, path: str, text: str, cells: _Cells, env: Mapping[str, str] | None = None) -> None:
        super().__init__(path, text, env)
        self.cells = cells

    def _blocks(self) -> tuple[list[Block], list[Heading]]:
        self.result.notes.extend(self.cells.notes)
        # (in the file's order: cells' shell commands and Python alike)
        return sorted(self.cells.blocks, key=lambda block: block.fence_line), self.cells.headings

    def _column(self, line: int, column: int) -> int:
        column = super()._column(line, column)
        escaped = self.cells.escapes.get(line)
        if escaped is not None and column >= escaped[0]:
            first, escapes = escaped
            column += escaped_column(escapes, column - first)
        return column

    def _comment_text(self, line: int, comment: str) -> str:
        # (the file's line is the cell's line inside a JSON string: the
        # comment as the cell writes it)
        return self.placeholders.display(comment)


def analyze_notebook(path: str, text: str, env: Mapping[str, str] | None = None) -> SourceResult:
    """Extract the launches of one notebook's code cells. Never raises for any
    text: one that is not a notebook gets a note."""
    try:
        document, positions = _parse(text)
        cells = _Cells(path, document, positions)
    except NotebookError as error:
        return SourceResult(path=path, lines=text.split("\n"), notes=[Note(path, f"not analyzed as a Jupyter notebook: {error}")])
    except RecursionError:
        return SourceResult(path=path, lines=text.split("\n"), notes=[Note(path, "not analyzed as a Jupyter notebook: it is nested too deeply")])
    try:
        return NotebookAnalyzer(path, text, cells, env).run()
    except RecursionError:
        result = SourceResult(path=path, lines=text.split("\n"))
        result.notes.append(Note(path, "notebook nested too deeply to analyze"))
        return result
