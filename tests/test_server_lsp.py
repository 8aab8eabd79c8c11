"""The language server driven by pytest-lsp (issue 17, part 4): pygls's own
end-to-end harness, a real client speaking the protocol over stdio to
`sglang-lint server` in a subprocess, with message validation. These cover the
lifecycle and diagnostics; tests/test_server.py (the hand-written driver) still
covers the rest until it is moved here."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
types = pytest.importorskip("lsprotocol.types")

from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

PREFILL = (
    "#!/bin/bash\n"
    "python3 -m sglang.launch_server --model-path /models/m --disaggregation-mode prefill \\\n"
    "  --enable-unified-memory --disaggregation-transfer-backend mooncake --tp-size 8 --port 30000 &\n"
)
DECODE = (
    "#!/bin/bash\n"
    "python3 -m sglang.launch_server --model-path /models/m --disaggregation-mode decode \\\n"
    # A character outside the BMP before the finding: two UTF-16 code units.
    "  --served-model-name \U0001f680 --enable-unified-memory --disaggregation-transfer-backend mooncake --tp-size {tp} --port 30001 &\n"
)


@pytest.fixture
def workspace(tmp_path):
    (tmp_path / "prefill.sh").write_text(PREFILL)
    (tmp_path / "decode.sh").write_text(DECODE.format(tp=4))
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "sglang_lint", "server"]))
async def client(lsp_client: LanguageClient, workspace: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(
                text_document=types.TextDocumentClientCapabilities(
                    publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True, code_description_support=True)
                )
            ),
            root_uri=workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name=workspace.name)],
        )
    )
    yield
    await lsp_client.shutdown_session()


async def _diagnostics(client: LanguageClient, uri: str, want) -> list:
    """The file's diagnostics once a publication satisfies ``want``."""
    import asyncio

    for _ in range(100):
        found = client.diagnostics.get(uri)
        if found is not None and want(found):
            return found
        try:
            # A publication may come between the look and the wait: look again
            # every tenth of a second rather than wait for one forever.
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 0.1)
        except asyncio.TimeoutError:
            pass
    raise AssertionError(f"no publication for {uri} satisfied the test: {client.diagnostics.get(uri)}")


def _open(client: LanguageClient, path: Path, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="shellscript", version=version, text=path.read_text())))
    return uri


@pytest.mark.asyncio
async def test_an_opened_file_gets_its_pair_finding(client: LanguageClient, workspace: Path) -> None:
    decode = _open(client, workspace / "decode.sh")
    (diagnostic,) = await _diagnostics(client, decode, lambda found: bool(found))
    assert diagnostic.code == "SGL001"
    assert diagnostic.source == "sglang-lint"
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.code_description.href.endswith("docs/rules.md#sgl001")
    # The peer launch is related information, in the other file.
    assert any(related.location.uri == (workspace / "prefill.sh").as_uri() for related in diagnostic.related_information)


@pytest.mark.asyncio
async def test_positions_are_utf16_code_units(client: LanguageClient, workspace: Path) -> None:
    decode = _open(client, workspace / "decode.sh")
    (diagnostic,) = await _diagnostics(client, decode, lambda found: bool(found))
    # The finding is on the decode's `--tp-size 4` (line 3, 0-based 2), after a
    # rocket: one character in Python, two UTF-16 code units for the client.
    line = DECODE.format(tp=4).splitlines()[2]
    assert diagnostic.range.start.line == 2
    assert diagnostic.range.start.character == line.index("--tp-size 4") + 1


@pytest.mark.asyncio
async def test_a_fixed_buffer_is_republished_empty(client: LanguageClient, workspace: Path) -> None:
    decode = _open(client, workspace / "decode.sh")
    await _diagnostics(client, decode, lambda found: bool(found))
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=decode, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=DECODE.format(tp=8))],
        )
    )
    assert list(await _diagnostics(client, decode, lambda found: len(found) == 0)) == []
