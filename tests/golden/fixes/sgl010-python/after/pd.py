import subprocess

BOOTSTRAP = "9001"
subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", "prefill",
                  "--port", "30000", "--disaggregation-bootstrap-port", BOOTSTRAP])
subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "m", "--disaggregation-mode", "decode",
                  "--port", "30001", "--disaggregation-bootstrap-port", "9001"])
subprocess.Popen(["python3", "-m", "sglang_router.launch_router", "--pd-disaggregation",
                  "--prefill", "http://127.0.0.1:30000", "--decode", "http://127.0.0.1:30001"])
