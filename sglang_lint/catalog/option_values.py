"""An option's values as SGLang's argparse gives them: the default of an option
nobody set, whether an option takes a value at all, argparse's type conversion and
``choices`` check, and an int value in canonical form; and how the rules read the
settings that result (:func:`is_default_none`, :func:`flag_state`).

Defaults: an option whose default is a literal reads as that literal (``1``,
``auto``, ``false`` for store_true). A default of ``None`` reads as
``Value.unknown(DEFAULT_NONE_REASON)``: SGLang resolves such options at startup
(``--page-size`` becomes 1 or more depending on the backend), so they must not
compare equal or different to anything; :func:`is_default_none` tells them apart
from other unknown values, and never confuses them with the string ``"None"``.
A default that is not a literal in SGLang's source is UNKNOWN with that source text.
"""

from __future__ import annotations

import json
from typing import Any

from sglang_lint.catalog.settings import ArgProblem, Setting
from sglang_lint.catalog.tables import Option, version_key
from sglang_lint.model import Kind, Location, Value, is_ascii_digits

__all__ = [
    "DEFAULT_NONE_REASON",
    "choices_extensible",
    "default_value",
    "flag_state",
    "is_default_none",
    "literal_text",
    "normalized_value",
    "rejected_value",
    "takes_no_value",
    "value_problem",
]

# The reason of the UNKNOWN value of an option whose default is None.
DEFAULT_NONE_REASON = "default None, resolved by SGLang at startup"


# =================================================================================
# Reading settings


def is_default_none(setting: Setting) -> bool:
    """True for an option left at a default of None (see DEFAULT_NONE_REASON)."""
    return (
        setting.is_default
        and setting.value.kind is Kind.UNKNOWN
        and setting.value.reason == DEFAULT_NONE_REASON
    )


def flag_state(setting: Setting) -> bool | None:
    """Whether a store_true-like option is on: True, False, or None when unknown.

    A default of None counts as off: SGLang tests these flags for truth
    (``if not cfg.enable_dp_attention``).
    """
    value = setting.value
    if value.is_known:
        if value.text == "true":
            return True
        if value.text == "false":
            return False
        return None
    if is_default_none(setting):
        return False
    return None


# =================================================================================
# Values and defaults


def literal_text(value: Any) -> str | None:
    """A JSON literal from an option table as the text a launch would carry."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    if isinstance(value, list):
        parts = [literal_text(v) for v in value]
        return None if any(p is None for p in parts) else " ".join(parts)  # type: ignore[arg-type]
    if isinstance(value, dict):
        return json.dumps(value)
    return None


def default_value(option: Option) -> Value:
    """The value of an option nobody set (see the module docstring)."""
    if option.default is not None:
        text = literal_text(option.default)
        return Value.known(text) if text is not None else Value.unknown(f"default {option.default!r}")
    source = (option.default_source or "").strip()
    if source in ("", "None"):
        # argparse's store_true/store_false default to False/True when none is given.
        if not source and option.action == "store_true":
            return Value.known("false")
        if not source and option.action == "store_false":
            return Value.known("true")
        return Value.unknown(DEFAULT_NONE_REASON)
    return Value.unknown(f"default computed by SGLang: {source}")


def takes_no_value(option: Option) -> bool:
    """Whether the option is a flag. An action with ``choices`` checks a value, so it
    takes one: SGLang's DeprecatedStoreConstAction with ``nargs=None, choices=[...]``
    (``--monokernel-backend amd``, arg_groups/argparse_actions.py 0.5.23 L103-133)."""
    if option.nargs is not None:
        return option.nargs == 0
    return option.is_flag and option.choices is None


def _converted(option: Option, text: str) -> tuple[bool, Any]:
    """``type(text)`` for the types we can run: (False, None) when it raises, and
    (True, None) when the type is one we cannot check."""
    kind = option.type
    try:
        if kind == "int":
            return True, int(text)
        if kind == "float":
            return True, float(text)
        if kind == "json.loads":
            return True, json.loads(text)
        if kind in (None, "str"):
            return True, text
    except (ValueError, TypeError, OverflowError):
        return False, None
    return True, None


def _checkable_type(option: Option) -> bool:
    return option.type in (None, "str", "int", "float", "json.loads")


def value_problem(option: Option, written: str, value: Value, location: Location) -> ArgProblem | None:
    """argparse's type conversion and ``choices`` check, reported only when every
    text the value can be fails (a symbol's default counts as its value)."""
    if option.choices is None and option.type in (None, "str"):
        return None  # every text converts: nothing to check (most options)
    if not _checkable_type(option):
        return None
    texts = (value.text,) if value.kind is Kind.KNOWN else value.candidates()
    if not texts:
        return None
    failures: list[str] = []
    refused = ""
    for text in sorted(texts):
        ok, converted = _converted(option, text)
        if not ok:
            failures.append(f"invalid {option.type} value: {text!r}")
            continue
        if option.choices is not None and option.type != "json.loads":
            # Compared after conversion, as argparse does; also by text, so that a
            # table listing int choices as strings cannot make up an error.
            try:
                allowed = converted in option.choices
            except TypeError:
                allowed = False
            allowed = allowed or text in {str(c) for c in option.choices}
            if not allowed:
                choices = ", ".join(repr(c) for c in option.choices)
                failures.append(f"invalid choice: {text!r} (choose from {choices})")
                refused = refused or (text if len(failures) == 1 else "")
                continue
        return None  # at least one possible text is accepted
    origin = " (from the default of " + value.name + ")" if value.uses_default and value.kind is Kind.SYMBOL else ""
    return ArgProblem(
        "invalid-value",
        f"argument {written}: {failures[0]}{origin}",
        location,
        option=written,
        refused_choice=refused,
    )


# Options whose ``choices`` list is an extension point: out-of-tree platforms and
# plugins append to it before the parser is built (0.5.23
# srt/arg_groups/choices.py L207-276, ``add_attention_backend_choices =
# ATTENTION_BACKEND_CHOICES.extend`` ...; server_args.py ``add_*_choices`` in
# earlier releases). A value outside the table's list may be a plugin's.
PLUGIN_CHOICES = frozenset(
    {
        "attention_backend",
        "prefill_attention_backend",
        "decode_attention_backend",
        "speculative_draft_attention_backend",
        "speculative_attention_backend",
        "load_format",
        "speculative_draft_load_format",
        "quantization",
        "speculative_draft_model_quantization",
        "grammar_backend",
        "moe_runner_backend",
        "speculative_moe_runner_backend",
        "mxfp8_moe_runner_backend",
        "fp8_gemm_runner_backend",
        "fp4_gemm_runner_backend",
        "radix_eviction_policy",
        "rl_on_policy_target",
        "disaggregation_transfer_backend",
        "linear_attn_backend",
        "linear_attn_decode_backend",
        "linear_attn_prefill_backend",
        "linear_attn_verify_backend",
    }
)
# MAMBA_SSM_DTYPE_CHOICES had an adder from 0.5.5 (server_args.py:207-208) up to
# 0.5.10; 0.5.4 (server_args.py:2659) and 0.5.11 on spell the choices inline.
PLUGIN_CHOICES_DURING = {"mamba_ssm_dtype": ((0, 5, 5), (0, 5, 10))}


def choices_extensible(option: Option, version: str) -> bool:
    """Whether a value outside the table's ``choices`` may be a plugin's."""
    if option.dest in PLUGIN_CHOICES:
        return True
    during = PLUGIN_CHOICES_DURING.get(option.dest)
    if during is None:
        return False
    try:
        return during[0] <= version_key(version) <= during[1]
    except ValueError:
        return False


def rejected_value(option: Option, version: str, problem: ArgProblem) -> bool:
    """Whether argparse surely exits on the value ``problem`` (from
    :func:`value_problem`) is about: not when a plugin may add the choice."""
    return not (problem.refused_choice and choices_extensible(option, version))


def normalized_value(option: Option, value: Value) -> Value:
    """An int option's known value in canonical form (``08`` is ``8``), so that equal
    numbers compare equal."""
    if option.type != "int" or value.kind not in (Kind.KNOWN, Kind.ALTERNATIVES):
        return value
    if value.kind is Kind.KNOWN and is_ascii_digits(value.text) and (value.text == "0" or value.text[0] != "0"):
        return value  # already canonical (most int values: "8", "30000")
    texts = value.candidates() or frozenset()
    numbers = []
    for text in texts:
        ok, number = _converted(option, text)
        if not ok:
            return value
        numbers.append(str(number))
    return Value.one_of(Value.known(n) for n in numbers)
