"""Start a PD pair on one host (the options are kept in lists, one per line)."""

import subprocess

MODEL = "Qwen/Qwen3-8B"
COMMON = [
    "--model-path", MODEL,
    '--mem-fraction-statc', "0.8",  # leave room for the KV transfer buffers
]


def main() -> None:
    prefill = ["python3", "-m", "sglang.launch_server", *COMMON, "--disaggregation-mode", "prefill", "--port", "30000"]
    decode = ["python3", "-m", "sglang.launch_server", *COMMON, "--disaggregation-mode", "decode", "--port", "30001",
              "--chunked-prefil-size", "4096"]
    procs = [subprocess.Popen(prefill), subprocess.Popen(decode)]
    for proc in procs:
        proc.wait()


if __name__ == "__main__":
    main()
