"""SGL003 pd-page-size-mismatch."""

from __future__ import annotations

from typing import Iterable

from msgspec.structs import replace

from sglang_lint.catalog.option_values import is_default_none
from sglang_lint.model import Finding, Related, Severity, provably_equal
from sglang_lint.rules.base import Example, Rule, RuleContext, give_decode, launch_noqa_ranges, setting_location
from sglang_lint.rules.messages import clip, sides
from sglang_lint.rules.pd_pair import resolved_candidates, side_note, value_text
from sglang_lint.topology import Deployment, Server

# Attention backends whose post-processing rewrites an explicit --page-size
# (sglang/srt/arg_groups/overrides.py:1143-1198 `_mla_backend_page_constraints`,
# 0.5.23): backend -> (page sizes it keeps, the size it forces otherwise).
_BACKEND_PAGE_RULES = {
    "flashmla": (frozenset(), "64"),
    "trtllm_mla": (frozenset({"32", "64"}), "64"),
    "cutedsl_mla": (frozenset({"32", "64"}), "64"),
    "trtllm_mha": (frozenset({"16", "32", "64", "128"}), "64"),
    "hpc_ops": (frozenset({"64"}), "64"),
}
_BACKEND_DESTS = (
    "attention_backend",
    "decode_attention_backend",
    "prefill_attention_backend",
    "speculative_draft_attention_backend",
)


def _page_resolver(server: Server):
    """The page sizes a written --page-size may become on this server, given
    the attention backends it names explicitly. A backend we cannot see makes
    every rewrite possible."""
    rules = []
    for dest in _BACKEND_DESTS:
        value = server.setting(dest).value
        candidates = value.candidates()
        if candidates is None:
            if server.setting(dest).is_default and is_default_none(server.setting(dest)):
                continue  # automatic choice: see the rule's doc
            if server.settings.has_option(dest):
                rules.extend(_BACKEND_PAGE_RULES.values())
            continue
        rules.extend(_BACKEND_PAGE_RULES[c] for c in candidates if c in _BACKEND_PAGE_RULES)

    def resolve(text: str) -> Iterable[str]:
        yield text
        for keeps, forced in rules:
            if text not in keeps:
                yield forced

    return resolve


class PdPageSizeMismatch(Rule):
    code = "SGL003"
    name = "pd-page-size-mismatch"
    fix = "sometimes"
    summary = "Prefill and decode of a pair use different --page-size values (or only one side sets it)"
    doc = """\
## What it does
For every prefill x decode pair of a deployment, compares `--page-size`:

- both sides set it, and the values are provably different (known values, branch
  alternatives, `${VAR:-default}` defaults): an **error**;
- only one side sets it and the other provably leaves it at SGLang's default: a
  **warning** (see below).

## Why is this bad?
The decode fetches the prefill's registration from the bootstrap server and
refuses a different page size: "Page size mismatch: prefill server has
page_size=..., but decode server has page_size=... Both servers must use the same
--page-size value." (`sglang/srt/disaggregation/common/conn.py:1321` in 0.5.23).
This happens when the first request is handed over, not at startup: both servers
boot and pass health checks, and every request fails.

The default of `--page-size` is `None`, resolved at startup from the attention
backend and the model (1 for most backends; 64 for FlashMLA and, unless 32/64,
for TRT-LLM MLA / CuteDSL MLA / HPC-Ops; 128 or 256 for some models). So a page
size set on one side only is not provably a mismatch - it depends on the GPU, the
automatically chosen backend and the model - and is reported as a warning: the
deployment works only if the other side happens to resolve to the same number.
An unknown default is never compared as a value.

SGLang also rewrites an explicit `--page-size` for some attention backends
(`sglang/srt/arg_groups/overrides.py:1143` `_mla_backend_page_constraints`, e.g.
`--attention-backend flashmla` forces 64). When a side names such a backend, the
rule compares what the backend leaves, so `--page-size 16` vs `--page-size 32`
with FlashMLA on both sides is not reported. A backend chosen automatically (no
`--attention-backend`) is assumed not to rewrite: name the backend when you rely
on its rewrite.

## Example
```bash
python -m sglang.launch_server --disaggregation-mode prefill --page-size 64 --port 30000
python -m sglang.launch_server --disaggregation-mode decode --page-size 16 --port 30001
```

## How to fix
Pass the same `--page-size` to every prefill and every decode server of the
deployment (set it explicitly on both sides rather than relying on the default).

## Versions
The check is in `common/conn.py` from 0.5.8 (0.5.8: line 277; 0.5.23: line 1321).
In 0.5.4-0.5.7 nothing checks it and the KV pages are copied with the wrong layout. The rule applies to
every version.
"""

    invalid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --page-size 64 --port 30000 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --page-size 16 --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="prefill 64",
        ),
        Example(
            {
                "run.sh": (
                    "PAGE=${PAGE_SIZE:-32}\n"
                    "python -m sglang.launch_server --disaggregation-mode prefill --page-size 64 --port 30000 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --page-size $PAGE --port 30001 &\n"
                )
            },
            findings=1,
            message_contains="default",
        ),
        Example(
            {
                "prefill.sh": "python -m sglang.launch_server --disaggregation-mode prefill --page-size 64\n",
                "decode.sh": "python -m sglang.launch_server --disaggregation-mode decode --port 30001\n",
            },
            findings=1,
            message_contains="only the prefill sets --page-size",
        ),
    ]
    valid = [
        Example(
            {
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --page-size 64 --port 30000 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --page-size 64 --port 30001 &\n"
                )
            }
        ),
        Example(
            {
                # The same variable on both sides is equal whatever it holds;
                # "$@" may set the decode's page size.
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --page-size $PAGE --port 30000 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --page-size $PAGE --port 30001 &\n"
                    'python -m sglang.launch_server --disaggregation-mode decode --port 30002 "$@" &\n'
                )
            }
        ),
        Example(
            {
                # FlashMLA forces page size 64 on both sides.
                "run.sh": (
                    "python -m sglang.launch_server --disaggregation-mode prefill --attention-backend flashmla --page-size 16 &\n"
                    "python -m sglang.launch_server --disaggregation-mode decode --attention-backend flashmla --page-size 32 --port 30001 &\n"
                )
            }
        ),
    ]

    def check_pair(self, context: RuleContext, deployment: Deployment, prefill: Server, decode: Server) -> Iterable[Finding]:
        p, d = prefill.setting("page_size"), decode.setting("page_size")
        noqa = launch_noqa_ranges(decode)
        if not (p.is_default or d.is_default):
            if provably_equal(p.value, d.value) or not _disjoint_each_resolved(p, prefill, d, decode):
                return
            yield self.finding(
                sides("--page-size", value_text(p), value_text(d)),
                setting_location(decode, d),
                related=[Related(setting_location(prefill, p), f"prefill --page-size {clip(value_text(p))}")],
                noqa_ranges=noqa,
                help=f"use the same --page-size on both sides, e.g. --page-size {value_text(p)} on the decode",
                notes=(side_note(prefill, p, "page size"), side_note(decode, d, "page size"), *_FAILURE),
                fixes=give_decode("--page-size", "--page-size", p, decode, d) if not p.is_default else (),
            )
            return
        # Set on one side only, the other provably at the default None.
        if p.is_default and is_default_none(p) and not d.is_default and resolved_candidates(d.value) is not None:
            side, explicit, server, other, other_server = "decode", d, decode, "prefill", prefill
        elif d.is_default and is_default_none(d) and not p.is_default and resolved_candidates(p.value) is not None:
            side, explicit, server, other, other_server = "prefill", p, prefill, "decode", decode
        else:
            return
        message = f"only the {side} sets --page-size ({clip(value_text(explicit))}); the {other} leaves it to SGLang's default"
        notes = (
            side_note(server, explicit, "page size"),
            f"the {other} ({other_server.label}) does not set --page-size: SGLang resolves it at startup from the "
            "attention backend and model (1 for most backends, 64 for FlashMLA/TRT-LLM MLA, more for some models)",
            "if the two differ, " + _FAILURE[0],
            _FAILURE[1],
        )
        if side == "decode":
            primary = setting_location(decode, d)
            related = [Related(prefill.launch.location, "prefill with the default --page-size")]
        else:
            primary = decode.launch.location
            related = [Related(setting_location(prefill, p), f"prefill --page-size {value_text(p)}")]
        finding = self.finding(
            message,
            primary,
            related=related,
            noqa_ranges=noqa,
            help=f"pass --page-size {value_text(explicit)} to the {other} too",
            notes=notes,
            # The decode without --page-size gets the prefill's.
            fixes=give_decode("--page-size", "--page-size", p, decode, d) if side == "prefill" else (),
        )
        yield replace(finding, severity=Severity.WARNING)


_FAILURE = (
    "the decode rejects the prefill's KV pages at the first request: \"Page size mismatch: prefill server has "
    "page_size=..., but decode server has page_size=...\" (sglang/srt/disaggregation/common/conn.py:1321 in 0.5.23)",
    "checked from sglang 0.5.8; 0.5.4-0.5.7 copy the pages with the wrong layout instead",
)


def _disjoint_each_resolved(p, prefill: Server, d, decode: Server) -> bool:
    """Each side resolved with its own backends: no page size both can end at."""
    cp = resolved_candidates(p.value, _page_resolver(prefill))
    cd = resolved_candidates(d.value, _page_resolver(decode))
    return cp is not None and cd is not None and cp.isdisjoint(cd)
