"""RoleBasedGroup role templates (github.com/sgl-project/rbg): which containers a
role's patch is merged onto.

A RoleBasedGroup lets roles share a pod template (``spec.roleTemplates``) and
patch it per role. The operator resolves a role's pod as the referenced
template with the role's patch applied as a Kubernetes strategic merge patch
(rbg ``api/workloads/v1alpha2/helper.go`` ``GetResolvedTemplate`` and
``applyStrategicMergePatch``: ``strategicpatch.StrategicMergePatch``), and for
the leader-worker pattern the leader and worker patches on top of that ("The
configuration application order is ``roleTemplates`` → ``templateRef.patch`` →
``leaderTemplatePatch`` / ``workerTemplatePatch``", rbg
``doc/best-practice/en/02-using-role-templates.md``; an inline ``template``
takes the referenced template's place). Containers merge by ``name``; within a
container a field the patch sets replaces the template's (``command``,
``args``, ``image``) and one it leaves out is kept; ``env`` merges by ``name``.

The shapes, by API version:

- ``workloads.x-k8s.io/v1alpha1``: on the role, ``template`` or ``templateRef:
  {name}`` with ``templatePatch``; ``leaderWorkerSet: {patchLeaderTemplate,
  patchWorkerTemplate}``.
- ``workloads.x-k8s.io/v1alpha2``: on the role's ``standalonePattern``,
  ``leaderWorkerPattern`` or ``customComponentsPattern``, ``template`` or
  ``templateRef: {name, patch}``; ``leaderWorkerPattern: {leaderTemplatePatch,
  workerTemplatePatch}``.

Each layer is a pod template (``spec.containers``). This module only tells
which containers lie under which; the YAML source reads the merged container.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from sglang_lint.sources.yaml_nodes import fields as _fields

# A v1alpha2 role's patterns (each may hold a template, and the leader-worker
# pattern its leader and worker patches).
_PATTERNS = ("standalonePattern", "leaderWorkerPattern", "customComponentsPattern")


def patch_bases(document: Node) -> dict[int, tuple[MappingNode, ...]]:
    """For a RoleBasedGroup document, each container of a role's patch that a
    container of the layers under it shares a name with: ``id(patch
    container)`` -> those containers, the lowest layer first. Empty for any
    other document."""
    if not isinstance(document, MappingNode):
        return {}
    top = _fields(document)
    if _text(top.get("kind")) != "RoleBasedGroup":
        return {}
    spec = _mapping(top.get("spec"))
    if spec is None:
        return {}
    fields = _fields(spec)
    templates: dict[str, MappingNode] = {}
    for item in _items(fields.get("roleTemplates")):
        item_fields = _fields(item)
        name, template = _text(item_fields.get("name")), _mapping(item_fields.get("template"))
        if name is not None and template is not None:
            templates.setdefault(name, template)
    bases: dict[int, tuple[MappingNode, ...]] = {}
    for role in _items(fields.get("roles")):
        role_fields = _fields(role)
        for chain in _chains(role, templates, _mapping(role_fields.get("leaderWorkerSet")), ("patchLeaderTemplate", "patchWorkerTemplate")):
            _record(chain, bases)
        for key in _PATTERNS:
            pattern = _mapping(role_fields.get(key))
            if pattern is not None:
                for chain in _chains(pattern, templates, pattern, ("leaderTemplatePatch", "workerTemplatePatch")):
                    _record(chain, bases)
    return bases


def _chains(holder: MappingNode, templates: dict[str, MappingNode], patches: MappingNode | None, patch_keys: tuple[str, str]) -> list[list[MappingNode]]:
    """The layers (pod templates, lowest first) of each pod ``holder`` (a
    v1alpha1 role, or a v1alpha2 role's pattern) makes: the shared pod, then
    the leader's and the worker's (their patches under ``patches``, named
    ``patch_keys``)."""
    fields = _fields(holder)
    layers: list[MappingNode] = []
    reference = _mapping(fields.get("templateRef"))
    if reference is not None:
        reference_fields = _fields(reference)
        template = templates.get(_text(reference_fields.get("name")) or "")
        if template is not None:
            layers.append(template)
        # (v1alpha2 keeps the patch in the reference, v1alpha1 beside it)
        patch = _mapping(reference_fields.get("patch")) or _mapping(fields.get("templatePatch"))
        if patch is not None:
            layers.append(patch)
    elif (template := _mapping(fields.get("template"))) is not None:
        layers.append(template)
    chains = [layers]
    if patches is not None:
        patch_fields = _fields(patches)
        for key in patch_keys:
            patch = _mapping(patch_fields.get(key))
            if patch is not None:
                chains.append([*layers, patch])
    return chains


def _record(chain: list[MappingNode], bases: dict[int, tuple[MappingNode, ...]]) -> None:
    """Each container of a layer above the first gets the same-named
    containers of the layers under it."""
    below: dict[str, list[MappingNode]] = {}
    for depth, layer in enumerate(chain):
        for name, container in _containers(layer).items():
            if depth and below.get(name):
                bases[id(container)] = tuple(below[name])
            below.setdefault(name, []).append(container)


def _containers(pod_template: MappingNode) -> dict[str, MappingNode]:
    """A pod template's ``spec.containers`` by name (the first of a name: the
    API server refuses a second)."""
    spec = _mapping(_fields(pod_template).get("spec"))
    found: dict[str, MappingNode] = {}
    for container in _items(_fields(spec).get("containers") if spec is not None else None):
        name = _text(_fields(container).get("name"))
        if name is not None:
            found.setdefault(name, container)
    return found


def merge_env(items: list[Node], env: Node | None) -> list[Node]:
    """``env`` entries merged onto ``items`` as a strategic merge patch merges
    a list whose merge key is ``name``: an entry of the same name takes the
    earlier one's place, a new one comes after."""
    if not isinstance(env, SequenceNode):
        return items
    merged = list(items)
    where = {name: index for index, item in enumerate(merged) if (name := _entry_name(item)) is not None}
    for item in env.value:
        name = _entry_name(item)
        if name is not None and name in where:
            merged[where[name]] = item
            continue
        if name is not None:
            where[name] = len(merged)
        merged.append(item)
    return merged


def _entry_name(item: Node) -> str | None:
    return _text(_fields(item).get("name")) if isinstance(item, MappingNode) else None


def _mapping(node: Node | None) -> MappingNode | None:
    return node if isinstance(node, MappingNode) else None


def _items(node: Node | None) -> list[MappingNode]:
    return [item for item in node.value if isinstance(item, MappingNode)] if isinstance(node, SequenceNode) else []


def _text(node: Node | None) -> str | None:
    return node.value if isinstance(node, ScalarNode) else None
