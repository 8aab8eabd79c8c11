"""Group servers into deployments and list the prefill x decode pairs to check.

design.md "Pairing prefill with decode": the router picks a prefill and a decode
independently, so every pair of one deployment must be compatible. Deployments come
from, in order: the topology manifest (``[[deployment]]`` entries of the config, see
config.py: the servers of the files an entry's globs name), routers (servers whose
port, and host where known, match a router's URLs), and otherwise files (one file,
one deployment; single-role files join the other single-role files of their
directory). In a Markdown document the scope is the section: servers pair
within the innermost section that holds both roles, and a router names only
servers of its own section (``pairing_sections``).

Configurations a test builds are not servers that run (``ServerLaunch.under_test``,
recorded by the Python source): one built where the test expects an exception is
in no deployment (no rule judges what the test says is invalid); one the test only
inspects stays in its scope's deployment for the checks of one server, but is never
paired, never named by a router and never decides how files are grouped
(``is_started``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterable, Sequence

from msgspec import Struct

from sglang_lint.catalog.attention import Derived, ParallelSizes, parallel_sizes
from sglang_lint.catalog.router import Endpoint, RouterSettings
from sglang_lint.catalog.settings import DIFFUSION, OUT_OF_TREE, ServerSettings, Setting
from sglang_lint.catalog.versions import JudgedVersion
from sglang_lint.model import Heading, Kind, Note, ServerLaunch, UnderTest, Value, provably_equal

if TYPE_CHECKING:
    from sglang_lint.config import ManifestDeployment

PREFILL = "prefill"
DECODE = "decode"
UNKNOWN_ROLE = "unknown"

# Hosts a server listens on that accept connections for any address.
_WILDCARD_HOSTS = {"0.0.0.0", "::", "[::]", ""}
_LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


class Server(Struct):
    launch: ServerLaunch
    settings: ServerSettings
    role: str  # "prefill" | "decode" | "null" | "unknown" | "diffusion" | "out-of-tree"
    attn_tp: Derived
    # Every parallel size as SGLang resolves it (attn_tp is sizes.attn_tp),
    # derived once per server for the rules that read them.
    sizes: ParallelSizes | None = None
    # The Markdown section this server pairs within (set by build_deployments,
    # see pairing_sections); () for the whole file.
    section: tuple[Heading, ...] = ()
    # The release that judged it and why (catalog/versions); None: built by hand.
    judged: JudgedVersion | None = None

    @property
    def label(self) -> str:
        """``run.sh:12``; a launch made by a function called once per role also
        names the call (both sides of a pair are often the same line); a launch
        variant names its path condition."""
        path = self.launch.location.path
        label = f"{path}:{self.launch.location.line}"
        if self.launch.context:
            call, _, where = self.launch.context.split(" <- ")[0].partition(" called at ")
            if where.startswith(path + ":"):
                where = "line " + where[len(path) + 1 :]
            label += f" ({call} called at {where})"
        if self.launch.path_condition:
            label += " when " + " and ".join(step.text for step in self.launch.path_condition)
        if self.section:
            label += " " + section_label(self.section)
        return label

    def setting(self, dest: str) -> Setting:
        return self.settings.get(dest)


class Router(Struct):
    settings: RouterSettings
    # The Markdown section whose servers the router may name (as Server.section).
    section: tuple[Heading, ...] = ()

    @property
    def label(self) -> str:
        location = self.settings.launch.location
        label = f"{location.path}:{location.line}"
        if self.section:
            label += " " + section_label(self.section)
        return label


def section_label(section: tuple[Heading, ...]) -> str:
    """``in section 'NIXL' (line 40)`` (after ``guide.md:52``): the innermost
    heading, which is where the reader looks."""
    heading = section[-1]
    title = heading.title if len(heading.title) <= 60 else heading.title[:59] + "…"
    return f"in section '{title}' (line {heading.line})"


class Deployment(Struct):
    name: str
    how: str  # "router" | "file" | "directory" | "manifest"
    servers: list[Server] = []
    routers: list[Router] = []
    # how == "manifest": the config file the entry came from, as displayed.
    source: str = ""
    # Things about the grouping the user should know (shown as SGL900 notes).
    notes: list[Note] = []
    # how == "router": each URL of the router that launches of several places
    # match (same port, host compatible), with them. One server answers at a
    # URL, so they are alternatives, not servers the router pairs at once
    # (variant_findings.fold_alternatives).
    shared_endpoints: list[tuple[Endpoint, list[Server]]] = []
    # The decisions that choose a launch's role, told over every server of the
    # scope it was split from (a router's deployment holds only the servers it
    # names: without the variants of unknown role beside them, a decision
    # they share looked like one that chooses the role). None: its own.
    role_keys: frozenset[tuple[str, str]] | None = None

    @property
    def prefills(self) -> list[Server]:
        return [s for s in self.servers if s.role == PREFILL]

    @property
    def decodes(self) -> list[Server]:
        return [s for s in self.servers if s.role == DECODE]

    def pairs(self) -> list[tuple[Server, Server]]:
        """Every (prefill, decode) the router may pair; of launch variants, those
        whose paths can go together (``variants_compatible``)."""
        decided_role = self.role_keys if self.role_keys is not None else _role_keys(self.servers)
        return [
            (p, d)
            for p in self.prefills
            for d in self.decodes
            if is_started(p) and is_started(d) and same_section(p, d) and variants_compatible(p, d, decided_role)
        ]


def same_section(a: Server, b: Server) -> bool:
    """Servers of one Markdown document pair only within one section (sibling
    sections are alternative setups); servers of different files always may."""
    return a.launch.path != b.launch.path or a.section == b.section


def _role_keys(servers: Iterable[Server]) -> set[tuple[str, str]]:
    """(file, key) of the decisions that choose a launch's role: the roles of the
    file's variants where the decision went one way differ from where it went
    the other (`case "$ROLE" in prefill) ...`). Such a script runs once per role,
    so variants that differ in them still pair."""
    roles: dict[tuple[str, str, bool], set[str]] = {}
    # The same per launch (place and call chain): a variant whose role we
    # cannot tell ("unknown": merged words that may set --disaggregation-mode)
    # is no evidence either way. Over the whole file, it made `$MODEL_NAME is
    # non-empty` a decision that chooses the role, and a prefill of one way
    # paired with a decode of the other (AMD's sglang_disagg_server.sh: SGL005
    # "prefill /, decode /DeepSeek-R1").
    placed: dict[tuple[str, str, tuple, bool], set[str]] = {}
    for server in servers:
        for step in server.launch.path_condition:
            roles.setdefault((server.launch.path, step.key, step.taken), set()).add(server.role)
            placed.setdefault((server.launch.path, step.key, base_launch(server), step.taken), set()).add(server.role)
    evidence = set()
    for (path, key, where, taken), found in placed.items():
        other = placed.get((path, key, where, not taken), set())
        if found != other and "unknown" not in found | other:
            evidence.add((path, key))
    return {(path, key) for path, key, taken in roles if taken and roles[(path, key, True)] != roles.get((path, key, False), set()) and (path, key) in evidence} | {
        (path, key) for path, key, taken in roles if not taken and (path, key, True) not in roles
    }


def variants_compatible(a: Server, b: Server, role_keys: set[tuple[str, str]]) -> bool:
    """Whether two launches can both run (issue 16, part 6): launches of other
    files, or on every path, always can; variants of one file can when a path
    gave both, or when the decisions they disagree on are ones that choose the
    role (one run of the script per role)."""
    first, second = a.launch, b.launch
    if first.path != second.path or not first.runs or not second.runs:
        return True
    if set(first.runs) & set(second.runs):
        return True
    taken = {step.key: step.taken for step in second.path_condition}
    conflicts = {step.key for step in first.path_condition if step.key in taken and taken[step.key] != step.taken}
    # A value read as the empty default of `${X:-}` takes X to be empty: a
    # variant merged past the paths' bound has no decision over X, but its
    # `--model-path ${MODEL_DIR:-}/${MODEL_NAME:-}` ("/") is not the model of
    # a path where `$MODEL_NAME is DeepSeek-R1` (AMD's sglang_disagg_server.sh).
    for launch, other in ((first, second), (second, first)):
        nonempty = _decided_nonempty(other)
        if nonempty:
            conflicts.update(f"nonempty\0{name}" for name in _empty_defaults(launch) & nonempty)
    return all((first.path, key) in role_keys for key in conflicts)


def _decided_nonempty(launch: ServerLaunch) -> set[str]:
    """The variables the path of a launch variant decided are not empty (it
    took `[ -n "$X" ]`, or `$X` equal to a text)."""
    names = set()
    for step in launch.path_condition:
        kind, subject, *rest = step.key.split("\0")
        if step.taken and (kind == "nonempty" or (kind == "eq" and rest and rest[0] != "")):
            names.add(subject)
    return names


def _empty_defaults(launch: ServerLaunch) -> set[str]:
    """The variables a launch's words read as the empty default of `${X:-}`
    (their names as the path's decisions name them: `$X`)."""
    names: set[str] = set()
    stack = [token.value for token in launch.args] + [keyword.value for keyword in launch.keywords]
    while stack:
        value = stack.pop()
        if value.kind is Kind.SYMBOL and value.default == "" and value.name.startswith("$"):
            names.add(value.name)
        stack.extend(value.parts)
    return names


def base_launch(server: Server) -> tuple:
    """What the variants of one launch share: its place, call chain and scope."""
    launch = server.launch
    return (launch.path, launch.location, launch.context, launch.scope, launch.entry)


def server_role(settings: ServerSettings) -> str:
    """prefill | decode | null | unknown for the LLM server; a server of another
    program (the diffusion server) has that program as its role: it is never
    paired (its own --disagg-role is not the LLM server's PD)."""
    if settings.program in (DIFFUSION, OUT_OF_TREE):
        return settings.program
    mode = settings.get("disaggregation_mode").value
    if mode.is_known:
        return mode.text if mode.text in (PREFILL, DECODE) else "null"
    return "unknown"


def make_server(launch: ServerLaunch, settings: ServerSettings, judged: JudgedVersion | None = None) -> Server:
    sizes = parallel_sizes(settings)
    return Server(launch=launch, settings=settings, role=server_role(settings), attn_tp=sizes.attn_tp, sizes=sizes, judged=judged)


def server_sizes(server: Server) -> ParallelSizes:
    """The server's parallel sizes (derived now for a Server built by hand)."""
    return server.sizes if server.sizes is not None else parallel_sizes(server.settings)


def is_secondary_node(server: Server) -> bool:
    """A ``--node-rank`` > 0 launch is a worker of the rank-0 server of the same
    multi-node group: the router never talks to it, and its settings are the
    rank-0 server's."""
    rank = server.setting("node_rank").value
    return rank.is_known and rank.text not in ("0", "")


def is_started(server: Server) -> bool:
    """Whether a server runs: not a configuration a test only inspects
    (``UnderTest.INSPECTED``), which is checked on its own and never paired."""
    return server.launch.under_test is UnderTest.NO


def _host_compatible(url_host: Value, server_host: Value) -> bool:
    """False only when both hosts are known and cannot be the same machine."""
    if not (url_host.is_known and server_host.is_known):
        return True
    a, b = url_host.text.lower(), server_host.text.lower()
    if b in _WILDCARD_HOSTS or a == b:
        return True
    if a in _LOOPBACK and b in _LOOPBACK:
        return True
    return False


def pairing_sections(servers: Sequence[Server], routers: Sequence[Router]) -> None:
    """Set the section each server of one file pairs within, and the section
    whose servers each router may name (design.md "Pairing prefill with decode":
    in Markdown the scope is the section).

    A server pairs within the innermost section around it that holds both roles
    (its subsections included); a section with one role joins its parent's, up
    to the whole document. A router's section is found the same way from where
    it is launched, and it names only servers of that section and its
    subsections: the same ports in a sibling section belong to another setup.
    When all the servers of the file pair within one section (a runbook under
    one title), nothing is set: the file is one scope, as a script is."""
    roles: dict[tuple[Heading, ...], set[str]] = {}
    for server in servers:
        if server.role not in (PREFILL, DECODE) or is_secondary_node(server) or not is_started(server):
            continue
        section = server.launch.section
        for depth in range(1, len(section) + 1):
            roles.setdefault(section[:depth], set()).add(server.role)

    def innermost_with_both(section: tuple[Heading, ...]) -> tuple[Heading, ...]:
        for depth in range(len(section), 0, -1):
            if len(roles.get(section[:depth], ())) == 2:
                return section[:depth]
        return ()

    homes = [innermost_with_both(server.launch.section) for server in servers]
    one_scope = len(set(homes)) < 2
    for server, home in zip(servers, homes):
        server.section = () if one_scope else home
    for router in routers:
        router.section = () if one_scope else innermost_with_both(router.settings.launch.section)


def router_reaches(router: Router, server: Server) -> bool:
    """Whether a router may name a server: one of another file, or one of the
    router's section or a subsection of it."""
    if router.settings.launch.path != server.launch.path:
        return True
    return server.section[: len(router.section)] == router.section


def endpoint_matches(endpoint: Endpoint, server: Server) -> bool:
    port = server.setting("port").value
    if not provably_equal(endpoint.port, port):
        return False
    return _host_compatible(endpoint.host, server.setting("host").value)


def build_deployments(
    servers_by_file: dict[str, list[Server]],
    routers_by_file: dict[str, list[Router]],
    manifest: Sequence[ManifestDeployment] = (),
) -> list[Deployment]:
    """Deployments of all files, in a deterministic order: the manifest's entries
    first (in config order), then the servers and routers no entry claimed, grouped
    automatically. A configuration the test expects to fail is in none."""
    servers_by_file = {
        path: kept for path, servers in servers_by_file.items() if (kept := [s for s in servers if s.launch.under_test is not UnderTest.EXPECTED_FAILURE])
    }
    for path in sorted(set(servers_by_file) | set(routers_by_file)):
        pairing_sections(servers_by_file.get(path, []), routers_by_file.get(path, []))
    deployments: list[Deployment] = []
    if manifest:
        claimed: set[int] = set()
        for entry in manifest:
            deployment = _manifest_deployment(entry, servers_by_file, routers_by_file)
            claimed.update(id(s) for s in deployment.servers)
            claimed.update(id(r) for r in deployment.routers)
            deployments.append(deployment)
        servers_by_file = {p: kept for p, ss in servers_by_file.items() if (kept := [s for s in ss if id(s) not in claimed])}
        routers_by_file = {p: kept for p, rs in routers_by_file.items() if (kept := [r for r in rs if id(r) not in claimed])}
    return deployments + _automatic_deployments(servers_by_file, routers_by_file)


def _manifest_deployment(
    entry: ManifestDeployment,
    servers_by_file: dict[str, list[Server]],
    routers_by_file: dict[str, list[Router]],
) -> Deployment:
    """The servers of the files ``prefill``/``decode`` match (each keeps the role
    its arguments give it) and the routers of the files ``router`` matches. A
    server whose role contradicts the key that named its file gets a note."""
    deployment = Deployment(name=entry.name, how="manifest", source=entry.source)
    for path in sorted(servers_by_file):
        as_prefill, as_decode = entry.matches(PREFILL, path), entry.matches(DECODE, path)
        if not (as_prefill or as_decode):
            continue
        for server in servers_by_file[path]:
            deployment.servers.append(server)
            said = PREFILL if as_prefill and not as_decode else DECODE if as_decode and not as_prefill else None
            if said is not None and server.role in (PREFILL, DECODE) and server.role != said:
                location = server.launch.location
                deployment.notes.append(
                    Note(
                        location.path,
                        f'the topology manifest ({entry.source}) lists this file under "{said}" of deployment'
                        f' "{entry.name}", but this launch starts a {server.role} server (disaggregation mode'
                        f' "{server.role}"); it is paired as a {server.role}',
                        location.line,
                        location.column,
                    )
                )
    for path in sorted(routers_by_file):
        if entry.matches("router", path):
            deployment.routers.extend(routers_by_file[path])
    return deployment


def _automatic_deployments(
    servers_by_file: dict[str, list[Server]],
    routers_by_file: dict[str, list[Router]],
) -> list[Deployment]:
    # 1. Scopes: each file; files holding a single role (or only routers) join the
    #    other such files of their directory. Launches a source put in a scope of
    #    their own (a Python test class) are a deployment of their own.
    units_servers: dict[tuple[str, str], list[Server]] = {}
    units_routers: dict[tuple[str, str], list[Router]] = {}
    for path, servers in servers_by_file.items():
        for server in servers:
            units_servers.setdefault((path, server.launch.scope), []).append(server)
    for path, routers in routers_by_file.items():
        for router in routers:
            units_routers.setdefault((path, router.settings.launch.scope), []).append(router)
    scopes: list[tuple[str, str, list[tuple[str, str]]]] = []  # (name, how, units)
    by_directory: dict[str, list[tuple[str, str]]] = {}
    for unit in sorted(set(units_servers) | set(units_routers)):
        path, scope = unit
        if scope:
            scopes.append((f"{path} ({scope})", "file", [unit]))
            continue
        started = [s for s in units_servers.get(unit, []) if is_started(s)]
        roles = {s.role for s in started if not is_secondary_node(s)}
        if len(roles & {PREFILL, DECODE}) == 1 and roles - {PREFILL, DECODE} == {UNKNOWN_ROLE}:
            # A decode script past the paths' bound: some of its variants merged
            # words that may set the mode (`$OPTIONAL_ARGS`), and their role is
            # not known. They are variants of the decode: the file holds one
            # role, and joins its directory's prefill (it stayed alone, and the
            # pair 1_decode.sh / 2_prefill.sh was never checked).
            roles -= {UNKNOWN_ROLE}
        # Configurations a test only inspects pair with nothing: their file is
        # its own scope, and they never make it one that holds both roles.
        if len(roles & {PREFILL, DECODE}) == 2 or (roles - {PREFILL, DECODE}) or (unit in units_servers and not started):
            scopes.append((path, "file", [unit]))
        else:
            by_directory.setdefault(os.path.dirname(path), []).append(unit)
    for directory, units in sorted(by_directory.items()):
        if len(units) == 1:
            scopes.append((units[0][0], "file", units))
        else:
            label = (directory or ".") + "/ (" + ", ".join(os.path.basename(path) for path, _ in units) + ")"
            scopes.append((label, "directory", units))

    deployments: list[Deployment] = []
    for name, how, units in scopes:
        servers = [s for unit in units for s in units_servers.get(unit, [])]
        routers = [r for unit in units for r in units_routers.get(unit, [])]
        deployments.extend(_split_by_routers(name, how, servers, routers))
    return deployments


def _split_by_routers(name: str, how: str, servers: list[Server], routers: list[Router]) -> list[Deployment]:
    """Within one scope, each PD router names its deployment; servers no router
    names stay together as the scope's own deployment."""
    pd_routers = [r for r in routers if r.settings.pd_disaggregation or r.settings.prefills or r.settings.decodes]
    role_keys = frozenset(_role_keys(servers))
    claimed: set[int] = set()
    deployments = []
    for router in pd_routers:
        members = []
        answering: dict[int, list[Server]] = {}  # (endpoint index -> the servers matching it)
        endpoints_of = {PREFILL: router.settings.prefills, DECODE: router.settings.decodes}
        every_endpoint = [*router.settings.prefills, *router.settings.decodes]
        for server in servers:
            endpoints = endpoints_of.get(server.role, [])
            if not (is_started(server) and router_reaches(router, server)):
                continue
            matched = [e for e in endpoints if endpoint_matches(e, server)]
            if matched:
                members.append(server)
                claimed.add(id(server))
                if not is_secondary_node(server):  # (a multi-node group's other nodes listen nowhere)
                    for endpoint in matched:
                        answering.setdefault(every_endpoint.index(endpoint), []).append(server)
        shared = [
            (every_endpoint[index], found)
            for index, found in sorted(answering.items())
            if len({base_launch(s) for s in found}) > 1 and not _may_all_answer(found, endpoints_of)
        ]
        # (one whose words we cannot all see and that names no server here is
        # still a launch of the deployment: dropped, the topology lost it)
        deployments.append(Deployment(name=f"router {router.label}", how="router", servers=members, routers=[router], shared_endpoints=shared, role_keys=role_keys))
    for deployment in deployments:
        router = deployment.routers[0]
        if router.settings.opaque:
            # Words it has that we cannot see may name the servers no router
            # names: the decode servers a loop starts, whose URLs the same
            # loop adds (`CMD="$CMD --decode http://...:$((BASE + i))"`). They
            # pair with its servers too, and stay the scope's (not claimed).
            deployment.servers.extend(
                s for s in servers if id(s) not in claimed and s.role in (PREFILL, DECODE) and is_started(s) and router_reaches(router, s)
            )
    rest = [s for s in servers if id(s) not in claimed]
    unrouted = [r for r in routers if r not in pd_routers]
    # (a router that is no PD router, or whose words we cannot see, beside one
    # that is: it was dropped from the topology, with nothing said)
    if rest or unrouted or not deployments:
        deployments.insert(0, Deployment(name=name, how=how, servers=rest, routers=unrouted, role_keys=role_keys))
    # A server two routers name belongs to both deployments; a server no router
    # names is still checked against the others no router names.
    return [d for d in deployments if d.servers or d.routers]


def _may_all_answer(found: list[Server], endpoints_of: dict[str, list[Endpoint]]) -> bool:
    """Whether the launches matching one URL may all be the router's: each
    matches another of its URLs too (hosts not known: `--prefill
    http://$P1:30000 --prefill http://$P2:30000` over two nodes' scripts)."""
    role = found[0].role
    return len(endpoints_of.get(role, [])) >= len({base_launch(s) for s in found})


def pairs(deployments: Iterable[Deployment]) -> list[tuple[Deployment, Server, Server]]:
    """Every (prefill, decode) pair to check, once each even when two deployments
    share servers; secondary nodes of multi-node groups are not paired."""
    seen: set[tuple[int, int]] = set()
    result = []
    for deployment in deployments:
        for prefill, decode in deployment.pairs():
            if is_secondary_node(prefill) or is_secondary_node(decode):
                continue
            key = (id(prefill), id(decode))
            if key in seen:
                continue
            seen.add(key)
            result.append((deployment, prefill, decode))
    return result
