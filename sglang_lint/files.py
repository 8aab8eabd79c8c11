"""Finding the files to analyze and reading them without surprises.

Two jobs, both used by the CLI before any parsing happens:

* :func:`discover` turns the command-line paths into a deterministic list of files:
  explicit files are always taken, directories are walked in sorted order, skipping
  VCS/tool directories, ``.gitignore``d paths and configured excludes, never
  following directory symlinks and never touching FIFOs, sockets or devices.
* :func:`read_source` reads one file as text and never blocks or raises: anything
  that stops it (not a regular file, too big, binary, bad encoding, permissions)
  comes back as a :class:`~sglang_lint.model.Note` saying why the file was skipped.

Text is returned exactly as stored (after removing a byte-order mark): ``\\r\\n`` is
*not* normalized. Line numbers everywhere count ``\\n`` only, so a CRLF file has the
same line numbers as its LF twin, with a trailing ``\\r`` on each line.
"""

from __future__ import annotations

import codecs
import enum
import functools
import os
import re
import stat
from pathlib import Path
from typing import Callable, Iterable, Sequence

from msgspec import Struct

from .model import Note

__all__ = [
    "DEFAULT_EXCLUDED_DIRS",
    "FileKind",
    "MAX_BYTES",
    "classify",
    "discover",
    "read_source",
    "shebang_kind",
    "source_kind",
]

MAX_BYTES = 10 * 1024 * 1024
# How much of a file's start is read to look for a shebang, and searched for NUL
# bytes to recognise a binary file.
_HEAD_BYTES = 512
_BINARY_PROBE = 8 * 1024


class FileKind(enum.Enum):
    SHELL = "shell"
    PYTHON = "python"
    YAML = "yaml"
    MARKDOWN = "markdown"
    NOTEBOOK = "notebook"


_SUFFIXES = {
    ".sh": FileKind.SHELL,
    ".bash": FileKind.SHELL,
    ".py": FileKind.PYTHON,
    ".yaml": FileKind.YAML,
    ".yml": FileKind.YAML,
    ".md": FileKind.MARKDOWN,
    ".markdown": FileKind.MARKDOWN,
    ".ipynb": FileKind.NOTEBOOK,
}
# Batch-job scripts (Slurm's `sbatch` files, PBS's): a shell script, or a Python
# one, as its `#!` line says (sbatch requires one). A directory walk passed
# them over, and with them a cluster's launches.
_JOB_SUFFIXES = frozenset({".sbatch", ".slurm", ".pbs"})

# Directory names never walked into (they are only skipped below a walked root: a
# directory named explicitly on the command line is walked).
DEFAULT_EXCLUDED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".bzr",
        "node_modules",
        "__pycache__",
        "__pypackages__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".eggs",
        ".direnv",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".ipynb_checkpoints",
        "site-packages",
        ".sglang-lint-cache",
    }
)
# Excluded even when a config's `exclude` replaces the defaults: version-control
# metadata and our own cache are never deployment scripts.
ALWAYS_EXCLUDED_DIRS = frozenset({".git", ".hg", ".svn", ".sglang-lint-cache"})

_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "pdksh", "ash", "yash", "posh", "lksh"})
_PYTHON_RE = re.compile(r"(?:python|pypy)(?:\d+(?:\.\d+)*)?[a-z]?")
_ENV_ASSIGN_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


# ---------------------------------------------------------------------------------
# Classification


def shebang_kind(head: bytes | str) -> FileKind | None:
    """The kind a ``#!`` first line names: SHELL for sh/bash/dash/zsh/ksh/...,
    PYTHON for python/python3.x/pypy (and ``uv run --script``), else None.

    Handles ``#!/usr/bin/env bash``, ``#!/usr/bin/env -S bash -e``, env options and
    ``VAR=value`` assignments, ``#!/bin/busybox sh`` and a leading UTF-8 BOM.
    """
    if isinstance(head, bytes):
        if head.startswith(codecs.BOM_UTF8):
            head = head[len(codecs.BOM_UTF8) :]
        text = head[:_HEAD_BYTES].decode("latin-1")
    else:
        text = head[:_HEAD_BYTES].lstrip("\ufeff")
    if not text.startswith("#!"):
        return None
    words = text[2:].split("\n", 1)[0].strip().split()
    if not words:
        return None
    program = _basename(words[0])
    rest = words[1:]
    if program == "env":
        # Skip env's options and assignments: `env -S bash -e`, `env -i PATH=.. sh`.
        while rest:
            word = rest[0]
            if word in ("-u", "--unset", "-C", "--chdir"):
                rest = rest[2:]
            elif word.startswith("-") or _ENV_ASSIGN_RE.match(word):
                rest = rest[1:]
            else:
                break
        if not rest:
            return None
        program, rest = _basename(rest[0]), rest[1:]
    if program == "busybox" and rest:
        program, rest = _basename(rest[0]), rest[1:]
    if program in _SHELLS:
        return FileKind.SHELL
    if _PYTHON_RE.fullmatch(program):
        return FileKind.PYTHON
    if program == "uv" and rest[:1] == ["run"] and "--script" in rest:
        return FileKind.PYTHON  # PEP 723 scripts: `#!/usr/bin/env -S uv run --script`
    return None


def _basename(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def _suffix(path: str | os.PathLike[str]) -> str:
    """``Path(path).suffix.lower()`` without building a Path (discovery calls this
    for every file of a tree)."""
    name = os.path.basename(os.fspath(path))
    dot = name.rfind(".")
    if dot <= 0 or dot == len(name) - 1 or name.strip(".") == "":
        return ""
    return name[dot:].lower()


def classify(path: str | os.PathLike[str], head: bytes) -> FileKind | None:
    """The kind of a file from its name and, for a name without a suffix, its
    shebang line (``head`` is the start of the file; ``b""`` when not read).

    ``*.sh``/``*.bash`` are SHELL, ``*.py`` PYTHON, ``*.yaml``/``*.yml`` YAML,
    ``*.md``/``*.markdown`` MARKDOWN (suffixes compared case-insensitively); a
    batch-job script (``*.sbatch``, ``*.slurm``, ``*.pbs``) what its shebang names.
    Any other suffix is None whatever the content: a template or a ``.txt`` copy of
    a script is not analyzed unless named explicitly (see :func:`discover`).
    """
    suffix = _suffix(path)
    if suffix and suffix not in _JOB_SUFFIXES:
        return _SUFFIXES.get(suffix)
    return shebang_kind(head)


def source_kind(path: str | os.PathLike[str], text: str) -> FileKind | None:
    """The kind of a file :func:`discover` returned, given its text.

    Like :func:`classify`, but the shebang decides for any unknown suffix, the way
    :func:`discover` admits an explicitly named file.
    """
    kind = _SUFFIXES.get(_suffix(path))
    return kind if kind is not None else shebang_kind(text)


# ---------------------------------------------------------------------------------
# Reading


def _human_size(size: float) -> str:
    if size < 1024:
        return f"{int(size)} byte" + ("" if size == 1 else "s")
    for unit in ("KB", "MB", "GB"):
        size /= 1024
        if size < 1024 or unit == "GB":
            text = f"{size:.1f}"
            return (text[:-2] if text.endswith(".0") else text) + " " + unit
    raise AssertionError("unreachable")


def _file_type(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


def _not_regular(display: str, mode: int) -> Note:
    kind = _file_type(mode)
    if kind.startswith("not"):
        return Note(display, "not a regular file; skipped")
    return Note(display, f"is {kind}, not a regular file; skipped")


def _os_error(display: str, error: OSError, what: str = "cannot read file") -> Note:
    if isinstance(error, FileNotFoundError):
        return Note(display, "no such file or directory")
    reason = error.strerror or str(error) or type(error).__name__
    return Note(display, f"{what}: {reason}")


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _read_regular(
    path: str, limit: int, cap: int | None = None
) -> tuple[bytes | None, os.stat_result | None, Note | None]:
    """Read at most ``limit`` bytes of a regular file; never opens anything else.

    The file is stat'ed before opening (so a FIFO or device is never opened at all)
    and fstat'ed after (in case it was swapped in between); ``O_NONBLOCK`` makes
    even that race unable to block on a FIFO. When the file is larger than ``cap``
    nothing is read and ``(None, stat, None)`` comes back.
    """
    try:
        before = os.stat(path)
    except OSError as error:
        return None, None, _os_error(path, error)
    if not stat.S_ISREG(before.st_mode):
        return None, before, _not_regular(path, before.st_mode)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as error:
        return None, before, _os_error(path, error)
    try:
        after = os.fstat(fd)
        if not stat.S_ISREG(after.st_mode):
            return None, after, _not_regular(path, after.st_mode)
        if cap is not None and after.st_size > cap:
            return None, after, None
        chunks: list[bytes] = []
        remaining = limit
        # Each read asks for what the file holds (and a byte more, to see the
        # end): os.read allocates the size asked for and then shrinks it, and
        # a megabyte per file left the process 34 MB larger after reading
        # SGLang's 5,000 files (malloc's fragments, issue 20).
        expected = after.st_size + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, max(expected, 4096), 1024 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
            expected -= len(chunk)
        return b"".join(chunks), after, None
    except OSError as error:
        return None, before, _os_error(path, error)
    finally:
        os.close(fd)


def read_source(path: Path | str, *, max_bytes: int = MAX_BYTES) -> tuple[str | None, Note | None]:
    """The text of ``path``, or None and a Note saying why it was skipped.

    Never raises and never blocks: FIFOs, sockets, devices and directories are
    refused without being opened; files over ``max_bytes`` are refused without
    being read (and so are files that grow past it while being read); a NUL byte in
    the first 8 KiB means binary. Decoding: UTF-8 (a BOM is removed), UTF-16 and
    UTF-32 when they start with a BOM, and for a Python file the encoding its PEP
    263 coding declaration names (see :func:`decode_source`). Invalid UTF-8 is
    reported with the line, column and offset of the first bad byte, and the file
    is skipped: there is no latin-1 fallback, since guessing would make values and
    columns silently wrong.
    The text is otherwise kept as is (``\\r\\n`` included); line numbers count
    ``\\n``.
    """
    display = str(path)
    try:
        return _read_source(display, max_bytes)
    except Exception as error:  # pragma: no cover - a last line of defence
        return None, Note(display, f"internal error while reading: {type(error).__name__}: {error}")


def _read_source(path: str, max_bytes: int) -> tuple[str | None, Note | None]:
    data, note = read_bytes(path, max_bytes=max_bytes)
    if data is None:
        return None, note
    return decode_source(path, data)


def read_bytes(path: str, *, max_bytes: int = MAX_BYTES) -> tuple[bytes | None, Note | None]:
    """The bytes of ``path`` with :func:`read_source`'s checks (a regular file,
    within the size limit), undecoded; None and a Note when it cannot be used."""
    try:
        data, info, note = _read_regular(path, max_bytes + 1, cap=max_bytes)
    except Exception as error:  # pragma: no cover - a last line of defence
        return None, Note(path, f"internal error while reading: {type(error).__name__}: {error}")
    if note is not None:
        return None, note
    limit = _human_size(max_bytes)
    if data is None:
        assert info is not None
        size = _human_size(info.st_size)
        if size == limit:  # not "file is 10 MB, over the 10 MB limit": exact counts
            size, limit = f"{info.st_size:,} bytes", f"{limit} ({max_bytes:,} bytes)"
        return None, Note(path, f"file is {size}, over the {limit} limit; skipped")
    if len(data) > max_bytes:
        return None, Note(path, f"file grew past the {limit} limit while being read; skipped")
    return data, None


def binary_note(path: str, data: bytes) -> Note | None:
    """The note for a binary file (a NUL byte in its first 8 KiB, not UTF-16/32),
    as :func:`decode_source` gives it, without decoding anything."""
    skipped = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    nul = data.find(b"\0", skipped, skipped + _BINARY_PROBE)
    if nul < 0 or has_wide_bom(data):
        return None
    return Note(path, f"binary file (NUL byte at offset {nul}); skipped")


def has_wide_bom(data: bytes) -> bool:
    """A UTF-16 or UTF-32 byte-order mark: the text is not ASCII-compatible, so
    byte-level searches for ASCII markers do not work on it before decoding."""
    return any(data.startswith(bom) for bom, _, _ in _BOMS)


_BOMS = (
    # UTF-32 first: its little-endian BOM starts with UTF-16's.
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)


def decode_source(path: str, data: bytes) -> tuple[str | None, Note | None]:
    """Decode file bytes as :func:`read_source` does (also for standard input).

    A Python file (``*.py``, or no known suffix and a Python shebang) that is not
    valid UTF-8 is decoded with the encoding its PEP 263 coding declaration names
    (``# -*- coding: latin-1 -*-`` on line 1, or on line 2 after a comment line),
    as CPython reads it; see :func:`_decode_declared`.
    """
    skipped = 0
    if data.startswith(codecs.BOM_UTF8):
        skipped = len(codecs.BOM_UTF8)
    else:
        for bom, codec, name in _BOMS:
            if data.startswith(bom):
                body = data[len(bom) :]
                try:
                    return body.decode(codec), None
                except UnicodeDecodeError as error:
                    return None, _bad_encoding(path, body, error.start, len(bom), name, codec)
    body = data[skipped:]
    nul = body.find(b"\0", 0, _BINARY_PROBE)
    if nul >= 0:
        return None, Note(path, f"binary file (NUL byte at offset {nul + skipped}); skipped")
    try:
        return body.decode("utf-8"), None
    except UnicodeDecodeError as error:
        if _is_python(path, data):
            declared = _decode_declared(path, data, error.start, skipped)
            if declared is not None:
                return declared
        return None, _bad_encoding(path, body, error.start, skipped, "UTF-8", "utf-8")


def _is_python(path: str, data: bytes) -> bool:
    """Whether :func:`source_kind` will call this file Python: its suffix, else
    its shebang (standard input without a name: its shebang)."""
    kind = _SUFFIXES.get(_suffix(path))
    return kind is FileKind.PYTHON or (kind is None and shebang_kind(data) is FileKind.PYTHON)


# Every printable ASCII character and the line-ending ones: an encoding a Python
# file can be written in decodes them to themselves (PEP 263; the byte-level
# prefilter relies on it too).
_ASCII_PROBE = bytes(range(0x20, 0x7F)) + b"\t\n\r"


def _decode_declared(path: str, data: bytes, utf8_error: int, skipped: int) -> tuple[str | None, Note | None] | None:
    """A Python file that is not valid UTF-8, decoded with the encoding its PEP
    263 coding declaration names (read by ``tokenize.detect_encoding``, which
    applies the rules: line 1 or 2, only after a comment or blank line, none
    after a UTF-8 BOM). None when it declares no encoding but UTF-8 (the UTF-8
    note stands); a Note when the declaration names an encoding that is unknown,
    not a text encoding or not ASCII-compatible (with the UTF-8 problem), or
    when the file is not valid in the encoding it declares."""
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        # "unknown encoding: x"; the others ("invalid or missing encoding
        # declaration": line 1 or 2 is not UTF-8; "encoding problem: utf-8": a
        # BOM with another declaration) mean no usable declaration.
        message = str(error.msg or "")
        if not message.startswith("unknown encoding"):
            return None
        problem = f"its coding declaration names an unknown encoding {message.partition(':')[2].strip()!r}"
        return None, _bad_encoding(path, data[skipped:], utf8_error, skipped, "UTF-8", "utf-8", problem)
    if codecs.lookup(encoding).name == "utf-8":
        return None  # declared (or defaulted to) UTF-8, which it is not
    try:
        usable = _ASCII_PROBE.decode(encoding) == _ASCII_PROBE.decode("ascii")
    except (LookupError, UnicodeDecodeError):  # base64, rot13: not text encodings
        usable = False
    if not usable:
        problem = f"its coding declaration names {encoding!r}, which Python source cannot be written in"
        return None, _bad_encoding(path, data[skipped:], utf8_error, skipped, "UTF-8", "utf-8", problem)
    try:
        return data.decode(encoding), None
    except UnicodeDecodeError as error:
        return None, _bad_encoding(path, data, error.start, 0, f"{encoding} (its coding declaration)", encoding)


def _bad_encoding(path: str, body: bytes, offset: int, skipped: int, name: str, codec: str, problem: str = "") -> Note:
    """A Note for the first undecodable byte at ``offset`` of ``body`` (the file
    after a BOM of ``skipped`` bytes); the offset shown counts from the file start.
    ``problem``: what else is wrong, said after the position."""
    bad = body[offset : offset + 1]
    good = body[:offset].decode(codec, "replace")
    line = good.count("\n") + 1
    column = len(good) - (good.rfind("\n") + 1) + 1
    also = f", and {problem}" if problem else ""
    return Note(
        path,
        f"not valid {name} at line {line}, column {column} (byte 0x{bad.hex()} at offset {offset + skipped}){also}; skipped",
        line,
        column,
    )


# ---------------------------------------------------------------------------------
# Ignore rules


def _compile(lines: Iterable[str]) -> list:
    """gitignore patterns, compiled with pathspec (GitIgnoreSpec: pathspec >= 0.10)."""
    lines = [line for line in lines if line.strip()]
    if not lines:
        return []  # (most directories: pathspec is not even imported)
    import pathspec

    spec_class = getattr(pathspec, "GitIgnoreSpec", None)
    if spec_class is not None:
        spec = spec_class.from_lines(lines)
    else:  # pragma: no cover - very old pathspec
        spec = pathspec.PathSpec.from_lines("gitwildmatch", lines)
    return [p for p in spec.patterns if p.include is not None]


def _pattern_matches(pattern, rel: str) -> bool:
    match_file = getattr(pattern, "match_file", None)
    if match_file is not None:
        return match_file(rel) is not None
    return pattern.regex.match(rel) is not None  # pragma: no cover - old pathspec


class _Rules:
    """Ordered ignore rules: each entry is (base directory, patterns). Later entries
    take precedence (deeper .gitignore over shallower, .gitignore over
    .git/info/exclude) and, within one, the last matching pattern decides, as in
    git."""

    def __init__(self, entries: Sequence[tuple[str, list]] = ()) -> None:
        self.entries = list(entries)

    def with_entry(self, base: str, patterns: list) -> "_Rules":
        return _Rules([*self.entries, (base, patterns)]) if patterns else self

    def ignored(self, abspath: str, is_dir: bool) -> bool:
        verdict = False
        for base, patterns in self.entries:
            rel = _relative_to(abspath, base)
            if rel is None or rel == "":
                continue
            if is_dir:
                rel += "/"
            for pattern in patterns:
                if _pattern_matches(pattern, rel):
                    verdict = bool(pattern.include)
        return verdict


def is_inside(path: str, directory: str) -> bool:
    """Whether the absolute ``path`` is ``directory`` or lies below it."""
    return _relative_to(path, directory) is not None


def _relative_to(path: str, base: str) -> str | None:
    if path == base:
        return ""
    prefix = base if base.endswith(os.sep) else base + os.sep
    if not path.startswith(prefix):
        return None
    rel = path[len(prefix) :]
    return rel.replace(os.sep, "/") if os.sep != "/" else rel


def _read_ignore_file(path: str) -> list[str]:
    data, _, note = _read_regular(path, 1024 * 1024)
    if note is not None or data is None:
        return []
    return data.decode("utf-8", "replace").splitlines()


def _find_repo(start: str) -> tuple[str | None, str | None]:
    """(work tree root, path of info/exclude) of the git repository holding
    ``start``, found by walking up to a ``.git`` directory or file."""
    current = start
    while True:
        dotgit = os.path.join(current, ".git")
        try:
            mode = os.stat(dotgit).st_mode
        except OSError:
            mode = 0
        if stat.S_ISDIR(mode):
            return current, os.path.join(dotgit, "info", "exclude")
        if stat.S_ISREG(mode):
            # Worktrees and submodules: "gitdir: <path>"; worktrees share
            # info/exclude through the common dir.
            exclude = None
            for line in _read_ignore_file(dotgit):
                if line.startswith("gitdir:"):
                    gitdir = os.path.join(current, line[len("gitdir:") :].strip())
                    common = _read_ignore_file(os.path.join(gitdir, "commondir"))
                    if common:
                        gitdir = os.path.join(gitdir, common[0].strip())
                    exclude = os.path.join(gitdir, "info", "exclude")
                    break
            return current, exclude
        parent = os.path.dirname(current)
        if parent == current:
            return None, None
        current = parent


# ---------------------------------------------------------------------------------
# Discovery


def _display(given: str, cwd: str) -> str:
    """A path as the user should see it: relative to the working directory when it
    is under it, otherwise as given (``./`` and doubled slashes removed)."""
    if os.path.isabs(given):
        rel = _relative_to(os.path.normpath(given), cwd)
        if rel is not None:
            return str(Path(rel)) if rel else "."
    return str(Path(given))


def display_name(given: str | os.PathLike[str]) -> str:
    """``given`` as :func:`discover` shows it (relative to the working directory
    when an absolute path is under it)."""
    return _display(os.fspath(given), os.getcwd())


# SGLang `--config` files larger than this are not read.
MAX_SGLANG_CONFIG_BYTES = 1024 * 1024


def read_sglang_config(candidate: str | os.PathLike[str]) -> str | None:
    """The text of an SGLang ``--config`` file a launch names, or None when it is
    not a readable UTF-8 regular file within the size limit."""
    data, _, note = _read_regular(os.fspath(candidate), MAX_SGLANG_CONFIG_BYTES + 1, cap=MAX_SGLANG_CONFIG_BYTES)
    if note is not None or data is None or len(data) > MAX_SGLANG_CONFIG_BYTES:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def read_stream(stream, display: str, *, max_bytes: int = MAX_BYTES) -> tuple[bytes | None, Note | None]:
    """Read a binary stream (standard input) up to ``max_bytes``; None and a Note
    when it is longer or cannot be read. Decode with :func:`decode_source`."""
    try:
        data = stream.read(max_bytes + 1)
    except (OSError, ValueError) as error:
        return None, Note(display, f"cannot read standard input: {error}; skipped")
    if len(data) > max_bytes:
        return None, Note(display, f"standard input is over the {_human_size(max_bytes)} limit; skipped")
    return data, None


def _head(path: str) -> bytes:
    data, _, _ = _read_regular(path, _HEAD_BYTES)
    return data or b""


def _file_identity(path: str, info: os.stat_result) -> object:
    if info.st_ino:
        return (info.st_dev, info.st_ino)
    return os.path.realpath(path)  # pragma: no cover - file systems without inodes


class ExcludeSet(Struct, frozen=True):
    """The exclusions in force in one directory: gitignore-style ``patterns``, each
    group relative to its absolute base directory, and whether the
    :data:`DEFAULT_EXCLUDED_DIRS` apply (a config's ``exclude`` replaces them; the
    :data:`ALWAYS_EXCLUDED_DIRS` stay excluded whatever is configured)."""

    patterns: tuple[tuple[str, tuple[str, ...]], ...] = ()
    default_dirs: bool = True


@functools.lru_cache(maxsize=256)
def _compiled_set(exclusions: ExcludeSet) -> tuple[tuple[str, list], ...]:
    return tuple((base, _compile(patterns)) for base, patterns in exclusions.patterns)


def _excluded(abspath: str, exclusions: ExcludeSet, walk_root: str, is_dir: bool) -> bool:
    """Whether ``exclusions`` (those of the directory holding ``abspath``) skip it."""
    name = os.path.basename(abspath)
    if is_dir and (name in ALWAYS_EXCLUDED_DIRS or (exclusions.default_dirs and name in DEFAULT_EXCLUDED_DIRS)):
        return True
    for base, patterns in _compiled_set(exclusions):
        if _relative_to(abspath, base) is None:
            # Outside the directory the patterns are relative to: match them
            # against the path below the walked root instead.
            base = walk_root
        if _Rules([(base, patterns)]).ignored(abspath, is_dir):
            return True
    return False


def excluded_path(abspath: str, exclusions: Callable[[str], ExcludeSet], cwd: str | None = None) -> bool:
    """Whether the file ``abspath`` is excluded, by itself or through one of its
    directories below the working directory (``--force-exclude``: an explicit
    ``.venv/x.py`` or ``legacy/run.sh`` with ``exclude = ["legacy/"]``). The file
    need not exist (a ``--stdin-filename`` for a new buffer)."""
    cwd = cwd or os.getcwd()
    directory = os.path.dirname(abspath)
    if _excluded(abspath, exclusions(directory), directory, False):
        return True
    if _relative_to(directory, cwd) is None:
        return False
    while directory != cwd:
        parent = os.path.dirname(directory)
        if _excluded(directory, exclusions(parent), cwd, True):
            return True
        directory = parent
    return False


class _Walker:
    def __init__(
        self,
        exclusions: Callable[[str], ExcludeSet],
        respect_gitignore: bool,
        follow_symlinks: bool,
    ):
        self.exclusions = exclusions
        self.respect_gitignore = respect_gitignore
        self.follow_symlinks = follow_symlinks
        self.files: list[str] = []
        self.notes: list[Note] = []
        self.seen: set[object] = set()

    def add(self, display: str, info: os.stat_result) -> None:
        identity = _file_identity(display, info)
        if identity in self.seen:
            return
        self.seen.add(identity)
        self.files.append(display)

    # -- explicit arguments -------------------------------------------------------
    def explicit(self, given: str, cwd: str, force_exclude: bool) -> None:
        display = _display(given, cwd)
        try:
            info = os.stat(given)
        except OSError as error:
            self.notes.append(_os_error(display, error, "cannot access"))
            return
        abspath = os.path.normpath(os.path.join(cwd, given))
        if stat.S_ISDIR(info.st_mode):
            self.walk_root(abspath, display, info)
            return
        if force_exclude and excluded_path(abspath, self.exclusions, cwd):
            return
        if not stat.S_ISREG(info.st_mode):
            self.notes.append(_not_regular(display, info.st_mode))
            return
        kind = classify(display, b"")
        if kind is None:
            kind = shebang_kind(_head(given))
        if kind is None:
            self.notes.append(
                Note(
                    display,
                    "not a file sglang-lint reads (*.sh, *.bash, *.py, *.yaml, *.yml, *.md, "
                    "or a shell or Python shebang); skipped",
                )
            )
            return
        self.add(display, info)

    # -- directories --------------------------------------------------------------
    def walk_root(self, abspath: str, display: str, info: os.stat_result, recursive: bool = True) -> None:
        rules = _Rules()
        if self.respect_gitignore:
            rules = self.ancestor_rules(abspath)
            if rules.ignored(abspath, True):
                # The user named an ignored directory: honour that, and let only the
                # ignore files inside it apply.
                rules = _Rules()
        self.walk(abspath, display, rules, abspath, {(info.st_dev, info.st_ino)}, recursive)

    def ancestor_rules(self, root: str) -> _Rules:
        """.git/info/exclude and the .gitignore files from the repository's work
        tree root down to (not including) ``root``; .gitignore files outside a
        repository apply only from the walked root down."""
        repo, exclude_file = _find_repo(root)
        rules = _Rules()
        if repo is None:
            return rules
        if exclude_file:
            rules = rules.with_entry(repo, _compile(_read_ignore_file(exclude_file)))
        parts = [p for p in (_relative_to(root, repo) or "").split("/") if p]
        directories = [repo]
        for part in parts[:-1]:
            directories.append(os.path.join(directories[-1], part))
        if not parts:
            directories = []  # the root is the work tree: walk() reads its .gitignore
        for directory in directories:
            rules = rules.with_entry(directory, _compile(_read_ignore_file(os.path.join(directory, ".gitignore"))))
        return rules

    def walk(self, abspath: str, display: str, rules: _Rules, walk_root: str, active: set, recursive: bool = True) -> None:
        try:
            with os.scandir(abspath) as iterator:
                entries = sorted(iterator, key=lambda e: e.name)
        except OSError as error:
            self.notes.append(_os_error(display, error, "cannot read directory"))
            return
        # (looked for in the listing: a warm run over SGLang's tree tried to
        # open 620 .gitignore files that were not there)
        if self.respect_gitignore and any(entry.name == ".gitignore" for entry in entries):
            rules = rules.with_entry(abspath, _compile(_read_ignore_file(os.path.join(abspath, ".gitignore"))))
        exclusions = self.exclusions(abspath)  # (those of the directory the entries are in)
        for entry in entries:
            child_abs = os.path.join(abspath, entry.name)
            child_display = os.path.join(display, entry.name) if display != "." else entry.name
            try:
                is_link = entry.is_symlink()
                info = os.stat(child_abs)  # follows symlinks; lstat via is_symlink
            except OSError:
                continue  # a dangling symlink or a file that vanished
            if stat.S_ISDIR(info.st_mode):
                if not recursive or (is_link and not self.follow_symlinks):
                    continue
                if rules.ignored(child_abs, True) or _excluded(child_abs, exclusions, walk_root, True):
                    continue
                identity = (info.st_dev, info.st_ino)
                if identity in active:
                    continue  # a symlink loop (only reachable with follow_symlinks)
                self.walk(child_abs, child_display, rules, walk_root, active | {identity})
            elif stat.S_ISREG(info.st_mode):
                if rules.ignored(child_abs, False) or _excluded(child_abs, exclusions, walk_root, False):
                    continue
                suffix = _suffix(entry.name)
                kind = classify(entry.name, b"" if suffix and suffix not in _JOB_SUFFIXES else _head(child_abs))
                if kind is not None:
                    self.add(child_display, info)
            # FIFOs, sockets and devices found while walking are silently passed over.


def discover(
    paths: Sequence[str | os.PathLike[str]],
    *,
    exclude: Sequence[str] = (),
    respect_gitignore: bool = True,
    follow_symlinks: bool = False,
    exclude_root: str | os.PathLike[str] | None = None,
    force_exclude: bool = False,
    exclusions: Callable[[str], ExcludeSet] | None = None,
) -> tuple[list[str], list[Note]]:
    """The files to analyze under ``paths`` (files and directories), and Notes about
    the paths that could not be used.

    - Explicit files are always taken when their kind is known (by suffix, or by a
      shell/Python shebang whatever the suffix); otherwise they get a Note. They are
      taken even when ``.gitignore``d or excluded, unless ``force_exclude`` (what
      pre-commit, which passes every changed file, wants).
    - Directories are walked in sorted order. Skipped below a walked root: the
      :data:`DEFAULT_EXCLUDED_DIRS`, paths ignored by ``.gitignore`` files (the
      repository's ``.git/info/exclude``, the ``.gitignore`` files between the
      repository root and the walked root, and every one below it, nested ones
      applying to their subtree with negations, as git does) unless
      ``respect_gitignore`` is False, and paths matching ``exclude`` (gitignore-style
      patterns relative to ``exclude_root``, default the working directory), or,
      when ``exclusions`` is given, the :class:`ExcludeSet` it returns for the
      absolute directory holding the path (a config's ``exclude`` applies below
      the config file's directory) instead of ``exclude``.
      Extension-less files, and batch-job scripts (``*.sbatch``, ``*.slurm``,
      ``*.pbs``), are taken when their shebang names a shell or Python.
    - Directory symlinks are not followed below a root unless ``follow_symlinks``
      (loops are then cut). File symlinks are followed when they point at a regular
      file. FIFOs, sockets and devices are never opened.
    - A missing path gets a Note ("no such file or directory") and the rest goes on.
    - A file reached twice (same path, ``./`` spelling, or a symlink to it) is listed
      once, under the first name seen.
    - Paths are returned as the user wrote them, or relative to the working
      directory when an absolute path is under it.
    """
    cwd = os.getcwd()
    if exclusions is None:
        root = os.path.normpath(os.path.join(cwd, os.fspath(exclude_root))) if exclude_root is not None else cwd
        fixed = ExcludeSet(((root, tuple(exclude)),) if exclude else ())
        exclusions = lambda directory: fixed  # noqa: E731
    walker = _Walker(exclusions, respect_gitignore, follow_symlinks)
    for given in paths:
        walker.explicit(os.fspath(given), cwd, force_exclude)
    return walker.files, walker.notes


def siblings(
    files: Sequence[str | os.PathLike[str]],
    *,
    respect_gitignore: bool = True,
    exclusions: Callable[[str], ExcludeSet] | None = None,
    known: Iterable[str | os.PathLike[str]] = (),
) -> list[str]:
    """The other files in the directories of ``files`` (not below them) that a
    walk of those directories would analyze: of a kind sglang-lint reads, not
    ``.gitignore``d, not excluded. This is the deployment context of files named
    one by one (pre-commit, flake8, an editor): single-role files pair with the
    single-role files of their directory (topology.py), so a changed
    ``decode.sh`` is judged with the ``prefill.sh`` beside it.

    ``files`` themselves and the files in ``known`` (analyzed already, under any
    name) are left out. Paths are shown as :func:`discover` shows them; each
    directory is listed once, in sorted order."""
    cwd = os.getcwd()
    if exclusions is None:
        exclusions = lambda directory: ExcludeSet()  # noqa: E731
    walker = _Walker(exclusions, respect_gitignore, follow_symlinks=False)
    for path in (*files, *known):
        try:
            walker.seen.add(_file_identity(os.fspath(path), os.stat(path)))
        except OSError:
            continue  # a buffer not saved yet, a file that vanished
    directories: dict[str, str] = {}
    for path in files:
        display = os.path.dirname(_display(os.fspath(path), cwd)) or "."
        directories.setdefault(os.path.normpath(os.path.join(cwd, display)), display)
    for abspath, display in directories.items():
        try:
            info = os.stat(abspath)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode):
            walker.walk_root(abspath, display, info, recursive=False)
    return walker.files
