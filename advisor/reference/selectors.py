"""Read-side queries for scoring models and the catalog."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from accounts.models import User
from accounts.selectors import organizations_for_user
from advisor.charts.impact import score_shift_chart
from advisor.labels import label_for
from advisor.models import Assessment
from advisor.reference.models import Catalog, ImpactPreview, PriceRefresh, ScoringModel
from advisor.reference.prices import registry as price_sources
from advisor.reference.prices import skypilot

PREVIEW_ROWS_SHOWN = 200


def freshness(row: Any, days: int) -> str:
    """'undated', 'stale' (older than `days`) or 'current', for a price or any sourced row."""
    if row.as_of is None:
        return "undated"
    return "stale" if (timezone.localdate() - row.as_of).days > days else "current"


def price_cross_check() -> dict[str, Any] | None:
    """The published catalog's prices against SkyPilot's committed, dated extract: the rows a
    second source confirms (within 5 %) and those it puts more than 20 % away (flagged)."""
    published = Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
    if published is None:
        return None
    document = published.to_document()
    hours = ((document.get("figures") or {}).get("hours_per_month") or {}).get("value") or 730
    checks = skypilot.cross_check(document["prices"], hours_per_month=float(hours))
    return {
        "compared": len(checks),
        "confirmed": [c for c in checks if c.state == "confirmed"],
        "flagged": [c for c in checks if c.state == "differs"],
        "within": f"{skypilot.CONFIRMED_WITHIN:.0%}",
        "beyond": f"{skypilot.FLAG_BEYOND:.0%}",
    }


def price_refresh_summary() -> list[dict[str, Any]]:
    """Per source: the newest run and the newest successful one (the admin catalog page), and
    for SkyPilot the second-source check of the published prices."""
    out = []
    for source, label in price_sources.choices():
        runs = PriceRefresh.objects.filter(source=source).select_related("draft")
        out.append(
            {
                "source": label,
                "last": runs.first(),
                "last_success": runs.filter(status=PriceRefresh.Status.DONE).first(),
                "cross_check": price_cross_check() if source == skypilot.SOURCE.name else None,
            }
        )
    return out


def catalog_availability(catalog: Any) -> list[dict[str, Any]]:
    """Where each card is offered, per customer region, from a catalog's availability table:
    the cards, the provider regions behind them and what is not offered there (a price-list
    row is not availability), each with its source and date (the `/catalog/` page)."""
    names = {a.key: a.name for a in catalog.accelerators.all()}
    table = ((catalog.data or {}).get("availability") or {}).get("regions") or {}

    def cards(keys: Iterable[str]) -> list[str]:
        return [names.get(k, k) for k in keys]

    return [
        {
            "key": key,
            "name": label_for("region", key),
            "cards": cards(row.get("public_cloud") or []),
            "hosted": cards(row.get("hosted") or []),
            "source": row.get("source"),
            "as_of": row.get("as_of"),
            "note": row.get("note"),
            "by_provider": [
                {**e, "cards": cards(e.get("cards") or [])} for e in row.get("by_provider") or []
            ],
            "not_offered": [
                {**e, "cards": cards(e.get("cards") or [])} for e in row.get("not_offered") or []
            ],
        }
        for key, row in table.items()
    ]


# How many of the newest finished reports the house-offer demand column reads:
# enough to plan capacity from, few enough that the admin list stays one cheap query.
HOUSE_DEMAND_REPORTS = 200


def _offers_in(workload: dict[str, Any]) -> tuple[set[str], str | None]:
    """(house offers that fit one of the workload's options, the one its first option is
    billed at or lists as the operator's server for it)."""
    fitted: set[str] = set()
    won: str | None = None
    for rank, option in enumerate(workload.get("options") or []):
        used = option.get("billing_used")
        price = (option.get("prices") or {}).get(used) if used else None
        here = [price] if price and price.get("house") else []
        here += [o for o in option.get("on_request") or [] if o.get("house")]
        here += list(option.get("house_on_request") or [])
        # A server far from the team (listed "elsewhere") is no demand for its site.
        here = [o for o in here if o.get("region_match") != "elsewhere"]
        fitted |= {str(o["price_id"]) for o in here}
        if rank == 0 and here:
            won = str(here[0]["price_id"])
    return fitted, won


def house_offer_demand(*, limit: int = HOUSE_DEMAND_REPORTS) -> dict[str, tuple[int, int, int]]:
    """Per house offer id: (assessments whose latest report it would have fitted, those it
    won, the assessments read), over the newest `limit` finished reports, one per assessment,
    from their stored results (no engine run)."""
    from advisor.models import Report  # the reports this admin column reads

    rows = (
        Report.objects.filter(status=Report.Status.DONE)
        .order_by("-finished_at", "-pk")
        .values_list("assessment_id", "result__workloads")[:limit]
    )
    fitted: dict[str, int] = {}
    won: dict[str, int] = {}
    seen: set[int] = set()
    for assessment_id, workloads in rows:
        if assessment_id in seen:
            continue
        seen.add(assessment_id)
        fit_here: set[str] = set()
        won_here: set[str] = set()
        for w in workloads or []:
            f, first = _offers_in(w)
            fit_here |= f
            if first is not None:
                won_here.add(first)
        for key in fit_here:
            fitted[key] = fitted.get(key, 0) + 1
        for key in won_here:
            won[key] = won.get(key, 0) + 1
    return {key: (fitted[key], won.get(key, 0), len(seen)) for key in fitted}


def latest_preview(
    model: ScoringModel | Catalog, *, finished: bool = False
) -> ImpactPreview | None:
    previews = model.previews.all()
    if finished:
        previews = previews.filter(status=ImpactPreview.Status.DONE)
    return previews.order_by("-requested_at").first()


def preview_context(preview: ImpactPreview | None, *, user: User | AnonymousUser) -> dict[str, Any]:
    """A preview covers every organisation's assessments: its counts are for all of them, but
    it lists only the assessments `user` may open (those of their own organisations)."""
    result = preview.result if preview is not None and preview.result else None
    kept = (result or {}).get("flipped", [])
    openable = set(
        Assessment.objects.filter(
            pk__in=[row["id"] for row in kept], organization__in=organizations_for_user(user=user)
        ).values_list("pk", flat=True)
    )
    flipped = [row for row in kept if row["id"] in openable]
    return {
        "preview": preview,
        "result": result,
        "chart": score_shift_chart(result) if result else None,
        "flipped": flipped[:PREVIEW_ROWS_SHOWN],
        "flipped_listable": len(flipped),
        # Of other organisations, or past the FLIPS_KEPT rows a preview keeps.
        "flipped_unlisted": (result or {}).get("flipped_total", 0) - len(flipped),
    }
