"""`# noqa: SGLxxx` on a line of the launch, the file-level directive, and malformed
directives that silence nothing and are reported."""

from __future__ import annotations

from sglang_lint.pipeline import LintOptions, lint_texts

PREFILL = "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 &\n"
DECODE_LINES = [
    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory \\\n",
    "  --tp 4 --port 30001 &\n",
]


def codes(script: str) -> list[tuple[str, int]]:
    result = lint_texts({"run.sh": script}, LintOptions())
    return sorted((f.code, f.location.line) for f in result.findings)


def test_unsuppressed() -> None:
    assert codes(PREFILL + "".join(DECODE_LINES)) == [("SGL001", 3)]


def test_noqa_on_any_line_of_the_decode_launch() -> None:
    # The finding is on line 3 (--tp 4); the comment can sit on the launch's last line.
    assert codes(PREFILL + DECODE_LINES[0] + DECODE_LINES[1].replace("&\n", "& # noqa: SGL001\n")) == []
    # ... or on a one-line launch's first (and only) line
    one_line = "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 4 --port 30001 & # noqa: SGL001\n"
    assert codes(PREFILL + one_line) == []


def test_noqa_for_another_code_does_not_silence() -> None:
    script = PREFILL + DECODE_LINES[0] + DECODE_LINES[1].replace("&\n", "& # noqa: SGL002\n")
    assert codes(script) == [("SGL001", 3)]


def test_noqa_on_the_call_site_of_a_function() -> None:
    script = (
        "serve() { python -m sglang.launch_server --disaggregation-mode $1 --enable-unified-memory --tp $2 --port $3 & }\n"
        "serve prefill 8 30000\n"
        "serve decode 4 30001  # noqa: SGL001 - decode is re-sliced by a patched build\n"
    )
    assert codes(script) == []


def test_malformed_noqa_is_reported_and_silences_nothing() -> None:
    script = PREFILL + DECODE_LINES[0] + DECODE_LINES[1].replace("&\n", "& # noqa: SGL1\n")
    assert codes(script) == [("SGL001", 3), ("SGL900", 3)]


def test_codes_may_be_followed_by_a_reason_but_not_by_a_bad_code() -> None:
    tail = DECODE_LINES[1].replace("&\n", "& # noqa: SGL001 - re-sliced by our patched build\n")
    assert codes(PREFILL + DECODE_LINES[0] + tail) == []
    tail = DECODE_LINES[1].replace("&\n", "& # noqa: SGL001, SGL01\n")
    assert codes(PREFILL + DECODE_LINES[0] + tail) == [("SGL001", 3), ("SGL900", 3)]


def test_file_level_directive_before_first_command() -> None:
    assert codes("# sglang-lint: disable=SGL001\n" + PREFILL + "".join(DECODE_LINES)) == []


def test_file_level_directive_after_first_command_is_reported() -> None:
    script = PREFILL + "# sglang-lint: disable=SGL001\n" + "".join(DECODE_LINES)
    assert codes(script) == [("SGL001", 4), ("SGL900", 2)]


def test_noqa_inside_a_string_is_not_a_directive() -> None:
    script = PREFILL + 'echo "# noqa: SGL001"\n' + "".join(DECODE_LINES)
    assert codes(script) == [("SGL001", 4)]


def test_noqa_on_the_launch_when_the_value_comes_from_its_config_file(tmp_path) -> None:
    """The finding points into decode.yaml (where tp-size was set), but the noqa
    belongs on the launch in decode.sh, and must silence it there."""
    from sglang_lint.pipeline import lint_paths

    (tmp_path / "decode.yaml").write_text("tp-size: 4\nenable-unified-memory: true\n")
    (tmp_path / "run.sh").write_text(
        PREFILL
        + "python -m sglang.launch_server --config decode.yaml --disaggregation-mode decode --port 30001 &\n"
    )
    found = lint_paths([str(tmp_path / "run.sh")], LintOptions()).findings
    assert [(f.code, f.location.path.endswith("decode.yaml")) for f in found] == [("SGL001", True)]
    (tmp_path / "run.sh").write_text(
        PREFILL
        + "python -m sglang.launch_server --config decode.yaml --disaggregation-mode decode --port 30001 & # noqa: SGL001\n"
    )
    assert lint_paths([str(tmp_path / "run.sh")], LintOptions()).findings == []


def test_noqa_with_only_other_linters_codes_is_not_ours() -> None:
    """`# noqa: E501` belongs to flake8/ruff: no note, and it silences nothing of ours."""
    script = PREFILL + DECODE_LINES[0] + DECODE_LINES[1].replace("&\n", "& # noqa: E501, BLE001 - long line\n")
    assert codes(script) == [("SGL001", 3)]


def test_noqa_shared_with_other_linters_silences_our_code() -> None:
    script = PREFILL + DECODE_LINES[0] + DECODE_LINES[1].replace("&\n", "& # noqa: E501, SGL001\n")
    assert codes(script) == []


def test_noqa_on_the_line_of_the_finding_silences() -> None:
    """In Python the finding points where the value was written (a constant far
    from the launch): a noqa there is where flake8 users put it."""
    source = (
        "import subprocess\n"
        "DECODE_TP = 4  # noqa: SGL001\n"
        'subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--enable-unified-memory", "--tp", "8"])\n'
        'subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "--enable-unified-memory", "--tp", str(DECODE_TP), "--port", "1"])\n'
    )
    result = lint_texts({"launch.py": source})
    assert [f.code for f in result.findings] == []
    assert len(lint_texts({"launch.py": source.replace("  # noqa: SGL001", "")}).findings) == 1


def test_malformed_noqa_in_a_file_without_launches_is_not_reported() -> None:
    result = lint_texts({"notes.sh": "# see `# noqa: CODE` in the docs\necho hi\n"})
    assert result.findings == []


# ---------------------------------------------------------------------------------
# Python and YAML: the same directives, the same malformed-list report

PY_PREFILL = (
    "import subprocess\n"
    "subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--disaggregation-mode', 'prefill',\n"
    "                  '--enable-unified-memory', '--tp', '8'])\n"
)
PY_DECODE = (
    "subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--disaggregation-mode', 'decode',\n"
    "                  '--enable-unified-memory', '--tp', '4', '--port', '30001']){comment}\n"
)

YAML_POD = """\
apiVersion: v1
kind: Pod
metadata: {{name: pd}}
spec:
  containers:
  - name: prefill
    command: [python3, -m, sglang.launch_server, --disaggregation-mode, prefill, --enable-unified-memory, --tp, "8"]
  - name: decode
    command: [python3, -m, sglang.launch_server, --disaggregation-mode, decode, --enable-unified-memory,
              --tp, "4", --port, "30001"]{comment}
"""


def file_codes(name: str, text: str) -> list[tuple[str, int]]:
    result = lint_texts({name: text}, LintOptions())
    return sorted((f.code, f.location.line) for f in result.findings)


def test_python_noqa_and_malformed_code_list() -> None:
    assert file_codes("run.py", PY_PREFILL + PY_DECODE.format(comment="")) == [("SGL001", 5)]
    assert file_codes("run.py", PY_PREFILL + PY_DECODE.format(comment="  # noqa: SGL001")) == []
    # A malformed list silences nothing and is reported where it is written.
    assert file_codes("run.py", PY_PREFILL + PY_DECODE.format(comment="  # noqa: SGL001,,SGLX")) == [("SGL001", 5), ("SGL900", 5)]
    assert file_codes("run.py", PY_PREFILL + PY_DECODE.format(comment="  # noqa:SGL1")) == [("SGL001", 5), ("SGL900", 5)]
    assert file_codes("run.py", "# sglang-lint: disable=SGL001\n" + PY_PREFILL + PY_DECODE.format(comment="")) == []
    assert file_codes("run.py", "# sglang-lint: disable=SGL01\n" + PY_PREFILL + PY_DECODE.format(comment="")) == [("SGL001", 6), ("SGL900", 1)]


def test_yaml_noqa_and_malformed_code_list() -> None:
    assert file_codes("pod.yaml", YAML_POD.format(comment="")) == [("SGL001", 10)]
    assert file_codes("pod.yaml", YAML_POD.format(comment="  # noqa: SGL001")) == []
    # on the launch's first line (node-scoped: any line of the launch), even
    # inside a flow sequence
    first = YAML_POD.format(comment="").replace("--enable-unified-memory,\n", "--enable-unified-memory,  # noqa: SGL001\n")
    assert "# noqa" in first and file_codes("pod.yaml", first) == []
    assert file_codes("pod.yaml", YAML_POD.format(comment="  # noqa: SGL001 SGL0X1")) == [("SGL001", 10), ("SGL900", 10)]
    assert file_codes("pod.yaml", YAML_POD.format(comment="  # noqa: sgl-001")) == [("SGL001", 10), ("SGL900", 10)]
    assert file_codes("pod.yaml", "# sglang-lint: disable=SGL001\n" + YAML_POD.format(comment="")) == []


SHARED_ARGS = """\
import subprocess

COMMON = ["--model-path", "/m", "--cuda-graph-max-bs", "8"]
subprocess.Popen(["python3", "-m", "sglang.launch_server", *COMMON, "--disaggregation-mode", "prefill", "--port", "30000"]){prefill}
subprocess.Popen(["python3", "-m", "sglang.launch_server", *COMMON, "--disaggregation-mode", "decode", "--port", "30001"]){decode}
"""


def test_a_word_two_launches_share_is_one_finding_any_of_their_noqa_silences() -> None:
    """SGLang's PD tests pass one list of common arguments to the prefill and
    the decode: an ambiguous option in it was two identical findings on the
    same word (each launch's), and a `# noqa` on one launch left the other."""
    found = lint_texts({"t.py": SHARED_ARGS.format(prefill="", decode="")}).findings
    assert [(f.code, f.location.line) for f in found] == [("SGL201", 3)]
    for where in ("prefill", "decode"):
        text = SHARED_ARGS.format(**{"prefill": "", "decode": "", where: "  # noqa: SGL201"})
        assert lint_texts({"t.py": text}).findings == [], where
