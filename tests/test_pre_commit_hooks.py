"""The pre-commit hooks of .pre-commit-hooks.yaml, run for real with
``pre-commit try-repo`` against throw-away repositories.

SLOW (about 10-60 s): pre-commit builds a virtualenv and pip-installs this
package into it (twice: the flake8 hook's environment adds flake8). Skipped only
when pre-commit is not installed (it is in the `test` extra) or cannot create
its environments here (no package index reachable).

try-repo snapshots uncommitted changes of *tracked* files only, and
.pre-commit-hooks.yaml must be in the snapshot: so the hook repository used is a
fresh git repository holding a copy of this project, committed, whatever the
state of this working tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

pre_commit = pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install -e '.[test]')")

_GIT = ["git", "-c", "user.name=sglang-lint tests", "-c", "user.email=tests@example.invalid", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"]
_OFFLINE_SIGNS = ("No matching distribution", "Could not find a version", "Failed to establish a new connection", "Temporary failure in name resolution", "NewConnectionError")


def _git_repo(path: Path) -> Path:
    subprocess.run([*_GIT, "init", "-q", str(path)], check=True)
    subprocess.run([*_GIT, "add", "-A"], cwd=path, check=True)
    subprocess.run([*_GIT, "commit", "-q", "-m", "initial"], cwd=path, check=True)
    return path


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path_factory.mktemp("hook-repo")
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy2(ROOT / name, repo / name)
    shutil.copytree(ROOT / "sglang_lint", repo / "sglang_lint", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return _git_repo(repo)


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


def _sample(tmp_path: Path, files: dict[str, str]) -> Path:
    sample = tmp_path / "sample"
    sample.mkdir()
    for name, text in files.items():
        (sample / name).parent.mkdir(parents=True, exist_ok=True)
        (sample / name).write_text(text, encoding="utf-8")
    return _git_repo(sample)


def _try_repo(hook_repo: Path, home: Path, sample: Path, hook: str, *, all_files: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid"}
    env.pop("VIRTUAL_ENV", None)
    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), hook, *(["--all-files"] if all_files else []), "--color", "never"],
        cwd=sample,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    if "An error has occurred" in output:
        log = home / "pre-commit.log"
        details = log.read_text(errors="replace") if log.exists() else ""
        if any(sign in output + details for sign in _OFFLINE_SIGNS):
            pytest.skip("pre-commit cannot install its hook environment here (no package index)")
        pytest.fail(f"pre-commit failed to run the hook:\n{output}\n{details[-4000:]}")
    return result


def test_hook_manifest() -> None:
    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"sglang-lint", "sglang-lint-fix", "sglang-lint-flake8"}
    main = hooks["sglang-lint"]
    assert main["entry"] == "sglang-lint check --force-exclude" and main["language"] == "python"
    assert main["types_or"] == ["python", "shell", "yaml", "markdown", "jupyter"]
    assert main["require_serial"] is True and main["pass_filenames"] is True
    fix = hooks["sglang-lint-fix"]
    assert fix["entry"] == "sglang-lint check --force-exclude --fix"
    assert {key: fix[key] for key in ("language", "types_or", "require_serial", "pass_filenames")} == {
        key: main[key] for key in ("language", "types_or", "require_serial", "pass_filenames")
    }
    flake8 = hooks["sglang-lint-flake8"]
    assert flake8["entry"] == "flake8 --select SGL" and flake8["types"] == ["python"]
    assert any(dep.startswith("flake8") for dep in flake8["additional_dependencies"])


def test_try_repo_fails_on_a_mismatch_across_two_files(hook_repo, pre_commit_home, tmp_path) -> None:
    # prefill and decode in two files: require_serial makes one run see both
    files = {f"deploy/{p.name}": p.read_text() for p in (FIXTURES / "split-files").glob("*.sh")}
    result = _try_repo(hook_repo, pre_commit_home, _sample(tmp_path, files), "sglang-lint")
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "SGL001" in output and "deploy/decode.sh:7:3" in output


def test_try_repo_passes_a_clean_repository(hook_repo, pre_commit_home, tmp_path) -> None:
    files = {
        "launch_all.sh": (FIXTURES / "two-routers-one-file" / "launch_all.sh").read_text(),
        "README.md": "# notes\n\n```bash\necho not a launch\n```\n",
        "tool.py": "print('hello')\n",
    }
    result = _try_repo(hook_repo, pre_commit_home, _sample(tmp_path, files), "sglang-lint")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout


def test_try_repo_fix_hook_rewrites_the_file(hook_repo, pre_commit_home, tmp_path) -> None:
    # The hook applies safe fixes; the repository's config allows the unsafe
    # one (a misspelt option): the file is rewritten and pre-commit fails the
    # run because a hook changed it.
    script = "python -m sglang.launch_server --model-path m --tp 2 --dissagregation-transfer-backend mooncake\n"
    sample = _sample(tmp_path, {"run.sh": script, "sglang-lint.toml": "unsafe-fixes = true\n"})
    result = _try_repo(hook_repo, pre_commit_home, sample, "sglang-lint-fix")
    assert result.returncode == 1, result.stdout + result.stderr
    assert (sample / "run.sh").read_text() == script.replace("dissagregation", "disaggregation")


def test_try_repo_flake8_hook(hook_repo, pre_commit_home, tmp_path) -> None:
    bad = (
        "import subprocess\n"
        "subprocess.Popen(['python', '-m', 'sglang.launch_server', '--tp', '4', '--no-such-option'])\n"
    )
    # a long line: flake8's own codes are not selected by the hook
    fine = "import subprocess\nx = 'a very long line ........................................................................................'\n"
    result = _try_repo(hook_repo, pre_commit_home, _sample(tmp_path, {"launch.py": bad, "other.py": fine}), "sglang-lint-flake8")
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "launch.py:2:" in output and "SGL202" in output
    assert "E501" not in output and "other.py" not in output


def test_try_repo_honours_configured_excludes(hook_repo, pre_commit_home, tmp_path) -> None:
    # pre-commit names every changed file, excluded or not: the hook's
    # --force-exclude keeps the config's extend-exclude in force.
    files = {f"legacy/{p.name}": p.read_text() for p in (FIXTURES / "split-files").glob("*.sh")}
    files["sglang-lint.toml"] = 'extend-exclude = ["legacy/"]\n'
    result = _try_repo(hook_repo, pre_commit_home, _sample(tmp_path, files), "sglang-lint")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("hook", "case", "changed", "where"),
    [
        ("sglang-lint", "split-files", "decode.sh", "deploy/decode.sh:7:3"),
        ("sglang-lint", "context-k8s-pair", "decode.yaml", "deploy/decode.yaml:35:"),
        ("sglang-lint", "context-k8s-pair", "prefill.yaml", "deploy/decode.yaml:35:"),
        ("sglang-lint-flake8", "context-python-pair", "decode.py", "deploy/decode.py:16:"),
    ],
)
def test_try_repo_with_only_one_side_staged(hook_repo, pre_commit_home, tmp_path, hook, case, changed, where) -> None:
    """Issue 23: pre-commit passes only the staged files. A commit that changes one
    side of a pair (here a comment line, the mismatch being there already) is
    judged with the other side read from disk, and the pair finding is shown."""
    files = {f"deploy/{p.name}": p.read_text() for p in (FIXTURES / case).iterdir() if p.name != "EXPECTED"}
    sample = _sample(tmp_path, files)
    edited = sample / "deploy" / changed
    edited.write_text(edited.read_text() + "# reviewed\n")
    subprocess.run([*_GIT, "add", str(edited)], cwd=sample, check=True)
    staged = subprocess.run([*_GIT, "diff", "--cached", "--name-only"], cwd=sample, check=True, capture_output=True, text=True).stdout.split()
    assert staged == [f"deploy/{changed}"]
    result = _try_repo(hook_repo, pre_commit_home, sample, hook, all_files=False)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "SGL001" in output and where in output, output
