"""flake8 plugin: ``flake8 --select SGL`` reports sglang-lint findings in ``.py`` files.

Registered as the ``SGL`` entry point of the ``flake8.extension`` group. It is a thin
adapter over :mod:`sglang_lint.pipeline` (design.md, "Interfaces"):

* flake8 classifies a plugin by its constructor's parameter names
  (``flake8/plugins/finder.py``, ``_classify_plugins``): ``tree`` makes this a tree
  plugin, constructed once per file, whose ``run()`` yields
  ``(line, column offset, "CODE message", type)``. We take ``lines`` (what flake8
  read, so standard input works and the file is never read twice) and ``filename``
  (the path as given, or ``--stdin-display-name``); the AST is not used.
* Cost for the common case: a file is first checked with
  :func:`sglang_lint.prefilter.python_may_run_a_launch`, the CLI's check (issue 20:
  a launch entry the file spells, or the import of a server fixture class); when it
  finds none, the CLI's check of a file named alone follows
  (:meth:`SglangLintChecker._imports_a_launcher`: does the file import a
  definition of the project that may launch?), with what each module may launch
  told once per flake8 run; a file that imports the standard library alone returns
  without importing anything. This module imports only the prefilter at import
  time; the analyzer (tree-sitter, PyYAML, option tables) is imported inside
  ``run()`` by the first file that needs it.
* Cost for a file that passes it (SGLang's own tree: 143 of 4,719 files): the
  analysis runs in the process flake8 gives it (no pool of ours), with the CLI's
  threshold of the cycle collector, and keeps nothing flake8's collector must
  walk for every later file (what it keeps, the syntax trees of the modules it
  imported among it, is frozen out of the collector, :func:`_analysis`); a
  context file is analyzed once per process (:func:`_context_cache`), and each
  file's run follows the one before it in the process (:data:`_PREVIOUS_RUN`:
  what the last file concluded about the modules both import is kept while
  their texts are the same).
* Cost of a file flake8 checked before, unchanged since: next to nothing. The
  results are kept in the CLI's on-disk cache (``.sglang-lint-cache`` at the
  project root, or the config's ``cache-dir``), read once per process and
  written when the process ends: flake8 runs again and again over the same files
  (an editor on every save, a pre-commit hook), and on SGLang's tree each run
  analyzed the 143 launching files anew (issue 24). ``--sglang-no-cache`` (or
  ``sglang-no-cache = true`` in flake8's config) keeps it in memory only.
* Never an exception: one escaping a plugin aborts the whole flake8 run and loses
  every other result, so any internal error becomes a single ``SGL900`` finding on
  line 1.
* Columns: sglang-lint's columns are 1-based code points; flake8 wants a 0-based
  offset from tree plugins and prints ``offset + 1``, so flake8 shows the CLI's
  column.
* A finding whose location is in another file (a ``--config`` YAML file the launch
  reads) is reported on the first line of the launch in this file, column 1, so
  that a ``# noqa`` there silences it.
* Context: flake8 feeds Python files one at a time, so each file is analyzed with
  the files it deploys with (its directory's, the topology manifest's), read from
  disk, as the CLI does for files named one by one; a pair finding located in the
  other file is reported at this file's side of the pair.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Iterator
from typing import Any

from sglang_lint import __version__
from sglang_lint.prefilter import imported_names, python_may_run_a_launch

INTERNAL_ERROR_CODE = "SGL900"
# flake8 prints the message on one line; an exception text may be long.
_MAX_ERROR_TEXT = 200

Result = tuple[int, int, str, type]


class SglangLintChecker:
    """The flake8 checker: one instance per Python file."""

    name = "sglang-lint"
    version = __version__

    # --sglang-target-version, set by parse_options (None: newest known release).
    target_version: str | None = None
    # flake8's --disable-noqa: our own noqa handling (any line of a launch) is off too.
    disable_noqa: bool = False
    # Keep results in the on-disk cache: set by parse_options (flake8's run),
    # unless --sglang-no-cache; a checker built without flake8 keeps them in
    # memory only.
    use_cache: bool = False

    def __init__(self, tree: Any, lines: list[str], filename: str) -> None:
        # ``tree`` is unused; its name is what makes flake8 treat this class as
        # a tree plugin (run once per file, not once per line).
        self.lines = lines
        self.filename = filename
        # What the file's imports were judged to be (:meth:`_imports_a_launcher`)
        # when it spells no launch: handed to the analysis.
        self._judged: tuple[str, tuple] | None = None

    # -- options ------------------------------------------------------------------
    @classmethod
    def add_options(cls, parser: Any) -> None:
        parser.add_option(
            "--sglang-target-version",
            default=None,
            metavar="VERSION",
            parse_from_config=True,
            help="SGLang release whose options and formulas sglang-lint judges with "
            "(default: the newest release sglang-lint knows)",
        )
        parser.add_option(
            "--sglang-no-cache",
            default=False,
            action="store_true",
            parse_from_config=True,
            help="do not read or write sglang-lint's on-disk cache of per-file results (.sglang-lint-cache)",
        )

    @classmethod
    def parse_options(cls, options: Any) -> None:
        """Store ``--sglang-target-version`` (command line or config file).

        An unknown version stops flake8 at once with ``flake8: error: ...`` and exit
        status 2, the way flake8 treats a bad value of its own options
        (``--max-line-length=abc``): a mistyped setting in ``setup.cfg`` is found the
        first time flake8 runs, rather than showing up as a finding on just those
        files that launch SGLang (and on nothing when none does).
        """
        version = getattr(options, "sglang_target_version", None)
        if version is not None:
            version = str(version).strip() or None
        if version is not None:
            # Imported only when the option is given: the tables module is light
            # (json, importlib.resources), but nothing is loaded that is not needed.
            from sglang_lint.catalog.tables import has_table_for, known_versions

            known = known_versions()
            if not has_table_for(version):
                sys.stderr.write(
                    f"flake8: error: argument --sglang-target-version: no sglang-lint option table for "
                    f"SGLang {version!r}; known versions: {', '.join(known)} (a release after {known[-1]} is judged "
                    "with its table)\n"
                )
                raise SystemExit(2)
        cls.target_version = version
        cls.disable_noqa = bool(getattr(options, "disable_noqa", False))
        cls.use_cache = not getattr(options, "sglang_no_cache", False)
        _ran("")  # a new flake8 run follows no earlier one (files may have changed since)
        _SELECTION.clear()

    # -- checking -----------------------------------------------------------------
    def run(self) -> Iterator[Result]:
        try:
            text = "".join(self.lines)
            if not python_may_run_a_launch(text) and not self._imports_a_launcher(text):
                return
            with _analysis():
                results = self._check(text)
        except Exception as error:  # noqa: BLE001 - RecursionError, MemoryError too: never crash flake8
            results = [(1, 0, _internal_error_message(error), type(self))]
        yield from results

    def _imports_a_launcher(self, text: str) -> bool:
        """The CLI's pre-check of a file named alone (``sglang-lint check
        FILE``, extraction.importing_launchers): a file that spells no launch
        but imports a definition of the project that may launch (``from
        helpers import start_pd`` beside a ``helpers.py`` that runs
        ``sglang.launch_server``) is analyzed, and the Python source decides
        whether a statement reaches a launch. Without it, flake8 was silent
        where the CLI found the mismatch (issue 24). What the project's modules
        may launch is told once per flake8 run (:data:`_SELECTION`): the files
        do not change while flake8 runs."""
        if self.filename in ("stdin", "-") or b"import" not in (data := text.encode("utf-8", "surrogatepass")):
            return False
        # (a file importing the standard library alone loads no analyzer)
        imports = imported_names(data)
        if all(module.split(".")[0] in sys.stdlib_module_names for module, _ in imports):
            return False
        from sglang_lint.extraction import imports_a_launching_definition, launching_imports

        project = _selection_project(self.filename)
        if not imports_a_launching_definition(self.filename, imports, project, _SELECTION, stable=True):
            return False
        # Handed to the analysis (pipeline.StdinFile.judged), which judged it
        # again with a memo of its own: ~1 s more of each flake8 worker.
        self._judged = launching_imports(self.filename, imports, project, _SELECTION, stable=True)
        return True

    def _check(self, text: str) -> list[Result]:
        from sglang_lint import pipeline
        from sglang_lint.catalog.tables import UnknownVersionError
        from sglang_lint.config import ConfigError
        from sglang_lint.files import FileKind
        from sglang_lint.report._text import sanitize

        # The file is analyzed with its deployment context, as `sglang-lint check
        # FILE` does: the files beside it (a prefill.py for this decode.py) and those
        # of the topology manifest entries naming it are read from disk, and the
        # findings that concern this file are reported here. flake8 decides what is
        # Python (*.py, any file named on its command line, standard input): the
        # text is analyzed as Python whatever the name says. The config's env and
        # target-version apply; selection is flake8's own business (--select /
        # --extend-ignore / per-file-ignores).
        # jobs=1: flake8 runs the files in its own worker processes; a pool of
        # ours inside each of them (a directory of 16 launching files) only forked
        # the worker again and fought flake8's for the same CPUs.
        on_stdin = self.filename in ("stdin", "-")
        options = pipeline.LintOptions(target_version=self.target_version, ignore_noqa=self.disable_noqa, context=not on_stdin, jobs=1)
        named = pipeline.StdinFile(None, filename=None if on_stdin else self.filename, text=text, kind=FileKind.PYTHON, judged=self._judged)
        try:
            # (the files do not change while flake8 runs: what each reads as is
            # kept for the run, _SELECTION; no report shows their lines)
            result = pipeline.lint_paths(
                [],
                options,
                stdin=named,
                extraction_cache=_context_cache(None if on_stdin else self.filename, self.use_cache),
                follows=_follow(),
                stable_digests=_SELECTION.setdefault(("digests",), {}),
                dependency_lines=False,
            )
        except (ConfigError, UnknownVersionError) as error:  # parse_options refuses unknown versions; a caller may not
            return [(1, 0, f"{INTERNAL_ERROR_CODE} {sanitize(str(error))}", type(self))]
        _ran(result.project_run)
        here = os.path.normpath(named.display)
        results: list[Result] = []
        for finding in result.findings:
            position = _position(finding, here)
            # Untrusted text from the file is shown, never obeyed (an ESC, a
            # newline), exactly as the CLI's concise format shows it: the
            # one-line message, without the help and notes.
            text = f"{finding.code} {sanitize(finding.message)}"
            location = finding.location
            if os.path.normpath(location.path) != here:
                text += f" (at {sanitize(location.path)}:{location.line}:{location.column})"
            results.append((position[0], position[1], text, type(self)))
        results.sort(key=lambda item: (item[0], item[1], item[2]))
        return results


@contextlib.contextmanager
def _analysis() -> Iterator[None]:
    """Analyze a file and leave flake8's process as it was: its collector's
    thresholds restored, and what the analysis keeps for the next ones kept
    out of flake8's collections.

    What an analysis keeps is this package's modules and option tables (the
    first), the results (the on-disk cache's, the analyses'), and the syntax
    trees of the modules the file imported (``python_interpreter.PARSED``, up
    to 640 KB of source: the next launching file imports mostly the same
    ones). Left among flake8's objects, every full collection of flake8's own
    work walked them (on SGLang's tree about as much CPU time as the analyses
    themselves); dropped after each file, every file parsed its imports again
    (a third of each analysis). So after an analysis that made anything new
    (not one the cache answered) they are frozen (``gc.freeze``), after a
    collection that leaves no garbage among them (an analysis leaves none:
    ``PythonInterpreter.release``; measured on SGLang's tree, ~4 ms a file).
    A frozen tree the parse cache lets go is freed as any other (trees hold
    no cycles)."""
    global _SETTLED
    from sglang_lint.pipeline import ANALYSIS_GC_THRESHOLD

    # (flake8's own work keeps Python's default, which is not ours to tune)
    threshold = gc.get_threshold()
    gc.set_threshold(*ANALYSIS_GC_THRESHOLD)
    analyses = _analyses_made()
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        if not _SETTLED or _analyses_made() != analyses:
            _SETTLED = True
            gc.collect()
            gc.freeze()


# The run of this process's last analysis (LintResult.project_run) and the
# working directory it ran in: the next file's follows it
# (ProjectFiles.follows), keeping the conclusions about the project's modules
# (what each may launch) while the texts they read are the same, and where an
# import's modules lie. flake8 hands a process its files one by one, each a
# run of its own: each judged again every module its imports reach (SGLang's
# tree, cold: 18.5 -> 13.5 CPU-s for its 143 launching files, with the parse
# trees kept, _analysis). Where modules lie holds while no file is created or
# deleted: within one flake8 run (parse_options starts each afresh), in one
# working directory (the paths are as shown).
_PREVIOUS_RUN: tuple[str, str] = ("", "")


# What the cross-file pre-check (SglangLintChecker._imports_a_launcher) has
# learnt in this flake8 run: where each import's modules lie, what each module
# may launch, and the project (its roots) of each directory. Emptied by
# parse_options: a new flake8 run reads the files as they are then.
_SELECTION: dict[tuple, Any] = {}


def _selection_project(filename: str) -> Any:
    """Where the modules ``filename`` imports are looked for: the project
    its config makes (the directory of the root config file, else the working
    directory, and the file's own directory when outside it), as the CLI's run
    over that file would; a config that cannot be read counts as none (the
    file's analysis, if it comes to one, reports it)."""
    directory = os.path.dirname(os.path.abspath(filename))
    key = ("project", directory, os.getcwd())
    project = _SELECTION.get(key)
    if project is None:
        from sglang_lint.config import ConfigError, discovery_start
        from sglang_lint.pipeline import LintOptions, project_files

        resolver = _SELECTION.get(("resolver",))
        if resolver is None:
            from sglang_lint.config import ConfigResolver

            resolver = _SELECTION[("resolver",)] = ConfigResolver(None)
        try:
            config = resolver.for_directory(discovery_start([filename]))
        except (ConfigError, OSError, ValueError):
            config = None
        project = _SELECTION[key] = project_files(LintOptions(config=config), [filename])
    return project


def _follow() -> str:
    directory, run = _PREVIOUS_RUN
    return run if run and directory == os.getcwd() else ""


def _ran(run: str) -> None:
    global _PREVIOUS_RUN
    _PREVIOUS_RUN = (os.getcwd(), run)


def _analyses_made() -> int:
    """How many files this process has analyzed anew (the results its cache
    could not answer)."""
    return getattr(_CONTEXT_CACHE, "misses", 0)


_SETTLED = False


# The context files this process has analyzed (cache.MemoryExtractionCache), one
# entry a path, used while the text, the env and what it read (its imports) are
# the same. flake8 hands a process the files of a directory one by one, and each
# brings the same siblings along as its context: without it, a directory of n
# launching files was analyzed n times over (SGLang's tree: 232 analyses for
# its 143 files that pass the pre-check, 172 with it, in one process).
_CONTEXT_CACHE: Any = None


def _context_cache(filename: str | None, on_disk: bool) -> Any:
    """This process's cache of results (one per process: flake8 hands a process
    many files), backed by the on-disk cache of the project the first file
    belongs to when ``on_disk``; written back when the process ends."""
    global _CONTEXT_CACHE
    if _CONTEXT_CACHE is None:
        from sglang_lint.cache import MemoryExtractionCache

        disk = _disk_cache(filename) if on_disk and filename is not None else None
        _CONTEXT_CACHE = MemoryExtractionCache(disk)
        if disk is not None:
            import multiprocessing.util

            _CONTEXT_CACHE.persist = True
            # At the end of this process: flake8's worker processes leave
            # through multiprocessing, which runs these (atexit does not run
            # there); its main process (-j1) runs them at exit.
            multiprocessing.util.Finalize(None, _save_cache, exitpriority=10)
    return _CONTEXT_CACHE


def _disk_cache(filename: str) -> Any:
    """The on-disk cache the CLI would use for ``filename``: the config's
    ``cache-dir``, else $SGLANG_LINT_CACHE_DIR, else ``.sglang-lint-cache`` at
    the project root; None when its config cannot be read (the run reports that)."""
    from sglang_lint.cache import ExtractionCache
    from sglang_lint.config import ConfigError, ConfigResolver, discovery_start
    from sglang_lint.pipeline import LintOptions, cache_directory

    try:
        config = ConfigResolver(None).for_directory(discovery_start([filename]))
    except (ConfigError, OSError, ValueError):
        return None
    return ExtractionCache(cache_directory(LintOptions(config=config)))


def _save_cache() -> None:
    """Write this process's new results to the on-disk cache. The file is read
    again first: flake8's other worker processes wrote theirs since this one
    read it, and their entries are kept. Never raises (the process is ending;
    a read-only checkout only loses the cache)."""
    memory = _CONTEXT_CACHE
    disk = getattr(memory, "disk", None)
    if disk is None:
        return
    try:
        disk.save_beside_others()
    except Exception:  # noqa: BLE001 - a cache that cannot be written costs time, never a run
        pass


def _position(finding: Any, here: str) -> tuple[int, int]:
    """(line, 0-based offset) at which flake8 reports ``finding`` in the file
    ``here``. Every finding reported concerns this file; one located elsewhere
    goes where it touches this file: the first line of its launch here, where a
    ``# noqa`` silences it (a value from a ``--config`` YAML file), else its
    related location here (this side of a pair whose other side is in a file
    beside this one), else line 1."""
    location = finding.location
    if os.path.normpath(location.path) == here:
        return max(1, location.line), max(0, location.column - 1)
    lines = [first for path, first, _last in finding.noqa_ranges if os.path.normpath(path) == here]
    if lines:
        return max(1, min(lines)), 0
    for related in finding.related:
        if os.path.normpath(related.location.path) == here:
            return max(1, related.location.line), max(0, related.location.column - 1)
    return 1, 0


def _internal_error_message(error: BaseException) -> str:
    try:
        detail = f"{type(error).__name__}: {error}"
    except Exception:  # noqa: BLE001 - a __str__ that raises
        detail = type(error).__name__
    # One line of printable text: the exception may quote the analyzed file.
    detail = "".join(char if char.isprintable() else " " for char in detail)
    detail = " ".join(detail.split())
    if len(detail) > _MAX_ERROR_TEXT:
        detail = detail[: _MAX_ERROR_TEXT - 3] + "..."
    return f"{INTERNAL_ERROR_CODE} sglang-lint internal error ({detail}); please report it"
