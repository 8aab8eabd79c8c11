"""SGL104 unified-memory-version."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.model import Finding
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges, setting_location
from sglang_lint.rules.messages import clip
from sglang_lint.rules.unified_memory import unified_memory_enabled, unified_memory_setting
from sglang_lint.rules.unified_memory_pd import FIRST_WITH_FLAG, FIRST_WITH_PD, at_least, is_pd, mode_text
from sglang_lint.topology import Deployment, Server

FLAG = "--enable-unified-memory"
# Shortest spelling we take as meaning the flag when the version does not know it:
# "--enable-unified" is what users abbreviate to (unique in 0.5.15-0.5.19).
_SHORTEST = "--enable-unified"

# Where 0.5.15-0.5.17 assert disaggregation_mode == "null" (server_args.py).
_REJECT_PD_LINE = {"0.5.15": 5886, "0.5.16": 6826, "0.5.17": 7890}


def _means_unified_memory(option: str) -> bool:
    return len(option) >= len(_SHORTEST) and FLAG.startswith(option)


class UnifiedMemoryVersion(Rule):
    code = "SGL104"
    name = "unified-memory-version"
    summary = "Unified memory with PD disaggregation on an SGLang version that lacks it or rejects it with PD"
    doc = """\
## What it does
Reports a prefill or decode server (`--disaggregation-mode prefill|decode`) that
asks for `--enable-unified-memory` when the target SGLang version
(`target-version`) cannot run it with PD:

- before 0.5.15 the option does not exist: argparse stops with "unrecognized
  arguments: --enable-unified-memory" (a Python `Engine(enable_unified_memory=True)`
  fails with a TypeError);
- 0.5.15-0.5.17 know the option but reject it with PD at startup:
  "--enable-unified-memory is not yet compatible with PD disaggregation".

## Why is this bad?
The server does not start. Scripts written for a newer SGLang are often run on an
older image; the error then appears only when the deployment is brought up.

## Example
```bash
# target-version = "0.5.17"
python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 8
```

## How to fix
Upgrade SGLang to 0.5.18 or later (0.5.20 or later for MHA hybrid and
hybrid sliding-window models), and set `target-version` accordingly; or drop
`--enable-unified-memory` from every server of the deployment.

## Versions
The option first appears in 0.5.15 (`server_args.py:764`, field
`enable_unified_memory`). `ServerArgs._handle_unified_memory_pool` asserts
`disaggregation_mode == "null"` in 0.5.15 (`server_args.py:5886`), 0.5.16
(`:6826`) and 0.5.17 (`:7890`); 0.5.18 replaces it with PD-specific checks
(`server_args.py:8290`, see SGL101/SGL102). 0.5.18-0.5.19 accept PD for MLA
hybrid-Mamba models only; that depends on the model and is not checked.
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified --tp 8 --port 30001 &\n"
                )
            },
            findings=2,
            message_contains="0.5.17",
            target_version="0.5.17",
        ),
        Example(
            {
                "decode.sh": "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 8 --port 30001\n",
            },
            findings=1,
            message_contains="does not know",
            target_version="0.5.14",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 8 --port 30001 &\n"
                )
            },
            target_version="0.5.18",
        ),
        Example(
            {
                # Not PD: 0.5.16 accepts it.
                "run.sh": "python -m sglang.launch_server --enable-unified-memory --tp 8\n",
            },
            target_version="0.5.16",
        ),
        Example(
            {
                # Not PD: unknown to 0.5.14, but that is SGL202's finding, not this one.
                "run.sh": "python -m sglang.launch_server --enable-unified-memory --tp 8\n",
            },
            target_version="0.5.14",
        ),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        if at_least(context.version, FIRST_WITH_PD) or not is_pd(server):
            return
        noqa = launch_noqa_ranges(server)
        if at_least(context.version, FIRST_WITH_FLAG):
            if not unified_memory_enabled(server):
                return
            setting = unified_memory_setting(server)
            line = _REJECT_PD_LINE.get(context.version)
            site = f"sglang/srt/server_args.py:{line}" if line else "server_args.py _handle_unified_memory_pool"
            yield self.finding(
                f"sglang {context.version} rejects --enable-unified-memory with PD disaggregation",
                setting_location(server, setting),
                noqa_ranges=noqa,
                help=_HELP,
                notes=(
                    f"{server.label} sets {setting.written_as() if setting.spelling else FLAG} with {mode_text(server)}",
                    f"the server refuses to start: \"--enable-unified-memory is not yet compatible with PD "
                    f"disaggregation\" ({site})",
                    _HISTORY,
                ),
            )
            return
        # Before 0.5.15 the option is unknown: argparse reports it (ArgProblem
        # "unknown"), a ServerArgs/Engine keyword is a TypeError.
        for problem in server.settings.problems:
            if problem.kind == "unknown" and _means_unified_memory(problem.option):
                yield self.finding(
                    f"sglang {context.version} does not know {clip(problem.option)}: unified memory with PD needs 0.5.18+",
                    problem.location,
                    noqa_ranges=noqa,
                    help=f"deploy sglang 0.5.18 or later (and set target-version to it), or drop {problem.option}",
                    notes=(
                        f"{server.label} ({mode_text(server)}) sets {problem.option}",
                        "argparse stops with \"unrecognized arguments\" and the server never starts",
                        _HISTORY,
                    ),
                )
        for keyword in server.launch.keywords:
            if keyword.name != "enable_unified_memory":
                continue
            state = flag_state_of_keyword(keyword.value)
            if state is True:
                yield self.finding(
                    f"sglang {context.version} has no ServerArgs field enable_unified_memory: unified memory with PD needs 0.5.18+",
                    keyword.location,
                    noqa_ranges=noqa,
                    help="deploy sglang 0.5.18 or later (and set target-version to it), or drop enable_unified_memory",
                    notes=(
                        f"{server.label} ({mode_text(server)}) passes enable_unified_memory",
                        "the call fails with a TypeError (unexpected keyword argument)",
                        _HISTORY,
                    ),
                )


_HELP = "deploy sglang 0.5.18 or later (and set target-version to it), or drop --enable-unified-memory"
_HISTORY = (
    "--enable-unified-memory exists from sglang 0.5.15; 0.5.15-0.5.17 reject it with PD disaggregation; "
    "0.5.18 is the first release that accepts both"
)


def flag_state_of_keyword(value) -> bool | None:
    """A keyword's truth as SGLang would test it: True/1 on, False/None/0 off."""
    if not value.is_known:
        return None
    return value.text not in ("False", "false", "None", "0", "0.0", "")
