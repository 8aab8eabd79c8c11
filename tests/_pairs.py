"""Small deployments the CLI and config tests share."""

from __future__ import annotations

from pathlib import Path

# A unified-memory pair whose attention TPs differ (SGL001) and whose models differ
# (SGL005).
PAIR = (
    "python3 -m sglang.launch_server --model-path a --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000 &\n"
    "python3 -m sglang.launch_server --model-path b --disaggregation-mode decode --enable-unified-memory --tp 4 --port 30001 &\n"
)

# The decode's TP comes from the environment: unknown without `env` (SGL901,
# opt-in, when asked for).
PAIR_FROM_ENV = (
    "python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000 &\n"
    "python3 -m sglang.launch_server --model-path m --disaggregation-mode decode --enable-unified-memory --tp $DECODE_TP --port 30001 &\n"
)


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
