"""The generated option tables (``sglang_lint/catalog/data``) against known facts.

Facts come from ``../shared/sglang-semantics.md`` section 3 and from reading the
wheels (see ``scripts/generate_option_tables.py``). When the shared reference
tables are present (``../shared/reference/sglang-cli`` beside the repository), the
option names and dests of every table are compared with them as well.
"""

from __future__ import annotations

import ast
import json
from importlib import resources
from pathlib import Path

import msgspec
import pytest

from sglang_lint.catalog.tables import (
    Option,
    OptionTable,
    known_versions,
    load_diffusion_table,
    load_table,
    option_facts,
    version_key,
)

VERSIONS = (
    "0.5.4", "0.5.5", "0.5.6", "0.5.7", "0.5.8", "0.5.9", "0.5.10", "0.5.11", "0.5.12",
    "0.5.13", "0.5.14", "0.5.15", "0.5.16", "0.5.17", "0.5.18", "0.5.19", "0.5.20",
    "0.5.21", "0.5.22", "0.5.23",
)  # fmt: skip
# The releases ../shared/reference/sglang-cli has a table of (the others are read
# from their wheels alone, as these are).
REFERENCE_VERSIONS = (
    "0.5.4", "0.5.9", "0.5.10", "0.5.11", "0.5.13", "0.5.14", "0.5.15", "0.5.16",
    "0.5.17", "0.5.18", "0.5.19", "0.5.20", "0.5.21", "0.5.22", "0.5.23",
)  # fmt: skip
ACTIONS = {"store", "store_true", "store_false", "store_const", "append", "count", "boolean_optional", "help"}
REFERENCE_DIR = Path(__file__).resolve().parents[2] / "shared" / "reference" / "sglang-cli"


def v(version: str) -> tuple[int, ...]:
    return version_key(version)


def matches(table: OptionTable, prefix: str) -> list[str]:
    """Long names argparse would consider for ``prefix`` (argparse counts option
    strings, not actions: two spellings of one option still make it ambiguous)."""
    return [name for name in table.long_names if name.startswith(prefix)]


def is_ambiguous(table: OptionTable, prefix: str) -> bool:
    return prefix not in table.by_name and len(matches(table, prefix)) >= 2


def option(table: OptionTable, name: str) -> Option:
    assert name in table.by_name, f"{name} missing in sglang {table.version}"
    return table.by_name[name]


@pytest.fixture(scope="module")
def tables() -> dict[str, OptionTable]:
    return {version: load_table(version) for version in known_versions()}


# ---------------------------------------------------------------------------
# The files themselves
# ---------------------------------------------------------------------------


def test_every_release_has_a_table():
    assert known_versions() == VERSIONS


def test_files_are_as_the_generator_writes_them():
    data = resources.files("sglang_lint.catalog").joinpath("data")
    for version in VERSIONS:
        text = data.joinpath(f"sglang-{version}.json").read_text(encoding="utf-8")
        raw = json.loads(text)
        assert raw["version"] == version
        assert raw["generated_from"].startswith(f"sglang-{version}-") and raw["generated_from"].endswith(".whl")
        assert text == json.dumps(raw, indent=1, ensure_ascii=False) + "\n"
        dests = [o["dest"] for o in raw["options"]]
        assert dests == sorted(dests), "options are sorted by dest"


def test_table_invariants(tables):
    for version, table in tables.items():
        seen: set[str] = set()
        for opt in table.options:
            assert opt.action in ACTIONS, (version, opt)
            assert opt.nargs in (None, "?", "*", "+") or (isinstance(opt.nargs, int) and opt.nargs > 0), (version, opt)
            if opt.is_flag:
                assert opt.nargs is None and opt.type is None, (version, opt)
            for name in opt.names:
                assert name not in seen, f"{name} twice in {version}"
                seen.add(name)
                assert name.startswith("--") or name == "-h", (version, name)
            if opt.action == "boolean_optional":
                bases = [n for n in opt.names if not n.startswith("--no-")]
                assert bases and all(f"--no-{b[2:]}" in opt.names for b in bases), (version, opt.names)
                assert len(opt.names) == 2 * len(bases)
        assert option(table, "--help") is option(table, "-h")
        assert option(table, "--help").action == "help"
        config = option(table, "--config")
        assert (config.action, config.type, config.dest) == ("store", "str", "config")


# ---------------------------------------------------------------------------
# Spellings and defaults (sglang-semantics.md section 3)
# ---------------------------------------------------------------------------


def test_parallel_size_aliases(tables):
    for version, table in tables.items():
        tp = option(table, "--tp-size")
        assert tp is option(table, "--tensor-parallel-size")
        assert (tp.type, tp.default) == ("int", 1)
        # before the dataclass era argparse derives dest from the first long name
        assert tp.dest == ("tp_size" if v(version) >= (0, 5, 14) else "tensor_parallel_size")
        assert option(table, "--dp-size") is option(table, "--data-parallel-size")
        assert option(table, "--pp-size") is option(table, "--pipeline-parallel-size")
        ep = option(table, "--ep")
        assert ep is option(table, "--ep-size") is option(table, "--expert-parallel-size")
        assert ep.dest == ("ep_size" if v(version) >= (0, 5, 14) else "expert_parallel_size")
        model = option(table, "--model")
        assert model is option(table, "--model-path")
        assert (model.dest, model.type) == ("model_path", "str")


def test_dests_renamed_by_from_cli_args_before_0_5_14(tables):
    # <= 0.5.13 the long spelling comes first, so argparse's dest is the long one;
    # ServerArgs.from_cli_args then copies it to the field (args.tp_size = ...).
    renamed = {
        "--tp-size": ("tensor_parallel_size", "tp_size"),
        "--pp-size": ("pipeline_parallel_size", "pp_size"),
        "--dp-size": ("data_parallel_size", "dp_size"),
        "--ep-size": ("expert_parallel_size", "ep_size"),
    }
    for version, table in tables.items():
        for name, (old, new) in renamed.items():
            assert option(table, name).dest == (new if v(version) >= (0, 5, 14) else old), (version, name)


def test_attention_parallel_options_by_version(tables):
    for version, table in tables.items():
        has_attn_cp = v(version) >= (0, 5, 9)
        assert ("--attn-cp-size" in table.by_name) == has_attn_cp, version
        if has_attn_cp:
            assert option(table, "--attn-cp-size") is option(table, "--attention-context-parallel-size")
            assert option(table, "--attn-cp-size").dest == (
                "attn_cp_size" if v(version) >= (0, 5, 14) else "attention_context_parallel_size"
            )
        has_attn_dp = v(version) >= (0, 5, 22)
        assert ("--attn-dp-size" in table.by_name) == has_attn_dp, version
        assert ("--attention-data-parallel-size" in table.by_name) == has_attn_dp, version
        if has_attn_dp:
            attn_dp = option(table, "--attn-dp-size")
            assert attn_dp is option(table, "--attention-data-parallel-size")
            assert (attn_dp.dest, attn_dp.type, attn_dp.default) == ("attn_dp_size", "int", 1)
        has_dcp = v(version) >= (0, 5, 15)
        assert ("--dcp-size" in table.by_name) == has_dcp, version
        if has_dcp:
            assert option(table, "--dcp-size") is option(table, "--decode-context-parallel-size")
        dp_attention = option(table, "--enable-dp-attention")
        assert (dp_attention.action, dp_attention.dest) == ("store_true", "enable_dp_attention")
        # 0.5.22 turned it into a DeprecatedStoreTrueAction (still stores True)
        assert dp_attention.deprecated == (v(version) >= (0, 5, 22))


def test_unified_memory_flags(tables):
    for version, table in tables.items():
        if v(version) <= (0, 5, 14):
            assert "--enable-unified-memory" not in table.by_name, version
        else:
            um = option(table, "--enable-unified-memory")
            assert (um.action, um.default, um.dest) == ("store_true", False, "enable_unified_memory")
        assert ("--enable-unified-cache-external-linker" in table.by_name) == (v(version) >= (0, 5, 20)), version


def test_pd_defaults(tables):
    for version, table in tables.items():
        mode = option(table, "--disaggregation-mode")
        assert mode.choices == ("null", "prefill", "decode")
        assert mode.default == "null"
        port = option(table, "--disaggregation-bootstrap-port")
        assert (port.type, port.default) == ("int", 8998)
        backend = option(table, "--disaggregation-transfer-backend")
        assert backend.default == "mooncake"
        assert "mooncake" in backend.choices and "nixl" in backend.choices
        assert ("mooncake_tcp" in backend.choices) == (v(version) >= (0, 5, 13))
        kv = option(table, "--kv-cache-dtype")
        assert (kv.default, kv.type) == ("auto", "str")
        assert "fp8_e4m3" in kv.choices
        page = option(table, "--page-size")
        assert (page.type, page.default, page.action) == ("int", None, "store")
        assert (option(table, "--port").default, option(table, "--host").default) == (30000, "127.0.0.1")


def test_valued_options_and_nargs(tables):
    assert option(tables["0.5.4"], "--hybrid-kvcache-ratio").nargs == "?"
    assert option(tables["0.5.4"], "--hybrid-kvcache-ratio").const == 0.5
    for version, table in tables.items():
        lora = option(table, "--lora-paths")
        assert (lora.action, lora.nargs) == ("store", "*"), version  # LoRAPathAction
        numa = option(table, "--numa-node")
        assert (numa.nargs, numa.type) == ("+", "int"), version


def test_deprecated_actions_are_mapped(tables):
    # DeprecatedAction: nargs=0, stores nothing (0.5.4: raises ValueError when used)
    old = option(tables["0.5.4"], "--enable-ep-moe")
    assert (old.action, old.deprecated, old.const) == ("store_const", True, None)
    # DeprecatedStoreTrueAction and DeprecatedAliasStoreAction keep their new dest
    stream = option(tables["0.5.13"], "--stream-output")
    assert (stream.action, stream.dest, stream.deprecated) == ("store_true", "incremental_streaming_output", True)
    alias = option(tables["0.5.14"], "--cuda-graph-bs")
    assert (alias.action, alias.dest, alias.nargs, alias.type) == ("store", "cuda_graph_bs_decode", "+", "int")
    # DeprecatedStoreConstAction: a flag storing const_value ...
    breakable = option(tables["0.5.14"], "--enable-breakable-cuda-graph")
    assert (breakable.action, breakable.const, breakable.dest) == ("store_const", "breakable", "cuda_graph_backend_prefill")
    # ... or, with nargs=None, one value checked against choices
    mono = option(tables["0.5.23"], "--monokernel-backend")
    assert (mono.action, mono.choices, mono.const, mono.dest) == ("store", ("amd",), True, "enable_amd_monokernel")
    # by_dest keeps the option argparse registers first (the one whose default counts)
    assert tables["0.5.14"].by_dest["cuda_graph_bs_decode"].names == ("--cuda-graph-bs-decode",)


def test_boolean_optional_adds_no_names(tables):
    table = tables["0.5.23"]
    opt = option(table, "--lora-strict-loading")
    assert opt is option(table, "--no-lora-strict-loading")
    assert opt.action == "boolean_optional" and opt.is_flag


# ---------------------------------------------------------------------------
# Prefix abbreviation (argparse allow_abbrev=True)
# ---------------------------------------------------------------------------


def test_abbreviations(tables):
    for version, table in tables.items():
        for prefix in ("--pp", "--enable-dp"):
            assert is_ambiguous(table, prefix), (version, prefix, matches(table, prefix))
        # --cp: ambiguous once --cp-strategy exists (0.5.14); before that it is a
        # unique prefix of --cpu-offload-gb (not of any context-parallel option)
        if v(version) >= (0, 5, 14):
            assert is_ambiguous(table, "--cp"), version
        else:
            assert matches(table, "--cp") == ["--cpu-offload-gb"], version
        assert matches(table, "--tp") == ["--tp-size"], version
        assert matches(table, "--dp") == ["--dp-size"], version
        assert matches(table, "--trust-remote") == ["--trust-remote-code"], version
        assert matches(table, "--mem-frac") == ["--mem-fraction-static"], version
        # an exact name always wins over longer names it prefixes
        for exact in ("--ep", "--model"):
            assert exact in table.by_name and len(matches(table, exact)) >= 2, (version, exact)
        unified = matches(table, "--enable-unified")
        if v(version) <= (0, 5, 14):
            assert unified == [], version
        elif v(version) <= (0, 5, 19):
            assert unified == ["--enable-unified-memory"], version
        else:
            assert is_ambiguous(table, "--enable-unified"), version
        assert is_ambiguous(table, "--page") == (version == "0.5.23"), version
        if v(version) >= (0, 5, 9):
            assert matches(table, "--attn-cp") == ["--attn-cp-size"], version
    assert matches(tables["0.5.23"], "--page") == ["--page-size", "--paged-experts-num-resident"]


# ---------------------------------------------------------------------------
# Help texts (issue 24: the editor's hover)
# ---------------------------------------------------------------------------

SUPPRESSED = "==SUPPRESS=="  # help=argparse.SUPPRESS, as the generator records it


def test_help_texts_are_sglangs(tables):
    table = tables["0.5.23"]
    # sglang-0.5.23 wheel, sglang/srt/arg_groups/fields/parallel.py:48 (Arg(help=...))
    tp = option(table, "--tp-size")
    assert tp is option(table, "--tensor-parallel-size")
    assert tp.help == "The tensor parallelism size."
    # srt/server_args.py:422-423 (add_argument, implicit concatenation)
    assert option(table, "--enable-dp-attention").help == (
        "Deprecated. Use --attn-dp-size <dp-size> instead of --dp-size <dp-size> --enable-dp-attention."
    )
    # srt/arg_groups/fields/disagg.py:57 (the bare string of A[T, "help"])
    assert option(table, "--disaggregation-mode").help.startswith(
        'Only used for PD disaggregation. "prefill" for prefill-only server'
    )
    # srt/arg_groups/fields/serving.py:66: port: A[int, "The port of the HTTP server."]
    assert option(table, "--port").help == "The port of the HTTP server."
    # srt/arg_groups/fields/model.py:113-114: "..." f"\n\n{human_readable_int.__doc__}",
    # the docstring of srt/utils/common.py:3395 as CPython 3.11 keeps it
    context = option(table, "--context-length").help
    assert context.startswith("The model's maximum context length. Defaults to None")
    assert "\n\nSupports standard SI suffixes (k, M, G, T) and IEC suffixes\n    (Ki, Mi, Gi, Ti)." in context
    # srt/arg_groups/fields/observability.py:158: Arg(help=argparse.SUPPRESS)
    assert option(table, "--forward-pass-metrics-worker-id").help == SUPPRESSED
    # 0.5.4 wheel, srt/server_args.py:2947 (before the deprecation)
    assert option(tables["0.5.4"], "--enable-dp-attention").help.startswith(
        "Enabling data parallelism for attention and tensor parallelism for FFN."
    )
    # 0.5.4 srt/server_args.py:2411: parser.add_argument("--enable-beta-spec", action="store_true")
    assert option(tables["0.5.4"], "--enable-beta-spec").help == ""
    # 0.5.20 srt/server_args.py:370: f"Options include: {reasoning_parser_choices}." over
    # list(ReasoningParser.DetectorMap.keys()): formatted as Python prints the list
    reasoning = option(tables["0.5.20"], "--reasoning-parser")
    assert f"Options include: {[c for c in reasoning.choices if c != 'auto']}." in reasoning.help
    # argparse's own -h/--help
    assert option(table, "--help").help == "show this help message and exit"
    # diffusion server, 0.5.23 multimodal_gen/runtime/server_args/server_args.py:2436
    diffusion = load_diffusion_table("0.5.23")
    assert diffusion is not None and option(diffusion, "--num-gpus").help == "The number of GPUs to use."


def test_help_coverage():
    # Observed when generated: LLM tables 98.9% (0.5.4: three add_argument calls
    # without help=) to 100%; diffusion tables 98.7% (0.5.9: one SUPPRESS) to 100%.
    for version in VERSIONS:
        for table in (load_table(version), load_diffusion_table(version)):
            if table is None:
                continue
            with_help = [o for o in table.options if o.help not in ("", SUPPRESSED)]
            assert len(with_help) / len(table.options) >= 0.98, (version, len(with_help), len(table.options))


def test_option_facts():
    assert option_facts("--tp") is None  # an abbreviation of --tp-size, not a name
    assert option_facts("--no-such-option") is None
    tp = option_facts("--tp-size")
    assert msgspec.structs.replace(tp, name="--tensor-parallel-size") == option_facts("--tensor-parallel-size")
    assert (tp.version, tp.help, tp.type, tp.default, tp.choices, tp.action) == (
        "0.5.23", "The tensor parallelism size.", "int", "1", None, "store"
    )
    assert tp.versions == VERSIONS and tp.deprecated_in == ()
    ep = option_facts("--ep")  # a short full name
    assert ep is not None and ep.versions == VERSIONS
    # added in 0.5.22
    attn_dp = option_facts("--attn-dp-size")
    assert attn_dp.versions == ("0.5.22", "0.5.23")
    assert attn_dp.versions == tuple(r for r in VERSIONS if "--attn-dp-size" in load_table(r).by_name)
    # added in 0.5.8 (server_args.py:3998), absent from 0.5.10 and 0.5.11, back in
    # 0.5.12 (server_args.py:6314)
    sparse = option_facts("--hierarchical-sparse-attention-extra-config")
    assert sparse.versions == tuple(r for r in VERSIONS if v(r) >= (0, 5, 8) and r not in ("0.5.10", "0.5.11"))
    # a DeprecatedStoreTrueAction from 0.5.22 on
    dp_attention = option_facts("--enable-dp-attention")
    assert dp_attention.deprecated_in == ("0.5.22", "0.5.23")
    assert (dp_attention.action, dp_attention.default, dp_attention.type) == ("store_true", "False", None)
    assert dp_attention.help.startswith("Deprecated. Use --attn-dp-size")
    mode = option_facts("--disaggregation-mode")
    assert (mode.choices, mode.default) == (("null", "prefill", "decode"), "'null'")
    # removed after 0.5.19: the facts are its last release's
    stream = option_facts("--stream-output")
    assert stream.version == "0.5.19" and stream.versions[-1] == "0.5.19"
    assert stream.deprecated_in == tuple(r for r in VERSIONS if (0, 5, 10) <= v(r) <= (0, 5, 19))
    assert stream.help == "[Deprecated] Use --incremental-streaming-output instead."
    # the diffusion server's tables (0.5.9 on)
    gpus = option_facts("--num-gpus", diffusion=True)
    assert gpus is not None and gpus.versions == VERSIONS[1:] and gpus.help == "The number of GPUs to use."
    assert option_facts("--attn-dp-size", diffusion=True) is None


# ---------------------------------------------------------------------------
# Cross-check with the shared reference tables
# ---------------------------------------------------------------------------


def _reference_dest(text: str) -> str:
    # the reference keeps source text: an explicit dest="x" reads '"x"'
    return ast.literal_eval(text) if text[:1] in "\"'" else text


@pytest.mark.parametrize("version", REFERENCE_VERSIONS)
def test_names_and_dests_match_reference(version):
    path = REFERENCE_DIR / f"cli_{version}.json"
    if not path.exists():
        pytest.skip(f"no reference table {path}")
    reference = json.loads(path.read_text(encoding="utf-8"))
    theirs = {name: _reference_dest(entry["dest"]) for entry in reference for name in entry["names"]}
    table = load_table(version)
    ours = {}
    for opt in table.options:
        if opt.action == "help":
            continue  # the reference leaves out argparse's -h/--help
        for name in opt.names:
            if opt.action == "boolean_optional" and name.startswith("--no-"):
                continue  # and the --no-x names BooleanOptionalAction adds
            ours[name] = opt.dest
    assert sorted(set(ours) - set(theirs)) == []
    assert sorted(set(theirs) - set(ours)) == []
    assert {n: d for n, d in ours.items() if theirs[n] != d} == {}
