"""Read-side queries for the advisor app."""

from __future__ import annotations

import functools
import hashlib
import logging
import math
from collections.abc import Iterable, Sequence
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser
from django.db import router
from django.db.models import Count, Model, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from accounts import rows
from accounts.models import Membership, Organization, Role, User
from accounts.selectors import is_operator_staff
from advisor.charts.results import chosen_option
from advisor.decisions import languages, pinned
from advisor.engine import measured as M
from advisor.engine.document import ResultDocument, Workload
from advisor.engine.explain.reasons import reason_in
from advisor.engine.problems import Problem, validate
from advisor.models import Assessment, Lead, Measurement, Report, ShareLink
from advisor.reporting.dead_ends import dead_end_offer
from advisor.reporting.options import cost_per_result, where_sold
from advisor.steps import STEPS

logger = logging.getLogger(__name__)


def assessment_get_for_user(
    *, user: User | AnonymousUser, pk: int, with_result: bool = True
) -> Assessment:
    """The assessment, with its organisation, if it belongs to one of the user's organisations,
    else 404 (without `with_result`, the stored result stays in the database until something
    reads it).

    One statement written once (accounts.rows): the rows of
    `object_get_for_user(Assessment.objects.select_related("organization"), ...)`, read through
    the reader's membership of the assessment's organisation, without the ORM building it
    again on every request (1.4 of the read's 1.65 ms CPU; every page of an assessment and
    the wizard's save read through here)."""
    if not user.is_authenticated:
        raise Http404
    try:
        key = int(pk)
    except (TypeError, ValueError) as exc:
        raise Http404 from exc
    columns = _OWNED_WITH_RESULT if with_result else _OWNED
    using = router.db_for_read(Assessment)
    row = rows.fetch_one(_owned_sql(columns, using), [user.pk, key], using)
    if row is None:
        raise Http404
    obj = cast(Assessment, columns[0].instance(row, 0, using))
    obj.organization = cast(Organization, columns[1].instance(row, len(columns[0]), using))
    return obj


_OWNED_WITH_RESULT = (
    rows.Columns(Assessment, "a"),
    rows.Columns(Organization, "o"),
)
_OWNED = (rows.Columns(Assessment, "a", exclude=["result"]), _OWNED_WITH_RESULT[1])


@functools.cache
def _owned_sql(columns: tuple[rows.Columns, rows.Columns], using: str) -> str:
    assessment, organization = columns

    def a(name: str) -> str:
        return rows.column(Assessment, name, using)

    # The join on the reader's membership is the ownership check: one membership per user
    # and organisation (a unique constraint), so a member's row comes back once, anyone
    # else's never. Identifiers come from the models' metadata, quoted; values are parameters.
    return (
        f"SELECT {assessment.sql(using)}, {organization.sql(using)} "  # noqa: S608
        f"FROM {rows.table(Assessment, using)} a "
        f"INNER JOIN {rows.table(Organization, using)} o "
        f"ON o.{rows.column(Organization, 'pk', using)} = a.{a('organization')} "
        f"INNER JOIN {rows.table(Membership, using)} m "
        f"ON m.{rows.column(Membership, 'organization', using)} = a.{a('organization')} "
        f"AND m.{rows.column(Membership, 'user', using)} = %s "
        f"WHERE a.{a('pk')} = %s"
    )


def assessment_get_in_memberships(
    *, memberships: Sequence[Membership], pk: int, with_result: bool = True
) -> Assessment:
    """assessment_get_for_user with the memberships the request has read already: the same
    404 for another organisation's id, one query with no join (the organisation is the
    membership's). Without `with_result` the stored result, the biggest column of a reopened
    draft, is left in the database (the wizard never shows it)."""
    organizations = {m.organization_id: m.organization for m in memberships}
    rows = Assessment.objects.filter(pk=pk, organization_id__in=list(organizations))
    found = (rows if with_result else rows.defer("result")).first()
    if found is None:
        raise Http404
    found.organization = organizations[found.organization_id]
    return found


def assessments_for_organization(*, organization: Organization) -> QuerySet[Assessment]:
    return (
        Assessment.objects.filter(organization=organization)
        .select_related("created_by")
        .defer("answers", "pending_input", "result")
        .order_by("-updated_at")
    )


def rows_digest(rows: Iterable[Model]) -> str:
    """A digest of every loaded field of these rows and of the rows selected with them: the
    key of a rendering of them that stays right whatever column a template comes to show."""
    digest = hashlib.sha256()
    for row in rows:
        _digest_row(digest, row)
    return digest.hexdigest()[:32]


def _digest_row(digest: Any, row: Model) -> None:
    fields = sorted((k, v) for k, v in vars(row).items() if not k.startswith("_"))
    digest.update(f"{type(row).__name__}{fields!r}".encode())
    for related in row._state.fields_cache.values():
        if isinstance(related, Model):
            _digest_row(digest, related)


def customer_organizations(*, user: User) -> QuerySet[Organization]:
    """Organisations where the user works as a sales engineer, with their assessment counts."""
    return (
        Organization.objects.filter(memberships__user=user, memberships__role=Role.SALES_ENGINEER)
        .annotate(
            assessment_count=Count("assessments", distinct=True),
        )
        .order_by("name")
    )


def customer_assessments(*, user: User, limit: int = 50) -> QuerySet[Assessment]:
    """Recent assessments of the organisations a sales engineer works with, with progress."""
    return (
        Assessment.objects.filter(
            organization__memberships__user=user,
            organization__memberships__role=Role.SALES_ENGINEER,
        )
        .select_related("organization")
        .defer("answers", "pending_input", "result")
        .order_by("-updated_at")[:limit]
    )


def answers_problems(*, assessment: Assessment) -> list[Problem]:
    """What the engine finds missing or wrong in the assessment's stored answers."""
    return validate(assessment.answers)


def problems_by_step(
    *, assessment: Assessment, problems: Sequence[Problem]
) -> list[dict[str, Any]]:
    language = languages.engine_language()
    out = []
    for step in STEPS:
        section = step.section
        if section is None or not step.is_applicable(assessment.answers):
            continue
        messages: list[str | None] = [
            p.message(language)
            for p in problems
            if p.path == section or p.path.startswith((section + ".", section + "["))
        ]
        if step.slug in assessment.pending_input and not messages:
            messages.append(None)
        if messages:
            out.append({"step": step, "messages": messages})
    return out


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


def share_links_for(*, report: Report) -> QuerySet[ShareLink]:
    return report.share_links.select_related("created_by").order_by("-created_at")


def share_link_get(*, assessment: Assessment, pk: int) -> ShareLink:
    try:
        return ShareLink.objects.select_related("report").get(pk=pk, report__assessment=assessment)
    except ShareLink.DoesNotExist as exc:
        raise Http404 from exc


def report_exists_in_language(*, report: Report, language: str) -> bool:
    """Whether the report's assessment has a finished version in `language` (the shared page
    says so when its chrome's language is not the report's; it never links to it: a version
    is shared only by its own link)."""
    return Report.objects.filter(
        assessment_id=report.assessment_id, language=language, status=Report.Status.DONE
    ).exists()


def share_link_by_token(*, token: str) -> ShareLink | None:
    """The live link for a token: unknown, revoked and expired all give None."""
    if not token or len(token) > 100:
        return None
    digest = hashlib.sha256(token.encode()).hexdigest()
    return (
        ShareLink.objects.select_related("report__assessment__organization")
        # The stored document is loaded only when the page is not kept (shared.html's
        # {% fragment %}); the result and answers documents are never shown.
        .defer(
            "report__html",
            "report__result",
            "report__answers",
            "report__assessment__answers",
            "report__assessment__pending_input",
            "report__assessment__result",
        )
        .filter(token_hash=digest, revoked_at__isnull=True, report__status=Report.Status.DONE)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
        .first()
    )


def membership_for(*, user: User | AnonymousUser, organization: Organization) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, organization=organization).first()


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


# What the compare page shows of each workload's first option, in this order.
WORKLOAD_FIELDS = (
    "option",
    "where",
    "billing",
    "monthly_cost_usd",
    "cost_to_result",
    "hours",
    "latency_ms",
)


def _first_option(result: dict[str, Any], workload: dict[str, Any]) -> dict[str, Any]:
    """The facts a buyer compares about the option the report leads with for a workload."""
    chosen = chosen_option(cast(ResultDocument, result), cast(Workload, workload))
    option: dict[str, Any] = dict(chosen) if chosen else {}
    if not option:
        return {}
    price = (option.get("prices") or {}).get(option.get("billing_used") or "") or {}
    where = where_sold(price)
    cost, per = cost_per_result(option, str(workload.get("kind")))
    return {
        "option": f"{option.get('name')} × {option.get('count')}",
        "where": where or None,
        "billing": option.get("billing_used"),
        "monthly_cost_usd": option.get("monthly_cost_usd"),
        "cost_to_result": (cost, per) if cost is not None else None,
        "hours": option.get("hours") if "meets_deadline" in option else None,
        "latency_ms": option.get("latency_at_metric_ms"),
        "latency_metric": option.get("latency_metric"),
    }


def workload_changes(left: dict[str, Any], right: dict[str, Any]) -> list[dict[str, Any]]:
    """Per workload kind in either result: its first option's card and count, where it is
    priced, billing, monthly cost, cost to the result, hours per run and latency, side by side."""

    def by_kind(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {str(w.get("kind")): _first_option(result, w) for w in result.get("workloads") or []}

    a, b = by_kind(left), by_kind(right)
    out = []
    for kind in [*a, *(k for k in b if k not in a)]:
        before, after = a.get(kind, {}), b.get(kind, {})
        fields = [
            {
                "field": f,
                "left": before.get(f),
                "right": after.get(f),
                "pair": (before.get(f), after.get(f)),
                "changed": before.get(f) != after.get(f),
                "metric": after.get("latency_metric") or before.get("latency_metric"),
            }
            for f in WORKLOAD_FIELDS
            if before.get(f) is not None or after.get(f) is not None
        ]
        out.append({"kind": kind, "fields": fields, "changed": any(x["changed"] for x in fields)})
    return out


# Figures of a first option whose difference a what-if states (what-if minus the report).
_NUMERIC = {"monthly_cost_usd", "hours", "latency_ms"}


def what_if_comparison(*, report: ResultDocument, what_if: ResultDocument) -> dict[str, Any]:
    """A report's result beside a what-if's: the recommendation, each workload's first option
    (workload_changes' fields, with the difference of the figures and the time or latency
    target it is held to) and what would change the what-if's answer."""
    before, after = report["recommendation"], what_if["recommendation"]
    targets: dict[str, dict[str, Any]] = {}
    for workload in what_if["workloads"]:
        option = chosen_option(what_if, workload)
        if option is None:
            continue
        targets[workload["kind"]] = {
            "latency_ms": option.get("latency_target_ms"),
            "hours": option.get("target_hours"),
            "meets_latency": option.get("meets_latency"),
            "meets_deadline": option.get("meets_deadline"),
        }
    workloads = workload_changes(cast(dict[str, Any], report), cast(dict[str, Any], what_if))
    for w in workloads:
        for f in w["fields"]:
            f["delta"] = None
            if f["field"] in _NUMERIC and None not in f["pair"]:
                f["delta"] = f["right"] - f["left"]
            elif (
                f["field"] == "cost_to_result"
                and None not in f["pair"]
                and f["left"][1] == f["right"][1]  # per run against per run, not per month
            ):
                f["delta"] = f["right"][0] - f["left"][0]
            if not f["delta"]:
                f["delta"] = None  # no difference reads as "—", not "$0.00"
            f["delta_abs"] = abs(f["delta"]) if f["delta"] is not None else None
            f["target"] = targets.get(w["kind"], {}).get(f["field"])
        w["targets"] = targets.get(w["kind"], {})
    return {
        "recommendation": [
            {"field": name, "left": before.get(name), "right": after.get(name)}
            for name in ("accelerator", "deployment_mode", "billing")
        ],
        "recommendation_changed": any(
            before.get(name) != after.get(name)
            for name in ("accelerator", "deployment_mode", "billing")
        ),
        "workloads": workloads,
        "would_change_if": [c["explanation"] for c in after["would_change_if"]],
    }


# --- Quote requests (house offers) ---------------------------------------------------------------


def _house_offer(option: dict[str, Any]) -> dict[str, Any] | None:
    """The house offer behind an option: the house price it is billed at, else one sold on
    request beside it (a house one first), else the operator's server for this workload the
    engine lists on the first priced option (`house_on_request`, issue 22)."""
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
    # The operator's server listed beside a first option of another card or mode (issue 22
    # item 2) carries its own card and the count that card needs.
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
        # A dead end's quote is the operator's sized server for it (issue 22 item 1), even where
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


# --------------------------------------------------------------------------- measured results


def first_serving_option(result: Any) -> dict[str, Any] | None:
    if not isinstance(result, dict):
        return None
    for w in result.get("workloads") or []:
        if w.get("kind") in ("realtime_inference", "batch_inference") and w.get("options"):
            first: dict[str, Any] = w["options"][0]
            return first
    return None


def _cost_per_million(option: dict[str, Any]) -> float | None:
    costs = option.get("cost_per_million_output_tokens_usd") or {}
    value = costs.get(option.get("billing_used") or "on_demand")
    return float(value) if isinstance(value, int | float) else None


def report_measured(*, report: Report) -> dict[str, Any] | None:
    """For a version re-planned with measured figures (its result names `measurements`): what
    was measured on the card the earlier version put first, and what changed against that
    version (card, devices, replicas, cost per million output tokens, latency target)."""
    result = report.result if isinstance(report.result, dict) else {}
    runs = result.get("measurements") or []
    first = first_serving_option(result)
    if not runs or first is None:
        return None
    before = first_serving_option(report.based_on.result) if report.based_on else None
    card = (before or first)["accelerator_id"]
    measured = [
        o
        for w in result.get("workloads") or []
        for o in w.get("options") or []
        if o.get("measured")
    ]
    option = next((o for o in measured if o.get("accelerator_id") == card), None)
    option = option or (measured[0] if measured else None)
    doc = (option or {}).get("measured") or {}
    run = _applied_run(runs, option) or runs[-1]
    estimated = (doc.get("estimated") or {}).get("tokens_per_second_per_replica")
    if estimated is None and before is not None:
        estimated = before.get("tokens_per_second_per_replica")
    rows = []
    if before is not None:
        for key, after_value, before_value in (
            ("card", first.get("name"), before.get("name")),
            ("count", first.get("count"), before.get("count")),
            ("replicas", first.get("replicas"), before.get("replicas")),
            ("cost", _cost_per_million(first), _cost_per_million(before)),
            ("meets", first.get("meets_latency"), before.get("meets_latency")),
        ):
            rows.append(
                {
                    "key": key,
                    "before": before_value,
                    "after": after_value,
                    "changed": before_value != after_value,
                }
            )
    name = (option or before or {}).get("name") or run["accelerator_id"]
    return {
        "card": name,
        "run": run,
        "estimated_tps": estimated,
        "measured_tps": (option or {}).get("tokens_per_second_per_replica")
        or run.get("output_tokens_per_s"),
        "scaled": bool(doc.get("scaled_to_batch")),
        "batch": (option or before or {}).get("batch_per_replica"),
        "no_longer_first": first.get("accelerator_id") != run["accelerator_id"],
        "changes": rows,
        "based_on": report.based_on,
    }


_RUN_KEYS = ("source", "tool", "measured_on", "model_id", "serving", "concurrency")


def _applied_run(
    runs: list[dict[str, Any]], option: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The run whose figures `option` was planned with: the one its `measured` names by
    position (a result planned before it did: the last pasted run that matches it)."""
    if option is None:
        return None
    doc = option.get("measured") or {}
    index = doc.get("run")
    if isinstance(index, int) and 0 <= index < len(runs):
        return runs[index]
    return next(
        (
            r
            for r in reversed(runs)
            if r.get("accelerator_id") == option.get("accelerator_id")
            and all(r.get(k) == doc.get(k) for k in _RUN_KEYS)
        ),
        None,
    )


def organization_measurements(
    *, assessment: Assessment, accelerator_id: str | None = None
) -> list[Measurement]:
    """The measurements of the assessment's organisation (newest first), of one card when
    `accelerator_id` is given: the measurements page lists them, each with a delete button."""
    rows = Measurement.objects.filter(organization_id=assessment.organization_id)
    if accelerator_id is not None:
        rows = rows.filter(accelerator_id=accelerator_id)
    return list(rows.select_related("created_by").order_by("-created_at"))


def organization_measurement_get(*, assessment: Assessment, pk: int) -> Measurement:
    """One measurement of the assessment's organisation (the caller got the assessment through
    assessment_get_for_user, so the reader is a member of it), else 404."""
    if not 0 < pk < 2**63:  # beyond the key's 64 bits nothing is stored
        raise Http404
    try:
        return Measurement.objects.get(organization_id=assessment.organization_id, pk=pk)
    except Measurement.DoesNotExist as exc:
        raise Http404 from exc


def measured_option(result: Any) -> dict[str, Any] | None:
    """The serving option a measurement replaced the estimates of (the re-plan may rank
    another card first, when the measured card turned out slower than estimated)."""
    if not isinstance(result, dict):
        return None
    for w in result.get("workloads") or []:
        for option in w.get("options") or []:
            if option.get("measured"):
                found: dict[str, Any] = option
                return found
    return None


# The widest measured-over-estimated ratio the calibration takes: the slowest run a paste
# accepts is a thousandth of the card's roofline (engine/measured.py SLOWEST_SHARE).
_RATIO_FLOOR = M.SLOWEST_SHARE


def measurement_ratios() -> list[dict[str, Any]]:
    """Operator staff: measured over estimated per card and serving stack, across every
    organisation's measurements, with counts only (no organisation, no customer name)."""
    groups: dict[tuple[str, str], dict[str, list[float]]] = {}
    rows = Measurement.objects.values_list(
        "accelerator_id", "serving", "concurrency", "figures", "estimated"
    )
    for acc, serving, concurrency, figures, estimated in rows:
        g = groups.setdefault((acc, serving), {"throughput": [], "tpot": [], "ttft": []})
        batch = estimated.get("batch_per_replica")
        pairs = (
            ("throughput", "output_tokens_per_s", "tokens_per_second_per_replica"),
            ("tpot", "tpot_ms", "tpot_ms"),
            ("ttft", "ttft_ms", "ttft_ms"),
        )
        for name, measured_key, estimated_key in pairs:
            m, e = figures.get(measured_key), estimated.get(estimated_key)
            if isinstance(m, int | float) and isinstance(e, int | float) and e > 0:
                try:
                    if name == "throughput" and batch:
                        # The estimate is at the plan's batch; the run at its concurrency.
                        m = float(m) * batch / concurrency
                    ratio = float(m) / e
                except OverflowError:  # jsonb gives 1e308 back as an integer of 309 digits
                    continue
                # A row stored before runs were checked against the card's physics may hold
                # a figure no card reaches: it never moves the calibration.
                if math.isfinite(ratio) and _RATIO_FLOOR <= ratio <= 1.0 / _RATIO_FLOOR:
                    g[name].append(ratio)
    out = []
    for (acc, serving), g in sorted(groups.items()):
        if not any(g.values()):
            continue
        out.append(
            {
                "accelerator_id": acc,
                "serving": serving,
                "runs": max(len(v) for v in g.values()) if any(g.values()) else 0,
                **{k: (sum(v) / len(v) if v else None) for k, v in g.items()},
            }
        )
    return out


def report_measured_context(*, report: Report) -> dict[str, Any]:
    """The report page's measured section (templates/advisor/report/_measured.html)."""
    return {
        "measured": report_measured(report=report),
        "measurable": first_serving_option(report.result) is not None
        and bool((report.answers.get("frameworks") or {}).get("serving")),
    }
