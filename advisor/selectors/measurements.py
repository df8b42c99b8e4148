"""Measured benchmark runs: a report's first serving option, what a version re-planned with a
measured run changed, an organisation's measurements and the measured-over-estimated ratios."""

from __future__ import annotations

import math
from typing import Any

from django.http import Http404

from advisor.engine.sizing.measured import SLOWEST_SHARE
from advisor.models import Assessment, Measurement, Report


def first_serving_option(result: Any) -> dict[str, Any] | None:
    if not isinstance(result, dict):
        return None
    for w in result.get("workloads") or []:
        if w.get("kind") in ("realtime_inference", "batch_inference") and w.get("options"):
            first: dict[str, Any] = w["options"][0]
            return first
    return None


def _cost_per_million(option: dict[str, Any]) -> float | None:
    costs = option.get("cost_per_million_output_tokens_usd") or {}
    value = costs.get(option.get("billing_used") or "on_demand")
    return float(value) if isinstance(value, int | float) else None


def report_measured(*, report: Report) -> dict[str, Any] | None:
    """For a version re-planned with measured figures (its result names `measurements`): what
    was measured on the card the earlier version put first, and what changed against that
    version (card, devices, replicas, cost per million output tokens, latency target)."""
    result = report.result if isinstance(report.result, dict) else {}
    runs = result.get("measurements") or []
    first = first_serving_option(result)
    if not runs or first is None:
        return None
    before = first_serving_option(report.based_on.result) if report.based_on else None
    card = (before or first)["accelerator_id"]
    measured = [
        o
        for w in result.get("workloads") or []
        for o in w.get("options") or []
        if o.get("measured")
    ]
    option = next((o for o in measured if o.get("accelerator_id") == card), None)
    option = option or (measured[0] if measured else None)
    doc = (option or {}).get("measured") or {}
    run = _applied_run(runs, option) or runs[-1]
    estimated = (doc.get("estimated") or {}).get("tokens_per_second_per_replica")
    if estimated is None and before is not None:
        estimated = before.get("tokens_per_second_per_replica")
    rows = []
    if before is not None:
        for key, after_value, before_value in (
            ("card", first.get("name"), before.get("name")),
            ("count", first.get("count"), before.get("count")),
            ("replicas", first.get("replicas"), before.get("replicas")),
            ("cost", _cost_per_million(first), _cost_per_million(before)),
            ("meets", first.get("meets_latency"), before.get("meets_latency")),
        ):
            rows.append(
                {
                    "key": key,
                    "before": before_value,
                    "after": after_value,
                    "changed": before_value != after_value,
                }
            )
    name = (option or before or {}).get("name") or run["accelerator_id"]
    return {
        "card": name,
        "run": run,
        "estimated_tps": estimated,
        "measured_tps": (option or {}).get("tokens_per_second_per_replica")
        or run.get("output_tokens_per_s"),
        "scaled": bool(doc.get("scaled_to_batch")),
        "batch": (option or before or {}).get("batch_per_replica"),
        "no_longer_first": first.get("accelerator_id") != run["accelerator_id"],
        "changes": rows,
        "based_on": report.based_on,
    }


_RUN_KEYS = ("source", "tool", "measured_on", "model_id", "serving", "concurrency")


def _applied_run(
    runs: list[dict[str, Any]], option: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The run whose figures `option` was planned with: the one its `measured` names by
    position (a result planned before it did: the last pasted run that matches it)."""
    if option is None:
        return None
    doc = option.get("measured") or {}
    index = doc.get("run")
    if isinstance(index, int) and 0 <= index < len(runs):
        return runs[index]
    return next(
        (
            r
            for r in reversed(runs)
            if r.get("accelerator_id") == option.get("accelerator_id")
            and all(r.get(k) == doc.get(k) for k in _RUN_KEYS)
        ),
        None,
    )


def organization_measurements(
    *, assessment: Assessment, accelerator_id: str | None = None
) -> list[Measurement]:
    """The measurements of the assessment's organisation (newest first), of one card when
    `accelerator_id` is given: the measurements page lists them, each with a delete button."""
    rows = Measurement.objects.filter(organization_id=assessment.organization_id)
    if accelerator_id is not None:
        rows = rows.filter(accelerator_id=accelerator_id)
    return list(rows.select_related("created_by").order_by("-created_at"))


def organization_measurement_get(*, assessment: Assessment, pk: int) -> Measurement:
    """One measurement of the assessment's organisation (the caller got the assessment through
    assessment_get_for_user, so the reader is a member of it), else 404."""
    if not 0 < pk < 2**63:  # beyond the key's 64 bits nothing is stored
        raise Http404
    try:
        return Measurement.objects.get(organization_id=assessment.organization_id, pk=pk)
    except Measurement.DoesNotExist as exc:
        raise Http404 from exc


def measured_option(result: Any) -> dict[str, Any] | None:
    """The serving option a measurement replaced the estimates of (the re-plan may rank
    another card first, when the measured card turned out slower than estimated)."""
    if not isinstance(result, dict):
        return None
    for w in result.get("workloads") or []:
        for option in w.get("options") or []:
            if option.get("measured"):
                found: dict[str, Any] = option
                return found
    return None


# The widest measured-over-estimated ratio the calibration takes: the slowest run a paste
# accepts is a thousandth of the card's roofline (engine/sizing/measured/physics.py SLOWEST_SHARE).
_RATIO_FLOOR = SLOWEST_SHARE


def measurement_ratios() -> list[dict[str, Any]]:
    """Operator staff: measured over estimated per card and serving stack, across every
    organisation's measurements, with counts only (no organisation, no customer name)."""
    groups: dict[tuple[str, str], dict[str, list[float]]] = {}
    rows = Measurement.objects.values_list(
        "accelerator_id", "serving", "concurrency", "figures", "estimated"
    )
    for acc, serving, concurrency, figures, estimated in rows:
        g = groups.setdefault((acc, serving), {"throughput": [], "tpot": [], "ttft": []})
        batch = estimated.get("batch_per_replica")
        pairs = (
            ("throughput", "output_tokens_per_s", "tokens_per_second_per_replica"),
            ("tpot", "tpot_ms", "tpot_ms"),
            ("ttft", "ttft_ms", "ttft_ms"),
        )
        for name, measured_key, estimated_key in pairs:
            m, e = figures.get(measured_key), estimated.get(estimated_key)
            if isinstance(m, int | float) and isinstance(e, int | float) and e > 0:
                try:
                    if name == "throughput" and batch:
                        # The estimate is at the plan's batch; the run at its concurrency.
                        m = float(m) * batch / concurrency
                    ratio = float(m) / e
                except OverflowError:  # jsonb gives 1e308 back as an integer of 309 digits
                    continue
                # A row stored before runs were checked against the card's physics may hold
                # a figure no card reaches: it never moves the calibration.
                if math.isfinite(ratio) and _RATIO_FLOOR <= ratio <= 1.0 / _RATIO_FLOOR:
                    g[name].append(ratio)
    out = []
    for (acc, serving), g in sorted(groups.items()):
        if not any(g.values()):
            continue
        out.append(
            {
                "accelerator_id": acc,
                "serving": serving,
                "runs": max(len(v) for v in g.values()) if any(g.values()) else 0,
                **{k: (sum(v) / len(v) if v else None) for k, v in g.items()},
            }
        )
    return out


def report_measured_context(*, report: Report) -> dict[str, Any]:
    """The report page's measured section (templates/advisor/report/_measured.html)."""
    return {
        "measured": report_measured(report=report),
        "measurable": first_serving_option(report.result) is not None
        and bool((report.answers.get("frameworks") or {}).get("serving")),
    }
