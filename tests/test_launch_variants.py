"""Launch variants (issue 16): the argv along every path through the branches a
file does not decide, paired only where the paths can run together, with
findings that are errors on every path and warnings naming the condition on some.

The argv of each variant is held to real bash and CPython by the differential
oracles (tests/test_oracle_shell.py, and the stub tests below); here are the
model's own promises: forking, joining, the bounds, pairing and the findings.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from msgspec.structs import replace

from sglang_lint.model import Severity
from sglang_lint.pipeline import LintOptions, lint_paths, lint_texts
from sglang_lint.report import sarif
from sglang_lint.sources import paths
from sglang_lint.sources.python import analyze_python
from sglang_lint.sources.shell import analyze_shell

UM = "--enable-unified-memory"
ROOT = Path(__file__).resolve().parent.parent


def _variants(result) -> list[tuple[list[str], list[str]]]:
    return [([t.value.describe() for t in launch.args], [step.text for step in launch.path_condition]) for launch in result.servers]


def _lint(tmp_path, name: str, text: str):
    (tmp_path / name).write_text(text)
    return lint_paths([str(tmp_path / name)], LintOptions(cache=False))


def bash_python3_calls(tmp_path, script_text: str, env: dict, args=()) -> list[list[str]]:
    """The argv of each `python3` call bash makes running ``script_text`` with
    the environment ``env`` (a None value: unset), through a recording stub."""
    stub = tmp_path / "bin" / "python3"
    stub.parent.mkdir(exist_ok=True)
    stub.write_text('#!/bin/sh\nprintf "%s\\n" "$@" >> "$RECORD"\nprintf "\\036\\n" >> "$RECORD"\n')
    stub.chmod(0o755)
    script = tmp_path / "run.sh"
    script.write_text(script_text)
    record = tmp_path / "argv"
    variables = {"PATH": f"{stub.parent}:/usr/bin:/bin", "RECORD": str(record)}
    variables.update({name: value for name, value in env.items() if value is not None})
    subprocess.run(["bash", str(script), *args], env=variables, capture_output=True, text=True)
    text = record.read_text() if record.exists() else ""
    return [call.split("\n")[:-1] for call in text.split("\x1e\n")[:-1]]


def cpython_popen_calls(tmp_path, script, env: dict, drop: int, import_root=None) -> list[list[str]]:
    """The argv of each ``subprocess.Popen`` CPython makes running ``script``
    with ``env`` (Popen replaced by a recorder), the first ``drop`` words
    left out; ``import_root``: a directory its imports are read from."""
    (tmp_path / "record.py").write_text(
        textwrap.dedent(
            """\
            import json, subprocess, sys
            calls = []
            class Recorder:
                def __init__(self, argv, *a, **k):
                    calls.append(list(argv[int(sys.argv[2]):]))
                def poll(self):
                    return None  # still running
            subprocess.Popen = Recorder
            if len(sys.argv) > 3:
                sys.path.insert(0, sys.argv[3])
            exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), {"__name__": "__main__"})
            print(json.dumps(calls))
            """
        )
    )
    command = [sys.executable, str(tmp_path / "record.py"), str(script), str(drop), *([str(import_root)] if import_root is not None else [])]
    out = subprocess.run(command, env={"PATH": "/usr/bin:/bin", **env}, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


# -- the examples ------------------------------------------------------------

ARRAY_IN_BRANCH = f"""\
launch() {{
  cmd=(python -m sglang.launch_server --tp-size 8 --disaggregation-mode "$1" {UM})
  if [[ -n "$KV_DTYPE" ]]; then cmd+=(--kv-cache-dtype "$KV_DTYPE"); fi
  if [[ "$1" == decode && -n "$DPA" ]]; then cmd+=(--dp-size 8 --enable-dp-attention); fi
  "${{cmd[@]}}" &
}}
launch prefill
launch decode
"""


def test_an_array_appended_in_branches_is_one_variant_per_path() -> None:
    result = analyze_shell("run.sh", ARRAY_IN_BRANCH)
    assert result.notes == []  # once "launch not analyzed: ... differ between branches"
    prefills = [v for v in _variants(result) if "prefill" in v[0]]
    decodes = [v for v in _variants(result) if "decode" in v[0]]
    assert prefills == [
        (["--tp-size", "8", "--disaggregation-mode", "prefill", UM, "--kv-cache-dtype", "$KV_DTYPE"], ["$KV_DTYPE is non-empty"]),
        (["--tp-size", "8", "--disaggregation-mode", "prefill", UM], ["$KV_DTYPE is empty"]),
    ]
    assert len(decodes) == 4
    assert (["--tp-size", "8", "--disaggregation-mode", "decode", UM, "--dp-size", "8", "--enable-dp-attention"], ["$KV_DTYPE is empty", "$DPA is non-empty"]) in decodes


def test_a_mismatch_on_some_paths_is_a_warning_that_names_the_condition(tmp_path) -> None:
    result = _lint(tmp_path, "run.sh", ARRAY_IN_BRANCH)
    (finding,) = [f for f in result.findings if f.code == "SGL001"]
    assert finding.severity is Severity.WARNING
    assert finding.message.startswith("when $DPA is non-empty (")
    assert "attention TP differs across the pair: prefill 8, decode 1" in finding.message
    # $KV_DTYPE changes nothing the rule reads: only the decision that matters is named.
    assert "KV_DTYPE" not in finding.message
    assert [step.text for step in finding.path] == ["$DPA is non-empty"]
    assert any(r.message == "on this path: $DPA is non-empty" for r in finding.related)


def test_a_mismatch_on_every_path_stays_an_error(tmp_path) -> None:
    script = (
        'if [ -n "$BIG" ]; then TP=16; else TP=8; fi\n'
        f"python -m sglang.launch_server --disaggregation-mode prefill {UM} --tp $TP &\n"
        f"python -m sglang.launch_server --disaggregation-mode decode {UM} --tp 4 --port 30001 &\n"
    )
    result = _lint(tmp_path, "run.sh", script)
    (finding,) = [f for f in result.findings if f.code == "SGL001"]
    assert finding.severity is Severity.ERROR
    assert not finding.message.startswith("when")
    assert "this holds on every path through the branches; the first is shown" in finding.notes
    assert any("prefill 8, decode 4" in note for note in finding.notes)


def test_a_string_built_along_branches_and_an_alternate_word() -> None:
    script = (
        'ARGS="--disaggregation-mode prefill --tp-size 8"\n'
        '[ -n "$DPA" ] && ARGS="$ARGS --dp-size 8 --enable-dp-attention"\n'
        "python -m sglang.launch_server $ARGS ${EXTRA:+--page-size $EXTRA} &\n"
    )
    assert _variants(analyze_shell("run.sh", script)) == [
        (["--disaggregation-mode", "prefill", "--tp-size", "8", "--dp-size", "8", "--enable-dp-attention", "--page-size", "$EXTRA"], ["$DPA is non-empty", "$EXTRA is non-empty"]),
        (["--disaggregation-mode", "prefill", "--tp-size", "8", "--dp-size", "8", "--enable-dp-attention"], ["$DPA is non-empty", "$EXTRA is empty"]),
        (["--disaggregation-mode", "prefill", "--tp-size", "8", "--page-size", "$EXTRA"], ["$DPA is empty", "$EXTRA is non-empty"]),
        (["--disaggregation-mode", "prefill", "--tp-size", "8"], ["$DPA is empty", "$EXTRA is empty"]),
    ]


def test_the_same_decision_twice_is_one_decision() -> None:
    # `[ -n "$DPA" ]` and `${DPA:+...}` agree in one run: two paths, not four.
    script = 'A=\n[ -n "$DPA" ] && A=--enable-dp-attention\npython -m sglang.launch_server $A ${DPA:+--dp-size 8} &\n'
    assert _variants(analyze_shell("run.sh", script)) == [
        (["--enable-dp-attention", "--dp-size", "8"], ["$DPA is non-empty"]),
        ([], ["$DPA is empty"]),
    ]


def test_an_exit_ends_its_path() -> None:
    script = (
        'case "$ROLE" in\n  prefill) TP=8 ;;\n  decode) TP=4 ;;\n  *) echo usage; exit 1 ;;\nesac\n'
        "python -m sglang.launch_server --tp $TP &\n"
    )
    assert _variants(analyze_shell("run.sh", script)) == [
        (["--tp", "8"], ["$ROLE is prefill"]),
        (["--tp", "4"], ["$ROLE is decode"]),
    ]


PYTHON_LAUNCHER = f"""\
import os, subprocess, sys
ROLES = {{"prefill": 8, "decode": 8}}
def launch(role, tp):
    cmd = [sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", role, "--tp-size", str(tp), "{UM}"]
    if role == "decode":
        cmd.extend(["--dp-size", str(tp), "--enable-dp-attention"])
    cmd += ["--page-size", "64"] if os.getenv("BIG_PAGES") else []
    subprocess.Popen(cmd)
for i, (role, tp) in enumerate(ROLES.items()):
    launch(role, tp)
"""


def test_the_python_example() -> None:
    result = analyze_python("launch.py", PYTHON_LAUNCHER)
    assert _variants(result) == [
        (["--disaggregation-mode", "prefill", "--tp-size", "8", UM, "--page-size", "64"], ["$BIG_PAGES is non-empty"]),
        (["--disaggregation-mode", "prefill", "--tp-size", "8", UM], ["$BIG_PAGES is empty or unset"]),
        (["--disaggregation-mode", "decode", "--tp-size", "8", UM, "--dp-size", "8", "--enable-dp-attention", "--page-size", "64"], ["$BIG_PAGES is non-empty"]),
        (["--disaggregation-mode", "decode", "--tp-size", "8", UM, "--dp-size", "8", "--enable-dp-attention"], ["$BIG_PAGES is empty or unset"]),
    ]


@pytest.mark.parametrize("big_pages", [None, "1"])
def test_the_python_example_against_cpython(tmp_path, big_pages) -> None:
    """What CPython runs (subprocess.Popen replaced by a recorder) under each
    value of the environment variable is the variant whose condition holds."""
    (tmp_path / "launch.py").write_text(PYTHON_LAUNCHER)
    ran = cpython_popen_calls(tmp_path, tmp_path / "launch.py", {"BIG_PAGES": big_pages} if big_pages else {}, drop=3)  # after `python -m sglang.launch_server`
    want = "$BIG_PAGES is non-empty" if big_pages else "$BIG_PAGES is empty or unset"
    reported = [argv for argv, condition in _variants(analyze_python("launch.py", PYTHON_LAUNCHER)) if condition == [want]]
    assert ran == reported


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("dpa", [None, "1"])
def test_the_shell_example_against_bash(tmp_path, dpa) -> None:
    stub = tmp_path / "bin" / "python"
    stub.parent.mkdir()
    stub.write_text('#!/bin/sh\nprintf "%s\\n" "$*" >> "$LOG"\n')
    stub.chmod(0o755)
    (tmp_path / "run.sh").write_text(ARRAY_IN_BRANCH + "wait\n")
    env = {"PATH": f"{stub.parent}:/usr/bin:/bin", "LOG": str(tmp_path / "log")} | ({"DPA": dpa} if dpa else {})
    subprocess.run(["bash", str(tmp_path / "run.sh")], env=env, check=True)
    ran = sorted((tmp_path / "log").read_text().splitlines())
    holds = {"$DPA is non-empty": bool(dpa), "$DPA is empty": not dpa, "$KV_DTYPE is empty": True, "$KV_DTYPE is non-empty": False}
    reported = sorted(
        " ".join(["-m", "sglang.launch_server", *argv])
        for argv, condition in _variants(analyze_shell("run.sh", ARRAY_IN_BRANCH))
        if all(holds[text] for text in condition)
    )
    assert ran == reported


# -- pairing -------------------------------------------------------------------------


def test_variants_pair_only_where_their_paths_can_run_together(tmp_path) -> None:
    # One environment: $DPA set for the prefill means set for the decode too, so
    # the prefill with DP attention never meets the decode without it.
    script = (
        "launch() {\n"
        f'  cmd=(python -m sglang.launch_server --disaggregation-mode "$1" --tp-size 8 {UM} --port "$2")\n'
        '  [ -n "$DPA" ] && cmd+=(--dp-size 8 --enable-dp-attention)\n'
        '  "${cmd[@]}" &\n'
        "}\nlaunch prefill 30000\nlaunch decode 30001\n"
    )
    result = _lint(tmp_path, "run.sh", script)
    assert [f.code for f in result.findings] == []
    (deployment,) = result.deployments
    assert len(deployment.servers) == 4 and len(deployment.pairs()) == 2


def test_role_choosing_decisions_still_pair(tmp_path) -> None:
    # A script run once per role: prefill and decode come from different runs.
    script = (
        'case "$ROLE" in\n'
        f"  prefill) python -m sglang.launch_server --disaggregation-mode prefill {UM} --tp 8 ;;\n"
        f"  decode) python -m sglang.launch_server --disaggregation-mode decode {UM} --tp 4 --port 30001 ;;\n"
        "esac\n"
    )
    result = _lint(tmp_path, "run.sh", script)
    (finding,) = [f for f in result.findings if f.code == "SGL001"]
    assert finding.severity is Severity.ERROR  # the one pair there is fails


def test_sarif_shows_the_path_as_a_code_flow(tmp_path) -> None:
    result = _lint(tmp_path, "run.sh", ARRAY_IN_BRANCH)
    log = sarif.sarif_log(result.findings, result.sources)
    (entry,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "SGL001"]
    steps = entry["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [step["location"]["message"]["text"] for step in steps][:1] == ["$DPA is non-empty"]
    assert len(steps) == 2  # the decision, then the finding itself
    assert steps[1]["location"]["physicalLocation"] == entry["locations"][0]["physicalLocation"]


# A multi-node PD script: rank 0 runs the prefill (and, with `router`, the
# router), the other ranks the decode; the model comes from `$MODEL_NAME`.
MODEL_BY_NODE = """\
#!/bin/bash
MODEL_NAME="${MODEL_NAME:-}"
EXTRA=""
[ -n "$MODEL_NAME" ] && EXTRA="$(cat flags.txt)"
if [ -n "$MODEL_NAME" ]; then MODEL=/models/big; else MODEL=/models/default; fi
if [ "$NODE_RANK" -eq 0 ]; then
  python3 -m sglang.launch_server --model-path $MODEL --disaggregation-mode prefill --port 30000 $EXTRA &
ROUTER
else
  python3 -m sglang.launch_server --model-path $MODEL --disaggregation-mode decode --port 30001 &
fi
"""
ROUTER_LINE = "  python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001 &"


@pytest.mark.parametrize("router", [False, True])
def test_a_variant_of_unknown_role_makes_no_decision_one_that_chooses_the_role(router) -> None:
    """Where `$MODEL_NAME` is set, the prefill takes words we cannot see (its
    role is unknown there). Over the file, the roles where the decision went
    one way (unknown, decode) then differed from the other (prefill, decode),
    so it was taken for one that chooses the role, like `$NODE_RANK`, and the
    prefill without a model name paired with the decode with one: SGL005
    "prefill /models/default, decode /models/big" (AMD's
    sglang_disagg_server.sh). A router's deployment, which holds only the
    servers it names, told it the same way without the unknown variants."""
    text = MODEL_BY_NODE.replace("ROUTER\n", (ROUTER_LINE + "\n") if router else "")
    result = lint_texts({"pd.sh": text}, LintOptions())
    assert [f.code for f in result.findings if f.code.startswith("SGL0")] == [], [f.message for f in result.findings]


def test_a_value_read_as_an_empty_default_pairs_only_where_that_variable_is_empty() -> None:
    """The prefill's `--model-path /models/${MODEL_NAME}` decides nothing (the
    variable is `${MODEL_NAME:-}`: "/models/" by its default), the decode's
    model is chosen by `$MODEL_NAME = big`. Paired with the decode of the
    path where it is `big`, the prefill's default said "/models/": SGL005,
    where both are /models/big."""
    text = (
        'MODEL_NAME="${MODEL_NAME:-}"\n'
        'if [ "$NODE_RANK" -eq 0 ]; then\n'
        "  python3 -m sglang.launch_server --model-path /models/${MODEL_NAME} --disaggregation-mode prefill --port 30000 &\n"
        "else\n"
        '  if [ "$MODEL_NAME" = big ]; then DM=/models/big; else DM=/models/${MODEL_NAME}; fi\n'
        "  python3 -m sglang.launch_server --model-path $DM --disaggregation-mode decode --port 30001 &\n"
        "fi\n"
    )
    result = lint_texts({"pd.sh": text}, LintOptions())
    assert [f.code for f in result.findings if f.code.startswith("SGL0")] == [], [f.message for f in result.findings]


# -- bounds --------------------------------------------------------------------------


def test_past_the_path_bound_values_are_merged_with_a_note() -> None:
    flags = " ".join(f"${{F{i}:+--f{i}}}" for i in range(8))  # 2**8 paths
    result = analyze_shell("run.sh", f"python -m sglang.launch_server --tp 8 {flags} &\n")
    assert 1 <= len(result.servers) <= paths.MAX_PATHS
    assert all(launch.args[:2][1].value.text == "8" for launch in result.servers)  # the rest stays known
    assert any(f"more than {paths.MAX_PATHS} paths" in note.message for note in result.notes)


# Eight independent optional flags (2**8 paths), added to a string and to an
# array: the shape of AMD's public PD benchmark scripts (seven `[ -n "$X" ] &&
# OPTIONAL_ARGS="$OPTIONAL_ARGS --x $X"` lines before the launch).
OPTIONAL_FLAGS = textwrap.dedent(
    """\
    #!/bin/bash
    ARGS=""
    [ -n "$KV" ] && ARGS="$ARGS --kv-cache-dtype $KV"
    [ -n "$PARSER" ] && ARGS="$ARGS --reasoning-parser $PARSER"
    [ -n "$TOOLS" ] && ARGS="$ARGS --tool-call-parser $TOOLS"
    [ "$RADIX" = off ] && ARGS="$ARGS --disable-radix-cache"
    EXTRA=(--host 0.0.0.0)
    [ -n "$CHUNK" ] && EXTRA+=(--chunked-prefill-size "$CHUNK")
    [ -n "$MEM" ] && EXTRA+=(--mem-fraction-static "$MEM")
    if [ "$GRAPH" = off ]; then EXTRA+=(--disable-cuda-graph); fi
    [ -n "$CTX" ] && EXTRA+=(--context-length "$CTX")
    python3 -m sglang.launch_server --model-path /models/m --tp 8 $ARGS "${EXTRA[@]}" --port 30000
    """
)
OPTIONAL_FLAG_VALUES = {"KV": "fp8_e5m2", "PARSER": "deepseek-r1", "TOOLS": "qwen25", "RADIX": "off", "CHUNK": "8192", "MEM": "0.8", "GRAPH": "off", "CTX": "32768"}


def _argv_matches(tokens, words: list[str]) -> bool:
    """Whether a launch variant's words can be ``words``: a known word is
    itself, a symbol any one word, a spread with its ways (``held``) the words
    of one of them, any other spread any words."""
    if not tokens:
        return not words
    token, rest = tokens[0], tokens[1:]
    if token.spread:
        if token.held is None:
            return any(_argv_matches(rest, words[cut:]) for cut in range(len(words) + 1))
        return any(
            len(way) <= len(words) and all(_word_matches(value, word) for value, word in zip(way, words)) and _argv_matches(rest, words[len(way) :])
            for way in token.held
        )
    return bool(words) and _word_matches(token.value, words[0]) and _argv_matches(rest, words[1:])


def _word_matches(value, word: str) -> bool:
    return value.text == word if value.is_known else value.kind.value == "symbol"


OPTIONAL_FLAGS_PY = textwrap.dedent(
    """\
    import os
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "sglang.launch_server", "--model-path", "/models/m", "--tp", "8"]
    if os.environ.get("KV"):
        cmd += ["--kv-cache-dtype", os.environ["KV"]]
    if os.environ.get("PARSER"):
        cmd += ["--reasoning-parser", os.environ["PARSER"]]
    if os.environ.get("TOOLS"):
        cmd.extend(["--tool-call-parser", os.environ["TOOLS"]])
    if os.environ.get("RADIX") == "off":
        cmd.append("--disable-radix-cache")
    if os.environ.get("CHUNK"):
        cmd += ["--chunked-prefill-size", os.environ["CHUNK"]]
    if os.environ.get("MEM"):
        cmd += ["--mem-fraction-static", os.environ["MEM"]]
    if os.environ.get("GRAPH") == "off":
        cmd.append("--disable-cuda-graph")
    if os.environ.get("CTX"):
        cmd += ["--context-length", os.environ["CTX"]]
    cmd += ["--port", "30000"]
    subprocess.Popen(cmd)
    """
)


@pytest.mark.parametrize("language", ["bash", "python"])
def test_past_the_path_bound_merged_flags_keep_the_options_they_may_set(tmp_path, language) -> None:
    """Past the paths' bound, the flags the branches add are merged. They used
    to become any words, which may set any option: `--tp 8` before them was
    unknown on the merged paths. Now the merge keeps what each way added
    (ArgToken.held), so only the options written there may change. Checked
    against bash and CPython: for environments across the 256 paths, what
    they run is one of the variants whose conditions hold, word for word."""
    import random

    from sglang_lint.catalog.argv import parse_server_args
    from sglang_lint.catalog.tables import load_table

    if language == "bash":
        result = analyze_shell("run.sh", OPTIONAL_FLAGS)
    else:
        (tmp_path / "run.py").write_text(OPTIONAL_FLAGS_PY)
        result = analyze_python("run.py", OPTIONAL_FLAGS_PY)
    assert any(f"more than {paths.MAX_PATHS} paths" in note.message for note in result.notes)
    spreads = [token for launch in result.servers for token in launch.args if token.spread]
    assert spreads and all(token.held is not None for token in spreads)
    table = load_table("0.5.23")
    for launch in result.servers:
        settings = parse_server_args(list(launch.args), table)
        assert settings.get("tp_size").value.text == "8", [t.value.describe() for t in launch.args]
        assert settings.get("model_path").value.text == "/models/m"
        assert settings.get("dp_size").value.text == "1"
    chooser = random.Random(20261208)
    for _ in range(12):
        env = {name: value for name, value in OPTIONAL_FLAG_VALUES.items() if chooser.random() < 0.5}
        if language == "bash":
            (tmp_path / "argv").unlink(missing_ok=True)  # (the stub appends)
            (ran,) = bash_python3_calls(tmp_path, OPTIONAL_FLAGS, env)
        else:
            (ran,) = cpython_popen_calls(tmp_path, tmp_path / "run.py", env, drop=1)  # (the interpreter)
        words = ran[2:]  # after `-m sglang.launch_server`

        def holds(step) -> bool:
            kind, name, *text = step.key.split("\0")
            value = env.get(name.lstrip("$"), "")
            return (value != "" if kind == "nonempty" else value == text[0]) == step.taken

        candidates = [launch for launch in result.servers if all(holds(step) for step in launch.path_condition)]
        assert candidates, env
        assert any(_argv_matches(list(launch.args), words) for launch in candidates), (env, words)


def test_merged_settings_before_a_nested_command_are_its_environment(monkeypatch, tmp_path) -> None:
    """`X_ENV=""; [ -n "$X" ] && X_ENV="SGLANG_X=$X"`, then `bash -c "A=1
    ${X_ENV} python3 -m sglang.launch_server ..."` (InferenceX's AMD PD
    servers): merged, each way of `${X_ENV}` sets variables only, so the inner
    shell reads them as assignments and runs python3. As words we cannot see,
    they were the inner command: "launch not analyzed". Checked against bash:
    it runs python3 the same way with and without the settings."""
    script = textwrap.dedent(
        """\
        #!/bin/bash
        A_ENV=""
        [ -n "$A" ] && A_ENV="SGLANG_A=$A"
        B_ENV=""
        [ -n "$B" ] && B_ENV="SGLANG_B=1 SGLANG_B2=$B"
        CMD="SGLANG_X=1 ${A_ENV} ${B_ENV} python3 -m sglang.launch_server --model-path /m --tp 8"
        bash -c "$CMD"
        """
    )
    monkeypatch.setattr(paths, "MAX_PATHS", 1)  # (the merges, not the forks that would avoid them)
    result = analyze_shell("run.sh", script)
    assert not paths.not_followed(result.notes), [note.message for note in result.notes]
    assert {tuple(argv) for argv, _ in _variants(result)} == {("--model-path", "/m", "--tp", "8")}
    for env in ({}, {"A": "1"}, {"A": "1", "B": "2"}):
        (tmp_path / "argv").unlink(missing_ok=True)
        assert bash_python3_calls(tmp_path, script, env) == [["-m", "sglang.launch_server", "--model-path", "/m", "--tp", "8"]]


@pytest.mark.parametrize("nested", [False, True])
def test_a_command_word_of_the_environment_is_skipped_on_the_path_where_it_is_empty(tmp_path, nested) -> None:
    """`$SDMA_ENV python3 -m sglang.launch_server ...` (InferenceX sets it on
    one branch only; elsewhere it is the environment's): bash skips an empty
    unquoted expansion, so where it is empty the launch is the words after it
    (a variant with that condition); where it is not, what it runs is not
    known, and the note says so, and that the empty way was analyzed."""
    command = "$WRAPPER python3 -m sglang.launch_server --model-path /m --tp 8"
    script = f'bash -c "{command}"\n' if nested else f"{command}\n"
    result = analyze_shell("run.sh", script)
    assert _variants(result) == [(["--model-path", "/m", "--tp", "8"], ["$WRAPPER is empty"])]
    (note,) = [note.message for note in result.notes]
    assert note.startswith("launch not analyzed") and "where it is empty, the command after it is analyzed" in note
    assert bash_python3_calls(tmp_path, script, {}) == [["-m", "sglang.launch_server", "--model-path", "/m", "--tp", "8"]]


def test_a_command_word_of_the_environment_before_no_launch_is_no_decision() -> None:
    result = analyze_shell("run.sh", '$RUNNER ./train.sh --epochs 3\n')
    assert result.servers == [] and result.notes == []


def test_past_the_work_bound_the_note_names_that_bound(monkeypatch) -> None:
    # SGLang's test helpers: few forks, but every run of the file is long. The
    # note said "more than 64 paths" after 18 runs, which sent readers looking
    # for branches that were not there.
    monkeypatch.setattr(paths, "MAX_WORK", 1)
    flags = " ".join(f"${{F{i}:+--f{i}}}" for i in range(3))
    result = analyze_shell("run.sh", f"python -m sglang.launch_server --tp 8 {flags} &\n")
    messages = [note.message for note in result.notes]
    assert any("exploring the branches of this file took more than 1 steps" in message for message in messages), messages
    assert not any("paths through the branches" in message for message in messages)


@pytest.mark.parametrize("flags_before_pass_through", [True, False])
def test_the_bound_note_is_kept_only_where_a_merge_reaches_a_setting(tmp_path, monkeypatch, flags_before_pass_through) -> None:
    """Past the bounds, the merged branches cost a launch nothing when every
    setting they made may be overridden anyway by words nobody can see (flags
    before `*service_args`: SGLang's Ascend multi-node helper, 96 paths): no
    note then (analysis.merges_that_matter). After the pass-through, a merged
    flag is what the setting is: the note stays. The settings name the
    pass-through, not the merge, as what may override them."""
    monkeypatch.setattr(paths, "MAX_PATHS", 2)
    # (options SGLang has: an unknown one merged is a problem the merge
    # hides, ServerSettings.unchecked, and keeps the note either way)
    options = ("--enable-metrics", "--disable-radix-cache", "--enable-mixed-chunk", "--disable-cuda-graph")
    flags = "".join(f"    if os.environ.get('F{i}'):\n        extra.append('{option}')\n" for i, option in enumerate(options))
    order = "*extra, *service_args" if flags_before_pass_through else "*service_args, *extra"
    text = (
        "import os, subprocess\n\n\n"
        "def serve(service_args):\n"
        "    extra = []\n"
        f"{flags}"
        f"    subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', '8', {order}])\n"
    )
    (tmp_path / "serve.py").write_text(text)
    lint = lint_paths([str(tmp_path / "serve.py")], LintOptions(cache=False, jobs=1))
    bound_notes = [f for f in lint.findings if paths.MERGED_PAST_BOUND in f.message]
    assert bool(bound_notes) != flags_before_pass_through, [f.message for f in lint.findings]


def test_the_bound_note_is_kept_where_merged_words_hold_an_option_argparse_refuses(tmp_path, monkeypatch) -> None:
    """The flags before `*service_args` again, one of them an option SGLang
    0.5.23 does not have: on the merged ways that hold it argparse refuses
    the launch, which no variant past the bound reports, so the note says
    the branches were merged."""
    monkeypatch.setattr(paths, "MAX_PATHS", 2)
    options = ("--enable-metrics", "--disable-radix-cache", "--enable-mixed-chunk", "--enable-flashinfer-mla")
    flags = "".join(f"    if os.environ.get('F{i}'):\n        extra.append('{option}')\n" for i, option in enumerate(options))
    text = (
        "import os, subprocess\n\n\n"
        "def serve(service_args):\n"
        "    extra = []\n"
        f"{flags}"
        "    subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', '8', *extra, *service_args])\n"
    )
    (tmp_path / "serve.py").write_text(text)
    lint = lint_paths([str(tmp_path / "serve.py")], LintOptions(cache=False, jobs=1))
    assert [f for f in lint.findings if paths.MERGED_PAST_BOUND in f.message], [f.message for f in lint.findings]


def test_a_file_without_undecided_branches_runs_once() -> None:
    runs = []

    def run(p: paths.Paths):
        runs.append(p)
        return analyze_shell("run.sh", "python -m sglang.launch_server --tp 8 &\n"), 1

    assert len(paths.explore(run)) == 1 and len(runs) == 1


# -- pass-through arguments -------------------------------------------------------------


def test_a_pass_through_adds_no_options_and_is_named(tmp_path) -> None:
    script = (
        f"python -m sglang.launch_server --disaggregation-mode prefill {UM} --tp 8 &\n"
        f'python -m sglang.launch_server --disaggregation-mode decode {UM} --tp 4 --port 30001 "$@" &\n'
    )
    result = _lint(tmp_path, "run.sh", script)
    (finding,) = [f for f in result.findings if f.code == "SGL001"]
    assert finding.severity is Severity.WARNING
    assert any('unless the arguments passed through ("$@" of the script at' in note for note in finding.notes)
    strict = lint_paths([str(tmp_path / "run.sh")], LintOptions(cache=False, strict=True))
    listed = [f for f in strict.findings if f.code == "SGL901" and "passed through" in f.message]
    assert len(listed) == 1 and listed[0].location.line == 2


def test_words_the_file_computes_are_not_pass_throughs(tmp_path) -> None:
    script = (
        f"python -m sglang.launch_server --disaggregation-mode prefill {UM} --tp 8 &\n"
        f"python -m sglang.launch_server --disaggregation-mode decode {UM} --tp 4 --port 30001 $(cat extra.args) &\n"
    )
    assert [f.code for f in _lint(tmp_path, "run.sh", script).findings] == []


def test_topology_shows_each_variant_with_its_condition(tmp_path) -> None:
    from sglang_lint.report import topology, topology_diagram

    result = _lint(tmp_path, "run.sh", ARRAY_IN_BRANCH)
    version = result.version
    for shown in (
        topology.render_text(result.deployments, version),
        topology_diagram.render_markdown(result.deployments, version),
        topology_diagram.render_mermaid(result.deployments, version),
    ):
        assert "when $KV_DTYPE is empty and $DPA is non-empty" in shown.replace("&#36;", "$"), shown
    data = json.loads(topology.render_json(result.deployments, version))
    conditions = [[step["text"] for step in server["path_condition"]] for server in data["deployments"][0]["servers"]]
    assert ["$KV_DTYPE is empty", "$DPA is non-empty"] in conditions


def test_the_report_does_not_depend_on_the_hash_seed() -> None:
    # Findings with the same position, code and message but different notes
    # (the variants of serve_pd.sh's SGL103) were ordered by a set's iteration,
    # which follows the per-process string hash seed: the same tree gave two
    # different reports depending on PYTHONHASHSEED.
    fixture = ROOT / "fixtures" / "variants-hicache-offload"
    outputs = set()
    for seed in range(8):
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        done = subprocess.run(
            [sys.executable, "-m", "sglang_lint", "check", "--no-cache", "--output-format", "json", str(fixture)],
            capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
        )
        assert done.returncode == 1, done.stderr
        outputs.add(done.stdout)
    assert len(outputs) == 1


def test_a_guard_that_raises_is_no_launch_variant() -> None:
    """A branch that raises (`if ...: raise SkipTest`) ends its path there; the
    launch after it is the program's one way on, so it is not forked on: the
    variants are those of the branches the launch reads (issue 20: the GPU
    guards of SGLang's test classes doubled their runs). A branch that returns
    still is: what follows runs on some paths only."""
    source = textwrap.dedent(
        """
        import os, subprocess

        def main():
            if os.environ.get("SKIP"):
                raise SystemExit("skipped")
            tp = "8" if os.environ.get("BIG") else "4"
            subprocess.run(["python3", "-m", "sglang.launch_server", "--tp", tp])
        """
    )
    variants = _variants(analyze_python("guard.py", source))
    assert sorted(args[-1] for args, _ in variants) == ["4", "8"]
    assert not any("SKIP" in step for _, steps in variants for step in steps)
    returning = analyze_python("guard.py", source.replace('raise SystemExit("skipped")', "return"))
    assert any("SKIP" in step for _, steps in _variants(returning) for step in steps)


def record_runs(monkeypatch) -> list[dict]:
    """A list that gets the decisions fixed for each run of the Python
    interpreter from now on."""
    from sglang_lint.sources import python as python_source

    runs: list[dict] = []
    original = python_source.LaunchInterpreter.run

    def counted(self):
        runs.append(dict(self.paths.fixed))
        return original(self)

    monkeypatch.setattr(python_source.LaunchInterpreter, "run", counted)
    return runs


def _runs_of(source: str, monkeypatch) -> tuple[list, list[dict]]:
    """The variants of a Python file, and the decisions fixed for each time
    it was interpreted."""
    runs = record_runs(monkeypatch)
    return _variants(analyze_python("bench.py", source)), runs


def test_only_the_branches_a_merged_word_came_from_are_forked(monkeypatch) -> None:
    """A launch word merged over one branch forks on that branch only, not on
    every branch met before it (issue 20: SGLang's test_utils.py merges five
    platform branches at its top level, timeouts no launch reads, and the
    explorer forked on each in turn: 13 runs of a 4,500-step module, past the
    work bound). A value a function returns from inside a branch is merged
    over that branch (`--device` from a helper that returns early)."""
    source = textwrap.dedent(
        """
        import os, subprocess

        if os.environ.get("CI"):
            TIMEOUT = 600
        else:
            TIMEOUT = 300
        if os.environ.get("AMD"):
            TIMEOUT = 900

        def device():
            if os.environ.get("USE_CPU") == "1":
                return "cpu"
            return "cuda"

        def main():
            tp = "8" if os.environ.get("BIG") else "4"
            subprocess.run(["python3", "-m", "sglang.launch_server", "--tp", tp, "--device", device()], timeout=TIMEOUT)
        """
    )
    variants, runs = _runs_of(source, monkeypatch)
    assert sorted(args[-3] + "/" + args[-1] for args, _ in variants) == ["4/cpu", "4/cuda", "8/cpu", "8/cuda"]
    assert not any("CI" in step or "AMD" in step for _, steps in variants for step in steps)
    # The merged run, then one run per leaf of the tree over BIG and USE_CPU:
    # the merged run found both are what the launch's words were merged
    # over, the tree starts from BIG's two ways, and each run takes a way at
    # USE_CPU as it meets it (Paths.take), leaving the other to a run.
    assert len(runs) == 5


# Three independent additions to a launch (SGLang 0.5.23's Ascend multi-node
# test utilities add four the same way, `if "--device" not in service_args`).
THREE_FLAGS = textwrap.dedent(
    """\
    import os, subprocess

    def main():
        argv = ["python3", "-m", "sglang.launch_server", "--tp", "8"]
        if os.environ.get("TRUST"):
            argv += ["--trust-remote-code"]
        if os.environ.get("BACKEND"):
            argv += ["--attention-backend", "ascend"]
        if os.environ.get("DEVICE"):
            argv += ["--device", "npu"]
        subprocess.Popen(argv)

    if __name__ == "__main__":
        main()
    """
)
FLAG_VARIABLES = ("TRUST", "BACKEND", "DEVICE")


def test_a_decision_one_run_forked_on_is_taken_by_the_others_as_they_meet_it(monkeypatch) -> None:
    """A run that merged a branch and found at its end that the launch needs
    it split stops there (Fork), a whole run for nothing; each path of the
    tree did that at each of its decisions (SGLang's Ascend multi-node
    utilities: 57 of 117 runs). A decision one run forked on is now taken by
    the later runs where they meet it, the other way left to a run of its
    own; and the merged first run knows them all (the branches the launch's
    merged words came from). So: the merged run and one run per variant (9
    runs, 15 before)."""
    variants, runs = _runs_of(THREE_FLAGS, monkeypatch)
    assert len(variants) == 8
    assert len(runs) == 1 + 8
    # Each variant once, each run a different path.
    assert len({tuple(argv) for argv, _ in variants}) == 8
    assert len({tuple(sorted((key, step.taken) for key, step in fixed.items())) for fixed in runs}) == len(runs)


THREE_FLAGS_SH = """\
cmd=(python -m sglang.launch_server --tp 8)
if [ -n "$TRUST" ]; then cmd+=(--trust-remote-code); fi
case "$BACKEND" in
  ascend) cmd+=(--attention-backend ascend) ;;
esac
[ -n "$DEVICE" ] && cmd+=(--device npu)
"${cmd[@]}" &
wait
"""


def test_a_decision_one_run_forked_on_is_taken_by_the_shell_runs_too(monkeypatch) -> None:
    """The same in a shell script, over `if`, `case` and `&&`."""
    from sglang_lint.sources import shell as shell_source

    runs: list[dict] = []
    original = shell_source.explore

    def counted(run, *args, **kwargs):
        return original(lambda paths: runs.append(dict(paths.fixed)) or run(paths), *args, **kwargs)

    monkeypatch.setattr(shell_source, "explore", counted)
    variants = _variants(analyze_shell("run.sh", THREE_FLAGS_SH))
    assert len({tuple(argv) for argv, _ in variants}) == 8
    assert len(runs) == 1 + 8


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("present", list(__import__("itertools").product((False, True), repeat=3)))
def test_the_decisions_shell_runs_take_against_bash(tmp_path, present) -> None:
    stub = tmp_path / "bin" / "python"
    stub.parent.mkdir()
    stub.write_text('#!/bin/sh\nprintf "%s\\n" "$*" >> "$LOG"\n')
    stub.chmod(0o755)
    (tmp_path / "run.sh").write_text(THREE_FLAGS_SH)
    values = {"TRUST": "1", "BACKEND": "ascend", "DEVICE": "1"}
    env = {"PATH": f"{stub.parent}:/usr/bin:/bin", "LOG": str(tmp_path / "log")} | {name: values[name] for name, on in zip(FLAG_VARIABLES, present) if on}
    subprocess.run(["bash", str(tmp_path / "run.sh")], env=env, check=True)
    holds = {
        "$TRUST is non-empty" if present[0] else "$TRUST is empty",
        "$BACKEND is ascend" if present[1] else "$BACKEND is not ascend",
        "$DEVICE is non-empty" if present[2] else "$DEVICE is empty",
    }
    reported = [" ".join(["-m", "sglang.launch_server", *argv]) for argv, condition in _variants(analyze_shell("run.sh", THREE_FLAGS_SH)) if set(condition) <= holds]
    assert (tmp_path / "log").read_text().splitlines() == reported


# A decision taken where a later run meets it is the decision's way, not the
# condition's: `!=` and `not` hold when the decision does not (the bash
# oracle's seed 33 over `[[ $SERVER_ROLE != decode ]]` in a loop).
NEGATED_SH = """\
for mode in decode prefill; do
  args=(--tp 8 --disaggregation-mode "$mode")
  if [[ $ROLE != decode ]]; then args+=(--page-size 64); fi
  python -m sglang.launch_server "${args[@]}" &
done
wait
"""
NEGATED_PY = textwrap.dedent(
    """\
    import os, subprocess

    for mode in ("decode", "prefill"):
        argv = ["python3", "-m", "sglang.launch_server", "--tp", "8", "--disaggregation-mode", mode]
        if os.environ.get("ROLE") != "decode":
            argv += ["--page-size", "64"]
        if not os.environ.get("QUIET"):
            argv += ["--log-level", "debug"]
        subprocess.Popen(argv)
    """
)


def test_a_negated_condition_a_run_takes_goes_the_way_its_decision_says(monkeypatch) -> None:
    for variants in (_variants(analyze_shell("run.sh", NEGATED_SH)), _variants(analyze_python("run.py", NEGATED_PY))):
        for argv, condition in variants:
            assert ("--page-size" in argv) == any(step.endswith("is not decode") or step.endswith("is not 'decode'") for step in condition), (argv, condition)
            if "--log-level" in argv or any("QUIET" in step for step in condition):
                assert ("--log-level" in argv) == any(step == "$QUIET is empty or unset" for step in condition), (argv, condition)


@pytest.mark.parametrize("present", list(__import__("itertools").product((False, True), repeat=3)))
def test_the_decisions_runs_take_against_cpython(tmp_path, present) -> None:
    """What CPython runs (Popen recorded) under each of the eight
    environments is the variant whose condition holds."""
    (tmp_path / "flags.py").write_text(THREE_FLAGS)
    ran = cpython_popen_calls(tmp_path, tmp_path / "flags.py", {name: "1" for name, on in zip(FLAG_VARIABLES, present) if on}, drop=3)
    holds = {f"${name} is {'non-empty' if on else 'empty or unset'}" for name, on in zip(FLAG_VARIABLES, present)}
    reported = [argv for argv, condition in _variants(analyze_python("flags.py", THREE_FLAGS)) if set(condition) <= holds]
    assert ran == reported


def test_a_merge_whose_origin_is_not_known_forks_on_every_branch_as_before(monkeypatch) -> None:
    """A word merged where the interpreter records no decision (here by the
    shell of a `shell=True` command) keeps the old behaviour: any merged
    branch met may have made it, so the timeout's branch is forked too."""
    source = textwrap.dedent(
        """
        import os, subprocess

        if os.environ.get("CI"):
            TIMEOUT = 600
        else:
            TIMEOUT = 300

        def main():
            subprocess.run('if [ -n "$BIG" ]; then T=8; else T=4; fi; python -m sglang.launch_server --tp $T', shell=True, timeout=TIMEOUT)
        """
    )
    _, runs = _runs_of(source, monkeypatch)
    assert any(step.text.startswith("$CI") for fixed in runs for step in fixed.values())


# -- commands a helper builds per framework -----------------------------------------

FRAMEWORK_HELPER = """\
import subprocess
import sys


def build_server_cmd(framework, model_path, port):
    python = sys.executable
    if framework == "sglang":
        return [python, "-m", "sglang.launch_server", "--model-path", model_path, "--port", str(port)]
    elif framework == "vllm":
        return [python, "-m", "vllm.entrypoints.openai.api_server", "--model", model_path{vllm_port}]
    else:
        raise ValueError(framework)


def start(framework, model_path, port):
    return subprocess.Popen(build_server_cmd(framework, model_path, port))
"""


@pytest.mark.parametrize("same_length", [False, True])
def test_the_command_a_helper_builds_per_framework_launches_on_its_sglang_way(same_length) -> None:
    """A benchmark harness's `build_server_cmd(framework)`: a list for SGLang,
    one for vLLM, else raise, for a framework its caller is given. Every way
    of the `if` ended, so the decision made no difference, and the ways'
    lists were merged: into words we cannot see, or (lists of as many items)
    a module of `-m` that is one of two. The launch was lost without a note
    (a public SGLang-vs-vLLM benchmark, AnnaXWang/sglang_benchmark)."""
    text = FRAMEWORK_HELPER.replace("{vllm_port}", ', "--port", str(port)' if same_length else "")
    result = analyze_python("bench.py", text)
    assert _variants(result) == [(["--model-path", "start.model_path", "--port", "start.port"], ["start.framework is 'sglang'"])]
    assert not paths.not_followed(result.notes), [note.message for note in result.notes]


def test_a_launch_a_root_could_not_follow_forks_on_the_root_s_branches() -> None:
    """A root function (one nothing in the file calls) whose launch the
    embedded shell could not follow: its note is made when the run ends, so
    the root's branches were not among those the launch may depend on, and
    the file was not run again per way (it said "not analyzed")."""
    text = textwrap.dedent(
        """\
        import subprocess
        import sys


        def start(framework, model_path):
            if framework == "sglang":
                cmd = [sys.executable, "-m", "sglang.launch_server", "--model-path", model_path]
            else:
                cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", model_path, "--seed", "1"]
            return subprocess.Popen(cmd)
        """
    )
    result = analyze_python("bench.py", text)
    assert _variants(result) == [(["--model-path", "start.model_path"], ["start.framework is 'sglang'"])]
    assert not paths.not_followed(result.notes), [note.message for note in result.notes]


# -- the output of `$(function ...)` ----------------------------------------------

SERVER_CONFIG_FUNCTION = textwrap.dedent(
    """\
    #!/bin/bash
    build_server_config() {
        local mode="$1"
        local tp_size="$2"
        local parallel_args="--tp-size ${tp_size}"
        if [[ "$ENABLE_DP" == "true" ]]; then
            parallel_args="$parallel_args --dp-size ${tp_size} --enable-dp-attention"
        fi
        echo "building $mode" >&2
        printf '%s' "$parallel_args"
        echo " --disaggregation-mode $mode"
        echo
    }
    PREFILL_SERVER_CONFIG=$(build_server_config prefill 8)
    DECODE_SERVER_CONFIG="$(build_server_config decode 16)"
    python3 -m sglang.launch_server --model-path /m --port 30000 ${PREFILL_SERVER_CONFIG}
    python3 -m sglang.launch_server --model-path /m --port 30001 ${DECODE_SERVER_CONFIG}
    """
)


def test_the_output_of_a_function_is_what_its_echos_print(tmp_path) -> None:
    """`PREFILL_SERVER_CONFIG=$(build_server_config prefill ...)` (AMD's PD
    servers in InferenceX and its forks: the function's `echo` gives
    `--tp-size`, `--ep-size`, `--dp-size`): the function runs in a subshell
    and what it prints is the value, with its branches' decisions. Its output
    was unknown, so every setting of the servers was. Checked against bash
    on both ways of the decision."""
    result = analyze_shell("run.sh", SERVER_CONFIG_FUNCTION)
    variants = _variants(result)
    assert not result.notes, [note.message for note in result.notes]
    for env in ({}, {"ENABLE_DP": "true"}):
        (tmp_path / "argv").unlink(missing_ok=True)
        ran = [argv[2:] for argv in bash_python3_calls(tmp_path, SERVER_CONFIG_FUNCTION, env)]
        holds = "$ENABLE_DP is true" if env else "$ENABLE_DP is not true"
        assert ran == [argv for argv, condition in variants if condition == [holds]], (ran, variants)
    assert len(variants) == 4


@pytest.mark.parametrize(
    "body",
    [
        'if [ -n "$X" ]; then echo "--tp 2"; return; fi; echo "--tp 4"',  # it may return early
        'echo "--tp 4"; exit 0',
    ],
)
def test_the_output_of_a_function_that_may_stop_early_stays_unknown(body) -> None:
    script = f"config() {{ {body}; }}\nARGS=$(config)\npython3 -m sglang.launch_server --model-path /m $ARGS\n"
    (launch,) = analyze_shell("run.sh", script).servers
    assert any("output of" in token.value.describe() for token in launch.args)


@pytest.mark.parametrize(
    ("substitution", "expected"),
    [
        ('$(config | tr -d x)', None),  # a pipeline: its last command prints
        ('$(config 2>/dev/null)', None),  # (a redirection: not followed)
        ('$(config)', ["--tp", "4", "<unknown: output of nvidia-smi>", "<unknown: output of tr>"]),
    ],
)
def test_what_a_function_prints_for_its_substitution(substitution, expected) -> None:
    script = (
        'config() { echo "--tp 4"; echo "log line" > /tmp/log; echo "to stderr" >&2; { echo a; echo b; } > /dev/null; '
        'if true; then echo "--c"; fi >&2; nvidia-smi -L; date | tr -d x; }\n'
        f"ARGS={substitution}\n"
        "python3 -m sglang.launch_server --model-path /m $ARGS\n"
    )
    (launch,) = analyze_shell("run.sh", script).servers
    words = [token.value.describe() for token in launch.args][2:]
    if expected is None:
        assert len(words) == 1 and "output of" in words[0], words
    else:
        assert words == expected


# -- associative arrays ------------------------------------------------------------

MODEL_CONFIGS = textwrap.dedent(
    """\
    #!/bin/bash
    declare -A MODEL_BASE_CONFIGS=(
        ["DeepSeek-R1"]="--kv-cache-dtype fp8_e4m3 --chunked-prefill-size 262144"
        [Qwen3]="--chunked-prefill-size 8192"
    )
    declare -A PORTS
    PORTS[prefill]=30000
    PORTS[decode]=30001
    base_config="${MODEL_BASE_CONFIGS[$MODEL_NAME]}"
    python3 -m sglang.launch_server --model-path /m --tp-size 8 ${MODEL_BASE_CONFIGS[$MODEL_NAME]} --port ${PORTS[prefill]}
    python3 -m sglang.launch_server --model-path /m --tp-size 8 $base_config --port "${PORTS[decode]}" ${MODEL_BASE_CONFIGS[Qwen3]}
    """
)


def test_an_associative_array_gives_a_key_s_value_on_each_path(tmp_path) -> None:
    """`declare -A MODEL_BASE_CONFIGS=([...]=...)`, looked up by a model the
    environment names (AMD's PD scripts): a known key gives its value; a key
    the environment decides is a decision of the path per key, as a `case`
    over it would be (merged, past the bound: one of the values or nothing,
    so only the options they name may change). Every lookup was unknown, and
    every setting before it with it. Checked against bash for each model and
    none."""
    from sglang_lint.catalog.argv import parse_server_args
    from sglang_lint.catalog.tables import load_table

    result = analyze_shell("run.sh", MODEL_CONFIGS)
    table = load_table("0.5.23")
    assert not result.notes, [note.message for note in result.notes]
    for launch in result.servers:
        if any("no entry for" in token.value.describe() for token in launch.args):
            # (none of its keys: bash gives "", but scripts check the key
            # first, and a path where none matched is often one that never
            # runs; not known rather than a finding there)
            continue
        settings = parse_server_args(list(launch.args), table)
        assert settings.get("tp_size").value.text == "8"
        assert settings.get("port").value.text in ("30000", "30001")
    conditions = {step.text for launch in result.servers for step in launch.path_condition}
    assert "$MODEL_NAME is DeepSeek-R1" in conditions
    for model in ("", "DeepSeek-R1", "Qwen3", "Other"):
        (tmp_path / "argv").unlink(missing_ok=True)
        ran = bash_python3_calls(tmp_path, MODEL_CONFIGS, {"MODEL_NAME": model or None})

        def holds(step) -> bool:
            kind, _, *text = step.key.split("\0")
            return (model != "" if kind == "nonempty" else model == text[0]) == step.taken

        candidates = [launch for launch in result.servers if all(holds(step) for step in launch.path_condition)]
        for argv in ran:
            assert any(_argv_matches(list(launch.args), argv[2:]) for launch in candidates), (model, argv)


def test_a_key_with_no_entry_is_not_known_rather_than_empty() -> None:
    """A menu that loops until a model is chosen (`while true` ... `break`),
    then `--model-path ${MODELS[$1]}`: the loop's merge keeps the way where
    none was chosen, which never runs. Read as bash reads a missing key (""),
    it gave "--model-path: expected one argument" there (a public launcher,
    ThalesMMS/sglang-config)."""
    text = textwrap.dedent(
        """\
        declare -A MODELS=([llama]="meta-llama/Llama-3.2-3B-Instruct" [qwen]="Qwen/Qwen2.5-7B-Instruct-AWQ")
        select_model() {
            while true; do
                read -p "Choose a model [1/2/0]: " choice
                case $choice in
                    1) MODEL_KEY="llama"; break ;;
                    2) MODEL_KEY="qwen"; break ;;
                    0) exit 0 ;;
                    *) echo "Invalid option" ;;
                esac
            done
        }
        start_server() {
            local model_key=$1
            local model_id="${MODELS[$model_key]}"
            cmd="python -m sglang.launch_server --model-path $model_id --port 8001"
            eval $cmd
        }
        if [ -n "$1" ]; then
            case "$1" in
                llama|1) MODEL_KEY="llama" ;;
                qwen|2) MODEL_KEY="qwen" ;;
                *) echo "Usage: $0 [llama|qwen]"; exit 1 ;;
            esac
        else
            select_model
        fi
        start_server "$MODEL_KEY"
        """
    )
    result = lint_texts({"start.sh": text}, LintOptions())
    assert [f.code for f in result.findings] == [], [f.message for f in result.findings]


def test_past_the_bound_an_associative_array_lookup_is_one_of_its_values(monkeypatch) -> None:
    from sglang_lint.catalog.argv import parse_server_args
    from sglang_lint.catalog.tables import load_table

    monkeypatch.setattr(paths, "MAX_PATHS", 1)
    # (a decision met first takes the paths there are)
    script = MODEL_CONFIGS.replace("declare -A PORTS", '[ -n "$METRICS" ] && MODEL_BASE_CONFIGS[Qwen3]="--chunked-prefill-size 4096"\ndeclare -A PORTS')
    result = analyze_shell("run.sh", script)
    assert any("more than 1 paths" in note.message for note in result.notes)
    first = result.servers[0]
    (spread,) = [token for token in first.args if token.spread]
    assert spread.held is not None and () in spread.held  # (a model with no entry: nothing)
    settings = parse_server_args(list(first.args), load_table("0.5.23"))
    assert settings.get("tp_size").value.text == "8"
    assert not settings.get("chunked_prefill_size").value.is_known


# -- decisions a helper returns ------------------------------------------------------

# SGLang's own helpers (0.5.23 sglang/srt/utils/common.py:1424 get_bool_env_var,
# sglang/test/test_utils.py:201 is_in_ci), written again: the PD fixture tests
# `is_in_ci()` in setUpClass and again in each server's start.
IS_IN_CI_HELPERS = """\
import os


def get_bool_env_var(name, default="false"):
    value = os.getenv(name, default)
    value = value.lower()
    truthy_values = ("true", "1")
    return value in truthy_values


def is_in_ci():
    return get_bool_env_var("SGLANG_IS_IN_CI")
"""

IS_IN_CI_LAUNCHER = f"""\
import subprocess
from helpers import is_in_ci


def backend():
    if is_in_ci():
        return ["--disaggregation-transfer-backend", "mooncake"]
    return ["--disaggregation-transfer-backend", "nixl"]


def main():
    extra = backend()
    tp = "8" if is_in_ci() else "4"
    subprocess.Popen(["python", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--tp", tp, "{UM}", *extra])
    subprocess.Popen(["python", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "--tp", "4", "{UM}", *extra])


main()
"""
IN_CI = "$SGLANG_IS_IN_CI.lower() (default false) is one of 'true', '1'"
NOT_IN_CI = "$SGLANG_IS_IN_CI.lower() (default false) is none of 'true', '1'"


def _is_in_ci_project(tmp_path) -> Path:
    (tmp_path / "helpers.py").write_text(IS_IN_CI_HELPERS)
    (tmp_path / "launch.py").write_text(IS_IN_CI_LAUNCHER)
    return tmp_path / "launch.py"


def test_a_condition_a_helper_returns_is_one_decision_wherever_it_is_tested(tmp_path) -> None:
    """`is_in_ci()` tested twice is one decision over the environment variable
    its helper reads, not one per place: two paths, not four, and no variant
    that is in CI at one branch and not at the next (before: the PD fixture of
    SGLang 0.5.23 had 28 paths, 6 now; and findings said "when `is_in_ci()` is
    false and `is_in_ci()` is true")."""
    result = lint_paths([str(_is_in_ci_project(tmp_path))], LintOptions(cache=False))
    servers = [server.launch for deployment in result.deployments for server in deployment.servers]
    conditions = sorted({tuple(step.text for step in launch.path_condition) for launch in servers})
    assert conditions == [(NOT_IN_CI,), (IN_CI,)]
    mismatch = [f for f in result.findings if f.code == "SGL001"]
    assert len(mismatch) == 1 and IN_CI in mismatch[0].message
    # The decision is shown at the user's branch, not inside the helper.
    assert {step.location.path for launch in servers for step in launch.path_condition} == {str(tmp_path / "launch.py")}


@pytest.mark.parametrize("in_ci", [None, "TRUE", "0"])
def test_a_condition_a_helper_returns_against_cpython(tmp_path, in_ci) -> None:
    """What CPython runs (Popen recorded) under each value of the variable is
    the variant whose condition holds."""
    launcher = _is_in_ci_project(tmp_path)
    ran = cpython_popen_calls(tmp_path, launcher, {"SGLANG_IS_IN_CI": in_ci} if in_ci else {}, drop=3, import_root=tmp_path)
    holds = IN_CI if (in_ci or "").lower() in ("true", "1") else NOT_IN_CI
    result = lint_paths([str(launcher)], LintOptions(cache=False))
    servers = [server.launch for deployment in result.deployments for server in deployment.servers]
    reported = [[t.value.describe() for t in launch.args] for launch in servers if [s.text for s in launch.path_condition] == [holds]]
    assert sorted(ran) == sorted(reported)


def test_a_decision_asked_inside_a_call_is_not_the_callers(monkeypatch) -> None:
    """A branch of the caller over what a call returns is decided by that
    value, not by a comparison the call's body made on the way (before, `if
    role():` forked on `$A is '1'` too, which `role()` does not return)."""
    source = textwrap.dedent(
        """
        import os, subprocess

        def role():
            verbose = os.getenv("A") == "1"
            return os.getenv("ROLE_FILE_CONTENTS").splitlines()[0]

        def main():
            tp = "8" if role() else "4"
            subprocess.run(["python3", "-m", "sglang.launch_server", "--tp", tp])
        """
    )
    variants, runs = _runs_of(source, monkeypatch)
    assert sorted(steps[0] for _, steps in variants) == ["`role()` is false", "`role()` is true"]
    # Before, the run forked on `$A is '1'` first: twice the runs, for nothing.
    assert not any(key.startswith("eq\0$A") for fixed in runs for key in fixed)


def test_membership_follows_from_the_value_a_path_fixed(monkeypatch) -> None:
    """`$ROLE in ("prefill", "p")` is decided where the path fixed `$ROLE`
    to a text, as `==` is."""
    source = textwrap.dedent(
        """
        import os, subprocess

        def main():
            role = os.environ.get("ROLE")
            if role == "decode":
                subprocess.run(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode"])
            mode = "prefill" if role in ("prefill", "p") else "null"
            subprocess.run(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", mode])
        """
    )
    variants, _ = _runs_of(source, monkeypatch)
    # On the path where $ROLE is 'decode' the second launch is `null` without
    # asking again (it is `null` on the path where $ROLE is none of them too:
    # one variant, on no condition); `in` forks only where $ROLE is not fixed.
    assert variants == [
        (["--disaggregation-mode", "decode"], ["$ROLE is 'decode'"]),
        (["--disaggregation-mode", "null"], []),
        (["--disaggregation-mode", "prefill"], ["$ROLE is not 'decode'", "$ROLE is one of 'prefill', 'p'"]),
    ]


def test_a_condition_over_globals_only_is_one_decision_in_every_call(monkeypatch) -> None:
    """A branch whose condition reads no name of its function (a platform
    probe: SGLang's chunked_prefill_test_utils.py tests `use_torch_reference(
    torch.device(get_device()))` in a helper both servers' arguments call)
    goes the same way in every call: one decision, two paths (before, one per
    call: four, half of them a prefill and a decode on different machines)."""
    source = textwrap.dedent(
        """
        import os, subprocess

        def has_rdma():
            return os.path.exists("/sys/class/infiniband")

        def args_for(role):
            extra = ["--disaggregation-ib-device", "mlx5_0"] if has_rdma() else []
            return ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", role, *extra]

        def main():
            subprocess.Popen(args_for("prefill"))
            subprocess.Popen(args_for("decode"))
        """
    )
    variants, runs = _runs_of(source, monkeypatch)
    assert len({key for fixed in runs for key in fixed}) == 1
    assert sorted(variants) == [
        (["--disaggregation-mode", "decode"], ["`has_rdma()` is false"]),
        (["--disaggregation-mode", "decode", "--disaggregation-ib-device", "mlx5_0"], ["`has_rdma()` is true"]),
        (["--disaggregation-mode", "prefill"], ["`has_rdma()` is false"]),
        (["--disaggregation-mode", "prefill", "--disaggregation-ib-device", "mlx5_0"], ["`has_rdma()` is true"]),
    ]


def test_a_condition_over_a_parameter_is_decided_per_call(monkeypatch) -> None:
    """One that reads its function's parameter may go each way in each call."""
    source = textwrap.dedent(
        """
        import os, subprocess

        def args_for(role, rdma):
            extra = ["--disaggregation-ib-device", "mlx5_0"] if rdma else []
            return ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", role, *extra]

        def main():
            subprocess.Popen(args_for("prefill", os.path.exists("/sys/class/infiniband/mlx5_0")))
            subprocess.Popen(args_for("decode", os.path.exists("/sys/class/infiniband/mlx5_1")))
        """
    )
    _, runs = _runs_of(source, monkeypatch)
    assert len({key for fixed in runs for key in fixed}) == 2


def test_exploring_starts_from_the_first_runs_first_fork(monkeypatch) -> None:
    """The first run (which merges) meets the branch a run from the start that
    may fork would stop at: exploring starts from that branch's two ways, not
    from a run of the whole file again that only finds it (SGLang's PD tests:
    the fork on `is_in_ci()` comes at the end of each run, a full run wasted)."""
    variants, runs = _runs_of(PYTHON_LAUNCHER, monkeypatch)
    assert len(variants) == 4
    assert [sorted(step.text for step in fixed.values()) for fixed in runs] == [[], ["$BIG_PAGES is non-empty"], ["$BIG_PAGES is empty or unset"]]


def test_the_first_fork_of_a_shell_script_is_the_one_a_run_from_the_start_meets() -> None:
    """The same for the shell source (its launches ask to fork where they are
    recorded): the same variants as a run from the start gives."""
    assert _variants(analyze_shell("run.sh", ARRAY_IN_BRANCH)) == _variants_without_the_shortcut(ARRAY_IN_BRANCH)


def _variants_without_the_shortcut(script: str):
    """The variants of runs that fork from the start, with no merged first
    run to start them from its first fork (or to be the answer when it has
    none): as an analysis that follows an earlier one runs, given a hint no
    run meets."""
    from sglang_lint.sources import shell as shell_source

    original = shell_source.explore

    def from_the_start(run, imprecise=None, learned=None):
        return original(run, imprecise, {"a decision no run meets": None})

    shell_source.explore = from_the_start
    try:
        return _variants(analyze_shell("run.sh", script))
    finally:
        shell_source.explore = original


def test_the_next_analysis_of_a_file_takes_the_decisions_the_last_one_forked_on(tmp_path, monkeypatch) -> None:
    """Issue 24: an editor analyzes a file again after each edit. The run of
    the next version follows the last one (ProjectFiles.follows): the
    decisions the last analysis of the file forked on are taken from the
    start, and the merged first run is skipped (8 -> 6 runs of SGLang's PD
    fixture per edit). The variants are those of a fresh analysis, also when
    the edit removed the branches the hints name."""
    from msgspec.structs import replace

    from sglang_lint.sources.project import ProjectFiles

    path = str(tmp_path / "flags.py")
    (tmp_path / "flags.py").write_text(THREE_FLAGS)
    runs = record_runs(monkeypatch)
    project = ProjectFiles((str(tmp_path),), run="first")
    fresh = _variants(analyze_python(path, THREE_FLAGS, None, project.reader()))
    assert len(runs) == 9 and runs[0] == {}  # the merged run, then one per variant
    runs.clear()
    following = _variants(analyze_python(path, THREE_FLAGS, None, replace(project, run="second", follows="first").reader()))
    assert following == fresh
    assert len(runs) == 8  # no merged run
    # The branches gone: the hints name decisions no run meets.
    plain = THREE_FLAGS.replace('os.environ.get("BACKEND")', "False").replace('os.environ.get("DEVICE")', "False")
    (tmp_path / "flags.py").write_text(plain)
    runs.clear()
    edited = _variants(analyze_python(path, plain, None, replace(project, run="third", follows="second").reader()))
    assert edited == _variants(analyze_python(path, plain, None, ProjectFiles((str(tmp_path),), run="fresh").reader()))
    assert len(edited) == 2


LAUNCH_IN_CONDITION = textwrap.dedent(
    """\
    import os, subprocess

    def start(tp):
        return subprocess.Popen(["python3", "-m", "sglang.launch_server", "--tp", tp])

    def main():
        tp = "8" if os.environ.get("BIG") else "4"
        if start(tp).poll() is not None and os.environ.get("STRICT") != "1":
            raise SystemExit(1)
        extra = ["--page-size", "64"] if os.environ.get("STRICT") != "1" else []
        subprocess.Popen(["python3", "-m", "sglang.launch_server", "--tp", "2", *extra])

    if __name__ == "__main__":
        main()
    """
)


@pytest.mark.parametrize("big, strict", [(None, None), ("1", None), (None, "1"), ("1", "1")])
def test_a_condition_that_launches_is_not_evaluated_again_to_take_a_decision(tmp_path, big, strict) -> None:
    """Taking a learned decision evaluates its condition again on the path
    that fixes it; a condition that launched (`start(tp).poll()`) would
    launch twice: it is merged as before (the launch at line 4 was reported
    once more under `$STRICT is '1'`; the server is running, so `poll()`
    is None). CPython under each environment runs
    what the variants whose conditions hold say, once each."""
    (tmp_path / "run.py").write_text(LAUNCH_IN_CONDITION)
    env = {name: value for name, value in (("BIG", big), ("STRICT", strict)) if value}
    ran = cpython_popen_calls(tmp_path, tmp_path / "run.py", env, drop=3)
    holds = {"$BIG is non-empty" if big else "$BIG is empty or unset", "$STRICT is '1'" if strict else "$STRICT is not '1'"}
    reported = [argv for argv, condition in _variants(analyze_python("run.py", LAUNCH_IN_CONDITION)) if set(condition) <= holds]
    assert ran == reported


@pytest.mark.parametrize("bound", [2, 3, 4, 5, 8])
def test_a_run_that_took_its_share_of_paths_says_what_it_merged(monkeypatch, bound) -> None:
    """A run that used its share of the path bound taking learned decisions
    cannot fork at its end either: what it merged there is said in the
    bound's note, never silently (the launch keeps its merged words)."""
    from sglang_lint.sources import paths as paths_module

    monkeypatch.setattr(paths_module, "MAX_PATHS", bound)
    result = analyze_python("flags.py", THREE_FLAGS)
    variants = _variants(result)
    merged = any(any(word.startswith("<") or "|" in word for word in argv) for argv, _ in variants)
    noted = any(note.message.startswith(f"more than {bound} paths") for note in result.notes)
    assert len(variants) <= 8
    assert merged == noted, (variants, [note.message for note in result.notes])


CALLED_IN_A_BRANCH = textwrap.dedent(
    """\
    import os
    import subprocess
    import sys


    def launch_server(port):
        cmd = [sys.executable, "-m", "sglang.launch_server", "--port", str(port)]
        if os.environ.get("QUANT"):
            cmd.extend(["--quantization", os.environ["QUANT"]])
        return subprocess.Popen(cmd)


    def main():
        if os.environ.get("NO_LAUNCH") != "1":
            launch_server(30000).poll()
        return 0


    if __name__ == "__main__":
        main()
    """
)


@pytest.mark.parametrize("no_launch, quant", [(None, None), ("1", None), (None, "fp8"), ("1", "fp8")])
def test_a_function_only_a_branch_calls_launches_on_that_branch_only(tmp_path, no_launch, quant) -> None:
    """A path that skips the call (`NO_LAUNCH=1`, a script pointed at a
    running server) starts nothing; the function was run as an entry point of
    its own there, a launch with no caller that CPython never makes, and its
    findings came twice (mattbucci's scripts/debug/repro_gemma4_hsail.py:
    SGL202 twice at one line). CPython under each environment runs what the
    variants whose conditions hold say, once each."""
    (tmp_path / "run.py").write_text(CALLED_IN_A_BRANCH)
    env = {name: value for name, value in (("NO_LAUNCH", no_launch), ("QUANT", quant)) if value}
    ran = cpython_popen_calls(tmp_path, tmp_path / "run.py", env, drop=3)
    holds = {"$NO_LAUNCH is '1'" if no_launch else "$NO_LAUNCH is not '1'", "$QUANT is non-empty" if quant else "$QUANT is empty or unset"}
    variants = _variants(analyze_python("run.py", CALLED_IN_A_BRANCH))
    reported = [argv for argv, condition in variants if set(condition) <= holds]
    assert [argv[:2] for argv in ran] == [argv[:2] for argv in reported]
    assert len(variants) == 2


def test_an_editors_next_analysis_keeps_the_branch_a_call_is_in(tmp_path, monkeypatch) -> None:
    """The editor's next analysis of a file skips the merged run (it takes
    the decisions the last one forked on): what that run reached is kept with
    them, by function name (the file is parsed anew), so the path that skips
    the call starts nothing there either."""
    from sglang_lint.sources.project import FileReader, ProjectFiles

    learned_given: list[dict] = []
    explored = FileReader.explored

    def spy(self, path, env):
        learned = explored(self, path, env)
        learned_given.append(dict(learned))
        return learned

    monkeypatch.setattr(FileReader, "explored", spy)
    path = str(tmp_path / "run.py")
    first = analyze_python(path, CALLED_IN_A_BRANCH, files=FileReader(ProjectFiles((str(tmp_path),), run="edit-1")))
    edited = CALLED_IN_A_BRANCH.replace("30000", "30001")
    second = analyze_python(path, edited, files=FileReader(ProjectFiles((str(tmp_path),), run="edit-2", follows="edit-1")))
    assert learned_given[0] == {} and learned_given[1]  # the second skipped the merged run
    assert len(first.servers) == len(second.servers) == 2
    assert all(server.context for server in [*first.servers, *second.servers])


FLAG_HELPER = textwrap.dedent(
    """\
    import os
    import subprocess
    import sys


    def is_set(name):
        try:
            os.environ[name]
            return True
        except KeyError:
            return False


    def port():
        if not is_set("FIXED_PORT"):
            return 30000
        return 30001


    subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--port", str(port())])
    """
)


@pytest.mark.parametrize("fixed", [None, "1"])
def test_a_helper_returning_true_or_false_is_not_a_true_string(tmp_path, fixed) -> None:
    """`try: os.environ[name]; return True / except KeyError: return False`
    returns on both ways (it fell off, adding None: SpecForge's tests/utils.py
    port helper got None that way, a false SGL203), and which way is the
    environment's: the variable set or unset, a decision of the path. Merged,
    True and False were the texts "True"/"False", both true, so `not
    is_set(...)` was false on every way and the unset way's port was never
    reported. What CPython runs under each environment is among the variants."""
    (tmp_path / "run.py").write_text(FLAG_HELPER)
    ran = cpython_popen_calls(tmp_path, tmp_path / "run.py", {"FIXED_PORT": fixed} if fixed else {}, drop=3)
    reported = [argv for argv, _ in _variants(analyze_python("run.py", FLAG_HELPER))]
    assert len(ran) == 1 and ran[0] in reported, (ran, reported)


FLAG_FROM_GETENV = textwrap.dedent(
    """\
    import os
    import subprocess
    import sys

    big = True if os.getenv("BIG") else False
    if big:
        tp = 8
    else:
        tp = 2
    subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--tp-size", str(tp)])
    """
)


@pytest.mark.parametrize("big", [None, "1"])
def test_a_flag_set_on_one_way_of_a_decision_has_that_ways_truth(tmp_path, big) -> None:
    """`True if os.getenv("BIG") else False` is True on one way of the path's
    decision and False on the other; merged as texts it was a true string and
    `if big:` always took the tp 8 branch (tp 2 was never reported)."""
    (tmp_path / "run.py").write_text(FLAG_FROM_GETENV)
    ran = cpython_popen_calls(tmp_path, tmp_path / "run.py", {"BIG": big} if big else {}, drop=3)
    reported = [argv for argv, _ in _variants(analyze_python("run.py", FLAG_FROM_GETENV))]
    assert len(ran) == 1 and ran[0] in reported, (ran, reported)
    assert sorted(argv[-1] for argv in reported) == ["2", "8"]


def test_the_environment_lookup_try_follows_the_configured_environment() -> None:
    """With the variable in the config's env, only the set way runs."""
    from sglang_lint.sources.python import analyze_python as analyze

    servers = analyze("run.py", FLAG_HELPER, env={"FIXED_PORT": "1"}).servers
    assert [server.args[-1].value.text for server in servers] == ["30001"]


def test_a_helper_that_raises_on_every_way_gives_no_value() -> None:
    """No free port among those tried: CPython raises and starts nothing. Its
    result was None, and `--port None` a false SGL203 'invalid int value'."""
    from sglang_lint.pipeline import LintOptions, lint_texts

    text = textwrap.dedent(
        """\
        import subprocess


        def free_port():
            for port in range(10000, 10003):
                if port % 7 == 0:
                    return port
            raise RuntimeError("no free port")


        def test_launch():
            subprocess.Popen(["python3", "-m", "sglang.launch_server", "--port", str(free_port())])
        """
    )
    (server,) = analyze_python("t.py", text).servers
    port = server.args[-1].value
    assert port.kind.value == "unknown" and "raises" in port.reason
    assert lint_texts({"t.py": text}, LintOptions()).findings == []


def test_a_try_whose_body_and_handlers_all_return_does_not_fall_off() -> None:
    """Both ways of `try: ...; return "a" / except OSError: return "b"` return:
    the function never reaches its end, so None is not one of its values (it
    was: SpecForge's port helper, `--port None`)."""
    text = textwrap.dedent(
        """\
        import subprocess


        def name():
            try:
                probe()
                return "m-a"
            except OSError:
                return "m-b"


        subprocess.Popen(["python3", "-m", "sglang.launch_server", "--served-model-name", name()])
        """
    )
    (server,) = analyze_python("t.py", text).servers
    assert sorted(server.args[-1].value.candidates()) == ["m-a", "m-b"]


OPTIONAL_CHOICE = (
    "#!/bin/bash\n"
    'FP8_GEMM_BACKEND="${FP8_GEMM_BACKEND:-}"\n'
    "CMD=(python -m sglang.launch_server --model-path /m)\n"
    '[[ -n "$FP8_GEMM_BACKEND" ]] && CMD+=(--fp8-gemm-backend "$FP8_GEMM_BACKEND")\n'
    'exec "${CMD[@]}"\n'
)


def test_a_value_tested_non_empty_is_not_its_empty_default(tmp_path) -> None:
    """`X="${X:-}"` then `[[ -n "$X" ]] && CMD+=(--opt "$X")`: on the path that
    adds the option X is non-empty, so its empty default is not its value. It
    was reported as "invalid choice: ''" (mattbucci's launch.sh)."""
    result = _lint(tmp_path, "run.sh", OPTIONAL_CHOICE)
    assert [f.code for f in result.findings] == []
    launched = _variants(analyze_shell("run.sh", OPTIONAL_CHOICE))
    assert sorted(launched) == [
        (["--model-path", "/m"], ["$FP8_GEMM_BACKEND is empty"]),
        (["--model-path", "/m", "--fp8-gemm-backend", "$FP8_GEMM_BACKEND"], ["$FP8_GEMM_BACKEND is non-empty"]),
    ]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("given", [None, "", "triton"])
def test_a_value_tested_non_empty_against_bash(tmp_path, given) -> None:
    """bash never passes the option an empty value, whatever the environment."""
    script = tmp_path / "run.sh"
    script.write_text(OPTIONAL_CHOICE.replace('exec "${CMD[@]}"', 'printf "%s\\n" "${CMD[@]}"'))
    env = {"PATH": os.environ.get("PATH", "")}
    if given is not None:
        env["FP8_GEMM_BACKEND"] = given
    argv = subprocess.run(["bash", str(script)], env=env, capture_output=True, text=True, check=True).stdout.split("\n")[:-1]
    assert argv[5:] == ([] if not given else ["--fp8-gemm-backend", given])


OPTIONAL_CHOICE_PY = """\
import os, subprocess
backend = os.environ.get("FP8_GEMM_BACKEND", "")
kv = os.getenv("KV_DTYPE", "")
cmd = ["python", "-m", "sglang.launch_server", "--model-path", "/m"]
if backend:
    cmd += ["--fp8-gemm-backend", backend]
if kv != "":
    cmd += ["--kv-cache-dtype", kv]
subprocess.Popen(cmd)
"""


def test_a_python_value_tested_non_empty_is_not_its_empty_default(tmp_path) -> None:
    """`x = os.environ.get("X", "")` then `if x:` or `if x != "":` adds the
    option only when X is non-empty: `if x:` is the path's decision on X
    (it was one of its own, "`backend` is true"), and on that path x is not
    its empty default (both were "invalid choice: ''")."""
    result = _lint(tmp_path, "launch.py", OPTIONAL_CHOICE_PY)
    assert [f.code for f in result.findings] == []
    conditions = sorted(tuple(condition) for _, condition in _variants(analyze_python("launch.py", OPTIONAL_CHOICE_PY)))
    # (`kv != ""` of `os.getenv("KV_DTYPE", "")` is `$KV_DTYPE is non-empty`:
    # unset gives '' there, which `$KV_DTYPE is not ''` would not say)
    assert ("$FP8_GEMM_BACKEND is non-empty", "$KV_DTYPE is non-empty") in conditions


@pytest.mark.parametrize(("backend", "kv"), [(None, None), ("", "fp8_e4m3"), ("triton", None), ("triton", "")])
def test_a_python_value_tested_non_empty_against_cpython(tmp_path, backend, kv) -> None:
    """What CPython runs under each environment is the variant whose
    condition holds, and no option is ever given ''."""
    (tmp_path / "launch.py").write_text(OPTIONAL_CHOICE_PY)
    env = {name: value for name, value in (("FP8_GEMM_BACKEND", backend), ("KV_DTYPE", kv)) if value is not None}
    (ran,) = cpython_popen_calls(tmp_path, tmp_path / "launch.py", env, drop=3)
    want = (f"$FP8_GEMM_BACKEND is {'non-empty' if backend else 'empty or unset'}", f"$KV_DTYPE is {'non-empty' if kv else 'empty or unset'}")
    (reported,) = [argv for argv, condition in _variants(analyze_python("launch.py", OPTIONAL_CHOICE_PY)) if tuple(condition) == want]
    assert "" not in ran
    assert ran == [env.get(word[1:], word) if word.startswith("$") else word for word in reported]


GUARDED_SHELL = (
    "#!/bin/bash\n"
    'TP="${TP:-}"\n'
    'if [ -z "$TP" ]; then\n'
    '  echo "usage: TP=<n> $0" >&2\n'
    "  exit 1\n"
    "fi\n"
    'KV=${1:-}\n'
    '[ -z "$KV" ] && { echo "usage: $0 KV_DTYPE"; exit 1; }\n'
    'MODE="${MODE:-}"\n'
    'if [ "$MODE" != prefill ] && [ "$MODE" != decode ]; then echo "MODE?"; exit 1; fi\n'
    'python3 -m sglang.launch_server --model-path /m --tp "$TP" --kv-cache-dtype "$KV" --disaggregation-mode "$MODE"\n'
)


def test_a_guard_that_exits_fixes_what_follows(tmp_path) -> None:
    """`if [ -z "$TP" ]; then exit 1; fi` then `--tp "$TP"`: past the guard TP
    is non-empty, so its empty default is not its value (it was "invalid int
    value: ''"). A guard over two values (`$MODE` is prefill or decode) fixes
    neither: the launch keeps both of its roles."""
    result = _lint(tmp_path, "run.sh", GUARDED_SHELL)
    assert [f.code for f in result.findings] == []
    (launch,) = analyze_shell("run.sh", GUARDED_SHELL).servers
    assert [t.value.describe() for t in launch.args][3:6] == ["$TP", "--kv-cache-dtype", "$1"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(("tp", "kv", "mode"), [(None, "fp8_e4m3", "decode"), ("8", None, "decode"), ("8", "fp8_e4m3", None), ("8", "fp8_e4m3", "prefill"), ("", "", "")])
def test_a_guard_that_exits_against_bash(tmp_path, tp, kv, mode) -> None:
    """bash runs the launch only where every guard passes, and then never
    with an empty value."""
    calls = bash_python3_calls(tmp_path, GUARDED_SHELL, {"TP": tp, "MODE": mode}, [kv] if kv is not None else [])
    ran = calls[0] if calls else None
    assert (ran is not None) == bool(tp and kv and mode in ("prefill", "decode"))
    if ran is not None:
        assert "" not in ran and ran[-1] == mode


GUARDED_PY = """\
import os, subprocess, sys
tp = os.environ.get("TP", "")
if not tp:
    sys.exit("set TP")
kv = os.getenv("KV", "")
assert kv, "set KV"
mode = os.getenv("MODE", "")
if mode not in ("prefill", "decode"):
    raise SystemExit(f"MODE? {mode!r}")
subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp", tp, "--kv-cache-dtype", kv, "--disaggregation-mode", mode])
"""


def test_a_python_guard_that_exits_fixes_what_follows(tmp_path) -> None:
    """`if not tp: sys.exit(...)`, `assert kv`: past them the values are not
    their empty defaults (`sys.exit` ended nothing before; both were "invalid
    ... ''")."""
    result = _lint(tmp_path, "launch.py", GUARDED_PY)
    assert [f.code for f in result.findings] == []


@pytest.mark.parametrize(("tp", "kv", "mode"), [(None, "fp8_e4m3", "decode"), ("8", "", "decode"), ("8", "fp8_e4m3", "other"), ("8", "fp8_e4m3", "prefill")])
def test_a_python_guard_that_exits_against_cpython(tmp_path, tp, kv, mode) -> None:
    (tmp_path / "launch.py").write_text(GUARDED_PY)
    env = {name: value for name, value in (("TP", tp), ("KV", kv), ("MODE", mode)) if value is not None}
    try:
        ran = cpython_popen_calls(tmp_path, tmp_path / "launch.py", env, drop=3)
    except subprocess.CalledProcessError:
        ran = []  # (SystemExit or AssertionError: nothing launched)
    assert bool(ran) == bool(tp and kv and mode in ("prefill", "decode"))
    reported = [[t.value.describe() for t in s.args] for s in analyze_python("launch.py", GUARDED_PY).servers]
    for argv in ran:
        assert "" not in argv
        assert any(len(r) == len(argv) for r in reported)


GUARDED_IN_BRANCH_SHELL = (
    "#!/bin/bash\n"
    'ROLE="${ROLE:-}"\n'
    'TP="${TP:-}"\n'
    'if [ "$ROLE" = prefill ]; then\n'
    '  [ -z "$TP" ] && { echo "prefill needs TP"; exit 1; }\n'
    '  python3 -m sglang.launch_server --model-path /m --disaggregation-mode prefill --tp "$TP"\n'
    "fi\n"
    'python3 -m sglang.launch_server --model-path /m --disaggregation-mode decode --tp "$TP"\n'
)


def test_a_guard_inside_a_branch_holds_to_the_branch_end(tmp_path) -> None:
    """A guard inside an `if` body fixes what follows it in that body, as a
    decision of the path (the exit makes the ways differ): the prefill launch
    has a non-empty TP. The decode launch after the `if` also runs on the way
    that never met the guard, where TP may be its empty default: a warning
    under that decision only."""
    result = _lint(tmp_path, "run.sh", GUARDED_IN_BRANCH_SHELL)
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL203", 8)]
    (finding,) = result.findings
    assert finding.message.startswith("when $ROLE is not prefill (line 4), ")
    variants = _variants(analyze_shell("run.sh", GUARDED_IN_BRANCH_SHELL))
    assert (["/m", "prefill", "$TP"], ["$ROLE is prefill", "$TP is non-empty"]) in [([w for w in argv if not w.startswith("--")][-3:], condition) for argv, condition in variants]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(("role", "tp"), [("prefill", None), ("prefill", "8"), ("decode", None), (None, "4")])
def test_a_guard_inside_a_branch_against_bash(tmp_path, role, tp) -> None:
    """bash runs the prefill launch only with a non-empty TP, and the decode
    launch with an empty one only where sglang-lint's warning says."""
    ran = [(argv[-3], argv[-1]) for argv in bash_python3_calls(tmp_path, GUARDED_IN_BRANCH_SHELL, {"ROLE": role, "TP": tp})]
    expected = {("prefill", None): [], ("prefill", "8"): [("prefill", "8"), ("decode", "8")], ("decode", None): [("decode", "")], (None, "4"): [("decode", "4")]}
    assert ran == expected[(role, tp)]
    (finding,) = _lint(tmp_path, "run.sh", GUARDED_IN_BRANCH_SHELL).findings
    assert ("" in dict(ran).values()) == (role != "prefill" and not tp)  # the warning's condition


GUARDED_IN_BRANCH_PY = """\
import os, subprocess, sys
role = os.getenv("ROLE", "")
tp = os.getenv("TP", "")
if role == "prefill":
    if not tp:
        sys.exit("prefill needs TP")
    subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", "prefill", "--tp", tp])
subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", "decode", "--tp", tp])
"""


def test_a_python_guard_inside_a_branch_holds_to_the_branch_end(tmp_path) -> None:
    """The Python twin: `if not tp: sys.exit()` inside `if role == "prefill":`
    fixes the prefill launch's TP; the decode launch after the branch may have
    it empty where the role is not prefill, and only there."""
    result = _lint(tmp_path, "launch.py", GUARDED_IN_BRANCH_PY)
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL203", 8)]
    assert "$ROLE is not 'prefill'" in result.findings[0].message


@pytest.mark.parametrize(("role", "tp"), [("prefill", None), ("prefill", "8"), ("decode", None), (None, "4")])
def test_a_python_guard_inside_a_branch_against_cpython(tmp_path, role, tp) -> None:
    (tmp_path / "launch.py").write_text(GUARDED_IN_BRANCH_PY)
    env = {name: value for name, value in (("ROLE", role), ("TP", tp)) if value is not None}
    try:
        ran = [(argv[-3], argv[-1]) for argv in cpython_popen_calls(tmp_path, tmp_path / "launch.py", env, drop=3)]
    except subprocess.CalledProcessError:
        ran = []  # (SystemExit: nothing launched)
    expected = {("prefill", None): [], ("prefill", "8"): [("prefill", "8"), ("decode", "8")], ("decode", None): [("decode", "")], (None, "4"): [("decode", "4")]}
    assert ran == expected[(role, tp)]


FLAG_LOOP = """\
import os
import subprocess

command = ["python3", "-m", "sglang.launch_server", "--model-path", "m"]
options = {"TP_SIZE": "--tp-size", "DTYPE": "--dtype", "PORT": "--port", "CONTEXT_LENGTH": "--context-length", "MEM_FRACTION": "--mem-fraction-static"}
for env_var, option in options.items():
    value = os.getenv(env_var)
    if value is not None and value != "":
        command.extend([option, value])
for flag in ["TRUST_REMOTE_CODE", "LOG_REQUESTS", "DISABLE_RADIX_CACHE", "DISABLE_CUDA_GRAPH", "ENABLE_FLASHINFER_MLA", "ENABLE_P2P_CHECK"]:
    if os.getenv(flag, "").lower() in ("true", "1", "yes"):
        command.append(f"--{flag.lower().replace('_', '-')}")
subprocess.Popen(command)
"""


def test_a_warning_names_the_decisions_that_make_the_difference(tmp_path) -> None:
    """A loop over boolean environment flags (runpod's worker-sglang engine.py):
    the paths where `--enable-flashinfer-mla` (unknown to 0.5.23) is added
    share every decision taken before it, and the message listed 39 of them.
    It names those a path without the finding went the other way on, first
    the flag's own, and at most 4 (the finding's path has them all)."""
    result = _lint(tmp_path, "engine.py", FLAG_LOOP)
    (finding,) = [f for f in result.findings if f.code == "SGL202"]
    condition = finding.message.split(", unknown option", 1)[0]
    assert "$ENABLE_FLASHINFER_MLA" in condition
    assert "$TRUST_REMOTE_CODE" not in condition and "$LOG_REQUESTS" not in condition
    assert condition.count(" is one of ") <= 4


THREE_CALLERS = """\
import subprocess


class Manager:
    def __init__(self, max_len=None):
        self.max_len = max_len

    def build(self):
        cmd = ["python", "-m", "sglang.launch_server", "--model-path", "m"]
        if self.max_len:
            cmd.extend(["--max-model-len", str(self.max_len)])
        return cmd

    def start(self):
        subprocess.Popen(self.build())


def on_chat(config):
    Manager(config).start()


def on_voice(config):
    Manager(config).start()


def on_reload(config):
    Manager(config).start()
"""


def test_one_branch_reached_from_three_callers_gives_one_finding() -> None:
    """A public voice assistant's server manager starts SGLang from three
    handlers: the branch that adds vLLM's `--max-model-len` is met on each
    call chain, a decision of its own per chain (its key names the chain).
    The same finding came three times, nothing telling them apart."""
    result = lint_texts({"manager.py": THREE_CALLERS})
    assert [(f.code, f.location.line, f.message) for f in result.findings] == [
        ("SGL202", 11, "when `self.max_len` is true (line 10), unknown option --max-model-len for sglang 0.5.23"),
    ]
    (finding,) = result.findings
    assert [step.key for step in finding.path] != [""]  # (the kept one's own decision)


def test_one_launch_reached_two_ways_gives_one_finding_per_mistake() -> None:
    """A launch that runs in a function the file calls, and again as a root of
    its own (ktransformers' `kt run`, slime's external-PD test), is two groups
    of variants. Each gave the same finding at the same word: once as it holds
    on every path of one group (differing only in the notes naming the other
    paths), and once conditioned on a path of the other ("when ..., unknown
    option X"). One finding is left, unconditioned, with the notes of both."""
    from sglang_lint.analysis import _one_per_place
    from sglang_lint.model import Finding, Location, PathStep
    from sglang_lint.variant_findings import _conditioned, _without_covered

    where = Location("run.py", 676, 17)
    finding = Finding("SGL202", "unknown-option", "unknown option --kt-x for sglang 0.5.23", where)
    step = PathStep("k", False, "`'--help' in sys.argv` is false", Location("run.py", 123, 8))
    conditioned = _conditioned(finding, (step,), 0, Severity.WARNING)
    assert conditioned.message.startswith("when `'--help' in sys.argv` is false (line 123), unknown option")
    first = replace(finding, notes=("on the path when A: another",))
    second = replace(finding, notes=("on the path when B: another",))
    kept = _one_per_place(_without_covered([first, conditioned, second]))
    assert [(f.message, f.severity, f.notes) for f in kept] == [(finding.message, Severity.ERROR, ("on the path when A: another", "on the path when B: another"))]
    # Two launches (a function called once per role) keep a finding each: their
    # notes say which (issue 16, fixture variants-hicache-offload).
    prefill = replace(finding, notes=("run.py:9 (serve() called at line 20) sets --kt-x",))
    decode = replace(finding, notes=("run.py:9 (serve() called at line 21) sets --kt-x",))
    assert len(_one_per_place([prefill, decode])) == 2
    # A finding that holds on some paths only, with no unconditioned twin, stays.
    other = Finding("SGL202", "unknown-option", "unknown option --kt-y for sglang 0.5.23", where)
    assert _without_covered([first, _conditioned(other, (step,), 0, Severity.WARNING)])[1].path == (step,)


def test_a_dict_merged_over_a_branch_forks_on_that_branch_only(monkeypatch) -> None:
    """`kwargs["log_level"] = "error"` under `if "log_level" not in kwargs`
    merges the dict into one SGLang's `Engine(**kwargs)` cannot see into; the
    merge is over that branch alone, as for any merged value. It was not
    recorded, so the launch forked on every branch its root met, a helper's
    `$PLUGINS` too (SGLang 0.5.23 `srt/entrypoints/engine.py:277-297`, whose
    `load_plugins()` reads `$SGLANG_PLUGINS` and `$SGLANG_PLATFORM`: 14 runs of
    the module where 5 give its launches; issue 20)."""
    source = textwrap.dedent(
        """
        import os
        import sglang as sgl


        def plugins():
            if os.environ.get("PLUGINS"):
                found = os.environ["PLUGINS"].split(",")
            else:
                found = []
            return found


        def start(**kwargs):
            plugins()
            if "log_level" not in kwargs:
                kwargs["log_level"] = "error"
            return sgl.Engine(**kwargs)
        """
    )
    runs = record_runs(monkeypatch)
    result = analyze_python("start.py", source)
    keywords = sorted(tuple((keyword.name, keyword.value.describe()) for keyword in server.keywords if keyword.name) for server in result.servers)
    assert keywords == [(), (("log_level", "error"),)]
    assert not any("PLUGINS" in key for fixed in runs for key in fixed)
    assert len(runs) == 3  # the merged run, then the two ways of `"log_level" not in kwargs`


def test_a_merged_run_with_nothing_to_fork_on_is_the_answer(monkeypatch) -> None:
    """A launch word merged over no decision (a `try` that returns a port or
    a fallback) makes the merged run imprecise, but no branch it met is one
    to fork on: a run that may fork meets the same branches and forks on none,
    so it would be the merged run again (SGLang's test_utils.py: a second run
    of 0.14 s for the same launches; issue 20)."""
    source = textwrap.dedent(
        """
        import os
        import subprocess

        from helpers import find_port

        if os.environ.get("CI"):
            TIMEOUT = 600
        else:
            TIMEOUT = 300


        def port():
            try:
                return str(find_port())
            except OSError:
                return "30000"


        subprocess.run(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--port", port()], timeout=TIMEOUT)
        """
    )
    variants, runs = _runs_of(source, monkeypatch)
    assert variants == [(["--model-path", "m", "--port", "<unknown: one of several branches is not static>"], [])]
    assert runs == [{}]
