"""The bash syntax tree of the shell source: parsing with tree-sitter-bash, and
reading its nodes (their text, the comments of a tree)."""

from __future__ import annotations


def _parser():
    global _PARSER
    try:
        return _PARSER
    except NameError:
        import tree_sitter
        import tree_sitter_bash

        _PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
        return _PARSER


# tree-sitter-bash's external scanner calls isdigit() on the lookahead code point
# (src/scanner.c:1158 in 0.25.1, after `{` where a brace range may start); for a
# code point past 255 that reads outside glibc's ctype table and can segfault,
# depending on where the table lies in memory. Every byte of a non-ASCII UTF-8
# character becomes 'x' before parsing: byte offsets stay the same, a run of word
# characters stays one run (bash treats them as word characters too), and node
# text is always sliced from the original bytes.
_ASCII_ONLY = bytes(range(128)) + b"x" * 128


def parse_bash(data: bytes):
    return _parser().parse(data if data.isascii() else data.translate(_ASCII_ONLY))


def node_text(node, text) -> str:
    return text.data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def comment_nodes(root, data: bytes) -> list:
    """The comment nodes of the tree, in order. Every comment starts with a `#`:
    each `#` of the text is looked up in the tree (in C) and kept when a comment
    starts there; one inside a string, a heredoc or `${#x}` is another node.
    (Walking every node in Python cost a tenth of a script's analysis; a
    tree-sitter query costs ~10 ms to compile in each process.)"""
    nodes = []
    find = data.find
    offset = find(b"#")
    while offset != -1:
        node = root.descendant_for_byte_range(offset, offset + 1)
        if node is not None and node.type == "comment" and node.start_byte == offset:
            nodes.append(node)
            offset = find(b"#", max(node.end_byte, offset + 1))
        else:
            offset = find(b"#", offset + 1)
    return nodes


def inside_text(node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in ("heredoc_body", "string", "raw_string", "ansi_c_string", "translated_string"):
            return True
        parent = parent.parent
    return False
