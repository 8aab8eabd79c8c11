"""The workspace analysis behind the language server (sglang_lint.workspace):
open buffers over the files on disk, a per-file cache kept in memory between
runs, and config errors as a result rather than an exception (issue 9)."""

from __future__ import annotations

import os

import pytest

from sglang_lint.pipeline import LintOptions
from sglang_lint.workspace import WorkspaceLinter

PREFILL = (
    "python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory "
    "--disaggregation-transfer-backend mooncake --tp-size 8 --port 30000 &\n"
)
DECODE = PREFILL.replace("prefill", "decode").replace("30000", "30001")


@pytest.fixture
def workspace(tmp_path):
    (tmp_path / "prefill.sh").write_text(PREFILL)
    (tmp_path / "decode.sh").write_text(DECODE.replace("--tp-size 8", "--tp-size 4"))
    (tmp_path / "README.md").write_text("# notes\nnothing launches here\n")
    return tmp_path


def codes(outcome, path) -> list[str]:
    return sorted(f.code for f in outcome.findings.get(os.path.abspath(path), []))


def test_buffers_replace_their_files_on_disk(workspace) -> None:
    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    decode = str(workspace / "decode.sh")
    assert codes(linter.run({}), decode) == ["SGL001"]
    assert codes(linter.run({decode: DECODE}), decode) == []
    assert codes(linter.run({}), decode) == ["SGL001"]  # closed: the disk again


def test_an_open_file_outside_the_folder_is_analyzed_with_it(workspace, tmp_path_factory) -> None:
    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    (workspace / "decode.sh").unlink()
    outside = tmp_path_factory.mktemp("outside") / "decode.sh"
    outside.write_text(DECODE)
    outcome = linter.run({str(outside): DECODE.replace("--port 30001", "--port 30001 --pp 2")})  # unsaved
    assert codes(outcome, outside) == ["SGL201"]
    assert linter.run({}).findings.get(os.path.abspath(outside)) is None  # closed: not analyzed


def test_a_new_unsaved_file_in_the_folder_is_analyzed_one_outside_is_not(workspace, tmp_path_factory) -> None:
    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    (workspace / "decode.sh").unlink()
    new = str(workspace / "new-decode.sh")
    outcome = linter.run({new: DECODE.replace("--tp-size 8", "--tp-size 2")})
    assert codes(outcome, new) == ["SGL001"]
    elsewhere = str(tmp_path_factory.mktemp("elsewhere") / "decode.sh")
    outcome = linter.run({elsewhere: DECODE.replace("--tp-size 8", "--tp-size 2")})
    assert outcome.findings == {} and os.path.abspath(elsewhere) not in outcome.lines


def test_an_excluded_buffer_is_not_analyzed(workspace) -> None:
    (workspace / "sglang-lint.toml").write_text('exclude = ["scratch/"]\n')
    (workspace / "scratch").mkdir()
    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    (workspace / "decode.sh").unlink()
    outcome = linter.run({str(workspace / "scratch" / "decode.sh"): DECODE.replace("--tp-size 8", "--tp-size 2")})
    assert outcome.findings == {}


def test_the_memory_cache_answers_unchanged_files_and_the_disk_cache_is_written_on_request(workspace) -> None:
    cache_dir = workspace / ".cache"
    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=True, cache_dir=str(cache_dir), reuse_findings=False, jobs=1))
    linter.run({})
    assert (linter.cache.hits, linter.cache.misses) == (0, 2)
    assert not cache_dir.exists()  # not persisted: a keystroke run
    linter.run({}, persist=True)
    # Files unchanged on disk since they were read (their stat) keep their
    # entry in the index: not even looked up.
    assert (linter.cache.hits, linter.cache.misses) == (0, 0)
    assert list(cache_dir.glob("extract-*.json"))
    linter.run({str(workspace / "decode.sh"): DECODE})
    assert (linter.cache.hits, linter.cache.misses) == (0, 1)
    # A new process starts from the disk cache.
    fresh = WorkspaceLinter([str(workspace)], LintOptions(cache=True, cache_dir=str(cache_dir), reuse_findings=False, jobs=1))
    outcome = fresh.run({})
    assert (fresh.cache.hits, fresh.cache.misses) == (2, 0)
    assert codes(outcome, workspace / "decode.sh") == ["SGL001"]


def test_a_deleted_file_leaves_the_memory_cache(workspace) -> None:
    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=True, cache_dir=str(workspace / ".cache"), reuse_findings=False, jobs=1))
    linter.run({})
    (workspace / "decode.sh").unlink()
    linter.run({})
    assert all("decode.sh" not in path for path in linter.cache._entries)


def test_a_broken_config_is_an_outcome_with_the_file_and_line(workspace) -> None:
    (workspace / "sglang-lint.toml").write_text("select = [\n")
    outcome = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1)).run({})
    error = outcome.config_error
    assert error is not None and outcome.findings == {}
    assert error.path == str(workspace / "sglang-lint.toml")
    assert error.line == 2 and "invalid TOML" in str(error)


def test_without_a_folder_an_open_file_is_judged_with_its_directory(workspace) -> None:
    """An open file outside every workspace folder is named by itself, so its
    deployment context comes along (issue 23): the prefill.sh beside it on disk."""
    linter = WorkspaceLinter([], LintOptions(cache=False, reuse_findings=False, jobs=1))
    decode = str(workspace / "decode.sh")
    outcome = linter.run({decode: DECODE.replace("--tp-size 8", "--tp-size 4")})
    assert codes(outcome, decode) == ["SGL001"]
    assert list(outcome.findings) == [decode]  # nothing reported on the context file


def test_a_manifest_error_names_its_config_file(workspace) -> None:
    (workspace / "sglang-lint.toml").write_text('[[deployment]]\nname = "pd"\nprefill = "nothing-*.sh"\ndecode = "decode.sh"\n')
    outcome = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1)).run({})
    assert outcome.config_error is not None
    assert outcome.config_error.path == str(workspace / "sglang-lint.toml")


def test_without_a_folder_the_open_files_are_analyzed(workspace) -> None:
    linter = WorkspaceLinter([], LintOptions(cache=False, reuse_findings=False, jobs=1, context=False))
    decode, prefill = str(workspace / "decode.sh"), str(workspace / "prefill.sh")
    assert linter.run({decode: DECODE.replace("--tp-size 8", "--tp-size 4")}).findings == {}  # no peer open
    outcome = linter.run({decode: DECODE.replace("--tp-size 8", "--tp-size 4"), prefill: PREFILL})
    assert codes(outcome, decode) == ["SGL001"]


# ---------------------------------------------------------------------------------
# The index (issue 24): an edit costs the edited file and the files that read it


def _extractions(monkeypatch) -> list[str]:
    """The paths the sources extract from now on, in order."""
    import sglang_lint.workspace as workspace_module

    seen: list[str] = []
    real = workspace_module.extract

    def counting(path, *args, **kwargs):
        seen.append(os.path.basename(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(workspace_module, "extract", counting)
    return seen


def test_an_edit_reads_the_edited_file_alone(workspace, monkeypatch) -> None:
    for number in range(20):  # files that launch nothing: never read again either
        (workspace / f"notes-{number}.md").write_text("# nothing\n")
    (workspace / "other.sh").write_text("echo nothing to launch here\n")
    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    linter.run({})
    seen = _extractions(monkeypatch)
    decode = str(workspace / "decode.sh")
    outcome = linter.update({decode: DECODE}, {decode})
    assert seen == ["decode.sh"]
    assert codes(outcome, decode) == []
    outcome = linter.update({decode: DECODE.replace("--tp-size 8", "--tp-size 2")}, {decode})
    assert seen == ["decode.sh", "decode.sh"]
    assert codes(outcome, decode) == ["SGL001"]


def test_an_edit_of_a_sourced_helper_reads_the_scripts_that_source_it_again(tmp_path, monkeypatch) -> None:
    (tmp_path / "env.sh").write_text("TP=8\n")
    (tmp_path / "prefill.sh").write_text(PREFILL)
    (tmp_path / "decode.sh").write_text('source ./env.sh\n' + DECODE.replace("--tp-size 8", "--tp-size $TP"))
    linter = WorkspaceLinter([str(tmp_path)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    decode = str(tmp_path / "decode.sh")
    assert codes(linter.run({}), decode) == []
    seen = _extractions(monkeypatch)
    helper = str(tmp_path / "env.sh")
    outcome = linter.update({helper: "TP=4\n"}, {helper})
    assert seen == ["decode.sh"]  # (env.sh launches nothing: read, never extracted)
    assert codes(outcome, helper) == ["SGL001"]  # where the decode's TP=4 is written


def test_a_scan_keeps_the_files_unchanged_on_disk_and_reads_the_changed_ones(workspace, monkeypatch) -> None:
    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    steps = list(linter.scan({}))
    assert steps[-1][0] == steps[-1][1] and linter.ready
    seen = _extractions(monkeypatch)
    (workspace / "decode.sh").write_text(DECODE.replace("--tp-size 8", "--tp-size 2") + "# changed\n")
    (workspace / "new-prefill.sh").write_text(PREFILL.replace("30000", "32000"))
    outcome = linter.run({})
    assert sorted(seen) == ["decode.sh", "new-prefill.sh"]
    assert codes(outcome, workspace / "decode.sh") == ["SGL001", "SGL001"]  # one for each prefill


def test_a_file_created_or_deleted_is_taken_in_or_out_by_an_update(workspace) -> None:
    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    decode = str(workspace / "decode.sh")
    assert codes(linter.run({}), decode) == ["SGL001"]
    prefill = workspace / "prefill.sh"
    prefill.unlink()
    assert codes(linter.update({}, {str(prefill)}), decode) == []
    prefill.write_text(PREFILL)
    assert codes(linter.update({}, {str(prefill)}), decode) == ["SGL001"]


def test_an_open_file_alone_gets_its_own_findings_not_its_pairs(workspace) -> None:
    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    decode = str(workspace / "decode.sh")
    text = DECODE.replace("--tp-size 8", "--tp-size 4 --pp 2")
    outcome = linter.lint_alone(decode, text)
    assert not outcome.complete
    assert codes(outcome, decode) == ["SGL201"]  # the abbreviation; SGL001 needs the prefill
    assert not linter.ready


def test_a_file_opened_before_the_index_is_ready_has_hover_and_inlay_hints(workspace) -> None:
    """The server keeps each opened file's part of its alone analysis (issue
    24): hover and inlay hints read the deployments, which an opened file
    had none of until the first scan ended (25 s on SGLang's tree)."""
    from sglang_lint import launch_info
    from sglang_lint.workspace import Outcome

    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    decode, prefill = str(workspace / "decode.sh"), str(workspace / "prefill.sh")
    shown = Outcome()
    shown.with_file(linter.lint_alone(decode, (workspace / "decode.sh").read_text()), decode)
    found = launch_info.hover(shown.deployments, decode, 1, 3)
    assert found is not None and found.markdown.startswith("**decode** server · attention TP 4 = --tp-size 4")
    (hint,) = launch_info.inlay_hints(shown.deployments, decode, shown.lines[decode])
    assert hint.label == "decode · attn TP 4"
    # Another file opened: both kept; the first analyzed again: replaced, not doubled.
    shown.with_file(linter.lint_alone(prefill, PREFILL), prefill)
    shown.with_file(linter.lint_alone(decode, DECODE), decode)
    assert [h.label for h in launch_info.inlay_hints(shown.deployments, decode, shown.lines[decode])] == ["decode · attn TP 8"]
    assert [h.label for h in launch_info.inlay_hints(shown.deployments, prefill, shown.lines[prefill])] == ["prefill · attn TP 8"]
    assert codes(shown, decode) == [] and not linter.ready


def test_an_edit_judges_the_notes_of_the_edited_file_alone(workspace, monkeypatch) -> None:
    """Which of a file's notes are kept (analysis.merges_that_matter) is part of
    its own stage: an edit in the editor judged every file's notes again
    (~20,000 on SGLang's tree, a tenth of an edit's time)."""
    from sglang_lint import analysis

    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    linter.run({})
    judged = []
    real = analysis.merges_that_matter
    monkeypatch.setattr(analysis, "merges_that_matter", lambda result, cataloged: judged.append(result.path) or real(result, cataloged))
    decode = str(workspace / "decode.sh")
    assert codes(linter.update({decode: DECODE}, {decode}), decode) == []
    assert [os.path.basename(path) for path in judged] == ["decode.sh"]


def test_a_cancelled_analysis_leaves_the_index_to_the_next_update(tmp_path) -> None:
    """A newer edit abandons the run in progress (sglang_lint.interrupt): the
    Python interpreter leaves by Cancelled, past the sources' error handling,
    and the next update reads the file again."""
    from sglang_lint import interrupt

    launcher = tmp_path / "launch.py"
    launcher.write_text(
        "import subprocess\n"
        + "port = 30000\n" * 3000  # 3,000 steps of the interpreter: it looks at the request every 1,024
        +        "subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-size', '4', '--disaggregation-mode', 'decode'])\n"
    )
    linter = WorkspaceLinter([str(tmp_path)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    linter.run({})
    path = str(launcher)
    edited = launcher.read_text().replace("'4'", "'2'")
    interrupt.REQUESTED.set()
    try:
        with pytest.raises(interrupt.Cancelled):
            linter.update({path: edited}, {path})
    finally:
        interrupt.REQUESTED.clear()
    outcome = linter.update({path: edited}, {path})
    (server,) = [s for d in outcome.deployments for s in d.servers]
    assert server.attn_tp.value.text == "2"


def test_a_config_written_after_the_scan_is_read_by_the_next_update(workspace) -> None:
    """No file watcher told the server (the config was written by a tool): the
    update of a file it governs finds it changed and discovers again."""
    linter = WorkspaceLinter([str(workspace)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    decode = str(workspace / "decode.sh")
    assert codes(linter.run({}), decode) == ["SGL001"]
    (workspace / "sglang-lint.toml").write_text('ignore = ["SGL001"]\n')
    assert codes(linter.update({decode: DECODE.replace("--tp-size 8", "--tp-size 2")}, {decode}), decode) == []


def test_the_readers_of_an_edited_file_can_wait_for_a_second_step(tmp_path, monkeypatch) -> None:
    """The editor shows the edited file's own diagnostics first (update with
    readers=False), then those of the files that read it (update_readers)."""
    (tmp_path / "env.sh").write_text("TP=8\nsglang_tp() { echo $TP; }\n")
    (tmp_path / "prefill.sh").write_text(PREFILL)
    (tmp_path / "decode.sh").write_text("source ./env.sh\n" + DECODE.replace("--tp-size 8", "--tp-size $TP"))
    linter = WorkspaceLinter([str(tmp_path)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    linter.run({})
    seen = _extractions(monkeypatch)
    helper = str(tmp_path / "env.sh")
    linter.update({helper: "TP=4\n"}, {helper}, readers=False)
    assert seen == [] and linter.readers_pending  # (env.sh launches nothing)
    outcome = linter.update_readers()
    assert seen == ["decode.sh"] and not linter.readers_pending
    assert codes(outcome, helper) == ["SGL001"]


def test_the_second_step_of_an_edit_no_file_reads_gives_the_first_steps_outcome(tmp_path, monkeypatch) -> None:
    """Issue 24: after each edit the server asks for the readers of the edited
    file; when none reads it, the cross-file stages are not run a second time
    (on SGLang's tree they held the next edit back), and the outcome is the
    one the edit gave. When a reader is analyzed again, they run."""
    (tmp_path / "env.sh").write_text("TP=8\n")
    (tmp_path / "prefill.sh").write_text(PREFILL)
    (tmp_path / "decode.sh").write_text("source ./env.sh\n" + DECODE.replace("--tp-size 8", "--tp-size $TP"))
    linter = WorkspaceLinter([str(tmp_path)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    linter.run({})
    prefill = str(tmp_path / "prefill.sh")
    edited = linter.update({prefill: PREFILL.replace("--tp-size 8", "--tp-size 2")}, {prefill}, readers=False)
    import sglang_lint.workspace as workspace_module

    runs = []
    real = workspace_module.finish_run
    monkeypatch.setattr(workspace_module, "finish_run", lambda *args, **kwargs: runs.append(1) or real(*args, **kwargs))
    assert linter.update_readers() is edited and runs == []
    helper = str(tmp_path / "env.sh")
    edited = linter.update({prefill: PREFILL.replace("--tp-size 8", "--tp-size 2"), helper: "TP=2\n"}, {helper}, readers=False)
    runs.clear()
    readers = linter.update_readers()
    assert readers is not edited and runs == [1]
    assert codes(readers, str(tmp_path / "decode.sh")) == []  # decode.sh read the new TP


def test_a_scan_step_cancelled_by_a_newer_input_is_done_again_when_resumed(tmp_path) -> None:
    """The server abandons a scan step when a file is opened or edited (it runs
    that file first) and resumes the scan after: the file whose analysis was
    cut is read again, and the scan still ends with the index ready."""
    from sglang_lint import interrupt

    launcher = tmp_path / "launch.py"
    launcher.write_text(
        "import subprocess\n"
        + "port = 30000\n" * 3000
        + "subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-size', '4', '--disaggregation-mode', 'decode'])\n"
    )
    linter = WorkspaceLinter([str(tmp_path)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    steps = linter.scan({})
    interrupt.REQUESTED.set()
    try:
        first = next(steps)  # the step that was cut: nothing done yet
    finally:
        interrupt.REQUESTED.clear()
    assert first == (0, 1)
    assert list(steps)[-1] == (1, 1) and linter.ready
    (server,) = [s for d in linter.outcome().deployments for s in d.servers]
    assert server.attn_tp.value.text == "4"


PD_HELPERS = (
    "import subprocess\n\n\n"
    "def serve(role, tp):\n"
    "    subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--model-path', 'm', '--disaggregation-mode', role,\n"
    "                      '--enable-unified-memory', '--disaggregation-transfer-backend', 'mooncake', '--tp-size', str(tp)])\n"
)
PD_TEST = "# starts sglang.launch_server through helpers.serve\nfrom helpers import serve\n\n\ndef test_pd():\n    serve('prefill', 8)\n    serve('decode', 4)\n"


def _conclusions(monkeypatch) -> list[tuple]:
    """The conclusions about the project's files drawn from now on (what a
    module may launch, ...), by key."""
    from sglang_lint.sources.project import FileReader

    drawn: list[tuple] = []
    real = FileReader.conclude

    def counting(self, key, value):
        drawn.append(key)
        return real(self, key, value)

    monkeypatch.setattr(FileReader, "conclude", counting)
    return drawn


def test_an_edit_keeps_what_was_concluded_about_the_files_it_did_not_change(tmp_path, monkeypatch) -> None:
    """Issue 24: each edit of SGLang's PD fixture judged again what each of
    its imports may launch (31 of ~180 ms). An edit's run follows the run
    before it: a conclusion whose files read the same is kept; one about an
    edited file is drawn again, and what it says changes the findings."""
    (tmp_path / "helpers.py").write_text(PD_HELPERS)
    (tmp_path / "test_pd.py").write_text(PD_TEST)
    linter = WorkspaceLinter([str(tmp_path)], LintOptions(cache=False, reuse_findings=False, jobs=1))
    test_pd, helpers = str(tmp_path / "test_pd.py"), str(tmp_path / "helpers.py")
    assert codes(linter.run({}), test_pd) == ["SGL001"]
    linter.update({test_pd: PD_TEST + "# edited\n"}, {test_pd})
    drawn = _conclusions(monkeypatch)
    outcome = linter.update({test_pd: PD_TEST + "# edited again\n"}, {test_pd})
    assert codes(outcome, test_pd) == ["SGL001"]
    assert not [key for key in drawn if "helpers.py" in str(key)]
    # The helper edited so that it no longer launches (its text still names
    # the entry point): judged again.
    quiet = "# was: subprocess.Popen of sglang.launch_server\n" + PD_HELPERS.replace("subprocess.Popen(", "print(")
    outcome = linter.update({test_pd: PD_TEST + "# edited again\n", helpers: quiet}, {helpers})
    assert [key for key in drawn if "helpers.py" in str(key)]
    assert codes(outcome, test_pd) == []


def test_a_run_keeps_a_conclusion_only_while_the_texts_it_read_are_the_same(tmp_path) -> None:
    from msgspec.structs import replace

    from sglang_lint.sources.project import ProjectFiles

    (tmp_path / "helpers.py").write_text(PD_HELPERS)
    first = ProjectFiles((str(tmp_path),), run="first")
    reader = first.reader()
    reader.begin(("what helpers launches",))
    reader.read(str(tmp_path / "helpers.py"))
    reader.conclude(("what helpers launches",), "serve")
    following = replace(first, run="second", follows="first")
    assert following.reader().recall(("what helpers launches",)) == "serve"
    # Changed on disk before the next run: not kept.
    (tmp_path / "helpers.py").write_text(PD_HELPERS + "\n# changed\n")
    assert replace(first, run="third", follows="second").reader().recall(("what helpers launches",)) is None
    # A run that follows none keeps nothing.
    assert ProjectFiles((str(tmp_path),), run="fourth").reader().recall(("what helpers launches",)) is None
