"""SGL208: the model path `sglang serve` looks for itself, before any parser.

The oracle is SGLang's own code, the few lines of each release that decide
(quoted below with their place; Apache-2.0): ``_extract_model_type_override``
and ``_normalize_positional_model_path`` (``sglang/cli/serve.py``) and
``get_model_path`` / ``try_get_model_path`` (``sglang/cli/utils.py``). For any
word list, sglang-lint reports SGL208's problem only where that code raises,
and always where it raises and the launch meant to give a model (a word that
argparse would take as ``--model-path``, a ``--config FILE``, a model as first
word): what a launch without any model means is left alone on purpose (a
snippet showing flags).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sglang_lint.catalog.argv import parse_server_args
from sglang_lint.catalog.tables import load_diffusion_table, load_table
from sglang_lint.cli import main
from sglang_lint.model import ArgToken, EntryPoint, Location, Value
from sglang_lint.options import LintOptions
from sglang_lint.pipeline import lint_texts

# ---------------------------------------------------------------------------------
# SGLang's code, per release


def _get_model_path_0_5_5(extra_argv):
    # sglang 0.5.5 sglang/cli/utils.py:126-151 (the same through 0.5.10.post1, L102-127)
    model_path = None
    for i, arg in enumerate(extra_argv):
        if arg == "--model-path":
            if i + 1 < len(extra_argv):
                model_path = extra_argv[i + 1]
                break
        elif arg.startswith("--model-path="):
            model_path = arg.split("=", 1)[1]
            break
    if model_path is None:
        raise Exception("Error: --model-path is required. Please provide the path to the model.")
    return model_path


def _get_model_path_0_5_11(extra_argv):
    # sglang 0.5.11 sglang/cli/utils.py:102-127; 0.5.23 try_get_model_path L136-149
    # and get_model_path L152-168 (the same test)
    model_path = None
    for i, arg in enumerate(extra_argv):
        if arg in ("--model-path", "--model"):
            if i + 1 < len(extra_argv):
                model_path = extra_argv[i + 1]
                break
        elif arg.startswith("--model-path=") or arg.startswith("--model="):
            model_path = arg.split("=", 1)[1]
            break
    if model_path is None:
        raise Exception("Error: --model-path is required. Please provide the path to the model.")
    return model_path


def _extract_model_type_override(extra_argv):
    # sglang 0.5.10 sglang/cli/serve.py:16-46 (0.5.23 L30-59: validation moved
    # to the registry); the values are not checked here
    filtered_argv = []
    i = 0
    while i < len(extra_argv):
        arg = extra_argv[i]
        if arg == "--model-type":
            i += 2
            continue
        if arg.startswith("--model-type="):
            i += 1
            continue
        filtered_argv.append(arg)
        i += 1
    return filtered_argv


def _normalize_positional_model_path(extra_argv):
    # sglang 0.5.16+ sglang/cli/serve.py (0.5.23 L62-66)
    if extra_argv and not extra_argv[0].startswith("-"):
        return ["--model-path", extra_argv[0], *extra_argv[1:]]
    return extra_argv


def sglang_serve_raises(argv: list[str], version: tuple[int, ...]) -> bool:
    """Whether ``sglang serve ARGV`` of that release stops at its model-path scan
    (help is answered before it: among all the words before 0.5.18,
    cli/serve.py 0.5.5 L14, 0.5.17 L57; among those left once the
    `--model-type` pairs are taken out from 0.5.18, L169-180, 0.5.23 L187)."""
    if version < (0, 5, 18) and any(h in argv for h in ("-h", "--help")):
        return False
    if version >= (0, 5, 10):
        argv = _extract_model_type_override(argv)
    if version >= (0, 5, 18) and any(h in argv for h in ("-h", "--help")):
        return False
    if version >= (0, 5, 16):
        argv = _normalize_positional_model_path(argv)
    scan = _get_model_path_0_5_11 if version >= (0, 5, 11) else _get_model_path_0_5_5
    try:
        scan(argv)
    except Exception:
        return True
    return False


# ---------------------------------------------------------------------------------
# sglang-lint


def problems(argv: list[str], version: str) -> list:
    tokens = [ArgToken(Value.known(word), Location("run.sh", 1, 2 * index + 1)) for index, word in enumerate(argv)]
    result = parse_server_args(
        tokens,
        load_table(version),
        entry=EntryPoint.SGLANG_SERVE,
        diffusion_table=load_diffusion_table(version),
        launch_location=Location("run.sh", 1, 1),
    )
    return [problem for problem in result.problems if problem.kind == "missing-model"]


def meant_a_model(argv: list[str], version: tuple[int, ...]) -> bool:
    """A word argparse would read as the model path (an exact name, an alias, a
    unique prefix of the 0.5.23 LLM table's long options), a --config FILE, or a
    model as the first word of a release that does not take it there. A word
    `--model-type` takes as its value (`--model-type --model`) is the
    backend's name, whatever it spells: not among those (0.5.10+)."""
    table = load_table("0.5.23")
    if version >= (0, 5, 10):
        argv = _extract_model_type_override(argv)
    for word in argv:
        name = word.split("=", 1)[0]
        if not name.startswith("--"):
            continue
        matches = {table.by_name[n].dest for n in table.long_names if n.startswith(name)}
        if name in table.by_name:
            matches = {table.by_name[name].dest}
        if matches == {"model_path"} or name == "--config" and "=" not in word:
            return True
    return bool(argv) and not argv[0].startswith("-") and version < (0, 5, 16)


VERSIONS = {"0.5.5": (0, 5, 5), "0.5.8": (0, 5, 8), "0.5.10": (0, 5, 10), "0.5.11": (0, 5, 11), "0.5.15": (0, 5, 15), "0.5.16": (0, 5, 16), "0.5.17": (0, 5, 17), "0.5.18": (0, 5, 18), "0.5.23": (0, 5, 23)}
_WORDS = ["--model", "--model-path", "--model-p", "--mod", "--model=/m", "--model-path=/m", "--model-pa=/m", "--config", "c.yaml", "/m", "Qwen/Qwen3-8B",
          "--tp", "2", "--model-type", "llm", "--model-type=diffusion", "--port", "30000", "-h", "--enable-dp-attention"]  # fmt: skip


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_WORDS), max_size=7), st.sampled_from(sorted(VERSIONS)))
def test_reported_only_where_sglang_serve_raises_and_always_where_a_model_was_meant(argv, version):
    release = VERSIONS[version]
    raises = sglang_serve_raises(argv, release)
    found = problems(argv, version)
    if found:
        assert raises, (argv, version, found[0].message)
    elif raises and meant_a_model(argv, release):
        # An ambiguous or unknown backend after --model-type is not judged.
        assert "--model-type" in argv and version >= "0.5.10" and _backend_not_built_in(argv), (argv, version)


def _backend_not_built_in(argv: list[str]) -> bool:
    """Whether the backend ``_extract_model_type_override`` ends with (its loop:
    each `--model-type` takes the next word, whatever it is) is not a built-in."""
    backend, i = "auto", 0
    while i < len(argv):
        if argv[i] == "--model-type":
            backend = argv[i + 1] if i + 1 < len(argv) else ""
            i += 2
            continue
        if argv[i].startswith("--model-type="):
            backend = argv[i].split("=", 1)[1]
        i += 1
    return backend not in ("auto", "llm", "diffusion")


@pytest.mark.parametrize(
    "argv, version, reported",
    [
        ("--model /m --tp 2", "0.5.10", True),
        ("--model /m --tp 2", "0.5.11", False),
        ("--model=/m --tp 2", "0.5.8", True),
        ("--model-path /m", "0.5.5", False),
        ("--model-p /m", "0.5.23", True),
        ("--config c.yaml --port 30000", "0.5.23", True),
        ("--config=c.yaml", "0.5.23", False),  # SGL206's: argparse stores it, nobody reads it
        ("Qwen/Qwen3-8B --tp 2", "0.5.15", True),
        ("Qwen/Qwen3-8B --tp 2", "0.5.16", False),
        ("--tp 2 --model-path", "0.5.23", True),
        ("--tp 2", "0.5.23", False),  # no model meant
        ("--model-p /m -h", "0.5.23", False),  # help
        # `-h` as --model-type's value: help before 0.5.18 (all the words are
        # looked at), taken out with the pair from 0.5.18 (hypothesis found it)
        ("--model --model-type -h --model-type", "0.5.10", False),
        ("--tp 2 --model-type -h", "0.5.17", False),
        ("--tp 2 --model-type -h --model-p /m", "0.5.18", False),  # (a backend named "-h": not judged)
        ("--tp 2 --model-type llm --model-p /m", "0.5.17", True),
        ("--model-type custom --model-p /m", "0.5.23", False),  # an installed backend
        ("--model-type llm --model-p /m", "0.5.23", True),
        ("--model-type --model /m", "0.5.8", True),  # before 0.5.10 --model-type is not removed
        # The first --model-type takes the second as its backend: not a built-in one.
        ("--model /m --model-type --model-type llm", "0.5.10", False),
    ],
)
def test_examples(argv, version, reported):
    assert bool(problems(argv.split(), version)) is reported
    assert sglang_serve_raises(argv.split(), VERSIONS.get(version, (0, 5, 23))) or not reported


def test_words_we_cannot_see_may_hold_the_model_path():
    def unseen(version: str, *words: Value) -> list:
        tokens = [ArgToken(word, Location("run.sh", 1, index + 1)) for index, word in enumerate(words)]
        return [
            problem
            for problem in parse_server_args(tokens, load_table(version), entry=EntryPoint.SGLANG_SERVE, diffusion_table=load_diffusion_table(version)).problems
            if problem.kind == "missing-model"
        ]

    model_p, path = Value.known("--model-p"), Value.known("/m")
    # A quoted "$EXTRA" is one word we cannot see: it may be --model-path=/x.
    assert not unseen("0.5.23", model_p, path, Value.symbol("EXTRA"))
    # "$TP" after --tp is --tp's value: it is not the word sglang serve looks for.
    assert unseen("0.5.23", model_p, path, Value.known("--tp"), Value.symbol("TP"))
    spread = ArgToken(Value.symbol("@"), Location("run.sh", 1, 9), spread=True)
    tokens = [ArgToken(model_p, Location("run.sh", 1, 1)), ArgToken(path, Location("run.sh", 1, 2)), spread]
    result = parse_server_args(tokens, load_table("0.5.23"), entry=EntryPoint.SGLANG_SERVE, diffusion_table=load_diffusion_table("0.5.23"))
    assert not [problem for problem in result.problems if problem.kind == "missing-model"]


def test_the_positional_model_of_an_old_release_is_one_finding_not_also_an_unknown_argument():
    result = lint_texts({"run.sh": "sglang serve Qwen/Qwen3-8B --tp 2\n"}, LintOptions(target_version="0.5.15"))
    assert [finding.code for finding in result.findings] == ["SGL208"]
    result = lint_texts({"run.sh": "python -m sglang.launch_server Qwen/Qwen3-8B --tp 2\n"}, LintOptions(target_version="0.5.15"))
    assert [finding.code for finding in result.findings] == ["SGL202"]


def test_fix_writes_model_path_in_a_script_and_a_yaml_list(tmp_path: Path, capsys):
    script = tmp_path / "run.sh"
    script.write_text("sglang serve --model /models/m --tp 2\nsglang serve --model-p=/models/m --tp 2\n", encoding="utf-8")
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n  containers:\n    - name: s\n"
        "      image: lmsysorg/sglang:v0.5.9-cu129\n      command: [sglang, serve]\n      args: [\"--model\", /models/m, --tp, \"2\"]\n",
        encoding="utf-8",
    )
    code = main(["check", str(tmp_path), "--no-cache", "--fix", "--target-version", "0.5.9", "--output-format", "concise"])
    assert script.read_text(encoding="utf-8") == "sglang serve --model-path /models/m --tp 2\nsglang serve --model-path=/models/m --tp 2\n"
    assert 'args: ["--model-path", /models/m, --tp, "2"]' in manifest.read_text(encoding="utf-8")
    assert code == 0, capsys.readouterr().out
