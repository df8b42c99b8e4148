"""Prices and money: I3 priced on page one, I5 billing as asked, I10 the budget, I13 the
figures add up."""

from __future__ import annotations

import math
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

# Billing kinds that a continuous service cannot rely on alone: a block ends after days.
SHORT_TERM = frozenset({"capacity_block", "flex_start", "spot"})
# How each answered billing reads in the prices the engine may use for it.
BILLING_SLOTS: dict[str, frozenset[str]] = {
    "pay_as_you_go": frozenset({"on_demand", "spot", "flex_start", "capacity_block"}),
    "monthly_fixed": frozenset({"monthly"}),
    "committed": frozenset({"commit_1y", "commit_3y", "monthly", "capacity_block"}),
}
# The billing a workload names for the price slot its first option is billed at: a capacity
# block or a flex-start price is neither on-demand nor committed, and has no other name.
BILLING_WORDS = {
    "on_demand": "on_demand",
    "spot": "spot",
    "commit_1y": "committed_1y",
    "commit_3y": "committed_3y",
    "monthly": "monthly_fixed",
    "capacity_block": "capacity_block",
    "flex_start": "flex_start",
}
_DASH_PRICE = re.compile(r"(?:US)?\$\s?—|USD\s?—|—\s?美元")


# ------------------------------------------------------------------- I3: priced on page one


def i3_priced_on_page_one(case: Case) -> Iterator[Violation]:
    for _, w in _workloads(case):
        first = _first(w)
        if first is None or not _sized(w) or w.get("dead_end"):
            continue  # a dead end has no first option to price: I1 holds it to its own rules
        name = f"{first['name']} × {first['count']}"
        monthly = first.get("monthly_cost_usd")
        if monthly is None or not math.isfinite(float(monthly)) or monthly <= 0:
            yield _v("I3", w, f"the first option {name} has no monthly figure")
            continue
        cost = (first.get("cost_to_result") or {}).get("usd")
        if cost is None or not math.isfinite(float(cost)):
            yield _v("I3", w, f"the first option {name} has no cost per result")
        if (_price(first) or {}).get("indicative"):
            for lang in LANGS:
                if not re.search(
                    r"Indicative: ask for a quote|參考價：請索取報價", case.page_one[lang]
                ):
                    yield _v("I3", w, f"{lang} page one shows an indicative price as firm")
    for lang in LANGS:
        page = case.page_one.get(lang, "")
        if _DASH_PRICE.search(page) or "price missing" in page or "缺少價格" in page:
            yield _v("I3", None, f"{lang} page one shows a missing price beside an option")
        lines = case.summary.get(lang, "").splitlines()
        workloads_at = next(
            (
                i
                for i, ln in enumerate(lines)
                if ln.startswith("-- ") and ("Workloads" in ln or "工作負載" in ln)
            ),
            None,
        )
        if workloads_at is not None:
            for line in lines[workloads_at : workloads_at + 4 * len(case.result["workloads"]) + 1]:
                if line.startswith("    - ") and ("price missing" in line or "缺少價格" in line):
                    yield _v("I3", None, f"the {lang} summary lists an option as {line.strip()!r}")
                    break


# ------------------------------------------------------------------------------- I5: billing


def i5_billing(case: Case) -> Iterator[Violation]:
    asked = case.answers["cost"]["billing"]
    rec = case.result["recommendation"]
    for _, w in _workloads(case):
        first = _first(w)
        if first is None or not _sized(w):
            continue
        used = first.get("billing_used")
        if used is None:
            continue
        named = w.get("billing")
        owned = bool((first.get("availability") or {}).get("owned") or first.get("tco"))
        if named and not (owned and named == "purchase") and named != BILLING_WORDS.get(used):
            yield _v(
                "I5",
                w,
                f"the workload names billing {named!r} but its first option is priced {used!r}",
            )
        if w["kind"] == "realtime_inference" and used in SHORT_TERM:
            yield _v("I5", w, f"a continuous service is planned on {used} prices alone")
        slots = BILLING_SLOTS.get(asked)
        if slots is not None and used not in slots:
            reasons = " ".join(
                str(x or "")
                for x in (rec.get("billing_reason"), (w.get("mode_decision") or {}).get("reason"))
            )
            if not reasons.strip():
                yield _v(
                    "I5",
                    w,
                    f"billing {asked!r} was asked, {used!r} is used, and no reason is given",
                )


# ------------------------------------------------------------------------------- I10: budget


def i10_budget(case: Case) -> Iterator[Violation]:
    cost = case.result["cost"]
    staffed = [
        c for c in cost.get("by_workload") or [] if float(c.get("staff_usd_per_month") or 0) > 0
    ]
    # Once per team: a team figure that the total uses (I13 checks the total adds up with it;
    # it may exceed the workloads' own staff summed, when together they outgrow the team).
    if len(staffed) > 1 and cost.get("staff_usd_per_month") is None:
        yield _v(
            "I10",
            None,
            f"staff is counted in {len(staffed)} workloads' monthly costs, not once per team",
        )
    ops = case.answers["cost"]["ops_capacity"]
    headcount = case.answers["cost"].get("ops_headcount")
    if ops == "none" or headcount == 0:
        # Never a hidden salary: no own-staff figure at all, and the hours bought in are their
        # own line that page one names.
        total_staff = float(cost.get("staff_usd_per_month") or 0) + sum(
            float(c.get("staff_usd_per_month") or 0) for c in cost.get("by_workload") or []
        )
        if total_staff > 0:
            yield _v(
                "I10",
                None,
                f"the team has no ops staff yet is charged ${total_staff:,.0f} a month of staff",
            )
        bought = float(cost.get("ops_bought_in_usd_per_month") or 0)
        said = all(re.search(r"bought in|向外採購", case.page_one.get(lang, "")) for lang in LANGS)
        if bought > 0 and not said:
            yield _v(
                "I10",
                None,
                f"${bought:,.0f} a month of operations is bought in without page one saying so",
            )
    if cost.get("monthly_budget_usd") is not None and cost.get("monthly_total_usd"):
        for lang in LANGS:
            page = case.page_one.get(lang, "")
            if not re.search(r"[Cc]ompute|運算", page) or not re.search(
                r"[Ss]taff|人力|人員", page
            ):
                yield _v(
                    "I10",
                    None,
                    f"{lang} page one checks the budget without naming compute and staff apart",
                )


# ---------------------------------------------------------------------- I13: figures add up


def i13_figures(case: Case) -> Iterator[Violation]:
    cost = case.result["cost"]
    rows = cost.get("by_workload") or []
    total = cost.get("monthly_total_usd")
    parts = [c.get("monthly_cost_usd") for c in rows]
    if total is not None and parts and all(p is not None for p in parts):
        # Each workload's month less its own staff, the team's staff once, the CPU server.
        summed = sum(
            float(c["monthly_cost_usd"])
            - float(c.get("staff_usd_per_month") or 0)
            - float(c.get("ops_bought_in_usd_per_month") or 0)
            for c in rows
        )
        extra = (
            float(cost.get("cpu_usd_per_month") or 0)
            + float(cost.get("staff_usd_per_month") or 0)
            + float(cost.get("ops_bought_in_usd_per_month") or 0)
            - float(cost.get("fleet_saves_usd_per_month") or 0)
        )
        if abs(summed + extra - float(total)) > max(1.0, 0.005 * float(total)):
            yield _v(
                "I13",
                None,
                f"the monthly total ${float(total):,.2f} is not the sum of its workloads "
                f"${summed:,.2f}",
            )
    for _, w in _workloads(case):
        first = _first(w)
        if first is None:
            continue
        monthly = first.get("monthly_cost_usd")
        row = next((c for c in rows if c.get("workload") == w["kind"]), None)
        if (
            row is not None
            and monthly is not None
            and row.get("monthly_cost_usd") is not None
            and abs(float(row["monthly_cost_usd"]) - float(monthly)) > 0.01
        ):
            yield _v(
                "I13",
                w,
                f"the first option costs ${monthly:,.2f} a month, the cost table "
                f"${row['monthly_cost_usd']:,.2f}",
            )
