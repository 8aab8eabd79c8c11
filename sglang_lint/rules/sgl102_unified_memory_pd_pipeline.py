"""SGL102 unified-memory-pd-pipeline."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.model import Finding
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges, setting_location
from sglang_lint.rules.messages import clip
from sglang_lint.rules.pd_pair import value_text
from sglang_lint.rules.unified_memory import unified_memory_enabled
from sglang_lint.rules.unified_memory_pd import FIRST_WITH_PD, as_int, at_least, describe_setting, every_candidate, is_pd, mode_text
from sglang_lint.topology import Deployment, Server


def _above_one(text: str) -> bool:
    number = as_int(text)
    return number is not None and number > 1


class UnifiedMemoryPdPipeline(Rule):
    code = "SGL102"
    name = "unified-memory-pd-pipeline"
    summary = "Unified memory with PD disaggregation and pipeline parallelism (--pp-size > 1)"
    doc = """\
## What it does
Reports a prefill or decode server (`--disaggregation-mode prefill|decode`) that
enables `--enable-unified-memory` with a `--pp-size` (`--pipeline-parallel-size`)
provably greater than 1.

## Why is this bad?
The server refuses to start: a whole-slot envelope has no per-layer entries that a
pipeline stage could send, and `handle_unified_memory_pool` asserts
"--enable-unified-memory with PD disaggregation does not support pipeline
parallelism" (`sglang/srt/arg_groups/kv_cache_hook.py:542` in 0.5.23).

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory \\
    --tp 4 --pp-size 2
```

## How to fix
Use `--pp-size 1` and spread the model with `--tp-size` instead (keeping the
attention TP equal on both sides, SGL001), or drop `--enable-unified-memory`.

## Versions
Checked from 0.5.18, the first release that accepts unified memory with PD:
`server_args.py:8297` (0.5.18), `arg_groups/kv_cache_hook.py:209` (0.5.19), `:210`
(0.5.20), `:491` (0.5.21), `:539` (0.5.22), `:542` (0.5.23). Older releases reject
unified memory with PD altogether (SGL104).
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 4 --pp-size 2 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 4 --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="--pp-size 2",
        ),
        Example(
            {
                "decode.sh": (
                    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory "
                    "--pipeline-parallel-size ${PP:-4} --port 30001\n"
                )
            },
            findings=1,
            message_contains="default of the variable",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 4 --pp-size 1 &\n"
                    "python -m sglang.launch_server --enable-unified-memory --tp 4 --pp-size 2 --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                "run.sh": (
                    'python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --pp-size "$PP" &\n'
                    "python -m sglang.launch_server --disaggregation-mode decode --pp-size 2 --port 30001 &\n"
                )
            }
        ),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        if not (at_least(context.version, FIRST_WITH_PD) and is_pd(server) and unified_memory_enabled(server)):
            return
        pp = server.setting("pp_size")
        if not every_candidate(pp, _above_one):
            return
        yield self.finding(
            f"unified memory with PD does not support pipeline parallelism (pp {clip(value_text(pp))})",
            setting_location(server, pp),
            noqa_ranges=launch_noqa_ranges(server),
            help="use --pp-size 1 (scale with --tp-size instead), or drop --enable-unified-memory",
            notes=(
                f"{server.label} ({mode_text(server)}) sets --enable-unified-memory and {describe_setting(pp, server)}",
                "SGLang refuses to start: \"--enable-unified-memory with PD disaggregation does not support pipeline "
                "parallelism\" (sglang/srt/arg_groups/kv_cache_hook.py:542 in 0.5.23): the whole-slot envelope has "
                "no per-layer entries to send per stage",
                "checked from sglang 0.5.18, the first release that accepts unified memory with PD",
            ),
        )
