"""SGL203 invalid-option-value."""

from __future__ import annotations

import re
from typing import Iterable

from sglang_lint.catalog.option_values import choices_extensible
from sglang_lint.catalog.settings import ArgProblem
from sglang_lint.model import Finding
from sglang_lint.rules.argv_problems import is_stray_flag_value, option_for_spelling, problems_of, table_of
from sglang_lint.rules.base import ARGV_PROGRAMS, Example, Rule, RuleContext, launch_noqa_ranges
from sglang_lint.rules.messages import clip
from sglang_lint.topology import Deployment, Server



def _plugin_extensible(server: Server, problem: ArgProblem) -> bool:
    if not problem.refused_choice:
        return False
    table = table_of(server)
    option = option_for_spelling(table, problem.option) if table is not None else None
    if option is None:
        # Cannot tell which option: do not claim the value is invalid.
        return True
    return choices_extensible(option, server.settings.version)


def _advice(problem: ArgProblem) -> str:
    text = problem.message
    if is_stray_flag_value(problem):
        return "write the flag alone to turn it on, and leave it out to keep it off"
    if "ignored explicit argument" in text:
        return "write the flag alone (no =VALUE) to turn it on, and leave it out to keep it off"
    if "invalid choice" in text:
        return "use one of the listed choices"
    if "invalid int value" in text:
        return "give a whole number"
    if "invalid float value" in text:
        return "give a number"
    if "invalid json.loads value" in text:
        return "give valid JSON (quote it for the shell)"
    if "expected" in text or "requires a value" in text:
        return "give the option its value, or remove it"
    return "fix the value"


_TAKES_NO_VALUE = re.compile(r" \((\S+) takes no value\)$")
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")


def _split(text: str) -> tuple[str, list[str]]:
    """argparse's message as a short first line and notes: a value given to a
    flag says so; a list of choices goes to a note."""
    flag = _TAKES_NO_VALUE.search(text)
    if flag is not None:
        quoted = _QUOTED.search(text)
        given = f", but is given {clip(quoted.group(1))}" if quoted is not None else ""
        return f"{clip(flag.group(1), 48)} takes no value{given}", [text]
    head, separator, rest = text.partition(" (")
    notes = [rest[:-1] if rest.endswith(")") else rest] if separator else []
    return clip(head, 110), notes


class InvalidOptionValue(Rule):
    code = "SGL203"
    name = "invalid-option-value"
    programs = ARGV_PROGRAMS
    summary = "A value argparse rejects (not a number, not among the choices, a value given to a flag): the server does not start"
    doc = """\
## What it does
Reports an option value that SGLang's argument parser rejects for the target
version: a value that its type cannot convert (`--tp-size eight`,
`--mem-fraction-static 0,8`), a value outside the option's `choices`
(`--disaggregation-mode prefil`), a value given to a store_true flag
(`--enable-dp-attention=true`, `--enable-dp-attention true`), or an option
missing its value. A value that may be one of several (`${MODE:-prefill}`) is
reported only when every possibility fails.

Options whose choices plugins extend at runtime (`--attention-backend`,
`--load-format`, `--quantization`, `--disaggregation-transfer-backend`, the MoE
and GEMM runner backends, ...) are not checked against their choices: an
out-of-tree platform may add the value before the parser is built
(`sglang/srt/arg_groups/choices.py:207-276` in 0.5.23).

One mistake, one finding: a rejected value is not a setting the other rules
compare (`--page-size 6x4` on a prefill is not also a page-size mismatch with its
decode).

## Why is this bad?
argparse converts and checks each value while parsing and exits with `error:
argument --tp-size: invalid int value: 'eight'` (Python's `argparse`,
`_get_values` / `_check_value`); a flag with `=VALUE` is "ignored explicit
argument", and a stray word after a flag is "unrecognized arguments". The
server never starts.

## Example
```bash
python -m sglang.launch_server --model-path /models/m --tp-size eight
python -m sglang.launch_server --model-path /models/m --disaggregation-mode prefil
python -m sglang.launch_server --model-path /models/m --enable-dp-attention=true
```

## How to fix
Give a value of the right type, one of the listed choices; write flags alone
(`--enable-dp-attention`) and leave them out to keep them off.

## Versions
Python's argparse behaviour; types and choices come from each release's option
table.
"""

    invalid = [
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp-size eight\n"},
            findings=1,
            message_contains="invalid int value",
        ),
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --disaggregation-mode prefil\n"},
            findings=1,
            message_contains="invalid choice",
        ),
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp 8 --dp 8 --enable-dp-attention=true\n"},
            findings=1,
            message_contains="takes no value",
        ),
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp 8 --dp 8 --enable-dp-attention true\n"},
            findings=1,
            message_contains="takes no value",
        ),
    ]
    valid = [
        Example({"run.sh": "python -m sglang.launch_server --model-path /m --tp-size ${TP:-8} --disaggregation-mode prefill\n"}),
        Example(
            # A plugin may register the backend: not checked against the table's choices.
            {"run.sh": "python -m sglang.launch_server --model-path /m --attention-backend my_plugin_attn --load-format my_loader\n"}
        ),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        version = server.settings.version
        problems = problems_of(server, "invalid-value") + [p for p in problems_of(server, "unknown") if is_stray_flag_value(p)]
        problems.sort(key=lambda p: (p.location.line, p.location.column))
        for problem in problems:
            if _plugin_extensible(server, problem):
                continue
            message, notes = _split(problem.message)
            notes.append(f"argparse rejects this in sglang {version} and exits before the server starts")
            yield self.finding(
                message, problem.location, noqa_ranges=launch_noqa_ranges(server), help=_advice(problem), notes=notes
            )
