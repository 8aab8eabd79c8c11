"""SGL001 unified-memory-attn-tp-mismatch."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.catalog.attention import parallel_sizes
from sglang_lint.model import DISPLAY_ONLY, Finding, Fix, Location, Related, provably_different
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges, value_fix
from sglang_lint.rules.messages import clip, sides
from sglang_lint.rules.unified_memory import (
    attn_tp_difference_location,
    attn_tp_location,
    attn_tp_note,
    attn_tp_text,
    unified_memory_enabled,
    unified_memory_setting,
)
from sglang_lint.topology import Deployment, Server


class UnifiedMemoryAttnTpMismatch(Rule):
    code = "SGL001"
    name = "unified-memory-attn-tp-mismatch"
    fix = "sometimes"
    summary = "Both sides of a prefill/decode pair enable unified memory and their attention TP sizes differ"
    doc = """\
## What it does
Checks every prefill x decode pair that a router can form (design: all pairs of a
deployment) where both servers run with `--enable-unified-memory`, and reports the
pair when their **attention tensor-parallel sizes** are provably different.

Attention TP is not `--tp-size` alone: it is `tp_size // attn_dp_size //
attn_cp_size`, where DP attention (`--enable-dp-attention` with `--dp-size`, or
`--attn-dp-size` from 0.5.22) and `--attn-cp-size` divide it
(`sglang/srt/runtime_context.py:73` in 0.5.23; `layers/dp_attention.py`
`compute_dp_attention_world_info` up to 0.5.21).

## Why is this bad?
With unified memory the KV cache and Mamba/SWA state of a request travel as one
whole-slot envelope that cannot be re-sliced for another TP layout. SGLang checks
this only at runtime, in the prefill's transfer thread, when the first request
arrives (`sglang/srt/disaggregation/mooncake/conn.py:1281`
`_validate_envelope_kv_layout`, raising "--enable-unified-memory does not support
different prefill / decode attention TP sizes" at line 1306 in 0.5.23). Both
servers start and pass health checks; the deployment fails under traffic.

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory \\
    --tp-size 8 --port 30000
python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory \\
    --tp-size 8 --dp-size 8 --enable-dp-attention --port 30001   # attention TP 1
```

## How to fix
Give both sides the same attention TP: change the decode's `--tp-size`, or its
DP attention (`--dp-size` with `--enable-dp-attention`, `--attn-dp-size`), or
`--attn-cp-size`, so that `tp / attn_dp / attn_cp` is equal on both sides; or
drop `--enable-unified-memory` on both sides.

## Versions
`--enable-unified-memory` exists from 0.5.15; PD with unified memory is accepted
from 0.5.18. The restriction holds in every version that accepts it.
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 8 --dp 8 --enable-dp-attention --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="prefill 8, decode 1",
        ),
        Example(
            {
                "prefill.sh": "python3 -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp-size 4\n",
                "decode.sh": "python3 -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp-size 8 --port 30001\n",
            },
            findings=1,
            message_contains="prefill 4, decode 8",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 16 --dp 2 --enable-dp-attention &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 8 --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --tp $TP &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp $TP --port 30001 --enable-unified-memory &\n"
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 4 --port 30002 &\n"
                ).replace("--disaggregation-mode prefill --tp $TP", "--disaggregation-mode prefill --enable-unified-memory --tp $TP")
            }
        ),
    ]

    def check_pair(self, context: RuleContext, deployment: Deployment, prefill: Server, decode: Server) -> Iterable[Finding]:
        if not (unified_memory_enabled(prefill) and unified_memory_enabled(decode)):
            return
        if not provably_different(prefill.attn_tp.value, decode.attn_tp.value):
            return
        p, d = attn_tp_text(prefill), attn_tp_text(decode)
        yield self.finding(
            f"{sides('attention TP', p, d)} (unified memory needs them equal)",
            attn_tp_difference_location(prefill, decode),
            related=[Related(attn_tp_location(prefill), f"prefill attention TP {clip(p)}")],
            noqa_ranges=launch_noqa_ranges(decode),
            help=f"give the decode attention TP {clip(p)} (tp / attn-dp / attn-cp), or drop --enable-unified-memory on both sides",
            notes=(
                attn_tp_note(prefill),
                attn_tp_note(decode),
                "both sides set --enable-unified-memory: the KV cache travels as one whole-slot envelope "
                "that cannot be re-sliced for another attention TP",
                "both servers start; the prefill's transfer thread fails at the first request with "
                "\"--enable-unified-memory does not support different prefill / decode attention TP sizes\" "
                "(sglang/srt/disaggregation/mooncake/conn.py:1306 in 0.5.23)",
                "--enable-unified-memory exists from sglang 0.5.15; PD with unified memory from 0.5.18",
            ),
            fixes=[*_alternatives(prefill, decode), *_without_unified_memory(decode)],
        )


def _without_unified_memory(decode: Server) -> list[Fix]:
    """Display-only (shown, never applied): the other way out, dropping
    ``--enable-unified-memory`` on both sides, changes how both servers hold
    their KV cache; the edit shown is the decode's."""
    flag = unified_memory_setting(decode)
    if flag.location is None or not flag.spelling.startswith("--"):
        return []
    where = flag.location
    location = Location(where.path, where.line, where.column, where.line, where.column + len(flag.spelling) + 1)
    return [Fix("Drop --enable-unified-memory on both sides", location, flag.spelling, "", applicability=DISPLAY_ONLY)]


def _alternatives(prefill: Server, decode: Server) -> list[Fix]:
    """Two ways to give the decode the prefill's attention TP A, each where the
    decode's value was written (unsafe: what is deployed changes; alternatives:
    only the user knows which layout they meant, so `--fix` applies neither):
    its TP becomes A x attn-dp x attn-cp (preferred: the attention DP layout
    stays), or its attention DP (`--attn-dp-size`, or `--dp-size` with DP
    attention) becomes tp / (A x attn-cp) when that divides.
    attn_tp = tp // attn_dp // attn_cp (0.5.23 srt/runtime_context.py:73-76)."""
    target = prefill.attn_tp.value
    sizes = parallel_sizes(decode.settings)
    numbers = [d.value.text for d in (sizes.tp, sizes.attn_dp, sizes.attn_cp)]
    if not target.is_known or not target.text.isdigit() or not all(d.value.is_known and d.value.text.isdigit() for d in (sizes.tp, sizes.attn_dp, sizes.attn_cp)):
        return []
    wanted = int(target.text)
    tp, attn_dp, attn_cp = (int(text) for text in numbers)
    if min(wanted, attn_dp, attn_cp) < 1:
        # An attention TP of 0 (tp 1 with attention DP 2) or a size of 0 is a
        # layout SGLang refuses at startup: no value to give the decode.
        return []
    fixes: list[Fix] = []
    tp_setting = next((s for s in sizes.tp.inputs if s.dest in ("tp_size", "tensor_parallel_size")), None)
    if tp_setting is not None:
        new_tp = wanted * attn_dp * attn_cp
        fix = value_fix(f"Give the decode {tp_setting.spelling.rstrip('=')} {new_tp} (attention TP {wanted})", tp_setting, str(new_tp))
        if fix is not None:
            fixes.append(fix)
    dp_setting = next((s for s in sizes.attn_dp.inputs if s.dest in ("attn_dp_size", "attention_data_parallel_size", "dp_size", "data_parallel_size")), None)
    if dp_setting is not None and tp % (wanted * attn_cp) == 0:
        new_dp = tp // (wanted * attn_cp)
        fix = value_fix(f"Give the decode {dp_setting.spelling.rstrip('=')} {new_dp} (attention TP {wanted})", dp_setting, str(new_dp), preferred=False)
        if fix is not None:
            fixes.append(fix)
    return fixes
