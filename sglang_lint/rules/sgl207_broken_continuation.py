"""SGL207 broken-continuation."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.model import Finding, Fix, Related, SourceResult
from sglang_lint.rules.base import Example, Rule, RuleContext, orphaned_words


def _blanks(text: str) -> str:
    """``a space``, ``3 spaces``, ``a tab``, ``blanks``."""
    if set(text) == {" "}:
        return "a space" if len(text) == 1 else f"{len(text)} spaces"
    if set(text) == {"\t"}:
        return "a tab" if len(text) == 1 else f"{len(text)} tabs"
    return "blanks"


def _shown(words: Iterable[str]) -> str:
    return ", ".join(repr(word) for word in words)


class BrokenContinuationRule(Rule):
    code = "SGL207"
    name = "broken-continuation"
    fix = "always"
    summary = "A backslash followed by a space, a tab or a comment ends the launch's command; the next line runs on its own"
    doc = """\
## What it does
Reports a backslash meant to continue a launch's command on the next line but
followed by spaces, a tab or a comment before the end of its line (ShellCheck
SC1101), in shell scripts (`bash -c` / `ssh` command strings included), Markdown
shell blocks and `sh -c` scripts of YAML manifests, when the command is a launch
(server or router) or leads into one (`nohup \\ ` on the line before it).

## Why is this bad?
A backslash joins two lines only when it is the line's very last character (POSIX
shell grammar, "Escape Character (Backslash)"; the same in bash). Followed by a
blank it escapes that blank instead: bash adds a word holding one space (or tab)
to the command (or, glued to a word as in `8\\ `, a space at that word's end), and
the command ends at the end of this line. The next line then
runs as a command of its own (`--port: command not found`, ignored by a script
without `set -e`), so every option after the break is lost. With a comment
right after `\\ `, the `#` is glued to the escaped space and starts no comment:
its words are passed to the command as well. Either way the server never sees
the options after the break; SGLang rejects the stray `' '` argument
("unrecognized arguments") or, behind a wrapper, starts without those options.
Trailing blanks are invisible in most editors and in review.

Tested against bash 5 with a recording `python3` stub:

```text
python3 -m sglang.launch_server \\        -> argv: -m sglang.launch_server --tp 8 ' '
  --tp 8 \\␠                               (then: --port: command not found)
  --port 30000
```

## Example
```bash
python3 -m sglang.launch_server \\
  --model-path Qwen/Qwen3-8B \\
  --tp 8 \\  # eight GPUs
  --enable-unified-memory \\
  --port 30000
```

## How to fix
Delete everything after the backslash, so that `\\` ends the line; move the
comment above the command. The quick fix removes the blanks after the backslash
(and the comment, which cannot live inside a continued command).

## Versions
Shell behaviour, independent of the SGLang version.
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python3 -m sglang.launch_server \\\n"
                    "  --model-path /models/m \\\n"
                    "  --tp 8 \\ \n"
                    "  --enable-unified-memory \\\n"
                    "  --port 30000\n"
                )
            },
            findings=1,
            message_contains="the next line runs as its own command",
        ),
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --model-path /m \\\n"
                    "    --disaggregation-mode decode \\  # decode side\n"
                    "    --port 30001\n"
                )
            },
            findings=1,
            message_contains="--port 30001",
        ),
        Example(
            {
                "run.sh": (
                    "CUDA_VISIBLE_DEVICES=0,1 nohup \\\t\n"
                    "  python3 -m sglang_router.launch_router --pd-disaggregation \\\n"
                    "  --prefill http://p:30000 --decode http://d:30001 &\n"
                )
            },
            findings=1,
            message_contains="a tab",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "# eight GPUs\n"
                    "python3 -m sglang.launch_server \\\n"
                    "  --tp 8 \\\n"
                    "  --port 30000  # the port\n"
                )
            }
        ),
        Example(
            {
                "run.sh": (
                    "# not a launch: other commands are not ours to judge\n"
                    "rsync -a \\ \n"
                    "  /models /mnt/models\n"
                    'python3 -m sglang.launch_server --name a\\ b --tp 8 --port 30000\n'
                )
            }
        ),
        Example(
            {
                "run.sh": (
                    'echo "python3 -m sglang.launch_server --tp 8 \\ \n'
                    '  --port 30000"\n'
                    "python3 -m sglang.launch_server --tp 8 \\\\ \n"
                )
            }
        ),
    ]

    def check_source(self, context: RuleContext, source: SourceResult) -> Iterable[Finding]:
        for broken in source.broken_continuations:
            trailing = broken.trailing
            blank = trailing[0]
            comment_at = trailing.find("#")
            if comment_at < 0:
                what = _blanks(trailing)
            else:
                what = f"{_blanks(trailing[:comment_at])} and a comment"
            message = f"the command ends here: this `\\` is followed by {what}, so the next line runs as its own command"
            details = []
            if broken.extra:
                glued = comment_at == 1
                escaped = "an escaped tab" if blank == "\t" else "an escaped space"
                if glued:
                    details.append(f"bash reads {escaped} glued to the `#`, which starts no comment: the command gets the extra arguments {_shown(broken.extra)}")
                else:
                    details.append(f"bash reads {escaped}: the command gets an extra argument {_shown(broken.extra)}")
            orphaned = orphaned_words(source, broken.orphaned, 60) if broken.orphaned is not None else ""
            if broken.orphaned is not None:
                shown = f"`{orphaned}`" if orphaned else "the next line"
                details.append(f"{shown} (line {broken.orphaned.line}) runs as a separate command")

            if comment_at >= 0:
                title = "Remove the comment and the blanks after the backslash (the comment is deleted)"
            else:
                title = f"Remove the {'tab' if blank == chr(9) and len(set(trailing)) == 1 else 'blanks'} after the backslash"
            fix = Fix(title, broken.location, "\\" + trailing, "\\", preferred=True)
            related = []
            if broken.orphaned is not None:
                related.append(Related(broken.orphaned, "these words run as a separate command, not as part of the command above"))
            help = "delete what follows the backslash" + (" (move the comment above the command)" if comment_at >= 0 else "")
            notes = (*details, "bash continues a line only when the backslash is its very last character")
            yield self.finding(message, broken.location, related=related, fixes=[fix], help=help, notes=notes)
