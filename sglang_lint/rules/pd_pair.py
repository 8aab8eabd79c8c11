"""Shared helpers for the prefill/decode consistency rules (SGL003-SGL009).

Every comparison follows design.md "Values: be exact, never guess": two values
are compared through their candidate sets (known text, branch alternatives, a
``${VAR:-default}`` default), after mapping each candidate to every string SGLang
may resolve it to; a pair is reported only when no candidate of one side can
equal a candidate of the other.
"""

from __future__ import annotations

from typing import Callable, Iterable

from sglang_lint.catalog.settings import Setting
from sglang_lint.model import Value, provably_equal
from sglang_lint.topology import Server

# How SGLang may resolve one written string: every string it can become.
Resolve = Callable[[str], Iterable[str]]


def _same(text: str) -> Iterable[str]:
    return (text,)


def resolved_candidates(value: Value, resolve: Resolve = _same) -> frozenset[str] | None:
    """Every string ``value`` may end up as inside SGLang, None when open."""
    candidates = value.candidates()
    if candidates is None:
        return None
    return frozenset(r for c in candidates for r in resolve(c))


def provably_different_resolved(a: Value, b: Value, resolve: Resolve = _same, resolve_b: Resolve | None = None) -> bool:
    """Different in every run once SGLang has resolved both values (``resolve_b``:
    the second side's own resolution, when it depends on that server)."""
    if provably_equal(a, b):
        return False
    ca, cb = resolved_candidates(a, resolve), resolved_candidates(b, resolve_b or resolve)
    if ca is None or cb is None:
        return False
    return ca.isdisjoint(cb)


def describe_setting(server: Server, setting: Setting, name: str, default_text: str | None = None) -> str:
    """``--page-size 64 at run.sh:3`` / ``--page-size $PAGE (default 64) at run.sh:3,
    the ${PAGE:-64} default`` / ``default tp 1`` - where a value came from, in the
    user's words."""
    if setting.location is None:
        shown = default_text if default_text is not None else setting.value.describe()
        return f"SGLang's default {name} {shown}"
    text = f"{setting.written_as()} at {setting.location.short()}"
    if setting.origin is not None and setting.origin != setting.location:
        text += f", set at {setting.origin.short()}"
    if setting.value.uses_default:
        text += ", the value of the ${VAR:-default} default (the variable is not set here)"
    return text


def side_note(server: Server, setting: Setting, name: str, default_text: str | None = None) -> str:
    """A note on where one side's value came from: ``decode page size 16:
    --page-size 16 at run.sh:2 (launch run.sh:2)``."""
    return f"{server.role} {name} {value_text(setting)}: {describe_setting(server, setting, name, default_text)} (launch {server.label})"


def value_text(setting: Setting) -> str:
    """The value to quote in a message: the candidates that count."""
    value = setting.value
    candidates = value.candidates()
    if value.is_known:
        return value.text
    if candidates is not None and len(candidates) == 1:
        return next(iter(candidates))
    return value.describe()
