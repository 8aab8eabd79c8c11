"""The cross-file pre-check's import reader (prefilter.imported_names, issue 20),
held to CPython's own parser: every name an import statement of a file binds,
as ``ast`` reads it, is among what the byte scan finds. It may find more (an
import written inside a string), never less: a file that imports a launching
helper and spells no launch is analyzed only if its import is seen."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sglang_lint.prefilter import imported_names

ROOT = Path(__file__).resolve().parent.parent


def _imports_by_cpython(source: bytes) -> set[tuple[str, str]]:
    found = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (escape sequences of the files read)
        tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found.update(("." * node.level + (node.module or ""), alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update((alias.name, "") for alias in node.names)
    return found


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (b"from helpers import start\nstart('prefill', 8)\n", {("helpers", "start")}),
        (b"import os, a.b as c; from .x import (y,\n    z as w,  # (a comment)\n)\n", {("os", ""), ("a.b", ""), (".x", "y"), (".x", "z")}),
        (b"if True: from m import n\n", {("m", "n")}),
        (b"from . import a\nfrom .import (b)\n", {(".", "a"), (".", "b")}),
        (b"from \\\n  pkg.mod import \\\n  f, g\n", {("pkg.mod", "f"), ("pkg.mod", "g")}),
        (b"# a comment ending in a backslash \\\nimport sys\n", {("sys", "")}),
        (b"from a import *\r\nfrom b import c\r\n", {("a", "*"), ("b", "c")}),
        (b"from a import \\\r\n b\n", {("a", "b")}),
        (b"from sglang.srt.server_args import (  # noqa: F401  (re-export)\n    ServerArgs,\n    helper,\n)\n", {("sglang.srt.server_args", "ServerArgs"), ("sglang.srt.server_args", "helper")}),
        (b"try:\n    from fast import run\nexcept ImportError:\n    from slow import run\n", {("fast", "run"), ("slow", "run")}),
        (b"def f():\n    from .helpers import start  # imported where it runs\n    start()\n", {(".helpers", "start")}),
    ],
)
def test_the_imports_of_a_file(source: bytes, expected: set[tuple[str, str]]) -> None:
    assert set(imported_names(source)) == expected == _imports_by_cpython(source)


@pytest.mark.parametrize(
    "source",
    [b"importlib.import_module('helpers')\n", b"#from helpers import start\n", b"x = important + imports\n", b"print('import')\n", b""],
)
def test_no_import_statement_no_names(source: bytes) -> None:
    assert imported_names(source) == ()


def test_an_import_in_a_string_may_count() -> None:
    # Generous by design: the Python source decides on the parsed file.
    assert ("helpers", "start") in imported_names(b'"""Usage:\n\nfrom helpers import start\n"""\n')


def _python_files() -> list[Path]:
    roots = [ROOT / "sglang_lint", ROOT / "tests", ROOT / "fixtures", ROOT / "benchmarks"]
    ours = [path for root in roots if root.is_dir() for path in sorted(root.rglob("*.py"))]
    return ours + sorted(Path(ast.__file__).parent.glob("*.py"))  # (the standard library's top level)


def test_every_import_cpython_reads_is_found_in_real_files() -> None:
    """This repository's Python files and the standard library's top-level
    modules (~430 files, every way of writing an import they use)."""
    checked = 0
    for path in _python_files():
        source = path.read_bytes()
        try:
            expected = _imports_by_cpython(source)
        except (SyntaxError, ValueError):
            continue  # (test data that is not Python)
        missing = expected - set(imported_names(source))
        assert not missing, f"{path}: {sorted(missing)}"
        checked += 1
    assert checked > 400


_NAME = st.sampled_from(["a", "helpers", "start", "pkg", "mod", "Launcher", "x1", "_p"])
_SPACE = st.sampled_from([" ", "  ", "\t", " \\\n  ", " \\\r\n "])
_ITEM = st.tuples(_NAME, st.one_of(st.just(""), _NAME.map(lambda name: " as " + name)))


@st.composite
def _import_statement(draw) -> str:
    dots = draw(st.sampled_from(["", ".", "..", ". "[:1]]))
    module = ".".join(draw(st.lists(_NAME, min_size=0 if dots else 1, max_size=3)))
    items = [name + alias for name, alias in draw(st.lists(_ITEM, min_size=1, max_size=4))]
    if draw(st.booleans()):
        joiner = draw(st.sampled_from([", ", ",\n    ", ",  # why\n    ", " ,"]))
        body = "(" + draw(st.sampled_from(["", "\n    ", "  # (re-export)\n    "])) + joiner.join(items) + draw(st.sampled_from(["", ",", ",\n"])) + ")"
    else:
        body = ", ".join(items)
    statement = f"from{draw(_SPACE)}{dots}{module}{draw(_SPACE)}import{draw(_SPACE)}{body}"
    if draw(st.booleans()):
        statement = "import " + ", ".join(".".join(draw(st.lists(_NAME, min_size=1, max_size=3))) + alias for alias in [draw(_ITEM)[1]])
    return statement


@st.composite
def _module(draw) -> str:
    lines = []
    for statement in draw(st.lists(_import_statement(), min_size=1, max_size=4)):
        where = draw(st.sampled_from(["top", "indented", "semicolon", "if", "after_comment"]))
        if where == "indented":
            lines.append("def f():\n    " + statement.replace("\n", "\n    ") + "\n")
        elif where == "semicolon":
            lines.append("x = 1; " + statement + "\n")
        elif where == "if" and "\n" not in statement:
            lines.append("if x: " + statement + "\n")
        elif where == "after_comment":
            lines.append("# see below \\\n" + statement + "\n")
        else:
            lines.append(statement + "\n")
    return "".join(lines)


@settings(max_examples=300, deadline=None)
@given(_module())
def test_generated_import_statements_agree_with_cpython(source: str) -> None:
    data = source.encode()
    try:
        expected = _imports_by_cpython(data)
    except SyntaxError:
        return  # (a combination that is not Python: nothing to hold it to)
    assert expected <= set(imported_names(data)), source


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(alphabet="fromimport ().,;:\\\n\r\t#ab*", max_size=120).map(str.encode))
def test_never_crashes(data: bytes) -> None:
    names = imported_names(data)
    assert all(isinstance(module, str) and isinstance(name, str) for module, name in names)
