"""Fast paths added for speed (issue 7) give exactly what the general code gives.

Each shortcut here skips work on the common case; these tests hold it to the
result of the slow path it replaces, on hand-picked edge cases and on random
input (hypothesis)."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sglang_lint.catalog.settings import Overlay, Setting
from sglang_lint.model import Value
from sglang_lint.sources import python_interpreter, yaml_manifest
from sglang_lint.sources.python import analyze_python
from sglang_lint.sources.python_literals import scan_string_literals, simple_literal_start

# -- Python string literals: contiguous positions vs the general scanner ---------------


def _slow_positions(line: str, start: int, end: int):
    chars = [(line[i], (1, i + 1)) for i in range(start, end)]
    scanned = scan_string_literals(chars)
    if scanned is None:
        return None
    text, positions, has_fields = scanned
    return None if has_fields else (text, positions)


def _literal_nodes(source: str):
    return [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Constant) and isinstance(node.value, str)]


EDGE_LITERALS = [
    "'--tp-size'",
    '"--tp-size 8"',
    "r'--x'",
    "u'--x'",
    "R\"a b\"",
    "''",
    '""',
    "'''abc'''",
    '"""abc"""',
    "'a' 'b'",
    "'a\\'b'",
    '"a\\nb"',
    "r'a\\b'",
    "'caf\u00e9 --tp 8'",
    "'\u6f22\u5b57'",
    '"it\'s"',
    "'say \"hi\"'",
]


def test_simple_literal_positions_match_the_scanner_on_edge_cases() -> None:
    for literal in EDGE_LITERALS:
        source = f"x = {literal}"
        for node in _literal_nodes(source):
            segment = source[node.col_offset : node.end_col_offset] if source.isascii() else ast.get_source_segment(source, node)
            offset = simple_literal_start(segment, node.value)
            slow = _slow_positions(source, 4, 4 + len(segment))
            if offset is None:
                continue  # the general scanner handles it
            assert slow is not None, literal
            text, positions = slow
            assert text == node.value
            assert positions == [(1, 5 + offset + i) for i in range(len(node.value))], literal


@settings(max_examples=300, deadline=None)
@given(
    value=st.text(alphabet=st.sampled_from(list("ab -=\\'\"\u00e9\u6f22")), max_size=12),
    prefix=st.sampled_from(["", "r", "u", "R"]),
    quote=st.sampled_from(["'", '"']),
)
def test_simple_literal_positions_match_the_scanner(value: str, prefix: str, quote: str) -> None:
    literal = prefix + repr(value) if prefix in ("", "u") else prefix + quote + value.replace("\\", "").replace(quote, "") + quote
    source = f"x = {literal}"
    try:
        nodes = _literal_nodes(source)
    except SyntaxError:
        return
    for node in nodes:
        segment = ast.get_source_segment(source, node)
        assert segment is not None
        offset = simple_literal_start(segment, node.value)
        if offset is None:
            continue
        text, positions = _slow_positions(source, 4, 4 + len(segment))
        assert text == node.value
        assert positions == [(1, 5 + offset + i) for i in range(len(node.value))]


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def test_python_results_are_the_same_without_the_literal_fast_path(monkeypatch) -> None:
    launchers = sorted(FIXTURES.rglob("*.py"))
    assert len(launchers) >= 10
    fast = [analyze_python(str(path), path.read_text(encoding="utf-8")) for path in launchers]
    monkeypatch.setattr(python_interpreter, "simple_literal_start", lambda source, value: None)
    slow = [analyze_python(str(path), path.read_text(encoding="utf-8")) for path in launchers]
    assert any(result.servers for result in fast)
    for quick, general in zip(fast, slow):
        assert quick == general, quick.path


# -- YAML nesting: the quick exit agrees with the scan ------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["[", "{", "]", "}", " ", "\n", "#", "'", '"', "a", ":"]), max_size=600))
def test_yaml_depth_quick_exit_never_hides_a_deep_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    depth_at = yaml_manifest._too_deep(text)
    if depth_at is not None:
        assert text.count("[") + text.count("{") > yaml_manifest.MAX_DEPTH or " " * (2 * yaml_manifest.MAX_DEPTH + 1) in text


def test_yaml_depth_is_still_found_past_the_quick_exit() -> None:
    deep_brackets = "a: " + "[" * (yaml_manifest.MAX_DEPTH + 1)
    assert yaml_manifest._too_deep(deep_brackets) == 3 + yaml_manifest.MAX_DEPTH
    deep_indent = "a:\n" + " " * (2 * yaml_manifest.MAX_DEPTH + 1) + "b: 1\n"
    assert yaml_manifest._too_deep(deep_indent) is not None
    leading = " " * (2 * yaml_manifest.MAX_DEPTH + 1) + "b: 1\n"
    assert yaml_manifest._too_deep(leading) is not None
    quoted = "a: '" + "[" * (yaml_manifest.MAX_DEPTH + 1) + "'\n"
    assert yaml_manifest._too_deep(quoted) is None  # brackets in quotes do not nest


# -- Overlay: a launch's settings over shared defaults, as a ChainMap would -------------


def _setting(dest: str, text: str) -> Setting:
    return Setting(dest, Value.known(text))


def test_overlay_reads_own_settings_before_defaults_and_never_writes_the_defaults() -> None:
    from collections import ChainMap

    defaults = {"tp_size": _setting("tp_size", "1"), "dp_size": _setting("dp_size", "1"), "port": _setting("port", "30000")}
    overlay = Overlay(defaults)
    reference: ChainMap = ChainMap({}, dict(defaults))
    for mapping in (overlay, reference):
        mapping["tp_size"] = _setting("tp_size", "8")
        mapping["new_dest"] = _setting("new_dest", "x")
    assert dict(overlay) == dict(reference)
    assert list(overlay) == ["tp_size", "new_dest", "dp_size", "port"]
    assert len(overlay) == len(reference) == 4
    assert overlay["tp_size"].value.text == "8" and overlay.get("dp_size").value.text == "1"
    assert overlay.get("missing") is None and overlay.get("missing", 5) == 5
    assert "port" in overlay and "new_dest" in overlay and "missing" not in overlay
    assert defaults["tp_size"].value.text == "1"  # shared by every launch: untouched
    del overlay["tp_size"]
    assert overlay["tp_size"].value.text == "1"


# -- Python: the names called in a module, by our walk and by ast.walk -------------------


def _called_names_by_ast_walk(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                names.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                base = node.func.value
                # (`super().__init__()` calls a base's method, not one of this name)
                if not (isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super"):
                    names.add(node.func.attr)
    return names


def test_called_names_match_ast_walk_on_fixtures_and_standard_library_modules() -> None:
    import argparse
    import asyncio.base_events
    import dataclasses
    import typing

    paths = sorted(FIXTURES.rglob("*.py")) + [Path(m.__file__) for m in (argparse, asyncio.base_events, dataclasses, typing, ast)]
    for path in paths:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:
            continue  # fixtures of syntax errors
        assert python_interpreter._called_names(tree) == _called_names_by_ast_walk(tree), path
    nested = ast.parse("x = [f(a)(b) for a in g(lambda: h())] if k() else {m(): n.o()}\nasync def p():\n    await q(*r(), **s())\n")
    assert python_interpreter._called_names(nested) == {"f", "g", "h", "k", "m", "o", "q", "r", "s"}
    based = ast.parse("class A(B):\n    def __init__(self):\n        super().__init__()\n        super(A, self).setup()\n")
    assert python_interpreter._called_names(based) == {"super"}


# -- shell comments: each `#` looked up in the tree, as a tree-sitter query finds them --


def _comments_by_query(root) -> list[tuple[int, int]]:
    import tree_sitter
    import tree_sitter_bash

    query = tree_sitter.Query(tree_sitter.Language(tree_sitter_bash.language()), "(comment) @comment")
    cursor = getattr(tree_sitter, "QueryCursor", None)
    captures = cursor(query).captures(root) if cursor is not None else query.captures(root)
    nodes = list(captures.get("comment", [])) if isinstance(captures, dict) else [node for node, _ in captures]
    return sorted((node.start_byte, node.end_byte) for node in nodes)


SHELL_COMMENT_CASES = [
    "#!/bin/bash\n# a comment\necho hi # trailing\n",
    "echo '# not a comment' \"# nor this\" ${#array[@]} $#\n",
    "cat <<EOF\n# heredoc text\nEOF\n# after\n",
    "python -m sglang.launch_server \\\n  --tp 8 \\\n  # comment ends the command\n  --pp 2\n",
    "x=a#b # real\ncase $x in\n  a) # in case\n  ;;\nesac\n",
    "echo $(echo hi # inner\n)\n",
    "##\n#\n# é 𝔘 unicode\necho ok#notcomment\n",
    "if true; then # c1\n  :\nfi # c2\n",
    "echo 'unterminated # quote\n# more\n",
]


def test_shell_comment_nodes_match_a_tree_sitter_query() -> None:
    from sglang_lint.sources.shell_syntax import comment_nodes, parse_bash

    texts = list(SHELL_COMMENT_CASES) + [p.read_text(encoding="utf-8", errors="replace") for p in sorted(FIXTURES.rglob("*.sh"))]
    assert len(texts) > 20
    for text in texts:
        data = text.encode("utf-8", "surrogatepass")
        root = parse_bash(data).root_node
        assert [(n.start_byte, n.end_byte) for n in comment_nodes(root, data)] == _comments_by_query(root), text[:80]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["#", " ", "\n", "'", '"', "$", "{", "}", "(", ")", "echo", "x=", "\\", "<<E", "E", ";", "`"]), max_size=60))
def test_shell_comment_nodes_match_a_tree_sitter_query_on_random_text(pieces: list[str]) -> None:
    from sglang_lint.sources.shell_syntax import comment_nodes, parse_bash

    data = "".join(pieces).encode()
    root = parse_bash(data).root_node
    assert [(n.start_byte, n.end_byte) for n in comment_nodes(root, data)] == _comments_by_query(root)


# -- values sent by worker processes ----------------------------------------------------


def test_known_values_survive_pickling_as_shared_equal_objects() -> None:
    import pickle

    from sglang_lint.model import ArgToken, Location, Value

    values = [
        Value.known("--tp-size"),
        Value.known(""),
        Value.known("é𝔘"),
        Value.one_of([Value.known("4"), Value.known("8")]),
        Value.symbol("TP", "8"),
        Value.unknown("a reason"),
        Value.concat([Value.known("--tp="), Value.symbol("TP")]),
    ]
    for value in values:
        again = pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        assert again == value and hash(again) == hash(value) and again.kind is value.kind
    first = pickle.loads(pickle.dumps(Value.known("--tp-size")))
    second = pickle.loads(pickle.dumps(ArgToken(Value.known("--tp-size"), Location("a.sh", 1, 1))))
    assert first is second.value  # one object per text in the receiving process
    long_text = "x" * 1000
    assert pickle.loads(pickle.dumps(Value.known(long_text))) == Value.known(long_text)
