#!/bin/bash
python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --disaggregation-transfer-backend nixl &
python3 -m sglang.launch_server --model-path m --disaggregation-mode decode \
  --disaggregation-transfer-backend mooncake \
  --port 30001 &
