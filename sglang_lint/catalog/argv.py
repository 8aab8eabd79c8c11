"""Read a server's argv exactly as SGLang's argparse would (sglang-semantics.md section 3).

``parse_server_args`` turns the :class:`~sglang_lint.model.ArgToken` words of one
launch into :class:`~sglang_lint.catalog.settings.ServerSettings`: one Setting per
option of the target version's table, with the location that set it, plus the
:class:`~sglang_lint.catalog.settings.ArgProblem` s argparse would exit on.

This module is the entry point; the steps live in modules below it, in the order
a launch goes through them:

- ``sglang serve``'s rewriting of its words (here);
- the ``--config FILE`` merge (:mod:`~sglang_lint.catalog.config_merge`);
- each word classified as argparse's ``_parse_optional`` does
  (:mod:`~sglang_lint.catalog.argv_words`);
- the argparse pass: values taken by ``nargs``, actions applied
  (:mod:`~sglang_lint.catalog.argparse_emulation`), with the options' defaults,
  type conversion and choices from :mod:`~sglang_lint.catalog.option_values`;
- the settings, with what words we cannot see may override (here).

Words we cannot see that may be options (``$FLAGS``, a spread ``"$@"``) are
*opaque*: each is recorded in ``ServerSettings.opaque`` and every setting made
before it - defaults included - may be overridden by it, so its value becomes
UNKNOWN (``Setting.written`` keeps what was written). Settings made after it are
final (the last occurrence wins).
"""

from __future__ import annotations

import functools
from typing import Callable, Iterable

from msgspec.structs import replace

from sglang_lint.catalog.argparse_emulation import _Parse
from sglang_lint.catalog.argv_words import ArgparseView, Role, _Word, classify, close_match
from sglang_lint.catalog.config_merge import ConfigFile, _ConfigOutcome, merge_config
from sglang_lint.catalog.option_values import default_value, is_default_none, normalized_value, takes_no_value
from sglang_lint.catalog.settings import (
    DIFFUSION,
    LEGACY_DESTS,
    LLM,
    LLM_OR_DIFFUSION,
    OUT_OF_TREE,
    SERVE_COMMAND_SINCE,
    ArgProblem,
    Overlay,
    ServerSettings,
    Setting,
)
from sglang_lint.catalog.tables import Option, OptionTable, known_versions, load_diffusion_table, load_table, version_at_least
from sglang_lint.model import ArgToken, EntryPoint, KeywordArg, Kind, Location, Value, merge_made

__all__ = ["parse_server_args"]

# =================================================================================
# SGLang's argv rewriting before argparse: `sglang serve` (the --config merge is
# config_merge's)


def _serve_words(words: list[_Word], version: str, problems: list[ArgProblem]) -> tuple[list[_Word], _Word | None]:
    """What ``sglang serve`` hands to its backend's parser, and the word naming
    the backend (the last ``--model-type``'s value; None: auto-detection).

    ``cli/serve.py`` (0.5.23 L30-66): ``--model-type X`` / ``--model-type=X`` are
    removed (0.5.10+, exact spelling only), then a first word that does not start
    with "-" becomes ``--model-path WORD`` (0.5.16+; before, argparse rejects it).
    """
    backend: _Word | None = None
    if version_at_least(version, (0, 5, 10)):
        kept: list[_Word] = []
        index = 0
        while index < len(words):
            word = words[index]
            if word.value.is_known and word.value.text == "--model-type" and not word.token.spread:
                if index + 1 >= len(words):
                    problems.append(
                        ArgProblem("invalid-value", "Error: --model-type requires a value.", word.location, "--model-type")
                    )
                # The next word is the backend name; a spread may hold more words than that.
                if index + 1 < len(words) and words[index + 1].token.spread:
                    backend = _Word(ArgToken(Value.unknown(f"{words[index + 1].value.describe()}"), words[index + 1].location))
                    index += 1
                else:
                    backend = words[index + 1] if index + 1 < len(words) else None
                    index += 2
                continue
            if word.value.literal_prefix().startswith("--model-type=") and not word.token.spread:
                backend = _Word(ArgToken(word.value.drop_prefix(len("--model-type=")), word.location))
                index += 1
                continue
            kept.append(word)
            index += 1
        words = kept
    if version_at_least(version, (0, 5, 16)) and words:
        first = words[0]
        if not first.token.spread and _surely_not_dash(first.value):
            marker = ArgToken(Value.known("--model-path"), first.location)
            return [_Word(marker, spelling="sglang serve"), *words], backend
    return words, backend


def _surely_not_dash(value: Value) -> bool:
    """Whether a word does not start with "-". A lone unseen word (``$MODEL``) is
    taken as a model path: a value with no visible text is one word, and the first
    word of ``sglang serve`` is a model unless it is an option."""
    prefix = value.literal_prefix()
    if prefix:
        return not prefix.startswith("-")
    candidates = value.candidates()
    if candidates is not None:
        return all(not c.startswith("-") for c in candidates)
    return value.kind is Kind.SYMBOL


# =================================================================================
# The model path a server cannot start without

# `sglang serve` (0.5.5-0.5.17 cli/serve.py calls get_model_path before it
# dispatches; from 0.5.18, 0.5.23 cli/serve.py:216-217, when the backend
# requires a model path, as both built-in backends do) scans its words for
# these spellings itself, before any parser: sglang/cli/utils.py get_model_path
# (0.5.5 L126-151: "--model-path" only; 0.5.11 L102-127 adds "--model"; 0.5.23
# try_get_model_path L136-149). No abbreviation, no --config file.
_SERVE_SINCE = ".".join(map(str, SERVE_COMMAND_SINCE))
_SERVE_MODEL_WORDS_FROM = {"--model-path": (0, 5, 5), "--model": (0, 5, 11)}


def _serve_answers_help_first(words: list[_Word], version: str) -> bool:
    """Whether ``sglang serve`` answers ``-h``/``--help`` before it reads
    anything else: before 0.5.18 it looks for them among all the words it is
    given (cli/serve.py 0.5.17 L57), even one that is ``--model-type``'s value
    (`--model-type -h`); from 0.5.18 only among those left once the
    ``--model-type`` pairs are taken out (0.5.18 L169-180), which the model
    path scan sees (:func:`_check_serve_model_path`)."""
    if version_at_least(version, (0, 5, 18)):
        return False
    return any(word.value.is_known and word.value.text in ("-h", "--help") and not word.token.spread for word in words)


def _check_serve_model_path(words: list[_Word], backend: _Word | None, table: OptionTable, problems: list[ArgProblem], launch: Location) -> Location | None:
    """``sglang serve``'s own search for the model path (``get_model_path``),
    which raises before either server parses anything: a problem when the
    words surely hold none of the spellings it looks for. ``words`` are those
    it scans (``--model-type`` removed, a first positional already made
    ``--model-path WORD`` where the release does that: ``_serve_words``).
    Returns the first word when it is a model the release does not take there
    (before 0.5.16), which argparse would otherwise call unrecognized."""
    version = table.version
    if not version_at_least(version, (0, 5, 5)):
        return None  # no `sglang serve` command (its cli/ package is from 0.5.5)
    if backend is not None and not (backend.value.is_known and backend.value.text in ("auto", "llm", "diffusion")):
        return None  # an installed backend may need no model path (serve_backends.py:67)
    spellings = tuple(name for name, since in _SERVE_MODEL_WORDS_FROM.items() if version_at_least(version, since))
    view = _facts(table).argparse
    for index, word in enumerate(words):
        if word.token.spread:
            return None  # "$@" may hold the model path
        texts = word.value.candidates()
        if texts is None:
            if _value_of_previous_option(words, index, view):
                continue  # `--tp $TP`: the value of an option that takes one
            prefix = word.value.literal_prefix()
            if not prefix or prefix.startswith("-"):
                return None  # a word we cannot see may be --model-path=...
            continue
        for text in texts:
            if text in ("-h", "--help"):
                return None  # help, no server (cli/serve.py answers it first)
            if text in spellings and index + 1 < len(words):
                return None
            if any(text.startswith(name + "=") for name in spellings):
                return None
    unseen = _unseen_model(words, version, spellings, view)
    if unseen is None:
        return None  # no model given at all: an illustration more often than a deployment
    message, location, written, stray = unseen
    problems.append(ArgProblem("missing-model", message, location, written))
    return location if stray else None


def _value_of_previous_option(words: list[_Word], index: int, view: ArgparseView) -> bool:
    """Whether the word before ``index`` is a known option (no "=") that takes
    exactly one value, which this word then is."""
    if index == 0 or not words[index - 1].value.is_known:
        return False
    parsed = view.parse_optional(words[index - 1].value.text)
    return parsed is not None and parsed.option is not None and parsed.explicit is None and parsed.option.action == "store" and parsed.option.nargs is None


def _unseen_model(words: list[_Word], version: str, spellings: tuple[str, ...], view: ArgparseView) -> tuple[str, Location, str, bool] | None:
    """How the launch meant to give the model that ``sglang serve``'s scan does
    not see: the message, the word, the option as written when it is one (for
    a fix), and whether the word is a positional model (which argparse would
    also refuse); None when it gives none at all."""
    for word in words:
        if not word.value.is_known or word.spelling is not None:
            continue
        parsed = view.parse_optional(word.value.text)
        if parsed is None or parsed.option is None:
            continue
        name = parsed.written
        if parsed.option.dest == "model_path":
            if name in spellings:
                return f"{name} is sglang serve's last word: it has no value, and no model path is found", word.location, "", False
            if name == "--model":
                return "sglang serve does not see --model as the model path before sglang 0.5.11", word.location, name, False
            return f"sglang serve does not expand the abbreviation {name}: it finds no model path", word.location, name, False
        if parsed.option.dest == "config" and parsed.explicit is None and name == "--config":
            return "sglang serve does not read the model path from the --config file", word.location, "", False
    if words and not version_at_least(version, (0, 5, 16)) and words[0].value.is_known and _surely_not_dash(words[0].value):
        return "sglang serve takes the model as its first word from sglang 0.5.16 only", words[0].location, "", True
    return None


# =================================================================================
# A release newer than every table


def split_for_untabled_release(problems: list[ArgProblem], table: OptionTable, diffusion: bool = False) -> tuple[list[ArgProblem], list[ArgProblem]]:
    """The problems a launch of a release newer than every table (judged with
    ``table``, the newest) still surely has, and those that release may not
    have: an option no known release declares and that is no near miss of one
    of ``table`` (releases add options: ``--enable-new-thing`` on 0.5.30 is
    more likely new than wrong), and a value outside the table's choices
    (releases add backends and formats). A stray word, an ambiguous prefix,
    an option an older release had (removals stay), a value of the wrong type
    and a typo close to a known option are kept.

    The same for a release older than every table (judged with the oldest):
    an option no known release declares may be one it had that later
    releases removed (``--disable-mla`` of 0.4.5), a choice one they dropped;
    an option only later releases declare it did not have yet."""
    kept: list[ArgProblem] = []
    unknowable: list[ArgProblem] = []
    for problem in problems:
        if problem.kind == "unknown" and problem.option and _never_declared(problem.option, table, diffusion):
            unknowable.append(problem)
        elif problem.kind == "invalid-value" and problem.refused_choice:
            unknowable.append(problem)
        else:
            kept.append(problem)
    return kept, unknowable


def _never_declared(spelling: str, table: OptionTable, diffusion: bool) -> bool:
    """Whether no known release declares the option ``spelling`` names (a long
    option, a ``key:`` of a config file, a ``field=`` keyword) and it is not a
    near miss of one ``table`` declares."""
    text = spelling.strip()
    if text.endswith("="):
        text = "--" + text[:-1].replace("_", "-")
    elif text.endswith(":"):
        text = "--" + text[:-1]
    if not text.startswith("--"):
        return False
    if any(name.startswith(text) for name in _every_long_name(diffusion)):
        return False  # an option (or an abbreviation of one) a known release has
    return close_match(text, table.long_names) is None


# Options `python -m dynamo.sglang` adds to SGLang's parser (ai-dynamo/dynamo
# components/backends/sglang/src/dynamo/sglang/args.py: DYNAMO_ARGS, then
# `ServerArgs.add_cli_args(parser)` and one `parse_args`; later versions add
# negatable booleans, `--no-X` too). They change across Dynamo's releases, so
# this list is what its versions were seen to declare, and any `--dyn-...`.
DYNAMO_OPTIONS = frozenset(
    {
        "--endpoint", "--migration-limit", "--custom-jinja-template", "--use-sglang-tokenizer",
        "--multimodal-processor", "--multimodal-encode-worker", "--multimodal-worker",
        "--multimodal-decode-worker", "--multimodal-encode-prefill-worker", "--embedding-worker",
        "--image-diffusion-worker", "--video-generation-worker", "--dump-config-to", "--store-kv",
        "--request-plane", "--event-plane", "--use-kv-events", "--durable-kv-events",
        "--enable-local-indexer", "--enable-multimodal", "--route-to-encoder",
    }
)  # fmt: skip


def split_for_dynamo(problems: list[ArgProblem]) -> tuple[list[ArgProblem], list[ArgProblem]]:
    """The problems of a `python -m dynamo.sglang` launch SGLang's parser
    surely has there, and the unknown options Dynamo's own part of the parser
    may take: one no SGLang release declares that is Dynamo's (DYNAMO_OPTIONS,
    `--dyn-...`, their `--no-` forms: dropped) or no near miss of an SGLang
    option (returned second: a note names them; a typo of `--tp-size` is still
    a problem)."""
    kept: list[ArgProblem] = []
    unsure: list[ArgProblem] = []
    for problem in problems:
        name = problem.option.split("=", 1)[0]
        if problem.kind == "unknown" and name.startswith("--") and not any(known.startswith(name) for known in _every_long_name(False)):
            plain = "--" + name[len("--no-"):] if name.startswith("--no-") else name
            if plain in DYNAMO_OPTIONS or plain.startswith("--dyn-"):
                continue
            if _never_declared(name, load_table(known_versions()[-1]), False):
                unsure.append(problem)
                continue
        kept.append(problem)
    return kept, unsure


@functools.lru_cache(maxsize=2)
def _every_long_name(diffusion: bool) -> frozenset[str]:
    """The long options of every known release's table."""
    names: set[str] = set()
    for version in known_versions():
        table = load_diffusion_table(version) if diffusion else load_table(version)
        if table is not None:
            names.update(table.long_names)
    return frozenset(names)


# =================================================================================
# Entry point


def parse_server_args(
    tokens: list[ArgToken],
    table: OptionTable,
    *,
    entry: EntryPoint = EntryPoint.LAUNCH_SERVER,
    read_config: Callable[[str, Location], ConfigFile | None] | None = None,
    launch_location: Location | None = None,
    keywords: Iterable[KeywordArg] = (),
    diffusion_table: OptionTable | None = None,
) -> ServerSettings:
    """The settings one server launch ends up with, for the table's SGLang version.

    ``tokens`` are the words after the entry point (after ``-m sglang.launch_server``,
    ``sglang serve`` or ``-m dynamo.sglang``, which takes the same arguments).
    ``read_config(path, location)`` reads a ``--config`` file (e.g. with
    :func:`load_config_yaml`), or returns None when it cannot. ``launch_location`` is
    the launch's first word; every problem found today belongs to a word, so it is
    kept for problems of the launch as a whole. Never raises on any token list.

    ``keywords`` are the arguments of the Python entries (``sglang.Engine(...)``,
    ``ServerArgs(...)``), which take field names instead of argv words.

    ``diffusion_table``: the release's diffusion server options (None before
    0.5.5). With it, ``sglang serve`` is read as the server it dispatches to
    (``ServerSettings.program``, see ``_serve_program``).
    """
    if entry in (EntryPoint.ENGINE, EntryPoint.SERVER_ARGS, EntryPoint.RUNTIME):
        return _keyword_settings(list(keywords), table)
    problems: list[ArgProblem] = []
    words = [_Word(token) for token in tokens]
    first_location = launch_location or (words[0].location if words else None)
    if entry is EntryPoint.SGLANG_SERVE and not version_at_least(table.version, SERVE_COMMAND_SINCE):
        # No `sglang` command at all: the words are read as the replacement
        # (`python -m sglang.launch_server`, the LLM server's own parser) reads
        # them, and the missing command is the one finding about the entry.
        if first_location is not None:
            problems.append(ArgProblem("no-entry-point", f"there is no sglang command before sglang {_SERVE_SINCE}: sglang serve starts no server", first_location, "sglang serve"))
        return _llm_settings(table, words, problems, read_config)
    if entry is EntryPoint.SGLANG_SERVE:
        asks_help = _serve_answers_help_first(words, table.version)
        words, backend = _serve_words(words, table.version, problems)
        stray_model = None if asks_help or first_location is None else _check_serve_model_path(words, backend, table, problems, first_location)
        settings = _serve_settings(table, words, backend, problems, read_config, diffusion_table)
        if asks_help:
            settings.problems = []  # it prints the help and returns: nothing else runs
        if stray_model is not None:
            # One mistake, one finding: the model given as the first word of a
            # release that does not take it is the missing model path, not also
            # an unrecognized argument.
            settings.problems = [p for p in settings.problems if not (p.kind == "unknown" and p.location == stray_model)]
        return settings
    if entry is EntryPoint.DIFFUSION_SERVE:
        reason = "python -m sglang.multimodal_gen.runtime.entrypoints.cli.main serve starts the diffusion server"
        if diffusion_table is not None:
            return _diffusion_settings(diffusion_table, words, problems, reason)
        settings = _unchecked(table, words, read_config, DIFFUSION, f"{reason} (not in sglang {table.version}: not checked)")
        if first_location is not None:
            settings.problems.append(
                ArgProblem("no-entry-point", f"there is no diffusion server (sglang.multimodal_gen) before sglang {_SERVE_SINCE}: the module is not found and no server starts", first_location)
            )
        return settings
    return _llm_settings(table, words, problems, read_config)


def _serve_settings(
    table: OptionTable,
    words: list[_Word],
    backend: _Word | None,
    problems: list[ArgProblem],
    read_config: Callable[[str, Location], ConfigFile | None] | None,
    diffusion_table: OptionTable | None,
) -> ServerSettings:
    """``sglang serve``'s words (after ``_serve_words``) read by the server it
    dispatches to."""
    if diffusion_table is None:
        return _llm_settings(table, words, problems, read_config)
    program, reason = _serve_program(words, backend, table, diffusion_table)
    if program == DIFFUSION:
        return _diffusion_settings(diffusion_table, words, problems, reason)
    if program == OUT_OF_TREE:
        return _unchecked(table, words, read_config, program, reason)
    if program == LLM_OR_DIFFUSION:
        llm = _llm_settings(table, words, list(problems), read_config)
        diffusion = _diffusion_parse(diffusion_table, words, list(problems))
        llm.problems = _under_both(llm.problems, diffusion.problems)
        llm.program, llm.program_reason = program, reason
        return llm
    settings = _llm_settings(table, words, problems, read_config)
    settings.program_reason = reason
    return settings


def _llm_settings(
    table: OptionTable,
    words: list[_Word],
    problems: list[ArgProblem],
    read_config: Callable[[str, Location], ConfigFile | None] | None,
) -> ServerSettings:
    """The LLM server's reading: ``prepare_server_args`` (the --config merge, then
    ``parse_args``)."""
    words, config = merge_config(words, table, read_config, problems)
    argparse_view = _facts(table).argparse
    roles = [classify(word, argparse_view) for word in words]
    parse = _Parse(table, words, roles, problems, view=argparse_view)
    parse.run()
    _report_ignored_config(parse)
    return _settings(table, parse, config)


# =================================================================================
# `sglang serve`'s backends: the LLM server or the diffusion server


def _unchecked(
    table: OptionTable,
    words: list[_Word],
    read_config: Callable[[str, Location], ConfigFile | None] | None,
    program: str,
    reason: str,
) -> ServerSettings:
    """A server whose parser we do not have (an out-of-tree backend, the
    diffusion CLI of a release without it): its words read with the LLM table so
    that the settings are complete, no problem kept, and no rule judges it (its
    program is not the LLM server's)."""
    settings = _llm_settings(table, words, [], read_config)
    settings.problems = []
    settings.program, settings.program_reason = program, reason
    return settings


def _diffusion_parse(table: OptionTable, words: list[_Word], problems: list[ArgProblem]) -> ServerSettings:
    """The diffusion server's argparse pass (0.5.23 cli/serve.py:134-137): a plain
    ``ArgumentParser`` (abbreviations allowed) and ``parse_known_args``. Its
    ``--config`` is an ordinary option there (read later by ``from_cli_args``):
    no merge."""
    argparse_view = _facts(table).argparse
    roles = [classify(word, argparse_view) for word in words]
    parse = _Parse(table, words, roles, problems, view=argparse_view)
    parse.run()
    return _settings(table, parse, _ConfigOutcome())


def _diffusion_settings(table: OptionTable, words: list[_Word], problems: list[ArgProblem], reason: str) -> ServerSettings:
    """A diffusion server: the values of the options its parser declares are
    checked as argparse checks them (type, choices, nargs, ambiguous prefixes).
    Words it does not know are not problems: ``parse_known_args`` hands them on,
    and what becomes of them depends on the model (0.5.23 ``from_cli_args``,
    multimodal_gen/runtime/server_args/server_args.py:3679-3709, takes
    ``--<component>-path`` and friends and refuses the rest; a pipeline adds its
    own options once the model is known, entrypoints/cli/utils.py:18-69)."""
    settings = _diffusion_parse(table, words, problems)
    settings.problems = [problem for problem in settings.problems if problem.kind != "unknown"]
    settings.program, settings.program_reason = DIFFUSION, reason
    return settings


def _serve_program(words: list[_Word], backend: _Word | None, llm: OptionTable, diffusion: OptionTable) -> tuple[str, str]:
    """Which server ``sglang serve`` starts, and why.

    ``--model-type llm|diffusion`` decides (0.5.23 cli/serve.py:209-218); another
    name is a backend an installed package registers (serve_backends.py:119-137).
    Otherwise SGLang asks the model (``_detect_diffusion``, cli/serve.py:109-118:
    the model's ``model_index.json``, a registry that needs the diffusion extras,
    the Hub): nothing a linter can read. The options then decide what can run: a
    word only the diffusion parser declares (exactly or as a unique prefix,
    argparse's allow_abbrev) makes the LLM server exit, so the launch is read as
    the diffusion server; a word only the LLM parser declares, as the LLM server
    (unless it has a component option's shape, which the diffusion server takes).
    With neither (or both), the model alone decides: LLM_OR_DIFFUSION."""
    if backend is not None and backend.value.is_known:
        name = backend.value.text
        where = backend.location.short()
        if name == "diffusion":
            return DIFFUSION, f"--model-type diffusion ({where}) selects the diffusion server"
        if name == "llm":
            return LLM, ""
        if name != "auto":
            return OUT_OF_TREE, (
                f"--model-type {name} ({where}) names a serve backend an installed package registers, "
                "not the LLM server: its options are not checked"
            )
    llm_view, diffusion_view = _facts(llm).argparse, _facts(diffusion).argparse
    diffusion_only: _Word | None = None
    llm_only: _Word | None = None
    for word in words:
        in_llm, in_diffusion = classify(word, llm_view), classify(word, diffusion_view)
        if in_llm.role != Role.OPTION or in_diffusion.role != Role.OPTION:
            continue
        llm_knows = in_llm.option_word is not None and in_llm.option_word.option is not None
        diffusion_knows = in_diffusion.option_word is not None and in_diffusion.option_word.option is not None
        if diffusion_knows and not llm_knows and diffusion_only is None:
            diffusion_only = word
        elif llm_knows and not diffusion_knows and llm_only is None and not _component_option(in_llm.option_word.written):  # type: ignore[union-attr]
            llm_only = word
    if diffusion_only is not None and llm_only is None:
        return DIFFUSION, (
            f"{diffusion_only.value.describe()} ({diffusion_only.location.short()}) is an option of the diffusion "
            "server only (the LLM server would exit on it): sglang serve's model is read as a diffusion model"
        )
    if llm_only is not None and diffusion_only is None:
        return LLM, ""
    return LLM_OR_DIFFUSION, (
        "sglang serve starts the LLM or the diffusion server depending on the model (it reads the model's "
        "files: model_index.json), and the options here do not tell which: only what holds for both is reported"
    )


def _component_option(written: str) -> bool:
    """A word the diffusion server takes although its parser does not declare it:
    ``--<component>-path``, ``-weights-path``, ``-quantization`` and the
    ``--component-*.<name>`` forms (0.5.23 server_args.py:3451-3677; the suffix
    forms from 0.5.13, the others later: the union of the releases, so that an
    option read this way is never reported)."""
    name = written.split("=", 1)[0]
    return name.startswith(("--component-", "--component_")) or name.endswith(("-path", "-quantization"))


def _under_both(llm: list[ArgProblem], diffusion: list[ArgProblem]) -> list[ArgProblem]:
    """The LLM server's problems that the diffusion server's reading has too (the
    same kind at the same word), so that they hold whatever the model is. An
    option unknown to both is kept unless the diffusion server may take it as a
    component option."""
    both = {(problem.kind, problem.location) for problem in diffusion}
    return [
        problem
        for problem in llm
        if (problem.kind, problem.location) in both and not (problem.kind == "unknown" and _component_option(problem.option))
    ]


def _report_ignored_config(parse: _Parse) -> None:
    """``--config=FILE`` and abbreviations such as ``--conf FILE`` reach argparse,
    which stores them, and SGLang never reads that value (SGL206)."""
    for index, role in enumerate(parse.roles):
        parsed = role.option_word
        if parsed is None or parsed.option is None or "--config" not in parsed.option.names:
            continue
        word = parse.words[index]
        if word.config_key is not None:
            continue
        if parsed.explicit is not None:
            message = (
                f"{parsed.written}={parsed.explicit.describe()} is silently ignored by SGLang: it only "
                "merges a config file given as two words, --config FILE"
            )
        elif parsed.written != "--config":
            message = (
                f"{parsed.written} (an abbreviation of --config) is silently ignored by SGLang: it only "
                "merges a config file given as --config FILE"
            )
        else:
            continue
        parse.problems.append(ArgProblem("config-equals", message, word.location, option=parsed.written, joined=parsed.explicit is not None))


class _TableFacts:
    """What every launch parsed against one table shares, computed once per
    table: its argparse view, the default Setting of each dest, and the dests some
    option can store a value other than true into."""

    def __init__(self, table: OptionTable) -> None:
        self.argparse = ArgparseView(table)
        self.defaults: dict[str, Setting] = {}
        # The first non-help option of each dest (argparse gives a dest the default
        # of its first action).
        self.options_by_dest: dict[str, Option] = {}
        for option in table.options:
            if option.action == "help" or option.dest in self.defaults:
                continue
            self.options_by_dest[option.dest] = option
            self.defaults[option.dest] = Setting(option.dest, default_value(option))
        self.resettable = frozenset(o.dest for o in table.options if o.action not in ("store_true", "help"))


# id(table) -> (table, facts). Tables come from load_table's cache, so there are
# a handful; the table is kept to make the id safe to reuse.
_FACTS: dict[int, tuple[OptionTable, _TableFacts]] = {}


def passes_through(token: ArgToken) -> bool:
    """Words the file passes on from whoever runs it, unseen: the script's or an
    uncalled function's ``"$@"``, ``sys.argv[1:]``, an ``$EXTRA_ARGS`` the file
    never sets. Not a command's output or an array the file built and lost."""
    value = token.value
    if value.kind is Kind.SYMBOL:
        name = value.name
        return value.default is None and name.startswith("$") and (name[1:].isidentifier() or name[1:] in ("@", "*"))
    if value.kind is Kind.UNKNOWN and token.spread:
        return value.reason.startswith(('"$@" of', '"$*" of', "$@ of", "$* of")) or value.reason == "sys.argv" or value.reason.startswith("sys.argv")
    return False


def _settable_dests(token: ArgToken, view: ArgparseView) -> tuple[frozenset[str] | None, bool]:
    """The dests a spread a merge of branches made may set: those the option
    words of its ways name (``ArgToken.held``: it holds one way's words);
    None when it may set any (no ways known, a word we cannot see where no
    option takes it as its value, "--", a --config file). And whether a way
    holds an option argparse refuses (unknown or ambiguous): on that way the
    launch fails, and sets nothing (ServerSettings.unchecked)."""
    if not token.spread or token.held is None:
        return None, False
    dests: set[str] = set()
    refused = False
    for way in token.held:
        index = 0
        while index < len(way):
            value = way[index]
            index += 1
            if not value.is_known or value.text == "--":
                return None, refused
            parsed = view.parse_optional(value.text)
            if parsed is None:
                continue  # an argument: SGLang takes none, it sets no option
            if parsed.option is not None and parsed.option.dest == "config":
                return None, refused
            if parsed.option is None:
                refused = True
                if parsed.explicit is None and not parsed.ambiguous:
                    index += 1  # (the word after it, taken as its value as everywhere)
                continue
            dests.add(parsed.option.dest)
            if parsed.explicit is not None or takes_no_value(parsed.option):
                continue
            # Its values: the next word (one we cannot see too: `--x $X`), or
            # for a list every word up to the next option.
            many = parsed.option.nargs not in (None, "?")
            while index < len(way) and not (way[index].is_known and view.parse_optional(way[index].text) is not None):
                index += 1
                if not many:
                    break
    return frozenset(dests), refused


def _passed_name(value: Value) -> str:
    return value.reason if value.kind is Kind.UNKNOWN else value.describe()


def _facts(table: OptionTable) -> _TableFacts:
    entry = _FACTS.get(id(table))
    if entry is None or entry[0] is not table:
        if len(_FACTS) > 64:
            _FACTS.clear()
        entry = _FACTS[id(table)] = (table, _TableFacts(table))
    return entry[1]


def _settings(table: OptionTable, parse: _Parse, config: _ConfigOutcome) -> ServerSettings:
    facts = _facts(table)
    settings = ServerSettings(version=table.version, problems=parse.problems)
    settings.opaque = [parse.words[i].location for i in parse.opaque]
    # The table's defaults are shared by every launch; this launch's own
    # settings go into the first map (a dict of every dest per launch cost
    # megabytes on a tree of launches).
    settings.values = Overlay(facts.defaults)
    for dest, assignment in parse.assignments.items():
        settings.values[dest] = assignment.setting

    # Arguments passed through from the file's caller are assumed to add no
    # options (issue 16, part 5): the options written in the file are judged,
    # and the findings name the pass-through.
    blocking = [i for i in parse.opaque if not passes_through(parse.words[i].token)]
    settings.passed_through = [(parse.words[i].location, _passed_name(parse.words[i].value)) for i in parse.opaque if i not in blocking]

    # Whether a merge of branches made each blocking word (asked once, not per
    # setting), and the dests each may set (None: any).
    merged_at = {i: merge_made(parse.words[i].value) for i in blocking}
    settable: dict[int, frozenset[str] | None] = {}
    for i in blocking:
        dests, refused = _settable_dests(parse.words[i].token, facts.argparse)
        settable[i] = dests
        if refused:
            settings.unchecked.append(parse.words[i].location)

    def overridden_by(index: int, dest: str) -> str | None:
        later = [i for i in blocking if i > index and (settable[i] is None or dest in settable[i])]  # type: ignore[operator]
        if not later:
            return None
        # The last of them decides. When it is a word nobody can see
        # (`*service_args`), that is the reason, on every path; when it is one
        # our exploration merged (items that differ between branches), the
        # merge is what cost the setting its value, and the reason says so
        # (analysis.merges_that_matter reads it). Else the first is named.
        merged = [merged_at[i] for i in later]
        if merged[-1]:
            chosen = later[0] if merged[0] else later[-1]
        else:
            chosen = next(i for i, was_merged in zip(later, merged) if not was_merged)
        word = parse.words[chosen]
        return f"may be overridden by {word.value.describe()} at {word.location.short()}"

    # A store_true flag that was given stays on whatever words follow, unless some
    # option can store another value into its dest (a --no-x, a store_false).
    resettable = facts.resettable
    # Every default is unknown past an opaque word ("$@") or an unseen config file;
    # when there is neither (most launches), only the assigned dests need a look,
    # and those the merged words past the paths' bound may set.
    if config.unseen_reason is not None or any(settable[i] is None for i in blocking):
        dests = list(settings.values)
    else:
        dests = list(dict.fromkeys([*parse.assignments, *(dest for i in blocking for dest in settable[i] or ())]))
    for dest in dests:
        setting = settings.values.get(dest)
        if setting is None:
            continue  # (a dest of no option of this table)
        assignment = parse.assignments.get(dest)
        if assignment is None:
            reason = config.unseen_reason or overridden_by(-1, dest)
        elif dest not in resettable and setting.value == Value.known("true"):
            reason = None
        else:
            reason = overridden_by(assignment.index, dest)
        if reason is not None:
            settings.values[dest] = replace(
                setting, value=Value.unknown(reason), written=setting.written or setting.value
            )
    return settings


# =================================================================================
# Python entries: ServerArgs fields as keyword arguments


def _keyword_settings(keywords: list[KeywordArg], table: OptionTable) -> ServerSettings:
    """``ServerArgs(tp_size=8, enable_dp_attention=True)``: a dataclass, so no
    argparse at all - no abbreviations, no aliases, no type conversion. Each field
    is the dest of its command-line option (up to 0.5.13 some dests were the long
    spelling, ``tensor_parallel_size``: LEGACY_DESTS). ``Engine(**kwargs)`` passes
    its keywords to ServerArgs unchanged (0.5.23 entrypoints/engine.py:288-297).
    A ``**mapping`` we cannot see may set any field not given by name (Python
    rejects a field given twice)."""
    facts = _facts(table)
    settings = ServerSettings(version=table.version)
    options_by_dest = facts.options_by_dest
    # The table's defaults are shared by every launch; this launch's own
    # settings go into the first map (a dict of every dest per launch cost
    # megabytes on a tree of launches).
    settings.values = Overlay(facts.defaults)
    given: set[str] = set()
    for keyword in keywords:
        if keyword.name is None:
            continue
        option = options_by_dest.get(keyword.name) or options_by_dest.get(LEGACY_DESTS.get(keyword.name, ""))
        if option is None:
            # A field without a command-line option, or a misspelt one: Python's
            # TypeError is for the rules to report (issue 5), not a setting.
            continue
        if keyword.value.is_known and keyword.value.text == "None" and is_default_none(facts.defaults[option.dest]):
            # `page_size=None` (often a config dict's entry) is the field's own
            # default: SGLang resolves it at startup as if it were not given.
            given.add(option.dest)
            continue
        value = _keyword_flag_value(keyword.value) if takes_no_value(option) else normalized_value(option, keyword.value)
        settings.values[option.dest] = Setting(option.dest, value, keyword.location, f"{keyword.name}=", keyword.origin)
        given.add(option.dest)
    spreads = [keyword for keyword in keywords if keyword.name is None]
    if spreads:
        reason = f"may be set by {spreads[0].value.describe()} at {spreads[0].location.short()}"
        for dest, setting in list(settings.values.items()):
            if dest not in given:
                settings.values[dest] = replace(setting, value=Value.unknown(reason), written=setting.value)
    return settings


def _keyword_flag_value(value: Value) -> Value:
    """A boolean field as the flag state rules read (``true``/``false``): SGLang
    tests these fields for truth, so ``1`` is on and ``None`` or ``0`` is off."""
    if not value.is_known:
        return value
    text = value.text
    if text in ("true", "false"):
        return value
    if text in ("None", "0", "0.0", ""):
        return Value.known("false")
    return Value.known("true")
