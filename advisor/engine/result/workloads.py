"""evaluate's per-workload stage: each workload's section of the result document.

For every workload of the cost-weighed decision, in order: its options (with the operator's
hosted servers beside the first), the alternatives on the other family, the notes page one
makes of them, its confidence, billing and rules, its pilot and, where no option is left, its
dead end with the relaxations that bring one back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.explain import option_notes, pilot
from advisor.engine.explain.notes import (
    dominated_notes,
    first_here_notes,
    house_first_note,
    indicative_first_note,
    lead_passed_over_notes,
    missed_notes,
    rules_for_workload,
    target_warning_notes,
    thin_margin_notes,
)
from advisor.engine.planning import mode_choice, nonllm, relax
from advisor.engine.planning.decide import card_confidence
from advisor.engine.planning.house import beside_first, house_offers
from advisor.engine.planning.options import Sized
from advisor.engine.planning.options import build as build_options
from advisor.engine.planning.priced_option import billed_price
from advisor.engine.pricing import asked, billing
from advisor.engine.ranking.scoring import OPTIONS, ScoringModel, WorkloadDecision
from advisor.engine.ranking.scoring import confidence as margin_confidence
from advisor.engine.result.stages import Decided, Planned, Sizing, Workloads
from advisor.engine.text import i18n


@dataclass(frozen=True)
class _Section:
    """One workload's section and what the stage gathers from it."""

    doc: dict[str, Any]
    notes: list[str]
    first: dict[str, Any] | None
    tagged_first: dict[str, Any] | None  # a copy of it with its `workload`, as it stood priced
    rules: list[str]
    confidence: tuple[float, float, float]
    price_docs: list[dict[str, Any]]
    relaxations: list[dict[str, Any]]


def documents(
    decided: Decided,
    sizing: Sizing,
    planned: Planned,
    catalog: Catalog,
    scoring: ScoringModel,
    plan: relax.Plan,
) -> Workloads:
    """Every workload's section, in the decision's order, with the notes they make.

    `plan` re-plans changed answers (a dead end's relaxations). The options of the hosted modes
    a workload's first option is compared with are added to `planned.built`."""
    out = Workloads(
        docs=[],
        notes=[],
        firsts=[],
        firsts_by_kind={},
        price_docs={},
        rules=[],
        confidence=[],
        relaxations=[],
    )
    for i, reasons in enumerate(decided.reasons):
        s = _section(decided, sizing, planned, catalog, scoring, plan, i, reasons)
        out.docs.append(s.doc)
        out.notes.extend(s.notes)
        kind = str(s.doc["kind"])
        if s.tagged_first is not None:
            out.firsts.append(s.tagged_first)
        out.firsts_by_kind[kind] = s.first
        out.price_docs.update((p["price_id"], p) for p in s.price_docs)
        out.rules.append(s.rules)
        out.confidence.append(s.confidence)
        out.relaxations.extend(s.relaxations)
    return out


def _section(
    decided: Decided,
    sizing: Sizing,
    planned: Planned,
    catalog: Catalog,
    scoring: ScoringModel,
    plan: relax.Plan,
    i: int,
    reasons: list[dict[str, Any]],
) -> _Section:
    answers, lang, sized, ci = decided.answers, decided.lang, sizing.sized, planned.ci
    wd = planned.decision.workloads[i]
    built = planned.built[(wd.kind, wd.accelerator, wd.mode)]
    options = built.options
    mode_doc = planned.mode_docs.get(wd.kind)
    notes = _fallback_notes(wd, decided.scored.workloads[i].accelerator, planned.built, lang)
    if options:
        _house_from_hosted_modes(answers, catalog, wd, sized, ci, lang, planned.built, options)
    if mode_doc and mode_doc["reason"]:
        notes.append(mode_doc["reason"])
    notes += _first_option_notes(wd, options, answers, catalog, decided.when, lang)
    alternatives = _alternatives(wd, answers, catalog, sized, ci, lang)
    first = options[0] if options else None
    rules = rules_for_workload(wd.kind, first, mode_doc)
    confidence = (
        margin_confidence(wd.accelerator_margin, wd.max_margin, scoring),
        margin_confidence(wd.mode_margin, wd.max_margin, scoring),
        card_confidence(options, catalog, answers.cost.monthly_budget_usd),
    )
    target_warnings = target_warning_notes(
        wd.kind, options, answers, catalog, lang, built.dominated
    )
    notes += target_warnings
    notes += _ranking_notes(wd.kind, options, built.dominated, answers, catalog, lang)
    w_billing = (
        first["billing"]
        if first and first.get("billing")
        else billing.billing_advice(wd.mode, decided.facts, catalog)[0]
    )
    # Taken before the pilot and the dead end read the options.
    tagged_first = {**first, "workload": wd.kind} if first is not None else None
    price_docs = [p for o in options + alternatives for p in o["prices"].values() if p is not None]
    doc: dict[str, Any] = {
        "kind": wd.kind,
        "schedule": wd.schedule,
        "accelerator": wd.accelerator,
        "deployment_mode": wd.mode,
        "billing": w_billing,
        "confidence": min(confidence),
        "confidence_parts": dict(zip(("family", "mode", "card"), confidence, strict=True)),
        "scores": {o: round(v, 3) for o, v in zip(OPTIONS, wd.scores, strict=True)},
        "feasible": {
            "accelerators": list(wd.feasible_accelerators),
            "deployment_modes": list(wd.feasible_modes),
        },
        "reasons": [_drop_private(r) for r in reasons if r["contribution"]],
        "options": options,
        "alternatives": alternatives,
        "excluded_options": built.excluded,
        "mode_decision": mode_doc,
        "rules": rules,
        "dominated_options": built.dominated,
        "target_warnings": target_warnings,
        "pilot": pilot.pilot(
            wd.kind,
            options,
            answers,
            catalog,
            sizing.training if wd.kind in vocabulary.TRAINING_KINDS else None,
            lang,
        ),
    }
    notes += _no_option_notes(wd, options, decided, lang)
    dead = _dead_end(decided, wd, options, built.excluded, catalog, plan)
    relaxations: list[dict[str, Any]] = []
    if dead is not None:
        # Never a bare "no priced option": what rules every option out,
        # the relaxations that bring one back and, where the operator sells, a quote.
        doc["dead_end"] = dead
        notes.append(dead["statement"])
        relaxations = dead["relaxations"]
    return _Section(
        doc=doc,
        notes=notes,
        first=first,
        tagged_first=tagged_first,
        rules=rules,
        confidence=confidence,
        price_docs=price_docs,
        relaxations=relaxations,
    )


def _dead_end(
    decided: Decided,
    wd: WorkloadDecision,
    options: list[dict[str, Any]],
    excluded: list[dict[str, Any]],
    catalog: Catalog,
    plan: relax.Plan,
) -> dict[str, Any] | None:
    """The workload's dead end (relax.dead_end) where it is planned from a model's shape or
    in its own unit; None where it has a runnable, priced option."""
    answers, lang = decided.answers, decided.lang
    # Work in its own unit has no model shape but is planned all the same: it can end dead.
    in_units = answers.work is not None and wd.kind in vocabulary.INFERENCE_KINDS
    if decided.shape is None and not in_units:
        return None
    return relax.dead_end(
        catalog,
        answers,
        wd.kind,
        wd.schedule,
        wd.mode,
        options,
        excluded,
        plan,
        lang,
    )


def _drop_private(reason: dict[str, Any]) -> dict[str, Any]:
    """A workload's reason (this evaluation's own copy) without the merging helper fields."""
    reason.pop("_text", None)
    return reason


def _fallback_notes(
    wd: WorkloadDecision, preferred: str, built: mode_choice.Built, lang: str
) -> list[str]:
    """The family the scores prefer had no plan: the note that names the one used, and why."""
    if wd.accelerator == preferred:
        return []
    ruled = next(
        (
            b.excluded
            for key, b in built.items()
            if key[0] == wd.kind and key[1] == preferred and b.excluded
        ),
        [],
    )
    return [
        i18n.message(
            "family.fallback",
            lang,
            kind=i18n.label(wd.kind, lang),
            preferred=i18n.label(preferred, lang),
            family=i18n.label(wd.accelerator, lang),
            why=f" ({ruled[0]['name']}: {ruled[0]['reason']})" if ruled else "",
        )
    ]


def _first_option_notes(
    wd: WorkloadDecision,
    options: list[dict[str, Any]],
    answers: vocabulary.Answers,
    catalog: Catalog,
    when: date,
    lang: str,
) -> list[str]:
    """What page one says of the workload's first option: its basis, a whole server bought for
    less, each short run's overhead, the peak, a commitment's lock-in, redundancy, the window,
    work in its own unit and the path to mainland China."""
    first = options[0] if options else None
    notes = option_notes.first_option_notes(
        wd.kind, wd.mode, first, answers.organization.regions, lang
    )
    said: list[str | None] = [
        option_notes.whole_server_note(wd.kind, options, answers.cost.monthly_budget_usd, lang)
    ]
    if first is not None:
        # Each short run's fixed overhead; a commitment on an older card.
        said += [
            asked.overhead_statement(wd.kind, first, lang),
            asked.peak_statement(wd.kind, wd.mode, first, lang),
            asked.lock_in_statement(first, catalog, when, lang),
            asked.redundancy_statement(wd.kind, first, lang),
            asked.window_statement(wd.kind, first, catalog, lang) if first.get("window") else None,
        ]
    said += [
        # Work in its own unit says how it was sized and what a unit costs.
        nonllm.statement(wd.kind, first, lang),
        option_notes.china_note(wd.kind, first, lang),
        option_notes.china_reach_note(wd.kind, first, catalog, lang),
    ]
    return notes + [s for s in said if s is not None]


def _alternatives(
    wd: WorkloadDecision,
    answers: vocabulary.Answers,
    catalog: Catalog,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
) -> list[dict[str, Any]]:
    """The first three options on the workload's other feasible family (TPUs on public cloud)."""
    others = [a for a in wd.feasible_accelerators if a != wd.accelerator]
    if not others:
        return []
    mode = "public_cloud" if others[0] == "tpu" else wd.mode
    return build_options(
        catalog, answers, wd.kind, wd.schedule, others[0], mode, sized, ci, lang
    ).options[:3]


def _ranking_notes(
    kind: str,
    options: list[dict[str, Any]],
    dominated: list[dict[str, Any]],
    answers: vocabulary.Answers,
    catalog: Catalog,
    lang: str,
) -> list[str]:
    """What the ranking of the options says beyond the target: targets missed, a thin margin,
    dominated options, an indicative or house first option, a lead time passed over and a card
    first offered in the team's region."""
    return [
        *missed_notes(kind, options, lang),
        *thin_margin_notes(kind, options, catalog, lang),
        *dominated_notes(kind, dominated, lang),
        *indicative_first_note(kind, options, lang),
        *house_first_note(kind, options, lang),
        *lead_passed_over_notes(kind, options, lang),
        *first_here_notes(kind, options, answers.organization.regions, lang),
    ]


def _no_option_notes(
    wd: WorkloadDecision, options: list[dict[str, Any]], decided: Decided, lang: str
) -> list[str]:
    """Work in its own unit that no option prices (it has no model shape to plan a dead end)."""
    answers = decided.answers
    if (
        not options
        and wd.kind != "preprocessing"
        and decided.shape is None
        and (answers.work is not None and wd.kind in vocabulary.INFERENCE_KINDS)
    ):
        return [
            i18n.message(
                "cost.no_option",
                lang,
                kind=i18n.label(wd.kind, lang),
                accelerator=i18n.label(wd.accelerator, lang),
                mode=i18n.label(wd.mode, lang),
            )
        ]
    return []


_HOSTED_MODES = ("dedicated_hosting", "bare_metal")


def _house_from_hosted_modes(
    answers: vocabulary.Answers,
    catalog: Catalog,
    wd: WorkloadDecision,
    sized: Sized,
    ci: billing.CostInputs,
    lang: str,
    built: mode_choice.Built,
    options: list[dict[str, Any]],
) -> None:
    """The operator's servers sold on request that fit the workload stand
    beside its first option whatever that option's mode, wherever the team allows dedicated
    hosting or bare metal and the server is in the customer's region or a neighbouring one
    (relax.neighbours); each says the mode it is sold in. Nothing is built for a catalog
    without such a server."""
    allowed = [m for m in _HOSTED_MODES if m in answers.deployment.allowed_modes]
    if not allowed or not catalog.memo(
        "house_on_request_any", lambda: any(p.house and p.on_request for p in catalog.prices)
    ):
        return
    near = relax.neighbours(catalog, answers.organization.regions)
    first = beside_first(options)
    listed = list(first.get("house_on_request") or [])
    seen = {str(h["price_id"]) for h in listed}
    # The server that prices the first option is its plan, not a server beside it.
    own = billed_price(first)
    if own:
        seen.add(str(own["price_id"]))
    for mode in allowed:
        key = (wd.kind, wd.accelerator, mode)
        if key not in built:
            built[key] = build_options(
                catalog, answers, wd.kind, wd.schedule, wd.accelerator, mode, sized, ci, lang
            )
        for offer in house_offers(built[key].options, near, lang=lang):
            if offer["price_id"] not in seen:
                seen.add(offer["price_id"])
                listed.append({**offer, "deployment_mode": mode})
    if listed:
        first["house_on_request"] = listed
