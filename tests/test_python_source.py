"""The Python source: which calls are launches, and what their arguments evaluate to.

Each test is a small launcher; the assertions read the settings SGLang would end
up with (through the same argv parser as shell scripts), so they check the
interpreter and the launch detection together.
"""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sglang_lint.model import EntryPoint, Kind, Value
from sglang_lint.pipeline import LintOptions, lint_paths, lint_texts
from sglang_lint.sources.python import analyze_python


def _servers(source: str, path: str = "launch.py"):
    result = lint_texts({path: textwrap.dedent(source)}, LintOptions())
    return [s for d in result.deployments for s in d.servers], result


def _value(server, dest: str) -> str:
    return server.setting(dest).value.describe()


def _launches(source: str):
    return analyze_python("launch.py", textwrap.dedent(source))


def test_argv_list_with_constants_plus_and_append():
    servers, _ = _servers(
        """
        import subprocess, sys
        TP = 4
        base = [sys.executable, "-m", "sglang.launch_server"]
        args = base + ["--tp-size", str(TP)]
        args += ["--disaggregation-mode", "decode"]
        args.append("--port")
        args.extend(["30001"])
        subprocess.Popen(args)
        """
    )
    (server,) = servers
    assert (_value(server, "tp_size"), server.role, _value(server, "port")) == ("4", "decode", "30001")
    # The value is located where it is used, and its text where it was written.
    setting = server.setting("tp_size")
    assert setting.origin is not None and setting.origin.line == 3


@pytest.mark.parametrize(
    "call",
    [
        'subprocess.run(["python3", "-m", "sglang.launch_server", "--tp", "2"])',
        'subprocess.call(["python3", "-m", "sglang.launch_server", "--tp", "2"])',
        'subprocess.check_call(["python3", "-m", "sglang.launch_server", "--tp", "2"])',
        'subprocess.check_output(["python3", "-m", "sglang.launch_server", "--tp", "2"])',
        'subprocess.Popen("python3 -m sglang.launch_server --tp 2", shell=True)',
        'subprocess.Popen(["python3 -m sglang.launch_server --tp 2"], shell=True)',
        'os.system("nohup python3 -m sglang.launch_server --tp 2 > log 2>&1 &")',
        'os.popen("python3 -m sglang.launch_server --tp 2")',
        'os.spawnlp(os.P_NOWAIT, "python3", "python3", "-m", "sglang.launch_server", "--tp", "2")',
        'os.spawnv(os.P_NOWAIT, "/usr/bin/python3", ["python3", "-m", "sglang.launch_server", "--tp", "2"])',
        'os.execvp("python3", ["python3", "-m", "sglang.launch_server", "--tp", "2"])',
        'os.execlpe("python3", "python3", "-m", "sglang.launch_server", "--tp", "2", {})',
        'os.posix_spawnp("python3", ["python3", "-m", "sglang.launch_server", "--tp", "2"], os.environ)',
        'asyncio.create_subprocess_exec(sys.executable, "-m", "sglang.launch_server", "--tp", "2")',
        'asyncio.create_subprocess_shell("python3 -m sglang.launch_server --tp 2")',
        'subprocess.Popen(["env", "CUDA_VISIBLE_DEVICES=0,1", "python3", "-m", "sglang.launch_server", "--tp", "2"])',
        'subprocess.Popen(["ssh", "node1", "python3 -m sglang.launch_server --tp 2"])',
        'subprocess.Popen(["bash", "-c", "exec python3 -m sglang.launch_server --tp 2"])',
        'subprocess.Popen(shlex.split("python3 -m sglang.launch_server --tp \'2\'"))',
        'subprocess.Popen("python3 -m sglang.launch_server --tp 2".split())',
        'sp.Popen(["python3", "-m", "sglang.launch_server", "--tp", "2"])',
        'Popen(["python3", "-m", "sglang.launch_server", "--tp", "2"])',
        'subprocess.Popen(["sglang", "serve", "--model-path", "m", "--tp", "2"])',
    ],
)
def test_process_launchers(call):
    source = "import asyncio, os, shlex, subprocess, sys\nimport subprocess as sp\nfrom subprocess import Popen\n" + call + "\n"
    servers, _ = _servers(source)
    assert [(_value(s, "tp_size")) for s in servers] == ["2"]


@pytest.mark.parametrize(
    "source",
    [
        'print("python3 -m sglang.launch_server --tp 2")',
        'logging.info("python3 -m sglang.launch_server --tp 2")',
        '"""Run: python3 -m sglang.launch_server --tp 2"""',
        'CMD = ["python3", "-m", "sglang.launch_server", "--tp", "2"]\nprint(" ".join(CMD))',
        'subprocess.Popen("python3 -m sglang.launch_server --tp 2")',  # a program name, not a script
        'subprocess.Popen("python3 -m sglang.launch_server --tp 2", shell=False)',
        'subprocess.Popen(["echo", "python3 -m sglang.launch_server"])',
        'def f():\n    """subprocess.Popen(["python3", "-m", "sglang.launch_server"])"""\n',
    ],
)
def test_not_launches(source):
    result = _launches("import logging, subprocess\n" + source + "\n")
    assert result.servers == [] and result.routers == []


def test_fstring_with_shell_true_and_env_default():
    servers, _ = _servers(
        """
        import os, subprocess
        tp = os.environ.get("DECODE_TP", "2")
        port = 30001
        subprocess.Popen(f"python -m sglang.launch_server --tp {tp} --port {port + 1}", shell=True)
        """
    )
    (server,) = servers
    tp = server.setting("tp_size").value
    assert tp.kind is Kind.SYMBOL and tp.name == "$DECODE_TP" and tp.default == "2"
    assert _value(server, "port") == "30002"


def test_environment_without_default_stays_unknown():
    servers, _ = _servers(
        """
        import os, subprocess
        subprocess.Popen(["python3", "-m", "sglang.launch_server", "--tp", os.environ["TP"]])
        subprocess.Popen(["python3", "-m", "sglang.launch_server", "--tp", os.getenv("TP") or "8"])
        """
    )
    first, second = servers
    assert first.setting("tp_size").value.candidates() is None
    assert second.setting("tp_size").value.candidates() == frozenset({"8"})


@pytest.mark.parametrize(
    "expression, expected",
    [
        ('"--tp {}".format(4)', "4"),
        ('"--tp {n}".format(n=4)', "4"),
        ('"--tp %d" % 4', "4"),
        ('"--tp %(n)s" % {"n": 4}', "4"),
        ('" ".join(["--tp", str(4)])', "4"),
        ('"--tp " + str(2 * 2)', "4"),
        ('f"--tp {2 + 2:d}"', "4"),
        ('"--tp={}".format(4)', "4"),
        # A set holds each known item once, by CPython's equality (it held
        # duplicates: len({1, 1}) was 2).
        ('"--tp " + str(len({1, 1, 2}))', "2"),
        ("\"--tp \" + str(len({int(g) for g in ['1', '1', '01']}))", "1"),
        ('"--tp " + str(sorted({8, 8})[0] * 2)', "16"),
        ('"--tp " + str(len({1, 1.0, True}))', "1"),
        ("\"--tp \" + str(len({'1', 1}))", "2"),
    ],
)
def test_string_building(expression, expected):
    servers, _ = _servers(
        f"""
        import subprocess
        subprocess.Popen("python3 -m sglang.launch_server " + {expression}, shell=True)
        """
    )
    assert [_value(s, "tp_size") for s in servers] == [expected]


def test_star_unpacking_list_copy_and_comprehension():
    servers, _ = _servers(
        """
        import subprocess
        common = ["--enable-unified-memory"]
        extra = list(common)
        extra.append("--enable-dp-attention")
        sizes = [8, 8]
        argv = ["python3", "-m", "sglang.launch_server", *extra, *[str(x) for x in ("--tp", 8)], "--dp", str(sizes[-1])]
        subprocess.Popen(argv)
        """
    )
    (server,) = servers
    assert server.attn_tp.value.describe() == "1"
    # list(x) copies: appending to the copy leaves the original alone
    assert _value(server, "enable_unified_memory") == "true"


def test_helper_called_once_per_role():
    servers, result = _servers(
        """
        import subprocess

        def launch(role, tp, port, extra=()):
            cmd = ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", role,
                   "--tp", str(tp), "--port", str(port), "--enable-unified-memory", *extra]
            return subprocess.Popen(cmd)

        launch("prefill", 8, 30000)
        launch("decode", tp=4, port=30001)
        """
    )
    assert sorted((s.role, _value(s, "tp_size")) for s in servers) == [("decode", "4"), ("prefill", "8")]
    decode = next(s for s in servers if s.role == "decode")
    # noqa on the call line silences: the call site is part of the launch.
    assert (10, 10) in decode.launch.line_ranges
    assert [f.code for f in result.findings] == ["SGL001"]
    assert result.findings[0].location.line == 10


def test_role_loop_over_dict_and_items():
    servers, _ = _servers(
        """
        import subprocess
        ROLES = {"prefill": {"tp": 8, "port": 30000}, "decode": {"tp": 2, "port": 30001}}
        for role, cfg in ROLES.items():
            subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", role,
                              "--tp", str(cfg["tp"]), "--port", str(cfg["port"])])
        for role in ROLES:
            pass
        """
    )
    assert sorted((s.role, _value(s, "tp_size")) for s in servers) == [("decode", "2"), ("prefill", "8")]


def test_branch_gives_alternatives_not_a_guess():
    servers, _ = _servers(
        """
        import subprocess, sys
        tp = 4 if len(sys.argv) > 1 else 8
        args = ["python3", "-m", "sglang.launch_server", "--tp", str(tp)]
        if sys.argv[1] == "big":
            args += ["--dp", "2"]
        subprocess.Popen(args)
        """
    )
    # Issue 16: each way through the ternary and the `if` is a launch variant.
    assert [(_value(s, "tp_size"), _value(s, "dp_size")) for s in servers] == [("4", "2"), ("4", "1"), ("8", "2"), ("8", "1")]
    assert [step.text for step in servers[0].launch.path_condition] == ["`len(sys.argv) > 1` is true", "sys.argv[1] is 'big'"]


def test_class_attributes_inherited_and_overridden_per_test_class():
    servers, result = _servers(
        """
        from sglang.test.test_utils import popen_launch_pd_server

        class PDBase:
            prefill_tp = 4
            decode_tp = 4

            @classmethod
            def setUpClass(cls):
                cls.start_prefill()
                cls.start_decode()

            @classmethod
            def start_prefill(cls):
                args = ["--disaggregation-mode", "prefill", "--tp", cls.prefill_tp, "--enable-unified-memory"]
                cls.prefill = popen_launch_pd_server("m", "http://127.0.0.1:30000", timeout=60, other_args=args)

            @classmethod
            def start_decode(cls):
                args = ["--disaggregation-mode", "decode", "--tp", cls.decode_tp, "--enable-unified-memory"]
                cls.decode = popen_launch_pd_server("m", "http://127.0.0.1:30001", timeout=60, other_args=args)

        class TestMismatch(PDBase):
            decode_tp = 2

        class TestSame(PDBase):
            pass
        """
    )
    scopes = sorted({s.launch.scope for s in servers})
    assert scopes == ["TestMismatch", "TestSame"]
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL001", 24)]
    decode = next(s for s in servers if s.role == "decode" and s.launch.scope == "TestMismatch")
    assert (_value(decode, "host"), _value(decode, "port"), _value(decode, "model_path")) == ("127.0.0.1", "30001", "m")


def test_self_attributes_from_setup_and_super():
    servers, _ = _servers(
        """
        import subprocess

        class Launcher:
            def __init__(self, tp):
                self.tp = tp

            def argv(self, role):
                return ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", role, "--tp", str(self.tp)]

        class Decode(Launcher):
            def __init__(self):
                super().__init__(2)

            def start(self):
                subprocess.Popen(self.argv("decode"))

        Decode().start()
        """
    )
    assert [(s.role, _value(s, "tp_size")) for s in servers] == [("decode", "2")]


def test_engine_and_server_args_keywords():
    servers, result = _servers(
        """
        import sglang as sgl
        from sglang.srt.server_args import ServerArgs
        from sglang.srt.entrypoints.http_server import launch_server

        COMMON = dict(model_path="Qwen/Qwen3-8B", enable_unified_memory=True)
        prefill = sgl.Engine(tp_size=8, disaggregation_mode="prefill", **COMMON)
        decode = sgl.Engine(tp_size=8, dp_size=8, enable_dp_attention=True, disaggregation_mode="decode", **COMMON)
        launch_server(ServerArgs("Qwen/Qwen3-8B", tp_size=2, port=31000))
        sgl.Engine(server_args=ServerArgs(model_path="x"))
        """
    )
    engines = [s for s in servers if s.launch.entry is EntryPoint.ENGINE]
    assert sorted((s.role, s.attn_tp.value.describe()) for s in engines) == [("decode", "1"), ("prefill", "8")]
    server_args = [s for s in servers if s.launch.entry is EntryPoint.SERVER_ARGS]
    assert sorted(_value(s, "model_path") for s in server_args) == ["Qwen/Qwen3-8B", "x"]
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL001", 8)]
    # The derivation is a note (issue 23 part 4); the location is the factor
    # that differs, the value of dp_size=8 (tp_size is 8 on both sides).
    assert any("enable_dp_attention=True" in note for note in result.findings[0].notes)
    assert result.findings[0].location.column == len("decode = sgl.Engine(tp_size=8, dp_size=") + 1


def test_engine_with_unseen_mapping_leaves_other_fields_unknown():
    servers, _ = _servers(
        """
        import sglang
        def make(config):
            return sglang.Engine(tp_size=4, **config)
        """
    )
    (server,) = servers
    assert _value(server, "tp_size") == "4"
    assert server.setting("enable_unified_memory").value.kind is Kind.UNKNOWN


def test_router_from_python_and_prepare_server_args_is_not_a_launch():
    """prepare_server_args only parses (SGLang's launch_server.py passes its result
    to launch_server); a script that validates arguments starts nothing."""
    result = _launches(
        """
        import subprocess
        from sglang.srt.server_args import prepare_server_args
        prepare_server_args(["--tp", "2", "--disaggregation-mode", "decode"])
        subprocess.Popen(["python3", "-m", "sglang_router.launch_router", "--pd-disaggregation",
                          "--prefill", "http://127.0.0.1:30000", "--decode", "http://127.0.0.1:30001"])
        """
    )
    assert len(result.servers) == 0 and len(result.routers) == 1


def test_branches_that_spell_the_same_items_keep_them():
    servers, _ = _servers(
        """
        import subprocess, sys
        argv = ["python3", "-m", "sglang.launch_server", "--enable-unified-memory"]
        if sys.argv[1] == "a":
            argv += ["--tp-size", "8"]
        else:
            argv += ["--tp-size", "8", "--dp-size", "8", "--enable-dp-attention"]
        subprocess.Popen(argv)
        """
    )
    # Issue 16: one launch variant per branch, each exact.
    a, other = servers
    assert a.setting("tp_size").value == other.setting("tp_size").value == Value.known("8")
    assert [a.attn_tp.value.text, other.attn_tp.value.text] == ["8", "1"]
    assert _value(a, "enable_unified_memory") == _value(other, "enable_unified_memory") == "true"


def test_uncalled_function_runs_with_unknown_parameters():
    servers, _ = _servers(
        """
        import subprocess
        def start(tp):
            subprocess.Popen(["python3", "-m", "sglang.launch_server", "--tp", str(tp), "--port", "1"])
        """
    )
    (server,) = servers
    value = server.setting("tp_size").value
    assert value.kind is Kind.SYMBOL and value.name == "start.tp"


def test_mutation_through_a_helper_is_seen_by_the_caller():
    servers, _ = _servers(
        """
        import subprocess
        def add_unified(cmd):
            cmd.append("--enable-unified-memory")
        cmd = ["python3", "-m", "sglang.launch_server"]
        add_unified(cmd)
        subprocess.Popen(cmd)
        """
    )
    (server,) = servers
    assert _value(server, "enable_unified_memory") == "true"


def test_syntax_error_is_a_note_with_its_line():
    result = _launches("import subprocess, sglang.launch_server\n\ndef broken(:\n    pass\n")
    (note,) = result.notes
    assert note.line == 3 and "syntax error" in note.message


def test_a_file_that_cannot_launch_is_not_parsed():
    """No SGLang marker, or no way to start a process: nothing to find, and its
    syntax errors are flake8's (CPython's Lib/test holds deliberately broken files)."""
    assert _launches("import subprocess\n\ndef broken(:\n").notes == []
    assert _launches("import sglang\n\ndef broken(:\n").notes == []


def test_noqa_comment_is_collected_but_hash_in_string_is_not():
    result = _launches('import subprocess, sglang.launch_server\nx = "# noqa: SGL001"\ny = 1  # noqa: SGL002\n')
    assert result.comments == {3: "# noqa: SGL002"}


def test_python_pairs_with_shell_in_the_same_directory():
    result = lint_texts(
        {
            "deploy/prefill.py": (
                "import subprocess\n"
                'subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill",\n'
                '                  "--enable-unified-memory", "--tp", "8"])\n'
            ),
            "deploy/decode.sh": "python3 -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 4 --port 30001\n",
        }
    )
    assert [(f.code, f.location.path, f.location.line) for f in result.findings] == [("SGL001", "deploy/decode.sh", 1)]


def test_columns_count_code_points_on_non_ascii_lines():
    servers, _ = _servers(
        """
        import subprocess
        subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "模型", "--tp", "2"])
        """
    )
    (server,) = servers
    location = server.setting("tp_size").location
    line = 'subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "模型", "--tp", "2"])'
    assert location.column == line.index('"--tp"') + 1


@pytest.mark.parametrize(
    "source",
    [
        "x = " + "(" * 300 + ")" * 300,
        "x = " + "+".join(["1"] * 5000),
        "def f():\n    f()\nf()\n",
        "def a():\n    b()\ndef b():\n    a()\na()\n",
        "while True:\n    x = [x]\n",
        "import subprocess\nfor i in range(10**9):\n    subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--port', str(i)])\n",
        "x = 'a' * 10**9\n",
        "x = [1] * 10**9\n",
        "x = f'{1:99999999999}'\n",
        "s = 'sglang'\n" + "\n".join(f"def f{i}():\n    f{i + 1}()\n    f{i + 1}()" for i in range(40)) + "\nf0()\n",
        "\x00",
        "\ufeffimport subprocess\n",
        "a = b = c = d\n(a, *b) = 1\n[x for x in y if z]\n{**q}\n",
        "class A(A): pass\nclass B(B, A): pass\n",
        # a chained comparison evaluated itself over and over (found on SGLang's own source)
        "for f in [0.5]:\n    if not 0.0 < f <= 1.0:\n        raise ValueError(f)\n",
        "import subprocess\nsubprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', '\\N{BOGUS}'])\n",
    ],
)
def test_hostile_python_never_raises(source):
    result = analyze_python("hostile.py", source)
    assert isinstance(result.notes, list)


def test_ordinary_code_gives_no_depth_note():
    source = "for f in [0.5, 2]:\n    if not 0.0 < f <= 1.0:\n        raise ValueError(f)\n"
    assert analyze_python("ok.py", source).notes == []


_FRAGMENTS = [
    "import subprocess, os, sys, shlex\n",
    "import sglang as sgl\n",
    "from sglang.test.test_utils import popen_launch_pd_server\n",
    'CMD = ["python3", "-m", "sglang.launch_server"]\n',
    'CMD += ["--tp", str(8)]\n',
    "CMD.append(os.environ.get('TP', '4'))\n",
    "subprocess.Popen(CMD)\n",
    "subprocess.Popen(' '.join(CMD), shell=True)\n",
    "def f(role, tp=2):\n    return subprocess.Popen(CMD + ['--disaggregation-mode', role, '--tp', str(tp)])\n",
    "f('prefill')\n",
    "f('decode', 8)\n",
    "for r in ('prefill', 'decode'):\n    f(r)\n",
    "class T:\n    tp = 4\n    @classmethod\n    def setUpClass(cls):\n        popen_launch_pd_server('m', 'http://h:1', 1, other_args=['--tp', cls.tp])\n",
    "sgl.Engine(tp_size=2, enable_dp_attention=True, dp_size=2)\n",
    "if x:\n    CMD = []\nelse:\n    CMD.extend(CMD)\n",
    "while y:\n    CMD = CMD + CMD\n",
    "x = f'{CMD!r:>10}'\n",
    "y = '%s %d' % (x,)\n",
    "z = '{0[1]}'.format(CMD)\n",
    "try:\n    pass\nexcept Exception:\n    raise\nfinally:\n    pass\n",
    "\tbroken(\n",
    "'''\n",
    "match CMD:\n    case [a, *b]:\n        pass\n",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=12), st.text(max_size=20))
def test_random_launch_fragments_never_raise_and_are_deterministic(fragments, noise):
    source = "".join(fragments) + noise
    first = analyze_python("fuzz.py", source)
    second = analyze_python("fuzz.py", source)
    key = lambda r: ([(s.location, [t.value for t in s.args], s.keywords) for s in r.servers], r.notes)  # noqa: E731
    assert key(first) == key(second)


def test_functions_started_by_threads_processes_and_executors():
    servers, _ = _servers(
        """
        import subprocess, threading
        from concurrent.futures import ThreadPoolExecutor

        def launch(role, tp):
            subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", role, "--tp", str(tp)])

        threading.Thread(target=launch, args=("prefill", 8)).start()
        with ThreadPoolExecutor() as pool:
            pool.submit(launch, "decode", 4)
        """
    )
    assert sorted((s.role, _value(s, "tp_size")) for s in servers) == [("decode", "4"), ("prefill", "8")]


# ---------------------------------------------------------------------------------
# Never drop a launch silently (issue 16): an entry point written where it could run
# that yields no launch gets a note at the mention, saying why.


def _notes(source: str) -> list[tuple[int, int, str]]:
    result = analyze_python("launch.py", textwrap.dedent(source))
    return [(note.line, note.column, note.message) for note in result.notes]


def test_argv_list_set_in_branches_that_are_not_exhaustive_is_named():
    source = """\
        import subprocess
        import sys


        def launch(role):
            if role == "prefill":
                cmd = [sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", "prefill"]
            elif role == "decode":
                cmd = [sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", "decode"]
            return subprocess.Popen(cmd)


        launch(sys.argv[1])
        """
    result = analyze_python("launch.py", textwrap.dedent(source))
    # Issue 16: a variant per branch (the path where neither holds raises
    # NameError, as in CPython, and launches nothing).
    assert _notes(source) == []
    assert [([t.value.describe() for t in s.args], [step.text for step in s.path_condition]) for s in result.servers] == [
        (["--disaggregation-mode", "prefill"], ["sys.argv[1] is 'prefill'"]),
        (["--disaggregation-mode", "decode"], ["sys.argv[1] is 'decode'"]),
    ]


def test_argv_list_whose_program_is_an_environment_variable():
    source = """\
        import os, subprocess
        PY = os.environ["PYTHON"]
        subprocess.Popen([PY, "-m", "sglang.launch_server", "--tp-size", "8"])
        """
    assert _notes(source) == [(3, 30, "launch not analyzed: its command `PY` is `$PYTHON`, which this file never sets")]


def test_command_from_a_function_we_cannot_see():
    source = """\
        import subprocess, sys
        from launcher_utils import extra_args
        cmd = [sys.executable, "-m", "sglang.launch_server", "--tp-size", "8"]
        cmd = extra_args() or cmd
        subprocess.run(cmd, check=True)
        """
    ((line, column, message),) = _notes(source)
    assert (line, column) == (3, 31)
    assert message.startswith("launch not analyzed: line 5 runs `cmd`, ")


def test_launch_server_with_server_args_from_the_command_line():
    source = """\
        import sys
        from sglang.srt.entrypoints.http_server import launch_server
        from sglang.srt.server_args import prepare_server_args

        if __name__ == "__main__":
            server_args = prepare_server_args(sys.argv[1:])
            launch_server(server_args)
        """
    # A pass-through (issue 20: SGLang's own launch_server.py): a launch whose
    # fields are all given on the command line, no note (design.md: a
    # pass-through adds no option; --strict lists it).
    assert _notes(source) == []
    (server,) = _launches(textwrap.dedent(source)).servers
    assert (server.location.line, server.entry) == (7, EntryPoint.SERVER_ARGS)
    assert [(keyword.name, keyword.value.kind) for keyword in server.keywords] == [(None, Kind.UNKNOWN)]


def test_launch_server_with_server_args_we_cannot_see_is_noted():
    source = """\
        from sglang.srt.entrypoints.http_server import launch_server
        from launcher_utils import load_server_args

        launch_server(load_server_args("prefill.yaml"))
        """
    ((line, column, message),) = _notes(source)
    assert (line, message) == (4, "launch not analyzed: the ServerArgs of launch_server() come from `load_server_args('prefill.yaml')`, the result of load_server_args()")


@pytest.mark.parametrize(
    "source",
    [
        'print("python -m sglang.launch_server --tp 8")\n',
        'import logging\nlogging.info("run python -m sglang.launch_server")\n',
        '"""Run: python -m sglang.launch_server --tp 8"""\nimport subprocess\n',
        "# subprocess.Popen(['python', '-m', 'sglang.launch_server'])\nimport subprocess\n",
        "import subprocess, sys\nsubprocess.run([sys.executable, '-m', 'sglang.launch_server', '--help'])\n",
        "import subprocess\nsubprocess.run(['pip', 'install', 'sglang', 'sglang-router'])\n",
        "import subprocess, sys\nsubprocess.run([sys.executable, '-m', 'sglang.check_env'])\n",
        "import subprocess\nfrom sglang.srt.entrypoints.http_server import launch_server\n",
        "import subprocess\nCMD = ['python', '-m', 'sglang.launch_server']\nprint(' '.join(CMD))\nsubprocess.run(get_other())\n",
        # Followed launches give no note either.
        "import subprocess, sys\nsubprocess.Popen([sys.executable, '-m', 'sglang.launch_server', '--tp', '2'])\n",
        "from sglang.srt.entrypoints.http_server import launch_server\n"
        "from sglang.srt.server_args import ServerArgs\nlaunch_server(ServerArgs(model_path='m', tp_size=2))\n",
        "from sglang.srt.entrypoints.http_server import launch_server\n"
        "from sglang.srt.server_args import ServerArgs\nargs = ServerArgs(model_path='m')\nlaunch_server(args)\n",
    ],
)
def test_no_note_where_nothing_is_dropped(source):
    assert analyze_python("launch.py", source).notes == []


def test_command_string_and_list_heads_we_cannot_see_are_named():
    source = """\
        import os, subprocess
        from helpers import python_bin, extra

        os.system(f"{python_bin()} -m sglang.launch_server --tp-size 4")
        base = ["python3", "-m", "sglang.launch_server"]
        if os.environ.get("X"):
            base = extra()
        subprocess.run(base + ["--tp", "2"])
        """
    assert _notes(source) == [
        (4, 31, "launch not analyzed: its command `python_bin()` is the result of a call sglang-lint cannot see"),
    ]
    # Issue 16: where $X is empty, `base` is the launch of line 5 (a variant);
    # where it is set, `base` is what extra() returns, which is not that launch.
    (launch,) = analyze_python("launch.py", textwrap.dedent(source)).servers
    assert [step.text for step in launch.path_condition] == ["$X is empty or unset"]


def test_popen_launch_server_of_a_pd_group_is_named():
    source = """\
        from sglang.test.test_utils import popen_launch_server

        process = popen_launch_server("m", "http://127.0.0.1:30000", timeout=600, pd_separated=True)
        """
    assert _notes(source) == [
        (3, 11, "launch not analyzed: popen_launch_server(pd_separated=...) starts sglang.launch_pd_server, not modeled")
    ]


def test_a_name_reused_for_another_command_gets_no_note():
    source = """\
        import subprocess, sys
        from helpers import other_command
        cmd = [sys.executable, "-m", "sglang.launch_server", "--tp-size", "8"]
        print("would run:", " ".join(cmd))
        cmd = ["nvidia-smi", "-L"]
        subprocess.run(cmd)
        cmd = other_command()
        subprocess.run(cmd)
        """
    assert _notes(source) == []


def test_attribute_command_that_differs_between_branches_is_named():
    source = """\
        import subprocess, sys


        class Launcher:
            def __init__(self, role, extra):
                self.cmd = [sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", role]
                if extra:
                    self.cmd = extra + self.cmd

            def start(self):
                return subprocess.Popen(self.cmd)


        Launcher("prefill", sys.argv[1:]).start()
        """
    notes = _notes(source)
    assert [(line, column) for line, column, _ in notes] == [(6, 44)]
    assert notes[0][2].startswith("launch not analyzed: line 11 runs `self.cmd`, ")


def test_shlex_join_of_a_list_with_items_we_cannot_see_keeps_the_launch():
    """Found by the CPython oracle: ``subprocess.Popen(shlex.join(cmd), shell=True)``
    with a spread in ``cmd`` (here what a filter we cannot decide may drop)
    gave up on the whole string, and the launch disappeared; the spread is a
    quoted value we cannot see, like any other unknown item."""
    source = textwrap.dedent(
        """
        import os, shlex, subprocess, sys
        extra = sys.argv[1:]
        cmd = [sys.executable, "-m", "sglang.launch_server", "--tp-size", "8", *extra, "--port", "30000"]
        subprocess.Popen(shlex.join(cmd), shell=True)
        """
    )
    (server,) = analyze_python("launch.py", source).servers
    values = [token.value for token in server.args]
    assert values[:2] == [Value.known("--tp-size"), Value.known("8")]
    assert values[-2:] == [Value.known("--port"), Value.known("30000")]
    assert values[2].kind is Kind.UNKNOWN


def test_insert_into_a_list_with_items_we_cannot_see_keeps_the_launch():
    """Found by the CPython oracle: ``cmd.insert(3, "--x")`` on a list with a
    spread anywhere (what a filter we cannot decide may drop) made the whole
    list unknown, and the launch disappeared. Items before the index (or, for a
    negative one, after it) that are all seen say where the new one goes."""
    source = textwrap.dedent(
        """
        import os, subprocess, sys
        cmd = [sys.executable, "-m", "sglang.launch_server", "--model-path", os.getenv("M"), "--tp-size", "8"]
        cmd = [a for a in cmd if a is not None]
        cmd.insert(3, "--enable-dp-attention")
        cmd.insert(-2, "--port")
        cmd.insert(-2, "30000")
        subprocess.Popen(cmd)
        extra = sys.argv[1:]
        cmd = [sys.executable, "-m", "sglang.launch_server", *extra]
        cmd.insert(4, "--port")  # past what we can see: the items before stay
        subprocess.Popen(cmd)
        """
    )
    launch, past = analyze_python("launch.py", source).servers
    assert len(past.args) == 1 and past.args[0].spread
    values = [token.value for token in launch.args]
    assert values[:2] == [Value.known("--enable-dp-attention"), Value.known("--model-path")]
    assert values[-4:] == [Value.known("--port"), Value.known("30000"), Value.known("--tp-size"), Value.known("8")]
    assert launch.args[2].spread


def test_list_changes_by_del_slices_pop_and_remove_are_followed():
    """Found while extending the CPython oracle: ``del cmd[3:5]`` was ignored (the
    launch kept the words CPython had deleted), and ``.pop()``, ``.remove()``,
    ``cmd[3:3] = [...]`` made the whole list unknown, so the launch disappeared.
    The argv below is what CPython passes."""
    source = textwrap.dedent(
        """
        import subprocess, sys
        cmd = [sys.executable, "-m", "sglang.launch_server", "--tp", "8", "--x", "--port", "1"]
        del cmd[3:5]
        cmd.pop()
        cmd.pop(-1)
        cmd.remove("--x")
        cmd[3:3] = ["--tp-size", "4"]
        cmd += ["--a", "--b", "--c"]
        del cmd[-3]
        cmd.reverse()
        cmd.reverse()
        cmd.append(cmd.pop(5))
        subprocess.Popen(cmd)
        gone = [sys.executable, "-m", "sglang.launch_server", "--tp", "8"]
        gone.clear()
        subprocess.Popen(gone)
        """
    )
    (launch,) = analyze_python("launch.py", source).servers
    assert [token.value for token in launch.args] == [Value.known(w) for w in ("--tp-size", "4", "--c", "--b")]


def test_pop_and_remove_around_items_we_cannot_see_keep_the_launch():
    source = textwrap.dedent(
        """
        import os, subprocess, sys
        cmd = [sys.executable, "-m", "sglang.launch_server", "--model-path", os.environ["M"], *sys.argv[1:], "--x", "--tmp"]
        cmd.pop()
        cmd.remove("--x")  # may be in what we cannot see: the items before stay
        subprocess.Popen(cmd)
        """
    )
    (launch,) = analyze_python("launch.py", source).servers
    assert launch.args[0].value == Value.known("--model-path") and launch.args[-1].spread
    source = textwrap.dedent(
        """
        import subprocess, sys
        cmd = [sys.executable, "-m", "sglang.launch_server", *sys.argv[1:], "--tmp", "1", "--x"]
        del cmd[-3]
        cmd.pop(-2)
        cmd.insert(1, "-u")
        del cmd[1]
        cmd[3:3] = ["--tp-size", "8"]
        del cmd[-1:]
        cmd[1] = "-m"
        cmd.append("--y")
        cmd[-1] = "--z"
        subprocess.Popen(cmd)
        """
    )
    (launch,) = analyze_python("launch.py", source).servers
    assert [token.value for token in launch.args[:2]] == [Value.known("--tp-size"), Value.known("8")]
    assert len(launch.args) == 4 and launch.args[2].spread and launch.args[3].value == Value.known("--z")


def test_a_result_that_gives_nothing_keeps_no_lines() -> None:
    """Issue 20: 104 of the 186 files of SGLang's tree that pass the pre-check
    launch nothing; their lines were split again in the parent for nothing
    (a finding never points there). A file that launches keeps its lines."""
    from sglang_lint.files import FileKind
    from sglang_lint.sources import extract

    from sglang_lint.prefilter import python_may_run_a_launch

    quiet = "import subprocess\n\n\ndef helper():\n    \"\"\"Not sglang.launch_server: the GPUs.\"\"\"\n    return subprocess.run(['nvidia-smi'])\n"
    assert python_may_run_a_launch(quiet)  # parsed and run, launching nothing
    launching = "import subprocess\nsubprocess.Popen(['python3', '-m', 'sglang.launch_server', '--tp', '2'])\n"
    assert extract("quiet.py", quiet, FileKind.PYTHON).lines == []
    assert extract("launch.py", launching, FileKind.PYTHON).lines == launching.split("\n")


@pytest.mark.parametrize(
    ("argument", "expected"),
    [('"+-3"', None), ('"--3"', None), ('" 12 "', "12"), ('"1_000"', "1000"), ('"+7"', "7"), ('"x1"', None), ("1e999", None), ("-1e999", None), ("1e999 * 0", None)],
)
def test_int_is_what_cpython_makes_of_its_argument(argument, expected):
    # Where CPython raises (int("+-3"): ValueError; int(1e999): OverflowError)
    # the interpreter raised too: it once called int() on the text after
    # stripping every sign, and on an infinite number, and the analysis of the
    # whole file ended in an internal error (SGL900). Now: unknown.
    result = _launches(
        f"""
        import subprocess, sys
        TP = int({argument})
        subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--tp", str(TP)])
        """
    )
    assert not result.notes
    (launch,) = result.servers
    tp = launch.args[-1].value
    assert (tp.describe() if tp.kind is Kind.KNOWN else None) == expected


def _handler_launches(body: str) -> list[str]:
    """The --tp of each launch of a file whose ``try`` handler starts a server
    of its own (--tp 2): there is one where the handler may run."""
    source = f"""
import os, subprocess, sys
LIMITS = [1, 2]
BAD = ["x"]
FUNCS = [lambda v: v]
GPUS = range(4, 7)
def helper():
    return "4"
TP = 3
try:
    {body}
except (ValueError, TypeError, IndexError, KeyError):
    subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--tp", "2"])
subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--tp", str(TP)])
"""
    return [launch.args[-1].value.describe() for launch in _launches(source).servers]


@pytest.mark.parametrize(
    "body",
    [
        # SGLang's PD test fixture (sglang 0.5.23,
        # sglang/test/server_fixtures/disaggregation_fixture.py:375, get_rdma_devices_args)
        # guards this with `except ValueError`: over known indices it cannot raise.
        "gpu_indices = sorted({int(g) for g in GPUS})",
        'TP = int("3")',
        "TP = int(3.5)",
        'names = sorted(["b", "a", "c"])\n    TP = len(names)',
        "values = [int(v) for v in LIMITS]\n    count = len(values)",
        "pass",
    ],
)
def test_a_try_body_that_cannot_raise_never_runs_its_handlers(body):
    # Before, each handler was a way the file could take: here a launch of its
    # own CPython never starts (elsewhere a variant with the handler's value,
    # and a run of the file more for each).
    assert _handler_launches(body) == ["3"]


@pytest.mark.parametrize(
    "body",
    [
        'TP = int(os.environ.get("TP", "8"))',  # the environment may hold any text
        'TP = int("eight")',  # raises
        "TP = int(helper())",  # a call of the file's own code may raise inside
        "TP = int(LIMITS[5])",  # an index out of range
        'TP = int("4")\n    os.environ["X"] = "1"',  # a statement the rule does not judge
        'TP = len({"a": 1}["b"])',  # a missing key
        "TP = int(str(sorted([[1], [2]])))",  # a text that is no number
        "TP = len([int(v) for v in BAD])",  # len drops what the items came to
        "TP = sorted([int(v) for v in (1, 2)])",  # a comprehension over a display
        'count = int("x")\n    count = 4',  # a name assigned twice: its first value is lost
        "int = lambda v: v\n    TP = int(4)",  # not the builtin
        "TP = [int(4) for int in FUNCS]",  # nor here
        "TP = str(undefined_name)",  # a NameError
    ],
)
def test_a_try_body_that_may_raise_keeps_its_handlers(body):
    assert "2" in _handler_launches(body)


def test_a_text_joined_from_items_we_cannot_see_is_one_argv_word():
    # `",".join(devices)` is one word of the argv list however many devices
    # there are: the value of --disaggregation-ib-device, not words that may be
    # options overriding --tp and the role (SGLang's PD test fixture in CI,
    # sglang 0.5.23 sglang/test/server_fixtures/disaggregation_fixture.py:394).
    servers, _ = _servers(
        """
        import subprocess, sys
        from devices import find
        devices = ",".join(dict.fromkeys(find()))
        subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", "prefill",
                          "--tp", "2", "--disaggregation-ib-device", devices])
        """
    )
    (server,) = servers
    assert (server.role, _value(server, "tp_size")) == ("prefill", "2")
    assert server.setting("disaggregation_ib_device").value.kind is Kind.UNKNOWN


def test_a_text_joined_from_items_we_cannot_see_is_still_several_shell_words():
    # Run by a shell, the joined items are split again: options that may
    # override the ones before them.
    servers, _ = _servers(
        """
        import subprocess
        from devices import extra
        args = " ".join(extra())
        subprocess.Popen(" ".join(["python3 -m sglang.launch_server --tp 2", args]), shell=True)
        """
    )
    (server,) = servers
    assert server.setting("tp_size").value.kind is Kind.UNKNOWN


def test_an_environment_variable_tested_against_none_is_a_decision_of_the_path():
    # `os.getenv("DEVS") is None` holds exactly where DEVS is unset: a decision
    # over the environment, forked like `if os.getenv("DEVS"):` (before, an
    # opaque condition: in another module's code, as in a test fixture's base
    # class, it was merged and the list it chose made the launch unknown).
    result = _launches(
        """
        import os, subprocess, sys
        devices = ["--disaggregation-ib-device", os.getenv("DEVS")]
        if devices[1] is None:
            devices = []
        subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--tp", "2"] + devices)
        """
    )
    variants = sorted((launch.args[-1].value.describe(), [step.text for step in launch.path_condition]) for launch in result.servers)
    assert variants == [("$DEVS", ["$DEVS is set"]), ("2", ["$DEVS is unset"])]


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ('os.getenv("DEVS", "mlx5_0") is None', "1"),  # a default: never None
        ('os.environ.get("DEVS", None) is not None', "{1, 2}"),
        ('os.getenv("DEVS") is not None and os.getenv("DEVS") is None', "1"),
    ],
)
def test_what_none_tests_of_the_environment_decide(condition, expected):
    servers, _ = _servers(
        f"""
        import os, subprocess, sys
        tp = "1"
        if {condition}:
            tp = "2"
        subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--tp", tp])
        """
    )
    assert "{" + ", ".join(sorted({_value(s, "tp_size") for s in servers})) + "}" == expected if expected.startswith("{") else [_value(s, "tp_size") for s in servers] == [expected]



def test_a_root_takes_unknown_star_args_and_keyword_args():
    """A function nothing in the file calls runs with the arguments a caller
    would give: unknown parameters, and unknown `*args` / `**kwargs` too
    (they were empty: `Engine(model_path=m, tp_size=4, **overrides)` launched
    with every other option at its default, and SGLang's own `Engine.__init__`
    became a deployment of defaults)."""
    source = textwrap.dedent(
        """
        import subprocess
        import sglang


        def serve(**overrides):
            return sglang.Engine(model_path="m", tp_size=4, **overrides)


        def serve_args(*extra):
            subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp", "4", *extra])
        """
    )
    engine, command = _launches(source).servers
    spread = engine.keywords[-1]  # (a mapping we cannot see: it may set any field)
    assert spread.name is None and not spread.value.is_known and "what a caller passes serve() in **overrides" in spread.value.reason
    last = command.args[-1].value
    assert not last.is_known and "what a caller passes serve_args() in *extra" in last.reason


ASSERTED_BASE = """
from sglang.test.test_utils import popen_launch_server

class NgramBase:
    attention_backend: str = ""

    @classmethod
    def get_server_args(cls):
        assert cls.attention_backend, f"{cls.__name__} must set attention_backend"
        return ["--attention-backend", cls.attention_backend]

    @classmethod
    def setUpClass(cls):
        cls.process = popen_launch_server("m", "http://127.0.0.1:30000", timeout=60, other_args=cls.get_server_args())
"""


def test_an_assert_that_fails_ends_the_path():
    """`assert X` is `if not X: raise AssertionError`: SGLang's ngram and
    standalone fixtures (0.5.23 test/server_fixtures/ngram_fixture.py:51)
    assert that a subclass set `attention_backend`, and the base class (""
    there) launches nothing. The assert was skipped, and the base class's
    launch was "invalid choice: ''"."""
    servers, result = _servers(ASSERTED_BASE)
    assert result.findings == []
    # (CPython's call raises; the interpreter goes on past a call that raises on
    # every way with its value unknown, never with the "" the assert refused)
    assert all(token.value.describe() != "" for s in servers for token in s.launch.args)
    subclass = ASSERTED_BASE + '\n\nclass TestTriton(NgramBase):\n    attention_backend = "triton"\n'
    servers, result = _servers(subclass)
    assert [(s.launch.scope, _value(s, "attention_backend")) for s in servers] == [("TestTriton", "triton")]
    assert result.findings == []


def test_an_assert_over_the_environment_goes_on_where_it_holds():
    """`assert os.getenv("MODEL")` ends the path where MODEL is empty or unset:
    the launch after it runs only where it is set, as `if not ...: raise`."""
    source = (
        "import os, subprocess\n"
        'assert os.getenv("MODEL"), "set MODEL"\n'
        'subprocess.Popen(["python", "-m", "sglang.launch_server", "--model-path", os.environ["MODEL"], "--tp", "2"])\n'
        'assert 1 + 1 == 3\n'
        'subprocess.Popen(["python", "-m", "sglang.launch_server", "--model-path", "never", "--tp", "2"])\n'
    )
    result = analyze_python("run.py", source)
    assert [[t.value.describe() for t in s.args][:2] for s in result.servers] == [["--model-path", "$MODEL"]]


@pytest.mark.parametrize("model", [None, "", "/models/m"])
def test_an_assert_against_cpython(tmp_path, model):
    from test_launch_variants import cpython_popen_calls

    source = (
        "import os, subprocess\n"
        'assert os.getenv("MODEL"), "set MODEL"\n'
        'subprocess.Popen(["python", "-m", "sglang.launch_server", "--model-path", os.environ["MODEL"]])\n'
    )
    (tmp_path / "run.py").write_text(source)
    env = {} if model is None else {"MODEL": model}
    try:
        ran = cpython_popen_calls(tmp_path, tmp_path / "run.py", env, drop=3)
    except Exception:  # noqa: BLE001 - the AssertionError ends CPython's run
        ran = []
    reported = [[t.value.describe() for t in s.args] for s in analyze_python("run.py", source).servers]
    assert bool(ran) == bool(model) and len(reported) == 1  # (the launch where it holds)
    if model:
        assert ran == [[model if word == "$MODEL" else word for word in argv] for argv in reported]


# -- sglang.utils.launch_server_cmd ------------------------------------------------
def _execute_shell_command_words(command: str) -> tuple[dict[str, str], list[str]]:
    """What sglang.utils.execute_shell_command (0.5.23, sglang/utils.py:467)
    runs for a command: backslash-newlines and backslashes made blanks, split
    at blanks, leading KEY=VALUE words taken for the environment."""
    parts = command.replace("\\\n", " ").replace("\\", " ").split()
    env: dict[str, str] = {}
    while parts and "=" in parts[0] and not parts[0].startswith(("-", "/")):
        key, _, value = parts[0].partition("=")
        if not key.replace("_", "").isalnum():
            break
        env[key] = value
        parts.pop(0)
    return env, parts


@pytest.mark.parametrize(
    "command",
    [
        "python3 -m sglang.launch_server --model-path m --tp 2",
        "\npython3 -m sglang.launch_server --model-path m \\\n  --tp 4 --host 0.0.0.0\n",
        "CUDA_VISIBLE_DEVICES=0,1 SGLANG_X=1 python -m sglang.launch_server --model-path m --dp 2",
        # No shell quoting: the quotes are characters of the words, and a
        # quoted value with a blank is two words (argparse refuses the second).
        "python3 -m sglang.launch_server --model-path 'm' --json-model-override-args '{\"a\": 1}' --tp 2",
        'python3 -m sglang.launch_server --model-path "my model" --tp 2',
    ],
)
@pytest.mark.parametrize("port", [None, 30001])
def test_launch_server_cmd_runs_what_sglang_runs(command: str, port) -> None:
    """The words of the launch are those SGLang's helper runs for `f"{command}
    --port {port}"` (the port one it reserves when none is given)."""
    call = f"launch_server_cmd({command!r}" + (f", port={port})" if port else ")")
    result = analyze_python("nb.py", f"from sglang.utils import launch_server_cmd\n{call}\n")
    (launch,) = result.servers
    _, words = _execute_shell_command_words(f"{command} --port {port or 12345}")
    assert words[:3] == ["python3" if words[0] == "python3" else "python", "-m", "sglang.launch_server"]
    reported = [token.value.describe() for token in launch.args]
    # (the free port is one word, not any number of them: a spread there made
    # every option "may be overridden")
    assert not any(token.spread for token in launch.args)
    expected = words[3:]
    if port is None:
        assert reported[-1].startswith("<unknown: a free port")
        reported, expected = reported[:-1], expected[:-1]
    assert reported == expected


@pytest.mark.parametrize(
    "command",
    [
        "python3 -m sglang.launch_server --model-path m --tp 2",
        "\n  python -m sglang.launch_server --model-path google/gemma-2-2b-it \\\n  --mem-fraction-static 0.6 \\\n  --port 9000\n  ",
    ],
)
def test_execute_shell_command_runs_what_sglang_runs(command: str) -> None:
    """sglang.utils.execute_shell_command, the helper of older notebooks
    (Gemma's SGLang cookbook, SGLang's own 0.4 docs): the launch was lost
    without a note. Its words are those the helper runs."""
    result = analyze_python("nb.py", f"from sglang.utils import execute_shell_command\nexecute_shell_command({command!r})\n")
    (launch,) = result.servers
    _, words = _execute_shell_command_words(command)
    assert [token.value.describe() for token in launch.args] == words[3:]


def test_launch_server_cmd_takes_an_assignment_of_an_unseen_value_for_the_environment() -> None:
    """`f"CUDA_VISIBLE_DEVICES={gpu_id} python -m sglang.launch_server ..."`
    (an RL tutorial's): the helper takes `KEY=...` for the environment
    whatever its value; the launch was "its command is a value sglang-lint
    cannot follow"."""
    text = (
        "from sglang.utils import launch_server_cmd\n"
        "def start(gpu_id, model_id):\n"
        '    launch_server_cmd(f"CUDA_VISIBLE_DEVICES={gpu_id} python -m sglang.launch_server --model-path {model_id} --tp 2")\n'
    )
    result = analyze_python("rl.py", text)
    assert result.notes == []
    (launch,) = result.servers
    assert [token.value.describe() for token in launch.args][2:4] == ["--tp", "2"]


CI_OR_NOT = """\
from sglang.test.test_utils import is_in_ci

if is_in_ci():
    from patch import launch_server_cmd
else:
    from sglang.utils import launch_server_cmd

server_process, port = launch_server_cmd(
    \"\"\"
python -m sglang.launch_server --model-path m \\
 --host 0.0.0.0 --tp 2
\"\"\"
)
"""


@pytest.mark.parametrize("project", [False, True])
def test_a_launcher_imported_from_one_module_or_another_by_a_branch(tmp_path, monkeypatch, project) -> None:
    """SGLang's older documentation notebooks, copied into many projects:
    `if is_in_ci(): from patch import launch_server_cmd / else: from
    sglang.utils import launch_server_cmd`. The name was "differs between
    branches" and the launch was lost without a word; the paths now fork
    there, and the way that imports SGLang's helper launches."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "start.py").write_text(CI_OR_NOT)
    if project:
        result = lint_paths(["start.py"], LintOptions())
        ((server,),) = [deployment.servers for deployment in result.deployments]
        assert [f.code for f in result.findings] == []
        launch = server.launch
    else:
        analyzed = analyze_python("start.py", CI_OR_NOT)
        assert analyzed.notes == []
        (launch,) = analyzed.servers
    assert [token.value.describe() for token in launch.args][:6] == ["--model-path", "m", "--host", "0.0.0.0", "--tp", "2"]
    assert [step.text for step in launch.path_condition] == ["`is_in_ci()` is false"]
    # Two functions neither of which launches: nothing to say.
    other = CI_OR_NOT.replace("launch_server_cmd", "print_highlight")
    assert analyze_python("start.py", other).notes == []


@pytest.mark.parametrize(
    "text",
    [
        "import sglang as sgl\nruntime = sgl.Runtime(model_path='m', tp_size=2, launch_timeout=600)\nsgl.set_default_backend(runtime)\n",
        "from sglang import Runtime, set_default_backend\nset_default_backend(Runtime(model_path='m', tp_size=2))\n",
        "from sglang.lang.backend.runtime_endpoint import Runtime\nRuntime('info', 300.0, 'm', tp_size=2)\n",
    ],
)
def test_the_frontend_runtime_is_a_launch(text: str) -> None:
    """`sglang.Runtime(**fields)` starts `launch_server(ServerArgs(*args,
    log_level=..., port=..., **fields))` in a process (0.5.23
    lang/backend/runtime_endpoint.py:364-413): FastChat's and Xinference's
    SGLang workers start it, and their launches were lost without a note.
    `launch_timeout` is the Runtime's own; its first two positional arguments
    are the log level and that timeout."""
    (launch,) = analyze_python("worker.py", text).servers
    assert launch.entry is EntryPoint.RUNTIME
    fields = {keyword.name: keyword.value.describe() for keyword in launch.keywords}
    assert fields["model_path"] == "m" and fields["tp_size"] == "2" and "launch_timeout" not in fields


def test_another_packages_runtime_is_no_launch() -> None:
    text = "from mylib.runtime import Runtime\nimport sglang\nRuntime(model_path='m', tp_size=2)\n"
    assert analyze_python("worker.py", text).servers == []


SPLIT_OF_PARAMETERS = """\
import subprocess
from secrets_store import load_key

def run_server(model_path, n_gpus, extra):
    command = f"python -m sglang.launch_server --model-path {model_path} --tp-size {n_gpus} --port 3000 --api-key {load_key()} {extra}"
    subprocess.run(command.split(), check=True)
"""


def test_a_whitespace_split_of_unknown_pieces_is_still_a_launch() -> None:
    """`f"... --model-path {model_path} ...".split()` with the function's
    parameters unknown (a Modal function nobody in the file calls): each
    unknown is a word of its own, as the shell source takes an unquoted
    `$(cmd)`, and one standing alone (`{extra}`) may be any number of words.
    It was "launch not analyzed: ... a split we cannot see"."""
    result = analyze_python("serve.py", SPLIT_OF_PARAMETERS)
    assert [n.message for n in result.notes] == []
    (launch,) = result.servers
    shown = [t.value.describe() for t in launch.args]
    assert shown[:7] == ["--model-path", "run_server.model_path", "--tp-size", "run_server.n_gpus", "--port", "3000", "--api-key"]
    assert launch.args[7].value.kind is Kind.UNKNOWN  # (as the shell takes `--api-key $(cmd)`)
    assert launch.args[-1].spread


@pytest.mark.parametrize(
    "optional_import",
    [
        "try:\n    from sglang import Engine\nexcept ImportError:\n    Engine = None\n",
        'if is_package_available("sglang"):\n    from sglang import Engine\nelse:\n    Engine = None\n',
        "try:\n    import sglang as sgl\n    Engine = sgl.Engine\nexcept ImportError:\n    Engine = None\n",
    ],
)
def test_an_optional_import_of_an_entry_point_still_launches(optional_import: str) -> None:
    """The import merged with its `None` fallback was "differs between
    branches", and `Engine(**args)` no launch, without a note (lighteval's
    and GPTQModel's SGLang backends). None cannot be called: the name is
    sglang's wherever the call runs."""
    source = "from pkgutil_like import is_package_available\n" + optional_import + "\n\ndef load(path):\n    args = {'model_path': path, 'tp_size': 2}\n    return Engine(**args)\n"
    result = analyze_python("backend.py", source)
    (launch,) = result.servers
    assert launch.entry is EntryPoint.ENGINE and {k.name: k.value.describe() for k in launch.keywords}["tp_size"] == "2"
    assert result.notes == []


@pytest.mark.parametrize(
    "bind",
    ["factory = sgl.Engine", 'factory = getattr(sgl, "Engine", None)'],
)
def test_a_launcher_bound_to_a_local_name_launches_where_it_is_called(bind: str) -> None:
    """`factory = getattr(sgl, "Engine", None)` then `factory(...)` (GPTQModel's
    SGLang loader): the statement calling the local named no launcher, so it
    was cut as the tail after the last launch, and nothing was found."""
    source = f"import sglang as sgl\n\n\ndef load(model):\n    {bind}\n    if factory is not None:\n        return factory(model_path=model, tp_size=2)\n    return None\n"
    result = analyze_python("loader.py", source)
    (launch,) = result.servers
    assert launch.entry is EntryPoint.ENGINE and {k.name: k.value.describe() for k in launch.keywords}["tp_size"] == "2"


@pytest.mark.parametrize("call", ["super().__init__(**kwargs)", "super(SGLangWrapper, self).__init__(**kwargs)"])
def test_a_method_that_calls_its_base_through_super_still_runs_as_a_root(call):
    """`super().__init__(...)` calls the base's `__init__`, not the one it is
    written in: a wrapper class whose `__init__` starts `sgl.Engine` after it
    (InternScience's GraphGen, OpenCodeEval) was taken for a method the file
    calls, never run, and its launch lost without a note."""
    source = f"""
        from project.bases import BaseLLMWrapper


        class SGLangWrapper(BaseLLMWrapper):
            def __init__(self, model, **kwargs):
                {call}
                import sglang as sgl

                self.engine = sgl.Engine(model_path=model, tp_size=4)
        """
    servers, _ = _servers(source)
    assert [_value(server, "tp_size") for server in servers] == ["4"]


@pytest.mark.parametrize(
    "interpreter",
    [
        'shutil.which("python3") or sys.executable',
        'shutil.which("python3")',
        '(shutil.which("python3") or shutil.which("python") or sys.executable)',
    ],
)
def test_an_interpreter_found_on_path_is_a_python(interpreter):
    """`shutil.which("python3") or sys.executable` is a Python whichever way the
    `or` goes; as the result of a call we cannot see, the launch it started
    was "not analyzed" (a public serving manager's `_resolve_python`)."""
    servers, result = _servers(
        f"""
        import shutil, subprocess, sys

        python = {interpreter}
        subprocess.Popen([python, "-m", "sglang.launch_server", "--model-path", "m", "--tp", "2"])
        """
    )
    assert [_value(server, "tp_size") for server in servers] == ["2"] and not result.findings


def test_shutil_which_is_no_truth_the_file_decides():
    """`if not shutil.which("ibstat"):` may go either way: the program may be
    missing (the items it drops are merged, not always kept)."""
    servers = _launches(
        """
        import shutil, subprocess, sys

        args = ["--disaggregation-ib-device", "mlx5_0"]
        if not shutil.which("ibstat"):
            args = []
        subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--tp", "2"] + args)
        """
    ).servers
    argvs = sorted(len(server.args) for server in servers)
    assert argvs == [2, 4] or any(token.spread for server in servers for token in server.args)
