"""The Python source's launch recognisers: the calls that start an SGLang server,
recognized by :class:`LaunchInterpreter`, the abstract interpreter
(:mod:`sglang_lint.sources.python_interpreter`) extended at its hooks.

- a process with an argv list or a command string: ``subprocess.Popen/run/call/
  check_call/check_output`` (``shell=True`` for a string), ``os.system``,
  ``os.popen``, ``os.spawn*``, ``os.exec*``, ``os.posix_spawn[p]``,
  ``asyncio.create_subprocess_exec/shell`` and SGLang's test helper
  ``popen_with_error_check``, with the command lines ``shlex.split/join/quote``
  build; the argv goes through the shell source's launch detection
  (:class:`~sglang_lint.sources.shell.EmbeddedShell`), so wrappers and entry
  points are read exactly as in scripts;
- ``sglang.Engine(**kw)`` and ``ServerArgs(**kw)`` with field names
  (``launch_server(ServerArgs(...))`` is the ServerArgs call), ``kw`` a dict the
  interpreter follows (literals, ``dict(...)``, ``{**base, ...}``, ``|``,
  ``.update()``, item assignment, returned from a function, picked by a loop);
- Ray Serve LLM's ``LLMConfig(engine_kwargs={...})`` when its engine is SGLang's
  (:meth:`LaunchInterpreter._ray_llm_config`): an ``Engine`` launch, whose role
  ``build_pd_openai_app`` may give (:meth:`LaunchInterpreter._ray_pd_roles`);
- SGLang's test helpers ``popen_launch_pd_server`` / ``popen_launch_server``.

Each launch records what a test does with it (:class:`~sglang_lint.model.UnderTest`,
:meth:`LaunchInterpreter._under_test`): started, a configuration a test only
inspects, or one built where the test expects an exception; topology decides
what that means.

A launch entry point written into a value that a process is later started from,
when no launch comes of it, gets a note saying why (never drop a launch silently).
"""

from __future__ import annotations

import ast
import functools
from typing import Callable, Mapping

from sglang_lint.model import EntryPoint, KeywordArg, Kind, Location, ServerLaunch, UnderTest, Value, merge_made
from sglang_lint.prefilter import python_may_run_a_launch, python_spells_a_command
from sglang_lint.sources.paths import Paths, refined_launch
from sglang_lint.sources.python_interpreter import SGLANG_ENVS, PythonInterpreter, expr_text
from sglang_lint.sources.python_reach import SHELL_STRING_RUNNERS, SUBPROCESS_RUNNERS, is_process_runner
from sglang_lint.sources.python_values import (
    DictContents,
    PClass,
    PDict,
    PExternal,
    PList,
    PMethod,
    PNone,
    PObject,
    PNum,
    PSpread,
    PStr,
    PUnknown,
    PyValue,
    as_written,
    join_words,
    known_seg,
    known_text,
    literal_text,
    loc_of,
    origin_of_word,
    relocate,
    shlex_split,
    split_word,
    word_length_ok,
    word_value,
)
from sglang_lint.sources.shell import EmbeddedShell
from sglang_lint.sources.shell_launches import entry_mentions, names_an_entry_point
from sglang_lint.sources.shell_words import Seg, SpreadSeg, Word, spread_word
from sglang_lint.version_facts import names_sglang_image, pin_hints, version_from_image

# What a call must name for :meth:`LaunchInterpreter._call_external` to read it
# as a launch (issue 20, python_reach: a function that refers to none of them,
# directly or through another function, starts nothing and is not run as a
# root). The process runners by their qualified name
# (python_reach.is_process_runner: ``asyncio.run`` is no
# ``subprocess.run``); SGLang's and Ray's entries by their own name, however
# they were imported (a project's ``from serving import launch_server``).
# What a file that reads its own command line into a ServerArgs spells
# (SGLang 0.5.23 launch_server.py: `prepare_server_args(sys.argv[1:])`;
# server_args.py: `ServerArgs.from_cli_args(args)`).
_COMMAND_LINE_PARSERS = ("sys.argv", "parse_args(", "parse_known_args(", "prepare_server_args(", "from_cli_args(")
# A call that builds a configuration without starting it: a launch only where a
# launcher is handed it, a unit test's configuration otherwise (issue 20, item 4).
_CONFIGURATION_CALLS = frozenset({"ServerArgs"})
_ENTRY_CALLS = frozenset(
    {"launch_server", "launch_server_cmd", "execute_shell_command", "Engine", "ServerArgs", "popen_launch_pd_server", "popen_launch_server", "popen_with_error_check", "LLMConfig", "build_pd_openai_app"}
)


class LaunchInterpreter(PythonInterpreter):
    """The interpreter with the launch recognisers at its hooks: a call of an
    imported name may start a server (:meth:`_call_external`), and a name bound to
    a value that mentions a launch entry point is remembered (:meth:`_assigned`)
    for the note when a process started from it launches nothing."""

    def __init__(
        self, path: str, text: str, env: Mapping[str, str] | None = None, paths: Paths | None = None, tree: ast.Module | None = None, files=None
    ) -> None:
        super().__init__(path, text, env, paths, tree, files)
        self._shell: EmbeddedShell | None = None
        # Never drop a launch silently: where a launch entry point was written into
        # a value bound to a name (name -> places), for the note when a process is
        # started from that name and no launch comes of it.
        self.name_mentions: dict[str, list[Location]] = {}
        # The launch of each SGLang LLMConfig object (by its heap ref), for the
        # role build_pd_openai_app gives it.
        self._ray_configs: dict[int, ServerLaunch] = {}
        # Each test function's nodes -> their parents (by id()), for what a test
        # does with a configuration it builds (_under_test).
        self._parents: dict[int, tuple[ast.AST, dict[int, ast.AST]]] = {}

    def _finish_run(self) -> None:
        if self._shell is not None:
            self.result.notes.extend(self._shell.notes)

    def _assigned(self, target, node, value: PyValue) -> None:
        # (a module read for its definitions starts nothing: its names are not
        # the ones a launch of this file is started from)
        if isinstance(target, (ast.Name, ast.Attribute)) and not self.loading:
            self._remember_mentions(_mention_key(target), node, value)

    # -- launches that could not be followed ---------------------------------------
    def _remember_mentions(self, name: str, node, value: PyValue) -> None:
        """``name = value``: keep where the value names a launch entry point (its
        own text or a name it is built from that did)."""
        mentions: list[Location] = []
        lines = self.lines[node.lineno - 1 : node.end_lineno or node.lineno]
        if any("sglang" in line for line in lines):
            mentions = entry_mentions(self.path, self._value_words(value))
        if self.name_mentions:
            for used in ast.walk(node.value):
                if isinstance(used, (ast.Name, ast.Attribute)):  # `cmd = extra() or cmd` keeps cmd's
                    mentions.extend(self.name_mentions.get(_mention_key(used), ()))
        if mentions:
            known = self.name_mentions.setdefault(name, [])
            known.extend(m for m in mentions if m not in known)
        elif not self._branch_depth:
            self.name_mentions.pop(name, None)  # a new value that names no launch

    def _exported_commands(self, tree: ast.Module) -> list[str]:
        """Top-level names bound to a list or string that names a launch entry
        point: a module of commands that another module starts (a benchmark
        library's `SGLANG_SERVER_ARGS = ["python3", "-m",
        "sglang.launch_server", ...]`, which a Modal app passes to
        `subprocess.Popen`). The app spells no launch: as an importer of this
        name it is read after all (extraction.extract_importers), where the
        launch was lost without a word. Told from the syntax: such a module
        runs nothing that launches, and is not run."""
        names = []
        for statement in tree.body:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target] if isinstance(statement, ast.AnnAssign) and statement.value is not None else []
            value = getattr(statement, "value", None)
            if not isinstance(value, (ast.List, ast.Tuple, ast.Constant, ast.JoinedStr, ast.BinOp)):
                continue
            names_here = [target.id for target in targets if isinstance(target, ast.Name)]
            if not names_here:
                continue
            written = "\n".join(self.lines[value.lineno - 1 : (value.end_lineno or value.lineno)])
            if "sglang" in written and names_an_entry_point(written):
                names.extend(name for name in names_here if name not in names)
        return names

    def _value_words(self, value: PyValue) -> list[Word]:
        if isinstance(value, PStr):
            return [value.word]
        if isinstance(value, PList):
            return [item.word for item in self.heap.get(value.ref, ()) if isinstance(item, PStr)]
        return []

    def _run_followed(self, command_node, command: PyValue | None, loc: Location, start: Callable[[], None]) -> None:
        """Start a process (``start``); when no launch and no note came of it and
        the command is built from names that hold a launch entry point, each such
        place gets a note saying why the launch was not followed."""
        shell = self._shell_bridge()
        before = (len(self.result.servers), len(self.result.routers), len(shell.notes))
        noted = shell.dropped_at()
        start()
        if (len(self.result.servers), len(self.result.routers)) != before[:2] or command_node is None:
            return
        if not self._hides_words(command):
            return  # every word is known: nothing that could be a launch was lost
        names = sorted({_mention_key(n) for n in ast.walk(command_node) if isinstance(n, (ast.Name, ast.Attribute))})
        mentions = [m for name in names for m in self.name_mentions.get(name, ())]
        if not mentions:
            return
        # The shell's note (made just now from the argv) names the first word;
        # when the list itself is what we cannot see, naming the list says more.
        items = self.heap.get(command.ref, ()) if isinstance(command, PList) else ()
        better = isinstance(command, PUnknown) or bool(items and isinstance(items[0], PSpread))
        if len(shell.notes) != before[2] and not better:
            return
        what = self._why_not_followed(command)
        shown = expr_text(command_node)
        for mention in mentions:
            place = f"line {loc.line} runs" if mention.line != loc.line else "it runs"
            key = (mention.path, mention.line, mention.column)
            shell.dropped(mention, f"launch not analyzed: {place} `{shown}`, {what}", self.call_stack, replace=better and key not in noted)

    def _launches_not_followed(self) -> int:
        return len(self._shell.dropped_at()) if self._shell is not None else 0

    def _hides_words(self, command: PyValue | None) -> bool:
        """Whether a command holds words we cannot see (it may hide a launch)."""
        if isinstance(command, PList):
            return any(
                not isinstance(item, PNum) and (not isinstance(item, PStr) or word_value(item.word).kind is not Kind.KNOWN)
                for item in self.heap.get(command.ref, ())
            )
        if isinstance(command, PStr):
            return word_value(command.word).kind is not Kind.KNOWN
        return True

    def _why_not_followed(self, command: PyValue | None) -> str:
        """What a command that started no launch is, as a noun phrase."""
        reason = ""
        if isinstance(command, PUnknown):
            reason = command.value.reason if command.value.kind is Kind.UNKNOWN else ""
            if command.value.kind is Kind.SYMBOL:
                return f"`{command.value.describe()}`, a variable this file never sets"
        elif isinstance(command, PList):
            items = self.heap.get(command.ref, ())
            first = items[0] if items else None
            if isinstance(first, PSpread):
                reason = first.value.reason if first.value.kind is Kind.UNKNOWN else ""
                if reason.endswith("differ between branches") or reason.endswith("differs between branches"):
                    return "a list whose first items differ between branches"
                if reason.startswith("the result of "):
                    return "a list whose first items come from a call sglang-lint cannot see"
                return "a list whose first items sglang-lint cannot see" + (f" ({reason[:40]})" if reason else "")
        if reason == "set in only some branches":
            return "a variable set in only some branches"
        if reason.endswith("differs between branches"):
            return "a value that differs between branches"
        if reason.startswith("the result of ") and reason.endswith("()"):
            called = reason[len("the result of ") : -2].rsplit(".", 1)[-1]
            return f"the result of {called}(), which sglang-lint cannot see"
        return "a value sglang-lint cannot follow" + (f" ({reason[:40]})" if reason else "")

    # -- argv and command strings ----------------------------------------------------
    def _argv_words(self, value: PyValue, loc: Location) -> list[Word] | None:
        if not isinstance(value, PList):
            if isinstance(value, PUnknown):
                return [spread_word(value.value, value.loc)]
            return None
        return [self._argv_item_word(item, loc) for item in self.heap.get(value.ref, ())]

    def _argv_item_word(self, item: PyValue, loc: Location) -> Word:
        """An item of an argv list, as the one word the program receives. A text
        joined from items we cannot see (``",".join(devices)``) holds them as a
        list in a string, which a shell would split into words again; passed
        without a shell it is one word whose text we cannot see (the value of
        the option before it, not options that may override the others). Only
        an item that is itself a list spread (``*extra``) is any number of
        words."""
        word = self._word_of_item(item, loc)
        if isinstance(item, PSpread) or not any(isinstance(seg, SpreadSeg) for seg in word):
            return word
        return tuple(Seg(seg.value, seg.loc, origin=seg.origin) if isinstance(seg, SpreadSeg) else seg for seg in word)

    def _is_launch_qualname(self, qualname: str, configurations: bool = True) -> bool:
        return _is_launch_qualname(qualname, configurations)

    def _text_may_launch(self, text: str) -> bool:
        return python_may_run_a_launch(text)

    def _spells_a_command(self, text: str) -> bool:
        return python_spells_a_command(text)

    def _recognised_name(self, name: str) -> bool:
        return name in _ENTRY_CALLS

    def _builtin_model(self, qualname: str) -> bool:
        """SGLang's test helpers and entry points keep the model below even where
        the analyzed tree holds their code (SGLang's own repository): the model
        says what the helper runs without following its process plumbing."""
        return _keeps_builtin_model(qualname)

    # -- external calls: launches ------------------------------------------------------
    def _call_external(self, qualname: str, args: list[PyValue], kwargs: dict[str, PyValue], spreads: list[PyValue], node, loc: Location) -> PyValue:
        last = qualname.rsplit(".", 1)[-1]
        unknown = PUnknown(Value.unknown(f"the result of {qualname}()"), loc)
        if qualname in SUBPROCESS_RUNNERS:
            command = args[0] if args else kwargs.get("args")
            if command is not None:
                shell = kwargs.get("shell")
                shell_truth = self._value_truth(shell) if shell is not None else False
                self._run_followed(_command_node(node, "args"), command, loc, lambda: self._run_process(command, shell_truth, loc))
            return unknown
        if qualname in SHELL_STRING_RUNNERS:
            command = args[0] if args else kwargs.get("cmd")
            if command is not None:
                self._run_followed(_command_node(node, "cmd"), command, loc, lambda: self._run_process(command, True, loc))
            return unknown
        if qualname == "asyncio.create_subprocess_exec":
            self._run_argv([self._argv_item_word(a, loc) for a in args], loc)
            return unknown
        if qualname.startswith("os.spawn") or qualname.startswith("os.exec") or qualname in ("os.posix_spawn", "os.posix_spawnp"):
            self._os_process(qualname, args, loc)
            return unknown
        if last == "popen_with_error_check" and args:
            self._run_followed(_command_node(node, ""), args[0], loc, lambda: self._run_process(args[0], False, loc))
            return unknown
        if qualname.startswith("sglang.multimodal_gen."):
            return unknown  # the diffusion server's own entry points: no LLM server (issue 20)
        if qualname.startswith("modal.Image."):
            self._modal_image(last, args, loc)
            return PExternal("modal.Image", loc)  # (an image: its methods chain)
        if _is_sglang_name(qualname, "launch_server_cmd") and (args or "command" in kwargs):
            self._launch_server_cmd(node, args, kwargs, loc)
            return unknown
        if _is_sglang_name(qualname, "execute_shell_command") and (args or "command" in kwargs):
            self._utils_command(node, args[0] if args else kwargs["command"], loc)
            return unknown
        if (_is_sglang_name(qualname, "launch_server") or _is_sglang_name(qualname, "run_server")) and (args or kwargs):
            self._launch_server_call(node, last, args[0] if args else next(iter(kwargs.values())), loc)
            return unknown
        if _is_sglang_runtime(qualname):
            self._runtime(args, kwargs, spreads, node, loc)
            return unknown
        if _is_sglang_name(qualname, "Engine"):
            if "server_args" not in kwargs:
                self._keyword_launch(EntryPoint.ENGINE, args, kwargs, spreads, loc, self._under_test(node, EntryPoint.ENGINE))
            return unknown
        if _is_sglang_name(qualname, "ServerArgs"):
            self._keyword_launch(EntryPoint.SERVER_ARGS, args, kwargs, spreads, loc, self._under_test(node, EntryPoint.SERVER_ARGS))
            return PUnknown(Value.unknown("a ServerArgs object"), loc)
        if last in ("popen_launch_pd_server", "popen_launch_server"):
            self._test_helper_launch(last, args, kwargs, loc)
            return unknown
        if last == "LLMConfig" and qualname.split(".")[0] == "ray":
            launched = len(self.result.servers)
            self._ray_llm_config(kwargs, spreads, loc)
            if len(self.result.servers) == launched:
                return PUnknown(Value.unknown("a Ray Serve LLMConfig"), loc)
            return self._llm_config_object(self.result.servers[-1], loc)
        if last == "build_pd_openai_app" and qualname.split(".")[0] == "ray" and (args or kwargs):
            self._ray_pd_roles(args[0] if args else next(iter(kwargs.values())), loc)
            return unknown
        if qualname == "shlex.split" and args:
            return self._shlex_split(args[0], loc)
        if qualname == "shlex.join" and args:
            # A spread item is a quoted value we cannot see, like any unknown one.
            items = self._iter_items(args[0], loc)
            words = [self._quoted(self._word_of_item(i, loc), loc) for i in items]
            word = join_words((known_seg(" ", loc),), words)
            return PStr(word, loc) if word_length_ok(word) else PUnknown(Value.unknown("string too long"), loc)
        if qualname == "shlex.quote" and args:
            return PStr(self._quoted(self._word_of_item(args[0], loc), loc), loc)
        return super()._call_external(qualname, args, kwargs, spreads, node, loc)

    def _runtime(self, args: list[PyValue], kwargs: dict[str, PyValue], spreads: list[PyValue], node, loc: Location) -> None:
        """``sglang.Runtime(log_level="error", launch_timeout=300.0, *args,
        **kwargs)`` builds ``ServerArgs(*args, log_level=..., port=...,
        **kwargs)`` and starts ``launch_server`` with it in a process (0.5.23
        lang/backend/runtime_endpoint.py:364-413; the port the first free one
        from the one given): the frontend language's runtime, which FastChat's
        and Xinference's SGLang workers start. ``launch_timeout`` is its own."""
        fields = {name: value for name, value in kwargs.items() if name != "launch_timeout"}
        if args:
            fields.setdefault("log_level", args[0])
        if len(args) > 2:
            fields.setdefault("model_path", args[2])  # (ServerArgs' first field)
            if len(args) > 3:
                spreads = [*spreads, PUnknown(Value.unknown("positional ServerArgs fields"), loc)]
        self._keyword_launch(EntryPoint.RUNTIME, [], fields, spreads, loc, self._under_test(node, EntryPoint.RUNTIME))

    def _lost_call(self, func: PUnknown, loc: Location) -> None:
        shown = ", ".join(f"`{callee}`" for callee in func.callees)
        self._shell_bridge().dropped(loc, f"launch not analyzed: the function called here is one of {shown}, by a branch sglang-lint cannot decide", self.call_stack)

    def _modal_image(self, method: str, args: list[PyValue], loc: Location) -> None:
        """A Modal image's facts about the SGLang its functions run (Modal's
        ``Image.from_registry(tag)``, ``.pip_install(*packages)``,
        ``.uv_pip_install(*packages)``): an SGLang image names the release of
        every launch of the file (its functions run in it; an image of another
        project says nothing), a requirement pins it."""
        if method in ("from_registry", "from_aws_ecr", "from_gcp_artifact_registry") and args:
            text = literal_text(args[0].word) if isinstance(args[0], PStr) else None
            if text is not None and names_sglang_image(text):
                hint = version_from_image(text, args[0].loc, _WHOLE_FILE)
                if hint is not None:
                    self.result.version_hints.append(hint)
        elif method in ("pip_install", "uv_pip_install"):
            for package in args:
                text = literal_text(package.word) if isinstance(package, PStr) else None
                if text is not None:
                    self.result.version_hints.extend(pin_hints(text, package.loc))

    def _ray_llm_config(self, kwargs: dict[str, PyValue], spreads: list[PyValue], loc: Location) -> None:
        """Ray Serve LLM's ``LLMConfig(server_cls=SGLangServer, engine_kwargs={...})``
        or ``LLMConfig(llm_engine="SGLang", engine_kwargs={...})``: Ray's SGLang
        server starts ``sglang.Engine(**llm_config.engine_kwargs)``
        (ray-project/ray python/ray/llm/_internal/serve/engines/sglang/sglang_engine.py,
        ``SGLangServer.__init__``), so the keys are ServerArgs fields and the role is
        ``disaggregation_mode``. Ray's default engine is vLLM: a config is SGLang's
        only when ``llm_engine`` is ``"SGLang"``, when ``server_cls`` is Ray's
        ``SGLangServer`` (or a class built on it), or, with neither given, when
        ``engine_kwargs`` sets ``disaggregation_mode``, a ServerArgs field vLLM
        has no counterpart of (its PD goes through ``kv_transfer_config``).
        Anything else is not reported: it cannot be tied to SGLang."""
        engine_kwargs = kwargs.get("engine_kwargs")
        server_cls = kwargs.get("server_cls")
        chosen = kwargs.get("llm_engine")
        engine = known_text(chosen) if chosen is not None else None
        if isinstance(chosen, PExternal):  # `LLMEngine.SGLang`; any other imported name is a value we cannot see
            owner, _, member = chosen.qualname.rpartition(".")
            engine = member if owner.rsplit(".", 1)[-1] == "LLMEngine" else None
        if engine is not None and engine != "SGLang":
            return  # vLLM, named
        if engine == "SGLang" or (server_cls is not None and not isinstance(server_cls, PUnknown)):
            if engine != "SGLang" and not self._is_sglang_server(server_cls, 0):
                return
            if engine_kwargs is None and not spreads:
                engine_kwargs = PDict(self._new_ref(DictContents(())), loc)  # LLMConfig's default: {}
        elif not (isinstance(engine_kwargs, PDict) and self._sets_key(engine_kwargs, "disaggregation_mode")):
            return
        if engine_kwargs is None:  # hidden in a ``**`` we cannot see: it may set any field
            self._keyword_launch(EntryPoint.ENGINE, [], {}, spreads, loc)
            return
        named, unseen = self._call_keywords(engine_kwargs, loc_of(engine_kwargs) or loc, "engine_kwargs")
        self._keyword_launch(EntryPoint.ENGINE, [], named, unseen, loc)

    def _llm_config_object(self, launch: ServerLaunch, loc: Location) -> PObject:
        """The value of an SGLang ``LLMConfig(...)``: an object that remembers its
        launch (for :meth:`_ray_pd_roles`); ``.model_dump()`` and
        ``.model_copy()`` give the same config."""
        config = PObject(self._new_ref({}), None, loc)
        self._set(config.ref, {name: PMethod(config, name) for name in _SAME_CONFIG})
        self._ray_configs[config.ref] = launch
        return config

    def _call_method(self, method: PMethod, args: list[PyValue], kwargs: dict[str, PyValue], loc: Location, spreads: list[PyValue] = ()) -> PyValue:
        receiver = method.receiver
        if isinstance(receiver, PObject) and receiver.ref in self._ray_configs and method.name in _SAME_CONFIG:
            return receiver
        return super()._call_method(method, args, kwargs, loc, spreads)

    def _ray_pd_roles(self, serving_args: PyValue, loc: Location) -> None:
        """``build_pd_openai_app({"prefill_config": p, "decode_config": d})`` sets
        each SGLang config's ``engine_kwargs["disaggregation_mode"]`` from the key
        it is given under (Ray's PDServingArgs, ray-project/ray
        python/ray/llm/_internal/serve/serving_patterns/prefill_decode/builder.py;
        its test ``test_sglang_pd_builder_sets_disaggregation_mode``); a mode the
        config sets itself is kept. A config given as a dict is an LLMConfig's
        fields (the builder validates it into one)."""
        if not isinstance(serving_args, PDict):
            return
        for key, role in (("prefill_config", "prefill"), ("decode_config", "decode")):
            config = self._dict_get(serving_args, PStr((known_seg(key, loc),), loc), loc)
            if isinstance(config, PDict):
                fields, unseen = self._call_keywords(config, loc_of(config) or loc, key)
                launched = len(self.result.servers)
                self._ray_llm_config(fields, unseen, loc_of(config) or loc)
                config = self._llm_config_object(self.result.servers[-1], loc_of(config) or loc) if len(self.result.servers) > launched else None
            launch = self._ray_configs.get(config.ref) if isinstance(config, PObject) else None
            if launch is None or any(k.name == "disaggregation_mode" for k in launch.keywords):
                continue
            where = loc_of(config) or loc
            launch.keywords = (*launch.keywords, KeywordArg("disaggregation_mode", Value.known(role), where))

    def _is_sglang_server(self, value: PyValue, depth: int) -> bool:
        """Ray's ``SGLangServer`` (``ray.serve.llm``, or the copy in Ray's
        examples), or a class of this file derived from it."""
        if isinstance(value, PExternal):
            return value.qualname.rsplit(".", 1)[-1] == "SGLangServer"
        if isinstance(value, PClass) and depth < 8:
            return any(self._is_sglang_server(base, depth + 1) for base in value.bases)
        return False

    def _sets_key(self, mapping: PDict, key: str) -> bool:
        contents = self.heap.get(mapping.ref, DictContents(()))
        return any(known_text(entry) == key for entry, _ in contents.entries)

    def _launch_server_call(self, node, called: str, server_args: PyValue, loc: Location) -> None:
        """SGLang's ``launch_server(server_args)`` (0.5.23
        srt/entrypoints/http_server.py:3125) or ``run_server(server_args)``
        (launch_server.py:17): the launch is the ``ServerArgs`` call that made its
        argument; when no such call did, say so."""
        if isinstance(server_args, PUnknown) and server_args.value == Value.unknown("a ServerArgs object"):
            return
        if any(server.entry is EntryPoint.SERVER_ARGS and server.under_test is UnderTest.NO for server in self.result.servers):
            return  # ServerArgs calls of this file are launches: this may be one of them
        if isinstance(server_args, PUnknown) and (server_args.value.kind is Kind.SYMBOL or any(marker in self.text for marker in _COMMAND_LINE_PARSERS)):
            # A pass-through (issue 20; design.md, "value model"): the
            # ServerArgs are the caller's parameter, or the file's own command
            # line parsed (SGLang 0.5.23 launch_server.py: `server_args =
            # prepare_server_args(sys.argv[1:])`, then `launch_server(server_args)`):
            # a launch whose fields are all given at run time, like
            # `python -m sglang.launch_server "$@"` in a script, assumed to add
            # no option (`--strict` lists it, SGL901), not a launch lost.
            self._keyword_launch(EntryPoint.SERVER_ARGS, [], {}, [server_args], loc)
            return
        argument = node.args[0] if isinstance(node, ast.Call) and node.args else None
        shown = f"`{expr_text(argument)}`" if argument is not None else "its argument"
        what = self._why_not_followed(server_args).removesuffix(", which sglang-lint cannot see")
        self._shell_bridge().dropped(loc, f"launch not analyzed: the ServerArgs of {called}() come from {shown}, {what}", self.call_stack)

    # -- configurations under test ---------------------------------------------------------
    def _under_test(self, node, entry: EntryPoint) -> UnderTest:
        """What a test does with the server an ``Engine(...)``/``ServerArgs(...)``
        call (``node``) builds. Inside a block that expects an exception it is
        expected to fail, and so is a ``ServerArgs(...)`` the callable form of
        ``assertRaises``/``pytest.raises`` passes on (``assertRaises(ValueError,
        launch_server, ServerArgs(...))``: the launch is what must raise).

        A ``ServerArgs(...)`` starts nothing by itself (0.5.23
        srt/server_args.py:241-242, ``__post_init__`` leaves it unresolved), so
        one written in a test function (``test*``, the prefix unittest and pytest
        collect) is a configuration under test when its value is dropped (a bare
        call), only its fields or methods are used (``ServerArgs(...).url()``), or
        it is bound to a local name the test only inspects (``_record_use``).
        Anything else (passed to a function, returned, stored, put in a
        container) may launch it: a launch, as before. An ``Engine(...)`` starts
        its server when constructed."""
        if self.expecting_failure:
            return UnderTest.EXPECTED_FAILURE
        if entry is not EntryPoint.SERVER_ARGS:
            return UnderTest.NO  # an Engine starts its server, even as an argument of the callable form
        function = self.active_functions[-1] if self.active_functions else None
        if not isinstance(node, ast.Call) or not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return UnderTest.NO
        parents = self._parents_in(function)
        parent = parents.get(id(node))
        if parent is None:
            return UnderTest.NO  # not written in the function that runs (a default value)
        if self._expected_to_fail_at(node, parents):
            return UnderTest.EXPECTED_FAILURE
        if isinstance(function, ast.Lambda) or not function.name.startswith("test"):
            return UnderTest.NO
        if isinstance(parent, (ast.Expr, ast.Attribute)):
            return UnderTest.INSPECTED
        if isinstance(parent, (ast.Assign, ast.AnnAssign)) and node is parent.value:
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            uses = [self._record_use(function, target.id, parents) if isinstance(target, ast.Name) else UnderTest.NO for target in targets]
            if UnderTest.EXPECTED_FAILURE in uses:
                return UnderTest.EXPECTED_FAILURE
            if all(use is UnderTest.INSPECTED for use in uses):
                return UnderTest.INSPECTED
        return UnderTest.NO

    def _record_use(self, function: ast.AST, name: str, parents: dict[int, ast.AST]) -> UnderTest:
        """What a test function does with the record it bound to the local
        ``name``, over every use (nested functions included). A use where the
        test expects an exception (``with self.assertRaises(...):
        args.check_server_args()``) says the record is invalid: expected to fail.
        Otherwise it is only inspected when every use looks at it:
        ``name.field``, ``name.method()``, ``name.field = x``, a comparison, an
        ``assert``, an f-string field, an argument of ``self.assert*(...)``/
        ``self.fail(...)`` or of a builtin that only reads it. A
        ``global``/``nonlocal`` name is shared beyond the test: a launch."""
        passed_on = False
        for node in ast.walk(function):
            if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
                passed_on = True
            if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
                continue
            if self._expected_to_fail_at(node, parents):
                return UnderTest.EXPECTED_FAILURE
            parent = parents.get(id(node))
            if isinstance(parent, (ast.Attribute, ast.Compare, ast.Assert, ast.FormattedValue)):
                continue
            if isinstance(parent, ast.keyword):
                parent = parents.get(id(parent))
            if not (isinstance(parent, ast.Call) and node is not parent.func and _inspects(parent.func)):
                passed_on = True
        return UnderTest.NO if passed_on else UnderTest.INSPECTED

    def _expected_to_fail_at(self, node: ast.AST, parents: dict[int, ast.AST]) -> bool:
        """Whether the code at ``node`` of a function runs where the test expects
        an exception: in the body of a ``with`` whose manager expects one, or in
        an argument the callable form hands to the code that must raise
        (``assertRaises(E, launch_server, args)``; not the exception type). A
        nested function's code runs where it is called: the search stops there."""
        child, outer = node, parents.get(id(node))
        while outer is not None and not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            if isinstance(outer, (ast.With, ast.AsyncWith)) and any(child is statement for statement in outer.body):
                if any(self.expects_failure(item.context_expr) for item in outer.items):
                    return True
            if isinstance(outer, ast.Call) and child is not outer.func and (not outer.args or child is not outer.args[0]) and self.expects_failure(outer):
                return True
            child, outer = outer, parents.get(id(outer))
        return False

    def _parents_in(self, function: ast.AST) -> dict[int, ast.AST]:
        """Each node of a function (by id()) -> its parent node."""
        cached = self._parents.get(id(function))
        if cached is not None and cached[0] is function:
            return cached[1]
        parents = {id(child): outer for outer in ast.walk(function) for child in ast.iter_child_nodes(outer)}
        self._parents[id(function)] = (function, parents)
        return parents

    def _shlex_split(self, value: PyValue, loc: Location) -> PyValue:
        if isinstance(value, PStr):
            words = shlex_split(as_written(value.word))
            if words is not None:
                return PList(self._new_ref(tuple(PStr(w, _word_loc(w) or loc) for w in words)), loc)
        return PList(self._new_ref((PSpread(Value.unknown("shlex.split of a string we cannot see"), loc),)), loc)

    def _quoted(self, word: Word, loc: Location) -> Word:
        text = literal_text(word)
        if text is not None:
            import shlex

            quoted = shlex.quote(text)
            if quoted == text:
                return word
            return (known_seg(quoted, loc, origin=origin_of_word(word)),)
        if any(merge_made(seg.value) for seg in word):
            # (still a merge's: the path forks on it, and each way's words are seen)
            return (Seg(Value.unknown("a quoted value that differs between branches"), loc),)
        return (Seg(Value.unknown("a quoted value we cannot see"), loc),)

    def _os_process(self, qualname: str, args: list[PyValue], loc: Location) -> None:
        """``os.spawnv(mode, file, args)``, ``os.execlp(file, arg0, ...)``: the
        program is ``file``; ``argv[0]`` is only its display name."""
        name = qualname.split(".", 1)[1]
        rest = args[1:] if name.startswith("spawn") else args
        if not rest:
            return
        program = rest[0]
        suffix = name[5:] if name.startswith("spawn") else (name[4:] if name.startswith("exec") else "v")
        if name.startswith("posix_spawn"):
            argv = rest[1] if len(rest) > 1 else None
            words = self._argv_words(argv, loc) if argv is not None else None
        elif suffix.startswith("v"):
            words = self._argv_words(rest[1], loc) if len(rest) > 1 else None
        else:
            items = rest[1:]
            if suffix.endswith("e") and items:
                items = items[:-1]  # the environment mapping
            words = [self._argv_item_word(item, loc) for item in items]
        if words is None:
            return
        program_word = self._argv_item_word(program, loc)
        self._run_argv([program_word, *words[1:]], loc)

    def _launch_server_cmd(self, node, args: list[PyValue], kwargs: dict[str, PyValue], loc: Location) -> None:
        """``sglang.utils.launch_server_cmd(command, host, port)``, the helper of
        SGLang's own documentation notebooks (and the guides that copy them):
        it runs ``f"{command} --port {port}"``, a free port it reserves when
        none is given (sglang/utils.py:494 in 0.5.23). Its
        ``execute_shell_command`` splits the command at blanks after taking
        leading ``KEY=VALUE`` words for the environment; read as a shell
        command, which gives the same words wherever the command has no
        quotes."""
        command = args[0] if args else kwargs["command"]
        port = args[2] if len(args) > 2 else kwargs.get("port")
        if port is None or isinstance(port, PNone):
            port_word: Word = (Seg(Value.unknown("a free port launch_server_cmd reserves"), loc),)
        else:
            port_word = self._word_of_item(port, loc)
        self._utils_command(node, command, loc, port_word)

    def _utils_command(self, node, command: PyValue, loc: Location, port_word: Word | None = None) -> None:
        """``sglang.utils.execute_shell_command(command)`` (sglang/utils.py:467
        in 0.5.23; the older notebooks' helper, and launch_server_cmd's), with
        `` --port PORT`` after it when ``port_word`` is given (launch_server_cmd)."""
        if not isinstance(command, PStr):
            self._run_followed(_command_node(node, "command"), command, loc, lambda: None)
            return
        # (one command, whatever its line breaks: the helper splits at any
        # blank, after making each backslash a blank; same lengths, so each
        # character keeps its place in the file)
        flat = tuple(
            Seg(Value.known(seg.value.text.translate(_ONE_LINE)), seg.loc, seg.split, seg.quoted, seg.chars, seg.origin) if seg.value.is_known else seg
            for seg in command.word
        )
        # (`f"{command} --port {port}"`: the port an int, one word)
        port = [] if port_word is None else [(known_seg("--port", loc),), port_word]
        self._run_followed(_command_node(node, "command"), command, loc, lambda: self._run_argv(_helper_argv(flat) + port, loc))

    def _run_process(self, command: PyValue, shell: bool | None, loc: Location) -> None:
        """``subprocess.Popen(command, shell=...)``: a list is the argv (with
        ``shell=True`` its first item is the script); a string is a script for the
        shell (with shell unset a string is a program name without arguments, which
        never launches a server: it is read as a script only when shell may be on)."""
        if isinstance(command, PList):
            if shell is True:
                items = self.heap.get(command.ref, ())
                if items and isinstance(items[0], PStr):
                    self._run_script(items[0], loc)
                return
            words = self._argv_words(command, loc)
            if words:
                self._run_argv(words, loc)
            return
        if isinstance(command, PStr) and shell is not False:
            self._run_script(command, loc)

    def _shell_bridge(self) -> EmbeddedShell:
        if self._shell is None:
            # The analyzed file's, even when the first command comes from a
            # module it imports: the launches are the analyzed file's.
            self._shell = EmbeddedShell(self.result.path, self._analyzed[0], self.configured_env)
        return self._shell

    def _add_launches(self, launches: tuple[list, list]) -> None:
        servers, routers = launches
        if self.paths.guarded:
            # Past a guard (`if not kv: raise SystemExit(...)`): `kv` is not its empty default.
            servers = [refined_launch(launch, self.paths.guarded) for launch in servers]
            routers = [refined_launch(launch, self.paths.guarded) for launch in routers]
        for launch in [*servers, *routers]:
            launch.scope = self.scope
        if self.expecting_failure:
            # A process the test expects to fail (a launch with invalid options
            # under assertRaises): validation under test.
            for server in servers:
                server.under_test = UnderTest.EXPECTED_FAILURE
        self.result.servers.extend(servers)
        self.result.routers.extend(routers)
        if servers or routers:
            self._launched()

    def _run_argv(self, words: list[Word], loc: Location) -> None:
        if words:
            self._add_launches(self._shell_bridge().argv(words, loc, self.call_stack))

    def _run_script(self, script: PStr, loc: Location) -> None:
        self._add_launches(self._shell_bridge().script(as_written(script.word), loc, self.call_stack))

    def _record_server(self, entry: EntryPoint, words: list[Word], loc: Location, label: str) -> None:
        """A server whose argv we build ourselves (SGLang's test helpers): the
        launch is the call."""
        marker: Word = (known_seg(label, loc),)
        self._add_launches(self._shell_bridge().record(entry, [marker, *words], loc, self.call_stack))

    def _test_helper_launch(self, helper: str, args: list[PyValue], kwargs: dict[str, PyValue], loc: Location) -> None:
        """``popen_launch_pd_server(model, base_url, timeout, api_key=None,
        other_args=(), ...)`` runs ``python3 -m sglang.launch_server --model-path
        MODEL *other_args --host HOST --port PORT [--api-key KEY]`` (0.5.23
        test/test_utils.py:907-941); ``popen_launch_server`` the same through
        ``sglang serve`` unless ``pd_separated``/``num_replicas`` make it start
        ``sglang.launch_pd_server`` (L785-810), which is not a single server."""
        names = ["model", "base_url", "timeout", "api_key", "other_args"]
        bound = {name: args[i] for i, name in enumerate(names) if i < len(args)}
        for name in names:
            if name in kwargs:
                bound[name] = kwargs[name]
        if helper == "popen_launch_server":
            for option in ("pd_separated", "num_replicas"):
                value = kwargs.get(option)
                if value is not None and not isinstance(value, PNone) and self._value_truth(value) is not False:
                    message = f"launch not analyzed: popen_launch_server({option}=...) starts sglang.launch_pd_server, not modeled"
                    self._shell_bridge().dropped(loc, message, self.call_stack)
                    return
        words: list[Word] = [(known_seg("--model-path", loc),), self._argv_item_word(bound.get("model", PUnknown(Value.unknown("model"), loc)), loc)]
        other = bound.get("other_args")
        if other is not None and not isinstance(other, PNone):
            words.extend(self._argv_item_word(item, loc) for item in self._iter_items(other, loc))
        host, port = self._url_host_port(bound.get("base_url"), loc)
        words.extend([(known_seg("--host", loc),), host, (known_seg("--port", loc),), port])
        api_key = bound.get("api_key")
        if api_key is not None and not isinstance(api_key, PNone):
            words.extend([(known_seg("--api-key", loc),), self._argv_item_word(api_key, loc)])
        self._record_server(EntryPoint.LAUNCH_SERVER, words, loc, helper)

    def _url_host_port(self, url: PyValue | None, loc: Location) -> tuple[Word, Word]:
        """``_, host, port = base_url.split(":"); host = host[2:]``."""
        unknown = (Seg(Value.unknown("from base_url"), loc),)
        if not isinstance(url, PStr):
            return unknown, unknown
        fields = split_word(url.word, ":")
        if len(fields) != 3:
            return unknown, unknown
        host_field = fields[1]
        text = literal_text(host_field[:1]) or ""
        if host_field and host_field[0].value.is_known and text.startswith("//"):
            first = host_field[0]
            trimmed = type(first)(Value.known(first.value.text[2:]), first.loc, chars=first.chars[2:] if first.chars else None, origin=first.origin)
            host = (trimmed, *host_field[1:]) if trimmed.value.text else host_field[1:]
        else:
            host = unknown
        return tuple(relocate(host, loc)) or unknown, tuple(relocate(fields[2], loc)) or unknown

    def _keyword_launch(
        self,
        entry: EntryPoint,
        args: list[PyValue],
        kwargs: dict[str, PyValue],
        spreads: list[PyValue],
        loc: Location,
        under_test: UnderTest | None = None,
    ) -> None:
        keywords: list[KeywordArg] = []
        if entry is EntryPoint.SERVER_ARGS and args:
            kwargs = {"model_path": args[0], **kwargs}  # the dataclass's first field
            if len(args) > 1:
                spreads = [*spreads, PUnknown(Value.unknown("positional ServerArgs fields"), loc)]
        for name, value in kwargs.items():
            keywords.append(self._keyword(name, value, loc))
        for spread in spreads:
            keywords.append(KeywordArg(None, spread.value if isinstance(spread, PUnknown) else Value.unknown("**"), loc_of(spread) or loc))
        # Only the analyzed file's lines: a `# noqa` is read there.
        ranges = [(loc.line, loc.end_line)] if loc.path == self.result.path else []
        ranges += [r for _, call, r in self.call_stack if call.path == self.result.path]
        context = " <- ".join(f"{name}() called at {call.short()}" for name, call, _ in reversed(self.call_stack))
        launch = ServerLaunch(
            path=self.result.path,
            location=loc,
            entry=entry,
            args=[],
            line_ranges=tuple(dict.fromkeys(ranges)),
            context=context,
            keywords=tuple(keywords),
            scope=self.scope,
            under_test=under_test if under_test is not None else UnderTest.EXPECTED_FAILURE if self.expecting_failure else UnderTest.NO,
        )
        self.result.servers.append(launch)
        self._launched()

    def _keyword(self, name: str, value: PyValue, loc: Location) -> KeywordArg:
        value_loc = loc_of(value) or loc
        if isinstance(value, PNum) and isinstance(value.number, bool):
            text = Value.known("true" if value.number else "false")
            return KeywordArg(name, text, value_loc, value.origin)
        if isinstance(value, PList):
            words = [self._word_of_item(item, loc) for item in self.heap.get(value.ref, ())]
            joined = join_words((known_seg(" ", loc),), words)
            text = word_value(joined) if word_length_ok(joined) else Value.unknown("a list too long to follow")
            return KeywordArg(name, text, value_loc, origin_of_word(joined))
        if isinstance(value, (PStr, PNum, PNone, PUnknown)):
            word = self._to_str(value, value_loc).word
            return KeywordArg(name, word_value(word), value_loc, origin_of_word(word))
        return KeywordArg(name, Value.unknown(f"{name} is a value we cannot see"), value_loc)


# Methods of a Ray LLMConfig (a pydantic model) that give the same configuration.
_SAME_CONFIG = ("model_dump", "model_copy")


@functools.lru_cache(maxsize=8192)
def _is_launch_qualname(qualname: str, configurations: bool) -> bool:
    """LaunchInterpreter._is_launch_qualname, once per name: the reach tests of
    every run of a file ask it for the same names (~1,400 a run of SGLang's
    PD fixture)."""
    if is_process_runner(qualname):
        return True
    last = qualname.rsplit(".", 1)[-1]
    if qualname.startswith("sglang.multimodal_gen.") and last != "popen_with_error_check":
        # The diffusion server's own ServerArgs / launch_server start no LLM
        # server (_call_external): a diffusion unit test that builds its
        # ServerArgs reaches no launch and is not run (issue 20).
        return False
    return (last in _ENTRY_CALLS and (configurations or last not in _CONFIGURATION_CALLS)) or _is_sglang_runtime(qualname)


@functools.lru_cache(maxsize=4096)
def _keeps_builtin_model(qualname: str) -> bool:
    """(LaunchInterpreter._builtin_model; once per name and process: every
    import an analysis resolves asks it)"""
    if qualname == SGLANG_ENVS:
        return True  # its fields' reads are the environment's (PythonInterpreter._sglang_env_get)
    # (SGLang's helpers by their module: another package's function of the same
    # name is read where the tree holds it, as any function of the project:
    # sglang-jax's `sgl_jax.test.test_utils.popen_launch_server` runs
    # `sgl_jax.launch_server`, whose options are not SGLang's; one the tree does
    # not hold is still taken for SGLang's, _call_external)
    return _is_sglang_runtime(qualname) or any(
        _is_sglang_name(qualname, name) for name in ("popen_launch_pd_server", "popen_launch_server", "popen_with_error_check", "launch_server", "launch_server_cmd", "execute_shell_command", "run_server", "Engine", "ServerArgs")
    )


def _is_sglang_runtime(qualname: str) -> bool:
    """SGLang's ``Runtime`` (``sgl.Runtime``, ``sglang.lang.api.Runtime``,
    ``...runtime_endpoint.Runtime``), never another package's class of that
    common name, nor a bare name nothing imported."""
    parts = qualname.split(".")
    return parts[-1] == "Runtime" and parts[0] in ("sglang", "sgl") and len(parts) > 1


def _is_sglang_name(qualname: str, name: str) -> bool:
    parts = qualname.split(".")
    return parts[-1] == name and (parts[0] in ("sglang", "sgl") or len(parts) == 1 or parts[0] == "")


# Calls that only look at the values given to them: a configuration handed to
# one is inspected, not launched (LaunchInterpreter._record_use).
_INSPECTING_BUILTINS = frozenset({"isinstance", "repr", "str", "print", "getattr", "hasattr", "vars", "id", "type"})


def _inspects(func: ast.AST) -> bool:
    """A call that only looks at its arguments: a test case's assertion
    (``self.assertEqual``, ``self.assertIsInstance``, ``self.fail``) or a builtin
    that reads a value."""
    if isinstance(func, ast.Attribute):
        return func.attr.startswith("assert") or func.attr == "fail"
    return isinstance(func, ast.Name) and func.id in _INSPECTING_BUILTINS


def _mention_key(node) -> str:
    """The name a value is kept under for launch notes: ``cmd``; ``.cmd`` for an
    attribute (``self.cmd``, ``cls.cmd``: the same attribute by any receiver)."""
    return node.id if isinstance(node, ast.Name) else "." + node.attr


_ONE_LINE = str.maketrans("\\\n\r", "   ")


# The lines of the launches an image a Python file builds runs: all of them.
_WHOLE_FILE = (1, 2**31 - 1)


def _helper_argv(command: Word) -> list[Word]:
    """The argv ``execute_shell_command`` starts (0.5.23 sglang/utils.py:473-486):
    ``command.split()`` with no shell quoting (a quote is a character of its
    word: ``--json-model-override-args '{"a": 1}'`` is two words, ``'{"a":``
    and ``1}'``), after the leading ``KEY=VALUE`` words it takes for the
    environment. A piece we cannot see that is a whole field may be any
    number of fields, as in a whitespace split."""
    fields = [spread_word(field[0].value, field[0].loc) if len(field) == 1 and field[0].split else field for field in split_word(as_written(command), None)]
    while fields:
        # (the known text the field starts with: `CUDA_VISIBLE_DEVICES={gpu}`
        # is an assignment whatever the value)
        known = word_value(fields[0]).literal_prefix()
        key, equals, _ = known.partition("=")
        if not equals or known.startswith(("-", "/")) or not key.replace("_", "").isalnum():
            break
        fields.pop(0)
    return fields


def _command_node(node, keyword: str):
    """The expression of a process call's command: its first argument or the
    keyword that may give it."""
    if not isinstance(node, ast.Call):
        return None
    if node.args and not isinstance(node.args[0], ast.Starred):
        return node.args[0]
    return next((k.value for k in node.keywords if k.arg == keyword), None)


def _word_loc(word: Word) -> Location | None:
    for seg in word:
        if seg.loc.path:
            return seg.loc
    return None
