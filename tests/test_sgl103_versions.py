"""SGL103 per release: each version is checked against its own unified-memory
startup checks (VERSION_CHECKS, read from the released wheels), so a check that
appears in a later release is not reported for an earlier one."""

from __future__ import annotations

import pytest

from sglang_lint.pipeline import LintOptions, lint_texts
from sglang_lint.rules.sgl103_unified_memory_incompatible_flag import (
    VERSION_CHECKS,
    UnifiedMemoryIncompatibleFlag,
)

LAUNCH = "python -m sglang.launch_server --enable-unified-memory "
DECODE = "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --port 30001 "


def _findings(version: str, line: str) -> list[str]:
    result = lint_texts({"run.sh": line + "\n"}, LintOptions(target_version=version, select=frozenset({"SGL103"})))
    return ["\n".join(f.text_lines()) for f in result.findings if f.code == "SGL103"]


REPORTED = [
    # 0.5.15-0.5.17 reject any speculative algorithm, even DSPARK.
    ("0.5.15", LAUNCH + "--speculative-algorithm DSPARK", "server_args.py:5889 in 0.5.15"),
    ("0.5.17", LAUNCH + "--speculative-algorithm dspark", "server_args.py:7893 in 0.5.17"),
    # Hierarchical cache is rejected up to 0.5.20 (with LMCache, one assert).
    ("0.5.16", LAUNCH + "--enable-hierarchical-cache", "server_args.py:6833 in 0.5.16"),
    ("0.5.19", LAUNCH + "--enable-hierarchical-cache", "arg_groups/kv_cache_hook.py:249 in 0.5.19"),
    # --dcp-size > 1 without PD is rejected up to 0.5.19.
    ("0.5.18", LAUNCH + "--dcp-size 2", "server_args.py:8344 in 0.5.18"),
    ("0.5.19", LAUNCH + "--dcp-size 2", "arg_groups/kv_cache_hook.py:256 in 0.5.19"),
    # HiSparse with PD from 0.5.18 (the first release that accepts unified memory with PD).
    ("0.5.18", DECODE + "--enable-hisparse", "server_args.py:8306 in 0.5.18"),
    # 0.5.18-0.5.21 accept only DSPARK; NEXTN becomes EAGLE (or FROZEN_KV_MTP).
    ("0.5.21", LAUNCH + "--speculative-algorithm EAGLE3", "arg_groups/kv_cache_hook.py:545 in 0.5.21"),
    ("0.5.19", LAUNCH + "--speculative-algorithm nextn", "supports only --speculative-algorithm DSPARK,"),
    # Two-batch-overlap from 0.5.20.
    ("0.5.20", LAUNCH + "--enable-two-batch-overlap", "arg_groups/kv_cache_hook.py:250 in 0.5.20"),
    # Speculative decoding with PD and mooncake from 0.5.21.
    ("0.5.21", DECODE + "--speculative-algorithm DSPARK", "arg_groups/kv_cache_hook.py:496 in 0.5.21"),
    # --dcp-size > 1 with PD from 0.5.20.
    ("0.5.20", DECODE + "--dcp-size 2", "arg_groups/kv_cache_hook.py:316 in 0.5.20"),
    # External linker and KV-cache sharding from 0.5.22.
    ("0.5.22", LAUNCH + "--enable-unified-cache-external-linker", "arg_groups/kv_cache_hook.py:656 in 0.5.22"),
    ("0.5.22", LAUNCH + "--enable-kv-cache-sharding", "arg_groups/kv_shard_hook.py:113 in 0.5.22"),
]

NOT_REPORTED = [
    # No unified memory before 0.5.15: nothing to check.
    ("0.5.14", LAUNCH + "--enable-lmcache --speculative-algorithm EAGLE"),
    # Two-batch-overlap is accepted before 0.5.20.
    ("0.5.15", LAUNCH + "--enable-two-batch-overlap"),
    ("0.5.19", LAUNCH + "--enable-two-batch-overlap"),
    # 0.5.17 has no PD-only check (it rejects PD first, SGL104).
    ("0.5.17", DECODE + "--enable-hisparse"),
    # 0.5.18-0.5.20 accept DSPARK, with PD and mooncake too.
    ("0.5.18", LAUNCH + "--speculative-algorithm DSPARK"),
    ("0.5.20", DECODE + "--speculative-algorithm DSPARK"),
    # Hierarchical cache alone is accepted from 0.5.21.
    ("0.5.21", LAUNCH + "--enable-hierarchical-cache"),
    # --dcp-size > 1 without PD is not provably rejected from 0.5.20 (model / backend asserts).
    ("0.5.20", LAUNCH + "--dcp-size 2"),
    # The external linker is accepted before 0.5.22.
    ("0.5.21", LAUNCH + "--enable-unified-cache-external-linker"),
    # EAGLE3 and DFLASH are accepted from 0.5.22.
    ("0.5.22", LAUNCH + "--speculative-algorithm EAGLE3"),
    ("0.5.22", LAUNCH + "--speculative-algorithm DFLASH"),
    # NEXTN may become FROZEN_KV_MTP: never reported where EAGLE is accepted.
    ("0.5.22", LAUNCH + "--speculative-algorithm NEXTN"),
]


@pytest.mark.parametrize("version, line, expected", REPORTED, ids=[f"{v}-{i}" for i, (v, _, _) in enumerate(REPORTED)])
def test_reported(version: str, line: str, expected: str) -> None:
    messages = _findings(version, line)
    assert len(messages) == 1, messages
    assert expected in messages[0]
    assert f"in {version}" in messages[0]


@pytest.mark.parametrize("version, line", NOT_REPORTED, ids=[f"{v}-{i}" for i, (v, _) in enumerate(NOT_REPORTED)])
def test_not_reported(version: str, line: str) -> None:
    assert _findings(version, line) == []


def test_pd_server_on_early_release_still_gets_non_pd_checks() -> None:
    # 0.5.16 refuses unified memory with PD (SGL104), but an LMCache server would
    # fail just the same without PD.
    messages = _findings("0.5.16", DECODE + "--enable-lmcache --enable-hisparse")
    assert len(messages) == 1 and "--enable-lmcache" in messages[0], messages


def test_table_covers_every_release_with_unified_memory() -> None:
    assert list(VERSION_CHECKS) == [f"0.5.{n}" for n in range(15, 24)]


def test_versions_section_lists_every_citation() -> None:
    doc = UnifiedMemoryIncompatibleFlag.doc
    section = doc[doc.index("## Versions") :]
    for version, checks in VERSION_CHECKS.items():
        assert version in section
        for site in checks.values():
            assert f"`{site.split(' ')[0]}`" in section
