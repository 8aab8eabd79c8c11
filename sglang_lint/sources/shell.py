"""The shell source: SGLang launches in bash/sh scripts, found with tree-sitter-bash.

The script is never run. A small abstract interpreter walks the syntax tree in
order, keeping what it can know about variables (a ``Value`` per word, with the
file position of every character that came from a literal), so that a launch's
argv is what bash would build: quoting, concatenation, ``${VAR:-default}``, arrays,
word splitting of unquoted expansions, ``$((...))``, functions called with
arguments, branches and loops as alternatives. What it cannot know it keeps as a
symbol or as unknown; it never guesses.

Launch detection looks through wrappers (``nohup``, ``env``, ``docker run``,
``bash -c``, ``ssh HOST CMD``, ...) to the entry point (``python -m
sglang.launch_server``, ``sglang serve``, the router). Text in ``echo``/``printf``
arguments and comments is never a launch; a here-document is a script when a shell
reads it (``bash <<EOF``, ``ssh HOST <<EOF``), a Kubernetes manifest when
``kubectl apply -f -`` does (read by the YAML source), data otherwise.

Lines tree-sitter-bash cannot parse are skipped (shell_syntax.parse_script), so
that one of them does not lose the rest of the script.

A file the script ``source``s (or ``.``) is read where it is sourced, when its
path can be told and it lies in the project (sources.project): its functions,
variables and arrays are the script's from there on (issue 19;
shell_walk.ShellAnalyzer._source).

The source is layered, each module importing only those after it:

- ``shell`` (this module): the entry points, ``analyze_shell`` for a script (the
  sources' registry loads it) and ``EmbeddedShell`` for the commands other
  sources build;
- ``shell_walk``: the interpreter over the syntax tree (statements, branches,
  loops, functions);
- ``shell_launches``: launch detection through wrappers, and the notes for
  launches that cannot be followed;
- ``shell_expansion``: word expansion (quoting, parameter expansion, arrays,
  arithmetic);
- ``shell_words`` (the value domain of words: pieces, fields, variables) and
  ``shell_syntax`` (parsing with tree-sitter-bash, node text), independent of
  each other.
"""

from __future__ import annotations

from typing import Callable, Mapping

from msgspec.structs import replace

from sglang_lint.files import FileKind
from sglang_lint.model import BrokenContinuation, EntryPoint, Location, Note, RouterLaunch, ServerLaunch, SourceResult, reached_from
from sglang_lint.sources.paths import Fork, Paths, explore, variants
from sglang_lint.sources.project import FileReader
from sglang_lint.sources.shell_launches import ScriptExit
from sglang_lint.sources.shell_launches import names_an_entry_point as names_an_entry_point  # (for the Markdown source)
from sglang_lint.sources.shell_syntax import parse_script
from sglang_lint.prefilter import may_launch
from sglang_lint.sources.shell_walk import MAX_COMMANDS, CommandBudgetSpent, EmbeddedManifest, ShellAnalyzer
from sglang_lint.sources.shell_words import Env, Seg, Var, Word
from sglang_lint.sources.textpos import FileText


class EmbeddedShell:
    """Shell launch detection for commands that other sources build: an argv list
    (Python's ``subprocess.Popen([...])``) or a shell command string (``shell=True``,
    ``os.system``). Wrappers (``nohup``, ``env``, ``docker run``, ``ssh``, ``bash -c``)
    and entry points are recognised exactly as in scripts, and positions stay those
    of the outer file: every piece of a word carries its own location."""

    def __init__(self, path: str, text: str, env: Mapping[str, str] | None = None) -> None:
        self._shell = ShellAnalyzer(path, text, env)

    @property
    def notes(self) -> list[Note]:
        """The notes of the command strings and argv lists, with one for each
        launch entry point named where it could run and no launch came of it."""
        return self._shell.result.notes + self._shell.drop_notes()

    def dropped(self, location: Location, message: str, call_stack: list[tuple[str, Location, tuple[int, int]]], replace: bool = False) -> None:
        """A launch the caller saw named at ``location`` and could not follow,
        while running ``call_stack`` (``location`` may lie in a module the file
        imports); ``replace``: this message says it better than the one already there."""
        key = (location.path, location.line, location.column)
        if replace or key not in self._shell.dropped:
            where = reached_from(location.path, self._shell.result.path, call_stack)
            self._shell.dropped[key] = Note(location.path, message, location.line, location.column, where)

    def dropped_at(self) -> set[tuple[str, int, int]]:
        """Where notes about launches not followed are, as (path, line, column)."""
        return set(self._shell.dropped)

    @property
    def broken_continuations(self) -> list[BrokenContinuation]:
        """SGL207's facts found in the command strings (``sh -c`` scripts)."""
        return self._shell.result.broken_continuations

    def argv(
        self,
        words: list[Word],
        command_loc: Location,
        call_stack: list[tuple[str, Location, tuple[int, int]]],
        variables: dict[str, Seg] | None = None,
    ) -> tuple[list[ServerLaunch], list[RouterLaunch]]:
        """The launch an argv list starts, if any (words as the program sees them).
        ``variables`` are environment variables a ``sh -c`` script among them sees
        (a Kubernetes container's ``env``)."""
        env = Env()
        for name, seg in (variables or {}).items():
            env.globals[name] = Var(scalar=(seg,), defined_at=seg.loc if seg.loc.path else None)
        return self._run(lambda: self._shell._detect_launch(list(words), command_loc, env, 0), call_stack)

    def script(
        self, word: Word, command_loc: Location, call_stack: list[tuple[str, Location, tuple[int, int]]]
    ) -> tuple[list[ServerLaunch], list[RouterLaunch]]:
        """The launches of a shell command string; pieces that are not known text
        stand for shell variables holding their value."""
        return self._run(lambda: self._shell._nested_script(word, command_loc, Env(), 0), call_stack)

    def record(
        self, entry: EntryPoint, words: list[Word], command_loc: Location, call_stack: list[tuple[str, Location, tuple[int, int]]]
    ) -> tuple[list[ServerLaunch], list[RouterLaunch]]:
        """A launch whose argv the caller built (a test helper's command line):
        ``words[0]`` stands for the entry point and gives the launch's location."""
        return self._run(lambda: self._shell._record(entry, list(words), 0, 1, command_loc), call_stack)

    def _run(self, action, call_stack) -> tuple[list[ServerLaunch], list[RouterLaunch]]:
        result = self._shell.result
        servers, routers = len(result.servers), len(result.routers)
        saved = self._shell.call_stack
        self._shell.call_stack = list(call_stack)
        try:
            action()
        except ScriptExit:
            pass
        except CommandBudgetSpent:
            message = f"stopped after {MAX_COMMANDS} shell commands in command strings"
            if not any(note.message == message for note in result.notes):
                result.notes.append(Note(self._shell.path, message))
        finally:
            self._shell.call_stack = saved
        return result.servers[servers:], result.routers[routers:]


def analyze_shell(
    path: str,
    text: str,
    env: Mapping[str, str] | None = None,
    manifests: ManifestSource | None = None,
    files: FileReader | None = None,
    interactive: bool = False,
) -> SourceResult:
    """Extract the launches of one shell script. Never raises for any text.
    ``env``: values for environment variables the script reads without setting.
    ``interactive``: the commands are typed into a shell (a runbook's blocks,
    the Markdown source), which expands aliases; a script's shell does not.

    The script is interpreted once per path through the branches it does not
    decide that make a difference (paths.py), and launches whose argv differs
    between paths come out as variants.

    Kubernetes manifests the script gives ``kubectl apply -f -`` (or writes to a
    ``.yaml`` file) in a here-document are read by ``manifests``, by default the
    YAML source of the sources' registry (this module cannot import it: the YAML
    source imports this one), and their launches, notes and comments join the
    script's with their positions in the script.

    ``files`` reads the files the script ``source``s (sources.project; None: they
    are not followed): their statements run where the script sources them, and
    launches in their functions are located where they are written, with the
    script's call sites as their context (shell_walk.ShellAnalyzer._source)."""
    data = FileText(text).data
    parsed = parse_script(data)
    # The text the interpreter reads: the lines tree-sitter-bash cannot parse are
    # blank in it (shell_syntax.parse_script); the result keeps the file's lines.
    script = text if parsed.data == data else parsed.data.decode("utf-8", "surrogatepass")
    names_entry = names_an_entry_point(text, env)
    written = text.split("\n") if script is not text else None

    def run(paths: Paths) -> tuple[SourceResult, int]:
        analyzer = ShellAnalyzer(path, script, env, paths, parsed, files, names_entry, interactive)
        analyzer.written_lines = written
        try:
            result = analyzer.run()
        except Fork as fork:
            fork.cost = analyzer.commands_seen
            raise
        if written is not None:
            result.lines = written
        for manifest in analyzer.manifests:
            _merge_manifest(result, manifest, path, env, manifests)
        return result, analyzer.commands_seen

    return variants(explore(run, learned=files.explored(path, env) if files is not None else None))


# A source that reads a YAML text: (path, text, env) -> SourceResult.
ManifestSource = Callable[[str, str, "Mapping[str, str] | None"], SourceResult]


def _merge_manifest(result: SourceResult, manifest: EmbeddedManifest, path: str, env: Mapping[str, str] | None, source: ManifestSource | None) -> None:
    """Read ``manifest`` with the YAML source and add what it found to
    ``result``, every position moved to where its character is in the script."""
    if not may_launch("yaml", manifest.text, env):
        return
    if source is None:
        from sglang_lint.sources import source_for  # the registry: above this module

        source = source_for(FileKind.YAML)
    part = source(path, manifest.text, env)
    place = _ManifestPlaces(manifest, path)
    for server in part.servers:
        result.servers.append(place.launch(server))
    for router in part.routers:
        result.routers.append(place.launch(router))
    for note in part.notes:
        line, column = place.at(note.line, note.column)
        result.notes.append(Note(note.path, f"{note.message} (in the manifest given to `{manifest.program}` at line {manifest.location.line})", line, column))
    for line, comment in part.comments.items():
        written = manifest.text.split("\n")[line - 1] if line >= 1 else ""
        result.comments.setdefault(place.at(line, max(1, len(written) - len(comment) + 1))[0], comment)
    for comment_loc, words_loc in part.continuation_breaks:
        result.continuation_breaks.append((place.loc(comment_loc), place.loc(words_loc)))
    for broken in part.broken_continuations:
        result.broken_continuations.append(replace(broken, location=place.loc(broken.location), orphaned=place.loc(broken.orphaned)))
    for hint in part.version_hints:  # the manifest's images name the release its launches are judged by
        lines = hint.lines if hint.lines == (0, 0) else (place.at(hint.lines[0], 1)[0], place.at(hint.lines[1], 1)[0])
        result.version_hints.append(replace(hint, location=place.loc(hint.location), lines=lines))


class _ManifestPlaces:
    """Positions in a manifest's text (1-based line and code-point column) mapped
    to the script: the position of the character there, or one column after the
    last character for the end of the text."""

    def __init__(self, manifest: EmbeddedManifest, path: str) -> None:
        self.positions = manifest.positions
        self.path = path
        self.line_starts = [0]
        for index, char in enumerate(manifest.text):
            if char == "\n":
                self.line_starts.append(index + 1)

    def at(self, line: int, column: int) -> tuple[int, int]:
        if line < 1:
            return self.positions[0]
        index = self.line_starts[min(line, len(self.line_starts)) - 1] + max(column, 1) - 1
        if index < len(self.positions):
            return self.positions[index]
        last_line, last_column = self.positions[-1]
        return last_line, last_column + 1

    def loc(self, location: Location | None) -> Location | None:
        if location is None or location.path != self.path:
            return location
        line, column = self.at(location.line, location.column)
        end_line, end_column = self.at(location.end_line, location.end_column)
        return Location(self.path, line, column, end_line, end_column)

    def launch(self, launch):
        ranges = tuple((self.at(first, 1)[0], self.at(last, 1)[0]) for first, last in launch.line_ranges)
        changes = dict(
            location=self.loc(launch.location),
            args=[replace(token, location=self.loc(token.location), origin=self.loc(token.origin)) for token in launch.args],
            line_ranges=ranges,
            path_condition=tuple(replace(step, location=self.loc(step.location)) for step in launch.path_condition),
        )
        if isinstance(launch, ServerLaunch):
            changes["keywords"] = tuple(replace(keyword, location=self.loc(keyword.location), origin=self.loc(keyword.origin)) for keyword in launch.keywords)
        return replace(launch, **changes)
