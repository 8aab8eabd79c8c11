"""SGL206 config-equals-ignored."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.model import SAFE, Finding, Fix
from sglang_lint.rules.argv_problems import problems_of
from sglang_lint.rules.base import ARGV_PROGRAMS, Example, Rule, RuleContext, launch_noqa_ranges
from sglang_lint.rules.messages import clip
from sglang_lint.topology import Deployment, Server


class ConfigEqualsIgnored(Rule):
    code = "SGL206"
    name = "config-equals-ignored"
    fix = "always"
    programs = ARGV_PROGRAMS
    summary = "`--config=FILE` (or an abbreviation of --config) is silently ignored by SGLang"
    doc = """\
## What it does
Reports a `--config` option written as one word (`--config=prefill.yaml`) or
abbreviated (`--conf prefill.yaml`, `--config=...` with a prefix).

## Why is this bad?
SGLang merges a config file only when the exact word `--config` appears in argv:
`if "--config" in argv:` (`sglang/srt/server_args.py:683` in 0.5.23), and
`ConfigArgumentMerger` then looks for `cli_args.index("--config")` and takes
the next word as the file (`sglang/srt/utils/server_args_config_parser.py:99`).
`--config=prefill.yaml` is not that word, yet argparse accepts it (an exact name
with `=VALUE`, or a unique prefix) and stores it in a field nothing reads. No
error, no warning: the server starts with SGLang's defaults for everything the
file was meant to set (its TP size, its disaggregation mode, its unified memory),
which in a PD deployment surfaces later as a mismatch between the sides.

## Example
```bash
python -m sglang.launch_server --config=prefill.yaml --port 30000
python -m sglang.launch_server --conf decode.yaml --port 30001
```

## How to fix
Write the option and the file as two words, with the full name:
`--config prefill.yaml`. `sglang-lint check --fix` does it (a safe fix): a shell
word gets a blank, a Python or YAML list gets two items.

## Versions
Every release with `--config` (0.5.4 onwards reads it the same way).
"""

    invalid = [
        Example(
            {"run.sh": "python -m sglang.launch_server --config=prefill.yaml --port 30000\n", "prefill.yaml": "tp-size: 8\n"},
            findings=1,
            message_contains="--config prefill.yaml",
        ),
        Example(
            {"run.sh": "python -m sglang.launch_server --conf decode.yaml --port 30001\n", "decode.yaml": "tp-size: 8\n"},
            findings=1,
            message_contains="abbreviation of --config",
        ),
    ]
    valid = [
        Example({"run.sh": "python -m sglang.launch_server --config prefill.yaml --port 30000\n", "prefill.yaml": "tp-size: 8\n"}),
        Example({"run.sh": 'python -m sglang.launch_server --config "$CFG" --port 30000\n'}),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        for problem in problems_of(server, "config-equals"):
            file_text = self._file_text(problem.message)
            fix = f"write --config {file_text}" if file_text else "write --config FILE as two words"
            head, _, why = problem.message.partition(": ")
            if problem.joined:
                repair = Fix(f"Write {problem.option}=FILE as --config FILE", problem.location, problem.option, "--config", preferred=True, applicability=SAFE, split=True)
            else:
                repair = Fix(f"Replace {problem.option} with --config", problem.location, problem.option, "--config", preferred=True, applicability=SAFE)
            yield self.finding(
                clip(head, 110),
                problem.location,
                noqa_ranges=launch_noqa_ranges(server),
                help=fix,
                notes=(
                    why,
                    "the file is never read: the server starts with SGLang's defaults for every option it sets",
                ),
                fixes=[repair],
            )

    @staticmethod
    def _file_text(message: str) -> str:
        head = message.split(" is silently ignored", 1)[0]
        if "=" in head and " " not in head:
            return head.split("=", 1)[1]
        return ""
