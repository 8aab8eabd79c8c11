"""A module other files import, parsed one top-level definition at a time
(python_outline; issues 20 and 24). The oracle is CPython's own parser: every
statement an outline gives, once all its units are parsed, is the statement
``ast.parse`` gives for the whole text, positions included."""

from __future__ import annotations

import ast
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from sglang_lint.sources.python_outline import outline

# Pieces of real modules, chosen for what a line-based split gets wrong: a
# `def` line inside a string, a decorator that is a matrix product, a string
# at column 0 after a backslash, a comment ending in a backslash, a signature
# closed at column 0, a bracket whose items sit at column 0, `else`/`except`
# at column 0, quotes of one kind inside strings of the other.
PIECES = [
    "def plain(a):\n    return a\n",
    "async def coroutine():\n    return 1\n",
    "@decorator\ndef decorated():\n    pass\n",
    "@decorator(\n    1,\n)\n@other\ndef stacked():\n    pass\n",
    "def signature(\n    a,\n    b=2,\n) -> int:\n    return a + b\n",
    "class Base:\n    X = 1\n\n    def method(self):\n        return self.X\n",
    "class Derived(Base): pass\n",
    'TEMPLATE = """\ndef not_a_function():\n    pass\nclass NotAClass:\n"""\n',
    "PRODUCT = (left\n@ right)\n",
    'def backslash():\n    assert render() == \\\n"""text\n"""\n',
    "# a comment ending in a backslash \\\nAFTER_COMMENT = 1\n",
    "def bracket():\n    items = [\n1,\n2,\n]\n    return items\n",
    "def col0_string():\n    return call(\n'at column 0')\n",
    "if FLAG:\n    def inside():\n        pass\nelse:\n    inside = None\n",
    "try:\n    import optional\nexcept ImportError:\n    optional = None\nfinally:\n    pass\n",
    '"""A string statement at column 0."""\n',
    "QUOTES = \"'''\" + '\"\"\"'\n",
    "def quotes():\n    return \"'''\", '\"\"\"'\n",
    "NAME = f\"{VALUE!r:>10}\"\n",
    "import os, sys as system\nfrom pkg.mod import (\n    a,\n    b as c,\n)\n",
    "from helpers import *\n",
    "for item in range(3):\n    TOTAL = item\n",
    "\n\n# a comment\n\n",
    "lambda_value = lambda x: x\n",
    "def ﬁle_name():\n    return 1\n",
    "match COMMAND:\n    case 'go':\n        GO = 1\n    case _:\n        pass\n",
]

BROKEN = [
    "def broken(:\n    pass\n",
    "X = (\n",
    "def unterminated():\n    return '''\n",
    "def body_error():\n    x = = 1\n",
    "else:\n    pass\n",
]


def _dump(statements: list[ast.stmt]) -> list[str]:
    return [ast.dump(statement, include_attributes=True) for statement in statements]


def _assert_as_cpython(text: str) -> None:
    try:
        expected = ast.parse(text).body
    except SyntaxError:
        expected = None
    parsed = outline(text, "m.py")
    if expected is None:
        # Not valid Python: no outline, or one whose units say what they can.
        if parsed is not None:
            for index in range(len(parsed)):
                parsed.statements(index)
        return
    assert parsed is not None
    assert _dump(list(parsed.all_statements())) == _dump(expected)
    # Every name a statement binds is found through the outline's binders.
    for index in range(len(parsed)):
        for statement in parsed.statements(index):
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                assert index in parsed.binders[statement.name]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12), st.booleans())
def test_an_outline_gives_the_statements_cpython_parses(pieces, crlf) -> None:
    text = "".join(pieces)
    _assert_as_cpython(text.replace("\n", "\r\n") if crlf else text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES + BROKEN), max_size=8))
def test_an_outline_of_any_text_never_raises(pieces) -> None:
    _assert_as_cpython("".join(pieces))


def test_every_piece_alone_and_in_pairs() -> None:
    for first in PIECES:
        _assert_as_cpython(first)
        for second in PIECES:
            _assert_as_cpython(first + second)


def test_a_definition_is_parsed_when_first_asked_for() -> None:
    text = "import os\nTP = 8\n\n\ndef helper():\n    return os.getcwd()\n\n\nclass Launcher:\n    def start(self):\n        pass\n"
    parsed = outline(text, "m.py")
    assert parsed is not None
    eager = len("import os\nTP = 8\n")
    assert parsed.parsed_chars < len(text) and parsed.parsed_chars >= eager
    assert list(parsed.top_level())[:2] and "helper" in list(parsed.top_level())  # a function's name, from its header
    (index,) = parsed.binders["helper"]
    before = parsed.parsed_chars
    (function,) = parsed.statements(index)
    assert isinstance(function, ast.FunctionDef) and function.lineno == 5
    assert parsed.parsed_chars > before
    assert parsed.statements(index)[0] is function  # parsed once


def test_a_definition_that_is_not_valid_python_binds_nothing_and_says_so() -> None:
    text = "TP = 8\n\n\ndef broken():\n    x = = 1\n\n\ndef fine():\n    return TP\n"
    parsed = outline(text, "m.py")
    assert parsed is not None  # the error is inside a definition no one has parsed
    (broken,) = parsed.binders["broken"]
    assert parsed.statements(broken) == [] and parsed.unparsable(broken)
    (fine,) = parsed.binders["fine"]
    assert not parsed.unparsable(fine) and parsed.first_line(broken) == 4


def test_a_text_whose_lines_may_end_otherwise_is_parsed_whole() -> None:
    for text in ("X = 1\rdef f():\r    pass\r", "X = 1\n\x0cdef f():\n    pass\n"):
        parsed = outline(text, "m.py")
        assert parsed is not None and parsed.parsed_chars == len(text)
        assert _dump(list(parsed.all_statements())) == _dump(ast.parse(text).body)


def test_the_python_modules_of_this_repository_outline_as_cpython_parses_them() -> None:
    root = os.path.join(os.path.dirname(__file__), os.pardir)
    checked = 0
    for directory in ("sglang_lint", "tests", "benchmarks", "fixtures"):
        for base, _, names in os.walk(os.path.join(root, directory)):
            for name in names:
                if name.endswith(".py"):
                    with open(os.path.join(base, name), encoding="utf-8", errors="replace") as handle:
                        _assert_as_cpython(handle.read())
                    checked += 1
    assert checked > 100


def test_an_unterminated_string_ending_in_a_backslash_is_split_at_once() -> None:
    """The lexer's string patterns are unrolled loops: with a loop of
    alternatives that each took a run of characters, an unterminated
    triple-quoted string ending in a backslash backtracked exponentially (30
    characters took 30 s; the tool must never hang). Run in a child process
    with a deadline, so that a regression fails instead of hanging."""
    import subprocess
    import sys

    program = (
        "from sglang_lint.sources.python_outline import outline\n"
        "bs = chr(92)\n"
        "for n in (10, 30, 100_000):\n"
        "    for text in ('x = \"\"\"' + 'ab ' * n + bs, \"s = '''\" + 'a b' * n + bs, 'x = \"' + 'ab ' * n + bs, 'x = \"\"\"' + ('a\"b' + bs * 2 + 'c ') * n):\n"
        "        outline(text, 'm.py')\n"
        "print('done')\n"
    )
    completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert completed.stdout.strip() == "done", completed.stderr
