"""Serving throughput: a replica's decode step (weights and KV cache read, compute, the tensor-
parallel link), its capacity in tokens per second and the serving plan (tensor-parallel size,
batch and replicas) that meets the team's load. Figures that come from outside (bandwidth
utilisation, link speeds) are read from the catalog's `figures`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from advisor.engine.answers.vocabulary import Inference
from advisor.engine.catalog import Accelerator, Catalog
from advisor.engine.sizing import (
    CHUNKED_PREFILL_SERVING,
    GIB,
    InferenceMemory,
    ModelShape,
    device_counts,
    expert_fraction_read,
    usable_gib,
)

# --------------------------------------------------------------------------- inference capacity

# Serving stacks whose scheduler and sampler are compiled C++ rather than Python.
COMPILED_RUNTIMES = frozenset({"tensorrt_llm", "triton"})


def inference_peak_tflops(acc: Accelerator, precision: str) -> float:
    """Dense peak for serving math: FP8/INT8 units where the device has them, else BF16."""
    bf16 = acc.bf16_dense_tflops or acc.fp16_dense_tflops or 0.0
    if precision == "fp8" and acc.fp8_dense_tflops:
        return acc.fp8_dense_tflops
    if precision == "int8" and acc.int8_dense_tops:
        return acc.int8_dense_tops
    return bf16


@dataclass(frozen=True, slots=True)
class ServingCapacity:
    """Throughput and latency of one replica (tp devices) at the answered concurrency."""

    tp: int
    tokens_per_second: float  # output tokens per second per replica
    tpot_ms: float
    ttft_ms: float
    latency_ms: float
    bound: str  # "memory_bandwidth" or "compute"


def serving_capacity(
    shape: ModelShape,
    inf: Inference,
    mem: InferenceMemory,
    acc: Accelerator,
    tp: int,
    catalog: Catalog,
    serving: str | None = None,
) -> ServingCapacity:
    """Throughput and latency of one replica at the answered concurrency with the `serving`
    stack: decode bandwidth-bound at small batches and compute-bound at large ones (sizing.md
    B4), plus a per-sequence step overhead; chunked-prefill stacks overlap prefill with decode."""
    c = inf.concurrent_sequences
    a, b, cc, d, e, prefill = _step_terms(shape, inf, mem, acc, tp, catalog, serving)
    a += _expert_a(shape, mem, acc, tp, catalog, c)
    step = max(a + b * c, cc * c) + d + e * c
    cycle = replica_cycle(
        c,
        inf.output_tokens,
        prefill,
        (a, b, cc, d, e),
        serving,
        catalog.figure("chunked_prefill_overlap"),
    )
    return ServingCapacity(
        tp=tp,
        tokens_per_second=c * inf.output_tokens / cycle,
        tpot_ms=step * 1000.0,
        ttft_ms=prefill * 1000.0,
        latency_ms=(prefill + inf.output_tokens * step) * 1000.0,
        bound="memory_bandwidth" if a + b * c >= cc * c else "compute",
    )


def replica_cycle(
    batch: float,
    out: int,
    prefill: float,
    terms: tuple[float, float, float, float, float],
    serving: str | None,
    overlap: float = 0.0,
) -> float:
    """Seconds for a replica to take `batch` sequences from prompt to their last output token.

    Without chunked prefill the prompts are prefilled, then decoded (serial). A chunked-prefill
    stack (vLLM, SGLang, TGI, TensorRT-LLM, Triton) schedules prompt chunks into the decode
    steps; `overlap` (the catalog's `chunked_prefill_overlap`) is the share of the prompts'
    compute those steps hide under their memory reads. Measured in-flight batching comes out
    close to serial, so the share is small: a mixed step is as slow as its prefill chunk."""
    a, b, c, d, e = terms
    serial = batch * prefill + out * (max(a + b * batch, c * batch) + d + e * batch)
    if serving not in CHUNKED_PREFILL_SERVING or overlap <= 0.0:
        return serial
    # The share of the prompts' compute that rides in decode steps' spare compute (the steps
    # being bound by their weight and KV reads), never more than that spare.
    spare = out * max(0.0, a + b * batch - c * batch)
    return serial - overlap * min(batch * prefill, spare)


# --------------------------------------------------------------------------- serving at load


@dataclass(frozen=True, slots=True)
class ServingPlan:
    """Replicas of `tp` devices, each holding `batch` sequences, and the latency they give."""

    tp: int
    batch: int
    replicas: int
    tokens_per_second: float  # output tokens per second per replica at `batch`
    tpot_ms: float
    ttft_ms: float
    latency_ms: float  # whole response: first token + all output tokens (plus round trip)
    metric_ms: float  # the answered latency metric
    comm_ms_per_token: float  # tensor-parallel all-reduces per output token
    best_metric_ms: float  # the metric at batch 1 on the fastest tensor-parallel size tried
    meets: bool
    bound: str
    # Pipeline stages, one server each (1: the replica is one tensor-parallel group in one
    # server); `batch` is then the sequences in flight over all stages.
    pp: int = 1

    @property
    def devices(self) -> int:
        """Devices of one replica: a tensor-parallel group in each of its pipeline stages."""
        return self.tp * self.pp


def tp_link_gbytes(acc: Accelerator, catalog: Catalog) -> float:
    """GB/s per direction between the devices of one replica (NVLink/ICI, else PCIe)."""
    if acc.fast_interconnect and acc.interconnect_gbps:
        return acc.interconnect_gbps / 2.0  # catalog figures are bidirectional totals
    return catalog.figure("pcie_p2p_gbytes_per_s")


def _weights_read(shape: ModelShape, mem: InferenceMemory, batch: float) -> float:
    """Weight bytes one decode step reads for `batch` sequences (a MoE reads the experts used)."""
    experts = mem.expert_weight_bytes
    return mem.weight_bytes - experts + experts * expert_fraction_read(shape, batch)


def _step_terms(
    shape: ModelShape,
    inf: Inference,
    mem: InferenceMemory,
    acc: Accelerator,
    tp: int,
    cat: Catalog,
    serving: str | None = None,
) -> tuple[float, float, float, float, float, float]:
    """Decode step time = max(a + b*B, c*B) + d + e*B for a batch of B sequences, and prefill.
    `a` is for the weights of a dense model; a mixture of experts adds `_expert_a` (per batch)."""
    prompt = max(1, inf.prompt_tokens)
    avg_ctx = prompt + inf.output_tokens / 2.0
    bw = tp * acc.memory_bw_tbps * 1e12 * cat.figure("decode_mbu")
    peak = tp * inference_peak_tflops(acc, inf.precision) * 1e12
    a = (mem.weight_bytes - mem.expert_weight_bytes) / bw
    b = avg_ctx * mem.kv_bytes_per_token / bw
    c = 2.0 * shape.active / (peak * cat.figure("decode_compute_mfu"))
    d = 0.0
    # Sampling, scheduling and kernel launches per sequence and step, which neither bound hides:
    # a compiled C++ runtime (TensorRT-LLM, and Triton serving it) schedules in less time.
    overhead = "decode_overhead_us_per_sequence"
    if serving in COMPILED_RUNTIMES:
        overhead = "decode_overhead_us_per_sequence_compiled"
    e = cat.figure(overhead) * 1e-6
    if tp > 1:
        # Megatron tensor parallelism: all-reduces of the hidden state per layer and step; a ring
        # moves 2(tp-1)/tp of the message over each link.
        n = shape.layers * cat.figure("tp_allreduces_per_layer")
        latency = cat.figure("allreduce_latency_us") * 1e-6
        if not acc.fast_interconnect:
            latency *= 2.0
        d = n * latency
        e += n * 2.0 * (tp - 1) / tp * shape.hidden * 2.0 / (tp_link_gbytes(acc, cat) * 1e9)
    return a, b, c, d, e, prefill_seconds(shape, prompt, acc, inf.precision, tp, cat)


def prefill_seconds(
    shape: ModelShape, prompt: int, acc: Accelerator, precision: str, tp: int, cat: Catalog
) -> float:
    """Seconds to prefill one prompt of `prompt` tokens on a replica of `tp` devices.

    The linear layers' 2 x active parameters x tokens at the prefill efficiency, with 8-bit
    weights' measured gain over 16-bit (not the peak's doubling: activations are quantised on
    the fly and attention stays 16-bit) and a mixture of experts' grouped GEMMs at their own
    lower efficiency; causal attention's 2 x layers x tokens^2 x query width (flash attention,
    16-bit); and with tensor parallelism the all-reduces of every token's hidden state after
    attention and after the MLP of each layer, over the replica's link."""
    bf16 = tp * inference_peak_tflops(acc, "bf16") * 1e12
    peak = bf16
    if precision in ("fp8", "int8"):
        gain = cat.figure("fp8_prefill_gain")
        peak = min(tp * inference_peak_tflops(acc, precision) * 1e12, bf16 * gain)
    mfu = cat.figure("prefill_mfu")
    if shape.is_moe:
        # Each expert multiplies only the tokens routed to it: the fewer, the smaller and less
        # efficient its GEMM (square root of tokens per expert against the reference).
        per_expert = prompt * shape.experts_per_token / shape.experts
        share = math.sqrt(per_expert / cat.figure("moe_prefill_reference_tokens"))
        mfu *= min(1.0, cat.figure("moe_prefill_efficiency") * share)
    seconds = 2.0 * shape.active * prompt / (peak * mfu)
    attention = 2.0 * shape.layers * float(prompt) ** 2 * shape.q_dim
    seconds += attention / (bf16 * cat.figure("prefill_mfu"))
    if tp > 1:
        n = shape.layers * cat.figure("tp_allreduces_per_layer")
        ring = 2.0 * (tp - 1) / tp
        seconds += n * ring * prompt * shape.hidden * 2.0 / (tp_link_gbytes(acc, cat) * 1e9)
        latency = cat.figure("allreduce_latency_us") * 1e-6
        seconds += n * latency * (1.0 if acc.fast_interconnect else 2.0)
    return seconds


def _expert_a(
    shape: ModelShape, mem: InferenceMemory, acc: Accelerator, tp: int, cat: Catalog, n: float
) -> float:
    """Seconds a decode step spends reading the routed experts a batch of n sequences uses."""
    if not mem.expert_weight_bytes:
        return 0.0
    bw = tp * acc.memory_bw_tbps * 1e12 * cat.figure("decode_mbu")
    return mem.expert_weight_bytes * expert_fraction_read(shape, n) / bw


def _memory_batch(
    shape: ModelShape,
    mem: InferenceMemory,
    inf: Inference,
    acc: Accelerator,
    tp: int,
    cat: Catalog,
    offline: bool = False,
    pp: int = 1,
) -> int:
    """Sequences one replica's device memory holds (per pipeline micro-batch when the replica
    spans `pp` servers: each stage keeps its layers' KV for every sequence in flight)."""
    usable = usable_gib(acc, cat) * GIB
    p = mem.parts
    free = usable - p["weights"] / (tp * pp) - p["activations"] / (tp * pp) - p["other"]
    # A served request may run to its full context; an offline batch engine with paged KV
    # admits sequences while blocks are free, so at steady state a sequence holds its prompt and
    # half its output on average.
    tokens = float(inf.context_tokens)
    if offline:
        tokens = max(1, inf.prompt_tokens) + inf.output_tokens / 2.0
    per_seq = mem.kv_bytes_per_token * tokens / shape.kv_split(tp)
    return max(0, int(free // per_seq)) if per_seq > 0 else inf.concurrent_sequences


def offline_batch_cap(acc: Accelerator, catalog: Catalog) -> int:
    """Sequences an offline (batch) engine keeps in flight by default: vLLM's max_num_seqs
    (catalog rule `offline_max_num_seqs`: larger on GPUs with >= 70 GiB other than A100)."""
    rule = catalog.rule("offline_max_num_seqs")
    large = acc.memory_gib >= float(rule["large_min_gib"]) and "a100" not in acc.id
    return int(rule["large" if large else "other"])


def serving_plan(
    shape: ModelShape,
    inf: Inference,
    mem: InferenceMemory,
    acc: Accelerator,
    catalog: Catalog,
    demand_tokens_per_s: float,
    rtt_ms: float = 0.0,
    max_tp: int | None = None,
    serving: str | None = None,
    offline: bool = False,
    network_gbps: float | None = None,
) -> ServingPlan | None:
    """Fewest devices that serve the answered concurrency and token rate within the latency
    target: per tensor-parallel size (one node at most), a replica holds the largest batch that
    both fits memory and meets the target; replicas cover the concurrency and the token rate.
    An `offline` (batch) job fills each replica up to the serving engine's default batch, at
    least the answered concurrency: nobody waits on a single answer. `max_tp`: the largest group
    one unit of an offer holds (tensor parallelism never spans units).

    A model no server holds is served across servers (SXM-class cards only): pipeline stages of
    one full server's tensor-parallel group each, 2 to 8 servers, each boundary a send of the
    hidden state over the servers' network (`network_gbps`, else the catalog's single-server
    figure) with its latency (`pipeline_hop_latency_us`). None when not even 8 servers hold
    it."""
    target = inf.p95_latency_ms
    plans: list[ServingPlan] = []
    best_metric = math.inf
    widest = 0
    for tp in device_counts(acc.slice_sizes, acc.max_devices_per_group):
        if tp > max(acc.max_devices_per_node, 1) or tp > 64:
            break
        if max_tp is not None and tp > max_tp:
            break
        widest = tp
        found = _plan_at(
            shape, inf, mem, acc, catalog, demand_tokens_per_s, rtt_ms, serving, offline, tp
        )
        if found is not None:
            plans.append(found[0])
            best_metric = min(best_metric, found[1])
    # Across servers only for SXM-class cards: their servers (HGX) are built with the fast
    # network cards a pipeline between servers needs; a PCIe workstation card's are not.
    if not plans and widest > 1 and acc.type == "gpu" and acc.fast_interconnect:
        gbps = network_gbps or catalog.figure("single_node_network_gbps")
        for pp in range(2, _MAX_STAGES + 1):
            found = _plan_at(
                shape,
                inf,
                mem,
                acc,
                catalog,
                demand_tokens_per_s,
                rtt_ms,
                serving,
                offline,
                widest,
                pp,
                gbps,
            )
            if found is not None:
                plans.append(found[0])
                best_metric = min(best_metric, found[1])
                break  # the fewest servers per replica that hold it
    if not plans:
        return None
    # Meeting the target first, with the catalog's safety share to spare before without it, then
    # fewest devices, then the smaller tensor-parallel size.
    safe = target * (1.0 - float(catalog.rule("target_safety_share"))) if target else None
    best = min(
        plans,
        key=lambda p: (
            not p.meets,
            safe is not None and p.metric_ms > safe + 1e-9,
            p.devices * p.replicas,
            p.tp,
        ),
    )
    return ServingPlan(**{**_asdict(best), "best_metric_ms": best_metric})


# Servers one replica may span when no server holds the model (pipeline stages).
_MAX_STAGES = 8


def _plan_at(
    shape: ModelShape,
    inf: Inference,
    mem: InferenceMemory,
    acc: Accelerator,
    catalog: Catalog,
    demand_tokens_per_s: float,
    rtt_ms: float,
    serving: str | None,
    offline: bool,
    tp: int,
    pp: int = 1,
    network_gbps: float = 0.0,
) -> tuple[ServingPlan, float] | None:
    """The plan of replicas of `tp` devices in each of `pp` servers, and the metric at batch 1
    (None when not one sequence fits)."""
    target = inf.p95_latency_ms
    metric = inf.latency_metric
    out = inf.output_tokens
    b_mem = _memory_batch(shape, mem, inf, acc, tp, catalog, offline, pp)
    if b_mem < 1:
        return None
    a, b, c, d, e, prefill = _step_terms(shape, inf, mem, acc, tp, catalog, serving)
    if pp > 1:
        # Each output token crosses pp - 1 stage boundaries: a send's latency, and the hidden
        # state of each sequence of the micro-batch over the network.
        d += (pp - 1) * catalog.figure("pipeline_hop_latency_us") * 1e-6
        e += (pp - 1) * shape.hidden * 2.0 / (network_gbps / 8.0 * 1e9)
    ttft = prefill * 1000.0 + rtt_ms

    def step(n: float) -> float:
        read = a + _expert_a(shape, mem, acc, tp, catalog, n)
        return max(read + b * n, c * n) + d + e * n

    def metric_ms(n: float) -> float:
        s = step(n) * 1000.0
        return ttft if metric == "ttft" else s if metric == "tpot" else ttft + out * s

    first = metric_ms(1)
    wanted = inf.concurrent_sequences
    if offline:
        wanted = max(wanted, offline_batch_cap(acc, catalog))
    # A pipeline keeps pp micro-batches in flight, one per stage.
    batch = min(max(1, math.ceil(wanted / pp)), b_mem)
    # Aim inside the target by the catalog's safety share where one sequence per replica
    # gets there (a thinner margin is inside the estimate's own error), else at the target.
    aim = target
    if target is not None:
        aim = target * (1.0 - float(catalog.rule("target_safety_share")))
        aim = aim if first <= aim else target
    if (
        target is not None
        and aim is not None
        and metric != "ttft"
        and metric_ms(batch) > aim
        and first <= target + 1e-9
    ):
        # Largest batch within the aim (the step time grows linearly in the batch); time to
        # first token does not depend on the batch in this model. Where even one sequence
        # misses the target, the batch stays as memory and concurrency allow: replicas serve
        # concurrency and never per-stream speed, so more of them cannot reach the target.
        allowed = aim / 1000.0 if metric == "tpot" else (aim - ttft) / 1000.0 / out
        lat_batch = min(
            (allowed - a - d) / (b + e) if b + e > 0 else math.inf,
            (allowed - d) / (c + e) if c + e > 0 else math.inf,
        )
        if shape.is_moe:
            # The experts read grow with the batch (not linearly): the largest batch within
            # the target by bisection, the step time being increasing in the batch.
            lo, hi = 1, batch
            while lo < hi:
                mid = (lo + hi + 1) // 2
                lo, hi = (mid, hi) if metric_ms(mid) <= target else (lo, mid - 1)
            batch = lo
        elif lat_batch < batch:
            batch = max(1, int(lat_batch)) if lat_batch >= 1 else 1
    read = a + _expert_a(shape, mem, acc, tp, catalog, batch)
    tps = (
        pp
        * batch
        * out
        / replica_cycle(
            batch,
            out,
            prefill,
            (read, b, c, d, e),
            serving,
            catalog.figure("chunked_prefill_overlap"),
        )
    )
    replicas = max(
        math.ceil(inf.concurrent_sequences / (batch * pp)),
        math.ceil(demand_tokens_per_s / tps) if demand_tokens_per_s > 0 else 1,
        1,
    )
    s = step(batch)
    plan = ServingPlan(
        tp=tp,
        batch=batch * pp,
        replicas=replicas,
        tokens_per_second=tps,
        tpot_ms=s * 1000.0,
        ttft_ms=ttft,
        latency_ms=ttft + out * s * 1000.0,
        metric_ms=metric_ms(batch),
        comm_ms_per_token=(d + e * batch) * 1000.0,
        best_metric_ms=0.0,
        meets=target is None or metric_ms(batch) <= target + 1e-9,
        bound="memory_bandwidth" if read + b * batch >= c * batch else "compute",
        pp=pp,
    )
    return plan, first


def _asdict(plan: ServingPlan) -> dict[str, Any]:
    return {f: getattr(plan, f) for f in plan.__slots__}
