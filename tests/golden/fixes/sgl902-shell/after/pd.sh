#!/bin/bash

python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory --tp 4 &
python3 -m sglang.launch_server --model-path m --disaggregation-mode decode --enable-unified-memory --tp 4 --port 30001 &
