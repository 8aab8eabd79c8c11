"""The prefill/decode pair the editor tests open (pytest-lsp's in
tests/test_server_lsp.py, Neovim's in tests/test_neovim.py): both sides set
--enable-unified-memory with mooncake, the prefill at --tp-size 8, the decode at
``{tp}``; the decode's line holds a character outside the BMP before the
finding (two UTF-16 code units, four UTF-8 bytes), so every position a client
shows is checked in its own units."""

PREFILL = (
    "#!/bin/bash\n"
    "python3 -m sglang.launch_server --model-path /models/m --disaggregation-mode prefill \\\n"
    "  --enable-unified-memory --disaggregation-transfer-backend mooncake --tp-size 8 --port 30000 &\n"
)
DECODE = (
    "#!/bin/bash\n"
    "python3 -m sglang.launch_server --model-path /models/m --disaggregation-mode decode \\\n"
    "  --served-model-name \U0001f680 --enable-unified-memory --disaggregation-transfer-backend mooncake --tp-size {tp} --port 30001 &\n"
)
