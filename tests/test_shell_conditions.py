"""Shell conditions decided by known values (issue 16, part 2), loops over known
words, the script's ``set --`` parameters and ``eval`` of a built string (part 3).

A function called once per role builds its argv along branches on its own
parameters (`if [[ "$1" == decode ]]; then cmd+=(...)`): the condition is known
at each call site, so only the branch bash takes runs, and the launch keeps an
exact argv. The ground truth is bash itself: each script runs with a recording
``python3`` stub first on PATH, and the argv it records must be exactly the
launches sglang-lint reports. A condition over what the file does not set (an
environment variable, even with a ``${X:-default}``) is not decided.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from _argv import known_argvs

from sglang_lint.model import Kind
from sglang_lint.sources.shell import analyze_shell

LAUNCH = "python3 -m sglang.launch_server"

# Each script calls its launcher once per role with known arguments.
SCRIPTS = {
    "test-command": """
launch() {
  if test "$1" = prefill; then port=30000; else port=30001; fi
  extra=()
  test -n "$2" && extra=(--page-size "$2")
  dp=()
  if test ! "$1" != decode; then dp=(--dp-size 8 --enable-dp-attention); fi
  LAUNCH --disaggregation-mode "$1" --port "$port" "${extra[@]}" "${dp[@]}" &
}
launch prefill 64
launch decode
""",
    # tree-sitter-bash drops the `$` of `$2` after a concatenation of two pieces
    # (the issue's own example): one word for bash, an assignment and a command
    # `2""` for the parser. And `$23` is `${2}3`.
    "quote-concatenation-of-positionals": """
run() {
  ARGS="--disaggregation-mode "$1" --tp-size "$2" --port "$3""
  LAUNCH $ARGS --served-model-name m"-"$2 --page-size "1"$23 &
}
run prefill 8 30000
run decode 4 30001
""",
    "if-double-bracket": """
launch() {
  cmd=(LAUNCH --disaggregation-mode "$1" --tp-size 8 --port "$2")
  if [[ "$1" == decode ]]; then cmd+=(--dp-size 8 --enable-dp-attention); fi
  "${cmd[@]}" &
}
launch prefill 30000
launch decode 30001
""",
    "if-single-bracket-else": """
launch() {
  if [ "$1" = prefill ]; then
    extra="--page-size 64"
  else
    extra="--page-size 32 --dp-size 2 --enable-dp-attention"
  fi
  LAUNCH --disaggregation-mode "$1" $extra --port "$2" &
}
launch prefill 30000
launch decode 30001
""",
    "elif-chain-and-not-equal": """
serve() {
  local role=$1
  local args=(--disaggregation-mode "$role")
  if [[ "$role" != prefill && "$role" != decode ]]; then
    args+=(--bad)
  elif [[ "$role" == prefill ]]; then
    args+=(--tp 4)
  elif [[ "$role" == decode ]]; then
    args+=(--tp 8)
  else
    args+=(--never)
  fi
  LAUNCH "${args[@]}" &
}
serve prefill
serve decode
""",
    "glob-pattern-and-negation": """
go() {
  flags=""
  if [[ $1 == de* ]]; then flags="--enable-dp-attention --dp-size 4"; fi
  if ! [[ "$1" == "de*" ]]; then flags="$flags --tp 4"; fi
  LAUNCH --disaggregation-mode $1 $flags &
}
go prefill
go decode
""",
    "unary-tests-and-lists": """
start() {
  local extra=$2
  [ -n "$extra" ] && set_extra=yes || set_extra=no
  [[ -z "$extra" ]] || LAUNCH --disaggregation-mode "$1" --page-size "$extra" &
  [ -z "$extra" ] && LAUNCH --disaggregation-mode "$1" --tag "$set_extra" &
}
start prefill 64
start decode ""
""",
    "case-on-a-parameter": """
run_role() {
  case "$1" in
    prefill|p) opts="--disaggregation-mode prefill --port 30000" ;;
    decode) opts="--disaggregation-mode decode --port 30001 --dp-size 2 --enable-dp-attention" ;;
    *) opts="--disaggregation-mode null" ;;
  esac
  LAUNCH $opts --tp 2 &
}
run_role p
run_role decode
run_role other
""",
    "case-glob-items": """
for role in prefill decode; do
  case $role in
    pre*) LAUNCH --disaggregation-mode "$role" --port 30000 & ;;
    *ode) LAUNCH --disaggregation-mode "$role" --port 30001 & ;;
  esac
done
""",
    # The script's own positional parameters once `set --` gives them.
    "set-positional": """
set -- prefill 30000
LAUNCH --disaggregation-mode "$1" --port "$2" &
set -- decode 30001 --tp 4
shift 2
LAUNCH --disaggregation-mode decode --port 30001 "$@" &
""",
    # eval of a string the script built: read as script text, never run.
    "eval-built-string": """
cmd="LAUNCH --tp 8"
[ a = a ] && cmd="$cmd --dp 2"
eval "$cmd --port 30000" &
opts=(--tp 4 --disaggregation-mode decode)
eval LAUNCH "${opts[@]}" --port 30001
eval 'role=prefill'
LAUNCH --disaggregation-mode "$role" &
""",
    # `${A[@]+"${A[@]}"}`: the `set -u`-safe spelling of "${A[@]}".
    "guarded-array": """
set -u
EXTRA=()
[ a = a ] && EXTRA+=(--page-size 64)
NONE=()
LAUNCH --tp 8 ${EXTRA[@]+"${EXTRA[@]}"} ${NONE[@]+"${NONE[@]}"} --port 30000 &
""",
    # `read -r -a ARR <<< "$STRING"`: the string's fields as an array.
    "read-herestring": """
FLAGS="--tp 8   --dp 2 --enable-dp-attention"
read -r -a ARR <<< "$FLAGS"
read -r MODE <<< "  decode  "
LAUNCH --disaggregation-mode "$MODE" "${ARR[@]}" &
""",
    # Blanks tree-sitter folds into the next token inside double quotes (`"$A $B"`:
    # the second `$` token is ` $`) are kept, as bash keeps them.
    "quoted-blanks": """
BASE="--tp-size 8"
EXTRA="--port 30000"
ARGS="$BASE $EXTRA"
NAME="m"
LAUNCH $ARGS --model-path "/models/$NAME $NAME "" x" --served-model-name a" "b &
""",
    # `(( NNODES > 1 ))` on values the file sets (multi-node options).
    "arithmetic-condition": """
NNODES=2
extra=""
if (( NNODES > 1 )); then extra="--nnodes $NNODES --node-rank 0"; fi
LAUNCH --tp 16 $extra &
(( NNODES == 1 )) && LAUNCH --tp 8 &
(( NNODES * 4 >= 8 && NNODES != 3 )) || LAUNCH --never &
""",
}


def _argvs(script: str) -> list[list[str]]:
    return known_argvs(analyze_shell("run.sh", script).servers)


def _bash_argvs(script: str, tmp_path, env: dict[str, str] | None = None) -> list[list[str]]:
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    stub = tmp_path / "bin" / "python3"
    if not stub.exists():
        stub.parent.mkdir()
        # One file per call: launches run in the background, at the same time.
        stub.write_text('#!/bin/sh\nfor a in "$@"; do printf "%s\\0" "$a"; done > "$ARGV_LOG/$$"\n')
        stub.chmod(0o755)
    path = tmp_path / "run.sh"
    path.write_text(script + "wait\n")
    log = tmp_path / "argv"
    shutil.rmtree(log, ignore_errors=True)
    log.mkdir()
    subprocess.run(
        [bash, str(path)], capture_output=True, text=True, timeout=30,
        env={"PATH": f"{stub.parent}:/usr/bin:/bin", "ARGV_LOG": str(log), **(env or {})},
    )
    return [call.read_text().split("\0")[:-1] for call in sorted(log.iterdir())]


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_decided_conditions_agree_with_bash(name, tmp_path) -> None:
    script = SCRIPTS[name].replace("LAUNCH", LAUNCH)
    assert sorted(_argvs(script)) == sorted(_bash_argvs(script, tmp_path))


def test_a_condition_over_the_environment_is_not_decided(tmp_path) -> None:
    """`${ROLE:-prefill}` counts as prefill for an option's value, but a condition
    on it is over what the caller exports: both branches stay possible."""
    script = (
        'if [[ "${ROLE:-prefill}" == prefill ]]; then mode=prefill; else mode=decode; fi\n'
        f'{LAUNCH} --disaggregation-mode "$mode" &\n'
    )
    prefill, decode = analyze_shell("run.sh", script).servers
    # Both are launch variants (issue 16), each with the condition that gives it.
    assert [prefill.args[1].value.text, decode.args[1].value.text] == ["prefill", "decode"]
    assert [step.text for step in prefill.path_condition] == ["${ROLE:-prefill} is prefill"]
    assert [step.text for step in decode.path_condition] == ["${ROLE:-prefill} is not prefill"]
    assert _bash_argvs(script, tmp_path, {"ROLE": "decode"}) == [["-m", "sglang.launch_server", "--disaggregation-mode", "decode"]]


def test_a_decided_false_branch_adds_no_alternative() -> None:
    script = (
        'launch() {\n  port=30000\n  if [ "$1" = decode ]; then port=30001; fi\n'
        f'  {LAUNCH} --disaggregation-mode "$1" --port "$port" &\n}}\nlaunch prefill\n'
    )
    (launch,) = analyze_shell("run.sh", script).servers
    assert launch.args[3].value.describe() == "30000"


def test_fallthrough_case_items_are_not_decided() -> None:
    # `;&` runs on into the next item's body: not decided (both values possible).
    script = f'r=a\ncase "$r" in\n  a) tp=2 ;&\n  b) tp=4 ;;\nesac\n{LAUNCH} --tp "$tp" &\n'
    (launch,) = analyze_shell("run.sh", script).servers
    assert launch.args[1].value.kind is not Kind.KNOWN or launch.args[1].value.text == "4"


def test_a_loop_that_may_stop_early_is_not_unrolled(tmp_path) -> None:
    script = (
        "for tp in 2 4 8; do\n"
        '  [ "$tp" = 4 ] && break\n'
        f'  {LAUNCH} --tp "$tp" &\n'
        "done\n"
    )
    (launch,) = analyze_shell("run.sh", script).servers  # one launch, values as alternatives
    assert launch.args[1].value.candidates() == {"2", "4", "8"}
    assert _bash_argvs(script, tmp_path) == [["-m", "sglang.launch_server", "--tp", "2"]]  # covered by the alternatives


def test_nested_loops_unroll_within_one_bound() -> None:
    """Nested loops multiply launches (and the pairs of launches grow as their
    square): past MAX_UNROLLED_ITERATIONS runs of a body in all, a loop's values
    are alternatives of one iteration. 2^11 iterations here ran for minutes."""
    from sglang_lint.sources.shell_walk import MAX_UNROLLED_ITERATIONS

    script = "".join(f"for n{i} in 1 2; do\n" for i in range(11)) + f"{LAUNCH} --port $n0 --tp $n10 &\n" + "done\n" * 11
    launches = analyze_shell("run.sh", script).servers
    assert len(launches) == MAX_UNROLLED_ITERATIONS
    # the innermost loops, past the bound, give alternatives
    assert {launch.args[3].value.describe() for launch in launches} == {"{1, 2}"}


def test_set_doubling_its_parameters_stays_bounded() -> None:
    # `set -- "$@" "$@"` 600 times doubled the script's parameters 600 times (the
    # property test of repeated fragments ran out of memory).
    script = 'set -- a\n' + 'set -- "$@" "$@"\n' * 600 + f'{LAUNCH} "$@"\n'
    (launch,) = analyze_shell("run.sh", script).servers
    assert len(launch.args) == 1 and launch.args[0].spread


def test_a_default_of_the_scripts_own_parameters_counts() -> None:
    # `${2:-8}` of arguments the caller passes: 8 counts, as for `${TP:-8}` (the
    # default was dropped, found by the bash oracle).
    (launch,) = analyze_shell("run.sh", f"{LAUNCH} --tp-size ${{2:-8}} &\n").servers
    assert launch.args[1].value.candidates() == {"8"}


def test_an_arithmetic_condition_over_the_environment_is_not_decided() -> None:
    script = f'N=${{NNODES:-1}}\nif (( N > 1 )); then nodes=2; else nodes=1; fi\n{LAUNCH} --nnodes "$nodes" &\n'
    two, one = analyze_shell("run.sh", script).servers
    assert [two.args[1].value.text, one.args[1].value.text] == ["2", "1"]
    assert [step.text for step in two.path_condition] == ["`(( N > 1 ))` succeeds"]
    assert [step.text for step in one.path_condition] == ["`(( N > 1 ))` fails"]


def test_a_default_that_starts_with_a_name_and_a_dash_is_kept() -> None:
    # tree-sitter-bash reads `deepseek` of `${MODEL:-deepseek-ai/...}` as a variable
    # name; bash reads text (found by the bash oracle: the default was dropped).
    (launch,) = analyze_shell("run.sh", f"{LAUNCH} --model-path ${{MODEL:-deepseek-ai/DeepSeek-V3}} &\n").servers
    assert launch.args[1].value.candidates() == {"deepseek-ai/DeepSeek-V3"}


# Patterns tree-sitter-bash gives in pieces, one of them quoted: `*","*` is
# three nodes, `d"ecod"*` one concatenation. The first was read as `*` (its
# first piece, or each piece an alternative of a case item): a guard `then exit
# 1` always held, and every launch after it was lost without a note (a public
# Kimi K3 launcher's `AITER_GPU_ARCHS` check). The second was the text
# `decod*`, never matched by a value. bash decides which launches run.
QUOTED_GLOBS = {
    "test guard": 'if [[ "$ARCHS" == *","* ]]; then\n  exit 1\nfi\nLAUNCH --tp-size 8 &\n',
    "case guard": 'case "$ARCHS" in\n  *","*) exit 1 ;;\nesac\nLAUNCH --tp-size 8 &\n',
    "case concatenation": 'case "$1" in\n  d"ecod"*) LAUNCH --disaggregation-mode decode &\n    ;;\n  *) LAUNCH --disaggregation-mode prefill &\n    ;;\nesac\n',
    # a quoted `|` is a character, not the `|` between alternatives
    "case quoted bar": 'case "$1" in\n  a"|"b*) LAUNCH --disaggregation-mode decode &\n    ;;\nesac\n',
}


@pytest.mark.parametrize("name", sorted(QUOTED_GLOBS))
@pytest.mark.parametrize("value", ["", "gfx950", "gfx942,gfx950", "decode", "decod", "a", "a|bc"])
def test_a_pattern_in_pieces_is_one_glob(name, value, tmp_path) -> None:
    script = QUOTED_GLOBS[name].replace("LAUNCH", LAUNCH)
    ran = _bash_argvs(script.replace('"$1"', '"$ARCHS"'), tmp_path, {"ARCHS": value})
    matches = "," in value if "guard" in name else value.startswith("decod")
    launches = analyze_shell("run.sh", script.replace('"$1"', '"$ARCHS"')).servers
    if "guard" in name:
        # Past the guard the launch runs on the paths that go on (a guard is
        # no condition of the launch): reported once, run unless the value matches.
        assert [[token.value.text for token in launch.args] for launch in launches] == [["--tp-size", "8"]]
        assert [argv[2:] for argv in ran] == ([] if matches else [["--tp-size", "8"]])
        return
    reported = [[token.value.text for token in launch.args] for launch in launches if all(_holds(step.text, value) for step in launch.path_condition)]
    assert [argv[2:] for argv in ran] == reported


def _holds(condition: str, value: str) -> bool:
    """Whether a path condition on $ARCHS (as the shell source words it) holds
    for ``value``."""
    import fnmatch

    import re

    subject, _, rest = condition.partition(" ")
    assert subject == "$ARCHS", condition
    # (alternatives are split at a `|` outside brackets: `[|]` is the character)
    alternatives = re.compile(r"\|(?![^\[]*\])")
    if rest.startswith("matches "):
        return any(fnmatch.fnmatchcase(value, glob) for glob in alternatives.split(rest[len("matches ") :]))
    if rest.startswith("does not match "):
        return not any(fnmatch.fnmatchcase(value, glob) for glob in alternatives.split(rest[len("does not match ") :]))
    raise AssertionError(condition)


def test_a_decision_on_a_quoted_bar_implies_what_it_says(tmp_path) -> None:
    """Past `a"|"b*)`, `$X` matches `a[|]b*` (the quoted `|` a character): a
    test that `$X` is `a|bc` may hold there. Split at that `|`, the decision
    said it could not, and the launch under the test was lost."""
    script = f'case "$X" in\n  a"|"b*)\n    if [ "$X" = "a|bc" ]; then {LAUNCH} --tp-size 2 & fi\n    ;;\nesac\n'
    ran = _bash_argvs(script, tmp_path, {"X": "a|bc"})
    assert [argv[2:] for argv in ran] == [["--tp-size", "2"]]
    assert [[token.value.text for token in launch.args] for launch in analyze_shell("run.sh", script).servers] == [["--tp-size", "2"]]
