"""Topology: the pairing scope of launches that carry a section (issue 18).

These tests give the topology launches with hand-made ``section`` paths (as the
Markdown source makes them, see tests/test_markdown_source.py for the headings
themselves) and check ``pairing_sections``, ``Deployment.pairs`` and router
matching on their own: servers pair within the innermost section that holds
both roles, a section with one role joins its parent's, a router names only
servers of its own section, and servers of different files pair as before.
"""

from __future__ import annotations

from msgspec.structs import replace

from sglang_lint.analysis import analyze_results
from sglang_lint.model import Heading, SourceResult
from sglang_lint.options import LintOptions
from sglang_lint.sources.shell import analyze_shell
from sglang_lint.topology import pairs as topology_pairs

DOC = "guide.md"
LS = "python3 -m sglang.launch_server --disaggregation-mode"
ROUTER = "python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001"

GUIDE = Heading(1, 1, "Guide")
MOONCAKE = Heading(3, 2, "Mooncake")
NIXL = Heading(20, 2, "NIXL")
STEP_P = Heading(5, 3, "Prefill")
STEP_D = Heading(10, 3, "Decode")


def result(path: str, commands: list[tuple[str, tuple[Heading, ...]]]) -> SourceResult:
    """One launch a line, each given its section."""
    found = analyze_shell(path, "\n".join(command for command, _ in commands) + "\n")
    sections = {line: section for line, (_, section) in enumerate(commands, start=1)}
    return replace(
        found,
        servers=[replace(s, section=sections[s.location.line]) for s in found.servers],
        routers=[replace(r, section=sections[r.location.line]) for r in found.routers],
    )


def lint(*results: SourceResult):
    return analyze_results(list(results), LintOptions())


def pairs(lint_result) -> set[tuple[int, int]]:
    """The pairs the rules check (secondary nodes left out)."""
    return {(p.launch.location.line, d.launch.location.line) for _, p, d in topology_pairs(lint_result.deployments)}


def test_sibling_sections_with_both_roles_do_not_pair():
    out = lint(
        result(
            DOC,
            [
                (f"{LS} prefill --model-path a", (GUIDE, MOONCAKE)),
                (f"{LS} decode --model-path a", (GUIDE, MOONCAKE)),
                (f"{LS} prefill --model-path b", (GUIDE, NIXL)),
                (f"{LS} decode --model-path b", (GUIDE, NIXL)),
            ],
        )
    )
    assert pairs(out) == {(1, 2), (3, 4)}
    assert out.findings == []
    servers = [s for dep in out.deployments for s in dep.servers]
    assert {s.launch.location.line: s.section for s in servers} == {1: (GUIDE, MOONCAKE), 2: (GUIDE, MOONCAKE), 3: (GUIDE, NIXL), 4: (GUIDE, NIXL)}


def test_one_role_sections_join_their_parent():
    out = lint(
        result(
            DOC,
            [
                (f"{LS} prefill --model-path a", (GUIDE, MOONCAKE, STEP_P)),
                (f"{LS} decode --model-path b", (GUIDE, MOONCAKE, STEP_D)),
                (f"{LS} prefill --model-path c", (GUIDE, NIXL)),
                (f"{LS} decode --model-path c", (GUIDE, NIXL)),
            ],
        )
    )
    assert pairs(out) == {(1, 2), (3, 4)}
    assert [(f.code, f.location.line) for f in out.findings] == [("SGL005", 2)]


def test_one_pairing_section_leaves_the_file_one_scope():
    # Every server pairs under the title: no section is set, labels stay a script's.
    out = lint(
        result(
            DOC,
            [(f"{LS} prefill --model-path a", (GUIDE, STEP_P)), (f"{LS} decode --model-path a", (GUIDE, STEP_D))],
        )
    )
    servers = [s for dep in out.deployments for s in dep.servers]
    assert [s.section for s in servers] == [(), ()]
    assert [s.label for s in servers] == ["guide.md:1", "guide.md:2"]


def test_secondary_nodes_give_no_role_to_a_section():
    # NIXL's prefill is a node-rank 1 worker: it gives NIXL no prefill role, so
    # NIXL's decode (and the worker) join the parent, the Guide.
    out = lint(
        result(
            DOC,
            [
                (f"{LS} prefill --model-path a --nnodes 2 --node-rank 0", (GUIDE, MOONCAKE)),
                (f"{LS} decode --model-path a", (GUIDE, MOONCAKE)),
                (f"{LS} prefill --model-path b --nnodes 2 --node-rank 1", (GUIDE, NIXL)),
                (f"{LS} decode --model-path b", (GUIDE, NIXL)),
            ],
        )
    )
    servers = {s.launch.location.line: s.section for dep in out.deployments for s in dep.servers}
    assert servers == {1: (GUIDE, MOONCAKE), 2: (GUIDE, MOONCAKE), 3: (GUIDE,), 4: (GUIDE,)}
    assert pairs(out) == {(1, 2)}


def test_a_router_names_servers_of_its_own_section_only():
    out = lint(
        result(
            DOC,
            [
                (f"{LS} prefill --model-path a --port 30000", (GUIDE, MOONCAKE)),
                (f"{LS} decode --model-path a --port 30001", (GUIDE, MOONCAKE)),
                (ROUTER, (GUIDE, MOONCAKE, STEP_P)),  # a subsection with no server: the router goes up to Mooncake
                (f"{LS} prefill --model-path b --port 30000", (GUIDE, NIXL)),
                (f"{LS} decode --model-path b --port 30001", (GUIDE, NIXL)),
            ],
        )
    )
    (routed,) = [dep for dep in out.deployments if dep.how == "router"]
    assert routed.routers[0].section == (GUIDE, MOONCAKE)
    assert sorted(s.launch.location.line for s in routed.servers) == [1, 2]
    assert "in section 'Mooncake' (line 3)" in routed.routers[0].label
    assert out.findings == []


def test_servers_of_other_files_pair_whatever_their_section():
    doc = result(DOC, [(f"{LS} prefill --model-path a", (GUIDE, MOONCAKE)), (f"{LS} decode --model-path a", (GUIDE, MOONCAKE)),
                       (f"{LS} prefill --model-path a", (GUIDE, NIXL)), (f"{LS} decode --model-path a", (GUIDE, NIXL))])
    script = result("decode.sh", [(f"{LS} decode --model-path z", ())])
    out = lint(doc, script)
    # The script's decode is a file of its own (both roles are in guide.md, so no
    # directory joining): guide.md's pairs stay within their sections.
    assert pairs(out) == {(1, 2), (3, 4)}
