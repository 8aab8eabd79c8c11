#!/usr/bin/env python3
"""Coverage-guided fuzzing of the shell and Python sources with atheris
(libFuzzer for Python), issue 8.

    pip install -e '.[fuzz]'
    python fuzz/fuzz_sources.py shell  -max_total_time=600
    python fuzz/fuzz_sources.py python -max_total_time=600 -jobs=2 -workers=2

The first argument picks the source; the rest goes to libFuzzer (its -help=1
lists them). The seed corpus is every fixture of that kind (copied into
fuzz/corpus-<source>/, which libFuzzer then grows with the inputs that reach new
code). Each input is decoded leniently (atheris's FuzzedDataProvider), handed to
the source as one file, and the result is run through the analysis stage too
(settings, topology, rules), as a real run would. Any exception is a crash:
libFuzzer stops and writes the input to crash-<sha1>; turn it into a regression
test (tests/test_fuzz_regressions.py) before fixing it. An input that takes longer
than -timeout seconds (default here: 10) is a hang and reported the same way.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import atheris

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures"
SUFFIXES = {"shell": (".sh", ".bash"), "python": (".py",)}

with atheris.instrument_imports(include=["sglang_lint"]):
    from sglang_lint.pipeline import LintOptions, analyze_results
    from sglang_lint.sources.python import analyze_python
    from sglang_lint.sources.shell import analyze_shell

SOURCES = {"shell": (analyze_shell, "fuzz.sh"), "python": (analyze_python, "fuzz.py")}


def make_test(source: str):
    analyze, name = SOURCES[source]
    options = LintOptions()

    def test_one_input(data: bytes) -> None:
        provider = atheris.FuzzedDataProvider(data)
        text = provider.ConsumeUnicodeNoSurrogates(len(data))
        result = analyze(name, text)
        analyze_results([result], options)

    return test_one_input


def seed_corpus(source: str) -> Path:
    corpus = HERE / f"corpus-{source}"
    corpus.mkdir(exist_ok=True)
    for path in sorted(FIXTURES.rglob("*")):
        if path.is_file() and path.suffix in SUFFIXES[source]:
            target = corpus / f"fixture-{path.parent.name}-{path.name}"
            if not target.exists():
                shutil.copyfile(path, target)
    return corpus


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in SOURCES:
        print(f"usage: {sys.argv[0]} {{shell,python}} [libFuzzer options]", file=sys.stderr)
        raise SystemExit(2)
    source = sys.argv[1]
    corpus = seed_corpus(source)
    arguments = [sys.argv[0], *sys.argv[2:]]
    if not any(a.startswith("-timeout=") for a in arguments):
        arguments.append("-timeout=10")
    if not any(not a.startswith("-") for a in arguments[1:]):
        arguments.append(str(corpus))
    atheris.Setup(arguments, make_test(source))
    atheris.Fuzz()


if __name__ == "__main__":
    main()
