"""The on-disk cache of the sources' per-file results (issue 7).

What is cached is the extraction of one file (its SourceResult: launches, notes,
comments, continuation breaks, broken continuations), keyed by

- the file's path as shown (every Location in a result names it),
- a hash of its text,
- its kind and the config ``env`` values it was analyzed with,
- and, checked at lookup, the other files of the project its analysis read (a
  shell script's ``source``d helpers: ``SourceResult.dependencies``, each with the
  digest of its text): an entry is stale when one of them changed or is gone,

inside a cache file whose name is a fingerprint of the tool: its version, the
size and modification time of each of its own modules (an edited checkout never
reads results of the code it replaced) and the Python version (the ``ast`` the
Python source reads differs between versions). Everything after extraction
(settings, topology, rules, suppression) runs again on every run: those are
cross-file and cheap.

The cache lives in ``.sglang-lint-cache/`` at the project root (the directory of
the run's config file, else the working directory), or where ``--cache-dir``,
``cache-dir`` in the config or ``SGLANG_LINT_CACHE_DIR`` says. Inside it we write
a ``.gitignore`` holding ``*`` (git never picks it up) and a ``CACHEDIR.TAG``
(backup tools skip it), and JSON files per tool fingerprint (the per-file
results; the findings of recent whole runs, :class:`FindingsCache`; the files
the pre-check dismissed, :class:`DismissedFiles`; and the digests of the files
the analyses read, by their stat, :class:`DigestMemo`); files of other
fingerprints are removed when new ones are written. Nothing is written anywhere
else. The format is JSON on purpose: a cache file is data, never code (pickle
would run whatever a planted file said), and a file that does not parse, is too
large or holds anything unexpected is ignored as a whole.

A cache is trusted to hold what this tool wrote: one copied from elsewhere can
hide findings. Never commit it (the ``.gitignore`` sees to that); CI runs that
must not trust a restored cache pass ``--no-cache``.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import os
import stat
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, TypeVar

import msgspec
from msgspec.structs import replace

from sglang_lint import __version__
from sglang_lint.model import Finding, SourceResult
from sglang_lint.sources.project import text_digest  # noqa: F401 - the digest of every text the caches key on

CACHE_DIR_NAME = ".sglang-lint-cache"
ENV_VARIABLE = "SGLANG_LINT_CACHE_DIR"
# A cache file larger than this is not read (and is replaced by the next write).
MAX_CACHE_BYTES = 512 * 1024 * 1024
# Entries kept per cache file: the files of this run first, then older ones.
MAX_ENTRIES = 100_000
_FORMAT = 11  # 5: msgspec's encoding of the records (issue 17); 6: SourceResult.version_hints (issue 18); 7: dependencies (issue 19); 8: Fix.applicability (issue 21); 9: SourceResult.exports, dismissed files' imports (issue 20); 10: Note.reached_from (a helper's note, reached from a script); 11: ArgToken.held (the words a merged spread may hold)
S = TypeVar("S", bound=msgspec.Struct)
_CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by sglang-lint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


def env_digest(env: Mapping[str, str] | None) -> str:
    if not env:
        return ""
    return hashlib.blake2b(json.dumps(sorted(env.items())).encode(), digest_size=8).hexdigest()


def tool_fingerprint() -> str:
    """The version, each module's size and mtime, and the Python version."""
    package = Path(__file__).resolve().parent
    parts = [__version__, f"{sys.version_info[0]}.{sys.version_info[1]}", str(_FORMAT)]
    for directory, dirnames, filenames in os.walk(package):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith((".py", ".json")):
                path = os.path.join(directory, name)
                try:
                    info = os.stat(path)
                except OSError:
                    continue
                parts.append(f"{os.path.relpath(path, package)}:{info.st_size}:{info.st_mtime_ns}")
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=12).hexdigest()


def default_cache_dir(project_root: str | os.PathLike[str]) -> Path:
    configured = os.environ.get(ENV_VARIABLE)
    if configured:
        return Path(configured)
    return Path(project_root) / CACHE_DIR_NAME


class ExtractionCache:
    """Per-file SourceResults of one tool fingerprint, loaded at the start of a
    run and written back once at its end (:meth:`save`) when anything changed."""

    def __init__(self, directory: str | os.PathLike[str], fingerprint: str | None = None) -> None:
        self.directory = Path(directory)
        self.fingerprint = fingerprint or tool_fingerprint()
        self.path = self.directory / f"extract-{self.fingerprint}.json"
        # Read on first use: a run the findings cache answers never needs it.
        self._loaded: dict[str, msgspec.Raw] | None = None
        self._used: dict[str, msgspec.Raw] = {}
        self._dirty = False
        self.hits = 0
        self.misses = 0

    def is_empty(self) -> bool:
        """Whether no run has stored anything yet (nothing read to know it)."""
        return self._loaded is None and not self.path.exists() or self._loaded is not None and not self._loaded

    # -- lookup -------------------------------------------------------------------
    @property
    def _entries(self) -> dict[str, msgspec.Raw]:
        if self._loaded is None:
            self._loaded = self._load()
        return self._loaded

    def get(self, path: str, text: str, digest: str, kind: str, env_key: str, fresh: Fresh | None = None, slot: str | None = None) -> SourceResult | None:
        """The result stored for ``path`` with this digest, kind and env, whose
        dependencies ``fresh`` finds unchanged (without ``fresh``, an entry with
        dependencies is a miss: they cannot be checked). ``slot``: where the
        entry is kept, when not under ``path`` (an importer read past the
        pre-check, extraction.cache_slot)."""
        slot = slot or path
        raw = self._entries.get(slot)
        if raw is not None:
            try:
                entry = _ENTRY_DECODER.decode(raw)
            except _UNREADABLE:
                entry = None  # an entry of a shape we did not write: a miss
            if entry is not None and entry[:3] == (digest, kind, env_key) and _unchanged(entry[3], fresh):
                result = decode_result_json(path, text, entry[4])
                if result is not None:
                    self._used[slot] = raw
                    self.hits += 1
                    return result
        self.misses += 1
        return None

    def reread(self) -> None:
        """Read the cache file again when next used: another process wrote it
        since (flake8's workers), and saving keeps its entries beside ours."""
        self._loaded = None

    def save_beside_others(self) -> str | None:
        """:meth:`save`, keeping what other processes wrote to the file since
        it was read (flake8's workers, each ending with its own results): read
        again and written under a lock on the cache directory, so that two
        writers ending together do not each write what they read before the
        other's (one worker's results were lost: SGLang's tree, 88 of 144)."""
        if not self._dirty:
            return None
        with _exclusive(self.directory):
            self.reread()
            return self.save()

    def keep(self, path: str) -> None:
        """Count the stored entry of ``path`` as used by this run (answered from
        memory by a MemoryExtractionCache), so that saving keeps it first."""
        raw = self._entries.get(path)
        if raw is not None:
            self._used.setdefault(path, raw)

    def put(self, path: str, digest: str, kind: str, env_key: str, result: SourceResult, encoded: bytes | None = None, slot: str | None = None) -> None:
        """Remember ``result``; ``encoded``: its encode_result_json(), when a
        worker process made it already; ``slot``: as for :meth:`get`."""
        data = msgspec.Raw(encoded if encoded is not None else encode_result_json(result))
        self._used[slot or path] = msgspec.Raw(_ENCODER.encode((digest, kind, env_key, result.dependencies, data)))
        self._dirty = True

    # -- storage --------------------------------------------------------------------
    def _load(self) -> dict[str, msgspec.Raw]:
        loaded = _read_cache_file(self.path, _ExtractFile)
        return loaded.entries if loaded is not None else {}

    def save(self) -> str | None:
        """Write the cache file if this run changed it; the error text when it
        could not be written (a read-only checkout: the run goes on)."""
        if not self._dirty:
            return None
        entries = dict(self._used)
        for path, raw in self._entries.items():
            if len(entries) >= MAX_ENTRIES:
                break
            entries.setdefault(path, raw)
        # The entries are raw JSON (read from the file, or made by a worker
        # process): spliced in as they are, never decoded to be written again,
        # and written one by one (an _ExtractFile's JSON, without a second copy
        # of all of them in memory: the largest file of a run).
        chunks = itertools.chain(
            (b'{"format":%d,"entries":{' % _FORMAT,),
            (b"%s%s:%s" % (b"," if index else b"", _ENCODER.encode(path), raw) for index, (path, raw) in enumerate(entries.items())),
            (b"}}",),
        )
        error = _write_cache_file(self.directory, self.path, chunks)
        if error is not None:
            return error
        self._remove_stale()
        self._dirty = False
        return None

    def _remove_stale(self) -> None:
        """Cache files of other tool fingerprints (an older version) are dead."""
        current = {self.path.name, *(f"{kind}-{self.fingerprint}.json" for kind in ("findings", "context", "digests"))}
        names = ("extract-*.json", "findings-*.json", "context-*.json", "digests-*.json")
        for entry in [path for name in names for path in self.directory.glob(name)]:
            if entry.name not in current:
                try:
                    entry.unlink()
                except OSError:
                    pass


# ---------------------------------------------------------------------------------
# The codec: the records themselves (msgspec Structs, array-like: JSON arrays in
# field order) encoded with msgspec.json and decoded typed, in C. A cache entry of
# a file is [digest, kind, env key, dependencies, [had lines, result]]; the result is stored
# without its lines (they come back from the file's text) and its entry is kept
# as raw JSON until a lookup needs it: a run decodes only the entries of the
# files it reads, and writes the others back as they were. The dependencies
# are beside the result (not inside it): a stale entry is told without decoding it.


class _ExtractFile(msgspec.Struct):
    format: int
    entries: dict[str, msgspec.Raw]


_ENCODER = msgspec.json.Encoder()
_ENTRY_DECODER = msgspec.json.Decoder(tuple[str, str, str, list[tuple[str, str]], msgspec.Raw])
# Whether a result's dependencies ((path, digest) each) still read as they did
# (sources.project.ProjectFiles.fresh).
Fresh = Callable[[list[tuple[str, str]]], bool]


def _unchanged(dependencies: list[tuple[str, str]], fresh: Fresh | None) -> bool:
    return not dependencies or (fresh is not None and fresh(dependencies))
_RESULT_DECODER = msgspec.json.Decoder(tuple[bool, SourceResult])
# What a cache file that does not decode, is of another shape, or holds a value
# a record refuses raises.
_UNREADABLE = (msgspec.MsgspecError, ValueError, TypeError, RecursionError)


def encode_result_json(result: SourceResult) -> bytes:
    """The JSON of a result's cache entry data (what a worker process sends back)."""
    return _ENCODER.encode((bool(result.lines), replace(result, lines=[]) if result.lines else result))


def decode_result_json(path: str, text: str, data: bytes | msgspec.Raw) -> SourceResult | None:
    """The result encode_result_json encoded, with its lines from ``text``;
    None when ``data`` is not the result of ``path`` this tool wrote."""
    try:
        had_lines, result = _RESULT_DECODER.decode(data)
    except _UNREADABLE:
        return None
    if result.path != path:
        return None
    if had_lines:
        result.lines = text.split("\n")
    return result


# ---------------------------------------------------------------------------------
# Whole-run findings


class FindingsCache:
    """The findings of whole runs, keyed by everything they depend on: every
    analyzed file (path, kind, prefilter verdict, text digest, env), the notes
    about unreadable files, the options, the configs' texts and which config
    governs which file, and the working directory (see lint._run_key). An entry
    also lists the SGLang ``--config`` files the launches read, with digests: it
    is reused only while they are unchanged. A run over an unchanged tree is then
    answered without decoding a single file's result; any change to any input
    makes a new key, and the per-file cache does the rest. The other files of
    the project the analyzed files read (``SourceResult.dependencies``: a
    ``source``d helper outside the analyzed paths) join the key the same way
    as the --config files: listed with their digests in the entry, checked at
    lookup. Up to
    ``MAX_RUNS`` entries are kept, the newest first."""

    MAX_RUNS = 8

    def __init__(self, directory: str | os.PathLike[str], fingerprint: str) -> None:
        self.directory = Path(directory)
        self.path = self.directory / f"findings-{fingerprint}.json"
        loaded = _read_cache_file(self.path, _FindingsFile)
        self._runs: list[_Run] = loaded.runs if loaded is not None else []
        self._dirty = False

    def get(self, key: str, fresh: Fresh | None = None) -> tuple[list[Finding], str, int] | None:
        """(findings, SGLang version, files checked) of a run with ``key``
        whose --config files and dependencies (checked by ``fresh``) are
        unchanged, else None."""
        from sglang_lint.files import read_sglang_config

        for run in self._runs:
            if run.key != key:
                continue
            if not _unchanged(run.dependencies, fresh):
                return None
            for path, digest in run.probes:
                text = read_sglang_config(path)
                if (None if text is None else text_digest(text)) != digest:
                    return None
            try:
                findings = _FINDINGS_DECODER.decode(run.findings)
            except _UNREADABLE:
                return None
            return findings, run.version, run.files_checked
        return None

    def put(
        self,
        key: str,
        findings: list[Finding],
        version: str,
        files_checked: int,
        probes: list[tuple[str, str | None]],
        dependencies: Iterable[tuple[str, str]] = (),
    ) -> None:
        run = _Run(key, list(probes), version, files_checked, msgspec.Raw(_ENCODER.encode(findings)), list(dependencies))
        self._runs = [run] + [other for other in self._runs if other.key != key][: self.MAX_RUNS - 1]
        self._dirty = True

    def save(self) -> str | None:
        if not self._dirty:
            return None
        error = _write_cache_file(self.directory, self.path, _FindingsFile(_FORMAT, self._runs))
        if error is None:
            self._dirty = False
        return error


class DigestMemo:
    """The digests of the files a run's analyzed files read (their
    dependencies), by what ``stat`` says of each. A warm run checks that every
    dependency still reads as it did: on SGLang's tree, 693 modules read and
    hashed, ~50 ms of a 0.3 s run (issue 20). A file whose size, times, inode
    and device are those recorded with its digest is not read again (git's
    index does the same).

    A digest is recorded only from a read the file's ``stat`` did not change
    across, of a file last changed more than ``SETTLED_SECONDS`` before: a
    write within the file system's timestamp granularity just after the read
    could keep the stat and change the text ("racily clean", in git's words).
    A memo is one project's (its roots, what it reads from disk and from the
    installed sglang): whether a path may be read at all depends on them, and a
    memo of another project is not used."""

    SETTLED_SECONDS = 2.0
    MAX_ENTRIES = 200_000

    def __init__(self, directory: str | os.PathLike[str], fingerprint: str, project) -> None:
        self.directory = Path(directory)
        self.path = self.directory / f"digests-{fingerprint}.json"
        self.identity = json.dumps([list(project.roots), project.disk, project.follow_installed])
        self._entries: dict[str, tuple[int, int, int, int, int, str]] | None = None
        self._used: set[str] = set()
        self._dirty = False
        self.reads = 0  # digests computed by reading (for tests and benchmarks)

    def _loaded(self) -> dict[str, tuple[int, int, int, int, int, str]]:
        if self._entries is None:
            loaded = _read_cache_file(self.path, _DigestFile)
            self._entries = dict(loaded.entries) if loaded is not None and loaded.identity == self.identity else {}
        return self._entries

    def freshness(self, project) -> Fresh:
        """``project.freshness()`` answered from the memo where it can: each
        dependency judged once per run."""
        return project.freshness(lambda shown: self.digest(project, shown))

    def digest(self, project, shown: str) -> str:
        """``project.digest(shown)``: from the memo when the file's stat is the
        one recorded with it, else by reading it (and recorded when settled)."""
        absolute = os.path.abspath(shown)
        if not project.disk or absolute in project.texts:
            return project.digest(shown)  # an unsaved buffer: its text decides
        try:
            before = stat_key(os.stat(absolute))
        except (OSError, ValueError):
            return project.digest(shown)
        entries = self._loaded()
        entry = entries.get(absolute)
        if entry is not None and entry[:5] == before:
            self._used.add(absolute)
            return entry[5]
        self.reads += 1
        digest = project.digest(shown)
        try:
            info = os.stat(absolute)
        except (OSError, ValueError):
            return digest
        settled = time.time_ns() - max(info.st_mtime_ns, info.st_ctime_ns) > self.SETTLED_SECONDS * 1e9
        if stat_key(info) == before and stat.S_ISREG(info.st_mode) and settled:
            entries[absolute] = (*before, digest)
            self._used.add(absolute)
            self._dirty = True
        return digest

    def save(self) -> str | None:
        """Write the memo when this run recorded anything: the entries it used
        first, then older ones, up to ``MAX_ENTRIES``."""
        if not self._dirty or self._entries is None:
            return None
        used = {path: self._entries[path] for path in self._used if path in self._entries}
        older = ((path, entry) for path, entry in self._entries.items() if path not in used)
        kept = {**used, **dict(itertools.islice(older, max(0, self.MAX_ENTRIES - len(used))))}
        error = _write_cache_file(self.directory, self.path, _DigestFile(_FORMAT, self.identity, kept))
        if error is None:
            self._dirty = False
        return error


def stat_key(info: os.stat_result) -> tuple[int, int, int, int, int]:
    """What a kept answer about a file holds for: its size, times, inode and
    device (a change of any is a change of the file, as git's index takes it)."""
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


class _DigestFile(msgspec.Struct):
    format: int
    identity: str
    entries: dict[str, tuple[int, int, int, int, int, str]]


class _Run(msgspec.Struct, array_like=True):
    """One whole run in the findings cache; its findings stay raw JSON until a
    run with the same key asks for them."""

    key: str
    probes: list[tuple[str, str | None]]
    version: str
    files_checked: int
    findings: msgspec.Raw
    # (path, digest) of each file the analyzed files read (see FindingsCache).
    dependencies: list[tuple[str, str]] = []


class _FindingsFile(msgspec.Struct):
    format: int
    runs: list[_Run]


_FINDINGS_DECODER = msgspec.json.Decoder(list[Finding])


class _Header(msgspec.Struct):
    format: int


_HEADER_DECODER = msgspec.json.Decoder(_Header)


def _read_cache_file(path: Path, kind: type[S]) -> S | None:
    """The contents of a cache file we wrote, decoded as ``kind`` (a Struct with
    a ``format`` field), or None for a file that is missing, too large, not
    JSON, of another format or of another shape: such a file is no cache."""
    try:
        if path.stat().st_size > MAX_CACHE_BYTES:
            return None
        data = path.read_bytes()
        # The format first: a file of another format is not decoded as this one.
        if _HEADER_DECODER.decode(data).format != _FORMAT:
            return None
        return msgspec.json.decode(data, type=kind)
    except (OSError, *_UNREADABLE):
        return None


# How long a writer waits for another's lock on the cache directory before it
# writes anyway (a lost entry is analyzed again; a run never hangs on it).
LOCK_WAIT_SECONDS = 10.0


@contextlib.contextmanager
def _exclusive(directory: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``directory``'s ``.lock`` file (POSIX
    ``flock``: released when the process ends, however it ends). Where there
    is none, or the lock cannot be had within ``LOCK_WAIT_SECONDS``, the block
    runs anyway."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle = open(directory / ".lock", "ab")
    except OSError:
        yield
        return
    with handle:
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() >= deadline:
                    break
                time.sleep(0.01)
        yield  # (closing the file releases the lock)


def _write_cache_file(directory: Path, path: Path, contents: msgspec.Struct | Iterable[bytes]) -> str | None:
    """Write ``contents`` (a Struct, or its JSON in pieces) to ``path``
    atomically, preparing the cache directory; the error text when it cannot be
    written."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for name, text in ((".gitignore", "# Created by sglang-lint automatically.\n*\n"), ("CACHEDIR.TAG", _CACHEDIR_TAG)):
            marker = directory / name
            if not marker.exists():
                marker.write_text(text, encoding="utf-8")
        chunks = (_ENCODER.encode(contents),) if isinstance(contents, msgspec.Struct) else contents
        handle, temporary = tempfile.mkstemp(prefix=".write-", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.writelines(chunks)
            os.replace(temporary, path)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise
    except OSError as error:
        return f"cannot write the cache in {directory}: {error.strerror or error}"
    return None


# ---------------------------------------------------------------------------------
# A long-lived process's cache (the language server)


class MemoryExtractionCache:
    """Per-file SourceResults kept in memory across runs, over the on-disk
    :class:`ExtractionCache` (``disk``, or None): a language server re-analyzes
    its workspace on every change, and decoding the disk cache's JSON for every
    file each time would cost more than the one file that changed. An entry
    whose dependencies read differently now (a sourced helper's buffer was
    edited) is stale: the files that read a changed buffer are analyzed again,
    and their diagnostics published anew.

    The on-disk cache is written by :meth:`save` only while ``persist`` is set (on
    open and save, not on every keystroke of an unsaved buffer)."""

    def __init__(self, disk: ExtractionCache | None = None) -> None:
        self.disk = disk
        self.persist = False
        self._entries: dict[str, tuple[str, str, str, SourceResult]] = {}
        self.hits = 0
        self.misses = 0

    def reset_counts(self) -> None:
        self.hits = self.misses = 0

    def is_empty(self) -> bool:
        return not self._entries and (self.disk is None or self.disk.is_empty())

    def get(self, path: str, text: str, digest: str, kind: str, env_key: str, fresh: Fresh | None = None, slot: str | None = None) -> SourceResult | None:
        slot = slot or path
        entry = self._entries.get(slot)
        if entry is not None and entry[:3] == (digest, kind, env_key) and _unchanged(entry[3].dependencies, fresh):
            self.hits += 1
            if self.disk is not None:
                self.disk.keep(slot)
            return entry[3]
        result = self.disk.get(path, text, digest, kind, env_key, fresh, slot) if self.disk is not None else None
        if result is None:
            self.misses += 1
            return None
        self.hits += 1
        self._entries[slot] = (digest, kind, env_key, result)
        return result

    def put(self, path: str, digest: str, kind: str, env_key: str, result: SourceResult, encoded: str | None = None, slot: str | None = None) -> None:
        self._entries[slot or path] = (digest, kind, env_key, result)
        if self.disk is not None:
            self.disk.put(path, digest, kind, env_key, result, encoded, slot)

    def forget(self, keep: set[str]) -> None:
        """Drop the entries of files no longer analyzed (deleted, renamed)."""
        for path in [p for p in self._entries if p not in keep]:
            del self._entries[path]

    def save(self) -> str | None:
        if self.disk is None or not self.persist:
            return None
        return self.disk.save()


class DismissedFiles:
    """The files the prefilter dismissed, with the ``stat`` they had when it
    did: the files a run checks (issue 20: a warm run over SGLang's 4,700
    files) and those read only as the deployment context of a named file
    (issue 23: a pre-commit run naming one file beside 2,000 others that
    launch nothing) are each looked at with one ``stat`` instead of read. A file is
    taken as unchanged while its size, modification and change times (ns) and
    inode are; anything else reads it again. Keyed by absolute path, with the
    env digest the verdict depends on."""

    MAX_FILES = 100_000

    def __init__(self, directory: str | os.PathLike[str], fingerprint: str) -> None:
        self.directory = Path(directory)
        self.path = self.directory / f"context-{fingerprint}.json"
        self._cwd = os.getcwd()
        self._files: dict[str, _Dismissed] | None = None
        self._dirty = False

    @property
    def _entries(self) -> dict[str, _Dismissed]:
        if self._files is None:
            loaded = _read_cache_file(self.path, _DismissedFile)
            self._files = loaded.files if loaded is not None else {}
        return self._files

    def _key(self, path: str) -> str:
        # (paths come as discovery shows them: normalized, relative to the cwd)
        return path if os.path.isabs(path) else os.path.join(self._cwd, path)

    @staticmethod
    def _stamp(info: os.stat_result) -> tuple[int, int, int, int]:
        return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)

    def entry(self, path: str, info: os.stat_result, env_key: str) -> "_Dismissed | None":
        """The record of a file dismissed before and unchanged since (its kind
        and, for Python, its imports), else None."""
        entry = self._entries.get(self._key(path))
        if entry is not None and entry.stamp == self._stamp(info) and entry.env_key == env_key:
            return entry
        return None

    def dismiss(self, path: str, info: os.stat_result, env_key: str, kind: str, imports: str = "") -> None:
        entries = self._entries
        if len(entries) < self.MAX_FILES:
            entries[self._key(path)] = _Dismissed(self._stamp(info), env_key, kind, imports)
            self._dirty = True

    def save(self) -> str | None:
        if not self._dirty:
            return None
        error = _write_cache_file(self.directory, self.path, _DismissedFile(_FORMAT, self._entries))
        if error is None:
            self._dirty = False
        return error


class _Dismissed(msgspec.Struct, array_like=True, frozen=True):
    stamp: tuple[int, int, int, int]  # size, mtime and ctime (ns), inode
    env_key: str
    kind: str
    imports: str = ""  # a Python file's imports (extraction.imports_text)


class _DismissedFile(msgspec.Struct):
    format: int
    files: dict[str, _Dismissed]
