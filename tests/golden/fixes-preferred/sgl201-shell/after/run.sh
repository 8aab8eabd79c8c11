#!/bin/bash
python3 -m sglang.launch_server --model-path m --tp 8 --pp-size 2 &   # pipeline stages
