#!/usr/bin/env bash
# Prefill and decode of one PD pair on a single node.
set -euo pipefail
MODEL="${MODEL:-Qwen/Qwen3-8B}"

python3 -m sglang.launch_server \
  --model-path "$MODEL" \
  --disaggregation-mode prefill \
  --tp 4 --mem-fraction-statc 0.80 \
  --port 30000 &   # prefill

python3 -m sglang.launch_server \
  --model-path "$MODEL" \
  --disaggregation-mode decode \
  --tp 4 '--mem-fraction-statc' 0.85 \
  --port 30001 --base-gpu-id 4 &
wait
