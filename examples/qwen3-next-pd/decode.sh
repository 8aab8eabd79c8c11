#!/usr/bin/env bash
# Decode server: DP attention spreads attention over the 8 GPUs (attention TP 1).
set -euo pipefail
MODEL=${MODEL:-Qwen/Qwen3-Next-80B-A3B-Instruct}

python3 -m sglang.launch_server \
  --model-path "$MODEL" \
  --disaggregation-mode decode \
  --disaggregation-transfer-backend mooncake \
  --enable-unified-memory \
  --tp-size 8 \
  --dp-size 8 \
  --enable-dp-attention \
  --host 0.0.0.0 \
  --port 30001
