"""Benchmark launcher: the decode is started from a test class attribute."""

import subprocess
import unittest


class TestPD(unittest.TestCase):
    decode_page_size = 64  # tried a larger page for the decode

    @classmethod
    def setUpClass(cls):
        cls.prefill = subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m",
                                        "--disaggregation-mode", "prefill", "--page-size", "16"])
        cls.decode = subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m",
                                       "--disaggregation-mode", "decode", "--page-size", str(cls.decode_page_size),
                                       "--port", "30001"])
