"""The package's layering (issue 17), as pyproject.toml's import-linter contracts
state it: adapters -> pipeline -> stages -> model, and each rule module
independent of the others. Function-level imports count: a cycle hidden in a
function (as lint <-> analysis was) breaks the contract."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))

pytestmark = pytest.mark.skipif(not Path(LINT_IMPORTS).exists(), reason="import-linter is not installed (the test extra has it)")


def _lint_imports(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([LINT_IMPORTS, "--config", str(root / "pyproject.toml"), "--no-cache"], cwd=root, env=env, capture_output=True, text=True, timeout=300)


def _lint_imports_with_a_reversed_import(tmp_path: Path, module: str, statement: str) -> subprocess.CompletedProcess:
    """import-linter on a copy of the package in which ``module`` (a path in the
    package) runs the import ``statement`` from inside a function."""
    shutil.copytree(ROOT / "sglang_lint", tmp_path / "sglang_lint", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    path = tmp_path / "sglang_lint" / module
    path.write_text(path.read_text() + f"\n\ndef _reversed():\n    {statement}  # noqa: F401\n")
    return _lint_imports(tmp_path)


def test_the_contracts_hold() -> None:
    completed = _lint_imports(ROOT)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "0 broken" in completed.stdout


def test_a_reversed_import_breaks_the_layers(tmp_path) -> None:
    """In a copy of the package, the records module imports the CLI from inside
    a function (the kind of import that hid the old cycles): the contract fails."""
    completed = _lint_imports_with_a_reversed_import(tmp_path, "model.py", "from sglang_lint import cli")
    assert completed.returncode != 0
    assert "BROKEN" in completed.stdout and "sglang_lint.model -> sglang_lint.cli" in completed.stdout


def test_the_python_interpreter_knows_no_launch_recogniser(tmp_path) -> None:
    """The Python source's layers (python -> python_launches -> python_interpreter
    -> python_values | python_literals): in a copy of the package the interpreter
    imports the recognisers from inside a function, and the contract fails."""
    completed = _lint_imports_with_a_reversed_import(tmp_path, "sources/python_interpreter.py", "from sglang_lint.sources import python_launches")
    assert completed.returncode != 0
    assert "sglang_lint.sources.python_interpreter -> sglang_lint.sources.python_launches" in completed.stdout


def test_every_rule_module_is_in_the_independence_contract() -> None:
    """A new rule joins the contract (it lists the modules by name)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "independence"]
    on_disk = sorted("sglang_lint.rules." + Path(p).stem for p in glob.glob(str(ROOT / "sglang_lint" / "rules" / "sgl*.py")))
    assert sorted(contract["modules"]) == on_disk


def _documented() -> tuple[set[str], set[str]]:
    """docs/architecture.md's module names: those in the layers table, and every
    `package/module` it mentions."""
    import re

    text = (ROOT / "docs" / "architecture.md").read_text()
    table = set()
    for line in text.splitlines():
        cells = line.split("|")
        if line.startswith("|") and len(cells) > 3 and not set(cells[2].strip()) <= set("-"):
            table |= set(re.findall(r"`([a-z_0-9]+)`", "|".join(cells[2:])))
    nested = set(re.findall(r"`([a-z_0-9]+/[a-z_0-9]+)`", text))
    return table, nested


def test_the_architecture_page_names_every_module_and_only_real_ones() -> None:
    package = ROOT / "sglang_lint"
    modules = set()
    for path in package.rglob("*.py"):
        relative = path.relative_to(package).with_suffix("").as_posix()
        if relative.startswith("rules/sgl") or relative == "__init__":
            continue  # one module per rule, `rules/sglNNN_name.py`; the package itself
        modules.add(relative.removesuffix("/__init__"))
    table, nested = _documented()
    named = table | nested
    assert sorted(modules - named) == [], "modules the page does not name"
    unreal = [name for name in table | nested if not ((package / f"{name}.py").exists() or (package / name).is_dir())]
    assert sorted(unreal) == [], "names the page gives that are not modules (or packages, or data directories)"


def test_the_names_a_config_may_use_are_the_rules_and_formats() -> None:
    """names.py is data (config may not import the rules or the formats): it
    must list exactly what they define."""
    from sglang_lint.names import OUTPUT_FORMATS, RULE_CODES
    from sglang_lint.report import FORMATS
    from sglang_lint.rules import ALL_RULES, INTERNAL_ERROR_CODE

    assert RULE_CODES == {rule.code for rule in ALL_RULES} | {INTERNAL_ERROR_CODE}
    assert OUTPUT_FORMATS == tuple(FORMATS)


def test_the_records_are_msgspec_structs() -> None:
    """Issue 17 part 3: the hand-written record base (``records.py``) is gone and
    nothing imports it; every class of ``model`` is an enum or a msgspec Struct,
    and the records the cache stores are array-like (compact, typed)."""
    import ast
    import enum

    import msgspec

    from sglang_lint import model

    assert not (ROOT / "sglang_lint" / "records.py").exists()
    for path in (ROOT / "sglang_lint").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            assert not any(name == "sglang_lint.records" for name in names), path
    classes = [value for value in vars(model).values() if isinstance(value, type) and value.__module__ == model.__name__]
    assert classes
    for cls in classes:
        assert issubclass(cls, (msgspec.Struct, enum.Enum)), cls
        if issubclass(cls, msgspec.Struct):
            assert cls.__struct_config__.array_like, cls
