"""SGL201 ambiguous-abbreviation."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.model import Finding, Fix
from sglang_lint.catalog.settings import DIFFUSION
from sglang_lint.rules.argv_problems import describe_versions, problems_of, versions_where
from sglang_lint.rules.base import ARGV_PROGRAMS, Example, Rule, RuleContext, launch_noqa_ranges
from sglang_lint.rules.messages import clip
from sglang_lint.topology import Deployment, Server

# Options people abbreviate on purpose; when one of them is among the matches it
# is what was meant (``--enable-dp`` for --enable-dp-attention, not --enable-dp-lm-head).
_USUAL = (
    "--tp-size",
    "--dp-size",
    "--pp-size",
    "--ep-size",
    "--page-size",
    "--enable-dp-attention",
    "--enable-unified-memory",
    "--attn-cp-size",
    "--attn-dp-size",
    "--model-path",
    "--mem-fraction-static",
    "--trust-remote-code",
    "--context-length",
    "--kv-cache-dtype",
    "--disaggregation-mode",
    "--disaggregation-transfer-backend",
    "--disaggregation-bootstrap-port",
    "--chunked-prefill-size",
    "--max-running-requests",
    "--cuda-graph-max-bs",
)


def most_likely(prefix: str, candidates: tuple[str, ...]) -> str:
    """The full option the user most likely meant: a commonly used option among
    the matches, else the one adding the fewest words to what was written."""
    usual = [c for c in candidates if c in _USUAL]
    if len(usual) == 1:
        return usual[0]
    pool = usual or list(candidates)
    written_words = prefix.count("-")
    return min(pool, key=lambda c: (c.count("-") - written_words, len(c), c))


class AmbiguousAbbreviation(Rule):
    code = "SGL201"
    name = "ambiguous-abbreviation"
    fix = "sometimes"
    programs = ARGV_PROGRAMS
    summary = "An abbreviated option matches several options of the target version: the server does not start"
    doc = """\
## What it does
Reports an option word that is a prefix of more than one long option of the
target SGLang version (`--pp`, `--enable-dp`, `--page` in 0.5.23, `--enable-unified`
from 0.5.20). The finding names the one most likely meant; a note lists every match.

## Why is this bad?
SGLang parses its arguments with Python's `argparse`, which accepts any *unique*
prefix of a long option (`allow_abbrev=True`, `ArgumentParser._parse_optional` /
`_get_option_tuples`). A prefix with several matches is not guessed: argparse
exits with `error: ambiguous option: --pp could match --pp-size,
--pp-max-micro-batch-size, ...` and the server never starts. Whether a prefix is
unique depends on the release: each new option can make a short spelling that
worked yesterday ambiguous after an upgrade (`--enable-unified` was unique up to
0.5.19; 0.5.20 added `--enable-unified-cache-external-linker`).

One mistake, one finding: argparse stops at the ambiguous option, so nothing
after it is reported (not `16 32` of `--cuda-graph-bs 8 16 32` as unrecognized
arguments: when the matches agree on how many values they take, the option takes
that many, else every word up to the next option). What the matches would have
set is unknown to the other rules: `--pp 2` on a prefill is not also reported as
a pipeline-size mismatch with its decode.

## Example
```bash
python -m sglang.launch_server --model-path /models/m --tp 8 --pp 2
python -m sglang.launch_server --model-path /models/m --enable-unified   # 0.5.20+
```

## How to fix
Write the full option name (`--pp-size 2`, `--enable-unified-memory`). Full
names never become ambiguous; an exact match always wins in argparse.

Quick fix (language server, `fix` in `json`, SARIF and reviewdog output): replace
the abbreviation with each matching option, the likely one preferred. It is
marked unsafe: which option was meant is for you to confirm.

## Versions
Python's argparse behaviour, the same in 3.10-3.12; the set of options (and so
which prefixes are ambiguous) comes from each release's option table.
"""

    invalid = [
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp 8 --pp 2\n"},
            findings=1,
            message_contains="did you mean --pp-size",
        ),
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp 8 --enable-unified\n"},
            findings=1,
            message_contains="--enable-unified-cache-external-linker",
            target_version="0.5.20",
        ),
        Example(
            {"run.sh": "python3 -m sglang.launch_server --model-path /m --tp 8 --dp 8 --enable-dp\n"},
            findings=1,
            message_contains="did you mean --enable-dp-attention",
        ),
    ]
    valid = [
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp 8 --enable-unified\n"},
            target_version="0.5.19",
        ),
        Example({"run.sh": "python -m sglang.launch_server --model /m --tp-size 8 --pp-size 2 --ep 8\n"}),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        version = server.settings.version
        for problem in problems_of(server, "ambiguous"):
            prefix = problem.option
            candidates = problem.candidates
            message = f"{clip(prefix)} is ambiguous in sglang {version}"
            help_text = "write the full option name"
            notes = []
            fixes = []
            if candidates:
                likely = most_likely(prefix, candidates)
                message += f": did you mean {clip(likely, 48)}?"
                help_text = f"write the full option: {likely}"
                notes.append(f"{prefix} could match {', '.join(candidates)}")
                # Each match is offered; the likely one first and preferred.
                for candidate in sorted(candidates, key=lambda c: c != likely):
                    fixes.append(Fix(f"Replace {prefix} with {candidate}", problem.location, prefix, candidate, preferred=candidate == likely))
            notes.append(
                "argparse accepts only a unique prefix of a long option: it exits with \"ambiguous option\" "
                "and the server does not start"
            )
            # Other releases' LLM tables say nothing about the diffusion server's parser.
            unique_in = self._unique_in(prefix) if server.settings.program != DIFFUSION else []
            if unique_in:
                notes.append(f"sglang {describe_versions(unique_in)} accepted {prefix} (an option or a unique prefix there)")
            yield self.finding(
                message, problem.location, noqa_ranges=launch_noqa_ranges(server), fixes=fixes, help=help_text, notes=notes
            )

    @staticmethod
    def _unique_in(prefix: str) -> list[str]:
        if not prefix.startswith("--"):
            return []

        def unique(table) -> bool:
            if prefix in table.by_name:
                return True
            return len([n for n in table.long_names if n.startswith(prefix)]) == 1

        return versions_where(unique)
