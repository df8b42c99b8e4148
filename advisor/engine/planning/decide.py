"""What evaluate and rescore share: the model's shape, the scoring context, the sizing, the cost
inputs and the decision weighed by cost (a workload's mode moves to its cheaper runnable one).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import date
from typing import Any

from advisor.engine import sizing
from advisor.engine.answers import parse, vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.planning import mode_choice
from advisor.engine.planning.options import Sized, has_plan, holds_plan
from advisor.engine.planning.options import build as build_options
from advisor.engine.pricing import billing, costing, owned
from advisor.engine.ranking.scoring import (
    ACCELERATORS,
    OPTIONS,
    Context,
    Decision,
    ScoringModel,
    WorkloadDecision,
    confidence,
)
from advisor.engine.sizing.measured import Measurement
from advisor.engine.text import i18n


def answers_shape(answers: vocabulary.Answers, catalog: Catalog) -> sizing.ModelShape | None:
    model = answers.model
    if model is None:
        return None
    if model.architecture is not None:
        return sizing.shape_from_architecture(model.architecture)
    preset = catalog.presets.get(model.preset or "")
    return sizing.shape_from_preset(preset) if preset else None


def scoring_context(
    answers: vocabulary.Answers, catalog: Catalog, shape: sizing.ModelShape | None
) -> Context:
    flops = None
    if shape is not None and answers.training is not None:
        flops = sizing.training_flops(shape, answers.training).total
    return Context(
        region_tpus={k: tuple(v.get("tpus", ())) for k, v in catalog.regions.items()},
        training_flops=flops,
    )


def coerce(answers: vocabulary.Answers | Mapping[str, Any]) -> vocabulary.Answers:
    return answers if isinstance(answers, vocabulary.Answers) else parse.parse_answers(answers)


def size_workloads(
    answers: vocabulary.Answers, catalog: Catalog, shape: sizing.ModelShape | None
) -> Sized:
    tmem = tflops = imem = None
    kinds = set(answers.kinds)
    if shape is not None and answers.training is not None and kinds & vocabulary.TRAINING_KINDS:
        tmem = sizing.training_memory(shape, answers.training, catalog)
        tflops = sizing.training_flops(shape, answers.training)
    if shape is not None and answers.inference is not None:
        imem = sizing.inference_memory(
            shape, answers.inference, catalog, answers.frameworks.serving
        )
    return Sized(shape, tmem, tflops, imem)


def cost_aware(
    answers: vocabulary.Answers,
    catalog: Catalog,
    d: Decision,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
    *,
    lean: bool = False,
) -> tuple[Decision, mode_choice.Built, dict[str, dict[str, Any] | None]]:
    """The scores' decision with each workload's mode weighed by the cost of its best runnable
    option (mode_choice.choose_mode); the overall mode follows the workloads. `lean`: for a
    caller that reads no workload's options but its first (leading_option): `built` may hold
    only the priced cards' builds that settle the plan (plan_workload)."""
    built: mode_choice.Built = {}
    docs: dict[str, dict[str, Any] | None] = {}
    workloads = []
    for scored in d.workloads:
        wd, doc = plan_workload(answers, catalog, scored, sized, ci, lang, built, lean=lean)
        docs[wd.kind] = doc
        workloads.append(wd)
    moved = [w.mode for w, old in zip(workloads, d.workloads, strict=True) if w.mode != old.mode]
    overall = d.mode
    families = [w.accelerator for w in workloads if w.kind != "preprocessing"]
    if families and d.accelerator not in families:
        # Every workload left the scores' family for one it can be planned on.
        d = dataclasses.replace(d, accelerator=max(dict.fromkeys(families), key=families.count))
    if moved and all(w.mode != d.mode for w in workloads if w.accelerator == d.accelerator):
        # Every workload left the scores' overall mode: the overall mode is the most common one.
        counts = [w.mode for w in workloads if w.accelerator == d.accelerator] or moved
        overall = max(dict.fromkeys(counts), key=counts.count)
    return dataclasses.replace(d, mode=overall, workloads=tuple(workloads)), built, docs


def plan_workload(
    answers: vocabulary.Answers,
    catalog: Catalog,
    wd: WorkloadDecision,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
    built: mode_choice.Built,
    *,
    lean: bool = False,
) -> tuple[WorkloadDecision, dict[str, Any] | None]:
    """One workload of cost_aware: its family and mode weighed by cost, its options built into
    `built` (keyed by its kind, so the workloads of one plan are independent of each other).
    It reads of the workload's decision only its kind, schedule, family, mode and the feasible
    families and modes (WORKLOAD_PLAN_FIELDS). `lean`: the modes are weighed as
    choose_mode(lean=True) weighs them, and whether a mode holds a plan is settled as
    _verdict settles it, so the chosen mode is built in full only where that needs it."""
    mode, doc = _planned(catalog, answers, wd, sized, ci, lang, built, lean=lean)
    if not _holds(catalog, answers, wd, mode, sized, ci, lang, built, lean=lean):
        # The family the scores prefer has no plan the team can sign under its answers
        # as they are; the other family's plan is the answer, not a dead end.
        other = next((a for a in wd.feasible_accelerators if a != wd.accelerator), None)
        if other is not None:
            alt = dataclasses.replace(wd, accelerator=other)
            alt_mode, alt_doc = _planned(catalog, answers, alt, sized, ci, lang, built, lean=lean)
            if _holds(catalog, answers, alt, alt_mode, sized, ci, lang, built, lean=lean):
                wd, mode, doc = alt, alt_mode, alt_doc
    return (wd if mode == wd.mode else dataclasses.replace(wd, mode=mode)), doc


def _holds(
    catalog: Catalog,
    answers: vocabulary.Answers,
    wd: WorkloadDecision,
    mode: str,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
    built: mode_choice.Built,
    *,
    lean: bool,
) -> bool:
    """Whether the workload's options in `mode` hold a plan (options.has_plan)."""
    if lean:
        return _verdict(catalog, answers, wd, mode, sized, ci, lang, built)[0]
    return has_plan(built[(wd.kind, wd.accelerator, mode)].options)


def leading_option(
    catalog: Catalog,
    answers: vocabulary.Answers,
    wd: WorkloadDecision,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
    built: mode_choice.Built,
) -> dict[str, Any] | None:
    """The workload's first option in its family and mode, after cost_aware(lean=True): from
    the build of the priced cards where they decide the first (mode_choice.priced_decides: the
    same card, planned and priced alike; only the operator's servers listed beside it may
    differ), else from the full build."""
    key = (wd.kind, wd.accelerator, wd.mode)
    full = built.get(key)
    if full is None:
        priced = built.get((*key, "priced"))
        if (
            priced is not None
            and wd.mode not in owned.OWNED_MODES
            and mode_choice.priced_decides(priced.options)
        ):
            return priced.options[0]
        full = built[key] = build_options(
            catalog, answers, wd.kind, wd.schedule, wd.accelerator, wd.mode, sized, ci, lang
        )
    return full.options[0] if full.options else None


def plan_outcome(
    answers: vocabulary.Answers,
    catalog: Catalog,
    wd: WorkloadDecision,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
    built: mode_choice.Built,
    *,
    mode_needed: bool = True,
) -> tuple[str, str | None, bool]:
    """What plan_workload makes of one workload, and only that: the family and mode it plans
    the workload on and whether a card there runs the team's stack as it is (priced or on
    request). The same answer as plan_workload's, with fewer cards built: where a mode's priced
    cards settle it (_verdict), the others are never built (the flips ask only this).

    Without `mode_needed` the mode is None where it would change nothing else: every mode
    choose_mode may pick holds a plan, so the workload keeps its family and a card that runs
    the stack whichever mode its cost picks; each mode is then checked card by card until a
    plan is found (options.holds_plan), and no mode is weighed."""
    if not mode_needed and all(
        holds_plan(
            catalog,
            answers,
            wd.kind,
            wd.schedule,
            wd.accelerator,
            mode,
            sized,
            ci,
            lang,
            only_priced=mode not in owned.OWNED_MODES,
        )[0]
        for mode in mode_choice.candidate_modes(answers, wd, sized)
    ):
        return wd.accelerator, None, True
    mode, _ = mode_choice.choose_mode(catalog, answers, wd, sized, ci, lang, built, lean=True)
    plan, runnable = _verdict(catalog, answers, wd, mode, sized, ci, lang, built)
    if not plan:
        other = next((a for a in wd.feasible_accelerators if a != wd.accelerator), None)
        if other is not None:
            alt = dataclasses.replace(wd, accelerator=other)
            alt_mode, _ = mode_choice.choose_mode(
                catalog, answers, alt, sized, ci, lang, built, lean=True
            )
            alt_plan, alt_runnable = _verdict(
                catalog, answers, alt, alt_mode, sized, ci, lang, built
            )
            if alt_plan:
                return other, alt_mode, alt_runnable
    return wd.accelerator, mode, runnable


def _verdict(
    catalog: Catalog,
    answers: vocabulary.Answers,
    wd: WorkloadDecision,
    mode: str,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
    built: mode_choice.Built,
) -> tuple[bool, bool]:
    """Whether the workload's options in `mode` hold a plan (options.has_plan) and whether one
    runs the stack as it is, as the build of all its cards would say. In a rented mode only
    the cards with a price row there have a price, so the build of those (which choose_mode
    left in `built`) settles both when one of its options runs the stack; else the cards are
    planned one by one until both are known (options.holds_plan)."""
    key = (wd.kind, wd.accelerator, mode)
    full = built.get(key)
    if full is not None:
        return has_plan(full.options), any(o["stack"]["runnable"] for o in full.options)
    priced = built.get((*key, "priced"))
    if (
        priced is not None
        and mode not in owned.OWNED_MODES
        and any(o["stack"]["runnable"] for o in priced.options)
    ):
        # Only a runnable, priced option dominates a runnable one: whichever options another
        # dominates, a build keeps a runnable one (and a plan) where it had one.
        return has_plan(priced.options), True
    return holds_plan(catalog, answers, wd.kind, wd.schedule, wd.accelerator, mode, sized, ci, lang)


# What plan_workload reads of a workload's decision: equal on these, two decisions plan alike.
WORKLOAD_PLAN_FIELDS = (
    "kind",
    "schedule",
    "accelerator",
    "mode",
    "feasible_accelerators",
    "feasible_modes",
)


def workload_plan_key(wd: WorkloadDecision) -> tuple[Any, ...]:
    return tuple(getattr(wd, f) for f in WORKLOAD_PLAN_FIELDS)


def _planned(
    catalog: Catalog,
    answers: vocabulary.Answers,
    wd: WorkloadDecision,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
    built: mode_choice.Built,
    *,
    lean: bool = False,
) -> tuple[str, dict[str, Any] | None]:
    """The workload's mode weighed by cost, its options built into `built` (`lean`: those
    choose_mode(lean=True) builds)."""
    mode, doc = mode_choice.choose_mode(catalog, answers, wd, sized, ci, lang, built, lean=lean)
    if not lean and (wd.kind, wd.accelerator, mode) not in built:
        built[(wd.kind, wd.accelerator, mode)] = build_options(
            catalog, answers, wd.kind, wd.schedule, wd.accelerator, mode, sized, ci, lang
        )
    return mode, doc


def real_changes(
    changes: list[dict[str, Any]],
    current: tuple[str, str],
    answers: vocabulary.Answers,
    catalog: Catalog,
    d: Decision,
    sized: Sized,
    ci: billing.CostInputs,
    built: mode_choice.Built,
) -> list[dict[str, Any]]:
    """Only changes that give a different recommendation: not the current one, not a list that
    only forbids what is recommended, and not a mode that cost would move back from."""
    out = []
    verdicts: dict[tuple[str, str], bool] = {}
    for change in changes:
        target = (change["accelerator"], change["deployment_mode"])
        if target == current:
            continue
        if any(
            isinstance(c["from"], list)
            and isinstance(c["to"], list)
            and set(c["to"]) < set(c["from"])
            for c in change["changes"]
        ):
            continue  # narrowing a list only forbids what is recommended: not a lever
        if target not in verdicts:
            verdicts[target] = _cost_keeps(target, answers, catalog, d, sized, ci, built)
        kept = verdicts[target]
        if kept:
            out.append(change)
    return out


def card_confidence(
    options: list[dict[str, Any]], catalog: Catalog, budget: float | None = None
) -> float:
    """How sure the first card is: 0.5 + 0.5 * min(1, cost gap to the next runnable, available,
    priced option / (full-gap fraction * its cost)); 1.0 when it is the only one; 0.5 when the
    first is unpriced; at most 0.5 when it misses its latency or deadline target, or when it
    alone costs more a month than the budget (a whole 8-card server bought for a job
    that fits one card was "100%" sure at $17,114 over a $15,000 budget)."""
    if not options:
        return 0.5
    first = options[0]
    cost = first["cost_to_result"]["usd"]
    if cost is None:
        conf = 0.5
    else:
        nxt = [
            o["cost_to_result"]["usd"]
            for o in options[1:]
            if o["stack"]["runnable"]
            and o["availability"]["available"]
            and o["cost_to_result"]["usd"] is not None
        ]
        if not nxt or cost <= 0:
            conf = 1.0
        else:
            full = catalog.figure("card_confidence_full_gap") * cost
            conf = round(0.5 + 0.5 * min(1.0, max(0.0, nxt[0] - cost) / full), 3)
    if first.get("meets_latency") is False or first.get("meets_deadline") is False:
        conf = min(conf, 0.5)
    monthly = first.get("monthly_cost_usd")
    if monthly is not None:
        # The budget is checked against compute and hosting; operations are named apart.
        monthly -= float(first.get("staff_usd_per_month") or 0) + float(
            first.get("ops_bought_in_usd_per_month") or 0
        )
    if budget is not None and monthly is not None and monthly > budget:
        conf = min(conf, 0.5)
    return conf


def _cost_keeps(
    target: tuple[str, str],
    answers: vocabulary.Answers,
    catalog: Catalog,
    d: Decision,
    sized: Sized,
    ci: billing.CostInputs,
    built: mode_choice.Built,
) -> bool:
    """Whether weighing cost keeps a flip's (family, mode) for every workload. TPUs and owned
    modes are never moved by cost, and public cloud is where the catalog's prices are, so only
    GPU flips to a hosted mode (dedicated hosting, bare metal) are checked."""
    if target[0] != "gpu" or target[1] not in ("dedicated_hosting", "bare_metal"):
        return True
    for wd in d.workloads:
        trial = dataclasses.replace(
            wd,
            accelerator=target[0],
            mode=target[1],
            feasible_modes=tuple(dict.fromkeys((*wd.feasible_modes, target[1]))),
        )
        mode, _ = mode_choice.choose_mode(catalog, answers, trial, sized, ci, "en", built)
        if mode != target[1]:
            return False
    return True


def headline_option(firsts: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first option whose billing the headline shows: of the costliest workload."""
    return max(
        (o for o in firsts if o.get("billing")),
        key=lambda o: o["monthly_cost_usd"] or 0.0,
        default=None,
    )


def family_scores(d: Decision) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for acc in ACCELERATORS:
        idx = OPTIONS.index(acc)
        feasible = [w for w in d.workloads if acc in w.feasible_accelerators]
        out[acc] = round(sum(w.scores[idx] for w in feasible), 3) if feasible else None
    return out


def as_of_date(catalog: Catalog, today: date | str | None) -> date:
    if isinstance(today, date):
        return today
    if isinstance(today, str):
        return date.fromisoformat(today)
    newest = catalog.newest_price_date()
    return date.fromisoformat(newest) if newest else date(1970, 1, 1)


def confidence_pair(d: Decision, scoring: ScoringModel) -> tuple[float, float]:
    return (
        confidence(d.accelerator_margin, d.max_margin, scoring),
        confidence(d.mode_margin, d.max_margin, scoring),
    )


def cost_inputs(
    answers: vocabulary.Answers,
    catalog: Catalog,
    when: date,
    stale_days: float,
    measurements: tuple[Measurement, ...] = (),
) -> billing.CostInputs:
    m = answers.maturity
    return billing.CostInputs(
        catalog=catalog,
        today=when,
        stale_days=stale_days,
        regions=answers.organization.regions,
        clouds=answers.deployment.clouds,
        residency=answers.deployment.data_residency,
        china=answers.deployment.china_connectivity,
        ops_capacity=answers.cost.ops_capacity,
        ops_headcount=answers.cost.ops_headcount,
        staff_region=staff_region_of(answers),
        billing=answers.cost.billing,
        predictable=m.demand != "unpredictable",
        stable=m.stack_changes in ("quarterly", "rarely") and m.pipeline == "standardized",
        serving=answers.frameworks.serving,
        amortisation_months=answers.cost.amortisation_months,
        capex_budget_usd=answers.cost.capex_budget_usd,
        measurements=measurements,
    )


def staff_region_of(answers: vocabulary.Answers) -> str | None:
    # Where the operations staff work: their answer, else where the organisation is first.
    return answers.cost.ops_region or next(iter(answers.organization.regions), None)


def staff_section(
    answers: vocabulary.Answers, catalog: Catalog, lang: str
) -> tuple[dict[str, Any], str | None]:
    """What the staff cost was priced with (result cost.staff), and a note when the region has
    no sourced wage of its own."""
    region = staff_region_of(answers)
    key, regional = costing.staff_wage_figure(catalog, region)
    doc = {
        "region": region,
        "wage_figure": key,
        "regional_wage": regional,
        "usd_per_hour": round(costing.staff_usd_per_hour(catalog, region), 2),
        "headcount": answers.cost.ops_headcount,
        # No operations staff of its own: every staff hour is bought in (a contractor or a
        # managed service), which the report says where it states the staff cost.
        "bought_in": answers.cost.ops_capacity == "none" or answers.cost.ops_headcount == 0,
    }
    note = None
    if not regional:
        note = i18n.message(
            "cost.staff_us_wage", lang, region=i18n.value_label("cost.ops_region", region, lang)
        )
    return doc, note
