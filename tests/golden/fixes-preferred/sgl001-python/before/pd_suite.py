import subprocess
import unittest


class TestUnifiedMemory(unittest.TestCase):
    prefill_tp = 8
    decode_tp = 4  # one attention TP per side: must match

    @classmethod
    def setUpClass(cls):
        common = ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--enable-unified-memory"]
        cls.prefill = subprocess.Popen([*common, "--disaggregation-mode", "prefill", "--tp", str(cls.prefill_tp)])
        cls.decode = subprocess.Popen([*common, "--disaggregation-mode", "decode", "--tp", str(cls.decode_tp), "--port", "30001"])
