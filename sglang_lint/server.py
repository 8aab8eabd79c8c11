"""``sglang-lint server``: the Language Server Protocol over stdio (pygls).

Editors get the same findings as ``sglang-lint check`` on every file kind it
reads (shell, Python, YAML, Markdown), as you type. The whole workspace is
analyzed, not the open file alone: a prefill and its decode usually live in two
files, and editing one re-checks the pair.

The workspace is an index kept in memory (:class:`WorkspaceLinter`, issue 24):
the first scan reads the folders in the background, in steps, reporting
work-done progress; a file opened before it ends is analyzed alone at once (its
pair findings follow with the index). An edit costs the edited file, the files
that read it and the cross-file stages, never a walk of the tree; a newer edit
abandons the analysis in progress (sglang_lint.interrupt). All analysis runs in
one thread, so requests are answered meanwhile. Diagnostics are pushed, or
pulled (LSP 3.17) by a client that says it pulls.

The protocol part (this module) only adapts: :class:`WorkspaceLinter` runs the
analysis and knows no LSP; diagnostics and code actions are built from its
findings and their metadata (code, URL, severity, related locations, fixes).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from sglang_lint import __version__, interrupt, launch_info
from sglang_lint.fixes import TextEdit, noqa_edit, resolve_fix
from sglang_lint.model import DISPLAY_ONLY, Finding, Location, Severity
from sglang_lint.pipeline import ANALYSIS_GC_THRESHOLD, LintOptions
from sglang_lint.workspace import Outcome, WorkspaceLinter

SOURCE = "sglang-lint"
# The code action kind of "fix all" (ruff's `source.fixAll.ruff`): the safe fixes only.
FIX_ALL = "source.fixAll.sglang-lint"
# What the analysis reads: launch files, configs, SGLang --config YAML files.
WATCHED_FILES = ("**/*.{sh,bash,py,yaml,yml,md,markdown,ipynb,toml}",)
# Milliseconds between the last change and the run it triggers.
DEFAULT_DEBOUNCE_MS = 50
# How long a pull for diagnostics waits for the analysis of the latest changes.
PULL_WAIT_S = 30.0

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
        self._last_change = float("-inf")  # the event loop's time of the latest change
        self.outcome = Outcome()
        # What the editor shows now: each file's diagnostics and their result id
        # (pull diagnostics), and the files that have some (push).
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.result_ids: dict[str, str] = {}
        self.published: set[str] = set()
        # The work waiting for the analysis thread (absolute paths).
        self._changed: set[str] = set()
        self._opened: dict[str, None] = {}
        self._scan_wanted = False
        self._persist_next = False
        self._wake: asyncio.Event | None = None
        self._pending: asyncio.TimerHandle | None = None
        self._worker: asyncio.Task | None = None
        self._executor = None
        self._busy = False  # the analysis thread is running a job
        self._background = False  # ... that a change abandons at once (the files reading an edited one)
        # Set when no analysis is waiting or running (pull requests wait for it).
        self._idle: asyncio.Event | None = None
        self._progress_token: str | None = None
        self.scans = 0  # how many scans ran (tests)
        self._stopping = False
        self._analyzed_versions: dict[str, int | None] = {}
        self.show_inlay_hints = True

    def stop_analysis(self) -> None:
        """At shutdown: abandon the analysis in progress and start no other (the
        process exits without waiting for a scan of a large tree)."""
        self._stopping = True
        interrupt.REQUESTED.set()
        if self._pending is not None:
            self._pending.cancel()
        if self._worker is not None:
            self._worker.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    # -- what the client can do ---------------------------------------------------
    @property
    def pulls(self) -> bool:
        """The client asks for diagnostics (LSP 3.17 pull) instead of being sent them."""
        document = self.client_capabilities.text_document
        return bool(document is not None and document.diagnostic is not None)

    def _refreshes(self) -> bool:
        workspace = self.client_capabilities.workspace
        return bool(workspace is not None and workspace.diagnostics is not None and workspace.diagnostics.refresh_support)

    def _refreshes_inlay_hints(self) -> bool:
        workspace = self.client_capabilities.workspace
        return bool(self.show_inlay_hints and workspace is not None and workspace.inlay_hint is not None and workspace.inlay_hint.refresh_support)

    def _shows_progress(self) -> bool:
        window = self.client_capabilities.window
        return bool(window is not None and window.work_done_progress)

    # -- work for the analysis thread ---------------------------------------------
    def buffers(self) -> dict[str, str]:
        """The open documents' texts (absolute path -> text), as an analysis
        about to start reads them; their versions are kept with them, so that
        its diagnostics are published for the version they were computed from
        (a later edit gets its own)."""
        open_documents = {}
        self._analyzed_versions = {}
        for uri, document in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path:
                open_documents[os.path.abspath(path)] = document.source
                self._analyzed_versions[uri] = document.version
        return open_documents

    def want_scan(self, *, persist: bool = False) -> None:
        """Discover the workspace's files again (the first time; files changed
        outside the editor; folders or configs changed)."""
        self._scan_wanted = True
        self._persist_next = self._persist_next or persist
        self.schedule(now=True)

    def changed(self, uri: str, *, opened: bool = False, persist: bool = False) -> None:
        """A document changed (opened, edited, saved, closed): analyze it, and
        the files that read it. A change after ``debounce_ms`` of quiet, with
        nothing being analyzed, is analyzed at once (a save, a paste, a quick
        fix: issue 24, an edit answered in 100 ms); changes in a burst (typing)
        wait for ``debounce_ms`` after the last one. An analysis in progress is
        abandoned: its result is for an older text."""
        path = to_fs_path(uri)
        if not path:
            return
        absolute = os.path.abspath(path)
        self._changed.add(absolute)
        if opened:
            self._opened[absolute] = None
        self._persist_next = self._persist_next or persist
        now = asyncio.get_event_loop().time()
        quiet = now - self._last_change >= self.debounce_ms / 1000
        self._last_change = now
        if self._busy:
            interrupt.REQUESTED.set()
        self.schedule(now=opened or (quiet and (not self._busy or self._background) and self._pending is None))

    def schedule(self, *, now: bool = False) -> None:
        """Wake the analysis loop, at once or ``debounce_ms`` after the last call."""
        if self._idle is not None:
            self._idle.clear()
        loop = asyncio.get_event_loop()
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self._worker is None:
            self._wake, self._idle = asyncio.Event(), asyncio.Event()
            self._worker = asyncio.ensure_future(self._loop())
        if now:
            self._wake.set()
        else:
            self._pending = loop.call_later(self.debounce_ms / 1000, self._debounced)

    def _debounced(self) -> None:
        self._pending = None
        if self._wake is not None:
            self._wake.set()

    async def _in_thread(self, job, *, background: bool = False):
        """Run ``job`` in the analysis thread (one: the sources' caches are not
        shared between threads); Cancelled when a newer change abandoned it.
        ``background``: work a change need not wait for (it is abandoned and
        done again after the change's own run)."""
        import concurrent.futures

        if self._executor is None:
            self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="sglang-lint-analysis")
        if self._stopping:
            raise asyncio.CancelledError()
        interrupt.REQUESTED.clear()
        self._busy, self._background = True, background
        try:
            return await asyncio.get_event_loop().run_in_executor(self._executor, job)
        finally:
            self._busy = self._background = False

    async def _loop(self) -> None:
        """The analysis loop: the opened files alone first (while the index is not
        ready), then a scan in steps (opened and edited files go between its
        steps), then the edits, each answered with the cross-file stages."""
        assert self._wake is not None and self._idle is not None
        while not self._stopping:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._drain()
            except Exception as error:  # noqa: BLE001 - the server outlives any one run
                if self._stopping:
                    return  # (the executor refuses new work at exit: nothing to tell)
                logger.exception("analysis failed")
                self.window_log_message(
                    types.LogMessageParams(type=types.MessageType.Error, message=f"sglang-lint: internal error: {type(error).__name__}: {error}; please report it")
                )
            if not (self._changed or self._scan_wanted or self._opened or (self.linter is not None and self.linter.readers_pending)):
                self._idle.set()

    async def _drain(self) -> None:
        linter = self.linter
        while linter is not None and (self._scan_wanted or self._changed or self._opened):
            if self._pending is not None and not self._scan_wanted and not self._opened:
                return  # an edit is being debounced: its timer wakes the loop
            if self._opened and not linter.ready:
                await self._lint_opened_alone(linter)
            elif self._scan_wanted:
                await self._scan(linter)
            elif self._changed:
                changed, self._changed = self._changed, set()
                self._opened.clear()
                buffers = self.buffers()
                try:
                    # The edited files first; the files that read them next.
                    outcome = await self._in_thread(lambda: linter.update(buffers, changed, readers=False))
                except interrupt.Cancelled:
                    self._changed |= changed
                    continue
                self.publish(outcome)
        while linter is not None and linter.ready and linter.readers_pending and not (self._changed or self._scan_wanted or self._opened):
            if not await self._quiet_for(self.debounce_ms / 1000):
                return  # an edit came: its run first, the readers after it
            try:
                outcome = await self._in_thread(linter.update_readers, background=True)
            except interrupt.Cancelled:
                return  # a newer change came: its run comes first, the readers after it
            if outcome is not self.outcome:  # (no reader: the edit's own, shown already)
                self.publish(outcome)

    async def _quiet_for(self, seconds: float) -> bool:
        """Wait ``seconds`` for a change; whether none came. The files that
        read an edited one are work no edit waits for: begun at once, they
        were still running (their cross-file stages cannot be abandoned
        midway) when the next keystroke of a burst came, and it waited for
        them (issue 24: 20-40 ms of each edit on SGLang's tree)."""
        assert self._wake is not None
        self._wake.clear()  # nothing is waiting to be analyzed (the caller checked)
        try:
            await asyncio.wait_for(self._wake.wait(), seconds)
        except asyncio.TimeoutError:
            pass  # (a change of a burst waits for its own timer)
        return not (self._changed or self._scan_wanted or self._opened)

    async def _lint_opened_alone(self, linter: WorkspaceLinter) -> None:
        """Each file opened before the index is ready, analyzed alone and shown at
        once (its pair findings come with the index)."""
        while self._opened:
            path = next(iter(self._opened))
            text = self.buffers().get(path)
            if text is None:
                self._opened.pop(path, None)
                continue
            try:
                outcome = await self._in_thread(lambda: linter.lint_alone(path, text))
            except interrupt.Cancelled:
                continue  # edited again meanwhile: once more with the new text
            self._opened.pop(path, None)
            if not linter.ready:
                self.publish(outcome, only=path)

    async def _scan(self, linter: WorkspaceLinter) -> None:
        self._scan_wanted = False
        persist, self._persist_next = self._persist_next, False
        self.scans += 1
        self._changed.clear()  # the scan reads every buffer as it is now
        buffers = self.buffers()
        steps = linter.scan(buffers, persist=persist)
        token = await self._begin_progress()
        gc.unfreeze()  # the index the last scan built is replaced
        try:
            while True:
                # (a cancelled file is the scan's to read again: it yields)
                step = await self._in_thread(lambda: next(steps, None))
                if step is None:
                    if linter.ready:
                        await self._in_thread(_settle_index)
                    break
                self._report_progress(token, *step)
                if self._opened and not linter.ready:
                    await self._lint_opened_alone(linter)
        finally:
            steps.close()
            self._end_progress(token)
        if linter.ready:
            # Edits made during the scan were read by it only if they came
            # before their file's turn: the changed files once more.
            changed, self._changed = self._changed, set()
            self._opened.clear()
            if changed:
                buffers = self.buffers()
                outcome = await self._in_thread(lambda: linter.update(buffers, changed))
            else:
                outcome = await self._in_thread(linter.outcome)
            self.publish(outcome)

    # -- progress -----------------------------------------------------------------
    async def _begin_progress(self) -> str | None:
        if not self._shows_progress():
            return None
        token = f"sglang-lint-scan-{self.scans}"
        try:
            await asyncio.wait_for(self.work_done_progress.create_async(token), 5)
        except Exception:  # noqa: BLE001 - a client that refuses gets no progress
            return None
        self.work_done_progress.begin(token, types.WorkDoneProgressBegin(title="sglang-lint", message="reading the workspace", percentage=0, cancellable=False))
        return token

    def _report_progress(self, token: str | None, done: int, total: int) -> None:
        if token is None:
            return
        percentage = 100 * done // total if total else 100
        self.work_done_progress.report(token, types.WorkDoneProgressReport(message=f"{done}/{total} files", percentage=percentage))

    def _end_progress(self, token: str | None) -> None:
        if token is not None:
            self.work_done_progress.end(token, types.WorkDoneProgressEnd(message="done"))

    async def wait_idle(self, timeout: float) -> None:
        """Until no analysis is waiting or running (at most ``timeout`` s)."""
        if self._idle is None or self._idle.is_set():
            return
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except asyncio.TimeoutError:
            pass

    # -- diagnostics ----------------------------------------------------------------
    def publish(self, outcome: Outcome, only: str | None = None) -> None:
        """Show ``outcome``: the diagnostics of every file (``only``: of that file
        alone, an opened file analyzed alone), pushed where they changed (and
        to every open document, for its current version), or announced by a
        refresh to a client that pulls them."""
        if only is None:
            self.outcome = outcome
        else:
            self.outcome.with_file(outcome, only)
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
            if only is not None and path != only:
                continue
            uri = from_fs_path(path) or path
            by_uri[uri] = [self.diagnostic(finding) for finding in findings]
        if only is not None:
            uri = from_fs_path(only) or only
            by_uri.setdefault(uri, [])
            gone: set[str] = set()
        else:
            gone = set(self.diagnostics) - set(by_uri)
        changed: list[str] = []
        for uri in gone:
            del self.diagnostics[uri]
            self.result_ids[uri] = _result_id([])
            changed.append(uri)
        for uri, diagnostics in by_uri.items():
            if self.diagnostics.get(uri) != diagnostics or uri not in self.result_ids:
                changed.append(uri)
            if diagnostics:
                self.diagnostics[uri] = diagnostics
            else:
                self.diagnostics.pop(uri, None)
            self.result_ids[uri] = _result_id(diagnostics)
        if self._refreshes_inlay_hints():
            self.workspace_inlay_hint_refresh(None)
        if self.pulls:
            if changed and self._refreshes():
                self.workspace_diagnostic_refresh(None)
            return
        # Every open document gets an answer for its current version, even an
        # empty one: the editor learns that this version was checked.
        push = set(changed) | set(self.workspace.text_documents)
        if only is not None:
            push = {uri for uri in push if uri == (from_fs_path(only) or only)}
        for uri in sorted(push):
            document = self.workspace.text_documents.get(uri)
            diagnostics = self.diagnostics.get(uri, [])
            if not diagnostics and uri not in self.published and document is None:
                continue
            version = self._analyzed_versions.get(uri) if document is not None else None
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))
        self.published = {uri for uri in self.diagnostics}

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

    # -- what was resolved: hover, inlay hints, definition ----------------------------
    def _position(self, uri: str, position: types.Position) -> tuple[str, int, int] | None:
        """The absolute path, and the 1-based line and code-point column, of a
        client position (UTF-16 unless the client chose another encoding)."""
        path = to_fs_path(uri)
        if not path:
            return None
        absolute = os.path.abspath(path)
        lines = self.lines_of(absolute)
        converted = self.workspace.position_codec.position_from_client_units(lines, position)
        return absolute, converted.line + 1, converted.character + 1

    def hover(self, params: types.HoverParams) -> types.Hover | None:
        where = self._position(params.text_document.uri, params.position)
        if where is None:
            return None
        found = launch_info.hover(self.outcome.deployments, *where)
        if found is None:
            return None
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=found.markdown),
            range=self.location_range(found.location),
        )

    def inlay_hints(self, params: types.InlayHintParams) -> list[types.InlayHint]:
        path = to_fs_path(params.text_document.uri)
        if not path or not self.show_inlay_hints:
            return []
        absolute = os.path.abspath(path)
        lines = self.lines_of(absolute)
        hints = []
        for hint in launch_info.inlay_hints(self.outcome.deployments, absolute, lines):
            if not params.range.start.line <= hint.line - 1 <= params.range.end.line:
                continue
            position = self._range(lines, hint.line - 1, hint.column - 1, hint.line - 1, hint.column - 1).start
            hints.append(types.InlayHint(position=position, label=hint.label, tooltip=hint.tooltip, padding_left=True))
        return hints

    def definition(self, params: types.DefinitionParams) -> types.Location | None:
        where = self._position(params.text_document.uri, params.position)
        if where is None:
            return None
        found = launch_info.definition(self.outcome.deployments, *where)
        if found is None:
            return None
        return types.Location(uri=from_fs_path(os.path.abspath(found.path)) or found.path, range=self.location_range(found))

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


def _result_id(diagnostics: list[types.Diagnostic]) -> str:
    """What a pulling client sends back to learn that nothing changed: a digest
    of the diagnostics (the same diagnostics, the same id, across runs)."""
    import hashlib

    return hashlib.blake2b(repr(diagnostics).encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def _is_config_file(path: str) -> bool:
    """A file whose change may change which files are analyzed, or how."""
    name = os.path.basename(path)
    return name in ("sglang-lint.toml", ".sglang-lint.toml", "pyproject.toml", ".gitignore", ".ignore") or path.replace(os.sep, "/").endswith("/.git/info/exclude")


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
        ls.show_inlay_hints = options.get("inlayHints", True) is not False
        debounce = options.get("debounce")
        if isinstance(debounce, (int, float)) and 0 <= debounce <= 10_000:
            ls.debounce_ms = float(debounce)
        # jobs=1: no fork pool from a thread of a process that has several.
        lint_options = LintOptions(cache=options.get("cache", True) is not False, reuse_findings=False, jobs=1)
        ls.linter = WorkspaceLinter([r for r in roots if r], lint_options)

    @server.feature(types.INITIALIZED)
    def initialized(ls: SglangLanguageServer, params: types.InitializedParams) -> None:
        ls.want_scan(persist=True)
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

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: SglangLanguageServer, params: None) -> None:
        ls.stop_analysis()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SglangLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, opened=True, persist=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SglangLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SglangLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, persist=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SglangLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)  # the file on disk counts again

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
        ls.want_scan(persist=True)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: SglangLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        # A file changed on disk is read again (with the files that read it); a
        # file created or deleted, or a config changed, changes what the
        # workspace holds: discovered again (unchanged files are not re-read).
        for event in params.changes:
            path = to_fs_path(event.uri) or ""
            if event.type != types.FileChangeType.Changed or _is_config_file(path):
                ls.want_scan(persist=True)
                return
        for event in params.changes:
            if event.uri not in ls.workspace.text_documents:  # an open buffer is what counts
                ls.changed(event.uri, persist=True)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=True),
    )
    async def document_diagnostic(ls: SglangLanguageServer, params: types.DocumentDiagnosticParams):
        await ls.wait_idle(PULL_WAIT_S)
        uri = params.text_document.uri
        result_id = ls.result_ids.get(uri) or _result_id([])
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=ls.diagnostics.get(uri, []), result_id=result_id)

    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(ls: SglangLanguageServer, params: types.WorkspaceDiagnosticParams):
        await ls.wait_idle(PULL_WAIT_S)
        previous = {item.uri: item.value for item in params.previous_result_ids}
        items: list = []
        for uri in sorted(set(ls.diagnostics) | set(previous)):
            result_id = ls.result_ids.get(uri) or _result_id([])
            document = ls.workspace.text_documents.get(uri)
            version = document.version if document else None
            if previous.get(uri) == result_id:
                items.append(types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, version=version, result_id=result_id))
            else:
                items.append(types.WorkspaceFullDocumentDiagnosticReport(uri=uri, version=version, items=ls.diagnostics.get(uri, []), result_id=result_id))
        return types.WorkspaceDiagnosticReport(items=items)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: SglangLanguageServer, params: types.HoverParams) -> types.Hover | None:
        return ls.hover(params)

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    def inlay_hint(ls: SglangLanguageServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        return ls.inlay_hints(params)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: SglangLanguageServer, params: types.DefinitionParams) -> types.Location | None:
        return ls.definition(params)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
    )
    def code_action(ls: SglangLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return ls.code_actions(params)

    return server


def _settle_index() -> None:
    """Keep the cycle collector off what the scan built (issue 24). The
    index of SGLang's tree is ~150 MB of objects that live until the next
    scan; each full collection walked all of them, ~190 ms, and one came
    every few edits: the edits' p95 was 390 ms where their median was 180.
    Collected once, then frozen (gc.freeze: kept out of every later
    collection; an edit's analysis, its own objects, is still collected).
    Unfrozen before the next scan replaces it."""
    gc.collect()
    gc.freeze()


def main() -> int:
    logging.basicConfig(level=logging.WARNING)
    # The server's work is analyses: their collector thresholds.
    gc.set_threshold(*ANALYSIS_GC_THRESHOLD)
    build_server().start_io()
    return 0
