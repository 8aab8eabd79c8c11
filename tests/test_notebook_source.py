"""Jupyter notebooks (sources/notebook.py): the code cells run as IPython runs
them, Markdown cells read as a runbook, every position the notebook file's own.

Notebooks were passed over by a directory walk, and with them the launches of
SGLang's documentation notebooks and the cloud cookbooks that copy them."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sglang_lint.files import FileKind, classify
from sglang_lint.pipeline import LintOptions, lint_paths
from sglang_lint.sources.notebook import analyze_notebook

LS = "python -m sglang.launch_server --model-path m"


def notebook(*cells: tuple[str, str], language: str = "python") -> str:
    """A notebook as Jupyter writes it: one JSON line per source line."""
    made = [
        {"cell_type": kind, "metadata": {}, "source": text.splitlines(keepends=True), **({"outputs": [], "execution_count": None} if kind == "code" else {})}
        for kind, text in cells
    ]
    document = {"cells": made, "metadata": {"kernelspec": {"language": language, "name": language}}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(document, indent=1) + "\n"


def at(text: str, line: int, column: int, length: int) -> str:
    return text.split("\n")[line - 1][column - 1 : column - 1 + length]


def args(launch) -> list[str]:
    """The launch's words after LS's `--model-path m`."""
    words = [token.value.describe() for token in launch.args]
    return words[2:] if words[:2] == ["--model-path", "m"] else words


def test_a_notebook_is_walked() -> None:
    assert classify("guide.ipynb", b"") is FileKind.NOTEBOOK


def test_a_bang_line_is_a_shell_command_at_the_notebooks_line_and_column() -> None:
    text = notebook(("code", f"import os\n!{LS} --tp 2 --port {{PORT}} &\nprint('started')\n"))
    result = analyze_notebook("nb.ipynb", text)
    assert result.notes == []
    (launch,) = result.servers
    assert args(launch)[:3] == ["--tp", "2", "--port"]
    # `{PORT}` is a Python value IPython puts there (a placeholder), not text
    assert not launch.args[5].value.is_known
    tp = launch.args[2].location
    assert at(text, tp.line, tp.column, 4) == "--tp"


def test_a_bang_command_continues_on_backslashed_lines() -> None:
    text = notebook(("code", f"!{LS} \\\n    --tp 4 \\\n    --dp 2 &\nx = 1\n"))
    (launch,) = analyze_notebook("nb.ipynb", text).servers
    assert args(launch) == ["--tp", "4", "--dp", "2"]


@pytest.mark.parametrize("magic", ["%%bash", "%%sh", "%%script bash"])
def test_a_shell_cell_magic_makes_the_cell_a_script(magic: str) -> None:
    text = notebook(("code", f"{magic}\nTP=8\n{LS} --tp $TP &\n"))
    (launch,) = analyze_notebook("nb.ipynb", text).servers
    assert args(launch) == ["--tp", "8"]


@pytest.mark.parametrize("magic", ["%%html", "%%javascript"])
def test_a_cell_magic_that_runs_no_code_launches_nothing(magic: str) -> None:
    text = notebook(("code", f"{magic}\n{LS} --tp 8 --no-such-option\n"))
    result = analyze_notebook("nb.ipynb", text)
    assert result.servers == [] and result.notes == []


def test_a_written_script_is_read_as_the_program_its_shebang_names() -> None:
    """SageMaker's `serve` (a public notebook): `%%writefile serve`, a bash
    script the container runs; `"{$ARGS} ..."` glues a brace to --host."""
    script = '#!/bin/bash\nARGS="--host 0.0.0.0 --port 8080"\nARGS="{$ARGS} --tp 2"\npython3 -m sglang.launch_server --model-path m $ARGS\n'
    text = notebook(("code", "TP = 8\n"), ("code", "%%writefile serve\n" + script), ("code", "!chmod +x serve\n"))
    result = analyze_notebook("nb.ipynb", text)
    (launch,) = result.servers
    assert args(launch) == ["{--host", "0.0.0.0", "--port", "8080}", "--tp", "2"]
    assert at(text, launch.location.line, launch.location.column, 7) == "python3"


def test_a_written_file_is_a_program_of_its_own(tmp_path, monkeypatch) -> None:
    """The kernel's names and a `!` line's variables are not the written
    file's: it runs later, alone."""
    monkeypatch.chdir(tmp_path)
    text = notebook(
        ("code", "!TP=8\n"),
        ("code", f"%%writefile launch.sh\n{LS} --tp $TP --no-such-option\n"),
        ("code", "%%writefile launch.py\nimport subprocess\nsubprocess.run(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-szie', '2'])\n"),
    )
    (tmp_path / "nb.ipynb").write_text(text)
    findings = lint_paths(["nb.ipynb"], LintOptions()).findings
    assert sorted((finding.code, at(text, finding.location.line, finding.location.column, 16)) for finding in findings) == [
        ("SGL202", "'--tp-szie', '2'"),
        ("SGL202", "--no-such-option"),
    ]
    (shell, python) = analyze_notebook("nb.ipynb", text).servers
    assert not shell.args[3].value.is_known  # $TP: the `!` line's shell is gone


def test_a_written_manifest_is_read_as_yaml() -> None:
    manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n  containers:\n  - name: s\n    image: lmsysorg/sglang:v0.5.9\n    command: [python3, -m, sglang.launch_server]\n    args: [--model-path, m, --tp, '4']\n"
    text = notebook(("code", "%%writefile -a pod.yaml\n" + manifest))
    (launch,) = analyze_notebook("nb.ipynb", text).servers
    assert args(launch) == ["--tp", "4"]


def test_a_written_file_of_no_known_language_that_launches_is_noted() -> None:
    text = notebook(("code", "%%writefile Dockerfile\nFROM lmsysorg/sglang:latest\nCMD python3 -m sglang.launch_server --model-path m\n"))
    result = analyze_notebook("nb.ipynb", text)
    (note,) = result.notes
    assert result.servers == [] and "`Dockerfile` this cell writes is not analyzed" in note.message
    assert at(text, note.line, note.column, 11) == "%%writefile"


def test_python_cells_are_one_program_in_order() -> None:
    """One kernel runs every cell: a name the first defines, the second uses.
    Line magics and `x = !cmd` run no Python."""
    text = notebook(
        ("code", "%load_ext autoreload\nimport subprocess\nTP = 2\nfiles = !ls\n"),
        ("markdown", "Start it:\n"),
        ("code", "subprocess.Popen(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp', str(TP)])\n"),
    )
    result = analyze_notebook("nb.ipynb", text)
    assert result.notes == []
    (launch,) = result.servers
    assert args(launch) == ["--tp", "2"]


def test_a_pip_magic_pins_the_release() -> None:
    text = notebook(("code", '%pip install "sglang[all]==0.5.9"\n'), ("code", f"!{LS} --tp 2 &\n"))
    result = analyze_notebook("nb.ipynb", text)
    assert [hint.release for hint in result.version_hints] == ["0.5.9"]


def test_markdown_cells_are_a_runbook_with_sections() -> None:
    """A guide's fenced commands in Markdown cells (AMD's PD notebook), each
    heading a section, as in a Markdown runbook."""
    text = notebook(
        ("markdown", "## Single node\n\n```bash\n" + LS + " --disaggregation-mode prefill --tp 2\n```\n"),
        ("markdown", "## Two nodes\n\n```bash\n" + LS + " --disaggregation-mode prefill --tp 8\n```\n"),
    )
    result = analyze_notebook("nb.ipynb", text)
    assert [launch.section[-1].title for launch in result.servers] == ["Single node", "Two nodes"]
    assert all(at(text, launch.location.line, launch.location.column, 6) == "python" for launch in result.servers)


def test_a_bash_kernel_runs_its_cells_as_shell() -> None:
    text = notebook(("code", f"TP=2\n{LS} --tp $TP &\n"), language="bash")
    (launch,) = analyze_notebook("nb.ipynb", text).servers
    assert args(launch) == ["--tp", "2"]


def test_a_noqa_comment_in_a_cell_silences_its_finding(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = notebook(("code", f"!{LS} --no-such-option &  # noqa: SGL202\n!{LS} --other-bad-option &\n"))
    (tmp_path / "nb.ipynb").write_text(text)
    (finding,) = lint_paths(["nb.ipynb"], LintOptions()).findings
    assert finding.code == "SGL202" and "--other-bad-option" in finding.message
    assert at(text, finding.location.line, finding.location.column, 18) == "--other-bad-option"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{not json", "not valid JSON"),
        ('{"worksheets": []}', "nbformat 3"),
        ('{"cells": 3}', "no list of cells"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_a_file_that_is_not_a_notebook_is_noted(text: str, why: str) -> None:
    result = analyze_notebook("nb.ipynb", text)
    (note,) = result.notes
    assert why in note.message and result.servers == []


def test_a_cell_written_as_one_string_is_noted() -> None:
    document = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": f"import os\n!{LS} --tp 2 &\n"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    result = analyze_notebook("nb.ipynb", json.dumps(document))
    assert result.servers == []
    (note,) = result.notes
    assert "one string of several lines" in note.message


def test_a_notebook_written_on_one_line_is_noted_not_misread() -> None:
    """Compact JSON puts every cell's lines on one line of the file: placed
    there, each overwrote the other."""
    text = notebook(("markdown", "# Title\n"), ("code", f"TP = 2\n!{LS} --tp 2 &\n"))
    compact = json.dumps(json.loads(text))
    result = analyze_notebook("nb.ipynb", compact)
    assert result.servers == [] and "not each on a line of their own" in result.notes[0].message


_CELL_LINES = st.sampled_from(
    ["import subprocess", f"!{LS} --tp 2 &", "%%bash", "%pip install sglang==0.5.9", "x = !ls", "\\", '"', "```bash", "# H", "{x}", "!", "%%", ""]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cells=st.lists(st.tuples(st.sampled_from(["code", "markdown", "raw"]), st.lists(_CELL_LINES, max_size=6).map("\n".join)), max_size=5))
def test_any_notebook_is_analyzed_without_raising(cells: list[tuple[str, str]]) -> None:
    text = notebook(*cells)
    first = analyze_notebook("nb.ipynb", text)
    assert analyze_notebook("nb.ipynb", text) == first  # (deterministic)


# Escapes before a column: Jupyter writes `"` as `\"`, `\` as `\\`, a tab as
# `\t` and, with json's default ensure_ascii, `é` as `\u00e9` and an emoji as a
# surrogate pair of two `\uXXXX`: the file's text runs ahead of the cell's.
_ESCAPED_PREFIX = 'MSG="caf\u00e9 \\\\ \\"PD\\" \U0001f600\t" '


def test_a_column_after_escapes_on_its_line_is_the_files() -> None:
    text = notebook(("code", f"!{_ESCAPED_PREFIX}{LS} --tp 2 --no-such-option &\n"))
    assert "\\u00e9" in text and "\\ud83d\\ude00" in text and '\\"' in text and "\\t" in text
    (launch,) = analyze_notebook("nb.ipynb", text).servers
    for token in launch.args:
        word = token.value.describe()
        assert at(text, token.location.line, token.location.column, len(word)) == word
    assert at(text, launch.location.line, launch.location.column, 6) == "python"


def test_a_finding_after_escapes_points_at_its_option(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = notebook(("code", f'print("\\"PD\\" caf\u00e9")\n!{_ESCAPED_PREFIX}{LS} --no-such-option &\n'))
    (tmp_path / "nb.ipynb").write_text(text)
    (finding,) = lint_paths(["nb.ipynb"], LintOptions()).findings
    assert finding.code == "SGL202"
    location = finding.location
    assert at(text, location.line, location.column, 16) == "--no-such-option"
    assert at(text, location.end_line, location.end_column - 16, 16) == "--no-such-option"


def test_a_python_cells_columns_after_escapes_are_the_files() -> None:
    code = 'label = "\\"caf\u00e9\\""; p = subprocess.Popen(["python", "-m", "sglang.launch_server", "--model-path", "m", "--tp", "2"])\n'
    text = notebook(("code", "import subprocess\n" + code))
    (launch,) = analyze_notebook("nb.ipynb", text).servers
    tp = next(token for token in launch.args if token.value.describe() == "--tp")
    # (the string's quotes are escapes in the file: `\"--tp\"`)
    assert at(text, tp.location.line, tp.location.column, 8) == '\\"--tp\\"'


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prefix=st.text(st.characters(blacklist_characters="\n\r{}'", blacklist_categories=("Cs",)), max_size=12), ascii_only=st.booleans())
def test_every_word_after_any_escaped_text_is_placed_on_itself(prefix: str, ascii_only: bool) -> None:
    """Whatever precedes a launch on its line (quotes, backslashes, control
    characters, non-ASCII written raw or as escapes), each word's column is
    where the word is in the file."""
    cell = f"!X='{prefix}' {LS} --tp 2 &\n"
    made = {"cells": [{"cell_type": "code", "metadata": {}, "source": [cell], "outputs": [], "execution_count": None}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    text = json.dumps(made, indent=1, ensure_ascii=ascii_only) + "\n"
    result = analyze_notebook("nb.ipynb", text)
    for launch in result.servers:
        for token in launch.args:
            word = token.value.describe()
            if token.value.is_known and word.startswith("-"):
                assert at(text, token.location.line, token.location.column, len(word)) == word
