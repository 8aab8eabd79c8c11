"""What a run is asked to do and what it gives back: the records the adapters
(CLI, flake8 plugin, language server) and the pipeline stages share. Data only:
no stage imports the pipeline or an adapter to get them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct

from sglang_lint.model import Finding

if TYPE_CHECKING:
    from sglang_lint.config import Config
    from sglang_lint.topology import Deployment, Server


class LintOptions(Struct):
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
    # Codes (or prefixes) added to whichever selection is in force: --extend-select,
    # joined by each config's extend-select (selection.with_config_selection). An
    # opt-in rule is switched on by its exact code only.
    extend_select: frozenset[str] = frozenset()
    # Keep the sources' per-file results in an on-disk cache (the CLI's default;
    # --no-cache). cache_dir: where (default: the config's cache-dir, else
    # $SGLANG_LINT_CACHE_DIR, else .sglang-lint-cache at the project root).
    cache: bool = False
    cache_dir: str | None = None
    # Worker processes for extraction; None: one per available CPU, 1: none.
    jobs: int | None = None
    # With the cache: answer a run whose every input is unchanged with the
    # findings it had (cache.FindingsCache). Off for the topology command, which
    # needs the deployments themselves.
    reuse_findings: bool = True
    # Read the deployment context of files named one by one (pre-commit, flake8,
    # --stdin-filename): the files of their directories and of the manifest
    # entries naming them, reported on only where a finding concerns a named
    # file (--no-context turns it off).
    context: bool = True
    # The configuration for every file (--config FILE; its topology manifest groups
    # servers first). None: lint_paths uses, for each file, the nearest
    # sglang-lint.toml / pyproject.toml [tool.sglang-lint] above it; Config(): no
    # config file.
    config: Config | None = None


class LintResult(Struct):
    findings: list[Finding] = []
    deployments: list[Deployment] = []
    # path -> lines, for snippets
    sources: dict[str, list[str]] = {}
    files_checked: int = 0
    version: str = ""
    config: Config | None = None
    # (prefill, decode, codes): the codes of the reported (not suppressed)
    # pair-rule findings of each prefill x decode pair with any, for the
    # topology diagrams.
    pair_findings: list[tuple[Server, Server, tuple[str, ...]]] = []
    # The extraction cache's hits and misses, the worker processes used, and why
    # the cache could not be written (None: written, or nothing to write).
    cache_hits: int = 0
    cache_misses: int = 0
    workers: int = 0
    cache_error: str | None = None
    # The findings came from the findings cache: no deployments were built.
    from_findings_cache: bool = False
    # Files read only as the deployment context of the files named (never
    # reported on by themselves).
    context_files: list[str] = []
    # The run whose conclusions about the project's files the analyses shared
    # in this process (ProjectFiles.run): a later run may follow it.
    project_run: str = ""
