"""What the argv parser produces: SGLang's settings of one server, each with provenance.

Data only; the parsing lives in :mod:`sglang_lint.catalog.argv`.
"""

from __future__ import annotations

from typing import Iterator, Mapping, MutableMapping

from msgspec import Struct

from sglang_lint.model import Location, Value

# Up to 0.5.13 the first long spelling (--tensor-parallel-size) named the argparse
# dest, and from_cli_args copied it to the ServerArgs field afterwards (0.5.9
# server_args.py:5069-5075). Rules ask by field name; these are the old dests.
LEGACY_DESTS = {
    "tp_size": "tensor_parallel_size",
    "dp_size": "data_parallel_size",
    "pp_size": "pipeline_parallel_size",
    "ep_size": "expert_parallel_size",
    "attn_cp_size": "attention_context_parallel_size",
    "moe_dp_size": "moe_data_parallel_size",
}


class Setting(Struct, frozen=True, gc=False):
    """The final value of one option (argparse ``dest``) of one server.

    ``location`` is the token (or ``--config`` YAML key) that set it, None when the
    value is SGLang's default. ``spelling`` is the option as the user wrote it
    (``--tp``, ``--tensor-parallel-size``, ``tp-size:`` in a config file).
    ``origin`` is where the value text was defined when elsewhere (``TP=8``).
    A setting that a later unresolvable word (``"$@"``) may override has
    ``value`` UNKNOWN and keeps what was written in ``written``.
    """

    dest: str
    value: Value
    location: Location | None = None
    spelling: str = ""
    origin: Location | None = None
    written: Value | None = None

    @property
    def is_default(self) -> bool:
        return self.location is None

    @property
    def is_keyword(self) -> bool:
        """Set by a Python keyword argument (``tp_size=8``), not an argv word."""
        return self.spelling.endswith("=")

    def written_as(self, shown: Value | None = None) -> str:
        """How the user wrote it: ``--tp 8``, ``--enable-dp-attention``,
        ``tp_size=8``, ``enable_dp_attention=True``, ``tp-size: 8``."""
        value = shown if shown is not None else self.value
        text = value.describe()
        if self.is_keyword:
            if value.is_known and text in ("true", "false"):
                text = text.capitalize()  # the Python literal the user wrote
            return f"{self.spelling}{text}"
        if self.spelling.startswith("-") and value.is_known and text in ("true", "false"):
            return self.spelling  # a flag: its spelling says it all
        return f"{self.spelling} {text}"

    def describe_source(self) -> str:
        """``run.sh:5: --tp-size 8`` or ``default``."""
        if self.location is None:
            return "default"
        text = f"{self.location.short()}: {self.written_as()}"
        if self.origin is not None and self.origin != self.location:
            text += f" (set at {self.origin.short()})"
        return text


class Overlay(MutableMapping[str, "Setting"]):
    """A launch's own settings over the table's shared defaults (read-only).

    collections.ChainMap does the same, but its lookups run Python-level loops
    over its maps: rules read settings ~100,000 times on a tree of 2,000 launches,
    and ChainMap's ``get``/``in`` were a tenth of the cross-file stage (issue 7).
    Writes go to the launch's own layer; deleting a default is not supported."""

    __slots__ = ("own", "defaults")

    def __init__(self, defaults: Mapping[str, "Setting"]) -> None:
        self.own: dict[str, Setting] = {}
        self.defaults = defaults

    def __getitem__(self, dest: str) -> "Setting":
        setting = self.own.get(dest)
        if setting is None:
            return self.defaults[dest]
        return setting

    def get(self, dest: str, default=None):  # type: ignore[override]
        setting = self.own.get(dest)
        if setting is None:
            return self.defaults.get(dest, default)
        return setting

    def __contains__(self, dest: object) -> bool:
        return dest in self.own or dest in self.defaults

    def __setitem__(self, dest: str, setting: "Setting") -> None:
        self.own[dest] = setting

    def __delitem__(self, dest: str) -> None:
        del self.own[dest]

    def __iter__(self) -> Iterator[str]:
        yield from self.own
        for dest in self.defaults:
            if dest not in self.own:
                yield dest

    def __len__(self) -> int:
        return len(self.own) + sum(1 for dest in self.defaults if dest not in self.own)


class ArgProblem(Struct, frozen=True):
    """Something argparse (or ``sglang serve`` before it) would reject, kept for
    rules SGL201-SGL203, SGL206, SGL208 and SGL209."""

    kind: str  # "ambiguous" | "unknown" | "invalid-value" | "config-equals" | "config-file" | "missing-model" | "no-entry-point"
    message: str
    location: Location
    option: str = ""
    candidates: tuple[str, ...] = ()
    # The option and its value in one word (`--config=FILE`).
    joined: bool = False
    # An "invalid choice": the value's text outside the option's choices (which a
    # plugin or a newer release may add); "" for every other problem.
    refused_choice: str = ""
    # An unrecognized argument: the word's text ("" for every other problem).
    word: str = ""


# What `sglang serve` raises when its own scan finds no model path (0.5.23
# sglang/cli/utils.py:165-167): SGL208.
SERVE_MODEL_PATH_REQUIRED = "Error: --model-path is required. Please provide the path to the model."


# The first release with the `sglang` command (`[project.scripts] sglang =
# "sglang.cli.main:main"`, the wheel's entry_points.txt) and the diffusion
# server's CLI (`sglang/multimodal_gen/runtime/entrypoints/cli/main.py`): both
# came in 0.5.5; 0.5.4's wheel has neither (no entry_points.txt, no cli/, no
# multimodal_gen/). Before it a launch through either starts nothing: SGL209.
SERVE_COMMAND_SINCE = (0, 5, 5)


# The server program a launch starts. `sglang serve` picks a backend (0.5.23
# sglang/cli/serve.py:181-225): `--model-type llm|diffusion`, else the model
# decides (`_detect_diffusion`, :109-118); catalog/argv says how we read it.
LLM = "llm"
DIFFUSION = "diffusion"
# `sglang serve` whose model alone decides, with options both servers declare.
LLM_OR_DIFFUSION = "llm-or-diffusion"
# `--model-type NAME` of a backend an installed package registers (serve_backends.py).
OUT_OF_TREE = "out-of-tree"


class ServerSettings(Struct):
    """Settings of one server for one target version.

    ``values`` maps argparse dest -> Setting for every option of the version's table
    (defaults included). ``problems`` are argv errors; parsing goes on past them so
    that other rules still see the options that were understood.
    """

    version: str
    # Usually an Overlay of this launch's settings over the table's shared defaults.
    values: MutableMapping[str, Setting] = {}
    problems: list[ArgProblem] = []
    # Positions of words whose content we cannot see ("$@", unknown arrays).
    opaque: list[Location] = []
    # Of those, the arguments passed through from whoever runs the file (the
    # script's "$@", sys.argv[1:], an $EXTRA_ARGS it never sets), as (where,
    # what): assumed to add no options (issue 16, part 5), so they override
    # nothing; the findings on this launch name them.
    passed_through: list[tuple[Location, str]] = []
    # Words a merge of branches made (past the paths' bound) one of whose ways
    # holds an option this release does not know: on those ways argparse
    # refuses the launch, a problem the merge hides (no setting changes).
    unchecked: list[Location] = []
    # Which server program reads these settings (LLM, DIFFUSION, ...) and, when
    # not the LLM server, why (what a finding's note and the topology say).
    program: str = LLM
    program_reason: str = ""

    def get(self, dest: str) -> Setting:
        """The setting for ``dest``; an option absent from this version reads as its
        absence (UNKNOWN value with reason) rather than raising."""
        setting = self.values.get(dest)
        if setting is None and dest in LEGACY_DESTS:
            setting = self.values.get(LEGACY_DESTS[dest])
        if setting is None:
            return Setting(dest, Value.unknown(f"no option for {dest} in sglang {self.version}"))
        return setting

    def has_option(self, dest: str) -> bool:
        return dest in self.values or LEGACY_DESTS.get(dest, "") in self.values
