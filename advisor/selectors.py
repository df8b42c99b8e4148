"""Read-side queries for the advisor app."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import Count, QuerySet
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _

from accounts.models import Organization, Role, User
from accounts.selectors import object_get_for_user
from advisor import decisions
from advisor.celery import app as celery_app
from advisor.engine.answers import Problem
from advisor.forms import StepForm
from advisor.models import Assessment
from advisor.services import step_problems
from advisor.wizard import STEPS, Step, applicable_steps

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


def customer_organizations(*, user: User) -> QuerySet[Organization]:
    """Organisations where the user works as a sales engineer, with their assessment counts."""
    return (
        Organization.objects.filter(memberships__user=user, memberships__role=Role.SALES_ENGINEER)
        .annotate(
            assessment_count=Count("assessments", distinct=True),
        )
        .order_by("name")
    )


def attach_problems(form: StepForm, problems: Sequence[Problem]) -> None:
    """Show the engine's problems at the fields they name, in the reader's language."""
    language = decisions.engine_language()
    for problem in problems:
        if problem.code == "form":
            continue  # Django's own conversion errors are on the field already
        name = form.field_for(problem.path)
        message = problem.message(language)
        if name is not None and name in form.errors and message in form.errors[name]:
            continue
        form.add_error(name, message)


def step_form(*, assessment: Assessment, step: Step) -> StepForm:
    """The step's form: bound to input still waiting to be fixed, else filled from answers."""
    assert step.form is not None  # noqa: S101 - only form steps get here
    pending = assessment.pending_input.get(step.slug)
    if isinstance(pending, dict) and isinstance(pending.get("data"), dict):
        data = MultiValueDict({k: list(v) for k, v in pending["data"].items()})
        data["version"] = str(assessment.version)
        form = step.form(data)
        _, problems = step_problems(
            assessment=assessment, form=form, strict=bool(pending.get("strict"))
        )
        attach_problems(form, problems)
        return form
    form = step.form(initial={**step.form().initial_from(assessment.answers)})
    form.initial["version"] = assessment.version
    return form


def review_sections(*, assessment: Assessment) -> list[dict[str, Any]]:
    """Every answer of every applicable step, as label and display value, for the review."""
    sections = []
    for step in applicable_steps(assessment.answers):
        if step.form is None:
            continue
        form = step.form(initial=step.form().initial_from(assessment.answers))
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
