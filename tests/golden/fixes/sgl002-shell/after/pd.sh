#!/usr/bin/env bash
# Unified memory was turned on for the prefill only.
python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill \
  --enable-unified-memory --tp 4 --port 30000 &
python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode decode \
  --tp 4 \
  --port "30001" --enable-unified-memory &   # decode
wait
