"""Training options: the device count a run needs, its time (compute and network) and its money."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from advisor.engine import sizing
from advisor.engine.answers.vocabulary import Training
from advisor.engine.catalog import Accelerator, Catalog
from advisor.engine.pricing.billing import FABRICS, CostInputs, billed_devices
from advisor.engine.pricing.costing import capacity_doc, option_money, round_or_none, target_margin
from advisor.engine.pricing.owned import unpriced_doc

# --------------------------------------------------------------------------- options


def training_target(kind: str, schedule: str, t: Training, catalog: Catalog) -> tuple[float, str]:
    """Hours a run must finish in and why: the deadline answer, else the schedule (a daily job
    within 24 h, a weekly one within 168 h), else the catalog's default (30 days)."""
    if t.deadline_hours is not None:
        return float(t.deadline_hours), "deadline"
    by_schedule = catalog.rule("training_target_hours")
    if schedule in by_schedule:
        return float(by_schedule[schedule]), "schedule"
    return catalog.figure("default_training_target_hours"), "default"


def training_counts(acc: Accelerator, n_min: int, catalog: Catalog) -> list[int]:
    """Device counts to try from the fewest that fit: TPU slices, or GPUs 1-2-4-8 then whole
    nodes; cards without NVLink-class links train on one node at most (catalog rule)."""
    cap = acc.max_devices_per_group
    if (
        acc.type == "gpu"
        and not acc.fast_interconnect
        and catalog.rule("multi_node_training_needs_fast_interconnect")
    ):
        cap = min(cap, acc.max_devices_per_node)
    return [c for c in sizing.valid_counts(acc) if n_min <= c <= cap]


def run_overhead(t: Training, mem: sizing.TrainingMemory, catalog: Catalog) -> dict[str, float]:
    """Hours each run spends before it computes (catalog figures): provisioning the fleet,
    starting the training container (pulling its image) and staging the dataset and the model's
    weights from storage. Counted in the run's hours and cost: a short daily job pays them every
    day."""
    data_gb = t.dataset_tokens * catalog.figure("dataset_bytes_per_token") / 1e9
    weights_gb = mem.parts["weights"] / 1e9
    staging_h = (data_gb + weights_gb) / catalog.figure("staging_gbytes_per_s") / 3600.0
    provisioning_h = catalog.figure("run_provisioning_minutes") / 60.0
    container_h = catalog.figure("run_container_start_minutes") / 60.0
    return {
        "hours": round(provisioning_h + container_h + staging_h, 4),
        "provisioning_hours": round(provisioning_h, 4),
        "container_start_hours": round(container_h, 4),
        "staging_hours": round(staging_h, 4),
        "staged_gb": round(data_gb + weights_gb, 1),
    }


def run_mfu(
    acc: Accelerator,
    n: int,
    t: Training,
    shape: sizing.ModelShape,
    mem: sizing.TrainingMemory,
    catalog: Catalog,
) -> sizing.Mfu:
    """The run's MFU on n devices: its regime follows the tensor-parallel size the devices
    need to hold it (sizing.training_tp) and whether they span nodes."""
    return sizing.training_mfu(
        shape, t, acc, n, sizing.training_tp(mem, acc, n, catalog) or 1, catalog
    )


def run_hours(
    flops: sizing.TrainingFlops,
    acc: Accelerator,
    n: int,
    t: Training,
    shape: sizing.ModelShape,
    mem: sizing.TrainingMemory,
    catalog: Catalog,
) -> float:
    """Compute hours of the run on n devices at its regime's MFU."""
    return sizing.training_hours(flops, acc, n, t, run_mfu(acc, n, t, shape, mem, catalog), catalog)


def beyond_one_pcie_node(acc: Accelerator, n_min: int | None, catalog: Catalog) -> bool:
    """Whether a run needs more cards without NVLink-class links than one node holds: large
    training is not built across PCIe-only nodes (catalog rule
    `multi_node_training_needs_fast_interconnect`)."""
    return (
        n_min is not None
        and acc.type == "gpu"
        and not acc.fast_interconnect
        and bool(catalog.rule("multi_node_training_needs_fast_interconnect"))
        and n_min > acc.max_devices_per_node
    )


def _training_count(
    acc: Accelerator,
    kind: str,
    schedule: str,
    shape: sizing.ModelShape,
    t: Training,
    mem: sizing.TrainingMemory,
    flops: sizing.TrainingFlops,
    catalog: Catalog,
) -> tuple[int, int, float, float, str] | None:
    n_min = sizing.min_training_devices(mem, acc, catalog)
    if n_min is None:
        return None
    target, basis = training_target(kind, schedule, t, catalog)
    # The fixed overhead of a run comes before its compute: the compute has what is left.
    overhead = run_overhead(t, mem, catalog)["hours"]
    compute_target = max(target - overhead, 1e-6)
    counts = training_counts(acc, n_min, catalog)
    if not counts and beyond_one_pcie_node(acc, n_min, catalog):
        return None  # the run needs PCIe-only cards across nodes: not built (catalog rule)
    counts = counts or [n_min]
    n, hours = counts[0], run_hours(flops, acc, counts[0], t, shape, mem, catalog)
    # Aim inside the target by the catalog's safety share (a thinner margin is inside the
    # estimate's own error), else at the target itself.
    aim = max(target * (1.0 - float(catalog.rule("target_safety_share"))) - overhead, 1e-6)
    if hours > aim:
        # The fewest whole nodes that meet the aim (the target where no count does); each count
        # at its own regime's MFU, which changes as a run spans nodes or sheds tensor parallelism.
        def meets(limit: float) -> int | None:
            return next(
                (c for c in counts if run_hours(flops, acc, c, t, shape, mem, catalog) <= limit),
                None,
            )

        n = meets(aim) or meets(compute_target) or counts[-1]
        hours = run_hours(flops, acc, n, t, shape, mem, catalog)
    return n_min, n, hours + overhead, target, basis


def _base_memo(
    acc: Accelerator,
    kind: str,
    schedule: str,
    shape: sizing.ModelShape,
    t: Training,
    mem: sizing.TrainingMemory,
    sized: tuple[int, int, float, float, str],
    catalog: Catalog,
) -> tuple[int, float, float, float, float, float | None, dict[str, Any]]:
    """`_training_base`, memoised on the catalog: it reads the card, the run's answers (which
    determine `mem`) and its count and hours, nothing of the customer's cost inputs, so the
    re-plans of one evaluation and other evaluations share it. Read-only by contract."""
    return catalog.memo(
        ("training_base", acc.id, kind, schedule, shape, t, sized),
        lambda: _training_base(acc, kind, schedule, shape, t, mem, sized, catalog),
    )


def _training_base(
    acc: Accelerator,
    kind: str,
    schedule: str,
    shape: sizing.ModelShape,
    t: Training,
    mem: sizing.TrainingMemory,
    sized: tuple[int, int, float, float, str],
    catalog: Catalog,
) -> tuple[int, float, float, float, float, float | None, dict[str, Any]]:
    """What a training option is in every deployment mode (its money aside)."""
    n_min, n, hours, target, basis = sized
    hpm = catalog.hours_per_month
    runs = catalog.rule("training_runs_per_month")[schedule]
    run_device_hours = n * hours
    used = n * hpm if runs is None else min(n * hpm, run_device_hours * float(runs))
    dataset_gb = t.dataset_tokens * catalog.figure("dataset_bytes_per_token") / 1e9
    ckpt_gb = (mem.parts["weights"] + mem.parts["optimizer"]) / 1e9
    storage_gb = dataset_gb + catalog.figure("checkpoints_kept") * ckpt_gb
    peak, peak_note = sizing.peak_tflops(acc, t.precision, catalog)
    overhead = run_overhead(t, mem, catalog)
    mfu = run_mfu(acc, n, t, shape, mem, catalog)
    base = {
        "accelerator_id": acc.id,
        "name": acc.name,
        "type": acc.type,
        "count": n,
        "min_count": n_min,
        "hours": round(hours, 2),
        # Included in `hours`: provisioning, container start and data staging of each run.
        "run_overhead": overhead,
        "target_hours": round(target, 2),
        "target_basis": basis,
        "device_hours": round(run_device_hours, 1),
        "meets_deadline": hours <= target + 1e-9,
        **target_margin(hours, target, catalog),
        "peak_tflops_per_device": peak,
        "peak_basis": peak_note,
        "mfu": round(mfu.value, 3),
        # The regime that gave the MFU (rule training_mfu, fitted on published runs).
        "mfu_basis": {
            "tokens_per_micro_step": mfu.tokens_per_micro_step,
            "parallelism": mfu.parallelism,
            "factors": mfu.parts,
            "rule": "training_mfu",
        },
        "interconnect": sizing.interconnect_need(acc, n, training=True),
        # Tensor parallelism inside a unit (with ZeRO-3/FSDP over all devices).
        "tensor_parallel": sizing.training_tp(mem, acc, n, catalog) or 1,
    }
    return n, hours, run_device_hours, used, storage_gb, runs, base


def network_time(
    acc: Accelerator,
    t: Training,
    mem: sizing.TrainingMemory,
    flops: sizing.TrainingFlops,
    n: int,
    tp: int,
    mfu: float,
    price: Mapping[str, Any] | None,
    catalog: Catalog,
) -> dict[str, Any] | None:
    """The time data parallelism across units costs a run on the offer's network between them
    (None on one unit or a TPU slice). Per micro-step every unit moves the sharded state across
    the others: ZeRO-3/FSDP all-gathers the weights twice and reduce-scatters the gradients
    (3 x the bf16 weights; 2 x the trainable gradients for LoRA's all-reduce), (k-1)/k of it
    over the unit's network. Overlapped with compute (FSDP prefetch), only the part longer than
    the micro-step's compute adds time: the published MFU already holds on a training fabric."""
    unit = (price or {}).get("sold_unit")
    if not unit or int(unit["units"]) <= 1:
        return None
    k, g = int(unit["units"]), int(unit["gpus"])
    gbps = unit.get("network_gbps")
    assumed = gbps is None
    if gbps is None:
        gbps = catalog.figure("unit_network_gbps_not_stated")
    full = t.method == "full"
    sync_bytes = (3.0 if full else 2.0) * 2.0 * mem.trainable_params
    comm_s = sync_bytes * (k - 1) / k / (float(gbps) * 1e9 / 8.0)
    per_unit = min(g, n)
    tokens = float(t.micro_batch_size) * t.sequence_length * max(1, per_unit // max(1, tp))
    per_token = flops.total / max(1.0, float(t.dataset_tokens) * t.epochs)
    peak, _ = sizing.peak_tflops(acc, t.precision, catalog)
    rate = per_unit * peak * 1e12 * mfu
    compute_s = per_token * tokens / rate if rate > 0 else math.inf
    factor = max(1.0, comm_s / compute_s) if compute_s > 0 else 1.0
    return {
        "units": k,
        "network": unit.get("network"),
        "network_gbps": float(gbps),
        "network_assumed": assumed,
        "fabric": unit.get("network") in FABRICS,
        "sync_gb_per_step": round(sync_bytes / 1e9, 2),
        "comm_s_per_step": round(comm_s, 3),
        "compute_s_per_step": round(compute_s, 3),
        "time_factor": round(factor, 3),
    }


def training_option(
    acc: Accelerator,
    mode: str,
    kind: str,
    schedule: str,
    shape: sizing.ModelShape,
    t: Training,
    mem: sizing.TrainingMemory,
    flops: sizing.TrainingFlops,
    ci: CostInputs,
) -> dict[str, Any] | None:
    """One option for a training workload, scaled until the run meets its target hours (or the
    largest valid count, flagged); None when the run does not fit any count."""
    catalog = ci.catalog
    key = ("training", acc.id, kind, schedule)
    if key not in ci.sized:
        # Memoised on the catalog too: the count depends only on these inputs.
        ci.sized[key] = catalog.memo(
            ("training_count", acc.id, kind, schedule, shape, t),
            lambda: _training_count(acc, kind, schedule, shape, t, mem, flops, catalog),
        )
    if ci.sized[key] is None:
        return None
    base_key = ("training_base", acc.id, kind, schedule)
    if base_key not in ci.sized:
        ci.sized[base_key] = _base_memo(acc, kind, schedule, shape, t, mem, ci.sized[key], catalog)
    n, hours, run_device_hours, used, storage_gb, runs, base = ci.sized[base_key]
    hpm = catalog.hours_per_month
    tp = int(base["tensor_parallel"])
    money = option_money(acc, mode, n, used, storage_gb, 0.0, ci, tp=tp, training=True)
    if money["billed_count"] > n:
        # The price is sold in whole units (an 8-GPU node): the run uses every device paid for.
        bumped = ("training_base", acc.id, kind, schedule, money["billed_count"])
        if bumped not in ci.sized:
            n_min, _n, _h, target, basis = ci.sized[key]
            count = money["billed_count"]
            more = run_hours(flops, acc, count, t, shape, mem, catalog)
            more += run_overhead(t, mem, catalog)["hours"]
            ci.sized[bumped] = _base_memo(
                acc, kind, schedule, shape, t, mem, (n_min, count, more, target, basis), catalog
            )
        n, hours, run_device_hours, used, storage_gb, runs, base = ci.sized[bumped]
        tp = int(base["tensor_parallel"])
        money = option_money(acc, mode, n, used, storage_gb, 0.0, ci, tp=tp, training=True)
    slot_used = money["billing_used"] or "on_demand"
    network = network_time(
        acc, t, mem, flops, n, tp, float(base["mfu"]), money["prices"].get(slot_used), catalog
    )
    if network is not None and network["time_factor"] > 1.0:
        # The network between units is slower than the compute it must keep up with: the run
        # takes longer on this offer, and costs the hours it takes.
        slow = ("training_base", acc.id, kind, schedule, n, network["time_factor"])
        if slow not in ci.sized:
            n_min, _n, _h, target, basis = ci.sized[key]
            longer = hours * network["time_factor"]
            ci.sized[slow] = _base_memo(
                acc, kind, schedule, shape, t, mem, (n_min, n, longer, target, basis), catalog
            )
        n, hours, run_device_hours, used, storage_gb, runs, base = ci.sized[slow]
        money = option_money(acc, mode, n, used, storage_gb, 0.0, ci, tp=tp, training=True)
    per_run: dict[str, float | None] = {}
    for slot in ("on_demand", "spot", "flex_start", "capacity_block"):
        doc = money["prices"][slot]
        unit = (doc or {}).get("sold_unit")
        billed = (
            int(unit["gpus"]) * int(unit["units"])
            if unit
            else billed_devices(n, doc["gpus_per_unit"])
            if doc
            else n
        )
        per_run[slot] = (
            round_or_none(run_device_hours * billed / n * doc["usd_per_device_hour"])
            if doc
            else None
        )
    slot = money["billing_used"]
    to_result: float | None = None
    if slot in per_run:
        to_result = per_run[slot]
    elif slot is not None:
        # A fixed price is held for the share of the month(s) one run needs.
        share = max(hours / hpm, 1.0 / float(runs) if runs else 1.0)
        to_result = round_or_none((money["compute_usd_per_month"][slot] or 0.0) * share)
    capacity = capacity_doc(acc, money, catalog)
    option = {
        **base,
        "cost_per_run_usd": per_run,
        "cost_to_result": {"usd": to_result, "per": "run"},
        **money,
        # Only when the run spans units / exceeds what is rented on demand.
        **({"network": network} if network is not None else {}),
        **({"capacity": capacity} if capacity is not None else {}),
    }
    if to_result is None:
        option["unpriced"] = unpriced_doc(acc, mode, n, ci)
    return option
