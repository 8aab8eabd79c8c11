"""SGL002 unified-memory-one-sided."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.model import Finding, Fix, Related
from sglang_lint.rules.base import Example, Rule, RuleContext, append_fix, launch_noqa_ranges, setting_location
from sglang_lint.rules.unified_memory import unified_memory_disabled, unified_memory_enabled, unified_memory_setting
from sglang_lint.topology import Deployment, Server


class UnifiedMemoryOneSided(Rule):
    code = "SGL002"
    name = "unified-memory-one-sided"
    fix = "sometimes"
    summary = "One side of a prefill/decode pair enables unified memory and the other does not"
    doc = """\
## What it does
Reports a prefill x decode pair of one deployment where exactly one server runs
with `--enable-unified-memory`.

## Why is this bad?
A unified-memory server registers its KV cache and state as one whole-slot
envelope per request; a server without it registers per-layer buffers. The two
layouts cannot be transferred into each other: the prefill's transfer thread
fails at the first request with "PD KV layout mismatch on the whole-envelope
path ... With --enable-unified-memory both sides must enable it"
(`sglang/srt/disaggregation/mooncake/conn.py:1320` in 0.5.23,
`_validate_envelope_kv_layout`). Nothing checks this at startup.

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8
python -m sglang.launch_server --disaggregation-mode decode --tp 8 --port 30001
```

## How to fix
Add `--enable-unified-memory` to the other side too (keeping attention TP equal,
see SGL001), or remove it from both.

## Versions
`--enable-unified-memory` exists from 0.5.15 and is accepted with PD from 0.5.18.
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --tp 8 --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="only the prefill",
        ),
        Example(
            {
                # Arguments passed through from the caller are assumed to add no
                # options (issue 16): judged, with a note naming them.
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"
                    'python -m sglang.launch_server --disaggregation-mode decode --tp 8 --port 30001 "$@" &\n'
                )
            },
            findings=1,
            message_contains='unless the arguments passed through ("$@" of the script at run.sh:2)',
        ),
        Example(
            {
                "prefill.sh": "python -m sglang.launch_server --disaggregation-mode prefill --tp 8\n",
                "decode.sh": "python -m sglang.launch_server --disaggregation-mode decode --enable-unified --tp 8 --port 30001\n",
            },
            findings=1,
            message_contains="only the decode",
            target_version="0.5.19",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 8 --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                # What a command prints is not known: the decode may enable it too.
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --tp 8 --port 30001 $(cat extra.args) &\n"
                )
            }
        ),
    ]

    def check_pair(self, context: RuleContext, deployment: Deployment, prefill: Server, decode: Server) -> Iterable[Finding]:
        if unified_memory_enabled(prefill) and unified_memory_disabled(decode):
            enabled, disabled, side = prefill, decode, "prefill"
        elif unified_memory_enabled(decode) and unified_memory_disabled(prefill):
            enabled, disabled, side = decode, prefill, "decode"
        else:
            return
        flag = unified_memory_setting(enabled)
        other = "decode" if side == "prefill" else "prefill"
        message = f"--enable-unified-memory is set on only the {side} of this pair, not on the {other}"
        notes = (
            f"{side} ({enabled.label}) sets {flag.written_as() if flag.spelling else '--enable-unified-memory'}",
            f"{other} ({disabled.label}) does not set it",
            "the whole-envelope KV layout of unified memory cannot be transferred to or from a server without it",
        )
        if side == "decode":
            primary = setting_location(decode, flag)
            related = [Related(prefill.launch.location, "prefill without --enable-unified-memory")]
        else:
            primary = decode.launch.location
            related = [Related(setting_location(prefill, flag), "prefill enables --enable-unified-memory")]
        yield self.finding(
            message,
            primary,
            related=related,
            noqa_ranges=launch_noqa_ranges(decode),
            help=f"add --enable-unified-memory to the {other}, or remove it from the {side}",
            notes=notes,
            fixes=_add_flag(disabled, other),
        )


def _add_flag(server: Server, role: str) -> list[Fix]:
    """``--enable-unified-memory`` after the last word of the side without it."""
    fix = append_fix(f"Add --enable-unified-memory to the {role}", server, ("--enable-unified-memory",))
    return [fix] if fix is not None else []
