"""The topology manifest: ``[[deployment]]`` entries of sglang-lint.toml (or
``[[tool.sglang-lint.deployment]]`` of pyproject.toml) group servers before the
automatic grouping does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sglang_lint.catalog.tables import default_version
from sglang_lint.cli import main
from sglang_lint.config import (
    Config,
    ConfigError,
    ManifestDeployment,
    discovery_start,
    find_config,
    load_config,
)
from sglang_lint.pipeline import LintOptions, lint_paths, lint_texts

PREFILL_SH = """\
#!/bin/bash
python3 -m sglang.launch_server \\
  --model-path /models/m \\
  --disaggregation-mode prefill \\
  --enable-unified-memory \\
  --tp-size 8 \\
  --port 30000
"""

DECODE_YAML = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: decode
spec:
  template:
    spec:
      containers:
        - name: sglang
          command: ["python3", "-m", "sglang.launch_server"]
          args:
            - --model-path
            - /models/m
            - --disaggregation-mode
            - decode
            - --enable-unified-memory
            - --tp-size
            - "4"
            - --port
            - "30001"
"""
DECODE_TP_LINE = 17  # the decode's `- --tp-size` item

MANIFEST = """\
[[deployment]]
name = "cross"
prefill = "prefill/*.sh"
decode = ["k8s/decode.yaml"]
"""


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def cross_folder(root: Path, config: str = MANIFEST, config_name: str = "sglang-lint.toml") -> Path:
    return write(root, {"prefill/launch.sh": PREFILL_SH, "k8s/decode.yaml": DECODE_YAML, config_name: config})


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def codes(result) -> list[tuple[str, str, int]]:
    return sorted((f.code, Path(f.location.path).as_posix(), f.location.line) for f in result.findings)


# ---------------------------------------------------------------------------------
# Pairing


def test_manifest_pairs_a_prefill_script_with_a_decode_yaml_in_another_folder(tmp_path, monkeypatch) -> None:
    cross_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["."])
    assert codes(result) == [("SGL001", "k8s/decode.yaml", DECODE_TP_LINE)]
    (deployment,) = result.deployments
    assert deployment.name == "cross" and deployment.how == "manifest"
    assert deployment.source == "sglang-lint.toml"
    assert {s.role for s in deployment.servers} == {"prefill", "decode"}


def test_without_the_manifest_the_two_folders_are_not_paired(tmp_path, monkeypatch) -> None:
    cross_folder(tmp_path)
    (tmp_path / "sglang-lint.toml").unlink()
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["."])
    assert result.findings == []
    assert [d.how for d in result.deployments] == ["file", "file"]


def test_cli_exits_1_with_the_finding(tmp_path, monkeypatch, capsys) -> None:
    cross_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "--format", "concise")
    assert code == 1, err
    assert f"k8s/decode.yaml:{DECODE_TP_LINE}:15: SGL001" in out


def test_config_is_found_above_the_given_path_not_only_the_cwd(tmp_path, monkeypatch) -> None:
    # tests/test_fixtures.py runs lint_paths([fixture_dir]) from the repository root.
    project = cross_folder(tmp_path / "project")
    monkeypatch.chdir(tmp_path)
    assert codes(lint_paths([str(project)])) == [("SGL001", "project/k8s/decode.yaml", DECODE_TP_LINE)]
    # two files: discovery starts from their common directory
    files = [str(project / "prefill" / "launch.sh"), str(project / "k8s" / "decode.yaml")]
    assert discovery_start(files) == str(project)
    assert codes(lint_paths(files)) == [("SGL001", "project/k8s/decode.yaml", DECODE_TP_LINE)]


def test_servers_not_in_the_manifest_are_still_grouped_automatically(tmp_path, monkeypatch) -> None:
    cross_folder(tmp_path)
    write(
        tmp_path,
        {
            "other/prefill.sh": PREFILL_SH,
            "other/decode.sh": PREFILL_SH.replace("prefill", "decode").replace("--tp-size 8", "--tp-size 2"),
        },
    )
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["."])
    assert codes(result) == [("SGL001", "k8s/decode.yaml", DECODE_TP_LINE), ("SGL001", "other/decode.sh", 6)]
    hows = [(d.how, d.name) for d in result.deployments]
    assert hows[0] == ("manifest", "cross")
    assert hows[1][0] == "directory" and "other" in hows[1][1]
    # every server is in exactly one deployment: the manifest's are not grouped again
    servers = [s.label for d in result.deployments for s in d.servers]
    assert len(servers) == len(set(servers)) == 4


def test_a_server_keeps_its_role_and_a_disagreement_is_a_note(tmp_path, monkeypatch) -> None:
    manifest = MANIFEST.replace('prefill = "prefill/*.sh"', 'prefill = ["prefill/*.sh", "k8s/decode.yaml"]').replace(
        'decode = ["k8s/decode.yaml"]', 'decode = "prefill/launch.sh"'
    )
    cross_folder(tmp_path, manifest)
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["."])
    # prefill/launch.sh is matched by both keys: no note; k8s/decode.yaml only by
    # "prefill" while it launches a decode: a note, and it is still paired as a decode.
    assert codes(result) == [("SGL001", "k8s/decode.yaml", DECODE_TP_LINE), ("SGL900", "k8s/decode.yaml", 10)]
    (note,) = [f for f in result.findings if f.code == "SGL900"]
    text = "\n".join(note.text_lines())  # a long note: its first clause, then notes
    assert '"prefill" of deployment "cross"' in text
    assert "decode server" in text and "sglang-lint.toml" in text


def test_wrong_role_both_ways(tmp_path, monkeypatch) -> None:
    manifest = MANIFEST.replace('prefill = "prefill/*.sh"', 'prefill = "k8s/decode.yaml"').replace(
        'decode = ["k8s/decode.yaml"]', 'decode = "prefill/*.sh"'
    )
    cross_folder(tmp_path, manifest)
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["."])
    notes = sorted((Path(f.location.path).as_posix(), f.location.line) for f in result.findings if f.code == "SGL900")
    assert notes == [("k8s/decode.yaml", 10), ("prefill/launch.sh", 2)]
    assert any(f.code == "SGL001" for f in result.findings)  # roles come from the arguments


def test_routers_matched_by_router_globs_belong_to_the_deployment(tmp_path, monkeypatch, capsys) -> None:
    manifest = MANIFEST + 'router = "router/*.sh"\n'
    cross_folder(tmp_path, manifest)
    write(
        tmp_path,
        {
            "router/start.sh": "#!/bin/bash\npython3 -m sglang_router.launch_router --pd-disaggregation "
            "--prefill http://10.0.0.1:30000 --decode http://10.0.0.2:30001 --port 8000\n"
        },
    )
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["."])
    (deployment,) = result.deployments
    assert [r.label for r in deployment.routers] == ["router/start.sh:2"]
    code, out, _ = run(capsys, "topology")
    assert code == 0
    assert "Deployment 1: cross (from manifest sglang-lint.toml)" in out
    assert "  router   router/start.sh:2" in out
    code, out, _ = run(capsys, "topology", "--format", "json")
    (entry,) = json.loads(out)["deployments"]
    assert entry["grouped_by"] == "manifest" and entry["manifest"] == "sglang-lint.toml" and entry["name"] == "cross"
    assert len(entry["routers"]) == 1 and len(entry["pairs"]) == 1


def test_a_directory_glob_and_double_star(tmp_path, monkeypatch) -> None:
    manifest = '[[deployment]]\nname = "d"\nprefill = "**/launch.sh"\ndecode = "k8s"\n'
    cross_folder(tmp_path, manifest)
    monkeypatch.chdir(tmp_path)
    assert codes(lint_paths(["."])) == [("SGL001", "k8s/decode.yaml", DECODE_TP_LINE)]


def test_globs_are_relative_to_the_config_directory(tmp_path, monkeypatch) -> None:
    # Run from a subdirectory: displayed paths are relative to it, globs to the config.
    cross_folder(tmp_path)
    monkeypatch.chdir(tmp_path / "k8s")
    result = lint_paths([str(tmp_path)])
    assert [f.code for f in result.findings] == ["SGL001"]
    # and "../" reaches out of the config's directory
    write(tmp_path, {"conf/sglang-lint.toml": MANIFEST.replace('"prefill/', '"../prefill/').replace('"k8s/', '"../k8s/')})
    (tmp_path / "sglang-lint.toml").unlink()
    config = load_config(tmp_path / "conf" / "sglang-lint.toml")
    assert [f.code for f in lint_paths([str(tmp_path)], LintOptions(config=config)).findings] == ["SGL001"]


def test_manifest_matching_unit() -> None:
    entry = ManifestDeployment(name="x", prefill=("p/*.sh",), decode=("**/d[0-9].yaml", "k8s"), base="/cfg")
    assert entry.matches("prefill", "/cfg/p/a.sh")
    assert not entry.matches("prefill", "/cfg/p/sub/a.sh")  # * does not cross /
    assert not entry.matches("prefill", "/other/p/a.sh")
    assert entry.matches("decode", "/cfg/d1.yaml") and entry.matches("decode", "/cfg/a/b/d2.yaml")
    assert not entry.matches("decode", "/cfg/dx.yaml")
    assert entry.matches("decode", "/cfg/k8s/any/thing.yaml")  # a directory names its files
    assert not entry.matches("decode", "/cfg/k8s2/a.yaml")
    odd = ManifestDeployment(name="y", prefill=("a.sh",), decode=("b.sh",), base="/dir[1]")
    assert odd.matches("prefill", "/dir[1]/a.sh") and not odd.matches("prefill", "/dir1/a.sh")


def test_lint_texts_takes_a_config(tmp_path) -> None:
    entry = ManifestDeployment(name="x", prefill=("a/p.sh",), decode=("b/d.yaml",), base=tmp_path.as_posix(), source="t.toml")
    files = {str(tmp_path / "a" / "p.sh"): PREFILL_SH, str(tmp_path / "b" / "d.yaml"): DECODE_YAML}
    assert [f.code for f in lint_texts(files, LintOptions(config=Config(deployments=(entry,)))).findings] == ["SGL001"]
    assert lint_texts(files).findings == []
    with pytest.raises(ConfigError, match='deployment "x" in t.toml: decode'):
        lint_texts({str(tmp_path / "a" / "p.sh"): PREFILL_SH}, LintOptions(config=Config(deployments=(entry,))))


# ---------------------------------------------------------------------------------
# Entries that name no file


def test_an_entry_that_names_no_file_exits_2(tmp_path, monkeypatch, capsys) -> None:
    cross_folder(tmp_path, MANIFEST.replace("k8s/decode.yaml", "k8s/decoder.yaml"))
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys)
    assert code == 2 and out == ""
    assert err.startswith("sglang-lint: error: ")
    assert 'deployment "cross" in sglang-lint.toml' in err and "decode = 'k8s/decoder.yaml' matches no file" in err
    code, _, err = run(capsys, "topology")
    assert code == 2 and "matches no file" in err


def test_a_partial_run_does_not_need_every_file(tmp_path, monkeypatch) -> None:
    # pre-commit passes only the changed files: the decode exists, just not in this
    # run (--no-context: the named file alone).
    cross_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["prefill/launch.sh"], LintOptions(context=False))
    assert result.findings == []
    assert [(d.how, len(d.servers)) for d in result.deployments] == [("manifest", 1)]


def test_a_partial_run_reads_the_rest_of_the_entry_as_context(tmp_path, monkeypatch) -> None:
    # Issue 23: the entry naming the changed file brings its other files along.
    cross_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["prefill/launch.sh"])
    assert [(f.code, f.location.path) for f in result.findings] == [("SGL001", "k8s/decode.yaml")]
    assert [(d.how, len(d.servers)) for d in result.deployments] == [("manifest", 2)]
    assert result.context_files == ["k8s/decode.yaml"]


def test_a_glob_matching_only_unanalyzed_files_is_an_error(tmp_path, monkeypatch, capsys) -> None:
    cross_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "--exclude", "k8s/")
    assert code == 2
    assert "matches only files sglang-lint did not analyze (k8s/decode.yaml" in err


# ---------------------------------------------------------------------------------
# Config files


def test_pyproject_tool_table(tmp_path, monkeypatch) -> None:
    pyproject = '[project]\nname = "demo"\n\n' + MANIFEST.replace("[[deployment]]", "[[tool.sglang-lint.deployment]]")
    cross_folder(tmp_path, pyproject, "pyproject.toml")
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["."])
    assert [f.code for f in result.findings] == ["SGL001"]
    assert result.deployments[0].source == "pyproject.toml"


def test_sglang_lint_toml_wins_over_pyproject_in_the_same_directory(tmp_path) -> None:
    write(tmp_path, {"pyproject.toml": "[tool.sglang-lint]\n", "sglang-lint.toml": ""})
    assert find_config(tmp_path) == tmp_path / "sglang-lint.toml"


def test_a_pyproject_without_the_table_is_passed_over(tmp_path) -> None:
    write(
        tmp_path,
        {
            "sglang-lint.toml": MANIFEST,
            "project/pyproject.toml": '[project]\nname = "sglang-lint-demo"\n',
            "project/sub/pyproject.toml": "this is [not TOML",  # never mentions us: not parsed
        },
    )
    assert find_config(tmp_path / "project" / "sub") == tmp_path / "sglang-lint.toml"
    assert find_config(tmp_path / "project" / "sub") == find_config(tmp_path)
    assert load_config(tmp_path / "project" / "pyproject.toml") == Config(path=tmp_path / "project" / "pyproject.toml")


def test_config_option(tmp_path, monkeypatch, capsys) -> None:
    cross_folder(tmp_path)
    (tmp_path / "sglang-lint.toml").rename(tmp_path / "elsewhere.toml")
    monkeypatch.chdir(tmp_path)
    assert run(capsys)[0] == 0  # not found by discovery under that name
    code, out, _ = run(capsys, "--config", "elsewhere.toml", "--format", "concise")
    assert code == 1 and "SGL001" in out
    code, _, err = run(capsys, "--config", "missing.toml")
    assert code == 2 and "missing.toml: cannot read" in err


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ("[[deployment]\nname = 'x'\n", "sglang-lint.toml: invalid TOML: "),
        ("[[deployment]]\nname = \"cross\"\nprefill = \"a\"\ndecode = \"b\"\ndecodes = \"c\"\n",
         "sglang-lint.toml: deployment #1 (\"cross\"): unknown key 'decodes' (expected: name, prefill, decode, router)"),
        ("line-length = 88\n", "sglang-lint.toml: unknown key line-length (supported: target-version, infer-version, follow-installed, select, extend-select, ignore, per-file-ignores, exclude, extend-exclude, env, cache-dir, output-format, fix, unsafe-fixes, fixable, unfixable, deployment)"),
        ("target-version = '0.4.99'\n", "target-version = '0.4.99' is not an SGLang release with an option table; known versions: 0.5.4"),
        ("[[deployment]]\nname = 3\nprefill = \"a\"\ndecode = \"b\"\n", "deployment #1: 'name' must be a non-empty string, not an integer"),
        ("[[deployment]]\nprefill = \"a\"\ndecode = \"b\"\n", "deployment #1: missing key 'name'"),
        ("[[deployment]]\nname = \"x\"\nprefill = \"a\"\n", "deployment #1 (\"x\"): missing key 'decode'"),
        ("[[deployment]]\nname = \"x\"\nprefill = 1\ndecode = \"b\"\n", "'prefill' must be a glob string or a non-empty array of glob strings, not an integer"),
        ("[[deployment]]\nname = \"x\"\nprefill = [\"a\", 2]\ndecode = \"b\"\n", "'prefill' must hold glob strings only, not an integer (2)"),
        ("[[deployment]]\nname = \"x\"\nprefill = []\ndecode = \"b\"\n", "not an empty array"),
        ("[[deployment]]\nname = \"x\"\nprefill = \"a\"\ndecode = \"b\"\nrouter = {path = \"r\"}\n", "'router' must be a glob string or a non-empty array of glob strings, not a table"),
        ("deployment = 1\n", "deployment must be an array of tables ([[deployment]]), not an integer"),
        ("deployment = [1]\n", "deployment #1 must be a table, not an integer"),
        ("[[deployment]]\nname = \"x\"\nprefill = \"a\"\ndecode = \"b\"\n[[deployment]]\nname = \"x\"\nprefill = \"a\"\ndecode = \"b\"\n",
         "deployment #2 (\"x\"): name 'x' is already used by deployment #1"),
    ],
)
def test_bad_config_exits_2_naming_the_key_and_the_file(tmp_path, monkeypatch, capsys, config, expected) -> None:
    cross_folder(tmp_path, config)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys)
    assert code == 2 and out == ""
    assert expected in err, err
    assert "Traceback" not in err


def test_bad_pyproject_names_the_dotted_key(tmp_path, monkeypatch, capsys) -> None:
    cross_folder(tmp_path, "[tool.sglang-lint]\nline-length = 88\n", "pyproject.toml")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys)
    assert code == 2 and "pyproject.toml: unknown key tool.sglang-lint.line-length" in err
    cross_folder(tmp_path, "[[tool.sglang-lint.deployment]]\nname = 'x'\nprefil = 'a'\n", "pyproject.toml")
    code, _, err = run(capsys)
    assert code == 2 and "pyproject.toml: tool.sglang-lint.deployment #1 (\"x\"): unknown key 'prefil'" in err
    cross_folder(tmp_path, "[tool.sglang-lint\n", "pyproject.toml")
    code, _, err = run(capsys)
    assert code == 2 and "pyproject.toml: invalid TOML" in err


def test_a_single_deployment_table_is_one_entry(tmp_path) -> None:
    write(tmp_path, {"sglang-lint.toml": MANIFEST.replace("[[deployment]]", "[deployment]")})
    (entry,) = load_config(tmp_path / "sglang-lint.toml").deployments
    assert entry.name == "cross" and entry.decode == ("k8s/decode.yaml",) and entry.router == ()


def test_target_version_from_the_config_and_the_command_line_wins(tmp_path, monkeypatch):
    from sglang_lint.cli import main

    (tmp_path / "sglang-lint.toml").write_text('target-version = "0.5.21"\n', encoding="utf-8")
    # --attn-dp-size does not exist before 0.5.22: an unknown option there
    (tmp_path / "run.sh").write_text("python3 -m sglang.launch_server --tp 8 --attn-dp-size 2\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert lint_paths(["."]).version == "0.5.21"
    assert lint_paths(["."], LintOptions(target_version="0.5.23")).version == "0.5.23"
    (tmp_path / "sglang-lint.toml").write_text('target-version = "0.4.99"\n', encoding="utf-8")
    assert main(["check", "."]) == 2  # older than every table: no table judges it
    # A release after every table is judged with the newest (catalog/tables.table_version).
    (tmp_path / "sglang-lint.toml").write_text('target-version = "0.5.99"\n', encoding="utf-8")
    assert lint_paths(["."]).version == default_version()


PAIR = (
    "python3 -m sglang.launch_server --model-path a --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000 &\n"
    "python3 -m sglang.launch_server --model-path b --disaggregation-mode decode --enable-unified-memory --tp 4 --port 30001 &\n"
)


def _codes_with(tmp_path, monkeypatch, config: str, *args: str) -> list[str]:
    (tmp_path / "sglang-lint.toml").write_text(config, encoding="utf-8")
    (tmp_path / "deploy").mkdir(exist_ok=True)
    (tmp_path / "deploy" / "run.sh").write_text(PAIR, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    options = LintOptions(select=frozenset(args) or None)
    return sorted({f.code for f in lint_paths(["."], options).findings})


def test_config_select_ignore_extend_select_and_per_file_ignores(tmp_path, monkeypatch):
    assert _codes_with(tmp_path, monkeypatch, "") == ["SGL001", "SGL005"]
    assert _codes_with(tmp_path, monkeypatch, 'select = ["SGL001"]\n') == ["SGL001"]
    assert _codes_with(tmp_path, monkeypatch, 'ignore = ["SGL00"]\n') == []  # a prefix, as in ruff
    assert _codes_with(tmp_path, monkeypatch, 'extend-select = ["SGL901"]\nignore = ["SGL005"]\n') == ["SGL001"]
    assert _codes_with(tmp_path, monkeypatch, '[per-file-ignores]\n"deploy/*.sh" = ["SGL005"]\n') == ["SGL001"]
    assert _codes_with(tmp_path, monkeypatch, '[per-file-ignores]\n"other/**" = ["SGL005"]\n') == ["SGL001", "SGL005"]
    # the command line's --select replaces the config's selection
    assert _codes_with(tmp_path, monkeypatch, 'select = ["SGL001"]\n', "SGL005") == ["SGL005"]


@pytest.mark.parametrize(
    "config, message",
    [
        ('select = "SGL001"\n', "select must be an array of rule codes, not a string"),
        ('select = ["SGL999"]\n', "select: unknown rule code 'SGL999'"),
        ('ignore = [1]\n', "ignore must be an array of rule codes"),
        ('per-file-ignores = ["x"]\n', "per-file-ignores must be a table of glob = [codes]"),
        ('[per-file-ignores]\n"x" = ["NOPE1"]\n', "unknown rule code 'NOPE1'"),
    ],
)
def test_bad_rule_selection_in_the_config_exits_2(tmp_path, monkeypatch, capsys, config, message):
    (tmp_path / "sglang-lint.toml").write_text(config, encoding="utf-8")
    (tmp_path / "run.sh").write_text(PAIR, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "."]) == 2
    assert message in capsys.readouterr().err
