"""SGL208 serve-model-path-not-seen."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.catalog.settings import SERVE_MODEL_PATH_REQUIRED
from sglang_lint.model import SAFE, Finding, Fix
from sglang_lint.rules.argv_problems import problems_of
from sglang_lint.rules.base import ARGV_PROGRAMS, Example, Rule, RuleContext, launch_noqa_ranges
from sglang_lint.topology import Deployment, Server


class ServeModelPathNotSeen(Rule):
    code = "SGL208"
    name = "serve-model-path-not-seen"
    fix = "sometimes"
    programs = ARGV_PROGRAMS
    summary = "`sglang serve` does not see the model the launch gives (`--model` before 0.5.11, an abbreviation, a --config file): the server does not start"
    doc = """\
## What it does
Reports an `sglang serve` launch that gives its model in a way `sglang serve`
itself does not see:

- `--model MODEL` before 0.5.11;
- an abbreviation of `--model-path` (`--model-p MODEL`);
- a `model-path` in its `--config FILE` only;
- the model as the first word (`sglang serve MODEL`) before 0.5.16;
- `--model-path` as the last word, with no value.

A launch that names no model anywhere is not reported (a documentation snippet
showing a few flags, more often than a deployment), nor one with a word
sglang-lint cannot see (`"$@"`, an `$EXTRA_ARGS` it cannot follow) that may hold
it, nor one choosing an installed backend (`--model-type NAME`), which may need
no model path.

## Why is this bad?
`sglang serve` decides which server to start (the LLM or the diffusion server)
from the model, so it looks for the model itself before any parser runs:
`get_model_path` (`sglang/cli/utils.py`, 0.5.5 L126-151; 0.5.23 L136-168, called
at `cli/serve.py:44` in 0.5.5 and `cli/serve.py:216-217` in 0.5.23) scans the
words for exactly `--model-path X` or `--model-path=X` (from 0.5.11 also
`--model X` / `--model=X`) and raises `Error: --model-path is required. Please
provide the path to the model.` when there is none. argparse, which would accept
`--model`, an abbreviation or the `--config` file's key, never runs: the server
does not start. `python -m sglang.launch_server` reads the same words fine, which
is why a command moved from one entry point to the other breaks.

## Example
```bash
sglang serve --model Qwen/Qwen3-8B --tp 2          # sglang 0.5.5-0.5.10
sglang serve --model-p /models/m --tp 2
sglang serve --config decode.yaml                  # model-path: in the file
```

## How to fix
Give the model on the command line as `--model-path MODEL`. For `--model` and
an abbreviation, `sglang-lint check --fix` writes the full `--model-path` (a safe
fix: argparse reads both the same way).

## Versions
`sglang serve` exists from 0.5.5 (before, there is no `sglang` command);
`--model` is seen from 0.5.11, the model as first word from 0.5.16. From 0.5.18
the check applies to a backend that requires a model path, as both built-in
backends do (`serve_backends.py:67`).
"""

    invalid = [
        Example(
            {"run.sh": "sglang serve --model Qwen/Qwen3-8B --tp 2\n"},
            findings=1,
            message_contains="--model as the model path before sglang 0.5.11",
            target_version="0.5.10",
        ),
        Example(
            {"run.sh": "sglang serve --config decode.yaml\n", "decode.yaml": "model-path: /models/m\ntp-size: 2\n"},
            findings=1,
            message_contains="from the --config file",
        ),
        Example(
            {"run.sh": "sglang serve --model-p /models/m --tp 2\n"},
            findings=1,
            message_contains="abbreviation",
        ),
        Example(
            # The model as first word is read from 0.5.16: one finding, not also SGL202's.
            {"run.sh": "sglang serve Qwen/Qwen3-8B --tp 2\n"},
            findings=1,
            message_contains="first word from sglang 0.5.16",
            target_version="0.5.15",
        ),
        Example(
            {"run.sh": "sglang serve --tp 2 --model-path\n"},
            findings=1,
            message_contains="last word",
        ),
    ]
    valid = [
        Example({"run.sh": "sglang serve --model Qwen/Qwen3-8B --tp 2\n"}),
        Example({"run.sh": "sglang serve Qwen/Qwen3-8B --tp 2\n"}),
        Example({"run.sh": "sglang serve --model-path=/models/m --tp 2\n"}, target_version="0.5.5"),
        Example({"run.sh": "sglang serve --model-path /models/m --config decode.yaml\n", "decode.yaml": "tp-size: 2\n"}),
        Example({"run.sh": "python -m sglang.launch_server --model /models/m --tp 8\n"}, target_version="0.5.10"),
        Example({"run.sh": "python -m sglang.launch_server --config prefill.yaml\n", "prefill.yaml": "model-path: /models/m\n"}),
        # No model anywhere: not reported (a snippet showing flags).
        Example({"run.sh": "sglang serve --tp 2 --enable-dp-attention\n"}),
        Example({"run.sh": 'sglang serve --model-p /models/m "$@"\n'}),
        Example({"run.sh": "sglang serve --model-type my-backend --model-p /models/m\n"}),
        Example({"run.sh": "sglang serve --model-p /models/m --help\n"}),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        for problem in problems_of(server, "missing-model"):
            fixes = []
            if problem.option:
                fixes.append(Fix(f"Replace {problem.option} with --model-path", problem.location, problem.option, "--model-path", preferred=True, applicability=SAFE))
            yield self.finding(
                problem.message,
                problem.location,
                noqa_ranges=launch_noqa_ranges(server),
                help="give the model on sglang serve's command line: --model-path MODEL",
                notes=(
                    "sglang serve looks for the model itself, on its command line, before any parser runs "
                    "(get_model_path, sglang/cli/utils.py): exactly --model-path X, from 0.5.11 also --model X, "
                    "from 0.5.16 also the model as its first word",
                    f'sglang {server.settings.version}\'s sglang serve raises "{SERVE_MODEL_PATH_REQUIRED}" and no server starts',
                ),
                fixes=fixes,
            )
