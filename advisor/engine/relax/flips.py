"""Honest flips: `would_change_if` changes checked against the per-card rules the plan applies."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from advisor.engine import answers as A
from advisor.engine import decide as DC
from advisor.engine import explain as X
from advisor.engine import scoring as SC
from advisor.engine.catalog import Catalog
from advisor.engine.relax.common import Plan, stack_relaxations, with_answer

# The stack change a flip is stated with when it alone leads nowhere: the team's numeric format
# first (it keeps its stack), then the serving stack, then custom kernels.
_ORDER = ("precision", "serving", "kernels")


def _answer_with(answers: A.Answers, path: str, value: Any) -> A.Answers:
    """`answers` with one `would_change_if` change applied (a facts path, lists as given)."""
    if path.startswith("workloads["):
        i = int(path[len("workloads[") : path.index("]")])
        workloads = tuple(
            dataclasses.replace(w, schedule=value) if j == i else w
            for j, w in enumerate(answers.workloads)
        )
        return dataclasses.replace(answers, workloads=workloads)
    return with_answer(answers, path, tuple(value) if isinstance(value, list) else value)


def _opens(
    catalog: Catalog,
    answers: A.Answers,
    target: SC.Decision,
    base: SC.Decision,
    dead: frozenset[str],
    plan: Plan,
    lang: str,
) -> list[str] | None:
    """None when every workload the change moves (and every one that runs now) has a runnable
    option where the scores' `target` decision, weighed by cost, puts it under `answers`; else
    the kinds that would have none. `base`: the plan's decision now (weighed by cost)."""
    sized, ci = plan(answers)
    # Each workload's mode weighed by cost, as the plan would (decide.cost_aware).
    decided, built, _ = DC.cost_aware(answers, catalog, target, sized, ci, lang)
    stuck = []
    for wd, was, aimed in zip(decided.workloads, base.workloads, target.workloads, strict=True):
        moved = (wd.accelerator, wd.mode) != (was.accelerator, was.mode)
        if SC.PHASE_OF[wd.kind] == "preprocessing" or (not moved and wd.kind in dead):
            continue
        if wd.accelerator != aimed.accelerator:
            # Planned on the other family: the flip would not land where it says.
            stuck.append(wd.kind)
            continue
        # A card that runs the stack as it is where the team may deploy (priced or on request).
        if not any(
            o["stack"]["runnable"] for o in built[(wd.kind, wd.accelerator, wd.mode)].options
        ):
            stuck.append(wd.kind)
    return stuck or None


def open_changes(
    changes: Sequence[dict[str, Any]],
    catalog: Catalog,
    answers: A.Answers,
    base: SC.Decision,
    model: SC.ScoringModel,
    ctx: SC.Context,
    dead: frozenset[str],
    plan: Plan,
    lang: str,
) -> list[dict[str, Any]]:
    """`would_change_if` flips checked against the per-card rules the plan applies: the
    scores know the team's answers, not which card runs which stack in which
    numeric format, so "would become TPU" could lead where no TPU runs the team's stack. Each
    flip is decided again with its changes; where a workload it moves would have no runnable
    option, the flip is stated with the stack change that brings one back (the numeric format
    first, then the serving stack, then custom kernels) if the decision still flips with it,
    and dropped otherwise. `dead`: the workloads with no runnable option now (not the flip's
    doing)."""
    out = []
    for change in changes:
        target = (change["accelerator"], change["deployment_mode"])
        trial = answers
        for c in change["changes"]:
            trial = _answer_with(trial, c["answer_path"], c["to"])
        decided = SC.decide(SC.answers_facts(trial), model, ctx)
        stuck = _opens(catalog, trial, decided, base, dead, plan, lang)
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
            decided = SC.decide(SC.answers_facts(r.answers), model, ctx)
            if (decided.accelerator, decided.mode) != target:
                continue
            if _opens(catalog, r.answers, decided, base, dead, plan, lang) is None:
                steps = [(c["answer_path"], c["from"], c["to"]) for c in change["changes"]]
                out.append(X.flip_doc([*steps, (r.path, r.old, r.new)], *target, lang))
                break
    return out
