"""Read-side queries for scoring models and the catalog."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils import timezone

from advisor.labels import label_for
from advisor.reference.models import PriceRefresh


def freshness(row: Any, days: int) -> str:
    """'undated', 'stale' (older than `days`) or 'current', for a price or any sourced row."""
    if row.as_of is None:
        return "undated"
    return "stale" if (timezone.localdate() - row.as_of).days > days else "current"


def price_refresh_summary() -> list[dict[str, Any]]:
    """Per source: the newest run and the newest successful one (the admin catalog page)."""
    out = []
    for source in PriceRefresh.Source:
        runs = PriceRefresh.objects.filter(source=source).select_related("draft")
        out.append(
            {
                "source": source.label,
                "last": runs.first(),
                "last_success": runs.filter(status=PriceRefresh.Status.DONE).first(),
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
