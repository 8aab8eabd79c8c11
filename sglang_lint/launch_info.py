"""What the analysis resolved about the launches of a file, for an editor to
show where nothing is wrong (issue 24): hover on an option or a launch, an
inlay hint after each launch, and the place an option's value came from.

Reads the deployments of an analysis (topology.Deployment: each server's
launch, settings, role and attention TP with its derivation) and the option
tables; knows no protocol (sglang_lint.server adapts it). Positions are
1-based lines and columns in code points, as in model.Location.
"""

from __future__ import annotations

import os
from typing import Iterable, Iterator

from msgspec import Struct

from sglang_lint.catalog.settings import Setting
from sglang_lint.catalog.tables import option_facts
from sglang_lint.model import Location
from sglang_lint.rules.unified_memory import describe_attn_tp
from sglang_lint.topology import Deployment, Server

# How much of an option's help a hover shows (SGLang's longest run to pages).
HELP_CHARS = 1200


class Hover(Struct):
    """Markdown to show, over the range it describes."""

    markdown: str
    location: Location


class InlayHint(Struct):
    """A label to show after ``line``:``column`` (the end of a launch command)."""

    line: int
    column: int
    label: str
    tooltip: str


def servers_of(deployments: Iterable[Deployment], path: str) -> list[Server]:
    """The servers launched in ``path`` (absolute), once each, in file order."""
    seen: dict[int, Server] = {}
    for deployment in deployments:
        for server in deployment.servers:
            if id(server) not in seen and _same_file(server.launch.location.path, path):
                seen[id(server)] = server
    return sorted(seen.values(), key=lambda s: (s.launch.location.line, s.launch.location.column))


def peers_of(deployments: Iterable[Deployment], server: Server) -> list[Server]:
    """The servers ``server`` pairs with (decodes of a prefill, prefills of a decode)."""
    found: dict[int, Server] = {}
    for deployment in deployments:
        for prefill, decode in deployment.pairs():
            if prefill is server:
                found[id(decode)] = decode
            elif decode is server:
                found[id(prefill)] = prefill
    return list(found.values())


def hover(deployments: list[Deployment], path: str, line: int, column: int) -> Hover | None:
    """What to show at a position of ``path``: an option's facts (on an option a
    launch sets), else the launch's role, attention TP and peers (anywhere on
    its command), else nothing."""
    for server in servers_of(deployments, path):
        setting = setting_at(server, path, line, column)
        if setting is not None and setting.location is not None:
            text = option_markdown(setting, server)
            if text:
                return Hover(text, setting.location)
        if _in_launch(server, path, line):
            return Hover(launch_markdown(server, peers_of(deployments, server), os.path.dirname(path)), server.launch.location)
    return None


def inlay_hints(deployments: list[Deployment], path: str, lines: list[str]) -> list[InlayHint]:
    """After each launch command of ``path``: ``prefill · attn TP 8``. A launch
    made once per call of a function (one line, several servers) gets one hint
    naming each."""
    by_end: dict[tuple[int, int], list[Server]] = {}
    for server in servers_of(deployments, path):
        end_line = _command_end_line(server)
        text = lines[end_line - 1] if 0 < end_line <= len(lines) else ""
        by_end.setdefault((end_line, len(text.rstrip()) + 1), []).append(server)
    hints = []
    for (line, column), servers in sorted(by_end.items()):
        labels = list(dict.fromkeys(_short_label(server) for server in servers))
        tooltip = "\n".join(f"{server.role} attention TP {describe_attn_tp(server)}" for server in servers)
        hints.append(InlayHint(line, column, " | ".join(labels), tooltip))
    return hints


def definition(deployments: list[Deployment], path: str, line: int, column: int) -> Location | None:
    """Where the value of the option at a position was written, when not where
    the option is (``--tp-size $TP`` -> the ``TP=8`` line, a keyword's variable
    -> its assignment, a ``--config`` key)."""
    for server in servers_of(deployments, path):
        setting = setting_at(server, path, line, column)
        if setting is not None:
            if setting.origin is not None:
                return setting.origin
            return setting.location
        for token in server.launch.args:
            if token.origin is not None and _covers(token.location, path, line, column):
                return token.origin
    return None


def setting_at(server: Server, path: str, line: int, column: int) -> Setting | None:
    """The setting whose option (or keyword, or config key) is written at the
    position; of two (an option and a later override), the innermost."""
    best: Setting | None = None
    for setting in _written(server):
        location = setting.location
        if location is not None and _covers(location, path, line, column):
            if best is None or _size(location) < _size(best.location):  # type: ignore[arg-type]
                best = setting
    return best


def option_markdown(setting: Setting, server: Server) -> str:
    """An option's help, type, default and releases, from the option tables."""
    spelling = setting.spelling.rstrip("=")
    facts = option_facts(spelling) if spelling.startswith("-") else None
    if facts is None:
        facts = _facts_of_dest(setting.dest)
    if facts is None:
        return ""
    shown = f"`{spelling}`" if spelling.startswith("-") else f"`{spelling}` (keyword)"
    lines = [f"**{shown}**" + (f" = `{facts.name}`" if facts.name != spelling else "")]
    if facts.help and facts.help != "==SUPPRESS==":
        help_text = " ".join(facts.help.split())
        lines.append(help_text if len(help_text) <= HELP_CHARS else help_text[: HELP_CHARS - 1] + "…")
    details = []
    if facts.type:
        details.append(f"type `{facts.type}`")
    if facts.action and facts.action not in ("store",):
        details.append(f"action `{facts.action}`")
    details.append(f"default `{facts.default}`")
    if facts.choices:
        details.append("choices " + ", ".join(f"`{choice}`" for choice in facts.choices))
    lines.append(" · ".join(details))
    lines.append(f"value here: `{setting.value.describe()}` (judged with SGLang {server.settings.version})")
    lines.append(_releases(facts.versions, facts.deprecated_in))
    return "\n\n".join(lines)


def launch_markdown(server: Server, peers: list[Server], directory: str = "") -> str:
    """A launch's role, attention TP with its derivation, and the servers it
    pairs with (links to their lines, named from ``directory``: the hovered
    file's)."""
    lines = [f"**{server.role}** server · attention TP {describe_attn_tp(server)}"]
    if server.settings.program_reason:
        lines.append(f"{server.settings.program}: {server.settings.program_reason}")
    if server.judged is not None:
        lines.append(f"judged with SGLang {server.settings.version}")
    if peers:
        links = ", ".join(
            f"[{_near(peer.launch.location, directory)}]({_link(peer.launch.location)}) ({peer.role}, attention TP {peer.attn_tp.value.describe()})" for peer in peers
        )
        lines.append(f"pairs with {links}")
    elif server.role in ("prefill", "decode"):
        lines.append("pairs with no server in this workspace")
    return "\n\n".join(lines)


# ---------------------------------------------------------------------------------


def _written(server: Server) -> Iterator[Setting]:
    """The settings the launch writes (not SGLang's defaults)."""
    for setting in server.settings.values.values():
        if setting.location is not None:
            yield setting


def _facts_of_dest(dest: str):
    """The facts of the newest release's first long name for ``dest`` (a
    keyword argument, a config key, an abbreviation)."""
    from sglang_lint.catalog.tables import default_version, load_table

    option = load_table(default_version()).by_dest.get(dest)
    names = [name for name in option.names if name.startswith("--")] if option is not None else []
    return option_facts(names[0]) if names else None


def _releases(versions: tuple[str, ...], deprecated: tuple[str, ...]) -> str:
    from sglang_lint.catalog.tables import known_versions

    known = known_versions()
    if tuple(versions) == tuple(known):
        text = f"accepted by every release sglang-lint knows ({known[0]} to {known[-1]})"
    elif versions and list(versions) == list(known[known.index(versions[0]) :]):
        text = f"accepted from SGLang {versions[0]} on (to {known[-1]})"
    else:
        text = "accepted by SGLang " + ", ".join(versions)
    if deprecated:
        text += "; deprecated in " + ", ".join(deprecated)
    return text


def _short_label(server: Server) -> str:
    return f"{server.role} · attn TP {server.attn_tp.value.describe()}"


def _command_end_line(server: Server) -> int:
    """The last line of the launch's command (a command continued with ``\\``
    ends lines later); the launch's line when nothing says."""
    launch = server.launch
    for start, end in launch.line_ranges:
        if start <= launch.location.line <= end:
            return end
    return launch.location.line


def _in_launch(server: Server, path: str, line: int) -> bool:
    if not _same_file(server.launch.location.path, path):
        return False
    return line == server.launch.location.line or any(start <= line <= end for start, end in server.launch.line_ranges if start <= server.launch.location.line <= end)


def _covers(location: Location, path: str, line: int, column: int) -> bool:
    if not _same_file(location.path, path):
        return False
    end_line = location.end_line or location.line
    end_column = location.end_column if location.end_line else location.column + 1
    return (location.line, location.column) <= (line, column) <= (end_line, end_column)


def _size(location: Location) -> tuple[int, int]:
    return ((location.end_line or location.line) - location.line, (location.end_column or location.column) - location.column)


def _same_file(shown: str, absolute: str) -> bool:
    return os.path.abspath(shown) == absolute


def _near(location: Location, directory: str) -> str:
    """``prefill.sh:12`` beside the hovered file, ``../pd/prefill.sh:12`` near
    it, the path as shown when far."""
    absolute = os.path.abspath(location.path)
    relative = os.path.relpath(absolute, directory) if directory else location.path
    shown = relative if not relative.startswith(os.pardir + os.sep + os.pardir) else location.path
    return f"{shown}:{location.line}"


def _link(location: Location) -> str:
    from pathlib import Path

    return Path(os.path.abspath(location.path)).as_uri() + f"#L{location.line}"
