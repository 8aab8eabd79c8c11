"""The Python source: SGLang launches in Python files (orchestration scripts,
launchers, SGLang-style test classes), read with the standard library's ``ast``.

The file is never run or imported. A small abstract interpreter executes the
module in order - assignments, ``+=``, ``.append``/``.extend``, ``if``/``for``/
``while``/``try``, function calls with each call site's arguments, classes with
their attributes and inheritance - keeping for every value what can be known
statically (:mod:`sglang_lint.sources.python_values`). Launches are the calls that
start a server:

- a process with an argv list or a command string: ``subprocess.Popen/run/call/
  check_call/check_output`` (``shell=True`` for a string), ``os.system``,
  ``os.popen``, ``os.spawn*``, ``os.exec*``, ``os.posix_spawn[p]``,
  ``asyncio.create_subprocess_exec/shell`` and SGLang's test helper
  ``popen_with_error_check``; the argv goes through the shell source's launch
  detection, so wrappers (``nohup``, ``env``, ``docker run``, ``ssh``, ``bash -c``)
  and entry points are read exactly as in scripts;
- ``sglang.Engine(**kw)`` and ``ServerArgs(**kw)`` with field names
  (``launch_server(ServerArgs(...))`` is the ServerArgs call);
- SGLang's test helpers ``popen_launch_pd_server`` / ``popen_launch_server``
  (``--model-path MODEL *other_args --host H --port P``, 0.5.23
  test/test_utils.py:731-950).

Functions are analyzed per call site; functions and test methods nobody in the
file calls are run once with unknown parameters (methods once per concrete test
class, with ``cls``/``self`` bound to it, each class its own deployment scope).
What cannot be resolved stays a symbol or unknown; strings given to ``print``,
logging or docstrings are never launches.

Why ``ast`` and not libcst (design.md names libcst): measured on this machine,
libcst needs 14 ms to parse a 90-line launcher, 25 ms more for positions and
70 ms more for scope metadata (0.2 s to import), against 2.5 ms for ``ast``; the
performance targets (issue 7: 250 files/s, a launcher in 400 ms) are out of reach
with libcst's metadata. ``ast`` gives exact start and end positions, and the
interpreter does its own scope and import resolution.

This module is the source's entry point (:func:`analyze_python`, which the
registry in :mod:`sglang_lint.sources` loads): it decides whether a file is read at
all and runs it once per path through the branches that make a difference. The
rest is in modules that each import only those after them:

- :mod:`sglang_lint.sources.python_launches`: the launch recognisers, a subclass
  of the interpreter;
- :mod:`sglang_lint.sources.python_interpreter`: the abstract interpreter
  (frames, flow, statements, expressions, calls);
- :mod:`sglang_lint.sources.python_values`: the value domain, and
  :mod:`sglang_lint.sources.python_literals`: where each character of a string
  literal was written.
"""

from __future__ import annotations

import ast
from typing import Iterable, Mapping

from sglang_lint.model import Note, SourceResult
from sglang_lint.prefilter import python_may_run_a_launch
from sglang_lint.sources.paths import Fork, Paths, explore, merge_imprecise, variants
from sglang_lint.sources.python_launches import LaunchInterpreter

# Larger Python files are not parsed: ast.parse of a 9 MB file took 3.8 GB. No
# launcher comes near this (SGLang's largest module, server_args.py, is ~200 KB).
MAX_PYTHON_CHARS = 1024 * 1024


def analyze_python(
    path: str, text: str, env: Mapping[str, str] | None = None, files=None, precheck: bool = True, launcher_imported: bool = False, launching: Mapping[str, Iterable[str]] | None = None
) -> SourceResult:
    """Extract the launches of one Python file. Never raises for any text. A file
    that cannot launch SGLang (see :func:`prefilter.python_may_run_a_launch`) is not even parsed: its
    syntax is flake8's and ruff's business, not ours. (Not ``precheck``: the
    file imports a launcher of the project, or a module that may launch;
    ``launcher_imported``: a name another file's launch was made through,
    extraction.extract_importers: its statements run whatever their syntax
    says; ``launching``: the names modules of the run that spell no launch
    were found to launch through, by path, LaunchInterpreter.launching.)"""
    if precheck and not python_may_run_a_launch(text):
        return SourceResult(path=path, lines=text.split("\n"))
    if len(text) > MAX_PYTHON_CHARS:
        result = SourceResult(path=path, lines=text.split("\n"))
        result.notes.append(
            Note(
                path,
                f"Python file of {len(text) // 1024} KB: sglang-lint does not parse Python files over "
                f"{MAX_PYTHON_CHARS // 1024} KB (CPython's parser needs hundreds of bytes of memory per byte of source); "
                "it is not analyzed",
            )
        )
        return result
    trees: list[ast.Module] = []

    def run(paths: Paths) -> tuple[SourceResult, int]:
        # One run per path through the branches that make a difference
        # (paths.py); the file is parsed once.
        analyzer = LaunchInterpreter(path, text, env, paths, trees[0] if trees else None, files)
        analyzer.imports_a_launcher = launcher_imported
        if launching:
            analyzer.set_launching(launching)
        try:
            result = analyzer.run()
        except Fork as fork:
            fork.cost = analyzer.steps
            raise
        finally:
            if analyzer.tree is not None and not trees:
                trees.append(analyzer.tree)
            steps = analyzer.steps
            analyzer.release()
        return result, steps

    learned = files.explored(path, env) if files is not None else None
    result = variants(explore(run, merge_imprecise, learned))
    if files is not None:
        _notes_on_the_users_file(result, files.project)
    return result


def _notes_on_the_users_file(result: SourceResult, project) -> None:
    """Notes stay on the user's files: the note that the branches of an
    installed sglang module (a server fixture's) were merged is about the
    launches of this file, so it moves to the line of this file that led to
    them (the first launch's: a subclass, a call); the installed file is named
    in its text."""
    if not result.notes or not any(project.is_installed(note.path) for note in result.notes):
        return
    launches = [*result.servers, *result.routers]
    line = min((launch.location.line for launch in launches if launch.location.path == result.path), default=1)
    result.notes = [
        Note(result.path, note.message.replace("of this file", f"of the installed {note.path} (line {note.line})", 1), line, 1)
        if project.is_installed(note.path)
        else note
        for note in result.notes
    ]
