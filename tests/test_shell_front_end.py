"""The shell front end (issue 18, part 3): here-documents as embedded sources,
and parsing that never calls a script bash accepts a bash syntax error.

Ground truth for syntax is ``bash -n`` (it parses, never runs): every shell
fixture and a sample of the oracle's generated scripts (tests/_oracle_shell.py)
is checked with it, and so is every hand-written script below that claims bash
accepts it. The here-document rules follow bash(1), "Here Documents": a quoted
delimiter makes the text literal; otherwise parameter expansion, command
substitution and arithmetic expansion happen, and ``<<-`` strips leading tabs.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import _oracle_shell as oracle
from sglang_lint.sources.shell import analyze_shell

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the ground truth")

ROOT = Path(__file__).resolve().parent.parent
LS = "python3 -m sglang.launch_server"
REFUSE = "bash would refuse"
# Every note that says part of a script could not be parsed.
SYNTAX_NOTES = (REFUSE, "tree-sitter-bash cannot parse", "is never closed")


def bash_accepts(text: str) -> bool:
    done = subprocess.run(["bash", "-n"], input=text.encode("utf-8", "surrogatepass"), capture_output=True, timeout=30)
    return done.returncode == 0


def analyze_accepted(script: str, path: str = "run.sh"):
    """The analysis of a script that ``bash -n`` accepts (checked first)."""
    assert bash_accepts(script), script
    return analyze_shell(path, script)


def ports(result) -> list[str]:
    """The --port value of each server, in file order."""
    found = []
    for server in sorted(result.servers, key=lambda launch: launch.location):
        texts = [token.value.describe() for token in server.args]
        found.append(texts[texts.index("--port") + 1] if "--port" in texts else "?")
    return found


def syntax_notes(result) -> list[str]:
    return [note.message for note in result.notes if any(marker in note.message for marker in SYNTAX_NOTES)]


# -- bash -n is the judge ------------------------------------------------------------

SHELL_FIXTURES = sorted([*ROOT.glob("fixtures/**/*.sh"), *ROOT.glob("tests/golden/fixture/*.sh")])


@pytest.mark.parametrize("path", SHELL_FIXTURES, ids=[str(p.relative_to(ROOT)) for p in SHELL_FIXTURES])
def test_fixture_scripts_are_called_broken_only_when_bash_says_so(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    result = analyze_shell(str(path), text)
    if bash_accepts(text):
        assert not [m for m in syntax_notes(result) if REFUSE in m], path
    else:
        assert syntax_notes(result), f"bash -n rejects {path}, and no note says so"


def test_generated_scripts_bash_accepts_get_no_syntax_note() -> None:
    programs = [oracle.generate(seed, depth=2) for seed in range(150)]
    for program in programs:
        assert bash_accepts(program.text), program.text  # the generator writes valid bash
        assert syntax_notes(analyze_shell("gen.sh", program.text)) == [], (program.seed, program.text)


# Lines bash accepts and tree-sitter-bash 0.25 cannot parse (each checked with
# bash -n below): their neighbours' launches must be kept, and the note must not
# blame bash.
TREE_SITTER_FAILS = [
    '[ "$a" \\> "$b" ] && echo later\n',
    '[ ! \\( -f a.yaml -o -f b.yaml \\) ] && echo none\n',
    "cat <<A <<B\nfirst\nA\nsecond\nB\n",
    "logger <<EOF &\nstarted\nEOF\n",
]


def test_generated_scripts_with_a_line_tree_sitter_cannot_parse_are_never_called_refused() -> None:
    """A line tree-sitter-bash fails on, anywhere in a generated script (inside an
    `if`, a loop, a function: tree-sitter then often misses the closing `fi` at
    the end of the file too): no "bash would refuse" unless bash -n refuses."""
    import random

    rng = random.Random(18)
    for seed in range(120):
        lines = oracle.generate(seed, depth=2).text.splitlines(keepends=True)
        at = rng.randrange(len(lines) + 1)
        script = "".join(lines[:at]) + rng.choice(TREE_SITTER_FAILS) + "".join(lines[at:])
        notes = syntax_notes(analyze_shell("gen.sh", script))
        if bash_accepts(script):
            assert not [m for m in notes if REFUSE in m], (seed, at, script)


def test_a_token_tree_sitter_finds_missing_before_the_end_is_no_bash_syntax_error() -> None:
    """tree-sitter-bash, lost on `[ ! \\( ... \\) ]` in a function in a loop,
    reports a `]` missing in the middle and a `}` and `done` missing at the
    end: no construct is left open (bash -n accepts the script), so no
    "bash would refuse" (a generated script of the test above, seed 15,
    reduced)."""
    script = (
        "launch() {\n"
        f'  {LS} --disaggregation-mode "$role" "$@" &\n'
        "}\n"
        "for ROLE in prefill decode; do\n"
        "  serve2() {\n"
        "[ ! \\( -f a.yaml -o -f b.yaml \\) ] && echo none\n"
        '    echo "building $out" 1> /dev/null\n'
        "  }\n"
        f"  nohup {LS} $flags_3 &\n"
        "done\n"
        "for ((i = 0; i < ${NUM_DECODE:-1}; i++)); do\n"
        '  flags_4="$flags_4 --decode http://127.0.0.1:$((30001 + i))"\n'
        "done\n"
        "python3 -m sglang_router.launch_router $flags_4 --port '30001' &\n"
    )
    assert bash_accepts(script)
    notes = syntax_notes(analyze_shell("gen.sh", script))
    assert notes and not [m for m in notes if REFUSE in m], notes


@pytest.mark.parametrize("middle", TREE_SITTER_FAILS)
@pytest.mark.parametrize("in_function", [False, True], ids=["top-level", "in-function"])
def test_a_line_tree_sitter_cannot_parse_loses_no_other_launch(middle: str, in_function: bool) -> None:
    body = f"{LS} --port 30000 &\n{middle}{LS} --port 30001 &\n"
    result = analyze_accepted(f"serve() {{\n{body}}}\nserve\n" if in_function else body)
    assert ports(result) == ["30000", "30001"]
    notes = syntax_notes(result)
    assert notes and not [m for m in notes if REFUSE in m]


@pytest.mark.parametrize("ending", ["\\", "\\\n"], ids=["no-newline", "newline"])
@pytest.mark.parametrize("in_function", [False, True], ids=["top-level", "in-function"])
def test_a_backslash_at_the_end_of_the_file_ends_the_command(ending: str, in_function: bool) -> None:
    launch = f"{LS} --port 30000 \\\n  --tp-size 2 {ending}"
    result = analyze_accepted(f"serve() {{\n  {LS} --port 30001\n}}\nserve\n{launch}" if in_function else launch)
    assert result.notes == []
    assert sorted(ports(result)) == (["30000", "30001"] if in_function else ["30000"])
    last = max(result.servers, key=lambda launch: launch.location)
    assert [token.value.describe() for token in last.args] == ["--port", "30000", "--tp-size", "2"]


@pytest.mark.parametrize(
    "script",
    [
        f"{LS} --port 30000 &\necho \"never closed\n{LS} --port 30001 &\n",
        f"{LS} --port 30000 &\necho 'never closed\n{LS} --port 30001 &\n",
        f"{LS} --port 30000 &\nif true; then\n  {LS} --port 30001 &\n",
    ],
    ids=["double-quote", "single-quote", "if-without-fi"],
)
def test_a_construct_open_at_the_end_is_a_bash_syntax_error(script: str) -> None:
    assert not bash_accepts(script)
    result = analyze_shell("run.sh", script)
    assert [m for m in syntax_notes(result) if REFUSE in m]
    # What an open quote swallows is text to bash: nothing is recovered from it.
    assert "30000" in ports(result)


# A broken line among launches (property): wherever it goes, the other launches
# are kept, and the note names its line.
BROKEN_LINES = ["foo ) bar", '[ "$x" \\< "$y" ] || exit 1', "echo a ) b ) c", ")"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(1, 6), position=st.integers(0, 6), broken=st.sampled_from(BROKEN_LINES), indent=st.booleans())
def test_one_broken_line_among_launches_keeps_the_others(count: int, position: int, broken: str, indent: bool) -> None:
    lines = [f"{LS} --port {30000 + n} &" for n in range(count)]
    position = min(position, count)
    lines.insert(position, ("  " if indent else "") + broken)
    result = analyze_shell("run.sh", "\n".join(lines) + "\n")
    assert ports(result) == [str(30000 + n) for n in range(count)]
    assert [note.line for note in result.notes] == [position + 1]
    assert "tree-sitter-bash cannot parse line" in result.notes[0].message


# -- here-documents ---------------------------------------------------------------------

POD = """apiVersion: v1
kind: Pod
metadata:
  name: {name}
spec:
  containers:
    - name: sglang
      image: lmsysorg/sglang:v0.5.23-cu129
      command: ["python3", "-m", "sglang.launch_server"]
      args: ["--disaggregation-mode", "{role}", "--tp-size", "{tp}", "--port", "{port}"]
"""


def manifest(name: str = "prefill", role: str = "prefill", tp: str = "4", port: str = "30000", indent: str = "") -> str:
    return "".join(indent + line + "\n" for line in POD.format(name=name, role=role, tp=tp, port=port).splitlines())


def args_of(result) -> list[list[str]]:
    return [[token.value.describe() for token in server.args] for server in sorted(result.servers, key=lambda launch: launch.location)]


@pytest.mark.parametrize(
    "opening",
    [
        "cat <<'EOF' | kubectl apply -f -",
        "kubectl apply -f - <<'EOF'",
        "kubectl -n serving create --filename=- <<\"EOF\"",
        "oc apply -f- <<'EOF'",
        "cat > pod.yaml <<'EOF'",
        "cat <<'EOF' > pod.yml",
        "tee pod.yaml <<'EOF' >/dev/null",
    ],
)
def test_a_manifest_in_a_heredoc_is_read_at_its_lines_in_the_script(opening: str) -> None:
    script = f"#!/bin/bash\n{opening}\n{manifest()}EOF\n"
    result = analyze_accepted(script, "deploy.sh")
    assert result.notes == []
    (server,) = result.servers
    assert args_of(result) == [["--disaggregation-mode", "prefill", "--tp-size", "4", "--port", "30000"]]
    # The manifest starts on line 3: `command:` is its line 9, the script's 11.
    assert server.location.line == 11
    tp = next(token for token in server.args if token.value.describe() == "4")
    line = script.split("\n")[tp.location.line - 1]
    assert line[tp.location.column - 1 :].startswith('"4"')


def test_unquoted_heredoc_expands_what_the_script_knows() -> None:
    script = f"#!/bin/bash\nTP=8\nPORT=30001\ncat <<EOF | kubectl apply -f -\n{manifest(tp='$TP', port='${PORT}')}EOF\n"
    result = analyze_shell("deploy.sh", script)
    assert result.notes == []
    assert args_of(result) == [["--disaggregation-mode", "prefill", "--tp-size", "8", "--port", "30001"]]


def test_unquoted_heredoc_with_an_unknown_value_is_a_note_not_a_guess() -> None:
    script = f"#!/bin/bash\ncat <<EOF | kubectl apply -f -\n{manifest(tp='$TP')}EOF\n"
    result = analyze_shell("deploy.sh", script)
    assert result.servers == []
    (note,) = result.notes
    assert note.line == 2 and "not analyzed" in note.message and "$TP" in note.message


def test_quoted_heredoc_keeps_dollar_text_literal() -> None:
    # `<<'EOF'`: the manifest holds `$TP` as written (an invalid --tp-size value
    # to SGLang, which the rules judge); the shell's TP=8 does not leak in.
    script = f"#!/bin/bash\nTP=8\nkubectl apply -f - <<'EOF'\n{manifest(tp='$TP')}EOF\n"
    assert args_of(analyze_shell("deploy.sh", script)) == [["--disaggregation-mode", "prefill", "--tp-size", "$TP", "--port", "30000"]]


def test_tab_stripping_heredoc_maps_columns_past_the_tabs() -> None:
    body = manifest().replace("\n", "\n\t")  # every line but the first gets a tab
    script = f"#!/bin/bash\ncat <<-'EOF' | kubectl apply -f -\n\t{body}EOF\n"
    result = analyze_accepted(script, "deploy.sh")
    assert result.notes == []
    (server,) = result.servers
    tp = next(token for token in server.args if token.value.describe() == "4")
    line = script.split("\n")[tp.location.line - 1]
    assert line.startswith("\t") and line[tp.location.column - 1 :].startswith('"4"')


def test_two_documents_in_one_heredoc_are_two_launches() -> None:
    script = f"kubectl apply -f - <<'EOF'\n{manifest()}---\n{manifest('decode', 'decode', '2', '30001')}EOF\n"
    result = analyze_shell("deploy.sh", script)
    # `command:` is line 9 of each manifest: lines 10 and 21 of the script.
    assert [server.location.line for server in sorted(result.servers, key=lambda launch: launch.location)] == [10, 21]
    assert [args[1] for args in args_of(result)] == ["prefill", "decode"]


def test_here_string_to_kubectl_is_a_manifest() -> None:
    result = analyze_accepted(f"POD='{manifest()}'\nkubectl apply -f - <<< \"$POD\"\n", "deploy.sh")
    assert args_of(result) == [["--disaggregation-mode", "prefill", "--tp-size", "4", "--port", "30000"]]
    assert result.servers[0].location.line == 9  # where the manifest's `command:` is written


@pytest.mark.parametrize(
    "opening",
    [
        "cat <<'EOF'",  # printed
        "cat > notes.txt <<'EOF'",  # a text file
        "kubectl apply -f pod.yaml <<'EOF'",  # kubectl reads a file, not stdin
        "grep sglang <<'EOF'",
        "grep -c bash <<'EOF'",  # a shell's name as an argument of another command
        "python3 - <<'EOF'",  # Python reads it (not a shell script, not a manifest)
    ],
)
def test_a_heredoc_given_to_any_other_command_is_data(opening: str) -> None:
    script = f"{opening}\n{manifest()}{LS} --port 30000\nEOF\n"
    result = analyze_shell("deploy.sh", script)
    assert result.servers == [] and result.notes == []


@pytest.mark.parametrize(
    "opening, expected",
    [
        ("bash <<'EOF'", ["--tp-size", "$TP"]),  # literal: the inner shell's $TP, unset there
        ("bash <<EOF", ["--tp-size", "8"]),  # expanded by the outer shell
        ("ssh -p 2222 node1 bash -s <<EOF", ["--tp-size", "8"]),
        ("docker exec -i -u root sglang-decode bash <<EOF", ["--tp-size", "8"]),
        # docker's options as its parser (pflag) reads them, the same reading as
        # for a command given in words: a cluster ending in a value option, a
        # value inside the cluster, `--opt=value`, `container exec`, `run -i`.
        ("docker exec -ie HOME=/root sglang-decode bash <<EOF", ["--tp-size", "8"]),
        ("docker exec -ieHOME=/root $CTR bash -s <<EOF", ["--tp-size", "8"]),
        ("podman exec --env=A=1 --user=0 -- ctr bash <<EOF", ["--tp-size", "8"]),
        ("docker container exec -i ctr bash <<EOF", ["--tp-size", "8"]),
        ("docker run -i --rm --gpus all lmsysorg/sglang:v0.5.9 bash <<EOF", ["--tp-size", "8"]),
        ("singularity exec --nv -B /data sglang.sif bash <<EOF", ["--tp-size", "8"]),
        ("cat <<EOF | ssh node1 bash", ["--tp-size", "8"]),
        ("sh <<-EOF", ["--tp-size", "8"]),
        ("sudo -u svc bash <<EOF", ["--tp-size", "8"]),
    ],
)
def test_a_heredoc_given_to_a_shell_runs_its_launches(opening: str, expected: list[str]) -> None:
    script = f"TP=8\n{opening}\n\tcd /srv\n\t{LS} --tp-size $TP\nEOF\n"
    if "<<-" not in opening:
        script = script.replace("\t", "")
    result = analyze_accepted(script)
    assert result.notes == []
    (server,) = result.servers
    assert server.location.line == 4
    described = [token.value.describe() for token in server.args]
    assert described[0] == expected[0] and (described[1] == expected[1] or expected[1] == "$TP" and described[1].startswith("$TP"))


def test_an_escaped_dollar_in_an_unquoted_heredoc_is_left_to_the_inner_shell() -> None:
    script = f"PORT=1\nbash <<EOF\nPORT=30005\n{LS} --port \\$PORT\nEOF\n"
    result = analyze_shell("run.sh", script)
    assert ports(result) == ["30005"]


def test_many_unparseable_lines_share_one_note_past_the_first_ten() -> None:
    script = "".join(f"{LS} --port {30000 + n} &\nfoo ) bar\n" for n in range(14))
    result = analyze_shell("run.sh", script)
    assert ports(result) == [str(30000 + n) for n in range(14)]
    assert [note.line for note in result.notes] == [2 * n + 2 for n in range(11)]
    assert result.notes[-1].message.startswith("tree-sitter-bash cannot parse 4 more lines from here")


# -- real bash runs them (the shell oracle's harness: stub python3 first on PATH) ------

from _oracle_common import AGREE, DISAGREE, SPLIT, Program  # noqa: E402 - the oracle's section
from _oracle_common import describe as describe_program  # noqa: E402

BASH_RUNS = {
    "unquoted-expanded": f"TP=8\nbash <<EOF\n{LS} --tp-size $TP --port 30000\nEOF\n",
    "quoted-inner-default": f"TP=8\nbash <<'EOF'\n{LS} --tp-size \"${{TP:-1}}\" --port 30000\nEOF\n",
    "quoted-inner-variable": f"bash <<'EOF'\nPORT=30007\n{LS} --port \"$PORT\"\nEOF\n",
    "escaped-dollar": f"PORT=1\nbash <<EOF\nPORT=30005\n{LS} --port \\$PORT\nEOF\n",
    "cat-pipe": f"cat <<'EOF' | bash\n{LS} --port 30001\nEOF\n",
    "tabs-and-continuation": f"sh <<-EOF\n\t{LS} \\\n\t  --port 30002\n\tEOF\n",
    "function-inside": f"bash <<'EOF'\nserve() {{ {LS} --port \"$1\"; }}\nserve 30003\nserve 30004\nEOF\n",
    "data-heredoc": f"cat <<'EOF' > /dev/null\n{LS} --port 30009\nEOF\n{LS} --port 30000\n",
    "tree-sitter-fails": f"{LS} --port 30000\n[ \"a\" \\> \"b\" ] && echo later\n{LS} --port 30001\n",
    # With a newline after it: the harness sources the script, and a sourced
    # file's last `\` with no newline after it is a literal `\` argument (bash
    # 5.2), while `bash FILE`, how scripts run, drops it as the analysis does.
    "backslash-at-end": f"{LS} --port 30000 \\\n  --tp-size 2 \\\n",
    # Comments between an array's words (a public DGX Spark launcher's): each
    # was an unknown word, which took the place of docker's image.
    "array-comments": f"ARGS=(\n  --tp-size 2  # the size (measured)\n  # a line of its own: it's a comment\n  --port 30000\n)\n{LS} \"${{ARGS[@]}}\"\n",
}


def test_heredocs_and_recovered_scripts_agree_with_real_bash() -> None:
    programs = [Program(number, text, frozenset(), {}, ((),)) for number, text in enumerate(BASH_RUNS.values())]
    for program in programs:
        assert bash_accepts(program.text), program.text
    results = oracle.check_programs(programs, full=True)
    for (name, _), (program, comparison, runs) in zip(BASH_RUNS.items(), results):
        assert comparison.verdict in (AGREE, SPLIT), (name, describe_program(program, comparison))
        assert runs and all(run.calls for run in runs), (name, "bash ran no launch")
    assert DISAGREE not in {comparison.verdict for _, comparison, _ in results}


def test_a_script_ending_in_a_backslash_runs_as_analyzed(tmp_path: Path) -> None:
    """`bash FILE` (how a script runs) drops the file's last backslash even with
    no newline after it; the analysis reads the same argv."""
    stub = tmp_path / "python3"
    stub.write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$(dirname "$0")/argv"\n')
    stub.chmod(0o755)
    script = tmp_path / "serve.sh"
    script.write_text(f"{LS} --port 30000 \\\n  --tp-size 2 \\")
    subprocess.run(["bash", str(script)], env={"PATH": f"{tmp_path}:/usr/bin:/bin"}, check=True, timeout=30)
    ran = (tmp_path / "argv").read_text().splitlines()
    (server,) = analyze_shell(str(script), script.read_text()).servers
    assert ran[2:] == [token.value.describe() for token in server.args] == ["--port", "30000", "--tp-size", "2"]


def test_a_heredoc_manifests_image_names_the_release_at_its_line_in_the_script() -> None:
    """The manifest's `image:` is a version fact of the script (issue 18), at the
    script's line, covering the launch's lines there."""
    script = "#!/bin/bash\ncat <<'EOF' | kubectl apply -f -\n" + manifest().replace("v0.5.23-cu129", "v0.5.14-cu130") + "EOF\n"
    result = analyze_accepted(script, "deploy.sh")
    (hint,) = result.version_hints
    (server,) = result.servers
    assert hint.release == "0.5.14"
    assert script.split("\n")[hint.location.line - 1].strip().startswith("image: lmsysorg/sglang:v0.5.14")
    assert hint.lines[0] <= server.location.line <= hint.lines[1]


# -- a `$` that starts no expansion --------------------------------------------------
# tree-sitter-bash 0.25 failed on `$:` and its kind ("cannot parse line 75" of a
# public PD guide: `--dist-init-addr $NODE0$:5757`), split `a$X$:1` into two
# words and dropped the `$` of `a$`. bash takes each such `$` literally.
LITERAL_DOLLAR_WORDS = (
    "$MASTER_IP$:5757",
    "a$",
    "b$/c",
    '"$:q"',
    "${Y:-$}",
    "'$:r'",
    '"a$"',
    '"a$ b"',
    "x$.y",
    "$,",
    "a$X$%",
    "p$+q",
    "a$=b",
    "$^",
    "$~x",
    '"${Y:-$}"',
    "a$}",
    '"$"',
    "$MASTER_IP$",
)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("env", [{"MASTER_IP": "10.0.0.1", "X": "xx"}, {"Y": "y"}])
def test_a_dollar_that_starts_no_expansion_is_literal_as_in_bash(env) -> None:
    from _oracle_common import evaluate

    script = "python3 -m sglang.launch_server " + " ".join(LITERAL_DOLLAR_WORDS) + "\n"
    result = analyze_shell("run.sh", script)
    assert result.notes == []
    (launch,) = result.servers
    ran = subprocess.run(
        ["bash", "-c", "printf '%s\\n' " + " ".join(LITERAL_DOLLAR_WORDS)], env={"PATH": "/usr/bin:/bin", **env}, capture_output=True, text=True, check=True
    ).stdout.split("\n")[:-1]
    assert len(launch.args) == len(ran) == len(LITERAL_DOLLAR_WORDS)
    for word, token, bash_word in zip(LITERAL_DOLLAR_WORDS, launch.args, ran):
        assert bash_word in evaluate(token.value, env, ()), word


def test_a_literal_dollar_keeps_the_line_and_its_positions() -> None:
    """The launch on such a line is analyzed (a pair of it is checked), and a
    value after the `$` is found at its column."""
    script = (
        "python -m sglang.launch_server --model-path m --dist-init-addr $NODE0$:5757 --nnodes 2 --node-rank 0 --tp 8\n"
    )
    result = analyze_shell("run.sh", script)
    assert result.notes == []
    (launch,) = result.servers
    tp = [t for t in launch.args if t.value.describe() == "8"][0]
    assert script[tp.location.column - 1 :].startswith("8\n")


# -- a here-document in a condition --------------------------------------------------
def python3_calls(tmp_path, script: str) -> list[str]:
    """Each `python3` command bash runs for ``script``, its arguments joined
    by blanks, through a stub that records them (and reads its input)."""
    stub = tmp_path / "bin" / "python3"
    stub.parent.mkdir(exist_ok=True)
    stub.write_text('#!/bin/sh\ncat > /dev/null\necho "$@" >> "$RECORD"\n')
    stub.chmod(0o755)
    (tmp_path / "run.sh").write_text(script)
    env = {"PATH": f"{stub.parent}:/usr/bin:/bin", "RECORD": str(tmp_path / "argv")}
    subprocess.run(["bash", str(tmp_path / "run.sh")], env=env, check=True, capture_output=True, stdin=subprocess.DEVNULL)
    return (tmp_path / "argv").read_text().splitlines()


CONDITION_HEREDOC = """\
#!/bin/bash
serve() {
    if python3 - <<'PY' "$1"; then
import sys
if len(sys.argv) < 2:
    sys.exit(1)
PY
        echo "checked $1"
    fi
    python3 -m sglang.launch_server --model-path m --tp "$1"
}
while read -r line <<-EOF; do
	x
	EOF
  break
done
serve 4
"""


def test_a_here_document_in_a_condition_keeps_the_script_around_it() -> None:
    """tree-sitter-bash cannot parse `if cmd <<'PY' args; then` (bash can): the
    recovery blanked `serve() {` with it, and the launch ran as top-level
    code with an unknown `$1` (michael-amd/sglang-ci's perf scripts: 11
    lines "cannot parse", three function headers among them). The body is
    the command's input, not shell: it alone is set aside."""
    result = analyze_shell("run.sh", CONDITION_HEREDOC)
    assert result.notes == []
    (launch,) = result.servers
    assert [t.value.describe() for t in launch.args] == ["--model-path", "m", "--tp", "4"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_a_here_document_in_a_condition_against_bash(tmp_path) -> None:
    assert python3_calls(tmp_path, CONDITION_HEREDOC) == ["- 4", "-m sglang.launch_server --model-path m --tp 4"]


@pytest.mark.parametrize("middle", ["if grep -q x <<EOF; then echo y; fi\nx\nEOF\n", "while read -r a <<-'E'; do break; done\n\tx\n\tE\n"])
@pytest.mark.parametrize("in_function", [False, True], ids=["top-level", "in-function"])
def test_a_here_document_in_a_condition_is_no_line_lost(middle: str, in_function: bool) -> None:
    """(Once on the list of lines tree-sitter-bash fails on: now read.)"""
    body = f"{LS} --port 30000 &\n{middle}{LS} --port 30001 &\n"
    result = analyze_accepted(f"serve() {{\n{body}}}\nserve\n" if in_function else body)
    assert ports(result) == ["30000", "30001"]
    assert syntax_notes(result) == []


SHIFT_IN_A_DEFAULT = """\
serve() {
    export SEGMENT="${SEGMENT:-$((32 << 30))}"
    local tokens=$((3 << 12)) page=$(( (1 << 7) >> 1 ))
    python3 -m sglang.launch_server --model-path m --max-total-tokens "$tokens" --page-size "$page" --tp 2
}
serve
"""


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_a_shift_inside_a_parameter_default_keeps_its_function(tmp_path) -> None:
    """`${SEGMENT:-$((32 << 30))}` (SpecForge): tree-sitter-bash read the `<<`
    as a here-document, and the recovery blanked `serve() {` with it. Each
    shift still computes what bash computes."""
    result = analyze_shell("run.sh", SHIFT_IN_A_DEFAULT)
    assert result.notes == []
    (launch,) = result.servers
    stub = tmp_path / "bin" / "python3"
    stub.parent.mkdir()
    stub.write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$RECORD"\n')
    stub.chmod(0o755)
    (tmp_path / "run.sh").write_text(SHIFT_IN_A_DEFAULT)
    subprocess.run(["bash", str(tmp_path / "run.sh")], env={"PATH": f"{stub.parent}:/usr/bin:/bin", "RECORD": str(tmp_path / "argv")}, check=True)
    ran = (tmp_path / "argv").read_text().splitlines()[2:]
    assert [t.value.describe() for t in launch.args] == ran


LAUNCH_IN_A_CONDITION = """\
#!/bin/bash
track() {
    local full_cmd="$1"
    eval "$full_cmd"
}
start_server() {
    local cmd="python3 -m sglang.launch_server --model-path m --tp $1 --port $2"
    if ! track "$cmd"; then
        echo "failed" >&2
        return 1
    fi
}
if start_server 4 30000 && start_server 2 30001; then
    echo started
fi
if python3 -m sglang.launch_server --model-path m --tp 8 --port 30002; then :; fi
"""


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_a_condition_runs_before_it_decides(tmp_path) -> None:
    """`if ! track "$cmd"; then` runs track, which starts the server: an
    `if` condition's commands were only decided, never run, and a launch in
    one was lost without a note (Mooncake's test scripts: `if !
    launch_and_track_process "$sglang_cmd"`). Each launch, with what bash
    gives it."""
    result = analyze_shell("run.sh", LAUNCH_IN_A_CONDITION)
    assert result.notes == []
    reported = sorted(tuple(t.value.describe() for t in launch.args) for launch in result.servers)
    ran = sorted(tuple(line.split()[2:]) for line in python3_calls(tmp_path, LAUNCH_IN_A_CONDITION))
    assert reported == ran
    assert len(ran) == 3
