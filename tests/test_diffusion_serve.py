"""`sglang serve` read as SGLang dispatches it: the LLM server or the diffusion server.

SGLang's facts (0.5.23 wheel):

- ``sglang/cli/serve.py:30-59`` removes ``--model-type X`` / ``--model-type=X``
  from argv; ``:181-225`` runs that backend, else ``registry.auto_detect``, whose
  only detector is ``_detect_diffusion`` (``:109-118``: the model's
  ``model_index.json``, the diffusion registry, the Hub; a native pipeline named by
  ``--pipeline-class-name``), falling back to the LLM server.
- ``_run_diffusion`` (``:121-141``) parses with ``argparse.ArgumentParser`` +
  ``add_multimodal_gen_serve_args`` and ``parse_known_args``; ``from_cli_args``
  (``multimodal_gen/runtime/server_args/server_args.py:3679-3709``) takes the
  ``--<component>-path`` forms out of the rest and refuses what is left.
- ``multimodal_gen/runtime/entrypoints/cli/main.py`` is the diffusion server's own
  CLI (``serve`` and ``generate``).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from importlib import resources
from pathlib import Path

import pytest

from sglang_lint.catalog.argv import parse_server_args
from sglang_lint.catalog.settings import DIFFUSION, LLM, LLM_OR_DIFFUSION, OUT_OF_TREE
from sglang_lint.catalog.tables import known_versions, load_diffusion_table, load_table
from sglang_lint.model import ArgToken, EntryPoint, Location, Value
from sglang_lint.options import LintOptions
from sglang_lint.pipeline import lint_paths
from sglang_lint.sources.shell import analyze_shell

ROOT = Path(__file__).resolve().parents[1]
DIFFUSION_RELEASES = [v for v in known_versions() if v != "0.5.4"]


def serve(argv: str, version: str = "0.5.23"):
    tokens = [ArgToken(Value.known(word), Location("run.sh", 1, index + 1)) for index, word in enumerate(argv.split())]
    return parse_server_args(
        tokens, load_table(version), entry=EntryPoint.SGLANG_SERVE, diffusion_table=load_diffusion_table(version)
    )


def kinds(settings) -> list[tuple[str, str]]:
    return [(problem.kind, problem.option) for problem in settings.problems]


# ---------------------------------------------------------------------------------
# The tables


def test_a_diffusion_table_for_every_release_that_ships_the_diffusion_server():
    # sglang/cli/serve.py and multimodal_gen/.../cli/serve.py are in the 0.5.9 wheel
    # on, not in 0.5.4's.
    assert load_diffusion_table("0.5.4") is None
    data = resources.files("sglang_lint.catalog").joinpath("data")
    for version in DIFFUSION_RELEASES:
        table = load_diffusion_table(version)
        assert table is not None and table.version == version
        text = data.joinpath(f"diffusion-{version}.json").read_text(encoding="utf-8")
        raw = json.loads(text)
        assert text == json.dumps(raw, indent=1, ensure_ascii=False) + "\n"
        dests = [o["dest"] for o in raw["options"]]
        assert dests == sorted(dests)
        assert {"--model-path", "--num-gpus", "--port", "--config", "--help"} <= set(table.by_name)
        # The LLM server's PD options are not the diffusion server's.
        assert not {"--disaggregation-mode", "--enable-unified-memory"} & set(table.by_name)


def test_diffusion_table_facts_0_5_23():
    table = load_diffusion_table("0.5.23")
    assert table is not None
    # server_args.py add_cli_args: --num-gpus type=int default ServerArgs.num_gpus (1)
    num_gpus = table.by_name["--num-gpus"]
    assert (num_gpus.type, num_gpus.default, num_gpus.action) == ("int", 1, "store")
    # --webui is a StoreBoolean (runtime/utils/argparse.py:18-43): an optional value.
    webui = table.by_name["--webui"]
    assert (webui.action, webui.nargs, webui.const) == ("store", "?", True)
    # disagg.py:101-160: choices written as a literal list
    assert table.by_name["--disagg-transfer-backend"].choices == ("auto", "mock", "mooncake")
    # PipelineConfig.add_cli_args with prefix "" and the VAE/DiT configs' dotted names
    assert "--vae-config.use-tiling" in table.by_name and "--dit-config.prefix" in table.by_name
    assert "--model-path" in table.by_name and "--.model-path" not in table.by_name


def _generator():
    spec = importlib.util.spec_from_file_location("generate_option_tables", ROOT / "scripts" / "generate_option_tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_generator_reproduces_the_committed_diffusion_table_0_5_23():
    generator = _generator()
    wheel = generator.find_wheel("0.5.23", generator.WHEEL_DIR)
    if wheel is None:
        pytest.skip("the sglang 0.5.23 wheel is not in scripts/.wheels (python scripts/generate_option_tables.py 0.5.23 fetches it)")
    table = generator.build_diffusion_table("0.5.23", wheel)
    committed = resources.files("sglang_lint.catalog").joinpath("data", "diffusion-0.5.23.json").read_text(encoding="utf-8")
    assert generator.dump_table(table) == committed


# ---------------------------------------------------------------------------------
# Which server


@pytest.mark.parametrize("override", ["--model-type diffusion", "--model-type=diffusion"])
def test_model_type_diffusion_selects_the_diffusion_server(override):
    settings = serve(f"--model-path /m {override} --port 1")
    assert settings.program == DIFFUSION
    assert "--model-type diffusion" in settings.program_reason or "--model-type=diffusion" in settings.program_reason
    assert settings.problems == []


def test_model_type_llm_selects_the_llm_server_whose_parser_refuses_diffusion_options():
    settings = serve("--model-type llm --model-path /m --num-gpus 2")
    assert settings.program == LLM
    assert kinds(settings) == [("unknown", "--num-gpus")]


def test_an_option_only_the_diffusion_parser_declares_selects_it():
    settings = serve("--model-path /models/flux --num-gpus 2 --ulysses-degree 2")
    assert settings.program == DIFFUSION
    assert "--num-gpus" in settings.program_reason
    assert settings.problems == []


def test_a_unique_prefix_of_a_diffusion_option_selects_it():
    # argparse's allow_abbrev is on in both parsers: --ulysses is --ulysses-degree
    # for the diffusion server and no option of the LLM server.
    assert "--ulysses" not in load_table("0.5.23").by_name
    settings = serve("--model-path /models/flux --ulysses 2")
    assert settings.program == DIFFUSION


def test_an_option_only_the_llm_parser_declares_selects_it():
    settings = serve("--model-path /m --disaggregation-mode prefill --tp-size 2")
    assert settings.program == LLM
    assert settings.get("disaggregation_mode").value == Value.known("prefill")


def test_a_model_name_alone_decides_nothing():
    # SGLang asks the model's files (model_index.json) or the Hub: never guessed
    # from a name, however diffusion-like.
    settings = serve("black-forest-labs/FLUX.1-dev --port 30000 --tp-size 2")
    assert settings.program == LLM_OR_DIFFUSION
    assert "model" in settings.program_reason


def test_ambiguous_launch_keeps_what_holds_for_both_servers():
    # --tp-szie: neither parser knows it (the diffusion server refuses it in
    # from_cli_args); --transformer-path: a component path the diffusion server takes.
    settings = serve("--model-path /m --port 1 --tp-szie 2 --transformer-path /w")
    assert settings.program == LLM_OR_DIFFUSION
    assert kinds(settings) == [("unknown", "--tp-szie")]


def test_launch_with_options_of_each_server_reports_neither_as_unknown():
    # Whichever the model picks, one of the options is refused: the model decides
    # which, so no unknown-option finding names one of them.
    settings = serve("--model-path /m --num-gpus 2 --disaggregation-mode prefill")
    assert settings.program == LLM_OR_DIFFUSION
    assert settings.problems == []


def test_out_of_tree_backend_is_not_checked():
    settings = serve("--model-type mybackend --model-path /m --whatever 1")
    assert settings.program == OUT_OF_TREE and settings.problems == []


def test_release_without_the_diffusion_server_reads_the_llm_server():
    # 0.5.4 has no `sglang` command at all (SGL209); the words are read as the
    # replacement, `python -m sglang.launch_server`, reads them.
    settings = serve("--model-path /m --num-gpus 2", version="0.5.4")
    assert settings.program == LLM
    assert kinds(settings) == [("no-entry-point", "sglang serve"), ("unknown", "--num-gpus")]


def test_release_without_the_diffusion_cli_says_it_has_none():
    words = [ArgToken(Value.known(word), Location("run.sh", 1, 60 + index)) for index, word in enumerate(["--model-path", "/m"])]
    settings = parse_server_args(words, load_table("0.5.4"), entry=EntryPoint.DIFFUSION_SERVE, launch_location=Location("run.sh", 1, 1))
    assert settings.program == DIFFUSION
    assert [p.kind for p in settings.problems] == ["no-entry-point"]
    assert "no diffusion server" in settings.problems[0].message


# ---------------------------------------------------------------------------------
# The diffusion server's own checks


def test_diffusion_values_are_checked_as_its_argparse_does():
    settings = serve("--model-type diffusion --model-path /m --num-gpus two --disagg-transfer-backend nixl")
    assert [kind for kind, _ in kinds(settings)] == ["invalid-value", "invalid-value"]
    assert "invalid int value: 'two'" in settings.problems[0].message
    assert "invalid choice: 'nixl'" in settings.problems[1].message


def test_diffusion_unknown_options_are_passed_on_not_reported():
    # A pipeline registers its own options once the model is known (FLUX.3's
    # --flux3-alpha, entrypoints/cli/utils.py:18-69): not in the table.
    settings = serve("--model-type diffusion --model-path /m --flux3-alpha 0.5 --vae-path /v")
    assert settings.problems == []


def test_diffusion_main_entry_is_a_diffusion_launch_and_generate_is_none():
    result = analyze_shell(
        "run.sh",
        "python -m sglang.multimodal_gen.runtime.entrypoints.cli.main serve --model-path /m --num-gpus 2\n"
        "python -m sglang.multimodal_gen.runtime.entrypoints.cli.main generate --model-path /m --prompt x\n",
    )
    (launch,) = result.servers
    assert launch.entry is EntryPoint.DIFFUSION_SERVE
    assert [t.value.text for t in launch.args] == ["--model-path", "/m", "--num-gpus", "2"]
    assert result.notes == []


# ---------------------------------------------------------------------------------
# Through the whole pipeline: no LLM rule, no pairing


def test_diffusion_servers_are_never_paired_or_judged_by_llm_rules(tmp_path):
    script = tmp_path / "run.sh"
    script.write_text(
        "sglang serve --model-type llm --model-path /m --disaggregation-mode prefill --enable-unified-memory --tp 4 --port 30000 &\n"
        # A diffusion server with a --tp-size unified memory would refuse on a decode:
        # not a decode, not paired.
        "sglang serve --model-type diffusion --model-path /f --tp-size 2 --num-gpus 2 --port 30001 &\n"
        "sglang serve --model-path /f --num-gpus 4 --ulysses-degree 4 --port 30002 &\n"
    )
    result = lint_paths([str(tmp_path)], LintOptions())
    assert [f.code for f in result.findings] == []
    (deployment,) = result.deployments
    assert [s.role for s in deployment.servers] == ["prefill", "diffusion", "diffusion"]
    assert deployment.pairs() == []


def test_a_finding_on_an_ambiguous_launch_says_why(tmp_path):
    script = tmp_path / "run.sh"
    script.write_text("sglang serve --model-path /m --port 1 --tp-szie 2\n")
    result = lint_paths([str(tmp_path)], LintOptions())
    (finding,) = result.findings
    assert finding.code == "SGL202"
    assert any("LLM or the diffusion server" in note for note in finding.notes)


def test_a_diffusion_unit_test_building_its_server_args_is_not_run(tmp_path, monkeypatch):
    """The diffusion server's ``ServerArgs`` (``sglang.multimodal_gen.runtime.
    server_args``, 0.5.23 ``multimodal_gen/runtime/server_args/server_args.py``)
    starts no LLM server, so a diffusion unit test that builds one reaches no
    launch: its functions are not run and the helpers they call are never
    parsed (issue 20: SGLang's multimodal_gen unit tests, ~4 s of its tree)."""
    import os

    from sglang_lint.files import FileKind
    from sglang_lint.sources import extract
    from sglang_lint.sources.project import ProjectFiles
    from sglang_lint.sources.python_interpreter import PARSED

    (tmp_path / "helpers.py").write_text("def model_name():\n    return 'Qwen/Qwen-Image'\n")
    test_text = (
        "from sglang.multimodal_gen.runtime.server_args import ServerArgs\n"
        "import helpers\n"
        "\n"
        "\n"
        "def test_pipeline():\n"
        "    args = ServerArgs(model_path=helpers.model_name(), num_gpus=2)\n"
    )
    (tmp_path / "test_pipeline.py").write_text(test_text)
    monkeypatch.chdir(tmp_path)
    PARSED.clear()
    before = PARSED.parses
    result = extract("test_pipeline.py", test_text, FileKind.PYTHON, None, ProjectFiles((os.path.realpath(tmp_path),)))
    assert result.servers == [] and result.notes == []
    assert PARSED.parses == before  # helpers.py was not read for its definitions
