"""The never-crash promise for the whole pipeline (sources -> rules -> report): any
text, any bytes, any mixture of launch fragments gives findings or notes, never an
exception, and the same input always gives the same output."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sglang_lint.pipeline import LintOptions, lint_texts
from sglang_lint.report import render

FRAGMENTS = [
    "python -m sglang.launch_server", "python3 -m sglang_router.launch_router", "sglang serve m",
    "--disaggregation-mode prefill", "--disaggregation-mode decode", "--enable-unified-memory",
    "--tp 8", "--tp=4", "--dp 8", "--enable-dp-attention", "--attn-cp-size 2", "--attn-dp-size 2",
    "--port 30000", "--port $((30000+1))", "--prefill http://127.0.0.1:30000 8998",
    "--decode http://127.0.0.1:30001", "--config c.yaml", "--config=c.yaml", "--enable-unified",
    "$TP", "${TP:-8}", '"$@"', "${A[@]}", "A=(--tp 2)", "F='--tp 4'", "$F", "f() {", "}", "f 8",
    "\\\n", "\n", " # c\n", "&", "|", ";", "'", '"', "$(", ")", "${", "if true; then", "fi",
    "case x in x)", ";;", "esac", "for i in 1 2; do", "done", "<<EOF\n", "EOF\n", "ssh h", "bash -c",
    "docker run img", "nohup", "env A=1", "--tp", "--pp 2", "\x00", "é", "\t",
]

scripts = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map(" ".join)


def _run(files: dict[str, str]):
    result = lint_texts(files, LintOptions())
    text = render(result.findings, "full", sources=result.sources) + render(result.findings, "json")
    return [(f.code, f.location, f.message) for f in result.findings], text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prefill=scripts, decode=scripts)
def test_random_launch_fragments_never_crash_and_are_deterministic(prefill: str, decode: str) -> None:
    files = {"d/prefill.sh": prefill, "d/decode.sh": decode}
    first = _run(files)
    assert first == _run(files)
    assert not any(code == "SGL900" and "internal error" in message for code, _, message in first[0])


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300))
def test_arbitrary_text_never_crashes(text: str) -> None:
    findings, _ = _run({"x.sh": text})
    assert not any("internal error" in message for _, _, message in findings)


def test_an_error_in_one_launch_keeps_the_others(monkeypatch) -> None:
    """An internal error while deriving one server's settings becomes a note on
    that launch; the other files' findings survive (it escaped before: only the
    argv parse was guarded, not the attention-TP derivation)."""
    import sglang_lint.analysis as lint

    real = lint.make_server

    def flaky(launch, settings, judged=None):
        if launch.path == "broken/run.sh":
            raise ZeroDivisionError("boom")
        return real(launch, settings, judged)

    monkeypatch.setattr(lint, "make_server", flaky)
    files = {
        "broken/run.sh": "python -m sglang.launch_server --tp 8\n",
        "ok/run.sh": (
            "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"
            "python -m sglang.launch_server --disaggregation-mode decode --tp 8 --port 30001 &\n"
        ),
    }
    result = lint_texts(files, LintOptions())
    assert sorted((f.code, f.location.path) for f in result.findings) == [("SGL002", "ok/run.sh"), ("SGL900", "broken/run.sh")]


PY_FRAGMENTS = [
    "import subprocess, os, sys, shlex\n", "import sglang as sgl\n", "from sglang.srt.server_args import ServerArgs\n",
    'P = [sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--enable-unified-memory"]\n',
    'D = ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "--enable-unified-memory", "--port", "1"]\n',
    'P += ["--tp", str(8)]\n', 'D += ["--tp", os.environ.get("TP", "4")]\n', 'D.extend(["--dp", "4", "--enable-dp-attention"])\n',
    "subprocess.Popen(P)\n", "subprocess.Popen(D)\n", "subprocess.run(' '.join(D), shell=True)\n",
    "os.system(f\"{' '.join(P)} --tp {8}\")\n", "sgl.Engine(tp_size=8, disaggregation_mode='decode', enable_unified_memory=True)\n",
    "ServerArgs(tp_size=2, **cfg)\n", "def f(role, tp):\n    subprocess.Popen(D + ['--tp', str(tp)])\n", "f('decode', 2)\n",
    "for r in {'a': 1}.items():\n    f(*r)\n", "class T:\n    tp = 2\n    @classmethod\n    def setUpClass(cls):\n        f('x', cls.tp)\n",
    "if x:\n    D = P\n", "  # noqa: SGL001\n", "# noqa: E501\n", "'", '"""', "(", ")", "\\\n", "\x00", "é", "\t",
]

python_files = st.lists(st.sampled_from(PY_FRAGMENTS), max_size=16).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(launcher=python_files, decode=scripts)
def test_python_and_shell_mixtures_never_crash_and_are_deterministic(launcher: str, decode: str) -> None:
    files = {"d/launch.py": launcher, "d/decode.sh": decode}
    first = _run(files)
    assert first == _run(files)
    assert not any(code == "SGL900" and "internal error" in message for code, _, message in first[0])


# Expressions of literals (edge values included: infinity, texts int() refuses,
# empty containers) through the builtins, operators and methods the Python
# interpreter models: whatever CPython makes of them (a value or an exception),
# the analysis never ends in an internal error. Found int("+-3") and int(1e999).
_LITERALS = st.sampled_from(
    ["0", "-1", "7", "2**70", "1e999", "-1e999", "0.5", "True", "None", '""', '"abc"', '"+-3"', '" 12 "', '"1_000"',
     '"--tp"', "[]", "[1, 2]", '["a", "b"]', "()", "{}", '{"a": 1}', "{1, 1}", "range(3)", "os.environ.get('X', '4')", "sys.argv"]
)
_UNARY = ["int({})", "str({})", "len({})", "sorted({})", "list({})", "tuple({})", "set({})", "bool({})", "float({})", "abs({})",
          "round({})", "min({})", "max({})", "enumerate({})", "-{}", "not {}", "{}[0]", "{}[-1:]", "{}.split()", "{}.strip()",
          "{}.upper()", "{}.get('a')", "{}.items()", "' '.join({})", "f'{{{}}}'", "f'{{{}:d}}'", "f'{{{}:.2f}}'", "'%d' % {}",
          "'{{}}'.format({})", "[v for v in {}]", "{{v for v in {}}}", "str({}).replace('1', '')"]
_BINARY = ["{} + {}", "{} - {}", "{} * {}", "{} / {}", "{} // {}", "{} % {}", "{} ** {}", "{} == {}", "{} < {}", "{} in {}",
           "{} if {} else 0", "zip({}, {})", "range({}, {})", "{} and {}", "{} or {}", "[{}, {}]", "{{'k': {}, 'v': {}}}"]
expressions = st.recursive(
    _LITERALS,
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(_UNARY), inner).map(lambda pair: pair[0].format(pair[1])),
        st.tuples(st.sampled_from(_BINARY), inner, inner).map(lambda triple: triple[0].format(triple[1], triple[2])),
    ),
    max_leaves=6,
)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expression=expressions)
def test_python_builtins_and_operators_never_crash(expression: str) -> None:
    launcher = (
        "import os, subprocess, sys\n"
        f"VALUE = {expression}\n"
        "try:\n"
        f"    OTHER = str({expression})\n"
        "except Exception:\n"
        "    OTHER = '1'\n"
        'subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--tp", str(VALUE), "--dp", OTHER])\n'
    )
    findings, _ = _run({"launch.py": launcher})
    assert not any(code == "SGL900" and "internal error" in message for code, _, message in findings), (expression, findings)
