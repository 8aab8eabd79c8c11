"""llmaz BackendRuntimes (github.com/InftyAI/llmaz): where a runtime's command
gets its arguments.

A ``BackendRuntime`` (``inference.llmaz.io/v1alpha1``) describes how a backend
is started for every Playground that uses it: ``spec.command`` (``python3 -m
sglang.launch_server``), ``spec.image`` and ``spec.version`` (the image tag),
``spec.envs``, and ``spec.recommendedConfigs``: named sets of ``args`` (with
resources), one of which a Playground picks (``default`` unless it names
another). The container llmaz builds runs ``command`` + the picked config's
``args`` (with their ``{{ .ModelPath }}``-like placeholders filled in) + the
Playground's own ``backendRuntimeConfig.args``, in the image ``image:version``
with ``envs`` (llmaz ``pkg/controller/inference/playground_controller.go``
``buildTemplate``; ``pkg/controller_helper/backendruntime/backendruntime.go``
``Command``, ``Args``, ``Image``).
Read as a Kubernetes container, the spec's ``command`` was a launch with no
arguments at all, and each config's ``args`` a launch of its own with no
command. This module only tells which nodes form a runtime; the YAML source
reads each config as one launch: ``command`` + its ``args``.
"""

from __future__ import annotations

from msgspec import Struct
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from sglang_lint.sources.yaml_nodes import fields as _fields


class BackendRuntime(Struct):
    """A BackendRuntime's spec (its ``command``, ``image``, ``version``,
    ``envs``) and its recommended configs that give ``args``."""

    spec: MappingNode
    configs: list[MappingNode]

    @property
    def image(self) -> tuple[str, ScalarNode] | None:
        """``image:version``, as the container's image reference, with the node
        that names the tag (or the image when no version is given)."""
        fields = _fields(self.spec)
        image, version = fields.get("image"), fields.get("version")
        if not isinstance(image, ScalarNode) or not image.value:
            return None
        if isinstance(version, ScalarNode) and version.value:
            return f"{image.value}:{version.value}", version
        return image.value, image


def backend_runtime(document: Node | None) -> BackendRuntime | None:
    """The BackendRuntime ``document`` is, None for any other document."""
    if not isinstance(document, MappingNode):
        return None
    top = _fields(document)
    kind, api = top.get("kind"), top.get("apiVersion")
    if not (isinstance(kind, ScalarNode) and kind.value == "BackendRuntime"):
        return None
    if not (isinstance(api, ScalarNode) and api.value.startswith("inference.llmaz.io/")):
        return None
    spec = top.get("spec")
    if not isinstance(spec, MappingNode) or not isinstance(_fields(spec).get("command"), SequenceNode):
        return None
    configs = _fields(spec).get("recommendedConfigs")
    items = configs.value if isinstance(configs, SequenceNode) else []
    with_args = [item for item in items if isinstance(item, MappingNode) and isinstance(_fields(item).get("args"), SequenceNode)]
    return BackendRuntime(spec, with_args)

