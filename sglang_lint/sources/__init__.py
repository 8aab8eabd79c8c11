"""The sources: one per kind of file, each turning a file's text into the
launches it starts (``SourceResult``). ``SOURCES`` is the registry of which
module reads which kind; ``extract`` runs the right one and never raises."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from sglang_lint.files import FileKind
from sglang_lint.model import Note, SourceResult, gives_nothing
from sglang_lint.prefilter import may_launch

if TYPE_CHECKING:
    from sglang_lint.sources.project import ProjectFiles

# The source module and function of each file kind, imported on first use: a run
# over files that launch nothing never loads tree-sitter, PyYAML or the Python
# interpreter.
SOURCES: dict[FileKind, tuple[str, str]] = {
    FileKind.SHELL: ("sglang_lint.sources.shell", "analyze_shell"),
    FileKind.PYTHON: ("sglang_lint.sources.python", "analyze_python"),
    FileKind.YAML: ("sglang_lint.sources.yaml_manifest", "analyze_yaml"),
    FileKind.MARKDOWN: ("sglang_lint.sources.markdown", "analyze_markdown"),
    FileKind.NOTEBOOK: ("sglang_lint.sources.notebook", "analyze_notebook"),
}
# The kinds whose source reads other files of the project (a shell script's
# `source`d helpers, a Python module's imports of the project, issue 19): it takes a ``files`` keyword, a
# sources.project.FileReader that records what it reads.
READS_PROJECT_FILES = frozenset({FileKind.SHELL, FileKind.PYTHON})


def source_for(kind: FileKind) -> Callable[..., SourceResult] | None:
    where = SOURCES.get(kind)
    if where is None:
        return None
    import importlib

    return getattr(importlib.import_module(where[0]), where[1])


def extract(
    path: str,
    text: str,
    kind: FileKind,
    env: Mapping[str, str] | None = None,
    project: ProjectFiles | None = None,
    precheck: bool = True,
    launcher_imported: bool = False,
    launching: Mapping[str, Sequence[str]] | None = None,
) -> SourceResult:
    """Run one source on one file; an internal error becomes a note, never an
    exception, so one odd file never loses the others' results. ``env``: the
    config's values for environment variables the file reads. ``project``: where
    the source may read other files (sources.project; None: the working
    directory's files); what it read becomes the result's ``dependencies``.

    A file without a marker of an SGLang launch (prefilter.may_launch) is not
    parsed: its result is empty, its lines not even split; unless not
    ``precheck``: a Python file that imports a launcher of the project
    (extraction.extract_importers, ``launcher_imported``: a name another
    file's launch was made through) or a module that may launch
    (extraction.importing_launchers), whose launches are made by calls the
    source follows; ``launching``: the names modules of the run that spell no
    launch were found to launch through (a wrapper of a wrapper)."""
    if precheck and not may_launch(kind.value, text, env):
        return SourceResult(path=path)
    source = source_for(kind)
    if source is None:
        return SourceResult(path=path, lines=text.split("\n"))
    try:
        if kind not in READS_PROJECT_FILES:
            return _lines_when_needed(source(path, text, env) if env else source(path, text))
        from sglang_lint.sources.project import ProjectFiles

        reader = (project if project is not None else ProjectFiles((os.path.realpath(os.getcwd()),))).reader()
        result = source(path, text, env, files=reader) if precheck else source(path, text, env, files=reader, precheck=False, launcher_imported=launcher_imported, launching=launching)
        result.dependencies = reader.dependencies
        return _lines_when_needed(result)
    except RecursionError:
        result = SourceResult(path=path, lines=text.split("\n"))
        result.notes.append(Note(path, "file is nested too deeply to analyze"))
        return result
    except Exception as error:  # noqa: BLE001 - the promise is: never crash
        result = SourceResult(path=path, lines=text.split("\n"))
        import traceback  # only for an internal error: not at startup

        frame = traceback.extract_tb(error.__traceback__)[-1]
        result.notes.append(
            Note(path, f"internal error while analyzing this file ({type(error).__name__}: {error} at {os.path.basename(frame.filename)}:{frame.lineno}); please report it")
        )
        return result


def _lines_when_needed(result: SourceResult) -> SourceResult:
    """A result that gives the cross-file stages nothing keeps no lines: on
    SGLang's tree 104 of the 186 files that pass the pre-check launch nothing,
    and a worker's results have their lines split again in the parent (~5 MB
    of its peak). The report reads the lines of any file a finding, its fix or
    a related location points into (``pipeline._add_finding_lines``)."""
    if result.lines and gives_nothing(result):
        result.lines = []
    return result
