#!/bin/bash
python3 -m sglang.launch_server --model-path m --disaggregation-mode decode \
  --tp 8 \
  --port 30001 \
  --host 0.0.0.0 &
  # --enable-torch-compile \
wait
