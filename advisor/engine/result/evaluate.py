"""evaluate (the full result document) and rescore (the fast path); preview is in drafts.py."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any, cast

from advisor.engine import collector, explain
from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.explain.sizing_docs import inference_sizing_doc, training_sizing_doc
from advisor.engine.planning import levers, options, relax
from advisor.engine.planning.decide import (
    answers_shape,
    as_of_date,
    coerce,
    confidence_pair,
    cost_aware,
    cost_inputs,
    family_scores,
    headline_option,
    leading_option,
    real_changes,
    scoring_context,
    size_workloads,
)
from advisor.engine.pricing import asked
from advisor.engine.pricing.billing import CostInputs, billing_advice
from advisor.engine.ranking.scoring import Decision, ScoringModel, answers_facts
from advisor.engine.ranking.scoring import decide as decide_by_scores
from advisor.engine.result import costs as result_costs
from advisor.engine.result import workloads as result_workloads
from advisor.engine.result.document import ResultDocument
from advisor.engine.result.stages import Costs, Decided, Planned, Sizing, Workloads
from advisor.engine.sizing.measured import Measurement
from advisor.engine.text import i18n

# The engine's rules: a result names the version that made it, so a stored result is reused
# (decisions.evaluation.is_current) only by the same rules, and compare can say the engine moved.
# 2.4.0 (2026-12-05): a price row that names no region is not where the customer is, and a
# card's availability honours the team's clouds (3d3009c); Chinese lists joined with 、 (a8260ab).
# 2.8.1 (2026-12-07): the option memo keys on owned hardware's amortisation and purchase cap, so
# a result no longer borrows another team's owned-hardware cost in the same process.
ENGINE_VERSION = "2.8.1"
# v2 adds (v1 documents stay readable: every v1 field keeps its meaning): recommendation.rules,
# workloads[].rules / excluded_options, and per option stack, availability, rank, cost_to_result,
# billing, target_hours / target_basis (training) and the serving load fields.
RESULT_SCHEMA_VERSION = 2


@collector.paused
def rescore(answers: vocabulary.Answers, catalog: Catalog, scoring: ScoringModel) -> dict[str, Any]:
    """Fast path for bulk re-scoring: accelerator, mode, billing and scores; no explanations."""
    answers = coerce(answers)
    shape = answers_shape(answers, catalog)
    ctx = scoring_context(answers, catalog, shape)
    facts = answers_facts(answers)
    d = decide_by_scores(facts, scoring, ctx)
    sized = size_workloads(answers, catalog, shape)
    when = as_of_date(catalog, None)
    ci = cost_inputs(answers, catalog, when, float(catalog.rule("stale_after_days")))
    d, built, _ = cost_aware(answers, catalog, d, sized, ci, "en", lean=True)
    firsts = []
    for wd in d.workloads:
        first = leading_option(catalog, answers, wd, sized, ci, "en", built)
        if first is not None:
            firsts.append({**first, "workload": wd.kind})
    headline = headline_option(firsts)
    billing = (
        headline["billing"] if headline is not None else billing_advice(d.mode, d.facts, catalog)[0]
    )
    return {
        "accelerator": d.accelerator,
        "deployment_mode": d.mode,
        "billing": billing,
        "scores": family_scores(d),
    }


# --------------------------------------------------------------------------- evaluate


@collector.paused
def evaluate(
    answers: vocabulary.Answers | Mapping[str, Any],
    catalog: Catalog,
    scoring: ScoringModel,
    *,
    lang: str = "en",
    today: date | str | None = None,
    measurements: Sequence[Measurement] = (),
) -> ResultDocument:
    """The result document (schema 2, typed in engine/result/document/) for `answers` (a dict is
    parsed first and may raise AnswersError).

    `measurements`: benchmark runs (engine/sizing/measured/) whose figures replace the estimates
    for their card and serving stack; each option planned with one says so (`measured`).

    Deterministic: `today` (for flagging stale prices) defaults to the catalog's newest price date,
    never the wall clock.

    Runs the stages below in order (docs/architecture.md draws them); each hands the next a
    frozen record of result_stages.py.
    """
    answers = coerce(answers)
    # Validate and decide: the scores' decision, its confidence, billing advice and reasons.
    decided = _decide(answers, catalog, scoring, lang, today)
    # Size: the model's memory and compute, and the result's sizing sections.
    sizing = _size(decided, catalog)
    # Plan: each workload's options, its mode weighed by their cost.
    planned = _plan(decided, sizing, catalog, measurements)
    # Changed answers (dead ends' relaxations, flips) re-plan through one memo.
    plan = _replanner(catalog, decided, planned)
    # Per-workload documents: options, notes, pilot, dead ends.
    workloads = result_workloads.documents(decided, sizing, planned, catalog, scoring, plan)
    # Price: totals, staff once per team, the shared fleet, servers, the budget.
    costs = result_costs.price(decided, sizing, planned, workloads, catalog)
    # The billing the shown price uses, and why.
    billed = _billing(decided, workloads, costs, catalog)
    # The recommendation, with what would change it.
    recommendation = _recommendation(
        decided, sizing, planned, workloads, catalog, scoring, plan, billed
    )
    # Built as plain dicts (they are JSON); document.py states the shape readers rely on.
    return cast(
        ResultDocument,
        _assemble(
            decided, sizing, workloads, costs, recommendation, catalog, scoring, measurements
        ),
    )


def _decide(
    answers: vocabulary.Answers,
    catalog: Catalog,
    scoring: ScoringModel,
    lang: str,
    today: date | str | None,
) -> Decided:
    """The scores' decision for parsed answers, before cost weighs a workload's mode."""
    lang = lang if lang in i18n.LANGS else "en"
    when = as_of_date(catalog, today)
    stale_days = float(catalog.rule("stale_after_days"))
    shape = answers_shape(answers, catalog)
    ctx = scoring_context(answers, catalog, shape)
    facts = answers_facts(answers)
    d = decide_by_scores(facts, scoring, ctx)
    full_facts = d.facts
    acc_conf, mode_conf = confidence_pair(d, scoring)
    billing, billing_code = billing_advice(d.mode, full_facts, catalog)
    per_workload_reasons = []
    for i, w in enumerate(d.workloads):
        per_workload_reasons.append(
            (w.kind, explain.workload_reasons(scoring, full_facts, i, w.kind, w.schedule, lang))
        )
    # Merged before the per-workload lists drop their private text (aggregate copies them).
    aggregated_reasons = explain.aggregate_reasons(per_workload_reasons, lang)
    return Decided(
        answers=answers,
        lang=lang,
        when=when,
        stale_days=stale_days,
        shape=shape,
        ctx=ctx,
        scored=d,
        accelerator_confidence=acc_conf,
        mode_confidence=mode_conf,
        billing=billing,
        billing_code=billing_code,
        reasons=tuple(reasons for _, reasons in per_workload_reasons),
        aggregated_reasons=aggregated_reasons,
    )


def _size(decided: Decided, catalog: Catalog) -> Sizing:
    """The training and inference sizing sections and what the options are built from."""
    answers, shape, lang = decided.answers, decided.shape, decided.lang
    training_doc = inference_doc = None
    tmem = tflops = imem = None
    train_kind = next((k for k in answers.kinds if k in vocabulary.TRAINING_KINDS), None)
    if shape is not None and answers.training is not None and train_kind is not None:
        training_doc, tmem, tflops = training_sizing_doc(
            shape, answers.training, train_kind, catalog, lang
        )
    if shape is not None and answers.inference is not None:
        inference_doc, imem = inference_sizing_doc(
            shape, answers.inference, catalog, lang, answers.frameworks.serving
        )
    return Sizing(
        training=training_doc,
        inference=inference_doc,
        sized=options.Sized(shape, tmem, tflops, imem),
    )


def _plan(
    decided: Decided, sizing: Sizing, catalog: Catalog, measurements: Sequence[Measurement]
) -> Planned:
    """The cost inputs, and the decision with each workload's mode weighed by its options' cost
    (decide.cost_aware), those options built."""
    ci = cost_inputs(
        decided.answers, catalog, decided.when, decided.stale_days, tuple(measurements)
    )
    d, built_all, mode_docs = cost_aware(
        decided.answers, catalog, decided.scored, sizing.sized, ci, decided.lang
    )
    # What the flips may reuse of this plan: the re-plans plan without measured runs.
    planned_now = (
        {} if measurements else relax.planned_now(decided.answers, decided.scored, d, built_all)
    )
    return Planned(decision=d, built=built_all, mode_docs=mode_docs, ci=ci, planned_now=planned_now)


def _replanner(catalog: Catalog, decided: Decided, planned: Planned) -> relax.Plan:
    """The re-planner of one evaluation (relax.Plan)."""
    when, stale_days, shape = decided.when, decided.stale_days, decided.shape
    answers, measured = decided.answers, bool(planned.ci.measurements)
    plans: dict[tuple[Any, ...], tuple[options.Sized, CostInputs]] = {}

    def plan(a: vocabulary.Answers) -> tuple[options.Sized, CostInputs]:
        # The sizing and cost inputs of changed answers (dead ends and flips re-plan with them),
        # once per planning key: answers that differ only where planning never reads share them
        # and the options built with them (options.build memoises on the cost inputs).
        key = options.planning_key(a)
        found = plans.get(key)
        if found is None:
            replan = cost_inputs(a, catalog, when, stale_days)
            replan.sized[options.REPLAN] = True
            found = plans[key] = (size_workloads(a, catalog, shape), replan)
            if not measured and key == options.planning_key(answers):
                # Planned alike: what the main plan built serves the re-plan as it is.
                schedules = {w.kind: w.schedule for w in planned.decision.workloads}
                options.seed_replan(
                    replan, found[0], answers, schedules, planned.built, decided.lang
                )
        return found

    return plan


def _billing(
    decided: Decided, workloads: Workloads, costs: Costs, catalog: Catalog
) -> tuple[str, str]:
    """The headline billing and its reason (asked.billing_reason): the billing the shown price
    uses, of the costliest workload's first option."""
    headline = headline_option(workloads.firsts)
    same = cast(
        list[dict[str, Any]],
        next(
            (
                w["options"]
                for w in workloads.docs
                if headline is not None and w["kind"] == headline["workload"]
            ),
            [],
        ),
    )
    return asked.billing_reason(
        decided.answers,
        catalog,
        decided.when,
        decided.lang,
        (decided.billing, decided.billing_code),
        headline,
        same,
        costs.over_budget,
    )


def _recommendation(
    decided: Decided,
    sizing: Sizing,
    planned: Planned,
    workloads: Workloads,
    catalog: Catalog,
    scoring: ScoringModel,
    plan: relax.Plan,
    billed: tuple[str, str],
) -> dict[str, Any]:
    """The result's recommendation: family, mode and billing with their confidence, the rules
    applied, the split by workload, the reasons and what would change it (the dead ends'
    relaxations, the flips still open after re-planning, and each first option's levers)."""
    answers, lang, ctx, full_facts = decided.answers, decided.lang, decided.ctx, decided.facts
    scored, d, sized, ci = decided.scored, planned.decision, sizing.sized, planned.ci
    built_all, workloads_doc, conf_parts = planned.built, workloads.docs, workloads.confidence
    billing, billing_reason = billed
    acc_conf = decided.accelerator_confidence
    # The team's mode confidence is the scores' overall one; each workload's own mode confidence
    # counts in the mode part beside it, and the confidence is the weakest part.
    mode_conf = decided.mode_confidence
    parts = {
        "family": acc_conf,
        "mode": min([mode_conf, *(p[1] for p in conf_parts)]),
        "card": min([1.0, *(p[2] for p in conf_parts)]),
    }
    applied = sorted({r for rules in workloads.rules for r in rules}, key=options.RULES.index)
    return {
        "accelerator": d.accelerator,
        "deployment_mode": d.mode,
        "billing": billing,
        "billing_reason": billing_reason,
        "rules": [{"id": r, "statement": i18n.message(f"rule.{r}", lang)} for r in applied],
        "confidence": min(parts.values()),
        "confidence_parts": parts,
        "mode_confidence": mode_conf,
        "confidence_formula": scoring.raw.get("confidence", {}).get("formula"),
        "scores": family_scores(d),
        "split": d.split,
        "split_note": _split_note(d, lang),
        "by_workload": {
            w.kind: {"accelerator": w.accelerator, "deployment_mode": w.mode} for w in d.workloads
        },
        "excluded": explain.exclusion_docs(d.excluded, lang),
        "reasons": decided.aggregated_reasons,
        "would_change_if": [
            *workloads.relaxations,
            *relax.open_changes(
                real_changes(
                    explain.would_change_if(full_facts, scored, scoring, ctx, lang),
                    (d.accelerator, d.mode),
                    answers,
                    catalog,
                    d,
                    sized,
                    ci,
                    built_all,
                ),
                catalog,
                answers,
                d,
                scoring,
                ctx,
                frozenset(str(w["kind"]) for w in workloads_doc if "dead_end" in w),
                plan,
                lang,
                planned.planned_now,
            ),
            *(
                lever
                for wd in d.workloads
                for lever in levers.levers(
                    catalog, answers, wd.kind, workloads.firsts_by_kind.get(wd.kind), sized, lang
                )
            ),
        ],
    }


def _split_note(d: Decision, lang: str) -> str | None:
    """Where workloads run on different families or modes, each workload's."""
    if not d.split:
        return None
    parts = i18n.message("split.separator", lang).join(
        i18n.message(
            "split.part",
            lang,
            kind=i18n.label(w.kind, lang),
            accelerator=i18n.label(w.accelerator, lang),
            mode=i18n.label(w.mode, lang),
        )
        for w in d.workloads
    )
    return i18n.message("split.note", lang, parts=parts)


def _assemble(
    decided: Decided,
    sizing: Sizing,
    workloads: Workloads,
    costs: Costs,
    recommendation: dict[str, Any],
    catalog: Catalog,
    scoring: ScoringModel,
    measurements: Sequence[Measurement],
) -> dict[str, Any]:
    """The result document from its sections; every note in the order the stages made it."""
    # The benchmark runs planned with (engine/sizing/measured/): named even when the card they
    # measured no longer ranks among the options.
    measured_docs = {"measurements": [dataclasses.asdict(m) for m in measurements]}
    return {
        **(measured_docs if measurements else {}),
        "schema_version": RESULT_SCHEMA_VERSION,
        "versions": {
            "engine": ENGINE_VERSION,
            "scoring_model": {"name": scoring.name, "version": scoring.version},
            "catalog": catalog.version,
        },
        "lang": decided.lang,
        "recommendation": recommendation,
        "workloads": workloads.docs,
        "sizing": {"training": sizing.training, "inference": sizing.inference},
        "server": costs.server,
        "servers": costs.servers,
        **({"fleet": costs.fleet} if costs.fleet else {}),
        "cost": {**costs.section, "notes": [*workloads.notes, *costs.notes]},
    }
