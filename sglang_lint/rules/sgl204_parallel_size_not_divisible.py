"""SGL204 parallel-size-not-divisible."""

from __future__ import annotations

import itertools
from typing import Iterable

from sglang_lint.catalog.attention import Derived
from sglang_lint.catalog.option_values import is_default_none
from sglang_lint.catalog.settings import Setting
from sglang_lint.catalog.tables import version_key
from sglang_lint.model import Finding, Location, Value
from sglang_lint.rules.base import Example, Rule, RuleContext, launch_noqa_ranges, setting_location
from sglang_lint.topology import Deployment, Server, server_sizes


def _numbers(value: Value) -> list[int] | None:
    texts = value.candidates()
    if not texts:
        return None
    numbers = []
    for text in texts:
        try:
            numbers.append(int(text))
        except ValueError:
            return None
    return sorted(numbers)


def _always(values: list[Value], predicate) -> tuple[int, ...] | None:
    """The first combination of numbers when ``predicate`` holds for every
    combination the values can take, else None (unknown or sometimes false).
    The same symbol in two places takes the same value."""
    choices = []
    for value in values:
        numbers = _numbers(value)
        if numbers is None:
            return None
        choices.append(numbers)
    combos = list(itertools.product(*choices))
    if not combos or not all(predicate(*combo) for combo in combos):
        return None
    return combos[0]


def _where(server: Server, derived: Iterable[Derived]) -> Location:
    """The last explicitly written setting among the inputs, else the launch."""
    written: list[Setting] = [s for d in derived for s in d.inputs if not s.is_default]
    if not written:
        return server.launch.location
    last = max(written, key=lambda s: (s.location.line, s.location.column) if s.location else (0, 0))
    return setting_location(server, last)


def _at_least(version: str, minimum: tuple[int, ...]) -> bool:
    try:
        return version_key(version) >= minimum
    except ValueError:
        return True


class ParallelSizeNotDivisible(Rule):
    code = "SGL204"
    name = "parallel-size-not-divisible"
    summary = "Parallel sizes SGLang rejects at startup: tp not divisible by attention DP x CP or by the node count, dp replicas with attn-dp"
    doc = """\
## What it does
Checks the parallel layout of each server after SGLang's own resolution of the
options (see SGL001 for how attention DP is derived):

- `--tp-size` must be divisible by attention DP x attention CP (attention DP is
  `--attn-dp-size`, or `--dp-size` with `--enable-dp-attention`);
- `--tp-size` x `--pp-size` must be divisible by `--nnodes`;
- from 0.5.22, `--dp-size` > 1 (data-parallel replicas) together with
  `--attn-dp-size` > 1 is rejected.

Values are checked only when known (a `${TP:-8}` default counts as the value).

## Why is this bad?
SGLang validates these after parsing and stops during startup, often only after
the model download or the multi-node rendezvous has begun:

- `assert cfg.tp_size % (cfg.attn_dp_size * view.attn_cp_size) == 0, "tp_size
  must be divisible by attn_dp_size * attn_cp_size"`
  (`sglang/srt/arg_groups/parallel_hook.py:162` in 0.5.23) and the bare
  `assert cfg.tp_size % cfg.attn_dp_size == 0` (same file, line 326);
- `assert (cfg.tp_size * cfg.pp_size) % cfg.nnodes == 0, "tp_size must be
  divisible by number of nodes"` (`sglang/srt/arg_groups/validation_hook.py:179`);
- `ValueError: --dp-size 2 with --attn-dp-size 4: data-parallel replicas combined
  with attention data parallelism are not supported.`
  (`sglang/srt/arg_groups/parallel_hook.py:287`).

## Example
```bash
python -m sglang.launch_server --model-path /m --tp 8 --dp 3 --enable-dp-attention
python -m sglang.launch_server --model-path /m --tp 4 --nnodes 3 --node-rank 0
python -m sglang.launch_server --model-path /m --tp 8 --dp 2 --attn-dp-size 4   # 0.5.22+
```

## How to fix
Choose sizes where attention DP x attention CP divides `--tp-size` (attention TP
is `tp / attn_dp / attn_cp`), make `tp x pp` a multiple of the number of nodes,
and use either data-parallel replicas (`--dp-size`) or attention DP
(`--attn-dp-size`), not both.

## Versions
The divisibility checks exist in every supported release (0.5.4
`server_args.py:1172` and `:3351`; 0.5.9 `server_args.py:2090`, `:2116`, `:5134`).
The `--dp-size` with `--attn-dp-size` check comes with `--attn-dp-size` in 0.5.22.
"""

    invalid = [
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp 8 --dp 3 --enable-dp-attention\n"},
            findings=1,
            message_contains="is not divisible by attention DP 3",
        ),
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp 4 --nnodes 3 --node-rank 0\n"},
            findings=1,
            message_contains="number of nodes",
        ),
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp 8 --dp 2 --attn-dp-size 4\n"},
            findings=1,
            message_contains="data-parallel replicas",
        ),
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp 8 --attn-cp-size 3\n"},
            findings=1,
            message_contains="attention CP 3",
        ),
    ]
    valid = [
        Example({"run.sh": "python -m sglang.launch_server --model-path /m --tp 16 --dp 2 --enable-dp-attention --nnodes 2 --node-rank 0\n"}),
        Example(
            # 0.5.22+ turns --dp 4 with the flag into --attn-dp-size 4 (no replicas left).
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp 8 --dp 4 --enable-dp-attention --pp-size 2 --nnodes 4\n"}
        ),
        Example({"run.sh": "python -m sglang.launch_server --model-path /m --tp $TP --dp 3 --enable-dp-attention\n"}),
        Example(
            {"run.sh": "python -m sglang.launch_server --model-path /m --tp 8 --dp 2 --attn-dp-size 4\n"},
            target_version="0.5.21",  # no --attn-dp-size: SGL202's, not ours
        ),
    ]

    def check_server(self, context: RuleContext, deployment: Deployment, server: Server) -> Iterable[Finding]:
        settings = server.settings
        sizes = server_sizes(server)
        version = settings.version
        noqa = launch_noqa_ranges(server)

        combo = _always(
            [sizes.tp.value, sizes.attn_dp.value, sizes.attn_cp.value],
            lambda tp, dp, cp: dp >= 1 and cp >= 1 and tp % (dp * cp) != 0,
        )
        if combo is not None:
            tp, attn_dp, attn_cp = combo
            parts = [(f"attention DP {attn_dp}", sizes.attn_dp.explanation)]
            if attn_cp != 1 or any(not s.is_default for s in sizes.attn_cp.inputs):
                parts.append((f"attention CP {attn_cp}", sizes.attn_cp.explanation))
            divisor = attn_dp * attn_cp
            if attn_dp == 1:
                parts = parts[1:]
            yield self.finding(
                f"tp {tp} is not divisible by {' x '.join(name for name, _ in parts)}"
                f"{f' = {divisor}' if len(parts) > 1 else ''}",
                _where(server, (sizes.tp, sizes.attn_dp, sizes.attn_cp)),
                noqa_ranges=noqa,
                help=f"make --tp-size a multiple of {divisor}, or change the attention DP/CP sizes",
                notes=(
                    f"tp {tp} = {sizes.tp.explanation}",
                    *(f"{name} = {explanation}" for name, explanation in parts),
                    "attention TP is tp / attn-dp / attn-cp and must be a whole number",
                    "SGLang stops at startup: \"tp_size must be divisible by attn_dp_size * attn_cp_size\"",
                ),
            )

        if settings.has_option("nnodes") and self._nodes_checked(server):
            nnodes = settings.get("nnodes")
            combo = _always(
                [sizes.tp.value, sizes.pp.value, nnodes.value],
                lambda tp, pp, n: n >= 1 and (tp * pp) % n != 0,
            )
            if combo is not None:
                tp, pp, n = combo
                where = setting_location(server, nnodes) if not nnodes.is_default else _where(server, (sizes.tp, sizes.pp))
                pp_text = f" x pp {pp}" if pp != 1 else ""
                yield self.finding(
                    f"tp {tp}{pp_text} = {tp * pp} GPUs cannot be spread evenly over {n} nodes",
                    where,
                    noqa_ranges=noqa,
                    help="make tp x pp a multiple of --nnodes (--tp-size counts the GPUs of all nodes together)",
                    notes=(
                        f"tp {tp} = {sizes.tp.explanation}",
                        *((f"pp {pp} = {sizes.pp.explanation}",) if pp != 1 else ()),
                        f"nnodes {n}: {nnodes.describe_source()}",
                        "SGLang stops at startup: \"tp_size must be divisible by number of nodes\" "
                        "(sglang/srt/arg_groups/validation_hook.py:179 in 0.5.23)",
                    ),
                )

        if _at_least(version, (0, 5, 22)) and settings.has_option("attn_dp_size"):
            combo = _always([sizes.dp.value, sizes.attn_dp.value], lambda dp, attn_dp: dp > 1 and attn_dp > 1)
            if combo is not None:
                dp, attn_dp = combo
                yield self.finding(
                    f"--dp-size {dp} with --attn-dp-size {attn_dp}: replicas and attention DP cannot be combined",
                    _where(server, (sizes.dp, sizes.attn_dp)),
                    noqa_ranges=noqa,
                    help="use --attn-dp-size alone for attention DP, or --dp-size alone for full replicas",
                    notes=(
                        f"attention DP {attn_dp} = {sizes.attn_dp.explanation}",
                        f"sglang {version} rejects data-parallel replicas combined with attention data parallelism "
                        "at startup (sglang/srt/arg_groups/parallel_hook.py:287 in 0.5.23); --attn-dp-size exists "
                        "from 0.5.22",
                    ),
                )

    @staticmethod
    def _nodes_checked(server: Server) -> bool:
        """0.5.23 skips the node check when joining an elastic EP group
        (``if cfg.ep_join_mode != "scale"``)."""
        if not server.settings.has_option("ep_join_mode"):
            return True
        setting = server.settings.get("ep_join_mode")
        if is_default_none(setting):
            return True
        value = setting.value
        texts = value.candidates()
        return texts is not None and "scale" not in texts
