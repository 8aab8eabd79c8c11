"""SGL101 unified-memory-pd-backend."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.model import Finding
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges, setting_location
from sglang_lint.rules.messages import clip
from sglang_lint.rules.pd_pair import value_text
from sglang_lint.rules.unified_memory import unified_memory_enabled
from sglang_lint.rules.unified_memory_pd import FIRST_WITH_PD, at_least, describe_setting, every_candidate, is_pd, mode_text
from sglang_lint.topology import Deployment, Server

# "mooncake_tcp" is rewritten to "mooncake" by handle_pd_disaggregation, which runs
# before the unified-memory check in every version that has both (0.5.18
# server_args.py:3644 before :3764; 0.5.23 arg_groups/pipeline.py:147 before :338).
_ACCEPTED = frozenset({"mooncake", "mooncake_tcp"})


class UnifiedMemoryPdBackend(Rule):
    code = "SGL101"
    name = "unified-memory-pd-backend"
    summary = "Unified memory with PD disaggregation and a transfer backend other than mooncake"
    doc = """\
## What it does
Reports a prefill or decode server (`--disaggregation-mode prefill|decode`) that
enables `--enable-unified-memory` while its `--disaggregation-transfer-backend` is
provably not mooncake (`nixl`, `mori`, `ascend`, `fake`). `mooncake_tcp` counts as
mooncake: SGLang rewrites it to `mooncake` before this check.

## Why is this bad?
The server refuses to start. With unified memory a request's KV cache and state
travel as one whole-slot envelope, and only the Mooncake connector can ship it:
`handle_unified_memory_pool` asserts "--enable-unified-memory with PD
disaggregation supports only these transfer backends: mooncake"
(`sglang/srt/arg_groups/kv_cache_hook.py:537` in 0.5.23).

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory \\
    --disaggregation-transfer-backend nixl --tp 8
```

## How to fix
Use `--disaggregation-transfer-backend mooncake` (the default) or `mooncake_tcp`
on every server of the deployment (they must agree, see SGL006), or drop
`--enable-unified-memory`.

## Versions
Checked from 0.5.18, the first release that accepts unified memory with PD:
`server_args.py:8292` (0.5.18), `arg_groups/kv_cache_hook.py:204` (0.5.19),
`:205` (0.5.20), `:486` (0.5.21), `:534` (0.5.22), `:537` (0.5.23); from 0.5.21 the
accepted set is `ServerArgs._unified_memory_pd_transfer_backends()`, which returns
`{"mooncake"}` (`server_args.py:347` in 0.5.23). Older releases reject unified
memory with PD altogether (SGL104).
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --disaggregation-transfer-backend nixl --tp 8 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --disaggregation-transfer-backend nixl --tp 8 --port 30001 &\n"
                )
            },
            findings=2,
            message_contains="--disaggregation-transfer-backend nixl",
        ),
        Example(
            {
                "decode.sh": (
                    'BACKEND="${BACKEND:-mori}"\n'
                    'python3 -m sglang.launch_server --disaggregation-mode decode --enable-unified --disaggregation-transfer-backend "$BACKEND" --port 30001\n'
                )
            },
            findings=1,
            message_contains="mori",
            target_version="0.5.19",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --disaggregation-transfer-backend mooncake_tcp &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                # Not PD: the backend is never used; and an unknown backend proves nothing.
                "run.sh": (
                    "python -m sglang.launch_server --enable-unified-memory --disaggregation-transfer-backend nixl &\n"
                    'python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --disaggregation-transfer-backend "$BACKEND" --port 30001 &\n'
                )
            }
        ),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        if not (at_least(context.version, FIRST_WITH_PD) and is_pd(server) and unified_memory_enabled(server)):
            return
        backend = server.setting("disaggregation_transfer_backend")
        if not every_candidate(backend, lambda text: text not in _ACCEPTED):
            return
        yield self.finding(
            f"unified memory with PD needs the mooncake transfer backend, not {clip(value_text(backend))}",
            setting_location(server, backend),
            noqa_ranges=launch_noqa_ranges(server),
            help="use --disaggregation-transfer-backend mooncake (or mooncake_tcp) on every server of the deployment, "
            "or drop --enable-unified-memory",
            notes=(
                f"{server.label} ({mode_text(server)}) sets --enable-unified-memory and {describe_setting(backend, server)}",
                "SGLang refuses to start: \"--enable-unified-memory with PD disaggregation supports only these "
                "transfer backends: mooncake\"",
                "checked from sglang 0.5.18, the first release that accepts unified memory with PD",
            ),
        )
