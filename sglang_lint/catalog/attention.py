"""Numbers SGLang derives from a server's parallelism options (sglang-semantics.md
section 2), above all the attention tensor-parallel size that prefill and decode
must agree on with ``--enable-unified-memory``.

What each release computes (paths inside the sglang wheel):

- 0.5.22+: ``srt/runtime_context.py`` L73-76 ``derive_attn_tp_size``:
  ``tp_size // attn_dp_size // attn_cp_size``. The deprecated
  ``--enable-dp-attention`` is resolved first (``srt/arg_groups/parallel_hook.py``
  L39-61 ``handle_deprecated_dp_attention``): when it is set and ``attn_dp_size``
  is 1, ``attn_dp_size = dp_size`` and ``dp_size = 1``; any other ``attn_dp_size``
  is kept as given.
- 0.5.9-0.5.21: ``srt/layers/dp_attention.py`` ``compute_dp_attention_world_info``
  (0.5.19-0.5.21 through ``runtime_context.derive_attention_widths``):
  ``attn_dp = dp_size if enable_dp_attention else 1``,
  ``attn_tp = tp_size // attn_dp // attn_cp_size``. ``ServerArgs
  ._handle_data_parallelism`` also turns dp-attention off when ``dp_size == 1``
  (0.5.9 server_args.py L2109-2111; 0.5.4 L1166-1167 and 0.5.13 L3318-3319 too),
  which gives the same number.
- 0.5.4: ``layers/dp_attention.py`` L208-216: ``tp_size // dp_size`` with
  dp-attention, else ``tp_size``; there is no attention context parallelism.

Values are :class:`~sglang_lint.model.Value` s, and the arithmetic follows the
project's rule "be exact, never guess":

- inputs that are all known numbers or finite alternatives give the set of results
  (a known value or alternatives);
- a symbol divided by 1 is that same symbol (``--tp $TP`` on both sides of a pair is
  provably equal); a symbol divided by known numbers or other symbols is a symbol
  named by the canonical expression (``$TP/8``, ``$TP/$DP``) whose default is
  computed from the symbols' defaults, so identical expressions compare equal;
- anything else is unknown, with the reason.
"""

from __future__ import annotations

import itertools

from msgspec import Struct

from sglang_lint.catalog.option_values import flag_state
from sglang_lint.catalog.settings import ServerSettings, Setting
from sglang_lint.catalog.tables import version_key
from sglang_lint.model import Kind, Value, provably_equal

__all__ = ["Derived", "ParallelSizes", "attention_tp", "parallel_sizes"]

ONE = Value.known("1")

# The argparse dests of each size; releases up to 0.5.13 named them after the first
# long spelling (server_args.py 0.5.9 L3301-3314: "--tensor-parallel-size", "--tp-size").
_TP_DESTS = ("tp_size", "tensor_parallel_size")
_DP_DESTS = ("dp_size", "data_parallel_size")
_ATTN_DP_DESTS = ("attn_dp_size", "attention_data_parallel_size")
_ATTN_CP_DESTS = ("attn_cp_size", "attention_context_parallel_size")
_PP_DESTS = ("pp_size", "pipeline_parallel_size")
_DP_ATTENTION_DESTS = ("enable_dp_attention",)


class Derived(Struct, frozen=True, gc=False):
    """A number SGLang computes from settings: its value, how it was derived in the
    user's words (``--tp-size 8 / --dp-size 8 with --enable-dp-attention``), and the
    settings it was computed from (for locations)."""

    value: Value
    explanation: str
    inputs: tuple[Setting, ...]


class ParallelSizes(Struct, frozen=True):
    """The parallel layout of one server after SGLang's own resolution.

    ``dp`` counts data-parallel replicas (each a full TP group); ``attn_dp`` the
    attention data-parallel groups inside one TP group.
    """

    tp: Derived
    dp: Derived
    attn_dp: Derived
    attn_cp: Derived
    pp: Derived
    attn_tp: Derived


def attention_tp(settings: ServerSettings) -> Derived:
    """The attention TP size of a server (sglang-semantics.md section 2)."""
    return parallel_sizes(settings).attn_tp


def parallel_sizes(settings: ServerSettings) -> ParallelSizes:
    tp = _find(settings, _TP_DESTS)
    dp = _find(settings, _DP_DESTS)
    pp = _find(settings, _PP_DESTS)
    attn_cp = _find(settings, _ATTN_CP_DESTS)
    attn_dp = _find(settings, _ATTN_DP_DESTS)
    flag = _find(settings, _DP_ATTENTION_DESTS)

    tp_size = _sized(tp, "tp")
    dp_size = _sized(dp, "dp")
    pp_size = _sized(pp, "pp")
    attn_cp_size = (
        _sized(attn_cp, "attn-cp")
        if attn_cp is not None
        else Derived(ONE, f"no attention context parallelism in sglang {settings.version}", ())
    )
    dp_attention = flag_state(flag) if flag is not None else False
    flag_inputs = (flag,) if flag is not None and dp_attention is not False else ()

    if _resolves_attn_dp_size(settings) and attn_dp is not None:
        attn_dp_given = _sized(attn_dp, "attn-dp")
        # handle_deprecated_dp_attention: the flag moves dp_size to attn_dp_size
        # only while attn_dp_size is 1.
        converts = _and(dp_attention, _is_one(attn_dp_given.value))
        attn_dp_value = _when(converts, dp_size.value, attn_dp_given.value)
        replicas_value = _when(converts, ONE, dp_size.value)
        if converts is False:
            attn_dp_size = attn_dp_given
            replicas = dp_size
        else:
            by_flag = _with_flag(dp_size, flag, converts)
            if converts is True:
                attn_dp_size = Derived(attn_dp_value, by_flag, (*dp_size.inputs, *flag_inputs, *attn_dp_given.inputs))
            else:
                attn_dp_size = Derived(
                    attn_dp_value,
                    f"{attn_dp_given.explanation}, or {by_flag}",
                    (*attn_dp_given.inputs, *dp_size.inputs, *flag_inputs),
                )
            replicas = Derived(replicas_value, f"{dp_size.explanation} moved to attention DP by the flag", attn_dp_size.inputs)
    else:
        # <= 0.5.21: attention DP is dp_size when the flag is on.
        attn_dp_value = _when(dp_attention, dp_size.value, ONE)
        replicas_value = _when(dp_attention, ONE, dp_size.value)
        if dp_attention is False:
            attn_dp_size = Derived(ONE, "no dp-attention", flag_inputs)
            replicas = dp_size
        else:
            by_flag = _with_flag(dp_size, flag, dp_attention)
            attn_dp_size = Derived(attn_dp_value, by_flag, (*dp_size.inputs, *flag_inputs))
            replicas = Derived(replicas_value, f"{dp_size.explanation} used for attention DP", attn_dp_size.inputs)

    attn_tp_value = _divide(tp_size.value, [attn_dp_size.value, attn_cp_size.value])
    parts = [tp_size.explanation]
    if not _is_plain_one(attn_dp_size):
        parts.append(attn_dp_size.explanation)
    if not _is_plain_one(attn_cp_size):
        parts.append(attn_cp_size.explanation)
    attn_tp_size = Derived(
        attn_tp_value,
        " / ".join(parts),
        _unique((*tp_size.inputs, *attn_dp_size.inputs, *attn_cp_size.inputs)),
    )
    return ParallelSizes(tp_size, replicas, attn_dp_size, attn_cp_size, pp_size, attn_tp_size)


# ---------------------------------------------------------------------------------
# Settings in words


def _find(settings: ServerSettings, dests: tuple[str, ...]) -> Setting | None:
    for dest in dests:
        if settings.has_option(dest):
            return settings.get(dest)
    return None


def _resolves_attn_dp_size(settings: ServerSettings) -> bool:
    """0.5.22 introduced --attn-dp-size and the new formula."""
    try:
        return version_key(settings.version) >= (0, 5, 22)
    except ValueError:
        return any(settings.has_option(dest) for dest in _ATTN_DP_DESTS)


def _sized(setting: Setting | None, name: str) -> Derived:
    """One size option as written (``--tp 8``, ``default tp 1``)."""
    if setting is None:
        return Derived(Value.unknown(f"no {name} option"), f"{name} unknown", ())
    return Derived(setting.value, _phrase(setting, name), (setting,))


def _phrase(setting: Setting, name: str) -> str:
    shown = setting.written if setting.written is not None else setting.value
    if setting.location is None:
        text = f"default {name} {shown.describe()}"
    else:
        text = setting.written_as(shown)
    if setting.written is not None and setting.value.kind is Kind.UNKNOWN and setting.value.reason:
        text += f" ({setting.value.reason})"
    return text


def _with_flag(dp_size: Derived, flag: Setting | None, state: bool | None) -> str:
    if flag is None:
        return dp_size.explanation
    if state is None:
        reason = flag.value.reason if flag.value.kind is Kind.UNKNOWN else flag.value.describe()
        return f"{dp_size.explanation} if dp-attention is on ({reason})"
    if flag.location is None:
        return f"{dp_size.explanation} with dp-attention"
    return f"{dp_size.explanation} with {flag.written_as()}"


def _is_plain_one(derived: Derived) -> bool:
    """A size of 1 that needs no mention: a known 1 from a default or no option."""
    return derived.value == ONE and all(s.is_default for s in derived.inputs)


def _unique(settings: tuple[Setting, ...]) -> tuple[Setting, ...]:
    seen: list[Setting] = []
    for setting in settings:
        if setting not in seen:
            seen.append(setting)
    return tuple(seen)


# ---------------------------------------------------------------------------------
# Arithmetic over Values


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _is_one(value: Value) -> bool | None:
    candidates = value.candidates()
    if candidates is None:
        return None
    numbers = {_int(c) for c in candidates}
    if numbers == {1}:
        return True
    if 1 not in numbers:
        return False
    return None


def _and(a: bool | None, b: bool | None) -> bool | None:
    if a is False or b is False:
        return False
    if a is True and b is True:
        return True
    return None


def _when(condition: bool | None, if_true: Value, if_false: Value) -> Value:
    if condition is True:
        return if_true
    if condition is False:
        return if_false
    if if_true == if_false or provably_equal(if_true, if_false):
        return if_true
    return Value.one_of([if_true, if_false])


def _divide(numerator: Value, divisors: list[Value]) -> Value:
    """``numerator // divisors[0] // divisors[1] ...`` as SGLang computes it."""
    operands = [numerator, *divisors]
    for operand in operands:
        if operand.kind in (Kind.UNKNOWN, Kind.CONCAT):
            return Value.unknown(operand.reason or f"{operand.describe()} is not a number we can see")
    if not any(operand.kind is Kind.SYMBOL for operand in operands):
        return _divide_all_combinations(operands)
    if any(operand.kind is Kind.ALTERNATIVES for operand in operands):
        return Value.unknown("depends on a variable and on a choice of values")
    return _divide_symbolically(numerator, divisors)


def _divide_all_combinations(operands: list[Value]) -> Value:
    results: set[str] = set()
    choices = [sorted(operand.candidates() or ()) for operand in operands]
    for combination in itertools.product(*choices):
        numbers = [_int(text) for text in combination]
        if any(n is None for n in numbers):
            bad = next(t for t, n in zip(combination, numbers) if n is None)
            return Value.unknown(f"{bad!r} is not a number")
        result = numbers[0]
        for divisor in numbers[1:]:
            if divisor == 0:
                return Value.unknown("division by zero")
            result //= divisor  # type: ignore[operator]
        results.add(str(result))
    return Value.one_of(Value.known(r) for r in results)


def _divide_symbolically(numerator: Value, divisors: list[Value]) -> Value:
    """Symbols and known numbers: the expression as a symbol of its own."""
    known_divisor = 1
    symbol_divisors: list[Value] = []
    for divisor in divisors:
        if divisor.kind is Kind.SYMBOL:
            symbol_divisors.append(divisor)
            continue
        number = _int(divisor.text)
        if number is None or number == 0:
            return Value.unknown(f"{divisor.text!r} is not a usable divisor")
        known_divisor *= number
    if numerator.kind is Kind.SYMBOL and numerator in symbol_divisors:
        # x // x == 1 for every size SGLang accepts (sizes are >= 1).
        symbol_divisors.remove(numerator)
        numerator = ONE
    if numerator.kind is not Kind.SYMBOL:
        number = _int(numerator.text)
        if number is None:
            return Value.unknown(f"{numerator.text!r} is not a number")
        if not symbol_divisors:
            return Value.known(str(number // known_divisor))
        numerator = Value.known(str(number))
    elif not symbol_divisors and known_divisor == 1:
        return numerator  # the same symbol: provably equal to itself elsewhere
    # (x // a) // b == (x // b) // a for positive sizes, so the order is canonical.
    symbol_divisors.sort(key=lambda s: (s.name, s.default or ""))
    terms = [numerator.name if numerator.kind is Kind.SYMBOL else numerator.text]
    terms += [s.name for s in symbol_divisors]
    if known_divisor != 1:
        terms.append(str(known_divisor))
    return Value.symbol("/".join(terms), _default_of_expression(numerator, symbol_divisors, known_divisor))


def _default_of_expression(numerator: Value, symbol_divisors: list[Value], known_divisor: int) -> str | None:
    """The expression's value when every symbol takes its ``${VAR:-default}``."""
    def number(value: Value) -> int | None:
        text = value.default if value.kind is Kind.SYMBOL else value.text
        return _int(text) if text is not None else None

    result = number(numerator)
    if result is None:
        return None
    for divisor in symbol_divisors:
        n = number(divisor)
        if n is None or n == 0:
            return None
        result //= n
    return str(result // known_divisor)

