"""Shared readings for the per-server unified-memory rules (SGL101-SGL104).

Every check here reports only what is provable (design.md "Values: be exact,
never guess"): a value whose every candidate breaks the constraint, where a
``${VAR:-default}`` default counts as the value.
"""

from __future__ import annotations

from typing import Callable

from sglang_lint.catalog.settings import Setting
from sglang_lint.catalog.tables import version_key
from sglang_lint.topology import DECODE, PREFILL, Server

# SGLang versions by the way they treat --enable-unified-memory (read from the
# released wheels; see each rule's "## Versions").
FIRST_WITH_FLAG = (0, 5, 15)  # server_args.py field enable_unified_memory
FIRST_WITH_PD = (0, 5, 18)  # 0.5.15-0.5.17 assert disaggregation_mode == "null"


def at_least(version: str, minimum: tuple[int, ...]) -> bool:
    try:
        return version_key(version) >= minimum
    except ValueError:
        return False


def is_pd(server: Server) -> bool:
    """``--disaggregation-mode`` is provably prefill or decode."""
    return server.role in (PREFILL, DECODE)


def every_candidate(setting: Setting, test: Callable[[str], bool]) -> bool:
    """True when the value is closed (known, alternatives, a ``${VAR:-d}``
    default) and every string it can be passes ``test``."""
    candidates = setting.value.candidates()
    return bool(candidates) and all(test(text) for text in candidates)


def as_int(text: str) -> int | None:
    try:
        return int(text.strip())
    except ValueError:
        return None


def describe_setting(setting: Setting, server: Server | None = None) -> str:
    """``--pp-size 2 (run.sh:3)``, with a note when the value came from a
    ``${VAR:-default}`` default; the place is left out when it is the launch's
    own first line (``server.label`` already says it)."""
    text = setting.written_as()
    launch = server.launch.location if server is not None else None
    if setting.location is not None and not (
        launch is not None and (setting.location.path, setting.location.line) == (launch.path, launch.line)
    ):
        text += f" ({setting.location.short()})"
    if setting.origin is not None and setting.origin != setting.location:
        text += f" (set at {setting.origin.short()})"
    if setting.value.uses_default:
        text += ", the default of the variable"
    return text


def mode_text(server: Server) -> str:
    return f"--disaggregation-mode {server.role}"
