#!/usr/bin/env python3
"""How fast the language server answers an edit (issue 9: within 300 ms for a
workspace of 100 launch files, debounce included).

    python benchmarks/lsp_latency.py [--files 100] [--edits 20]

Generates a workspace of ``--files`` launch files (generate_corpus.py: shell,
Python, YAML and Markdown), starts ``sglang-lint server`` on it as an editor
would, opens one shell script of a prefill/decode pair and waits for the first
analysis; then, ``--edits`` times, sends a full-text didChange of that buffer
(alternating a value so that the result changes) and measures the time until
the server publishes diagnostics for the new version of the document. Prints
the median and the maximum; exit 1 when the median is over the target.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import generate_corpus  # noqa: E402
from lsp_client import LspClient  # noqa: E402

TARGET_MS = 300.0


def pick_document(workspace: Path) -> Path:
    """A shell script whose launch has a --tp-size to change."""
    for path in sorted(workspace.rglob("*.sh")):
        text = path.read_text()
        if "--tp-size" in text and "--disaggregation-mode decode" in text:
            return path
    raise SystemExit("the generated workspace has no decode script with --tp-size")


def copy_library_files(destination: Path, count: int) -> None:
    import shutil
    import sysconfig

    library = Path(sysconfig.get_paths()["stdlib"])
    copied = 0
    for source in sorted(library.rglob("*.py")):
        if "site-packages" in source.parts or "test" in source.parts:
            continue
        target = destination / source.relative_to(library)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        copied += 1
        if copied >= count:
            return


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument(
        "--other-files", type=int, default=0, help="also copy this many standard-library .py files (that launch nothing) into the workspace"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sglang-lint-lsp-") as directory:
        workspace = Path(directory) / "workspace"
        counts = generate_corpus.generate(workspace, args.files)
        if args.other_files:
            copy_library_files(workspace / "library", args.other_files)
        document_path = pick_document(workspace)
        original = document_path.read_text()
        client = LspClient(workspace)
        try:
            start = time.perf_counter()
            client.initialize(workspace)
            document = client.open(document_path)
            client.diagnostics(document, timeout=120)
            first = time.perf_counter() - start
            latencies = []
            for number in range(args.edits):
                # Alternate the launch's TP: a change the analysis must see.
                text = original.replace("--tp-size", "--tp-size 2 --tp-size", 1) if number % 2 == 0 else original
                mark = client.mark()
                sent = time.perf_counter()
                version = client.change(document_path, text)
                # The publication for this very version of the buffer.
                client.diagnostics(document, timeout=60, after=mark, version=version)
                latencies.append((time.perf_counter() - sent) * 1000)
            client.shutdown()
        finally:
            client.kill()
    median = statistics.median(latencies)
    others = f" and {args.other_files} library files that launch nothing" if args.other_files else ""
    print(f"language server, workspace of {sum(counts.values())} launch files ({', '.join(f'{n} {k}' for k, n in sorted(counts.items()))}){others}:")
    print(f"  start, initialize, open and first analysis: {first * 1000:.0f} ms")
    print(f"  edit -> diagnostics published: median {median:.0f} ms, max {max(latencies):.0f} ms over {len(latencies)} edits (debounce 50 ms included)")
    print(f"  [target: <= {TARGET_MS:.0f} ms]")
    if median > TARGET_MS:
        print(f"FAIL: median {median:.0f} ms > {TARGET_MS:.0f} ms")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
