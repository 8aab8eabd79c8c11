"""SGL006 pd-transfer-backend-mismatch."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.model import Finding, Related
from sglang_lint.rules.base import Example, Rule, RuleContext, give_decode, launch_noqa_ranges, setting_location
from sglang_lint.rules.messages import clip, sides
from sglang_lint.rules.pd_pair import provably_different_resolved, side_note, value_text
from sglang_lint.topology import Deployment, Server


def _backend(text: str) -> Iterable[str]:
    """``mooncake_tcp`` is mooncake with the TCP transport forced
    (sglang/srt/arg_groups/pd_disaggregation_hook.py:27-43 in 0.5.23)."""
    yield "mooncake" if text == "mooncake_tcp" else text


class PdTransferBackendMismatch(Rule):
    code = "SGL006"
    name = "pd-transfer-backend-mismatch"
    fix = "sometimes"
    summary = "Prefill and decode of a pair use different --disaggregation-transfer-backend values"
    doc = """\
## What it does
For every prefill x decode pair of a deployment, compares
`--disaggregation-transfer-backend` (default `mooncake`; `mooncake_tcp` counts as
`mooncake`, since it is mooncake with the TCP transport forced,
`sglang/srt/arg_groups/pd_disaggregation_hook.py:27` in 0.5.23) and reports the
pair when the backends are provably different.

## Why is this bad?
Prefill and decode exchange KV caches through the transfer engine of the backend
each one started (Mooncake, NIXL, Mori, Ascend). Two different engines cannot talk
to each other, and SGLang never checks that both sides use the same one (no
check in `sglang/srt/disaggregation/` in any version up to 0.5.23): the decode
registers with the prefill's bootstrap server, and the transfer then never
completes - requests hang until they time out, with no error naming the cause.

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --disaggregation-transfer-backend nixl
python -m sglang.launch_server --disaggregation-mode decode --port 30001   # mooncake (default)
```

## How to fix
Pass the same `--disaggregation-transfer-backend` to every prefill and decode
server of the deployment.

## Versions
All versions (the option exists from 0.5.4; `mooncake_tcp` from 0.5.13).
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --disaggregation-transfer-backend nixl &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="nixl",
        ),
        Example(
            {
                "prefill.sh": "B=${BACKEND:-mori}\npython -m sglang.launch_server --disaggregation-mode prefill --disaggregation-transfer-backend $B\n",
                "decode.sh": "python -m sglang.launch_server --disaggregation-mode decode --disaggregation-transfer-backend mooncake_tcp --port 30001\n",
            },
            findings=1,
            message_contains="default",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --disaggregation-transfer-backend mooncake_tcp &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --disaggregation-transfer-backend $BACKEND &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --disaggregation-transfer-backend nixl --port 30001 &\n"
                )
            }
        ),
    ]

    def check_pair(self, context: RuleContext, deployment: Deployment, prefill: Server, decode: Server) -> Iterable[Finding]:
        p = prefill.setting("disaggregation_transfer_backend")
        d = decode.setting("disaggregation_transfer_backend")
        if not provably_different_resolved(p.value, d.value, _backend):
            return
        yield self.finding(
            sides("transfer backend", value_text(p), value_text(d)),
            setting_location(decode, d) if not d.is_default else decode.launch.location,
            related=[Related(setting_location(prefill, p), f"prefill transfer backend {clip(value_text(p))}")],
            noqa_ranges=launch_noqa_ranges(decode),
            help=f"pass --disaggregation-transfer-backend {value_text(p)} to the decode, or the same backend to both sides",
            notes=(
                side_note(prefill, p, "transfer backend"),
                side_note(decode, d, "transfer backend"),
                "two transfer engines cannot exchange KV caches: requests hang until they time out, with no error "
                "naming the cause",
                "SGLang never checks this (no check in sglang/srt/disaggregation/ up to 0.5.23)",
            ),
            fixes=give_decode("transfer backend", "--disaggregation-transfer-backend", p, decode, d),
        )
