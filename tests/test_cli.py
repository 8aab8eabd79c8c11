"""The command line as users and CI run it: exit codes, formats, topology, rule docs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sglang_lint.catalog.tables import known_versions
from sglang_lint.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_findings_exit_1_and_clean_exit_0(capsys) -> None:
    code, out, _ = run(capsys, str(FIXTURES / "split-files"))
    assert code == 1
    assert "SGL001" in out and "Found 1 error." in out
    code, out, _ = run(capsys, "check", str(FIXTURES / "two-routers-one-file"))
    assert code == 0
    assert "All checks passed!" in out


def test_exit_zero(capsys) -> None:
    code, _, _ = run(capsys, "--exit-zero", str(FIXTURES / "split-files"))
    assert code == 0


def test_concise_format(capsys) -> None:
    code, out, _ = run(capsys, "--format", "concise", str(FIXTURES / "split-files"))
    first = out.splitlines()[0]
    # paths under the working directory are shown relative to it, like ruff
    assert "split-files/decode.sh:7:3: SGL001 attention TP differs across the pair: prefill 2, decode 4" in first


def test_json_format_is_rufflike_with_related(capsys) -> None:
    code, out, _ = run(capsys, "--format", "json", str(FIXTURES / "split-files"))
    data = json.loads(out)
    assert code == 1 and len(data) == 1
    item = data[0]
    assert item["code"] == "SGL001"
    assert item["location"] == {"row": 7, "column": 3}
    assert item["end_location"]["row"] == 7
    assert item["filename"].endswith("decode.sh")
    assert item["related"][0]["filename"].endswith("prefill.sh")
    assert "prefill 2, decode 4" in item["message"]
    assert item["help"].startswith("give the decode attention TP 2")
    assert any(note.startswith("prefill attention TP 2 = ") for note in item["notes"])


def test_unknown_target_version_is_a_usage_error(capsys) -> None:
    code, out, err = run(capsys, "--target-version", "9.9.9", str(FIXTURES / "split-files"))
    assert code == 2
    assert "9.9.9" in err and "0.5.23" in err and "0.5.4" in err


def test_bad_option_exits_2(capsys) -> None:
    code, _, err = run(capsys, "--format", "xml", ".")
    assert code == 2
    assert "invalid choice" in err


def test_target_version_changes_the_verdict(capsys) -> None:
    # --enable-unified-memory does not exist before 0.5.15: no SGL001 there, but
    # the unknown option (SGL202) and unified memory + PD on that version (SGL104).
    code, out, _ = run(capsys, "--format", "concise", "--target-version", "0.5.14", str(FIXTURES / "split-files"))
    assert code == 1 and "SGL001" not in out and "SGL104" in out and "SGL202" in out
    code, out, _ = run(capsys, "--format", "concise", "--target-version", "0.5.21", str(FIXTURES / "split-files"))
    assert code == 1 and "SGL001" in out


def test_missing_path_is_reported_not_fatal(capsys) -> None:
    code, out, _ = run(capsys, "--format", "concise", str(FIXTURES / "split-files"), "does/not/exist.sh")
    assert code == 1
    assert "SGL001" in out and "SGL900" in out


def test_topology_text_lists_every_value_with_its_source(capsys) -> None:
    code, out, _ = run(capsys, "topology", str(FIXTURES / "slurm-dp-attention"))
    assert code == 0
    assert "grouped by router" in out
    assert "prefill" in out and "decode" in out
    assert "attention TP 1 = --tp-size 8 / --dp-size 8 with --enable-dp-attention" in out
    for label in ("tp", "dp", "attn-dp", "attn-cp", "unified-memory"):
        assert f"\n           {label} " in out
    assert "pd_unified.sbatch.sh:29:5 --tp-size" in out
    assert "default" in out


def test_topology_json(capsys) -> None:
    code, out, _ = run(capsys, "topology", "--format", "json", str(FIXTURES / "function-per-role"))
    data = json.loads(out)
    assert data["target_version"] == known_versions()[-1]
    (deployment,) = data["deployments"]
    roles = {s["role"]: s for s in deployment["servers"]}
    assert roles["prefill"]["attention_tp"]["text"] == "8"
    assert roles["decode"]["attention_tp"]["text"] == "4"
    tp = roles["decode"]["settings"]["tp_size"]
    assert tp["origin"]["row"] == 19 and tp["default"] is False
    assert roles["decode"]["settings"]["dp_size"]["default"] is True
    assert deployment["pairs"]


def test_rule_docs(capsys) -> None:
    code, out, _ = run(capsys, "rule", "SGL001")
    assert code == 0 and "## Why is this bad?" in out and "conn.py" in out
    code, out, _ = run(capsys, "rule", "--all")
    assert "SGL001" in out and "SGL002" in out
    code, _, err = run(capsys, "rule", "SGL999")
    assert code == 2 and "unknown rule" in err


def test_output_file(tmp_path, capsys) -> None:
    target = tmp_path / "report.json"
    code, out, _ = run(capsys, "--format", "json", "--output-file", str(target), str(FIXTURES / "split-files"))
    assert code == 1 and out == ""
    assert json.loads(target.read_text())[0]["code"] == "SGL001"


@pytest.mark.skipif(shutil.which("sglang-lint") is None, reason="console script not installed")
def test_console_script_runs_as_a_process(tmp_path) -> None:
    script = tmp_path / "run.sh"
    script.write_text(
        "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"
        "python -m sglang.launch_server --disaggregation-mode decode --tp 8 --port 30001 &\n"
    )
    process = subprocess.run(["sglang-lint", "--format", "concise", str(script)], capture_output=True, text=True, timeout=60)
    assert process.returncode == 1, process.stderr
    assert "SGL002" in process.stdout
    assert process.stderr == ""


def test_module_entry_point(tmp_path) -> None:
    process = subprocess.run([sys.executable, "-m", "sglang_lint", "--version"], capture_output=True, text=True, timeout=60)
    assert process.returncode == 0 and process.stdout.startswith("sglang-lint ")


def test_statistics_counts_findings_per_rule(capsys) -> None:
    code, out, _ = run(capsys, "--statistics", str(FIXTURES / "k8s-lws-sh-c"), str(FIXTURES / "compose-pd"))
    assert code == 1
    assert out.splitlines() == ["2  SGL001  unified-memory-attn-tp-mismatch", "1  SGL002  unified-memory-one-sided"]


def test_ignore_noqa_reports_silenced_findings(capsys, tmp_path) -> None:
    script = (
        "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"
        "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 4 --port 1 &  # noqa: SGL001\n"
    )
    (tmp_path / "run.sh").write_text(script, encoding="utf-8")
    assert run(capsys, str(tmp_path))[0] == 0
    code, out, _ = run(capsys, "--ignore-noqa", "--format", "concise", str(tmp_path))
    assert code == 1 and "SGL001" in out
