"""The arguments of the PD router (``python -m sglang_router.launch_router`` and the
``sglang-router`` binary), as far as pairing needs them.

sglang-router 0.3.2 ``launch_router.py`` declares ``--prefill`` with
``nargs="+"`` and ``action="append"`` (``URL [BOOTSTRAP_PORT]``, the port may be
``none``) and ``--decode`` with ``action="append"``; ``--pd-disaggregation`` is a
store_true flag. Only these and ``--host``/``--port`` matter to sglang-lint.
"""

from __future__ import annotations

from msgspec import Struct

from sglang_lint.model import ArgToken, Kind, Location, RouterLaunch, Value


class Endpoint(Struct, frozen=True):
    """A server URL the router was given."""

    url: Value
    host: Value
    port: Value
    location: Location
    # Only for --prefill: the bootstrap port the router will use (None: not given).
    bootstrap_port: Value | None = None
    bootstrap_location: Location | None = None


class RouterSettings(Struct):
    launch: RouterLaunch
    pd_disaggregation: bool = False
    prefills: list[Endpoint] = []
    decodes: list[Endpoint] = []
    # Words we cannot see ("$@"): the router may have more endpoints than listed.
    opaque: bool = False
    # The first of them, as the topology shows it.
    unseen: str = ""


def _option_name(token: ArgToken) -> str | None:
    prefix = token.value.literal_prefix()
    if not prefix.startswith("--"):
        return None
    if token.value.is_known:
        return token.value.text.split("=", 1)[0]
    if "=" in prefix:
        return prefix.split("=", 1)[0]
    return None


def parse_router_args(launch: RouterLaunch) -> RouterSettings:
    settings = RouterSettings(launch=launch)
    tokens = launch.args
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.spread or token.value.kind is Kind.UNKNOWN:
            settings.opaque = True
            settings.unseen = settings.unseen or token.value.describe()
            index += 1
            continue
        name = _option_name(token)
        index += 1
        if name is None:
            continue
        # argparse's unique-prefix abbreviations: the router's options are few and
        # these two have no other option sharing a prefix past "--p"/"--d"+"e".
        if name == "--pd-disaggregation" or (len(name) > 4 and "--pd-disaggregation".startswith(name)):
            settings.pd_disaggregation = True
            continue
        if name in ("--prefill", "--decode"):
            inline = None
            if "=" in token.value.literal_prefix():
                inline = token.value.drop_prefix(len(name) + 1)
            words: list[ArgToken] = []
            if inline is not None:
                words.append(ArgToken(inline, token.location, token.origin))
            while index < len(tokens) and _option_name(tokens[index]) is None and not tokens[index].spread:
                if inline is not None:
                    break
                words.append(tokens[index])
                index += 1
                if name == "--decode" or len(words) == 2:
                    break
            if not words:
                continue
            url = words[0]
            host, port = split_url(url.value)
            if name == "--prefill":
                bootstrap = words[1] if len(words) > 1 else None
                bootstrap_value = bootstrap.value if bootstrap is not None else None
                if bootstrap_value is not None and bootstrap_value.is_known and bootstrap_value.text.lower() == "none":
                    bootstrap_value = None
                elif bootstrap is None and inline is None and index < len(tokens) and tokens[index].spread:
                    # nargs="+": words we cannot see ("$@") right after the URL may
                    # give the bootstrap port.
                    bootstrap_value = Value.unknown(f"may be given by {tokens[index].value.describe()}")
                settings.prefills.append(
                    Endpoint(url.value, host, port, url.location, bootstrap_value, bootstrap.location if bootstrap else None)
                )
            else:
                settings.decodes.append(Endpoint(url.value, host, port, url.location))
    return settings


def split_url(url: Value) -> tuple[Value, Value]:
    """(host, port) of ``http://HOST:PORT/path`` as Values, keeping symbols:
    ``http://${PREFILL_HOST}:${PORT}`` gives ($PREFILL_HOST, $PORT)."""
    parts = list(url.parts) if url.kind is Kind.CONCAT else [url]
    if not parts or parts[0].kind not in (Kind.KNOWN, Kind.SYMBOL, Kind.ALTERNATIVES):
        return Value.unknown("URL not static"), Value.unknown("URL not static")
    if url.kind is Kind.ALTERNATIVES:
        hosts, ports = set(), set()
        for alternative in url.alternatives:
            host, port = split_url(Value.known(alternative))
            if not (host.is_known and port.is_known):
                return Value.unknown("URL"), Value.unknown("URL")
            hosts.add(host.text)
            ports.add(port.text)
        return Value.one_of(map(Value.known, hosts)), Value.one_of(map(Value.known, ports))
    # Drop the scheme from the known head.
    if parts[0].is_known and "://" in parts[0].text:
        parts[0] = Value.known(parts[0].text.split("://", 1)[1])
    elif parts[0].kind is not Kind.KNOWN and url.kind is not Kind.CONCAT:
        return Value.unknown(f"URL {url.describe()}"), Value.unknown(f"URL {url.describe()}")
    # Drop a path from the known tail.
    last = parts[-1]
    if last.is_known and "/" in last.text:
        parts[-1] = Value.known(last.text.split("/", 1)[0])
    # The port follows the last ':' in known text.
    for position in range(len(parts) - 1, -1, -1):
        part = parts[position]
        if part.is_known and ":" in part.text:
            head, _, tail = part.text.rpartition(":")
            host = Value.concat([*parts[:position], Value.known(head)])
            port = Value.concat([Value.known(tail), *parts[position + 1 :]])
            return host, port
    host = Value.concat(parts)
    if all(p.is_known for p in parts):
        return host, Value.known("80")
    return host, Value.unknown("no port in URL")
