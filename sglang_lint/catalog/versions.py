"""Which SGLang release judges each launch (design.md: "Each deployment is judged
with its SGLang version").

Precedence, first that applies:

1. an explicit version: ``--target-version``, else the run's config's
   ``target-version``;
2. ``infer-version = false``: the run's version (the newest release with a table);
3. the launch's own container image, when its tag names a release (the k8s
   container or compose service holding the command, ``docker run IMAGE``,
   srt-slurm's ``model.container``);
   (an image that names no release, ``latest`` or a nightly, or is not
   SGLang's, stops here: the newest known release judges, and the finding says
   which image named none);
4. an install pin in the same file (``pip install sglang==0.5.9``): the last
   one before the launch, else the first after it;
5. the project's pin: the nearest ``requirements*.txt`` / ``pyproject.toml``
   pinning ``sglang==X``, from the file's directory up to the project root (a
   directory with ``.git`` or a ``pyproject.toml``), or the project's own
   SGLang, whichever is nearer (a pin first in one directory): a directory on
   the way that is SGLang's package (``sglang/`` with its ``launch_server.py``:
   an unpacked wheel, a vendored copy, a file of the package itself) or holds
   it where SGLang's repository does (``python/sglang/``: a checkout's or a
   fork's tests, docs and benchmarks), whose ``version.py`` or generated
   ``_version.py`` states the version (:func:`version_facts.package_version`):
   those launches run that SGLang;
6. the run's version (the newest release with a table).

A release without a table of its own is judged with the nearest lower table
(the newest older release we know), one older than every table with the oldest,
one newer than every table with the newest, and :attr:`JudgedVersion.why` says so.
Facts come from the sources (``SourceResult.version_hints``) and, for the project
pin, from files read here (recorded as probes, so that a cached run is reused
only while they are unchanged).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable

from msgspec import Struct

from sglang_lint.catalog.tables import known_versions, newer_than_every_table, older_than_every_table, run_version, table_version, version_key
from sglang_lint.files import read_sglang_config
from sglang_lint.model import ServerLaunch, SourceResult, VersionHint
from sglang_lint.version_facts import package_version, pyproject_pins, requirements_pins

if TYPE_CHECKING:
    from sglang_lint.options import LintOptions


class JudgedVersion(Struct, frozen=True):
    """The release whose table judges a launch, and why (``why`` is "" when no
    fact was read: the run's version, explicit or the default)."""

    version: str
    why: str = ""
    # The release the facts name when it is newer than every table (0.5.30,
    # 0.5.24.dev3): judged with the newest table, whose unknown options and
    # choices that release may well have (catalog/argv split_for_untabled_release).
    newer: str = ""
    # ... or older than every table (an image lmsysorg/sglang:v0.4.5-cu125):
    # judged with the oldest, which lacks the options later releases removed
    # (`--disable-mla` of 0.4.x) and the choices they dropped.
    older: str = ""

    @property
    def untabled(self) -> str:
        """The release the facts name when no table is its own era's."""
        return self.newer or self.older

    @property
    def note(self) -> str:
        """The line each finding about the launch carries: ``judged as sglang
        0.5.14, from image lmsysorg/sglang:v0.5.14-cu130 at d.yaml:91``."""
        return f"judged as sglang {self.version}, {self.why}" if self.why else ""


def table_for_release(release: str) -> tuple[str, str]:
    """The table that judges ``release`` (``"0.5.14"``, ``"0.5.5.post2"``), and
    "" or why it is not the release's own: ``("0.5.11", "no table for 0.5.12:
    the nearest lower one")``. A post-release is judged with its release's
    table, a pre-release (``rc``, or a development build ``.devN`` of the
    release, as a checkout's package states it) with the one before it; a
    development build of a post-release (``0.5.10.post2.dev3``) comes after
    the release."""
    versions = known_versions()
    number, dev, _ = release.partition(".dev")
    number, _, suffix = number.partition("rc")
    number, _, post = number.partition(".post")
    before = bool(suffix) or (bool(dev) and not post)
    try:
        key = version_key(number)
    except ValueError:  # a hint a source built by hand: never a crash
        return versions[-1], f"{release!r} is not a release number: the newest table"
    if not before and number in versions:
        return number, "" if not post else f"{release} with {number}'s table"
    lower = [v for v in versions if version_key(v) < key or (version_key(v) == key and not before)]
    if not lower:
        return versions[0], f"{release} is older than every table: the oldest one"
    if lower[-1] == versions[-1] and key > version_key(versions[-1]):
        return versions[-1], f"{release} is newer than every table: the newest one"
    return lower[-1], f"no table for {release}: the nearest lower one"


def _from_hint(hint: VersionHint, how: str = "") -> JudgedVersion:
    version, caveat = table_for_release(hint.release)
    why = f"from {how}{hint.describe()}"
    newer = hint.release if newer_than_every_table(hint.release) else ""
    older = hint.release if older_than_every_table(hint.release) else ""
    return JudgedVersion(version, f"{why} ({caveat})" if caveat else why, newer, older)


class VersionPolicy:
    """The run's answer to "which release judges this launch?" (the module
    docstring's precedence). ``digest`` turns a pin file's text into the digest
    its probe records (the cache's)."""

    def __init__(self, options: LintOptions, digest: Callable[[str], str]) -> None:
        config = options.config
        self.explicit = options.target_version or (config.target_version if config is not None else None)
        self.infer = config.infer_version if config is not None else True
        self.fallback = run_version(options)
        self._digest = digest
        # directory -> (its pin, the probes of the files read, whether it is a project root)
        self._directories: dict[str, tuple[VersionHint | None, tuple[tuple[str, str | None], ...], bool]] = {}
        # The directories whose probes were handed out (once a run is enough).
        self._probed: set[str] = set()

    def judge(self, launch: ServerLaunch, result: SourceResult, probes: list[tuple[str, str | None]] | None = None) -> JudgedVersion:
        """The release for ``launch`` of ``result``; ``probes`` collects the
        project pin files read."""
        if self.explicit is not None and newer_than_every_table(self.explicit):
            version = table_version(self.explicit)
            return JudgedVersion(version, f"target-version {self.explicit} (newer than every table: the newest one)", self.explicit)
        if self.explicit is not None or not self.infer:
            return JudgedVersion(self.explicit or self.fallback)
        hints = result.version_hints
        line = launch.location.line
        images = [h for h in hints if h.kind == "image" and h.lines[0] <= line <= h.lines[1]]
        # The innermost image holding the launch (a pod's container, not the pod).
        image = min(images, key=lambda h: h.lines[1] - h.lines[0], default=None)
        if image is not None:
            # The container runs the SGLang its image holds, whatever else pins:
            # `latest`, nightlies and other images fall back to the newest known.
            if image.release:
                return _from_hint(image)
            return JudgedVersion(self.fallback, f"the newest known: {image.describe()} names no release")
        pins = [h for h in hints if h.kind == "pin"]
        before = [h for h in pins if h.location.line <= line]
        pin = before[-1] if before else (pins[0] if pins else None)
        if pin is not None:
            return _from_hint(pin)
        pin = self._project_pin(os.path.dirname(os.path.abspath(result.path)), probes)
        if pin is not None:
            return _from_hint(pin, "the project's ")
        return JudgedVersion(self.fallback)

    def _project_pin(self, directory: str, probes: list[tuple[str, str | None]] | None) -> VersionHint | None:
        """The nearest project pin at or above ``directory`` (see the module
        docstring); the files read are appended to ``probes``."""
        while True:
            if directory not in self._directories:
                self._directories[directory] = self._directory_pin(directory)
            pin, read, root = self._directories[directory]
            if probes is not None and directory not in self._probed:
                self._probed.add(directory)
                probes.extend(read)
            if pin is not None or root:
                return pin
            parent = os.path.dirname(directory)
            if parent == directory:
                return None
            directory = parent

    def _directory_pin(self, directory: str) -> tuple[VersionHint | None, tuple[tuple[str, str | None], ...], bool]:
        """(the SGLang pin of ``directory``'s requirement files, the probes of
        the files read, whether it is a project root). Requirements files first,
        in name order, then pyproject.toml."""
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            return None, (), True
        candidates = [name for name in names if name.startswith("requirements") and name.endswith(".txt")]
        # Probed even when absent: a pin file created later changes the answer.
        candidates += [name for name in ("requirements.txt", "pyproject.toml") if name not in candidates]
        relative = os.path.relpath(directory)
        shown_directory = directory if relative.startswith("..") else relative
        read: list[tuple[str, str | None]] = []
        found: VersionHint | None = None
        for name in candidates:
            path = os.path.join(directory, name)
            text = read_sglang_config(path)
            read.append((path, None if text is None else self._digest(text)))
            if text is None or found is not None:
                continue
            shown = os.path.normpath(os.path.join(shown_directory, name))
            pins = pyproject_pins(text, shown) if name == "pyproject.toml" else requirements_pins(text, shown)
            found = pins[0] if pins else None
        if found is None:
            found = self._own_sglang(directory, shown_directory, read)
        return found, tuple(read), "pyproject.toml" in names or ".git" in names

    def _own_sglang(self, directory: str, shown_directory: str, read: list[tuple[str, str | None]]) -> VersionHint | None:
        """The version of the SGLang package ``directory`` is, or holds where
        SGLang's repository does (``python/sglang``), told by its
        ``version.py`` (a literal up to 0.5.6), else the ``_version.py``
        setuptools-scm generates (wheels from 0.5.7, built checkouts); None when
        neither states one (a checkout never built: the newest table judges)
        or the directory is no SGLang package (no ``launch_server.py``: a
        project's own package named ``sglang``). The files read, or looked for,
        are appended to ``read``."""
        places = [os.path.join("python", "sglang")]
        if os.path.basename(directory) == "sglang":
            places.insert(0, "")
        for place in places:
            package = os.path.join(directory, place) if place else directory
            marker = os.path.join(package, "launch_server.py")
            text = read_sglang_config(marker)
            read.append((marker, None if text is None else self._digest(text)))
            if text is None:
                continue
            for name in ("version.py", "_version.py"):
                path = os.path.join(package, name)
                text = read_sglang_config(path)
                read.append((path, None if text is None else self._digest(text)))
                hint = package_version(text, os.path.normpath(os.path.join(shown_directory, place, name))) if text is not None else None
                if hint is not None:
                    return hint
        return None
