"""SGL004 pd-kv-cache-dtype-mismatch."""

from __future__ import annotations

from typing import Iterable

from sglang_lint.catalog.option_values import is_default_none
from sglang_lint.model import Finding, Related
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges, setting_location
from sglang_lint.rules.messages import clip, sides
from sglang_lint.rules.pd_pair import provably_different_resolved, side_note, value_text
from sglang_lint.topology import Deployment, Server

_BACKEND_DESTS = ("attention_backend", "decode_attention_backend")


def _may_be(server: Server, dest: str, text: str) -> bool:
    """The option may hold ``text`` (a default None counts as not holding it)."""
    setting = server.setting(dest)
    if is_default_none(setting) or not server.settings.has_option(dest):
        return False
    candidates = setting.value.candidates()
    return candidates is None or text in candidates


def _dtype_resolver(server: Server):
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
    """
    tokenspeed = any(_may_be(server, dest, "tokenspeed_mla") for dest in _BACKEND_DESTS)
    npu = _may_be(server, "device", "npu")

    def resolve(text: str) -> Iterable[str]:
        yield text
        if text == "auto":
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
    summary = "Prefill and decode of a pair resolve --kv-cache-dtype to different values"
    doc = """\
## What it does
For every prefill x decode pair of a deployment, compares the KV cache dtype each
server ends up with, and reports the pair when the two are provably different.

SGLang compares the *strings* it resolved, not the torch dtypes:
`model_runner.kv_cache_dtype_str`, which is the `--kv-cache-dtype` as written
(default `auto`), except that `auto` becomes `fp8_e4m3` for checkpoints that
declare FP8 KV quantization and for some models (DeepSeek DSA on SM100+,
DeepSeek-V4, Muse Spark, MiniMax M3.1 NVFP4), or `bfloat16` (DeepSeek DSA
elsewhere), and `bf16` becomes `bfloat16` for DeepSeek DSA. The rule takes
every such rewrite into account, so:

- `auto` vs `auto` is equal; `auto` vs `fp8_e4m3` is **not** reported (an FP8-KV
  checkpoint resolves `auto` to `fp8_e4m3`); `auto` vs `fp8_e5m2` is reported;
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
```

## How to fix
Pass the same `--kv-cache-dtype` to every prefill and decode server of the
deployment (spelled the same way: `bf16` and `bfloat16` are different strings).

## Versions
The check exists from 0.5.10 (0.5.23: `common/conn.py:1331`). In 0.5.4 and 0.5.9
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
    ]
    valid = [
        Example(
            {
                # auto may resolve to fp8_e4m3 (FP8-KV checkpoint).
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --kv-cache-dtype fp8_e4m3 &\n"
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
        if not provably_different_resolved(p.value, d.value, _dtype_resolver(prefill), _dtype_resolver(decode)):
            return
        yield self.finding(
            sides("--kv-cache-dtype", value_text(p), value_text(d)),
            setting_location(decode, d),
            related=[Related(setting_location(prefill, p), f"prefill --kv-cache-dtype {clip(value_text(p))}")],
            noqa_ranges=launch_noqa_ranges(decode),
            help=f"pass --kv-cache-dtype {value_text(p)} to the decode, or the same value to both sides",
            notes=(
                side_note(prefill, p, "--kv-cache-dtype"),
                side_note(decode, d, "--kv-cache-dtype"),
                "SGLang compares the dtype strings after its own rewrites (auto may become fp8_e4m3 or bfloat16); "
                "no rewrite can make these two equal",
                "the decode rejects the prefill's KV cache at the first request: \"KV cache dtype mismatch: prefill "
                "server has kv_cache_dtype=..., but decode server has kv_cache_dtype=...\" "
                "(sglang/srt/disaggregation/common/conn.py:1331 in 0.5.23)",
                "checked from sglang 0.5.10; 0.5.4 and 0.5.9 copy the KV bytes into a cache of another dtype",
            ),
        )
