"""A workload's options: every card of a family in a deployment mode, checked against the team's
stack (catalog compatibility) and where the customer is (catalog availability), sized, priced and
ranked by the cost to the result. Options that cannot run the stack, or that data residency
forbids, are listed as excluded with their reason.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from advisor.engine import sizing
from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Accelerator, Catalog, stack
from advisor.engine.planning import nonllm, training_cost
from advisor.engine.planning.availability import availability, unknown_place
from advisor.engine.planning.house import house_beside_first
from advisor.engine.planning.priced_option import IN_REGION, priced_option, priced_pairs
from advisor.engine.pricing import billing, china, owned, units
from advisor.engine.ranking import scoring, tiers
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

    shape: sizing.ModelShape | None
    tmem: sizing.TrainingMemory | None
    tflops: sizing.TrainingFlops | None
    imem: sizing.InferenceMemory | None


@dataclass(frozen=True, slots=True)
class Options:
    options: list[dict[str, Any]]
    excluded: list[dict[str, Any]]
    # Options another one beats or equals on every axis (cost, time, region, firm price,
    # devices, same billing): left out of `options`, each whole with `dominated_by`, the id of
    # the option that beats it.
    dominated: list[dict[str, Any]] = dataclasses.field(default_factory=list)


def _region_less(catalog: Catalog, option: Mapping[str, Any], acc_id: str) -> bool:
    row = china.billed_row(catalog, option, acc_id)
    return row is not None and row.region_key is None


def _stack_doc(catalog: Catalog, fit: stack.StackFit, lang: str) -> dict[str, Any]:
    # Memoised and shared between options: read-only by contract.
    return catalog.memo(("stack_doc", fit, lang), lambda: _new_stack_doc(fit, lang))


def _new_stack_doc(fit: stack.StackFit, lang: str) -> dict[str, Any]:
    return {
        "status": fit.status,
        "runnable": fit.runnable,
        "checks": [{"item": item, "status": status} for item, status in fit.checks],
        "porting": [_coded("porting", code, lang) for code in fit.porting],
        "source": fit.source,
        "as_of": fit.as_of,
    }


def _coded(prefix: str, code: str, lang: str) -> str:
    name, params = stack.detail(code)
    if "stack" in params:
        params["stack"] = i18n.label(params["stack"], lang)
    return i18n.message(f"{prefix}.{name}", lang, **params)


def _blocking(fit: stack.StackFit, lang: str) -> str:
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


def _precision(answers: vocabulary.Answers, phase: str) -> str | None:
    """The numeric format a phase runs in (training or inference precision answered)."""
    if phase == "training":
        return answers.training.precision if answers.training else None
    return answers.inference.precision if answers.inference else None


# Marks the cost inputs of a re-plan (in their `sized` memo): options built with them are
# shared between the re-plans of one evaluation, read-only.
REPLAN = ("replan",)


def planning_key(answers: vocabulary.Answers) -> tuple[Any, ...]:
    """The answers that sizing, the cost inputs and the options read: all of them but the ones
    only the scores read (the allowed modes, which the decision's feasible modes carry in, the
    portability and the industry), and of the data residency only whether it keeps the data in
    the team's regions (planning reads nothing else of it: on premises only is the scores'
    concern). The answers only the field registry declares are in, whatever reads them.
    Answers with equal keys plan alike, so the re-plans of one evaluation (flips, relaxations,
    quotes) share their sizing, cost inputs and options."""
    dep = answers.deployment
    return (
        answers.schema_version,
        answers.organization.regions,
        answers.organization.extra,
        answers.workloads,
        answers.maturity,
        answers.frameworks,
        dep.clouds,
        dep.china_connectivity,
        dep.data_residency == IN_REGION,
        dep.extra,
        answers.cost,
        answers.model,
        answers.training,
        answers.inference,
        answers.work,
    )


def build(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    schedule: str,
    acc_type: str,
    mode: str,
    sized: Sized,
    ci: billing.CostInputs,
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


def signable(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    schedule: str,
    acc_type: str,
    mode: str,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
) -> list[dict[str, Any]]:
    """The options `build` gives that run the team's stack as it is and have a price, in rank
    order, each as `build` makes it but for its `rank` and the operator's servers listed beside
    the first. They rank among themselves as they do among all the cards: an option that runs
    the stack ranks before any that does not (ranking.tiers: runnable, then priced, first), and
    only a runnable, priced option dominates one. So only the cards that run the stack are
    planned and ranked, and in a rented mode only those with a price row there (no other card
    has a price in it); a build the re-plan already holds serves as it is."""
    rented = mode not in owned.OWNED_MODES
    if ci.sized.get(REPLAN):
        key = planning_key(answers)
        for only_priced in (False, True) if rented else (False,):
            found = ci.sized.get(_build_key(key, kind, schedule, acc_type, mode, lang, only_priced))
            if found is not None and found[0] is sized:
                return [o for o in found[1].options if signs(o)]
    cards = _card_options(
        catalog,
        answers,
        kind,
        schedule,
        acc_type,
        mode,
        sized,
        ci,
        lang,
        rented,
        [],
        runnable_only=True,
    )
    ranked, _dominated = _ranked(cards, catalog, kind, mode)
    return [o for o in ranked if _priced(o)]


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
    ci: billing.CostInputs,
    sized: Sized,
    answers: vocabulary.Answers,
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
    answers: vocabulary.Answers,
    kind: str,
    schedule: str,
    acc_type: str,
    mode: str,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
    *,
    only_priced: bool = False,
) -> Options:
    excluded: list[dict[str, Any]] = []
    out, dropped = _ranked(
        _card_options(
            catalog, answers, kind, schedule, acc_type, mode, sized, ci, lang, only_priced, excluded
        ),
        catalog,
        kind,
        mode,
    )
    house_beside_first(out, lang)
    return Options(
        out,
        excluded,
        [{k: v for k, v in o.items() if k != "_index"} for o in dropped],
    )


def holds_plan(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    schedule: str,
    acc_type: str,
    mode: str,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
    *,
    only_priced: bool = False,
) -> tuple[bool, bool]:
    """What `build` would say of the options through has_plan, and whether one of them runs the
    team's stack as it is, card by card until both are known (no ranking: which options another
    dominates changes neither, as only a runnable, priced option dominates a runnable one).
    `only_priced`: of the cards with a price row in the mode only, which in a rented mode
    (where no other card has a price) still settles has_plan."""
    runnable = False
    cards = _card_options(
        catalog,
        answers,
        kind,
        schedule,
        acc_type,
        mode,
        sized,
        ci,
        lang,
        only_priced,
        [],
        runnable_only=True,
    )
    for o in cards:  # each runs the stack (runnable_only)
        runnable = True
        if _priced(o):
            return True, True
    return False, runnable


def _card_options(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    schedule: str,
    acc_type: str,
    mode: str,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
    only_priced: bool,
    excluded: list[dict[str, Any]],
    *,
    runnable_only: bool = False,
) -> Iterator[dict[str, Any]]:
    """The options of `build`, unranked and each with `_index` (its catalog order), one card at
    a time; the cards left out are added to `excluded` with their reason. `runnable_only`: only
    the cards that run the team's stack as it is (holds_plan)."""
    phase = scoring.PHASE_OF[kind]
    fw = answers.frameworks
    residency = answers.deployment.data_residency
    regions = answers.organization.regions
    # Inference counted in its own unit is sized from the catalog's per-card
    # throughput, not from a model shape.
    work = answers.work if phase == "inference" else None
    if (sized.shape is None and work is None) or phase == "preprocessing":
        return
    priced = priced_pairs(catalog) if only_priced else None
    for index, acc in enumerate(catalog.accelerators):
        if acc.type != acc_type or (priced is not None and (acc.id, mode) not in priced):
            continue
        fit = ci.sized.get(("fit", acc.id, phase))
        if fit is None:
            fit = ci.sized[("fit", acc.id, phase)] = stack.stack_fit(
                catalog,
                acc,
                phase,
                fw.primary,
                fw.serving,
                fw.custom_kernels,
                _precision(answers, phase),
                fw.kernel_architectures,
            )
        if runnable_only and not fit.runnable:
            continue
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
                return nonllm.option(
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
            return priced_option(catalog, answers, kind, schedule, acc, mode, phase, sized, ci, rtt)

        def planned(
            rtt: float | None,
            acc: Accelerator = acc,
            plan: Callable[[float | None], dict[str, Any] | None] = plan,
        ) -> dict[str, Any] | None:
            if ci.china and kind == "realtime_inference":
                # A team serving mainland China meets its latency target for
                # a mainland user, across the border on the option's own path.
                return china.with_reach(catalog, acc.id, mode, regions, rtt, plan)
            return plan(rtt)

        option = planned(rtt)
        if (
            option is not None
            and regions
            and mode not in owned.OWNED_MODES
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
                    "reason": nonllm.unsized_reason(catalog, work, acc, lang),
                }
            )
            continue
        if option is None:
            n_min = None
            if phase == "training" and sized.tmem is not None:
                # The same in every mode: once per card in the evaluation.
                n_min = ci.sized.get(("min_training_devices", acc.id), False)
                if n_min is False:
                    n_min = ci.sized[("min_training_devices", acc.id)] = (
                        sizing.min_training_devices(sized.tmem, acc, catalog)
                    )
            if training_cost.beyond_one_pcie_node(acc, n_min, catalog):
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
        stack_doc = ci.sized.get(("stack_doc", acc.id, phase, lang))
        if stack_doc is None:
            stack_doc = ci.sized[("stack_doc", acc.id, phase, lang)] = _stack_doc(
                catalog, fit, lang
            )
        option["stack"] = stack_doc
        option["availability"] = avail
        unit = units.unit_doc(option, acc, mode)
        if unit is not None:
            option["unit"] = unit
            if unit["kind"] == "vendor_build":
                option["billed_count"] = unit["billed"]  # bought as the vendor builds it
        option["_index"] = index
        yield option


def _priced(option: Mapping[str, Any]) -> bool:
    return (option.get("cost_to_result") or {}).get("usd") is not None


def signs(option: Mapping[str, Any]) -> bool:
    """The option runs the team's stack as it is and has a price: a plan the team can sign."""
    return bool(option["stack"]["runnable"]) and _priced(option)


def has_plan(options: Sequence[Mapping[str, Any]]) -> bool:
    """Some option is a plan the team can sign (`signs`)."""
    return any(signs(o) for o in options)


def _ranked(
    cards: Iterable[dict[str, Any]], catalog: Catalog, kind: str, mode: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The cards' options ranked (ranking.tiers) and numbered from 1, their catalog order
    (`_index`) dropped; and the dominated ones, which keep it."""
    ranked, dropped = tiers.rank(list(cards), catalog, kind=kind, mode=mode)
    for rank, o in enumerate(ranked, 1):
        del o["_index"]
        o["rank"] = rank
    return ranked, dropped
