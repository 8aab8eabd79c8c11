"""SGL209 entry-point-not-in-release."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.model import UNSAFE, Finding, Fix, Location
from sglang_lint.rules.argv_problems import problems_of
from sglang_lint.rules.base import ARGV_PROGRAMS, Example, Rule, RuleContext, launch_noqa_ranges
from sglang_lint.topology import Deployment, Server


class EntryPointNotInRelease(Rule):
    code = "SGL209"
    name = "entry-point-not-in-release"
    fix = "sometimes"
    programs = ARGV_PROGRAMS
    summary = "The launch's command does not exist in its SGLang release (`sglang serve` before 0.5.5): no server starts"
    doc = """\
## What it does
Reports a launch through an entry point its SGLang release does not have:

- `sglang serve ...` before 0.5.5: there is no `sglang` command;
- `python -m sglang.multimodal_gen.runtime.entrypoints.cli.main serve ...` (the
  diffusion server's CLI) before 0.5.5: there is no `sglang.multimodal_gen`.

The release is the one the launch is judged with: `--target-version`, the
container image holding the command (`lmsysorg/sglang:v0.4.6-cu124`, older than
every table, is judged as 0.5.4), an install pin beside it, or the project's pin.

## Why is this bad?
The `sglang` console script (`sglang = "sglang.cli.main:main"` in the wheel's
`entry_points.txt`) and `sglang/cli/serve.py` came in 0.5.5; 0.5.4's wheel has
no `entry_points.txt`, no `sglang/cli/` and no `sglang/multimodal_gen/`. The
shell answers `sglang: command not found` (or Python `No module named
sglang.multimodal_gen`) and no server starts: a guide written for a newer release,
run in an older image, fails before any argument is read. The arguments are
still checked, as `python -m sglang.launch_server` would read them.

## Example
```bash
# image lmsysorg/sglang:v0.5.4-cu126
sglang serve --model-path Qwen/Qwen3-8B --tp 2
```

## How to fix
Start the LLM server with `python3 -m sglang.launch_server ...` (it takes the
same options), or run a release from 0.5.5. `sglang-lint check --fix
--unsafe-fixes` rewrites `sglang serve` so, where both words are written together
on the command's line. The fix is unsafe: `sglang serve MODEL` with the model as
its first word is not something `launch_server` reads.

## Versions
0.5.4 (and any older release, judged with 0.5.4's table) has neither command;
from 0.5.5 on both exist.
"""

    invalid = [
        Example(
            {"run.sh": "sglang serve --model-path Qwen/Qwen3-8B --tp 2\n"},
            findings=1,
            message_contains="no sglang command before sglang 0.5.5",
            target_version="0.5.4",
        ),
        Example(
            {
                "serve.yaml": (
                    "containers:\n"
                    "  - name: llm\n"
                    "    image: lmsysorg/sglang:v0.4.6.post1-cu124\n"
                    "    command: [sglang, serve, --model-path, /models/m, --tp, '2']\n"
                )
            },
            findings=1,
            message_contains="older than every table",
        ),
        Example(
            {"run.sh": "python3 -m sglang.multimodal_gen.runtime.entrypoints.cli.main serve --model-path /models/flux\n"},
            findings=1,
            message_contains="no diffusion server",
            target_version="0.5.4",
        ),
    ]
    valid = [
        Example({"run.sh": "sglang serve --model-path Qwen/Qwen3-8B --tp 2\n"}, target_version="0.5.5"),
        Example({"run.sh": "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2\n"}, target_version="0.5.4"),
        Example({"run.sh": "python3 -m sglang.multimodal_gen.runtime.entrypoints.cli.main serve --model-path /models/flux\n"}, target_version="0.5.5"),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        for problem in problems_of(server, "no-entry-point"):
            fixes = []
            if problem.option == "sglang serve":
                # From the command's first word to the end of its line: the
                # problem's location is the word `sglang` alone.
                start = Location(problem.location.path, problem.location.line, problem.location.column)
                fixes.append(Fix("Start the server with python3 -m sglang.launch_server", start, "sglang serve", "python3 -m sglang.launch_server", preferred=True, applicability=UNSAFE))
            yield self.finding(
                problem.message,
                problem.location,
                noqa_ranges=launch_noqa_ranges(server),
                help="start the LLM server with python3 -m sglang.launch_server (same options), or use sglang 0.5.5 or later",
                notes=(
                    "the sglang command (sglang.cli.main) and the diffusion server (sglang.multimodal_gen) came in sglang 0.5.5; "
                    f"the launch is judged with sglang {server.settings.version}",
                ),
                fixes=fixes,
            )
