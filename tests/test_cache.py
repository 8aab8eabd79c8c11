"""The extraction cache and the worker processes (issue 7): results are the same
with and without the cache and with 1 or N processes; the cache is invalidated
by a content change, a config change and a tool change; a broken or unwritable
cache never changes a result."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from sglang_lint import cache as cache_module
from sglang_lint.cache import ExtractionCache, decode_result_json, encode_result_json
from sglang_lint.cli import main
from sglang_lint.files import read_source, source_kind
from sglang_lint.pipeline import LintOptions, _source, lint_paths

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

PAIR = (
    "python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000 &\n"
    "python3 -m sglang.launch_server --model-path m --disaggregation-mode decode --enable-unified-memory --tp $DECODE_TP --port 30001 &\n"
)


def summary(result) -> list[tuple]:
    """Everything a report shows, positions and related locations included."""
    return [
        (f.code, f.message, f.location, tuple(r.location for r in f.related), f.severity)
        for f in result.findings
    ]


def topology(result) -> str:
    """The deployments as `sglang-lint topology --format json` shows them."""
    from sglang_lint.report.topology import render_json

    return render_json(result.deployments, result.version)


def run(root: Path, **options):
    """lint_paths; the findings cache only when asked (reuse_findings=True), so
    that the per-file cache is what the other tests exercise."""
    options.setdefault("reuse_findings", False)
    return lint_paths([str(root)], LintOptions(**options))


# ---------------------------------------------------------------------------------
# Same results, every way


def test_every_fixture_survives_the_codec() -> None:
    """The JSON codec gives back exactly what the source produced."""
    checked = 0
    for path in sorted(p for p in FIXTURES.rglob("*") if p.is_file()):
        text, _ = read_source(path)
        kind = source_kind(str(path), text) if text is not None else None
        if kind is None:
            continue
        result = _source(kind)(str(path), text)
        assert decode_result_json(str(path), text, encode_result_json(result)) == result, path
        checked += 1
    assert checked > 80


def test_cold_warm_and_uncached_runs_agree(tmp_path) -> None:
    cache_dir = tmp_path / "cache"
    uncached = run(FIXTURES)
    cold = run(FIXTURES, cache=True, cache_dir=str(cache_dir))
    # per-file results from the cache, analysis done again
    warm = run(FIXTURES, cache=True, cache_dir=str(cache_dir), reuse_findings=False)
    assert cold.cache_hits == 0 and cold.cache_misses > 80
    assert warm.cache_misses == 0 and warm.cache_hits == cold.cache_misses
    assert summary(uncached) == summary(cold) == summary(warm)
    assert topology(uncached) == topology(cold) == topology(warm)
    assert uncached.sources == warm.sources  # snippets have their lines back
    # an unchanged run answered by the findings cache
    run(FIXTURES, cache=True, cache_dir=str(cache_dir), reuse_findings=True)
    again = run(FIXTURES, cache=True, cache_dir=str(cache_dir), reuse_findings=True)
    assert again.from_findings_cache and not cold.from_findings_cache
    assert summary(again) == summary(uncached)
    for finding in again.findings:  # the lines every output format needs
        assert again.sources.get(finding.location.path) == uncached.sources.get(finding.location.path)


def test_every_output_format_is_the_same_from_the_findings_cache(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(FIXTURES.parent)
    for fmt in ("full", "concise", "json", "sarif", "rdjson", "github", "pylint", "json-lines"):
        argv = ["check", "--format", fmt, "--cache-dir", str(tmp_path / "cache"), "fixtures"]
        outputs = []
        for _ in range(2):
            main(argv)
            outputs.append(capsys.readouterr().out)
        main(["check", "--format", fmt, "--no-cache", "fixtures"])
        assert outputs[0] == outputs[1] == capsys.readouterr().out, fmt


def test_the_findings_cache_sees_a_changed_config_yaml_file(tmp_path) -> None:
    """A launch's --config YAML file is read by the analysis, not the sources: a
    change to it must not be answered from the findings cache."""
    (tmp_path / "decode.yaml").write_text("tp-size: 8\n")
    (tmp_path / "run.sh").write_text(
        "cd \"$(dirname \"$0\")\"\n"
        "python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000 &\n"
        "python3 -m sglang.launch_server --config decode.yaml --model-path m --disaggregation-mode decode --enable-unified-memory --port 30001 &\n"
    )
    cache_dir = str(tmp_path / "cache")
    assert run(tmp_path, cache=True, cache_dir=cache_dir, reuse_findings=True).findings == []
    assert run(tmp_path, cache=True, cache_dir=cache_dir, reuse_findings=True).from_findings_cache
    (tmp_path / "decode.yaml").write_text("tp-size: 4\n")
    changed = run(tmp_path, cache=True, cache_dir=cache_dir, reuse_findings=True)
    assert not changed.from_findings_cache
    assert [f.code for f in changed.findings] == ["SGL001"]
    (tmp_path / "decode.yaml").unlink()
    gone = run(tmp_path, cache=True, cache_dir=cache_dir, reuse_findings=True)
    assert not gone.from_findings_cache and gone.findings == []


def test_with_worker_processes_the_findings_cache_still_sees_a_changed_config_yaml_file(tmp_path) -> None:
    """With worker processes, the catalog stage (which reads --config files) runs
    as results arrive; the files it read must still key the findings cache."""
    (tmp_path / "decode.yaml").write_text("tp-size: 8\n")
    (tmp_path / "run.sh").write_text(
        "cd \"$(dirname \"$0\")\"\n"
        "python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000 &\n"
        "python3 -m sglang.launch_server --config decode.yaml --model-path m --disaggregation-mode decode --enable-unified-memory --port 30001 &\n"
    )
    for number in range(40):  # enough files for two workers
        (tmp_path / f"other-{number:02}.sh").write_text(f"python3 -m sglang.launch_server --model-path m{number} --tp 1 --port {31000 + number}\n")
    cache_dir = str(tmp_path / "cache")
    first = run(tmp_path, cache=True, cache_dir=cache_dir, reuse_findings=True, jobs=2)
    assert first.workers == 2 and first.findings == []
    assert run(tmp_path, cache=True, cache_dir=cache_dir, reuse_findings=True, jobs=2).from_findings_cache
    (tmp_path / "decode.yaml").write_text("tp-size: 4\n")
    changed = run(tmp_path, cache=True, cache_dir=cache_dir, reuse_findings=True, jobs=2)
    assert not changed.from_findings_cache
    assert [f.code for f in changed.findings] == ["SGL001"]


def test_topology_is_never_answered_from_the_findings_cache(tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "run.sh").write_text(PAIR)
    monkeypatch.chdir(tmp_path)
    main(["check", "."])
    main(["check", "."])
    capsys.readouterr()
    main(["topology", "."])
    assert "prefill" in capsys.readouterr().out


@pytest.mark.parametrize("processes", [1, 2, 3])
def test_one_or_many_processes_agree(processes) -> None:
    serial = run(FIXTURES, jobs=1)
    parallel = run(FIXTURES, jobs=processes)
    assert summary(serial) == summary(parallel)
    assert topology(serial) == topology(parallel)
    assert serial.sources == parallel.sources
    if processes > 1:
        assert parallel.workers > 1  # the pool was really used


@pytest.mark.parametrize("writer, reader", [(3, 1), (1, 3), (3, 3)])
def test_a_cache_written_by_worker_processes_reads_back_the_same(tmp_path, writer, reader) -> None:
    """Worker processes send their cache entries as JSON text that is spliced
    into the cache file; a serial run encodes its own. Either file must be valid
    JSON that gives every file's result back."""
    cache_dir = tmp_path / "cache"
    fresh = run(FIXTURES, jobs=writer, cache=True, cache_dir=str(cache_dir))
    assert (fresh.workers > 1) == (writer > 1)
    (written,) = cache_dir.glob("extract-*.json")
    entries = json.loads(written.read_text(encoding="utf-8"))["entries"]
    assert len(entries) == fresh.cache_misses > 0
    cached = run(FIXTURES, jobs=reader, cache=True, cache_dir=str(cache_dir))
    assert cached.cache_hits == fresh.cache_misses and cached.cache_misses == 0
    assert summary(cached) == summary(fresh) == summary(run(FIXTURES, jobs=1))
    assert topology(cached) == topology(fresh)
    assert cached.sources == fresh.sources


def test_cli_no_cache_writes_nothing_and_the_default_is_the_project_root(tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "run.sh").write_text(PAIR)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SGLANG_LINT_CACHE_DIR", raising=False)
    assert main(["check", "--no-cache", "."]) == 0
    assert not (tmp_path / ".sglang-lint-cache").exists()
    assert main(["check", "."]) == 0
    cache_dir = tmp_path / ".sglang-lint-cache"
    assert (cache_dir / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (cache_dir / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert len(list(cache_dir.glob("extract-*.json"))) == 1
    capsys.readouterr()


def test_cache_dir_option_config_and_environment(tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "run.sh").write_text(PAIR)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SGLANG_LINT_CACHE_DIR", str(tmp_path / "from-env"))
    main(["check", "."])
    assert (tmp_path / "from-env" / "CACHEDIR.TAG").exists()
    (tmp_path / "sglang-lint.toml").write_text('cache-dir = "build/lint-cache"\n')
    main(["check", "."])
    assert (tmp_path / "build" / "lint-cache" / "CACHEDIR.TAG").exists()
    main(["check", "--cache-dir", "elsewhere", "."])
    assert (tmp_path / "elsewhere" / "CACHEDIR.TAG").exists()
    capsys.readouterr()


# ---------------------------------------------------------------------------------
# Invalidation


def test_a_content_change_is_seen(tmp_path) -> None:
    (tmp_path / "run.sh").write_text(PAIR.replace("$DECODE_TP", "8"))
    (tmp_path / "other.sh").write_text(PAIR.replace("$DECODE_TP", "8"))
    cache_dir = str(tmp_path / "cache")
    assert run(tmp_path, cache=True, cache_dir=cache_dir).findings == []
    (tmp_path / "run.sh").write_text(PAIR.replace("$DECODE_TP", "4"))
    changed = run(tmp_path, cache=True, cache_dir=cache_dir)
    assert [f.code for f in changed.findings] == ["SGL001"]
    assert (changed.cache_hits, changed.cache_misses) == (1, 1)


def test_a_warm_run_does_not_read_files_the_pre_check_dismissed(tmp_path, monkeypatch) -> None:
    """A file the pre-check dismissed is remembered with its stat: a warm run
    over a tree (SGLang's: 4,700 files, 150 that may launch) stats it instead of
    reading it again (issue 20: 0.98 s -> 0.23 s); once it changes it is read,
    and a launch written into it is found."""
    from sglang_lint import extraction

    (tmp_path / "run.sh").write_text(PAIR.replace("$DECODE_TP", "8"))
    (tmp_path / "notes.sh").write_text("#!/bin/bash\necho nothing to start here\n")
    (tmp_path / "util.py").write_text("def helper():\n    return 1\n")
    cache_dir = str(tmp_path / "cache")
    assert run(tmp_path, cache=True, cache_dir=cache_dir).findings == []
    read: list[str] = []
    original = extraction.read_files
    monkeypatch.setattr(extraction, "read_files", lambda jobs, **kw: (read.extend(os.path.basename(j.path) for j in jobs), original(jobs, **kw))[1])
    assert run(tmp_path, cache=True, cache_dir=cache_dir).findings == []
    assert "notes.sh" not in read and "util.py" not in read
    assert "run.sh" in read  # a file that may launch is read: its digest keys its result
    (tmp_path / "notes.sh").write_text(PAIR.replace("$DECODE_TP", "4"))
    assert [f.code for f in run(tmp_path, cache=True, cache_dir=cache_dir).findings] == ["SGL001"]
    assert "notes.sh" in read


def test_a_config_change_is_seen(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "run.sh").write_text(PAIR)
    cache_dir = str(tmp_path / "cache")
    assert run(tmp_path, cache=True, cache_dir=cache_dir).findings == []
    # env changes what the source extracts: the cached result must not be used
    (tmp_path / "sglang-lint.toml").write_text('[env]\nDECODE_TP = "4"\n')
    changed = run(tmp_path, cache=True, cache_dir=cache_dir)
    assert [f.code for f in changed.findings] == ["SGL001"] and changed.cache_misses == 1
    # selection is applied after the cache: a cached result is judged anew
    (tmp_path / "sglang-lint.toml").write_text('ignore = ["SGL001"]\n[env]\nDECODE_TP = "4"\n')
    ignored = run(tmp_path, cache=True, cache_dir=cache_dir)
    assert ignored.findings == [] and ignored.cache_hits == 1
    # so is the target version
    (tmp_path / "sglang-lint.toml").write_text('target-version = "0.5.17"\n[env]\nDECODE_TP = "4"\n')
    old = run(tmp_path, cache=True, cache_dir=cache_dir)
    assert "SGL104" in {f.code for f in old.findings} and old.cache_hits == 1


def test_a_tool_change_is_seen(tmp_path, monkeypatch) -> None:
    (tmp_path / "run.sh").write_text(PAIR)
    cache_dir = tmp_path / "cache"
    run(tmp_path, cache=True, cache_dir=str(cache_dir))
    first = list(cache_dir.glob("extract-*.json"))
    assert len(first) == 1
    # A new version (or an edited module: the fingerprint covers their mtimes)
    monkeypatch.setattr(cache_module, "__version__", "99.0")
    again = run(tmp_path, cache=True, cache_dir=str(cache_dir))
    assert again.cache_hits == 0 and again.cache_misses == 1
    second = list(cache_dir.glob("extract-*.json"))
    assert len(second) == 1 and second != first  # the stale file is gone
    # Each kind of cache file of the old fingerprint goes with it.
    old = first[0].stem.removeprefix("extract-")
    for kind in ("findings", "context", "digests"):
        (cache_dir / f"{kind}-{old}.json").write_text("{}")
    (tmp_path / "run.sh").write_text(PAIR + "\n")
    run(tmp_path, cache=True, cache_dir=str(cache_dir))
    assert not list(cache_dir.glob(f"*-{old}.json"))


def test_the_fingerprint_follows_module_edits(tmp_path, monkeypatch) -> None:
    before = cache_module.tool_fingerprint()
    module = Path(cache_module.__file__)
    info = module.stat()
    try:
        os.utime(module, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
        assert cache_module.tool_fingerprint() != before
    finally:
        os.utime(module, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert cache_module.tool_fingerprint() == before


# ---------------------------------------------------------------------------------
# A broken cache is no cache


@pytest.mark.parametrize(
    "content",
    [b"", b"not json", b"[1, 2]", b'{"format": 1, "entries": {"x": 1}}', b'{"format": 1, "entries": []}', b"[" * 100000],
)
def test_a_corrupt_cache_file_is_ignored(tmp_path, content) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "run.sh").write_text(PAIR.replace("$DECODE_TP", "4"))
    cache_dir = tmp_path / "cache"
    expected = summary(run(tmp_path / "src"))
    run(tmp_path / "src", cache=True, cache_dir=str(cache_dir))
    (cache_file,) = cache_dir.glob("extract-*.json")
    cache_file.write_bytes(content)
    assert summary(run(tmp_path / "src", cache=True, cache_dir=str(cache_dir))) == expected


def test_an_entry_of_the_wrong_shape_is_a_miss(tmp_path) -> None:
    (tmp_path / "src").mkdir()
    script = tmp_path / "src" / "run.sh"
    script.write_text(PAIR.replace("$DECODE_TP", "4"))
    cache_dir = tmp_path / "cache"
    expected = summary(run(tmp_path / "src"))
    run(tmp_path / "src", cache=True, cache_dir=str(cache_dir))
    (cache_file,) = cache_dir.glob("extract-*.json")
    data = json.loads(cache_file.read_text())
    for entry in data["entries"].values():
        entry[4][1][1] = [["garbage"]]  # the result's servers
    cache_file.write_text(json.dumps(data))
    again = run(tmp_path / "src", cache=True, cache_dir=str(cache_dir))
    assert summary(again) == expected and again.cache_misses == 1


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root writes into read-only directories")
def test_an_unwritable_cache_is_a_warning(tmp_path, monkeypatch, capsys) -> None:  # pragma: no cover - non-root only
    (tmp_path / "run.sh").write_text(PAIR)
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--cache-dir", str(locked / "cache"), "run.sh"]) == 0
    assert "results are not cached" in capsys.readouterr().err


def test_an_unwritable_cache_location_is_a_warning(tmp_path, monkeypatch, capsys) -> None:
    """A cache dir that is a file: root cannot write there either."""
    (tmp_path / "run.sh").write_text(PAIR.replace("$DECODE_TP", "4"))
    (tmp_path / "not-a-dir").write_text("")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--cache-dir", "not-a-dir/cache", "--format", "concise", "run.sh"]) == 1
    captured = capsys.readouterr()
    assert "SGL001" in captured.out
    assert "sglang-lint: warning: cannot write the cache in not-a-dir/cache" in captured.err


def test_the_cache_keeps_other_files_entries(tmp_path) -> None:
    """pre-commit checks a few files at a time: one run must not evict the rest."""
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "run.sh").write_text(PAIR)
    cache_dir = str(tmp_path / "cache")
    run(tmp_path, cache=True, cache_dir=cache_dir)
    run(tmp_path / "a", cache=True, cache_dir=cache_dir)
    assert run(tmp_path, cache=True, cache_dir=cache_dir).cache_misses == 0


def test_cache_object_directly(tmp_path) -> None:
    store = ExtractionCache(tmp_path / "c", fingerprint="f")
    assert store.save() is None and not (tmp_path / "c").exists()  # nothing to write


def test_the_findings_cache_key_covers_files_configs_and_options(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "run.sh").write_text(PAIR.replace("$DECODE_TP", "4"))
    (tmp_path / "notes.sh").write_text("echo nothing to see\n")
    cache_dir = str(tmp_path / "cache")

    def again(**options):
        run(tmp_path, cache=True, cache_dir=cache_dir, reuse_findings=True, **options)
        return run(tmp_path, cache=True, cache_dir=cache_dir, reuse_findings=True, **options)

    first = again()
    assert first.from_findings_cache and [f.code for f in first.findings] == ["SGL001"]
    # an option
    assert again(ignore=frozenset({"SGL001"})).findings == []
    # a file that launches nothing, edited so that it does
    (tmp_path / "notes.sh").write_text("python3 -m sglang.launch_server --tp-szie 2\n")
    edited = run(tmp_path, cache=True, cache_dir=cache_dir, reuse_findings=True)
    assert not edited.from_findings_cache and "SGL202" in {f.code for f in edited.findings}
    # a config
    (tmp_path / "sglang-lint.toml").write_text('ignore = ["SGL202"]\n')
    configured = run(tmp_path, cache=True, cache_dir=cache_dir, reuse_findings=True)
    assert not configured.from_findings_cache and "SGL202" not in {f.code for f in configured.findings}
    # a new unreadable file (its note is a finding)
    (tmp_path / "bin.sh").write_bytes(b"\x00\x01")
    noted = run(tmp_path, cache=True, cache_dir=cache_dir, reuse_findings=True)
    assert not noted.from_findings_cache and "SGL900" in {f.code for f in noted.findings}


def test_findings_cache_carries_help_and_notes(tmp_path: Path) -> None:
    """Issue 23 part 4: a whole run answered from the findings cache gives the
    same help and notes as the run that filled it."""
    import msgspec

    from sglang_lint.model import Finding

    root = tmp_path / "tree"
    root.mkdir()
    (root / "run.sh").write_text(PAIR.replace("$DECODE_TP", "1"), encoding="utf-8")
    first = run(root)
    (finding,) = [f for f in first.findings if f.code == "SGL001"]
    assert finding.help and finding.notes
    (decoded,) = msgspec.json.decode(msgspec.json.encode([finding]), type=list[Finding])
    assert decoded == finding
    assert (decoded.help, decoded.notes) == (finding.help, finding.notes)


# ---------------------------------------------------------------------------------
# Files a file reads (issue 19): a `source`d helper


SOURCING = '. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"\nstart prefill 30000 --tp 8\nstart decode 30001 --tp 4\n'
HELPER = (
    "start() {{\n"
    "  local mode=$1 port=$2\n"
    "  shift 2\n"
    '  python3 -m sglang.launch_server --model-path m {flags} --disaggregation-mode "$mode" --port "$port" "$@" &\n'
    "}}\n"
)


@pytest.mark.parametrize("reuse_findings", [False, True], ids=["extraction-cache", "findings-cache"])
def test_editing_a_sourced_helper_rechecks_the_script_that_sources_it(tmp_path, monkeypatch, reuse_findings) -> None:
    """The helper is outside the analyzed paths (bin/), inside the project (the
    working directory): only the dependency recorded with the script's result
    can tell that the script's cached extraction, and the run's cached
    findings, are stale."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "bin" / "run_pd.sh").write_text(SOURCING)
    helper = tmp_path / "lib" / "common.sh"
    helper.write_text(HELPER.format(flags="--trust-remote-code"))
    monkeypatch.chdir(tmp_path)
    options = dict(cache=True, cache_dir=str(tmp_path / "cache"), reuse_findings=reuse_findings)
    first = lint_paths(["bin"], LintOptions(**options))
    assert first.findings == [] and first.cache_misses == 1
    again = lint_paths(["bin"], LintOptions(**options))
    assert again.findings == []
    assert again.from_findings_cache if reuse_findings else (again.cache_hits, again.cache_misses) == (1, 0)
    helper.write_text(HELPER.format(flags="--enable-unified-memory --disaggregation-transfer-backend mooncake"))
    edited = lint_paths(["bin"], LintOptions(**options))
    assert not edited.from_findings_cache
    assert (edited.cache_hits, edited.cache_misses) == (0, 1)
    assert [(f.code, f.location.path) for f in edited.findings] == [("SGL001", os.path.join("bin", "run_pd.sh"))]
    # Gone: stale again, and a note names the `source` line.
    helper.unlink()
    gone = lint_paths(["bin"], LintOptions(**options))
    assert not gone.from_findings_cache and gone.cache_misses == 1
    assert [f.location.line for f in gone.findings if "not followed" in f.message] == [1]


def test_a_sourced_helper_is_recorded_in_the_cache_entry_beside_the_result(tmp_path, monkeypatch) -> None:
    """A stale entry is told from the digests stored beside the result, without
    decoding it; an entry whose dependencies cannot be checked is a miss."""
    from sglang_lint.sources.project import ProjectFiles

    (tmp_path / "lib").mkdir()
    (tmp_path / "run.sh").write_text(SOURCING.replace("/../lib", "/lib"))
    (tmp_path / "lib" / "common.sh").write_text(HELPER.format(flags=""))
    monkeypatch.chdir(tmp_path)
    lint_paths(["run.sh"], LintOptions(cache=True, cache_dir="cache", reuse_findings=False))
    (cache_file,) = Path("cache").glob("extract-*.json")
    entries = json.loads(cache_file.read_text())["entries"]
    assert entries["run.sh"][3] == [["lib/common.sh", cache_module.text_digest(HELPER.format(flags=""))]]
    store = ExtractionCache("cache", fingerprint=cache_file.stem.removeprefix("extract-"))
    text = Path("run.sh").read_text()
    digest = cache_module.text_digest(text)
    project = ProjectFiles((str(tmp_path),))
    assert store.get("run.sh", text, digest, "shell", "", project.fresh) is not None
    assert store.get("run.sh", text, digest, "shell", "") is None
    edited = ProjectFiles((str(tmp_path),), {str(tmp_path / "lib" / "common.sh"): "start() { :; }\n"})
    assert store.get("run.sh", text, digest, "shell", "", edited.fresh) is None


# A Python test module deriving a base class of another module (issue 19)

from _python_suite import PY_BASE  # noqa: E402 - beside the tests that use it

PY_TEST = "from server_fixtures.base import ServerBase\nfrom common import DECODE_TP\n\n\nclass TestPD(ServerBase):\n    decode_tp = DECODE_TP\n"


def _pd_test_project(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    """A test module deriving a base class of another directory and reading a
    constants module (neither an analyzed path); the working directory is
    the project. Returns (base class module, constants module)."""
    base = tmp_path / "lib" / "server_fixtures" / "base.py"
    common = tmp_path / "tests" / "common.py"
    base.parent.mkdir(parents=True)
    common.parent.mkdir()
    (tmp_path / "tests" / "test_pd.py").write_text(PY_TEST)
    base.write_text(PY_BASE.format(flags="'--trust-remote-code'"))
    common.write_text("DECODE_TP = 2\n")
    monkeypatch.chdir(tmp_path)
    return base, common


@pytest.mark.parametrize("reuse_findings", [False, True], ids=["extraction-cache", "findings-cache"])
def test_editing_an_imported_base_class_or_constant_rechecks_the_test_module(tmp_path, monkeypatch, reuse_findings) -> None:
    """The base class (lib/server_fixtures/base.py) and the constants module
    (tests/common.py) are not analyzed paths: only the dependencies recorded
    with the test module's result tell that its cached results are stale."""
    base, common = _pd_test_project(tmp_path, monkeypatch)
    options = dict(cache=True, cache_dir=str(tmp_path / "cache"), reuse_findings=reuse_findings)
    first = lint_paths(["tests/test_pd.py"], LintOptions(**options))
    assert first.findings == [] and first.cache_misses == 1
    again = lint_paths(["tests/test_pd.py"], LintOptions(**options))
    assert again.findings == []
    assert again.from_findings_cache if reuse_findings else (again.cache_hits, again.cache_misses) == (1, 0)
    base.write_text(PY_BASE.format(flags="'--enable-unified-memory'"))
    edited = lint_paths(["tests/test_pd.py"], LintOptions(**options))
    assert not edited.from_findings_cache and (edited.cache_hits, edited.cache_misses) == (0, 1)
    assert [(f.code, f.location.path, f.location.line) for f in edited.findings] == [("SGL001", os.path.join("tests", "common.py"), 1)]
    common.write_text("DECODE_TP = 8\n")
    fixed = lint_paths(["tests/test_pd.py"], LintOptions(**options))
    assert not fixed.from_findings_cache and fixed.cache_misses == 1
    assert fixed.findings == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked early only on Linux")
@pytest.mark.parametrize("processes", [2, 3])
def test_a_big_cold_walk_forks_its_workers_before_reading_the_files(monkeypatch, processes) -> None:
    """Issue 20: a worker forked after the walk carried every text read for
    the pre-check (~10 MB per worker on SGLang's tree). Here the fixtures count
    as a big walk: the workers are forked before any file is read, and the
    run agrees with one process. They then sat idle while this process read
    and pre-checked the whole tree (SGLang's: ~0.9 s before the first
    analysis): each file that passes the pre-check is handed to them at once,
    before the walk has read the next."""
    from sglang_lint import extraction

    monkeypatch.setattr(extraction, "EARLY_POOL_FILES", 10)
    events: list[str] = []
    real_pool, real_read, real_start = extraction.WorkerPool.__init__, extraction.read_context_files, extraction.Started.start

    def pool(self, workers):
        events.append("fork")
        real_pool(self, workers)

    def read(*args, **kwargs):
        events.append("read")
        found = real_read(*args, **kwargs)
        events.append("read all")
        return found

    def start(self, read):
        events.append("start")
        real_start(self, read)

    monkeypatch.setattr(extraction.WorkerPool, "__init__", pool)
    monkeypatch.setattr(extraction, "read_context_files", read)
    monkeypatch.setattr(extraction.Started, "start", start)
    parallel = run(FIXTURES, jobs=processes)
    assert events[:3] == ["fork", "read", "start"] and events.count("start") > 10 and events[-1] == "read all"
    assert parallel.workers == processes
    serial = run(FIXTURES, jobs=1)
    assert events.count("fork") == 1  # one process: no pool
    assert summary(serial) == summary(parallel) and topology(serial) == topology(parallel)


def _broken_job(item):
    from concurrent.futures.process import BrokenProcessPool

    raise BrokenProcessPool("a worker was killed")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked early only on Linux")
def test_files_handed_to_workers_that_break_are_extracted_here(monkeypatch) -> None:
    """Never lose a file: a job handed over as it was read whose pool broke
    (a worker killed), or one that could not be handed over, is extracted in
    this process, and the run is the same."""
    from concurrent.futures.process import BrokenProcessPool

    import concurrent.futures

    from sglang_lint import extraction

    monkeypatch.setattr(extraction, "EARLY_POOL_FILES", 10)
    submitted = [0]
    real_submit = concurrent.futures.ProcessPoolExecutor.submit

    def submit(self, fn, *args, **kwargs):
        submitted[0] += 1  # 1: the pool's start (WorkerPool), 2: the first file, 3: the second
        if submitted[0] == 3:
            raise BrokenProcessPool("refused")
        return real_submit(self, _broken_job if submitted[0] == 2 else fn, *args, **kwargs)

    monkeypatch.setattr(concurrent.futures.ProcessPoolExecutor, "submit", submit)
    broken = run(FIXTURES, jobs=2)
    assert submitted[0] == 3  # none handed over after the refusal
    assert summary(broken) == summary(run(FIXTURES, jobs=1))


def test_no_early_workers_for_a_small_walk_a_warm_cache_or_one_process(tmp_path, monkeypatch) -> None:
    from sglang_lint import extraction
    from sglang_lint.extraction import WorkerPool

    monkeypatch.setattr(extraction, "available_cpus", lambda: 2)
    monkeypatch.setattr(extraction.WorkerPool, "__init__", lambda self, workers: setattr(self, "workers", workers))
    many = extraction.EARLY_POOL_FILES
    assert WorkerPool.for_walk(many, None, cold=True) is not None
    assert WorkerPool.for_walk(many - 1, None, cold=True) is None
    assert WorkerPool.for_walk(many, None, cold=False) is None
    assert WorkerPool.for_walk(many, 1, cold=True) is None
    disk = ExtractionCache(tmp_path / "cache")
    assert disk.is_empty()
    run(FIXTURES, cache=True, cache_dir=str(tmp_path / "cache"), jobs=1)
    assert not ExtractionCache(tmp_path / "cache", disk.fingerprint).is_empty()


def test_workers_that_cannot_be_forked_early_leave_the_run_to_go_on(monkeypatch) -> None:
    """Never crash: a fork refused at the start of a big walk (a process
    limit) means no early pool, and the run goes on."""
    import concurrent.futures

    from sglang_lint import extraction

    def refused(*args, **kwargs):
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(extraction, "EARLY_POOL_FILES", 10)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refused)
    assert extraction.WorkerPool.for_walk(20, 2, cold=True) is None
    refused_run = run(FIXTURES, jobs=2)  # the early pool, then the extraction's own: both refused
    assert refused_run.workers == 2 and summary(refused_run) == summary(run(FIXTURES, jobs=1))



def test_two_processes_ending_together_keep_each_others_results(tmp_path, monkeypatch) -> None:
    """flake8's workers each write their results when they end, beside what
    the others wrote (save_beside_others): two ending together each read the
    file, then each wrote what it had read with its own, and the one that
    wrote last lost the other's (SGLang's tree: 88 of 144 results kept, the
    next warm run analyzed the rest again). Here the first writer is held
    between reading and writing while the second ends; both are kept."""
    import threading

    from sglang_lint.model import SourceResult

    directory = tmp_path / "cache"
    first, second = ExtractionCache(directory), ExtractionCache(directory)
    first.put("a.sh", "d1", "shell", "", SourceResult(path="a.sh"))
    second.put("b.sh", "d2", "shell", "", SourceResult(path="b.sh"))
    holding, release = threading.Event(), threading.Event()
    write = cache_module._write_cache_file

    def held_write(*args, **kwargs):
        if threading.current_thread().name == "first":
            holding.set()
            release.wait(5)
        return write(*args, **kwargs)

    monkeypatch.setattr(cache_module, "_write_cache_file", held_write)
    ending = [threading.Thread(target=first.save_beside_others, name="first")]
    ending[0].start()
    assert holding.wait(5)
    ending.append(threading.Thread(target=second.save_beside_others, name="second"))
    ending[1].start()
    ending[1].join(0.3)  # it waits for the lock (before: it wrote now, and was overwritten)
    release.set()
    for thread in ending:
        thread.join(10)
    assert sorted(ExtractionCache(directory)._entries) == ["a.sh", "b.sh"]


# The stat of a run's dependencies (cache.DigestMemo, issue 20)


def _dependency_digests(monkeypatch) -> list[str]:
    """The paths whose digest each later run computes by reading them."""
    from sglang_lint.sources.project import ProjectFiles

    read: list[str] = []
    digest = ProjectFiles.digest

    def counting(self, shown: str) -> str:
        read.append(shown)
        return digest(self, shown)

    monkeypatch.setattr(ProjectFiles, "digest", counting)
    return read


@pytest.mark.parametrize("reuse_findings", [False, True], ids=["extraction-cache", "findings-cache"])
def test_a_warm_run_judges_unchanged_dependencies_by_their_stat(tmp_path, monkeypatch, reuse_findings) -> None:
    """A dependency whose stat is the one recorded with its digest is not
    read again; any change to it is seen, even one that keeps its size and
    puts its modification time back (its change time moved)."""
    monkeypatch.setattr(cache_module.DigestMemo, "SETTLED_SECONDS", 0.0)
    base, common = _pd_test_project(tmp_path, monkeypatch)
    options = LintOptions(cache=True, cache_dir=str(tmp_path / "cache"), reuse_findings=reuse_findings)
    read = _dependency_digests(monkeypatch)
    assert lint_paths(["tests/test_pd.py"], options).findings == []  # analyzes, and records their stat
    assert sorted(read) == [os.path.join("lib", "server_fixtures", "base.py"), os.path.join("tests", "common.py")]
    read.clear()
    again = lint_paths(["tests/test_pd.py"], options)  # the first warm run: from their stat already
    assert read == [] and again.findings == []
    assert again.from_findings_cache if reuse_findings else (again.cache_hits, again.cache_misses) == (1, 0)
    base.write_text(PY_BASE.format(flags="'--enable-unified-memory'"))
    edited = lint_paths(["tests/test_pd.py"], options)
    assert not edited.from_findings_cache and edited.cache_misses == 1
    assert [f.code for f in edited.findings] == ["SGL001"]
    lint_paths(["tests/test_pd.py"], options)  # the edited base's stat recorded
    read.clear()
    assert [f.code for f in lint_paths(["tests/test_pd.py"], options).findings] == ["SGL001"] and read == []
    # The same size, the modification time put back: the change time tells.
    before = common.stat()
    common.write_text("DECODE_TP = 8\n")
    os.utime(common, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (common.stat().st_size, common.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    fixed = lint_paths(["tests/test_pd.py"], options)
    assert os.path.join("tests", "common.py") in read  # read again, not taken from the stat
    assert not fixed.from_findings_cache and fixed.cache_misses == 1
    assert fixed.findings == []


def test_a_dependency_changed_just_now_is_not_judged_by_its_stat(tmp_path, monkeypatch) -> None:
    """A file changed within ``SETTLED_SECONDS`` may change again within the
    file system's timestamp granularity, keeping its stat: its digest is not
    recorded, and each run reads it."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "run.sh").write_text(SOURCING.replace("/../lib", "/lib"))
    (tmp_path / "lib" / "common.sh").write_text(HELPER.format(flags=""))
    monkeypatch.chdir(tmp_path)
    options = LintOptions(cache=True, cache_dir="cache", reuse_findings=False)
    lint_paths(["run.sh"], options)
    read = _dependency_digests(monkeypatch)
    for _ in range(2):
        assert lint_paths(["run.sh"], options).cache_hits == 1
    assert read == ["lib/common.sh", "lib/common.sh"]
    assert not list(Path("cache").glob("digests-*.json"))  # nothing recorded, nothing written


def test_a_digest_memo_of_another_project_or_a_broken_one_is_not_used(tmp_path, monkeypatch) -> None:
    from sglang_lint.cache import DigestMemo
    from sglang_lint.sources.project import ProjectFiles

    monkeypatch.setattr(DigestMemo, "SETTLED_SECONDS", 0.0)
    helper = tmp_path / "lib" / "common.sh"
    helper.parent.mkdir()
    helper.write_text("start() { :; }\n")
    monkeypatch.chdir(tmp_path)
    project = ProjectFiles((str(tmp_path),))
    memo = DigestMemo("cache", "f", project)
    digest = cache_module.text_digest("start() { :; }\n")
    assert memo.digest(project, "lib/common.sh") == digest and memo.reads == 1
    assert memo.save() is None
    same = DigestMemo("cache", "f", project)
    assert same.freshness(project)([("lib/common.sh", digest)]) and same.reads == 0
    # Another project's roots: whether the path may be read at all differs.
    other = ProjectFiles((str(tmp_path / "lib"),))
    elsewhere = DigestMemo("cache", "f", other)
    assert elsewhere.digest(other, "lib/common.sh") == digest and elsewhere.reads == 1
    # An unsaved buffer's text decides, not the file on disk.
    buffers = ProjectFiles((str(tmp_path),), {str(helper): "start() { echo; }\n"})
    assert DigestMemo("cache", "f", buffers).digest(buffers, "lib/common.sh") == cache_module.text_digest("start() { echo; }\n")
    for content in (b"\x00garbage", b'{"format": 8, "identity": 3}', b""):
        Path("cache", "digests-f.json").write_bytes(content)
        broken = DigestMemo("cache", "f", project)
        assert broken.digest(project, "lib/common.sh") == digest and broken.reads == 1
