"""A report's versions, one version for a reader who may see its assessment, and what changed
between two versions (answers, reasons, workloads, the prices of their catalogs)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from advisor.decisions import languages, pinned
from advisor.engine.explain.reasons import reason_in
from advisor.models import Assessment, Report
from advisor.reporting.compare import workload_changes
from advisor.reporting.options import where_sold


def latest_report(*, assessment: Assessment, language: str) -> Report | None:
    reports = assessment.reports.order_by("-number")
    return reports.filter(language=language).first() or reports.first()


def reports_for(*, assessment: Assessment) -> QuerySet[Report]:
    heavy = ("html", "answers", "result")
    return (
        assessment.reports.select_related("based_on")
        .defer(*heavy, *(f"based_on__{name}" for name in heavy))
        .order_by("-number")
    )


def report_get(*, assessment: Assessment, number: int) -> Report:
    """A report of an assessment the caller already got through its ownership check."""
    try:
        return assessment.reports.get(number=number)
    except Report.DoesNotExist as exc:
        raise Http404 from exc


def report_exists_in_language(*, report: Report, language: str) -> bool:
    """Whether the report's assessment has a finished version in `language` (the shared page
    says so when its chrome's language is not the report's; it never links to it: a version
    is shared only by its own link)."""
    return Report.objects.filter(
        assessment_id=report.assessment_id, language=language, status=Report.Status.DONE
    ).exists()


def report_changes(*, left: Report, right: Report) -> dict[str, Any]:
    """What differs between two reports of one assessment, and the reasons that moved (the
    answers that differ are worded from the wizard's forms: step_forms.answer_changes)."""
    a, b = left.result or {}, right.result or {}
    ra, rb = a.get("recommendation", {}), b.get("recommendation", {})
    fields = ["accelerator", "deployment_mode", "billing", "confidence"]
    recommendation = [
        {"field": f, "left": ra.get(f), "right": rb.get(f), "changed": ra.get(f) != rb.get(f)}
        for f in fields
    ]
    versions = [
        {"what": "engine", "left": left.engine_version, "right": right.engine_version},
        {"what": "scoring_model", "left": left.scoring_model, "right": right.scoring_model},
        {"what": "catalog", "left": left.catalog_version, "right": right.catalog_version},
    ]
    lang = languages.engine_language()
    reasons_a = _reasons_in(a, ra.get("reasons", []), lang)
    reasons_b = _reasons_in(b, rb.get("reasons", []), lang)
    moved = []
    for criterion in sorted(set(reasons_a) | set(reasons_b), key=str):
        before, after = reasons_a.get(criterion), reasons_b.get(criterion)
        if (before or {}).get("contribution") != (after or {}).get("contribution"):
            moved.append(
                {
                    "label": (after or before or {}).get("label", criterion),
                    "left": (before or {}).get("explanation"),
                    "right": (after or {}).get("explanation"),
                }
            )
    answers_changed = sorted(
        key
        for key in set(left.answers) | set(right.answers)
        if left.answers.get(key) != right.answers.get(key)
    )
    workloads = workload_changes(a, b)
    return {
        "recommendation": recommendation,
        "versions": versions,
        "reasons": moved,
        "answers_changed": answers_changed,
        "workloads": workloads,
        "workloads_changed": any(w["changed"] for w in workloads),
        "prices": catalog_price_changes(left=left, right=right),
    }


def _reasons_in(
    result: dict[str, Any], reasons: list[dict[str, Any]], lang: str
) -> dict[str, dict[str, Any]]:
    """A result's reasons by criterion, labelled and explained in `lang` (the page's) from the
    scoring model version that made them; as stored when that version is gone."""
    stored = (result.get("versions") or {}).get("scoring_model") or {}
    model = None
    if stored.get("name") and stored.get("version") is not None:
        model = pinned.scoring_model_at(str(stored["name"]), int(stored["version"]))
    out: dict[str, dict[str, Any]] = {}
    for r in reasons:
        worded = None
        if model is not None and r.get("answer_path"):
            worded = reason_in(
                model, str(r.get("criterion")), str(r["answer_path"]), r.get("answer_value"), lang
            )
        out[str(r.get("criterion"))] = (
            {**r, "label": worded["label"], "explanation": worded["explanation"]}
            if worded is not None
            else r
        )
    return out


def _price_ids(result: dict[str, Any]) -> set[str]:
    return {
        str(price["price_id"])
        for w in result.get("workloads") or []
        for o in w.get("options") or []
        for price in (o.get("prices") or {}).values()
        if price and price.get("price_id")
    }


def catalog_price_changes(*, left: Report, right: Report) -> dict[str, Any]:
    """The prices that differ between the two versions' catalogs: each price either result
    priced an option with (card, seller and region, billing, before and after, its date), and
    how many other prices of the catalog changed. `known` is False when a catalog version is
    no longer stored."""
    out: dict[str, Any] = {"rows": [], "others": 0, "known": True}
    if left.catalog_version == right.catalog_version:
        return out
    a = pinned.catalog_at(left.catalog_version)
    b = pinned.catalog_at(right.catalog_version)
    if a is None or b is None:
        return {**out, "known": False}
    before = {p.id: p for p in a.prices}
    after = {p.id: p for p in b.prices}
    used = _price_ids(left.result or {}) | _price_ids(right.result or {})
    for pid in sorted(before.keys() | after.keys()):
        x, y = before.get(pid), after.get(pid)
        figures = [
            (p.usd_per_device_hour, p.usd_per_device_month) if p is not None else None
            for p in (x, y)
        ]
        if figures[0] == figures[1]:
            continue
        if pid not in used:
            out["others"] += 1
            continue
        price = y if y is not None else x
        if price is None:  # an id is in one catalog or the other
            continue
        card = b.by_id.get(price.accelerator_id) or a.by_id.get(price.accelerator_id)
        out["rows"].append(
            {
                "price_id": pid,
                "card": card.name if card is not None else price.accelerator_id,
                "where": where_sold({"provider": price.provider, "region": price.region}),
                "billing": price.billing,
                "change": "added" if x is None else "removed" if y is None else "changed",
                "pair": tuple(figures),
                "as_of": price.as_of,
            }
        )
    return out
