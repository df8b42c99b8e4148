"""The notes an option carries in the report: the whole server a card is sold in, the unit and
basis of the first option, the China path, an unpriced card and the owned hardware's TCO.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from advisor.engine.catalog import Catalog
from advisor.engine.pricing.regions import in_country
from advisor.engine.text import i18n, labels


def whole_server_note(
    kind: str, options: Sequence[Mapping[str, Any]], budget: float | None, lang: str
) -> str | None:
    """A first option billed in servers larger than the workload needs (a
    house server sold only as 8 cards for a job that fits one) says so, with the idle cards'
    cost, the cheapest smaller priced option it was compared against and the budget it
    exceeds; None when the option uses what it pays for."""
    first = options[0] if options else None
    if first is None or not first.get("billing_used"):
        return None
    price = first["prices"].get(first["billing_used"]) or {}
    per_unit = int(price.get("gpus_per_unit") or 1)
    needed = int(first.get("min_count") or first["count"])
    billed = int(first.get("billed_count") or first["count"])
    monthly = first.get("monthly_cost_usd")
    # Only where no unit note explains the purchase (a house or hosting row sold as a server).
    if per_unit <= 1 or billed <= needed or monthly is None or price.get("sold_unit"):
        return None
    smaller = next(
        (
            o
            for o in options[1:]
            if o.get("monthly_cost_usd") is not None
            and o["monthly_cost_usd"] < monthly
            and o["stack"]["runnable"]
        ),
        None,
    )
    per_card = float(price.get("usd_per_device_month") or 0.0)
    parts = [
        i18n.message(
            "option.whole_server",
            lang,
            kind=i18n.label(kind, lang),
            card=first["name"],
            needed=needed,
            gpus=per_unit,
            servers=-(-billed // per_unit),
            idle=billed - needed,
            idle_usd=f"{(billed - needed) * per_card:,.0f}",
        )
    ]
    if smaller is not None:
        parts.append(
            i18n.message(
                "option.whole_server_smaller",
                lang,
                card=smaller["name"],
                count=smaller["count"],
                usd=f"{smaller['monthly_cost_usd']:,.0f}",
            )
        )
    # The budget is checked against compute and hosting; operations are named apart.
    compute = (
        monthly
        - float(first.get("staff_usd_per_month") or 0)
        - float(first.get("ops_bought_in_usd_per_month") or 0)
    )
    if budget is not None and compute > budget:
        parts.append(
            i18n.message(
                "option.whole_server_budget",
                lang,
                usd=f"{compute:,.0f}",
                budget=f"{budget:,.0f}",
            )
        )
    return " ".join(parts)


def first_runnable(options: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The first option that runs the stack as it is."""
    return next((o for o in options if o["stack"]["runnable"]), None)


def first_option_notes(
    kind: str, mode: str, first: Mapping[str, Any] | None, regions: Sequence[str], lang: str
) -> list[str]:
    """What the report must say about the basis of a workload's first option: unpriced (and on
    what basis it was ranked), or priced from outside the customer's region group; then how it
    is bought (whole units of one offer), what its network between units costs in time and
    whether its provider rents that many on demand."""
    return (
        _basis_notes(kind, mode, first, regions, lang)
        + tco_notes(kind, first, lang)
        + unit_notes(kind, first, lang)
    )


def unit_notes(kind: str, first: Mapping[str, Any] | None, lang: str) -> list[str]:
    """The first option as bought: k units of one offer with tensor parallelism inside a unit;
    a multi-unit run without an RDMA fabric or slowed by its network; beyond on-demand stock."""
    if first is None or not first.get("billing_used"):
        return []
    price = first["prices"].get(first["billing_used"]) or {}
    sold = price.get("sold_unit")
    out = []
    card, kind_label = first["name"], i18n.label(kind, lang)
    if sold:
        tp = int(first.get("tensor_parallel") or 1)
        out.append(
            i18n.message(
                "option.sold_as",
                lang,
                kind=kind_label,
                card=card,
                units=sold["units"],
                unit=sold["name"],
                gpus=sold["gpus"],
                tp=i18n.message("option.tp_inside", lang, tp=tp) if tp > 1 else "",
            )
        )
    net = first.get("network")
    if net and (not net["fabric"] or net["time_factor"] > 1.0):
        code = "option.no_fabric" if not net["fabric"] else "option.network_time"
        out.append(
            i18n.message(
                code,
                lang,
                kind=kind_label,
                card=card,
                units=net["units"],
                network=i18n.message(f"unit.network.{net['network']}", lang),
                gbps=net["network_gbps"],
                gb=net["sync_gb_per_step"],
                factor=net["time_factor"],
            )
        )
    cap = first.get("capacity")
    if cap:
        needs = (
            i18n.message(
                "option.needs_block_priced" if cap.get("priced_on_block") else "option.needs_block",
                lang,
                provider=cap["block_provider"],
                usd=cap["block_usd_per_device_hour"],
                terms=i18n.catalog_text(cap["lead_time"] or "", lang),
            )
            if cap["needs"] == "capacity_block"
            else i18n.message("option.needs_reservation", lang)
        )
        out.append(
            i18n.message(
                "option.beyond_on_demand",
                lang,
                kind=kind_label,
                count=cap["billed"],
                card=card,
                provider=cap["provider"],
                ceiling=cap["on_demand_ceiling"],
                needs=needs,
            )
        )
    return out


def _basis_notes(
    kind: str, mode: str, first: Mapping[str, Any] | None, regions: Sequence[str], lang: str
) -> list[str]:
    note = unpriced_note(kind, mode, first, lang)
    if note is not None:
        return [note]
    used = None if first is None else first.get("billing_used")
    price = first["prices"].get(used) if first is not None and used else None
    if first is None or price is None:
        return []
    if price.get("in_country"):
        return [
            i18n.message(
                "option.priced_in_country",
                lang,
                kind=i18n.label(kind, lang),
                card=first["name"],
                provider=i18n.catalog_text(price["provider"], lang),
                region=i18n.region_text(price["region"], lang),
                regions=i18n.list_separator(lang).join(
                    i18n.value_label("organization.regions", r, lang)
                    for r in regions
                    if in_country(price["region_key"], (r,))
                ),
            )
        ]
    if price["region_match"] == "nearby" and not first["availability"]["available"]:
        return [
            i18n.message(
                "option.priced_nearby_not_here",
                lang,
                kind=i18n.label(kind, lang),
                card=first["name"],
                region=i18n.region_text(price["region"], lang),
                provider=i18n.catalog_text(price["provider"], lang),
                regions=i18n.list_separator(lang).join(
                    i18n.value_label("organization.regions", r, lang) for r in regions
                ),
            )
        ]
    if price["region_match"] != "elsewhere":
        return []
    return [
        i18n.message(
            "option.priced_elsewhere",
            lang,
            kind=i18n.label(kind, lang),
            card=first["name"],
            region=i18n.region_text(price["region"], lang)
            or i18n.message("option.region_not_stated", lang),
            provider=i18n.catalog_text(price["provider"], lang),
            regions=i18n.list_separator(lang).join(
                i18n.value_label("organization.regions", r, lang) for r in regions
            ),
            offered=i18n.message(
                "option.offered_here" if first["availability"]["available"] else "option.not_here",
                lang,
            ),
        )
    ]


def china_note(kind: str, first: Mapping[str, Any] | None, lang: str) -> str | None:
    """What reaching mainland China means for a workload's first option, in words: the Mbps it
    needs against what its server includes and what more costs, or that no price is known (never
    a silent zero); on public cloud, whether the cloud publishes an egress price to China."""
    if first is None:
        return None
    what = i18n.label(kind, lang)
    egress = first.get("china_egress")
    if egress is not None:
        code = "china.egress_china_rate" if egress["china_rate"] else "china.egress_no_china_rate"
        return (
            i18n.message(
                code,
                lang,
                kind=what,
                provider=egress["provider"],
                rate=f"{egress['usd_per_gb']:g}",
                figure=labels.shown("figure", egress["egress_figure"], lang),
            )
            + " "
            + china_path(first, lang)
        ).strip()
    bw = first.get("china_bandwidth")
    if bw is None:
        return None
    return i18n.message(
        f"china.{bw['status']}",
        lang,
        kind=what,
        basis=i18n.message(f"china.basis.{bw['basis']}", lang),
        needed=mbps_text(bw["needed_mbps"]),
        provider=bw["provider"],
        included=mbps_text(bw["included_mbps"]),
        route=labels.shown("china_route", bw["route"], lang) if bw["route"] else "",
        extra=f"{bw['extra_mbps']:,}",
        per_mbps=f"{bw['usd_per_mbps_month']:,.2f}" if bw["usd_per_mbps_month"] else "",
        usd=f"{bw['usd_per_month']:,.0f}" if bw["usd_per_month"] else "",
        as_of=bw["as_of"] or i18n.message("option.undated", lang),
    )


def china_path(first: Mapping[str, Any], lang: str) -> str:
    """A public-cloud option's path to mainland China users, said plainly:
    internet egress with no premium route, the expected round trip from where it runs and the
    loss measured at the evening peak."""
    egress = first["china_egress"]
    path = egress.get("path")
    if path is None:
        return ""
    return i18n.message(
        "china.public_path",
        lang,
        rtt=f"{path['round_trip_ms']:,.0f}",
        region=i18n.region_text(egress.get("region") or "", lang)
        or i18n.message("option.region_not_stated", lang),
        loss=f"{path['peak_loss'] * 100:.0f}",
    )


def china_reach_note(
    kind: str, first: Mapping[str, Any] | None, catalog: Catalog, lang: str
) -> str | None:
    """What reaching a mainland user adds to a workload's first option's latency, with each
    figure's name and basis: the path's round trip and, where the path loses
    packets at the evening peak, the retransmission allowance; then whether the target holds."""
    reach = None if first is None else first.get("china_reach")
    if first is None or reach is None or reach["round_trip_figure"] is None:
        return None

    def basis(key: str) -> str:
        fig = catalog.figures[key]
        if fig.get("estimated") or not fig.get("as_of"):
            return i18n.message("china.reach_basis_estimated", lang)
        return i18n.message("china.reach_basis_measured", lang, as_of=fig["as_of"])

    target = first.get("latency_target_ms")
    if first.get("ttft_ms") is None:
        # Work in its own unit (images, audio, pairs) has no first token: its latency is per
        # request, when the benchmark it is sized from states one.
        latency = first.get("latency_at_metric_ms")
        if latency is None:
            verdict = i18n.message("china.reach_request_unknown", lang)
        elif target is None:
            verdict = i18n.message("china.reach_request_no_target", lang, ms=f"{latency:,.0f}")
        else:
            verdict = i18n.message(
                "china.reach_request_meets"
                if first.get("meets_latency")
                else "china.reach_request_misses",
                lang,
                ms=f"{latency:,.0f}",
                target=f"{target:,.0f}",
            )
    elif target is None or first.get("latency_metric") != "ttft":
        verdict = i18n.message("china.reach_no_target", lang, ttft=f"{first['ttft_ms']:,.0f}")
    else:
        verdict = i18n.message(
            "china.reach_meets" if first.get("meets_latency") else "china.reach_misses",
            lang,
            ttft=f"{first['ttft_ms']:,.0f}",
            target=f"{target:,.0f}",
        )
    route = reach["premium_route"]
    return i18n.message(
        "china.reach_loss" if reach["lost_packets"] else "china.reach_no_loss",
        lang,
        kind=i18n.label(kind, lang),
        rtt=f"{reach['round_trip_ms']:,.0f}",
        region=i18n.value_label("organization.regions", reach["region"], lang)
        if reach["region"]
        else i18n.message("option.region_not_stated", lang),
        route=labels.shown("china_route", route, lang)
        if route
        else i18n.message("china.reach_route_internet", lang),
        figure=labels.shown("figure", reach["round_trip_figure"], lang),
        basis=basis(reach["round_trip_figure"]),
        retransmit=f"{reach['retransmit_ms']:,.0f}",
        loss=f"{reach['peak_loss'] * 100:.0f}",
        loss_figure=labels.shown("figure", reach["loss_figure"], lang),
        loss_basis=basis(reach["loss_figure"]),
        rto=f"{catalog.figure('tcp_rto_min_ms'):,.0f}",
        added=f"{reach['added_ms']:,.0f}",
        verdict=verdict,
    )


def mbps_text(value: float) -> str:
    """Mbps as a sentence writes them: two decimals below 10, whole above."""
    return f"{value:,.2f}" if value < 10 else f"{value:,.0f}"


def unpriced_note(kind: str, mode: str, first: Mapping[str, Any] | None, lang: str) -> str | None:
    """When a workload's first option is unpriced (so none is): on what basis its options were
    ranked."""
    unpriced = None if first is None else first.get("unpriced")
    if first is None or unpriced is None:
        return None
    return i18n.message(
        "option.unpriced_first",
        lang,
        kind=i18n.label(kind, lang),
        mode=i18n.label(mode, lang),
        why=i18n.message(f"option.unpriced.{unpriced['reason']}", lang),
        count=first["count"],
        card=first["name"],
        memory=f"{unpriced['memory_gb']:,.0f}",
    )


def tco_notes(kind: str, first: Mapping[str, Any] | None, lang: str) -> list[str]:
    """Owned hardware's cost of ownership line by line: the purchase over the term,
    electricity, colocation, support and staff; the break-even month against renting the same
    cards; and the purchase against the hardware budget when one is answered."""
    t = None if first is None else first.get("tco")
    if first is None or t is None:
        return []
    kind_label = i18n.label(kind, lang)
    region = i18n.value_label("organization.regions", t["region"], lang)
    text = i18n.message(
        "option.tco",
        lang,
        kind=kind_label,
        count=first["count"],
        card=first["name"],
        servers=t["servers"],
        capex=f"{t['capex_usd']:,.0f}",
        card_usd=f"{t['card_usd']:,.0f}",
        server_usd=f"{t['server_usd']:,.0f}",
        months=t["term_months"],
        term=i18n.message(f"option.tco.term_{t['term_basis']}", lang),
        hardware=f"{t['hardware_usd_per_month']:,.0f}",
        kw=f"{t['kw']:,.2f}",
        pue=f"{t['pue']:g}",
        kwh=f"{t['usd_per_kwh']:.3f}",
        power=f"{t['power_usd_per_month']:,.0f}",
        colo_rate=f"{t['colocation_usd_per_kw_month']:,.0f}",
        colo=f"{t['colocation_usd_per_month']:,.0f}",
        region=region
        if t["regional"]
        else i18n.message("option.tco.stand_in", lang, region=region),
        support=f"{t['support_usd_per_month']:,.0f}",
        staff=f"{first.get('staff_usd_per_month') or 0:,.0f}",
        total=f"{first['monthly_cost_usd']:,.0f}",
    )
    be = t["break_even"]
    where = i18n.region_text(be.get("region") or "", lang) or "—"
    if be["reason"] == "no_rental":
        text += " " + i18n.message("option.tco.no_rental", lang, card=first["name"])
    elif be["reason"] == "never":
        text += " " + i18n.message(
            "option.tco.never",
            lang,
            rent=f"{be['rental_usd_per_month']:,.0f}",
            provider=i18n.catalog_text(be["provider"], lang),
            region=where,
        )
    else:
        text += " " + i18n.message(
            "option.tco.break_even",
            lang,
            rent=f"{be['rental_usd_per_month']:,.0f}",
            provider=i18n.catalog_text(be["provider"], lang),
            region=where,
            as_of=be["as_of"] or i18n.message("option.undated", lang),
            month=be["month"],
            after=i18n.message("option.tco.after_term", lang, months=t["term_months"])
            if be["reason"] == "after_term"
            else "",
        )
    out = [text]
    if t["over_capex_budget"] is not None:
        out.append(
            i18n.message(
                "option.tco.over_capex" if t["over_capex_budget"] else "option.tco.within_capex",
                lang,
                kind=kind_label,
                capex=f"{t['capex_usd']:,.0f}",
                budget=f"{t['capex_budget_usd']:,.0f}",
            )
        )
    return out
