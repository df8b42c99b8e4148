"""The report's cost rows: work in its own unit, premium bandwidth and egress to mainland China,
where each price comes from, offers sold on request, owned hardware's cost of ownership,
break-even, the price pages and the figures used."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from advisor.charts.results import BILLING_LABELS
from advisor.decisions import languages
from advisor.engine.planning import nonllm
from advisor.engine.result.document import Cost, Option, PriceUsed, ResultDocument
from advisor.engine.text import i18n
from advisor.engine.text import labels as engine_labels
from advisor.labels import catalog_text, label_for, modes_text, region_text, usd
from advisor.labels import price_page as _price_page
from advisor.reporting.options import (
    BILLING_SLOTS,
    option_label,
    server_spec,
    target_flagged,
    target_verdict,
    unit_work_cost,
    where_sold,
)
from advisor.reporting.text import aside, mbps, parse_date, percent


def unit_work_context(w: Mapping[str, Any], language: str) -> dict[str, Any]:
    """The report's table for work in its own unit: per card and fleet throughput against the
    demand, latency per image or request, cost per the team's unit and the throughput's source."""
    lang = languages.engine_language(language)
    first = next(o for o in w["options"] if "work" in o)
    work = first["work"]
    rows = []
    for o in w["options"]:
        ow = o.get("work")
        if not ow:
            continue
        t = ow["throughput"]
        cost, slot = unit_work_cost(o)
        rows.append(
            {
                "name": o["name"],
                "count": o["count"],
                "chosen": o.get("chosen", False),
                "per_card": ow["per_card_per_second"],
                "capacity": ow["capacity_per_second"],
                "latency_ms": ow.get("latency_ms"),
                "target_verdict": target_verdict(o),
                "target_flag": target_flagged(o),
                "cost": cost,
                "cost_text": "—" if cost is None else "$" + nonllm.money_text(float(cost)),
                "billing": slot,
                "source": t["source"],
                "as_of": t["as_of"],
                "basis": _("an estimate")
                if t["estimated"]
                else _("worked out from published figures")
                if t["derived"]
                else _("published"),
            }
        )
    return {
        "kind": w["kind"],
        "model": work["model_name"],
        "benchmark": work["benchmark"],
        "unit": i18n.value_label("work.unit", work["unit"], lang),
        "per": i18n.message(f"per.{work['per']}", lang),
        "per_day": work["per_day"],
        "demand": work["demand_per_second"],
        "rows": rows,
    }


def china_bandwidth_row(option: dict[str, Any]) -> dict[str, Any]:
    """A hosted option's premium bandwidth to mainland China (engine 2.2) as the report's row:
    Mbps needed, included with its route, extra, the price per Mbps-month with its price page
    and date, and the monthly line - or, without a route or a price, that it is not priced."""
    bw = option["china_bandwidth"]
    route = label_for("china_route", bw["route"]) if bw["route"] else None
    per_mbps = bw["usd_per_mbps_month"]
    source = _("%(page)s, %(date)s") % {
        "page": _price_page(bw["provider"]),
        "date": bw["as_of"] or _("undated"),
    }
    status = bw["status"]
    if status == "no_route":
        line = _("no premium China route: ask the provider for a CN2 GIA/CMI price per Mbps-month")
    elif status == "not_priced":
        line = _("not priced: ask the provider for a CN2 GIA/CMI price per Mbps-month")
    elif status == "covered":
        line = _("included")
    else:
        line = usd(bw["usd_per_month"])
    return {
        "name": option["name"],
        "count": option["count"],
        "chosen": option.get("chosen", False),
        "needed": mbps(bw["needed_mbps"]),
        "basis": aside(CHINA_BASES.get(bw.get("basis") or "", "")),
        "included": f"{mbps(bw['included_mbps'])} {route}" if route else _("none"),
        "extra": mbps(bw["extra_mbps"]),
        "per_mbps": (
            _("$%(price)s per Mbps-month") % {"price": f"{per_mbps:,.2f}"}
            if per_mbps is not None
            else "—"
        ),
        "source": aside(source) if per_mbps is not None else "",
        "line": line,
        "priced": bw["usd_per_month"] is not None,
    }


CHINA_BASES = {
    "peak": _lazy("at peak"),
    "daily_mean": _lazy("results shipped over the day"),
    "run_rate": _lazy("while the batch runs"),
}


def china_egress_row(option: dict[str, Any]) -> dict[str, Any]:
    """A public-cloud option's egress to mainland China: the rate used and whether the cloud
    publishes one for China (Google does; AWS and Azure do not, so their internet rate is used)."""
    egress = option["china_egress"]
    return {
        "name": option["name"],
        "count": option["count"],
        "chosen": option.get("chosen", False),
        "provider": egress["provider"],
        "rate": _("$%(rate)s per GB") % {"rate": f"{egress['usd_per_gb']:g}"},
        "figure": aside(
            engine_labels.shown("figure", egress["egress_figure"], languages.engine_language())
        ),
        "basis": (
            _("published rate to China")
            if egress["china_rate"]
            else _("no rate to China published: internet rate used")
        ),
    }


def offer_source_rows(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For the first option and the runner-up: the offer each price slot comes from (provider,
    region, what is sold), saying so when a slot's price is another provider's or region's than
    the option's own offer, and when it is indicative (a "from" price, an estimate)."""
    ranked = sorted(options, key=lambda o: not o["chosen"])[:2]
    out = []
    for role, o in zip((_("Recommended"), _("Runner-up")), ranked, strict=False):
        slots = []
        for slot in BILLING_SLOTS:
            price = o["prices"].get(slot)
            if not price:
                continue
            label = BILLING_LABELS[slot]
            where = where_sold(price)
            if price.get("sold_as"):
                where += f" · {price['sold_as']}"
            if price.get("same_offer", True):
                text = _("%(slot)s: %(where)s") % {"slot": label, "where": where}
            else:
                text = _("%(slot)s price from another provider or region: %(where)s") % {
                    "slot": label,
                    "where": where,
                }
            slots.append(
                {
                    "text": text,
                    "mixed": not price.get("same_offer", True),
                    "indicative": bool(price.get("estimated")),
                    "used": slot == o["billing_used"],
                }
            )
        if slots:
            out.append({"role": role, "option": option_label(o), "slots": slots})
    return out


def on_request_rows(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every offer sold on request that fits one of the workload's options and prices none of
    them (one that does is in the plan, on its indicative figure), with a quote link for the
    operator's own servers."""
    seen: dict[str, dict[str, Any]] = {}
    # An offer on request that prices an option (on its indicative figure) is in the plan.
    pricing = {
        str(p["price_id"])
        for o in options
        for p in [(o.get("prices") or {}).get(o.get("billing_used") or "")]
        if p
    }
    for o in options:
        for offer in o.get("on_request") or []:
            if offer["price_id"] in seen or offer["price_id"] in pricing:
                continue
            server = offer.get("server") or {}
            per_unit = int(offer.get("gpus_per_unit") or 1)
            seen[offer["price_id"]] = {
                "provider": catalog_text(offer["provider"]),
                "region": region_text(offer.get("region")),
                "server": offer.get("sold_as") or server.get("name") or "",
                "spec": server_spec(server),
                "card": o["name"],
                "count": o["count"],
                "per_unit": per_unit,
                "units": -(-int(o["count"]) // per_unit),
                "house": bool(offer.get("house")),
                "deployment": modes_text(offer.get("modes") or ()),
                "price_id": offer["price_id"],
            }
    return list(seen.values())


def tco_rows(chosen: Option | None, result: ResultDocument) -> list[dict[str, Any]]:
    """Owned hardware's total cost of ownership as report lines: what each line costs a month,
    how it is worked out, and the source and date of the figures it uses."""
    t = cast(dict[str, Any], chosen).get("tco") if chosen is not None else None
    if not t or chosen is None:
        return []
    figures = cast(dict[str, Any], result["cost"]["figures_used"])
    used = t["figures"]

    def source(*keys: str) -> list[dict[str, Any]]:
        # The figure's name and the sites its source cites (the full research note, with its
        # long URLs, is on the catalog page and under Figures used).
        out = []
        for key in keys:
            name = used.get(key, "")
            fig = figures.get(name)
            if fig is not None:
                hosts = list(
                    dict.fromkeys(re.findall(r"https?://(?:www\.)?([^/\s);,]+)", fig["source"]))
                )
                label = engine_labels.shown("figure", name, result["lang"])
                out.append(
                    {
                        "text": f"{label}: {', '.join(hosts)}" if hosts else label,
                        "as_of": fig["as_of"],
                        "estimated": fig["estimated"],
                    }
                )
        return out

    count = chosen["count"]
    return [
        {
            "line": _("Purchase over the term"),
            "basis": _(
                "%(count)s × %(card)s a card + %(servers)s × %(server)s a server = %(capex)s, "
                "over %(months)s months"
            )
            % {
                "count": count,
                "card": usd(t["card_usd"]),
                "servers": t["servers"],
                "server": usd(t["server_usd"]),
                "capex": usd(t["capex_usd"]),
                "months": t["term_months"],
            },
            "usd": t["hardware_usd_per_month"],
            "sources": source("card", "server", "term"),
        },
        {
            "line": _("Electricity"),
            "basis": _("%(kw)s kW × PUE %(pue)s × %(kwh)s per kWh × %(hours)s hours")
            % {
                "kw": f"{t['kw']:,.2f}",
                "pue": f"{t['pue']:g}",
                "kwh": f"${t['usd_per_kwh']:.3f}",
                "hours": f"{(figures.get('hours_per_month') or {}).get('value', 730):g}",
            },
            "usd": t["power_usd_per_month"],
            "sources": source("server_overhead", "pue", "electricity"),
        },
        {
            "line": _("Colocation"),
            "basis": _("%(kw)s kW × %(rate)s per kW-month")
            % {"kw": f"{t['kw']:,.2f}", "rate": usd(t["colocation_usd_per_kw_month"])},
            "usd": t["colocation_usd_per_month"],
            "sources": source("colocation"),
        },
        {
            "line": _("Support"),
            "basis": _("a share of the purchase each year"),
            "usd": t["support_usd_per_month"],
            "sources": source("support"),
        },
        {
            "line": _("Staff"),
            "basis": _("operations hours at your staff's wage (see Staff)"),
            "usd": chosen["staff_usd_per_month"],
            "sources": [],
        },
    ]


def break_even_text(chosen: Option | None) -> str:
    """Break-even as a sentence: how busy the cards are and which fixed prices pay off."""
    if chosen is None:
        return ""
    shares = [(s, v) for s, v in chosen["break_even_utilisation"].items() if v is not None]
    if not shares:
        return ""
    parts = []
    for slot, share in shares:
        billing = BILLING_LABELS.get(slot, slot)
        if share > 1:
            parts.append(
                _("%(billing)s would not pay off even with the cards busy all month")
                % {"billing": billing}
            )
        else:
            parts.append(
                _("%(billing)s pays off once the cards are busy more than %(share)s of the month")
                % {"billing": billing, "share": percent(share)}
            )
    text = _("Against paying by the hour: %(parts)s.") % {"parts": "; ".join(str(p) for p in parts)}
    if chosen.get("utilisation") is not None:
        text += " " + _("This plan keeps them busy %(share)s of the month.") % {
            "share": percent(chosen["utilisation"])
        }
    return text


def _prices(cost: Cost) -> list[PriceUsed]:
    return sorted(cost["prices_used"], key=lambda p: (p["provider"], p["price_id"]))


def price_source_rows(cost: Cost) -> list[dict[str, Any]]:
    """The prices used as a customer checks them: one row per provider's price page and date
    ("AWS EC2 price list, 2026-01-21"), the regions it covers, and what to watch in words
    (old, undated, estimated, worked out from a node price). No internal ids."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for p in _prices(cost):
        key = (p["provider"], p["as_of"] or "")
        group = groups.setdefault(
            key,
            {"page": _price_page(p["provider"]), "as_of": p["as_of"], "regions": [], "notes": []},
        )
        region = region_text(p.get("region"))
        if region and region not in group["regions"]:
            group["regions"].append(region)
        notes = []
        if p["stale"]:
            notes.append(
                _("confirm before quoting")
                if not p["as_of"]
                else _("older than %(days)s days: confirm before quoting")
                % {"days": f"{cost['stale_after_days']:.0f}"}
            )
        if p["estimated"]:
            notes.append(_("an estimate"))
        if (p.get("gpus_per_unit") or 1) > 1:
            notes.append(
                _("sold as %(gpus)s-card servers; the per-card price is worked out from it")
                % {"gpus": p["gpus_per_unit"]}
            )
        elif p["derived"]:
            notes.append(_("worked out from the published price"))
        for n in notes:
            if n not in group["notes"]:
                group["notes"].append(n)
    return list(groups.values())


def figure_rows(cost: Cost, language: str) -> list[dict[str, Any]]:
    """The figures used, each named and its unit written in the report's language, with a stale
    flag against the result's own date and threshold."""
    today = parse_date(cost["today"])
    limit = cost["stale_after_days"]
    rows = []
    for key, fig in cost["figures_used"].items():
        as_of = parse_date(fig["as_of"])
        stale = bool(as_of and today and limit and (today - as_of).days > limit)
        unit = engine_labels.unit(fig.get("unit") or "", language)
        # One label table (advisor/engine/text/labels.py) names every figure in both languages.
        label = engine_labels.shown("figure", key, language)
        rows.append({"key": key, **fig, "label": label, "unit": unit, "stale": stale})
    return rows
