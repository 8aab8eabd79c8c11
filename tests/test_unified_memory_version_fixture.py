"""The unified-memory-version fixture under older target versions (the fixture
test runs the default, newest version, where it is clean)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sglang_lint.pipeline import LintOptions, lint_paths

CASE = Path(__file__).resolve().parent.parent / "fixtures" / "unified-memory-version"


def _sgl104(version: str) -> list[tuple[str, int]]:
    result = lint_paths([str(CASE)], LintOptions(target_version=version))
    return sorted((os.path.relpath(f.location.path, CASE), f.location.line) for f in result.findings if f.code == "SGL104")


@pytest.mark.parametrize("version", ["0.5.13", "0.5.14", "0.5.15", "0.5.16", "0.5.17"])
def test_older_versions_reject_unified_memory_with_pd(version: str) -> None:
    assert _sgl104(version) == [("pd_unified.sh", 7), ("pd_unified.sh", 11)]


@pytest.mark.parametrize("version", ["0.5.18", "0.5.19", "0.5.23"])
def test_versions_that_accept_it(version: str) -> None:
    assert _sgl104(version) == []
