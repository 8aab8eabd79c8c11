"""Configurations under test are not deployments (issue 20, part C).

SGLang's ``ServerArgs(...)`` starts nothing by itself (0.5.23
srt/server_args.py:241-242: ``__post_init__`` leaves the record unresolved);
``launch_server(server_args)`` (srt/entrypoints/http_server.py:3125),
``run_server(server_args)`` (launch_server.py:17) and ``Engine(...)``
(srt/entrypoints/engine.py:278) start servers. The Python source records what a
test does with each configuration (``ServerLaunch.under_test``): built inside a
block that expects an exception, or only inspected by a test function; topology
leaves the first out of every deployment and never pairs the second.
"""

from __future__ import annotations

import textwrap

import pytest

from sglang_lint.model import EntryPoint, UnderTest
from sglang_lint.pipeline import LintOptions, lint_texts
from sglang_lint.sources.python import analyze_python

HEADER = """\
import unittest
from sglang.srt.server_args import ServerArgs
from sglang.srt.entrypoints.http_server import launch_server
"""


def _uses(source: str, path: str = "test_args.py") -> list[UnderTest]:
    """What the file does with each server launch, in order."""
    result = analyze_python(path, HEADER + textwrap.dedent(source))
    return [server.under_test for server in result.servers]


def _lint(source: str, path: str = "test_args.py"):
    return lint_texts({path: HEADER + textwrap.dedent(source)}, LintOptions())


def _codes(result) -> list[str]:
    return sorted(f.code for f in result.findings)


# -- expected-failure blocks ------------------------------------------------------------


@pytest.mark.parametrize(
    "block",
    [
        "with self.assertRaises(ValueError):\n    ServerArgs(model_path='m', tp_size=3)",
        "with self.assertRaisesRegex(ValueError, 'tp'):\n    ServerArgs(model_path='m', tp_size=3)",
        # the parenthesized form (Python 3.10 grammar) and a name bound with `as`
        "with (self.assertRaises(ValueError) as context):\n    ServerArgs(model_path='m', tp_size=3)",
        # nested in another with, and beside another context manager
        "with self.subTest(tp=3):\n    with self.assertRaises(ValueError):\n        ServerArgs(model_path='m', tp_size=3)",
        "with mock.patch.dict(os.environ, {}), self.assertRaises(ValueError):\n    ServerArgs(model_path='m', tp_size=3)",
        # the record is resolved (and rejected) where the test expects it
        "with self.assertRaises(ValueError):\n    args = ServerArgs(model_path='m', tp_size=3)\n    launch_server(args)",
    ],
)
def test_unittest_expected_failure_blocks(block):
    body = textwrap.indent(block, " " * 8)
    source = f"import os\nfrom unittest import mock\nclass TestArgs(unittest.TestCase):\n    def test_rejected(self):\n{body}\n"
    assert _uses(source) == [UnderTest.EXPECTED_FAILURE]


@pytest.mark.parametrize(
    "imports, manager",
    [
        ("import pytest", "pytest.raises(ValueError)"),
        ("import pytest as pt", "pt.raises(ValueError, match='tp')"),
        ("from pytest import raises", "raises(ValueError)"),
        ("from pytest import raises as expect_raise", "expect_raise(ValueError)"),
    ],
)
def test_pytest_raises_by_any_name(imports, manager):
    source = f"{imports}\ndef test_rejected():\n    with {manager}:\n        ServerArgs(model_path='m', tp_size=3)\n"
    assert _uses(source) == [UnderTest.EXPECTED_FAILURE]


def test_a_context_manager_of_another_name_is_no_expectation():
    # pytest.warns, contextlib.suppress and a project's own `raises` are not
    # unittest's or pytest's expectation that the code raises.
    source = """
        import contextlib
        import pytest
        from helpers import raises
        def test_tolerated():
            with pytest.warns(UserWarning):
                a = ServerArgs(model_path='m', disaggregation_mode='prefill')
            with contextlib.suppress(ValueError):
                b = ServerArgs(model_path='m', disaggregation_mode='decode')
            with raises(ValueError):
                c = ServerArgs(model_path='m')
            launch_server(a)
            launch_server(b)
            launch_server(c)
    """
    assert _uses(source) == [UnderTest.NO] * 3


def test_the_block_covers_what_it_calls_and_ends_with_it():
    # A helper of the file called inside the block runs inside it; what follows
    # the block does not.
    source = """
        def make(tp):
            return ServerArgs(model_path="m", tp_size=tp)
        class TestArgs(unittest.TestCase):
            def test_rejected_then_launched(self):
                with self.assertRaises(ValueError):
                    make(3)
                launch_server(make(4))
    """
    assert _uses(source) == [UnderTest.EXPECTED_FAILURE, UnderTest.NO]


def test_a_record_the_test_expects_to_be_rejected():
    # Built outside the block, checked (or launched) where the test expects an
    # exception: the test says the record is invalid.
    source = """
        import pytest
        class TestArgs(unittest.TestCase):
            def test_checked_in_the_block(self):
                args = ServerArgs(model_path="m", tp_size=4, dp_size=3, enable_dp_attention=True)
                self.assertEqual(args.dp_size, 3)
                with self.assertRaises(ValueError):
                    args.check_server_args()
            def test_launched_in_the_block(self):
                args = ServerArgs(model_path="m", tp_size=3)
                with pytest.raises(ValueError):
                    launch_server(args)
            def test_callable_form_of_a_method(self):
                args = ServerArgs(model_path="m", tp_size=3)
                self.assertRaisesRegex(ValueError, "tp", args.check_server_args)
            def test_callable_form_launch(self):
                args = ServerArgs(model_path="m", tp_size=3)
                self.assertRaises(ValueError, launch_server, args)
            def test_a_nested_function_runs_where_it_is_called(self):
                args = ServerArgs(model_path="m", tp_size=3)
                with self.assertRaises(ValueError):
                    def later():
                        launch_server(args)
                run_later(later)
    """
    assert _uses(source) == [UnderTest.EXPECTED_FAILURE] * 4 + [UnderTest.NO]


def test_callable_form():
    # assertRaises(E, ServerArgs, ...) never calls ServerArgs in the test's code:
    # no launch. assertRaises(E, launch_server, ServerArgs(...)): the launch is what
    # the test expects to raise.
    source = """
        import pytest
        class TestArgs(unittest.TestCase):
            def test_callable(self):
                self.assertRaises(ValueError, ServerArgs, model_path="m", tp_size=3)
                self.assertRaises(ValueError, launch_server, ServerArgs(model_path="m", tp_size=5))
                pytest.raises(ValueError, launch_server, server_args=ServerArgs(model_path="m", tp_size=6))
    """
    assert _uses(source) == [UnderTest.EXPECTED_FAILURE, UnderTest.EXPECTED_FAILURE]


def test_engine_and_processes_inside_the_block_are_expected_to_fail():
    source = """
        import subprocess
        import sglang
        class TestArgs(unittest.TestCase):
            def test_rejected(self):
                with self.assertRaises(Exception):
                    sglang.Engine(model_path="m", tp_size=3, dp_size=2, enable_dp_attention=True)
                with self.assertRaises(subprocess.CalledProcessError):
                    subprocess.run(["python3", "-m", "sglang.launch_server", "--tp", "3", "--dp", "2", "--enable-dp-attention"], check=True)
    """
    assert _uses(source) == [UnderTest.EXPECTED_FAILURE, UnderTest.EXPECTED_FAILURE]


def test_an_engine_argument_of_the_callable_form_starts_before_the_expectation():
    source = """
        import sglang
        class TestArgs(unittest.TestCase):
            def test_generate(self):
                self.assertRaises(ValueError, run_batch, sglang.Engine(model_path="m"))
    """
    assert _uses(source) == [UnderTest.NO]


# -- configurations a test only inspects ----------------------------------------------------


def test_inspected_in_a_pytest_function():
    source = """
        def test_fields():
            args = ServerArgs(model_path="m", tp_size=4)
            assert args.tp_size == 4
    """
    assert _uses(source) == [UnderTest.INSPECTED]


# What a unittest method does with the record it builds.
INSPECTING = [
    "args = ServerArgs(model_path='m', disaggregation_mode='prefill')\nself.assertEqual(args.tp_size, 1)",
    "args = ServerArgs(model_path='m')\nargs.check_server_args()\nargs.__post_init__()",
    "args = ServerArgs(model_path='m')\nargs.port = 30001\nself.assertIsInstance(args, ServerArgs)\nself.assertTrue(args.url().startswith('http'))",
    "args: ServerArgs = ServerArgs(model_path='m')\nassert args\nassert args != None\nprint(f'{args}', repr(args))",
    "ServerArgs(model_path='m', tp_size=2)",
    "self.assertEqual(ServerArgs(model_path='m').url(), 'http://127.0.0.1:30000')",
    "args = ServerArgs(model_path='m')\nself.assertEqual(getattr(args, 'tp_size'), 1)\nself.fail(str(args))",
]
PASSING_ON = [
    # passed to a function sglang-lint cannot see: it may launch it (as before)
    "args = ServerArgs(model_path='m')\nhandle_data_parallelism(args)",
    "args = ServerArgs(model_path='m')\nPortArgs.init_new(server_args=args)",
    # returned, stored, put in a container, shared: it may be launched elsewhere
    "args = ServerArgs(model_path='m')\nreturn args",
    "self.args = ServerArgs(model_path='m')",
    "args = ServerArgs(model_path='m')\nself.args = args",
    "configs = [ServerArgs(model_path='m')]",
    "args = ServerArgs(model_path='m')\nconfigs = {'prefill': args}",
    "global ARGS\nARGS = ServerArgs(model_path='m')\nARGS.check_server_args()",
    "other = args = ServerArgs(model_path='m')\nrun(other)",
    # launched: launch_server, run_server, an Engine, a process's target
    "args = ServerArgs(model_path='m')\nlaunch_server(args)",
    "from sglang.launch_server import run_server\nargs = ServerArgs(model_path='m')\nrun_server(args)",
    "import sglang\nargs = ServerArgs(model_path='m')\nsglang.Engine(server_args=args)",
    "import multiprocessing\nargs = ServerArgs(model_path='m')\nmultiprocessing.Process(target=launch_server, args=(args,)).start()",
    # an assertion over what a call of it returns: the call may launch it
    "args = ServerArgs(model_path='m')\nself.assertTrue(start(args))",
]


@pytest.mark.parametrize(
    "body, use",
    [(body, UnderTest.INSPECTED) for body in INSPECTING] + [(body, UnderTest.NO) for body in PASSING_ON],
)
def test_what_a_test_method_does_with_its_record(body, use):
    source = "class TestArgs(unittest.TestCase):\n    def test_fields(self):\n" + textwrap.indent(body, " " * 8) + "\n"
    assert _uses(source) == [use]


def test_only_test_functions_hold_configurations_under_test():
    # A helper that is not a test, and the module's top level: as before.
    source = """
        def check(tp):
            args = ServerArgs(model_path="m", tp_size=tp)
            args.check_server_args()
        check(4)
        ServerArgs(model_path="m", tp_size=2)
        class TestArgs(unittest.TestCase):
            def _make(self):
                return ServerArgs(model_path="m")
            def test_default(self):
                self.assertEqual(self._make().tp_size, 1)
    """
    assert _uses(source) == [UnderTest.NO] * 3


def test_engine_in_a_test_is_started():
    source = """
        import sglang
        class TestEngine(unittest.TestCase):
            def test_generate(self):
                engine = sglang.Engine(model_path="m", tp_size=2)
                self.assertIsNotNone(engine.tokenizer_manager)
    """
    assert _uses(source) == [UnderTest.NO]


# -- topology and rules -------------------------------------------------------------------

PD_UNIT_TEST = """
    class TestPDArgs(unittest.TestCase):
        def test_prefill(self):
            args = ServerArgs(model_path="m", tp_size=4, enable_unified_memory=True, disaggregation_mode="prefill")
            args.check_server_args()
            self.assertEqual(args.tp_size, 4)

        def test_decode(self):
            args = ServerArgs(model_path="m", tp_size=2, enable_unified_memory=True, disaggregation_mode="decode")
            self.assertEqual(args.tp_size, 2)
"""


def test_inspected_configurations_are_never_paired():
    result = _lint(PD_UNIT_TEST)
    (deployment,) = result.deployments
    assert sorted(s.role for s in deployment.servers) == ["decode", "prefill"]
    assert deployment.pairs() == []
    assert result.findings == []
    # The same records launched are a deployment: SGL001 (attention TP 4 vs 2).
    launched = PD_UNIT_TEST.replace("self.assertEqual(args.tp_size, 4)", "launch_server(args)").replace(
        "self.assertEqual(args.tp_size, 2)", "launch_server(args)"
    )
    assert _codes(_lint(launched)) == ["SGL001"]


def test_one_launched_and_one_inspected_do_not_pair():
    source = PD_UNIT_TEST.replace("self.assertEqual(args.tp_size, 4)", "launch_server(args)")
    result = _lint(source)
    assert result.findings == [] and result.deployments[0].pairs() == []


def test_single_server_rules_still_judge_an_inspected_configuration():
    # tp 8 over attention DP 3 (SGL204) in a record the test builds without
    # expecting it to be rejected.
    source = """
        def test_fields():
            args = ServerArgs(model_path="m", tp_size=8, dp_size=3, enable_dp_attention=True)
            assert args.dp_size == 3
    """
    assert _codes(_lint(source)) == ["SGL204"]


def test_expected_failures_are_in_no_deployment_and_judged_by_no_rule():
    source = """
        class TestArgs(unittest.TestCase):
            def test_rejected(self):
                with self.assertRaises(ValueError):
                    ServerArgs(model_path="m", tp_size=8, dp_size=3, enable_dp_attention=True, disaggregation_mode="decode")
    """
    result = _lint(source)
    assert result.findings == [] and result.deployments == []


def test_inspected_configurations_do_not_join_single_role_files():
    # decode.sh alone in its directory would join a single-role sibling; a test
    # module of inspected prefill records is no such sibling.
    files = {
        "deploy/decode.sh": "python3 -m sglang.launch_server --model-path m --disaggregation-mode decode --tp 2 --enable-unified-memory\n",
        "deploy/test_prefill_args.py": HEADER
        + textwrap.dedent(
            """
            class TestPrefill(unittest.TestCase):
                def test_prefill(self):
                    args = ServerArgs(model_path="m", tp_size=4, enable_unified_memory=True, disaggregation_mode="prefill")
                    self.assertTrue(args.enable_unified_memory)
            """
        ),
    }
    result = lint_texts(files, LintOptions())
    assert result.findings == []
    assert sorted(d.name for d in result.deployments) == ["deploy/decode.sh", "deploy/test_prefill_args.py (TestPrefill)"]


def test_a_router_never_names_an_inspected_configuration():
    source = """
        import subprocess
        class TestPD(unittest.TestCase):
            def test_router(self):
                subprocess.Popen(["python3", "-m", "sglang_router.launch_router", "--pd-disaggregation",
                                  "--prefill", "http://127.0.0.1:30000", "--decode", "http://127.0.0.1:30001"])
                args = ServerArgs(model_path="m", port=30000, disaggregation_mode="prefill")
                self.assertEqual(args.port, 30000)
    """
    result = _lint(source)
    assert [len(d.servers) for d in result.deployments if d.how == "router"] == [0]


def test_topology_reports_say_what_is_not_paired():
    from sglang_lint.report.topology import render_json, render_text

    result = _lint(PD_UNIT_TEST)
    assert "a configuration a test only inspects: not paired" in render_text(result.deployments, result.version)
    assert '"under_test": "inspected"' in render_json(result.deployments, result.version)


def test_a_launch_server_call_beside_inspected_records_is_still_a_launch():
    # The ServerArgs calls of the file are configurations under test, none of them
    # the one launch_server() gets: its ServerArgs are the command line's, a
    # pass-through launch (issue 20, as SGLang's launch_server.py), started.
    source = """
        import sys
        from sglang.srt.server_args import prepare_server_args
        class TestArgs(unittest.TestCase):
            def test_fields(self):
                args = ServerArgs(model_path="m")
                self.assertEqual(args.tp_size, 1)
        def main():
            launch_server(prepare_server_args(sys.argv[1:]))
    """
    result = analyze_python("serve.py", HEADER + textwrap.dedent(source))
    assert not [n.message for n in result.notes if "launch_server()" in n.message]
    started = [server for server in result.servers if server.under_test is UnderTest.NO]
    assert [(server.entry, [keyword.name for keyword in server.keywords]) for server in started] == [(EntryPoint.SERVER_ARGS, [None])]


def test_an_import_first_used_in_a_branch_is_still_known_after_it():
    # `pytest` is resolved on its first use, inside the `if`: that binding is the
    # same on every path, so the branches' merge keeps it (it was unknown after
    # the branch, and the expectation below went unseen: SGL204).
    source = """
        import os
        import pytest
        from sglang.srt.server_args import ServerArgs

        def test_rejected():
            if not os.environ.get("GPU"):
                pytest.skip("needs a GPU")
            with pytest.raises(ValueError):
                ServerArgs(model_path="m", tp_size=8, dp_size=3, enable_dp_attention=True)
    """
    result = lint_texts({"test_rejected.py": textwrap.dedent(source)}, LintOptions())
    assert result.findings == [] and result.deployments == []
