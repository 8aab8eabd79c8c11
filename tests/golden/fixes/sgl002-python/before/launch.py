"""Two launch styles in one file: an argv list (one item a line, a trailing
comment) and Engine keywords."""

import subprocess

import sglang as sgl


def start_pd() -> None:
    subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", "prefill",
                      "--enable-unified-memory", "--port", "30000"])
    subprocess.Popen(
        [
            "python3",
            "-m",
            "sglang.launch_server",
            "--model-path",
            "m",
            "--disaggregation-mode",
            "decode",
            "--port",
            '30001',  # the decode's port
        ]
    )


def engines() -> None:
    sgl.Engine(model_path="m", disaggregation_mode="prefill", enable_unified_memory=True)
    sgl.Engine(
        model_path="m",
        disaggregation_mode="decode",
        port=30002,  # second decode
    )
