"""The notes a result adds to its options: targets missed, a thin margin over the next option, an
indicative first option, a cheaper option passed over for its lead time, dominated options and
the rules each workload applied.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.ranking import scoring, tiers
from advisor.engine.text import i18n


def target_warning_notes(
    kind: str,
    options: list[dict[str, Any]],
    answers: vocabulary.Answers,
    catalog: Catalog,
    lang: str,
    dominated: Sequence[dict[str, Any]] = (),
) -> list[str]:
    """What page one must say about a workload's target: nothing meets it (with the best
    reachable figure over every option, the `dominated` ones too, and the levers that would),
    the first option meets it with a margin under the catalog's safety share, and how many
    options miss it."""
    if not options:
        return []
    first = options[0]
    out: list[str] = []
    if first.get("window"):
        return out  # a batch window's margin or overrun is said by asked.window_statement
    kind_label = i18n.label(kind, lang)
    inf = answers.inference
    meeting = next((o for o in options[1:] if o.get("target_status") in ("met", "at_risk")), None)
    if first.get("target_status") == "missed" and meeting is not None:
        # Something meets the target but ranks lower: say what keeps it there, never that
        # nothing meets it.
        out.append(
            i18n.message(
                "rank.met_lower",
                lang,
                kind=kind_label,
                first=f"{first['name']} × {first['count']}",
                card=f"{meeting['name']} × {meeting['count']}",
                why=i18n.message(_held_back(meeting), lang),
            )
        )
    elif first.get("target_status") == "missed" and "meets_latency" in first and inf is not None:
        # The best reachable figure over every option, not only the first one's card.
        fastest = min(
            [o for o in (*options, *dominated) if "best_latency_at_metric_ms" in o],
            key=lambda o: o["best_latency_at_metric_ms"],
        )
        metric = inf.latency_metric
        levers = i18n.message(
            f"rank.levers.{metric}",
            lang,
            ttft=f"{first['ttft_ms']:,.0f}",
            tokens=f"{inf.output_tokens:,}",
            prompt=f"{max(1, inf.prompt_tokens):,}",
        )
        out.append(
            i18n.message(
                "rank.latency_unreachable",
                lang,
                kind=kind_label,
                metric=i18n.label(metric, lang),
                target=f"{first['latency_target_ms']:,.0f}",
                best=_ms(fastest["best_latency_at_metric_ms"]),
                card=fastest["name"],
                levers=levers,
            )
        )
    elif first.get("target_status") == "missed" and "meets_deadline" in first:
        fastest = min((*options, *dominated), key=lambda o: o["hours"])
        out.append(
            i18n.message(
                "rank.deadline_unreachable",
                lang,
                kind=kind_label,
                target=f"{first['target_hours']:,.0f}",
                card=fastest["name"],
                count=fastest["count"],
                best=f"{fastest['hours']:,.1f}",
            )
        )
    elif first.get("target_status") == "at_risk":
        unit = "ms" if "meets_latency" in first else "h"
        achieved, target = (
            (first["latency_at_metric_ms"], first["latency_target_ms"])
            if unit == "ms"
            else (first["hours"], first["target_hours"])
        )
        out.append(
            i18n.message(
                "rank.at_risk",
                lang,
                kind=kind_label,
                card=first["name"],
                count=first["count"],
                margin=f"{first['target_margin'] * 100:.1f}%",
                achieved=f"{achieved:,.0f} {unit}" if unit == "ms" else f"{achieved:,.1f} {unit}",
                target=f"{target:,.0f} {unit}",
                safety=i18n.percent(float(catalog.rule("target_safety_share"))),
            )
        )
    return out


def _held_back(option: Mapping[str, Any]) -> str:
    """Why an option that meets its target ranks below one that misses it (the ranking's
    tiers before the target's: runs the stack as it is, offered here, priced)."""
    if not option.get("stack", {}).get("runnable", True):
        return "rank.held_back.stack"
    if not option.get("availability", {}).get("available", True):
        return "rank.held_back.away"
    return "rank.held_back.unpriced"


def missed_notes(kind: str, options: list[dict[str, Any]], lang: str) -> list[str]:
    missed = [o for o in options if o.get("target_status") == "missed"]
    if not missed or len(missed) == len(options):
        return []
    return [
        i18n.message(
            "rank.some_missed",
            lang,
            kind=i18n.label(kind, lang),
            count=len(missed),
            total=len(options),
            names=i18n.list_separator(lang).join(f"{o['name']} × {o['count']}" for o in missed),
        )
    ]


def _cheaper_passed_over(
    options: list[dict[str, Any]], passed: Callable[[dict[str, Any]], bool]
) -> dict[str, Any] | None:
    """The cheapest priced option ranked after the first, costing less than it and standing the
    same on the team's stack, that `passed` says was passed over for a reason the result names
    (a thin margin, a lead); None when there is none."""
    cost = (options[0].get("cost_to_result") or {}).get("usd")
    if cost is None:
        return None
    cheaper = [
        o
        for o in options[1:]
        if passed(o)
        and (o.get("cost_to_result") or {}).get("usd") is not None
        and o["cost_to_result"]["usd"] < cost
        and o["stack"]["runnable"] == options[0]["stack"]["runnable"]
    ]
    return min(cheaper, key=lambda o: o["cost_to_result"]["usd"], default=None)


def thin_margin_notes(
    kind: str, options: list[dict[str, Any]], catalog: Catalog, lang: str
) -> list[str]:
    """A cheaper option that meets the target only inside the estimate's own error ranks after
    the first, which meets it with the safety share to spare: say which and what it would save."""
    if not options or options[0].get("target_status") not in ("met", None):
        return []
    first = options[0]
    cost = (first.get("cost_to_result") or {}).get("usd")
    if cost is None:
        return []
    cheapest = _cheaper_passed_over(options, lambda o: o.get("target_status") == "at_risk")
    if cheapest is None:
        return []
    return [
        i18n.message(
            "rank.thin_margin_after",
            lang,
            kind=i18n.label(kind, lang),
            card=cheapest["name"],
            count=cheapest["count"],
            cost=f"{cheapest['cost_to_result']['usd']:,.2f}",
            per=i18n.message(f"per.{cheapest['cost_to_result']['per']}", lang),
            margin=f"{cheapest['target_margin'] * 100:.1f}%",
            safety=i18n.percent(float(catalog.rule("target_safety_share"))),
            first=f"{first['name']} × {first['count']}",
            first_cost=f"{cost:,.2f}",
        )
    ]


def _ms(value: float) -> str:
    return f"{value:,.0f}" if value >= 10 else f"{value:,.1f}"


def _firm(option: Mapping[str, Any]) -> bool | None:
    used = option.get("billing_used")
    price = (option.get("prices") or {}).get(used) if used else None
    return None if not price else bool(price["as_of"]) and not price["estimated"]


def house_first_note(kind: str, options: list[dict[str, Any]], lang: str) -> list[str]:
    """The operator's own server ranks first among the plans that meet the target; when another
    offer of the same card, or another card's plan, costs less, the note names it and by how
    much."""
    if not options or tiers.house(options[0]):
        return []
    first = options[0]
    usd = first.get("monthly_cost_usd")
    if usd is None:
        return []
    out: list[str] = []
    unit = first.get("unit") or {}
    same = first.get("cheaper_elsewhere")
    if same:
        out.append(
            i18n.message(
                "rank.house_first_same_card",
                lang,
                kind=i18n.label(kind, lang),
                server=unit.get("name") or first["name"],
                units=unit.get("count") or 1,
                provider=i18n.catalog_text(same["provider"], lang),
                region=i18n.region_text(same["region"] or "", lang),
                usd=f"{same['saves_usd_per_month']:,.0f}",
                share=i18n.percent(same["saves_share"] or 0.0),
            )
        )
    cheaper = next(
        (
            o
            for o in options[1:]
            if o.get("monthly_cost_usd") is not None
            and o["cost_to_result"]["usd"] is not None
            and o["cost_to_result"]["usd"] < first["cost_to_result"]["usd"] - 1e-9
        ),
        None,
    )
    if cheaper is not None:
        price = (cheaper.get("prices") or {}).get(cheaper.get("billing_used")) or {}
        share = 1.0 - cheaper["cost_to_result"]["usd"] / first["cost_to_result"]["usd"]
        out.append(
            i18n.message(
                "rank.house_first_other_card",
                lang,
                kind=i18n.label(kind, lang),
                server=unit.get("name") or first["name"],
                card=cheaper["name"],
                count=cheaper["count"],
                provider=i18n.catalog_text(price.get("provider") or "", lang),
                share=i18n.percent(share),
                per=i18n.message(f"per.{first['cost_to_result']['per']}", lang),
            )
        )
    return out


def indicative_first_note(kind: str, options: list[dict[str, Any]], lang: str) -> list[str]:
    """A first option on an indicative price (undated, estimated, a "from" price) ranks there
    on cost alone; the buyer is told so and which firm price it beat."""
    if not options or _firm(options[0]) is not False:
        return []
    first = options[0]
    if first["cost_to_result"]["usd"] is None:
        return []
    # The first firm price of the same standing (runs the stack, offered here, meets the target).
    firm = next(
        (
            o
            for o in options[1:]
            if _firm(o)
            and o["cost_to_result"]["usd"] is not None
            and o["stack"]["runnable"] == first["stack"]["runnable"]
            and o["availability"]["available"] == first["availability"]["available"]
            and (o.get("target_status") == "missed") == (first.get("target_status") == "missed")
        ),
        None,
    )
    if firm is None:
        return []
    per = i18n.message(f"per.{first['cost_to_result']['per']}", lang)
    # The 25% is the ranking's tolerance: within it the tie-breakers (priced in your region,
    # devices, hours) put the indicative price first, and the note must not say otherwise.
    within = firm["cost_to_result"]["usd"] <= first["cost_to_result"]["usd"] * 1.25
    return [
        i18n.message(
            "rank.indicative_first_close" if within else "rank.indicative_first",
            lang,
            kind=i18n.label(kind, lang),
            card=first["name"],
            count=first["count"],
            provider=i18n.catalog_text(first["prices"][first["billing_used"]]["provider"], lang),
            cost=f"{first['cost_to_result']['usd']:,.2f}",
            per=per,
            firm_card=firm["name"],
            firm_count=firm["count"],
            firm_cost=f"{firm['cost_to_result']['usd']:,.2f}",
        )
    ]


def lead_passed_over_notes(kind: str, options: list[dict[str, Any]], lang: str) -> list[str]:
    """The cheapest option that ranks lower only because its price names no region and no date,
    or no region at all (ranking.lead): the buyer is told what it would cost and whom to ask."""
    if not options or options[0]["cost_to_result"]["usd"] is None or tiers.lead(options[0]):
        return []
    missed = options[0].get("target_status") == "missed"
    cheapest = _cheaper_passed_over(
        options, lambda o: bool(tiers.lead(o)) and (o.get("target_status") == "missed") == missed
    )
    if cheapest is None:
        return []
    price = cheapest["prices"][cheapest["billing_used"]]
    # A dated offer that names no place the customer could be in ("global (not stated)").
    unlocated = bool(price["as_of"]) and not price["estimated"]
    return [
        i18n.message(
            "rank.unlocated_passed_over" if unlocated else "rank.lead_passed_over",
            lang,
            kind=i18n.label(kind, lang),
            card=cheapest["name"],
            count=cheapest["count"],
            provider=i18n.catalog_text(price["provider"], lang),
            region=i18n.region_text(price["region"] or "", lang)
            or i18n.message("option.region_not_stated", lang),
            cost=f"{cheapest['cost_to_result']['usd']:,.2f}",
            per=i18n.message(f"per.{cheapest['cost_to_result']['per']}", lang),
        )
    ]


def _here(option: Mapping[str, Any]) -> bool:
    """Offered where the customer is and billed on a row there (or in their country)."""
    used = option.get("billing_used")
    price = (option.get("prices") or {}).get(used) if used else None
    return bool(
        option.get("availability", {}).get("available")
        and price
        and (price["region_match"] == "exact" or price.get("in_country"))
    )


def first_here_notes(
    kind: str, options: list[dict[str, Any]], regions: Sequence[str], lang: str
) -> list[str]:
    """When the first option is offered or billed outside the customer's regions (a public-cloud
    training or batch run ships its data once: a region elsewhere is a tie-break, not a tier),
    the first option that is offered and priced where the customer is, and meets the target as
    well as the first does, is named with its rank and cost: the report says that the first
    option ranks above it on price alone."""
    if not options or not regions or options[0]["cost_to_result"]["usd"] is None:
        return []
    first = options[0]
    if _here(first) or first.get("availability", {}).get("owned"):
        return []
    missed = first.get("target_status") == "missed"
    here = next(
        (
            o
            for o in options[1:]
            if _here(o)
            and o["cost_to_result"]["usd"] is not None
            and (o.get("target_status") == "missed") == missed
        ),
        None,
    )
    if here is None:
        return []
    price = here["prices"][here["billing_used"]]
    return [
        i18n.message(
            "rank.first_here",
            lang,
            kind=i18n.label(kind, lang),
            first_card=first["name"],
            card=here["name"],
            count=here["count"],
            provider=i18n.catalog_text(price["provider"], lang),
            region=i18n.region_text(price["region"], lang),
            rank=here["rank"],
            cost=f"{here['cost_to_result']['usd']:,.2f}",
            per=i18n.message(f"per.{here['cost_to_result']['per']}", lang),
            regions=i18n.list_separator(lang).join(
                i18n.value_label("organization.regions", r, lang) for r in regions
            ),
        )
    ]


def dominated_notes(kind: str, dominated: list[dict[str, Any]], lang: str) -> list[str]:
    if not dominated:
        return []
    return [
        i18n.message(
            "rank.dominated",
            lang,
            kind=i18n.label(kind, lang),
            count=len(dominated),
            names=i18n.list_separator(lang).join(f"{o['name']} × {o['count']}" for o in dominated),
        )
    ]


def rules_for_workload(
    kind: str, first: Mapping[str, Any] | None, mode_doc: Mapping[str, Any] | None
) -> list[str]:
    """Rule ids (options.RULES) applied to this workload's recommendation."""
    phase = scoring.PHASE_OF[kind]
    if phase == "preprocessing":
        return ["server_sized_for_workload"]
    rules = ["stack_runs_as_is", "rank_by_cost_to_result", "available_where_customer_is"]
    if phase == "training":
        rules += ["time_to_result", "optimizer_implementation"]
    else:
        rules.append("serving_at_required_load")
    rules.append("billing_follows_utilisation")
    if mode_doc is not None:
        rules.append("mode_weighs_cost")
    rules += ["server_sized_for_workload", "confidence_covers_recommendation", "real_levers"]
    return rules
