"""The deployment context of files named one by one (issue 23).

pre-commit, flake8 and review bots hand sglang-lint only the changed files, but a
mismatch lives in a pair: a changed ``decode.sh`` must be judged with the
``prefill.sh`` beside it on disk. The context is read with the scoping a
directory walk uses (the named file's directory, the topology manifest's entries
naming it; excludes and .gitignore hold), and only findings that concern a named
file are reported.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sglang_lint.cli import main
from sglang_lint.pipeline import LintOptions, lint_paths

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def rows(result) -> list[tuple[str, str, int]]:
    return sorted((f.code, f.location.path, f.location.line) for f in result.findings)


def expected(case: str) -> list[tuple[str, str, int]]:
    """The EXPECTED findings of a fixture, paths relative to the fixture."""
    found = []
    for raw in (FIXTURES / case / "EXPECTED").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            code, where = line.split()
            path, _, number = where.rpartition(":")
            found.append((code, path, int(number)))
    return sorted(found)


@pytest.fixture
def copy(tmp_path, monkeypatch):
    """Copy a fixture into a fresh working directory (the tests write caches and
    edit files) and chdir there."""

    def make(case: str) -> Path:
        target = tmp_path / case
        shutil.copytree(FIXTURES / case, target)
        (target / "EXPECTED").unlink()
        monkeypatch.chdir(target)
        return target

    return make


# ---------------------------------------------------------------------------------
# The CLI and lint_paths


@pytest.mark.parametrize("case", ["split-files", "context-k8s-pair", "context-python-pair"])
def test_each_file_named_alone_reports_the_pair(case, copy) -> None:
    """Whichever side changed, the pair finding is reported: on the decode's
    culprit when the decode is named, and when the prefill is (its pair includes
    the named file)."""
    directory = copy(case)
    want = expected(case)
    for name in sorted(os.listdir(directory)):
        result = lint_paths([name], LintOptions())
        assert rows(result) == want, name
        assert result.context_files and name not in result.context_files
        assert result.files_checked == 1


def test_no_context_checks_the_named_file_alone(copy) -> None:
    copy("split-files")
    assert rows(lint_paths(["decode.sh"], LintOptions(context=False))) == []
    assert lint_paths(["decode.sh"], LintOptions(context=False)).context_files == []


def test_findings_about_context_files_alone_are_not_reported(copy) -> None:
    """A problem of the prefill script (an unknown option) is the prefill's: a run
    naming the decode does not report it; one naming the prefill does."""
    directory = copy("split-files")
    prefill = directory / "prefill.sh"
    prefill.write_text(prefill.read_text().replace("--port 30000", "--port 30000 --no-such-option"))
    decode = directory / "decode.sh"
    decode.write_text(decode.read_text().replace("--tp 4", "--tp 2"))  # the pair agrees now
    assert rows(lint_paths(["decode.sh"], LintOptions())) == []
    assert [code for code, _, _ in rows(lint_paths(["prefill.sh"], LintOptions()))] == ["SGL202"]


HELPER = """\
#!/bin/bash
source ./serve_lib.sh
start_role() {
    $LAUNCHER -m sglang.launch_server --model-path m --disaggregation-mode "$1" --tp 2 &
}
"""
LIBRARY = """\
#!/bin/bash
serve_lib_start() {
    $PY -m sglang.launch_server --model-path m --tp 2 &
}
"""


def _scripts_sourcing_a_helper(directory: Path) -> None:
    """Two scripts that source one helper whose launches cannot be followed
    (their command is a variable no file sets), through a helper of its own."""
    (directory / "common.sh").write_text(HELPER)
    (directory / "serve_lib.sh").write_text(LIBRARY)
    # (each launches a server too: a file that launches nothing brings no context)
    (directory / "run.sh").write_text("#!/bin/bash\nsource ./common.sh\nstart_role prefill\nstart_role decode\npython3 -m sglang.launch_server --model-path m --tp 2\n")
    (directory / "run_small.sh").write_text("#!/bin/bash\n. ./common.sh\n\nserve_lib_start\npython3 -m sglang.launch_server --model-path m --tp 2\n")


def _notes(result) -> list[tuple[str, int, list[tuple[str, int]]]]:
    return sorted((f.location.path, f.location.line, [(r.location.path, r.location.line) for r in f.related]) for f in result.findings if f.code == "SGL900")


def test_a_note_in_a_sourced_helper_is_reported_for_the_named_script(tmp_path, monkeypatch) -> None:
    """pre-commit names the changed script; the helper it sources is context.
    A launch of the script lost in the helper was noted at the helper's line,
    and a run over the script did not report the note at all (Mooncake's
    `common.sh`): the launch was dropped without a word. The note says which
    line of the script reached it, and concerns the script through it."""
    monkeypatch.chdir(tmp_path)
    _scripts_sourcing_a_helper(tmp_path)
    result = lint_paths(["run.sh"], LintOptions())
    assert "common.sh" in result.context_files
    assert _notes(result) == [("common.sh", 4, [("run.sh", 3)])]
    # (through a helper's helper: the script's own line, not the helper's call)
    assert _notes(lint_paths(["run_small.sh"], LintOptions())) == [("serve_lib.sh", 3, [("run_small.sh", 4)])]


def test_a_helper_note_is_one_note_with_each_line_that_reaches_it(tmp_path, monkeypatch) -> None:
    """Over the directory, the helper's note comes from the helper analyzed as a
    file and from each script that sources it: one note, and each script's line."""
    monkeypatch.chdir(tmp_path)
    _scripts_sourcing_a_helper(tmp_path)
    assert _notes(lint_paths(["."], LintOptions())) == [
        ("common.sh", 4, [("run.sh", 3)]),
        ("serve_lib.sh", 3, [("run_small.sh", 4)]),
    ]
    # Named alone, the helper keeps its note; no script is a context of it.
    assert [(path, line) for path, line, _ in _notes(lint_paths(["common.sh"], LintOptions()))] == [("common.sh", 4)]


def test_a_file_that_launches_nothing_brings_no_context(copy) -> None:
    directory = copy("split-files")
    (directory / "notes.md").write_text("# Notes\n\nNothing to launch here.\n")
    result = lint_paths(["notes.md"], LintOptions())
    assert rows(result) == [] and result.context_files == []


def test_a_directory_walk_is_unchanged(copy) -> None:
    copy("split-files")
    result = lint_paths(["."], LintOptions())
    assert rows(result) == expected("split-files") and result.context_files == []


def test_context_respects_gitignore_and_excludes(copy) -> None:
    directory = copy("split-files")
    subprocess.run(["git", "init", "-q", str(directory)], check=True)
    (directory / ".gitignore").write_text("prefill.sh\n")
    assert rows(lint_paths(["decode.sh"], LintOptions())) == []
    assert rows(lint_paths(["decode.sh"], LintOptions(respect_gitignore=False))) == expected("split-files")
    (directory / ".gitignore").unlink()
    (directory / "sglang-lint.toml").write_text('extend-exclude = ["prefill.sh"]\n')
    assert rows(lint_paths(["decode.sh"], LintOptions())) == []


def test_the_manifest_brings_files_from_other_folders(copy) -> None:
    """A [[deployment]] entry pairs a prefill script with a decode manifest in
    another folder: naming either file alone reads the other."""
    copy("manifest-cross-folder")
    want = expected("manifest-cross-folder")
    decode = lint_paths(["k8s/decode.yaml"], LintOptions())
    assert rows(decode) == want and decode.context_files == ["prefill/launch_prefill.sh"]
    assert rows(lint_paths(["prefill/launch_prefill.sh"], LintOptions())) == want


def test_an_edit_to_a_context_file_is_not_answered_from_the_cache(copy) -> None:
    directory = copy("split-files")
    options = LintOptions(cache=True)
    first = lint_paths(["decode.sh"], options)
    again = lint_paths(["decode.sh"], options)
    assert again.from_findings_cache and rows(again) == rows(first) == expected("split-files")
    prefill = directory / "prefill.sh"
    prefill.write_text(prefill.read_text().replace("--attn-cp-size 2", "--attn-cp-size 1"))  # now tp 4 both
    after = lint_paths(["decode.sh"], options)
    assert not after.from_findings_cache and rows(after) == []
    # the same files named both, or as context, are two different runs
    both = lint_paths(["decode.sh", "prefill.sh"], options)
    assert not both.from_findings_cache


def test_cli_reports_on_the_named_file(copy, capsys) -> None:
    copy("split-files")
    assert main(["check", "--no-cache", "--output-format", "concise", "decode.sh"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("decode.sh:7:3: SGL001 ")
    assert main(["check", "--no-cache", "--no-context", "decode.sh"]) == 0
    assert "All checks passed!" in capsys.readouterr().out


def test_stdin_filename_reads_the_context_of_that_name(copy, monkeypatch, capsys) -> None:
    """An editor's buffer on standard input is judged with the files beside the
    name it is given (the file on disk itself is replaced by the buffer)."""
    directory = copy("split-files")
    text = (directory / "decode.sh").read_text()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["check", "--no-cache", "--output-format", "concise", "--stdin-filename", "decode.sh", "-"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("decode.sh:7:3: SGL001 ") and out.count("SGL001") == 1
    fixed = text.replace("--tp 4", "--tp 2")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(fixed.encode())))
    assert main(["check", "--no-cache", "--stdin-filename", "decode.sh", "-"]) == 0


# ---------------------------------------------------------------------------------
# flake8: one file at a time, the pair reported on that file


def _flake8(cwd: Path, *args: str) -> list[tuple[str, int, int, str]]:
    process = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "SGL", "--format", "%(path)s|%(row)d|%(col)d|%(code)s %(text)s", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert process.returncode in (0, 1), process.stderr
    found = []
    for line in process.stdout.splitlines():
        path, row, col, text = line.split("|", 3)
        found.append((path, int(row), int(col), text))
    return found


def test_flake8_pairs_a_python_file_with_the_one_beside_it(copy) -> None:
    pytest.importorskip("flake8")
    directory = copy("context-python-pair")
    [(_, path, line)] = expected("context-python-pair")
    decode = _flake8(directory, "decode.py")
    assert [(p, r, t.split()[0]) for p, r, _, t in decode] == [("decode.py", line, "SGL001")]
    # The prefill named alone: the finding is located in decode.py, so flake8 shows
    # it on this file's side of the pair (its TP, line 8), saying where it is.
    prefill = _flake8(directory, "prefill.py")
    assert [(p, r, t.split()[0]) for p, r, _, t in prefill] == [("prefill.py", 8, "SGL001")]
    assert prefill[0][3].endswith(f"(at {path}:{line}:{decode[0][2]})")
    # a noqa on the reported line silences it, as for any flake8 finding
    text = (directory / "prefill.py").read_text().splitlines()
    text[7] += "  # noqa: SGL001"
    (directory / "prefill.py").write_text("\n".join(text) + "\n")
    assert _flake8(directory, "prefill.py") == []


def test_a_dismissed_context_file_is_read_again_once_it_changes(copy, monkeypatch) -> None:
    """Files beside the named one that launch nothing are remembered with their
    stat (cache.DismissedFiles), not read again while unchanged; an edit that
    makes one launch is seen at once."""
    from sglang_lint import extraction

    directory = copy("split-files")
    prefill = directory / "prefill.sh"
    launch = prefill.read_text()
    prefill.write_text("#!/bin/bash\n# the prefill is started by hand for now\necho start the prefill\n")
    options = LintOptions(cache=True, reuse_findings=False)
    assert rows(lint_paths(["decode.sh"], options)) == []
    read: list[str] = []
    original = extraction.read_files
    monkeypatch.setattr(extraction, "read_files", lambda jobs, **kw: (read.extend(j.path for j in jobs), original(jobs, **kw))[1])
    assert rows(lint_paths(["decode.sh"], options)) == []
    assert "prefill.sh" not in read  # one stat, no read
    prefill.write_text(launch)
    assert rows(lint_paths(["decode.sh"], options)) == expected("split-files")
    assert "prefill.sh" in read


def test_show_settings_says_whether_context_is_read(copy, capsys) -> None:
    copy("split-files")
    assert main(["check", "--show-settings", "decode.sh"]) == 0
    assert "context = true" in capsys.readouterr().out
    assert main(["check", "--show-settings", "--no-context", "decode.sh"]) == 0
    assert "context = false" in capsys.readouterr().out


def test_topology_shows_the_deployments_of_the_named_files(copy, capsys) -> None:
    """The context pairs the named file; a deployment of context files alone (a
    router script with its own servers beside it) is not the user's question."""
    directory = copy("split-files")
    (directory / "other.sh").write_text(
        "python -m sglang.launch_server --disaggregation-mode prefill --tp 2 --port 40000 &\n"
        "python -m sglang.launch_server --disaggregation-mode decode --tp 2 --port 40001 &\n"
    )
    result = lint_paths(["decode.sh"], LintOptions())
    assert [sorted(s.launch.path for s in d.servers) for d in result.deployments] == [["decode.sh", "prefill.sh"]]
    assert [(p.launch.path, d.launch.path) for p, d, _ in result.pair_findings] == [("prefill.sh", "decode.sh")]
    assert main(["topology", "--no-cache", "decode.sh"]) == 0
    out = capsys.readouterr().out
    assert "other.sh" not in out and "decode.sh" in out
