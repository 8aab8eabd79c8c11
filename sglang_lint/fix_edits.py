"""Insertions per language (issue 21): new argv words after a word of a launch,
written the way the file writes its launch.

A rule knows the launch (its argv words and where each is written), not the
file's syntax. To add ``--enable-unified-memory`` to a decode it proposes a
:class:`~sglang_lint.model.Fix` with ``insert`` (the words) at the launch's last
word; this module turns that into a text edit for the file:

- a shell word (a script, a Markdown shell block, a YAML scalar holding a
  command): `` --enable-unified-memory`` after the word, on its line, so a
  backslash continuation keeps its layout;
- an item of a flow list (``[a, "b"]`` in YAML or Markdown): ``, WORD`` after it,
  quoted as it is;
- an item of a YAML block list (``- b``): a new ``- WORD`` line at its indentation;
- Python, through libcst (imported here only, when a Python file is fixed): the
  list element after which to insert is found by its position (libcst's
  ``PositionProvider``), and the new element copies the list's layout: one per
  line or inline, with its trailing comma. After a keyword argument of
  ``Engine(...)`` / ``ServerArgs(...)``, the option becomes a keyword:
  ``enable_unified_memory=True``.

The edit is the span that changed: libcst regenerates the module with every
byte it did not change given back, and the text common to both is left out.
None when the place is not one of these (the word comes from a variable, a
string built at run time...).
"""

from __future__ import annotations

import os
import re
import shlex

from msgspec import Struct

from sglang_lint.model import Location

_PLAIN_YAML = re.compile(r"[A-Za-z0-9_./:-]+\Z")


class TextEdit(Struct, frozen=True):
    """Replace the text from (line, column) to (end_line, end_column) (1-based,
    code points, end exclusive) of ``path`` with ``new_text``."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    new_text: str


class _Word:
    """The word of a launch written at ``anchor`` on one line, and where it
    stands: in a flow list (``[a, "b"]``: a comma or bracket follows), as a
    YAML block list item (``- b``: ``item_indent`` is the indentation of its
    dash), else a shell word."""

    def __init__(self, lines: list[str], anchor: Location) -> None:
        self.valid = anchor.end_line == anchor.line and 1 <= anchor.line <= len(lines)
        self.text = lines[anchor.line - 1] if self.valid else ""
        start, end = anchor.column - 1, anchor.end_column - 1
        self.valid = self.valid and 0 <= start < end <= len(self.text)
        self.written = self.text[start:end] if self.valid else ""
        self.quote = self.written[0] if self.written[:1] in ("\"", "'") else ""
        self.python = os.path.splitext(anchor.path)[1] == ".py"
        self.in_flow_list = self.text[end:].lstrip().startswith((",", "]"))
        item = re.match(r"(\s*)-\s", self.text)
        block = item is not None and self.text[:start].strip() == "-" and os.path.splitext(anchor.path)[1] in (".yaml", ".yml", ".md", ".markdown")
        self.item_indent = item.group(1) if block and item is not None else None


def insertion_edit(lines: list[str], anchor: Location, words: tuple[str, ...]) -> TextEdit | None:
    """The edit that inserts ``words`` after the word written at ``anchor``."""
    word = _Word(lines, anchor)
    if not words or not word.valid:
        return None
    if word.python:
        return _python_insertion(lines, anchor, words)
    quote = word.quote
    if word.in_flow_list:  # YAML, or a Python list in Markdown
        if quote or all(_PLAIN_YAML.match(w) for w in words):
            added = "".join(f", {quote}{w}{quote}" for w in words)
            return TextEdit(anchor.path, anchor.line, anchor.end_column, anchor.line, anchor.end_column, added)
        return None
    if word.item_indent is not None:
        if not all(_PLAIN_YAML.match(w) for w in words):
            return None
        added = "".join(f"\n{word.item_indent}- {quote}{w}{quote}" for w in words)
        end = len(word.text) + 1
        return TextEdit(anchor.path, anchor.line, end, anchor.line, end, added)
    # A shell word (or a command string's word): after it, on its line.
    added = "".join(" " + shlex.quote(w) for w in words)
    return TextEdit(anchor.path, anchor.line, anchor.end_column, anchor.line, anchor.end_column, added)


def _python_items(lines: list[str], anchor: Location):
    """libcst's module of ``lines`` and the one list, tuple or call holding an
    item (a keyword argument's value, for a call) that starts at ``anchor``,
    with its index; None when there is no such single place."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    source = "\n".join(lines)
    try:
        wrapper = MetadataWrapper(cst.parse_module(source))
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        return None
    positions = wrapper.resolve(PositionProvider)
    target = (anchor.line, anchor.column - 1)
    found: list[tuple[cst.CSTNode, int]] = []  # (list or call, index of the anchor in it)

    class _Finder(cst.CSTVisitor):
        def visit_List(self, node: cst.List) -> None:
            self._look(node, node.elements, lambda element: element.value)

        def visit_Tuple(self, node: cst.Tuple) -> None:
            if node.lpar:
                self._look(node, node.elements, lambda element: element.value)

        def visit_Call(self, node: cst.Call) -> None:
            self._look(node, node.args, lambda arg: arg.value if arg.keyword is not None else None)

        def _look(self, node, items, value_of) -> None:
            for index, item in enumerate(items):
                value = value_of(item)
                if value is not None and (positions[value].start.line, positions[value].start.column) == target:
                    found.append((node, index))

    wrapper.module.visit(_Finder())
    if len(found) != 1:
        return None
    return wrapper, source, found[0][0], found[0][1]


def _python_insertion(lines: list[str], anchor: Location, words: tuple[str, ...]) -> TextEdit | None:
    import libcst as cst

    place = _python_items(lines, anchor)
    if place is None:
        return None
    wrapper, source, node, index = place
    if isinstance(node, cst.Call):
        new_items = _keywords(words, cst)
        if new_items is None:
            return None
        items = list(node.args)
    else:
        value = node.elements[index].value
        quote = value.quote if isinstance(value, cst.SimpleString) else '"'
        new_items = [cst.Element(cst.SimpleString(f"{quote}{w}{quote}")) for w in words]
        items = list(node.elements)
    updated = _inserted(items, index, new_items, cst)
    return _replaced(wrapper, source, anchor.path, node, index, items, updated, cst)


def _keywords(words: tuple[str, ...], cst) -> list | None:
    """``--page-size 16 --enable-x`` as ``Engine(...)`` keywords: ``page_size=16,
    enable_x=True`` (a number stays a number, any other value a string)."""
    arguments = []
    index = 0
    while index < len(words):
        word = words[index]
        if not word.startswith("--") or not word[2:].replace("-", "_").isidentifier():
            return None
        following = words[index + 1] if index + 1 < len(words) else None
        if following is None or following.startswith("--"):
            value = cst.Name("True")
            index += 1
        else:
            value = cst.Integer(following) if following.isdigit() else cst.SimpleString(f'"{following}"')
            index += 2
        equal = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))
        arguments.append(cst.Arg(keyword=cst.Name(word[2:].replace("-", "_")), value=value, equal=equal))
    return arguments


def _replaced(wrapper, source: str, path: str, node, index: int, items: list, updated: list, cst) -> TextEdit | None:
    """The edit that gives ``node`` the items ``updated`` (the anchor at
    ``index``): the module regenerated by libcst (with the indentation of its
    block), reduced to the span that changed."""
    new_node = node.with_changes(args=updated) if isinstance(node, cst.Call) else node.with_changes(elements=updated)
    if isinstance(node, cst.List) and index == len(items) - 1:
        # `"30002",  # the port` then `]`: libcst keeps that comment before the
        # bracket; it stays on the anchor's line.
        closing = node.rbracket.whitespace_before
        comma = updated[index].comma
        if (
            isinstance(closing, cst.ParenthesizedWhitespace)
            and closing.first_line.comment is not None
            and isinstance(comma, cst.Comma)
            and isinstance(comma.whitespace_after, cst.ParenthesizedWhitespace)
        ):
            updated[index] = updated[index].with_changes(comma=comma.with_changes(whitespace_after=comma.whitespace_after.with_changes(first_line=closing.first_line)))
            new_node = node.with_changes(
                elements=updated, rbracket=node.rbracket.with_changes(whitespace_before=closing.with_changes(first_line=cst.TrailingWhitespace()))
            )
    fixed = wrapper.module.deep_replace(node, new_node).code
    return _changed_span(path, source, fixed)


def split_edit(lines: list[str], anchor: Location, written: str, name: str) -> TextEdit | None:
    """The edit that turns the word ``WRITTEN=VALUE`` at ``anchor`` into the two
    words ``NAME`` and ``VALUE`` (SGL206: ``--config=FILE`` -> ``--config FILE``):
    two list items in Python (libcst), YAML and flow lists, a blank in a shell
    word. None when the word is quoted in a shell (the blank would stay inside
    the quotes) or is not written as one literal."""
    word = _Word(lines, anchor)
    if not word.valid:
        return None
    written_word, quote = word.written, word.quote
    prefix = written + "="
    inner = written_word[len(quote) : len(written_word) - len(quote)] if quote and written_word.endswith(quote) and len(written_word) > 1 else written_word
    if not inner.startswith(prefix):
        return None
    value = inner[len(prefix) :]
    if word.python and quote:
        return _python_split(lines, anchor, name, value)
    # (A word of a command string in Python is a shell word: below.)
    if word.in_flow_list:
        return TextEdit(anchor.path, anchor.line, anchor.column, anchor.line, anchor.end_column, f"{quote}{name}{quote}, {quote}{value}{quote}")
    if word.item_indent is not None:
        replacement = f"{quote}{name}{quote}\n{word.item_indent}- {quote}{value}{quote}"
        return TextEdit(anchor.path, anchor.line, anchor.column, anchor.line, anchor.end_column, replacement)
    if quote:
        return None
    return TextEdit(anchor.path, anchor.line, anchor.column, anchor.line, anchor.column + len(prefix), name + " ")


def _python_split(lines: list[str], anchor: Location, name: str, value: str) -> TextEdit | None:
    import libcst as cst

    place = _python_items(lines, anchor)
    if place is None:
        return None
    wrapper, source, node, index = place
    if isinstance(node, cst.Call):
        return None
    element = node.elements[index]
    if not isinstance(element.value, cst.SimpleString) or element.value.prefix:
        return None
    quote = element.value.quote
    items = list(node.elements)
    first = element.with_changes(value=cst.SimpleString(f"{quote}{name}{quote}"))
    items_with_first = [*items[:index], first, *items[index + 1 :]]
    updated = _inserted(items_with_first, index, [cst.Element(cst.SimpleString(f"{quote}{value}{quote}"))], cst)
    return _replaced(wrapper, source, anchor.path, node, index, items, updated, cst)


def _changed_span(path: str, before: str, after: str) -> TextEdit | None:
    """The one edit that turns ``before`` into ``after``: what lies between
    their common head and tail."""
    if before == after:
        return None
    head = 0
    limit = min(len(before), len(after))
    while head < limit and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < limit - head and before[len(before) - 1 - tail] == after[len(after) - 1 - tail]:
        tail += 1

    def position(offset: int) -> tuple[int, int]:
        line = before.count("\n", 0, offset) + 1
        return line, offset - (before.rfind("\n", 0, offset) + 1) + 1

    (line, column), (end_line, end_column) = position(head), position(len(before) - tail)
    return TextEdit(path, line, column, end_line, end_column, after[head : len(after) - tail])


def _inserted(items: list, index: int, new_items: list, cst) -> list:
    """``items`` with ``new_items`` after ``items[index]``, in the layout of the
    list: each new item takes the comma (and the line break and indentation
    after it) that separates the items; the last keeps the trailing comma, or
    its absence."""
    anchor = items[index]
    separator = None
    for item in items[: len(items) - 1]:
        if isinstance(item.comma, cst.Comma):
            separator = item.comma
            break
    if separator is None:
        separator = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    if index == len(items) - 1:
        # The last item: it gets the separator, the new last one its comma (a
        # trailing comma stays, no comma stays none). One item a line: the
        # comment at the end of the anchor's line stays on that line.
        trailing = anchor.comma
        own = separator
        if isinstance(trailing, cst.Comma) and isinstance(trailing.whitespace_after, cst.ParenthesizedWhitespace) and isinstance(separator.whitespace_after, cst.ParenthesizedWhitespace):
            own = separator.with_changes(whitespace_after=separator.whitespace_after.with_changes(first_line=trailing.whitespace_after.first_line))
            trailing = trailing.with_changes(whitespace_after=trailing.whitespace_after.with_changes(first_line=cst.TrailingWhitespace()))
        added = [item.with_changes(comma=separator) for item in new_items[:-1]] + [new_items[-1].with_changes(comma=trailing)]
        return [*items[:index], anchor.with_changes(comma=own), *added, *items[index + 1 :]]
    comma = anchor.comma if isinstance(anchor.comma, cst.Comma) else separator
    if isinstance(comma.whitespace_after, cst.ParenthesizedWhitespace):
        # A comment at the end of the anchor's line stays there alone.
        comma = comma.with_changes(whitespace_after=comma.whitespace_after.with_changes(first_line=cst.TrailingWhitespace()))
    added = [item.with_changes(comma=comma) for item in new_items]
    return [*items[: index + 1], *added, *items[index + 1 :]]
