"""A workload's options: every card of a family in a deployment mode, checked against the team's
stack (catalog compatibility) and where the customer is (catalog availability), sized, priced and
ranked by the cost to the result. Options that cannot run the stack, or that data residency
forbids, are listed as excluded with their reason.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from advisor.engine import answers as A
from advisor.engine import billing as BL
from advisor.engine import i18n, labels
from advisor.engine import nonllm as NL
from advisor.engine import owned as OW
from advisor.engine import ranking as RK
from advisor.engine import scoring as SC
from advisor.engine import serving_cost as SV
from advisor.engine import sizing as S
from advisor.engine import stack as ST
from advisor.engine import training_cost as TR
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
    # Options another one beats or equals on every axis (cost, time, region, firm price,
    # devices, same billing): left out of `options`, each whole with `dominated_by`, the id of
    # the option that beats it.
    dominated: list[dict[str, Any]] = dataclasses.field(default_factory=list)


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
    Hosted modes: an offer located in one of the customer's regions. Owned modes (private cloud,
    on premises): the customer's own hardware, available where the customer is (`owned`).
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
    if mode in OW.OWNED_MODES:
        # The customer's own hardware is installed where the customer is: no offer to look up.
        return {
            "available": True,
            "regions": list(regions),
            "nearest_region": None,
            "round_trip_ms": None,
            "source": None,
            "as_of": None,
            "owned": True,
        }
    offered, source = _offered_in(catalog, acc, mode)
    # Offered in the customer's country counts (Tokyo data may live in Ishikari); the option's
    # price then says where, and the report notes the distance.
    here = [r for r in regions if r in offered or any(BL.in_country(o, (r,)) for o in offered)]
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


def _stack_doc(catalog: Catalog, fit: ST.StackFit, lang: str) -> dict[str, Any]:
    # Memoised and shared between options: read-only by contract.
    return catalog.memo(("stack_doc", fit, lang), lambda: _new_stack_doc(fit, lang))


def _new_stack_doc(fit: ST.StackFit, lang: str) -> dict[str, Any]:
    return {
        "status": fit.status,
        "runnable": fit.runnable,
        "checks": [{"item": item, "status": status} for item, status in fit.checks],
        "porting": [_coded("porting", code, lang) for code in fit.porting],
        "source": fit.source,
        "as_of": fit.as_of,
    }


def _coded(prefix: str, code: str, lang: str) -> str:
    name, params = ST.detail(code)
    return i18n.message(f"{prefix}.{name}", lang, **params)


def _blocking(fit: ST.StackFit, lang: str) -> str:
    if fit.blocking:
        # The card's own data decides (no bf16, no fp8 units, kernels built for newer cards).
        return "; ".join(_coded("card_cannot", code, lang) for code in fit.blocking)
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


def _precision(answers: A.Answers, phase: str) -> str | None:
    """The numeric format a phase runs in (training or inference precision answered)."""
    if phase == "training":
        return answers.training.precision if answers.training else None
    return answers.inference.precision if answers.inference else None


def build(
    catalog: Catalog,
    answers: A.Answers,
    kind: str,
    schedule: str,
    acc_type: str,
    mode: str,
    sized: Sized,
    ci: BL.CostInputs,
    lang: str,
    *,
    only_priced: bool = False,
) -> Options:
    """The ranked options of one workload for a family (gpu/tpu) in a deployment mode
    (`only_priced`: just the cards with a price in that mode, enough to weigh the mode)."""
    phase = SC.PHASE_OF[kind]
    out: list[dict[str, Any]] = []
    excluded: list[dict[str, Any]] = []
    fw = answers.frameworks
    residency = answers.deployment.data_residency
    regions = answers.organization.regions
    # Issue 21 item 7: inference counted in its own unit is sized from the catalog's per-card
    # throughput, not from a model shape.
    work = answers.work if phase == "inference" else None
    if (sized.shape is None and work is None) or phase == "preprocessing":
        return Options(out, excluded)
    priced = _priced_pairs(catalog) if only_priced else None
    for index, acc in enumerate(catalog.accelerators):
        if acc.type != acc_type or (priced is not None and (acc.id, mode) not in priced):
            continue
        fit = ci.sized.get(("fit", acc.id, phase))
        if fit is None:
            fit = ci.sized[("fit", acc.id, phase)] = ST.stack_fit(
                catalog,
                acc,
                phase,
                fw.primary,
                fw.serving,
                fw.custom_kernels,
                _precision(answers, phase),
                fw.kernel_architectures,
            )
        if fit.status == "unsupported":
            excluded.append(
                {
                    "accelerator_id": acc.id,
                    "name": acc.name,
                    "code": "unsupported_stack",
                    "reason": _blocking(fit, lang),
                    "stack": _stack_doc(catalog, fit, lang),
                }
            )
            continue
        avail = ci.sized.get(("availability", acc.id, mode))
        if avail is None:
            avail = ci.sized[("availability", acc.id, mode)] = availability(
                catalog, acc, mode, regions
            )
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
        rtt = None if avail["available"] else avail["round_trip_ms"]
        if work is not None:
            option = NL.option(catalog, work, kind, acc, mode, answers.cost.hours_per_day, ci, rtt)
            if option is None:
                excluded.append(
                    {
                        "accelerator_id": acc.id,
                        "name": acc.name,
                        "code": "no_unit_throughput",
                        "reason": NL.unsized_reason(catalog, work, acc, lang),
                    }
                )
                continue
        else:
            option = _priced_option(
                catalog, answers, kind, schedule, acc, mode, phase, sized, ci, rtt
            )
        if option is None:
            n_min = (
                S.min_training_devices(sized.tmem, acc, catalog)
                if phase == "training" and sized.tmem is not None
                else None
            )
            if TR.beyond_one_pcie_node(acc, n_min, catalog):
                excluded.append(
                    {
                        "accelerator_id": acc.id,
                        "name": acc.name,
                        "code": "pcie_multi_node_training",
                        "reason": i18n.message(
                            "exclude.pcie_multi_node_training",
                            lang,
                            count=n_min,
                            node=acc.max_devices_per_node,
                        ),
                    }
                )
            continue
        stack = ci.sized.get(("stack_doc", acc.id, phase, lang))
        if stack is None:
            stack = ci.sized[("stack_doc", acc.id, phase, lang)] = _stack_doc(catalog, fit, lang)
        option["stack"] = stack
        option["availability"] = avail
        option["_index"] = index
        out.append(option)
    out, dropped = RK.rank(out, catalog, kind=kind, mode=mode)
    for rank, o in enumerate(out, 1):
        del o["_index"]
        o["rank"] = rank
    house_beside_first(out)
    return Options(
        out,
        excluded,
        [{k: v for k, v in o.items() if k != "_index"} for o in dropped],
    )


# Fields of an option doc that are its own (copied out of the memo); `prices` and
# `break_even_utilisation` are the memoised offer's, shared and read-only by contract.
_OWN_DICTS = (
    "cost_per_run_usd",
    "cost_to_result",
    "compute_usd_per_month",
    "cost_per_million_output_tokens_usd",
)


_OPTION_MEMO_MAX = 10_000


def _copy_option(option: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(option)
    for k in _OWN_DICTS:
        if k in out:
            out[k] = dict(out[k])
    out["missing_prices"] = list(out["missing_prices"])
    return out


def _option_inputs(
    catalog: Catalog,
    answers: A.Answers,
    kind: str,
    schedule: str,
    mode: str,
    phase: str,
    shape: S.ModelShape,
    ci: BL.CostInputs,
) -> object:
    """A token for everything a card's priced option reads besides the card and the round trip:
    the workload, the mode, the sizing answers (which determine the memory and FLOPs) and the
    cost inputs. Memoised on the catalog, so equal inputs give the same token."""
    local = ("option_inputs", kind, schedule, mode)
    token = ci.sized.get(local)
    if token is None:
        sizing = (
            (answers.training,)
            if phase == "training"
            else (answers.inference, answers.frameworks.serving, answers.cost.hours_per_day)
        )
        key = (
            "option_inputs",
            kind,
            schedule,
            mode,
            shape,
            sizing,
            ci.today,
            ci.stale_days,
            ci.regions,
            ci.clouds,
            ci.residency,
            ci.china,
            ci.ops_capacity,
            ci.ops_headcount,
            ci.staff_region,
            ci.billing,
            ci.predictable,
            ci.stable,
            ci.measurements,
        )
        token = ci.sized[local] = catalog.memo(key, object)
    return token


def _priced_option(
    catalog: Catalog,
    answers: A.Answers,
    kind: str,
    schedule: str,
    acc: Accelerator,
    mode: str,
    phase: str,
    sized: Sized,
    ci: BL.CostInputs,
    rtt: float | None,
) -> dict[str, Any] | None:
    """One card's sized and priced option (None = it does not fit), memoised on the catalog:
    the same cards in the same modes recur across the builds of one evaluation and across
    evaluations of the same answers. A copy is handed out, so callers may change it."""

    def compute() -> dict[str, Any] | None:
        shape = sized.shape
        if shape is None:
            return None
        if phase == "training" and sized.tmem and sized.tflops and answers.training:
            return TR.training_option(
                acc,
                mode,
                kind,
                schedule,
                shape,
                answers.training,
                sized.tmem,
                sized.tflops,
                ci,
            )
        if phase == "inference" and sized.imem and answers.inference:
            return SV.inference_option(
                acc,
                mode,
                kind,
                shape,
                answers.inference,
                sized.imem,
                answers.cost.hours_per_day,
                ci,
                rtt_ms=rtt,
            )
        return None

    if sized.shape is None:
        return None
    token = _option_inputs(catalog, answers, kind, schedule, mode, phase, sized.shape, ci)
    memo: dict[Any, dict[str, Any] | None] = catalog.memo("option_memo", dict)
    key = (token, acc.id, rtt)
    try:
        found = memo[key]
    except KeyError:
        if len(memo) >= _OPTION_MEMO_MAX:  # option docs are large: a memo of their own, bounded
            memo.clear()
        found = memo[key] = compute()
    return None if found is None else _copy_option(found)


def _priced_pairs(catalog: Catalog) -> frozenset[tuple[str, str]]:
    """(accelerator, mode) pairs that have at least one price in the catalog."""
    return catalog.memo(
        "priced_pairs",
        lambda: frozenset(
            (p.accelerator_id, m) for p in catalog.prices if not p.on_request for m in p.modes
        ),
    )


def house_beside_first(options: Sequence[dict[str, Any]]) -> None:
    """Issue 22 item 2: the operator's own servers sold on request that fit this workload (an
    option runnable with the team's stack, the server in the customer's region) are listed on the
    first priced option as `house_on_request`, with their sizing, so that the report shows
    "our server for this workload: ask for a price" beside it. They stay unpriced and are never
    ranked as if priced; the key is absent when there is none (results keep their bytes)."""
    if not options:
        return
    first = next((o for o in options if o["cost_to_result"]["usd"] is not None), options[0])
    found: list[dict[str, Any]] = []
    seen: set[str] = set()
    for o in options:
        if not (o["stack"]["runnable"] and o["availability"]["available"]):
            continue
        for offer in o.get("on_request") or []:
            # Only a server where the customer is (the list beside an option names the rest).
            if not offer.get("house") or offer["price_id"] in seen:
                continue
            if offer.get("region_match") != "exact":
                continue
            seen.add(offer["price_id"])
            needed = int(o.get("min_count") or o["count"])
            per_unit = max(1, int(offer.get("gpus_per_unit") or 1))
            found.append(
                {
                    **offer,
                    "accelerator_id": o["accelerator_id"],
                    "name": o["name"],
                    "needed_count": needed,
                    "servers": -(-needed // per_unit),
                    "option_rank": o["rank"],
                }
            )
    if found:
        first["house_on_request"] = found


def whole_server_note(
    kind: str, options: Sequence[Mapping[str, Any]], budget: float | None, lang: str
) -> str | None:
    """Issue 22 item 7: a first option billed in servers larger than the workload needs (a
    house server sold only as 8 cards for a job that fits one) says so, with the idle cards'
    cost, the cheapest smaller priced option it was compared against and the budget it
    exceeds; None when the option uses what it pays for."""
    first = options[0] if options else None
    if first is None or not first.get("billing_used"):
        return None
    price = first["prices"].get(first["billing_used"]) or {}
    per_unit = int(price.get("gpus_per_unit") or 1)
    needed = int(first.get("min_count") or first["count"])
    billed = int(first.get("billed_count") or first["count"])
    monthly = first.get("monthly_cost_usd")
    # Only where no unit note explains the purchase (a house or hosting row sold as a server).
    if per_unit <= 1 or billed <= needed or monthly is None or price.get("sold_unit"):
        return None
    smaller = next(
        (
            o
            for o in options[1:]
            if o.get("monthly_cost_usd") is not None
            and o["monthly_cost_usd"] < monthly
            and o["stack"]["runnable"]
        ),
        None,
    )
    per_card = float(price.get("usd_per_device_month") or 0.0)
    parts = [
        i18n.message(
            "option.whole_server",
            lang,
            kind=i18n.label(kind, lang),
            card=first["name"],
            needed=needed,
            gpus=per_unit,
            servers=-(-billed // per_unit),
            idle=billed - needed,
            idle_usd=f"{(billed - needed) * per_card:,.0f}",
        )
    ]
    if smaller is not None:
        parts.append(
            i18n.message(
                "option.whole_server_smaller",
                lang,
                card=smaller["name"],
                count=smaller["count"],
                usd=f"{smaller['monthly_cost_usd']:,.0f}",
            )
        )
    if budget is not None and monthly > budget:
        parts.append(
            i18n.message(
                "option.whole_server_budget",
                lang,
                usd=f"{monthly:,.0f}",
                budget=f"{budget:,.0f}",
            )
        )
    return " ".join(parts)


def first_runnable(options: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The first option that runs the stack as it is."""
    return next((o for o in options if o["stack"]["runnable"]), None)


def first_option_notes(
    kind: str, mode: str, first: Mapping[str, Any] | None, regions: Sequence[str], lang: str
) -> list[str]:
    """What the report must say about the basis of a workload's first option: unpriced (and on
    what basis it was ranked), or priced from outside the customer's region group; then how it
    is bought (whole units of one offer), what its network between units costs in time and
    whether its provider rents that many on demand."""
    return (
        _basis_notes(kind, mode, first, regions, lang)
        + tco_notes(kind, first, lang)
        + unit_notes(kind, first, lang)
    )


def unit_notes(kind: str, first: Mapping[str, Any] | None, lang: str) -> list[str]:
    """The first option as bought: k units of one offer with tensor parallelism inside a unit;
    a multi-unit run without an RDMA fabric or slowed by its network; beyond on-demand stock."""
    if first is None or not first.get("billing_used"):
        return []
    price = first["prices"].get(first["billing_used"]) or {}
    sold = price.get("sold_unit")
    out = []
    card, kind_label = first["name"], i18n.label(kind, lang)
    if sold:
        tp = int(first.get("tensor_parallel") or 1)
        out.append(
            i18n.message(
                "option.sold_as",
                lang,
                kind=kind_label,
                card=card,
                units=sold["units"],
                unit=sold["name"],
                gpus=sold["gpus"],
                tp=i18n.message("option.tp_inside", lang, tp=tp) if tp > 1 else "",
            )
        )
    net = first.get("network")
    if net and (not net["fabric"] or net["time_factor"] > 1.0):
        code = "option.no_fabric" if not net["fabric"] else "option.network_time"
        out.append(
            i18n.message(
                code,
                lang,
                kind=kind_label,
                card=card,
                units=net["units"],
                network=i18n.message(f"unit.network.{net['network']}", lang),
                gbps=net["network_gbps"],
                gb=net["sync_gb_per_step"],
                factor=net["time_factor"],
            )
        )
    cap = first.get("capacity")
    if cap:
        needs = (
            i18n.message(
                "option.needs_block_priced" if cap.get("priced_on_block") else "option.needs_block",
                lang,
                provider=cap["block_provider"],
                usd=cap["block_usd_per_device_hour"],
                terms=cap["lead_time"] or "",
            )
            if cap["needs"] == "capacity_block"
            else i18n.message("option.needs_reservation", lang)
        )
        out.append(
            i18n.message(
                "option.beyond_on_demand",
                lang,
                kind=kind_label,
                count=cap["billed"],
                card=card,
                provider=cap["provider"],
                ceiling=cap["on_demand_ceiling"],
                needs=needs,
            )
        )
    return out


def _basis_notes(
    kind: str, mode: str, first: Mapping[str, Any] | None, regions: Sequence[str], lang: str
) -> list[str]:
    note = unpriced_note(kind, mode, first, lang)
    if note is not None:
        return [note]
    used = None if first is None else first.get("billing_used")
    price = first["prices"].get(used) if first is not None and used else None
    if first is None or price is None:
        return []
    if price.get("in_country"):
        return [
            i18n.message(
                "option.priced_in_country",
                lang,
                kind=i18n.label(kind, lang),
                card=first["name"],
                provider=price["provider"],
                region=price["region"],
                regions=", ".join(
                    i18n.value_label("organization.regions", r, lang)
                    for r in regions
                    if BL.in_country(price["region_key"], (r,))
                ),
            )
        ]
    if price["region_match"] == "nearby" and not first["availability"]["available"]:
        return [
            i18n.message(
                "option.priced_nearby_not_here",
                lang,
                kind=i18n.label(kind, lang),
                card=first["name"],
                region=price["region"],
                provider=price["provider"],
                regions=", ".join(
                    i18n.value_label("organization.regions", r, lang) for r in regions
                ),
            )
        ]
    if price["region_match"] != "elsewhere":
        return []
    return [
        i18n.message(
            "option.priced_elsewhere",
            lang,
            kind=i18n.label(kind, lang),
            card=first["name"],
            region=price["region"] or i18n.message("option.region_not_stated", lang),
            provider=price["provider"],
            regions=", ".join(i18n.value_label("organization.regions", r, lang) for r in regions),
            offered=i18n.message(
                "option.offered_here" if first["availability"]["available"] else "option.not_here",
                lang,
            ),
        )
    ]


def china_note(kind: str, first: Mapping[str, Any] | None, lang: str) -> str | None:
    """What reaching mainland China means for a workload's first option, in words: the Mbps it
    needs against what its server includes and what more costs, or that no price is known (never
    a silent zero); on public cloud, whether the cloud publishes an egress price to China."""
    if first is None:
        return None
    what = i18n.label(kind, lang)
    egress = first.get("china_egress")
    if egress is not None:
        code = "china.egress_china_rate" if egress["china_rate"] else "china.egress_no_china_rate"
        return (
            i18n.message(
                code,
                lang,
                kind=what,
                provider=egress["provider"],
                rate=f"{egress['usd_per_gb']:g}",
                figure=labels.shown("figure", egress["egress_figure"], lang),
            )
            + " "
            + china_path(first, lang)
        ).strip()
    bw = first.get("china_bandwidth")
    if bw is None:
        return None
    return i18n.message(
        f"china.{bw['status']}",
        lang,
        kind=what,
        basis=i18n.message(f"china.basis.{bw['basis']}", lang),
        needed=mbps_text(bw["needed_mbps"]),
        provider=bw["provider"],
        included=mbps_text(bw["included_mbps"]),
        route=labels.shown("china_route", bw["route"], lang) if bw["route"] else "",
        extra=f"{bw['extra_mbps']:,}",
        per_mbps=f"{bw['usd_per_mbps_month']:,.2f}" if bw["usd_per_mbps_month"] else "",
        usd=f"{bw['usd_per_month']:,.0f}" if bw["usd_per_month"] else "",
        as_of=bw["as_of"] or i18n.message("option.undated", lang),
    )


def china_path(first: Mapping[str, Any], lang: str) -> str:
    """A public-cloud option's path to mainland China users, said plainly (issue 22 item 5):
    internet egress with no premium route, the expected round trip from where it runs and the
    loss measured at the evening peak."""
    egress = first["china_egress"]
    path = egress.get("path")
    if path is None:
        return ""
    return i18n.message(
        "china.public_path",
        lang,
        rtt=f"{path['round_trip_ms']:,.0f}",
        region=egress.get("region") or i18n.message("option.region_not_stated", lang),
        loss=f"{path['peak_loss'] * 100:.0f}",
    )


def mbps_text(value: float) -> str:
    """Mbps as a sentence writes them: two decimals below 10, whole above."""
    return f"{value:,.2f}" if value < 10 else f"{value:,.0f}"


def unpriced_note(kind: str, mode: str, first: Mapping[str, Any] | None, lang: str) -> str | None:
    """When a workload's first option is unpriced (so none is): on what basis its options were
    ranked."""
    unpriced = None if first is None else first.get("unpriced")
    if first is None or unpriced is None:
        return None
    return i18n.message(
        "option.unpriced_first",
        lang,
        kind=i18n.label(kind, lang),
        mode=i18n.label(mode, lang),
        why=i18n.message(f"option.unpriced.{unpriced['reason']}", lang),
        count=first["count"],
        card=first["name"],
        memory=f"{unpriced['memory_gb']:,.0f}",
    )


def tco_notes(kind: str, first: Mapping[str, Any] | None, lang: str) -> list[str]:
    """Owned hardware's cost of ownership line by line (issue 22): the purchase over the term,
    electricity, colocation, support and staff; the break-even month against renting the same
    cards; and the purchase against the hardware budget when one is answered."""
    t = None if first is None else first.get("tco")
    if first is None or t is None:
        return []
    kind_label = i18n.label(kind, lang)
    region = i18n.value_label("organization.regions", t["region"], lang)
    text = i18n.message(
        "option.tco",
        lang,
        kind=kind_label,
        count=first["count"],
        card=first["name"],
        servers=t["servers"],
        capex=f"{t['capex_usd']:,.0f}",
        card_usd=f"{t['card_usd']:,.0f}",
        server_usd=f"{t['server_usd']:,.0f}",
        months=t["term_months"],
        term=i18n.message(f"option.tco.term_{t['term_basis']}", lang),
        hardware=f"{t['hardware_usd_per_month']:,.0f}",
        kw=f"{t['kw']:,.2f}",
        pue=f"{t['pue']:g}",
        kwh=f"{t['usd_per_kwh']:.3f}",
        power=f"{t['power_usd_per_month']:,.0f}",
        colo_rate=f"{t['colocation_usd_per_kw_month']:,.0f}",
        colo=f"{t['colocation_usd_per_month']:,.0f}",
        region=region
        if t["regional"]
        else i18n.message("option.tco.stand_in", lang, region=region),
        support=f"{t['support_usd_per_month']:,.0f}",
        staff=f"{first.get('staff_usd_per_month') or 0:,.0f}",
        total=f"{first['monthly_cost_usd']:,.0f}",
    )
    be = t["break_even"]
    where = be.get("region") or "—"
    if be["reason"] == "no_rental":
        text += " " + i18n.message("option.tco.no_rental", lang, card=first["name"])
    elif be["reason"] == "never":
        text += " " + i18n.message(
            "option.tco.never",
            lang,
            rent=f"{be['rental_usd_per_month']:,.0f}",
            provider=be["provider"],
            region=where,
        )
    else:
        text += " " + i18n.message(
            "option.tco.break_even",
            lang,
            rent=f"{be['rental_usd_per_month']:,.0f}",
            provider=be["provider"],
            region=where,
            as_of=be["as_of"] or i18n.message("option.undated", lang),
            month=be["month"],
            after=i18n.message("option.tco.after_term", lang, months=t["term_months"])
            if be["reason"] == "after_term"
            else "",
        )
    out = [text]
    if t["over_capex_budget"] is not None:
        out.append(
            i18n.message(
                "option.tco.over_capex" if t["over_capex_budget"] else "option.tco.within_capex",
                lang,
                kind=kind_label,
                capex=f"{t['capex_usd']:,.0f}",
                budget=f"{t['capex_budget_usd']:,.0f}",
            )
        )
    return out


# --------------------------------------------------------------------------- mode by cost

# Modes the catalog can price (rented); owned modes (private cloud, on premises) are bought and
# priced by their cost of ownership, and a preference for them is never overridden by cost.
_PRICED_MODES = ("public_cloud", "dedicated_hosting", "bare_metal")

Built = dict[tuple[str, ...], Options]


def standing(options: Sequence[Mapping[str, Any]]) -> tuple[int, int, int, float]:
    """How good a mode's first option is: runnable, available, priced (0 = yes), then cost."""
    if not options:
        return (1, 1, 1, math.inf)
    o = options[0]
    cost = (o.get("cost_to_result") or {}).get("usd")
    return (
        0 if o["stack"]["runnable"] else 1,
        0 if o["availability"]["available"] else 1,
        0 if cost is not None else 1,
        cost if cost is not None else math.inf,
    )


def choose_mode(
    catalog: Catalog,
    answers: A.Answers,
    wd: SC.WorkloadDecision,
    sized: Sized,
    ci: BL.CostInputs,
    lang: str,
    built: Built,
    *,
    full_preferred: bool = False,
) -> tuple[str, dict[str, Any] | None]:
    """The deployment mode for one workload: the scores' choice unless another allowed mode's
    best runnable option stands better (runnable, available where the customer is, priced) or
    costs less by more than the catalog's tolerance. Returns the mode and, when cost moved or
    qualified it, a `mode_decision` doc with each mode's cost to the result."""
    acc = wd.accelerator

    def get(mode: str, *, full: bool) -> Options:
        key = (wd.kind, acc, mode)
        if key in built:
            return built[key]
        # Public cloud is priced for nearly every card: build it in full once.
        full = full or mode == "public_cloud"
        part = (wd.kind, acc, mode, "priced")
        if not full:
            if part not in built:
                built[part] = build(
                    catalog,
                    answers,
                    wd.kind,
                    wd.schedule,
                    acc,
                    mode,
                    sized,
                    ci,
                    lang,
                    only_priced=True,
                )
            return built[part]
        built[key] = build(catalog, answers, wd.kind, wd.schedule, acc, mode, sized, ci, lang)
        return built[key]

    # Standing per mode from its priced cards (the best priced runnable option is what a mode
    # costs); the chosen mode is then built in full by the caller.
    preferred = get(wd.mode, full=False)
    if SC.PHASE_OF[wd.kind] == "preprocessing" or (sized.shape is None and answers.work is None):
        return wd.mode, None
    modes = [
        m
        for m in wd.feasible_modes
        if m != wd.mode and m in _PRICED_MODES and (acc == "gpu" or m == "public_cloud")
    ]
    if not modes:
        return wd.mode, None
    base = standing(preferred.options)
    tolerance = float(catalog.rule("mode_cost_tolerance"))
    best_mode, best, best_options = wd.mode, base, preferred.options
    if wd.mode in OW.OWNED_MODES:
        # Owned hardware is where the customer is but has no price: the priced alternative shown
        # next to it is the best runnable priced one, wherever it is offered.
        best = (base[0], 1, base[2], base[3])
    costs: dict[str, float | None] = {wd.mode: None if base[3] == math.inf else base[3]}
    for m in modes:
        alt = get(m, full=False).options
        s = standing(alt)
        costs[m] = None if s[3] == math.inf else s[3]
        better_tier = s[:3] < best[:3]
        same_tier_cheaper = s[:3] == best[:3] and s[3] * (1.0 + tolerance) < best[3]
        if better_tier or same_tier_cheaper:
            best_mode, best, best_options = m, s, alt
    if wd.mode in _PRICED_MODES and best_mode != wd.mode:
        code = "mode.switched_unpriced" if base[1] or base[2] else "mode.switched_cheaper"
        chosen = best_mode
    elif base[2] and best_mode != wd.mode:
        code, chosen = "mode.owned_unpriced", wd.mode  # owned: say so and show the gap
    else:
        return wd.mode, {
            "by_scores": wd.mode,
            "chosen": wd.mode,
            "costs": costs,
            "reason": None,
        }
    # A cost per unit of work (a thousand images) can be a fraction of a cent.
    in_units = answers.work is not None
    gap = (
        None
        if costs[wd.mode] is None or costs[best_mode] is None
        else costs[wd.mode] - costs[best_mode]  # type: ignore[operator]
    )
    if gap is not None and not in_units:
        gap = round(gap, 2)

    def money(value: float) -> str:
        return NL.money_text(value) if in_units else f"{value:,.0f}"

    reason = i18n.message(
        code,
        lang,
        kind=i18n.label(wd.kind, lang),
        preferred=i18n.label(wd.mode, lang),
        alternative=i18n.label(best_mode, lang),
        cost=money(costs[best_mode]) if costs[best_mode] is not None else "—",  # type: ignore[arg-type]
        gap=money(abs(gap)) if gap is not None else "—",
        per=i18n.message(f"per.{best_options[0]['cost_to_result']['per']}", lang)
        if best_options
        else "",
    )
    return chosen, {
        "by_scores": wd.mode,
        "chosen": chosen,
        "alternative": best_mode,
        "costs": costs,
        "gap_usd": gap,
        "reason": reason,
    }


# --------------------------------------------------------------------------- numeric levers


def levers(
    catalog: Catalog,
    answers: A.Answers,
    kind: str,
    first: Mapping[str, Any] | None,
    sized: Sized,
    lang: str,
) -> list[dict[str, Any]]:
    """Numeric answer changes an expert would try on the first option, each kept only when it
    gives a different sizing of it: relax the latency target to what the card reaches, serve in
    FP8, enable checkpointing, lower the micro-batch, add a deadline."""
    if first is None or sized.shape is None:
        return []
    acc = catalog.by_id[first["accelerator_id"]]
    out: list[tuple[str, Any, Any, int]] = []
    inf, t = answers.inference, answers.training
    # A lever re-plans on the first option's own offer: tensor parallelism within its unit.
    used = first.get("billing_used")
    sold = (first["prices"].get(used) or {}).get("sold_unit") if used else None
    max_tp = int(sold["gpus"]) if sold else None
    spare = first.get("redundancy") or {}

    def with_spare(plan: S.ServingPlan) -> int:
        # A real-time service's spare server (N+1) is kept under any lever.
        unit = int(spare.get("unit_gpus") or 0) if spare.get("planned") else 0
        return plan.tp * plan.replicas + (max(1, unit // plan.tp) * plan.tp if unit else 0)

    if SC.PHASE_OF[kind] == "inference" and inf is not None and sized.imem is not None:
        demand = SV.serving_demand(
            catalog, kind, inf, answers.cost.hours_per_day, sized.imem.weight_bytes
        )
        if not first["meets_latency"] and inf.p95_latency_ms is not None:
            relaxed = float(math.ceil(first["best_latency_at_metric_ms"] / 10.0) * 10)
            plan = S.serving_plan(
                sized.shape,
                dataclasses.replace(inf, p95_latency_ms=relaxed),
                sized.imem,
                acc,
                catalog,
                demand,
                serving=answers.frameworks.serving,
                offline=kind == "batch_inference",
                max_tp=max_tp,
            )
            if plan is not None and plan.meets:
                out.append(
                    (
                        "inference.p95_latency_ms",
                        inf.p95_latency_ms,
                        relaxed,
                        with_spare(plan),
                    )
                )
        if inf.precision in ("bf16", "fp16") and acc.fp8_dense_tflops:
            fp8 = dataclasses.replace(inf, precision="fp8")
            serving = answers.frameworks.serving
            shape = sized.shape

            def fp8_plan() -> S.ServingPlan | None:
                mem = S.inference_memory(shape, fp8, catalog, serving)
                return S.serving_plan(
                    shape,
                    fp8,
                    mem,
                    acc,
                    catalog,
                    demand,
                    serving=serving,
                    offline=offline,
                    max_tp=max_tp,
                )

            offline = kind == "batch_inference"
            plan = catalog.memo(
                ("fp8_plan", acc.id, shape, fp8, serving, demand, offline, max_tp), fp8_plan
            )
            if plan is not None and with_spare(plan) < first["count"]:
                out.append(("inference.precision", inf.precision, "fp8", with_spare(plan)))
    if SC.PHASE_OF[kind] == "training" and t is not None and sized.tmem is not None:
        trials: list[tuple[str, Any, Any]] = []
        if not t.gradient_checkpointing:
            trials.append(("training.gradient_checkpointing", False, True))
        if t.micro_batch_size > 1:
            trials.append(("training.micro_batch_size", t.micro_batch_size, 1))
        field = {
            "training.gradient_checkpointing": "gradient_checkpointing",
            "training.micro_batch_size": "micro_batch_size",
        }
        for path, old, new in trials:
            trial = dataclasses.replace(t, **{field[path]: new})
            shape = sized.shape
            n = catalog.memo(
                ("lever_min_devices", acc.id, shape, trial),
                partial(_lever_min_devices, catalog, acc, shape, trial),
            )
            if n is not None and n < first["min_count"] and first["count"] == first["min_count"]:
                out.append((path, old, new, n))
        if t.deadline_hours is None and first["hours"] > 24:
            # Half the compute; each run's fixed overhead (in its hours) does not halve. The
            # deadline leaves the catalog's safety share, so that the plan it buys meets it with
            # room to spare (a thinner one ranks after every comfortable option).
            overhead = float((first.get("run_overhead") or {}).get("hours", 0.0))
            safety = float(catalog.rule("target_safety_share"))
            half = (first["hours"] - overhead) / 2.0 + overhead
            deadline = float(math.ceil(half / (1.0 - safety)))
            counts = [c for c in S.valid_counts(acc) if c >= 2 * first["count"]]
            if counts and counts[0] <= acc.max_devices_per_group:
                out.append(("training.deadline_hours", None, deadline, counts[0]))
    smaller = _smaller_hardware_lever(catalog, answers, kind, first, sized, lang)
    return [
        *(
            {
                "kind": "lever",
                "workload": kind,
                "changes": [{"answer_path": path, "from": old, "to": new}],
                "option": {"accelerator_id": acc.id, "count": count},
                "explanation": i18n.message(
                    "lever.line",
                    lang,
                    field=i18n.field_label(path, lang),
                    value=i18n.value_label(path, new, lang)
                    if not isinstance(new, float)
                    else f"{new:,.0f}",
                    current=i18n.value_label(path, old, lang)
                    if not isinstance(old, float)
                    else f"{old:,.0f}",
                    kind=i18n.label(kind, lang),
                    count=count,
                    card=acc.name,
                    old_count=first["count"],
                ),
            }
            for path, old, new, count in out
        ),
        *([smaller] if smaller else []),
    ]


def _smaller_hardware_lever(
    catalog: Catalog,
    answers: A.Answers,
    kind: str,
    first: Mapping[str, Any],
    sized: Sized,
    lang: str,
) -> dict[str, Any] | None:
    """Owned serving hardware ranked by size that a latency target pushes up: the least relaxed
    target that would let less hardware (nominal memory x count) serve the same load, and on
    what. Only for an unpriced first option on the customer's own hardware that meets its
    target."""
    inf = answers.inference
    unpriced = first.get("unpriced")
    if (
        SC.PHASE_OF[kind] != "inference"
        or inf is None
        or inf.p95_latency_ms is None
        or sized.imem is None
        or sized.shape is None
        or unpriced is None
        or not first["availability"].get("owned")
        or not first["meets_latency"]
    ):
        return None
    shape, imem = sized.shape, sized.imem
    demand = SV.serving_demand(catalog, kind, inf, answers.cost.hours_per_day, imem.weight_bytes)
    fw = answers.frameworks
    loose = dataclasses.replace(inf, p95_latency_ms=None)
    best: tuple[float, float, int, Accelerator] | None = None
    for acc in catalog.accelerators:
        if acc.type != first["type"] or acc.id == first["accelerator_id"]:
            continue
        if not ST.stack_fit(
            catalog,
            acc,
            "inference",
            fw.primary,
            fw.serving,
            fw.custom_kernels,
            inf.precision,
            fw.kernel_architectures,
        ).runnable:
            continue
        plan = catalog.memo(
            (
                "serving_plan_loose",
                acc.id,
                shape,
                loose,
                imem.weight_bytes,
                demand,
                fw.serving,
                kind,
            ),
            partial(
                S.serving_plan,
                shape,
                loose,
                imem,
                acc,
                catalog,
                demand,
                serving=fw.serving,
                offline=kind == "batch_inference",
            ),
        )
        if plan is None:
            continue
        # With the spare replica (N+1) the first option keeps, so the two compare like for like.
        spare = plan.tp if (first.get("redundancy") or {}).get("planned") else 0
        count = plan.tp * plan.replicas + spare
        memory = acc.memory_gb * count
        if memory >= unpriced["memory_gb"]:
            continue
        # The target this plan reaches, rounded up to 100 ms; it must hold at that target too.
        target = float(math.ceil(plan.metric_ms / 100.0) * 100)
        if target <= inf.p95_latency_ms:
            continue
        # The least relaxation first, then the least hardware.
        key = (target, memory)
        if best is None or key < best[:2]:
            best = (*key, count, acc)
    if best is None:
        return None
    target, memory, count, acc = best
    path = "inference.p95_latency_ms"
    return {
        "kind": "lever",
        "workload": kind,
        "changes": [{"answer_path": path, "from": inf.p95_latency_ms, "to": target}],
        "option": {"accelerator_id": acc.id, "count": count},
        "explanation": i18n.message(
            "lever.smaller_hardware",
            lang,
            field=i18n.field_label(path, lang),
            value=f"{target:,.0f}",
            current=f"{inf.p95_latency_ms:,.0f}",
            kind=i18n.label(kind, lang),
            count=count,
            card=acc.name,
            memory=f"{memory:,.0f}",
            old_count=first["count"],
            old_card=first["name"],
            old_memory=f"{unpriced['memory_gb']:,.0f}",
        ),
    }


def _lever_min_devices(
    catalog: Catalog, acc: Accelerator, shape: S.ModelShape, trial: A.Training
) -> int | None:
    return S.min_training_devices(S.training_memory(shape, trial, catalog), acc, catalog)
