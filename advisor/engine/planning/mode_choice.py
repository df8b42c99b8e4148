"""choose_mode: a workload's deployment mode weighed by the cost of its best runnable option
against the scores' preferred one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.planning import nonllm
from advisor.engine.planning.options import Options, Sized, build
from advisor.engine.pricing import billing, owned
from advisor.engine.ranking import scoring
from advisor.engine.text import i18n

# --------------------------------------------------------------------------- mode by cost

# Modes the catalog can price (rented); owned modes (private cloud, on premises) are bought and
# priced by their cost of ownership, and a preference for them is never overridden by cost.
_PRICED_MODES = ("public_cloud", "dedicated_hosting", "bare_metal")

Built = dict[tuple[str, ...], Options]


def standing(options: Sequence[Mapping[str, Any]]) -> tuple[int, int, int, int, float]:
    """How good a mode's first option is: runnable, available, priced, meeting its target
    (0 = yes; a thin margin still meets it), then cost. A mode whose best
    option misses the latency target (a mainland user's, across the border) stands after one
    that meets it, whatever it costs."""
    if not options:
        return (1, 1, 1, 1, math.inf)
    o = options[0]
    cost = (o.get("cost_to_result") or {}).get("usd")
    return (
        0 if o["stack"]["runnable"] else 1,
        0 if o["availability"]["available"] else 1,
        0 if cost is not None else 1,
        1 if o.get("target_status") == "missed" else 0,
        cost if cost is not None else math.inf,
    )


def priced_decides(options: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a rented mode's priced cards alone (a build `only_priced`) give the standing of
    all its cards: their first option runs the stack and has a price. A card with no price row
    in a rented mode has no price there, so it ranks after that option (ranking.tiers: runnable,
    then priced, first), and the priced options rank among themselves as they do among all."""
    s = standing(options)
    return s[0] == 0 and s[2] == 0


def candidate_modes(
    answers: vocabulary.Answers, wd: scoring.WorkloadDecision, sized: Sized
) -> list[str]:
    """The modes choose_mode may pick for the workload: the scores' first, then the other
    feasible modes the catalog prices (public cloud only, for TPUs), where cost weighs them."""
    if scoring.PHASE_OF[wd.kind] == "preprocessing" or (
        sized.shape is None and answers.work is None
    ):
        return [wd.mode]
    return [
        wd.mode,
        *(
            m
            for m in wd.feasible_modes
            if m != wd.mode
            and m in _PRICED_MODES
            and (wd.accelerator == "gpu" or m == "public_cloud")
        ),
    ]


def choose_mode(
    catalog: Catalog,
    answers: vocabulary.Answers,
    wd: scoring.WorkloadDecision,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
    built: Built,
    *,
    lean: bool = False,
) -> tuple[str, dict[str, Any] | None]:
    """The deployment mode for one workload: the scores' choice unless another allowed mode's
    best runnable option stands better (runnable, available where the customer is, priced) or
    costs less by more than the catalog's tolerance. Returns the mode and, when cost moved or
    qualified it, a `mode_decision` doc with each mode's cost to the result.

    `lean`: for a caller that keeps only the mode (decide.plan_outcome): public cloud is built
    from its priced cards alone where they decide its standing (priced_decides), else in full."""
    acc = wd.accelerator

    def get(mode: str, *, full: bool) -> Options:
        key = (wd.kind, acc, mode)
        if key in built:
            return built[key]
        # Public cloud is priced for nearly every card: build it in full once.
        full = full or (mode == "public_cloud" and not lean)
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
            if mode != "public_cloud" or priced_decides(built[part].options):
                return built[part]
        built[key] = build(catalog, answers, wd.kind, wd.schedule, acc, mode, sized, ci, lang)
        return built[key]

    # Standing per mode from its priced cards (the best priced runnable option is what a mode
    # costs); the chosen mode is then built in full by the caller.
    preferred = get(wd.mode, full=False)
    modes = candidate_modes(answers, wd, sized)[1:]
    if not modes:
        return wd.mode, None
    base = standing(preferred.options)
    tolerance = float(catalog.rule("mode_cost_tolerance"))
    best_mode, best, best_options = wd.mode, base, preferred.options
    if wd.mode in owned.OWNED_MODES:
        # Owned hardware is where the customer is but has no price: the priced alternative shown
        # next to it is the best runnable priced one, wherever it is offered.
        best = (base[0], 1, base[2], base[3], base[4])
    costs: dict[str, float | None] = {wd.mode: None if base[4] == math.inf else base[4]}
    for m in modes:
        alt = get(m, full=False).options
        s = standing(alt)
        costs[m] = None if s[4] == math.inf else s[4]
        better_tier = s[:4] < best[:4]
        same_tier_cheaper = s[:4] == best[:4] and s[4] * (1.0 + tolerance) < best[4]
        if better_tier or same_tier_cheaper:
            best_mode, best, best_options = m, s, alt
    if wd.mode in _PRICED_MODES and best_mode != wd.mode:
        code = (
            "mode.switched_unpriced"
            if base[1] or base[2]
            else "mode.switched_target"
            if base[3] and not best[3]
            else "mode.switched_cheaper"
        )
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
        # Cents (or three significant figures) below $100: a batch job's cost per million
        # tokens is often under a dollar, which whole dollars would write as "$0".
        return nonllm.money_text(value) if in_units or abs(value) < 100 else f"{value:,.0f}"

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
