"""SGL103 unified-memory-incompatible-flag."""

from __future__ import annotations

from typing import Iterable

from msgspec import Struct

from sglang_lint.catalog.option_values import flag_state
from sglang_lint.model import Finding
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges, setting_location
from sglang_lint.rules.messages import clip
from sglang_lint.rules.pd_pair import value_text
from sglang_lint.rules.unified_memory import unified_memory_enabled
from sglang_lint.rules.unified_memory_pd import as_int, describe_setting, every_candidate, is_pd, mode_text
from sglang_lint.topology import Deployment, Server

_SA = "server_args.py"
_KV = "arg_groups/kv_cache_hook.py"
_KS = "arg_groups/kv_shard_hook.py"

# What each release's unified-memory startup checks reject, read from the released
# wheels (scripts/.wheels): check -> the `assert` / `raise` line, relative to
# sglang/srt/. 0.5.15-0.5.18: ServerArgs._handle_unified_memory_pool in
# server_args.py; from 0.5.19: handle_unified_memory_pool in
# arg_groups/kv_cache_hook.py (DCP in _validate_unified_memory_dcp from 0.5.20).
# A check absent from a release's row does not exist in that release.
#
#   speculative_mooncake_pd  PD + mooncake backend + any --speculative-algorithm
#   hisparse_pd              PD + --enable-hisparse
#   speculative              --speculative-algorithm outside _SPEC_ALLOWED[version]
#   two_batch_overlap        --enable-two-batch-overlap
#   lmcache                  --enable-lmcache
#   hierarchical_cache       --enable-hierarchical-cache (same assert as lmcache)
#   external_linker          --enable-unified-cache-external-linker
#   dcp                      --dcp-size > 1, any mode
#   dcp_pd                   --dcp-size > 1 with PD (the MLA / SWA asserts come first)
#   kv_cache_sharding        --enable-kv-cache-sharding (kv_shard_hook)
#
# 0.5.15-0.5.17 reject unified memory with PD altogether (SGL104), first
# (server_args.py:5886 / 6826 / 7890), so they have no PD-only check.
VERSION_CHECKS: dict[str, dict[str, str]] = {
    "0.5.15": {
        "speculative": f"{_SA}:5889",
        "lmcache": f"{_SA}:5893",
        "hierarchical_cache": f"{_SA}:5893",
        "dcp": f"{_SA}:5900",
    },
    "0.5.16": {
        "speculative": f"{_SA}:6829",
        "lmcache": f"{_SA}:6833",
        "hierarchical_cache": f"{_SA}:6833",
        "dcp": f"{_SA}:6840",
    },
    "0.5.17": {
        "speculative": f"{_SA}:7893",
        "lmcache": f"{_SA}:7897",
        "hierarchical_cache": f"{_SA}:7897",
        "dcp": f"{_SA}:7904",
    },
    "0.5.18": {
        "hisparse_pd": f"{_SA}:8306",
        "speculative": f"{_SA}:8312",
        "lmcache": f"{_SA}:8337",
        "hierarchical_cache": f"{_SA}:8337",
        "dcp": f"{_SA}:8344",
    },
    "0.5.19": {
        "hisparse_pd": f"{_KV}:218",
        "speculative": f"{_KV}:224",
        "lmcache": f"{_KV}:249",
        "hierarchical_cache": f"{_KV}:249",
        "dcp": f"{_KV}:256",
    },
    "0.5.20": {
        "hisparse_pd": f"{_KV}:219",
        "speculative": f"{_KV}:225",
        "two_batch_overlap": f"{_KV}:250",
        "lmcache": f"{_KV}:256",
        "hierarchical_cache": f"{_KV}:256",
        "dcp_pd": f"{_KV}:316 (or the MLA / SWA asserts at :303 / :309 before it)",
    },
    "0.5.21": {
        "speculative_mooncake_pd": f"{_KV}:496",
        "hisparse_pd": f"{_KV}:507",
        "speculative": f"{_KV}:545",
        "two_batch_overlap": f"{_KV}:570",
        "lmcache": f"{_KV}:576",
        "dcp_pd": f"{_KV}:634 (or the MLA / SWA asserts at :621 / :627 before it)",
    },
    "0.5.22": {
        "speculative_mooncake_pd": f"{_KV}:544",
        "hisparse_pd": f"{_KV}:555",
        "speculative": f"{_KV}:585",
        "two_batch_overlap": f"{_KV}:646",
        "lmcache": f"{_KV}:651",
        "external_linker": f"{_KV}:656",
        "dcp_pd": f"{_KV}:745 (or the MLA / SWA asserts at :732 / :738 before it)",
        "kv_cache_sharding": f"{_KS}:113 (or an earlier sharding error)",
    },
    "0.5.23": {
        "speculative_mooncake_pd": f"{_KV}:547",
        "hisparse_pd": f"{_KV}:558",
        "speculative": f"{_KV}:588",
        "two_batch_overlap": f"{_KV}:653",
        "lmcache": f"{_KV}:658",
        "external_linker": f"{_KV}:663",
        "dcp_pd": f"{_KV}:740 (or the MLA / SWA asserts at :727 / :733 before it)",
        "kv_cache_sharding": f"{_KS}:166 (or an earlier sharding error)",
    },
}

# The versions whose checks were read and are reproduced below.
CHECKED_VERSIONS = frozenset(VERSION_CHECKS)

# The --speculative-algorithm values the "speculative" check lets through, after
# speculative_hook upper-cases the name and maps NEXTN to EAGLE (or, for a Gemma4
# draft, to FROZEN_KV_MTP, which we cannot see). 0.5.15-0.5.17 assert
# speculative_algorithm is None; 0.5.18-0.5.21 accept DSPARK only (so NEXTN, which
# becomes EAGLE or FROZEN_KV_MTP, is rejected); 0.5.22-0.5.23 accept DSPARK,
# EAGLE, EAGLE3, DFLASH (NEXTN is never reported: it may become FROZEN_KV_MTP).
_SPEC_NONE: frozenset[str] = frozenset()
_SPEC_DSPARK = frozenset({"DSPARK"})
_SPEC_WIDE = frozenset({"DSPARK", "EAGLE", "EAGLE3", "DFLASH", "NEXTN"})
_SPEC_ALLOWED = {
    "0.5.15": _SPEC_NONE,
    "0.5.16": _SPEC_NONE,
    "0.5.17": _SPEC_NONE,
    "0.5.18": _SPEC_DSPARK,
    "0.5.19": _SPEC_DSPARK,
    "0.5.20": _SPEC_DSPARK,
    "0.5.21": _SPEC_DSPARK,
    "0.5.22": _SPEC_WIDE,
    "0.5.23": _SPEC_WIDE,
}

# Releases where --enable-return-aux-hidden-states resets --speculative-algorithm
# to None before the unified-memory checks (the option is new in 0.5.23).
_AUX_RESET = {"0.5.23": "arg_groups/validation_hook.py:697"}

_MOONCAKE = frozenset({"mooncake", "mooncake_tcp"})  # mooncake_tcp is rewritten first (pd_disaggregation_hook.py:30, 0.5.21-0.5.23)


class _FlagCheck(Struct, frozen=True):
    key: str
    dest: str
    pd_only: bool
    why: str


# Store_true flags the unified-memory checks reject outright (where VERSION_CHECKS
# has the key).
_FLAGS = (
    _FlagCheck(
        "hisparse_pd",
        "enable_hisparse",
        True,
        "the decode-side HiSparse prealloc path bypasses the unified pool's virtual->physical translation",
    ),
    _FlagCheck(
        "two_batch_overlap",
        "enable_two_batch_overlap",
        False,
        "two-batch-overlap children do not offset into the unified pool's read tables",
    ),
    _FlagCheck(
        "lmcache",
        "enable_lmcache",
        False,
        "LMCache offload indexes device buffers with ids that are virtual under the unified pool",
    ),
    _FlagCheck(
        "hierarchical_cache",
        "enable_hierarchical_cache",
        False,
        "the unified pool wires up no host pools for hierarchical / host-tiered KV cache",
    ),
    _FlagCheck(
        "external_linker",
        "enable_unified_cache_external_linker",
        False,
        "direct L3 transfers do not keep unified page-envelope indices",
    ),
    _FlagCheck(
        "kv_cache_sharding",
        "enable_kv_cache_sharding",
        False,
        "the unified pool uses a different virtual-id allocator and layout",
    ),
)

_CHECK_TEXT = {
    "speculative_mooncake_pd": "`--speculative-algorithm` with PD and mooncake",
    "hisparse_pd": "`--enable-hisparse` with PD",
    "speculative": "`--speculative-algorithm` not accepted",
    "two_batch_overlap": "`--enable-two-batch-overlap`",
    "lmcache": "`--enable-lmcache`",
    "hierarchical_cache": "`--enable-hierarchical-cache`",
    "external_linker": "`--enable-unified-cache-external-linker`",
    "dcp": "`--dcp-size` > 1",
    "dcp_pd": "`--dcp-size` > 1 with PD",
    "kv_cache_sharding": "`--enable-kv-cache-sharding`",
}


_SPEC_ORDER = ("DSPARK", "DFLASH", "EAGLE", "EAGLE3")  # as SGLang's messages list them


def _spec_text(allowed: frozenset[str]) -> str:
    if not allowed:
        return "any"
    return "not " + ", ".join(name for name in _SPEC_ORDER if name in allowed)


def versions_section() -> str:
    """The doc's ``## Versions`` table, generated from VERSION_CHECKS."""
    lines = [
        "Checked for 0.5.15-0.5.23, the releases with `--enable-unified-memory`, each",
        "against its own checks (paths under `sglang/srt/`; a dash: that release has no",
        "such check). 0.5.15-0.5.17 reject unified memory with PD altogether (SGL104),",
        "so they have no PD-only check; other target versions are not checked.",
        "",
        "| check | " + " | ".join(VERSION_CHECKS) + " |",
        "|---|" + "---|" * len(VERSION_CHECKS),
    ]
    for key, text in _CHECK_TEXT.items():
        cells = []
        for version, checks in VERSION_CHECKS.items():
            site = checks.get(key)
            if site is None:
                cells.append("-")
                continue
            cell = f"`{site.split(' ')[0]}`"
            if key == "speculative":
                cell += f" ({_spec_text(_SPEC_ALLOWED[version])})"
            cells.append(cell)
        lines.append(f"| {text} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _above_one(text: str) -> bool:
    number = as_int(text)
    return number is not None and number > 1


class UnifiedMemoryIncompatibleFlag(Rule):
    code = "SGL103"
    name = "unified-memory-incompatible-flag"
    summary = "Unified memory with an option SGLang rejects alongside it"
    doc = (
        """\
## What it does
Reports a server that enables `--enable-unified-memory` together with an option
that SGLang refuses at startup in that combination. The lines below are 0.5.23's
(`sglang/srt/arg_groups/kv_cache_hook.py` `handle_unified_memory_pool`); what
each earlier release checks is under Versions:

| with | when | SGLang |
|---|---|---|
| `--speculative-algorithm X` | PD (prefill/decode) with the mooncake backend (incl. `mooncake_tcp`) | `kv_cache_hook.py:547` |
| `--enable-hisparse` | PD | `kv_cache_hook.py:558` |
| `--speculative-algorithm X`, X not DSPARK, DFLASH, EAGLE, EAGLE3 (or NEXTN) | always | `kv_cache_hook.py:588` |
| `--enable-two-batch-overlap` | always | `kv_cache_hook.py:653` |
| `--enable-lmcache` | always | `kv_cache_hook.py:658` |
| `--enable-unified-cache-external-linker` | always | `kv_cache_hook.py:663` |
| `--dcp-size` > 1 | PD | `kv_cache_hook.py:740` (or the MLA / SWA asserts at :727 / :733 before it) |
| `--enable-kv-cache-sharding` | always | `kv_shard_hook.py:166` (or an earlier sharding error) |

Up to 0.5.20, `--enable-hierarchical-cache` is rejected too (the same assert as
`--enable-lmcache`), and up to 0.5.19 `--dcp-size` > 1 is rejected in any mode.

The speculative checks are skipped when `--enable-return-aux-hidden-states` may
be on: SGLang then resets `--speculative-algorithm` to None
(`arg_groups/validation_hook.py:697`; the option is new in 0.5.23).

Not checked (the outcome depends on what a static reading cannot see):
FP4 KV cache (`--kv-cache-dtype nvfp4|fp4_mx_block16`, `kv_cache_hook.py:133`, only
on CUDA platforms); `--speculative-eagle-topk` > 1 (`:601`, the speculative hook
rewrites topk per algorithm and model); NEXTN/EAGLE promoted to FROZEN_KV_MTP for a
Gemma4 draft; attention-backend and model-family restrictions (`:519`, `:610`-`:634`,
`:727`, `:733`); decode KV offload (`:565`-`:584`); `SGLANG_DISABLE_LAZY_COMPACTION`
(`:554`, an environment variable); from 0.5.20, `--dcp-size` > 1 without PD (MLA,
SWA and backend asserts); EAGLE/EAGLE3 with `--enable-hierarchical-cache` (0.5.22,
0.5.23: the algorithm may become FROZEN_KV_MTP); in 0.5.15-0.5.19, piecewise /
enabled prefill CUDA-graph capture (a resolved default).

## Why is this bad?
The server does not start: each combination is an `assert` or `ValueError` in
SGLang's argument post-processing, after the model download and before serving.

## Example
```bash
python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory \\
    --speculative-algorithm EAGLE --port 30001
```

## How to fix
Drop the incompatible option, or drop `--enable-unified-memory`. For speculative
decoding with PD, unified memory needs a transfer backend other than mooncake,
which SGL101 forbids: speculative decoding and unified memory cannot be combined
with PD in 0.5.23.

## Versions
"""
        + versions_section()
    )

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --speculative-algorithm EAGLE --enable-hisparse &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --port 30001 --enable-two-batch-overlap &\n"
                )
            },
            findings=3,
            message_contains="--enable-unified-memory",
        ),
        Example(
            {
                "serve.sh": (
                    "python -m sglang.launch_server --enable-unified-memory --speculative-algorithm ngram "
                    "--enable-lmcache --port 30000\n"
                )
            },
            findings=2,
            message_contains="SGLang refuses to start",
        ),
        Example(
            {
                "decode.sh": "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --dcp-size ${DCP:-2} --port 30001\n",
            },
            findings=1,
            message_contains="--dcp-size",
        ),
    ]
    valid = [
        Example(
            {
                # Not PD: the PD-only checks (speculative with mooncake, hisparse, dcp) do not apply.
                "run.sh": "python -m sglang.launch_server --enable-unified-memory --speculative-algorithm EAGLE --enable-hisparse --dcp-size 2\n"
            }
        ),
        Example(
            {
                # Without unified memory nothing applies; aux-hidden-state capture
                # turns the speculative algorithm off.
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-two-batch-overlap --enable-lmcache &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --speculative-algorithm EAGLE3 "
                    "--enable-return-aux-hidden-states --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                # Two-batch-overlap is rejected only from 0.5.20 (kv_cache_hook.py:250).
                "run.sh": "python -m sglang.launch_server --enable-unified-memory --enable-two-batch-overlap\n",
            },
            target_version="0.5.19",
        ),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        checks = VERSION_CHECKS.get(context.version)
        if checks is None or not unified_memory_enabled(server):
            return
        pd = is_pd(server)
        noqa = launch_noqa_ranges(server)
        yield from self._speculative(server, pd, noqa, context.version, checks)
        for check in _FLAGS:
            site = checks.get(check.key)
            if site is None or (check.pd_only and not pd):
                continue
            setting = server.setting(check.dest)
            if flag_state(setting) is not True:
                continue
            where = " with PD" if check.pd_only else ""
            yield self.finding(
                f"unified memory{where} does not support {clip(setting.written_as(), 48)}",
                setting_location(server, setting),
                noqa_ranges=noqa,
                help=f"remove {setting.written_as()} or --enable-unified-memory",
                notes=(
                    f"{server.label}{' (' + mode_text(server) + ')' if check.pd_only else ''} sets "
                    f"--enable-unified-memory and {setting.written_as()}",
                    f"SGLang refuses to start: {check.why} (sglang/srt/{site.split(' ')[0]} in {context.version})",
                ),
            )
        dcp = server.setting("dcp_size")
        if not every_candidate(dcp, _above_one):
            return
        if pd and "dcp_pd" in checks:
            yield self.finding(
                f"unified memory with PD does not support decode context parallelism (dcp {clip(value_text(dcp))})",
                setting_location(server, dcp),
                noqa_ranges=noqa,
                help="use --dcp-size 1, or drop --enable-unified-memory",
                notes=(
                    f"{server.label} ({mode_text(server)}) sets --enable-unified-memory and {describe_setting(dcp, server)}",
                    f"SGLang refuses to start: under DCP a page envelope holds only one rank's shard "
                    f"(sglang/srt/{checks['dcp_pd'].split(' ')[0]} in {context.version})",
                ),
            )
        elif "dcp" in checks:
            yield self.finding(
                f"unified memory does not support decode context parallelism (dcp {clip(value_text(dcp))})",
                setting_location(server, dcp),
                noqa_ranges=noqa,
                help="use --dcp-size 1, or drop --enable-unified-memory",
                notes=(
                    f"{server.label} sets --enable-unified-memory and {describe_setting(dcp, server)}",
                    f"SGLang refuses to start: the unified pool has no DCP-aware masked write path "
                    f"(sglang/srt/{checks['dcp']} in {context.version})",
                ),
            )

    def _speculative(self, server: Server, pd: bool, noqa, version: str, checks: dict[str, str]) -> Iterable[Finding]:
        algorithm = server.setting("speculative_algorithm")
        if version in _AUX_RESET and flag_state(server.setting("enable_return_aux_hidden_states")) is not False:
            return
        if not every_candidate(algorithm, lambda text: text.strip() != ""):
            return
        backend = server.setting("disaggregation_transfer_backend")
        allowed = _SPEC_ALLOWED[version]
        if pd and "speculative_mooncake_pd" in checks and every_candidate(backend, lambda text: text in _MOONCAKE):
            yield self.finding(
                "unified memory with PD over mooncake does not support speculative decoding "
                f"({clip(value_text(algorithm), 24)})",
                setting_location(server, algorithm),
                noqa_ranges=noqa,
                help="remove --speculative-algorithm or --enable-unified-memory",
                notes=(
                    f"{server.label} ({mode_text(server)}) sets --enable-unified-memory and "
                    f"{describe_setting(algorithm, server)}",
                    f"transfer backend {backend.value.describe()}{'' if not backend.is_default else ' (the default)'}",
                    f"SGLang refuses to start (sglang/srt/{checks['speculative_mooncake_pd']} in {version})",
                ),
            )
        elif "speculative" in checks and every_candidate(algorithm, lambda text: text.upper() not in allowed):
            if allowed:
                names = [name for name in _SPEC_ORDER if name in allowed]
                only = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
                head = f"unified memory supports only --speculative-algorithm {only}, not {clip(value_text(algorithm), 24)}"
                fix = "use one of those algorithms" if len(names) > 1 else f"use {only}"
            else:
                head = f"unified memory does not support speculative decoding ({clip(value_text(algorithm), 24)})"
                fix = "remove --speculative-algorithm"
            yield self.finding(
                head,
                setting_location(server, algorithm),
                noqa_ranges=noqa,
                help=f"{fix}, or drop --enable-unified-memory",
                notes=(
                    f"{server.label} sets --enable-unified-memory and {describe_setting(algorithm, server)}",
                    f"SGLang refuses to start (sglang/srt/{checks['speculative']} in {version})",
                ),
            )
