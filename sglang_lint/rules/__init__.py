"""The rule catalogue: one module per rule (design.md "Rule catalogue").

Every module of this package named ``sglNNN_<name>.py`` defines one subclass of
:class:`~sglang_lint.rules.base.Rule`; they are found here, so adding a rule is
adding its module. ALL_RULES is ordered by code.
"""

from __future__ import annotations

import importlib
import os
import re

from sglang_lint.rules.base import Rule
from sglang_lint.selection import INTERNAL_ERROR_CODE, INTERNAL_ERROR_NAME, INTERNAL_ERROR_SUMMARY

__all__ = ["ALL_RULES", "INTERNAL_ERROR_CODE", "INTERNAL_ERROR_DOC", "INTERNAL_ERROR_NAME", "INTERNAL_ERROR_SUMMARY", "rule_by_code"]

_RULE_MODULE = re.compile(r"(sgl\d{3}_\w+)\.py")


def _rule_module_names() -> list[str]:
    # The package's own directory, listed directly: pkgutil.iter_modules would do
    # the same and import ``inspect`` (~8 ms of every run's start, issue 7).
    names: set[str] = set()
    for directory in __path__:
        for entry in os.listdir(directory):
            match = _RULE_MODULE.fullmatch(entry)
            if match:
                names.add(match.group(1))
    return sorted(names)


def _discover() -> tuple[type[Rule], ...]:
    rules: dict[str, type[Rule]] = {}
    for name in _rule_module_names():
        module = importlib.import_module(f"{__name__}.{name}")
        found = [
            value
            for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, Rule) and value is not Rule and value.__module__ == module.__name__
        ]
        if len(found) != 1:
            raise ImportError(f"{module.__name__} must define exactly one Rule subclass, found {len(found)}")
        rule = found[0]
        if not name.startswith(rule.code.lower() + "_"):
            raise ImportError(f"{module.__name__} defines {rule.code}: the module name must start with {rule.code.lower()}_")
        if rule.code in rules:
            raise ImportError(f"two modules define {rule.code}")
        rules[rule.code] = rule
    return tuple(rules[code] for code in sorted(rules))


ALL_RULES: tuple[type[Rule], ...] = _discover()

# SGL900 (sglang_lint.selection): the analyzer could not read or analyze a file
# (reported by the driver, never by a rule); its documentation lives here with
# the rules'.
INTERNAL_ERROR_DOC = """\
## What it does
Reports what kept sglang-lint from reading or analyzing part of a file, instead of
failing the run: a binary file, an encoding that is not UTF-8 (or UTF-16 with a BOM),
a file over the size limit, a shell/Python/YAML syntax error, a Helm or Jinja
template that is not YAML (skipped), template placeholders in a YAML file read as
unknown values (`{{ .Values.tp }}`, `${{ matrix.tp }}`, `{tp}`), nesting too deep
to follow, a malformed `# noqa` / `# sglang-lint:
disable=` directive, a `--config` file that cannot be read, and (please report
these) an internal error. The other files' results are kept in every case.

## Why is this bad?
A launch sglang-lint could not read is a launch it could not check: a clean run
with SGL900 notes is not a clean bill of health for those files.

## Example
```bash
python -m sglang.launch_server --disaggregation-mode decode --tp "8 \\
  --port 30001          # the quote opened on the first line is never closed
```

## How to fix
Fix the file (the message says what and where), exclude it (`extend-exclude`), or
`--ignore SGL900` when the notes are expected. Templates are checked by linting
their rendered output (`helm template ... > rendered.yaml`).

## Versions
Every version.
"""


def rule_by_code(code: str) -> type[Rule] | None:
    for rule in ALL_RULES:
        if rule.code == code.upper():
            return rule
    return None
