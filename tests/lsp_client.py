"""A minimal LSP client: drives ``sglang-lint server`` over stdio the way an
editor does (JSON-RPC with Content-Length framing). Used by tests/test_server.py
and benchmarks/lsp_latency.py."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable


def uri(path: str | os.PathLike[str]) -> str:
    return Path(path).resolve().as_uri()


class LspClient:
    def __init__(self, cwd: str | os.PathLike[str], *, command: list[str] | None = None, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "sglang_lint", "server"],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.notifications: list[dict[str, Any]] = []
        self.server_requests: list[dict[str, Any]] = []
        self.responses: dict[int, dict[str, Any]] = {}
        self.next_id = 1
        self.versions: dict[str, int] = {}
        threading.Thread(target=self._read, daemon=True).start()

    # -- transport ------------------------------------------------------------------
    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    return
                header = header.strip()
                if not header:
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                continue
            self.messages.put(json.loads(stream.read(length)))

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _pump(self, timeout: float) -> bool:
        try:
            message = self.messages.get(timeout=timeout)
        except queue.Empty:
            return False
        if "id" in message and "method" not in message:
            self.responses[message["id"]] = message
        elif "id" in message:  # a request from the server (e.g. registerCapability)
            self.server_requests.append(message)
            self._send({"id": message["id"], "result": None})
        else:
            self.notifications.append(message)
        return True

    # -- requests and notifications ---------------------------------------------------
    def request(self, method: str, params: Any = None, timeout: float = 30) -> Any:
        identifier = self.next_id
        self.next_id += 1
        self._send({"id": identifier, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while identifier not in self.responses:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no response to {method} in {timeout}s; stderr: {self.stderr_tail()}")
            self._pump(0.05)
        response = self.responses.pop(identifier)
        if "error" in response:
            raise RuntimeError(f"{method}: {response['error']}")
        return response.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def initialize(
        self, root: str | os.PathLike[str], initialization_options: dict[str, Any] | None = None, *, watch_files: bool = False
    ) -> Any:
        capabilities: dict[str, Any] = {"textDocument": {"publishDiagnostics": {"relatedInformation": True, "codeDescriptionSupport": True}}}
        if watch_files:
            capabilities["workspace"] = {"didChangeWatchedFiles": {"dynamicRegistration": True}}
        result = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": uri(root),
                "workspaceFolders": [{"uri": uri(root), "name": Path(root).name}],
                "capabilities": capabilities,
                "initializationOptions": initialization_options or {},
            },
        )
        self.notify("initialized", {})
        return result

    def open(self, path: str | os.PathLike[str], text: str | None = None, language: str = "shellscript") -> str:
        document = uri(path)
        self.versions[document] = 1
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": document, "languageId": language, "version": 1, "text": Path(path).read_text() if text is None else text}},
        )
        return document

    def change(self, path: str | os.PathLike[str], text: str) -> int:
        document = uri(path)
        self.versions[document] = self.versions.get(document, 1) + 1
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": document, "version": self.versions[document]}, "contentChanges": [{"text": text}]},
        )
        return self.versions[document]

    def save(self, path: str | os.PathLike[str]) -> None:
        self.notify("textDocument/didSave", {"textDocument": {"uri": uri(path)}})

    def close(self, path: str | os.PathLike[str]) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri(path)}})

    def diagnostics(
        self,
        document: str,
        predicate: Callable[[list[dict[str, Any]]], bool] = lambda diagnostics: True,
        timeout: float = 30,
        after: int = 0,
        version: int | None = None,
    ) -> list[dict[str, Any]]:
        """The diagnostics of the first publication for ``document`` (among the
        notifications from index ``after`` on, of document ``version`` when
        given) that satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        index = after
        while True:
            while index < len(self.notifications):
                message = self.notifications[index]
                index += 1
                if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == document:
                    if version is not None and message["params"].get("version") != version:
                        continue
                    if predicate(message["params"]["diagnostics"]):
                        return message["params"]["diagnostics"]
            if time.monotonic() > deadline:
                raise TimeoutError(f"no matching diagnostics for {document}; stderr: {self.stderr_tail()}")
            self._pump(0.05)

    def wait_for(self, condition: Callable[[], bool], timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"condition not met in {timeout}s; stderr: {self.stderr_tail()}")
            self._pump(0.05)

    def mark(self) -> int:
        """An index into the notifications: later waits look only past it."""
        while self._pump(0):
            pass
        return len(self.notifications)

    def stderr_tail(self) -> str:
        if self.process.poll() is None:
            return "(running)"
        assert self.process.stderr is not None
        return self.process.stderr.read().decode("utf-8", "replace")[-2000:]

    def shutdown(self) -> int:
        self.request("shutdown")
        self.notify("exit", None)
        try:
            return self.process.wait(timeout=10)
        finally:
            self.kill()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
