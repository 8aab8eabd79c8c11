"""A PD pair started from Python; the decode's backend is kept in a constant."""

import subprocess

DECODE_BACKEND = 'mooncake'  # try the other engine


def start() -> list[subprocess.Popen]:
    prefill = ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", "prefill",
               "--disaggregation-transfer-backend", "mooncake", "--port", "30000"]
    decode = ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", "decode",
              "--disaggregation-transfer-backend", DECODE_BACKEND, "--port", "30001"]
    return [subprocess.Popen(prefill), subprocess.Popen(decode)]
