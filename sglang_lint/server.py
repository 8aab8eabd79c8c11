"""``sglang-lint server``: the Language Server Protocol over stdio (pygls).

Editors get the same findings as ``sglang-lint check`` on every file kind it
reads (shell, Python, YAML, Markdown), as you type. The whole workspace is
analyzed, not the open file alone: a prefill and its decode usually live in two
files, and editing one re-checks the pair. Open buffers replace their files on
disk (``lint_paths(overlays=...)``); per-file results stay in memory between
runs (``MemoryExtractionCache``, over the on-disk cache), so a change costs the
changed file and the cross-file analysis. Changes are debounced.

The protocol part (this module) only adapts: :class:`WorkspaceLinter` runs the
analysis and knows no LSP; diagnostics and code actions are built from its
findings and their metadata (code, URL, severity, related locations, fixes).
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from sglang_lint import __version__
from sglang_lint.fixes import TextEdit, noqa_edit, resolve_fix
from sglang_lint.model import DISPLAY_ONLY, Finding, Location, Severity
from sglang_lint.pipeline import LintOptions
from sglang_lint.workspace import Outcome, WorkspaceLinter

SOURCE = "sglang-lint"
# The code action kind of "fix all" (ruff's `source.fixAll.ruff`): the safe fixes only.
FIX_ALL = "source.fixAll.sglang-lint"
# What the analysis reads: launch files, configs, SGLang --config YAML files.
WATCHED_FILES = ("**/*.{sh,bash,py,yaml,yml,md,markdown,toml}",)
# Milliseconds between the last change and the run it triggers.
DEFAULT_DEBOUNCE_MS = 50

logger = logging.getLogger(__name__)

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


# ---------------------------------------------------------------------------------
# Protocol


class SglangLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("sglang-lint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.linter: WorkspaceLinter | None = None
        self.debounce_ms = DEFAULT_DEBOUNCE_MS
        self.outcome = Outcome()
        self.published: set[str] = set()
        self._pending: asyncio.TimerHandle | None = None
        self._persist_next = False
        self._running = False
        self._again = False

    # -- runs -------------------------------------------------------------------
    def buffers(self) -> dict[str, str]:
        open_documents = {}
        for uri, document in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path:
                open_documents[os.path.abspath(path)] = document.source
        return open_documents

    def schedule(self, *, persist: bool = False) -> None:
        """Analyze again ``debounce_ms`` after the last call."""
        self._persist_next = self._persist_next or persist
        loop = asyncio.get_event_loop()
        if self._pending is not None:
            self._pending.cancel()
        self._pending = loop.call_later(self.debounce_ms / 1000, lambda: asyncio.ensure_future(self._run()))

    async def _run(self) -> None:
        if self._running:
            self._again = True  # one more run when this one ends: it missed a change
            return
        self._running = True
        try:
            while True:
                self._again = False
                persist, self._persist_next = self._persist_next, False
                buffers = self.buffers()
                linter = self.linter
                if linter is None:
                    return
                try:
                    outcome = await asyncio.get_event_loop().run_in_executor(None, lambda: linter.run(buffers, persist=persist))
                except Exception as error:  # noqa: BLE001 - the server outlives any one run
                    logger.exception("analysis failed")
                    self.window_log_message(
                        types.LogMessageParams(type=types.MessageType.Error, message=f"sglang-lint: internal error: {type(error).__name__}: {error}; please report it")
                    )
                    outcome = None
                if outcome is not None:
                    self.publish(outcome)
                if not self._again:
                    break
        finally:
            self._running = False

    # -- diagnostics ----------------------------------------------------------------
    def publish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        by_uri: dict[str, list[types.Diagnostic]] = {}
        if outcome.config_error is not None:
            error = outcome.config_error
            path = error.path or (self.linter.roots[0] if self.linter and self.linter.roots else "")
            lines = _file_lines(path)
            line = max(0, (error.line or 1) - 1)
            column = max(0, (error.column or 1) - 1)
            if error.line is None:
                line, column = _key_position(str(error), lines)
            end = len(lines[line]) if line < len(lines) else column
            by_uri[from_fs_path(path) or path] = [
                types.Diagnostic(
                    range=self._range(lines, line, column, line, max(end, column)),
                    message=f"sglang-lint cannot use this configuration: {error}",
                    severity=types.DiagnosticSeverity.Error,
                    source=SOURCE,
                    code="config",
                )
            ]
        for path, findings in outcome.findings.items():
            uri = from_fs_path(path) or path
            by_uri[uri] = [self.diagnostic(finding) for finding in findings]
        # Every open document gets an answer for its current version, even an
        # empty one: the editor learns that this version was checked.
        for uri in self.workspace.text_documents:
            by_uri.setdefault(uri, [])
        for uri in self.published - set(by_uri):
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        for uri, diagnostics in by_uri.items():
            document = self.workspace.text_documents.get(uri)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=document.version if document else None)
            )
        self.published = {uri for uri, diagnostics in by_uri.items() if diagnostics}

    def lines_of(self, path: str) -> list[str]:
        absolute = os.path.abspath(path)
        lines = self.outcome.lines.get(absolute)
        if lines is None:
            lines = _file_lines(absolute)
        return lines

    def _range(self, lines: list[str], line: int, column: int, end_line: int, end_column: int) -> types.Range:
        """A range from 0-based code-point positions, in the client's units
        (UTF-16 unless it asked for another)."""
        codec = self.workspace.position_codec
        return codec.range_to_client_units(
            lines,
            types.Range(start=types.Position(line=line, character=column), end=types.Position(line=end_line, character=end_column)),
        )

    def location_range(self, location: Location) -> types.Range:
        lines = self.lines_of(location.path)
        line, column = location.line - 1, location.column - 1
        end_line, end_column = location.end_line - 1, location.end_column - 1
        if (end_line, end_column) <= (line, column):
            # A point: show the rest of the word (at least one character).
            text = lines[line] if 0 <= line < len(lines) else ""
            stop = column
            while stop < len(text) and not text[stop].isspace():
                stop += 1
            end_line, end_column = line, max(stop, column + 1)
        return self._range(lines, max(line, 0), max(column, 0), max(end_line, 0), max(end_column, 0))

    def diagnostic(self, finding: Finding) -> types.Diagnostic:
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(uri=from_fs_path(os.path.abspath(r.location.path)) or r.location.path, range=self.location_range(r.location)),
                message=r.message,
            )
            for r in finding.related
        ]
        return types.Diagnostic(
            range=self.location_range(finding.location),
            # The message, then its help and notes, one per line (editors show
            # the first line inline and the rest on hover).
            message="\n".join(finding.text_lines()),
            severity=_SEVERITY.get(finding.severity, types.DiagnosticSeverity.Warning),
            code=finding.code,
            code_description=types.CodeDescription(href=finding.url) if finding.url else None,
            source=SOURCE,
            related_information=related or None,
        )

    # -- code actions -----------------------------------------------------------------
    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        path = to_fs_path(params.text_document.uri)
        if not path:
            return []
        absolute = os.path.abspath(path)
        wanted = {(str(d.code), d.range.start.line) for d in params.context.diagnostics if d.source == SOURCE}
        actions: list[types.CodeAction] = []
        for finding in self.outcome.findings.get(absolute, []):
            diagnostic = self.diagnostic(finding)
            if wanted and (finding.code, diagnostic.range.start.line) not in wanted:
                continue
            if not wanted and not _overlaps(diagnostic.range, params.range):
                continue
            for fix in finding.fixes:
                if fix.applicability == DISPLAY_ONLY:
                    continue  # shown in the message's lines, never applied
                edit = resolve_fix(fix, self.lines_of(fix.location.path))
                if edit is not None:
                    actions.append(self._action(fix.title, [edit], diagnostic, fix.preferred))
            if finding.code.startswith("SGL") and finding.code != "SGL900":
                actions.extend(self._noqa_actions(finding, diagnostic))
        only = params.context.only
        if only is None or any(_kind_of(FIX_ALL, kind) for kind in only):
            actions.extend(self._fix_all_action(absolute))
        if only is not None:  # the kinds the client asked for (LSP: `only` filters)
            actions = [action for action in actions if any(_kind_of(str(action.kind), kind) for kind in only)]
        return actions

    def _fix_all_action(self, absolute: str) -> list[types.CodeAction]:
        """`source.fixAll.sglang-lint`: every safe fix of the document at once
        (ruff's "Fix all"), as the fix engine chooses them for one round."""
        from sglang_lint.fix_engine import FixSettings, document_fixes

        findings = self.outcome.findings.get(absolute, [])
        if not findings:
            return []
        shown = next((f.location.path for f in findings if os.path.abspath(f.location.path) == absolute), None)
        if shown is None:
            return []
        taken = document_fixes(findings, shown, "\n".join(self.lines_of(shown)), FixSettings())
        if not taken:
            return []
        action = self._action("Fix all sglang-lint safe fixes", [edit for _, edit in taken], None, False)
        action.kind = FIX_ALL
        action.diagnostics = None
        return [action]

    def _noqa_actions(self, finding: Finding, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
        linter = self.linter
        if linter is None:
            return []
        for shown in dict.fromkeys(path for path, _, _ in finding.noqa_ranges):
            edit = noqa_edit(finding, shown, self.lines_of(shown), lambda text, shown=shown: linter.comments_of(shown, text))
            if edit is not None:
                return [self._action(f"Silence {finding.code} on this launch (# noqa: {finding.code})", [edit], diagnostic, False)]
        return []

    def _action(self, title: str, edits: list[TextEdit], diagnostic: types.Diagnostic | None, preferred: bool) -> types.CodeAction:
        changes: dict[str, list[types.TextEdit]] = {}
        for edit in edits:
            lines = self.lines_of(edit.path)
            uri = from_fs_path(os.path.abspath(edit.path)) or edit.path
            changes.setdefault(uri, []).append(
                types.TextEdit(
                    range=self._range(lines, edit.line - 1, edit.column - 1, edit.end_line - 1, edit.end_column - 1),
                    new_text=edit.new_text,
                )
            )
        return types.CodeAction(
            title=title,
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic] if diagnostic is not None else None,
            is_preferred=preferred or None,
            edit=types.WorkspaceEdit(changes=changes),
        )


def _kind_of(kind: str, asked: str) -> bool:
    """Whether a code action of ``kind`` is of the ``asked`` kind (LSP kinds are
    dotted hierarchies: `source.fixAll.sglang-lint` is a `source.fixAll`)."""
    return kind == asked or kind.startswith(asked + ".")


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def _file_lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            return stream.read(4 * 1024 * 1024).split("\n")
    except OSError:
        return [""]


def _key_position(message: str, lines: list[str]) -> tuple[int, int]:
    """Where a config error's key is written (its first mention), else the top."""
    import re

    for name in re.findall(r"'([^']+)'", message) + re.findall(r"key ([\w.-]+)", message):
        short = name.rsplit(".", 1)[-1]
        for number, text in enumerate(lines):
            column = text.find(short)
            if column != -1 and not text.lstrip().startswith("#"):
                return number, column
    return 0, 0


def build_server() -> SglangLanguageServer:
    server = SglangLanguageServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: SglangLanguageServer, params: types.InitializeParams) -> None:
        roots = [to_fs_path(folder.uri) for folder in params.workspace_folders or []]
        if not roots and params.root_uri:
            roots = [to_fs_path(params.root_uri)]
        options: dict[str, Any] = params.initialization_options if isinstance(params.initialization_options, dict) else {}
        debounce = options.get("debounce")
        if isinstance(debounce, (int, float)) and 0 <= debounce <= 10_000:
            ls.debounce_ms = float(debounce)
        # jobs=1: no fork pool from a thread of a process that has several.
        lint_options = LintOptions(cache=options.get("cache", True) is not False, reuse_findings=False, jobs=1)
        ls.linter = WorkspaceLinter([r for r in roots if r], lint_options)

    @server.feature(types.INITIALIZED)
    def initialized(ls: SglangLanguageServer, params: types.InitializedParams) -> None:
        ls.schedule(persist=True)
        # Files changed outside the editor (a git checkout, a generator) and config
        # files: ask the client to tell us, when it can watch files for us.
        workspace = ls.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace is not None else None
        if watched is not None and watched.dynamic_registration:
            ls.client_register_capability(
                types.RegistrationParams(
                    registrations=[
                        types.Registration(
                            id="sglang-lint-watched-files",
                            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                                watchers=[types.FileSystemWatcher(glob_pattern=pattern) for pattern in WATCHED_FILES]
                            ),
                        )
                    ]
                )
            )

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SglangLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(persist=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SglangLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule()

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SglangLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.schedule(persist=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SglangLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.schedule()  # the file on disk counts again

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def did_change_workspace_folders(ls: SglangLanguageServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        if ls.linter is None:
            return
        removed = {os.path.abspath(to_fs_path(folder.uri) or "") for folder in params.event.removed}
        roots = [root for root in ls.linter.roots if root not in removed]
        for folder in params.event.added:
            path = to_fs_path(folder.uri)
            if path and os.path.abspath(path) not in roots:
                roots.append(os.path.abspath(path))
        ls.linter.roots = roots
        ls.schedule(persist=True)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: SglangLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        ls.schedule(persist=True)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
    )
    def code_action(ls: SglangLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return ls.code_actions(params)

    return server


def main() -> int:
    logging.basicConfig(level=logging.WARNING)
    build_server().start_io()
    return 0
