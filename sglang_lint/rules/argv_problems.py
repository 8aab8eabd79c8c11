"""Helpers shared by the argv rules SGL201-SGL203 and SGL206: the argparse
problems of one server, and the option table of its target version."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.catalog.settings import DIFFUSION, ArgProblem
from sglang_lint.catalog.tables import Option, OptionTable, UnknownVersionError, known_versions, load_diffusion_table, load_table, version_key
from sglang_lint.topology import Server


def problems_of(server: Server, kind: str) -> list[ArgProblem]:
    return [problem for problem in server.settings.problems if problem.kind == kind]


def table_of(server: Server) -> OptionTable | None:
    """The option table the launch was parsed with: its program's (the diffusion
    server's for a diffusion launch), of its release."""
    try:
        if server.settings.program == DIFFUSION:
            return load_diffusion_table(server.settings.version)
        return load_table(server.settings.version)
    except (UnknownVersionError, ValueError):
        return None


def is_stray_flag_value(problem: ArgProblem) -> bool:
    """``--enable-dp-attention true``: argparse reports the stray word as an
    unrecognized argument; catalog/argparse_emulation.py marks it with "(--x
    takes no value)". It is a value given to a flag (SGL203), not an unknown
    option (SGL202)."""
    return problem.kind == "unknown" and problem.message.endswith(" takes no value)")


def option_for_spelling(table: OptionTable, spelling: str) -> Option | None:
    """The option a problem's spelling names: ``--attention-back`` (a unique
    prefix), ``attention-backend:`` (a config key), ``attention_backend=`` (a
    keyword argument)."""
    text = spelling.strip()
    if text.endswith("="):
        return table.by_dest.get(text[:-1])
    if text.endswith(":"):
        text = "--" + text[:-1]
    if text in table.by_name:
        return table.by_name[text]
    if text.startswith("--"):
        matches = {table.by_name[name].dest: table.by_name[name] for name in table.long_names if name.startswith(text)}
        if len(matches) == 1:
            return next(iter(matches.values()))
    return None


def versions_where(predicate) -> list[str]:
    """Known versions (oldest first) whose table satisfies ``predicate``."""
    found = []
    for version in known_versions():
        try:
            if predicate(load_table(version)):
                found.append(version)
        except (UnknownVersionError, ValueError):
            continue
    return found


def describe_versions(versions: Iterable[str]) -> str:
    """``0.5.15-0.5.19`` for a contiguous run of known versions, else a list."""
    chosen = list(versions)
    if not chosen:
        return ""
    every = list(known_versions())
    runs: list[list[str]] = []
    for version in sorted(chosen, key=version_key):
        index = every.index(version)
        if runs and every.index(runs[-1][-1]) == index - 1:
            runs[-1].append(version)
        else:
            runs.append([version])
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)
