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

from typing import Callable, Iterable

from msgspec.structs import replace

from sglang_lint.catalog.argparse_emulation import _Parse
from sglang_lint.catalog.argv_words import ArgparseView, _Word, classify
from sglang_lint.catalog.config_merge import ConfigFile, _ConfigOutcome, merge_config
from sglang_lint.catalog.option_values import default_value, is_default_none, normalized_value, takes_no_value
from sglang_lint.catalog.settings import LEGACY_DESTS, ArgProblem, Overlay, ServerSettings, Setting
from sglang_lint.catalog.tables import Option, OptionTable, version_at_least
from sglang_lint.model import ArgToken, EntryPoint, KeywordArg, Kind, Location, Value

__all__ = ["parse_server_args"]

# =================================================================================
# SGLang's argv rewriting before argparse: `sglang serve` (the --config merge is
# config_merge's)


def _serve_words(words: list[_Word], version: str, problems: list[ArgProblem]) -> list[_Word]:
    """What ``sglang serve`` hands to ``prepare_server_args``.

    ``cli/serve.py`` (0.5.23 L30-66): ``--model-type X`` / ``--model-type=X`` are
    removed (0.5.10+, exact spelling only), then a first word that does not start
    with "-" becomes ``--model-path WORD`` (0.5.16+; before, argparse rejects it).
    """
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
                index += 1 if index + 1 < len(words) and words[index + 1].token.spread else 2
                continue
            if word.value.literal_prefix().startswith("--model-type=") and not word.token.spread:
                index += 1
                continue
            kept.append(word)
            index += 1
        words = kept
    if version_at_least(version, (0, 5, 16)) and words:
        first = words[0]
        if not first.token.spread and _surely_not_dash(first.value):
            marker = ArgToken(Value.known("--model-path"), first.location)
            return [_Word(marker, spelling="sglang serve"), *words]
    return words


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
# Entry point


def parse_server_args(
    tokens: list[ArgToken],
    table: OptionTable,
    *,
    entry: EntryPoint = EntryPoint.LAUNCH_SERVER,
    read_config: Callable[[str, Location], ConfigFile | None] | None = None,
    launch_location: Location | None = None,
    keywords: Iterable[KeywordArg] = (),
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
    """
    if entry in (EntryPoint.ENGINE, EntryPoint.SERVER_ARGS):
        return _keyword_settings(list(keywords), table)
    problems: list[ArgProblem] = []
    words = [_Word(token) for token in tokens]
    if entry is EntryPoint.SGLANG_SERVE:
        words = _serve_words(words, table.version, problems)
    words, config = merge_config(words, table, read_config, problems)

    argparse_view = _facts(table).argparse
    roles = [classify(word, argparse_view) for word in words]
    parse = _Parse(table, words, roles, problems)
    parse.run()
    _report_ignored_config(parse)
    return _settings(table, parse, config)


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
        parse.problems.append(ArgProblem("config-equals", message, word.location, option=parsed.written))


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

    def overridden_by(index: int) -> str | None:
        later = [i for i in blocking if i > index]
        if not later:
            return None
        word = parse.words[later[0]]
        return f"may be overridden by {word.value.describe()} at {word.location.short()}"

    # A store_true flag that was given stays on whatever words follow, unless some
    # option can store another value into its dest (a --no-x, a store_false).
    resettable = facts.resettable
    # Every default is unknown past an opaque word ("$@") or an unseen config file;
    # when there is neither (most launches), only the assigned dests need a look.
    unassigned_reason = config.unseen_reason or overridden_by(-1)
    dests = list(settings.values) if unassigned_reason is not None else list(parse.assignments)
    for dest in dests:
        setting = settings.values[dest]
        assignment = parse.assignments.get(dest)
        if assignment is None:
            reason = unassigned_reason
        elif dest not in resettable and setting.value == Value.known("true"):
            reason = None
        else:
            reason = overridden_by(assignment.index)
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
