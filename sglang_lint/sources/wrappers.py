"""Commands that run another command, and which of their options take a value.

Tables rather than code so that a new wrapper is one line. Options given as
``--opt=value`` or ``-Xvalue`` carry their value and need no entry; an option not
listed is taken as a flag.
"""

from __future__ import annotations

import os
import re
from typing import Callable, Sequence

from msgspec import Struct


class Wrapper(Struct, frozen=True):
    # Options whose value is the next word.
    value_options: frozenset[str] = frozenset()
    # Positional words the wrapper takes before the command (timeout's DURATION).
    positionals: int = 0
    # Words of the form NAME=VALUE before the command are environment settings.
    assignments: bool = False
    # Options that end the wrapper's own options for good (taskset -p takes a pid).
    refuses: frozenset[str] = frozenset()
    # taskset takes a CPU mask positional unless -c/--cpu-list gave the list.
    positional_unless: frozenset[str] = frozenset()
    # A subcommand word that comes first (`uv run`, `conda run`); without it the
    # command is not a wrapper at all.
    subcommand: str = ""
    # Every option takes a value, the next word unless written `--opt=VALUE`
    # (nsys: its switches' booleans are words too, `--force-overwrite true`).
    options_take_values: bool = False
    # Options that run a Python module with the rest (`uv run -m MODULE`):
    # the wrapper's words end there, at the option.
    module_options: frozenset[str] = frozenset()

    def skip(self, words: Sequence, index: int, value_of: Callable) -> int:
        """Index of the wrapped command's first word (len(words) when none)."""
        position = index + 1
        if self.subcommand:
            if position >= len(words) or value_of(words[position]).text != self.subcommand or not value_of(words[position]).is_known:
                return len(words)
            position += 1
        saw_list_option = False
        while position < len(words):
            value = value_of(words[position])
            if not value.is_known:
                # `--membind=$NODE`, `env CUDA_VISIBLE_DEVICES=$GPUS`: the wrapper's
                # own option or assignment even though its value is not known
                # (stopping here took that word for the command and lost the launch).
                prefix = value.literal_prefix()
                name, equals, _ = prefix.partition("=")
                if equals and (
                    (name.startswith("-") and len(name) > 1) or (self.assignments and name.isidentifier())
                ):
                    position += 1
                    continue
                break
            text = value.text
            if text == "--":
                position += 1
                break
            if text in self.refuses:
                return len(words)
            if text in self.module_options:
                break
            if text.startswith("-") and len(text) > 1:
                if text in self.positional_unless or text.split("=", 1)[0] in self.positional_unless:
                    saw_list_option = True
                position += 1
                if "=" not in text and text in self.value_options:
                    position += 1
                elif "=" not in text and self.options_take_values and not _starts_a_launch(words, position, value_of):
                    # (a switch given no value, before the launch itself: the
                    # launch is not taken for its value and lost)
                    position += 1
                continue
            if self.assignments and "=" in text and text.split("=", 1)[0].isidentifier():
                position += 1
                continue
            break
        positionals = self.positionals
        if self.positional_unless and not saw_list_option:
            positionals += 1
        return position + positionals


# A Python interpreter's command name (`python3`, `python3.11`, `python3t`).
PYTHON_NAME = re.compile(r"python(\d+(\.\d+)*)?[mtw]?(\.exe)?")


def _starts_a_launch(words: Sequence, position: int, value_of: Callable) -> bool:
    """Whether ``words[position]`` is the program of a launch (`python3 -m
    sglang...`, `sglang serve`), never a switch's value."""
    if position >= len(words):
        return False
    value = value_of(words[position])
    if not value.is_known:
        return False
    name = os.path.basename(value.text)
    return name == "sglang" or PYTHON_NAME.fullmatch(name) is not None


def _opts(*names: str) -> frozenset[str]:
    return frozenset(names)


WRAPPERS: dict[str, Wrapper] = {
    "nohup": Wrapper(),
    # util-linux setsid [-c] [-f] [-w] program: a server detached from the
    # terminal's session (`nohup setsid python -m sglang.launch_server ...`)
    "setsid": Wrapper(),
    "exec": Wrapper(value_options=_opts("-a")),
    "time": Wrapper(value_options=_opts("-f", "--format", "-o", "--output")),
    "command": Wrapper(),
    "builtin": Wrapper(),
    "stdbuf": Wrapper(value_options=_opts("-i", "-o", "-e")),
    "nice": Wrapper(value_options=_opts("-n", "--adjustment")),
    "ionice": Wrapper(value_options=_opts("-c", "-n", "-p", "--class", "--classdata")),
    "chrt": Wrapper(positionals=1),
    "sudo": Wrapper(value_options=_opts("-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "--user", "--group"), assignments=True),
    "env": Wrapper(value_options=_opts("-u", "--unset", "-C", "--chdir", "-S", "--split-string"), assignments=True),
    "timeout": Wrapper(value_options=_opts("-s", "--signal", "-k", "--kill-after"), positionals=1),
    "numactl": Wrapper(
        value_options=_opts(
            "-N", "--cpunodebind", "-m", "--membind", "-C", "--physcpubind", "-i", "--interleave",
            "-p", "--preferred", "-P", "--preferred-many", "-w", "--weighted-interleave",
        )
    ),
    "taskset": Wrapper(value_options=_opts("-c", "--cpu-list"), positional_unless=_opts("-c", "--cpu-list"), refuses=_opts("-p", "--pid", "-pc", "-cp")),
    "srun": Wrapper(
        value_options=_opts(
            "-A", "--account", "-c", "--cpus-per-task", "-d", "--dependency", "-D", "--chdir", "-e", "--error",
            "-i", "--input", "-J", "--job-name", "-L", "--licenses", "-m", "--distribution", "-n", "--ntasks",
            "-N", "--nodes", "-o", "--output", "-p", "--partition", "-q", "--qos", "-t", "--time", "-w",
            "--nodelist", "-x", "--exclude", "-G", "--gpus", "--gres", "--gpus-per-node", "--gpus-per-task",
            "--ntasks-per-node", "--mem", "--mem-per-cpu", "--mem-per-gpu", "--container-image",
            "--container-mounts", "--container-name", "--container-workdir", "--mpi", "--export", "-r",
            "--relative", "--het-group", "-C", "--constraint", "--cpu-bind", "--reservation", "-W", "--wait",
        )
    ),
    "mpirun": Wrapper(value_options=_opts("-np", "-n", "-N", "--host", "-H", "--hostfile", "-x", "--map-by", "--bind-to", "-mca", "--mca")),
    # Nsight Systems, `nsys profile [switches] APPLICATION [ARGS]`: "when short
    # options are used, the parameters should follow the switch after a space
    # (-s process-tree); when long options are used, ... an equal sign"
    # (Nsight Systems User Guide, "Command Line Options"); a long switch
    # followed by its value as the next word is common too (`--force-overwrite
    # true`). Every profile switch but --help takes a parameter (booleans are
    # `true`/`false`), so a switch is its word and the next, unless it holds "=".
    "nsys": Wrapper(subcommand="profile", options_take_values=True, refuses=_opts("-h", "--help")),
    # `uv run [opts] -m MODULE ARGS` runs the project's Python with -m (uv's
    # run --module).
    "uv": Wrapper(value_options=_opts("--with", "--python", "-p", "--project", "--directory", "--env-file"), subcommand="run", module_options=_opts("-m", "--module")),
    "conda": Wrapper(value_options=_opts("-n", "--name", "-p", "--prefix"), subcommand="run"),
}

DOCKER_RUN_VALUE_OPTIONS = frozenset(
    {
        "-a", "--attach", "--add-host", "--annotation", "--blkio-weight", "--blkio-weight-device",
        "--cap-add", "--cap-drop", "--cgroup-parent", "--cgroupns", "--cidfile", "-c", "--cpu-shares",
        "--cpu-period", "--cpu-quota", "--cpu-rt-period", "--cpu-rt-runtime", "--cpus", "--cpuset-cpus",
        "--cpuset-mems", "--device", "--device-cgroup-rule", "--device-read-bps", "--device-read-iops",
        "--device-write-bps", "--device-write-iops", "--dns", "--dns-option", "--dns-search",
        "--domainname", "--entrypoint", "-e", "--env", "--env-file", "--expose", "--gpus", "--group-add",
        "--health-cmd", "--health-interval", "--health-retries", "--health-start-period",
        "--health-timeout", "-h", "--hostname", "--ip", "--ip6", "--ipc", "--isolation",
        "--kernel-memory", "-l", "--label", "--label-file", "--link", "--link-local-ip", "--log-driver",
        "--log-opt", "--mac-address", "-m", "--memory", "--memory-reservation", "--memory-swap",
        "--memory-swappiness", "--mount", "--name", "--network", "--net", "--network-alias",
        "--oom-score-adj", "--pid", "--pids-limit", "--platform", "-p", "--publish", "--pull",
        "--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal", "--stop-timeout",
        "--storage-opt", "--sysctl", "--tmpfs", "--ulimit", "-u", "--user", "--userns", "--uts", "-v",
        "--volume", "--volume-driver", "--volumes-from", "-w", "--workdir",
    }
)

# `docker exec [OPTIONS] CONTAINER COMMAND`: its options that take a value
# (docker CLI reference, docker container exec).
DOCKER_EXEC_VALUE_OPTIONS = frozenset({"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys"})

# The container CLIs whose `run` and `exec` are looked through.
DOCKER_CLIS = frozenset({"docker", "podman", "nvidia-docker"})

# `apptainer exec|run [OPTIONS] IMAGE COMMAND` (and `singularity`, its former
# name): the options that take a value (apptainer cmd/internal/cli/action_flags.go,
# with the registry and key options every action takes). `-e` is --cleanenv
# here, a switch.
APPTAINER_CLIS = frozenset({"apptainer", "singularity"})
APPTAINER_EXEC_VALUE_OPTIONS = frozenset(
    {
        "--app", "-B", "--bind", "--mount", "-H", "--home", "-o", "--overlay", "-S", "--scratch", "-W",
        "--workdir", "--pwd", "--hostname", "--network", "--network-args", "--dns", "--security",
        "--apply-cgroups", "--vm-ram", "--vm-cpu", "--vm-ip", "--containlibs", "--fusemount", "--tmpdir",
        "--add-caps", "--drop-caps", "--env", "--env-file", "--no-mount", "--dmtcp-launch", "--dmtcp-restart",
        "--blkio-weight", "--blkio-weight-device", "--cpu-shares", "--cpus", "--cpuset-cpus", "--cpuset-mems",
        "--memory", "--memory-reservation", "--memory-swap", "--pids-limit", "--pem-path", "--docker-host",
        "--docker-username", "--docker-password", "--authfile",
    }
)

# Marks the part of an option word that cannot be known (`--env=$X`, `-e$X`):
# the word's literal start, then this, which stands for one or more characters.
UNKNOWN_REST = "\x00"


def docker_command_start(texts: Sequence[str | None], index: int, subcommand: str, entrypoint: list[tuple[int, int]] | None = None) -> int:
    """Index of the command a container runs in ``docker [container] run
    [OPTIONS] IMAGE CMD`` or ``docker [container] exec [OPTIONS] CONTAINER CMD``
    (``subcommand``, the CLI at ``index``); -1 when the CLI runs another
    subcommand or no command. ``texts``: each word's text; None for a word that
    cannot be known, or its literal start and UNKNOWN_REST when that start is
    an option's (both readers of a command, over words and over plain text,
    share this one reading of docker's options). ``entrypoint`` gets where the
    value of each `run --entrypoint` is, the program the command's words are
    given to: (the index of the word that holds it, the characters before it
    in that word: `--entrypoint=X`'s)."""
    position = index + 1
    if position + 1 < len(texts) and texts[position] == "container":
        position += 1
    if position >= len(texts) or texts[position] != subcommand:
        return -1
    value_options = DOCKER_RUN_VALUE_OPTIONS if subcommand == "run" else DOCKER_EXEC_VALUE_OPTIONS
    position = _first_pflag_operand(texts, position + 1, value_options, entrypoint) + 1  # past the image or container
    return position if position < len(texts) else -1


def apptainer_command_start(texts: Sequence[str | None], index: int) -> int:
    """Index of the command in ``apptainer exec [OPTIONS] IMAGE CMD`` or
    ``apptainer run [OPTIONS] IMAGE ARGS`` (the CLI at ``index``; ``texts`` as
    for docker_command_start), or -1: another subcommand, or no command. `run`
    hands the words to the image's runscript, which for an image built from a
    Docker one runs its entrypoint with them, as `docker run IMAGE CMD` does."""
    position = index + 1
    if position >= len(texts) or texts[position] not in ("exec", "run"):
        return -1
    position = _first_pflag_operand(texts, position + 1, APPTAINER_EXEC_VALUE_OPTIONS) + 1  # past the image
    return position if position < len(texts) else -1


def _first_pflag_operand(texts: Sequence[str | None], position: int, value_options: frozenset[str], entrypoint: list[tuple[int, int]] | None = None) -> int:
    """Index of the first operand at or after ``position``, options read as Go's
    pflag (docker's and podman's parser) reads them: ``--opt=v`` and ``--opt v``;
    a cluster ``-ite X`` whose first letter that takes a value takes the rest of
    the word (``-eFOO=1``) or, last, the next word; ``--`` ends the options.
    ``entrypoint`` gets each ``--entrypoint`` value (docker_command_start)."""
    while position < len(texts):
        text = texts[position]
        if text is None or not text.startswith("-") or text == "-":
            return position
        position += 1
        if text == "--":
            return position
        if text.startswith("--"):
            if entrypoint is not None and text.partition("=")[0] == "--entrypoint":
                entrypoint.append((position - 1, len("--entrypoint=")) if "=" in text else (position, 0))
            if "=" not in text and text in value_options:
                position += 1
            continue
        for offset in range(1, len(text)):
            if "-" + text[offset] in value_options:
                if offset == len(text) - 1:
                    position += 1
                break
    return position


SSH_VALUE_OPTIONS = frozenset(
    {"-B", "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w"}
)
