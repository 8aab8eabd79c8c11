"""SGL005 pd-model-mismatch."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.model import Finding, Related, Severity
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges, setting_location
from sglang_lint.rules.messages import clip, sides
from sglang_lint.rules.pd_pair import provably_different_resolved, side_note, value_text
from sglang_lint.topology import Deployment, Server


def _strip_slashes(text: str) -> Iterable[str]:
    """``/models/x/`` and ``/models/x`` name the same directory; nothing else
    is normalized (a Hugging Face id and a local copy of it are not provably
    the same weights, nor provably different)."""
    stripped = text.rstrip("/")
    yield stripped if stripped else text


class PdModelMismatch(Rule):
    code = "SGL005"
    name = "pd-model-mismatch"
    severity = Severity.WARNING
    summary = "Prefill and decode of a pair serve different --model-path values"
    doc = """\
## What it does
For every prefill x decode pair of a deployment, compares `--model-path`
(`--model`, the positional model of `sglang serve`, `model_path=` in Python) and
reports the pair when the two are provably different. Only trailing slashes are
normalized: `/models/llama/` equals `/models/llama`. A Hugging Face id and a
local path are never assumed equal or different - `meta-llama/Llama-3.1-8B` vs
`/models/Llama-3.1-8B` is reported, because the two strings name different
locations and nothing in the script says they hold the same weights.

## Why is this bad?
The prefill computes the KV cache of the prompt with its model; the decode
continues generation from that cache with its own. With different models the
KV layout (layers, heads, head dim) usually differs and the transfer fails, or,
for models with the same shape (a base and its fine-tune, two quantizations),
the decode silently generates from a cache it did not compute - wrong output
with no error. SGLang never compares the models of a pair (no check in
`sglang/srt/disaggregation/` in 0.5.23; the decode only checks page size, KV
dtype, parallel layout and, for some models, KV layout at
`common/conn.py:1321-1386`). The severity is warning because a deliberate
pairing of two checkpoints with identical weights under different names is
possible, and the rule cannot see the files.

## Example
```bash
python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill
python -m sglang.launch_server --model-path Qwen/Qwen3-32B --disaggregation-mode decode --port 30001
```

## How to fix
Serve the same checkpoint on both sides: pass the same `--model-path` (a shared
variable is the safest way), and the same revision/quantization options.

## Versions
No released version (0.5.4-0.5.23) checks it.
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill &\n"
                    "python -m sglang.launch_server --model-path Qwen/Qwen3-32B --disaggregation-mode decode --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="Qwen/Qwen3-8B",
        ),
        Example(
            {
                "prefill.sh": "MODEL=${MODEL:-/models/DeepSeek-V3}\npython -m sglang.launch_server --model $MODEL --disaggregation-mode prefill\n",
                "decode.sh": "python -m sglang.launch_server --model-path /models/DeepSeek-R1 --disaggregation-mode decode --port 30001\n",
            },
            findings=1,
            message_contains="default",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --model-path /models/llama/ --disaggregation-mode prefill &\n"
                    "python -m sglang.launch_server --model /models/llama --disaggregation-mode decode --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --model-path $MODEL --disaggregation-mode prefill &\n"
                    "python -m sglang.launch_server --model-path $MODEL --disaggregation-mode decode --port 30001 &\n"
                    "python -m sglang.launch_server --model-path /models/x --disaggregation-mode decode --port 30002 &\n"
                )
            }
        ),
    ]

    def check_pair(self, context: RuleContext, deployment: Deployment, prefill: Server, decode: Server) -> Iterable[Finding]:
        p, d = prefill.setting("model_path"), decode.setting("model_path")
        if not provably_different_resolved(p.value, d.value, _strip_slashes):
            return
        yield self.finding(
            sides("model", value_text(p), value_text(d)),
            setting_location(decode, d),
            related=[Related(setting_location(prefill, p), f"prefill model {clip(value_text(p))}")],
            noqa_ranges=launch_noqa_ranges(decode),
            help="pass the same --model-path to both sides (a shared variable is safest)",
            notes=(
                side_note(prefill, p, "model"),
                side_note(decode, d, "model"),
                "the decode continues from a KV cache another model computed: a failed transfer, or silently "
                "wrong output when the shapes happen to match",
                "SGLang never checks this (no check in sglang/srt/disaggregation/ up to 0.5.23)",
            ),
        )
