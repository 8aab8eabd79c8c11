"""Configuration (issue 6 scope 2): the nearest config governs each file; keys
exclude / extend-exclude / env; --exclude, --extend-exclude, --force-exclude; every
error path exits 2 naming the file and the key. (The topology manifest and rule
selection keys are in test_manifest.py.)"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from _pairs import PAIR, PAIR_FROM_ENV, write

from sglang_lint.cli import main
from sglang_lint.config import Config, ConfigResolver, load_config
from sglang_lint.pipeline import LintOptions, lint_paths


def findings(paths=(".",), **options) -> list[tuple[str, str]]:
    result = lint_paths(list(paths), LintOptions(**options))
    return sorted({(Path(f.location.path).as_posix(), f.code) for f in result.findings})


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------------
# The nearest config governs each file


def test_the_nearest_config_governs_each_file(tmp_path, monkeypatch) -> None:
    write(
        tmp_path,
        {
            "sglang-lint.toml": 'ignore = ["SGL005"]\n',
            "team-a/run.sh": PAIR,
            # team-b has its own config: the root's ignore does not reach it (ruff:
            # the nearest file wins, configs are not merged).
            "team-b/sglang-lint.toml": 'ignore = ["SGL001"]\n',
            "team-b/run.sh": PAIR,
            "team-b/sub/run.sh": PAIR,
        },
    )
    monkeypatch.chdir(tmp_path)
    assert findings() == [
        ("team-a/run.sh", "SGL001"),
        ("team-b/run.sh", "SGL005"),
        ("team-b/sub/run.sh", "SGL005"),
    ]
    # The same answer whichever path the run starts from.
    assert findings(["team-b"]) == [("team-b/run.sh", "SGL005"), ("team-b/sub/run.sh", "SGL005")]
    assert findings(["team-a/run.sh", "team-b/run.sh"]) == [("team-a/run.sh", "SGL001"), ("team-b/run.sh", "SGL005")]


def test_a_pyproject_with_the_table_counts_as_a_nearer_config(tmp_path, monkeypatch) -> None:
    write(
        tmp_path,
        {
            "sglang-lint.toml": 'ignore = ["SGL005"]\n',
            "svc/pyproject.toml": '[project]\nname = "svc"\n[tool.sglang-lint]\nignore = ["SGL001"]\n',
            "svc/run.sh": PAIR,
            # a pyproject.toml without the table is passed over
            "other/pyproject.toml": '[project]\nname = "other"\n',
            "other/run.sh": PAIR,
        },
    )
    monkeypatch.chdir(tmp_path)
    assert findings() == [("other/run.sh", "SGL001"), ("svc/run.sh", "SGL005")]


def test_config_option_governs_every_file(tmp_path, monkeypatch, capsys) -> None:
    write(
        tmp_path,
        {
            "team-b/sglang-lint.toml": 'ignore = ["SGL001"]\n',
            "team-b/run.sh": PAIR,
            "ci.toml": 'ignore = ["SGL005"]\n',
        },
    )
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "--config", "ci.toml", "--format", "concise", ".")
    assert code == 1 and "SGL001" in out and "SGL005" not in out


def test_the_resolver_loads_each_file_once_and_caches_directories(tmp_path) -> None:
    write(tmp_path, {"sglang-lint.toml": "", "a/b/c/x.sh": "", "a/d/y.sh": ""})
    resolver = ConfigResolver()
    first = resolver.for_file(tmp_path / "a/b/c/x.sh")
    assert first is resolver.for_file(tmp_path / "a/d/y.sh") is resolver.for_directory(tmp_path)
    assert first.path == tmp_path / "sglang-lint.toml"
    assert resolver.loaded() == [first]
    forced = Config()
    assert ConfigResolver(forced).for_file(tmp_path / "a/b/c/x.sh") is forced


def test_a_broken_nested_config_exits_2_naming_it(tmp_path, monkeypatch, capsys) -> None:
    write(tmp_path, {"sglang-lint.toml": "", "ok/run.sh": PAIR, "bad/sglang-lint.toml": "ignore = 3\n", "bad/run.sh": PAIR})
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, ".")
    assert code == 2 and out == ""
    assert "bad/sglang-lint.toml: ignore must be an array of rule codes" in err


def test_each_config_contributes_its_manifest(tmp_path, monkeypatch) -> None:
    prefill = "python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000\n"
    decode = "python3 -m sglang.launch_server --model-path m --disaggregation-mode decode --enable-unified-memory --tp 4 --port 30001\n"
    write(
        tmp_path,
        {
            "sglang-lint.toml": "",
            "svc/sglang-lint.toml": '[[deployment]]\nname = "svc"\nprefill = "p/*.sh"\ndecode = "d/*.sh"\n',
            "svc/p/run.sh": prefill,
            "svc/d/run.sh": decode,
        },
    )
    monkeypatch.chdir(tmp_path)
    # Two folders, paired only by svc/sglang-lint.toml's manifest.
    assert findings() == [("svc/d/run.sh", "SGL001")]


# ---------------------------------------------------------------------------------
# exclude / extend-exclude / --exclude / --extend-exclude / --force-exclude


def test_extend_exclude_is_relative_to_its_config(tmp_path, monkeypatch) -> None:
    write(
        tmp_path,
        {
            "sglang-lint.toml": 'extend-exclude = ["legacy/"]\n',
            "legacy/run.sh": PAIR,
            "svc/sglang-lint.toml": 'extend-exclude = ["old_*.sh"]\n',
            "svc/old_run.sh": PAIR,
            "svc/run.sh": PAIR,
            # the root's pattern is "legacy/" anywhere below the root; svc's config
            # replaces the root's for svc (nearest wins), so svc/legacy is walked
            "svc/legacy/run.sh": PAIR,
            "venv/run.sh": PAIR,  # default excluded directory
        },
    )
    monkeypatch.chdir(tmp_path)
    files = {path for path, _ in findings()}
    assert files == {"svc/run.sh", "svc/legacy/run.sh"}


def test_exclude_replaces_the_default_directories_but_not_vcs(tmp_path, monkeypatch) -> None:
    write(
        tmp_path,
        {
            "sglang-lint.toml": 'exclude = ["legacy/"]\n',
            "legacy/run.sh": PAIR,
            "venv/run.sh": PAIR,  # walked: exclude replaced the defaults
            ".git/hooks/run.sh": PAIR,  # never
            ".sglang-lint-cache/x/run.sh": PAIR,  # never
        },
    )
    monkeypatch.chdir(tmp_path)
    assert {path for path, _ in findings()} == {"venv/run.sh"}


def test_command_line_exclude_replaces_and_extend_exclude_adds(tmp_path, monkeypatch, capsys) -> None:
    write(
        tmp_path,
        {
            "sglang-lint.toml": 'exclude = ["a/"]\n',
            "a/run.sh": PAIR,
            "b/run.sh": PAIR,
            "c/run.sh": PAIR,
        },
    )
    monkeypatch.chdir(tmp_path)
    assert {p for p, _ in findings()} == {"b/run.sh", "c/run.sh"}
    assert {p for p, _ in findings(exclude=("b/",))} == {"a/run.sh", "c/run.sh"}
    assert {p for p, _ in findings(extend_exclude=("c/",))} == {"b/run.sh"}
    code, out, _ = run(capsys, "--exclude", "b/", "--extend-exclude", "c/", "--format", "concise", ".")
    assert code == 1 and "a/run.sh" in out and "b/run.sh" not in out and "c/run.sh" not in out


def test_explicit_files_are_checked_unless_force_exclude(tmp_path, monkeypatch, capsys) -> None:
    write(tmp_path, {"sglang-lint.toml": 'extend-exclude = ["legacy/"]\n', "legacy/run.sh": PAIR, ".venv/run.sh": PAIR})
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "legacy/run.sh")[0] == 1
    # pre-commit passes every changed file: --force-exclude keeps excluded ones out,
    # whether excluded by a pattern or by a default directory.
    assert run(capsys, "--force-exclude", "legacy/run.sh", ".venv/run.sh")[0] == 0


def test_force_exclude_applies_to_the_stdin_filename(tmp_path, monkeypatch, capsys) -> None:
    write(tmp_path, {"sglang-lint.toml": 'extend-exclude = ["legacy/"]\n'})
    monkeypatch.chdir(tmp_path)
    for argv, expected in (
        (["-", "--stdin-filename", "legacy/new.sh"], 1),
        (["-", "--stdin-filename", "legacy/new.sh", "--force-exclude"], 0),
        (["-", "--stdin-filename", "deploy/new.sh", "--force-exclude"], 1),
    ):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PAIR.encode())))
        assert run(capsys, *argv)[0] == expected, argv


# ---------------------------------------------------------------------------------
# env


def test_env_gives_values_to_variables_the_scripts_read(tmp_path, monkeypatch) -> None:
    write(tmp_path, {"run.sh": PAIR_FROM_ENV})
    monkeypatch.chdir(tmp_path)
    assert findings() == []  # $DECODE_TP unknown: nothing provable
    write(tmp_path, {"sglang-lint.toml": '[env]\nDECODE_TP = "4"\n'})
    assert findings() == [("run.sh", "SGL001")]
    write(tmp_path, {"sglang-lint.toml": "[env]\nDECODE_TP = 8\n"})  # an integer is its text
    assert findings() == []


def test_env_in_every_language(tmp_path, monkeypatch) -> None:
    prefill = "python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000\n"
    python_decode = (
        "import os, subprocess\n"
        "subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--model-path', 'm', '--disaggregation-mode', 'decode',\n"
        "                  '--enable-unified-memory', '--tp', os.environ['DECODE_TP'], '--port', '30001'])\n"
    )
    yaml_decode = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: decode}\nspec:\n  containers:\n  - name: d\n    command: [sh, -c]\n"
        "    args:\n    - python3 -m sglang.launch_server --model-path m --disaggregation-mode decode --enable-unified-memory --tp $DECODE_TP --port 30001\n"
    )
    markdown_decode = "# decode\n\n```bash\n" + PAIR_FROM_ENV.splitlines()[1] + "\n```\n"
    write(
        tmp_path,
        {
            "sglang-lint.toml": '[env]\nDECODE_TP = "4"\n',
            "py/prefill.sh": prefill,
            "py/decode.py": python_decode,
            "k8s/prefill.sh": prefill,
            "k8s/decode.yaml": yaml_decode,
            "md/prefill.sh": prefill,
            "md/decode.md": markdown_decode,
        },
    )
    monkeypatch.chdir(tmp_path)
    assert findings() == [("k8s/decode.yaml", "SGL001"), ("md/decode.md", "SGL001"), ("py/decode.py", "SGL001")]


def test_the_script_and_the_container_env_win_over_the_config_env(tmp_path, monkeypatch) -> None:
    write(
        tmp_path,
        {
            "sglang-lint.toml": '[env]\nDECODE_TP = "4"\n',
            # The script sets its own value.
            "a/run.sh": "DECODE_TP=8\n" + PAIR_FROM_ENV,
            # `${DECODE_TP:-8}`: the config's value replaces the default, as the
            # environment would.
            "b/run.sh": PAIR_FROM_ENV.replace("$DECODE_TP", "${DECODE_TP:-8}"),
        },
    )
    monkeypatch.chdir(tmp_path)
    assert findings() == [("b/run.sh", "SGL001")]


def test_env_is_per_config(tmp_path, monkeypatch) -> None:
    write(
        tmp_path,
        {
            "sglang-lint.toml": '[env]\nDECODE_TP = "4"\n',
            "a/run.sh": PAIR_FROM_ENV,
            "b/sglang-lint.toml": '[env]\nDECODE_TP = "8"\n',
            "b/run.sh": PAIR_FROM_ENV,
        },
    )
    monkeypatch.chdir(tmp_path)
    assert findings() == [("a/run.sh", "SGL001")]


# ---------------------------------------------------------------------------------
# Every error path: exit 2, the file and the key named, no traceback


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ("exclude = 'legacy/'\n", "sglang-lint.toml: exclude must be an array of gitignore-style patterns, not a string"),
        ("extend-exclude = [1]\n", "sglang-lint.toml: extend-exclude must hold strings only, not an integer (1)"),
        ("exclude = ['']\n", "sglang-lint.toml: exclude: a pattern must not be empty"),
        ("env = ['TP=4']\n", 'sglang-lint.toml: env must be a table of NAME = "value", not an array'),
        ("[env]\n'1TP' = '4'\n", "sglang-lint.toml: env: '1TP' is not an environment variable name"),
        ("[env]\nTP = true\n", "sglang-lint.toml: env.TP must be a string (or an integer), not a boolean"),
        ("[env]\nTP = 4.5\n", "sglang-lint.toml: env.TP must be a string (or an integer), not a float"),
        ("[env]\nTP = { a = 1 }\n", "sglang-lint.toml: env.TP must be a string (or an integer), not a table"),
        ("target-version = 5\n", "sglang-lint.toml: target-version = 5 is not an SGLang release"),
        ("extend-select = ['SGL999']\n", "sglang-lint.toml: extend-select: unknown rule code 'SGL999'"),
        ("[per-file-ignores]\n' ' = ['SGL001']\n", "sglang-lint.toml: per-file-ignores: a glob must not be empty"),
        ("[per-file-ignores]\n'x' = 'SGL001'\n", "per-file-ignores.'x' must be an array of rule codes, not a string"),
        ("exclude = [\n", "sglang-lint.toml: invalid TOML"),
    ],
)
def test_bad_values_exit_2(tmp_path, monkeypatch, capsys, config, expected) -> None:
    write(tmp_path, {"sglang-lint.toml": config, "run.sh": PAIR})
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, ".")
    assert (code, out) == (2, "")
    assert expected in err, err
    assert "Traceback" not in err


def test_unreadable_configs_exit_2(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"run.sh": PAIR})
    (tmp_path / "sglang-lint.toml").write_bytes(b"ignore = ['\xff']\n")
    code, _, err = run(capsys, ".")
    assert code == 2 and "sglang-lint.toml: not valid UTF-8" in err
    (tmp_path / "sglang-lint.toml").write_bytes(b"# " + b"x" * (1024 * 1024 + 10) + b"\n")
    code, _, err = run(capsys, ".")
    assert code == 2 and "sglang-lint.toml: file is over 1024 KB" in err
    (tmp_path / "sglang-lint.toml").unlink()
    (tmp_path / "sglang-lint.toml").mkdir()  # a directory named like the config is not one
    assert run(capsys, ".")[0] == 1
    code, _, err = run(capsys, "--config", "sglang-lint.toml", ".")
    assert code == 2 and "sglang-lint.toml: cannot read" in err


def test_pyproject_table_of_the_wrong_type(tmp_path, monkeypatch, capsys) -> None:
    write(tmp_path, {"pyproject.toml": '[tool]\nsglang-lint = "yes"\n', "run.sh": PAIR})
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "--config", "pyproject.toml", ".")
    assert code == 2 and "pyproject.toml: [tool.sglang-lint] must be a table" in err
    write(tmp_path, {"pyproject.toml": "[tool.sglang-lint.env]\nTP = []\n"})
    code, _, err = run(capsys, ".")
    assert code == 2 and "pyproject.toml: tool.sglang-lint.env.TP must be a string" in err


def test_loaded_values(tmp_path) -> None:
    path = write(
        tmp_path,
        {"sglang-lint.toml": 'exclude = ["a/"]\nextend-exclude = ["b/"]\n[env]\nTP = "8"\nNODES = 2\n'},
    ) / "sglang-lint.toml"
    config = load_config(path)
    assert config.exclude == ("a/",) and config.extend_exclude == ("b/",)
    assert config.env_map == {"TP": "8", "NODES": "2"}
    assert Config().exclude is None and Config().env_map == {}


# ---------------------------------------------------------------------------------
# per-file-ignores: ruff's basename match

UNKNOWN_OPTION = "python3 -m sglang.launch_server --model-path m --tp 8 --no-such-option\n"


@pytest.mark.parametrize(
    "glob, ignored_in",
    [
        ("decode.sh", {"deploy/decode.sh", "decode.sh"}),  # no `/`: the file name, wherever it is
        ("decode.*", {"deploy/decode.sh", "decode.sh"}),
        ("*.sh", {"deploy/decode.sh", "decode.sh", "deploy/prefill.sh"}),
        ("deploy/decode.sh", {"deploy/decode.sh"}),  # with a `/`: the path from the config's directory
        ("deploy/*.sh", {"deploy/decode.sh", "deploy/prefill.sh"}),
        ("other/decode.sh", set()),  # a `/` pattern is never matched against the name alone
        ("deploy", {"deploy/decode.sh", "deploy/prefill.sh"}),  # a directory: the files below it
        ("code.sh", set()),  # the whole name, not a suffix
    ],
)
def test_per_file_ignores_match_the_file_name_as_ruff_does(tmp_path, monkeypatch, glob, ignored_in) -> None:
    files = ("deploy/decode.sh", "deploy/prefill.sh", "decode.sh")
    write(tmp_path, {"sglang-lint.toml": f'[per-file-ignores]\n"{glob}" = ["SGL202"]\n', **{name: UNKNOWN_OPTION for name in files}})
    monkeypatch.chdir(tmp_path)
    reported = {path for path, code in findings() if code == "SGL202"}
    assert reported == set(files) - ignored_in


def test_per_file_ignores_name_match_in_a_nested_config(tmp_path, monkeypatch) -> None:
    # A name glob in deploy/sglang-lint.toml covers the files that config governs, at any depth.
    write(
        tmp_path,
        {
            "deploy/sglang-lint.toml": '[per-file-ignores]\n"decode.sh" = ["SGL202"]\n',
            "deploy/k8s/decode.sh": UNKNOWN_OPTION,
            "decode.sh": UNKNOWN_OPTION,
        },
    )
    monkeypatch.chdir(tmp_path)
    assert {path for path, code in findings() if code == "SGL202"} == {"decode.sh"}
    assert Config(path=tmp_path / "sglang-lint.toml", per_file_ignores=(("run.sh", frozenset({"SGL001"})),)).ignored_for(
        str(tmp_path / "a" / "b" / "run.sh")
    ) == {"SGL001"}
