#!/usr/bin/env bash
# One node: prefill on GPUs 0-3, decode on 4-7.
PREFILL_PAGE=16
DECODE_PAGE=32   # bigger pages for the decode (a mistake: pages must match)

python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill \
  --tp 4 --page-size "$PREFILL_PAGE" --port 30000 &
python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode decode \
  --tp 4 --page-size "$DECODE_PAGE" --base-gpu-id 4 --port 30001 &
wait
