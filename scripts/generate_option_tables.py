#!/usr/bin/env python3
"""Generate ``sglang_lint/catalog/data/sglang-<version>.json`` from released sglang wheels.

Usage::

    python scripts/generate_option_tables.py [VERSION ...]        # default: every version
    python scripts/generate_option_tables.py --check-reference ../shared/reference/sglang-cli
    python scripts/generate_option_tables.py --dry-run --check-reference DIR 0.5.23

For each version the wheel is fetched once with ``pip download --no-deps
--only-binary=:all:`` (pinned to one CPython 3.11 manylinux platform so that every
machine reads the same file) into ``scripts/.wheels/`` (git-ignored). The wheel is
opened as a zip archive; nothing is installed, imported or executed: every option of
``python -m sglang.launch_server`` is read with :mod:`ast` and a small static
evaluator that follows module-level constants, imports inside the wheel, class
attributes and trivial helper functions. The output format is documented in
``sglang_lint/catalog/tables.py``. Exit status: 0 on success, 1 when a wheel cannot
be fetched or read, when a declaration cannot be understood, or when
``--check-reference`` finds an unexplained difference.

How SGLang declares its options (paths inside the wheel)
--------------------------------------------------------
1. Up to 0.5.13: ``ServerArgs.add_cli_args`` in ``sglang/srt/server_args.py`` is a
   flat list of ``parser.add_argument(...)`` calls (none conditional). Defaults are
   written ``default=ServerArgs.port``: the dataclass field's class attribute, which
   we resolve to the field default (``default_source`` keeps ``ServerArgs.port``).
   ``dest`` follows argparse: explicit ``dest=`` or the first long name, so
   ``--tensor-parallel-size/--tp-size`` has dest ``tensor_parallel_size`` (and
   ``--pipeline-``/``--data-``/``--expert-parallel-size`` likewise);
   ``ServerArgs.from_cli_args`` copies them to ``tp_size`` etc. afterwards.
2. 0.5.14-0.5.19: ``add_cli_args`` first calls
   ``arg_groups/arg_utils.py:add_cli_args_from_dataclass(parser, ServerArgs)``, which
   walks the dataclass fields annotated ``A[T, "help"]`` / ``A[T, Arg(...)]``
   (``A`` = ``typing.Annotated``; un-annotated fields and ``Arg(no_cli=True)`` have
   no CLI). Name: ``Arg.cli_name`` or ``--`` + field name with ``_`` -> ``-``, then
   ``Arg.aliases``; dest: always the field name; default: the field default
   (``field(default_factory=f)`` -> ``f()``). Kind, in this order: ``Arg.action``
   (kwargs = action, help, dest, default and ``Arg.action_kwargs`` only - no type,
   nargs or choices from ``Arg``); ``Literal[...]`` (choices = ``Arg.choices`` or
   the literal values, type from the first value; ``Arg.nargs`` is ignored);
   ``list[X]``/``List[X]`` without ``type_parser`` (type X, nargs ``Arg.nargs`` or
   ``"+"``); ``bool`` -> ``store_true`` (even when the default is True); anything
   else: ``type_parser`` or str/int/float (other annotations -> ``str``), with
   ``Arg.choices``/``nargs``/``const`` when given. ``Optional[X]``/``X | None`` is
   unwrapped first. A field declared twice in the class body (``dcp_size`` in
   0.5.15 and 0.5.16) is one dataclass field: argparse sees it once. The remaining
   ~30 options (dynamic choices, ``--config``, deprecated spellings) are still
   ``parser.add_argument`` calls after it.
3. From 0.5.20: the same ``add_cli_args_from_dataclass``, but ``ServerArgs`` is a
   ``msgspec`` struct assembled (``msgspec.defstruct``) from the namespace classes in
   ``_INPUT_NAMESPACES`` (``arg_groups/fields/*.py``, ``collect_input_fields``);
   ``Derived(...)`` attributes carry no annotation and are no fields. Manual entries
   use ``default=_declared_default("x")`` = the field's declared default.

Parser facts (line numbers in the 0.5.23 wheel)
-----------------------------------------------
* ``sglang/launch_server.py:81`` runs ``prepare_server_args(sys.argv[1:])``;
  ``srt/server_args.py:679`` builds ``argparse.ArgumentParser(prog="sglang serve")``:
  ``add_help`` and ``allow_abbrev`` keep their defaults (True), so ``-h/--help``
  exists and unique prefixes of long options are accepted; every version checked
  here is verified (the script fails if a parser ever passes ``add_help``,
  ``allow_abbrev``, ``prefix_chars``, ``parents`` or ``conflict_handler``).
* ``--config`` is an ordinary ``type=str`` option on that same parser
  (``server_args.py:401``, registered by ``add_cli_args``); before parsing, ``ConfigArgumentMerger`` (0.5.23:
  ``srt/utils/server_args_config_parser.py:75``) replaces the exact token
  ``--config`` and the next word by the YAML's ``--key value`` words, placed
  *before* the remaining command line (so the command line wins: last one wins).
* ``argparse.BooleanOptionalAction`` adds ``--no-<name>`` for every ``--<name>``;
  those names are listed in the table (action ``boolean_optional``).
* SGLang's actions (``srt/arg_groups/argparse_actions.py`` from 0.5.13, before that
  in ``server_args.py``) are mapped to the argparse action they behave like, with
  ``deprecated: true``: ``DeprecatedStoreTrueAction`` (nargs=0, stores True) ->
  ``store_true``; ``DeprecatedStoreConstAction`` (nargs=0, stores ``const_value``)
  -> ``store_const`` with that ``const`` - except when registered with
  ``nargs=None`` (0.5.23 ``--monokernel-backend``, ``server_args.py:426``): then it
  takes one value checked against ``choices`` and stores ``const_value`` -> listed
  as ``store`` with ``const``; ``DeprecatedAliasStoreAction`` (stores the value
  under another dest) -> ``store``; ``DeprecatedAction`` (nargs=0, stores nothing)
  -> ``store_const`` with const null. Using a ``DeprecatedAction`` is a warning
  only, *except* in 0.5.4 (``__call__`` raises ``ValueError(help)``, so the server
  does not start) and from 0.5.18 when it has ``error_message=`` (``parser.error``,
  exit 2: ``--enable-expert-distribution-metrics`` in 0.5.18/0.5.19). The table
  format has no field for that. ``LoRAPathAction`` consumes like ``store`` with its
  ``nargs`` (``"*"``) -> ``store``.
* ``--model-path`` is ``required`` in every version (explicit before 0.5.14, then
  because the field has no default: ``arg_utils.py:412-416``); the format has no
  field for it.
* Several options share a dest (deprecated aliases); argparse initialises a dest
  from the *first registered* option, which is why options are sorted by dest and
  then by registration order (``OptionTable.by_dest`` keeps the first).

Help texts (``help``)
---------------------
Each option's ``help`` is the string SGLang hands argparse, as written: ``help=``
of ``add_argument`` (LLM and diffusion parsers), or ``Arg(help=...)`` / the bare
string of ``A[T, "help"]`` (``arg_utils.py:_unwrap_annotated``; ``Arg.help``
defaults to "", and ``Arg.action_kwargs`` may override it like its dict update
does). It is evaluated like the other values (constants, concatenation, ``%``,
``str.format``, ``join``), plus, for help texts only, f-strings with conversions
and format specs, ``map(str, values)`` and a function's ``__doc__`` (the
docstring constant as CPython 3.11 keeps it, indentation included:
``human_readable_int.__doc__`` in ``--context-length``). A value is turned into
text only when Python would print it identically (literals, and lists, tuples,
dicts and dict views of them; never sets, whose order depends on hashing).
argparse's ``%(default)s`` placeholders are kept as written. ``help=argparse.SUPPRESS``
(hidden from ``--help``) is recorded as its value ``"==SUPPRESS=="``; no ``help=``
(or ``None``) is ""; argparse's own ``-h/--help`` has argparse's text. A help that
cannot be evaluated statically (0.5.21-0.5.23 ``--reasoning-parser`` and
``--tool-call-parser``, whose choices are read from ``sys.modules`` at startup)
keeps the expression's source text; ``--verbose`` lists them.

The diffusion server (``data/diffusion-<version>.json``)
------------------------------------------------------
``sglang serve`` picks a backend (0.5.23 ``sglang/cli/serve.py``: ``--model-type``,
else ``_detect_diffusion`` on the model); a diffusion model is parsed by
``argparse.ArgumentParser(description=...)`` filled by
``add_multimodal_gen_serve_args`` (``multimodal_gen/runtime/entrypoints/cli/serve.py``)
and read with ``parse_known_args`` (``cli/serve.py:134-137``). Releases that ship it
(0.5.5 on, where ``sglang serve`` appeared) get a second table in the same format, read by
``DiffusionExtractor``: its functions are run statement by statement (calls that
receive the parser followed, f-strings and ``if`` tests over their parameters
evaluated, ``add_argument_group`` read as the parser). SGLang's own actions map to
what they consume: ``StoreBoolean`` (``runtime/utils/argparse.py``: an optional
``true``/``false``) -> ``store`` with nargs ``"?"`` and const true;
``RaiseNotImplementedAction`` -> ``store``. Options a pipeline registers once the
model is known (``add_resolved_pipeline_config_cli_args``) are not in the table.

Differences with ``../shared/reference/sglang-cli/cli_<version>.json``
--------------------------------------------------------------------
Checked by ``--check-reference``; all of them are on the reference's side:
* the reference omits argparse's own ``-h/--help``;
* the reference lists ``argparse.BooleanOptionalAction`` options without the
  ``--no-<name>`` spellings argparse adds;
* the reference lists ``dcp_size`` (``--dcp-size``/``--decode-context-parallel-size``)
  twice in 0.5.15 and 0.5.16, where ``server_args.py`` annotates the field twice
  (0.5.15 lines 823 and 877); Python keeps one dataclass field and argparse one
  option (two would be an argparse conflict error at startup);
* beyond names/dests (not compared strictly): the reference keeps raw source text
  (``"store_true"``, ``ServerArgs.port = 30000``), reports Literal choices without
  brackets, gives the annotation (``List[int]``) instead of argparse's element type,
  and misses ``nargs``/``type`` passed through ``Arg(action_kwargs=...)``
  (``--lora-paths`` takes ``nargs="*"``, type str, from 0.5.14 on).
Any other difference makes ``--check-reference`` fail.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import json
import math
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]
WHEEL_DIR = ROOT / "scripts" / ".wheels"
DATA_DIR = ROOT / "sglang_lint" / "catalog" / "data"

VERSIONS = (
    "0.5.4",
    "0.5.5",
    "0.5.6",
    "0.5.7",
    "0.5.8",
    "0.5.9",
    "0.5.10",
    "0.5.11",
    "0.5.12",
    "0.5.13",
    "0.5.14",
    "0.5.15",
    "0.5.16",
    "0.5.17",
    "0.5.18",
    "0.5.19",
    "0.5.20",
    "0.5.21",
    "0.5.22",
    "0.5.23",
)

# One fixed target so that every machine downloads the same wheel file (pure
# Python wheels match any platform). --only-binary also guarantees that pip never
# builds (runs) an sdist.
PIP_TARGET = (
    "--only-binary=:all:",
    "--python-version",
    "3.11",
    "--implementation",
    "cp",
    "--abi",
    "cp311",
    "--platform",
    "manylinux_2_34_x86_64",
)

SRT_PREFIX = "sglang/srt/"

# ``help=argparse.SUPPRESS`` (the option is hidden from --help) is recorded as the
# constant's value, as argparse itself stores it.
SUPPRESS_HELP = "==SUPPRESS=="
# argparse's own -h/--help (``ArgumentParser.__init__`` with add_help=True).
ARGPARSE_HELP_HELP = "show this help message and exit"

_MUTATORS = {"add", "append", "extend", "update", "insert", "remove", "pop", "discard", "clear", "setdefault"}


class ExtractionError(Exception):
    """A declaration the extractor does not understand (never silently skipped)."""


class Unresolved(Exception):
    """A value that static evaluation cannot determine (reported as null)."""


# ---------------------------------------------------------------------------
# Wheel and module access
# ---------------------------------------------------------------------------


class Wheel:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.zip = zipfile.ZipFile(path)
        self.names = set(self.zip.namelist())
        self._modules: dict[str, Module | None] = {}

    def module(self, name: str) -> Module | None:
        if name not in self._modules:
            rel = name.replace(".", "/")
            module = None
            for candidate, is_pkg in ((rel + ".py", False), (rel + "/__init__.py", True)):
                if candidate in self.names:
                    text = self.zip.read(candidate).decode("utf-8")
                    module = Module(self, name, candidate, text, is_pkg)
                    break
            self._modules[name] = module
        return self._modules[name]

    def is_package_dir(self, name: str) -> bool:
        prefix = name.replace(".", "/") + "/"
        return any(n.startswith(prefix) for n in self.names)


class Module:
    def __init__(self, wheel: Wheel, name: str, path: str, text: str, is_pkg: bool) -> None:
        self.wheel = wheel
        self.name = name
        self.path = path
        self.text = text
        self.is_pkg = is_pkg
        self.tree = ast.parse(text, filename=path)
        self._bindings: dict[str, ast.AST] | None = None
        self._lines: list[bytes] | None = None
        self._classes: dict[str, ast.ClassDef] = {}
        self._star_imports: list[str] = []
        self._mutated: set[str] = set()

    @property
    def classes(self) -> dict[str, ast.ClassDef]:
        self.bindings  # noqa: B018 - collects classes too
        return self._classes

    @property
    def star_imports(self) -> list[str]:
        self.bindings  # noqa: B018
        return self._star_imports

    @property
    def rel_path(self) -> str:
        return self.path[len(SRT_PREFIX) :] if self.path.startswith(SRT_PREFIX) else self.path

    def source(self, node: ast.AST | None) -> str | None:
        """The node's source text (``ast.get_source_segment`` re-splits the whole
        file on every call, far too slow for 10k-line modules)."""
        if node is None:
            return None
        if self._lines is None:
            self._lines = [line.encode("utf-8") for line in self.text.splitlines(keepends=True)]
        lineno, end_lineno = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        col, end_col = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
        if None in (lineno, end_lineno, col, end_col):
            return ast.unparse(node)
        if lineno == end_lineno:
            chunk = self._lines[lineno - 1][col:end_col]
        else:
            chunk = b"".join(
                [self._lines[lineno - 1][col:], *self._lines[lineno : end_lineno - 1], self._lines[end_lineno - 1][:end_col]]
            )
        return chunk.decode("utf-8")

    def resolve_relative(self, level: int, module: str | None) -> str:
        if level == 0:
            return module or ""
        base = self.name.split(".")
        if not self.is_pkg:
            base = base[:-1]
        if level > 1:
            base = base[: len(base) - (level - 1)]
        return ".".join(base + ([module] if module else []))

    @property
    def bindings(self) -> dict[str, ast.AST]:
        """Module-level name -> binding statement (later bindings win)."""
        if self._bindings is None:
            self._bindings = {}
            self._collect(self.tree.body)
        return self._bindings

    @property
    def mutated(self) -> set[str]:
        """Module-level names changed after their assignment by module-level code
        (``X.append(...)``, ``X[k] = v``, ``X += ...``): not static."""
        self.bindings  # noqa: B018
        return self._mutated

    def _note_mutation(self, stmt: ast.stmt) -> None:
        def root(node: ast.AST) -> str | None:
            while isinstance(node, (ast.Attribute, ast.Subscript)):
                node = node.value
            return node.id if isinstance(node, ast.Name) else None

        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute):
            if stmt.value.func.attr in _MUTATORS and isinstance(stmt.value.func.value, ast.Name):
                self._mutated.add(stmt.value.func.value.id)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            self._mutated.add(stmt.target.id)
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    self._mutated.add(target.value.id)

    def _collect(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self._note_mutation(stmt)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._bindings[stmt.name] = stmt
            elif isinstance(stmt, ast.ClassDef):
                self._bindings[stmt.name] = stmt
                self._classes[stmt.name] = stmt
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        self._bindings[target.id] = stmt
            elif isinstance(stmt, ast.AnnAssign):
                if isinstance(stmt.target, ast.Name) and stmt.value is not None:
                    self._bindings[stmt.target.id] = stmt
            elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
                for alias in stmt.names:
                    if alias.name == "*":
                        assert isinstance(stmt, ast.ImportFrom)
                        self._star_imports.append(self.resolve_relative(stmt.level, stmt.module))
                        continue
                    bound = alias.asname or alias.name.split(".")[0]
                    # `try: import x / except: x = None` keeps the import.
                    if bound not in self._bindings or not isinstance(self._bindings[bound], (ast.Import, ast.ImportFrom)):
                        self._bindings[bound] = stmt
            elif isinstance(stmt, ast.If):
                # `if TYPE_CHECKING:` and platform switches: take both branches,
                # the unconditional bindings collected so far are kept.
                self._collect(stmt.body)
                self._collect(stmt.orelse)
            elif isinstance(stmt, ast.Try):
                self._collect(stmt.body)
                for handler in stmt.handlers:
                    self._collect(handler.body)
                self._collect(stmt.orelse)
                self._collect(stmt.finalbody)


# ---------------------------------------------------------------------------
# Static evaluation
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class External:
    """Something outside the wheel (``argparse.SUPPRESS``, ``typing.Optional``)."""

    qualname: str


@dataclass(frozen=True)
class ModuleRef:
    module: Module


@dataclass(frozen=True)
class ClassRef:
    module: Module
    node: ast.ClassDef

    @property
    def name(self) -> str:
        return self.node.name


@dataclass(frozen=True)
class FunctionRef:
    module: Module
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


@dataclass(frozen=True)
class EnumMember:
    cls: ClassRef
    name: str
    value: Any


@dataclass(frozen=True)
class FieldSpec:
    """``dataclasses.field(...)`` / ``msgspec.field(...)`` as a default."""

    module: Module
    default: ast.AST | None
    default_factory: ast.AST | None


@dataclass(frozen=True)
class ArgSpec:
    """An ``Arg(...)`` annotation (keyword nodes, evaluated on demand)."""

    module: Module
    keywords: dict[str, ast.AST]
    reparsed: bool = False  # parsed from a string annotation: no source positions


_BUILTIN_CALLS: dict[str, Callable[..., Any]] = {
    "list": list,
    "tuple": tuple,
    "set": set,
    "frozenset": frozenset,
    "sorted": sorted,
    "dict": dict,
    "int": int,
    "float": float,
    "str": str,
    "bool": bool,
    "len": len,
    "min": min,
    "max": max,
    "abs": abs,
    "reversed": lambda x: list(reversed(x)),
}

_PURE_METHODS = {
    str: {"lower", "upper", "strip", "lstrip", "rstrip", "replace", "split", "join", "format", "title", "capitalize"},
    dict: {"keys", "values", "items", "get", "copy"},
    list: {"copy", "index", "count"},
    tuple: {"index", "count"},
}

_ENUM_BASES = {"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"}

_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b,
    ast.LShift: lambda a, b: a << b,
    ast.RShift: lambda a, b: a >> b,
    ast.BitOr: lambda a, b: a | b,
    ast.BitAnd: lambda a, b: a & b,
}


class Evaluator:
    """Evaluates expressions of one wheel without executing any of its code."""

    def __init__(self, wheel: Wheel) -> None:
        self.wheel = wheel
        # name -> default node resolver for ``ServerArgs`` fields (set per era)
        self.server_args_fields: dict[str, FieldDecl] = {}
        # True while a help text is evaluated: f-strings are formatted, and values
        # are turned into text only when Python would print them the same way.
        self.help_mode = False

    def help_text(self, node: ast.AST, module: Module, scope: dict[str, Any] | None = None) -> str:
        """The text of a ``help=`` expression: a string, ``argparse.SUPPRESS``
        (-> ``SUPPRESS_HELP``) or None (-> ""); Unresolved when not static."""
        saved, self.help_mode = self.help_mode, True
        try:
            value = _force(self.eval(node, module, scope))
        finally:
            self.help_mode = saved
        if isinstance(value, External) and value.qualname == "argparse.SUPPRESS":
            return SUPPRESS_HELP
        if value is None:
            return ""
        if not isinstance(value, str):
            raise Unresolved(f"help is not a string: {type(value).__name__}")
        return value

    def format_fstring(self, node: ast.JoinedStr, module: Module, scope: dict[str, Any], class_scope: ClassRef | None) -> str:
        """An f-string as Python formats it (help texts only)."""
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
                continue
            assert isinstance(value, ast.FormattedValue)
            piece = _printable(self.eval(value.value, module, scope, class_scope))
            if value.conversion != -1:
                piece = {ord("r"): repr, ord("s"): str, ord("a"): ascii}[value.conversion](piece)
            spec = ""
            if value.format_spec is not None:
                spec = self.eval(value.format_spec, module, scope, class_scope)
                if not isinstance(spec, str):
                    raise Unresolved("f-string format spec")
            try:
                parts.append(format(piece, spec))
            except Exception as exc:  # noqa: BLE001
                raise Unresolved(f"f-string: {exc}") from None
        return "".join(parts)

    # -- names -------------------------------------------------------------

    def lookup(self, module: Module, name: str, _seen: frozenset[tuple[str, str]] = frozenset()) -> Any:
        key = (module.name, name)
        if key in _seen:
            raise Unresolved(f"import cycle for {name}")
        _seen = _seen | {key}
        binding = module.bindings.get(name)
        if binding is None:
            for star in module.star_imports:
                target = self.wheel.module(star)
                if target is not None and (name in target.bindings or target.star_imports):
                    try:
                        return self.lookup(target, name, _seen)
                    except Unresolved:
                        continue
            if hasattr(builtins, name):
                return External(f"builtins.{name}")
            raise Unresolved(f"{name} is not defined in {module.name}")
        if isinstance(binding, ast.ClassDef):
            return ClassRef(module, binding)
        if isinstance(binding, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return FunctionRef(module, binding)
        if isinstance(binding, ast.Import):
            for alias in binding.names:
                if (alias.asname or alias.name.split(".")[0]) == name:
                    target = alias.name if alias.asname else alias.name.split(".")[0]
                    return self.module_ref(target)
        if isinstance(binding, ast.ImportFrom):
            source = module.resolve_relative(binding.level, binding.module)
            for alias in binding.names:
                if (alias.asname or alias.name) == name:
                    return self.import_from(source, alias.name, _seen)
        if isinstance(binding, (ast.Assign, ast.AnnAssign)):
            if name in module.mutated:
                raise Unresolved(f"{module.name}.{name} is modified at import time")
            if name in module.classes and isinstance(binding.value, ast.Call):
                # ``ServerArgs = msgspec.defstruct("ServerArgs", ..., namespace=vars(ServerArgs))``
                # rebuilds the class: its attributes are still the class body's.
                return ClassRef(module, module.classes[name])
            return self.eval(binding.value, module)
        raise Unresolved(f"cannot resolve {name} in {module.name}")

    def module_ref(self, dotted: str) -> Any:
        module = self.wheel.module(dotted)
        if module is not None:
            return ModuleRef(module)
        return External(dotted)

    def import_from(self, source: str, name: str, _seen: frozenset = frozenset()) -> Any:
        module = self.wheel.module(source)
        if module is not None:
            if name in module.bindings or module.star_imports:
                try:
                    return self.lookup(module, name, _seen)
                except Unresolved:
                    if self.wheel.module(f"{source}.{name}") is None:
                        raise
            submodule = self.wheel.module(f"{source}.{name}")
            if submodule is not None:
                return ModuleRef(submodule)
            raise Unresolved(f"{name} not found in {source}")
        if source.split(".")[0] == "sglang":
            submodule = self.wheel.module(f"{source}.{name}")
            if submodule is not None:
                return ModuleRef(submodule)
            raise Unresolved(f"module {source} is not in the wheel as Python source")
        return External(f"{source}.{name}")

    def class_attr(self, cls: ClassRef, attr: str) -> Any:
        for stmt in cls.node.body:
            value = None
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in stmt.targets):
                value = stmt.value
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == attr:
                value = stmt.value
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == attr:
                return FunctionRef(cls.module, stmt)
            if value is not None:
                if self.is_enum(cls) and not attr.startswith("_"):
                    return EnumMember(cls, attr, self._enum_value(cls, attr, value))
                result = self.eval(value, cls.module, class_scope=cls)
                if isinstance(result, FieldSpec):
                    return self.field_default(result)
                return result
        if cls.name == "ServerArgs" and attr in self.server_args_fields:
            decl = self.server_args_fields[attr]
            if decl.default is None:
                raise Unresolved(f"ServerArgs.{attr} has no default")
            return decl.default_value(self)
        for base in cls.node.bases:
            try:
                base_ref = self.eval(base, cls.module)
            except Unresolved:
                continue
            if isinstance(base_ref, ClassRef):
                try:
                    return self.class_attr(base_ref, attr)
                except Unresolved:
                    continue
        raise Unresolved(f"{cls.name}.{attr} not found")

    def is_enum(self, cls: ClassRef) -> bool:
        for base in cls.node.bases:
            try:
                ref = self.eval(base, cls.module)
            except Unresolved:
                continue
            if isinstance(ref, External) and ref.qualname in _ENUM_BASES:
                return True
            if isinstance(ref, ClassRef) and self.is_enum(ref):
                return True
        return False

    def enum_members(self, cls: ClassRef) -> list[EnumMember]:
        members = []
        for stmt in cls.node.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                if not name.startswith("_"):
                    members.append(EnumMember(cls, name, self._enum_value(cls, name, stmt.value)))
        return members

    def _enum_value(self, cls: ClassRef, name: str, node: ast.AST) -> Any:
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
            func = self.eval(node.func, cls.module)
            if func == External("enum.auto"):
                index = [m for m in self._enum_member_names(cls)].index(name)
                return index + 1
        try:
            return self.eval(node, cls.module, class_scope=cls)
        except Unresolved:
            return _Opaque(f"{cls.name}.{name}")

    def _enum_member_names(self, cls: ClassRef) -> Iterator[str]:
        for stmt in cls.node.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                if not stmt.targets[0].id.startswith("_"):
                    yield stmt.targets[0].id

    def field_default(self, spec: FieldSpec) -> Any:
        if spec.default is not None:
            return self.eval(spec.default, spec.module)
        if spec.default_factory is not None:
            factory = self.eval(spec.default_factory, spec.module)
            return self.call(factory, [], {})
        raise Unresolved("field() without a default")

    # -- expressions ---------------------------------------------------------

    def eval(
        self,
        node: ast.AST,
        module: Module,
        scope: dict[str, Any] | None = None,
        class_scope: ClassRef | None = None,
    ) -> Any:
        scope = scope or {}
        ev = lambda n: self.eval(n, module, scope, class_scope)  # noqa: E731
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.JoinedStr):
            if self.help_mode:
                return self.format_fstring(node, module, scope, class_scope)
            raise Unresolved("f-string")
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items: list[Any] = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    items.extend(self.iterate(ev(e.value)))
                else:
                    items.append(ev(e))
            if isinstance(node, ast.Tuple):
                return tuple(items)
            return set(items) if isinstance(node, ast.Set) else items
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                raise Unresolved("dict unpacking")
            return {ev(k): _lazy(lambda v=v: ev(v)) for k, v in zip(node.keys, node.values)}
        if isinstance(node, ast.Name):
            if node.id in scope:
                value = scope[node.id]
                if isinstance(value, Unresolved):
                    raise value
                return value
            if class_scope is not None:
                try:
                    return self.class_attr(class_scope, node.id)
                except Unresolved:
                    pass
            return self.lookup(module, node.id)
        if isinstance(node, ast.Attribute):
            base = ev(node.value)
            return self.attribute(base, node.attr)
        if isinstance(node, ast.Subscript):
            base = ev(node.value)
            index = ev(node.slice)
            if isinstance(base, (list, tuple, str, dict)):
                try:
                    return _force(base[index])
                except (IndexError, KeyError, TypeError) as exc:
                    raise Unresolved(f"subscript: {exc}") from None
            raise Unresolved("subscript of a non-literal")
        if isinstance(node, ast.BinOp):
            op = _BINOPS.get(type(node.op))
            if op is None:
                raise Unresolved("operator")
            left, right = ev(node.left), ev(node.right)
            if isinstance(left, External) or isinstance(right, External):
                raise Unresolved("operator on external value")
            if self.help_mode and isinstance(node.op, ast.Mod) and isinstance(_force(left), str):
                right = _printable(right)  # "... %s" % value
            try:
                return op(_force(left), _force(right))
            except Exception as exc:  # noqa: BLE001 - any failure means "not static"
                raise Unresolved(f"operator: {exc}") from None
        if isinstance(node, ast.UnaryOp):
            operand = ev(node.operand)
            if isinstance(node.op, ast.USub):
                return -operand
            if isinstance(node.op, ast.UAdd):
                return +operand
            if isinstance(node.op, ast.Not):
                return not operand
            raise Unresolved("unary operator")
        if isinstance(node, ast.Call):
            func = ev(node.func)
            if isinstance(func, FieldSpec):
                raise Unresolved("call of a field")
            if _is_field_function(func):
                kwargs = {k.arg: k.value for k in node.keywords if k.arg}
                return FieldSpec(module, kwargs.get("default"), kwargs.get("default_factory"))
            if isinstance(func, ClassRef) and func.name in ("Arg", "Derived", "NS"):
                return ArgSpec(module, {k.arg: k.value for k in node.keywords if k.arg}) if func.name == "Arg" else _Opaque(func.name)
            args = []
            for a in node.args:
                if isinstance(a, ast.Starred):
                    args.extend(ev(a.value))
                else:
                    args.append(ev(a))
            kwargs = {}
            for k in node.keywords:
                if k.arg is None:
                    raise Unresolved("**kwargs")
                kwargs[k.arg] = ev(k.value)
            return self.call(func, args, kwargs)
        if isinstance(node, ast.Lambda):
            return FunctionRef(module, node)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            if len(node.generators) != 1:
                raise Unresolved("nested comprehension")
            gen = node.generators[0]
            if not isinstance(gen.target, ast.Name) or gen.is_async:
                raise Unresolved("comprehension target")
            out = []
            for item in self.iterate(ev(gen.iter)):
                inner = {**scope, gen.target.id: item}
                if all(self.eval(cond, module, inner, class_scope) for cond in gen.ifs):
                    out.append(self.eval(node.elt, module, inner, class_scope))
            return set(out) if isinstance(node, ast.SetComp) else out
        if isinstance(node, ast.IfExp):
            raise Unresolved("conditional expression")
        raise Unresolved(type(node).__name__)

    def attribute(self, base: Any, attr: str) -> Any:
        if self.help_mode and attr == "__doc__" and isinstance(base, FunctionRef):
            # ``f"...{human_readable_int.__doc__}"``: the docstring constant as
            # CPython 3.11 (the wheels' interpreter) keeps it, indentation included.
            body = getattr(base.node, "body", None)
            if isinstance(body, list):
                first = body[0] if body else None
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                    return first.value.value
                return None
        if isinstance(base, ModuleRef):
            if attr in base.module.bindings or base.module.star_imports:
                return self.lookup(base.module, attr)
            return self.module_ref(f"{base.module.name}.{attr}")
        if isinstance(base, External):
            return External(f"{base.qualname}.{attr}")
        if isinstance(base, ClassRef):
            return self.class_attr(base, attr)
        if isinstance(base, EnumMember):
            if attr == "name":
                return base.name
            if attr == "value":
                return _force(base.value)
            raise Unresolved(f"enum member attribute {attr}")
        for kind, methods in _PURE_METHODS.items():
            if isinstance(base, kind) and attr in methods:
                return _BoundMethod(base, attr)
        raise Unresolved(f"attribute {attr} of {type(base).__name__}")

    def iterate(self, value: Any) -> list[Any]:
        if isinstance(value, ClassRef) and self.is_enum(value):
            return self.enum_members(value)
        if isinstance(value, dict):
            return list(value)
        if isinstance(value, (list, tuple, set, frozenset, str)):
            return [_force(v) for v in value]
        raise Unresolved(f"cannot iterate {type(value).__name__}")

    def call(self, func: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if self.help_mode and (
            (isinstance(func, _BoundMethod) and isinstance(func.obj, str) and func.name == "format")
            or func == External("builtins.str")
        ):
            args = [_printable(a) for a in args]  # values turned into text
            kwargs = {k: _printable(a) for k, a in kwargs.items()}
        if self.help_mode and func == External("builtins.map"):
            # ``" ".join(map(str, VALUES))``: an iterator, usable but not printable
            if len(args) != 2 or kwargs or args[0] != External("builtins.str"):
                raise Unresolved("map() other than map(str, values)")
            return _Iterator(str(_printable(v)) for v in self.iterate(args[1]))
        if isinstance(func, _BoundMethod):
            try:
                result = getattr(func.obj, func.name)(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001
                raise Unresolved(f"method: {exc}") from None
            if func.name in ("keys", "values", "items"):
                return _DictView(func.name, [_force(x) for x in result])
            return result
        if isinstance(func, External) and func.qualname.startswith("builtins."):
            impl = _BUILTIN_CALLS.get(func.qualname[len("builtins.") :])
            if impl is None:
                raise Unresolved(func.qualname)
            if args and impl in (list, tuple, set, frozenset, sorted, reversed):
                args = [self.iterate(args[0])] + args[1:]
            try:
                return impl(*[_force(a) for a in args], **kwargs)
            except Exception as exc:  # noqa: BLE001
                raise Unresolved(f"{func.qualname}: {exc}") from None
        if isinstance(func, FunctionRef):
            return self.inline(func, args, kwargs)
        raise Unresolved(f"call of {func!r:.80}")

    def inline(self, func: FunctionRef, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """Evaluate a trivial function: imports and a single ``return`` expression."""
        node = func.node
        params = [a.arg for a in node.args.args]
        if node.args.vararg or node.args.kwarg or len(args) > len(params):
            raise Unresolved("function signature")
        scope: dict[str, Any] = dict(zip(params, args))
        scope.update(kwargs)
        if isinstance(node, ast.Lambda):
            return self.eval(node.body, func.module, scope)
        body = list(node.body)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # docstring
        for stmt in body[:-1]:
            if isinstance(stmt, ast.ImportFrom):
                source = func.module.resolve_relative(stmt.level, stmt.module)
                for alias in stmt.names:
                    scope[alias.asname or alias.name] = self.import_from(source, alias.name)
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    scope[alias.asname or alias.name.split(".")[0]] = self.module_ref(alias.name.split(".")[0])
            else:
                raise Unresolved(f"function {getattr(node, 'name', 'lambda')} is not a plain return")
        if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
            raise Unresolved("function without a return expression")
        return self.eval(body[-1].value, func.module, scope)


@dataclass(frozen=True)
class _BoundMethod:
    obj: Any
    name: str


@dataclass(frozen=True)
class _Opaque:
    what: str


class _DictView(list):
    """``d.keys()``/``values()``/``items()``: a list for every use, printed as
    Python prints the view (``dict_keys(['a', 'b'])``) in a help text."""

    def __init__(self, kind: str, items: list[Any]) -> None:
        super().__init__(items)
        self.kind = kind

    def __repr__(self) -> str:
        return f"dict_{self.kind}({list.__repr__(self)})"

    __str__ = __repr__


class _Iterator(list):
    """A ``map(...)`` result: iterable like the list of its items, never printed
    as one (``_printable`` refuses list subclasses other than ``_DictView``)."""


def _printable(value: Any) -> Any:
    """``value`` with its lazy parts evaluated, when Python would print it exactly
    so (literals and lists/tuples/dicts of them); Unresolved otherwise (sets print
    in hash order, evaluator objects not at all)."""
    value = _force(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, _DictView):
        return _DictView(value.kind, [_printable(v) for v in value])
    if type(value) in (list, tuple):
        return type(value)(_printable(v) for v in value)
    if type(value) is dict:
        return {_printable(k): _printable(v) for k, v in value.items()}
    raise Unresolved(f"{type(value).__name__} in a help text")


class _lazy:  # noqa: N801 - tiny thunk for dict values
    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn = fn


def _force(value: Any) -> Any:
    if isinstance(value, _lazy):
        return value.fn()
    return value


def _is_field_function(func: Any) -> bool:
    return isinstance(func, External) and func.qualname in ("dataclasses.field", "msgspec.field")


def to_json_value(value: Any) -> Any:
    """A JSON-compatible copy of an evaluated value; Unresolved otherwise."""
    value = _force(value)
    if isinstance(value, EnumMember):
        return to_json_value(value.value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise Unresolved("non-finite float")
        return value
    if isinstance(value, (list, tuple)):
        return [to_json_value(v) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [to_json_value(v) for v in value]
        return sorted(items, key=lambda v: (type(v).__name__, str(v)))
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise Unresolved("non-string dict key")
            out[k] = to_json_value(v)
        return out
    raise Unresolved(f"not a literal: {value!r:.60}")


# ---------------------------------------------------------------------------
# Option records
# ---------------------------------------------------------------------------


@dataclass
class RawOption:
    """One argparse action, before normalisation to the JSON format."""

    names: list[str]
    dest: str
    action: str
    type: str | None
    default: Any
    default_source: str | None
    choices: list[Any] | None
    nargs: str | int | None
    const: Any
    deprecated: bool
    file: str
    help: str = ""
    order: int = 0
    unresolved: list[str] = field(default_factory=list)  # for --verbose, not written

    def to_json(self) -> dict[str, Any]:
        return {
            "names": self.names,
            "dest": self.dest,
            "action": self.action,
            "type": self.type,
            "default": self.default,
            "default_source": self.default_source,
            "choices": self.choices,
            "nargs": self.nargs,
            "const": self.const,
            "deprecated": self.deprecated,
            "file": self.file,
            "help": self.help,
        }


_NO_DEFAULT = object()


@dataclass
class ArgparseCall:
    """The keyword arguments of one ``add_argument`` call, as nodes or values."""

    module: Module
    names: list[str]
    kwargs: dict[str, ast.AST | Any] = field(default_factory=dict)  # node, or _Value
    file: str = ""


@dataclass(frozen=True)
class _Value:
    """A keyword whose value is already known (set by add_cli_args_from_dataclass)."""

    value: Any
    source: str | None


_SGLANG_ACTIONS = {
    # class name -> (nargs default, behaviour)
    "DeprecatedAction": 0,
    "DeprecatedStoreTrueAction": 0,
    "DeprecatedStoreConstAction": 0,
    "DeprecatedAliasStoreAction": None,
    "LoRAPathAction": None,
}

_ARGPARSE_ACTIONS = {
    "store": "store",
    "store_true": "store_true",
    "store_false": "store_false",
    "store_const": "store_const",
    "append": "append",
    "count": "count",
    "help": "help",
}

_NARGS_CONSTANTS = {
    "argparse.OPTIONAL": "?",
    "argparse.ZERO_OR_MORE": "*",
    "argparse.ONE_OR_MORE": "+",
}


class OptionBuilder:
    def __init__(self, evaluator: Evaluator) -> None:
        self.ev = evaluator

    def kwarg_node(self, call: ArgparseCall, key: str) -> Any:
        return call.kwargs.get(key, _NO_DEFAULT)

    def value_of(self, call: ArgparseCall, key: str, scope: dict[str, Any]) -> Any:
        node = call.kwargs[key]
        if isinstance(node, _Value):
            if isinstance(node.value, Unresolved):
                raise node.value
            return node.value
        return self.ev.eval(node, call.module, scope)

    def source_of(self, call: ArgparseCall, key: str) -> str | None:
        node = call.kwargs.get(key)
        if node is None:
            return None
        if isinstance(node, _Value):
            return node.source
        return call.module.source(node)

    def build(self, call: ArgparseCall, scope: dict[str, Any], order: int) -> RawOption:
        for name in call.names:
            if not name.startswith("-"):
                raise ExtractionError(f"{call.file}: positional argument {name!r} is not supported")
        unknown = set(call.kwargs) - {
            "action", "type", "default", "choices", "nargs", "const", "dest", "help",
            "required", "metavar", "new_flag", "const_value", "error_message",
        }  # fmt: skip
        if unknown:
            raise ExtractionError(f"{call.file}: {call.names[0]}: unsupported add_argument keywords {sorted(unknown)}")

        # action -------------------------------------------------------------
        action_name = "store"
        custom = None
        if "action" in call.kwargs:
            try:
                action_value = self.value_of(call, "action", scope)
            except Unresolved as exc:
                raise ExtractionError(f"{call.file}: {call.names[0]}: cannot resolve action: {exc}") from None
            if isinstance(action_value, str):
                if action_value not in _ARGPARSE_ACTIONS:
                    raise ExtractionError(f"{call.file}: {call.names[0]}: unsupported action {action_value!r}")
                action_name = action_value
            elif action_value == External("argparse.BooleanOptionalAction"):
                action_name = "boolean_optional"
            elif isinstance(action_value, ClassRef) and action_value.name in _SGLANG_ACTIONS:
                custom = action_value.name
            else:
                raise ExtractionError(f"{call.file}: {call.names[0]}: unknown action {action_value!r}")

        # nargs ----------------------------------------------------------------
        if "nargs" in call.kwargs:
            try:
                nargs = self.value_of(call, "nargs", scope)
            except Unresolved as exc:
                raise ExtractionError(f"{call.file}: {call.names[0]}: cannot resolve nargs: {exc}") from None
            if isinstance(nargs, External):
                if nargs.qualname not in _NARGS_CONSTANTS:
                    raise ExtractionError(f"{call.file}: {call.names[0]}: unsupported nargs {nargs.qualname}")
                nargs = _NARGS_CONSTANTS[nargs.qualname]
        elif custom is not None:
            nargs = _SGLANG_ACTIONS[custom]
        else:
            nargs = None
        if nargs is not None and not (nargs in ("?", "*", "+") or (isinstance(nargs, int) and nargs >= 0)):
            raise ExtractionError(f"{call.file}: {call.names[0]}: unsupported nargs {nargs!r}")

        deprecated = custom is not None and custom.startswith("Deprecated")
        const_key = "const"
        implicit_default: Any = None
        if custom == "DeprecatedStoreTrueAction":
            if nargs != 0:
                raise ExtractionError(f"{call.names[0]}: DeprecatedStoreTrueAction with nargs={nargs!r}")
            action_name, implicit_default = "store_true", False
        elif custom == "DeprecatedStoreConstAction":
            # Stores ``const_value``; with nargs=None it consumes one (checked) value.
            action_name = "store_const" if nargs == 0 else "store"
            const_key = "const_value"
        elif custom == "DeprecatedAction":
            action_name = "store_const" if nargs == 0 else "store"
        elif custom in ("DeprecatedAliasStoreAction", "LoRAPathAction"):
            if nargs == 0:
                raise ExtractionError(f"{call.names[0]}: {custom} with nargs=0")
            action_name = "store"
        elif action_name == "store_true":
            implicit_default = False
        elif action_name == "store_false":
            implicit_default = True
        if action_name in ("store_true", "store_false", "store_const", "count", "help", "boolean_optional"):
            if nargs not in (None, 0):
                raise ExtractionError(f"{call.names[0]}: {action_name} with nargs={nargs!r}")
            nargs = None
        elif nargs == 0:
            raise ExtractionError(f"{call.names[0]}: nargs=0 for a valued option")

        # names and dest -------------------------------------------------------
        names = list(call.names)
        if action_name == "boolean_optional":
            names = []
            for name in call.names:
                names.append(name)
                if name.startswith("--"):
                    names.append("--no-" + name[2:])
        if "dest" in call.kwargs:
            try:
                dest = self.value_of(call, "dest", scope)
            except Unresolved as exc:
                raise ExtractionError(f"{call.names[0]}: cannot resolve dest: {exc}") from None
        else:
            longs = [n for n in call.names if len(n) > 1 and n[1] == "-"]
            dest = (longs or call.names)[0].lstrip("-").replace("-", "_")

        # type -----------------------------------------------------------------
        type_name = None
        if "type" in call.kwargs:
            type_name = self.type_name(call, scope)

        # default --------------------------------------------------------------
        notes: list[str] = []
        default: Any = implicit_default
        default_source = None
        if "default" in call.kwargs:
            default_source = self.source_of(call, "default")
            try:
                raw_default = self.value_of(call, "default", scope)
                if raw_default == External("argparse.SUPPRESS"):
                    default = None
                else:
                    default = to_json_value(raw_default)
                    # argparse converts a string default with ``type`` when parsing
                    if isinstance(default, str) and type_name in ("int", "float"):
                        try:
                            default = int(default) if type_name == "int" else float(default)
                        except ValueError:
                            pass
            except Unresolved as exc:
                default = None
                notes.append(f"default {default_source!r}: {exc}")

        # choices / const --------------------------------------------------------
        choices = None
        if "choices" in call.kwargs:
            try:
                choices = to_json_value(self.value_of(call, "choices", scope))
                if not isinstance(choices, list):
                    raise Unresolved("choices is not a collection")
            except Unresolved as exc:
                choices = None
                notes.append(f"choices {self.source_of(call, 'choices')!r}: {exc}")
        const = None
        if const_key in call.kwargs:
            try:
                const = to_json_value(self.value_of(call, const_key, scope))
            except Unresolved as exc:
                const = None
                notes.append(f"const {self.source_of(call, const_key)!r}: {exc}")

        # help -------------------------------------------------------------------
        help_text = ""
        if "help" in call.kwargs:
            help_text = self.help_of(call, scope, notes)

        return RawOption(
            names=names,
            dest=dest,
            action=action_name,
            type=type_name,
            default=default,
            default_source=default_source,
            choices=choices,
            nargs=nargs,
            const=const,
            deprecated=deprecated,
            file=call.file,
            help=help_text,
            order=order,
            unresolved=notes,
        )

    def help_of(self, call: ArgparseCall, scope: dict[str, Any], notes: list[str]) -> str:
        """The help text as SGLang wrote it (argparse's ``%(default)s`` placeholders
        kept); the expression's source text when it is not static."""
        node = call.kwargs["help"]
        try:
            if isinstance(node, _Value):
                if isinstance(node.value, Unresolved):
                    raise node.value
                return node.value
            return self.ev.help_text(node, call.module, scope)
        except Unresolved as exc:
            source = self.source_of(call, "help") or ""
            notes.append(f"help {source!r}: {exc}")
            return source

    def type_name(self, call: ArgparseCall, scope: dict[str, Any]) -> str | None:
        source = self.source_of(call, "type")
        try:
            value = self.value_of(call, "type", scope)
        except Unresolved:
            return source
        if isinstance(value, str):
            raise ExtractionError(f"{call.names[0]}: type={value!r} is a string")
        if isinstance(value, External) and value.qualname in ("builtins.int", "builtins.float", "builtins.str"):
            return value.qualname.split(".")[1]
        return source


# ---------------------------------------------------------------------------
# Dataclass / msgspec field declarations (0.5.14+)
# ---------------------------------------------------------------------------


@dataclass
class FieldDecl:
    name: str
    module: Module
    annotation: ast.AST
    default: ast.AST | None  # None: no default (MISSING)
    order: int

    def default_value(self, ev: Evaluator) -> Any:
        value = ev.eval(self.default, self.module)
        if isinstance(value, FieldSpec):
            return ev.field_default(value)
        return value

    def default_source(self) -> str | None:
        return self.module.source(self.default) if self.default is not None else None


@dataclass(frozen=True)
class TypeInfo:
    kind: str  # builtin | union | literal | list | none | other
    name: str = ""
    args: tuple[Any, ...] = ()


_TYPING_UNION = {"typing.Union"}
_TYPING_OPTIONAL = {"typing.Optional"}
_TYPING_LITERAL = {"typing.Literal", "typing_extensions.Literal"}
_TYPING_ANNOTATED = {"typing.Annotated", "typing_extensions.Annotated"}
_TYPING_LIST = {"typing.List", "builtins.list"}
_TYPING_CLASSVAR = {"typing.ClassVar"}


class FieldReader:
    """Mirrors ``arg_groups/arg_utils.py:add_cli_args_from_dataclass``."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.ev = evaluator

    # -- collecting fields -----------------------------------------------------

    def class_fields(self, cls: ClassRef, start: int = 0) -> list[FieldDecl]:
        """Annotated class attributes, bases first; a re-declared name keeps its first
        position and takes the last annotation and default (Python class semantics)."""
        fields: dict[str, FieldDecl] = {}
        for base in cls.node.bases:
            try:
                ref = self.ev.eval(base, cls.module)
            except Unresolved:
                continue
            if isinstance(ref, ClassRef):
                for decl in self.class_fields(ref):
                    fields[decl.name] = decl
        for stmt in cls.node.body:
            if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
                continue
            if self.is_classvar(stmt.annotation, cls.module):
                continue
            name = stmt.target.id
            previous = fields.get(name)
            order = previous.order if previous else len(fields)
            fields[name] = FieldDecl(name, cls.module, stmt.annotation, stmt.value, order)
        ordered = sorted(fields.values(), key=lambda d: d.order)
        for i, decl in enumerate(ordered):
            decl.order = start + i
        return ordered

    def is_classvar(self, annotation: ast.AST, module: Module) -> bool:
        node = annotation.value if isinstance(annotation, ast.Subscript) else annotation
        try:
            ref = self.ev.eval(node, module)
        except Unresolved:
            return False
        return isinstance(ref, External) and ref.qualname in _TYPING_CLASSVAR

    # -- types -----------------------------------------------------------------

    def type_info(self, node: ast.AST, module: Module) -> TypeInfo:
        if isinstance(node, ast.Constant):
            if node.value is None:
                return TypeInfo("none")
            if isinstance(node.value, str):  # forward reference
                return self.type_info(ast.parse(node.value, mode="eval").body, module)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return _union([self.type_info(node.left, module), self.type_info(node.right, module)])
        if isinstance(node, ast.Subscript):
            head = self._ref(node.value, module)
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if head in _TYPING_OPTIONAL:
                return _union([self.type_info(items[0], module), TypeInfo("none")])
            if head in _TYPING_UNION:
                return _union([self.type_info(i, module) for i in items])
            if head in _TYPING_LITERAL:
                try:
                    values = tuple(to_json_value(self.ev.eval(i, module)) for i in items)
                except Unresolved as exc:
                    raise ExtractionError(f"{module.path}: Literal values: {exc}") from None
                return TypeInfo("literal", args=values)
            if head in _TYPING_LIST:
                return TypeInfo("list", args=(self.type_info(items[0], module),))
            if head in _TYPING_ANNOTATED:
                return self.type_info(items[0], module)
            return TypeInfo("other", name=module.source(node) or "")
        head = self._ref(node, module)
        if head in ("builtins.str", "builtins.int", "builtins.float", "builtins.bool"):
            return TypeInfo("builtin", name=head.split(".")[1])
        if head in _TYPING_LIST:
            return TypeInfo("list", args=())
        if head is None and isinstance(node, ast.Name):
            # a module-level type alias
            binding = module.bindings.get(node.id)
            if isinstance(binding, (ast.Assign, ast.AnnAssign)) and binding.value is not None:
                return self.type_info(binding.value, module)
        return TypeInfo("other", name=module.source(node) or "")

    def _ref(self, node: ast.AST, module: Module) -> str | None:
        try:
            ref = self.ev.eval(node, module)
        except Unresolved:
            return None
        if isinstance(ref, External):
            return ref.qualname
        return None

    @staticmethod
    def infer_type(info: TypeInfo) -> str:
        """``_infer_type_func``: str/int/float, anything else str."""
        if info.kind == "builtin" and info.name in ("str", "int", "float"):
            return info.name
        return "str"

    # -- one field -> add_argument call ----------------------------------------

    def annotation_parts(self, decl: FieldDecl) -> tuple[ast.AST, ArgSpec | None]:
        """``_unwrap_annotated``: (inner type node, the first Arg / help string)."""
        node = decl.annotation
        reparsed = False
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node = ast.parse(node.value, mode="eval").body
            reparsed = True
        if not isinstance(node, ast.Subscript) or self._ref(node.value, decl.module) not in _TYPING_ANNOTATED:
            return node, None
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for meta in items[1:]:
            if isinstance(meta, ast.JoinedStr):
                return items[0], ArgSpec(decl.module, {"help": meta}, reparsed)  # an f-string help text
            try:
                value = self.ev.eval(meta, decl.module)
            except Unresolved as exc:
                raise ExtractionError(
                    f"{decl.module.path}: {decl.name}: cannot tell whether {decl.module.source(meta)!r} "
                    f"is CLI metadata: {exc}"
                ) from None
            if isinstance(value, ArgSpec):
                return items[0], ArgSpec(value.module, value.keywords, reparsed) if reparsed else value
            if isinstance(value, str):
                return items[0], ArgSpec(decl.module, {"help": meta}, reparsed)
        return items[0], None

    def to_call(self, decl: FieldDecl, file: str) -> ArgparseCall | None:
        type_node, arg = self.annotation_parts(decl)
        if arg is None:
            return None

        def meta(key: str, default: Any = None) -> Any:
            node = arg.keywords.get(key)
            if node is None:
                return default
            try:
                return self.ev.eval(node, arg.module)
            except Unresolved as exc:
                return exc

        def meta_value(key: str) -> _Value:
            node = arg.keywords[key]
            return _Value(meta(key), arg.module.source(node))

        no_cli = meta("no_cli", False)
        if isinstance(no_cli, Unresolved):
            raise ExtractionError(f"{file}: {decl.name}: cannot resolve no_cli")
        if no_cli:
            return None
        cli_name = meta("cli_name")
        aliases = meta("aliases") or []
        if isinstance(cli_name, Unresolved) or isinstance(aliases, Unresolved):
            raise ExtractionError(f"{file}: {decl.name}: cannot resolve cli_name/aliases")
        cli_name = cli_name or "--" + decl.name.replace("_", "-")
        call = ArgparseCall(decl.module, [cli_name, *aliases], file=file)
        kw = call.kwargs
        kw["dest"] = _Value(decl.name, None)
        if decl.default is not None:
            try:
                default = decl.default_value(self.ev)
            except Unresolved as exc:
                default = exc
            kw["default"] = _Value(default, decl.default_source())
        if "help" in arg.keywords:
            # ``help=arg_meta.help`` in every branch (``Arg.help`` defaults to "");
            # ``action_kwargs`` may override it, as its dict update does.
            node = arg.keywords["help"]
            try:
                text: Any = self.ev.help_text(node, arg.module)
            except Unresolved as exc:
                text = exc
            kw["help"] = _Value(text, ast.unparse(node) if arg.reparsed else arg.module.source(node))

        def put_if(key: str, arg_key: str, truthy: bool) -> None:
            if arg_key in arg.keywords:
                value = meta(arg_key)
                if isinstance(value, Unresolved) or (value if truthy else value is not None):
                    kw[key] = meta_value(arg_key)

        if "action" in arg.keywords:
            kw["action"] = meta_value("action")
            action_kwargs = arg.keywords.get("action_kwargs")
            if action_kwargs is not None:
                if not isinstance(action_kwargs, ast.Dict) or any(k is None for k in action_kwargs.keys):
                    raise ExtractionError(f"{file}: {decl.name}: action_kwargs must be a dict literal")
                for k, v in zip(action_kwargs.keys, action_kwargs.values):
                    key = self.ev.eval(k, arg.module)
                    kw[key] = v  # a node: evaluated like an add_argument keyword
            return call

        inner = self.type_info(type_node, decl.module)
        inner = _unwrap_optional(inner)
        # ``arg_meta.type_parser or ...`` / ``arg_meta.type_parser is None``
        has_parser = "type_parser" in arg.keywords and meta("type_parser") is not None
        if inner.kind == "literal":
            literal_vals = list(inner.args)
            choices = meta("choices")
            if "choices" in arg.keywords and (isinstance(choices, Unresolved) or choices):
                kw["choices"] = meta_value("choices")
            else:
                kw["choices"] = _Value(literal_vals, None)
            if has_parser:
                kw["type"] = meta_value("type_parser")
            else:
                first = literal_vals[0] if literal_vals else ""
                builtin = {str: "str", int: "int", float: "float"}.get(type(first), "str")
                kw["type"] = _Value(External(f"builtins.{builtin}"), None)
            put_if("const", "const", truthy=False)
            return call
        if inner.kind == "list" and not has_parser:
            elem = inner.args[0] if inner.args else TypeInfo("builtin", "str")
            kw["type"] = _Value(External(f"builtins.{self.infer_type(elem)}"), None)
            nargs = meta("nargs")
            given = "nargs" in arg.keywords and (isinstance(nargs, Unresolved) or nargs)
            kw["nargs"] = meta_value("nargs") if given else _Value("+", None)
            put_if("choices", "choices", truthy=True)
            put_if("const", "const", truthy=False)
            return call
        if inner.kind == "builtin" and inner.name == "bool":
            kw["action"] = _Value("store_true", None)
            return call
        if has_parser:
            kw["type"] = meta_value("type_parser")
        else:
            kw["type"] = _Value(External(f"builtins.{self.infer_type(inner)}"), None)
        put_if("choices", "choices", truthy=True)
        put_if("nargs", "nargs", truthy=True)
        put_if("const", "const", truthy=False)
        return call


def _union(parts: list[TypeInfo]) -> TypeInfo:
    flat: list[TypeInfo] = []
    for part in parts:
        for item in part.args if part.kind == "union" else (part,):
            if item not in flat:
                flat.append(item)
    return flat[0] if len(flat) == 1 else TypeInfo("union", args=tuple(flat))


def _unwrap_optional(info: TypeInfo) -> TypeInfo:
    if info.kind == "union":
        non_none = [a for a in info.args if a.kind != "none"]
        if len(non_none) == 1:
            return non_none[0]
    return info


# ---------------------------------------------------------------------------
# The whole parser of one version
# ---------------------------------------------------------------------------


def _find_function(body: list[ast.stmt], name: str) -> ast.FunctionDef | None:
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == name:
            return stmt
    return None


def _is_add_argument(stmt: ast.stmt) -> ast.Call | None:
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        func = stmt.value.func
        if isinstance(func, ast.Attribute) and func.attr == "add_argument":
            return stmt.value
    return None


def _calls_in(node: ast.AST, name: str) -> list[ast.Call]:
    found = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            func = sub.func
            fname = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if fname == name:
                found.append(sub)
    return found


class VersionExtractor:
    def __init__(self, wheel: Wheel, version: str) -> None:
        self.wheel = wheel
        self.version = version
        self.ev = Evaluator(wheel)
        self.builder = OptionBuilder(self.ev)
        self.fields = FieldReader(self.ev)
        self._declared_default: Callable[[Any], Any] = self._no_declared_default

    @staticmethod
    def _no_declared_default(name: Any) -> Any:
        raise Unresolved("_declared_default is not defined in this version")

    def module(self, name: str) -> Module:
        module = self.wheel.module(name)
        if module is None:
            raise ExtractionError(f"{self.wheel.path.name}: no {name}")
        return module

    def extract(self) -> list[RawOption]:
        self.check_entry_point()
        server_args = self.module("sglang.srt.server_args")
        self.check_parser(server_args)
        cls = server_args.classes.get("ServerArgs")
        if cls is None:
            raise ExtractionError("no class ServerArgs in sglang/srt/server_args.py")
        add_cli_args = _find_function(cls.body, "add_cli_args")
        if add_cli_args is None:
            raise ExtractionError("no ServerArgs.add_cli_args")

        options: list[RawOption] = [
            RawOption(["-h", "--help"], "help", "help", None, None, None, None, None, None, False, "", help=ARGPARSE_HELP_HELP, order=0)
        ]
        order = 1

        # Field declarations and the ServerArgs field table (for ServerArgs.x defaults)
        decls = self.collect_fields(server_args, cls)
        self.ev.server_args_fields = {d.name: d for d in decls}
        if _calls_in(cls, "_declared_default"):
            # ``_declared_default("x")``: the declared default of ServerArgs field x.
            def declared_default(name: Any) -> Any:
                decl = self.ev.server_args_fields.get(name)
                if decl is None or decl.default is None:
                    raise Unresolved(f"no declared default for {name}")
                return decl.default_value(self.ev)

            self._declared_default = declared_default

        scope: dict[str, Any] = {}
        mutated = self.mutated_locals(add_cli_args)
        for stmt in add_cli_args.body:
            call = _is_add_argument(stmt)
            if call is not None:
                argcall = self.argparse_call(server_args, call)
                options.append(self.build(argcall, scope, order))
                order += 1
                continue
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                fname = ast.unparse(stmt.value.func)
                if fname == "add_cli_args_from_dataclass":
                    target = ast.unparse(stmt.value.args[1]) if len(stmt.value.args) > 1 else ""
                    if target != "ServerArgs" or stmt.value.keywords:
                        raise ExtractionError(f"unexpected call {ast.unparse(stmt.value)}")
                    for decl in decls:
                        file = decl.module.rel_path
                        argcall = self.fields.to_call(decl, file)
                        if argcall is not None:
                            options.append(self.build(argcall, scope, order))
                            order += 1
                    continue
                raise ExtractionError(f"add_cli_args: unexpected call {fname}")
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                if name in mutated:
                    scope[name] = Unresolved(f"{name} is modified in add_cli_args")
                else:
                    try:
                        scope[name] = self.eval_local(stmt.value, server_args, scope)
                    except Unresolved as exc:
                        scope[name] = exc
                continue
            if isinstance(stmt, ast.If):
                if any(_is_add_argument(s) for s in ast.walk(stmt) if isinstance(s, ast.stmt)):
                    raise ExtractionError("add_cli_args registers options conditionally")
                continue  # only mutates locals (already marked as unresolvable)
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # docstring
            raise ExtractionError(f"add_cli_args: unexpected statement at line {stmt.lineno}: {ast.unparse(stmt)[:80]}")

        self.check_conflicts(options)
        return options

    def eval_local(self, node: ast.AST, module: Module, scope: dict[str, Any]) -> Any:
        return self.ev.eval(node, module, scope)

    @staticmethod
    def mutated_locals(func: ast.FunctionDef) -> set[str]:
        assigned: dict[str, int] = {}
        mutated: set[str] = set()
        for node in ast.walk(func):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned[target.id] = assigned.get(target.id, 0) + 1
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                mutated.add(node.target.id)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
                if node.func.attr in _MUTATORS:
                    mutated.add(node.func.value.id)
        return mutated | {name for name, count in assigned.items() if count > 1}

    def argparse_call(self, module: Module, call: ast.Call) -> ArgparseCall:
        names = []
        for arg in call.args:
            try:
                value = self.ev.eval(arg, module)
            except Unresolved as exc:
                raise ExtractionError(f"line {call.lineno}: cannot resolve option name: {exc}") from None
            if not isinstance(value, str):
                raise ExtractionError(f"line {call.lineno}: option name is not a string")
            names.append(value)
        if not names:
            raise ExtractionError(f"line {call.lineno}: add_argument without names")
        argcall = ArgparseCall(module, names, file=module.rel_path)
        for kw in call.keywords:
            if kw.arg is None:
                raise ExtractionError(f"line {call.lineno}: **kwargs in add_argument")
            argcall.kwargs[kw.arg] = kw.value
        return argcall

    def build(self, call: ArgparseCall, scope: dict[str, Any], order: int) -> RawOption:
        # ``_declared_default("x")`` is a generator expression over msgspec fields;
        # evaluate it as what it means rather than inlining it.
        default = call.kwargs.get("default")
        if isinstance(default, ast.Call) and isinstance(default.func, ast.Name) and default.func.id == "_declared_default":
            source = call.module.source(default)
            try:
                name = self.ev.eval(default.args[0], call.module, scope)
                value = self._declared_default(name)
            except Unresolved as exc:
                value = exc
            call.kwargs["default"] = _Value(value, source)
        return self.builder.build(call, scope, order)

    def collect_fields(self, server_args: Module, cls: ast.ClassDef) -> list[FieldDecl]:
        """The ServerArgs fields in declaration order (only used from 0.5.14 on, but
        also resolve ``ServerArgs.x`` defaults in older versions)."""
        for stmt in server_args.tree.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
                func = stmt.value.func
                if isinstance(func, ast.Name) and func.id == "collect_input_fields":
                    try:
                        sources = self.ev.eval(stmt.value.args[0], server_args)
                    except Unresolved as exc:
                        raise ExtractionError(f"cannot resolve the namespace list: {exc}") from None
                    decls: list[FieldDecl] = []
                    seen: dict[str, str] = {}
                    for source in sources:
                        if not isinstance(source, ClassRef):
                            raise ExtractionError(f"namespace {source!r} is not a class")
                        for decl in self.fields.class_fields(source, start=len(decls)):
                            if decl.name in seen:
                                raise ExtractionError(
                                    f"{decl.name} declared by both {seen[decl.name]} and {source.name}"
                                )
                            seen[decl.name] = source.name
                            decls.append(decl)
                    own = self.fields.class_fields(ClassRef(server_args, cls), start=len(decls))
                    return decls + own
        return self.fields.class_fields(ClassRef(server_args, cls))

    def check_entry_point(self) -> None:
        launch = self.module("sglang.launch_server")
        calls = _calls_in(launch.tree, "prepare_server_args")
        if not any(
            len(c.args) == 1 and ast.unparse(c.args[0]) == "sys.argv[1:]" and not c.keywords for c in calls
        ):
            raise ExtractionError("sglang/launch_server.py does not call prepare_server_args(sys.argv[1:])")

    def check_parser(self, server_args: Module) -> None:
        func = _find_function(server_args.tree.body, "prepare_server_args")
        if func is None:
            raise ExtractionError("no prepare_server_args in sglang/srt/server_args.py")
        parsers = _calls_in(func, "ArgumentParser")
        if not parsers:
            raise ExtractionError("prepare_server_args builds no ArgumentParser")
        for call in parsers:
            for kw in call.keywords:
                if kw.arg not in ("prog", "description", "usage", "epilog", "formatter_class"):
                    raise ExtractionError(
                        f"prepare_server_args: ArgumentParser({kw.arg}=...) changes parsing; update the extractor"
                    )
        if not any(ast.unparse(c.func) in ("ServerArgs.add_cli_args", "cls.add_cli_args") for c in _calls_in(func, "add_cli_args")):
            raise ExtractionError("prepare_server_args does not call ServerArgs.add_cli_args")
        for name in ("add_argument", "add_argument_group", "add_mutually_exclusive_group", "add_subparsers"):
            if _calls_in(func, name):
                raise ExtractionError(f"prepare_server_args calls {name}; update the extractor")

    def check_conflicts(self, options: list[RawOption]) -> None:
        seen: dict[str, str] = {}
        for option in options:
            for name in option.names:
                if name in seen:
                    raise ExtractionError(f"option {name} registered twice ({seen[name]} and {option.dest})")
                seen[name] = option.dest


# ---------------------------------------------------------------------------
# The diffusion server's parser (``sglang serve`` with the diffusion backend)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _ParserRef:
    """The ``argparse.ArgumentParser`` being filled (a function's parameter)."""


_PARSER = _ParserRef()

# Functions that add options only once the model is known, from the process's own
# argv (0.5.23 multimodal_gen/runtime/entrypoints/cli/utils.py:18-69: a pipeline's
# config may register its own flags, e.g. FLUX.3's ``--flux3-alpha``). Their
# options are not in the table; catalog/diffusion.py says what that means.
_MODEL_DEPENDENT_OPTIONS = {"add_resolved_pipeline_config_cli_args"}

# multimodal_gen/runtime/utils/argparse.py ``StoreBoolean``: nargs="?", const=True;
# ``--x`` alone stores True, ``--x true|false`` the boolean (any other word raises
# ValueError in the action). Listed as what it consumes: ``store`` with nargs "?".
_STORE_BOOLEAN = "StoreBoolean"
# entrypoints/cli/utils.py ``RaiseNotImplementedAction``: an ``argparse.Action``
# (one value) whose call raises NotImplementedError.
_PLAIN_ACTIONS = {"RaiseNotImplementedAction"}

DIFFUSION_PREFIX = "sglang/multimodal_gen/"


class DiffusionEvaluator(Evaluator):
    """The evaluator, plus f-strings: the diffusion parser spells option names as
    ``f"--{prefix_with_dot}vae-precision"`` (not used for the LLM tables, whose
    unresolved f-string defaults stay null as committed)."""

    def eval(self, node: ast.AST, module: Module, scope: dict[str, Any] | None = None, class_scope: ClassRef | None = None) -> Any:
        if isinstance(node, ast.JoinedStr) and not self.help_mode:  # help texts: Evaluator.format_fstring
            parts = []
            for value in node.values:
                if isinstance(value, ast.Constant):
                    parts.append(str(value.value))
                    continue
                assert isinstance(value, ast.FormattedValue)
                if value.conversion != -1 or value.format_spec is not None:
                    raise Unresolved("f-string with a conversion or format")
                piece = _force(self.eval(value.value, module, scope, class_scope))
                if not isinstance(piece, (str, int, float)) or isinstance(piece, bool):
                    raise Unresolved("f-string of a non-literal")
                parts.append(str(piece))
            return "".join(parts)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            left = _force(self.eval(node.left, module, scope, class_scope))
            right = _force(self.eval(node.comparators[0], module, scope, class_scope))
            if not all(isinstance(v, (str, int, float, type(None))) for v in (left, right)):
                raise Unresolved("comparison of non-literals")
            return (left == right) if isinstance(node.ops[0], ast.Eq) else (left != right)
        if isinstance(node, ast.IfExp):
            taken = _force(self.eval(node.test, module, scope, class_scope))
            if not isinstance(taken, (bool, str, int, type(None))):
                raise Unresolved("condition on a non-literal")
            return self.eval(node.body if taken else node.orelse, module, scope, class_scope)
        return super().eval(node, module, scope, class_scope)


class DiffusionExtractor:
    """Reads ``add_multimodal_gen_serve_args`` (multimodal_gen/runtime/entrypoints/
    cli/serve.py), the parser ``sglang serve`` builds for a diffusion model
    (0.5.23 sglang/cli/serve.py:134-137: ``argparse.ArgumentParser(description=...)``,
    defaults otherwise: ``add_help`` and ``allow_abbrev`` True, then
    ``parse_known_args``). Its functions are run statement by statement: calls
    that receive the parser are followed (``ServerArgs.add_cli_args(parser)``,
    ``DiTConfig.add_cli_args(parser, prefix=...)``), ``if`` tests are evaluated in
    the function's scope (``prefix_with_dot != ""``), anything else that could
    register an option is an ExtractionError."""

    ENTRY = "sglang.multimodal_gen.runtime.entrypoints.cli.serve"

    def __init__(self, wheel: Wheel, version: str) -> None:
        self.wheel = wheel
        self.version = version
        self.ev = DiffusionEvaluator(wheel)
        self.builder = OptionBuilder(self.ev)
        self.options: list[RawOption] = []
        self.skipped: list[str] = []

    def available(self) -> bool:
        return self.wheel.module(self.ENTRY) is not None

    def extract(self) -> list[RawOption]:
        self.check_dispatch()
        entry = self.wheel.module(self.ENTRY)
        if entry is None:
            raise ExtractionError(f"no {self.ENTRY}")
        func = _find_function(entry.tree.body, "add_multimodal_gen_serve_args")
        if func is None:
            raise ExtractionError("no add_multimodal_gen_serve_args")
        self.options = [RawOption(["-h", "--help"], "help", "help", None, None, None, None, None, None, False, "", help=ARGPARSE_HELP_HELP, order=0)]
        self.run(FunctionRef(entry, func), [_PARSER], {}, depth=0)
        VersionExtractor.check_conflicts(self, self.options)  # type: ignore[arg-type]
        return self.options

    def check_dispatch(self) -> None:
        """``sglang serve`` hands a diffusion launch to a plain ArgumentParser and
        ``parse_known_args``; fail if a release does it otherwise."""
        serve = self.wheel.module("sglang.cli.serve")
        if serve is None:
            raise ExtractionError("no sglang/cli/serve.py")
        uses = [c for c in _calls_in(serve.tree, "add_multimodal_gen_serve_args")]
        if not uses or not _calls_in(serve.tree, "parse_known_args"):
            raise ExtractionError("sglang/cli/serve.py does not parse with add_multimodal_gen_serve_args + parse_known_args")
        for call in _calls_in(serve.tree, "ArgumentParser"):
            for kw in call.keywords:
                if kw.arg not in ("prog", "description", "usage", "epilog", "formatter_class"):
                    raise ExtractionError(f"sglang/cli/serve.py: ArgumentParser({kw.arg}=...) changes parsing; update the extractor")

    # -- running the functions that fill the parser ---------------------------------

    def run(self, func: FunctionRef, args: list[Any], kwargs: dict[str, Any], depth: int, bound: Any = None) -> Any:
        node = func.node
        if isinstance(node, ast.Lambda) or depth > 8:
            raise ExtractionError("unexpected parser function")
        params = [a.arg for a in node.args.args]
        if bound is not None:
            args = [bound, *args]
        scope: dict[str, Any] = {}
        defaults = node.args.defaults
        for param, default in zip(params[len(params) - len(defaults) :], defaults):
            scope[param] = self.ev.eval(default, func.module)
        scope.update(zip(params, args))
        scope.update(kwargs)
        return self.body(node.body, func.module, scope, depth)

    def body(self, stmts: list[ast.stmt], module: Module, scope: dict[str, Any], depth: int) -> Any:
        for stmt in stmts:
            if isinstance(stmt, ast.Return):
                return self.value(stmt.value, module, scope, depth) if stmt.value is not None else None
            if isinstance(stmt, ast.Expr):
                if isinstance(stmt.value, ast.Constant):
                    continue  # docstring
                self.value(stmt.value, module, scope, depth)
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                try:
                    scope[stmt.targets[0].id] = self.value(stmt.value, module, scope, depth)
                except Unresolved as exc:
                    scope[stmt.targets[0].id] = exc
            elif isinstance(stmt, ast.ImportFrom):
                source = module.resolve_relative(stmt.level, stmt.module)
                for alias in stmt.names:
                    scope[alias.asname or alias.name] = self.ev.import_from(source, alias.name)
            elif isinstance(stmt, ast.If):
                if not self.registers(stmt):
                    continue
                try:
                    taken = bool(_force(self.ev.eval(stmt.test, module, scope)))
                except Unresolved as exc:
                    raise ExtractionError(f"{module.path}:{stmt.lineno}: options registered under a condition: {exc}") from None
                result = self.body(stmt.body if taken else stmt.orelse, module, scope, depth)
                if result is not None:
                    return result
            elif self.registers(stmt):
                raise ExtractionError(f"{module.path}:{stmt.lineno}: unexpected statement: {ast.unparse(stmt)[:80]}")
        return None

    @staticmethod
    def registers(stmt: ast.stmt) -> bool:
        """Whether a statement may add options: it calls something with the parser."""
        return any(isinstance(n, ast.Call) for n in ast.walk(stmt))

    def value(self, node: ast.AST, module: Module, scope: dict[str, Any], depth: int) -> Any:
        if not isinstance(node, ast.Call):
            return self.ev.eval(node, module, scope)
        func = node.func
        receives_parser = any(self._is_parser(a, module, scope) for a in [*node.args, *(k.value for k in node.keywords)])
        if isinstance(func, ast.Attribute) and self._is_parser(func.value, module, scope):
            if func.attr == "add_argument":
                self.add_argument(node, module, scope)
                return None
            if func.attr == "set_defaults":
                return None  # values of dests, no option
            if func.attr == "add_argument_group":
                return _PARSER  # a group's options are the parser's (help layout only)
            raise ExtractionError(f"{module.path}:{node.lineno}: parser.{func.attr}(...) is not understood")
        if not receives_parser:
            return self.ev.eval(node, module, scope)
        name = ast.unparse(func)
        if name.split(".")[-1] in _MODEL_DEPENDENT_OPTIONS:
            self.skipped.append(name)
            return None
        bound = None
        if isinstance(func, ast.Attribute):
            owner = self.ev.eval(func.value, module, scope)
            callee = self.ev.attribute(owner, func.attr)
            if isinstance(owner, ClassRef) and isinstance(callee, FunctionRef) and self._is_classmethod(callee):
                bound = owner
        else:
            callee = self.ev.eval(func, module, scope)
        if not isinstance(callee, FunctionRef):
            raise ExtractionError(f"{module.path}:{node.lineno}: {name}(parser) is not a function of the wheel")
        args = [self.ev.eval(a, module, scope) if not self._is_parser(a, module, scope) else _PARSER for a in node.args]
        kwargs = {k.arg: self.ev.eval(k.value, module, scope) for k in node.keywords if k.arg}
        return self.run(callee, args, kwargs, depth + 1, bound=bound)

    @staticmethod
    def _is_classmethod(func: FunctionRef) -> bool:
        return any(ast.unparse(d) == "classmethod" for d in getattr(func.node, "decorator_list", []))

    def _is_parser(self, node: ast.AST, module: Module, scope: dict[str, Any]) -> bool:
        return isinstance(node, ast.Name) and scope.get(node.id) is _PARSER

    def add_argument(self, node: ast.Call, module: Module, scope: dict[str, Any]) -> None:
        names = []
        for arg in node.args:
            try:
                name = _force(self.ev.eval(arg, module, scope))
            except Unresolved as exc:
                raise ExtractionError(f"{module.path}:{node.lineno}: cannot resolve option name: {exc}") from None
            if not isinstance(name, str):
                raise ExtractionError(f"{module.path}:{node.lineno}: option name is not a string")
            names.append(name)
        file = module.path[len(DIFFUSION_PREFIX) :] if module.path.startswith(DIFFUSION_PREFIX) else module.path
        call = ArgparseCall(module, names, file=file)
        for kw in node.keywords:
            if kw.arg is None:
                raise ExtractionError(f"{module.path}:{node.lineno}: **kwargs in add_argument")
            call.kwargs[kw.arg] = kw.value
        action = call.kwargs.get("action")
        if action is not None and not isinstance(action, _Value):
            try:
                value = self.ev.eval(action, module, scope)
            except Unresolved:
                value = None
            if isinstance(value, ClassRef) and value.name == _STORE_BOOLEAN:
                del call.kwargs["action"]
                call.kwargs["nargs"] = _Value("?", None)
                call.kwargs["const"] = _Value(True, None)
            elif isinstance(value, ClassRef) and value.name in _PLAIN_ACTIONS:
                del call.kwargs["action"]
        self.options.append(self.builder.build(call, scope, len(self.options)))


def build_diffusion_table(version: str, wheel_path: Path, notes: list[str] | None = None) -> dict[str, Any] | None:
    """The diffusion server's table, None for a release without one."""
    extractor = DiffusionExtractor(Wheel(wheel_path), version)
    if not extractor.available():
        return None
    options = extractor.extract()
    options.sort(key=sort_key)
    if notes is not None:
        notes.extend(f"{o.names[0]}: {note}" for o in options for note in o.unresolved)
        notes.extend(f"not in the table (model-dependent): {name}(parser)" for name in extractor.skipped)
    return {
        "version": version,
        "generated_from": wheel_path.name,
        "options": [o.to_json() for o in options],
    }


# ---------------------------------------------------------------------------
# Wheels, tables, reference check
# ---------------------------------------------------------------------------


def find_wheel(version: str, wheel_dir: Path) -> Path | None:
    for path in sorted(wheel_dir.glob(f"sglang-{version}-*.whl")):
        if path.name.split("-")[1] == version:
            return path
    return None


def fetch_wheel(version: str, wheel_dir: Path) -> Path:
    wheel = find_wheel(version, wheel_dir)
    if wheel is not None:
        return wheel
    wheel_dir.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", *PIP_TARGET, f"sglang=={version}", "-d", str(wheel_dir)]
    print(f"fetching sglang {version}: {' '.join(command[2:])}", file=sys.stderr)
    result = subprocess.run(command, capture_output=True, text=True)
    wheel = find_wheel(version, wheel_dir)
    if result.returncode != 0 or wheel is None:
        lines = (result.stderr or result.stdout).strip().splitlines()
        tail = "\n".join([line for line in lines if line.startswith("ERROR")] or lines[-5:])
        raise ExtractionError(f"pip download of sglang=={version} failed:\n{tail}")
    return wheel


def sort_key(option: RawOption) -> tuple[Any, ...]:
    return (option.dest, option.order)


def build_table(version: str, wheel_path: Path, notes: list[str] | None = None) -> dict[str, Any]:
    wheel = Wheel(wheel_path)
    options = VersionExtractor(wheel, version).extract()
    options.sort(key=sort_key)
    if notes is not None:
        notes.extend(f"{o.names[0]}: {note}" for o in options for note in o.unresolved)
    return {
        "version": version,
        "generated_from": wheel_path.name,
        "options": [o.to_json() for o in options],
    }


def dump_table(table: dict[str, Any]) -> str:
    return json.dumps(table, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def _reference_names(raw: list[dict[str, Any]]) -> dict[str, str]:
    out = {}
    for entry in raw:
        for name in entry["names"]:
            out[name] = entry["dest"]
    return out


def _reference_literal(text: Any) -> Any:
    """The reference keeps source text: an explicit ``dest="x"`` reads ``'"x"'``."""
    if isinstance(text, str) and text[:1] in "\"'":
        try:
            return ast.literal_eval(text)
        except (ValueError, SyntaxError):
            return text
    return text


def explain_reference_difference(table: dict[str, Any], reference: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """(explained, unexplained) differences of names and dests."""
    ours: dict[str, str] = {}
    boolean_optional_extra: set[str] = set()
    for option in table["options"]:
        for name in option["names"]:
            ours[name] = option["dest"]
        if option["action"] == "boolean_optional":
            boolean_optional_extra |= {n for n in option["names"] if n.startswith("--no-")}
    theirs = {name: _reference_literal(dest) for name, dest in _reference_names(reference).items()}
    explained, unexplained = [], []
    for name in sorted(set(ours) - set(theirs)):
        if name in ("-h", "--help"):
            explained.append(f"{name}: argparse's own help option (add_help=True), absent from the reference")
        elif name in boolean_optional_extra:
            explained.append(f"{name}: added by argparse.BooleanOptionalAction, absent from the reference")
        else:
            unexplained.append(f"{name} (dest {ours[name]}) is not in the reference")
    for name in sorted(set(theirs) - set(ours)):
        unexplained.append(f"{name} (dest {theirs[name]}) is in the reference only")
    for name in sorted(set(ours) & set(theirs)):
        if ours[name] != theirs[name]:
            unexplained.append(f"{name}: dest {ours[name]} here, {theirs[name]} in the reference")
    counts: dict[str, int] = {}
    for entry in reference:
        key = json.dumps(entry, sort_keys=True)
        counts[key] = counts.get(key, 0) + 1
    for key, count in sorted(counts.items()):
        if count > 1:
            entry = json.loads(key)
            explained.append(
                f"{'/'.join(entry['names'])}: listed {count} times in the reference (field annotated "
                f"{count} times in the class body; one dataclass field, one argparse option)"
            )
    return explained, unexplained


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("versions", nargs="*", metavar="VERSION", help="sglang versions (default: all)")
    parser.add_argument("--check-reference", metavar="DIR", type=Path, help="compare names/dests with DIR/cli_<version>.json")
    parser.add_argument("--wheel-dir", type=Path, default=WHEEL_DIR, help="wheel cache (default: scripts/.wheels)")
    parser.add_argument("--output-dir", type=Path, default=DATA_DIR, help="where tables are written")
    parser.add_argument("--dry-run", action="store_true", help="extract (and check) without writing tables")
    parser.add_argument("-v", "--verbose", action="store_true", help="list defaults/choices/consts left null")
    args = parser.parse_args(argv)

    versions = args.versions or list(VERSIONS)
    failures = 0
    for version in versions:
        try:
            wheel = fetch_wheel(version, args.wheel_dir)
            notes: list[str] = []
            table = build_table(version, wheel, notes)
        except (ExtractionError, zipfile.BadZipFile, SyntaxError) as exc:
            print(f"error: sglang {version}: {exc}", file=sys.stderr)
            failures += 1
            continue
        try:
            diffusion = build_diffusion_table(version, wheel, notes)
        except (ExtractionError, SyntaxError) as exc:
            print(f"error: sglang {version} (diffusion server): {exc}", file=sys.stderr)
            failures += 1
            continue
        count = len(table["options"])
        names = sum(len(o["names"]) for o in table["options"])
        if not args.dry_run:
            args.output_dir.mkdir(parents=True, exist_ok=True)
            (args.output_dir / f"sglang-{version}.json").write_text(dump_table(table), encoding="utf-8")
            if diffusion is not None:
                (args.output_dir / f"diffusion-{version}.json").write_text(dump_table(diffusion), encoding="utf-8")
        print(f"sglang {version}: {count} options, {names} names ({wheel.name})")
        if diffusion is not None:
            print(f"  diffusion server: {len(diffusion['options'])} options")
        if args.verbose:
            for note in notes:
                print(f"  not static: {note}")
        if args.check_reference is not None:
            ref_path = args.check_reference / f"cli_{version}.json"
            if not ref_path.exists():
                # (the reference covers 15 releases; 0.5.5-0.5.8 and 0.5.12 are read
                # from their wheels alone)
                print(f"  not compared: no reference table {ref_path}")
                continue
            reference = json.loads(ref_path.read_text(encoding="utf-8"))
            explained, unexplained = explain_reference_difference(table, reference)
            for line in explained:
                print(f"  explained: {line}")
            for line in unexplained:
                print(f"  DIFFERENCE: {line}", file=sys.stderr)
            if unexplained:
                print(f"error: sglang {version}: {len(unexplained)} unexplained differences with {ref_path}", file=sys.stderr)
                failures += 1
    if failures:
        print(f"failed: {failures} of {len(versions)} versions", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
