"""Tests of sglang_lint.catalog.attention: the attention TP size SGLang derives.

Facts (paths inside the sglang wheels):
- 0.5.22+: srt/runtime_context.py L73-76 ``derive_attn_tp_size`` =
  ``tp_size // attn_dp_size // attn_cp_size``; srt/arg_groups/parallel_hook.py L39-61
  ``handle_deprecated_dp_attention``: with --enable-dp-attention and attn_dp_size == 1,
  attn_dp_size = dp_size and dp_size = 1; another attn_dp_size is kept.
- 0.5.9-0.5.21: srt/layers/dp_attention.py ``compute_dp_attention_world_info``
  (0.5.9 L230-244; 0.5.19-0.5.21 via runtime_context ``derive_attention_widths``):
  ``attn_dp = dp_size if enable_dp_attention else 1``; ``tp_size // attn_dp // attn_cp_size``.
- 0.5.4: srt/layers/dp_attention.py L208-216: ``tp_size // dp_size`` with dp-attention;
  no --attn-cp-size option.
- Examples: sglang-semantics.md section 2.
"""

from __future__ import annotations

import pytest

from sglang_lint.catalog.argv import parse_server_args
from sglang_lint.catalog.attention import Derived, attention_tp, parallel_sizes
from sglang_lint.catalog.settings import ServerSettings, Setting
from sglang_lint.catalog.tables import Option, OptionTable, known_versions, load_table
from sglang_lint.model import ArgToken, Kind, Location, Value, provably_different, provably_equal

HELP = Option(("-h", "--help"), "help", action="help")


def table_new(version: str = "0.5.23") -> OptionTable:
    """0.5.22+ (reference/sglang-cli/cli_0.5.23.json): --attn-dp-size exists and
    --enable-dp-attention is a DeprecatedStoreTrueAction."""
    return OptionTable(
        version,
        [
            HELP,
            Option(("--tp-size", "--tensor-parallel-size"), "tp_size", type="int", default=1),
            Option(("--dp-size", "--data-parallel-size"), "dp_size", type="int", default=1),
            Option(("--attn-dp-size", "--attention-data-parallel-size"), "attn_dp_size", type="int", default=1),
            Option(("--attn-cp-size", "--attention-context-parallel-size"), "attn_cp_size", type="int", default=1),
            Option(("--pp-size", "--pipeline-parallel-size"), "pp_size", type="int", default=1),
            Option(("--enable-dp-attention",), "enable_dp_attention", action="store_true", deprecated=True),
            Option(("--enable-dp-lm-head",), "enable_dp_lm_head", action="store_true", default=False),
        ],
    )


def table_old(version: str = "0.5.21") -> OptionTable:
    """0.5.14-0.5.21: no --attn-dp-size."""
    return OptionTable(
        version,
        [
            HELP,
            Option(("--tp-size", "--tensor-parallel-size"), "tp_size", type="int", default=1),
            Option(("--dp-size", "--data-parallel-size"), "dp_size", type="int", default=1),
            Option(("--attn-cp-size", "--attention-context-parallel-size"), "attn_cp_size", type="int", default=1),
            Option(("--pp-size", "--pipeline-parallel-size"), "pp_size", type="int", default=1),
            Option(("--enable-dp-attention",), "enable_dp_attention", action="store_true", default=False),
            Option(("--enable-dp-lm-head",), "enable_dp_lm_head", action="store_true", default=False),
        ],
    )


def table_059() -> OptionTable:
    """0.5.9: dests named after the first long spelling (server_args.py 0.5.9
    L3301-3314, L3705-3710)."""
    return OptionTable(
        "0.5.9",
        [
            HELP,
            Option(("--tensor-parallel-size", "--tp-size"), "tensor_parallel_size", type="int", default=1),
            Option(("--attention-context-parallel-size", "--attn-cp-size"), "attention_context_parallel_size", type="int", default=1),
            Option(("--data-parallel-size", "--dp-size"), "data_parallel_size", type="int", default=1),
            Option(("--pipeline-parallel-size", "--pp-size"), "pipeline_parallel_size", type="int", default=1),
            Option(("--enable-dp-attention",), "enable_dp_attention", action="store_true", default=False),
            Option(("--enable-dp-lm-head",), "enable_dp_lm_head", action="store_true", default=False),
        ],
    )


def table_054() -> OptionTable:
    """0.5.4: no attention context parallelism (reference/sglang-cli/cli_0.5.4.json)."""
    return OptionTable(
        "0.5.4",
        [
            HELP,
            Option(("--tensor-parallel-size", "--tp-size"), "tensor_parallel_size", type="int", default=1),
            Option(("--data-parallel-size", "--dp-size"), "data_parallel_size", type="int", default=1),
            Option(("--pipeline-parallel-size", "--pp-size"), "pipeline_parallel_size", type="int", default=1),
            Option(("--enable-dp-attention",), "enable_dp_attention", action="store_true", default=False),
            Option(("--enable-dp-lm-head",), "enable_dp_lm_head", action="store_true", default=False),
        ],
    )


def settings_for(table: OptionTable, *words: str | Value) -> ServerSettings:
    tokens = []
    for column, word in enumerate(words, start=1):
        value = Value.known(word) if isinstance(word, str) else word
        tokens.append(ArgToken(value, Location("run.sh", 1, column * 10)))
    result = parse_server_args(tokens, table)
    assert result.problems == [], result.problems
    return result


def attn_tp(table: OptionTable, *words: str | Value) -> Value:
    return attention_tp(settings_for(table, *words)).value


ALL_TABLES = [table_new("0.5.22"), table_new("0.5.23"), table_old("0.5.21"), table_old("0.5.15"), table_059()]


# ---------------------------------------------------------------------------------
# The examples of sglang-semantics.md section 2, for every formula


@pytest.mark.parametrize("table", ALL_TABLES, ids=lambda t: t.version)
@pytest.mark.parametrize(
    "words, expected",
    [
        (("--tp", "8"), "8"),
        (("--tp", "8", "--dp", "8", "--enable-dp-attention"), "1"),
        (("--tp", "16", "--dp", "2", "--enable-dp-attention"), "8"),
        (("--tp", "8", "--attn-cp-size", "2"), "4"),
        (("--tp", "8", "--dp", "2"), "8"),  # dp replicas without dp-attention
        (("--tp-size", "8", "--dp-size", "1", "--enable-dp-attention"), "8"),  # dp 1: flag is moot
        (("--tp", "16", "--dp", "2", "--enable-dp-attention", "--attn-cp-size", "2"), "4"),
        ((), "1"),
    ],
)
def test_section_2_examples(table, words, expected):
    assert attn_tp(table, *words) == Value.known(expected)


def test_attn_dp_size_0522():
    # --tp 8 --attn-dp-size 4 -> 2 (0.5.22+ only: the option is new there).
    for version in ("0.5.22", "0.5.23"):
        assert attn_tp(table_new(version), "--tp", "8", "--attn-dp-size", "4") == Value.known("2")
        assert attn_tp(table_new(version), "--tp", "8", "--attention-data-parallel-size", "8") == Value.known("1")


def test_explicit_attn_dp_size_wins_over_the_flag():
    # parallel_hook.py L57-63: the flag converts dp_size only while attn_dp_size is 1.
    sizes = parallel_sizes(settings_for(table_new(), "--tp", "8", "--dp", "2", "--attn-dp-size", "4", "--enable-dp-attention"))
    assert sizes.attn_tp.value == Value.known("2")
    assert sizes.attn_dp.value == Value.known("4")
    assert sizes.dp.value == Value.known("2")  # sglang then refuses dp > 1 with attn-dp > 1


def test_flag_moves_dp_to_attention_dp_0522():
    sizes = parallel_sizes(settings_for(table_new(), "--tp", "8", "--dp", "8", "--enable-dp-attention"))
    assert sizes.attn_dp.value == Value.known("8")
    assert sizes.dp.value == Value.known("1")  # dp_size = 1 after the conversion
    assert sizes.tp.value == Value.known("8")
    assert sizes.pp.value == Value.known("1")


def test_dp_without_flag_counts_replicas():
    sizes = parallel_sizes(settings_for(table_old(), "--tp", "4", "--dp", "2"))
    assert sizes.dp.value == Value.known("2")
    assert sizes.attn_dp.value == Value.known("1")


def test_054_has_no_attention_cp():
    table = table_054()
    assert attn_tp(table, "--tp", "8") == Value.known("8")
    assert attn_tp(table, "--tp", "8", "--dp", "8", "--enable-dp-attention") == Value.known("1")
    assert attn_tp(table, "--tp", "16", "--dp", "2", "--enable-dp-attention") == Value.known("8")
    sizes = parallel_sizes(settings_for(table, "--tp", "8"))
    assert sizes.attn_cp.value == Value.known("1")
    assert "0.5.4" in sizes.attn_cp.explanation


def test_059_dests_are_found():
    result = attention_tp(settings_for(table_059(), "--tp-size", "8", "--dp-size", "4", "--enable-dp-attention"))
    assert result.value == Value.known("2")
    assert [s.dest for s in result.inputs] == [
        "tensor_parallel_size",
        "data_parallel_size",
        "enable_dp_attention",
        "attention_context_parallel_size",
    ]


def test_integer_division_as_sglang():
    # tp 8 with dp 3: sglang asserts divisibility later, but the number is 8 // 3.
    assert attn_tp(table_old(), "--tp", "8", "--dp", "3", "--enable-dp-attention") == Value.known("2")


# ---------------------------------------------------------------------------------
# Explanations and inputs


def test_explanation_uses_the_spelling_written():
    result = attention_tp(settings_for(table_new(), "--tp-size", "8", "--dp-size", "8", "--enable-dp-attention"))
    assert result.explanation == "--tp-size 8 / --dp-size 8 with --enable-dp-attention"
    assert [s.dest for s in result.inputs] == ["tp_size", "dp_size", "enable_dp_attention", "attn_dp_size", "attn_cp_size"]
    assert result.inputs[0].location == Location("run.sh", 1, 10, 1, 20)


def test_explanation_of_plain_tp_and_default():
    assert attention_tp(settings_for(table_new(), "--tp", "8")).explanation == "--tp 8"
    assert attention_tp(settings_for(table_new())).explanation == "default tp 1"
    assert attention_tp(settings_for(table_new(), "--tp", "8", "--dp", "2")).explanation == "--tp 8"


def test_explanation_with_cp_and_attn_dp():
    assert attention_tp(settings_for(table_new(), "--tp", "8", "--attn-cp-size", "2")).explanation == "--tp 8 / --attn-cp-size 2"
    assert attention_tp(settings_for(table_new(), "--tp", "8", "--attn-dp-size", "4")).explanation == "--tp 8 / --attn-dp-size 4"


def test_derived_is_a_frozen_record():
    derived = attention_tp(settings_for(table_new(), "--tp", "2"))
    assert isinstance(derived, Derived)
    with pytest.raises(AttributeError):
        derived.value = Value.known("3")  # type: ignore[misc]


# ---------------------------------------------------------------------------------
# Symbols and alternatives


def test_same_symbol_on_both_sides_is_provably_equal():
    prefill = attention_tp(settings_for(table_new(), "--tp", Value.symbol("$TP")))
    decode = attention_tp(settings_for(table_new(), "--tp-size", Value.symbol("$TP")))
    assert prefill.value == Value.symbol("$TP")
    assert provably_equal(prefill.value, decode.value)


def test_symbol_divided_by_a_known_number_is_a_canonical_expression():
    a = attention_tp(settings_for(table_new(), "--tp", Value.symbol("$TP"), "--dp", "8", "--enable-dp-attention")).value
    b = attention_tp(settings_for(table_old(), "--tp", Value.symbol("$TP"), "--dp", "8", "--enable-dp-attention")).value
    assert a == Value.symbol("$TP/8")
    assert provably_equal(a, b)
    # ...and it is not provably equal to the undivided $TP.
    plain = attention_tp(settings_for(table_new(), "--tp", Value.symbol("$TP"))).value
    assert not provably_equal(a, plain)
    assert not provably_different(a, plain)


def test_symbol_with_default_keeps_the_default_through_the_division():
    value = attn_tp(table_new(), "--tp", Value.symbol("$TP", "16"), "--dp", "2", "--enable-dp-attention")
    assert value == Value.symbol("$TP/2", "8")
    assert value.candidates() == frozenset({"8"})
    assert value.uses_default
    assert provably_different(value, Value.known("4"))


def test_symbol_divisor():
    value = attn_tp(table_old(), "--tp", "8", "--dp", Value.symbol("$DP", "4"), "--enable-dp-attention")
    assert value == Value.symbol("8/$DP", "2")


def test_same_symbol_for_tp_and_dp_cancels():
    # `--tp $N --dp $N --enable-dp-attention`: N // N == 1 for any size sglang accepts.
    n = Value.symbol("$N")
    assert attn_tp(table_new(), "--tp", n, "--dp", n, "--enable-dp-attention") == Value.known("1")
    assert attn_tp(table_new(), "--tp", n, "--dp", n, "--enable-dp-attention", "--attn-cp-size", Value.symbol("$CP")) == Value.symbol("1/$CP")


def test_symbols_in_any_order_give_the_same_expression():
    x = attn_tp(table_old(), "--tp", Value.symbol("$TP"), "--dp", Value.symbol("$A"), "--enable-dp-attention", "--attn-cp-size", Value.symbol("$B"))
    y = attn_tp(table_old(), "--tp", Value.symbol("$TP"), "--dp", Value.symbol("$B"), "--enable-dp-attention", "--attn-cp-size", Value.symbol("$A"))
    assert x == y == Value.symbol("$TP/$A/$B")


def test_alternatives_give_the_set_of_results():
    tp = Value.one_of([Value.known("8"), Value.known("16")])
    value = attn_tp(table_new(), "--tp", tp, "--dp", "8", "--enable-dp-attention")
    assert value == Value.one_of([Value.known("1"), Value.known("2")])
    assert provably_different(value, Value.known("4"))


def test_alternatives_of_divisors():
    dp = Value.one_of([Value.known("8"), Value.known("9")])
    # 8 // 8 == 1 and 8 // 9 == 0: two results.
    assert attn_tp(table_old(), "--tp", "8", "--dp", dp, "--enable-dp-attention") == Value.one_of(
        [Value.known("0"), Value.known("1")]
    )
    assert attn_tp(table_old(), "--tp", "8", "--dp", dp) == Value.known("8")  # dp replicas only


def test_symbol_with_alternatives_is_unknown():
    tp = Value.symbol("$TP")
    dp = Value.one_of([Value.known("2"), Value.known("4")])
    assert attn_tp(table_new(), "--tp", tp, "--dp", dp, "--enable-dp-attention").kind is Kind.UNKNOWN


def test_unknown_value_gives_unknown():
    assert attn_tp(table_new(), "--tp", Value.unknown("$(nproc)")).kind is Kind.UNKNOWN


def test_setting_overridden_by_an_opaque_word_gives_unknown_with_explanation():
    tokens = [
        ArgToken(Value.known("--tp"), Location("run.sh", 2, 1)),
        ArgToken(Value.known("8"), Location("run.sh", 2, 6)),
        ArgToken(Value.unknown("output of $(cat extra)"), Location("run.sh", 3, 1), spread=True),
    ]
    derived = attention_tp(parse_server_args(tokens, table_new()))
    assert derived.value.kind is Kind.UNKNOWN
    assert "may be overridden by <unknown: output of $(cat extra)> at run.sh:3" in derived.explanation


def test_dp_attention_flag_unknown_gives_both_branches():
    # The flag may come from an opaque word; every size after it is final.
    # With --tp 8 --dp 8, attention TP is then 8 (flag off) or 1 (flag on).
    def launch(*after: str) -> list[ArgToken]:
        words = [ArgToken(Value.unknown("$FLAGS"), Location("run.sh", 1, 1), spread=True)]
        for column, word in enumerate(after, start=2):
            words.append(ArgToken(Value.known(word), Location("run.sh", 1, column * 5)))
        return words

    both = Value.one_of([Value.known("1"), Value.known("8")])
    old = attention_tp(parse_server_args(launch("--tp", "8", "--dp", "8", "--attn-cp-size", "1"), table_old()))
    assert old.value == both
    assert "if dp-attention is on (may be overridden by <unknown: $FLAGS> at run.sh:1)" in old.explanation
    new_tokens = launch("--tp", "8", "--dp", "8", "--attn-cp-size", "1", "--attn-dp-size", "1")
    assert attention_tp(parse_server_args(new_tokens, table_new())).value == both
    # Without the later sizes, attn-cp (a default) may be overridden too: unknown.
    assert attention_tp(parse_server_args(launch("--tp", "8", "--dp", "8"), table_old())).value.kind is Kind.UNKNOWN


def test_hand_built_settings_without_a_table():
    settings = ServerSettings(
        "0.5.23",
        {
            "tp_size": Setting("tp_size", Value.known("8"), Location("x.yaml", 3, 5), "tp-size:"),
            "dp_size": Setting("dp_size", Value.known("1")),
            "attn_dp_size": Setting("attn_dp_size", Value.known("1")),
            "attn_cp_size": Setting("attn_cp_size", Value.known("1")),
            "pp_size": Setting("pp_size", Value.known("1")),
        },
    )
    result = attention_tp(settings)
    assert result.value == Value.known("8")
    assert result.explanation == "tp-size: 8"


def test_unparsable_version_uses_the_options_present():
    table = table_new("main")
    assert attn_tp(table, "--tp", "8", "--attn-dp-size", "4") == Value.known("2")


# ---------------------------------------------------------------------------------
# The generated tables, when they are installed


@pytest.mark.skipif(not known_versions(), reason="no generated option tables installed")
@pytest.mark.parametrize("version", ["0.5.4", "0.5.9", "0.5.19", "0.5.21", "0.5.22", "0.5.23"])
def test_real_tables(version):
    if version not in known_versions():
        pytest.skip(f"no table for {version}")
    table = load_table(version)
    assert attn_tp(table, "--tp-size", "8") == Value.known("8")
    assert attn_tp(table, "--tp-size", "8", "--dp-size", "8", "--enable-dp-attention") == Value.known("1")
    assert attn_tp(table, "--tp-size", "16", "--dp-size", "2", "--enable-dp-attention") == Value.known("8")
    assert attn_tp(table, "--tp-size", "8", "--dp-size", "2") == Value.known("8")
    if version != "0.5.4":
        assert attn_tp(table, "--tp-size", "8", "--attn-cp-size", "2") == Value.known("4")
    if version in ("0.5.22", "0.5.23"):
        assert attn_tp(table, "--tp-size", "8", "--attn-dp-size", "4") == Value.known("2")


def test_old_releases_answer_to_field_names() -> None:
    """0.5.9's argparse dest for --tp-size is tensor_parallel_size; rules and the
    topology ask for tp_size and must get the same setting."""
    from sglang_lint.catalog.argv import parse_server_args
    from sglang_lint.catalog.tables import known_versions, load_table
    from sglang_lint.model import ArgToken, Location, Value

    if "0.5.9" not in known_versions():
        import pytest

        pytest.skip("no 0.5.9 table")
    words = ["--tp", "8", "--dp", "2"]
    tokens = [ArgToken(Value.known(w), Location("x.sh", 1, 1 + i)) for i, w in enumerate(words)]
    settings = parse_server_args(tokens, load_table("0.5.9"))
    assert settings.has_option("tp_size") and settings.get("tp_size").value == Value.known("8")
    assert settings.get("dp_size").value == Value.known("2")
    assert settings.get("tp_size").spelling == "--tp"


def test_unknown_pieces_are_never_the_same_value():
    from sglang_lint.model import Value, provably_equal

    a = Value.concat([Value.known("--port="), Value.unknown("$(cmd)")])
    assert a.literal_prefix() == "--port="
    assert not provably_equal(a, a)
