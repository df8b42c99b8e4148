"""Quote requests for house offers: the quote a finished report makes (the offer, its server
and every workload it serves, sized) and the requests a person may see."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet
from django.http import Http404

from accounts.models import Organization, User
from accounts.selectors import is_operator_staff
from advisor.models import Lead, Report
from advisor.reporting.dead_ends import dead_end_offer


def _house_offer(option: dict[str, Any]) -> dict[str, Any] | None:
    """The house offer behind an option: the house price it is billed at, else one sold on
    request beside it (a house one first), else the operator's server for this workload the
    engine lists on the first priced option (`house_on_request`)."""
    used = option.get("billing_used")
    price = (option.get("prices") or {}).get(used) if used else None
    if price and price.get("house"):
        # An indicative figure is not a price to sign: the quote asks for one.
        return {**price, "price_on_request": bool(price.get("indicative"))}
    offers = sorted(option.get("on_request") or [], key=lambda o: not o.get("house"))
    if offers:
        return {**offers[0], "price_on_request": True}
    beside = option.get("house_on_request") or []
    return {**beside[0], "price_on_request": True} if beside else None


def _named_offer(options: list[dict[str, Any]], price_id: str) -> tuple[Any, Any] | None:
    """(option, offer) for the house offer `price_id` among a workload's options: the price an
    option is billed at, or one sold on request beside it."""
    for option in options:
        used = option.get("billing_used")
        price = (option.get("prices") or {}).get(used) if used else None
        if price and price.get("house") and price.get("price_id") == price_id:
            return option, {**price, "price_on_request": bool(price.get("indicative"))}
        for offer in option.get("on_request") or []:
            if offer.get("house") and offer.get("price_id") == price_id:
                return option, {**offer, "price_on_request": True}
    return None


# The server as the operator entered it in the house-offer form (reference/admin/house_offers.py).
ENTERED_SERVER = (
    "name",
    "cpu",
    "ram_gb",
    "nvme_tb",
    "network_gbps",
    "china_bandwidth_type",
    "china_bandwidth_mbps",
    "min_term_months",
    "setup_fee_usd",
)


def _sized(kind: Any, option: dict[str, Any], offer: dict[str, Any]) -> dict[str, Any]:
    """One workload's part of a quote: the cards it needs (a training run's minimum, not the
    count it was stretched to on a whole server) and the whole servers that hold them."""
    # The operator's server listed beside a first option of another card or mode
    # carries its own card and the count that card needs.
    own = offer.get("needed_count") is not None and offer.get("accelerator_id")
    needed = int(
        offer["needed_count"] if own else option.get("min_count") or option.get("count") or 1
    )
    per_unit = max(1, int(offer.get("gpus_per_unit") or 1))
    # A server is sold whole: a priced offer bills the option's count, one on request the
    # servers that hold what the sizing needs.
    billed = int(option.get("billed_count") or needed) if not offer["price_on_request"] else 0
    count = max(billed, -(-needed // per_unit) * per_unit)
    return {
        "workload": kind,
        "accelerator_id": offer["accelerator_id"] if own else option.get("accelerator_id"),
        "accelerator": offer.get("name") if own else option.get("name"),
        "count": count,
        "needed_count": needed,
        "gpus_per_unit": per_unit,
        "units": count // per_unit,
        "monthly_cost_usd": None if offer["price_on_request"] else option.get("monthly_cost_usd"),
    }


def quote_snapshot(*, report: Report, offer_id: str = "") -> dict[str, Any] | None:
    """What a quote request sends, read from a finished report: the house offer (the first
    option of the first workload that has one, or `offer_id`, one the report lists beside any
    option), the server as the operator entered it, and every workload of the report the offer
    serves, each sized (cards needed, whole servers), with the report it comes from; None when
    the report has no house offer to quote."""
    result = report.result or {}
    parts: list[dict[str, Any]] = []
    offer: dict[str, Any] | None = None
    first_option: dict[str, Any] = {}
    china: dict[str, Any] | None = None
    for w in result.get("workloads") or []:
        options = w.get("options") or []
        # A dead end's quote is the operator's sized server for it, even where
        # its unpriced options list the same server on request.
        found: tuple[Any, Any] | None = (
            dead_end_offer(w, offer_id or str((offer or {}).get("price_id") or ""))
            if w.get("dead_end")
            else None
        )
        if found is None and (offer_id or offer is not None):
            found = _named_offer(options, offer_id or str(offer["price_id"]))  # type: ignore[index]
            if found is None and options:
                beside = [
                    o
                    for o in options[0].get("house_on_request") or []
                    if o.get("price_id") == (offer_id or offer["price_id"])  # type: ignore[index]
                ]
                found = (options[0], {**beside[0], "price_on_request": True}) if beside else None
        elif found is None and options:
            house = _house_offer(options[0])
            found = (options[0], house) if house is not None else None
        if found is None:
            continue
        option, this = found
        own = option.get("accelerator_id") == this.get("accelerator_id", option["accelerator_id"])
        if not own:
            # The operator's server listed on the first option sizes its own card.
            option = {
                "accelerator_id": this["accelerator_id"],
                "name": this.get("name"),
                "count": this.get("needed_count"),
            }
        if offer is None:
            offer, first_option = this, option
            china = option.get("china_bandwidth") if own else None
        parts.append(_sized(w.get("kind"), option, this))
    if offer is None:
        return None
    head = parts[0]
    entered = offer.get("server") or {}
    regions = ((report.answers or {}).get("organization") or {}).get("regions") or []
    region = offer.get("region_key") or (regions[0] if regions else "")
    units = sum(p["units"] for p in parts)
    priced = [p["monthly_cost_usd"] for p in parts if p["monthly_cost_usd"] is not None]
    # The workloads it carries share one fleet: the quote is that fleet, its servers and month.
    fleet = next(
        (
            g
            for g in (result.get("fleet") or {}).get("groups") or []
            if g.get("shared")
            and g.get("server") in (offer.get("sold_as"), (offer.get("server") or {}).get("name"))
            and set(g.get("workloads") or ()) >= {p["workload"] for p in parts}
        ),
        None,
    )
    if fleet is not None:
        units = int(fleet["servers_shared"])
        if priced:
            priced = [sum(priced) - float(fleet["saves_usd_per_month"])]
    return {
        **(
            {"fleet": {k: fleet[k] for k in ("servers_shared", "servers_separate", "statement")}}
            if fleet is not None
            else {}
        ),
        **head,
        "deployment_mode": next(
            (
                w.get("deployment_mode")
                for w in result.get("workloads") or []
                if w.get("kind") == head["workload"]
            ),
            None,
        ),
        "summary": f"{head['count']} × {head['accelerator']}"
        if len(parts) == 1
        else " + ".join(f"{p['count']} × {p['accelerator']}" for p in parts),
        # Every workload of the report this offer serves, and the servers they take together.
        "workloads": parts,
        "total_units": units,
        "total_monthly_cost_usd": round(sum(priced), 2) if priced else None,
        # The server as the operator entered it (never the engine's re-sized host).
        # A dead end's quote fills what the operator left out with the host sized for the
        # workload (cpu_cores, ram_gib: never keys of an entered server).
        "server": {
            k: entered.get(k)
            for k in (*ENTERED_SERVER, "cpu_cores", "ram_gib")
            if entered.get(k) not in (None, "")
        },
        "offer": {
            k: offer.get(k)
            for k in (
                "price_id",
                "provider",
                "region",
                "sold_as",
                "gpus_per_unit",
                "usd_per_device_month",
                "price_on_request",
                "server",
                "modes",
            )
            if offer.get(k) is not None
        },
        "monthly_cost_usd": first_option.get("monthly_cost_usd")
        if not offer["price_on_request"]
        else None,
        "region": region,
        "catalog": report.catalog_version,
        "report": {"assessment": report.assessment_id, "number": report.number},
        "budget_usd": ((report.answers or {}).get("cost") or {}).get("monthly_budget_usd"),
        # Engine 2.2: the bandwidth to mainland China the workload needs, when it must.
        **(
            {
                "china_bandwidth": {
                    k: china.get(k) for k in ("needed_mbps", "route", "included_mbps", "status")
                }
            }
            if china
            else {}
        ),
    }


def operator_name() -> str | None:
    """The public name of the company running the site (the operating organisation), which a
    house offer is credited to; None when no organisation is marked as the operator."""
    return Organization.objects.filter(is_operator=True).values_list("name", flat=True).first()


def leads_for_user(*, user: User, organization: Organization | None) -> QuerySet[Lead]:
    """Quote requests a person sees: every one for the operating organisation's sales engineers
    and admins; otherwise their current organisation's own."""
    leads = Lead.objects.select_related("organization", "requested_by", "report__assessment")
    if is_operator_staff(user=user):
        return leads
    if organization is None:
        return leads.none()
    return leads.filter(organization=organization)


def leads_for_report(*, report: Report) -> QuerySet[Lead]:
    return Lead.objects.filter(report=report).select_related("requested_by")


def lead_get_for_operator(*, user: User | AnonymousUser, pk: int) -> Lead:
    """A quote request for the operating organisation's staff; 404 for anyone else."""
    if not is_operator_staff(user=user):
        raise Http404
    try:
        return Lead.objects.get(pk=pk)
    except Lead.DoesNotExist as error:
        raise Http404 from error
