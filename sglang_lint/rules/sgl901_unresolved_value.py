"""SGL901 unresolved-value (opt-in: --strict)."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.catalog.option_values import flag_state
from sglang_lint.model import Finding, Related, Severity, provably_different, provably_equal
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges
from sglang_lint.rules.messages import clip
from sglang_lint.rules.unified_memory import attn_tp_location, describe_attn_tp, unified_memory_enabled, unified_memory_setting
from sglang_lint.topology import Deployment, Server

_PREFILL_UM = "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"


class UnresolvedValue(Rule):
    code = "SGL901"
    name = "unresolved-value"
    severity = Severity.INFO
    opt_in = True
    summary = "A value the unified-memory checks need could not be resolved statically"
    doc = """\
## What it does
Lists the arguments a launch passes through from its caller (`"$@"`,
`sys.argv[1:]`, an `$EXTRA_ARGS` the file never sets): the other rules assume
they add no options and judge the options written in the file. And reports, for
every prefill x decode pair, the values that SGL001 and SGL002 needed but static
analysis could not resolve: whether a side enables
`--enable-unified-memory` (a flag that `"$@"`, an unknown `--config` file or a
`**kwargs` may set), and the attention TP of a pair that both enable it (a `$TP`
nobody sets, `os.environ["TP"]`, a value differing between branches). Off by
default; run with `--strict` (or select SGL901) to see where the other rules had
to stay silent.

## Why is this bad?
sglang-lint reports only what is provable, so a deployment whose sizes come from the
environment passes every rule. The mismatch SGL001 looks for still fails at the
first request (`sglang/srt/disaggregation/mooncake/conn.py:1306` in 0.5.23); this
rule lists the values to pin down or to check by hand.

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &
python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp "$DECODE_TP" --port 30001 &
```

## How to fix
Give the value in the script (`--tp 8`), or a default (`${DECODE_TP:-8}`, which
counts as the value), or tell sglang-lint through `[tool.sglang-lint] env` (issue 6),
or accept the finding as informational.

## Versions
Every version; what is resolvable does not depend on the release.
"""

    invalid = [
        Example(
            {"run.sh": _PREFILL_UM + 'python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp "$DECODE_TP" --port 30001 &\n'},
            findings=1,
            message_contains="$DECODE_TP",
        ),
        Example(
            {"run.sh": _PREFILL_UM + 'python -m sglang.launch_server "$@" --disaggregation-mode decode --tp 8 --port 30001 &\n'},
            findings=1,
            message_contains='"$@" of the script',
        ),
    ]
    valid = [
        Example({"run.sh": _PREFILL_UM + "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 8 --port 30001 &\n"}),
        Example({"run.sh": _PREFILL_UM + 'python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp "${TP:-8}" --port 30001 &\n'}),
        # Neither side enables unified memory: nothing was needed.
        Example({"run.sh": "python -m sglang.launch_server --disaggregation-mode prefill --tp $A &\npython -m sglang.launch_server --disaggregation-mode decode --tp $B --port 1 &\n"}),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        # Issue 16, part 5: the other rules judge the options written in the file
        # as if what is passed through from the caller added none; list each.
        for where, what in server.settings.passed_through:
            yield self.finding(
                f"arguments passed through here ({what}) are assumed to add no options",
                where,
                noqa_ranges=launch_noqa_ranges(server),
                help="the other findings on this launch hold unless the caller passes options that change them",
                notes=(f"launch {server.label}",),
            )

    def check_pair(self, context: RuleContext, deployment: Deployment, prefill: Server, decode: Server) -> Iterable[Finding]:
        states = {side: flag_state(unified_memory_setting(server)) for side, server in (("prefill", prefill), ("decode", decode))}
        if True in states.values() and None in states.values():
            side, server = ("prefill", prefill) if states["prefill"] is None else ("decode", decode)
            setting = unified_memory_setting(server)
            yield self.finding(
                f"cannot tell whether the {side} enables --enable-unified-memory",
                server.launch.location,
                noqa_ranges=launch_noqa_ranges(decode),
                help=f"write --enable-unified-memory (or leave it out) on the {side} where sglang-lint can see it",
                notes=(
                    f"{side} ({server.label}): {setting.value.describe()}",
                    "SGL002 needs it because the other side enables it",
                ),
            )
            return
        if not (unified_memory_enabled(prefill) and unified_memory_enabled(decode)):
            return
        a, b = prefill.attn_tp.value, decode.attn_tp.value
        if provably_equal(a, b) or provably_different(a, b):
            return
        unresolved = [(side, server) for side, server in (("prefill", prefill), ("decode", decode)) if server.attn_tp.value.candidates() is None]
        notes = [f"{side} attention TP {describe_attn_tp(server)} ({server.label})" for side, server in unresolved] or [
            f"prefill {describe_attn_tp(prefill)} vs decode {describe_attn_tp(decode)} may or may not be equal"
        ]
        notes.append("both sides enable --enable-unified-memory, which needs equal attention TP (SGL001)")
        yield self.finding(
            "cannot check that prefill and decode attention TP are equal (both enable unified memory)",
            attn_tp_location(decode),
            related=[Related(attn_tp_location(prefill), f"prefill attention TP {clip(prefill.attn_tp.value.describe())}")],
            noqa_ranges=launch_noqa_ranges(decode),
            help="give the sizes values sglang-lint can see (a literal, or a ${VAR:-default} default)",
            notes=notes,
        )
