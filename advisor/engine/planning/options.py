"""A workload's options: every card of a family in a deployment mode, checked against the team's
stack (catalog compatibility) and where the customer is (catalog availability), sized, priced and
ranked by the cost to the result. Options that cannot run the stack, or that data residency
forbids, are listed as excluded with their reason.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from advisor.engine import sizing as S
from advisor.engine.answers import vocabulary as A
from advisor.engine.catalog import Accelerator, Catalog
from advisor.engine.catalog import stack as ST
from advisor.engine.planning import nonllm as NL
from advisor.engine.planning import serving_cost as SV
from advisor.engine.planning import training_cost as TR
from advisor.engine.pricing import billing as BL
from advisor.engine.pricing import china as CN
from advisor.engine.pricing import owned as OW
from advisor.engine.pricing import units as UN
from advisor.engine.ranking import scoring as SC
from advisor.engine.ranking import tiers as RK
from advisor.engine.text import clouds as CL
from advisor.engine.text import i18n

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
    catalog: Catalog,
    acc: Accelerator,
    mode: str,
    regions: Sequence[str],
    clouds: Sequence[str] = (),
) -> dict[str, Any]:
    """Whether the card is offered where the customer is (memoised on the catalog).

    Public cloud: the catalog's availability table per region (a price-list row is not
    availability); a region missing from the table falls back to a price row located there.
    When the team names its `clouds`, only what those clouds offer counts (AWS offering a card
    in Tokyo does not make it available to a team that rents only from Azure), as only their
    prices price it. Hosted modes: an offer located in one of the customer's regions. Owned
    modes (private cloud, on premises): the customer's own hardware, available where the
    customer is (`owned`).
    """
    key = ("availability", acc.id, mode, tuple(regions), tuple(clouds))
    return catalog.memo(
        key, lambda: _availability(catalog, acc, mode, tuple(regions), tuple(clouds))
    )


def _offered_in(
    catalog: Catalog, acc: Accelerator, mode: str, clouds: Sequence[str]
) -> tuple[set[str], str | None]:
    table = catalog.availability.get("regions", {})
    named = mode == "public_cloud" and bool(clouds)
    priced = {
        p.region_key
        for p in catalog.prices_by_accelerator.get(acc.id, ())
        if mode in p.modes and p.region_key and (not named or p.cloud in clouds)
    }
    if mode != "public_cloud":
        return priced, None
    if named:
        offered = {
            r
            for r, v in table.items()
            for e in v.get("by_provider") or ()
            if acc.id in (e.get("cards") or ()) and CL.of_provider(str(e["provider"])) in clouds
        }
    else:
        offered = {r for r, v in table.items() if acc.id in v.get("public_cloud", ())}
    offered |= {r for r in priced if r not in table}
    return offered, catalog.availability.get("source")


def _availability(
    catalog: Catalog,
    acc: Accelerator,
    mode: str,
    regions: tuple[str, ...],
    clouds: tuple[str, ...],
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
    offered, source = _offered_in(catalog, acc, mode, clouds)
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


def unknown_place(catalog: Catalog, regions: Sequence[str]) -> dict[str, Any]:
    """The availability of an option billed on a row that names no region, for a customer who
    names theirs: not where the customer is (nobody can check it is), and as far as the farthest
    region the round-trip table measures from the customer's nearest region (a row "global (not
    stated)" may run anywhere its provider does). None when no region of theirs is measured."""

    def build() -> dict[str, Any]:
        pairs = catalog.round_trip.get("pairs", {})
        farthest = [
            max(float(v) for k, v in pairs.items() if r in k.split("|"))
            for r in regions
            if any(r in k.split("|") for k in pairs)
        ]
        return {
            "available": False,
            "regions": [],
            "nearest_region": None,
            "round_trip_ms": min(farthest) if farthest else None,
            "source": catalog.round_trip.get("source"),
            "as_of": catalog.round_trip.get("as_of"),
            "location_unknown": True,
        }

    return catalog.memo(("unknown_place", tuple(regions)), build)


def _region_less(catalog: Catalog, option: Mapping[str, Any], acc_id: str) -> bool:
    row = CN.billed_row(catalog, option, acc_id)
    return row is not None and row.region_key is None


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
    if "stack" in params:
        params["stack"] = i18n.label(params["stack"], lang)
    return i18n.message(f"{prefix}.{name}", lang, **params)


def _blocking(fit: ST.StackFit, lang: str) -> str:
    if fit.blocking:
        # The card's own data decides (no bf16, no fp8 units, kernels built for newer cards).
        return i18n.message("list.clause_separator", lang).join(
            _coded("card_cannot", code, lang) for code in fit.blocking
        )
    items = [item for item, status in fit.checks if status == "unsupported"]
    return i18n.message(
        "option.unsupported_stack",
        lang,
        items=i18n.list_separator(lang).join(
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


# Marks the cost inputs of a re-plan (in their `sized` memo): options built with them are
# shared between the re-plans of one evaluation, read-only.
REPLAN = ("replan",)
# The one data residency planning tells apart from the others (billing, serving and the options
# read it as "is it this"; planning_key and the option memo key on that alone).
IN_REGION = "in_region"


def planning_key(answers: A.Answers) -> tuple[Any, ...]:
    """The answers that sizing, the cost inputs and the options read: all of them but the ones
    only the scores read (the allowed modes, which the decision's feasible modes carry in, the
    portability and the industry), and of the data residency only whether it keeps the data in
    the team's regions (planning reads nothing else of it: on premises only is the scores'
    concern). Answers with equal keys plan alike, so the re-plans of one evaluation (flips,
    relaxations, quotes) share their sizing, cost inputs and options."""
    dep = answers.deployment
    return (
        answers.schema_version,
        answers.organization.regions,
        answers.workloads,
        answers.maturity,
        answers.frameworks,
        dep.clouds,
        dep.china_connectivity,
        dep.data_residency == IN_REGION,
        answers.cost,
        answers.model,
        answers.training,
        answers.inference,
        answers.work,
    )


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
    (`only_priced`: just the cards with a price in that mode, enough to weigh the mode).

    Re-plans (cost inputs marked `REPLAN`: the flips and relaxations of one evaluation, which
    only read their options) build each workload, family and mode once per planning key."""
    if not ci.sized.get(REPLAN):
        return _build(
            catalog,
            answers,
            kind,
            schedule,
            acc_type,
            mode,
            sized,
            ci,
            lang,
            only_priced=only_priced,
        )
    key = _build_key(planning_key(answers), kind, schedule, acc_type, mode, lang, only_priced)
    found = ci.sized.get(key)
    if found is None or found[0] is not sized:
        found = ci.sized[key] = (
            sized,
            _build(
                catalog,
                answers,
                kind,
                schedule,
                acc_type,
                mode,
                sized,
                ci,
                lang,
                only_priced=only_priced,
            ),
        )
    built: Options = found[1]
    return built


def _build_key(
    key: tuple[Any, ...],
    kind: str,
    schedule: str,
    acc_type: str,
    mode: str,
    lang: str,
    only_priced: bool,
) -> tuple[Any, ...]:
    return ("build", key, kind, schedule, acc_type, mode, lang, only_priced)


def seed_replan(
    ci: BL.CostInputs,
    sized: Sized,
    answers: A.Answers,
    schedules: Mapping[str, str],
    built: Mapping[tuple[str, ...], Options],
    lang: str,
) -> None:
    """Hand a re-plan (`ci`, marked REPLAN, and its `sized`) the options the main plan already
    built for the same planning key (`built`, keyed as mode_choice.Built: kind, family, mode
    and "priced" for a build of the priced cards only), so that it does not build them again.
    Only for a main plan whose cost inputs equal the re-plan's (no measured runs). The
    re-plans read the options and never change them; the main plan adds only the house
    offers beside its first option, which no re-plan reads."""
    key = planning_key(answers)
    for (kind, acc_type, mode, *part), options in built.items():
        only_priced = part == ["priced"]
        ci.sized[_build_key(key, kind, schedules[kind], acc_type, mode, lang, only_priced)] = (
            sized,
            options,
        )


def _build(
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
    phase = SC.PHASE_OF[kind]
    out: list[dict[str, Any]] = []
    excluded: list[dict[str, Any]] = []
    fw = answers.frameworks
    residency = answers.deployment.data_residency
    regions = answers.organization.regions
    # Inference counted in its own unit is sized from the catalog's per-card
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
                catalog, acc, mode, regions, ci.clouds
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
                        regions=i18n.list_separator(lang).join(
                            i18n.value_label("organization.regions", r, lang) for r in regions
                        ),
                    ),
                    "availability": dict(avail),
                }
            )
            continue
        rtt = None if avail["available"] else avail["round_trip_ms"]

        def plan(rtt: float | None, acc: Accelerator = acc) -> dict[str, Any] | None:
            if work is not None:
                return NL.option(
                    catalog,
                    work,
                    kind,
                    acc,
                    mode,
                    answers.cost.hours_per_day,
                    ci,
                    rtt,
                    answers.frameworks,
                    separate_preprocessing="preprocessing" in answers.kinds,
                )
            return _priced_option(
                catalog, answers, kind, schedule, acc, mode, phase, sized, ci, rtt
            )

        def planned(
            rtt: float | None,
            acc: Accelerator = acc,
            plan: Callable[[float | None], dict[str, Any] | None] = plan,
        ) -> dict[str, Any] | None:
            if ci.china and kind == "realtime_inference":
                # A team serving mainland China meets its latency target for
                # a mainland user, across the border on the option's own path.
                return CN.with_reach(catalog, acc.id, mode, regions, rtt, plan)
            return plan(rtt)

        option = planned(rtt)
        if (
            option is not None
            and regions
            and mode not in OW.OWNED_MODES
            and _region_less(catalog, option, acc.id)
        ):
            # A row that names no region is not where the customer is, whatever the table says
            # of the card: the option is away, and serving counts the round trip of an unknown
            # place (planned again with it, kept while a region-less row still bills it).
            away = unknown_place(catalog, regions)
            again = (
                planned(away["round_trip_ms"])
                if kind == "realtime_inference" and away["round_trip_ms"] != rtt
                else option
            )
            if again is not None and _region_less(catalog, again, acc.id):
                option, avail = again, away
        if work is not None and option is None:
            excluded.append(
                {
                    "accelerator_id": acc.id,
                    "name": acc.name,
                    "code": "no_unit_throughput",
                    "reason": NL.unsized_reason(catalog, work, acc, lang),
                }
            )
            continue
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
        unit = UN.unit_doc(option, acc, mode)
        if unit is not None:
            option["unit"] = unit
            if unit["kind"] == "vendor_build":
                option["billed_count"] = unit["billed"]  # bought as the vendor builds it
        option["_index"] = index
        out.append(option)
    out, dropped = RK.rank(out, catalog, kind=kind, mode=mode)
    for rank, o in enumerate(out, 1):
        del o["_index"]
        o["rank"] = rank
    house_beside_first(out, lang)
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
            ci.residency == IN_REGION,
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


def billed_price(option: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The price the option is billed at (None when it has none)."""
    used = option.get("billing_used")
    price: Mapping[str, Any] | None = (option.get("prices") or {}).get(used) if used else None
    return price


def has_plan(options: Sequence[Mapping[str, Any]]) -> bool:
    """Some option runs the team's stack as it is and has a price: a plan it can sign."""
    return any(
        o["stack"]["runnable"] and (o.get("cost_to_result") or {}).get("usd") is not None
        for o in options
    )


def _priced_pairs(catalog: Catalog) -> frozenset[tuple[str, str]]:
    """(accelerator, mode) pairs that have at least one price in the catalog."""
    return catalog.memo(
        "priced_pairs",
        lambda: frozenset(
            (p.accelerator_id, m)
            for p in catalog.prices
            if not p.on_request or p.indicative
            for m in p.modes
        ),
    )


def house_beside_first(options: Sequence[dict[str, Any]], lang: str = "en") -> None:
    """The operator's own servers sold on request that fit this workload (an
    option runnable with the team's stack, the server in the customer's region) are listed on the
    first priced option as `house_on_request`, with their sizing, so that the report shows
    "our server for this workload: ask for a price" beside it. They stay unpriced and are never
    ranked as if priced; the key is absent when there is none (results keep their bytes)."""
    if not options:
        return
    found = house_offers(options, lang=lang)
    if not found:
        return
    first = beside_first(options)
    # The server that prices the option itself is its plan, not a server beside it.
    own = billed_price(first)
    found = [f for f in found if not own or f["price_id"] != own["price_id"]]
    if found:
        first["house_on_request"] = found


def beside_first(options: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The option the operator's servers are shown beside: the first priced one, else the first."""
    return next((o for o in options if o["cost_to_result"]["usd"] is not None), options[0])


def house_offers(
    options: Sequence[Mapping[str, Any]], near: Sequence[str] = (), *, lang: str = "en"
) -> list[dict[str, Any]]:
    """The operator's servers sold on request among a mode's options, each sized for the card's
    option: runnable with the team's stack, the server in the customer's region or in one of
    the `near` regions (neighbours), once each."""
    found: list[dict[str, Any]] = []
    seen: set[str] = set()
    for o in options:
        if not o["stack"]["runnable"]:
            continue
        for offer in o.get("on_request") or []:
            if not offer.get("house") or offer["price_id"] in seen:
                continue
            # Only a server where the customer is or next door (the list beside an option
            # names the rest).
            here = offer.get("region_match") == "exact" and o["availability"]["available"]
            if not (here or offer.get("region_key") in near):
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
                    # How the server is sold, in words, wherever it is shown.
                    "deployment": i18n.deployment_words(offer.get("modes") or (), lang),
                }
            )
    return found
