"""A Python test suite's shared fixture class (issue 19), for the cache and
language-server tests of imports across files: ServerBase starts the prefill and
the decode with popen_launch_pd_server, TP 8 on both sides unless a subclass
says otherwise; ``{flags}`` is one more argument of both sides."""

PY_BASE = (
    "import unittest\n"
    "from sglang.test.test_utils import popen_launch_pd_server\n"
    "\n"
    "\n"
    "class ServerBase(unittest.TestCase):\n"
    "    prefill_tp = 8\n"
    "    decode_tp = 8\n"
    "\n"
    "    @classmethod\n"
    "    def setUpClass(cls):\n"
    "        for mode, tp, port in (('prefill', cls.prefill_tp, 30000), ('decode', cls.decode_tp, 30001)):\n"
    "            args = ['--disaggregation-mode', mode, '--tp', str(tp), {flags}]\n"
    "            popen_launch_pd_server('m', f'http://127.0.0.1:{{port}}', other_args=args)\n"
)
