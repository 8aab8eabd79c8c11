#!/usr/bin/env python3
"""What the sglang-lint flake8 plugin costs on code that does not launch SGLang.

Runs flake8 on the same tree of Python files with and without the ``SGL`` plugin,
alternately, and reports the median wall time of each and the overhead:

    python benchmarks/flake8_overhead.py [--runs 5] [-j N] [--max-overhead 3]
                                         [--tree DIR] [--min-files 900]

Default tree: a copy of the running interpreter's standard library (without
idlelib, lib2to3, turtledemo, ensurepip, pydoc_data, site-packages; its test
suites only as far as needed to reach ``--min-files`` distinct files: CPython
3.11's library alone has 575), made in a temporary directory so both
configurations read the same files. The files are checked with the plugin's own
pre-check: a file that names an SGLang marker is left out (none does in CPython's
library). Only when there are still fewer than ``--min-files`` files (a small
``--tree``) is the tree copied again into further subdirectories.

What is compared. Both runs are the same interpreter, the same flake8 and the same
files, started through this very script, with the same built-in checks:

    without: flake8 --select E,F,W,C90      (the SGL plugin is not loaded)
    with:    flake8 --select E,F,W,C90,SGL  (the SGL plugin is loaded and runs)

``--select`` alone cannot switch a plugin off: flake8 loads and runs every
installed plugin and only filters what it reports. So this script, acting as
flake8's launcher, filters flake8's plugin list (``flake8.plugins.finder.
find_plugins``): in the "without" run the ``SGL`` entry point is removed; in the
"with" run it is kept, or added when the package was installed without it (a
checkout whose metadata predates the entry point). The filter runs at import time
of this script, so workers that flake8 starts with ``spawn``/``forkserver``
(which import the launching script again) get it too. Before timing, flake8's
own option parser is asked which checkers it loads in each configuration, and the
benchmark stops unless SGL is loaded in the "with" run and only there.

The overhead is the median over the runs of (with / without - 1), each pair run
back to back in alternating order.

Exit status: 0 when that wall-time overhead is at most
``--max-overhead`` percent, 1 when it is more, 2 when the benchmark could not run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import tokenize
from pathlib import Path

# Set in the environment of the flake8 processes this script starts (and
# inherited by flake8's workers): "with" or "without" the SGL plugin.
MODE_VARIABLE = "SGLANG_LINT_BENCH_PLUGIN"
LIST_VARIABLE = "SGLANG_LINT_BENCH_LIST_PLUGINS"
ENTRY_POINT_NAME = "SGL"
ENTRY_POINT_VALUE = "sglang_lint.flake8_plugin:SglangLintChecker"
BUILTIN_SELECT = "E,F,W,C90"

# Standard-library directories left out: test suites (odd files on purpose:
# bad encodings, syntax errors), IDLE, lib2to3 (grammar test data), demos,
# bundled wheels, generated data, installed packages.
EXCLUDED_DIRS = frozenset(
    {
        "test",
        "tests",
        "idle_test",
        "idlelib",
        "lib2to3",
        "turtledemo",
        "ensurepip",
        "pydoc_data",
        "site-packages",
        "dist-packages",
        "lib-dynload",
        "__pycache__",
    }
)


# ---------------------------------------------------------------------------------
# flake8 launcher mode: this script started as flake8, with or without the plugin


def _is_sglang_lint(plugin) -> bool:
    entry_point = plugin.entry_point
    return entry_point.group == "flake8.extension" and entry_point.value.replace(" ", "").startswith("sglang_lint.")


def _install_plugin_filter(mode: str) -> None:
    from importlib.metadata import EntryPoint

    from flake8.plugins import finder

    original = finder.find_plugins

    def find_plugins(cfg, opts):
        plugins = list(original(cfg, opts))
        ours = [p for p in plugins if _is_sglang_lint(p)]
        if mode == "without":
            plugins = [p for p in plugins if not _is_sglang_lint(p)]
        elif not ours:
            from sglang_lint import __version__

            entry_point = EntryPoint(name=ENTRY_POINT_NAME, value=ENTRY_POINT_VALUE, group="flake8.extension")
            plugins.append(finder.Plugin("sglang-lint", __version__, entry_point))
        return sorted(plugins)

    finder.find_plugins = find_plugins


_MODE = os.environ.get(MODE_VARIABLE)
if _MODE in ("with", "without"):
    _install_plugin_filter(_MODE)


def _flake8_main(argv: list[str]) -> int:
    if os.environ.get(LIST_VARIABLE):
        from flake8.main.application import Application

        app = Application()
        app.initialize(argv)  # parses options and loads plugins; checks nothing
        checkers = app.plugins.checkers
        names = [p.entry_name for p in [*checkers.tree, *checkers.logical_line, *checkers.physical_line]]
        print(json.dumps(sorted(set(names))))
        return 0
    from flake8.main.cli import main

    return main(argv)


# ---------------------------------------------------------------------------------
# Benchmark mode


class BenchError(Exception):
    """The benchmark could not run (exit status 2)."""


def _may_launch(path: Path) -> bool:
    from sglang_lint.prefilter import bytes_may_launch

    return bytes_may_launch(path.read_bytes())


def collect_stdlib(root: Path, min_files: int) -> list[Path]:
    """The library's modules, then as many of its test-suite modules (``test/``,
    in path order) as it takes to reach ``min_files`` distinct files: real code
    rather than a second copy of the same files."""
    def walk(excluded: frozenset[str]) -> list[Path]:
        files = []
        for directory, subdirs, names in os.walk(root):
            subdirs[:] = sorted(d for d in subdirs if d not in excluded and not d.startswith("config-"))
            files.extend(Path(directory, name) for name in sorted(names) if name.endswith(".py"))
        return files

    files = walk(EXCLUDED_DIRS)
    if len(files) < min_files:
        known = set(files)
        extra = [p for p in walk(EXCLUDED_DIRS - {"test", "tests"}) if p not in known]
        files += extra[: min_files - len(files)]
    return files


def build_tree(source: Path | None, destination: Path, min_files: int) -> tuple[int, int, int, str]:
    """Copy the files to benchmark into ``destination``; returns (files, distinct
    files, copies, description)."""
    if source is None:
        root = Path(sysconfig.get_paths()["stdlib"])
        candidates = collect_stdlib(root, min_files)
        description = f"the standard library of Python {sys.version.split()[0]} ({root})"
    else:
        root = source.resolve()
        candidates = sorted(p for p in root.rglob("*.py") if not (set(p.relative_to(root).parts[:-1]) & {"__pycache__"}))
        description = str(root)
    launching = [p for p in candidates if _may_launch(p)]
    files = [p for p in candidates if p not in set(launching)]
    if launching:
        print(f"note: left out {len(launching)} file(s) that name an SGLang marker, e.g. {launching[0]}")
    if not files:
        raise BenchError(f"no Python files under {root}")
    copies = max(1, -(-min_files // len(files)))
    for copy in range(copies):
        for path in files:
            target = destination / f"copy{copy}" / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    return len(files) * copies, len(files), copies, description


def flake8_command(select: str, jobs: str | None) -> list[str]:
    command = [sys.executable, os.path.abspath(__file__), "--isolated", "--exit-zero", "--select", select]
    if jobs is not None:
        command += ["--jobs", jobs]
    return command + ["."]


def loaded_checkers(mode: str, command: list[str], cwd: Path) -> list[str]:
    env = {**os.environ, MODE_VARIABLE: mode, LIST_VARIABLE: "1"}
    process = subprocess.run(command, check=False, cwd=cwd, env=env, capture_output=True, text=True)
    if process.returncode != 0:
        raise BenchError(f"flake8 ({mode} the plugin) failed:\n{process.stderr}")
    return json.loads(process.stdout)


def timed_run(mode: str, command: list[str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of flake8 and its workers)."""
    env = {**os.environ, MODE_VARIABLE: mode}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.run(command, check=False, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if process.returncode != 0:
        raise BenchError(f"flake8 ({mode} the plugin) exited {process.returncode}:\n{process.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def plugin_cost(tree: Path, repeats: int) -> tuple[float, int]:
    """(median seconds, files) for the plugin alone on every file of ``tree``, in
    this process: what flake8 does per file on top of its own work (construct the
    checker with the file's lines, exhaust ``run()``). Measured separately because
    it is not disturbed by other load on the machine the way whole-run timings are."""
    from sglang_lint.flake8_plugin import SglangLintChecker

    files = []
    for path in sorted(tree.rglob("*.py")):
        try:
            with tokenize.open(path) as handle:  # as flake8 reads a file
                files.append((str(path), handle.readlines()))
        except (SyntaxError, UnicodeDecodeError, LookupError):
            continue
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for name, lines in files:
            for _result in SglangLintChecker(None, lines, name).run():
                raise BenchError(f"the plugin reported a finding in {name}: {_result[2]}")
        times.append(time.perf_counter() - start)
    return statistics.median(times), len(files)


def _overhead(with_value: float, without_value: float) -> float:
    return (with_value / without_value - 1.0) * 100.0


def benchmark(args: argparse.Namespace) -> int:
    import flake8

    with tempfile.TemporaryDirectory(prefix="sglang-lint-flake8-bench-") as temporary:
        tree = Path(temporary)
        count, distinct, copies, description = build_tree(args.tree, tree, args.min_files)
        if count < args.min_files:
            raise BenchError(f"only {count} files (need {args.min_files})")
        configurations = {
            "without": flake8_command(BUILTIN_SELECT, args.jobs),
            "with": flake8_command(f"{BUILTIN_SELECT},{ENTRY_POINT_NAME}", args.jobs),
        }
        for mode, command in configurations.items():
            names = loaded_checkers(mode, command, tree)
            if (ENTRY_POINT_NAME in names) != (mode == "with"):
                raise BenchError(f"flake8 {mode} the plugin loads the checkers {names}")
        print(f"flake8 {flake8.__version__} on Python {sys.version.split()[0]}, jobs: {args.jobs or 'flake8 default (auto)'}")
        print(f"tree:   {count} files ({distinct} distinct x {copies}) from {description}")
        print(f"runs:   {args.runs} per configuration, alternating, after {args.warmup} warm-up run(s) each")
        print(f"without: {' '.join(configurations['without'][2:])}")
        print(f"with:    {' '.join(configurations['with'][2:])}")
        direct, direct_files = plugin_cost(tree, max(args.runs, 3))
        for _ in range(args.warmup):
            for mode, command in configurations.items():
                timed_run(mode, command, tree)
        walls: dict[str, list[float]] = {"without": [], "with": []}
        cpus: dict[str, list[float]] = {"without": [], "with": []}
        for run in range(args.runs):
            # Alternate which goes first, so a drift of the machine hits both.
            order = ["without", "with"] if run % 2 == 0 else ["with", "without"]
            for mode in order:
                wall, cpu = timed_run(mode, configurations[mode], tree)
                walls[mode].append(wall)
                cpus[mode].append(cpu)
            print(f"  run {run + 1}: without {walls['without'][-1]:.2f}s, with {walls['with'][-1]:.2f}s")

    wall = {mode: statistics.median(values) for mode, values in walls.items()}
    cpu = {mode: statistics.median(values) for mode, values in cpus.items()}
    # The overhead is the median of the per-pair ratios (each pair ran back to
    # back, in alternating order): a burst of load from elsewhere on the machine
    # spoils one pair, not the comparison (a ratio of medians mixes runs from
    # different moments).
    wall_overhead = statistics.median(_overhead(w, wo) for w, wo in zip(walls["with"], walls["without"]))
    cpu_overhead = statistics.median(_overhead(w, wo) for w, wo in zip(cpus["with"], cpus["without"]))
    print()
    print(f"{'':10}{'median wall':>14}{'median CPU':>14}")
    print(f"{'without':10}{wall['without']:>13.2f}s{cpu['without']:>13.2f}s")
    print(f"{'with':10}{wall['with']:>13.2f}s{cpu['with']:>13.2f}s")
    print(f"{'overhead':10}{wall_overhead:>+13.1f}%{cpu_overhead:>+13.1f}%   (median of the {len(walls['with'])} paired ratios)")
    print(f"{'fastest':10}{min(walls['without']):>13.2f}s / {min(walls['with']):.2f}s with ({_overhead(min(walls['with']), min(walls['without'])):+.1f}%)")
    spread = {mode: (max(values) - min(values)) / statistics.median(values) * 100 for mode, values in walls.items()}
    print(f"spread of wall times between runs: without {spread['without']:.1f}%, with {spread['with']:.1f}%")
    print(
        f"plugin alone, in process: {direct * 1000:.1f} ms for {direct_files} files "
        f"({direct / direct_files * 1e6:.1f} us a file), {direct / cpu['without'] * 100:.2f}% of flake8's CPU time without it"
    )
    if max(spread.values()) > 2 * args.max_overhead:
        print(f"note: the runs vary by more than twice the {args.max_overhead}% budget; the machine is busy, "
              "so the wall-time overhead above is mostly noise (rerun on an idle machine, or with more --runs)")
    if wall_overhead > args.max_overhead:
        print(f"FAIL: wall-time overhead {wall_overhead:+.1f}% exceeds {args.max_overhead}%")
        return 1
    print(f"OK: wall-time overhead {wall_overhead:+.1f}% is within {args.max_overhead}%")
    return 0


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Overhead of the sglang-lint flake8 plugin on code that launches no SGLang.")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per configuration (default: 5)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs per configuration first (default: 1)")
    parser.add_argument("-j", "--jobs", default=None, help="flake8 --jobs (default: flake8's own default, auto)")
    parser.add_argument("--max-overhead", type=float, default=3.0, metavar="PERCENT", help="fail above this overhead (default: 3)")
    parser.add_argument("--tree", type=Path, default=None, help="benchmark the .py files under DIR instead of the standard library")
    parser.add_argument("--min-files", type=int, default=900, help="require at least this many files (default: 900)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    try:
        import flake8  # noqa: F401
    except ImportError:
        print("error: flake8 is not installed (pip install 'sglang-lint[flake8]')", file=sys.stderr)
        return 2
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return benchmark(args)
    except BenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    if _MODE in ("with", "without"):
        raise SystemExit(_flake8_main(sys.argv[1:]))
    raise SystemExit(main())
