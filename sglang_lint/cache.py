"""The on-disk cache of the sources' per-file results (issue 7).

What is cached is the extraction of one file (its SourceResult: launches, notes,
comments, continuation breaks, broken continuations), keyed by

- the file's path as shown (every Location in a result names it),
- a hash of its text,
- its kind and the config ``env`` values it was analyzed with,

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
(backup tools skip it), and two JSON files per tool fingerprint (the per-file
results, and the findings of recent whole runs: :class:`FindingsCache`); files
of other fingerprints are removed when new ones are written. Nothing is written anywhere
else. The format is JSON on purpose: a cache file is data, never code (pickle
would run whatever a planted file said), and a file that does not parse, is too
large or holds anything unexpected is ignored as a whole.

A cache is trusted to hold what this tool wrote: one copied from elsewhere can
hide findings. Never commit it (the ``.gitignore`` sees to that); CI runs that
must not trust a restored cache pass ``--no-cache``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Mapping

from sglang_lint import __version__
from sglang_lint.model import (
    ArgToken,
    BrokenContinuation,
    EntryPoint,
    Finding,
    Fix,
    KeywordArg,
    Kind,
    Location,
    Note,
    Related,
    PathStep,
    RouterLaunch,
    ServerLaunch,
    Severity,
    SourceResult,
    Value,
)

CACHE_DIR_NAME = ".sglang-lint-cache"
ENV_VARIABLE = "SGLANG_LINT_CACHE_DIR"
# A cache file larger than this is not read (and is replaced by the next write).
MAX_CACHE_BYTES = 512 * 1024 * 1024
# Entries kept per cache file: the files of this run first, then older ones.
MAX_ENTRIES = 100_000
_FORMAT = 4
_CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by sglang-lint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


def text_digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


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
        self._loaded: dict[str, list[Any]] | None = None
        self._used: dict[str, list[Any]] = {}
        self._dirty = False
        self.hits = 0
        self.misses = 0

    # -- lookup -------------------------------------------------------------------
    @property
    def _entries(self) -> dict[str, list[Any]]:
        if self._loaded is None:
            self._loaded = self._load()
        return self._loaded

    def get(self, path: str, text: str, digest: str, kind: str, env_key: str) -> SourceResult | None:
        entry = self._entries.get(path)
        if entry is not None and entry[0] == digest and entry[1] == kind and entry[2] == env_key:
            try:
                result = _decode_result(path, text, entry[3])
            except (KeyError, IndexError, TypeError, ValueError):
                result = None  # an entry of a shape we did not write: ignore it
            if result is not None:
                self._used[path] = entry
                self.hits += 1
                return result
        self.misses += 1
        return None

    def keep(self, path: str) -> None:
        """Count the stored entry of ``path`` as used by this run (answered from
        memory by a MemoryExtractionCache), so that saving keeps it first."""
        entry = self._entries.get(path)
        if entry is not None:
            self._used.setdefault(path, entry)

    def put(self, path: str, digest: str, kind: str, env_key: str, result: SourceResult, encoded: str | None = None) -> None:
        """Remember ``result``; ``encoded``: its encode_result() as JSON text
        (encode_result_json), when a worker process made it already."""
        entry = [digest, kind, env_key, EncodedJSON(encoded) if encoded is not None else encode_result(result)]
        self._used[path] = entry
        self._dirty = True

    # -- storage --------------------------------------------------------------------
    def _load(self) -> dict[str, list[Any]]:
        entries = _read_json(self.path, "entries", dict)
        return {k: v for k, v in (entries or {}).items() if isinstance(v, list) and len(v) == 4}

    def save(self) -> str | None:
        """Write the cache file if this run changed it; the error text when it
        could not be written (a read-only checkout: the run goes on)."""
        if not self._dirty:
            return None
        entries = dict(self._used)
        for path, entry in self._entries.items():
            if len(entries) >= MAX_ENTRIES:
                break
            entries.setdefault(path, entry)
        # Entries from worker processes come as JSON text: spliced in, not parsed
        # and written again (turning them into objects here cost more than the
        # encoding they save; issue 7).
        dump = functools.partial(json.dumps, separators=(",", ":"), ensure_ascii=False)
        parts = []
        for path, entry in entries.items():
            data = entry[3]
            data_text = data.text if isinstance(data, EncodedJSON) else dump(data)
            parts.append(f"{dump(path)}:[{dump(entry[0])},{dump(entry[1])},{dump(entry[2])},{data_text}]")
        payload = '{"format":' + dump(_FORMAT) + ',"entries":{' + ",".join(parts) + "}}"
        error = _write_json(self.directory, self.path, payload=payload)
        if error is not None:
            return error
        self._remove_stale()
        self._dirty = False
        return None

    def _remove_stale(self) -> None:
        """Cache files of other tool fingerprints (an older version) are dead."""
        current = {self.path.name, f"findings-{self.fingerprint}.json", f"context-{self.fingerprint}.json"}
        names = ("extract-*.json", "findings-*.json", "context-*.json")
        for entry in [path for name in names for path in self.directory.glob(name)]:
            if entry.name not in current:
                try:
                    entry.unlink()
                except OSError:
                    pass


# ---------------------------------------------------------------------------------
# JSON codec of SourceResult: compact positional arrays, decoded fast (a warm run
# decodes every file's result). A location in the result's own file is
# [line, column, end_line, end_column]; elsewhere the path comes first. A known
# value is its text; any other value is [kind, ...]. Lines are not stored: they
# come back from the file's text.

_KINDS = {kind.value: kind for kind in Kind}
_ENTRIES = {entry.value: entry for entry in EntryPoint}


class _Encoder:
    def __init__(self, path: str) -> None:
        self.path = path

    def loc(self, location: Location) -> list[Any]:
        fields = [location.line, location.column, location.end_line, location.end_column]
        return fields if location.path == self.path else [location.path, *fields]

    def opt_loc(self, location: Location | None) -> list[Any] | None:
        return None if location is None else self.loc(location)

    def value(self, value: Value) -> Any:
        if value.kind is Kind.KNOWN:
            return value.text
        return [value.kind.value, value.text, list(value.alternatives), value.name, value.default, [self.value(p) for p in value.parts], value.reason]

    def token(self, token: ArgToken) -> list[Any]:
        return [self.value(token.value), self.loc(token.location), self.opt_loc(token.origin), token.spread]

    def keyword(self, keyword: KeywordArg) -> list[Any]:
        return [keyword.name, self.value(keyword.value), self.loc(keyword.location), self.opt_loc(keyword.origin)]

    def launch(self, launch: ServerLaunch | RouterLaunch) -> list[Any]:
        keywords = [self.keyword(k) for k in launch.keywords] if isinstance(launch, ServerLaunch) else None
        return [
            self.loc(launch.location),
            launch.entry.value,
            [self.token(t) for t in launch.args],
            [list(r) for r in launch.line_ranges],
            launch.context,
            launch.scope,
            keywords,
            launch.path if launch.path != self.path else None,
            [[step.key, step.taken, step.text, self.loc(step.location)] for step in launch.path_condition],
            list(launch.runs),
        ]


class _Decoder:
    def __init__(self, path: str) -> None:
        self.path = path
        # Equal values are one object: most argv words repeat across launches.
        self.known: dict[str, Value] = {}

    def loc(self, data: list[Any]) -> Location:
        if len(data) == 4:
            return Location(self.path, int(data[0]), int(data[1]), int(data[2]), int(data[3]))
        return Location(str(data[0]), int(data[1]), int(data[2]), int(data[3]), int(data[4]))

    def opt_loc(self, data: list[Any] | None) -> Location | None:
        return None if data is None else self.loc(data)

    def value(self, data: Any) -> Value:
        if isinstance(data, str):
            value = self.known.get(data)
            if value is None:
                value = self.known[data] = Value(Kind.KNOWN, text=data)
            return value
        kind, text, alternatives, name, default, parts, reason = data
        return Value(
            _KINDS[kind],
            text=str(text),
            alternatives=tuple(str(a) for a in alternatives),
            name=str(name),
            default=None if default is None else str(default),
            parts=tuple(self.value(p) for p in parts),
            reason=str(reason),
        )

    def token(self, data: list[Any]) -> ArgToken:
        return ArgToken(self.value(data[0]), self.loc(data[1]), self.opt_loc(data[2]), bool(data[3]))

    def keyword(self, data: list[Any]) -> KeywordArg:
        return KeywordArg(None if data[0] is None else str(data[0]), self.value(data[1]), self.loc(data[2]), self.opt_loc(data[3]))

    def _launch(self, data: list[Any]) -> dict[str, Any]:
        """The fields servers and routers share (see _Encoder.launch)."""
        return {
            "path": self.path if data[7] is None else str(data[7]),
            "location": self.loc(data[0]),
            "entry": _ENTRIES[data[1]],
            "args": [self.token(t) for t in data[2]],
            "line_ranges": tuple((int(a), int(b)) for a, b in data[3]),
            "context": str(data[4]),
            "scope": str(data[5]),
            "path_condition": tuple(PathStep(str(k), bool(t), str(x), self.loc(l)) for k, t, x, l in data[8]),
            "runs": tuple(int(r) for r in data[9]),
        }

    def server(self, data: list[Any]) -> ServerLaunch:
        return ServerLaunch(**self._launch(data), keywords=tuple(self.keyword(k) for k in data[6]))

    def router(self, data: list[Any]) -> RouterLaunch:
        return RouterLaunch(**self._launch(data))


class EncodedJSON:
    """A cache entry's data as JSON text, made by a worker process."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def encode_result_json(result: SourceResult) -> str:
    """encode_result as JSON text (what a worker process sends back)."""
    return json.dumps(encode_result(result), separators=(",", ":"), ensure_ascii=False)


def encode_result(result: SourceResult) -> dict[str, Any]:
    encode = _Encoder(result.path)
    return {
        "servers": [encode.launch(s) for s in result.servers],
        "routers": [encode.launch(r) for r in result.routers],
        "notes": [[n.path, n.message, n.line, n.column] for n in result.notes],
        "breaks": [[encode.loc(a), encode.loc(b)] for a, b in result.continuation_breaks],
        "comments": [[line, text] for line, text in result.comments.items()],
        "broken": [
            [encode.loc(b.location), b.trailing, list(b.extra), None if b.orphaned is None else encode.loc(b.orphaned)]
            for b in result.broken_continuations
        ],
        # A file the prefilter dismissed keeps no lines; one a source read does.
        "lines": bool(result.lines),
    }


def _decode_result(path: str, text: str, data: dict[str, Any]) -> SourceResult:
    decode = _Decoder(path)
    return SourceResult(
        path=path,
        servers=[decode.server(s) for s in data["servers"]],
        routers=[decode.router(r) for r in data["routers"]],
        notes=[Note(str(n[0]), str(n[1]), int(n[2]), int(n[3])) for n in data["notes"]],
        lines=text.split("\n") if data["lines"] else [],
        continuation_breaks=[(decode.loc(a), decode.loc(b)) for a, b in data["breaks"]],
        comments={int(line): str(comment) for line, comment in data["comments"]},
        broken_continuations=[
            BrokenContinuation(decode.loc(b[0]), str(b[1]), tuple(str(w) for w in b[2]), None if b[3] is None else decode.loc(b[3]))
            for b in data["broken"]
        ],
    )


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
    makes a new key, and the per-file cache does the rest. Up to
    ``MAX_RUNS`` entries are kept, the newest first."""

    MAX_RUNS = 8

    def __init__(self, directory: str | os.PathLike[str], fingerprint: str) -> None:
        self.directory = Path(directory)
        self.path = self.directory / f"findings-{fingerprint}.json"
        self._runs: list[list[Any]] = self._load()
        self._dirty = False

    def _load(self) -> list[list[Any]]:
        runs = _read_json(self.path, "runs", list)
        return [run for run in runs or [] if isinstance(run, list) and len(run) == 5 and isinstance(run[0], str)]

    def get(self, key: str) -> tuple[list[Finding], str, int] | None:
        """(findings, SGLang version, files checked) of a run with ``key``
        whose --config files are unchanged, else None."""
        from sglang_lint.files import read_sglang_config

        for run_key, probes, version, files_checked, findings in self._runs:
            if run_key != key:
                continue
            try:
                for path, digest in probes:
                    text = read_sglang_config(path)
                    if (None if text is None else text_digest(text)) != digest:
                        return None
                return [_decode_finding(f) for f in findings], str(version), int(files_checked)
            except (KeyError, IndexError, TypeError, ValueError):
                return None
        return None

    def put(self, key: str, findings: list[Finding], version: str, files_checked: int, probes: list[tuple[str, str | None]]) -> None:
        entry = [key, [list(p) for p in probes], version, files_checked, [_encode_finding(f) for f in findings]]
        self._runs = [entry] + [run for run in self._runs if run[0] != key][: self.MAX_RUNS - 1]
        self._dirty = True

    def save(self) -> str | None:
        if not self._dirty:
            return None
        error = _write_json(self.directory, self.path, {"format": _FORMAT, "runs": self._runs})
        if error is None:
            self._dirty = False
        return error


def _read_json(path: Path, key: str, kind: type) -> Any:
    """``data[key]`` of a cache file we wrote (of type ``kind``), or None for a
    file that is missing, too large, not JSON, of another format or shape: such
    a file is no cache."""
    try:
        if path.stat().st_size > MAX_CACHE_BYTES:
            return None
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != _FORMAT or not isinstance(data.get(key), kind):
        return None
    return data[key]


def _write_json(directory: Path, path: Path, data: Any = None, *, payload: str | None = None) -> str | None:
    """Write ``data`` (or ``payload``, JSON text already) to ``path`` atomically,
    preparing the cache directory; the error text when it cannot be written."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for name, text in ((".gitignore", "# Created by sglang-lint automatically.\n*\n"), ("CACHEDIR.TAG", _CACHEDIR_TAG)):
            marker = directory / name
            if not marker.exists():
                marker.write_text(text, encoding="utf-8")
        if payload is None:
            payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        handle, temporary = tempfile.mkstemp(prefix=".write-", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", errors="surrogatepass") as stream:
                stream.write(payload)
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


# Findings name any file: their locations always carry the path.
_ANY_FILE_ENCODER = _Encoder("")
_ANY_FILE_DECODER = _Decoder("")


def _encode_finding(finding: Finding) -> list[Any]:
    return [
        finding.code,
        finding.name,
        finding.message,
        _ANY_FILE_ENCODER.loc(finding.location),
        finding.severity.value,
        [[_ANY_FILE_ENCODER.loc(r.location), r.message] for r in finding.related],
        finding.url,
        [list(r) for r in finding.noqa_ranges],
        [[f.title, _ANY_FILE_ENCODER.loc(f.location), f.old, f.new, f.preferred] for f in finding.fixes],
        finding.help,
        list(finding.notes),
        [[step.key, step.taken, step.text, _ANY_FILE_ENCODER.loc(step.location)] for step in finding.path],
    ]


def _decode_finding(data: list[Any]) -> Finding:
    code, name, message, location, severity, related, url, ranges, fixes, help_text, notes, path = data
    return Finding(
        code=str(code),
        name=str(name),
        message=str(message),
        location=_ANY_FILE_DECODER.loc(location),
        severity=Severity(severity),
        related=tuple(Related(_ANY_FILE_DECODER.loc(r[0]), str(r[1])) for r in related),
        url=str(url),
        noqa_ranges=tuple((str(p), int(a), int(b)) for p, a, b in ranges),
        fixes=tuple(Fix(str(t), _ANY_FILE_DECODER.loc(loc), str(old), str(new), bool(preferred)) for t, loc, old, new, preferred in fixes),
        help=str(help_text),
        notes=tuple(str(n) for n in notes),
        path=tuple(PathStep(str(k), bool(t), str(x), _ANY_FILE_DECODER.loc(l)) for k, t, x, l in path),
    )


# ---------------------------------------------------------------------------------
# A long-lived process's cache (the language server)


class MemoryExtractionCache:
    """Per-file SourceResults kept in memory across runs, over the on-disk
    :class:`ExtractionCache` (``disk``, or None): a language server re-analyzes
    its workspace on every change, and decoding the disk cache's JSON for every
    file each time would cost more than the one file that changed.

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

    def get(self, path: str, text: str, digest: str, kind: str, env_key: str) -> SourceResult | None:
        entry = self._entries.get(path)
        if entry is not None and entry[:3] == (digest, kind, env_key):
            self.hits += 1
            if self.disk is not None:
                self.disk.keep(path)
            return entry[3]
        result = self.disk.get(path, text, digest, kind, env_key) if self.disk is not None else None
        if result is None:
            self.misses += 1
            return None
        self.hits += 1
        self._entries[path] = (digest, kind, env_key, result)
        return result

    def put(self, path: str, digest: str, kind: str, env_key: str, result: SourceResult, encoded: str | None = None) -> None:
        self._entries[path] = (digest, kind, env_key, result)
        if self.disk is not None:
            self.disk.put(path, digest, kind, env_key, result, encoded)

    def forget(self, keep: set[str]) -> None:
        """Drop the entries of files no longer analyzed (deleted, renamed)."""
        for path in [p for p in self._entries if p not in keep]:
            del self._entries[path]

    def save(self) -> str | None:
        if self.disk is None or not self.persist:
            return None
        return self.disk.save()


class DismissedFiles:
    """The files read only as the deployment context of a named file (issue 23)
    that the prefilter dismissed, with the ``stat`` they had when it did: a
    pre-commit run naming one file beside 2,000 others that launch nothing
    looks at each of them with one ``stat`` instead of reading it. A file is
    taken as unchanged while its size, modification and change times (ns) and
    inode are; anything else reads it again. Keyed by absolute path, with the
    env digest the verdict depends on."""

    MAX_FILES = 100_000

    def __init__(self, directory: str | os.PathLike[str], fingerprint: str) -> None:
        self.directory = Path(directory)
        self.path = self.directory / f"context-{fingerprint}.json"
        self._cwd = os.getcwd()
        self._files: dict[str, list[Any]] | None = None
        self._dirty = False

    @property
    def _entries(self) -> dict[str, list[Any]]:
        if self._files is None:
            self._files = {k: v for k, v in (_read_json(self.path, "files", dict) or {}).items() if isinstance(v, list) and len(v) == 3}
        return self._files

    def _key(self, path: str) -> str:
        # (paths come as discovery shows them: normalized, relative to the cwd)
        return path if os.path.isabs(path) else os.path.join(self._cwd, path)

    @staticmethod
    def _stamp(info: os.stat_result) -> list[int]:
        return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]

    def kind(self, path: str, info: os.stat_result, env_key: str) -> str | None:
        """The kind of a file dismissed before and unchanged since, else None."""
        entry = self._entries.get(self._key(path))
        if entry is not None and entry[0] == self._stamp(info) and entry[1] == env_key and isinstance(entry[2], str):
            return entry[2]
        return None

    def dismiss(self, path: str, info: os.stat_result, env_key: str, kind: str) -> None:
        entries = self._entries
        if len(entries) < self.MAX_FILES:
            entries[self._key(path)] = [self._stamp(info), env_key, kind]
            self._dirty = True

    def save(self) -> str | None:
        if not self._dirty:
            return None
        error = _write_json(self.directory, self.path, {"format": _FORMAT, "files": self._entries})
        if error is None:
            self._dirty = False
        return error
