"""A batch run leaves nothing to the cycle collector (issue 20): the Python
source's interpreter refers to itself, and a run's heap and the trees it read
used to stay alive until a collection found them. The CLI then raises the
collector's threshold (cli._fewer_collections), which is only safe while
analyses free their objects by reference counting."""

from __future__ import annotations

import ast
import gc
from pathlib import Path

from sglang_lint.pipeline import LintOptions, lint_paths

ROOT = Path(__file__).resolve().parent.parent


def _cyclic_garbage_of(run) -> list:
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        run()
        gc.collect()
        return [obj for obj in gc.garbage if isinstance(obj, ast.AST) or type(obj).__module__.startswith("sglang_lint")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()


def test_linting_python_launchers_leaves_no_cycles() -> None:
    """Python fixtures with test classes (their MRO), helpers per role,
    launch variants and modules read across files."""
    paths = [str(ROOT / "fixtures" / name) for name in ("python-helper-per-role", "python-clean-consistent", "branches-and-loops", "context-python-pair")]
    lint_paths(paths, LintOptions(cache=False, jobs=1))  # imports and tables loaded once
    garbage = _cyclic_garbage_of(lambda: lint_paths(paths, LintOptions(cache=False, jobs=1)))
    assert garbage == [], sorted({type(obj).__name__ for obj in garbage})


def test_linting_scripts_manifests_and_runbooks_leaves_no_cycles() -> None:
    paths = [str(ROOT / "fixtures" / name) for name in ("function-per-role", "markdown-runbook", "k8s-two-documents", "helm-chart", "env-defaults")]
    lint_paths(paths, LintOptions(cache=False, jobs=1))
    garbage = _cyclic_garbage_of(lambda: lint_paths(paths, LintOptions(cache=False, jobs=1)))
    assert garbage == [], sorted({type(obj).__name__ for obj in garbage})
