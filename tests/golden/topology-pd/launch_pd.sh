#!/bin/bash
# One prefill, two decodes behind a router; the second decode has a different
# attention TP and page size (SGL001, SGL003).
MODEL=/models/Qwen3-Next-80B-A3B-Instruct

start_decode() {
  python -m sglang.launch_server --model-path "$MODEL" --disaggregation-mode decode \
    --enable-unified-memory --port "$1" --tp "$2" --page-size "$3" &
}

python -m sglang.launch_server --model-path "$MODEL" --disaggregation-mode prefill \
  --tp 4 --enable-unified-memory --page-size 64 --port 30000 &
start_decode 30001 4 64
start_decode 30002 8 32

python -m sglang_router.launch_router --pd-disaggregation \
  --prefill http://127.0.0.1:30000 \
  --decode http://127.0.0.1:30001 \
  --decode http://127.0.0.1:30002
