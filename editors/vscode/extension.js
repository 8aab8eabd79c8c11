// The sglang-lint extension for VS Code: starts `sglang-lint server` (the
// language server of the Python package, LSP over stdio) with
// vscode-languageclient and shows its diagnostics and quick fixes in shell
// scripts, Python, YAML and Markdown files. Plain JavaScript: no build step.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const { LanguageClient, RevealOutputChannelOn } = require('vscode-languageclient/node');

const SECTION = 'sglang-lint';
const LANGUAGES = ['shellscript', 'python', 'yaml', 'markdown'];
// The settings that change how the server is started: changing one restarts it.
const SERVER_SETTINGS = ['path', 'args', 'initializationOptions'];
const INSTALL_HINT = "pip install 'sglang-lint[lsp]'";

let client;
let outputChannel;
// Starts and stops one at a time (a settings change during a restart waits).
let pending = Promise.resolve();

function firstFolder() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length > 0 && folders[0].uri.scheme === 'file' ? folders[0].uri.fsPath : undefined;
}

// The configured executable as a path or a bare name: `${workspaceFolder}` and a
// leading `~/` expanded, a relative path with a separator taken from the first
// workspace folder (`.venv/bin/sglang-lint`).
function commandPath(configured, folder) {
  let command = configured.trim();
  if (folder !== undefined) {
    command = command.split('${workspaceFolder}').join(folder);
  }
  if (command === '~' || command.startsWith('~/') || command.startsWith('~\\')) {
    command = path.join(os.homedir(), command.slice(1));
  }
  const hasSeparator = command.includes('/') || (process.platform === 'win32' && command.includes('\\'));
  if (hasSeparator && !path.isAbsolute(command) && folder !== undefined) {
    command = path.resolve(folder, command);
  }
  return command;
}

function isExecutableFile(candidate) {
  try {
    if (!fs.statSync(candidate).isFile()) {
      return false;
    }
    if (process.platform !== 'win32') {
      fs.accessSync(candidate, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

// The file the server would be spawned from, or undefined: a path is checked as
// it is, a bare name is looked up on PATH (with PATHEXT on Windows), as spawn does.
function findExecutable(command) {
  const extensions = process.platform === 'win32'
    ? ['', ...(process.env.PATHEXT || '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)]
    : [''];
  const hasSeparator = command.includes('/') || (process.platform === 'win32' && command.includes('\\'));
  if (hasSeparator || path.isAbsolute(command)) {
    return extensions.map((extension) => command + extension).find(isExecutableFile);
  }
  for (const directory of (process.env.PATH || '').split(path.delimiter)) {
    if (!directory) {
      continue;
    }
    for (const extension of extensions) {
      const candidate = path.join(directory, command + extension);
      if (isExecutableFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

async function notFound(configured) {
  const choice = await vscode.window.showErrorMessage(
    `sglang-lint: the language server executable "${configured}" was not found. ` +
      `Install it with \`${INSTALL_HINT}\` in a Python environment on VS Code's PATH, ` +
      'or set "sglang-lint.path" to the executable (e.g. .venv/bin/sglang-lint).',
    'Open Settings'
  );
  if (choice === 'Open Settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'sglang-lint.path');
  }
}

async function startClient() {
  const config = vscode.workspace.getConfiguration(SECTION);
  const configured = config.get('path') || 'sglang-lint';
  const setArgs = config.get('args');
  const args = Array.isArray(setArgs) ? setArgs.map(String) : ['server'];
  const setOptions = config.get('initializationOptions');
  const initializationOptions = setOptions !== null && typeof setOptions === 'object' ? setOptions : {};
  const folder = firstFolder();

  const executable = findExecutable(commandPath(configured, folder));
  if (executable === undefined) {
    void notFound(configured);
    return;
  }

  // No `transport`: TransportKind.stdio would append `--stdio` to the arguments,
  // which `sglang-lint server` does not take. Without it the client still speaks
  // over the process's stdin and stdout.
  const serverOptions = {
    command: executable,
    args,
    options: folder !== undefined ? { cwd: folder } : {},
  };
  const clientOptions = {
    documentSelector: LANGUAGES.map((language) => ({ scheme: 'file', language })),
    initializationOptions,
    diagnosticCollectionName: SECTION,
    outputChannel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
  };

  const started = new LanguageClient(SECTION, 'sglang-lint', serverOptions, clientOptions);
  client = started;
  try {
    await started.start();
  } catch (error) {
    outputChannel.appendLine(`sglang-lint: starting "${executable} ${args.join(' ')}" failed: ${error}`);
    const choice = await vscode.window.showErrorMessage(
      `sglang-lint: the language server did not start (${executable}). ` +
        `It needs the lsp extra: \`${INSTALL_HINT}\`. The output channel "sglang-lint" has the server's message.`,
      'Show Output'
    );
    if (choice === 'Show Output') {
      outputChannel.show(true);
    }
  }
}

async function stopClient() {
  const running = client;
  client = undefined;
  if (running === undefined) {
    return;
  }
  try {
    // Stops the server (shutdown, exit) and disposes of the client's features.
    await running.dispose();
  } catch {
    // A server that never started, or has already exited.
  }
}

function schedule(step) {
  pending = pending.then(step, step);
  return pending;
}

function restart() {
  return schedule(async () => {
    await stopClient();
    await startClient();
  });
}

function activate(context) {
  outputChannel = vscode.window.createOutputChannel('sglang-lint');
  context.subscriptions.push(
    outputChannel,
    vscode.commands.registerCommand('sglang-lint.restart', restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (SERVER_SETTINGS.some((name) => event.affectsConfiguration(`${SECTION}.${name}`))) {
        void restart();
      }
    }),
    // The path and arguments of a workspace's settings count once it is trusted
    // (package.json: capabilities.untrustedWorkspaces).
    vscode.workspace.onDidGrantWorkspaceTrust(() => void restart())
  );
  return schedule(startClient);
}

function deactivate() {
  return schedule(stopClient);
}

module.exports = { activate, deactivate };
