"""What the differential oracles (tests/_oracle_shell.py: bash;
tests/_oracle_python.py: CPython) share: a generated program and the
assignments of its unknowns to run it under, the calls a run recorded, and
``compare``: sglang-lint's reported launches against the argv the real
interpreter ran (the rules are in its docstring), with the per-construct table.
"""

from __future__ import annotations

import fnmatch
import itertools
import os
import random
import signal
import time
from typing import Callable, Iterable, Sequence

from sglang_lint.model import ArgToken, EntryPoint, Kind, PathStep, Value, describe_path

class Program:
    """A generated script and the unknowns to run it under."""

    def __init__(self, seed: int, text: str, constructs: frozenset[str], env_domains: dict[str, tuple[str | None, ...]], arg_vectors: tuple[tuple[str, ...], ...]) -> None:
        self.seed = seed
        self.text = text
        self.constructs = constructs
        self.env_domains = env_domains
        self.arg_vectors = arg_vectors

    def assignments(self, full: bool = True) -> list[tuple[dict[str, str | None], tuple[str, ...]]]:
        """The assignments of the unknowns' values to run under: (environment,
        arguments). ``full``: every combination. Otherwise a covering sample: each
        value of each unknown in at least one run, paired differently per seed
        (as many runs as the largest domain has values)."""
        names = sorted(self.env_domains)
        if full:
            result = []
            for values in itertools.product(*(self.env_domains[name] for name in names)):
                env = dict(zip(names, values))
                for args in self.arg_vectors:
                    result.append((env, args))
            return result
        rng = random.Random(self.seed)
        domains = [list(self.env_domains[name]) for name in names] + [list(self.arg_vectors)]
        for domain in domains:
            rng.shuffle(domain)
        count = max(len(domain) for domain in domains)
        result = []
        for index in range(count):
            choice = [domain[index % len(domain)] for domain in domains]
            result.append((dict(zip(names, choice[:-1])), choice[-1]))
        return result


class Call:
    """One recorded execution: the program name (no directory) and its arguments."""

    def __init__(self, name: str, argv: tuple[str, ...]) -> None:
        self.name = name
        self.argv = argv

    def __repr__(self) -> str:
        return f"Call({self.name!r}, {list(self.argv)!r})"


class Run:
    def __init__(self, env: dict[str, str | None], args: tuple[str, ...], calls: list[Call], stderr: str) -> None:
        self.env = env
        self.args = args
        self.calls = calls
        self.stderr = stderr

    def describe(self) -> str:
        env = " ".join(f"{k}={v!r}" for k, v in self.env.items() if v is not None) or "(no variables)"
        unset = [k for k, v in self.env.items() if v is None]
        return f"env {env}" + (f", unset {' '.join(unset)}" if unset else "") + f", args {list(self.args)}"


def _wait_for_group(pgid: int, deadline: float = 5.0) -> None:
    """Wait until the launches a script sent to the background (same process
    group: bash runs scripts without job control) have exited; kill what is left
    after ``deadline`` seconds."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.005)
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


# ---------------------------------------------------------------------------------
# Comparing

AGREE, SPLIT, IMPRECISE, DISAGREE = 0, 1, 2, 3
VERDICTS = ("agree", "agree (split)", "imprecise", "disagree")

_ENTRY_OF_MODULE = {
    "sglang.launch_server": EntryPoint.LAUNCH_SERVER,
    "sglang_router.launch_router": EntryPoint.ROUTER,
    "dynamo.sglang": EntryPoint.DYNAMO_SGLANG,
}


def launch_of_call(call: Call) -> tuple[EntryPoint, tuple[str, ...]] | None:
    """(entry point, the arguments after it) of a recorded call, None when not a launch."""
    argv = call.argv
    if call.name == "sglang":
        if argv[:1] == ("serve",):
            return EntryPoint.SGLANG_SERVE, argv[1:]
        return None
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == "-m" and index + 1 < len(argv):
            entry = _ENTRY_OF_MODULE.get(argv[index + 1])
            return (entry, argv[index + 2 :]) if entry is not None else None
        if word.startswith("-m") and len(word) > 2:
            entry = _ENTRY_OF_MODULE.get(word[2:])
            return (entry, argv[index + 1 :]) if entry is not None else None
        if word.startswith("-") and not word.startswith("--"):
            index += 1
            continue
        return None
    return None


_MAX_CANDIDATES = 256


def evaluate(value: Value, env: dict[str, str | None], args: tuple[str, ...]) -> frozenset[str] | None:
    """The strings ``value`` can be in the run with environment ``env`` and script
    arguments ``args``; None when it names something the run does not fix (an
    unknown, a parameter of a function nobody calls)."""
    if value.kind is Kind.KNOWN:
        return frozenset((value.text,))
    if value.kind is Kind.ALTERNATIVES:
        return frozenset(value.alternatives)
    if value.kind is Kind.SYMBOL:
        name = value.name
        if not name.startswith("$"):
            return None
        name = name[1:]
        if name.isdigit():
            index = int(name)
            text: str | None = args[index - 1] if 0 < index <= len(args) else None
        elif name.isidentifier():
            text = env.get(name)
        else:
            return None  # `$1 of f()`: a parameter of a function no one calls
        if value.default is None:
            return frozenset((text or "",))
        if text is None:
            return frozenset((value.default,))
        if text == "":
            # The record does not tell `${X:-d}` (d) from `${X-d}` (empty).
            return frozenset(("", value.default))
        return frozenset((text,))
    if value.kind is Kind.CONCAT:
        sets = []
        total = 1
        for part in value.parts:
            candidates = evaluate(part, env, args)
            if candidates is None:
                return None
            total *= len(candidates)
            if total > _MAX_CANDIDATES:
                return None
            sets.append(sorted(candidates))
        return frozenset("".join(choice) for choice in itertools.product(*sets))
    return None


def _fields(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def match(tokens: Sequence[ArgToken], words: Sequence[str], env: dict[str, str | None], args: tuple[str, ...]) -> int:
    """How well sglang-lint's ``tokens`` cover bash's ``words`` in one run: AGREE,
    SPLIT, IMPRECISE or DISAGREE (the best way through, see ``compare``)."""
    evaluated = []
    for token in tokens:
        if token.spread or token.value.kind is Kind.UNKNOWN:
            evaluated.append(None)
            continue
        candidates = evaluate(token.value, env, args)
        evaluated.append((token.value.kind is Kind.KNOWN, candidates))
    memo: dict[tuple[int, int], int] = {}

    def best(i: int, j: int) -> int:
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(tokens):
            result = AGREE if j == len(words) else DISAGREE
            memo[key] = result
            return result
        result = DISAGREE
        item = evaluated[i]
        if item is None or item[1] is None:
            # Stands for any number of words.
            for k in range(j, len(words) + 1):
                result = min(result, max(IMPRECISE, best(i + 1, k)))
                if result == IMPRECISE:
                    break
        else:
            known, candidates = item
            if j < len(words) and words[j] in candidates:
                result = min(result, best(i + 1, j + 1))
            if not known and result > AGREE:
                # An expansion whose quoting the record does not carry: bash may
                # have split it into fields (an empty one into none).
                for candidate in candidates:
                    fields = _fields(candidate)
                    if tuple(words[j : j + len(fields)]) == fields and fields != (candidate,):
                        result = min(result, max(SPLIT, best(i + 1, j + len(fields))))
        memo[key] = result
        return result

    return best(0, 0)


class Comparison:
    def __init__(self, verdict: int, problems: list[str], false_launches: int = 0, infeasible: int = 0) -> None:
        self.verdict = verdict
        self.problems = problems
        self.false_launches = false_launches
        # Variants whose path no run took (see compare): a sample of the runs may
        # have missed it, as for a false launch.
        self.infeasible = infeasible


def _subject_text(subject: str, env: dict[str, str | None], args: tuple[str, ...]) -> str | None:
    """What a path decision's subject holds in a run: ``$X``, ``$1``, ``${X:-d}``
    (shell), ``$X (default d)`` (``os.environ.get("X", "d")``), ``sys.argv[1]``;
    None when the run does not fix it (a parameter of an uncalled function)."""
    if subject.startswith("sys.argv[") and subject.endswith("]") and subject[9:-1].isdigit():
        index = int(subject[9:-1])
        return args[index - 1] if 0 < index <= len(args) else None
    if subject.startswith("$") and subject.endswith(")") and " (default " in subject:
        name, default = subject[1:-1].split(" (default ", 1)
        value = env.get(name)
        return default if value is None else value
    default = None
    if subject.startswith("${") and subject.endswith("}") and ":-" in subject:
        name, default = subject[2:-1].split(":-", 1)
    elif subject.startswith("$"):
        name = subject[1:]
    else:
        return None
    if name.isdigit():
        index = int(name)
        text = args[index - 1] if 0 < index <= len(args) else None
    elif name.isidentifier():
        text = env.get(name)
    else:
        return None
    if default is not None and not text:
        return default
    return text or ""


def step_holds(step: PathStep, env: dict[str, str | None], args: tuple[str, ...]) -> bool | None:
    """Whether a path decision went the way ``step`` says in a run; None when the
    oracle cannot tell (a condition over what the program computes)."""
    kind, subject, *rest = step.key.split("\0")
    if kind not in ("nonempty", "eq", "glob"):
        return None
    text = _subject_text(subject, env, args)
    if text is None:
        return None
    if kind == "nonempty":
        outcome = text != ""
    elif kind == "eq":
        outcome = text == rest[0]
    else:
        outcome = any(fnmatch.fnmatchcase(text, pattern) for pattern in rest[0].split("|"))
    return outcome == step.taken


def condition_holds(condition: Sequence[PathStep], run: Run) -> bool | None:
    """False when a decision the oracle can evaluate went the other way in this
    run; True when all went as said; None when some cannot be told."""
    verdicts = [step_holds(step, run.env, run.args) for step in condition]
    if False in verdicts:
        return False
    return None if None in verdicts else True


def compare(launches: Sequence[tuple], runs: Sequence[Run]) -> Comparison:
    """Soundness both ways, per program.

    A launch is ``(entry, tokens)`` or ``(entry, tokens, path_condition)`` (a
    launch variant, issue 16). A variant covers a run's argv only where its path
    condition is not contradicted by the run (each decision over an environment
    variable or a program argument is evaluated: ``step_holds``), so the
    conditions are held to the real program too. A variant no run ran whose
    condition no run satisfies, or that has a decision the oracle cannot
    evaluate, is an infeasible path (an over-approximation: "imprecise"), not a
    false launch.

    - Every launch bash ran, in every run (one assignment of the unknowns), is
      *covered* by a launch sglang-lint reports: the same entry point, and the
      argument tokens match the argv words in order. A known token equals one
      word. A symbol (``$X``, ``$1``, with its ``${X:-d}`` default), a concat of
      such, or alternatives, evaluated under the run's assignment, equals one word
      (alternatives: any of them); or, since an ArgToken does not record whether
      bash split it, its fields equal the next words ("agree (split)"). A spread
      token or an unknown value stands for any number of words: "imprecise".
    - No launch sglang-lint reports is absent from every run: a false launch.

    The verdict is the worst over the program's launches: a run's launch takes
    the best of the reported launches covering it.
    """
    problems: list[str] = []
    verdict = AGREE
    used = [False] * len(launches)
    for run in runs:
        for call in run.calls:
            launch = launch_of_call(call)
            if launch is None:
                continue
            entry, words = launch
            best = DISAGREE
            for index, reported in enumerate(launches):
                reported_entry, tokens = reported[0], reported[1]
                if reported_entry is not entry:
                    continue
                if len(reported) > 2 and condition_holds(reported[2], run) is False:
                    continue
                level = match(tokens, words, run.env, run.args)
                if level < DISAGREE:
                    used[index] = True
                best = min(best, level)
            if best == DISAGREE:
                problems.append(f"ran {entry.value} {list(words)} ({run.describe()}); no reported launch covers it")
            verdict = max(verdict, best)
    false_launches = infeasible = 0
    for index, reported in enumerate(launches):
        entry, tokens = reported[0], reported[1]
        condition = reported[2] if len(reported) > 2 else ()
        if not used[index] and condition and True not in [condition_holds(condition, run) for run in runs]:
            # No run took this path as far as the oracle can tell: an infeasible
            # combination of decisions (`(( N > 1 ))` and `$N` empty).
            problems.append(f"infeasible path: {entry.value} when {describe_path(condition)}")
            verdict = max(verdict, IMPRECISE)
            infeasible += 1
            continue
        if not used[index]:
            problems.append(f"false launch: {entry.value} {[t.value.describe() + ('...' if t.spread else '') for t in tokens]} matches no argv of any run")
            verdict = DISAGREE
            false_launches += 1
    return Comparison(verdict, problems, false_launches, infeasible)


def check(
    programs: Sequence[Program],
    run: Callable[..., list[list[Run]]],
    analyze: Callable[[Program], list[tuple[EntryPoint, list[ArgToken]]]],
    check_run: Callable[[Program, Sequence[Run]], None],
    full: bool = False,
) -> list[tuple[Program, Comparison, list[Run]]]:
    """Run (``run(programs, full=...)``) and compare; ``check_run`` fails loudly
    on a generator bug.

    By default each program first runs under the covering sample of its
    assignments: an argv that no reported launch covers is a disagreement in any
    run, but a reported launch absent from the runs is a false launch only if it
    is absent from every combination, so the programs with one run again under all
    of them (and that is the verdict that counts)."""
    all_runs = run(programs, full=full)
    results = []
    again = []
    for program, runs in zip(programs, all_runs):
        check_run(program, runs)
        comparison = compare(analyze(program), runs)
        if (comparison.false_launches or comparison.infeasible) and not full:
            again.append(len(results))
        results.append((program, comparison, runs))
    if again:
        rerun = run([results[index][0] for index in again], full=True)
        for index, runs in zip(again, rerun):
            program = results[index][0]
            check_run(program, runs)
            results[index] = (program, compare(analyze(program), runs), runs)
    return results


def table(results: Sequence[tuple[Program, Comparison, list[Run]]], constructs: Sequence[str]) -> str:
    """Per construct: programs that use it, by verdict."""
    counts: dict[str, list[int]] = {c: [0, 0, 0, 0] for c in constructs}
    totals = [0, 0, 0, 0]
    for program, comparison, _ in results:
        totals[comparison.verdict] += 1
        for construct in program.constructs:
            counts[construct][comparison.verdict] += 1
    lines = [f"{'construct':16} {'agree':>7} {'split':>7} {'imprec':>7} {'disagree':>8}"]
    for construct in constructs:
        row = counts[construct]
        lines.append(f"{construct:16} {row[0]:7} {row[1]:7} {row[2]:7} {row[3]:8}")
    lines.append(f"{'ALL PROGRAMS':16} {totals[0]:7} {totals[1]:7} {totals[2]:7} {totals[3]:8}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------
# What the oracle tests share


def launches_of(result) -> list[tuple[EntryPoint, list[ArgToken], tuple[PathStep, ...]]]:
    """A source's reported launches (servers and routers; each launch variant
    with its path condition) as compare() takes them."""
    return [(launch.entry, launch.args, launch.path_condition) for launch in [*result.servers, *result.routers]]


def quiet(complaint: str) -> Callable[[Program, Sequence[Run]], None]:
    """A ``check_run`` for ``check``: a run that wrote to its ``stderr`` (a
    generator bug) fails with ``complaint``."""

    def check_run(program: Program, runs: Sequence[Run]) -> None:
        for run in runs:
            if run.stderr.strip():
                raise AssertionError(f"{complaint} (generated program seed {program.seed}, {run.describe()}):\n{run.stderr}\n{program.text}")

    return check_run


class Gap:
    """A construct sglang-lint gets wrong today: a minimal reproducer (a program
    the oracle runs under ``env_domains`` and ``arg_vectors``) and what is wrong."""

    def __init__(self, construct: str, text: str, env_domains: dict, wrong: str, arg_vectors: tuple = ((),)) -> None:
        self.construct = construct
        self.program = Program(-1, text, frozenset((construct,)), env_domains, arg_vectors)
        self.wrong = wrong


def describe(program: Program, comparison: Comparison) -> str:
    return f"--- program seed {program.seed} ({', '.join(sorted(program.constructs))}):\n{program.text}" + "\n".join(comparison.problems[:6])


def assert_all_agree(label: str, results: Sequence[tuple[Program, Comparison, list[Run]]], constructs: Sequence[str], gaps: Iterable[str], elapsed: float) -> None:
    """The default run's verdict: print the per-construct table, fail on any
    disagreement, and on a construct outside ``gaps`` that no program used."""
    programs = [program for program, _, _ in results]
    runs = sum(len(r) for _, _, r in results)
    print(f"\n{label} oracle: {len(programs)} programs, {runs} runs, {elapsed:.1f} s")
    print(table(results, constructs))
    disagreeing = [(program, comparison) for program, comparison, _ in results if comparison.verdict == DISAGREE]
    assert not disagreeing, (
        f"{len(disagreeing)} of {len(programs)} generated programs disagree with {label} "
        "(make each a fixed regression case, or a KNOWN_GAPS entry with its reproducer):\n"
        + "\n".join(describe(p, c) for p, c in disagreeing[:5])
    )
    # Every construct outside the gaps was exercised.
    used = set().union(*(program.constructs for program in programs))
    assert set(constructs) - set(gaps) <= used or len(programs) < 500


def dropped_launches_caught(programs: Sequence[Program], all_runs: Sequence[Sequence[Run]], analyze: Callable[[Program], list]) -> int:
    """Drop each agreeing program's first reported launch (when no other one
    duplicates it) and require the comparison to notice; how many were caught."""
    caught = 0
    for program, runs in zip(programs, all_runs):
        launches = analyze(program)
        if not launches or compare(launches, runs).verdict >= IMPRECISE:
            continue  # an imprecise launch (an unknown word) may cover another's argv

        def shape(launch):
            return launch[0], [(token.value, token.spread) for token in launch[1]], tuple(launch[2:])

        dropped, rest = launches[0], launches[1:]
        if any(shape(other) == shape(dropped) for other in rest):
            continue  # the same launch reported twice (a function called twice)
        assert compare(rest, runs).verdict == DISAGREE, program.text
        caught += 1
    return caught


def assert_gaps_generated(generate: Callable[..., Program], gaps: Iterable[str], constructs: Sequence[str], seeds: int, depth: int) -> None:
    """A gap stays in the grammar: without ``exclude`` the generator produces it."""
    seen: set[str] = set()
    for seed in range(seeds):
        seen |= generate(seed, depth=depth).constructs
    assert set(gaps) <= seen and set(gaps) <= set(constructs), sorted(set(gaps) - seen)


def planted_bugs(right: list[tuple[EntryPoint, list[ArgToken]]], changes: dict[str, tuple[int, Value]]) -> dict[str, list]:
    """Deliberately wrong versions of sglang-lint's ``right`` launches (a
    comparison that cannot fail is worthless): ``changes`` names the value put at
    an index of the first launch's tokens; the rest drop, add or move words and
    launches."""
    (entry, tokens), rest = right[0][:2], right[1:]

    def changed(index: int, value: Value) -> list[ArgToken]:
        result = list(tokens)
        result[index] = ArgToken(value, tokens[index].location)
        return result

    extra = ArgToken(Value.known("--port"), tokens[0].location)
    planted = {name: [(entry, changed(index, value))] + rest for name, (index, value) in changes.items()}
    planted.update(
        {
            "a known word changed": [(entry, changed(0, Value.known("--tp")))] + rest,
            "a word dropped": [(entry, tokens[:-1])] + rest,
            "a word added": [(entry, [*tokens, extra])] + rest,
            "a launch dropped": rest,
            "the wrong entry point": [(EntryPoint.ROUTER, tokens)] + rest,
            "a false launch": right + [(EntryPoint.LAUNCH_SERVER, [extra])],
        }
    )
    return planted
