"""Tests of sglang_lint.catalog.argv (and config_merge, argv_words,
argparse_emulation, option_values below it): SGLang's argv as argparse reads it.

Facts encoded here were read from the released wheels (paths inside the wheel):
- argparse: CPython 3.11 ``argparse.py`` ``_parse_optional``, ``_get_option_tuples``,
  ``consume_optional`` (sglang's wheels are cp311; 3.10 and 3.12.1 behave the same).
- ``sglang/srt/server_args.py`` 0.5.23 L668-720 ``prepare_server_args``: a parser
  with default ``allow_abbrev``; ``"--config" in argv`` triggers the merge (L683).
- ``sglang/srt/utils/server_args_config_parser.py`` 0.5.23 (L17-210) and 0.5.19-0.5.22,
  ``sglang/srt/server_args_config_parser.py`` 0.5.4 and 0.5.9-0.5.18: the merger.
- ``sglang/cli/serve.py`` 0.5.23 L30-66: ``--model-type`` removal, positional model.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sglang_lint.catalog.argv import parse_server_args
from sglang_lint.catalog.config_merge import ConfigEntry, ConfigFile, load_config_yaml
from sglang_lint.catalog.option_values import DEFAULT_NONE_REASON, flag_state, is_default_none
from sglang_lint.catalog.tables import Option, OptionTable, known_versions, load_table
from sglang_lint.model import ArgToken, EntryPoint, Kind, Location, Value, provably_equal

# ---------------------------------------------------------------------------------
# Helpers


def tokens(*words: str | Value, path: str = "run.sh", line: int = 1) -> list[ArgToken]:
    """ArgTokens for the words, one column apart so that locations differ."""
    result = []
    column = 1
    for word in words:
        value = Value.known(word) if isinstance(word, str) else word
        result.append(ArgToken(value, Location(path, line, column)))
        column += len(value.describe()) + 1
    return result


def spread(name: str = '"$@"', column: int = 99) -> ArgToken:
    return ArgToken(Value.symbol(name), Location("run.sh", 1, column), spread=True)


def kinds(result) -> list[str]:
    return [p.kind for p in result.problems]


def text(result, dest: str) -> str:
    value = result.get(dest).value
    assert value.is_known, f"{dest} is {value.describe()}"
    return value.text


HELP = Option(("-h", "--help"), "help", action="help")
CONFIG = Option(("--config",), "config", type="str")


def table_0523() -> OptionTable:
    """A small table shaped like sglang 0.5.23's options (names and actions from
    reference/sglang-cli/cli_0.5.23.json)."""
    return OptionTable(
        "0.5.23",
        [
            HELP,
            Option(("--model-path", "--model"), "model_path", type="str"),
            Option(("--model-impl",), "model_impl", type="str", default="auto"),
            Option(("--modelopt-quant",), "modelopt_quant", type="str"),
            Option(("--tp-size", "--tensor-parallel-size"), "tp_size", type="int", default=1),
            Option(("--dp-size", "--data-parallel-size"), "dp_size", type="int", default=1),
            Option(("--attn-dp-size", "--attention-data-parallel-size"), "attn_dp_size", type="int", default=1),
            Option(("--attn-cp-size", "--attention-context-parallel-size"), "attn_cp_size", type="int", default=1),
            Option(("--pp-size", "--pipeline-parallel-size"), "pp_size", type="int", default=1),
            Option(("--pp-max-micro-batch-size",), "pp_max_micro_batch_size", type="int"),
            Option(("--ep-size", "--expert-parallel-size", "--ep"), "ep_size", type="int", default=1),
            Option(("--ep-dispatch-algorithm",), "ep_dispatch_algorithm", type="str"),
            Option(("--enable-dp-attention",), "enable_dp_attention", action="store_true", deprecated=True),
            Option(("--enable-dp-lm-head",), "enable_dp_lm_head", action="store_true", default=False),
            Option(("--enable-unified-memory",), "enable_unified_memory", action="store_true", default=False),
            Option(
                ("--enable-unified-cache-external-linker",),
                "enable_unified_cache_external_linker",
                action="store_true",
                default=False,
            ),
            Option(("--page-size",), "page_size", type="int"),
            Option(("--page-ahead",), "page_ahead", type="int", default=0),
            Option(("--kv-cache-dtype",), "kv_cache_dtype", type="str", default="auto"),
            Option(
                ("--disaggregation-mode",),
                "disaggregation_mode",
                type="str",
                default="null",
                choices=("null", "prefill", "decode"),
            ),
            Option(("--mem-fraction-static",), "mem_fraction_static", type="float"),
            Option(("--trust-remote-code",), "trust_remote_code", action="store_true", default=False),
            Option(("--cuda-graph-bs",), "cuda_graph_bs", type="int", nargs="+"),
            Option(("--lora-paths",), "lora_paths", type="str", nargs="*"),
            Option(("--json-model-override-args",), "json_model_override_args", type="str", default="{}"),
            Option(("--enable-metrics",), "enable_metrics", action="boolean_optional"),
            Option(("--no-enable-metrics",), "enable_metrics", action="boolean_optional"),
            Option(("--disable-radix-cache",), "disable_radix_cache", action="store_true", default=False),
            Option(("--host",), "host", type="str", default="127.0.0.1"),
            Option(("--port",), "port", type="int", default=30000),
            CONFIG,
        ],
    )


def table_0519() -> OptionTable:
    """0.5.19: --enable-unified-memory exists, --enable-unified-cache-external-linker
    does not (reference/sglang-cli/cli_0.5.19.json); no --attn-dp-size."""
    return OptionTable(
        "0.5.19",
        [
            HELP,
            Option(("--model-path", "--model"), "model_path", type="str"),
            Option(("--tp-size", "--tensor-parallel-size"), "tp_size", type="int", default=1),
            Option(("--dp-size", "--data-parallel-size"), "dp_size", type="int", default=1),
            Option(("--enable-dp-attention",), "enable_dp_attention", action="store_true", default=False),
            Option(("--enable-dp-lm-head",), "enable_dp_lm_head", action="store_true", default=False),
            Option(("--enable-unified-memory",), "enable_unified_memory", action="store_true", default=False),
            Option(("--page-size",), "page_size", type="int"),
            CONFIG,
        ],
    )


def table_059() -> OptionTable:
    """0.5.9: dests are the first long name (server_args.py 0.5.9 L3301-3307 declares
    "--tensor-parallel-size", "--tp-size" -> dest tensor_parallel_size)."""
    return OptionTable(
        "0.5.9",
        [
            HELP,
            Option(("--model-path", "--model"), "model_path", type="str"),
            Option(("--tensor-parallel-size", "--tp-size"), "tensor_parallel_size", type="int", default=1),
            Option(("--data-parallel-size", "--dp-size"), "data_parallel_size", type="int", default=1),
            Option(("--enable-dp-attention",), "enable_dp_attention", action="store_true", default=False),
            Option(("--enable-metrics",), "enable_metrics", action="store_true", default=False),
            Option(("--json-model-override-args",), "json_model_override_args", type="str", default="{}"),
            Option(("--disable-x",), "x", action="store_false"),
            CONFIG,
        ],
    )


# ---------------------------------------------------------------------------------
# Long options, aliases, =value


def test_long_option_with_separate_value():
    result = parse_server_args(tokens("--tp-size", "8"), table_0523())
    setting = result.get("tp_size")
    assert setting.value == Value.known("8")
    assert setting.spelling == "--tp-size"
    assert setting.location == Location("run.sh", 1, 1, 1, 11)  # from --tp-size to the 8
    assert result.problems == []


def test_alias_sets_the_same_dest():
    result = parse_server_args(tokens("--tensor-parallel-size", "4"), table_0523())
    assert text(result, "tp_size") == "4"
    assert result.get("tp_size").spelling == "--tensor-parallel-size"


def test_equals_form():
    result = parse_server_args(tokens("--tp-size=2"), table_0523())
    assert text(result, "tp_size") == "2"
    assert result.get("tp_size").spelling == "--tp-size"


def test_equals_form_with_abbreviation():
    # sglang-semantics.md section 3: "--flag=value works (also with a prefix: --tp=2)".
    result = parse_server_args(tokens("--tp=2"), table_0523())
    assert text(result, "tp_size") == "2"
    assert result.get("tp_size").spelling == "--tp"
    assert result.problems == []


def test_equals_with_empty_value_is_an_invalid_int():
    # argparse: "--tp-size=" gives the explicit argument '' -> invalid int value: ''.
    result = parse_server_args(tokens("--tp-size="), table_0523())
    assert kinds(result) == ["invalid-value"]


def test_int_values_are_normalized_so_equal_numbers_compare_equal():
    result = parse_server_args(tokens("--tp-size", "08"), table_0523())
    assert text(result, "tp_size") == "8"


def test_last_occurrence_wins():
    result = parse_server_args(tokens("--tp-size", "8", "--tp", "4", "--tensor-parallel-size", "2"), table_0523())
    assert text(result, "tp_size") == "2"
    assert result.get("tp_size").spelling == "--tensor-parallel-size"


# ---------------------------------------------------------------------------------
# Abbreviations and ambiguity


def test_unique_prefix_is_accepted():
    result = parse_server_args(tokens("--tp", "8", "--dp", "2", "--attn-cp", "2", "--trust-remote", "--mem-frac", "0.8"), table_0523())
    assert (text(result, "tp_size"), text(result, "dp_size"), text(result, "attn_cp_size")) == ("8", "2", "2")
    assert text(result, "trust_remote_code") == "true"
    assert text(result, "mem_fraction_static") == "0.8"
    assert result.problems == []


def test_pp_is_ambiguous():
    # sglang-semantics.md section 3: --pp is always ambiguous (--pp-size, --pp-max-micro-batch-size).
    result = parse_server_args(tokens("--pp", "2"), table_0523())
    assert kinds(result) == ["ambiguous"]
    problem = result.problems[0]
    assert problem.option == "--pp"
    assert problem.candidates == ("--pp-size", "--pp-max-micro-batch-size")
    assert problem.location == Location("run.sh", 1, 1)
    # argparse exits; the value word is not reported a second time. What --pp
    # would have set is unknown (issue 18): not the default 1 to compare.
    assert not result.get("pp_size").value.is_known
    assert "ambiguous option --pp at run.sh:1" in result.get("pp_size").value.describe()


def test_nothing_after_an_ambiguous_option_is_reported():
    # Issue 23 (the released 0.5.23 table: --cuda-graph-bs-decode and
    # --cuda-graph-bs-prefill, no --cuda-graph-bs): argparse raises "ambiguous option" while classifying the words
    # (_parse_optional), before consuming any; --cuda-graph-bs 8 16 is that one
    # error, not also "unrecognized argument '16'" (the values of an option we
    # cannot name are a guess), nor the later unknown option and bad value.
    result = parse_server_args(
        tokens("--cuda-graph-bs", "8", "16", "--tp-szie", "2", "--port", "eight", "stray"), load_table("0.5.23")
    )
    assert kinds(result) == ["ambiguous"]
    assert result.problems[0].option == "--cuda-graph-bs"


def test_problems_before_an_ambiguous_option_are_kept():
    # Real errors that argparse shows once the ambiguous option is spelled out.
    result = parse_server_args(tokens("--tp-size", "eight", "--tp-szie", "2", "--pp", "2", "16"), load_table("0.5.23"))
    assert kinds(result) == ["invalid-value", "unknown", "ambiguous"]


def test_words_after_an_unknown_option_are_its_values():
    # argparse puts "--cuda-graph-batch-sizes 1 2 4 8 16" into one "unrecognized
    # arguments" error. No option of any release is named so or close to it:
    # which words were meant as its values is unknown, so every argument word
    # up to the next option goes with it.
    result = parse_server_args(tokens("--cuda-graph-batch-sizes", "1", "2", "4", "--port", "30000"), load_table("0.5.23"))
    assert kinds(result) == ["unknown"]
    assert result.problems[0].option == "--cuda-graph-batch-sizes"
    assert text(result, "port") == "30000"


# ---------------------------------------------------------------------------------
# No cascades (issue 18): an ambiguous or unknown option takes the words its
# candidates' nargs would take, and what they would have set is unknown


def test_a_typo_takes_the_values_of_the_option_it_names():
    # --tp-szie is --tp-size misspelt (nargs None): "8" is its value; "16" is a
    # mistake of its own, which argparse still reports once the typo is fixed.
    result = parse_server_args(tokens("--tp-szie", "8", "16", "--port", "30000"), load_table("0.5.23"))
    assert kinds(result) == ["unknown", "unknown"]
    assert result.problems[0].option == "--tp-szie"
    assert result.problems[1].option == "" and "'16'" in result.problems[1].message
    assert text(result, "port") == "30000"


def test_a_typo_makes_the_setting_it_meant_unknown():
    # Not the default 1: a rule comparing tp sizes would report the typo again.
    result = parse_server_args(tokens("--tp-szie", "8"), load_table("0.5.23"))
    setting = result.get("tp_size")
    assert not setting.value.is_known
    assert "--tp-szie" in setting.value.describe()


def test_a_typo_with_equals_takes_no_further_word():
    # "--tp-size=8 16": an option given "=VALUE" takes that value only.
    result = parse_server_args(tokens("--tp-szie=8", "16"), load_table("0.5.23"))
    assert kinds(result) == ["unknown", "unknown"]
    assert "'16'" in result.problems[1].message


def test_a_typo_of_a_flag_takes_no_value():
    # --enable-dp-atention names the flag --enable-dp-attention: "true" is a
    # word of its own (argparse refuses it after the fix too).
    result = parse_server_args(tokens("--enable-dp-atention", "true", "--tp", "2"), load_table("0.5.23"))
    assert kinds(result) == ["unknown", "unknown"]
    assert "'true'" in result.problems[1].message
    assert text(result, "tp_size") == "2"


def test_an_unknown_option_followed_by_a_flag():
    # The flag is an option word: never taken as a value, and set.
    result = parse_server_args(tokens("--tp-szie", "--enable-dp-attention"), load_table("0.5.23"))
    assert kinds(result) == ["unknown"]
    assert text(result, "enable_dp_attention") == "true"


def test_an_option_of_another_release_takes_its_values_there():
    # --enable-unified-memory (a flag from 0.5.15) is unknown in 0.5.14: it
    # takes no value in the releases that have it, so "true" is a stray of its own.
    if "0.5.14" not in known_versions():
        pytest.skip("no table for 0.5.14")
    result = parse_server_args(tokens("--enable-unified-memory", "true"), load_table("0.5.14"))
    assert kinds(result) == ["unknown", "unknown"]


def test_ambiguous_option_whose_matches_take_a_list():
    # 0.5.23: --cuda-graph-bs-decode and --cuda-graph-bs-prefill both take
    # nargs="+": the numbers and the unseen "$MORE_BS" are its values, so
    # "$MORE_BS" is no opaque word that could override earlier settings.
    result = parse_server_args(
        tokens("--tp-size", "4", "--cuda-graph-bs", "8", "16", Value.symbol("$MORE_BS"), "--port", "1"), load_table("0.5.23")
    )
    assert kinds(result) == ["ambiguous"]
    assert result.opaque == []
    assert text(result, "tp_size") == "4"
    assert not result.get("cuda_graph_bs_decode").value.is_known
    assert not result.get("cuda_graph_bs_prefill").value.is_known


def test_ambiguous_flags_take_no_value():
    # --enable-dp matches two flags: the unseen word after it is not its value.
    result = parse_server_args(tokens("--enable-dp", Value.symbol("$EXTRA")), table_0523())
    assert kinds(result) == ["ambiguous"]
    assert len(result.opaque) == 1


def test_ambiguous_option_whose_matches_disagree_takes_every_argument_word():
    # --c matches --cuda-graph-bs (nargs "+") and --config (one value): the words
    # up to the next option may all be its values, "$X" included (not opaque).
    result = parse_server_args(tokens("--c", "8", "16", Value.symbol("$X"), "--tp", "2"), table_0523())
    assert kinds(result) == ["ambiguous"]
    assert result.opaque == []
    assert text(result, "tp_size") == "2"
    assert not result.get("cuda_graph_bs").value.is_known


def test_ambiguous_option_whose_matches_agree_takes_one_value():
    # --mode matches --model-path, --model, --model-impl, --modelopt-quant, each
    # taking one value: "m" is its value, "$X" after it may be options (opaque).
    result = parse_server_args(tokens("--mode", "m", Value.symbol("$X"), "--tp", "2"), table_0523())
    assert kinds(result) == ["ambiguous"]
    assert len(result.opaque) == 1
    assert not result.get("model_path").value.is_known


def test_a_later_spelled_out_option_wins_over_the_ambiguous_one():
    result = parse_server_args(tokens("--pp", "2", "--pp-size", "2"), table_0523())
    assert kinds(result) == ["ambiguous"]
    assert text(result, "pp_size") == "2"
    result = parse_server_args(tokens("--pp-size", "2", "--pp", "2"), table_0523())
    assert not result.get("pp_size").value.is_known


def test_a_refused_value_is_not_a_setting():
    # argparse exits on "6x4": the server never runs with it, and a rule
    # comparing page sizes would report the same mistake again.
    result = parse_server_args(tokens("--page-size", "6x4", "--kv-cache-dtype", "fp8"), load_table("0.5.23"))
    assert kinds(result) == ["invalid-value", "invalid-value"]
    page = result.get("page_size")
    assert not page.value.is_known and page.written == Value.known("6x4")
    assert not result.get("kv_cache_dtype").value.is_known


def test_a_plugin_choice_stays_a_setting():
    # A value outside an extensible choices list may be a plugin's (SGL203 skips it).
    result = parse_server_args(tokens("--attention-backend", "my_plugin_attn"), load_table("0.5.23"))
    assert text(result, "attention_backend") == "my_plugin_attn"


def test_enable_dp_is_ambiguous():
    result = parse_server_args(tokens("--enable-dp"), table_0523())
    assert kinds(result) == ["ambiguous"]
    assert result.problems[0].candidates == ("--enable-dp-attention", "--enable-dp-lm-head")


def test_enable_unified_depends_on_the_version():
    # Unique in 0.5.15-0.5.19; ambiguous from 0.5.20 (--enable-unified-cache-external-linker).
    old = parse_server_args(tokens("--enable-unified"), table_0519())
    assert old.problems == []
    assert text(old, "enable_unified_memory") == "true"
    new = parse_server_args(tokens("--enable-unified"), table_0523())
    assert kinds(new) == ["ambiguous"]
    assert set(new.problems[0].candidates) == {"--enable-unified-memory", "--enable-unified-cache-external-linker"}


def test_page_is_ambiguous_with_page_ahead():
    result = parse_server_args(tokens("--page", "16"), table_0523())
    assert kinds(result) == ["ambiguous"]


def test_exact_match_wins_over_prefix():
    # "--ep" is an alias of --ep-size and a prefix of --ep-dispatch-algorithm;
    # "--model" is an alias of --model-path and a prefix of --model-impl.
    result = parse_server_args(tokens("--ep", "8", "--model", "m"), table_0523())
    assert result.problems == []
    assert text(result, "ep_size") == "8"
    assert text(result, "model_path") == "m"


def test_prefix_of_two_spellings_of_one_option_is_still_ambiguous():
    # argparse 3.11 counts option strings, not actions: "--tensor" would match
    # only --tensor-parallel-size, but "--mode" matches --model-path, --model,
    # --model-impl, --modelopt-quant.
    result = parse_server_args(tokens("--mode", "x"), table_0523())
    assert kinds(result) == ["ambiguous"]
    assert "--model" in result.problems[0].candidates


def test_equals_with_an_ambiguous_prefix():
    result = parse_server_args(tokens("--pp=2"), table_0523())
    assert kinds(result) == ["ambiguous"]


# ---------------------------------------------------------------------------------
# Unknown options and stray words


def test_unknown_option():
    result = parse_server_args(tokens("--tp-sizes", "8"), table_0523())
    assert kinds(result) == ["unknown"]
    assert result.problems[0].option == "--tp-sizes"
    # The option it most likely means is unknown, not at its default (issue 18).
    assert not result.get("tp_size").value.is_known


def test_positional_word_is_rejected():
    result = parse_server_args(tokens("--tp", "8", "extra"), table_0523())
    assert kinds(result) == ["unknown"]
    assert "extra" in result.problems[0].message


def test_value_after_store_true_is_an_unrecognized_argument():
    result = parse_server_args(tokens("--enable-unified-memory", "true"), table_0523())
    assert kinds(result) == ["unknown"]
    assert "--enable-unified-memory takes no value" in result.problems[0].message
    assert text(result, "enable_unified_memory") == "true"


def test_double_dash_ends_options():
    # argparse: "--" and everything after it are arguments; SGLang has no positionals.
    result = parse_server_args(tokens("--tp", "8", "--", "--dp", "2"), table_0523())
    assert kinds(result) == ["unknown", "unknown", "unknown"]
    assert text(result, "dp_size") == "1"


def test_single_dash_word_is_unknown():
    result = parse_server_args(tokens("-tp", "8"), table_0523())
    assert kinds(result)[0] == "unknown"


# ---------------------------------------------------------------------------------
# Flags


def test_store_true_value_is_true_and_default_false():
    result = parse_server_args(tokens("--trust-remote-code"), table_0523())
    assert result.get("trust_remote_code").value == Value.known("true")
    assert result.get("disable_radix_cache").value == Value.known("false")
    assert flag_state(result.get("trust_remote_code")) is True


def test_store_true_with_equals_value_is_invalid():
    result = parse_server_args(tokens("--enable-dp-attention=true"), table_0523())
    assert kinds(result) == ["invalid-value"]
    # argparse exits before taking the action.
    assert flag_state(result.get("enable_dp_attention")) is False


def test_store_true_without_declared_default_is_false():
    # DeprecatedStoreTrueAction (srt/arg_groups/argparse_actions.py 0.5.23 L77-100)
    # defaults to False, like argparse's store_true.
    result = parse_server_args([], table_0523())
    assert result.get("enable_dp_attention").value == Value.known("false")


def test_store_false():
    result = parse_server_args(tokens("--disable-x"), table_059())
    assert text(result, "x") == "false"
    assert text(parse_server_args([], table_059()), "x") == "true"


def test_boolean_optional():
    table = table_0523()
    assert text(parse_server_args(tokens("--enable-metrics"), table), "enable_metrics") == "true"
    assert text(parse_server_args(tokens("--no-enable-metrics"), table), "enable_metrics") == "false"
    assert is_default_none(parse_server_args([], table).get("enable_metrics"))


def test_deprecated_store_const_with_choices_takes_a_value():
    # --monokernel-backend amd: DeprecatedStoreConstAction(nargs=None, choices=["amd"],
    # const_value=True) (server_args.py 0.5.23 L425-436): it takes one value word.
    table = OptionTable(
        "0.5.23",
        [HELP, Option(("--monokernel-backend",), "enable_amd_monokernel", action="store_const", const=True,
                      choices=("amd",), deprecated=True, default=False)],
    )
    result = parse_server_args(tokens("--monokernel-backend", "amd"), table)
    assert result.problems == []
    assert text(result, "enable_amd_monokernel") == "true"
    assert kinds(parse_server_args(tokens("--monokernel-backend", "nvidia"), table)) == ["invalid-value"]


def test_help_is_not_a_setting():
    result = parse_server_args(tokens("--help"), table_0523())
    assert result.problems == []
    assert not result.has_option("help")


# ---------------------------------------------------------------------------------
# nargs, types, choices, missing values


def test_nargs_plus_takes_every_following_value():
    result = parse_server_args(tokens("--cuda-graph-bs", "1", "2", "04", "--tp", "2"), table_0523())
    assert text(result, "cuda_graph_bs") == "1 2 4"
    assert text(result, "tp_size") == "2"


def test_nargs_plus_without_values():
    result = parse_server_args(tokens("--cuda-graph-bs", "--tp", "2"), table_0523())
    assert kinds(result) == ["invalid-value"]
    assert "expected at least one argument" in result.problems[0].message


def test_nargs_star_may_take_nothing():
    result = parse_server_args(tokens("--lora-paths", "--tp", "2"), table_0523())
    assert result.problems == []
    assert text(result, "lora_paths") == ""


def test_nargs_fixed_count():
    table = OptionTable("0.5.23", [HELP, Option(("--pair",), "pair", nargs=2), Option(("--tp-size",), "tp_size", type="int", default=1)])
    assert text(parse_server_args(tokens("--pair", "a", "b"), table), "pair") == "a b"
    assert kinds(parse_server_args(tokens("--pair", "a", "--tp-size", "2"), table)) == ["invalid-value"]
    assert kinds(parse_server_args(tokens("--pair=a"), table)) == ["invalid-value"]


def test_nargs_optional_uses_const_without_value():
    table = OptionTable("0.5.23", [HELP, Option(("--opt",), "opt", nargs="?", const="C", default="D")])
    assert text(parse_server_args(tokens("--opt"), table), "opt") == "C"
    assert text(parse_server_args(tokens("--opt", "v"), table), "opt") == "v"
    assert text(parse_server_args([], table), "opt") == "D"


def test_negative_number_is_a_value():
    # argparse: "-1" is an argument when no option looks like a negative number.
    result = parse_server_args(tokens("--port", "-1", "--mem-fraction-static", "-.5"), table_0523())
    assert result.problems == []
    assert text(result, "port") == "-1"
    assert text(result, "mem_fraction_static") == "-.5"


def test_negative_number_is_an_option_when_the_parser_has_such_options():
    table = OptionTable("0.5.23", [HELP, Option(("-1",), "one", action="store_true"), Option(("--port",), "port", type="int")])
    result = parse_server_args(tokens("--port", "-1"), table)
    assert kinds(result) == ["invalid-value"]  # expected one argument
    assert text(result, "one") == "true"


def test_value_starting_with_dashes_is_an_option_not_a_value():
    result = parse_server_args(tokens("--model-path", "--tp", "2"), table_0523())
    assert kinds(result) == ["invalid-value"]
    assert "expected one argument" in result.problems[0].message


def test_missing_value_at_the_end():
    result = parse_server_args(tokens("--tp"), table_0523())
    assert kinds(result) == ["invalid-value"]


def test_invalid_int():
    result = parse_server_args(tokens("--tp", "eight"), table_0523())
    assert kinds(result) == ["invalid-value"]
    problem = result.problems[0]
    assert problem.location == Location("run.sh", 1, 6)  # the value word
    assert "invalid int value: 'eight'" in problem.message


def test_invalid_float():
    assert kinds(parse_server_args(tokens("--mem-fraction-static", "most"), table_0523())) == ["invalid-value"]
    assert kinds(parse_server_args(tokens("--mem-fraction-static", "1e-1"), table_0523())) == []


def test_choices():
    table = table_0523()
    assert kinds(parse_server_args(tokens("--disaggregation-mode", "prefil"), table)) == ["invalid-value"]
    assert text(parse_server_args(tokens("--disaggregation-mode", "decode"), table), "disaggregation_mode") == "decode"


def test_choices_with_alternatives_and_defaults():
    table = table_0523()
    some_valid = Value.one_of([Value.known("prefill"), Value.known("bogus")])
    assert kinds(parse_server_args(tokens("--disaggregation-mode", some_valid), table)) == []
    none_valid = Value.one_of([Value.known("x"), Value.known("y")])
    assert kinds(parse_server_args(tokens("--disaggregation-mode", none_valid), table)) == ["invalid-value"]
    # The default of ${MODE:-prefil} counts as its value (design.md "Values").
    bad_default = Value.symbol("$MODE", "prefil")
    result = parse_server_args(tokens("--disaggregation-mode", bad_default), table)
    assert kinds(result) == ["invalid-value"]
    assert "default of $MODE" in result.problems[0].message
    assert kinds(parse_server_args(tokens("--disaggregation-mode", Value.symbol("$MODE")), table)) == []


# ---------------------------------------------------------------------------------
# Defaults


def test_every_option_has_a_setting():
    table = table_0523()
    result = parse_server_args([], table)
    assert set(result.values) == {o.dest for o in table.options if o.action != "help"}
    assert all(s.is_default for s in result.values.values())
    assert result.get("tp_size").value == Value.known("1")
    assert result.get("kv_cache_dtype").value == Value.known("auto")


def test_default_none_is_distinct_from_the_string_none():
    table = table_0523()
    default = parse_server_args([], table).get("page_size")
    assert is_default_none(default)
    assert default.value == Value.unknown(DEFAULT_NONE_REASON)
    assert not provably_equal(default.value, default.value)  # resolved at startup, per server
    written = parse_server_args(tokens("--model-path", "None"), table).get("model_path")
    assert written.value == Value.known("None")
    assert not is_default_none(written)


def test_default_that_is_not_a_literal_is_unknown():
    table = OptionTable("0.5.23", [Option(("--x",), "x", default=None, default_source="os.cpu_count()")])
    value = parse_server_args([], table).get("x").value
    assert value.kind is Kind.UNKNOWN
    assert "os.cpu_count()" in value.reason


def test_missing_dest_reads_as_unknown():
    result = parse_server_args([], table_0519())
    assert not result.has_option("attn_dp_size")
    assert result.get("attn_dp_size").value.kind is Kind.UNKNOWN


# ---------------------------------------------------------------------------------
# Values we cannot fully see


def test_symbol_value_is_kept():
    tp = Value.symbol("$TP", "8")
    origin = Location("run.sh", 1, 1)
    token = ArgToken(tp, Location("run.sh", 3, 11), origin=origin)
    result = parse_server_args([ArgToken(Value.known("--tp-size"), Location("run.sh", 3, 1)), token], table_0523())
    setting = result.get("tp_size")
    assert setting.value == tp
    assert setting.origin == origin
    assert setting.location == Location("run.sh", 3, 1, 3, 11)


def test_equals_with_unknown_value():
    # "--tp=$TP": the name is known up to "=", so the option is.
    word = Value.concat([Value.known("--tp="), Value.symbol("$TP")])
    result = parse_server_args(tokens(word), table_0523())
    assert result.get("tp_size").value == Value.symbol("$TP")
    assert result.problems == []
    assert result.opaque == []


def test_equals_with_unknown_value_on_a_flag():
    word = Value.concat([Value.known("--trust-remote-code="), Value.symbol("$X")])
    assert kinds(parse_server_args(tokens(word), table_0523())) == ["invalid-value"]


def test_alternatives_naming_one_option():
    word = Value.one_of([Value.known("--tp-size=2"), Value.known("--tensor-parallel-size=4")])
    result = parse_server_args(tokens(word), table_0523())
    assert result.get("tp_size").value == Value.one_of([Value.known("2"), Value.known("4")])


def test_pass_through_word_is_assumed_to_add_no_options():
    # Issue 16 part 5: an $EXTRA_FLAGS the file never sets is passed through from
    # the caller: the options written stay final, and the word is remembered.
    flag = Value.symbol("$EXTRA_FLAGS")
    result = parse_server_args(tokens("--tp", "8", flag, "--dp", "2"), table_0523())
    assert result.opaque == [Location("run.sh", 1, 8)]
    assert result.passed_through == [(Location("run.sh", 1, 8), "$EXTRA_FLAGS")]
    assert text(result, "tp_size") == "8"
    assert result.get("enable_dp_attention").value == Value.known("false")


def test_unknown_option_word_is_opaque_and_overrides_earlier_settings():
    flag = Value.unknown("output of $(cat extra.flags)")
    result = parse_server_args(tokens("--tp", "8", flag, "--dp", "2"), table_0523())
    assert result.opaque == [Location("run.sh", 1, 8)]
    assert result.passed_through == []
    tp = result.get("tp_size")
    assert tp.value.kind is Kind.UNKNOWN
    assert "$(cat extra.flags)" in tp.value.reason and "run.sh:1" in tp.value.reason
    assert tp.written == Value.known("8")
    assert tp.location == Location("run.sh", 1, 1, 1, 6)
    # Defaults are set before everything, so they may be overridden too...
    assert result.get("enable_dp_attention").value.kind is Kind.UNKNOWN
    assert result.get("enable_dp_attention").written == Value.known("false")
    # ...but an option after the unseen word is final.
    assert text(result, "dp_size") == "2"
    assert result.problems == []


def test_spread_token_is_opaque():
    result = parse_server_args([*tokens("--tp", "8"), spread()], table_0523())
    assert result.opaque == [Location("run.sh", 1, 99)]
    assert result.get("tp_size").value.kind is Kind.UNKNOWN


def merged(*ways: tuple[str | Value, ...], column: int = 99) -> ArgToken:
    """A spread a merge of branches made (past the paths' bound), holding the
    words of one of ``ways``."""
    held = tuple(tuple(Value.known(word) if isinstance(word, str) else word for word in way) for way in ways)
    return ArgToken(Value.unknown("words of $ARGS that differ between branches"), Location("run.sh", 1, column), spread=True, held=held)


def test_a_merged_spread_may_set_only_the_options_its_ways_name():
    # `ARGS=""; [ -n "$KV" ] && ARGS="$ARGS --kv-cache-dtype $KV"; [ ... ] &&
    # ARGS="$ARGS --disable-radix-cache"` merged past the paths' bound, then
    # `launch_server --tp 8 $ARGS`: only what the branches wrote may change.
    ways = merged((), ("--kv-cache-dtype", Value.symbol("$KV")), ("--disable-radix-cache",))
    result = parse_server_args([*tokens("--tp", "8"), ways], table_0523())
    assert text(result, "tp_size") == "8"
    assert text(result, "dp_size") == "1"  # a default it cannot set
    assert result.get("kv_cache_dtype").value.kind is Kind.UNKNOWN
    assert result.get("disable_radix_cache").value.kind is Kind.UNKNOWN
    assert result.opaque == [Location("run.sh", 1, 99)]
    assert result.problems == []


@pytest.mark.parametrize("way", [("--tp", "4"), ("--tensor-parallel-size=4",), ("--tensor-parallel", "4"), ("--tp-size", Value.symbol("$TP"))])
def test_a_merged_spread_sets_the_dest_an_alias_or_abbreviation_names(way):
    result = parse_server_args([*tokens("--tp-size", "8"), merged((), way)], table_0523())
    assert result.get("tp_size").value.kind is Kind.UNKNOWN


def test_a_merged_spread_takes_the_words_after_an_option_as_its_values():
    # `--kv-cache-dtype $KV` takes `$KV` (a word we cannot see) as its value,
    # `--cuda-graph-bs` (a list) every word up to the next option.
    ways = merged(("--kv-cache-dtype", Value.symbol("$KV")), ("--cuda-graph-bs", "1", Value.symbol("$BS"), "--disable-radix-cache"))
    result = parse_server_args([*tokens("--tp", "8"), ways], table_0523())
    assert text(result, "tp_size") == "8"


@pytest.mark.parametrize(
    "way",
    [
        (Value.symbol("$FLAGS"),),  # a word we cannot see that no option takes
        ("--disable-radix-cache", Value.symbol("$MORE")),  # a flag takes no value
        ("--config", "extra.yaml"),  # a config file may set anything
        ("--", "x"),
    ],
)
def test_a_merged_spread_that_may_hold_any_option_makes_the_settings_before_it_unknown(way):
    result = parse_server_args([*tokens("--tp", "8"), merged((), way)], table_0523())
    assert result.get("tp_size").value.kind is Kind.UNKNOWN


@pytest.mark.parametrize(
    "way",
    [
        ("--enable-dp",),  # ambiguous: --enable-dp-attention, --enable-dp-lm-head
        ("--nsa-decode-backend", Value.symbol("$B")),  # unknown in 0.5.23
    ],
)
def test_an_option_argparse_refuses_in_a_merged_spread_sets_nothing_and_is_unchecked(way):
    """On a way holding it the launch fails (argparse exits), so it sets
    nothing there; the merge hides that problem, and the settings say so
    (analysis keeps the bound's note for it)."""
    spread = merged((), way)
    result = parse_server_args([*tokens("--tp", "8"), spread], table_0523())
    assert text(result, "tp_size") == "8"
    assert result.unchecked == [spread.location]
    assert parse_server_args([*tokens("--tp", "8"), merged((), ("--page-size", "16"))], table_0523()).unchecked == []


def test_option_before_a_spread_takes_its_value_from_it():
    result = parse_server_args([*tokens("--tp"), spread()], table_0523())
    assert result.problems == []
    assert result.get("tp_size").value.kind is Kind.UNKNOWN


def test_words_after_an_opaque_word_may_be_its_values():
    result = parse_server_args(tokens(Value.symbol("$OPT"), "8"), table_0523())
    assert result.problems == []


def test_partial_word_with_known_start_is_an_argument():
    word = Value.concat([Value.known("/models/"), Value.symbol("$M")])
    result = parse_server_args(tokens(word), table_0523())
    assert kinds(result) == ["unknown"]
    assert result.opaque == []


def test_partial_option_name_is_opaque():
    word = Value.concat([Value.known("--enable-"), Value.symbol("$FEATURE")])
    result = parse_server_args(tokens("--tp", "8", word), table_0523())
    assert len(result.opaque) == 1
    assert result.get("tp_size").value.kind is Kind.UNKNOWN


# ---------------------------------------------------------------------------------
# sglang serve and dynamo


def test_sglang_serve_positional_model():
    # cli/serve.py 0.5.23 L62-66: a first word not starting with "-" -> --model-path WORD.
    result = parse_server_args(tokens("Qwen/Qwen3-8B", "--tp", "2"), table_0523(), entry=EntryPoint.SGLANG_SERVE)
    assert result.problems == []
    model = result.get("model_path")
    assert model.value == Value.known("Qwen/Qwen3-8B")
    assert model.spelling == "sglang serve"
    assert model.location == Location("run.sh", 1, 1, 1, 1)
    assert text(result, "tp_size") == "2"


def test_sglang_serve_symbol_model():
    result = parse_server_args(tokens(Value.symbol("$MODEL"), "--tp", "2"), table_0523(), entry=EntryPoint.SGLANG_SERVE)
    assert result.get("model_path").value == Value.symbol("$MODEL")
    assert result.opaque == []


def test_sglang_serve_strips_model_type():
    # cli/serve.py 0.5.23 L30-59: "--model-type X" and "--model-type=X" are removed
    # (exact spelling) before the positional model is looked at.
    result = parse_server_args(
        tokens("--model-type", "llm", "org/model", "--model-type=llm", "--tp", "2"),
        table_0523(),
        entry=EntryPoint.SGLANG_SERVE,
    )
    assert result.problems == []
    assert text(result, "model_path") == "org/model"


def test_sglang_serve_model_type_before_a_spread_keeps_the_spread():
    result = parse_server_args(
        [*tokens("org/model", "--tp", "2", "--model-type"), spread()], table_0523(), entry=EntryPoint.SGLANG_SERVE
    )
    assert result.opaque == [Location("run.sh", 1, 99)]


def test_sglang_serve_model_type_without_value():
    result = parse_server_args(tokens("org/model", "--model-type"), table_0523(), entry=EntryPoint.SGLANG_SERVE)
    assert kinds(result) == ["invalid-value"]


def test_sglang_serve_before_010_keeps_model_type():
    # _extract_model_type_override first appears in cli/serve.py of 0.5.10.
    result = parse_server_args(tokens("--model-type", "llm"), OptionTable("0.5.9", table_059().options), entry=EntryPoint.SGLANG_SERVE)
    assert kinds(result) == ["unknown"]


def test_sglang_serve_before_016_rejects_a_positional_model():
    # _normalize_positional_model_path first appears in cli/serve.py of 0.5.16;
    # before, sglang serve's own scan for --model-path fails first (SGL208's
    # problem), and argparse's "unrecognized" for the same word is not kept.
    old = OptionTable("0.5.15", table_0519().options)
    result = parse_server_args(tokens("org/model"), old, entry=EntryPoint.SGLANG_SERVE)
    assert kinds(result) == ["missing-model"]


def test_launch_server_does_not_take_a_positional_model():
    result = parse_server_args(tokens("org/model"), table_0523())
    assert kinds(result) == ["unknown"]


def test_dynamo_takes_server_args():
    result = parse_server_args(tokens("--tp", "4"), table_0523(), entry=EntryPoint.DYNAMO_SGLANG)
    assert text(result, "tp_size") == "4"


# ---------------------------------------------------------------------------------
# --config


def config_reader(files: dict[str, str]):
    calls = []

    def read(path: str, location: Location) -> ConfigFile | None:
        calls.append((path, location))
        if path not in files:
            return None
        return load_config_yaml(files[path], path)

    read.calls = calls  # type: ignore[attr-defined]
    return read


def test_config_values_are_merged_with_key_locations():
    reader = config_reader({"cfg.yaml": "tp-size: 8\nenable-dp-attention: true\ndp-size: 8\n"})
    # 0.5.21-like table: enable-dp-attention is a plain store_true there.
    table = OptionTable("0.5.21", table_0519().options)
    result = parse_server_args(tokens("--config", "cfg.yaml"), table, read_config=reader)
    assert result.problems == []
    tp = result.get("tp_size")
    assert tp.value == Value.known("8")
    assert tp.location == Location("cfg.yaml", 1, 1, 1, 11)  # "tp-size: 8"
    assert tp.spelling == "tp-size:"
    assert tp.describe_source() == "cfg.yaml:1: tp-size: 8"
    assert text(result, "enable_dp_attention") == "true"
    assert reader.calls == [("cfg.yaml", Location("run.sh", 1, 10))]


def test_command_line_beats_config_wherever_it_is():
    # merge_config_with_args returns config_args + before_config + after_config.
    reader = config_reader({"cfg.yaml": "tp-size: 8\ndp-size: 4\n"})
    result = parse_server_args(tokens("--tp", "2", "--config", "cfg.yaml", "--dp", "1"), table_0519(), read_config=reader)
    assert text(result, "tp_size") == "2"
    assert text(result, "dp_size") == "1"
    assert result.get("dp_size").location.path == "run.sh"


def test_config_false_omits_a_store_true_flag():
    reader = config_reader({"c.yaml": "enable-unified-memory: false\n"})
    result = parse_server_args(tokens("--config", "c.yaml"), table_0519(), read_config=reader)
    assert result.problems == []
    assert result.get("enable_unified_memory").is_default


def test_config_bool_for_a_valued_option_becomes_true_or_false_text():
    # _add_boolean_arg (0.5.9+): not a store_true key -> ["--key", "true"|"false"].
    reader = config_reader({"c.yaml": "model-path: true\n"})
    result = parse_server_args(tokens("--config", "c.yaml"), table_0519(), read_config=reader)
    assert text(result, "model_path") == "true"


def test_config_true_in_054_always_adds_the_bare_flag():
    # 0.5.4 server_args.py L3664-3668: the boolean-action list reads action.action,
    # which argparse actions lack, so it is empty and every true adds "--key".
    table = OptionTable("0.5.4", table_059().options)
    reader = config_reader({"c.yaml": "model-path: true\n"})
    result = parse_server_args(tokens("--config", "c.yaml"), table, read_config=reader)
    assert kinds(result) == ["invalid-value"]  # --model-path expected one argument


@pytest.mark.parametrize(("version", "merger"), [("0.5.7", "0.5.4"), ("0.5.8", "0.5.9")])
def test_config_merger_generation_of_the_releases_between(version, merger):
    # 0.5.7 server_args.py:4983-4990 still builds the always-empty boolean list;
    # 0.5.8 server_args.py:5264 hands the merger the parser (0.5.9's behaviour).
    table = OptionTable(version, table_059().options)
    reader = config_reader({"c.yaml": "model-path: true\n"})
    result = parse_server_args(tokens("--config", "c.yaml"), table, read_config=reader)
    if merger == "0.5.4":
        assert kinds(result) == ["invalid-value"]  # a bare --model-path
    else:
        assert result.problems == [] and text(result, "model_path") == "true"


def test_config_lists_become_several_values():
    reader = config_reader({"c.yaml": "cuda-graph-bs: [1, 2, 4]\nlora-paths: []\n"})
    result = parse_server_args(tokens("--config", "c.yaml"), table_0523(), read_config=reader)
    assert result.problems == []
    assert text(result, "cuda_graph_bs") == "1 2 4"
    assert result.get("lora_paths").is_default  # an empty list adds nothing


def test_config_dict_becomes_json():
    reader = config_reader({"c.yaml": "json-model-override-args: {a: 1}\n"})
    assert text(parse_server_args(tokens("--config", "c.yaml"), table_0523(), read_config=reader), "json_model_override_args") == '{"a": 1}'


def test_config_underscore_key_is_rejected():
    # Keys are used verbatim as --{key}; "--tp_size" is no option (argparse:
    # "unrecognized arguments: --tp_size 8").
    reader = config_reader({"c.yaml": "tp_size: 8\n"})
    result = parse_server_args(tokens("--config", "c.yaml"), table_0523(), read_config=reader)
    assert kinds(result) == ["unknown"]
    problem = result.problems[0]
    assert problem.option == "--tp_size"
    assert problem.location == Location("c.yaml", 1, 1, 1, 8)
    assert "write tp-size" in problem.message
    # What the key meant is unknown, not the default (issue 18: no cascade).
    assert not result.get("tp_size").value.is_known


def test_config_keys_may_be_abbreviations():
    reader = config_reader({"c.yaml": "tp: 4\n"})
    assert text(parse_server_args(tokens("--config", "c.yaml"), table_0523(), read_config=reader), "tp_size") == "4"


def test_config_list_under_an_ambiguous_key_is_its_values():
    # Issue 18: "cuda-graph-bs: [8, 16, 32]" becomes "--cuda-graph-bs 8 16 32"; in
    # 0.5.23 the key is ambiguous and both matches take nargs="+": one finding,
    # not also "16" and "32" as unrecognized arguments.
    reader = config_reader({"c.yaml": "cuda-graph-bs: [8, 16, 32]\ntp-size: 2\n"})
    result = parse_server_args(tokens("--config", "c.yaml"), load_table("0.5.23"), read_config=reader)
    assert kinds(result) == ["ambiguous"]
    assert result.problems[0].location.path == "c.yaml"
    assert text(result, "tp_size") == "2"


def test_config_key_with_a_typo_takes_its_value():
    # "tp-szie: 8" is "--tp-szie 8": the 8 is the value --tp-size would take.
    reader = config_reader({"c.yaml": "tp-szie: 8\npage-size: 16\n"})
    result = parse_server_args(tokens("--config", "c.yaml"), load_table("0.5.23"), read_config=reader)
    assert kinds(result) == ["unknown"]
    assert text(result, "page_size") == "16"
    assert not result.get("tp_size").value.is_known


def test_config_deprecated_store_true_is_unsupported():
    # 0.5.22+: --enable-dp-attention is a DeprecatedStoreTrueAction (an argparse.Action
    # with nargs=0), so ConfigArgumentMerger refuses the key ("Unsupported config option").
    reader = config_reader({"c.yaml": "enable-dp-attention: true\ntp-size: 2\n"})
    result = parse_server_args(tokens("--config", "c.yaml"), table_0523(), read_config=reader)
    assert kinds(result) == ["config-file"]
    assert "Unsupported config option 'enable_dp_attention'" in result.problems[0].message
    assert text(result, "tp_size") == "2"


def test_config_key_by_alias_before_and_after_0523():
    # 0.5.23 _config_keys (L17-23): any long spelling is a key; before, only the dest.
    yaml_text = "tensor-parallel-size: 2\n"
    new = parse_server_args(tokens("--config", "c.yaml"), table_0523(), read_config=config_reader({"c.yaml": yaml_text}))
    assert text(new, "tp_size") == "2"
    # A store_false spelled differently from its dest: 0.5.22 does not know the key
    # and passes "--old-thing true" (the "true" is then unrecognized); 0.5.23 knows
    # it as an unsupported action and refuses the file.
    options = [*table_0523().options, Option(("--no-thing", "--old-thing"), "thing", action="store_false")]
    reader = config_reader({"c.yaml": "old-thing: true\n"})
    old = parse_server_args(tokens("--config", "c.yaml"), OptionTable("0.5.22", options), read_config=reader)
    assert kinds(old) == ["unknown"]
    new = parse_server_args(tokens("--config", "c.yaml"), OptionTable("0.5.23", options), read_config=reader)
    assert kinds(new) == ["config-file"]


def test_config_equals_form_is_ignored():
    reader = config_reader({"c.yaml": "tp-size: 8\n"})
    result = parse_server_args(tokens("--config=c.yaml"), table_0523(), read_config=reader)
    assert kinds(result) == ["config-equals"]
    assert text(result, "tp_size") == "1"
    assert reader.calls == []


def test_config_abbreviation_is_ignored():
    reader = config_reader({"c.yaml": "tp-size: 8\n"})
    result = parse_server_args(tokens("--conf", "c.yaml"), table_0523(), read_config=reader)
    assert kinds(result) == ["config-equals"]
    assert text(result, "tp_size") == "1"


def test_config_twice_is_refused():
    result = parse_server_args(tokens("--config", "a.yaml", "--config", "b.yaml"), table_0523())
    assert kinds(result) == ["config-file"]


def test_config_at_the_end_is_refused():
    result = parse_server_args(tokens("--tp", "2", "--config"), table_0523())
    assert kinds(result) == ["config-file"]


def test_config_must_be_yaml():
    result = parse_server_args(tokens("--config", "cfg.json"), table_0523(), read_config=config_reader({}))
    assert kinds(result) == ["config-file"]


def test_unreadable_config_makes_defaults_unknown_but_not_the_command_line():
    result = parse_server_args(tokens("--tp", "2", "--config", "missing.yaml"), table_0523(), read_config=config_reader({}))
    assert result.problems == []
    assert text(result, "tp_size") == "2"  # the command line beats any config file
    dp = result.get("dp_size")
    assert dp.value.kind is Kind.UNKNOWN
    assert "--config missing.yaml" in dp.value.reason
    assert dp.written == Value.known("1")


def test_unknown_config_path_makes_defaults_unknown():
    result = parse_server_args(tokens("--config", Value.symbol("$CFG")), table_0523())
    assert result.get("dp_size").value.kind is Kind.UNKNOWN
    assert "$CFG" in result.get("dp_size").value.reason


def test_config_that_is_not_a_mapping():
    reader = config_reader({"c.yaml": "- a\n- b\n"})
    result = parse_server_args(tokens("--config", "c.yaml"), table_0523(), read_config=reader)
    assert kinds(result) == ["config-file"]
    assert result.problems[0].location.path == "c.yaml"


def test_load_config_yaml_positions_and_types():
    config = load_config_yaml("# comment\ntp-size: 8\nname: 'x'\nflag: yes\nlist:\n  - 1\n", "c.yaml")
    assert config.error is None
    assert [(e.key, e.value) for e in config.entries] == [("tp-size", 8), ("name", "x"), ("flag", True), ("list", [1])]
    assert config.entries[0].key_location == Location("c.yaml", 2, 1, 2, 8)
    assert config.entries[0].value_location == Location("c.yaml", 2, 10, 2, 11)


def test_load_config_yaml_repeated_key_keeps_first_position_last_value():
    config = load_config_yaml("a: 1\nb: 2\na: 3\n", "c.yaml")
    assert [(e.key, e.value) for e in config.entries] == [("a", 3), ("b", 2)]


def test_load_config_yaml_bad_input_never_raises():
    assert load_config_yaml("a: [1,\n", "c.yaml").error is not None
    assert load_config_yaml("", "c.yaml") == ConfigFile("c.yaml")
    assert load_config_yaml("--- a\n--- b\n", "c.yaml").error is not None
    assert load_config_yaml("? [1]\n: 2\n", "c.yaml").error is not None


def test_config_entry_with_non_string_key():
    config = ConfigFile("c.yaml", (ConfigEntry(1, 2, Location("c.yaml", 1, 1), Location("c.yaml", 1, 4)),))
    result = parse_server_args(tokens("--config", "c.yaml"), table_0523(), read_config=lambda p, l: config)
    assert kinds(result) == ["config-file"]


# ---------------------------------------------------------------------------------
# Robustness: no token list makes the parser raise

_WORDS = st.sampled_from(
    [
        "--tp", "--tp-size", "--tp=", "--tp=2", "--dp", "8", "-1", "--", "-", "", "x y",
        "--config", "c.yaml", "--config=c.yaml", "--enable-dp", "--enable-dp-attention",
        "--enable-dp-attention=1", "-h", "-hx", "--help", "--cuda-graph-bs", "--lora-paths",
        "--pp", "--model", "--model-type", "--no-enable-metrics", "--port", "abc", "=",
        "--=", "---", "-=", "--disaggregation-mode", "prefill",
    ]
)


def _values():
    known = st.one_of(_WORDS, st.text(max_size=8)).map(Value.known)
    symbol = st.builds(Value.symbol, st.sampled_from(["$A", "$TP", "$FLAGS"]), st.one_of(st.none(), _WORDS))
    unknown = st.just(Value.unknown("test"))
    leaf = st.one_of(known, symbol, unknown)
    alternatives = st.lists(_WORDS, min_size=1, max_size=3).map(lambda ws: Value.one_of(Value.known(w) for w in ws))
    concat = st.lists(st.one_of(leaf, alternatives), min_size=1, max_size=3).map(Value.concat)
    return st.one_of(leaf, alternatives, concat)


def _token_lists():
    token = st.builds(
        lambda value, line, is_spread: ArgToken(value, Location("f.sh", line, 1), spread=is_spread),
        _values(),
        st.integers(1, 5),
        st.booleans(),
    )
    return st.lists(token, max_size=12)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_token_lists(), st.sampled_from(list(EntryPoint)), st.sampled_from(["0.5.23", "0.5.4", "0.5.9", "weird"]))
def test_any_token_list_parses_without_exception(token_list, entry, version):
    table = OptionTable(version, table_0523().options)

    def read(path: str, location: Location) -> ConfigFile | None:
        return load_config_yaml("tp-size: 2\nenable-dp-attention: true\nx_y: [1, {a: b}]\nnull-key:\n", path)

    result = parse_server_args(token_list, table, entry=entry, read_config=read, launch_location=Location("f.sh", 1, 1))
    assert set(result.values) >= {"tp_size", "dp_size"}


# ---------------------------------------------------------------------------------
# Differential test against the real argparse, on fully known words


def _differential_table() -> OptionTable:
    return OptionTable(
        "0.5.23",
        [
            HELP,
            Option(("--tp-size", "--tensor-parallel-size"), "tp_size", type="int", default=1),
            Option(("--tokenizer-path",), "tokenizer_path", type="str"),
            Option(("--dp-size",), "dp_size", type="int", default=1),
            Option(("--enable-dp-attention",), "enable_dp_attention", action="store_true", default=False),
            Option(("--enable-dp-lm-head",), "enable_dp_lm_head", action="store_true", default=False),
            Option(("--disable-x",), "x", action="store_false", default=True),
            Option(("--mode",), "mode", type="str", default="a", choices=("a", "b")),
            Option(("--model-path", "--model"), "model_path", type="str"),
            Option(("--cuda-graph-bs",), "cuda_graph_bs", type="int", nargs="+"),
            Option(("--lora-paths",), "lora_paths", type="str", nargs="*"),
            Option(("--pair",), "pair", type="str", nargs=2),
            Option(("--opt",), "opt", type="str", nargs="?", const="C", default="D"),
            Option(("--metrics", "--no-metrics"), "metrics", action="boolean_optional"),
            Option(("--level",), "level", action="store_const", const=3),
            Option(("--verbose",), "verbose", action="count"),
            Option(("--ratio",), "ratio", type="float", default=0.5),
            Option(("--json-args",), "json_args", type="json.loads"),
            Option(("--port",), "port", type="int", default=30000),
        ],
    )


_DIFFERENTIAL_TABLE = _differential_table()


class _ArgparseError(Exception):
    pass


class _ArgparseHelp(Exception):
    pass


class _RaisingParser(argparse.ArgumentParser):
    def error(self, message):  # noqa: D102
        raise _ArgparseError(message)

    def exit(self, status=0, message=None):  # noqa: D102
        raise _ArgparseHelp()


def _real_parser(table: OptionTable) -> argparse.ArgumentParser:
    """A real argparse parser declaring the table's options as SGLang does.

    Types we cannot run (SGLang's own converters) are left out, with their choices,
    since the linter does not check those either."""
    parser = _RaisingParser(add_help=False)
    types = {"int": int, "float": float, "json.loads": json.loads}
    for option in table.options:
        if option.action == "help":
            parser.add_argument(*option.names, action="help")
            continue
        if option.action == "boolean_optional":
            parser.add_argument(option.names[0], action=argparse.BooleanOptionalAction, dest=option.dest, default=option.default)
            continue
        kwargs: dict = {"dest": option.dest, "default": option.default}
        if option.action in ("store_true", "store_false", "count"):
            kwargs["action"] = option.action
        elif option.action == "store_const":
            kwargs.update(action="store_const", const=option.const)
        else:
            checkable = option.type in (None, "str", "int", "float", "json.loads")
            kwargs.update(
                type=types.get(option.type or ""),
                nargs=option.nargs,
                choices=list(option.choices) if option.choices and checkable else None,
            )
            if option.nargs == "?":
                kwargs["const"] = option.const
        parser.add_argument(*option.names, **kwargs)
    return parser


_PARSERS: dict[int, tuple[OptionTable, argparse.ArgumentParser]] = {}


def _cached_real_parser(table: OptionTable) -> argparse.ArgumentParser:
    if id(table) not in _PARSERS:
        _PARSERS[id(table)] = (table, _real_parser(table))  # keeps the table alive
    return _PARSERS[id(table)][1]


def _compare_with_argparse(table: OptionTable, words: list[str]) -> None:
    try:
        namespace = _cached_real_parser(table).parse_args(list(words))
        real_error = None
    except _ArgparseHelp:
        assume(False)
        return
    except _ArgparseError as error:
        real_error = str(error)
    mine = parse_server_args(tokens(*words), table)
    # SGLang's own checks on top of argparse are not argparse errors.
    problems = [p for p in mine.problems if p.kind not in ("config-equals", "config-file")]
    if real_error is not None:
        assert problems, f"argparse refused {words!r} ({real_error}) but no problem was found"
        return
    assert problems == [], f"argparse accepted {words!r}"
    for dest, value in vars(namespace).items():
        setting = mine.get(dest)
        option = table.by_dest[dest]
        if value is None:
            # A default of None, a default the table cannot state, or "--x=--" ([]).
            assert setting.value.kind is Kind.UNKNOWN or setting.value == Value.known(""), (dest, setting)
        elif setting.is_default or option.type not in (None, "str", "int", "float", "json.loads"):
            continue  # a default as the table gives it; or a converter we do not run
        elif option.type == "float" and option.nargs is None and setting.value.text:
            assert float(setting.value.text) == value or (value != value and float(setting.value.text) != float(setting.value.text))  # nan
        elif option.type in ("float", "json.loads") or option.const is not None:
            continue
        else:
            assert setting.value == Value.known(_as_text(value)), (dest, setting, value)


_DIFF_WORDS = st.sampled_from(
    [
        "--tp", "--tp-size", "--tensor", "--t", "--to", "--tp=4", "--tp-size=", "--tensor-parallel-size=2",
        "--dp", "--dp-size=3", "--enable-dp", "--enable-dp-a", "--enable-dp-lm-head", "--enable-dp-attention=",
        "--disable-x", "--disable", "--mode", "--mode=b", "--mod", "--model", "--model-path", "--model=m",
        "--cuda-graph-bs", "--cuda", "--lora-paths", "--lora", "--pair", "--pair=x", "--opt", "--opt=v",
        "--metrics", "--no-metrics", "--no", "--level", "--level=1", "--verbose", "--ratio", "--json-args",
        "--port", "--po", "--unknown", "--unknown=1", "--", "-", "-1", "-1.5", "-.5", "-x", "8", "04", "1.5",
        "a", "b", "c", "x y", "--x y", "", "{}", '{"k": 1}', "nan", "=", "--=", "-tp",
    ]
)


def _as_text(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(_as_text(v) or "" for v in value)
    if isinstance(value, dict):
        return None
    return str(value)


same_argparse = pytest.mark.skipif(
    sys.version_info[:2] not in ((3, 10), (3, 11), (3, 12)), reason="argparse changed in 3.13"
)


@same_argparse
@settings(max_examples=1500, deadline=None)
@given(st.lists(_DIFF_WORDS, max_size=8))
def test_same_outcome_as_real_argparse(words):
    _compare_with_argparse(_DIFFERENTIAL_TABLE, words)


def _cascade_table() -> OptionTable:
    """Options whose prefixes and typos exercise every nargs (names shaped like
    sglang 0.5.23's: --cuda-graph-bs-decode/-prefill take nargs="+")."""
    return OptionTable(
        "0.5.23",
        [
            HELP,
            Option(("--tp-size", "--tensor-parallel-size"), "tp_size", type="int", default=1),
            Option(("--cuda-graph-bs-decode",), "cuda_graph_bs_decode", type="int", nargs="+"),
            Option(("--cuda-graph-bs-prefill",), "cuda_graph_bs_prefill", type="int", nargs="+"),
            Option(("--lora-paths",), "lora_paths", type="str", nargs="*"),
            Option(("--enable-metrics",), "enable_metrics", action="store_true", default=False),
            Option(("--pair",), "pair", type="str", nargs=2),
            Option(("--opt",), "opt", type="str", nargs="?", const="C", default="D"),
            Option(("--port",), "port", type="int", default=30000),
        ],
    )


_CASCADE_TABLE = _cascade_table()


def _strays_after_the_fix(table: OptionTable, words: list[str], fixed: list[str]) -> list[str] | None:
    """What real argparse reports as unrecognized once the mistaken word is
    spelled as the option it names; None when it refuses the argv otherwise."""
    try:
        _cached_real_parser(table).parse_args(fixed)
    except _ArgparseError as error:
        message = str(error)
        prefix = "unrecognized arguments: "
        return message[len(prefix) :].split(" ") if message.startswith(prefix) else None
    return []


@same_argparse
@pytest.mark.parametrize(
    "words, fixed_word",
    [
        (["--tp-szie", "8", "16", "--port", "1"], "--tp-size"),
        (["--tp-szie", "8"], "--tp-size"),
        (["--tp-szie=8", "16", "32"], "--tp-size=8"),
        (["--enable-metrcs", "true", "1"], "--enable-metrics"),
        (["--enable-metrcs", "--port", "1"], "--enable-metrics"),
        (["--pairr", "a", "b", "c"], "--pair"),
        (["--pairr", "a", "b"], "--pair"),
        (["--optt", "v", "w"], "--opt"),
        (["--optt", "--port", "1", "w"], "--opt"),
        (["--lora-pahts", "a", "b", "c", "--port", "1", "x"], "--lora-paths"),
        (["--cuda-graph-bs-decdoe", "8", "16", "--tp", "2"], "--cuda-graph-bs-decode"),
    ],
)
def test_strays_after_a_typo_are_those_argparse_reports_once_it_is_fixed(words, fixed_word):
    # The oracle: real argparse (CPython 3.10-3.12) on the argv with the typo
    # corrected. Its "unrecognized arguments" are the words that are mistakes of
    # their own; every other word after the typo was its value (one finding).
    fixed = [fixed_word, *words[1:]]
    expected = _strays_after_the_fix(_CASCADE_TABLE, words, fixed)
    assert expected is not None, "the corrected argv must be refused only for strays, if at all"
    result = parse_server_args(tokens(*words), _CASCADE_TABLE)
    assert result.problems[0].kind == "unknown" and result.problems[0].option == words[0].split("=")[0]
    columns = {token.location.column: token.value.text for token in tokens(*words)}
    strays = [columns[p.location.column] for p in result.problems[1:]]
    assert all(p.kind == "unknown" and p.option == "" for p in result.problems[1:])
    assert strays == expected


@same_argparse
@pytest.mark.parametrize(
    "words, fixed_word",
    [
        # `ARGS="{$ARGS} --tp 2"` (a public SageMaker `serve` script): the brace
        # is glued to the first option, the closing one to the last word.
        (["{--tp-size", "8", "16", "--port", "1"], "--tp-size"),
        (["{--tp", "8", "--port", "1"], "--tp"),
        (['"--pair', "a", "b", "c"], "--pair"),
        (["{--tp-size=8", "16"], "--tp-size=8"),
        (["(--enable-metrics", "true", "--port", "1"], "--enable-metrics"),
        (["`--lora-paths", "a", "b", "--port", "1"], "--lora-paths"),
    ],
)
def test_an_option_with_a_stray_character_before_it_is_one_finding(words, fixed_word):
    # argparse takes `{--tp-size` for an argument: "unrecognized arguments:
    # {--tp-size 8 16". The oracle, as for a typo: real argparse on the argv
    # with the stray character removed; what it still refuses are mistakes of
    # their own, every other word was the option's value.
    fixed = [fixed_word, *words[1:]]
    expected = _strays_after_the_fix(_CASCADE_TABLE, words, fixed)
    assert expected is not None
    with pytest.raises(_ArgparseError, match="unrecognized arguments: " + re.escape(words[0])):
        _cached_real_parser(_CASCADE_TABLE).parse_args(words)
    result = parse_server_args(tokens(*words), _CASCADE_TABLE)
    first = result.problems[0]
    assert first.kind == "unknown" and f"a stray {words[0][0]!r} before {fixed_word.split('=')[0]}" in first.message
    columns = {token.location.column: token.value.text for token in tokens(*words)}
    strays = [columns[p.location.column] for p in result.problems[1:]]
    assert strays == expected


def test_a_stray_character_before_a_word_that_is_no_option_is_not_explained():
    result = parse_server_args(tokens("{--no-such-option", "8"), _CASCADE_TABLE)
    assert [p.message for p in result.problems] == ["unrecognized argument: '{--no-such-option'", "unrecognized argument: '8'"]


@pytest.mark.parametrize(
    "words, opaque",
    [
        # Both matches take nargs="+": the unseen word is one more value.
        (["--cuda-graph-bs", "8", Value.symbol("$MORE")], 0),
        # With "=", the option takes its explicit value only: the unseen word
        # after it is opaque (it may be options).
        (["--cuda-graph-bs=8", Value.symbol("$MORE")], 1),
    ],
)
def test_ambiguous_option_takes_what_its_matches_agree_on(words, opaque):
    result = parse_server_args(tokens(*words), _CASCADE_TABLE)
    assert kinds(result) == ["ambiguous"]
    assert len(result.opaque) == opaque


def test_double_dash_as_explicit_value_is_dropped_like_argparse():
    # argparse 3.11 _get_values removes one "--" from an option's strings, so
    # "--tp-size=--" stores [] without a type error.
    result = parse_server_args(tokens("--tp-size=--"), table_0523())
    assert result.problems == []
    assert text(result, "tp_size") == ""


# ---------------------------------------------------------------------------------
# The generated tables, when they are installed


needs_tables = pytest.mark.skipif(not known_versions(), reason="no generated option tables installed")


@needs_tables
@pytest.mark.parametrize(
    "version, word, ambiguous",
    [
        ("0.5.23", "--enable-unified", True),
        ("0.5.23", "--page", True),
        ("0.5.23", "--pp", True),
        ("0.5.23", "--enable-dp", True),
        ("0.5.23", "--tp", False),
        ("0.5.23", "--dp", False),
        ("0.5.23", "--ep", False),
        ("0.5.23", "--model", False),
        ("0.5.19", "--enable-unified", False),
        ("0.5.20", "--enable-unified", True),
    ],
)
def test_real_table_ambiguity(version, word, ambiguous):
    if version not in known_versions():
        pytest.skip(f"no table for {version}")
    table = load_table(version)
    result = parse_server_args(tokens(word, "1") if not word.startswith("--enable") else tokens(word), table)
    assert ("ambiguous" in kinds(result)) == ambiguous, result.problems


@needs_tables
@same_argparse
@pytest.mark.parametrize("version", ["0.5.4", "0.5.19", "0.5.23"])
def test_same_outcome_as_real_argparse_with_generated_tables(version):
    if version not in known_versions():
        pytest.skip(f"no table for {version}")
    table = load_table(version)
    names = [n for o in table.options for n in o.names if o.action != "help" and n != "--config"]
    name = st.sampled_from(names)
    prefix = st.builds(lambda n, cut: n[: max(3, len(n) - cut)], name, st.integers(0, 30))
    value = st.sampled_from(["1", "8", "abc", "-1", "auto", "prefill", "{}", "0.5", "", "x y", "--", "true", "-"])
    with_equals = st.builds(lambda n, v: f"{n}={v}", st.one_of(name, prefix), value)

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.one_of(name, prefix, value, with_equals), max_size=8))
    def check(words):
        _compare_with_argparse(table, words)

    check()


@needs_tables
def test_real_table_pd_launch():
    if "0.5.23" not in known_versions():
        pytest.skip("no table for 0.5.23")
    table = load_table("0.5.23")
    result = parse_server_args(
        tokens(
            "--model-path", "m", "--tp", "8", "--dp", "8", "--enable-dp-attention", "--disaggregation-mode",
            "decode", "--enable-unified-memory", "--page-size", "64", "--trust-remote-code",
        ),
        table,
    )
    assert result.problems == []
    assert text(result, "tp_size") == "8"
    assert text(result, "dp_size") == "8"
    assert text(result, "enable_dp_attention") == "true"
    assert text(result, "disaggregation_mode") == "decode"
    assert text(result, "page_size") == "64"


def test_a_given_store_true_flag_stays_on_past_unseen_words():
    """Nothing after `--enable-unified-memory` can turn it off (no --no-x, no
    store_false shares its dest), so `"$@"` after it leaves it on."""
    from sglang_lint.catalog.tables import load_table
    from sglang_lint.model import ArgToken, Location, Value

    loc = Location("run.sh", 1, 1)
    tokens = [
        ArgToken(Value.known("--enable-unified-memory"), loc),
        ArgToken(Value.known("--tp"), loc),
        ArgToken(Value.known("8"), loc),
        ArgToken(Value.unknown('"$@"'), loc, spread=True),
    ]
    settings = parse_server_args(tokens, load_table("0.5.23"))
    assert settings.get("enable_unified_memory").value == Value.known("true")
    assert settings.get("tp_size").value.is_known is False


# -- python -m dynamo.sglang's own options ----------------------------------------------


@pytest.mark.parametrize(
    "words",
    ["--migration-limit 3", "--endpoint dyn://ns.backend.generate", "--dyn-tool-call-parser hermes", "--multimodal-worker", "--no-use-sglang-tokenizer", "--custom-jinja-template t.j2"],
)
def test_dynamo_s_own_options_are_not_sglang_s_to_judge(words: str) -> None:
    """Dynamo adds DYNAMO_ARGS to the parser SGLang's ServerArgs.add_cli_args
    fills (ai-dynamo/dynamo components/backends/sglang/src/dynamo/sglang/
    args.py): each was an SGL202 "unknown option for sglang 0.5.23"."""
    from sglang_lint.pipeline import LintOptions, lint_texts

    result = lint_texts({"run.sh": f"python3 -m dynamo.sglang --model-path m {words} --tp 2\n"}, LintOptions())
    assert result.findings == []


def test_dynamo_keeps_sglang_s_typos_and_notes_what_neither_knows() -> None:
    from sglang_lint.pipeline import LintOptions, lint_texts

    result = lint_texts({"run.sh": "python3 -m dynamo.sglang --model-path m --tp-szie 2 --brand-new-dynamo-flag 3\n"}, LintOptions())
    assert sorted(f.code for f in result.findings) == ["SGL202", "SGL900"]
    (note,) = [f for f in result.findings if f.code == "SGL900"]
    assert "--brand-new-dynamo-flag" in " ".join((note.message, *note.notes))
    # The same words under `python -m sglang.launch_server` are both errors.
    plain = lint_texts({"run.sh": "python3 -m sglang.launch_server --model-path m --tp-szie 2 --brand-new-dynamo-flag 3\n"}, LintOptions())
    assert [f.code for f in plain.findings] == ["SGL202", "SGL202"]
