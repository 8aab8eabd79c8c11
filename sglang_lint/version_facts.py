"""The SGLang release a text names: container images, install commands and
requirement pins (design.md: each deployment is judged with its own version).

These are facts read from text, shared by the sources (an image or a ``pip
install`` where a launch is found) and the catalog (a project's
``requirements*.txt`` / ``pyproject.toml``). Which fact wins for a launch is
``catalog/versions``' business; nothing here knows the option tables.

- An image reference is ``[REGISTRY/]PATH[:TAG][@DIGEST]`` (the OCI distribution
  reference grammar); SGLang's own images are ``lmsysorg/sglang`` and its
  variants (``lmsysorg/sglang-rocm``), tagged ``v0.5.14-cu130``,
  ``v0.5.14-rocm720-mi35x``, ``v0.5.5.post2-cu126``, and also ``latest``,
  ``dev`` and nightlies, which name no release. enroot (srt-slurm's
  ``model.container``) names the squashfs of ``lmsysorg/sglang:v0.5.5.post2``
  ``lmsysorg+sglang+v0.5.5.post2.sqsh``. Dynamo's ``sglang-runtime`` images carry
  Dynamo's version in their tag, not SGLang's: they name an SGLang release only
  through the table of Dynamo releases below.
- A requirement is PEP 508 (``sglang[all]==0.5.9 ; python_version >= "3.10"``):
  only ``==`` (or ``===``) without a wildcard pins a release; ``~=``, ``>=`` and
  ranges do not.
"""

from __future__ import annotations

import re
import sys
from typing import Callable, Iterable

from sglang_lint.model import Kind, Location, Value, VersionHint

# A release as SGLang tags and publishes it: 0.5.14, 0.5.5.post2, 0.5.14rc0.
_RELEASE = re.compile(r"(\d+\.\d+\.\d+)(\.post\d+|rc\d+)?")
# An image tag that starts with a release: v0.5.14, v0.5.14-cu130, 0.5.9.
_RELEASE_TAG = re.compile(r"v?(" + _RELEASE.pattern + r")(?:-[A-Za-z0-9._-]*)?")
# Where a template or the environment fills the image in.
_TEMPLATE_MARKS = ("{{", "${", "$(", "{%")
# PEP 508 names: letters, digits, and . _ - inside.
_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
_OPERATORS = ("===", "==", "~=", "!=", "<=", ">=", "<", ">")


# The SGLang each Dynamo release's ``nvcr.io/nvidia/ai-dynamo/sglang-runtime:TAG``
# image ships (its -cuda13 and -efa variants alike), from the "Container Images"
# tables of Dynamo's Release Artifacts pages
# (https://docs.nvidia.com/dynamo/<version>/resources/release-artifacts, and
# /dev/reference/release-artifacts.html for 0.8.1). A release not listed names none.
DYNAMO_SGLANG = {
    "0.8.1": "0.5.6.post2",
    "0.9.0": "0.5.8",
    "1.0.0": "0.5.9",
    "1.0.1": "0.5.9",
    "1.1.0": "0.5.10.post1",
    "1.1.1": "0.5.10.post1",
    "1.2.0": "0.5.11",
}


# -- images --------------------------------------------------------------------------


def _reference(text: str) -> tuple[str, str]:
    """(repository, tag) of an image reference, a ``docker://`` URI or an enroot
    squashfs name; tag "" when it has none (digest-only or untagged)."""
    ref = text.strip()
    for scheme in ("docker://", "dockerd://", "podman://"):
        if ref.startswith(scheme):
            ref = ref[len(scheme) :]
    base = ref.rsplit("/", 1)[-1]
    if base.endswith((".sqsh", ".squashfs")):
        # enroot import writes lmsysorg/sglang:TAG as lmsysorg+sglang+TAG.sqsh
        pieces = base.rsplit(".", 1)[0].split("+")
        if len(pieces) > 1 and _RELEASE_TAG.fullmatch(pieces[-1]):
            return "/".join(pieces[:-1]), pieces[-1]
        return "/".join(pieces), ""
    ref = ref.replace("#", "/")  # enroot's registry#image
    ref = ref.partition("@")[0]  # the digest pins bytes, not a release
    slash, colon = ref.rfind("/"), ref.rfind(":")
    if colon > slash:
        return ref[:colon], ref[colon + 1 :]
    return ref, ""


def _is_dynamo(repository: str) -> bool:
    """Dynamo's runtime image (``nvcr.io/nvidia/ai-dynamo/sglang-runtime``)."""
    return "dynamo" in repository.lower() and repository.rsplit("/", 1)[-1].lower() == "sglang-runtime"


def is_sglang_image(repository: str) -> bool:
    """``lmsysorg/sglang``, ``lmsysorg/sglang-rocm``, a mirror's ``.../sglang``;
    not Dynamo's images (their tag is Dynamo's version), nor the router's
    (``sglang-router``: its own releases, and it runs no server)."""
    name = repository.rsplit("/", 1)[-1].lower()
    if "dynamo" in repository.lower() or name.startswith("sglang-router"):
        return False
    return name == "sglang" or name.startswith("sglang-")


def image_release(text: str) -> str:
    """The SGLang release an image names: ``lmsysorg/sglang:v0.5.14-cu130`` ->
    ``"0.5.14"``, ``ai-dynamo/sglang-runtime:1.0.0`` -> ``"0.5.9"``; "" for
    ``latest``, ``dev``, nightlies, a digest alone, a Dynamo release we have no
    entry for and images that are not SGLang's."""
    repository, tag = _reference(text)
    match = _RELEASE_TAG.fullmatch(tag)
    if _is_dynamo(repository):
        return DYNAMO_SGLANG.get(match.group(2), "") if match and not match.group(3) else ""
    if not is_sglang_image(repository):
        return ""
    return match.group(1) if match else ""


def names_sglang_image(text: str) -> bool:
    """Whether an image reference is SGLang's (or Dynamo's SGLang runtime)."""
    repository, _ = _reference(text)
    return is_sglang_image(repository) or _is_dynamo(repository)


def version_from_image(text: str, location: Location, lines: tuple[int, int] | None = None) -> VersionHint | None:
    """The fact that the launches on ``lines`` (first, last; default: the line
    of ``location``) run in image ``text`` (a reference, or an enroot ``.sqsh``
    name as srt-slurm's ``model.container`` has it). None for an empty text.
    One a tool fills in before it runs (a Helm ``{{ .Values.tag }}``, a compose
    ``${TAG}``, a ``<IMAGE>`` placeholder) names no release we can see: the
    launch runs in some image all the same, whose SGLang no pin of ours tells."""
    text = text.strip()
    if not text:
        return None
    if lines is None:
        lines = (location.line, max(location.line, location.end_line))
    templated = any(mark in text for mark in _TEMPLATE_MARKS) or (text.startswith("<") and text.endswith(">"))
    return VersionHint("image", text, "" if templated else image_release(text), location, lines)


def image_hints(value: Value, location: Location, lines: tuple[int, int]) -> list[VersionHint]:
    """``version_from_image`` for a word the sources evaluated (``docker run
    IMAGE``); an image not known statically (``$IMAGE`` from the environment)
    names no release."""
    if value.kind is not Kind.KNOWN:
        return [VersionHint("image", value.describe(), "", location, lines)]
    hint = version_from_image(value.text, location, lines)
    return [hint] if hint is not None else []


# -- requirements --------------------------------------------------------------------


def requirement_release(text: str) -> str | None:
    """The release a PEP 508 requirement pins SGLang to: ``sglang==0.5.9``,
    ``sglang[all] == 0.5.9; python_version >= "3.10"`` -> ``"0.5.9"``; None for
    another package (``sglang-router``), a range, a wildcard or a URL."""
    text = text.split(";", 1)[0].strip()
    match = _NAME.match(text)
    if match is None or re.sub(r"[-_.]+", "-", match.group()).lower() != "sglang":
        return None
    rest = text[match.end() :].lstrip()
    if rest.startswith("["):
        close = rest.find("]")
        if close < 0:
            return None
        rest = rest[close + 1 :].strip()
    if rest.startswith("(") and rest.endswith(")"):
        rest = rest[1:-1].strip()
    if not rest or rest.startswith("@"):
        return None
    pins = []
    for spec in rest.split(","):
        spec = spec.strip()
        operator = next((op for op in _OPERATORS if spec.startswith(op)), None)
        if operator is None:
            return None  # not a requirement
        version = spec[len(operator) :].strip()
        if operator in ("==", "===") and "*" not in version:
            pins.append(version)
    if len(pins) != 1:
        return None
    release = pins[0].removeprefix("v").partition("+")[0]  # a local label (+cu124) is the same release
    return release if _RELEASE.fullmatch(release) else None


def pin_hints(text: str, location: Location) -> list[VersionHint]:
    """The pin a requirement (``sglang[all]==0.5.9``) makes, if it pins SGLang."""
    release = requirement_release(text)
    return [VersionHint("pin", text.strip(), release, location)] if release else []


# pip's and uv's install options that take the next word as their value.
_INSTALL_VALUE_OPTIONS = frozenset(
    {
        "-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url",
        "--extra-index-url", "-f", "--find-links", "-t", "--target", "--prefix", "--root",
        "--python", "-p", "--upgrade-strategy", "--platform", "--python-version",
        "--implementation", "--abi", "--src", "--no-binary", "--only-binary", "--progress-bar",
        "-C", "--config-settings", "--global-option", "--log", "--cache-dir", "--index-strategy",
        "--torch-backend", "--extra", "--index", "--default-index", "--group", "--overrides",
        "--build-constraint", "--resolution", "--prerelease", "--exclude-newer", "--keyring-provider",
    }
)  # fmt: skip


def install_pins(command: str, words: Iterable[object], value_of: Callable[[object], Value], location: Location) -> list[VersionHint]:
    """The SGLang pins of an install command: ``command`` is its name
    (``pip``, ``pip3``, ``uv``, ``python3``), ``words`` the words after it,
    ``value_of`` a word's value. ``pip install sglang==0.5.9``, ``uv pip
    install``, ``uv add``, ``python -m pip install``; anything else gives []."""
    if command in ("pip", "pip3") or command.startswith("pip3."):
        expected: tuple[str, ...] = ("install",)
    elif command == "uv":
        expected = ("pip", "install")
    elif command.startswith("python"):
        expected = ("-m", "pip", "install")
    else:
        return []
    texts = (value.text if value.kind is Kind.KNOWN else None for value in map(value_of, words))
    for want in expected:
        text = next(texts, None)
        if command == "uv" and want == "pip" and text == "add":
            break  # `uv add sglang==0.5.9` installs it as well
        if text != want:
            return []
    hints: list[VersionHint] = []
    takes_value = False
    for text in texts:
        if takes_value:
            takes_value = False
            continue
        if text is None:
            continue
        if text.startswith("-"):
            takes_value = "=" not in text and text in _INSTALL_VALUE_OPTIONS
            continue
        hints.extend(pin_hints(text, location))
    return hints


def requirements_pins(text: str, path: str) -> list[VersionHint]:
    """The SGLang pins of a pip requirements file (``requirements*.txt``): one
    requirement a logical line (``\\`` continues it), ``#`` comments, option
    lines (``-r``, ``--index-url``) and per-requirement options (``--hash``)."""
    hints: list[VersionHint] = []
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        first = number
        logical = lines[number]
        while logical.endswith("\\") and number + 1 < len(lines):
            number += 1
            logical = logical[:-1] + " " + lines[number]
        number += 1
        comment = re.search(r"(^|\s)#", logical)
        if comment:
            logical = logical[: comment.start()]
        requirement = re.split(r"\s--?[A-Za-z]", " " + logical.strip(), maxsplit=1)[0].strip()
        if not requirement or requirement.startswith("-"):
            continue
        column = len(lines[first]) - len(lines[first].lstrip()) + 1
        hints.extend(pin_hints(requirement, Location(path, first + 1, column)))
    return hints


def pyproject_pins(text: str, path: str) -> list[VersionHint]:
    """The SGLang pins of a ``pyproject.toml``: PEP 621 ``[project]``
    dependencies and optional dependencies, PEP 735 ``[dependency-groups]``,
    and Poetry's ``[tool.poetry.dependencies]`` (a bare ``"0.5.9"`` is an exact
    pin there). A file TOML cannot read gives none."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, UnicodeError):
        return []
    lines = text.splitlines()
    requirements: list[str] = []
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    requirements.extend(_strings(project.get("dependencies")))
    optional = project.get("optional-dependencies")
    for group in optional.values() if isinstance(optional, dict) else ():
        requirements.extend(_strings(group))
    groups = data.get("dependency-groups")
    for group in groups.values() if isinstance(groups, dict) else ():
        requirements.extend(_strings(group))
    hints: list[VersionHint] = []
    for requirement in requirements:
        hints.extend(pin_hints(requirement, _line_of(lines, path, requirement)))
    poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data.get("tool"), dict) else {}
    tables = [poetry.get("dependencies")] if isinstance(poetry, dict) else []
    if isinstance(poetry, dict) and isinstance(poetry.get("group"), dict):
        tables += [group.get("dependencies") for group in poetry["group"].values() if isinstance(group, dict)]
    for table in tables:
        if not isinstance(table, dict):
            continue
        for name, spec in table.items():
            version = spec.get("version") if isinstance(spec, dict) else spec
            if not isinstance(version, str):
                continue
            constraint = version.strip()
            if constraint[:1].isdigit():
                constraint = "==" + constraint  # Poetry: a bare version is exact
            hints.extend(pin_hints(f"{name}{constraint}", _line_of(lines, path, name, key=True)))
    return hints


def _strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _line_of(lines: list[str], path: str, needle: str, key: bool = False) -> Location:
    """Where a value TOML gave us was written: the first line holding it (as a
    key: at the line's start), else line 1 (tomllib keeps no positions)."""
    for number, line in enumerate(lines, 1):
        stripped = line.lstrip()
        if (stripped.startswith(needle) and stripped[len(needle) :].lstrip().startswith("=")) if key else needle in line:
            return Location(path, number, len(line) - len(stripped) + 1 if key else line.find(needle) + 1)
    return Location(path, 1, 1)


# -- SGLang's own package -------------------------------------------------------------

# A version SGLang's package declares: a release, or a development build of one
# (a fork's or a checkout's ``0.5.11.dev3+g1a2b3c4``, which setuptools-scm writes
# before the next tag; the local label after ``+`` names no other release).
_PACKAGE_VERSION = re.compile(_RELEASE.pattern + r"(?:\.dev\d+)?")


def package_version(text: str, path: str) -> VersionHint | None:
    """The version an SGLang package's ``version.py`` or ``_version.py`` states
    at its top level, read with Python's parser, never run: ``__version__ =
    "0.5.6"`` (``version.py`` up to 0.5.6), ``__version__ = version =
    '0.5.10.post1'`` (the ``_version.py`` setuptools-scm generates into wheels
    from 0.5.7 and built checkouts). None when it computes it (the later ``version.py``: importing
    ``_version``, else the installed metadata, else ``"0.0.0.dev0"``, all
    inside ``try``), or states one that names no release."""
    import ast

    try:
        tree = ast.parse(text, path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    found: VersionHint | None = None
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        else:
            continue
        if not any(isinstance(target, ast.Name) and target.id == "__version__" for target in targets):
            continue
        # (the last assignment is the one that holds when the module is imported)
        found = None
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            version = value.value.strip()
            release = version.removeprefix("v").partition("+")[0]
            if _PACKAGE_VERSION.fullmatch(release) and not release.startswith("0.0.0"):
                found = VersionHint("package", version, release, Location(path, value.lineno, value.col_offset + 1))
    return found
