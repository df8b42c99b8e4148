"""Read-side queries for the advisor app."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import Count, Model, Q, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Membership, Organization, Role, User
from accounts.selectors import object_get_for_user
from advisor import decisions
from advisor.celery import app as celery_app
from advisor.engine.answers import Problem
from advisor.models import Assessment, Report, ShareLink
from advisor.wizard import STEPS, applicable_steps

logger = logging.getLogger(__name__)


def database_reachable() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any driver error means "not reachable" to a health probe
        logger.warning("health: database unreachable", exc_info=True)
        return False
    return True


def broker_reachable() -> bool:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    except Exception:  # kombu raises transport-specific errors
        logger.warning("health: broker unreachable", exc_info=True)
        return False
    return True


def assessment_get_for_user(*, user: User | AnonymousUser, pk: int) -> Assessment:
    """The assessment if it belongs to one of the user's organisations, else 404."""
    return object_get_for_user(Assessment.objects.select_related("organization"), user=user, pk=pk)


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


def review_sections(*, assessment: Assessment) -> list[dict[str, Any]]:
    """Every answer of every applicable step, as label and display value, for the review."""
    sections = []
    for step in applicable_steps(assessment.answers):
        if step.form is None:
            continue
        form = step.form()
        form.initial = form.initial_from(assessment.answers)
        rows = []
        for bound in form.visible_fields():
            value = form.initial.get(bound.name)
            rows.append({"label": bound.label, "value": _display(bound.field, value)})
        sections.append({"step": step, "rows": rows})
    return sections


def _display(field: Any, value: Any) -> Any:
    if value in (None, "", []):
        return None
    choices = dict(getattr(field, "choices", []) or [])
    if isinstance(value, list):
        return ", ".join(str(choices.get(v, v)) for v in value)
    if value is True:
        return choices.get("yes", _("Yes"))
    return choices.get(value, value)


def problems_by_step(
    *, assessment: Assessment, problems: Sequence[Problem]
) -> list[dict[str, Any]]:
    language = decisions.engine_language()
    out = []
    for step in STEPS:
        if step.form is None or not step.is_applicable(assessment.answers):
            continue
        section = step.form.section
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
    return assessment.reports.defer("html", "answers", "result").order_by("-number")


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


def can_share(*, membership: Membership | None, assessment: Assessment) -> bool:
    """The assessment's owner, sales engineers and admins may share its reports."""
    if membership is None:
        return False
    return assessment.created_by_id == membership.user_id or membership.role in {
        Role.SALES_ENGINEER,
        Role.ADMIN,
    }


def report_changes(*, left: Report, right: Report) -> dict[str, Any]:
    """What differs between two reports of one assessment, and the reasons that moved."""
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
    reasons_a = {r.get("criterion"): r for r in ra.get("reasons", [])}
    reasons_b = {r.get("criterion"): r for r in rb.get("reasons", [])}
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
    return {
        "recommendation": recommendation,
        "versions": versions,
        "reasons": moved,
        "answers_changed": answers_changed,
    }
