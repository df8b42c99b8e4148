"""A workload's options: every card of a family in a deployment mode, checked against the team's
stack (catalog compatibility) and where the customer is (catalog availability), sized, priced and
ranked by the cost to the result. Options that cannot run the stack, or that data residency
forbids, are listed as excluded with their reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from advisor.engine import answers as A
from advisor.engine import costing as C
from advisor.engine import i18n
from advisor.engine import scoring as SC
from advisor.engine import sizing as S
from advisor.engine import stack as ST
from advisor.engine.catalog import Accelerator, Catalog

# Rule ids stated in the result document (recommendation.rules, workloads[].rules).
RULES = (
    "stack_runs_as_is",
    "rank_by_cost_to_result",
    "time_to_result",
    "billing_follows_utilisation",
    "optimizer_implementation",
    "serving_at_required_load",
    "available_where_customer_is",
    "mode_weighs_cost",
    "server_sized_for_workload",
    "confidence_covers_recommendation",
    "real_levers",
)


@dataclass(frozen=True, slots=True)
class Sized:
    """What the options of a workload are built from (None where the phase has none)."""

    shape: S.ModelShape | None
    tmem: S.TrainingMemory | None
    tflops: S.TrainingFlops | None
    imem: S.InferenceMemory | None


@dataclass(frozen=True, slots=True)
class Options:
    options: list[dict[str, Any]]
    excluded: list[dict[str, Any]]


def round_trip_ms(catalog: Catalog, a: str, b: str) -> float | None:
    """Round-trip time between two region keys from the catalog table (None = not measured)."""
    if a == b:
        return 0.0
    pairs = catalog.round_trip.get("pairs", {})
    value = pairs.get(f"{a}|{b}", pairs.get(f"{b}|{a}"))
    return None if value is None else float(value)


def availability(
    catalog: Catalog, acc: Accelerator, mode: str, regions: Sequence[str]
) -> dict[str, Any]:
    """Whether the card is offered where the customer is (memoised on the catalog).

    Public cloud: the catalog's availability table per region (a price-list row is not
    availability); a region missing from the table falls back to a price row located there.
    Hosted modes: an offer located in one of the customer's regions.
    """
    key = ("availability", acc.id, mode, tuple(regions))
    return catalog.memo(key, lambda: _availability(catalog, acc, mode, tuple(regions)))


def _offered_in(catalog: Catalog, acc: Accelerator, mode: str) -> tuple[set[str], str | None]:
    table = catalog.availability.get("regions", {})
    priced = {
        p.region_key
        for p in catalog.prices_by_accelerator.get(acc.id, ())
        if mode in p.modes and p.region_key
    }
    if mode != "public_cloud":
        return priced, None
    offered = {r for r, v in table.items() if acc.id in v.get("public_cloud", ())}
    offered |= {r for r in priced if r not in table}
    return offered, catalog.availability.get("source")


def _availability(
    catalog: Catalog, acc: Accelerator, mode: str, regions: tuple[str, ...]
) -> dict[str, Any]:
    offered, source = _offered_in(catalog, acc, mode)
    here = [r for r in regions if r in offered]
    nearest: str | None = None
    rtt: float | None = None
    if not here and offered:
        best: tuple[float, str] | None = None
        for r in regions:
            for o in sorted(offered):
                t = round_trip_ms(catalog, r, o)
                if t is not None and (best is None or (t, o) < best):
                    best = (t, o)
        if best is not None:
            rtt, nearest = best
    table = catalog.availability.get("regions", {})
    sources = sorted(
        {str(table[r]["source"]) for r in regions if r in table and "source" in table[r]}
    )
    return {
        "available": bool(here),
        "regions": here,
        "nearest_region": nearest,
        "round_trip_ms": rtt,
        "source": "; ".join(sources) or source,
        "as_of": catalog.availability.get("as_of"),
    }


def _stack_doc(fit: ST.StackFit, lang: str) -> dict[str, Any]:
    return {
        "status": fit.status,
        "runnable": fit.runnable,
        "checks": [{"item": item, "status": status} for item, status in fit.checks],
        "porting": [i18n.message(f"porting.{code}", lang) for code in fit.porting],
        "source": fit.source,
        "as_of": fit.as_of,
    }


def _blocking(fit: ST.StackFit, lang: str) -> str:
    items = [item for item, status in fit.checks if status == "unsupported"]
    return i18n.message(
        "option.unsupported_stack",
        lang,
        items=", ".join(
            i18n.message(
                f"stack_item.{i.split('.', 1)[0]}",
                lang,
                value=i18n.label(i.split(".", 1)[-1], lang),
            )
            for i in items
        ),
    )


def build(
    catalog: Catalog,
    answers: A.Answers,
    kind: str,
    schedule: str,
    acc_type: str,
    mode: str,
    sized: Sized,
    ci: C.CostInputs,
    lang: str,
) -> Options:
    """The ranked options of one workload for a family (gpu/tpu) in a deployment mode."""
    phase = SC.PHASE_OF[kind]
    out: list[dict[str, Any]] = []
    excluded: list[dict[str, Any]] = []
    fw = answers.frameworks
    residency = answers.deployment.data_residency
    regions = answers.organization.regions
    if sized.shape is None or phase == "preprocessing":
        return Options(out, excluded)
    for index, acc in enumerate(catalog.accelerators):
        if acc.type != acc_type:
            continue
        fit = ST.stack_fit(catalog, acc, phase, fw.primary, fw.serving, fw.custom_kernels)
        if fit.status == "unsupported":
            excluded.append(
                {
                    "accelerator_id": acc.id,
                    "name": acc.name,
                    "code": "unsupported_stack",
                    "reason": _blocking(fit, lang),
                    "stack": _stack_doc(fit, lang),
                }
            )
            continue
        avail = availability(catalog, acc, mode, regions)
        if residency == "in_region" and not avail["available"]:
            excluded.append(
                {
                    "accelerator_id": acc.id,
                    "name": acc.name,
                    "code": "not_offered_in_region",
                    "reason": i18n.message(
                        "option.not_in_region",
                        lang,
                        regions=", ".join(
                            i18n.value_label("organization.regions", r, lang) for r in regions
                        ),
                    ),
                    "availability": dict(avail),
                }
            )
            continue
        option: dict[str, Any] | None = None
        if phase == "training" and sized.tmem and sized.tflops and answers.training:
            option = C.training_option(
                acc,
                mode,
                kind,
                schedule,
                sized.shape,
                answers.training,
                sized.tmem,
                sized.tflops,
                ci,
            )
        elif phase == "inference" and sized.imem and answers.inference:
            option = C.inference_option(
                acc,
                mode,
                kind,
                sized.shape,
                answers.inference,
                sized.imem,
                answers.cost.hours_per_day,
                ci,
                rtt_ms=None if avail["available"] else avail["round_trip_ms"],
            )
        if option is None:
            continue
        option["stack"] = _stack_doc(fit, lang)
        option["availability"] = dict(avail)
        option["_index"] = index
        out.append(option)
    out.sort(key=lambda o: C.rank_key(o, o["_index"]))
    for rank, o in enumerate(out, 1):
        del o["_index"]
        o["rank"] = rank
    return Options(out, excluded)


def first_runnable(options: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The first option that runs the stack as it is."""
    return next((o for o in options if o["stack"]["runnable"]), None)
