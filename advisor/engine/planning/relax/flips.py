"""Honest flips: `would_change_if` changes checked against the per-card rules the plan applies."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from advisor.engine import explain
from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.planning import decide, mode_choice
from advisor.engine.planning.options import planning_key
from advisor.engine.planning.relax.common import Plan, stack_relaxations, with_answer
from advisor.engine.ranking import scoring

# The stack change a flip is stated with when it alone leads nowhere: the team's numeric format
# first (it keeps its stack), then the serving stack, then custom kernels.
_ORDER = ("precision", "serving", "kernels")


def _answer_with(answers: vocabulary.Answers, path: str, value: Any) -> vocabulary.Answers:
    """`answers` with one `would_change_if` change applied (a facts path, lists as given)."""
    if path.startswith("workloads["):
        i = int(path[len("workloads[") : path.index("]")])
        workloads = tuple(
            dataclasses.replace(w, schedule=value) if j == i else w
            for j, w in enumerate(answers.workloads)
        )
        return dataclasses.replace(answers, workloads=workloads)
    return with_answer(answers, path, tuple(value) if isinstance(value, list) else value)


# One workload planned under a flip: the family and mode cost weighs it to, and whether a card
# there runs the stack as it is (priced or on request). Keyed by the answers' planning key and
# what the plan reads of the workload's decision (decide.workload_plan_key). The mode is None
# where no mode lacks a plan and the workload has none now (not in `dead`): it decides nothing
# then (decide.plan_outcome), and `dead` is one set for all the flips.
Planned = dict[tuple[Any, ...], tuple[str, str | None, bool]]


def workload_outcome(
    built: mode_choice.Built, wd: scoring.WorkloadDecision
) -> tuple[str, str, bool]:
    options = built[(wd.kind, wd.accelerator, wd.mode)].options
    return wd.accelerator, wd.mode, any(o["stack"]["runnable"] for o in options)


def planned_now(
    answers: vocabulary.Answers,
    scored: scoring.Decision,
    decided: scoring.Decision,
    built: mode_choice.Built,
) -> dict[tuple[Any, ...], tuple[str, str, bool]]:
    """The main plan's workloads as open_changes keys them: `scored`, the scores' decision;
    `decided` and `built`, what decide.cost_aware made of it. Only for a plan with the cost
    inputs a re-plan has (no measured runs: the re-plans of one evaluation plan without them)."""
    key = planning_key(answers)
    return {
        (key, decide.workload_plan_key(s)): workload_outcome(built, w)
        for s, w in zip(scored.workloads, decided.workloads, strict=True)
    }


def _opens(
    catalog: Catalog,
    answers: vocabulary.Answers,
    target: scoring.Decision,
    base: scoring.Decision,
    dead: frozenset[str],
    plan: Plan,
    lang: str,
    planned: Planned,
) -> list[str] | None:
    """None when every workload the change moves (and every one that runs now) has a runnable
    option where the scores' `target` decision, weighed by cost, puts it under `answers`; else
    the kinds that would have none. `base`: the plan's decision now (weighed by cost).

    Each workload is planned as decide.cost_aware plans it, and only when `planned` does not
    hold it yet: a flip re-plans the workloads whose planning it can move (another planning
    key, or another decision for that workload) and reads the others from the main plan or
    an earlier flip."""
    key = planning_key(answers)
    built: mode_choice.Built = {}
    stuck = []
    for was, aimed in zip(base.workloads, target.workloads, strict=True):
        if scoring.PHASE_OF[aimed.kind] == "preprocessing":
            continue
        wkey = (key, decide.workload_plan_key(aimed))
        found = planned.get(wkey)
        if found is None:
            sized, ci = plan(answers)
            found = planned[wkey] = decide.plan_outcome(
                answers, catalog, aimed, sized, ci, lang, built, mode_needed=aimed.kind in dead
            )
        accelerator, mode, runnable = found
        if aimed.kind in dead and (accelerator, mode) == (was.accelerator, was.mode):
            continue  # a workload with no plan now that the flip does not move
        if accelerator != aimed.accelerator:
            # Planned on the other family: the flip would not land where it says.
            stuck.append(aimed.kind)
            continue
        # A card that runs the stack as it is where the team may deploy (priced or on request).
        if not runnable:
            stuck.append(aimed.kind)
    return stuck or None


def open_changes(
    changes: Sequence[dict[str, Any]],
    catalog: Catalog,
    answers: vocabulary.Answers,
    base: scoring.Decision,
    model: scoring.ScoringModel,
    ctx: scoring.Context,
    dead: frozenset[str],
    plan: Plan,
    lang: str,
    planned: Mapping[tuple[Any, ...], tuple[str, str | None, bool]] | None = None,
) -> list[dict[str, Any]]:
    """`would_change_if` flips checked against the per-card rules the plan applies: the
    scores know the team's answers, not which card runs which stack in which
    numeric format, so "would become TPU" could lead where no TPU runs the team's stack. Each
    flip is decided again with its changes; where a workload it moves would have no runnable
    option, the flip is stated with the stack change that brings one back (the numeric format
    first, then the serving stack, then custom kernels) if the decision still flips with it,
    and dropped otherwise. `dead`: the workloads with no runnable option now (not the flip's
    doing). `planned`: the main plan's workloads (planned_now), which the flips reuse."""
    planned = dict(planned or {})
    out = []
    for change in changes:
        target = (change["accelerator"], change["deployment_mode"])
        trial = answers
        for c in change["changes"]:
            trial = _answer_with(trial, c["answer_path"], c["to"])
        decided = scoring.decide(scoring.answers_facts(trial), model, ctx)
        stuck = _opens(catalog, trial, decided, base, dead, plan, lang, planned)
        if stuck is None:
            out.append(change)
            continue
        said = {c["answer_path"] for c in change["changes"]}
        extras = {
            r.path: r
            for kind in stuck
            for r in stack_relaxations(trial, kind)
            if r.path not in said
        }
        for r in sorted(extras.values(), key=lambda r: _ORDER.index(r.kind)):
            decided = scoring.decide(scoring.answers_facts(r.answers), model, ctx)
            if (decided.accelerator, decided.mode) != target:
                continue
            if _opens(catalog, r.answers, decided, base, dead, plan, lang, planned) is None:
                steps = [(c["answer_path"], c["from"], c["to"]) for c in change["changes"]]
                out.append(explain.flip_doc([*steps, (r.path, r.old, r.new)], *target, lang))
                break
    return out
