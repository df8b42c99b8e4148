"""Read-side queries for scoring models and the catalog."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

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
