"""SGL004 pd-kv-cache-dtype-mismatch."""

from __future__ import annotations

from typing import Iterable

from msgspec.structs import replace

from sglang_lint.catalog.option_values import is_default_none
from sglang_lint.catalog.settings import Setting
from sglang_lint.model import Finding, Related, Severity
from sglang_lint.rules.base import Example, Rule, RuleContext, give_decode, launch_noqa_ranges, setting_location
from sglang_lint.rules.messages import clip, sides
from sglang_lint.rules.pd_pair import provably_different_resolved, resolved_candidates, side_note, value_text
from sglang_lint.topology import Deployment, Server

_BACKEND_DESTS = ("attention_backend", "decode_attention_backend")


def _may_be(server: Server, dest: str, text: str) -> bool:
    """The option may hold ``text`` (a default None counts as not holding it)."""
    setting = server.setting(dest)
    if is_default_none(setting) or not server.settings.has_option(dest):
        return False
    candidates = setting.value.candidates()
    return candidates is None or text in candidates


def _dtype_resolver(server: Server, fp8_checkpoint: bool = True):
    """The strings SGLang 0.5.23 may compare for a written --kv-cache-dtype
    (``model_runner.kv_cache_dtype_str``):

    - ``auto`` becomes ``fp8_e4m3`` for a checkpoint with FP8 KV quantization
      (mem_cache/kv_cache_dtype.py:50-57), ``fp8_e4m3``/``bfloat16`` by model
      overrides (arg_groups/overrides.py:318-320, 532-535, 901-906;
      model_overrides/minimax_m3.py:116-117), else stays ``auto``;
    - ``bf16`` becomes ``bfloat16`` for DeepSeek DSA models (overrides.py:539);
    - any value becomes ``fp8_e4m3`` with the tokenspeed_mla backend
      (arg_groups/serving_hook.py:325-330), and ``bfloat16`` for DeepSeek-V4 on
      an NPU (overrides.py:905-906);
    - every other value is compared as written.

    ``fp8_checkpoint=False`` leaves out ``auto`` becoming ``fp8_e4m3``: what
    the pair looks like when the model declares no FP8 KV cache.
    """
    tokenspeed = any(_may_be(server, dest, "tokenspeed_mla") for dest in _BACKEND_DESTS)
    npu = _may_be(server, "device", "npu")

    def resolve(text: str) -> Iterable[str]:
        yield text
        if text == "auto":
            if fp8_checkpoint:
                yield "fp8_e4m3"
            yield "bfloat16"
        if text == "bf16":
            yield "bfloat16"
        if tokenspeed:
            yield "fp8_e4m3"
        if npu:
            yield "bfloat16"

    return resolve


class PdKvCacheDtypeMismatch(Rule):
    code = "SGL004"
    name = "pd-kv-cache-dtype-mismatch"
    fix = "sometimes"
    summary = "Prefill and decode of a pair resolve --kv-cache-dtype to different values (or auto against FP8)"
    doc = """\
## What it does
For every prefill x decode pair of a deployment, compares the KV cache dtype each
server ends up with:

- the two are provably different whatever the model: an **error**;
- one side is `auto` (written, or SGLang's default) and the other sets
  `fp8_e4m3`: a **warning**, naming the condition - the two are equal only if
  the checkpoint declares an FP8 KV cache.

SGLang compares the *strings* it resolved, not the torch dtypes:
`model_runner.kv_cache_dtype_str`, which is the `--kv-cache-dtype` as written
(default `auto`), except that `auto` becomes `fp8_e4m3` for checkpoints that
declare FP8 KV quantization and for some models (DeepSeek DSA on SM100+,
DeepSeek-V4, Muse Spark, MiniMax M3.1 NVFP4), or `bfloat16` (DeepSeek DSA
elsewhere), and `bf16` becomes `bfloat16` for DeepSeek DSA. The rule takes
every such rewrite into account, so:

- `auto` vs `auto` is equal; `auto` vs `fp8_e5m2` (or `mxfp8`, `nvfp4`) is an
  error: `auto` never becomes those;
- `auto` vs `fp8_e4m3` is a warning. `auto` becomes `fp8_e4m3` only when the
  checkpoint's quantization config declares `kv_cache_quant_algo` FP8 (or for
  the models listed above); otherwise SGLang compares the string `auto` with
  `fp8_e4m3` and rejects the pair (`mem_cache/kv_cache_dtype.py:49-57`,
  `model_executor/model_runner.py:1572-1576` in 0.5.23). The rule cannot read the
  checkpoint, so it says what the pair depends on;
- `bf16` vs `fp8_e4m3` is reported; `bf16` vs `bfloat16` is not (DeepSeek DSA
  turns both into `bfloat16`; for other models SGLang compares the two strings
  and rejects the pair, which the rule cannot prove without knowing the model).

## Why is this bad?
The decode refuses a prefill whose KV cache dtype differs: "KV cache dtype
mismatch: prefill server has kv_cache_dtype=..., but decode server has
kv_cache_dtype=... Both servers must use the same --kv-cache-dtype value."
(`sglang/srt/disaggregation/common/conn.py:1331` in 0.5.23). It happens when the
first request is transferred: both servers start and pass health checks.

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --kv-cache-dtype fp8_e4m3
python -m sglang.launch_server --disaggregation-mode decode --kv-cache-dtype bf16 --port 30001
# A warning: the decode keeps auto, equal to fp8_e4m3 only for an FP8-KV checkpoint.
python -m sglang.launch_server --disaggregation-mode prefill --kv-cache-dtype fp8_e4m3
python -m sglang.launch_server --disaggregation-mode decode --port 30001
```

## How to fix
Pass the same `--kv-cache-dtype` to every prefill and decode server of the
deployment (spelled the same way: `bf16` and `bfloat16` are different strings).
For the warning, write the FP8 dtype on both sides (or `auto` on both): then the
pair does not depend on what the checkpoint declares.

## Versions
The check exists from 0.5.10 (0.5.23: `common/conn.py:1331`). In 0.5.4-0.5.9
nothing checks it and the KV bytes are copied into a cache of another dtype. The
rewrites listed above were read from 0.5.23; they only widen what the rule
accepts. A DeepSeek-V4 NPU deployment that relies on the device being detected
(no `--device npu`) can have every dtype rewritten to `bfloat16`; name the device.
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --kv-cache-dtype fp8_e4m3 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --kv-cache-dtype bf16 --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="fp8_e4m3",
        ),
        Example(
            {
                # The decode keeps SGLang's default auto: never fp8_e5m2.
                "prefill.sh": "DTYPE=${KV_DTYPE:-fp8_e5m2}\npython -m sglang.launch_server --disaggregation-mode prefill --kv-cache-dtype $DTYPE\n",
                "decode.sh": "python -m sglang.launch_server --disaggregation-mode decode --port 30001\n",
            },
            findings=1,
            message_contains="default",
        ),
        Example(
            {
                # auto equals fp8_e4m3 only for a checkpoint declaring FP8 KV: a warning.
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --kv-cache-dtype fp8_e4m3 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="equal only if the checkpoint declares FP8 KV",
        ),
        Example(
            {
                # The same with auto written on the prefill.
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --kv-cache-dtype auto &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --kv-cache-dtype fp8_e4m3 --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="prefill sets --kv-cache-dtype auto",
        ),
    ]
    valid = [
        Example(
            {
                # FP8 on both sides: nothing depends on the checkpoint.
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --kv-cache-dtype fp8_e4m3 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --kv-cache-dtype fp8_e4m3 --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                # tokenspeed_mla turns every KV cache dtype into fp8_e4m3 (serving_hook.py:325-330).
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --kv-cache-dtype fp8_e4m3 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --attention-backend tokenspeed_mla --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                # auto against bf16: equal for DeepSeek DSA models (both become bfloat16),
                # which the rule cannot rule out; no warning (the condition is not FP8 KV).
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --kv-cache-dtype bf16 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --kv-cache-dtype auto &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --port 30001 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --kv-cache-dtype $KV --port 30002 &\n"
                )
            }
        ),
    ]

    def check_pair(self, context: RuleContext, deployment: Deployment, prefill: Server, decode: Server) -> Iterable[Finding]:
        p, d = prefill.setting("kv_cache_dtype"), decode.setting("kv_cache_dtype")
        if provably_different_resolved(p.value, d.value, _dtype_resolver(prefill), _dtype_resolver(decode)):
            yield self._mismatch(prefill, p, decode, d)
            return
        if provably_different_resolved(
            p.value, d.value, _dtype_resolver(prefill, fp8_checkpoint=False), _dtype_resolver(decode, fp8_checkpoint=False)
        ):
            yield self._auto_against_fp8(prefill, p, decode, d)

    def _mismatch(self, prefill: Server, p: Setting, decode: Server, d: Setting) -> Finding:
        finding = self._pair_finding(
            prefill,
            p,
            decode,
            d,
            sides("--kv-cache-dtype", value_text(p), value_text(d)),
            f"pass --kv-cache-dtype {value_text(p)} to the decode, or the same value to both sides",
            "SGLang compares the dtype strings after its own rewrites (auto may become fp8_e4m3 or bfloat16); "
            "no rewrite can make these two equal",
            _FAILURE,
        )
        return replace(finding, fixes=give_decode("--kv-cache-dtype", "--kv-cache-dtype", p, decode, d))

    def _auto_against_fp8(self, prefill: Server, p: Setting, decode: Server, d: Setting) -> Finding:
        """One side ``auto``, the other ``fp8_e4m3``: equal only when SGLang
        turns ``auto`` into ``fp8_e4m3``, i.e. when the model declares an FP8 KV
        cache. Only one side can hold ``auto`` here (two would be equal)."""
        p_auto = "auto" in (resolved_candidates(p.value) or ())
        auto_side, auto_server, auto_setting = ("prefill", prefill, p) if p_auto else ("decode", decode, d)
        fp8_side, fp8_setting = ("decode", d) if p_auto else ("prefill", p)
        kept = "keeps --kv-cache-dtype auto (default)" if auto_setting.is_default else f"sets --kv-cache-dtype {clip(value_text(auto_setting))}"
        finding = self._pair_finding(
            prefill,
            p,
            decode,
            d,
            f"{auto_side} {kept}, {fp8_side} sets {clip(value_text(fp8_setting))}: equal only if the checkpoint declares FP8 KV",
            f"pass --kv-cache-dtype {value_text(fp8_setting)} to the {auto_side} too",
            f"the {auto_side} ({auto_server.label}) resolves auto to fp8_e4m3 only for a checkpoint whose "
            "quantization config declares kv_cache_quant_algo FP8 (and for a few models SGLang switches to FP8 KV); "
            "otherwise it stays auto (sglang/srt/mem_cache/kv_cache_dtype.py:49-57, "
            "model_executor/model_runner.py:1572-1576 in 0.5.23)",
            "if the two differ, " + _FAILURE,
        )
        # The decode left at auto takes the prefill's FP8.
        fixes = give_decode("--kv-cache-dtype", "--kv-cache-dtype", p, decode, d) if auto_side == "decode" else ()
        return replace(finding, severity=Severity.WARNING, fixes=fixes)

    def _pair_finding(
        self, prefill: Server, p: Setting, decode: Server, d: Setting, message: str, help_text: str, *why: str
    ) -> Finding:
        """A finding on the decode's value, the prefill's as related, with the
        notes both kinds share around ``why``."""
        return self.finding(
            message,
            setting_location(decode, d),
            related=[Related(setting_location(prefill, p), f"prefill --kv-cache-dtype {clip(value_text(p))}")],
            noqa_ranges=launch_noqa_ranges(decode),
            help=help_text,
            notes=(side_note(prefill, p, "--kv-cache-dtype"), side_note(decode, d, "--kv-cache-dtype"), *why, _CHECKED_FROM),
        )


_FAILURE = (
    "the decode rejects the prefill's KV cache at the first request: \"KV cache dtype mismatch: prefill "
    "server has kv_cache_dtype=..., but decode server has kv_cache_dtype=...\" "
    "(sglang/srt/disaggregation/common/conn.py:1331 in 0.5.23)"
)
_CHECKED_FROM = "checked from sglang 0.5.10; 0.5.4-0.5.9 copy the KV bytes into a cache of another dtype"
