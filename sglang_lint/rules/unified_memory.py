"""Shared readings of a server's settings for the unified-memory rules."""

from __future__ import annotations

from sglang_lint.model import Location
from sglang_lint.rules.base import setting_location
from sglang_lint.topology import Server


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
