"""Hostile files (issue 8, parts 3 and 5): random bytes, NUL bytes, UTF-16, latin-1,
a 30 MB script, 5,000-deep nesting, a YAML alias bomb, an unterminated heredoc or
quote, a FIFO, a device, symlink loops, a directory symlink out of the tree and
unreadable permissions, all in one tree next to a valid prefill/decode pair.

Each hostile file that holds a launch gets one clear SGL900 note saying what is
wrong; the rest of the run keeps its findings; nothing blocks, raises or grows
without bound. A file with no SGLang launch marker is dismissed on its bytes
without being decoded, so a hostile file here holds a real launch line where a
note is expected (a deployment script in latin-1, a UTF-16 script with a launch).
Walking a directory passes FIFOs, devices and dangling or looping symlinks over
silently and does not follow directory symlinks; named on the command line, they
get a note. The same hostile Python files then go through flake8, which the
plugin must never abort.
"""

from __future__ import annotations

import codecs
import json
import os
import random
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from sglang_lint.cli import main
from sglang_lint.files import MAX_BYTES
from sglang_lint.pipeline import LintOptions, lint_paths

# The valid pair: exactly one SGL001, on the decode's line.
PREFILL = "#!/bin/bash\npython3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000\n"
DECODE = "#!/bin/bash\npython3 -m sglang.launch_server --model-path m --disaggregation-mode decode --enable-unified-memory --tp 4 --port 30001\n"

# A server without a role: never paired, so the file holding it adds nothing but its
# note. BAD adds an option no release knows: the SGL202 on it shows that the file
# was read, and where.
LAUNCH = "python3 -m sglang.launch_server --model-path m --tp 2\n"
BAD = "python3 -m sglang.launch_server --model-path m --no-such-option\n"
PY_LAUNCH = 'import subprocess\nsubprocess.Popen(["python3", "-m", "sglang.launch_server", "--tp", "2"])\n'
PY_BAD = 'import subprocess\nsubprocess.Popen(["python3", "-m", "sglang.launch_server", "--no-such-option"])\n'

DEEP = 5000
# The whole CLI run over the tree; it takes well under a second on an idle machine.
TIME_LIMIT = 60.0
MEMORY_LIMIT = 200 * 1024 * 1024


def alias_bomb(levels: int = 9) -> str:
    """The billion laughs: level n is nine aliases of level n - 1 (9**9 strings
    once expanded), used by a Pod's container as its args and env."""
    names = "abcdefghijklmnopqrstuvwxyz"[:levels]
    lines = ["a: &a [" + ", ".join(['"lol"'] * 9) + "]"]
    for previous, name in zip(names, names[1:]):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    top = names[-1]
    lines += [
        "kind: Pod",
        "spec:",
        "  containers:",
        "  - name: server",
        "    command: [python3, -m, sglang.launch_server, --model-path, m, --no-such-option]",
        f"    args: *{top}",
        f"    env: *{top}",
    ]
    return "\n".join(lines) + "\n"


def position(text: str, needle: str) -> tuple[int, int]:
    """(line, code-point column) of the first ``needle`` in ``text``."""
    before = text[: text.index(needle)]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def build_tree(root: Path) -> dict[str, list[tuple[str, str]]]:
    """The tree under ``root`` (``tree/`` and ``outside/``), and the findings
    expected per file: (code, a fragment of the message)."""
    tree, outside, h = root / "tree", root / "outside", root / "tree" / "h"
    write(tree / "pd" / "prefill.sh", PREFILL)
    write(tree / "pd" / "decode.sh", DECODE)
    expected: dict[str, list[tuple[str, str]]] = {"tree/pd/decode.sh": [("SGL001", "attention TP differs across the pair")]}

    def add(name: str, data: str | bytes, *findings: tuple[str, str]) -> None:
        write(h / name, data)
        if findings:
            expected[f"tree/h/{name}"] = list(findings)

    # Random bytes holding a launch; no NUL (that is the next case), starting with
    # a byte no UTF-8 text starts with.
    noise = random.Random(8).randbytes(4096).replace(b"\0", b"\1")
    add("random.sh", b"\x80" + noise[:2048] + b"\n" + LAUNCH.encode() + noise[2048:],
        ("SGL900", "not valid UTF-8 at line 1, column 1 (byte 0x80 at offset 0); skipped"))
    script = "#!/bin/sh\n" + LAUNCH
    add("nul.sh", script.encode() + b"\0\0\0echo\n", ("SGL900", f"binary file (NUL byte at offset {len(script)}); skipped"))
    # UTF-16 with a BOM is decoded: its launch is read, columns in code points.
    utf16 = "#!/bin/bash\n# déploiement ☃\n" + BAD
    line, column = position(utf16, "--no-such-option")
    add("utf16.sh", codecs.BOM_UTF16_LE + utf16.encode("utf-16-le"), ("SGL202", "unknown option --no-such-option"))
    expected["tree/h/utf16.sh"][0] += (line, column)
    # latin-1: a launch in it is a note with the position of the first bad byte;
    # without any launch marker the file is dismissed silently, never decoded.
    add("latin1.sh", ("#!/bin/bash\n# déploiement\n" + LAUNCH).encode("latin-1"),
        ("SGL900", "not valid UTF-8 at line 2, column 4 (byte 0xe9 at offset 15); skipped"))
    add("latin1_plain.sh", "#!/bin/bash\necho café crème\n".encode("latin-1"))
    # ... and a Python file that declares latin-1 (PEP 263) is decoded with it.
    declared = "# -*- coding: latin-1 -*-\n# déploiement\n" + PY_BAD
    add("latin1_declared.py", declared.encode("latin-1"), ("SGL202", "unknown option --no-such-option"))
    # (a Python argv word is located at its string literal's opening quote)
    expected["tree/h/latin1_declared.py"][0] += position(declared, '"--no-such-option"')
    # Over the size cap: 30 MB (sparse: nothing is read, it is refused by its size)
    # and one byte over.
    with open(h / "huge.sh", "wb") as handle:
        handle.write(("#!/bin/bash\n" + LAUNCH).encode())
        handle.truncate(30 * 1024 * 1024)
    expected["tree/h/huge.sh"] = [("SGL900", "file is 30 MB, over the 10 MB limit; skipped")]
    filler = b"# padding padding padding padding padding padding padding padding\n"
    over = (LAUNCH.encode() + filler * (MAX_BYTES // len(filler) + 1))[: MAX_BYTES + 1]
    add("just_over.sh", over, ("SGL900", f"file is {MAX_BYTES + 1:,} bytes, over the 10 MB ({MAX_BYTES:,} bytes) limit; skipped"))
    # 5,000-deep nesting: CPython's parser limits (a SyntaxError, a RecursionError
    # or a MemoryError depending on the construct and the version), the YAML depth
    # guard, libyaml's own limit.
    add("deep.py", "x = " + "[" * DEEP + "]" * DEEP + "\n" + PY_LAUNCH, ("SGL900", "nested"))
    # ("nested" from Python's parser where it refuses the depth, "nesting" from
    # the Python source's own bound where the parser accepts it: Python 3.10.)
    add("deep_not.py", PY_LAUNCH + "x = " + "not " * DEEP + "y\n", ("SGL900", "nest"))
    add("deep_lambda.py", PY_LAUNCH + "x = " + "lambda: " * DEEP + "1\n", ("SGL900", "nested"))
    pod = "kind: Pod\nspec:\n  containers:\n  - name: s\n    command: [python3, -m, sglang.launch_server, --tp, '2']\n"
    add("deep_flow.yaml", pod + "x: " + "[" * DEEP + "]" * DEEP + "\n", ("SGL900", "nested"))
    add("deep_map.yaml", pod + "x: " + "{a: " * DEEP + "1" + "}" * DEEP + "\n", ("SGL900", "nested"))
    add("deep_block.yaml", pod + "x:\n  " + "- " * DEEP + "v\n", ("SGL900", "nest"))
    # The alias bomb is read as the nodes written, not their expansion.
    bomb = alias_bomb()
    add("bomb.yaml", bomb, ("SGL202", "unknown option --no-such-option"))
    expected["tree/h/bomb.yaml"][0] += position(bomb, "--no-such-option")
    # Unterminated constructs after a launch.
    heredoc = "#!/bin/bash\n" + LAUNCH + "cat <<EOF\nnever closed\n"
    add("heredoc.sh", heredoc, ("SGL900", "here-document <<EOF is never closed"))
    expected["tree/h/heredoc.sh"][0] += position(heredoc, "<<EOF")
    add("quote.sh", "#!/bin/bash\n" + LAUNCH + 'echo "never closed\n', ("SGL900", "shell syntax error"))
    add("unterminated.py", PY_LAUNCH + "s = '''never closed\n", ("SGL900", "Python syntax error: unterminated"))
    # Not regular files, and symlinks. Walking passes them over; the ones named on
    # the command line get a note (see run_cli).
    os.mkfifo(h / "fifo.sh")
    (h / "zero.sh").symlink_to("/dev/zero")
    (h / "loop_a.sh").symlink_to(h / "loop_b.sh")
    (h / "loop_b.sh").symlink_to(h / "loop_a.sh")
    (h / "parent").symlink_to(h, target_is_directory=True)
    write(outside / "secret" / "run.sh", "#!/bin/bash\n" + BAD)
    (h / "out").symlink_to(outside / "secret", target_is_directory=True)
    expected["tree/h/fifo.sh"] = [("SGL900", "is a FIFO (named pipe), not a regular file; skipped")]
    expected["/dev/zero"] = [("SGL900", "is a character device, not a regular file; skipped")]
    expected["tree/h/loop_a.sh"] = [("SGL900", "cannot access: ")]
    # Unreadable (see refuse_to_open: chmod 000 does not stop root).
    add("locked.sh", "#!/bin/bash\n" + LAUNCH, ("SGL900", "cannot read file: Permission denied"))
    os.chmod(h / "locked.sh", 0)
    return expected


# Named on the command line besides the tree: the device, the FIFO, the loop.
EXPLICIT = ["tree", "/dev/zero", "tree/h/fifo.sh", "tree/h/loop_a.sh"]


@pytest.fixture
def hostile_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    if not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"):
        pytest.skip("needs FIFOs and /dev/zero")
    monkeypatch.chdir(tmp_path)
    expected = build_tree(tmp_path)
    refuse_to_open(monkeypatch, tmp_path / "tree" / "h" / "locked.sh")
    yield expected
    os.chmod(tmp_path / "tree" / "h" / "locked.sh", 0o644)


def refuse_to_open(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """What chmod 000 does to a user who is not root: opening ``path`` fails."""
    if not os.access(path, os.R_OK):
        return  # not root: the permissions do it
    real_open = os.open
    target = os.path.realpath(path)

    def refusing_open(name, *args, **kwargs):
        if os.path.realpath(os.fspath(name)) == target:
            raise PermissionError(13, "Permission denied", os.fspath(name))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)


def in_thread(function, *args, timeout: float = 120.0):
    """``function(*args)`` in a thread: a FIFO opened for reading would block
    forever, and must fail the test instead."""
    outcome: list = []

    def run() -> None:
        try:
            outcome.append(("ok", function(*args)))
        except BaseException as error:  # noqa: BLE001 - re-raised below
            outcome.append(("error", error))

    thread = threading.Thread(target=run, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"{function.__name__} blocked (a FIFO or device opened?)"
    kind, value = outcome[0]
    if kind == "error":
        raise value
    return value, time.monotonic() - started


def check_findings(findings: list[dict], expected: dict[str, list[tuple]]) -> None:
    by_file: dict[str, list[dict]] = {}
    for finding in findings:
        by_file.setdefault(finding["filename"], []).append(finding)
    # Nothing from the files passed over: the marker-less latin-1 file, the
    # symlinks to the device and into the loop, the tree's own parent, the
    # directory outside the tree; the FIFO is noted once (named), not twice.
    assert sorted(by_file) == sorted(expected)
    for path, wanted in expected.items():
        got = by_file[path]
        assert len(got) == len(wanted), (path, got)
        for finding, (code, fragment, *where) in zip(got, wanted):
            assert finding["code"] == code and fragment in finding["message"], (path, finding)
            if where:
                assert (finding["location"]["row"], finding["location"]["column"]) == tuple(where), (path, finding)
    for finding in findings:
        assert "internal error" not in finding["message"]


def test_hostile_tree_through_the_cli(hostile_tree, capsys) -> None:
    capsys.readouterr()
    code, elapsed = in_thread(main, ["check", "--no-cache", "--format", "json", *EXPLICIT])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert "Traceback" not in out + err and "internal error" not in out + err
    assert err == ""
    assert elapsed < TIME_LIMIT
    findings = json.loads(out)
    check_findings(findings, hostile_tree)
    [sgl001] = [f for f in findings if f["code"] == "SGL001"]
    assert sgl001["filename"] == "tree/pd/decode.sh"


def test_hostile_tree_through_lint_paths(hostile_tree) -> None:
    result, elapsed = in_thread(lint_paths, EXPLICIT, LintOptions())
    assert elapsed < TIME_LIMIT
    findings = [
        {"filename": f.location.path, "code": f.code, "message": f.message, "location": {"row": f.location.line, "column": f.location.column}}
        for f in result.findings
    ]
    check_findings(findings, hostile_tree)
    assert [f.location.path for f in result.findings if f.code == "SGL001"] == ["tree/pd/decode.sh"]


def test_directory_symlinks_out_of_the_tree_are_not_followed_even_when_walked_twice(hostile_tree) -> None:
    # The tree's symlink to its own parent and the one out of it stay unfollowed
    # whichever directory the walk starts from.
    result, _ = in_thread(lint_paths, ["tree/h"], LintOptions())
    assert not any("/out/" in f.location.path or "/parent/" in f.location.path for f in result.findings)


def test_alias_bomb_memory_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "bomb.yaml", alias_bomb())
    tracemalloc.start()
    try:
        result, elapsed = in_thread(lint_paths, ["bomb.yaml"], LintOptions())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_LIMIT, f"peak {peak / 1e6:.0f} MB"
    assert elapsed < TIME_LIMIT
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL202", position(alias_bomb(), "--no-such-option")[0])]


@pytest.mark.parametrize(
    "text, message",
    [
        (PY_LAUNCH + "x = " + "not " * DEEP + "y\n", "Python file is nested too deeply for Python's parser"),
        (PY_LAUNCH + "x = " + "lambda: " * DEEP + "1\n", "Python file is nested too deeply for Python's parser"),
        ("#!/bin/bash\n" + LAUNCH + "cat <<-'END'\n", "here-document <<-'END' is never closed: bash reads the rest of the file as its text"),
    ],
    ids=["not-chain", "lambda-chain", "heredoc-at-end"],
)
def test_notes_say_what_is_wrong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, message: str) -> None:
    """Regression: the parser's MemoryError used to read "cannot be parsed
    (MemoryError: )", and an unterminated here-document "bash would refuse part of
    this script" (bash only warns and reads the rest of the file into it)."""
    monkeypatch.chdir(tmp_path)
    name = "f.sh" if text.startswith("#!/bin/bash") else "f.py"
    write(tmp_path / name, text)
    notes = [f.message for f in lint_paths([name], LintOptions()).findings]
    if "nested too deeply" in message and not any(message in note for note in notes):
        # Some CPython versions parse these or refuse them with a SyntaxError.
        assert all("internal error" not in note for note in notes)
        pytest.skip(f"this CPython reports {notes}")
    assert len(notes) == 1 and notes[0].startswith(message), notes


def test_a_very_long_python_file_is_bounded_with_a_clear_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: the step budget said "the file's functions call each other too
    often" of a file that has no functions at all."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "long.py", PY_LAUNCH + "y = 1\n" * 110_000)
    [finding] = lint_paths(["long.py"], LintOptions()).findings
    assert finding.message.startswith("stopped after 100000 steps (a very long file, or functions that call each other")


# ---------------------------------------------------------------------------------
# flake8: the same hostile Python files, through flake8 itself

# One finding a line (as tests/test_flake8_plugin.py's run_flake8).
FORMAT = "%(path)s\t%(row)d\t%(col)d\t%(code)s\t%(text)s"

VALID = (
    "import subprocess\n"
    'P = ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--enable-unified-memory", "--tp-size", "8", "--port", "30000"]\n'
    'D = ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "--enable-unified-memory", "--tp-size", "4", "--port", "30001"]\n'
    "subprocess.Popen(P)\n"
    "subprocess.Popen(D)\n"
)


def _compile_rejects_nul_with_value_error() -> bool:
    try:
        compile("x = 1\0\n", "nul.py", "exec")
    except ValueError:
        return True
    except SyntaxError:
        return False
    return False


def flake8_files(directory: Path) -> list[str]:
    noise = random.Random(5).randbytes(3000)
    files: dict[str, bytes] = {
        "random_bytes.py": b"\x80" + noise.replace(b"\0", b"\1") + b"\n" + PY_LAUNCH.encode() + noise,
        "random_no_nul.py": b"\x80" + noise.replace(b"\0", b"\1") + b"\n" + PY_LAUNCH.encode(),
        "nul.py": PY_LAUNCH.encode() + b"x = 1\0\n",
        "utf16.py": codecs.BOM_UTF16_LE + ("# déploiement\n" + PY_LAUNCH).encode("utf-16-le"),
        "latin1_declared.py": ("# -*- coding: latin-1 -*-\n# déploiement\n" + VALID).encode("latin-1"),
        "latin1_undeclared.py": ("# déploiement\n" + PY_LAUNCH).encode("latin-1"),
        "unknown_declared.py": ("# coding: klingon\n# déploiement\n" + PY_LAUNCH).encode("latin-1"),
        "deep.py": ("x = " + "[" * DEEP + "]" * DEEP + "\n" + PY_LAUNCH).encode(),
        "unterminated.py": (PY_LAUNCH + "s = '''never closed\n").encode(),
        # past the Python source's step budget (flake8 has no size cap of its own)
        "huge.py": (PY_LAUNCH + "y = 1\n" * 110_000).encode(),
        "valid.py": VALID.encode(),
    }
    # Not here: `x = lambda: lambda: ...` 5,000 deep makes flake8's own ast.parse
    # raise MemoryError outside any plugin (flake8's crash, not the plugin's).
    if _compile_rejects_nul_with_value_error():
        # Before CPython 3.11.4/3.12, compile() raises ValueError ("source code
        # string cannot contain null bytes") for a NUL, and flake8 crashes on it
        # in its own ast step, before any plugin runs (flake8's crash again).
        files = {name: data for name, data in files.items() if b"\0" not in data}
    for name, data in files.items():
        write(directory / name, data)
    return sorted(files)


def test_flake8_is_never_aborted_by_hostile_python_files(tmp_path: Path) -> None:
    names = flake8_files(tmp_path)
    env = {**os.environ}
    env.pop("PYTHONWARNINGS", None)
    process = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", "SGL", "--format", FORMAT, *names],
        check=False,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert "Traceback" not in process.stderr, process.stderr
    assert process.returncode == 1, process.stderr
    rows = [line.split("\t", 4) for line in process.stdout.splitlines()]
    assert all(len(row) == 5 and row[3].startswith("SGL") for row in rows), process.stdout
    assert not any("internal error" in row[4] for row in rows), process.stdout
    found = {(row[0], row[3]) for row in rows}
    # The valid launcher keeps its finding; so does the one that declares latin-1
    # (flake8 decodes it by its declaration, the plugin analyzes the text).
    assert ("valid.py", "SGL001") in found and ("latin1_declared.py", "SGL001") in found
    [huge] = [row for row in rows if row[0] == "huge.py"]
    assert huge[3] == "SGL900" and huge[4].startswith("stopped after 100000 steps (a very long file")


def test_a_huge_python_launcher_is_not_parsed() -> None:
    """ast.parse of a 9 MB file took 3.8 GB of memory: Python files over
    MAX_PYTHON_CHARS get a note instead."""
    from sglang_lint.sources.python import MAX_PYTHON_CHARS, analyze_python

    text = "import subprocess\nsubprocess.run(['python', '-m', 'sglang.launch_server', '--tp', '8'])\n"
    text += "x = 1\n" * (MAX_PYTHON_CHARS // 6 + 1)
    result = analyze_python("big.py", text)
    assert result.servers == []
    assert [n.message.split(":")[0] for n in result.notes] == [f"Python file of {len(text) // 1024} KB"]


def test_a_script_of_assignments_stops_at_the_budget() -> None:
    """Assignments count toward the shell budget: 400,000 of them took a minute
    and gigabytes before; now the analysis stops at MAX_COMMANDS with a note."""
    import time

    from sglang_lint.sources.shell import analyze_shell
    from sglang_lint.sources.shell_walk import MAX_COMMANDS

    text = "python -m sglang.launch_server --tp 8 &\n" + "".join(f"V{i}=v{i}\n" for i in range(MAX_COMMANDS + 10))
    started = time.perf_counter()
    result = analyze_shell("big.sh", text)
    assert time.perf_counter() - started < 60
    assert len(result.servers) == 1
    assert any(n.message.startswith(f"stopped after {MAX_COMMANDS} commands and assignments") for n in result.notes)
