"""The shell differential oracle (issue 16, part 7): real bash is the ground truth.

Three pieces, used by tests/test_oracle_shell.py:

1. ``generate(seed, ...)`` writes a bash launch script from a small grammar of the
   constructs real deployment scripts use, with random nesting, quoting and names
   (deterministic for a seed). The constructs, by the name each program is tagged
   with (the per-construct table counts programs that use a construct):

   ``var``             ``TP=8`` then ``$TP`` / ``"$TP"`` / ``${TP}``
   ``default``         ``${VAR:-word}`` (as an argument and in assignments)
   ``alt_word``        ``${VAR:+word}`` (``${DPA:+--enable-dp-attention}``, unquoted
                       ``${PAGE:+--page-size $PAGE}``) of an environment variable
   ``dash_default``    ``${VAR-word}``
   ``default_with_dash`` a default word that starts with a name and a ``-``
                       (``${M:-deepseek-ai/DeepSeek-V3}``)
   ``assign_default``  ``: "${VAR:=word}"`` then ``$VAR``
   ``env_copy_default`` ``_E="${VAR:-}"`` then ``X="${_E:-word}"`` (a copy of the
                       environment's value, empty when unset, then its default)
   ``guard_exit``      ``X="${VAR:-}"`` then ``[ -z "$X" ] && exit 0`` / ``if [ -z "$X" ];
                       then exit 0; fi`` / ``[ -n "$X" ] || exit 0`` (of a role: ``if [ "$X" !=
                       prefill ] && [ "$X" != decode ]; then exit 0; fi``), then ``$X`` as a
                       value (past the guard it is not empty)
   ``quote_concat``    quote concatenation in words and assignments:
                       ``"--model-path="$M``, ``ARGS="--disaggregation-mode "$1" --tp-size "$2""``
   ``quoted_blank``    blanks alone between expansions or quotes inside double quotes:
                       ``ARGS="$ARGS $EXTRA"``, ``ARGS="--tp-size "8" "--port"`` (the `` " " ``)
   ``unquoted_split``  a string of several options used unquoted (``$ARGS``)
   ``string_append``   ``ARGS+=" --x"`` and ``ARGS="$ARGS --x"`` (in branches too)
   ``branch_assign``   a variable assigned inside an ``if``/``&&`` then used
   ``array_args``      ``ARGS=(...)`` then ``"${ARGS[@]}"`` as arguments
   ``array_cmd``       ``cmd=(python3 -m sglang.launch_server ...)`` then ``"${cmd[@]}"``
                       as the command
   ``array_append``    ``cmd+=(...)``
   ``array_append_branch`` ``cmd+=(...)`` inside an ``if`` or after ``&&``
   ``if``              ``if [[ ... ]]; then ... [elif ...] [else ...] fi``
   ``and_list``        ``[ -n "$X" ] && ...`` / ``[[ ... ]] || ...``
   ``case``            ``case "$ROLE" in prefill) ... ;; decode|d) ... ;; *) ... ;; esac``
   ``function``        a function called once per role, with ``$1``, ``"$@"``, ``shift``
   ``local``           ``local role=$1`` inside a function
   ``for``             ``for role in prefill decode; do ... done``
   ``env_prefix``      ``CUDA_VISIBLE_DEVICES=0,1 python3 ...``
   ``nohup``           ``nohup python3 ... > log 2>&1 &``
   ``background``      ``python3 ... &``
   ``exec``            ``exec python3 ...`` (the script's last statement)
   ``continuation``    backslash-newline continuations inside a launch
   ``script_args``     the script's own ``$1``/``$2``
   ``positional_default`` ``${2:-8}`` / ``"${1:-prefill}"`` of the script's arguments
   ``router``          ``python3 -m sglang_router.launch_router ...``
   ``sglang_serve``    ``sglang serve --model-path ...``
   ``set_args``        ``set -- --disaggregation-mode "$1" ...`` then ``"$@"`` (in a function)
   ``eval_string``     ``CMD="python3 -m sglang.launch_server ..."; eval "$CMD"``
   ``read_array``      ``read -r -a ARGS <<< "--page-size 64 ..."`` then ``"${ARGS[@]}"``
   ``declare_array``   ``declare -a ARGS=(...)``
   ``array_guard``     ``${ARGS[@]+"${ARGS[@]}"}`` (the array set or not)
   ``arith_condition`` ``if (( NNODES > 1 )); then ... fi``
   ``for_array``       ``ROLES=(prefill decode); for role in "${ROLES[@]}"; do ... done``

   The conditions tested: ``-n``/``-z`` on ``"$X"``/``"${X:-}"``, ``==``/``=``/``!=``
   against a role or number, in ``[[ ]]`` and ``[ ]``. The unknowns are environment
   variables (each unset, empty or one of a few values) and the script's arguments.

2. ``run_bash(programs)`` runs every program with real bash once per assignment of
   its unknowns (``check_programs``: a covering sample first, in which each value
   of each unknown occurs; every combination for a program with a reported
   launch the sample never ran), each run in a directory of its own under a
   temporary directory. A driver bash started under ``env -i`` with a controlled
   PATH and HOME sources the script, with the run's arguments, in a subshell per
   run that exports the run's variables (an exec of bash per run was most of the
   time; the generator uses neither ``$0`` nor ``return``, where sourcing
   differs). PATH starts with stub ``python3``/``python``/``sglang`` executables
   (compiled from a few lines of C when a C compiler is at hand, else a shell
   script) that only append their argv to ``argv.log`` in the current directory,
   count-prefixed and NUL-separated (any byte but NUL round-trips). Programs are
   batched, one driver per core; a batch that does not end in time is killed
   (its whole process group) and the run that hung is named
   (``BashHung``); launches sent to the background are waited for. Anything bash
   writes to stderr fails the run as a generator bug. Nothing but the scripts
   generated here (and the tests' own) is ever executed.

3. ``compare(launches, runs)`` (shared with the CPython oracle, in
   tests/_oracle_common.py) checks sglang-lint's launches against the
   recorded argv (the rules are in its docstring) and classifies the program:
   agree, agree (split: a symbol's value matched as the fields bash split it
   into, which ArgToken cannot tell from one word), imprecise (a spread or
   unknown token stood for some words), disagree.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
from typing import Iterable, Sequence

import _oracle_common as _common
from _oracle_common import (  # noqa: F401 (the shell oracle's tests use them from here)
    AGREE,
    DISAGREE,
    IMPRECISE,
    SPLIT,
    VERDICTS,
    Call,
    Comparison,
    Program,
    Run,
    _wait_for_group,
    check,
    compare,
    evaluate,
    launch_of_call,
    match,
)
from sglang_lint.model import ArgToken, EntryPoint
from sglang_lint.sources.shell import analyze_shell

# ---------------------------------------------------------------------------------
# Programs

_RARE_CONSTRUCTS = ("set_args", "eval_string", "read_array", "declare_array", "array_guard", "arith_condition", "for_array", "loop_append", "function_output", "assoc_lookup")
# (constructs that change another's words, tagged where they do)
_MODIFIERS = ("quoted_glob",)
CONSTRUCTS = (
    "var",
    "default",
    "alt_word",
    "dash_default",
    "default_with_dash",
    "assign_default",
    "env_copy_default",
    "guard_exit",
    "quote_concat",
    "quoted_blank",
    "unquoted_split",
    "string_append",
    "branch_assign",
    "array_args",
    "array_cmd",
    "array_append",
    "array_append_branch",
    "array_comment",
    "assignment_line",
    "if",
    "and_list",
    "case",
    "function",
    "local",
    "for",
    "env_prefix",
    "nohup",
    "background",
    "exec",
    "continuation",
    "script_args",
    "positional_default",
    "router",
    "sglang_serve",
) + _RARE_CONSTRUCTS + _MODIFIERS


_ROLES = ("prefill", "decode")
# name pools: (names, kind)
_ENV_POOLS = {
    "number": ("TP", "TP_SIZE", "SGL_TP", "DP", "DP_SIZE", "PAGE", "PAGE_SIZE", "NUM_GPUS", "BASE_PORT", "PORT"),
    "role": ("ROLE", "MODE", "SERVER_ROLE", "DISAGG_MODE"),
    "flag": ("DPA", "ENABLE_DPA", "USE_DP_ATTN", "BIG_PAGES", "DEBUG"),
    "path": ("MODEL", "MODEL_PATH", "MODEL_DIR", "CKPT"),
}
_NUMBERS = ("1", "2", "4", "8", "16", "64", "30000", "30001")
_PATHS = ("/models/llama", "deepseek-ai/DeepSeek-V3", "/data/ckpt", "Qwen/Qwen2-7B")
_LOCAL_NAMES = ("args", "ARGS", "opts", "EXTRA_OPTS", "SERVER_ARGS", "common", "COMMON_ARGS", "flags")
_ARRAY_NAMES = ("cmd", "CMD", "launch_cmd", "SERVER_CMD", "argv")
_FUNC_NAMES = ("launch", "start_server", "run_role", "serve", "launch_one")
_LOOP_NAMES = ("role", "mode", "r", "ROLE_NAME")


# Constructs of issue 16's list that real scripts use less often.
_RARE = _RARE_CONSTRUCTS


class _Gen:
    def __init__(self, seed: int, depth: int, exclude: frozenset[str]) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.max_depth = depth
        self.exclude = exclude
        self.used: set[str] = set()
        self.env: dict[str, str] = {}  # name -> kind
        self.uses_args = False
        self.vars: dict[str, str] = {}  # script variables set unconditionally: name -> kind
        self.functions: list[str] = []
        self.fresh = 0
        self.max_env = 2
        self.domains: dict[str, tuple[str | None, ...]] = {}
        # Variables tested by the conditions around the code being generated: a
        # nested condition on the same variable could make a branch dead code.
        self.tested: list[str] = []
        # Variables given a value by `${VAR:=word}`: never tested (never unset).
        self.assigned: set[str] = set()
        # Variables a guard made non-empty for the rest of the script
        # (guard_exit): a `case` on one has no `*)` for the empty value to reach.
        self.nonempty: set[str] = set()

    # -- helpers ----------------------------------------------------------------
    def ok(self, construct: str) -> bool:
        return construct not in self.exclude

    def tag(self, *constructs: str) -> None:
        self.used.update(constructs)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def env_var(self, kind: str) -> str | None:
        """The environment variable of ``kind`` (one per kind), new if the program
        has fewer than ``max_env``; None when it may not have another."""
        for name, k in self.env.items():
            if k == kind:
                return name
        if len(self.env) >= self.max_env:
            return None
        name = self.pick(_ENV_POOLS[kind])
        self.env[name] = kind
        if kind == "number":
            self.domains[name] = (None, self.pick(("4", "16")))
        elif kind == "role":
            self.domains[name] = (None, "prefill", "decode")
        elif kind == "flag":
            self.domains[name] = (None, "1") if self.chance(0.7) else (None, "", "1")
        else:
            self.domains[name] = (None, self.pick(_PATHS))
        return name

    def new_name(self, pool) -> str:
        self.fresh += 1
        name = self.pick(pool)
        return f"{name}{self.fresh}" if self.chance(0.5) else f"{name}_{self.fresh}"

    def literal(self, kind: str) -> str:
        if kind == "number":
            return self.pick(_NUMBERS)
        if kind == "role":
            return self.pick(_ROLES)
        if kind == "path":
            return self.pick(_PATHS)
        return "1"

    def default_literal(self, kind: str) -> str:
        """The word of a ``${VAR:-word}``."""
        text = self.literal(kind)
        if re.match(r"[A-Za-z_][A-Za-z0-9_]*-", text):
            if not self.ok("default_with_dash"):
                return "/models/llama"
            self.tag("default_with_dash")
        return text

    def quote_literal(self, text: str) -> str:
        style = self.rng.randrange(4)
        if style == 0:
            return f'"{text}"'
        if style == 1:
            return f"'{text}'"
        return text

    # -- values -----------------------------------------------------------------
    def value_word(self, kind: str, role_param: str | None = None) -> str:
        """One word holding a value of ``kind`` (a number, a role, a path)."""
        choices = ["literal"]
        env_ok = self.env_var(kind) is not None if self.chance(0.7) else kind in self.env.values()
        if self.ok("var"):
            if env_ok:
                choices.append("env")
            if any(k == kind for k in self.vars.values()):
                choices.append("var")
        if self.ok("default") and env_ok:
            choices.append("default")
        if self.ok("dash_default") and env_ok:
            choices.append("dash_default")
        if self.ok("script_args") and kind in ("role", "number"):
            choices.append("arg")
        if role_param is not None and kind == "role":
            choices += ["param", "param"]
        choice = self.pick(choices)
        if choice == "literal":
            return self.quote_literal(self.literal(kind))
        if choice == "env":
            self.tag("var")
            name = self.env_var(kind)
            return self.pick((f"${name}", f'"${name}"', f"${{{name}}}", f'"${{{name}}}"'))
        if choice == "var":
            self.tag("var")
            name = self.pick(sorted(n for n, k in self.vars.items() if k == kind))
            return self.pick((f"${name}", f'"${name}"', f'"${{{name}}}"'))
        if choice == "default":
            self.tag("default")
            name = self.env_var(kind)
            word = f"${{{name}:-{self.default_literal(kind)}}}"
            return self.pick((word, f'"{word}"'))
        if choice == "dash_default":
            self.tag("dash_default")
            name = self.env_var(kind)
            word = f"${{{name}-{self.default_literal(kind)}}}"
            return self.pick((word, f'"{word}"'))
        if choice == "arg":
            self.tag("script_args")
            self.uses_args = True
            if kind == "role":
                return self.pick(('"$1"', "$1", '"${1}"'))
            if self.ok("positional_default") and self.chance(0.6):
                self.tag("positional_default")
                return self.pick(("${2:-8}", '"${2:-4}"'))
            return self.pick(('"$2"', "$2"))
        # param
        return role_param  # type: ignore[return-value]

    def option_words(self, role_param: str | None = None, count: int | None = None) -> list[str]:
        """Options of a server launch, as source words."""
        words: list[str] = []
        pool = [
            ("--model-path", "path"),
            ("--tp-size", "number"),
            ("--dp-size", "number"),
            ("--enable-dp-attention", None),
            ("--disaggregation-mode", "role"),
            ("--port", "number"),
            ("--page-size", "number"),
            ("--host", "host"),
        ]
        count = count if count is not None else self.rng.randint(1, 4)
        for option, kind in self.rng.sample(pool, count):
            if kind is None:
                words.append(option)
            elif kind == "host":
                words += [option, self.pick(("0.0.0.0", '"127.0.0.1"'))]
            elif kind == "path" and self.ok("quote_concat") and self.chance(0.2):
                self.tag("quote_concat")
                words.append(f'"{option}="{self.value_word(kind)}')
            else:
                words += [option, self.value_word(kind, role_param)]
        if role_param is not None and "--disaggregation-mode" not in words:
            words += ["--disaggregation-mode", role_param]
        # Optional pieces that come and go with the environment.
        if self.ok("alt_word") and self.chance(0.25):
            flag = self.env_var("flag")
            number = self.env_var("number")
            if flag is not None and (number is None or self.chance(0.5)):
                self.tag("alt_word")
                words.append(f"${{{flag}:+--enable-dp-attention}}")
            elif number is not None:
                self.tag("alt_word")
                words.append(self.pick((f"${{{number}:+--page-size ${number}}}", f'${{{number}:+--page-size "${number}"}}')))
        return words

    # -- launches -----------------------------------------------------------------
    def head(self) -> tuple[str, list[str]]:
        """(entry kind, words up to the options) of a server launch."""
        if self.ok("sglang_serve") and self.chance(0.08):
            self.tag("sglang_serve")
            return "serve", ["sglang", "serve"]
        python = self.pick(("python3", "python", "python3", "/usr/bin/env python3"))
        words = python.split()
        if len(words) > 1:
            words = words[1:]  # `env python3` would leave PATH to env: plain words only
        if self.chance(0.15):
            words.append("-u")
        return "server", words + ["-m", "sglang.launch_server"]

    def router_words(self) -> list[str]:
        self.tag("router")
        words = ["python3", "-m", "sglang_router.launch_router", "--pd-disaggregation"]
        words += ["--prefill", self.pick(('"http://127.0.0.1:30000"', "http://prefill:30000"))]
        words += ["--decode", self.pick(('"http://127.0.0.1:30001"', "http://decode:30001"))]
        words += ["--port", self.value_word("number")]
        return words

    def command_line(self, words: list[str], indent: str, allow_exec: bool = False) -> list[str]:
        """A command from its words: maybe an env prefix, nohup/&/exec, continuations."""
        prefix: list[str] = []
        suffix: list[str] = []
        assignments: list[str] = []
        if self.ok("env_prefix") and self.chance(0.2):
            self.tag("env_prefix")
            assignments.append(self.pick(("CUDA_VISIBLE_DEVICES=0", "CUDA_VISIBLE_DEVICES=0,1,2,3", 'NCCL_DEBUG="INFO"', "SGLANG_LOG=1")))
        mode = self.rng.randrange(4)
        if allow_exec and self.ok("exec") and self.chance(0.5):
            self.tag("exec")
            prefix.append("exec")
        elif mode == 0 and self.ok("nohup"):
            self.tag("nohup")
            prefix.append("nohup")
            suffix = self.pick(([">", "server.log", "2>&1", "&"], ["&"], [">/dev/null", "2>&1", "&"]))
        elif mode in (1, 2) and self.ok("background"):
            self.tag("background")
            suffix = ["&"]
        all_words = assignments + prefix + words
        if self.ok("continuation") and len(all_words) > 5 and self.chance(0.35):
            self.tag("continuation")
            lines = []
            current: list[str] = []
            for index, word in enumerate(all_words):
                current.append(word)
                if index >= 3 and word.startswith("--") is False and index + 1 < len(all_words) and self.chance(0.6):
                    lines.append(current)
                    current = []
            lines.append(current + suffix)
            out = [indent + " ".join(lines[0]) + " \\"]
            for line in lines[1:-1]:
                out.append(indent + "    " + " ".join(line) + " \\")
            if len(lines) > 1:
                out.append(indent + "    " + " ".join(lines[-1]))
            else:
                out[0] = indent + " ".join(lines[0])
            return out
        return [indent + " ".join(all_words + suffix)]

    # -- statements ---------------------------------------------------------------
    def condition(self) -> tuple[str, str] | None:
        """(test, variable) on an environment variable no enclosing condition
        tests, with values from its domain (so both outcomes happen in some run)."""
        kinds = [k for k in ("flag", "role", "number", "path") if k in self.env.values() or len(self.env) < self.max_env]
        self.rng.shuffle(kinds)
        for kind in kinds:
            name = self.env_var(kind)
            if name is None or name in self.tested or name in self.assigned:
                continue
            break
        else:
            return None
        if kind == "role":
            value = self.pick(_ROLES)
            test = self.pick((f'[[ "${name}" == {value} ]]', f'[ "${name}" = "{value}" ]', f"[[ ${name} != {value} ]]"))
            if self.ok("quoted_glob") and self.chance(0.25):
                # A pattern in pieces, one quoted: `[[ $ROLE == *"ecod"* ]]`.
                self.tag("quoted_glob")
                test = self.pick((f'[[ "${name}" == *"{value[1:-1]}"* ]]', f"[[ ${name} != {value[0]}\"{value[1:]}\" ]]"))
        elif name in self.nonempty and kind in ("number", "flag"):
            # Past a guard the variable holds its one non-empty value of the
            # domain: a test against that value would leave one way no run
            # takes (seed 53440), though a value outside the domain would.
            test = self.pick((f'[[ -n "${name}" ]]', f'[[ -z "${name}" ]]'))
        elif kind == "number":
            value = self.domains[name][1]
            test = self.pick((f'[[ -n "${name}" ]]', f'[ "${{{name}:-1}}" = "{value}" ]', f'[[ -z "${name}" ]]'))
        elif kind == "flag":
            test = self.pick((f'[[ -n "${name}" ]]', f'[ -n "${name}" ]', f'[[ -z "${{{name}:-}}" ]]', f'[ "${{{name}:-0}}" = 1 ]'))
        else:
            test = self.pick((f'[[ -n "${name}" ]]', f'[ -z "${name}" ]'))
        return test, name

    def body(self, depth: int, indent: str, role_param: str | None = None) -> list[str]:
        lines: list[str] = []
        for _ in range(self.rng.randint(1, 2)):
            lines += self.statement(depth, indent, role_param)
        return lines

    def statement(self, depth: int, indent: str, role_param: str | None = None) -> list[str]:
        kinds = ["launch", "launch"]
        if depth < self.max_depth:
            kinds += [k for k in ("if", "and_list", "case", "for") if self.ok(k)]
        kinds += [k for k in ("unquoted_split", "array_args", "array_cmd") if self.ok(k)]
        if self.ok("router") and depth == 0:
            kinds.append("router")
        # The rarer constructs of issue 16's list, one statement each, at a
        # quarter of the weight of the others.
        rare = [k for k in _RARE if self.ok(k) and (depth < self.max_depth or k not in ("arith_condition", "for_array"))]
        if rare and self.chance(0.25):
            return self.rare_statement(self.pick(rare), depth, indent, role_param)
        kind = self.pick(kinds)
        if kind == "launch":
            _, words = self.head()
            return self.command_line(words + self.option_words(role_param), indent)
        if kind == "router":
            return self.command_line(self.router_words(), indent)
        if kind == "if":
            condition = self.condition()
            if condition is None:
                return self.statement(self.max_depth, indent, role_param)
            self.tag("if")
            lines = [f"{indent}if {condition[0]}; then"]
            tested_before = len(self.tested)
            self.tested.append(condition[1])
            lines += self.body(depth + 1, indent + "  ", role_param)
            if self.chance(0.3):
                second = self.condition()
                if second is not None:
                    self.tested.append(second[1])
                    lines.append(f"{indent}elif {second[0]}; then")
                    lines += self.body(depth + 1, indent + "  ", role_param)
            if self.chance(0.4):
                lines.append(f"{indent}else")
                lines += self.body(depth + 1, indent + "  ", role_param)
            del self.tested[tested_before:]
            lines.append(f"{indent}fi")
            return lines
        if kind == "and_list":
            condition = self.condition()
            inner = self.statement(self.max_depth, "", role_param)
            if len(inner) != 1 or condition is None:
                return [indent + line for line in inner]
            self.tag("and_list")
            op = self.pick(("&&", "&&", "||"))
            return [f"{indent}{condition[0]} {op} {inner[0].strip()}"]
        if kind == "case":
            name = None
            if self.ok("script_args") and "$1" not in self.tested and self.chance(0.5):
                self.tag("script_args")
                self.uses_args = True
                self.tested.append("$1")
                subject = self.pick(('"$1"', "$1"))
                if self.ok("positional_default") and self.chance(0.3):
                    self.tag("positional_default")
                    subject = '"${1:-prefill}"'
            else:
                name = self.env_var("role")
                if name is None or name in self.tested or name in self.assigned:
                    return self.statement(self.max_depth, indent, role_param)
                subject = self.pick((f'"${name}"', f"${name}", f'"${{{name}:-decode}}"'))
                self.tested.append(name)
            self.tag("case")
            star = self.chance(0.4)
            patterns = self.pick((("prefill", "decode"), ("prefill", "decode|d"), ("prefill|p",), ("decode",)))
            if star and len(patterns) == 2:
                # `*)` must be reachable: the subject is unset in some run (the
                # script's $1 never is), with no default.
                if name is None or name in self.nonempty:
                    patterns = patterns[:1]
                else:
                    subject = f'"${name}"'
            lines = [f"{indent}case {subject} in"]
            for pattern in patterns:
                role = pattern.split("|")[0]
                if self.ok("quoted_glob") and self.chance(0.25):
                    # `*"efil"*`: a pattern of pieces, one quoted (tree-sitter
                    # gives three values; each was an alternative, `*` too)
                    self.tag("quoted_glob")
                    pattern = pattern.replace(role, f'{role[0]}"{role[1:-1]}"*', 1)
                lines.append(f"{indent}  {pattern})")
                lines += self.body(depth + 1, indent + "    ", role if self.chance(0.5) else role_param)
                lines.append(f"{indent}    ;;")
            if star:
                lines.append(f"{indent}  *)")
                lines += self.body(depth + 1, indent + "    ", role_param)
                lines.append(f"{indent}    ;;")
            lines.append(f"{indent}esac")
            self.tested.pop()
            return lines
        if kind == "for":
            self.tag("for")
            var = self.new_name(_LOOP_NAMES)
            words = self.pick(("prefill decode", "decode prefill", '"prefill" "decode"', "prefill"))
            lines = [f"{indent}for {var} in {words}; do"]
            lines += self.body(depth + 1, indent + "  ", self.pick((f'"${var}"', f"${var}", f"${{{var}}}")))
            lines.append(f"{indent}done")
            return lines
        if kind == "unquoted_split":
            return self.string_args(depth, indent, role_param)
        if kind == "array_args":
            return self.array_args(depth, indent, role_param)
        return self.array_cmd(depth, indent, role_param)

    def rare_statement(self, kind: str, depth: int, indent: str, role_param: str | None) -> list[str]:
        self.tag(kind)
        _, head = self.head()
        if kind == "set_args":
            # Inside a function: the script's own arguments stay as they are.
            self.tag("function")
            name = self.new_name(_FUNC_NAMES)
            options = self.option_words(None, count=self.rng.randint(1, 2))
            role = self.pick(_ROLES)
            lines = [f"{indent}{name}() {{", f'{indent}  set -- --disaggregation-mode "$1" {" ".join(options)}']
            lines += self.command_line(head + ['"$@"'], indent + "  ")
            return lines + [f"{indent}}}", f"{indent}{name} {role}"]
        if kind == "eval_string":
            name = self.new_name(_LOCAL_NAMES)
            words = head + [w.replace('"', "").replace("'", "") for w in self.option_words(role_param, count=self.rng.randint(1, 3))]
            return [f'{indent}{name}="{" ".join(words)}"', f'{indent}eval "${name}"']
        if kind == "read_array":
            name = self.new_name(_LOCAL_NAMES)
            words = [w.replace('"', "").replace("'", "") for w in self.option_words(None, count=self.rng.randint(1, 2))]
            return [f'{indent}read -r -a {name} <<< "{" ".join(words)}"'] + self.command_line(head + [f'"${{{name}[@]}}"'], indent)
        if kind == "declare_array":
            name = self.new_name(_LOCAL_NAMES)
            return [f"{indent}declare -a {name}=(" + " ".join(self.option_words(role_param, count=self.rng.randint(1, 2))) + ")"] + self.command_line(
                head + [f'"${{{name}[@]}}"'], indent
            )
        if kind == "array_guard":
            name = self.new_name(_LOCAL_NAMES)
            lines = []
            if self.chance(0.6):
                lines.append(f"{indent}{name}=(" + " ".join(self.option_words(None, count=1)) + ")")
            return lines + self.command_line(head + self.option_words(role_param, count=1) + [f'${{{name}[@]+"${{{name}[@]}}"}}'], indent)
        if kind == "arith_condition":
            number = self.env_var("number")
            if number is None or number in self.tested:
                return self.command_line(head + self.option_words(role_param), indent)
            self.tested.append(number)
            lines = [f"{indent}if (( {self.pick((number, '${' + number + ':-1}'))} > 1 )); then"]
            lines += self.body(depth + 1, indent + "  ", role_param)
            lines.append(f"{indent}fi")
            self.tested.pop()
            return lines
        if kind == "loop_append":
            return self.loop_append(indent)
        if kind == "function_output":
            return self.function_output(indent, role_param)
        if kind == "assoc_lookup":
            return self.assoc_lookup(indent, role_param)
        # for_array
        roles = self.new_name(("ROLES", "roles", "MODES"))
        var = self.new_name(_LOOP_NAMES)
        lines = [f"{indent}{roles}=({self.pick(('prefill decode', 'decode prefill', 'prefill'))})", f'{indent}for {var} in "${{{roles}[@]}}"; do']
        lines += self.body(depth + 1, indent + "  ", f'"${var}"')
        return lines + [f"{indent}done"]

    def loop_append(self, indent: str) -> list[str]:
        """A router whose decode endpoints a loop adds, as many as the
        environment says (`$NUM_DECODE`, unset in the runs: its default),
        to an array or to a string run with `eval` or split unquoted: the
        words around what the loop adds are the words bash runs."""
        self.tag("router")
        name = self.new_name(_LOCAL_NAMES)
        rounds = self.pick(("${NUM_DECODE:-2}", "${NUM_DECODE:-1}", "${NUM_DECODE:-0}"))
        prefill = self.pick(('"http://127.0.0.1:30000"', "http://prefill:30000"))
        endpoint = self.pick(('"http://127.0.0.1:$((30001 + i))"', '"http://decode-$i:30001"'))
        tail = ["--port", self.value_word("number")]
        loop = f"{indent}for ((i = 0; i < {rounds}; i++)); do"
        form = self.pick(("array", "eval", "split"))
        if form == "array":
            lines = [f"{indent}{name}=(--pd-disaggregation --prefill {prefill})", loop, f"{indent}  {name}+=(--decode {endpoint})", f"{indent}done"]
            return lines + self.command_line(["python3", "-m", "sglang_router.launch_router", f'"${{{name}[@]}}"', *tail], indent)
        inner = endpoint.strip('"')
        if form == "eval":
            words = ["python3", "-m", "sglang_router.launch_router", "--pd-disaggregation", "--prefill", prefill.strip('"')]
            lines = [f'{indent}{name}="{" ".join(words)}"', loop, f'{indent}  {name}="${{{name}}} --decode {inner}"', f"{indent}done"]
            return lines + [f'{indent}{name}="${name} {" ".join(tail).replace(chr(34), "")}"', f'{indent}eval "${name}"']
        lines = [f'{indent}{name}="--pd-disaggregation --prefill {prefill.strip(chr(34))}"', loop, f'{indent}  {name}="${name} --decode {inner}"', f"{indent}done"]
        return lines + self.command_line(["python3", "-m", "sglang_router.launch_router", f"${name}", *tail], indent)

    def function_output(self, indent: str, role_param: str | None) -> list[str]:
        """Options a function prints (`echo`, `printf '%s'`), some added under
        a condition, a line and a command's output sent to a
        file between: `$(...)` takes them into a variable the launch splits
        unquoted (AMD's `PREFILL_CONFIG=$(build_server_config prefill ...)`)."""
        self.tag("function")
        _, head = self.head()
        func = self.new_name(_FUNC_NAMES)
        name = self.new_name(_LOCAL_NAMES)

        def plain(words: list[str]) -> str:
            return " ".join(word.replace('"', "").replace("'", "") for word in words)

        lines = [f"{indent}{func}() {{", f'{indent}  local out="{plain(self.option_words(None, count=self.rng.randint(1, 2)))}"']
        lines += self.conditional_append(indent + "  ", f'out="$out {plain(self.option_words(None, count=1))}"')
        if self.chance(0.4):
            lines.append(f'{indent}  echo "building $out" 1> /dev/null')
        if self.chance(0.3):
            lines.append(f"{indent}  date > /dev/null")
        role = ' --disaggregation-mode "$1"' if role_param is not None else ""
        lines.append(indent + "  " + self.pick((f'echo "$out{role}"', f"printf '%s\\n' \"$out{role}\"", f'printf \'%s\' "$out"; echo "{role}"')))
        lines.append(f"{indent}}}")
        call = f"$({func} {role_param})" if role_param is not None else f"$({func})"
        lines.append(f"{indent}{name}={self.pick((call, chr(34) + call + chr(34)))}")
        return lines + self.command_line(head + [f"${name}"], indent)

    def assoc_lookup(self, indent: str, role_param: str | None) -> list[str]:
        """Options from an associative array (`declare -A`), looked up by a
        role of the environment or the function's, or by a key written out,
        quoted into a variable or split where it is used (AMD's
        `${MODEL_BASE_CONFIGS[$MODEL_NAME]}`); one key may have no value."""
        _, head = self.head()
        name = self.new_name(("CONFIGS", "MODEL_FLAGS", "ROLE_ARGS"))
        keys = list(_ROLES) if self.chance(0.7) else [_ROLES[0]]
        entries = " ".join(f'[{key}]="{" ".join(w.replace(chr(34), "").replace(chr(39), "") for w in self.option_words(None, count=1))}"' for key in keys)
        lines = [f"{indent}declare -A {name}=({entries})"]
        role = self.env_var("role")
        key = self.pick(tuple(k for k in (role_param, f"${{{role}:-prefill}}" if role else None, "prefill") if k))  # (an empty key: "bad array subscript")
        lookup = f"${{{name}[{key}]}}"
        if self.chance(0.4):
            copy = self.new_name(_LOCAL_NAMES)
            lines.append(f'{indent}{copy}="{lookup}"')
            lookup = f"${copy}"
        return lines + self.command_line(head + self.option_words(role_param, count=1) + [lookup], indent)

    def conditional_append(self, indent: str, assignment: str, construct: str = "branch_assign") -> list[str]:
        """``assignment`` under a condition, as an ``if`` or an ``&&`` list."""
        condition = self.condition()
        if condition is None:
            return [indent + assignment]
        self.tag(construct)
        if self.ok("and_list") and self.chance(0.5):
            self.tag("and_list")
            return [f"{indent}{condition[0]} && {assignment}"]
        self.tag("if")
        return [f"{indent}if {condition[0]}; then", f"{indent}  {assignment}", f"{indent}fi"]

    def string_args(self, depth: int, indent: str, role_param: str | None) -> list[str]:
        self.tag("unquoted_split")
        name = self.new_name(_LOCAL_NAMES)
        options = self.option_words(role_param, count=self.rng.randint(1, 3))
        if self.ok("quote_concat") and self.chance(0.4):
            # ARGS="--tp-size "$TP" --port 30000": quotes closed around each value.
            self.tag("quote_concat")
            text = '"' + " ".join(w if not w.startswith('"') else '"' + w + '"' for w in options) + '"'
            if _blank_quoted(text):
                # `"a "$1" "--port 8"`: a quoted string of blanks only (`" "`).
                if self.ok("quoted_blank"):
                    self.tag("quoted_blank")
                else:
                    text = '"' + " ".join(w.replace('"', "") for w in options) + '"'
        else:
            text = '"' + " ".join(w.replace('"', "") for w in options) + '"'
        lines = [f"{indent}{name}={text}"]
        if self.ok("quoted_blank") and self.ok("string_append") and self.chance(0.15):
            # ARGS="$ARGS $EXTRA": two strings joined with a quoted blank.
            self.tag("quoted_blank", "string_append")
            other = self.new_name(_LOCAL_NAMES)
            lines = [f'{indent}{other}="{self.pick(("--enable-dp-attention", "--page-size 16", "--dp-size 2 --enable-dp-attention"))}"'] + lines
            lines.append(f'{indent}{name}="{self.pick((f"${name}", f"${{{name}}}"))} ${other}"')
        if self.ok("string_append") and self.chance(0.6):
            self.tag("string_append")
            extra = self.pick(("--enable-dp-attention", f"--page-size {self.literal('number')}", f"--dp-size {self.literal('number')}"))
            assignment = self.pick((f'{name}+=" {extra}"', f'{name}="${name} {extra}"', f'{name}="${{{name}}} {extra}"'))
            if self.ok("branch_assign") and self.chance(0.6):
                lines += self.conditional_append(indent, assignment)
            else:
                lines.append(indent + assignment)
        _, head = self.head()
        lines += self.command_line(head + [self.pick((f"${name}", f"${{{name}}}"))], indent, allow_exec=False)
        return lines

    def array_args(self, depth: int, indent: str, role_param: str | None) -> list[str]:
        self.tag("array_args")
        name = self.new_name(_LOCAL_NAMES)
        words = self.option_words(role_param, count=self.rng.randint(1, 3))
        if self.ok("array_comment") and self.chance(0.3):
            # Comments between an array's words, on their own lines and after a
            # word: bash skips them (a real script's each became an unknown word).
            self.tag("array_comment")
            body = [f"{indent}    {word}" for word in words]
            body[-1] += "  # the last one (see the runbook)"
            lines = [f"{indent}{name}=(", f"{indent}    # why these options: it's the (measured) best", *body, f"{indent})"]
        else:
            lines = [f"{indent}{name}=(" + " ".join(words) + ")"]
        if self.ok("array_append") and self.chance(0.6):
            self.tag("array_append")
            assignment = f"{name}+=(" + " ".join(self.option_words(None, count=1)) + ")"
            if self.ok("array_append_branch") and self.chance(0.6):
                lines += self.conditional_append(indent, assignment, "array_append_branch")
            else:
                lines.append(indent + assignment)
        _, head = self.head()
        lines += self.command_line(head + [f'"${{{name}[@]}}"'], indent)
        return lines

    def array_cmd(self, depth: int, indent: str, role_param: str | None) -> list[str]:
        self.tag("array_cmd")
        name = self.new_name(_ARRAY_NAMES)
        _, head = self.head()
        lines = [f"{indent}{name}=(" + " ".join(head + self.option_words(role_param, count=self.rng.randint(1, 3))) + ")"]
        if self.ok("array_append") and self.chance(0.6):
            self.tag("array_append")
            assignment = f"{name}+=(" + " ".join(self.option_words(None, count=1)) + ")"
            if self.ok("array_append_branch") and self.chance(0.6):
                lines += self.conditional_append(indent, assignment, "array_append_branch")
            else:
                lines.append(indent + assignment)
        lines += self.command_line([f'"${{{name}[@]}}"'], indent)
        return lines

    def preamble(self) -> list[str]:
        lines = []
        simple = None  # the last line of plain assignments
        for _ in range(self.rng.randint(0, 2)):
            kind = self.pick(("number", "role", "path"))
            name = self.new_name(("tp", "TP_LOCAL", "model", "mode", "port", "dp"))
            style = self.rng.randrange(4)
            if style == 0 or not self.ok("var"):
                value = self.quote_literal(self.literal(kind))
            elif style == 1 and self.ok("default") and self.env_var(kind) is not None:
                self.tag("default")
                value = f"${{{self.env_var(kind)}:-{self.default_literal(kind)}}}"
                value = self.pick((value, f'"{value}"'))
            elif style == 2 and self.ok("script_args") and kind in ("role", "number"):
                self.tag("script_args")
                self.uses_args = True
                value = '"$1"' if kind == "role" else '"$2"'
                if kind == "number" and self.ok("positional_default"):
                    self.tag("positional_default")
                    value = "${2:-8}"
            elif style == 3 and self.ok("env_copy_default") and self.env_var(kind) is not None and self.chance(0.5):
                self.tag("env_copy_default")
                copy = f"_ENV_{name.upper()}"
                lines.append(f'{copy}="${{{self.env_var(kind)}:-}}"')
                value = f'"${{{copy}:-{self.default_literal(kind)}}}"'
            elif style == 3 and self.ok("guard_exit") and self.env_var(kind) is not None and self.chance(0.3):
                self.tag("guard_exit")
                env = self.env_var(kind)
                lines.append(f'{name}="${{{env}:-}}"')
                self.nonempty.add(env)
                guards = [f'[ -z "${name}" ] && exit 0', f'if [ -z "${name}" ]; then exit 0; fi', f'[[ -n "${name}" ]] || exit 0']
                if kind == "role":
                    # (over two values: past it the role is one of them, neither for sure)
                    guards.append(f'if [ "${name}" != prefill ] && [ "${name}" != decode ]; then exit 0; fi')
                lines.append(self.pick(guards))
                self.tag("var")
                self.vars[name] = kind
                continue
            elif self.ok("assign_default") and self.env_var(kind) is not None:
                self.tag("assign_default")
                env = self.env_var(kind)
                lines.append(f': "${{{env}:={self.default_literal(kind)}}}"')
                self.assigned.add(env)
                value = f'"${env}"'
            else:
                value = self.literal(kind)
            self.tag("var")
            if lines and lines[-1] is simple and self.ok("assignment_line") and self.chance(0.5):
                # `A=1 B=2` alone on a line: plain assignments (tree-sitter-bash
                # read them as the next command's environment).
                self.tag("assignment_line")
                lines[-1] = simple = f"{lines[-1]} {name}={value}"
            else:
                lines.append(simple := f"{name}={value}")
            self.vars[name] = kind
        return lines

    def function(self) -> list[str]:
        self.tag("function")
        name = self.pick(_FUNC_NAMES)
        lines = [f"{name}() {{"]
        role = '"$1"'
        if self.ok("local") and self.chance(0.6):
            self.tag("local")
            local = self.pick(("role", "mode", "r"))
            lines.append(f"  local {local}=$1")
            role = f'"${local}"'
        shifted = self.chance(0.6)
        if shifted:
            lines.append("  shift")
        _, head = self.head()
        words = head + self.option_words(role if not shifted or role != '"$1"' else None, count=self.rng.randint(1, 3))
        if role == '"$1"' and shifted:
            pass
        if shifted:
            words.append('"$@"')
        inner = self.command_line(words, "  ")
        lines += inner
        lines.append("}")
        calls = []
        for role_value in self.rng.sample(_ROLES, self.rng.randint(1, 2)):
            extra = ""
            if shifted and self.chance(0.7):
                extra = " " + " ".join(self.pick((["--port", "30000"], ["--tp-size", self.value_word("number")], ["--enable-dp-attention"])))
            calls.append(f"{name} {role_value}{extra}")
        return lines + calls

    def program(self) -> Program:
        lines = ["#!/bin/bash"]
        lines += self.preamble()
        body: list[str] = []
        if self.ok("function") and self.chance(0.3):
            body += self.function()
        for _ in range(self.rng.randint(1, 2)):
            body += self.statement(0, "")
        if self.ok("exec") and self.chance(0.15):
            _, head = self.head()
            body += self.command_line(head + self.option_words(), "", allow_exec=True)
        text = "\n".join(lines + body) + "\n"
        env_domains = dict(self.domains)
        # Two argument vectors: the second leaves $2 unset (`${2:-8}` takes its default).
        args = (("prefill", "8"), ("decode",)) if self.uses_args else ((),)
        return Program(self.seed, text, frozenset(self.used), env_domains, args)


_EXPANSION = re.compile(r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@#]")


def _blank_quoted(text: str) -> bool:
    """Whether ``text`` (shell words) holds, inside double quotes, a run of blanks
    only between expansions or the quotes (``" "``, ``"$A $B"``, ``" $A"``)."""
    inside = False
    content = ""
    for char in text:
        if char == '"':
            if inside and any(piece and not piece.strip() for piece in _EXPANSION.split(content)):
                return True
            inside, content = not inside, ""
        elif inside:
            content += char
    return False


def generate(seed: int, depth: int = 2, exclude: Iterable[str] = ()) -> Program:
    """The program of ``seed``; ``exclude``: constructs it may not use."""
    return _Gen(seed, depth, frozenset(exclude)).program()


# ---------------------------------------------------------------------------------
# Running with bash

_STUB = """#!/bin/sh
# sglang-lint oracle stub: record this call's argv (count-prefixed, NUL-separated).
printf '%s\\0' "$#" "${0##*/}" "$@" >> ./argv.log
exit 0
"""

# The same stub in C: a launch costs a third of the shell stub's time (the
# oracle's time is mostly these calls). Used when a C compiler is at hand.
_STUB_C = r"""
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    FILE *f = fopen("argv.log", "ab");
    if (!f) return 0;
    const char *name = strrchr(argv[0], '/');
    name = name ? name + 1 : argv[0];
    fprintf(f, "%d%c%s%c", argc - 1, 0, name, 0);
    for (int i = 1; i < argc; i++) { fputs(argv[i], f); fputc(0, f); }
    fclose(f);
    return 0;
}
"""

STUB_NAMES = ("python3", "python", "sglang")
_COMPILED: list[str | None] = []


def _compiled_stub() -> str | None:
    """A compiled stub (built once per process), None without a C compiler."""
    if _COMPILED:
        return _COMPILED[0]
    path = None
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is not None and os.environ.get("SGLANG_LINT_ORACLE_SH_STUB") != "1":
        directory = tempfile.mkdtemp(prefix="sglang-oracle-stub-")
        source = os.path.join(directory, "stub.c")
        with open(source, "w") as handle:
            handle.write(_STUB_C)
        for flags in (["-O1", "-static"], ["-O1"]):
            target = os.path.join(directory, "stub")
            done = subprocess.run([compiler, *flags, "-o", target, source], capture_output=True, timeout=60)
            if done.returncode == 0:
                path = target
                break
    _COMPILED.append(path)
    return path


class BashHung(Exception):
    pass


def _shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _parse_log(data: bytes) -> list[Call]:
    fields = data.split(b"\0")
    calls = []
    index = 0
    while index < len(fields) - 1:
        count = int(fields[index])
        name = fields[index + 1].decode()
        argv = tuple(f.decode() for f in fields[index + 2 : index + 2 + count])
        calls.append(Call(name, argv))
        index += 2 + count
    return calls


def run_bash(programs: Sequence[Program], workers: int = 2, batch_timeout: float | None = None, full: bool = True) -> list[list[Run]]:
    """The runs of each program, one per assignment of its unknowns (every
    combination, or with ``full=False`` the covering sample of ``Program.assignments``)."""
    bash = shutil.which("bash")
    env_cmd = shutil.which("env")
    assert bash and env_cmd, "the oracle needs bash and env"
    root = tempfile.mkdtemp(prefix="sglang-oracle-")
    try:
        stubs = os.path.join(root, "stubs")
        home = os.path.join(root, "home")
        os.mkdir(stubs)
        os.mkdir(home)
        compiled = _compiled_stub()
        for name in STUB_NAMES:
            path = os.path.join(stubs, name)
            if compiled is not None:
                shutil.copyfile(compiled, path)
            else:
                with open(path, "w") as handle:
                    handle.write(_STUB)
            os.chmod(path, 0o755)
        path_value = f"{stubs}:/usr/bin:/bin"
        plan: list[list[tuple[str, dict, tuple]]] = []
        driver_lines: list[list[str]] = [[] for _ in range(workers)]
        for number, program in enumerate(programs):
            script = os.path.join(root, f"s{number}.sh")
            with open(script, "w") as handle:
                handle.write(program.text)
            runs = []
            for index, (env, args) in enumerate(program.assignments(full)):
                directory = os.path.join(root, f"r{number}_{index}")
                os.mkdir(directory)
                runs.append((directory, env, args))
                exports = "".join(f"export {k}={_shell_quote(v)} && " for k, v in env.items() if v is not None)
                # A subshell of the driver (itself under `env -i`) sources the
                # script with its arguments: bash interprets it exactly as it would
                # run it (the generator uses neither $0 nor `return`), without an
                # exec of bash per run, which was most of the oracle's time.
                line = (
                    f"echo {number}_{index} >{root}/progress{number % workers}; "
                    f"(cd {directory} && {exports}. {script} "
                    + " ".join(_shell_quote(a) for a in args)
                    + ") </dev/null >" + directory + "/out 2>" + directory + "/err"
                )
                driver_lines[number % workers].append(line)
            plan.append(runs)
        processes = []
        for worker, lines in enumerate(driver_lines):
            if not lines:
                continue
            driver = os.path.join(root, f"driver{worker}.sh")
            with open(driver, "w") as handle:
                handle.write("\n".join(lines) + "\n")
            processes.append(
                (
                    worker,
                    subprocess.Popen(
                        [env_cmd, "-i", f"PATH={path_value}", f"HOME={home}", bash, driver],
                        stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                        cwd=home,
                    ),
                )
            )
        timeout = batch_timeout if batch_timeout is not None else 30 + 0.05 * sum(len(r) for r in plan)
        for worker, process in processes:
            try:
                process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
                with open(os.path.join(root, f"progress{worker}")) as handle:
                    hung = handle.read().strip()
                number = int(hung.split("_")[0])
                raise BashHung(f"bash did not finish within {timeout:.0f} s; run {hung} of program seed {programs[number].seed}:\n{programs[number].text}")
            _wait_for_group(process.pid)
        results = []
        for runs in plan:
            program_runs = []
            for directory, env, args in runs:
                log = os.path.join(directory, "argv.log")
                calls = []
                if os.path.exists(log):
                    with open(log, "rb") as handle:
                        calls = _parse_log(handle.read())
                with open(os.path.join(directory, "err"), errors="replace") as handle:
                    stderr = handle.read()
                program_runs.append(Run(env, args, calls, stderr))
            results.append(program_runs)
        return results
    finally:
        shutil.rmtree(root, ignore_errors=True)


# ---------------------------------------------------------------------------------
# Comparing

def analyzer_launches(program: Program) -> list[tuple[EntryPoint, list[ArgToken]]]:
    return _common.launches_of(analyze_shell("launch.sh", program.text))


def check_programs(programs: Sequence[Program], workers: int = 2, full: bool = False) -> list[tuple[Program, Comparison, list[Run]]]:
    """Run and compare (``_oracle_common.check``); also fail loudly on a generator
    bug (bash wrote to stderr)."""
    return check(programs, lambda p, full: run_bash(p, workers=workers, full=full), analyzer_launches, _common.quiet("bash complained"), full=full)

