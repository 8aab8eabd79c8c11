"""Launch detection in the shell source: which commands start SGLang.

``LaunchDetection``, the layer of the shell interpreter between word expansion
(shell_expansion) and the statement walk (shell_walk), looks through a command's
words past wrappers (``nohup``, ``env``, ``docker run``, ``ssh HOST CMD``, ``bash
-c``, ...) to an entry point (``python -m sglang.launch_server``, ``sglang
serve``, the router) and records a ServerLaunch or RouterLaunch. Where a launch
entry point is named where it could run and no launch can be followed, it keeps
a note (issue 16: never drop a launch silently). It also finds the comment lines
and broken backslashes that cut a launch's command short (SGL205, SGL207).

The command strings of ``bash -c``, ``ssh`` and ``eval`` are scripts of their
own: they go back to the interpreter through ``_walk``, which
shell_walk.ShellAnalyzer implements (this module does not import it).
"""

from __future__ import annotations

import os
import re
from typing import Mapping

from sglang_lint.model import ArgToken, BrokenContinuation, EntryPoint, Kind, Location, Note, RouterLaunch, ServerLaunch, Value, merge_made, reached_from
from sglang_lint.sources.paths import Paths, decision, imprecise_launch, refined_launch
from sglang_lint.sources.paths import subject as path_subject
from sglang_lint.sources.shell_expansion import STAND_IN, STAND_IN_PREFIX, WordExpansion
from sglang_lint.sources.shell_syntax import comment_nodes, inside_text, node_text, parse_bash
from sglang_lint.sources.shell_words import NOWHERE, Env, Seg, SpreadSeg, Var, Word, default_fields, holds_words, is_identifier, spread_word, word_value
from sglang_lint.sources.textpos import EmbeddedText
from sglang_lint.sources.wrappers import APPTAINER_CLIS, DOCKER_CLIS, PYTHON_NAME, SSH_VALUE_OPTIONS, UNKNOWN_REST, WRAPPERS, apptainer_command_start, docker_command_start
from sglang_lint.version_facts import image_hints, install_pins

# Function calls and `bash -c` strings within each other.
MAX_CALL_DEPTH = 12


SHELLS = {"bash", "sh", "dash", "zsh", "ksh"}
# Commands whose arguments are data, never a command to run.
DATA_COMMANDS = {"echo", "printf", ":", "true", "false", "test", "[", "[[", "cat", "read", "logger", "tee"}


_ENTRY_MODULES = {
    "sglang.launch_server": EntryPoint.LAUNCH_SERVER,
    "dynamo.sglang": EntryPoint.DYNAMO_SGLANG,
    # Dynamo's deprecated names of the same worker until v0.5.0: each
    # `__main__.py` calls `dynamo.sglang.main.main` (ai-dynamo/dynamo as of
    # 2025-08, components/backends/sglang/src/dynamo/sglang/worker/__main__.py
    # and decode_worker/__main__.py). Public launch scripts still run them.
    "dynamo.sglang.worker": EntryPoint.DYNAMO_SGLANG,
    "dynamo.sglang.decode_worker": EntryPoint.DYNAMO_SGLANG,
    "sglang_router.launch_router": EntryPoint.ROUTER,
}
# The diffusion server's own CLI (0.5.23 multimodal_gen/runtime/entrypoints/cli/main.py:
# `serve` and `generate` subcommands); `serve` is a launch (EntryPoint.DIFFUSION_SERVE).
DIFFUSION_CLI = "sglang.multimodal_gen.runtime.entrypoints.cli.main"
_ROUTER_ENTRIES = {EntryPoint.ROUTER, EntryPoint.ROUTER_BINARY}
# A launch entry point named in a piece of text that may run (a word of a command,
# the value of a variable a command expands): the module of `python -m`, or a CLI.
_ENTRY_MENTION = re.compile(r"(?<![\w.-])(?:sglang\.launch_server|dynamo\.sglang|sglang_router\.launch_router|sglang-router|sglang[ \t]+serve)(?![\w-])")


def names_an_entry_point(text: str, env: Mapping[str, str] | None = None) -> bool:
    """Whether ``text`` names a launch entry point the shell source recognises
    (a module of ``python -m``, ``sglang serve``, the router, the diffusion
    CLI), not merely the word sglang (``Backend: sglang-oai-chat`` in a
    benchmark's output); or a value of ``env`` (the config's) does, which the
    text may run (``python -m $ENTRY``)."""
    return any(_ENTRY_MENTION.search(value) is not None or DIFFUSION_CLI in value for value in (text, *(env or {}).values()))


# A key a launch is written under in a manifest or compose file (`command:`,
# `args:`, `entrypoint:`, also as a list item): a manifest without one, or an
# entry point named in its text, starts no server (an srt-slurm cluster config
# whose account defaults to "sglang" does not).
MANIFEST_LAUNCH_KEY = re.compile(r"(?m)^[ \t-]*[\"']?(?:command|args|entrypoint)[\"']?[ \t]*:")


# Commands that run a command string given as an argument, which sglang-lint
# does not read (`tmux new -d "python -m ..."`, `screen -dmS p sh -c "..."`).
_COMMAND_STRING_RUNNERS = {"tmux", "screen"}
# Words that make a command ask for help, not start a server.
_HELP_WORDS = {"-h", "--help", "--version"}
# The words that make argparse print the usage and exit (SGLang's parsers,
# the router's and the diffusion server's have no --version).
_ASKS_FOR_HELP = (Value.known("-h"), Value.known("--help"))


class ScriptExit(Exception):
    """`exit`: the script (or the subshell, `bash -c` string) ends here; the
    branch whose body exits is a path that launches nothing after it."""


_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", re.DOTALL)


def _held_assignments(seg: Seg) -> list[tuple[str, Value]] | None:
    """The variables a merge's words set when each of its ways (``held``, or
    the texts of alternatives) is assignment words only (or none), each with
    its value: one of the ways' values, unknown where a way does not set it.
    None for any other words."""
    held = getattr(seg, "held", None) if holds_words(seg) else None
    if held is None and seg.value.kind is Kind.ALTERNATIVES:
        # (texts each way set: `""` or `"A=1 B=2"`, a merge of known texts)
        held = tuple(tuple(map(Value.known, text.split())) for text in seg.value.alternatives)
    if held is None:
        return None
    ways: list[dict[str, Value]] = []
    for way in held:
        assigned: dict[str, Value] = {}
        for value in way:
            first = value.parts[0] if value.kind is Kind.CONCAT else value
            match = _ASSIGNMENT.fullmatch(first.text) if first.is_known else None
            if match is None:
                return None
            rest = Value.known(match.group(2))
            assigned[match.group(1)] = Value.concat([rest, *value.parts[1:]]) if value.kind is Kind.CONCAT else rest
        ways.append(assigned)
    names = dict.fromkeys(name for assigned in ways for name in assigned)
    return [
        (name, Value.one_of([assigned[name] for assigned in ways]) if all(name in assigned for assigned in ways) else Value.unknown(f"{name} is set on some branches only"))
        for name in names
    ]


class LaunchDetection(WordExpansion):
    """The launches among the commands the interpreter runs (see the module's
    docstring)."""

    def __init__(self, path: str, text: str, env: Mapping[str, str] | None = None, paths: Paths | None = None) -> None:
        super().__init__(path, text, env, paths)
        # Decisions some ways of which end the script (`*) exit 1 ;;`): a launch
        # that reads what they touched runs on the other ways only.
        self.exit_keys: set[str] = set()
        self.call_depth = 0
        # Launch line ranges of the call sites currently active (outermost first).
        # A `source`d file being read is an entry too, named SOURCED + its path.
        self.call_stack: list[tuple[str, Location, tuple[int, int]]] = []
        # Never drop a launch silently: where a launch entry point was written into
        # a variable (name -> places), where such a variable stopped being known
        # (name -> (place, what happened)), the commands being run (their syntax:
        # which variables they expand), the lines launches came from, and the notes
        # for mentions that yielded no launch ((line, column) -> note).
        self.name_mentions: dict[str, list[Location]] = {}
        self.name_lost: dict[str, tuple[Location, str]] = {}
        self.running: list[tuple[object, object]] = []
        # (path, line, a router's): a sourced file's lines are not the script's,
        # and a router found on a line says nothing of a server lost there (a
        # helper that evals every command it is handed: Mooncake's test
        # scripts' router came out of the line their servers were lost on,
        # and the servers' note was dropped with it).
        self.launch_lines: set[tuple[str, int, bool]] = set()
        # (keyed by path, line and column: the mention may lie in a helper)
        self.dropped: dict[tuple[str, int, int], Note] = {}
        self.dropped_routers: set[tuple[str, int, int]] = set()  # the keys of `dropped` whose launch is a router's
        self.branch_depth = 0  # inside a branch or loop body: assignments add up
        # Inside a script that runs on another host (`ssh HOST "..."`, a
        # here-document given to ssh): its files are that host's, not ours.
        self.remote_depth = 0

    def _walk(self, node, text, env: Env, depth: int) -> None:
        """Run the statements of ``node``: the interpreter (shell_walk.ShellAnalyzer)
        does, for the command strings of ``bash -c``, ``ssh`` and ``eval``."""
        raise NotImplementedError

    def _image_hint(self, image: Value, word: Word, command_loc: Location) -> None:
        """The release the image of a container's command names (``word``,
        read as ``image``), a version fact for the launches on its lines."""
        self.result.version_hints.extend(image_hints(image, self._token(word, command_loc).location, (command_loc.line, max(command_loc.line, command_loc.end_line))))

    def _reached_from(self, path: str) -> Location | None:
        return reached_from(path, self.result.path, self.call_stack)

    # -- launches that could not be followed ---------------------------------------
    def drop_notes(self) -> list[Note]:
        """A note for each place a launch entry point is named where it could run
        and no launch came of it (issue 16: never drop a launch silently)."""
        return [note for key, note in self.dropped.items() if (note.path, note.line, key in self.dropped_routers) not in self.launch_lines]

    def _mentions(self, words: list[Word]) -> list[Location]:
        return entry_mentions(self.path, words)

    def _remember_mentions(self, name: str, node, text, words: list[Word], appending: bool) -> None:
        """An assignment to ``name``: keep where it names a launch entry point, its
        own text or a variable it copies that did (a plain assignment outside any
        branch that names none forgets the earlier ones)."""
        mentions = self._mentions(words) if b"sglang" in text.data[node.start_byte : node.end_byte] else []
        if self.name_mentions:
            # (its own among them: `CMD="${CMD} > log 2>&1 &"` keeps what CMD
            # named; before, it forgot it, and the launch a later merge made
            # unreadable was lost without a note)
            for used in _expanded_names(node, text):
                mentions.extend(self.name_mentions.get(used, ()))
        if mentions:
            known = self.name_mentions.setdefault(name, [])
            known.extend(m for m in mentions if m not in known)
        elif not appending and not self.branch_depth:
            self.name_mentions.pop(name, None)
            self.name_lost.pop(name, None)

    def _empty_on_this_path(self, words: list[Word], index: int, value: Value, command_loc: Location) -> bool:
        """Whether the command word ``words[index]`` is a variable of the
        environment, unquoted, that is empty on this path, before words that
        name a launch (`$SDMA_ENV python3 -m sglang.launch_server ...`,
        InferenceX's AMD PD servers, where the file sets it on one branch
        only): bash skips an empty unquoted expansion, and the command is the
        words after it. What it holds when it is not empty (settings, a
        wrapper) the file does not say: that path's launch is not followed, as
        before. A decision of the path, as `[ -n "$X" ]` (paths.py)."""
        word = words[index]
        if value.kind is not Kind.SYMBOL or value.default is not None or len(word) != 1 or not word[0].split:
            return False
        following = word_value(words[index + 1]) if index + 1 < len(words) else None
        if following is None or (following.is_known and following.text.startswith("-")):
            return False  # `$PYTHON -m sglang.launch_server`: a program's options follow it
        if not entry_mentions(self.path, words[index + 1 :]):
            return False
        symbol = path_subject(value)
        if symbol is None:
            return False
        key = f"nonempty\0{symbol}"
        taken = self._implied(key)
        if taken is None:
            where = word[0].loc if word[0].loc.path else command_loc
            self.paths.differs(*decision(key, (f"{symbol} is non-empty", f"{symbol} is empty"), where), where, launched=True)
            return False
        return not taken

    def _dropped_launch(self, words: list[Word], index: int, command_loc: Location, how: str) -> None:
        """The command ``words[index:]`` may start a launch but cannot be followed
        (``how``: "word", its command word is not known; "module", the module of
        ``python -m`` is not; "eval"; "wrapper", a command not looked through
        runs it). When it names a launch entry point,
        in its own words or in a variable it expands, each such place gets a note
        (kept only if no launch comes from that line)."""
        rest = words[index:]
        if any(word_value(word).is_known and word_value(word).text in _HELP_WORDS for word in rest):
            return
        self.paths.launch(True, self._depends(name for reads in self.reads for name in reads))
        names: set[str] = set()
        for node, text in self.running:
            names.update(_expanded_names(node, text))
        from_names = [(name, loc) for name in sorted(names) for loc in self.name_mentions.get(name, ())]
        # (the ways a merge's words hold name the entry point where a variable
        # the command expands was set: said there, once)
        mentions = entry_mentions(self.path, rest, held=not from_names)
        if not mentions and not from_names:
            return
        # (a router's command, when the words that name an entry name a router's only)
        router = _names_only_a_router(rest)
        run_at = command_loc.line
        if how == "image":
            # (the container CLI whose image word it is: the last one before it)
            cli = next((value.text for value in map(word_value, reversed(words[:index])) if value.is_known and value.text in (*DOCKER_CLIS, *APPTAINER_CLIS)), "docker")
            container = f"{cli} exec" if cli in APPTAINER_CLIS else f"{cli} run"
        if how in ("word", "module", "image"):
            subject, what = self._unknown_command(words[index], names)
        for location in mentions + [loc for _, loc in from_names]:
            elsewhere = location.line != run_at
            if how == "eval":
                message = f"line {run_at} runs it through `eval`" if elsewhere else "it runs through `eval`"
                message += ", which sglang-lint does not follow"
            elif how == "image":
                message = f"`{container}` takes {subject} for the image, {what}"
            elif how == "wrapper":
                message = f"it runs under `{word_value(words[index]).describe()}`, a command sglang-lint does not look through"
            elif how == "module":
                message = f"line {run_at} runs the module {subject}, {what}" if elsewhere else f"its module {subject} is {what}"
            else:
                message = f"line {run_at} runs {subject}, {what}" if elsewhere else f"its command {subject} is {what}"
            key = (location.path, location.line, location.column)
            if key not in self.dropped:
                self.dropped[key] = self._note("launch not analyzed: " + message, location.line, location.column, location.path)
                if router:
                    self.dropped_routers.add(key)

    def _unknown_command(self, word: Word, names: set[str]) -> tuple[str, str]:
        """The command word ``word`` that is not known, as written, and what it is
        (a noun phrase), as precisely as we can tell."""
        value = word_value(word)
        written = self._written(word)
        subject = f"`{written}`" if written else f"`{value.describe()[:40]}`"
        if value.kind is Kind.SYMBOL:
            symbol = path_subject(value)
            # (on the path where it is empty the words after it were the
            # command: _empty_on_this_path)
            empty = "; where it is empty, the command after it is analyzed" if symbol and self._implied(f"nonempty\0{symbol}") else ""
            if written and value.name.lstrip("$") not in written:
                return subject, f"`{value.describe()[:40]}`, which this file never sets{empty}"
            return subject, f"a variable this file never sets{empty}"
        reason = value.reason if value.kind is Kind.UNKNOWN else ""
        for seg in word:
            if seg.value.kind is Kind.UNKNOWN:
                reason = seg.value.reason
                break
        lost = [name for name in sorted(names) if name in self.name_lost]
        named = [name for name in lost if f"${name}" in reason or f"{{{name}[" in reason]
        if named or len(lost) == 1:
            where, what = self.name_lost[(named or lost)[0]]
            return subject, f"{what} (line {where.line})"
        if reason.startswith("output of "):
            return subject, "the output of a command substitution"
        if reason.startswith("the result of "):
            return subject, "the result of a call sglang-lint cannot see"
        if reason.endswith("differs between branches"):
            return subject, "a variable that differs between branches"
        if reason.endswith("differ between branches"):
            return subject, "a value whose words differ between branches"
        if reason.startswith("read at "):
            return subject, f"a value {reason}"
        if value.kind is Kind.ALTERNATIVES:
            return subject, "one of several commands"
        return subject, "a value sglang-lint cannot follow" + (f" ({reason[:40]})" if reason else "")

    def _lines_of(self, path: str) -> list[str]:
        """The lines of the script, or of the sourced file being read."""
        if path == self.result.path:
            return self.result.lines
        return self.current_lines if path == self.path else []

    def _written(self, word: Word) -> str | None:
        """The word as written in the file, when it lies on one line of it."""
        located = [seg.loc for seg in word if seg.loc.path and seg.loc is not NOWHERE]
        if not located:
            return None
        loc = located[0]
        lines = self._lines_of(loc.path)
        if loc.end_line != loc.line or not 1 <= loc.line <= len(lines):
            return None
        written = lines[loc.line - 1][loc.column - 1 : loc.end_column - 1]
        if len(written) < 2 and word[0].origin is not None and word[0].origin.line == word[0].origin.end_line:
            # A placeholder for the outer command's word in a `bash -c` string.
            origin = word[0].origin
            lines = self._lines_of(origin.path)
            written = lines[origin.line - 1][origin.column - 1 : origin.end_column - 1] if 1 <= origin.line <= len(lines) else ""
        if written.count("{") != written.count("}"):
            written = written.strip("{}")  # an f-string's `{name}` piece
        return written if 1 < len(written) <= 40 and "`" not in written else None

    # -- launches ---------------------------------------------------------------------
    def _detect_launch(self, words: list[Word], command_loc: Location, env: Env, depth: int) -> None:
        index = 0
        # The last wrapper that takes no NAME=value settings (numactl, nohup,
        # srun, ...), and the first such word it was handed for its program.
        wrapper: str | None = None
        misread: tuple[str, Word] | None = None

        def record(entry: EntryPoint, start: int, args_from: int) -> None:
            self._record(entry, words, start, args_from, command_loc)
            if misread is not None:
                self._misread_setting(*misread, command_loc)

        def python_module(start: int, module: str | None, after: int) -> None:
            """`python -m MODULE` (or `uv run -m MODULE`) at ``words[start]``,
            its arguments from ``after``."""
            if module in _ENTRY_MODULES:
                record(_ENTRY_MODULES[module], start, after)
            elif module == DIFFUSION_CLI and after < len(words) and word_value(words[after]) == Value.known("serve"):
                # Its other subcommand, `generate`, runs one generation: no server.
                record(EntryPoint.DIFFUSION_SERVE, start, after + 1)
            elif module is None and after > start + 1 and after <= len(words) and word_value(words[after - 1]).kind is not Kind.KNOWN:
                self._dropped_launch(words, after - 1, command_loc, "module")  # `python -m $MODULE`
            elif module in _UNMODELED_MODULES:
                # The router and its data-parallel workers in one command
                # (SGLang's router docs, "Co-launch Router and Workers"): their
                # arguments share one parser we have no table of. The mini load
                # balancer of older releases (`--prefill URL...` takes a list, not
                # the router's URL and bootstrap port): read as the router, its
                # second prefill would be a bootstrap port.
                key = (command_loc.path, command_loc.line, command_loc.column)
                if key not in self.dropped:
                    self.dropped[key] = self._note(
                        f"launch not analyzed: `{module}` {_UNMODELED_MODULES[module]}", command_loc.line, command_loc.column, command_loc.path
                    )

        while index < len(words):
            value = word_value(words[index])
            if index and wrapper is not None and _is_env_assignment(value):
                misread = misread or (wrapper, words[index])
                index += 1
                continue
            fields = default_fields(words[index])
            if fields is not None:
                # `LAUNCH_CMD="${LAUNCH_CMD:-sglang serve}"` ... `$LAUNCH_CMD
                # --model-path ...`: the default counts as the value, and bash
                # splits it into its words (as one word, "sglang serve" named
                # no command, and the launch was lost without a note).
                words = [*words[:index], *fields, *words[index + 1 :]]
                continue
            name = _command_name(words[index], value)
            if name is None and self._empty_on_this_path(words, index, value, command_loc):
                index += 1  # `$X python3 -m ...` where $X is empty: no word at all
                continue
            if name is None:
                self._dropped_launch(words, index, command_loc, "word")
                return
            if name == "" and not any(seg.quoted for seg in words[index]):
                # `${LAUNCH_PREFIX:-} python3 -m sglang.launch_server`: an unquoted
                # expansion that is empty (its default, as defaults count) is no
                # word at all; the command is the next one.
                index += 1
                continue
            if name == "eval":
                self._dropped_launch(words, index + 1, command_loc, "eval")
                return
            if name in DATA_COMMANDS or name in ("source", ".", "export", "alias"):
                return
            self.result.version_hints.extend(install_pins(name, words[index + 1 :], word_value, command_loc))  # pip install sglang==X (before the wrappers: `uv pip`)
            if name in WRAPPERS:
                # (bash's own `time`, first in the command, times the simple
                # command after it, settings included)
                wrapper = None if WRAPPERS[name].assignments or (name == "time" and index == 0) else name
                index = WRAPPERS[name].skip(words, index, word_value)
                option = word_value(words[index]) if index < len(words) else None
                if option is not None and option.is_known and option.text in WRAPPERS[name].module_options:
                    # `uv run -m sglang.launch_server ...`: python -m, the module the next word
                    module = word_value(words[index + 1]) if index + 1 < len(words) else None
                    python_module(index, module.text if module is not None and module.is_known else None, min(index + 2, len(words)))
                    return
                continue
            if _is_env_assignment(value):
                index += 1
                continue
            if name in SHELLS:
                self._shell_c(words, index, command_loc, env, depth)
                return
            if name == "ssh":
                self._ssh(words, index, command_loc, env, depth)
                return
            if name in DOCKER_CLIS:
                # `docker exec -d sglang bash -c "python -m sglang.launch_server
                # ..."`: scripts start their servers in a container they started
                # before (a running container's name names no release).
                texts = _docker_texts(words)
                exec_index = docker_command_start(texts, index, "exec")
                if exec_index >= 0:
                    index = exec_index
                    continue
                entrypoint: list[tuple[int, int]] = []
                index = docker_command_start(texts, index, "run", entrypoint)
                if index < 0:
                    return
                if texts[index - 1] is None and merge_made(word_value(words[index - 1])):
                    # What was taken for the image is a merge of branches (an
                    # options array one branch grew): where the options end is
                    # not known; the paths fork on it, as on a command word.
                    self._dropped_launch(words, index - 1, command_loc, "image")
                    return
                at, cut = entrypoint[-1] if entrypoint else (-1, 0)
                if at >= 0 and texts[at] != "" and texts[at] != "--entrypoint=":  # (`--entrypoint ""` is the image's own)
                    # `--entrypoint python3 IMAGE -m sglang.launch_server ...`:
                    # the command's words are the entrypoint's arguments (an
                    # image whose entrypoint is `true` needs it; the launch was
                    # lost without a note).
                    words = [*words[:index], _entrypoint_word(words[at], cut), *words[index:]]
                self._image_hint(word_value(words[index - 1]), words[index - 1], command_loc)
                continue
            if name in APPTAINER_CLIS:
                # HPC clusters run their servers in an Apptainer (Singularity)
                # image: `singularity exec --nv -B /work IMAGE python3 -m ...`.
                index = apptainer_command_start(_docker_texts(words), index)
                if index < 0:
                    return
                if merge_made(word_value(words[index - 1])):
                    # (as for docker: an options array one branch grew, and
                    # where the options end is not known; the paths fork on it)
                    self._dropped_launch(words, index - 1, command_loc, "image")
                    return
                image = word_value(words[index - 1])
                if image.is_known and image.text.startswith("docker://"):
                    image = Value.known(image.text[len("docker://") :])
                self._image_hint(image, words[index - 1], command_loc)
                continue
            if name == "sglang" and index + 1 < len(words) and word_value(words[index + 1]) == Value.known("serve"):
                record(EntryPoint.SGLANG_SERVE, index, index + 2)
                return
            if name == "sglang-router":
                start = index + 1
                if start < len(words) and word_value(words[start]) == Value.known("launch"):
                    start += 1
                record(EntryPoint.ROUTER_BINARY, index, start)
                return
            if PYTHON_NAME.fullmatch(name):
                python_module(index, *_python_module(words, index + 1))
                return
            if _runs_python_module(words, index + 1) or (name in _COMMAND_STRING_RUNNERS and self._mentions(words[index + 1 :])):
                self._dropped_launch(words, index, command_loc, "wrapper")
            return

    def _misread_setting(self, wrapper: str, word: Word, command_loc: Location) -> None:
        """A launch under ``wrapper`` whose words before the program include a
        NAME=VALUE setting: bash hands it to the wrapper as an argument, and the
        wrapper takes it for the program to run (env and sudo alone read such
        words as settings)."""
        token = self._token(word, command_loc)
        name = word_value(word).literal_prefix().partition("=")[0]
        self.result.notes.append(
            self._note(
                f"`{wrapper}` takes `{name}=...` for the program to run and fails (after a command name, NAME=value is an "
                f"argument, not an environment setting): put the settings before `{wrapper}`, or after `env`; "
                "the launch is analyzed as if they were set",
                token.location.line,
                token.location.column,
            )
        )

    def _record(self, entry: EntryPoint, words: list[Word], start: int, args_from: int, command_loc: Location) -> None:
        if any(word_value(word) in _ASKS_FOR_HELP for word in words[args_from:]):
            # `python -m sglang.launch_server --help`, `sglang serve --help
            # | grep -A 12 -- --load-format`: argparse prints the usage and
            # exits; no server starts (each was a server of the topology).
            return
        tokens = [self._token(word, command_loc) for word in words[args_from:]]
        first = self._token(words[start], command_loc).location if words[start] else command_loc
        # The launch is the script's (it pairs with the script's other launches)
        # wherever its command is written; its line ranges (where a `# noqa`
        # silences it) are the script's lines among the command and the call
        # sites of the functions and `source`s it runs in.
        script = self.result.path
        ranges = [(command_loc.line, command_loc.end_line)] if command_loc.path == script else []
        ranges += [r for _, loc, r in self.call_stack if loc.path == script]
        context = ""
        if self.call_stack:
            context = " <- ".join(_call_context(name, loc) for name, loc, _ in reversed(self.call_stack))
        router = entry in _ROUTER_ENTRIES
        self.launch_lines.add((first.path, first.line, router))
        for word in words[start:args_from]:
            for seg in word:
                if seg.chars:
                    self.launch_lines.add((chars_path(seg), seg.chars[0][0], router))
                elif seg.loc.path:
                    self.launch_lines.add((seg.loc.path, seg.loc.line, router))
        record_cls = RouterLaunch if router else ServerLaunch
        launch = record_cls(
            path=script,
            location=first,
            entry=entry,
            args=tokens,
            line_ranges=tuple(dict.fromkeys(ranges)),
            context=context,
        )
        # Past a guard (`[ -z "$TP" ] && exit 1`): `$TP` is not its empty default.
        launch = refined_launch(launch, self.paths.guarded)
        if isinstance(launch, RouterLaunch):
            self.result.routers.append(launch)
        else:
            self.result.servers.append(launch)
        relevant = self._depends(name for reads in self.reads for name in reads)
        self.paths.launch(imprecise_launch(launch) or bool(relevant & self.exit_keys), relevant)

    def _token(self, word: Word, fallback: Location) -> ArgToken:
        if not word:
            return ArgToken(Value.known(""), fallback)
        value = word_value(word)
        spread = any(isinstance(seg, SpreadSeg) for seg in word)
        located = [seg.loc for seg in word if seg.loc is not NOWHERE and seg.loc.path]
        if located and len({loc.path for loc in located}) == 1:
            # The first piece of `"$X"` is the whole string and the last one only
            # `$X`: the word spans from the smallest start to the largest end (the
            # last piece's end cut the closing quote off). (Pieces written in two
            # files, a sourced helper's and the script's, make no one span: the
            # command's location stands for the word.)
            start = min((loc.line, loc.column) for loc in located)
            end = max((loc.end_line, loc.end_column) for loc in located)
            location = Location(located[0].path, start[0], start[1], end[0], end[1])
        else:
            location = fallback
        origin = None
        defined = [seg for seg in word if seg.origin is not None]
        # The empty piece that opens a quoted word carries no text of its own.
        defined = [seg for seg in defined if not (seg.value.is_known and seg.value.text == "")] or defined
        if defined:
            # The text that came from elsewhere is the pieces with an origin. Their
            # exact characters are the origin when they come from one place; the
            # literal pieces written at the use site (`--tp=` of `--tp=$TP`) are not
            # part of it (mixing them made a span from the use line back to the
            # assignment line, end before start).
            char_positions = [pos for seg in defined if seg.chars for pos in seg.chars]
            one_place = len({seg.origin for seg in defined}) == 1
            if one_place and char_positions and all(seg.chars for seg in defined if seg.value.is_known and seg.value.text):
                first, last = char_positions[0], char_positions[-1]
                origin = Location(chars_path(next(seg for seg in defined if seg.chars)), first[0], first[1], last[0], last[1] + 1)
            else:
                origin = defined[0].origin
        held = word[0].held if spread and len(word) == 1 else None  # type: ignore[attr-defined]
        return ArgToken(value, location, origin, spread, held)

    def _shell_c(self, words: list[Word], index: int, command_loc: Location, env: Env, depth: int) -> None:
        """``bash -c 'CMD'``: the string is a script of its own."""
        position = index + 1
        while position < len(words):
            option = word_value(words[position])
            if not option.is_known or not option.text.startswith("-") or option.text in ("-", "--"):
                return  # `bash script.sh`: another file, not followed
            position += 1
            if "c" in option.text[1:] and not option.text.startswith("--"):
                break
            if option.text in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
                position += 1
        else:
            return
        if position >= len(words):
            return
        self._nested_script(words[position], command_loc, env, depth)

    def _ssh(self, words: list[Word], index: int, command_loc: Location, env: Env, depth: int) -> None:
        position = index + 1
        while position < len(words):
            option = word_value(words[position])
            if not option.is_known:
                break  # the host, most often a variable (`ssh $PREFILL_HOST "..."`)
            if option.text.startswith("-") and len(option.text) > 1:
                flag = option.text[:2]
                position += 1
                if flag in SSH_VALUE_OPTIONS and len(option.text) == 2:
                    position += 1
                continue
            break
        position += 1  # the host
        if position >= len(words):
            return
        # ssh joins the remaining words with spaces and the remote shell parses them.
        joined: list[Seg] = []
        for number, word in enumerate(words[position:]):
            if number:
                # The joining space sits right after the previous word (at the next
                # word's start it made every word end one column too far).
                previous = [seg.loc for seg in words[position + number - 1] if seg.loc.path]
                space_loc = Location(previous[-1].path, previous[-1].end_line, previous[-1].end_column) if previous else command_loc
                joined.append(Seg(Value.known(" "), space_loc))
            joined.extend(word)
        self.remote_depth += 1
        try:
            self._nested_script(tuple(joined), command_loc, env, depth)
        finally:
            self.remote_depth -= 1

    def _as_written(self, text: str, env: Env) -> str:
        """``text`` of a nested script (an ssh command, ``bash -c``) for a
        message: each stand-in for what the outer shell substitutes
        (:meth:`_nested_script`) is the outer text it stands for."""
        if STAND_IN_PREFIX not in text:
            return text

        def outer(match: re.Match[str]) -> str:
            held = env.globals.get(match.group(1))
            seg = held.scalar[0] if held is not None and held.scalar else None
            if seg is None:
                return match.group(0)
            return self._written((seg,)) or seg.value.describe()

        return STAND_IN.sub(outer, text)

    def _nested_script(self, word: Word, command_loc: Location, env: Env, depth: int, in_place: bool = False) -> None:
        if self.call_depth >= MAX_CALL_DEPTH:
            return
        chars: list[str] = []
        positions: list[tuple[int, int]] = []
        placeholders: dict[str, Seg] = {}
        for seg in word:
            start = (seg.loc.line, seg.loc.column) if seg.loc.path else (command_loc.line, command_loc.column)
            if seg.value.is_known:
                chars.append(seg.value.text)
                if seg.chars and len(seg.chars) == len(seg.value.text) and seg.origin is None:
                    positions.extend(seg.chars)
                else:
                    positions.extend([start] * len(seg.value.text))
            else:
                # Stand in for what the outer shell substitutes with a variable of the
                # inner script that holds the same value (:meth:`_as_written` puts
                # the outer text back in messages).
                assignments = _held_assignments(seg)
                if assignments is not None:
                    # Words a merge of branches made, every way of which only
                    # sets variables (`MOE_ENV=""`, under an `if`
                    # `MOE_ENV="SGLANG_X=$N"`, then `bash -c "A=1 $MOE_ENV
                    # python3 -m ..."`: InferenceX's AMD PD servers): the inner
                    # shell reads their text as assignments before its command,
                    # so the command is still the one after them.
                    pieces = []
                    for variable, value in assignments:
                        name = f"{STAND_IN_PREFIX}{len(placeholders)}"
                        placeholders[name] = Seg(value, seg.loc)
                        pieces.append(f"{variable}=${{{name}}}")
                    stand_in = " " + " ".join(pieces) + " "
                    chars.append(stand_in)
                    positions.extend([start] * len(stand_in))
                    continue
                name = f"{STAND_IN_PREFIX}{len(placeholders)}"
                placeholders[name] = seg
                # Words we cannot see, `eval "$CMD"` of a string a loop added
                # words to: any number of them in the inner script too, apart
                # from the words around them (sources make them so)
                stand_in = ' "${' + name + '[@]}" ' if holds_words(seg) else "${" + name + "}"
                chars.append(stand_in)
                positions.extend([start] * len(stand_in))
        script = "".join(chars)
        embedded = EmbeddedText(script, positions)
        inner_env = env if in_place else env.snapshot()
        for name, seg in placeholders.items():
            if holds_words(seg):
                inner_env.globals[name] = Var(array=[spread_word(seg.value, seg.loc)], is_array=True)
                continue
            inner_env.globals[name] = Var(scalar=(Seg(seg.value, seg.loc, chars=None, origin=seg.origin),))
        tree = parse_bash(embedded.data)
        found = len(self.result.servers), len(self.result.routers)
        self.call_depth += 1
        try:
            try:
                self._walk(tree.root_node, embedded, inner_env, depth + 1)  # see _call_function
            except ScriptExit:
                if in_place:
                    raise  # `eval exit` ends this shell
        finally:
            self.call_depth -= 1
        if b"\\" in embedded.data:
            launches = [*self.result.servers[found[0] :], *self.result.routers[found[1] :]]
            self._find_broken_continuations(tree.root_node, embedded, launches)

    # -- facts for SGL205 ------------------------------------------------------------
    def _find_continuation_breaks(self, root) -> None:
        """A comment line inside a backslash continuation ends the command (bash
        drops the backslash-newline, then the comment runs to the end of the line);
        the option lines after it become a command of their own."""
        lines = self.result.lines
        found = []
        # A `#` inside a string or a heredoc is text, not a comment.
        for node in comment_nodes(root, self.file_text.data):
            if inside_text(node):
                continue
            line, column = self.file_text.position(node.start_byte)
            self.result.comments[line] = node_text(node, self.file_text)
            found.append((line, column, node))
        # In file order (the walk above visits the last children first).
        for line, column, node in sorted(found, key=lambda item: item[:2]):
            # The previous line must end in a real continuation: a backslash at the
            # end of a comment (`# see \`) is part of that comment, and taking it for
            # one reported breaks where no command was continued. A backslash with
            # blanks after it continued nothing either: the command already ended
            # there (SGL207's break, not this one).
            if not (
                line >= 2
                and _odd_backslashes(lines[line - 2].rstrip("\r").encode(), len(lines[line - 2].rstrip("\r").encode()))
                and (line - 1) not in self.result.comments
                and lines[line - 1][: column - 1].strip() == ""
            ):
                continue
            # The orphaned words may come after more comment lines; the break is
            # at the first comment, the one that ended the command.
            following = node.next_named_sibling
            while following is not None and following.type == "comment":
                following = following.next_named_sibling
            if following is not None:
                next_line, next_col = self.file_text.position(following.start_byte)
                first_word = lines[next_line - 1][next_col - 1 :].lstrip()
                if first_word.startswith("-"):
                    self.result.continuation_breaks.append(
                        (self._loc(node, self.file_text), self._loc(following, self.file_text))
                    )


    # -- facts for SGL207 ------------------------------------------------------------
    def _find_broken_continuations(self, root, text, launches: list) -> None:
        """A backslash followed by blanks (and maybe a comment) at the end of a line
        of a launch's command: bash reads an escaped blank (a word of its own, or
        the start of one: ``\\ #c`` is the word `` #c``), so the command ends at
        this line and the next line runs as a command of its own. tree-sitter drops
        the escaped blank and ends the command there too, so the launch already
        lacks the lost options; this records where and why.

        Only where the continued command is a launch, leads into one (``nohup \\ ``
        before ``python3 -m sglang.launch_server``), or was itself cut off a
        launch by an earlier break."""
        data = text.data
        if b"\\" not in data or not launches:
            return
        raw_lines = data.split(b"\n")
        offsets = [0]
        for raw in raw_lines[:-1]:
            offsets.append(offsets[-1] + len(raw) + 1)
        lines = [raw.rstrip(b"\r") for raw in raw_lines]
        continued = [_odd_backslashes(line, len(line)) for line in lines]

        def file_line(row: int) -> int:
            return text.position(offsets[row])[0]

        starts: set[int] = set()
        for launch in launches:
            starts.add(launch.location.line)
            starts.update(first for first, _ in launch.line_ranges[1:])  # call sites
        orphan_rows: set[int] = set()
        seen = {fact.location for fact in self.result.broken_continuations}
        for row, line in enumerate(lines):
            match = _BROKEN_CONTINUATION.search(line)
            if match is None or not _odd_backslashes(line, match.start() + 1):
                continue
            offset = offsets[row] + match.start()
            node = root.descendant_for_byte_range(offset, offset + 1)
            if node is None or node.type in ("comment", "heredoc_body", "string", "raw_string", "string_content", "ansi_c_string", "translated_string") or inside_text(node):
                continue
            # The lines bash joins into this command, and the ones it runs next.
            first = row
            while first > 0 and continued[first - 1]:
                first -= 1
            after = row + 1
            while after < len(lines) and lines[after].lstrip(b" \t").startswith(b"#"):
                after += 1
            orphan: tuple[int, int] | None = None
            if after < len(lines) and lines[after].strip(b" \t"):
                last = after
                while continued[last] and last + 1 < len(lines):
                    last += 1
                orphan = (after, last)
            rows = [(first, row)] + ([orphan] if orphan is not None else [])
            leads_to_launch = any(file_line(a) <= start <= file_line(b) for a, b in rows for start in starts)
            if not leads_to_launch and first not in orphan_rows:
                continue
            if orphan is not None:
                orphan_rows.add(orphan[0])
            line_no, column = text.position(offset)
            end_line, end_column = text.position(offsets[row] + len(line))
            location = Location(self.path, line_no, column, end_line, end_column)
            if location in seen:
                continue
            seen.add(location)
            orphaned = None
            if orphan is not None:
                a, b = orphan
                start_offset = offsets[a] + len(lines[a]) - len(lines[a].lstrip(b" \t"))
                stop_offset = offsets[b] + len(lines[b].rstrip(b" \t\\"))
                o_line, o_col = text.position(start_offset)
                e_line, e_col = text.position(max(stop_offset, start_offset))
                orphaned = Location(self.path, o_line, o_col, e_line, e_col)
            trailing = match.group(1).decode("utf-8", "replace")
            # `8\ ` is the word `8 ` (bash and tree-sitter agree): nothing is added.
            glued = match.start() > 0 and line[match.start() - 1 : match.start()] not in (b" ", b"\t")
            extra = () if glued else _escaped_words(trailing)
            self.result.broken_continuations.append(BrokenContinuation(location, trailing, extra, orphaned))


_BROKEN_CONTINUATION = re.compile(rb"\\([ \t]+(?:#.*)?)$")
# What may follow `\ ` glued (`\ #note`) and still be plain words: no quotes,
# expansions, escapes or operators.
_PLAIN_WORDS = re.compile(r"[^'\"`$\\;&|<>(){}\[\]*?~=]*")


def _odd_backslashes(line: bytes, end: int) -> bool:
    """The backslashes that end at ``end`` are an odd run: the last escapes what
    follows (``\\\\`` is an escaped backslash)."""
    count = 0
    while count < end and line[end - 1 - count] == 0x5C:
        count += 1
    return count % 2 == 1


def _escaped_words(trailing: str) -> tuple[str, ...]:
    """The words bash makes of ``\\`` + ``trailing``: the escaped blank alone
    (``\\ `` then blanks or a comment), or glued to what follows (``\\ #c``
    is `` #c``: ``#`` inside a word starts no comment); () when that text holds
    quotes, expansions or operators bash would interpret."""
    escaped, rest = trailing[0], trailing[1:]
    if not rest or rest[0] in " \t":
        return (escaped,)
    if not _PLAIN_WORDS.fullmatch(rest):
        return ()
    words = rest.split()
    return (escaped + words[0], *words[1:])


# The name of a call_stack entry for a `source`d file: SOURCED + its path.
SOURCED = "\0source "


def chars_path(seg: Seg) -> str:
    """The file a piece's ``chars`` are positions in: where it was written, that
    is its origin's file for an expanded piece (its ``loc`` is then the use
    site, maybe in another file: a sourced helper reading the script's
    variables), else its own."""
    return seg.origin.path if seg.origin is not None else seg.loc.path


def _call_context(name: str, loc: Location) -> str:
    if name.startswith(SOURCED):
        return f"{name[len(SOURCED):]} sourced at {loc.short()}"
    return f"{name}() called at {loc.short()}"


_ROUTER_MENTION = re.compile(r"sglang_router|sglang-router")


def _names_only_a_router(words: list[Word]) -> bool:
    """Whether the entry points the known text of ``words`` names are all the
    router's."""
    named = [match.group(0) for word in words for seg in word if seg.value.kind is Kind.KNOWN for match in _ENTRY_MENTION.finditer(seg.value.text)]
    return bool(named) and all(_ROUTER_MENTION.match(name) for name in named)


def entry_mentions(path: str, words: list[Word], held: bool = True) -> list[Location]:
    """Where the known text of ``words`` names a launch entry point: a module of
    ``python -m`` or a CLI, as a word or inside a command string (``held``:
    also in a way of words a merge of branches made, or one of several
    texts)."""
    found: list[Location] = []
    previous_sglang: Location | None = None
    for word in words:
        for seg in word:
            value = seg.value
            if value.kind is Kind.SYMBOL and value.default is not None and "sglang" in value.default:
                # `${LAUNCH_CMD:-sglang serve}`: the default counts as the value
                # (a launch run from it and lost has its note, and forks)
                if _ENTRY_MENTION.search(value.default) is not None and seg.loc.path:
                    found.append(Location(seg.loc.path, seg.loc.line, seg.loc.column))
                continue
            ways = getattr(seg, "held", None) if held and holds_words(seg) else None
            if ways and seg.loc.path and any(_ENTRY_MENTION.search(" ".join(word.text for word in way if word.is_known)) for way in ways):
                # Words a merge of branches made, one of whose ways names an
                # entry point (`return [python, "-m", "sglang.launch_server",
                # ...]` under `if framework == "sglang":`, vLLM's otherwise):
                # a launch run from them and lost has its note, and forks.
                found.append(Location(seg.loc.path, seg.loc.line, seg.loc.column))
                continue
            if held and value.kind is Kind.ALTERNATIVES and any(_ENTRY_MENTION.search(text) for text in value.alternatives) and seg.loc.path:
                # One of several texts by the branch taken (`-m
                # sglang.launch_server` on one way, vLLM's module on another,
                # in lists of as many items): as for the ways above.
                found.append(Location(seg.loc.path, seg.loc.line, seg.loc.column))
                continue
            if value.kind is not Kind.KNOWN or "sglang" not in value.text:
                continue
            for match in _ENTRY_MENTION.finditer(value.text):
                if match.group(0) == "sglang-router" and "install" in value.text[: match.start()]:
                    continue  # `pip install sglang-router`
                location = _char_location(path, seg, match.start())
                if location is not None:
                    found.append(location)
        value = word_value(word)
        if previous_sglang is not None and value == Value.known("serve"):
            found.append(previous_sglang)
        previous_sglang = None
        if value.is_known and value.text.rsplit("/", 1)[-1] == "sglang" and word:
            previous_sglang = _char_location(path, word[0], 0)
    return found


def _char_location(path: str, seg: Seg, index: int) -> Location | None:
    if seg.chars and len(seg.chars) == len(seg.value.text) and index < len(seg.chars):
        line, column = seg.chars[index]
        return Location(chars_path(seg) or path, line, column)
    if seg.loc.path:
        return Location(seg.loc.path, seg.loc.line, seg.loc.column)
    return None


def _expanded_names(node, text) -> list[str]:
    """The variables a piece of syntax expands (``$X``, ``${X:-..}``, ``${A[@]}``)."""
    names = []
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.type
        if kind == "variable_name" and current.parent is not None and current.parent.type in ("simple_expansion", "expansion", "subscript"):
            names.append(node_text(current, text))
        elif kind in ("command_substitution", "process_substitution", "heredoc_body"):
            continue
        stack.extend(current.named_children)
    return names


def _runs_python_module(words: list[Word], start: int) -> bool:
    """Whether ``words[start:]`` hold ``python -m <entry point>`` or ``sglang serve``
    (a command we do not look through runs a launch)."""
    for index in range(start, len(words)):
        name = _command_name(words[index], word_value(words[index]))
        if name is None:
            continue
        if PYTHON_NAME.fullmatch(name) and _python_module(words, index + 1)[0] in _ENTRY_MODULES:
            return True
        if name == "sglang" and index + 1 < len(words) and word_value(words[index + 1]) == Value.known("serve"):
            return True
    return False


def _is_env_assignment(value: Value) -> bool:
    prefix = value.literal_prefix()
    name, sep, _ = prefix.partition("=")
    return bool(sep) and is_identifier(name)


def _command_basename(value: Value) -> str | None:
    """The command name as a basename, when static. ``${PYTHON:-python3}`` counts
    as its default, like every other default."""
    candidates = value.candidates()
    if candidates is None or len(candidates) != 1:
        return None
    (text,) = candidates
    return os.path.basename(text) if "/" in text else text


# `python -m sglang_router.launch_server`: a router and its workers at once.
CO_LAUNCH_MODULE = "sglang_router.launch_server"
# Modules that start SGLang servers or their router in a way sglang-lint does
# not model: what the note says of each.
_UNMODELED_MODULES = {
    CO_LAUNCH_MODULE: (
        "starts the router and its workers together, which sglang-lint does not model; start the workers "
        "(python -m sglang.launch_server) and the router (python -m sglang_router.launch_router) on their own to have them checked"
    ),
    "sglang.srt.disaggregation.mini_lb": (
        "is the PD load balancer of older SGLang releases (not in 0.5.23), which sglang-lint does not model: the servers "
        "it names are not matched to it (its prefill and decode servers pair as their files do); "
        "python -m sglang_router.launch_router --pd-disaggregation replaces it"
    ),
}


def _command_name(word: Word, value: Value) -> str | None:
    """The command's basename (:func:`_command_basename`), or, when only its
    directory is not known (`"$PROJECT_DIR/.venv/bin/python"`, a venv's
    interpreter), the name its known last piece ends with."""
    name = _command_basename(value)
    if name is not None or not word:
        return name
    last = word[-1]
    if last.value.is_known and not last.split and not isinstance(last, SpreadSeg) and "/" in last.value.text:
        return last.value.text.rsplit("/", 1)[1] or None
    return None


def _python_module(words: list[Word], index: int) -> tuple[str | None, int]:
    """Skip interpreter options; return (module of -m, index of its first arg)."""
    while index < len(words):
        option = word_value(words[index])
        if not option.is_known:
            return None, index
        text = option.text
        if text == "-m":
            if index + 1 < len(words):
                module = word_value(words[index + 1])
                return (module.text if module.is_known else None), index + 2
            return None, index + 1
        if text.startswith("-m") and len(text) > 2:
            return text[2:], index + 1
        if text in ("-X", "-W", "--check-hash-based-pycs"):
            index += 2
            continue
        if text.startswith("-") and not text.startswith("--") and len(text) > 1:
            # Clustered flags such as -uB; a cluster ending in m takes the module next.
            if text.endswith("m") and all(c in "bBdEhiIOqsSuvVxR" for c in text[1:-1]):
                if index + 1 < len(words):
                    module = word_value(words[index + 1])
                    return (module.text if module.is_known else None), index + 2
                return None, index + 1
            index += 1
            continue
        return None, index  # a script path or -c: not a module launch
    return None, index


def _entrypoint_word(word: Word, cut: int) -> Word:
    """The program `docker run --entrypoint` names: the word after the option
    (``cut`` 0), or what follows ``--entrypoint=`` in ``word`` (its first
    ``cut`` characters), where that word is written."""
    pieces = list(word)
    while cut and pieces and pieces[0].value.is_known and len(pieces[0].value.text) <= cut:
        cut -= len(pieces[0].value.text)
        pieces.pop(0)
    if cut and pieces:
        first = pieces[0]  # (a known piece: the option's name is)
        pieces[0] = Seg(Value.known(first.value.text[cut:]), first.loc, first.split, first.quoted, first.chars[cut:] if first.chars else None, first.origin)
    return tuple(pieces)


def _docker_texts(words: list[Word]) -> list[str | None]:
    """Each word as ``docker_command_start`` reads it: an unknown word whose
    literal start is an option's (`--gpus=$G`, `-e$X`) is still an option;
    any other unknown word is an operand (the image or container, most often
    a variable: taking it for anything else lost every such launch)."""
    texts: list[str | None] = []
    for word in words:
        value = word_value(word)
        if value.is_known:
            texts.append(value.text)
            continue
        start = value.literal_prefix()
        texts.append(start + UNKNOWN_REST if start.startswith("-") and len(start) > 1 else None)
    return texts
