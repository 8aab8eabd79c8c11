"""Golden before/after files of the fixes (issue 21), one case per fixable rule
and kind of file: `tests/golden/fixes/<rule>-<kind>/before/` fixed with
`check --fix --unsafe-fixes` must give `after/` byte for byte (only the edited
tokens differ: comments, quotes, continuations and layout elsewhere stay), a
second run changes nothing, and the `--diff` of `before/` applied with `patch
-p0` gives `after/` too.

A case named `<rule>-<kind>-default` is one where the decode had no value of
its own (the option is added after its last word).

To add a case: write `before/`, run the command of ``ARGS`` in a copy, review
the diff, and save the result as `after/`.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from sglang_lint.cli import main

GOLDEN = Path(__file__).resolve().parent / "golden" / "fixes"
CASES = sorted(path.name for path in GOLDEN.iterdir() if path.is_dir())
ARGS = ["check", "--no-cache", "--strict", "--select", "SGL0,SGL2,SGL902", "--unsafe-fixes", "."]


def _files(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def test_every_fixable_rule_has_a_golden_case_in_each_kind_it_fixes() -> None:
    kinds = {case.split("-", 1)[0]: set() for case in CASES}
    for case in CASES:
        rule, kind, *_variant = case.split("-")  # `sgl003-shell-default`: the decode had no value
        kinds[rule].add(kind)
    every = {"shell", "python", "yaml", "markdown"}
    assert kinds == {
        # Pair rules: the decode takes the prefill's value where its own was
        # written (a shell variable, a Python constant or class attribute, a
        # YAML list item, the `--opt=value` word of a runbook).
        "sgl002": every,  # an insertion: Python through libcst (list items, Engine keywords)
        "sgl003": every,
        "sgl004": every,
        "sgl006": every,
        "sgl010": every,
        "sgl202": every,
        "sgl205": {"shell", "markdown"},  # a backslash continuation: shell code only
        "sgl206": every,  # a split: two list items in Python (libcst) and YAML, a blank in a shell word
        "sgl207": {"shell", "markdown"},  # a backslash continuation: shell code only
        "sgl902": every,
    }


@pytest.mark.parametrize("case", CASES)
def test_fix_gives_the_golden_files(case: str, tmp_path, monkeypatch, capsys) -> None:
    work = tmp_path / case
    shutil.copytree(GOLDEN / case / "before", work)
    monkeypatch.chdir(work)
    assert main([*ARGS[:-1], "--fix", "."]) == 0
    assert _files(work) == _files(GOLDEN / case / "after")
    assert main([*ARGS[:-1], "--fix", "."]) == 0  # idempotent
    assert _files(work) == _files(GOLDEN / case / "after")
    capsys.readouterr()


@pytest.mark.parametrize("case", CASES)
def test_the_diff_applies_with_patch(case: str, tmp_path, monkeypatch, capsys) -> None:
    if shutil.which("patch") is None:
        pytest.skip("patch is not installed")
    work = tmp_path / case
    shutil.copytree(GOLDEN / case / "before", work)
    monkeypatch.chdir(work)
    assert main([*ARGS[:-1], "--diff", "."]) == 1
    diff = capsys.readouterr().out
    assert _files(work) == _files(GOLDEN / case / "before")  # --diff writes nothing
    subprocess.run(["patch", "-p0", "--quiet"], input=diff.encode(), check=True, timeout=60)
    assert _files(work) == _files(GOLDEN / case / "after")


# Rules whose fixes are alternatives (SGL001: the decode's --tp or its attention
# DP; SGL201: each option an abbreviation matches): `--fix` applies none, an
# editor applies the one the user picks. `golden/fixes-preferred/<rule>-<kind>`
# holds what the preferred one gives, applied as the language server applies a
# code action (resolve_fix, then the edit).
PREFERRED = GOLDEN.parent / "fixes-preferred"
PREFERRED_CASES = sorted(path.name for path in PREFERRED.iterdir() if path.is_dir())


def test_every_rule_with_alternatives_has_a_preferred_golden_case_in_each_kind() -> None:
    kinds: dict[str, set[str]] = {}
    for case in PREFERRED_CASES:
        rule, kind = case.split("-")
        kinds.setdefault(rule, set()).add(kind)
    assert kinds == {"sgl001": {"shell", "python", "yaml", "markdown"}, "sgl201": {"shell", "python", "yaml", "markdown"}}


@pytest.mark.parametrize("case", PREFERRED_CASES)
def test_the_preferred_alternative_gives_the_golden_files(case: str, tmp_path, monkeypatch) -> None:
    from sglang_lint.fixes import apply_edits, resolve_fix
    from sglang_lint.options import LintOptions
    from sglang_lint.pipeline import lint_paths

    work = tmp_path / case
    shutil.copytree(PREFERRED / case / "before", work)
    monkeypatch.chdir(work)
    rule = case.split("-")[0].upper()
    options = LintOptions(cache=False, select=frozenset({rule}))
    (finding,) = lint_paths(["."], options).findings
    assert len(finding.fixes) > 1  # alternatives: --fix applies none
    (preferred,) = [fix for fix in finding.fixes if fix.preferred]
    path = Path(preferred.location.path)
    lines = path.read_text().split("\n")
    edit = resolve_fix(preferred, lines)
    assert edit is not None
    path.write_text(apply_edits(lines, [edit]))
    assert _files(work) == _files(PREFERRED / case / "after")
    assert lint_paths(["."], options).findings == []
