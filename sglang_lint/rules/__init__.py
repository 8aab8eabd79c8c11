"""The rule catalogue: one module per rule (design.md "Rule catalogue")."""

from __future__ import annotations

from sglang_lint.rules.base import Rule
from sglang_lint.rules.sgl001_unified_memory_attn_tp_mismatch import UnifiedMemoryAttnTpMismatch
from sglang_lint.rules.sgl002_unified_memory_one_sided import UnifiedMemoryOneSided

ALL_RULES: tuple[type[Rule], ...] = (
    UnifiedMemoryAttnTpMismatch,
    UnifiedMemoryOneSided,
)

# SGL900: the analyzer could not read or analyze a file (reported by the driver,
# never by a rule).
INTERNAL_ERROR_CODE = "SGL900"
INTERNAL_ERROR_NAME = "unreadable-input"


def rule_by_code(code: str) -> type[Rule] | None:
    for rule in ALL_RULES:
        if rule.code == code.upper():
            return rule
    return None
