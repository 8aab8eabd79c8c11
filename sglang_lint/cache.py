"""The on-disk cache of the sources' per-file results (issue 7).

What is cached is the extraction of one file (its SourceResult: launches, notes,
comments, continuation breaks), keyed by

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
(backup tools skip it), and one JSON file per tool fingerprint; files of other
fingerprints are removed when a new one is written. Nothing is written anywhere
else. The format is JSON on purpose: a cache file is data, never code (pickle
would run whatever a planted file said), and a file that does not parse, is too
large or holds anything unexpected is ignored as a whole.

A cache is trusted to hold what this tool wrote: one copied from elsewhere can
hide findings. Never commit it (the ``.gitignore`` sees to that); CI runs that
must not trust a restored cache pass ``--no-cache``.
"""

from __future__ import annotations

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
    EntryPoint,
    KeywordArg,
    Kind,
    Location,
    Note,
    RouterLaunch,
    ServerLaunch,
    SourceResult,
    Value,
)

CACHE_DIR_NAME = ".sglang-lint-cache"
ENV_VARIABLE = "SGLANG_LINT_CACHE_DIR"
# A cache file larger than this is not read (and is replaced by the next write).
MAX_CACHE_BYTES = 512 * 1024 * 1024
# Entries kept per cache file: the files of this run first, then older ones.
MAX_ENTRIES = 100_000
_FORMAT = 1
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
        self._entries: dict[str, list[Any]] = self._load()
        self._used: dict[str, list[Any]] = {}
        self._dirty = False
        self.hits = 0
        self.misses = 0

    # -- lookup -------------------------------------------------------------------
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

    def put(self, path: str, digest: str, kind: str, env_key: str, result: SourceResult) -> None:
        entry = [digest, kind, env_key, _encode_result(result)]
        self._used[path] = entry
        self._dirty = True

    # -- storage --------------------------------------------------------------------
    def _load(self) -> dict[str, list[Any]]:
        try:
            if self.path.stat().st_size > MAX_CACHE_BYTES:
                return {}
            data = json.loads(self.path.read_bytes())
        except (OSError, ValueError, RecursionError):
            return {}
        if not isinstance(data, dict) or data.get("format") != _FORMAT or not isinstance(data.get("entries"), dict):
            return {}
        return {k: v for k, v in data["entries"].items() if isinstance(v, list) and len(v) == 4}

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
        try:
            self._prepare_directory()
            payload = json.dumps({"format": _FORMAT, "entries": entries}, separators=(",", ":"), ensure_ascii=False)
            handle, temporary = tempfile.mkstemp(prefix=".extract-", suffix=".tmp", dir=self.directory)
            try:
                with os.fdopen(handle, "w", encoding="utf-8", errors="surrogatepass") as stream:
                    stream.write(payload)
                os.replace(temporary, self.path)
            except BaseException:
                try:
                    os.unlink(temporary)
                except OSError:
                    pass
                raise
            self._remove_stale()
        except OSError as error:
            return f"cannot write the cache in {self.directory}: {error.strerror or error}"
        self._dirty = False
        return None

    def _prepare_directory(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        for name, text in ((".gitignore", "# Created by sglang-lint automatically.\n*\n"), ("CACHEDIR.TAG", _CACHEDIR_TAG)):
            marker = self.directory / name
            if not marker.exists():
                marker.write_text(text, encoding="utf-8")

    def _remove_stale(self) -> None:
        """Cache files of other tool fingerprints (an older version) are dead."""
        for entry in self.directory.glob("extract-*.json"):
            if entry != self.path:
                try:
                    entry.unlink()
                except OSError:
                    pass


# ---------------------------------------------------------------------------------
# JSON codec of SourceResult (compact positional arrays; lines are not stored:
# they come back from the file's text)


def _loc(location: Location) -> list[Any]:
    return [location.path, location.line, location.column, location.end_line, location.end_column]


def _unloc(data: list[Any]) -> Location:
    return Location(str(data[0]), int(data[1]), int(data[2]), int(data[3]), int(data[4]))


def _opt_loc(location: Location | None) -> list[Any] | None:
    return None if location is None else _loc(location)


def _opt_unloc(data: list[Any] | None) -> Location | None:
    return None if data is None else _unloc(data)


def _value(value: Value) -> list[Any]:
    return [value.kind.value, value.text, list(value.alternatives), value.name, value.default, [_value(p) for p in value.parts], value.reason]


def _unvalue(data: list[Any]) -> Value:
    kind, text, alternatives, name, default, parts, reason = data
    return Value(
        Kind(kind),
        text=str(text),
        alternatives=tuple(str(a) for a in alternatives),
        name=str(name),
        default=None if default is None else str(default),
        parts=tuple(_unvalue(p) for p in parts),
        reason=str(reason),
    )


def _token(token: ArgToken) -> list[Any]:
    return [_value(token.value), _loc(token.location), _opt_loc(token.origin), token.spread]


def _untoken(data: list[Any]) -> ArgToken:
    return ArgToken(_unvalue(data[0]), _unloc(data[1]), _opt_unloc(data[2]), bool(data[3]))


def _keyword(keyword: KeywordArg) -> list[Any]:
    return [keyword.name, _value(keyword.value), _loc(keyword.location), _opt_loc(keyword.origin)]


def _unkeyword(data: list[Any]) -> KeywordArg:
    return KeywordArg(None if data[0] is None else str(data[0]), _unvalue(data[1]), _unloc(data[2]), _opt_unloc(data[3]))


def _ranges(ranges: tuple[tuple[int, int], ...]) -> list[list[int]]:
    return [list(r) for r in ranges]


def _unranges(data: list[Any]) -> tuple[tuple[int, int], ...]:
    return tuple((int(a), int(b)) for a, b in data)


def _server(launch: ServerLaunch) -> list[Any]:
    return [
        _loc(launch.location),
        launch.entry.value,
        [_token(t) for t in launch.args],
        _ranges(launch.line_ranges),
        launch.context,
        [_keyword(k) for k in launch.keywords],
        launch.scope,
    ]


def _unserver(path: str, data: list[Any]) -> ServerLaunch:
    return ServerLaunch(
        path=path,
        location=_unloc(data[0]),
        entry=EntryPoint(data[1]),
        args=[_untoken(t) for t in data[2]],
        line_ranges=_unranges(data[3]),
        context=str(data[4]),
        keywords=tuple(_unkeyword(k) for k in data[5]),
        scope=str(data[6]),
    )


def _router(launch: RouterLaunch) -> list[Any]:
    return [_loc(launch.location), launch.entry.value, [_token(t) for t in launch.args], _ranges(launch.line_ranges), launch.context, launch.scope]


def _unrouter(path: str, data: list[Any]) -> RouterLaunch:
    return RouterLaunch(
        path=path,
        location=_unloc(data[0]),
        entry=EntryPoint(data[1]),
        args=[_untoken(t) for t in data[2]],
        line_ranges=_unranges(data[3]),
        context=str(data[4]),
        scope=str(data[5]),
    )


def _encode_result(result: SourceResult) -> dict[str, Any]:
    return {
        "servers": [_server(s) for s in result.servers],
        "routers": [_router(r) for r in result.routers],
        "notes": [[n.path, n.message, n.line, n.column] for n in result.notes],
        "breaks": [[_loc(a), _loc(b)] for a, b in result.continuation_breaks],
        "comments": [[line, text] for line, text in result.comments.items()],
        # A file the prefilter dismissed keeps no lines; one a source read does.
        "lines": bool(result.lines),
    }


def _decode_result(path: str, text: str, data: dict[str, Any]) -> SourceResult:
    return SourceResult(
        path=path,
        servers=[_unserver(path, s) for s in data["servers"]],
        routers=[_unrouter(path, r) for r in data["routers"]],
        notes=[Note(str(n[0]), str(n[1]), int(n[2]), int(n[3])) for n in data["notes"]],
        lines=text.split("\n") if data["lines"] else [],
        continuation_breaks=[(_unloc(a), _unloc(b)) for a, b in data["breaks"]],
        comments={int(line): str(comment) for line, comment in data["comments"]},
    )
