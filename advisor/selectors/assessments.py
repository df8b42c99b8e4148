"""An assessment read for its organisation's members (404 for anyone else), the dashboards'
lists, the answers' problems by step and a reader's membership."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Sequence
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser
from django.db import router
from django.db.models import Count, Model, QuerySet
from django.http import Http404

from accounts import rows
from accounts.models import Membership, Organization, Role, User
from advisor.decisions import languages
from advisor.engine.answers.problems import Problem, validate
from advisor.models import Assessment
from advisor.wizard.steps import STEPS


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


def membership_for(*, user: User | AnonymousUser, organization: Organization) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, organization=organization).first()
