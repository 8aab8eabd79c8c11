#!/usr/bin/env python3
"""sglang-lint on a real SGLang tree against ruff (issue 20).

    python benchmarks/sglang_tree.py [--version 0.5.23] [--wheel FILE] [--runs 3]

The tree is the source of a released SGLang wheel: the wheel is taken from
``--wheel``, else from this benchmark's download directory
(``~/.cache/sglang-lint-bench``), else fetched there with ``pip download
--no-deps sglang==VERSION`` (pip answers from its own cache when it has the
file). When none of these gives a wheel the benchmark says so and exits 0: it
needs the network once, not every time.

The wheel is unpacked (once) beside it and, on that tree, the benchmark prints:

1. the files the tree holds, and how many of them pass the pre-check
   (``prefilter.may_launch``: the files that are parsed; for Python, the files
   whose top level is interpreted), by kind;
2. cold: ``sglang-lint check --no-cache`` against ``ruff check --select E9
   --no-cache`` on the same tree, alternating, ``--runs`` pairs: the median
   wall times, their ratio (target <= 2: the goal is parity), files per
   second, and the peak resident memory of sglang-lint's process tree (target
   <= 250 MB);
3. warm: ``sglang-lint check`` with a cache filled by one run (target <= 0.3 s);
4. the findings of the run by code (target: none; every finding on SGLang's
   own tree is a false one).

Exit 1 when a target is missed (``--no-targets``: figures only).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from package_bytecode import compile_package  # noqa: E402
from perf import BenchError, find_ruff, run, sglang_lint  # noqa: E402

TARGETS = {"ratio": 2.0, "warm_s": 0.3, "peak_mb": 250.0, "findings": 0}
DOWNLOADS = Path(os.environ.get("SGLANG_LINT_BENCH_CACHE", Path.home() / ".cache" / "sglang-lint-bench"))


def find_wheel(version: str, given: Path | None) -> Path | None:
    """The wheel of ``version``: given, downloaded before, or downloaded now."""
    if given is not None:
        return given if given.is_file() else None
    DOWNLOADS.mkdir(parents=True, exist_ok=True)
    found = sorted(DOWNLOADS.glob(f"sglang-{version}-*.whl"))
    if found:
        return found[0]
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(DOWNLOADS), f"sglang=={version}"]
    try:
        completed = subprocess.run(command, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"pip download failed: {error}")
        return None
    if completed.returncode != 0:
        print(f"pip download failed: {completed.stderr.strip().splitlines()[-1:] or completed.returncode}")
        return None
    found = sorted(DOWNLOADS.glob(f"sglang-{version}-*.whl"))
    return found[0] if found else None


def unpack(wheel: Path) -> Path:
    """The wheel's files under a directory beside it (unpacked once)."""
    tree = wheel.with_suffix("")
    marker = tree / ".unpacked"
    if not marker.exists():
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(tree)
        marker.write_text("")
    return tree


def candidates(tree: Path) -> tuple[int, Counter]:
    """The files of the tree, and those of each kind the pre-check lets through."""
    from sglang_lint.files import classify, decode_source
    from sglang_lint.prefilter import may_launch

    total = 0
    passed: Counter = Counter()
    for directory, _, names in os.walk(tree):
        for name in names:
            total += 1
            path = Path(directory, name)
            try:
                data = path.read_bytes()
            except OSError:
                continue
            kind = classify(name, data[:256])
            if kind is None:
                continue
            text, _ = decode_source(str(path), data)
            if text is not None and may_launch(kind.value, text):
                passed[kind.value] += 1
    return total, passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default="0.5.23", help="the SGLang release whose wheel is the tree")
    parser.add_argument("--wheel", type=Path, help="a wheel file to use instead of downloading one")
    parser.add_argument("--runs", type=int, default=3, help="alternating cold pairs (and warm runs)")
    parser.add_argument("--no-targets", action="store_true", help="print the figures without failing on a missed target")
    args = parser.parse_args(argv)

    wheel = find_wheel(args.version, args.wheel)
    if wheel is None:
        print(f"skipped: no SGLang {args.version} wheel (give --wheel FILE, or let pip download it once)")
        return 0
    tree = unpack(wheel)
    compile_package()  # what `pip install` leaves behind (package_bytecode.py)
    total, passed = candidates(tree)
    print(f"tree: {tree} ({total} files)")
    print("  parsed (pass the pre-check): " + (", ".join(f"{count} {kind}" for kind, count in sorted(passed.items())) or "none"))

    misses: list[str] = []
    ruff = find_ruff()
    cold: list[float] = []
    ruffs: list[float] = []
    peaks: list[float] = []
    try:
        for _ in range(args.runs):
            measured = run(sglang_lint("check", "--no-cache", "--quiet", "."), tree, sample_memory=True)
            cold.append(measured.wall)
            peaks.append(measured.tree_peak_mb)
            if ruff is not None:
                ruffs.append(run([ruff, "check", "--select", "E9", "--no-cache", "--quiet", "--exit-zero", "."], tree).wall)
        cold_s = statistics.median(cold)
        print(f"cold: {cold_s:.2f} s median of {len(cold)}, {total / cold_s:.0f} files/s, peak {max(peaks):.0f} MB (process tree)")
        if ruffs:
            ratio = cold_s / statistics.median(ruffs)
            print(f"  ruff check --select E9: {statistics.median(ruffs):.2f} s; ratio {ratio:.1f} (target <= {TARGETS['ratio']:.0f})")
            if ratio > TARGETS["ratio"]:
                misses.append(f"cold ratio {ratio:.1f} > {TARGETS['ratio']}")
        else:
            print("  ruff not found (pip install ruff): no ratio")
        if max(peaks) > TARGETS["peak_mb"]:
            misses.append(f"peak {max(peaks):.0f} MB > {TARGETS['peak_mb']:.0f} MB")

        with tempfile.TemporaryDirectory(prefix="sglang-lint-bench-cache-") as cache:
            run(sglang_lint("check", "--cache-dir", cache, "--quiet", "."), tree)
            warm = statistics.median(run(sglang_lint("check", "--cache-dir", cache, "--quiet", "."), tree).wall for _ in range(args.runs))
        print(f"warm: {warm:.2f} s (target <= {TARGETS['warm_s']})")
        if warm > TARGETS["warm_s"]:
            misses.append(f"warm {warm:.2f} s > {TARGETS['warm_s']} s")

        completed = subprocess.run(sglang_lint("check", "--no-cache", "--output-format", "json", "."), cwd=tree, capture_output=True, text=True, timeout=3600)
        findings = json.loads(completed.stdout or "[]")
    except BenchError as error:
        print(f"error: {error}")
        return 1
    codes = Counter(finding["code"] for finding in findings)
    print(f"findings: {len(findings)}" + (" (" + ", ".join(f"{code} {count}" for code, count in sorted(codes.items())) + ")" if codes else ""))
    for finding in findings[:20]:
        print(f"  {finding['filename']}:{finding['location']['row']}: {finding['code']} {finding['message'][:140]}")
    if len(findings) > TARGETS["findings"]:
        misses.append(f"{len(findings)} findings (target none)")

    if misses and not args.no_targets:
        print("missed: " + "; ".join(misses))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
