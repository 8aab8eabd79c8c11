"""What a run is asked to do and what it gives back: the records the adapters
(CLI, flake8 plugin, language server) and the pipeline stages share. Data only:
no stage imports the pipeline (``lint``) or an adapter to get them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sglang_lint.model import Finding
from sglang_lint.records import Record

if TYPE_CHECKING:
    from sglang_lint.config import Config
    from sglang_lint.topology import Deployment, Server


class LintOptions(Record):
    target_version: str | None
    select: frozenset[str] | None  # None: every default rule
    ignore: frozenset[str]
    respect_gitignore: bool
    # --exclude: gitignore-style patterns (relative to the working directory) that
    # replace the config's `exclude` and the default excluded directories;
    # --extend-exclude adds to them. None: not given.
    exclude: tuple[str, ...] | None
    extend_exclude: tuple[str, ...]
    # Apply the excludes to files named explicitly too (pre-commit passes every
    # changed file, excluded or not).
    force_exclude: bool
    # Report findings even where a `# noqa` / disable directive silences them
    # (flake8's --disable-noqa).
    ignore_noqa: bool
    # Run the opt-in rules too (SGL901 unresolved-value).
    strict: bool
    # Codes (or prefixes) added to whichever selection is in force: --extend-select,
    # joined by each config's extend-select (selection.with_config_selection). An
    # opt-in rule is switched on by its exact code only.
    extend_select: frozenset[str]
    # Keep the sources' per-file results in an on-disk cache (the CLI's default;
    # --no-cache). cache_dir: where (default: the config's cache-dir, else
    # $SGLANG_LINT_CACHE_DIR, else .sglang-lint-cache at the project root).
    cache: bool
    cache_dir: str | None
    # Worker processes for extraction; None: one per available CPU, 1: none.
    jobs: int | None
    # With the cache: answer a run whose every input is unchanged with the
    # findings it had (cache.FindingsCache). Off for the topology command, which
    # needs the deployments themselves.
    reuse_findings: bool
    # Read the deployment context of files named one by one (pre-commit, flake8,
    # --stdin-filename): the files of their directories and of the manifest
    # entries naming them, reported on only where a finding concerns a named
    # file (--no-context turns it off).
    context: bool
    # The configuration for every file (--config FILE; its topology manifest groups
    # servers first). None: lint_paths uses, for each file, the nearest
    # sglang-lint.toml / pyproject.toml [tool.sglang-lint] above it; Config(): no
    # config file.
    config: Config | None

    def __init__(
        self,
        target_version: str | None = None,
        select: frozenset[str] | None = None,
        ignore: frozenset[str] = frozenset(),
        respect_gitignore: bool = True,
        exclude: tuple[str, ...] | None = None,
        extend_exclude: tuple[str, ...] = (),
        force_exclude: bool = False,
        ignore_noqa: bool = False,
        strict: bool = False,
        extend_select: frozenset[str] = frozenset(),
        cache: bool = False,
        cache_dir: str | None = None,
        jobs: int | None = None,
        reuse_findings: bool = True,
        context: bool = True,
        config: Config | None = None,
    ) -> None:
        self.target_version = target_version
        self.select = select
        self.ignore = ignore
        self.respect_gitignore = respect_gitignore
        self.exclude = exclude
        self.extend_exclude = extend_exclude
        self.force_exclude = force_exclude
        self.ignore_noqa = ignore_noqa
        self.strict = strict
        self.extend_select = extend_select
        self.cache = cache
        self.cache_dir = cache_dir
        self.jobs = jobs
        self.reuse_findings = reuse_findings
        self.context = context
        self.config = config


class LintResult(Record):
    findings: list[Finding]
    deployments: list[Deployment]
    # path -> lines, for snippets
    sources: dict[str, list[str]]
    files_checked: int
    version: str
    config: Config | None
    # (prefill, decode, codes): the codes of the reported (not suppressed)
    # pair-rule findings of each prefill x decode pair with any, for the
    # topology diagrams.
    pair_findings: list[tuple[Server, Server, tuple[str, ...]]]
    # The extraction cache's hits and misses, the worker processes used, and why
    # the cache could not be written (None: written, or nothing to write).
    cache_hits: int
    cache_misses: int
    workers: int
    cache_error: str | None
    # The findings came from the findings cache: no deployments were built.
    from_findings_cache: bool
    # Files read only as the deployment context of the files named (never
    # reported on by themselves).
    context_files: list[str]

    def __init__(
        self,
        findings: list[Finding] | None = None,
        deployments: list[Deployment] | None = None,
        sources: dict[str, list[str]] | None = None,
        files_checked: int = 0,
        version: str = "",
        config: Config | None = None,
        pair_findings: list[tuple[Server, Server, tuple[str, ...]]] | None = None,
        cache_hits: int = 0,
        cache_misses: int = 0,
        workers: int = 0,
        cache_error: str | None = None,
        from_findings_cache: bool = False,
        context_files: list[str] | None = None,
    ) -> None:
        self.findings = [] if findings is None else findings
        self.deployments = [] if deployments is None else deployments
        self.sources = {} if sources is None else sources
        self.files_checked = files_checked
        self.version = version
        self.config = config
        self.pair_findings = [] if pair_findings is None else pair_findings
        self.cache_hits = cache_hits
        self.cache_misses = cache_misses
        self.workers = workers
        self.cache_error = cache_error
        self.from_findings_cache = from_findings_cache
        self.context_files = [] if context_files is None else context_files
