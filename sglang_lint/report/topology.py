"""`sglang-lint topology`: how the deployments were understood, as text or JSON.

Lists each deployment (and how it was formed), its routers, and each server with
its role, the parallel sizes that make its attention TP, unified memory, and the
file:line that set each value (or "default").
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from sglang_lint.catalog.settings import DIFFUSION, LLM_OR_DIFFUSION, OUT_OF_TREE, Setting
from sglang_lint.model import Location, Value, WrittenValue, is_ascii_digits
from sglang_lint.report._text import sanitize
from sglang_lint.topology import Deployment, Server, is_secondary_node, is_started, server_sizes

# (label, argparse dest) shown for every server, in this order.
SHOWN_SETTINGS = (
    ("tp", "tp_size"),
    ("dp", "dp_size"),
    ("enable-dp-attention", "enable_dp_attention"),
    ("attn-dp", "attn_dp_size"),
    ("attn-cp", "attn_cp_size"),
    ("pp", "pp_size"),
    ("unified-memory", "enable_unified_memory"),
    ("port", "port"),
    ("host", "host"),
    ("bootstrap-port", "disaggregation_bootstrap_port"),
    ("model", "model_path"),
)


def _where(setting: Setting) -> str:
    if setting.location is None:
        return "default"
    where = f"{setting.location.path}:{setting.location.line}:{setting.location.column} {setting.spelling}"
    if setting.origin is not None and setting.origin != setting.location:
        where += f" (value from {setting.origin.path}:{setting.origin.line}:{setting.origin.column})"
    return where


def _server_rows(server: Server) -> list[tuple[str, str, str]]:
    rows = []
    for label, dest in SHOWN_SETTINGS:
        if not server.settings.has_option(dest):
            continue
        setting = server.setting(dest)
        rows.append((label, setting.value.describe(), _where(setting)))
    return rows


def _at(location: Location) -> str:
    return f"{location.path}:{location.line}:{location.column}"


def _launch_rows(server: Server) -> list[tuple[str, str, str]]:
    """What the job file says about the server besides its argv (an srt-slurm
    recipe): its workers, nodes and GPUs, container image and environment."""
    launch = server.launch
    rows = []
    resources = launch.resources
    if resources is not None:
        for label, written in (("workers", resources.workers), ("nodes", resources.nodes), ("gpus-per-node", resources.gpus_per_node)):
            if written is not None:
                rows.append((label, written.value.describe(), _at(written.location)))
        if resources.gpus_per_worker is not None:
            rows.append(("gpus-per-worker", str(resources.gpus_per_worker), f"srtctl's share ({_at(resources.location)})"))
    if launch.container_image is not None:
        rows.append(("container", launch.container_image.value.describe(), _at(launch.container_image.location)))
    if launch.environment:
        rows.append(("environment", " ".join(f"{name}={value.describe()}" for name, value in launch.environment), ""))
    return rows


def gpu_shortfall(server: Server) -> str | None:
    """Why the GPUs the job file gives each worker cannot hold the server's
    tp x pp ranks (SGLang starts one process a GPU), or None."""
    resources = server.launch.resources
    if resources is None or resources.gpus_per_worker is None:
        return None
    sizes = server_sizes(server)
    tp, pp = sizes.tp.value, sizes.pp.value
    if not (tp.is_known and pp.is_known and is_ascii_digits(tp.text) and is_ascii_digits(pp.text)):
        return None
    needed = int(tp.text) * int(pp.text)
    if needed <= resources.gpus_per_worker:
        return None
    return f"each worker gets {resources.gpus_per_worker} GPUs but tp x pp = {tp.text} x {pp.text} needs {needed}"


def render_text(deployments: Sequence[Deployment], version: str) -> str:
    out: list[str] = [f"sglang {version} option semantics"]
    if not deployments:
        out.append("No SGLang launches found.")
        return "\n".join(out) + "\n"
    for number, deployment in enumerate(deployments, 1):
        out.append("")
        if deployment.how == "manifest":
            how = f"from manifest {deployment.source}"
        else:
            how = f"grouped by {deployment.how}"
        out.append(f"Deployment {number}: {sanitize(deployment.name)} ({sanitize(how)})")
        for router in deployment.routers:
            settings = router.settings
            targets = [f"prefill {e.url.describe()}" + (f" bootstrap {e.bootstrap_port.describe()}" if e.bootstrap_port else "") for e in settings.prefills]
            targets += [f"decode {e.url.describe()}" for e in settings.decodes]
            unseen = f"; words it cannot see from {settings.unseen}" if settings.opaque else ""
            out.append(f"  router   {router.label}  " + sanitize((", ".join(targets) or "no PD endpoints") + unseen))
        for server in deployment.servers:
            note = "  (node-rank > 0: not paired)" if is_secondary_node(server) else ""
            if not is_started(server):
                note = "  (a configuration a test only inspects: not paired)"
            if server.settings.program in (DIFFUSION, OUT_OF_TREE):
                # Not the LLM server: no attention TP, never paired (catalog/argv).
                out.append(f"  {server.role:<8} {server.label}  not paired: {sanitize(server.settings.program_reason)}")
            else:
                out.append(f"  {server.role:<8} {server.label}  attention TP {sanitize(server.attn_tp.value.describe())}"
                           f" = {sanitize(server.attn_tp.explanation)}{note}")
            if server.settings.program == LLM_OR_DIFFUSION:
                out.append(f"           ? {sanitize(server.settings.program_reason)}")
            if server.launch.context:
                out.append(f"           via {sanitize(server.launch.context)}")
            if server.judged is not None and server.judged.why:
                out.append(f"           {sanitize(server.judged.note)}")
            for label, value, where in _server_rows(server) + _launch_rows(server):
                out.append(f"           {label:<20} {sanitize(value):<14} {sanitize(where)}".rstrip())
            shortfall = gpu_shortfall(server)
            if shortfall is not None:
                out.append(f"           ! {sanitize(shortfall)}")
            for problem in server.settings.problems:
                out.append(f"           ! {sanitize(problem.message)} ({problem.location.path}:{problem.location.line})")
            for opaque in server.settings.opaque:
                out.append(f"           ? words not known statically at {opaque.path}:{opaque.line}:{opaque.column}")
        pairs = deployment.pairs()
        out.append(f"  pairs checked: {len(pairs)}" + ("" if pairs else " (needs a prefill and a decode)"))
    return "\n".join(out) + "\n"


def _location(location: Location | None) -> dict[str, Any] | None:
    if location is None:
        return None
    return {"filename": location.path, "row": location.line, "column": location.column}


def _value(value: Value) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": value.kind.value, "text": value.describe()}
    candidates = value.candidates()
    if candidates is not None:
        data["candidates"] = sorted(candidates)
    return data


def render_json(deployments: Sequence[Deployment], version: str) -> str:
    payload = {"target_version": version, "deployments": []}
    for deployment in deployments:
        entry: dict[str, Any] = {
            "name": deployment.name,
            "grouped_by": deployment.how,
            "manifest": deployment.source or None,
            "routers": [
                {
                    "location": _location(router.settings.launch.location),
                    "prefill": [{"url": e.url.describe(), "bootstrap_port": e.bootstrap_port.describe() if e.bootstrap_port else None} for e in router.settings.prefills],
                    "decode": [{"url": e.url.describe()} for e in router.settings.decodes],
                }
                for router in deployment.routers
            ],
            "servers": [],
            "pairs": [[p.label, d.label] for p, d in deployment.pairs()],
        }
        for server in deployment.servers:
            entry["servers"].append(
                {
                    "location": _location(server.launch.location),
                    "role": server.role,
                    "entry_point": server.launch.entry.value,
                    # The server program `sglang serve` starts (catalog/argv), and why when not the LLM server.
                    "program": server.settings.program,
                    "program_reason": server.settings.program_reason or None,
                    "context": server.launch.context or None,
                    "under_test": server.launch.under_test.value if not is_started(server) else None,
                    # A launch variant (issue 16): the decisions on its paths.
                    "path_condition": [{"text": step.text, "taken": step.taken, "location": _location(step.location)} for step in server.launch.path_condition],
                    "attention_tp": {**_value(server.attn_tp.value), "explanation": server.attn_tp.explanation},
                    # The release whose options judged it, and the fact that chose it (catalog/versions).
                    "sglang_version": server.settings.version,
                    "sglang_version_from": server.judged.why if server.judged is not None and server.judged.why else None,
                    "settings": {
                        dest: {
                            **_value(server.setting(dest).value),
                            "default": server.setting(dest).is_default,
                            "spelling": server.setting(dest).spelling or None,
                            "location": _location(server.setting(dest).location),
                            "origin": _location(server.setting(dest).origin),
                        }
                        for _, dest in SHOWN_SETTINGS
                        if server.settings.has_option(dest)
                    },
                    "problems": [{"kind": p.kind, "message": p.message, "location": _location(p.location)} for p in server.settings.problems],
                    **_launch_json(server),
                }
            )
        payload["deployments"].append(entry)
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


def _written(written: WrittenValue | None) -> dict[str, Any] | None:
    return None if written is None else {**_value(written.value), "location": _location(written.location)}


def _launch_json(server: Server) -> dict[str, Any]:
    """The job file's facts about the server (an srt-slurm recipe), when it has any."""
    launch = server.launch
    data: dict[str, Any] = {}
    resources = launch.resources
    if resources is not None:
        data["resources"] = {
            "location": _location(resources.location),
            "workers": _written(resources.workers),
            "nodes": _written(resources.nodes),
            "gpus_per_node": _written(resources.gpus_per_node),
            "gpus_per_worker": resources.gpus_per_worker,
            "nodes_per_worker": resources.nodes_per_worker,
            "gpu_shortfall": gpu_shortfall(server),
        }
    if launch.container_image is not None:
        data["container_image"] = _written(launch.container_image)
    if launch.environment:
        data["environment"] = {name: value.describe() for name, value in launch.environment}
    return data
