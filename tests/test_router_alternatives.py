"""Launches of several places that answer at one URL of a router (issue 20's
sweep: a directory of alternative setups, TonyLi15/sglang-benchmark's layout):
one of them answers at a time, so a pair finding that holds with some of them
only is a warning naming the launch it needs (variant_findings.fold_alternatives);
one that holds with each of them stays an error."""

from __future__ import annotations

from sglang_lint.model import Severity
from sglang_lint.pipeline import LintOptions, lint_texts

UM = "--enable-unified-memory"


def _prefill(tp: int, port: str = "30000") -> str:
    return f"python3 -m sglang.launch_server --model-path /m --disaggregation-mode prefill {UM} --tp {tp} --host 0.0.0.0 --port {port}\n"


DECODE = f"python3 -m sglang.launch_server --model-path /m --disaggregation-mode decode {UM} --tp 8 --host 0.0.0.0 --port 30001\n"


def _codes(result) -> list[tuple[str, str, str]]:
    return sorted((f.code, f.severity.value, f.message.split(",")[0]) for f in result.findings)


def test_a_mismatch_with_one_of_the_alternatives_is_a_warning_naming_it() -> None:
    router = "python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://10.0.0.2:30001\n"
    result = lint_texts({"d/p_a.sh": _prefill(8), "d/p_b.sh": _prefill(4), "d/decode.sh": DECODE, "d/router.sh": router}, LintOptions())
    (finding,) = result.findings
    assert (finding.code, finding.severity) == ("SGL001", Severity.WARNING)
    assert finding.message.startswith("when the prefill at http://10.0.0.1:30000 is the one of d/p_b.sh:1, attention TP differs")
    assert any("2 launches listen there: d/p_a.sh:1, d/p_b.sh:1" in note for note in finding.notes)


def test_a_mismatch_with_every_alternative_stays_an_error() -> None:
    router = "python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://10.0.0.2:30001\n"
    result = lint_texts({"d/p_a.sh": _prefill(4), "d/p_b.sh": _prefill(2), "d/decode.sh": DECODE, "d/router.sh": router}, LintOptions())
    assert [(f.code, f.severity) for f in result.findings] == [("SGL001", Severity.ERROR)] * 2
    assert not any(f.message.startswith("when") for f in result.findings)


def test_servers_that_may_each_have_a_url_of_their_own_are_not_alternatives() -> None:
    """Two prefill URLs whose hosts are not known, and two prefill launches on
    their port: both may run at once (one per node), so the router pairs each."""
    router = 'python3 -m sglang_router.launch_router --pd-disaggregation --prefill "http://$P1:30000" --prefill "http://$P2:30000" --decode http://10.0.0.2:30001\n'
    result = lint_texts({"d/p_a.sh": _prefill(8), "d/p_b.sh": _prefill(4), "d/decode.sh": DECODE, "d/router.sh": router}, LintOptions())
    assert _codes(result) == [("SGL001", "error", "attention TP differs across the pair: prefill 4")]


def test_variants_of_one_launch_at_the_url_are_folded_as_variants() -> None:
    """One script whose tp depends on a variable is one launch: its variants
    are not alternatives of each other (fold names the path instead)."""
    router = "python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://10.0.0.2:30001\n"
    prefill = 'if [ -n "$BIG" ]; then TP=8; else TP=4; fi\n' + _prefill(8).replace("--tp 8", "--tp $TP")
    result = lint_texts({"d/prefill.sh": prefill, "d/decode.sh": DECODE, "d/router.sh": router}, LintOptions())
    (finding,) = result.findings
    assert finding.severity is Severity.WARNING and finding.message.startswith("when $BIG is empty")


def test_a_routers_url_decides_only_the_pairs_it_routes() -> None:
    """Two routers of one directory, each naming its own decode, whose prefill
    URLs both fit two prefill launches: the condition "when the prefill at
    URL is ..." of the pair behind one router is that router's URL. Each
    finding was prefixed with both routers' conditions, one of a router that
    never routes that pair (found once the 1PxD router of TonyLi15's layout,
    its --decode URLs added in a loop, was read)."""
    near = DECODE.replace("--tp 8", "--tp 4").replace("30001", "30002")
    routers = {
        "d/router_a.sh": "python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://10.0.0.2:30001\n",
        "d/router_b.sh": 'python3 -m sglang_router.launch_router --pd-disaggregation --prefill "http://${P:-10.0.0.1}:30000" --decode http://10.0.0.2:30002\n',
    }
    result = lint_texts({"d/p_a.sh": _prefill(8), "d/p_b.sh": _prefill(4), "d/decode.sh": DECODE, "d/near.sh": near, **routers}, LintOptions())
    messages = sorted(f.message for f in result.findings)
    assert len(messages) == 2 and all(message.count("when the prefill at") == 1 for message in messages)
    assert messages[0].startswith("when the prefill at http://${P:-10.0.0.1}:30000 is the one of d/p_a.sh:1, attention TP differs")
    assert messages[1].startswith("when the prefill at http://10.0.0.1:30000 is the one of d/p_b.sh:1, attention TP differs")
