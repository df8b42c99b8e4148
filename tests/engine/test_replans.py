"""What evaluate's re-plans (the flips and relaxations it checks) share with the main plan and with
each other, and why that leaves every result as it was: each shortcut is checked against the
work it skips, on the benchmark's own documents."""

from __future__ import annotations

import dataclasses
import gc
from typing import Any

import pytest

from advisor.engine import (
    AnswersError,
    collector,
    evaluate,
    load_catalog,
    load_scoring_model,
    rescore,
)
from advisor.engine.answers import vocabulary
from advisor.engine.bench import variants
from advisor.engine.planning import decide, mode_choice
from advisor.engine.planning.options import REPLAN, Sized, planning_key, signable
from advisor.engine.planning.options import build as build_options
from advisor.engine.planning.relax import planned_now
from advisor.engine.planning.relax.flips import workload_outcome
from advisor.engine.ranking.scoring import WorkloadDecision, answers_facts
from advisor.engine.ranking.scoring import decide as decide_by_scores

DOCS = variants(40, seed=5)


def _fresh() -> Any:
    """A catalog loaded anew (load_catalog() hands out one shared catalog and its memos)."""
    catalog = load_catalog(load_catalog().to_dict())
    assert catalog is not load_catalog()
    return catalog


def _plan(answers: vocabulary.Answers, catalog: Any) -> tuple[Sized, Any]:
    shape = decide.answers_shape(answers, catalog)
    when = decide.as_of_date(catalog, None)
    ci = decide.cost_inputs(answers, catalog, when, float(catalog.rule("stale_after_days")))
    return decide.size_workloads(answers, catalog, shape), ci


def _built(answers: vocabulary.Answers, catalog: Any) -> dict[tuple[str, str, str], Any]:
    """Every workload's options in every family and mode, on a catalog of its own."""
    sized, ci = _plan(answers, catalog)
    return {
        (w.kind, family, mode): build_options(
            catalog, answers, w.kind, w.schedule, family, mode, sized, ci, "en"
        )
        for w in answers.workloads
        for family in ("gpu", "tpu")
        for mode in vocabulary.MODES
    }


def _with_residency(answers: vocabulary.Answers, residency: str) -> vocabulary.Answers:
    modes = tuple(dict.fromkeys((*answers.deployment.allowed_modes, "on_premises")))
    dep = dataclasses.replace(answers.deployment, data_residency=residency, allowed_modes=modes)
    return dataclasses.replace(answers, deployment=dep)


@pytest.mark.parametrize("answers", DOCS[:12])
def test_planning_tells_data_residency_apart_only_by_keeping_data_in_region(
    answers: vocabulary.Answers,
) -> None:
    # The planning key holds "none" and "on premises only" alike, so a flip between them
    # reuses the other's options: the options built under each, each on a freshly loaded
    # catalog (no memo between them), are the same. "In region" is told apart, and moves them.
    anywhere = _with_residency(answers, "none")
    on_premises = _with_residency(answers, "on_premises_only")
    in_region = _with_residency(answers, "in_region")
    assert planning_key(anywhere) == planning_key(on_premises)
    assert planning_key(anywhere) != planning_key(in_region)
    first, second = _built(anywhere, _fresh()), _built(on_premises, _fresh())
    assert first == second


def test_in_region_residency_does_change_what_is_planned() -> None:
    # The check above can fail: residency that keeps data in the team's regions rules cards out.
    catalog = _fresh()
    moved = [
        a
        for a in DOCS[:12]
        if _built(_with_residency(a, "none"), catalog)
        != _built(_with_residency(a, "in_region"), catalog)
    ]
    assert moved


@pytest.mark.parametrize("answers", DOCS)
def test_the_main_plans_workloads_are_what_a_replan_makes_of_them(
    answers: vocabulary.Answers,
) -> None:
    # The flips read a workload from the main plan (relax.planned_now) where its planning key
    # and its decision are the main plan's: planned again under a re-plan's cost inputs (marked
    # REPLAN, no measured runs) on a catalog of its own, each comes out the same.
    catalog, scoring = load_catalog(), load_scoring_model()
    shape = decide.answers_shape(answers, catalog)
    scored = decide_by_scores(
        answers_facts(answers), scoring, decide.scoring_context(answers, catalog, shape)
    )
    sized, ci = _plan(answers, catalog)
    decided, built, _ = decide.cost_aware(answers, catalog, scored, sized, ci, "en")
    now = planned_now(answers, scored, decided, built)
    assert len(now) == len(answers.workloads)

    fresh = _fresh()
    sized2, ci2 = _plan(answers, fresh)
    ci2.sized[REPLAN] = True
    again: mode_choice.Built = {}
    for wd in scored.workloads:
        planned, _ = decide.plan_workload(answers, fresh, wd, sized2, ci2, "en", again)
        key = (planning_key(answers), decide.workload_plan_key(wd))
        assert now[key] == workload_outcome(again, planned), wd.kind


def test_the_collector_is_off_during_an_evaluation_and_on_after() -> None:
    seen: list[bool] = []

    @collector.paused
    def probe() -> None:
        seen.append(gc.isenabled())

    probe()
    assert seen == [False]
    assert gc.isenabled()


def test_the_collector_comes_back_when_the_evaluation_raises() -> None:
    with pytest.raises(AnswersError):
        evaluate({"schema_version": 3}, load_catalog(), load_scoring_model())
    assert gc.isenabled()


def test_a_caller_that_turned_the_collector_off_keeps_it_off() -> None:
    catalog, scoring = load_catalog(), load_scoring_model()
    gc.disable()
    try:
        rescore(DOCS[0], catalog, scoring)
        evaluate(DOCS[0], catalog, scoring)
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize(
    ("path", "first", "second"),
    [("amortisation_months", 36, 60), ("capex_budget_usd", 1_000_000.0, 10_000.0)],
)
def test_a_warm_option_memo_tells_owned_hardware_answers_apart(
    path: str, first: Any, second: Any
) -> None:
    # The catalog memoises each card's priced option across evaluations: two teams that differ
    # only in owned hardware's term or purchase cap get each its own cost of ownership, the
    # one a catalog without memos gives.
    scoring = load_scoring_model()

    def owned(value: Any) -> vocabulary.Answers:
        answers = DOCS[0]
        cost = dataclasses.replace(answers.cost, **{path: value})
        dep = dataclasses.replace(answers.deployment, allowed_modes=("on_premises",))
        return dataclasses.replace(answers, cost=cost, deployment=dep)

    warm = _fresh()
    evaluate(owned(first), warm, scoring)
    assert evaluate(owned(second), warm, scoring) == evaluate(owned(second), _fresh(), scoring)


def _decisions(answers: vocabulary.Answers, catalog: Any) -> list[WorkloadDecision]:
    """The scores' workload decisions, each in every family and mode it may be planned on."""
    shape = decide.answers_shape(answers, catalog)
    ctx = decide.scoring_context(answers, catalog, shape)
    scored = decide_by_scores(answers_facts(answers), load_scoring_model(), ctx)
    return [
        dataclasses.replace(wd, accelerator=family, mode=mode)
        for wd in scored.workloads
        for family in wd.feasible_accelerators
        for mode in wd.feasible_modes
    ]


@pytest.mark.parametrize("answers", DOCS[:20])
def test_a_flips_outcome_is_what_planning_the_workload_makes_of_it(
    answers: vocabulary.Answers,
) -> None:
    # The flips ask decide.plan_outcome, which builds only the cards that settle the answer:
    # the family, the mode and whether a card runs the stack are plan_workload's, whose
    # options are all built (each on a catalog of its own).
    # Without the mode asked for, it may be left out (None), the rest the same.
    lean_catalog, full_catalog = _fresh(), _fresh()
    sized, ci = _plan(answers, lean_catalog)
    sized2, ci2 = _plan(answers, full_catalog)
    lean: mode_choice.Built = {}
    for wd in _decisions(answers, lean_catalog):
        full: mode_choice.Built = {}
        planned, _ = decide.plan_workload(answers, full_catalog, wd, sized2, ci2, "en", full)
        want = workload_outcome(full, planned)
        got = decide.plan_outcome(answers, lean_catalog, wd, sized, ci, "en", lean)
        assert got == want, (wd.kind, wd.accelerator, wd.mode)
        family, mode, runnable = decide.plan_outcome(
            answers, lean_catalog, wd, sized, ci, "en", {}, mode_needed=False
        )
        assert (family, mode or want[1], runnable) == want, (wd.kind, wd.accelerator, wd.mode)


@pytest.mark.parametrize("answers", DOCS[:20])
def test_the_signable_options_are_the_full_builds_runnable_priced_ones(
    answers: vocabulary.Answers,
) -> None:
    # options.signable builds only the cards with a price row in a rented mode: the options
    # that run the stack and have a price are the full build's, in its order, but for their
    # rank and the house servers listed beside the first.
    def bare(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            {k: v for k, v in o.items() if k not in ("rank", "house_on_request")} for o in options
        ]

    sized, ci = _plan(answers, _fresh())
    built = _built(answers, _fresh())
    for w in answers.workloads:
        for family in ("gpu", "tpu"):
            for mode in vocabulary.MODES:
                full = [
                    o
                    for o in built[(w.kind, family, mode)].options
                    if o["stack"]["runnable"] and o["cost_to_result"]["usd"] is not None
                ]
                got = signable(
                    ci.catalog, answers, w.kind, w.schedule, family, mode, sized, ci, "en"
                )
                assert bare(got) == bare(full), (w.kind, family, mode)
