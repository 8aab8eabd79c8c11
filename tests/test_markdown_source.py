"""The Markdown source (sglang_lint.sources.markdown): the launches in a runbook's
code blocks.

Pins, through ``analyze_markdown(path, text)`` and the whole pipeline: which fences
are blocks (CommonMark: backticks and tildes, indentation, closing rules, list
items, block quotes, HTML blocks, unclosed fences), which languages are read,
console sessions (prompts dropped, output ignored), placeholders (never known text),
exact Markdown positions (1-based line, code-point column), ``# noqa`` inside
fences, Python and YAML blocks, one SourceResult per document, and robustness
(never raise, bounded work, deterministic).
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sglang_lint.files import FileKind, classify
from sglang_lint.model import (
    EntryPoint,
    Kind,
    Location,
    SourceResult,
    Value,
    provably_different,
    provably_equal,
)
from sglang_lint.pipeline import LintOptions, _source, lint_texts
from sglang_lint.sources.markdown import analyze_markdown, find_blocks, language_tag
from sglang_lint.sources.shell import analyze_shell

P = "runbook.md"
LS = "python3 -m sglang.launch_server"
UM = "--enable-unified-memory"


def analyze(text: str) -> SourceResult:
    return analyze_markdown(P, text)


def argv(launch) -> list[str]:
    return [token.value.describe() for token in launch.args]


def servers(text: str):
    return analyze(text).servers


def one(text: str):
    found = servers(text)
    assert len(found) == 1, [argv(s) for s in found]
    return found[0]


def token(launch, text: str, occurrence: int = 1):
    return [t for t in launch.args if t.value.describe() == text][occurrence - 1]


def where(doc: str, line: int, needle: str, occurrence: int = 1) -> Location:
    """The span of the ``occurrence``-th ``needle`` on Markdown line ``line``."""
    text = doc.split("\n")[line - 1]
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    return Location(P, line, index + 1, line, index + 1 + len(needle))


def fence(body: str, info: str = "bash", marker: str = "```") -> str:
    return f"{marker}{info}\n{body}{marker}\n"


def findings(files: dict[str, str], **options):
    result = lint_texts(files, LintOptions(**options))
    return [(f.code, f.location.path, f.location.line, f.location.column) for f in result.findings]


def pair_doc(prefill: str, decode: str) -> str:
    """A runbook with a prefill (line 6) and a decode (line 12) block, both with
    unified memory."""
    return (
        "# Runbook\n\nPrefill:\n\n"
        + fence(f"{LS} --disaggregation-mode prefill {UM} --port 30000 {prefill}\n")
        + "\nDecode:\n\n"
        + fence(f"{LS} --disaggregation-mode decode {UM} --port 30001 {decode}\n")
    )


def every_value(result: SourceResult):
    for launch in [*result.servers, *result.routers]:
        for arg in launch.args:
            yield arg.value
        for keyword in getattr(launch, "keywords", ()):
            yield keyword.value


def texts_of(value: Value) -> set[str]:
    """Every literal string a value holds (known text, alternatives, parts)."""
    if value.kind is Kind.KNOWN:
        return {value.text}
    if value.kind is Kind.ALTERNATIVES:
        return set(value.alternatives)
    if value.kind is Kind.CONCAT:
        return set().union(*(texts_of(p) for p in value.parts))
    return set()


# ---------------------------------------------------------------------------------
# Registration


def test_registered_for_markdown_files():
    assert _source(FileKind.MARKDOWN) is analyze_markdown
    assert classify("docs/RUNBOOK.md", b"") is FileKind.MARKDOWN
    assert classify("notes.markdown", b"") is FileKind.MARKDOWN


# ---------------------------------------------------------------------------------
# Fences


@pytest.mark.parametrize("marker", ["```", "~~~", "````", "~~~~~"])
def test_backtick_and_tilde_fences(marker):
    doc = f"Text\n\n{marker}bash\n{LS} --tp 8\n{marker}\n"
    launch = one(doc)
    assert argv(launch) == ["--tp", "8"]
    assert launch.location == where(doc, 4, "python3")


def test_closing_fence_same_character_at_least_as_long():
    # ``` cannot close ````, ~~~ cannot close ```, and a longer run closes.
    doc = f"````bash\n{LS} --tp 1\n```\n~~~\n{LS} --tp 2\n`````\n{LS} --tp 3\n"
    assert [argv(s) for s in servers(doc)] == [["--tp", "1"], ["--tp", "2"]]
    # A "closing" fence with text after it is content.
    doc = f"```bash\n{LS} --tp 1\n``` not a close\n```\n{LS} --tp 9\n"
    assert [argv(s) for s in servers(doc)] == [["--tp", "1"]]
    # A closing fence may be indented up to 3 spaces and followed by blanks.
    doc = f"```bash\n{LS} --tp 1\n   ```   \n{LS} --tp 9\n"
    assert [argv(s) for s in servers(doc)] == [["--tp", "1"]]


def test_backtick_info_string_without_backticks():
    # ```bash `x` is inline code, not a fence; a tilde fence may hold backticks.
    assert servers(f"```bash `x`\n{LS} --tp 8\n```\n") == []
    assert argv(one(f"~~~bash `x`\n{LS} --tp 8\n~~~\n")) == ["--tp", "8"]


def test_unclosed_fence_runs_to_the_end_of_the_document():
    doc = f"# Title\n\n```bash\n{LS} --tp 2 \\\n  --port 30000\n\nmore text that is still code\n"
    blocks = find_blocks(doc)
    assert [(b.family, b.fence_line, b.last_line) for b in blocks] == [("shell", 3, 8)]
    assert argv(one(f"```bash\n{LS} --tp 2\n")) == ["--tp", "2"]


@pytest.mark.parametrize("indent", [1, 2, 3])
def test_opening_fence_indented_up_to_three_spaces(indent):
    pad = " " * indent
    doc = f"{pad}```bash\n{pad}{LS} --tp 8\n{pad}```\n"
    launch = one(doc)
    assert token(launch, "8").location == where(doc, 2, "8")


def test_four_spaces_is_indented_code_not_a_fence():
    assert servers(f"Text\n\n    ```bash\n    {LS} --tp 8\n    ```\n") == []


def test_indented_fence_removes_up_to_its_indentation_from_python_lines():
    doc = (
        "  ```python\n"
        "  import subprocess\n"
        "  if True:\n"
        '      subprocess.Popen(["python3", "-m", "sglang.launch_server", "--tp", "4"])\n'
        "  ```\n"
    )
    launch = one(doc)
    assert argv(launch) == ["--tp", "4"]
    assert token(launch, "4").location == where(doc, 4, '"4"')


def test_fences_in_list_items_and_block_quotes():
    doc = (
        "1. Start the prefill:\n"
        "\n"
        "   ```bash\n"
        f"   {LS} --disaggregation-mode prefill --tp 8\n"
        "   ```\n"
        "\n"
        "10. Then, in a nested list:\n"
        "    - the decode:\n"
        "      ```sh\n"
        f"      {LS} --disaggregation-mode decode --tp 4\n"
        "      ```\n"
        "\n"
        "> Or from a quote:\n"
        "> ```bash\n"
        f"> {LS} --tp 2\n"
        "> ```\n"
    )
    found = servers(doc)
    assert [argv(s)[-1] for s in found] == ["8", "4", "2"]
    assert token(found[1], "4").location == where(doc, 10, "4")
    assert token(found[2], "2").location == where(doc, 15, "2")


def test_list_item_indentation_is_relative_to_its_container():
    # `>- ` has its content at column 3 of the quote's content; `   >   x` has the
    # quote's content at column 5, so the item's starts at 7 (not at column 3).
    doc = f">- ```bash\n   >   {LS} --tp 8\n   >   ```\n"
    launch = one(doc)
    assert launch.location == where(doc, 2, "python3")
    # A list item that starts empty ends at the next blank line: the tab-indented
    # fence after it is indented code at the top level.
    assert servers(f"*\n\n\t```bash\n\t{LS} --tp 8\n\t```\n") == []


def test_fence_ends_with_its_container():
    # The list item ends at the unindented line: so does its (unclosed) fence.
    doc = f"- item\n  ```bash\n  {LS} --tp 8\n{LS} --tp 9\n"
    assert [argv(s) for s in servers(doc)] == [["--tp", "8"]]
    # A block quote ends at a line without '>'.
    doc = f"> ```bash\n> {LS} --tp 8\n{LS} --tp 9\n"
    assert [argv(s) for s in servers(doc)] == [["--tp", "8"]]


def test_fences_inside_html_blocks_are_not_code():
    hidden = fence(f"{LS} --tp 4\n")
    assert servers(f"<!--\nOld layout:\n\n{hidden}-->\n") == []
    assert servers(f"<details>\n<summary>x</summary>\n{hidden}</details>\n") == []
    # After a blank line the HTML block is over and the fence is a block
    # (what GitHub renders inside <details>).
    assert len(servers(f"<details>\n<summary>x</summary>\n\n{hidden}\n</details>\n")) == 1
    # A comment closed on its own line does not hide what follows.
    assert len(servers(f"<!-- note -->\n{hidden}")) == 1


@pytest.mark.parametrize(
    "info, tag",
    [
        ("bash", "bash"),
        ("BASH", "bash"),
        ("Shell", "shell"),
        ("bash title=run.sh", "bash"),
        ("{.bash .numberLines}", "bash"),
        ("{bash echo=FALSE}", "bash"),
        ("sh:launch.sh", "sh"),
        ("{code-block} bash", "bash"),
        ("", ""),
    ],
)
def test_language_is_the_first_word_of_the_info_string(info, tag):
    assert language_tag(info) == tag


@pytest.mark.parametrize("tag", ["bash", "sh", "shell", "zsh", "Bash", "SH", "console", "shell-session", "sh-session"])
def test_shell_tags(tag):
    body = f"$ {LS} --tp 8\n" if "session" in tag or tag == "console" else f"{LS} --tp 8\n"
    assert argv(one(fence(body, tag))) == ["--tp", "8"]


@pytest.mark.parametrize("tag", ["text", "json", "dockerfile", "powershell", "bash-but-not", "ini"])
def test_blocks_of_other_languages_are_ignored(tag):
    assert servers(fence(f"{LS} --tp 8\n", tag)) == []
    assert find_blocks(fence(f"{LS} --tp 8\n", tag)) == []


def test_an_untagged_block_that_names_an_entry_point_is_shell():
    """A block with no info string: a model README's launch (Tencent's
    Hunyuan-7B, `docker run --entrypoint="python3" ... -m
    sglang.launch_server`), a Hygon runbook's PD pair and router. Such blocks
    were ignored, and their launches lost without a word; in eight public
    corpora each of the 22 that named an entry point was a command."""
    doc = (
        "Start the server:\n\n"
        "```\n"
        "docker run --entrypoint=\"python3\" --gpus all --net=host lmsysorg/sglang:v0.5.23 \\\n"
        "    -m sglang.launch_server --model-path /m --tp 4 --port 30000\n"
        "```\n"
    )
    (block,) = find_blocks(doc)
    assert block.family == "untagged"
    launch = one(doc)
    assert argv(launch) == ["--model-path", "/m", "--tp", "4", "--port", "30000"] and launch.location.line == 4  # (its python3)


def test_an_untagged_block_of_a_command_and_its_output_reads_the_command():
    """A launch line and the server's log under it, in one untagged block (a
    cloud guide's QwQ-32B section): the log's lines are output, not lines
    tree-sitter-bash cannot parse (three notes), as a transcript's output is."""
    body = (
        "python3.12 -m sglang.launch_server --model-path /m --port 30000 \\\n"
        "    --tensor-parallel-size 4\n"
        "INFO 03-07 12:29:02 __init__.py:190] Automatically detected platform cuda.\n"
        "[2025-03-08 12:29:04] server_args=ServerArgs(model_path='/m', tp_size=4)\n"
        "100%|████| 13/13 [00:07<00:00,  1.80it/s]\n"
        "[2025-03-08 12:29:29] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)\n"
    )
    result = analyze(fence(body, ""))
    assert [argv(s) for s in result.servers] == [["--model-path", "/m", "--port", "30000", "--tensor-parallel-size", "4"]]
    assert result.notes == []


def test_an_untagged_transcript_is_read_as_one():
    doc = fence(f"$ {LS} --tp 8\n[2025-06-01 10:00:00] server_args=ServerArgs(tp_size=8)\n$ curl localhost:30000/health\n", "")
    assert argv(one(doc)) == ["--tp", "8"]


@pytest.mark.parametrize(
    "body",
    [
        "INFO: server_args=ServerArgs(tp_size=8) sglang 0.5.23\n",  # output: no entry point
        "pip install sglang[all]\n",
        "my-wrapper --engine sglang --tp 8\n",
    ],
)
def test_an_untagged_block_that_names_no_entry_point_is_ignored(body):
    result = analyze(fence(body, ""))
    assert result.servers == [] and result.notes == []


def test_an_untagged_python_program_is_python():
    body = "import subprocess\n\nif True:\n    subprocess.Popen([\"python3\", \"-m\", \"sglang.launch_server\", \"--tp\", \"2\"])\n"
    assert argv(one(fence(body, ""))) == ["--tp", "2"]


def test_prose_and_inline_code_are_never_launches():
    doc = f"Run `{LS} --tp 8` on each node.\n\n    {LS} --tp 4\n\n{LS} --tp 2\n"
    assert servers(doc) == []


# ---------------------------------------------------------------------------------
# Sessions


def test_console_prompts_and_output():
    doc = (
        "```console\n"
        f"$ {LS} --tp 8 \\\n"
        "    --port 30000\n"
        "[2025-06-01 10:00:00] server_args=ServerArgs(tp_size=8)\n"
        f"python3 -m sglang.launch_server --tp 99\n"
        "$ curl -s localhost:30000/health\n"
        "OK\n"
        "```\n"
    )
    launch = one(doc)
    assert argv(launch) == ["--tp", "8", "--port", "30000"]
    assert launch.location == where(doc, 2, "python3")
    assert token(launch, "30000").location == where(doc, 3, "30000")


def test_continuation_prompts_are_dropped():
    doc = f"```console\n$ {LS} \\\n>   --tp 8 \\\n>   --port 30000\nready\n```\n"
    launch = one(doc)
    assert argv(launch) == ["--tp", "8", "--port", "30000"]
    assert token(launch, "--tp").location == where(doc, 3, "--tp")


def test_bare_root_prompt_only_in_a_console_block_of_root_prompts():
    # A console block whose prompts are all `# `: a root session.
    assert argv(one(f"```console\n# {LS} --tp 8\nINFO ready\n```\n")) == ["--tp", "8"]
    # Beside `$ ` prompts, `# ` reads like output (or a comment); in a script it is one.
    assert argv(one(f"```console\n$ {LS} --tp 8\n# {LS} --tp 4\n```\n")) == ["--tp", "8"]
    assert servers(f"```bash\n# {LS} --tp 8\n```\n") == []


def test_shell_block_with_prompts_is_a_session():
    doc = f"```bash\n$ export TP=8\n$ {LS} --tp $TP\nINFO started\n```\n"
    assert argv(one(doc)) == ["--tp", "8"]


def test_shell_block_without_prompts_is_a_script():
    doc = f"```bash\nTP=8\n{LS} --tp $TP \\\n  --port 30000\n```\n"
    assert argv(one(doc)) == ["--tp", "8", "--port", "30000"]


def test_console_without_prompts_is_all_output():
    assert servers(f"```console\n{LS} --tp 8\n```\n") == []


def test_python_console_session():
    doc = (
        "```pycon\n"
        ">>> import sglang as sgl\n"
        '>>> engine = sgl.Engine(model_path="m", tp_size=4,\n'
        '...                      disaggregation_mode="decode")\n'
        "<sglang.Engine object at 0x7f>\n"
        "```\n"
    )
    launch = one(doc)
    assert launch.entry is EntryPoint.ENGINE
    keywords = {k.name: k for k in launch.keywords}
    assert keywords["tp_size"].value == Value.known("4")
    assert keywords["disaggregation_mode"].location == where(doc, 4, '"decode"')


# ---------------------------------------------------------------------------------
# Placeholders


@pytest.mark.parametrize(
    "word, symbol",
    [
        ("<MODEL_PATH>", "<MODEL_PATH>"),
        ("<model-path>", "<model-path>"),
        ("[model_path]", "[model_path]"),
        ("{MODEL}", "{MODEL}"),
        ("{{ MODEL }}", "{{ MODEL }}"),
        ('"<MODEL_PATH>"', "<MODEL_PATH>"),
        ("'<MODEL_PATH>'", "<MODEL_PATH>"),
        # a number's range or choices, a word not in ASCII: a runbook's
        # `--node-rank <0-7>` was a redirection, and "expected one argument"
        ("<0-7>", "<0-7>"),
        ("<1|2|3>", "<1|2|3>"),
        ("<prefill|decode>", "<prefill|decode>"),
        ("<节点IP>", "<节点IP>"),
        # several words (a SageMaker notebook's `--model-path <your model
        # path>`, in an untagged fence: redirections, and "expected one argument")
        ("<your model path>", "<your model path>"),
        ("<path to the model/checkpoint>", "<path to the model/checkpoint>"),
    ],
)
def test_placeholders_are_symbols_not_text(word, symbol):
    launch = one(fence(f"{LS} --model-path {word} --tp 8\n"))
    assert launch.args[1].value == Value.symbol(symbol)
    assert launch.args[1].value.candidates() is None


def test_placeholder_as_part_of_a_word():
    doc = fence(
        "python3 -m sglang_router.launch_router --pd-disaggregation "
        "--prefill http://<PREFILL_HOST>:30000 --decode http://[decode-host]:30001\n"
    )
    (router,) = analyze(doc).routers
    url = router.args[2].value
    assert url.kind is Kind.CONCAT
    assert url.parts == (Value.known("http://"), Value.symbol("<PREFILL_HOST>"), Value.known(":30000"))
    assert router.args[4].value.parts[1] == Value.symbol("[decode-host]")


def test_same_placeholder_is_the_same_symbol_everywhere():
    doc = fence(f"M=<MODEL>\n{LS} --model-path $M --tp 8\n") + fence(f"{LS} --model-path <MODEL> --tp 8\n", "sh")
    first, second = servers(doc)
    assert provably_equal(first.args[1].value, second.args[1].value)
    other = one(fence(f"{LS} --model-path <OTHER> --tp 8\n"))
    assert not provably_equal(first.args[1].value, other.args[1].value)
    assert not provably_different(first.args[1].value, other.args[1].value)


@pytest.mark.parametrize(
    "line",
    [
        # shell syntax, not placeholders: redirections, [[ ]], arrays, globs, ${}
        f"{LS} --tp 8 < input.txt > out.log",
        f"cat <in.txt >out.txt; {LS} --tp 8",
        f"sort <in.txt > out.txt; {LS} --tp 8",
        f"{LS} --tp 8 <in.txt 2>err.log >out.txt",
        f"[[ -n $X ]] && {LS} --tp 8",
        f'A=(--tp 8); {LS} "${{A[@]}}"',
        f"A[idx]=x; {LS} --tp 8 --served-model-name ${{A[idx]}}",
        f"declare -A R=([prefill]=8 [decode]=4); {LS} --tp ${{R[prefill]}}",
        f"{LS} --tp 8 --nodes gpu[0-7] --x [a-z]",
        f"M=m; {LS} --model-path ${{M}} --tp 8",
        f"{LS} --tp 8 --tool-call-parser [s]glang",
        f"{LS} --tp 8 2>&1 | tee log",
        f"cat <<EOF\n<b>\nEOF\n{LS} --tp 8",
    ],
)
def test_shell_syntax_is_not_a_placeholder(line):
    """What these lines give is what the shell source gives for them as a script."""
    script = line.replace("\\n", "\n") + "\n"
    (expected,) = analyze_shell("x.sh", script).servers
    assert argv(one(fence(script))) == argv(expected)


def test_a_placeholder_never_becomes_known_text():
    doc = fence(
        "H=<HOST>\n"
        "if [ -n \"$X\" ]; then TP=<TP>; else TP=8; fi\n"
        f"{LS} --host ${{H:0:3}} --tp $TP --model-path '<M>'/x --served-model-name pre-{{NAME}}-post "
        "--json-model-override-args '{\"a\": \"<A>\"}'\n"
    )
    result = analyze(doc)
    launch, eight = result.servers  # the variants where $X is set, and where it is not (issue 16)
    assert eight.args[eight.args.index(token(eight, "--tp")) + 1].value == Value.known("8")
    assert "{" not in str([v for v in argv(launch) if v.startswith("--")])
    for value in every_value(result):
        for text in texts_of(value):
            assert not any(ord(c) >= 0xF0000 for c in text), text
            assert "<HOST>" not in text and "<TP>" not in text and "<M>" not in text and "<A>" not in text
    assert token(launch, "--tp").value == Value.known("--tp")
    tp = launch.args[launch.args.index(token(launch, "--tp")) + 1].value
    assert tp.candidates() is None  # a placeholder: not known
    assert launch.args[1].value.candidates() is None  # a cut of a placeholder


def test_existing_private_use_characters_cannot_pose_as_placeholders():
    launch = one(fence(f"{LS} --model-path \U000f0000\U000f0003\U000f0001 --tp 8\n"))
    assert launch.args[1].value == Value.known("\ufffd\ufffd\ufffd")


def test_placeholders_make_no_finding_against_known_values():
    # A placeholder is never provably different: no SGL001 for <TP> vs 8 ...
    assert findings({P: pair_doc("--tp-size <TP>", "--tp-size 8")}) == []
    assert findings({P: pair_doc("--tp-size 8", "--tp-size [tp] --dp-size 8 --enable-dp-attention")}) == []
    # ... and the same placeholder on both sides is equal.
    assert findings({P: pair_doc("--tp-size <TP> --dp-size <TP> --enable-dp-attention", "--tp-size 8 --dp-size 8 --enable-dp-attention")}) == []
    # Known values still differ.
    doc = pair_doc("--tp-size 8", "--tp-size 8 --dp-size 8 --enable-dp-attention")
    assert [f[:3] for f in findings({P: doc})] == [("SGL001", P, 12)]


def test_placeholders_in_python_strings_and_yaml_scalars():
    doc = (
        "```python\n"
        "import subprocess\n"
        'subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "<MODEL>",\n'
        '                  "--served-model-name", "{name}".format(name="x")])\n'
        "```\n"
        "```yaml\n"
        "kind: Pod\n"
        "spec:\n"
        "  containers:\n"
        "  - command: [python3, -m, sglang.launch_server, --model-path, <MODEL>, --tp, '8']\n"
        "```\n"
    )
    python, yaml = servers(doc)
    assert python.args[1].value == Value.symbol("<MODEL>")
    assert python.args[3].value == Value.known("x")  # "{name}" is a format field, not a placeholder
    assert yaml.args[1].value == Value.symbol("<MODEL>")
    assert token(yaml, "<MODEL>").location == where(doc, 10, "<MODEL>")


# ---------------------------------------------------------------------------------
# Positions


def test_positions_are_markdown_lines_and_columns():
    doc = (
        "# Decode\n"
        "\n"
        "Café ☕ prose before the block.\n"
        "\n"
        "```bash\n"
        f"{LS} \\\n"
        "  --model-path é/ü \\\n"
        "  --tp-size 8 --port 30001\n"
        "```\n"
    )
    launch = one(doc)
    assert launch.location.line == 6 and launch.location.column == 1
    assert token(launch, "--tp-size").location == where(doc, 8, "--tp-size")
    assert token(launch, "8").location == where(doc, 8, "8")
    assert token(launch, "é/ü").location == where(doc, 7, "é/ü")
    assert launch.line_ranges == ((6, 8),)


def test_positions_in_list_items_sessions_and_quotes():
    doc = (
        "1. Decode:\n"
        "   ```console\n"
        f"   $ {LS} --tp 8 \\\n"
        "   >     --port 30001\n"
        "   ```\n"
        "> ```sh\n"
        f">     {LS} --tp 4\n"
        "> ```\n"
    )
    first, second = servers(doc)
    assert first.location == where(doc, 3, "python3")
    assert token(first, "8").location == where(doc, 3, "8")
    assert token(first, "30001").location == where(doc, 4, "30001")
    assert second.location == where(doc, 7, "python3")


def test_crlf_documents_keep_continuations_and_columns():
    doc = f"Title\r\n\r\n```bash\r\n{LS} \\\r\n  --tp 8\r\n```\r\n"
    launch = one(doc)
    assert argv(launch) == ["--tp", "8"]
    assert token(launch, "8").location == where(doc, 5, "8")


def test_finding_points_at_the_markdown_line():
    doc = pair_doc("--tp-size 8", "--tp-size 8 --dp-size 8 --enable-dp-attention")
    ((code, path, line, column),) = findings({P: doc})
    assert (code, path, line) == ("SGL001", P, 12)
    # tp is 8 on both sides: the decode's attention DP makes them differ.
    assert doc.split("\n")[line - 1][column - 1 :].startswith("--dp-size 8")


def test_notes_have_markdown_lines():
    doc = (
        "Intro\n\n"
        "```bash\n"
        "python -m sglang.launch_server --model 'unclosed\n"
        "```\n\n"
        "```python\n"
        "import subprocess\n"
        "subprocess.Popen(['python', '-m', 'sglang.launch_server',\n"
        "```\n\n"
        "```yaml\n"
        "command: [python, -m, sglang.launch_server,\n"
        "```\n"
    )
    notes = analyze(doc).notes
    assert [(n.line, n.message.split(":")[0].split(" (")[0]) for n in notes] == [
        (4, "shell syntax error"),
        (9, "Python syntax error"),
        (13, "YAML syntax error"),
    ]
    assert all(n.path == P for n in notes)


# ---------------------------------------------------------------------------------
# Suppression


def test_noqa_in_a_fence():
    doc = pair_doc("--tp-size 8", "--tp-size 8 --dp-size 8 --enable-dp-attention  # noqa: SGL001")
    assert findings({P: doc}) == []
    assert analyze(doc).comments == {12: "# noqa: SGL001"}
    # On another line of the decode's launch, split over lines.
    doc = pair_doc("--tp-size 8", "\\\n  --tp-size 8 --dp-size 8 --enable-dp-attention \\\n  --port 30001  # noqa: SGL001")
    assert findings({P: doc}) == []
    assert len(findings({P: doc}, ignore_noqa=True)) == 1


def test_noqa_in_console_python_and_yaml_blocks():
    prefill = fence(f"$ {LS} --disaggregation-mode prefill {UM} --tp 8 --port 30000\n", "console")
    decode_console = fence(f"$ {LS} --disaggregation-mode decode {UM} --tp 4 --port 30001  # noqa: SGL001\nok\n", "console")
    assert findings({P: prefill + decode_console}) == []
    decode_python = fence(
        "import subprocess\n"
        f'subprocess.Popen(["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "{UM}",\n'
        '                  "--tp", "4", "--port", "30001"])  # noqa: SGL001\n',
        "python",
    )
    assert findings({P: prefill + decode_python}) == []
    assert [f[0] for f in findings({P: prefill + decode_python.replace("  # noqa: SGL001", "")})] == ["SGL001"]
    decode_yaml = fence(
        "kind: Pod\nspec:\n  containers:\n"
        f"  - command: [python3, -m, sglang.launch_server, --disaggregation-mode, decode, {UM}, --tp, '4', --port, '30001']  # noqa: SGL001\n",
        "yaml",
    )
    assert findings({P: prefill + decode_yaml}) == []


def test_file_level_disable_directive_in_the_first_fence():
    doc = fence("# sglang-lint: disable=SGL001\n") + pair_doc("--tp-size 8", "--tp-size 4")
    assert findings({P: doc}) == []


# ---------------------------------------------------------------------------------
# Python and YAML blocks, one document


def test_python_block():
    doc = (
        "Start both from Python:\n\n"
        "```python\n"
        "import subprocess, sys\n"
        f'COMMON = [sys.executable, "-m", "sglang.launch_server", "{UM}"]\n'
        "```\n\n"
        "Then (names carry over between blocks):\n\n"
        "```py\n"
        'subprocess.Popen(COMMON + ["--disaggregation-mode", "prefill", "--tp", "8"])\n'
        'subprocess.Popen(COMMON + ["--disaggregation-mode", "decode", "--tp", "8", "--dp", "8", "--enable-dp-attention", "--port", "30001"])\n'
        "```\n"
    )
    prefill, decode = servers(doc)
    assert argv(prefill) == [UM, "--disaggregation-mode", "prefill", "--tp", "8"]
    assert token(decode, "--dp").location == where(doc, 12, '"--dp"')
    assert [f[:3] for f in findings({P: doc})] == [("SGL001", P, 12)]


def test_yaml_blocks_are_separate_documents():
    pod = (
        "kind: Pod\nmetadata:\n  name: {name}\nspec:\n  containers:\n"
        "  - name: sglang\n    command: [python3, -m, sglang.launch_server]\n"
        "    args: [--disaggregation-mode, {mode}, " + UM + ", --tp, '{tp}']\n"
    )
    doc = (
        "Prefill:\n\n" + fence(pod.format(name="p", mode="prefill", tp=8), "yaml")
        + "\nDecode:\n\n" + fence(pod.format(name="d", mode="decode", tp=4), "yml")
    )
    prefill, decode = servers(doc)
    assert argv(prefill)[-1] == "8"
    assert argv(decode)[-1] == "4"
    assert token(decode, "4").location == where(doc, 24, "'4'")
    assert [f[:3] for f in findings({P: doc})] == [("SGL001", P, 24)]


def test_all_blocks_of_a_document_are_one_result_and_one_deployment():
    doc = (
        "Prefill (shell):\n\n"
        + fence(f"{LS} --disaggregation-mode prefill {UM} --tp 8  # prefill\n")
        + "\nDecode (YAML):\n\n"
        + fence(
            "kind: Pod\nspec:\n  containers:\n"
            f"  - command: [python3, -m, sglang.launch_server, --disaggregation-mode, decode, {UM}, --tp, '2']  # noqa: SGL005 decode\n",
            "yaml",
        )
        + "\nRouter (Python):\n\n"
        + fence(
            "import subprocess\n"
            'subprocess.Popen(["python3", "-m", "sglang_router.launch_router", "--pd-disaggregation"])  # noqa: SGL010 router\n',
            "python",
        )
    )
    result = analyze(doc)
    assert result.path == P
    assert result.lines == doc.split("\n")
    assert [s.location.line for s in result.servers] == [4, 13]
    assert [r.location.line for r in result.routers] == [20]
    # (YAML and Python keep comments only when a directive can be among them)
    assert result.comments == {4: "# prefill", 13: "# noqa: SGL005 decode", 20: "# noqa: SGL010 router"}
    assert [f[:3] for f in findings({P: doc})] == [("SGL001", P, 13)]


def test_continuation_breaks_in_fences():
    doc = fence(f"{LS} --tp 8 \\\n  # the decode flags\n  --port 30001\n")
    ((comment, words),) = analyze(doc).continuation_breaks
    assert (comment.line, comment.column, words.line, words.column) == (3, 3, 4, 3)


def test_broken_continuations_in_fences_point_at_the_markdown_columns():
    """SGL207's facts: a block inside a list item is cut by three columns; the
    backslash, its trailing text and the orphaned words are on the document's
    lines and columns."""
    doc = "1. Decode:\n\n   ```bash\n   " + LS + " \\\n     --tp 8 \\\t\n     --port 30001\n   ```\n"
    result = analyze(doc)
    (broken,) = result.broken_continuations
    assert (broken.location.line, broken.location.column, broken.location.end_column) == (5, 13, 15)
    assert broken.trailing == "\t" and broken.extra == ("\t",)
    assert (broken.orphaned.line, broken.orphaned.column) == (6, 6)
    assert doc.split("\n")[4][broken.location.column - 1 :] == "\\\t"
    (launch,) = result.servers
    assert [t.value.describe() for t in launch.args] == ["--tp", "8"]


def test_a_session_stops_at_a_broken_continuation():
    """In a console block, a line after `\\ ` is output, as in a terminal: the
    command ran already."""
    doc = fence("$ " + LS + " --tp 8 \\ \n  --port 30001\n", "console")
    result = analyze(doc)
    (broken,) = result.broken_continuations
    assert broken.orphaned is None and broken.location.line == 2
    assert [[t.value.describe() for t in s.args] for s in result.servers] == [["--tp", "8"]]


# ---------------------------------------------------------------------------------
# One broken block does not spoil the others


def test_an_unclosed_quote_does_not_swallow_later_blocks():
    doc = fence("echo \"it's sglang.launch_server\n") + "\n" + fence(f"{LS} --tp 8\n") + "\n" + fence('echo "x sglang serve\n')
    result = analyze(doc)
    assert [argv(s) for s in result.servers] == [["--tp", "8"]]
    assert {n.line for n in result.notes} == {2, 10}


def test_a_broken_block_naming_no_entry_point_gets_no_note():
    """A benchmark's result fenced as `shell` (SGLang's cookbook, GLM-4.6V.md):
    bash would refuse `Mean E2E Latency (ms): 5349.20`, and its `Backend:
    sglang-oai-chat` names sglang, but no entry point: it launches nothing, and
    its lines were seven "tree-sitter-bash cannot parse" notes. A broken block
    that names one still gets its note."""
    output = (
        "============ Serving Benchmark Result ============\n"
        "Backend:                                 sglang-oai-chat\n"
        "Successful requests:                     128\n"
        "Mean E2E Latency (ms):                   5349.20\n"
        "Median TTFT (ms):                        1688.16\n"
    )
    doc = fence(f"{LS} --tp 8 --port 30000 &\n") + "\nResult:\n\n" + fence(output, "shell")
    result = analyze(doc)
    assert [argv(s) for s in result.servers] == [["--tp", "8", "--port", "30000"]]
    assert result.notes == []
    broken = fence(f"{LS} --tp 8 --served-model-name (m)\n")
    assert analyze(broken).notes


def test_variables_flow_between_good_shell_blocks():
    doc = fence("export TP=4\n") + "Then:\n" + fence("echo 'broken\n") + fence(f"{LS} --tp $TP\n")
    assert argv(one(doc)) == ["--tp", "4"]


def test_a_python_triple_quote_does_not_pair_across_blocks():
    doc = (
        fence("import subprocess  # runs sglang.launch_server\nDOC = '''\n", "python")
        + fence('import subprocess\nsubprocess.Popen(["python3", "-m", "sglang.launch_server", "--tp", "8"])\n', "python")
        + fence("'''\n", "python")
    )
    result = analyze(doc)
    assert [argv(s) for s in result.servers] == [["--tp", "8"]]
    # The first block's error is reported; the last one mentions no SGLang, and
    # Python blocks that cannot launch it are not the linter's business.
    assert [(n.line, n.message.split(":")[0]) for n in result.notes] == [(3, "Python syntax error")]


# ---------------------------------------------------------------------------------
# Hostile input


def test_random_text_never_raises():
    rng = random.Random(7)
    alphabet = "`~ \n\t\r>-*+1.)<>[]{}$#\\\"'!?abcé\x00\U000f0000"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(400)))
        result = analyze(text)
        assert result.lines == text.split("\n")
        assert not any("internal error" in n.message for n in result.notes)


def test_a_huge_number_of_fences_is_quick():
    doc = "".join(fence(f"{LS} --tp {i % 8}\n", ("bash", "python", "yaml", "text")[i % 4]) for i in range(8000))
    start = time.perf_counter()
    result = analyze(doc)
    assert time.perf_counter() - start < 30
    assert len(result.servers) == 2000
    start = time.perf_counter()
    # (broken blocks get notes when they name SGLang, a shell block an entry point;
    # those that do not are left out)
    broken = analyze(fence("echo 'sglang serve\n") * 3000 + fence("a: [sglang\n", "yaml") * 3000 + fence("sglang(\n", "python") * 3000)
    assert time.perf_counter() - start < 30
    start = time.perf_counter()
    quiet = analyze(fence("echo 'x\n") * 3000 + fence("a: [\n", "yaml") * 3000 + fence("f(\n", "python") * 3000)
    assert time.perf_counter() - start < 30
    assert quiet.notes == []
    assert any("more shell blocks with syntax errors" in n.message for n in broken.notes)
    assert any("more YAML blocks with syntax errors" in n.message for n in broken.notes)


@pytest.mark.parametrize(
    "text",
    [
        "```bash\n\x00" + LS + "\x00 --tp 8\n```\n```python\n\x00\n```\n```yaml\n\x00: [\n```\n",
        "```bash\n" * 20000,
        "- " * 50000 + "```bash\n" + LS + "\n",
        ">" * 50000 + " ```bash\n",
        "".join("  " * i + "- x\n" for i in range(2000)),
        "\ufeff```bash\n" + LS + " --tp 8\n```\n",
        "<!--\n" * 10000 + "```bash\n",
        "```bash\n" + "<A> " * 2000 + "\n```\n",
        "```python\n" + "(" * 5000 + "\n```\n",
        "```yaml\n" + "[" * 5000 + "\n```\n",
        "```bash\n" + "$(" * 3000 + "\n```\n",
        "\r" * 10000 + "```bash\r" + LS,
    ],
)
def test_hostile_documents(text):
    start = time.perf_counter()
    result = analyze(text)
    assert time.perf_counter() - start < 20
    assert result.lines == text.split("\n")
    assert not any("internal error" in n.message for n in result.notes)


def test_bom_before_the_first_fence():
    doc = "\ufeff```bash\n" + LS + " --tp 8\n```\n"
    assert argv(one(doc)) == ["--tp", "8"]


FRAGMENTS = [
    "```", "~~~", "````", "```bash", "```console", "```python", "```yaml", "```sh title=x", "```text",
    "\n", "\n\n", "   ", "    ", "\t", "> ", "- ", "1. ", "<!--", "-->", "<details>", "# Heading",
    LS, "python3 -m sglang_router.launch_router --pd-disaggregation", "--prefill http://<PREFILL_HOST>:30000",
    "--disaggregation-mode prefill", "--disaggregation-mode decode", UM, "--tp-size 8", "--dp-size 8",
    "--enable-dp-attention", "<TP>", "[tp]", "{TP}", "{{ TP }}", "$ ", ">>> ", "... ", "\\", "'", '"', "'''",
    "# noqa: SGL001", "import subprocess", 'subprocess.Popen(["python3", "-m", "sglang.launch_server"])',
    "kind: Pod", "containers:", "- command: [python3, -m, sglang.launch_server]", "é", "\x00", "\r\n",
]

documents = st.lists(st.sampled_from(FRAGMENTS), max_size=60).map("".join)


def _snapshot(result: SourceResult):
    return (
        [(s.location, s.entry, argv(s), s.line_ranges, s.context) for s in result.servers],
        [(r.location, argv(r)) for r in result.routers],
        result.notes,
        result.comments,
        result.continuation_breaks,
        result.lines,
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=documents)
def test_random_markdown_never_raises_and_is_deterministic(text):
    first = analyze(text)
    assert _snapshot(first) == _snapshot(analyze(text))
    assert first.lines == text.split("\n")
    assert not any("internal error" in n.message for n in first.notes)
    line_count = len(first.lines)
    for launch in [*first.servers, *first.routers]:
        assert 1 <= launch.location.line <= line_count
    for value in every_value(first):
        for literal in texts_of(value):
            assert not any(0xF0000 <= ord(c) <= 0xFFFFF for c in literal)
    findings({P: text})  # the whole pipeline too


def test_topology_shows_markdown_locations(capsys):
    """Issue 4: `sglang-lint topology` lists the runbook's servers and router at
    their lines in the Markdown file, grouped by the router."""
    from pathlib import Path

    from sglang_lint.cli import main

    runbook = Path(__file__).resolve().parent.parent / "fixtures" / "markdown-runbook"
    main(["topology", str(runbook)])
    out = capsys.readouterr().out
    assert "pd-runbook.md:" in out
    assert any(line.lstrip().startswith("prefill") and "pd-runbook.md:" in line for line in out.splitlines())
    assert any(line.lstrip().startswith("decode") and "pd-runbook.md:" in line for line in out.splitlines())


def test_a_placeholder_inside_a_word_is_shown_as_written():
    from sglang_lint.model import Value

    url = Value.concat([Value.known("http://"), Value.symbol("<PREFILL_HOST>"), Value.known(":30000")])
    assert url.describe() == "http://<PREFILL_HOST>:30000"


def test_launch_not_followed_in_a_fence_is_named_at_its_line():
    """Issue 16: a fence inherits the shell source's never-silent notes, at the
    document's lines; text that only shows a command gets none."""
    text = (
        "# PD runbook\n\n```bash\n"
        "launch() {\n"
        '  cmd=(python -m sglang.launch_server --tp-size 8 --disaggregation-mode "$1")\n'
        '  if [[ -n "$KV_DTYPE" ]]; then cmd+=(--kv-cache-dtype "$KV_DTYPE"); fi\n'
        '  "${cmd[@]}" &\n'
        "}\nlaunch prefill\nlaunch decode\n```\n\n"
        "```bash\n# python -m sglang.launch_server --help\necho \"python -m sglang.launch_server\"\n```\n"
    )
    result = analyze_markdown(P, text)
    # The array that differs between branches is followed as launch variants now.
    assert len(result.servers) == 4
    assert [(n.line, n.column, n.message) for n in result.notes] == []


# ---------------------------------------------------------------------------------
# Issue 18: console transcripts, and no syntax note for blocks that launch nothing


@pytest.mark.parametrize(
    "prompt",
    ["$ ", "user@node-0:~$ ", "root@node-0:/work# ", "[root@node-0 ~]# ", "[me@node-0 sglang]$ ", "(venv) $ ", "(base) me@node-0:~/pd$ "],
)
def test_transcript_prompts(prompt):
    doc = f"```bash\n{prompt}{LS} --tp 8 \\\n> --port 30000\n[2026-11-02 10:00:00] INFO ready (pid 42)\n```\n"
    launch = one(doc)
    assert argv(launch) == ["--tp", "8", "--port", "30000"]
    assert launch.location == where(doc, 2, "python3")
    assert token(launch, "30000").location == where(doc, 3, "30000")
    assert analyze(doc).notes == []


def test_a_transcript_without_a_launch_gives_no_syntax_note():
    """The issue's case: `[root@host]# kubectl get po` plus its output in a
    ```bash block; the output is ignored (bash would refuse `(5m ago)`)."""
    doc = (
        "```bash\n"
        "[root@node-0 ~]# kubectl get po -l app=sglang\n"
        "NAME              READY   STATUS    RESTARTS     AGE\n"
        "sglang-prefill-0  1/1     Running   1 (5m ago)   3d\n"
        "[root@node-0 ~]# kubectl logs sglang-prefill-0 | tail -1\n"
        "[2026-11-02 10:03:11] The server is fired up and ready to roll!\n"
        "```\n"
    )
    result = analyze(doc)
    assert result.servers == [] and result.notes == []


def test_a_transcript_command_bash_would_refuse_is_dropped_when_the_transcript_launches_nothing():
    # `$ 5.00 (list price)` is output that looks like a prompt: dropped, no note,
    # and the transcript's other commands still set what later blocks read.
    doc = "```console\n$ export TP=8\n$ 5.00 (list price)\n```\n\n" + fence(f"{LS} --tp $TP\n")
    result = analyze(doc)
    assert [argv(s) for s in result.servers] == [["--tp", "8"]]
    assert result.notes == []
    # Where the commands name SGLang, a broken one may be (or define) a launch:
    # it is kept, and said.
    broken = f"```console\n$ serve() {{ {LS} \"$@\"; }}\n$ serve --tp 8 --model 'unclosed\n```\n"
    assert [n.line for n in analyze(broken).notes] == [3]


@pytest.mark.parametrize(
    "block",
    [
        fence("for rate in 1 2 4; do\n  ... --request-rate $rate\n"),
        fence("def bench(:\n    ...\n", "python"),
        fence("apiVersion: v1\nkind: [Pod\n", "yaml"),
    ],
)
def test_a_broken_block_that_names_no_entry_point_gives_no_note(block):
    doc = fence(f"{LS} --tp 8\n") + "\n" + block
    result = analyze(doc)
    assert [argv(s) for s in result.servers] == [["--tp", "8"]]
    assert result.notes == []
    assert analyze(block).notes == []  # alone too


# ---------------------------------------------------------------------------------
# Issue 18: the section is the pairing scope


def sections_of(text: str):
    return [[(h.line, h.level, h.title) for h in s.section] for s in analyze(text).servers]


def test_headings_atx_setext_closing_hashes():
    from sglang_lint.sources.markdown import find_headings

    doc = (
        "Guide\n=====\n\n"  # setext 1
        "## NIXL ##\n\n"  # closing #s dropped
        "### C# #\n\n"  # a # after a blank closes; `C#` stays
        "Sub part\nof the title\n---\n\n"  # setext 2, two lines
        "#hashtag is text\n\n"
        "    # indented code\n\n"
        "```bash\n# a comment, not a heading\n```\n\n"
        "> # quoted\n\n"
        "- # in a list item\n\n"
        "<!--\n# in HTML\n-->\n\n"
        "#\n"
    )
    assert [(h.line, h.level, h.title) for h in find_headings(doc)] == [
        (1, 1, "Guide"),
        (4, 2, "NIXL"),
        (6, 3, "C#"),
        (8, 2, "Sub part of the title"),
        (28, 1, ""),
    ]


def test_front_matter_is_not_a_heading():
    from sglang_lint.sources.markdown import find_headings

    doc = "---\ntitle: PD guide\n---\n\n# PD\n"
    assert [(h.line, h.title) for h in find_headings(doc)] == [(5, "PD")]
    # TOML front matter, and a `---` that is never closed (a thematic break).
    assert [(h.line, h.title) for h in find_headings("+++\ntitle = 'x'\n+++\n# PD\n")] == [(4, "PD")]
    assert [(h.line, h.title) for h in find_headings("---\nTitle\n===\n")] == [(2, "Title")]
    # A `---` rule, then a code block, then another rule: no front matter, the block is read.
    doc = "---\n\n## Run\n\n" + fence(f"{LS} --tp 8\n") + "\n---\n"
    assert [(h.line, h.title) for h in find_headings(doc)] == [(3, "Run")]
    assert argv(one(doc)) == ["--tp", "8"]


def test_launches_carry_their_section_path():
    doc = (
        "# Guide\n\n"
        "## Mooncake\n\n### Prefill\n\n" + fence(f"{LS} --tp 8\n")
        + "\n## NIXL\n\n" + fence(f"{LS} --tp 4\n")
        + "\n# Appendix\n\n" + fence(f"{LS} --tp 2\n")
    )
    assert sections_of(doc) == [
        [(1, 1, "Guide"), (3, 2, "Mooncake"), (5, 3, "Prefill")],
        [(1, 1, "Guide"), (11, 2, "NIXL")],
        [(17, 1, "Appendix")],
    ]
    assert sections_of(fence(f"{LS} --tp 8\n") + "# Later\n") == [[]]


def test_a_launch_made_by_a_function_is_in_the_section_of_its_call():
    doc = (
        "## Helpers\n\n" + fence('serve() { python -m sglang.launch_server --disaggregation-mode "$1"; }\n')
        + "\n## Run\n\n" + fence("serve prefill\n")
    )
    assert [[title for _, _, title in s] for s in sections_of(doc)] == [["Run"]]


PD = f"{LS} --disaggregation-mode"


def section(title: str, body: str, level: int = 2) -> str:
    return "#" * level + f" {title}\n\n" + fence(body) + "\n"


def test_sibling_sections_do_not_pair():
    """SGLang's PD guide: Mooncake and NIXL setups on the same ports, with
    different models and backends, are alternatives: no SGL005/SGL006 across."""
    doc = "# PD\n\n" + section(
        "Mooncake",
        f"{PD} prefill --model-path m/llama --port 30000\n{PD} decode --model-path m/llama --port 30001\n",
    ) + section(
        "NIXL",
        f"{PD} prefill --model-path m/qwen --disaggregation-transfer-backend nixl --port 30000\n"
        f"{PD} decode --model-path m/qwen --disaggregation-transfer-backend nixl --port 30001\n",
    )
    assert findings({P: doc}) == []
    # A real mismatch inside one section is still found, and only that one.
    broken = doc.replace("m/qwen --disaggregation-transfer-backend nixl --port 30001", "m/qwen --port 30001")
    assert [f[:3] for f in findings({P: broken})] == [("SGL006", P, 14)]


def test_a_section_with_one_role_joins_its_parent():
    doc = (
        "# Deploy\n\n"
        + section("Prefill", f"{PD} prefill --model-path m/a\n", 2)
        + section("Decode (one node)", f"{PD} decode --model-path m/b\n", 2)
        + section("Decode (two nodes)", f"{PD} decode --model-path m/c\n", 2)
    )
    # Every section holds one role: all join the document, and both decodes pair.
    assert sorted(f[:3] for f in findings({P: doc})) == [("SGL005", P, 12), ("SGL005", P, 18)]


def test_nested_sections():
    """Each setup (level 2) has its steps in subsections of one role each; the
    NIXL setup has a variant subsection of its own with both roles."""
    doc = (
        "# PD\n\n## Mooncake\n\n"
        + section("Prefill", f"{PD} prefill --model-path m/a\n", 3)  # 8
        + section("Decode", f"{PD} decode --model-path m/a --page-size 16\n", 3)  # 14
        + "## NIXL\n\n"
        + section("Prefill", f"{PD} prefill --model-path m/b --disaggregation-transfer-backend nixl\n", 3)  # 22
        + section("Decode", f"{PD} decode --model-path m/b --disaggregation-transfer-backend nixl\n", 3)  # 28
        + "### Variant: DeepSeek\n\n"
        + fence(f"{PD} prefill --model-path m/c\n{PD} decode --model-path m/c\n")  # 34, 35
    )
    result = lint_texts({P: doc}, LintOptions())
    pairs = {(p.launch.location.line, d.launch.location.line) for d_ in result.deployments for p, d in d_.pairs()}
    # Mooncake's steps pair (page size mismatch found), NIXL's steps pair, the
    # DeepSeek variant pairs within itself only.
    assert pairs == {(8, 14), (22, 28), (34, 35)}
    assert [f[:3] for f in findings({P: doc})] == [("SGL003", P, 14)]


def test_servers_before_any_section_with_both_roles_pair_among_themselves():
    doc = (
        fence(f"{PD} prefill --model-path m/a\n{PD} decode --model-path m/a\n")  # 2, 3
        + "\n## Alternative\n\n"
        + fence(f"{PD} prefill --model-path m/b\n{PD} decode --model-path m/b\n")  # 9, 10
    )
    result = lint_texts({P: doc}, LintOptions())
    pairs = {(p.launch.location.line, d.launch.location.line) for d_ in result.deployments for p, d in d_.pairs()}
    assert pairs == {(2, 3), (9, 10)}


ROUTER = "python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001"


def test_router_by_port_matching_stays_within_its_section():
    doc = "# PD\n\n" + section(
        "Mooncake", f"{PD} prefill --model-path m/a --port 30000\n{PD} decode --model-path m/a --port 30001\n{ROUTER}\n"
    ) + section(
        "NIXL", f"{PD} prefill --model-path m/b --port 30000\n{PD} decode --model-path m/b --port 30001\n{ROUTER}\n"
    )
    result = lint_texts({P: doc}, LintOptions())
    routed = {
        d.routers[0].settings.launch.location.line: sorted(s.launch.location.line for s in d.servers)
        for d in result.deployments
        if d.how == "router"
    }
    assert routed == {8: [6, 7], 16: [14, 15]}
    assert findings({P: doc}) == []


def test_a_router_above_the_sections_names_servers_of_each_but_pairs_stay_within():
    doc = (
        "# PD\n\n"
        + section("Mooncake", f"{PD} prefill --model-path m/a --port 30000\n{PD} decode --model-path m/a --port 30001\n")
        + section("NIXL", f"{PD} prefill --model-path m/b --port 30000\n{PD} decode --model-path m/b --port 30001\n")
        + section("Router (either setup)", f"{ROUTER}\n")
    )
    result = lint_texts({P: doc}, LintOptions())
    (routed,) = [d for d in result.deployments if d.how == "router"]
    assert sorted(s.launch.location.line for s in routed.servers) == [6, 7, 13, 14]
    assert sorted((p.launch.location.line, d.launch.location.line) for p, d in routed.pairs()) == [(6, 7), (13, 14)]
    assert findings({P: doc}) == []


def test_messages_name_the_section():
    doc = "# PD\n\n" + section("Mooncake", f"{PD} prefill --model-path m/a\n{PD} decode --model-path m/a\n") + section(
        "NIXL", f"{PD} prefill --model-path m/b\n{PD} decode --model-path m/c\n"
    )
    (finding,) = lint_texts({P: doc}, LintOptions()).findings
    assert finding.code == "SGL005"
    assert any(f"{P}:14 in section 'NIXL' (line 10)" in note for note in finding.notes), finding.notes


def test_a_runbook_under_one_title_is_one_scope():
    # One pairing section (the title): labels stay those of a script.
    doc = "# Runbook\n\n" + section("Prefill", f"{PD} prefill --model-path m/a\n") + section("Decode", f"{PD} decode --model-path m/b\n")
    (finding,) = lint_texts({P: doc}, LintOptions()).findings
    assert finding.code == "SGL005"
    assert not any("in section" in note for note in finding.notes)


def test_a_pin_in_a_block_names_the_release_the_documents_launches_are_judged_by() -> None:
    """Issue 18: `pip install sglang==X` in a runbook's block is a version fact,
    at its place in the document (not lost when the block's result is merged)."""
    doc = (
        "# Setup\n\n```bash\npip install \"sglang[all]==0.5.9\"\n```\n\n"
        "```bash\npython -m sglang.launch_server --model-path m --disaggregation-mode prefill --port 30000\n"
        "python -m sglang.launch_server --model-path m --disaggregation-mode decode --port 30001\n```\n"
    )
    result = lint_texts({"guide.md": doc}, LintOptions())
    (hint,) = result.sources and analyze_markdown("guide.md", doc).version_hints
    assert (hint.release, hint.location.line, hint.location.path) == ("0.5.9", 4, "guide.md")
    servers = [s for d in result.deployments for s in d.servers]
    assert {s.settings.version for s in servers} == {"0.5.9"}


def test_an_elision_is_the_options_left_to_the_reader():
    """Issue 20: SGLang's own READMEs write `--flexkv-config-file x.yaml ...`;
    the `...` standing as a word is an elision, a value we cannot see, never an
    argument named "..." (SGL202 before). Inside a word it is text."""
    doc = fence(
        "python3 -m sglang.launch_server --enable-flexkv \\\n"
        "  --flexkv-config-file /path/to/flexkv_config.yaml ...\n"
        "python3 -m sglang.launch_server --model-path m …\n",
        "bash",
    )
    result = lint_texts({"README.md": doc}, LintOptions())
    assert [f.code for f in result.findings] == []
    assert len(analyze(doc).servers) == 2
    typo = lint_texts({"README.md": fence("python3 -m sglang.launch_server --model-path m --tp-szie...\n", "bash")}, LintOptions())
    assert [f.code for f in typo.findings] == ["SGL202"]


ALIAS_RUNBOOK = """\
# Serving on MI300X

1. Create a convenient alias.

```bash
alias drun='docker run -it --rm --network=host --privileged --device=/dev/kfd \\
    --ipc=host --shm-size 16G -v $HOME/dockerx:/dockerx'
```

2. Launch the server.

```bash
drun -p 30000:30000 \\
    sglang_image \\
    python3 -m sglang.launch_server \\
    --model-path deepseek-ai/DeepSeek-V3 \\
    --tp 8 --tp-szie 8 \\
    --port 30000
```
"""


def test_an_alias_a_runbook_defines_is_expanded_in_its_later_blocks() -> None:
    """A runbook's reader types its blocks into an interactive shell, which
    expands aliases: SGLang's AMD guide defines `alias drun='docker run ...'`
    and launches every server with `drun ... sglang_image python3 -m
    sglang.launch_server ...` (5 launches a note called not analyzed)."""
    result = analyze_markdown("amd.md", ALIAS_RUNBOOK)
    assert result.notes == []
    (server,) = result.servers
    assert [token.value.describe() for token in server.args] == ["--model-path", "deepseek-ai/DeepSeek-V3", "--tp", "8", "--tp-szie", "8", "--port", "30000"]
    assert (server.args[4].location.line, server.args[4].location.column) == (17, 12)
    (typo,) = lint_texts({"amd.md": ALIAS_RUNBOOK}).findings
    assert (typo.code, typo.location.line, typo.location.column) == ("SGL202", 17, 12)


def test_an_alias_is_not_expanded_in_a_script_unless_it_turns_that_on() -> None:
    """bash expands aliases in an interactive shell only (or after `shopt -s
    expand_aliases`): in a script the line looks for a program named drun, and
    no server starts."""
    script = "alias drun='docker run -it --rm --network=host'\ndrun sglang_image python3 -m sglang.launch_server --model-path m\n"
    result = analyze_shell("run.sh", script)
    assert result.servers == []
    (note,) = result.notes
    assert note.line == 2 and "`drun` is an alias, which bash does not expand in a script" in note.message
    turned_on = analyze_shell("run.sh", "shopt -s expand_aliases\n" + script)
    assert [token.value.text for token in turned_on.servers[0].args] == ["--model-path", "m"] and turned_on.notes == []
    unaliased = analyze_shell("run.sh", script.replace("\ndrun", "\nunalias drun\ndrun"), interactive=True)
    assert unaliased.servers == []


def test_an_alias_named_after_its_own_command_is_expanded_once() -> None:
    """`alias python3='python3 -u'`: bash does not expand the alias again in
    its own value (no endless expansion)."""
    text = "alias python3='python3 -u'\npython3 -m sglang.launch_server --model-path m --tp 2\n"
    (server,) = analyze_shell("run.sh", text, interactive=True).servers
    assert [token.value.text for token in server.args] == ["--model-path", "m", "--tp", "2"]


PYTHON_UNDER_A_SHELL_FENCE = """\
import os
from sglang.utils import launch_server_cmd

gpu_count = int(os.environ.get("GPUS", "4"))
if gpu_count == 4:
    cmd = (
        f"python -m sglang.launch_server "
        f"--model-path /models/step "
        f"--tp-size 4"
    )
else:
    raise RuntimeError(f"need 4 GPUs, found {gpu_count}")
server_process, port = launch_server_cmd(cmd, port=8000)
"""


def test_a_python_program_fenced_as_shell_is_read_as_python():
    """A guide's `start_server.py` under ```bash: every line was "tree-sitter-bash
    cannot parse" and the launch was lost. bash cannot parse it, Python can,
    and `if ...:` is a line only Python writes: it is read as Python."""
    result = analyze(fence(PYTHON_UNDER_A_SHELL_FENCE, "bash"))
    assert result.notes == []
    (launch,) = result.servers
    assert argv(launch)[-4:] == ["--tp-size", "4", "--port", "8000"]


@pytest.mark.parametrize(
    "body",
    [
        # shell that Python also parses, or Python-looking shell: still shell
        f"{LS} --tp 2\n",
        f'if [ -n "$X" ]; then\n  {LS} --tp 2\nfi\n',
        f"import_data() {{ :; }}\n{LS} --tp 2\n",
    ],
)
def test_a_shell_block_stays_shell(body):
    (launch,) = analyze(fence(body, "bash")).servers
    (expected,) = analyze_shell("x.sh", body).servers
    assert argv(launch) == argv(expected)
