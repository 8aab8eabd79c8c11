"""Shell `source` / `.` across files (issue 19, part 1): the sourced file's
statements run where the script sources it (its functions, variables and
arrays, in order), through the idioms for the script's directory; the
`# sglang-lint: source=` directive; the bounds (the project's root, nesting
depth, cycles) and a note naming the line for every `source` not followed."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sglang_lint.files import FileKind
from sglang_lint.pipeline import LintOptions, lint_paths
from sglang_lint.sources import extract
from sglang_lint.sources.project import MAX_FILES, ProjectFiles, text_digest
from sglang_lint.sources.shell_walk import MAX_SOURCE_DEPTH

# A helper file: a launch inside a function, an array and a variable it defines.
COMMON = (
    "# helpers, sourced\n"
    "EXTRA=(--trust-remote-code --port 30000)\n"
    "TP=8\n"
    "serve() {\n"
    '  python3 -m sglang.launch_server --model-path "$1" --tp "$2" "${EXTRA[@]}"\n'
    "}\n"
)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(text.encode()) if isinstance(text, str) else (root / name).write_bytes(text)


def analyze(root: Path, script: str, monkeypatch, roots: tuple[str, ...] | None = None):
    """The shell source's result for ``script`` (relative to ``root``, the
    working directory and the project)."""
    monkeypatch.chdir(root)
    project = ProjectFiles(roots or (os.path.realpath(root),))
    return extract(script, (root / script).read_text(), FileKind.SHELL, None, project)


def argv(launch) -> list[str]:
    return [token.value.text if token.value.is_known else f"<{token.value.kind.value}>" for token in launch.args]


@pytest.mark.parametrize(
    "script",
    [
        # The idioms for the script's directory, each reaching bin/../lib/common.sh.
        '. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"\n',
        'source "$(cd "$(dirname "$0")" && pwd)/../lib/common.sh"\n',
        'SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\nsource "$SCRIPT_DIR/../lib/common.sh"\n',
        'BASE_DIR="$(cd "$(dirname "$0")/.." && pwd)"\n. "${BASE_DIR}/lib/common.sh"\n',
        'SCRIPT_DIR=$(dirname "$(realpath "$0")")\n. $SCRIPT_DIR/../lib/common.sh\n',
        'HERE=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")\nsource "$HERE"/../lib/common.sh\n',
        # more `cd` before the `pwd`; a default the environment may override
        # (followed as the script run without it: Mooncake's tone tests)
        'ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && cd .. && pwd)\n. "$ROOT/lib/common.sh"\n',
        'BASE_DIR=${BASE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && cd .. && pwd)}\n. ${BASE_DIR}/lib/common.sh\n',
        ': "${LIB:=$(cd "$(dirname "$0")/../lib" && pwd)}"\n. "$LIB/common.sh"\n',
        # the parent of a directory told; a relative path after `cd` to a
        # directory told is the working directory's (bash's)
        'HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\nROOT="$(dirname "$HERE")"\n. "$ROOT/lib/common.sh"\n',
        'cd "$(dirname "$0")/.."\nsource lib/common.sh\n',
        'ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"\ncd "$ROOT"\ncd lib\n. ./common.sh\n',
        # A path relative to the script's directory.
        "source ../lib/common.sh\n",
        ". ./../lib/common.sh\n",
    ],
)
def test_each_idiom_reaches_the_helper_and_its_launch(tmp_path, monkeypatch, script) -> None:
    write(tmp_path, {"lib/common.sh": COMMON, "bin/run.sh": "#!/bin/bash\n" + script + "serve /models/m 4\n"})
    result = analyze(tmp_path, "bin/run.sh", monkeypatch)
    assert result.notes == []
    (server,) = result.servers
    assert argv(server) == ["--model-path", "/models/m", "--tp", "4", "--trust-remote-code", "--port", "30000"]
    # The launch is the script's, written in the helper (line 5), called at the
    # script's last line; the values passed are located where they are written.
    call_line = script.count("\n") + 2
    assert server.path == "bin/run.sh"
    assert (server.location.path, server.location.line) == ("lib/common.sh", 5)
    assert server.context == f"serve() called at bin/run.sh:{call_line}"
    tp = server.args[3]
    assert (tp.location.path, tp.location.line) == ("lib/common.sh", 5)
    assert (tp.origin.path, tp.origin.line) == ("bin/run.sh", call_line)
    port = server.args[6]
    assert (port.location.path, port.location.line) == ("lib/common.sh", 5)
    assert (port.origin.path, port.origin.line) == ("lib/common.sh", 2)
    # A `# noqa` on the call site silences it; the helper's lines are not the script's.
    assert server.line_ranges == ((call_line, call_line),)
    assert result.dependencies == [("lib/common.sh", text_digest(COMMON))]


def test_definitions_take_effect_in_order(tmp_path, monkeypatch) -> None:
    """A variable set before the `source` is overwritten by the file; one set
    after it wins; a launch at the sourced file's top level is located there,
    its context the `source` line."""
    write(
        tmp_path,
        {
            "env.sh": 'PORT=30001\npython3 -m sglang.launch_server --model-path "$MODEL" --port "$PORT"\n',
            "run.sh": "MODEL=a\nPORT=1\nsource env.sh\npython3 -m sglang.launch_server --model-path $MODEL --port $PORT --tp 2\nPORT=2\n"
            "python3 -m sglang.launch_server --model-path $MODEL --port $PORT\n",
        },
    )
    result = analyze(tmp_path, "run.sh", monkeypatch)
    assert [argv(s) for s in result.servers] == [
        ["--model-path", "a", "--port", "30001"],
        ["--model-path", "a", "--port", "30001", "--tp", "2"],
        ["--model-path", "a", "--port", "2"],
    ]
    first = result.servers[0]
    assert (first.location.path, first.location.line, first.context) == ("env.sh", 2, "env.sh sourced at run.sh:3")
    assert first.line_ranges == ((3, 3),)


def test_the_directive_names_a_path_that_cannot_be_told(tmp_path, monkeypatch) -> None:
    write(
        tmp_path,
        {
            "lib/common.sh": COMMON,
            "run.sh": '# sglang-lint: source=lib/common.sh\nsource "$CONFIG_ROOT/common.sh"\nserve m 2\n'
            'source "$CONFIG_ROOT/other.sh"  # sglang-lint: source=lib/common.sh\n',
        },
    )
    result = analyze(tmp_path, "run.sh", monkeypatch)
    assert result.notes == []
    (server,) = result.servers
    assert argv(server)[:4] == ["--model-path", "m", "--tp", "2"]


def test_an_unresolvable_path_is_one_note_naming_the_line(tmp_path, monkeypatch) -> None:
    write(tmp_path, {"run.sh": 'set -e\nsource "$SGLANG_ENV_DIR/env.sh"\nserve m 2\n'})
    result = analyze(tmp_path, "run.sh", monkeypatch)
    (note,) = result.notes
    assert (note.path, note.line) == ("run.sh", 2)
    assert "not followed" in note.message and "# sglang-lint: source=" in note.message
    assert result.dependencies == []


def test_a_missing_file_is_a_note_and_a_dependency(tmp_path, monkeypatch) -> None:
    """Its creation must make the script's cached result stale: it is recorded
    with the empty digest."""
    write(tmp_path, {"run.sh": "echo start\n. ./missing.sh\n"})
    result = analyze(tmp_path, "run.sh", monkeypatch)
    (note,) = result.notes
    assert (note.line, note.message) == (2, "`. missing.sh` not followed: it does not exist; its functions and variables are unknown here")
    assert result.dependencies == [("missing.sh", "")]


def test_a_path_outside_the_project_is_never_read(tmp_path, monkeypatch) -> None:
    write(tmp_path, {"secret.sh": COMMON, "project/run.sh": "source ../secret.sh\nserve m 2\n"})
    opened: list[str] = []
    real_open = os.open

    def spy(path, *args, **kwargs):
        opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    result = analyze(tmp_path / "project", "run.sh", monkeypatch)
    assert not [path for path in opened if path.endswith("secret.sh")]
    assert result.servers == [] and result.dependencies == []
    (note,) = result.notes
    assert note.line == 1 and "outside the project" in note.message


def test_the_machines_files_are_neither_read_nor_noted(tmp_path, monkeypatch) -> None:
    """A virtualenv's activate script, a shell profile: the environment, not the
    project's helpers (a note on each would cry wolf)."""
    write(tmp_path, {"run.sh": "source /opt/venvs/sglang/bin/activate\n. ~/.bashrc\nsource /etc/profile.d/conda.sh\nsource .venv/bin/activate\n"})
    result = analyze(tmp_path, "run.sh", monkeypatch)
    assert result.notes == [] and result.dependencies == []


@pytest.mark.parametrize(
    "activation",
    ['source "$VENV_PATH/bin/activate"', "source ${VENV}/bin/activate", "source sglang/.venv-sglang/bin/activate", "source activate sglang", '. "$ORIGINAL_HOME/sglang-env/bin/activate"', 'source "$CONDA_PREFIX/etc/profile.d/conda.sh"'],
)
def test_a_python_environments_activation_is_neither_read_nor_noted(tmp_path, monkeypatch, activation) -> None:
    """Wherever the environment lies (a variable's directory, a path the
    repository does not hold, conda's `activate`), activating it sets PATH: a
    note that it was not followed came before nearly every launch of a
    cluster script (5 files of 4 public repositories)."""
    write(tmp_path, {"run.sh": f"{activation}\npython3 -m sglang.launch_server --model-path m --tp 2\n"})
    result = analyze(tmp_path, "run.sh", monkeypatch)
    assert result.notes == [] and len(result.servers) == 1


def test_a_symbolic_link_out_of_the_project_is_not_followed(tmp_path, monkeypatch) -> None:
    write(tmp_path, {"secret.sh": COMMON, "project/run.sh": "source lib.sh\nserve m 2\n"})
    (tmp_path / "project" / "lib.sh").symlink_to(tmp_path / "secret.sh")
    result = analyze(tmp_path / "project", "run.sh", monkeypatch)
    assert result.servers == []
    assert "outside the project" in result.notes[0].message


def test_a_binary_file_is_a_note(tmp_path, monkeypatch) -> None:
    write(tmp_path, {"run.sh": "source blob.sh\n"})
    (tmp_path / "blob.sh").write_bytes(b"\x7fELF\0\0\0binary")
    result = analyze(tmp_path, "run.sh", monkeypatch)
    (note,) = result.notes
    assert note.line == 1 and "not followed" in note.message and "binary" in note.message


def test_a_huge_file_is_a_note_and_is_not_read(tmp_path, monkeypatch) -> None:
    from sglang_lint.files import MAX_BYTES

    write(tmp_path, {"run.sh": "echo start\nsource huge.sh\n"})
    with open(tmp_path / "huge.sh", "wb") as handle:
        handle.truncate(MAX_BYTES + 1)  # sparse: no 10 MB written
    result = analyze(tmp_path, "run.sh", monkeypatch)
    (note,) = result.notes
    assert note.line == 2 and note.message.startswith("`source huge.sh` not followed: file is ") and "limit;" in note.message


def test_a_cycle_is_read_once_with_a_note(tmp_path, monkeypatch) -> None:
    """a.sh sources b.sh sources a.sh: bash would loop; each file is read once."""
    write(
        tmp_path,
        {
            "a.sh": "source b.sh\npython3 -m sglang.launch_server --model-path a\n",
            "b.sh": "source a.sh\npython3 -m sglang.launch_server --model-path b\n",
        },
    )
    result = analyze(tmp_path, "a.sh", monkeypatch)
    assert [argv(s) for s in result.servers] == [["--model-path", "b"], ["--model-path", "a"]]
    (note,) = result.notes
    assert (note.path, note.line) == ("b.sh", 1)
    assert "being read already" in note.message and "a.sh" in note.message


def test_nesting_is_bounded(tmp_path, monkeypatch) -> None:
    count = MAX_SOURCE_DEPTH + 3
    files = {f"f{n}.sh": f"source f{n + 1}.sh\nV{n}=1\n" for n in range(count)}
    files[f"f{count}.sh"] = "python3 -m sglang.launch_server --model-path deep\n"
    write(tmp_path, files)
    result = analyze(tmp_path, "f0.sh", monkeypatch)
    assert result.servers == []
    (note,) = result.notes
    # f0.sh is the script; f1.sh ... f8.sh are read; f8.sh's `source` is not.
    assert (note.path, note.line) == (f"f{MAX_SOURCE_DEPTH}.sh", 1)
    assert f"more than {MAX_SOURCE_DEPTH} deep" in note.message
    assert len(result.dependencies) == MAX_SOURCE_DEPTH


def test_the_files_read_are_bounded(tmp_path, monkeypatch) -> None:
    files = {f"lib{n}.sh": f"X{n}=1\n" for n in range(MAX_FILES + 2)}
    files["run.sh"] = "".join(f"source lib{n}.sh\n" for n in range(MAX_FILES + 2))
    write(tmp_path, files)
    result = analyze(tmp_path, "run.sh", monkeypatch)
    assert len(result.dependencies) == MAX_FILES
    assert [note.line for note in result.notes] == [MAX_FILES + 1, MAX_FILES + 2]


def test_a_helper_sourced_in_a_loop_or_twice_is_read_once(tmp_path, monkeypatch) -> None:
    write(tmp_path, {"lib/common.sh": COMMON, "run.sh": "source lib/common.sh\nsource lib/common.sh\nserve m 2\n"})
    result = analyze(tmp_path, "run.sh", monkeypatch)
    assert len(result.servers) == 1 and result.notes == []
    assert result.dependencies == [("lib/common.sh", text_digest(COMMON))]


def test_unsaved_text_is_read_instead_of_the_disk(tmp_path, monkeypatch) -> None:
    write(tmp_path, {"lib/common.sh": COMMON, "run.sh": "source lib/common.sh\nserve m 2\n"})
    monkeypatch.chdir(tmp_path)
    edited = COMMON.replace("--port 30000", "--port 31000")
    project = ProjectFiles((os.path.realpath(tmp_path),), {str(tmp_path / "lib" / "common.sh"): edited})
    result = extract("run.sh", (tmp_path / "run.sh").read_text(), FileKind.SHELL, None, project)
    assert argv(result.servers[0])[-1] == "31000"
    assert result.dependencies == [("lib/common.sh", text_digest(edited))]


PAIR_SCRIPT = (
    '. "$(dirname "${BASH_SOURCE[0]}")/scripts/common.sh"\n'
    "start prefill 30000 --tp 8\n"
    "start decode 30001 --tp 4{noqa}\n"
)
PAIR_COMMON = (
    "start() {\n"
    "  local mode=$1 port=$2\n"
    "  shift 2\n"
    "  python3 -m sglang.launch_server --model-path m --enable-unified-memory \\\n"
    '    --disaggregation-transfer-backend mooncake --disaggregation-mode "$mode" --port "$port" "$@" &\n'
    "}\n"
)


def test_a_pair_in_a_sourced_helper_is_checked_and_noqa_on_the_call_site_works(tmp_path, monkeypatch) -> None:
    write(tmp_path, {"run_pd.sh": PAIR_SCRIPT.replace("{noqa}", ""), "scripts/common.sh": PAIR_COMMON})
    monkeypatch.chdir(tmp_path)
    result = lint_paths(["run_pd.sh"], LintOptions(cache=False))
    (finding,) = [f for f in result.findings if f.code == "SGL001"]
    assert (finding.location.path, finding.location.line) == ("run_pd.sh", 3)
    # The helper's lines are there for the snippets, though it was not analyzed itself.
    assert result.sources["scripts/common.sh"] == PAIR_COMMON.split("\n")
    (tmp_path / "run_pd.sh").write_text(PAIR_SCRIPT.replace("{noqa}", "  # noqa: SGL001"))
    assert [f.code for f in lint_paths(["run_pd.sh"], LintOptions(cache=False)).findings] == []


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("env") is None, reason="needs bash")
@pytest.mark.parametrize("idiom", ['"$(dirname "${BASH_SOURCE[0]}")"', '"$(cd "$(dirname "$0")/../bin" && pwd)"'])
def test_real_bash_runs_the_launches_found_in_a_sourced_file(tmp_path, monkeypatch, idiom) -> None:
    """Ground truth: bash runs the script (with the shell oracle's recording
    stub for python3, tests/_oracle_shell.py), reading the helper through the
    idiom; the argv it records is the one sglang-lint rebuilds."""
    from _oracle_shell import _STUB, _parse_log

    helper = COMMON + 'launch_top() { python3 -m sglang.launch_server --model-path "top-$1" "$@"; }\n'
    script = (
        f"#!/bin/bash\nHERE={idiom}\n. \"$HERE/../lib/common.sh\"\nEXTRA+=(--tp-size 2)\n"
        "serve '/models/a b' 4\nfor role in prefill decode; do launch_top \"$role\" --x; done\n"
    )
    write(tmp_path, {"lib/common.sh": helper, "bin/run.sh": script})
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    (stubs / "python3").write_text(_STUB)
    (stubs / "python3").chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run(
        [shutil.which("env"), "-i", f"PATH={stubs}:/usr/bin:/bin", shutil.which("bash"), str(tmp_path / "bin" / "run.sh")],
        cwd=work,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == b""
    ran = [list(call.argv) for call in _parse_log((work / "argv.log").read_bytes())]
    result = analyze(tmp_path, "bin/run.sh", monkeypatch)
    assert result.notes == []
    assert [["-m", "sglang.launch_server", *argv(server)] for server in result.servers] == ran


@pytest.mark.parametrize(
    "text, candidate",
    [
        ('. "$(dirname "$0")/common.sh"\nlaunch_helper m 8\n', True),
        ("set -e\nsource lib.sh\nstart_all\n", True),
        ("if true; then . ./env.sh; fi\n", True),
        ("echo 'nothing here'\nls ./logs\n", False),
    ],
)
def test_a_script_that_sources_a_file_is_a_candidate(text, candidate) -> None:
    """Its launch may live in the helper it sources: the prefilter (which would
    otherwise want `sglang` in the file itself) keeps it, on text and on bytes."""
    from sglang_lint.prefilter import may_launch, may_launch_bytes

    assert may_launch("shell", text) is candidate
    assert may_launch_bytes("shell", text.encode()) is candidate


def test_in_memory_files_source_each_other_and_never_the_disk(tmp_path, monkeypatch) -> None:
    """lint_texts: the files given are the project; nothing is read from disk."""
    from sglang_lint.pipeline import lint_texts

    monkeypatch.chdir(tmp_path)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "common.sh").write_text("start() { :; }\n")  # on disk, never read
    script = '. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"\nstart prefill 30000 --tp 8\nstart decode 30001 --tp 4\n'
    helper = PAIR_COMMON
    result = lint_texts({"run_pd.sh": script, "lib/common.sh": helper})
    assert [(f.code, f.location.path, f.location.line) for f in result.findings] == [("SGL001", "run_pd.sh", 3)]
    alone = lint_texts({"run_pd.sh": script})
    assert [(f.code, f.location.line) for f in alone.findings] == [("SGL900", 1)]
    assert "does not exist" in alone.findings[0].message


def test_a_path_no_system_can_open_is_refused_not_raised(tmp_path) -> None:
    project = ProjectFiles((str(tmp_path),))
    for path in (str(tmp_path / "x\ud800.sh"), str(tmp_path / "a\0b.sh")):
        text, problem = project.read(path)
        assert text is None and problem
        assert project.digest(path) == ""


@pytest.mark.parametrize(
    "script",
    [
        "ssh node1 \"source lib/common.sh && serve m 2\"\n",
        "ssh node1 bash <<EOF\nsource lib/common.sh\nserve m 2\nEOF\n",
    ],
    ids=["ssh-command", "ssh-heredoc"],
)
def test_a_source_on_another_host_is_not_read_here(tmp_path, monkeypatch, script) -> None:
    """The file is the remote host's (relative to its home directory): a note,
    unless a directive says it is the project's."""
    write(tmp_path, {"lib/common.sh": COMMON, "run.sh": script})
    result = analyze(tmp_path, "run.sh", monkeypatch)
    assert result.servers == [] and result.dependencies == []
    (note,) = result.notes
    assert note.line == (1 if script.startswith('ssh node1 "') else 2) and "another host" in note.message
    write(tmp_path, {"run.sh": script.replace("source lib", "# sglang-lint: source=lib/common.sh\nsource lib") if "EOF" in script else script})
    if "EOF" in script:
        directed = analyze(tmp_path, "run.sh", monkeypatch)
        assert directed.notes == [] and len(directed.servers) == 1


def test_a_helper_sourced_by_many_scripts_is_parsed_once(tmp_path, monkeypatch) -> None:
    """Each script interprets the helper's statements in its own state, but the
    helper's text is parsed once per process (and analyzed as a file of the run
    once, cached by content)."""
    from sglang_lint.sources.shell_walk import _parse_sourced

    helper = COMMON + "# parsed once\n"
    write(tmp_path, {"lib/common.sh": helper, **{f"run{n}.sh": f"source lib/common.sh\nserve m {n}\n" for n in range(1, 6)}})
    _parse_sourced.cache_clear()
    results = [analyze(tmp_path, f"run{n}.sh", monkeypatch) for n in range(1, 6)]
    assert [argv(r.servers[0])[3] for r in results] == ["1", "2", "3", "4", "5"]
    assert _parse_sourced.cache_info().misses == 1


@pytest.mark.parametrize("written", ["${REMOTE_DIR}", "$REMOTE_DIR", "$(remote_dir)"])
def test_a_note_on_another_hosts_source_quotes_the_script_as_written(tmp_path, monkeypatch, written) -> None:
    """What the outer shell substitutes into the ssh command is shown as written,
    never as the analyzer's stand-in variable (``${__sglang_lint_0}``)."""
    write(tmp_path, {"run.sh": f'ssh node1 "source {written}/lib/common.sh && serve m 2"\n'})
    result = analyze(tmp_path, "run.sh", monkeypatch)
    (note,) = result.notes
    assert note.message.startswith(f"`source {written}/lib/common.sh` not followed: it runs on another host"), note.message


@pytest.mark.parametrize(
    ("script", "found"),
    [
        # a `cd` in a subshell leaves this shell where it was (the script's directory)
        ('(cd "$(dirname "$0")/..")\nsource lib/common.sh\n', False),
        # a `cd` we cannot see: the old assumption (the script's directory) stands
        ('cd "$WORKDIR"\nsource ../lib/common.sh\n', True),
        ('cd "$(dirname "$0")/.."\ncd "$WORKDIR"\nsource ../lib/common.sh\n', True),
        # `cd A && cd B`: a directory that is there is gone into (the right side
        # runs); it merged "moved" with "stayed", and the source was lost
        ('cd "$(dirname "$0")/.." && cd lib\nsource ./common.sh\n', True),
        ('cd "$(dirname "$0")" && cd ../lib && source common.sh\n', True),
        # a relative `cd` before any other starts where a relative `source` does
        # (the script's directory), when the directory is there
        ("cd ../lib\nsource common.sh\n", True),
        ("cd ../lib && source common.sh\n", True),
        # ... but not after a `cd` we cannot see
        ('cd "$WORKDIR"\ncd lib\nsource common.sh\n', False),
    ],
)
def test_the_working_directory_is_moved_only_by_a_cd_we_can_see(tmp_path, monkeypatch, script, found) -> None:
    write(tmp_path, {"lib/common.sh": COMMON, "bin/run.sh": "#!/bin/bash\n" + script + "serve /models/m 4\n"})
    result = analyze(tmp_path, "bin/run.sh", monkeypatch)
    assert len(result.servers) == (1 if found else 0)
    assert bool(result.notes) != found


def test_a_value_the_outer_shell_puts_in_single_quotes_of_a_bash_c_script_is_that_value(tmp_path, monkeypatch) -> None:
    """`bash -c "cd '$REPO_DIR'; source '$REPO_DIR/lib/common.sh'"`: the outer
    shell substitutes the directory's text inside the inner single quotes,
    which keep it as it is. The analyzer's stand-in for it was read there as
    literal text: `source scripts/${__sglang_lint_1}/lib/common.sh` 'does not
    exist' (mattbucci's test_capabilities_all.sh)."""
    script = (
        '#!/bin/bash\nREPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"\n'
        "setsid bash -c \"\n  cd '$REPO_DIR'\n  source '$REPO_DIR/lib/common.sh'\n  serve /models/m 4\n\"\n"
    )
    write(tmp_path, {"lib/common.sh": COMMON, "bin/run.sh": script})
    result = analyze(tmp_path, "bin/run.sh", monkeypatch)
    assert result.notes == []
    (server,) = result.servers
    assert argv(server)[:4] == ["--model-path", "/models/m", "--tp", "4"]


def test_an_unknown_sourced_file_is_noted_only_in_a_script_that_concerns_sglang() -> None:
    """A codegen script's `source "${CODEGEN_PKG}/kube_codegen.sh"` (in five of
    the repositories swept: lws, ome, rbg, aibrix, llmaz) got a note saying a
    launch may be lost, in a script that names SGLang nowhere. A script that
    does name it keeps the note."""
    from sglang_lint.pipeline import lint_texts

    codegen = 'CODEGEN_PKG=${2:-bin}\nsource "${CODEGEN_PKG}/kube_codegen.sh"\nkube::codegen::gen_helpers .\n'
    assert lint_texts({"hack/update-codegen.sh": codegen}).findings == []
    serving = codegen.replace("kube::codegen::gen_helpers .", "python -m sglang.launch_server --model-path /m")
    (note,) = lint_texts({"serve.sh": serving}).findings
    assert note.code == "SGL900" and "not followed" in note.message and note.location.line == 2


def test_a_source_under_home_is_the_machines_environment() -> None:
    """`source "$HOME/.local/bin/env"` (uv's installer, in SGLang's GB200 CI
    script) is `~/.local/bin/env`: the machine's, not the project's; no note."""
    from sglang_lint.pipeline import lint_texts

    script = 'curl -LsSf https://astral.sh/uv/install.sh | sh\nsource "$HOME/.local/bin/env"\npython -m sglang.launch_server --model-path /m\n'
    assert lint_texts({"launch.sh": script}).findings == []
    # A directory of the project under a variable the script does not set is noted.
    noted = lint_texts({"launch.sh": script.replace("$HOME/.local/bin", "$REPO/lib")}).findings
    assert [f.code for f in noted] == ["SGL900"] and "not followed" in noted[0].message


def test_a_here_document_fed_to_cat_is_noted_only_when_it_may_launch() -> None:
    """SGLang's GB200 CI script writes srt-slurm's cluster config with `cat >
    srtslurm.yaml <<EOF` (accounts, partitions, containers: no launch); its
    account defaults to "sglang" and its values come from the environment: a
    note said the manifest was not analyzed. A manifest with a command is."""
    from sglang_lint.pipeline import lint_texts

    config = 'cat > srtslurm.yaml <<EOF\ndefault_account: "${SLURM_ACCOUNT:-sglang}"\ncontainers:\n  dynamo-sglang: ${SQUASH_FILE}\nEOF\n'
    assert lint_texts({"ci.sh": config}).findings == []
    pod = (
        "kubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n  containers:\n  - name: s\n"
        "    image: lmsysorg/sglang:latest\n    command: [python3, -m, sglang.launch_server, --tp, \"${TP}\"]\nEOF\n"
    )
    (note,) = lint_texts({"ci.sh": pod}).findings
    assert note.code == "SGL900" and "manifest given to `kubectl` here is not analyzed" in note.message
