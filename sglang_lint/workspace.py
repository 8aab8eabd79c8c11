"""The analysis of a workspace as an editor sees it: the files of its folders,
with the open buffers' text over what is on disk.

An index, kept in memory between edits (issue 24): the files discovery found,
and for each its extraction (SourceResult) and catalog stage, so that an edit
costs the edited file, the files whose analysis read it (a sourced helper, an
imported module, a ``--config`` file) and the cross-file stages, never a walk
of the tree. A scan (the first one, or after files changed on disk) reads the
files in small steps, so that its caller can interleave the open file's own
analysis and newer edits (:meth:`WorkspaceLinter.scan` is a generator).

Knows no protocol: the language server in sglang_lint.server adapts it.
"""

from __future__ import annotations

import os
from typing import Iterator, Mapping

from msgspec import Struct
from msgspec.structs import replace

from sglang_lint import interrupt
from sglang_lint.config import Config, ConfigError
from sglang_lint.files import FileKind, is_inside, source_kind
from sglang_lint.model import Finding, Note, SourceResult, gives_nothing
from sglang_lint.pipeline import LintOptions, LintResult, PreparedRun, cataloger, extract, finish_run, lint_paths, prepare_run

# Files read between two yields of a scan: small, so that an opened file or an
# edit waits for little (a Python launcher of SGLang's tests takes up to ~1 s).
SCAN_STEP = 8


class Outcome(Struct):
    """One analysis of the workspace: findings by absolute path, the lines of
    every file analyzed (for positions), or the config error that stopped it.
    ``deployments``: what the topology stage built (for hover and inlay hints);
    ``complete``: False when only some files were analyzed (an opened file
    alone, before the workspace index is ready: its pair findings follow)."""

    findings: dict[str, list[Finding]] = {}
    lines: dict[str, list[str]] = {}
    config_error: ConfigError | None = None
    deployments: list = []
    complete: bool = True

    def with_file(self, alone: "Outcome", path: str) -> None:
        """Take ``path``'s part of ``alone`` (that file analyzed alone, before
        the index is ready): its findings, lines and the deployments of its
        launches, so that hover, inlay hints and go to definition work in a
        file opened while the workspace is still being read. The index's
        outcome replaces all of it when ready."""
        self.findings.pop(path, None)
        if path in alone.findings:
            self.findings[path] = alone.findings[path]
        if path in alone.lines:
            self.lines[path] = alone.lines[path]

        def launched_here(deployment) -> bool:
            return any(os.path.abspath(server.launch.location.path) == path for server in deployment.servers)

        self.deployments = [d for d in self.deployments if not launched_here(d)] + list(alone.deployments)


class _Entry(Struct):
    """A file of the index: its result (None when it could not be read, with
    the notes that say why), its catalog stage, and the ``stat`` of the disk
    file it was read from (None for an open buffer)."""

    result: SourceResult | None
    cataloged: object | None = None
    notes: list[Note] = []
    stat: tuple[int, int, int] | None = None
    # The absolute paths its extraction read (dependencies) and its catalog
    # stage read (probes), once asked for (_recatalog_readers_of).
    reads: tuple[frozenset[str], frozenset[str]] | None = None
    # A Python file the pre-check dismissed: what its imports name
    # (extraction.imports_text); and whether it was read again because one
    # names a launcher of the workspace (the cross-file pre-check, issue 20).
    imports: str = ""
    importer: bool = False
    # What the modules that spell no launch were found to launch through
    # when it was read as an importer (extraction.ReadFile.launching).
    launching: tuple = ()
    # An importer past the last round (extraction.wrappers_too_deep): its
    # result is that note, not an analysis.
    past_rounds: bool = False

    def read_paths(self) -> tuple[frozenset[str], frozenset[str]]:
        if self.reads is None:
            dependencies = self.result.dependencies if self.result is not None else ()
            probes = getattr(self.cataloged, "probes", None) or ()
            self.reads = (frozenset(os.path.abspath(path) for path, _ in dependencies), frozenset(os.path.abspath(path) for path, _ in probes))
        return self.reads


class WorkspaceLinter:
    """The analysis of workspace folders with in-memory buffers over their files."""

    def __init__(self, roots: list[str], options: LintOptions | None = None) -> None:
        from sglang_lint.cache import ExtractionCache, MemoryExtractionCache, default_cache_dir

        self.roots = [os.path.abspath(root) for root in roots]
        self.options = options or LintOptions(cache=True, reuse_findings=False, jobs=1)
        disk = None
        if self.options.cache and self.roots:
            directory = self.options.cache_dir or str(default_cache_dir(self.roots[0]))
            disk = ExtractionCache(directory)
        self.cache = MemoryExtractionCache(disk)
        self._prepared: PreparedRun | None = None
        self._entries: dict[str, _Entry] = {}  # shown path -> entry, in discovery order
        self._shown: dict[str, str] = {}  # absolute path -> shown path
        self._config_error: ConfigError | None = None
        # The buffers of the last analysis (absolute path -> text).
        self._buffers: dict[str, str] = {}
        # The outcome of the whole pipeline, when an open file lies outside every
        # folder (see scan); None: the index's.
        self._named: Outcome | None = None
        # The changed files whose readers are yet to be analyzed again, and the
        # files read since (not readers to redo).
        self._readers_wanted: set[str] = set()
        self._readers_done: set[str] = set()
        # The outcome of the latest update that left its readers for later:
        # what update_readers gives when no file reads the changed ones.
        self._deferred: Outcome | None = None
        # What each config file that may govern a file looked like at the scan
        # (its stat, or its buffer's text; None: no such file).
        self._config_stats: dict[str, object] = {}
        # Which files (shown) import a module of each last name: the files the
        # cross-file pre-check looks at (_promote_importers); None: to be made.
        self._importing: dict[str, set[str]] | None = None
        self.ready = False

    # -- the whole workspace ------------------------------------------------------
    def run(self, buffers: dict[str, str], *, persist: bool = False) -> Outcome:
        """Analyze the roots (or, with none, the open buffers alone) with
        ``buffers`` (absolute path -> text) over the files on disk: a scan, then
        the cross-file stages."""
        for _ in self.scan(buffers, persist=persist):
            pass
        return self.outcome()

    def scan(self, buffers: dict[str, str], *, persist: bool = False) -> Iterator[tuple[int, int]]:
        """Discover the files again and bring the index up to date with them:
        a file unchanged on disk since it was read (its ``stat``) keeps its
        entry; the others are read and extracted (through the per-file cache).
        Yields (files done, files in all) every :data:`SCAN_STEP` files, and
        when a newer input cancelled the file in progress (``interrupt``: it is
        read again when the scan resumes); the index is ready when the
        generator ends. Abandoned (closed) midway, the
        index is not ready and the next scan starts over."""
        self.ready = False
        self._deferred = None
        self.cache.reset_counts()
        self.cache.persist = persist
        self._buffers = dict(buffers)
        self._named = None
        if self._outside(buffers):
            # An open file outside every folder is named by itself, and brings
            # its deployment context along (the files beside it, issue 23): the
            # whole pipeline's way, not the index's.
            self._named = self._lint_named(buffers)
            self.ready = True
            yield 1, 1
            return
        self._config_stats = config_stats = {}
        for absolute in [*(os.path.join(root, "-") for root in self.roots), *(os.path.abspath(shown) for shown in self._entries)]:
            self._look_at_configs(absolute, buffers)
        try:
            prepared = self._prepare(buffers)
        except ConfigError as error:
            self._config_error = error
            self._prepared = None
            self._entries, self._shown = {}, {}
            self.ready = True
            return
        self._config_error = None
        # (taken before discovery where it can be: a config written while the
        # scan runs must read as changed afterwards)
        self._config_stats = config_stats
        for shown in prepared.files:
            self._look_at_configs(os.path.abspath(shown), buffers)
        fresh = prepared.project.freshness()
        previous = self._entries
        entries: dict[str, _Entry] = {}
        changed: set[str] = set()
        total = len(prepared.files)
        for done, shown in enumerate(prepared.files, 1):
            absolute = os.path.abspath(shown)
            old = previous.get(shown)
            stat = None if absolute in buffers else _stat(absolute)
            if old is not None and stat is not None and old.stat == stat and (old.result is None or fresh(old.result.dependencies)):
                entries[shown] = old
            else:
                while True:
                    try:
                        entries[shown] = self._read(prepared, shown, buffers.get(absolute), stat, fresh)
                        break
                    except interrupt.Cancelled:
                        # A newer input goes first (the caller clears the
                        # request before resuming); this file is read again.
                        yield done - 1, total
                changed.add(absolute)
            if done % SCAN_STEP == 0:
                yield done, total
        changed.update(os.path.abspath(shown) for shown in previous.keys() - entries.keys())
        self._prepared = prepared
        self._entries = entries
        self._shown = {os.path.abspath(shown): shown for shown in entries}
        self._importing = None
        self._promote_importers(prepared, fresh)
        self._recatalog_readers_of(changed, exclude=changed)
        self._readers_wanted, self._readers_done = set(), set()
        self.cache.forget(set(entries))
        if persist:
            self.cache.save()
        self.ready = True
        yield total, total

    def update(self, buffers: dict[str, str], changed: set[str], *, readers: bool = True) -> Outcome:
        """The analysis after ``changed`` (absolute paths: edited, opened or
        closed buffers, files changed on disk) with ``buffers`` now open: the
        changed files are read again, and (``readers``) the files whose analysis
        read one of them; then the cross-file stages. Without a ready index: a
        whole run.

        ``readers=False``: the readers wait for :meth:`update_readers` (the
        editor shows the edited file's diagnostics first: a fixture module that
        six test files import would otherwise hold them for the six)."""
        if not self.ready or (self._prepared is None and self._config_error is None) or self._named is not None or self._outside(buffers):
            return self.run(buffers)
        if self._prepared is None or self._configs_changed(changed):
            # The config was broken (it may be fixed now), or a config file
            # that governs a changed file appeared, went or changed: every
            # file may be governed differently.
            return self.run(buffers)
        self._buffers = dict(buffers)
        self._deferred = None
        # Texts changed, no file came or went: what this process concluded
        # about the files in the run before still holds where the texts it
        # read are the same (ProjectFiles.follows).
        same_files = all(absolute in self._shown and (absolute in buffers or os.path.exists(absolute)) for absolute in changed)
        project = self._project(buffers, follows=self._prepared.project.run if same_files else "")
        prepared = self._prepared = replace(self._prepared, project=project)
        fresh = prepared.project.freshness()
        redo: set[str] = set()
        for absolute in changed:
            shown = self._shown.get(absolute)
            if shown is None:
                shown = self._admit(absolute, buffers)
                if shown is None:
                    continue
            if absolute not in buffers and not os.path.exists(absolute):
                self._entries.pop(shown, None)
                self._shown.pop(absolute, None)
                continue
            redo.add(shown)
        imports_changed = False
        for shown in redo:
            absolute = os.path.abspath(shown)
            stat = None if absolute in buffers else _stat(absolute)
            old = self._entries.get(shown)
            past_rounds = old is not None and old.past_rounds
            importer = old is not None and old.importer and not past_rounds
            entry = self._entries[shown] = self._read(prepared, shown, buffers.get(absolute), stat, fresh, importer=importer, launching=old.launching if old is not None else ())
            # The cross-file pre-check again when what a file exports or
            # imports changed (not on an ordinary edit of a launcher), or
            # for a file past its last round (its note is at the import).
            before = (old.result.exports if old is not None and old.result is not None else [], old.imports if old is not None else "")
            if past_rounds or before != (entry.result.exports if entry.result is not None else [], entry.imports):
                imports_changed = True
        if imports_changed:
            self._importing = None
            self._promote_importers(prepared, fresh)
        done = {os.path.abspath(shown) for shown in redo}
        self._readers_wanted |= set(changed)
        self._readers_done -= done
        self._readers_done |= done
        if readers:
            self._recatalog_readers_of(self._readers_wanted, exclude=self._readers_done)
            self._readers_wanted, self._readers_done = set(), set()
            return self.outcome()
        self._deferred = self.outcome()
        return self._deferred

    @property
    def readers_pending(self) -> bool:
        """Files that read a changed file wait to be analyzed again (see update)."""
        return bool(self._readers_wanted)

    def update_readers(self) -> Outcome:
        """Analyze again the files that read the files changed since (the
        second half of ``update(..., readers=False)``), and run the cross-file
        stages."""
        wanted, done = self._readers_wanted, self._readers_done
        redone = 0
        if self._prepared is not None and wanted:
            # A run of its own (the disk is read again), following the edit's.
            self._prepared = replace(self._prepared, project=self._project(self._buffers, follows=self._prepared.project.run))
            redone = self._recatalog_readers_of(wanted, exclude=done)
        self._readers_wanted, self._readers_done = set(), set()
        deferred, self._deferred = self._deferred, None
        if not redone and deferred is not None:
            # No file reads the edited one: the cross-file stages would give
            # what the edit's own update gave (on SGLang's tree, ~15 ms of
            # background work before the next edit could start).
            return deferred
        return self.outcome()

    def outcome(self) -> Outcome:
        """The cross-file stages over the index as it is."""
        if self._named is not None:
            return self._named
        if self._config_error is not None:
            return Outcome(config_error=self._config_error)
        prepared = self._prepared
        if prepared is None:
            return Outcome()
        # (a file the pre-check dismissed gives the cross-file stages nothing:
        # SGLang's tree has 4,600 of them, ~40 ms an edit)
        results = [entry.result for entry in self._entries.values() if entry.result is not None and not gives_nothing(entry.result)]
        notes = [*prepared.run.notes, *(note for entry in self._entries.values() for note in entry.notes)]
        cataloged = {id(entry.result): entry.cataloged for entry in self._entries.values() if entry.cataloged is not None}
        try:
            lint = finish_run(results, prepared.run.options, prepared.configs, notes, cataloged, self._buffers, prepared.project, dependency_lines=False)
        except ConfigError as error:
            return Outcome(config_error=error)
        return _outcome(lint)

    # -- one file -----------------------------------------------------------------
    def lint_alone(self, path: str, text: str) -> Outcome:
        """``path`` (absolute) with ``text``, analyzed alone: what the editor
        shows the moment a file is opened, before the workspace index is ready
        (its pair findings with other files come with the index). Not part of
        the workspace (excluded, another kind): nothing."""
        options = replace(self.options, force_exclude=True, context=False)
        try:
            result = lint_paths([path], options, overlays={path: text}, extraction_cache=self.cache)
        except ConfigError as error:
            return Outcome(config_error=error, complete=False)
        outcome = _outcome(result)
        outcome.complete = False
        return outcome

    def comments_of(self, path: str, text: str) -> dict[int, str]:
        """The comments the file's own source reads in ``text`` (for placing a
        ``# noqa``)."""
        kind = source_kind(path, text)
        if kind is None:
            return {}
        return extract(path, text, kind).comments

    # -- the index's parts --------------------------------------------------------
    def _paths(self, buffers: Mapping[str, str]) -> list[str]:
        # The folders, and open files outside them (those on disk: a new file
        # needs a folder to be found in); never such a file's whole directory,
        # which may be a home directory.
        return [*self.roots, *self._outside(buffers)]

    def _config_candidates(self, absolute: str) -> Iterator[str]:
        """The config files that may govern ``absolute``: each name in its
        directory and every directory above it up to a folder's root."""
        from sglang_lint.config import CONFIG_FILENAMES

        directory = os.path.dirname(absolute)
        while True:
            for name in CONFIG_FILENAMES:
                yield os.path.join(directory, name)
            if any(directory == root for root in self.roots) or not any(is_inside(directory, root) for root in self.roots):
                return
            parent = os.path.dirname(directory)
            if parent == directory:
                return
            directory = parent

    def _look_at_configs(self, absolute: str, buffers: Mapping[str, str]) -> None:
        for candidate in self._config_candidates(absolute):
            if candidate not in self._config_stats:
                self._config_stats[candidate] = _config_state(candidate, buffers)

    def _configs_changed(self, changed: set[str]) -> bool:
        """Whether a config file that may govern one of ``changed`` is not as
        the scan saw it (a ``stat`` each, remembered from the first look)."""
        for absolute in changed:
            for candidate in self._config_candidates(absolute):
                now = _config_state(candidate, self._buffers)
                seen = self._config_stats.setdefault(candidate, now)
                if seen != now:
                    return True
        return False

    def _outside(self, buffers: Mapping[str, str]) -> list[str]:
        return sorted(path for path in buffers if os.path.isfile(path) and not self._inside(path))

    def _lint_named(self, buffers: Mapping[str, str]) -> Outcome:
        try:
            result = lint_paths(self._paths(buffers), self.options, overlays=buffers, extraction_cache=self.cache)
        except ConfigError as error:
            return Outcome(config_error=error)
        self.cache.forget(set(result.sources))
        return _outcome(result)

    def _prepare(self, buffers: Mapping[str, str]) -> PreparedRun:
        return prepare_run(self._paths(buffers), self.options, overlays=buffers)

    def _project(self, buffers: Mapping[str, str], follows: str = ""):
        """Where this run's analyses read files: a run of its own, following
        the run ``follows`` (ProjectFiles.follows) when given."""
        from sglang_lint.pipeline import project_files

        assert self._prepared is not None
        return replace(project_files(self._prepared.run.options, self._prepared.run.roots, buffers), follows=follows)

    def _read(self, prepared: PreparedRun, shown: str, text: str | None, stat, fresh, importer: bool = False, launching: tuple = ()) -> _Entry:
        """Read, pre-check and extract one file (its cached result when its text
        and dependencies are unchanged), and catalog it. ``importer``: a file
        the pre-check dismisses that imports a launcher of the workspace
        (:meth:`_promote_importers`), extracted past it, following a call of
        what an earlier round found to launch (``launching``)."""
        from sglang_lint.cache import env_digest, text_digest
        from sglang_lint.extraction import FileJob, read_files, read_text_again, result_key

        config = prepared.configs.get(shown) or self._config_for(shown)
        env = config.env_map or None if config is not None else None
        files, notes = read_files([FileJob(shown, env, text)], digests=False)
        if not files:
            return _Entry(None, None, notes, stat)
        read = files[0]
        if not read.candidate:
            if not importer or read.kind is not FileKind.PYTHON:
                return _Entry(SourceResult(path=shown), None, notes, stat, imports=read.imports)
            again = read_text_again(read)
            if again is None:
                return _Entry(SourceResult(path=shown), None, notes, stat, imports=read.imports)
            read.text = again
        digest, env_key = text_digest(read.text), env_digest(env)
        launching = () if read.candidate else launching
        key = result_key(env_key, prepared.project, "" if read.candidate else "launcher", launching)
        result = self.cache.get(shown, read.text, digest, read.kind.value, key, fresh)
        if result is None:
            if read.candidate:
                result = extract(shown, read.text, read.kind, env, prepared.project)
            else:
                result = extract(shown, read.text, read.kind, env, prepared.project, precheck=False, launcher_imported=True, launching=dict(launching) or None)
            self.cache.put(shown, digest, read.kind.value, key, result)
        return _Entry(result, self._catalog(prepared, result), notes, stat, imports=read.imports, importer=not read.candidate, launching=launching)

    def _promote_importers(self, prepared: PreparedRun, fresh) -> None:
        """The cross-file pre-check over the index (extraction.extract_importers):
        each file the pre-check dismissed that imports a name a launch of
        another file was made through is read again past it, round after round;
        one that no longer does is read again as dismissed. Only the files
        whose imports name an exporting module are looked at (SGLang's tree:
        4,600 dismissed files, ~150 modules exporting)."""
        from sglang_lint.extraction import MAX_IMPORT_ROUNDS, ExportIndex, imports_of, import_last_parts

        if self._importing is None:
            self._importing = {}
            for shown, entry in self._entries.items():
                if entry.imports:
                    for part in import_last_parts(shown, imports_of(entry)):
                        self._importing.setdefault(part, set()).add(shown)
        index = ExportIndex()
        for shown, entry in self._entries.items():
            if entry.result is not None and entry.result.exports and not entry.importer:
                index.add(shown, entry.result.exports, direct=True)
        wanted: set[str] = set()
        launching: dict[str, tuple[str, ...]] = {}

        def importing(index: ExportIndex) -> dict[str, set[str]]:
            found: dict[str, set[str]] = {}
            for part in index.last_parts():
                for shown in self._importing.get(part, ()):  # type: ignore[union-attr]
                    entry = self._entries.get(shown)
                    if shown in wanted or shown in found or entry is None or not entry.imports:
                        continue
                    names = index.launchers_imported(shown, imports_of(entry))
                    if names:
                        found[shown] = names
            return found

        for _ in range(MAX_IMPORT_ROUNDS):
            found = importing(index)
            if not found:
                break
            wanted |= found.keys()
            index = ExportIndex()
            handed = tuple(sorted(launching.items()))
            for shown, names in found.items():
                entry = self._entries[shown]
                if not entry.importer or entry.past_rounds or entry.launching != handed:
                    absolute = os.path.abspath(shown)
                    entry = self._entries[shown] = self._read(prepared, shown, self._buffers.get(absolute), entry.stat, fresh, importer=True, launching=handed)
                if entry.result is not None and entry.result.exports:
                    index.add(shown, entry.result.exports, direct=True)
                    launching[shown] = tuple(sorted(entry.result.exports))
                index.add(shown, names, direct=False)
        else:
            # Past the last round: said at the import, as a walk says it.
            for shown in importing(index):
                wanted.add(shown)
                self._entries[shown] = self._past_rounds(shown, self._entries[shown], index)
        for shown, entry in list(self._entries.items()):
            if entry.importer and shown not in wanted:
                absolute = os.path.abspath(shown)
                self._entries[shown] = self._read(prepared, shown, self._buffers.get(absolute), entry.stat, fresh)

    def _past_rounds(self, shown: str, entry: _Entry, index) -> _Entry:
        """The entry of a file importing what the last round of importers
        exports: the note that says its launch is not analyzed
        (extraction.wrappers_too_deep), at the import in its text now."""
        from sglang_lint.extraction import imports_of, text_now, wrappers_too_deep

        absolute = os.path.abspath(shown)
        # (a file changed behind the editor's back may no longer decode: the
        # note then goes to its first line)
        text = text_now(absolute, self._buffers.get(absolute)) or ""
        note = wrappers_too_deep(shown, imports_of(entry), text, index)
        return _Entry(SourceResult(path=shown), None, [note], entry.stat, imports=entry.imports, importer=True, past_rounds=True)

    def _catalog(self, prepared: PreparedRun, result: SourceResult) -> object | None:
        """The catalog stage of one result (None for one that gives it nothing)."""
        into: dict[int, object] = {}
        cataloger(prepared.run.options, into, self._buffers)(result)
        return into.get(id(result))

    def _config_for(self, shown: str) -> Config | None:
        prepared = self._prepared
        if prepared is None:
            return None
        config = prepared.run.resolver.for_file(shown)
        prepared.configs[shown] = config
        return config

    def _admit(self, absolute: str, buffers: Mapping[str, str]) -> str | None:
        """The shown path of a file not in the index that belongs to it now (a
        new unsaved buffer under a folder, a file created on disk), added at its
        place in the order discovery would give; None when it does not belong."""
        prepared = self._prepared
        if prepared is None or not self._inside(absolute):
            return None
        try:
            found = prepare_run([absolute], replace(prepared.run.options, force_exclude=True), overlays={absolute: buffers[absolute]} if absolute in buffers else None)
        except ConfigError:
            return None
        if not found.files:
            return None
        shown = found.files[0]
        self._shown[absolute] = shown
        entries = dict(sorted([*self._entries.items(), (shown, _Entry(None))], key=lambda item: item[0]))
        self._entries = entries
        prepared.configs[shown] = found.configs.get(shown) or prepared.run.resolver.for_file(shown)
        return shown

    def _recatalog_readers_of(self, changed: set[str], exclude: set[str]) -> int:
        """Read again the files whose extraction read a changed file (a sourced
        helper, an imported module), and catalog again those whose launches read
        one (a ``--config`` file); how many."""
        if not changed or self._prepared is None:
            return 0
        prepared = self._prepared
        redone = 0
        fresh = prepared.project.freshness()
        # Each entry's reads are made absolute once, not on every edit (they
        # were a quarter of an edit's time on SGLang's 5,000-file tree).
        for shown, entry in list(self._entries.items()):
            if entry.result is None:
                continue
            dependencies, probes = entry.read_paths()
            if dependencies.isdisjoint(changed) and probes.isdisjoint(changed):
                continue
            absolute = os.path.abspath(shown)
            if absolute in exclude:
                continue
            if not dependencies.isdisjoint(changed):
                self._entries[shown] = self._read(prepared, shown, self._buffers.get(absolute), entry.stat, fresh, importer=entry.importer, launching=entry.launching)
            elif entry.cataloged is not None:
                self._entries[shown] = replace(entry, cataloged=self._catalog(prepared, entry.result), reads=None)
            else:
                continue
            redone += 1
        return redone

    def _inside(self, path: str) -> bool:
        absolute = os.path.abspath(path)
        return any(is_inside(absolute, root) for root in self.roots)


def _stat(path: str) -> tuple[int, int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ino)


def _config_state(path: str, buffers: Mapping[str, str]) -> object:
    """What a config file is now: its buffer's text, else its ``stat`` (None:
    no such file)."""
    return buffers[path] if path in buffers else _stat(path)


def _outcome(result: LintResult) -> Outcome:
    outcome = Outcome(deployments=list(result.deployments))
    for path, lines in result.sources.items():
        outcome.lines[os.path.abspath(path)] = lines
    for finding in result.findings:
        outcome.findings.setdefault(os.path.abspath(finding.location.path), []).append(finding)
    return outcome
