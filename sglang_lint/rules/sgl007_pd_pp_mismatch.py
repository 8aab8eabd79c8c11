"""SGL007 pd-pp-mismatch."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.catalog.tables import version_key
from sglang_lint.model import Finding, Related, provably_equal
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges, setting_location
from sglang_lint.rules.messages import clip
from sglang_lint.rules.pd_pair import resolved_candidates, side_note, value_text
from sglang_lint.topology import Deployment, Server


def _number(text: str) -> Iterable[str]:
    """argparse reads --pp-size with int(): ``08`` is 8."""
    try:
        yield str(int(text))
    except ValueError:
        yield text


def _has_check(version: str) -> bool:
    try:
        return version_key(version) >= (0, 5, 7)
    except ValueError:
        return True


class PdPpMismatch(Rule):
    code = "SGL007"
    name = "pd-pp-mismatch"
    summary = "The decode's --pp-size is neither 1 nor the prefill's --pp-size"
    doc = """\
## What it does
For every prefill x decode pair of a deployment, reports the pair when the
decode's pipeline-parallel size (`--pp-size` / `--pipeline-parallel-size`) is
provably neither 1 nor the prefill's pipeline-parallel size.

## Why is this bad?
The decode maps its pipeline stages onto the prefill's only when both have the
same number of stages, or when the decode has a single stage that pulls from all
of the prefill's. Anything else fails the decode's assertion "Decode pp size (N)
should be equal to prefill pp size (M) or 1"
(`sglang/srt/disaggregation/common/conn.py:1516` in 0.5.23) when it connects to
the prefill for the first request; both servers start fine before that.
A decode with `--pp-size 1` and a prefill with `--pp-size 4` is accepted.

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --pp-size 4
python -m sglang.launch_server --disaggregation-mode decode --pp-size 2 --port 30001
```

## How to fix
Give the decode the prefill's `--pp-size`, or `--pp-size 1` (the default).

## Versions
The check exists from 0.5.7 (`disaggregation/common/conn.py:346-351`; 0.5.23:
line 1516); the rule is silent for 0.5.4-0.5.6, whose decode ignores its own
`--pp-size` for the transfer (0.5.6 `disaggregation/decode.py:239-240`: "pp is not
supported on the decode side yet").
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --pp-size 4 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --pp-size 2 --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="decode pp 2",
        ),
        Example(
            {
                # the prefill keeps the default pp 1; the decode's 2 comes from a default
                "prefill.sh": "python -m sglang.launch_server --disaggregation-mode prefill\n",
                "decode.sh": "python -m sglang.launch_server --disaggregation-mode decode --pipeline-parallel-size ${PP:-2} --port 30001\n",
            },
            findings=1,
            message_contains="default",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --pp-size 4 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --port 30001 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --pp-size 4 --port 30002 &\n"
                )
            }
        ),
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --pp-size $PP &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --pp-size $PP --port 30001 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --pp-size 2 --port 30002 &\n"
                )
            }
        ),
    ]

    def check_pair(self, context: RuleContext, deployment: Deployment, prefill: Server, decode: Server) -> Iterable[Finding]:
        if not _has_check(context.version):
            return
        p, d = prefill.setting("pp_size"), decode.setting("pp_size")
        if provably_equal(p.value, d.value):
            return
        cp, cd = resolved_candidates(p.value, _number), resolved_candidates(d.value, _number)
        if cp is None or cd is None or "1" in cd or not cp.isdisjoint(cd):
            return
        yield self.finding(
            f"decode pp {clip(value_text(d))} is neither 1 nor the prefill's pp {clip(value_text(p))}",
            setting_location(decode, d),
            related=[Related(setting_location(prefill, p), f"prefill pp {clip(value_text(p))}")],
            noqa_ranges=launch_noqa_ranges(decode),
            help=f"give the decode --pp-size {value_text(p)} or --pp-size 1",
            notes=(
                side_note(prefill, p, "pp"),
                side_note(decode, d, "pp"),
                "the decode fails when it first connects to the prefill: \"Decode pp size (N) should be equal to "
                "prefill pp size (M) or 1\" (sglang/srt/disaggregation/common/conn.py:1516 in 0.5.23)",
                "checked from sglang 0.5.7",
            ),
        )
