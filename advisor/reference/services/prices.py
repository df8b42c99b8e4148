"""The public price refresh (a draft catalog with the clouds' listed prices) and the freshness
of the prices the sample reports use."""

from __future__ import annotations

import dataclasses
import logging
import re
from datetime import date
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from advisor.decisions import live
from advisor.engine import evaluate, load_catalog
from advisor.engine.answers.samples import sample
from advisor.reference.models import Catalog, PriceRefresh
from advisor.reference.prices import registry as price_sources
from advisor.reference.prices.base import (
    PLACES,
    PriceTarget,
    PriceUpdate,
    SourceResult,
    SourceUnavailable,
    Transport,
    UrllibTransport,
)
from advisor.reference.services.catalog import (
    catalog_document_problems,
    catalog_from_document,
    catalog_next_version,
    catalog_storage_problems,
)
from advisor.reference.services.impact import impact_preview_request
from advisor.reference.services.scoring import ScoringModelInvalid
from advisor.starters import STARTERS

logger = logging.getLogger(__name__)


PRICE_REFRESH_MAX_PROBLEMS = 50


def _refresh_finish(run: PriceRefresh, status: str, message: str, **fields: Any) -> None:
    run.status = status
    run.message = message
    run.finished_at = timezone.now()
    for name, value in fields.items():
        setattr(run, name, value)
    run.save()


def _problems_text(problems: list[str]) -> str:
    shown = problems[:PRICE_REFRESH_MAX_PROBLEMS]
    more = len(problems) - len(shown)
    return "\n".join(shown) + (
        "\n" + gettext("… and %(count)s more.") % {"count": more} if more else ""
    )


def _hourly(price: dict[str, Any], hours_per_month: Decimal) -> Decimal | None:
    """A row's figure per device-hour; a row priced by the month (a regional 1-year
    reservation) is compared by its monthly figure over the catalog's hours per month."""
    if price.get("usd_per_device_hour") is not None:
        return Decimal(str(price["usd_per_device_hour"]))
    if price.get("usd_per_device_month") is not None:
        return Decimal(str(price["usd_per_device_month"])) / hours_per_month
    return None


def _price_targets(document: dict[str, Any]) -> list[PriceTarget]:
    figure = (document.get("figures") or {}).get("hours_per_month") or {}
    hours = Decimal(str(figure.get("value") or 730))
    return [
        PriceTarget(
            key=str(p["id"]),
            accelerator=str(p["accelerator_id"]),
            cloud=str(p.get("cloud") or ""),
            billing=str(p.get("billing") or ""),
            region=str(p.get("region") or ""),
            usd_per_device_hour=_hourly(p, hours),
            unit=str(p.get("unit") or ""),
            gpus_per_unit=int(p.get("gpus_per_unit") or 1),
            unit_id=str(p.get("unit_id") or ""),
            provider=str(p.get("provider") or ""),
        )
        for p in document["prices"]
    ]


def _apply_updates(
    document: dict[str, Any], source: str, updates: list[PriceUpdate], today: date
) -> int:
    """Writes `updates` into the document's prices; returns how many prices changed value."""
    by_key = {str(p["id"]): p for p in document["prices"]}
    changed = 0
    for update in updates:
        price = by_key[update.key]
        old = price.get("usd_per_device_hour")
        if old is None or Decimal(str(old)).quantize(PLACES) != update.usd_per_device_hour:
            changed += 1
        price["usd_per_device_hour"] = float(update.usd_per_device_hour)
        price["usd_per_device_month"] = None  # the list prices by the hour
        price["as_of"] = today.isoformat()
        price["source"] = update.source
        price["derived"] = update.derived
        price["estimated"] = False
        if update.region:
            price["region"], price["region_key"] = update.region, update.region_key
        price["price_list"] = {"source": source, "read": today.isoformat(), **update.detail}
    return changed


def price_refresh(
    *,
    sources: list[str],
    transport: Transport,
    user: User | None = None,
    api_key: str = "",
) -> list[PriceRefresh]:
    """Fetch the public price lists of `sources` for the published catalog's cloud prices and,
    when any source answers well, write one draft catalog with the new prices, their dates and
    sources (then request its impact preview). A source that fails — no answer, a malformed,
    partial or implausible document — is recorded with every problem and contributes nothing;
    the published catalog is never changed. Google Cloud without an API key is skipped."""
    today = timezone.localdate()
    runs = {
        source: PriceRefresh.objects.create(source=source, started_at=timezone.now())
        for source in sources
    }
    published = Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
    if published is None:
        for run in runs.values():
            _refresh_finish(run, PriceRefresh.Status.FAILED, gettext("No catalog is published."))
        return list(runs.values())
    document = published.to_document()
    targets = _price_targets(document)
    good: dict[str, SourceResult] = {}
    for source, run in runs.items():
        price_source = price_sources.get(source)
        if price_source.missing_key and not api_key:
            _refresh_finish(run, PriceRefresh.Status.SKIPPED, gettext(price_source.missing_key))
            continue
        try:
            result = price_source.collect(targets, transport, today=today, api_key=api_key)
        except SourceUnavailable as error:
            logger.warning("price refresh %s: %s", source, error)
            _refresh_finish(run, PriceRefresh.Status.FAILED, str(error))
            continue
        except Exception as error:  # a document no check foresaw must not leave a run running
            logger.exception("price refresh %s", source)
            _refresh_finish(
                run,
                PriceRefresh.Status.FAILED,
                gettext("Unexpected error while reading this price list: %(error)s")
                % {"error": repr(error)[:500]},
            )
            continue
        if result.problems:
            _refresh_finish(run, PriceRefresh.Status.FAILED, _problems_text(result.problems))
            continue
        good[source] = result
    changed = {s: _apply_updates(document, s, r.updates, today) for s, r in good.items()}
    if not any(r.updates for r in good.values()):
        for source in good:
            _refresh_finish(
                runs[source],
                PriceRefresh.Status.DONE,
                gettext("No catalog price is listed by this source."),
            )
        return list(runs.values())
    problems = catalog_document_problems(document) or catalog_storage_problems(document)
    if problems:
        for source in good:
            _refresh_finish(runs[source], PriceRefresh.Status.FAILED, _problems_text(problems))
        return list(runs.values())
    document["description"] = gettext(
        "Public price refresh of %(date)s (%(sources)s), cloned from %(catalog)s."
    ) % {
        "date": today.isoformat(),
        "sources": ", ".join(price_sources.get(s).label for s in good),
        "catalog": published,
    }
    try:
        with transaction.atomic():
            draft = catalog_from_document(
                document=document, user=user, version=catalog_next_version()
            )
            for source, result in good.items():
                _refresh_finish(
                    runs[source],
                    PriceRefresh.Status.DONE,
                    gettext(
                        "%(read)s prices read, %(changed)s changed; %(left)s of this cloud's "
                        "prices are not in this price list and were left as they were."
                    )
                    % {
                        "read": len(result.updates),
                        "changed": changed[source],
                        "left": len(result.left),
                    },
                    prices_changed=changed[source],
                    draft=draft,
                )
    except DatabaseError as error:  # e.g. a refresh running at the same time took the version
        logger.warning("price refresh draft: %s", error)
        for source in good:
            _refresh_finish(
                runs[source],
                PriceRefresh.Status.FAILED,
                gettext("The draft catalog could not be written: %(error)s")
                % {"error": str(error)[:500]},
                prices_changed=0,
                draft=None,
            )
        return list(runs.values())
    try:
        impact_preview_request(catalog=draft, user=user)
    except ScoringModelInvalid as error:
        logger.warning("price refresh preview of %s: %s", draft, error.problems)
    return list(runs.values())


def price_refresh_scheduled() -> list[PriceRefresh]:
    """What beat runs: every source, live, with the settings' timeout and Google Cloud key."""
    return price_refresh(
        sources=list(price_sources.names()),
        transport=UrllibTransport(timeout=settings.PRICE_REFRESH_TIMEOUT_SECONDS),
        api_key=settings.GCP_BILLING_API_KEY,
    )


@dataclasses.dataclass(frozen=True)
class FreshnessRow:
    price_id: str
    provider: str
    region: str
    source: str
    as_of: str | None
    # "fresh", "stale" (dated, older than the catalog's stale rule) or "undated".
    state: str


@dataclasses.dataclass(frozen=True)
class PriceFreshness:
    catalog: str
    today: date
    stale_after_days: float
    # Per team: (name, prices its report uses, how many of them are stale or undated).
    teams: list[tuple[str, int, int]]
    rows: list[FreshnessRow]

    def count(self, state: str) -> int:
        return sum(1 for r in self.rows if r.state == state)

    @property
    def share(self) -> float:
        """The share of the prices the reports use that are stale or undated (0 to 1)."""
        return (len(self.rows) - self.count("fresh")) / len(self.rows) if self.rows else 0.0


def freshness_teams() -> dict[str, dict[str, Any]]:
    """The answers documents a freshness measure runs, by name: the engine's sample team and
    every starter (the seed's sample reports are starters)."""
    return {"sample": sample(), **{s.slug: s.document() for s in STARTERS}}


def price_freshness(*, catalog: Catalog, today: date) -> PriceFreshness:
    """How many distinct price rows the reports of the sample teams use (first options,
    runners-up and alternatives: every price a report names) and which of them are stale or
    undated on `today`, against `catalog` (a draft counts as it would once published)."""
    engine_catalog = load_catalog(catalog.to_document())
    scoring = live.active_scoring_model()
    teams = freshness_teams()
    used: dict[str, dict[str, Any]] = {}
    per_team = []
    for name, document in teams.items():
        result = evaluate(document, engine_catalog, scoring, lang="en", today=today)
        prices = result["cost"]["prices_used"]
        per_team.append((name, len(prices), sum(1 for p in prices if p["stale"])))
        for doc in prices:
            used[str(doc["price_id"])] = dict(doc)
    rows = []
    for pid, price in sorted(used.items()):
        dated = isinstance(price["as_of"], str) and re.fullmatch(
            r"\d{4}-\d{2}-\d{2}", price["as_of"]
        )
        rows.append(
            FreshnessRow(
                price_id=pid,
                provider=str(price["provider"]),
                region=str(price.get("region") or ""),
                source=str(price.get("source") or ""),
                as_of=price["as_of"],
                state="undated" if not dated else "stale" if price["stale"] else "fresh",
            )
        )
    return PriceFreshness(
        catalog=str(catalog),
        today=today,
        stale_after_days=float(engine_catalog.rule("stale_after_days")),
        teams=per_team,
        rows=rows,
    )
