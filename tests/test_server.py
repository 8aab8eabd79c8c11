"""The language server (issue 9), driven over stdio as an editor drives it, by a
hand-written client: watched files, workspace folders, the workspace config, the
shipped example, hostile buffer text and a missing pygls. Everything else is in
tests/test_server_lsp.py (pytest-lsp), where these move next."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lsp_client import LspClient, uri  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "qwen3-next-pd"

PREFILL = """#!/bin/bash
python3 -m sglang.launch_server --model-path /models/m --disaggregation-mode prefill \\
  --enable-unified-memory --disaggregation-transfer-backend mooncake --tp-size 8 --port 30000 &
"""
DECODE = """#!/bin/bash
python3 -m sglang.launch_server --model-path /models/m --disaggregation-mode decode \\
  --enable-unified-memory --disaggregation-transfer-backend mooncake --tp-size {tp} --port 30001 &
"""


def codes(diagnostics) -> list[str]:
    return sorted(d["code"] for d in diagnostics)


def open_decode_with_one_diagnostic(client, workspace, text: str):
    """decode.sh written with ``text``, the server started and the file opened:
    its URI and its only diagnostic."""
    (workspace / "decode.sh").write_text(text)
    client.initialize(workspace)
    decode = client.open(workspace / "decode.sh")
    (diagnostic,) = client.diagnostics(decode, lambda ds: bool(ds))
    return decode, diagnostic


@pytest.fixture
def workspace(tmp_path):
    (tmp_path / "prefill.sh").write_text(PREFILL)
    (tmp_path / "decode.sh").write_text(DECODE.format(tp=4))
    return tmp_path


@pytest.fixture
def client(workspace):
    client = LspClient(workspace)
    yield client
    client.kill()


def test_the_shipped_example_works_from_a_copy(tmp_path) -> None:
    shutil.copytree(EXAMPLE, tmp_path / "pd")
    client = LspClient(tmp_path)
    try:
        client.initialize(tmp_path, {"cache": False})
        decode = client.open(tmp_path / "pd" / "decode.sh")
        assert codes(client.diagnostics(decode, lambda ds: bool(ds))) == ["SGL001"]
        assert not (tmp_path / ".sglang-lint-cache").exists()  # {"cache": false}
        assert client.shutdown() == 0
    finally:
        client.kill()


def test_the_workspace_config_is_honoured(client, workspace) -> None:
    (workspace / "pyproject.toml").write_text('[tool.sglang-lint]\nignore = ["SGL001"]\n')
    (workspace / "other.sh").write_text(DECODE.format(tp=8).replace("--port 30001", "--port 30002 --pp 1"))
    client.initialize(workspace)
    other = client.open(workspace / "other.sh")
    # SGL201 in other.sh is reported; the SGL001 of decode.sh is ignored by the config.
    assert codes(client.diagnostics(other, lambda ds: bool(ds))) == ["SGL201"]
    mark = client.mark()
    client.change(workspace / "other.sh", DECODE.format(tp=8).replace("--port 30001", "--port 30002"))
    client.diagnostics(other, lambda ds: not ds, after=mark)
    assert all(
        n["params"]["uri"] != uri(workspace / "decode.sh") or not n["params"]["diagnostics"]
        for n in client.notifications
        if n.get("method") == "textDocument/publishDiagnostics"
    )


def test_server_without_pygls_says_how_to_install_it(tmp_path) -> None:
    import subprocess

    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "pygls.py").write_text("raise ImportError('No module named pygls')\n")
    env = {**__import__("os").environ, "PYTHONPATH": str(blocker)}
    done = subprocess.run([sys.executable, "-m", "sglang_lint", "server"], capture_output=True, text=True, env=env, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "pip install 'sglang-lint[lsp]'" in done.stderr


def test_files_changed_outside_the_editor_are_watched_and_rechecked(client, workspace) -> None:
    client.initialize(workspace, watch_files=True)
    client.open(workspace / "prefill.sh")
    decode = uri(workspace / "decode.sh")
    assert codes(client.diagnostics(decode, lambda ds: bool(ds))) == ["SGL001"]
    client.wait_for(lambda: any(r["method"] == "client/registerCapability" for r in client.server_requests))
    (request,) = [r for r in client.server_requests if r["method"] == "client/registerCapability"]
    (registration,) = request["params"]["registrations"]
    assert registration["method"] == "workspace/didChangeWatchedFiles"
    assert registration["registerOptions"]["watchers"][0]["globPattern"].endswith("{sh,bash,py,yaml,yml,md,markdown,toml}")
    # A git checkout rewrites decode.sh behind the editor's back.
    mark = client.mark()
    (workspace / "decode.sh").write_text(DECODE.format(tp=8))
    client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": decode, "type": 2}]})
    assert client.diagnostics(decode, lambda ds: not ds, after=mark) == []


def test_a_client_that_cannot_watch_files_is_not_asked_to(client, workspace) -> None:
    client.initialize(workspace)
    document = client.open(workspace / "decode.sh")
    client.diagnostics(document, lambda ds: bool(ds))
    assert not [r for r in client.server_requests if r["method"] == "client/registerCapability"]


def test_an_added_workspace_folder_is_analyzed_and_a_removed_one_cleared(client, workspace, tmp_path_factory) -> None:
    other = tmp_path_factory.mktemp("second-folder")
    (other / "prefill.sh").write_text(PREFILL)
    (other / "decode.sh").write_text(DECODE.format(tp=2))
    client.initialize(workspace)
    client.open(workspace / "decode.sh")
    client.diagnostics(uri(workspace / "decode.sh"), lambda ds: bool(ds))
    folder = {"uri": uri(other), "name": other.name}
    mark = client.mark()
    client.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [folder], "removed": []}})
    assert codes(client.diagnostics(uri(other / "decode.sh"), lambda ds: bool(ds), after=mark)) == ["SGL001"]
    mark = client.mark()
    client.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [], "removed": [folder]}})
    assert client.diagnostics(uri(other / "decode.sh"), lambda ds: not ds, after=mark) == []


def test_any_buffer_text_gets_an_answer_and_the_server_survives(tmp_path) -> None:
    """Random and hostile buffer texts (binary-looking, huge lines, unbalanced
    quotes, non-BMP characters, lone surrogates escaped by the client) are each
    answered with a publication for their version; the server never dies."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    (tmp_path / "prefill.sh").write_text(PREFILL)
    client = LspClient(tmp_path)
    try:
        client.initialize(tmp_path)
        path = tmp_path / "decode.sh"
        path.write_text(DECODE.format(tp=4))
        document = client.open(path)
        client.diagnostics(document, lambda ds: bool(ds))
        pieces = st.sampled_from(
            ["python3 -m sglang.launch_server", " --tp", " --tp-size ", "8", " --pp", "'", '"', "\\\n", "\n", "# noqa: SGL0", "$(", "${X:-", "}", "𝔘", "é", "\t", "\x00", "<<EOF\n", "--enable-unified-memory", " " * 300]
        )

        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
        @given(st.lists(pieces, max_size=40))
        def check(parts: list[str]) -> None:
            mark = client.mark()
            version = client.change(path, "".join(parts))
            client.diagnostics(document, lambda ds: True, after=mark, version=version, timeout=30)

        check()
        assert client.process.poll() is None
        assert client.shutdown() == 0
    finally:
        client.kill()
