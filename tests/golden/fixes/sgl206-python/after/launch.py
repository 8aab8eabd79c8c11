import subprocess

subprocess.Popen(
    [
        "python3",
        "-m",
        "sglang.launch_server",
        '--config',  # the decode's settings
        'decode.yaml',
        "--port",
        "30001",
    ]
)
