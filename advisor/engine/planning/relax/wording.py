"""A relaxation in words: what it brings back, what the team gives up and the change it asks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.planning.availability import round_trip_ms
from advisor.engine.planning.relax.common import Relax, regions_text
from advisor.engine.text import i18n


def option_summary(first: Mapping[str, Any]) -> dict[str, Any]:
    """What a relaxation brings back: the first option, its offer and what it costs."""
    used = first.get("billing_used")
    price = (first.get("prices") or {}).get(used) or {} if used else {}
    return {
        "accelerator_id": first["accelerator_id"],
        "name": first["name"],
        "type": first["type"],
        "count": first["count"],
        "deployment_mode": first["deployment_mode"],
        "provider": price.get("provider"),
        "region": price.get("region"),
        "price_id": price.get("price_id"),
        "house": bool(price.get("house")),
        "billing": first.get("billing"),
        "monthly_cost_usd": first["monthly_cost_usd"],
        "cost_to_result": dict(first["cost_to_result"]),
        "available": bool(first["availability"]["available"]),
    }


def _gives_up(
    r: Relax, answers: vocabulary.Answers, catalog: Catalog, lang: str, first: Mapping[str, Any]
) -> str:
    if r.kind == "family":
        return i18n.message(
            "dead_end.gives_up.family",
            lang,
            family=i18n.label("tpu" if first["type"] == "gpu" else "gpu", lang),
        )
    if r.kind in ("region", "region_same_country"):
        region = str(r.region)
        known = [
            t
            for t in (round_trip_ms(catalog, x, region) for x in answers.organization.regions)
            if t is not None
        ]
        code = (
            "dead_end.gives_up.region_same_country"
            if r.kind == "region_same_country"
            else "dead_end.gives_up.region_residency"
            if answers.deployment.data_residency == "in_region"
            else "dead_end.gives_up.region"
        )
        return i18n.message(
            code,
            lang,
            region=i18n.value_label("organization.regions", region, lang),
            regions=regions_text(answers.organization.regions, lang),
            rtt=i18n.message(
                "dead_end.rtt_unmeasured"
                if not known
                else "dead_end.rtt"
                if min(known) >= 1
                else "dead_end.rtt_zero",
                lang,
                ms=f"{min(known):,.0f}" if known else "",
                regions=regions_text(answers.organization.regions, lang),
            ),
        )
    if r.kind == "mode":
        added = next(m for m in r.new if m not in r.old)
        return i18n.message(f"dead_end.gives_up.mode.{added}", lang)
    return i18n.message(
        f"dead_end.gives_up.{r.kind}",
        lang,
        serving=i18n.value_label("frameworks.serving", r.old, lang),
        precision=i18n.label(r.old, lang),
        clouds=i18n.value_label("deployment.clouds", r.old, lang),
    )


def _change_text(r: Relax, lang: str) -> str:
    return i18n.message(
        "dead_end.change",
        lang,
        field=i18n.field_label(r.path, lang),
        value=i18n.value_label(r.path, r.new, lang)
        if r.new != []
        else i18n.message("dead_end.any_cloud", lang),
        current=i18n.value_label(r.path, r.old, lang),
    )


def relaxation_doc(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    rs: Sequence[Relax],
    first: Mapping[str, Any],
    lang: str,
) -> dict[str, Any]:
    option = option_summary(first)
    cost = option["cost_to_result"]
    gives_up = [_gives_up(r, answers, catalog, lang, first) for r in rs]
    explanation = i18n.message(
        "dead_end.as_answered" if rs[0].kind == "family" else "dead_end.relaxation",
        lang,
        changes=i18n.message("dead_end.and", lang).join(_change_text(r, lang) for r in rs),
        family=i18n.label(option["type"], lang),
        kind=i18n.label(kind, lang),
        card=option["name"],
        count=option["count"],
        mode=i18n.label(option["deployment_mode"], lang),
        provider=i18n.catalog_text(option["provider"] or "—", lang),
        region=i18n.region_text(option["region"] or "", lang)
        or i18n.message("option.region_not_stated", lang),
        monthly=f"{option['monthly_cost_usd']:,.0f}",
        per_result=""
        if cost["per"] == "month"
        else i18n.message(
            "dead_end.per_result",
            lang,
            cost=f"{cost['usd']:,.2f}",
            per=i18n.message(f"per.{cost['per']}", lang),
        ),
        gives_up=" ".join(g[:1].upper() + g[1:] for g in gives_up),
    )
    return {
        "kind": "relaxation",
        "workload": kind,
        "changes": [
            {"answer_path": r.path, "from": r.old, "to": r.new} for r in rs if r.kind != "family"
        ],
        "option": option,
        "gives_up": gives_up,
        "explanation": explanation,
    }
