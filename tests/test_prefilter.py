"""The cheap pre-check that decides whether a Python file can launch SGLang."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sglang_lint import prefilter
from sglang_lint.prefilter import MARKERS, bytes_may_launch, may_launch, may_launch_bytes, python_may_launch, python_may_run_a_launch

LAUNCHERS = [
    'subprocess.Popen(["python3", "-m", "sglang.launch_server", "--tp", "8"])',
    "import sglang\n",
    "from sglang.srt.server_args import ServerArgs\n",
    'os.system("sglang serve Qwen/Qwen3-8B --port 30000")',
    'cmd = "python -m sglang_router.launch_router --pd-disaggregation"',
    'subprocess.run(["sglang-router", "--pd-disaggregation"])',
    'subprocess.run(["python", "-m", "dynamo.sglang", "--model-path", "m"])',
    # no "sglang" at all: names imported through the project's own modules
    "from serving.helpers import ServerArgs\nargs = ServerArgs(model_path='m')\n",
    "from serving.helpers import launch_server\nlaunch_server(args)\n",
    "from tests.utils import popen_launch_pd_server\n",
    "proc = popen_launch_server(MODEL, URL, other_args=['--tp', '2'])\n",
    # Ray Serve LLM with SGLang's engine (issue 19)
    "from ray.serve.llm import LLMConfig, SGLangServer\n",
    "LLMConfig(engine_kwargs={'disaggregation_mode': 'decode', 'tp_size': 2})\n",
    'LLMConfig(llm_engine="SGLang", engine_kwargs=ENGINE_KWARGS)\n',
]

NOT_LAUNCHERS = [
    "",
    "import os\nprint('hello')\n",
    "# SGLang is mentioned in prose only, capitalized\n",
    "import vllm\nvllm.LLM('m')\n",
    'SGLANG = "SGLANG"\n',
    "server_args = parse()\nlaunch(server_args)\n",
]


@pytest.mark.parametrize("text", LAUNCHERS)
def test_launchers_pass(text: str) -> None:
    assert python_may_launch(text)
    assert bytes_may_launch(text.encode("utf-8"))


@pytest.mark.parametrize("text", NOT_LAUNCHERS)
def test_non_launchers_fail(text: str) -> None:
    assert not python_may_launch(text)
    assert not bytes_may_launch(text.encode("utf-8"))


@pytest.mark.parametrize("marker", MARKERS)
def test_each_marker_alone_is_enough(marker: str) -> None:
    text = f"x = 1\n# {marker}\ny = 2\n"
    assert python_may_launch(text)
    assert bytes_may_launch(text.encode("ascii"))
    # case-sensitive: module names and identifiers are
    assert not python_may_launch(text.replace(marker, marker.upper()))


def test_markers_are_the_documented_ones() -> None:
    assert MARKERS == ("sglang", "ServerArgs", "launch_server", "popen_launch", "SGLangServer", "disaggregation_mode", '"SGLang"', "'SGLang'")
    assert prefilter.BYTE_MARKERS == tuple(m.encode("ascii") for m in MARKERS)
    for marker in MARKERS:
        assert f"``{marker}``" in (prefilter.__doc__ or ""), f"document why {marker!r} is a marker"


@given(st.text())
def test_text_check_is_any_marker(text: str) -> None:
    assert python_may_launch(text) == any(marker in text for marker in MARKERS)


@given(st.text(alphabet=st.sampled_from(list("sglangServerArgsunch_popé€ \n\x00"))))
def test_text_check_near_misses(text: str) -> None:
    assert python_may_launch(text) == any(marker in text for marker in MARKERS)


@given(st.text())
def test_bytes_agree_with_text_in_utf8(text: str) -> None:
    # ASCII bytes never occur inside a multi-byte UTF-8 sequence, so the answers agree.
    assert bytes_may_launch(text.encode("utf-8", "surrogatepass")) == python_may_launch(text)


@given(st.binary())
def test_bytes_check_is_any_marker(data: bytes) -> None:
    assert bytes_may_launch(data) == any(marker in data for marker in prefilter.BYTE_MARKERS)


def test_module_imports_nothing() -> None:
    tree = ast.parse(Path(prefilter.__file__).read_text(encoding="utf-8"))
    imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert imports == []


def test_importing_it_loads_no_other_sglang_lint_module() -> None:
    code = "import sys, sglang_lint.prefilter; print(sorted(m for m in sys.modules if m.startswith('sglang_lint')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['sglang_lint', 'sglang_lint.prefilter']"


def test_it_is_cheap() -> None:
    # A 1 MB file without a marker: four substring scans. Generous bound (a loaded
    # CI machine); it measures microseconds on a laptop.
    text = ("import os\nprint(os.getcwd())  # a comment about servers and launches\n" * 16000)[:1_000_000]
    start = time.perf_counter()
    for _ in range(10):
        assert not python_may_launch(text)
    assert (time.perf_counter() - start) / 10 < 0.05


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _python_source():
    from sglang_lint import pipeline as lint
    from sglang_lint.files import FileKind

    return lint._source(FileKind.PYTHON)


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.py")), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_python_fixture_with_a_launch_passes(path: Path) -> None:
    """The pre-check must never hide a launch the Python source finds (issue
    20: the precise check, on the text and on the bytes)."""
    text = path.read_text(encoding="utf-8")
    result = _python_source()(str(path), text)
    if result.servers or result.routers:
        assert python_may_launch(text)
        assert python_may_run_a_launch(text)
        assert may_launch_bytes("python", path.read_bytes())


# Issue 20: a file must spell a launch entry, not only mention sglang and a
# process API (4,322 of an SGLang fork's 5,058 Python files did).
PRECISE_LAUNCHERS = [
    *LAUNCHERS[:1],
    'os.system("sglang serve Qwen/Qwen3-8B --port 30000")',
    "import subprocess\nsubprocess.Popen(['sglang', 'serve', '--model-path', 'm'])\n",
    "import subprocess\ncmd = 'python -m sglang_router.launch_router --pd-disaggregation'\nsubprocess.run(cmd, shell=True)\n",
    'import subprocess\nsubprocess.run(["sglang-router", "--pd-disaggregation"])',
    'import subprocess\nsubprocess.run(["python", "-m", "dynamo.sglang", "--model-path", "m"])',
    "from serving.helpers import ServerArgs\nargs = ServerArgs(model_path='m')\n",
    "from serving.helpers import launch_server\nlaunch_server(args)\n",
    "mp.Process(target=launch_server, args=(server_args,)).start()\n",
    "proc = popen_launch_server(MODEL, URL, other_args=['--tp', '2'])\n",
    "import sglang as sgl\nllm = sgl.Engine(model_path='m', tp_size=2)\n",
    "from sglang import Engine as E\nE(model_path='m')\n",
    "from ray.serve.llm import LLMConfig, SGLangServer\n",
    "from ray.serve import llm\nconfig = llm.LLMConfig(engine_kwargs={'disaggregation_mode': 'decode'})\n",
    "from sglang.test.server_fixtures.disaggregation_fixture import PDDisaggregationServerBase\n",
    # The frontend language's runtime starts a server (FastChat's, Xinference's workers).
    "import sglang as sgl\nruntime = sgl.Runtime(model_path='m', tp_size=2)\n",
    "from sglang import (\n    Runtime,\n    set_default_backend,\n)\nset_default_backend(Runtime(model_path='m'))\n",
]

PRECISE_NON_LAUNCHERS = [
    # SGLang's own modules: sglang and a process API, no launch entry.
    "import subprocess\nfrom sglang.srt.utils import get_bool_env_var\nsubprocess.run(['nvidia-smi'])\n",
    "import sglang\nimport os\nos.environ['X'] = '1'\n",
    # "Engine" in prose or inside another name is not sglang.Engine.
    'import subprocess\nhelp = "Must specify a backend, depending on the LLM Inference Engine."\n',
    "from vllm import LLMEngine, EngineArgs\nimport subprocess\n",
    # a type annotation is not a construction
    "import sglang\nimport subprocess\ndef f(server_args: 'ServerArgs'): ...\n",
    # Ray Serve's LLMConfig is a whole name: SGLang's diffusion model configs
    # (0.5.23 multimodal_gen/runtime/models/sensenova_u1/neo_unify/__init__.py).
    "from .configuration_neo_chat import NEOChatConfig, NEOLLMConfig\nconfig = NEOLLMConfig()\n",
    # Runtime inside another name is not sglang's Runtime.
    "import subprocess\nfrom sglang.srt.utils import get_bool_env_var\nraise RuntimeError('no GPU')\n",
    "from sglang.lang.backend.runtime_endpoint import RuntimeEndpoint\nbackend = RuntimeEndpoint('http://localhost:30000')\n",
    # ... nor the word in a comment or prose of a module importing from sglang
    # (43 of SGLang's own modules passed on it).
    "import subprocess\nfrom sglang.srt.utils import get_bool_env_var\n# Runtime check: the scheduler's memory pool\n",
]


@pytest.mark.parametrize("text", PRECISE_LAUNCHERS)
def test_precise_launchers_pass(text: str) -> None:
    assert python_may_run_a_launch(text)
    assert may_launch_bytes("python", text.encode("utf-8"))


@pytest.mark.parametrize("text", PRECISE_NON_LAUNCHERS)
def test_precise_non_launchers_fail(text: str) -> None:
    assert not python_may_run_a_launch(text)
    assert not may_launch_bytes("python", text.encode("utf-8"))


@given(st.text())
def test_bytes_and_text_checks_agree(text: str) -> None:
    assert may_launch_bytes("python", text.encode("utf-8", "surrogatepass")) == python_may_run_a_launch(text)


def test_every_generated_oracle_program_passes() -> None:
    """The CPython oracle's programs (tests/_oracle_python.py) all launch: the
    pre-check must let each through (issue 20: it stays sound)."""
    import _oracle_python

    for seed in range(300):
        program = _oracle_python.generate(seed)
        assert python_may_run_a_launch(program.text), f"seed {seed}"


def _every_fixture_file() -> list[Path]:
    from sglang_lint.files import classify

    return sorted(p for p in FIXTURES.rglob("*") if p.is_file() and classify(p.name, p.read_bytes()[:256]) is not None)


@pytest.mark.parametrize("path", _every_fixture_file(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_the_driver_prefilter_never_hides_a_launch(path: Path) -> None:
    """lint.extract skips files prefilter.may_launch rejects: on every fixture (all
    four kinds), a file whose source finds a launch or a note must pass it."""
    from sglang_lint import pipeline as lint
    from sglang_lint.files import read_source, source_kind

    text, _ = read_source(path)
    if text is None:
        return  # bad-input/: not decodable, never reaches a source
    kind = source_kind(str(path), text)
    result = lint._source(kind)(str(path), text)
    if result.servers or result.routers:
        assert may_launch(kind.value, text)


def test_the_driver_prefilter_by_kind() -> None:
    assert not may_launch("shell", "echo hello\nnvidia-smi\n")
    assert may_launch("shell", "python -m sglang.launch_server --tp 8\n")
    assert may_launch("yaml", "command: [sglang-router]\n")
    # Python needs a marker and a runner
    assert not may_launch("python", "import sglang\n")
    assert may_launch("python", "import subprocess\nsubprocess.run(['python', '-m', 'sglang.launch_server'])\n")
    assert may_launch("markdown", "```python\nServerArgs(tp_size=8)\n```\n")
    # the entry point can come from the config's env
    assert may_launch("shell", "python -m $ENTRY --tp 8\n", {"ENTRY": "sglang.launch_server"})
    assert not may_launch("shell", "python -m $ENTRY --tp 8\n", {"TP": "8"})


def _modules_loaded_by_a_check(arguments: list[str], watched: tuple[str, ...]) -> list[str]:
    """The modules (or packages: a prefix) of ``watched`` that a fresh
    interpreter has loaded after ``sglang-lint check ARGUMENTS`` (which must exit 0)."""
    code = (
        "import sys\n"
        "from sglang_lint.cli import main\n"
        f"assert main(['check', *{arguments!r}]) == 0\n"
        f"loaded = sorted(m for m in sys.modules if m in {watched!r} or m.startswith(tuple(w + '.' for w in {watched!r})))\n"
        "import json\n"  # only now: what the run loaded is taken above
        "print(json.dumps(loaded))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])  # the child's last line (the report comes first)


def test_a_run_over_files_without_launches_imports_no_source_and_no_rule(tmp_path) -> None:
    """Issue 7: dismissing a file costs a substring search; nothing heavy loads."""
    (tmp_path / "a.py").write_text("import os\nprint(os.getcwd())\n")
    (tmp_path / "b.sh").write_text("#!/bin/bash\necho hi\n")
    (tmp_path / "c.yaml").write_text("a: 1\n")
    (tmp_path / "d.md").write_text("# title\n\n```bash\nls\n```\n")
    # The sources' registry (sglang_lint.sources itself, a few lines) may load;
    # no source module may.
    shell_modules = tuple(f"sglang_lint.sources.{name}" for name in ("shell", "shell_walk", "shell_launches", "shell_expansion", "shell_words", "shell_syntax"))
    python_modules = tuple(f"sglang_lint.sources.{name}" for name in ("python", "python_launches", "python_interpreter", "python_values", "python_literals"))
    heavy = (*shell_modules, *python_modules, "sglang_lint.sources.yaml_manifest", "sglang_lint.sources.markdown", "sglang_lint.rules", "sglang_lint.catalog.argv", "sglang_lint.analysis", "tree_sitter", "yaml")
    assert _modules_loaded_by_a_check([str(tmp_path)], heavy) == []


def test_without_the_cache_such_a_run_loads_no_option_table_pathspec_or_traceback(tmp_path) -> None:
    """The startup of a run over a code base without launches is most of its
    cost (issue 7: no slower than ruff on such a tree): no option table, no
    gitignore compiler when no .gitignore has patterns, no traceback. (The
    tables are read with msgspec, whose import may bring the json module: the
    table loads are counted instead.)"""
    (tmp_path / "a.py").write_text("import os\nprint(os.getcwd())\n")
    (tmp_path / "b.sh").write_text("#!/bin/bash\necho hi\n")
    (tmp_path / ".gitignore").write_text("\n")
    watched = ("pathspec", "traceback", "sglang_lint.cache")
    assert _modules_loaded_by_a_check(["--no-cache", str(tmp_path)], watched) == []
    code = (
        "from sglang_lint.catalog.tables import load_table\n"
        "from sglang_lint.cli import main\n"
        f"assert main(['check', '--no-cache', {str(tmp_path)!r}]) == 0\n"
        "print(load_table.cache_info().currsize)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "0"


def test_a_run_with_a_launch_creates_no_dataclass(tmp_path) -> None:
    """The records are msgspec Structs, not dataclasses: creating ~75
    dataclasses (each method compiled by exec) was ~40% of a one-file run
    (issue 7: one script in <= 150 ms). ``pkgutil`` (the rule discovery) is
    not loaded either. (``inspect`` is: msgspec's import brings it, through
    typing_extensions; ~5 ms of msgspec's ~15.)"""
    (tmp_path / "serve.sh").write_text(
        "#!/bin/bash\npython -m sglang.launch_server --model-path m --disaggregation-mode prefill --tp 8 --port 30000\n"
        "python -m sglang.launch_server --model-path m --disaggregation-mode decode --tp 8 --port 30001\n"
    )
    (tmp_path / "launch.py").write_text("import subprocess\nsubprocess.run(['python', '-m', 'sglang.launch_server', '--tp', '8'])\n")
    watched = ("dataclasses", "pkgutil", "sglang_lint.sources.shell", "sglang_lint.sources.python")
    loaded = _modules_loaded_by_a_check(["--no-cache", str(tmp_path)], watched)
    assert loaded == ["sglang_lint.sources.python", "sglang_lint.sources.shell"]


def test_the_byte_gate_holds_a_part_of_every_marker() -> None:
    """prefilter._PYTHON_BYTE_GATE is a handful of anchors, each a part of some
    markers: a file python_may_run_a_launch accepts must hold one (else its
    launch would be dismissed on its bytes, never decoded)."""
    from sglang_lint.prefilter import _PYTHON_BYTE_GATE, PYTHON_GATE_MARKERS

    for marker in PYTHON_GATE_MARKERS:
        assert any(anchor in marker.encode("ascii") for anchor in _PYTHON_BYTE_GATE), marker


@pytest.mark.parametrize(
    ("text", "launches"),
    [
        ('import sglang as sgl\nfactory = getattr(sgl, "Engine", None)\nfactory(model_path=m)\n', True),
        ("engine = getattr(\n    sgl, 'Engine'\n)\n", True),
        # the word quoted as data (CPython's lib2to3 grammar tests) is no launch;
        # parsing it made every run over the standard library import the sources
        ("x = [('Boeing', 'Airliner'), ('Boeing', 'Engine'), ('Ford', 'Engine')]\n", False),
        ('PARTS = {"Engine": 1}\nserver = 2\n', False),
    ],
)
def test_engine_taken_by_its_name_is_a_launch_entry(text: str, launches: bool) -> None:
    assert python_may_run_a_launch(text) is launches
