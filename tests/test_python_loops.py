"""Python launchers that build each role's argv in loops and branches (issue 16,
parts 2 and 4): loops over ``enumerate``/``zip``/``dict.items()`` with tuple
unpacking unroll, and conditions on known values (``==``, ``in``, ``not``,
``and``/``or``, ternaries) take their branch alone.

The ground truth is CPython: each program runs with ``subprocess.Popen`` replaced by
a recorder (nothing is started), and the argv it records must be exactly the
launches sglang-lint reports.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from _argv import known_argvs

from sglang_lint.model import Kind, Value
from sglang_lint.sources.python import analyze_python

PROGRAMS = {
    "dict-items-enumerate": """
        import subprocess, sys
        ROLES = {"prefill": {"tp": 8, "port": 30000}, "decode": {"tp": 8, "port": 30001}}
        def launch(role, cfg, index):
            cmd = [sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", role,
                   "--tp-size", str(cfg["tp"]), "--port", str(cfg["port"]), "--base-gpu-id", str(index * 8)]
            if role in ("decode",) and not role == "prefill":
                cmd.extend(["--dp-size", str(cfg["tp"]), "--enable-dp-attention"])
            cmd += ["--page-size", "64"] if role != "decode" else ["--page-size", "32"]
            return subprocess.Popen(cmd)
        for i, (role, cfg) in enumerate(ROLES.items()):
            launch(role, cfg, i)
    """,
    "zip-roles-and-ports": """
        import subprocess, sys
        roles = ["prefill", "decode"]
        ports = (30000, 30001)
        sizes = [4, 8, 99]  # zip stops at the shortest
        for role, port, tp in zip(roles, ports, sizes):
            args = ["-m", "sglang.launch_server", "--disaggregation-mode", role, "--port", str(port)]
            if role == "prefill" or tp > 4:
                args += ["--tp", str(tp)]
            subprocess.Popen([sys.executable, *args])
    """,
    "enumerate-start-and-keys": """
        import subprocess, sys
        NODES = {"p": "prefill", "d": "decode"}
        for rank, key in enumerate(NODES, start=1):
            mode = NODES[key]
            subprocess.Popen([sys.executable, "-m", "sglang.launch_server",
                              "--disaggregation-mode", mode, "--node-rank", str(rank - 1)])
    """,
    "sorted-and-reversed": """
        import subprocess, sys
        ROLES = {"prefill": {"tp": 8}, "decode": {"tp": 4}, "mixed": {"tp": 2}}
        for role in sorted(ROLES):
            subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", role, "--tp-size", str(ROLES[role]["tp"])])
        for role in sorted(ROLES.keys(), reverse=True):
            subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", role, "--port", "1"])
        for i, role in enumerate(reversed(list(ROLES))):
            subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", role, "--port", str(30000 + i)])
        for tp in reversed(sorted([8, 2, 4])):
            subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--tp-size", str(tp)])
    """,
}

RECORDER = """
import json, runpy, subprocess, sys
calls = []
class Recorder:
    def __init__(self, args, *a, **k):
        calls.append([str(x) for x in args])
subprocess.Popen = Recorder
runpy.run_path(sys.argv[1], run_name="__main__")
print(json.dumps(calls))
"""


def _ours(source: str) -> list[list[str]]:
    return known_argvs(analyze_python("launch.py", source).servers)


def _cpython(source: str, tmp_path) -> list[list[str]]:
    program = tmp_path / "launch.py"
    program.write_text(source)
    run = subprocess.run([sys.executable, "-I", "-c", RECORDER, str(program)], capture_output=True, text=True, timeout=60, check=True)
    return [argv[1:] for argv in json.loads(run.stdout)]  # argv[0]: sys.executable


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_loops_and_conditions_agree_with_cpython(name, tmp_path) -> None:
    source = textwrap.dedent(PROGRAMS[name])
    assert sorted(_ours(source)) == sorted(_cpython(source, tmp_path))


def test_enumerate_of_items_we_cannot_see_stays_unknown() -> None:
    source = textwrap.dedent(
        """
        import os, subprocess, sys
        for i, role in enumerate(os.environ["ROLES"].split(",")):
            subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", role])
        """
    )
    (launch,) = analyze_python("launch.py", source).servers
    assert launch.args[1].value.kind is not Kind.KNOWN


def test_a_loop_we_cannot_unroll_runs_its_body_more_than_once() -> None:
    """Found by the CPython oracle: the body of a loop over items we cannot see
    ran once with the values from before the loop, so a counter the body advances
    (``port += 1``) was reported as its first value alone, where CPython starts
    servers on 30000, 30001, ... A value the body changes is unknown in it."""
    source = textwrap.dedent(
        """
        import os, subprocess, sys
        port = 30000
        host = "127.0.0.1"
        for role in os.environ["ROLES"].split(","):
            subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--port", str(port), "--host", host])
            port += 1
        gpu = 0
        while gpu < int(os.environ["N"]):
            subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--base-gpu-id", str(gpu)])
            gpu = gpu + 8
        """
    )
    loop, while_loop = analyze_python("launch.py", source).servers
    assert loop.args[1].value.kind is Kind.UNKNOWN, loop.args[1].value.describe()
    assert loop.args[3].value == Value.known("127.0.0.1")  # the body does not change it
    assert while_loop.args[1].value.kind is Kind.UNKNOWN, while_loop.args[1].value.describe()


def test_a_filter_we_cannot_decide_keeps_the_launch() -> None:
    """Found by the CPython oracle: ``cmd = [a for a in cmd if a is not None]``
    over a list holding a value we cannot see (the role from the environment)
    gave up on the whole comprehension, and the launch it starts disappeared. The
    item the condition may drop stands for zero or one word; the rest stays."""
    source = textwrap.dedent(
        """
        import os, subprocess, sys
        cmd = [sys.executable, "-m", "sglang.launch_server", "--disaggregation-mode", os.environ["ROLE"], "--tp-size", "8"]
        cmd = [a for a in cmd if a is not None]
        subprocess.Popen(cmd)
        cmd = [a for a in cmd if a is not None]  # again, over the item that may be gone
        subprocess.Popen(cmd)
        """
    )
    for launch in analyze_python("launch.py", source).servers:
        values = [token.value for token in launch.args]
        assert values[0] == Value.known("--disaggregation-mode") and values[-2:] == [Value.known("--tp-size"), Value.known("8")]
        assert launch.args[1].spread and values[1].kind is Kind.UNKNOWN
    assert len(analyze_python("launch.py", source).servers) == 2


def test_nested_loops_unroll_within_one_bound() -> None:
    from sglang_lint.sources.python_interpreter import MAX_UNROLL

    source = "import subprocess, sys\n" + "".join("    " * i + f"for n{i} in range(2):\n" for i in range(11))
    source += "    " * 11 + 'subprocess.Popen([sys.executable, "-m", "sglang.launch_server", "--port", str(n0)])\n'
    assert len(analyze_python("launch.py", source).servers) == MAX_UNROLL  # 2^11 before


def test_items_before_a_loop_stay_when_one_of_them_is_unknown() -> None:
    """A loop over a list we cannot see extends the command: the items before
    it are the same objects after any number of turns, even one we cannot read
    (a port only the environment gives), so they are kept and only what the
    loop adds is unknown (SGLang's Ascend router lost its --pd-disaggregation
    behind an unknown --port)."""
    from sglang_lint.sources.python import analyze_python

    source = (
        "import os, subprocess\n"
        "try:\n"
        "    PORT = os.environ['ROUTER_PORT']\n"
        "except KeyError:\n"
        "    PORT = '8000'\n\n\n"
        "def main(urls):\n"
        "    cmd = ['python3', '-m', 'sglang_router.launch_router', '--port', PORT, '--pd-disaggregation']\n"
        "    for url in urls:\n"
        "        cmd.extend(['--prefill', url])\n"
        "    subprocess.Popen(cmd)\n"
    )
    # Two ways, as CPython runs it: ROUTER_PORT set (its value) or unset (8000).
    routers = analyze_python("router.py", source).routers
    assert sorted(router.args[1].value.describe() for router in routers) == ["$ROUTER_PORT", "8000"]
    for router in routers:
        words = [token.value.text for token in router.args if token.value.is_known]
        assert words[-1] == "--pd-disaggregation", [token.value.describe() for token in router.args]
