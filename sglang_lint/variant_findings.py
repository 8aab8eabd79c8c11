"""Findings over launch variants (issue 16, part 6).

Rules judge one pair (or one server) at a time and know nothing of variants. A
launch whose argv differs between paths through the script is several servers,
one per variant, each with its path condition (``ServerLaunch.path_condition``);
topology pairs only variants that can run together. This stage, between the
rules and suppression, folds the findings of the variants of one launch (or one
pair of launches) back into what a user reads:

- a finding that holds on every compatible combination is reported as the rule
  made it (an error stays an error: it is provable on all paths), once;
- one that holds on some only becomes a **warning** whose message names the
  condition ("when $DPA is non-empty (run.sh:4), ..."), with the decisions as
  related locations and as the finding's ``path`` (SARIF codeFlows).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from msgspec.structs import replace

from sglang_lint.model import Finding, PathStep, Related, Severity, describe_path
from sglang_lint.catalog.router import Endpoint
from sglang_lint.topology import Deployment, Server, base_launch, is_secondary_node


def _steps(servers: Iterable[Server]) -> tuple[PathStep, ...]:
    """The decisions of a combination of variants. One the two sides of a pair
    took differently (the role chosen by an argument: a run per role) says only
    which run each side is, and is left out."""
    steps: dict[str, PathStep] = {}
    conflicting: set[str] = set()
    for server in servers:
        for step in server.launch.path_condition:
            if step.key in steps and steps[step.key].taken != step.taken:
                conflicting.add(step.key)
            steps.setdefault(step.key, step)
    return tuple(sorted((s for key, s in steps.items() if key not in conflicting), key=lambda step: (step.location, step.key)))


def _shared(conditions: Sequence[tuple[PathStep, ...]]) -> tuple[PathStep, ...]:
    """The decisions every one of ``conditions`` made (the first's order)."""
    common = set(conditions[0])
    for condition in conditions[1:]:
        common &= set(condition)
    return tuple(step for step in conditions[0] if step in common)


def _where(step: PathStep, path: str) -> str:
    """``$DPA is non-empty (line 4)``; another file's line names the file."""
    where = f"line {step.location.line}" if step.location.path == path else step.location.short()
    return f"{step.text} ({where})"


# The decisions a finding's message names (its path, SARIF's codeFlows, has all).
_MAX_NAMED_STEPS = 4


def _conditioned(finding: Finding, steps: tuple[PathStep, ...], others: int, severity: Severity) -> Finding:
    if not steps:
        return finding
    condition = " and ".join(_where(step, finding.location.path) for step in steps[:_MAX_NAMED_STEPS])
    if len(steps) > _MAX_NAMED_STEPS:
        # (a loop over a dozen environment variables, each tested: the message
        # names the first few, the finding's path has them all)
        condition += f" and {len(steps) - _MAX_NAMED_STEPS} more decisions"
    if others:
        condition += f" (or on {others} other path{'s' if others > 1 else ''})"
    related = tuple(Related(step.location, f"on this path: {step.text}") for step in steps)
    return replace(
        finding,
        message=f"when {condition}, {finding.message}",
        severity=severity,
        related=finding.related + tuple(r for r in related if r not in finding.related),
        path=steps,
    )


def name_pass_through(servers: Sequence[Server], found: list[Finding]) -> list[Finding]:
    """Findings on launches that pass arguments through from their caller
    (``"$@"``, ``sys.argv[1:]``) rely on the assumption that those add no
    options (issue 16, part 5): each says so, naming them."""
    passed = [(where, what) for server in servers for where, what in server.settings.passed_through]
    if not passed or not found:
        return found
    shown = ", ".join(f"{what} at {where.short()}" for where, what in dict.fromkeys(passed))
    note = f"unless the arguments passed through ({shown}) override the options written here: sglang-lint assumes they add none"
    # Not provable: what the caller passes may change it, so at most a warning.
    return [_with_notes(finding, (note,), Severity.WARNING if finding.severity is Severity.ERROR else finding.severity) for finding in found]


def fold_alternatives(groups: list[tuple[tuple[Server, ...], list[Finding]]], deployments: Iterable[Deployment]) -> list[tuple[tuple[Server, ...], list[Finding]]]:
    """Pair findings where one side is one of several launches that answer at
    one URL of a router (``Deployment.shared_endpoints``: a directory of
    alternative setups whose prefill scripts all listen on the port the router
    names). One of them answers there, so a finding that holds with each of
    them is kept as the rule made it; one that holds with some only becomes a
    warning that names which launch it needs ("when the prefill at
    http://host:30000 is 41_run.sh:42, ..."): it was an error for a setup that
    may never run with this decode."""
    # (with the router's other servers: its URL decides only the pairs it routes;
    # a prefill two routers name, each with launches that share its URL, was
    # "when the prefill at <the other router's URL> is ..." for the pairs of both)
    shared = [
        (endpoint, [s for s in servers if not is_secondary_node(s)], {id(s) for s in deployment.servers})
        for deployment in deployments
        for endpoint, servers in deployment.shared_endpoints
    ]
    if not shared:
        return groups
    codes: dict[tuple[int, int], set[str]] = {}
    for servers, found in groups:
        if len(servers) == 2:
            codes[(id(servers[0]), id(servers[1]))] = {finding.code for finding in found}
    result = []
    for servers, found in groups:
        if len(servers) == 2 and found:
            for endpoint, alternatives, routed in shared:
                for position in (0, 1):
                    side, other = servers[position], servers[1 - position]
                    if not any(side is a for a in alternatives) or id(other) not in routed:
                        continue
                    # (each other launch at the URL, by any of its variants)
                    others: dict[tuple, list[Server]] = {}
                    for alternative in alternatives:
                        if base_launch(alternative) != base_launch(side):
                            others.setdefault(base_launch(alternative), []).append(alternative)

                    def with_each(code: str) -> bool:
                        return all(
                            any(code in codes.get((id(a), id(other)) if position == 0 else (id(other), id(a)), ()) for a in variants) for variants in others.values()
                        )

                    found = [finding if with_each(finding.code) else _one_alternative(finding, endpoint, side, alternatives) for finding in found]
        result.append((servers, found))
    return result


def _one_alternative(finding: Finding, endpoint: Endpoint, side: Server, alternatives: list[Server]) -> Finding:
    where = side.launch.location
    places = list(dict.fromkeys(a.launch.location.short() for a in alternatives))
    shown = where.short() if where.path != finding.location.path else f"line {where.line}"
    return replace(
        finding,
        message=f"when the {side.role} at {endpoint.url.describe()} is the one of {shown}, {finding.message}",
        severity=Severity.WARNING if finding.severity is Severity.ERROR else finding.severity,
        notes=finding.notes
        + (
            f"the router names one {side.role} at {endpoint.url.describe()} ({endpoint.location.short()}), and {len(places)} launches listen there: "
            f"{', '.join(places)}; only one answers at a time, and this holds with some of them only",
        ),
        related=finding.related + tuple(r for r in (Related(where, f"the {side.role} this needs"),) if r not in finding.related),
    )


def fold(groups: Sequence[tuple[tuple[Server, ...], list[Finding]]]) -> list[Finding]:
    """``groups``: for every combination of variants one rule check saw (a pair,
    or one server), the servers and their findings. Combinations of the same
    launches (``base_launch``) are folded together."""
    by_base: dict[tuple, list[tuple[tuple[Server, ...], list[Finding]]]] = {}
    for servers, found in groups:
        by_base.setdefault(tuple(base_launch(s) for s in servers), []).append((servers, found))
    result: list[Finding] = []
    for combos in by_base.values():
        if len(combos) == 1 and not any(s.launch.path_condition for s in combos[0][0]):
            result.extend(combos[0][1])
            continue
        total = len(combos)
        conditions = [_steps(servers) for servers, _ in combos]
        everywhere_steps = set(_shared(conditions))
        # code -> (location, message) -> (the finding, the combinations it holds in)
        by_code: dict[str, dict[tuple, tuple[Finding, list[int]]]] = {}
        for index, (_, found) in enumerate(combos):
            for finding in found:
                entry = by_code.setdefault(finding.code, {}).setdefault((finding.location, finding.message), (finding, []))
                if not entry[1] or entry[1][-1] != index:
                    entry[1].append(index)
        for distinct in by_code.values():
            holds = {index for _, indexes in distinct.values() for index in indexes}
            if len(holds) == total:
                # On every path: one finding as the rule made it (the first path's),
                # with what the other paths give as notes.
                (first, _), *rest = distinct.values()
                if rest:
                    others = [f"{_ON_THE_PATH}{describe_path(_condition(conditions, indexes))}: {finding.message}" for finding, indexes in rest[:_MAX_OTHER_PATHS]]
                    if len(rest) > _MAX_OTHER_PATHS:
                        others.append(f"{_ON_MORE_PATHS}{len(rest) - _MAX_OTHER_PATHS} more paths")
                    first = _with_notes(first, (_EVERY_PATH,) + tuple(others))
                result.append(first)
                continue
            for finding, indexes in distinct.values():
                shared = _shared([conditions[i] for i in indexes])
                # What the paths where it holds share that the others do not.
                shared = tuple(step for step in shared if step not in everywhere_steps) or shared
                # ... and of those, the ones a path without it went the other
                # way on (a loop testing a dozen environment variables: the one
                # whose flag is the problem, not every other one that was set).
                held = set(indexes)
                opposite = {(step.key, not step.taken) for index, condition in enumerate(conditions) if index not in held for step in condition}
                shared = tuple(step for step in shared if (step.key, step.taken) in opposite) or shared
                # Best, the decisions under which it always holds: every path
                # that went that way has it.
                sufficient = tuple(step for step in shared if all(index in held for index, condition in enumerate(conditions) if step in condition))
                shared = sufficient or shared
                others = 0 if shared else len(indexes) - 1
                steps = shared or conditions[indexes[0]]
                result.append(_conditioned(finding, steps, others, Severity.WARNING))
    return _without_covered(result)


_MAX_OTHER_PATHS = 3
# The notes a finding that holds on every path of its launch gets: what the
# other paths give (is_path_note).
_EVERY_PATH = "this holds on every path through the branches; the first is shown"
_ON_THE_PATH = "on the path when "
_ON_MORE_PATHS = "and on "


def is_path_note(note: str) -> bool:
    """A note ``fold`` adds to a finding that holds on every path of its
    launch, naming what the other paths give (not which launch it is)."""
    return note == _EVERY_PATH or note.startswith(_ON_THE_PATH) or (note.startswith(_ON_MORE_PATHS) and note.endswith(" more paths"))


def _without_covered(findings: list[Finding]) -> list[Finding]:
    """Without a finding that holds on some paths where the same finding holds
    on every path of the same launch reached another way (a function the file
    calls, and runs once more as a root: ktransformers' and slime's launchers
    reported "unknown option X" and, at the same word, "when ..., unknown
    option X")."""
    everywhere = {(f.code, f.location, f.message) for f in findings if not f.path}
    if not everywhere:
        return findings
    return [f for f in findings if not f.path or not any((f.code, f.location, m) in everywhere for m in _unconditioned(f.message))]


def _unconditioned(message: str) -> list[str]:
    """The messages a conditioned finding's (``when A and B, M``) may have been
    made from: each text after one of its ``, `` (the condition may hold one)."""
    return [message[i + 2 :] for i in range(len(message)) if message.startswith(", ", i)] if message.startswith("when ") else []


def _condition(conditions: list[tuple[PathStep, ...]], indexes: list[int]) -> tuple[PathStep, ...]:
    return _shared([conditions[i] for i in indexes]) or conditions[indexes[0]]


def _with_notes(finding: Finding, notes: tuple[str, ...], severity: Severity | None = None) -> Finding:
    return replace(finding, notes=finding.notes + notes, severity=finding.severity if severity is None else severity)
