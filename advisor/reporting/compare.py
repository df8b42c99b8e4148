"""Two result documents side by side: each workload's first option (card, where it is sold,
billing, monthly cost, cost to the result, hours, latency), and a what-if against its report."""

from __future__ import annotations

from typing import Any, cast

from advisor.charts.results import chosen_option
from advisor.engine.result.document import ResultDocument, Workload
from advisor.reporting.options import cost_per_result, where_sold

# What the compare page shows of each workload's first option, in this order.
WORKLOAD_FIELDS = (
    "option",
    "where",
    "billing",
    "monthly_cost_usd",
    "cost_to_result",
    "hours",
    "latency_ms",
)


def _first_option(result: dict[str, Any], workload: dict[str, Any]) -> dict[str, Any]:
    """The facts a buyer compares about the option the report leads with for a workload."""
    chosen = chosen_option(cast(ResultDocument, result), cast(Workload, workload))
    option: dict[str, Any] = dict(chosen) if chosen else {}
    if not option:
        return {}
    price = (option.get("prices") or {}).get(option.get("billing_used") or "") or {}
    where = where_sold(price)
    cost, per = cost_per_result(option, str(workload.get("kind")))
    return {
        "option": f"{option.get('name')} × {option.get('count')}",
        "where": where or None,
        "billing": option.get("billing_used"),
        "monthly_cost_usd": option.get("monthly_cost_usd"),
        "cost_to_result": (cost, per) if cost is not None else None,
        "hours": option.get("hours") if "meets_deadline" in option else None,
        "latency_ms": option.get("latency_at_metric_ms"),
        "latency_metric": option.get("latency_metric"),
    }


def workload_changes(left: dict[str, Any], right: dict[str, Any]) -> list[dict[str, Any]]:
    """Per workload kind in either result: its first option's card and count, where it is
    priced, billing, monthly cost, cost to the result, hours per run and latency, side by side."""

    def by_kind(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {str(w.get("kind")): _first_option(result, w) for w in result.get("workloads") or []}

    a, b = by_kind(left), by_kind(right)
    out = []
    for kind in [*a, *(k for k in b if k not in a)]:
        before, after = a.get(kind, {}), b.get(kind, {})
        fields = [
            {
                "field": f,
                "left": before.get(f),
                "right": after.get(f),
                "pair": (before.get(f), after.get(f)),
                "changed": before.get(f) != after.get(f),
                "metric": after.get("latency_metric") or before.get("latency_metric"),
            }
            for f in WORKLOAD_FIELDS
            if before.get(f) is not None or after.get(f) is not None
        ]
        out.append({"kind": kind, "fields": fields, "changed": any(x["changed"] for x in fields)})
    return out


# Figures of a first option whose difference a what-if states (what-if minus the report).
_NUMERIC = {"monthly_cost_usd", "hours", "latency_ms"}


def what_if_comparison(*, report: ResultDocument, what_if: ResultDocument) -> dict[str, Any]:
    """A report's result beside a what-if's: the recommendation, each workload's first option
    (workload_changes' fields, with the difference of the figures and the time or latency
    target it is held to) and what would change the what-if's answer."""
    before, after = report["recommendation"], what_if["recommendation"]
    targets: dict[str, dict[str, Any]] = {}
    for workload in what_if["workloads"]:
        option = chosen_option(what_if, workload)
        if option is None:
            continue
        targets[workload["kind"]] = {
            "latency_ms": option.get("latency_target_ms"),
            "hours": option.get("target_hours"),
            "meets_latency": option.get("meets_latency"),
            "meets_deadline": option.get("meets_deadline"),
        }
    workloads = workload_changes(cast(dict[str, Any], report), cast(dict[str, Any], what_if))
    for w in workloads:
        for f in w["fields"]:
            f["delta"] = None
            if f["field"] in _NUMERIC and None not in f["pair"]:
                f["delta"] = f["right"] - f["left"]
            elif (
                f["field"] == "cost_to_result"
                and None not in f["pair"]
                and f["left"][1] == f["right"][1]  # per run against per run, not per month
            ):
                f["delta"] = f["right"][0] - f["left"][0]
            if not f["delta"]:
                f["delta"] = None  # no difference reads as "—", not "$0.00"
            f["delta_abs"] = abs(f["delta"]) if f["delta"] is not None else None
            f["target"] = targets.get(w["kind"], {}).get(f["field"])
        w["targets"] = targets.get(w["kind"], {})
    return {
        "recommendation": [
            {"field": name, "left": before.get(name), "right": after.get(name)}
            for name in ("accelerator", "deployment_mode", "billing")
        ],
        "recommendation_changed": any(
            before.get(name) != after.get(name)
            for name in ("accelerator", "deployment_mode", "billing")
        ),
        "workloads": workloads,
        "would_change_if": [c["explanation"] for c in after["would_change_if"]],
    }
