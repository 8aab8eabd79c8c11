"""PD disaggregation with unified memory, in the style of SGLang's own test suite.

Each test class starts its own prefill and decode servers; the base class builds the
command lines from class attributes that the subclasses override.
"""

import unittest

from sglang.test.test_utils import DEFAULT_TIMEOUT_FOR_SERVER_LAUNCH, popen_launch_pd_server

MODEL = "Qwen/Qwen3-Next-80B-A3B-Instruct"


class PDUnifiedMemoryBase(unittest.TestCase):
    prefill_tp_size = 4
    decode_tp_size = 4
    decode_extra_args = []

    @classmethod
    def setUpClass(cls):
        cls.prefill = cls.launch("prefill", cls.prefill_tp_size, "http://127.0.0.1:30000", [])
        cls.decode = cls.launch("decode", cls.decode_tp_size, "http://127.0.0.1:30001", cls.decode_extra_args)

    @classmethod
    def launch(cls, role, tp_size, url, extra):
        other_args = [
            "--disaggregation-mode", role,
            "--disaggregation-transfer-backend", "mooncake",
            "--enable-unified-memory",
            "--tp-size", str(tp_size),
            *extra,
        ]
        return popen_launch_pd_server(MODEL, url, timeout=DEFAULT_TIMEOUT_FOR_SERVER_LAUNCH, other_args=other_args)


class TestSameTP(PDUnifiedMemoryBase):
    """Attention TP 4 on both sides: fine."""


class TestDecodeDPAttention(PDUnifiedMemoryBase):
    """DP attention on the decode makes its attention TP 4 / 4 = 1: SGL001."""

    decode_extra_args = ["--dp-size", "4", "--enable-dp-attention"]


if __name__ == "__main__":
    unittest.main()
