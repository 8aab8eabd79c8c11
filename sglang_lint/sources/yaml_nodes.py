"""What the YAML readers (the YAML source, srt-slurm recipes, RoleBasedGroup
templates, llmaz BackendRuntimes) ask of a composed YAML node."""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode


def fields(node: MappingNode) -> dict[str, Node]:
    """A mapping's values by key, for its scalar keys (a key that is a list or
    a mapping names no field; a key given twice: its last value, as YAML
    loaders keep)."""
    return {key.value: value for key, value in node.value if isinstance(key, ScalarNode)}
