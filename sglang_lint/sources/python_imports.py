"""Where a Python import of the analyzed tree points (issue 19): the file of the
project that ``import a.b.c`` / ``from a.b import c`` / ``from .c import x``
names, found without importing or running anything.

Python finds ``a.b.c`` on ``sys.path``; a project's path is not written down, so
the candidates are, in order:

1. a relative import (``from .c import x``, ``from ..pkg import y``): the
   importing file's package directory, ``level - 1`` directories up;
2. the importing file's own directory: ``sys.path[0]`` of a test run
   (``from test_pd_common import ARGS`` beside ``test_pd_unified_tp.py``);
3. a file of the project whose path ends with ``a/b/c.py`` or
   ``a/b/c/__init__.py``: the ``src/`` layout, SGLang's ``python/`` layout and any
   other directory put on the path; the nearest to the importing file first
   (the longest common directory).

The tree is listed once per process and set of roots (the directories a walk
skips, ``files.DEFAULT_EXCLUDED_DIRS``, and hidden ones are not entered: an
installed package in ``.venv`` is not the project's), at most :data:`MAX_LISTED`
directory entries. A module created after the listing (an editor's session) is
found when it is the importing file's sibling or relative import.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Any, MutableMapping

from sglang_lint.files import DEFAULT_EXCLUDED_DIRS, display_name

# Directory entries looked at per set of roots, so that a huge tree (a run from a
# home directory) costs a bounded walk: modules past it are not found (their
# names stay names we cannot see).
MAX_LISTED = 200_000


def module_files(importer: str, module: str, level: int, roots: tuple[str, ...], known: MutableMapping[tuple, Any] | None = None) -> list[str]:
    """The files (paths as shown) that may hold ``module`` imported from
    ``importer`` (a path as shown) with ``level`` leading dots, best first.

    ``known``: where the listing of the project's modules and the real paths
    looked up are kept, for as long as the files may be taken as they were (a
    run's cache, sources.project.RunCache); without it, they are looked up
    afresh. (A listing kept for the life of the process missed every module
    created after an editor's server first listed the tree: its imports were
    "not followed" until a restart.)"""
    known = {} if known is None else known
    parts = [part for part in module.split(".") if part] if module else []
    directory = os.path.dirname(os.path.abspath(importer))
    if level:
        for _ in range(level - 1):
            directory = os.path.dirname(directory)
        return [display_name(path) for path in _in_directory(directory, parts)]
    if not parts:
        return []
    found = list(_in_directory(directory, parts))
    for _, path in sorted((-_shared(path, directory, known), path) for path in _listed(module, parts, roots, known)):
        if path not in found:
            found.append(path)
    return [display_name(path) for path in found]


def module_candidates(directory: str, module: str, level: int, roots: tuple[str, ...], known: MutableMapping[tuple, Any]) -> tuple[str, ...]:
    """The files (absolute paths) :func:`module_files` would give for an
    import from a file of ``directory`` (absolute), in no particular order:
    for a question that any of them answers (does one define a launcher?),
    without ranking them by nearness, which costs real paths. ``known`` keeps
    what holds while no file is created or deleted (RunCache.lasting): the
    names in each importing directory, the listing's files for each absolute
    module (the flake8 plugin asks this for every import of every file;
    SGLang's files import the same few hundred modules from a few hundred
    directories)."""
    parts = [part for part in module.split(".") if part] if module else []
    if level:
        for _ in range(level - 1):
            directory = os.path.dirname(directory)
    local: tuple[str, ...] = ()
    if parts:
        entries = known.get(("entries", directory))
        if entries is None:
            try:
                entries = known[("entries", directory)] = frozenset(os.listdir(directory))
            except (OSError, ValueError):
                entries = known[("entries", directory)] = frozenset()
        if parts[0] in entries or (len(parts) == 1 and parts[0] + ".py" in entries):
            local = tuple(_in_directory(directory, parts))
    else:
        local = tuple(_in_directory(directory, parts))
    if level or not parts:
        return local
    listed = _listed(module, parts, roots, known)
    return local + tuple(path for path in listed if path not in local) if local else listed


def _listed(module: str, parts: list[str], roots: tuple[str, ...], known: MutableMapping[tuple, Any]) -> tuple[str, ...]:
    """The files of the project's listing whose path ends as the absolute
    import of ``module`` (``parts``, its names) would find it, kept in
    ``known`` with the listing."""
    key = ("listed module", roots, module)
    listed = known.get(key)
    if listed is None:
        listing = known.get(("listing", roots))
        if listing is None:
            listing = known[("listing", roots)] = _listing(roots)
        tail = os.sep + os.path.join(*parts)
        listed = known[key] = tuple(path for path in listing.get(parts[-1], ()) if path.endswith(tail + ".py")) + tuple(
            path for path in listing.get(parts[-1] + os.sep, ()) if path.endswith(tail + os.sep + "__init__.py")
        )
    return listed


def _in_directory(directory: str, parts: list[str]) -> list[str]:
    base = os.path.join(directory, *parts) if parts else directory
    candidates = [os.path.join(base, "__init__.py")] if not parts else [base + ".py", os.path.join(base, "__init__.py")]
    return [path for path in candidates if os.path.isfile(path)]


def _shared(path: str, directory: str, known: MutableMapping[tuple, Any]) -> int:
    """How many directories ``path`` shares with ``directory`` (nearest first)."""
    try:
        common = os.path.commonpath([known_realpath(path, known), known_realpath(directory, known)])
    except ValueError:
        return 0
    return len(common.split(os.sep))


def known_realpath(path: str, known: MutableMapping[tuple, Any]) -> str:
    """``os.path.realpath``, each path once (SGLang's tree: 14,600 lookups
    of a few hundred paths, one ``lstat`` per component each)."""
    real = known.get(("realpath", path))
    if real is None:
        real = known[("realpath", path)] = os.path.realpath(path)
    return real


def _listing(roots: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The project's Python files by module name (``c`` for ``.../c.py``,
    ``c/`` for ``.../c/__init__.py``): absolute paths. (Packages were all
    under ``__init__``: every import looked at each of SGLang's ~400
    ``__init__.py`` files, 33 million ``endswith`` calls for the imports of
    its 4,600 files.)"""
    by_name: dict[str, list[str]] = {}
    count = 0
    for root in roots:
        for directory, subdirectories, names in os.walk(root):
            subdirectories[:] = sorted(d for d in subdirectories if d not in DEFAULT_EXCLUDED_DIRS and not d.startswith("."))
            count += len(names) + len(subdirectories)
            if count > MAX_LISTED:
                return {key: tuple(paths) for key, paths in by_name.items()}
            for name in names:
                if name == "__init__.py":
                    by_name.setdefault(os.path.basename(directory) + os.sep, []).append(os.path.join(directory, name))
                elif name.endswith(".py"):
                    by_name.setdefault(name[:-3], []).append(os.path.join(directory, name))
    return {key: tuple(paths) for key, paths in by_name.items()}


def installed_sglang() -> str | None:
    """The directory of the ``sglang`` package of the environment running
    sglang-lint (real path), or None: the first entry of ``sys.path`` holding
    ``sglang/__init__.py``, as the import system would pick, found without
    importing anything. Looked for once per process (per ``sys.path``), and only
    when an ``sglang.`` import has no file in the tree."""
    return _installed_sglang(tuple(sys.path))


@functools.lru_cache(maxsize=4)
def _installed_sglang(path: tuple[str, ...]) -> str | None:
    for entry in path:
        directory = os.path.join(entry or os.getcwd(), "sglang")
        if os.path.isfile(os.path.join(directory, "__init__.py")):
            return os.path.realpath(directory)
    return None


def installed_module_files(module: str) -> list[str]:
    """The file (path as shown) of the installed ``sglang`` package that holds
    ``module`` (``sglang.test.test_utils``), or nothing: only modules under
    ``sglang`` are looked up there."""
    parts = [part for part in module.split(".") if part]
    if len(parts) < 2 or parts[0] != "sglang":
        return []
    package = installed_sglang()
    if package is None:
        return []
    return [display_name(path) for path in _in_directory(package, parts[1:])]
