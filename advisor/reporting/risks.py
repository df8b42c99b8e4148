"""The risks the result itself shows and the next steps, in the report's language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from django.utils.translation import gettext as _

from advisor.charts.results import INFERENCE_KINDS, TRAINING_KINDS
from advisor.engine.result.document import ResultDocument
from advisor.labels import label_for
from advisor.reporting import dead_ends
from advisor.reporting.text import customer_text

LOW_CONFIDENCE = 0.7


def risk_lines(
    result: ResultDocument, workloads: list[dict[str, Any]], memory: list[dict[str, Any]]
) -> list[str]:
    """Risks the result itself shows: prices, confidence, splits, sharding, known gaps."""
    rec = result["recommendation"]
    cost = result["cost"]
    # What the engine says about a workload's target (nothing meets it, or only inside the
    # safety margin) leads the risks, so page one shows it.
    risks: list[str] = [
        customer_text(t) for w in result["workloads"] for t in w.get("target_warnings") or ()
    ]
    stale = [p for p in cost["prices_used"] if p["stale"]]
    if stale:
        risks.append(
            _(
                "%(count)s of the %(total)s prices used are older than %(days)s days or undated: "
                "confirm them with the provider before quoting."
            )
            % {
                "count": len(stale),
                "total": len(cost["prices_used"]),
                "days": f"{cost['stale_after_days']:.0f}",
            }
        )
    for w in workloads:
        unpriced = [o for o in w["options"] if o.get("monthly_cost_usd") is None]
        kind = label_for("kind", w["kind"])
        if w["options"] and len(unpriced) == len(w["options"]):
            risks.append(
                _(
                    "%(kind)s: no price in the catalog for this deployment mode, so the cost "
                    "comparison is missing; ask vendors for quotes."
                )
                % {"kind": kind}
            )
        elif unpriced:
            risks.append(
                _("%(kind)s: %(count)s of %(total)s options have no price and are not compared.")
                % {"kind": kind, "count": len(unpriced), "total": len(w["options"])}
            )
        raw = next(r for r in result["workloads"] if r["kind"] == w["kind"])
        if dead_ends.is_dead(raw) or (
            w["confidence"] is not None and float(w["confidence"]) < LOW_CONFIDENCE
        ):
            # Worded from the same fields the plan shows.
            risks.append(
                dead_ends.workload_confidence_risk(
                    cast(Mapping[str, Any], raw), str(kind), float(w["confidence"] or 0)
                )
            )
        late = [o for o in w["options"] if o.get("meets_deadline") is False]
        slow = [o for o in w["options"] if o.get("meets_latency") is False]
        if late:
            risks.append(
                _("%(kind)s: %(count)s option(s) miss the deadline you set.")
                % {"kind": kind, "count": len(late)}
            )
        if slow:
            risks.append(
                _("%(kind)s: %(count)s option(s) miss the latency target.")
                % {"kind": kind, "count": len(slow)}
            )
    confidence = rec["confidence"]
    if confidence < LOW_CONFIDENCE:
        risks.append(
            dead_ends.overall_confidence_risk(cast(Mapping[str, Any], result), float(confidence))
        )
    if rec["split"]:
        risks.append(
            _(
                "Training and inference run on different infrastructure: plan to move "
                "checkpoints and models between them and to run two platforms."
            )
        )
    for m in memory:
        if not m["sizing"]["fits_single_device"]:
            risks.append(
                _(
                    "%(phase)s does not fit on any single device: it needs sharding or "
                    "parallelism and a fast interconnect."
                )
                % {"phase": _("Training") if m["phase"] == "training" else _("Serving")}
            )
    total, budget = cost["monthly_total_usd"], cost["monthly_budget_usd"]
    if total and budget and total > budget:
        risks.append(
            _("The estimated monthly total (%(total)s) is above the budget (%(budget)s).")
            % {"total": f"${float(total):,.0f}", "budget": f"${float(budget):,.0f}"}
        )
    for gap in cost["gaps"]:
        risks.append(_("Not in the price catalog yet: %(gap)s.") % {"gap": customer_text(gap)})
    return risks


def next_step_lines(result: ResultDocument, workloads: list[dict[str, Any]]) -> list[str]:
    # A dead end's own next step first: the quote, or the answer to change.
    dead = [customer_text(w["dead_end"]["next"]) for w in result["workloads"] if w.get("dead_end")]
    steps = [
        *dead,
        _(
            "Run a pilot on the recommended accelerator with your own model and data; compare "
            "measured throughput and memory with the figures here."
        ),
        _("Get written quotes for the recommended option and its runner-up, with dates."),
    ]
    if any(w["kind"] in INFERENCE_KINDS for w in workloads):
        steps.append(
            _(
                "Load-test the serving stack at your peak traffic and check time to first token "
                "and time per output token against your target."
            )
        )
    if any(w["kind"] in TRAINING_KINDS for w in workloads):
        steps.append(
            _(
                "Time one full training run and checkpoint restore; use spot capacity only if "
                "the job resumes from checkpoints."
            )
        )
    if any(w["billing"] in ("monthly_fixed", "purchase") for w in workloads):
        steps.append(
            _("Check utilisation after a month before committing to fixed or owned capacity.")
        )
    steps.append(_("Regenerate this report when prices or your answers change."))
    return steps
