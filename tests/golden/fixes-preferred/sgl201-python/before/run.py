import subprocess

subprocess.run(["python3", "-m", "sglang.launch_server", "--model-path", "m", '--pp', "2"])
