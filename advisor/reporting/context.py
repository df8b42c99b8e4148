"""Everything the report templates show, derived from a frozen result document.

Rendering only reads the result document; nothing here calls the engine, so an old report
renders from its own numbers. Charts are SVG images from `advisor.charts`."""

from __future__ import annotations

from typing import Any, cast

from django.utils.translation import gettext_lazy as _lazy

from advisor.charts.report import cost_chart, memory_chart, serving_chart, time_cost_chart
from advisor.charts.results import (
    INFERENCE_KINDS,
    TRAINING_KINDS,
    chosen_option,
    option_run_cost,
    option_token_cost,
    pinned_catalog,
)
from advisor.charts.svg import as_data_uri
from advisor.engine.result.document import (
    Change,
    InferenceSizing,
    ResultDocument,
    TrainingSizing,
    Workload,
)
from advisor.engine.text import i18n
from advisor.labels import label_for
from advisor.labels import price_page as _price_page
from advisor.reporting.costs import (
    break_even_text,
    china_bandwidth_row,
    china_egress_row,
    figure_rows,
    offer_source_rows,
    on_request_rows,
    price_source_rows,
    tco_rows,
    unit_work_context,
)
from advisor.reporting.options import (
    BILLING_SLOTS,
    in_units,
    option_price,
    target_flagged,
    target_verdict,
)
from advisor.reporting.plans import confidence_context, every_plan_dead, plan_context
from advisor.reporting.risks import next_step_lines, risk_lines
from advisor.reporting.text import customer_text, glossary_rows
from advisor.reporting.why import excluded_row, lever_row, reason_row, why_option

# The unit fields a catalog may mark as estimated, as the server section names them.
_UNIT_FIELDS = {
    "vcpu": _lazy("CPU cores"),
    "ram_gb": _lazy("RAM"),
    "nvme_gb": _lazy("NVMe"),
    "network_gbps": _lazy("Network"),
    "gpu_link": _lazy("GPU link"),
}


def budget_split(cost: Any) -> dict[str, Any] | None:
    """The monthly total as compute (with storage, egress and routes), the team's own
    operations staff and operations bought in, which a budget is checked against apart; None
    when there is no total."""
    total = cost.get("monthly_total_usd")
    if not total:
        return None
    staff = cost.get("staff_usd_per_month")
    if staff is None:  # results before engine 2.5 summed each workload's staff
        staff = sum(float(c.get("staff_usd_per_month") or 0) for c in cost.get("by_workload") or [])
    staff = float(staff)
    bought = float(cost.get("ops_bought_in_usd_per_month") or 0)
    legacy = "ops_bought_in_usd_per_month" not in cost
    return {
        "compute": max(0.0, float(total) - staff - bought),
        "staff": staff + bought,
        "own_staff": staff,
        "bought_in_usd": bought,
        # Older results kept bought-in hours inside the staff figure (flagged by the answers).
        "bought_in": (bought > 0 and staff == 0)
        or (legacy and bool((cost.get("staff") or {}).get("bought_in")) and staff > 0),
    }


def report_context(result: ResultDocument, *, language: str) -> dict[str, Any]:
    """Everything the report templates show, derived from the result document (normalised:
    see engine/result/document/). Call inside `override(language)`: the derived sentences are
    translated here."""
    rec = result["recommendation"]
    cost = result["cost"]
    names = _accelerator_names(result)
    workloads = [_workload_context(result, w, names) for w in result["workloads"]]
    sizing = result["sizing"]
    memory = [
        _memory_context(result, phase, phase_sizing, names, language)
        for phase, phase_sizing in (
            ("training", sizing["training"]),
            ("inference", sizing["inference"]),
        )
        if phase_sizing
    ]
    server = result["server"]
    training = [w for w in workloads if w["kind"] in TRAINING_KINDS and w["options"]]
    serving = [
        w for w in workloads if w["kind"] in INFERENCE_KINDS and w["options"] and not in_units(w)
    ]
    unit_work = [unit_work_context(w, language) for w in workloads if in_units(w)]
    cost_blocks = []
    for w in workloads:
        svg = cost_chart(result, language, workload=w["kind"])
        cost_blocks.append({**w, "chart": as_data_uri(svg) if svg else None})
    time_svg = time_cost_chart(result, language)
    serving_svg = serving_chart(result, language)
    plans = [
        plan_context(result, w, raw) for w, raw in zip(workloads, result["workloads"], strict=True)
    ]
    changes = [
        cast(Change, {**c, "explanation": customer_text(c["explanation"])})
        for c in rec["would_change_if"]
        if c.get("kind") != "lever"
    ]
    levers = [
        lever_row(c, names, language) for c in rec["would_change_if"] if c.get("kind") == "lever"
    ]
    risks = risk_lines(result, workloads, memory)
    return {
        "result": result,
        "rec": rec,
        "plans": plans,
        # Workloads on the same servers: one shared fleet, or separate and why
        # (engine/planning/fleet.py).
        "fleets": [
            customer_text(g["statement"]) for g in (result.get("fleet") or {}).get("groups") or []
        ],
        # Every workload is a dead end: no headline recommendation to state.
        "all_dead": every_plan_dead(plans),
        "confidence": confidence_context(result, workloads, changes, levers),
        "top_reasons": [reason_row(r) for r in rec["reasons"][:3]],
        "top_risks": risks[:5],
        "glossary": glossary_rows(),
        "versions": result["versions"],
        "split": rec["split"],
        "workloads": workloads,
        "memory": memory,
        "cost_blocks": cost_blocks,
        "training": training,
        "time_chart": as_data_uri(time_svg) if time_svg else None,
        "serving": serving,
        "unit_work": unit_work,
        "serving_chart": as_data_uri(serving_svg) if serving_svg else None,
        "server": server,
        "server_name": names.get(server["accelerator_id"] or "", "") if server else "",
        "cost": cost,
        "budget_split": budget_split(cost),
        "risks": risks,
        "next_steps": next_step_lines(result, workloads),
        "price_sources": price_source_rows(cost),
        "notes": [customer_text(n) for n in cost["notes"]],
        "gaps": [customer_text(g) for g in cost["gaps"]],
        "server_notes": [customer_text(n) for n in server["notes"]] if server else [],
        # The unit as sold is checked on its provider's page (no research-file names).
        "server_unit_page": _price_page(str(server["sold_as"].get("provider") or ""))
        if server and server.get("sold_as")
        else "",
        "server_estimated": [
            str(_UNIT_FIELDS.get(f, f))
            for f in ((server.get("sold_as") or {}).get("estimated_fields") or [])
        ]
        if server
        else [],
        "split_note": customer_text(rec["split_note"] or ""),
        "billing_reason": customer_text(rec["billing_reason"] or ""),
        "figures": figure_rows(cost, language),
        "excluded": [excluded_row(e) for e in rec["excluded"]],
        "reasons": [reason_row(r) for r in rec["reasons"]],
        # Result schema 2 and later: why each workload's option, the rules and the levers. A v1
        # document has none of these (normalise leaves them empty), and the report leaves
        # their sections out.
        "why_options": [w["why"] for w in workloads if w["why"]],
        "rules": [
            {"name": label_for("rule", r["id"]), "statement": customer_text(r["statement"])}
            for r in rec["rules"]
        ],
        # A flip of family and mode has no kind; a numeric lever's is "lever".
        "changes": changes,
        "levers": levers,
    }


def _accelerator_names(result: ResultDocument) -> dict[str, str]:
    # The names of the catalog version the result used; the result's own names win.
    catalog = pinned_catalog(result)
    names = {acc.id: acc.name for acc in catalog.accelerators} if catalog is not None else {}
    for w in result["workloads"]:
        for o in w["options"]:
            names[o["accelerator_id"]] = o["name"]
    return names


def _workload_context(result: ResultDocument, w: Workload, names: dict[str, str]) -> dict[str, Any]:
    chosen = chosen_option(result, w)
    lang = result["lang"]
    options: list[dict[str, Any]] = []
    for o in w["options"]:
        compute = o["compute_usd_per_month"]
        run_cost, run_slot = option_run_cost(o)
        token_cost, token_slot = option_token_cost(o)
        options.append(
            {
                **o,
                "chosen": chosen is not None and o["accelerator_id"] == chosen["accelerator_id"],
                "compute": [compute.get(slot) for slot in BILLING_SLOTS],
                "run_cost": run_cost,
                "run_billing": run_slot,
                "token_cost": token_cost,
                "token_billing": token_slot,
                "interconnect_text": i18n.message(o["interconnect"], lang)
                if o["interconnect"]
                else "",
                # Serving options only.
                "capacity_tps": o.get("tokens_per_second_per_replica", 0) * o.get("replicas", 1),
                # Every option that misses its target (or meets it inside the safety
                # margin) is marked where it is listed.
                "target_verdict": target_verdict(o),
                "target_flag": target_flagged(o),
                "price": option_price(o),
            }
        )
    return {
        "kind": w["kind"],
        "accelerator": w["accelerator"],
        "deployment_mode": w["deployment_mode"],
        "billing": w["billing"],
        "confidence": w["confidence"],
        "chosen": chosen,
        "offer_sources": offer_source_rows(options),
        "on_request": on_request_rows(options),
        "break_even": break_even_text(chosen),
        # Owned hardware's cost of ownership, line by line with its sources.
        "tco": tco_rows(chosen, result),
        "why": why_option(w, chosen, names),
        "options": options,
        "billing_slots": [
            s
            for s in BILLING_SLOTS
            if any(o["compute"][BILLING_SLOTS.index(s)] is not None for o in options)
        ],
        "china_bandwidth": [china_bandwidth_row(o) for o in options if o.get("china_bandwidth")],
        "china_egress": [china_egress_row(o) for o in options if o.get("china_egress")],
    }


def _memory_context(
    result: ResultDocument,
    phase: str,
    sizing: TrainingSizing | InferenceSizing,
    names: dict[str, str],
    language: str,
) -> dict[str, Any]:
    svg = memory_chart(result, language, phase=phase)
    # The chart shows the fewest devices per candidate; the text adds which cards cannot hold
    # the model at all and, for cards that need several devices, how they talk to each other.
    min_devices = sizing["min_devices"]
    interconnect = sizing["interconnect"]
    no_fit = [names.get(a, a) for a, n in min_devices.items() if not n]
    grouped: dict[str, list[str]] = {}
    for acc_id, n in min_devices.items():
        if n and n > 1 and interconnect.get(acc_id):
            grouped.setdefault(interconnect[acc_id], []).append(
                f"{names.get(acc_id, acc_id)} × {n}"
            )
    return {
        "phase": phase,
        "sizing": sizing,
        "parts": [(k, v) for k, v in sizing["memory_gib"].items() if k != "total"],
        "total": sizing["memory_gib"].get("total"),
        "fits": [names.get(a, a) for a in sizing["fits_single_device"]],
        "no_fit": no_fit,
        "interconnects": list(grouped.items()),
        "assumptions": [customer_text(a) for a in sizing["assumptions"]],
        "chart": as_data_uri(svg) if svg else None,
    }
