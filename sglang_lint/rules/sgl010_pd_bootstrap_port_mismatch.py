"""SGL010 pd-bootstrap-port-mismatch."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.catalog.settings import Setting
from sglang_lint.model import Finding, Related, Value, provably_different
from sglang_lint.rules.base import Example, Rule, RuleContext, give_decode, launch_noqa_ranges, setting_location
from sglang_lint.rules.messages import clip
from sglang_lint.topology import Deployment, Router, Server, endpoint_matches


def _port_source(server: Server, setting: Setting) -> str:
    """``--disaggregation-bootstrap-port 9000 (run.sh:3)`` or ``8998 (default)``."""
    if setting.is_default:
        return f"{_plain(setting.value)} (SGLang's default, not set)"
    return f"{_plain(setting.value)} ({setting.describe_source()})"


def _plain(value: Value) -> str:
    """The port itself when there is one (``9100`` for ``${BOOT:-9100}``)."""
    candidates = value.candidates()
    if candidates is not None and len(candidates) == 1:
        return next(iter(candidates))
    return value.describe()


def _router_noqa(router: Router) -> tuple[tuple[str, int, int], ...]:
    launch = router.settings.launch
    return tuple((launch.path, first, last) for first, last in launch.line_ranges)


class PdBootstrapPortMismatch(Rule):
    code = "SGL010"
    name = "pd-bootstrap-port-mismatch"
    fix = "sometimes"
    summary = "The bootstrap port a decode connects to is not the one its prefill listens on"
    doc = """\
## What it does
A decode fetches each request's KV cache from the prefill's bootstrap server, at
the bootstrap port the request carries. This rule checks, for every prefill x
decode pair a router can form:

1. when a router names the prefill with a port (`--prefill URL PORT`), that port
   must equal the prefill's `--disaggregation-bootstrap-port` (default 8998);
2. when the router names the prefill without a port (`--prefill URL` or
   `--prefill URL none`), the request carries no bootstrap port and the decode
   uses **its own** `--disaggregation-bootstrap-port`, which must then equal the
   prefill's.

Only ports known on both sides are compared (`${VAR:-9000}` counts as 9000).

## Why is this bad?
Both servers and the router start and pass their health checks, but the decode
connects to a port where nothing (or another prefill) listens: requests hang or
time out waiting for the KV transfer. When a request has no bootstrap port the
scheduler fills in the local server's own (`recv_req.bootstrap_port =
get_disagg().disaggregation_bootstrap_port`, `sglang/srt/managers/scheduler.py:2970`
in 0.5.23), so a decode whose port differs from the prefill's looks in the wrong
place.

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --port 30000 \\
    --disaggregation-bootstrap-port 9000 &
python -m sglang.launch_server --disaggregation-mode decode --port 30001 &
python -m sglang_router.launch_router --pd-disaggregation \\
    --prefill http://127.0.0.1:30000 8998 --decode http://127.0.0.1:30001
```

## How to fix
Give the router the port the prefill listens on (`--prefill URL 9000`), or
change the prefill's `--disaggregation-bootstrap-port`. When the router gives no
port, set the same `--disaggregation-bootstrap-port` on the decode as on the
prefill (or give the router the port explicitly).

## Versions
The fallback to the local server's own bootstrap port is in every release read
(`managers/scheduler.py` `if recv_req.bootstrap_port is None`): 0.5.4 L1181,
0.5.9 L1497, 0.5.10 L1741, 0.5.11 L1967, 0.5.13 L1925, 0.5.14 L2014, 0.5.15
L2055, 0.5.16 L2093, 0.5.17 L2320, 0.5.18 L2388, 0.5.19 L2608, 0.5.20 L2734,
0.5.21 L2759, 0.5.22 L2847, 0.5.23 L2970. The router's `--prefill URL
[BOOTSTRAP_PORT]` is sglang-router 0.3.2 `launch_router.py`.
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --port 30000 --disaggregation-bootstrap-port 9000 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --port 30001 &\n"
                    "python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 8998 --decode http://127.0.0.1:30001\n"
                )
            },
            findings=1,
            message_contains="router gives bootstrap port 8998",
        ),
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --port 30000 --disaggregation-bootstrap-port ${BOOT:-9100} &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --port 30001 &\n"
                    "python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001\n"
                )
            },
            findings=1,
            message_contains="the decode uses its own",
        ),
        Example(
            {
                # Fixed by giving the decode the prefill's port (--fix --unsafe-fixes).
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --port 30000 --disaggregation-bootstrap-port 9001 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --port 30001 --disaggregation-bootstrap-port 9002 &\n"
                    "python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001\n"
                )
            },
            findings=1,
            message_contains="prefill 9001, decode 9002",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --port 30000 --disaggregation-bootstrap-port 9000 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --port 30001 &\n"
                    "python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 9000 --decode http://127.0.0.1:30001\n"
                )
            }
        ),
        Example(
            {
                # No router port: both sides use the same port; the second prefill's
                # port comes from "$@" of the router and is not known.
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --port 30000 --disaggregation-bootstrap-port 9000 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --port 30001 --disaggregation-bootstrap-port 9000 &\n"
                    "python -m sglang.launch_server --disaggregation-mode prefill --port 30002 --disaggregation-bootstrap-port 9001 &\n"
                    "python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 "
                    '--prefill http://127.0.0.1:30002 "$@" --decode http://127.0.0.1:30001\n'
                )
            }
        ),
        Example(
            {
                # No router in sight: what port the router gives is not known.
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --disaggregation-bootstrap-port 9000 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --port 30001 &\n"
                )
            }
        ),
    ]

    def check_pair(self, context: RuleContext, deployment: Deployment, prefill: Server, decode: Server) -> Iterable[Finding]:
        prefill_port = prefill.setting("disaggregation_bootstrap_port")
        decode_port = decode.setting("disaggregation_bootstrap_port")
        for router in deployment.routers:
            endpoints = [e for e in router.settings.prefills if endpoint_matches(e, prefill)]
            for endpoint in endpoints:
                if endpoint.bootstrap_port is not None:
                    yield from self._router_port(router, endpoint, prefill, prefill_port)
                elif any(endpoint_matches(e, decode) for e in router.settings.decodes):
                    yield from self._decode_port(router, endpoint, prefill, prefill_port, decode, decode_port)

    def _router_port(self, router: Router, endpoint, prefill: Server, prefill_port: Setting) -> Iterable[Finding]:
        if not provably_different(endpoint.bootstrap_port, prefill_port.value):
            return
        given = _plain(endpoint.bootstrap_port)
        if endpoint.bootstrap_port.uses_default:
            given += f" (the default of {endpoint.bootstrap_port.describe()})"
        location = endpoint.bootstrap_location or endpoint.location
        yield self.finding(
            f"the router gives bootstrap port {clip(_plain(endpoint.bootstrap_port), 24)}, but the prefill listens on "
            f"{clip(_plain(prefill_port.value), 24)}",
            location,
            related=[Related(setting_location(prefill, prefill_port), f"prefill bootstrap port {clip(prefill_port.value.describe())}")],
            noqa_ranges=_router_noqa(router) + launch_noqa_ranges(prefill),
            help=(
                f"write --prefill {endpoint.url.describe()} {_plain(prefill_port.value)} in the router, or change "
                "the prefill's --disaggregation-bootstrap-port"
            ),
            notes=(
                f"the router ({router.label}) names prefill {endpoint.url.describe()} with bootstrap port {given}",
                f"that prefill ({prefill.label}) listens on {_port_source(prefill, prefill_port)}",
                "decodes connect to the port the router gives: requests hang waiting for the KV transfer",
            ),
        )

    def _decode_port(
        self, router: Router, endpoint, prefill: Server, prefill_port: Setting, decode: Server, decode_port: Setting
    ) -> Iterable[Finding]:
        if not provably_different(decode_port.value, prefill_port.value):
            return
        yield self.finding(
            f"bootstrap port differs across the pair: prefill {clip(_plain(prefill_port.value), 24)}, decode "
            f"{clip(_plain(decode_port.value), 24)}, and the router gives none",
            setting_location(decode, decode_port),
            related=[
                Related(setting_location(prefill, prefill_port), f"prefill bootstrap port {prefill_port.value.describe()}"),
                Related(endpoint.location, "router names the prefill without a bootstrap port"),
            ],
            noqa_ranges=launch_noqa_ranges(decode),
            help=(
                f"set --disaggregation-bootstrap-port {_plain(prefill_port.value)} on the decode, or give the router "
                f"the port: --prefill {endpoint.url.describe()} {_plain(prefill_port.value)}"
            ),
            notes=(
                f"the router ({router.label}) names prefill {endpoint.url.describe()} without a bootstrap port, so "
                "the decode uses its own --disaggregation-bootstrap-port (sglang/srt/managers/scheduler.py:2970 in 0.5.23)",
                f"decode ({decode.label}): {_port_source(decode, decode_port)}",
                f"prefill ({prefill.label}): {_port_source(prefill, prefill_port)}",
                "the decode connects to the wrong port and requests hang waiting for the KV transfer",
            ),
            fixes=give_decode("bootstrap port", "--disaggregation-bootstrap-port", prefill_port, decode, decode_port),
        )
