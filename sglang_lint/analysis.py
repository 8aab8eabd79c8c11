"""The analysis stage: catalog/argv -> topology -> rules -> suppression over the
sources' results (design.md's data flow after the sources).

Imported only when some file gave the sources something to work on: a tree of
files that launch nothing never loads the option tables, the topology or the
rules (issue 7: the cost of a run over a code base without SGLang is the cost of
dismissing its files).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterable, Mapping

from msgspec import Struct
from msgspec.structs import replace

from sglang_lint.catalog.argv import parse_server_args, split_for_dynamo, split_for_untabled_release
from sglang_lint.catalog.settings import DIFFUSION
from sglang_lint.catalog.config_merge import ConfigFile, load_config_yaml
from sglang_lint.catalog.router import parse_router_args
from sglang_lint.catalog.tables import load_diffusion_table, load_table, run_version
from sglang_lint.catalog.versions import VersionPolicy
from sglang_lint.config import Config, distinct_configs
from sglang_lint.files import read_sglang_config
from sglang_lint.fixes import resolve_fix
from sglang_lint.model import EntryPoint, Finding, Fix, Kind, Location, Note, RouterLaunch, SourceResult, merge_made
from sglang_lint.options import LintOptions, LintResult
from sglang_lint.rules import ALL_RULES
from sglang_lint.rules.base import RuleContext
from sglang_lint.selection import Selection, internal_finding
from sglang_lint.suppress import Directives, DirectiveUse, is_suppressed, parse_directives, suppressing, unused_suppressions
from sglang_lint.sources.paths import MERGED_PAST_BOUND, NOT_FOLLOWED, not_followed
from sglang_lint.topology import Router, Server, build_deployments, make_server, pairs
from sglang_lint.variant_findings import fold, fold_alternatives, is_path_note, name_pass_through


def _config_reader(
    script_path: str, probes: list[tuple[str, str | None]] | None = None, texts: Mapping[str, str] | None = None
) -> Callable[[str, Location], ConfigFile | None]:
    """Read an SGLang ``--config FILE`` named by a launch. SGLang resolves it
    against the working directory at launch time, which a linter cannot know: we
    try the script's directory, then the current directory, and give up (the
    values stay unknown) when neither has it. ``probes`` records each path looked
    at with a digest of what was there (None: nothing usable), so that a cached
    result is reused only while those files are unchanged. ``texts``: absolute
    path -> text read instead of the disk (an editor's unsaved buffer, a file
    the fix engine is editing)."""

    def read(name: str, location: Location) -> ConfigFile | None:
        candidates = [Path(name)] if os.path.isabs(name) else [Path(script_path).parent / name, Path(name)]
        for candidate in candidates:
            text = (texts or {}).get(os.path.abspath(candidate))
            if text is None:
                text = read_sglang_config(candidate)
            if probes is not None:
                from sglang_lint.cache import text_digest  # (the cache module: only when a launch names a --config)

                probes.append((os.path.abspath(candidate), None if text is None else text_digest(text)))
            if text is not None:
                return load_config_yaml(text, os.path.normpath(str(candidate)))
        return None

    return read


# The entries that may start the diffusion server (catalog/argv reads which).
_SERVE_ENTRIES = (EntryPoint.SGLANG_SERVE, EntryPoint.DIFFUSION_SERVE)


class CatalogedFile(Struct):
    """One file's launches through the catalog stage: its servers (argv parsed
    for each launch's release, catalog/versions) and routers, the notes of
    launches that could not be read, its suppression directives, and the
    --config and requirement files it read (probes)."""

    directives: Directives
    servers: list[Server] = []
    routers: list[Router] = []
    notes: list[Note] = []
    probes: list[tuple[str, str | None]] = []
    # The source's notes the file keeps (merges_that_matter): decided here, with
    # the rest of the file's own stage, and not by each run of the cross-file
    # stages (an edit in the editor scanned SGLang's ~20,000 notes again).
    source_notes: list[Note] = []


def catalog_file(result: SourceResult, versions: VersionPolicy, texts: Mapping[str, str] | None = None) -> CatalogedFile:
    """The per-file part of the analysis (catalog/argv): independent of every
    other file, so it can run while other files are still being extracted.
    Each launch is parsed with the table of the release ``versions`` judges it by."""
    first_line = min((launch.location.line for launch in [*result.servers, *result.routers]), default=None)
    cataloged = CatalogedFile(parse_directives(result.path, result.comments, first_line))
    if first_line is not None:
        # A malformed directive matters where it could silence one of our
        # findings; in a file that launches nothing it is another tool's text.
        cataloged.notes.extend(cataloged.directives.notes)
    read_config = _config_reader(result.path, cataloged.probes, texts)
    for launch in result.servers:
        try:
            judged = versions.judge(launch, result, cataloged.probes)
            settings = parse_server_args(
                launch.args,
                load_table(judged.version),
                entry=launch.entry,
                read_config=read_config,
                launch_location=launch.location,
                keywords=launch.keywords,
                diffusion_table=load_diffusion_table(judged.version) if launch.entry in _SERVE_ENTRIES else None,
            )
            if launch.entry is EntryPoint.DYNAMO_SGLANG:
                settings.problems, dynamos = split_for_dynamo(settings.problems)
                if dynamos:
                    cataloged.notes.append(_dynamo_options_note(result.path, launch, dynamos))
            if judged.untabled:
                settings.problems, unknowable = split_for_untabled_release(settings.problems, load_table(judged.version), settings.program == DIFFUSION)
                if unknowable:
                    cataloged.notes.append(_untabled_release_note(result.path, launch, judged, unknowable))
            server = make_server(launch, settings, judged)
        except Exception as error:  # noqa: BLE001 - one launch must not lose the others
            cataloged.notes.append(_launch_error(result.path, launch, error))
            continue
        cataloged.servers.append(server)
    for launch in result.routers:
        try:
            router = Router(parse_router_args(launch))
        except Exception as error:  # noqa: BLE001
            cataloged.notes.append(_launch_error(result.path, launch, error))
            continue
        cataloged.routers.append(router)
    cataloged.source_notes = result.notes if merges_that_matter(result, cataloged) else [note for note in result.notes if MERGED_PAST_BOUND not in note.message]
    return cataloged


def merges_that_matter(result: SourceResult, cataloged: CatalogedFile) -> bool:
    """Whether the branches a source merged past its bounds (its note,
    sources/paths.py) may have cost a launch of the file something: a setting
    of a server whose value a merge made, a router's word, a launch that could
    not be followed or read. A merge whose values every launch's settings
    leave behind (flags before a `*service_args` that may override them all:
    SGLang's Ascend multi-node helper, 96 paths) cost nothing, and the note
    would be noise."""
    if not any(MERGED_PAST_BOUND in note.message for note in result.notes):
        return True
    if not_followed(result.notes) or len(cataloged.servers) < len(result.servers):
        return True
    if len(cataloged.routers) < len(result.routers) or any(_router_merge_matters(router) for router in result.routers):
        return True
    for server in cataloged.servers:
        if server.settings.unchecked:
            return True  # (an option argparse refuses, on some of the merged ways)
        values = server.settings.values
        own = getattr(values, "own", values)
        if any(merge_made(setting.value) for setting in own.values()):
            return True
    return False


def _router_merge_matters(router: RouterLaunch) -> bool:
    """A router's endpoints add up whatever their order: a word a merge made
    unknown (items that differ between branches) hides endpoints only when no
    word nobody can see (`*router_args`) hides them anyway; a merged value
    (one of several URLs) always matters."""
    merged = [token for token in router.args if merge_made(token.value)]
    if any(token.value.kind is not Kind.UNKNOWN for token in merged):
        return True
    unseen = any((token.spread or token.value.kind is Kind.UNKNOWN) and not merge_made(token.value) for token in router.args)
    return bool(merged) and not unseen


def analyze_results(
    results: list[SourceResult],
    options: LintOptions,
    configs: Mapping[str, Config] | None = None,
    extra_notes: Iterable[Note] = (),
    probes: list[tuple[str, str | None]] | None = None,
    cataloged_files: Mapping[int, CatalogedFile] | None = None,
    texts: Mapping[str, str] | None = None,
) -> LintResult:
    """Topology, rules and suppression over the sources' results. ``probes``
    collects the ``--config`` files the launches read (see _config_reader).
    ``cataloged_files``: catalog_file() of some results, done already (by id()
    of the result: while other files were being extracted).

    ``options.config`` is the run's config (target-version; it governs every file
    ``configs`` does not name); ``configs`` maps a path to the config governing it
    (select, ignore, per-file-ignores; each contributes its manifest).
    ``extra_notes``: notes about files that could not be read."""
    configs = configs or {}
    version = run_version(options)
    load_table(version)  # an unknown version is an error before any launch is read
    versions = version_policy(options)
    lint = LintResult(version=version, files_checked=len(results), config=options.config)
    servers_by_file: dict[str, list[Server]] = {}
    routers_by_file: dict[str, list[Router]] = {}
    notes: list[Note] = list(extra_notes)
    directives: dict[str, Directives] = {}
    for result in results:
        lint.sources[result.path] = result.lines
        cataloged = (cataloged_files or {}).get(id(result))
        if cataloged is None:
            cataloged = catalog_file(result, versions, texts)
        notes.extend(cataloged.source_notes)
        directives[result.path] = cataloged.directives
        notes.extend(cataloged.notes)
        if probes is not None:
            probes.extend(cataloged.probes)
        if cataloged.servers:
            servers_by_file[result.path] = cataloged.servers
        if cataloged.routers:
            routers_by_file[result.path] = cataloged.routers
    governing = distinct_configs([options.config, *configs.values()])
    manifest = tuple(entry for config in governing for entry in config.deployments)
    lint.deployments = build_deployments(servers_by_file, routers_by_file, manifest)
    notes.extend(note for deployment in lint.deployments for note in deployment.notes)

    # Each config's selection under the command line's: a rule runs when some
    # file's config selects it, and each finding is kept by its own file's.
    selection = Selection(options, configs, governing, {rule.code: rule.opt_in for rule in ALL_RULES})
    selected = [rule() for rule in ALL_RULES if selection.runs(rule.code, rule.opt_in)]
    findings: list[Finding] = []
    by_pair: list[tuple[Server, Server, list[Finding]]] = []
    # Every check's servers and findings, folded over launch variants below.
    checks: list[tuple[tuple[Server, ...], list[Finding]]] = []
    for deployment, prefill, decode in pairs(lint.deployments):
        found: list[Finding] = []
        # The decode's release: SGLang checks a pair's agreement on the decode side.
        context = RuleContext(version=decode.settings.version)
        for rule in selected:
            if rule.judges(prefill, decode):
                found.extend(rule.check_pair(context, deployment, prefill, decode))
        found = name_pass_through((prefill, decode), _version_notes((prefill, decode), found))
        checks.append(((prefill, decode), found))
        if found:
            by_pair.append((prefill, decode, found))
    checked: set[int] = set()
    for deployment in lint.deployments:
        for server in deployment.servers:
            if id(server) in checked:
                continue
            checked.add(id(server))
            found = []
            context = RuleContext(version=server.settings.version)
            for rule in selected:
                if rule.judges(server):
                    found.extend(rule.check_server(context, deployment, server))
            checks.append(((server,), name_pass_through((server,), _program_notes(server, _version_notes((server,), found)))))
    findings.extend(fold(fold_alternatives(checks, lint.deployments)))
    context = RuleContext(version=version)
    for result in results:
        for rule in selected:
            findings.extend(rule.check_source(context, result))
    findings = _fixes_that_apply(_one_per_place(findings), lint.sources)
    if not options.ignore_noqa:
        used: set[DirectiveUse] = set()
        reported = []
        for finding in findings:
            uses = suppressing(finding, directives)
            used.update(uses)
            if not uses:
                reported.append(finding)
        findings = reported
        by_pair = [(p, d, [f for f in found if not is_suppressed(f, directives)]) for p, d, found in by_pair]
        # Rules judging the directives themselves (SGL902), once the others ran.
        ran = frozenset(rule.code for rule in selected)
        unused = unused_suppressions(directives, used, ran, lint.sources)
        for rule in selected:
            findings.extend(rule.check_suppressions(context, unused))
    findings.extend(internal_finding(note, reached_from) for note, reached_from in _one_note_per_place(notes))
    findings = [f for f in findings if selection.keeps(f)]
    by_pair = [(p, d, [f for f in found if selection.keeps(f)]) for p, d, found in by_pair]
    lint.pair_findings = [(p, d, tuple(sorted({f.code for f in found}))) for p, d, found in by_pair if found]
    lint.findings = sorted(dict.fromkeys(findings), key=Finding.sort_key)
    return lint


def version_policy(options: LintOptions) -> VersionPolicy:
    """The run's choice of a release per launch; the project pin files it reads
    are probes with the cache's digests (the cache module: only when read)."""

    def digest(text: str) -> str:
        from sglang_lint.cache import text_digest

        return text_digest(text)

    return VersionPolicy(options, digest)


def _version_notes(servers: tuple[Server, ...], found: list[Finding]) -> list[Finding]:
    """Each finding about ``servers`` says which release judged them and why,
    when a fact chose it (an image, a pin); the sides of a pair judged
    differently are named by role."""
    if not found:
        return found
    judged = [(server.role, server.judged) for server in servers if server.judged is not None and server.judged.why]
    if not judged:
        return found
    if len({j for _, j in judged}) == 1 and len(judged) == len(servers):
        notes: tuple[str, ...] = (judged[0][1].note,)
    else:
        notes = tuple(dict.fromkeys(f"{role}: {j.note}" if len(servers) > 1 else j.note for role, j in judged))
    return [replace(finding, notes=finding.notes + notes) for finding in found]


def _program_notes(server: Server, found: list[Finding]) -> list[Finding]:
    """A finding on an `sglang serve` launch that is not read as the LLM server
    says which server it was read as, and why (catalog/argv)."""
    if not found or not server.settings.program_reason:
        return found
    note = server.settings.program_reason
    return [replace(finding, notes=finding.notes + (note,)) for finding in found]


def _one_per_place(findings: list[Finding]) -> list[Finding]:
    """One finding for one mistake at one place: launches that share a word
    (a list of common arguments for the prefill and the decode) each gave the
    same finding, differing only in the launch lines a ``# noqa`` may sit on.
    They become one, which a directive on any of those launches silences.
    So do findings that differ only in the notes that name the other paths of
    their launch (one launch reached two ways, ktransformers' `kt run`): one,
    with the notes of both. (Findings of two launches, a function called once
    per role, differ in the notes that say which: each is kept, issue 16.)
    A decision is compared by what it says and where, not by its key, which
    names the call chain that met it: one function's branch reached from three
    callers gave the same finding three times, nothing told apart."""
    merged: dict[Finding, tuple[Finding, list[tuple[str, int, int]], list[str]]] = {}
    for finding in findings:
        key = replace(
            finding,
            noqa_ranges=(),
            notes=tuple(note for note in finding.notes if not is_path_note(note)),
            path=tuple(replace(step, key="") for step in finding.path),
        )
        first, ranges, notes = merged.setdefault(key, (finding, [], []))
        ranges.extend(r for r in finding.noqa_ranges if r not in ranges)
        notes.extend(n for n in finding.notes if n not in notes)
    return [replace(first, noqa_ranges=tuple(ranges), notes=tuple(notes)) for first, ranges, notes in merged.values()]


def _one_note_per_place(notes: list[Note]) -> list[tuple[Note, list[Location]]]:
    """One note for one thing at one place, with every analyzed file's line
    that led to it: a helper's note comes from the helper analyzed as a file and
    from each file that sources or imports it (a run over one of them reports
    it for that file's line). A launch not followed is one thing, however each
    run worded why (the helper's own run, which sees its code first-hand, says it)."""
    merged: dict[tuple[str, int, int, str], tuple[Note, list[Location]]] = {}
    for note in notes:
        what = NOT_FOLLOWED if note.message.startswith(NOT_FOLLOWED) else note.message
        place = (note.path, note.line, note.column, what)
        kept, reached = merged.setdefault(place, (note, []))
        if note.reached_from is None and kept.reached_from is not None:
            merged[place] = (note, reached)  # (the first-hand wording)
        if note.reached_from is not None and note.reached_from not in reached:
            reached.append(note.reached_from)
    return [(replace(note, reached_from=None), reached) for note, reached in merged.values()]


def _fixes_that_apply(findings: list[Finding], sources: Mapping[str, list[str]]) -> list[Finding]:
    """Each finding's fixes that ``--fix`` could apply to the file as it is.
    A rule proposes an edit of words it knows (``sglang serve`` becomes
    ``python3 -m sglang.launch_server``) without the file's text; where the
    words are not written so (a YAML list ``[sglang, serve, ...]``), the fix is
    not offered rather than shown and then not applied. A file whose text the
    run does not hold (a ``--config`` file: results keep the lines of files
    that launch) keeps its fixes; whoever applies them checks again."""
    kept: list[Finding] = []
    for finding in findings:
        if finding.fixes:
            applying = tuple(fix for fix in finding.fixes if _may_apply(fix, sources))
            if len(applying) != len(finding.fixes):
                finding = replace(finding, fixes=applying)
        kept.append(finding)
    return kept


def _may_apply(fix: Fix, sources: Mapping[str, list[str]]) -> bool:
    """Whether ``fix`` is not known not to apply: a replacement whose text is
    not in the file does not. An insertion or a split is left to its applier
    (a Python insertion needs libcst, which a check never loads)."""
    if fix.insert or fix.split or not sources.get(fix.location.path):
        return True
    return resolve_fix(fix, sources[fix.location.path]) is not None


def _unreported(problems) -> str:
    """The first few problems left unreported, as a note lists them:
    ``--x (run.sh:3), 'fp9' for --kv-cache-dtype (run.sh:3) and 2 more``."""
    shown = []
    for problem in problems[:4]:
        where = problem.location.short()
        if problem.refused_choice:
            shown.append(f"{problem.refused_choice!r} for {problem.option} ({where})")
        else:
            shown.append(f"{problem.option} ({where})")
    more = f" and {len(problems) - 4} more" if len(problems) > 4 else ""
    return ", ".join(shown) + more


def _untabled_release_note(path: str, launch, judged, unknowable) -> Note:
    """What a launch of a release newer (or older) than every table uses that
    the newest (oldest) table does not know, left unreported: it may be that
    release's own (or one a later release removed)."""
    if judged.older:
        message = (
            f"sglang {judged.older} is older than sglang-lint's option tables (the oldest: {judged.version}): its options are judged by {judged.version}'s; "
            f"what {judged.version} does not know is not reported, as {judged.older} may have had it (later releases removed options and choices): "
            f"{_unreported(unknowable)}"
        )
    else:
        message = (
            f"sglang {judged.newer} is newer than sglang-lint's option tables (the newest: {judged.version}): options it may have are not checked; "
            f"what {judged.version} does not know is not reported, as {judged.newer} may accept it: {_unreported(unknowable)} "
            "(an update of sglang-lint may know them)"
        )
    return Note(path, message, launch.location.line, launch.location.column)


def _dynamo_options_note(path: str, launch, unsure) -> Note:
    """The options of a `python -m dynamo.sglang` launch left to Dynamo's own
    part of the parser, which sglang-lint has no table of."""
    return Note(
        path,
        "python -m dynamo.sglang adds options of its own to SGLang's (Dynamo's args.py), and its releases change them: "
        f"these are neither SGLang's nor the Dynamo options sglang-lint knows, and are not reported: {_unreported(unsure)}",
        launch.location.line,
        launch.location.column,
    )


def _launch_error(path: str, launch, error: Exception) -> Note:
    return Note(
        path,
        f"internal error reading the arguments of this launch ({type(error).__name__}: {error}); please report it",
        launch.location.line,
        launch.location.column,
    )


