"""SGL008 pd-decode-attn-cp."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.catalog.tables import version_key
from sglang_lint.model import Finding
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges, setting_location
from sglang_lint.rules.messages import clip
from sglang_lint.rules.pd_pair import side_note, value_text
from sglang_lint.topology import Deployment, Server


def _has_check(version: str) -> bool:
    try:
        return version_key(version) >= (0, 5, 10)
    except ValueError:
        return True


def _above_one(text: str) -> bool:
    try:
        return int(text) > 1
    except ValueError:
        return False


class PdDecodeAttnCp(Rule):
    code = "SGL008"
    name = "pd-decode-attn-cp"
    summary = "A decode server of a prefill/decode pair uses attention context parallelism (--attn-cp-size > 1)"
    doc = """\
## What it does
Reports a decode server that is paired with a prefill and whose attention
context-parallel size (`--attn-cp-size` / `--attention-context-parallel-size`)
is provably greater than 1. Attention context parallelism is for the prefill
side only.

## Why is this bad?
When the decode connects to a prefill it asserts "Decode cp size (N) should be
equal to 1" (`sglang/srt/disaggregation/common/conn.py:1493` in 0.5.23). The
decode starts fine; the assertion fails when the first request is transferred.
(A prefill with `--attn-cp-size` > 1 is supported: the decode pulls from its CP
ranks.)

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --tp 8 --attn-cp-size 2
python -m sglang.launch_server --disaggregation-mode decode --tp 8 --attn-cp-size 2 --port 30001
```

## How to fix
Remove `--attn-cp-size` from the decode (the default is 1). Keep it on the
prefill if you want context parallelism there. Use `--dcp-size` (decode context
parallelism) for the decode side instead where your version supports it.

## Versions
`--attn-cp-size` exists from 0.5.9; the decode's check from 0.5.10 (0.5.23:
`common/conn.py:1493`). The rule is silent for 0.5.4-0.5.9.
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --tp 8 --attn-cp-size 2 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --tp 8 --attn-cp-size 2 --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="--attn-cp-size 2",
        ),
        Example(
            {
                "prefill.sh": "python -m sglang.launch_server --disaggregation-mode prefill --tp 8\n",
                "decode.sh": "python -m sglang.launch_server --disaggregation-mode decode --tp 8 --attention-context-parallel-size ${CP:-4} --port 30001\n",
            },
            findings=1,
            message_contains="default",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --tp 8 --attn-cp-size 4 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --tp 8 --attn-cp-size 1 --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --tp 8 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --tp 8 --attn-cp-size $CP --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                # 0.5.9 has --attn-cp-size but no decode check
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --tp 8 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --tp 8 --attn-cp-size 2 --port 30001 &\n"
                )
            },
            target_version="0.5.9",
        ),
    ]

    def check_pair(self, context: RuleContext, deployment: Deployment, prefill: Server, decode: Server) -> Iterable[Finding]:
        if not _has_check(context.version):
            return
        d = decode.setting("attn_cp_size")
        candidates = d.value.candidates()
        if d.is_default or not candidates or not all(_above_one(c) for c in candidates):
            return
        # The message names the decode only: with several prefills, the finding
        # is the same one (findings are de-duplicated).
        yield self.finding(
            f"the decode uses attention context parallelism: attention CP {clip(value_text(d))}, a decode needs 1",
            setting_location(decode, d),
            noqa_ranges=launch_noqa_ranges(decode),
            help="remove --attn-cp-size from the decode (keep it on the prefill only)",
            notes=(
                side_note(decode, d, "attention CP"),
                f"the decode fails at its first transfer from a prefill: \"Decode cp size ({value_text(d)}) should "
                "be equal to 1\" (sglang/srt/disaggregation/common/conn.py:1493 in 0.5.23)",
                "--attn-cp-size exists from sglang 0.5.9; the decode checks it from 0.5.10",
            ),
        )
