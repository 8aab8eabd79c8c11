"""The VS Code extension of editors/vscode.

Without npm or node: its package.json against the Python package (version,
license) and against extension.js (the settings, commands and languages the code
uses are the ones declared). With node: extension.js parses, and its activate()
runs against a stand-in `vscode` module and LanguageClient, which records the
server command, the document selector and the messages. With pygls: that command's
arguments start the real server, which answers `initialize`.

SLOW (about 10-30 s, most of it `npm ci` fetching @vscode/vsce's dependencies):
the extension is packaged for real, `npm ci` then `vsce package` in a copy of
editors/vscode, and the .vsix is opened. Skipped without npm and node, or when the
registry cannot be reached (`npm ping` fails with a network error and npm's cache
lacks packages, or `npm ci` fails with one; the skip reason is npm's error line);
any other failure, of `npm ci` or of packaging, fails.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import sglang_lint

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "editors" / "vscode"
MANIFEST = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
SOURCE = (EXTENSION / "extension.js").read_text(encoding="utf-8")
PROPERTIES = MANIFEST["contributes"]["configuration"]["properties"]
SECTION = "sglang-lint"
LANGUAGES = {"shellscript", "python", "yaml", "markdown"}

NODE = shutil.which("node")
NPM = shutil.which("npm")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (the VS Code extension's tests need it)")

# npm's error codes for a registry it cannot reach (DNS, refused, reset, timed out,
# no route, a proxy's refusal, the registry's own 5xx).
_OFFLINE = re.compile(
    r"\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ESOCKETTIMEDOUT|ERR_SOCKET_TIMEOUT|ENETUNREACH|"
    r"EHOSTUNREACH|ENETDOWN|EPROXY|E50[0-4])\b|npm (ERR!|error) network"
)
# npm's own network retries and timeouts, well inside the subprocess timeouts below.
_NPM_ENV = {
    "npm_config_fetch_retries": "1",
    "npm_config_fetch_retry_mintimeout": "1000",
    "npm_config_fetch_retry_maxtimeout": "5000",
    "npm_config_fetch_timeout": "60000",
    "npm_config_update_notifier": "false",
    "npm_config_audit": "false",
    "npm_config_fund": "false",
}
NPM_CI_TIMEOUT = 180
VSCE_TIMEOUT = 120


# --- package.json ---------------------------------------------------------------


def test_manifest_matches_the_python_package() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    license_text = re.search(r'^license\s*=\s*\{\s*text\s*=\s*"([^"]+)"', pyproject, re.MULTILINE)
    assert license_text is not None
    assert MANIFEST["name"] == SECTION
    assert MANIFEST["version"] == sglang_lint.__version__
    assert MANIFEST["license"] == license_text.group(1)
    assert MANIFEST["publisher"] and MANIFEST["displayName"] and MANIFEST["description"]
    assert MANIFEST["repository"]["url"].startswith("https://github.com/")
    assert MANIFEST["main"] == "./extension.js"
    assert MANIFEST["engines"]["vscode"].startswith("^1.")
    # vscode-languageclient 9 (LanguageClient.start/dispose as extension.js uses them),
    # packaged with the extension; vsce only to build it.
    assert MANIFEST["dependencies"]["vscode-languageclient"].startswith("^9.")
    assert "@vscode/vsce" in MANIFEST["devDependencies"]
    assert (EXTENSION / "package-lock.json").is_file()
    assert (EXTENSION / "LICENSE").read_text(encoding="utf-8").lstrip().startswith("Apache License")


def test_activation_events_are_the_languages_and_the_config_file() -> None:
    events = MANIFEST["activationEvents"]
    assert {event.removeprefix("onLanguage:") for event in events if event.startswith("onLanguage:")} == LANGUAGES
    assert "workspaceContains:**/sglang-lint.toml" in events
    # The code's document selector names the same languages.
    selector = re.search(r"const LANGUAGES = \[([^\]]*)\]", SOURCE)
    assert selector is not None
    assert set(re.findall(r"'([^']+)'", selector.group(1))) == LANGUAGES


def test_settings_are_declared_with_the_servers_defaults() -> None:
    assert PROPERTIES["sglang-lint.path"]["type"] == "string"
    assert PROPERTIES["sglang-lint.path"]["default"] == "sglang-lint"
    assert PROPERTIES["sglang-lint.args"]["default"] == ["server"]
    options = PROPERTIES["sglang-lint.initializationOptions"]
    assert options["type"] == "object"
    # The options the server reads in its initialize handler (sglang_lint/server.py).
    assert set(options["properties"]) == {"debounce", "cache"}
    server = (ROOT / "sglang_lint" / "server.py").read_text(encoding="utf-8")
    for name in options["properties"]:
        assert f'options.get("{name}"' in server, name


def test_the_code_uses_only_declared_settings_and_commands() -> None:
    assert "getConfiguration(SECTION)" in SOURCE and f"const SECTION = '{SECTION}'" in SOURCE
    read = set(re.findall(r"\.get\(\s*'([\w.]+)'", SOURCE))
    assert read == {"path", "args", "initializationOptions"}
    for name in read:
        assert f"{SECTION}.{name}" in PROPERTIES, name
    restarting = re.search(r"const SERVER_SETTINGS = \[([^\]]*)\]", SOURCE)
    assert restarting is not None
    for name in re.findall(r"'([^']+)'", restarting.group(1)):
        assert f"{SECTION}.{name}" in PROPERTIES, name
    registered = set(re.findall(r"registerCommand\(\s*'([^']+)'", SOURCE))
    assert registered == {command["command"] for command in MANIFEST["contributes"]["commands"]} == {"sglang-lint.restart"}
    # The settings a workspace may not set while untrusted exist.
    for name in MANIFEST["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"]:
        assert name in PROPERTIES, name


# --- extension.js under node ----------------------------------------------------

# activate() against stand-ins: `vscode` returns each setting's package.json default
# (and records which were read), LanguageClient records what it was given. Prints
# one JSON object. argv: the extension directory, then what to do after activate
# ("restart" runs the restart command, then deactivate).
_HARNESS = r"""
const Module = require('module');
const path = require('path');
const [extensionDir, scenario] = process.argv.slice(2);
const manifest = require(path.join(extensionDir, 'package.json'));
const properties = manifest.contributes.configuration.properties;
const record = { read: [], commands: [], errors: [], clients: [] };

const vscode = {
  workspace: {
    workspaceFolders: [{ uri: { scheme: 'file', fsPath: process.cwd() }, name: 'w', index: 0 }],
    getConfiguration(section) {
      return {
        get(name) {
          record.read.push(`${section}.${name}`);
          const property = properties[`${section}.${name}`];
          return property === undefined ? undefined : JSON.parse(JSON.stringify(property.default));
        },
      };
    },
    onDidChangeConfiguration: () => ({ dispose() {} }),
    onDidGrantWorkspaceTrust: () => ({ dispose() {} }),
  },
  window: {
    createOutputChannel: () => ({ appendLine() {}, append() {}, show() {}, dispose() {} }),
    showErrorMessage: async (message, ...items) => { record.errors.push({ message, items }); return undefined; },
  },
  commands: {
    handlers: {},
    registerCommand(id, handler) { record.commands.push(id); this.handlers[id] = handler; return { dispose() {} }; },
    executeCommand: async () => undefined,
  },
};

class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    this.entry = {
      id, name, serverOptions,
      documentSelector: clientOptions.documentSelector,
      initializationOptions: clientOptions.initializationOptions,
      hasOutputChannel: clientOptions.outputChannel !== undefined,
      started: false, disposed: false,
    };
    record.clients.push(this.entry);
  }
  async start() { this.entry.started = true; }
  async dispose() { this.entry.disposed = true; }
}
const languageClient = { LanguageClient, RevealOutputChannelOn: { Info: 1, Warn: 2, Error: 3, Never: 4 } };

const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'vscode') return vscode;
  if (request === 'vscode-languageclient/node') return languageClient;
  return load.call(this, request, parent, isMain);
};

(async () => {
  const extension = require(path.join(extensionDir, manifest.main));
  const subscriptions = [];
  await extension.activate({ subscriptions });
  record.subscriptions = subscriptions.length;
  if (scenario === 'restart') {
    await vscode.commands.handlers['sglang-lint.restart']();
    await extension.deactivate();
  }
  process.stdout.write(JSON.stringify(record));
})().catch((error) => { console.error(error && error.stack || error); process.exit(1); });
"""


def _activate(tmp_path: Path, path_dirs: list[Path], scenario: str = "") -> dict:
    harness = tmp_path / "harness.js"
    harness.write_text(_HARNESS, encoding="utf-8")
    env = {**os.environ, "PATH": os.pathsep.join(str(d) for d in path_dirs)}
    workspace = tmp_path / "workspace"
    workspace.mkdir(exist_ok=True)
    done = subprocess.run(
        [NODE, str(harness), str(EXTENSION), scenario], cwd=workspace, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@needs_node
def test_extension_js_parses() -> None:
    done = subprocess.run([NODE, "--check", str(EXTENSION / "extension.js")], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


@needs_node
@pytest.mark.skipif(sys.platform == "win32", reason="the stand-in executable is a shell script")
def test_activate_starts_the_declared_server_command(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    executable = bin_dir / "sglang-lint"
    executable.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    executable.chmod(0o755)

    record = _activate(tmp_path, [bin_dir], "restart")

    assert record["errors"] == []
    assert set(record["read"]) <= set(PROPERTIES)
    assert {"sglang-lint.path", "sglang-lint.args", "sglang-lint.initializationOptions"} <= set(record["read"])
    assert record["commands"] == ["sglang-lint.restart"]
    assert record["subscriptions"] >= 3  # the output channel, the command, the settings watch
    first, second = record["clients"]  # activate, then the restart command
    assert first["disposed"] and second["started"] and second["disposed"]  # deactivate stops it
    assert first["id"] == SECTION and first["hasOutputChannel"]
    server = first["serverOptions"]
    # `sglang-lint.path` looked up on PATH; `sglang-lint.args` as they are. No
    # `transport`: TransportKind.stdio makes vscode-languageclient append `--stdio`,
    # an argument `sglang-lint server` refuses.
    assert server["command"] == str(executable)
    assert server["args"] == PROPERTIES["sglang-lint.args"]["default"] == ["server"]
    assert "transport" not in server
    assert first["initializationOptions"] == PROPERTIES["sglang-lint.initializationOptions"]["default"]
    selector = first["documentSelector"]
    assert all(entry["scheme"] == "file" for entry in selector)
    assert {entry["language"] for entry in selector} == LANGUAGES
    activation = {e.removeprefix("onLanguage:") for e in MANIFEST["activationEvents"] if e.startswith("onLanguage:")}
    assert activation == LANGUAGES


@needs_node
def test_a_missing_executable_says_how_to_install_it(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    record = _activate(tmp_path, [empty])
    assert record["clients"] == []  # nothing started, no second error from the client
    (error,) = record["errors"]
    assert "pip install 'sglang-lint[lsp]'" in error["message"]
    assert "sglang-lint.path" in error["message"]
    assert error["items"] == ["Open Settings"]


@pytest.mark.skipif(importlib.util.find_spec("pygls") is None, reason="the language server needs pygls (pip install -e '.[test]')")
def test_the_declared_arguments_start_the_server(tmp_path: Path) -> None:
    """`sglang-lint <args>` as the extension spawns it answers initialize over stdio."""

    def frame(message: dict) -> bytes:
        body = json.dumps(message).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "processId": None,
                "rootUri": tmp_path.as_uri(),
                "workspaceFolders": [{"uri": tmp_path.as_uri(), "name": "w"}],
                "capabilities": {},
                "initializationOptions": {"debounce": 10, "cache": False},
            },
        },
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None},
    ]
    args = PROPERTIES["sglang-lint.args"]["default"]
    done = subprocess.run(
        [sys.executable, "-m", "sglang_lint", *args],
        input=b"".join(frame(m) for m in messages),
        cwd=tmp_path,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    replies = []
    data = done.stdout
    while data:
        header, _, rest = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", header).group(1))
        replies.append(json.loads(rest[:length]))
        data = rest[length:]
    initialize = next(reply for reply in replies if reply.get("id") == 1)
    assert "capabilities" in initialize["result"], initialize


# --- npm ci && vsce package -----------------------------------------------------


def _run(command: list[str], cwd: Path, timeout: int) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(
            command, cwd=cwd, env={**os.environ, **_NPM_ENV}, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False
        )
    except subprocess.TimeoutExpired as timeout_error:
        pytest.fail(f"{' '.join(command)} took more than {timeout} s:\n{timeout_error.stderr or ''}")


def _npm_error(text: str) -> str:
    """npm's error in one line: the failed request and its reason when there is one,
    else the last error line (not the pointer to the debug log)."""
    lines = [re.sub(r"^npm (error|ERR!)\s*", "", line).strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("A complete log of this run")]
    reasons = [line for line in lines if "reason:" in line]
    return (reasons or lines or ["(no output)"])[-1]


@pytest.fixture(scope="module")
def vsix(tmp_path_factory) -> Path:
    if NPM is None or NODE is None:
        pytest.skip("npm and node are needed to package the VS Code extension")
    work = tmp_path_factory.mktemp("vscode-extension")
    copy = work / "vscode"
    shutil.copytree(EXTENSION, copy, ignore=shutil.ignore_patterns("node_modules", "*.vsix"))

    # An unreachable registry makes `npm ci` try every tarball (minutes): ask first.
    # Unreachable, the packages may still be in npm's cache (--offline uses only it).
    ping = _run([NPM, "ping"], copy, 60)
    unreachable = _npm_error(ping.stderr + ping.stdout) if ping.returncode != 0 and _OFFLINE.search(ping.stderr + ping.stdout) else None
    # --ignore-scripts: @vscode/vsce-sign's postinstall fetches a signing tool that
    # packaging does not use.
    command = [NPM, "ci", "--no-audit", "--no-fund", "--ignore-scripts", *(["--offline"] if unreachable else [])]
    installed = _run(command, copy, NPM_CI_TIMEOUT)
    if installed.returncode != 0:
        output = installed.stderr + installed.stdout
        if unreachable is not None:
            pytest.skip(f"npm cannot reach the registry ({unreachable}) and its cache lacks packages")
        if _OFFLINE.search(output):
            pytest.skip(f"npm ci cannot reach the registry: {_npm_error(output)}")
        pytest.fail(f"npm ci failed:\n{output}")

    vsce = copy / "node_modules" / ".bin" / ("vsce.cmd" if sys.platform == "win32" else "vsce")
    assert vsce.exists(), "npm ci did not install @vscode/vsce"
    out = work / "sglang-lint.vsix"
    packaged = _run([str(vsce), "package", "--out", str(out)], copy, VSCE_TIMEOUT)
    assert packaged.returncode == 0, f"vsce package failed:\n{packaged.stdout}\n{packaged.stderr}"
    assert out.is_file(), packaged.stdout
    return out


def test_vsix_holds_the_extension_and_its_runtime_dependencies(vsix: Path) -> None:
    with zipfile.ZipFile(vsix) as archive:
        names = set(archive.namelist())
        packaged_manifest = json.loads(archive.read("extension/package.json"))
        packaged_source = archive.read("extension/extension.js").decode("utf-8")
        languageclient = json.loads(archive.read("extension/node_modules/vscode-languageclient/package.json"))
    assert {"extension/package.json", "extension/extension.js", "extension/readme.md", "extension/LICENSE.txt"} <= names
    assert "extension/node_modules/vscode-languageclient/node.js" in names
    assert "extension/node_modules/vscode-languageclient/lib/node/main.js" in names
    assert languageclient["version"].startswith("9.")
    # Every runtime dependency of the client is in the package (hoisted or nested
    # under it); the build tool is not.
    for dependency in languageclient["dependencies"]:
        assert (
            f"extension/node_modules/{dependency}/package.json" in names
            or f"extension/node_modules/vscode-languageclient/node_modules/{dependency}/package.json" in names
        ), dependency
    assert not any(name.startswith("extension/node_modules/@vscode/vsce") for name in names)
    assert not any(name.endswith(".vsix") for name in names)
    # What VS Code reads is what the code expects.
    assert packaged_source == SOURCE
    assert packaged_manifest["main"] == MANIFEST["main"] == "./extension.js"
    assert packaged_manifest["activationEvents"] == MANIFEST["activationEvents"]
    assert packaged_manifest["contributes"] == MANIFEST["contributes"]
    assert packaged_manifest["version"] == sglang_lint.__version__


def test_packaged_client_loads_from_the_vsix(vsix: Path, tmp_path: Path) -> None:
    """The packaged node_modules resolve: vscode-languageclient/node loads (with a
    stand-in `vscode` module) and exports what extension.js takes from it."""
    with zipfile.ZipFile(vsix) as archive:
        archive.extractall(tmp_path)
    extension_dir = tmp_path / "extension"
    done = subprocess.run([NODE, "--check", str(extension_dir / "extension.js")], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    script = r"""
const Module = require('module');
// Any property of the stand-in is another stand-in, callable and constructible.
const standIn = () => new Proxy(function () {}, {
  get: (target, key) => (key === Symbol.toPrimitive ? () => '' : key === 'then' ? undefined : standIn()),
  apply: () => standIn(),
  construct: () => standIn(),
});
const load = Module._load;
Module._load = function (request, parent, isMain) {
  return request === 'vscode' ? standIn() : load.call(this, request, parent, isMain);
};
const client = require(require.resolve('vscode-languageclient/node', { paths: [process.argv[2]] }));
process.stdout.write(JSON.stringify({
  LanguageClient: typeof client.LanguageClient,
  Never: client.RevealOutputChannelOn && client.RevealOutputChannelOn.Never,
}));
"""
    loader = tmp_path / "load_client.js"
    loader.write_text(script, encoding="utf-8")
    done = subprocess.run([NODE, str(loader), str(extension_dir)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"LanguageClient": "function", "Never": 4}
