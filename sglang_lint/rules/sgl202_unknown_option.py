"""SGL202 unknown-option."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.catalog.argv_words import close_match
from sglang_lint.model import Finding, Fix
from sglang_lint.rules.argv_problems import describe_versions, is_stray_flag_value, problems_of, table_of, versions_where
from sglang_lint.rules.base import ARGV_PROGRAMS, Example, Rule, RuleContext, launch_noqa_ranges
from sglang_lint.rules.messages import clip
from sglang_lint.topology import Deployment, Server

class UnknownOption(Rule):
    code = "SGL202"
    name = "unknown-option"
    fix = "sometimes"
    programs = ARGV_PROGRAMS
    summary = "An option (or a stray word) that SGLang's argument parser does not know: the server does not start"
    doc = """\
## What it does
Reports an option word that is neither a long option of the target SGLang version
nor a unique prefix of one, and a stray word that no option takes (SGLang's
parser has no positional arguments). When an option of that version is close in
spelling, the message suggests it; when the option exists in other releases, it
names them.

## Why is this bad?
`python -m sglang.launch_server` calls `parser.parse_args`, and argparse exits
with `error: unrecognized arguments: --tp-szie 8` (Python's `argparse`,
`ArgumentParser.parse_args`). The server never starts. In a PD deployment the
other side keeps waiting for a peer that is not there.

## Example
```bash
python -m sglang.launch_server --model-path /models/m --tp-szie 8
python -m sglang.launch_server --model-path /models/m --enable-unified-memory   # 0.5.14
```

One mistake, one finding: the words after an unknown option that the option it
most likely means would take as values (the option of that name in other
releases, else the close match) are not reported again, and a word past them is
(`--tp-szie 8 16`: the `16` is refused after the fix too). When no option is
close, every word up to the next option goes with it. An option with a stray
character glued before it (`{--host`, from `ARGS="{$ARGS} --tp 2"`) is an
argument to argparse: it is reported once, naming the option, and takes that
option's values. What the meant option would have set is unknown to the other
rules, so a typo on one side of a PD pair is not also reported as a mismatch.

`sglang serve` is read as the server SGLang dispatches it to (README, "`sglang
serve`: the LLM or the diffusion server"): a diffusion server's options are
checked against the diffusion server's parser, and an option it does not declare
is not reported (`parse_known_args` hands it on; what becomes of it depends on the
model). When the model alone decides which server starts, an option is reported
only when neither parser declares it (and it is not one of the diffusion server's
`--<component>-path`-like options): the note on the finding says so.

## How to fix
Correct the spelling (the message's "did you mean"), drop the option, or target
a release that has it (`--target-version`). A stray word is usually a value given
to a flag or a value left over after a line was edited. A no-break space (or a
zero-width space) copied from a rendered page between an option and its value
looks like a blank and is none to the shell: the message shows it (`\xa0`), and
the quick fix types a space in its place.

Quick fix (language server, `fix` in `json`, SARIF and reviewdog output): replace
the option with the suggested one, when the message has a "did you mean".

## Versions
Python's argparse behaviour; the options known are those of each release's
option table (options are added and removed between releases).
"""

    invalid = [
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp-szie 8\n"},
            findings=1,
            message_contains="did you mean --tp-size",
        ),
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --turbo-mode --tp 8\n"},
            findings=1,
            message_contains="unknown option --turbo-mode",
        ),
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --enable-unified-memory --tp 8\n"},
            findings=1,
            message_contains="exists in sglang 0.5.15",
            target_version="0.5.14",
        ),
        Example(
            # The model decides which server starts; neither knows --tp-szie.
            {"run.sh": "sglang serve --model-path /m --port 30000 --tp-szie 2\n"},
            findings=1,
            message_contains="LLM or the diffusion server",
        ),
        Example(
            # 8 is the value of --tp-size (what --tp-szie names); 16 is a stray of its own.
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp-szie 8 16\n"},
            findings=2,
            message_contains="sglang 0.5.23",
        ),
        Example(
            # launch_server_cmd splits at blanks and reads no quotes: the JSON is three words.
            {"nb.py": "from sglang.utils import launch_server_cmd\nlaunch_server_cmd(\"python -m sglang.launch_server --model-path /m --json-model-override-args '{\\\"a\\\": 1}'\")\n"},
            findings=1,
            message_contains="read no shell quotes",
        ),
        Example(
            # A no-break space between the option and its value (a copy from a
            # rendered page): one word to the shell.
            {"run.md": "```\npython3 -m sglang.launch_server --model-path /m --tool-call-parser\u00a0qwen3 --tp 8\n```\n"},
            findings=1,
            message_contains="qwen3: a no-break space (U+00A0) is no blank to the shell",
        ),
        Example(
            # A zero-width space after the option: it looks like nothing, and is
            # part of the word.
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp-size\u200b 8\n"},
            findings=1,
            message_contains="--tp-size\\u200b: a zero-width space (U+200B) is no blank to the shell",
        ),
        Example(
            # `{$ARGS}` for `${ARGS}`: `{--host 0.0.0.0}` (the value keeps the `}`).
            {"run.sh": 'ARGS="--host 0.0.0.0"\nARGS="{$ARGS} --tp 2"\npython -m sglang.launch_server --model-path /m $ARGS\n'},
            findings=1,
            message_contains="a stray '{' before --host",
        ),
    ]
    valid = [
        Example({"run.sh": "python -m sglang.launch_server --model-path /m --tp-size 8 --mem-frac 0.8\n"}),
        Example(
            # sglang serve of a diffusion model: --num-gpus and --ulysses-degree are its
            # server's options (the LLM server's argparse would refuse them).
            {"run.sh": "sglang serve --model-path /models/wan --num-gpus 2 --ulysses-degree 2\n"}
        ),
        Example(
            # A value given to a flag is SGL203's.
            {"run.sh": "python -m sglang.launch_server --model-path /m --enable-dp-attention true\n"}
        ),
        Example(
            # Ambiguous, SGL201's; the numbers are its values, not unrecognized arguments.
            {"run.sh": "python -m sglang.launch_server --model-path /m --cuda-graph-bs 8 16 32\n"}
        ),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        version = server.settings.version
        table = table_of(server)
        names = table.long_names if table is not None else []
        for problem in problems_of(server, "unknown"):
            if is_stray_flag_value(problem):
                continue
            written = problem.option
            exits = f"argparse exits with \"unrecognized arguments\" and the server never starts (sglang {version})"
            fixes = []
            notes = []
            if not written:
                message = clip(problem.message, 100)
                help_text = "remove the word, or give it to the option it belongs to"
                notes.append("SGLang's parser takes no positional arguments: every word must be an option or its value")
                if "'" in problem.word or '"' in problem.word:
                    # (sglang/utils.py:473-474 in 0.5.23: `command.split()`)
                    help_text = "write the value without blanks, or start the server from an argv list"
                    notes.append(
                        "the word holds a quote: whatever split this command read no shell quotes (sglang.utils' "
                        "launch_server_cmd and execute_shell_command split at blanks), so a quoted value with a blank became several words"
                    )
            elif _odd_blank(written) is not None:
                # (before a close match: `--tool-call-parser\u00a0qwen3` is closest
                # to --tool-call-parser, and replacing it dropped the value)
                odd = _odd_blank(written)
                meant = _with_blanks(written)
                shown = written.encode("ascii", "backslashreplace").decode("ascii")
                message = f"unknown option {clip(shown, 40)}: {_BLANK_NAMES.get(odd, 'an invisible character')} (U+{ord(odd):04X}) is no blank to the shell"
                help_text = f"did you mean {meant}? Type the blank again (a copy from a web page or a chat brings such characters along)"
                fixes.append(Fix(f"Replace {_BLANK_NAMES.get(odd, 'the invisible character')} with a space", problem.location, written, meant, preferred=True))
                exits = f"sglang {version}'s argparse sees one word, '{shown}', and exits with \"unrecognized arguments\": the server never starts"
            else:
                message = f"unknown option {clip(written, 48)} for sglang {version}"
                help_text = f"correct the spelling, or drop {written}"
                other = self._versions_with(written)
                suggestion = close_match(written, names) if written.startswith("--") and not other else None
                if other:
                    message += f" (it exists in {clip(describe_versions(other), 40)})"
                    help_text = f"check --target-version (the SGLang you deploy), or drop {written}"
                    notes.append(f"{written} exists in sglang {describe_versions(other)}")
                elif suggestion is not None:
                    message += f": did you mean {clip(suggestion, 48)}?"
                    help_text = f"replace {written} with {suggestion}"
                    fixes.append(Fix(f"Replace {written} with {suggestion}", problem.location, written, suggestion, preferred=True))
                if problem.message != f"unrecognized option: {written}":
                    notes.append(problem.message)  # a hint about where the word came from
                exits = (
                    f"sglang {version}'s argparse exits with \"unrecognized arguments: {written} ...\" and the server "
                    "never starts"
                )
            notes.append(exits)
            yield self.finding(
                message, problem.location, noqa_ranges=launch_noqa_ranges(server), fixes=fixes, help=help_text, notes=notes
            )

    @staticmethod
    def _versions_with(written: str) -> list[str]:
        if not written.startswith("--"):
            return []
        return versions_where(lambda table: written in table.by_name)


# Characters that look like a blank, or like nothing, in a runbook or a chat
# and that the shell does not split words at (it splits at space, tab and
# newline only): what a copy from a rendered page brings along.
_BLANK_NAMES = {
    "\u00a0": "a no-break space",
    "\u2007": "a figure space",
    "\u202f": "a narrow no-break space",
    "\u2009": "a thin space",
    "\u3000": "an ideographic space",
    "\u200b": "a zero-width space",
    "\u200c": "a zero-width non-joiner",
    "\u200d": "a zero-width joiner",
    "\u2060": "a word joiner",
    "\ufeff": "a zero-width no-break space",
}
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff")


def _odd_blank(word: str) -> str | None:
    """The first character of ``word`` that looks like a blank or like nothing
    and is not one to the shell."""
    return next((char for char in word if char in _BLANK_NAMES or (char.isspace() and char not in " \t\n\r")), None)


def _with_blanks(word: str) -> str:
    """``word`` as it was meant: a blank where it looks like one, nothing where
    it looks like nothing."""
    return "".join("" if char in _ZERO_WIDTH else " " if char in _BLANK_NAMES or char.isspace() else char for char in word)

