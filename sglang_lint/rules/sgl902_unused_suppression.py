"""SGL902 unused-suppression (opt-in: --strict): ruff's RUF100 for our codes."""

from __future__ import annotations

from typing import Iterable, Sequence

from sglang_lint.model import Finding, Severity
from sglang_lint.rules.base import Example, Rule, RuleContext
from sglang_lint.suppress import UnusedSuppression

_PREFILL = "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"
_DECODE_TP4 = "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 4 --port 30001 &"
_DECODE_TP8 = "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 8 --port 30001 &"


class UnusedSuppressionRule(Rule):
    code = "SGL902"
    name = "unused-suppression"
    fix = "sometimes"
    severity = Severity.INFO
    opt_in = True
    summary = "A `# noqa: SGLxxx` or `# sglang-lint: disable=SGLxxx` code that silences nothing"
    doc = """\
## What it does
Reports each code of a `# noqa: SGL...` comment or of a file-level
`# sglang-lint: disable=SGL...` directive that silenced no finding in this run (what
ruff's RUF100 does for `# noqa`). Only codes of rules that ran are judged: a
directive for a rule this run did not select may be needed by another run. A bare
`# noqa` is not judged (every linter reads it). Off by default; run with `--strict`
or select SGL902.

## Why is this bad?
A suppression outlives the mistake it excused: once the decode's `--tp` is fixed,
the `# noqa: SGL001` left on its line silently hides the next mismatch on that
launch. Removing dead suppressions keeps the remaining ones meaningful.

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &
python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 8 --port 30001 &  # noqa: SGL001
```

## How to fix
Delete the code from the comment (the whole comment when it was the only one).
`sglang-lint check --strict --fix` does it (a safe fix: a suppression changes no
launch).

## Versions
Every version: suppression does not depend on the SGLang release.
"""

    invalid = [
        Example({"run.sh": _PREFILL + _DECODE_TP8 + "  # noqa: SGL001\n"}, findings=1, message_contains="SGL001", also_select=("SGL001",)),
        Example(
            {"run.sh": "# sglang-lint: disable=SGL001,SGL005\n" + _PREFILL + _DECODE_TP4 + "\n"},
            findings=1,
            message_contains="SGL005",
            also_select=("SGL001", "SGL005"),
        ),
    ]
    valid = [
        Example({"run.sh": _PREFILL + _DECODE_TP4 + "  # noqa: SGL001\n"}, also_select=("SGL001",)),
        # SGL005 did not run: its directive cannot be judged.
        Example({"run.sh": _PREFILL + _DECODE_TP8 + "  # noqa: SGL005\n"}, also_select=("SGL001",)),
        # A bare noqa is every linter's.
        Example({"run.sh": _PREFILL + _DECODE_TP8 + "  # noqa\n"}, also_select=("SGL001",)),
    ]

    def check_suppressions(self, context: RuleContext, unused: Sequence[UnusedSuppression]) -> Iterable[Finding]:
        for item in unused:
            where = "`# noqa`" if item.directive == "noqa" else "`# sglang-lint: disable=`"
            yield self.finding(
                f"{item.code} in this {where} silences no finding",
                item.location,
                help=f"remove {item.code} from the comment",
                notes=("a suppression left behind would also hide a future finding of that rule on these lines",),
                fixes=[item.removal] if item.removal is not None else [],
            )
