"""evaluate (the full result document) and rescore (the fast path); preview is in drafts.py."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any, cast

from advisor.engine import answers as A
from advisor.engine import asked as Q
from advisor.engine import billing as BL
from advisor.engine import collector, i18n
from advisor.engine import explain as X
from advisor.engine import fleet as FL
from advisor.engine import levers as LV
from advisor.engine import mode_choice as MC
from advisor.engine import nonllm as NL
from advisor.engine import option_notes as ON
from advisor.engine import options as O
from advisor.engine import pilot as P
from advisor.engine import relax as R
from advisor.engine import scoring as SC
from advisor.engine.catalog import Catalog
from advisor.engine.costing import team_staff
from advisor.engine.decide import (
    answers_shape,
    as_of_date,
    card_confidence,
    coerce,
    confidence_pair,
    cost_aware,
    cost_inputs,
    family_scores,
    headline_option,
    real_changes,
    scoring_context,
    size_workloads,
    staff_section,
)
from advisor.engine.document import ResultDocument
from advisor.engine.measured import Measurement
from advisor.engine.messages import MESSAGES
from advisor.engine.notes import (
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
from advisor.engine.scoring import ScoringModel
from advisor.engine.servers import preprocessing_server_doc, quote_server, server_doc
from advisor.engine.sizing_docs import inference_sizing_doc, training_sizing_doc

# The engine's rules: a result names the version that made it, so a stored result is reused
# (decisions.evaluation.is_current) only by the same rules, and compare can say the engine moved.
# 2.4.0 (2026-12-05): a price row that names no region is not where the customer is, and a
# card's availability honours the team's clouds (3d3009c); Chinese lists joined with 、 (a8260ab).
ENGINE_VERSION = "2.8.0"
# v2 adds (v1 documents stay readable: every v1 field keeps its meaning): recommendation.rules,
# workloads[].rules / excluded_options, and per option stack, availability, rank, cost_to_result,
# billing, target_hours / target_basis (training) and the serving load fields.
RESULT_SCHEMA_VERSION = 2


@collector.paused
def rescore(answers: A.Answers, catalog: Catalog, scoring: ScoringModel) -> dict[str, Any]:
    """Fast path for bulk re-scoring: accelerator, mode, billing and scores; no explanations."""
    answers = coerce(answers)
    shape = answers_shape(answers, catalog)
    ctx = scoring_context(answers, catalog, shape)
    facts = SC.answers_facts(answers)
    d = SC.decide(facts, scoring, ctx)
    sized = size_workloads(answers, catalog, shape)
    when = as_of_date(catalog, None)
    ci = cost_inputs(answers, catalog, when, float(catalog.rule("stale_after_days")))
    d, built, _ = cost_aware(answers, catalog, d, sized, ci, "en")
    firsts = []
    for wd in d.workloads:
        options = built[(wd.kind, wd.accelerator, wd.mode)].options
        if options:
            firsts.append({**options[0], "workload": wd.kind})
    headline = headline_option(firsts)
    billing = (
        headline["billing"]
        if headline is not None
        else BL.billing_advice(d.mode, d.facts, catalog)[0]
    )
    return {
        "accelerator": d.accelerator,
        "deployment_mode": d.mode,
        "billing": billing,
        "scores": family_scores(d),
    }


# --------------------------------------------------------------------------- evaluate


def _drop_private(reason: dict[str, Any]) -> dict[str, Any]:
    """A workload's reason (this evaluation's own copy) without the merging helper fields."""
    reason.pop("_text", None)
    return reason


@collector.paused
def evaluate(
    answers: A.Answers | Mapping[str, Any],
    catalog: Catalog,
    scoring: ScoringModel,
    *,
    lang: str = "en",
    today: date | str | None = None,
    measurements: Sequence[Measurement] = (),
) -> ResultDocument:
    """The result document (schema 2, typed in engine/document.py) for `answers` (a dict is
    parsed first and may raise AnswersError).

    `measurements`: benchmark runs (engine/measured.py) whose figures replace the estimates
    for their card and serving stack; each option planned with one says so (`measured`).

    Deterministic: `today` (for flagging stale prices) defaults to the catalog's newest price date,
    never the wall clock.
    """
    answers = coerce(answers)
    lang = lang if lang in i18n.LANGS else "en"
    when = as_of_date(catalog, today)
    stale_days = float(catalog.rule("stale_after_days"))
    shape = answers_shape(answers, catalog)
    ctx = scoring_context(answers, catalog, shape)
    facts = SC.answers_facts(answers)
    d = SC.decide(facts, scoring, ctx)
    full_facts = d.facts
    acc_conf, mode_conf = confidence_pair(d, scoring)
    billing, billing_code = BL.billing_advice(d.mode, full_facts, catalog)
    break_even = catalog.figure("commit_break_even_utilisation")
    utilisation = float(answers.cost.hours_per_day) / 24.0

    per_workload_reasons = []
    for i, w in enumerate(d.workloads):
        per_workload_reasons.append(
            (w.kind, X.workload_reasons(scoring, full_facts, i, w.kind, w.schedule, lang))
        )

    # Merged before the per-workload lists drop their private text (aggregate copies them).
    aggregated_reasons = X.aggregate_reasons(per_workload_reasons, lang)

    training_doc = inference_doc = None
    tmem = tflops = imem = None
    train_kind = next((k for k in answers.kinds if k in A.TRAINING_KINDS), None)
    if shape is not None and answers.training is not None and train_kind is not None:
        training_doc, tmem, tflops = training_sizing_doc(
            shape, answers.training, train_kind, catalog, lang
        )
    if shape is not None and answers.inference is not None:
        inference_doc, imem = inference_sizing_doc(
            shape, answers.inference, catalog, lang, answers.frameworks.serving
        )

    notes: list[str] = []
    workloads_doc = []
    price_docs: dict[str, dict[str, Any]] = {}  # price id -> the last doc seen with it
    best_options: list[dict[str, Any]] = []
    sized = O.Sized(shape, tmem, tflops, imem)
    workload_rules: list[list[str]] = []
    firsts_by_kind: dict[str, dict[str, Any] | None] = {}
    conf_parts: list[tuple[float, float, float]] = []
    relaxations: list[dict[str, Any]] = []
    ci = cost_inputs(answers, catalog, when, stale_days, tuple(measurements))
    scored = d

    plans: dict[tuple[Any, ...], tuple[O.Sized, BL.CostInputs]] = {}

    def plan(a: A.Answers) -> tuple[O.Sized, BL.CostInputs]:
        # The sizing and cost inputs of changed answers (dead ends and flips re-plan with them),
        # once per planning key: answers that differ only where planning never reads share them
        # and the options built with them (options.build memoises on the cost inputs).
        key = O.planning_key(a)
        found = plans.get(key)
        if found is None:
            replan = cost_inputs(a, catalog, when, stale_days)
            replan.sized[O.REPLAN] = True
            found = plans[key] = (size_workloads(a, catalog, shape), replan)
            if not measurements and key == O.planning_key(answers):
                # Planned alike: what the main plan built serves the re-plan as it is.
                schedules = {w.kind: w.schedule for w in d.workloads}
                O.seed_replan(replan, found[0], answers, schedules, built_all, lang)
        return found

    d, built_all, mode_docs = cost_aware(answers, catalog, d, sized, ci, lang)
    # What the flips may reuse of this plan: the re-plans plan without measured runs.
    planned_now = {} if measurements else R.planned_now(answers, scored, d, built_all)
    for i, (wd, (_, reasons)) in enumerate(zip(d.workloads, per_workload_reasons, strict=True)):
        built = built_all[(wd.kind, wd.accelerator, wd.mode)]
        options = built.options
        preferred = scored.workloads[i].accelerator
        if wd.accelerator != preferred:
            ruled = next(
                (
                    b.excluded
                    for key, b in built_all.items()
                    if key[0] == wd.kind and key[1] == preferred and b.excluded
                ),
                [],
            )
            notes.append(
                i18n.message(
                    "family.fallback",
                    lang,
                    kind=i18n.label(wd.kind, lang),
                    preferred=i18n.label(preferred, lang),
                    family=i18n.label(wd.accelerator, lang),
                    why=f" ({ruled[0]['name']}: {ruled[0]['reason']})" if ruled else "",
                )
            )
        if options:
            _house_from_hosted_modes(answers, catalog, wd, sized, ci, lang, built_all, options)
        mode_doc = mode_docs.get(wd.kind)
        if mode_doc and mode_doc["reason"]:
            notes.append(mode_doc["reason"])
        notes += ON.first_option_notes(
            wd.kind, wd.mode, options[0] if options else None, answers.organization.regions, lang
        )
        whole = ON.whole_server_note(wd.kind, options, answers.cost.monthly_budget_usd, lang)
        if whole is not None:
            notes.append(whole)
        if options:
            # Each short run's fixed overhead; a commitment on an older card.
            for said in (
                Q.overhead_statement(wd.kind, options[0], lang),
                Q.peak_statement(wd.kind, wd.mode, options[0], lang),
                Q.lock_in_statement(options[0], catalog, when, lang),
                Q.redundancy_statement(wd.kind, options[0], lang),
                Q.window_statement(wd.kind, options[0], catalog, lang)
                if options[0].get("window")
                else None,
            ):
                if said is not None:
                    notes.append(said)
        # Work in its own unit says how it was sized and what a unit costs.
        work_said = NL.statement(wd.kind, options[0] if options else None, lang)
        if work_said is not None:
            notes.append(work_said)
        china_note = ON.china_note(wd.kind, options[0] if options else None, lang)
        if china_note is not None:
            notes.append(china_note)
        reach_note = ON.china_reach_note(wd.kind, options[0] if options else None, catalog, lang)
        if reach_note is not None:
            notes.append(reach_note)
        others = [a for a in wd.feasible_accelerators if a != wd.accelerator]
        alternatives = (
            O.build(
                catalog,
                answers,
                wd.kind,
                wd.schedule,
                others[0],
                "public_cloud" if others[0] == "tpu" else wd.mode,
                sized,
                ci,
                lang,
            ).options[:3]
            if others
            else []
        )
        first = options[0] if options else None
        firsts_by_kind[wd.kind] = first
        workload_rules.append(rules_for_workload(wd.kind, first, mode_docs.get(wd.kind)))
        card_conf = card_confidence(options, catalog, answers.cost.monthly_budget_usd)
        family_conf = SC.confidence(wd.accelerator_margin, wd.max_margin, scoring)
        mode_conf = SC.confidence(wd.mode_margin, wd.max_margin, scoring)
        target_warnings = target_warning_notes(
            wd.kind, options, answers, catalog, lang, built.dominated
        )
        notes += target_warnings
        notes += missed_notes(wd.kind, options, lang)
        notes += thin_margin_notes(wd.kind, options, catalog, lang)
        notes += dominated_notes(wd.kind, built.dominated, lang)
        notes += indicative_first_note(wd.kind, options, lang)
        notes += house_first_note(wd.kind, options, lang)
        notes += lead_passed_over_notes(wd.kind, options, lang)
        notes += first_here_notes(wd.kind, options, answers.organization.regions, lang)
        conf_parts.append((family_conf, mode_conf, card_conf))
        w_billing = (
            first["billing"]
            if first and first.get("billing")
            else BL.billing_advice(wd.mode, full_facts, catalog)[0]
        )
        for o in options[:1]:
            best_options.append({**o, "workload": wd.kind})
        for o in options + alternatives:
            for p in o["prices"].values():
                if p is not None:
                    price_docs[p["price_id"]] = p
        workloads_doc.append(
            {
                "kind": wd.kind,
                "schedule": wd.schedule,
                "accelerator": wd.accelerator,
                "deployment_mode": wd.mode,
                "billing": w_billing,
                "confidence": min(conf_parts[-1]),
                "confidence_parts": dict(
                    zip(("family", "mode", "card"), conf_parts[-1], strict=True)
                ),
                "scores": {o: round(v, 3) for o, v in zip(SC.OPTIONS, wd.scores, strict=True)},
                "feasible": {
                    "accelerators": list(wd.feasible_accelerators),
                    "deployment_modes": list(wd.feasible_modes),
                },
                "reasons": [_drop_private(r) for r in reasons if r["contribution"]],
                "options": options,
                "alternatives": alternatives,
                "excluded_options": built.excluded,
                "mode_decision": mode_docs.get(wd.kind),
                "rules": workload_rules[-1],
                "dominated_options": built.dominated,
                "target_warnings": target_warnings,
                "pilot": P.pilot(
                    wd.kind,
                    options,
                    answers,
                    catalog,
                    training_doc if wd.kind in A.TRAINING_KINDS else None,
                    lang,
                ),
            }
        )
        if (
            not options
            and wd.kind != "preprocessing"
            and shape is None
            and (answers.work is not None and wd.kind in A.INFERENCE_KINDS)
        ):
            notes.append(
                i18n.message(
                    "cost.no_option",
                    lang,
                    kind=i18n.label(wd.kind, lang),
                    accelerator=i18n.label(wd.accelerator, lang),
                    mode=i18n.label(wd.mode, lang),
                )
            )
        # Work in its own unit has no model shape but is planned all the same: it can end dead.
        in_units = answers.work is not None and wd.kind in A.INFERENCE_KINDS
        dead = (
            None
            if shape is None and not in_units
            else R.dead_end(
                catalog,
                answers,
                wd.kind,
                wd.schedule,
                wd.mode,
                options,
                built.excluded,
                plan,
                lang,
            )
        )
        if dead is not None:
            # Never a bare "no priced option": what rules every option out,
            # the relaxations that bring one back and, where the operator sells, a quote.
            workloads_doc[-1]["dead_end"] = dead
            notes.append(dead["statement"])
            relaxations += dead["relaxations"]

    split_note = None
    if d.split:
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
        split_note = i18n.message("split.note", lang, parts=parts)

    prices_used = {pid: {k: p[k] for k in _PRICE_USED_KEYS} for pid, p in price_docs.items()}
    stale = [p for p in prices_used.values() if p["stale"]]
    if "mainland_china" in answers.organization.regions and (
        answers.deployment.data_residency != "none"
        or answers.organization.regions == ("mainland_china",)
    ):
        # A mainland-facing service hosted in mainland China needs ICP filing.
        notes.append(i18n.message("china.icp", lang))
    if stale:
        notes.append(i18n.message("cost.stale", lang, count=len(stale), days=f"{stale_days:g}"))
    # Preprocessing is CPU work: its server is sized and priced apart and counts in the total.
    cpu_server = (
        preprocessing_server_doc(answers, catalog, lang)
        if "preprocessing" in answers.kinds
        else None
    )
    cpu_usd = float(cpu_server["price"]["usd_per_month"]) if cpu_server else 0.0
    if cpu_server is not None:
        for wdoc in workloads_doc:
            if wdoc["kind"] == "preprocessing":
                feasible = cast(dict[str, list[str]], wdoc["feasible"])["deployment_modes"]
                wdoc.update(cpu_workload(cpu_server, feasible, str(wdoc["deployment_mode"])))
    # Operations staff once per team: each option's own month carries the staff its fleet
    # needs alone (options compare on it), but the team runs one practice per mode.
    modes_of = {str(w["kind"]): str(w["deployment_mode"]) for w in workloads_doc}
    priced = [o for o in best_options if o["monthly_cost_usd"] is not None]
    staff = team_staff(
        [
            (
                modes_of[o["workload"]],
                int(o["staff_basis"]["units"]),
                float(o["staff_basis"]["share"]),
            )
            for o in priced
            if o.get("staff_basis")
        ],
        ci,
    )
    # Workloads on the same servers share one fleet where their hours allow (fleet.py).
    fleet = FL.plan(answers, priced, modes_of, catalog, lang)
    fleet_saves = float(fleet["saves_usd_per_month"]) if fleet else 0.0
    if fleet:
        notes += [g["statement"] for g in fleet["groups"]]
    staff_usd, bought_in_usd = staff.in_house_usd, staff.bought_in_usd
    # Compute and hosting: what the providers bill (the budget is checked against it alone).
    compute_total = (
        sum(
            o["monthly_cost_usd"]
            - float(o.get("staff_usd_per_month") or 0)
            - float(o.get("ops_bought_in_usd_per_month") or 0)
            for o in priced
        )
        + cpu_usd
        - fleet_saves
    )
    monthly_total = compute_total + staff_usd + bought_in_usd
    budget = answers.cost.monthly_budget_usd
    over_budget = Q.budget_statement(compute_total, budget, lang, staff_usd, bought_in_usd)
    if over_budget is not None:
        notes.append(over_budget)
    storage_gb = 0.0
    if answers.training is not None:
        storage_gb = (
            answers.training.dataset_tokens * catalog.figure("dataset_bytes_per_token") / 1e9
        )
    server_option = max(best_options, key=lambda o: o["count"], default=None)
    weight_bytes = imem.weight_bytes if imem is not None else None
    servers = [
        {
            "workload": o["workload"],
            **(server_doc(o, catalog, storage_gb, lang, weight_bytes) or {}),
        }
        for o in best_options
    ]
    if cpu_server is not None:
        servers.append(cpu_server)
    for wdoc in workloads_doc:
        dead_doc = cast(dict[str, Any], wdoc.get("dead_end") or {})
        quote = dead_doc.get("quote")
        if quote is not None:
            quote["sized_server"] = quote_server(quote, catalog, storage_gb, lang, weight_bytes)
    figures_used = {
        k: dict(v) for k, v in catalog.memo("figures_used", lambda: _figures(catalog)).items()
    }
    staff_doc, staff_note = staff_section(answers, catalog, lang)
    if staff_note is not None:
        notes.append(staff_note)
    billing_reason = i18n.message(
        billing_code,
        lang,
        break_even=i18n.percent(break_even),
        utilisation=i18n.percent(utilisation),
    )
    # The headline billing is the billing the shown price uses (of the costliest workload).
    headline = headline_option(best_options)
    if headline is not None:
        billing = headline["billing"]
        slot = headline["billing_used"]
        be = (
            headline["break_even_utilisation"].get(slot)
            if slot in ("monthly", "commit_1y", "commit_3y")
            else None
        )
        fixed_priced = any(
            headline["compute_usd_per_month"].get(s) is not None
            for s in ("monthly", "commit_1y", "commit_3y")
        )
        # The lowest break-even among the fixed prices the option has: on-demand at or above it
        # was chosen for another reason (paying as one goes was asked, demand is unpredictable),
        # never "below the break-even".
        fixed_be = [
            v
            for k, v in headline["break_even_utilisation"].items()
            if v is not None and headline["compute_usd_per_month"].get(k) is not None
        ]
        above = bool(fixed_be) and headline["utilisation"] + 1e-9 >= min(fixed_be)
        code = (
            "billing.on_block"
            if slot in ("capacity_block", "flex_start")
            else "billing.only_on_demand"
            if slot == "on_demand" and not fixed_priced
            else "billing.on_demand_as_asked"
            if slot == "on_demand" and above and answers.cost.billing == "pay_as_you_go"
            else "billing.on_demand_unpredictable"
            if slot == "on_demand" and above and answers.maturity.demand == "unpredictable"
            else "billing.follows_utilisation"
            if slot == "on_demand"
            else "billing.clears_break_even"
            if be is not None
            else "billing.hosted_term"
            if slot in ("commit_1y", "commit_3y")
            else "billing.hosted_monthly"
        )
        plan_key = f"billing.plan.{billing}"
        billing_reason = i18n.message(
            code,
            lang,
            billing=i18n.message(plan_key, lang)
            if plan_key in MESSAGES
            else i18n.label(billing, lang).capitalize(),
            kind=i18n.label(headline["workload"], lang),
            utilisation=i18n.percent(headline["utilisation"]),
            break_even=i18n.percent(be if be is not None else break_even),
        )
    if headline is not None:
        # Page one says plainly whether the billing asked for was honoured (and if not, why and
        # what it costs), the budget gap, and the lock-in of a commitment on an older card.
        same = cast(
            list[dict[str, Any]],
            next((w["options"] for w in workloads_doc if w["kind"] == headline["workload"]), []),
        )
        stated: list[str | None] = [
            Q.billing_statement(
                answers.cost.billing,
                headline,
                same,
                answers.maturity.demand != "unpredictable",
                lang,
            ),
            over_budget,
            Q.lock_in_statement(headline, catalog, when, lang),
        ]
        billing_reason = " ".join([billing_reason, *(x for x in stated if x)])
    applied = sorted({r for rules in workload_rules for r in rules}, key=O.RULES.index)
    recommendation = {
        "accelerator": d.accelerator,
        "deployment_mode": d.mode,
        "billing": billing,
        "billing_reason": billing_reason,
        "rules": [{"id": r, "statement": i18n.message(f"rule.{r}", lang)} for r in applied],
        "confidence": min(acc_conf, mode_conf, *(p[2] for p in conf_parts)),
        "confidence_parts": {
            "family": acc_conf,
            "mode": min([mode_conf, *(p[1] for p in conf_parts)]),
            "card": min([1.0, *(p[2] for p in conf_parts)]),
        },
        "mode_confidence": mode_conf,
        "confidence_formula": scoring.raw.get("confidence", {}).get("formula"),
        "scores": family_scores(d),
        "split": d.split,
        "split_note": split_note,
        "by_workload": {
            w.kind: {"accelerator": w.accelerator, "deployment_mode": w.mode} for w in d.workloads
        },
        "excluded": X.exclusion_docs(d.excluded, lang),
        "reasons": aggregated_reasons,
        "would_change_if": [
            *relaxations,
            *R.open_changes(
                real_changes(
                    X.would_change_if(full_facts, scored, scoring, ctx, lang),
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
                planned_now,
            ),
            *(
                lever
                for wd in d.workloads
                for lever in LV.levers(
                    catalog, answers, wd.kind, firsts_by_kind.get(wd.kind), sized, lang
                )
            ),
        ],
    }
    # The benchmark runs planned with (engine/measured.py): named even when the card they
    # measured no longer ranks among the options.
    measured_docs = {"measurements": [dataclasses.asdict(m) for m in measurements]}
    doc = {
        **(measured_docs if measurements else {}),
        "schema_version": RESULT_SCHEMA_VERSION,
        "versions": {
            "engine": ENGINE_VERSION,
            "scoring_model": {"name": scoring.name, "version": scoring.version},
            "catalog": catalog.version,
        },
        "lang": lang,
        "recommendation": recommendation,
        "workloads": workloads_doc,
        "sizing": {"training": training_doc, "inference": inference_doc},
        "server": next(
            (
                {k: v for k, v in srv.items() if k != "workload"}
                for srv in servers
                if server_option and srv.get("workload") == server_option["workload"]
            ),
            None,
        ),
        "servers": servers,
        **({"fleet": fleet} if fleet else {}),
        "cost": {
            "currency": "USD",
            "today": when.isoformat(),
            "stale_after_days": stale_days,
            "monthly_total_usd": round(monthly_total, 2),
            **({"cpu_usd_per_month": round(cpu_usd, 2)} if cpu_server is not None else {}),
            # Compute and hosting alone: the figure the budget is checked against.
            "compute_and_hosting_usd_per_month": round(compute_total, 2),
            # The team's own operations staff, counted once across its workloads.
            "staff_usd_per_month": round(staff_usd, 2),
            # Operations bought in (a managed service or a contractor), once per team.
            "ops_bought_in_usd_per_month": round(bought_in_usd, 2),
            # What one shared fleet saves against separate fleets (in the total).
            **({"fleet_saves_usd_per_month": round(fleet_saves, 2)} if fleet_saves else {}),
            "monthly_budget_usd": budget,
            "by_workload": [
                {
                    "workload": o["workload"],
                    "accelerator_id": o["accelerator_id"],
                    "count": o["count"],
                    "monthly_cost_usd": o["monthly_cost_usd"],
                    "billing_used": o["billing_used"],
                    "compute_usd_per_month": o["compute_usd_per_month"],
                    "storage_usd_per_month": o["storage_usd_per_month"],
                    "egress_usd_per_month": o["egress_usd_per_month"],
                    "idle_usd_per_month": o["idle_usd_per_month"],
                    "staff_usd_per_month": o["staff_usd_per_month"],
                    "ops_bought_in_usd_per_month": o.get("ops_bought_in_usd_per_month"),
                    **(
                        {"china_bandwidth_usd_per_month": o["china_bandwidth_usd_per_month"]}
                        if "china_bandwidth_usd_per_month" in o
                        else {}
                    ),
                    "break_even_utilisation": o["break_even_utilisation"],
                    "cost_per_run_usd": o.get("cost_per_run_usd"),
                    "cost_per_million_output_tokens_usd": o.get(
                        "cost_per_million_output_tokens_usd"
                    ),
                }
                for o in best_options
            ],
            "prices_used": sorted(prices_used.values(), key=lambda p: p["price_id"]),
            "figures_used": figures_used,
            "staff": staff_doc,
            "gaps": [i18n.catalog_text(g, lang) for g in catalog.open_gaps],
            "notes": notes,
        },
    }
    # Built as plain dicts (they are JSON); document.py states the shape readers rely on.
    return cast(ResultDocument, doc)


_PRICE_USED_KEYS = (
    "price_id",
    "provider",
    "region",
    "source",
    "as_of",
    "stale",
    "estimated",
    "derived",
    "gpus_per_unit",
    "sold_as",
)


_HOSTED_MODES = ("dedicated_hosting", "bare_metal")


def _house_from_hosted_modes(
    answers: A.Answers,
    catalog: Catalog,
    wd: SC.WorkloadDecision,
    sized: O.Sized,
    ci: BL.CostInputs,
    lang: str,
    built: MC.Built,
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
    near = R.neighbours(catalog, answers.organization.regions)
    first = O.beside_first(options)
    listed = list(first.get("house_on_request") or [])
    seen = {str(h["price_id"]) for h in listed}
    # The server that prices the first option is its plan, not a server beside it.
    own = O.billed_price(first)
    if own:
        seen.add(str(own["price_id"]))
    for mode in allowed:
        key = (wd.kind, wd.accelerator, mode)
        if key not in built:
            built[key] = O.build(
                catalog, answers, wd.kind, wd.schedule, wd.accelerator, mode, sized, ci, lang
            )
        for offer in O.house_offers(built[key].options, near, lang=lang):
            if offer["price_id"] not in seen:
                seen.add(offer["price_id"])
                listed.append({**offer, "deployment_mode": mode})
    if listed:
        first["house_on_request"] = listed


def cpu_workload(server: Mapping[str, Any], feasible: Sequence[str], mode: str) -> dict[str, Any]:
    """The preprocessing workload as the CPU work it is: its family, where its CPU server is
    rented among the workload's feasible modes and how it is paid, and the plan (vCPUs,
    servers, a month's price)."""
    price = server["price"]
    hosted = [m for m in ("dedicated_hosting", "bare_metal") if m in feasible]
    if price["billing"] == "monthly" and hosted:
        mode = hosted[0]
    elif price["billing"] != "monthly" and "public_cloud" in feasible:
        mode = "public_cloud"
    return {
        "accelerator": "cpu",
        "deployment_mode": mode,
        "billing": "monthly_fixed" if price["billing"] == "monthly" else "on_demand",
        "cpu_plan": {
            "vcpu": price["vcpu"],
            "servers": price.get("servers"),
            "vcpu_per_server": price.get("vcpu_per_server"),
            "ram_gib": server["ram_gib"],
            "nvme_tb": server["nvme_tb"],
            "billing": price["billing"],
            "hours_per_month": price.get("hours_per_month"),
            "usd_per_month": price["usd_per_month"],
        },
    }


def _figures(catalog: Catalog) -> dict[str, dict[str, Any]]:
    return {
        k: {
            kk: v[kk]
            for kk in ("value", "unit", "source", "as_of", "estimated", "derived")
            if kk in v
        }
        for k, v in catalog.figures.items()
    }
