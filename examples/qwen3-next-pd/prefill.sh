#!/usr/bin/env bash
# Prefill server of a PD deployment of a hybrid (Mamba) model with unified memory.
set -euo pipefail
MODEL=${MODEL:-Qwen/Qwen3-Next-80B-A3B-Instruct}

python3 -m sglang.launch_server \
  --model-path "$MODEL" \
  --disaggregation-mode prefill \
  --disaggregation-transfer-backend mooncake \
  --enable-unified-memory \
  --tp-size 8 \
  --host 0.0.0.0 \
  --port 30000
