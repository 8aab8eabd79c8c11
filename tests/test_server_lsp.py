"""The language server driven by pytest-lsp (issue 17, part 4): pygls's own
end-to-end harness, a real client speaking the protocol over stdio to
`sglang-lint server` in a subprocess, with message validation. These cover the
lifecycle, diagnostics, unsaved buffers and closing them, re-checks across
files, config errors, quick fixes (applied in UTF-16 columns, as an editor
does), the workspace config, the shipped example, files changed outside the
editor (dynamically registered watchers), workspace folders added and removed,
and hostile buffer text (a hypothesis property). The server without pygls is
tests/test_server_without_pygls.py: no client can talk to it."""

from __future__ import annotations

import asyncio
import itertools
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
types = pytest.importorskip("lsprotocol.types")

import pytest_asyncio  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from lsprotocol.converters import get_converter  # noqa: E402
from pygls.protocol import default_converter  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features  # noqa: E402

from _editor_pair import DECODE, PREFILL  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "qwen3-next-pd"
PAIR = {"prefill.sh": PREFILL, "decode.sh": DECODE.format(tp=4)}


class Client(LanguageClient):
    """pytest-lsp's client that also keeps every publication in order (with its
    document version: ``diagnostics`` holds only the latest of each file) and
    every client/registerCapability request; ``received`` wakes the waits of
    ``_until`` when one comes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.publications: list[types.PublishDiagnosticsParams] = []
        self.registrations: list[types.RegistrationParams] = []
        self.received = asyncio.Event()

    @property
    def exit_code(self) -> int | None:
        return self._server.returncode if self._server is not None else None

    async def server_exit(self, server) -> None:
        await super().server_exit(server)
        self.received.set()  # a wait fails at once when the server dies


def _record_publication(client: Client, params: types.PublishDiagnosticsParams) -> None:
    DEFAULT_CLIENT_FEATURES[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS](client, params)
    client.publications.append(params)
    client.received.set()


def _record_registration(client: Client, params: types.RegistrationParams) -> None:
    """Answer client/registerCapability as an editor does, after checking it: a
    failed assertion here fails the test (pytest-lsp reports handler errors)."""
    for registration in params.registrations:
        if registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES:
            # Only a client that says it can register watchers dynamically is asked to.
            capability = client.capabilities.workspace and client.capabilities.workspace.did_change_watched_files
            assert capability and capability.dynamic_registration, "the server asked a client that cannot watch files"
            # The options must be DidChangeWatchedFilesRegistrationOptions (structuring raises otherwise).
            registration.register_options = get_converter().structure(registration.register_options, types.DidChangeWatchedFilesRegistrationOptions)
    client.registrations.append(params)
    client.received.set()


def _recording_client() -> Client:
    client = Client(converter_factory=default_converter)
    register_lsp_features(
        client,
        {
            **DEFAULT_CLIENT_FEATURES,
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _record_publication,
            types.CLIENT_REGISTER_CAPABILITY: _record_registration,
        },
    )
    return client


@pytest.fixture
def workspace(tmp_path, request):
    """The prefill/decode pair, or the files (name: text) a test parametrizes it with."""
    for name, text in getattr(request, "param", PAIR).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "sglang_lint", "server"], client_factory=_recording_client))
async def client(language_client: Client, workspace: Path, request):
    """A server initialized on the workspace. A test parametrizes it (indirectly)
    with ``watch_files`` (the client can register file watchers) and
    ``initialization_options``. Shut down at the end: it must exit with 0."""
    options = getattr(request, "param", {})
    capabilities = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True, code_description_support=True)
        )
    )
    if options.get("watch_files"):
        capabilities.workspace = types.WorkspaceClientCapabilities(
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
        )
    if options.get("pull"):  # LSP 3.17 pull diagnostics, with refresh requests
        capabilities.text_document.diagnostic = types.DiagnosticClientCapabilities(related_document_support=True)
        capabilities.workspace = capabilities.workspace or types.WorkspaceClientCapabilities()
        capabilities.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    if options.get("progress"):
        capabilities.window = types.WindowClientCapabilities(work_done_progress=True)
    language_client.initialize_result = await language_client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name=workspace.name)],
            initialization_options=options.get("initialization_options"),
        )
    )
    yield
    await _shut_down(language_client)


async def _shut_down(client: Client) -> None:
    """shutdown and exit (unless done already): the server must exit with 0."""
    if client.exit_code is None:
        await client.shutdown_session()
    assert client.exit_code == 0


async def _until(client: Client, found: Callable[[], Any], failure: Callable[[], str], timeout: float = 60) -> Any:
    """What ``found()`` returns once it is not None, looked at again whenever the
    client records a message (no polling); fails at once if the server exits."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        client.received.clear()
        result = found()
        if result is not None:
            return result
        assert client.exit_code is None, f"the server exited with {client.exit_code}: {failure()}"
        try:
            await asyncio.wait_for(client.received.wait(), max(deadline - loop.time(), 0))
        except asyncio.TimeoutError:
            raise AssertionError(f"{failure()} in {timeout} s") from None


async def _diagnostics(client: Client, uri: str, want, *, after: int | None = None, version: int | None = None, timeout: float = 60) -> list:
    """The file's diagnostics once its latest publication satisfies ``want``; or,
    with ``after`` (a count of ``client.publications``), those of the first
    publication since then (of document ``version`` when given) that does."""

    def found():
        if after is None:
            candidates = [client.diagnostics[uri]] if uri in client.diagnostics else []
        else:
            candidates = [p.diagnostics for p in client.publications[after:] if p.uri == uri and (version is None or p.version == version)]
        return next((list(diagnostics) for diagnostics in candidates if want(diagnostics)), None)

    return await _until(client, found, lambda: f"no publication for {uri} satisfied the test (the latest: {client.diagnostics.get(uri)})", timeout)


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
    assert list(result.capabilities.code_action_provider.code_action_kinds) == [types.CodeActionKind.QuickFix, "source.fixAll.sglang-lint"]
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
async def test_the_pair_fix_is_offered_and_clears_the_pair(client: LanguageClient, workspace: Path) -> None:
    # SGL001: the decode's --tp-size 4 becomes the prefill's attention TP 8; the
    # display-only "drop --enable-unified-memory" is in the message, not an action.
    decode = _open(client, workspace / "decode.sh")
    (diagnostic,) = await _diagnostics(client, decode, lambda found: bool(found))
    actions = await _actions(client, decode, diagnostic)
    titles = [action.title for action in actions]
    assert "Give the decode --tp-size 8 (attention TP 8)" in titles
    assert not any("Drop --enable-unified-memory" in title for title in titles)
    (fix,) = [action for action in actions if action.title == "Give the decode --tp-size 8 (attention TP 8)"]
    assert fix.is_preferred
    fixed = _apply(DECODE.format(tp=4), fix.edit.changes[decode])
    assert fixed == DECODE.format(tp=8)
    await _fixed_and_clean(client, workspace, decode, fixed)


@pytest.mark.asyncio
async def test_fix_all_applies_the_safe_fixes_of_the_document(client: LanguageClient, workspace: Path) -> None:
    # SGL902 (opt-in here through the config) has a safe fix: the unused code
    # leaves the comment. A misspelt option's fix is unsafe: fix-all leaves it.
    (workspace / "sglang-lint.toml").write_text('extend-select = ["SGL902"]\n')
    text = DECODE.format(tp=8).replace("--port 30001 &", "--port 30001 --mem-fraction-statc 0.8 &  # noqa: SGL001")
    (workspace / "decode.sh").write_text(text)
    decode = _open(client, workspace / "decode.sh")
    found = await _diagnostics(client, decode, lambda found: {d.code for d in found} == {"SGL202", "SGL902"})
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=decode),
            range=found[0].range,
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"]),
        )
    )
    (fix_all,) = actions
    assert fix_all.kind == "source.fixAll.sglang-lint" and fix_all.title == "Fix all sglang-lint safe fixes"
    fixed = _apply(text, fix_all.edit.changes[decode])
    assert fixed == text.replace(" &  # noqa: SGL001", " &")
    _change(client, workspace / "decode.sh", fixed, 2)
    remaining = await _diagnostics(client, decode, lambda found: {d.code for d in found} == {"SGL202"})
    assert [d.code for d in remaining] == ["SGL202"]  # the unsafe fix is the user's call


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


def _codes(diagnostics) -> list[str]:
    return sorted(d.code for d in diagnostics)


EXAMPLE_COPY = {f"pd/{path.relative_to(EXAMPLE)}": path.read_text() for path in sorted(EXAMPLE.rglob("*")) if path.is_file()}


@pytest.mark.asyncio
@pytest.mark.parametrize("workspace", [EXAMPLE_COPY], indirect=True, ids=["example"])
@pytest.mark.parametrize("client", [{"initialization_options": {"cache": False}}], indirect=True, ids=["no-cache"])
async def test_the_shipped_example_works_from_a_copy(client: Client, workspace: Path) -> None:
    decode = _open(client, workspace / "pd" / "decode.sh")
    assert _codes(await _diagnostics(client, decode, lambda found: bool(found))) == ["SGL001"]
    await _shut_down(client)
    assert not (workspace / ".sglang-lint-cache").exists()  # {"cache": false}, even at exit


CONFIGURED = {
    **PAIR,
    "pyproject.toml": '[tool.sglang-lint]\nignore = ["SGL001"]\n',
    "other.sh": DECODE.format(tp=8).replace("--port 30001", "--port 30002 --pp 1"),
}


@pytest.mark.asyncio
@pytest.mark.parametrize("workspace", [CONFIGURED], indirect=True, ids=["configured"])
async def test_the_workspace_config_is_honoured(client: Client, workspace: Path) -> None:
    other = _open(client, workspace / "other.sh")
    # SGL201 in other.sh is reported; the SGL001 of decode.sh is ignored by the config.
    assert _codes(await _diagnostics(client, other, lambda found: bool(found))) == ["SGL201"]
    mark = len(client.publications)
    _change(client, workspace / "other.sh", DECODE.format(tp=8).replace("--port 30001", "--port 30002"), 2)
    assert await _diagnostics(client, other, lambda found: not found, after=mark) == []
    # decode.sh opened too: an open file always gets an answer, and it is empty.
    mark = len(client.publications)
    decode = _open(client, workspace / "decode.sh")
    assert await _diagnostics(client, decode, lambda found: True, after=mark, version=1) == []
    assert all(not publication.diagnostics for publication in client.publications if publication.uri == decode)


@pytest.mark.asyncio
@pytest.mark.parametrize("client", [{"watch_files": True}], indirect=True, ids=["watching"])
async def test_files_changed_outside_the_editor_are_watched_and_rechecked(client: Client, workspace: Path) -> None:
    _open(client, workspace / "prefill.sh")
    decode = (workspace / "decode.sh").as_uri()
    assert _codes(await _diagnostics(client, decode, lambda found: bool(found))) == ["SGL001"]
    # The server asked, once, to watch the files it reads (checked and answered by _record_registration).
    (request,) = await _until(client, lambda: client.registrations or None, lambda: "no client/registerCapability request")
    (registration,) = request.registrations
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    (watcher,) = registration.register_options.watchers
    assert watcher.glob_pattern.endswith("{sh,bash,py,yaml,yml,md,markdown,ipynb,toml}")
    # A git checkout rewrites decode.sh behind the editor's back; the editor's watcher tells the server.
    mark = len(client.publications)
    (workspace / "decode.sh").write_text(DECODE.format(tp=8))
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=decode, type=types.FileChangeType.Changed)])
    )
    assert await _diagnostics(client, decode, lambda found: not found, after=mark) == []


@pytest.mark.asyncio
async def test_a_client_that_cannot_watch_files_is_not_asked_to(client: Client, workspace: Path) -> None:
    document = _open(client, workspace / "decode.sh")
    await _diagnostics(client, document, lambda found: bool(found))
    # The registration would have come (on `initialized`) before the first publication.
    assert client.registrations == []


@pytest.mark.asyncio
async def test_an_added_workspace_folder_is_analyzed_and_a_removed_one_cleared(client: Client, workspace: Path, tmp_path_factory) -> None:
    # The server says it takes workspace folder changes (else an editor sends none).
    assert client.initialize_result.capabilities.workspace.workspace_folders.change_notifications
    other = tmp_path_factory.mktemp("second-folder")
    (other / "prefill.sh").write_text(PREFILL)
    (other / "decode.sh").write_text(DECODE.format(tp=2))
    decode = _open(client, workspace / "decode.sh")
    await _diagnostics(client, decode, lambda found: bool(found))
    folder = types.WorkspaceFolder(uri=other.as_uri(), name=other.name)
    for added, removed, want in (([folder], [], ["SGL001"]), ([], [folder], [])):
        mark = len(client.publications)
        client.workspace_did_change_workspace_folders(
            types.DidChangeWorkspaceFoldersParams(event=types.WorkspaceFoldersChangeEvent(added=added, removed=removed))
        )
        found = await _diagnostics(client, (other / "decode.sh").as_uri(), lambda found: bool(found) == bool(want), after=mark)
        assert _codes(found) == want


# Pieces of hostile buffer text: binary-looking, huge lines, unbalanced quotes,
# non-BMP characters, line continuations, heredocs, NUL.
HOSTILE = st.sampled_from(
    ["python3 -m sglang.launch_server", " --tp", " --tp-size ", "8", " --pp", "'", '"', "\\\n", "\n", "# noqa: SGL0", "$(", "${X:-", "}", "𝔘", "é", "\t", "\x00", "<<EOF\n", "--enable-unified-memory", " " * 300]
)


SOURCING_SCRIPT = (
    "#!/bin/bash\n"
    'SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\n'
    '. "$SCRIPT_DIR/lib/common.sh"\n'
    "start prefill 30000 --tp 8\n"
    "start decode 30001 --tp 4\n"
)
HELPER = (
    "start() {{\n"
    "  local mode=$1 port=$2\n"
    "  shift 2\n"
    '  python3 -m sglang.launch_server --model-path /models/m {flags} --disaggregation-mode "$mode" --port "$port" "$@" &\n'
    "}}\n"
)
SOURCED = {"run_pd.sh": SOURCING_SCRIPT, "lib/common.sh": HELPER.format(flags="--trust-remote-code")}


@pytest.mark.asyncio
@pytest.mark.parametrize("workspace", [SOURCED], indirect=True, ids=["sourced-helper"])
async def test_an_unsaved_edit_of_a_sourced_helper_republishes_the_script_that_sources_it(client: Client, workspace: Path) -> None:
    """run_pd.sh is not open: only its dependency on lib/common.sh (issue 19)
    makes the server analyze it again when the helper's buffer changes."""
    script = (workspace / "run_pd.sh").as_uri()
    helper = workspace / "lib" / "common.sh"
    uri = _open(client, helper)
    await _diagnostics(client, uri, lambda found: True)
    assert not client.diagnostics.get(script)
    after = len(client.publications)
    _change(client, helper, HELPER.format(flags="--enable-unified-memory --disaggregation-transfer-backend mooncake"), 2)  # not saved
    (diagnostic,) = await _diagnostics(client, script, lambda found: bool(found), after=after)
    assert diagnostic.code == "SGL001"
    assert diagnostic.range.start.line == 4  # the decode call's `--tp 4`, in the script
    after = len(client.publications)
    _change(client, helper, HELPER.format(flags="--trust-remote-code"), 3)
    assert await _diagnostics(client, script, lambda found: not found, after=after) == []


@pytest_asyncio.fixture
async def decode_versions(client: Client, workspace: Path):
    """decode.sh open and analysed once: the versions its next changes take."""
    await _diagnostics(client, _open(client, workspace / "decode.sh"), lambda found: bool(found))
    return itertools.count(2)


# One server for all the examples: the client fixture is set up once per test,
# and pytest-asyncio runs each example's coroutine on that test's event loop
# (hypothesis's @given on an async test; the health check about a
# function-scoped fixture is suppressed on purpose).
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(parts=st.lists(HOSTILE, max_size=40))
@pytest.mark.asyncio
async def test_any_buffer_text_gets_an_answer_and_the_server_survives(client: Client, workspace: Path, decode_versions, parts: list[str]) -> None:
    """Each random and hostile buffer text is answered with a publication for
    its version, with diagnostics inside the buffer; the server never dies
    (each wait fails at once if it exits, and the teardown wants exit code 0)."""
    # Once the server died, hypothesis's further examples fail here, not as the one that killed it.
    assert client.exit_code is None, "the server died at an earlier example"
    text = "".join(parts)
    mark = len(client.publications)
    version = next(decode_versions)
    _change(client, workspace / "decode.sh", text, version)
    found = await _diagnostics(client, (workspace / "decode.sh").as_uri(), lambda found: True, after=mark, version=version, timeout=30)
    lines = len(text.split("\n"))
    assert all(0 <= d.range.start.line <= d.range.end.line < lines for d in found)


from _python_suite import PY_BASE  # noqa: E402 - beside the tests that use it

PY_SUITE = {
    "server_fixtures/base.py": PY_BASE.format(flags="'--trust-remote-code'"),
    "tests/test_pd.py": "from server_fixtures.base import ServerBase\n\n\nclass TestPD(ServerBase):\n    decode_tp = 4\n",
}


@pytest.mark.asyncio
@pytest.mark.parametrize("workspace", [PY_SUITE], indirect=True, ids=["python-base-class"])
async def test_an_unsaved_edit_of_a_base_class_republishes_the_test_module_deriving_it(client: Client, workspace: Path) -> None:
    """tests/test_pd.py is not open: only its dependency on the base class's
    module (issue 19) makes the server analyze it again when that buffer changes."""
    test_module = (workspace / "tests" / "test_pd.py").as_uri()
    base = workspace / "server_fixtures" / "base.py"
    uri = _open(client, base, language="python")
    await _diagnostics(client, uri, lambda found: True)
    assert not client.diagnostics.get(test_module)
    after = len(client.publications)
    _change(client, base, PY_BASE.format(flags="'--enable-unified-memory'"), 2)  # not saved
    (diagnostic,) = await _diagnostics(client, test_module, lambda found: bool(found), after=after)
    assert diagnostic.code == "SGL001"
    assert diagnostic.range.start.line == 4  # the subclass's `decode_tp = 4`
    after = len(client.publications)
    _change(client, base, PY_BASE.format(flags="'--trust-remote-code'"), 3)
    assert await _diagnostics(client, test_module, lambda found: not found, after=after) == []


# ---------------------------------------------------------------------------------
# Issue 24: progress of the first scan, pull diagnostics


@pytest.mark.parametrize("client", [{"progress": True}], indirect=True)
@pytest.mark.asyncio
async def test_the_first_scan_reports_work_done_progress(client: Client, workspace: Path) -> None:
    for number in range(20):
        (workspace / f"notes-{number}.md").write_text("# nothing launches here\n")
    decode = _open(client, workspace / "decode.sh")
    await _diagnostics(client, decode, lambda found: bool(found))

    def ended():
        for token, reports in client.progress_reports.items():
            if reports and isinstance(reports[-1], types.WorkDoneProgressEnd):
                return token, reports
        return None

    token, reports = await _until(client, ended, lambda: f"no progress ended: {client.progress_reports}")
    assert isinstance(reports[0], types.WorkDoneProgressBegin) and reports[0].title == "sglang-lint"
    middle = [report for report in reports[1:-1] if isinstance(report, types.WorkDoneProgressReport)]
    assert middle and middle[-1].message == "22/22 files"  # 20 notes, the prefill, the decode and middle[-1].percentage == 100
    assert [report.percentage for report in middle] == sorted(report.percentage for report in middle)


@pytest.mark.asyncio
async def test_without_the_capability_no_progress_is_created(client: Client, workspace: Path) -> None:
    decode = _open(client, workspace / "decode.sh")
    await _diagnostics(client, decode, lambda found: bool(found))
    assert client.progress_reports == {}


async def _pull(client: Client, uri: str, previous: str | None = None):
    return await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous)
    )


@pytest.mark.parametrize("client", [{"pull": True}], indirect=True)
@pytest.mark.asyncio
async def test_a_client_that_pulls_gets_diagnostics_by_request_and_no_push(client: Client, workspace: Path) -> None:
    capabilities = client.initialize_result.capabilities.diagnostic_provider
    assert capabilities.inter_file_dependencies and capabilities.workspace_diagnostics
    decode = _open(client, workspace / "decode.sh")
    report = await _pull(client, decode)
    assert report.kind == "full" and [d.code for d in report.items] == ["SGL001"]
    # Asked again with the id it got: nothing changed.
    again = await _pull(client, decode, report.result_id)
    assert again.kind == "unchanged" and again.result_id == report.result_id
    # An edit that agrees: the pull waits for its analysis and answers empty.
    _change(client, workspace / "decode.sh", DECODE.format(tp=8), 2)
    fixed = await _pull(client, decode, report.result_id)
    assert fixed.kind == "full" and list(fixed.items) == [] and fixed.result_id != report.result_id
    # The whole workspace: the prefill has nothing, the decode nothing now.
    _change(client, workspace / "decode.sh", DECODE.format(tp=2), 3)
    await _pull(client, decode)
    workspace_report = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[]))
    by_uri = {item.uri: item for item in workspace_report.items}
    assert [d.code for d in by_uri[decode].items] == ["SGL001"]
    assert client.publications == []  # never pushed to a client that pulls


# ---------------------------------------------------------------------------------
# Issue 24: what the server resolved, shown where nothing is wrong


async def _analyzed(client: Client, workspace: Path) -> str:
    decode = _open(client, workspace / "decode.sh")
    await _diagnostics(client, decode, lambda found: bool(found))
    return decode


def _at(text: str, line: int, needle: str, offset: int = 0) -> types.Position:
    """The position (UTF-16, as the client sends it) of ``needle`` on ``line`` (0-based)."""
    row = text.split("\n")[line]
    index = row.index(needle) + offset
    return types.Position(line=line, character=len(row[:index].encode("utf-16-le")) // 2)


@pytest.mark.asyncio
async def test_hover_on_an_option_shows_its_help_default_and_releases(client: Client, workspace: Path) -> None:
    decode = await _analyzed(client, workspace)
    text = DECODE.format(tp=4)
    found = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=decode), position=_at(text, 2, "--tp-size", 3)))
    value = found.contents.value
    assert value.startswith("**`--tp-size`**")
    # SGLang 0.5.23's help= for --tp-size (sglang/srt/server_args.py), from the option table.
    assert "The tensor parallelism size." in value
    assert "type `int`" in value and "default `1`" in value and "value here: `4`" in value
    assert "accepted by every release sglang-lint knows" in value
    assert found.range.start == _at(text, 2, "--tp-size 4")


@pytest.mark.asyncio
async def test_hover_on_a_launch_shows_its_role_attention_tp_and_peer(client: Client, workspace: Path) -> None:
    decode = await _analyzed(client, workspace)
    found = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=decode), position=types.Position(line=1, character=2)))
    value = found.contents.value
    assert value.startswith("**decode** server · attention TP 4 = --tp-size 4")
    assert f"pairs with [prefill.sh:2]({(workspace / 'prefill.sh').as_uri()}#L2) (prefill, attention TP 8)" in value
    nothing = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=decode), position=types.Position(line=0, character=3)))
    assert nothing is None  # the shebang: no launch


@pytest.mark.asyncio
async def test_an_inlay_hint_follows_each_launch_command(client: Client, workspace: Path) -> None:
    decode = await _analyzed(client, workspace)
    everything = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=10, character=0))
    (hint,) = await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=decode), range=everything))
    assert hint.label == "decode · attn TP 4"
    assert "decode attention TP 4 = --tp-size 4" in hint.tooltip
    last = DECODE.format(tp=4).split("\n")[2].rstrip()  # the command ends on its third line (a `\` continuation)
    assert hint.position == types.Position(line=2, character=len(last.encode("utf-16-le")) // 2)


@pytest.mark.parametrize("client", [{"initialization_options": {"inlayHints": False}}], indirect=True)
@pytest.mark.asyncio
async def test_inlay_hints_can_be_turned_off(client: Client, workspace: Path) -> None:
    decode = await _analyzed(client, workspace)
    everything = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=10, character=0))
    assert list(await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=decode), range=everything))) == []


TP_FROM_A_VARIABLE = "#!/bin/bash\nTP=4\npython3 -m sglang.launch_server --model-path /models/m --disaggregation-mode decode --enable-unified-memory --disaggregation-transfer-backend mooncake --tp-size $TP --port 30001 &\n"


@pytest.mark.parametrize("workspace", [{"prefill.sh": PREFILL, "decode.sh": TP_FROM_A_VARIABLE}], indirect=True)
@pytest.mark.asyncio
async def test_go_to_definition_on_a_value_goes_where_it_was_written(client: Client, workspace: Path) -> None:
    decode = await _analyzed(client, workspace)
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=decode), position=_at(TP_FROM_A_VARIABLE, 2, "$TP", 1))
    )
    assert found.uri == decode
    assert (found.range.start.line, found.range.start.character) == (1, 3)  # the 4 of TP=4


@pytest.mark.asyncio
@pytest.mark.parametrize("client", [{"initialization_options": {"debounce": 2000}}], indirect=True)
async def test_an_edit_after_quiet_is_analyzed_at_once_and_a_burst_after_the_debounce(client: Client, workspace: Path) -> None:
    """Issue 24: the debounce is for typing. An edit after ``debounce`` ms of
    quiet (a save, a paste, a quick fix) is analyzed at once; edits in a
    burst wait for ``debounce`` ms after the last one, and only the last text
    is published. (The margins are the 2 s debounce against the ~0.1 s the
    analysis of this pair takes.)"""
    loop = asyncio.get_running_loop()
    decode = _open(client, workspace / "decode.sh")
    await _diagnostics(client, decode, lambda found: bool(found))
    await asyncio.sleep(2.1)
    before, started = len(client.publications), loop.time()
    _change(client, workspace / "decode.sh", DECODE.format(tp=8), 2)
    assert await _diagnostics(client, decode, lambda found: len(found) == 0, after=before, version=2) == []
    assert loop.time() - started < 1.5  # not after the debounce
    await asyncio.sleep(2.1)
    before = len(client.publications)
    _change(client, workspace / "decode.sh", DECODE.format(tp=4), 3)
    await asyncio.sleep(0.3)  # typing: within the debounce of the edit before
    started = loop.time()
    _change(client, workspace / "decode.sh", DECODE.format(tp=2), 4)
    await _diagnostics(client, decode, lambda found: bool(found), after=before, version=4)
    assert loop.time() - started >= 1.9  # the burst waited for quiet
    assert [p.version for p in client.publications[before:] if p.uri == decode][-1] == 4


@pytest.mark.parametrize("client", [{"initialization_options": {"debounce": 2000}}], indirect=True)
@pytest.mark.parametrize("workspace", [PY_SUITE], indirect=True, ids=["python-base-class"])
@pytest.mark.asyncio
async def test_the_files_that_read_an_edited_one_wait_for_a_quiet_moment(client: Client, workspace: Path) -> None:
    """Issue 24: the files that read an edited one (here a test module deriving
    the edited base class) are work the edit does not wait for. Begun at
    once, they were still running when the next keystroke came, and it
    waited for them (20-40 ms of each edit on SGLang's tree). The edited file
    is published at once; its readers after ``debounce`` ms without an edit."""
    loop = asyncio.get_running_loop()
    test_module = (workspace / "tests" / "test_pd.py").as_uri()
    base = workspace / "server_fixtures" / "base.py"
    uri = _open(client, base, language="python")
    await _diagnostics(client, uri, lambda found: True)
    await asyncio.sleep(2.1)
    after, started = len(client.publications), loop.time()
    _change(client, base, PY_BASE.format(flags="'--enable-unified-memory'"), 2)
    await _diagnostics(client, uri, lambda found: True, after=after, version=2)
    assert loop.time() - started < 1.5  # the edited file: at once
    (diagnostic,) = await _diagnostics(client, test_module, lambda found: bool(found), after=after)
    assert diagnostic.code == "SGL001"
    assert loop.time() - started >= 1.9  # its reader: after the quiet moment
