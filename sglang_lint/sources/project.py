"""The other files of the project a source reads (issue 19): a shell script's
``source``/``.`` of a helper, and later a Python module's imports.

A source never opens a file itself: it asks its :class:`FileReader` for a path,
and the reader records the dependency (the path as shown and a digest of the text
it gave), so that a cached result is stale when a file it read changed
(``cache``), and the findings of the files that read it are redone.

Bounds, so that no file of the project can make a run read elsewhere or forever:

- only files under the project's roots are read (the directory of the run's config
  file, else the working directory, and each analyzed path outside it: see
  ``pipeline.project_files``); a path that leaves them, also through a symbolic
  link, is not read;
- a file is read with the checks of the files a run analyzes (a regular file, at
  most ``files.MAX_BYTES``, not binary, decodable): anything else is a problem the
  caller turns into a note;
- nothing is ever run; the sources bound depth and count (``MAX_FILES`` per file
  analyzed).

An editor's unsaved buffers (``texts``) are read instead of the disk.
"""

from __future__ import annotations

from collections import OrderedDict

import hashlib
import os
from typing import Any, Callable, Mapping

from msgspec import Struct

from sglang_lint.files import binary_note, decode_source, display_name, is_inside, read_bytes

# Other files one analyzed file may read in all (each once: a helper sourced ten
# times is read once).
MAX_FILES = 64


def text_digest(text: str) -> str:
    """The digest of a file's text (the caches' key for what a file holds)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


class ProjectFiles(Struct, frozen=True):
    """Where the sources may read other files: the project's roots (absolute, real
    paths) and the texts of unsaved buffers (absolute path -> text). ``disk``:
    read files on disk too (False for in-memory analyses, ``lint_texts``).
    ``follow_installed``: an ``sglang.`` import the tree does not hold is read
    from the installed ``sglang`` package (``python_imports.installed_sglang``),
    a read-only extra root (config key ``follow-installed``). Travels to the worker processes with each file to extract."""

    roots: tuple[str, ...]
    texts: Mapping[str, str] = {}
    disk: bool = True
    follow_installed: bool = True
    # One lint run ("": none): what the files of the project hold and what the
    # sources conclude from them are shared by the analyses of one run in a
    # process (:func:`run_cache`), never across runs (an editor's server lints
    # again after each change) but for ``follows``.
    run: str = ""
    # The run this one follows in the process (an editor's server: the run
    # before an edit that changed texts, no file created or deleted): its
    # conclusions are kept where every text they read is unchanged, and
    # where the modules of an import lie (issue 24: an edit of SGLang's PD
    # fixture judged again what each of its imports may launch, 31 of ~180
    # ms).
    follows: str = ""

    def installed(self) -> str | None:
        """The installed ``sglang`` package's directory when it is followed."""
        if not self.follow_installed:
            return None
        from sglang_lint.sources.python_imports import installed_sglang

        return installed_sglang()

    def is_installed(self, shown: str) -> bool:
        """Whether ``shown`` (a path as shown) is a file of the installed package
        (findings and notes never point there)."""
        if not self.follow_installed or any(is_inside(os.path.realpath(shown), root) for root in self.roots):
            return False
        installed = self.installed()
        return installed is not None and is_inside(os.path.realpath(shown), installed)

    def reader(self) -> "FileReader":
        """A reader for the analysis of one file, recording what it reads."""
        return FileReader(self)

    def problem(self, shown: str) -> str | None:
        """Why ``shown`` (a path as shown) may not be read, or None."""
        try:
            real = os.path.realpath(shown)
        except (ValueError, UnicodeError):  # a NUL, a lone surrogate: no such file
            return "it is not a path this system can open"
        if not any(is_inside(real, root) for root in self.roots) and not self.is_installed(real):
            return "it is outside the project (" + ", ".join(display_name(root) or "." for root in self.roots) + ")"
        return None

    def read(self, shown: str) -> tuple[str | None, str | None]:
        """The text of ``shown`` (a path as shown) and None, or None and why it
        cannot be read."""
        problem = self.problem(shown)
        if problem is not None:
            return None, problem
        absolute = os.path.abspath(shown)
        if absolute in self.texts:
            return self.texts[absolute], None
        if not self.disk or not os.path.lexists(absolute):
            return None, "it does not exist"
        data, note = read_bytes(absolute)
        if data is None:
            return None, _reason(note.message if note is not None else "it cannot be read")
        binary = binary_note(shown, data)
        if binary is not None:
            return None, _reason(binary.message)
        text, note = decode_source(shown, data)
        if text is None:
            return None, _reason(note.message if note is not None else "it cannot be decoded")
        return text, None

    def digest(self, shown: str) -> str:
        """The digest of what reading ``shown`` gives now; "" when it cannot be
        read (a dependency that appears later makes its readers stale too)."""
        text, _ = self.read(shown)
        return "" if text is None else text_digest(text)

    def fresh(self, dependencies: list[tuple[str, str]]) -> bool:
        """Whether every dependency still reads as it did."""
        return all(self.digest(path) == digest for path, digest in dependencies)

    def freshness(self, digest_of: Callable[[str], str] | None = None) -> Callable[[list[tuple[str, str]]], bool]:
        """:meth:`fresh` for one run: each file read once however many results
        depend on it (a helper sourced by a hundred scripts). ``digest_of``:
        how a file's digest is had (default :meth:`digest`, by reading it;
        cache.DigestMemo answers from its stat)."""
        digests: dict[str, str] = {}
        digest_of = digest_of or self.digest

        def fresh(dependencies: list[tuple[str, str]]) -> bool:
            for path, digest in dependencies:
                if path not in digests:
                    digests[path] = digest_of(path)
                if digests[path] != digest:
                    return False
            return True

        return fresh


def _reason(message: str) -> str:
    """A file note's message as the reason a file is not read ("binary file (NUL
    byte at offset 4)", without the "; skipped" the caller says its own way)."""
    message = message.removesuffix("; skipped")
    return message[0].lower() + message[1:] if message else message


class RunCache(dict):
    """What the analyses of one run share in a process: conclusions (what a
    module may launch), kept; and the texts of the files read (``("text",
    path)`` keys), the latest ``TEXT_CHARS`` of them: a worker reading SGLang's
    tree held every module any file imported (979 texts, 31 MB), and reading
    one again costs microseconds.

    ``lasting``: what holds while no file is created or deleted, handed on to
    the run that follows this one (ProjectFiles.follows) as it is: where an
    import's modules lie (``("module files", ...)``, the listing, real
    paths), the decisions each file's analysis forked on
    (FileReader.explored), what a module's text may launch (keyed with its
    stat). Copied from run to run instead, the flake8 plugin (a run a file)
    spent a time that grew with every file before it: 0.9 ms a file after
    1,500 of SGLang's."""

    TEXT_CHARS = 4 * 1024 * 1024

    def __init__(self, previous: "RunCache | None" = None) -> None:
        super().__init__()
        self._texts: OrderedDict[tuple, None] = OrderedDict()
        self._chars = 0
        # The cache of the run this one follows (ProjectFiles.follows): its
        # conclusions, checked before use (FileReader.recall).
        self.previous = previous
        self.lasting: dict[tuple, Any] = {}
        if previous is not None:
            previous.previous = None  # one run back, never a chain
            self.lasting = previous.lasting

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        if key[0] != "text":
            return
        self._texts[key] = None
        self._texts.move_to_end(key)
        self._chars += len(value[0] or "")
        while self._chars > self.TEXT_CHARS and len(self._texts) > 1:
            oldest, _ = self._texts.popitem(last=False)
            text, _ = self.pop(oldest)
            self.pop(("digest", oldest[1]), None)
            self._chars -= len(text or "")

    def digest(self, shown: str, text: str) -> str:
        """:func:`text_digest` of ``text``, read from ``shown`` in this run:
        computed once while the text is kept (each of SGLang's analyzed files
        records the digests of the ~100 modules it read, mostly the same
        ones: 7,800 digests of 1,000 texts)."""
        known = self.get(("digest", shown))
        if known is not None and known[0] is text:
            return known[1]
        digest = text_digest(text)
        if self.get(("text", shown), (None,))[0] is text:
            super().__setitem__(("digest", shown), (text, digest))
        return digest


_RUN_CACHE: dict[str, RunCache] = {}


def run_cache(project: ProjectFiles) -> RunCache | None:
    """The cache the analyses of ``project``'s run share in this process (None
    when the project names no run). Only the latest run's is kept: the files
    may have changed since an earlier one."""
    if not project.run:
        return None
    cache = _RUN_CACHE.get(project.run)
    if cache is None:
        previous = _RUN_CACHE.get(project.follows) if project.follows else None
        _RUN_CACHE.clear()
        cache = _RUN_CACHE[project.run] = RunCache(previous)
    return cache


class FileReader:
    """The reads of one file's analysis: each path read once (its text kept), and
    recorded as a dependency with the digest of what it gave."""

    def __init__(self, project: ProjectFiles) -> None:
        self.project = project
        self._read: dict[str, tuple[str | None, str | None]] = {}
        # What the sources conclude from the files read (a module may launch),
        # kept across the runs of one file's launch variants.
        self.memo: dict[tuple, object] = {}
        self.shared = run_cache(project)
        # The paths read by each conclusion being drawn (innermost last), their
        # keys, and how many questions got a conclusion still being drawn (a
        # cycle of imports): what rests on one depends on the order of the
        # questions, and is kept for this file only.
        self._recording: list[list[str]] = []
        self._drawing: list[tuple] = []
        self._provisional = 0
        self._reads_of: dict[tuple, tuple[str, ...]] = {}
        self._replaying = 0
        # The files read first by the analysis itself (not by a conclusion):
        # what ``MAX_FILES`` bounds.
        self._bounded = 0

    def read(self, shown: str) -> tuple[str | None, str | None]:
        """The text of ``shown`` and None, or None and why not (see
        :meth:`ProjectFiles.read`); past ``MAX_FILES`` different files, nothing."""
        for reads in self._recording:
            reads.append(shown)
        known = self._read.get(shown)
        if known is not None:
            return known
        if not self._recording and not self._replaying:
            # A conclusion about a module (what it may launch) reads past the
            # bound and does not count toward it: it is a fact about the texts
            # alone, the same in every file and in any order of the run's files
            # (``--jobs``), and judging the names a file imports must not use up
            # what its interpretation may read (issue 20: SGLang's cli/serve.py).
            if self._bounded >= MAX_FILES:
                return None, f"more than {MAX_FILES} files are read for one file"
            self._bounded += 1
        known = self._text_now(shown)
        self._read[shown] = known
        return known

    def _text_now(self, shown: str) -> tuple[str | None, str | None]:
        """What reading ``shown`` gives in this run: read once per run in the
        process, without recording it as read."""
        if self.shared is None:
            return self.project.read(shown)
        known = self.shared.get(("text", shown))
        if known is None:
            known = self.shared[("text", shown)] = self.project.read(shown)
        return known

    def recall(self, key: tuple) -> object | None:
        """A conclusion drawn before: in this file's analysis, or in another of
        the run's (its reads then become this file's dependencies too)."""
        known = self.memo.get(key)
        if known is not None:
            if key in self._drawing:
                self._provisional += 1
            elif self._recording:
                # What it read is read by the conclusion that asks, too.
                self._replay(self._reads_of.get(key, ()))
            return known
        if self.shared is None:
            return None
        shared = self.shared.get(("memo", key)) or self._inherited(key)
        if shared is None:
            return None
        value, reads = shared
        self._replay(reads)
        self.memo[key] = value
        self._reads_of[key] = reads
        return value

    def explored(self, path: str, env: Mapping[str, str] | None) -> dict:
        """The decisions the last analysis of ``path`` in this process forked
        on (paths.explore's ``learned``; empty the first time), for this
        analysis to take from the start and to fill (issue 24: an editor's
        next version of a file skips the merged first run)."""
        if self.shared is None:
            return {}
        key = ("explored", path, tuple(sorted((env or {}).items())))
        kept = self.shared.lasting.get(key)
        learned = dict(kept) if kept else {}
        self.shared.lasting[key] = learned
        return learned

    def _inherited(self, key: tuple) -> tuple[object, tuple[str, ...]] | None:
        """The conclusion about ``key`` of the run this one follows, when every
        file it read reads the same now (kept for this run too); else None."""
        assert self.shared is not None
        previous = self.shared.previous
        entry = previous.get(("memo", key)) if previous is not None else None
        if entry is None:
            return None
        for shown in entry[1]:
            then = previous.get(("text", shown))  # type: ignore[union-attr]
            if then is None:
                return None  # no longer kept: nothing to compare with
            if self._text_now(shown) != then:
                return None
        self.shared[("memo", key)] = entry
        return entry

    def _replay(self, reads: tuple[str, ...]) -> None:
        """Read what a conclusion read, as when it was drawn (past the bound)."""
        self._replaying += 1
        try:
            for shown in reads:
                self.read(shown)
        finally:
            self._replaying -= 1

    def begin(self, key: tuple, provisional: object | None = None) -> None:
        """A conclusion about ``key`` is being drawn; ``provisional``: what a
        question about it answers meanwhile (a cycle)."""
        self._recording.append([])
        self._drawing.append(key)
        if provisional is not None:
            self.memo[key] = provisional

    def conclude(self, key: tuple, value: object) -> object:
        """The conclusion :meth:`begin` started: kept for this file, and for the
        run when it did not rest on a provisional answer."""
        reads = tuple(dict.fromkeys(self._recording.pop()))
        self._drawing.pop()
        self.memo[key] = value
        self._reads_of[key] = reads
        if self.shared is not None and not self._provisional:
            self.shared[("memo", key)] = (value, reads)
        if not self._recording:
            self._provisional = 0
        return value

    @property
    def dependencies(self) -> list[tuple[str, str]]:
        """(path, digest) of each file read inside the project, in order; a file
        that did not exist has the digest "" (its creation changes the result).
        Files outside the project are not dependencies: they are never read."""
        shared = self.shared
        return [
            (path, "" if text is None else text_digest(text) if shared is None else shared.digest(path, text))
            for path, (text, problem) in self._read.items()
            if self.project.problem(path) is None
        ]


def resolve(base_file: str, written: str) -> str:
    """The path as shown of ``written``, relative to ``base_file``'s directory
    unless absolute (``..`` followed)."""
    directory = os.path.dirname(os.path.abspath(base_file))
    return display_name(os.path.normpath(os.path.join(directory, written)))
