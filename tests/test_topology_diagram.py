"""`sglang-lint topology --format mermaid|markdown`: golden outputs on one
fixture, safe node ids, escaped labels.

Regenerate the golden files after an intended change with
``SGLANG_LINT_UPDATE_GOLDEN=1 python -m pytest tests/test_topology_diagram.py``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from sglang_lint.cli import main
from sglang_lint.pipeline import lint_texts
from sglang_lint.report.topology_diagram import markdown_text, mermaid_text, render_markdown, render_mermaid

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
FIXTURE = "tests/golden/topology-pd"
VERSION = "0.5.23"


def _topology(capsys, monkeypatch, fmt: str) -> str:
    monkeypatch.chdir(ROOT)  # paths in the output are relative to the working directory
    code = main(["topology", "--format", fmt, "--target-version", VERSION, FIXTURE])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@pytest.mark.parametrize(("fmt", "golden"), [("mermaid", "topology.mermaid.txt"), ("markdown", "topology.markdown.md")])
def test_golden(capsys, monkeypatch, fmt: str, golden: str) -> None:
    out = _topology(capsys, monkeypatch, fmt)
    path = GOLDEN / golden
    if os.environ.get("SGLANG_LINT_UPDATE_GOLDEN"):
        path.write_text(out, encoding="utf-8")
    assert out == path.read_text(encoding="utf-8")


def test_mermaid_draws_routes_and_marks_the_incompatible_pair(capsys, monkeypatch) -> None:
    out = _topology(capsys, monkeypatch, "mermaid")
    lines = out.splitlines()
    assert lines[0] == "flowchart LR"
    # the router reaches all three servers; only prefill x second decode is bad
    assert sum(1 for line in lines if re.fullmatch(r"  d1_r1 --> d1_s[123]", line)) == 3
    dashed = [line for line in lines if "-.-" in line]
    assert dashed == ['  d1_s1 -.-|"SGL001, SGL003"| d1_s3']
    assert lines[-1].startswith("  linkStyle 3 stroke:#d62728") and "stroke-dasharray" in lines[-1]
    assert "attention TP 8" in out and "launch_pd.sh:11" in out


def test_markdown_has_a_table_per_deployment_and_the_diagram(capsys, monkeypatch) -> None:
    out = _topology(capsys, monkeypatch, "markdown")
    assert out.count("| role | launch | attention TP | key settings |") == 1
    assert "```mermaid\nflowchart LR\n" in out and out.rstrip().endswith("```")
    assert "- **SGL001, SGL003**: prefill" in out


def test_a_suppressed_pair_is_not_drawn_as_incompatible() -> None:
    text = (ROOT / FIXTURE / "launch_pd.sh").read_text().replace("start_decode 30002 8 32", "start_decode 30002 8 32  # noqa: SGL001, SGL003")
    result = lint_texts({"run.sh": text})
    assert result.pair_findings == []
    assert "-.-" not in render_mermaid(result.deployments, result.version, result.pair_findings)
    result = lint_texts({"run.sh": text.replace("SGL001, SGL003", "SGL001")})
    assert [codes for _, _, codes in result.pair_findings] == [("SGL003",)]


HOSTILE = '''#!/bin/bash
f() {
  python -m sglang.launch_server --disaggregation-mode "$1" --tp "$2" --enable-unified-memory --port "$3"
}
f prefill 2 30000 # "quoted" [bracket] {brace} <b>x</b> `tick` | pipe
f decode 4 30001
'''


def test_mermaid_node_ids_are_safe_and_labels_escaped() -> None:
    name = 'deploy dir/"odd" [name] {x} <b>#1</b> `t` | y;z.sh'
    result = lint_texts({name: HOSTILE})
    assert result.pair_findings
    out = render_mermaid(result.deployments, result.version, result.pair_findings)
    for line in out.splitlines()[1:]:
        line = line.strip()
        if line.startswith(("%%", "end", "linkStyle")):
            continue
        match = re.match(r"(subgraph )?(\w+)", line)
        assert match, line
        assert re.fullmatch(r"d\d+(_[rs]\d+)?", match.group(2)), line
        # every label is one double-quoted string without a raw quote, bracket,
        # brace, angle bracket, backtick or pipe inside
        for label in re.findall(r'"([^"]*)"', line):
            bare = re.sub(r"#\w+;", "", label.replace("<br/>", ""))
            assert not set(bare) & set('"[]{}<>`|;'), label
        assert line.count('"') % 2 == 0, line
    assert "#quot;odd#quot; #91;name#93; #123;x#125; #60;b#62;#35;1#60;/b#62;" in out


def test_escapers() -> None:
    assert mermaid_text('a "b" [c]\n#d') == "a #quot;b#quot; #91;c#93; #35;d"
    assert mermaid_text("\x1b[31m") == "\u241b#91;31m"  # control characters are shown, never obeyed
    assert markdown_text("a|b <i>*c*</i> _d_") == "a\\|b &lt;i&gt;\\*c\\*&lt;/i&gt; \\_d\\_"


def test_markdown_escapes_a_hostile_path() -> None:
    name = "x|y `z` <img>.sh"
    result = lint_texts({name: HOSTILE})
    out = render_markdown(result.deployments, result.version, result.pair_findings)
    table = [line for line in out.splitlines() if line.startswith("| prefill")]
    assert len(table) == 1
    # five cells: the pipe in the name is escaped
    assert len(re.split(r"(?<!\\)\|", table[0])) == 6
    assert "<img>" not in out.split("```mermaid")[0]


def test_no_launches(capsys, tmp_path) -> None:
    (tmp_path / "empty.sh").write_text("echo hi\n")
    assert main(["topology", "--format", "mermaid", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("flowchart LR\n") and "No SGLang launches found." in out
    assert main(["topology", "--format", "markdown", str(tmp_path)]) == 0
    assert "No SGLang launches found." in capsys.readouterr().out
