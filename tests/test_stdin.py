"""Standard input: `sglang-lint check - --stdin-filename deploy/run.sh`."""

from __future__ import annotations

import codecs
import io
import subprocess
import sys
from pathlib import Path

import pytest

from sglang_lint.cli import main
from sglang_lint.files import read_stream

ROOT = Path(__file__).resolve().parent.parent
SPLIT = ROOT / "fixtures" / "split-files"
DECODE = (SPLIT / "decode.sh").read_text(encoding="utf-8")
PREFILL = (SPLIT / "prefill.sh").read_text(encoding="utf-8")
FIXED_DECODE = DECODE.replace("--tp 4", "--tp 2")

PAIR = """python -m sglang.launch_server --disaggregation-mode prefill --tp 4 --enable-unified-memory --port 30000 &
python -m sglang.launch_server --disaggregation-mode decode --tp 8 --enable-unified-memory --port 30001 &
"""


def run(monkeypatch, capsys, data: bytes | str, *argv: str) -> tuple[int, str, str]:
    if isinstance(data, str):
        data = data.encode("utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def split(tmp_path, monkeypatch) -> Path:
    """A copy of fixtures/split-files as deploy/ under a working directory."""
    deploy = tmp_path / "deploy"
    deploy.mkdir()
    (deploy / "decode.sh").write_text(DECODE)
    (deploy / "prefill.sh").write_text(PREFILL)
    monkeypatch.chdir(tmp_path)
    return deploy


def test_stdin_joins_the_other_paths_under_its_name(split, monkeypatch, capsys) -> None:
    (split / "decode.sh").unlink()  # only standard input holds the decode
    code, out, _ = run(monkeypatch, capsys, DECODE, "check", "--format", "concise", "--stdin-filename", "deploy/decode.sh", "-", "deploy/prefill.sh")
    assert code == 1
    assert out.startswith("deploy/decode.sh:7:3: SGL001 ")


def test_stdin_replaces_the_file_on_disk(split, monkeypatch, capsys) -> None:
    # An editor's unsaved buffer: the fixed text on stdin wins over the file the
    # directory walk also finds.
    code, out, _ = run(monkeypatch, capsys, FIXED_DECODE, "check", "--stdin-filename", "deploy/decode.sh", "-", "deploy")
    assert code == 0 and "All checks passed!" in out
    code, out, _ = run(monkeypatch, capsys, DECODE, "check", "--format", "concise", "--stdin-filename", "./deploy/decode.sh", "-", "deploy")
    assert code == 1 and out.count("SGL001") == 1 and out.startswith("deploy/decode.sh:7:3:")


def test_stdin_filename_alone_reads_stdin_like_ruff(split, monkeypatch, capsys) -> None:
    code, out, _ = run(monkeypatch, capsys, PAIR, "check", "--format", "concise", "--stdin-filename", "deploy/pd.sh")
    assert code == 1 and out.startswith("deploy/pd.sh:2:")


def test_dash_without_a_name_is_a_shell_script_named_dash(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(monkeypatch, capsys, PAIR, "check", "--format", "concise", "-")
    assert code == 1 and out.startswith("-:2:") and "SGL001" in out
    # a shebang still decides, as for an extension-less file
    script = "#!/usr/bin/env python3\nimport subprocess\nsubprocess.Popen(['python', '-m', 'sglang.launch_server', '--tp', '4', '--bogus-option'])\n"
    code, out, _ = run(monkeypatch, capsys, script, "--format", "concise", "-")
    assert code == 1 and "-:3:" in out and "SGL202" in out


def test_the_kind_comes_from_the_name(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    script = "import subprocess\nsubprocess.Popen(['python', '-m', 'sglang.launch_server', '--tp', '4', '--bogus-option'])\n"
    code, out, _ = run(monkeypatch, capsys, script, "--format", "concise", "--stdin-filename", "tests/test_pd.py", "-")
    assert code == 1 and out.startswith("tests/test_pd.py:2:") and "SGL202" in out
    code, out, _ = run(monkeypatch, capsys, PAIR, "--format", "concise", "--stdin-filename", "notes.txt", "-")
    assert code == 1 and "notes.txt:1:1: SGL900" in out and "not a file sglang-lint reads" in out


def test_config_is_found_from_the_stdin_filename(split, monkeypatch, capsys) -> None:
    (split / "sglang-lint.toml").write_text('target-version = "0.5.14"\n')
    # run from elsewhere: only the stdin name leads to deploy/sglang-lint.toml
    code, out, _ = run(monkeypatch, capsys, DECODE, "--format", "concise", "--stdin-filename", "deploy/decode.sh", "-", "deploy/prefill.sh")
    assert code == 1 and "SGL104" in out and "SGL001" not in out
    code, out, _ = run(monkeypatch, capsys, DECODE, "--format", "concise", "--stdin-filename", "deploy/decode.sh", "-")
    assert "SGL202" in out  # --enable-unified-memory does not exist in 0.5.14


@pytest.mark.parametrize(
    "encode",
    [
        lambda t: codecs.BOM_UTF8 + t.encode("utf-8"),
        lambda t: codecs.BOM_UTF16_LE + t.encode("utf-16-le"),
        lambda t: t.replace("\n", "\r\n").encode("utf-8"),
    ],
    ids=["utf8-bom", "utf16-bom", "crlf"],
)
def test_stdin_is_decoded_like_files(tmp_path, monkeypatch, capsys, encode) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(monkeypatch, capsys, encode(PAIR), "--format", "concise", "--stdin-filename", "pd.sh", "-")
    assert code == 1 and out.startswith("pd.sh:2:") and "SGL001" in out


def test_undecodable_or_binary_stdin_is_a_note(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(monkeypatch, capsys, b"echo \xff\n", "--format", "concise", "--stdin-filename", "pd.sh", "-")
    assert code == 1 and "pd.sh:1:6: SGL900 not valid UTF-8" in out
    code, out, _ = run(monkeypatch, capsys, b"\0\0\0", "--format", "concise", "-")
    assert code == 1 and "-:1:1: SGL900 binary file" in out


def test_read_stream_caps_the_size() -> None:
    assert read_stream(io.BytesIO(b"12345"), "-", max_bytes=5) == (b"12345", None)
    data, note = read_stream(io.BytesIO(b"123456"), "x.sh", max_bytes=5)
    assert data is None and note is not None and note.path == "x.sh" and "over the" in note.message


def test_usage_errors(split, monkeypatch, capsys) -> None:
    code, _, err = run(monkeypatch, capsys, PAIR, "check", "-", "-")
    assert code == 2 and "more than once" in err
    code, _, err = run(monkeypatch, capsys, PAIR, "check", "--stdin-filename", "x.sh", "deploy")
    assert code == 2 and "add - to the paths" in err


def test_topology_reads_stdin_too(split, monkeypatch, capsys) -> None:
    code, out, _ = run(monkeypatch, capsys, FIXED_DECODE, "topology", "--stdin-filename", "deploy/decode.sh", "-", "deploy/prefill.sh")
    assert code == 0
    assert "decode   deploy/decode.sh:4  attention TP 2" in out and "prefill  deploy/prefill.sh:4" in out
    code, out, _ = run(monkeypatch, capsys, DECODE, "topology", "--format", "mermaid", "--stdin-filename", "deploy/decode.sh", "-", "deploy")
    assert code == 0 and out.count("deploy/decode.sh:4") == 1 and '-.-|"SGL001"|' in out


def test_a_real_pipe(tmp_path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sglang_lint", "check", "--format", "concise", "--stdin-filename", "run.sh", "-"],
        input=PAIR.encode(),
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    assert result.stdout.decode().startswith("run.sh:2:")
