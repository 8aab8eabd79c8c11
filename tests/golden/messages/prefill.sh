#!/usr/bin/env bash
# Prefill: attention TP 8 over eight GPUs.
set -euo pipefail

python3 -m sglang.launch_server \
  --model-path Qwen/Qwen3-Next-80B-A3B-Instruct \
  --disaggregation-mode prefill \
  --enable-unified-memory \
  --tp-size 8 \
  --page-size 64 \
  --port 30000
