"""Property tests of the fix engine (issue 21): the fixtures of each kind with an
option name mangled at random (a letter dropped, doubled or two swapped, the
mistakes SGL201/SGL202 fix), then `--fix --unsafe-fixes` through the real lint:
every file it changes still parses as before, none of the findings fixed is
found again, and a second run changes nothing
(the rounds converge; idempotence)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sglang_lint.fix_engine import FixSettings, _parse_problem, fix_paths
from sglang_lint.options import LintOptions
from sglang_lint.pipeline import lint_paths

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# One fixture directory per kind of file the fixes edit.
CASES = ["split-files", "k8s-two-documents", "markdown-runbook", "python-argv-building", "python-shell-pair", "broken-continuation", "shell-sourced-helpers"]
# Where a mutation may fall: an option name as written (the test picks places;
# the engine never sees this pattern).
OPTION = re.compile(r"--[a-z][a-z0-9-]{2,}")


def _lint(paths, options, overlays=None):
    return lint_paths(paths, options, overlays=overlays)


def _mutate(text: str, choice: int, kind: int, offset: int) -> str:
    sites = list(OPTION.finditer(text))
    if not sites:
        return text
    site = sites[choice % len(sites)]
    name = site.group()
    at = 2 + offset % (len(name) - 3)
    if kind == 0:
        mutated = name[:at] + name[at + 1 :]  # a letter dropped
    elif kind == 1:
        mutated = name[:at] + name[at] + name[at:]  # a letter doubled
    else:
        mutated = name[:at] + name[at + 1] + name[at] + name[at + 2 :]  # two swapped
    return text[: site.start()] + mutated + text[site.end() :]


@pytest.mark.parametrize("case", CASES)
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(file_choice=st.integers(0, 10_000), choice=st.integers(0, 10_000), kind=st.integers(0, 2), offset=st.integers(0, 100))
def test_fixed_files_parse_and_a_second_fix_changes_nothing(case: str, file_choice: int, choice: int, kind: int, offset: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory) / case
        shutil.copytree(FIXTURES / case, root, ignore=shutil.ignore_patterns("EXPECTED*", "*.expected*"))
        files = sorted(path for path in root.rglob("*") if path.is_file() and path.name != "EXPECTED" and path.suffix in (".sh", ".py", ".yaml", ".yml", ".md", ""))
        target = files[file_choice % len(files)]
        original = target.read_text(encoding="utf-8")
        target.write_text(_mutate(original, choice, kind, offset), encoding="utf-8")
        cwd = os.getcwd()
        os.chdir(root)
        try:
            options = LintOptions(cache=False, jobs=1)
            first = fix_paths(["."], options, FixSettings(unsafe=True), _lint)
            for shown, (before, after) in first.texts.items():
                assert _parse_problem(shown, before, after) is None, (shown, after)
                Path(shown).write_text(after, encoding="utf-8")
            # None of the findings fixed is found again in the fixed files.
            remaining = {(f.location.path, f.code, f.message) for f in first.result.findings}
            assert not [fixed for fixed in first.fixed if (fixed[0], fixed[1], fixed[3]) in remaining]
            second = fix_paths(["."], options, FixSettings(unsafe=True), _lint)
            assert second.texts == {}, second.texts
        finally:
            os.chdir(cwd)
