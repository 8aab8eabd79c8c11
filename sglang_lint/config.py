"""The configuration file: ``sglang-lint.toml`` or ``[tool.sglang-lint]`` in
``pyproject.toml`` (the way ruff reads ``ruff.toml`` / ``[tool.ruff]``).

Keys: ``target-version``, ``infer-version``, ``select``, ``extend-select``, ``ignore``,
``per-file-ignores`` (glob = [codes]), ``exclude`` / ``extend-exclude``
(gitignore-style patterns), ``env`` (NAME = "value": what the scripts would find in
their environment), ``cache-dir``, ``output-format`` (``check``'s default report
format; the run's root config's), the fix keys ``fix``, ``unsafe-fixes``,
``fixable`` and ``unfixable`` (ruff's; the run's root config's) and the topology manifest (design.md "Pairing prefill with
decode")::

    [[deployment]]                      # [[tool.sglang-lint.deployment]] in pyproject.toml
    name = "qwen-pd"
    prefill = "prefill/*.sh"            # a glob or a list of globs, relative to this file's directory
    decode = ["k8s/decode.yaml"]
    router = "router/start.sh"          # optional

Which config governs a file: the nearest one above it (:class:`ConfigResolver`).
The file-level keys (select, extend-select, ignore, per-file-ignores, exclude,
extend-exclude, env) apply per file that way. ``target-version`` and
``infer-version`` are per run: the command line's, else the run's root config's
(the nearest above the common directory of the paths). A ``target-version`` judges
every launch with that release; without one each launch is judged with the
release its image or install pin names (``infer-version = false`` turns that off;
catalog/versions).
Every config file that governs an analyzed file contributes its ``[[deployment]]``
entries.

API:

- :func:`find_config` walks up from a directory to the nearest config file;
- :func:`load_config` reads and validates one, raising :class:`ConfigError` with a
  message that names the file and the key;
- :class:`Config` is the validated result; adding a key means adding a field and an
  entry in ``_TOP_LEVEL`` (unknown keys are an error, as in ruff).

Globs: relative to the config file's directory (``../`` and absolute globs work
too), matched against whole paths: ``*``, ``?`` and ``[...]`` never cross ``/``,
``**`` is any number of directories, and a glob naming a directory matches every file
below it (``decode = "k8s"``). A ``per-file-ignores`` glob without a ``/`` is
matched against each file's name too, as ruff does (``"decode.sh"`` covers
``deploy/decode.sh``).
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from msgspec import Struct

from sglang_lint.names import OUTPUT_FORMATS, RULE_CODES

__all__ = [
    "CONFIG_FILENAMES",
    "Config",
    "ConfigError",
    "ConfigResolver",
    "ManifestDeployment",
    "check_manifest",
    "discover_config",
    "distinct_configs",
    "discovery_start",
    "display_path",
    "find_config",
    "load_config",
]

# In one directory, the first of these that exists (and, for pyproject.toml, has a
# [tool.sglang-lint] table) is the config.
CONFIG_FILENAMES = ("sglang-lint.toml", "pyproject.toml")
MAX_CONFIG_BYTES = 1024 * 1024

ROLE_KEYS = ("prefill", "decode", "router")
_DEPLOYMENT_KEYS = ("name", *ROLE_KEYS)
_GLOB_CHARS = re.compile(r"[*?\[]")
# Directories never looked into when checking that a glob matches a file on disk.
_SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".nox"})


class ConfigError(Exception):
    """A configuration file that cannot be used; the message names the file (and
    the key). The CLI prints it and exits 2; the language server shows it on
    ``path`` (the config file, when known), at ``line``/``column`` (1-based) when
    the TOML parser gave them."""

    def __init__(self, message: str, path: str | os.PathLike[str] | None = None, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.path = os.path.abspath(path) if path is not None else None
        self.line = line
        self.column = column


class ManifestDeployment(Struct, frozen=True):
    """One ``[[deployment]]`` entry of the topology manifest.

    ``base`` is the absolute directory the globs are relative to (the config file's),
    ``source`` the config file as shown to the user."""

    name: str
    prefill: tuple[str, ...]
    decode: tuple[str, ...]
    router: tuple[str, ...] = ()
    base: str = ""
    source: str = ""
    # The config file that holds the entry (absolute).
    config_file: str = ""

    def globs(self, key: str) -> tuple[str, ...]:
        return getattr(self, key)

    def matches(self, key: str, path: str) -> bool:
        """Whether ``path`` (as displayed: relative to the working directory, or
        absolute) is matched by a glob of ``key`` (prefill, decode or router)."""
        target = _absolute(path)
        base = self.base or _absolute(".")
        return any(_glob_regex(base, glob).fullmatch(target) for glob in self.globs(key))

    def describe(self) -> str:
        return f'deployment "{self.name}" in {self.source}'


class Config(Struct, frozen=True):
    """A loaded configuration; ``Config()`` is "no config file"."""

    path: Path | None = None
    deployments: tuple[ManifestDeployment, ...] = ()
    # The SGLang release to judge with when the command line names none.
    target_version: str | None = None
    # Whether each launch is judged with the SGLang its image or pin names
    # (catalog/versions); false: every launch with the run's version.
    infer_version: bool = True
    # Whether an `sglang.` import the tree does not hold is read from the
    # installed sglang package (sources/python_imports.installed_sglang).
    follow_installed: bool = True
    # Rule selection, overridden by --select / --ignore (ruff's semantics: select
    # replaces the default set, extend-select adds to it, ignore removes).
    select: frozenset[str] | None = None
    extend_select: frozenset[str] = frozenset()
    ignore: frozenset[str] = frozenset()
    # (glob relative to the config file, codes) pairs.
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()
    # gitignore-style patterns relative to the config file's directory. `exclude`
    # replaces the default excluded directories (ruff's semantics; .git, .hg and
    # .svn stay excluded), `extend-exclude` adds to them. None: not set.
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    # Values for environment variables the scripts read without setting them.
    env: tuple[tuple[str, str], ...] = ()
    # Where the extraction cache lives (absolute; relative in the file to its
    # directory). None: the default.
    cache_dir: Path | None = None
    # The report format of `check` when the command line names none (ruff's
    # output-format; the run's root config's). None: full.
    output_format: str | None = None
    # Fixes (issue 21, ruff's keys): apply the safe ones on every `check`
    # (`fix`), the unsafe ones too (`unsafe-fixes`); only the fixes of the
    # `fixable` codes (None: all), never those of `unfixable`.
    fix: bool = False
    unsafe_fixes: bool = False
    fixable: frozenset[str] | None = None
    unfixable: frozenset[str] = frozenset()

    @property
    def env_map(self) -> dict[str, str]:
        return dict(self.env)

    def ignored_for(self, path: str) -> frozenset[str]:
        """Codes ``per-file-ignores`` silences in ``path`` (as displayed). A glob
        is matched against the path relative to the config file's directory, and
        one without a ``/`` against the file's name too, wherever the file is
        (ruff's basename match: ``"decode.sh"`` names ``deploy/decode.sh``)."""
        if not self.per_file_ignores or self.path is None:
            return frozenset()
        target = _absolute(path)
        base = _absolute(self.path.parent)
        name = posixpath.basename(target)
        codes: set[str] = set()
        for glob, ignored in self.per_file_ignores:
            if _glob_regex(base, glob).fullmatch(target) or ("/" not in glob and _basename_regex(glob).fullmatch(name)):
                codes |= ignored
        return frozenset(codes)

    @property
    def root(self) -> Path | None:
        return self.path.parent if self.path is not None else None


# ---------------------------------------------------------------------------------
# Finding and loading


def find_config(start: str | os.PathLike[str]) -> Path | None:
    """The nearest config file in ``start`` (a directory) or one of its parents:
    ``sglang-lint.toml``, or ``pyproject.toml`` with a ``[tool.sglang-lint]`` table
    (a pyproject.toml without one is passed over, as ruff does). Raises
    :class:`ConfigError` for a pyproject.toml that mentions sglang-lint but is not
    valid TOML."""
    current = Path(os.path.abspath(start))
    while True:
        found = _config_in(current)
        if found is not None:
            return found
        if current.parent == current:
            return None
        current = current.parent


def _config_in(directory: Path) -> Path | None:
    """The config file of ``directory`` itself, if it has one."""
    for name in CONFIG_FILENAMES:
        candidate = directory / name
        if not candidate.is_file():
            continue
        if name == "pyproject.toml" and not _has_tool_table(candidate):
            continue
        return candidate
    return None


class ConfigResolver:
    """The config that governs each file: the nearest config file above it (ruff's
    hierarchical lookup: a ``sglang-lint.toml`` in ``deploy/`` governs the files
    below ``deploy/``), or, when ``forced`` is given (``--config FILE``), that one
    for every file. Lookups are cached per directory, and each config file is
    loaded once."""

    def __init__(self, forced: Config | None = None) -> None:
        self.forced = forced
        self._by_directory: dict[str, Config] = {}
        self._loaded: dict[Path, Config] = {}

    def for_directory(self, directory: str | os.PathLike[str]) -> Config:
        if self.forced is not None:
            return self.forced
        # A run names thousands of files in a few directories (a walk, the context
        # of a named file): the directory as given is looked up first. (The
        # working directory does not change during a run.)
        given = os.fspath(directory)
        cached = self._by_directory.get(given)
        if cached is not None:
            return cached
        current = os.path.abspath(given)
        visited: list[str] = []
        while True:
            cached = self._by_directory.get(current)
            if cached is not None:
                config = cached
                break
            visited.append(current)
            found = _config_in(Path(current))
            if found is not None:
                config = self._load(found)
                break
            parent = os.path.dirname(current)
            if parent == current:
                config = Config()
                break
            current = parent
        for directory_seen in visited:
            self._by_directory[directory_seen] = config
        self._by_directory[given] = config
        return config

    def for_file(self, path: str | os.PathLike[str]) -> Config:
        return self.for_directory(os.path.dirname(os.fspath(path)) or ".")

    def _load(self, path: Path) -> Config:
        config = self._loaded.get(path)
        if config is None:
            config = self._loaded[path] = load_config(path)
        return config

    def loaded(self) -> list[Config]:
        """Every config file used so far (the forced one included), in load order."""
        if self.forced is not None:
            return [self.forced]
        return list(self._loaded.values())


def _has_tool_table(pyproject: Path) -> bool:
    text = _read(pyproject)
    if "sglang-lint" not in text and "sglang_lint" not in text:
        return False  # cheap: most pyproject.toml files never mention us
    tool = _parse(pyproject, text).get("tool")
    return isinstance(tool, dict) and "sglang-lint" in tool


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read and validate one config file (``sglang-lint.toml``, or any other name
    read as one; ``pyproject.toml`` is read for its ``[tool.sglang-lint]`` table,
    and one without that table is an empty config)."""
    try:
        return _load_config(Path(path))
    except ConfigError as error:
        if error.path is None:
            error.path = os.path.abspath(path)
        raise


def _load_config(path: Path) -> Config:
    data = _parse(path, _read(path))
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        table = tool.get("sglang-lint", {}) if isinstance(tool, dict) else {}
        prefix = "tool.sglang-lint."
        if not isinstance(table, dict):
            raise ConfigError(f"{display_path(path)}: [tool.sglang-lint] must be a table")
    else:
        table, prefix = data, ""
    values: dict[str, Any] = {}
    for key, value in table.items():
        parser = _TOP_LEVEL.get(key)
        if parser is None:
            raise ConfigError(
                f"{display_path(path)}: unknown key {prefix}{key!s}"
                f" (supported: {', '.join(prefix + k for k in _TOP_LEVEL)})"
            )
        values[key] = parser(path, prefix, value)
    return Config(
        path=path,
        deployments=values.get("deployment", ()),
        target_version=values.get("target-version"),
        infer_version=values.get("infer-version", True),
        follow_installed=values.get("follow-installed", True),
        select=values.get("select"),
        extend_select=values.get("extend-select", frozenset()),
        ignore=values.get("ignore", frozenset()),
        per_file_ignores=values.get("per-file-ignores", ()),
        exclude=values.get("exclude"),
        extend_exclude=values.get("extend-exclude", ()),
        env=values.get("env", ()),
        cache_dir=values.get("cache-dir"),
        output_format=values.get("output-format"),
        fix=values.get("fix", False),
        unsafe_fixes=values.get("unsafe-fixes", False),
        fixable=values.get("fixable"),
        unfixable=values.get("unfixable", frozenset()),
    )


def _read(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{display_path(path)}: file is over {MAX_CONFIG_BYTES // 1024} KB")
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{display_path(path)}: not valid UTF-8 ({error.reason} at byte {error.start})") from None
    except OSError as error:
        raise ConfigError(f"{display_path(path)}: cannot read: {error.strerror or error}") from None


def _parse(path: Path, text: str) -> dict[str, Any]:
    # Imported here: a run without a config file never needs a TOML parser.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        position = re.search(r"\(at line (\d+), column (\d+)\)", str(error))
        line, column = (int(position.group(1)), int(position.group(2))) if position else (None, None)
        if position is None and "(at end of document)" in str(error):
            line, column = text.count("\n") + 1, len(text.rsplit("\n", 1)[-1]) + 1
        raise ConfigError(f"{display_path(path)}: invalid TOML: {error}", path, line, column) from None


def _type_name(value: object) -> str:
    return {str: "a string", bool: "a boolean", int: "an integer", float: "a float", list: "an array", dict: "a table"}.get(
        type(value), type(value).__name__
    )


def _parse_deployments(path: Path, prefix: str, value: object) -> tuple[ManifestDeployment, ...]:
    where = f"{display_path(path)}: {prefix}deployment"
    if isinstance(value, dict):
        value = [value]  # `[deployment]` instead of `[[deployment]]`: one entry
    if not isinstance(value, list):
        raise ConfigError(f"{where} must be an array of tables ([[{prefix}deployment]]), not {_type_name(value)}")
    base = _absolute(os.path.dirname(os.path.abspath(path)))
    entries: list[ManifestDeployment] = []
    seen: dict[str, int] = {}
    for number, entry in enumerate(value, 1):
        if not isinstance(entry, dict):
            raise ConfigError(f"{where} #{number} must be a table, not {_type_name(entry)}")
        name = entry.get("name")
        label = f'{where} #{number}' + (f' ("{name}")' if isinstance(name, str) and name else "")
        for key in entry:
            if key not in _DEPLOYMENT_KEYS:
                raise ConfigError(f"{label}: unknown key {key!r} (expected: {', '.join(_DEPLOYMENT_KEYS)})")
        if "name" not in entry:
            raise ConfigError(f"{label}: missing key 'name'")
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(f"{label}: 'name' must be a non-empty string, not {_type_name(name) if not isinstance(name, str) else 'an empty one'}")
        if name in seen:
            raise ConfigError(f"{label}: name {name!r} is already used by deployment #{seen[name]}")
        seen[name] = number
        globs: dict[str, tuple[str, ...]] = {}
        for key in ROLE_KEYS:
            if key not in entry:
                if key == "router":
                    globs[key] = ()
                    continue
                raise ConfigError(f"{label}: missing key {key!r} (a glob or a list of globs)")
            globs[key] = _globs(f"{label}: {key!r}", entry[key])
        entries.append(
            ManifestDeployment(
                name=name,
                prefill=globs["prefill"],
                decode=globs["decode"],
                router=globs["router"],
                base=base,
                source=display_path(path),
                config_file=os.path.abspath(path),
            )
        )
    return tuple(entries)


def _globs(where: str, value: object) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items:
        raise ConfigError(f"{where} must be a glob string or a non-empty array of glob strings, not {_type_name(value) if not isinstance(value, list) else 'an empty array'}")
    for item in items:
        if not isinstance(item, str):
            raise ConfigError(f"{where} must hold glob strings only, not {_type_name(item)} ({item!r})")
        if not item.strip():
            raise ConfigError(f"{where}: a glob must not be empty")
    return tuple(items)


def _parse_target_version(path: Path, prefix: str, value: object) -> str:
    from sglang_lint.catalog.tables import has_table_for, known_versions

    known = known_versions()
    if not isinstance(value, str) or not has_table_for(value):
        raise ConfigError(
            f"{display_path(path)}: {prefix}target-version = {value!r} is not an SGLang release with an option table; "
            f"known versions: {', '.join(known)} (a release after {known[-1]} is judged with its table)"
        )
    return value


def _known_codes() -> frozenset[str]:
    return RULE_CODES


def _codes(path: Path, where: str, value: object) -> frozenset[str]:
    """A list of rule codes or code prefixes (``SGL0``), as on the command line."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{display_path(path)}: {where} must be an array of rule codes, not {_type_name(value)}")
    known = _known_codes()
    codes = frozenset(item.strip().upper() for item in value)
    for code in sorted(codes):
        if not any(k.startswith(code) for k in known) or not code:
            raise ConfigError(f"{display_path(path)}: {where}: unknown rule code {code!r} (see `sglang-lint rule --all`)")
    return codes


def _parse_select(key: str) -> Callable[[Path, str, Any], frozenset[str]]:
    return lambda path, prefix, value: _codes(path, prefix + key, value)


def _parse_per_file_ignores(path: Path, prefix: str, value: object) -> tuple[tuple[str, frozenset[str]], ...]:
    """``{"tests/**" = ["SGL005"]}``: globs relative to the config file."""
    where = prefix + "per-file-ignores"
    if not isinstance(value, dict):
        raise ConfigError(f"{display_path(path)}: {where} must be a table of glob = [codes], not {_type_name(value)}")
    entries = []
    for glob, codes in value.items():
        if not glob.strip():
            raise ConfigError(f"{display_path(path)}: {where}: a glob must not be empty")
        entries.append((glob, _codes(path, f"{where}.{glob!r}", codes)))
    return tuple(entries)


def _parse_patterns(key: str) -> Callable[[Path, str, Any], tuple[str, ...]]:
    """``exclude = ["legacy/", "*.generated.sh"]``: gitignore-style patterns."""

    def parse(path: Path, prefix: str, value: object) -> tuple[str, ...]:
        where = f"{display_path(path)}: {prefix}{key}"
        if not isinstance(value, list):
            raise ConfigError(f"{where} must be an array of gitignore-style patterns, not {_type_name(value)}")
        for item in value:
            if not isinstance(item, str):
                raise ConfigError(f"{where} must hold strings only, not {_type_name(item)} ({item!r})")
            if not item.strip():
                raise ConfigError(f"{where}: a pattern must not be empty")
        return tuple(value)

    return parse


_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _parse_env(path: Path, prefix: str, value: object) -> tuple[tuple[str, str], ...]:
    """``env = { TP = "8", MODEL = "Qwen/Qwen3-8B" }``: what the scripts would see
    in their environment. Integers are taken as their decimal text."""
    where = f"{display_path(path)}: {prefix}env"
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table of NAME = \"value\", not {_type_name(value)}")
    entries = []
    for name, text in value.items():
        if not _ENV_NAME.fullmatch(name):
            raise ConfigError(f"{where}: {name!r} is not an environment variable name (letters, digits and _, not starting with a digit)")
        if isinstance(text, bool) or not isinstance(text, (str, int)):
            raise ConfigError(f"{where}.{name} must be a string (or an integer), not {_type_name(text)}")
        entries.append((name, str(text)))
    return tuple(entries)


def _parse_cache_dir(path: Path, prefix: str, value: object) -> Path:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{display_path(path)}: {prefix}cache-dir must be a non-empty string (a directory), not {_type_name(value) if not isinstance(value, str) else 'an empty one'}")
    return Path(os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(path)), os.path.expanduser(value))))


def _parse_output_format(path: Path, prefix: str, value: object) -> str:
    if not isinstance(value, str) or value not in OUTPUT_FORMATS:
        shown = repr(value) if isinstance(value, str) else _type_name(value)
        raise ConfigError(f"{display_path(path)}: {prefix}output-format = {shown} is not an output format; expected one of: {', '.join(OUTPUT_FORMATS)}")
    return value


def _parse_boolean(key: str) -> Callable[[Path, str, object], bool]:
    def parse(path: Path, prefix: str, value: object) -> bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{display_path(path)}: {prefix}{key} must be true or false, not {_type_name(value)}")
        return value

    return parse


_parse_infer_version = _parse_boolean("infer-version")


# Top-level keys: name -> parser(path, prefix, value) -> the Config field's value.
_TOP_LEVEL: dict[str, Callable[[Path, str, Any], Any]] = {
    "target-version": _parse_target_version,
    "infer-version": _parse_infer_version,
    "follow-installed": _parse_boolean("follow-installed"),
    "select": _parse_select("select"),
    "extend-select": _parse_select("extend-select"),
    "ignore": _parse_select("ignore"),
    "per-file-ignores": _parse_per_file_ignores,
    "exclude": _parse_patterns("exclude"),
    "extend-exclude": _parse_patterns("extend-exclude"),
    "env": _parse_env,
    "cache-dir": _parse_cache_dir,
    "output-format": _parse_output_format,
    "fix": _parse_boolean("fix"),
    "unsafe-fixes": _parse_boolean("unsafe-fixes"),
    "fixable": _parse_select("fixable"),
    "unfixable": _parse_select("unfixable"),
    "deployment": _parse_deployments,
}


# ---------------------------------------------------------------------------------
# Globs


def _absolute(path: str | os.PathLike[str]) -> str:
    return Path(os.path.abspath(path)).as_posix()


@functools.lru_cache(maxsize=1024)
def _glob_regex(base: str, glob: str) -> re.Pattern[str]:
    """A regex matching the absolute POSIX paths ``glob`` (relative to ``base``)
    names, a directory's files included. The base is literal (a directory named
    ``[x]`` is no character class)."""
    glob = glob.replace("\\", "/") if os.sep == "\\" else glob
    if glob.startswith("/"):
        prefix, rest = "", posixpath.normpath(glob)
    else:
        rest = posixpath.normpath(glob)
        prefix = base
        while rest == ".." or rest.startswith("../"):
            prefix = posixpath.dirname(prefix)
            rest = rest[3:] if rest != ".." else "."
    parts = [] if rest in (".", "/") else rest.strip("/").split("/")
    regex = re.escape(prefix.rstrip("/")) if prefix else ""
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            regex += "/.*" if last else "(?:/[^/]*)*"
        else:
            regex += "/" + _segment_regex(part)
    return re.compile(regex + "(?:/.*)?", re.DOTALL)


@functools.lru_cache(maxsize=1024)
def _basename_regex(glob: str) -> re.Pattern[str]:
    """A regex matching the file names a glob without ``/`` names."""
    return re.compile(_segment_regex(glob), re.DOTALL)


def _segment_regex(part: str) -> str:
    out, i = [], 0
    while i < len(part):
        char = part[i]
        if char == "*":
            while i + 1 < len(part) and part[i + 1] == "*":
                i += 1
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = part.find("]", i + 2 if part[i + 1 : i + 2] in ("!", "^", "]") else i + 1)
            if end < 0:
                out.append(re.escape(char))
            else:
                body = part[i + 1 : end]
                negate = body[:1] in ("!", "^")
                body = body[1:] if negate else body
                out.append("[" + ("^/" if negate else "") + body.replace("\\", "\\\\") + "]")
                i = end
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def _literal_root(base: str, glob: str) -> str:
    """The directory below which every path ``glob`` names lies (its segments
    before the first wildcard)."""
    glob = glob.replace("\\", "/") if os.sep == "\\" else glob
    joined = posixpath.normpath(glob if glob.startswith("/") else posixpath.join(base, glob))
    parts = joined.split("/")
    literal = []
    for part in parts:
        if _GLOB_CHARS.search(part):
            break
        literal.append(part)
    else:
        return joined
    return "/".join(literal) or "/"


def _matches_on_disk(deployment: ManifestDeployment, key: str, limit: int = 3) -> list[str]:
    """Existing files (absolute POSIX paths) a glob of ``key`` matches; at most
    ``limit`` (a few, where only whether there are any, and where, matters)."""
    found: list[str] = []
    for glob in deployment.globs(key):
        regex = _glob_regex(deployment.base, glob)
        root = _literal_root(deployment.base, glob)
        if os.path.isfile(root):
            if regex.fullmatch(root):
                found.append(root)
            continue
        for directory, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in _SKIPPED_DIRS)
            for filename in sorted(filenames):
                candidate = posixpath.join(Path(directory).as_posix(), filename)
                if regex.fullmatch(candidate):
                    found.append(candidate)
                    if len(found) >= limit:
                        return found
    return found


# A manifest entry's files read as the context of a file it names: more than this
# many is a glob that names a tree, not a deployment.
MAX_MANIFEST_CONTEXT_FILES = 200


def manifest_context(deployments: Sequence[ManifestDeployment], path: str) -> list[str]:
    """The files on disk (absolute POSIX paths) of every manifest entry that
    names ``path`` under any key: what a file named alone (pre-commit, flake8) is
    deployed with. Bounded by :data:`MAX_MANIFEST_CONTEXT_FILES` per entry."""
    found: list[str] = []
    for deployment in deployments:
        if not any(deployment.matches(key, path) for key in ROLE_KEYS):
            continue
        for key in ROLE_KEYS:
            found.extend(_matches_on_disk(deployment, key, MAX_MANIFEST_CONTEXT_FILES))
    return list(dict.fromkeys(found))


def check_manifest(
    deployments: Sequence[ManifestDeployment],
    analyzed: Iterable[str],
    roots: Sequence[str] | None = None,
) -> None:
    """Raise :class:`ConfigError` for a manifest entry that names no file.

    Each of an entry's ``prefill``, ``decode`` (and ``router`` when given) must
    match one of the ``analyzed`` files. When it matches none, but matches files
    on disk outside ``roots`` (the paths this run was given), the run is partial
    (pre-commit passes only the changed files) and that is fine; a glob that
    matches nothing on disk, or only files inside ``roots`` that were not analyzed
    (excluded, ignored, not a kind sglang-lint reads), is an error. ``roots=None``
    (in-memory files): the analyzed files are all there is.
    """
    if not deployments:
        return
    analyzed = list(analyzed)
    root_paths = [_absolute(r) for r in roots] if roots is not None else None
    for deployment in deployments:
        for key in ROLE_KEYS:
            globs = deployment.globs(key)
            if not globs or any(deployment.matches(key, path) for path in analyzed):
                continue
            shown = " ".join(repr(g) for g in globs)
            base = display_path(deployment.base).rstrip("/") + "/"
            if root_paths is None:
                raise ConfigError(f"{deployment.describe()}: {key} = {shown} matches none of the files analyzed (globs are relative to {base})", deployment.config_file or None)
            on_disk = _matches_on_disk(deployment, key)
            if not on_disk:
                raise ConfigError(f"{deployment.describe()}: {key} = {shown} matches no file (globs are relative to {base})", deployment.config_file or None)
            inside = [p for p in on_disk if any(p == r or p.startswith(r.rstrip("/") + "/") for r in root_paths)]
            if inside:
                raise ConfigError(
                    f"{deployment.describe()}: {key} = {shown} matches only files sglang-lint did not analyze"
                    f" ({display_path(inside[0])}: excluded, .gitignored, or not a kind it reads)",
                    deployment.config_file or None,
                )


def distinct_configs(configs: Iterable[Config | None]) -> list[Config]:
    """The configs in first-seen order, each once (by identity: a resolver loads a
    file once)."""
    seen: set[int] = set()
    distinct = []
    for config in configs:
        if config is not None and id(config) not in seen:
            seen.add(id(config))
            distinct.append(config)
    return distinct


def display_path(path: str | os.PathLike[str]) -> str:
    """``path`` relative to the working directory when it is under it, else absolute."""
    absolute = os.path.abspath(path)
    cwd = os.getcwd()
    if absolute == cwd:
        return "."
    if absolute.startswith(cwd.rstrip(os.sep) + os.sep):
        return os.path.relpath(absolute, cwd)
    return absolute


def discovery_start(paths: Sequence[str | os.PathLike[str]]) -> str:
    """Where :func:`discover_config` starts: the deepest directory holding every
    given path (a file's directory; the working directory for no paths)."""
    directories = []
    for given in paths or ["."]:
        absolute = os.path.abspath(given)
        directories.append(absolute if os.path.isdir(absolute) else os.path.dirname(absolute))
    try:
        return os.path.commonpath(directories)
    except ValueError:  # pragma: no cover - paths on different Windows drives
        return os.getcwd()


def discover_config(paths: Sequence[str | os.PathLike[str]]) -> Config:
    """The config of a run over ``paths``: the nearest config file walking up from
    :func:`discovery_start`, or ``Config()`` when there is none. One config serves
    the whole run (a manifest entry spans files); issue 6 adds per-file configs."""
    found = find_config(discovery_start(paths))
    return load_config(found) if found is not None else Config()
