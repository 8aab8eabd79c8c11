#!/usr/bin/env python3
"""sglang-lint over the whole CPython standard library (Lib/test included, with
its deliberately broken files) and over the installed site-packages (issue 8):
the run must end with exit 0 or 1, print no traceback, and report no internal
error.

    python benchmarks/whole_library_run.py [--tree DIR ...] [--jobs N]

Each tree is checked as it is, in place (``--no-cache``, ``--no-respect-gitignore``:
every file is looked at; nothing is written). Prints, per tree, the files walked,
the wall time, the exit status and the findings by code, and fails (exit 1) when
a run crashed, printed a traceback or reported an internal error. SGL900 notes for
files sglang-lint cannot read (undecodable bytes, binary data) are expected and
counted; "internal error" in a message is not.
"""

from __future__ import annotations

import argparse
import json
import os
import site
import subprocess
import sys
import sysconfig
import time
from collections import Counter
from pathlib import Path


def default_trees() -> list[Path]:
    """The standard library, then every site-packages directory: the virtual
    environment's and the base interpreter's (which lives inside the standard
    library's directory, where a walk skips it as a site-packages directory: it is
    named as a tree of its own)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    base = sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_prefix})["purelib"]
    trees = [stdlib]
    for packages in [*site.getsitepackages(), sysconfig.get_paths()["purelib"], base]:
        path = Path(packages)
        if path.is_dir() and path not in trees:
            trees.append(path)
    return trees


def count_files(tree: Path) -> int:
    return sum(len(files) for _, _, files in os.walk(tree))


def check(tree: Path, jobs: int | None) -> bool:
    command = [sys.executable, "-I", "-m", "sglang_lint", "check", "--no-cache", "--no-respect-gitignore", "--format", "json", str(tree)]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    start = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    wall = time.perf_counter() - start
    problems = []
    if completed.returncode not in (0, 1):
        problems.append(f"exit status {completed.returncode}")
    if "Traceback" in completed.stderr or "Traceback" in completed.stdout:
        problems.append("a traceback was printed")
    try:
        findings = json.loads(completed.stdout or "[]")
    except ValueError:
        findings = []
        problems.append("the JSON report does not parse")
    codes = Counter(f["code"] for f in findings)
    internal = [f for f in findings if "internal error" in f["message"]]
    if internal:
        problems.append(f"{len(internal)} internal error(s), e.g. {internal[0]['filename']}: {internal[0]['message']}")
    print(f"{tree}")
    print(f"  {count_files(tree)} files walked, {wall:.1f}s, exit {completed.returncode}")
    print("  findings: " + (", ".join(f"{code} {count}" for code, count in sorted(codes.items())) or "none"))
    for note in [f for f in findings if f["code"] == "SGL900"][:5]:
        print(f"    e.g. {note['filename']}:{note['location']['row']}: {note['message'][:110]}")
    for problem in problems:
        print(f"  FAIL: {problem}")
    if completed.stderr.strip():
        print("  stderr: " + completed.stderr.strip()[-500:])
    return not problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", type=Path, help="a tree to check (default: the standard library and site-packages)")
    parser.add_argument("--jobs", type=int, default=None, help="sglang-lint --jobs (default: its own)")
    args = parser.parse_args(argv)
    trees = args.tree or default_trees()
    print(f"sglang-lint over {len(trees)} tree(s), Python {sys.version.split()[0]}")
    results = [check(tree, args.jobs) for tree in trees]
    print("OK" if all(results) else "FAIL")
    return 0 if all(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
