"""SGL207 broken-continuation (issue 23 part 3), end to end: the finding, its
quick fix (applied, the command is whole again), where it applies (shell,
Markdown, YAML `sh -c`), suppression, and one finding per break with SGL205."""

from __future__ import annotations

import textwrap

import pytest

from sglang_lint.fixes import apply_edits, resolve_fix
from sglang_lint.pipeline import LintOptions, lint_texts

LS = "python3 -m sglang.launch_server"


def findings(files: dict[str, str], code: str = "SGL207"):
    return [f for f in lint_texts(files, LintOptions()).findings if f.code == code]


def fixed(path: str, text: str) -> str:
    """The text with the fix of the file's only SGL207 finding applied."""
    (finding,) = findings({path: text})
    (fix,) = finding.fixes
    lines = text.split("\n")
    edit = resolve_fix(fix, lines)
    assert edit is not None, fix
    return apply_edits(lines, [edit])


@pytest.mark.parametrize(
    "line, after, title",
    [
        ("  --tp 8 \\ ", "  --tp 8 \\", "Remove the blanks after the backslash"),
        ("  --tp 8\\ ", "  --tp 8\\", "Remove the blanks after the backslash"),  # glued to the 8
        ("  --tp 8 \\\t\t", "  --tp 8 \\", "Remove the tab after the backslash"),
        ("  --tp 8 \\  # eight GPUs", "  --tp 8 \\", "Remove the comment and the blanks after the backslash (the comment is deleted)"),
        ("  --tp 8 \\ # the size", "  --tp 8 \\", "Remove the comment and the blanks after the backslash (the comment is deleted)"),
    ],
)
def test_the_fix_joins_the_command_again(line, after, title):
    text = f"{LS} \\\n{line}\n  --enable-unified-memory \\\n  --port 30000\n"
    (finding,) = findings({"run.sh": text})
    assert finding.fixes[0].title == title and finding.fixes[0].preferred
    repaired = fixed("run.sh", text)
    assert repaired.split("\n")[1] == after
    result = lint_texts({"run.sh": repaired}, LintOptions())
    assert result.findings == []
    (server,) = [s for d in result.deployments for s in d.servers]
    assert server.setting("enable_unified_memory").value.describe() == "true"
    assert server.setting("port").value.describe() == "30000"


def test_message_headline_and_details():
    text = f"{LS} \\\n  --tp 8 \\  # eight GPUs\n  --enable-unified-memory \\\n  --port 30000\n"
    (finding,) = findings({"run.sh": text})
    headline = finding.message
    assert headline == "the command ends here: this `\\` is followed by 2 spaces and a comment, so the next line runs as its own command"
    assert len(headline) < 120
    text = "\n".join(finding.text_lines())  # the details are notes (rustc style)
    assert "extra argument ' '" in text
    assert "`--enable-unified-memory ...` (line 3) runs as a separate command" in text
    assert (finding.location.line, finding.location.column) == (2, 10)
    (related,) = finding.related
    assert (related.location.line, related.location.end_line) == (3, 4)


def test_one_finding_per_break_with_sgl205():
    """`\\ ` then a comment line: the backslash broke the command; the comment line
    continues nothing. SGL207 only. A comment line after a real continuation
    stays SGL205's only."""
    text = f"{LS} \\\n  --tp 8 \\ \n  # the port\n  --port 30000\n"
    result = lint_texts({"run.sh": text}, LintOptions())
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL207", 2)]
    text = f"{LS} \\\n  --tp 8 \\\n  # the port\n  --port 30000\n"
    result = lint_texts({"run.sh": text}, LintOptions())
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL205", 3)]


def test_noqa_on_the_broken_line():
    text = f"{LS} \\\n  --tp 8 \\  # noqa: SGL207\n  --port 30000\n"
    assert findings({"run.sh": text}) == []


def test_not_a_launch_is_not_reported():
    text = "rsync -a /models \\ \n  /backup\n" + f"{LS} --tp 8 --port 30000\n"
    assert findings({"run.sh": text}) == []


def test_in_a_yaml_sh_c_block_scalar():
    text = textwrap.dedent(
        """\
        kind: Pod
        spec:
          containers:
            - name: decode
              command: ["sh", "-c"]
              args:
                - |
                  python3 -m sglang.launch_server \\
                    --tp-size 8 \\ 
                    --port 30001
        """
    )
    assert "\\ \n" in text
    (finding,) = findings({"decode.yaml": text})
    line = text.split("\n")[8]
    assert (finding.location.line, finding.location.column) == (9, line.index("\\") + 1)
    assert "`--port 30001` (line 10)" in "\n".join(finding.notes)
    repaired = fixed("decode.yaml", text)
    result = lint_texts({"decode.yaml": repaired}, LintOptions())
    assert result.findings == []
    (server,) = [s for d in result.deployments for s in d.servers]
    assert server.setting("port").value.describe() == "30001"


def test_in_a_markdown_fence_the_fix_edits_the_markdown_line():
    doc = f"Run:\n\n   ```bash\n   {LS} \\\n     --tp 8 \\ \n     --port 30001\n   ```\n"
    repaired = fixed("runbook.md", doc)
    assert repaired.split("\n")[4] == "     --tp 8 \\"
    assert findings({"runbook.md": repaired}) == []
