#!/bin/bash
python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --page-size 16 &
python3 -m sglang.launch_server --model-path m --disaggregation-mode decode \
  --port 30001 \
  --log-level info --page-size 16 &   # no --page-size: SGLang picks one
