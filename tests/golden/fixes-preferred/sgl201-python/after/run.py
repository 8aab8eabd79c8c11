import subprocess

subprocess.run(["python3", "-m", "sglang.launch_server", "--model-path", "m", '--pp-size', "2"])
