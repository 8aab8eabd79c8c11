"""Shared readings of a server's settings for the unified-memory rules."""

from __future__ import annotations

from sglang_lint.model import Location, provably_different
from sglang_lint.rules.base import setting_location
from sglang_lint.topology import Server, server_sizes


def unified_memory_setting(server: Server):
    return server.setting("enable_unified_memory")


def unified_memory_enabled(server: Server) -> bool:
    value = unified_memory_setting(server).value
    return value.is_known and value.text == "true"


def unified_memory_disabled(server: Server) -> bool:
    """Provably off: the option is absent from the command line and nothing we
    cannot see (``"$@"``, an unknown ``--config``) could have set it."""
    value = unified_memory_setting(server).value
    return value.is_known and value.text == "false"


def describe_attn_tp(server: Server) -> str:
    derived = server.attn_tp
    return f"{derived.value.describe()} = {derived.explanation}" if derived.explanation else derived.value.describe()


def attn_tp_location(server: Server) -> Location:
    """The first explicitly written input of the attention TP (``--tp-size 8``,
    then ``--dp-size``, ...), else the launch itself."""
    for setting in server.attn_tp.inputs:
        if not setting.is_default:
            return setting_location(server, setting)
    return server.launch.location


def attn_tp_note(server: Server) -> str:
    """``decode attention TP 1 = --tp-size 8 / --dp-size 8 with
    --enable-dp-attention (decode.sh:6)``: how the number was derived."""
    return f"{server.role} attention TP {describe_attn_tp(server)} ({server.label})"


def _written_input(server: Server, inputs) -> Location | None:
    for setting in inputs:
        if not setting.is_default:
            return setting_location(server, setting)
    return None


def attn_tp_difference_location(prefill: Server, decode: Server) -> Location:
    """Where the decode's attention TP parts from the prefill's: attention TP is
    tp / attn-dp / attn-cp, so point at the decode's first factor whose value
    provably differs from the prefill's (its tp, else the source of its
    attention DP, else its attention CP) when the decode wrote it; else the
    first written input (:func:`attn_tp_location`)."""
    p, d = server_sizes(prefill), server_sizes(decode)
    for mine, theirs in ((d.tp, p.tp), (d.attn_dp, p.attn_dp), (d.attn_cp, p.attn_cp)):
        if provably_different(mine.value, theirs.value):
            location = _written_input(decode, mine.inputs)
            if location is not None:
                return location
            break  # the decode left that factor at its default: nothing written to point at
    return attn_tp_location(decode)


def attn_tp_text(server: Server) -> str:
    """The attention TP to quote in a first line: the number that counts
    (``8`` for ``$TP`` with a ``${TP:-8}`` default), else its description."""
    value = server.attn_tp.value
    candidates = value.candidates()
    if candidates is not None and len(candidates) == 1:
        return next(iter(candidates))
    return value.describe()
