#!/usr/bin/env python3
"""`sglang-lint check --fix` on one file, as pre-commit's sglang-lint-fix hook and
an editor's save action run it (issue 21): target <= 400 ms whole process.

    python benchmarks/fix_one_file.py [--runs 11] [--target-ms 400]

For each golden case of tests/golden/fixes whose `before/` holds a single file
(a shell script, a Python launcher, a Kubernetes manifest, a runbook), a copy
in a temporary directory is fixed with `sglang-lint check --no-cache --strict
--fix --unsafe-fixes FILE` (the file restored before each run) and, for
comparison, checked without fixing. Prints the median and range of each, and
the fix's cost over the plain check. Exit 1 when a median is above the target.

Whole processes through the installed `sglang-lint` command, bytecode compiled
first (what `pip install` leaves behind), one warm-up run each.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "fixes"
CASES = ("sgl202-shell", "sgl202-python", "sgl004-yaml", "sgl003-markdown", "sgl006-python")


def _time(command: list[str], cwd: Path, reset) -> float:
    reset()
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--target-ms", type=float, default=400.0)
    args = parser.parse_args(argv)
    # The command installed beside this interpreter (a virtual environment's).
    beside = Path(sys.executable).parent / "sglang-lint"
    command = str(beside) if beside.exists() else shutil.which("sglang-lint")
    if command is None:
        print("sglang-lint is not installed (pip install -e .)", file=sys.stderr)
        return 2
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "sglang_lint")], check=False, capture_output=True)
    missed = False
    print(f"{'case':<18} {'check --fix (ms)':>22} {'check (ms)':>22} {'fix costs':>10}")
    for case in CASES:
        (original,) = [path for path in (GOLDEN / case / "before").iterdir() if path.is_file()]
        text = original.read_bytes()
        with tempfile.TemporaryDirectory() as directory:
            work = Path(directory)
            target = work / original.name

            def reset() -> None:
                target.write_bytes(text)

            base = [command, "check", "--no-cache", "--strict", "--select", "SGL0,SGL2,SGL902", target.name]
            timings = {}
            for label, extra in (("fix", ["--fix", "--unsafe-fixes"]), ("check", [])):
                _time([*base, *extra], work, reset)  # warm-up
                runs = [_time([*base, *extra], work, reset) for _ in range(args.runs)]
                timings[label] = runs
            reset()
            subprocess.run([*base, "--fix", "--unsafe-fixes"], cwd=work, capture_output=True, check=False)
            if target.read_bytes() == text:
                print(f"{case}: the fix changed nothing: the benchmark measures no fix", file=sys.stderr)
                return 2
        fix_ms = statistics.median(timings["fix"]) * 1000
        check_ms = statistics.median(timings["check"]) * 1000

        def shown(runs: list[float]) -> str:
            return f"{statistics.median(runs) * 1000:.0f} ({min(runs) * 1000:.0f}-{max(runs) * 1000:.0f})"

        print(f"{case:<18} {shown(timings['fix']):>22} {shown(timings['check']):>22} {fix_ms - check_ms:>8.0f} ms")
        missed = missed or fix_ms > args.target_ms
    print(f"target: check --fix on one file <= {args.target_ms:.0f} ms: {'missed' if missed else 'met'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
