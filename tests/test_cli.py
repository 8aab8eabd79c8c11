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

from _pairs import PAIR, PAIR_FROM_ENV, write

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
    for version in ("0.4.1", "banana"):
        code, out, err = run(capsys, "--target-version", version, str(FIXTURES / "split-files"))
        assert code == 2
        assert version in err and "0.5.23" in err and "0.5.4" in err


def test_a_target_version_after_every_table_is_judged_with_the_newest(capsys, tmp_path) -> None:
    """SGLang releases every few weeks: a deployment on a release sglang-lint
    has no table for yet can name it (it was a usage error, with no way to
    check the deployment at all). It is judged with the newest table; what
    that table does not know is not an error (catalog/versions)."""
    script = tmp_path / "run.sh"
    script.write_text("python -m sglang.launch_server --model-path /m --enable-brand-new-thing --tp-szie 2\n", encoding="utf-8")
    code, out, _ = run(capsys, "--target-version", "9.9.9", "--no-cache", "--output-format", "concise", str(script))
    assert code == 1
    assert "SGL202 unknown option --tp-szie" in out and "--enable-brand-new-thing for" not in out
    assert "SGL900 sglang 9.9.9 is newer than sglang-lint's option tables" in out


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


# ---------------------------------------------------------------------------------
# ruff's command-line conventions (issue 23, part 5)

def codes(capsys, *argv: str) -> tuple[int, set[str]]:
    code, out, err = run(capsys, "--output-format", "json", "--no-cache", *argv)
    assert code in (0, 1), err
    return code, {item["code"] for item in json.loads(out)}


def test_output_format_is_the_option_and_format_its_alias(capsys) -> None:
    path = str(FIXTURES / "split-files")
    code, out, _ = run(capsys, "--output-format", "concise", path)
    assert code == 1 and "split-files/decode.sh:7:3: SGL001 " in out.splitlines()[0]
    assert run(capsys, "check", "--format", "concise", path)[1] == out
    assert json.loads(run(capsys, "--output-format=json", path)[1])[0]["code"] == "SGL001"
    code, _, err = run(capsys, "--output-format", "xml", path)
    assert code == 2 and "invalid choice" in err
    # topology and rule take it too
    code, out, _ = run(capsys, "topology", "--output-format", "json", str(FIXTURES / "function-per-role"))
    assert code == 0 and json.loads(out)["deployments"]
    assert run(capsys, "topology", "--output-format", "mermaid", str(FIXTURES / "function-per-role"))[1].startswith("flowchart LR")
    assert json.loads(run(capsys, "rule", "SGL002", "--format", "json")[1])["code"] == "SGL002"


def test_output_format_in_the_config(tmp_path, monkeypatch, capsys) -> None:
    write(tmp_path, {"sglang-lint.toml": 'output-format = "concise"\n', "deploy/run.sh": PAIR})
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "--no-cache", ".")
    assert code == 1 and out.startswith("deploy/run.sh:2:") and "|" not in out
    # the command line wins
    code, out, _ = run(capsys, "--no-cache", "--output-format", "json", ".")
    assert json.loads(out)[0]["filename"].endswith("run.sh")
    (tmp_path / "sglang-lint.toml").write_text('output-format = "xml"\n', encoding="utf-8")
    code, _, err = run(capsys, ".")
    assert code == 2 and "output-format = 'xml' is not an output format" in err and "concise" in err


def test_extend_select_and_extend_ignore(tmp_path, monkeypatch, capsys) -> None:
    write(tmp_path, {"pair/run.sh": PAIR, "env/run.sh": PAIR_FROM_ENV})
    monkeypatch.chdir(tmp_path)
    assert codes(capsys, "pair")[1] == {"SGL001", "SGL005"}
    assert codes(capsys, "--select", "SGL001", "pair")[1] == {"SGL001"}
    assert codes(capsys, "--select", "SGL001", "--extend-select", "SGL005", "pair")[1] == {"SGL001", "SGL005"}
    assert codes(capsys, "--select", "SGL002", "--extend-select", "SGL00", "pair")[1] == {"SGL001", "SGL005"}  # a prefix
    assert codes(capsys, "--extend-ignore", "SGL005", "pair")[1] == {"SGL001"}
    assert codes(capsys, "--ignore", "SGL001", "--extend-ignore", "SGL005", "pair") == (0, set())
    # opt-in rules by their code, not by a prefix
    assert "SGL901" not in codes(capsys, "env")[1]
    assert "SGL901" in codes(capsys, "--extend-select", "SGL901", "env")[1]
    assert "SGL901" not in codes(capsys, "--extend-select", "SGL9", "env")[1]
    for option in ("--extend-select", "--extend-ignore"):
        code, _, err = run(capsys, option, "SGL001,SGL999", "pair")
        assert code == 2 and "unknown rule code 'SGL999'" in err


def test_extend_select_adds_to_the_config_selection(tmp_path, monkeypatch, capsys) -> None:
    write(tmp_path, {"sglang-lint.toml": 'select = ["SGL001"]\n', "pair/run.sh": PAIR, "env/run.sh": PAIR_FROM_ENV})
    monkeypatch.chdir(tmp_path)
    assert codes(capsys, "pair")[1] == {"SGL001"}
    assert codes(capsys, "--extend-select", "SGL005", "pair")[1] == {"SGL001", "SGL005"}
    (tmp_path / "sglang-lint.toml").write_text('select = ["SGL005"]\nextend-select = ["SGL901"]\n', encoding="utf-8")
    assert codes(capsys, "--extend-select", "SGL001", ".")[1] == {"SGL001", "SGL005", "SGL901"}
    # --select replaces the config's selection, its extend-select too; --extend-select adds to it
    assert codes(capsys, "--select", "SGL005", "--extend-select", "SGL001", ".")[1] == {"SGL001", "SGL005"}
    assert codes(capsys, "--extend-ignore", "SGL901", ".")[1] == {"SGL005"}


def test_quiet_prints_the_findings_without_the_summary(capsys) -> None:
    path = str(FIXTURES / "split-files")
    for fmt in ("full", "concise"):
        code, loud, _ = run(capsys, "--output-format", fmt, path)
        summary = loud.rstrip("\n").splitlines()[-1]
        for flag in ("-q", "--quiet"):
            code, out, err = run(capsys, "--output-format", fmt, flag, path)
            assert code == 1 and err == ""
            assert "SGL001" in out and summary not in out
            assert out == loud[: loud.rindex(summary)]  # the same text up to the summary line
    # no findings: nothing at all
    clean = str(FIXTURES / "two-routers-one-file")
    assert run(capsys, clean)[1] != ""
    assert run(capsys, "-q", clean) == (0, "", "")
    assert run(capsys, "-q", "--output-format", "concise", clean) == (0, "", "")
    # formats without a summary are unchanged
    assert run(capsys, "-q", "--output-format", "json", path)[1] == run(capsys, "--output-format", "json", path)[1]


def test_silent_prints_nothing_and_keeps_the_exit_code(tmp_path, capsys) -> None:
    path = str(FIXTURES / "split-files")
    assert run(capsys, "-s", path) == (1, "", "")
    assert run(capsys, "--silent", "--statistics", path) == (1, "", "")
    assert run(capsys, "--silent", "--exit-zero", path) == (0, "", "")
    assert run(capsys, "-s", str(FIXTURES / "two-routers-one-file")) == (0, "", "")
    report = tmp_path / "report.json"
    assert run(capsys, "-s", "--output-file", str(report), path)[0] == 1 and not report.exists()
    code, _, err = run(capsys, "-q", "-s", path)
    assert code == 2 and "not allowed with" in err


def test_show_files_lists_what_would_be_checked(tmp_path, monkeypatch, capsys) -> None:
    write(
        tmp_path,
        {
            "sglang-lint.toml": 'extend-exclude = ["legacy/"]\n',
            ".gitignore": "generated.sh\n",
            "deploy/decode.sh": PAIR,
            "deploy/prefill.py": "print('no launch')\n",
            "deploy/notes.txt": "not a kind sglang-lint reads\n",
            "k8s/pd.yaml": "kind: Pod\n",
            "README.md": "# runbook\n",
            "legacy/old.sh": PAIR,
            "generated.sh": PAIR,
            ".venv/x.sh": PAIR,
        },
    )
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "--show-files", ".")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["README.md", "deploy/decode.sh", "deploy/prefill.py", "k8s/pd.yaml"]
    assert run(capsys, "--show-files") == (0, out, "")  # no PATH: .
    assert run(capsys, "--show-files", "k8s", "deploy/decode.sh")[1].splitlines() == ["deploy/decode.sh", "k8s/pd.yaml"]
    assert run(capsys, "--show-files", "--no-respect-gitignore", "--extend-exclude", "k8s/", ".")[1].splitlines() == [
        "README.md",
        "deploy/decode.sh",
        "deploy/prefill.py",
        "generated.sh",
    ]
    # standard input is listed under its name, not read
    assert run(capsys, "--show-files", "--stdin-filename", "new/run.sh")[1] == "new/run.sh\n"
    assert run(capsys, "--show-files", "--force-exclude", "--stdin-filename", "legacy/run.sh")[1] == ""
    assert not (tmp_path / ".sglang-lint-cache").exists()  # nothing was analyzed


def test_show_settings_prints_the_resolved_settings(tmp_path, monkeypatch, capsys) -> None:
    write(
        tmp_path,
        {
            "sglang-lint.toml": (
                'target-version = "0.5.21"\n'
                'select = ["SGL0"]\n'
                'extend-select = ["SGL901"]\n'
                'ignore = ["SGL005"]\n'
                'extend-exclude = ["legacy/"]\n'
                'env = { DECODE_TP = "4", MODEL = "secret-ish" }\n'
                '[per-file-ignores]\n"decode.sh" = ["SGL003"]\n'
                '[[deployment]]\nname = "qwen-pd"\nprefill = "deploy/prefill.sh"\ndecode = ["deploy/decode.sh"]\n'
            ),
            "deploy/prefill.sh": PAIR.splitlines(keepends=True)[0],
            "deploy/decode.sh": PAIR.splitlines(keepends=True)[1],
            "nested/sglang-lint.toml": 'ignore = ["SGL2"]\n',
            "nested/run.sh": PAIR,
        },
    )
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "--show-settings", "--extend-select", "SGL101", "--extend-ignore", "SGL002", ".")
    assert (code, err) == (0, "")
    assert "Settings path: sglang-lint.toml" in out
    assert "Other config files: nested/sglang-lint.toml" in out
    assert 'target-version = "0.5.21"  # sglang-lint.toml' in out
    assert 'output-format = "full"' in out
    assert 'cache-dir = ".sglang-lint-cache"' in out
    root, nested = out.split("# sglang-lint.toml (governs 2 files)\n")[1].split("# nested/sglang-lint.toml (governs 1 file)\n")
    assert 'select = ["SGL0"]' in root and 'extend-select = ["SGL101", "SGL901"]' in root
    assert 'ignore = ["SGL002", "SGL005"]' in root
    assert '"SGL001",  # unified-memory-attn-tp-mismatch' in root and '"SGL901",  # unresolved-value' in root
    enabled = root.split("enabled-rules = [\n")[1].split("]")[0]
    assert '"SGL101"' in enabled and '"SGL005"' not in enabled and '"SGL002"' not in enabled and '"SGL202"' not in enabled
    assert 'exclude-patterns = ["legacy/"]' in root
    assert '"decode.sh" = ["SGL003"],' in root
    assert 'env = ["DECODE_TP", "MODEL"]' in root and "secret-ish" not in out
    assert '[[deployment]] "qwen-pd"' in root and 'prefill = ["deploy/prefill.sh"]' in root and 'decode = ["deploy/decode.sh"]' in root
    # the nested config: its own selection under the command line's
    assert "select = (the default rules" in nested and 'ignore = ["SGL002", "SGL2"]' in nested
    enabled = nested.split("enabled-rules = [\n")[1].split("]")[0]
    assert '"SGL005",  # pd-model-mismatch' in enabled and '"SGL202"' not in enabled and '"SGL901"' not in enabled
    assert '"SGL101"' in enabled and '"SGL002"' not in enabled
    assert "deployments = []" in nested
    # the command line's settings
    code, out, _ = run(capsys, "--show-settings", "--target-version", "0.5.23", "--no-cache", "--output-format", "json", "-j", "3", "nested")
    assert 'target-version = "0.5.23"  # --target-version' in out
    assert "cache-dir = (no cache" in out and 'output-format = "json"' in out and "jobs = 3" in out
    assert "Settings path: nested/sglang-lint.toml" in out
    code, out, _ = run(capsys, "--show-settings")  # no PATH: .
    assert out.startswith("Resolved settings for: .\nSettings path: sglang-lint.toml\n") and "Files: 3\n" in out
    assert not (tmp_path / ".sglang-lint-cache").exists()  # nothing was analyzed
    code, _, err = run(capsys, "--show-settings", "--show-files", ".")
    assert code == 2 and "not allowed with" in err


def test_rule_output_format_json(capsys) -> None:
    from sglang_lint.rules import ALL_RULES

    code, out, _ = run(capsys, "rule", "--all", "--output-format", "json")
    data = json.loads(out)
    assert code == 0 and isinstance(data, list)
    assert [item["code"] for item in data] == [rule.code for rule in ALL_RULES] + ["SGL900"]
    for item in data:
        assert set(item) == {"code", "name", "summary", "severity", "opt_in", "fix", "explanation", "url"}
        assert item["explanation"].startswith("## What it does") and item["url"].endswith("#" + item["code"].lower())
    by_code = {item["code"]: item for item in data}
    assert by_code["SGL901"]["opt_in"] is True and by_code["SGL001"]["opt_in"] is False
    assert by_code["SGL900"]["name"] == "unreadable-input" and by_code["SGL900"]["severity"] == "warning"
    assert by_code["SGL005"]["severity"] == "warning" and by_code["SGL001"]["severity"] == "error"
    assert by_code["SGL207"]["fix"] == "Fix is always available." and by_code["SGL003"]["fix"] == "Fix is sometimes available."
    assert by_code["SGL005"]["fix"] == by_code["SGL900"]["fix"] == "Fix is not available."
    code, out, _ = run(capsys, "rule", "SGL001", "--output-format", "json")
    assert code == 0 and json.loads(out) == by_code["SGL001"]
    assert json.loads(run(capsys, "rule", "sgl900", "--output-format", "json")[1]) == by_code["SGL900"]
    # text stays as it was, and lists SGL900 too
    code, out, _ = run(capsys, "rule", "--all")
    assert out.splitlines()[0].startswith("SGL001  unified-memory-attn-tp-mismatch  ")
    assert out.splitlines()[-1].startswith("SGL900  unreadable-input ")
    assert run(capsys, "rule", "SGL900")[1].startswith("# SGL900 unreadable-input\n")
