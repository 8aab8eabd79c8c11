#!/bin/bash
# sglang-lint: disable=SGL001,SGL005
python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory --tp 4 &
python3 -m sglang.launch_server --model-path m --disaggregation-mode decode --enable-unified-memory --tp 4 --port 30001 &  # noqa: SGL001
