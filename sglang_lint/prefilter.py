"""The cheap text check that decides whether a Python file can launch SGLang at all.

It runs before any parsing, on every file an editor or flake8 hands us, so it must
cost microseconds: a handful of substring searches (``str.__contains__`` is a
fast C search), no regular expressions, no decoding, no tokenizing. It may say
True for a file that launches nothing (the parser then finds nothing); it must
never say False for a file the Python source would find a launch in.

This module imports nothing, on purpose: the flake8 plugin imports it for every
flake8 run, and a file that fails the check must not pay for importing the rest of
the package (tree-sitter, PyYAML, the option tables).

The markers, all case-sensitive (module names and identifiers are):

``sglang``
    Every way of naming SGLang in a launch contains it: the modules
    ``sglang.launch_server`` / ``sglang.srt...`` (``python -m sglang.launch_server``
    in an argv list or a command string, ``import sglang``, ``from sglang...``),
    the CLI ``sglang serve``, ``dynamo.sglang``, and the router
    (``sglang_router.launch_router``, the ``sglang-router`` binary).
``ServerArgs``
    SGLang's server options object. A launcher can build ``ServerArgs(...)`` from
    a name imported through a project's own helper module, so the file itself may
    never spell ``sglang``.
``launch_server``
    ``sglang.srt.entrypoints.http_server.launch_server(server_args)`` called
    through a re-export (``from myproject.serving import launch_server``); also
    covers the ``sglang.launch_server`` module name.
``popen_launch``
    SGLang's test utilities ``popen_launch_server`` / ``popen_launch_pd_server``,
    which test suites import through their own ``test_utils`` wrappers.
``SGLangServer``
    Ray Serve LLM's server class for SGLang engines
    (``LLMConfig(server_cls=SGLangServer, engine_kwargs={...})``), imported from
    ``ray.serve.llm``: the file need not spell ``sglang``.
``disaggregation_mode``
    The ServerArgs field that makes a Ray Serve ``LLMConfig``'s ``engine_kwargs``
    SGLang's when no server class is named.
``"SGLang"`` and ``'SGLang'``
    Ray Serve LLM's engine name, ``LLMConfig(llm_engine="SGLang", ...)`` (quoted:
    the name in prose is no marker).
"""

MARKERS = ("sglang", "ServerArgs", "launch_server", "popen_launch", "SGLangServer", "disaggregation_mode", '"SGLang"', "'SGLang'")

# The same markers as bytes, for callers that have not decoded the file yet. Python
# source is in an ASCII-compatible encoding (PEP 263; CPython refuses UTF-16
# source), so the ASCII spelling of a marker is its spelling in the file's bytes.
BYTE_MARKERS = tuple(marker.encode("ascii") for marker in MARKERS)


def python_may_launch(text: str) -> bool:
    """True when ``text`` (a Python file) contains a marker of an SGLang launch;
    False means the file certainly launches nothing we could find."""
    return (
        "sglang" in text
        or "ServerArgs" in text
        or "launch_server" in text
        or "popen_launch" in text
        or "SGLangServer" in text
        or "disaggregation_mode" in text
        or '"SGLang"' in text
        or "'SGLang'" in text
    )


def bytes_may_launch(data: bytes) -> bool:
    """:func:`python_may_launch` on the undecoded bytes of a file."""
    return (
        b"sglang" in data
        or b"ServerArgs" in data
        or b"launch_server" in data
        or b"popen_launch" in data
        or b"SGLangServer" in data
        or b"disaggregation_mode" in data
        or b'"SGLang"' in data
        or b"'SGLang'" in data
    )


# Issue 20: a file that mentions sglang and a process API is not yet a
# launcher (4,322 of the 5,058 Python files of an SGLang fork did, and were
# parsed and interpreted for nothing). What starts a server the Python source
# finds is one of two things, and the file must spell it:
#
# - a call that is a launch by itself (:data:`CALL_ENTRY_MARKERS`): SGLang's
#   ``launch_server(server_args)`` (also the module ``sglang.launch_server`` and
#   ``multiprocessing.Process(target=launch_server)``), its test helpers
#   ``popen_launch_server`` / ``popen_launch_pd_server`` / ``popen_with_error_check``,
#   ``ServerArgs(...)`` and ``Engine(...)`` (:func:`_spells_engine`: the name, not
#   ``LLMEngine`` or ``EngineArgs``), the frontend language's ``sgl.Runtime(...)``
#   (:func:`_spells_runtime`), Ray Serve LLM's ``LLMConfig`` /
#   ``build_pd_openai_app``;
# - a command that names an entry point (:data:`COMMAND_ENTRY_MARKERS`: the
#   shell source's entries, ``python -m sglang.launch_server`` being covered by
#   the first group) together with a way to run it (:data:`RUNNER_MARKERS`).
#
# A file may also inherit its launches from a server fixture class
# (:data:`INHERITED_LAUNCH_MARKERS`).
CALL_ENTRY_MARKERS = ("launch_server", "popen_launch", "popen_with_error_check", "ServerArgs(", "ServerArgs as ", "LLMConfig", "build_pd_openai_app")
COMMAND_ENTRY_MARKERS = ("sglang serve", "dynamo.sglang", "sglang_router", "sglang-router", "launch_router")
# `["sglang", "serve", ...]`: the CLI and its subcommand as two argv items.
SERVE_WORDS = ('"serve"', "'serve'")
# Every call the Python source reads as a process start is spelt with one of
# these in the file itself (an alias still imports the name: `import subprocess
# as sp`, `from os import system`).
RUNNER_MARKERS = ("subprocess", "system", "popen", "Popen", "spawn", "exec")
# The words of a text that starts a process, precise enough to tell a module
# that may start what its caller hands it (`subprocess.Popen(cmd)`) from one
# that cannot: RUNNER_MARKERS' `system` and `exec` are in every module
# (`filesystem`, `executor`).
PROCESS_MARKERS = ("subprocess", "Popen", "os.system", "os.exec", "os.spawn", "execv", "spawnv", "create_subprocess")


# Markers that are a whole name where they launch: Ray Serve's ``LLMConfig``
# (``LLMConfig(...)``, ``llm.LLMConfig``), not the end of another name (SGLang's
# diffusion model configs ``NEOLLMConfig`` made its model packages pass, issue 20).
WHOLE_NAME_MARKERS = frozenset({"LLMConfig"})


def _used(text: str, marker: str) -> bool:
    """Whether ``marker`` occurs other than as the name a ``def`` or ``class``
    defines (SGLang's own ``def launch_server(`` in its HTTP server module, or
    ``class Engine(`` below, starts nothing), or, for a whole-name marker,
    inside a longer name."""
    whole = marker in WHOLE_NAME_MARKERS
    start = text.find(marker)
    while start != -1:
        inside = whole and start and (text[start - 1].isalnum() or text[start - 1] == "_")
        if not inside and not (text.endswith("def ", 0, start) or text.endswith("class ", 0, start)):
            return True
        start = text.find(marker, start + len(marker))
    return False


def _takes_engine_by_name(text: str) -> bool:
    """``getattr(sgl, "Engine", None)``: the name quoted as getattr's second
    argument (not any "Engine" text: a test's data tuple)."""
    for quoted in ('"Engine"', "'Engine'"):
        start = text.find(quoted)
        while start != -1:
            before = text[max(0, start - 80) : start].rstrip()
            if before.endswith(",") and "getattr(" in before:
                return True
            start = text.find(quoted, start + len(quoted))
    return False


def _spells_engine(text: str) -> bool:
    """Whether SGLang's ``Engine`` is used the ways a launch uses it: called
    (``Engine(``, ``sgl.Engine(``), imported under another name (``Engine as
    E``), imported (``import Engine``) or taken from the package
    (``sglang.Engine``, ``sgl.Engine``, ``getattr(sgl, "Engine", None)``); not
    the word in prose ("the LLM Inference Engine.") nor inside another name
    (``LLMEngine``, ``EngineArgs``)."""
    if "sgl.Engine" in text or "sglang.Engine" in text or "import Engine" in text:
        return True
    if _takes_engine_by_name(text):
        return True
    start = text.find("Engine")
    while start != -1:
        before = text[start - 1] if start else " "
        after = text[start + 6 : start + 10]
        if not (before.isalnum() or before == "_") and (after.startswith("(") or after == " as ") and not text.endswith("class ", 0, start):
            return True
        start = text.find("Engine", start + 6)
    return False


def _spells_runtime(text: str) -> bool:
    """SGLang's ``Runtime`` (the frontend language's server): taken from the
    package (``sgl.Runtime``), or, in a file that imports from sglang, called
    (``Runtime(``) or imported under another name (``Runtime as R``) by its
    whole name. Not the word in prose or comments ("Runtime check"), nor
    ``RuntimeError``: a pre-check that took the whole word made 43 more of
    SGLang's own modules pass, 1 s of a cold run of its tree."""
    if "Runtime" not in text or "sglang" not in text:
        return False
    if "sgl.Runtime" in text or "sglang.Runtime" in text:
        return True
    if "from sglang" not in text:
        return False
    start = text.find("Runtime")
    while start != -1:
        before = text[start - 1] if start else " "
        after = text[start + 7 : start + 11]
        if not (before.isalnum() or before == "_") and (after.startswith("(") or after == " as "):
            return True
        start = text.find("Runtime", start + 7)
    return False


# A test module can launch without spelling any of the above: it derives a
# server fixture class of another module (issue 19), whose methods start the
# servers with its class attributes (SGLang's `PDDisaggregationServerBase` from
# `sglang.test.server_fixtures.disaggregation_fixture`). Such a file imports the
# class by one of these names: the base class, the fixtures package, or a
# fixture module (`from sglang.test.kv_canary.pd_fixture import ...`). Following
# every file that imports something would parse every module of a tree; the
# fixture's names are what tell a test suite's launching base classes, and a
# base class named otherwise in a module that launches is found when that module
# is linted itself. (Not "Disaggregation": SGLang's scheduler imports its
# disaggregation mixins, and launches nothing.)
INHERITED_LAUNCH_MARKERS = ("ServerBase", "server_fixtures", "_fixture import")
# The same names in an imported class's qualified name (`a.pd_fixture.PDBase`).
INHERITED_QUALNAME_MARKERS = ("ServerBase", "server_fixtures", "_fixture.")


def python_may_run_a_launch(text: str) -> bool:
    """The check before parsing a Python file (issue 20): a launch entry it
    spells (a launching call, or a command naming an entry point and a way to
    run it), or the import of a server fixture class. Remembered per text: the
    Python source asks it of every module of the project a file imports, and
    SGLang's test files import the same few hundred (2.6 s of a cold run)."""
    key = (len(text), hash(text))  # the text itself is not kept alive
    verdict = _VERDICTS.get(key)
    if verdict is None:
        if len(_VERDICTS) >= 65_536:
            _VERDICTS.clear()
        verdict = _VERDICTS[key] = _python_may_run_a_launch(text)
    return verdict


_VERDICTS: dict[tuple[int, int], bool] = {}


def _python_may_run_a_launch(text: str) -> bool:
    if any(marker in text and _used(text, marker) for marker in CALL_ENTRY_MARKERS) or _spells_engine(text) or _spells_runtime(text):
        return True
    # A command needs a way to run it: one the file spells, or a helper it
    # imports (`run_detached(["sglang", "serve", ...])`, the helper's module
    # starts the process).
    if "sglang" in text and (any(marker in text for marker in RUNNER_MARKERS) or "import" in text):
        if any(marker in text for marker in COMMAND_ENTRY_MARKERS) or any(word in text for word in SERVE_WORDS):
            return True
    return _spells_ray_sglang(text) or python_may_inherit_a_launch(text)


def python_spells_a_command(text: str) -> bool:
    """Whether a Python file writes out an SGLang command (`python -m
    sglang.launch_server`, `sglang serve`, the router's): one it may hand to
    a helper that runs whatever command it is given."""
    return "sglang.launch_server" in text or any(marker in text for marker in COMMAND_ENTRY_MARKERS) or ("sglang" in text and any(word in text for word in SERVE_WORDS))


def _spells_ray_sglang(text: str) -> bool:
    """Ray Serve LLM's SGLang server named without ``LLMConfig`` in the file (a
    config built elsewhere, started through ``SGLangServer``)."""
    return "SGLangServer" in text


def python_may_inherit_a_launch(text: str) -> bool:
    """Whether a Python file imports a server fixture class (a test module that
    only derives an imported base class and sets attributes: its launches are
    the base class's, issue 19)."""
    return "import" in text and any(marker in text for marker in INHERITED_LAUNCH_MARKERS)


# Every file python_may_run_a_launch accepts holds one of these markers.
PYTHON_GATE_MARKERS = (*CALL_ENTRY_MARKERS, "Engine", "sglang", "SGLangServer", *INHERITED_LAUNCH_MARKERS)
# ... and so one of these, each a part of some markers (`erver` of
# `launch_server`, `ServerArgs(`, `ServerBase`, ...): half as many scans of a
# file's bytes, the cost of a tree where nothing launches (1,000 standard
# library files: 14 scans were ~60 ms of ~0.2 s). A file that holds one is
# checked in full (tests/test_prefilter.py holds every marker to an anchor).
_PYTHON_BYTE_GATE = (b"erver", b"popen_", b"Engine", b"sglang", b"LLMConfig", b"build_pd_openai_app", b"_fixture import")


def may_launch(kind: str, text: str, env=None) -> bool:
    """Whether a file of ``kind`` ("shell", "python", "yaml", "markdown", "notebook") can hold
    a launch the sources would find; False lets the driver skip parsing it.

    - Python: :func:`python_may_run_a_launch`.
    - Shell and YAML: ``sglang`` appears in every entry point the shell source
      recognises (``sglang.launch_server``, ``sglang serve``, ``dynamo.sglang``,
      ``sglang_router.launch_router``, ``sglang-router``), whether written out or
      kept in a variable the file sets. A shell script may also call a launch
      helper of a file it sources (issue 19): ``source``, or ``.`` as a command
      (:data:`SHELL_DOT_COMMANDS`), makes it a candidate too.
    - Markdown: either (its code blocks are shell, YAML or Python); a
      notebook the same (its cells are Python and shell).

    ``env`` (the config's values for environment variables) can name the entry
    point for the file (``python -m $ENTRY``): a marker in one of its values
    makes every file a candidate.
    """
    if env and any(python_may_launch(value) for value in env.values()):
        return True
    if kind == "python":
        return python_may_run_a_launch(text)
    if kind in ("markdown", "notebook"):
        return python_may_launch(text)
    if kind == "shell":
        return "sglang" in text or "source" in text or text.startswith(". ") or any(dot in text for dot in SHELL_DOT_COMMANDS)
    return "sglang" in text


# `.` (bash's `source`) as a command: after a line start, a blank or a command
# separator, followed by a blank.
SHELL_DOT_COMMANDS = ("\n. ", " . ", "\t. ", ";. ", "&. ", "|. ", "(. ", "{. ")
_SHELL_DOT_BYTES = tuple(dot.encode("ascii") for dot in SHELL_DOT_COMMANDS)


def may_launch_bytes(kind: str, data: bytes, env=None) -> bool:
    """:func:`may_launch` on a file's undecoded bytes (an ASCII-compatible
    encoding: the caller decodes UTF-16/32 first). False lets the driver skip
    even decoding the file."""
    if env and any(python_may_launch(value) for value in env.values()):
        return True
    if kind == "python":
        # Bytes of an ASCII-compatible encoding: the markers are ASCII, so the
        # text check on a Latin-1 reading (one character per byte, never fails)
        # answers exactly as on the decoded text.
        # Most files hold none of the markers at all: told from the bytes,
        # without making a copy of the file as text.
        if not any(marker in data for marker in _PYTHON_BYTE_GATE):
            return False
        return python_may_run_a_launch(data.decode("latin-1"))
    if kind in ("markdown", "notebook"):
        return bytes_may_launch(data)
    if kind == "shell":
        return b"sglang" in data or b"source" in data or data.startswith(b". ") or any(dot in data for dot in _SHELL_DOT_BYTES)
    return b"sglang" in data


# -- the cross-file pre-check (issue 20) --------------------------------------------
# A file can launch without spelling a launch: it calls a function of another
# module of the project that launches with what it is given
# (`from helpers import start; start("prefill", 8)`), or derives a class that
# does. Which names of the project launch so is known once the files that
# spell a launch are analyzed (SourceResult.exports); which names a file
# imports is read here, from its bytes, for every file the check above
# dismissed. Lexical and generous: an import inside a string counts too (the
# Python source decides afterwards, on the parsed file); only an import
# CPython would run must never be missed.


def imported_names(data: bytes) -> tuple[tuple[str, str], ...]:
    """The names a Python file's import statements bind, as ``(module, name)``:
    ``from ..a.b import c, d as e`` gives ``("..a.b", "c")`` and ``("..a.b",
    "d")``; ``import a.b as c`` gives ``("a.b", "")``; ``from a import *``
    gives ``("a", "*")``. Found from the bytes without parsing: each word
    ``import`` that begins a statement (after a line start, ``;`` or ``:``),
    alone or after ``from <module>``."""
    found: dict[tuple[str, str], None] = {}
    start = data.find(b"import")
    while start != -1:
        end = start + 6
        after = data[end : end + 1]
        if after in (b" ", b"\t", b"(", b"\\") and (start == 0 or data[start - 1 : start] in (b" ", b"\t", b"\n", b";", b":", b"\r", b"\f", b".")):
            for begin in _statement_starts(data, start):
                head = data[begin:start].strip(b" \t\f\\\r\n")
                if not head:
                    for module in _import_items(_statement_rest(data, end)):
                        found[(module, "")] = None
                elif head.startswith(b"from") and head[4:5] in (b" ", b"\t", b".", b"\\", b"\n", b"\r"):
                    module = b"".join(head[4:].split()).replace(b"\\", b"")
                    if module and all(part.isidentifier() or not part for part in module.decode("utf-8", "replace").split(".")):
                        text = module.decode("utf-8", "replace")
                        for name in _import_items(_statement_rest(data, end)):
                            found[(text, name)] = None
        start = data.find(b"import", end)
    return tuple(found)


def _statement_starts(data: bytes, start: int) -> list[int]:
    """Where the statement holding offset ``start`` may begin: after the line
    end, ``;`` or ``:`` before it; and, when the line before ends with a
    backslash, where that line's statement begins (a backslash at the end of
    a comment continues nothing: both are tried)."""
    starts = []
    while len(starts) < 8:
        # (the line's start first: a search for `;` back from there to the
        # file's start made the scan quadratic)
        line = max(data.rfind(b"\n", 0, start), data.rfind(b"\r", 0, start)) + 1
        begin = max(line, data.rfind(b";", line, start) + 1, data.rfind(b":", line, start) + 1)
        starts.append(begin)
        if not begin or data[begin - 1 : begin] not in (b"\n", b"\r"):
            break
        before = data[: begin - 1]
        if before.endswith(b"\r") and data[begin - 1 : begin] == b"\n":
            before = before[:-1]
        if not before.endswith(b"\\"):
            break
        start = len(before) - 1
    return starts


def _statement_rest(data: bytes, start: int) -> bytes:
    """What follows ``import`` to the end of its statement: a parenthesized
    list to its ``)``, else to the end of the line (backslashes continue it)
    or a ``;``."""
    at = start
    while True:
        if data[at : at + 1] in (b" ", b"\t", b"\f"):
            at += 1
        elif data[at : at + 3] == b"\\\r\n":
            at += 3
        elif data[at : at + 2] in (b"\\\n", b"\\\r"):
            at += 2
        else:
            break
    if data[at : at + 1] == b"(":
        # To the `)` that is not in a comment (`(  # noqa: F401 (re-export)`).
        at += 1
        lines = []
        while at < len(data):
            newline = data.find(b"\n", at)
            line = data[at : newline if newline != -1 else len(data)]
            hash_at = line.find(b"#")
            code = line if hash_at == -1 else line[:hash_at]
            close = code.find(b")")
            if close != -1:
                lines.append(code[:close])
                break
            lines.append(code)
            if newline == -1:
                break
            at = newline + 1
        return b"\n".join(lines)
    end = at
    while True:
        newline = data.find(b"\n", end)
        if newline == -1:
            newline = len(data)
        if data[end:newline].rstrip(b"\r").endswith(b"\\"):
            end = newline + 1
            continue
        line = data[at:newline]
        semicolon = line.find(b";")
        return line if semicolon == -1 else line[:semicolon]


def _import_items(rest: bytes) -> list[str]:
    """The names (or modules) of ``a, b as c, d.e`` (comments dropped)."""
    items = []
    for line in rest.replace(b"\\\r\n", b" ").replace(b"\\\n", b" ").splitlines():
        hash_at = line.find(b"#")
        for item in (line if hash_at == -1 else line[:hash_at]).split(b","):
            words = item.split()
            if words:
                name = words[0].decode("utf-8", "replace")
                if name == "*" or all(part.isidentifier() for part in name.split(".")):
                    items.append(name)
    return items
