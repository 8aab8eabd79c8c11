"""A real editor against the language server (issue 24): Neovim, headless, with
its built-in LSP client (tests/neovim/lsp_check.lua, only APIs Neovim 0.7 has)
opens the decode of a prefill/decode pair that disagree on attention TP and
checks, as a user would see it: SGL001 appears on the decode; the server's
SGL001 fix is offered and applied (UTF-16 columns: a character outside the BMP
sits before the finding) and clears it; back to the disagreeing text brings it
back; editing the buffer to agree clears it; the `# noqa: SGL001` action
silences it. The script writes what it saw at each step to a JSON report this
test asserts on. Skips without `nvim` (Debian's neovim package; `.ci/run`
installs it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs pygls (pip install -e '.[lsp]')")

from _editor_pair import DECODE, PREFILL  # noqa: E402

SCRIPT = Path(__file__).resolve().parent / "neovim" / "lsp_check.lua"

WAIT_MS = 60_000  # each wait of the script
NVIM_TIMEOUT_S = 300  # the whole editor session (the script has six waits)


def _server_command() -> list[str]:
    """The `sglang-lint` of this interpreter's environment, else of PATH, else
    the module run by this interpreter."""
    beside = Path(sys.executable).parent / "sglang-lint"
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside), "server"]
    found = shutil.which("sglang-lint")
    if found:
        return [found, "server"]
    return [sys.executable, "-m", "sglang_lint", "server"]


def _utf16_apply(line: str, start: int, end: int, new_text: str) -> str:
    """Replace UTF-16 columns [start, end) of ``line`` (as LSP counts them)."""
    units = line.encode("utf-16-le")
    return (units[: 2 * start] + new_text.encode("utf-16-le") + units[2 * end :]).decode("utf-16-le")


def _apply_edits(lines: list[str], edits: list[dict]) -> list[str]:
    """The single-line text edits of a code action, applied as LSP says (last first)."""
    lines = list(lines)
    for edit in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]), reverse=True):
        start, end = edit["range"]["start"], edit["range"]["end"]
        assert start["line"] == end["line"], edit
        lines[start["line"]] = _utf16_apply(lines[start["line"]], start["character"], end["character"], edit["newText"])
    return lines


def test_neovim_shows_fixes_and_clears_sgl001(tmp_path: Path) -> None:
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("nvim not found: install Debian's neovim package (apt-get install neovim) to run the real-editor test")

    root = (tmp_path / "pair").resolve()
    root.mkdir()
    (root / "prefill.sh").write_text(PREFILL, encoding="utf-8")
    decode = root / "decode.sh"
    decode.write_text(DECODE.format(tp=4), encoding="utf-8")

    # A home of its own: no user config, plugins, shada or LSP log of the user's.
    home = tmp_path / "home"
    env = dict(os.environ)
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_STATE_HOME=str(home / "state"),  # Neovim >= 0.8 keeps lsp.log here
        XDG_CACHE_HOME=str(home / "cache"),  # Neovim 0.7 keeps lsp.log here
        XDG_RUNTIME_DIR=str(home / "run"),
    )
    for name in ("config", "data", "state", "cache", "run"):
        (home / name).mkdir(parents=True)
    env.pop("NVIM_LOG_FILE", None)
    env.pop("VIMINIT", None)
    env.pop("NVIM", None)
    env.pop("NVIM_LISTEN_ADDRESS", None)
    report_path = tmp_path / "report.json"
    env["SGLANG_LINT_NVIM_CONFIG"] = json.dumps(
        {
            "cmd": _server_command(),
            "root": str(root),
            "decode": str(decode),
            "report": str(report_path),
            "timeout_ms": WAIT_MS,
            "agree": {"from": "--tp-size 4", "to": "--tp-size 8"},
        }
    )

    # `luafile` ends with `qa!`; `cquit 3` only runs when the script could not
    # even load (a Lua error there would otherwise leave Neovim waiting).
    command = [nvim, "--headless", "--clean", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {SCRIPT}", "-c", "cquit 3"]
    try:
        run = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=NVIM_TIMEOUT_S, stdin=subprocess.DEVNULL)
        outputs = f"exit status {run.returncode}\n--- nvim stdout ---\n{run.stdout}\n--- nvim stderr ---\n{run.stderr}"
    except subprocess.TimeoutExpired as timeout:
        outputs = f"nvim killed after {NVIM_TIMEOUT_S} s\n--- nvim stdout ---\n{timeout.stdout!r}\n--- nvim stderr ---\n{timeout.stderr!r}"
        run = None

    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else None

    def context() -> str:
        """What to show when an assertion fails: nvim's output, the report and
        the end of the LSP log (which has the server's stderr)."""
        logs = sorted(home.rglob("lsp.log"))
        log = logs[0].read_text(encoding="utf-8", errors="replace")[-20_000:] if logs else "(no lsp.log)"
        return f"{outputs}\n--- report ---\n{json.dumps(report, indent=1, ensure_ascii=False)}\n--- lsp.log (end) ---\n{log}"

    assert run is not None, context()
    assert report is not None, context()
    assert report.get("error") is None, context()
    assert report.get("done") is True, context()
    assert run.returncode == 0, context()
    steps = {step["name"]: step for step in report["steps"]}

    decode_lines = DECODE.format(tp=4).split("\n")[:-1]
    finding_line = 2
    tp_byte = decode_lines[finding_line].encode("utf-8").index(b"--tp-size 4")
    tp_utf16 = len(decode_lines[finding_line][: decode_lines[finding_line].index("--tp-size 4")].encode("utf-16-le")) // 2

    # 1. Opened: SGL001 on the decode's --tp-size, in UTF-16 columns as sent and in
    #    bytes as Neovim shows it.
    opened = steps["open"]
    assert opened["lines"] == decode_lines, context()
    (sgl001,) = [d for d in opened["diagnostics"] if d["code"] == "SGL001"]
    assert sgl001["source"] == "sglang-lint", context()
    assert sgl001["range"]["start"] == {"line": finding_line, "character": tp_utf16}, context()
    shown = [d for d in opened["shown"] if d["code"] == "SGL001"]
    assert [(d["lnum"], d["col"]) for d in shown] == [(finding_line, tp_byte)], context()

    # 2. Code actions offered at it: the SGL001 fix and the noqa one; the fix
    #    applied changes the buffer exactly as its edit says, and SGL001 is gone.
    titles = [action["title"] for action in steps["actions"]["actions"]]
    assert "Give the decode --tp-size 8 (attention TP 8)" in titles, context()
    assert any("# noqa: SGL001" in title for title in titles), context()
    applied = steps["apply"]
    assert applied["title"] == "Give the decode --tp-size 8 (attention TP 8)", context()
    assert applied["before"] == decode_lines, context()
    (edits,) = applied["edit"]["changes"].values()
    assert applied["after"] == _apply_edits(decode_lines, edits), context()
    assert applied["after"] == DECODE.format(tp=8).split("\n")[:-1], context()
    assert "SGL001" not in steps["after_apply"]["codes"], context()
    assert not [d for d in steps["after_apply"]["shown"] if d["code"] == "SGL001"], context()

    # 3. The disagreeing text again: SGL001 again.
    assert steps["restored"]["lines"] == decode_lines, context()
    assert "SGL001" in steps["restored"]["codes"], context()

    # 4. The buffer edited to agree with the prefill: SGL001 is gone.
    assert steps["agreed"]["lines"][finding_line] == decode_lines[finding_line].replace("--tp-size 4", "--tp-size 8"), context()
    assert "SGL001" not in steps["agreed"]["codes"], context()
    assert not [d for d in steps["agreed"]["shown"] if d["code"] == "SGL001"], context()

    # 5. Disagreeing again, the noqa action silences it.
    assert "SGL001" in steps["restored_again"]["codes"], context()
    noqa = steps["apply_noqa"]
    assert "# noqa: SGL001" in noqa["title"], context()
    (edits,) = noqa["edit"]["changes"].values()
    assert noqa["after"] == _apply_edits(decode_lines, edits), context()
    assert any("# noqa: SGL001" in line for line in noqa["after"]), context()
    assert "SGL001" not in steps["after_noqa"]["codes"], context()

    # Each step saw the publication of the version it waited for.
    for step in report["steps"]:
        if "version" in step:
            assert step["published_version"] == step["version"], context()
