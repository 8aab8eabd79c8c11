"""Command line: ``sglang-lint [check] [PATH ...]``, ``sglang-lint topology``,
``sglang-lint rule``.

Exit codes (ruff / ESLint): 0 no findings, 1 findings, 2 usage or configuration
error or an internal failure.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from sglang_lint import __version__
from sglang_lint.catalog.tables import UnknownVersionError, check_version
from sglang_lint.config import ConfigError, load_config
from sglang_lint.files import read_stream
from sglang_lint.pipeline import STDIN, LintOptions, LintResult, StdinFile, lint_paths
from sglang_lint.report import DEFAULT_FORMAT, FORMATS, render

# The rules, the analysis stage and the topology renderers are imported where
# they are used: `sglang-lint check` over files that launch nothing never loads them.

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2

_COMMANDS = ("check", "topology", "rule", "server")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # exit 2 with our prefix, like ruff
        self.print_usage(sys.stderr)
        print(f"sglang-lint: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_ERROR)


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: .); - reads standard input")
    parser.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="the name standard input (-) is analyzed and reported as: its kind and config come from it (default: - read as a shell script)",
    )
    parser.add_argument(
        "--target-version",
        metavar="VERSION",
        help="SGLang release whose option semantics to use (default: the newest known)",
    )
    parser.add_argument("--no-cache", action="store_true", help="do not read or write the cache of per-file results")
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="where the cache lives (default: cache-dir in the config, else $SGLANG_LINT_CACHE_DIR, else .sglang-lint-cache at the project root)",
    )
    parser.add_argument(
        "--jobs", "-j", type=_positive_int, metavar="N", help="worker processes for reading files (default: one per CPU; 1: none)"
    )
    parser.add_argument("--no-respect-gitignore", dest="respect_gitignore", action="store_false", help="also check files that .gitignore excludes")
    parser.add_argument(
        "--exclude",
        action="append",
        metavar="GLOB",
        help="skip paths matching this gitignore-style pattern; replaces the config's exclude and the default excluded directories (repeatable)",
    )
    parser.add_argument(
        "--extend-exclude", action="append", default=[], metavar="GLOB", help="skip paths matching this pattern too (repeatable)"
    )
    parser.add_argument(
        "--force-exclude",
        action="store_true",
        help="apply the excludes to files named on the command line and to --stdin-filename too (for pre-commit)",
    )
    parser.add_argument(
        "--no-context",
        dest="context",
        action="store_false",
        help="check the named files alone: do not read the files they deploy with (their directory's, the manifest's)",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="use this sglang-lint.toml or pyproject.toml (default: the nearest one above the given paths)",
    )


def _add_output_format(parser: argparse.ArgumentParser, choices: Sequence[str], default: str | None, help: str) -> None:
    """ruff's --output-format, with our earlier --format as an alias."""
    parser.add_argument("--output-format", "--format", dest="format", choices=choices, default=default, help=help)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sglang-lint",
        description="Find SGLang prefill/decode deployment mistakes before they reach a GPU.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"sglang-lint {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)

    check = commands.add_parser("check", help="report findings (the default command)", allow_abbrev=False)
    _add_common(check)
    _add_output_format(check, sorted(FORMATS), None, "output format (default: output-format in the config, else full); --format is an alias")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour the full output")
    check.add_argument("--select", metavar="CODES", help="comma-separated rule codes (or prefixes) to run")
    check.add_argument("--ignore", metavar="CODES", help="comma-separated rule codes not to run")
    check.add_argument("--output-file", "-o", metavar="FILE", help="write the report to FILE")
    check.add_argument("--strict", action="store_true", help="also run the opt-in rules (SGL901: values static analysis could not resolve)")
    check.add_argument("--ignore-noqa", action="store_true", help="report findings that `# noqa` and disable directives silence")
    check.add_argument("--statistics", action="store_true", help="print the number of findings per rule instead of the findings")
    check.add_argument(
        "--extend-select", metavar="CODES", help="comma-separated rule codes (or prefixes) to run besides the selected ones (opt-in rules by code)"
    )
    check.add_argument("--extend-ignore", metavar="CODES", help="comma-separated rule codes not to run, besides the ignored ones")
    show = check.add_mutually_exclusive_group()
    show.add_argument("--show-settings", action="store_true", help="print the settings the run would use, then exit 0 without checking")
    show.add_argument("--show-files", action="store_true", help="print the files the run would check, then exit 0 without checking")
    fixing = check.add_argument_group("fixes (ruff's flags; see `sglang-lint rule CODE` for what each rule's fix does)")
    fix = fixing.add_mutually_exclusive_group()
    fix.add_argument("--fix", action="store_true", default=None, help="apply the safe fixes (and the unsafe ones with --unsafe-fixes), then report what remains")
    fix.add_argument("--no-fix", dest="fix", action="store_false", help="apply no fix, even with fix = true in the config")
    unsafe = fixing.add_mutually_exclusive_group()
    unsafe.add_argument("--unsafe-fixes", action="store_true", default=None, help="also apply fixes that change what is deployed")
    unsafe.add_argument("--no-unsafe-fixes", dest="unsafe_fixes", action="store_false", help="apply safe fixes only, even with unsafe-fixes = true in the config")
    fixing.add_argument("--fix-only", action="store_true", help="apply the fixes and report nothing that remains (exit 0)")
    fixing.add_argument("--diff", action="store_true", help="print the fixes as a unified diff and write nothing (exit 1 when there is one)")
    fixing.add_argument("--show-fixes", action="store_true", help="list the findings fixed, per file and rule")
    verbosity = check.add_mutually_exclusive_group()
    verbosity.add_argument("--quiet", "-q", action="store_true", help="print the findings but no summary line")
    verbosity.add_argument("--silent", "-s", action="store_true", help="print nothing (the exit code still tells)")

    topology = commands.add_parser("topology", help="show the deployments as understood", allow_abbrev=False)
    _add_common(topology)
    _add_output_format(topology, ("text", "json", "mermaid", "markdown"), "text", "output format (default: text); --format is an alias")

    rule = commands.add_parser("rule", help="print a rule's documentation", allow_abbrev=False)
    rule.add_argument("code", nargs="?", help="rule code, e.g. SGL001")
    rule.add_argument("--all", action="store_true", help="list every rule")
    _add_output_format(rule, ("text", "json"), "text", "text (default), or json: ruff's `rule --output-format json` objects")

    commands.add_parser(
        "server",
        help="run the language server (LSP over stdio) for editors; needs the lsp extra",
        description="Speak the Language Server Protocol over standard input and output "
        "(pip install 'sglang-lint[lsp]'). Editors start it; see the README.",
        allow_abbrev=False,
    )
    return parser


def _run_server() -> int:
    try:
        from sglang_lint.server import main as server_main
    except ImportError as error:
        print(
            f"sglang-lint: error: the language server needs pygls ({error}); install it with: pip install 'sglang-lint[lsp]'",
            file=sys.stderr,
        )
        return EXIT_ERROR
    return server_main()


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    return value


def _codes(text: str | None) -> frozenset[str] | None:
    if text is None:
        return None
    return frozenset(code.strip().upper() for code in text.split(",") if code.strip())


def _use_color(choice: str, stream) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return hasattr(stream, "isatty") and stream.isatty() and os.environ.get("TERM") != "dumb"


def _options(args: argparse.Namespace) -> LintOptions:
    version = args.target_version
    if version is not None:
        check_version(version)  # raises UnknownVersionError with the list of known ones
    select = _codes(getattr(args, "select", None))
    extend_select = _codes(getattr(args, "extend_select", None)) or frozenset()
    ignore = (_codes(getattr(args, "ignore", None)) or frozenset()) | (_codes(getattr(args, "extend_ignore", None)) or frozenset())
    _check_codes((select or frozenset()) | extend_select | ignore)
    return LintOptions(
        target_version=version,
        select=select,
        extend_select=extend_select,
        ignore=ignore,
        respect_gitignore=args.respect_gitignore,
        exclude=tuple(args.exclude) if args.exclude is not None else None,
        extend_exclude=tuple(args.extend_exclude),
        force_exclude=args.force_exclude,
        config=load_config(args.config) if args.config else None,
        strict=getattr(args, "strict", False),
        cache=not args.no_cache,
        cache_dir=args.cache_dir,
        jobs=args.jobs,
        # The topology command shows deployments: the findings cache has none.
        reuse_findings=args.command != "topology",
        ignore_noqa=getattr(args, "ignore_noqa", False),
        context=args.context,
    )


def _check_codes(codes: frozenset[str]) -> None:
    if not codes:
        return
    from sglang_lint.rules import ALL_RULES, INTERNAL_ERROR_CODE

    known_codes = {rule.code for rule in ALL_RULES} | {INTERNAL_ERROR_CODE}
    for code in sorted(codes):
        if not any(known.startswith(code) for known in known_codes):
            raise _UsageError(f"unknown rule code {code!r}; see `sglang-lint rule --all`")


class _UsageError(Exception):
    pass


def _paths(args: argparse.Namespace) -> list[str]:
    """The PATHs, with ``-`` for standard input (also added for --stdin-filename
    with no PATH, as ruff does)."""
    paths = list(args.paths)
    if paths.count(STDIN) > 1:
        raise _UsageError("- (standard input) given more than once")
    if args.stdin_filename is not None and STDIN not in paths:
        if paths:
            raise _UsageError("--stdin-filename names standard input: add - to the paths")
        paths = [STDIN]
    return paths


def _lint(args: argparse.Namespace, options: LintOptions | None = None) -> LintResult:
    """Run the analysis over the PATHs (with ``options``, else the command
    line's); ``-`` reads standard input."""
    paths = _paths(args)
    options = options if options is not None else _options(args)
    if STDIN not in paths:
        return lint_paths(paths or ["."], options)
    filename = args.stdin_filename or None
    display = filename or STDIN
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise _UsageError("- given but there is no standard input to read")
    data, note = read_stream(stream, display)
    stdin = StdinFile(data=data, filename=filename, note=note)
    return lint_paths([p for p in paths if p != STDIN], options, stdin=stdin)


def _output_format(args: argparse.Namespace, config) -> str:
    """--output-format, else the run's config's output-format, else full."""
    configured = config.output_format if config is not None else None
    return args.format or configured or DEFAULT_FORMAT


def _run_check(args: argparse.Namespace) -> int:
    if args.show_settings or args.show_files:
        return _run_show(args)
    options = _options(args)
    result = _lint(args, options)
    if result.cache_error and not args.silent:
        print(f"sglang-lint: warning: {result.cache_error}; results are not cached", file=sys.stderr)
    fixing = _fix_settings(args, result.config)
    if fixing is not None:
        return _run_fix(args, options, result, fixing)
    return _report(args, result)


def _report(args: argparse.Namespace, result: LintResult) -> int:
    """Print the findings of ``result`` in the run's format; the exit status."""
    if args.silent:  # ruff's --silent: nothing printed, the exit code tells
        return EXIT_CLEAN if args.exit_zero or not result.findings else EXIT_FINDINGS
    fmt = _output_format(args, result.config)
    output = open(args.output_file, "w", encoding="utf-8") if args.output_file else sys.stdout
    try:
        color = _use_color(args.color, output) if fmt == "full" else False
        if args.statistics:
            text = _statistics(result.findings)
        else:
            text = render(result.findings, fmt, sources=result.sources, color=color, summary=not args.quiet)
        output.write(text)
        if text and not text.endswith("\n"):
            output.write("\n")
    finally:
        if output is not sys.stdout:
            output.close()
    if args.exit_zero or not result.findings:
        return EXIT_CLEAN
    return EXIT_FINDINGS


def _fix_settings(args: argparse.Namespace, config):
    """The fixes this run applies (None: none): --fix / --fix-only / --diff, or
    ``fix = true`` in the run's config unless --no-fix; unsafe ones with
    --unsafe-fixes or ``unsafe-fixes = true`` unless --no-unsafe-fixes."""
    wanted = args.fix_only or args.diff or (args.fix if args.fix is not None else bool(config and config.fix))
    if not wanted:
        return None  # a plain check never imports the fix engine
    from sglang_lint.fix_engine import FixSettings

    if STDIN in _paths(args):
        raise _UsageError("fixes are applied to files, not to standard input (-): name the file instead")
    unsafe = args.unsafe_fixes if args.unsafe_fixes is not None else bool(config and config.unsafe_fixes)
    if config is None:
        return FixSettings(unsafe=unsafe)
    return FixSettings(unsafe=unsafe, fixable=config.fixable, unfixable=config.unfixable)


def _run_fix(args: argparse.Namespace, options: LintOptions, first: LintResult, settings) -> int:
    """--fix, --fix-only, --diff (fix_engine): fix in memory, then write the
    files (or print the diff), report what remains, and say what was fixed on
    standard error (the report on standard output stays the format's own)."""
    from sglang_lint.fix_engine import fix_paths, summary, unified_diff, write_fixed

    outcome = fix_paths(_paths(args) or ["."], options, settings, lint_paths, first=first)
    problems = list(outcome.notes)
    if args.diff:
        sys.stdout.write(unified_diff(outcome.texts))
    else:
        problems.extend(write_fixed(outcome.texts))
    for problem in problems:
        print(f"sglang-lint: warning: {problem}", file=sys.stderr)
    if not args.silent:
        for line in summary(outcome, diff=args.diff, show_fixes=args.show_fixes):
            print(line, file=sys.stderr)
    if args.diff:
        return EXIT_FINDINGS if outcome.texts else EXIT_CLEAN
    if args.fix_only:
        return EXIT_CLEAN
    return _report(args, outcome.result)


def _run_show(args: argparse.Namespace) -> int:
    """--show-files / --show-settings: what the run would read and use; nothing
    is read or analyzed (standard input neither)."""
    from sglang_lint.pipeline import discover_run
    from sglang_lint.show import show_files, show_settings

    paths = _paths(args)
    on_disk = [p for p in paths if p != STDIN] or ([] if STDIN in paths else ["."])
    run = discover_run(on_disk, _options(args), args.stdin_filename)
    for note in run.notes:
        print(f"sglang-lint: warning: {note.path}: {note.message}", file=sys.stderr)
    if args.show_files:
        stdin_shown = (args.stdin_filename or STDIN) if STDIN in paths else None
        sys.stdout.write(show_files(run, stdin_shown))
    else:
        sys.stdout.write(show_settings(run, _output_format(args, run.options.config)))
    return EXIT_CLEAN


def _statistics(findings) -> str:
    """ruff's --statistics: one line per code, most frequent first."""
    counts: dict[tuple[str, str], int] = {}
    for finding in findings:
        counts[(finding.code, finding.name)] = counts.get((finding.code, finding.name), 0) + 1
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    width = max((len(str(count)) for _, count in rows), default=1)
    return "".join(f"{count:>{width}}  {code}  {name}\n" for (code, name), count in rows)


def _run_topology(args: argparse.Namespace) -> int:
    from sglang_lint.report.topology import render_json, render_text
    from sglang_lint.report.topology_diagram import render_markdown, render_mermaid

    result = _lint(args)
    if args.format == "json":
        sys.stdout.write(render_json(result.deployments, result.version))
    elif args.format == "mermaid":
        sys.stdout.write(render_mermaid(result.deployments, result.version, result.pair_findings))
    elif args.format == "markdown":
        sys.stdout.write(render_markdown(result.deployments, result.version, result.pair_findings))
    else:
        sys.stdout.write(render_text(result.deployments, result.version))
        notes = [f for f in result.findings if f.code == "SGL900"]
        for note in notes:
            sys.stdout.write(f"note: {note.location.path}:{note.location.line}: {note.message}\n")
    return EXIT_CLEAN


def _rule_entries() -> list[dict[str, object]]:
    """Every rule, SGL900 last, as ``rule --output-format json`` shows it (the
    fields of ruff's objects that fit, plus severity and opt_in)."""
    from sglang_lint.rules import ALL_RULES, INTERNAL_ERROR_CODE, INTERNAL_ERROR_DOC, INTERNAL_ERROR_NAME, INTERNAL_ERROR_SUMMARY
    from sglang_lint.selection import DOCS_URL

    rows = [(rule.code, rule.name, rule.summary, rule.severity.value, rule.opt_in, rule.doc, rule.fix) for rule in ALL_RULES]
    rows.append((INTERNAL_ERROR_CODE, INTERNAL_ERROR_NAME, INTERNAL_ERROR_SUMMARY, "warning", False, INTERNAL_ERROR_DOC, ""))
    return [
        {
            "code": code,
            "name": name,
            "summary": summary,
            "severity": severity,
            "opt_in": opt_in,
            # ruff's wording of the rule's fix availability.
            "fix": {"": "Fix is not available.", "sometimes": "Fix is sometimes available.", "always": "Fix is always available."}[fix],
            "explanation": doc,
            "url": DOCS_URL.format(code=code.lower()),
        }
        for code, name, summary, severity, opt_in, doc, fix in rows
    ]


def _run_rule(args: argparse.Namespace) -> int:
    import json

    entries = _rule_entries()
    if args.all or not args.code:
        if args.format == "json":
            print(json.dumps(entries, indent=2, ensure_ascii=False))
            return EXIT_CLEAN
        width = max(len(str(entry["name"])) for entry in entries)
        for entry in entries:
            print(f"{entry['code']}  {entry['name']:<{width}}  {entry['summary']}")
        return EXIT_CLEAN
    entry = next((e for e in entries if e["code"] == args.code.upper()), None)
    if entry is None:
        print(f"sglang-lint: error: unknown rule {args.code!r}; known: {', '.join(str(e['code']) for e in entries)}", file=sys.stderr)
        return EXIT_ERROR
    if args.format == "json":
        print(json.dumps(entry, indent=2, ensure_ascii=False))
    else:
        print(
            f"# {entry['code']} {entry['name']}\n\n{entry['summary']}.\n\nDefault severity: {entry['severity']}\n\n{entry['explanation']}"
        )
    return EXIT_CLEAN


def _fewer_collections() -> None:
    """The analyses' collector thresholds (pipeline.ANALYSIS_GC_THRESHOLD) for
    the whole run: worker processes are forked and inherit them."""
    import gc

    from sglang_lint.pipeline import ANALYSIS_GC_THRESHOLD

    gc.set_threshold(*ANALYSIS_GC_THRESHOLD)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in _COMMANDS and argv[0] not in ("-h", "--help", "--version")):
        argv.insert(0, "check")
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command in ("topology", "check"):
            _fewer_collections()
        if args.command == "topology":
            return _run_topology(args)
        if args.command == "rule":
            return _run_rule(args)
        if args.command == "server":
            return _run_server()
        return _run_check(args)
    except SystemExit as exit_:
        return int(exit_.code or 0) if isinstance(exit_.code, int) else EXIT_ERROR
    except (UnknownVersionError, _UsageError, ConfigError) as error:
        print(f"sglang-lint: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    except OSError as error:
        print(f"sglang-lint: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # noqa: BLE001 - report, never a traceback
        import textwrap
        import traceback

        print(f"sglang-lint: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        print(textwrap.indent(traceback.format_exc(), "  "), file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    raise SystemExit(main())
