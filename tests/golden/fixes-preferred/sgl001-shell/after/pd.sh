#!/bin/bash
DECODE_TP=8   # the decode got fewer GPUs
python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory --tp 8 &
python3 -m sglang.launch_server --model-path m --disaggregation-mode decode --enable-unified-memory \
  --tp "$DECODE_TP" --port 30001 &
