"""The operator's server for a dead-end workload, sized and stated as a quote."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog, Price
from advisor.engine.planning import options
from advisor.engine.planning.priced_option import billed_price
from advisor.engine.planning.relax.common import HOSTED, Plan, neighbours, with_answer
from advisor.engine.pricing import billing
from advisor.engine.pricing.regions import in_country
from advisor.engine.text import i18n


def _house_offers(catalog: Catalog) -> list[Price]:
    return [p for p in catalog.prices if p.house and p.region_key]


def quote(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    schedule: str,
    mode: str,
    plan: Plan,
    lang: str,
    relaxed: Sequence[str] = (),
) -> dict[str, Any] | None:
    """The operator's server for this workload, sized (on answers `relaxed` at those paths where
    it holds the work only so): a house offer (priced or on request) in the
    team's regions or a neighbouring one, in an allowed mode or another hosted one, whose card
    runs the stack. The fewest relaxations first, then a priced offer, then the fewest servers."""
    regions = answers.organization.regions
    near = neighbours(catalog, regions)
    best: tuple[tuple[int, int, int, str], dict[str, Any]] | None = None
    for p in _house_offers(catalog):
        key = str(p.region_key)
        here = key in regions or in_country(key, regions)
        if not here and key not in near:
            continue
        modes = [m for m in p.modes if m in answers.deployment.allowed_modes]
        use_mode = modes[0] if modes else next((m for m in p.modes if m in HOSTED), None)
        if use_mode is None:
            continue
        trial = answers
        changed: list[str] = list(relaxed)
        if not here:
            trial = with_answer(trial, "organization.regions", (*regions, key))
            changed.append("organization.regions")
        if not modes:
            trial = with_answer(
                trial, "deployment.allowed_modes", (*answers.deployment.allowed_modes, use_mode)
            )
            changed.append("deployment.allowed_modes")
        sized, ci = plan(trial)
        family = catalog.by_id[p.accelerator_id].type
        built = options.build(catalog, trial, kind, schedule, family, use_mode, sized, ci, lang)
        option = next((o for o in built.options if o["accelerator_id"] == p.accelerator_id), None)
        if option is None or not option["stack"]["runnable"]:
            continue
        priced = _priced_by(option, p.id)
        rank = (len(changed), 0 if priced else 1, _servers(option, p), p.id)
        if best is None or rank < best[0]:
            best = (rank, _quote_doc(p, option, use_mode, priced, changed, kind, lang))
    return None if best is None else best[1]


def _priced_by(option: Mapping[str, Any], price_id: str) -> bool:
    """Whether the house offer prices the option on a firm figure (an indicative one is a
    quote to ask for)."""
    price = billed_price(option) or {}
    return price.get("price_id") == price_id and not price.get("indicative")


def _servers(option: Mapping[str, Any], p: Price) -> int:
    return max(1, math.ceil(int(option["count"]) / max(1, p.gpus_per_unit)))


def _quote_doc(
    p: Price,
    option: Mapping[str, Any],
    mode: str,
    priced: bool,
    changed: list[str],
    kind: str,
    lang: str,
) -> dict[str, Any]:
    server = dict(p.server or {})
    servers = _servers(option, p)
    route = server.get("china_bandwidth_type")
    term = billing.SLOT_TO_BILLING.get(p.billing, p.billing)
    monthly = option["monthly_cost_usd"] if priced else None
    words = {
        "kind": i18n.label(kind, lang),
        "provider": p.provider,
        "unit": p.unit or p.accelerator_id,
        "count": option["count"],
        "card": option["name"],
        "servers": servers,
        "per_server": p.gpus_per_unit,
        "region": i18n.region_text(p.region, lang) if p.region else "—",
        "mode": i18n.label(mode, lang),
        "term": i18n.label(term, lang),
    }
    statement = i18n.message("dead_end.quote", lang, **words)
    if changed:
        statement += " " + i18n.message(
            "dead_end.quote_needs",
            lang,
            answers=i18n.list_separator(lang).join(i18n.field_label(c, lang) for c in changed),
        )
    statement += " " + (
        i18n.message("dead_end.quote_priced", lang, monthly=f"{monthly:,.0f}")
        if monthly is not None
        else i18n.message("dead_end.quote_on_request", lang)
    )
    return {
        "price_id": p.id,
        "provider": p.provider,
        "region": p.region,
        "region_key": p.region_key,
        "deployment_mode": mode,
        "accelerator_id": option["accelerator_id"],
        "name": option["name"],
        "count": option["count"],
        "per_server": p.gpus_per_unit,
        "servers": servers,
        # A training run sizes its host for data loading, a service for the model it holds.
        "training": option.get("target_hours") is not None,
        "unit": p.unit,
        "server": {
            "cpu": server.get("cpu"),
            "ram_gb": server.get("ram_gb"),
            "nvme_tb": server.get("nvme_tb"),
            "network_gbps": server.get("network_gbps"),
            "china_route": route,
            "china_bandwidth_mbps": server.get("china_bandwidth_mbps"),
        },
        "term": term,
        "priced": monthly is not None,
        "monthly_cost_usd": monthly,
        "needs": changed,
        "source": p.source,
        "as_of": p.as_of,
        "statement": statement,
    }
