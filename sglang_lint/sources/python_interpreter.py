"""The Python source's abstract interpreter: it executes a module's ``ast`` in
order - assignments, ``+=``, ``.append``/``.extend``, ``if``/``for``/``while``/
``try``, function calls with each call site's arguments, classes with their
attributes and inheritance - keeping for every value what can be known statically
(:mod:`sglang_lint.sources.python_values`), in frames over a heap that branches
fork and merge. A condition neither the file nor the run's path decides forks the
path (:mod:`sglang_lint.sources.paths`). Functions and test methods nobody in the
file calls run once with unknown parameters.

The interpreter knows no launch. Two hooks are where the launch recognisers
(:mod:`sglang_lint.sources.python_launches`, a subclass) come in:
:meth:`PythonInterpreter._call_external` (a call of a name imported from outside
the file) and :meth:`PythonInterpreter._assigned` (a value bound to a name);
:meth:`PythonInterpreter._finish_run` ends a run.
"""

from __future__ import annotations

import ast
import contextlib
import math
import os
import sys
from collections import OrderedDict
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple, TypeVar

from msgspec import Struct
from msgspec.structs import replace

from sglang_lint import interrupt
from sglang_lint.prefilter import PROCESS_MARKERS
from sglang_lint.model import Kind, Location, Note, SourceResult, Value, merge_made, merged_leaves, reached_from
from sglang_lint.sources.paths import IN_SEPARATOR, Paths, decision, implied, imprecise_launch, launch_values, merged_launch, not_followed, suspended
from sglang_lint.sources.python_literals import scan_string_literals, simple_literal_start
from sglang_lint.sources.python_outline import ModuleOutline, bound_names, outline, parse_python
from sglang_lint.sources.python_reach import FunctionRefs, function_imports, function_references, functions_in, hands_on_a_command, launcher_aliases, per_tree, reaching_functions, statement_references, tail_statements
from sglang_lint.sources.python_values import (
    MAX_ITEMS,
    MAX_STRING,
    MISSING,
    DictContents,
    FormatError,
    PBuiltin,
    PClass,
    PDict,
    PExternal,
    PFunc,
    PList,
    PMethod,
    PImported,
    PModule,
    PNone,
    PNum,
    PObject,
    PSpread,
    PStr,
    PSuper,
    PUnknown,
    PyValue,
    as_written,
    bounded_items,
    collect_text,
    first_loc,
    format_percent_specs,
    is_none,
    items_inserted,
    items_without,
    join_words,
    known_int,
    known_seg,
    known_text,
    list_changed,
    literal_text,
    loc_of,
    num_text,
    origin_of_word,
    parse_format,
    python_scalar,
    relocate,
    same_text,
    same_value,
    scalar_key,
    spec_too_wide,
    split_word,
    sub_chars,
    unique_items,
    unique_keys,
    word_length_ok,
)
from sglang_lint.sources.shell_words import Seg, Word, held_words, is_identifier, spread_word
from sglang_lint.sources.wrappers import PYTHON_NAME

# Statements and calls interpreted per file before giving up (a bound on work for
# files whose functions call each other many times over).
MAX_STEPS = 100_000
# Nested calls of functions defined in the file.
MAX_CALL_DEPTH = 10
# Steps a call of another module's function that cannot reach a launch runs
# before it is given up: its result and what it changed are unknown
# (_call_bounded). Such calls were 69% of the steps run on
# SGLang's tree (a test kit building memory pools, 25,000 steps for nothing a
# launch reads); with this bound the tree's topology is the same (the reasons
# of a few unknown values aside) for 17% less CPU time; 100 changed it.
MAX_NONLAUNCHING_CALL_STEPS = 300
# Loops over known items are unrolled up to this many iterations, counting those
# of the loops they are nested in (nested loops multiply launches, and the pairs
# of launches grow as their square).
MAX_UNROLL = 64
# Expression nesting followed; deeper expressions are unknown.
MAX_EXPR_DEPTH = 100
# Statement nesting followed.
MAX_BLOCK_DEPTH = 100

_BUILTINS = {
    "str", "int", "float", "bool", "list", "tuple", "set", "dict", "len", "range", "sorted",
    "reversed", "print", "super", "isinstance", "repr", "enumerate", "zip", "min", "max",
    "getattr", "hasattr", "open", "type", "object", "Exception", "ValueError", "RuntimeError",
}
_TRUE_NAMES = {"__name__": "__main__"}
# Calls that end the program (SystemExit, or the process itself).
_EXIT_CALLS = frozenset({"sys.exit", "os._exit", "os.abort"})


class _Budget(Exception):
    pass


class _CallBudget(Exception):
    """Raised when a call that cannot launch ran past :data:`MAX_NONLAUNCHING_CALL_STEPS`."""


class _BoundedCall(NamedTuple):
    """A call that cannot launch, running under its bound (_call_bounded):
    the step limit outside it (a launch made meanwhile lifts the bound,
    _launched)."""

    outer_limit: int


class _Stop(Exception):
    """Raised past the expression depth bound."""


class Frame(Struct):
    scopes: tuple[int, ...]  # innermost first; the module scope is not included
    name: str
    returns: list[PyValue] = []
    global_names: set[str] = set()
    # How many branches the interpreter was inside when the call began, and the
    # branch decisions (paths.py keys) the returns of this call were inside:
    # the provenance of its merged return value.
    fork_depth: int = 0
    return_keys: set[str] = set()
    # The decisions of branches a body of which returned from this call: what
    # runs after them, a launch too, runs on one of their ways only.
    exit_keys: set[str] = set()
    owner: PClass | None = None  # class of the method running (super())
    receiver: PyValue | None = None  # its self / cls
    is_class_body: bool = False


class _Flow(Struct):
    """How a block ended: normally, or by return/raise (terminated; ``raised``:
    by raise), break or continue."""

    terminated: bool = False
    broke: bool = False
    continued: bool = False
    raised: bool = False

    @property
    def stopped(self) -> bool:
        return self.terminated or self.broke or self.continued


class _Level(Struct):
    """The undo log of one branch being run."""

    first_new_ref: int
    before: dict[int, Any] = {}


# Imports of the project's modules followed from the analyzed file, through the
# modules they import (issue 19); deeper imports stay names we cannot see.
MAX_IMPORT_DEPTH = 4


class Module:
    """A file of the project read for its definitions (issue 19): its path as
    shown, text and lines (the positions of what it defines), its outline (its
    top-level statements, parsed as they run) and the heap dict of its globals.
    The analyzed file is ``None`` wherever a module is expected."""

    def __init__(self, path: str, text: str, tree: ModuleOutline, scope: int, name: str) -> None:
        self.path = path
        self.text = text
        # (kept with the outline: the same for every run while it is kept)
        self.lines = tree.lines
        self.all_ascii = tree.all_ascii
        self.ascii_lines = tree.ascii_lines
        self.tree = tree
        self.scope = scope
        self.name = name
        # Top-level statements (the outline's units) run so far, by index: a
        # module's statements run when a name they bind is first looked up (_define).
        self.done: set[int] = set()
        # Whether it may launch through its names, from its text
        # (PythonInterpreter._module_may_launch), read once.
        self.may_launch: bool | None = None

    def run_derived(self, function: Callable[[ast.stmt], T]) -> Iterator[T]:
        """``function`` of each top-level statement that has run, in order
        (what the module has defined so far: a definition that has not run is
        no function yet), computed once per outline."""
        for index in sorted(self.done):
            yield from self.tree.derived(index, function)


_NOTHING_SKIPPED: frozenset[int] = frozenset()
T = TypeVar("T")
_UNSET = object()


class PythonInterpreter:
    """One run over a Python module, on one path through the branches that make a
    difference (:class:`~sglang_lint.sources.paths.Paths`); :meth:`run` returns
    the file's :class:`~sglang_lint.model.SourceResult`."""

    def __init__(
        self, path: str, text: str, env: Mapping[str, str] | None = None, paths: Paths | None = None, tree: ast.Module | None = None, files: Any = None
    ) -> None:
        self.path = path
        # Where other files of the project are read (sources.project.FileReader;
        # None: imports stay names we cannot see), the modules read so far by
        # path (None: being read, or unreadable), the module whose code runs
        # (None: the analyzed file) and how many are being read (their top
        # level defines; nothing is called meanwhile).
        self.files = files
        self.modules: dict[str, Module | None] = {}
        self.module_scopes: dict[int, Module] = {}  # a module's globals' ref -> the module
        self._imports_of: dict[str, Mapping[str, PyValue]] = {}  # a module's path -> what its imports bind
        self.module_files: dict[tuple, list[str]] = {}  # ("module files", importer's directory, module, level) -> its files, without a run's cache
        self.module: Module | None = None
        self.loading = 0
        # The decisions this run's path has fixed (issue 16, launch variants; see
        # sources/paths.py), and the first condition of the statement being
        # decided that neither the file nor the path decides.
        self.paths = paths or Paths()
        self.tree = tree
        self.pending: tuple[str, tuple] | None = None
        # Whether that decision came from a value (a condition a call returned:
        # it is placed at the branch that reads it), and the decision the
        # comparison just evaluated made (a value carries it, PUnknown.condition).
        self.pending_by_value = False
        # Whether the condition being decided read a merged bool (_merged_bool).
        self.read_merged_bool = False
        self.compared: tuple[str, tuple[str, str], bool] | None = None
        # The bodies of the last branches run that raised (_run_branches).
        self.raised_bodies: set[int] = set()
        # The frame whose condition is being decided, and whether it read a
        # name of that frame's function (its decision is then per call).
        self.condition_frame: Frame | None = None
        self.read_local = False
        self.text = text
        # The config's `env`: values for the environment variables the file reads.
        self.configured_env: Mapping[str, str] = env or {}
        self.lines = text.split("\n")
        self.result = SourceResult(path=path, lines=self.lines)
        self.heap: dict[int, Any] = {}
        self.journal: list[_Level] = []
        self.next_ref = 1
        self.module_scope = self._new_ref({})
        self.frames: list[Frame] = [Frame((), "<module>")]
        self.call_stack: list[tuple[str, Location, tuple[int, int]]] = []
        self.active_functions: list[Any] = []
        self.launched_through: set[int] = set()  # the functions a launch was made in (their nodes' ids)
        self.executed: set[int] = set()  # id() of function nodes run at least once
        self.defined: list[PFunc] = []
        self.classes: list[PClass] = []
        self.steps = 0
        # The step past which _step gives up: MAX_STEPS, or sooner while a call
        # that cannot launch runs (_call_bounded).
        self.step_limit = MAX_STEPS
        # The call of another module's function running under that bound.
        self.bounded: _BoundedCall | None = None
        # The functions (their nodes' ids) a call of which ran too long and
        # cannot launch: later calls are not run.
        self.too_long: set[int] = set()
        # How many times the loops being unrolled run the current body in all.
        self.unrolled = 1
        self.scope = ""
        self._ascii_lines: dict[int, bool] = {}
        # ast's columns are UTF-8 byte offsets: the same as code points on ASCII text.
        self._all_ascii = text.isascii()
        self._expr_depth = 0
        self.noted_depth = False
        self._branch_depth = 0  # inside an if/for/while/try body: assignments add up
        # Inside how many blocks where the test expects an exception (``with
        # self.assertRaises(...)``, ``with pytest.raises(...)``): what runs there,
        # called functions included, is expected to fail (see expects_failure).
        self.expecting_failure = 0
        # The method for each kind of node, looked up once per class (a
        # getattr by name per node was ~5% of an analysis).
        self._expr_handlers, self._stmt_handlers = _handler_tables(type(self))
        # The keys of the branches that may fork being run, innermost last.
        self.forks: list[str] = []
        # The decisions whose merge is being made (_merge_values), and for each
        # value a merge made, the decisions it was merged over (by id, with the
        # value to keep the id its own): forking on one of those is what can
        # make a launch word precise (issue 20, _fork_keys_of_launches).
        self.merging: frozenset[str] = frozenset()
        self.provenance: dict[int, tuple[Value, frozenset[str]]] = {}
        # The decisions a launch of this run exists on one way of (Frame.exit_keys).
        self.launch_exits: set[str] = set()
        # The analyzed file's text, lines and globals, restored when its code runs
        # again after a module's (_in_module).
        self._analyzed = (self.text, self.lines, self._all_ascii, self._ascii_lines, self.module_scope)

    # -- entry ------------------------------------------------------------------
    def run(self) -> SourceResult:
        try:
            tree = self.tree if self.tree is not None else parse_python(self.text, self.path)
            self.tree = tree
        except SyntaxError as error:
            line = error.lineno or 1
            column = error.offset or 1
            message = error.msg or "invalid syntax"
            self.result.notes.append(Note(self.path, f"Python syntax error: {message}; this file is not analyzed", line, max(column, 1)))
            return self.result
        except (MemoryError, RecursionError) as error:
            # Nesting past the parser's limits (`lambda: lambda: ...` overflows its
            # stack: a MemoryError with no message; `not not ...`: RecursionError).
            detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            self.result.notes.append(Note(self.path, f"Python file is nested too deeply for Python's parser ({detail}); it is not analyzed"))
            return self.result
        except ValueError as error:
            # NUL bytes (ValueError before 3.12).
            self.result.notes.append(Note(self.path, f"Python file cannot be parsed ({type(error).__name__}: {error}); it is not analyzed"))
            return self.result
        self._collect_comments()
        if self.files is not None and not self.imports_a_launcher and not self._file_may_launch(tree):
            # Nothing in the file can reach a launch (issue 20): the pre-check
            # let it through on a word (a docstring's `launch_server`, a
            # definition's name), and running it would start nothing. (What
            # another module may start from it, it still exports.)
            self.result.exports = self._exported_commands(tree)
            return self.result
        try:
            self._exec_block(tree.body, 0)
            self._run_uncalled(tree)
            self.result.exports = self._exports()
        except _Budget:
            self.result.notes.append(
                Note(
                    self.path,
                    f"stopped after {MAX_STEPS} steps (a very long file, or functions that call each other too often to follow); "
                    "launches after this point may be missing",
                )
            )
        except RecursionError:
            self.result.notes.append(Note(self.path, "nesting too deep to analyze; launches after this point may be missing"))
        self._finish_run()
        # A launch a merged branch may have made imprecise: fork on the first
        # merged branch its words were merged over (all, when that is not known).
        lost = not_followed(self.result.notes)
        relevant = self.relevant_branches
        merged_over = None if lost else self._fork_keys_of_launches()
        if merged_over is not None:
            merged_over |= self.launch_exits
            relevant = merged_over if relevant is None else relevant & merged_over
        self.paths.launch(any(imprecise_launch(launch) for launch in [*self.result.servers, *self.result.routers]) or lost, relevant)
        self._leave_installed()
        self._drop_import_notes_no_launch_needs()
        self._drop_depth_notes_where_nothing_launches()
        return self.result

    def _launched(self) -> None:
        """A launch was recorded: it exists on one way of the early returns of
        the calls it was made in, and it was made through the functions
        running (:meth:`_exports`)."""
        for frame in self.frames:
            self.launch_exits.update(frame.exit_keys)
        self.launched_through.update(map(id, self.active_functions))
        bounded = self.bounded
        if bounded is not None:
            # Made in a call that cannot launch, through the file's code it
            # reached some way _may_call_back does not see: what it made is
            # reported, so the call runs on, as the file's own code does: the
            # calls it makes from now on that cannot launch are bounded each.
            # (Lifted at the next bound instead, SGLang's test kit built a
            # ServerArgs, then memory pools whose constructors ran to their
            # end: 37,000 steps, 12% of the tree's time, issue 20.)
            self.step_limit = bounded.outer_limit
            self.bounded = None

    def release(self) -> None:
        """Drop everything the run built. The interpreter refers to itself
        (closures it keeps, bound methods), so without this each run's heap
        and the trees it read stay until the cycle collector finds them: on
        SGLang's tree that was most of the peak memory and of the collector's
        time (issue 20)."""
        self.__dict__.clear()

    def _fork_keys_of_launches(self) -> set[str] | None:
        """The decisions the words a merge made in this run's launches were
        merged over; None when one such word's are not known (made by a merge
        this interpreter did not record, a loop's items). SGLang's
        test_utils.py merges five platform branches at its top level (timeouts)
        and a launch's ``--device`` in another module: forking on each branch
        in turn ran the 4,500-step module 13 times for nothing."""
        return self._provenance_of([value for launch in [*self.result.servers, *self.result.routers] for value in launch_values(launch)], set())

    def _merged_over(self, values: list[PyValue | None]) -> frozenset[str] | None:
        """The decisions a merge of ``values`` is over: the one being merged,
        and those the values were merged over themselves (None: not known)."""
        keys = self._provenance_of([leaf for value in values for leaf in self._model_values(value)], set(self.merging))
        return None if keys is None else frozenset(keys)

    def _provenance_of(self, values: list[Value], keys: set[str]) -> set[str] | None:
        """``keys`` with the decisions each merged part of ``values`` was merged
        over; None when one part's are not recorded."""
        for value in values:
            for merged in merged_leaves(value):
                entry = self.provenance.get(id(merged))
                if entry is None or entry[0] is not merged:
                    return None
                keys |= entry[1]
        return keys

    def _model_values(self, value: PyValue | None) -> list[Value]:
        if isinstance(value, PStr):
            return [segment.value for segment in value.word if isinstance(segment, Seg)]
        if isinstance(value, (PUnknown, PSpread)):
            return [value.value]
        if isinstance(value, PList):
            return [leaf for item in self.heap.get(value.ref, ()) if not isinstance(item, PList) for leaf in self._model_values(item)]
        return []

    def _record_merge(self, value: PyValue, keys: frozenset[str] | None) -> PyValue:
        """Remember what the merged ``value`` was merged over."""
        if keys is None:
            return value
        for leaf in self._model_values(value):
            for merged in merged_leaves(leaf):
                entry = self.provenance.get(id(merged))
                if entry is not None and entry[0] is merged:
                    self.provenance[id(merged)] = (merged, entry[1] | keys)
                else:
                    self.provenance[id(merged)] = (merged, keys)
        return value

    def _drop_depth_notes_where_nothing_launches(self) -> None:
        """"Nesting too deep ... launches may be missing" says a launch may be
        lost; in a file no statement of which can reach a launch (from the
        syntax, :meth:`_file_may_launch`) none can be (issue 20: SGLang's
        model files pass the pre-check on a docstring and overflow the
        interpreter's nesting)."""
        if self.result.servers or self.result.routers or not any(note.message.startswith("nesting too deep") for note in self.result.notes):
            return
        if self.tree is None or self._file_may_launch(self.tree):
            return
        self.result.notes = [note for note in self.result.notes if not note.message.startswith("nesting too deep")]

    def _file_may_launch(self, tree: ast.Module) -> bool:
        """Whether any statement of the analyzed file can reach a launch, by its
        imports as written (nothing run); once per analysis, for all its runs
        (the same tree, the same files: a PD fixture's 56 runs asked it 56 times)."""
        if self.files is None:
            return self._file_may_launch_now(tree)
        key = ("file may launch", id(tree))
        known = self.files.memo.get(key)
        if known is None:
            known = self.files.memo[key] = self._file_may_launch_now(tree)
        return bool(known)

    def _file_may_launch_now(self, tree: ast.Module) -> bool:
        bindings = _import_bindings(tree.body, self.result.path)
        launches = self._launch_test(bindings)
        if any(
            isinstance(statement, ast.ImportFrom) and any(alias.name == "*" for alias in statement.names) and self._import_may_launch(statement.module or "", statement.level)
            for statement in tree.body
        ):
            return True  # names a star import brings are not known from the syntax
        from sglang_lint.prefilter import INHERITED_QUALNAME_MARKERS

        for statement in tree.body:
            # A test class deriving a server fixture class: launches of the base's
            # (and, when the base cannot be read, the note that says so).
            if isinstance(statement, ast.ClassDef):
                for base in statement.bases:
                    bound = bindings.get(base.id) if isinstance(base, ast.Name) else None
                    if isinstance(bound, (PImported, PExternal)) and any(marker in bound.qualname for marker in INHERITED_QUALNAME_MARKERS):
                        return True
        _, names = reaching_functions(function_references(tree), launches)
        # An import statement launches nothing: what matters is a use of its names.
        return bool(names) or any(launches(statement_references(statement)) for statement in tree.body if not isinstance(statement, (ast.Import, ast.ImportFrom)))

    def _drop_import_notes_no_launch_needs(self) -> None:
        """An import that could not be followed hides nothing when no launch
        could have read its names (issue 20: SGLang's own modules read each
        other's definitions in long chains, and every file past the bound of
        files read gave a note). Kept: those in the analyzed file when it
        launches (a value of a launch may be unknown because of them)."""
        launches = bool(self.result.servers or self.result.routers) or not_followed(self.result.notes)
        self.result.notes = [
            note
            for note in self.result.notes
            if not (note.message.startswith("import of ") and " not followed" in note.message) or (launches and note.path == self.result.path)
        ]

    def _leave_installed(self) -> None:
        """Findings stay on the user's files: a launch written in the installed
        ``sglang`` package (a server fixture's base class) is located at the
        first line of the user's file that led to it (the subclass, the call);
        notes about the installed code's own imports are dropped: nothing the
        user can change is there (the note that its branches were merged is
        moved by ``python._notes_on_the_users_file``)."""
        if self.files is None or not any(self.files.project.is_installed(path) for path in self.modules):
            return
        installed = {path for path in self.modules if self.files.project.is_installed(path)}
        for index, launch in enumerate([*self.result.servers, *self.result.routers]):
            if launch.location.path in installed:
                first = launch.line_ranges[0][0] if launch.line_ranges else 1
                moved = replace(launch, location=Location(self.result.path, first, 1))
                if index < len(self.result.servers):
                    self.result.servers[index] = moved
                else:
                    self.result.routers[index - len(self.result.servers)] = moved
        self.result.notes = [note for note in self.result.notes if note.path not in installed]

    def _finish_run(self) -> None:
        """Hook: the module and the functions nobody calls have run (the path
        then learns whether the launches found are precise)."""

    def _collect_comments(self) -> None:
        """Real comments by line (not ``#`` inside strings), for suppressions. Only
        directives are wanted: a file that spells neither ``noqa`` nor
        ``sglang-lint`` is not tokenized (a third of a launcher's analysis)."""
        lowered = self.text.lower()
        if "noqa" not in lowered and "sglang-lint" not in lowered:
            return
        import io
        import tokenize

        try:
            for token in tokenize.generate_tokens(io.StringIO(self.text).readline):
                if token.type == tokenize.COMMENT:
                    self.result.comments[token.start[0]] = token.string
        except (tokenize.TokenError, SyntaxError, ValueError, IndentationError):
            pass

    # -- heap ---------------------------------------------------------------------
    def _new_ref(self, contents: Any) -> int:
        ref = self.next_ref
        self.next_ref += 1
        self.heap[ref] = contents
        return ref

    # Branches run one after the other on the same heap. Each keeps an undo log of
    # the objects it changes (their contents before its first change), so that
    # after a branch its changes are taken out and kept aside, and after all
    # branches only the changed objects are merged: the cost is what the branches
    # touch, not the size of the heap.
    def _touch(self, ref: int) -> None:
        if not self.journal:
            return
        level = self.journal[-1]
        if ref >= level.first_new_ref or ref in level.before:
            return  # made inside this branch, or already saved
        contents = self.heap.get(ref, MISSING)
        level.before[ref] = dict(contents) if isinstance(contents, dict) else contents

    def _set(self, ref: int, contents: Any) -> None:
        self._touch(ref)
        self.heap[ref] = contents

    def _set_attr(self, ref: int, name: str, value: PyValue) -> None:
        self._touch(ref)
        self.heap.setdefault(ref, {})[name] = value

    def _del_attr(self, ref: int, name: str) -> None:
        self._touch(ref)
        contents = self.heap.get(ref)
        if isinstance(contents, dict):
            contents.pop(name, None)

    def _merge_contents(self, versions: list[Any]) -> Any:
        first = versions[0]
        if isinstance(first, dict) and all(isinstance(v, dict) for v in versions):
            keys: dict[str, None] = {}
            for contents in versions:
                keys.update(dict.fromkeys(contents))
            return {key: self._merge_values([c.get(key) for c in versions]) for key in keys}
        if all(same_value(v, first) for v in versions[1:]):
            return first
        if isinstance(first, tuple) and all(isinstance(v, tuple) for v in versions):
            return self._merge_items(versions)
        if isinstance(first, DictContents) and all(isinstance(v, DictContents) for v in versions):
            return self._merge_dicts(versions)
        return first

    def _merge_items(self, lists: list[tuple]) -> tuple:
        """Lists that differ between branches: the common head and tail, and in
        between any number of items we cannot see (or item-wise alternatives when
        the lengths agree)."""
        if all(len(items) == len(lists[0]) for items in lists):
            return tuple(self._merge_values(list(column)) for column in zip(*lists))
        head = 0
        shortest = min(len(items) for items in lists)
        while head < shortest and all(same_text(items[head], lists[0][head]) for items in lists):
            head += 1
        tail = 0
        while tail < shortest - head and all(same_text(items[-1 - tail], lists[0][-1 - tail]) for items in lists):
            tail += 1
        # (where the items of any way are written: the first way's list may be
        # empty, `if not found: args = []`, and line 1 told the user nothing)
        loc = next(filter(None, map(first_loc, lists)), None) or Location(self.path, 1, 1)
        # What each way had there, as argv words (`if x: args += ["--x", x]`
        # past the paths' bound: the spread may set --x only; ArgToken.held).
        held = held_words([[self._word_of_item(item, loc) for item in items[head : len(items) - tail]] for items in lists])
        middle = self._record_merge(PSpread(Value.unknown("items differ between branches"), loc, held), self._merged_over([item for items in lists for item in items]))
        return (*lists[0][:head], middle, *(lists[0][len(lists[0]) - tail :] if tail else ()))

    def _merge_dicts(self, dicts: list[DictContents]) -> DictContents:
        keys = [tuple(scalar_key(k) for k, _ in d.entries) for d in dicts]
        if all(k == keys[0] for k in keys) and None not in keys[0]:
            entries = tuple(
                (dicts[0].entries[i][0], self._merge_values([d.entries[i][1] for d in dicts])) for i in range(len(keys[0]))
            )
            opens = [d.open for d in dicts if d.open is not None]
            return DictContents(entries, opens[0] if opens else None)
        # What the merge was over, as for any merged value: without it, a launch
        # of the dict (`Engine.__init__`'s `kwargs["log_level"] = "error"` under
        # `if "log_level" not in kwargs`, then `ServerArgs(**kwargs)`) forked on
        # every branch its root met. SGLang's engine.py ran 14 times where 4
        # give its launches (issue 20).
        unknown = Value.unknown("a dict that differs between branches")
        over = self._provenance_of(
            [*(d.open for d in dicts if d.open is not None), *(leaf for d in dicts for _, item in d.entries for leaf in self._model_values(item))],
            set(self.merging),
        )
        if over is not None:
            self.provenance[id(unknown)] = (unknown, frozenset(over))
        return DictContents((), unknown)

    def _merge_values(self, values: list[PyValue | None]) -> PyValue:
        first = values[0]
        if all(same_value(v, first) for v in values[1:]) and first is not None:
            return first
        return self._record_merge(self._merged_value(values), self._merged_over(values))

    def _merged(self, values: list[PyValue | None], over: frozenset[str]) -> PyValue:
        """:meth:`_merge_values` of the ways of the decisions ``over``."""
        with self._merging_over(over):
            return self._merge_values(values)

    @contextlib.contextmanager
    def _merging_over(self, over: frozenset[str]) -> Iterator[None]:
        """The merges made meanwhile are of the ways of the decisions ``over``."""
        merging, self.merging = self.merging, over
        try:
            yield
        finally:
            self.merging = merging

    def _merged_value(self, values: list[PyValue | None]) -> PyValue:
        loc = next((loc_of(v) for v in values if v is not None and loc_of(v) is not None), None) or Location(self.path, 1, 1)
        if any(v is None for v in values):
            return PUnknown(Value.unknown("set in only some branches"), loc)
        imported = [v for v in values if not isinstance(v, PNone)]
        if len(imported) < len(values) and len({_import_key(v) for v in imported}) == 1 and _import_key(imported[0]) is not None:
            # An optional import (`try: from sglang import Engine / except
            # ImportError: Engine = None`, or under `if is_package_available(
            # "sglang"):`): the name is the module's wherever it can be used at
            # all (None cannot be called). As "differs between branches",
            # `Engine(**args)` was no launch, and no note (lighteval, GPTQModel).
            return imported[0]
        if (
            self.merging
            and not any(key.startswith("at\0") for key in self.merging)
            and all(isinstance(v, PNum) and isinstance(v.number, bool) for v in values)
            and len({v.number for v in values}) > 1  # type: ignore[union-attr]
        ):
            # True on one way of a decision over the environment and False on
            # another (a flag helper): its truth is the way's, not that of the
            # texts "True" and "False", which are both true. (A merge over
            # conditions the file does not decide, a health check's `return
            # True, None` / `return False, ...` in a retry loop, keeps the
            # texts: as unknown truths, SGLang's test_utils.py forked on them
            # past the exploration bound.)
            return PUnknown(Value.unknown("True or False, by the way the path takes"), loc)
        if all(isinstance(v, PNum) and isinstance(v.number, bool) for v in values):
            # True on one way and False on another of what the file does not
            # decide (a port check's `try: urlopen(...); return True / except:
            # return False`): its texts, "True" and "False", are both true
            # strings, and taken as the truth of `if port_in_use(): return`
            # they made every launch after it unreachable, without a note. As
            # a value we cannot see, its truth is not known: both ways run,
            # merged (no decision to fork on: _value_truth, _path_truth), and
            # its text is still either.
            return PUnknown(Value.one_of(Value.known(num_text(v.number)) for v in values), loc)  # type: ignore[union-attr]
        program = _one_program([v for v in values if not isinstance(v, PNone)]) if all(isinstance(v, (PStr, PNone)) for v in values) else None
        if program is not None:
            # `shutil.which("python3") or sys.executable`, a venv's
            # `.../bin/python3` or `python3`: paths of one program, which is
            # what a command needs of them (merged into one unknown, the launch
            # they start was "not analyzed").
            return _path_of(program, f"one of several paths to {program}, by the branch taken", loc)
        if all(isinstance(v, (PStr, PNum, PNone, PUnknown)) for v in values):
            strings = [self._to_str(v, loc_of(v) or loc) for v in values]  # type: ignore[arg-type]
            # A `${X:-d}`-like value counts as its default alone, not merged with
            # others: the variants give it exactly (found by the CPython oracle:
            # `"2" if os.getenv("A") else TP` merged to 2 where TP was 16).
            if any(s.value.uses_default for s in strings):
                return PUnknown(Value.unknown("one of several branches is a value the environment sets"), loc)
            merged = Value.one_of(s.value for s in strings)
            return PStr((Seg(merged, loc),), loc)
        if all(isinstance(v, PList) for v in values):
            contents = [self.heap.get(v.ref, ()) for v in values]  # type: ignore[union-attr]
            return PList(self._new_ref(self._merge_items(contents)), loc)
        if all(isinstance(v, (PExternal, PImported)) for v in values):
            callees = tuple(dict.fromkeys(v.qualname for v in values))  # type: ignore[union-attr]
            return PUnknown(Value.unknown(f"one of {', '.join(callees)}, by the branch taken"), loc, callees=callees)
        return PUnknown(Value.unknown("differs between branches"), loc)

    # -- positions -------------------------------------------------------------------
    def _column(self, line: int, byte_offset: int) -> int:
        """1-based code-point column of an ast byte offset."""
        if not 1 <= line <= len(self.lines):
            return byte_offset + 1
        text = self.lines[line - 1]
        ascii_line = self._ascii_lines.get(line)
        if ascii_line is None:
            ascii_line = self._ascii_lines[line] = text.isascii()
        if ascii_line:
            return byte_offset + 1
        return len(text.encode("utf-8", "surrogatepass")[:byte_offset].decode("utf-8", "replace")) + 1

    def _loc(self, node) -> Location:
        # Bodies of loops and functions are evaluated many times, and a file's
        # tree (and an imported module's) by every run: a node's location is
        # computed once, in its own file's context, and kept on the node (a
        # tree belongs to one file: ParsedModules keys them by path too). It
        # may be asked again while another module's code runs (a call's node,
        # _call_function): the first answer is the right one.
        cached = getattr(node, "_sglang_lint_loc", None)
        if cached is not None:
            return cached
        location = self._compute_loc(node)
        try:
            node._sglang_lint_loc = location
        except AttributeError:
            pass
        return location

    def _compute_loc(self, node) -> Location:
        line = getattr(node, "lineno", None)
        if line is None:
            return Location(self.path, 1, 1)
        end_line = getattr(node, "end_lineno", None) or line
        if self._all_ascii and node.end_col_offset is not None and end_line <= len(self.lines):
            return Location(self.path, line, node.col_offset + 1, end_line, node.end_col_offset + 1)
        column = self._column(line, node.col_offset)
        end_column = self._column(end_line, node.end_col_offset) if getattr(node, "end_col_offset", None) is not None else column
        return Location(self.path, line, column, end_line, end_column)

    def _source_chars(self, loc: Location) -> list[tuple[str, tuple[int, int]]]:
        """The characters of a span with their positions (a newline sits just past
        the end of its line)."""
        out: list[tuple[str, tuple[int, int]]] = []
        for line in range(loc.line, loc.end_line + 1):
            if not 1 <= line <= len(self.lines):
                break
            text = self.lines[line - 1]
            start = loc.column - 1 if line == loc.line else 0
            end = loc.end_column - 1 if line == loc.end_line else len(text)
            for index in range(start, min(end, len(text))):
                out.append((text[index], (line, index + 1)))
            if line != loc.end_line:
                out.append(("\n", (line, len(text) + 1)))
        return out

    def _string_chars(self, node: ast.Constant) -> tuple[tuple[int, int], ...] | None:
        """File position of each character of a string literal's value (escapes
        point at their backslash), or None when the source does not match.
        Kept on the node, as its location is (_loc): the literals of a test
        fixture's methods are read by every run of every file deriving it (~9%
        of SGLang's PD fixture's analysis)."""
        known = node.__dict__.get("_sglang_lint_chars", _UNSET)
        if known is _UNSET:
            known = node.__dict__["_sglang_lint_chars"] = self._compute_string_chars(node)
        return known

    def _compute_string_chars(self, node: ast.Constant) -> tuple[tuple[int, int], ...] | None:
        loc = self._loc(node)
        if loc.end_line - loc.line > 2000:
            return None
        if loc.line == loc.end_line and 1 <= loc.line <= len(self.lines):
            simple = simple_literal_start(self.lines[loc.line - 1][loc.column - 1 : loc.end_column - 1], node.value)
            if simple is not None:
                # Most literals: one line, one quote, no escapes; the characters
                # are contiguous (the general scan below cost ~10% of a launcher).
                first = loc.column + simple
                return tuple((loc.line, column) for column in range(first, first + len(node.value)))
        scanned = scan_string_literals(self._source_chars(loc))
        if scanned is None:
            return None
        text, positions, has_fields = scanned
        if has_fields or text != node.value:
            return None
        return tuple(positions)

    def _str_constant(self, node: ast.Constant) -> PStr:
        loc = self._loc(node)
        text = node.value
        if len(text) > MAX_STRING:
            return PStr((Seg(Value.unknown("string too long"), loc),), loc)
        return PStr((known_seg(text, loc, self._string_chars(node)),), loc)

    # -- statements ---------------------------------------------------------------
    def _step(self) -> None:
        self.steps += 1
        if self.steps > self.step_limit:
            if self.steps > MAX_STEPS:
                raise _Budget()
            raise _CallBudget()  # (only a bounded call sets a lower limit)
        if not self.steps & 0x3FF and interrupt.REQUESTED.is_set():
            # (every 1,024 steps, ~1 ms: an editor's newer edit ends this run)
            raise interrupt.Cancelled()

    def _exec_block(self, statements: list, depth: int) -> _Flow:
        if depth > MAX_BLOCK_DEPTH:
            self._note_depth(statements[0] if statements else None)
            return _Flow()
        skipped = self.skipped
        for statement in statements:
            if skipped and id(statement) in skipped:
                continue
            flow = self._exec(statement, depth)
            if flow.stopped:
                return flow
        return _Flow()

    def _may_reach_launch(self, func: PFunc) -> bool:
        """Whether a function of another module of the project can reach a
        launch, from its module's syntax and imports (:meth:`_module_reaching`);
        a function of the analyzed file, or one nested in another, may."""
        module = func.module
        if module is None or self.files is None or isinstance(func.node, ast.Lambda):
            return True
        reaching, defined = self._module_reaching(module.path, module.text)
        top = func.owner.name if func.owner is not None else func.name
        return top not in defined or top in reaching

    def _note_depth(self, node) -> None:
        if not self.noted_depth:
            self.noted_depth = True
            loc = self._loc(node) if node is not None else Location(self.path, 1, 1)
            where = reached_from(loc.path, self.result.path, self.call_stack)
            self.result.notes.append(Note(loc.path, "nesting too deep to analyze here; launches inside may be missing", loc.line, loc.column, where))

    def _exec(self, node, depth: int) -> _Flow:
        self._step()
        handler = self._stmt_handlers.get(type(node), _UNHANDLED)
        if handler is _UNHANDLED:
            handler = self._stmt_handlers[type(node)] = getattr(type(self), "_stmt_" + type(node).__name__, None)
        if handler is None:
            return _Flow()
        return handler(self, node, depth) or _Flow()

    def _stmt_Expr(self, node: ast.Expr, depth: int) -> _Flow | None:
        if isinstance(node.value, ast.Constant):
            return None  # a docstring or a bare literal: never a launch
        if isinstance(node.value, ast.Call) and self._ends_the_program(node.value):
            # `sys.exit("set TP")` ends the path as a raise does (SystemExit).
            for arg in node.value.args:
                self._eval(arg)
            return _Flow(terminated=True, raised=True)
        self._eval(node.value)
        return None

    def _ends_the_program(self, call: ast.Call) -> bool:
        """``sys.exit(...)``, ``os._exit(...)``, ``os.abort()``, and the
        builtins ``exit(...)``/``quit(...)`` where the file defines no such name."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in ("exit", "_exit", "abort"):
            value = self._eval(func)
            return isinstance(value, PExternal) and value.qualname in _EXIT_CALLS
        if isinstance(func, ast.Name) and func.id in ("exit", "quit"):
            value = self._eval(func)
            return isinstance(value, PUnknown) and value.value.reason.endswith("is not defined in this file")
        return False

    def _stmt_Assign(self, node: ast.Assign, depth: int) -> None:
        value = self._eval(node.value)
        for target in node.targets:
            self._assign(target, value)
            self._assigned(target, node, value)

    def _stmt_AnnAssign(self, node: ast.AnnAssign, depth: int) -> None:
        if node.value is not None:
            value = self._eval(node.value)
            self._assign(node.target, value)
            self._assigned(node.target, node, value)

    def _assigned(self, target, node, value: PyValue) -> None:
        """Hook: the statement ``node`` assigned ``value`` to ``target``."""

    def _stmt_AugAssign(self, node: ast.AugAssign, depth: int) -> None:
        current = self._eval(node.target)
        operand = self._eval(node.value)
        if isinstance(node.op, ast.Add) and isinstance(current, PList) and current.kind == "list":
            # `+=` on a list extends it in place: every name for it sees the items.
            items = self._iter_items(operand, self._loc(node.value))
            self._set(current.ref, bounded_items((*self.heap.get(current.ref, ()), *items), self._loc(node)))
            return
        if isinstance(node.op, ast.BitOr) and isinstance(current, PDict):
            # `|=` on a dict updates it in place, like .update().
            contents = self.heap.get(current.ref, DictContents(()))
            self._set(current.ref, self._dict_merged(contents, operand, "a |= with a value we cannot see", self._loc(node)))
            return
        self._assign(node.target, self._binop(node.op, current, operand, self._loc(node)))

    def _stmt_NamedExpr(self, node, depth: int) -> None:
        self._eval(node)

    def _stmt_Global(self, node: ast.Global, depth: int) -> None:
        self.frames[-1].global_names.update(node.names)

    def _stmt_Nonlocal(self, node: ast.Nonlocal, depth: int) -> None:
        pass  # closures share the enclosing scope object already

    def _stmt_Delete(self, node: ast.Delete, depth: int) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                scope = self._target_scope(target.id)
                self._del_attr(scope, target.id)
            elif isinstance(target, ast.Subscript):
                container = self._eval(target.value)
                if isinstance(container, PList):
                    # `del cmd[i]` / `del cmd[a:b]`
                    items = self.heap.get(container.ref, ())
                    where = self._slice_of(target.slice) if isinstance(target.slice, ast.Slice) else known_int(self._eval(target.slice))
                    updated = items_without(items, where, self._loc(target)) if where is not None else None
                    self._set(container.ref, updated if updated is not None else (PSpread(Value.unknown("a list an item was deleted from"), self._loc(target)),))
                elif isinstance(container, PDict):
                    contents = self.heap.get(container.ref, DictContents(()))
                    wanted = scalar_key(self._eval(target.slice))
                    if wanted is None:
                        self._set(container.ref, DictContents((), Value.unknown("a dict a key we cannot see was deleted from")))
                    else:
                        self._set(container.ref, DictContents(tuple((k, v) for k, v in contents.entries if scalar_key(k) != wanted), contents.open))

    def _slice_of(self, node: ast.Slice) -> slice | None:
        """The ``slice`` of ``a:b:c`` when its bounds are known numbers."""
        bounds = []
        for part in (node.lower, node.upper, node.step):
            if part is None:
                bounds.append(None)
                continue
            number = known_int(self._eval(part))
            if number is None:
                return None
            bounds.append(number)
        return None if bounds[2] == 0 else slice(*bounds)

    def _stmt_Import(self, node: ast.Import, depth: int) -> None:
        loc = self._loc(node)
        for alias in node.names:
            if alias.asname:
                self._bind_import(alias.asname, PImported(self.path, alias.name, 0, "", alias.name, loc))
            else:
                # `import a.b.c` binds `a`; `a.b.c.NAME` is looked up through
                # the modules of the project (_attribute).
                top = alias.name.split(".")[0]
                self._bind_import(top, PImported(self.path, top, 0, "", top, loc, alias.name if "." in alias.name else ""))

    def _stmt_ImportFrom(self, node: ast.ImportFrom, depth: int) -> None:
        module = node.module or ""
        loc = self._loc(node)
        for alias in node.names:
            qualname = f"{module}.{alias.name}" if module else alias.name
            if alias.name == "*":
                # The module's public names, each bound as `from module import
                # name` is: read when first used. Running every statement of
                # the module here was a third of the analysis of SGLang's PD
                # tests (`from sglang.srt.utils.common import *`: 5,000 lines
                # for the two names a test uses). Of a module we cannot read,
                # names we cannot see stay unknown when used.
                found = self._project_module(module, node.level, loc) if module or node.level else None
                if found is None:
                    continue
                # Bound as _bind_import binds each, in one write: hundreds of
                # names a run.
                bindings = {
                    name: self._import_value(PImported(self.path, module, node.level, name, f"{module}.{name}" if module else name, loc))
                    for name in self._public_names(found, set())
                }
                scope = self._target_scope("*")
                self._touch(scope)
                self.heap.setdefault(scope, {}).update(bindings)
                continue
            self._bind_import(alias.asname or alias.name, PImported(self.path, module, node.level, alias.name, qualname, loc))

    def _bind_import(self, name: str, imported: PImported) -> None:
        self._bind(name, self._import_value(imported))

    def _import_value(self, imported: PImported) -> PyValue:
        """What an import binds: a name of no module of the project at once
        (the source's models apply to it), else a :class:`PImported` read when
        first looked up (a launcher's many imports cost nothing until used); in
        a class body at once (its attributes are not looked up by name)."""
        if self.files is None or self._builtin_model(imported.qualname) or (not imported.level and imported.module.split(".")[0] in sys.stdlib_module_names):
            return PExternal(imported.qualname, imported.loc)
        if self.frames[-1].is_class_body:
            return self._resolve_import(imported)
        return imported

    def _resolve_import(self, imported: PImported) -> PyValue:
        """What an import binds, its module read now: a definition of a module
        of the project, the module itself (or a submodule), or the imported
        name (:class:`PExternal`) when the project has no such module."""
        loc = imported.loc
        if not imported.name:
            found = self._project_module(imported.module, imported.level, loc, imported.importer)
            if found is not None:
                return PModule(found.scope, imported.module, loc)
            if imported.dotted and self._project_module(imported.dotted, 0, loc, imported.importer) is not None:
                # A namespace package (no __init__.py): nothing of its own.
                return PModule(self._new_ref({}), imported.module, loc)
            return PExternal(imported.module, loc)
        found = self._project_module(imported.module, imported.level, loc, imported.importer) if imported.module or imported.level else None
        if found is not None:
            self._define(found, imported.name, loc)
        defined = self.heap.get(found.scope, {}) if found is not None else {}
        if imported.name in defined:
            value = defined[imported.name]
            return self._resolve_import(value) if isinstance(value, PImported) else value
        submodule = self._project_module(imported.qualname if imported.module else imported.name, imported.level, loc, imported.importer)
        if submodule is not None:
            return PModule(submodule.scope, imported.qualname, loc)
        return PExternal(imported.qualname, loc)

    def _builtin_model(self, qualname: str) -> bool:
        """Hook: whether an imported name keeps the model the source has of it
        (SGLang's test helpers) even when the project holds its code."""
        return False

    def _project_module(self, module: str, level: int, loc: Location, importer: str | None = None) -> Module | None:
        """The module of the project an import names, read for its definitions
        (once per run); None when it is not the project's (the import stays a
        name, with the models the source has of it), cannot be read (a note
        says why), is being read (a cycle) or imports nest too deep."""
        if self.files is None or self.loading >= MAX_IMPORT_DEPTH or (not level and module.split(".")[0] in sys.stdlib_module_names):
            return None
        for shown in self._files_of_module(module, level, importer or self.path):
            if shown in self.modules:
                return self.modules[shown]  # read before (never the analyzed file: that is never read)
            if self._realpath(shown) == self._realpath(self.result.path):
                return None  # the file itself: its names are the ones it defines
            return self._load_module(shown, ("." * level) + module, loc)
        return None

    def _realpath(self, path: str) -> str:
        """``os.path.realpath``, once per path for the run's analyses."""
        from sglang_lint.sources.python_imports import known_realpath

        return known_realpath(path, self._run_known)

    @property
    def _run_known(self) -> dict:
        """Where the facts about the project's files are kept for the run
        (where modules lie, real paths): the analyses' shared cache, else
        this analysis's own."""
        return self.module_files if self.files.shared is None else self.files.shared.lasting

    def _files_of_module(self, module: str, level: int, importer: str) -> list[str]:
        """The files (as shown) that may hold ``module`` imported from
        ``importer`` with ``level`` dots, best first; looked for once per run.
        One the tree lacks is SGLang's own module, read from the installed
        package."""
        key = ("module files", os.path.dirname(importer), module, level)
        cache = self._run_known
        found = cache.get(key)
        if found is None:
            from sglang_lint.sources.python_imports import installed_module_files, module_files

            found = module_files(importer, module, level, self.files.project.roots, cache)
            if not found and not level and self.files.project.follow_installed and self.files.project.disk:
                found = installed_module_files(module)
            cache[key] = found
        return found

    def _load_module(self, shown: str, name: str, loc: Location) -> Module | None:
        self.modules[shown] = None  # while it is read, an import of it sees nothing
        text, problem = self.files.read(shown)
        if text is None:
            self.result.notes.append(Note(loc.path, f"import of {name} not followed: {shown}: {problem}; its names are unknown here", loc.line, loc.column))
            return None
        tree = parse_module(text, shown)
        if tree is None:
            self.result.notes.append(Note(loc.path, f"import of {name} not followed: {shown} is not valid Python; its names are unknown here", loc.line, loc.column))
            return None
        module = Module(shown, text, tree, self._new_ref({"__name__": PStr((known_seg(name, loc),), loc)}), name)
        self.modules[shown] = module
        self.module_scopes[module.scope] = module
        return module

    def _define(self, module: Module, name: str, loc: Location | None = None) -> None:
        """Run the top-level statements of ``module`` that bind ``name`` (and
        its star imports, for a name no statement binds), those not run yet, in
        order: a module of SGLang's size costs the few definitions a test uses,
        not its whole top level. Nothing they call runs (``loading``). ``loc``:
        the import that asked, where a note goes when a statement is not
        valid Python."""
        binders = module.tree.binders
        pending = [i for i in binders.get(name, binders.get("*", ())) if i not in module.done]
        if not pending or self.loading >= MAX_IMPORT_DEPTH * 4:
            return
        module.done.update(pending)
        # What a module defines is the same on every path (its top level ran
        # once, at import), so it is written past the undo logs of the
        # branches being run, as a resolved import is (_bind_resolved): undone
        # after the branch that first needed it, the name was missing from the
        # next branch (done already) and the merge made every value it gave
        # differ, a fork for nothing.
        journal, self.journal = self.journal, []
        bound_before = dict(self.heap.get(module.scope, {})) if journal else None
        # (the statements are marked run: a bounded call must not stop them
        # halfway, _call_bounded)
        limit, self.step_limit = self.step_limit, MAX_STEPS
        with self._in_module(module):
            self.loading += 1
            self.frames.append(Frame((), "<module>"))
            try:
                for index in pending:
                    for statement in self._statements_of(module, index, loc):
                        self._exec(statement, 0)
            finally:
                self.frames.pop()
                self.loading -= 1
                self.journal = journal
                self.step_limit = limit
        if bound_before is not None:
            bound = self.heap.get(module.scope, {})
            for level in journal:
                saved = level.before.get(module.scope)
                if isinstance(saved, dict):
                    for defined, value in bound.items():
                        if defined not in bound_before:
                            saved.setdefault(defined, value)

    def _statements_of(self, module: Module, index: int, loc: Location | None) -> list[ast.stmt]:
        """The statements of one top-level unit of ``module``, parsed when it
        first runs; a note when its text is not valid Python (a module is
        parsed a definition at a time, so a syntax error inside one is met
        only when that definition is needed), placed as for a module that
        cannot be read (:meth:`_load_module`)."""
        statements = module.tree.statements(index)
        if not statements and module.tree.unparsable(index):
            line = module.tree.first_line(index)
            at = loc or Location(module.path, line, 1)
            self.result.notes.append(Note(at.path, f"import of {module.name} not followed: {module.path}:{line} is not valid Python; the names it defines are unknown here", at.line, at.column))
        return statements

    def _public_names(self, module: Module, seen: set[str]) -> list[str]:
        """The names ``from module import *`` binds, read from its statements
        without running them: those its top level binds and those of its own
        star imports (a chain of ``__init__.py`` re-exports), not starting with
        ``_``."""
        seen.add(module.path)
        binders = module.tree.binders
        names = [name for name in binders if name != "*" and not name.startswith("_")]
        for index in binders.get("*", ()):
            statement = module.tree.statements(index)[0]
            if not isinstance(statement, ast.ImportFrom):
                continue  # a star import inside a block: its module is not known here
            with self._in_module(module):
                found = self._project_module(statement.module or "", statement.level, self._loc(statement)) if statement.module or statement.level else None
            if found is not None and found.path not in seen:
                names.extend(self._public_names(found, seen))
        return list(dict.fromkeys(names))

    @contextlib.contextmanager
    def _in_module(self, module: Module | None) -> Iterator[None]:
        """Run code of ``module`` (None: the analyzed file): its globals, and
        positions in its file."""
        if module is self.module:
            yield
            return
        saved = (self.module, self.path, self.text, self.lines, self._all_ascii, self._ascii_lines, self.module_scope)
        if module is None:
            self.module, self.path, self.text, self.lines = None, self.result.path, self._analyzed[0], self._analyzed[1]
            self._all_ascii, self._ascii_lines, self.module_scope = self._analyzed[2], self._analyzed[3], self._analyzed[4]
        else:
            self.module, self.path, self.text, self.lines = module, module.path, module.text, module.lines
            self._all_ascii, self._ascii_lines, self.module_scope = module.all_ascii, module.ascii_lines, module.scope
        try:
            yield
        finally:
            self.module, self.path, self.text, self.lines, self._all_ascii, self._ascii_lines, self.module_scope = saved

    def _stmt_FunctionDef(self, node, depth: int) -> None:
        kind = "function"
        for decorator in node.decorator_list:
            name = _decorator_name(decorator)
            if name in ("classmethod", "staticmethod", "property"):
                kind = name
        frame = self.frames[-1]
        owner = None
        if frame.is_class_body:
            owner = self._class_being_defined
        func = PFunc(node, self._closure_scopes(), node.name, kind, owner, module=self.module)
        if not self.loading:
            self.defined.append(func)
        self._bind(node.name, func)

    _stmt_AsyncFunctionDef = _stmt_FunctionDef

    def _closure_scopes(self) -> tuple[int, ...]:
        frame = self.frames[-1]
        if frame.is_class_body:
            # A method does not see its class body's names.
            return frame.scopes[1:]
        return frame.scopes

    _class_being_defined: PClass | None = None
    # Whether the analyzed file writes out a command it may hand to a helper
    # (_module_may_launch), once it is asked.
    _hands_commands: bool | None = None
    # The statements of the root being run that come after its last launch
    # (python_reach.tail_statements), and how a statement is judged.
    skipped: frozenset[int] | set[int] = _NOTHING_SKIPPED
    # The branches the launches of this run may have read (None: any).
    relevant_branches: set[str] | None = None
    last_calls: frozenset[int] | set[int] = _NOTHING_SKIPPED  # calls whose callee is cut too
    _statement_reaches: Callable[..., bool] | None = None
    # The file imports a name another file's analysis launched through
    # (extraction.extract_importers): run it, whatever its syntax says.
    imports_a_launcher = False
    # The names modules of the run that spell no launch were found to launch
    # through, by the real path of the module (extraction.extract_importers:
    # what the files an earlier round read exported; a named file's, from the
    # texts, extraction.launching_imports): such a module is judged as one
    # that spells a launch (what reaches one, :meth:`_module_reaching`), and
    # a call of its function followed as a call of such a module's. Without them a
    # wrapper of a wrapper (`outer.everything` -> `wrapper.start_pd` ->
    # `helpers.start`) ran as a call that cannot launch, and the files
    # calling it were silent (issue 20).
    launching: Mapping[str, frozenset[str]] = {}
    _launching_key: frozenset = frozenset()

    def set_launching(self, launching: Mapping[str, Iterable[str]]) -> None:
        """Say which modules launch, through which names (:attr:`launching`;
        paths as shown, or absolute)."""
        self.launching = {os.path.realpath(path): frozenset(names) for path, names in launching.items() if names}
        # Part of the key of every conclusion about modules: they are shared
        # by the files of a run, and those of an earlier round were drawn
        # without these.
        self._launching_key = frozenset(self.launching.items())
        self._real_paths: dict[str, str] = {}

    def _launching_names(self, shown: str) -> frozenset[str]:
        """The names of the module ``shown`` another file's analysis found to
        launch through (:attr:`launching`)."""
        if not self.launching:
            return frozenset()
        real = self._real_paths.get(shown)
        if real is None:
            real = self._real_paths[shown] = os.path.realpath(shown)
        return self.launching.get(real, frozenset())

    def _stmt_ClassDef(self, node: ast.ClassDef, depth: int) -> None:
        bases = tuple(self._eval(base) for base in node.bases)
        attrs: dict[str, PyValue] = {}
        cls = PClass(self._new_ref(attrs), node.name, bases, self._loc(node), node)
        if not self.loading:
            self.classes.append(cls)
        outer = self._class_being_defined
        self._class_being_defined = cls
        self.frames.append(Frame((cls.ref, *self._closure_scopes()), node.name, is_class_body=True))
        try:
            self._exec_block(node.body, depth + 1)
        finally:
            self.frames.pop()
            self._class_being_defined = outer
        self._bind(node.name, cls)

    def _stmt_Return(self, node: ast.Return, depth: int) -> _Flow:
        value = self._eval(node.value) if node.value is not None else PNone(self._loc(node))
        frame = self.frames[-1]
        frame.returns.append(value)
        frame.return_keys.update(self.forks[frame.fork_depth :])
        return _Flow(terminated=True)

    def _stmt_Raise(self, node: ast.Raise, depth: int) -> _Flow:
        return _Flow(terminated=True, raised=True)

    def _stmt_Assert(self, node: ast.Assert, depth: int) -> _Flow | None:
        """``assert X, MSG`` is ``if not X: raise AssertionError(MSG)`` (a
        launcher is not run with ``python -O``): a test that fails ends the
        path (SGLang's fixtures: ``assert cls.attention_backend`` in a base
        class whose ``attention_backend`` is "" launches nothing, and was
        "invalid choice: ''"); one over the environment (``assert
        os.getenv("MODEL")``) goes on where it holds. Any other test that is
        not decided goes on, without a fork of its own."""
        truth, fork = self._path_truth(node.test)
        if truth is False:
            if node.msg is not None:
                self._eval(node.msg)  # (calls in it still run)
            return _Flow(terminated=True, raised=True)
        if truth is None and fork is not None and not fork[0].startswith("at\0"):
            fails = ast.copy_location(ast.Raise(exc=None, cause=None), node)
            flow = self._branches([[], [fails]], depth, fork=fork, where=self._loc(node.test))
            self._guarded_by(node.test, fork)
            return flow
        return None

    def _stmt_Break(self, node, depth: int) -> _Flow:
        return _Flow(broke=True)

    def _stmt_Continue(self, node, depth: int) -> _Flow:
        return _Flow(continued=True)

    def _stmt_If(self, node: ast.If, depth: int) -> _Flow:
        truth, fork = self._path_truth(node.test)
        if truth is True:
            return self._exec_block(node.body, depth + 1)
        if truth is False:
            return self._exec_block(node.orelse, depth + 1)
        flow = self._branches([node.body, node.orelse], depth, fork=fork, where=self._loc(node.test))
        self._guarded_by(node.test, fork)
        return flow

    def _guarded_by(self, test, fork: tuple | None) -> None:
        """Past an ``if`` (or ``assert``) one of whose two ways raised (``if not
        model: raise SystemExit(...)``), the decision ``fork`` took the way the
        other one needs: told by deciding ``test`` again under each way, for a
        test over the environment alone. Only at the level of the running
        function: inside a branch, the other branch goes on without it."""
        raised = self.raised_bodies
        if fork is None or self._branch_depth or raised not in ({0}, {1}) or fork[0] in self.paths.fixed or not _plain_test(test):
            return
        def decide() -> bool | None:
            outer = self.pending, self.pending_by_value, self.compared
            try:
                return self._truth(test)
            finally:
                self.pending, self.pending_by_value, self.compared = outer

        self.paths.guard_from(fork[0], fork[1], decide, 1 in raised)

    def _path_truth(self, test) -> tuple[bool | None, tuple | None]:
        """Whether a condition holds: decided by the file, or by this run's path
        (paths.py). Else None, with the decision to fork on: a test over an
        environment variable (``os.getenv("X")``, ``== "decode"``), or the
        condition itself at this place of this call."""
        self.pending = None
        self.pending_by_value = False
        self.read_merged_bool = False
        launches = self._launch_count()
        truth, read_local = self._condition_truth(test)
        # A condition that launched (`if not wait(popen_launch_server(...)):`)
        # is not evaluated again to take a decision: it would launch twice.
        launched = self._launch_count() > launches
        fork = self.pending
        if fork is not None and self.pending_by_value:
            # Decided inside a call (`if is_in_ci():`, the comparison in a
            # helper of another module): the branch is where the path forks.
            fork = decision(fork[0], (fork[1][0].text, fork[1][1].text), self._loc(test))
        self.pending = None
        if truth is not None:
            return truth, None
        if self.loading:
            # The top level of a module read for its definitions (platform
            # probes: `if is_hip():`): both ways merged, never launch variants.
            return None, None
        if fork is None and (self.module is not None or self.read_merged_bool):
            # A condition of another module's code that neither the file nor
            # an environment variable decides (`if is_hip():`, a config probe
            # in SGLang's server_args.py): merged, never launch variants; the
            # variants are the user's branches (issue 20). So is one over a
            # bool that is True on one way and False on another of what the
            # file does not decide (_merged_value): a health check's result in
            # a retry loop (SGLang's test_utils.py forked past its bound on it).
            return None, None
        own_decision = fork is None  # (the condition itself at this place)
        if own_decision:
            where = self._loc(test)
            # A condition that reads no name of the function it is in (only
            # globals and what they call: `if use_torch_reference(get_device()):`)
            # holds the same way in every call: one decision however many
            # callers reach it (SGLang's chunked_prefill_test_utils.py: 16
            # paths over one platform probe, 2 now). One that reads a parameter,
            # `self` or a local is decided per call.
            context = " <- ".join(loc.short() for _, loc, _ in self.call_stack) if read_local else ""
            key = f"at\0{where.short()}:{where.column}\0{context}"
            shown = " ".join(expr_text(test).split())
            fork = decision(key, (f"`{shown}` is true", f"`{shown}` is false"), where)
            truth = self.paths.outcome(key)
        if truth is None and not launched and self.paths.take(*fork):
            # A decision another run forked on, taken here (paths.Paths.take).
            # Its way is the decision's, not the condition's (`!= "decode"`,
            # `not os.getenv(...)`): a condition over one is decided again on
            # the path that now fixes it; a condition that is its own decision
            # holds.
            truth = True if own_decision else self._decided_again(test)
        return truth, fork

    def _condition_truth(self, test) -> tuple[bool | None, bool]:
        """Whether ``test`` holds (None: not decided), evaluated as a condition
        of the running frame; and whether it read a name of that frame's
        function (its decision is then per call)."""
        outer_reader, self.condition_frame, self.read_local = (self.condition_frame, self.read_local), self.frames[-1], False
        try:
            return self._truth(test), self.read_local
        finally:
            self.condition_frame, self.read_local = outer_reader

    def _decided_again(self, test) -> bool | None:
        """The truth of ``test`` once the path fixed the decision it asked for."""
        saved = self.pending, self.pending_by_value
        try:
            return self._condition_truth(test)[0]
        finally:
            self.pending, self.pending_by_value = saved

    def _launch_count(self) -> int:
        return len(self.result.servers) + len(self.result.routers)

    def _path_decision(self, key: str, texts: tuple[str, str], node) -> bool | None:
        verdict = implied(self.paths.known(), key)
        if verdict is None and self.pending is None:
            self.pending = decision(key, texts, self._loc(node))
        return verdict

    def _branches(self, bodies: list[list], depth: int, exhaustive: bool = True, fork: tuple | None = None, where: Location | None = None) -> _Flow:
        self._branch_depth += 1
        launches = self._launch_count()
        if fork is not None:
            self.forks.append(fork[0])
        try:
            with suspended(self.paths, fork):
                flow, differs, exits = self._run_branches(bodies, depth, exhaustive, frozenset((fork[0],)) if fork else frozenset())
        finally:
            self._branch_depth -= 1
            if fork is not None:
                self.forks.pop()
        launched = self._launch_count() > launches
        if exits and fork is not None:
            # What follows in this call runs on one way only (a guard that returns).
            self.frames[-1].exit_keys.add(fork[0])
        if differs or launched:
            self.paths.differs(*(fork or (None, None)), where, launched)
        return flow

    def _run_branches(self, bodies: list[list], depth: int, exhaustive: bool = True, over: frozenset[str] = frozenset()) -> _Flow:
        """Run each body from the same state and merge the states of those that
        fall through (a body that returns or raises does not reach what follows).
        Not ``exhaustive``: the state before counts as one more way through (a
        loop body that may not run, an ``if`` without the branch we cannot see).
        ``over``: the decision the bodies are the ways of (none: one no path
        decides)."""
        live: list[dict[int, Any]] = []
        written: dict[int, None] = {}
        raised = 0
        raised_bodies: set[int] = set()
        for position, body in enumerate(bodies):
            level = _Level(self.next_ref)
            self.journal.append(level)
            try:
                flow = self._exec_block(body, depth + 1)
            finally:
                self.journal.pop()
                after = {ref: self.heap.get(ref, MISSING) for ref in level.before}
                for ref, contents in level.before.items():
                    if contents is MISSING:
                        self.heap.pop(ref, None)
                    else:
                        self.heap[ref] = contents
                written.update(dict.fromkeys(level.before))
            if not flow.terminated:
                live.append(after)
            elif flow.raised:
                raised += 1
                raised_bodies.add(position)
        # (read by _guarded_by once the bodies ran: theirs were set before)
        self.raised_bodies = raised_bodies
        if not exhaustive:
            live.append({})
        if not live:
            # Every way ended. Two or more that return (`if a: return X`,
            # `elif b: return Y`, `else: raise`) give the call a result that
            # is one way's: the decision matters to what the caller does with
            # it (a benchmark's `build_server_cmd(framework)`: the launch of
            # its SGLang way was lost, the ways' lists merged).
            returned = len(bodies) - raised > 1
            return _Flow(terminated=True, raised=raised == len(bodies)), returned, returned
        differs = False
        for ref in written:
            start = self.heap.get(ref, MISSING)
            versions = [after.get(ref, start) for after in live]
            if any(v is MISSING for v in versions):
                continue
            if all(same_value(v, start) for v in versions):
                continue
            differs = differs or not all(same_value(v, versions[0]) for v in versions)
            with self._merging_over(over):
                self._set(ref, self._merge_contents(versions))
        # A body that returns makes the paths differ too: what follows runs on
        # some paths only. One that raises does not: its path fails there (a
        # guard, `if gpus < n: raise SkipTest`), and what follows is the
        # program's one way on; forking on it doubled the runs of SGLang's test
        # classes for nothing (issue 20).
        exits = len(live) + raised < len(bodies) + (0 if exhaustive else 1)
        return _Flow(), differs or exits, exits

    def _stmt_Match(self, node, depth: int) -> _Flow:
        self._eval(node.subject)
        return self._branches([case.body for case in node.cases], depth, exhaustive=False)

    def _stmt_For(self, node: ast.For, depth: int) -> _Flow:
        iterable = self._eval(node.iter)
        items = self._loop_items(iterable)
        if items is not None and items and self.unrolled * len(items) > MAX_UNROLL:
            items = None  # nested loops would multiply the launches past the bound
        if items is not None:
            self.unrolled *= max(1, len(items))
            try:
                for item in items:
                    self._assign(node.target, item)
                    flow = self._exec_block(node.body, depth + 1)
                    if flow.terminated:
                        return flow
                    if flow.broke:
                        return _Flow()
            finally:
                self.unrolled //= max(1, len(items))
            return self._exec_block(node.orelse, depth + 1)
        # Items we cannot see: the body runs some number of times, maybe none.
        self._assign(node.target, PUnknown(Value.unknown("an item of a loop we cannot unroll"), self._loc(node.target)))
        self._forget_loop_carried(node)
        flow = self._branches([node.body], depth, exhaustive=False)
        if flow.terminated:
            return _Flow()
        return self._exec_block(node.orelse, depth + 1)

    _stmt_AsyncFor = _stmt_For

    def _stmt_While(self, node: ast.While, depth: int) -> _Flow:
        self._forget_loop_carried(node)
        self._eval(node.test)
        self._branches([node.body], depth, exhaustive=False)
        return _Flow()

    def _forget_loop_carried(self, node: ast.For | ast.While) -> None:
        """Before the body of a loop that does not unroll (it runs some number of
        times): a name the body both assigns and reads (``port += 1``) holds, in
        an iteration after the first, what the one before left: unknown."""
        loc = self._loc(node)
        for name in _loop_carried_of(node):
            self._bind(name, PUnknown(Value.unknown("a value a loop changes"), loc))

    def _stmt_With(self, node: ast.With, depth: int) -> _Flow:
        expecting = 0
        for item in node.items:
            expecting += self.expects_failure(item.context_expr)
            value = self._eval(item.context_expr)
            if item.optional_vars is not None:
                self._assign(item.optional_vars, PUnknown(Value.unknown("a context manager's value"), self._loc(item.optional_vars)) if not isinstance(value, PUnknown) else value)
        self.expecting_failure += expecting
        try:
            return self._exec_block(node.body, depth + 1)
        finally:
            self.expecting_failure -= expecting

    _stmt_AsyncWith = _stmt_With

    def _stmt_Try(self, node, depth: int) -> _Flow:
        lookup = self._environment_lookup(node)
        if lookup is not None:
            return self._environment_try(node, depth, *lookup)
        flow = self._exec_block(node.body, depth + 1)
        handled: _Flow | None = None
        if node.handlers and not self._raised_nothing(node):
            # Any handler may run instead of the rest of the body; when the
            # body returns (or raises) on every way, only a handler's way goes
            # on after the `try` (`try: bind(); return False / except OSError:
            # return True` returns on both: falling off it, the function gave
            # None, and a port helper's None made a false SGL203).
            handled = self._branches([h.body for h in node.handlers], depth, exhaustive=flow.terminated)
        if not flow.terminated:
            self._exec_block(node.orelse, depth + 1)
        final = self._exec_block(node.finalbody, depth + 1)
        if final.stopped:
            return final
        if handled is None:
            return _Flow(terminated=flow.terminated, raised=flow.raised)
        return _Flow(terminated=flow.terminated and handled.terminated, raised=flow.raised and handled.raised)

    _stmt_TryStar = _stmt_Try

    def _environment_lookup(self, node) -> tuple[str, Any] | None:
        """``try: os.environ["X"]`` (or ``v = os.environ[name]``, ``return
        os.environ[name]``) whose other statements cannot raise (``return``
        of a name or a constant, ``pass``), with a handler that catches the
        KeyError: the body runs when X is set, the handler when it is not, a
        decision of the path like ``os.getenv("X") is None`` (``set\0$X``).
        Merged, the two ways of a flag helper (``return True`` / ``return
        False``) read as "True" or "False", both true strings. Returns X (as
        the symbol ``$X``) and the handler."""
        if not node.body:
            return None
        first, rest = node.body[0], node.body[1:]
        looked_up = first.value if isinstance(first, (ast.Expr, ast.Assign, ast.Return)) else None
        if not isinstance(looked_up, ast.Subscript) or not isinstance(looked_up.slice, (ast.Constant, ast.Name)):
            return None
        if isinstance(first, ast.Assign) and not all(isinstance(target, ast.Name) for target in first.targets):
            return None
        if not all(
            isinstance(statement, ast.Pass) or (isinstance(statement, ast.Return) and (statement.value is None or isinstance(statement.value, (ast.Constant, ast.Name))))
            for statement in rest
        ):
            return None
        handler = next((h for h in node.handlers if _catches_key_error(h.type)), None)
        if handler is None:
            return None
        container = self._eval(looked_up.value)
        if not (isinstance(container, PExternal) and container.qualname == "os.environ"):
            return None
        name = known_text(self._eval(looked_up.slice))
        if name is None:
            return None
        if name in self.configured_env:
            return "", handler  # (set by the config's env: the body's way alone)
        return "$" + name, handler

    def _environment_try(self, node, depth: int, subject: str, handler) -> _Flow:
        """:meth:`_environment_lookup`'s ``try``: the way the path fixed, else
        both ways as the branches of that decision. (``subject`` "": a variable
        the config's env sets, looked up without a KeyError.)"""
        key = f"set\0{subject}"
        where = self._loc(node.body[0])
        set_way = [*node.body, *node.orelse]
        verdict = True if not subject else implied(self.paths.known(), key)
        if verdict is True:
            flow = self._exec_block(set_way, depth + 1)
        elif verdict is False:
            flow = self._exec_block(handler.body, depth + 1)
        else:
            flow = self._branches([set_way, handler.body], depth, fork=decision(key, (f"{subject} is set", f"{subject} is unset"), where), where=where)
        final = self._exec_block(node.finalbody, depth + 1)
        return final if final.stopped else flow

    def _raised_nothing(self, node: ast.Try) -> bool:
        """Whether the body of ``node``, just run, cannot have raised, so none of
        its handlers runs: a body of assignments to names of values built only
        by operations that are total on what they were given (``_total_body``),
        each of which came out known to the last item. An operation CPython
        would raise on comes out unknown here (``int("x")``, ``sorted`` of
        items it cannot order, a name not bound), and each step's value flows
        into the one assigned, so a known value is one no step raised for.
        SGLang's PD test fixture guards ``sorted({int(g) for g in gpu_indices})``
        with ``except ValueError`` (sglang 0.5.23,
        ``sglang/test/server_fixtures/disaggregation_fixture.py:375``): over
        known GPU indices the handler's value was a variant of each server
        CPython never starts, and three runs of the file more."""
        total = _total_body(node)
        if total is None:
            return False
        names, callees = total
        if any(not isinstance(self._lookup(callee, self._loc(node)), PBuiltin) for callee in callees):
            return False  # (a name of the file's own, not the builtin)
        for name in names:
            value = self.heap.get(self._target_scope(name), {}).get(name)
            if not self._flat_known(value):
                return False
        return True

    def _flat_known(self, value: PyValue | None) -> bool:
        """A known scalar (a number, a text known to its last character, None),
        or a list or tuple of those: no item a step may have failed to make
        (and all hashable: a set of them raised nothing either)."""
        if isinstance(value, PList):
            return all(scalar_key(item) is not None for item in self.heap.get(value.ref, ()))
        return scalar_key(value) is not None

    def expects_failure(self, call) -> bool:
        """Whether ``call`` is a test's expectation that code raises: unittest's
        ``assertRaises``/``assertRaisesRegex`` (on ``self`` or any test case) or
        ``pytest.raises`` by any name it is imported as (``import pytest as pt``,
        ``from pytest import raises``). As a context manager its block is
        expected to fail; in the callable form (``assertRaises(E, f, *args)``)
        ``f(*args)`` is. Only a name or an attribute chain is evaluated to tell
        (a lookup, no call runs)."""
        if not isinstance(call, ast.Call):
            return False
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _UNITTEST_RAISES:
            return True
        chain = func
        while isinstance(chain, ast.Attribute):
            chain = chain.value
        if not isinstance(chain, ast.Name):
            return False
        value = self._eval(func)
        return isinstance(value, PExternal) and value.qualname in _PYTEST_RAISES

    # -- names and assignment -----------------------------------------------------------
    def _target_scope(self, name: str) -> int:
        frame = self.frames[-1]
        if name in frame.global_names or not frame.scopes:
            return self.module_scope
        return frame.scopes[0]

    def _bind(self, name: str, value: PyValue) -> None:
        self._set_attr(self._target_scope(name), name, value)

    def _lookup(self, name: str, loc: Location) -> PyValue:
        frame = self.frames[-1]
        scopes = frame.scopes if name not in frame.global_names else ()
        if self.module is not None and name not in self.heap.get(self.module_scope, {}):
            self._define(self.module, name)  # a global of a module: its statements run now
        for ref in (*scopes, self.module_scope):
            contents = self.heap.get(ref)
            if contents is not None and name in contents:
                if frame is self.condition_frame and ref != self.module_scope:
                    self.read_local = True
                value = contents[name]
                if isinstance(value, PImported):
                    # First use of an imported name: its module is read now.
                    resolved = self._resolve_import(value)
                    self._bind_resolved(ref, name, value, resolved)
                    value = resolved
                return value
        if name in _TRUE_NAMES:
            return PStr((known_seg(_TRUE_NAMES[name], loc),), loc)
        if name in _BUILTINS:
            return PBuiltin(name)
        return PUnknown(Value.unknown(f"{name} is not defined in this file"), loc)

    def _bind_resolved(self, ref: int, name: str, imported: PImported, resolved: PyValue) -> None:
        """Bind an import resolved on first use. It is the same binding on every
        path, so it is written past the undo logs of the branches being run:
        written as a branch's change, merging the branches saw the name differ
        (the import, the resolved name) and made it unknown after the branch
        (``if ...: pytest.skip()`` then ``with pytest.raises(...)``)."""
        self.heap.setdefault(ref, {})[name] = resolved
        for level in self.journal:
            saved = level.before.get(ref)
            if isinstance(saved, dict) and saved.get(name) is imported:
                saved[name] = resolved

    def _assign(self, target, value: PyValue) -> None:
        if isinstance(target, ast.Name):
            self._bind(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            self._unpack(target, value)
        elif isinstance(target, ast.Attribute):
            owner = self._eval(target.value)
            if isinstance(owner, (PObject, PClass)):
                self._set_attr(owner.ref, target.attr, value)
        elif isinstance(target, ast.Subscript):
            self._assign_item(target, value)
        elif isinstance(target, ast.Starred):
            self._assign(target.value, value)

    def _unpack(self, target, value: PyValue) -> None:
        loc = self._loc(target)
        items = self._known_items(value)
        elements = target.elts
        starred = [i for i, e in enumerate(elements) if isinstance(e, ast.Starred)]
        if items is not None and not starred and len(items) == len(elements):
            for element, item in zip(elements, items):
                self._assign(element, item)
            return
        if items is not None and len(starred) == 1 and len(items) >= len(elements) - 1:
            star = starred[0]
            after = len(elements) - star - 1
            for element, item in zip(elements[:star], items[:star]):
                self._assign(element, item)
            rest = items[star : len(items) - after]
            self._assign(elements[star], PList(self._new_ref(tuple(rest)), loc))
            for element, item in zip(elements[star + 1 :], items[len(items) - after :]):
                self._assign(element, item)
            return
        for element in elements:
            self._assign(element, PUnknown(Value.unknown("unpacked from a value we cannot see"), loc))

    def _assign_item(self, target: ast.Subscript, value: PyValue) -> None:
        container = self._eval(target.value)
        key = self._eval(target.slice)
        if isinstance(container, PDict):
            contents = self.heap.get(container.ref, DictContents(()))
            wanted = scalar_key(key)
            if wanted is None:  # it may be any key, one set before too
                why = Value.unknown("a key we cannot see")
                self._set(container.ref, DictContents(_shadowed(contents.entries, why, self._loc(target)), contents.open or why))
                return
            entries = [(k, v) for k, v in contents.entries if scalar_key(k) != wanted]
            entries.append((key, value))
            self._set(container.ref, DictContents(tuple(entries), contents.open))
        elif isinstance(container, PList):
            items = list(self.heap.get(container.ref, ()))
            index = known_int(key)
            where = self._slice_of(target.slice) if isinstance(target.slice, ast.Slice) else None
            new = self._known_items(value) if where is not None else None
            first = next((position for position, item in enumerate(items) if isinstance(item, PSpread)), len(items))
            if new is not None and where is not None and where.step in (None, 1) and 0 <= (where.start or 0) and where.stop is not None and 0 <= where.stop <= first:
                items[where] = new  # `cmd[3:3] = [...]`, before any spread
            elif index is not None and (0 <= index < first or (index < 0 and -index <= len(items) - 1 - max((p for p, i in enumerate(items) if isinstance(i, PSpread)), default=-1))):
                items[index] = value  # before any spread, or from the end within the seen tail
            else:
                items = [PSpread(Value.unknown("an item set at an index we cannot see"), self._loc(target))]
            self._set(container.ref, tuple(items))

    # -- expressions ------------------------------------------------------------------
    def _eval(self, node) -> PyValue:
        if node is None:
            return PNone(Location(self.path, 1, 1))
        self._expr_depth += 1
        try:
            if self._expr_depth > MAX_EXPR_DEPTH:
                self._note_depth(node)
                return PUnknown(Value.unknown("expression nested too deeply"), self._loc(node))
            handler = self._expr_handlers.get(type(node), _UNHANDLED)
            if handler is _UNHANDLED:
                handler = self._expr_handlers[type(node)] = getattr(type(self), "_expr_" + type(node).__name__, None)
            if handler is None:
                return PUnknown(Value.unknown(f"a {type(node).__name__} expression"), self._loc(node))
            return handler(self, node)
        finally:
            self._expr_depth -= 1

    def _expr_Constant(self, node: ast.Constant) -> PyValue:
        loc = self._loc(node)
        value = node.value
        if isinstance(value, str):
            return self._str_constant(node)
        if value is None:
            return PNone(loc)
        if isinstance(value, (bool, int, float)):
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**18:
                return PUnknown(Value.unknown("a very large number"), loc)
            return PNum(value, loc)
        return PUnknown(Value.unknown(f"a {type(value).__name__} literal"), loc)

    def _expr_JoinedStr(self, node: ast.JoinedStr) -> PyValue:
        loc = self._loc(node)
        literal_positions = node.__dict__.get("_sglang_lint_chars", _UNSET)
        if literal_positions is _UNSET:
            # Kept on the node, as a literal's are (_string_chars): every run
            # of every file reading the module scanned it again (11,500 scans
            # on SGLang's tree for ~1,000 f-strings run).
            literal_positions = node.__dict__["_sglang_lint_chars"] = self._fstring_chars(node, loc)
        pieces: list[Seg] = []
        offset = 0
        for part in node.values:
            if isinstance(part, ast.Constant):
                text = str(part.value)
                chars = tuple(literal_positions[offset : offset + len(text)]) if literal_positions is not None else None
                offset += len(text)
                pieces.append(known_seg(text, loc, chars))
            elif isinstance(part, ast.FormattedValue):
                pieces.extend(self._formatted_value(part, loc))
        word = tuple(pieces)
        if not word_length_ok(word):
            return PStr((Seg(Value.unknown("string too long"), loc),), loc)
        return PStr(word or (known_seg("", loc),), loc)

    def _fstring_chars(self, node: ast.JoinedStr, loc: Location) -> list[tuple[int, int]] | None:
        """File position of each character of an f-string's literal parts, or
        None when the source does not match."""
        scanned = scan_string_literals(self._source_chars(loc)) if loc.end_line - loc.line <= 2000 else None
        if scanned is not None:
            text, positions, _ = scanned
            expected = "".join(part.value for part in node.values if isinstance(part, ast.Constant))
            if text == expected:
                return positions
        return None

    def _formatted_value(self, part: ast.FormattedValue, fstring_loc: Location) -> Word:
        inner_loc = self._loc(part.value)
        if not (fstring_loc.line <= inner_loc.line <= fstring_loc.end_line):
            inner_loc = fstring_loc
        value = self._eval(part.value)
        spec = ""
        if part.format_spec is not None:
            spec_value = self._eval(part.format_spec)
            spec_text = literal_text(spec_value.word) if isinstance(spec_value, PStr) else None
            if spec_text is None:
                return (Seg(Value.unknown("a format spec we cannot see"), inner_loc),)
            spec = spec_text
        conversion = chr(part.conversion) if part.conversion and part.conversion > 0 else ""
        return self._format_field(value, conversion, spec, inner_loc)

    def _format_field(self, value: PyValue, conversion: str, spec: str, loc: Location) -> Word:
        """``format(value, spec)`` with a conversion, for known values; exact pieces
        for a plain ``{x}``."""
        if conversion in ("", "s") and not spec:
            return self._to_str(value, loc_of(value) or loc).word
        python_value = python_scalar(value)
        if python_value is MISSING or spec_too_wide(spec):
            return (Seg(Value.unknown("a formatted value we cannot see"), loc),)
        try:
            if conversion == "r":
                python_value = repr(python_value)
            elif conversion == "a":
                python_value = ascii(python_value)
            elif conversion == "s":
                python_value = str(python_value)
            text = format(python_value, spec)
        except (ValueError, TypeError, OverflowError):
            return (Seg(Value.unknown("a format Python would reject"), loc),)
        origin = value.origin if isinstance(value, PNum) else None
        return (known_seg(text, loc, origin=origin or loc_of(value)),)

    def _expr_Name(self, node: ast.Name) -> PyValue:
        loc = self._loc(node)
        return self._relocated(self._lookup(node.id, loc), loc)

    def _relocated(self, value: PyValue, loc: Location) -> PyValue:
        """A stored scalar used at ``loc``: it now appears there, and keeps where its
        text was written."""
        if isinstance(value, PStr):
            return PStr(relocate(value.word, loc), loc)
        if isinstance(value, PNum):
            return PNum(value.number, loc, value.origin or value.loc)
        if isinstance(value, PUnknown):
            return replace(value, loc=loc, origin=value.origin or value.loc)
        return value

    def _expr_Attribute(self, node: ast.Attribute) -> PyValue:
        loc = self._loc(node)
        base = self._eval(node.value)
        return self._relocated(self._attribute(base, node.attr, loc), loc)

    def _attribute(self, base: PyValue, attr: str, loc: Location) -> PyValue:
        if isinstance(base, PModule):
            qualname = f"{base.qualname}.{attr}"
            if base.ref in self.module_scopes:
                self._define(self.module_scopes[base.ref], attr)
            defined = self.heap.get(base.ref, {})
            if attr in defined and not self._builtin_model(qualname):
                value = defined[attr]
                return self._resolve_import(value) if isinstance(value, PImported) else value
            submodule = self._project_module(qualname, 0, loc) if not self._builtin_model(qualname) else None
            if submodule is not None:
                return PModule(submodule.scope, qualname, loc)
            return PExternal(qualname, loc)
        if isinstance(base, PExternal):
            qualname = f"{base.qualname}.{attr}"
            if qualname == "sys.executable":
                # The interpreter running the launcher: a Python, which is what
                # launch detection needs to know.
                return PStr((known_seg("python3", loc),), loc)
            return PExternal(qualname, loc)
        if isinstance(base, PClass):
            found = self._class_attr(base, attr)
            if found is None:
                return PUnknown(Value.unknown(f"{base.name}.{attr} is not set in this file"), loc)
            return self._bind_method(found, base, base)
        if isinstance(base, PObject):
            attrs = self.heap.get(base.ref, {})
            if attr in attrs:
                return attrs[attr]
            if base.cls is not None:
                found = self._class_attr(base.cls, attr)
                if found is not None:
                    return self._bind_method(found, base, base.cls)
            return PUnknown(Value.unknown(f"attribute {attr} is not set in this file"), loc)
        if isinstance(base, PSuper):
            mro = self._mro(base.cls)
            for cls in mro[1:]:
                attrs = self.heap.get(cls.ref, {})
                if attr in attrs:
                    receiver_cls = base.receiver if isinstance(base.receiver, PClass) else (base.receiver.cls if isinstance(base.receiver, PObject) else None)
                    return self._bind_method(attrs[attr], base.receiver, receiver_cls or cls)
            return PUnknown(Value.unknown(f"super().{attr} is not defined in this file"), loc)
        if isinstance(base, (PStr, PList, PDict, PNum)):
            return PMethod(base, attr)
        if isinstance(base, PUnknown):
            if attr in _CASE_METHODS and (_subject(base) or "").startswith("$"):
                return PMethod(base, attr)  # `os.getenv("X", "0").lower()`
            if base.value.kind is Kind.SYMBOL:
                return PUnknown(Value.symbol(f"{base.value.name}.{attr}"), loc)
            return PUnknown(Value.unknown(f"attribute {attr} of a value we cannot see"), loc)
        return PUnknown(Value.unknown(f"attribute {attr}"), loc)

    def _mro(self, cls: PClass) -> list[PClass]:
        """Depth-first, left to right, without repeats: the C3 order for the class
        trees test suites build (single inheritance and simple mixins)."""
        # A loop, not a recursive closure: that is a reference cycle per call,
        # left to the cycle collector.
        order: list[PClass] = []
        seen: set[int] = set()
        stack: list[tuple[PClass, int]] = [(cls, 0)]
        while stack:
            current, depth = stack.pop()
            if current.ref in seen or depth > 50:
                continue
            seen.add(current.ref)
            order.append(current)
            stack.extend((base, depth + 1) for base in reversed(current.bases) if isinstance(base, PClass))
        return order

    def _class_attr(self, cls: PClass, attr: str) -> PyValue | None:
        for klass in self._mro(cls):
            attrs = self.heap.get(klass.ref, {})
            if attr in attrs:
                return attrs[attr]
        return None

    def _bind_method(self, value: PyValue, receiver: PyValue, cls: PClass) -> PyValue:
        if not isinstance(value, PFunc):
            return value
        if value.kind == "staticmethod":
            return value
        if value.kind == "classmethod":
            return replace(value, bound=cls)
        if isinstance(receiver, PObject):
            if value.kind == "property":
                return self._call_function(replace(value, bound=receiver), [], {}, None)
            return replace(value, bound=receiver)
        return value  # a plain function looked up on the class

    def _expr_Subscript(self, node: ast.Subscript) -> PyValue:
        loc = self._loc(node)
        container = self._eval(node.value)
        if isinstance(node.slice, ast.Slice):
            return self._slice(container, node.slice, loc)
        key = self._eval(node.slice)
        return self._relocated(self._item(container, key, loc), loc)

    def _item(self, container: PyValue, key: PyValue, loc: Location) -> PyValue:
        if isinstance(container, PExternal) and container.qualname == "os.environ":
            name = known_text(key)
            if name is not None and name in self.configured_env:
                return PStr((known_seg(self.configured_env[name], loc),), loc)
            return PUnknown(Value.symbol("$" + name) if name else Value.unknown("an environment variable"), loc)
        if isinstance(container, PExternal) and container.qualname == "sys.argv":
            index = known_int(key)
            return PUnknown(Value.symbol(f"sys.argv[{index}]") if index is not None else Value.unknown("a command-line argument"), loc)
        if isinstance(container, PList):
            items = self.heap.get(container.ref, ())
            index = known_int(key)
            if index is None:
                return PUnknown(Value.unknown("an item at an index we cannot see"), loc)
            spread_at = [i for i, item in enumerate(items) if isinstance(item, PSpread)]
            if index >= 0 and (not spread_at or index < spread_at[0]) and index < len(items):
                return items[index]
            if index < 0 and (not spread_at or len(items) + index > spread_at[-1]) and -index <= len(items):
                return items[index]
            return PUnknown(Value.unknown("an item of a list we cannot see"), loc)
        if isinstance(container, PDict):
            return self._dict_get(container, key, loc) or PUnknown(Value.unknown(f"key {known_text(key) or '?'} is not in the dict"), loc)
        return PUnknown(Value.unknown("an item of a value we cannot see"), loc)

    def _slice(self, container: PyValue, spec: ast.Slice, loc: Location) -> PyValue:
        if isinstance(container, PExternal) and container.qualname == "sys.argv":
            return PList(self._new_ref((PSpread(Value.unknown("sys.argv"), loc),)), loc)
        items = self._known_items(container)
        bounds = [self._eval(part) if part is not None else None for part in (spec.lower, spec.upper, spec.step)]
        numbers = [None if b is None or isinstance(b, PNone) else known_int(b) for b in bounds]
        if items is None or any(b is not None and not isinstance(b, PNone) and n is None for b, n in zip(bounds, numbers)):
            return PList(self._new_ref((PSpread(Value.unknown("a slice we cannot see"), loc),)), loc)
        if isinstance(container, PStr):
            return PUnknown(Value.unknown("a slice of a string"), loc)
        try:
            sliced = tuple(items[slice(*numbers)])
        except ValueError:
            return PUnknown(Value.unknown("a bad slice"), loc)
        return PList(self._new_ref(sliced), loc)

    def _dict_get(self, container: PDict, key: PyValue, loc: Location) -> PyValue | None:
        contents = self.heap.get(container.ref, DictContents(()))
        wanted = scalar_key(key)
        if wanted is None:
            return PUnknown(Value.unknown("a key we cannot see"), loc)
        for entry_key, entry_value in reversed(contents.entries):
            entry = scalar_key(entry_key)
            if entry == wanted:
                return entry_value
            if entry is None:
                return PUnknown(Value.unknown("a dict with keys we cannot see"), loc)
        if contents.open is not None:
            return PUnknown(Value.unknown("a dict with keys we cannot see"), loc)
        return None

    def _dict_merged(self, contents: DictContents, other: PyValue | None, unseen: str, loc: Location) -> DictContents:
        """``contents`` updated with ``other`` (``d.update(other)``, ``d | other``,
        ``{**d, **other}``, ``dict(other)``): later keys win when read
        (:meth:`_dict_get` reads from the end). A value that is not a dict we can
        see, or one with keys we cannot see, may add any key and replace any key
        set before it: those keys' values become unknown (``{"tp_size": 8,
        **overrides}`` may end with any tp_size; ``{**overrides, "tp_size": 8}``
        ends with 8)."""
        if other is None:
            return contents
        if not isinstance(other, PDict):
            why = Value.unknown(unseen)
            return DictContents(_shadowed(contents.entries, why, loc), contents.open or why)
        added = self.heap.get(other.ref, DictContents(()))
        before = contents.entries if added.open is None else _shadowed(contents.entries, added.open, loc)
        entries = (*before, *added.entries)
        if len(entries) > MAX_ITEMS:  # `d.update(d)` doubles the entries
            return DictContents((), Value.unknown(f"a dict of more than {MAX_ITEMS} entries"))
        return DictContents(entries, contents.open or added.open)

    def _keywords_merged(self, contents: DictContents, kwargs: dict[str, PyValue], spreads: list[PyValue], loc: Location) -> DictContents:
        """``contents`` updated with a call's keywords (``dict(base, tp_size=8)``,
        ``d.update(**extra, tp_size=8)``): a ``**mapping`` we cannot see may
        replace the keys before it, never a keyword given by name (Python refuses
        a keyword given twice)."""
        for spread in spreads:
            contents = self._dict_merged(contents, spread, "keywords we cannot see", loc)
        named = tuple((PStr((known_seg(k, loc),), loc), v) for k, v in kwargs.items())
        return self._dict_merged(contents, PDict(self._new_ref(DictContents(named)), loc), "", loc) if named else contents

    def _call_keywords(self, mapping: PyValue, loc: Location, shown: str) -> tuple[dict[str, PyValue], list[PyValue]]:
        """``f(**mapping)``: the keywords a dict we can see gives by name, and what
        may give any other keyword (keys we cannot see, or a mapping we cannot see)."""
        kwargs: dict[str, PyValue] = {}
        spreads: list[PyValue] = []
        if not isinstance(mapping, PDict):
            return kwargs, [PUnknown(Value.unknown(f"**{shown}"), loc)]
        contents = self.heap.get(mapping.ref, DictContents(()))
        for key, item in contents.entries:
            name = known_text(key)
            if name is None:
                spreads.append(PUnknown(Value.unknown("a keyword we cannot see"), loc))
            else:
                kwargs[name] = item
        if contents.open is not None:
            spreads.append(PUnknown(contents.open, loc))
        return kwargs, spreads

    def _expr_List(self, node) -> PyValue:
        loc = self._loc(node)
        kind = {"List": "list", "Tuple": "tuple", "Set": "set"}[type(node).__name__]
        items: list[PyValue] = []
        for element in node.elts:
            if isinstance(element, ast.Starred):
                items.extend(self._iter_items(self._eval(element.value), self._loc(element)))
            else:
                items.append(self._eval(element))
        if kind == "set":
            items = unique_items(items)
        return PList(self._new_ref(bounded_items(tuple(items), loc)), loc, kind)

    _expr_Tuple = _expr_List
    _expr_Set = _expr_List

    def _expr_Dict(self, node: ast.Dict) -> PyValue:
        loc = self._loc(node)
        entries: list[tuple[PyValue, PyValue]] = []
        open_value: Value | None = None
        for key_node, value_node in zip(node.keys, node.values):
            if key_node is None:
                merged = self._dict_merged(DictContents(tuple(entries), open_value), self._eval(value_node), "a ** mapping we cannot see", loc)
                entries, open_value = list(merged.entries), merged.open
                continue
            entries.append((self._eval(key_node), self._eval(value_node)))
        if len(entries) > MAX_ITEMS:  # `d = {**d, **d}` doubles the entries
            entries, open_value = [], Value.unknown(f"a dict of more than {MAX_ITEMS} entries")
        return PDict(self._new_ref(DictContents(tuple(entries), open_value)), loc)

    def _expr_ListComp(self, node) -> PyValue:
        loc = self._loc(node)
        # An item a condition we cannot decide may drop is zero or one item.
        maybe = PSpread(Value.unknown("an item a condition we cannot decide may drop"), loc)
        items = self._comprehension(node, lambda: [self._eval(node.elt)], maybe)
        if items is None:
            return PList(self._new_ref((PSpread(Value.unknown("a comprehension we cannot unroll"), loc),)), loc)
        return PList(self._new_ref(tuple(items)), loc)

    _expr_GeneratorExp = _expr_ListComp

    def _expr_SetComp(self, node: ast.SetComp) -> PyValue:
        made = self._expr_ListComp(node)
        assert isinstance(made, PList)
        self._set(made.ref, tuple(unique_items(self.heap.get(made.ref, ()))))
        return made

    def _expr_DictComp(self, node: ast.DictComp) -> PyValue:
        loc = self._loc(node)
        pairs = self._comprehension(node, lambda: [(self._eval(node.key), self._eval(node.value))])
        if pairs is None:
            return PDict(self._new_ref(DictContents((), Value.unknown("a comprehension we cannot unroll"))), loc)
        return PDict(self._new_ref(DictContents(tuple(pairs))), loc)

    def _comprehension(self, node, element: Callable[[], list], maybe: PyValue | None = None) -> list | None:
        """Unroll ``[f(x) for x in KNOWN if cond]``; None when it cannot be.
        ``maybe``: what stands for the items of a condition we cannot decide (None:
        give up)."""
        scope = self._new_ref({})
        frame = self.frames[-1]
        self.frames.append(Frame((scope, *frame.scopes), frame.name, owner=frame.owner, receiver=frame.receiver))
        try:
            results: list = []
            if not self._unroll(node.generators, 0, element, results, maybe):
                return None
            return results
        finally:
            self.frames.pop()

    def _unroll(self, generators, index: int, element, results: list, maybe: PyValue | None = None) -> bool:
        if index == len(generators):
            results.extend(element())
            return len(results) <= MAX_ITEMS
        generator = generators[index]
        iterable = self._eval(generator.iter)
        items = self._loop_items(iterable)
        if items is None and maybe is not None and isinstance(iterable, PList):
            # A list with items we cannot see (a spread): each stands for its own
            # results, any number of them; the others unroll.
            items = list(self.heap.get(iterable.ref, ()))
            if len(items) > MAX_UNROLL:
                return False
        if items is None:
            return False
        for item in items:
            if isinstance(item, PSpread):
                results.append(self._maybe_of(maybe, item))
                continue
            self._step()
            self._assign(generator.target, item)
            truths = [self._truth(condition) for condition in generator.ifs]
            if False in truths:
                continue
            if None in truths:
                if maybe is None:
                    return False
                results.append(self._maybe_of(maybe, item))
                continue
            if not self._unroll(generators, index + 1, element, results, maybe):
                return False
        return True

    def _maybe_of(self, maybe: PyValue | None, item: PyValue) -> PyValue | None:
        """What stands for the results of ``item`` a comprehension cannot
        decide: ``maybe``; for an item a merge of branches made, one that says
        so and keeps what it was merged over, so that the launch it reaches
        forks on those branches (CPython oracle, seed 124409: `[a for a in cmd
        if a is not None]` over a list one branch grew lost the fork, and the
        launches of the branch that also grew a shared list in place)."""
        values = self._model_values(item)
        if not isinstance(maybe, PSpread) or not any(merge_made(value) for value in values):
            return maybe
        carried = PSpread(Value.unknown(f"{maybe.value.reason}, of items that differ between branches"), maybe.loc)
        return self._record_merge(carried, self._provenance_of(values, set()))

    def _expr_BinOp(self, node: ast.BinOp) -> PyValue:
        return self._binop(node.op, self._eval(node.left), self._eval(node.right), self._loc(node))

    def _binop(self, op, left: PyValue, right: PyValue, loc: Location) -> PyValue:
        if isinstance(op, ast.Add):
            if isinstance(left, PStr) and isinstance(right, PStr):
                word = left.word + right.word
                return PStr(word, loc) if word_length_ok(word) else PUnknown(Value.unknown("string too long"), loc)
            if isinstance(left, PList) and isinstance(right, PList):
                items = (*self.heap.get(left.ref, ()), *self.heap.get(right.ref, ()))
                return PList(self._new_ref(bounded_items(items, loc)), loc, left.kind)
            if isinstance(left, PList) and isinstance(right, PUnknown):
                return PList(self._new_ref((*self.heap.get(left.ref, ()), PSpread(right.value, right.loc))), loc, left.kind)
            if isinstance(left, PUnknown) and isinstance(right, PList):
                return PList(self._new_ref((PSpread(left.value, left.loc), *self.heap.get(right.ref, ()))), loc, right.kind)
            if isinstance(left, PStr) and isinstance(right, PUnknown):
                word = left.word + (Seg(right.value, right.loc, origin=right.origin),)
                return PStr(word, loc) if word_length_ok(word) else PUnknown(Value.unknown("string too long"), loc)
            if isinstance(left, PUnknown) and isinstance(right, PStr):
                word = (Seg(left.value, left.loc, origin=left.origin),) + right.word
                return PStr(word, loc) if word_length_ok(word) else PUnknown(Value.unknown("string too long"), loc)
        if isinstance(op, ast.BitOr) and isinstance(left, PDict):
            # `base | {"tp_size": 8}` (Python 3.9+): a new dict, the right side's keys winning.
            contents = self.heap.get(left.ref, DictContents(()))
            return PDict(self._new_ref(self._dict_merged(contents, right, "a | with a value we cannot see", loc)), loc)
        if isinstance(op, ast.Mod) and isinstance(left, PStr):
            return self._percent(left, right, loc)
        if isinstance(op, ast.Mult):
            count, repeated = (known_int(right), left) if known_int(right) is not None else (known_int(left), right)
            if count is not None and isinstance(repeated, PList) and 0 <= count and count * len(self.heap.get(repeated.ref, ())) <= MAX_ITEMS:
                return PList(self._new_ref(self.heap.get(repeated.ref, ()) * count), loc, repeated.kind)
            if count is not None and isinstance(repeated, PStr) and 0 <= count <= 1000:
                word = repeated.word * count
                if word_length_ok(word):
                    return PStr(word, loc)
        if isinstance(left, PNum) and isinstance(right, PNum):
            result = _arith(op, left.number, right.number)
            if result is not None:
                return PNum(result, loc)
        return PUnknown(Value.unknown("an operation on values we cannot see"), loc)

    def _percent(self, template: PStr, args: PyValue, loc: Location) -> PyValue:
        try:
            parts = format_percent_specs(template.word)
        except FormatError:
            return PUnknown(Value.unknown("a %-format we cannot see"), loc)
        positional = self._known_items(args) if isinstance(args, PList) and args.kind == "tuple" else [args]
        out: list[Seg] = []
        position = 0
        for kind, part in parts:
            if kind == "text":
                out.extend(collect_text(part))
                continue
            key, flags, conversion = part
            if key is not None:
                value = self._dict_get(args, PStr((known_seg(key, loc),), loc), loc) if isinstance(args, PDict) else None
            else:
                if positional is None or position >= len(positional):
                    return PUnknown(Value.unknown("a %-format with arguments we cannot see"), loc)
                value = positional[position]
                position += 1
            if value is None:
                return PUnknown(Value.unknown("a %-format key that is not there"), loc)
            if conversion in "s" and not flags:
                out.extend(self._to_str(value, loc_of(value) or loc).word)
                continue
            python_value = python_scalar(value)
            if python_value is MISSING or conversion not in "sdifgeExXoc" or "*" in flags or spec_too_wide(flags):
                out.append(Seg(Value.unknown("a %-formatted value we cannot see"), loc_of(value) or loc))
                continue
            try:
                text = ("%" + flags + conversion) % (python_value,)
            except (TypeError, ValueError, OverflowError):
                return PUnknown(Value.unknown("a %-format Python would reject"), loc)
            origin = value.origin if isinstance(value, PNum) else None
            out.append(known_seg(text, loc_of(value) or loc, origin=origin))
        if not word_length_ok(tuple(out)):  # `s = "%s%s" % (s, s)` doubles s
            return PUnknown(Value.unknown("string too long"), loc)
        return PStr(tuple(out) or (known_seg("", loc),), loc)

    def _expr_UnaryOp(self, node: ast.UnaryOp) -> PyValue:
        operand = self._eval(node.operand)
        loc = self._loc(node)
        if isinstance(node.op, ast.USub) and isinstance(operand, PNum) and not isinstance(operand.number, bool):
            return PNum(-operand.number, loc, operand.origin)
        if isinstance(node.op, ast.Not):
            truth = self._value_truth(operand)
            if truth is not None:
                return PNum(not truth, loc)
            condition = operand.condition if isinstance(operand, PUnknown) else None
            return PUnknown(Value.unknown("a condition"), loc, condition=condition and (condition[0], condition[1], not condition[2]))
        return PUnknown(Value.unknown("an operation on a value we cannot see"), loc)

    def _expr_BoolOp(self, node: ast.BoolOp) -> PyValue:
        loc = self._loc(node)
        values = [self._eval(v) for v in node.values]
        is_or = isinstance(node.op, ast.Or)
        for index, value in enumerate(values):
            truth = self._value_truth(value)
            last = index == len(values) - 1
            if last:
                return value
            if truth is None:
                rest = values[index + 1]
                if is_or and _env_symbol(value) and isinstance(rest, PStr) and rest.value.is_known and index + 1 == len(values) - 1:
                    # `os.environ.get("TP") or "8"` is ${TP:-8}: unset or empty gives 8.
                    symbol = value.value if isinstance(value, PUnknown) else value.value  # type: ignore[union-attr]
                    return PUnknown(Value.symbol(symbol.name, rest.value.text), loc, loc_of(rest))
                program = _one_program(values[index:]) if all(isinstance(v, PStr) for v in values[index:]) else None
                if program is not None:
                    # `shutil.which("python3") or sys.executable`: whichever it
                    # gives, a path of that program (see _merged_value).
                    return _path_of(program, f"one of several paths to {program}", loc)
                return PUnknown(Value.unknown("a condition we cannot decide"), loc)
            if truth is is_or:
                return value
        return values[-1]

    def _expr_Compare(self, node: ast.Compare) -> PyValue:
        self.compared = None
        truth = self._truth(node)
        condition, self.compared = self.compared, None
        loc = self._loc(node)
        return PNum(truth, loc) if truth is not None else PUnknown(Value.unknown("a comparison we cannot decide"), loc, condition=condition)

    def _expr_IfExp(self, node: ast.IfExp) -> PyValue:
        truth, fork = self._path_truth(node.test)
        if truth is True:
            return self._eval(node.body)
        if truth is False:
            return self._eval(node.orelse)
        with suspended(self.paths, fork):
            body, orelse = self._eval(node.body), self._eval(node.orelse)
        if not same_value(body, orelse):
            self.paths.differs(*(fork or (None, None)), self._loc(node.test))
        return self._merged([body, orelse], frozenset((fork[0],)) if fork else frozenset())

    def _expr_Lambda(self, node: ast.Lambda) -> PyValue:
        return PFunc(node, self._closure_scopes(), "<lambda>", module=self.module)

    def _expr_Await(self, node: ast.Await) -> PyValue:
        return self._eval(node.value)

    def _expr_NamedExpr(self, node: ast.NamedExpr) -> PyValue:
        value = self._eval(node.value)
        self._assign(node.target, value)
        return value

    def _expr_Starred(self, node: ast.Starred) -> PyValue:
        return self._eval(node.value)

    # -- truth --------------------------------------------------------------------------
    def _truth(self, node) -> bool | None:
        """Whether a condition holds in every run, fails in every run, or None."""
        if isinstance(node, ast.Compare) and len(node.ops) != 1:
            for operand in (node.left, *node.comparators):
                self._eval(operand)  # calls in them still run
            return None  # a chained comparison (0 < x <= 1): not decided
        if isinstance(node, ast.Compare):
            left = self._eval(node.left)
            right = self._eval(node.comparators[0])
            self.compared = None  # (not a decision its operands' calls made)
            op = node.ops[0]
            if isinstance(op, (ast.Is, ast.IsNot)):
                if isinstance(right, PNone):
                    result = is_none(left)
                    if result is None and _env_symbol(left):
                        # `os.getenv("X") is None`: X is unset, a decision of
                        # the path (in any module's code, as `if os.getenv("X"):`).
                        name = left.value.name  # type: ignore[union-attr]
                        said = (f"{name} is set", f"{name} is unset")
                        self.compared = (f"set\0{name}", said, isinstance(op, ast.Is))
                        is_set = self._path_decision(f"set\0{name}", said, node)
                        result = None if is_set is None else not is_set
                    elif result is None and isinstance(left, PUnknown) and left.value.kind is Kind.SYMBOL and left.value.name.startswith("$"):
                        result = False  # `os.getenv("X", "a")`: never None
                    if result is None:
                        return None
                    return result if isinstance(op, ast.Is) else not result
                return None
            if isinstance(op, (ast.In, ast.NotIn)):
                items = self._known_items(right)
                wanted = scalar_key(left)
                subject = _subject(left) if wanted is None and items else None
                if items and subject is not None and subject.startswith("$"):
                    # An environment variable among texts (`value in ("true",
                    # "1")`): a decision of the path, as `==` is.
                    texts = [known_text(item) for item in items]
                    if all(text is not None for text in texts):
                        shown = ", ".join(repr(text) for text in texts)
                        key = f"in\0{subject}\0" + IN_SEPARATOR.join(texts)  # type: ignore[arg-type]
                        said = (f"{subject} is one of {shown}", f"{subject} is none of {shown}")
                        self.compared = (key, said, isinstance(op, ast.NotIn))
                        inside = self._path_decision(key, said, node)
                        return None if inside is None else inside == isinstance(op, ast.In)
                if items is None or wanted is None or any(scalar_key(i) is None for i in items):
                    return None
                found = any(scalar_key(i) == wanted for i in items)
                return found if isinstance(op, ast.In) else not found
            if isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)):
                if not (isinstance(left, PNum) and isinstance(right, PNum)):
                    return None
                x, y = left.number, right.number
                if isinstance(op, ast.Lt):
                    return x < y
                if isinstance(op, ast.LtE):
                    return x <= y
                return x > y if isinstance(op, ast.Gt) else x >= y
            a, b = scalar_key(left), scalar_key(right)
            if (a is None) != (b is None) and isinstance(op, (ast.Eq, ast.NotEq)):
                # An environment variable against a text: a decision of the path.
                symbol = _subject(left if a is None else right)
                text = known_text(right if a is None else left)
                if symbol is None or text is None:
                    return None
                if text == "" and _env_text_or_empty(left if a is None else right):
                    # `os.getenv("X", "") != ""`: '' where X is unset too, so
                    # the decision is `X is non-empty`, as `if text:` is (not
                    # `X is not ''`, which an unset X also is in Python).
                    said = (f"{symbol} is non-empty", f"{symbol} is empty or unset")
                    self.compared = (f"nonempty\0{symbol}", said, isinstance(op, ast.Eq))
                    nonempty = self._path_decision(f"nonempty\0{symbol}", said, node)
                    return None if nonempty is None else nonempty == isinstance(op, ast.NotEq)
                shown = repr(text)
                said = (f"{symbol} is {shown}", f"{symbol} is not {shown}")
                self.compared = (f"eq\0{symbol}\0{text}", said, isinstance(op, ast.NotEq))
                equal = self._path_decision(f"eq\0{symbol}\0{text}", said, node)
                return None if equal is None else equal == isinstance(op, ast.Eq)
            if a is None or b is None:
                return None
            if isinstance(op, ast.Eq):
                return a == b
            if isinstance(op, ast.NotEq):
                return a != b
            return None
        if isinstance(node, ast.BoolOp):
            truths = [self._truth(v) for v in node.values]
            if isinstance(node.op, ast.And):
                return False if False in truths else (True if all(t is True for t in truths) else None)
            return True if True in truths else (False if all(t is False for t in truths) else None)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            truth = self._truth(node.operand)
            return None if truth is None else not truth
        return self._value_truth(self._eval(node))

    def _value_truth(self, value: PyValue) -> bool | None:
        if _merged_bool(value):
            self.read_merged_bool = True
            return None
        if isinstance(value, PUnknown) and value.condition is not None:
            # A comparison made elsewhere (`return value in ("true", "1")` in
            # a helper): the same decision wherever its value is tested.
            key, said, negated = value.condition
            verdict = implied(self.paths.known(), key)
            if verdict is None and self.pending is None:
                self.pending = decision(key, said, value.loc)
                self.pending_by_value = True
            return None if verdict is None else verdict != negated
        if _env_symbol(value) or _env_text_or_empty(value):
            # `if os.getenv("BIG_PAGES"):` is a decision of the path (paths.py),
            # and so is `if os.getenv("BIG_PAGES", ""):` (its text, '' when unset).
            name = value.value.name  # type: ignore[union-attr]
            loc = loc_of(value) or Location(self.path, 1, 1)
            verdict = implied(self.paths.known(), f"nonempty\0{name}")
            if verdict is None and self.pending is None:
                self.pending = decision(f"nonempty\0{name}", (f"{name} is non-empty", f"{name} is empty or unset"), loc)
            return verdict
        if isinstance(value, PNum):
            return bool(value.number)
        if isinstance(value, PNone):
            return False
        if isinstance(value, PStr):
            text = literal_text(value.word)
            if text is not None:
                return bool(text)
            candidates = value.value.candidates()
            if candidates is not None and not value.value.uses_default:
                truths = {bool(c) for c in candidates}
                return truths.pop() if len(truths) == 1 else None
            return None
        if isinstance(value, PList):
            items = self.heap.get(value.ref, ())
            if any(not isinstance(i, PSpread) for i in items):
                return True
            return None if items else False
        if isinstance(value, PDict):
            contents = self.heap.get(value.ref, DictContents(()))
            if contents.entries:
                return True
            return None if contents.open is not None else False
        if isinstance(value, (PFunc, PClass, PObject, PExternal, PBuiltin)):
            return None if isinstance(value, PExternal) else True
        return None

    # -- helpers on values -------------------------------------------------------------
    def _to_str(self, value: PyValue, loc: Location) -> PStr:
        """``str(value)`` as a word."""
        if isinstance(value, PStr):
            return value
        if isinstance(value, PNum):
            text = num_text(value.number)
            chars = self._number_chars(value, text)
            return PStr((known_seg(text, value.loc, chars, origin=value.origin),), value.loc)
        if isinstance(value, PNone):
            return PStr((known_seg("None", loc),), loc)
        if isinstance(value, PUnknown):
            return PStr((Seg(value.value, value.loc, origin=value.origin),), value.loc)
        return PStr((Seg(Value.unknown("a value that is not a string"), loc),), loc)

    def _number_chars(self, value: PNum, text: str) -> tuple[tuple[int, int], ...] | None:
        written = value.origin or value.loc
        if written.line != written.end_line or written.end_column - written.column != len(text):
            return None
        line = self.lines[written.line - 1] if 1 <= written.line <= len(self.lines) else ""
        if line[written.column - 1 : written.end_column - 1] != text:
            return None
        return tuple((written.line, written.column + k) for k in range(len(text)))

    def _known_items(self, value: PyValue) -> list[PyValue] | None:
        """The items of a list/tuple/dict (keys) when all are seen."""
        if isinstance(value, PList):
            items = self.heap.get(value.ref, ())
            if any(isinstance(i, PSpread) for i in items):
                return None
            return list(items)
        if isinstance(value, PDict):
            contents = self.heap.get(value.ref, DictContents(()))
            if contents.open is not None:
                return None
            return unique_keys(contents.entries)
        return None

    def _ordered(self, name: str, value: PyValue, kwargs: dict[str, PyValue]) -> list[PyValue] | None:
        """The items of ``sorted(value)`` / ``reversed(value)`` when all are seen
        (sorted: all strings or all numbers; ``reverse=`` decided, no ``key=``)."""
        items = self._known_items(value)
        if items is None:
            return None
        if name == "reversed":
            return None if kwargs else items[::-1]
        if set(kwargs) - {"reverse"}:
            return None
        reverse = self._value_truth(kwargs["reverse"]) if "reverse" in kwargs else False
        keys: list[Any]
        if all(isinstance(item, PStr) for item in items):
            keys = [literal_text(item.word) for item in items]  # type: ignore[union-attr]
        elif all(isinstance(item, PNum) for item in items):
            keys = [item.number for item in items]  # type: ignore[union-attr]
        else:
            return None
        if reverse is None or any(key is None for key in keys):
            return None
        order = sorted(range(len(items)), key=keys.__getitem__, reverse=reverse)
        return [items[index] for index in order]

    def _loop_items(self, value: PyValue) -> list[PyValue] | None:
        items = self._known_items(value)
        if items is None or len(items) > MAX_UNROLL:
            return None
        return items

    def _iter_items(self, value: PyValue, loc: Location) -> tuple[PyValue, ...]:
        """The items ``*value`` / ``list(value)`` / ``+=`` add to a list."""
        if isinstance(value, PList):
            return tuple(self.heap.get(value.ref, ()))
        if isinstance(value, PDict):
            contents = self.heap.get(value.ref, DictContents(()))
            items: tuple[PyValue, ...] = tuple(unique_keys(contents.entries))
            if contents.open is not None:
                items += (PSpread(contents.open, loc),)
            return items
        if isinstance(value, PStr):
            text = literal_text(value.word)
            if text is not None and len(text) <= MAX_ITEMS:
                return tuple(PStr((known_seg(c, value.loc),), value.loc) for c in text)
        if isinstance(value, PUnknown):
            return (PSpread(value.value, value.loc),)
        return (PSpread(Value.unknown("items we cannot see"), loc),)

    def _word_of_item(self, item: PyValue, loc: Location) -> Word:
        """One argv item as the word the program receives."""
        if isinstance(item, PSpread):
            return spread_word(item.value, item.loc, item.held)
        return self._to_str(item, loc_of(item) or loc).word

    # -- calls ------------------------------------------------------------------------
    def _expr_Call(self, node: ast.Call) -> PyValue:
        self._step()
        loc = self._loc(node)
        func = self._eval(node.func)
        args: list[PyValue] = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                args.extend(self._iter_items(self._eval(arg.value), self._loc(arg)))
            else:
                args.append(self._eval(arg))
        kwargs: dict[str, PyValue] = {}
        spreads: list[PyValue] = []
        for keyword in node.keywords:
            value = self._eval(keyword.value)
            if keyword.arg is None:
                named, unseen = self._call_keywords(value, self._loc(keyword), expr_text(keyword.value))
                kwargs.update(named)
                spreads.extend(unseen)
            else:
                kwargs[keyword.arg] = value
        return self._call(func, args, kwargs, spreads, node, loc)

    def _call(self, func: PyValue, args: list[PyValue], kwargs: dict[str, PyValue], spreads: list[PyValue], node, loc: Location) -> PyValue:
        if self.loading and not isinstance(func, (PBuiltin, PMethod)):
            # A module read for its definitions runs nothing: its own launches
            # are its own file's.
            return PUnknown(Value.unknown("the result of a call while a module is imported"), loc)
        started = self._started_elsewhere(func, args, kwargs, node)
        if started is not None:
            return started
        if isinstance(func, PExternal):
            return self._call_external(func.qualname, args, kwargs, spreads, node, loc)
        if isinstance(func, PBuiltin):
            return self._call_builtin(func.name, args, kwargs, loc, spreads)
        if isinstance(func, PMethod):
            return self._call_method(func, args, kwargs, loc, spreads)
        if isinstance(func, PFunc):
            if spreads:
                kwargs = dict(kwargs)
            return self._call_function(func, args, kwargs, node, has_spread=bool(spreads))
        if isinstance(func, PClass):
            instance = PObject(self._new_ref({}), func, loc)
            init = self._class_attr(func, "__init__")
            if isinstance(init, PFunc):
                self._call_function(replace(init, bound=instance), args, kwargs, node)
            return instance
        if isinstance(func, PUnknown) and any(self._is_launch_qualname(callee, configurations=False) for callee in func.callees):
            self._lost_call(func, loc)
        return PUnknown(Value.unknown("the result of a call we cannot see"), loc)

    def _lost_call(self, func: PUnknown, loc: Location) -> None:
        """Hook: a call of a name bound to a different imported function on
        each way of a branch, one of which launches. Its note makes the paths
        fork there (on each, the name is one function), and it stays where
        they cannot."""

    def _started_elsewhere(self, func: PyValue, args: list[PyValue], kwargs: dict[str, PyValue], node) -> PyValue | None:
        """A function of this file handed to a thread, a process or an executor
        (``Thread(target=launch, args=("prefill", 8))``, ``pool.submit(launch,
        "decode", 4)``): it runs with those arguments, as if called here."""
        target: PyValue | None = None
        call_args: list[PyValue] = []
        call_kwargs: dict[str, PyValue] = {}
        if isinstance(func, PExternal) and func.qualname.rsplit(".", 1)[-1] in ("Thread", "Process") and func.qualname.split(".")[0] in ("threading", "multiprocessing"):
            target = kwargs.get("target")
            call_args = list(self._known_items(kwargs["args"]) or []) if "args" in kwargs else []
            if "kwargs" in kwargs and isinstance(kwargs["kwargs"], PDict):
                contents = self.heap.get(kwargs["kwargs"].ref, DictContents(()))
                call_kwargs = {k: v for key, v in contents.entries if (k := known_text(key)) is not None}
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("submit", "apply_async") and args:
            target, call_args = args[0], list(args[1:])
            call_kwargs = dict(kwargs)
        if isinstance(target, PFunc):
            self._call_function(target, call_args, call_kwargs, node)
            return PUnknown(Value.unknown("a thread, process or future"), self._loc(node))
        return None

    def _call_function(self, func: PFunc, args: list[PyValue], kwargs: dict[str, PyValue], node, has_spread: bool = False) -> PyValue:
        if node is not None and self.bounded is None and func.module is not None and not self._may_launch_when_called(func, args, kwargs):
            return self._call_bounded(func, args, kwargs, node, has_spread)
        loc = self._loc(node) if node is not None else Location(self.path, 1, 1)
        self.executed.add(id(func.node))
        if len(self.call_stack) >= MAX_CALL_DEPTH or func.node in self.active_functions:
            return PUnknown(Value.unknown(f"the result of {func.name}()"), loc)
        if func.module is not self.module:
            with self._in_module(func.module):
                return self._call_function(func, args, kwargs, node, has_spread)
        scope: dict[str, PyValue] = {}
        positional = list(args)
        if func.bound is not None:
            positional.insert(0, func.bound)
        self._bind_parameters(func, scope, positional, dict(kwargs), has_spread, root=node is None)
        ref = self._new_ref(scope)
        frame = Frame((ref, *func.scopes), func.name, owner=func.owner, receiver=func.bound, fork_depth=len(self.forks))
        self.frames.append(frame)
        if node is not None:
            self.call_stack.append((func.name, loc, (loc.line, loc.end_line)))
        self.active_functions.append(func.node)
        # Expression nesting is counted per function: a call's body starts afresh.
        outer_depth, self._expr_depth = self._expr_depth, 0
        # So do the decisions a condition asks for: one its body's branches
        # asked for is not the caller's (what a call decides reaches the
        # caller in the value it returns, PUnknown.condition).
        outer_pending = self.pending, self.pending_by_value
        try:
            if isinstance(func.node, ast.Lambda):
                return self._eval(func.node.body)
            if node is not None and self.last_calls and id(node) in self.last_calls:
                with self._cut_tail(func):
                    flow = self._exec_block(func.node.body, 1)
            else:
                flow = self._exec_block(func.node.body, 1)
            if not frame.returns:
                # (one that raises on every way we followed gives nothing: a
                # caller's statement fails there, which is not followed)
                return PUnknown(Value.unknown(f"the result of {func.name}(), which raises"), loc) if flow.raised else PNone(loc)
            if not flow.terminated and frame.returns:
                frame.returns.append(PNone(loc))
            return self._merged(frame.returns, frozenset(frame.return_keys))
        except RecursionError:
            # Each level is bounded, but calls multiply them: give up on this call
            # only, not on the rest of the file; and say so only when the call
            # could have launched (a model file's helper cannot: its value is
            # all that is lost, and it is unknown).
            if self._may_reach_launch(func):
                self._note_depth(node)
            return PUnknown(Value.unknown(f"the result of {func.name}()"), loc)
        finally:
            self._expr_depth = outer_depth
            self.pending, self.pending_by_value = outer_pending
            self.active_functions.pop()
            if node is not None:
                self.call_stack.pop()
            self.frames.pop()

    def _call_bounded(self, func: PFunc, args: list[PyValue], kwargs: dict[str, PyValue], node, has_spread: bool) -> PyValue:
        """A call of another module's function that cannot launch
        (:meth:`_may_launch_when_called`) runs for its value and what it changes,
        at most MAX_NONLAUNCHING_CALL_STEPS steps (the calls it makes count,
        the definitions of the modules it reads do not); past them its result
        and what it changed so far are unknown (:meth:`_forget_changes`), and
        later calls of the function are not run. One that made a launch or a
        configuration meanwhile (the file's code through a global) runs on:
        what it made is reported."""
        loc = self._loc(node) if node is not None else Location(self.path, 1, 1)
        unknown = PUnknown(Value.unknown(f"the result of {func.name}(), which cannot start a server and is too long to follow"), loc)
        if id(func.node) in self.too_long:
            return unknown
        level = _Level(self.next_ref)
        self.journal.append(level)
        limit, self.step_limit = self.step_limit, min(self.step_limit, self.steps + MAX_NONLAUNCHING_CALL_STEPS)
        self.bounded = _BoundedCall(limit)
        try:
            value = self._call_function(func, args, kwargs, node, has_spread)
        except _CallBudget:
            self._keep_changes(level)
            self._forget_changes(level, unknown.value, loc)
            self.too_long.add(id(func.node))
            return unknown
        else:
            self._keep_changes(level)
            return value
        finally:
            if self.journal and self.journal[-1] is level:
                # (another exception: a RecursionError a caller's frame
                # handles goes on with the run, which must not log into this)
                self._keep_changes(level)
            self.bounded = None
            self.step_limit = limit

    def _may_launch_when_called(self, func: PFunc, args: list[PyValue], kwargs: dict[str, PyValue]) -> bool:
        """Whether a call of another module's function may launch: it is
        handed the analyzed file's code (:meth:`_may_call_back`), or its
        module spells a launch or a way to start a process (a generic
        `subprocess.Popen(cmd)` helper starts what its caller hands it) and
        the function can reach one (:meth:`_may_reach_launch`). The reach of a
        module that spells neither is not computed: computing it for every
        module whose functions run parsed all of theirs, 5 MB more of each
        worker on SGLang's tree."""
        if self._may_call_back(func, args, kwargs):
            return True
        module = func.module
        if module.may_launch is None:
            module.may_launch = self._module_may_launch(module.text) or bool(self._launching_names(module.path))
        return module.may_launch and self._may_reach_launch(func)

    def _may_call_back(self, func: PFunc, args: list[PyValue], kwargs: dict[str, PyValue]) -> bool:
        """Whether a call of another module's function may run the analyzed
        file's code, which may launch or build a configuration: it is handed a
        function of the file, or an object or class of a class with methods
        the file defines or derives (a base fixture's `self._server_args()`
        that the file's test class overrides)."""
        for value in (func.bound, *args, *kwargs.values()):
            if isinstance(value, PFunc) and value.module is None:
                return True
            cls = value.cls if isinstance(value, PObject) else value if isinstance(value, PClass) else None
            if cls is not None and any(base.loc.path == self.result.path and _has_methods(base) for base in self._mro(cls)):
                return True
        return False

    def _keep_changes(self, level: _Level) -> None:
        """Take ``level`` (the last of the journal) off, its changes kept: the
        branch being run (the level before it) can still undo them."""
        self.journal.pop()
        if self.journal:
            outer = self.journal[-1]
            for ref, contents in level.before.items():
                if ref < outer.first_new_ref and ref not in outer.before:
                    outer.before[ref] = contents

    def _forget_changes(self, level: _Level, why: Value, loc: Location) -> None:
        """What a call given up on changed so far (``level``'s log) is unknown
        now: it may have changed it again afterwards (left as it was before the
        call, a `config.tp = 8` it made became the caller's old 4). What it
        would have done after is not seen, as for any call we do not follow.
        A name a module defined meanwhile is the same before and after (it is
        written past the logs, _define), so it is kept."""
        for ref, before in level.before.items():
            now = self.heap.get(ref, MISSING)
            if before is MISSING or now is MISSING:
                continue
            if isinstance(before, dict) and isinstance(now, dict):
                for name in {*before, *now}:
                    if before.get(name) is not now.get(name):
                        now[name] = PUnknown(why, loc)
            elif isinstance(now, tuple):
                self.heap[ref] = (PSpread(why, loc),)
            elif isinstance(now, DictContents):
                self.heap[ref] = DictContents((), why)

    def _bind_parameters(self, func: PFunc, scope: dict, positional: list[PyValue], kwargs: dict[str, PyValue], has_spread: bool, root: bool = False) -> None:
        """Bind a call's arguments to ``func``'s parameters in ``scope``.
        ``root``: a function run as a test runner or another module would call
        it, with unknown arguments: its ``*args`` and ``**kwargs`` hold what we
        cannot see (they were empty, and `def serve(**overrides):
        Engine(model_path=m, **overrides)` launched with every default)."""
        arguments = func.node.args
        params = [*arguments.posonlyargs, *arguments.args]
        defaults = [None] * (len(params) - len(arguments.defaults)) + list(arguments.defaults)
        spread_index = next((i for i, a in enumerate(positional) if isinstance(a, PSpread)), None)
        for index, param in enumerate(params):
            name = param.arg
            if spread_index is not None and index >= spread_index:
                scope[name] = PUnknown(Value.symbol(f"{func.name}.{name}"), self._loc(param))
            elif index < len(positional):
                scope[name] = positional[index]
            elif name in kwargs:
                scope[name] = kwargs.pop(name)
            elif has_spread:
                scope[name] = PUnknown(Value.symbol(f"{func.name}.{name}"), self._loc(param))
            elif defaults[index] is not None:
                scope[name] = self._eval(defaults[index])
            else:
                scope[name] = PUnknown(Value.symbol(f"{func.name}.{name}"), self._loc(param))
        if arguments.vararg is not None:
            rest = positional[len(params):]
            if root:
                rest = [*rest, PSpread(Value.unknown(f"what a caller passes {func.name}() in *{arguments.vararg.arg}"), self._loc(arguments.vararg))]
            scope[arguments.vararg.arg] = PList(self._new_ref(tuple(rest)), self._loc(arguments.vararg), "tuple")
        for param, default in zip(arguments.kwonlyargs, arguments.kw_defaults):
            if param.arg in kwargs:
                scope[param.arg] = kwargs.pop(param.arg)
            elif has_spread or default is None:
                scope[param.arg] = PUnknown(Value.symbol(f"{func.name}.{param.arg}"), self._loc(param))
            else:
                scope[param.arg] = self._eval(default)
        if arguments.kwarg is not None:
            loc = self._loc(arguments.kwarg)
            entries = tuple((PStr((known_seg(k, loc),), loc), v) for k, v in kwargs.items())
            opened = Value.unknown("**kwargs") if has_spread else Value.unknown(f"what a caller passes {func.name}() in **{arguments.kwarg.arg}") if root else None
            scope[arguments.kwarg.arg] = PDict(self._new_ref(DictContents(entries, opened)), loc)

    def _call_builtin(self, name: str, args: list[PyValue], kwargs: dict[str, PyValue], loc: Location, spreads: list[PyValue] = ()) -> PyValue:
        first = args[0] if args else None
        if name == "str":
            if first is None:
                return PStr((known_seg("", loc),), loc)
            return self._to_str(first, loc) if isinstance(first, (PStr, PNum, PNone, PUnknown)) else PUnknown(Value.unknown("str() of a value we cannot see"), loc)
        if name == "int" and first is not None:
            if isinstance(first, PNum):
                if isinstance(first.number, float) and not math.isfinite(first.number):
                    # (CPython raises: int() of infinity or NaN)
                    return PUnknown(Value.unknown("int() of a number that is not finite"), loc)
                return PNum(int(first.number), first.loc, first.origin)
            if isinstance(first, PStr):
                text = literal_text(first.word)
                # What CPython's int() makes of the text (an error: unknown); a
                # hand-written test of it once let int("+-3") end the analysis.
                number = _int_of_text(text) if text is not None and len(args) == 1 else None
                if number is not None:
                    return PNum(number, first.loc, origin_of_word(first.word))
            return PUnknown(first.value if isinstance(first, PUnknown) else Value.unknown("int() of a value we cannot see"), loc)
        if name in ("sorted", "reversed") and first is not None:
            ordered = self._ordered(name, first, kwargs)
            if ordered is not None:
                return PList(self._new_ref(tuple(ordered)), loc)
        if name in ("list", "tuple", "set", "sorted"):
            if first is None:
                return PList(self._new_ref(()), loc, "tuple" if name == "tuple" else "list")
            items = self._iter_items(first, loc)
            if name in ("set", "sorted") and len(items) > 1:
                return PList(self._new_ref((PSpread(Value.unknown(f"{name}() reorders items"), loc),)), loc)
            return PList(self._new_ref(items), loc, "tuple" if name == "tuple" else "list")
        if name == "dict":
            merged = self._keywords_merged(self._dict_merged(DictContents(()), first, "dict() of a value we cannot see", loc), kwargs, spreads, loc)
            return PDict(self._new_ref(merged), loc)
        if name == "range":
            numbers = [known_int(a) for a in args]
            if args and all(n is not None for n in numbers) and len(args) <= 3:
                try:
                    values = range(*numbers)  # type: ignore[arg-type]
                except ValueError:
                    values = range(0)
                if len(values) <= MAX_UNROLL:
                    return PList(self._new_ref(tuple(PNum(v, loc) for v in values)), loc)
            return PList(self._new_ref((PSpread(Value.unknown("a range we cannot unroll"), loc),)), loc)
        if name in ("enumerate", "zip"):
            # Loops over enumerate(...) / zip(...) of seen items unroll like loops
            # over a list of tuples (issue 16).
            if name == "enumerate":
                start = known_int(args[1]) if len(args) > 1 else (known_int(kwargs["start"]) if "start" in kwargs else 0)
                columns = [self._known_items(first)] if first is not None and start is not None else [None]
            else:
                start = 0
                columns = [self._known_items(arg) for arg in args] if args and not kwargs else [None]
            if all(column is not None for column in columns) and start is not None:
                rows = min(len(column) for column in columns)  # type: ignore[arg-type]
                if rows <= MAX_UNROLL:
                    tuples = []
                    for index in range(rows):
                        row = tuple(column[index] for column in columns)  # type: ignore[index]
                        if name == "enumerate":
                            row = (PNum(start + index, loc), *row)
                        tuples.append(PList(self._new_ref(row), loc, "tuple"))
                    return PList(self._new_ref(tuple(tuples)), loc)
            return PList(self._new_ref((PSpread(Value.unknown(f"{name}() of items we cannot see"), loc),)), loc)
        if name == "len" and first is not None:
            items = self._known_items(first)
            if items is not None:
                return PNum(len(items), loc)
        if name == "super":
            frame = self.frames[-1]
            if frame.owner is not None and frame.receiver is not None:
                return PSuper(frame.owner, frame.receiver)
        if name == "getattr" and isinstance(first, (PExternal, PModule)) and len(args) >= 2 and known_text(args[1]) is not None:
            # `getattr(sgl, "Engine", None)` (GPTQModel's engine factory): the
            # module's attribute, as `sgl.Engine` is; the default is for a
            # release without it, where no launch runs.
            return self._attribute(first, known_text(args[1]), loc)  # type: ignore[arg-type]
        return PUnknown(Value.unknown(f"the result of {name}()"), loc)

    def _call_method(self, method: PMethod, args: list[PyValue], kwargs: dict[str, PyValue], loc: Location, spreads: list[PyValue] = ()) -> PyValue:
        receiver = method.receiver
        name = method.name
        first = args[0] if args else None
        if isinstance(receiver, PList):
            items = self.heap.get(receiver.ref, ())
            if name == "append" and first is not None:
                self._set(receiver.ref, (*items, first))
                return PNone(loc)
            if name == "extend" and first is not None:
                self._set(receiver.ref, bounded_items((*items, *self._iter_items(first, loc)), loc))
                return PNone(loc)
            if name == "insert" and len(args) == 2:
                index = known_int(args[0])
                self._set(receiver.ref, items_inserted(items, index, args[1], loc))
                return PNone(loc)
            if name == "copy":
                return PList(self._new_ref(items), loc)
            if name in ("pop", "remove", "clear", "reverse"):
                changed = list_changed(name, list(items), args, loc)
                if changed is not None:
                    updated, result = changed
                    self._set(receiver.ref, tuple(updated))
                    return result if result is not None else PNone(loc)
            if name in ("pop", "remove", "clear", "sort", "reverse"):
                self._set(receiver.ref, (PSpread(Value.unknown(f"a list changed by .{name}()"), loc),))
            return PUnknown(Value.unknown(f"the result of .{name}()"), loc)
        if isinstance(receiver, PDict):
            contents = self.heap.get(receiver.ref, DictContents(()))
            if name == "get" and first is not None:
                found = self._dict_get(receiver, first, loc)
                if found is not None:
                    return found
                return args[1] if len(args) > 1 else PNone(loc)
            if name in ("items", "keys", "values"):
                if contents.open is not None:
                    return PList(self._new_ref((PSpread(contents.open, loc),)), loc)
                latest = {}
                for key, value in contents.entries:
                    latest[scalar_key(key)] = (key, value)
                if name == "items":
                    pairs = tuple(PList(self._new_ref((k, v)), loc, "tuple") for k, v in latest.values())
                    return PList(self._new_ref(pairs), loc)
                return PList(self._new_ref(tuple(kv[0 if name == "keys" else 1] for kv in latest.values())), loc)
            if name == "update":
                merged = self._dict_merged(contents, first, "update() with a value we cannot see", loc)
                self._set(receiver.ref, self._keywords_merged(merged, kwargs, spreads, loc))
                return PNone(loc)
            if name == "copy":
                return PDict(self._new_ref(contents), loc)
            if name == "setdefault" and first is not None:
                found = self._dict_get(receiver, first, loc)
                if found is None:
                    default = args[1] if len(args) > 1 else PNone(loc)
                    self._set(receiver.ref, DictContents((*contents.entries, (first, default)), contents.open))
                    return default
                return found
            return PUnknown(Value.unknown(f"the result of .{name}()"), loc)
        if isinstance(receiver, PStr):
            return self._call_str_method(receiver, name, args, kwargs, loc)
        subject = _subject(receiver) if isinstance(receiver, PUnknown) and name in _CASE_METHODS and not args and not kwargs else None
        if subject is not None:
            # The environment variable changed the same way wherever it is:
            # decisions over it are the run's, not one per place.
            variable, default, rest = subject.partition(" (default ")
            return PUnknown(Value.unknown(f"the result of str.{name}()"), loc, subject=f"{variable}.{name}(){default}{rest}")
        return PUnknown(Value.unknown(f"the result of .{name}()"), loc)

    def _call_str_method(self, receiver: PStr, name: str, args: list[PyValue], kwargs: dict[str, PyValue], loc: Location) -> PyValue:
        first = args[0] if args else None
        if name == "join" and first is not None:
            items = self._iter_items(first, loc)
            words = [self._word_of_item(item, loc) for item in items]
            word = join_words(receiver.word, words)
            return PStr(word or (known_seg("", loc),), loc) if word_length_ok(word) else PUnknown(Value.unknown("string too long"), loc)
        if name == "format":
            return self._format(receiver, args, kwargs, loc)
        if name == "split":
            separator = None if first is None or isinstance(first, PNone) else known_text(first)
            if first is not None and not isinstance(first, PNone) and separator is None:
                return PList(self._new_ref((PSpread(Value.unknown("split by a separator we cannot see"), loc),)), loc)
            maxsplit = known_int(args[1]) if len(args) > 1 else (known_int(kwargs["maxsplit"]) if "maxsplit" in kwargs else -1)
            fields = split_word(as_written(receiver.word), separator or None, -1 if maxsplit is None else maxsplit) if separator != "" else None
            if fields is None:
                return PList(self._new_ref((PSpread(Value.unknown("a split we cannot see"), loc),)), loc)
            # (a field split_word found may be any number of fields is a spread)
            items = tuple(PSpread(f[0].value, f[0].loc) if len(f) == 1 and f[0].split else PStr(f or (known_seg("", loc),), loc) for f in fields)
            return PList(self._new_ref(items), loc)
        if name in ("strip", "lstrip", "rstrip") and not args:
            text = literal_text(receiver.word)
            if text is not None:
                stripped = getattr(text, name)()
                start = text.index(stripped) if stripped else 0
                return PStr((known_seg(stripped, loc, sub_chars(receiver.word, start, len(stripped)), origin=origin_of_word(receiver.word)),), loc)
            return receiver
        if name in ("lower", "upper") and not args:
            text = literal_text(receiver.word)
            if text is not None:
                return PStr((known_seg(getattr(text, name)(), loc, origin=origin_of_word(receiver.word)),), loc)
        if name == "replace" and len(args) == 2:
            text, old, new = literal_text(receiver.word), known_text(args[0]), known_text(args[1])
            if text is not None and old is not None and new is not None and old:
                result = text.replace(old, new)
                if len(result) <= MAX_STRING:
                    return PStr((known_seg(result, loc, origin=origin_of_word(receiver.word)),), loc)
        return PUnknown(Value.unknown(f"the result of str.{name}()"), loc)

    def _format(self, template: PStr, args: list[PyValue], kwargs: dict[str, PyValue], loc: Location) -> PyValue:
        try:
            parts = parse_format(template.word)
        except FormatError:
            return PUnknown(Value.unknown("a format string we cannot see"), loc)
        out: list[Seg] = []
        auto = 0
        for kind, part in parts:
            if kind == "text":
                out.extend(collect_text(part))
                continue
            name, conversion, spec = part
            if name == "":
                value = args[auto] if auto < len(args) else None
                auto += 1
            elif name.isdigit():
                value = args[int(name)] if int(name) < len(args) else None
            elif name.isidentifier():
                value = kwargs.get(name)
            else:
                value = None  # attribute or index access in the field
            if value is None or "{" in spec:
                out.append(Seg(Value.unknown("a format field we cannot see"), loc))
                continue
            out.extend(self._format_field(value, conversion or "", spec, loc_of(value) or loc))
        word = tuple(out)
        if not word_length_ok(word):
            return PUnknown(Value.unknown("string too long"), loc)
        return PStr(word or (known_seg("", loc),), loc)

    # -- external calls -----------------------------------------------------------------
    def _call_external(self, qualname: str, args: list[PyValue], kwargs: dict[str, PyValue], spreads: list[PyValue], node, loc: Location) -> PyValue:
        """A call of a name imported from outside the file: reads of the
        environment, ``os.path.join`` and ``shutil.which`` are modeled, any
        other result is unknown.
        The launch recognisers (:mod:`sglang_lint.sources.python_launches`) extend
        it with the calls that start a server."""
        unknown = PUnknown(Value.unknown(f"the result of {qualname}()"), loc)
        if qualname in ("os.environ.get", "os.getenv"):
            name = known_text(args[0]) if args else None
            if name is None:
                return unknown
            if name in self.configured_env:
                return PStr((known_seg(self.configured_env[name], loc),), loc)
            default = args[1] if len(args) > 1 else kwargs.get("default")
            default_text = known_text(default) if default is not None else None
            if default is not None and default_text is None and not isinstance(default, PNone):
                if isinstance(default, PNum):
                    default_text = num_text(default.number)
                else:
                    return PUnknown(Value.unknown(f"${name} or a default we cannot see"), loc)
            origin = loc_of(default) if default_text is not None else None
            return PUnknown(Value.symbol("$" + name, default_text), loc, origin)
        if qualname in ("os.path.join", "posixpath.join"):
            return self._path_join(args, loc)
        if qualname == "shutil.which":
            # The program's path where PATH has it (None when it has not): as
            # a command, that program. `shutil.which("python3") or
            # sys.executable` is a Python either way; as the result of a call
            # we cannot see, its launch was "not analyzed".
            program = known_text(args[0]) if args else None
            if program is None or not program or "/" in program:
                return unknown
            return _path_of(program, f"the directory of PATH that has {program}", loc)
        if qualname.startswith(SGLANG_ENVS + ".") and qualname.endswith(".get") and not args and not kwargs:
            return self._sglang_env_get(qualname[len(SGLANG_ENVS) + 1 : -len(".get")], loc) or unknown
        return unknown

    def _sglang_env_get(self, name: str, loc: Location) -> PyValue | None:
        """``envs.NAME.get()`` of SGLang's registry of environment variables
        (sglang 0.5.23 ``sglang/srt/environ.py:67``: ``EnvField.get`` returns
        ``os.getenv(NAME)`` parsed, or the field's default when it is unset;
        ``class Envs`` at line 251):
        for an ``EnvStr`` with a literal default, what ``os.getenv(NAME,
        default)`` gives (``EnvStr(None)``: ``os.getenv(NAME)``). Its decisions
        are the environment's, in any module's code: SGLang's PD test fixture
        drops ``--disaggregation-ib-device`` when
        ``envs.SGLANG_TEST_PD_DISAGG_DEVICES.get() is None``
        (``disaggregation_fixture.py:111-113``). None when the
        field is not such a one (a bool or number is parsed: unknown)."""
        if not is_identifier(name):
            return None
        field = self._sglang_env_fields().get(name)
        if field is None or field[0] != "EnvStr":
            return None
        return PUnknown(Value.symbol("$" + name, field[1]), loc)

    def _sglang_env_fields(self) -> Mapping[str, tuple[str, str | None]]:
        """The fields of SGLang's ``class Envs`` (``NAME = EnvStr("default")``)
        by name, read from the project's or the installed ``sglang.srt.environ``
        (a dependency of the result); once per run."""
        if self.files is None:
            return {}
        key = ("sglang environment fields",)
        known = self.files.recall(key)
        if known is not None:
            return known  # type: ignore[return-value]
        self.files.begin(key)
        found = self._module_text("sglang.srt.environ", 0, None)
        fields = env_fields(found[1]) if found is not None else {}
        return self.files.conclude(key, fields)  # type: ignore[return-value]

    def _path_join(self, args: list[PyValue], loc: Location) -> PyValue:
        words: list[Word] = []
        for arg in args:
            if not isinstance(arg, (PStr, PUnknown)):
                return PUnknown(Value.unknown("os.path.join of values we cannot see"), loc)
            word = self._to_str(arg, loc).word
            text = literal_text(word)
            if text is not None and text.startswith("/"):
                words = []  # an absolute part restarts the path
            words.append(word)
        out: list[Seg] = []
        for index, word in enumerate(words):
            if index:
                previous = literal_text(words[index - 1])
                if previous is None or not previous.endswith("/"):
                    out.append(known_seg("/", loc))
            out.extend(word)
        if not word_length_ok(tuple(out)):  # `s = os.path.join(s, s)` doubles s
            return PUnknown(Value.unknown("string too long"), loc)
        return PStr(tuple(out) or (known_seg("", loc),), loc)

    # -- functions nobody in the file calls --------------------------------------------
    def _run_uncalled(self, tree: ast.Module) -> None:
        """Run what a test runner or another module would call: module functions
        and methods no call in this file reaches, with unknown parameters. Methods
        run once per concrete class (one no class in the file derives from), test
        fixtures first, with ``cls``/``self`` bound to that class; each class is a
        deployment scope of its own."""
        called_names = set(_called_names_of(tree))  # the file's tree is shared by its runs
        for module in self.modules.values():
            if module is not None:
                # A base class's method its own setUpClass calls is not a root.
                for names in module.run_derived(_called_names):
                    called_names |= names
        # Only what can reach a launch runs (issue 20, python_reach).
        reach = self._reaching_functions(tree)
        subclassed = {base.ref for cls in self.classes for base in cls.bases if isinstance(base, PClass)}
        methods = {id(f.node) for f in self.defined if f.owner is not None}
        # The branches met so far (the module's top level) may matter to any
        # launch; those met while a root runs, only to that root's launches.
        self.relevant_branches = set(self.paths.met)
        for cls in self.classes:
            if cls.ref in subclassed:
                continue
            self._as_root(lambda cls=cls: self._run_class(cls, called_names, reach))
        for func in list(self.defined):
            if id(func.node) in self.executed or id(func.node) in methods or func.name in called_names or id(func.node) not in reach:
                continue
            self._as_root(lambda func=func: self._run_root(func, func.name if func.name.startswith("test") else ""))
        # A function a call names that did not run (its caller did not, or
        # called it in a way we cannot follow) runs as a root too, unless the
        # merged run of the file reached it by the file's own flow: then a path
        # that skips the call (`if not args.no_launch:`) starts nothing, and the
        # path that takes it has the launch, made through the call.
        # (Told by name and nesting, not by node: an editor's next analysis of
        # the file parses it anew and skips the merged run.)
        reached_elsewhere: frozenset = frozenset()
        if self.paths.reached is None:
            if not self.paths.may_fork and not self.paths.fixed:
                self.paths.reached = frozenset((f.name, len(f.scopes)) for f in self.defined if id(f.node) in self.executed)  # (the merged run)
        else:
            reached_elsewhere = self.paths.reached
        for func in list(self.defined):
            if id(func.node) in self.executed or id(func.node) in methods or id(func.node) not in reach or (func.name, len(func.scopes)) in reached_elsewhere:
                continue
            self._as_root(lambda func=func: self._run_root(func, ""))

    def _as_root(self, run: Callable[[], None]) -> None:
        """Run one root (a function, or a class's fixtures and tests, which
        share their instance). The branches it met matter to the launch
        variants (``Paths.launch``) only when one of its own launches holds a
        value a merge of branches made (``merged_launch``; a root's unknown
        parameters are no reason to fork): the roots are what different test
        runs call, and a branch of one (a benchmark's retry count) changes
        nothing another launches."""
        met, servers, routers, notes = len(self.paths.met), len(self.result.servers), len(self.result.routers), len(self.result.notes)
        dropped = self._launches_not_followed()
        run()
        launches = [*self.result.servers[servers:], *self.result.routers[routers:]]
        if any(merged_launch(launch) for launch in launches) or not_followed(self.result.notes[notes:]) or self._launches_not_followed() != dropped:
            self.relevant_branches.update(self.paths.met[met:])

    def _launches_not_followed(self) -> int:
        """Hook: how many places so far name a launch this run could not
        follow (their notes are made when the run ends; the interpreter
        starts processes nowhere: none)."""
        return 0

    def _exports(self) -> list[str]:
        """The names the file's top level binds to what another module may call
        to launch with its own values (SourceResult.exports): a function with
        parameters, or a class, a method of which, that a launch of this run
        was made through (a function without parameters launches what its
        own file's analysis found already); and a command it may start
        (:meth:`_exported_commands`)."""
        exports = []
        for name, value in self.heap.get(self.module_scope, {}).items():
            if isinstance(value, PFunc) and value.module is None and not isinstance(value.node, ast.Lambda):
                arguments = value.node.args
                if id(value.node) in self.launched_through and (arguments.posonlyargs or arguments.args or arguments.vararg or arguments.kwonlyargs or arguments.kwarg):
                    exports.append(name)
            elif isinstance(value, PClass) and isinstance(value.node, ast.ClassDef) and value.loc.path == self.result.path:
                if any(id(statement) in self.launched_through for statement in value.node.body):
                    exports.append(name)
        if self.tree is not None:
            exports.extend(name for name in self._exported_commands(self.tree) if name not in exports)
        return exports

    def _exported_commands(self, tree: ast.Module) -> list[str]:
        """Hook: top-level names bound to a command another module may hand to
        a process (the interpreter knows no launch: none)."""
        return []

    def _reaching_functions(self, tree: ast.Module) -> set[int]:
        """The functions of the file and of the modules read for it whose body
        can reach a launch (:func:`python_reach.reaching_functions`), by what
        the names of their module bind now; and how a statement of a root is
        judged (:meth:`_call_root`)."""
        analyzed = self.heap.get(self.module_scope, {})
        bindings_of: dict[int, Mapping[str, Any]] = {id(function.node): analyzed for function in function_references(tree)}
        functions = list(function_references(tree))
        for module in self.modules.values():
            if module is not None:
                # What the module's names bind: its imports too, not only the
                # names defined so far (a module's names are defined when first
                # looked up: a base class's `subprocess.Popen` was no launch
                # while nothing had looked `subprocess` up).
                scope = self._module_bindings(module)
                for references in module.run_derived(functions_in):
                    for function in references:
                        bindings_of[id(function.node)] = scope
                        functions.append(function)
        tests: dict[int, Callable[[FunctionRefs], bool]] = {}  # one per module's bindings

        def launches(refs: FunctionRefs, bindings: Mapping[str, Any]) -> bool:
            test = tests.get(id(bindings))
            if test is None:
                test = tests[id(bindings)] = self._launch_test(bindings)
            return test(refs)

        reached, names = reaching_functions(functions, lambda refs: launches(refs, bindings_of[id(refs.node)]))

        def reaches(statement: ast.AST, module: Module | None = None) -> bool:
            # A statement of another module's function (a helper a root calls)
            # is judged by what that module's names bind, not the file's.
            refs = statement_references(statement)
            return not refs.names.isdisjoint(names) or launches(refs, analyzed if module is None else self._module_bindings(module, resolve=True))

        self._statement_reaches = reaches
        return reached

    def _module_bindings(self, module: Module, resolve: bool = False) -> Mapping[str, Any]:
        """What the names of another module bind, for judging its statements:
        the names defined so far (they are defined when first looked up), over
        what its imports bind.

        ``resolve`` (and in a file read because it imports a launcher): a
        function of the module not defined yet (not looked up: not parsed) is
        judged by the module's own reach (:meth:`_module_reaching`), not left
        to the reach fixpoint, which follows only the bodies parsed. A test
        class deriving an imported fixture class runs the base's
        `setUpClass`, whose `start_server(...)` of its own module was taken
        for no launch: the class was not run, or its launches were cut as a
        tail (issue 20). Not for every module's every function: judging them
        so cost SGLang's tree 40% more time."""
        imports = self._imports_of.get(module.path)
        if imports is None:
            imports = self._imports_of[module.path] = _outline_import_bindings(module.tree, module.path)
        bindings = {**imports, **self.heap.get(module.scope, {})}
        if resolve or self.imports_a_launcher:
            for name, value in bindings.items():
                # (and one defined since the reach was computed: a root that
                # ran before looked it up)
                if value is DEFINED_FUNCTION or (isinstance(value, PFunc) and value.module is not None and value.module.path == module.path and not value.bound):
                    bindings[name] = _DefinedIn(module.path, name)
        return bindings

    def _launch_test(self, bindings: Mapping[str, Any], importer: str | None = None, configurations: bool = True) -> Callable[[FunctionRefs], bool]:
        """Whether what a body refers to (``refs``) names a launch itself: a
        name the recognisers know, a name ``bindings`` bind to one, a module of
        the project that may launch (imports written in the body, relative to
        ``importer``); each reference judged once."""
        answers: dict[str, bool] = {}

        def launches(refs: FunctionRefs) -> bool:
            # A name the body imports itself is what that import takes (judged
            # below), not whatever the name would be at the module's top level:
            # `from sglang.multimodal_gen.runtime import launch_server` in a
            # diffusion helper imports the diffusion launcher's module, and its
            # bare name made every caller a launcher by name (issue 20: SGLang's
            # diffusion runtime and its tests were run for no launch).
            imported_here = {bound for _, _, _, bound in refs.imports} if refs.imports else ()
            for reference in (*refs.names, *refs.dotted):
                if imported_here and reference in imported_here:
                    continue
                known = answers.get(reference)
                if known is None:
                    known = answers[reference] = self._reference_may_launch(reference, bindings, configurations)
                if known:
                    return True
            return any(self._body_import_may_launch(module, level, name, importer, configurations) for module, level, name, _ in refs.imports)

        return launches

    def _body_import_may_launch(self, module: str, level: int, name: str, importer: str | None, configurations: bool = True) -> bool:
        """An alias imported in a body (``name``: the one a `from` import
        takes, "" for ``import module``): a launcher of the standard library by
        the name it takes (``from subprocess import Popen`` in a function: the
        module alone launches nothing we would see); any other module when its
        text may launch. (Judging each name taken from a module of the project,
        as :meth:`_imported_may_launch` does for a module's top level, cost
        SGLang's tree 5 s more, 18.7 s -> 24 s, for no finding.)"""
        if name and not level and module.split(".")[0] in sys.stdlib_module_names:
            return name != "*" and self._is_launch_qualname(f"{module}.{name}")
        if name and self._recognised_name(name):
            # A name the recognisers know (`from sglang.srt.server_args import
            # ServerArgs` in a helper): what it is decides, not whether its
            # module's text may launch. SGLang's runtime_context.py imports
            # ServerArgs in two helpers, and every file calling its `publish`
            # was run as a launcher (issue 20: one_batch.py, 90 modules read).
            return self._is_launch_qualname(f"{module}.{name}", configurations)
        if name and name != "*":
            importer = importer or self.result.path
            qualname = f"{module}.{name}" if module else name
            return self._imported_may_launch(PImported(importer, module, level, name, qualname, Location(importer, 1, 1)))
        return self._import_may_launch(module, level, importer)

    def _reference_may_launch(self, reference: str, bindings: Mapping[str, Any], configurations: bool = True) -> bool:
        """Whether a name or attribute chain (``P``, ``subprocess.Popen``,
        ``sp.run``) a body refers to can start a server: the qualified name it
        stands for, through what its first name is bound to (an import), is
        one the recognisers know (:meth:`_is_launch_qualname`), or it is a
        name or module imported from a module of the project whose text may
        launch."""
        root, dot, rest = reference.partition(".")
        value = bindings.get(root)
        if isinstance(value, _DefinedIn):
            text, _ = self.files.read(value.path) if self.files is not None else (None, None)
            return text is not None and value.name in self._module_reaching(value.path, text)[0]
        if value is DEFINED_FUNCTION or (isinstance(value, PFunc) and not dot):
            # A function whose body we see (SGLang's own `launch_server` in its
            # entry modules): its body decides, through the reach fixpoint;
            # its name makes no launch (issue 20).
            return False
        if isinstance(value, PExternal):
            qualname = value.qualname + dot + rest
        elif isinstance(value, PImported):
            if self._imported_may_launch(value):
                return True
            qualname = value.qualname + dot + rest
        elif isinstance(value, PModule):
            if self._import_may_launch(value.qualname, 0):
                return True
            qualname = value.qualname + dot + rest
        else:
            qualname = reference  # a local, a builtin, an attribute of an object
        return self._is_launch_qualname(qualname, configurations)

    def _imported_may_launch(self, value: PImported) -> bool:
        """An imported name or module of the project: whether it may launch.
        A name a module of the project defines (``from sglang.test.test_utils
        import is_in_ci``) may when that module's function or class of that
        name can reach a launch (:meth:`_module_reaching`); a module (``import
        helpers``, ``from pkg import helpers``), or a name the module only
        passes on, when the module's text may launch."""
        if value.name:
            found = self._module_text(value.module, value.level, value.importer)
            if found is not None:
                shown, text = found
                if self._module_may_launch(text) or self._launching_names(shown):
                    reaching, defined = self._module_reaching(shown, text)
                    if value.name in defined:
                        return value.name in reaching
                    if "*" in defined:
                        return True  # a name its star imports may bring
                    # else a submodule (below), or nothing we could see
                else:
                    # A module that spells no launch may pass one on (a
                    # package's __init__.py: `from pkg.serving import serve`).
                    passed_on = self._passed_on_may_launch(shown, text, value.name)
                    if passed_on is not None:
                        return passed_on
            return self._import_may_launch(value.qualname, value.level, value.importer)  # `from pkg import helpers`
        return self._import_may_launch(value.dotted or value.module, value.level, value.importer)

    def _passed_on_may_launch(self, shown: str, text: str, name: str) -> bool | None:
        """Whether ``name``, which the module ``shown`` binds by an import of
        its own top level, may launch where it comes from; None when the
        module does not import it (a definition, or nothing)."""
        key = ("passed on", shown, name, self._handing_commands(), self._launching_key)
        known = self.files.recall(key)
        if known is not None:
            return bool(known)
        parsed = parse_module(text, shown)
        bound = None if parsed is None else _outline_import_bindings(parsed, shown).get(name)
        if not isinstance(bound, (PImported, PModule, PExternal)):
            return None
        self.files.begin(key, provisional=False)  # a cycle of imports passes on nothing
        self.files.read(shown)  # what it rests on, with where the name comes from
        if isinstance(bound, PImported):
            verdict = self._imported_may_launch(bound)
        elif isinstance(bound, PModule):
            verdict = self._import_may_launch(bound.qualname, 0)
        else:
            verdict = self._is_launch_qualname(bound.qualname)
        return bool(self.files.conclude(key, verdict))

    def _import_may_launch(self, module: str, level: int, importer: str | None = None) -> bool:
        """Whether ``module`` (imported with ``level`` dots) is a module of the
        project whose text may launch (:meth:`_text_may_launch`) through a name
        it defines (:meth:`_module_reaching`); a module we cannot find or read
        launches nothing we would see. A module is reached only through its
        names: what its top level calls is its own file's launch, never run
        for an importer (:meth:`_call` while ``loading``). Its text alone made
        every user of SGLang's diffusion worker module a launcher (issue 20:
        `gpu_worker.run_scheduler_process(...)`; one function of the module
        builds an LLM ServerArgs to read its defaults, a configuration that
        launches nothing)."""
        if self.files is None:
            return False
        key = ("may launch", os.path.dirname(importer or self.result.path), module, level, self._handing_commands(), self._launching_key)
        known = self.files.recall(key)
        if known is None:
            self.files.begin(key)
            found = self._module_text(module, level, importer)
            may_launch = found is not None and (self._module_may_launch(found[1]) or bool(self._launching_names(found[0])))
            known = self.files.conclude(key, may_launch and bool(self._module_reaching(*found)[0]))
        return bool(known)

    def _module_text(self, module: str, level: int, importer: str | None) -> tuple[str, str] | None:
        """The file (as shown) and text of a module of the project; None when
        it is not the project's or cannot be read."""
        if self.files is None or (not level and module.split(".")[0] in sys.stdlib_module_names):
            return None
        for shown in self._files_of_module(module, level, importer or self.result.path):
            text, _ = self.files.read(shown)
            return (shown, text) if text is not None else None
        return None

    def _module_reaching(self, shown: str, text: str) -> tuple[frozenset[str], frozenset[str]]:
        """The top-level names of a module of the project whose definition can
        reach a launch (a function that does, a class with a method that does
        or a base that may), and all the names its ``def``/``class``
        statements define; from the syntax and its own imports, once per
        file's analysis (a cycle of imports counts as reaching). A module that
        spells no launch reaches one only through a function that runs the
        command its caller hands it (python_reach.hands_on_a_command)."""
        key = ("reaching", shown, self._handing_commands(), self._launching_key)
        known = self.files.recall(key)
        if known is not None:
            return known  # type: ignore[return-value]
        parsed = parse_module(text, shown)
        if parsed is None:
            self.files.begin(key)
            self.files.read(shown)  # what it rests on (a later run keeps it while the text is the same)
            return self.files.conclude(key, (frozenset(), frozenset()))  # type: ignore[return-value]
        # What each statement binds and refers to is the text's alone: kept
        # with the outline, for every run (an editor's edits) while it is kept.
        units = range(len(parsed))
        bound = [(refs, frozenset(names)) for index in units for refs, names in parsed.derived(index, _references_and_names)]
        defined = frozenset(name for _, names in bound for name in names)
        self.files.begin(key, provisional=(defined, defined))  # while computing: everything reaches
        self.files.read(shown)  # what it rests on (a later run keeps it while the text is the same)
        # A configuration built there (`ServerArgs(model_path="dummy")` in
        # SGLang's runtime_context.py) is that module's to report, when it is
        # linted itself: it makes none of its names a launch for the files that
        # import them (issue 20: SGLang's model files reached it through
        # `get_exec()` and were interpreted until their nesting overflowed).
        bindings = _outline_import_bindings(parsed, shown)
        # A module another analysis found to launch through (a wrapper of a
        # helper, self.launching) is judged as one that spells a launch: by
        # what its functions call, not by the names it was found with (a
        # named file's come from the texts, generous: a class of a model
        # file "launched" through a word in a comment of its base's module).
        if self._text_may_launch(text) or self._launching_names(shown):
            launches = self._launch_test(bindings, shown, configurations=False)
        else:
            # (a module that only starts processes: with what its callers hand
            # it, _module_may_launch)
            def qualname_of(name: str) -> str | None:
                value = bindings.get(name)
                return value.qualname if isinstance(value, PExternal) else None

            def launches(refs: FunctionRefs) -> bool:
                return refs.node is not None and hands_on_a_command(refs.node, qualname_of)

        # A function of that module that sets its globals (SGLang's
        # `get_platform()` caching its answer) launches nothing for the
        # importer: only the analyzed file's roots share state that way.
        functions = [function for index in units for functions in parsed.derived(index, functions_in) for function in functions]
        reached, names = reaching_functions(functions, launches, globals_reach=False)
        # A top-level statement's names reach when it does: a function or class
        # that can launch (one of its functions is reached), an import of a
        # module that may, an assignment of one (`start =
        # functools.partial(launch, ...)`); a constant does not.
        reaching: set[str] = set()
        for index in units:
            for (refs, statement_names), inner in zip(parsed.derived(index, _references_and_names), parsed.derived(index, functions_in)):
                if statement_names and (not refs.names.isdisjoint(names) or launches(refs) or any(id(function.node) in reached for function in inner)):
                    reaching.update(statement_names)
        return self.files.conclude(key, (frozenset(reaching), defined))  # type: ignore[return-value]

    def _is_launch_qualname(self, qualname: str, configurations: bool = True) -> bool:
        """Hook: whether a call of ``qualname`` (an imported name with its
        module, ``subprocess.Popen``; or a bare or attribute name, ``self.start``)
        may start a server, or (``configurations``) build a server's
        configuration that rules check on its own (``ServerArgs(...)``). The
        interpreter knows no launch: every call may."""
        return True

    def _module_may_launch(self, text: str) -> bool:
        """Whether a module of the project with this text may launch through
        its names: it spells a launch (:meth:`_text_may_launch`), or, when the
        analyzed file writes out an SGLang command (:meth:`_spells_a_command`),
        a way to start a process: a generic `start(cmd)` helper around
        `subprocess.Popen` runs what its caller hands it (a script calling one
        with SGLang's command was "No SGLang launches found"; which of its
        functions do is :func:`python_reach.hands_on_a_command`'s to say). Not
        for every file: SGLang's tree has such helpers, and its files that
        write out no command spent 21% more time running their callers."""
        return self._text_may_launch(text) or (self._handing_commands() and any(word in text for word in PROCESS_MARKERS))

    def _handing_commands(self) -> bool:
        """Whether the analyzed file writes out a command it may hand to a
        helper (:meth:`_module_may_launch`); part of the key of every
        conclusion about modules that rests on it (they are shared by the
        files of a run)."""
        if self._hands_commands is None:
            self._hands_commands = self._spells_a_command(self._analyzed[0])
        return self._hands_commands

    def _spells_a_command(self, text: str) -> bool:
        """Hook: whether the analyzed file's text writes out a command that
        launches (the interpreter knows no launch: any may)."""
        return True

    def _text_may_launch(self, text: str) -> bool:
        """Hook: whether a module of the project with this text may launch."""
        return True

    def _recognised_name(self, name: str) -> bool:
        """Hook: whether the recognisers know what a call of ``name`` (the last
        part of a qualified name) is, a launch or not."""
        return False

    def _run_class(self, cls: PClass, called_names: set[str], reach: set[int]) -> None:
        self._note_unread_fixture(cls)
        seen: set[str] = set()
        ordered: list[PFunc] = []
        for klass in self._mro(cls):
            for name, value in self.heap.get(klass.ref, {}).items():
                if isinstance(value, PFunc) and name not in seen:
                    seen.add(name)
                    if name not in called_names or name in _TEST_FIXTURES:
                        ordered.append(value)
        if not any(id(f.node) in reach or self._inherited_may_launch(f) for f in ordered):
            return  # nothing a test runner would call reaches a launch
        # The fixtures set up what the tests read; other methods run when they can launch.
        ordered = [f for f in ordered if f.name in _TEST_FIXTURES or id(f.node) in reach]
        ordered.sort(key=lambda f: _TEST_FIXTURES.get(f.name, len(_TEST_FIXTURES)))
        inherits_elsewhere = any(klass.loc.path != self.result.path for klass in self._mro(cls))
        if inherits_elsewhere:
            # What the test runner calls (fixtures, tests) and this file's
            # methods; not a helper of another module's base class that no
            # code calls (SGLang's launch_all beside start_prefill/start_decode:
            # a test calls one or the other, never both).
            ordered = [f for f in ordered if f.module is None or f.name in _TEST_FIXTURES or f.name.startswith("test")]
        if not ordered:
            return
        instance = PObject(self._new_ref({}), cls, cls.loc)
        saved = self.scope
        self.scope = cls.name
        try:
            for func in ordered:
                receiver: PyValue | None
                if func.kind == "staticmethod":
                    receiver = None
                elif func.kind == "classmethod":
                    receiver = cls
                else:
                    receiver = instance
                bound = replace(func, bound=receiver)
                if not inherits_elsewhere:
                    self._call_root(bound)
                    continue
                # A class deriving a base class of another file: the class is
                # where the launches of its methods come from, its own or the
                # base's (context, line ranges for a noqa comment on the class line).
                owner = func.owner.name if func.owner is not None else cls.name
                shown = f"{cls.name}.{func.name}" if func.owner is None or func.owner.ref == cls.ref else f"{cls.name} via {owner}.{func.name}"
                self.call_stack.append((shown, cls.loc, (cls.loc.line, cls.loc.line)))
                try:
                    self._call_root(bound)
                finally:
                    self.call_stack.pop()
        finally:
            self.scope = saved

    def _inherited_may_launch(self, func: PFunc) -> bool:
        """Whether a method of another module's class (a fixture's
        `setUpClass`) has a statement that can reach a launch, its module's
        functions not parsed yet judged by the module's reach
        (:meth:`_module_bindings`)."""
        if func.module is None or self._statement_reaches is None or isinstance(func.node, ast.Lambda):
            return False
        return any(self._statement_reaches(statement, func.module) for statement in func.node.body)

    def _note_unread_fixture(self, cls: PClass) -> None:
        """Never drop a deployment silently: a test class deriving a server
        fixture class (prefilter.INHERITED_QUALNAME_MARKERS) of a module that is
        not the project's starts servers we cannot see."""
        from sglang_lint.prefilter import INHERITED_QUALNAME_MARKERS

        for klass in self._mro(cls):
            for base in klass.bases:
                if isinstance(base, PExternal) and any(marker in base.qualname for marker in INHERITED_QUALNAME_MARKERS):
                    self.result.notes.append(
                        Note(
                            cls.loc.path,
                            f"servers of {cls.name} not analyzed: its base class {base.qualname} is not in a module of the analyzed tree "
                            "(run sglang-lint from the directory that holds it)",
                            cls.loc.line,
                            cls.loc.column,
                            reached_from(cls.loc.path, self.result.path, self.call_stack),
                        )
                    )
                    return

    def _run_root(self, func: PFunc, scope: str) -> None:
        saved = self.scope
        self.scope = scope
        try:
            self._call_root(func)
        finally:
            self.scope = saved

    def _call_root(self, func: PFunc) -> None:
        if isinstance(func.node, ast.Lambda):
            return
        if func.name in _TEST_FIXTURES or self._statement_reaches is None:
            self._call_function(func, [], {}, None)  # a fixture sets up what the tests read
            return
        # What the root does after its last launch starts nothing (issue 20).
        with self._cut_tail(func):
            self._call_function(func, [], {}, None)

    @contextlib.contextmanager
    def _cut_tail(self, func: PFunc) -> Iterator[None]:
        """Skip, while ``func`` runs, the statements of its body after its last
        launch (python_reach.tail_statements): its result goes nowhere."""
        if self._statement_reaches is None or isinstance(func.node, ast.Lambda):
            yield
            return
        statement_reaches = self._statement_reaches
        if func.module is None:
            judge: Callable[[ast.AST], bool] = statement_reaches
        else:
            judge = lambda statement: statement_reaches(statement, func.module)  # noqa: E731
        imported = function_imports(func.node)
        if imported:
            # Its statements are judged by what the module's names bind; a name
            # its own imports bind to a launcher (`from subprocess import Popen`
            # in the body) would be unknown there, and its launch cut as a tail.
            importer = func.module.path if func.module is not None else None
            launching = {bound for module, level, name, bound in imported if self._body_import_may_launch(module, level, name, importer)}
            if launching:
                module_judge = judge
                judge = lambda statement: module_judge(statement) or _uses_any(statement_references(statement), launching)  # noqa: E731
        aliases = launcher_aliases(func.node, judge)
        if aliases:
            named_judge = judge
            judge = lambda statement: named_judge(statement) or _uses_any(statement_references(statement), aliases)  # noqa: E731
        tail, last_calls = tail_statements(func.node, judge)
        tail -= self.skipped
        last_calls -= self.last_calls
        saved = self.skipped, self.last_calls
        self.skipped = self.skipped | tail
        self.last_calls = self.last_calls | last_calls
        try:
            yield
        finally:
            self.skipped, self.last_calls = saved


_TEST_FIXTURES = {"setUpClass": 0, "setup_class": 0, "setUp": 1, "setup_method": 1}
# The expectations that code raises (expects_failure): unittest.TestCase's
# methods (assertRaisesRegexp is the alias Python < 3.12 keeps) and pytest's.
_UNITTEST_RAISES = frozenset({"assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})
_PYTEST_RAISES = frozenset({"pytest.raises"})


# ---------------------------------------------------------------------------------
# Helpers


_UNHANDLED = object()
# The str methods that change an environment variable's value the same way
# wherever they are called (a subject of path decisions, PUnknown.subject).
_CASE_METHODS = frozenset({"lower", "upper", "casefold", "strip", "lstrip", "rstrip"})
# What _import_bindings binds a module's own function names to.
DEFINED_FUNCTION = object()


class _DefinedIn(NamedTuple):
    """A function another module defines and nothing has looked up yet (see
    ``_module_bindings``)."""

    path: str
    name: str

_HANDLER_TABLES: dict[type, tuple[dict, dict]] = {}


def _has_methods(cls: PClass) -> bool:
    """Whether a class's body defines a function (a class of data alone calls
    nothing back)."""
    return isinstance(cls.node, ast.ClassDef) and any(isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) for statement in cls.node.body)


def _handler_tables(cls: type) -> tuple[dict, dict]:
    """The expression and statement methods of an interpreter class, by node
    type (filled as node types are met)."""
    tables = _HANDLER_TABLES.get(cls)
    if tables is None:
        tables = _HANDLER_TABLES[cls] = ({}, {})
    return tables


def _shadowed(entries: tuple, why: Value, loc: Location) -> tuple:
    """Dict entries that keys we cannot see (``why``) may have replaced: each value
    unknown, kept at the place it was written."""
    replaced = Value.unknown(f"may be replaced: {why.describe()}"[:120])
    return tuple((key, PUnknown(replaced, loc_of(value) or loc)) for key, value in entries)


def _references_and_names(statement: ast.stmt) -> tuple[FunctionRefs, tuple[str, ...]]:
    """What a top-level statement refers to, and the names it binds."""
    return statement_references(statement), tuple(bound_names(statement))


def _uses_any(refs: FunctionRefs, names: set[str]) -> bool:
    """Whether what a statement refers to uses one of ``names``: by itself, or
    as the first name of an attribute chain (`launcher.serve(2)` uses the
    module a body imported as `launcher`: the chain alone names it)."""
    return not refs.names.isdisjoint(names) or any(chain.partition(".")[0] in names for chain in refs.dotted)


@per_tree
def _called_names_of(tree: ast.Module) -> frozenset[str]:
    """:func:`_called_names` of a tree, once per tree (a module of the
    project, once per process; the analyzed file, once for all its runs)."""
    return frozenset(_called_names(tree))


def _path_of(program: str, directory: str, loc: Location) -> PStr:
    """A path of ``program`` in a directory we cannot see (``directory`` says
    which): what a command needs of it is its name."""
    return PStr((Seg(Value.unknown(directory), loc), known_seg("/" + program, loc)), loc)


def _one_program(values: list) -> str | None:
    """The Python interpreter all ``values`` (strings) are paths of, when each
    ends in a Python's name (`python3`, `/usr/bin/python3`, `<dir>/python`)
    and they are not one name alone; else None."""
    names: dict[str, None] = {}
    whole = True
    for value in values:
        last = value.word[-1] if value.word else None
        if last is None or not isinstance(last, Seg) or not last.value.is_known or not last.value.text:
            return None
        text = last.value.text
        name = text.rsplit("/", 1)[-1]
        # (the name must follow a `/`, unless all the word is known text)
        head_known = all(isinstance(seg, Seg) and seg.value.is_known for seg in value.word[:-1])
        if not name or ("/" not in text and not head_known):
            return None
        whole = whole and len(value.word) == 1 and "/" not in text
        names[name] = None
    # (several names of one program: `python3`, `python`; the first stands for them)
    if not names or (whole and len(names) == 1) or len(values) < 2 or not all(PYTHON_NAME.fullmatch(name) for name in names):
        return None
    return next(iter(names))


def _calls_super(node: ast.AST) -> bool:
    """``super()`` or ``super(Class, self)``."""
    return type(node) is ast.Call and type(node.func) is ast.Name and node.func.id == "super"  # type: ignore[attr-defined]


def _called_names(tree: ast.Module) -> set[str]:
    """Names of everything called anywhere in the tree (``f()``, ``x.f()``).

    A walk of our own: ast.walk's generators were a fifth of a launcher's
    analysis. Leaves that cannot hold a call (names, constants, contexts) are
    not visited."""
    names: set[str] = set()
    stack: list[ast.AST] = [tree]
    pop, push, AST, leaves = stack.pop, stack.append, ast.AST, _CALL_FREE_LEAVES
    while stack:
        node = pop()
        if type(node) is ast.Call:
            func = node.func  # type: ignore[attr-defined]
            if type(func) is ast.Name:
                names.add(func.id)
            elif type(func) is ast.Attribute and not _calls_super(func.value):
                # (`super().__init__(...)` calls a base's method: the method of
                # that name it is written in is still one nobody calls, and a
                # wrapper class whose `__init__` starts `sgl.Engine` after it
                # was never run)
                names.add(func.attr)
        for field_name in node._fields:
            value = getattr(node, field_name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, AST) and type(item) not in leaves:
                        push(item)
            elif isinstance(value, AST) and type(value) not in leaves:
                push(value)
    return names


@per_tree
def _loop_carried_of(loop: ast.For | ast.While) -> list[str]:
    """:func:`_loop_carried` of a loop's body, once per loop node."""
    return _loop_carried(loop.body)


def _loop_carried(body: list) -> list[str]:
    """Names a loop body assigns and also reads (functions and classes it defines
    aside; nested scopes and comprehension variables are not the loop's)."""
    stored: dict[str, None] = {}
    loaded: set[str] = set()
    stack: list[tuple[ast.AST, bool]] = [(statement, False) for statement in reversed(body)]
    comprehensions = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
    while stack:
        node, in_comprehension = stack.pop()
        kind = type(node)
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            continue
        if kind is ast.Name:
            if type(node.ctx) is ast.Load:  # type: ignore[attr-defined]
                loaded.add(node.id)  # type: ignore[attr-defined]
            elif not in_comprehension:
                stored[node.id] = None  # type: ignore[attr-defined]
            continue
        if kind is ast.AugAssign and type(node.target) is ast.Name:  # type: ignore[attr-defined]
            loaded.add(node.target.id)  # type: ignore[attr-defined]
        inner = in_comprehension or kind in comprehensions
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return [name for name in stored if name in loaded]


_CALL_FREE_LEAVES = frozenset({ast.Name, ast.Constant, ast.Load, ast.Store, ast.Del, ast.alias, ast.Pass, ast.Break, ast.Continue})


def _decorator_name(node) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _subject(value: Any) -> str | None:
    """An environment variable's value, named for path decisions (as the
    shell's); or one changed by a case or whitespace method
    (PUnknown.subject)."""
    if isinstance(value, PUnknown) and value.subject is not None:
        return value.subject
    if isinstance(value, PUnknown) and value.value.kind is Kind.SYMBOL:
        return value.value.name if value.value.default in (None, "") else f"{value.value.name} (default {value.value.default})"
    return None


def _catches_key_error(kind) -> bool:
    """Whether an ``except`` clause's type catches the KeyError of a missing
    ``os.environ`` key (a bare ``except:`` too)."""
    if kind is None:
        return True
    if isinstance(kind, ast.Tuple):
        return any(_catches_key_error(item) for item in kind.elts)
    name = kind.id if isinstance(kind, ast.Name) else kind.attr if isinstance(kind, ast.Attribute) else ""
    return name in ("KeyError", "LookupError", "Exception", "BaseException")


def _import_key(value: PyValue | None) -> tuple | None:
    """What an imported name is, to tell two ways that bound the same one
    (None for a value that is not an import)."""
    if isinstance(value, PExternal):
        return ("external", value.qualname)
    if isinstance(value, PImported):
        return ("imported", value.module, value.level, value.name)
    return None


def _merged_bool(value: PyValue) -> bool:
    """A bool that is True on one way and False on another of what the file
    does not decide (_merged_value)."""
    return isinstance(value, PUnknown) and value.value.kind is Kind.ALTERNATIVES and set(value.value.alternatives) == {"True", "False"}


def _plain_test(test: ast.AST) -> bool:
    """A condition whose only calls read the environment (``os.getenv(...)``,
    ``os.environ.get(...)``): deciding it again runs nothing."""
    for node in ast.walk(test):
        if isinstance(node, ast.Call):
            func = node.func
            if not (isinstance(func, ast.Attribute) and func.attr in ("getenv", "get") and isinstance(func.value, (ast.Name, ast.Attribute))):
                return False
        elif isinstance(node, (ast.NamedExpr, ast.Lambda, ast.Await, ast.Yield, ast.YieldFrom)):
            return False
    return True


def _env_symbol(value: Any) -> bool:
    return isinstance(value, PUnknown) and value.value.kind is Kind.SYMBOL and value.value.name.startswith("$") and value.value.default is None


def _env_text_or_empty(value: Any) -> bool:
    """An environment variable's text, '' when it is unset
    (``os.environ.get("X", "")``): true exactly when it is non-empty."""
    return isinstance(value, (PUnknown, PStr)) and value.value.kind is Kind.SYMBOL and value.value.name.startswith("$") and value.value.default == ""


# Builtins whose result is known only when CPython would not raise, and
# carries what each of its arguments came to (``len`` does not: only of a name).
_TOTAL_CALLS = frozenset({"int", "str", "sorted", "list", "tuple", "len"})


def _total_body(node: ast.Try) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The names a ``try`` body assigns and the builtins it calls, when it is
    only assignments to distinct names of expressions built from constants,
    names, displays, one-loop comprehensions over a name, and ``_TOTAL_CALLS``
    of one argument; else None. Kept on the node (a body in a loop or a
    function is asked again)."""
    known = node.__dict__.get("_sglang_lint_total", _UNSET)
    if known is _UNSET:
        known = node.__dict__["_sglang_lint_total"] = _compute_total_body(node.body)
    return known


def _compute_total_body(body: list) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    names: list[str] = []
    callees: set[str] = set()
    loop_names: set[str] = set()
    for statement in body:
        if isinstance(statement, ast.Pass):
            continue
        if not isinstance(statement, ast.Assign) or not all(isinstance(target, ast.Name) for target in statement.targets):
            return None
        if not _total_expression(statement.value, callees, loop_names):
            return None
        names.extend(target.id for target in statement.targets)
    if len(set(names)) != len(names) or callees & (set(names) | loop_names):
        # A name assigned twice keeps only its last value to judge; a callee
        # bound in the body may not be the builtin.
        return None
    return tuple(names), tuple(sorted(callees))


def _total_expression(node, callees: set[str], loop_names: set[str]) -> bool:
    """Whether ``node`` is built only as ``_total_body`` allows; the builtins it
    calls go to ``callees``, its comprehensions' loop names to ``loop_names``."""
    if isinstance(node, (ast.Constant, ast.Name)):
        return True
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(not isinstance(element, ast.Starred) and _total_expression(element, callees, loop_names) for element in node.elts)
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        # Over a name: the items it iterates are values already made (an
        # iterable that is a call's result may have raised, and the element
        # need not carry it).
        if len(node.generators) != 1:
            return False
        generator = node.generators[0]
        if not isinstance(generator.target, ast.Name) or not isinstance(generator.iter, ast.Name) or generator.ifs or generator.is_async:
            return False
        loop_names.add(generator.target.id)
        return _total_expression(node.elt, callees, loop_names)
    if isinstance(node, ast.Call):
        func = node.func
        if not isinstance(func, ast.Name) or func.id not in _TOTAL_CALLS or node.keywords or len(node.args) != 1:
            return False
        (argument,) = node.args
        if isinstance(argument, ast.Starred):
            return False
        if func.id == "len" and not isinstance(argument, ast.Name):
            return False
        callees.add(func.id)
        return _total_expression(argument, callees, loop_names)
    return False


# SGLang's registry of environment variables (sglang.srt.environ.envs): its
# fields' reads are modeled (_sglang_env_get), not run.
SGLANG_ENVS = "sglang.srt.environ.envs"


def env_fields(text: str) -> dict[str, tuple[str, str | None]]:
    """``NAME -> (field class, default)`` of the ``class Envs`` of SGLang's
    ``environ.py`` text: its assignments ``NAME = EnvStr("default")`` (a
    literal text or None; others are left out)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    fields: dict[str, tuple[str, str | None]] = {}
    for statement in tree.body:
        if not (isinstance(statement, ast.ClassDef) and statement.name == "Envs"):
            continue
        for assignment in statement.body:
            if not (isinstance(assignment, ast.Assign) and len(assignment.targets) == 1 and isinstance(assignment.targets[0], ast.Name)):
                continue
            call = assignment.value
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.args and isinstance(call.args[0], ast.Constant)):
                continue
            default = call.args[0].value
            if default is None or isinstance(default, str):
                fields[assignment.targets[0].id] = (call.func.id, default)
    return fields


def _int_of_text(text: str) -> int | None:
    """``int(text)`` as CPython computes it, or None where it raises (or the
    text is longer than any number a launch holds: CPython's own limit on
    the digits it converts is far above it)."""
    if len(text) > 40:
        return None
    try:
        number = int(text)
    except ValueError:
        return None
    return number if abs(number) <= 10**18 else None


def _arith(op, a, b):
    try:
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            result = a * b
            return result if abs(result) < 10**18 else None
        if isinstance(op, ast.FloorDiv):
            return a // b
        if isinstance(op, ast.Mod):
            return a % b
    except (ZeroDivisionError, TypeError, OverflowError):
        return None
    return None


def expr_text(node) -> str:
    """An expression as written, for a message: cut at 40 characters, which an
    ellipsis says (`disaggregation_bootstrap_port is not Non` read as if the
    test were on `Non`)."""
    try:
        text = ast.unparse(node)
    except Exception:  # noqa: BLE001 - only for a message
        return "..."
    return text if len(text) <= 40 else text[:37] + "..."


def _outline_import_bindings(parsed: ModuleOutline, importer: str) -> Mapping[str, PyValue]:
    """:func:`_import_bindings` of a module read in part: a definition not
    parsed yet binds the function names its header says. Kept with the
    outline (not to be changed): asked once for each name a module passes on
    (:meth:`LaunchInterpreter._passed_on_may_launch`), SGLang's tree built
    the bindings of the same modules 7,600 times (~4% of its analysis)."""
    if parsed.path != importer:
        return _import_bindings(parsed.top_level(), importer)
    return parsed.of_top_level(_own_import_bindings)


def _own_import_bindings(parsed: ModuleOutline) -> Mapping[str, PyValue]:
    return MappingProxyType(_import_bindings(parsed.top_level(), parsed.path))


def _import_bindings(body: Iterable[ast.stmt | str], importer: str) -> dict[str, PyValue]:
    """What the imports of a module's top level (``body``) bind, as the
    interpreter binds them (``_stmt_Import``/``_stmt_ImportFrom``) but without
    running anything: a standard-library name as external, any other as
    imported. A string in ``body`` is the name of a function defined there."""
    loc = Location(importer, 1, 1)
    bindings: dict[str, Any] = {}
    for node in body:
        if type(node) is str:
            bindings[node] = DEFINED_FUNCTION
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # A function of the module: what it does is its body's (the reach
            # fixpoint follows it), not what its name would be if imported.
            bindings[node.name] = DEFINED_FUNCTION
        elif isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                name, module = (alias.asname, alias.name) if alias.asname else (top, top)
                stdlib = top in sys.stdlib_module_names
                bindings[name] = PExternal(module, loc) if stdlib else PImported(importer, module, 0, "", module, loc, alias.name if not alias.asname and "." in alias.name else "")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            stdlib = not node.level and module.split(".")[0] in sys.stdlib_module_names
            for alias in node.names:
                if alias.name == "*":
                    continue
                qualname = f"{module}.{alias.name}" if module else alias.name
                bindings[alias.asname or alias.name] = PExternal(qualname, loc) if stdlib else PImported(importer, module, node.level, alias.name, qualname, loc)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            # `sp = subprocess`, `run = subprocess.run`: another name for an import.
            chain = node.value
            rest: list[str] = []
            while isinstance(chain, ast.Attribute):
                rest.append(chain.attr)
                chain = chain.value
            root = bindings.get(chain.id) if isinstance(chain, ast.Name) else None
            if isinstance(root, PExternal):
                bindings[node.targets[0].id] = PExternal(".".join([root.qualname, *reversed(rest)]), loc)
    return bindings


# The outlines of the modules read last, up to this much parsed source in all: a
# tree takes ~25 bytes per character of source, and SGLang's test helpers are
# imported by hundreds of files of its tree. Measured on SGLang 0.5.23's tree
# when whole modules were parsed (the largest process's peak, --jobs 2): 1 MB
# 188 MB, 2 MB 260 MB, 4 MB 356 MB, 8 MB 656 MB (--jobs 1); the wall time moved
# less than the noise. An outline parses a tenth of its module until its
# definitions run (python_outline), so the same bound holds many more modules.
# 768 KB (issue 20): the process tree's peak on that tree 251 -> 241-245 MB
# (target 250), the wall time within the noise of this machine (0.77-1.07
# of 1 MB's, run by run). 640 KB (2026-12-06, with the cross-file pre-check
# and generic process helpers read: 245-249 MB at 768 KB): 239-243 MB, for
# 1-3% more CPU time (modules parsed again), side by side.
PARSED_CHARS = 640 * 1024


class ParsedModules:
    """The outlines of the modules read last, by text, while the source they
    have parsed adds up to at most ``PARSED_CHARS`` (the latest one is always
    kept; an outline parses more as its definitions run)."""

    def __init__(self) -> None:
        self.outlines: OrderedDict[tuple[str, str], ModuleOutline | None] = OrderedDict()
        self.parses = 0  # how many texts were read into an outline (for tests and benchmarks)

    @property
    def chars(self) -> int:
        """The source the outlines kept have parsed."""
        return sum(parsed.parsed_chars for parsed in self.outlines.values() if parsed is not None)

    def outline(self, text: str, path: str = "") -> ModuleOutline | None:
        key = (path, text)
        known = self.outlines.get(key, _UNSET)
        if known is not _UNSET:
            self.outlines.move_to_end(key)
            return known  # type: ignore[return-value]
        self.parses += 1
        made = outline(text, path)
        self.outlines[key] = made
        chars = self.chars
        while chars > PARSED_CHARS and len(self.outlines) > 1:
            _, oldest = self.outlines.popitem(last=False)
            chars -= oldest.parsed_chars if oldest is not None else 0
        return made

    def clear(self) -> None:
        self.outlines.clear()


PARSED = ParsedModules()


def parse_module(text: str, path: str) -> ModuleOutline | None:
    """The outline of a module of the project other files import
    (:mod:`python_outline`: its definitions are parsed as they run), read once
    per process however many files import it (while it is among the latest
    ``PARSED_CHARS`` of parsed source); None when it is not valid Python. An
    outline is one file's (its nodes keep their locations), so two files of the
    same text have one each."""
    return PARSED.outline(text, path)
