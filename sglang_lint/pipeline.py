"""The pipeline: the one orchestrator, and the analysis API the adapters (the
CLI, the flake8 plugin, the language server's workspace) call: files in,
findings and deployments out (``lint_paths``).

discover -> extract (parallel, cached: extraction) -> catalog -> topology ->
rules -> suppression (analysis) -> (report, by the callers)
"""

from __future__ import annotations

import os
import uuid
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

from msgspec import Struct
from msgspec.structs import replace

from sglang_lint.catalog.tables import run_version  # noqa: F401 - re-exported
from sglang_lint.config import Config, ConfigResolver, check_manifest, discovery_start, distinct_configs
from sglang_lint.files import (
    ExcludeSet,
    FileKind,
    decode_source,
    discover,
    display_name,
    excluded_path,
    is_inside,
    shebang_kind,
    source_kind,
)
from sglang_lint.model import Finding, Note, SourceResult, gives_nothing
from sglang_lint.options import LintOptions, LintResult  # noqa: F401 - the API's records, re-exported
from sglang_lint.sources import SOURCES, extract, source_for  # noqa: F401 - re-exported
from sglang_lint.sources.project import ProjectFiles

_source = source_for  # the name the tests and older callers use

# The cycle collector's thresholds while files are analyzed (the command line,
# the editor's server, the flake8 plugin around each file). An analysis
# allocates millions of short-lived objects that reference counting frees, no
# cycles among them (PythonInterpreter.release); Python's default (a pass per
# 700 allocations, walking every live tree) took a sixth of a cold run on
# SGLang's tree (14.1 s -> 11.8 s, the same peak memory).
ANALYSIS_GC_THRESHOLD = (50_000, 20, 100)

if TYPE_CHECKING:
    from sglang_lint.topology import Deployment


def analyze_results(
    results: list[SourceResult],
    options: LintOptions,
    configs: Mapping[str, Config] | None = None,
    extra_notes: Iterable[Note] = (),
    probes: list[tuple[str, str | None]] | None = None,
    cataloged_files: Mapping[int, object] | None = None,
    texts: Mapping[str, str] | None = None,
) -> LintResult:
    """Topology, rules and suppression over the sources' results (see
    analysis.analyze_results). When no file gave the sources anything (no launch,
    comment, note or continuation break), nothing is left to analyze but the
    notes about unreadable files, and the analysis stage is not even imported."""
    if all(gives_nothing(result) for result in results):
        return _notes_only(results, options, configs or {}, list(extra_notes))
    from sglang_lint.analysis import analyze_results as analyze

    return analyze(results, options, configs, extra_notes, probes, cataloged_files, texts)  # type: ignore[arg-type]


def cataloger(options: LintOptions, into: dict[int, object], texts: Mapping[str, str] | None = None) -> Callable[[SourceResult], None]:
    """What to do with each result a worker process sends while the others are
    extracted: its catalog stage (analysis.catalog_file), which depends on no
    other file. The parent process would otherwise wait idle, then do it for
    every file after the last one arrived (a fifth of a parallel run)."""
    versions = None

    def catalog(result: SourceResult) -> None:
        nonlocal versions
        if gives_nothing(result):
            return
        from sglang_lint.analysis import catalog_file, version_policy
        from sglang_lint.catalog.tables import UnknownVersionError, load_table

        if versions is None:
            try:
                load_table(run_version(options))
            except (UnknownVersionError, ValueError):
                return  # the analysis stage reports it
            versions = version_policy(options)
        into[id(result)] = catalog_file(result, versions, texts)

    return catalog


def _notes_only(results: list[SourceResult], options: LintOptions, configs: Mapping[str, Config], notes: list[Note]) -> LintResult:
    """The result of a run in which no file launches anything: no deployment, and
    the notes about unreadable files as findings, selected as the analysis stage
    would select them."""
    from sglang_lint.catalog.tables import check_version
    from sglang_lint.selection import Selection, internal_finding

    version = run_version(options)
    check_version(version)  # an unknown version is an error whether or not anything launches
    lint = LintResult(version=version, files_checked=len(results), config=options.config)
    lint.sources = {result.path: result.lines for result in results}
    selection = Selection(options, configs, distinct_configs([options.config, *configs.values()]), {})
    findings = [finding for finding in map(internal_finding, notes) if selection.keeps(finding)]
    lint.findings = sorted(dict.fromkeys(findings), key=Finding.sort_key)
    return lint


def lint_texts(files: Mapping[str, str], options: LintOptions | None = None) -> LintResult:
    """Analyze in-memory files (path -> text); the kind comes from each path. No
    config file is looked for; a manifest in ``options.config`` must match some of
    the paths (else ConfigError)."""
    options = options or LintOptions()
    if options.config is not None:
        check_manifest(options.config.deployments, files)
    results = []
    # A file sources the others given, never one on disk.
    project = project_files(options, list(files), {os.path.abspath(path): text for path, text in files.items()}, disk=False)
    for path, text in files.items():
        kind = source_kind(path, text)
        if kind is None:
            continue
        results.append(extract(path, text, kind, options.config.env_map if options.config is not None else None, project))
    return analyze_results(results, options)


def project_files(options: LintOptions, paths: Sequence[str], texts: Mapping[str, str] | None = None, *, disk: bool = True) -> ProjectFiles:
    """Where the sources of a run may read other files (a shell script's
    ``source``d helpers): the project, that is the directory of the run's root
    config file (pyproject.toml, sglang-lint.toml), else the working directory;
    and each of ``paths`` (a directory, or a file's directory) that lies outside
    it, so that a run over a checkout elsewhere reads that checkout. ``texts``:
    absolute path -> text of files read instead of the disk (unsaved buffers)."""
    config = options.config
    root = config.root if config is not None and config.root is not None else os.getcwd()
    roots = [os.path.realpath(root)]
    for path in paths:
        directory = os.path.realpath(path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path)))
        if not any(is_inside(directory, known) for known in roots):
            roots.append(directory)
    return ProjectFiles(tuple(roots), dict(texts or {}), disk, config.follow_installed if config is not None else True, run=uuid.uuid4().hex)


STDIN = "-"


class StdinFile(Struct):
    """Standard input given as ``-``: its bytes and the name it is analyzed and
    reported under (``--stdin-filename``; ``-`` when there is none). Also a
    file a caller has read already (the flake8 plugin: ``text``, and ``kind``
    when the caller, not the name, decides what the file is)."""

    data: bytes | None
    filename: str | None = None
    # A Note instead of data (too large, unreadable).
    note: Note | None = None
    # The decoded text, when the caller decoded it (``data`` is then unused).
    text: str | None = None
    kind: FileKind | None = None
    # How the caller judged the imports of a file that spells no launch
    # (extraction.launching_imports: the importer kind, "" for none, and the
    # wrappers its imports rest on), not judged again: the flake8 plugin
    # judges every file it is handed, with what it keeps for the run.
    judged: tuple[str, tuple] | None = None

    @property
    def display(self) -> str:
        return display_name(self.filename) if self.filename else STDIN


def _stdin_result(
    stdin: StdinFile, env: Mapping[str, str] | None = None, project: ProjectFiles | None = None, cache=None, fresh=None, stable: bool = False
) -> tuple[SourceResult | None, Note | None]:
    """Decode standard input as files are decoded; its kind comes from the name
    (suffix, else shebang), and without a name it is read as a shell script.
    ``cache``: the caller's extraction cache (the flake8 plugin's), which a
    named standard input is looked up in and stored to like any file, keyed by
    its text: flake8 hands every file in as standard input, and re-running it
    over unchanged files analyzed each one again (issue 24). ``stable``: no
    file changes while the process runs (a flake8 run: what the modules it
    imports launch through is told once for all its files)."""
    display = stdin.display
    if stdin.text is not None:
        text, note = stdin.text, None
    elif stdin.note is not None or stdin.data is None:
        return None, stdin.note
    else:
        text, note = decode_source(display, stdin.data)
    if text is None:
        return None, note
    if stdin.kind is not None:
        kind: FileKind | None = stdin.kind
    else:
        kind = source_kind(display, text) if stdin.filename else (shebang_kind(text) or FileKind.SHELL)
    if kind is None:
        return None, Note(
            display,
            "not a file sglang-lint reads (*.sh, *.bash, *.py, *.yaml, *.yml, *.md, or a shell or Python shebang); skipped",
        )
    if not stdin.filename:
        return extract(display, text, kind, env, project), note
    from sglang_lint.extraction import FileJob, classify_text, extract_read, importing_launchers, read_again

    read = classify_text(FileJob(display, env), text, kind, digests=True)
    if not read.candidate:
        # (an editor's buffer that only calls a launcher of the project)
        if stdin.judged is None:
            read = importing_launchers([read], project, stable=stable)[0]
        elif stdin.judged[0]:
            importer, wrappers = stdin.judged
            read = read_again(read, importer, digests=True, launching=wrappers) or read
        if not read.candidate:
            return extract(display, text, kind, env, project), note  # (dismissed, with its lines)
    # Looked up and stored under the key any file of a run is (extract_read).
    return extract_read([read], extract, cache=cache, processes=1, project=project, fresh=fresh).results[0], note


class RunFiles(Struct):
    """What a run over some paths reads, found before reading any of it
    (:func:`discover_run`): ``sglang-lint check --show-files`` and
    ``--show-settings`` print it, :func:`lint_paths` goes on from it."""

    # The run's options, with its root config (the nearest above the paths, or
    # --config's).
    options: LintOptions
    resolver: ConfigResolver
    # The exclusions in force in each directory.
    exclusions: Callable[[str], ExcludeSet]
    # The paths given, and the --stdin-filename: what manifests are checked against.
    roots: list[str]
    # The files to read (as discover shows them), and notes about paths it could not use.
    files: list[str]
    notes: list[Note]
    # The --stdin-filename is excluded and --force-exclude given: standard input is not analyzed.
    stdin_excluded: bool = False

    def configs(self) -> dict[str, Config]:
        """The config that governs each file."""
        return {path: self.resolver.for_file(path) for path in self.files}


def discover_run(paths: Iterable[str], options: LintOptions, stdin_name: str | None = None) -> RunFiles:
    """The config, exclusions and files of a run over ``paths`` (``-`` left out),
    with standard input analyzed as ``stdin_name`` when given (that file is then
    not read from disk). Raises config.ConfigError for a bad config file."""
    paths = [p for p in paths if p != STDIN]
    roots = [*paths, *([stdin_name] if stdin_name else [])]
    resolver = ConfigResolver(options.config)
    if options.config is None:
        options = replace(options, config=resolver.for_directory(discovery_start(roots)))
    exclusions = _exclusions(resolver, options)
    found, notes = (
        discover(paths, respect_gitignore=options.respect_gitignore, force_exclude=options.force_exclude, exclusions=exclusions)
        if paths
        else ([], [])
    )
    stdin_excluded = False
    if stdin_name is not None:
        stdin_real = os.path.realpath(stdin_name)
        found = [f for f in found if os.path.realpath(f) != stdin_real]
        stdin_excluded = options.force_exclude and excluded_path(os.path.abspath(stdin_name), exclusions)
    return RunFiles(options, resolver, exclusions, roots, found, notes, stdin_excluded)


class PreparedRun(Struct):
    """A run over some paths before any file is read (:func:`prepare_run`): what
    discovery found, with the overlays in, and what governs each file."""

    run: RunFiles
    # The files to read (as shown), overlays not on disk included.
    files: list[str]
    # Shown path -> the overlay text read instead of the disk.
    texts: dict[str, str]
    # The config governing each file (standard input's too).
    configs: dict[str, Config]
    # The distinct configs of the run (each contributes its manifest).
    governing: list[Config]
    # Where the sources may read other files.
    project: ProjectFiles


def prepare_run(
    paths: Sequence[str], options: LintOptions, *, overlays: Mapping[str, str] | None = None, stdin: StdinFile | None = None, follows: str = ""
) -> PreparedRun:
    """Discover the files of a run over ``paths`` with ``overlays`` (absolute
    path -> text) over the disk, resolve each file's config and check the
    manifests against them. Raises config.ConfigError for a bad config file or a
    manifest entry that names no file. Shared by :func:`lint_paths` and the
    language server's workspace index, which reads and extracts the files
    itself."""
    stdin_name = stdin.filename if stdin is not None and stdin.filename else None
    run = discover_run(paths, options, stdin_name)
    found: list[str] = run.files
    texts: dict[str, str] = {}
    if overlays:
        found, texts = _with_overlays(found, list(paths), overlays, run.exclusions, run.options)
    configs: dict[str, Config] = {str(f): run.resolver.for_file(f) for f in found}
    if stdin is not None and not run.stdin_excluded:
        configs[stdin.display] = run.resolver.for_file(stdin_name) if stdin_name else run.options.config
    governing = distinct_configs([run.options.config, *configs.values()])
    for config in governing:
        check_manifest(config.deployments, list(configs), roots=run.roots)
    project = project_files(run.options, run.roots, overlays)
    if follows:
        project = replace(project, follows=follows)
    return PreparedRun(run, found, texts, configs, governing, project)


def finish_run(
    results: list[SourceResult],
    options: LintOptions,
    configs: Mapping[str, Config],
    notes: Iterable[Note],
    cataloged: Mapping[int, object] | None,
    overlays: Mapping[str, str] | None,
    project: ProjectFiles,
    probes: list[tuple[str, str | None]] | None = None,
    *,
    dependency_lines: bool = True,
) -> LintResult:
    """The cross-file stages over every file's result (topology, rules,
    suppression: :func:`analyze_results`), and the lines of the files the
    findings point into that the run did not analyze itself (a sourced helper
    outside the paths, a --config file). ``dependency_lines``: also the lines
    of every file the analyzed ones read (the report's snippets of a launch
    in a helper); the language server reads a file's lines when it needs them,
    and an edit would otherwise read the ~450 modules SGLang's tests import."""
    lint = analyze_results(results, options, configs, notes, probes, cataloged, overlays)
    if dependency_lines:
        _add_dependency_lines(lint, _dependencies(results), project)
    _add_finding_lines(lint, project)
    return lint


def _dependencies(results: Iterable[SourceResult]) -> list[tuple[str, str]]:
    return list(dict.fromkeys(dependency for result in results for dependency in result.dependencies))


def lint_paths(
    paths: Iterable[str],
    options: LintOptions | None = None,
    *,
    stdin: StdinFile | None = None,
    overlays: Mapping[str, str] | None = None,
    extraction_cache=None,
    follows: str = "",
    stable_digests: dict[str, str] | None = None,
    dependency_lines: bool = True,
) -> LintResult:
    """Analyze the files under ``paths``. Raises config.ConfigError for a bad
    config file or a manifest entry that names no file.

    ``stdin``: standard input (``-``) analyzed as the file ``stdin.filename``
    along with ``paths`` (which should not hold ``-``): its config is found from
    that file's directory, and it replaces that file on disk when the paths reach
    it too (an editor's unsaved buffer with its siblings).

    ``overlays``: absolute path -> text of files whose text is not what is on
    disk (the language server's open buffers). Each replaces its file; one not on
    disk yet is analyzed when it lies under a directory of ``paths``.
    ``extraction_cache``: the per-file cache to use instead of opening the
    on-disk one (the language server keeps one in memory); no findings cache.
    ``follows``: the ``project_run`` of an earlier result of this process whose
    conclusions about the project's files this run keeps where the texts they
    read are the same (ProjectFiles.follows: the flake8 plugin, a run a file).
    ``stable_digests``: the digests of the files read, kept by the caller for
    as long as no file changes (one flake8 run): a cached result is checked
    against its dependencies without reading them again (a flake8 run warm
    read and hashed the ~100 modules each launching file rests on, for each
    file). ``dependency_lines``: keep the lines of the files the analyzed ones
    read (the report's snippets; the flake8 plugin shows none)."""
    paths = [p for p in paths if p != STDIN]
    stdin_name = stdin.filename if stdin is not None and stdin.filename else None
    prepared = prepare_run(paths, options or LintOptions(), overlays=overlays, stdin=stdin, follows=follows)
    options, resolver, exclusions = prepared.run.options, prepared.run.resolver, prepared.run.exclusions
    found, texts, configs, governing, project = prepared.files, prepared.texts, prepared.configs, prepared.governing, prepared.project
    if prepared.run.stdin_excluded:
        stdin = None  # ruff's --force-exclude: an excluded name is not analyzed
    results: list[SourceResult] = []
    unreadable: list[Note] = list(prepared.run.notes)
    stable_fresh = _stable_freshness(project, stable_digests) if stable_digests is not None else None
    if stdin is not None:
        result, note = _stdin_result(stdin, configs[stdin.display].env_map, project, extraction_cache, stable_fresh, stable=stable_digests is not None)
        if note is not None:
            unreadable.append(note)
        if result is not None:
            results.append(result)
    from sglang_lint.extraction import FileJob, WorkerPool, extract_importers, extract_read, importing_launchers, read_context_files

    named = _named_files(paths, found) if options.context else set()
    cache = (extraction_cache if extraction_cache is not None else _open_cache(options)) if found else None
    # Workers forked now, before the files are read, carry none of them.
    pool = WorkerPool.for_walk(len(found), options.jobs, cold=cache is None or cache.is_empty())
    try:
        # A file the pre-check dismissed before and unchanged since (its stat) is
        # not read again: a warm run over SGLang's tree read and pre-checked 4,700
        # files for 0.7 s to find the 150 it has results for (issue 20).
        dismissed = _dismissed_files(cache) if cache is not None else None
        # A dependency (a module the analyzed files import) whose stat is the
        # one recorded with its digest is not read again to check a cached
        # result (SGLang's tree: 693 modules read each warm run, issue 20).
        memo = _digest_memo(cache, project) if cache is not None else None
        fresh = memo.freshness(project) if memo is not None else stable_fresh
        # A cold walk (a pool started for it) hands each file to the workers
        # as soon as it is read and pre-checked; not when files are named
        # (their context decides what else is read) or standard input is.
        started = pool.starter(project, encode=cache is not None) if pool is not None and not named and stdin is None else None
        files, read_notes = read_context_files(
            [FileJob(str(f), configs[str(f)].env_map or None, texts.get(str(f))) for f in found], digests=cache is not None, dismissed=dismissed, started=started
        )
        unreadable.extend(read_notes)
        # The files named one by one are extracted first: the ones that launch a
        # server or a router bring their deployment context along.
        early: dict[str, SourceResult] = {}
        context: list[str] = []
        dismissed_error = None
        cataloged: dict[int, object] = {}
        if named or (stdin_name is not None and results and options.context):
            first = [read for read in files if read.path in named]
            # (a named file that only calls a launcher of another module)
            first = importing_launchers(first, project)
            again = {read.path: read for read in first if read.importer}
            files = [again.get(read.path, read) for read in files]
            # (pre-commit --all-files names every file: in parallel as for a walk)
            extracted = extract_read(first, extract, cache=cache, processes=options.jobs, on_result=cataloger(options, cataloged, overlays), project=project, pool=pool, fresh=fresh)
            early = {r.path: r for r in extracted.results}
            wanting = [path for path, result in early.items() if _wants_context(result)]
            if stdin_name is not None and results and _wants_context(results[0]):
                wanting.append(stdin_name)
            context = _context_paths(wanting, governing, options, exclusions, [*found, *([stdin_name] if stdin_name else [])])
            if context:
                if cache is None:  # standard input alone: its context is read from disk
                    cache = extraction_cache if extraction_cache is not None else _open_cache(options)
                for path in context:
                    configs[path] = resolver.for_file(path)
                if dismissed is None:
                    dismissed = _dismissed_files(cache)
                context_files, context_notes = read_context_files(
                    [FileJob(path, configs[path].env_map or None, texts.get(path)) for path in context],
                    digests=cache is not None,
                    dismissed=dismissed,
                )
                files.extend(context_files)
                unreadable.extend(context_notes)
        if dismissed is not None:
            dismissed_error = dismissed.save()
        run_key = None
        findings_cache = None
        if cache is not None and options.reuse_findings and stdin is None and extraction_cache is None and not overlays:
            from sglang_lint.cache import FindingsCache

            findings_cache = FindingsCache(cache.directory, cache.fingerprint)
            run_key = _run_key(files, unreadable, options, configs, context)
            hit = findings_cache.get(run_key, fresh or project.fresh)
            if hit is not None:
                lint = _from_findings(hit, files, options, project)
                lint.cache_error = memo.save() if memo is not None else None
                return lint
        rest = [read for read in files if read.path not in early]
        extracted = extract_read(
            rest, extract, cache=cache, processes=options.jobs, on_result=cataloger(options, cataloged, overlays), project=project, pool=pool, started=started, fresh=fresh
        )
        rest_results = iter(extracted.results)
        file_results = [early[read.path] if read.path in early else next(rest_results) for read in files]
        # The files that spell no launch but import a launcher of the files above.
        importers = extract_importers(
            files,
            file_results,
            lambda reads: extract_read(reads, extract, cache=cache, processes=options.jobs, on_result=cataloger(options, cataloged, overlays), project=project, pool=pool, fresh=fresh).results,
            digests=cache is not None,
        )
    finally:
        if pool is not None:
            pool.close()  # before the analysis: the workers' memory is let go
    results.extend(file_results)
    for read in files:
        read.text = ""  # each result holds its lines now: the texts are garbage (memory, issue 7)
        read.imports = ""  # (the cross-file pre-check is done: ~2.4 MB on SGLang's tree)
    probes: list[tuple[str, str | None]] = []
    lint = finish_run(results, options, configs, unreadable, cataloged, overlays, project, probes, dependency_lines=dependency_lines)
    # A file read by the cross-file pre-check is no candidate of the run key:
    # the findings are stale when its text changes.
    dependencies = list(dict.fromkeys([*_dependencies(results), *((read.path, read.digest) for read in importers)]))
    if context:
        lint.context_files = context
        in_context = set(context)
        reported = {read.path for read in files} - in_context
        if stdin is not None:
            reported.add(stdin.display)
        lint.findings = [f for f in lint.findings if _concerns_named(f, in_context, reported)]
        # (the topology command shows the deployments of the named files only)
        lint.deployments = [d for d in lint.deployments if any(path not in in_context for path in _deployment_files(d))]
        lint.pair_findings = [(p, d, codes) for p, d, codes in lint.pair_findings if not {p.launch.path, d.launch.path} <= in_context]
        lint.files_checked -= sum(read.path in in_context for read in files)
    lint.cache_hits, lint.cache_misses, lint.workers = extracted.cache_hits, extracted.cache_misses, extracted.workers
    if cache is not None and importers:
        lint.cache_hits, lint.cache_misses = cache.hits, cache.misses  # (the importers' lookups too)
    lint.project_run = project.run
    if cache is not None:
        if memo is not None and fresh is not None and lint.cache_misses:
            # A run that analyzed files records the digests (and stats) of what
            # their results rest on: the next run judges them by their stat.
            # Left to it, the first warm run read and hashed them all (SGLang's
            # tree: ~700 modules, 0.35-0.5 s against 0.26 s for the runs after).
            fresh(dependencies)
        memo_error = memo.save() if memo is not None else None
        lint.cache_error = cache.save() or dismissed_error or memo_error
    if findings_cache is not None and run_key is not None:
        findings_cache.put(run_key, lint.findings, lint.version, lint.files_checked, probes, dependencies)
        lint.cache_error = lint.cache_error or findings_cache.save()
    return lint


def _named_files(paths: Sequence[str], found: Sequence[str]) -> set[str]:
    """The files among ``found`` that ``paths`` name one by one (not through a
    directory): the files whose deployment context a run reads."""
    named = {os.path.realpath(p) for p in paths if os.path.isfile(p)}
    if not named:
        return set()
    return {f for f in found if os.path.realpath(f) in named}


def _wants_context(result: SourceResult) -> bool:
    """Whether a file's launches can pair across files: it has a server or a
    router of the file itself, not only of scopes of their own (a Python test
    class is a deployment by itself)."""
    return any(not launch.scope for launch in [*result.servers, *result.routers])


def _context_paths(
    wanting: Sequence[str],
    governing: Sequence[Config],
    options: LintOptions,
    exclusions: Callable[[str], ExcludeSet],
    known: Sequence[str],
) -> list[str]:
    """The deployment context of the named files in ``wanting``: the files a walk
    of their directories would analyze (single-role files pair with their
    directory's, topology.py) and the files of the manifest entries that name
    them, less the files in ``known`` (analyzed already)."""
    if not wanting:
        return []
    from sglang_lint.config import manifest_context
    from sglang_lint.files import siblings

    paths = siblings(wanting, respect_gitignore=options.respect_gitignore, exclusions=exclusions, known=known)
    entries = [entry for config in governing for entry in config.deployments]
    if entries:
        seen = {os.path.realpath(p) for p in [*known, *wanting, *paths]}
        for path in wanting:
            for match in manifest_context(entries, path):
                real = os.path.realpath(match)
                if real not in seen and not excluded_path(match, exclusions):
                    seen.add(real)
                    paths.append(display_name(match))
    return paths


def _deployment_files(deployment: Deployment) -> set[str]:
    return {s.launch.path for s in deployment.servers} | {r.settings.launch.path for r in deployment.routers}


def _concerns_named(finding: Finding, context: set[str], named: set[str]) -> bool:
    """Whether a run over named files reports ``finding``: every finding that
    concerns no context file, and those that concern a file of the run too. The
    files a finding concerns are its location's, its related locations' (the other
    side of a pair) and those of the launches whose ``# noqa`` silences it (the
    launch reading a --config file the finding points into). So a pair finding
    on a context file whose other side is in a named file is reported; a finding
    between two context files is not."""
    paths = {finding.location.path, *(r.location.path for r in finding.related), *(p for p, _, _ in finding.noqa_ranges)}
    return not (paths & context) or bool(paths & named)


def _with_overlays(
    found: list[str], paths: list[str], overlays: Mapping[str, str], exclusions: Callable[[str], ExcludeSet], options: LintOptions
) -> tuple[list[str], dict[str, str]]:
    """The files to analyze with the overlays in: ``found`` (as discover shows
    them) plus each overlay not on disk that lies under a directory of ``paths``
    (not excluded, of a kind sglang-lint reads), and the overlay text of each."""
    by_absolute = {os.path.abspath(f): f for f in found}
    texts: dict[str, str] = {}
    roots = [os.path.abspath(p) for p in paths if os.path.isdir(p)]
    added: list[str] = []
    for path, text in overlays.items():
        absolute = os.path.abspath(path)
        shown = by_absolute.get(absolute)
        if shown is None:
            if not any(is_inside(absolute, root) for root in roots) or os.path.exists(absolute) or source_kind(absolute, text) is None:
                continue  # outside the workspace, or on disk but excluded/ignored
            if excluded_path(absolute, exclusions):
                continue
            shown = display_name(absolute)
            added.append(shown)
        texts[shown] = text
    return [*found, *sorted(added)], texts


def _run_key(files, notes: list[Note], options: LintOptions, configs: Mapping[str, Config], context: Sequence[str] = ()) -> str:
    """Everything the findings of a run depend on but the --config files its
    launches read and the files its sources read (a shell script's `source`d
    helpers: SourceResult.dependencies), known only once the files are
    extracted (FindingsCache stores both with each run's findings, with their
    digests, and checks them at lookup): each file's path, kind,
    prefilter verdict, text digest and env; the notes about unreadable files;
    the options; each config's text and the files it governs; the working
    directory (paths are shown relative to it)."""
    import hashlib

    from sglang_lint.extraction import scanned_imports

    key = hashlib.blake2b(digest_size=20)

    def add(*parts: object) -> None:
        key.update(repr(parts).encode("utf-8", "surrogatepass"))

    add("cwd", os.getcwd())
    add(
        "options",
        options.target_version,
        sorted(options.select) if options.select is not None else None,
        sorted(options.ignore),
        sorted(options.extend_select),
        options.strict,
        options.ignore_noqa,
    )
    texts: dict[int, str] = {}
    for config in distinct_configs([options.config, *configs.values()]):
        texts[id(config)] = _config_text_digest(config)
        add("config", str(config.path), texts[id(config)])
    for read in files:
        config = configs.get(read.path, options.config)
        # (a dismissed Python file's imports: one that imports a launcher is analyzed)
        add("file", read.path, read.kind.value, read.candidate, read.digest, read.env_key, texts.get(id(config)), scanned_imports(read))
    for note in notes:
        add("note", note.path, note.message, note.line, note.column)
    # The same files read as named or as context give different reports.
    add("context", *context)
    return key.hexdigest()


def _config_text_digest(config: Config) -> str:
    if config.path is None:
        return "no config"
    try:
        data = config.path.read_bytes()
    except OSError as error:
        return f"unreadable: {error}"
    import hashlib

    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _from_findings(hit, files, options: LintOptions, project: ProjectFiles) -> LintResult:
    """The result of a run answered by the findings cache: the findings and the
    lines of the files they point into; no deployments (the topology command
    does not use this cache)."""
    findings, version, files_checked = hit
    lint = LintResult(version=version, files_checked=files_checked, config=options.config, from_findings_cache=True)
    lint.findings = findings
    wanted = {f.location.path for f in findings} | {r.location.path for f in findings for r in f.related}
    # (a file the pre-check dismissed holds no text here: a finding in one the
    # cross-file pre-check analyzed is read below)
    lint.sources = {read.path: read.text.split("\n") for read in files if read.path in wanted and (read.text or read.candidate)}
    # (a launch in a sourced helper the run did not analyze: its lines for the snippets)
    _add_dependency_lines(lint, [(path, "") for path in sorted(wanted - set(lint.sources))], project)
    return lint


def _add_dependency_lines(lint: LintResult, dependencies: Sequence[tuple[str, str]], project: ProjectFiles) -> None:
    """The lines of the files the analyzed ones read and the run did not analyze
    itself (a helper outside the paths): findings point into them."""
    for path, _ in dependencies:
        if path not in lint.sources:
            text, _problem = project.read(path)
            if text is not None:
                lint.sources[path] = text.split("\n")


def _add_finding_lines(lint: LintResult, project: ProjectFiles) -> None:
    """The lines of a file a finding (its fix, a related location) points into
    whose result kept none (a file that gives the cross-file stages nothing
    keeps no lines: a `--config` YAML file analyzed for itself launches
    nothing): the snippet shows it, and the fix resolves."""
    wanted = (
        {finding.location.path for finding in lint.findings}
        | {fix.location.path for finding in lint.findings for fix in finding.fixes}
        | {related.location.path for finding in lint.findings for related in finding.related}
    )
    for path in sorted(wanted):
        if not lint.sources.get(path):
            text, _problem = project.read(path)
            if text is not None:
                lint.sources[path] = text.split("\n")


def _dismissed_files(cache):
    """The record of context files the prefilter dismissed, kept beside the
    on-disk extraction cache (none for the language server's memory cache)."""
    from sglang_lint.cache import DismissedFiles, ExtractionCache

    return DismissedFiles(cache.directory, cache.fingerprint) if isinstance(cache, ExtractionCache) else None


def _stable_freshness(project: ProjectFiles, digests: dict[str, str]):
    """:meth:`ProjectFiles.freshness` with each file's digest kept in
    ``digests`` (by absolute path) for as long as the caller keeps it."""

    def digest_of(path: str) -> str:
        absolute = os.path.abspath(path)
        known = digests.get(absolute)
        if known is None:
            known = digests[absolute] = project.digest(path)
        return known

    return project.freshness(digest_of)


def _digest_memo(cache, project: ProjectFiles):
    """The digests of the run's dependencies by their stat, kept beside the
    on-disk extraction cache (none for the language server's memory cache)."""
    from sglang_lint.cache import DigestMemo, ExtractionCache

    return DigestMemo(cache.directory, cache.fingerprint, project) if isinstance(cache, ExtractionCache) else None


def _open_cache(options: LintOptions):
    """The extraction cache of this run, or None (``options.cache`` off)."""
    if not options.cache:
        return None
    from sglang_lint.cache import ExtractionCache

    return ExtractionCache(cache_directory(options))


def cache_directory(options: LintOptions) -> str:
    """Where the cache of a run lives: --cache-dir, else the root config's
    cache-dir, else $SGLANG_LINT_CACHE_DIR, else .sglang-lint-cache at the project
    root (the root config's directory, else the working directory)."""
    from sglang_lint.cache import default_cache_dir

    config = options.config
    if options.cache_dir is not None:
        return options.cache_dir
    if config is not None and config.cache_dir is not None:
        return str(config.cache_dir)
    return str(default_cache_dir(config.root if config is not None and config.root is not None else os.getcwd()))


def _exclusions(resolver: ConfigResolver, options: LintOptions) -> Callable[[str], ExcludeSet]:
    """The exclusions in force in each directory: the governing config's
    ``exclude`` (or --exclude, which replaces it) and ``extend-exclude``, plus
    --extend-exclude; the command line's patterns are relative to the working
    directory, a config's to its own directory."""
    cwd = os.getcwd()
    by_config: dict[int, ExcludeSet] = {}

    def for_directory(directory: str) -> ExcludeSet:
        config = resolver.for_directory(directory)
        cached = by_config.get(id(config))
        if cached is None:
            base = str(config.root) if config.root is not None else cwd
            patterns: list[tuple[str, tuple[str, ...]]] = []
            if options.exclude is not None:
                patterns.append((cwd, options.exclude))
            elif config.exclude is not None:
                patterns.append((base, config.exclude))
            if config.extend_exclude:
                patterns.append((base, config.extend_exclude))
            if options.extend_exclude:
                patterns.append((cwd, options.extend_exclude))
            default_dirs = options.exclude is None and config.exclude is None
            cached = by_config[id(config)] = ExcludeSet(tuple(p for p in patterns if p[1]), default_dirs)
        return cached

    return for_directory


