"""srt-slurm recipes (srtctl job files) as a source: recognised by shape, each
sglang_config section the server srtctl starts, with the argv srtctl builds
(``SGLangProtocol.build_worker_command`` and ``_config_to_cli_args`` in
NVIDIA/srt-slurm ``src/srtctl/backends/sglang.py``, commit c88ef731)."""

from __future__ import annotations

import json
import textwrap

import pytest

from sglang_lint.model import EntryPoint, Kind
from sglang_lint.pipeline import LintOptions, lint_texts
from sglang_lint.report.topology import render_json, render_text
from sglang_lint.sources.yaml_manifest import analyze_yaml

RECIPE = """\
name: "pd-test"
model:
  path: "dsr1"
  container: "lmsysorg+sglang+v0.5.21.sqsh"
resources:
  gpu_type: "h200"
  gpus_per_node: 8
  prefill_nodes: 1
  prefill_workers: 1
  decode_nodes: 2
  decode_workers: 1
backend:
  prefill_environment:
    PYTHONUNBUFFERED: "1"
  decode_environment:
    SGLANG_DECODE_BOOTSTRAP_TIMEOUT: "600"
  sglang_config:
    prefill:
      tensor-parallel-size: 8
      enable-dp-attention: true
      dp_size: 8
      disable-cuda-graph: false
      model-path: /elsewhere
      kv-cache-dtype: fp8_e4m3
    decode:
      tp_size: 16
      mem-fraction-static: 0.85
      cuda-graph-bs-decode: [1, 2, 4]
"""


def _lint(text: str, path: str = "recipe.yaml"):
    result = lint_texts({path: textwrap.dedent(text)}, LintOptions())
    servers = {s.role: s for d in result.deployments for s in d.servers}
    return servers, result


def _argv(launch) -> list[str]:
    return [token.value.describe() for token in launch.args]


def test_recognised_by_shape_and_read_as_srtctl_builds_the_argv():
    result = analyze_yaml("recipe.yaml", RECIPE)
    prefill, decode = result.servers
    assert prefill.entry is EntryPoint.DYNAMO_SGLANG  # frontend.type defaults to dynamo
    # Keys sorted, `_` made `-`, `true` a bare flag, `false` nothing, model-path
    # replaced by srtctl's mount point (build_worker_command pops it).
    assert _argv(prefill) == [
        "--model-path", "/model",
        "--disaggregation-mode", "prefill",
        "--dp-size", "8",
        "--enable-dp-attention",
        "--kv-cache-dtype", "fp8_e4m3",
        "--tensor-parallel-size", "8",
    ]
    # decode: 2 nodes x 8 GPUs for one worker, so it spans two nodes (--nnodes 2,
    # the rank-0 server); a list is --key item item...
    assert _argv(decode) == [
        "--model-path", "/model",
        "--disaggregation-mode", "decode",
        "--nnodes", "2", "--node-rank", "0",
        "--cuda-graph-bs-decode", "1", "2", "4",
        "--mem-fraction-static", "0.85",
        "--tp-size", "16",
    ]


def test_dashed_and_underscored_keys_and_true_flags_reach_the_settings():
    servers, result = _lint(RECIPE)
    prefill, decode = servers["prefill"], servers["decode"]
    assert prefill.setting("dp_size").value.text == "8"  # dp_size: underscored
    assert prefill.setting("tp_size").value.text == "8"  # tensor-parallel-size: the alias, dashed
    assert prefill.setting("enable_dp_attention").value.text == "true"
    assert prefill.setting("disable_cuda_graph").value.text == "false"  # `false`: not passed at all
    assert prefill.attn_tp.value.text == "1" and decode.attn_tp.value.text == "16"
    assert decode.setting("nnodes").value.text == "2"
    assert not [f for f in result.findings if f.code != "SGL004"]


def test_positions_point_at_the_keys_and_values():
    servers, _ = _lint(RECIPE)
    prefill, decode = servers["prefill"], servers["decode"]
    tp = prefill.setting("tp_size")
    assert (tp.location.line, tp.location.column, tp.spelling) == (19, 7, "--tensor-parallel-size")
    assert (prefill.setting("dp_size").location.line, prefill.setting("enable_dp_attention").location.line) == (21, 20)
    # the role comes from the section: --disaggregation-mode at the section's key
    mode = decode.setting("disaggregation_mode")
    assert (mode.location.line, mode.location.column) == (25, 5)
    assert decode.launch.location.line == 25 and decode.launch.line_ranges == ((25, 28),)
    # the model path at model.path
    assert prefill.setting("model_path").location.line == 3


def test_the_decode_key_is_where_a_mismatch_is_reported():
    text = RECIPE.replace("      kv-cache-dtype: fp8_e4m3\n", "      kv-cache-dtype: fp8_e4m3\n      enable-unified-memory: true\n")
    text = text.replace("      mem-fraction-static: 0.85\n", "      mem-fraction-static: 0.85\n      enable_unified_memory: true\n")
    _, result = _lint(text)
    (finding,) = [f for f in result.findings if f.code == "SGL001"]
    # decode's attention TP 16 against the prefill's 1: at the decode's tp_size
    # key (line 27, the prefill having gained a line)
    assert (finding.location.line, finding.location.column) == (27, 7)


@pytest.mark.parametrize(
    "text",
    [
        # a Kubernetes manifest that mentions sglang and has a `backend` key
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: sglang}\ndata:\n  backend: sglang\n",
        # backend as a mapping, but no sglang_config, and a type that is not sglang
        "name: x\nmodel: {path: m}\nresources: {gpu_type: h100}\nbackend:\n  type: vllm\n  vllm_config: {prefill: {tensor-parallel-size: 8}}\n",
        # backend type sglang without any of the recipe's other sections
        "backend:\n  type: sglang\nimage: sglang\n",
        # an SGLang --config file: option keys at the top level
        "tp-size: 8\nenable-dp-attention: true\n",
    ],
)
def test_a_yaml_file_that_is_not_a_recipe_is_not_taken_as_one(text):
    result = analyze_yaml("other.yaml", text)
    assert result.servers == [] and result.notes == []


def test_backend_type_sglang_without_sglang_config_starts_servers_with_defaults():
    text = "name: x\nmodel: {path: m}\nresources: {gpu_type: h100, gpus_per_node: 8, agg_nodes: 1, agg_workers: 1}\nbackend: {type: sglang}\n"
    (server,) = analyze_yaml("recipe.yaml", text).servers
    assert _argv(server) == ["--model-path", "/model"]


def test_aggregated_is_a_plain_server_with_its_environment():
    text = """\
    name: agg
    model: {path: "hf:Qwen/Qwen3-8B", container: "lmsysorg+sglang+v0.5.23.sqsh"}
    frontend: {type: sglang}
    resources: {gpu_type: h100, gpus_per_node: 8, agg_nodes: 1, agg_workers: 2}
    environment: {HF_HOME: /cache}
    backend:
      aggregated_environment: {NCCL_DEBUG: INFO, HF_HOME: /models}
      sglang_config:
        aggregated: {tp: 4}
    """
    servers, result = _lint(text)
    (server,) = servers.values()
    assert server.role == "null" and server.launch.entry is EntryPoint.LAUNCH_SERVER
    assert server.setting("model_path").value.text == "Qwen/Qwen3-8B"  # hf: models are passed by id
    assert server.setting("tp_size").value.text == "4"
    # the role's environment, then the job's, which wins (srtctl's worker_stage.py)
    assert [(name, value.text) for name, value in server.launch.environment] == [("NCCL_DEBUG", "INFO"), ("HF_HOME", "/cache")]
    assert server.launch.resources.gpus_per_worker == 4  # 1 node x 8 GPUs / 2 workers
    assert server.launch.container_image.value.text == "lmsysorg+sglang+v0.5.23.sqsh"
    assert server.launch.container_image.location.line == 2
    assert result.findings == []


def test_sweep_placeholders_are_the_sweeps_values_and_others_are_symbols():
    text = """\
    name: sweep
    sweep:
      chunk: [4096, 8192]
    model: {path: m}
    backend:
      sglang_config:
        prefill: {chunked-prefill-size: "{chunk}", page-size: "{page}", tp: 4}
        decode: {chunked-prefill-size: "{chunk}", page-size: "{page}", tp: 4}
    """
    result = analyze_yaml("recipe.yaml", textwrap.dedent(text))
    prefill, decode = result.servers
    chunk = prefill.args[prefill.args.index(next(t for t in prefill.args if t.value.text == "--chunked-prefill-size")) + 1].value
    assert chunk.kind is Kind.ALTERNATIVES and chunk.alternatives == ("4096", "8192")
    page = decode.args[[t.value.describe() for t in decode.args].index("--page-size") + 1].value
    assert page.kind is Kind.SYMBOL and page.name == "{page}"
    (note,) = result.notes
    assert "'{page}' is not a parameter of this recipe's sweep" in note.message and note.line == 7
    # the same placeholder on both sides is no finding (page-size "{page}")
    _, linted = _lint(text)
    assert [f.code for f in linted.findings] == ["SGL900"]


def test_a_mismatch_on_every_sweep_value_is_reported_one_on_some_is_not():
    text = """\
    name: sweep
    sweep:
      parameters:
        dtype: [fp8_e5m2, bf16]
        other: [fp8_e4m3, bf16]
    model: {path: m}
    backend:
      sglang_config:
        prefill: {kv-cache-dtype: fp8_e4m3}
        decode: {kv-cache-dtype: "{dtype}"}
    """
    _, result = _lint(text)
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL004", 10)]
    _, result = _lint(text.replace('"{dtype}"', '"{other}"'))
    assert result.findings == []


def test_base_recipe_with_overrides_is_read_and_the_overrides_are_named():
    text = """\
    base:
      name: b
      model: {path: m}
      resources: {gpu_type: b200, gpus_per_node: 8, prefill_nodes: 1, prefill_workers: 1, decode_nodes: 1, decode_workers: 1}
      backend:
        sglang_config:
          prefill: {tp: 8}
          decode: {tp: 8}
    override_big:
      resources: {decode_nodes: 2}
    """
    result = analyze_yaml("recipe.yaml", textwrap.dedent(text))
    assert len(result.servers) == 2
    (note,) = result.notes
    assert "override_big" in note.message and note.line == 9


def test_a_disaggregated_recipe_starts_both_roles_even_without_a_section():
    text = """\
    name: x
    model: {path: m}
    resources: {gpu_type: h100, gpus_per_node: 8, prefill_nodes: 1, prefill_workers: 1, decode_nodes: 1, decode_workers: 1}
    backend:
      sglang_config:
        prefill: {tp: 8}
        aggregated: {tp: 2}
    """
    result = analyze_yaml("recipe.yaml", textwrap.dedent(text))
    # srtctl starts a prefill and a decode (the decode with no options of its
    # own); the aggregated section is for aggregated jobs only.
    assert [_argv(s)[2:4] for s in result.servers] == [["--disaggregation-mode", "prefill"], ["--disaggregation-mode", "decode"]]
    assert result.servers[1].location.line == 3  # no section: at `resources:`


def test_yaml_values_are_what_safe_load_builds():
    text = """\
    name: x
    model: {path: m}
    backend:
      sglang_config:
        aggregated:
          enable-metrics: yes
          max-running-requests: 0x10
          json-model-override-args: {a: 1}
          skip-server-warmup: null
          host: ~
    """
    (server,) = analyze_yaml("recipe.yaml", textwrap.dedent(text)).servers
    assert _argv(server) == ["--model-path", "/model", "--enable-metrics", "--json-model-override-args", "{'a': 1}", "--max-running-requests", "16"]


def test_topology_shows_workers_nodes_gpus_container_and_environment():
    servers, result = _lint(RECIPE)
    text = render_text(result.deployments, "0.5.23")
    assert "(srt-slurm recipe 'pd-test')" in text
    decode_part = text.split("  decode ")[1]
    for row in ("workers              1", "nodes                2", "gpus-per-node        8", "gpus-per-worker      16",
                "container            lmsysorg+sglang+v0.5.21.sqsh", "environment          SGLANG_DECODE_BOOTSTRAP_TIMEOUT=600"):
        assert row in decode_part, row
    payload = json.loads(render_json(result.deployments, "0.5.23"))
    decode = next(s for s in payload["deployments"][0]["servers"] if s["role"] == "decode")
    assert decode["resources"]["nodes_per_worker"] == 2 and decode["resources"]["workers"]["text"] == "1"
    assert decode["environment"] == {"SGLANG_DECODE_BOOTSTRAP_TIMEOUT": "600"}
    assert decode["container_image"]["text"] == "lmsysorg+sglang+v0.5.21.sqsh"


def test_topology_notes_a_worker_too_small_for_its_ranks():
    text = RECIPE.replace("  decode_nodes: 2\n", "  decode_nodes: 1\n")
    _, result = _lint(text)
    out = render_text(result.deployments, "0.5.23")
    assert "! each worker gets 8 GPUs but tp x pp = 16 x 1 needs 16" in out
    assert out.count("! each worker gets") == 1  # the prefill's 8 ranks fit


def test_a_recipe_result_survives_the_cache_encoding():
    from sglang_lint.cache import _ENCODER, _RESULT_DECODER

    result = analyze_yaml("recipe.yaml", RECIPE)
    ok, decoded = _RESULT_DECODER.decode(_ENCODER.encode((True, result)))
    assert ok and decoded.servers == result.servers
    assert decoded.servers[1].resources.nodes_per_worker == 2


def test_noqa_on_a_line_of_the_decode_section_silences_its_finding():
    text = RECIPE.replace("      kv-cache-dtype: fp8_e4m3\n", "")
    assert not _lint(text)[1].findings
    text = text.replace("      tp_size: 16\n", "      tp_size: 16\n      kv_cache_dtype: fp8_e5m2\n")
    assert [f.code for f in _lint(text)[1].findings] == ["SGL004"]
    text = text.replace("      mem-fraction-static: 0.85\n", "      mem-fraction-static: 0.85  # noqa: SGL004\n")
    assert not _lint(text)[1].findings


def test_the_container_names_the_release_the_servers_are_judged_by():
    """model.container (an enroot image name) is a version fact (issue 18):
    both servers are parsed with 0.5.21's table, and say so."""
    servers, _ = _lint(RECIPE)
    for role in ("prefill", "decode"):
        judged = servers[role].judged
        assert judged is not None and judged.version == "0.5.21" and servers[role].settings.version == "0.5.21"
        assert "lmsysorg+sglang+v0.5.21.sqsh" in judged.note and "recipe.yaml:4" in judged.note
    older, _ = _lint(RECIPE.replace("v0.5.21", "v0.5.19"))
    assert older["decode"].settings.version == "0.5.19"
