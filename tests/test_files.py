"""File discovery and safe reading (sglang_lint.files)."""

from __future__ import annotations

import codecs
import os
import threading
from pathlib import Path

import pytest

from sglang_lint import files
from sglang_lint.files import FileKind, classify, discover, read_source, shebang_kind, source_kind

SH = "#!/bin/bash\npython -m sglang.launch_server --tp-size 8\n"


def write(root: Path, rel: str, text: str | bytes = SH) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def names(paths: list[Path]) -> list[str]:
    return [Path(p).as_posix() for p in paths]


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_with_timeout(function, *args, timeout: float = 5.0, **kwargs):
    """Run ``function`` in a thread and fail (instead of hanging) if it blocks."""
    result: list = []
    thread = threading.Thread(target=lambda: result.append(function(*args, **kwargs)), daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"{function.__name__} blocked"
    return result[0]


# -- classification -----------------------------------------------------------------


@pytest.mark.parametrize(
    "name, kind",
    [
        ("run.sh", FileKind.SHELL),
        ("RUN.SH", FileKind.SHELL),
        ("serve.bash", FileKind.SHELL),
        ("launch.py", FileKind.PYTHON),
        ("deploy.yaml", FileKind.YAML),
        ("deploy.yml", FileKind.YAML),
        ("README.md", FileKind.MARKDOWN),
        ("guide.markdown", FileKind.MARKDOWN),
        ("notes.txt", None),
        ("run.zsh", None),
        ("run.sh.bak", None),
    ],
)
def test_classify_by_suffix(name: str, kind: FileKind | None) -> None:
    # The suffix decides, whatever the content.
    assert classify(name, b"#!/bin/bash\n") is kind


@pytest.mark.parametrize(
    "first_line, kind",
    [
        ("#!/bin/bash", FileKind.SHELL),
        ("#!/bin/sh", FileKind.SHELL),
        ("#! /bin/sh -eu", FileKind.SHELL),
        ("#!/usr/bin/env bash", FileKind.SHELL),
        ("#!/usr/bin/env -S bash -e", FileKind.SHELL),
        ("#!/usr/bin/env -i PATH=/bin dash", FileKind.SHELL),
        ("#!/bin/zsh", FileKind.SHELL),
        ("#!/bin/ksh", FileKind.SHELL),
        ("#!/usr/bin/mksh", FileKind.SHELL),
        ("#!/bin/busybox sh", FileKind.SHELL),
        ("#!/bin/bash\r", FileKind.SHELL),
        ("\ufeff#!/bin/bash", FileKind.SHELL),
        ("#!/usr/bin/env python3", FileKind.PYTHON),
        ("#!/usr/bin/python3.11", FileKind.PYTHON),
        ("#!/usr/bin/env -S uv run --script", FileKind.PYTHON),
        ("#!/usr/bin/env node", None),
        ("#!/usr/bin/env", None),
        ("#!", None),
        ("# not a shebang", None),
        ("echo hi", None),
    ],
)
def test_shebang(first_line: str, kind: FileKind | None) -> None:
    head = (first_line + "\nrest\n").encode("utf-8")
    assert shebang_kind(head) is kind
    assert classify("start-server", head) is kind
    assert source_kind("start-server", first_line + "\n") is kind


def test_source_kind_uses_shebang_for_unknown_suffix() -> None:
    assert source_kind("run.txt", "#!/bin/sh\n") is FileKind.SHELL
    assert source_kind("run.sh", "print('x')\n") is FileKind.SHELL
    assert classify("run.txt", b"#!/bin/sh\n") is None


# -- discovery ------------------------------------------------------------------------


def test_walk_is_sorted_and_classifies(in_tmp: Path) -> None:
    write(in_tmp, "b/run.sh")
    write(in_tmp, "a/deploy.yaml", "x: 1\n")
    write(in_tmp, "a/serve", SH)  # extension-less with a shell shebang
    write(in_tmp, "a/tool", "#!/usr/bin/env python3\nprint()\n")
    write(in_tmp, "a/Makefile", "all:\n\techo\n")  # no shebang: not taken
    write(in_tmp, "a/data.json", "{}")
    write(in_tmp, "README.md", "# hi\n")
    found, notes = discover(["."])
    assert names(found) == ["README.md", "a/deploy.yaml", "a/serve", "a/tool", "b/run.sh"]
    assert notes == []


def test_vcs_and_tool_directories_are_skipped(in_tmp: Path) -> None:
    for skipped in (".git", ".hg", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".sglang-lint-cache"):
        write(in_tmp, f"{skipped}/hooks.sh")
    write(in_tmp, ".github/workflows/ci.yml", "on: push\n")  # hidden but not skipped
    write(in_tmp, "run.sh")
    found, _ = discover(["."])
    assert names(found) == [".github/workflows/ci.yml", "run.sh"]


def test_gitignore_nested_and_negation(in_tmp: Path) -> None:
    write(in_tmp, ".gitignore", "*.gen.sh\nbuild/\nlogs\n")
    write(in_tmp, "a.gen.sh")
    write(in_tmp, "build/run.sh")
    write(in_tmp, "logs/run.sh")
    write(in_tmp, "keep.sh")
    # A nested .gitignore applies to its subtree only, and can re-include.
    write(in_tmp, "sub/.gitignore", "!keep.gen.sh\nlocal*.sh\n/anchored.sh\n")
    write(in_tmp, "sub/keep.gen.sh")
    write(in_tmp, "sub/other.gen.sh")
    write(in_tmp, "sub/local-test.sh")
    write(in_tmp, "sub/anchored.sh")
    write(in_tmp, "sub/deeper/anchored.sh")  # "/anchored.sh" is anchored to sub/
    write(in_tmp, "local-root.sh")  # sub/.gitignore does not reach the parent
    found, notes = discover(["."])
    assert names(found) == ["keep.sh", "local-root.sh", "sub/deeper/anchored.sh", "sub/keep.gen.sh"]
    assert notes == []
    all_found, _ = discover(["."], respect_gitignore=False)
    assert "build/run.sh" in names(all_found) and "sub/other.gen.sh" in names(all_found)


def test_gitignore_negation_cannot_reinclude_below_ignored_directory(in_tmp: Path) -> None:
    write(in_tmp, ".gitignore", "out/\n!out/keep.sh\n")
    write(in_tmp, "out/keep.sh")
    assert discover(["."])[0] == []


def test_gitignore_of_repository_applies_to_a_subdirectory_walk(in_tmp: Path) -> None:
    (in_tmp / ".git" / "info").mkdir(parents=True)
    (in_tmp / ".git" / "info" / "exclude").write_text("*.local.sh\n")
    write(in_tmp, ".gitignore", "scripts/generated/\n")
    write(in_tmp, "scripts/generated/run.sh")
    write(in_tmp, "scripts/mine.local.sh")
    write(in_tmp, "scripts/run.sh")
    found, _ = discover(["scripts"])
    assert names(found) == ["scripts/run.sh"]
    # A .gitignore beats .git/info/exclude.
    write(in_tmp, "scripts/.gitignore", "!mine.local.sh\n")
    found, _ = discover(["scripts"])
    assert names(found) == ["scripts/mine.local.sh", "scripts/run.sh"]


def test_explicitly_named_ignored_directory_is_walked(in_tmp: Path) -> None:
    (in_tmp / ".git").mkdir()
    write(in_tmp, ".gitignore", "build/\n")
    write(in_tmp, "build/run.sh")
    write(in_tmp, "build/.gitignore", "skip.sh\n")
    write(in_tmp, "build/skip.sh")
    found, _ = discover(["build"])
    assert names(found) == ["build/run.sh"]


def test_explicit_files_are_always_taken(in_tmp: Path) -> None:
    write(in_tmp, ".gitignore", "*.sh\n")
    write(in_tmp, "run.sh")
    write(in_tmp, "launch.txt", SH)  # unknown suffix, shell shebang
    write(in_tmp, "notes.txt", "hello\n")
    found, notes = discover(["run.sh", "launch.txt", "notes.txt"], exclude=["launch.txt"])
    assert names(found) == ["run.sh", "launch.txt"]
    assert [n.path for n in notes] == ["notes.txt"]
    assert "skipped" in notes[0].message
    # force_exclude (pre-commit) applies the excludes to explicit files too.
    found, _ = discover(["run.sh", "launch.txt"], exclude=["launch.txt"], force_exclude=True)
    assert names(found) == ["run.sh"]


def test_exclude_globs(in_tmp: Path) -> None:
    write(in_tmp, "examples/run.sh")
    write(in_tmp, "deploy/run.sh")
    write(in_tmp, "deploy/old/run.sh")
    write(in_tmp, "deploy/tmp_run.sh")
    found, _ = discover(["."], exclude=["examples", "deploy/old/", "tmp_*.sh"])
    assert names(found) == ["deploy/run.sh"]


def test_missing_path_is_a_note_and_the_rest_continues(in_tmp: Path) -> None:
    write(in_tmp, "run.sh")
    found, notes = discover(["nope.sh", "run.sh", "missing-dir"])
    assert names(found) == ["run.sh"]
    assert [(n.path, n.message) for n in notes] == [
        ("nope.sh", "no such file or directory"),
        ("missing-dir", "no such file or directory"),
    ]


def test_duplicates_are_removed(in_tmp: Path) -> None:
    write(in_tmp, "d/run.sh")
    (in_tmp / "d" / "alias.sh").symlink_to("run.sh")
    found, _ = discover(["d/run.sh", "./d/run.sh", str(in_tmp / "d" / "run.sh"), "d", "d/"])
    assert names(found) == ["d/run.sh"]


def test_paths_are_shown_relative_to_cwd(in_tmp: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    write(in_tmp, "sub/run.sh")
    outside = tmp_path_factory.mktemp("outside")
    write(outside, "o.sh")
    found, _ = discover([str(in_tmp / "sub"), str(outside), str(in_tmp)])
    assert names(found) == ["sub/run.sh", (outside / "o.sh").as_posix()]
    found, _ = discover([str(in_tmp)])
    assert names(found) == ["sub/run.sh"]


def test_directory_symlinks_are_not_followed(in_tmp: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    outside = tmp_path_factory.mktemp("outside")
    write(outside, "secret.sh")
    write(in_tmp, "proj/run.sh")
    (in_tmp / "proj" / "loop").symlink_to(in_tmp / "proj", target_is_directory=True)
    (in_tmp / "proj" / "out").symlink_to(outside, target_is_directory=True)
    found, notes = run_with_timeout(discover, ["proj"])
    assert names(found) == ["proj/run.sh"]
    assert notes == []
    # Following symlinks still terminates on the loop.
    found, _ = run_with_timeout(discover, ["proj"], follow_symlinks=True)
    assert names(found) == ["proj/out/secret.sh", "proj/run.sh"]


def test_only_listed_gitignore_files_are_read(in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A directory's .gitignore is read when its listing holds one; a warm run
    over SGLang's tree (620 directories, 2 .gitignore files) tried to open one
    in each."""
    write(in_tmp, ".gitignore", "*.gen.sh\n")
    write(in_tmp, "sub/deeper/x.gen.sh")
    write(in_tmp, "sub/deeper/run.sh")
    write(in_tmp, "other/.gitignore", "run.sh\n")
    write(in_tmp, "other/run.sh")
    opened: list[str] = []
    original = files._read_ignore_file
    monkeypatch.setattr(files, "_read_ignore_file", lambda path: (opened.append(os.path.relpath(path)), original(path))[1])
    found, _ = discover(["."])
    assert names(found) == ["sub/deeper/run.sh"]
    assert sorted(opened) == [".gitignore", "other/.gitignore"]


def test_dangling_symlink_is_passed_over(in_tmp: Path) -> None:
    (in_tmp / "gone.sh").symlink_to(in_tmp / "nowhere.sh")
    found, notes = discover(["."])
    assert found == [] and notes == []
    found, notes = discover(["gone.sh"])
    assert found == [] and notes[0].message == "no such file or directory"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_is_never_opened(in_tmp: Path) -> None:
    os.mkfifo(in_tmp / "pipe.sh")
    os.mkfifo(in_tmp / "pipe")  # extension-less: discover must not read its head
    write(in_tmp, "run.sh")
    found, notes = run_with_timeout(discover, ["."])
    assert names(found) == ["run.sh"]
    found, notes = run_with_timeout(discover, ["pipe.sh"])
    assert found == []
    assert "FIFO" in notes[0].message and "skipped" in notes[0].message
    text, note = run_with_timeout(read_source, in_tmp / "pipe.sh")
    assert text is None and note is not None and "FIFO" in note.message


def test_device_is_refused() -> None:
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    text, note = run_with_timeout(read_source, Path("/dev/null"))
    assert text is None and "character device" in note.message
    _, notes = discover(["/dev/null"])
    assert "character device" in notes[0].message


def test_directory_is_refused_by_read_source(tmp_path: Path) -> None:
    text, note = read_source(tmp_path)
    assert text is None and "directory" in note.message


def test_unreadable_directory_is_a_note(in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(in_tmp, "locked/run.sh")
    write(in_tmp, "run.sh")
    real_scandir = os.scandir

    def refusing_scandir(path="."):
        # What chmod 000 does to a non-root user (we may run as root).
        if os.path.basename(os.fspath(path)) == "locked":
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", refusing_scandir)
    found, notes = discover(["."])
    assert names(found) == ["run.sh"]
    assert [(n.path, n.message) for n in notes] == [("locked", "cannot read directory: Permission denied")]


# -- reading --------------------------------------------------------------------------


def test_reads_text_as_is(tmp_path: Path) -> None:
    path = write(tmp_path, "run.sh", b"echo \xc3\xa9t\xc3\xa9\r\nx\r\n")
    assert read_source(path) == ("echo \u00e9t\u00e9\r\nx\r\n", None)


def test_utf8_bom_is_removed(tmp_path: Path) -> None:
    path = write(tmp_path, "run.sh", codecs.BOM_UTF8 + b"echo hi\n")
    assert read_source(path) == ("echo hi\n", None)


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_with_bom(tmp_path: Path, codec: str) -> None:
    text = "#!/bin/bash\necho 日本 --tp-size 8\n"
    bom = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}.get(codec, b"")
    path = write(tmp_path, "run.sh", bom + text.encode(codec))
    assert read_source(path) == (text, None)


def test_binary_file(tmp_path: Path) -> None:
    path = write(tmp_path, "run.sh", b"\x7fELF\x02\x01\x01\x00\x00")
    text, note = read_source(path)
    assert text is None
    assert note.message == "binary file (NUL byte at offset 7); skipped"


def test_invalid_utf8_names_line_column_and_byte(tmp_path: Path) -> None:
    path = write(tmp_path, "run.sh", b"#!/bin/sh\necho ok\necho \xc3\xa9 caf\xff\n")
    text, note = read_source(path)
    assert text is None
    assert note.line == 3 and note.column == 11
    assert note.message == "not valid UTF-8 at line 3, column 11 (byte 0xff at offset 29); skipped"


def test_invalid_utf16(tmp_path: Path) -> None:
    path = write(tmp_path, "run.sh", codecs.BOM_UTF16_LE + "ab\nc".encode("utf-16-le") + b"\x00\xd8")
    text, note = read_source(path)
    assert text is None and note.message.startswith("not valid UTF-16 at line 2, column 2")


def test_size_cap(tmp_path: Path) -> None:
    path = write(tmp_path, "run.sh", "x" * 3000)
    text, note = read_source(path, max_bytes=1024)
    assert text is None
    assert note.message == "file is 2.9 KB, over the 1 KB limit; skipped"
    assert read_source(path, max_bytes=3000) == ("x" * 3000, None)


def test_size_message_in_megabytes(tmp_path: Path) -> None:
    path = tmp_path / "big.sh"
    with open(path, "wb") as handle:  # sparse: no 31 MB written to disk
        handle.truncate(int(31.5 * 1024 * 1024))
    text, note = read_source(path)
    assert text is None
    assert note.message == "file is 31.5 MB, over the 10 MB limit; skipped"


def test_missing_file(tmp_path: Path) -> None:
    assert read_source(tmp_path / "nope.sh") == (None, files.Note(str(tmp_path / "nope.sh"), "no such file or directory"))


def test_unreadable_file_permissions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "run.sh")
    os.chmod(path, 0)
    try:
        if not os.access(path, os.R_OK):
            text, note = read_source(path)
        else:
            # Running as root: simulate the failure at the open call.
            real_open = os.open

            def refusing_open(name, *args, **kwargs):
                if os.fspath(name) == str(path):
                    raise PermissionError(13, "Permission denied", str(path))
                return real_open(name, *args, **kwargs)

            monkeypatch.setattr(os, "open", refusing_open)
            text, note = read_source(path)
    finally:
        os.chmod(path, 0o644)
    assert text is None
    assert note.message == "cannot read file: Permission denied"


def test_read_source_never_raises_on_odd_input(tmp_path: Path) -> None:
    text, note = read_source(tmp_path / "a\0b")
    assert text is None and note is not None


# -- PEP 263 coding declarations (Python files only) ----------------------------------

# A PD pair whose decode line holds a non-ASCII name before the mismatched option,
# so a column counted in bytes of the file would differ from the code-point column.
CODED_PD = (
    "import subprocess\n"
    'P = ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--enable-unified-memory", "--tp-size", "8"]\n'
    'DÉCODÉ = ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "--enable-unified-memory", "--tp-size", "4", "--port", "30001"]\n'
    "subprocess.Popen(P)\n"
    "subprocess.Popen(DÉCODÉ)\n"
)


@pytest.mark.parametrize(
    "name, declaration, codec",
    [
        ("launch.py", "# -*- coding: latin-1 -*-\n", "latin-1"),
        # line 2 after a shebang; an extension-less file is Python by its shebang
        ("launch", "#!/usr/bin/env python3\n# coding: cp1252\n", "cp1252"),
    ],
)
def test_python_coding_declaration_decodes_the_file(in_tmp: Path, name: str, declaration: str, codec: str) -> None:
    from sglang_lint.pipeline import LintOptions, lint_paths

    text = declaration + CODED_PD
    path = write(in_tmp, name, text.encode(codec))
    assert read_source(path) == (text, None)
    [finding] = lint_paths([name], LintOptions()).findings
    line = declaration.count("\n") + 3
    decode_line = text.split("\n")[line - 1]
    assert (finding.code, finding.location.path, finding.location.line) == ("SGL001", name, line)
    assert finding.location.column == decode_line.index('"--tp-size", "4"') + 1  # code points, not bytes


def test_unknown_coding_declaration_is_a_clear_note(tmp_path: Path) -> None:
    path = write(tmp_path, "launch.py", ("# coding: klingon\n# déploiement\n" + CODED_PD).encode("latin-1"))
    text, note = read_source(path)
    assert text is None
    assert (note.line, note.column) == (2, 4)
    assert note.message == (
        "not valid UTF-8 at line 2, column 4 (byte 0xe9 at offset 21), "
        "and its coding declaration names an unknown encoding 'klingon'; skipped"
    )


@pytest.mark.parametrize(
    "declaration, message",
    [
        # a declared encoding the bytes do not fit (0x81 is undefined in cp1252)
        ("# coding: cp1252\n", "not valid cp1252 (its coding declaration) at line 2, column 1 (byte 0x81 at offset 17); skipped"),
        # one no Python source can be written in (not ASCII-compatible)
        ("# coding: utf-16\n", "not valid UTF-8 at line 2, column 1 (byte 0x81 at offset 17), and its coding declaration names 'utf-16', which Python source cannot be written in; skipped"),
        ("# coding: base64\n", "not valid UTF-8 at line 2, column 1 (byte 0x81 at offset 17), and its coding declaration names 'base64', which Python source cannot be written in; skipped"),
    ],
)
def test_declared_encoding_that_cannot_decode_the_file(tmp_path: Path, declaration: str, message: str) -> None:
    path = write(tmp_path, "launch.py", declaration.encode("ascii") + b"\x81\n")
    assert read_source(path) == (None, files.Note(str(path), message, 2, 1))


@pytest.mark.parametrize(
    "name, data",
    [
        ("launch.py", "# déploiement\n".encode("latin-1")),  # no declaration
        ("launch.py", "x = 1\n# coding: latin-1\né\n".encode("latin-1")),  # line 2 only counts after a comment
        ("launch.py", "# coding: utf-8\né\n".encode("latin-1")),  # declared UTF-8, which it is not
        ("launch.py", codecs.BOM_UTF8 + "# coding: latin-1\né\n".encode("latin-1")),  # a BOM means UTF-8
        ("run.sh", "# coding: latin-1\né\n".encode("latin-1")),  # declarations are Python's
    ],
)
def test_without_a_usable_declaration_the_utf8_note_stands(tmp_path: Path, name: str, data: bytes) -> None:
    path = write(tmp_path, name, data)
    text, note = read_source(path)
    assert text is None
    assert note.message.startswith("not valid UTF-8 at line ") and note.message.endswith("); skipped")
    assert "coding declaration" not in note.message


def test_size_just_over_the_cap_is_shown_in_bytes(tmp_path: Path) -> None:
    # rounded, both would read "10 MB"
    path = tmp_path / "big.sh"
    with open(path, "wb") as handle:
        handle.truncate(files.MAX_BYTES + 1)
    assert read_source(path) == (None, files.Note(str(path), "file is 10,485,761 bytes, over the 10 MB (10,485,760 bytes) limit; skipped"))


@pytest.mark.parametrize("size", [0, 1, 4095, 4096, 4097, 1024 * 1024 - 1, 1024 * 1024, 3 * 1024 * 1024 + 7])
def test_read_bytes_gives_every_byte_whatever_the_size(tmp_path, size) -> None:
    """Each read asks for the size the file has (a megabyte per read
    fragmented the heap); the whole file still comes back, across chunks."""
    from sglang_lint.files import read_bytes

    data = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
    path = tmp_path / "f.sh"
    path.write_bytes(data)
    assert read_bytes(str(path)) == (data, None)
