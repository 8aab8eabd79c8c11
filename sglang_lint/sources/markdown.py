"""The Markdown source: SGLang launches in the code blocks of runbooks and READMEs.

A runbook is read the way its reader runs it: the fenced code blocks that hold
shell, Python or YAML are handed to those sources, everything else is prose.

Blocks (CommonMark): fences of three or more backticks or tildes, the opening
fence indented up to three columns relative to its container, closed by a fence
of the same character at least as long (followed by nothing but blanks), or by the
end of the document or of the container holding it (block quotes and list items
are followed, so a fence inside ``1. Start the prefill:`` is a block as GitHub
shows it; a fence inside an HTML comment or ``<details>`` HTML is not).
The first word of the info string, case-insensitive, is the language:

- ``bash``, ``sh``, ``shell``, ``zsh``, ``ksh`` and the session forms ``console``,
  ``shell-session``, ``sh-session``, ``shellsession``: shell;
- ``python``, ``py``, ``python3`` (``pycon``: a Python console session): Python;
- ``yaml``, ``yml``: YAML.

A block with no info string at all is read as shell when it names an SGLang
entry point the shell source recognises (``shell.names_an_entry_point``: a
model README's ``docker run ... python3 -m sglang.launch_server`` fenced with no
language; in eight public corpora every such block was a command), or as Python
when bash refuses it and it has a shape only Python gives a line. Blocks of
other languages, and untagged ones that name no entry point, are ignored.

Sessions (console transcripts): in a ``console`` block, and in any shell block one
of whose lines starts with a ``$ `` prompt or a prompt that names its host
(``user@host:~$ ``, ``root@host:/work# ``, ``[root@host ~]# ``, after an optional
``(venv) ``), the prompt is dropped, a line continuing a command that ends in a
backslash is kept (a ``> `` secondary prompt at its start is dropped), and every
other line is output and ignored. A bare ``# `` is a root prompt only in a
``console`` block whose prompts are all bare ``# ``: anywhere else it looks
exactly like a comment (or, beside other prompts, like output), and reading
comments as commands would invent launches. In a transcript whose commands name
no SGLang entry point, a command that bash would refuse is dropped (output that
looked like a prompt). Python blocks with ``>>> ``
prompts are read the same way (``... `` continues a statement).

Syntax notes: a block that bash, Python or YAML would refuse is analyzed on its
own and gets a note only when it names an SGLang entry point (Python and YAML:
the prefilter's markers, sglang_lint.prefilter; shell: an entry point the shell
source recognises, ``shell.names_an_entry_point``, not the word sglang alone): a
broken block that launches nothing (a sketch with ``...``, another tool's
snippet, a benchmark's output fenced as ``shell``) is none of our business.

Placeholders are what the reader is told to replace: ``<PREFILL_HOST>``,
``<model-path>``, ``[model_path]``, ``{MODEL}``, ``{{ MODEL }}``, whole words or
parts of words (``http://<PREFILL_HOST>:30000``). In shell blocks they are values
we cannot see, never text: ``<NAME>`` needs a name right after ``<`` and no blank
before ``>`` (``< file`` and ``cat <in >out`` are redirections), ``[name]`` needs
two or more characters and no name, ``[``, ``]`` or ``$`` right before it and no
``=`` after it (``${A[@]}``, ``A[k]=v``, ``[[ ... ]]``, globs such as ``[0-7]``
and ``[s]glang`` are shell), ``{NAME}`` no ``$`` before it (``${NAME}`` is a
variable); an elision ``...`` standing as a word (``--config x.yaml ...``) is one
too, the options left to the reader. In YAML blocks ``<NAME>`` is one, and the YAML source's own template
placeholders (``{{ MODEL }}``, ``"{model}"``; without its note); in Python string
literals only ``<NAME>`` is one (Python's ``"{model}"`` is a ``str.format`` field
the Python source evaluates). The same placeholder is the
same symbol everywhere in the document (``Value.symbol("<PREFILL_HOST>")``):
the notation means "put one value here and wherever this name appears", so the
router's ``http://<PREFILL_HOST>:30000`` names the server on ``<PREFILL_HOST>``;
a symbol is never provably different from anything, so a placeholder alone never
makes a finding.

Positions: each language's blocks are analyzed together as one text with the
Markdown document's line numbers, every line that is not theirs blank (shell blocks
share variables, as when the reader pastes them one after another into a
terminal; Python blocks share names; YAML blocks become the documents of one
stream, a ``---`` standing on each opening fence line). Container prefixes,
fence indentation and prompts are cut from the start of their lines and the
columns of everything reported are moved back by what was cut, so a finding
points at the Markdown line and column. Placeholders are replaced by marker
characters of the same length (from Unicode's private use plane 15, which no
other character of the text may use: those become U+FFFD) and turned back into
symbols in the launches found. A block with a syntax error is analyzed on its
own (with the others' variables unseen), so that an unclosed quote in one block
cannot swallow the next ones (a single block is simply analyzed as it is).

Suppression works inside fences: the blocks' comments (``# noqa: SGL001``) are
the document's comments, by Markdown line. All blocks of one document are one
SourceResult for the ``.md`` path.

Sections: each heading opens a section (ATX ``## NIXL ##``, closing #s dropped,
and setext, a paragraph underlined with ``===`` or ``---``; at the top level of the
document: not in code blocks, HTML blocks, block quotes or list items, nor in the
front matter, a ``---`` or ``+++`` block opening the file). Each launch carries
the path of headings of the section it is run in (``ServerLaunch.section``; for a
function defined in one block and called in another, the section of the outermost
call), and the topology pairs servers within the innermost section that holds
both roles (sglang_lint.topology.pairing_sections): SGLang's guides show
alternative setups in sibling sections on the same ports.
"""

from __future__ import annotations

import bisect
import io
import re
import tokenize
from collections.abc import Callable, Mapping
from functools import partial

from msgspec import Struct
from msgspec.structs import replace

from sglang_lint.model import (
    ArgToken,
    Heading,
    KeywordArg,
    Kind,
    Location,
    Note,
    RouterLaunch,
    ServerLaunch,
    SourceResult,
    Value,
)
from sglang_lint.prefilter import may_launch
from sglang_lint.sources.python import analyze_python
from sglang_lint.sources.python_interpreter import parse_python
from sglang_lint.sources.shell import analyze_shell, names_an_entry_point
from sglang_lint.sources.shell_syntax import parse_bash
from sglang_lint.sources.yaml_manifest import analyze_yaml

SHELL_TAGS = frozenset({"bash", "sh", "shell", "zsh", "ksh"})
SHELL_SESSION_TAGS = frozenset({"console", "shell-session", "sh-session", "shellsession"})
PYTHON_TAGS = frozenset({"python", "py", "python3"})
PYTHON_SESSION_TAGS = frozenset({"pycon"})
YAML_TAGS = frozenset({"yaml", "yml"})

SHELL, PYTHON, YAML = "shell", "python", "yaml"
# A block with no info string: shell or Python by what it holds, or nothing
# (MarkdownAnalyzer._untagged).
UNTAGGED = "untagged"

# Block quotes and list items within each other that are followed; deeper ones
# are read as text (each line costs the depth it continues).
MAX_CONTAINER_DEPTH = 64
# Blocks with a syntax error analyzed on their own, per language: each costs a
# pass over the document up to it, so hostile input with thousands of broken
# blocks stays linear.
MAX_SEPARATE_BLOCKS = 16

# -----------------------------------------------------------------------------------
# Blocks (CommonMark)


class Block(Struct):
    """A fenced code block of a language we read.

    ``lines``: for each content line, (1-based Markdown line, characters cut from
    its start, the text that remains); ``session``: a transcript with prompts.
    """

    family: str
    tag: str
    fence_line: int
    lines: list[tuple[int, int, str]] = []
    session: bool = False
    # The file a notebook's `%%writefile NAME` cell writes: a program of its
    # own (a container's `serve` script), not part of the kernel's or the
    # runbook's session.
    written: str = ""

    @property
    def last_line(self) -> int:
        return self.lines[-1][0] if self.lines else self.fence_line


_LIST_MARKER = re.compile(r"([-+*]|(\d{1,9})[.)])(?=[ \t]|$)")
_THEMATIC_BREAK = re.compile(r"(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_SETEXT_UNDERLINE = re.compile(r"(?:=+|-+)[ \t]*$")
_ATX_HEADING = re.compile(r"#{1,6}(?:[ \t]|$)")
_ATX_CLOSING = re.compile(r"(?:^|(?<=[ \t]))#+$")
_FENCE = re.compile(r"(`{3,}|~{3,})(.*)$")
_HTML_1 = re.compile(r"<(?:pre|script|style|textarea)(?:[ \t>]|$)", re.IGNORECASE)
_HTML_1_END = re.compile(r"</(?:pre|script|style|textarea)>", re.IGNORECASE)
_HTML_6_TAGS = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|"
    "fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|"
    "main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|"
    "title|tr|track|ul"
)
_HTML_6 = re.compile(rf"</?(?:{_HTML_6_TAGS})(?:[ \t]|/?>|$)", re.IGNORECASE)
_ATTRIBUTE = r"""(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>`]+|'[^']*'|"[^"]*"))?)"""
_HTML_7 = re.compile(rf"(?:<[A-Za-z][A-Za-z0-9-]*{_ATTRIBUTE}*[ \t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$")
# type -> what ends it on a line (None: a blank line)
_HTML_ENDS: dict[int, re.Pattern | str | None] = {1: _HTML_1_END, 2: "-->", 3: "?>", 4: ">", 5: "]]>", 6: None, 7: None}
# MyST / reStructuredText-style directives whose language is the second word.
_DIRECTIVES = frozenset({"{code-block}", "{code}", "{code-cell}", "{sourcecode}"})


def _family(tag: str) -> tuple[str | None, bool]:
    if tag in SHELL_TAGS:
        return SHELL, False
    if tag in SHELL_SESSION_TAGS:
        return SHELL, True
    if tag in PYTHON_TAGS:
        return PYTHON, False
    if tag in PYTHON_SESSION_TAGS:
        return PYTHON, True
    if tag in YAML_TAGS:
        return YAML, False
    return None, False


def language_tag(info: str) -> str:
    """The language an info string names: its first word, lower-cased
    (``bash title="x"``, ``{.bash}``, ``{bash echo=FALSE}``, ``sh:run.sh``,
    ``{code-block} bash``)."""
    words = info.split()
    if not words:
        return ""
    first = words[0].lower()
    if first in _DIRECTIVES and len(words) > 1:
        first = words[1].lower()
    first = first.lstrip("{").lstrip(".")
    match = re.match(r"[^{},:=]*", first)
    return match.group(0) if match else ""


_BLANKS = re.compile(r"[ \t]*")


def _advance(line: str, pos: int, col: int, limit: int | None = None) -> tuple[int, int]:
    """Skip blanks from ``pos`` (virtual column ``col``, tabs to multiples of 4),
    at most up to column ``limit``."""
    # Spaces only: one step (lines of thousands of blanks stay cheap). With a
    # limit, no more characters than columns left are looked at.
    window = len(line) if limit is None else min(len(line), pos + max(0, limit - col))
    end = _BLANKS.match(line, pos, window).end()
    if "\t" not in line[pos:end]:
        return end, col + (end - pos)
    length = len(line)
    while pos < length:
        char = line[pos]
        if char == " ":
            step = 1
        elif char == "\t":
            step = 4 - col % 4
        else:
            break
        if limit is not None and col >= limit:
            break
        pos += 1
        col += step
    return pos, col


class _Container(Struct):
    quote: bool
    # List items: how far right of their container's content theirs starts.
    width: int = 0
    # List items: whether a line other than blank ones has been in it (an item
    # that starts with a blank line ends at the next blank line).
    has_content: bool = True


class _OpenFence(Struct):
    char: str
    length: int
    depth: int
    indent: int
    block: Block | None


class _Scanner:
    """Line-by-line block structure, as much of it as decides where fences are."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.containers: list[_Container] = []
        self.paragraph = False
        self.fence: _OpenFence | None = None
        self.html: tuple[int, int] | None = None  # (type, depth)
        self.blocks: list[Block] = []
        self.headings: list[Heading] = []
        # The open paragraph's lines (line number, text), and whether it is at the
        # top level of the document (only there can it become a section heading).
        self.paragraph_lines: list[tuple[int, str]] = []
        self.paragraph_top = False
        self.text_end = 0

    def run(self) -> list[Block]:
        first = _after_front_matter(self.lines)
        for number, raw in enumerate(self.lines[first:], start=first + 1):
            line = raw.removesuffix("\r")
            self.text_end = len(line.rstrip(" \t"))  # the line is blank from here on
            start = 1 if number == 1 and line.startswith("\ufeff") else 0
            self._line(number, line, start)
        return self.blocks

    # -- one line -------------------------------------------------------------------
    def _line(self, number: int, line: str, pos: int) -> None:
        col = 0
        matched = 0
        for container in self.containers:
            step = self._continue(container, line, pos, col)
            if step is None:
                break
            pos, col = step
            matched += 1
        blank = pos >= self.text_end
        if self.fence is not None:
            if matched >= self.fence.depth:
                if not self._closes(line, pos, col):
                    self._content(number, line, pos, col)
                else:
                    self.fence = None
                return
            self.fence = None  # its container ended
        if self.html is not None:
            kind, depth = self.html
            if matched >= depth:
                if _HTML_ENDS[kind] is None and blank:
                    self.html = None
                    self.paragraph = False
                elif self._html_ends(kind, line[pos:]):
                    self.html = None
                return
            self.html = None
        if matched < len(self.containers):
            if self.paragraph and not blank and not self._starts_block(line, pos, col):
                return  # a lazy continuation line of the paragraph
            del self.containers[matched:]
            self.paragraph = False
        self._new_blocks(number, line, pos, col)

    def _continue(self, container: _Container, line: str, pos: int, col: int) -> tuple[int, int] | None:
        if container.quote:
            p, c = _advance(line, pos, col, col + 3)
            if p < len(line) and line[p] == ">":
                return self._after_quote_marker(line, p, c)
            return None
        target = col + container.width
        if pos >= self.text_end:
            if not container.has_content:
                return None
            return _advance(line, pos, col, target)
        p, c = _advance(line, pos, col, target)
        if c < target:
            return None
        container.has_content = True
        return p, c

    @staticmethod
    def _after_quote_marker(line: str, p: int, c: int) -> tuple[int, int]:
        p, c = p + 1, c + 1
        if p < len(line) and line[p] in " \t":
            c = c + 1 if line[p] == " " else c + (4 - c % 4)
            p += 1
        return p, c

    def _starts_block(self, line: str, pos: int, col: int) -> bool:
        p, c = _advance(line, pos, col)
        if c - col >= 4:
            return False
        rest = line[p:]
        if rest.startswith(">") or _FENCE.match(rest) and self._fence_info_ok(rest):
            return True
        if _ATX_HEADING.match(rest) or _THEMATIC_BREAK.match(rest):
            return True
        if _LIST_MARKER.match(rest):
            # The paragraph is in a container this line does not continue: a list
            # item starts here whatever its number (cmark, markdown-it).
            return True
        return self._html_start(rest) not in (None, 7)

    def _may_start_list(self, marker: re.Match, rest: str) -> bool:
        if not self.paragraph:
            return True
        # Interrupting a paragraph: not empty, and an ordered list starts at 1.
        if rest[marker.end() :].strip(" \t") == "":
            return False
        number = marker.group(2)
        return number is None or int(number) == 1

    @staticmethod
    def _fence_info_ok(rest: str) -> bool:
        match = _FENCE.match(rest)
        return match is not None and not (match.group(1)[0] == "`" and "`" in match.group(2))

    def _new_blocks(self, number: int, line: str, pos: int, col: int) -> None:
        first = True
        while len(self.containers) < MAX_CONTAINER_DEPTH:
            p, c = _advance(line, pos, col)
            if c - col >= 4 or p >= len(line):
                break
            rest = line[p:]
            if first and self.paragraph and _SETEXT_UNDERLINE.match(rest):
                self.paragraph = False  # the paragraph was a heading (`-` is no list item)
                if self.paragraph_top and not self.containers:
                    title = " ".join(text for _, text in self.paragraph_lines)
                    self.headings.append(Heading(self.paragraph_lines[0][0], 1 if rest[0] == "=" else 2, title))
                return
            first = False
            if rest[0] == ">":
                self.containers.append(_Container(quote=True))
                pos, col = self._after_quote_marker(line, p, c)
                self.paragraph = False
                continue
            marker = _LIST_MARKER.match(rest)
            if marker and not _THEMATIC_BREAK.match(rest) and self._may_start_list(marker, rest):
                base = col
                width = len(marker.group(1))
                after_p, after_c = p + width, c + width
                q, d = _advance(line, after_p, after_c)
                empty = q >= self.text_end
                if empty or d - after_c > 4:
                    content_col = after_c + 1  # empty first line, or indented code inside
                    pos, col = _advance(line, after_p, after_c, after_c + 1)
                else:
                    content_col = d
                    pos, col = q, d
                self.containers.append(_Container(quote=False, width=content_col - base, has_content=not empty))
                self.paragraph = False
                continue
            break
        self._leaf(number, line, pos, col)

    def _leaf(self, number: int, line: str, pos: int, col: int) -> None:
        p, c = _advance(line, pos, col)
        rest = line[p:]
        if rest.strip(" \t") == "":
            self.paragraph = False
            return
        if c - col >= 4:
            return  # indented code, or a paragraph's continuation
        fence = _FENCE.match(rest)
        if fence is not None and self._fence_info_ok(rest):
            marker, info = fence.group(1), fence.group(2)
            tag = language_tag(info)
            family, session = _family(tag) if info.strip(" \t") else (UNTAGGED, False)
            block = Block(family, tag, number, session=session) if family is not None else None
            if block is not None:
                self.blocks.append(block)
            self.fence = _OpenFence(marker[0], len(marker), len(self.containers), c - col, block)
            self.paragraph = False
            return
        kind = self._html_start(rest)
        if kind is not None and not (kind == 7 and self.paragraph):
            self.paragraph = False
            if not self._html_ends(kind, rest):
                self.html = (kind, len(self.containers))
            return
        if _ATX_HEADING.match(rest):
            self.paragraph = False
            if not self.containers:
                self.headings.append(_atx_heading(number, rest))
            return
        if _THEMATIC_BREAK.match(rest):
            self.paragraph = False
            return
        if not self.paragraph:
            self.paragraph_lines = []
            self.paragraph_top = not self.containers
        self.paragraph_lines.append((number, rest.strip(" \t")))
        self.paragraph = True

    @staticmethod
    def _html_start(rest: str) -> int | None:
        if not rest.startswith("<"):
            return None
        if _HTML_1.match(rest):
            return 1
        if rest.startswith("<!--"):
            return 2
        if rest.startswith("<?"):
            return 3
        if rest.startswith("<![CDATA["):
            return 5
        if re.match(r"<![A-Za-z]", rest):
            return 4
        if _HTML_6.match(rest):
            return 6
        if _HTML_7.match(rest):
            return 7
        return None

    @staticmethod
    def _html_ends(kind: int, text: str) -> bool:
        end = _HTML_ENDS[kind]
        if end is None:
            return False
        if isinstance(end, str):
            return end in text
        return end.search(text) is not None

    def _closes(self, line: str, pos: int, col: int) -> bool:
        fence = self.fence
        assert fence is not None
        p, c = _advance(line, pos, col)
        if c - col >= 4:
            return False
        run = len(line) - p - len(line[p:].lstrip(fence.char))
        return run >= fence.length and line[p + run :].strip(" \t") == ""

    def _content(self, number: int, line: str, pos: int, col: int) -> None:
        fence = self.fence
        assert fence is not None
        if fence.block is None:
            return
        pos, _ = _advance(line, pos, col, col + fence.indent)
        fence.block.lines.append((number, pos, line[pos:]))


def _atx_heading(number: int, rest: str) -> Heading:
    """``## Title ##``: the level is the number of opening #s; the closing #s
    (after a blank, or all the text) are not part of the title."""
    level = len(rest) - len(rest.lstrip("#"))
    title = rest[level:].strip(" \t")
    closing = _ATX_CLOSING.search(title)
    if closing is not None:
        title = title[: closing.start()].rstrip(" \t")
    return Heading(number, level, title)


def _after_front_matter(lines: list[str]) -> int:
    """How many lines of front matter open the document (0 if none): a ``---``
    (YAML, Jekyll and Hugo) or ``+++`` (TOML, Hugo) line first, up to the same
    line again (``...`` also closes YAML). They are metadata, not Markdown: a
    ``title:`` line before the closing ``---`` is no setext heading."""
    if not lines:
        return 0
    first = lines[0].removeprefix("\ufeff").rstrip(" \t\r")
    if first not in ("---", "+++"):
        return 0
    closers = ("---", "...") if first == "---" else ("+++",)
    for index in range(1, len(lines)):
        line = lines[index].rstrip(" \t\r")
        if line in closers:
            return index + 1
        if _FENCE.match(line.lstrip(" ")):
            return 0  # a code block: the `---` was a thematic break, not metadata
    return 0  # never closed: a thematic break


def find_blocks(text: str) -> list[Block]:
    """The shell, Python, YAML and untagged fenced code blocks of a Markdown
    text, in order."""
    return _Scanner(text.split("\n")).run()


def blocks_and_headings(lines: list[str]) -> tuple[list[Block], list[Heading]]:
    """:func:`find_blocks` and :func:`find_headings` of a text's lines, in one pass."""
    scanner = _Scanner(lines)
    blocks = scanner.run()
    return blocks, scanner.headings


def find_headings(text: str) -> list[Heading]:
    """The section headings of a Markdown text, in order: ATX (``## NIXL``, closing
    #s dropped) and setext (a paragraph underlined with ``===`` or ``---``) at the
    top level of the document; not those in code blocks, HTML blocks, block
    quotes or list items (a quoted heading is part of the quote, not of the
    document's outline), nor in front matter."""
    scanner = _Scanner(text.split("\n"))
    scanner.run()
    return scanner.headings


def section_paths(headings: list[Heading]) -> list[tuple[Heading, ...]]:
    """For each heading, the path of headings from the outermost section to it:
    a heading closes every open section of its level or deeper."""
    paths: list[tuple[Heading, ...]] = []
    open_path: tuple[Heading, ...] = ()
    for heading in headings:
        open_path = (*(h for h in open_path if h.level < heading.level), heading)
        paths.append(open_path)
    return paths


# -----------------------------------------------------------------------------------
# Sessions: prompts and output


def _trailing_backslash(text: str) -> bool:
    stripped = text.rstrip(" \t")
    count = len(stripped) - len(stripped.rstrip("\\"))
    return count % 2 == 1 and stripped == text  # `\` then blanks continues nothing


class _Prompt(Struct, frozen=True):
    """A prompt at the start of a transcript line: how many characters it takes
    (leading blanks and the one blank after it included), its sign, and whether
    it names the user and host (``user@host:~$``, ``[root@host dir]#``)."""

    length: int
    sign: str
    names_host: bool


# An optional environment name (`(venv) `), an optional user@host part
# (`user@host:~/dir`, `[root@host dir]`), then `$` or `#` and a blank or the end.
_PROMPT = re.compile(
    r"[ \t]*(?:\([^()\s]+\)[ \t]+)?"
    r"(?P<host>\[[^\]\s@]+@[^\]]+\]|[\w.-]+@[\w.-]+(?::[^\s$#]*)?)?"
    r"(?P<sign>[$#])(?:[ \t]|$)"
)


def _prompt(text: str) -> _Prompt | None:
    match = _PROMPT.match(text)
    if match is None:
        return None
    return _Prompt(min(match.end(), len(text)), match.group("sign"), match.group("host") is not None)


def _session_prompts(block: Block) -> list[_Prompt | None] | None:
    """Each line's prompt when the block is a transcript, else None.

    A block is a transcript when it is tagged as one (``console``) or a line
    starts with a ``$`` prompt or a prompt that names its host (a script has
    neither). A bare ``# `` is a root prompt only in a ``console`` block whose
    prompts are all bare ``# ``: anywhere else it reads exactly like a comment
    (or, among other prompts, like output), and reading comments as commands
    would invent launches."""
    prompts = [_prompt(text) for _, _, text in block.lines]
    explicit = [p for p in prompts if p is not None and (p.sign == "$" or p.names_host)]
    if not explicit and not block.session:
        return None
    if explicit:
        return [p if p is not None and (p.sign == "$" or p.names_host) else None for p in prompts]
    return prompts


def _shell_commands(block: Block, prompts: list[_Prompt | None]) -> list[list[tuple[int, int, str]]]:
    """The commands typed in a transcript: each prompt line with the lines that
    continue it (after a trailing backslash; a ``> `` secondary prompt at their
    start is dropped). Every other line is output."""
    commands: list[list[tuple[int, int, str]]] = []
    continuing = False
    for (number, cut, text), prompt in zip(block.lines, prompts):
        if continuing:
            if text.startswith("> "):
                cut, text = cut + 2, text[2:]
            commands[-1].append((number, cut, text))
            continuing = _trailing_backslash(text)
            continue
        if prompt is not None:
            cut, text = cut + prompt.length, text[prompt.length :]
            commands.append([(number, cut, text)])
            continuing = _trailing_backslash(text)
        # anything else is output
    return commands


def _shell_session(block: Block, prompts: list[_Prompt | None], env: Mapping[str, str]) -> list[tuple[int, int, str]]:
    """The lines of a transcript's commands. In a transcript whose commands name
    no SGLang entry point, a command that bash would refuse is dropped: it is
    output that looked like a prompt (``$ 5.00 (list price)``), and it must not
    make a syntax note; the others stay (``$ export TP=8`` matters to later
    blocks). Where the commands name one, every command stays: a broken one
    may be, or define, a launch, and dropping it would lose the launch silently
    (the block gets its syntax note instead)."""
    commands = _shell_commands(block, prompts)
    lines = [line for command in commands for line in command]
    if may_launch("markdown", "\n".join(t for _, _, t in lines), env):
        return lines
    return [line for command in commands if not _bash_refuses("\n".join(t for _, _, t in command)) for line in command]


def _python_session(block: Block) -> list[tuple[int, int, str]]:
    out = []
    in_statement = False
    for number, cut, text in block.lines:
        body = text.lstrip(" \t")
        for prompt, continues in ((">>>", False), ("...", True)):
            if body == prompt or body.startswith(prompt + " "):
                if continues and not in_statement:
                    break
                skip = len(text) - len(body) + min(len(prompt) + 1, len(body))
                out.append((number, cut + skip, text[skip:]))
                in_statement = True
                break
        else:
            in_statement = False  # output
    return out


# A line only Python begins so; a shell line never does (`if [ ... ]; then`
# has no colon at its end).
_PYTHON_SHAPE = re.compile(r"^(?:import [\w.]+|from [\w.]+ import |def \w+\(|class \w+[(:]|(?:if|elif|for|while|with|try)\b[^\n]*:)[ \t]*(?:#[^\n]*)?$", re.M)
MAX_SNIFFED_BLOCK = 200_000


def _python_fenced_as_shell(block: Block) -> bool:
    """A block fenced as shell that is a Python program (a guide's
    `start_server.py` under ```bash: every line of it was "tree-sitter-bash
    cannot parse", and its launch lost): bash cannot parse it, Python can, and
    a line has a shape only Python gives a line."""
    text = "\n".join(t for _, _, t in block.lines)
    if len(text) > MAX_SNIFFED_BLOCK or _PYTHON_SHAPE.search(text) is None:
        return False
    try:
        parse_python(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return parse_bash(text.encode("utf-8", "surrogatepass")).root_node.has_error


def _is_python_session(block: Block) -> bool:
    return block.session or any(text.lstrip(" \t") == ">>>" or text.lstrip(" \t").startswith(">>> ") for _, _, text in block.lines)


# -----------------------------------------------------------------------------------
# Placeholders

# Markers: START, digits, END, all from Unicode's Supplementary Private Use Area-A.
_START = "\U000f0000"
_END = "\U000f0001"
_DIGIT0 = 0xF0002
_BASE = 0xFFFFD - _DIGIT0 + 1
_RESERVED = re.compile("[\U000f0000-\U000fffff]")
_MARKER = re.compile(f"{_START}([\U000f0002-\U000ffffd]+){_END}")

_ANGLE = r"(?<!<)<\w[\w.:/|-]*>"
_SHELL_PLACEHOLDER = re.compile(
    r"\{\{[ \t]*\.?[A-Za-z_][A-Za-z0-9_.]*[ \t]*\}\}"
    r"|(?<![$\w{])\{[A-Za-z_][A-Za-z0-9_]*\}(?!\})"
    r"|(?<![\w\[\]$])\[(?=[^\]]{2,}\])(?![A-Za-z0-9]-[A-Za-z0-9]\])[A-Za-z][A-Za-z0-9_]*(?:[-.][A-Za-z0-9_]+)*\](?![=\[\]])"
    "|" + _ANGLE
    # Several words in angle brackets (`--model-path <your model path>`): a
    # blank only between words, each starting with a letter, none before `>`
    # (`cmd <in >out` and `<in 2>err` stay redirections). To bash they are
    # redirections from and to files; the reader puts one value there.
    + r"|(?<!<)<[A-Za-z][\w.:/|-]*(?: [A-Za-z][\w.:/|-]*)+>"
    # An elision standing as a word (`--config-file x.yaml ...`): the options
    # the reader is left to add (issue 20: SGLang's own READMEs), never an
    # argument named "...".
    + r"|(?<!\S)(?:\.\.\.|\u2026)(?!\S)"
)
_ANGLE_PLACEHOLDER = re.compile(_ANGLE)


class _Placeholders:
    """Placeholder texts by id (1-based, in order of appearance); 0 is anonymous."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.texts: list[str] = [""]

    def mark(self, text: str, pattern: re.Pattern) -> str:
        text = _RESERVED.sub("\ufffd", text)
        if "<" not in text and "[" not in text and "{" not in text and "..." not in text and "\u2026" not in text:
            return text
        return pattern.sub(self._marker, text)

    def _marker(self, match: re.Match) -> str:
        placeholder = match.group(0)
        ident = self.ids.get(placeholder)
        if ident is None:
            ident = self.ids[placeholder] = len(self.texts)
            self.texts.append(placeholder)
        # The id in the last one or two digits (zeros before them): one digit holds
        # 65531 ids, two hold more placeholders than a document can have.
        width = len(placeholder) - 2
        if width == 1:
            return _START + chr(_DIGIT0 + (ident if ident < _BASE else 0)) + _END
        high, low = divmod(min(ident, _BASE * _BASE - 1), _BASE)
        return _START + chr(_DIGIT0) * (width - 2) + chr(_DIGIT0 + high) + chr(_DIGIT0 + low) + _END

    def _ident(self, digits: str) -> int:
        ident = ord(digits[-1]) - _DIGIT0
        if len(digits) > 1:
            ident += (ord(digits[-2]) - _DIGIT0) * _BASE
        return ident if 0 < ident < len(self.texts) else 0

    # -- back from markers ---------------------------------------------------------
    def display(self, text: str) -> str:
        """Text for messages: each placeholder as written."""
        if not _RESERVED.search(text):
            return text
        text = _MARKER.sub(lambda m: self.texts[self._ident(m.group(1))] or "<placeholder>", text)
        return _RESERVED.sub("", text)

    def text_value(self, text: str) -> Value:
        if not _RESERVED.search(text):
            return Value.known(text)
        pieces: list[Value] = []
        last = 0
        for match in _MARKER.finditer(text):
            pieces.append(Value.known(text[last : match.start()]))
            ident = self._ident(match.group(1))
            pieces.append(Value.symbol(self.texts[ident]) if ident else Value.unknown("a placeholder"))
            last = match.end()
        pieces.append(Value.known(text[last:]))
        if any(_RESERVED.search(piece.text) for piece in pieces if piece.is_known):
            # Part of a marker: text cut out of a placeholder (`${HOST:0:3}`).
            return Value.unknown(f"derived from a placeholder: {self.display(text)}")
        return Value.concat(pieces)

    def value(self, value: Value) -> Value:
        kind = value.kind
        if kind is Kind.KNOWN:
            return self.text_value(value.text)
        if kind is Kind.ALTERNATIVES:
            if not any(_RESERVED.search(a) for a in value.alternatives):
                return value
            return Value.one_of(self.text_value(a) for a in value.alternatives)
        if kind is Kind.SYMBOL:
            name = self.display(value.name)
            if value.default is not None and _RESERVED.search(value.default):
                return Value.unknown(f"{name} with a placeholder as its default ({self.display(value.default)})")
            return value if name == value.name else Value.symbol(name, value.default)
        if kind is Kind.CONCAT:
            parts = [self.value(part) for part in value.parts]
            return value if parts == list(value.parts) else Value.concat(parts)
        reason = self.display(value.reason)
        return value if reason == value.reason else Value.unknown(reason)


# -----------------------------------------------------------------------------------
# Language texts


class _Prepared(Struct):
    """A block as its language's source reads it: (line, cut, text) per line."""

    block: Block
    lines: list[tuple[int, int, str]]


def _prepare_shell(block: Block, placeholders: _Placeholders, env: Mapping[str, str]) -> _Prepared:
    prompts = _session_prompts(block)
    lines = block.lines if prompts is None else _shell_session(block, prompts, env)
    return _Prepared(block, [(n, cut, placeholders.mark(text.rstrip("\r"), _SHELL_PLACEHOLDER)) for n, cut, text in lines])


def _prepare_yaml(block: Block, placeholders: _Placeholders) -> _Prepared:
    # PyYAML also breaks lines at CR, NEL, LS and PS: as blanks they keep its line
    # numbers those of the document.
    table = {0x0D: " ", 0x85: " ", 0x2028: " ", 0x2029: " "}
    return _Prepared(block, [(n, cut, placeholders.mark(text.translate(table), _ANGLE_PLACEHOLDER)) for n, cut, text in block.lines])


def _prepare_python(block: Block, placeholders: _Placeholders) -> _Prepared:
    lines = _python_session(block) if _is_python_session(block) else block.lines
    lines = [(n, cut, text.replace("\r", " ")) for n, cut, text in lines]  # Python breaks lines at CR
    texts = _mark_python_strings([text for _, _, text in lines], placeholders)
    return _Prepared(block, [(n, cut, text) for (n, cut, _), text in zip(lines, texts)])


def _mark_python_strings(lines: list[str], placeholders: _Placeholders) -> list[str]:
    """``<NAME>`` inside string literals (not f-strings: their braces hold code)."""
    lines = [_RESERVED.sub("\ufffd", line) for line in lines]
    if not any("<" in line for line in lines):
        return lines
    source = "\n".join(lines) + "\n"
    edits: dict[int, list[tuple[int, int]]] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type != tokenize.STRING or "<" not in token.string:
                continue
            prefix = token.string[: len(token.string) - len(token.string.lstrip("rRbBuUfF"))]
            if "f" in prefix.lower():
                continue
            (start_row, start_col), (end_row, end_col) = token.start, token.end
            for row in range(start_row, end_row + 1):
                first = start_col if row == start_row else 0
                last = end_col if row == end_row else len(lines[row - 1])
                edits.setdefault(row - 1, []).append((first, last))
    except Exception:  # noqa: BLE001 - tokenizing is best effort: unmarked text stays text
        return lines
    out = list(lines)
    for index, spans in edits.items():
        line = out[index]
        for first, last in spans:
            line = line[:first] + placeholders.mark(line[first:last], _ANGLE_PLACEHOLDER) + line[last:]
        out[index] = line
    return out


def _document(prepared: list[_Prepared], headers: dict[int, str] | None = None) -> str:
    """The text a language's source reads: the Markdown document's lines up to
    the last of these blocks, each blank but the blocks' own (and ``headers``).
    Nothing follows the last block, so an error at the end of the text (an
    unclosed YAML flow collection) is reported on that block's last line."""
    rows = [""] * max(item.block.last_line for item in prepared)
    for header_line, header in (headers or {}).items():
        rows[header_line - 1] = header
    for item in prepared:
        for number, _, text in item.lines:
            rows[number - 1] = text
    return "\n".join(rows)


# -----------------------------------------------------------------------------------
# Syntax checks: which blocks must be analyzed on their own


def _bash_refuses(text: str) -> bool:
    return parse_bash(text.encode("utf-8", "surrogatepass")).root_node.has_error


def _shell_ok(item: _Prepared) -> bool:
    return not _bash_refuses("\n".join(t for _, _, t in item.lines))


def _python_ok(text: str) -> bool:
    try:
        parse_python(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def _python_block_ok(item: _Prepared) -> bool:
    return _python_ok("\n".join(t for _, _, t in item.lines))


def _yaml_block_ok(item: _Prepared) -> bool:
    result = analyze_yaml("<block>", "\n".join(t for _, _, t in item.lines), placeholder_note=False)
    return not result.notes


# -----------------------------------------------------------------------------------
# The analysis


class MarkdownAnalyzer:
    def __init__(self, path: str, text: str, env: Mapping[str, str] | None = None) -> None:
        self.path = path
        self.text = text
        self.configured_env: Mapping[str, str] = env or {}
        self.lines = text.split("\n")
        self.result = SourceResult(path=path, lines=self.lines)
        self.placeholders = _Placeholders()
        self.cuts: dict[int, int] = {}
        # The first line of each section and the section's path of headings.
        self.section_starts: list[int] = []
        self.sections: list[tuple[Heading, ...]] = []

    def _blocks(self) -> tuple[list[Block], list[Heading]]:
        """The code blocks to read and the headings that make the sections (a
        notebook's come from its cells: sources.notebook)."""
        return blocks_and_headings(self.lines)

    def _comment_text(self, line: int, comment: str) -> str:
        """A comment of a block at ``line``, as the document writes it."""
        # A comment runs to the end of its line: the same characters of the
        # Markdown line, placeholders as written.
        original = self.lines[line - 1].rstrip("\r") if 1 <= line <= len(self.lines) else ""
        return original[len(original) - len(comment) :] if len(comment) <= len(original) else self.placeholders.display(comment)

    def run(self) -> SourceResult:
        blocks, headings = self._blocks()
        self.section_starts = [heading.line for heading in headings]
        self.sections = section_paths(headings)
        by_family: dict[str, list[_Prepared]] = {SHELL: [], PYTHON: [], YAML: []}
        prepare = {
            SHELL: partial(_prepare_shell, env=self.configured_env),
            PYTHON: _prepare_python,
            YAML: _prepare_yaml,
        }
        written: list[_Prepared] = []
        for block in blocks:
            if block.family == UNTAGGED and not self._untagged(block):
                continue
            if block.family == SHELL and not block.session and not block.written and _python_fenced_as_shell(block):
                block.family = PYTHON
            item = prepare[block.family](block, self.placeholders)
            (written if block.written else by_family[block.family]).append(item)
            for number, cut, _ in item.lines:
                if cut:
                    self.cuts[number] = cut
        parts: list[SourceResult] = []
        for family, analyze in ((SHELL, self._shell), (PYTHON, self._python), (YAML, self._yaml)):
            items = by_family[family]
            if not items:
                continue
            try:
                parts.extend(analyze(items))
            except Exception as error:  # noqa: BLE001 - one language must not lose the others
                line = items[0].block.fence_line
                self.result.notes.append(
                    Note(self.path, f"internal error while analyzing the {family} blocks ({type(error).__name__}: {error}); please report it", line)
                )
        for item in written:
            try:
                parts.append(self._written(item))
            except Exception as error:  # noqa: BLE001 - one file must not lose the others
                self.result.notes.append(
                    Note(self.path, f"internal error while analyzing the file {item.block.written} a cell writes ({type(error).__name__}: {error}); please report it", item.block.fence_line)
                )
        for part in parts:
            self._merge(part)
        self.result.servers.sort(key=lambda launch: (launch.location.line, launch.location.column))
        self.result.routers.sort(key=lambda launch: (launch.location.line, launch.location.column))
        self.result.notes.sort(key=lambda note: (note.line, note.column))
        return self.result

    # -- per language ----------------------------------------------------------------
    # Shell and Python blocks are checked one by one even when the whole parses:
    # an unclosed quote (or triple quote) in one block pairs with one in a later
    # block, and everything between them becomes a string.
    def _shell(self, items: list[_Prepared]) -> list[SourceResult]:
        env = self.configured_env
        # (typed into an interactive shell: its aliases are expanded)
        return self._isolate(
            items,
            _shell_ok,
            lambda good: analyze_shell(self.path, _document(good), env, interactive=True),
            partial(analyze_shell, env=env, interactive=True),
            "shell",
            self._names_shell_entry,
        )

    def _python(self, items: list[_Prepared]) -> list[SourceResult]:
        env = self.configured_env
        return self._isolate(items, _python_block_ok, lambda good: analyze_python(self.path, _document(good), env), partial(analyze_python, env=env), "Python")

    def _yaml(self, items: list[_Prepared]) -> list[SourceResult]:
        def stream(good: list[_Prepared]) -> SourceResult:
            headers = {item.block.fence_line: "---" for item in good}
            return analyze_yaml(self.path, _document(good, headers), self.configured_env, placeholder_note=False)

        combined = stream(items)
        if not combined.notes or (len(items) == 1 and self._may_launch(items[0])):
            return [combined]
        return self._isolate(items, _yaml_block_ok, stream, partial(analyze_yaml, env=self.configured_env, placeholder_note=False), "YAML")

    def _written(self, item: _Prepared) -> SourceResult:
        """A file a cell writes, read alone as the program it is (a script
        runs non-interactively: no aliases)."""
        text, env = _document([item]), self.configured_env
        if item.block.family == SHELL:
            return analyze_shell(self.path, text, env)
        if item.block.family == PYTHON:
            return analyze_python(self.path, text, env)
        return analyze_yaml(self.path, text, env, placeholder_note=False)

    def _isolate(
        self,
        items: list[_Prepared],
        ok: Callable[[_Prepared], bool],
        together: Callable[[list[_Prepared]], SourceResult],
        alone: Callable[[str, str], SourceResult],
        language: str,
        may_launch: Callable[[_Prepared], bool] | None = None,
    ) -> list[SourceResult]:
        """Analyze the blocks that are fine on their own together, and each broken
        one alone (up to MAX_SEPARATE_BLOCKS), so that one cannot spoil the others.
        A broken block that names no SGLang entry point is left out: it launches
        nothing, and its syntax is not ours to judge (a transcript, a snippet of
        another tool's configuration, a sketch with ``...``; a shell block
        naming no entry point the shell source recognises, ``may_launch``: a
        benchmark's output fenced as ``shell``, whose ``Backend: sglang-oai-chat``
        named sglang)."""
        may_launch = may_launch or self._may_launch
        if len(items) == 1 and may_launch(items[0]):
            return [together(items)]
        good, bad = [], []
        for item in items:
            if ok(item):
                good.append(item)
            elif may_launch(item):
                bad.append(item)
        results = [together(good)] if good else []
        for item in bad[:MAX_SEPARATE_BLOCKS]:
            results.append(alone(self.path, _document([item])))
        if len(bad) > MAX_SEPARATE_BLOCKS:
            skipped = bad[MAX_SEPARATE_BLOCKS:]
            results.append(
                SourceResult(
                    path=self.path,
                    notes=[
                        Note(
                            self.path,
                            f"{len(skipped)} more {language} blocks with syntax errors are not analyzed (only the first {MAX_SEPARATE_BLOCKS} are)",
                            skipped[0].block.fence_line,
                        )
                    ],
                )
            )
        return results

    def _untagged(self, block: Block) -> bool:
        """Whether a block with no info string is read, as shell (its family
        from now on; Python when it is a Python program): when it names an
        entry point the shell source recognises. Such a block was
        skipped without a word (Hygon's Kimi-K2.6 runbook: five launches, a PD
        pair and its router)."""
        text = "\n".join(text for _, _, text in block.lines)
        if not names_an_entry_point(text, self.configured_env):
            return False
        if _python_fenced_as_shell(block):
            block.family = PYTHON
            return True
        block.family = SHELL
        if _bash_refuses(text):
            # A command and what it printed, in one block (a server's log under
            # its launch line; a script bash accepts as a whole is taken as
            # one): each line, with the lines a trailing backslash continues it
            # onto, is a command when bash accepts it alone or it names an
            # entry point, else output (the log's lines gave "cannot parse"
            # notes). As a transcript's output is, with no prompt to tell.
            commands = [(command, "\n".join(t for _, _, t in command)) for command in _shell_commands(block, [_Prompt(0, "$", False)] * len(block.lines))]
            block.lines = [
                line
                for command, typed in commands
                if names_an_entry_point(typed, self.configured_env) or not _bash_refuses(typed)
                for line in command
            ]
        return True

    def _may_launch(self, item: _Prepared) -> bool:
        return may_launch("markdown", "\n".join(t for _, _, t in item.lines), self.configured_env)

    def _names_shell_entry(self, item: _Prepared) -> bool:
        """A shell block that names an entry point the shell source recognises,
        in its text or in a value of the config's ``env``."""
        return names_an_entry_point("\n".join(t for _, _, t in item.lines), self.configured_env)

    # -- back to the Markdown file -------------------------------------------------------
    def _section(self, launch: ServerLaunch | RouterLaunch) -> tuple[Heading, ...]:
        """The section a launch is run in: that of the line the reader runs it
        from (the outermost call of a function defined in another block)."""
        line = launch.line_ranges[1][0] if len(launch.line_ranges) > 1 else launch.location.line
        index = bisect.bisect_left(self.section_starts, line) - 1
        return self.sections[index] if index >= 0 else ()

    def _loc(self, location: Location | None) -> Location | None:
        if location is None or location.path != self.path or location.line < 1:
            return location
        column, end_column = self._column(location.line, location.column), self._column(location.end_line, location.end_column)
        if column == location.column and end_column == location.end_column:
            return location
        return Location(location.path, location.line, column, location.end_line, end_column)

    def _column(self, line: int, column: int) -> int:
        """The document's column of a block's ``column`` on ``line``: moved
        back by what was cut from the line's start."""
        return column + self.cuts.get(line, 0)

    def _token(self, token: ArgToken) -> ArgToken:
        held = None if token.held is None else tuple(tuple(map(self.placeholders.value, way)) for way in token.held)
        return ArgToken(self.placeholders.value(token.value), self._loc(token.location), self._loc(token.origin), token.spread, held)

    def _keyword(self, keyword: KeywordArg) -> KeywordArg:
        name = self.placeholders.display(keyword.name) if keyword.name is not None else None
        return KeywordArg(name, self.placeholders.value(keyword.value), self._loc(keyword.location), self._loc(keyword.origin))

    def _merge(self, part: SourceResult) -> None:
        display = self.placeholders.display
        for server in part.servers:
            self.result.servers.append(
                replace(
                    server,
                    location=self._loc(server.location),
                    args=[self._token(t) for t in server.args],
                    keywords=tuple(self._keyword(k) for k in server.keywords),
                    context=display(server.context),
                    section=self._section(server),
                )
            )
        for router in part.routers:
            self.result.routers.append(
                replace(
                    router,
                    location=self._loc(router.location),
                    args=[self._token(t) for t in router.args],
                    context=display(router.context),
                    section=self._section(router),
                )
            )
        for note in part.notes:
            column = self._column(note.line, note.column) if note.path == self.path else note.column
            self.result.notes.append(replace(note, message=display(note.message), column=column))
        for line, comment in part.comments.items():
            self.result.comments[line] = self._comment_text(line, comment)
        for comment_loc, words_loc in part.continuation_breaks:
            self.result.continuation_breaks.append((self._loc(comment_loc), self._loc(words_loc)))
        for broken in part.broken_continuations:
            self.result.broken_continuations.append(
                replace(broken, location=self._loc(broken.location), orphaned=self._loc(broken.orphaned), trailing=display(broken.trailing), extra=tuple(map(display, broken.extra)))
            )
        # `pip install sglang==X`, `docker run IMAGE` in a block: the release the
        # document's launches are judged by (issue 18).
        for hint in part.version_hints:
            self.result.version_hints.append(replace(hint, location=self._loc(hint.location), text=display(hint.text)))


def analyze_markdown(path: str, text: str, env: Mapping[str, str] | None = None) -> SourceResult:
    """Extract the launches of the code blocks of one Markdown document. Never
    raises for any text."""
    try:
        return MarkdownAnalyzer(path, text, env).run()
    except RecursionError:
        result = SourceResult(path=path, lines=text.split("\n"))
        result.notes.append(Note(path, "document nested too deeply to analyze"))
        return result
