"""sglang-lint: static analysis of SGLang launch scripts and manifests."""

__version__ = "0.1.0"
