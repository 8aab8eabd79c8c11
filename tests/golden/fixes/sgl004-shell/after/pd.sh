#!/bin/bash
KV_DTYPE=fp8_e5m2
python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --kv-cache-dtype "$KV_DTYPE" &
python3 -m sglang.launch_server --model-path m --disaggregation-mode decode --kv-cache-dtype fp8_e5m2 --port 30001 &
