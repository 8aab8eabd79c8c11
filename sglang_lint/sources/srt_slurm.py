"""srt-slurm recipes: the job files of NVIDIA's ``srtctl`` (github.com/NVIDIA/srt-slurm),
used by SGLang's CI (``scripts/ci/slurm/recipes/``) and by benchmark suites.

The YAML source hands every document to :func:`read_recipe`; a document of the
recipe's shape becomes the servers ``srtctl`` would start, any other is left to
the YAML source. The shape (srtctl ``core/schema.py`` ``SrtConfig``,
``backends/sglang.py`` ``SGLangProtocol``, srt-slurm commit c88ef731)::

    name: ...
    model: {path: ..., container: ...}
    resources: {gpus_per_node, prefill_nodes, prefill_workers, decode_nodes,
                decode_workers, agg_nodes, agg_workers, gpus_per_prefill, ...}
    frontend: {type: dynamo | sglang}          # dynamo by default
    backend:
      type: sglang                             # the default backend
      prefill_environment: {NAME: value}       # decode_/aggregated_environment
      sglang_config: {prefill: {...}, decode: {...}, aggregated: {...}}
    sweep: {param: [values, ...]}              # or {mode: ..., parameters: {...}}

A recipe is recognised by its shape: a ``backend`` mapping holding an
``sglang_config`` mapping, or a ``backend.type`` of ``sglang`` beside a ``model`` or
``resources`` mapping; at the top level, or under ``base:`` (the files whose
``override_*`` / ``zip_override_*`` sections derive further jobs from ``base``).

Which servers start: a recipe whose resources set ``prefill_nodes`` or
``decode_nodes`` is disaggregated (``ResourceConfig.is_disaggregated``): one
prefill and one decode launch (srtctl refuses zero workers of either), each
with its ``sglang_config`` section or none; otherwise one aggregated launch. A
recipe without ``resources`` starts the sections it has.

Each server's argv is what ``SGLangProtocol.build_worker_command`` builds:
``python3 -m dynamo.sglang`` (``sglang.launch_server`` for ``frontend.type:
sglang``), ``--model-path`` (``/model``, or the id after ``hf:``),
``--disaggregation-mode ROLE`` (not for aggregated), ``--nnodes N --node-rank 0``
when a worker spans N > 1 nodes (the rank-0 server, the one the router talks
to), then the section as ``_config_to_cli_args`` writes it: keys sorted, ``_``
made ``-``, ``true`` a bare flag, ``false`` and ``null`` nothing, a list
``--key item ...``, anything else ``--key str(value)`` (``0.85``, ``{'a': 1}``);
the section's ``model-path``, ``served-model-name`` and ``nccl-port`` keys are
dropped (srtctl passes its own). Values are built as srtctl's ``yaml.safe_load``
builds them (``yes`` is true, ``0x10`` is 16). The host, ports and the served
name srtctl assigns at run time are left out: no check reads them. Every word
points at what wrote it: an option at its key, a value at its value, the
disaggregation mode at the section's key.

Sweep placeholders: srtctl replaces ``{param}`` in every string with each value
of ``sweep.param`` in turn. A placeholder the sweep defines reads as the set of
its values (so a mismatch that holds on every value is found, and one that
depends on the value is not); any other ``{name}`` reads as the symbol
``{name}`` (the same on both sides, never a finding by itself), with one note.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from msgspec import Struct
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from sglang_lint.model import (
    ArgToken,
    EntryPoint,
    Location,
    Note,
    Resources,
    ServerLaunch,
    SourceResult,
    Value,
    WrittenValue,
)
from sglang_lint.sources.yaml_nodes import fields as _fields
from sglang_lint.version_facts import version_from_image

__all__ = ["read_recipe", "recipe_root"]

# (section of sglang_config, --disaggregation-mode, environment key, resources prefix)
_ROLES = {
    "prefill": ("prefill", "prefill_environment", "prefill"),
    "decode": ("decode", "decode_environment", "decode"),
    "aggregated": (None, "aggregated_environment", "agg"),
}
# Keys srtctl pops from a section: it passes its own (build_worker_command).
_REPLACED_KEYS = frozenset({"model-path", "model_path", "served-model-name", "served_model_name", "nccl-port", "nccl_port"})
# `{param}` as srtctl's expand_template replaces it (any text between braces).
_PLACEHOLDER = re.compile(r"\{([^{}\s]+)\}")
_OVERRIDE_PREFIXES = ("override_", "zip_override_")


def recipe_root(document: Node) -> MappingNode | None:
    """The mapping holding the recipe (the document, or its ``base:``), or None
    when the document is not an srt-slurm recipe."""
    if not isinstance(document, MappingNode):
        return None
    if _is_recipe(document):
        return document
    base = _fields(document).get("base")
    if isinstance(base, MappingNode) and _is_recipe(base):
        return base
    return None


def _is_recipe(mapping: MappingNode) -> bool:
    fields = _fields(mapping)
    backend = fields.get("backend")
    if not isinstance(backend, MappingNode):
        return False
    backend_fields = _fields(backend)
    if isinstance(backend_fields.get("sglang_config"), MappingNode):
        return True
    kind = backend_fields.get("type")
    return (
        isinstance(kind, ScalarNode)
        and kind.value == "sglang"
        and any(isinstance(fields.get(key), MappingNode) for key in ("model", "resources"))
    )


def read_recipe(path: str, document: Node, result: SourceResult) -> bool:
    """Add the servers of ``document`` to ``result`` when it is an srt-slurm
    recipe; False (and nothing added) when it is not one."""
    root = recipe_root(document)
    if root is None:
        return False
    _RecipeReader(path, result).read(document, root)
    return True


class _Section(Struct):
    """One role's part of the recipe."""

    role: str
    key: Node | None  # the role's key under sglang_config, when written
    config: MappingNode | None


class _RecipeReader:
    def __init__(self, path: str, result: SourceResult) -> None:
        self.path = path
        self.result = result
        self.constructor = SafeConstructor()
        self.sweep: dict[str, Value] = {}
        # The first placeholder the sweep does not define: (location, text).
        self.undefined_placeholder: tuple[Location, str] | None = None

    # -- the recipe -----------------------------------------------------------------
    def read(self, document: MappingNode, root: MappingNode) -> None:
        fields = _fields(root)
        if root is not document:
            self._note_overrides(document)
        self.sweep = self._sweep(fields.get("sweep"))
        backend = _fields(fields["backend"])
        sglang_config = backend.get("sglang_config")
        sections = _fields(sglang_config) if isinstance(sglang_config, MappingNode) else {}
        section_keys = _key_nodes(sglang_config) if isinstance(sglang_config, MappingNode) else {}
        keys = _key_nodes(root)
        resources_key = keys.get("resources") if isinstance(fields.get("resources"), MappingNode) else None
        resource_fields = _fields(fields["resources"]) if resources_key is not None else None
        model = _fields(fields["model"]) if isinstance(fields.get("model"), MappingNode) else {}
        entry = self._entry(fields.get("frontend"))
        name = fields.get("name")
        scope = "srt-slurm recipe" + (f" {name.value!r}" if isinstance(name, ScalarNode) and name.value else "")
        container = model.get("container")
        image = WrittenValue(self._text_value(container), self._loc(container)) if isinstance(container, ScalarNode) else None
        job_environment = self._environment(fields.get("environment"))

        for section in self._launched_sections(sections, section_keys, resource_fields):
            mode, environment_key, prefix = _ROLES[section.role]
            anchor = section.key or resources_key or keys["backend"]
            where = self._loc(anchor)
            words: list[ArgToken] = []
            words.extend(self._model_words(model.get("path"), where))
            if mode is not None:
                words += [ArgToken(Value.known("--disaggregation-mode"), where), ArgToken(Value.known(mode), where)]
            placement = self._resources(resources_key, resource_fields, prefix) if resources_key is not None and resource_fields is not None else None
            if placement is not None and placement.nodes_per_worker is not None and placement.nodes_per_worker > 1:
                nodes_at = placement.nodes.location if placement.nodes is not None else placement.location
                words += [
                    ArgToken(Value.known("--nnodes"), nodes_at),
                    ArgToken(Value.known(str(placement.nodes_per_worker)), nodes_at),
                    ArgToken(Value.known("--node-rank"), nodes_at),
                    ArgToken(Value.known("0"), nodes_at),
                ]
            if section.config is not None:
                words.extend(self._config_words(section.config))
            # The role's environment, then the job's, which wins (worker_stage.py
            # start_worker: env_to_set.update(backend...for_mode), then
            # .update(runtime.environment)).
            environment = self._environment(backend.get(environment_key))
            environment.update(job_environment)
            last_line = _last_line(section.config if section.config is not None else anchor)
            self.result.servers.append(
                ServerLaunch(
                    path=self.path,
                    location=where,
                    entry=entry,
                    args=words,
                    line_ranges=((where.line, max(where.line, last_line)),),
                    scope=scope,
                    resources=placement,
                    environment=tuple(environment.items()),
                    container_image=image,
                )
            )
        # The container names the SGLang release the recipe's servers run
        # (lmsysorg+sglang+v0.5.5.post2.sqsh): a fact for the version each is judged by.
        if isinstance(container, ScalarNode):
            hint = version_from_image(container.value, self._loc(container), (root.start_mark.line + 1, root.end_mark.line + 1))
            if hint is not None:
                self.result.version_hints.append(hint)
        if self.undefined_placeholder is not None:
            location, written = self.undefined_placeholder
            self.result.notes.append(
                Note(
                    self.path,
                    f"'{written}' is not a parameter of this recipe's sweep (srtctl replaces only those and passes "
                    "any other text on as written); it was read as an unknown value",
                    location.line,
                    location.column,
                )
            )

    def _launched_sections(
        self, sections: dict[str, Node], section_keys: dict[str, Node], resources: dict[str, Node] | None
    ) -> list[_Section]:
        """The roles srtctl starts, with their sections (``ResourceConfig.is_disaggregated``)."""
        if resources is not None:
            disaggregated = any(not _is_null(resources.get(key)) for key in ("prefill_nodes", "decode_nodes"))
            roles = ["prefill", "decode"] if disaggregated else ["aggregated"]
        else:
            roles = [role for role in _ROLES if role in sections]
        launched = []
        for role in roles:
            config = sections.get(role)
            launched.append(_Section(role, section_keys.get(role), config if isinstance(config, MappingNode) else None))
        return launched

    def _entry(self, frontend: Node | None) -> EntryPoint:
        """``frontend.type: sglang`` runs ``sglang.launch_server``; the default
        (dynamo) runs ``dynamo.sglang``, which takes the same arguments."""
        if isinstance(frontend, MappingNode):
            kind = _fields(frontend).get("type")
            if isinstance(kind, ScalarNode) and kind.value == "sglang":
                return EntryPoint.LAUNCH_SERVER
        return EntryPoint.DYNAMO_SGLANG

    def _model_words(self, path_node: Node | None, where: Location) -> list[ArgToken]:
        """``--model-path``: the id after ``hf:``, else the mount point ``/model``."""
        if not isinstance(path_node, ScalarNode):
            return [ArgToken(Value.known("--model-path"), where), ArgToken(Value.known("/model"), where)]
        at = self._loc(path_node)
        value = self._text_value(path_node)
        if value.is_known:
            value = Value.known(value.text[3:] if value.text.startswith("hf:") else "/model")
        elif not value.literal_prefix().startswith("hf:"):
            value = Value.known("/model")
        else:
            value = value.drop_prefix(3)
        return [ArgToken(Value.known("--model-path"), at), ArgToken(value, at)]

    # -- a section as srtctl's _config_to_cli_args writes it -------------------------
    def _config_words(self, config: MappingNode) -> list[ArgToken]:
        entries: dict[str, tuple[Node, Node]] = {}
        try:
            self.constructor.flatten_mapping(config)  # `<<: *anchor`, as safe_load merges it
        except yaml.YAMLError as error:
            self.result.notes.append(Note(self.path, f"merge key not read ({error.problem or error}); the section's merged keys are not checked", *self._position(config)))
        for key_node, value_node in config.value:
            key = self._construct(key_node)
            if not isinstance(key, str):
                self.result.notes.append(
                    Note(self.path, f"key {key_node.value if isinstance(key_node, ScalarNode) else '?'!r} is not a string: srtctl cannot turn it into an option; not checked", *self._position(key_node))
                )
                continue
            entries[key] = (key_node, value_node)  # a dict: the last value of a repeated key
        words: list[ArgToken] = []
        for key in sorted(entries):
            if key in _REPLACED_KEYS:
                continue
            key_node, value_node = entries[key]
            option = ArgToken(Value.known("--" + key.replace("_", "-")), self._loc(key_node))
            words.extend(self._option_words(option, value_node))
        return words

    def _option_words(self, option: ArgToken, node: Node) -> list[ArgToken]:
        if isinstance(node, SequenceNode):
            return [option, *(ArgToken(self._word(self._construct(item), item), self._loc(item)) for item in node.value)]
        value = self._construct(node)
        if isinstance(value, bool):
            return [option] if value else []
        if value is None:
            return []
        return [option, ArgToken(self._word(value, node), self._loc(node))]

    def _word(self, value: Any, node: Node) -> Value:
        """``str(value)`` of what safe_load built from ``node``, with the sweep
        placeholders of a string read as their values."""
        if value is _UNREADABLE:
            return Value.unknown("a YAML value srtctl cannot read")
        if isinstance(value, str):
            return self._placeholders(value, self._loc(node))
        return Value.known(str(value))

    def _text_value(self, node: ScalarNode) -> Value:
        return self._placeholders(node.value, self._loc(node))

    def _placeholders(self, text: str, where: Location) -> Value:
        if "{" not in text:
            return Value.known(text)
        pieces: list[Value] = []
        last = 0
        for match in _PLACEHOLDER.finditer(text):
            name = match.group(1)
            if name in self.sweep:
                piece = self.sweep[name]
            elif name.isidentifier():
                piece = Value.symbol(match.group())
                if self.undefined_placeholder is None:
                    self.undefined_placeholder = (where, match.group())
            else:
                continue  # not a placeholder: srtctl leaves it as written
            pieces += [Value.known(text[last : match.start()]), piece]
            last = match.end()
        pieces.append(Value.known(text[last:]))
        return Value.concat(pieces)

    # -- sweep, environment, resources ------------------------------------------------
    def _sweep(self, node: Node | None) -> dict[str, Value]:
        """Each parameter's values (``SweepConfigField``: ``parameters:``, else every
        key but ``mode``), as the text srtctl substitutes (``str(value)``)."""
        if not isinstance(node, MappingNode):
            return {}
        fields = _fields(node)
        parameters = fields.get("parameters")
        items = _fields(parameters) if isinstance(parameters, MappingNode) else {k: v for k, v in fields.items() if k != "mode"}
        sweep: dict[str, Value] = {}
        for name, values in items.items():
            if not isinstance(values, SequenceNode) or not values.value:
                sweep[name] = Value.unknown(f"sweep parameter {name} is not a list of values")
                continue
            built = [self._construct(item) for item in values.value]
            if any(v is _UNREADABLE or isinstance(v, (list, dict)) for v in built):
                sweep[name] = Value.unknown(f"sweep parameter {name} has values that are not plain")
                continue
            sweep[name] = Value.one_of(Value.known(str(v)) for v in built)
        return sweep

    def _environment(self, node: Node | None) -> dict[str, Value]:
        if not isinstance(node, MappingNode):
            return {}
        return {key: self._text_value(value) for key, value in _fields(node).items() if isinstance(value, ScalarNode)}

    def _resources(self, key: Node, fields: dict[str, Node], prefix: str) -> Resources:
        """One role's share (``ResourceConfig.gpus_per_prefill`` and friends, and
        ``allocate_endpoints``' nodes per worker: whole nodes, rounded up)."""
        workers, nodes = fields.get(f"{prefix}_workers"), fields.get(f"{prefix}_nodes")
        per_node = fields.get("gpus_per_node")
        explicit = fields.get(f"gpus_per_{prefix}")
        gpn = self._int(per_node)
        gpus: int | None
        if explicit is not None:
            gpus = self._int(explicit)
        elif nodes is not None and workers is not None:
            node_count, worker_count = self._int(nodes), self._int(workers)
            if node_count and worker_count and gpn:
                gpus = node_count * gpn // worker_count
            elif prefix == "decode" and node_count == 0 and worker_count:
                gpus = self._resources(key, fields, "prefill").gpus_per_worker  # decode shares the prefill's nodes
            else:
                gpus = gpn if node_count is not None and worker_count is not None else None
        else:
            gpus = gpn
        nodes_per_worker = (gpus + gpn - 1) // gpn if gpus and gpn else None
        return Resources(
            location=self._loc(key),
            workers=self._written(workers),
            nodes=self._written(nodes),
            gpus_per_node=self._written(per_node),
            gpus_per_worker=gpus,
            nodes_per_worker=nodes_per_worker,
        )

    def _int(self, node: Node | None) -> int | None:
        if not isinstance(node, ScalarNode):
            return None
        value = self._construct(node)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def _written(self, node: Node | None) -> WrittenValue | None:
        if not isinstance(node, ScalarNode):
            return None
        return WrittenValue(self._word(self._construct(node), node), self._loc(node))

    def _note_overrides(self, document: MappingNode) -> None:
        overrides = [key for key in _key_nodes(document) if key.startswith(_OVERRIDE_PREFIXES)]
        if overrides:
            first = _key_nodes(document)[overrides[0]]
            self.result.notes.append(
                Note(
                    self.path,
                    f"the jobs that {', '.join(overrides[:3])}{' ...' if len(overrides) > 3 else ''} derive from 'base' "
                    "are not checked, only 'base' itself",
                    *self._position(first),
                )
            )

    # -- YAML helpers -------------------------------------------------------------------
    def _construct(self, node: Node) -> Any:
        """The Python value srtctl's ``yaml.safe_load`` makes of ``node``."""
        try:
            return self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError):
            return _UNREADABLE

    def _loc(self, node: Node) -> Location:
        start, end = node.start_mark, node.end_mark
        if isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style:
            return Location(self.path, start.line + 1, start.column + 1)
        return Location(self.path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    def _position(self, node: Node) -> tuple[int, int]:
        return node.start_mark.line + 1, node.start_mark.column + 1


_UNREADABLE = object()


def _is_null(node: Node | None) -> bool:
    return node is None or (isinstance(node, ScalarNode) and node.tag == "tag:yaml.org,2002:null")


def _key_nodes(node: MappingNode) -> dict[str, Node]:
    return {key.value: key for key, _ in node.value if isinstance(key, ScalarNode)}


def _last_line(node: Node) -> int:
    """The 1-based last line holding ``node``'s text (a block collection's end
    mark is at the start of whatever follows it)."""
    seen: set[int] = set()
    while isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style and node.value and id(node) not in seen:
        seen.add(id(node))  # an alias can make a collection hold itself
        last = node.value[-1]
        node = last[1] if isinstance(last, tuple) else last
    mark = node.end_mark
    return mark.line if mark.column == 0 and mark.line > node.start_mark.line else mark.line + 1
