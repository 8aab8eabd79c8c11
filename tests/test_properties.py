"""Property tests of the four sources and the whole pipeline (issue 8).

Each source (shell, Python, YAML, Markdown) is fed random text built from launch
fragments of its language, random text and bytes, and mutations of the fixtures
(fixtures/**). In every example:

- no exception escapes (and no "please report" internal-error note is produced:
  the pipeline turns a source's exception into one, which would hide it);
- each run ends within ``BOUND_SECONDS`` (generous: CI machines are shared);
- nothing is printed through ``warnings`` (the compiler's warnings about an
  analyzed Python file are that file's business, and ``-W error`` turned them into
  syntax errors);
- the output is deterministic: the same input twice gives the same servers,
  routers, notes, comments and continuation breaks (sources), the same findings
  in the same order (pipeline), and the findings come sorted.

Every @given test calls ``count_example()`` first; tests/conftest.py reports the
total and enforces ``SGLANG_LINT_MIN_EXAMPLES`` on a full run of this file.
"""

from __future__ import annotations

import os
import tempfile
import time
import warnings
from pathlib import Path

from _examples import count_example
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sglang_lint.model import SourceResult
from sglang_lint.pipeline import LintOptions, lint_paths, lint_texts
from sglang_lint.sources.markdown import analyze_markdown
from sglang_lint.sources.python import analyze_python
from sglang_lint.sources.shell import analyze_shell
from sglang_lint.sources.yaml_manifest import analyze_yaml

BOUND_SECONDS = 10.0

SOURCES = {"shell": analyze_shell, "python": analyze_python, "yaml": analyze_yaml, "markdown": analyze_markdown}
FILE_NAMES = {"shell": "run.sh", "python": "launch.py", "yaml": "deploy.yaml", "markdown": "RUNBOOK.md"}


def _settings(examples: int):
    return settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))


# ---------------------------------------------------------------------------------
# The properties


def _timed(call, *args):
    """``call(*args)``, which must end within the bound and warn nothing."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.perf_counter()
        result = call(*args)
        elapsed = time.perf_counter() - start
    assert elapsed < BOUND_SECONDS, f"took {elapsed:.1f} s (bound {BOUND_SECONDS} s)"
    assert not caught, [f"{w.category.__name__}: {w.message}" for w in caught]
    return result


def _source_view(result: SourceResult) -> tuple:
    return (result.servers, result.routers, result.notes, result.comments, result.continuation_breaks, result.broken_continuations)


def check_source(kind: str, text: str, path: str | None = None) -> SourceResult:
    """The source of ``kind`` on ``text``: no exception, bounded, deterministic."""
    analyze = SOURCES[kind]
    path = path or FILE_NAMES[kind]
    first = _timed(analyze, path, text)
    assert isinstance(first, SourceResult)
    second = _timed(analyze, path, text)
    assert _source_view(first) == _source_view(second)
    assert not [note.message for note in first.notes if "please report" in note.message]
    return first


def _findings_view(result) -> list[tuple]:
    keys = [f.sort_key() for f in result.findings]
    assert keys == sorted(keys), "findings are not sorted"
    internal = [f.message for f in result.findings if "please report" in f.message]
    assert not internal, internal
    return [(f.code, f.location, f.message) for f in result.findings]


def check_pipeline(files: dict[str, str]) -> list[tuple]:
    """lint_texts on ``files``: no exception, bounded, deterministic, sorted."""
    first = _findings_view(_timed(lint_texts, files, LintOptions()))
    second = _findings_view(_timed(lint_texts, files, LintOptions()))
    assert first == second
    return first


def check_bytes(name: str, data: bytes) -> list[tuple]:
    """lint_paths on a file holding ``data``: no exception, bounded, deterministic."""
    with tempfile.TemporaryDirectory(prefix="sglang-lint-prop-") as directory:
        path = os.path.join(directory, name)
        with open(path, "wb") as handle:
            handle.write(data)
        first = _findings_view(_timed(lint_paths, [path], LintOptions()))
        second = _findings_view(_timed(lint_paths, [path], LintOptions()))
    assert first == second
    return first


# ---------------------------------------------------------------------------------
# Shell

SHELL_FRAGMENTS = [
    "python -m sglang.launch_server", "python3 -m sglang.launch_server --model-path m", "sglang serve --model-path m",
    "python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://p:30000 --decode http://d:30001",
    "python -m sglang_router.launch_router --prefill http://$P:30000 8998", "sglang-router", "python -m dynamo.sglang",
    "--tp 8", "--tp-size 4", "--tp=2", "--tp", "--tp-size", "--dp 8", "--dp-size 2", "--enable-dp-attention",
    "--enable-unified-memory", "--disaggregation-mode prefill", "--disaggregation-mode decode", "--disaggregation-mode",
    "--disaggregation-mode=$ROLE", "--port 30001", "--port 30000", "--port $((PORT+1))", "--pp-size 2", "--attn-cp-size 2",
    "--kv-cache-dtype fp8_e4m3", "--page-size 64", "--disaggregation-transfer-backend nixl", "--disaggregation-bootstrap-port 8998",
    "--config cfg.yaml", "--model-path $MODEL", "--mem-fraction-static 0.8", "--ep-size 8", "--moe-dense-tp-size 1",
    "$TP", "${TP:-8}", "${TP:=4}", "${TP?}", "${#A[@]}", "${A[@]}", "${A[*]}", "${TP%%x}", "${TP/8/4}", '"$@"', "$*", "$1", "$#",
    "A=(--tp 2 --dp 2)", "TP=8", "export TP=4", "ROLE=decode", "local x=1", "readonly R=1", "declare -a B", "ARGS+=(--tp 4)",
    "'unclosed", '"unclosed', "'quoted --tp 8'", '"--tp $TP"', "`echo hi`", "$(hostname)", "$(", ")", "${", "}", "{", "(", "))",
    'if [ "$ROLE" = prefill ]; then', "elif true; then", "else", "fi", "then", "for n in 1 2; do", "for ((i=0;i<2;i++)); do",
    "while read l; do", "until false; do", "done", "do", "case $ROLE in prefill)", "decode|*)", ";;", "esac", "select x in a b; do",
    "launch() {", "function run {", "launch prefill 8", "run decode", "launch", "return", "exit 1",
    "ssh host", "ssh -p 22 user@host", "ssh -o StrictHostKeyChecking=no $HOST", "bash -c '", "sh -c \"", "bash -lc",
    "docker run --gpus all img", "docker exec -it c", "srun -N1 --nodelist=$(scontrol show hostnames | head -1)", "nohup",
    "env A=1", "timeout 10", "exec", "numactl --cpunodebind=0", "CUDA_VISIBLE_DEVICES=0,1", "torchrun --nproc-per-node 8",
    "<<EOF\n", "<<'EOF'\n", "<<-EOF\n", "EOF\n", "cat <<EOF", "<<<", "# comment", "# noqa: SGL001", "# noqa",
    "# sglang-lint: disable=SGL002", "# sglang-lint: disable-next-line=SGL", "|", "&", "&&", "||", ";", "2>&1", "> log",
    "<(cmd)", "!", "((i++))", "[[ -n $x ]]", "set -euo pipefail", "shift", "shift 2", "source env.sh", ". ./x.sh",
    "alias p=python", "eval", "trap 'kill 0' EXIT", "wait", "\\\n", "\\", "\n", "\t", "\x00", "\r\n", "\r", "é", "模型", "😀",
    "\u200b", "\U000f1385", "²", "#!/bin/bash\n", "$'\\n'", '$"x"', "~", "*", "?", "[", "]", "=", "\\$", "\\'", '\\"',
]
SHELL_SEPARATORS = [" ", " ", " ", "\n", " \\\n  ", "; ", " && ", " &\n", " | ", ""]

shell_scripts = st.lists(
    st.tuples(st.one_of(st.sampled_from(SHELL_FRAGMENTS), st.text(max_size=6)), st.sampled_from(SHELL_SEPARATORS)),
    max_size=40,
).map(lambda pieces: "".join(fragment + separator for fragment, separator in pieces))


# Launches with a random argv, in the many ways a script writes them.

OPTIONS: list[tuple[str, list[str] | None]] = [
    ("--tp", ["1", "2", "4", "8", "$TP", "${TP:-8}", "3", "0", "-1", "x"]), ("--tp-size", ["2", "8", "$TP_SIZE"]),
    ("--dp", ["1", "2", "8"]), ("--dp-size", ["2", "4", "$DP"]), ("--enable-dp-attention", None), ("--enable-unified-memory", None),
    ("--disaggregation-mode", ["prefill", "decode", "null", "$ROLE", "${ROLE:-decode}", "encode"]),
    ("--port", ["30000", "30001", "$PORT", "$((PORT + 1))"]), ("--pp-size", ["1", "2"]), ("--attn-cp-size", ["1", "2"]),
    ("--attn-dp-size", ["2"]), ("--kv-cache-dtype", ["auto", "fp8_e4m3", "bf16"]), ("--page-size", ["1", "16", "64"]),
    ("--disaggregation-transfer-backend", ["mooncake", "nixl", "fake"]), ("--disaggregation-bootstrap-port", ["8998", "9000"]),
    ("--model-path", ["m", "Qwen/Qwen3-8B", "<MODEL>", "$MODEL", "/models/é"]), ("--model", ["m"]), ("--ep-size", ["8"]),
    ("--moe-dense-tp-size", ["1"]), ("--host", ["0.0.0.0"]), ("--trust-remote-code", None), ("--tp-s", ["2"]), ("--d", ["2"]),
    ("--enable-unified", None), ("--no-such-option", ["1"]), ("--config", ["cfg.yaml"]), ("--mem-fraction-static", ["0.8"]),
    ("--disaggregation-ib-device", ["mlx5_0"]), ("--chunked-prefill-size", ["-1"]), ("--load-balance-method", ["round_robin"]),
]
SERVER_ENTRIES = [["python", "-m", "sglang.launch_server"], ["python3", "-m", "sglang.launch_server"], ["sglang", "serve"],
                  ["python3", "-m", "sglang.launch_server", "--model-path", "m"], ["python", "-m", "dynamo.sglang"]]
ROUTER_ENTRY = ["python3", "-m", "sglang_router.launch_router", "--pd-disaggregation"]
ROUTER_OPTIONS = [["--prefill", "http://127.0.0.1:30000"], ["--prefill", "http://p:30000", "8998"], ["--decode", "http://127.0.0.1:30001"],
                  ["--decode", "http://d:30001"], ["--port", "8000"], ["--policy", "random"], ["--mini-lb"]]


@st.composite
def option_words(draw) -> list[str]:
    words: list[str] = []
    for _ in range(draw(st.integers(0, 10))):
        flag, values = draw(st.sampled_from(OPTIONS))
        if values is None:
            words.append(flag)
        elif draw(st.booleans()):
            words += [flag, draw(st.sampled_from(values))]
        else:
            words.append(f"{flag}={draw(st.sampled_from(values))}")
    return words


@st.composite
def argvs(draw) -> list[str]:
    if draw(st.integers(0, 5)) == 0:
        return ROUTER_ENTRY + [word for option in draw(st.lists(st.sampled_from(ROUTER_OPTIONS), max_size=4)) for word in option]
    return draw(st.sampled_from(SERVER_ENTRIES)) + draw(option_words())


def _shell_word(word: str, quote: str) -> str:
    return f"{quote}{word}{quote}" if quote else word


@st.composite
def shell_launches(draw) -> str:
    argv = draw(argvs())
    quote = draw(st.sampled_from(["", "", "", '"', "'"]))
    separators = st.sampled_from([" ", " ", " ", " \\\n  ", " \\\n    # a comment\n  ", "  "])
    line = argv[0]
    for word in argv[1:]:
        line += draw(separators) + _shell_word(word, quote if word.startswith("$") is False else '"')
    prefix = draw(st.sampled_from(["", "", "", "nohup ", "ssh host ", "CUDA_VISIBLE_DEVICES=0,1 ", "srun -N1 ", "docker run --gpus all img ",
                                   "env TP=8 ", "exec ", "timeout 600 ", "numactl -N0 "]))
    suffix = draw(st.sampled_from(["", "", " &", " > log 2>&1 &", " &&", " | tee log", ' "$@"', " $EXTRA"]))
    line = prefix + line + suffix
    wrap = draw(st.integers(0, 9))
    if wrap == 0:
        line = "bash -c '" + line.replace("'", "") + "'"
    elif wrap == 1:
        line = 'ssh host "' + line.replace('"', "") + '"'
    elif wrap == 2:
        line = "CMD=\"" + line.replace('"', "") + "\"\n$CMD"
    elif wrap == 3:
        line = "ARGS=(" + " ".join(argv[3:]) + ")\n" + " ".join(argv[:3]) + ' "${ARGS[@]}"'
    return line


@st.composite
def shell_blocks(draw) -> str:
    launch = draw(shell_launches())
    shape = draw(st.integers(0, 9))
    if shape == 0:
        return f'if [ "$ROLE" = prefill ]; then\n  {launch}\nelse\n  {draw(shell_launches())}\nfi'
    if shape == 1:
        return f"for TP in 2 4; do\n  {launch}\ndone"
    if shape == 2:
        return f'launch() {{\n  {launch} "$@"\n}}\nlaunch --disaggregation-mode prefill --tp 8\nlaunch --disaggregation-mode decode --port 30001'
    if shape == 3:
        return f'case "$ROLE" in\n  prefill) {launch} ;;\n  *) {draw(shell_launches())} ;;\nesac'
    if shape == 4:
        return f"cat <<EOF\n{launch}\nEOF\n{draw(shell_launches())}"
    if shape == 5:
        return draw(st.sampled_from(["TP=8", "TP=4", "ROLE=prefill", "export ROLE=decode", "PORT=30000", ": ${TP:=8}", "set -e",
                                     "MODEL=m", "EXTRA='--tp 2'", "source ./env.sh", "# noqa: SGL001"]))
    return launch


shell_programs = st.lists(st.one_of(shell_blocks(), shell_blocks(), shell_scripts), max_size=6).map("\n".join)


@_settings(1500)
@given(text=st.one_of(shell_scripts, shell_programs))
def test_shell_source_on_launch_fragments(text: str) -> None:
    count_example()
    check_source("shell", text)


# ---------------------------------------------------------------------------------
# Python

PY_STATEMENTS = [
    "import subprocess, os, sys, shlex", "import sglang as sgl", "import sglang", "from sglang import Engine",
    "from sglang.srt.server_args import ServerArgs", "from sglang.test.test_utils import popen_launch_server, popen_launch_pd_server",
    "from subprocess import Popen as P, run", "from os import system",
    'cmd = [sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--enable-unified-memory"]',
    'cmd = ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "--port", "30001"]',
    'cmd += ["--tp", str(tp)]', 'cmd.extend(["--dp", "8", "--enable-dp-attention"])', 'cmd.append("--tp-size")', "cmd.append(tp)",
    'cmd = cmd + ["--tp", os.environ.get("TP", "4")]', 'cmd.insert(0, "nohup")', "cmd = shlex.split(line)",
    'line = f"python -m sglang.launch_server --tp {tp} --disaggregation-mode {role}"', 'line += " --enable-unified-memory"',
    'line = "python -m sglang.launch_server " + " ".join(args)', "args = [*base, *extra]", "args = [a for a in cmd if a]",
    "subprocess.Popen(cmd)", "subprocess.Popen(cmd, env=env)", "subprocess.run(line, shell=True, check=True)", "P(cmd)",
    "proc = subprocess.Popen([*cmd, '--port', str(port)])", "subprocess.check_call(['ssh', host, ' '.join(cmd)])",
    "os.system(line)", 'os.system(f"{line} --port {port}")', "system(line)", "os.execvp(cmd[0], cmd)",
    "asyncio.create_subprocess_exec(*cmd)", "asyncio.create_subprocess_shell(line)", "print(' '.join(cmd))",
    "sgl.Engine(model_path='m', tp_size=8, disaggregation_mode='decode', enable_unified_memory=True)",
    "engine = sglang.Engine(tp_size=tp, dp_size=dp, enable_dp_attention=True)", "Engine(**kw)", "ServerArgs(tp_size=2, **cfg)",
    "args = ServerArgs(model_path='m', disaggregation_mode=role)", "launch_server(ServerArgs.from_cli_args(a))",
    "popen_launch_server(model, url, timeout=60, other_args=['--tp', '2'])",
    "popen_launch_pd_server(model, url, timeout=60, other_args=['--disaggregation-mode', 'prefill'])",
    "tp = 8", "tp = int(os.environ['TP'])", "tp = os.getenv('TP', '4')", "role = 'prefill'", "role = sys.argv[1]", "port = 30000 + i",
    "kw = dict(tp_size=4)", "kw = {'tp_size': 4, 'disaggregation_mode': 'prefill'}", "kw['dp_size'] = 2", "cfg = {**kw, 'x': 1}",
    "env = {**os.environ, 'CUDA_VISIBLE_DEVICES': '0,1'}", "x = y = z = tp", "a, b = b, a", "(a := 3)", "del cmd", "global tp",
    "nonlocal role", "pass", "return", "return cmd", "yield cmd", "break", "continue", "raise SystemExit(1)", "assert tp",
    "def launch(role, tp=8, *args, **kw):", "async def main():", "def f(x, /, y, *, z):", "lambda: subprocess.Popen(cmd)",
    "class TestPD(unittest.TestCase):", "class Base:", "@classmethod", "@staticmethod", "@functools.cache",
    "def setUpClass(cls):", "cls.tp = 2", "self.proc = subprocess.Popen(self.cmd)", "super().setUpClass()",
    "for role, tp in {'prefill': 8, 'decode': 4}.items():", "for i in range(2):", "while True:", "if role == 'decode':", "elif x:",
    "else:", "try:", "except Exception:", "finally:", "with open('f') as fh:", "match role:", "case 'prefill':", "case _:",
    "launch('prefill', 8)", "launch('decode', tp=4)", "launch(*args, **kw)", "main()", "asyncio.run(main())",
    "if __name__ == '__main__':", "# noqa: SGL001", "x = 1  # noqa", "# sglang-lint: disable=SGL002", '"""docstring', '"""',
    "'''", "f'{", "f'{x!r:>{w}}'", "f\"{'--tp'} {tp:{fmt}}\"", "b'bytes'", "r'\\d'", "(", ")", "[", "]", "{", "}", ":", "\\",
    "\x00", "é = 1", "模型 = 'm'", "😀", "\t", "\f", "x = (" * 3 + "1" + ")" * 3, "x = " + "[" * 60 + "]" * 60,
    "x = " + "f(" * 40 + ")" * 40, "x = " + "+".join(["'a'"] * 100), "if x: " * 5 + "pass", "else", "def", "class",
    "import", "from . import", "yield from", "await x", "print >>sys.stderr, 'py2'", "exec 'code'", "0_0", "1e", "0x",
]
PY_INDENTS = ["", "", "", "    ", "        ", "\t", " ", "            "]

python_files = st.lists(
    st.tuples(st.sampled_from(PY_INDENTS), st.one_of(st.sampled_from(PY_STATEMENTS), st.text(max_size=6))), max_size=30
).map(lambda lines: "\n".join(indent + statement for indent, statement in lines) + "\n")


PY_HEADER = "import asyncio, os, shlex, subprocess, sys\nimport sglang\nimport sglang as sgl\nfrom sglang.srt.server_args import ServerArgs\n"


def _kwargs(words: list[str]) -> str:
    """An Engine/ServerArgs keyword list from option words."""
    out = []
    index = 0
    while index < len(words):
        word = words[index]
        if not word.startswith("--"):
            index += 1
            continue
        name, _, value = word[2:].partition("=")
        if not value and index + 1 < len(words) and not words[index + 1].startswith("--"):
            value = words[index + 1]
            index += 1
        index += 1
        key = name.replace("-", "_")
        if not key.isidentifier():
            continue
        out.append(f"{key}={value!r}" if value and not value.isdigit() else f"{key}={value or True}")
    return ", ".join(out)


@st.composite
def python_launches(draw, indent: str = "") -> str:
    argv = draw(argvs())
    options = argv[3:] if argv[1:2] == ["-m"] else argv[2:]
    joined = " ".join(argv)
    form = draw(st.integers(0, 13))
    if form == 0:
        code = f"subprocess.Popen({argv!r})"
    elif form == 1:
        code = f"cmd = [sys.executable, '-m', 'sglang.launch_server']\ncmd += {options!r}\nproc = subprocess.Popen(cmd, env=env)"
    elif form == 2:
        code = f"os.system({joined!r})"
    elif form == 3:
        tp = draw(st.sampled_from(["8", "2", "int(os.environ.get('TP', 4))", "args.tp"]))
        command = "f" + repr(joined + " --tp {tp}")
        code = f"tp = {tp}\nos.system({command})"
    elif form == 4:
        code = f"subprocess.run({joined!r} + ' --port 30001', shell=True, check=True)"
    elif form == 5:
        code = f"sgl.Engine({_kwargs(options)})"
    elif form == 6:
        code = f"kw = dict({_kwargs(options)})\nServerArgs(**kw)"
    elif form == 7:
        code = f"popen_launch_server('m', 'http://127.0.0.1:30000', timeout=60, other_args={options!r})"
    elif form == 8:
        code = f"popen_launch_pd_server('m', 'http://127.0.0.1:30001', timeout=60, other_args={options!r})"
    elif form == 9:
        code = f"subprocess.Popen(shlex.split({joined!r}))"
    elif form == 10:
        code = f"args = {options!r}\nsubprocess.Popen(['python3', '-m', 'sglang.launch_server', *args, '--tp', str(tp)])"
    elif form == 11:
        code = f"await asyncio.create_subprocess_exec({', '.join(map(repr, argv))})"
    elif form == 12:
        code = f"subprocess.Popen(['ssh', host, {joined!r}])"
    else:
        code = f"print({joined!r})"
    return "\n".join(indent + line for line in code.split("\n"))


@st.composite
def python_blocks(draw) -> str:
    shape = draw(st.integers(0, 8))
    body = draw(python_launches("    "))
    if shape == 0:
        return f"def launch(role, tp=8, **kw):\n{body}\n\nlaunch('prefill', 8)\nlaunch('decode', tp=4)"
    if shape == 1:
        return f"for role, tp in {{'prefill': 8, 'decode': 4}}.items():\n{body}"
    if shape == 2:
        return f"if os.environ.get('ROLE') == 'prefill':\n{body}\nelse:\n{draw(python_launches('    '))}"
    if shape == 3:
        inner = "\n".join("    " + line for line in body.split("\n"))
        return f"class TestPD(unittest.TestCase):\n    tp = 2\n\n    @classmethod\n    def setUpClass(cls):\n{inner}"
    if shape == 4:
        return f"async def main():\n{body}\n\nasyncio.run(main())"
    if shape == 5:
        return draw(st.sampled_from(["tp = 8", "role = 'decode'", "env = dict(os.environ)", "host = 'node1'", "TP = 4  # noqa: SGL001",
                                     "args = parser.parse_args()", "from sglang.test.test_utils import popen_launch_server, popen_launch_pd_server"]))
    return draw(python_launches())


python_programs = st.lists(st.one_of(python_blocks(), python_blocks(), python_files), max_size=6).map(lambda blocks: PY_HEADER + "\n".join(blocks) + "\n")


@_settings(1500)
@given(text=st.one_of(python_files, python_programs))
def test_python_source_on_launch_fragments(text: str) -> None:
    count_example()
    check_source("python", text)


# ---------------------------------------------------------------------------------
# YAML


def _alias_bomb(depth: int) -> str:
    lines = ["l0: &l0 [sglang.launch_server, --tp, '8']"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, depth)]
    return "\n".join(lines) + "\n"


YAML_FRAGMENTS = [
    "apiVersion: apps/v1\nkind: Deployment\n", "apiVersion: v1\nkind: Pod\n", "apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\n",
    "metadata:\n  name: prefill\n", "spec:\n  template:\n    spec:\n      containers:\n", "spec:\n  containers:\n",
    "  leaderWorkerTemplate:\n    leaderTemplate:\n      spec:\n        containers:\n", "        initContainers:\n",
    "      - name: sglang\n        image: lmsysorg/sglang:v0.5.23\n", "        command:\n",
    "          - python3\n          - -m\n          - sglang.launch_server\n", "        command: [python3, -m, sglang.launch_server]\n",
    '        args: ["--tp", "8", "--disaggregation-mode", "decode"]\n', "        args:\n", "          - --tp-size\n          - \"8\"\n",
    "          - --disaggregation-mode\n          - prefill\n", "          - --enable-unified-memory\n", "          - --port=$(PORT)\n",
    "          - --tp=$(TP)\n", "          - $$(TP)\n", "        env:\n          - name: TP\n            value: \"4\"\n",
    "          - name: PORT\n            valueFrom:\n              fieldRef:\n                fieldPath: status.podIP\n",
    '        command: ["sh", "-c"]\n', "        command: [/bin/bash, -lc]\n",
    "        args:\n          - |\n            python3 -m sglang.launch_server --tp $TP \\\n              --disaggregation-mode prefill\n",
    "          - >-\n            python -m sglang.launch_server\n            --enable-unified-memory --disaggregation-mode decode\n",
    "          - |-\n            # comment ends it \\\n            --tp 8\n", "          - |\n            'unclosed\n",
    "services:\n  prefill:\n    image: lmsysorg/sglang\n",
    "    command: >\n      python3 -m sglang.launch_server --disaggregation-mode prefill --tp-size 2\n",
    '    entrypoint: ["python3", "-m", "sglang.launch_server"]\n', "    command: python3 -m sglang.launch_server --tp 2 --port 30001\n",
    "    command: \"python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://prefill:30000\"\n",
    "    environment:\n      - TP=8\n", "    environment:\n      TP: \"8\"\n", "  decode:\n", "  router:\n",
    "base: &base [python3, -m, sglang.launch_server]\n", "cmd: *base\n", "<<: *base\n", "defaults: &d {tp: 8}\n", "x:\n  <<: *d\n",
    "        command: *base\n", "*undefined\n", "&dangling\n", "{{ .Values.tp }}\n", "        - --tp={{ .Values.tp }}\n",
    "{{- if .Values.x }}\n", "{{- end }}\n", "{% for x in y %}\n", "image: \"{{.Name}}\"\n",
    "---\n", "...\n", "--- !!map\n", "%YAML 1.2\n", "%TAG ! tag:x,2000:\n", "!!python/object/apply:os.system [echo]\n",
    "? complex\n: key\n", "key: value\n", "- item\n", "- [a, b]\n", "- {a: b}\n", "tp: !!int 8\n", "port: 0x7530\n", "n: ~\n",
    "'unclosed\n", '"unclosed\n', "[\n", "{\n", "]\n", "}\n", "!tag ", "&a ", "*a", "- *a\n", ": ", "- ", "|\n", ">\n", "|+2\n",
    "# comment\n", "# noqa: SGL001\n", "        - --tp  # noqa: SGL101\n", "# sglang-lint: disable=SGL002\n",
    "\t", "\tkey: value\n", "  ", "    ", "\n", "\r\n", "\x00", "\ufeff", "é: 模型\n", "😀\n", "\x85", "\u2028",
    "[" * 50 + "]" * 50 + "\n", "a:\n" + "".join("  " * i + "b:\n" for i in range(1, 40)), _alias_bomb(5), _alias_bomb(8),
]
YAML_INDENTS = ["", "", "", "  ", "    ", "\t", " - "]

yaml_files = st.lists(
    st.tuples(st.sampled_from(YAML_INDENTS), st.one_of(st.sampled_from(YAML_FRAGMENTS), st.text(max_size=6))), max_size=25
).map(lambda pieces: "".join(indent + fragment for indent, fragment in pieces))


def _yaml_scalar(word: str, style: str) -> str:
    return {"plain": word, "double": '"' + word.replace('"', "") + '"', "single": "'" + word.replace("'", "") + "'"}[style]


def _yaml_list(words: list[str], indent: str, flow: bool, style: str) -> str:
    if flow:
        return " [" + ", ".join(_yaml_scalar(w, style if style != "plain" else "double") for w in words) + "]\n"
    return "\n" + "".join(f"{indent}- {_yaml_scalar(w, style)}\n" for w in words)


@st.composite
def yaml_launches(draw) -> str:
    argv = draw(argvs())
    flow = draw(st.booleans())
    style = draw(st.sampled_from(["plain", "double", "single"]))
    split = draw(st.integers(0, len(argv)))
    shape = draw(st.integers(0, 5))
    name = draw(st.sampled_from(["prefill", "decode", "router", "sglang"]))
    env = draw(st.sampled_from(["", '        env:\n          - name: TP\n            value: "8"\n          - name: ROLE\n            value: decode\n']))
    if shape <= 1:  # a Kubernetes container: command + args
        head = draw(st.sampled_from(["apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  template:\n    spec:\n",
                                     "apiVersion: v1\nkind: Pod\nspec:\n", "kind: LeaderWorkerSet\nspec:\n  leaderWorkerTemplate:\n    workerTemplate:\n      spec:\n"]))
        pad = " " * (len(head.rsplit("\n", 2)[-2]) - len(head.rsplit("\n", 2)[-2].lstrip()) + 2)
        text = f"{head}{pad}containers:\n{pad}  - name: {name}\n{pad}    image: lmsysorg/sglang\n"
        text += f"{pad}    command:" + _yaml_list(argv[:split], pad + "      ", flow, style)
        text += f"{pad}    args:" + _yaml_list(argv[split:], pad + "      ", flow, style)
        return text + env.replace("        ", pad + "    ")
    if shape == 2:  # sh -c with a block scalar
        block = draw(st.sampled_from(["|", "|-", ">", ">-", "|+"]))
        script = " \\\n  ".join(argv) if block.startswith("|") else "\n".join(argv)
        body = "".join(f"            {line}\n" for line in script.split("\n"))
        return ("kind: Pod\nspec:\n  containers:\n    - name: c\n      command: [sh, -c]\n      args:\n"
                f"        - {block}\n{body}" + env.replace("        ", "      "))
    # compose
    text = f"services:\n  {name}:\n    image: lmsysorg/sglang\n"
    if split:
        text += "    entrypoint:" + _yaml_list(argv[:split], "      ", flow, style)
    if shape == 3:
        text += "    command: >\n" + "".join(f"      {w}\n" for w in argv[split:])
    else:
        text += "    command:" + _yaml_list(argv[split:], "      ", flow, style)
    return text + draw(st.sampled_from(["", "    environment:\n      - TP=8\n", '    environment:\n      TP: "4"\n']))


@st.composite
def yaml_programs(draw) -> str:
    documents = draw(st.lists(yaml_launches(), min_size=1, max_size=3))
    lines = "---\n".join(documents).split("\n")
    for _ in range(draw(st.integers(0, 3))):  # noise between the lines
        lines.insert(draw(st.integers(0, len(lines))), draw(st.one_of(st.sampled_from(YAML_FRAGMENTS), st.text(max_size=5))).rstrip("\n"))
    return "\n".join(lines)


@_settings(1500)
@given(text=st.one_of(yaml_files, yaml_programs()))
def test_yaml_source_on_launch_fragments(text: str) -> None:
    count_example()
    check_source("yaml", text)


# ---------------------------------------------------------------------------------
# Markdown

FENCE_OPENERS = ["```bash", "```sh", "```shell", "```console", "```python", "```py", "```yaml", "```yml", "```", "~~~",
                 "~~~bash", "````bash", "``` bash {.line-numbers}", "```bash title=run.sh", "```text", "```diff", "```json",
                 "  ```bash", "    ```bash", "> ```bash", "- ```bash", "1. ```python", ">> ```yaml", "```BASH", "```{bash}"]
FENCE_CLOSERS = ["```", "~~~", "````", "  ```", "> ```", "", "``", "```bash"]
MD_LINES = [
    "# Runbook", "## Prefill node", "Some prose with `--tp 8` inline.", "> **Note**", "> ", "- item", "1. step", "   ",
    "| a | b |", "|---|---|", "<details>", "</details>", "<!-- python -m sglang.launch_server --tp 8 -->", "<!--", "-->",
    "$ python -m sglang.launch_server --tp 8 --disaggregation-mode prefill", "$ export TP=8", "(venv) $ sglang serve --model m",
    "root@host:~# python3 -m sglang.launch_server --tp 4", "> $ python -m sglang.launch_server", "INFO: server started",
    "python -m sglang.launch_server --model-path <MODEL> --tp <TP> --disaggregation-mode decode --port 30001",
    "--disaggregation-mode prefill --enable-unified-memory \\", "    --tp-size 8 --dp-size 8 --enable-dp-attention",
    "<MODEL_PATH>", "<PREFILL_HOST>:30000", "[link](http://x)", "    indented code --tp 8", "\t--tp 4", "***", "---", "===",
    "<!-- sglang-lint: disable=SGL002 -->", "<!-- noqa -->", "\\```", "é 模型 😀", "\x00", "\r",
]


@st.composite
def markdown_documents(draw) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 8))):
        choice = draw(st.integers(0, 3))
        if choice == 0:
            parts.extend(draw(st.lists(st.one_of(st.sampled_from(MD_LINES), st.text(max_size=8)), max_size=4)))
            continue
        opener = draw(st.sampled_from(FENCE_OPENERS))
        language = opener.lower()
        if "py" in language:
            body = draw(st.one_of(python_programs, python_files))
        elif "yaml" in language or "yml" in language:
            body = draw(st.one_of(yaml_programs(), yaml_files))
        else:
            body = draw(st.one_of(shell_programs, shell_scripts))
        if choice == 2:
            body = "\n".join(draw(st.sampled_from(["$ ", "> ", "  ", "- ", ""])) + line for line in body.split("\n"))
        parts.append(opener)
        parts.append(body)
        parts.append(draw(st.sampled_from(FENCE_CLOSERS)))
    return "\n".join(parts) + draw(st.sampled_from(["", "\n"]))


@_settings(1000)
@given(text=markdown_documents())
def test_markdown_source_on_fenced_blocks(text: str) -> None:
    count_example()
    check_source("markdown", text)


# ---------------------------------------------------------------------------------
# Random text, each source

MARKERS = ["", "", "python -m sglang.launch_server ", "import sglang, subprocess\nsubprocess.Popen(", "command: [python3, -m, sglang.launch_server, ",
           "```bash\npython -m sglang.launch_server "]


@_settings(1000)
@given(kind=st.sampled_from(sorted(SOURCES)), marker=st.sampled_from(MARKERS), text=st.text(max_size=300))
def test_every_source_on_random_text(kind: str, marker: str, text: str) -> None:
    count_example()
    check_source(kind, marker + text)


# ---------------------------------------------------------------------------------
# Size: one fragment repeated many times (nesting, doubling, long continuations)

REPEAT_PREFIX = {"shell": "A=--tp\nB=(--tp 8)\n", "python": "import subprocess, sglang\ncmd = ['python', '-m', 'sglang.launch_server']\n",
                 "yaml": "command: [python3, -m, sglang.launch_server]\n", "markdown": "```bash\npython -m sglang.launch_server\n```\n"}
REPEAT_SUFFIX = {"shell": '\npython -m sglang.launch_server $A "${B[@]}"\n', "python": "\nsubprocess.Popen(cmd)\n", "yaml": "\n", "markdown": "\n"}
REPEATED = {
    "shell": ["A=$A$A\n", 'A="$A $A"\n', "A+=$A\n", 'B=("${B[@]}" "${B[@]}")\n', "f() { f $A $A; }\nf\n", "for i in 1 2; do\n",
              "if true; then\n", "$(", "${A:-", '"$(echo "', "bash -c '", "<<EOF\n", "f() {\n", "--tp $A \\\n", "x=(", "case x in x) ",
              "python -m sglang.launch_server --tp ${TP:-8} &\n", "TP=$((TP+1))\n", "set -- \"$@\" \"$@\"\n"],
    "python": ["cmd = cmd + cmd\n", "cmd += cmd\n", "cmd = [cmd, cmd]\n", "cmd.extend(cmd)\n", "(", "[", "f(", "if x:\n    ", "def f():\n    f()\n",
               "x = f'{x}{x}'\n", "subprocess.Popen(cmd)\n", "def g(a):\n    g(a + a)\n    g(a + a)\ng(cmd)\n", "'a' + ", "for i in range(2):\n    "],
    "yaml": ["- ", "[", "{", "a:\n ", "  - python3 -m sglang.launch_server --tp 8\n", "- &a [*a, *a]\n", "---\ncommand: [python3, -m, sglang.launch_server]\n", "? "],
    "markdown": ["```bash\n", "> ", "- ", "```bash\npython -m sglang.launch_server --tp 8\n```\n", "    ", "~~~\n```\n", "1. > - "],
}


@_settings(120)
@given(case=st.sampled_from(sorted(SOURCES)).flatmap(lambda kind: st.tuples(st.just(kind), st.sampled_from(REPEATED[kind]))), times=st.integers(20, 600))
def test_repeated_fragments_end_within_the_bound(case: tuple[str, str], times: int) -> None:
    count_example()
    kind, fragment = case
    check_source(kind, REPEAT_PREFIX[kind] + fragment * times + REPEAT_SUFFIX[kind])


# ---------------------------------------------------------------------------------
# Mutations of the fixtures

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
_SUFFIX_KINDS = {".sh": "shell", ".bash": "shell", ".py": "python", ".yaml": "yaml", ".yml": "yaml", ".md": "markdown"}
FRAGMENTS_BY_KIND = {"shell": SHELL_FRAGMENTS, "python": PY_STATEMENTS, "yaml": YAML_FRAGMENTS, "markdown": MD_LINES + FENCE_OPENERS}


def _fixture_kind(path: Path, data: bytes) -> str | None:
    kind = _SUFFIX_KINDS.get(path.suffix)
    if kind is None and path.suffix == "" and data.startswith(b"#!"):
        kind = "python" if b"python" in data.split(b"\n", 1)[0] else "shell"
    return kind


def _load_fixtures() -> list[tuple[str, str, bytes]]:
    found = []
    for path in sorted(FIXTURES.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            kind = _fixture_kind(path, data)
            if kind is not None:
                found.append((str(path.relative_to(FIXTURES)), kind, data))
    return found


FIXTURE_FILES = _load_fixtures()


def test_fixtures_are_found() -> None:
    kinds = {kind for _, kind, _ in FIXTURE_FILES}
    assert kinds == set(SOURCES), kinds
    assert len(FIXTURE_FILES) >= 50


@st.composite
def mutated_fixtures(draw) -> tuple[str, str, str]:
    """A fixture with one to four edits: delete, duplicate or swap small pieces,
    insert a fragment or random characters, cut the end off."""
    name, kind, data = draw(st.sampled_from(FIXTURE_FILES))
    text = data.decode("utf-8", "replace")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.one_of(st.integers(0, 40), st.integers(0, 400))))
        operation = draw(st.sampled_from(["delete", "duplicate", "fragment", "fragment", "characters", "swap", "truncate"]))
        if operation == "delete":
            text = text[:i] + text[j:]
        elif operation == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif operation == "fragment":
            text = text[:i] + draw(st.sampled_from(FRAGMENTS_BY_KIND[kind] + SHELL_FRAGMENTS[:20])) + text[i:]
        elif operation == "characters":
            text = text[:i] + draw(st.text(min_size=1, max_size=5)) + text[i:]
        elif operation == "swap":
            lines = text.split("\n")
            a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        else:
            text = text[:i]
    return name, kind, text


@_settings(2000)
@given(fixture=mutated_fixtures())
def test_mutated_fixtures(fixture: tuple[str, str, str]) -> None:
    count_example()
    name, kind, text = fixture
    check_source(kind, text, "fixtures/" + name)


# ---------------------------------------------------------------------------------
# The whole pipeline: several files of every kind at once (cross-file pairs,
# routers, suppressions)


@_settings(500)
@given(
    shell=st.one_of(shell_scripts, mutated_fixtures().map(lambda f: f[2])),
    python=python_files,
    yaml=yaml_files,
    markdown=markdown_documents(),
    decode=shell_scripts,
)
def test_pipeline_on_mixed_files(shell: str, python: str, yaml: str, markdown: str, decode: str) -> None:
    count_example()
    check_pipeline({"d/prefill.sh": shell, "d/launch.py": python, "k8s/deploy.yaml": yaml, "docs/RUNBOOK.md": markdown, "d/decode.sh": decode})


@_settings(400)
@given(fixture=mutated_fixtures())
def test_pipeline_on_mutated_fixtures(fixture: tuple[str, str, str]) -> None:
    count_example()
    name, _, text = fixture
    check_pipeline({"fixtures/" + name: text})


# ---------------------------------------------------------------------------------
# Random bytes, through the files (reading, decoding, the binary check)

BYTE_MARKERS = [b"", b"python -m sglang.launch_server ", b"#!/bin/bash\npython3 -m sglang.launch_server --tp ",
                b"import sglang, subprocess\nsubprocess.Popen(", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff",
                b"command: [python3, -m, sglang.launch_server, ", b"```bash\nsglang serve "]


@_settings(800)
@given(
    suffix=st.sampled_from([".sh", ".py", ".yaml", ".md"]),
    marker=st.sampled_from(BYTE_MARKERS),
    data=st.one_of(st.binary(max_size=400), st.sampled_from(FIXTURE_FILES).map(lambda f: f[2])),
    cut=st.integers(0, 1000),
    noise=st.binary(max_size=8),
)
def test_random_bytes_through_lint_paths(suffix: str, marker: bytes, data: bytes, cut: int, noise: bytes) -> None:
    count_example()
    check_bytes("input" + suffix, marker + data[:cut] + noise + data[cut:])


# ---------------------------------------------------------------------------------
# Regressions found by the properties above


PY_INVALID_ESCAPE = 'import subprocess\n"""Start it: C:\\cluster"""\nsubprocess.Popen(["python", "-m", "sglang.launch_server", "--tp", "8"])\n'


def test_python_compiler_warnings_neither_escape_nor_lose_the_file() -> None:
    """Found by test_mutated_fixtures (fixtures/python-helper-per-role/launch_pd.py,
    whose docstring holds an invalid escape sequence '\\c'): ast.parse warned
    (DeprecationWarning; a SyntaxWarning printed to stderr since Python 3.12) about
    the analyzed file, and under -W error (warnings as errors) the warning became a
    SyntaxError: the file was reported unparsable and its launch lost. The Python
    source and the Markdown source's python-block check now parse with warnings
    silenced."""
    for filter_action in ("error", "always"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter(filter_action)
            result = analyze_python("x.py", PY_INVALID_ESCAPE)
            document = analyze_markdown("x.md", "```python\n" + PY_INVALID_ESCAPE + "```\n")
        assert not caught
        assert [note.message for note in result.notes] == []
        assert len(result.servers) == 1
        assert len(document.servers) == 1


def test_shell_variable_doubling_is_bounded() -> None:
    """`A=$A$A` doubles A's value on every line: 20 lines took 197 s and 40 lines
    ran out of memory (24 GB). Found by test_repeated_fragments_end_within_the_bound.
    A variable now holds at most shell_walk.MAX_VALUE_SEGS pieces of words; a larger
    value (and every value built from it) is unknown."""
    from sglang_lint.sources.shell_walk import MAX_VALUE_SEGS

    for line in ("A=$A$A", 'A="$A $A"', "A+=$A", "export A=$A$A"):
        # 2**12 pieces: over the bound, and quick to build even without it.
        (launch,) = check_source("shell", "A=--tp\n" + (line + "\n") * 12 + "python -m sglang.launch_server $A\n").servers
        assert [arg.value.describe() for arg in launch.args] == ["<unknown: $A is too large to follow>"], line
        (launch,) = check_source("shell", "A=--tp\n" + (line + "\n") * 60 + "python -m sglang.launch_server $A\n").servers
        assert len(launch.args) == 1
    array = 'B=(--tp 8)\n' + 'B=("${B[@]}" "${B[@]}")\n' * 40 + 'python -m sglang.launch_server "${B[@]}"\n'
    (launch,) = check_source("shell", array).servers
    assert len(launch.args) <= MAX_VALUE_SEGS


def test_python_value_doubling_is_bounded() -> None:
    """`cmd = cmd + cmd` doubles a list on every line: 20 lines took 21 s (found by
    test_repeated_fragments_end_within_the_bound); `s = "%s%s" % (s, s)` took
    273 s, `s = os.path.join(s, s)` 675 s, and `s = f"{s}{s}"` on a value the
    interpreter cannot see, `d.update(d)` and `d = {**d, **d}` ran out of memory.
    Lists and dicts now hold at most MAX_ITEMS items, strings at most MAX_ITEMS
    pieces (besides MAX_STRING characters); larger values are unknown."""
    header = 'import os, subprocess, sglang\ncmd = ["python", "-m", "sglang.launch_server"]\nd = {"tp_size": 8}\ns = "--tp 8"\nu = os.environ["X"]\n'
    for line in ("cmd = cmd + cmd", "cmd += cmd", "cmd.extend(cmd)", "cmd = [*cmd, *cmd]", "d = {**d, **d}", "d.update(d)",
                 's = "%s%s" % (s, s)', "s = os.path.join(s, s)", 's = f"{s}{s}"', 'u = f"{u}{u}"', "u = u + s + u", 's = " ".join([s, s])'):
        check_source("python", header + (line + "\n") * 40 + "subprocess.Popen(cmd + [s, u])\nsglang.Engine(**d)\n")
