"""The analysis of a workspace as an editor sees it: the files of its folders,
with the open buffers' text over what is on disk, re-run on every change.

Knows no protocol (the language server in sglang_lint.server adapts it): it
runs lint_paths with the buffers as overlays and a per-file cache that lives
in memory between runs (over the on-disk cache).
"""

from __future__ import annotations

import os

from msgspec import Struct

from sglang_lint.config import ConfigError
from sglang_lint.files import is_inside, source_kind
from sglang_lint.model import Finding
from sglang_lint.pipeline import LintOptions, LintResult, extract, lint_paths


class Outcome(Struct):
    """One analysis of the workspace: findings by absolute path, the lines of
    every file analyzed (for positions), or the config error that stopped it."""

    findings: dict[str, list[Finding]] = {}
    lines: dict[str, list[str]] = {}
    config_error: ConfigError | None = None


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

    def run(self, buffers: dict[str, str], *, persist: bool = False) -> Outcome:
        """Analyze the roots (or, with none, the open buffers alone) with
        ``buffers`` (absolute path -> text) over the files on disk."""
        # The folders, and open files outside them (those on disk: a new file
        # needs a folder to be found in); never such a file's whole directory,
        # which may be a home directory.
        outside = sorted(path for path in buffers if os.path.isfile(path) and not self._inside(path))
        paths = [*self.roots, *outside]
        self.cache.reset_counts()
        self.cache.persist = persist
        try:
            result = lint_paths(paths, self.options, overlays=buffers, extraction_cache=self.cache)
        except ConfigError as error:
            return Outcome(config_error=error)
        self.cache.forget(set(result.sources))
        return _outcome(result)

    def _inside(self, path: str) -> bool:
        absolute = os.path.abspath(path)
        return any(is_inside(absolute, root) for root in self.roots)

    def comments_of(self, path: str, text: str) -> dict[int, str]:
        """The comments the file's own source reads in ``text`` (for placing a
        ``# noqa``)."""
        kind = source_kind(path, text)
        if kind is None:
            return {}
        return extract(path, text, kind).comments


def _outcome(result: LintResult) -> Outcome:
    outcome = Outcome()
    for path, lines in result.sources.items():
        outcome.lines[os.path.abspath(path)] = lines
    for finding in result.findings:
        outcome.findings.setdefault(os.path.abspath(finding.location.path), []).append(finding)
    return outcome
