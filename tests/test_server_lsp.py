"""The language server driven by pytest-lsp (issue 17, part 4): pygls's own
end-to-end harness, a real client speaking the protocol over stdio to
`sglang-lint server` in a subprocess, with message validation. These cover the
lifecycle, diagnostics, unsaved buffers and closing them, re-checks across
files, config errors and quick fixes (applied in UTF-16 columns, as an editor
does); tests/test_server.py (the hand-written driver) still covers the rest
(watched files, workspace folders, the workspace config) until it moves here."""

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
    lsp_client.initialize_result = await lsp_client.initialize_session(
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


def _open(client: LanguageClient, path: Path, version: int = 1, language: str = "shellscript") -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id=language, version=version, text=path.read_text())))
    return uri


def _change(client: LanguageClient, path: Path, text: str, version: int) -> None:
    """A full-text change of an open buffer, not saved."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


@pytest.mark.asyncio
async def test_lifecycle_and_capabilities(client: LanguageClient) -> None:
    result = client.initialize_result
    sync = result.capabilities.text_document_sync
    assert sync.change == types.TextDocumentSyncKind.Full
    assert sync.open_close is True
    assert sync.save
    assert list(result.capabilities.code_action_provider.code_action_kinds) == [types.CodeActionKind.QuickFix]
    assert result.server_info.name == "sglang-lint"


@pytest.mark.asyncio
async def test_an_opened_file_gets_its_pair_finding(client: LanguageClient, workspace: Path) -> None:
    decode = _open(client, workspace / "decode.sh")
    (diagnostic,) = await _diagnostics(client, decode, lambda found: bool(found))
    assert diagnostic.code == "SGL001"
    assert diagnostic.source == "sglang-lint"
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.code_description.href.endswith("docs/rules.md#sgl001")
    # The message, its help and its notes, one a line (issue 23 part 4).
    lines = diagnostic.message.split("\n")
    assert lines[0].startswith("attention TP differs across the pair: prefill ") and len(lines[0]) < 120
    assert lines[1].startswith("help: give the decode attention TP ")
    assert [line for line in lines[2:] if line.startswith("note: decode attention TP 4 = --tp-size 4")]
    assert all(line.startswith("note: ") for line in lines[2:])
    # The peer launch is related information, in the other file, at its --tp-size.
    (related,) = diagnostic.related_information
    assert related.location.uri == (workspace / "prefill.sh").as_uri()
    prefill_line = PREFILL.split("\n")[2]
    assert (related.location.range.start.line, related.location.range.start.character) == (2, prefill_line.index("--tp-size"))
    assert "prefill" in related.message


@pytest.mark.asyncio
async def test_positions_are_utf16_code_units(client: LanguageClient, workspace: Path) -> None:
    decode = _open(client, workspace / "decode.sh")
    (diagnostic,) = await _diagnostics(client, decode, lambda found: bool(found))
    # The finding is on the decode's `--tp-size 4` (line 3, 0-based 2), after a
    # rocket: one character in Python, two UTF-16 code units for the client.
    line = DECODE.format(tp=4).splitlines()[2]
    assert diagnostic.range.start.line == 2
    assert diagnostic.range.start.character == line.index("--tp-size 4") + 1
    assert diagnostic.range.end.character - diagnostic.range.start.character == len("--tp-size 4")


@pytest.mark.asyncio
async def test_a_fixed_buffer_is_republished_empty(client: LanguageClient, workspace: Path) -> None:
    decode = _open(client, workspace / "decode.sh")
    await _diagnostics(client, decode, lambda found: bool(found))
    _change(client, workspace / "decode.sh", DECODE.format(tp=8), 2)
    assert list(await _diagnostics(client, decode, lambda found: len(found) == 0)) == []
    assert (workspace / "decode.sh").read_text() == DECODE.format(tp=4)  # the buffer is not saved


@pytest.mark.asyncio
async def test_editing_the_prefill_rechecks_the_decode_in_its_own_file(client: LanguageClient, workspace: Path) -> None:
    _open(client, workspace / "prefill.sh")
    decode = (workspace / "decode.sh").as_uri()
    (diagnostic,) = await _diagnostics(client, decode, lambda found: bool(found))
    assert diagnostic.code == "SGL001"
    _change(client, workspace / "prefill.sh", PREFILL.replace("--tp-size 8", "--tp-size 4"), 2)
    assert list(await _diagnostics(client, decode, lambda found: len(found) == 0)) == []


@pytest.mark.asyncio
async def test_other_file_kinds_get_diagnostics(client: LanguageClient, workspace: Path) -> None:
    manifest = workspace / "decode.yaml"
    manifest.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: decode\nspec:\n  containers:\n    - name: decode\n      image: lmsysorg/sglang\n"
        "      command: [python3, -m, sglang.launch_server]\n"
        "      args: [--model-path, /models/m, --disaggregation-mode, decode, --enable-unified-memory,\n"
        "             --disaggregation-transfer-backend, mooncake, --tp-size, '2', --port, '30001']\n"
    )
    document = _open(client, manifest, language="yaml")
    found = await _diagnostics(client, document, lambda found: bool(found))
    assert [(d.code, d.range.start.line) for d in found] == [("SGL001", 10)]


async def _actions(client: LanguageClient, document: str, diagnostic) -> list:
    return list(
        await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=document),
                range=diagnostic.range,
                context=types.CodeActionContext(diagnostics=[diagnostic]),
            )
        )
        or []
    )


def _index(line: str, utf16: int) -> int:
    """The Python index of a UTF-16 column (the rocket is two code units)."""
    units = 0
    for index, char in enumerate(line):
        if units >= utf16:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line)


def _apply(text: str, edits) -> str:
    """Apply an edit's text edits as an editor does, in UTF-16 columns."""
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start, end = edit.range.start, edit.range.end
        assert start.line == end.line
        line = lines[start.line]
        lines[start.line] = line[: _index(line, start.character)] + edit.new_text + line[_index(line, end.character) :]
    return "\n".join(lines)


async def _open_with_one_diagnostic(client: LanguageClient, workspace: Path, text: str):
    (workspace / "decode.sh").write_text(text)
    decode = _open(client, workspace / "decode.sh")
    (diagnostic,) = await _diagnostics(client, decode, lambda found: len(found) == 1 and found[0].code != "SGL001")
    return decode, diagnostic


async def _fixed_and_clean(client: LanguageClient, workspace: Path, decode: str, fixed: str) -> None:
    _change(client, workspace / "decode.sh", fixed, 2)
    assert list(await _diagnostics(client, decode, lambda found: len(found) == 0)) == []


@pytest.mark.asyncio
async def test_quick_fix_replaces_an_ambiguous_abbreviation(client: LanguageClient, workspace: Path) -> None:
    text = DECODE.format(tp=8).replace("--port 30001", "--port 30001 --pp 1")
    decode, diagnostic = await _open_with_one_diagnostic(client, workspace, text)
    assert diagnostic.code == "SGL201"
    preferred = [a for a in await _actions(client, decode, diagnostic) if a.is_preferred]
    assert [a.title for a in preferred] == ["Replace --pp with --pp-size"]
    fixed = _apply(text, preferred[0].edit.changes[decode])
    assert "--pp-size 1" in fixed and "--pp 1" not in fixed
    await _fixed_and_clean(client, workspace, decode, fixed)


@pytest.mark.asyncio
async def test_quick_fix_replaces_a_typo_with_the_suggestion(client: LanguageClient, workspace: Path) -> None:
    text = DECODE.format(tp=8).replace("--port 30001", "--port 30001 --mem-fraction-statc 0.8")
    decode, diagnostic = await _open_with_one_diagnostic(client, workspace, text)
    assert diagnostic.code == "SGL202"
    (fix,) = [a for a in await _actions(client, decode, diagnostic) if a.title.startswith("Replace")]
    assert fix.title == "Replace --mem-fraction-statc with --mem-fraction-static"
    assert fix.kind == types.CodeActionKind.QuickFix and fix.diagnostics[0].code == "SGL202"
    fixed = _apply(text, fix.edit.changes[decode])
    assert "--mem-fraction-static 0.8" in fixed
    await _fixed_and_clean(client, workspace, decode, fixed)


@pytest.mark.asyncio
async def test_quick_fix_inserts_noqa_where_it_silences(client: LanguageClient, workspace: Path) -> None:
    decode = _open(client, workspace / "decode.sh")
    (diagnostic,) = await _diagnostics(client, decode, lambda found: bool(found))
    (noqa,) = [a for a in await _actions(client, decode, diagnostic) if "noqa" in a.title]
    fixed = _apply(DECODE.format(tp=4), noqa.edit.changes[decode])
    # Not on the line ending in a backslash: that would end the command (SGL205).
    assert fixed.split("\n")[2].endswith("--port 30001 &  # noqa: SGL001")
    await _fixed_and_clean(client, workspace, decode, fixed)


@pytest.mark.asyncio
async def test_an_unsaved_change_rechecks_the_pair_and_closing_restores_the_file(client: LanguageClient, workspace: Path) -> None:
    decode = _open(client, workspace / "decode.sh")
    assert [d.code for d in await _diagnostics(client, decode, lambda found: bool(found))] == ["SGL001"]
    _change(client, workspace / "decode.sh", DECODE.format(tp=8), 2)  # not saved
    await _diagnostics(client, decode, lambda found: len(found) == 0)
    assert (workspace / "decode.sh").read_text() == DECODE.format(tp=4)
    _change(client, workspace / "decode.sh", DECODE.format(tp=2), 3)
    assert [d.code for d in await _diagnostics(client, decode, lambda found: bool(found))] == ["SGL001"]
    # Closing the buffer: the file on disk (tp 4) counts again.
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=decode)))
    (diagnostic,) = await _diagnostics(client, decode, lambda found: bool(found) and "decode 4" in found[0].message)
    assert diagnostic.code == "SGL001"


@pytest.mark.asyncio
async def test_a_broken_config_is_a_diagnostic_on_the_config_file_and_the_server_lives(client: LanguageClient, workspace: Path) -> None:
    config = workspace / "sglang-lint.toml"
    config.write_text('select = ["SGL001"]\ntarget-version = \n')
    decode = _open(client, workspace / "decode.sh")
    (diagnostic,) = await _diagnostics(client, config.as_uri(), lambda found: bool(found))
    assert diagnostic.severity == types.DiagnosticSeverity.Error and diagnostic.source == "sglang-lint"
    assert "invalid TOML" in diagnostic.message
    assert diagnostic.range.start.line == 1  # where the TOML parser stopped
    # Fixed on disk and saved: the findings come back, the config diagnostic goes.
    config.write_text('select = ["SGL001"]\n')
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=config.as_uri())))
    assert [d.code for d in await _diagnostics(client, decode, lambda found: bool(found))] == ["SGL001"]
    assert list(await _diagnostics(client, config.as_uri(), lambda found: len(found) == 0)) == []


@pytest.mark.asyncio
async def test_an_unknown_config_key_is_shown_where_the_key_is(client: LanguageClient, workspace: Path) -> None:
    config = workspace / "pyproject.toml"
    config.write_text('[project]\nname = "x"\n\n[tool.sglang-lint]\nselect = ["SGL001"]\nslect = ["SGL002"]\n')
    _open(client, workspace / "decode.sh")
    (diagnostic,) = await _diagnostics(client, config.as_uri(), lambda found: bool(found))
    assert "unknown key tool.sglang-lint.slect" in diagnostic.message
    assert (diagnostic.range.start.line, diagnostic.range.start.character) == (5, 0)
