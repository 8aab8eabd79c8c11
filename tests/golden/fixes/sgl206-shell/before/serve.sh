#!/bin/bash
# Settings live in YAML next to the script.
python3 -m sglang.launch_server --config=prefill.yaml \
  --port 30000 &      # prefill
python3 -m sglang.launch_server --conf prefill.yaml --port 30001 &
