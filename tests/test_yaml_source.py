"""The YAML source: Kubernetes containers and compose services, positions, $(VAR),
sh -c block scalars, templates and hostile YAML."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from sglang_lint.model import Kind, Value
from sglang_lint.pipeline import LintOptions, lint_texts
from sglang_lint.sources.yaml_manifest import analyze_yaml


def _servers(text: str, path: str = "deploy.yaml"):
    result = lint_texts({path: textwrap.dedent(text)}, LintOptions())
    return [s for d in result.deployments for s in d.servers], result


def _value(server, dest: str) -> str:
    return server.setting(dest).value.describe()


POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: decode
spec:
  containers:
    - name: sglang
      image: lmsysorg/sglang:v0.5.23
      env:
        - name: TP
          value: "4"
        - name: POD_IP
          valueFrom:
            fieldRef:
              fieldPath: status.podIP
      command:
        - python3
        - -m
        - sglang.launch_server
      args: ["--disaggregation-mode", "decode", "--tp-size", "$(TP)", "--host", "$(POD_IP)", "--port", 30001, "--x", "$$(TP)"]
"""


def test_pod_command_args_env_expansion_and_positions():
    (server,), _ = _servers(POD)
    assert (server.role, _value(server, "tp_size"), _value(server, "port")) == ("decode", "4", "30001")
    host = server.setting("host").value
    assert host.kind is Kind.SYMBOL and host.name == "$(POD_IP)"
    tp = server.setting("tp_size")
    # the option is on line 20; its value's text was written in env (line 11)
    assert (tp.location.line, tp.origin.line) == (20, 11)
    assert server.launch.location.line == 17


@pytest.mark.parametrize(
    "wrapper",
    [
        "kind: Deployment\nspec:\n  template:\n    spec:\n      containers: CONTAINERS\n",
        "kind: StatefulSet\nspec:\n  template:\n    spec:\n      initContainers: CONTAINERS\n",
        "kind: LeaderWorkerSet\nspec:\n  leaderWorkerTemplate:\n    leaderTemplate:\n      spec:\n        containers: CONTAINERS\n"
        "    workerTemplate:\n      spec:\n        containers: CONTAINERS\n",
        "kind: RoleBasedGroup\nspec:\n  roles:\n    - name: decode\n      template:\n        spec:\n          containers: CONTAINERS\n",
        "kind: Job\nspec:\n  template:\n    spec:\n      containers: CONTAINERS\n",
        "kind: MyCustomServing\nspec:\n  deep:\n    deeper:\n      podTemplate:\n        spec:\n          containers: CONTAINERS\n",
    ],
)
def test_containers_anywhere(wrapper):
    containers = '[{name: s, command: ["python3", "-m", "sglang.launch_server", "--tp", "2"]}]'
    servers, _ = _servers(wrapper.replace("CONTAINERS", containers))
    assert servers and all(_value(s, "tp_size") == "2" for s in servers)


def test_sh_c_block_scalar_is_a_script_with_yaml_positions():
    servers, _ = _servers(
        """\
        kind: Pod
        spec:
          containers:
            - name: decode
              env: [{name: DP, value: "8"}]
              command: ["/bin/bash", "-c"]
              args:
                - |
                  set -e
                  python3 -m sglang.launch_server \\
                    --disaggregation-mode decode \\
                    --tp-size 8 --dp-size "$DP" --enable-dp-attention
        """
    )
    (server,) = servers
    assert server.attn_tp.value.describe() == "1"
    tp = server.setting("tp_size").location
    assert (tp.line, tp.column) == (12, 13)
    assert server.setting("dp_size").origin.line == 5


@pytest.mark.parametrize("style", [">-", ">"])
def test_folded_block_scalar(style):
    servers, _ = _servers(
        f"""\
        kind: Pod
        spec:
          containers:
            - name: prefill
              command: ["sh", "-c"]
              args:
                - {style}
                  python3 -m sglang.launch_server
                  --disaggregation-mode prefill
                  --tp-size 4
        """
    )
    (server,) = servers
    assert _value(server, "tp_size") == "4"
    assert server.setting("tp_size").location.line == 10


def test_compose_command_list_and_string():
    servers, _ = _servers(
        """\
        services:
          prefill:
            image: lmsysorg/sglang
            command: python3 -m sglang.launch_server --disaggregation-mode prefill --tp-size 8 --port 30000
          decode:
            image: lmsysorg/sglang
            entrypoint: ["python3", "-m", "sglang.launch_server"]
            command: ["--disaggregation-mode", "decode", "--tp-size", "4", "--port", "30001"]
        """,
        path="docker-compose.yml",
    )
    assert sorted((s.role, _value(s, "tp_size")) for s in servers) == [("decode", "4"), ("prefill", "8")]
    prefill = next(s for s in servers if s.role == "prefill")
    assert prefill.setting("tp_size").location.line == 4


COMPOSE_INTERPOLATED = """\
services:
  decode:
    image: ${IMAGE:-lmsysorg/sglang:v0.5.19-cu129}
    entrypoint: ["python3", "-m", "sglang.launch_server"]
    command:
      - --port
      - "${PORT:-30001}"
      - --tp-size
      - ${TP-4}
      - --context-length
      - "${CTX:?set CTX}"
      - --max-running-requests
      - $MAX_RUNNING
      - --served-model-name
      - "qwen$$prod"
      - --page-size
      - "${PAGE:-${DEFAULT_PAGE}}"
      - --chunked-prefill-size
      - "${CHUNK:+8192}"
      - --api-key
      - "${unclosed"
"""


def test_compose_interpolates_command_words_as_compose_does():
    """compose-spec interpolation.md: `${X:-d}` and `${X-d}` are X or d, `${X:?m}`
    and `$X` are X, `$$` is `$`; a default that interpolates again is a
    value we cannot see, `${X:+w}` is w or nothing, an unclosed `${` stays
    text (compose refuses the file). The image's default names the release."""
    (server,), _ = _servers(COMPOSE_INTERPOLATED, path="docker-compose.yml")
    shown = {name: server.setting(name).value for name in ("port", "tp_size", "context_length", "max_running_requests", "served_model_name", "page_size", "chunked_prefill_size", "api_key")}
    assert shown["port"] == Value.symbol("$PORT", "30001")
    assert shown["tp_size"] == Value.symbol("$TP", "4")
    assert shown["context_length"] == Value.symbol("$CTX")
    assert shown["max_running_requests"] == Value.symbol("$MAX_RUNNING")
    assert shown["served_model_name"] == Value.known("qwen$prod")
    assert shown["page_size"].kind is Kind.UNKNOWN
    assert shown["chunked_prefill_size"].candidates() == {"", "8192"}
    assert shown["api_key"] == Value.known("${unclosed")
    assert server.judged.version == "0.5.19"
    # (the option to the end of its interpolated value)
    port = server.setting("port").location
    assert (port.line, port.column, port.end_line, port.end_column) == (6, 9, 7, 24)


def test_compose_interpolation_in_a_command_string():
    """In a `command` string compose interpolates, then splits: `${EXTRA}` alone
    may be several words or none, never an unrecognized argument; a word with
    blanks (a `sh -c` script) is the shell source's to read."""
    servers, _ = _servers(
        """\
        services:
          prefill:
            image: lmsysorg/sglang:v0.5.23
            command: python3 -m sglang.launch_server --port ${PORT:-30000} --tp-size ${TP:-8} ${EXTRA_ARGS}
          decode:
            image: lmsysorg/sglang:v0.5.23
            command: ["bash", "-c", "python3 -m sglang.launch_server --port ${PORT:-30001} --tp-size $${TP:-4}"]
        """,
        path="docker-compose.yml",
    )
    prefill = next(s for s in servers if s.role == "null" and _value(s, "port").startswith("$PORT") and "30000" in _value(s, "port"))
    assert _value(prefill, "tp_size") == "$TP (default 8)"
    result = lint_texts({"docker-compose.yml": textwrap.dedent('''\
        services:
          prefill:
            image: lmsysorg/sglang:v0.5.23
            command: python3 -m sglang.launch_server --port ${PORT:-30000} ${EXTRA_ARGS}
        ''')}, LintOptions())
    assert [f.code for f in result.findings] == []


def test_a_command_string_is_interpolated_before_it_is_split():
    """`${PARSER:+--reasoning-parser ${PARSER}}` (a public compose file): compose
    interpolates the whole string, then splits it, so the expression is one
    piece, not the words `${PARSER:+--reasoning-parser` and `${PARSER}}` (an
    "unrecognized argument" that was never one). The image's tag default names
    the release."""
    text = textwrap.dedent("""\
        services:
          sglang:
            image: lmsysorg/sglang:${SGLANG_VERSION:-v0.5.6.post2}
            command: >
              python3 -m sglang.launch_server
              --model-path ${MODEL_PATH:-Qwen/Qwen3-VL-4B-Instruct}
              --context-length ${CONTEXT_LENGTH:-8192}
              ${REASONING_PARSER:+--reasoning-parser ${REASONING_PARSER}}
              --chat-template "${TEMPLATE:-chat ml}"
        """)
    (server,), result = _servers(text, path="docker-compose.yml")
    assert result.findings == []
    # (a quoted default with a blank is one word; the alternative's words we
    # do not read: what comes before it may be overridden, what comes after not)
    assert _value(server, "chat_template") == "$TEMPLATE (default chat ml)"
    assert _value(server, "context_length").startswith("<unknown: may be overridden")
    assert server.judged.version == "0.5.6"
    words = [token.value.describe() for token in server.launch.args]
    assert "${REASONING_PARSER:+--reasoning-parser" not in words and "${REASONING_PARSER}}" not in words


ENVSUBST_JOB = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: ${JOB_NAME}
spec:
  template:
    spec:
      containers:
        - name: ${JOB_NAME}
          image: ${WORKER_IMAGE}
          command: ["python3", "-m", "sglang.launch_server"]
          args:
            - --model-path
            - "${MODEL}"
            - --port
            - "${WORKER_PORT}"
            - --tp
            - "2"
"""


def test_an_envsubst_template_s_placeholders_are_values_we_cannot_see():
    """A CI's Job named `${JOB_NAME}` is rendered by envsubst before it is
    applied (a public repository's): `--port "${WORKER_PORT}"` is the port
    envsubst puts there, not an invalid int. Where no such sign says so, the
    kubelet passes `${...}` as written, and that is what SGLang gets."""
    (server,), result = _servers(ENVSUBST_JOB)
    assert [f.code for f in result.findings] == ["SGL900"]
    assert "'${MODEL}'" in result.findings[0].message
    assert _value(server, "tp_size") == "2"
    literal = ENVSUBST_JOB.replace("name: ${JOB_NAME}\nspec", "name: sglang-ci\nspec")
    _, result = _servers(literal)
    assert [(f.code, f.message) for f in result.findings] == [("SGL203", "argument --port: invalid int value: '${WORKER_PORT}'")]


def test_container_without_command_uses_the_image_entrypoint_and_is_not_read():
    servers, _ = _servers("kind: Pod\nspec:\n  containers:\n    - name: s\n      args: [--tp, '2']\n")
    assert servers == []


def test_two_documents_pair_and_noqa_on_a_yaml_line():
    prefill = 'kind: Pod\nspec:\n  containers:\n    - command: ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--enable-unified-memory", "--tp", "8"]\n'
    decode = 'kind: Pod\nspec:\n  containers:\n    - command: ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "--enable-unified-memory", "--tp", "4", "--port", "1"]\n'
    _, result = _servers(prefill + "---\n" + decode)
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL001", 9)]
    _, silenced = _servers(prefill + "---\n" + decode.replace('"1"]\n', '"1"]  # noqa: SGL001\n'))
    assert silenced.findings == []


BLOCK_ARGS_DECODE = """\
kind: Pod
spec:
  containers:
    - name: decode
      command:
        - python3
        - -m
        - sglang.launch_server
      args:
        - --disaggregation-mode
        - decode
        - --enable-unified-memory
        - --tp
        - "4"
        - --port
        - "1"
      image: lmsysorg/sglang:v0.5.23
"""


@pytest.mark.parametrize("code", ["SGL001", "SGL001, SGL005", "sgl001"])
def test_noqa_on_any_item_of_a_block_args_list_silences(code):
    """Issue 23 part 6: `# noqa` on any line of a Kubernetes launch (the command:
    and args: keys, every item of either list) silences its findings; before,
    only the command list's lines did, and an args item only when the finding
    was on that very line."""
    prefill = 'kind: Pod\nspec:\n  containers:\n    - command: ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--enable-unified-memory", "--tp", "8"]\n'
    _, result = _servers(prefill + "---\n" + BLOCK_ARGS_DECODE)
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL001", 18)]
    lines = BLOCK_ARGS_DECODE.split("\n")
    launch_lines = range(lines.index("      command:"), lines.index("        - \"1\""))
    for index in launch_lines:
        edited = "\n".join(lines[:index] + [lines[index] + f"  # noqa: {code}"] + lines[index + 1 :])
        _, silenced = _servers(prefill + "---\n" + edited)
        assert silenced.findings == [], lines[index]
    # the container's other fields are not the launch
    for index in (lines.index("    - name: decode"), lines.index("      image: lmsysorg/sglang:v0.5.23")):
        edited = "\n".join(lines[:index] + [lines[index] + f"  # noqa: {code}"] + lines[index + 1 :])
        _, kept = _servers(prefill + "---\n" + edited)
        assert [f.code for f in kept.findings if f.code != "SGL902"] == ["SGL001"], lines[index]


def test_noqa_on_a_compose_command_list_item_silences():
    text = (
        "services:\n"
        "  prefill:\n"
        "    command: python3 -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8\n"
        "  decode:\n"
        "    entrypoint: [python3, -m, sglang.launch_server]\n"
        "    command:\n"
        "      - --disaggregation-mode\n"
        "      - decode\n"
        "      - --enable-unified-memory\n"
        "      - --tp\n"
        "      - '4'\n"
        "      - --port\n"
        "      - '30001'  # noqa: SGL001\n"
    )
    _, result = _servers(text, "docker-compose.yml")
    assert result.findings == []
    _, result = _servers(text.replace("  # noqa: SGL001", ""), "docker-compose.yml")
    assert [f.code for f in result.findings] == ["SGL001"]


def test_hash_in_a_block_scalar_is_not_a_comment():
    result = analyze_yaml("p.yaml", "a: |\n  # noqa: SGL001\nb: 1  # noqa: SGL002\nc: 'x # y'\n")
    assert result.comments == {3: "# noqa: SGL002"}


def test_comments_are_scanned_only_where_a_directive_can_be():
    """Only suppression directives are wanted from YAML comments: a file that
    spells neither noqa nor sglang-lint skips the token scan (issue 7)."""
    assert analyze_yaml("p.yaml", "a: 1  # plain comment\n").comments == {}
    assert analyze_yaml("p.yaml", "a: 1  # NOQA: SGL001\n").comments == {1: "# NOQA: SGL001"}
    assert analyze_yaml("p.yaml", "# sglang-lint: disable=SGL001\na: 1\n").comments == {1: "# sglang-lint: disable=SGL001"}


def test_libyaml_and_python_parsers_agree_on_every_fixture():
    """The source reads with libyaml when PyYAML has it; its nodes and marks must
    be the pure-Python parser's (plain style '' vs None aside)."""
    import yaml
    from yaml.nodes import MappingNode, SequenceNode

    if not getattr(yaml, "__with_libyaml__", False):
        pytest.skip("PyYAML without libyaml: only the Python parser is used")

    def nodes(text, loader):
        out = []

        def walk(node):
            out.append((type(node).__name__, node.tag, getattr(node, "style", None) or None, node.start_mark.index,
                        node.start_mark.line, node.start_mark.column, node.end_mark.index, node.end_mark.line,
                        node.end_mark.column, node.value if isinstance(node.value, str) else None))
            if isinstance(node, MappingNode):
                for key, value in node.value:
                    walk(key)
                    walk(value)
            elif isinstance(node, SequenceNode):
                for value in node.value:
                    walk(value)

        for document in yaml.compose_all(text, Loader=loader):
            if document is not None:
                walk(document)
        return out

    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    texts = [p.read_text(encoding="utf-8") for p in sorted(fixtures.rglob("*.y*ml"))]
    texts += ["a: é\nb: [x, 'ü', \"日本\"]\nc: |\n  héllo\n  日本語\n", "a: 😀b\nc: [😀, d]\n", "x: 'a\n  b'\n", "a: b\r\nc: d\r\n"]
    for text in texts:
        assert nodes(text, yaml.CSafeLoader) == nodes(text, yaml.SafeLoader)


@pytest.mark.parametrize(
    "text, message",
    [
        ("spec:\n  containers:\n    - command: {{ .Values.command }}\n", "template"),
        ("spec:\n  containers:\n    - image: {{ .Values.image }}\n      command: [python3]\n", "template"),
        ("{{- if .Values.enabled }}\nkind: Pod\nspec:\n  containers:\n    - command: [python3]\n{{- end }}\n", "template"),
        ("{% if x %}\nkind: Pod\nspec:\n  containers:\n    - args: [--tp, '8']\n{% endif %}\n", "template"),
        ("kind: Pod\nspec: [\n", "YAML syntax error"),
        ("a: &a [1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
         "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
         "f: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n", None),
        ("a: " + "[" * 3000 + "]" * 3000 + "\n", "deep"),
        ("\x00\x01", "YAML"),
        ("- !!python/object/apply:os.system ['echo hi']\n", None),
    ],
)
def test_hostile_yaml_gives_a_note_or_nothing_never_an_exception(text, message):
    result = analyze_yaml("bad.yaml", text)
    assert result.servers == []
    if message is not None:
        assert any(message in note.message for note in result.notes), result.notes


def test_go_template_text_inside_a_value_is_not_a_template():
    """A file that parses is analyzed; the `{{ }}` text is a value we cannot see
    (issue 23: a symbol, with the one placeholder note), never a skipped file."""
    servers, result = _servers(
        'kind: Pod\nspec:\n  containers:\n    - command: ["python3", "-m", "sglang.launch_server", "--tp", "2", "--served-model-name", "{{.Name}}"]\n'
    )
    assert len(servers) == 1
    assert [f.code for f in result.findings] == ["SGL900"] and "placeholders" in result.findings[0].message
    name = servers[0].setting("served_model_name").value
    assert name.kind is Kind.SYMBOL and name.name == "{{ .Name }}"


# ---------------------------------------------------------------------------------
# Template placeholders (issue 23): values we cannot see, never literals

HELM_POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: "{{ .Release.Name }}-decode"
spec:
  containers:
    - name: sglang
      image: "lmsysorg/sglang:{{ .Values.image.tag }}"
      env:
        - name: DP
          value: {{ .Values.decode.dp }}
      command: ["python3", "-m", "sglang.launch_server"]
      args:
        - --disaggregation-mode
        - decode
        - --tp-size
        - "{{ .Values.decode.tp }}"
        - --dp-size
        - $(DP)
        - --page-size
        - {{ .Values.pageSize | quote }}
        - --port={{- .Values.decode.port -}}
        - --model-path
        - "${{ matrix.model }}"
        - --kv-cache-dtype
        - "{kv_dtype}"
"""


def test_template_placeholders_are_symbols_never_literals():
    result = analyze_yaml("decode.yaml", HELM_POD)
    (launch,) = result.servers
    words = {a.describe(): a for a in launch.args}
    tp = words["{{ .Values.decode.tp }}"]
    assert tp.value == Value.symbol("{{ .Values.decode.tp }}")
    # the placeholder's own span (inside the quotes), not the whole scalar
    assert (tp.location.line, tp.location.column, tp.location.end_column) == (17, 12, 35)
    # unquoted: YAML reads a nested flow mapping; the symbol is its text
    assert words["{{ .Values.pageSize | quote }}"].value.kind is Kind.SYMBOL
    # in the env, through $(DP)
    assert Value.symbol("{{ .Values.decode.dp }}") in [a.value for a in launch.args]
    # inside a longer word, trim markers dropped; GitHub Actions; a bare {name}
    assert words["--port={{ .Values.decode.port }}"].value.kind is Kind.CONCAT
    assert words["${{ matrix.model }}"].value == Value.symbol("${{ matrix.model }}")
    assert words["{kv_dtype}"].value == Value.symbol("{kv_dtype}")
    # one note for the file, at the first placeholder read as a value (the
    # metadata name and the image are not read)
    (note,) = result.notes
    assert "placeholders" in note.message and "rendered manifest" in note.message
    assert (note.line, note.column) == (11, 18)


def test_template_placeholders_give_no_invalid_value():
    """The reported bug: `--tp-size "{{ .Values.tp }}"` was SGL203 'invalid int value'."""
    _, result = _servers(HELM_POD)
    assert [f.code for f in result.findings] == ["SGL900"]


def test_same_placeholder_is_equal_and_an_unknown_never_differs(tmp_path):
    prefill = HELM_POD.replace("decode", "prefill").replace("- --port={{- .Values.prefill.port -}}", "- --port=30000")
    # the same placeholder on both sides: equal, whatever it renders to
    result = lint_texts({"prefill.yaml": prefill.replace("{{ .Values.prefill.tp }}", "{{ .Values.tp }}").replace("- prefill", "- prefill\n        - --enable-unified-memory"),
                         "decode.yaml": HELM_POD.replace("{{ .Values.decode.tp }}", "{{ .Values.tp }}").replace("- decode", "- decode\n        - --enable-unified-memory")}, LintOptions())
    assert sorted(f.code for f in result.findings) == ["SGL900", "SGL900"]
    # `{{ .Values.decode.tp }}` against a literal 8: unknown stays unknown, no SGL001
    literal = prefill.replace('"{{ .Values.prefill.tp }}"', '"8"').replace("- prefill", "- prefill\n        - --enable-unified-memory")
    decode = HELM_POD.replace("- decode", "- decode\n        - --enable-unified-memory")
    result = lint_texts({"prefill.yaml": literal, "decode.yaml": decode}, LintOptions())
    assert sorted(f.code for f in result.findings) == ["SGL900", "SGL900"]
    # while two literals that differ do make one (the pair is read at all)
    result = lint_texts({"prefill.yaml": literal, "decode.yaml": decode.replace('"{{ .Values.decode.tp }}"', '"4"')}, LintOptions())
    assert "SGL001" in [f.code for f in result.findings]


def test_placeholder_in_a_sh_c_script_is_a_symbol():
    text = textwrap.dedent(
        """\
        kind: Pod
        spec:
          containers:
            - command: ["sh", "-c"]
              args:
                - |
                  python3 -m sglang.launch_server \\
                    --tp-size "{{ .Values.tp }}" --port 30000
        """
    )
    result = analyze_yaml("p.yaml", text)
    (launch,) = result.servers
    assert [a.describe() for a in launch.args] == ["--tp-size", "{{ .Values.tp }}", "--port", "30000"]
    assert launch.args[1].value == Value.symbol("{{ .Values.tp }}")
    assert len(result.notes) == 1


def test_placeholders_in_compose_commands():
    text = 'services:\n  decode:\n    command: python3 -m sglang.launch_server --tp-size {{ .Values.tp }} --port 30001\n'
    result = analyze_yaml("docker-compose.yml", text)
    (launch,) = result.servers
    assert [a.describe() for a in launch.args] == ["--tp-size", "{{ .Values.tp }}", "--port", "30001"]
    assert len(result.notes) == 1


def test_no_placeholder_no_note_and_json_is_no_placeholder():
    text = 'kind: Pod\nspec:\n  containers:\n    - command: ["python3", "-m", "sglang.launch_server", "--json-model-override-args", \'{"a": "{b"}\', "--x", "${X}"]\n'
    result = analyze_yaml("p.yaml", text)
    assert result.notes == []
    assert [a.value.kind for a in result.servers[0].args] == [Kind.KNOWN] * 4


def test_template_that_does_not_parse_is_still_skipped():
    text = "kind: Pod\nspec:\n  containers:\n    - command: [python3, -m, sglang.launch_server, --tp, {{- .Values.tp -}}]\n"
    result = analyze_yaml("p.yaml", text)
    assert result.servers == []
    (note,) = result.notes
    assert "not analyzed" in note.message and "template" in note.message


def test_alias_bomb_memory_stays_bounded():
    """Nine levels of nine aliases expand to 9**9 items; composed nodes are shared,
    and every node is visited once."""
    import tracemalloc

    lines = ["a0: &a0 [x]"]
    for level in range(1, 10):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    lines.append("spec:\n  containers:\n    - command: *a9")
    tracemalloc.start()
    try:
        result = analyze_yaml("bomb.yaml", "\n".join(lines) + "\n")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.servers == []
    assert peak < 20 * 1024 * 1024


def test_topology_shows_yaml_locations(tmp_path, capsys):
    from sglang_lint.cli import main

    (tmp_path / "pd.yaml").write_text(
        'kind: Pod\nspec:\n  containers:\n    - command: ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill", "--tp", "8"]\n'
        "---\n"
        'kind: Pod\nspec:\n  containers:\n    - command: ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "decode", "--tp", "4"]\n',
        encoding="utf-8",
    )
    main(["topology", str(tmp_path)])
    out = capsys.readouterr().out
    assert f"prefill  {tmp_path}/pd.yaml:4" in out and f"decode   {tmp_path}/pd.yaml:9" in out


def test_nesting_past_the_walk_limit_is_noted_whatever_libyaml_allows() -> None:
    """`- - - ...` on one line nests without brackets or indentation, so the text
    scan does not see it; libyaml >= 0.2.5 stops at 1,000 levels (a syntax
    error), older ones compose it. Between 200 and 1,000 levels (and beyond, with
    an older libyaml) the walk stops at 200 and says so."""
    from sglang_lint.sources.yaml_manifest import MAX_DEPTH, analyze_yaml

    text = "kind: Pod\nspec:\n  x:\n    " + "- " * (MAX_DEPTH + 50) + "v\n"
    result = analyze_yaml("deep.yaml", text)
    (note,) = result.notes
    assert f"nested deeper than {MAX_DEPTH} levels" in note.message and note.line == 4


def _container_script(branch: str) -> str:
    """A Pod whose container runs a `bash -c` script: a launch string, a line
    ``branch`` that changes it, and the string run."""
    return textwrap.dedent(
        """\
        apiVersion: v1
        kind: Pod
        metadata:
          name: decode
        spec:
          containers:
            - name: sglang
              image: lmsysorg/sglang:v0.5.23
              command: ["/bin/bash", "-c"]
              args:
                - |
                  CMD="python3 -m sglang.launch_server --disaggregation-mode decode --tp-size 8"
                  BRANCH
                  exec $CMD
        """
    ).replace("BRANCH", branch)


def test_launch_not_followed_in_a_container_script_is_named():
    """Issue 16: a `bash -c` script of a manifest inherits the shell source's
    never-silent notes, at the manifest's lines."""
    result = analyze_yaml("deploy.yaml", _container_script('if [ "$ENGINE" = vllm ]; then CMD="vllm serve /models/m"; fi'))
    assert result.servers == []
    assert [(n.line, n.column, n.message) for n in result.notes] == [
        (12, 27, "launch not analyzed: line 14 runs `$CMD`, a variable that differs between branches (line 13)")
    ]


def test_a_container_script_that_adds_flags_under_a_branch_keeps_the_words_around_them():
    """A `bash -c` script of a manifest is read in one run, its branches
    merged: a string a branch adds flags to is the words every way has, then
    any number we cannot see. It was one unknown word, and its launch was not
    analyzed (the test above, before the command differed between branches)."""
    result = analyze_yaml("deploy.yaml", _container_script('if [ -n "$DP" ]; then CMD="$CMD --dp-size $DP --enable-dp-attention"; fi'))
    assert result.notes == []
    (server,) = result.servers
    words = [(token.value.describe(), token.spread) for token in server.args]
    assert words == [
        ("--disaggregation-mode", False),
        ("decode", False),
        ("--tp-size", False),
        ("8", False),
        ("<unknown: words of $CMD that differ between branches>", True),
    ]


# -- Issue 18: launches anywhere in YAML -------------------------------------------

LAUNCH_LISTS = 'command: ["python3", "-m", "sglang.launch_server"]\nargs: ["--disaggregation-mode", "decode", "--tp-size", "2"]'


def _nested(text: str, indent: int) -> str:
    return textwrap.indent(text, " " * indent)


@pytest.mark.parametrize(
    "wrapper, indent",
    [
        # OME ClusterServingRuntime: engineConfig/decoderConfig leader/worker runners.
        ("kind: ClusterServingRuntime\nspec:\n  decoderConfig:\n    leader:\n      runner:\n        name: ome-container\nLAUNCH\n", 8),
        # Dynamo DynamoGraphDeployment: a service's extraPodSpec.mainContainer.
        ("kind: DynamoGraphDeployment\nspec:\n  services:\n    decode:\n      extraPodSpec:\n        mainContainer:\n          image: x\nLAUNCH\n", 10),
        # RBG: a LeaderWorkerSet leader patch.
        ("kind: RoleBasedGroup\nspec:\n  roles:\n    - name: decode\n      leaderWorkerSet:\n        patchLeaderTemplate:\n          spec:\n            containers:\n              - name: s\nLAUNCH\n", 16),
        # Any key at any depth, in a list of lists.
        ("whatever:\n  - - deeper:\n        name: s\nLAUNCH\n", 8),
    ],
)
def test_command_args_lists_at_any_depth_under_any_key(wrapper, indent):
    (server,), result = _servers(wrapper.replace("LAUNCH\n", _nested(LAUNCH_LISTS, indent) + "\n"))
    assert (server.role, _value(server, "tp_size")) == ("decode", "2")
    assert result.findings == []


def test_args_only_mapping_is_the_argv():
    """No `command`: the image's entrypoint runs `args` (Dynamo's mainContainer)."""
    (server,), _ = _servers(
        """\
        extraPodSpec:
          mainContainer:
            args:
              - python3
              - -m
              - dynamo.sglang
              - --disaggregation-mode
              - prefill
              - --tp-size
              - "4"
        """
    )
    assert (server.launch.entry.value, server.role, _value(server, "tp_size")) == ("dynamo.sglang", "prefill", "4")
    # The launch is its first word; its lines (for `# noqa`) run from the `args:` key.
    assert (server.launch.location.line, server.launch.line_ranges[0]) == (4, (3, 10))


@pytest.mark.parametrize(
    "text, line, column",
    [
        # A GitHub Actions step.
        (
            """\
            jobs:
              serve:
                runs-on: [self-hosted, gpu]
                steps:
                  - uses: actions/checkout@v4
                  - name: start decode
                    run: |
                      python3 -m sglang.launch_server \\
                        --disaggregation-mode decode --tp-size 2 &
            """,
            9,
            42,
        ),
        # `sh -c` in a string (a command that is not a list).
        ('task:\n  script: sh -c "python3 -m sglang.launch_server --disaggregation-mode decode --tp-size 2"\n', 2, 79),
        # A ConfigMap's shell script.
        (
            """\
            kind: ConfigMap
            data:
              launch.sh: |
                #!/bin/bash
                exec python3 -m sglang.launch_server --disaggregation-mode decode --tp-size 2
            """,
            5,
            71,
        ),
    ],
)
def test_string_scalar_holding_a_shell_command(text, line, column):
    """(line, column): where `--tp-size` is written, in the file."""
    (server,), result = _servers(text)
    assert (server.role, _value(server, "tp_size")) == ("decode", "2")
    tp = server.setting("tp_size").location
    assert (tp.line, tp.column) == (line, column)
    assert result.findings == []


@pytest.mark.parametrize(
    "text",
    [
        "build:\n  command: make deploy\n",
        'steps:\n  - command: echo "see the sglang docs"\n',
        "services:\n  docs:\n    image: nginx\n    command: nginx -g 'daemon off;'\n",
        # Prose and data mention a launch without running it.
        "metadata:\n  annotations:\n    note: started with python3 -m sglang.launch_server --tp 8\n",
        "description: Serve with `python3 -m sglang.launch_server --tp-size 8`.\n",
        'kind: Pod\nspec:\n  containers:\n    - name: s\n      env:\n        - name: CMD\n          value: "python3 -m sglang.launch_server --tp-size 8"\n',
        # A document that is one string has no context that makes it a command.
        "python3 -m sglang.launch_server --tp-size 8\n",
        # One word is a name, not a command: a selector's label is not the router binary.
        "spec:\n  selector:\n    matchLabels:\n      component: sglang-router\n  serviceName: sglang-decode\n",
        # A ConfigMap's Python and YAML files are not shell.
        'data:\n  serve.py: |\n    cmd = "python3 -m sglang.launch_server --tp-size 8"\n  config.yaml: |\n    run: python3 -m sglang.launch_server --tp-size 8\n',
    ],
)
def test_a_command_string_that_is_not_a_launch_gives_nothing(text):
    servers, result = _servers(text)
    assert servers == [] and result.findings == []
    assert analyze_yaml("x.yaml", text).notes == []


def test_a_container_is_read_once_now_that_any_mapping_is_a_candidate():
    text = """\
    kind: Deployment
    spec:
      template:
        spec:
          initContainers:
            - name: wait
              command: ["sh", "-c", "until nc -z prefill 30000; do sleep 1; done"]
          containers:
            - name: decode
              command: ["/bin/bash", "-c"]
              args:
                - |
                  exec python3 -m sglang.launch_server --disaggregation-mode decode --tp-size 2
            - name: sidecar
              command: ["python3", "-m", "sglang.launch_server", "--disaggregation-mode", "prefill"]
    ---
    services:
      prefill:
        command: python3 -m sglang.launch_server --disaggregation-mode prefill --port 1
    """
    result = analyze_yaml("deploy.yaml", textwrap.dedent(text))
    assert sorted(s.location.line for s in result.servers) == [12, 15, 19]
    assert result.notes == []


K8S_VARS = """\
kind: Pod
spec:
  containers:
    - name: decode
      env:
        - name: TP
          value: "16"
        - name: ADDR
          value: $(LWS_LEADER_ADDRESS):20000
        - name: RANK_TEXT
          value: $$(RANK)
        - name: POD_IP
          valueFrom:
            fieldRef:
              fieldPath: status.podIP
      command: ["python3", "-m", "sglang.launch_server"]
      args:
        - --disaggregation-mode
        - decode
        - --tp-size
        - $(TP)
        - --dist-init-addr
        - $(ADDR)
        - --nnodes
        - $(LWS_GROUP_SIZE)
        - --node-rank
        - $(LWS_WORKER_INDEX)
        - --host
        - $(POD_IP)
        - --served-model-name
        - $(RANK_TEXT)
        - --tokenizer-path
        - $$(TOKENIZER)
"""


def test_k8s_variables_from_env_downward_api_unset_and_escaped():
    (server,), result = _servers(K8S_VARS)
    # A literal value, its text where env wrote it.
    assert _value(server, "tp_size") == "16"
    assert server.setting("tp_size").origin.line == 7
    # Dependent: an env value built from a variable LeaderWorkerSet injects.
    addr = server.setting("dist_init_addr").value
    assert addr.kind is Kind.CONCAT and addr.parts[0] == Value.symbol("$(LWS_LEADER_ADDRESS)")
    assert addr.parts[1] == Value.known(":20000")
    assert addr.describe() == "$(LWS_LEADER_ADDRESS):20000"  # as written, in messages
    # Unset in the manifest: a symbol, never the text `$(LWS_GROUP_SIZE)`.
    for dest, name in (("nnodes", "$(LWS_GROUP_SIZE)"), ("node_rank", "$(LWS_WORKER_INDEX)"), ("host", "$(POD_IP)")):
        assert server.setting(dest).value == Value.symbol(name), dest
    # `$$(VAR)` is the literal text `$(VAR)`, in env and in args.
    assert _value(server, "served_model_name") == "$(RANK)"
    assert _value(server, "tokenizer_path") == "$(TOKENIZER)"
    # No "invalid int value" for --nnodes/--node-rank, nor any other finding.
    assert result.findings == []


def test_an_unset_k8s_variable_is_a_symbol_with_its_own_position():
    result = analyze_yaml("pod.yaml", K8S_VARS)
    (server,) = result.servers
    nnodes = next(token for token in server.args if token.value == Value.symbol("$(LWS_GROUP_SIZE)"))
    assert (nnodes.location.line, nnodes.location.column, nnodes.location.end_column) == (25, 11, 28)


def test_a_cluster_set_variable_in_a_sh_c_script_is_its_environment_variable():
    (server,), _ = _servers(
        """\
        kind: Pod
        spec:
          containers:
            - name: decode
              env:
                - {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}
              command: ["sh", "-c", "python3 -m sglang.launch_server --host $POD_IP --tp-size 2"]
        """
    )
    assert server.setting("host").value == Value.symbol("$POD_IP")


def test_an_unset_k8s_variable_in_a_sh_c_string_is_a_symbol_not_an_invalid_int():
    """The kubelet expands `$(VAR)` in every command/args item, `sh -c` strings
    included, before the shell runs."""
    (server,), result = _servers(
        """\
        kind: LeaderWorkerSet
        spec:
          leaderWorkerTemplate:
            workerTemplate:
              spec:
                containers:
                  - name: decode
                    command: ["/bin/sh", "-c"]
                    args:
                      - >-
                        python3 -m sglang.launch_server --disaggregation-mode decode --tp-size 16
                        --nnodes $(LWS_GROUP_SIZE) --node-rank $(LWS_WORKER_INDEX)
                        --dist-init-addr $(LWS_LEADER_ADDRESS):20000
        """
    )
    assert server.setting("nnodes").value == Value.symbol("$(LWS_GROUP_SIZE)")
    assert server.setting("node_rank").value == Value.symbol("$(LWS_WORKER_INDEX)")
    assert result.findings == []


def test_every_document_is_read_whatever_ids_the_previous_documents_nodes_had() -> None:
    """A launch's words are remembered by node id() so that no scalar is read
    twice; nodes of an earlier document are freed as compose_all goes on, and
    their ids are reused by the next document's nodes. The set was kept across
    documents, so a later Pod's args could count as read already and its launch
    vanished, in about one run out of thirty (found by the hypothesis test of
    tests/test_properties.py: two calls on one text disagreed)."""
    text = (
        'services:\n  router:\n    image: lmsysorg/sglang\n    entrypoint:\n      - "python3"\n      - "-m"\n      - "sglang.launch_server"\n      - "--page-size=16"\n    command:\n    environment:\n      - TP=8\n---\nkind: Pod\nspec:\n  containers:\n    - name: c\n      command: [sh, -c]\n      args:\n        - |-\n            python \\\n              -m \\\n              sglang.launch_server \\\n              --tp=${TP:-8} \\\n              --load-balance-method=round_robin \\\n              --model=m\n---\napiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: sglang\n      image: lmsysorg/sglang\n      command:\n        - "python3"\n      args:\n        - "-m"\n        - "sglang.launch_server"\n        - "--model-path"\n        - "m"\n        - "--tp=${TP:-8}"\n        - "--load-balance-method=round_robin"\n        - "--model=m"\n      env:\n        - name: TP\n          value: "8"\n        - name: ROLE\n          value: decode\n'
    )
    assert {len(analyze_yaml("deploy.yaml", text).servers) for _ in range(1000)} == {3}


# -- RoleBasedGroup role templates (sglang_lint/sources/rbg_templates.py) -------------

RBG_V1ALPHA2 = """\
apiVersion: workloads.x-k8s.io/v1alpha2
kind: RoleBasedGroup
metadata:
  name: qwen-pd
spec:
  roleTemplates:
    - name: sglang-base
      template:
        spec:
          containers:
            - name: sglang
              image: lmsysorg/sglang:v0.5.19-cu129
              env:
                - name: MODEL_PATH
                  value: /models/Qwen3-8B
                - name: PAGE
                  value: "32"
  roles:
    - name: prefill
      standalonePattern:
        templateRef:
          name: sglang-base
          patch:
            spec:
              containers:
                - name: sglang
                  command: [python3, -m, sglang.launch_server]
                  args: [--model-path, $(MODEL_PATH), --disaggregation-mode, prefill, --page-size, $(PAGE),
                         --cuda-graph-max-bs, "16", --port, "30000"]
    - name: decode
      standalonePattern:
        templateRef:
          name: sglang-base
          patch:
            spec:
              containers:
                - name: sglang
                  env:
                    - name: PAGE
                      value: "64"
                  command: [python3, -m, sglang.launch_server]
                  args: [--model-path, $(MODEL_PATH), --disaggregation-mode, decode, --page-size, $(PAGE),
                         --cuda-graph-max-bs, "16", --port, "30001"]
"""


def test_rbg_patch_container_takes_the_templates_image_and_env():
    # rbg api/workloads/v1alpha2/helper.go GetResolvedTemplate: the referenced
    # roleTemplate with templateRef.patch applied as a strategic merge patch.
    servers, result = _servers(RBG_V1ALPHA2)
    by_role = {s.role: s for s in servers}
    assert _value(by_role["prefill"], "model_path") == "/models/Qwen3-8B"  # the template's env
    assert {s.settings.version for s in servers} == {"0.5.19"}  # the template's image
    # the decode's own PAGE replaces the template's: a real page-size mismatch;
    # --cuda-graph-max-bs is 0.5.19's option (ambiguous from 0.5.20 on)
    assert (_value(by_role["prefill"], "page_size"), _value(by_role["decode"], "page_size")) == ("32", "64")
    # (reported where the decode's value is written: its own env entry)
    assert sorted((f.code, f.location.line) for f in result.findings) == [("SGL003", 40)]


def test_rbg_v1alpha1_template_patch_and_leader_worker_patches():
    text = """\
    apiVersion: workloads.x-k8s.io/v1alpha1
    kind: RoleBasedGroup
    spec:
      roleTemplates:
        - name: base
          template:
            spec:
              containers:
                - name: sglang
                  image: lmsysorg/sglang:v0.5.14-cu129
                  command: [python3, -m, sglang.launch_server]
                  env:
                    - {name: TP, value: "4"}
      roles:
        - name: prefill
          templateRef: {name: base}
          templatePatch:
            spec:
              containers:
                - name: sglang
                  args: [--disaggregation-mode, prefill, --tp-size, $(TP), --port, "30000"]
        - name: decode
          template:
            spec:
              containers:
                - name: sglang
                  image: lmsysorg/sglang:v0.5.19
                  env:
                    - {name: TP, value: "8"}
          leaderWorkerSet:
            size: 2
            patchLeaderTemplate:
              spec:
                containers:
                  - name: sglang
                    command: [python3, -m, sglang.launch_server, --disaggregation-mode, decode, --tp-size, $(TP), --port, "30001"]
    """
    servers, _ = _servers(text)
    by_role = {s.role: s for s in servers}
    # args alone in the patch: the template's command runs them
    assert (_value(by_role["prefill"], "tp_size"), by_role["prefill"].settings.version) == ("4", "0.5.14")
    # the leader patch over the role's inline template
    assert (_value(by_role["decode"], "tp_size"), by_role["decode"].settings.version) == ("8", "0.5.19")
    # the template's own command (no args) is a launch of its own, as before
    assert len(servers) == 3


def test_rbg_patch_bases_by_shape():
    import yaml

    from sglang_lint.sources.rbg_templates import patch_bases

    def field(node, *path):
        for key in path:
            node = node.value[key] if isinstance(key, int) else dict((k.value, v) for k, v in node.value)[key]
        return node

    document = yaml.compose(textwrap.dedent(RBG_V1ALPHA2))
    bases = patch_bases(document)
    template_container = field(document, "spec", "roleTemplates", 0, "template", "spec", "containers", 0)
    patch_containers = [field(document, "spec", "roles", i, "standalonePattern", "templateRef", "patch", "spec", "containers", 0) for i in (0, 1)]
    assert bases == {id(container): (template_container,) for container in patch_containers}
    # another kind, a role naming a template that does not exist, no spec: nothing
    assert patch_bases(yaml.compose(textwrap.dedent(RBG_V1ALPHA2).replace("kind: RoleBasedGroup", "kind: Deployment"))) == {}
    assert patch_bases(yaml.compose(textwrap.dedent(RBG_V1ALPHA2).replace("name: sglang-base\n          patch", "name: nowhere\n          patch"))) == {}
    assert patch_bases(yaml.compose("kind: RoleBasedGroup\nspec: 3\n")) == {}
    assert patch_bases(yaml.compose("- kind: RoleBasedGroup\n")) == {}


def test_rbg_odd_shapes_are_read_without_error():
    # an alias of the template's container as the patch, a templateRef that is a
    # string, roles that are not mappings, a patch that is a list
    text = """\
    apiVersion: workloads.x-k8s.io/v1alpha2
    kind: RoleBasedGroup
    spec:
      roleTemplates:
        - name: base
          template:
            spec:
              containers:
                - &engine
                  name: sglang
                  image: lmsysorg/sglang:v0.5.14
                  command: [python3, -m, sglang.launch_server, --disaggregation-mode, prefill, --port, "30000"]
      roles:
        - name: a
          standalonePattern:
            templateRef: {name: base, patch: {spec: {containers: [*engine]}}}
        - name: b
          standalonePattern: {templateRef: base}
        - just-a-string
        - name: c
          leaderWorkerPattern: {templateRef: {name: base, patch: [1, 2]}, leaderTemplatePatch: 3}
    """
    servers, result = _servers(text)
    assert [(s.role, s.settings.version) for s in servers] == [("prefill", "0.5.14")]
    assert result.findings == []


def test_a_ci_step_that_launches_nothing_gives_no_placeholder_note():
    """sglang-jax's workflows: `bash scripts/killall_sglang.sh` names sglang, so
    the `run:` step is read as a command, and its `${{ matrix.part }}` made the
    file's "template placeholders were read as unknown values" note although
    nothing in it launches (seven files). A step that launches keeps the note."""
    quiet = (
        "jobs:\n  test:\n    steps:\n      - run: |\n          bash scripts/killall_sglang.sh\n"
        "          python test/srt/run_suite.py --auto-partition-id ${{ matrix.part }}\n"
    )
    assert analyze_yaml("ci.yml", quiet).notes == []
    launching = quiet.replace("bash scripts/killall_sglang.sh", "python3 -m sglang.launch_server --tp ${{ matrix.tp }} &")
    result = analyze_yaml("ci.yml", launching)
    assert len(result.servers) == 1 and any("template placeholders" in note.message for note in result.notes)


@pytest.mark.parametrize(
    ("text", "noted"),
    [
        # a chart's templates that hold no launch: a PVC, an alert rule naming the router's job
        ('{{- if .Values.pvc.enabled }}\nkind: PersistentVolumeClaim\nmetadata:\n  name: {{ include "sglang.fullname" . }}\n{{- end }}\n', False),
        ('{{- if .Values.alerts }}\nkind: PrometheusRule\nspec:\n  groups:\n  - name: sglang.router\n    rules:\n    - expr: up{job="sglang-router"} == 0\n{{- end }}\n', False),
        # a container's command, or a script naming an entry point
        ("{{- if .Values.worker }}\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - command: {{ .Values.command }}\n{{- end }}\n", True),
        ("{{- if .Values.cm }}\nkind: ConfigMap\ndata:\n  launch.sh: |\n    python3 -m sglang.launch_server --tp {{ .Values.tp }}\n{{- end }}\n", True),
    ],
)
def test_a_template_is_noted_only_where_it_may_hold_a_launch(text, noted):
    """A chart named sglang made each of its 14 templates (PVC, RBAC, HPA, alert
    rules...) a "this file is a template, not analyzed" note
    (arunpatala/sglang_development): only those that may hold a launch get it."""
    notes = [note.message for note in analyze_yaml("t.yaml", text).notes]
    assert any("is a template" in message for message in notes) == noted, notes


LLMAZ_RUNTIME = """\
apiVersion: inference.llmaz.io/v1alpha1
kind: BackendRuntime
metadata:
  name: sglang
spec:
  command:
    - python3
    - -m
    - sglang.launch_server
  image: lmsysorg/sglang
  version: v0.5.9-cu129
  envs:
    - name: TP
      value: "4"
  recommendedConfigs:
    - name: default
      args:
        - --model-path
        - "{{ .ModelPath }}"
        - --tp-size
        - $(TP)
        - --port
        - "8080"
    - name: speculative-decoding
      args:
        - --model-path
        - "{{ .ModelPath }}"
        - --speculative-algorithm
        - EAGLE
        - --enable-hisparse
      sharedMemorySize: 2Gi
"""


def test_an_llmaz_backend_runtime_runs_its_command_with_each_recommended_configs_args() -> None:
    """llmaz builds the container as spec.command + the picked config's args
    in image:version (playground_controller.go buildTemplate): each config is
    one launch. Read as containers, the command was a launch with no
    arguments and the configs' args were not launches at all."""
    result = analyze_yaml("runtime.yaml", LLMAZ_RUNTIME)
    argvs = [[token.value.describe() for token in server.args] for server in result.servers]
    assert argvs == [
        ["--model-path", "{{ .ModelPath }}", "--tp-size", "4", "--port", "8080"],
        ["--model-path", "{{ .ModelPath }}", "--speculative-algorithm", "EAGLE", "--enable-hisparse"],
    ]
    assert [server.location.line for server in result.servers] == [7, 7]  # the command's first word
    (hint,) = result.version_hints
    assert (hint.text, hint.release) == ("lmsysorg/sglang:v0.5.9-cu129", "0.5.9")
    # Judged with 0.5.9, where --enable-hisparse does not exist yet (0.5.10).
    # (and the file's note that {{ .ModelPath }} is a placeholder).
    findings = lint_texts({"runtime.yaml": LLMAZ_RUNTIME}).findings
    assert [(f.code, f.location.line) for f in findings] == [("SGL900", 19), ("SGL202", 30)]
    assert "--enable-hisparse" in findings[1].message


def test_an_llmaz_backend_runtime_without_configs_runs_its_command() -> None:
    text = LLMAZ_RUNTIME.split("  recommendedConfigs:")[0]
    (server,) = analyze_yaml("runtime.yaml", text).servers
    assert server.args == [] and server.location.line == 7
