"""SGLang's command-line options per released version (generated package data).

The JSON files under ``data/`` are produced by ``scripts/generate_option_tables.py``,
which reads each released sglang wheel's argument declarations statically. Format of
``data/sglang-<version>.json``::

    {
      "version": "0.5.23",
      "generated_from": "sglang-0.5.23-py3-none-any.whl",
      "options": [
        {
          "names": ["--tp-size", "--tensor-parallel-size"],
          "dest": "tp_size",
          "action": "store",          # store | store_true | store_false | store_const |
                                      # append | count | boolean_optional | help
          "type": "int",              # int | float | str | null | another callable's name
          "default": 1,               # JSON value when it is a literal, else null
          "default_source": "1",      # the default as written in SGLang's source
          "choices": null,            # list of JSON values, or null
          "nargs": null,              # null | "?" | "*" | "+" | an int
          "const": null,
          "deprecated": false,        # declared with one of SGLang's Deprecated* actions
          "file": "arg_groups/fields/parallel.py",
          "help": "The tensor parallelism size."
        }, ...
      ]
    }

``help`` is the help text SGLang gives argparse, as written in its source
(``help=`` of ``add_argument``, ``Arg(help=...)`` or the bare string of
``A[T, "help"]``; argparse's ``%(default)s`` placeholders are kept as written):
"" when SGLang gives none, ``"==SUPPRESS=="`` (``argparse.SUPPRESS``'s value) for
an option hidden from ``--help``, and the expression's source text when it cannot
be evaluated statically (0.5.21+ ``--reasoning-parser``/``--tool-call-parser``,
whose text lists parsers registered at startup). Tables without the field load
with ``help`` "".

The table includes every option argparse knows for ``python -m sglang.launch_server``,
among them ``--config`` and argparse's own ``--help``: abbreviation ambiguity is
decided against all of them.

``data/diffusion-<version>.json`` (same format) lists the options of the diffusion
server ``sglang serve`` hands a diffusion model to (0.5.5 on; see
:mod:`sglang_lint.catalog.argv`).
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any

from msgspec import Struct

if TYPE_CHECKING:
    from sglang_lint.options import LintOptions


class Option(Struct, frozen=True):
    names: tuple[str, ...]
    dest: str
    action: str = "store"
    type: str | None = None
    default: Any = None
    default_source: str | None = None
    choices: tuple[Any, ...] | None = None
    nargs: str | int | None = None
    const: Any = None
    deprecated: bool = False
    file: str = ""
    help: str = ""

    @property
    def is_flag(self) -> bool:
        """Takes no value word: store_true/store_false/store_const/count/help and
        the ``--x``/``--no-x`` pair of BooleanOptionalAction."""
        return self.action in ("store_true", "store_false", "store_const", "count", "help", "boolean_optional")


class OptionTable(Struct, dict=True):
    """One release's options, indexed by name and by dest (the indexes are
    derived, not fields: built once, never compared)."""

    version: str
    options: list[Option]

    def __post_init__(self) -> None:
        self.by_name: dict[str, Option] = {}
        self.by_dest: dict[str, Option] = {}
        for option in self.options:
            for name in option.names:
                self.by_name[name] = option
            self.by_dest.setdefault(option.dest, option)

    @functools.cached_property
    def long_names(self) -> list[str]:
        """Every ``--`` name, sorted (computed once: abbreviation lookups use it for
        each word of each launch)."""
        return sorted(name for name in self.by_name if name.startswith("--"))


class _TableFile(Struct):
    """An option table as scripts/generate_option_tables.py writes it (its
    ``generated_from`` is provenance, not read here)."""

    version: str
    options: list[Option]


@functools.lru_cache(maxsize=256)
def version_key(version: str) -> tuple[int, ...]:
    """``"0.5.9"`` -> ``(0, 5, 9)``; raises ValueError for anything else."""
    parts = version.strip().split(".")
    if not parts or not all(p.isascii() and p.isdigit() for p in parts):
        raise ValueError(f"not a release version: {version!r}")
    return tuple(int(p) for p in parts)


def version_at_least(version: str, minimum: tuple[int, ...]) -> bool:
    """Whether ``version`` is ``minimum`` or later (for what a release's SGLang does)."""
    try:
        return version_key(version) >= minimum
    except ValueError:
        return True  # not a release number: behave like the newest release


# The option tables ship inside the package (package data, installed as files:
# read with plain os calls, which cost nothing to import, unlike importlib.resources).
_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


@functools.lru_cache(maxsize=None)
def known_versions() -> tuple[str, ...]:
    """Every version with a table, oldest first."""
    found = []
    for name in os.listdir(_DATA):
        if name.startswith("sglang-") and name.endswith(".json"):
            found.append(name[len("sglang-") : -len(".json")])
    return tuple(sorted(found, key=version_key))


def default_version() -> str:
    """The newest release with a table (design.md: the default is the newest)."""
    versions = known_versions()
    if not versions:
        raise RuntimeError("sglang-lint was installed without its option tables")
    return versions[-1]


class UnknownVersionError(ValueError):
    def __init__(self, version: str) -> None:
        self.version = version
        super().__init__(
            f"no option table for sglang {version!r}; known versions: {', '.join(known_versions())} "
            f"(a release after {known_versions()[-1]} is judged with {known_versions()[-1]}'s table)"
        )


def _release_number(release: str) -> tuple[int, ...] | None:
    """The key of the release ``release`` is or leads to (``0.5.24rc0``,
    ``0.5.24.dev3`` and ``0.5.24.post1`` are 0.5.24's), None when it is not a
    release number."""
    try:
        return version_key(release.partition(".dev")[0].partition("rc")[0].partition(".post")[0])
    except ValueError:
        return None


def newer_than_every_table(release: str) -> bool:
    """Whether ``release`` (or the release a pre-release or development build
    leads to: ``0.5.24rc0``, ``0.5.24.dev3``) comes after the newest table."""
    number = _release_number(release)
    return number is not None and number > version_key(default_version())


def older_than_every_table(release: str) -> bool:
    """Whether ``release`` (``0.4.5``, ``0.4.6.post1``) comes before the oldest
    table: judged with the oldest, whose options it may not all have had, and
    which lacks the options it had that later releases removed."""
    number = _release_number(release)
    return number is not None and number < version_key(known_versions()[0])


def has_table_for(version: str) -> bool:
    """Whether a version given by name (``--target-version``, the config's
    ``target-version``, flake8's ``--sglang-target-version``) is judged by a
    table: a release with one, or one after the newest. Cheap (a directory
    listing)."""
    return version in known_versions() or newer_than_every_table(version)


def table_version(version: str) -> str:
    """The table a version given by name is judged with: its own, or the
    newest for a release after it (what that release added is not reported:
    catalog/versions); UnknownVersionError for anything else."""
    if not has_table_for(version):
        raise UnknownVersionError(version)
    return version if version in known_versions() else default_version()


def check_version(version: str) -> None:
    """Raise UnknownVersionError (with the known ones) for a version no table
    judges (:func:`has_table_for`)."""
    if not has_table_for(version):
        raise UnknownVersionError(version)


@functools.lru_cache(maxsize=None)
def load_table(version: str) -> OptionTable:
    if version not in known_versions():
        raise UnknownVersionError(version)
    import msgspec.json

    with open(os.path.join(_DATA, f"sglang-{version}.json"), "rb") as stream:
        table = msgspec.json.decode(stream.read(), type=_TableFile)
    return OptionTable(version=table.version, options=table.options)


@functools.lru_cache(maxsize=None)
def load_diffusion_table(version: str) -> OptionTable | None:
    """The options of the diffusion server ``sglang serve`` dispatches a diffusion
    model to (``data/diffusion-<version>.json``, same format; generated from
    ``add_multimodal_gen_serve_args``), None for a release without it (0.5.4)."""
    path = os.path.join(_DATA, f"diffusion-{version}.json")
    if not os.path.exists(path):
        return None
    import msgspec.json

    with open(path, "rb") as stream:
        table = msgspec.json.decode(stream.read(), type=_TableFile)
    return OptionTable(version=table.version, options=table.options)


def run_version(options: LintOptions) -> str:
    """The SGLang release a run judges with: --target-version, else the
    config's target-version, else the newest release with a table."""
    configured = options.config.target_version if options.config is not None else None
    named = options.target_version or configured or default_version()
    try:
        return table_version(named)
    except UnknownVersionError:
        return named  # (load_table says so where it matters)


# ---------------------------------------------------------------------------
# One option across releases (the editor's hover, issue 24)
# ---------------------------------------------------------------------------


class OptionFacts(Struct, frozen=True):
    """What the option tables say about one spelling of an option: the newest
    release that accepts it (``version``) gives help, type, default, choices and
    action; ``versions`` lists every release with a table that accepts the
    spelling and ``deprecated_in`` those that declare it with one of SGLang's
    Deprecated* actions (both oldest first, :func:`known_versions` order)."""

    name: str
    version: str
    help: str
    type: str | None
    default: str
    choices: tuple[Any, ...] | None
    action: str
    versions: tuple[str, ...]
    deprecated_in: tuple[str, ...] = ()


def default_text(option: Option) -> str:
    """An option's default as text: the value's Python spelling (``1``,
    ``'auto'``, ``None``, ``False`` for a flag), or, when the table's value is
    null but SGLang wrote something other than ``None``, that source text
    (``argparse.SUPPRESS``, ``_declared_default("x")``, ``ServerArgs.x``): a null
    value may be an evaluated None or a default the generator could not
    evaluate, and the table does not say which, so no value is guessed."""
    if option.default is None and option.default_source not in (None, "None"):
        return option.default_source
    return repr(option.default)


@functools.lru_cache(maxsize=1024)
def option_facts(name: str, diffusion: bool = False) -> OptionFacts | None:
    """The facts of ``name`` (a full spelling, ``--tp-size`` or ``--ep``; an
    abbreviation argparse would accept is not looked up), None when no release
    has it. ``diffusion`` reads the diffusion server's tables instead. The first
    call loads every table (cached, like each answer)."""
    found: list[tuple[str, Option]] = []
    for version in known_versions():
        table = load_diffusion_table(version) if diffusion else load_table(version)
        option = table.by_name.get(name) if table is not None else None
        if option is not None:
            found.append((version, option))
    if not found:
        return None
    version, newest = found[-1]
    return OptionFacts(
        name=name,
        version=version,
        help=newest.help,
        type=newest.type,
        default=default_text(newest),
        choices=newest.choices,
        action=newest.action,
        versions=tuple(v for v, _ in found),
        deprecated_in=tuple(v for v, option in found if option.deprecated),
    )
