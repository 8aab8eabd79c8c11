#!/bin/bash
# the decode of the pair
python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B \  
  --disaggregation-mode decode --tp 4 \	
  --port 30001
