"""SGL009 pd-attn-tp-not-divisible."""

from __future__ import annotations

from typing import Iterable

import itertools


from sglang_lint.model import Finding, Related, Value, provably_equal
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges
from sglang_lint.rules.messages import clip
from sglang_lint.rules.unified_memory import attn_tp_difference_location, attn_tp_location, attn_tp_note, attn_tp_text
from sglang_lint.topology import Deployment, Server, server_sizes


def _sizes(value: Value) -> list[int] | None:
    candidates = value.candidates()
    if not candidates:
        return None
    sizes = []
    for text in candidates:
        try:
            size = int(text)
        except ValueError:
            return None
        if size <= 0:
            return None
        sizes.append(size)
    return sizes


def _never_divisible(a: Value, b: Value) -> bool:
    """Whatever values the two take, neither divides the other."""
    if provably_equal(a, b):
        return False
    sa, sb = _sizes(a), _sizes(b)
    if sa is None or sb is None:
        return False
    return all(max(x, y) % min(x, y) != 0 for x in sa for y in sb)


def _starts(server: Server) -> bool:
    """tp is provably divisible by attn_dp x attn_cp, so that attention TP is a
    whole number: a server that fails this stops at startup (rule SGL204), and
    its pairs are not compared."""
    sizes = server_sizes(server)
    sets = [_sizes(sizes.tp.value), _sizes(sizes.attn_dp.value), _sizes(sizes.attn_cp.value)]
    if any(s is None for s in sets):
        return False
    return all(tp % (dp * cp) == 0 for tp, dp, cp in itertools.product(*sets))  # type: ignore[arg-type]


class PdAttnTpNotDivisible(Rule):
    code = "SGL009"
    name = "pd-attn-tp-not-divisible"
    summary = "Neither attention TP size of a prefill/decode pair divides the other"
    doc = """\
## What it does
For every prefill x decode pair of a deployment, computes each side's attention
tensor-parallel size (`tp_size // attn_dp_size // attn_cp_size`, see SGL001) and
reports the pair when neither size provably divides the other (8 and 3, 4 and 6).
Different sizes are fine as long as one divides the other (8 and 2, 1 and 4).
A server whose `--tp-size` is not divisible by its attention DP x CP never
starts (SGL204 reports it) and is not compared here.

## Why is this bad?
The KV transfer maps decode ranks to prefill ranks by integer division of the
two attention TP sizes (`sglang/srt/disaggregation/common/conn.py:1452-1490` in
0.5.23: `info.attn_tp_size // self.attn_tp_size` and the reverse). When neither
divides the other, some prefill ranks are never read or some decode ranks wait
for a rank that does not send, so the KV heads of the request are incomplete and
the transfer stalls or yields wrong output. For state replicated across
attention TP (Mamba / hybrid models) SGLang raises "One attention TP size must
divide the other for replicated-state transfer"
(`sglang/srt/disaggregation/utils.py:892` in 0.5.23). Either way it happens at
the first request, after both servers started.

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --tp 8
python -m sglang.launch_server --disaggregation-mode decode --tp 6 --port 30001
```

## How to fix
Choose parallel layouts whose attention TP sizes divide each other: change the
decode's `--tp-size`, its DP attention (`--dp-size` with `--enable-dp-attention`,
`--attn-dp-size`) or `--attn-cp-size`; powers of two on both sides always work.

## Versions
The explicit replicated-state error exists from 0.5.20 (0.5.23: `utils.py:892`);
the rank mapping by integer division is the same in every version from 0.5.4, so
the rule applies to all versions.
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --tp 8 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --tp 6 --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="attention TP 8",
        ),
        Example(
            {
                "prefill.sh": "python -m sglang.launch_server --disaggregation-mode prefill --tp ${TP:-4}\n",
                "decode.sh": "python -m sglang.launch_server --disaggregation-mode decode --tp 12 --dp 2 --enable-dp-attention --port 30001\n",
            },
            findings=1,
            message_contains="default",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --tp 8 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --tp 16 --dp 8 --enable-dp-attention --port 30001 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --tp 8 --dp 8 --enable-dp-attention --port 30002 &\n"
                )
            }
        ),
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --tp $TP &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --tp $TP --port 30001 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --tp 3 --port 30002 &\n"
                )
            }
        ),
    ]

    def check_pair(self, context: RuleContext, deployment: Deployment, prefill: Server, decode: Server) -> Iterable[Finding]:
        if not _never_divisible(prefill.attn_tp.value, decode.attn_tp.value):
            return
        if not (_starts(prefill) and _starts(decode)):
            return
        defaults = [s for s in (prefill, decode) if any(i.value.uses_default for i in s.attn_tp.inputs)]
        p, d = clip(attn_tp_text(prefill)), clip(attn_tp_text(decode))
        yield self.finding(
            f"neither attention TP of the pair divides the other: prefill {p}, decode {d}",
            attn_tp_difference_location(prefill, decode),
            related=[Related(attn_tp_location(prefill), f"prefill attention TP {p}")],
            noqa_ranges=launch_noqa_ranges(decode),
            help="change the decode's tp / attn-dp / attn-cp so that one attention TP divides the other",
            notes=(
                attn_tp_note(prefill),
                attn_tp_note(decode),
                *(f"the {s.role}'s value comes from a ${{VAR:-default}} default" for s in defaults),
                "the KV transfer maps ranks by integer division of the two sizes, so some ranks are never read "
                "(sglang/srt/disaggregation/common/conn.py:1452-1490 in 0.5.23)",
                "for replicated state (Mamba / hybrid models) SGLang fails with \"One attention TP size must divide "
                "the other for replicated-state transfer\" (sglang/srt/disaggregation/utils.py:892, from 0.5.20)",
            ),
        )
