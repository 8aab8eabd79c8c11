"""Quick fixes as text edits (sglang_lint.fixes): a rule's Fix found exactly
once where it points, and a `# noqa` only where the file's own reader sees it
as a comment on the launch (issue 9)."""

from __future__ import annotations

from sglang_lint.files import source_kind
from sglang_lint.fixes import apply_edits, noqa_edit, resolve_fix
from sglang_lint.model import Fix, Location
from sglang_lint.pipeline import LintOptions, extract, lint_texts


def comments_reader(path: str):
    def comments_of(text: str) -> dict[int, str]:
        return extract(path, text, source_kind(path, text)).comments

    return comments_of


def fixed_by_noqa(path: str, text: str) -> str | None:
    """The text with the noqa edit of the file's only finding, or None."""
    (finding,) = lint_texts({path: text}, LintOptions()).findings
    lines = text.split("\n")
    edit = noqa_edit(finding, path, lines, comments_reader(path))
    if edit is None:
        return None
    fixed = apply_edits(lines, [edit])
    assert lint_texts({path: fixed}, LintOptions()).findings == []  # it really silences
    return fixed


def test_resolve_fix_finds_the_written_option_once_as_a_whole_word() -> None:
    lines = ['subprocess.run(["python", "-m", "sglang.launch_server", "--pp", "2", "--pp-size-x"])']
    column = lines[0].index('"--pp"') + 1
    fix = Fix("Replace", Location("l.py", 1, column, 1, column + 6), "--pp", "--pp-size")
    edit = resolve_fix(fix, lines)
    assert edit is not None and (edit.column, edit.end_column) == (column + 1, column + 5)
    assert '"--pp-size", "2"' in apply_edits(lines, [edit])
    # --pp=2: the name before "=" only.
    edit = resolve_fix(Fix("Replace", Location("r.sh", 1, 3), "--pp", "--pp-size"), ["x --pp=2 y"])
    assert edit is not None and apply_edits(["x --pp=2 y"], [edit]) == "x --pp-size=2 y"
    # Not there, or only inside a longer word: no edit.
    assert resolve_fix(Fix("Replace", Location("r.sh", 1, 1), "--pp", "--pp-size"), ["x --pp-size 2"]) is None
    assert resolve_fix(Fix("Replace", Location("r.sh", 1, 1), "--pp", "--pp-size"), ["--ppx 2"]) is None
    assert resolve_fix(Fix("Replace", Location("r.sh", 9, 1), "--pp", "--pp-size"), ["--pp 2"]) is None


def test_resolve_fix_checks_word_edges_only_where_the_old_text_has_a_name_edge() -> None:
    """SGL207's fix replaces `\\  # note` with `\\`: a backslash glued to `8`
    is not part of a longer word; a name still is (`--pp` in `x--pp`)."""
    lines = ["  --tp 8\\  # note"]
    edit = resolve_fix(Fix("Remove", Location("r.sh", 1, 9, 1, 18), "\\  # note", "\\"), lines)
    assert edit is not None and apply_edits(lines, [edit]) == "  --tp 8\\"
    assert resolve_fix(Fix("Replace", Location("r.sh", 1, 1), "--pp", "--pp-size"), ["x--pp 2"]) is None


def test_noqa_in_a_shell_continuation_goes_on_the_last_line() -> None:
    text = (
        "python3 -m sglang.launch_server --model-path m \\\n"
        "  --tp 8 --pp 2 \\\n"
        "  --port 30000\n"
    )
    fixed = fixed_by_noqa("run.sh", text)
    assert fixed is not None
    assert fixed.split("\n")[2] == "  --port 30000  # noqa: SGL201"


def test_noqa_joins_an_existing_noqa_comment() -> None:
    text = "python3 -m sglang.launch_server --model-path m --tp 8 --pp 2  # noqa: SGL005\n"
    fixed = fixed_by_noqa("run.sh", text)
    assert fixed is not None and fixed.split("\n")[0].endswith("# noqa: SGL005, SGL201")


def test_noqa_in_a_python_launcher() -> None:
    text = (
        "import subprocess\n"
        "subprocess.Popen([\n"
        '    "python3", "-m", "sglang.launch_server", "--model-path", "m",\n'
        '    "--tp", "8", "--pp", "2",\n'
        "])\n"
    )
    fixed = fixed_by_noqa("launch.py", text)
    assert fixed is not None and fixed.split("\n")[4] == "])  # noqa: SGL201"


def test_no_noqa_inside_a_python_string() -> None:
    """A launch in a triple-quoted shell script: each line is inside the string,
    where a `#` is shell text. The Python reader sees no comment there: no edit
    is offered rather than one that silences nothing."""
    text = (
        "import subprocess\n"
        'subprocess.run(["bash", "-c", """\n'
        "python3 -m sglang.launch_server --model-path m --tp 8 --pp 2\n"
        '"""])\n'
    )
    (finding,) = lint_texts({"launch.py": text}, LintOptions()).findings
    lines = text.split("\n")
    assert finding.noqa_ranges == (("launch.py", 3, 3),)
    assert noqa_edit(finding, "launch.py", lines, comments_reader("launch.py")) is None


def test_noqa_in_a_kubernetes_manifest() -> None:
    text = (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: c\n      image: i\n"
        "      command: [python3, -m, sglang.launch_server, --model-path, m, --tp, '8', --pp, '2']\n"
    )
    fixed = fixed_by_noqa("pod.yaml", text)
    assert fixed is not None and fixed.split("\n")[8].endswith("  # noqa: SGL201")


def test_no_pair_fix_for_a_prefill_of_attention_tp_zero() -> None:
    """A prefill whose attention DP does not divide its TP (tp 1, attn-dp 2:
    attention TP 1 // 2 = 0, which SGLang refuses at startup) gives the decode
    no value to take; found by the property test (a mangled `tp_size=8`), the
    decode's fixes divided by it."""
    text = (
        "import sglang as sgl\n"
        'COMMON = {"model_path": "m", "enable_unified_memory": True, "disaggregation_transfer_backend": "mooncake"}\n'
        'prefill = sgl.Engine(**COMMON, disaggregation_mode="prefill", attn_dp_size=2)\n'
        'decode = sgl.Engine(**COMMON, disaggregation_mode="decode", tp_size=4, dp_size=2, base_gpu_id=8)\n'
    )
    findings = lint_texts({"layouts.py": text}, LintOptions()).findings
    assert all(fix.edits for finding in findings if finding.code == "SGL001" for fix in finding.fixes)


def test_an_option_glued_to_its_value_by_a_no_break_space_is_fixed_with_a_space() -> None:
    """`--tool-call-parser<U+00A0>qwen3` (a public Qwen3-Coder guide): one word to
    the shell. Its close match was `--tool-call-parser`, and the quick fix
    replaced the word with it, dropping the value; the fix types a space."""
    text = "python3 -m sglang.launch_server --model-path /m --tool-call-parser\u00a0qwen3 --tp 8\n"
    (finding,) = lint_texts({"run.sh": text}, LintOptions()).findings
    assert finding.code == "SGL202" and "\\xa0" in finding.message
    (fix,) = finding.fixes
    edit = resolve_fix(fix, text.split("\n"))
    assert edit is not None
    assert apply_edits(text.split("\n"), [edit]) == text.replace("\u00a0", " ")
