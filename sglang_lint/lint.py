"""The one analysis API the CLI (and later the flake8 plugin and the language
server) adapt: files in, findings and deployments out.

sources -> catalog/argv -> topology -> rules -> suppression -> (report, by callers)
"""

from __future__ import annotations

import os
import traceback
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Mapping

from sglang_lint.catalog.argv import ConfigFile, load_config_yaml, parse_server_args
from sglang_lint.catalog.router import parse_router_args
from sglang_lint.catalog.tables import default_version, load_table
from sglang_lint.config import Config, ConfigResolver, check_manifest, discovery_start
from sglang_lint.files import (
    ExcludeSet,
    FileKind,
    decode_source,
    discover,
    display_name,
    excluded_path,
    read_source,
    shebang_kind,
    source_kind,
)
from sglang_lint.model import Finding, Location, Note, Severity, SourceResult
from sglang_lint.rules import ALL_RULES, INTERNAL_ERROR_CODE, INTERNAL_ERROR_NAME
from sglang_lint.rules.base import DOCS_URL, RuleContext
from sglang_lint.sources.markdown import analyze_markdown
from sglang_lint.sources.python import analyze_python
from sglang_lint.sources.shell import analyze_shell
from sglang_lint.sources.yaml_manifest import analyze_yaml
from sglang_lint.suppress import DirectiveUse, Directives, is_suppressed, parse_directives, suppressing, unused_suppressions
from sglang_lint.topology import Deployment, Router, Server, build_deployments, make_server, pairs

# Source functions by file kind. Kinds without one yet are discovered but skipped.
SOURCES: dict[FileKind, Callable[..., SourceResult]] = {
    FileKind.SHELL: analyze_shell,
    FileKind.PYTHON: analyze_python,
    FileKind.YAML: analyze_yaml,
    FileKind.MARKDOWN: analyze_markdown,
}

# Config files named by `--config` larger than this are not read.
MAX_CONFIG_BYTES = 1024 * 1024


@dataclass
class LintOptions:
    target_version: str | None = None
    select: frozenset[str] | None = None  # None: every default rule
    ignore: frozenset[str] = frozenset()
    respect_gitignore: bool = True
    # --exclude: gitignore-style patterns (relative to the working directory) that
    # replace the config's `exclude` and the default excluded directories;
    # --extend-exclude adds to them. None: not given.
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    # Apply the excludes to files named explicitly too (pre-commit passes every
    # changed file, excluded or not).
    force_exclude: bool = False
    # Report findings even where a `# noqa` / disable directive silences them
    # (flake8's --disable-noqa).
    ignore_noqa: bool = False
    # Run the opt-in rules too (SGL901 unresolved-value).
    strict: bool = False
    # Codes added to the selection by the config's extend-select (opt-in rules too).
    extend_select: frozenset[str] = frozenset()
    # The configuration for every file (--config FILE; its topology manifest groups
    # servers first). None: lint_paths uses, for each file, the nearest
    # sglang-lint.toml / pyproject.toml [tool.sglang-lint] above it; Config(): no
    # config file.
    config: Config | None = None


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    deployments: list[Deployment] = field(default_factory=list)
    # path -> lines, for snippets
    sources: dict[str, list[str]] = field(default_factory=dict)
    files_checked: int = 0
    version: str = ""
    config: Config | None = None
    # (prefill, decode, codes): the codes of the reported (not suppressed)
    # pair-rule findings of each prefill x decode pair with any, for the
    # topology diagrams.
    pair_findings: list[tuple[Server, Server, tuple[str, ...]]] = field(default_factory=list)


def internal_finding(note: Note) -> Finding:
    return Finding(
        code=INTERNAL_ERROR_CODE,
        name=INTERNAL_ERROR_NAME,
        message=note.message,
        location=Location(note.path, note.line, note.column),
        severity=Severity.WARNING,
        url=DOCS_URL.format(code=INTERNAL_ERROR_CODE.lower()),
    )


def _config_reader(script_path: str) -> Callable[[str, Location], ConfigFile | None]:
    """Read an SGLang ``--config FILE`` named by a launch. SGLang resolves it
    against the working directory at launch time, which a linter cannot know: we
    try the script's directory, then the current directory, and give up (the
    values stay unknown) when neither has it."""

    def read(name: str, location: Location) -> ConfigFile | None:
        candidates = [Path(name)] if os.path.isabs(name) else [Path(script_path).parent / name, Path(name)]
        for candidate in candidates:
            try:
                if not candidate.is_file() or candidate.stat().st_size > MAX_CONFIG_BYTES:
                    continue
                text = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError, ValueError):
                continue
            return load_config_yaml(text, os.path.normpath(str(candidate)))
        return None

    return read


def extract(path: str, text: str, kind: FileKind, env: Mapping[str, str] | None = None) -> SourceResult:
    """Run one source on one file; an internal error becomes a note, never an
    exception, so one odd file never loses the others' results. ``env``: the
    config's values for environment variables the file reads."""
    source = SOURCES.get(kind)
    if source is None:
        return SourceResult(path=path, lines=text.split("\n"))
    try:
        return source(path, text, env) if env else source(path, text)
    except RecursionError:
        result = SourceResult(path=path, lines=text.split("\n"))
        result.notes.append(Note(path, "file is nested too deeply to analyze"))
        return result
    except Exception as error:  # noqa: BLE001 - the promise is: never crash
        result = SourceResult(path=path, lines=text.split("\n"))
        frame = traceback.extract_tb(error.__traceback__)[-1]
        result.notes.append(
            Note(path, f"internal error while analyzing this file ({type(error).__name__}: {error} at {os.path.basename(frame.filename)}:{frame.lineno}); please report it")
        )
        return result


def analyze_results(
    results: list[SourceResult],
    options: LintOptions,
    configs: Mapping[str, Config] | None = None,
    extra_notes: Iterable[Note] = (),
) -> LintResult:
    """Topology, rules and suppression over the sources' results.

    ``options.config`` is the run's config (target-version; it governs every file
    ``configs`` does not name); ``configs`` maps a path to the config governing it
    (select, ignore, per-file-ignores; each contributes its manifest).
    ``extra_notes``: notes about files that could not be read."""
    configs = configs or {}
    # --target-version, else the config's target-version, else the newest release.
    configured = options.config.target_version if options.config is not None else None
    version = options.target_version or configured or default_version()
    table = load_table(version)
    lint = LintResult(version=version, files_checked=len(results), config=options.config)
    servers_by_file: dict[str, list[Server]] = {}
    routers_by_file: dict[str, list[Router]] = {}
    notes: list[Note] = list(extra_notes)
    directives: dict[str, Directives] = {}
    for result in results:
        lint.sources[result.path] = result.lines
        notes.extend(result.notes)
        first_line = min((launch.location.line for launch in [*result.servers, *result.routers]), default=None)
        directives[result.path] = parse_directives(result.path, result.comments, first_line)
        if first_line is not None:
            # A malformed directive matters where it could silence one of our
            # findings; in a file that launches nothing it is another tool's text.
            notes.extend(directives[result.path].notes)
        read_config = _config_reader(result.path)
        for launch in result.servers:
            try:
                settings = parse_server_args(
                    launch.args,
                    table,
                    entry=launch.entry,
                    read_config=read_config,
                    launch_location=launch.location,
                    keywords=launch.keywords,
                )
                server = make_server(launch, settings)
            except Exception as error:  # noqa: BLE001 - one launch must not lose the others
                notes.append(_launch_error(result.path, launch, error))
                continue
            servers_by_file.setdefault(result.path, []).append(server)
        for launch in result.routers:
            try:
                router = Router(parse_router_args(launch))
            except Exception as error:  # noqa: BLE001
                notes.append(_launch_error(result.path, launch, error))
                continue
            routers_by_file.setdefault(result.path, []).append(router)
    governing = _distinct_configs([options.config, *configs.values()])
    manifest = tuple(entry for config in governing for entry in config.deployments)
    lint.deployments = build_deployments(servers_by_file, routers_by_file, manifest)
    notes.extend(note for deployment in lint.deployments for note in deployment.notes)

    # Each config's selection under the command line's; a rule runs when some
    # file's config selects it, and each finding is then kept by its own file's.
    selection = {id(config): _with_config_selection(replace(options, config=config)) for config in governing}
    if not governing:
        selection[id(None)] = _with_config_selection(options)
    opt_in = {rule.code: rule.opt_in for rule in ALL_RULES}

    def config_of(path: str) -> Config | None:
        return configs.get(path, options.config)

    def kept(finding: Finding) -> bool:
        config = config_of(finding.location.path)
        if not _is_selected(finding.code, selection[id(config)], opt_in=opt_in.get(finding.code, False)):
            return False
        return config is None or finding.code not in config.ignored_for(finding.location.path)

    context = RuleContext(version=version)
    selected = [rule() for rule in ALL_RULES if any(_is_selected(rule.code, chosen, opt_in=rule.opt_in) for chosen in selection.values())]
    findings: list[Finding] = []
    by_pair: list[tuple[Server, Server, list[Finding]]] = []
    for deployment, prefill, decode in pairs(lint.deployments):
        found: list[Finding] = []
        for rule in selected:
            found.extend(rule.check_pair(context, deployment, prefill, decode))
        findings.extend(found)
        if found:
            by_pair.append((prefill, decode, found))
    checked: set[int] = set()
    for deployment in lint.deployments:
        for server in deployment.servers:
            if id(server) in checked:
                continue
            checked.add(id(server))
            for rule in selected:
                findings.extend(rule.check_server(context, deployment, server))
    for result in results:
        for rule in selected:
            findings.extend(rule.check_source(context, result))
    if not options.ignore_noqa:
        used: set[DirectiveUse] = set()
        reported = []
        for finding in findings:
            uses = suppressing(finding, directives)
            used.update(uses)
            if not uses:
                reported.append(finding)
        findings = reported
        by_pair = [(p, d, [f for f in found if not is_suppressed(f, directives)]) for p, d, found in by_pair]
        # Rules judging the directives themselves (SGL902), once the others ran.
        ran = frozenset(rule.code for rule in selected)
        unused = unused_suppressions(directives, used, ran, lint.sources)
        for rule in selected:
            findings.extend(rule.check_suppressions(context, unused))
    findings.extend(internal_finding(note) for note in notes)
    findings = [f for f in findings if kept(f)]
    by_pair = [(p, d, [f for f in found if kept(f)]) for p, d, found in by_pair]
    lint.pair_findings = [(p, d, tuple(sorted({f.code for f in found}))) for p, d, found in by_pair if found]
    lint.findings = sorted(set(findings), key=Finding.sort_key)
    return lint


def _distinct_configs(configs: Iterable[Config | None]) -> list[Config]:
    """The configs in first-seen order, each once (by identity: a resolver loads a
    file once)."""
    seen: set[int] = set()
    distinct = []
    for config in configs:
        if config is not None and id(config) not in seen:
            seen.add(id(config))
            distinct.append(config)
    return distinct


def _launch_error(path: str, launch, error: Exception) -> Note:
    return Note(
        path,
        f"internal error reading the arguments of this launch ({type(error).__name__}: {error}); please report it",
        launch.location.line,
        launch.location.column,
    )


def _with_config_selection(options: LintOptions) -> LintOptions:
    """The config's select/extend-select/ignore under the command line's: a
    --select replaces the config's selection; ignores add up."""
    config = options.config
    if config is None or (config.select is None and not config.extend_select and not config.ignore):
        return options
    if options.select is not None:
        # The command line's selection replaces the config's, extend-select included.
        return replace(options, ignore=options.ignore | config.ignore)
    # With no select, the default set already holds every non-opt-in rule; extend-select
    # then only matters for opt-in rules, which LintOptions.extend_select switches on.
    select = config.select | config.extend_select if config.select is not None else None
    return replace(options, select=select, ignore=options.ignore | config.ignore, extend_select=config.extend_select)


def _is_selected(code: str, options: LintOptions, opt_in: bool = False) -> bool:
    if any(code.startswith(ignored) for ignored in options.ignore):
        return False
    if opt_in:
        # Only by name (--select SGL901, extend-select) or with --strict; a prefix
        # such as SGL does not switch an opt-in rule on.
        return options.strict or code in options.extend_select or (options.select is not None and code in options.select)
    return options.select is None or code in options.select or any(code.startswith(s) for s in options.select)


def lint_texts(files: Mapping[str, str], options: LintOptions | None = None) -> LintResult:
    """Analyze in-memory files (path -> text); the kind comes from each path. No
    config file is looked for; a manifest in ``options.config`` must match some of
    the paths (else ConfigError)."""
    options = options or LintOptions()
    if options.config is not None:
        check_manifest(options.config.deployments, files)
    results = []
    for path, text in files.items():
        kind = source_kind(path, text)
        if kind is None:
            continue
        results.append(extract(path, text, kind, options.config.env_map if options.config is not None else None))
    return analyze_results(results, options)


STDIN = "-"


@dataclass
class StdinFile:
    """Standard input given as ``-``: its bytes and the name it is analyzed and
    reported under (``--stdin-filename``; ``-`` when there is none)."""

    data: bytes | None
    filename: str | None = None
    # A Note instead of data (too large, unreadable).
    note: Note | None = None

    @property
    def display(self) -> str:
        return display_name(self.filename) if self.filename else STDIN


def _stdin_result(stdin: StdinFile, env: Mapping[str, str] | None = None) -> tuple[SourceResult | None, Note | None]:
    """Decode standard input as files are decoded; its kind comes from the name
    (suffix, else shebang), and without a name it is read as a shell script."""
    display = stdin.display
    if stdin.note is not None or stdin.data is None:
        return None, stdin.note
    text, note = decode_source(display, stdin.data)
    if text is None:
        return None, note
    kind = source_kind(display, text) if stdin.filename else (shebang_kind(text) or FileKind.SHELL)
    if kind is None:
        return None, Note(
            display,
            "not a file sglang-lint reads (*.sh, *.bash, *.py, *.yaml, *.yml, *.md, or a shell or Python shebang); skipped",
        )
    return extract(display, text, kind, env), note


def lint_paths(paths: Iterable[str], options: LintOptions | None = None, *, stdin: StdinFile | None = None) -> LintResult:
    """Analyze the files under ``paths``. Raises config.ConfigError for a bad
    config file or a manifest entry that names no file.

    ``stdin``: standard input (``-``) analyzed as the file ``stdin.filename``
    along with ``paths`` (which should not hold ``-``): its config is found from
    that file's directory, and it replaces that file on disk when the paths reach
    it too (an editor's unsaved buffer with its siblings)."""
    options = options or LintOptions()
    paths = [p for p in paths if p != STDIN]
    stdin_name = stdin.filename if stdin is not None and stdin.filename else None
    config_paths = [*paths, *([stdin_name] if stdin_name else [])]
    resolver = ConfigResolver(options.config)
    if options.config is None:
        options = replace(options, config=resolver.for_directory(discovery_start(config_paths)))
    exclusions = _exclusions(resolver, options)
    found, discovery_notes = (
        discover(paths, respect_gitignore=options.respect_gitignore, force_exclude=options.force_exclude, exclusions=exclusions)
        if paths
        else ([], [])
    )
    if stdin_name is not None:
        stdin_real = os.path.realpath(stdin_name)
        found = [f for f in found if os.path.realpath(f) != stdin_real]
        if options.force_exclude and excluded_path(os.path.abspath(stdin_name), exclusions):
            stdin = None  # ruff's --force-exclude: an excluded name is not analyzed
    configs: dict[str, Config] = {str(f): resolver.for_file(f) for f in found}
    if stdin is not None:
        configs[stdin.display] = resolver.for_file(stdin_name) if stdin_name else options.config
    governing = _distinct_configs([options.config, *configs.values()])
    for config in governing:
        check_manifest(config.deployments, list(configs), roots=config_paths)
    results: list[SourceResult] = []
    unreadable: list[Note] = list(discovery_notes)
    if stdin is not None:
        result, note = _stdin_result(stdin, configs[stdin.display].env_map)
        if note is not None:
            unreadable.append(note)
        if result is not None:
            results.append(result)
    for file_path in found:
        display = str(file_path)
        text, note = read_source(file_path)
        if note is not None:
            unreadable.append(note)
        if text is None:
            continue
        kind = source_kind(display, text)
        if kind is None:
            continue
        results.append(extract(display, text, kind, configs[display].env_map))
    return analyze_results(results, options, configs, unreadable)


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


