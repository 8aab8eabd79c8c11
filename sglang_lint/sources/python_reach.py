"""Which functions of a module can reach a launch (issue 20: demand-driven
interpretation), found from the syntax alone, before anything runs.

The interpreter runs what a test runner or another module would call: every
function and method that nothing in the file calls, with unknown parameters.
On a tree like SGLang's own (one test utility module holds ~80 functions, most
of them about HTTP requests and benchmarks) that was 90% of the time, for code
that starts nothing. A root is now run only when its body can reach a launch:

- it refers to a name the launch recognisers know (``Popen``, ``Engine``,
  ``popen_launch_server``, ...: the ``is_launch_name`` the interpreter's
  subclass gives), or to a name bound to one (``from subprocess import Popen
  as P``);
- it refers to a function or method that can (by name: ``self.start()``
  reaches when any ``start`` of the file or of the modules read does; a name is
  enough, so the answer errs on running too much, never too little);
- it refers to a name imported from a module of the project that may itself
  launch (``may_import_launch``: the module's text passes the pre-check), or
  imports such a module in its body;
- it declares ``global`` / ``nonlocal`` (its side effects are what other roots
  see).

The references of each function are computed once per parsed tree; the
fixed point over them costs microseconds per function.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterable
from typing import TypeVar


T = TypeVar("T")


class FunctionRefs:
    """A function or method definition and what its body refers to."""

    __slots__ = ("node", "name", "names", "dotted", "imports", "declares_global")

    def __init__(
        self,
        node: ast.AST | None,
        name: str,
        names: frozenset[str],
        dotted: frozenset[str],
        imports: tuple[tuple[str, int, str, str], ...],
        declares_global: bool,
    ) -> None:
        self.node = node
        self.name = name
        self.names = names  # Name ids and attribute names used anywhere in the body
        self.dotted = dotted  # attribute chains on a name: "subprocess.Popen", "self.start"
        # (module, level, name taken, name bound) of each alias imported in the
        # body: `from m import a as b` is ("m", 0, "a", "b"), `import a.b` is
        # ("a.b", 0, "", "a").
        self.imports = imports
        self.declares_global = declares_global


def per_tree(function: Callable[[ast.AST], T]) -> Callable[[ast.AST], T]:
    """``function`` of a tree computed once, kept on the tree itself: it lives
    as long as the tree (parse caches decide that), and keeps no tree alive."""
    attribute = "_sglang_lint_" + function.__name__

    @functools.wraps(function)
    def once(tree: ast.AST) -> T:
        known = tree.__dict__.get(attribute, _UNSET)
        if known is _UNSET:
            known = tree.__dict__[attribute] = function(tree)
        return known

    return once


_UNSET = object()


def functions_in(tree: ast.AST) -> tuple[FunctionRefs, ...]:
    """Every function and method of ``tree`` (a module, or one of its
    statements), nested ones too (a nested function's references count for
    the one around it as well: running the outer one defines and may call it)."""
    found: list[FunctionRefs] = []
    for node in _walk(tree):
        if type(node) in (ast.FunctionDef, ast.AsyncFunctionDef):
            found.append(_references(node))
    return tuple(found)


# Of a whole module, once per tree (kept on the module node, which no node of
# its body refers back to).
function_references = per_tree(functions_in)


def function_imports(function: ast.AST) -> tuple[tuple[str, int, str, str], ...]:
    """The imports in the body of a function (``FunctionRefs.imports``), kept
    on the function's node when its references are computed."""
    imports = function.__dict__.get(_IMPORTS)
    return imports if imports is not None else _references(function).imports


def function_declares_global(function: ast.AST) -> bool:
    """Whether a function's body declares ``global`` or ``nonlocal``
    (``FunctionRefs.declares_global``), kept on its node as its imports are."""
    declares = function.__dict__.get(_DECLARES_GLOBAL)
    return declares if declares is not None else _references(function).declares_global


def _references(function: ast.AST) -> FunctionRefs:
    refs = _references_of(function, function.name, [*function.body, *function.decorator_list])  # type: ignore[attr-defined]
    # Only the imports (strings) are kept on the node: the references name the
    # node, and a node holding them would be a reference cycle.
    function.__dict__[_IMPORTS] = refs.imports
    function.__dict__[_DECLARES_GLOBAL] = refs.declares_global
    return refs


_IMPORTS = "_sglang_lint_imports"
_DECLARES_GLOBAL = "_sglang_lint_declares_global"


def statement_references(statement: ast.AST) -> FunctionRefs:
    """What one statement refers to, in the shape of a function's references."""
    return _references_of(None, "", [statement])


def _references_of(definition: ast.AST | None, name: str, nodes: list[ast.AST]) -> FunctionRefs:
    names: set[str] = set()
    dotted: set[str] = set()
    imports: list[tuple[str, int, str, str]] = []
    declares_global = False
    stack: list[ast.AST] = list(nodes)
    pop, push, AST = stack.pop, stack.append, ast.AST
    while stack:
        node = pop()
        kind = type(node)
        if kind is ast.Name:
            names.add(node.id)  # type: ignore[attr-defined]
            continue
        if kind is ast.Call and _runs_a_fixed_command(node):
            # `subprocess.run(["nvidia-smi", ...])` starts no SGLang server;
            # what it is given (`env=make_env()`) may still call something.
            stack.extend(node.args)  # type: ignore[attr-defined]
            stack.extend(keyword.value for keyword in node.keywords)  # type: ignore[attr-defined]
            continue
        if kind is ast.Call:
            taken = _getattr_chain(node)
            if taken is not None:
                # `getattr(sgl, "Engine", None)` uses `sgl.Engine` (GPTQModel's
                # engine factory), as the attribute written out does.
                dotted.add(taken)
        if kind is ast.Attribute:
            names.add(node.attr)  # type: ignore[attr-defined]
            chain = _dotted(node)
            if chain is not None:
                # `subprocess.Popen`, `ServerArgs.from_cli_args`: the chain says
                # what is used; its first name alone is no use of its own.
                dotted.add(chain)
                if type(node.value) is ast.Name:  # type: ignore[attr-defined]
                    continue
        elif kind in _ANNOTATED:
            # An annotation names a type, it calls nothing (`args: ServerArgs`).
            for field_name in node._fields:
                if field_name not in ("annotation", "returns"):
                    value = getattr(node, field_name, None)
                    if type(value) is list:
                        stack.extend(item for item in value if isinstance(item, AST))
                    elif isinstance(value, AST):
                        push(value)
            continue
        elif kind is ast.ImportFrom:
            imports.extend((node.module or "", node.level, alias.name, alias.asname or alias.name) for alias in node.names)  # type: ignore[attr-defined]
            names.update(alias.name for alias in node.names)  # type: ignore[attr-defined]
        elif kind is ast.Import:
            imports.extend((alias.name, 0, "", alias.asname or alias.name.split(".")[0]) for alias in node.names)  # type: ignore[attr-defined]
        elif kind in (ast.Global, ast.Nonlocal):
            declares_global = True
        for field_name in node._fields:
            value = getattr(node, field_name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, AST):
                        push(item)
            elif isinstance(value, AST):
                push(value)
    return FunctionRefs(definition, name, frozenset(names), frozenset(dotted), tuple(imports), declares_global)


_ANNOTATED = (ast.AnnAssign, ast.arg, ast.FunctionDef, ast.AsyncFunctionDef)


def _getattr_chain(call: ast.Call) -> str | None:
    """``X.name`` for ``getattr(X, "name"[, default])`` with ``X`` a name or an
    attribute chain; else None."""
    func, args = call.func, call.args
    if type(func) is not ast.Name or func.id != "getattr" or not 2 <= len(args) <= 3:  # type: ignore[attr-defined]
        return None
    name = args[1]
    if type(name) is not ast.Constant or not isinstance(name.value, str):  # type: ignore[attr-defined]
        return None
    base = args[0].id if type(args[0]) is ast.Name else _dotted(args[0])  # type: ignore[attr-defined]
    return None if base is None else f"{base}.{name.value}"  # type: ignore[attr-defined]


def launcher_aliases(function: ast.AST, reaches: Callable[[ast.AST], bool]) -> set[str]:
    """The local names ``function`` binds to a launcher it refers to
    (``factory = sgl.Engine``, ``make = getattr(sgl, "Engine", None)``): a
    statement that calls one may launch, though it names no launcher. Judged
    by their names alone, it was a tail after the last launch, and cut."""
    aliases: set[str] = set()
    for node in ast.walk(function):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:  # type: ignore[attr-defined]
            value = node.value  # type: ignore[attr-defined]
            if (type(value) in (ast.Name, ast.Attribute) or (type(value) is ast.Call and _getattr_chain(value) is not None)) and reaches(node):
                aliases.add(node.targets[0].id)  # type: ignore[attr-defined]
    return aliases

# The process APIs, by qualified name (the Python source's launch recognisers
# read the same lists): those taking an argv (with ``shell=True`` a command
# string), those taking a command string for the shell. Each takes its command first (or as ``args=``);
# asyncio.create_subprocess_exec takes the program and its arguments one each.
SUBPROCESS_RUNNERS = frozenset({"subprocess.Popen", "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output"})
SHELL_STRING_RUNNERS = frozenset({"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput", "asyncio.create_subprocess_shell"})
_PROCESS_CALLS = SUBPROCESS_RUNNERS | SHELL_STRING_RUNNERS | {"asyncio.create_subprocess_exec"}
# ... and every way to start a process: the os.spawn*/os.exec* families too.
_PROCESS_RUNNERS = _PROCESS_CALLS | {"os.posix_spawn", "os.posix_spawnp"}


def is_process_runner(qualname: str) -> bool:
    """Whether a call of ``qualname`` starts a process (the recognisers' and
    :func:`hands_on_a_command`'s one list)."""
    return qualname in _PROCESS_RUNNERS or qualname.startswith(("os.spawn", "os.exec"))


def _runs_a_fixed_command(call: ast.Call) -> bool:
    """A process started with a command written out in full that names no
    SGLang entry point: every entry point the sources recognise spells
    ``sglang`` (``sglang.launch_server``, ``sglang serve``, ``dynamo.sglang``,
    ``sglang_router``), and a script it runs (``bash x.sh``) is another file,
    not followed. Such a call is no launch itself (SGLang's helpers ask
    ``nvidia-smi``; the files calling them were run as launchers, issue 20).
    The command must be the literal itself, not a name; ``executable=`` or a
    ``**mapping`` may name another program, so they keep the call."""
    function = _dotted(call.func)
    if function not in _PROCESS_CALLS or any(keyword.arg in ("executable", None) for keyword in call.keywords):
        return False
    if function == "asyncio.create_subprocess_exec":
        words = list(call.args)  # the program and its arguments, one each
    else:
        command = call.args[0] if call.args else next((keyword.value for keyword in call.keywords if keyword.arg in ("args", "cmd", "command")), None)
        if command is None:
            return False
        words = list(command.elts) if isinstance(command, (ast.List, ast.Tuple)) else [command]
    texts = [word.value for word in words if isinstance(word, ast.Constant) and isinstance(word.value, str)]
    return bool(words) and len(texts) == len(words) and not any("sglang" in text.lower() for text in texts)


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for an attribute chain on a name; None on anything else."""
    parts: list[str] = []
    while type(node) is ast.Attribute:
        parts.append(node.attr)  # type: ignore[attr-defined]
        node = node.value  # type: ignore[attr-defined]
    if type(node) is not ast.Name:
        return None
    parts.append(node.id)  # type: ignore[attr-defined]
    return ".".join(reversed(parts))


def _walk(tree: ast.AST) -> Iterable[ast.AST]:
    """The statements of ``tree`` that can hold a definition (expressions are
    not entered: a lambda is no root)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        for field_name in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, field_name, None)
            if type(block) is list:
                stack.extend(reversed(block))


def reaching_functions(
    functions: Iterable[FunctionRefs], launches: Callable[[FunctionRefs], bool], globals_reach: bool = True
) -> tuple[set[int], set[str]]:
    """The ``id()`` of each function node of ``functions`` whose body can reach
    a launch, and their names: those that ``launches`` (what the body refers
    to names a launch, see the module's docstring) or declare ``global`` (when
    ``globals_reach``: the analyzed file's roots, whose side effects other
    roots see), then, to a fixed point, those that refer to the name of one
    that reaches."""
    pending: list[FunctionRefs] = []
    reached: set[int] = set()
    reaching_names: set[str] = set()
    for function in functions:
        if (globals_reach and function.declares_global) or launches(function):
            reached.add(id(function.node))
            reaching_names.add(function.name)
        else:
            pending.append(function)
    changed = True
    while changed and pending:
        changed = False
        still: list[FunctionRefs] = []
        for function in pending:
            if not function.names.isdisjoint(reaching_names):
                reached.add(id(function.node))
                reaching_names.add(function.name)
                changed = True
            else:
                still.append(function)
        pending = still
    return reached, reaching_names


def tail_statements(function: ast.AST, reaches: Callable[[ast.AST], bool]) -> tuple[set[int], set[int]]:
    """The ``id()`` of the statements of ``function``'s body that run after its last
    statement that can reach a launch (``reaches``), for a function whose result
    goes nowhere (a root; a call whose value is dropped, below): what it does
    after its last launch starts nothing, so it need not run (SGLang's
    ``run_bench_serving_multi`` starts a server, then runs the whole
    benchmark). Loops are never cut inside (a later round may launch); an
    ``if`` is cut in each branch, a ``with`` in its body, a ``try`` in its body
    when no handler, ``else`` or ``finally`` reaches.

    Also the ``id()`` of the calls made by those last statements whose value
    is dropped (``f()``, ``return f()``), or kept only in local names
    (``cache = build(cfg)``: what would read them is the cut tail; not when
    the function declares ``global`` or ``nonlocal``, whose names outlive
    it): nothing after them reaches a launch, so the function they call is
    cut the same way (SGLang's radix-cache test kits build a ServerArgs, then
    the cache pools the test reads, ~30,000 steps a test)."""
    skipped: set[int] = set()
    last_calls: set[int] = set()
    _cut(function.body, reaches, skipped, last_calls, locals_die=not function_declares_global(function))  # type: ignore[attr-defined]
    return skipped, last_calls


def _local_names(target: ast.AST) -> bool:
    """A target that binds plain names only (``x``, ``a, *b``), no attribute
    or item of an object that outlives the call."""
    kind = type(target)
    if kind is ast.Name:
        return True
    if kind is ast.Starred:
        return _local_names(target.value)  # type: ignore[attr-defined]
    return kind in (ast.Tuple, ast.List) and all(_local_names(element) for element in target.elts)  # type: ignore[attr-defined]


def _cut(block: list[ast.stmt], reaches: Callable[[ast.AST], bool], skipped: set[int], last_calls: set[int], locals_die: bool) -> None:
    for statement in reversed(block):
        if not reaches(statement):
            skipped.add(id(statement))
            continue
        kind = type(statement)
        if kind is ast.If:
            _cut(statement.body, reaches, skipped, last_calls, locals_die)  # type: ignore[attr-defined]
            _cut(statement.orelse, reaches, skipped, last_calls, locals_die)  # type: ignore[attr-defined]
        elif kind in (ast.With, ast.AsyncWith):
            _cut(statement.body, reaches, skipped, last_calls, locals_die)  # type: ignore[attr-defined]
        elif kind is ast.Try or kind is getattr(ast, "TryStar", None):
            others = [*statement.orelse, *statement.finalbody, *(s for handler in statement.handlers for s in handler.body)]  # type: ignore[attr-defined]
            if not any(reaches(other) for other in others):
                _cut(statement.body, reaches, skipped, last_calls, locals_die)  # type: ignore[attr-defined]
                skipped.update(id(other) for other in others)
        elif (
            kind in (ast.Expr, ast.Return)
            or (locals_die and kind is ast.Assign and all(_local_names(target) for target in statement.targets))  # type: ignore[attr-defined]
            or (locals_die and kind is ast.AnnAssign and type(statement.target) is ast.Name)  # type: ignore[attr-defined]
        ):
            # The call whose value only this statement uses: `f()`, `return
            # f()`, `return f()[0]`, `await f()`, `x = f()` (x is read only
            # by the cut tail, if at all).
            value = statement.value  # type: ignore[attr-defined]
            while type(value) in (ast.Await, ast.Subscript, ast.Attribute):
                value = value.value  # type: ignore[attr-defined]
            if type(value) is ast.Call:
                last_calls.add(id(value))
        return


def hands_on_a_command(function: ast.AST, qualname_of: Callable[[str], str | None]) -> bool:
    """Whether a function runs a command made of what its caller hands it: a
    call that starts a process (:func:`is_process_runner`; ``qualname_of`` resolves a name through the
    module's imports: ``"sp"`` -> ``"subprocess"``) whose command is, or is
    built from, a parameter (``subprocess.Popen(cmd)``, ``cmd = [python, "-m",
    module, *args]``), and does not begin with a program written out that runs
    no other command (``["nvidia-smi", ...]``). A module that spells no SGLang
    launch launches through such a function only: its callers hand it the
    launch (a generic `start(cmd)` helper)."""
    arguments = function.args  # type: ignore[attr-defined]
    tainted = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg) if a is not None}
    if not tainted:
        return False
    nodes = list(_walk_body(function))
    # What is built from a parameter, in two passes (an assignment may come
    # before the one it reads in a loop).
    for _ in range(2):
        for node in nodes:
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None and _mentions(node.value, tainted):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    tainted.update(name.id for name in ast.walk(target) if isinstance(name, ast.Name))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("append", "extend", "insert", "__iadd__") and isinstance(node.func.value, ast.Name):
                if any(_mentions(argument, tainted) for argument in node.args):
                    tainted.add(node.func.value.id)
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        dotted = _dotted(node.func)
        if dotted is None:
            continue
        root, _, rest = dotted.partition(".")
        qualname = qualname_of(root)
        if qualname is None or not is_process_runner(f"{qualname}.{rest}" if rest else qualname):
            continue
        command = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg in ("args", "cmd", "command", "path", "file")), None)
        if command is not None and _mentions(command, tainted) and not _fixed_program(command):
            return True
    return False


# Programs that run another command or a Python module (`python3 -m
# sglang.launch_server`): a command beginning with one written out is still the
# caller's to make.
_RUNNERS = ("python", "sglang", "bash", "sh", "env", "srun", "mpirun", "torchrun", "numactl", "taskset", "nohup", "timeout", "nsys", "docker", "apptainer", "singularity", "uv", "conda")


def _fixed_program(command: ast.AST) -> bool:
    """A command list written with its program first, one that runs no other
    command (``["nvidia-smi", "-L"]``, ``["kill", str(pid)]``)."""
    if isinstance(command, (ast.List, ast.Tuple)) and command.elts:
        first = command.elts[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            program = first.value.rsplit("/", 1)[-1]
            return not program.startswith(_RUNNERS)
    return False


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(child, ast.Name) and child.id in names for child in ast.walk(node))


def _walk_body(function: ast.AST) -> Iterable[ast.AST]:
    for statement in function.body:  # type: ignore[attr-defined]
        yield from ast.walk(statement)
