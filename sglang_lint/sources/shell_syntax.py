"""The bash syntax tree of the shell source: parsing with tree-sitter-bash, and
reading its nodes (their text, the comments of a tree)."""

from __future__ import annotations

import re


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


# A `$` that starts no expansion is a literal `$` to bash (`--dist-init-addr
# $NODE0$:5757` in a public PD guide passes `10.0.0.1$:5757`), but
# tree-sitter-bash 0.25 fails on one followed by most punctuation (`$:`, `$/`,
# `$}`, ...) or, after an expansion, splits the word there: the line was
# "cannot parse", and `a$X$:1` two arguments. Such a `$` becomes `%` before
# parsing (a word character that starts nothing either; same length, so node
# text, sliced from the original bytes, still reads `$`). `$$` (the shell's
# PID) is one expansion, and `$\` before a newline continues the line.
_LITERAL_DOLLAR = re.compile(rb"\$\$|\$(?=[:/.,%=+^~});|&<>\s]|\\(?!\r?\n)|\Z)")


def _literal_dollar(match: re.Match) -> bytes:
    return b"$$" if match.end() - match.start() == 2 else b"%"


def parse_bash(data: bytes):
    if not data.isascii():
        data = data.translate(_ASCII_ONLY)
    if b"$" in data and _LITERAL_DOLLAR.search(data) is not None:
        data = _LITERAL_DOLLAR.sub(_literal_dollar, data)
    if b"$((" in data and b"<<" in data:
        data = _ARITHMETIC.sub(_shift_right, data)
    return _parser().parse(data)


# `${SIZE:-$((32 << 30))}`: tree-sitter-bash 0.25 takes the `<<` of a shift
# in an arithmetic expansion inside a parameter expansion for a
# here-document, and the function around it was lost (SpecForge's
# disaggregation script). A shift inside `$((...))` is parsed as `>>` (the
# same tree); its operator is read from the original text
# (shell_expansion._arith), so it still shifts left.
_ARITHMETIC = re.compile(rb"\$\(\((?:[^()]|\([^()]*\))*\)\)")


def _shift_right(match: re.Match) -> bytes:
    return match.group().replace(b"<<", b">>")


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


# -- recovery from tree-sitter's ERROR regions ----------------------------------------
# tree-sitter-bash marks some scripts bash accepts as errors (and one broken line
# can make it wrap many valid statements in one ERROR node). Lines it cannot parse
# are blanked (spaces, the newline kept: every byte offset stays) until the rest
# parses, so their neighbours' launches are still read: first the line of the
# first error (up to MAX_ERROR_LINE_REPARSES times), then, per top-level statement
# still in error, each group of lines that does not parse on its own. A group is
# tried from one line up to MAX_GROUP_LINES (an `if` ... `fi` parses only as a
# whole). The recovery parses at most RECOVERY_PARSE_FACTOR times the script's
# size (plus RECOVERY_PARSE_EXTRA bytes) in all: past that, what is left in error
# stays so (and gets the note for it).
MAX_GROUP_LINES = 64
MAX_ERROR_LINE_REPARSES = 16
MAX_REGION_ROUNDS = 8
RECOVERY_PARSE_FACTOR = 40
RECOVERY_PARSE_EXTRA = 2_000_000
_QUOTES = (b'"', b"'", b"`")


class ScriptParse:
    """A script as the shell source reads it. ``data`` is the script's bytes with
    the lines tree-sitter-bash cannot parse blanked and a backslash that ends the
    file dropped (byte offsets are those of the file), ``tree`` its syntax tree,
    ``skipped`` the (first, last) line numbers of each blanked group. ``unclosed``:
    the error is a construct left open at the end of the file (a quote, a `fi`,
    a here-document): bash refuses (or, for a here-document, warns) too, and the
    tree is the original one. ``complete``: no error is left in ``tree``."""

    __slots__ = ("data", "tree", "skipped", "unclosed")

    def __init__(self, data: bytes, tree, skipped: list[tuple[int, int]], unclosed: bool) -> None:
        self.data = data
        self.tree = tree
        self.skipped = skipped
        self.unclosed = unclosed


def parse_script(data: bytes) -> ScriptParse:
    tree = parse_bash(data)
    if not tree.root_node.has_error:
        return _unmerged(data, tree)
    # A backslash that ends the file (before at most one newline) continues the
    # last command into nothing: bash ends the command there (`bash -n` accepts it).
    end = len(data) - (1 if data.endswith(b"\n") else 0)
    if end > 0 and data[end - 1 : end] == b"\\" and (end - len(data[:end].rstrip(b"\\"))) % 2 == 1:
        trimmed = data[: end - 1] + b" " + data[end:]
        trimmed_tree = parse_bash(trimmed)
        if not trimmed_tree.root_node.has_error:
            return ScriptParse(trimmed, trimmed_tree, [], False)
        data, tree = trimmed, trimmed_tree
    if _open_at_end(tree.root_node, data):
        return ScriptParse(data, tree, [], True)
    unfed = _without_condition_heredocs(data)
    if unfed is not None:
        unfed_tree = parse_bash(unfed)
        if not unfed_tree.root_node.has_error:
            return _unmerged(unfed, unfed_tree)
        if _error_bytes(unfed_tree.root_node) < _error_bytes(tree.root_node):
            data, tree = unfed, unfed_tree
    return _blank_unparsed_lines(data, tree)


# `if python3 - <<'PY' "$csv" "$plot"; then`: tree-sitter-bash 0.25 cannot
# parse a here-document in the condition of an `if`/`while` (bash can), and
# its recovery then blanked every line it lost its way on, the headers of the
# functions around it too (their bodies became top-level code). The
# here-document is the condition command's standard input, data to the
# shell: its operator and body (through the terminator line) are blanked
# instead, unless the command is a shell that would run the body.
_CONDITION_HEREDOC = re.compile(rb"^[ \t]*(?:if|elif|while|until)[ \t](?P<before>[^\n]*?)(?<!<)(?P<op><<-?)[ \t]*(?P<quote>['\"]?)(?P<tag>[A-Za-z_][A-Za-z0-9_]*)(?P=quote)", re.M)
_SHELLS = (b"bash", b"sh", b"zsh", b"dash", b"ssh", b"srun", b"kubectl", b"docker")
# Every byte a blank but a newline: the lines stay where they were.
_BLANK_BUT_NEWLINES = bytes(0x0A if byte == 0x0A else 0x20 for byte in range(256))


def _without_condition_heredocs(data: bytes) -> bytes | None:
    if b"<<" not in data:
        return None
    masked: bytearray | None = None
    for match in _CONDITION_HEREDOC.finditer(data):
        if any(word in _SHELLS for word in match.group("before").split()):
            continue
        body = data.find(b"\n", match.end()) + 1
        if not body:
            continue
        tag = match.group("tag")
        strip_tabs = match.group("op") == b"<<-"
        at = body
        end = -1
        while at < len(data):
            stop = data.find(b"\n", at)
            stop = len(data) if stop == -1 else stop
            line = data[at:stop].rstrip(b"\r")
            if (line.lstrip(b"\t") if strip_tabs else line) == tag:
                end = stop
                break
            at = stop + 1
        if end == -1:
            continue
        if masked is None:
            masked = bytearray(data)
        masked[match.start("op") : match.end()] = b" " * (match.end() - match.start("op"))
        masked[body:end] = data[body:end].translate(_BLANK_BUT_NEWLINES)
    return bytes(masked) if masked is not None else None


def _error_bytes(root) -> int:
    """How many bytes of the text the tree's ERROR nodes cover."""
    total = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error:
            total += node.end_byte - node.start_byte
        elif node.has_error:
            stack.extend(node.children)
    return total


# Lines blanked at most to undo commands tree-sitter-bash merged (_unmerged).
MAX_MERGED_REPARSES = 8


def _unmerged(data: bytes, tree) -> ScriptParse:
    """A tree without errors in which tree-sitter-bash may still have read
    several lines as one command: a pipeline of three or more commands and,
    later, a here-document with a file redirection (``find . | sort | head``
    ... ``cat > run.sh <<'SH'``) made it take every line between them for the
    last command's arguments, with no ERROR node (the grammar's; upstream
    tree-sitter-bash issue 316 is the same kind): the launches in between
    became words of ``head``. bash ends a simple command at a newline that no
    backslash escapes. The line where such a command starts is blanked, as a
    line tree-sitter cannot parse is (its note says so), and the script parsed
    again, while that parses without error.

    One such merge is read right instead: a line of two or more assignments
    (``MODEL=/m TP=8``) taken for the environment of the next line's command
    (:func:`_assignment_line_ends`). tree-sitter reads the script with a ``;``
    in place of that line's newline (the same bytes otherwise, so every node's
    offsets are the file's; its rows past there are not, and nothing reads
    them); the text the walker reads keeps the newline."""
    merged = _merged_command(tree.root_node, data)
    if merged is None:
        return ScriptParse(data, tree, [], False)
    masked = bytearray(data)  # the walker's text: lines blanked
    parse_input = bytearray(data)  # tree-sitter's: the same, and a `;` ending each assignment line
    skipped: list[int] = []
    for _ in range(MAX_MERGED_REPARSES):
        if merged is None:
            break
        saved = bytes(masked), bytes(parse_input)
        ends = _assignment_line_ends(tree.root_node, bytes(parse_input))
        for newline in ends:
            parse_input[newline] = ord(";")
        if not ends:
            start = data.rfind(b"\n", 0, merged.start_byte) + 1
            stop = data.find(b"\n", start)
            stop = len(data) if stop == -1 else stop
            masked[start:stop] = parse_input[start:stop] = b" " * (stop - start)
        repaired = parse_bash(bytes(parse_input))
        if repaired.root_node.has_error:
            masked[:], parse_input[:] = saved  # the change made it worse: keep what was
            break
        if not ends:
            skipped.append(data.count(b"\n", 0, merged.start_byte) + 1)
        tree = repaired
        merged = _merged_command(tree.root_node, bytes(parse_input))
    groups = [(line, line) for line in sorted(set(skipped))]
    return ScriptParse(bytes(masked), tree, groups, False)


def _assignment_line_ends(root, data: bytes) -> list[int]:
    """The newlines that end a line of assignments tree-sitter-bash 0.25 read
    as the environment of the next line's command: ``A=1 B=2`` alone on its
    line (lines of one assignment may follow it), then a command, a
    ``[[ ... ]]`` or a compound command's keyword, which it then takes for a
    command's name (bash ends the line's statement at the newline: the
    assignments set shell variables, ``MODEL=/m TP=8`` before the launch that
    expands them). Blanking the line, as for another merge, lost the values,
    with a note."""
    ends = []
    for command in _multiline_commands(root):
        children = command.children
        # Each newline after one of the leading assignments ends a line of
        # them (the next line may hold more, or the command's own
        # environment: `CUDA_VISIBLE_DEVICES=0 python ...`).
        index = 0
        while index + 1 < len(children) and children[index].type == "variable_assignment":
            start = children[index].end_byte
            gap = data[start : children[index + 1].start_byte]
            newline = gap.find(b"\n")
            if newline != -1 and not gap[:newline].strip(b" \t\r"):
                ends.append(start + newline)
            index += 1
    return ends


def _merged_command(root, data: bytes):
    """The first ``command`` node that runs on past a newline no backslash
    escapes, between two of its parts; None when there is none."""
    for command in _multiline_commands(root):
        children = command.children
        for before, after in zip(children, children[1:]):
            gap = data[before.end_byte : after.start_byte]
            newline = gap.find(b"\n")
            # (a CRLF line end after the backslash continues it too, as tree-sitter reads it)
            if newline != -1 and not gap[:newline].rstrip(b"\r").endswith(b"\\"):
                return command
    return None


def _multiline_commands(root):
    """The ``command`` nodes that span several lines, in the text's order
    (only nodes spanning several lines are looked into)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.start_point[0] == node.end_point[0]:
            continue
        if node.type == "command":
            yield node
        stack.extend(reversed(node.children))


def _open_at_end(root, data: bytes) -> bool:
    """Whether the error is a construct still open at the end of the file, and
    nothing else: a MISSING closing token there (`"`, `fi`, `done`, a
    here-document's end) with no ERROR node anywhere, or one ERROR that starts
    with a quote (an unclosed `'`) or a here-document's `<<EOF` and runs to the
    end. A MISSING `fi` at the end beside an ERROR elsewhere, or beside a token
    missing before the end, is tree-sitter losing its way on a line it cannot
    parse (`[ ! \\( -f a \\) ]` inside an `if`), not a script bash refuses."""
    end = len(data.rstrip())
    innermost = []
    missing_at_end = False
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing and node.start_byte >= end:
            missing_at_end = True
        elif node.is_missing:
            # A token missing before the end too (a `]` in the middle, then `}`
            # and `done` at the end, after `[ ! \( -f a \) ]` in a function in a
            # loop): tree-sitter lost its way, not a construct left open.
            return False
        # (An ERROR leaf's has_error is False: is_error says it.)
        if node.is_error and not any(child.has_error or child.is_error for child in node.children):
            innermost.append(node)
        if node.has_error:
            stack.extend(node.children)
    if not innermost:
        return missing_at_end
    if len(innermost) != 1 or innermost[0].end_byte < end:
        return False
    error = innermost[0]
    return data[error.start_byte : error.start_byte + 1] in _QUOTES or (error.child_count == 2 and error.children[1].type == "heredoc_start")


def _blank_unparsed_lines(data: bytes, tree) -> ScriptParse:
    starts = [0]
    find = data.find
    newline = find(b"\n")
    while newline != -1:
        starts.append(newline + 1)
        newline = find(b"\n", newline + 1)
    masked = bytearray(data)
    skipped: list[int] = []
    # Bytes tree-sitter may parse for the recovery, whole-text parses included.
    budget = RECOVERY_PARSE_FACTOR * len(data) + RECOVERY_PARSE_EXTRA

    def parses(chunk: bytes) -> bool:
        nonlocal budget
        budget -= len(chunk) + 1
        return not parse_bash(chunk).root_node.has_error

    def reparse():
        nonlocal budget
        budget -= len(masked)
        return parse_bash(bytes(masked))

    def line_bytes(first: int, last: int) -> bytes:  # 0-based rows, inclusive
        stop = starts[last + 1] if last + 1 < len(starts) else len(masked)
        return bytes(masked[starts[first] : stop])

    def blank(row: int) -> None:
        stop = starts[row + 1] - 1 if row + 1 < len(starts) else len(masked)
        masked[starts[row] : stop] = b" " * (stop - starts[row])
        skipped.append(row + 1)

    # First, from the line where tree-sitter's first innermost error starts, the
    # first line that does not parse alone: the statements around it (a
    # function's body, an `if`) keep their structure. A blank that does not move
    # the first error further down is undone.
    for _ in range(MAX_ERROR_LINE_REPARSES):
        row = _first_error_row(tree.root_node)
        if row is None or budget <= 0:
            break
        culprit = next((r for r in range(row, min(len(starts), row + MAX_GROUP_LINES)) if not parses(line_bytes(r, r))), None)
        if culprit is None:
            break
        saved = bytes(masked)
        blank(culprit)
        repaired = reparse()
        after = _first_error_row(repaired.root_node)
        if after is not None and after <= row:
            masked[:] = saved
            skipped.pop()
            break
        tree = repaired
        if after is None:
            break

    # Then every top-level statement still in error, by groups of lines.
    for _ in range(MAX_REGION_ROUNDS):
        if not tree.root_node.has_error or budget <= 0:
            break
        blanked = len(skipped)
        # (The root itself is an ERROR node when nothing in it parses.)
        regions = [child for child in tree.root_node.children if child.has_error or child.is_missing] or [tree.root_node]
        for region in regions:
            first, last = region.start_point[0], region.end_point[0]
            if region.end_point[1] == 0 and last > first:
                last -= 1  # the region ends at a line's start: that line is not in it
            row = first
            while row <= last and budget > 0:
                group_end = next((end for end in range(row, min(last, row + MAX_GROUP_LINES - 1) + 1) if budget > 0 and parses(line_bytes(row, end))), None)
                if group_end is None:
                    blank(row)
                    row += 1
                else:
                    row = group_end + 1
        tree = reparse()
        if len(skipped) == blanked:
            break  # every group parses alone, and not together: give up
    groups: list[tuple[int, int]] = []
    for line in sorted(set(skipped)):
        if groups and groups[-1][1] >= line - 1:
            groups[-1] = (groups[-1][0], max(groups[-1][1], line))
        else:
            groups.append((line, line))
    return ScriptParse(bytes(masked), tree, groups, False)


def _first_error_row(root) -> int | None:
    """The row of the first innermost ERROR node (or MISSING token) of the tree."""
    stack = [root]
    while stack:
        node = stack.pop()
        if (node.is_error and not any(child.has_error or child.is_error for child in node.children)) or node.is_missing:
            return node.start_point[0]
        if node.has_error:
            stack.extend(reversed(node.children))
    return None
