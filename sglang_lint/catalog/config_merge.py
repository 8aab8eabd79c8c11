"""SGLang's ``--config FILE``: the YAML file as SGLang reads it
(:func:`load_config_yaml`, :class:`ConfigFile`), and its merge into the argv
before argparse sees it (:func:`merge_config`).

``--config FILE`` is merged like SGLang's ``ConfigArgumentMerger``
(``srt/utils/server_args_config_parser.py``): see :func:`merge_config`. The file's
words go before the whole command line, so the command line always wins; when the
file cannot be read (its path is not static, or ``read_config`` returns None) only
the settings still at their default may come from it, and those read UNKNOWN
("may be set by --config ...").
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import Any, Callable

from msgspec import Struct

from sglang_lint.catalog.argv_words import _Word
from sglang_lint.catalog.option_values import takes_no_value
from sglang_lint.catalog.settings import ArgProblem
from sglang_lint.catalog.tables import Option, OptionTable, version_at_least
from sglang_lint.model import ArgToken, Location, Value

__all__ = [
    "ConfigEntry",
    "ConfigFile",
    "load_config_yaml",
    "merge_config",
]

# =================================================================================
# --config files


class ConfigEntry(Struct, frozen=True):
    """One top-level ``key: value`` of a ``--config`` YAML file.

    ``key`` and ``value`` are what PyYAML's safe loader builds (SGLang reads the file
    with ``yaml.safe_load``), so ``8`` is an int, ``true`` a bool, ``[a, b]`` a list.
    """

    key: Any
    value: Any
    key_location: Location
    value_location: Location


class ConfigFile(Struct, frozen=True):
    """A ``--config`` file as SGLang would read it.

    ``entries`` are in the order of the dict ``yaml.safe_load`` returns (a repeated
    key keeps its first position and its last value). ``error`` is set when SGLang
    would refuse the file (bad YAML, not a mapping); ``error_location`` is where.
    """

    path: str
    entries: tuple[ConfigEntry, ...] = ()
    error: str | None = None
    error_location: Location | None = None


def _mark_location(path: str, start: Any, end: Any | None = None) -> Location:
    """PyYAML marks are 0-based lines and code-point columns; ours are 1-based."""
    if end is None:
        return Location(path, start.line + 1, start.column + 1)
    return Location(path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def load_config_yaml(text: str, path: str) -> ConfigFile:
    """Parse the text of a ``--config`` file with safe YAML semantics, keeping the
    position of every top-level key. Never raises."""
    import yaml  # only launches with --config need it

    loader = yaml.SafeLoader(text)
    try:
        try:
            root = loader.get_single_node()
            if root is None:  # an empty file: SGLang reads it as {}
                return ConfigFile(path)
            if not isinstance(root, yaml.MappingNode):
                return ConfigFile(
                    path,
                    error="Config file must contain a dictionary at root level",
                    error_location=_mark_location(path, root.start_mark),
                )
            loader.flatten_mapping(root)  # `<<: *anchor` merge keys, as safe_load does
            by_key: dict[Any, ConfigEntry] = {}
            for key_node, value_node in root.value:
                key = loader.construct_object(key_node, deep=True)
                value = loader.construct_object(value_node, deep=True)
                try:
                    hash(key)
                except TypeError:
                    return ConfigFile(
                        path,
                        error="found unhashable key",
                        error_location=_mark_location(path, key_node.start_mark),
                    )
                # A dict keeps a repeated key where it first appeared, with the last value.
                by_key[key] = ConfigEntry(
                    key,
                    value,
                    _mark_location(path, key_node.start_mark, key_node.end_mark),
                    _mark_location(path, value_node.start_mark, value_node.end_mark),
                )
            return ConfigFile(path, tuple(by_key.values()))
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
            location = _mark_location(path, mark) if mark is not None else Location(path, 1, 1)
            return ConfigFile(path, error=f"invalid YAML: {error}", error_location=location)
        except Exception as error:  # noqa: BLE001 - odd input must never crash the linter
            return ConfigFile(path, error=f"unreadable YAML: {error}", error_location=Location(path, 1, 1))
    finally:
        loader.dispose()


# =================================================================================
# Merging a config file into argv


class _ConfigOutcome(Struct):
    """What the --config step leaves for the settings."""

    # Set when a config file may set options we cannot see: why.
    unseen_reason: str | None = None


def _config_generation(version: str) -> str:
    """Which ConfigArgumentMerger a release has (all read keys verbatim as --{key}):

    - "0.5.4" (0.5.4-0.5.7): ``srt/server_args_config_parser.py``; every ``true``
      adds ``--key``, ``false`` omits it (its list of boolean actions reads an
      attribute argparse actions do not have, so it is always empty: 0.5.7
      server_args.py:4983-4990); no key checks; no dicts.
    - "0.5.9" (0.5.8-0.5.22): same file grown a parser (0.5.8 server_args.py:5264
      hands it the parser; the file is the same in 0.5.8-0.5.13): ``true`` adds
      ``--key`` only for store_true dests (else ``--key true``); a key whose
      dest has another action is refused ("Unsupported config option"); dicts
      become JSON from 0.5.14.
    - "0.5.23": ``srt/utils/server_args_config_parser.py`` L17-66: keys may name any
      long spelling, and every action taking one value is supported.
    """
    if not version_at_least(version, (0, 5, 8)):
        return "0.5.4"
    if not version_at_least(version, (0, 5, 23)):
        return "0.5.9"
    return "0.5.23"


def _is_plain_store_true(option: Option) -> bool:
    # SGLang's DeprecatedStoreTrueAction is an argparse.Action, not a _StoreTrueAction.
    return option.action == "store_true" and not option.deprecated


def _is_plain_store(option: Option) -> bool:
    return option.action == "store" and not option.deprecated


def _config_keys(option: Option, generation: str) -> set[str]:
    if generation == "0.5.23":
        return {option.dest} | {n[2:].replace("-", "_") for n in option.names if n.startswith("--")}
    return {option.dest}


def _config_key_sets(table: OptionTable, generation: str) -> tuple[set[str], dict[str, Option]]:
    """(store_true keys, unsupported key -> option) of ConfigArgumentMerger.__init__."""
    if generation == "0.5.4":
        return set(), {}
    store_true_keys: set[str] = set()
    supported: list[Option] = []
    for option in table.options:
        if _is_plain_store_true(option):
            store_true_keys |= _config_keys(option, generation)
        takes_one_value = _is_plain_store(option) or (
            generation == "0.5.23" and option.nargs is None and not takes_no_value(option)
        )
        if _is_plain_store_true(option) or takes_one_value:
            supported.append(option)
    supported_keys = {key for option in supported for key in _config_keys(option, generation)}
    unsupported: dict[str, Option] = {}
    for option in table.options:
        if option in supported or not option.names:
            continue
        if any(name in ("--config", "--help", "-h") for name in option.names):
            continue
        for key in _config_keys(option, generation):
            if generation == "0.5.23" and key in supported_keys:
                continue
            unsupported[key] = option
    return store_true_keys, unsupported


def _config_words(
    config: ConfigFile, table: OptionTable, problems: list[ArgProblem]
) -> list[_Word]:
    """``ConfigArgumentMerger._convert_config_to_args`` with locations."""
    generation = _config_generation(table.version)
    store_true_keys, unsupported = _config_key_sets(table, generation)
    words: list[_Word] = []
    for entry in config.entries:
        key = entry.key
        if not isinstance(key, str):
            problems.append(
                ArgProblem(
                    "config-file",
                    f"config key {key!r} is not a string: SGLang fails reading {config.path}",
                    entry.key_location,
                    option=str(key),
                )
            )
            continue
        normalized = key.replace("-", "_")
        if normalized in unsupported:
            option = unsupported[normalized]
            problems.append(
                ArgProblem(
                    "config-file",
                    f"Unsupported config option '{normalized}' ({option.names[0]} is a "
                    f"{option.action} option): SGLang refuses {config.path}",
                    entry.key_location,
                    option=key,
                )
            )
            continue
        texts: list[str] | None
        value = entry.value
        if isinstance(value, bool):
            if generation == "0.5.4" or normalized in store_true_keys:
                texts = [] if value else None  # the bare flag, or nothing at all
            else:
                texts = [str(value).lower()]
        elif isinstance(value, list):
            texts = [str(item) for item in value] if value else None
        elif isinstance(value, dict) and version_at_least(table.version, (0, 5, 14)):
            texts = [json.dumps(value)]
        else:
            texts = [str(value)]  # None becomes "None", as in SGLang
        if texts is None:
            continue
        option_token = ArgToken(Value.known(f"--{key}"), entry.key_location)
        words.append(_Word(option_token, config_key=key))
        for text in texts:
            words.append(_Word(ArgToken(Value.known(text), entry.value_location), config_key=key))
    return words


def merge_config(
    words: list[_Word],
    table: OptionTable,
    read_config: Callable[[str, Location], ConfigFile | None] | None,
    problems: list[ArgProblem],
) -> tuple[list[_Word], _ConfigOutcome]:
    """``prepare_server_args`` + ``ConfigArgumentMerger.merge_config_with_args``.

    Only a word that is exactly ``--config`` triggers the merge (``"--config" in
    argv``, server_args.py 0.5.23 L683); ``--config=f.yaml`` and abbreviations are
    parsed by argparse and then ignored. Two such words, or one at the end, are
    errors. The path must end in .yaml/.yml. The file's words go *before* the whole
    remaining command line (``config_args + before_config + after_config``), so the
    command line wins.
    """
    outcome = _ConfigOutcome()
    indices = [
        i for i, w in enumerate(words) if not w.token.spread and w.value.is_known and w.value.text == "--config"
    ]
    if not indices:
        return words, outcome
    if len(indices) > 1:
        problems.append(
            ArgProblem(
                "config-file",
                "Multiple config files specified! Only one allowed. (SGLang refuses to start)",
                words[indices[1]].location,
                option="--config",
            )
        )
        return words, outcome
    index = indices[0]
    config_word = words[index]
    if index == len(words) - 1:
        problems.append(
            ArgProblem(
                "config-file",
                "No config file specified after --config flag! (SGLang refuses to start)",
                config_word.location,
                option="--config",
            )
        )
        return words[:index], outcome
    path_word = words[index + 1]
    rest = words[:index] + words[index + 2 :]
    at = config_word.location.short()
    if path_word.token.spread:
        # The path is the first word of something we cannot see; the rest stays.
        outcome.unseen_reason = f"may be set by --config {path_word.value.describe()} at {at}"
        return words[:index] + words[index + 1 :], outcome
    candidates = path_word.value.candidates()
    if candidates is None or len(candidates) != 1:
        outcome.unseen_reason = f"may be set by --config {path_word.value.describe()} at {at}"
        return rest, outcome
    (path_text,) = candidates
    suffix = _path_suffix(path_text)
    if suffix not in (".yaml", ".yml"):
        problems.append(
            ArgProblem(
                "config-file",
                f"Config file must be YAML format, got: {suffix!r} (SGLang refuses to start)",
                path_word.location,
                option="--config",
            )
        )
        return rest, outcome
    config = read_config(path_text, path_word.location) if read_config is not None else None
    if config is None:
        outcome.unseen_reason = f"may be set by --config {path_text} at {at} (file not read)"
        return rest, outcome
    if config.error is not None:
        problems.append(
            ArgProblem(
                "config-file",
                f"{config.path}: {config.error} (SGLang refuses to start)",
                config.error_location or path_word.location,
                option="--config",
            )
        )
        outcome.unseen_reason = f"may be set by --config {path_text} at {at} (file unreadable)"
        return rest, outcome
    return _config_words(config, table, problems) + rest, outcome


def _path_suffix(path_text: str) -> str:
    """``pathlib.Path(path).suffix.lower()`` as SGLang checks it, without the file system."""
    return PurePosixPath(path_text).suffix.lower()
