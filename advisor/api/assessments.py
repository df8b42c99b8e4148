"""The API's operations on assessments: create one from an answers document, read it back with
its result, list your organisations' assessments."""

# No `from __future__ import annotations` here: django-ninja reads the operations' annotations
# at runtime, and @paginate's wrapper resolves string annotations in ninja's own module.
from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from ninja import Query, Router, Status
from ninja.pagination import paginate

from accounts.models import Organization, User
from accounts.selectors import organizations_for_user
from advisor.api.auth import request_user
from advisor.api.errors import ApiError, item
from advisor.api.schemas import (
    ERRORS,
    AssessmentFilters,
    AssessmentIn,
    AssessmentOut,
    AssessmentSummaryOut,
    ErrorOut,
    Pages,
)
from advisor.decisions import languages
from advisor.models import Assessment
from advisor.selectors.assessments import assessment_get_for_user
from advisor.services import assessments

router = Router()


@router.post(
    "/assessments",
    response={201: AssessmentOut, 413: ErrorOut, 415: ErrorOut, **ERRORS},
    summary="Create an assessment from an answers document",
    tags=["assessments"],
)
def assessment_create(request: HttpRequest, payload: AssessmentIn) -> Status[Assessment]:
    user = request_user(request)
    organization = _organization(user, payload.organization)
    assessment = assessments.assessment_create_from_document(
        organization=organization,
        user=user,
        title=payload.title,
        answers=payload.answers,
        draft=payload.draft,
        language=languages.engine_language(),
    )
    return Status(201, assessment)


@router.get(
    "/assessments/{assessment_id}",
    response={200: AssessmentOut, **ERRORS},
    summary="Read an assessment with its result",
    tags=["assessments"],
)
def assessment_read(request: HttpRequest, assessment_id: int) -> Assessment:
    return assessment_get_for_user(user=request_user(request), pk=assessment_id)


@router.get(
    "/assessments",
    response={200: list[AssessmentSummaryOut], **ERRORS},
    summary="List your organisations' assessments, newest first",
    tags=["assessments"],
)
@paginate(Pages)
def assessment_list(
    request: HttpRequest, filters: Query[AssessmentFilters]
) -> QuerySet[Assessment]:
    user = request_user(request)
    organizations = organizations_for_user(user=user)
    if filters.organization is not None:
        organizations = organizations.filter(pk=_organization(user, filters.organization).pk)
    queryset = (
        Assessment.objects.filter(organization__in=organizations)
        .select_related("organization")
        .defer("answers", "pending_input", "result")
        .order_by("-created_at", "-pk")
    )
    if filters.status is not None:
        queryset = queryset.filter(status=filters.status)
    return queryset


def _organization(user: User, slug: str | None) -> Organization:
    organizations = organizations_for_user(user=user)
    if slug is None:
        # Never a guess: a prospect organisation someone named "AAA" once came first by name
        # and received a sales engineer's API creates.
        only = list(organizations.order_by("name", "pk")[:2])
        if not only:
            raise ApiError(
                400,
                _("You are not a member of any organisation."),
                [item("body", "organization", "no_organization", _("Join or create one first."))],
            )
        if len(only) > 1:
            raise ApiError(
                400,
                _("You belong to several organisations: say which one this is for."),
                [
                    item(
                        "body",
                        "organization",
                        "organization_required",
                        _("Give the organisation's slug; you are a member of several."),
                    )
                ],
            )
        return only[0]
    organization = organizations.filter(slug=slug).first()
    if organization is None:
        # Another organisation's slug answers like one that does not exist.
        raise Http404
    return organization
