"""Which findings a run reports: rule selection (the command line's over each
file's config) and the SGL900 note finding. A light module: the driver uses it
for runs whose only findings are notes about unreadable files, without loading
the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from msgspec.structs import replace

from sglang_lint.model import Finding, Location, Note, Related, Severity

if TYPE_CHECKING:
    from sglang_lint.config import Config
    from sglang_lint.options import LintOptions

DOCS_URL = "https://github.com/sglang-lint/sglang-lint/blob/main/docs/rules.md#{code}"

# SGL900: the analyzer could not read or analyze a file (reported by the driver,
# never by a rule).
INTERNAL_ERROR_CODE = "SGL900"
INTERNAL_ERROR_NAME = "unreadable-input"
INTERNAL_ERROR_SUMMARY = "A file could not be read or analyzed (binary, bad encoding, syntax error, template); never a crash"


# The first line of a finding stays under this many characters (Rule.finding).
_FIRST_LINE = 120


def _note_lines(text: str) -> tuple[str, str, tuple[str, ...]]:
    """A note's text as (message, help, notes): a long one keeps its first
    clause as the message and the rest as notes; "please report it" is help."""
    help_text = ""
    for ask in ("; please report it", ", please report it"):
        if text.endswith(ask):
            text = text[: -len(ask)]
            help_text = "please report it: https://github.com/sglang-lint/sglang-lint/issues"
    if len(text) < _FIRST_LINE:
        return text, help_text, ()
    head, separator, tail = text.partition("; ")
    notes = [tail] if separator else []
    if len(head) >= _FIRST_LINE:
        notes.insert(0, head)  # whole, as a note; the first line is cut at a word
        cut = head[: _FIRST_LINE - 4]
        if " " in cut:
            cut = cut[: cut.rindex(" ")]
        head = cut.rstrip(" ,;:") + "..."
    return head, help_text, tuple(notes)


def internal_finding(note: Note, reached_from: Sequence[Location] = ()) -> Finding:
    """The SGL900 finding of ``note``. ``reached_from``: the lines of the
    analyzed files whose run led to it (a helper's note, reached from each
    script that sources it); by default the note's own."""
    if not reached_from and note.reached_from is not None:
        reached_from = (note.reached_from,)
    message, help_text, notes = _note_lines(note.message)
    return Finding(
        code=INTERNAL_ERROR_CODE,
        name=INTERNAL_ERROR_NAME,
        message=message,
        help=help_text,
        notes=notes,
        location=Location(note.path, note.line, note.column),
        severity=Severity.WARNING,
        related=tuple(Related(location, "reached from here") for location in reached_from),
        url=DOCS_URL.format(code=INTERNAL_ERROR_CODE.lower()),
    )


def with_config_selection(options: LintOptions) -> LintOptions:
    """The config's select/extend-select/ignore under the command line's, layered
    as ruff layers them: a --select replaces the config's selection (its
    extend-select included); --extend-select (``options.extend_select`` on entry)
    adds to whichever selection is in force; ignores add up."""
    config = options.config
    if config is None or (config.select is None and not config.extend_select and not config.ignore):
        return options
    if options.select is not None:
        # The command line's selection replaces the config's, extend-select included.
        return replace(options, ignore=options.ignore | config.ignore)
    return replace(
        options,
        select=config.select,
        ignore=options.ignore | config.ignore,
        extend_select=config.extend_select | options.extend_select,
    )


def is_selected(code: str, options: LintOptions, opt_in: bool = False) -> bool:
    if any(code.startswith(ignored) for ignored in options.ignore):
        return False
    if opt_in:
        # Only by name (--select SGL901, extend-select) or with --strict; a prefix
        # such as SGL does not switch an opt-in rule on.
        return options.strict or code in options.extend_select or (options.select is not None and code in options.select)
    # With no select, the default set already holds every rule that is not opt-in.
    if options.select is None:
        return True
    return any(code.startswith(chosen) for chosen in options.select) or any(code.startswith(extra) for extra in options.extend_select)


class Selection:
    """The selection of a run whose files are governed by several configs: a rule
    runs when some file's config selects it (:meth:`runs`), and each finding is
    then kept by its own file's config (:meth:`keeps`), per-file-ignores
    included."""

    def __init__(
        self,
        options: LintOptions,
        configs: Mapping[str, Config],
        governing: Iterable[Config],
        opt_in: Mapping[str, bool],
    ) -> None:
        self._options = options
        self._configs = configs
        self._opt_in = opt_in
        self._by_config = {id(config): with_config_selection(replace(options, config=config)) for config in governing}
        if not self._by_config:
            self._by_config[id(None)] = with_config_selection(options)

    def runs(self, code: str, opt_in: bool) -> bool:
        return any(is_selected(code, chosen, opt_in=opt_in) for chosen in self._by_config.values())

    def keeps(self, finding: Finding) -> bool:
        path = finding.location.path
        config = self._configs.get(path, self._options.config)
        chosen = self._by_config.get(id(config))
        if chosen is None:  # a config no analyzed file had (cannot happen via lint_paths)
            chosen = with_config_selection(replace(self._options, config=config))
        if not is_selected(finding.code, chosen, opt_in=self._opt_in.get(finding.code, False)):
            return False
        return config is None or finding.code not in config.ignored_for(path)
