"""The router's arguments as pairing reads them (sglang-router 0.3.2
launch_router.py: --prefill URL [BOOTSTRAP_PORT] with nargs="+" and
action="append"; --decode URL with action="append")."""

from __future__ import annotations

from sglang_lint.catalog.router import parse_router_args, split_url
from sglang_lint.model import Value
from sglang_lint.sources.shell import analyze_shell


def _router(script: str):
    result = analyze_shell("r.sh", script)
    assert len(result.routers) == 1
    return parse_router_args(result.routers[0])


def test_split_known_url() -> None:
    assert split_url(Value.known("http://10.0.0.1:30000")) == (Value.known("10.0.0.1"), Value.known("30000"))
    assert split_url(Value.known("http://host:8000/v1")) == (Value.known("host"), Value.known("8000"))
    assert split_url(Value.known("http://host")) == (Value.known("host"), Value.known("80"))


def test_split_url_with_symbols_keeps_them() -> None:
    url = Value.concat([Value.known("http://"), Value.symbol("$PREFILL_HOST"), Value.known(":"), Value.symbol("$PORT")])
    assert split_url(url) == (Value.symbol("$PREFILL_HOST"), Value.symbol("$PORT"))


def test_split_url_that_is_one_symbol_is_unknown() -> None:
    host, port = split_url(Value.symbol("$PREFILL_URL"))
    assert host.candidates() is None and port.candidates() is None


def test_prefill_with_bootstrap_port_and_decode() -> None:
    router = _router(
        "python -m sglang_router.launch_router --pd-disaggregation "
        "--prefill http://127.0.0.1:30000 8998 --prefill http://127.0.0.1:30002 none "
        "--decode http://127.0.0.1:30001 --port 8000\n"
    )
    assert router.pd_disaggregation
    assert [(e.port.text, e.bootstrap_port.text if e.bootstrap_port else None) for e in router.prefills] == [
        ("30000", "8998"),
        ("30002", None),
    ]
    assert [e.port.text for e in router.decodes] == ["30001"]
    assert router.prefills[0].location.line == 1


def test_equals_form_and_binary() -> None:
    router = _router("sglang-router launch --pd-disaggregation --prefill=http://a:1 --decode=http://b:2\n")
    assert [e.host.text for e in router.prefills] == ["a"]
    assert [e.port.text for e in router.decodes] == ["2"]


def test_unknown_words_make_router_opaque() -> None:
    router = _router('python -m sglang_router.launch_router --pd-disaggregation "$@"\n')
    assert router.opaque
    assert not router.prefills


def test_prefill_url_followed_by_unseen_words_may_have_a_bootstrap_port() -> None:
    # nargs="+": "$@" right after the URL may hold the bootstrap port.
    router = _router('python -m sglang_router.launch_router --pd-disaggregation --prefill http://a:1 "$@" --decode http://b:2\n')
    assert router.prefills[0].bootstrap_port is not None
    assert router.prefills[0].bootstrap_port.candidates() is None
    router = _router("python -m sglang_router.launch_router --pd-disaggregation --prefill http://a:1 --decode http://b:2\n")
    assert router.prefills[0].bootstrap_port is None
