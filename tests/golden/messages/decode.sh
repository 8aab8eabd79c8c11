#!/usr/bin/env bash
# Decode: DP attention spreads attention over the eight GPUs (attention TP 1).
set -euo pipefail

python3 -m sglang.launch_server \
  --model-path Qwen/Qwen3-Next-80B-A3B-Thinking \
  --disaggregation-mode decode \
  --enable-unified-memory \
  --tp-size 8 \
  --dp-size 8 \
  --enable-dp-attention \
  --port 30001
