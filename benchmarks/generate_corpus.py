#!/usr/bin/env python3
"""Write a deterministic corpus of SGLang launch files for benchmarking sglang-lint.

The performance benchmark times ``sglang-lint check`` on corpora of 500, 1000 and
2000 files: at least 250 files a second, a time linear in the number of files, and
a warm-cache run at least ten times faster than a cold one. This script writes
such a corpus:

    python benchmarks/generate_corpus.py OUT_DIR --files N [--seed S] [--force]

or, from Python, ``generate(Path(OUT_DIR), N, seed)``, which returns the number of
files written per kind.

What is written. Exactly N files and nothing else (no ``sglang-lint.toml``), so
that files/s is N divided by the run's wall time. Each file is one of four kinds,
in fixed proportions (rounded to whole files, then shuffled):

- 40% shell: ``.sh`` scripts, some extension-less with a ``#!/bin/bash`` shebang,
  some Slurm batch scripts (``#SBATCH`` headers, ``srun``); plain launches with
  backslash continuations, ``${VAR:-default}`` variables, a function called once
  per role, ``for`` loops over the nodes of a multi-node server;
- 25% Python: ``subprocess.Popen`` argv lists, ``shell=True`` f-strings,
  ``sglang.Engine(**kwargs)``, a unittest class starting its servers with
  ``popen_launch_pd_server``, argv built in loops over a dict of roles;
- 20% YAML: Kubernetes Deployment / StatefulSet / LeaderWorkerSet manifests
  (``command``/``args`` lists, ``bash -c`` block scalars reading the container's
  ``env``) with Services and other objects, and docker compose files;
- 15% Markdown runbooks: prose, ``bash``/``python``/``yaml`` fences holding the
  launches and a ``console`` block of ``$ `` prompts.

The files are grouped into deployment directories (``OUT_DIR/team-NN/deploy-NNNN/``)
of 2 to 6 files. Each directory has one set of PD settings; most hold a prefill
file and a decode file that sglang-lint pairs by directory (sometimes with a PD
router file naming both), and files that launch a whole prefill/decode pair
(sometimes with its router) on their own. About 20% of the directories carry one
mistake that sglang-lint reports (attention TP mismatch with unified memory,
unified memory on one side only, different page size, KV cache dtype, transfer
backend, model or bootstrap port, a misspelt option); the rest are clean.

File sizes vary like real ones (shell 20-200 lines, Python 40-250, YAML 40-150,
Markdown 30-200; about 4 KB on average): launches are padded with what such files
also hold (NCCL exports, ``nvidia-smi``, health checks with curl, helper functions,
Services, prose). The same N and seed give byte-identical files; corpora of
different N are drawn from the same distributions, so they have the same kind mix
and the same size per file on average. Standard library only.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

# --------------------------------------------------------------------------- #
# Deployment settings
# --------------------------------------------------------------------------- #

KIND_SHARES = (("shell", 0.40), ("python", 0.25), ("yaml", 0.20), ("markdown", 0.15))
MISTAKE_RATE = 0.20
LINE_RANGES = {"shell": (20, 200), "python": (40, 250), "yaml": (40, 150), "markdown": (30, 200)}

PREFILL, DECODE, ROUTER = "prefill", "decode", "router"
BOTH = (PREFILL, DECODE)

MODELS = (
    "deepseek-ai/DeepSeek-V3",
    "deepseek-ai/DeepSeek-R1-0528",
    "Qwen/Qwen3-Next-80B-A3B-Instruct",
    "Qwen/Qwen3-235B-A22B-Instruct-2507",
    "Qwen/Qwen3-32B",
    "meta-llama/Llama-3.3-70B-Instruct",
    "moonshotai/Kimi-K2-Instruct",
    "zai-org/GLM-4.5-Air",
    "/models/Qwen3-Next-80B-A3B-Thinking",
    "/mnt/weights/DeepSeek-V3.1",
)
IMAGES = ("lmsysorg/sglang:v0.5.23-cu129", "lmsysorg/sglang:latest", "registry.internal/llm/sglang:0.5.22-pd")
# A misspelt option per setting it replaces (none is a prefix of a real option).
TYPOS = {"mem": "--mem-fraction-statc", "ctx": "--context-lenght", "tp": "--tp-szie"}
MISTAKES = ("attn-tp", "dp-attention", "one-sided-unified", "page-size", "kv-dtype", "backend", "typo", "model",
            "bootstrap-port")
# Settings that are usually the same on both sides: a single-role file keeps them
# apart from the role's own ones (a COMMON_ARGS list, a shared dict).
SHARED_KEYS = ("model", "trust", "backend", "ib", "ctx", "host")
# Option keys that hold whole numbers (Python renders them without quotes).
INT_KEYS = ("tp", "dp", "page", "bootstrap", "ctx", "port", "nnodes", "rank")

# (key, flag, value): the key names the setting whatever its spelling; flags have no value.
Option = tuple[str, str, str | None]
# Padding blocks of one kind, each made when drawn.
Blocks = tuple[Callable[[], list[str]], ...]


@dataclass(frozen=True)
class Server:
    role: str
    model: str
    tp: int
    port: int
    backend: str
    mem_fraction: str
    dp: int = 1
    dp_attention: bool = False
    unified: bool = False
    page_size: int | None = None
    kv_dtype: str | None = None
    bootstrap_port: int | None = None
    typo: str | None = None  # key of the option whose flag is misspelt

    @property
    def nnodes(self) -> int:
        return 2 if self.tp >= 16 else 1


@dataclass(frozen=True)
class Deployment:
    name: str
    prefill: Server
    decode: Server
    tp_flag: str
    dp_flag: str
    trust_remote_code: bool
    ib_device: str | None
    context_length: int | None
    image: str
    python: str  # "python" or "python3"
    prefill_host: str  # as a router on another machine reaches it
    decode_host: str
    router_port: int
    router_names_bootstrap: bool  # the router passes the prefill's bootstrap port
    mistake: str | None

    @property
    def model(self) -> str:
        return self.prefill.model

    def server(self, role: str) -> Server:
        return self.prefill if role == PREFILL else self.decode


def make_deployment(rng: random.Random, name: str, has_router: bool) -> Deployment:
    """Consistent PD settings, then (with MISTAKE_RATE) one mistake on the decode."""
    model = rng.choice(MODELS)
    tp = rng.choice((2, 4, 8, 8, 8, 16))
    unified = rng.random() < 0.5
    backend = "mooncake" if unified or rng.random() < 0.7 else "nixl"
    port = rng.choice((30000, 30000, 30000, 31000, 8100))
    page = rng.choice((None, None, 16, 32, 64))
    kv = rng.choice((None, None, "fp8_e4m3", "bf16"))
    boot = rng.choice((None, None, 8998, 9000 + rng.randrange(40)))
    prefill = Server(PREFILL, model, tp, port, backend, rng.choice(("0.8", "0.75", "0.7")), unified=unified,
                     page_size=page, kv_dtype=kv, bootstrap_port=boot)
    decode = replace(prefill, role=DECODE, port=port + 1, mem_fraction=rng.choice(("0.85", "0.88", "0.9")))
    if rng.random() < 0.4:  # DP attention on the decode (on both sides with unified memory)
        decode = replace(decode, dp=tp, dp_attention=True)
        if unified:
            prefill = replace(prefill, dp=tp, dp_attention=True)
    mistake = None
    if rng.random() < MISTAKE_RATE:
        choices = MISTAKES if has_router else MISTAKES[:-1]
        mistake = rng.choice(choices)
        prefill, decode = inject_mistake(rng, mistake, prefill, decode)
    subnet = f"10.{rng.randrange(16, 32)}.{rng.randrange(256)}"
    return Deployment(
        name=name,
        prefill=prefill,
        decode=decode,
        tp_flag=rng.choice(("--tp-size", "--tp-size", "--tp")),
        dp_flag=rng.choice(("--dp-size", "--dp-size", "--dp")),
        trust_remote_code=rng.random() < 0.6,
        ib_device=rng.choice((None, "mlx5_0", "mlx5_0,mlx5_1,mlx5_2,mlx5_3")),
        context_length=rng.choice((None, None, 32768, 65536, 131072)),
        image=rng.choice(IMAGES),
        python=rng.choice(("python3", "python3", "python")),
        prefill_host=f"{subnet}.{rng.randrange(2, 120)}",
        decode_host=f"{subnet}.{rng.randrange(120, 250)}",
        router_port=rng.choice((8000, 8000, 8080, 9000)),
        router_names_bootstrap=boot is not None and rng.random() < 0.5,
        mistake=mistake,
    )


def inject_mistake(rng: random.Random, mistake: str, prefill: Server, decode: Server) -> tuple[Server, Server]:
    """The prefill and decode of a deployment that carries ``mistake``."""
    plain = {"dp": 1, "dp_attention": False}
    unified = {"unified": True, "backend": "mooncake"}
    if mistake == "attn-tp":  # SGL001
        tp = max(prefill.tp, 4)
        return replace(prefill, tp=tp, **plain, **unified), replace(decode, tp=tp // 2, **plain, **unified)
    if mistake == "dp-attention":  # SGL001
        tp = max(prefill.tp, 4)
        return (replace(prefill, tp=tp, **plain, **unified),
                replace(decode, tp=tp, dp=tp, dp_attention=True, **unified))
    if mistake == "one-sided-unified":  # SGL002
        return replace(prefill, **plain, **unified), replace(decode, **plain, unified=False, backend="mooncake")
    if mistake == "page-size":  # SGL003
        return replace(prefill, page_size=64), replace(decode, page_size=rng.choice((None, 16, 32)))
    if mistake == "kv-dtype":  # SGL004
        return replace(prefill, kv_dtype="fp8_e4m3"), replace(decode, kv_dtype="bf16")
    if mistake == "backend":  # SGL006
        return (replace(prefill, unified=False, backend="mooncake"),
                replace(decode, unified=False, backend="nixl"))
    if mistake == "typo":  # SGL202
        return prefill, replace(decode, typo=rng.choice(("mem", "tp", "ctx")))
    if mistake == "model":  # SGL005
        return prefill, replace(decode, model=prefill.model.rstrip("/") + "-FP8")
    # bootstrap-port (SGL010): the decode looks for the prefill at the default port
    return replace(prefill, bootstrap_port=9100), replace(decode, bootstrap_port=None)


# --------------------------------------------------------------------------- #
# Options: what every renderer turns into its own syntax
# --------------------------------------------------------------------------- #


def server_options(dep: Deployment, srv: Server) -> list[Option]:
    """The launch_server options of one server, in the order people write them."""
    opts: list[Option] = [("model", "--model-path", srv.model)]
    if dep.trust_remote_code:
        opts.append(("trust", "--trust-remote-code", None))
    opts.append(("mode", "--disaggregation-mode", srv.role))
    opts.append(("backend", "--disaggregation-transfer-backend", srv.backend))
    if dep.ib_device:
        opts.append(("ib", "--disaggregation-ib-device", dep.ib_device))
    if srv.bootstrap_port:
        opts.append(("bootstrap", "--disaggregation-bootstrap-port", str(srv.bootstrap_port)))
    opts.append(("tp", dep.tp_flag, str(srv.tp)))
    if srv.dp > 1:
        opts.append(("dp", dep.dp_flag, str(srv.dp)))
    if srv.dp_attention:
        opts.append(("dp_attention", "--enable-dp-attention", None))
    if srv.unified:
        opts.append(("unified", "--enable-unified-memory", None))
    if srv.page_size:
        opts.append(("page", "--page-size", str(srv.page_size)))
    if srv.kv_dtype:
        opts.append(("kv", "--kv-cache-dtype", srv.kv_dtype))
    if dep.context_length:
        opts.append(("ctx", "--context-length", str(dep.context_length)))
    opts.append(("mem", "--mem-fraction-static", srv.mem_fraction))
    if srv.nnodes > 1:
        opts.append(("nnodes", "--nnodes", str(srv.nnodes)))
        opts.append(("rank", "--node-rank", "0"))
        opts.append(("dist", "--dist-init-addr", f"{host_of(dep, srv.role)}:20000"))
    opts.append(("host", "--host", "0.0.0.0"))
    opts.append(("port", "--port", str(srv.port)))
    if srv.typo:  # the context length may be unset: then the memory fraction is misspelt
        typo = srv.typo if srv.typo in {key for key, _, _ in opts} else "mem"
        opts = [(key, TYPOS[key] if key == typo else flag, value) for key, flag, value in opts]
    return opts


def host_of(dep: Deployment, role: str) -> str:
    return dep.prefill_host if role == PREFILL else dep.decode_host


def split_common(dep: Deployment, roles: tuple[str, ...]) -> tuple[list[Option], dict[str, list[Option]]]:
    """Options shared by the servers of ``roles`` and each role's own (without the
    mode and port, which the renderers pass per role)."""
    per_role = {r: [o for o in server_options(dep, dep.server(r)) if o[0] not in ("mode", "port")] for r in roles}
    if len(roles) == 1:
        common = [o for o in per_role[roles[0]] if o[0] in SHARED_KEYS]
    else:
        common = [o for o in per_role[roles[0]] if all(o in per_role[r] for r in roles[1:])]
    return common, {r: [o for o in opts if o not in common] for r, opts in per_role.items()}


def router_chunks(dep: Deployment, prefill_host: str, decode_host: str) -> list[str]:
    """The PD router's options after the module name, one option with its values each."""
    prefill = f"--prefill http://{prefill_host}:{dep.prefill.port}"
    if dep.router_names_bootstrap and dep.mistake != "bootstrap-port":
        prefill += f" {dep.prefill.bootstrap_port}"
    return ["--pd-disaggregation", prefill, f"--decode http://{decode_host}:{dep.decode.port}", "--host 0.0.0.0",
            f"--port {dep.router_port}"]


def router_words(dep: Deployment, prefill_host: str, decode_host: str) -> list[str]:
    return " ".join(router_chunks(dep, prefill_host, decode_host)).split()


def option_words(opts: list[Option], subst: dict[str, str] | None = None) -> list[str]:
    """Shell-style chunks "--flag value" (values replaced per key by ``subst``)."""
    subst = subst or {}
    return [flag if value is None else f"{flag} {subst.get(key, value)}" for key, flag, value in opts]


def continued(head: str, chunks: list[str], rng: random.Random, indent: str = "  ", tail: str = "") -> list[str]:
    """A shell command split over lines with backslash continuations."""
    lines, line = [head], []
    for chunk in chunks:
        line.append(chunk)
        if len(line) >= rng.choice((1, 1, 2, 3)):
            lines.append(indent + " ".join(line))
            line = []
    if line:
        lines.append(indent + " ".join(line))
    return [text + " \\" for text in lines[:-1]] + [lines[-1] + tail]


def roles_of(roles: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(r for r in BOTH if r in roles)


def file_model(dep: Deployment, roles: tuple[str, ...]) -> str | None:
    """The model all servers of ``roles`` serve (for a MODEL variable); None when
    they differ or there is no server."""
    models = {dep.server(role).model for role in roles_of(roles)}
    return models.pop() if len(models) == 1 else None


def describe(srv: Server) -> str:
    """A short summary of a server's layout for comments and prose."""
    parts = [f"TP {srv.tp}"]
    if srv.dp_attention:
        parts.append(f"DP attention {srv.dp}")
    if srv.unified:
        parts.append("unified memory")
    if srv.nnodes > 1:
        parts.append(f"{srv.nnodes} nodes")
    return ", ".join(parts)


# --------------------------------------------------------------------------- #
# Padding: what launch files hold besides their launches
# --------------------------------------------------------------------------- #

SENTENCES = (
    "The prefill node computes the KV cache of each prompt and hands it to the decode node over RDMA.",
    "Start the prefill first: the decode connects to its bootstrap server when it starts.",
    "Both sides must load the same checkpoint, otherwise the transferred KV cache is meaningless.",
    "Mooncake needs the InfiniBand devices mounted into the container and IPC_LOCK.",
    "Keep the page size identical on both sides, or every transfer is rejected.",
    "The router only forwards traffic once both servers answer on /health.",
    "Decode throughput is bound by memory bandwidth, so it runs with a higher memory fraction.",
    "DP attention trades KV cache replication for a larger decode batch.",
    "Changes to these flags must be reviewed by the inference on-call.",
    "Weights are pre-staged on local NVMe by the warmup job; do not point this at the object store.",
    "Logs go to the shared filesystem so the on-call can read them after the job ends.",
    "If the decode OOMs at startup, lower --mem-fraction-static by 0.02 and retry.",
    "The health check waits up to ten minutes: loading a large checkpoint is slow.",
    "NCCL picks the wrong interface on these nodes unless NCCL_SOCKET_IFNAME is set.",
    "This configuration was validated on H200 nodes with eight GPUs and 400 Gb/s NICs.",
    "Do not change the ports: the load balancer and the dashboards assume them.",
    "Restart the router after the servers; it does not rediscover them on its own.",
    "Token latency is measured end to end through the router, not on the servers.",
    "Chunked prefill is left at the default; long prompts are rare in this workload.",
    "Each node has its own local model cache, filled by the prefetch job before rollout.",
    "The bootstrap port must be reachable from the decode nodes, not only from the router.",
    "CUDA graphs are captured at startup, which takes a few minutes on the decode side.",
    "For a quick smoke test, send one request through the router and compare the output.",
    "Upgrade both sides together: mixing SGLang releases across prefill and decode is untested.",
)
TITLES = ("Overview", "Background", "Notes", "Operations", "Rollout", "Capacity", "Known issues", "Monitoring")


def prose(rng: random.Random, sentences: int, width: int = 88) -> list[str]:
    """A paragraph of ``sentences`` sentences wrapped at ``width`` columns."""
    words = " ".join(rng.choice(SENTENCES) for _ in range(sentences)).split()
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line]


def comment_block(rng: random.Random, mark: str = "#", indent: str = "") -> list[str]:
    return [f"{indent}{mark} {line}" for line in prose(rng, rng.randint(1, 4), width=76)]


def shell_blocks(rng: random.Random, dep: Deployment) -> Blocks:
    """What launch scripts do besides launching."""
    port = dep.prefill.port
    return (
        lambda: ["# NCCL / RDMA settings for this fabric", "export NCCL_IB_HCA=${NCCL_IB_HCA:-mlx5_0,mlx5_1}",
                 "export NCCL_SOCKET_IFNAME=${NCCL_SOCKET_IFNAME:-eth0}", "export NCCL_IB_GID_INDEX=3",
                 f"export NCCL_DEBUG={rng.choice(('WARN', 'INFO'))}", "export GLOO_SOCKET_IFNAME=eth0"],
        lambda: ['echo "[$(date +%T)] GPUs on $(hostname):"',
                 "nvidia-smi --query-gpu=index,name,memory.total,memory.used --format=csv,noheader",
                 "nvidia-smi topo -m || true"],
        lambda: ["wait_healthy() {", "  local url=$1", f"  for attempt in $(seq 1 {rng.choice((60, 120, 180))}); do",
                 '    if curl -sf "$url/health" > /dev/null; then', '      echo "ready: $url (attempt $attempt)"',
                 "      return 0", "    fi", f"    sleep {rng.choice((2, 5, 10))}", "  done",
                 '  echo "timed out waiting for $url" >&2', "  return 1", "}"],
        lambda: ['LOG_DIR=${LOG_DIR:-/var/log/sglang/$(date +%Y%m%d)}', 'mkdir -p "$LOG_DIR"', "cleanup() {",
                 '  echo "stopping child processes"', "  pkill -P $$ || true", "}", "trap cleanup EXIT INT TERM"],
        lambda: ["export HF_HOME=${HF_HOME:-/mnt/cache/huggingface}", "export HF_HUB_OFFLINE=1",
                 "export SGLANG_TORCH_PROFILER_DIR=/tmp/sglang-profiles", "export PYTHONUNBUFFERED=1"],
        lambda: ["if ! command -v nvidia-smi > /dev/null; then", '  echo "no GPU driver on $(hostname)" >&2',
                 "  exit 1", "fi", 'python3 -c "import sglang; print(sglang.__version__)"'],
        lambda: ["ulimit -n 1048576", "ulimit -l unlimited",
                 "sysctl -w net.core.rmem_max=268435456 2> /dev/null || true"],
        lambda: [f"NODES=(gpu-{rng.choice('abcd')}{rng.randrange(10, 99)} gpu-{rng.choice('abcd')}{rng.randrange(10, 99)})",
                 'for node in "${NODES[@]}"; do',
                 '  ssh "$node" nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader | sed "s/^/$node: /"',
                 "done"],
        lambda: ['case "${CLUSTER:-h200}" in', "  h100) export NCCL_IB_HCA=mlx5_0 ;;",
                 "  h200) export NCCL_IB_HCA=mlx5_0,mlx5_3 ;;", '  *) echo "unknown cluster: $CLUSTER" >&2 ;;',
                 "esac"],
        lambda: ['echo "=============================================="',
                 f'echo " deployment {dep.name}: {dep.model}"', 'echo " host $(hostname), $(date -Iseconds)"',
                 'echo "=============================================="'],
        lambda: [f"until curl -sf http://127.0.0.1:{port}/get_model_info > /dev/null; do",
                 '  echo "waiting for the server..."', "  sleep 10", "done",
                 f"curl -s http://127.0.0.1:{port}/get_server_info | jq '.tp_size, .page_size'"],
        lambda: ["# keep a week of logs", 'find "${LOG_DIR:-logs}" -name "*.log" -mtime +7 -delete 2> /dev/null || true'],
        lambda: comment_block(rng),
    )


def python_blocks(rng: random.Random, dep: Deployment) -> Blocks:
    """Top-level code of a Python launcher besides its launches."""
    port = dep.router_port
    return (
        lambda: [f"def wait_for_health(url, timeout={rng.choice((300, 600, 900))}):",
                 '    """Poll ``url``/health until it answers 200 or ``timeout`` seconds pass."""',
                 "    deadline = time.time() + timeout", "    while time.time() < deadline:", "        try:",
                 '            with urllib.request.urlopen(url + "/health", timeout=5) as response:',
                 "                if response.status == 200:", "                    return True",
                 "        except OSError:", "            pass", f"        time.sleep({rng.choice((2, 5, 10))})",
                 "    return False"],
        lambda: ["def gpu_inventory():", '    """Name and free memory of each visible GPU."""',
                 "    out = subprocess.run(",
                 '        ["nvidia-smi", "--query-gpu=index,name,memory.free", "--format=csv,noheader"],',
                 "        capture_output=True,", "        text=True,", "        check=False,", "    ).stdout",
                 "    return [line.split(', ') for line in out.splitlines() if line]"],
        lambda: ["def setup_logging(verbose=False):", "    logging.basicConfig(",
                 "        level=logging.DEBUG if verbose else logging.INFO,",
                 '        format="%(asctime)s %(levelname)s %(name)s: %(message)s",', "    )",
                 '    logging.getLogger("urllib3").setLevel(logging.WARNING)'],
        lambda: ["def generate(prompt, max_new_tokens=32):",
                 '    payload = {"text": prompt, "sampling_params": {"max_new_tokens": max_new_tokens}}',
                 "    request = urllib.request.Request(",
                 f'        "http://127.0.0.1:{port}/generate",', "        data=json.dumps(payload).encode(),",
                 '        headers={"Content-Type": "application/json"},', "    )",
                 "    with urllib.request.urlopen(request, timeout=60) as response:",
                 '        return json.loads(response.read())["text"]'],
        lambda: ["def terminate(processes):", "    for proc in processes:", "        if proc.poll() is None:",
                 "            proc.send_signal(signal.SIGTERM)", "    for proc in processes:", "        try:",
                 "            proc.wait(timeout=30)", "        except subprocess.TimeoutExpired:",
                 "            proc.kill()"],
        lambda: [f"HEALTH_TIMEOUT = {rng.choice((300, 600, 900))}", f"RETRIES = {rng.randint(2, 6)}",
                 f'LOG_DIR = os.environ.get("LOG_DIR", "/tmp/sglang-{dep.name}")',
                 'PROMPTS = ["The capital of France is", "Write a haiku about GPUs.", "1 + 1 ="]'],
        lambda: ["def export_nccl_env():", '    os.environ.setdefault("NCCL_IB_HCA", "mlx5_0,mlx5_1")',
                 '    os.environ.setdefault("NCCL_SOCKET_IFNAME", "eth0")',
                 '    os.environ.setdefault("NCCL_IB_GID_INDEX", "3")',
                 '    os.environ.setdefault("HF_HUB_OFFLINE", "1")'],
        lambda: [f"class {rng.choice(('Latency', 'Throughput', 'Smoke'))}Stats:",
                 '    """Running statistics of the requests sent through the router."""', "",
                 "    def __init__(self):", "        self.samples = []", "",
                 "    def add(self, seconds):", "        self.samples.append(seconds)", "",
                 "    def summary(self):", "        ordered = sorted(self.samples)",
                 "        if not ordered:", "            return {}",
                 '        return {"p50": ordered[len(ordered) // 2], "max": ordered[-1], "n": len(ordered)}'],
        lambda: comment_block(rng),
    )


def yaml_blocks(rng: random.Random, dep: Deployment) -> Blocks:
    """More Kubernetes objects of the deployment."""
    app = f"sglang-{dep.name}"
    return (
        lambda: ["apiVersion: v1", "kind: ConfigMap", "metadata:", f"  name: {app}-nccl", "data:",
                 '  NCCL_IB_HCA: "mlx5_0,mlx5_1"', "  NCCL_SOCKET_IFNAME: eth0", '  NCCL_IB_GID_INDEX: "3"',
                 "  NCCL_DEBUG: WARN", '  HF_HUB_OFFLINE: "1"'],
        lambda: ["apiVersion: policy/v1", "kind: PodDisruptionBudget", "metadata:", f"  name: {app}-pdb", "spec:",
                 "  maxUnavailable: 0", "  selector:", "    matchLabels:", f"      app: {app}"],
        lambda: ["apiVersion: monitoring.coreos.com/v1", "kind: ServiceMonitor", "metadata:", f"  name: {app}",
                 "  labels:", "    release: prometheus", "spec:", "  selector:", "    matchLabels:",
                 f"      app: {app}", "  endpoints:", "    - port: http", "      path: /metrics",
                 f"      interval: {rng.choice((15, 30, 60))}s"],
        lambda: ["apiVersion: networking.k8s.io/v1", "kind: NetworkPolicy", "metadata:", f"  name: {app}-ingress",
                 "spec:", "  podSelector:", "    matchLabels:", f"      app: {app}", "  ingress:", "    - from:",
                 "        - namespaceSelector:", "            matchLabels:", "              team: inference",
                 "      ports:", f"        - port: {dep.router_port}"],
        lambda: [f"# {line}" for line in prose(rng, rng.randint(1, 3), width=76)]
        + ["apiVersion: v1", "kind: PersistentVolumeClaim", "metadata:", f"  name: {app}-models", "spec:",
           "  accessModes: [ReadOnlyMany]", f"  storageClassName: {rng.choice(('nfs-models', 'lustre'))}",
           "  resources:", "    requests:", f"      storage: {rng.choice((500, 1000, 2000))}Gi"],
    )


def markdown_blocks(rng: random.Random, dep: Deployment) -> Blocks:
    """Runbook sections without launches."""
    return (
        lambda: [f"## {rng.choice(TITLES)}", "", *prose(rng, rng.randint(2, 6))],
        lambda: ["| port | what |", "|------|------|", f"| {dep.prefill.port} | prefill HTTP |",
                 f"| {dep.decode.port} | decode HTTP |",
                 f"| {dep.prefill.bootstrap_port or 8998} | prefill bootstrap (KV transfer handshake) |",
                 f"| {dep.router_port} | PD router |"],
        lambda: ["Typical log lines of a healthy start:", "", "```text",
                 "[2025-06-01 10:00:12] Load weight end. type=DeepseekV3ForCausalLM, avail mem=23.12 GB",
                 "[2025-06-01 10:00:40] Capture cuda graph end. Time elapsed: 27.91 s",
                 "[2025-06-01 10:00:41] The server is fired up and ready to roll!", "```"],
        lambda: ["Troubleshooting:", "", *[f"- {s}" for s in rng.sample(SENTENCES, rng.randint(2, 5))]],
        lambda: ["```console", "$ nvidia-smi --query-gpu=index,name,memory.used --format=csv,noheader",
                 "0, NVIDIA H200, 1 MiB", "1, NVIDIA H200, 1 MiB", "$ ibstat | grep -c Active", "4", "```"],
        lambda: ["> **Note**", *[f"> {line}" for line in prose(rng, rng.randint(1, 3), width=80)]],
    )


def pad(sections: list[list[str]], kind: str, blocks: Blocks, separator: list[str], rng: random.Random,
        keep_last: int = 1) -> str:
    """The file's text: filler ``blocks`` (each after ``separator``, drawn in shuffled
    rounds so that few repeat) inserted between ``sections`` (never after the last
    ``keep_last``) until the file reaches a line count drawn from LINE_RANGES[kind]."""
    low, high = LINE_RANGES[kind]
    target = rng.randint(low, high)
    total = sum(len(s) for s in sections)
    deck: list = []
    while total < target:
        if not deck:
            deck = list(blocks)
            rng.shuffle(deck)
        block = separator + deck.pop()()
        if total + len(block) > high:
            break
        sections.insert(rng.randint(1, max(1, len(sections) - keep_last)), block)
        total += len(block)
    return "\n".join(line for section in sections for line in section) + "\n"


# --------------------------------------------------------------------------- #
# Shell scripts
# --------------------------------------------------------------------------- #


def shell_subst(dep: Deployment, roles: tuple[str, ...], per_role_tp: bool) -> tuple[list[str], dict[str, str]]:
    """Variable assignments at the top of a script and the option values they replace."""
    lines, subst = [], {}
    model = file_model(dep, roles)
    if model:
        var = "MODEL" if len(dep.name) % 2 else "MODEL_PATH"
        lines.append(f"{var}=${{{var}:-{model}}}")
        subst["model"] = f'"${var}"'
    servers = roles_of(roles)
    if not per_role_tp and len(servers) == 1 and dep.server(servers[0]).typo != "tp":
        lines.append(f"TP=${{TP:-{dep.server(servers[0]).tp}}}")
        subst["tp"] = '"$TP"'
    if any(dep.server(r).nnodes > 1 for r in servers):
        lines += ["NODE_RANK=${NODE_RANK:-0}", f"MASTER_ADDR=${{MASTER_ADDR:-{dep.prefill_host}}}"]
        subst.update(rank='"$NODE_RANK"', dist='"${MASTER_ADDR}:20000"')
    return lines, subst


def shell_launch(rng: random.Random, dep: Deployment, role: str, subst: dict[str, str], background: bool,
                 wrapper: str = "") -> list[str]:
    """One launch_server command with backslash continuations."""
    srv = dep.server(role)
    opts = server_options(dep, srv)
    env = ""
    if srv.tp <= 4 and rng.random() < 0.5:
        first = 0 if role == PREFILL else srv.tp
        env = "CUDA_VISIBLE_DEVICES=" + ",".join(str(first + i) for i in range(srv.tp)) + " "
    head = f"{env}{wrapper}{dep.python} -m sglang.launch_server"
    tail = f' > "${{LOG_DIR:-logs}}/{role}.log" 2>&1 &' if background else ""
    return ["", f"# {role.capitalize()}: {describe(srv)}", *continued(head, option_words(opts, subst), rng, tail=tail)]


def shell_router(rng: random.Random, dep: Deployment, local: bool) -> list[str]:
    """The PD router, reaching the servers on this host (``local``) or on theirs."""
    hosts = ("127.0.0.1", "127.0.0.1") if local else (dep.prefill_host, dep.decode_host)
    chunks = router_chunks(dep, *hosts)
    return ["", "# PD router", *continued(f"{dep.python} -m sglang_router.launch_router", chunks, rng)]


def shell_plain(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> list[list[str]]:
    """Variables, then one launch per role (``&`` when several), the router, ``wait``."""
    servers = roles_of(roles)
    tp_vars = len(servers) == 2 and rng.random() < 0.5
    assigns, subst = shell_subst(dep, roles, tp_vars)
    if tp_vars:
        assigns += [f"{r.upper()}_TP=${{{r.upper()}_TP:-{dep.server(r).tp}}}" for r in servers]
    sections = [assigns]
    several = len(roles) > 1
    for role in servers:
        role_subst = dict(subst)
        if tp_vars and dep.server(role).typo != "tp":
            role_subst["tp"] = f'"${role.upper()}_TP"'
        if dep.server(role).nnodes > 1 and rng.random() < 0.5:
            sections.append(shell_node_loop(rng, dep, role, role_subst))
        else:
            wrapper = "nohup " if several and rng.random() < 0.4 else ("exec " if not several else "")
            sections.append(shell_launch(rng, dep, role, role_subst, several, wrapper))
        if several:
            sections.append([f"sleep {rng.choice((30, 60, 120))}"])
    if ROUTER in roles:
        sections.append(shell_router(rng, dep, local=len(servers) == 2))
    if several:
        sections.append(["wait"])
    return sections


def shell_node_loop(rng: random.Random, dep: Deployment, role: str, subst: dict[str, str],
                    first_host: int | None = None) -> list[str]:
    """A multi-node server started by a loop over its node ranks: with srun on the
    Slurm allocation's HOSTS from index ``first_host``, else with ssh."""
    srv = dep.server(role)
    log = f' > "logs/{role}-$rank.log" 2>&1 &'
    if first_host is not None:
        node_subst = dict(subst, rank='"$rank"', dist=f'"${{HOSTS[{first_host}]}}:20000"')
        head = f'  srun --nodes=1 --ntasks=1 -w "${{HOSTS[$((rank + {first_host}))]}}" {dep.python} -m sglang.launch_server'
        prelude, tail = [], log
    else:  # the options are inside ssh's double-quoted command string
        node_subst = {k: v.replace('"', "") for k, v in dict(subst, rank="$rank", dist=f"{role}-0:20000").items()}
        head = f'  ssh "${{NODES[$rank]}}" "{dep.python} -m sglang.launch_server'
        prelude, tail = [f"NODES=({' '.join(f'{role}-{i}' for i in range(srv.nnodes))})"], '"' + log
    body = continued(head, option_words(server_options(dep, srv), node_subst), rng, indent="    ", tail=tail)
    return ["", f"# {role.capitalize()}: {describe(srv)}, one process per node", *prelude,
            f"for rank in $(seq 0 {srv.nnodes - 1}); do", *body, "done"]


def shell_function(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> list[list[str]]:
    """One helper function called once per role with the role's own options."""
    servers = roles_of(roles)
    assigns, subst = shell_subst(dep, roles, per_role_tp=True)
    common, own = split_common(dep, servers)
    use_array = rng.random() < 0.5
    common_words = option_words(common, subst)
    if use_array:
        assigns += ["COMMON_ARGS=(", *[f"  {w}" for w in common_words], ")"]
        expand = '"${COMMON_ARGS[@]}"'
    else:
        assigns.append(f'COMMON_ARGS="{" ".join(w.replace(chr(34), "") for w in common_words)}"')
        expand = "$COMMON_ARGS"
    func = ["start_server() {", "  local role=$1", "  local port=$2", "  shift 2",
            '  echo "starting $role on port $port"',
            f"  nohup {dep.python} -m sglang.launch_server \\", f"    {expand} \\",
            '    --disaggregation-mode "$role" \\', '    --port "$port" \\',
            '    "$@" > "logs/${role}.log" 2>&1 &', "}"]
    sections = [assigns, ["mkdir -p logs"], func]
    for role in servers:
        call = continued(f"start_server {role} {dep.server(role).port}", option_words(own[role], subst), rng)
        sections.append(call)
    if ROUTER in roles:
        sections.append(shell_router(rng, dep, local=len(servers) == 2))
    sections.append(["wait"])
    return sections


def shell_slurm(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> list[list[str]]:
    """A Slurm batch script: one srun per server."""
    servers = roles_of(roles)
    nodes = sum(dep.server(r).nnodes for r in servers) or 1
    header = [f"#SBATCH --job-name={dep.name}-{'-'.join(roles)}", f"#SBATCH --nodes={nodes}",
              "#SBATCH --ntasks-per-node=1", "#SBATCH --gres=gpu:8", "#SBATCH --exclusive",
              f"#SBATCH --partition={rng.choice(('gpu', 'h200', 'inference'))}",
              f"#SBATCH --time={rng.choice(('04:00:00', '24:00:00', '2-00:00:00'))}",
              "#SBATCH --output=logs/%x-%j.out", "set -euo pipefail"]
    assigns, subst = shell_subst(dep, roles, per_role_tp=len(servers) == 2)
    assigns += ['HOSTS=($(scontrol show hostnames "$SLURM_JOB_NODELIST"))']
    sections = [header, assigns]
    first_host = 0
    for role in servers:
        if dep.server(role).nnodes > 1:
            sections.append(shell_node_loop(rng, dep, role, subst, first_host))
        else:
            wrapper = f'srun --nodes=1 --ntasks=1 -w "${{HOSTS[{first_host}]}}" '
            sections.append(shell_launch(rng, dep, role, subst, background=True, wrapper=wrapper))
        first_host += dep.server(role).nnodes
    if ROUTER in roles:
        sections.append([f"sleep {rng.choice((120, 300))}"])
        sections.append(shell_router(rng, dep, local=False))
    sections.append(["wait"])
    return sections


def render_shell(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> str:
    servers = roles_of(roles)
    style = rng.choices(("plain", "function", "slurm"), (5, 3, 2))[0] if servers else "plain"
    build = {"plain": shell_plain, "function": shell_function, "slurm": shell_slurm}[style]
    sections = build(rng, dep, roles)
    if style == "slurm":  # the #SBATCH lines must directly follow the shebang
        sections[0] = ["#!/bin/bash", *sections[0]]
    else:
        shebang = rng.choice(("#!/bin/bash", "#!/usr/bin/env bash"))
        sections.insert(0, [shebang, *comment_block(rng), "set -euo pipefail"])
    return pad(sections, "shell", shell_blocks(rng, dep), [""], rng, keep_last=2 if len(sections) > 3 else 1)


# --------------------------------------------------------------------------- #
# Python launchers
# --------------------------------------------------------------------------- #

PY_IMPORTS = ["import argparse", "import json", "import logging", "import os", "import signal", "import subprocess",
              "import sys", "import time", "import urllib.request"]
# Per Python style: (more standard library imports, SGLang imports).
PY_STYLE_IMPORTS = {
    "engine": ([], ["import sglang as sgl"]),
    "unittest": (["import unittest"], [
        "from sglang.srt.utils import kill_process_tree",
        "from sglang.test.test_utils import DEFAULT_TIMEOUT_FOR_SERVER_LAUNCH, popen_launch_pd_server",
    ]),
}


def py_value(key: str, value: str) -> str:
    return value if key in INT_KEYS or key == "mem" else f'"{value}"'


def py_list_items(opts: list[Option], subst: dict[str, str], indent: str) -> list[str]:
    """argv list items, one option (and its value) per line."""
    items = []
    for key, flag, value in opts:
        if value is None:
            items.append(f'{indent}"{flag}",')
        else:
            items.append(f'{indent}"{flag}", {subst.get(key, chr(34) + value + chr(34))},')
    return items


def py_docstring(rng: random.Random, what: str) -> list[str]:
    return ['"""' + what, "", *prose(rng, rng.randint(1, 3), width=84), '"""']


def py_router_call(dep: Deployment, indent: str, local: bool) -> list[str]:
    hosts = ("127.0.0.1", "127.0.0.1") if local else (dep.prefill_host, dep.decode_host)
    words = ", ".join(f'"{w}"' for w in router_words(dep, *hosts))
    return [f"{indent}router = subprocess.Popen(",
            f'{indent}    [sys.executable, "-m", "sglang_router.launch_router", {words}]',
            f"{indent})"]


def python_popen(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> list[list[str]]:
    """A launch(role, port, extra) helper around subprocess.Popen, called per role."""
    servers = roles_of(roles)
    model = file_model(dep, roles)
    subst = {"model": "MODEL"} if model else {}
    top = [f'MODEL = os.environ.get("MODEL_PATH", "{model}")'] if model else []
    top.append(f'LOG_DIR = "/tmp/{dep.name}"')
    common, own = split_common(dep, servers) if servers else ([], {})
    sections = [top]
    if servers:
        sections.append(["COMMON_ARGS = [", *py_list_items(common, subst, "    "), "]"])
        sections.append([
            "def launch(role, port, extra_args):", '    """Start one server of the PD pair in the background."""',
            "    cmd = [", '        sys.executable, "-m", "sglang.launch_server",', "        *COMMON_ARGS,",
            '        "--disaggregation-mode", role,', '        "--port", str(port),', "        *extra_args,", "    ]",
            "    os.makedirs(LOG_DIR, exist_ok=True)",
            '    log = open(os.path.join(LOG_DIR, f"{role}.log"), "w")',
            "    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)"])
    main = ["def main():", "    procs = []"]
    for role in servers:
        main += ["    procs.append(", "        launch(", f'            "{role}",',
                 f"            {dep.server(role).port},", "            [",
                 *py_list_items(own[role], subst, "                "), "            ],", "        )", "    )"]
    if ROUTER in roles:
        main += py_router_call(dep, "    ", local=len(servers) == 2) + ["    procs.append(router)"]
    main += ["    for proc in procs:", "        proc.wait()"]
    sections.append(main)
    return sections


def python_shell_true(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> list[list[str]]:
    """Command strings built with f-strings and run with shell=True."""
    servers = roles_of(roles)
    model = file_model(dep, roles)
    consts = [f'MODEL = "{model}"'] if model else []
    subst = {"model": "{MODEL}"} if model else {}
    for role in servers:
        if dep.server(role).typo != "tp":
            consts.append(f"{role.upper()}_TP = {dep.server(role).tp}")
    sections = [consts, ["def start(cmd):", '    logging.info("running: %s", cmd)',
                         "    return subprocess.Popen(cmd, shell=True)"]]
    calls = []
    for role in servers:
        role_subst = dict(subst) if dep.server(role).typo == "tp" else dict(subst, tp=f"{{{role.upper()}_TP}}")
        words = [f"{dep.python} -m sglang.launch_server", *option_words(server_options(dep, dep.server(role)),
                                                                        role_subst)]
        lines, line = [], []
        for word in words:
            line.append(word)
            if len(line) >= rng.choice((2, 3)):
                lines.append(" ".join(line))
                line = []
        if line:
            lines.append(" ".join(line))
        parts = [("f" if "{" in text else "") + f'"{text}' + (' "' if i < len(lines) - 1 else '"')
                 for i, text in enumerate(lines)]
        sections.append([f"{role.upper()}_CMD = (", *[f"    {p}" for p in parts], ")"])
        calls.append(f"    procs.append(start({role.upper()}_CMD))")
    if ROUTER in roles:
        hosts = ("127.0.0.1", "127.0.0.1") if len(servers) == 2 else (dep.prefill_host, dep.decode_host)
        text = f"{dep.python} -m sglang_router.launch_router " + " ".join(router_words(dep, *hosts))
        sections.append([f'ROUTER_CMD = "{text}"'])
        calls.append("    procs.append(start(ROUTER_CMD))")
    sections.append(["def main():", "    procs = []", *calls, "    for proc in procs:", "        proc.wait()"])
    return sections


def engine_kwargs(opts: list[Option], indent: str) -> list[str]:
    """ServerArgs field keywords for launch_server options."""
    fields = {"--tp": "tp_size", "--dp": "dp_size"}
    lines = []
    for key, flag, value in opts:
        name = fields.get(flag, flag[2:].replace("-", "_"))
        lines.append(f"{indent}{name}={'True' if value is None else py_value(key, value)},")
    return lines


def python_engine(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> list[list[str]]:
    """sglang.Engine(**COMMON, ...) for the role given on the command line."""
    servers = roles_of(roles)
    common, own = split_common(dep, servers)
    sections = [["COMMON = dict(", *engine_kwargs(common, "    "), ")"]]
    body = ["def build_engine(role):"]
    for index, role in enumerate(servers):
        opts = own[role] + [("mode", "--disaggregation-mode", role), ("port", "--port", str(dep.server(role).port))]
        call = ["sgl.Engine(", "    **COMMON,", *engine_kwargs(opts, "    "), ")"]
        if len(servers) == 1:
            body += ["    return " + call[0], *[f"    {line}" for line in call[1:]]]
        elif index == 0:
            body += [f'    if role == "{role}":', "        return " + call[0], *[f"        {ln}" for ln in call[1:]]]
        else:
            body += ["    return " + call[0], *[f"    {line}" for line in call[1:]]]
    sections.append(body)
    main = ["def main():", "    parser = argparse.ArgumentParser(description=__doc__)",
            f"    parser.add_argument(\"role\", choices={list(servers)!r})", "    args = parser.parse_args()",
            "    engine = build_engine(args.role)"]
    if ROUTER in roles:
        main += py_router_call(dep, "    ", local=True)
    main += ["    try:",
             f'        for out in engine.generate(["Hello"] * {rng.choice((4, 8, 16))}, {{"max_new_tokens": 16}}):',
             '            print(out["text"])', "    finally:", "        engine.shutdown()"]
    sections.append(main)
    return sections


def python_unittest(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> list[list[str]]:
    """A unittest base class whose setUpClass starts both servers with popen_launch_pd_server."""
    common, own = split_common(dep, BOTH)
    strip = ("model", "host", "port")
    common = [o for o in common if o[0] not in strip]
    consts = [f'MODEL = "{dep.model}"', f'PREFILL_URL = "http://127.0.0.1:{dep.prefill.port}"',
              f'DECODE_URL = "http://127.0.0.1:{dep.decode.port}"']
    base = ["class PDDisaggregationBase(unittest.TestCase):", "    common_args = [",
            *py_list_items(common, {}, "        "), "    ]"]
    for role in BOTH:
        opts = [o for o in own[role] if o[0] not in strip]
        base += [f"    {role}_args = [", *py_list_items(opts, {}, "        "), "    ]"]
    base += ["", "    @classmethod", "    def setUpClass(cls):"]
    for role in BOTH:
        model = "MODEL" if dep.server(role).model == dep.model else f'"{dep.server(role).model}"'
        base += [f"        cls.{role} = popen_launch_pd_server(", f"            {model},", f"            {role.upper()}_URL,",
                 "            timeout=DEFAULT_TIMEOUT_FOR_SERVER_LAUNCH,",
                 f'            other_args=cls.common_args + ["--disaggregation-mode", "{role}"] + cls.{role}_args,',
                 "        )"]
    if ROUTER in roles:
        base += py_router_call(dep, "        ", local=True) + ["        cls.router = router"]
    base += ["", "    @classmethod", "    def tearDownClass(cls):", "        kill_process_tree(cls.prefill.pid)",
             "        kill_process_tree(cls.decode.pid)"]
    name = "".join(part.capitalize() for part in dep.name.split("-"))
    test = [f"class Test{name}(PDDisaggregationBase):", f'    """{dep.model} with {describe(dep.decode)} on decode."""',
            "", "    def test_health(self):", "        for url in (PREFILL_URL, DECODE_URL):",
            '            with urllib.request.urlopen(url + "/health", timeout=10) as response:',
            "                self.assertEqual(response.status, 200)"]
    return [consts, base, test]


def python_dict_loop(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> list[list[str]]:
    """argv built in loops over a dict of roles and each role's option dict."""
    servers = roles_of(roles)
    entries = ["ROLES = {"]
    for role in servers:
        srv = dep.server(role)
        opts = [o for o in server_options(dep, srv) if o[0] not in ("mode", "port")]
        first = 0 if role == PREFILL else 8 - min(srv.tp, 8)
        gpus = ",".join(str(first + i) for i in range(min(srv.tp, 8)))
        entries += [f'    "{role}": {{', f'        "port": {srv.port},', f'        "gpus": "{gpus}",',
                    '        "options": {',
                    *[f'            "{f}": "{v}",' for _, f, v in opts if v is not None], "        },",
                    '        "flags": [', *[f'            "{f}",' for _, f, v in opts if v is None], "        ],",
                    "    },"]
    entries.append("}")
    loop = ["def main():", "    procs = {}", "    for role, cfg in ROLES.items():",
            '        argv = [sys.executable, "-m", "sglang.launch_server"]',
            '        argv += ["--disaggregation-mode", role, "--port", str(cfg["port"])]',
            '        for flag, value in cfg["options"].items():', "            argv += [flag, value]",
            '        argv.extend(cfg["flags"])', '        env = dict(os.environ, CUDA_VISIBLE_DEVICES=cfg["gpus"])',
            '        logging.info("starting %s: %s", role, " ".join(argv))',
            "        procs[role] = subprocess.Popen(argv, env=env)"]
    if ROUTER in roles:
        loop += py_router_call(dep, "    ", local=len(servers) == 2) + ['    procs["router"] = router']
    loop += ["    for proc in procs.values():", "        proc.wait()"]
    return [entries, loop]


def render_python(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> tuple[str, str]:
    """(text, style)."""
    servers = roles_of(roles)
    styles = {"popen": python_popen}
    if servers:
        styles.update(shell=python_shell_true, dict=python_dict_loop)
        if dep.mistake != "typo":  # a misspelt Engine keyword is not an argparse option
            styles["engine"] = python_engine
    if servers == BOTH:  # a test class is a deployment of its own: it holds the pair
        styles["unittest"] = python_unittest
    name = rng.choice(sorted(styles))
    sections = styles[name](rng, dep, roles)
    what = f"{' + '.join(roles)} of the {dep.name} PD deployment ({dep.model})."
    stdlib, sglang = PY_STYLE_IMPORTS.get(name, ([], []))
    head = ["#!/usr/bin/env python3", *py_docstring(rng, what), "", *sorted(PY_IMPORTS + stdlib)]
    if sglang:
        head += ["", *sglang]
    if name == "unittest":
        tail = ["", "", 'if __name__ == "__main__":', "    unittest.main()"]
    else:
        tail = ["", "", 'if __name__ == "__main__":', "    main()"]
    spaced = [head] + [["", "", *s] for s in sections] + [tail]
    return pad(spaced, "python", python_blocks(rng, dep), ["", ""], rng, keep_last=2), name


# --------------------------------------------------------------------------- #
# YAML: Kubernetes manifests and compose files
# --------------------------------------------------------------------------- #


def yaml_scalar(value: str) -> str:
    """A YAML plain scalar, quoted when YAML would read it as a number or needs it."""
    if value.replace(".", "", 1).isdigit() or value in ("true", "false") or value.startswith(("{", "$", "*", "&")):
        return f'"{value}"'
    return value


def yaml_flow(indent: str, key: str, groups: list[list[str]], per_row: int = 3) -> list[str]:
    """``key: ["a", "b", ...]`` as a flow sequence, ``per_row`` groups of words a line."""
    chunks = [", ".join(f'"{w}"' for w in group) for group in groups]
    rows = [", ".join(chunks[i:i + per_row]) for i in range(0, len(chunks), per_row)]
    pad_ = " " * (len(key) + 3)
    if len(rows) == 1:
        return [f"{indent}{key}: [{rows[0]}]"]
    return [f"{indent}{key}: [{rows[0]},", *[f"{indent}{pad_}{row}," for row in rows[1:-1]],
            f"{indent}{pad_}{rows[-1]}]"]


def k8s_launch_fields(rng: random.Random, dep: Deployment, role: str, indent: str, lean: bool,
                      rank: str = "0") -> list[str]:
    """command/args/env of a server container: a bash -c block scalar reading the
    container's env (always for multi-node servers), or argv lists."""
    srv = dep.server(role)
    opts = server_options(dep, srv)
    if srv.nnodes > 1 or rng.random() < 0.4:
        env = [("MODEL_PATH", srv.model)]
        subst = {"model": '"$MODEL_PATH"'}
        if srv.typo != "tp":
            env.append(("TP_SIZE", str(srv.tp)))
            subst["tp"] = '"$TP_SIZE"'
        if srv.nnodes > 1:
            subst.update(dist='"$LWS_LEADER_ADDRESS:20000"', nnodes='"$LWS_GROUP_SIZE"', rank=rank)
        script = continued(f"exec {dep.python} -m sglang.launch_server", option_words(opts, subst), rng)
        env_lines = [line for k, v in env for line in (f"{indent}  - name: {k}", f'{indent}    value: "{v}"')]
        return [f"{indent}env:", *env_lines,
                f'{indent}command: ["/bin/bash", "-c"]', f"{indent}args:", f"{indent}  - |",
                f"{indent}    set -euo pipefail", f'{indent}    echo "starting {role} on $(hostname)"',
                *[f"{indent}    {line}" for line in script]]
    groups = [[flag] if value is None else [flag, value] for _, flag, value in opts]
    command = f'{indent}command: ["{dep.python}", "-m", "sglang.launch_server"]'
    form = "flow" if lean else rng.choice(("args", "command", "flow"))
    if form == "flow":
        return [command, *yaml_flow(indent, "args", groups)]
    words = [w for group in groups for w in group]
    if form == "args":
        return [command, f"{indent}args:", *[f"{indent}  - {yaml_scalar(w)}" for w in words]]
    argv = [dep.python, "-m", "sglang.launch_server", *words]
    return [f"{indent}command:", *[f"{indent}  - {yaml_scalar(w)}" for w in argv]]


def k8s_container_extras(rng: random.Random, dep: Deployment, gpus: int, port: int, indent: str,
                         lean: bool) -> list[str]:
    """Ports, resources and (unless ``lean``, for files holding several servers) probes and mounts."""
    lines = [f"{indent}ports: [{{name: http, containerPort: {port}}}]",
             f'{indent}resources: {{limits: {{nvidia.com/gpu: "{gpus}"}}}}']
    if lean:
        return lines
    if rng.random() < 0.7:
        lines += [f"{indent}readinessProbe:", f"{indent}  httpGet:", f"{indent}    path: /health",
                  f"{indent}    port: {port}", f"{indent}  initialDelaySeconds: {rng.choice((60, 120, 300))}",
                  f"{indent}  periodSeconds: 10"]
    if rng.random() < 0.7:
        lines += [f"{indent}volumeMounts:", f"{indent}  - name: shm", f"{indent}    mountPath: /dev/shm",
                  f"{indent}  - name: models", f"{indent}    mountPath: /models", f"{indent}    readOnly: true"]
    if dep.ib_device:
        lines += [f"{indent}securityContext:", f"{indent}  capabilities:", f"{indent}    add: [IPC_LOCK]"]
    return lines


def k8s_pod_spec(rng: random.Random, dep: Deployment, role: str, indent: str, lean: bool,
                 rank: str = "0") -> list[str]:
    """A pod template's spec with the server container."""
    srv = dep.server(role)
    c = indent + "    "
    volumes = [] if lean else [f"{indent}  volumes:", f"{indent}    - name: shm",
                               f"{indent}      emptyDir: {{medium: Memory, sizeLimit: 64Gi}}"]
    return [f"{indent}spec:", f"{indent}  containers:", f"{indent}    - name: sglang-{role}",
            f"{c}  image: {dep.image}", *k8s_launch_fields(rng, dep, role, c + "  ", lean, rank),
            *k8s_container_extras(rng, dep, min(srv.tp, 8), srv.port, c + "  ", lean), *volumes]


def k8s_server(rng: random.Random, dep: Deployment, role: str, lean: bool) -> list[str]:
    """A Deployment or StatefulSet running one server, or a LeaderWorkerSet for a
    multi-node one (the leader has rank 0; ``lean``: one template for all ranks)."""
    app = f"{dep.name}-{role}"
    srv = dep.server(role)
    if srv.nnodes > 1:
        head = ["apiVersion: leaderworkerset.x-k8s.io/v1", "kind: LeaderWorkerSet", "metadata:", f"  name: {app}",
                "spec:", "  replicas: 1", "  leaderWorkerTemplate:", f"    size: {srv.nnodes}"]
        leader = [] if lean else ["    leaderTemplate:", "      metadata:", f"        labels: {{app: {app}}}",
                                  *k8s_pod_spec(rng, dep, role, "      ", lean)]
        return [*head, *leader, "    workerTemplate:",
                *k8s_pod_spec(rng, dep, role, "      ", lean, rank='"$LWS_WORKER_INDEX"')]
    kind = rng.choice(("Deployment", "StatefulSet"))
    extra = [f"  serviceName: {app}"] if kind == "StatefulSet" else []
    return ["apiVersion: apps/v1", f"kind: {kind}", "metadata:", f"  name: {app}",
            f"  labels: {{app: {app}, role: {role}}}", "spec:", *extra, "  replicas: 1",
            f"  selector: {{matchLabels: {{app: {app}}}}}", "  template:", "    metadata:",
            f"      labels: {{app: {app}}}", *k8s_pod_spec(rng, dep, role, "    ", lean)]


def k8s_service(dep: Deployment, name: str, port: int) -> list[str]:
    return ["apiVersion: v1", "kind: Service", "metadata:", f"  name: {dep.name}-{name}", "spec:",
            f"  selector: {{app: {dep.name}-{name}}}", f"  ports: [{{name: http, port: {port}, targetPort: {port}}}]"]


def k8s_router(dep: Deployment) -> list[str]:
    app = f"{dep.name}-router"
    groups = [chunk.split() for chunk in router_chunks(dep, f"{dep.name}-prefill", f"{dep.name}-decode")]
    return ["apiVersion: apps/v1", "kind: Deployment", "metadata:", f"  name: {app}", "spec:", "  replicas: 1",
            f"  selector: {{matchLabels: {{app: {app}}}}}", "  template:", "    metadata:",
            f"      labels: {{app: {app}}}", "    spec:", "      containers:", "        - name: router",
            f"          image: {dep.image}",
            f'          command: ["{dep.python}", "-m", "sglang_router.launch_router"]',
            *yaml_flow("          ", "args", groups, per_row=2),
            f"          ports: [{{containerPort: {dep.router_port}}}]"]


def render_k8s(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> list[list[str]]:
    docs = []
    for role in roles_of(roles):
        docs += [k8s_server(rng, dep, role, lean=len(roles) > 1), k8s_service(dep, role, dep.server(role).port)]
    if ROUTER in roles:
        docs += [k8s_router(dep), k8s_service(dep, ROUTER, dep.router_port)]
    return [docs[0]] + [["---", *doc] for doc in docs[1:]]


def compose_service(rng: random.Random, dep: Deployment, role: str, index: int) -> list[str]:
    srv = dep.server(role)
    words = [w for _, f, v in server_options(dep, srv) for w in ((f,) if v is None else (f, v))]
    gpus = ",".join(str(index * 4 + i) for i in range(4))
    head = [f"  {role}:", f"    image: {dep.image}", "    ipc: host", "    network_mode: host", "    environment:",
            f"      - CUDA_VISIBLE_DEVICES={gpus}", "      - NCCL_IB_HCA=mlx5_0"]
    if rng.random() < 0.5:
        return head + ["    command: >", f"      {dep.python} -m sglang.launch_server",
                       *[f"      {f}" if v is None else f"      {f} {v}" for _, f, v in server_options(dep, srv)]]
    return head + [f'    entrypoint: ["{dep.python}", "-m", "sglang.launch_server"]', "    command:",
                   *[f"      - {yaml_scalar(w)}" for w in words]]


def render_compose(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> list[list[str]]:
    sections = [[f"# {dep.name}: single-host PD test bed for {dep.model}", "services:"]]
    for index, role in enumerate(roles_of(roles)):
        sections.append(compose_service(rng, dep, role, index))
    if ROUTER in roles:
        words = router_words(dep, "127.0.0.1", "127.0.0.1")
        sections.append(["  router:", f"    image: {dep.image}", "    network_mode: host",
                         f'    command: ["{dep.python}", "-m", "sglang_router.launch_router",',
                         "              " + ", ".join(f'"{w}"' for w in words) + "]",
                         "    depends_on: [" + ", ".join(roles_of(roles)) + "]"])
    sections.append(["volumes:", "  models:", "    driver: local"])
    return sections


COMPOSE_EXTRAS = (("prometheus", "prom/prometheus:v2.53.0", 9090), ("grafana", "grafana/grafana:11.1.0", 3000),
                  ("node-exporter", "prom/node-exporter:v1.8.1", 9100),
                  ("dcgm-exporter", "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.6-3.4.2-ubuntu22.04", 9400))


def compose_blocks(rng: random.Random) -> Blocks:
    """Monitoring services next to the SGLang ones."""
    def service(name: str, image: str, port: int) -> list[str]:
        return [*comment_block(rng, indent="  "), f"  {name}-{rng.randrange(100)}:", f"    image: {image}",
                "    restart: unless-stopped", "    ports:", f'      - "{port}:{port}"', "    volumes:",
                f"      - ./{name}:/etc/{name}:ro"]
    return tuple(lambda extra=extra: service(*extra) for extra in COMPOSE_EXTRAS)


def render_yaml(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> tuple[str, str]:
    """(text, style): a Kubernetes manifest, or a compose file for single-host pairs."""
    if len(roles_of(roles)) == 2 and dep.prefill.nnodes == 1 and rng.random() < 0.4:
        sections = render_compose(rng, dep, roles)
        return pad(sections, "yaml", compose_blocks(rng), [], rng, keep_last=1), "compose"
    sections = [comment_block(rng)] + render_k8s(rng, dep, roles)
    return pad(sections, "yaml", yaml_blocks(rng, dep), ["---"], rng, keep_last=0), "k8s"


# --------------------------------------------------------------------------- #
# Markdown runbooks
# --------------------------------------------------------------------------- #


def md_server_fence(rng: random.Random, dep: Deployment, role: str) -> list[str]:
    """A fenced block that starts one server: bash, console, python or yaml."""
    srv = dep.server(role)
    fence = rng.choices(("bash", "console", "python", "yaml"), (6, 1, 2, 2))[0]
    if fence in ("bash", "console"):
        command = continued(f"{dep.python} -m sglang.launch_server", option_words(server_options(dep, srv)), rng)
        prompt = "$ " if fence == "console" else ""
        return [f"```{fence}", f"{prompt}{command[0]}", *command[1:], "```"]
    if fence == "python":
        opts = server_options(dep, srv)
        return ["```python", "import subprocess", "import sys", "", "subprocess.Popen([",
                '    sys.executable, "-m", "sglang.launch_server",', *py_list_items(opts, {}, "    "), "])", "```"]
    return ["```yaml", *k8s_server(rng, dep, role, lean=True), "```"]


def md_router_fence(rng: random.Random, dep: Deployment) -> list[str]:
    chunks = router_chunks(dep, dep.prefill_host, dep.decode_host)
    command = continued(f"{dep.python} -m sglang_router.launch_router", chunks, rng)
    return ["```bash", *command, "```"]


def md_check(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> list[str]:
    port = dep.router_port if ROUTER in roles else dep.server(roles_of(roles)[0]).port
    return ["## Check", "", "Both servers must answer before the router sends them traffic:", "", "```console",
            f"$ curl -s http://localhost:{port}/health", "OK",
            f"$ curl -s http://localhost:{port}/generate \\", "    -H 'Content-Type: application/json' \\",
            """    -d '{"text": "The capital of France is", "sampling_params": {"max_new_tokens": 8}}'""",
            '{"text": " Paris. It is also the largest city", "meta_info": {"prompt_tokens": 6}}', "```"]


def render_markdown(rng: random.Random, dep: Deployment, roles: tuple[str, ...]) -> str:
    servers = roles_of(roles)
    title = f"# {dep.model.rsplit('/', 1)[-1]}: {' / '.join(roles)} ({dep.name})"
    sections = [[title, "", *prose(rng, rng.randint(2, 4))],
                ["## Prerequisites", "", f"- image `{dep.image}` on every node",
                 f"- the checkpoint `{dep.model}` staged under `/models`",
                 f"- {rng.choice(('8x H200', '8x H100', '8x B200'))} per node, RDMA between the nodes"]]
    for step, role in enumerate(servers, 1):
        srv = dep.server(role)
        sections.append([f"## {step}. {role.capitalize()} node", "", f"{describe(srv)}.",
                         *prose(rng, rng.randint(1, 3)), "", *md_server_fence(rng, dep, role)])
    if ROUTER in roles:
        sections.append([f"## {len(servers) + 1}. Router", "", *prose(rng, 1), "",
                         *md_router_fence(rng, dep)])
    if servers:
        sections.append(md_check(rng, dep, roles))
    return pad(sections, "markdown", markdown_blocks(rng, dep), [""], rng, keep_last=0)


# --------------------------------------------------------------------------- #
# Corpus layout
# --------------------------------------------------------------------------- #

NAMES = {
    ("shell", PREFILL): ("prefill.sh", "start_prefill.sh", "launch-prefill.sh", "run-prefill"),
    ("shell", DECODE): ("decode.sh", "start_decode.sh", "launch-decode.sh", "run-decode"),
    ("shell", ROUTER): ("router.sh", "start_router.sh", "launch-router"),
    ("shell", None): ("launch_pd.sh", "run_pd.sh", "pd_job.sh", "start-all"),
    ("python", PREFILL): ("launch_prefill.py", "serve_prefill.py"),
    ("python", DECODE): ("launch_decode.py", "serve_decode.py"),
    ("python", ROUTER): ("router.py", "start_router.py"),
    ("python", None): ("pd_launcher.py", "launch_pd.py", "run_pd.py"),
    ("yaml", PREFILL): ("prefill.yaml", "prefill-deployment.yaml"),
    ("yaml", DECODE): ("decode.yaml", "decode-deployment.yaml"),
    ("yaml", ROUTER): ("router.yaml", "router-deployment.yaml"),
    ("yaml", None): ("pd-stack.yaml", "deployment.yaml", "k8s-pd.yaml"),
    ("markdown", PREFILL): ("prefill.md", "PREFILL_RUNBOOK.md"),
    ("markdown", DECODE): ("decode.md", "DECODE_RUNBOOK.md"),
    ("markdown", ROUTER): ("router.md",),
    ("markdown", None): ("RUNBOOK.md", "README.md", "pd-runbook.md"),
}


def kind_sequence(files: int, rng: random.Random) -> list[str]:
    """Exactly ``files`` kinds in the KIND_SHARES proportions (largest remainders), shuffled."""
    exact = [(kind, files * share) for kind, share in KIND_SHARES]
    counts = {kind: int(value) for kind, value in exact}
    by_remainder = sorted(exact, key=lambda item: item[1] - int(item[1]), reverse=True)
    for kind, _ in by_remainder[: files - sum(counts.values())]:
        counts[kind] += 1
    kinds = [kind for kind, _ in KIND_SHARES for _ in range(counts[kind])]
    rng.shuffle(kinds)
    return kinds


def directory_sizes(files: int, rng: random.Random) -> list[int]:
    """Sizes of 2 to 6 files summing to ``files`` (a single file only when files is 1)."""
    sizes, left = [], files
    while left:
        size = min(rng.randint(2, 6), left)
        if left - size == 1:
            size = size + 1 if size < 6 else size - 1
        sizes.append(size)
        left -= size
    return sizes


def plan_roles(size: int, rng: random.Random) -> list[tuple[str, ...]]:
    """The roles each file of a directory launches: usually a prefill file and a decode
    file (paired by directory, sometimes with a router file), the others a whole pair."""
    plan: list[tuple[str, ...]] = []
    if size >= 2 and rng.random() < 0.7:
        plan = [(PREFILL,), (DECODE,)]
        if size >= 3 and rng.random() < 0.5:
            plan.append((ROUTER,))
    while len(plan) < size:
        plan.append((PREFILL, DECODE, ROUTER) if rng.random() < 0.5 else BOTH)
    return plan


def file_name(rng: random.Random, kind: str, roles: tuple[str, ...], style: str, taken: set[str]) -> str:
    if kind == "yaml" and style == "compose":
        base = "docker-compose.yaml"
    elif style == "unittest":
        base = rng.choice(("test_pd_disaggregation.py", "test_pd_unified_memory.py", "test_disagg_smoke.py"))
    else:
        base = rng.choice(NAMES[(kind, roles[0] if len(roles) == 1 else None)])
    name, counter = base, 2
    while name in taken:
        stem, dot, suffix = base.partition(".")
        name = f"{stem}-{counter}{dot}{suffix}"
        counter += 1
    taken.add(name)
    return name


def render(rng: random.Random, kind: str, dep: Deployment, roles: tuple[str, ...]) -> tuple[str, str]:
    """(text, style) of one file."""
    if kind == "shell":
        return render_shell(rng, dep, roles), "shell"
    if kind == "python":
        return render_python(rng, dep, roles)
    if kind == "yaml":
        return render_yaml(rng, dep, roles)
    return render_markdown(rng, dep, roles), "markdown"


def generate(out_dir: Path, files: int, seed: int = 0) -> dict[str, int]:
    """Write ``files`` files under ``out_dir`` (created; it must be empty) and return
    how many of each kind were written."""
    if files < 1:
        raise ValueError("files must be at least 1")
    out_dir.mkdir(parents=True, exist_ok=True)
    if any(out_dir.iterdir()):
        raise FileExistsError(f"{out_dir} is not empty")
    rng = random.Random(seed)
    kinds = kind_sequence(files, rng)
    counts = {kind: 0 for kind, _ in KIND_SHARES}
    start = 0
    for number, size in enumerate(directory_sizes(files, rng)):
        directory = out_dir / f"team-{number // 10:02d}" / f"deploy-{number:04d}"
        directory.mkdir(parents=True)
        plan = plan_roles(size, rng)
        dep = make_deployment(rng, f"{rng.choice(('qwen', 'dsv3', 'kimi', 'glm', 'llama'))}-pd-{number}",
                              has_router=any(ROUTER in roles for roles in plan))
        taken: set[str] = set()
        for kind, roles in zip(kinds[start:start + size], plan, strict=True):
            text, style = render(rng, kind, dep, roles)
            (directory / file_name(rng, kind, roles, style, taken)).write_bytes(text.encode("utf-8"))
            counts[kind] += 1
        start += size
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", type=Path, metavar="OUT_DIR", help="directory to write the corpus to")
    parser.add_argument("--files", type=int, required=True, metavar="N", help="number of files to write")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    parser.add_argument("--force", action="store_true", help="delete OUT_DIR's contents first")
    args = parser.parse_args(argv)
    out: Path = args.out_dir
    if args.files < 1:
        parser.error("--files must be at least 1")
    if out.exists() and not out.is_dir():
        print(f"generate_corpus: {out} exists and is not a directory", file=sys.stderr)
        return 2
    if out.is_dir() and any(out.iterdir()):
        if not args.force:
            print(f"generate_corpus: {out} is not empty (use --force to delete its contents)", file=sys.stderr)
            return 2
        for entry in out.iterdir():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    counts = generate(out, args.files, args.seed)
    total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    print(f"wrote {sum(counts.values())} files ({summary}), {total} bytes, to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
