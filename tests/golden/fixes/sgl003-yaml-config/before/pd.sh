#!/bin/bash
python -m sglang.launch_server --disaggregation-mode prefill --page-size 16 --tp 4 &
python -m sglang.launch_server --disaggregation-mode decode --config decode.yaml --port 30001 &
