"""Launch configs held in dicts and config objects (issue 19): ``Engine(**cfg)`` /
``ServerArgs(**cfg)`` with ``cfg`` a dict the interpreter follows, Ray Serve LLM's
``LLMConfig(engine_kwargs=...)`` with SGLang's engine, and module-level dicts of
per-role argv fragments launched in a loop.

Each test is a small launcher; the assertions read the settings SGLang would end up
with, so they check the interpreter, the launch recognisers and the catalog together.
"""

from __future__ import annotations

import textwrap

import pytest

from sglang_lint.model import EntryPoint, Kind
from sglang_lint.pipeline import LintOptions, lint_texts
from sglang_lint.sources.python import analyze_python


def _servers(source: str, path: str = "launch.py"):
    result = lint_texts({path: textwrap.dedent(source)}, LintOptions())
    return [s for d in result.deployments for s in d.servers], result


def _value(server, dest: str) -> str:
    return server.setting(dest).value.describe()


def _roles_and(servers, dest: str) -> list[tuple[str, str]]:
    return sorted((s.role, _value(s, dest)) for s in servers)


# -- dicts spread into Engine / ServerArgs ----------------------------------------------


@pytest.mark.parametrize(
    "build",
    [
        # dict(...) with keywords, then an item assignment that overrides a key
        'cfg = dict(model_path="m", tp_size=2)\ncfg["tp_size"] = 8',
        # {**base, ...}: the later key wins
        'base = {"model_path": "m", "tp_size": 2}\ncfg = {**base, "tp_size": 8}',
        # dict(base, key=...)
        'base = {"model_path": "m", "tp_size": 2}\ncfg = dict(base, tp_size=8)',
        # .update() with a dict and with keywords
        'cfg = {"model_path": "m"}\ncfg.update({"tp_size": 2})\ncfg.update(tp_size=8)',
        # | and |= (Python 3.9+)
        'base = {"model_path": "m", "tp_size": 2}\ncfg = base | {"tp_size": 8}',
        'cfg = {"model_path": "m", "tp_size": 2}\ncfg |= {"tp_size": 8}',
        # returned from a function
        'def make(tp):\n    out = {"model_path": "m"}\n    out["tp_size"] = tp\n    return out\ncfg = make(8)',
        # dict(**base, key=...)
        'base = {"model_path": "m"}\ncfg = dict(**base, tp_size=8)',
    ],
)
@pytest.mark.parametrize("call", ["sglang.Engine(**cfg)", "ServerArgs(**cfg)"])
def test_dict_forms_spread_into_engine_and_server_args(build, call):
    servers, _ = _servers(f"import sglang\nfrom sglang.srt.server_args import ServerArgs\n{build}\n{call}\n")
    (server,) = servers
    assert (_value(server, "tp_size"), _value(server, "model_path")) == ("8", "m")
    # Nothing unseen went into the dict: every other field keeps its default.
    assert server.setting("enable_dp_attention").value.kind is Kind.KNOWN


def test_engine_kwargs_are_located_where_the_dict_was_written():
    servers, result = _servers(
        """
        import sglang
        COMMON = {"model_path": "m", "enable_unified_memory": True}
        prefill = sglang.Engine(**{**COMMON, "disaggregation_mode": "prefill", "tp_size": 4})
        DECODE = dict(COMMON, disaggregation_mode="decode", tp_size=4)
        DECODE["dp_size"] = 4
        DECODE.update(enable_dp_attention=True)
        decode = sglang.Engine(**DECODE)
        """
    )
    assert sorted((s.role, s.attn_tp.value.describe()) for s in servers) == [("decode", "1"), ("prefill", "4")]
    # The finding is on the decode's dp_size, written on line 6 of the launcher.
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL001", 6)]


def test_per_role_dicts_selected_by_a_loop_variable():
    servers, result = _servers(
        """
        import sglang as sgl
        BASE = {"model_path": "m", "enable_unified_memory": True}
        CONFIGS = {
            "prefill": {**BASE, "tp_size": 8},
            "decode": {**BASE, "tp_size": 8, "dp_size": 8, "enable_dp_attention": True},
        }
        for role in ("prefill", "decode"):
            cfg = CONFIGS[role]
            sgl.Engine(disaggregation_mode=role, **cfg)
        """
    )
    assert sorted((s.role, s.attn_tp.value.describe()) for s in servers) == [("decode", "1"), ("prefill", "8")]
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL001", 6)]


@pytest.mark.parametrize(
    "build, tp_size",
    [
        # keys we cannot see before the one named: it is final
        ("cfg = dict(**os.environ, tp_size=8)", "8"),
        ("cfg = dict(load(), tp_size=8)", "8"),
        ('cfg = {**load(), "tp_size": 8}', "8"),
        ('cfg = load() | {"tp_size": 8}', None),  # not a dict we can see: nothing is known
        ('cfg = {}\ncfg.update(load(), tp_size=8)', "8"),
        # ... after it: they may replace it
        ('cfg = {"tp_size": 8, **load()}', "?"),
        ('cfg = {"tp_size": 8}\ncfg.update(**load())', "?"),
        ('cfg = {"tp_size": 8}\ncfg.update(load())', "?"),
        ('cfg = {"tp_size": 8} | load()', "?"),
        ('cfg = {"tp_size": 8}\ncfg |= load()', "?"),
        ('cfg = {"tp_size": 8}\ncfg[load()] = True', "?"),
        ('cfg = dict({"tp_size": 8}, **load())', "?"),
    ],
)
def test_keys_we_cannot_see_leave_the_fields_they_may_set_unknown(build, tp_size):
    """A dict that may hold keys we cannot see may set any field: the fields it
    does not name are unknown, never their defaults, and so is a key set before
    the unseen ones (they may replace it), never one set after (no false finding,
    and no value lost)."""
    servers, _ = _servers(f"import os, sglang\nfrom cfgs import load\n{build}\nsglang.Engine(**cfg)\n")
    (server,) = servers
    if tp_size == "8":
        assert _value(server, "tp_size") == "8"
    else:
        assert server.setting("tp_size").value.kind is Kind.UNKNOWN
    assert server.setting("enable_unified_memory").value.kind is Kind.UNKNOWN
    if tp_size == "?":  # the place the replaced value was written is kept
        assert server.setting("tp_size").location.line == 3


def test_unseen_dict_spread_gives_no_finding():
    _, result = _servers(
        """
        import sglang
        from cfgs import PREFILL, DECODE
        sglang.Engine(disaggregation_mode="prefill", tp_size=8, enable_unified_memory=True, **PREFILL)
        sglang.Engine(disaggregation_mode="decode", enable_unified_memory=True, **DECODE)
        """
    )
    assert result.findings == []


# -- argv fragments in module-level dicts -------------------------------------------------


def test_other_args_lists_per_role_launched_in_a_loop():
    servers, result = _servers(
        """
        from sglang.test.test_utils import popen_launch_pd_server
        COMMON = ["--trust-remote-code"]
        OTHER_ARGS = {
            "prefill": ["--disaggregation-mode", "prefill", "--tp-size", "4", "--page-size", "64"],
            "decode": ["--disaggregation-mode", "decode", "--tp-size", "2", "--page-size", "32"],
        }
        for port, role in enumerate(OTHER_ARGS, start=21000):
            popen_launch_pd_server("m", f"http://127.0.0.1:{port}", 600, other_args=COMMON + OTHER_ARGS[role])
        """
    )
    assert _roles_and(servers, "tp_size") == [("decode", "2"), ("prefill", "4")]
    assert _roles_and(servers, "port") == [("decode", "21001"), ("prefill", "21000")]
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL003", 6)]


# -- Ray Serve LLM ---------------------------------------------------------------------------

_RAY_PD = """
from ray.serve.llm import LLMConfig, {server_import}
SHARED = {{"model_path": "m", "enable_unified_memory": True}}
prefill = LLMConfig(
    model_loading_config={{"model_id": "m"}},{server_cls}
    engine_kwargs={{**SHARED, "disaggregation_mode": "prefill", "tp_size": 4}},
)
decode = LLMConfig(
    model_loading_config={{"model_id": "m"}},{server_cls}
    engine_kwargs={{**SHARED, "disaggregation_mode": "decode", "tp_size": 2}},
)
"""


@pytest.mark.parametrize(
    "server_import, server_cls",
    [
        ("SGLangServer", "\n    server_cls=SGLangServer,"),
        # A class of this file built on Ray's
        ("SGLangServer as _Base\nclass Tuned(_Base):\n    pass", "\n    server_cls=Tuned,"),
        # No server class: disaggregation_mode is a ServerArgs field vLLM has no counterpart of
        ("build_openai_app", ""),
    ],
)
def test_ray_llm_config_with_sglang_engine_is_an_engine_launch(server_import, server_cls):
    servers, result = _servers(_RAY_PD.format(server_import=server_import, server_cls=server_cls))
    assert {s.launch.entry for s in servers} == {EntryPoint.ENGINE}
    assert _roles_and(servers, "tp_size") == [("decode", "2"), ("prefill", "4")]
    (finding,) = result.findings
    decode_line = next(number for number, line in enumerate(result_lines(server_import, server_cls), 1) if '"decode", "tp_size": 2' in line)
    assert (finding.code, finding.location.line) == ("SGL001", decode_line)


def result_lines(server_import: str, server_cls: str) -> list[str]:
    return _RAY_PD.format(server_import=server_import, server_cls=server_cls).splitlines()


@pytest.mark.parametrize(
    "source",
    [
        # Ray's default engine (vLLM): nothing ties it to SGLang
        'from ray.serve.llm import LLMConfig\nLLMConfig(engine_kwargs={"tensor_parallel_size": 4, "kv_transfer_config": {"kv_connector": "NixlConnector"}})',
        # An explicit server class that is not SGLang's, even with SGLang-looking keys
        'from ray.serve.llm import LLMConfig, LLMServer\nLLMConfig(server_cls=LLMServer, engine_kwargs={"disaggregation_mode": "decode", "tp_size": 2})',
        # Not Ray's LLMConfig
        'from mylib import LLMConfig\nLLMConfig(engine_kwargs={"disaggregation_mode": "decode", "tp_size": 2})',
        # The SGLang key is not in the dict we can see
        'from ray.serve.llm import LLMConfig\nfrom cfgs import EXTRA\nLLMConfig(engine_kwargs={"tp_size": 2, **EXTRA})',
    ],
)
def test_ray_llm_config_not_tied_to_sglang_is_not_a_launch(source):
    result = analyze_python("serve.py", source + "\n# sglang\n")
    assert result.servers == [] and result.notes == []


def test_ray_llm_config_with_engine_kwargs_we_cannot_see():
    """``server_cls=SGLangServer`` is a launch; fields we cannot see are unknown, and
    with no engine_kwargs at all SGLang gets LLMConfig's default, an empty dict."""
    servers, result = _servers(
        """
        from ray.serve.llm import LLMConfig, SGLangServer
        from cfgs import load
        LLMConfig(server_cls=SGLangServer, engine_kwargs=load("prefill.yaml"))
        LLMConfig(server_cls=SGLangServer, **load("decode.yaml"))
        LLMConfig(server_cls=SGLangServer)
        """
    )
    assert len(servers) == 3 and {s.launch.entry for s in servers} == {EntryPoint.ENGINE}
    hidden = [s for s in servers if s.launch.location.line in (4, 5)]
    assert all(s.setting("tp_size").value.kind is Kind.UNKNOWN for s in hidden)
    (plain,) = [s for s in servers if s.launch.location.line == 6]
    assert _value(plain, "tp_size") == "1"
    assert result.findings == []


def test_ray_llm_configs_in_a_dict_of_roles():
    servers, result = _servers(
        """
        from ray.serve.llm import LLMConfig, SGLangServer, build_openai_app
        ROLES = {
            "prefill": {"tp_size": 4, "page_size": 64},
            "decode": {"tp_size": 4, "page_size": 32},
        }
        configs = [
            LLMConfig(
                model_loading_config={"model_id": f"m-{role}"},
                server_cls=SGLangServer,
                engine_kwargs={"model_path": "m", "disaggregation_mode": role, **fields},
            )
            for role, fields in ROLES.items()
        ]
        app = build_openai_app({"llm_configs": configs})
        """
    )
    assert _roles_and(servers, "page_size") == [("decode", "32"), ("prefill", "64")]
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL003", 5)]


def test_a_field_set_to_none_is_its_default():
    """``page_size=None`` in a config dict is ServerArgs' own default (SGLang picks
    the page size at startup), not a page size called "None"."""
    servers, _ = _servers(
        """
        import sglang
        cfg = {"model_path": "m", "page_size": None, "max_running_requests": None}
        cfg.update(enable_dp_attention=None)
        sglang.Engine(**cfg)
        """
    )
    (server,) = servers
    assert server.setting("page_size").is_default and server.setting("max_running_requests").is_default
    assert _value(server, "enable_dp_attention") == "false"


def test_ray_llm_engine_sglang_and_the_pd_builder_roles():
    """``llm_engine="SGLang"`` names Ray's SGLang engine; ``build_pd_openai_app``
    gives each config its role from the key it is passed under (Ray's PD builder
    sets ``engine_kwargs["disaggregation_mode"]``)."""
    servers, result = _servers(
        """
        from ray import serve
        from ray.serve.llm import LLMConfig, build_pd_openai_app

        def sglang_config(tp, **extra):
            return LLMConfig(
                model_loading_config={"model_id": "m"},
                engine_kwargs={"model_path": "m", "enable_unified_memory": True, "tp_size": tp, **extra},
                llm_engine="SGLang",
            ).model_dump()

        app = build_pd_openai_app(
            {
                "prefill_config": sglang_config(4),
                "decode_config": sglang_config(4, dp_size=4, enable_dp_attention=True),
            }
        )
        serve.run(app)
        """
    )
    assert sorted((s.role, s.attn_tp.value.describe()) for s in servers) == [("decode", "1"), ("prefill", "4")]
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL001", 15)]


@pytest.mark.parametrize(
    "llm_engine, launches",
    [('"SGLang"', 1), ('"vLLM"', 0), ("LLMEngine.SGLang", 1), ("LLMEngine.vLLM", 0), ("ENGINE", 1)],
)
def test_ray_llm_engine_names_the_engine(llm_engine, launches):
    """An engine named in ``llm_engine`` decides; one we cannot see leaves the
    decision to ``disaggregation_mode`` (set here)."""
    result = analyze_python(
        "serve.py",
        "from ray.serve.llm import LLMConfig, LLMEngine\nfrom cfg import ENGINE\n"
        f'LLMConfig(llm_engine={llm_engine}, engine_kwargs={{"disaggregation_mode": "decode", "tp_size": 2}})\n',
    )
    assert len(result.servers) == launches


def test_ray_pd_builder_with_configs_given_as_dicts():
    """``build_pd_openai_app`` validates a dict into an LLMConfig: the same launch."""
    servers, result = _servers(
        """
        from ray.serve.llm import build_pd_openai_app
        SHARED = {"model_path": "m", "page_size": 64}
        app = build_pd_openai_app(
            {
                "prefill_config": {"model_loading_config": {"model_id": "m"}, "llm_engine": "SGLang", "engine_kwargs": SHARED},
                "decode_config": {"model_loading_config": {"model_id": "m"}, "llm_engine": "SGLang", "engine_kwargs": {**SHARED, "page_size": 32}},
            }
        )
        """
    )
    assert _roles_and(servers, "page_size") == [("decode", "32"), ("prefill", "64")]
    assert [(f.code, f.location.line) for f in result.findings] == [("SGL003", 7)]
    # vLLM configs given as dicts are not SGLang's
    assert analyze_python("serve.py", 'from ray.serve.llm import build_pd_openai_app\nbuild_pd_openai_app({"prefill_config": {"engine_kwargs": {"tensor_parallel_size": 2}}, "decode_config": {}})\n# "SGLang"\n').servers == []
