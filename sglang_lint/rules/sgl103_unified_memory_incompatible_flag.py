"""SGL103 unified-memory-incompatible-flag."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from sglang_lint.catalog.argv import flag_state
from sglang_lint.model import Finding
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges, setting_location
from sglang_lint.rules.unified_memory import unified_memory_enabled
from sglang_lint.rules.unified_memory_pd import as_int, describe_setting, every_candidate, is_pd, mode_text
from sglang_lint.topology import Deployment, Server

# The versions whose checks were read and are reproduced below.
CHECKED_VERSIONS = frozenset({"0.5.23"})

_MOONCAKE = frozenset({"mooncake", "mooncake_tcp"})  # mooncake_tcp is rewritten first (pipeline.py:147)
# kv_cache_hook.py:588 accepts DSPARK, EAGLE, EAGLE3, DFLASH after
# speculative_hook.py:142 upper-cases the name and :154 maps NEXTN to EAGLE (or, for
# a Gemma4 draft, to FROZEN_KV_MTP, which we cannot see: NEXTN is never reported).
_SPEC_ALLOWED = frozenset({"DSPARK", "EAGLE", "EAGLE3", "DFLASH", "NEXTN"})


@dataclass(frozen=True)
class _FlagCheck:
    dest: str
    pd_only: bool
    site: str
    why: str


# Store_true flags handle_unified_memory_pool (0.5.23) rejects outright.
_FLAGS = (
    _FlagCheck(
        "enable_hisparse",
        True,
        "arg_groups/kv_cache_hook.py:558",
        "the decode-side HiSparse prealloc path bypasses the unified pool's virtual->physical translation",
    ),
    _FlagCheck(
        "enable_two_batch_overlap",
        False,
        "arg_groups/kv_cache_hook.py:653",
        "two-batch-overlap children do not offset into the unified pool's read tables",
    ),
    _FlagCheck(
        "enable_lmcache",
        False,
        "arg_groups/kv_cache_hook.py:658",
        "LMCache offload indexes device buffers with ids that are virtual under the unified pool",
    ),
    _FlagCheck(
        "enable_unified_cache_external_linker",
        False,
        "arg_groups/kv_cache_hook.py:663",
        "direct L3 transfers do not keep unified page-envelope indices",
    ),
    _FlagCheck(
        "enable_kv_cache_sharding",
        False,
        "arg_groups/kv_shard_hook.py:166",
        "the unified pool uses a different virtual-id allocator and layout",
    ),
)


def _above_one(text: str) -> bool:
    number = as_int(text)
    return number is not None and number > 1


class UnifiedMemoryIncompatibleFlag(Rule):
    code = "SGL103"
    name = "unified-memory-incompatible-flag"
    summary = "Unified memory with an option SGLang rejects alongside it"
    doc = """\
## What it does
Reports a server that enables `--enable-unified-memory` together with an option
that SGLang refuses at startup in that combination (0.5.23,
`sglang/srt/arg_groups/kv_cache_hook.py` `handle_unified_memory_pool`):

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

The speculative checks are skipped when `--enable-return-aux-hidden-states` may
be on: SGLang then resets `--speculative-algorithm` to None
(`arg_groups/validation_hook.py:697`).

Not checked (the outcome depends on what a static reading cannot see):
FP4 KV cache (`--kv-cache-dtype nvfp4|fp4_mx_block16`, `kv_cache_hook.py:133`, only
on CUDA platforms); `--speculative-eagle-topk` > 1 (`:601`, the speculative hook
rewrites topk per algorithm and model); NEXTN/EAGLE promoted to FROZEN_KV_MTP for a
Gemma4 draft; attention-backend and model-family restrictions (`:519`, `:610`-`:634`,
`:727`, `:733`); decode KV offload (`:565`-`:584`); `SGLANG_DISABLE_LAZY_COMPACTION`
(`:554`, an environment variable).

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
Checked for 0.5.23 only (the lines above); other target versions are not checked
by this rule yet (their lists differ: 0.5.15-0.5.17 reject any speculative
algorithm and hierarchical cache, 0.5.18 accepts only DSPARK).
"""

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
                "run.sh": "python -m sglang.launch_server --enable-unified-memory --enable-two-batch-overlap\n",
            },
            target_version="0.5.22",
        ),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        if context.version not in CHECKED_VERSIONS or not unified_memory_enabled(server):
            return
        pd = is_pd(server)
        noqa = launch_noqa_ranges(server)
        yield from self._speculative(server, pd, noqa)
        for check in _FLAGS:
            if check.pd_only and not pd:
                continue
            setting = server.setting(check.dest)
            if flag_state(setting) is not True:
                continue
            where = f" with {mode_text(server)}" if check.pd_only else ""
            message = (
                f"--enable-unified-memory{where} does not support {setting.written_as()} "
                f"({server.label}): SGLang refuses to start ({check.why}; sglang/srt/{check.site} "
                f"in {context.version}). Remove {setting.written_as()} or --enable-unified-memory"
            )
            yield self.finding(message, setting_location(server, setting), noqa_ranges=noqa)
        dcp = server.setting("dcp_size")
        if pd and every_candidate(dcp, _above_one):
            message = (
                f"--enable-unified-memory with {mode_text(server)} does not support decode context "
                f"parallelism, but {server.label} sets {describe_setting(dcp, server)}: SGLang refuses to "
                f"start (under DCP a page envelope holds only one rank's shard; "
                f"sglang/srt/arg_groups/kv_cache_hook.py:740 in {context.version}). Use --dcp-size 1, "
                f"or drop --enable-unified-memory"
            )
            yield self.finding(message, setting_location(server, dcp), noqa_ranges=noqa)

    def _speculative(self, server: Server, pd: bool, noqa) -> Iterable[Finding]:
        algorithm = server.setting("speculative_algorithm")
        if flag_state(server.setting("enable_return_aux_hidden_states")) is not False:
            return
        if not every_candidate(algorithm, lambda text: text.strip() != ""):
            return
        backend = server.setting("disaggregation_transfer_backend")
        if pd and every_candidate(backend, lambda text: text in _MOONCAKE):
            message = (
                f"--enable-unified-memory with {mode_text(server)} does not support speculative "
                f"decoding with the mooncake transfer backend, but {server.label} sets "
                f"{describe_setting(algorithm, server)} (backend {backend.value.describe()}"
                f"{'' if not backend.is_default else ', the default'}): SGLang refuses to start "
                f"(sglang/srt/arg_groups/kv_cache_hook.py:547 in 0.5.23). Remove "
                f"--speculative-algorithm or --enable-unified-memory"
            )
            yield self.finding(message, setting_location(server, algorithm), noqa_ranges=noqa)
        elif every_candidate(algorithm, lambda text: text.upper() not in _SPEC_ALLOWED):
            message = (
                f"--enable-unified-memory supports only --speculative-algorithm DSPARK, DFLASH, "
                f"EAGLE and EAGLE3, but {server.label} sets {describe_setting(algorithm, server)}: SGLang "
                f"refuses to start (sglang/srt/arg_groups/kv_cache_hook.py:588 in 0.5.23). Use one "
                f"of those algorithms, or drop --enable-unified-memory"
            )
            yield self.finding(message, setting_location(server, algorithm), noqa_ranges=noqa)
