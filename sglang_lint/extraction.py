"""The per-file stage of a run: read, decode, prefilter, then extract each
candidate file, from the cache when it holds the file's result, else with its
source, across processes when there are enough candidates (issue 7).

Files are independent here (the cross-file work is the analysis stage's), so
the result does not depend on the order they are extracted in, the number of
processes, or whether a result came from the cache: results come back in the
order of the files given. A file's source may read other files of the project
(``project``, sources.project: a shell script's ``source``d helpers); each
extraction reads them itself (a helper read by ten scripts is read ten times,
cheaply, but analyzed as a file of the run once), and a cached result whose
dependencies changed is extracted again.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, Callable, Iterable, Mapping, MutableMapping, NamedTuple, Sequence

from msgspec import Struct
from msgspec.structs import replace

from sglang_lint.files import FileKind, binary_note, classify, decode_source, has_wide_bom, read_bytes, source_kind
from sglang_lint.model import Note, SourceResult
from sglang_lint.prefilter import PROCESS_MARKERS, imported_names, may_launch, may_launch_bytes, python_may_run_a_launch
from sglang_lint.sources.project import ProjectFiles

# Bytes enough for a shebang line (a file named without a suffix).
_HEAD = 512

# A process pool is started only when each worker gets at least this many files:
# starting one and shipping results back costs about what extracting a few files
# does.
MIN_FILES_PER_WORKER = 8

# A walk of at least this many files, extracted with no cache to answer, starts
# its workers before reading anything (:class:`WorkerPool`).
EARLY_POOL_FILES = 1000


class WorkerPool:
    """Worker processes forked before the run reads its files: a worker is a
    copy of this process, and forked after the walk it carried every text read
    for the pre-check and every record of it, which it never uses (SGLang's
    tree: ~10 MB more in each worker, 20 of the run's 255 MB peak, issue 20).
    Started only on Linux (elsewhere workers are spawned: they import afresh
    and inherit nothing) and only when a run is likely to extract enough files
    to use them; one the run does not use costs the two forks."""

    def __init__(self, workers: int) -> None:
        import concurrent.futures
        import multiprocessing

        from sglang_lint.sources import source_for

        for kind in FileKind:
            source_for(kind)  # imported once here, not in each worker
        self.workers = workers
        self.executor = concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))
        # The workers are forked at the first job, all of them (fork start method).
        self.executor.submit(int).result()

    @classmethod
    def for_walk(cls, files: int, processes: int | None, cold: bool) -> WorkerPool | None:
        """A pool for a walk of ``files`` files when the run will likely need
        one: many files, no cache that may answer for them (``cold``), more
        than one process allowed."""
        if not sys.platform.startswith("linux") or not cold or files < EARLY_POOL_FILES:
            return None
        workers = available_cpus() if processes is None else max(1, processes)
        if workers <= 1:
            return None
        from concurrent.futures.process import BrokenProcessPool

        try:
            return cls(workers)
        except (OSError, BrokenProcessPool):
            # No fork now (a process limit, a worker killed at once): the
            # extraction starts its own pool later, or runs in this process.
            return None

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)

    def starter(self, project: ProjectFiles | None, encode: bool) -> Started:
        """A :class:`Started` that hands each file to the workers as soon as it
        is read (``Started.start``)."""
        return Started(self, project, encode)


class Started(dict):
    """Files handed to a pool's workers while the walk still reads the others
    (path -> the job's future): on a cold run the workers sat idle while this
    process read and pre-checked the whole tree (SGLang's tree: ~0.9 s of
    5,778 files before the first analysis). :func:`extract_read` takes their
    results in the files' order; a file whose job could not be handed over
    (the pool broke) is extracted as if none had been."""

    def __init__(self, pool: WorkerPool, project: ProjectFiles | None, encode: bool) -> None:
        super().__init__()
        self.pool = pool
        self.project = project
        self.encode = encode
        self.broken = False

    def start(self, read: ReadFile) -> None:
        if self.broken:
            return
        from concurrent.futures.process import BrokenProcessPool

        try:
            self[read.path] = self.pool.executor.submit(_extract_job, (read.path, read.text, read.kind, read.env, self.project, self.encode, read.importer, read.launching))
        except (BrokenProcessPool, RuntimeError, OSError):
            self.broken = True  # the files left are extracted without it

Extract = Callable[[str, str, FileKind, "Mapping[str, str] | None", "ProjectFiles | None"], SourceResult]
# What modules that spell no launch launch through: (path, names) pairs, sorted
# (ReadFile.launching).
LaunchingNames = tuple[tuple[str, tuple[str, ...]], ...]


class FileJob(Struct, frozen=True):
    """One file to analyze: its path as shown and the config env it reads."""

    path: str
    env: Mapping[str, str] | None = None
    # The file's text when it is not read from disk (an editor's unsaved buffer).
    text: str | None = None


class ReadFile(Struct):
    """A file read and classified: the prefilter's verdict (``candidate``) and,
    for a candidate, the digests that key its cache entry."""

    path: str
    text: str
    kind: FileKind
    env: Mapping[str, str] | None
    candidate: bool
    digest: str = ""
    env_key: str = ""
    # A Python file the pre-check dismissed: what its imports name
    # (:func:`imports_text`), for the cross-file pre-check (:func:`extract_importers`);
    # None: not scanned yet (:func:`scanned_imports`).
    imports: str | None = ""
    # Read again by the cross-file pre-check, extracted past the text
    # pre-check: it imports a name a launch was made through ("launcher",
    # :func:`extract_importers`; its statements are run whatever their syntax
    # says) or, named alone, a module whose text may launch ("module",
    # :func:`importing_launchers`; the Python source's own check decides).
    importer: str = ""
    # The modules that spell no launch found to launch through wrappers, with
    # the names: for a walk's later round, what the files of earlier rounds
    # exported (:func:`extract_importers`); for a file named alone, the
    # wrappers its imports rest on, told from the texts
    # (:func:`launching_imports`). Its analysis judges such a module by what
    # its functions call, as one that spells a launch (python_interpreter's
    # LaunchInterpreter.launching).
    launching: LaunchingNames = ()


# Between a module and a name, and between two imports, in ``ReadFile.imports``
# (one string per file: a tuple per import was ~12 MB of SGLang's tree).
_NAME_SEPARATOR, _IMPORT_SEPARATOR = "\x1f", "\x1e"


def imports_text(data: bytes) -> str:
    """A Python file's imports (prefilter.imported_names) as one string."""
    if b"import" not in data:
        return ""
    return _IMPORT_SEPARATOR.join(module + _NAME_SEPARATOR + name for module, name in imported_names(data))


def scanned_imports(read: ReadFile) -> str:
    """``read.imports``, scanned now from the file (or its buffer) when its
    reading left it for later (read_files' ``defer_imports``)."""
    if read.imports is None:
        if read.text:
            data: bytes | None = read.text.encode("utf-8", "surrogatepass")
        else:
            data, _ = read_bytes(read.path)
        read.imports = imports_text(data) if data is not None else ""
    return read.imports


def imports_of(read) -> list[tuple[str, str]]:
    """The ``(module, name)`` pairs of :func:`imports_text` (of a ReadFile, or
    anything with its ``imports``)."""
    return [tuple(item.split(_NAME_SEPARATOR, 1)) for item in read.imports.split(_IMPORT_SEPARATOR)] if read.imports else []  # type: ignore[misc]


class Extracted(Struct):
    results: list[SourceResult]
    notes: list[Note]
    cache_hits: int = 0
    cache_misses: int = 0
    workers: int = 0


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def read_files(jobs: Sequence[FileJob], *, digests: bool, started: Started | None = None, defer_imports: bool = False) -> tuple[list[ReadFile], list[Note]]:
    """Read, decode, classify and prefilter each file (in order), with the notes
    of the files that could not be read. ``digests``: hash each candidate's text
    (for the cache). ``started``: each candidate is handed to its workers as
    soon as it is read. ``defer_imports``: the imports of the Python files
    dismissed before the first Python file that may launch are not scanned
    (:func:`scanned_imports` does it if the cross-file pre-check needs them):
    a tree where nothing launches exports nothing to import (1,000 standard
    library files: ~50 ms of ~0.3 s); once one may, the rest are scanned as
    they are read, their bytes at hand."""
    files: list[ReadFile] = []
    notes: list[Note] = []
    scan = not defer_imports
    for job in jobs:
        if job.text is not None:
            kind = source_kind(job.path, job.text)
            if kind is not None:
                files.append(read := _classified(job, job.text, kind, digests, started, scan))
                scan = scan or (read.candidate and kind is FileKind.PYTHON)
            continue
        data, note = read_bytes(job.path)
        if data is None:
            if note is not None:
                notes.append(note)
            continue
        if not has_wide_bom(data):
            # Most files of a tree launch nothing: decided on the bytes, such a
            # file is not even decoded (its encoding is no concern of ours); a
            # binary file is still named as one.
            kind = classify(job.path, data[:_HEAD])
            if kind is not None and not may_launch_bytes(kind.value, data, job.env):
                binary = binary_note(job.path, data)
                if binary is not None:
                    notes.append(binary)
                else:
                    imports = (imports_text(data) if scan else None) if kind is FileKind.PYTHON else ""
                    files.append(ReadFile(job.path, "", kind, job.env, False, imports=imports))
                continue
        text, note = decode_source(job.path, data)
        if note is not None:
            notes.append(note)
        if text is None:
            continue
        kind = source_kind(job.path, text)
        if kind is None:
            continue
        files.append(read := _classified(job, text, kind, digests, started, scan))
        scan = scan or (read.candidate and kind is FileKind.PYTHON)
    return files, notes


def _classified(job: FileJob, text: str, kind: FileKind, digests: bool, started: Started | None, scan: bool = True) -> ReadFile:
    read = classify_text(job, text, kind, digests, scan)
    if started is not None and read.candidate:
        started.start(read)
    return read


def read_context_files(jobs: Sequence[FileJob], *, digests: bool, dismissed=None, started: Started | None = None) -> tuple[list[ReadFile], list[Note]]:
    """:func:`read_files` for the files read as a deployment context: a file
    ``dismissed`` (a cache.DismissedFiles) knows the prefilter dismissed, unchanged
    since, is not read again; each file dismissed now is remembered with the
    ``stat`` taken before it was read (a change while it is read makes the next
    run read it again). (The walk's stat is not kept for this: 5,778 of them
    held while the workers fork were 11 MB more of the process tree on
    SGLang's tree, for 10 ms.)"""
    if dismissed is None:
        # (no cache: nothing keys on the imports, scanned when needed)
        return read_files(jobs, digests=digests, started=started, defer_imports=True)
    from sglang_lint.cache import env_digest

    files: list[ReadFile] = []
    notes: list[Note] = []
    for job in jobs:
        try:
            info = os.stat(job.path)
        except OSError:
            info = None
        env_key = env_digest(job.env)
        known = dismissed.entry(job.path, info, env_key) if info is not None and job.text is None else None
        if known is not None:
            files.append(ReadFile(job.path, "", FileKind(known.kind), job.env, False, imports=known.imports))
            continue
        read, read_notes = read_files([job], digests=digests, started=started)
        files.extend(read)
        notes.extend(read_notes)
        if info is not None and job.text is None and len(read) == 1 and not read[0].candidate:
            dismissed.dismiss(job.path, info, env_key, read[0].kind.value, read[0].imports)
    return files, notes


def classify_text(job: FileJob, text: str, kind: FileKind, digests: bool, scan: bool = True) -> ReadFile:
    """A text read (of ``kind``): the prefilter's verdict and, with
    ``digests``, the keys of its cache entry; ``scan``: a dismissed Python
    file's imports now (else None: :func:`scanned_imports`)."""
    read = ReadFile(job.path, text, kind, job.env, may_launch(kind.value, text, job.env))
    if not read.candidate and kind is FileKind.PYTHON:
        read.imports = imports_text(text.encode("utf-8", "surrogatepass")) if scan else None
    if read.candidate and digests:
        from sglang_lint.cache import env_digest, text_digest

        read.digest, read.env_key = text_digest(text), env_digest(job.env)
    return read


def result_key(env_key: str, project: ProjectFiles | None, importer: str = "", launching: LaunchingNames = ()) -> str:
    """The cache key of a result's settings: the config's env, whether the
    installed sglang package is followed (toggling it changes the launches),
    and how an importer the pre-check dismissed was read past it
    (``ReadFile.importer``: a "launcher" runs its statements, a "module" is
    judged by the Python source's own check, so their results differ; a walk
    of the tree and the same file named alone read it each its way); and what
    the modules of the run that spell no launch launch through
    (``ReadFile.launching``): a module the analysis did not read may have
    become one since (its own import of a launcher)."""
    key = env_key if project is None or project.follow_installed else env_key + "/follow-installed=false"
    if importer:
        key = f"{key}/importer={importer}"
    if launching:
        from sglang_lint.cache import text_digest

        key += "/launching=" + text_digest(repr(launching))
    return key


def cache_slot(read: ReadFile) -> str:
    """Where a file's result is kept in the cache: under its path, and an
    importer's (read past the pre-check, ``ReadFile.importer``) beside it, one
    slot each way it is read. One slot per path made a file read both ways
    (flake8 reads it named alone, "module"; as the context of a file beside
    it, a walk's round reads it "launcher") put each result over the other,
    and neither was ever answered warm (issue 24: 6 of SGLang's files analyzed
    again by every flake8 run)."""
    return f"{read.path}\x00{read.importer}" if read.importer else read.path


def extract_files(jobs: Sequence[FileJob], extract: Extract, *, cache=None, processes: int | None = None, project: ProjectFiles | None = None) -> Extracted:
    """SourceResults of ``jobs`` (in their order) and the notes of the files
    that could not be read. ``extract`` runs one source on one file (never
    raises); ``cache``: an ExtractionCache or None; ``processes``: at most this
    many worker processes (None: one per available CPU; 1: none); ``project``:
    where sources may read other files."""
    files, notes = read_files(jobs, digests=cache is not None)
    extracted = extract_read(files, extract, cache=cache, processes=processes, project=project)
    extracted.notes = notes
    return extracted


def extract_read(
    files: Sequence[ReadFile],
    extract: Extract,
    *,
    cache=None,
    processes: int | None = None,
    on_result: Callable[[SourceResult], None] | None = None,
    project: ProjectFiles | None = None,
    pool: WorkerPool | None = None,
    started: Started | None = None,
    fresh=None,
) -> Extracted:
    """The SourceResults of files already read (see :func:`extract_files`); a
    file the prefilter dismissed has an empty one. ``pool``: workers started
    before (:class:`WorkerPool`), used when there are enough files for them;
    ``started``: the files handed to them as they were read (the cache had
    nothing for them: a cold run). ``on_result`` is called with
    each result a worker process sends, as it arrives (this process is idle
    meanwhile: the next stage's per-file work can run then). A cached result is
    used only while the files it read (its dependencies) read the same in
    ``project`` (``fresh``: how that is judged, by default by reading them;
    cache.DigestMemo answers from their stat)."""
    if fresh is None:
        fresh = project.freshness() if project is not None else None
    results: list[SourceResult | None] = []
    pending: list[tuple[int, ReadFile]] = []
    for read in files:
        if not read.candidate:
            results.append(SourceResult(path=read.path))
            continue
        if cache is not None:
            cached = cache.get(read.path, read.text, read.digest, read.kind.value, result_key(read.env_key, project, read.importer, read.launching), fresh, cache_slot(read))
            if cached is not None:
                results.append(cached)
                continue
        pending.append((len(results), read))
        results.append(None)

    workers = _worker_count(len(pending), processes if pool is None else pool.workers)
    if started:
        workers = started.pool.workers
        done = _extract_started([read for _, read in pending], started, extract, on_result=on_result, project=project)
    elif workers > 1:
        done = _extract_in_pool([read for _, read in pending], extract, workers, encode=cache is not None, on_result=on_result, project=project, pool=pool)
    else:
        done = [(_extract_one(extract, read.path, read.text, read.kind, read.env, project, read.importer, read.launching), None) for _, read in pending]
    for (index, read), (result, encoded) in zip(pending, done):
        results[index] = result
        if cache is not None:
            cache.put(read.path, read.digest, read.kind.value, result_key(read.env_key, project, read.importer, read.launching), result, encoded, cache_slot(read))
    extracted = Extracted([r for r in results if r is not None], [], workers=workers if workers > 1 else 0)
    if cache is not None:
        extracted.cache_hits, extracted.cache_misses = cache.hits, cache.misses
    return extracted


def _worker_count(pending: int, processes: int | None) -> int:
    limit = available_cpus() if processes is None else max(1, processes)
    return max(1, min(limit, pending // MIN_FILES_PER_WORKER))


def _extract_in_pool(
    pending: list[ReadFile],
    extract: Extract,
    workers: int,
    *,
    encode: bool = False,
    on_result: Callable[[SourceResult], None] | None = None,
    project: ProjectFiles | None = None,
    pool: WorkerPool | None = None,
) -> list[tuple[SourceResult, bytes | None]]:
    """Extract in ``workers`` processes: each file's SourceResult and, with
    ``encode``, its cache entry as JSON text (encoding in the workers: done here after the
    pool, it was ~10% of a cold run). The text travels to the worker with the
    job; the lines do not travel back (they are the text split, redone here). A
    pool that breaks (a worker killed) leaves its files to be done here."""
    import concurrent.futures
    import contextlib
    import multiprocessing
    from concurrent.futures.process import BrokenProcessPool

    # fork on Linux: the workers start at once with everything imported so far
    # (import the sources first, so that each worker need not); elsewhere the
    # platform's default (spawn), which imports afresh.
    context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    if context is not None and pool is None:
        from sglang_lint.sources import source_for as _source

        for kind in {read.kind for read in pending}:
            _source(kind)
    items = [(read.path, read.text, read.kind, read.env, project, encode, read.importer, read.launching) for read in pending]
    # Small chunks, in the files' order: a few analyses are long (a tree's PD
    # test fixtures), and chunks of a tenth of the files left one worker
    # finishing such a chunk alone (SGLang's tree: 8.5 s -> 7.9 s on two
    # workers). Neighbours stay in order: they import the same modules, which
    # the worker has parsed already (sorting by size cost 10% more CPU).
    chunk = max(1, min(8, len(items) // (workers * 64)))
    done: list[tuple[SourceResult, bytes | None]] = []
    try:
        started = contextlib.nullcontext(pool.executor) if pool is not None else concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context)
        with started as executor:
            for result, had_lines, encoded in executor.map(_extract_job, items, chunksize=chunk):
                if had_lines:
                    result = replace(result, lines=items[len(done)][1].split("\n"))
                done.append((result, encoded))
                if on_result is not None:
                    on_result(result)
    except (BrokenProcessPool, OSError):
        # A worker killed, or no fork at all (a process limit): the files
        # left are extracted here. (A file's own error never gets here: an
        # extraction turns it into a note.)
        for path, text, kind, env, project, _, importer, launching in items[len(done) :]:
            done.append((_extract_one(extract, path, text, kind, env, project, importer, launching), None))
    return done


def _extract_started(
    pending: list[ReadFile], started: Started, extract: Extract, *, on_result: Callable[[SourceResult], None] | None, project: ProjectFiles | None
) -> list[tuple[SourceResult, bytes | None]]:
    """The results of files handed to the workers as they were read
    (:class:`Started`), in order, each as :func:`_extract_in_pool` gives it;
    one not handed over, or left when the pool broke, extracted here."""
    from concurrent.futures.process import BrokenProcessPool

    done: list[tuple[SourceResult, bytes | None]] = []
    broken = False
    for read in pending:
        future = None if broken else started.get(read.path)
        if future is not None:
            try:
                result, had_lines, encoded = future.result()
            except (BrokenProcessPool, OSError):
                broken = True  # (a file's own error never gets here: an extraction turns it into a note)
            else:
                if had_lines:
                    result = replace(result, lines=read.text.split("\n"))
                done.append((result, encoded))
                if on_result is not None:
                    on_result(result)
                continue
        done.append((_extract_one(extract, read.path, read.text, read.kind, read.env, project, read.importer, read.launching), None))
    return done


def _extract_one(extract: Extract, path: str, text: str, kind: FileKind, env, project: ProjectFiles | None, importer: str, launching: LaunchingNames = ()) -> SourceResult:
    """``extract`` of one file; an importer (``ReadFile.importer``) past the
    text pre-check its source applies, with what the modules of the run that
    spell no launch launch through (``ReadFile.launching``)."""
    if importer == TOO_DEEP:
        ((module, (name,)),) = launching
        return SourceResult(path=path, notes=[_named_too_deep(path, text, module, name)])
    if launching:
        return extract(path, text, kind, env, project, precheck=False, launcher_imported=importer == "launcher", launching=dict(launching))  # type: ignore[call-arg]
    if importer:
        return extract(path, text, kind, env, project, precheck=False, launcher_imported=importer == "launcher")  # type: ignore[call-arg]
    return extract(path, text, kind, env, project)


def _extract_job(item: tuple[str, str, FileKind, Mapping[str, str] | None, ProjectFiles | None, bool, str, LaunchingNames]) -> tuple[SourceResult, bool, bytes | None]:
    from sglang_lint.sources import extract

    path, text, kind, env, project, encode, importer, launching = item
    result = _extract_one(extract, path, text, kind, env, project, importer, launching)
    encoded = None
    if encode:
        from sglang_lint.cache import encode_result_json

        encoded = encode_result_json(result)
    had_lines = bool(result.lines)
    return (replace(result, lines=[]) if had_lines else result), had_lines, encoded


# Rounds of the cross-file pre-check: a file found in one may export a launcher
# (or re-export one) that files found in the next import. Chains of helpers are
# short; past this many the files left are not analyzed.
MAX_IMPORT_ROUNDS = 4


def extract_importers(files: Sequence[ReadFile], results: list[SourceResult], extract_all: Callable[[list[ReadFile]], list[SourceResult]], *, digests: bool) -> list[ReadFile]:
    """The cross-file pre-check (issue 20): a Python file the pre-check
    dismissed (it spells no launch) that imports a name another file of the run
    exports (SourceResult.exports: a function a launch was made through, a
    class that launches) is read and extracted after all, its result replacing
    the empty one in ``results`` (in the order of ``files``); likewise, round
    after round, for files importing what those export or re-export by name.
    An import is matched to the files it may name as Python would find them
    (:class:`ExportIndex`); the Python source then resolves it itself and
    runs the file only if a statement can reach a launch; a call of a name a
    file of an earlier round exports (a file that spells no launch: a wrapper
    of a launcher) it follows as it follows one of a module that spells a
    launch (``ReadFile.launching``), so a wrapper of that wrapper launches
    too. ``extract_all``
    extracts files as the run's others were (:func:`extract_read` with its
    cache and workers); ``digests``: give the files read again their cache
    keys. Returns the files extracted so (read again)."""
    index = ExportIndex()
    for read, result in zip(files, results):
        if result.exports:
            index.add(read.path, result.exports, direct=True)
    done: set[int] = set()
    extracted: list[ReadFile] = []
    launching: dict[str, tuple[str, ...]] = {}
    for _ in range(MAX_IMPORT_ROUNDS):
        found = _importing(files, done, index)
        if not found:
            break
        done.update(position for position, _ in found)
        handed = tuple(sorted(launching.items()))
        reads = [again for position, _ in found if (again := read_again(files[position], "launcher", digests=digests, launching=handed)) is not None]
        round_results = extract_all(reads)
        by_path = {read.path: result for read, result in zip(reads, round_results)}
        index = ExportIndex()
        for position, names in found:
            result = by_path.get(files[position].path)
            if result is None:
                continue
            results[position] = result
            if result.exports:
                index.add(files[position].path, result.exports, direct=True)
                launching[files[position].path] = tuple(sorted(result.exports))
            # `from .helpers import start` in a package's __init__.py: `from
            # pkg import start` names it too (by name only: `import pkg` is
            # no call of it).
            index.add(files[position].path, names, direct=False)
        extracted.extend(reads)
    else:
        # The rounds are spent and the last one's files export: a file
        # importing one of those launches through more wrappers than are
        # followed. Said where it imports it, never dropped silently; read
        # again, so that the run's findings are checked against its text.
        for position, _ in _importing(files, done, index):
            again = read_again(files[position], "", digests=digests)
            if again is not None:
                results[position] = SourceResult(path=again.path, notes=[wrappers_too_deep(again.path, imports_of(files[position]), again.text, index)])
                extracted.append(again)
    return extracted


def _importing(files: Sequence[ReadFile], done: set[int], index: ExportIndex) -> list[tuple[int, set[str]]]:
    """The positions of the dismissed Python files not read again yet that
    import a name ``index`` holds, with those names."""
    if not index:
        return []
    found: list[tuple[int, set[str]]] = []
    for position, read in enumerate(files):
        if read.candidate or position in done or not scanned_imports(read):
            continue
        names = index.launchers_imported(read.path, imports_of(read))
        if names:
            found.append((position, names))
    return found


def wrappers_too_deep(path: str, imports: Iterable[tuple[str, str]], text: str, index: ExportIndex) -> Note:
    """The note of the file ``path`` (its ``imports``, :func:`imports_of`, and
    ``text``) that imports what the last round of the cross-file pre-check
    exported (``index``): at that import, naming it (:func:`extract_importers`,
    and the language server's index)."""
    matching = [(module, name) for module, name in imports if index.launchers_imported(path, [(module, name)])]
    module, name = matching[0] if matching else ("", "")
    return _named_too_deep(path, text, module, name)


def _named_too_deep(path: str, text: str, module: str, name: str) -> Note:
    """The note of a file whose import of ``name`` from ``module`` may launch
    only through more wrapper modules than are followed, at that import (a
    walk's last round, :func:`wrappers_too_deep`; a file named alone, ``TOO_DEEP``)."""
    line, column = _import_position(text, module, name)
    what = f"`{name}` from {module}" if name and name != "*" else module or "an import of this file"
    return Note(
        path,
        f"launch not analyzed: {what} may launch through a chain of more than {MAX_WRAPPER_DEPTH} wrapper modules; "
        f"sglang-lint follows wrappers (functions calling a launcher of another module) {MAX_WRAPPER_DEPTH} modules deep",
        line,
        column,
    )


def _import_position(text: str, module: str, name: str) -> tuple[int, int]:
    """Where ``text`` imports ``name`` from ``module`` (as imports_of gives
    them: ``name`` "" for ``import module``); (1, 1) when no statement of it
    says (or it is not valid Python)."""
    import ast

    from sglang_lint.sources.python_outline import parse_python

    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return 1, 1
    level = len(module) - len(module.lstrip("."))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == level and (node.module or "") == module[level:] and any(alias.name == name for alias in node.names):
            return node.lineno, node.col_offset + 1
        if isinstance(node, ast.Import) and not name and any(alias.name == module for alias in node.names):
            return node.lineno, node.col_offset + 1
    return 1, 1


class ExportIndex:
    """The exports of the files of a run by the module each file is, matched
    to an import as Python finds modules (sources.python_imports): a relative
    import by its package directory, an absolute one by the end of the path
    (``from a.b import c`` names ``.../a/b.py`` wherever ``sys.path`` starts)."""

    def __init__(self) -> None:
        # the module's last part -> (its parts: the absolute path's; the names; exported by its own analysis)
        self._by_last: dict[str, list[tuple[tuple[str, ...], frozenset[str], bool]]] = {}

    def __bool__(self) -> bool:
        return bool(self._by_last)

    def add(self, path: str, names: Iterable[str], *, direct: bool) -> None:
        parts = _module_parts(path)
        names = frozenset(names)
        if parts and names:
            self._by_last.setdefault(parts[-1], []).append((parts, names, direct))

    def launchers_imported(self, importer: str, imports: Iterable[tuple[str, str]]) -> set[str]:
        """The exported names ``imports`` (of the file ``importer``) may bind:
        ``from m import start``; ``from m import *`` and ``import a.m`` (then
        ``m.start(...)``: what ``m`` exports itself, not what it re-exports),
        and ``from a import m`` likewise."""
        names: set[str] = set()
        for module, name in imports:
            found = _import_target(importer, module)
            if found is None:
                continue
            target, exact = found
            for _, exported, direct in self._matches(target, exact):
                if name == "*" or (not name and direct):
                    names.update(exported)
                elif name in exported:
                    names.add(name)
            if name and name != "*":
                for _, exported, direct in self._matches(target + (name,), exact):
                    if direct:
                        names.update(exported)  # a module of the package
        return names

    def last_parts(self) -> set[str]:
        """The last names of the modules that export (see :func:`import_last_parts`)."""
        return set(self._by_last)

    def _matches(self, target: tuple[str, ...], exact: bool) -> list[tuple[tuple[str, ...], frozenset[str], bool]]:
        if not target:
            return []
        return [entry for entry in self._by_last.get(target[-1], ()) if (entry[0] == target if exact else entry[0][-len(target) :] == target)]


def _import_target(importer: str, module: str) -> tuple[tuple[str, ...], bool] | None:
    """The module parts an import of ``module`` (dots and all) from the file
    ``importer`` names, and whether they are exact (a relative import: from
    the file system's root) or a path's end (an absolute one); None past the
    root."""
    level = len(module) - len(module.lstrip("."))
    dotted = tuple(part for part in module[level:].split(".") if part)
    if not level:
        return dotted, False
    base = _directory_parts(importer)
    if level - 1 > len(base):
        return None
    return base[: len(base) - (level - 1)] + dotted, True


def import_last_parts(importer: str, imports: Iterable[tuple[str, str]]) -> set[str]:
    """The last names of the modules ``imports`` may name (the module, and
    for ``from a import m`` the submodule ``m``): an :class:`ExportIndex` can
    match an import only through one of them (the editor's index keeps which
    files import which, and on an edit looks at those only)."""
    parts: set[str] = set()
    for module, name in imports:
        found = _import_target(importer, module)
        if found is None:
            continue
        target = found[0]
        if target:
            parts.add(target[-1])
        if name and name != "*":
            parts.add(name)
    return parts


def _directory_parts(path: str) -> tuple[str, ...]:
    return tuple(part for part in os.path.dirname(os.path.abspath(path)).split(os.sep) if part)


def _module_parts(path: str) -> tuple[str, ...]:
    """The module a Python file is, as the parts of its absolute path
    (``/r/pkg/helpers.py`` -> ``r, pkg, helpers``; a package's ``__init__.py``
    is its directory)."""
    directory = _directory_parts(path)
    name = os.path.basename(path)
    stem = name[:-3] if name.endswith(".py") else name
    return directory if stem == "__init__" else directory + (stem,)


def read_text_again(read: ReadFile) -> str | None:
    """The text of a file the pre-check dismissed on its bytes (its buffer's
    text when it has one), or None when it cannot be read now."""
    return text_now(read.path, read.text or None)


def text_now(path: str, buffer: str | None) -> str | None:
    """The text of ``path``: ``buffer`` (an editor's, standard input's) when
    there is one, else its bytes decoded as a file's are; None when it cannot
    be read or decoded now."""
    if buffer:
        return buffer
    data, _ = read_bytes(path)
    if data is None:
        return None
    text, _ = decode_source(path, data)
    return text


def read_again(read: ReadFile, importer: str, *, digests: bool, launching: LaunchingNames = ()) -> ReadFile | None:
    """A dismissed file read as a candidate (its text and digests): an
    ``importer`` (see ``ReadFile.importer`` and ``ReadFile.launching``); None
    when it cannot be read again."""
    text = read_text_again(read)  # (an editor's buffer, standard input: its text)
    if text is None:
        return None
    again = ReadFile(read.path, text, read.kind, read.env, True, importer=importer, launching=launching)
    if digests:
        from sglang_lint.cache import env_digest, text_digest

        again.digest, again.env_key = text_digest(text), env_digest(read.env)
    return again


# Imports of a named file looked up by :func:`importing_launchers` (a module
# with hundreds is no deployment script), and the named files it looks at: more
# (pre-commit --all-files names every file) are a walk, whose launchers are
# among the files of the run (:func:`extract_importers`).
MAX_NAMED_IMPORTS = 64
MAX_NAMED_FILES = 64


def importing_launchers(files: Sequence[ReadFile], project: ProjectFiles, *, stable: bool = False) -> list[ReadFile]:
    """``files`` (named one by one: pre-commit, an editor) with each Python file
    the pre-check dismissed that imports a definition of the project that may
    launch (:func:`imports_a_launching_definition`) read again as an importer
    ("module", or "launcher" through a wrapper): such a file is judged without
    the rest of the tree, so the module is looked up where the import points,
    not among the exports of the files of the run. The Python source then
    decides, on the parsed file, whether a statement can reach a launch (a
    "launcher" runs its statements). ``stable``: no file changes during the
    run's process (a flake8 run, :func:`imports_a_launching_definition`)."""
    from sglang_lint.sources.project import run_cache

    if len(files) > MAX_NAMED_FILES:
        return list(files)
    # (the run's: the listing of the tree is made once for these and the analyses)
    cache = run_cache(project)
    known = cache.lasting if cache is not None else {}
    chosen: list[ReadFile] = []
    for read in files:
        if read.candidate or read.kind is not FileKind.PYTHON or not scanned_imports(read):
            chosen.append(read)
            continue
        kind, wrappers = launching_imports(read.path, imports_of(read), project, known, stable=stable)
        again = read_again(read, kind, digests=True, launching=wrappers) if kind else None
        chosen.append(again if again is not None else read)
    return chosen


def imports_a_launching_definition(
    path: str, imports: Sequence[tuple[str, str]], project: ProjectFiles, known: MutableMapping[tuple, Any], *, stable: bool = False
) -> str:
    """Whether the Python file ``path``, with these ``(module, name)``
    imports (:func:`imports_of`, the first :data:`MAX_NAMED_IMPORTS`), imports
    a definition of the project that may launch, told from its module's text
    (:func:`launching_definitions`), or a module (``import pkg.helpers``,
    ``from pkg import helpers``) that has one: "module" when a module it
    imports spells the launch itself (the Python source's own check then
    decides what reaches it), "launcher" when only through a wrapper module
    (its statements are run, as a walk of the tree runs them: the Python
    source's module reach does not follow a module that spells no launch),
    "" when neither. (Any import of a module whose text may launch was too
    many: 11 of 20 of SGLang's scheduler modules import one, 0.1 -> 0.9 s.)

    ``known``: where what holds while no file is created or deleted is kept
    (RunCache.lasting): where each import's modules lie, and each module's
    launching definitions with the stat they were read at; the flake8 plugin
    asks this of every file it is handed, and on SGLang's tree they import
    the same few hundred modules. ``stable``: no file changes while ``known``
    is kept (one flake8 run), so what a module may launch is told once,
    without its stat."""
    return launching_imports(path, imports, project, known, stable=stable, kind_only=True)[0]


def launching_imports(
    path: str, imports: Sequence[tuple[str, str]], project: ProjectFiles, known: MutableMapping[tuple, Any], *, stable: bool = False, kind_only: bool = False
) -> tuple[str, LaunchingNames]:
    """:func:`imports_a_launching_definition`'s kind, and the wrapper modules
    (absolute paths, each with the names it launches through) the file's
    imports rest on: what the Python source is handed to follow a call of
    one (``ReadFile.launching``: its module reach does not follow a module
    that spells no launch). ``kind_only``: a "module" answers at once."""
    here = os.path.abspath(path)
    directory = os.path.dirname(here)
    kind = ""
    wrappers: dict[str, frozenset[str]] = {}
    checked: dict[tuple[str, int, bool], Launching] = {}
    too_deep: tuple[str, str] | None = None
    for module, name in imports[:MAX_NAMED_IMPORTS]:
        for found, taken in _import_targets(directory, module, name, project, known):
            if found == here:
                continue
            launching = _launching_definitions_of(found, project, known, stable, checked=checked)
            whole = taken in ("", "*")
            if not (taken in launching.names or (whole and launching.names)):
                if too_deep is None and (taken in launching.beyond or (whole and launching.beyond)):
                    too_deep = (module, name)
                continue  # (what a module spells itself is among its names)
            if taken in launching.direct or (whole and launching.direct):
                if kind_only:
                    return "module", ()  # (the other files the import may name need not be read)
                kind = "module"
            elif not kind:
                kind = "launcher"
            _add_wrappers(wrappers, launching.wrappers)
    if not kind and too_deep is not None:
        # (the import the note is put at, as a walk's last round says it)
        return TOO_DEEP, ((too_deep[0], (too_deep[1],)),)
    return kind, tuple(sorted((wrapper, tuple(sorted(names))) for wrapper, names in wrappers.items()))


def _add_wrappers(into: dict[str, frozenset[str]], wrappers: Iterable[tuple[str, frozenset[str]]]) -> None:
    """Merge ``wrappers`` (Launching.wrappers) into ``into``: a module's names
    from every chain that reaches it."""
    for wrapper, names in wrappers:
        into[wrapper] = into.get(wrapper, frozenset()) | names


# The importer kind of a file named alone whose import launches only through
# one wrapper module more than are followed (its ``launching``: that import's
# module and name): it gets the note a walk's last round gives.
TOO_DEEP = "too deep"


# How many wrappers deep a file named alone is followed: a wrapper of the
# helper, a wrapper of that wrapper, ... as the rounds of a walk
# (:data:`MAX_IMPORT_ROUNDS`: the helper's own file is the first) follow them.
MAX_WRAPPER_DEPTH = MAX_IMPORT_ROUNDS - 1


class Launching(NamedTuple):
    """The definitions of a module that may launch (:func:`launching_definitions`):
    all of them, and those whose module spells the launch itself (not only
    through a definition it imports: a wrapper's, which the Python source's
    own check does not see, python_interpreter's module reach; and those it
    passes on, as a package's ``__init__.py`` does); the wrapper modules
    they rest on, this one among them when it is one (absolute path, the
    names it launches through); and those its own text spells (not passed
    on): a class of a module importing one of those that derives or calls
    it may launch, of one importing any other only a function calling it
    (launching_definitions' ``functions_only``)."""

    names: frozenset[str]
    direct: frozenset[str]
    wrappers: tuple[tuple[str, frozenset[str]], ...] = ()
    spelled: frozenset[str] = frozenset()
    # The definitions that launch only through one wrapper more than the
    # depth follows (told one level past it): a file importing one gets the
    # note a walk's last round gives (named_too_deep), not silence.
    beyond: frozenset[str] = frozenset()


def _launching_definitions_of(
    absolute: str,
    project: ProjectFiles,
    known: MutableMapping[tuple, Any],
    stable: bool,
    depth: int = MAX_WRAPPER_DEPTH,
    checked: dict[tuple[str, int, bool], Launching] | None = None,
    shallow: bool = False,
) -> Launching:
    """What the module at ``absolute`` may launch through, as it reads now:
    the definitions that spell a launch (:func:`launching_definitions`), and
    those that call or derive one its imports take from a module of the
    project that does (a wrapper: ``from helpers import start`` and ``def
    start_pd(): start(...)``; a package's ``__init__.py`` passing ``start``
    on), to ``depth`` wrappers deep: an import's module is judged the same
    way one level less deep, its own text's definitions alone at the last.
    A pure function of the texts and the depth: never of the order modules
    are asked in (a chain followed with a memo of whatever was reached
    first, or around an import cycle, gave each module what the first file
    to ask had reached); an import cycle ends with the depth. Before, a
    script calling a wrapper was found by a walk, never when named alone or
    by flake8; then, one wrapper deep, a wrapper of a wrapper.

    Kept in ``known`` with the file's stat and what its imports gave, and
    told again when either differs (a file edited since, in an editor's
    session; not when ``stable``); an unsaved buffer (``project.texts``) is
    told from its text each time. ``checked``: the answers told or checked
    for the question being answered (one file's imports), each module at
    each depth once: checking a kept answer checks its imports' and theirs,
    and without it a module imported by many along the chains was checked
    once for each (a flake8 run over SGLang's tree: +19% of its time).

    ``shallow``: the answer one level past the depth, for ``beyond`` (its
    own imports judged from their texts alone, and nothing beyond them)."""
    if checked is None:
        checked = {}
    told = checked.get((absolute, depth, shallow))
    if told is not None:
        return told
    key = ("launching", absolute, depth, shallow)
    kept = known.get(key) if absolute not in project.texts else None
    if stable and kept is not None:
        checked[(absolute, depth, shallow)] = kept[1]
        return kept[1]
    facts = _module_facts(absolute, project, known, stable)
    # (a fact read again, its file's stat changed, is another object)
    if kept is not None and kept[0] is facts and all(_imported_launching(path, project, known, stable, depth, checked, shallow) == then for path, then in kept[2]):
        checked[(absolute, depth, shallow)] = kept[1]
        return kept[1]
    direct, imports = facts
    imported: set[str] = set()
    wrapped: set[str] = set()  # (names of wrappers: functions calling them count, launching_definitions)
    passed_on: set[str] = set()  # (`from .helpers import start` in a package's __init__.py)
    deeper: set[str] = set()  # (names that launch past the depth: ``beyond``)
    deeper_passed_on: set[str] = set()
    through: list[tuple[str, Launching]] = []
    wrappers: dict[str, frozenset[str]] = {}
    directory = os.path.dirname(absolute)
    for module, name in imports:
        for found, taken in _import_targets(directory, module, name, project, known):
            if found == absolute:
                continue
            theirs = _imported_launching(found, project, known, stable, depth, checked, shallow)
            through.append((found, theirs))
            names = theirs.names
            if taken in ("", "*"):
                imported.update(theirs.spelled)  # (`helpers.start(...)`: the call names `start`)
                wrapped.update(names - theirs.spelled)
                deeper.update(theirs.beyond)
            elif taken in names:
                (imported if taken in theirs.spelled else wrapped).add(taken)
                passed_on.add(taken)
            elif taken in theirs.beyond:
                deeper.add(taken)
                deeper_passed_on.add(taken)
                continue
            else:
                continue
            _add_wrappers(wrappers, theirs.wrappers)
    names = direct
    beyond: frozenset[str] = frozenset()
    if imported or wrapped or deeper:
        text = _module_text(absolute, project)  # (read again: a wrapper is rare)
        if text is not None:
            names = launching_definitions(text, frozenset(imported)) if imported else direct
            if wrapped:
                names |= launching_definitions(text, frozenset(wrapped), functions_only=True)
            if deeper:
                beyond = launching_definitions(text, frozenset(deeper), functions_only=True) - names
        beyond = (beyond | deeper_passed_on) - names - passed_on
    if names - direct:
        _add_wrappers(wrappers, [(absolute, names - direct)])
    launching = Launching(names | passed_on, direct | passed_on, tuple(sorted(wrappers.items())) if wrappers else (), direct, beyond)
    if absolute not in project.texts:
        # (``stable``: never checked again; what it rested on is not kept,
        # flake8's collector walks all that a flake8 run keeps)
        known[key] = (None, launching, ()) if stable else (facts, launching, tuple(through))
    checked[(absolute, depth, shallow)] = launching
    return launching


def _imported_launching(
    found: str, project: ProjectFiles, known: MutableMapping[tuple, Any], stable: bool, depth: int, checked: dict[tuple[str, int, bool], Launching], shallow: bool = False
) -> Launching:
    """What the module at ``found`` launches through as a module importing it
    at ``depth`` sees it: judged one level less deep, or, at the last level,
    from its own text's definitions alone, with what one level more would add
    as ``beyond`` (unless ``shallow``: that level itself)."""
    if depth > 1:
        return _launching_definitions_of(found, project, known, stable, depth - 1, checked, shallow)
    direct = _module_facts(found, project, known, stable)[0]
    if shallow:
        return Launching(direct, direct, (), direct)
    past = _launching_definitions_of(found, project, known, stable, 1, checked, shallow=True)
    return Launching(direct, direct, (), direct, past.names - direct)


def _module_facts(absolute: str, project: ProjectFiles, known: MutableMapping[tuple, Any], stable: bool) -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """What the module at ``absolute`` tells from its own text, read once:
    :func:`launching_definitions` (the definitions that spell a launch, or
    call or derive one of its own that does) and its first
    :data:`MAX_NAMED_IMPORTS` imports (:func:`imported_names`); kept in
    ``known`` with the file's stat (without it when ``stable``)."""
    if absolute in project.texts:
        return _facts_of(project.texts[absolute])
    key = ("module facts", absolute)
    kept = known.get(key)
    if stable and kept is not None:
        return kept[1]
    signature = None if stable else _signature(absolute)
    if kept is not None and signature is not None and kept[0] == signature:
        return kept[1]
    text = _module_text(absolute, project)
    facts = _facts_of(text) if text is not None else (frozenset(), ())
    if stable or signature is not None:
        known[key] = (signature, facts)
    return facts


def _facts_of(text: str) -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    imports = imported_names(text.encode("utf-8", "surrogatepass"))[:MAX_NAMED_IMPORTS] if "import" in text else ()
    return launching_definitions(text), tuple(imports)


def _import_targets(directory: str, module: str, name: str, project: ProjectFiles, known: MutableMapping[tuple, Any]) -> list[tuple[str, str]]:
    """The files (absolute) an import ``(module, name)`` of a file of
    ``directory`` may take from the project (:func:`imported_names`' pairs),
    each with the name it takes there ("" for the module itself: ``import
    pkg.helpers``; also ``from pkg import helpers``, which may take a
    module); none for the standard library."""
    key = ("import targets", directory, module, name, project.roots)
    targets = known.get(key)
    if targets is not None:
        return targets
    from sglang_lint.sources.python_imports import module_candidates

    level = len(module) - len(module.lstrip("."))
    dotted = module[level:]
    if not level and dotted.split(".")[0] in sys.stdlib_module_names:
        targets = []
    else:
        targets = [(found, name) for found in module_candidates(directory, dotted, level, project.roots, known)]
        if name and name != "*":
            targets += [(found, "") for found in module_candidates(directory, f"{dotted}.{name}" if dotted else name, level, project.roots, known)]
    known[key] = targets
    return targets


def _signature(absolute: str) -> tuple[int, ...] | None:
    """The stat a kept answer about a file holds for (cache.stat_key); None
    when there is none."""
    from sglang_lint.cache import stat_key

    try:
        return stat_key(os.stat(absolute))
    except (OSError, ValueError):
        return None


def _module_text(absolute: str, project: ProjectFiles) -> str | None:
    return project.texts.get(absolute) if absolute in project.texts else project.read(absolute)[0]


# What a definition's text spells when it may launch: an entry (as the
# pre-check knows them), a process started (the pre-check's runner words alone,
# `exec`, `system`, are in every module: `executor`, `filesystem`), a fixture.
_LAUNCH_WORDS = (
    "launch_server",
    "popen_launch",
    "popen_with_error_check",
    "ServerArgs(",
    "LLMConfig",
    "build_pd_openai_app",
    "SGLangServer",
    "Engine(",
    "sglang serve",
    "dynamo.sglang",
    "sglang_router",
    "sglang-router",
    "launch_router",
    *PROCESS_MARKERS,
    "ServerBase",
    "server_fixtures",
)


def launching_definitions(text: str, imported: frozenset[str] = frozenset(), *, functions_only: bool = False) -> frozenset[str]:
    """The top-level functions and classes of a module's ``text`` that may
    launch, told from the text: the module passes the pre-check, and the
    definition's text (to the next top-level ``def`` or ``class``) spells a
    launch (:data:`_LAUNCH_WORDS`), calls another such definition or derives
    one; or it calls or derives one of ``imported``, the names of launching
    definitions of other modules (a wrapper module of a helper, which spells
    no launch itself). Generous (a word in a docstring counts); the names the
    pre-check itself knows (``ServerArgs``, ``Engine``, ``launch_server``,
    ...) are left out: a file that launches through them spells them.

    ``functions_only``: only functions that call one of ``imported`` (or a
    function of the module that does) count, not classes nor what a class
    derives: ``imported`` are a wrapper's names (a wrapper of a wrapper is a
    function calling a function; classes deriving classes through the
    re-exports of packages, each found by a word in a comment, made 46 of
    SGLang's diffusion pipelines "launchers")."""
    spells = python_may_run_a_launch(text)
    if not spells and not imported:
        return frozenset()
    bodies: dict[str, str] = {}
    name, start = None, 0
    for match in _TOP_LEVEL.finditer(text):
        if name is not None:
            bodies[name] = text[start : match.start()]
        name, start = match.group(1), match.start()
    if name is not None:
        bodies[name] = text[start:]
    if functions_only:
        # (a decorator's lines fall in the definition before: a body starts
        # with its own header)
        bodies = {name: body for name, body in bodies.items() if not body.startswith("class")}
        spells = False
    launching = {name for name, body in bodies.items() if any(word in body for word in _LAUNCH_WORDS)} if spells else set()
    # What each other definition calls, and the bases of a class.
    uses = {name: set(_CALLED.findall(body)) | (set() if functions_only else set(_WORD.findall(_bases(body)))) for name, body in bodies.items() if name not in launching}
    grew = True
    while grew:
        grew = False
        for name, used in uses.items():
            if name not in launching and (not used.isdisjoint(launching) or not used.isdisjoint(imported)):
                launching.add(name)
                grew = True
    return frozenset(launching - _PRECHECK_NAMES)


def _bases(definition: str) -> str:
    """The text between a ``class`` header's parentheses ("" for a function)."""
    if not definition.startswith("class"):
        return ""
    header = definition[: definition.find(":") if ":" in definition else len(definition)]
    return header[header.find("(") + 1 :] if "(" in header else ""


# A top-level definition and its name (a decorator's lines fall in the
# definition before: more text for it, never less for any).
_TOP_LEVEL = re.compile(r"^(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)", re.MULTILINE)
_CALLED = re.compile(r"(\w+)[ \t]*\(")
_WORD = re.compile(r"\w+")
_PRECHECK_NAMES = frozenset({"ServerArgs", "Engine", "launch_server", "popen_launch_server", "popen_launch_pd_server", "popen_with_error_check", "LLMConfig", "build_pd_openai_app", "SGLangServer"})
