#!/bin/bash
# Prefill and decode on one 8-GPU node; the decode forgot --enable-unified-memory.
COMMON=(--model-path /models/Qwen3-Next-80B-A3B-Instruct --trust-remote-code)

CUDA_VISIBLE_DEVICES=0,1,2,3 python -m sglang.launch_server "${COMMON[@]}" \
  --disaggregation-mode prefill --enable-unified-memory --tp 4 --port 30000 &

CUDA_VISIBLE_DEVICES=4,5,6,7 python -m sglang.launch_server "${COMMON[@]}" \
  --disaggregation-mode decode --tp 4 --port 30001 &

python -m sglang_router.launch_router --pd-disaggregation \
  --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001 --port 8000
