"""Honour what the team asked: the billing it asked for, or why not and what
that billing costs instead; the budget gap in plain figures; the lock-in of a commitment on an
older card generation; the fixed overhead of each short run; the traffic peak it is sized for.

Each function reads a result's options (plain dicts) and returns sentences for the result's
first page (billing_reason: evaluate's billing-reason stage) and its notes; none changes an
option.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.pricing.billing import SLOT_TO_BILLING
from advisor.engine.text import i18n
from advisor.engine.text.messages import MESSAGES

# The price slots each billing answer asks for (cost.billing).
ASKED_SLOTS: Mapping[str, tuple[str, ...]] = {
    "committed": ("commit_1y", "commit_3y"),
    "monthly_fixed": ("monthly",),
}
_COMMIT_YEARS = {"commit_1y": 1, "commit_3y": 3}


def _usd(value: float) -> str:
    return f"{value:,.0f}"


def _slot(slot: str, lang: str) -> str:
    return i18n.label(SLOT_TO_BILLING.get(slot, slot), lang)


def _asked(plan: str, lang: str) -> str:
    """The way of paying the team asked for, as a sentence names it ("a fixed monthly price")."""
    code = f"billing.asked.{plan}"
    return i18n.message(code, lang) if code in MESSAGES else i18n.label(plan, lang)


def _cheapest_as(option: Mapping[str, Any], slots: Sequence[str]) -> tuple[str, float] | None:
    priced = [(s, v) for s in slots if (v := _monthly_as(option, s)) is not None]
    return min(priced, key=lambda p: p[1]) if priced else None


def _monthly_as(option: Mapping[str, Any], slot: str) -> float | None:
    """The option's monthly cost were it billed in `slot` (compute in that slot, the rest as is)."""
    compute = option["compute_usd_per_month"].get(slot)
    used = option.get("billing_used")
    if compute is None or option.get("monthly_cost_usd") is None or used is None:
        return None
    return (
        float(option["monthly_cost_usd"])
        - float(option["compute_usd_per_month"][used] or 0.0)
        + float(compute)
    )


def billing_reason(
    answers: vocabulary.Answers,
    catalog: Catalog,
    when: date,
    lang: str,
    advised: tuple[str, str],
    headline: Mapping[str, Any] | None,
    options: Sequence[Mapping[str, Any]],
    over_budget: str | None,
) -> tuple[str, str]:
    """The result's billing and why, for its first page.

    The billing is the one the shown price uses: the headline option's (of the costliest
    workload; `options` are its workload's). Why: the price slot it is billed in against the
    utilisation and break-even, then whether the billing asked for was honoured (and if not, why
    and what it costs), the budget gap (`over_budget`) and the lock-in of a commitment on an
    older card. Without a headline option, the scores' mode's billing and the message `advised`
    names for it."""
    break_even = catalog.figure("commit_break_even_utilisation")
    if headline is None:
        billing, code = advised
        utilisation = float(answers.cost.hours_per_day) / 24.0
        return billing, i18n.message(
            code,
            lang,
            break_even=i18n.percent(break_even),
            utilisation=i18n.percent(utilisation),
        )
    billing = headline["billing"]
    code, be = _billing_code(answers, headline)
    plan_key = f"billing.plan.{billing}"
    reason = i18n.message(
        code,
        lang,
        billing=i18n.message(plan_key, lang)
        if plan_key in MESSAGES
        else i18n.label(billing, lang).capitalize(),
        kind=i18n.label(headline["workload"], lang),
        utilisation=i18n.percent(headline["utilisation"]),
        break_even=i18n.percent(be if be is not None else break_even),
    )
    stated = [
        billing_statement(
            answers.cost.billing,
            headline,
            options,
            answers.maturity.demand != "unpredictable",
            lang,
        ),
        over_budget,
        lock_in_statement(headline, catalog, when, lang),
    ]
    return billing, " ".join([reason, *(x for x in stated if x)])


def _billing_code(
    answers: vocabulary.Answers, headline: Mapping[str, Any]
) -> tuple[str, float | None]:
    """Why the headline option is billed in its price slot (a billing.* message), and that
    slot's break-even where it is a fixed price."""
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
    return code, be


def billing_statement(
    asked: str,
    headline: Mapping[str, Any],
    options: Sequence[Mapping[str, Any]],
    predictable: bool,
    lang: str,
) -> str | None:
    """When the team asked for committed or monthly billing and the headline option is not
    priced so: why not (no such price for the offer, the use is under its break-even, demand is
    unpredictable, or another fixed price is cheaper) and what it costs instead, with the
    cheapest of the workload's options that is priced as asked. None when honoured or not
    asked."""
    slots = ASKED_SLOTS.get(asked)
    used = headline.get("billing_used")
    if not slots or used is None or used in slots:
        return None
    t = i18n.message
    kind = i18n.label(headline["workload"], lang)
    card = f"{headline['count']} × {headline['name']}"
    shown = float(headline["monthly_cost_usd"] or 0.0)
    cheapest = _cheapest_as(headline, slots)
    if cheapest is None:
        reason = t(
            "asked.no_price", lang, asked=_asked(asked, lang), card=card, used=_slot(used, lang)
        )
    else:
        slot, cost = cheapest
        be = (headline.get("break_even_utilisation") or {}).get(slot)
        params = {
            "asked": _asked(asked, lang),
            "slot": _slot(slot, lang),
            "card": card,
            "cost": _usd(cost),
            "shown": _usd(shown),
            "used": _slot(used, lang),
            "utilisation": i18n.percent(float(headline.get("utilisation") or 0.0)),
            "break_even": i18n.percent(float(be)) if be is not None else "—",
        }
        if used in ("monthly", "commit_1y", "commit_3y"):
            code = "asked.fixed_cheaper"
        elif not predictable:
            code = "asked.unpredictable"
        elif be is not None and float(be) > 1.0:
            # Dearer than a month of hours: no use of the month makes that price pay off.
            code = "asked.never_breaks_even"
        else:
            code = "asked.below_break_even"
        reason = t(code, lang, **params)
    alternative = min(
        (
            (o, found)
            for o in options
            if o is not headline and (found := _cheapest_as(o, slots)) is not None
        ),
        key=lambda a: a[1][1],
        default=None,
    )
    text = t("asked.billing", lang, kind=kind, reason=reason, shown=_usd(shown))
    if alternative is not None and cheapest is None:
        o, (slot, cost) = alternative
        text += " " + t(
            "asked.alternative",
            lang,
            card=f"{o['count']} × {o['name']}",
            slot=_slot(slot, lang),
            cost=_usd(cost),
        )
    return text


def budget_statement(
    compute: float,
    budget: float | None,
    lang: str,
    staff: float = 0.0,
    bought_in: float = 0.0,
) -> str | None:
    """The budget check in plain figures: compute and hosting (what the providers bill) against
    the budget, over by how much (and what share); operations named apart, never folded in.
    Said when compute is over the budget, or when it is within and operations alone would tip
    the whole month over it; None otherwise."""
    if budget is None:
        return None
    ops = staff + bought_in
    parts: list[str] = []
    if compute > budget:
        gap = compute - budget
        share = i18n.percent(gap / budget) if budget > 0 else "—"
        parts.append(
            i18n.message(
                "asked.over_budget",
                lang,
                cost=_usd(compute),
                budget=_usd(budget),
                gap=_usd(gap),
                share=share,
            )
        )
    elif compute + ops > budget:
        parts.append(
            i18n.message("asked.within_budget", lang, cost=_usd(compute), budget=_usd(budget))
        )
    if not parts:
        return None
    if staff > 0:
        parts.append(i18n.message("asked.budget_staff", lang, usd=_usd(staff)))
    if bought_in > 0:
        parts.append(i18n.message("asked.budget_bought_in", lang, usd=_usd(bought_in)))
    return " ".join(parts)


def lock_in_statement(
    option: Mapping[str, Any], catalog: Catalog, today: date, lang: str
) -> str | None:
    """A 1- or 3-year commitment on a card a newer generation of its line has already replaced:
    the term, how old the card will be when it ends, and the generations it is behind (catalog
    rule `card_generations`, vendors' launch announcements)."""
    slot = option.get("billing_used")
    years = _COMMIT_YEARS.get(slot or "")
    if years is None:
        return None
    table = catalog.rule("card_generations")
    own = table.get(option["accelerator_id"])
    if not isinstance(own, Mapping):
        return None
    released = date.fromisoformat(str(own["released"]))
    newer = sorted(
        {
            (int(g["rank"]), str(g["generation"]))
            for g in table.values()
            if isinstance(g, Mapping)
            and g.get("line") == own["line"]
            and int(g["rank"]) > int(own["rank"])
            and date.fromisoformat(str(g["released"])) <= today
        }
    )
    if not newer:
        return None
    by_rank: dict[int, list[str]] = {}
    for rank, name in newer:
        by_rank.setdefault(rank, []).append(name)
    ends = date(today.year + years, today.month, min(today.day, 28))
    return i18n.message(
        "asked.lock_in",
        lang,
        term=_slot(slot or "", lang),
        card=option["name"],
        generation=own["generation"],
        released=released.strftime("%Y-%m"),
        ends=ends.strftime("%Y-%m"),
        age=f"{(ends - released).days / 365.25:.0f}",
        behind=len(by_rank),
        newer=i18n.list_separator(lang).join(
            "/".join(names) for _, names in sorted(by_rank.items())
        ),
    )


def overhead_statement(kind: str, option: Mapping[str, Any], lang: str) -> str | None:
    """Each run's fixed overhead when it is a noticeable share (catalog figure
    `run_overhead_note_share`) of the run's hours."""
    overhead = option.get("run_overhead")
    # A batch option's hours are a month's; its overhead says the run's own hours.
    hours = float((overhead or {}).get("run_hours") or option.get("hours") or 0.0)
    if not overhead or hours <= 0:
        return None
    share = float(overhead["hours"]) / hours
    if share < 0.1:
        return None
    return i18n.message(
        "asked.run_overhead",
        lang,
        kind=i18n.label(kind, lang),
        minutes=f"{float(overhead['hours']) * 60:.0f}",
        provisioning=f"{float(overhead['provisioning_hours']) * 60:.0f}",
        container=f"{float(overhead['container_start_hours']) * 60:.0f}",
        staging=f"{float(overhead['staging_hours']) * 60:.0f}",
        gb=f"{float(overhead['staged_gb']):,.1f}",
        share=i18n.percent(share),
    )


def peak_statement(kind: str, mode: str, option: Mapping[str, Any], lang: str) -> str | None:
    """Real-time serving sized for its peak: the replicas at the peak and at the average, and
    either autoscaling advice (public cloud rents by the hour) or what holding the peak costs."""
    peak = option.get("peak_to_average")
    base = option.get("replicas_at_average")
    # The peak's replicas, not the spare server kept for a failure (said on its own).
    spare = int((option.get("redundancy") or {}).get("spare_replicas") or 0)
    replicas = int(option.get("replicas") or 0) - spare
    used = option.get("billing_used")
    if kind != "realtime_inference" or peak is None or base is None or replicas <= base:
        return None
    # Said when the team answered its peak, or its traffic shape implies a marked one (bursty,
    # seasonal); a steady or daily-cycle default is no news.
    if option.get("peak_traffic_basis") != "answer" and float(peak) < 2.5:
        return None
    compute = float((option.get("compute_usd_per_month") or {}).get(used or "") or 0.0)
    params = {
        "kind": i18n.label(kind, lang),
        "peak": f"{float(peak):g}",
        "replicas": replicas,
        "base": base,
        "idle": _usd(compute * (1.0 - base / replicas)),
    }
    code = "asked.peak_autoscale" if mode == "public_cloud" else "asked.peak_held"
    return i18n.message(code, lang, mode=i18n.label(mode, lang), **params)


def window_statement(kind: str, option: Mapping[str, Any], catalog: Catalog, lang: str) -> str:
    """A batch run against the window the team answered, as a deadline is stated: the run's
    hours (start-up included) of the window's, from its start hour, and the share to spare; a
    thin margin (under the catalog's `target_safety_share`) or an overrun said as such."""
    window = option["window"]
    run = float(option["run_overhead"]["run_hours"])
    hours = float(window["hours"])
    start = window.get("start_hour")
    status = option.get("target_status")
    margin = float(option["target_margin"] or 0.0)
    params = {
        "kind": i18n.label(kind, lang),
        "card": f"{option['count']} × {option['name']}",
        "run": f"{run:,.1f}" if run >= 1 else f"{run:,.2f}",
        "window": f"{hours:g}",
        "start": i18n.message("asked.window_from", lang, hour=f"{int(start):02d}:00")
        if start is not None
        else "",
        # A thin margin to a tenth of a percent, so that 9.6% never reads as the 10% share.
        "margin": i18n.percent(margin) if status == "met" else f"{max(0.0, margin) * 100:.1f}%",
        "over": f"{max(0.0, run - hours):,.2f}",
        "safety": i18n.percent(float(catalog.rule("target_safety_share"))),
    }
    code = {
        "met": "asked.window_met",
        "at_risk": "asked.window_at_risk",
    }.get(str(status), f"asked.window_missed_{window['firmness']}")
    return i18n.message(code, lang, **params)


def redundancy_statement(kind: str, option: Mapping[str, Any], lang: str) -> str | None:
    """What a real-time service keeps spare for a failed server: one more server (N+1) and what
    it costs, or why none (the team answered best effort, or development and test)."""
    doc = option.get("redundancy")
    if kind != "realtime_inference" or not doc:
        return None
    params: dict[str, Any] = {"kind": i18n.label(kind, lang), "card": option["name"]}
    if not doc["planned"]:
        return i18n.message(f"asked.no_spare_{doc['basis']}", lang, **params)
    usd = doc.get("usd_per_month")
    return i18n.message(
        "asked.spare_server",
        lang,
        gpus=doc["unit_gpus"],
        cost=i18n.message("asked.spare_cost", lang, usd=_usd(float(usd))) if usd else "",
        **params,
    )
