"""The CPython differential oracle (issue 16, part 7, the Python half): the real
interpreter is the ground truth.

Three pieces, used by tests/test_oracle_python.py (the shell oracle,
tests/_oracle_shell.py, is the same for bash; ``compare`` and the rest they share
are in tests/_oracle_common.py):

1. ``generate(seed, depth, exclude)`` writes a Python launcher from a small grammar
   of the constructs real launchers use (deterministic for a seed). The
   constructs, by the name each program is tagged with (the per-construct table
   counts programs that use a construct):

   ``cmd_list``        ``cmd = [sys.executable, "-m", "sglang.launch_server",
                       "--disaggregation-mode", role, "--tp-size", str(tp)]``
                       (or ``"python3"`` first)
   ``list_concat``     ``cmd = BASE + [...]`` and ``cmd = cmd + [...]``
   ``plus_eq``         ``cmd += [...]``
   ``append``          ``cmd.append(...)``
   ``extend``          ``cmd.extend([...])`` (of a list or a tuple)
   ``insert``          ``cmd.insert(3, "--trust-remote-code")``
   ``if_chain``        ``if``/``elif``/``else`` on decided conditions, building argv
   ``ternary``         ``cmd += [...] if cond else [...]`` and ``x = a if cond else b``
   ``cond_eq``         ``role == "prefill"`` (and ``tp > 4``-like comparisons)
   ``cond_ne``         ``role != "decode"``
   ``cond_in``         ``role in ("decode",)`` / ``role not in [...]``
   ``cond_not``        ``not role == "prefill"``
   ``cond_bool``       ``and`` / ``or`` of decided conditions
   ``function``        ``def launch(role, tp, port=...)`` called once per role
   ``call_keyword``    such a call with keyword arguments
   ``call_positional`` such a call with positional arguments
   ``for_enumerate``   ``for i, role in enumerate(ROLES[, start=1]):``
   ``for_zip``         ``for role, tp in zip(ROLE_LIST, TPS):``
   ``for_items``       ``for role, cfg in ROLES.items():``
   ``for_keys``        ``for role in ROLES:`` / ``ROLES.keys()`` then ``ROLES[role]``
   ``for_values``      ``for cfg in ROLES.values():`` then ``cfg["role"]``
   ``for_range``       ``for i in range(n):`` indexing a list of roles
   ``for_tuples``      ``for role, tp, port in (("prefill", 8, 30000), ...):``
   ``roles_dict``      ``ROLES = {"prefill": {"tp": 8, "port": 30000}, "decode": {...}}``
   ``fstring``         ``f"--port={port + 1}"``, ``f"--model-path={MODEL}"``
   ``str_int``         ``str(tp)``, ``str(port + i)``
   ``env_get``         ``os.environ.get("X", "8")``
   ``getenv``          ``os.getenv("X", "8")``
   ``env_or``          ``os.getenv("X") or "8"``
   ``env_ternary``     ``page = "64" if os.getenv("X") else "16"`` (an undecided
                       condition choosing a value)
   ``env_branch_list`` ``if os.getenv("X"): cmd.append(...)`` (an undecided
                       condition changing the list)
   ``env_is_none``     such a condition written ``os.getenv("X") is None`` /
                       ``os.environ.get("X") is not None`` (unset, not empty)
   ``env_flag_bool``   ``FLAG = True if os.getenv("X") else False`` or a helper
                       ``try: os.environ[name]; return True / except KeyError:
                       return False``, then ``if [not] FLAG:`` adding an option (a
                       bool True on one way of the decision, False on the other)
   ``env_text_or_empty`` ``TEXT = os.environ.get("X", "")`` (the variable's text, ""
                       when unset), then ``if TEXT:`` / ``if TEXT != "":`` adding
                       ``--page-size TEXT`` (never "" on that way)
   ``env_ternary_symbol`` such a choice between a literal and an environment value
                       (``"64" if os.getenv("X") else PAGE``)
   ``env_int``         ``TP_N = int(os.environ.get("TP", "8"))`` then ``str(TP_N * 2)``,
                       ``f"{TP_N}"``
   ``try_int``         ``try: TRY_N = int("8")`` / ``int(os.environ.get("TP", "8"))`` /
                       ``IDX = sorted({int(g) for g in GPUS}); TRY_N = len(IDX)``
                       ``except ValueError: TRY_N = 3`` (the handler runs only where
                       the variable is set and empty), then ``str(TRY_N)``
   ``str_format``      ``"%d" % tp``, ``"{}".format(tp)``, ``"--port=" + str(port)``
   ``list_comp``       ``cmd += [str(v) for v in ("--dp-size", 4)]`` (and a generator,
                       a filtered comprehension)
   ``common_list``     a module-level ``COMMON = [...]`` added with ``+=``/``extend``/``+``
   ``star_list``       ``cmd = [*cmd, *COMMON]``
   ``list_copy``       ``cmd = list(BASE)`` / ``BASE[:]`` / ``BASE.copy()`` / ``[*BASE]``
   ``dict_get``        ``cfg.get("dp", 1)`` of a role's config (the key there or not)
   ``skip_role``       ``if <cond>: continue`` in a loop, ``return`` in a function
   ``loop_counter``    ``port = 30000`` before a loop, ``port += 10`` at the end of its body
   ``call_defaults``   ``def launch(role, tp=2, port=30000)`` called without some
   ``call_kwargs``     ``launch(**{"role": "decode", "tp": 8, "port": 30001})``
   ``for_enumerate_zip`` ``for i, (role, tp) in enumerate(zip(ROLES, TPS)):``
   ``for_sorted``      ``for role in sorted(ROLES[, reverse=True])`` / ``reversed(list(ROLES))``
   ``env_loop``        ``for role in os.getenv("ROLES", "prefill,decode").split(","):``
                       (a loop sglang-lint cannot unroll; no conditions on the role)
   ``helper_mutate``   ``def add_common_args(c): c.extend([...])`` called on the list
   ``helper_return``   ``def make_cmd(): ...; return cmd`` (a closure) started right away
   ``list_alias``      ``cmd = SHARED`` without a copy, then ``cmd += [...]``: the module's
                       list grows, and the next server gets the options before it
   ``alias_unknown_loop`` ``list_alias`` in a loop sglang-lint does not unroll
   ``string_methods``  ``"-".join(["model", role])``, ``role.upper()``, ``.replace``,
                       ``.strip()``, ``.lower()``
   ``filter_items``    ``[a for a in ("--x", None, "") if a]``, ``[a for a in cmd if a is
                       not None]``, ``cmd += [...] if tp > 2 else []``
   ``path_join``       ``os.path.join("/models", "llama")``
   ``path_join_env``   ``os.path.join(MODEL_DIR, "llama")`` of an environment value
   ``tuple_return``    ``tp, port = settings(role)`` (a function returning a tuple per role)
   ``dict_merge``      ``{**DEFAULTS, "page": 64}``, ``dict(DEFAULTS, page=32)``
   ``dict_to_flags``   ``for k, v in flags.items(): cmd += [f"--{k.replace('_', '-')}", str(v)]``
   ``engine_dict``     ``sglang.Engine(**cfg)`` (issue 19) with ``cfg`` a dict literal of
                       ServerArgs fields (``disaggregation_mode``, ``tp_size``, ``port``,
                       ``page_size``, ...); the runner's ``sglang`` module records the
                       keywords (sorted, ``--name value``) as the argv of a launch
   ``engine_base``     a module-level ``ENGINE_BASE = {...}`` spread into it
                       (``{**ENGINE_BASE, ...}``), a key of it overridden
   ``engine_dict_call`` ``dict(ENGINE_BASE, tp_size=tp)`` / ``dict(tp_size=tp)``
   ``engine_dict_or``  ``ENGINE_BASE | {...}`` and ``cfg |= {...}``
   ``engine_dict_update`` ``cfg.update({...})`` / ``cfg.update(tp_size=tp)``
   ``engine_dict_setitem`` ``cfg["tp_size"] = tp``
   ``engine_dict_return`` ``def make_cfg(): ...; return out`` (a closure) then ``Engine(**make_cfg())``
   ``engine_kw_mix``   ``sglang.Engine(port=port, **cfg)``: keywords by name beside the spread
   ``class_launcher``  a class per server: ``__init__`` keeps role/tp/port, ``command()``
                       builds the argv from ``self.role``, ``start()`` starts it
   ``global_counter``  ``global NEXT_PORT`` ... ``NEXT_PORT += 1`` in the per-role function
   ``with_log``        ``with open("server.log", "w") as log: subprocess.Popen(cmd, stdout=log, ...)``
   ``two_phase``       every argv built first (``cmds.append(cmd)``), then
                       ``for c in cmds: subprocess.Popen(c)``
   ``collect_unknown_loop`` ``two_phase`` in a loop sglang-lint does not unroll
                       (``env_loop``, ``while_loop``)
   ``comprehension_launch`` ``procs += [subprocess.Popen(build_cmd(r, tp, port)) for r, tp, port in ...]``
   ``string_cmd``      the command as one string: ``f"{sys.executable} -m sglang.launch_server
                       --tp-size {tp}"``, ``+= " " + " ".join([...])`` (under a decided
                       condition too), then ``shell=True``/``os.system``/``shlex.split``
   ``env_launch_choice`` ``if os.getenv("X"):`` around the router's launch
   ``popen``           ``subprocess.Popen(cmd)`` (kept in a list of processes too)
   ``subprocess_run``  ``subprocess.run(cmd, check=True)`` / ``subprocess.call(cmd)``
   ``shell_string``    ``subprocess.Popen(" ".join(cmd), shell=True)``
   ``os_system``       ``os.system(" ".join(cmd))``
   ``shell_extras``    a shell string with ``CUDA_VISIBLE_DEVICES=0,1``/``nohup``/``exec`` in
                       front and ``&``/``> server.log 2>&1 &`` behind (``os.system`` or an
                       f-string with ``shell=True``)
   ``bash_c``          ``subprocess.Popen(["bash", "-c", " ".join(cmd)])``
   ``shlex_split``     ``subprocess.Popen(shlex.split(" ".join(cmd)))``
   ``shlex_join``      ``subprocess.Popen(shlex.join(cmd), shell=True)`` (and run/call)
   ``popen_env``       ``subprocess.Popen(cmd, env={**os.environ, ...})``
   ``os_exec``         ``os.execv(sys.executable, router)`` / ``execvp`` / ``execl``, last
   ``main_guard``      ``def main(): ...`` and ``if __name__ == "__main__": main()``
   ``router``          ``[sys.executable, "-m", "sglang_router.launch_router", ...]``

   ``env_split``       ``cmd += os.getenv("EXTRA_ARGS", "--log-level info").split()``
   ``lambda_opt``      ``opt = lambda k, v: [f"--{k}", str(v)]`` then ``cmd += opt("dp-size", tp)``
   ``while_loop``      ``n = 0; while n < 2: role = [...][n]; n += 1; ...`` (not unrolled)
   ``loop_break``      ``if <cond>: break`` after a server started in a loop
   ``list_edit``       ``cmd.pop()``, ``cmd.pop(-2)``, ``del cmd[-2:]``, ``del cmd[1]``,
                       ``cmd.remove(flag)``, ``cmd[3:3] = [flag]``, ``cmd[1] = "-m"``
   ``argparse``        ``cli = parser.parse_args()`` (``--tp``, ``--model`` with defaults),
                       then ``str(cli.tp)``, ``cli.model``
   ``script_args``     ``sys.argv[1] if len(sys.argv) > 1 else "30100"`` (the router's port)

   The unknowns are environment variables, each unset, empty or a value (one read
   by ``int()``: unset or a number), and the script's arguments (none, or a few
   options for the argparse parser).

2. ``run_python(programs)`` runs every program with real CPython
   (``sys.executable``) once per assignment of its unknowns (the covering
   sample of ``Program.assignments``, every combination with ``full=True``).
   Programs are batched, one runner process per core, started under ``-I`` with
   an environment of only ``PATH`` and ``HOME``: the runner (``_RUNNER``)
   replaces ``subprocess.Popen/run/call/check_call/check_output``,
   ``os.system``, ``os.popen``, ``os.exec*`` and ``os.spawn*`` with recorders that
   only append the argv (a shell string split with ``shlex.split``, without its
   redirections, final ``&``, leading assignments and ``nohup``/``exec``; the
   string of ``["bash", "-c", ...]`` likewise) to the run's
   record and return a harmless object (a Popen-like one with ``wait()``,
   ``poll()``, ``pid``, ``returncode`` 0, ``communicate()``; an ``exec`` ends the
   program), then runs each program as ``__main__`` (as ``runpy.run_path``, compiled once) in a
   fresh namespace, in the runner's own directory, with ``os.environ`` reset to
   the run's variables. A runner that does not end in time is killed (its process
   group) and the run that hung is named (``PythonHung``). A program that
   raises fails the run as a generator bug. Nothing but the programs generated
   here (and the tests' own) is ever executed.

3. ``check_programs`` compares sglang-lint's launches with the recorded argv
   (``_oracle_common.compare``: an argv's first word is the interpreter, and
   what follows ``-m sglang.launch_server`` must be covered by a reported launch;
   ``$X`` symbols are evaluated under the run's environment).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import shutil
from typing import Iterable, Sequence

import _oracle_common as _common
from _oracle_common import Call, Comparison, Program, Run, check
from sglang_lint.model import ArgToken, EntryPoint, Value
from sglang_lint.sources.python import analyze_python

CONSTRUCTS = (
    "cmd_list",
    "list_concat",
    "plus_eq",
    "append",
    "extend",
    "insert",
    "if_chain",
    "ternary",
    "cond_eq",
    "cond_ne",
    "cond_in",
    "cond_not",
    "cond_bool",
    "function",
    "call_keyword",
    "call_positional",
    "for_enumerate",
    "for_zip",
    "for_items",
    "for_keys",
    "for_values",
    "for_range",
    "for_tuples",
    "roles_dict",
    "fstring",
    "str_int",
    "env_get",
    "getenv",
    "env_or",
    "env_ternary",
    "env_branch_list",
    "env_is_none",
    "env_flag_bool",
    "env_text_or_empty",
    "popen",
    "subprocess_run",
    "shell_string",
    "os_system",
    "shlex_split",
    "main_guard",
    "router",
    "env_int",
    "try_int",
    "str_format",
    "list_comp",
    "common_list",
    "star_list",
    "list_copy",
    "dict_get",
    "skip_role",
    "loop_counter",
    "call_defaults",
    "call_kwargs",
    "for_enumerate_zip",
    "for_sorted",
    "shlex_join",
    "popen_env",
    "os_exec",
    "env_loop",
    "env_ternary_symbol",
    "helper_mutate",
    "helper_return",
    "list_alias",
    "string_methods",
    "filter_items",
    "path_join",
    "tuple_return",
    "dict_merge",
    "dict_to_flags",
    "class_launcher",
    "global_counter",
    "path_join_env",
    "with_log",
    "two_phase",
    "comprehension_launch",
    "string_cmd",
    "env_launch_choice",
    "collect_unknown_loop",
    "argparse",
    "script_args",
    "env_split",
    "lambda_opt",
    "while_loop",
    "loop_break",
    "list_edit",
    "shell_extras",
    "bash_c",
    "alias_unknown_loop",
    "engine_dict",
    "engine_base",
    "engine_dict_call",
    "engine_dict_or",
    "engine_dict_update",
    "engine_dict_setitem",
    "engine_dict_return",
    "engine_kw_mix",
)

# ---------------------------------------------------------------------------------
# Programs

_ROLES = ("prefill", "decode")
_ENV_POOLS = {
    "number": ("TP", "TP_SIZE", "SGL_TP", "DP_SIZE", "PAGE_SIZE", "BASE_PORT", "NUM_GPUS"),
    "path": ("MODEL", "MODEL_PATH", "MODEL_DIR", "CKPT"),
    "flag": ("DPA", "ENABLE_DPA", "USE_DP_ATTN", "BIG_PAGES", "DEBUG"),
}
_NUMBERS = ("1", "2", "4", "8", "16", "64")
_PATHS = ("/models/llama", "deepseek-ai/DeepSeek-V3", "/data/ckpt", "Qwen/Qwen2-7B")
_CMD_NAMES = ("cmd", "args", "argv", "launch_cmd", "server_cmd", "command")
_FUNC_NAMES = ("launch", "start_server", "run_role", "serve", "launch_one")
_ROLE_NAMES = ("role", "mode", "r", "role_name")
_FLAGS = ("--trust-remote-code", "--enable-metrics", "--skip-server-warmup", "--enable-dp-attention", "--log-requests")


class _Gen:
    def __init__(self, seed: int, depth: int, exclude: frozenset[str]) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.max_depth = depth
        self.exclude = exclude
        self.used: set[str] = set()
        self.env: dict[str, tuple[str, str]] = {}  # constant name -> (kind, variable)
        self.domains: dict[str, tuple[str | None, ...]] = {}
        self.header: list[str] = []
        self.lists: set[str] = set()  # module-level lists defined in the header
        self.collecting = False  # building the argv of every server before starting any
        self.cli = False  # an argparse parser in the header
        self.argv = False  # sys.argv read
        self.fresh = 0
        self.engine_base: list[tuple[str, str]] = []  # the fields of ENGINE_BASE, once written

    def ok(self, construct: str) -> bool:
        return construct not in self.exclude

    def tag(self, *constructs: str) -> None:
        self.used.update(constructs)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def new(self, pool) -> str:
        self.fresh += 1
        return f"{self.pick(pool)}{self.fresh}"

    def fresh_name(self, prefix: str) -> str:
        """A name no other part of the program uses."""
        self.fresh += 1
        return f"{prefix}{self.fresh - 1}"

    # -- the environment -------------------------------------------------------
    def env_constant(self, kind: str) -> str | None:
        """A module constant read from an environment variable of ``kind`` (with a
        default: never None), defined in the header; None when excluded."""
        for constant, (k, _) in self.env.items():
            if k == kind and kind != "flag":
                return constant
        forms = [f for f in ("env_get", "getenv", "env_or") if self.ok(f)]
        if not forms or len(self.env) >= 3:
            return None
        variable = self.pick(_ENV_POOLS[kind])
        if variable in self.domains:
            return None
        form = self.pick(forms)
        self.tag(form)
        default = self.pick(_NUMBERS) if kind == "number" else self.pick(_PATHS)
        if kind == "number":
            self.domains[variable] = (None, "", self.pick(("4", "16")))
        else:
            self.domains[variable] = (None, "", self.pick(_PATHS))
        constant = variable if self.chance(0.6) else f"{variable}_VALUE"
        if form == "env_get":
            self.header.append(f'{constant} = os.environ.get("{variable}", "{default}")')
        elif form == "getenv":
            self.header.append(f'{constant} = os.getenv("{variable}", "{default}")')
        else:
            self.header.append(f'{constant} = os.getenv("{variable}") or "{default}"')
        self.env[constant] = (kind, variable)
        return constant

    def env_int(self) -> str | None:
        """A module constant ``int(os.environ.get("TP", "8"))`` (its variable unset
        or a number: never empty)."""
        for constant, (k, _) in self.env.items():
            if k == "int":
                return constant
        if not self.ok("env_int") or len(self.domains) >= 3:
            return None
        variable = self.pick(_ENV_POOLS["number"])
        if variable in self.domains:
            return None
        self.tag("env_int")
        self.domains[variable] = (None, self.pick(("4", "16")))
        constant = f"{variable}_N"
        default = self.pick(_NUMBERS)
        read = self.pick((f'os.environ.get("{variable}", "{default}")', f'os.getenv("{variable}", {default})', f'os.environ.get("{variable}") or {default}'))
        self.header.append(f"{constant} = int({read})")
        self.env[constant] = ("int", variable)
        return constant

    def try_int(self) -> str | None:
        """A module constant made by ``int()`` in a ``try`` whose ``except
        ValueError`` sets another number: of a literal or of known numbers (the
        body cannot raise: no path takes the handler), or of an environment
        variable (unset, empty or a number: the handler runs where it is empty)."""
        for constant, (k, _) in self.env.items():
            if k == "try":
                return constant
        if not self.ok("try_int") or len(self.env) >= 3:
            return None
        form = self.pick(("literal", "indices", "env"))
        constant = self.fresh_name("TRY_N")
        variable = ""
        if form == "env":
            variable = self.pick(_ENV_POOLS["number"])
            if variable in self.domains or len(self.domains) >= 3:
                return None
            self.domains[variable] = (None, "", self.pick(("4", "16")))
            body = [f'{constant} = int(os.environ.get("{variable}", "{self.pick(_NUMBERS)}"))']
        elif form == "indices":
            gpus = self.fresh_name("GPUS")
            self.header.append(f"{gpus} = range({self.pick(('1', '2', '4'))})")
            body = [f"{gpus}_SORTED = sorted({{int(g) for g in {gpus}}})", f"{constant} = len({gpus}_SORTED)"]
        else:
            body = [f'{constant} = int("{self.pick(_NUMBERS)}")']
        self.tag("try_int")
        # (a number no body makes: a handler run where CPython runs none shows)
        self.header += ["try:", *(f"    {line}" for line in body), "except ValueError:", f"    {constant} = 3"]
        self.env[constant] = ("try", variable)
        return constant

    def flag_variable(self) -> str | None:
        """A flag variable unset, empty or set in the runs (None: the program
        has its three variables already)."""
        variable = self.pick(_ENV_POOLS["flag"])
        if variable not in self.domains:
            if len(self.domains) >= 3:
                return None
            self.domains[variable] = (None, "", "1")
        return variable

    def env_flag(self) -> str | None:
        """A test of an environment variable (an undecided condition)."""
        variable = self.pick(_ENV_POOLS["flag"])
        if variable not in self.domains:
            if len(self.domains) >= 3:
                return None
            self.domains[variable] = (None, "1") if self.chance(0.6) else (None, "", "1")
        forms = [
            f'os.getenv("{variable}")',
            f'os.environ.get("{variable}")',
            f'os.environ.get("{variable}") == "1"',
            f'"{variable}" in os.environ',
        ]
        if self.ok("env_is_none"):
            forms += [f'os.getenv("{variable}") is None', f'os.environ.get("{variable}") is not None']
        test = self.pick(forms)
        if " is " in test:
            self.tag("env_is_none")
        return test

    # -- values and conditions -------------------------------------------------
    def number_expr(self, ctx: dict) -> str:
        """An expression whose value is a decimal string."""
        choices = ["literal"]
        if ctx.get("tp"):
            choices += ["tp", "tp"]
        if ctx.get("port"):
            choices.append("port")
        if self.ok("env_get") or self.ok("getenv") or self.ok("env_or"):
            choices.append("env")
        if self.ok("argparse") and self.chance(0.1):
            choices.append("cli")
        choice = self.pick(choices)
        if choice == "cli":
            self.tag("argparse")
            self.parser()
            return self.pick(("str(cli.tp)", "str(cli.tp * 2)", 'f"{cli.tp}"'))
        if choice == "tp" and self.ok("str_format") and self.chance(0.3):
            self.tag("str_format")
            return self.pick(('"%d" % {0}', '"{{}}".format({0})', '"%s" % ({0},)', 'f"{{{0}}}"')).format(ctx["tp"])
        if choice == "tp" and self.ok("str_int"):
            self.tag("str_int")
            return f"str({ctx['tp']})"
        if choice == "port" and self.ok("str_int"):
            self.tag("str_int")
            return f"str({ctx['port']} + {self.rng.randrange(3)})"
        if choice == "env":
            if self.ok("try_int") and self.chance(0.15):
                constant = self.try_int()
                if constant is not None:
                    return self.pick((f"str({constant})", f'f"{{{constant}}}"'))
            if self.chance(0.3):
                constant = self.env_int()
                if constant is not None:
                    return self.pick((f"str({constant})", f"str({constant} * 2)", f"str({constant} // 2 + 1)", f'f"{{{constant}}}"'))
            constant = self.env_constant("number")
            if constant is not None:
                return constant
        return f'"{self.pick(_NUMBERS)}"'

    def parser(self) -> None:
        """An argparse parser of the script's own arguments (the runs pass none,
        ``--tp 4``, ``--model /data/ckpt --tp 2``)."""
        if not self.cli:
            self.cli = True
            self.header += [
                "import argparse",
                "parser = argparse.ArgumentParser()",
                'parser.add_argument("--tp", type=int, default=8)',
                'parser.add_argument("--model", default="/models/llama")',
                "cli = parser.parse_args()",
            ]

    def path_expr(self) -> str:
        if self.ok("argparse") and self.chance(0.1):
            self.tag("argparse")
            self.parser()
            return "cli.model"
        if self.chance(0.5):
            constant = self.env_constant("path")
            if constant is not None:
                return constant
        return f'"{self.pick(_PATHS)}"'

    def option_items(self, ctx: dict, count: int | None = None) -> list[str]:
        """Items (Python expressions) of a few options."""
        count = count if count is not None else self.rng.randint(1, 3)
        items: list[str] = []
        for _ in range(count):
            kind = self.rng.randrange(6)
            if kind == 0:
                items += ['"--model-path"', self.path_expr()]
            elif kind == 1:
                items += [f'"{self.pick(("--dp-size", "--page-size", "--chunked-prefill-size", "--max-running-requests"))}"', self.number_expr(ctx)]
            elif kind == 2:
                items.append(f'"{self.pick(_FLAGS)}"')
            elif kind == 3 and self.ok("fstring"):
                self.tag("fstring")
                if ctx.get("port") and self.chance(0.5):
                    items.append(f'f"--port={{{ctx["port"]} + {self.rng.randrange(1, 4)}}}"')
                else:
                    path = self.env_constant("path") if self.chance(0.6) else None
                    if path is not None:
                        items.append(f'f"--model-path={{{path}}}"')
                    else:
                        items.append(f'f"--host={self.pick(("0.0.0.0", "127.0.0.1"))}"')
            elif kind == 4:
                items += ['"--host"', f'"{self.pick(("0.0.0.0", "127.0.0.1"))}"']
            else:
                items += ['"--mem-fraction-static"', f'"{self.pick(("0.8", "0.85", "0.9"))}"']
        return items

    def condition(self, ctx: dict) -> str:
        """A condition the analyzer can decide (on the role, tp, known values)."""
        role = ctx["role"]
        forms = []
        if self.ok("cond_eq"):
            forms.append("eq")
        if self.ok("cond_ne"):
            forms.append("ne")
        if self.ok("cond_in"):
            forms.append("in")
        if self.ok("cond_not"):
            forms.append("not")
        if not forms:
            forms.append("eq_untagged")
        form = self.pick(forms)
        if form == "eq" and ctx.get("tp") and self.chance(0.3):
            self.tag("cond_eq")
            text = f"{ctx['tp']} {self.pick(('>', '>=', '<', '=='))} {self.pick((4, 8))}"
        elif form in ("eq", "eq_untagged"):
            if form == "eq":
                self.tag("cond_eq")
            text = f'{role} == "{self.pick(_ROLES)}"'
        elif form == "ne":
            self.tag("cond_ne")
            text = f'{role} != "{self.pick(_ROLES)}"'
        elif form == "in":
            self.tag("cond_in")
            members = self.pick((('"decode"',), ('"prefill"', '"mixed"'), ('"prefill"', '"decode"')))
            container = self.pick((f"({', '.join(members)},)", f"[{', '.join(members)}]", "{" + ", ".join(members) + "}"))
            text = f"{role} {self.pick(('in', 'not in'))} {container}"
        else:
            self.tag("cond_not")
            text = f'not {role} == "{self.pick(_ROLES)}"'
        if self.ok("cond_bool") and self.chance(0.25):
            self.tag("cond_bool")
            other = f'{role} {self.pick(("==", "!="))} "{self.pick(_ROLES)}"'
            text = f"{text} {self.pick(('and', 'or'))} {other}"
        return text

    # -- building the argv -----------------------------------------------------
    def add(self, cmd: str, items: list[str], indent: str) -> list[str]:
        """Statements that add ``items`` at the end of list ``cmd``."""
        forms = [f for f in ("plus_eq", "append", "extend", "list_concat") if self.ok(f)]
        if not forms:
            return []
        form = self.pick(forms)
        self.tag(form)
        joined = ", ".join(items)
        if form == "plus_eq":
            return [f"{indent}{cmd} += [{joined}]"]
        if form == "append":
            return [f"{indent}{cmd}.append({item})" for item in items]
        if form == "extend":
            return [f"{indent}{cmd}.extend([{joined}])" if self.chance(0.7) else f"{indent}{cmd}.extend(({joined},))"]
        return [f"{indent}{cmd} = {cmd} + [{joined}]"]

    def additions(self, cmd: str, ctx: dict, indent: str, depth: int) -> list[str]:
        lines: list[str] = []
        for _ in range(self.rng.randint(1, 3)):
            kind = self.rng.randrange(26)
            if kind >= 10:
                lines += self.more(cmd, ctx, indent, kind)
            elif kind <= 2 or depth >= self.max_depth + 1 or (ctx.get("undecided") and kind <= 6):
                lines += self.add(cmd, self.option_items(ctx), indent)
            elif kind <= 4 and self.ok("if_chain"):
                self.tag("if_chain")
                lines.append(f"{indent}if {self.condition(ctx)}:")
                lines += self.additions(cmd, ctx, indent + "    ", depth + 1) or [indent + "    pass"]
                if self.chance(0.4):
                    lines.append(f"{indent}elif {self.condition(ctx)}:")
                    lines += self.additions(cmd, ctx, indent + "    ", depth + 1) or [indent + "    pass"]
                if self.chance(0.5):
                    lines.append(f"{indent}else:")
                    lines += self.additions(cmd, ctx, indent + "    ", depth + 1) or [indent + "    pass"]
            elif kind == 5 and self.ok("ternary"):
                self.tag("ternary")
                if self.chance(0.5) and self.ok("plus_eq"):
                    self.tag("plus_eq")
                    a = ", ".join(self.option_items(ctx, 1))
                    b = ", ".join(self.option_items(ctx, 1)) if self.chance(0.7) else ""
                    lines.append(f"{indent}{cmd} += [{a}] if {self.condition(ctx)} else [{b}]")
                else:
                    name = self.fresh_name("value")
                    lines.append(f'{indent}{name} = "{self.pick(_NUMBERS)}" if {self.condition(ctx)} else {self.number_expr(ctx)}')
                    lines += self.add(cmd, [f'"{self.pick(("--dp-size", "--page-size", "--cuda-graph-max-bs"))}"', name], indent)
            elif kind == 6 and self.ok("insert"):
                self.tag("insert")
                lines.append(f'{indent}{cmd}.insert(3, "{self.pick(_FLAGS)}")')
            elif kind == 7 and self.ok("env_ternary"):
                test = self.env_flag()
                if test is None:
                    continue
                self.tag("env_ternary")
                name = self.fresh_name("page")
                a, b = (f'"{n}"' for n in self.rng.sample(_NUMBERS, 2))
                if self.ok("env_ternary_symbol") and self.chance(0.3):
                    constant = self.env_constant("number")
                    if constant is not None:
                        self.tag("env_ternary_symbol")
                        b = constant
                lines.append(f"{indent}{name} = {a} if {test} else {b}")
                lines += self.add(cmd, ['"--page-size"', name], indent)
            elif kind == 8 and self.ok("env_branch_list"):
                test = self.env_flag()
                if test is None:
                    continue
                self.tag("env_branch_list")
                lines.append(f"{indent}if {test}:")
                lines += self.add(cmd, [f'"{self.pick(_FLAGS)}"'], indent + "    ") or [indent + "    pass"]
            else:
                lines += self.add(cmd, self.option_items(ctx), indent)
        return lines

    def common(self) -> str:
        """A module-level list of options every server gets."""
        if "COMMON" not in self.lists:
            self.lists.add("COMMON")
            self.header.append(f"COMMON = [{', '.join(self.option_items({}, self.rng.randint(1, 2)))}]")
        return "COMMON"

    def more(self, cmd: str, ctx: dict, indent: str, kind: int) -> list[str]:
        """Rarer ways of adding to the argv."""
        if kind == 10 and self.ok("list_comp"):
            self.tag("list_comp")
            number = self.pick(_NUMBERS)
            return [
                self.pick(
                    (
                        f'{indent}{cmd} += [str(v) for v in ("--dp-size", {number})]',
                        f'{indent}{cmd}.extend(str(v) for v in ["--page-size", {number}])',
                        f'{indent}{cmd} += [f"--{{k}}" for k in ("enable-metrics", "log-requests") if k != "log-requests"]',
                    )
                )
            ]
        if kind == 11 and self.ok("common_list"):
            self.tag("common_list")
            common = self.common()
            if self.ok("star_list") and self.chance(0.4):
                self.tag("star_list")
                return [self.pick((f"{indent}{cmd} = [*{cmd}, *{common}]", f'{indent}{cmd} = [*{cmd}, "--log-level", "info", *{common}]'))]
            return [self.pick((f"{indent}{cmd} += {common}", f"{indent}{cmd}.extend({common})", f"{indent}{cmd} = {cmd} + {common}"))]
        if kind == 12 and self.ok("dict_get") and ctx.get("cfg"):
            self.tag("dict_get")
            return self.add(cmd, ['"--dp-size"', f'str({ctx["cfg"]}.get("dp", 1))'], indent)
        if kind == 13 and self.ok("str_format") and ctx.get("port"):
            self.tag("str_format")
            return self.add(cmd, [self.pick(('"--port=" + str({0})', '"--port=%d" % {0}', '"--port={{}}".format({0})')).format(ctx["port"])], indent)
        if kind == 14 and self.ok("helper_mutate"):
            self.tag("helper_mutate")
            if "add_common_args" not in self.lists:
                self.lists.add("add_common_args")
                body = self.pick(("c.extend([{0}])", "c += [{0}]", "c[len(c):] = [{0}]" if False else "c.append({1})"))
                items = self.option_items({}, 1)
                self.header += ["", "", "def add_common_args(c):", "    " + body.format(", ".join(items), items[0]), "", ""]
            return [f"{indent}add_common_args({cmd})"]
        if kind == 15 and self.ok("string_methods"):
            self.tag("string_methods")
            role = ctx.get("role") or '"server"'
            return self.add(
                cmd,
                self.pick(
                    (
                        ['"--served-model-name"', f'"-".join(["model", {role}])'],
                        [f'f"--served-model-name={{{role}.upper()}}"'],
                        ['"--log-level"', '"INFO".lower()'],
                        ['"--served-model-name"', f'{role}.replace("de", "DE").strip()'],
                    )
                ),
                indent,
            )
        if kind == 16 and self.ok("filter_items"):
            self.tag("filter_items")
            flag = self.pick(_FLAGS)
            if ctx.get("tp") and not ctx.get("undecided") and self.chance(0.5):
                return [f'{indent}{cmd} += ["--dp-size", str({ctx["tp"]})] if {ctx["tp"]} > 2 else []']
            return [f'{indent}{cmd} += [a for a in ("{flag}", None, "") if a]', f"{indent}{cmd} = [a for a in {cmd} if a is not None]"][: self.rng.randint(1, 2)]
        if kind == 17 and self.ok("path_join"):
            self.tag("path_join")
            directory = self.env_constant("path") if self.ok("path_join_env") and self.chance(0.4) else None
            if directory is not None:
                self.tag("path_join_env")
            directory = directory or f'"{self.pick(("/models", "/data/ckpt"))}"'
            return self.add(cmd, ['"--model-path"', f'os.path.join({directory}, "{self.pick(("llama", "DeepSeek-V3"))}")'], indent)
        if kind == 18 and self.ok("tuple_return") and ctx.get("role"):
            self.tag("tuple_return")
            if "settings" not in self.lists:
                self.lists.add("settings")
                self.header += ["", "", "def settings(role):", '    if role == "prefill":', "        return 8, 30000", '    return (4, 30001) if role == "decode" else (1, 30002)', "", ""]
            a, b = f"tp{self.fresh}", f"port{self.fresh}"
            self.fresh += 1
            return [f"{indent}{a}, {b} = settings({ctx['role']})"] + self.add(cmd, ['"--cuda-graph-max-bs"', f"str({a})", f'f"--port={{{b}}}"'], indent)
        if kind == 19 and self.ok("dict_merge"):
            self.tag("dict_merge")
            if "DEFAULTS" not in self.lists:
                self.lists.add("DEFAULTS")
                self.header.append('DEFAULTS = {"mem": "0.8", "page": 16}')
            opts = self.fresh_name("opts")
            merged = self.pick(("{**DEFAULTS, \"page\": 64}", "dict(DEFAULTS, page=32)", "{**DEFAULTS}", "{**DEFAULTS, **{\"mem\": \"0.9\"}}"))
            return [f"{indent}{opts} = {merged}"] + self.add(cmd, ['"--page-size"', f'str({opts}["page"])', '"--mem-fraction-static"', f'{opts}["mem"]'], indent)
        if kind == 21 and self.ok("env_split") and "EXTRA_ARGS" not in self.domains and len(self.domains) < 3:
            self.tag("env_split")
            self.domains["EXTRA_ARGS"] = (None, "", "--page-size 32 --enable-metrics")
            default = self.pick(("", "--log-level info", "--trust-remote-code"))
            return [f'{indent}{cmd} += os.getenv("EXTRA_ARGS", "{default}").split()']
        if kind == 22 and self.ok("lambda_opt"):
            self.tag("lambda_opt")
            if "opt" not in self.lists:
                self.lists.add("opt")
                self.header.append('opt = lambda k, v: [f"--{k}", str(v)]')
            value = ctx.get("tp") or self.pick(_NUMBERS)
            return [f'{indent}{cmd} += opt("{self.pick(("dp-size", "page-size", "cuda-graph-max-bs"))}", {value})']
        if kind == 23 and self.ok("list_edit"):
            self.tag("list_edit")
            flag = self.pick(_FLAGS)
            return [
                f"{indent}{line}"
                for line in self.pick(
                    (
                        [f'{cmd}.append("--tmp")', f"{cmd}.pop()"],
                        [f'{cmd} += ["--tmp", "1"]', f"del {cmd}[-2:]"],
                        [f'{cmd} += ["--tmp", "1", "{flag}"]', f"del {cmd}[-3]", f"{cmd}.pop(-2)"],
                        [f'{cmd}.append("{flag}")', f'{cmd}.remove("{flag}")'],
                        [f'{cmd}[3:3] = ["{flag}"]'],
                        [f'{cmd}.insert(1, "-u")', f"del {cmd}[1]"],
                        [f'{cmd}[1] = "-m"'],
                    )
                )
            ]
        if kind == 24 and self.ok("env_flag_bool"):
            # A flag that is True on one way of an environment decision and
            # False on the other: `True if <test> else False`, or a helper
            # whose `try: os.environ[name]` returns True, its KeyError False.
            variable = self.flag_variable()
            if variable is None:
                return []
            self.tag("env_flag_bool")
            if self.chance(0.5):
                if "is_set" not in self.lists:
                    self.lists.add("is_set")
                    self.header += ["", "", "def is_set(name):", "    try:", "        os.environ[name]", "        return True", "    except KeyError:", "        return False", "", ""]
                test = f'is_set("{variable}")'
            else:
                flag = self.fresh_name("flag")
                self.header.append(f'{flag} = True if os.getenv("{variable}") else False')
                test = flag
            negate = "not " if self.chance(0.5) else ""
            return [f"{indent}if {negate}{test}:", *(self.add(cmd, [f'"{self.pick(_FLAGS)}"'], indent + "    ") or [indent + "    pass"])]
        if kind == 25 and self.ok("env_text_or_empty"):
            # An environment variable's text, "" when unset, added only where
            # it is not empty: on that way its "" is not what it holds.
            variable = self.flag_variable()
            if variable is None:
                return []
            self.tag("env_text_or_empty")
            text = self.fresh_name("text")
            self.header.append(f'{text} = os.environ.get("{variable}", "")' if self.chance(0.5) else f'{text} = os.getenv("{variable}", "")')
            test = f'{text} != ""' if self.chance(0.5) else text
            return [f"{indent}if {test}:", *(self.add(cmd, ['"--page-size"', text], indent + "    ") or [indent + "    pass"])]
        if kind == 20 and self.ok("dict_to_flags"):
            self.tag("dict_to_flags")
            flags = self.fresh_name("flags")
            entries = self.pick(('{"page_size": 16, "dp_size": 2}', '{"mem_fraction_static": "0.8"}', '{"chunked_prefill_size": 4096, "page_size": 64}'))
            key = self.pick(("k", "key", "name"))
            return [
                f"{indent}{flags} = {entries}",
                f"{indent}for {key}, v in {flags}.items():",
                self.pick((f'{indent}    {cmd} += [f"--{{{key}.replace(\'_\', \'-\')}}", str(v)]', f'{indent}    {cmd}.extend(["--" + {key}.replace("_", "-"), str(v)])')),
            ]
        return self.add(cmd, self.option_items(ctx), indent)

    def head(self, ctx: dict) -> list[str]:
        """The first items of a server argv."""
        python = "sys.executable" if self.chance(0.8) else '"python3"'
        items = [python, '"-m"', '"sglang.launch_server"']
        if ctx.get("role"):
            items += ['"--disaggregation-mode"', ctx["role"]]
        if ctx.get("tp"):
            if self.ok("str_int") and self.chance(0.7):
                self.tag("str_int")
                items += ['"--tp-size"', f"str({ctx['tp']})"]
            elif self.ok("fstring"):
                self.tag("fstring")
                items.append(f'f"--tp-size={{{ctx["tp"]}}}"')
        return items

    def launch(self, cmd: str, indent: str) -> list[str]:
        """The statement that starts the process of list ``cmd``."""
        forms = [f for f in ("popen", "subprocess_run", "shell_string", "os_system", "shlex_split", "shlex_join", "popen_env", "with_log", "shell_extras", "bash_c") if self.ok(f)]
        form = self.pick(forms)
        self.tag(form)
        if form == "popen":
            if self.chance(0.5):
                return [f"{indent}procs.append(subprocess.Popen({cmd}))"]
            return [f"{indent}subprocess.Popen({cmd})"]
        if form == "subprocess_run":
            return [f"{indent}{self.pick(('subprocess.run({0}, check=True)', 'subprocess.call({0})', 'subprocess.check_call({0})')).format(cmd)}"]
        if form == "shell_string":
            return [f'{indent}subprocess.Popen(" ".join({cmd}), shell=True)']
        if form == "os_system":
            return [f'{indent}os.system(" ".join({cmd}))']
        if form == "shlex_join":
            return [f"{indent}subprocess.{self.pick(('Popen', 'run', 'call'))}(shlex.join({cmd}), shell=True)"]
        if form == "shell_extras":
            prefix = self.pick(("", "CUDA_VISIBLE_DEVICES=0,1 ", "nohup ", "exec ", 'NCCL_DEBUG=INFO nohup '))
            suffix = self.pick(("", " &", " > server.log 2>&1 &", " >/dev/null 2>&1"))
            if self.chance(0.5):
                return [f'{indent}os.system("{prefix}" + " ".join({cmd}) + "{suffix}")']
            return [f'{indent}subprocess.Popen(f"{prefix}{{\' \'.join({cmd})}}{suffix}", shell=True)']
        if form == "bash_c":
            return [f'{indent}subprocess.Popen(["{self.pick(("bash", "/bin/bash", "sh"))}", "-c", " ".join({cmd})])']
        if form == "with_log":
            return [f'{indent}with open("server.log", "w") as log:', f"{indent}    subprocess.Popen({cmd}, stdout=log, stderr=subprocess.STDOUT)"]
        if form == "popen_env":
            env = self.pick(('{**os.environ, "CUDA_VISIBLE_DEVICES": "0"}', 'dict(os.environ, NCCL_DEBUG="INFO")', "os.environ.copy()"))
            return [f"{indent}subprocess.Popen({cmd}, env={env})"]
        return [f'{indent}subprocess.Popen(shlex.split(" ".join({cmd})))']

    def build(self, ctx: dict, indent: str, start: bool = True, finish=None) -> list[str]:
        """Build one server argv in ``ctx`` and start it (``start=False``: return it;
        ``finish(cmd, indent)``: the statements that end it instead)."""
        if start and finish is None and self.ok("engine_dict") and self.chance(0.1):
            return self.engine_launch(ctx, indent)
        if finish is None:
            finish = self.launch if start else (lambda cmd, ind: [f"{ind}return {cmd}"])
        if start and self.ok("string_cmd") and self.chance(0.1):
            return self.string_cmd(ctx, indent, finish)
        if start and self.ok("helper_return") and self.chance(0.15):
            # A function that builds the list, called right away.
            self.tag("helper_return")
            name = self.fresh_name("make_cmd")
            lines = [f"{indent}def {name}():"] + self.build(ctx, indent + "    ", start=False)
            return lines + finish(f"{name}()", indent)
        self.tag("cmd_list")
        cmd = self.new(_CMD_NAMES)
        head = self.head(ctx)
        lines: list[str] = []
        if self.ok("list_alias") and (not ctx.get("undecided") or self.ok("alias_unknown_loop")) and self.chance(0.05):
            # No copy: every `+=` goes to the module's list too, and the next
            # server's argv has the last one's options (as CPython runs it).
            self.tag("list_alias")
            if ctx.get("undecided"):
                self.tag("alias_unknown_loop")
            shared = self.fresh_name("SHARED")
            self.header.append(f"{shared} = [{', '.join(head[:3])}]")
            lines.append(f"{indent}{cmd} = {shared}")
            lines.append(f"{indent}{cmd} += [{', '.join(head[3:])}]")
        elif self.ok("list_copy") and self.chance(0.15):
            self.tag("list_copy")
            if "BASE" not in self.lists:
                self.lists.add("BASE")
                self.header.append(f"BASE = [{', '.join(head[:3])}]")
            copy = self.pick(("list(BASE)", "BASE[:]", "BASE.copy()", "[*BASE]"))
            lines.append(f"{indent}{cmd} = {copy}")
            if head[3:]:
                lines += [f"{indent}{cmd} += [{', '.join(head[3:])}]"]
        elif self.ok("list_concat") and self.chance(0.2):
            self.tag("list_concat")
            base = f"base{self.fresh}"
            lines.append(f"{indent}{base} = [{', '.join(head[:3])}]")
            lines.append(f"{indent}{cmd} = {base} + [{', '.join(head[3:])}]")
        else:
            lines.append(f"{indent}{cmd} = [{', '.join(head)}]")
        lines += self.additions(cmd, ctx, indent, 1)
        return lines + finish(cmd, indent)

    def engine_launch(self, ctx: dict, indent: str) -> list[str]:
        """An in-process ``sglang.Engine(**cfg)`` (issue 19): ``cfg`` a dict of
        ServerArgs fields built by one of the dict forms."""
        self.tag("engine_dict")
        if "import sglang" not in self.header:
            self.header.insert(0, "import sglang")
        # (field, expression): the fields that depend on the server, then constants.
        fields = [("disaggregation_mode", ctx["role"])]
        if ctx.get("tp"):
            fields.append(("tp_size", ctx["tp"]))
        if ctx.get("port") and self.chance(0.6):
            fields.append(("port", ctx["port"]))
        constants = [
            ("page_size", self.number_expr({})),
            ("mem_fraction_static", f'"{self.pick(("0.8", "0.85", "0.9"))}"'),
            ("enable_dp_attention", self.pick(("True", "False"))),
            ("model_path", self.path_expr()),
            ("trust_remote_code", "True"),
        ]
        self.rng.shuffle(constants)
        base: list[tuple[str, str]] = []
        if self.ok("engine_base") and self.chance(0.5):
            self.tag("engine_base")
            base = constants[:2]
            if "ENGINE_BASE" not in self.lists:
                self.lists.add("ENGINE_BASE")
                self.header.append("ENGINE_BASE = {" + ", ".join(f'"{k}": {v}' for k, v in base) + "}")
            else:
                base = self.engine_base
            if self.chance(0.4):
                fields.append((base[0][0], self.pick(('"32"', "64", "None"))))  # the later key wins
            constants = [c for c in constants[2:] if c[0] not in {k for k, _ in base}]
        self.engine_base = base
        fields += constants[: self.rng.randint(0, 2)]
        by_name: list[tuple[str, str]] = []
        if len(fields) > 1 and self.ok("engine_kw_mix") and self.chance(0.3):
            self.tag("engine_kw_mix")
            by_name = [fields.pop(self.rng.randrange(1, len(fields)))]
            if by_name[0][0] in {k for k, _ in base}:
                fields.append(by_name.pop())  # a keyword given twice is a TypeError
        cfg = self.fresh_name("cfg")
        literal = "{" + ", ".join((["**ENGINE_BASE"] if base else []) + [f'"{k}": {v}' for k, v in fields]) + "}"
        forms = ["literal"] + [f for f in ("engine_dict_call", "engine_dict_or", "engine_dict_update", "engine_dict_setitem", "engine_dict_return") if self.ok(f)]
        form = self.pick(forms)
        lines: list[str] = []
        if form == "literal":
            lines.append(f"{indent}{cfg} = {literal}")
        else:
            self.tag(form)
            start = self.pick(("dict(ENGINE_BASE)", "{**ENGINE_BASE}", "ENGINE_BASE.copy()")) if base else self.pick(("{}", "dict()"))
            if form == "engine_dict_call":
                keywords = ", ".join(f"{k}={v}" for k, v in fields)
                lines.append(f"{indent}{cfg} = dict(ENGINE_BASE, {keywords})" if base else f"{indent}{cfg} = dict({keywords})")
            elif form == "engine_dict_or":
                entries = "{" + ", ".join(f'"{k}": {v}' for k, v in fields) + "}"
                if self.chance(0.5):
                    lines.append(f"{indent}{cfg} = {'ENGINE_BASE' if base else '{}'} | {entries}")
                else:
                    lines += [f"{indent}{cfg} = {start}", f"{indent}{cfg} |= {entries}"]
            elif form == "engine_dict_update":
                lines.append(f"{indent}{cfg} = {start}")
                if self.chance(0.5):
                    lines.append(f"{indent}{cfg}.update({{" + ", ".join(f'"{k}": {v}' for k, v in fields) + "})")
                else:
                    lines.append(f"{indent}{cfg}.update(" + ", ".join(f"{k}={v}" for k, v in fields) + ")")
            elif form == "engine_dict_setitem":
                lines.append(f"{indent}{cfg} = {start}")
                lines += [f'{indent}{cfg}["{k}"] = {v}' for k, v in fields]
            else:
                make = self.fresh_name("make_cfg")
                lines += [f"{indent}def {make}():", f"{indent}    out = {literal}", f"{indent}    return out"]
                cfg = f"{make}()"
        keywords = [f"{k}={v}" for k, v in by_name]
        if self.chance(0.5):
            arguments = ", ".join([f"**{cfg}", *keywords])
        else:
            arguments = ", ".join([*keywords, f"**{cfg}"])
        return lines + [f"{indent}sglang.Engine({arguments})"]

    def string_cmd(self, ctx: dict, indent: str, finish) -> list[str]:
        """The command as one string: an f-string head, ``+=`` of more options
        (some under a decided condition), started through a shell or shlex.split."""
        self.tag("string_cmd")
        cmd = self.new(("cmd_str", "command_line", "launch_str"))
        head = "{sys.executable} -m sglang.launch_server"
        if ctx.get("role"):
            head += f" --disaggregation-mode {{{ctx['role']}}}"
        if ctx.get("tp"):
            head += f" --tp-size {{{ctx['tp']}}}"
        lines = [f'{indent}{cmd} = f"{head}"']
        for _ in range(self.rng.randint(1, 3)):
            items = self.option_items(ctx, 1)
            added = self.pick((f'{indent}{cmd} += " " + " ".join([{", ".join(items)}])', f'{indent}{cmd} = {cmd} + " " + ' + ' + " " + '.join(items)))
            if ctx.get("role") and not ctx.get("undecided") and self.chance(0.3):
                lines += [f"{indent}if {self.condition(ctx)}:", "    " + added]
            else:
                lines.append(added)
        if finish.__name__ != "launch":
            return lines + finish(f"shlex.split({cmd})", indent)
        return lines + [indent + self.pick((f"subprocess.Popen({cmd}, shell=True)", f"os.system({cmd})", f"subprocess.Popen(shlex.split({cmd}))", f"subprocess.run({cmd} + ' &', shell=True)"))]

    # -- the program's shape ----------------------------------------------------
    def roles(self) -> list[tuple[str, int, int]]:
        """(role, tp, port) of each server to start."""
        count = self.pick((1, 2, 2, 2, 3))
        roles = list(_ROLES) if count == 2 else [self.pick(_ROLES) for _ in range(count)]
        return [(role, int(self.pick(("1", "2", "4", "8"))), 30000 + index) for index, role in enumerate(roles)]

    def skip(self, ctx: dict, indent: str, statement: str) -> list[str]:
        """Maybe skip a role: ``if role == "decode": continue`` (``return`` in a function)."""
        if not self.ok("skip_role") or ctx.get("undecided") or not self.chance(0.15):
            return []
        self.tag("skip_role")
        return [f"{indent}if {self.condition(ctx)}:", f"{indent}    {statement}"]

    def per_role(self, body, indent: str) -> list[str]:
        """Code that runs ``body(ctx, indent)`` once per role: a loop of one of the
        shapes, or calls of a function."""
        servers = self.roles()
        role_name = self.pick(_ROLE_NAMES)
        shapes = [
            s
            for s in ("function", "for_enumerate", "for_zip", "for_items", "for_keys", "for_values", "for_range", "for_tuples", "for_enumerate_zip", "for_sorted", "env_loop", "while_loop")
            if self.ok(s)
        ]
        shape = self.pick(shapes) if shapes else "tuples_untagged"
        if shape == "env_loop" and ("ROLES" in self.domains or len(self.domains) >= 3):
            shape = "for_tuples" if self.ok("for_tuples") else "tuples_untagged"
        if shape in ("env_loop", "while_loop") and self.collecting:
            if self.ok("collect_unknown_loop"):
                self.tag("collect_unknown_loop")
            else:
                shape = "for_tuples" if self.ok("for_tuples") else "tuples_untagged"
        lines: list[str] = []
        inner = indent + "    "
        if shape == "function":
            self.tag("function")
            name = self.pick(_FUNC_NAMES)
            ctx = {"role": role_name, "tp": "tp", "port": "port"}
            defaults = self.ok("call_defaults") and self.chance(0.3)
            counter = None
            if self.ok("global_counter") and self.chance(0.15):
                self.tag("global_counter")
                counter = self.fresh_name("NEXT_PORT")
                self.header.append(f"{counter} = {self.pick((30000, 8000))}")
            lines.append(f"{indent}def {name}({role_name}, tp{'=2' if defaults else ''}, port=30000):")
            if counter is not None:
                lines.append(f"{inner}global {counter}")
                ctx = dict(ctx, port=counter)
            lines += self.skip(ctx, inner, "return")
            lines += body(ctx, inner)
            if counter is not None:
                lines.append(f"{inner}{counter} += 1")
            for role, tp, port in servers:
                style = self.rng.randrange(5)
                if defaults and style == 3:
                    self.tag("call_defaults")
                    lines.append(f'{indent}{name}("{role}")' if self.chance(0.5) else f'{indent}{name}({role_name}="{role}", port={port})')
                elif style == 4 and self.ok("call_kwargs"):
                    self.tag("call_kwargs")
                    lines.append(f'{indent}{name}(**{{"{role_name}": "{role}", "tp": {tp}, "port": {port}}})')
                elif style == 0 and self.ok("call_keyword"):
                    self.tag("call_keyword")
                    lines.append(f'{indent}{name}({role_name}="{role}", tp={tp}, port={port})')
                elif style == 1 and self.ok("call_keyword"):
                    self.tag("call_keyword", "call_positional")
                    lines.append(f'{indent}{name}("{role}", {tp}, port={port})')
                else:
                    self.tag("call_positional")
                    lines.append(f'{indent}{name}("{role}", {tp}, {port})')
            return lines
        if shape != "function" and self.ok("class_launcher") and self.chance(0.1):
            return self.class_launcher(servers, indent)
        if shape != "function" and self.ok("comprehension_launch") and self.chance(0.08):
            return self.comprehension_launch(servers, role_name, indent)
        if shape in CONSTRUCTS:
            self.tag(shape)
        counter = None
        if self.ok("loop_counter") and self.chance(0.2):
            self.tag("loop_counter")
            counter = self.fresh_name("next_port")
            lines.append(f"{indent}{counter} = {self.pick((30000, 8000))}")
        names = ", ".join(f'"{role}"' for role, _, _ in servers)
        if shape in ("for_items", "for_keys", "for_values", "for_sorted"):
            self.tag("roles_dict")
            # A dict has one entry per role.
            unique = {role: (tp, port) for role, tp, port in servers}
            entries = ", ".join(
                f'"{role}": {{"role": "{role}", "tp": {tp}, "port": {port}{", " + repr("dp") + ": " + str(tp) if self.chance(0.5) else ""}}}'.replace("'", '"')
                for role, (tp, port) in unique.items()
            )
            table = self.fresh_name("ROLES")
            lines.append(f"{indent}{table} = {{{entries}}}")
            if shape == "for_items":
                lines.append(f"{indent}for {role_name}, cfg in {table}.items():")
                ctx = {"role": role_name, "tp": "cfg['tp']", "port": "cfg['port']", "cfg": "cfg"}
            elif shape in ("for_keys", "for_sorted"):
                loop = self.pick(("{0}", "{0}.keys()")) if shape == "for_keys" else self.pick(("sorted({0})", "reversed(list({0}))", "sorted({0}, reverse=True)"))
                lines.append(f"{indent}for {role_name} in {loop.format(table)}:")
                ctx = {"role": role_name, "tp": f"{table}[{role_name}]['tp']", "port": f"{table}[{role_name}]['port']", "cfg": f"{table}[{role_name}]"}
            else:
                lines.append(f"{indent}for cfg in {table}.values():")
                lines.append(f"{inner}{role_name} = cfg['role']")
                ctx = {"role": role_name, "tp": "cfg['tp']", "port": "cfg['port']", "cfg": "cfg"}
        elif shape == "env_loop":
            # Roles from the environment: a loop the analyzer cannot unroll, and
            # conditions on the role it cannot decide (the body has none).
            self.domains["ROLES"] = (None, "decode", "prefill,decode")
            split = self.pick(('os.getenv("ROLES", "prefill,decode").split(",")', 'os.environ.get("ROLES", "prefill,decode").split(",")'))
            if self.chance(0.5):
                lines.append(f"{indent}for i, {role_name} in enumerate({split}):")
                ctx = {"role": role_name, "port": "(30000 + i)", "undecided": True}
            else:
                lines.append(f"{indent}for {role_name} in {split}:")
                ctx = {"role": role_name, "undecided": True}
        elif shape == "while_loop":
            # A loop sglang-lint runs some number of times (it does not unroll a while).
            index = self.fresh_name("n")
            lines.append(f"{indent}{index} = 0")
            lines.append(f"{indent}while {index} < {len(servers)}:")
            lines.append(f"{inner}{role_name} = [{names}][{index}]")
            lines.append(f"{inner}{index} += 1")
            ctx = {"role": role_name, "tp": f"({index} * 2)", "undecided": True}
        elif shape == "for_enumerate":
            start = self.pick((0, 1))
            lines.append(f"{indent}for i, {role_name} in enumerate([{names}]{', start=1' if start else ''}):")
            ctx = {"role": role_name, "tp": f"(i + {8 - start})", "port": f"(30000 + i - {start})"}
        elif shape == "for_enumerate_zip":
            tps = ", ".join(str(tp) for _, tp, _ in servers)
            lines.append(f"{indent}for i, ({role_name}, tp) in enumerate(zip(({names},), [{tps}])):")
            ctx = {"role": role_name, "tp": "tp", "port": "(30000 + i)"}
        elif shape == "for_zip":
            tps = ", ".join(str(tp) for _, tp, _ in servers) + (", 99" if self.chance(0.3) else "")
            lines.append(f"{indent}for {role_name}, tp in zip([{names}], ({tps},)):")
            ctx = {"role": role_name, "tp": "tp"}
        elif shape == "for_range":
            start = self.pick((0, 1))
            lines.append(f"{indent}for i in range({start}, {len(servers) + start}):" if start else f"{indent}for i in range({len(servers)}):")
            lines.append(f"{inner}{role_name} = [{names}][i - {start}]" if start else f"{inner}{role_name} = [{names}][i]")
            ctx = {"role": role_name, "tp": "(2 * i + 2)", "port": "(30000 + 10 * i)"}
        else:
            tuples = ", ".join(f'("{role}", {tp}, {port})' for role, tp, port in servers)
            lines.append(f"{indent}for {role_name}, tp, port in ({tuples},):")
            ctx = {"role": role_name, "tp": "tp", "port": "port"}
        if counter is not None:
            ctx["port"] = counter
        lines += self.skip(ctx, inner, "continue")
        lines += body(ctx, inner)
        if counter is not None:
            lines.append(f"{inner}{counter} += {self.pick((1, 2, 10))}")
        if self.ok("loop_break") and not ctx.get("undecided") and self.chance(0.1):
            self.tag("loop_break")
            lines += [f"{inner}if {self.condition(ctx)}:", f"{inner}    break"]
        return lines

    def comprehension_launch(self, servers, role_name: str, indent: str) -> list[str]:
        """``procs = [subprocess.Popen(build_cmd(*s)) for s in SERVERS]``."""
        self.tag("comprehension_launch", "function")
        name = self.fresh_name("build_cmd")
        ctx = {"role": role_name, "tp": "tp", "port": "port"}
        lines = [f"{indent}def {name}({role_name}, tp, port):"] + self.build(ctx, indent + "    ", start=False)
        tuples = ", ".join(f'("{role}", {tp}, {port})' for role, tp, port in servers)
        call = self.pick((f"subprocess.Popen({name}(r, tp, port))", f"subprocess.Popen({name}(r, tp, port=port))"))
        return lines + [f"{indent}procs += [{call} for r, tp, port in ({tuples},)]"]

    def class_launcher(self, servers, indent: str) -> list[str]:
        """A class per server: ``__init__`` keeps the role, a method builds the argv,
        another starts it."""
        self.tag("class_launcher")
        name = self.fresh_name("Server")
        ctx = {"role": "self.role", "tp": "self.tp", "port": "self.port"}
        lines = [
            f"{indent}class {name}:",
            f"{indent}    def __init__(self, role, tp, port=30000):",
            f"{indent}        self.role = role",
            f"{indent}        self.tp = tp",
            f"{indent}        self.port = port",
            "",
            f"{indent}    def command(self):",
        ]
        lines += self.build(ctx, indent + "        ", start=False)
        lines += ["", f"{indent}    def start(self):"] + self.launch("self.command()", indent + "        ")
        objects = ", ".join(f'{name}("{role}", {tp}, port={port})' for role, tp, port in servers)
        lines += [f"{indent}servers = [{objects}]", f"{indent}for server in servers:", f"{indent}    server.start()"]
        return lines

    def router(self, indent: str) -> list[str]:
        self.tag("router")
        port = self.number_expr({})
        if self.ok("script_args") and self.chance(0.15) and not self.cli:
            # The script's own first argument, when it has one.
            self.tag("script_args")
            self.argv = True
            port = self.pick(('sys.argv[1] if len(sys.argv) > 1 else "30100"', '(sys.argv[1:] or ["30100"])[0]'))
        items = ["sys.executable", '"-m"', '"sglang_router.launch_router"', '"--pd-disaggregation"', '"--prefill"', '"http://127.0.0.1:30000"', '"--decode"', '"http://127.0.0.1:30001"', '"--port"', port]
        lines = [f"{indent}router = [{', '.join(items)}]"]
        if self.ok("os_exec") and self.chance(0.3):
            # The program's last statement: an exec replaces the process.
            self.tag("os_exec")
            return lines + [indent + self.pick(("os.execv(sys.executable, router)", "os.execvp(router[0], router)", "os.execl(sys.executable, *router)"))]
        return lines + self.launch("router", indent)

    def program(self) -> Program:
        body: list[str] = []
        wrap = self.ok("main_guard") and self.chance(0.3)
        indent = "    " if wrap else ""
        body.append(f"{indent}procs = []")
        if self.ok("two_phase") and self.chance(0.1):
            # Build every argv first, start them after.
            self.tag("two_phase")
            self.collecting = True
            body.append(f"{indent}cmds = []")
            body += self.per_role(lambda ctx, ind: self.build(ctx, ind, finish=lambda cmd, i: [f"{i}cmds.append({cmd})"]), indent)
            body += [f"{indent}for c in cmds:"] + self.launch("c", indent + "    ")
        else:
            body += self.per_role(lambda ctx, ind: self.build(ctx, ind), indent)
        if self.ok("router") and self.chance(0.3):
            if self.ok("env_launch_choice") and self.chance(0.3):
                test = self.env_flag()
                if test is not None:
                    self.tag("env_launch_choice")
                    body += [f"{indent}if {test}:"] + self.router(indent + "    ")
                else:
                    body += self.router(indent)
            else:
                body += self.router(indent)
        if wrap:
            self.tag("main_guard")
            body = ["def main():"] + body + ["", "", 'if __name__ == "__main__":', "    main()"]
        text = "\n".join(["import os", "import shlex", "import subprocess", "import sys", "", *self.header, "", *body]) + "\n"
        arg_vectors: tuple[tuple[str, ...], ...] = ((),)
        if self.cli:
            arg_vectors = ((), ("--tp", "4"), ("--model", "/data/ckpt", "--tp", "2"))
        elif self.argv:
            arg_vectors = ((), ("30200",))
        return Program(self.seed, text, frozenset(self.used), dict(self.domains), arg_vectors)


def generate(seed: int, depth: int = 1, exclude: Iterable[str] = ()) -> Program:
    """The program of ``seed``; ``exclude``: constructs it may not use."""
    return _Gen(seed, depth, frozenset(exclude)).program()


# ---------------------------------------------------------------------------------
# Running with CPython

# The runner: started under -I with only PATH and HOME, in a directory of its own;
# argv: a plan (JSON: the programs' texts, and the runs as [program number,
# environment]), where to write the results. It prints the number of each run
# as it starts it (what hung, if one does). Every way a program could start a
# process is a recorder.
_RUNNER = r'''
import builtins, io, json, os, re, shlex, subprocess, sys

plan_path, results_path = sys.argv[1:3]
BASE_ENV = dict(os.environ)
calls = []


class Exec(BaseException):
    """An exec: the program ends here."""


def record(args, shell=False):
    """Append the argv of a process start: a shell string split by shlex."""
    if isinstance(args, (bytes, str, os.PathLike)):
        args = [os.fsdecode(args)] if not shell else shell_words(shlex.split(os.fsdecode(args)))
    else:
        args = [os.fsdecode(a) for a in args]
        if shell:
            args = shell_words(shlex.split(args[0])) if args else []
        elif len(args) >= 3 and os.path.basename(args[0]) in ("bash", "sh") and args[1] == "-c":
            args = shell_words(shlex.split(args[2]))  # what the shell runs
    calls.append(args)


REDIRECTION = re.compile(r"^[0-9]*(>>|>&|>|<|&>)")


def shell_words(words):
    """The argv of a simple shell command split by shlex: without its
    redirections (``> log``, ``2>&1``), a final ``&``, leading ``NAME=value``
    assignments and an ``exec``/``nohup`` in front."""
    while words and (re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]) or words[0] in ("exec", "nohup")):
        words = words[1:]
    argv = []
    index = 0
    while index < len(words):
        word = words[index]
        found = REDIRECTION.match(word)
        if found:
            index += 2 if found.end() == len(word) and found.group(1) != ">&" else 1
            continue
        if word == "&" and index == len(words) - 1:
            break
        argv.append(word)
        index += 1
    return argv


class Popen:
    def __init__(self, args, *rest, shell=False, **kwargs):
        record(args, shell)
        self.args = args
        self.pid = 12345
        self.returncode = 0
        self.stdin = self.stdout = self.stderr = None

    def wait(self, timeout=None):
        return 0

    def poll(self):
        return 0

    def communicate(self, input=None, timeout=None):
        return (None, None)

    def kill(self):
        pass

    terminate = kill

    def send_signal(self, signal):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def run(args, *rest, shell=False, **kwargs):
    record(args, shell)
    output = "" if kwargs.get("text") or kwargs.get("universal_newlines") or kwargs.get("encoding") else b""
    return subprocess.CompletedProcess(args, 0, output if kwargs.get("capture_output") or kwargs.get("stdout") else None, None)


def call(args, *rest, shell=False, **kwargs):
    record(args, shell)
    return 0


def check_output(args, *rest, shell=False, **kwargs):
    record(args, shell)
    return "" if kwargs.get("text") or kwargs.get("universal_newlines") or kwargs.get("encoding") else b""


def system(command):
    record(command, True)
    return 0


def popen(command, mode="r", buffering=-1):
    record(command, True)
    return io.StringIO("")


def exec_v(path, args, *env):
    record(args)
    raise Exec()


def exec_l(path, *args):
    if args and isinstance(args[-1], dict):
        args = args[:-1]
    record(args)
    raise Exec()


def spawn_v(mode, path, args, *env):
    record(args)
    return 0


def spawn_l(mode, path, *args):
    if args and isinstance(args[-1], dict):
        args = args[:-1]
    record(args)
    return 0


subprocess.Popen = Popen
subprocess.run = run
subprocess.call = subprocess.check_call = call
subprocess.check_output = check_output
subprocess.getoutput = lambda cmd: (system(cmd), "")[1]
subprocess.getstatusoutput = lambda cmd: (system(cmd), (0, ""))[1]
os.system = system
os.popen = popen
for name in ("execv", "execve", "execvp", "execvpe"):
    setattr(os, name, exec_v)
for name in ("execl", "execle", "execlp", "execlpe"):
    setattr(os, name, exec_l)
for name in ("spawnv", "spawnve", "spawnvp", "spawnvpe"):
    setattr(os, name, spawn_v)
for name in ("spawnl", "spawnle", "spawnlp", "spawnlpe"):
    setattr(os, name, spawn_l)
os.fork = os.forkpty = None  # a generated program never forks


class Engine:
    """sglang.Engine(**kwargs): a launch whose argv is its keywords, sorted (their
    order means nothing), as ``--engine-keywords --name value ...``."""

    def __init__(self, **kwargs):
        words = ["--engine-keywords"]
        for name in sorted(kwargs):
            value = kwargs[name]
            words += ["--" + name, ("true" if value else "false") if isinstance(value, bool) else str(value)]
        calls.append([sys.executable, "-m", "sglang.launch_server", *words])

    def shutdown(self):
        pass


sglang = type(sys)("sglang")
sglang.Engine = Engine
sys.modules["sglang"] = sglang

with open(plan_path) as handle:
    plan = json.load(handle)
results = []
out = sys.stdout
compiled = {}
for run, (number, env, arguments) in enumerate(plan["runs"]):
    out.write("%d\n" % run)
    out.flush()
    os.environ.clear()
    os.environ.update(BASE_ENV)
    os.environ.update(env)
    calls = []
    error = ""
    sys.stdout = io.StringIO()
    path = os.path.abspath("p%d.py" % number)
    sys.argv = [path, *arguments]
    try:
        # As runpy.run_path(path, run_name="__main__"): a fresh namespace per run;
        # a program's code is compiled once for all its runs.
        if number not in compiled:
            compiled[number] = compile(plan["programs"][str(number)], path, "exec")
        exec(compiled[number], {"__name__": "__main__", "__file__": path, "__builtins__": builtins, "__package__": None, "__spec__": None, "__loader__": None})
    except Exec:
        pass
    except SystemExit as exit:
        if exit.code not in (None, 0):
            error = "SystemExit(%r)" % (exit.code,)
    except BaseException as exc:
        import traceback
        error = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    sys.stdout = out
    results.append([calls, error])
with open(results_path, "w") as handle:
    json.dump(results, handle)
'''


class PythonHung(Exception):
    pass


def _call(argv: Sequence[str]) -> Call:
    """A recorded argv as a Call: the program's name (no directory) and the rest."""
    return Call(os.path.basename(argv[0]) if argv else "", tuple(argv[1:]))


def run_python(programs: Sequence[Program], workers: int = 2, batch_timeout: float | None = None, full: bool = True) -> list[list[Run]]:
    """The runs of each program, one per assignment of its unknowns (every
    combination, or with ``full=False`` the covering sample of ``Program.assignments``).
    A run's ``stderr`` holds the exception the program raised, if any."""
    root = tempfile.mkdtemp(prefix="sglang-pyoracle-")
    try:
        home = os.path.join(root, "home")
        os.mkdir(home)
        runner = os.path.join(root, "runner.py")
        with open(runner, "w") as handle:
            handle.write(_RUNNER)
        plans: list[dict] = [{"programs": {}, "runs": []} for _ in range(workers)]
        layout: list[list[tuple[int, int, dict, tuple]]] = []  # per program: (worker, index in its plan, env, arguments)
        for number, program in enumerate(programs):
            worker = number % workers
            plans[worker]["programs"][str(number)] = program.text
            runs = []
            for env, arguments in program.assignments(full):
                runs.append((worker, len(plans[worker]["runs"]), env, arguments))
                plans[worker]["runs"].append([number, {k: v for k, v in env.items() if v is not None}, list(arguments)])
            layout.append(runs)
        processes = []
        for worker, plan in enumerate(plans):
            if not plan["runs"]:
                continue
            directory = os.path.join(root, f"worker{worker}")
            os.mkdir(directory)
            with open(os.path.join(root, f"plan{worker}.json"), "w") as handle:
                json.dump(plan, handle)
            processes.append(
                (
                    worker,
                    subprocess.Popen(
                        [sys.executable, "-I", "-S", runner, os.path.join(root, f"plan{worker}.json"), os.path.join(root, f"results{worker}.json")],
                        env={"PATH": "/usr/bin:/bin", "HOME": home},
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE,
                        start_new_session=True,
                        cwd=directory,
                    ),
                )
            )
        timeout = batch_timeout if batch_timeout is not None else 30 + 0.02 * sum(len(plan["runs"]) for plan in plans)
        outputs = {}
        for worker, process in processes:
            try:
                output, errors = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                output, _ = process.communicate()
                started = output.split()
                number = plans[worker]["runs"][int(started[-1]) if started else 0][0]
                raise PythonHung(f"CPython did not finish within {timeout:.0f} s; program seed {programs[number].seed}:\n{programs[number].text}")
            _common._wait_for_group(process.pid)
            if process.returncode != 0:
                raise AssertionError(f"the oracle's runner failed:\n{errors.decode(errors='replace')}")
            with open(os.path.join(root, f"results{worker}.json")) as handle:
                outputs[worker] = json.load(handle)
        results = []
        for runs in layout:
            program_runs = []
            for worker, index, env, arguments in runs:
                recorded, error = outputs[worker][index]
                program_runs.append(Run(env, arguments, [_call(argv) for argv in recorded], error))
            results.append(program_runs)
        return results
    finally:
        shutil.rmtree(root, ignore_errors=True)


# ---------------------------------------------------------------------------------
# Comparing


def analyzer_launches(program: Program) -> list[tuple]:
    """The reported launches; an ``Engine`` launch as the runner records one:
    ``sglang.launch_server --engine-keywords`` and its keywords sorted by name, a
    ``**mapping`` we cannot see as a spread at the end."""
    result = analyze_python("launch.py", program.text)
    return [
        (EntryPoint.LAUNCH_SERVER, _engine_tokens(launch), launch.path_condition) if launch.entry is EntryPoint.ENGINE else (launch.entry, launch.args, launch.path_condition)
        for launch in [*result.servers, *result.routers]
    ]


def _engine_tokens(launch) -> list[ArgToken]:
    tokens = [ArgToken(Value.known("--engine-keywords"), launch.location)]
    for keyword in sorted((k for k in launch.keywords if k.name is not None), key=lambda k: k.name):
        tokens += [ArgToken(Value.known("--" + keyword.name), keyword.location), ArgToken(keyword.value, keyword.location)]
    tokens += [ArgToken(k.value, k.location, spread=True) for k in launch.keywords if k.name is None]
    return tokens


def check_programs(programs: Sequence[Program], workers: int = 2, full: bool = False) -> list[tuple[Program, Comparison, list[Run]]]:
    """Run and compare (``_oracle_common.check``); also fail loudly on a generator
    bug (a program raised)."""
    return check(programs, lambda p, full: run_python(p, workers=workers, full=full), analyzer_launches, _common.quiet("CPython raised"), full=full)

