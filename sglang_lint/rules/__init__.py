"""The rule catalogue: one module per rule (design.md "Rule catalogue").

Every module of this package named ``sglNNN_<name>.py`` defines one subclass of
:class:`~sglang_lint.rules.base.Rule`; they are found here, so adding a rule is
adding its module. ALL_RULES is ordered by code.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

from sglang_lint.rules.base import Rule

_RULE_MODULE = re.compile(r"sgl\d{3}_\w+")


def _discover() -> tuple[type[Rule], ...]:
    rules: dict[str, type[Rule]] = {}
    for module_info in pkgutil.iter_modules(__path__):
        if not _RULE_MODULE.fullmatch(module_info.name):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        found = [
            value
            for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, Rule) and value is not Rule and value.__module__ == module.__name__
        ]
        if len(found) != 1:
            raise ImportError(f"{module.__name__} must define exactly one Rule subclass, found {len(found)}")
        rule = found[0]
        if not module_info.name.startswith(rule.code.lower() + "_"):
            raise ImportError(f"{module.__name__} defines {rule.code}: the module name must start with {rule.code.lower()}_")
        if rule.code in rules:
            raise ImportError(f"two modules define {rule.code}")
        rules[rule.code] = rule
    return tuple(rules[code] for code in sorted(rules))


ALL_RULES: tuple[type[Rule], ...] = _discover()

# SGL900: the analyzer could not read or analyze a file (reported by the driver,
# never by a rule).
INTERNAL_ERROR_CODE = "SGL900"
INTERNAL_ERROR_NAME = "unreadable-input"


def rule_by_code(code: str) -> type[Rule] | None:
    for rule in ALL_RULES:
        if rule.code == code.upper():
            return rule
    return None
