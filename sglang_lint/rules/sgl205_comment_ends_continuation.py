"""SGL205 comment-ends-continuation."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.model import Finding, Fix, Location, Related, SourceResult
from sglang_lint.rules.base import Example, Rule, RuleContext, orphaned_words


class CommentEndsContinuation(Rule):
    code = "SGL205"
    name = "comment-ends-continuation"
    fix = "sometimes"
    summary = "A comment line inside a backslash continuation ends the command; the options after it never reach it"
    doc = """\
## What it does
Reports a `#` comment line placed between the lines of a command continued with
backslashes, followed by more option lines.

## Why is this bad?
In a shell a backslash-newline joins lines only when the backslash is the last
character of a line. A line that is only a comment has no trailing backslash (and
a `\\` at the end of a comment is part of the comment), so the comment line ends
the command: the shell runs the command with the options *before* the comment,
then runs the lines after it as a separate command (`--enable-unified-memory:
command not found`, which a script without `set -e` ignores). The server starts
without those options and nothing reports it (POSIX shell grammar, "Escape
Character (Backslash)" and "Comments"; the same in bash).

## Example
```bash
python -m sglang.launch_server \\
  --disaggregation-mode decode \\
  --tp 8 \\
  # unified memory must match the prefill
  --enable-unified-memory \\
  --port 30001
```

## How to fix
Move the comment above the command (or to the end of the command's last line),
or delete it. Comments cannot live inside a continued command.

## Versions
Shell behaviour, independent of the SGLang version.
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server \\\n"
                    "  --disaggregation-mode decode \\\n"
                    "  # must match the prefill\n"
                    "  --enable-unified-memory \\\n"
                    "  --port 30001\n"
                )
            },
            findings=1,
            message_contains="--enable-unified-memory",
        ),
        Example(
            {
                "run.sh": (
                    "python3 -m sglang.launch_server --model-path /m \\\n"
                    "    --tp 8 \\\n"
                    "#    --dp 8 \\\n"
                    "    --port 30000\n"
                )
            },
            findings=1,
            message_contains="separate command",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "# unified memory must match the prefill\n"
                    "python -m sglang.launch_server \\\n"
                    "  --disaggregation-mode decode \\\n"
                    "  --enable-unified-memory \\\n"
                    "  --port 30001  # decode port\n"
                )
            }
        ),
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --tp 8 \\\n"
                    "  --port 30001\n"
                    "# the router comes next\n"
                    "python -m sglang_router.launch_router --pd-disaggregation\n"
                )
            }
        ),
    ]

    def check_source(self, context: RuleContext, source: SourceResult) -> Iterable[Finding]:
        for comment, orphaned in source.continuation_breaks:
            words = orphaned_words(source, orphaned, 80)
            shown = f"`{words}`" if words else "the lines after it"
            yield self.finding(
                "this comment line ends the backslash continuation of the command above it",
                comment,
                fixes=_move_below(source, comment, orphaned),
                related=[Related(orphaned, "these words run as a separate command, not as options of the launch")],
                help="move the comment above the command, or delete it",
                notes=(
                    "the shell runs the command without the options after the comment",
                    f"then it runs {shown} (line {orphaned.line}) as a separate command, which fails or does nothing",
                    "a line that is only a comment has no trailing backslash (a `\\` inside a comment is part of it)",
                ),
            )


def _move_below(source: SourceResult, comment: Location, orphaned: Location) -> list[Fix]:
    """An unsafe fix (the command gets the options after the comment): the
    comment line moves below the last line of the command, unchanged, so the
    continuation goes on to the options it cut off."""
    lines = source.lines
    first, last = comment.line, orphaned.end_line
    if not first < last <= len(lines) or orphaned.line != first + 1:
        return []
    old = "\n".join(lines[first - 1 : last])
    new = "\n".join([*lines[first:last], lines[first - 1]])
    where = Location(comment.path, first, 1, last, len(lines[last - 1]) + 1)
    return [Fix("Move the comment line below the command", where, old, new, preferred=True)]
