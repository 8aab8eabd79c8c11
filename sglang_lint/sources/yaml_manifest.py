"""The YAML source: SGLang launches in Kubernetes manifests and compose files.

Read with PyYAML's ``SafeLoader`` at the node level (``compose_all``): nothing is
constructed or executed, every scalar keeps its position and its text as written
(``- 8`` is the word ``8``, whatever YAML would resolve it to), and an alias is a
shared node, so an alias bomb costs its size on disk, not its expansion.

Launches:

- Kubernetes, and every format that nests container specs under keys of its own:
  any mapping, at any depth and under any key, with a ``command`` and/or ``args``
  list is a candidate launch - a container of a Pod, Deployment,
  StatefulSet, Job or LeaderWorkerSet leader/worker template, a RoleBasedGroup
  role's template or patch, an OME ClusterServingRuntime's ``runner``, a Dynamo
  DynamoGraphDeployment's ``extraPodSpec.mainContainer``. Its argv is ``command``
  + ``args``, one word per item (a nested list or mapping, which the kubelet
  refuses, is skipped; ``args`` alone when there is no ``command``, the image's
  entrypoint, which is not written here, most often running it). An llmaz
  BackendRuntime's ``spec.command`` runs with each recommended config's
  ``args`` (:mod:`llmaz_runtimes`).
  ``$(VAR)`` is expanded from the same mapping's ``env`` the way the kubelet
  does (entries in order, so an entry's value may use the ones before it): a
  literal ``value`` is known text; ``valueFrom`` (the downward API, a ConfigMap,
  a Secret) and a variable the manifest does not define (an operator such as
  LeaderWorkerSet injects ``LWS_GROUP_SIZE``) are symbols named ``$(VAR)``;
  ``$$(VAR)`` is the literal text ``$(VAR)``. A RoleBasedGroup role's patch
  container is read merged onto the role template's container of its name, as
  the operator merges them (:mod:`rbg_templates`): the template's image,
  ``env`` entries and the ``command``/``args`` the patch leaves out are its.
- Compose: every service's ``entrypoint`` + ``command`` (lists, or strings split
  like compose does, with shell quoting rules), interpolated as compose does
  (``${X:-d}`` is ``$X`` with its default, ``$$`` is ``$``).
- Any other string value (under a key or in a list; more than one word) that
  names a launch entry point is read as a shell command (a CI ``run: |`` step, a
  ConfigMap's ``launch.sh``, an Ansible ``shell:``), except where the text is
  data: prose and metadata keys (``description``, ``labels``, ...), ``env``
  values (they run only where a command expands them, and are read there) and
  files that are not shell scripts (a ConfigMap's ``config.yaml`` or
  ``server.py``).

Roles come from ``--disaggregation-mode``. All the documents of one file are one
deployment scope (joined with the single-role files of the same directory, as
for every source).

The argv goes through the shell source's launch detection, so ``sh -c`` / ``bash -c``
with a block scalar (``|``, ``>``, ``>-``) is read as a script, with the position
of every character mapped back to its YAML line; the container's literal ``env``
values are the script's variables.

Template placeholders in a file that parses as YAML - Helm/Jinja/Go ``{{ ... }}``
(quoted, inside a longer scalar, or unquoted, where YAML reads it as a nested flow
mapping), GitHub Actions ``${{ ... }}`` and a bare ``{name}`` word (srt-slurm
sweeps, docs) - are values we cannot see: each becomes a symbol named by its text
(``{{ .Values.tp }}``, trim markers and blanks normalised), so the same placeholder
on both sides of a pair is equal and one alone never makes a finding; one note per
file says so (lint the rendered manifest for exact results). Files that are
templates rather than YAML (``{{- if }}`` / ``{% %}`` lines, or placeholders that
break the YAML) are skipped with one note instead of a flood of parse errors.
"""

from __future__ import annotations

import re
from typing import Mapping

import yaml
from msgspec import Struct
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from sglang_lint.model import Kind, Location, Note, SourceResult, Value
from sglang_lint.sources import llmaz_runtimes, rbg_templates, srt_slurm
from sglang_lint.sources.shell import EmbeddedShell
from sglang_lint.sources.shell_launches import MANIFEST_LAUNCH_KEY
from sglang_lint.sources.shell_words import Seg, Word
from sglang_lint.sources.yaml_nodes import fields as _fields
from sglang_lint.version_facts import version_from_image

# Nodes visited per file: a bound on work for huge or alias-heavy documents.
MAX_NODES = 200_000
# Nesting followed when looking for containers.
MAX_DEPTH = 200

_TEMPLATE = re.compile(r"\{\{-?\s*[.$\w]|\{%-?\s*\w")
# A placeholder inside a scalar's text: GitHub Actions `${{ ... }}`, Helm/Jinja/Go
# `{{ ... }}` (on one line), or a bare `{name}` (not `${name}`, `{{name}}`).
_PLACEHOLDER = re.compile(r"\$\{\{[^\n]*?\}\}|\{\{[^\n]*?\}\}|(?<![$\w{])\{[A-Za-z_][A-Za-z0-9_]*\}(?!\})")
# ... and, in a Kubernetes object that is an envsubst template (its name is
# `${JOB_NAME}`: no cluster takes that), `${NAME}`, which the kubelet never
# expands (it expands `$(NAME)`).
_BRACED_VARIABLE = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*\}")
_ENVSUBST_PLACEHOLDER = re.compile(f"{_PLACEHOLDER.pattern}|{_BRACED_VARIABLE.pattern}")
_PLACEHOLDER_NOTE = (
    "template placeholders (such as '{first}') were read as unknown values, never as the text they stand for; "
    "lint the rendered manifest for exact results (e.g. helm template ... > rendered.yaml)"
)
_K8S_VAR = re.compile(r"\$\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)")
# The keys of a compose service read as its launch (not again as shell command
# strings: compose splits a `command` string itself).
_COMPOSE_KEYS = frozenset({"entrypoint", "command"})
# Keys whose string values are data or prose, never a command that runs (below
# them, at any depth): a container's `env` entries run only where a command
# expands them, and are read there.
_DATA_KEYS = frozenset(
    {"env", "description", "summary", "help", "title", "message", "comment", "notes", "labels", "annotations", "image", "name"}
)
# A ConfigMap-style file name (`launch.sh`, `config.yaml`): only shell scripts are
# read as shell.
_FILE_NAME = re.compile(r"[\w.-]+\.([A-Za-z0-9]+)")
_SHELL_SUFFIXES = frozenset({"sh", "bash"})


class _EnvVar(Struct):
    value: Value
    seg: Seg | None  # the literal's piece, positions included
    # Set by the cluster (valueFrom: the downward API, a ConfigMap, a Secret): a
    # value we cannot see.
    from_cluster: bool = False


class YamlAnalyzer:
    def __init__(self, path: str, text: str, env: Mapping[str, str] | None = None, placeholder_note: bool = True) -> None:
        self.path = path
        self.text = text
        # The config's `env`, for shell scripts (`sh -c`) reading variables the
        # container's own env does not set (an envFrom ConfigMap, say).
        self.configured_env: Mapping[str, str] = env or {}
        # A configured value names an entry point (`python -m $ENTRY`): a string
        # that expands a variable may then launch without spelling sglang.
        self.env_names_entry = any("sglang" in value for value in self.configured_env.values())
        self.lines = text.split("\n")
        self.result = SourceResult(path=path, lines=self.lines)
        self._shell: EmbeddedShell | None = None
        # Compose services, read as launches before the walk reaches them; the
        # scalars read as the words of a command/args launch (never read again as
        # command strings).
        self.services: set[int] = set()
        self.read_words: set[int] = set()
        # A RoleBasedGroup role's patch containers, each with the containers of
        # the templates it is merged onto (rbg_templates).
        self.patch_bases: dict[int, tuple[MappingNode, ...]] = {}
        # An llmaz BackendRuntime document: its spec's command runs with each
        # recommended config's args (llmaz_runtimes).
        self.runtime: llmaz_runtimes.BackendRuntime | None = None
        self.nodes_seen = 0
        self.noted_depth = False
        # The first template placeholder read as a value: (line, column, text).
        self.placeholder_at: tuple[int, int, str] | None = None
        # The placeholders of the document being read (_envsubst_template).
        self.placeholders = _PLACEHOLDER
        self.placeholder_note = placeholder_note
        self._line_starts = [0]
        for index, char in enumerate(text):
            if char == "\n":
                self._line_starts.append(index + 1)

    # -- entry --------------------------------------------------------------------
    def run(self) -> SourceResult:
        # A template directive on a line of its own (`{{- if .Values.x }}`,
        # `{% for %}`) makes the file a template even when it happens to parse; a
        # `{{ }}` inside a value only does when the file does not parse as YAML
        # (`--format "{{.Name}}"` is a fine argument).
        directive = re.search(r"(?m)^[ \t]*(\{\{|\{%)", self.text)
        if directive is not None:
            return self._template(directive.start(1))
        depth_at = _too_deep(self.text)
        if depth_at is not None:
            line = self.text.count("\n", 0, depth_at) + 1
            self.result.notes.append(Note(self.path, f"YAML nested deeper than {MAX_DEPTH} levels; not analyzed", line))
            return self.result
        self._collect_comments()
        try:
            for document in yaml.compose_all(self.text, Loader=_LOADER):
                # Nodes are told apart by id() within a document, which keeps them
                # alive; an earlier document's nodes are freed and their ids reused.
                self.read_words.clear()
                self.services.clear()
                self.patch_bases = rbg_templates.patch_bases(document)
                self.placeholders = _ENVSUBST_PLACEHOLDER if _envsubst_template(document) else _PLACEHOLDER
                self.runtime = llmaz_runtimes.backend_runtime(document)
                # An srt-slurm recipe is read by its own module (issue 18).
                if document is not None and not srt_slurm.read_recipe(self.path, document, self.result):
                    self._walk(document, 0, set(), False)
        except yaml.MarkedYAMLError as error:
            error = _python_error(self.text, error)
            template = _TEMPLATE.search(self.text)
            if template is not None:
                self.result.servers.clear()
                self.result.routers.clear()
                return self._template(template.start())
            mark = error.problem_mark or error.context_mark
            line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
            problem = error.problem or error.context or "invalid YAML"
            self.result.notes.append(Note(self.path, f"YAML syntax error: {problem}; launches after this point are not analyzed", line, column))
        except yaml.YAMLError as error:
            self.result.notes.append(Note(self.path, f"YAML error: {error}; launches after this point are not analyzed"))
        except RecursionError:
            self.result.notes.append(Note(self.path, "YAML nested too deeply to read; launches after this point are not analyzed"))
        except _Budget:
            self.result.notes.append(Note(self.path, f"stopped after {MAX_NODES} YAML nodes; launches after this point are not analyzed"))
        if self._shell is not None:
            self.result.notes.extend(self._shell.notes)
            self.result.broken_continuations.extend(self._shell.broken_continuations)
        if self.placeholder_at is not None and self.placeholder_note:
            line, column, first = self.placeholder_at
            self.result.notes.append(Note(self.path, _PLACEHOLDER_NOTE.format(first=first), line, column))
        return self.result

    def _template(self, offset: int) -> SourceResult:
        """A template's note, where it may hold a launch: a command or an
        argument list (a container's, a compose service's), or a string naming
        an entry point. A chart's PVC, RBAC, Service or HPA templates hold none
        (a chart named sglang made each of its 14 templates a note)."""
        if not MANIFEST_LAUNCH_KEY.search(self.text) and not _TEMPLATE_ENTRY.search(self.text):
            return self.result
        line = self.text.count("\n", 0, offset) + 1
        self.result.notes.append(
            Note(self.path, "this file is a template (Helm/Jinja '{{ ... }}'), not YAML: it is not analyzed; lint the rendered manifest instead (e.g. helm template ... > rendered.yaml)", line)
        )
        return self.result

    def _collect_comments(self) -> None:
        """``#`` comments (for ``# noqa``): a ``#`` at a line start or after a blank,
        outside every scalar (a ``#`` inside a block scalar is script text). Only
        suppression directives are wanted from them: a file that spells neither
        ``noqa`` nor ``sglang-lint`` is not scanned at all."""
        lowered = self.text.lower()
        if "noqa" not in lowered and "sglang-lint" not in lowered:
            return
        spans: list[tuple[int, int]] = []
        try:
            for token in yaml.scan(self.text, Loader=_LOADER):
                if isinstance(token, yaml.ScalarToken):
                    spans.append((token.start_mark.index, token.end_mark.index))
        except (yaml.YAMLError, RecursionError):
            pass
        spans.sort()
        span_index = 0
        for number, line in enumerate(self.lines, start=1):
            start = self._line_starts[number - 1]
            column = -1
            while True:
                column = line.find("#", column + 1)
                if column < 0:
                    break
                if column and line[column - 1] not in " \t":
                    continue
                offset = start + column
                while span_index < len(spans) and spans[span_index][1] <= offset:
                    span_index += 1
                if any(s <= offset < e for s, e in spans[span_index : span_index + 3]):
                    continue
                self.result.comments[number] = line[column:]
                break

    # -- walking ------------------------------------------------------------------
    def _walk(self, node: Node, depth: int, seen: set[int], data: bool) -> None:
        """Visit ``node``: its launches, then its children. ``data``: under a key
        whose strings are data or prose (``_DATA_KEYS``), never a command."""
        if id(node) in seen:
            return
        if depth > MAX_DEPTH:
            # Nesting the text scan cannot see (`- - - ...` on one line), which
            # libyaml before 0.2.5 composes to any depth: say so, once.
            if not self.noted_depth:
                self.noted_depth = True
                mark = node.start_mark
                self.result.notes.append(
                    Note(self.path, f"YAML nested deeper than {MAX_DEPTH} levels; the deeper part is not analyzed", mark.line + 1, mark.column + 1)
                )
            return
        seen.add(id(node))
        self.nodes_seen += 1
        if self.nodes_seen > MAX_NODES:
            raise _Budget()
        if isinstance(node, MappingNode):
            if node.flow_style and self._flow_placeholder(node) is not None:
                return  # `image: {{ .Values.image }}`: a value we cannot see
            fields = _fields(node)
            services = fields.get("services")
            if depth == 0 and isinstance(services, MappingNode):
                for _, service in services.value:
                    if isinstance(service, MappingNode):
                        self.services.add(id(service))
                        self._service(service)
            is_service = id(node) in self.services
            runtime = self.runtime
            if runtime is not None and node is runtime.spec:
                self._backend_runtime(runtime)
            elif runtime is not None and any(node is config for config in runtime.configs):
                pass  # read with the spec's command (_backend_runtime)
            elif not is_service and _argv_lists(fields):
                self._container(node)
            for key, value in node.value:
                name = key.value if isinstance(key, ScalarNode) else None
                if is_service and name in _COMPOSE_KEYS:
                    continue  # read above, as the service's launch
                self._walk(value, depth + 1, seen, data or _is_data_key(name))
        elif isinstance(node, SequenceNode):
            for item in node.value:
                self._walk(item, depth + 1, seen, data)
        elif isinstance(node, ScalarNode) and depth and not data and id(node) not in self.read_words:
            # A value under a key or in a list (a document that is one string has
            # no context that makes it a command).
            if _may_be_command(node.value, self.env_names_entry):
                self._command_string(node)

    # -- Kubernetes -------------------------------------------------------------------
    def _container(self, container: MappingNode) -> None:
        """A container, or any mapping shaped like one (``_argv_lists``): its argv
        is ``command`` + ``args`` as the kubelet builds it. A RoleBasedGroup
        role's patch container is read merged onto the template containers of
        its name (rbg_templates): what it leaves out of ``command``, ``args`` and
        ``image`` is theirs, and their ``env`` comes first, its own entries
        replacing those of the same name."""
        fields = _fields(container)
        env_items: list[Node] = []
        bases = self.patch_bases.get(id(container), ())
        if bases:
            merged: dict[str, Node] = {}
            for layer in (*bases, container):
                layer_fields = _fields(layer)
                merged.update((key, layer_fields[key]) for key in _MERGED_FIELDS if key in layer_fields)
                env_items = rbg_templates.merge_env(env_items, layer_fields.get("env"))
            fields = {**fields, **merged}
        else:
            env_items = list(fields["env"].value) if isinstance(fields.get("env"), SequenceNode) else []
        env = self._env(env_items)
        self._image(fields.get("image"), container)
        words = [*self._list_words(fields.get("command"), env), *self._list_words(fields.get("args"), env)]
        self._launch(words, self._command_loc(container, ("command", "args")), env)

    def _backend_runtime(self, runtime: llmaz_runtimes.BackendRuntime) -> None:
        """An llmaz BackendRuntime: one launch per recommended config, the
        spec's ``command`` + the config's ``args``, in the image
        ``image:version`` with the spec's ``envs``; the command alone when no
        config gives args."""
        fields = _fields(runtime.spec)
        env = self._env(list(fields["envs"].value) if isinstance(fields.get("envs"), SequenceNode) else [])
        image = runtime.image
        if image is not None:
            text, node = image
            lines = (runtime.spec.start_mark.line + 1, runtime.spec.end_mark.line + 1)
            if (hint := version_from_image(text, self._loc(node), lines)) is not None:
                self.result.version_hints.append(hint)
        command = self._list_words(fields.get("command"), env)
        if not runtime.configs:
            self._launch(command, self._command_loc(runtime.spec, ("command",)), env)
            return
        for config in runtime.configs:
            args = self._list_words(_fields(config).get("args"), env)
            self._launch([*command, *args], self._command_loc(config, ("args",)), env)

    def _list_words(self, part: Node | None, env: dict[str, _EnvVar]) -> list[Word]:
        """The words of a ``command``/``args`` list (an item that is a nested
        list or mapping, which the kubelet refuses, is skipped)."""
        words: list[Word] = []
        if isinstance(part, SequenceNode):
            for item in part.value:
                word = self._item_word(item)
                if word is not None:
                    self.read_words.add(id(item))
                    words.append(self._k8s_word(word, env))
        return words

    def _env(self, items: list[Node]) -> dict[str, _EnvVar]:
        """A container's ``env`` entries, in order: the kubelet expands
        ``$(VAR)`` in an entry's ``value`` from the entries before it
        (dependent variables)."""
        env: dict[str, _EnvVar] = {}
        for item in items:
            if not isinstance(item, MappingNode):
                continue
            fields = _fields(item)
            name = fields.get("name")
            if not isinstance(name, ScalarNode):
                continue
            value = fields.get("value")
            word = self._item_word(value) if value is not None else None
            if word is not None:
                word = self._k8s_word(word, env)
                env[name.value] = _EnvVar(Value.concat(seg.value for seg in word), word[0] if len(word) == 1 else None)
            else:
                env[name.value] = _EnvVar(Value.symbol(f"$({name.value})"), None, from_cluster=True)
        return env

    def _k8s_word(self, word: Word, env: dict[str, _EnvVar]) -> Word:
        """A command/args item with ``$(VAR)`` expanded as the kubelet does (in its
        known pieces; a template placeholder is a value we cannot see)."""
        if not any(seg.value.is_known and "$(" in seg.value.text for seg in word):
            return word
        pieces: list[Seg] = []
        for seg in word:
            if seg.value.is_known and "$(" in seg.value.text:
                pieces.extend(self._k8s_expand(seg, env))
            else:
                pieces.append(seg)
        return tuple(pieces) or word

    def _k8s_expand(self, seg: Seg, env: dict[str, _EnvVar]) -> list[Seg]:
        text = seg.value.text
        chars = seg.chars
        loc = seg.loc
        pieces: list[Seg] = []
        last = 0

        def literal(start: int, end: int, replacement: str | None = None) -> None:
            if start >= end and not replacement:
                return
            piece = replacement if replacement is not None else text[start:end]
            piece_chars = chars[start:end] if chars and replacement is None else None
            pieces.append(Seg(Value.known(piece), loc, chars=piece_chars))

        for match in _K8S_VAR.finditer(text):
            escaped, name = match.group(1), match.group(2)
            literal(last, match.start())
            if escaped is not None:
                literal(match.start(), match.end(), f"$({escaped})")
            elif name in env:
                var = env[name]
                origin = var.seg.loc if var.seg is not None else None
                pieces.append(Seg(var.value, loc, chars=var.seg.chars if var.seg is not None and var.value.is_known else None, origin=origin))
            else:
                # Not defined in the manifest: the kubelet leaves it as written,
                # but an operator may inject it (LeaderWorkerSet's LWS_GROUP_SIZE,
                # RBG's role addresses): a value we cannot see, never the text.
                where = loc
                if chars:
                    (line, column), (end_line, end_column) = chars[match.start()], chars[match.end() - 1]
                    where = Location(loc.path, line, column, end_line, end_column + 1)
                pieces.append(Seg(Value.symbol(f"$({name})"), where))
            last = match.end()
        literal(last, len(text))
        return pieces

    # -- compose ----------------------------------------------------------------------
    def _service(self, service: MappingNode) -> None:
        fields = _fields(service)
        entrypoint, command = fields.get("entrypoint"), fields.get("command")
        if entrypoint is None and command is None:
            return
        words: list[Word] = []
        for part in (entrypoint, command):
            if isinstance(part, SequenceNode):
                words.extend(self._compose_word(word) for word in map(self._item_word, part.value) if word is not None)
            elif isinstance(part, ScalarNode):
                # Compose interpolates the string, then splits it: an expression
                # with blanks in it (`${PARSER:+--reasoning-parser ${PARSER}}`)
                # is one piece, never cut in two at its blank.
                split = _shlex_words(_compose_interpolated(self._scalar_word(part)))
                if split is None:
                    self.result.notes.append(Note(self.path, "compose command with unbalanced quotes; not analyzed", *self._position(part)))
                    return
                words.extend(map(_any_number_of_words, split))
            elif part is not None:
                word = self._item_word(part)
                if word is not None:
                    words.append(self._compose_word(word))
        self._image(fields.get("image"), service, compose=True)
        self._launch(words, self._command_loc(service, ("entrypoint", "command")), {})

    def _compose_word(self, word: Word) -> Word:
        """A compose ``command``/``entrypoint`` word with compose's variable
        interpolation (``${X:-d}``, ``$X``, ``$$``: compose-spec
        interpolation.md), which compose applies to the file before the
        container sees it: ``--port "${PORT:-30000}"`` is the port 30000 unless
        the environment (or ``.env``) sets PORT, not the text
        ``${PORT:-30000}`` (an "invalid int value" of three public compose
        files). A word with blanks (a ``sh -c`` script) is left to the shell
        source, which reads the same syntax the same way."""
        if not any(seg.value.is_known and "$" in seg.value.text for seg in word):
            return word
        if any(seg.value.is_known and _BLANK.search(_BRACED.sub("", seg.value.text)) for seg in word):
            return word  # a script (blanks outside `${...}`)
        return _compose_interpolated(word) or word

    # -- launches -----------------------------------------------------------------
    def _launch(self, words: list[Word], loc: Location, env: dict[str, _EnvVar]) -> None:
        if not words:
            return
        variables: dict[str, Seg] = {}
        for name, var in env.items():
            if var.from_cluster:
                # `$NAME` in a `sh -c` script reads the environment variable.
                variables[name] = Seg(Value.symbol("$" + name), loc)
            elif var.seg is not None:
                variables[name] = Seg(var.value, var.seg.loc, chars=var.seg.chars, origin=var.seg.loc)
            else:
                variables[name] = Seg(var.value, loc)
        servers, routers = self._embedded().argv(words, loc, [], variables=variables)
        self.result.servers.extend(servers)
        self.result.routers.extend(routers)

    def _command_string(self, node: ScalarNode) -> None:
        """A string scalar naming a launch entry point, read as a shell command
        (``run: |``, ``script:``, a ConfigMap's ``launch.sh``). Its template
        placeholders count for the file's note only when it launches: a CI
        step that names sglang (`bash scripts/killall_sglang.sh`) beside a
        `${{ matrix.part }}` has nothing for the note to explain."""
        seen = self.placeholder_at
        servers, routers = self._embedded().script(self._scalar_word(node), self._loc(node), [])
        if not servers and not routers:
            self.placeholder_at = seen
        self.result.servers.extend(servers)
        self.result.routers.extend(routers)

    def _embedded(self) -> EmbeddedShell:
        if self._shell is None:
            self._shell = EmbeddedShell(self.path, self.text, self.configured_env)
        return self._shell

    def _image(self, image: Node | None, holder: MappingNode, compose: bool = False) -> None:
        """The SGLang release the container's (service's) image names, for the
        launches in it; a compose service's ``${SGLANG_IMAGE:-lmsysorg/sglang:v0.5.23}``
        names its default's (the image unless the environment sets another)."""
        if not isinstance(image, ScalarNode):
            return
        text = image.value
        if compose and "$" in text:
            # (the image unless the environment sets the variables: their
            # defaults, `lmsysorg/sglang:${TAG:-v0.5.6.post2}` too)
            pieces = _compose_expand(Seg(Value.known(text), self._loc(image)))
            defaults = [piece.value.text if piece.value.is_known else piece.value.default if piece.value.kind is Kind.SYMBOL else None for piece in pieces]
            if all(default is not None for default in defaults):
                text = "".join(defaults)  # type: ignore[arg-type]
        if hint := version_from_image(text, self._loc(image), (holder.start_mark.line + 1, holder.end_mark.line + 1)):
            self.result.version_hints.append(hint)

    # -- positions --------------------------------------------------------------------
    def _command_loc(self, mapping: MappingNode, names: tuple[str, ...]) -> Location:
        """From the first of the ``names`` keys to the last line of their values:
        the launch's lines, where a ``# noqa`` silences its findings (any item of
        a block ``args:`` list, not only the ``command:`` lines)."""
        start: tuple[int, int] | None = None
        end = (0, 0)
        for key, value in mapping.value:
            if isinstance(key, ScalarNode) and key.value in names:
                if start is None:
                    start = (key.start_mark.line + 1, key.start_mark.column + 1)
                end = max(end, _last_position(value, self.lines))
        if start is None:  # pragma: no cover - callers hold one of the keys
            return Location(self.path, 1, 1)
        return Location(self.path, start[0], start[1], end[0], end[1])

    def _position(self, node: Node) -> tuple[int, int]:
        return node.start_mark.line + 1, node.start_mark.column + 1

    def _loc(self, node: Node) -> Location:
        start, end = node.start_mark, node.end_mark
        return Location(self.path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    def _scalar_word(self, node: ScalarNode) -> Word:
        """The scalar's text as one piece, with the file position of each character
        when the source maps onto the value exactly (plain and quoted scalars
        without escapes, literal and folded blocks). Template placeholders in it
        are pieces of their own: symbols named by their text."""
        loc = self._loc(node)
        text = node.value
        chars = self._scalar_chars(node)
        if "{" not in text or self.placeholders.search(text) is None:
            return (Seg(Value.known(text), loc, chars=chars),)
        pieces: list[Seg] = []
        last = 0
        for match in self.placeholders.finditer(text):
            start, end = match.span()
            if start > last:
                pieces.append(Seg(Value.known(text[last:start]), loc, chars=chars[last:start] if chars else None))
            where = loc
            if chars:
                (line, column), (end_line, end_column) = chars[start], chars[end - 1]
                where = Location(self.path, line, column, end_line, end_column + 1)
            self._placeholder_seen(where.line, where.column, match.group())
            pieces.append(Seg(Value.symbol(_placeholder_name(match.group())), where))
            last = end
        if last < len(text):
            pieces.append(Seg(Value.known(text[last:]), loc, chars=chars[last:] if chars else None))
        return tuple(pieces)

    def _item_word(self, node: Node) -> Word | None:
        """A scalar's word; an unquoted placeholder (a flow mapping to YAML) as a
        symbol; None for anything else (a nested list or mapping)."""
        if isinstance(node, ScalarNode):
            return self._scalar_word(node)
        name = self._flow_placeholder(node)
        if name is None:
            return None
        return (Seg(Value.symbol(name), self._loc(node)),)

    def _flow_placeholder(self, node: Node) -> str | None:
        """``{{ .Values.tp }}`` / ``{tp}`` written without quotes: YAML reads a flow
        mapping (of a flow mapping); its text on one line is the placeholder."""
        if not isinstance(node, MappingNode) or not node.flow_style:
            return None
        start, end = node.start_mark, node.end_mark
        if start.line != end.line:
            return None
        written = self.text[start.index : end.index]
        if _PLACEHOLDER.fullmatch(written) is None:
            return None
        self._placeholder_seen(start.line + 1, start.column + 1, written)
        return _placeholder_name(written)

    def _placeholder_seen(self, line: int, column: int, written: str) -> None:
        if self.placeholder_at is None or (line, column) < self.placeholder_at[:2]:
            self.placeholder_at = (line, column, written if len(written) <= 60 else written[:57] + "...")

    def _scalar_chars(self, node: ScalarNode) -> tuple[tuple[int, int], ...] | None:
        value = node.value
        start, end = node.start_mark.index, node.end_mark.index
        source = self.text[start:end]
        style = node.style
        if style in (None, "", "'", '"') and "\n" not in source:
            offset = 1 if style in ("'", '"') else 0
            if source[offset : offset + len(value)] == value and (style != "'" or "''" not in source):
                line, column = self._position(node)
                return tuple((line, column + offset + k) for k in range(len(value)))
            return None
        if style in ("|", ">"):
            return self._block_chars(node)
        return None

    def _block_chars(self, node: ScalarNode) -> tuple[tuple[int, int], ...] | None:
        """Literal (``|``) and folded (``>``) blocks: each content line maps to a file
        line with its indentation dropped; a folded line break (a space in the
        value) and a kept newline sit at the end of their line."""
        first_line = node.start_mark.line + 1  # the line after the indicator (0-based + 1)
        last_line = node.end_mark.line
        content = [(n, self.lines[n]) for n in range(first_line, min(last_line + 1, len(self.lines)))]
        indent = min((len(t) - len(t.lstrip(" ")) for _, t in content if t.strip()), default=0)
        rebuilt: list[str] = []
        positions: list[tuple[int, int]] = []
        for n, line in content:
            body = line[indent:] if line.strip() else ""
            for k, char in enumerate(body):
                rebuilt.append(char)
                positions.append((n + 1, indent + k + 1))
            rebuilt.append("\n")
            positions.append((n + 1, len(line) + 1))
        value = node.value
        text = "".join(rebuilt)
        if node.style == ">":
            # Rebuild is exact for the common case (no more-indented lines, no
            # blank lines): a single line break folds into a space.
            folded = []
            folded_positions = []
            lines_text = text.split("\n")
            cursor = 0
            for index, part in enumerate(lines_text):
                folded.extend(part)
                folded_positions.extend(positions[cursor : cursor + len(part)])
                cursor += len(part)
                if index < len(lines_text) - 1:
                    folded.append(" ")
                    folded_positions.append(positions[cursor])
                    cursor += 1
            text, positions = "".join(folded), folded_positions
        # Chomping: compare without the trailing breaks, then pad to the value.
        stripped = text.rstrip("\n ")
        if not value.startswith(stripped) or value[len(stripped) :].strip("\n ") != "":
            return None
        positions = positions[: len(stripped)]
        tail = len(value) - len(stripped)
        end = positions[-1] if positions else (node.start_mark.line + 1, node.start_mark.column + 1)
        positions.extend([(end[0], end[1] + 1)] * tail)
        return tuple(positions)


class _Budget(Exception):
    pass


def _too_deep(text: str) -> int | None:
    """Offset where flow brackets (outside quotes and comments) or indentation go
    deeper than MAX_DEPTH, or None. PyYAML's parser recurses per level and spends
    seconds reaching Python's recursion limit on hostile nesting; manifests nest a
    few dozen levels. Over-counting (a bracket in a plain scalar) is harmless at
    this bound."""
    # Both limits need text that most manifests lack: more opening brackets than
    # MAX_DEPTH, or a line indented past 2 * MAX_DEPTH. Without either, the
    # character scan below (a millisecond a manifest) cannot find anything.
    deep_indent = " " * (2 * MAX_DEPTH + 1)
    if text.count("[") + text.count("{") <= MAX_DEPTH and "\n" + deep_indent not in text and not text.startswith(deep_indent):
        return None
    depth = 0
    quote = ""
    line_start = True
    indent = 0
    for offset, char in enumerate(text):
        if char == "\n":
            line_start, indent = True, 0
            if quote == "#":
                quote = ""
            continue
        if line_start:
            if char == " ":
                indent += 1
                if indent > 2 * MAX_DEPTH:
                    return offset
                continue
            line_start = False
        if quote:
            if char == quote and quote != "#":
                quote = ""
            continue
        if char in "'\"" or char == "#":
            quote = char
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return offset
        elif char in "]}" and depth:
            depth -= 1
    return None


def _envsubst_template(document: Node | None) -> bool:
    """A Kubernetes object whose ``metadata.name`` holds ``${NAME}``: a file
    rendered by envsubst (or a CI's own substitution) before it is applied, as
    no cluster accepts that name. Its ``${NAME}`` are then placeholders, not
    text the container receives (the kubelet expands only ``$(NAME)``)."""
    if not isinstance(document, MappingNode):
        return False
    fields = _fields(document)
    metadata = fields.get("metadata")
    if "kind" not in fields or "apiVersion" not in fields or not isinstance(metadata, MappingNode):
        return False
    name = _fields(metadata).get("name")
    return isinstance(name, ScalarNode) and _BRACED_VARIABLE.search(name.value) is not None


def _placeholder_name(written: str) -> str:
    """The symbol of a placeholder: its text with Go/Jinja trim markers dropped and
    blanks normalised, so that ``{{- .Values.tp }}`` and ``{{.Values.tp}}`` are
    one symbol (``{{ .Values.tp }}``)."""
    for opening in ("${{", "{{"):
        if written.startswith(opening) and written.endswith("}}"):
            inner = written[len(opening) : -2].strip()
            inner = inner.removeprefix("-").removesuffix("-").strip()
            return f"{opening} {' '.join(inner.split())} }}}}"
    return written


def _last_position(node: Node, lines: list[str]) -> tuple[int, int]:
    """(line, column) just after the last character of ``node``'s text: a block
    collection's or block scalar's end mark is at the start of whatever follows."""
    if isinstance(node, (SequenceNode, MappingNode)) and not node.flow_style and node.value:
        last = node.value[-1]
        return _last_position(last[1] if isinstance(last, tuple) else last, lines)
    mark = node.end_mark
    if mark.column == 0 and mark.line > node.start_mark.line:
        # the end of the line before (a block scalar)
        return mark.line, len(lines[mark.line - 1]) + 1 if mark.line <= len(lines) else 1
    return mark.line + 1, mark.column + 1


def _argv_lists(fields: dict[str, Node]) -> bool:
    """Whether a mapping's ``command`` and/or ``args`` are lists (the shape of a
    Kubernetes container's, wherever the mapping is)."""
    parts = [fields[key] for key in ("command", "args") if key in fields]
    return bool(parts) and all(isinstance(part, SequenceNode) for part in parts)


def _may_be_command(text: str, env_names_entry: bool) -> bool:
    """Whether a string value may be a shell command that launches: it names
    SGLang (or expands a variable when the config's env names the entry point),
    and it is more than one word - a single word is a name (``component:
    sglang-router`` in a selector is a label, not the router binary run bare)."""
    if "sglang" not in text and not (env_names_entry and "$" in text):
        return False
    return len(text.split(None, 1)) > 1


def _is_data_key(name: str | None) -> bool:
    """Whether the strings under the key ``name`` are data, never a command."""
    if name is None:
        return False
    if name in _DATA_KEYS:
        return True
    file_name = _FILE_NAME.fullmatch(name)
    return file_name is not None and file_name.group(1) not in _SHELL_SUFFIXES


# An entry point written in a template's string (a ConfigMap's `launch.sh`); the
# router's bare name is left out: it is the job label of a chart's alert rules.
_TEMPLATE_ENTRY = re.compile(r"sglang\.launch_server|dynamo\.sglang|sglang_router\.launch_router|sglang[ \t]+serve")

# The fields of a RoleBasedGroup template's container a patch container keeps
# unless it sets them itself (env is merged by name instead).
_MERGED_FIELDS = ("command", "args", "image")


# libyaml's parser when PyYAML was built with it (the wheels are): the same
# nodes, marks (code-point index, line, column) and errors as the pure-Python
# SafeLoader, an order of magnitude faster. Differences: a plain scalar's style is
# '' instead of None (we test `not style`), and a tab after `key:` is accepted,
# as Kubernetes' own parser does.
_LOADER = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader


def _python_error(text: str, error: yaml.MarkedYAMLError) -> yaml.MarkedYAMLError:
    """The pure-Python parser's report of a syntax error libyaml found: it marks
    where the construct goes wrong (the line of an unclosed `[`) where libyaml
    marks where it noticed (the end of the input). Errors are rare; the second
    parse costs nothing on valid files."""
    if _LOADER is yaml.SafeLoader:
        return error
    try:
        for _ in yaml.compose_all(text, Loader=yaml.SafeLoader):
            pass
    except yaml.MarkedYAMLError as python_error:
        return python_error
    except (yaml.YAMLError, RecursionError):
        pass
    return error


_COMPOSE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BRACED = re.compile(r"\$\{[^}]*\}")
_BLANK = re.compile(r"\s")


def _compose_expand(seg: Seg) -> list[Seg]:
    """The pieces of a known piece of text after compose's interpolation: its
    text, ``$$`` as ``$``, and each variable as a symbol (with its default);
    a malformed or nested expression (compose refuses the first, and the
    second's default is itself a variable) is a value we cannot see."""
    text, chars, loc = seg.value.text, seg.chars, seg.loc
    pieces: list[Seg] = []

    def literal(start: int, end: int, replacement: str | None = None) -> None:
        if start >= end:
            return
        if replacement is not None:
            pieces.append(Seg(Value.known(replacement), loc))
        else:
            pieces.append(Seg(Value.known(text[start:end]), loc, chars=chars[start:end] if chars else None))

    def where(start: int, end: int) -> Location:
        if not chars:
            return loc
        (line, column), (end_line, end_column) = chars[start], chars[end - 1]
        return Location(loc.path, line, column, end_line, end_column + 1)

    last = 0
    at = text.find("$")
    while at != -1:
        following = text[at + 1 : at + 2]
        if following == "$":
            literal(last, at)
            literal(at, at + 2, "$")
            last = at + 2
        elif following == "{":
            depth, end = 1, at + 2
            while end < len(text) and depth:
                if text.startswith("${", end):
                    depth += 1
                    end += 1
                elif text[end] == "}":
                    depth -= 1
                end += 1
            if depth:
                break  # unclosed: compose refuses it; the rest stays text
            literal(last, at)
            pieces.append(Seg(_compose_value(text[at + 2 : end - 1]), where(at, end)))
            last = end
        else:
            name = _COMPOSE_NAME.match(text, at + 1)
            if name is not None:
                literal(last, at)
                pieces.append(Seg(Value.symbol("$" + name.group()), where(at, name.end())))
                last = name.end()
        at = text.find("$", max(last, at + 1))
    literal(last, len(text))
    return pieces


def _compose_interpolated(word: Word) -> Word:
    """``word`` after compose's interpolation (:func:`_compose_expand`)."""
    pieces: list[Seg] = []
    for seg in word:
        if seg.value.is_known and "$" in seg.value.text:
            pieces.extend(_compose_expand(seg))
        else:
            pieces.append(seg)
    return tuple(pieces)


def _any_number_of_words(word: Word) -> Word:
    """A word of a ``command`` string that is one interpolation alone: compose
    splits the string after interpolating it, so a variable without a default
    (``${EXTRA_ARGS}``), a default with blanks, or an expression we cannot
    see (``${PARSER:+--reasoning-parser ${PARSER}}``) may be any number of
    words."""
    if len(word) != 1 or word[0].value.is_known:
        return word
    value = word[0].value
    if value.kind is Kind.SYMBOL and value.default is not None and not _BLANK.search(value.default):
        return word
    return (Seg(value, word[0].loc, split=True, origin=word[0].origin),)


def _compose_value(inner: str) -> Value:
    """The value of ``${inner}`` under compose's interpolation."""
    name = _COMPOSE_NAME.match(inner)
    if name is None:
        return Value.unknown(f"compose interpolation ${{{inner}}}")
    rest = inner[name.end() :]
    variable = "$" + name.group()
    if not rest:
        return Value.symbol(variable)
    operator = rest[:2] if rest[:1] == ":" else rest[:1]
    operand = rest[len(operator) :]
    if "$" in operand or operator not in (":-", "-", ":?", "?", ":+", "+"):
        return Value.unknown(f"compose interpolation ${{{inner}}}")
    if operator in (":-", "-"):
        return Value.symbol(variable, operand)
    if operator in (":?", "?"):
        return Value.symbol(variable)  # (set, or compose stops with the message)
    return Value.one_of([Value.known(""), Value.known(operand)])


def _shlex_words(word: Word) -> list[Word] | None:
    from sglang_lint.sources.python_values import shlex_split

    return shlex_split(word)


def analyze_yaml(path: str, text: str, env: Mapping[str, str] | None = None, placeholder_note: bool = True) -> SourceResult:
    """Extract the launches of one YAML file. Never raises for any text.
    ``placeholder_note``: note template placeholders read as unknown values (the
    Markdown source reads its own placeholders and says nothing)."""
    return YamlAnalyzer(path, text, env, placeholder_note).run()
