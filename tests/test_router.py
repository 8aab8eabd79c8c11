"""The router's arguments as pairing reads them (sglang-router 0.3.2
launch_router.py: --prefill URL [BOOTSTRAP_PORT] with nargs="+" and
action="append"; --decode URL with action="append")."""

from __future__ import annotations

import pytest

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


# A router whose --decode endpoints a loop adds, one per decode server (the
# count is the environment's): what the loop adds is words we cannot see, the
# words around them are the router's. Three ways scripts write it.
_LOOP_BUILT = {
    "array": (
        "ARGS=(--pd-disaggregation --prefill http://10.0.0.1:30000)\n"
        "for ((i = 0; i < NUM_DECODE; i++)); do\n"
        '    ARGS+=(--decode "http://127.0.0.1:$((31000 + i))")\n'
        "done\n"
        'python3 -m sglang_router.launch_router "${ARGS[@]}" --host 0.0.0.0 --port 8000\n'
    ),
    "string run with eval": (
        'CMD="python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000"\n'
        "for ((i = 0; i < NUM_DECODE; i++)); do\n"
        '    CMD="${CMD} --decode http://127.0.0.1:$((31000 + i))"\n'
        "done\n"
        'CMD="$CMD --host 0.0.0.0 --port 8000"\n'
        'eval "$CMD"\n'
    ),
    "string split unquoted": (
        'ARGS="--pd-disaggregation --prefill http://10.0.0.1:30000"\n'
        "for ((i = 0; i < NUM_DECODE; i++)); do\n"
        '    ARGS="$ARGS --decode http://127.0.0.1:$((31000 + i))"\n'
        "done\n"
        "python3 -m sglang_router.launch_router $ARGS --host 0.0.0.0 --port 8000\n"
    ),
}


@pytest.mark.parametrize("form", sorted(_LOOP_BUILT))
def test_a_router_whose_endpoints_a_loop_adds_keeps_the_words_around_them(form: str) -> None:
    """The array's words were merged into one unknown word, so the router was
    no PD router and the topology dropped it without a word; the string's
    were one unknown, and `eval "$CMD"` was a launch not analyzed (a public
    1PxD benchmark's router)."""
    result = analyze_shell("r.sh", _LOOP_BUILT[form])
    assert not result.notes
    (launch,) = result.routers
    words = [(token.value.describe(), token.spread) for token in launch.args]
    assert words[:3] == [("--pd-disaggregation", False), ("--prefill", False), ("http://10.0.0.1:30000", False)]
    assert words[3][1] and "differ between branches" in words[3][0]  # any number of words
    assert words[4:] == [("--host", False), ("0.0.0.0", False), ("--port", False), ("8000", False)]
    router = parse_router_args(launch)
    assert router.pd_disaggregation and router.opaque and [e.url.describe() for e in router.prefills] == ["http://10.0.0.1:30000"]


def test_a_string_a_loop_adds_words_to_is_one_word_where_it_is_quoted() -> None:
    """Quoted, the string is one word whatever the loop added (its middle is
    what we cannot see); split, it is any number of words."""
    script = (
        'NAME="served"\n'
        "for ((i = 0; i < N; i++)); do\n"
        '    NAME="$NAME model-$i"\n'
        "done\n"
        'python3 -m sglang.launch_server --model-path m --served-model-name "$NAME" --port 30000\n'
    )
    (server,) = analyze_shell("r.sh", script).servers
    tokens = [(token.value.describe(), token.spread) for token in server.args]
    assert tokens[:3] == [("--model-path", False), ("m", False), ("--served-model-name", False)]
    assert not tokens[3][1] and tokens[3][0].startswith("served")
    assert tokens[4:] == [("--port", False), ("30000", False)]


def test_a_router_beside_a_pd_router_is_shown() -> None:
    """A router that is no PD router (or whose words we cannot see) in the
    scope of one that is: the scope's deployment was left out once the PD
    router had its own, and the router with it, without a word."""
    from sglang_lint.pipeline import lint_texts

    lint = lint_texts(
        {
            "pd.sh": "python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://10.0.0.2:30000\n",
            "dp.sh": "python3 -m sglang_router.launch_router --worker-urls http://10.0.0.3:30000 --port 8001\n",
        }
    )
    shown = sorted(router.label for deployment in lint.deployments for router in deployment.routers)
    assert shown == ["dp.sh:1", "pd.sh:1"]


def test_an_opaque_router_may_name_the_servers_no_router_names() -> None:
    """The decode servers a loop starts, behind a router whose --decode URLs
    the same kind of loop adds: the router names its prefill, and may name
    them by the words we cannot see; they pair (and SGL001 holds). Before, the
    prefill was the router's and the decode the file's, and no pair was
    checked (fixtures/router-endpoints-loop)."""
    from sglang_lint.pipeline import lint_texts

    script = (
        "python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory --tp 4 --port 30000 &\n"
        "for ((i = 0; i < N; i++)); do\n"
        "  python3 -m sglang.launch_server --model-path m --disaggregation-mode decode --enable-unified-memory --tp 2 --port $((31000 + i)) &\n"
        "done\n"
        "ARGS=(--pd-disaggregation --prefill http://127.0.0.1:30000)\n"
        'for ((i = 0; i < N; i++)); do ARGS+=(--decode "http://127.0.0.1:$((31000 + i))"); done\n'
        'python3 -m sglang_router.launch_router "${ARGS[@]}"\n'
    )
    lint = lint_texts({"run.sh": script})
    assert [finding.code for finding in lint.findings] == ["SGL001"]
    (routed,) = [deployment for deployment in lint.deployments if deployment.routers]
    assert sorted(server.role for server in routed.servers) == ["decode", "prefill"]


def test_a_decode_script_past_the_path_bound_still_pairs_with_its_directory() -> None:
    """Seven independent optional flags (`[ -n "$X" ] && ARGS="$ARGS --x $X"`)
    make 128 paths, past the bound: the variants past it merged the words
    that may set the mode, and their role is not known. The file held
    "decode" and "unknown", so it stayed a scope of its own and never paired
    with the prefill script beside it (a public AMD PD benchmark's
    1_decode.sh / 2_prefill.sh)."""
    from sglang_lint.pipeline import lint_texts

    flags = "".join(f'[ -n "$F{n}" ] && ARGS="$ARGS --served-model-name m{n}"\n' for n in range(7))
    decode = 'ARGS=""\n' + flags + "python3 -m sglang.launch_server --model-path m --disaggregation-mode decode --enable-unified-memory --tp 2 $ARGS\n"
    prefill = "python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory --tp 4\n"
    lint = lint_texts({"pd/decode.sh": decode, "pd/prefill.sh": prefill})
    assert any(finding.code == "SGL001" for finding in lint.findings)
