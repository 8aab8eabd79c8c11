"""`sglang-lint topology --format mermaid|markdown`: the deployments as a Mermaid
flowchart, and as Markdown (a table per deployment and the flowchart) for a pull
request comment.

The flowchart has one subgraph per deployment: routers and servers are nodes
(role, path:line, attention TP), a router has an arrow to each server its URLs
name, and a prefill x decode pair with findings is joined by a dashed red link
labelled with the codes. Node ids are generated (``d1_r1``, ``d1_s2``), never taken
from the files; every label is escaped, since the text comes from the analyzed
files.
"""

from __future__ import annotations

from typing import Sequence

from sglang_lint.report._text import sanitize
from sglang_lint.report.topology import SHOWN_SETTINGS
from sglang_lint.topology import Deployment, Router, Server, endpoint_matches, is_secondary_node, is_started

# (prefill, decode, codes) as in LintResult.pair_findings.
PairFindings = Sequence[tuple[Server, Server, Sequence[str]]]

INCOMPATIBLE_STYLE = "stroke:#d62728,stroke-width:2px,stroke-dasharray:5 5,color:#d62728"

# Characters that end or change a Mermaid label, written as Mermaid's entity
# codes (#quot; / #NN;), which Mermaid turns back into the character.
_MERMAID_ESCAPES = {
    '"': "#quot;",
    "#": "#35;",
    "&": "#38;",
    "<": "#60;",
    ">": "#62;",
    "[": "#91;",
    "]": "#93;",
    "{": "#123;",
    "}": "#125;",
    "|": "#124;",
    "`": "#96;",
    ";": "#59;",
    "\\": "#92;",
}


def mermaid_text(text: str) -> str:
    """``text`` safe inside a double-quoted Mermaid label (one line)."""
    text = sanitize(" ".join(text.split()))
    return "".join(_MERMAID_ESCAPES.get(char, char) for char in text)


def _label(*lines: str) -> str:
    return '"' + "<br/>".join(mermaid_text(line) for line in lines if line) + '"'


def _server_lines(server: Server) -> list[str]:
    lines = [server.role, server.label, f"attention TP {server.attn_tp.value.describe()}"]
    if is_secondary_node(server):
        lines.append("node-rank > 0: not paired")
    if not is_started(server):
        lines.append("configuration under test: not paired")
    return lines


def _routes(router: Router, server: Server) -> bool:
    settings = router.settings
    return any(endpoint_matches(endpoint, server) for endpoint in [*settings.prefills, *settings.decodes])


def _codes_by_pair(pair_findings: PairFindings) -> dict[tuple[int, int], tuple[str, ...]]:
    return {(id(p), id(d)): tuple(codes) for p, d, codes in pair_findings}


def render_mermaid(deployments: Sequence[Deployment], version: str, pair_findings: PairFindings = ()) -> str:
    out = ["flowchart LR", f"  %% sglang-lint topology, sglang {mermaid_text(version)} option semantics"]
    if not deployments:
        out.append("  %% No SGLang launches found.")
        return "\n".join(out) + "\n"
    codes = _codes_by_pair(pair_findings)
    links = 0
    incompatible: list[int] = []
    for number, deployment in enumerate(deployments, 1):
        ids: dict[int, str] = {}
        out.append(f'  subgraph d{number}[{_label(f"Deployment {number}: {deployment.name}")}]')
        for index, router in enumerate(deployment.routers, 1):
            ids[id(router)] = f"d{number}_r{index}"
            out.append(f"    {ids[id(router)]}{{{{{_label('router', router.label)}}}}}")
        for index, server in enumerate(deployment.servers, 1):
            ids[id(server)] = f"d{number}_s{index}"
            out.append(f"    {ids[id(server)]}[{_label(*_server_lines(server))}]")
        out.append("  end")
        for router in deployment.routers:
            for server in deployment.servers:
                if _routes(router, server):
                    out.append(f"  {ids[id(router)]} --> {ids[id(server)]}")
                    links += 1
        for prefill, decode in deployment.pairs():
            found = codes.get((id(prefill), id(decode)))
            if found:
                out.append(f'  {ids[id(prefill)]} -.-|"{mermaid_text(", ".join(found))}"| {ids[id(decode)]}')
                incompatible.append(links)
                links += 1
    if incompatible:
        out.append(f"  linkStyle {','.join(str(i) for i in incompatible)} {INCOMPATIBLE_STYLE}")
    return "\n".join(out) + "\n"


def markdown_text(text: str) -> str:
    """``text`` safe in a Markdown table cell (no HTML, no emphasis, no pipes)."""
    text = sanitize(" ".join(text.split()))
    out = []
    for char in text:
        if char == "<":
            out.append("&lt;")
        elif char == ">":
            out.append("&gt;")
        elif char == "&":
            out.append("&amp;")
        elif char in "\\`*_[]|#~":
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def markdown_code(text: str) -> str:
    """``text`` as a code span in a table cell (pipes escaped, as GFM tables
    need even inside code); text holding a backtick is escaped instead."""
    text = sanitize(" ".join(text.split()))
    if not text or "`" in text:
        return markdown_text(text)
    return "`" + text.replace("|", "\\|") + "`"


def _key_settings(server: Server) -> str:
    shown = []
    for label, dest in SHOWN_SETTINGS:
        if not server.settings.has_option(dest):
            continue
        setting = server.setting(dest)
        if setting.is_default:
            continue
        shown.append(f"{label}={setting.value.describe()}")
    return ", ".join(shown)


def _router_targets(router: Router) -> str:
    settings = router.settings
    targets = [f"prefill {e.url.describe()}" for e in settings.prefills]
    targets += [f"decode {e.url.describe()}" for e in settings.decodes]
    return ", ".join(targets) or "no PD endpoints"


def render_markdown(deployments: Sequence[Deployment], version: str, pair_findings: PairFindings = ()) -> str:
    out = ["## sglang-lint topology", "", f"SGLang {markdown_text(version)} option semantics."]
    if not deployments:
        out += ["", "No SGLang launches found."]
        return "\n".join(out) + "\n"
    codes = _codes_by_pair(pair_findings)
    for number, deployment in enumerate(deployments, 1):
        how = f"from manifest {deployment.source}" if deployment.how == "manifest" else f"grouped by {deployment.how}"
        out += ["", f"### Deployment {number}: {markdown_text(deployment.name)} ({markdown_text(how)})", ""]
        out += ["| role | launch | attention TP | key settings |", "|---|---|---|---|"]
        for router in deployment.routers:
            out.append(f"| router | {markdown_code(router.label)} | | {markdown_text(_router_targets(router))} |")
        for server in deployment.servers:
            attn = f"{server.attn_tp.value.describe()} ({server.attn_tp.explanation})"
            role = server.role + (" (node-rank > 0)" if is_secondary_node(server) else "") + ("" if is_started(server) else " (under test)")
            out.append(f"| {markdown_text(role)} | {markdown_code(server.label)} | {markdown_text(attn)} | {markdown_code(_key_settings(server))} |")
        pairs = deployment.pairs()
        bad = [(p, d, codes[(id(p), id(d))]) for p, d in pairs if (id(p), id(d)) in codes]
        out.append("")
        if not pairs:
            out.append("Pairs checked: 0 (needs a prefill and a decode).")
        elif not bad:
            out.append(f"Pairs checked: {len(pairs)}, all compatible.")
        else:
            out.append(f"Pairs checked: {len(pairs)}, incompatible: {len(bad)}.")
            out.append("")
            for prefill, decode, found in bad:
                out.append(f"- **{', '.join(found)}**: prefill {markdown_code(prefill.label)} x decode {markdown_code(decode.label)}")
    out += ["", "```mermaid", render_mermaid(deployments, version, pair_findings).rstrip("\n"), "```"]
    return "\n".join(out) + "\n"
