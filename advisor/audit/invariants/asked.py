"""The work as the team asked for it: I4 targets ranked and told truly, I6 place, I12 the
work as it is."""

from __future__ import annotations

import re
from collections.abc import Iterator

from advisor.audit.invariants.case import (
    LANGS,
    Case,
    Violation,
    _first,
    _price,
    _sized,
    _v,
    _workloads,
)
from advisor.engine.answers import vocabulary

# ------------------------------------------------------------------------------- I4: targets


def i4_targets(case: Case) -> Iterator[Violation]:
    for _, w in _workloads(case):
        options = w.get("options") or []
        # Meeting a target counts for a plan the team can run as it is and buy: one that needs
        # its stack ported first, or that nobody in the catalog sells in the mode, meets
        # nothing yet (the report says why it ranks lower).
        statuses = [
            o.get("target_status")
            if o.get("stack", {}).get("runnable", True)
            and (o.get("cost_to_result") or {}).get("usd") is not None
            else "not_a_plan"
            for o in options
        ]
        if "met" in statuses or "at_risk" in statuses:
            good = min(i for i, s in enumerate(statuses) if s in ("met", "at_risk"))
            missed = [i for i, s in enumerate(statuses) if s == "missed" and i < good]
            if missed:
                o = options[missed[0]]
                g = options[good]
                yield _v(
                    "I4",
                    w,
                    f"{o['name']} × {o['count']} misses its target and ranks above "
                    f"{g['name']} × {g['count']}, which meets it",
                )
        if any(o.get("target_status") in ("met", "at_risk") for o in options):
            for note in w.get("target_warnings") or []:
                if "no option meets" in note or "沒有方案能達到" in note:
                    yield _v("I4", w, "the text says no option meets the target while one does")
        first = options[0] if options else None
        if first is None:
            continue
        margin = first.get("target_margin")
        status = first.get("target_status")
        if margin is not None and status == "met" and margin < 0:
            yield _v("I4", w, f"the first option is marked met with a margin of {margin:.1%}")
        if margin is not None and status == "missed" and margin > 0:
            yield _v("I4", w, f"the first option is marked missed with a margin of {margin:.1%}")
        if "meets_latency" in first and first.get("latency_target_ms"):
            best = [o.get("best_latency_at_metric_ms") for o in options]
            met = [
                o["latency_at_metric_ms"]
                for o in options
                if o.get("target_status") == "met" and "latency_at_metric_ms" in o
            ]
            reach = min((b for b in best if b is not None), default=None)
            if reach is not None and met and reach > min(met) * 1.0001:
                yield _v(
                    "I4",
                    w,
                    f"the best reachable ({reach:,.0f} ms) is worse than an option shown as "
                    f"meeting ({min(met):,.0f} ms)",
                )


# --------------------------------------------------------------------------------- I6: place


def i6_place(case: Case) -> Iterator[Violation]:
    for _, w in _workloads(case):
        first = _first(w)
        if first is None or not _sized(w):
            continue
        price = _price(first) or {}
        reach = first.get("china_reach")
        if (
            reach
            and price.get("region_key")
            and reach.get("region")
            and reach["region"] != price["region_key"]
            and reach.get("route") != "domestic"
        ):
            yield _v(
                "I6",
                w,
                f"the round trip to mainland China is counted from {reach['region']}, the "
                f"priced unit runs in {price['region_key']}",
            )
        tco = first.get("tco") or {}
        if tco:
            regions = set(case.answers["organization"]["regions"])
            notes = " ".join(case.result["cost"].get("notes") or [])
            if tco.get("regional") and tco.get("region") not in regions:
                yield _v(
                    "I6",
                    w,
                    f"owned hardware is powered and housed at {tco.get('region')} prices, not "
                    "in the team's regions",
                )
            if not tco.get("regional") and "stands in" not in notes:
                yield _v("I6", w, "owned hardware's power and colocation stand-in is not named")
        availability = first.get("availability") or {}
        if (
            price
            and price.get("region_match") in ("elsewhere", "unknown")
            and not availability.get("owned")
        ):
            notes = " ".join(case.result["cost"].get("notes") or [])
            text = case.page_one.get("en", "") + notes
            if first["name"] not in text or not re.search(
                r"not in your regions|outside your regions|elsewhere|region", text
            ):
                yield _v(
                    "I6",
                    w,
                    f"the first option {first['name']} is priced outside the team's regions "
                    "and the report does not say so",
                )


# -------------------------------------------------------------------------- I12: work as is


def i12_work(case: Case) -> Iterator[Violation]:
    for _, w in _workloads(case):
        if w["kind"] == "preprocessing":
            cpu = w.get("cpu_plan") or {}
            if w.get("accelerator") != "cpu" or not cpu.get("vcpu"):
                yield _v("I12", w, f"preprocessing is labelled {w.get('accelerator')}, not CPU")
            if cpu.get("usd_per_month") is None:
                yield _v("I12", w, "preprocessing's CPU server has no price")
            for o in w.get("options") or []:
                if o.get("type") not in ("cpu", None):
                    yield _v("I12", w, f"preprocessing is planned on {o.get('type')} {o['name']}")
                    break
            for lang in LANGS:
                if not re.search(r"vCPU", case.page_one.get(lang, "")):
                    yield _v("I12", w, f"{lang} page one does not size preprocessing in vCPU")
            continue
        first = _first(w)
        if first is None:
            continue
        work = case.answers.get("work")
        if work and w["kind"] in vocabulary.INFERENCE_KINDS and not first.get("work"):
            yield _v("I12", w, f"work in {work['unit']} is not sized in its own unit")
