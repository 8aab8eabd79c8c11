import subprocess

subprocess.Popen(
    [
        "python3",
        "-m",
        "sglang.launch_server",
        '--config=decode.yaml',  # the decode's settings
        "--port",
        "30001",
    ]
)
