"""``sglang-lint check --show-settings`` and ``--show-files``: what a run would
use and read, resolved as the run resolves it, without analyzing anything (ruff's
``check --show-settings`` / ``--show-files``)."""

from __future__ import annotations

import json
import os
from typing import Iterable

from msgspec.structs import replace

from sglang_lint.config import Config, display_path, distinct_configs
from sglang_lint.files import ALWAYS_EXCLUDED_DIRS, DEFAULT_EXCLUDED_DIRS, display_name
from sglang_lint.pipeline import LintOptions, RunFiles, cache_directory, run_version
from sglang_lint.selection import is_selected, with_config_selection


def show_files(run: RunFiles, stdin_name: str | None = None) -> str:
    """The files the run would check, one a line, sorted (standard input as its
    --stdin-filename, unless --force-exclude excludes it)."""
    files = set(run.files)
    if stdin_name is not None and not run.stdin_excluded:
        files.add(display_name(stdin_name))
    return "".join(f"{path}\n" for path in sorted(files))


def show_settings(run: RunFiles, output_format: str | None = None) -> str:
    """The settings of the run, readable: the run-wide ones (config file,
    target-version, cache), then for each config that governs a checked file its
    resolved rule selection (command line included), excludes, per-file-ignores,
    env names and deployments."""
    options = run.options
    root = options.config if options.config is not None else Config()
    configs = run.configs()
    governed: dict[int, int] = {}
    for config in configs.values():
        governed[id(config)] = governed.get(id(config), 0) + 1
    shown = [root, *[c for c in distinct_configs(configs.values()) if c is not root]]

    lines = [f"Resolved settings for: {' '.join(run.roots) or '.'}"]
    lines.append(f"Settings path: {_config_name(root)}")
    if len(shown) > 1:
        lines.append(f"Other config files: {', '.join(_config_name(c) for c in shown[1:])}")
    lines.append(f"Files: {len(run.files)}")

    lines += ["", "# Run"]
    if options.target_version is not None:
        origin = "--target-version"
    elif root.target_version is not None:
        origin = _config_name(root)
    else:
        origin = "the newest known release"
    named, judging = options.target_version or root.target_version, run_version(options)
    if named is not None and named != judging:
        origin += f", judged with {judging}'s table (the newest: options and choices it lacks are not reported)"
    lines.append(f"target-version = {_quote(named or judging)}  # {origin}")
    if options.target_version is not None or root.target_version is not None:
        lines.append("infer-version = (off: an explicit target-version judges every launch)")
    else:
        lines.append(f"infer-version = {_bool(root.infer_version)}  # each launch judged with the release its image or pin names")
    lines.append(f"follow-installed = {_bool(root.follow_installed)}  # sglang.* imports the tree lacks read from the installed sglang")
    lines.append(f"output-format = {_quote(output_format)}" if output_format else "output-format = (not a check run)")
    lines.append(f"strict = {_bool(options.strict)}")
    lines.append(f"ignore-noqa = {_bool(options.ignore_noqa)}")
    lines.append(f"respect-gitignore = {_bool(options.respect_gitignore)}")
    lines.append(f"force-exclude = {_bool(options.force_exclude)}")
    lines.append(f"context = {_bool(options.context)}  # files named one by one bring the files they deploy with")
    if options.cache:
        lines.append(f"cache-dir = {_quote(display_path(cache_directory(options)))}")
    else:
        lines.append("cache-dir = (no cache: --no-cache)")
    lines.append(f"jobs = {options.jobs}" if options.jobs is not None else "jobs = (one per CPU)")

    for config in shown:
        count = governed.get(id(config), 0)
        lines += ["", f"# {_config_name(config)} (governs {count} file{'s' if count != 1 else ''})"]
        lines += _config_lines(run, replace(options, config=config), config)
    return "\n".join(lines) + "\n"


def _config_lines(run: RunFiles, options: LintOptions, config: Config) -> list[str]:
    from sglang_lint.rules import ALL_RULES, INTERNAL_ERROR_CODE, INTERNAL_ERROR_NAME

    chosen = with_config_selection(options)
    lines = [
        "select = " + (_codes(chosen.select) if chosen.select is not None else "(the default rules: every rule that is not opt-in)"),
        f"extend-select = {_codes(chosen.extend_select)}",
        f"ignore = {_codes(chosen.ignore)}",
    ]
    rules = [(rule.code, rule.name, rule.opt_in) for rule in ALL_RULES] + [(INTERNAL_ERROR_CODE, INTERNAL_ERROR_NAME, False)]
    enabled = [(code, name) for code, name, opt_in in rules if is_selected(code, chosen, opt_in=opt_in)]
    lines.append("enabled-rules = [" if enabled else "enabled-rules = []")
    if enabled:
        lines += [f"    {_quote(code)},  # {name}" for code, name in enabled]
        lines.append("]")

    exclusions = run.exclusions(str(config.root) if config.root is not None else os.getcwd())
    always = sorted(ALWAYS_EXCLUDED_DIRS)
    if exclusions.default_dirs:
        lines.append(f"excluded-directories = {_list(sorted(DEFAULT_EXCLUDED_DIRS))}  # the defaults")
    else:
        lines.append(f"excluded-directories = {_list(always)}  # exclude replaces the defaults")
    if not exclusions.patterns:
        lines.append("exclude-patterns = []")
    for base, patterns in exclusions.patterns:
        lines.append(f"exclude-patterns = {_list(patterns)}  # relative to {display_path(base)}")

    if config.per_file_ignores:
        where = display_path(config.root) if config.root is not None else "."
        lines.append(f"per-file-ignores = {{  # globs relative to {where}; one without / matches file names too")
        lines += [f"    {_quote(glob)} = {_codes(codes)}," for glob, codes in config.per_file_ignores]
        lines.append("}")
    else:
        lines.append("per-file-ignores = {}")
    lines.append(f"env = {_list(name for name, _ in config.env)}  # names only" if config.env else "env = []")
    if config.deployments:
        for deployment in config.deployments:
            lines.append(f"[[deployment]] {_quote(deployment.name)}  # globs relative to {display_path(deployment.base)}")
            for key in ("prefill", "decode", "router"):
                globs = deployment.globs(key)
                if globs:
                    lines.append(f"    {key} = {_list(globs)}")
    else:
        lines.append("deployments = []  # paired by router, else by file")
    return lines


def _config_name(config: Config) -> str:
    return display_path(config.path) if config.path is not None else "(no config file)"


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _list(items: Iterable[str]) -> str:
    return "[" + ", ".join(_quote(item) for item in items) + "]"


def _codes(codes: Iterable[str]) -> str:
    return _list(sorted(codes))


def _bool(value: bool) -> str:
    return "true" if value else "false"
