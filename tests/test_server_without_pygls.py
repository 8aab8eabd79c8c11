"""`sglang-lint server` without pygls installed says how to install it (issue 9).
No language client can talk to it, so this is a plain subprocess test; the
server's protocol tests are tests/test_server_lsp.py (pytest-lsp)."""

from __future__ import annotations

import os
import subprocess
import sys


def test_server_without_pygls_says_how_to_install_it(tmp_path) -> None:
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "pygls.py").write_text("raise ImportError('No module named pygls')\n")
    env = {**os.environ, "PYTHONPATH": str(blocker)}
    done = subprocess.run([sys.executable, "-m", "sglang_lint", "server"], capture_output=True, text=True, env=env, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "pip install 'sglang-lint[lsp]'" in done.stderr
