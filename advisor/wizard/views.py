"""The wizard's pages: a step shown, saved or autosaved, the review, submit and reopen."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseLocation

from accounts.selectors import current_membership, request_memberships
from advisor import permissions
from advisor.decisions import languages
from advisor.engine.answers.problems import AnswersError, Problem
from advisor.forms.assessments import CustomerInviteForm
from advisor.htmx import AuthenticatedHttpRequest, HtmxHttpRequest, render_page_or_partial
from advisor.models import Assessment
from advisor.selectors.assessments import (
    answers_problems,
    assessment_get_for_user,
    assessment_get_in_memberships,
    problems_by_step,
)
from advisor.services import assessments
from advisor.services.reports import ReportThrottled
from advisor.wizard import binding as step_forms
from advisor.wizard.forms_by_step import form_for
from advisor.wizard.steps import BY_SLUG, Step, applicable_steps, first_incomplete, neighbours


@login_required
@require_GET
def assessment(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Where an assessment link lands: its result once submitted, else the next step to do."""
    obj = assessment_get_for_user(user=request.user, pk=pk)
    if not obj.is_draft:
        return redirect("advisor:result", pk=obj.pk)
    step = first_incomplete(obj.answers, answers_problems(assessment=obj))
    return redirect("advisor:step", pk=obj.pk, slug=step.slug)


def _go(request: HtmxHttpRequest, url: str) -> HttpResponse:
    # Valid POST: htmx swaps the next step in (and pushes its URL); plain forms redirect.
    if request.htmx:
        return HttpResponseLocation(url, target="#wizard", swap="outerHTML")
    return redirect(url)


def _step_url(obj: Assessment, step: Step) -> str:
    return reverse("advisor:step", kwargs={"pk": obj.pk, "slug": step.slug})


def _version(request: HtmxHttpRequest) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


@login_required
@require_http_methods(["GET", "POST"])
def step(request: AuthenticatedHttpRequest, pk: int, slug: str) -> HttpResponse:
    # The wizard never shows the stored result. A page reads the memberships for its navbar
    # anyway, so a GET finds the assessment among them; a save needs no navbar.
    obj = (
        assessment_get_in_memberships(
            memberships=request_memberships(request), pk=pk, with_result=False
        )
        if request.method == "GET"
        else assessment_get_for_user(user=request.user, pk=pk, with_result=False)
    )
    if not obj.is_draft:
        return redirect("advisor:result", pk=obj.pk)
    current = BY_SLUG.get(slug)
    if current is None or not current.is_applicable(obj.answers):
        target = first_incomplete(obj.answers, answers_problems(assessment=obj))
        return redirect("advisor:step", pk=obj.pk, slug=target.slug)
    step_form_class = form_for(current)
    if step_form_class is None:
        return _review(request, obj, current)
    if request.method == "GET":
        form = _lazy(lambda: step_forms.step_form(assessment=obj, step=current))
        return _render_step(request, obj, current, form)

    action = request.POST.get("action", "next")
    form = step_form_class(request.POST)
    entered = step_forms.step_input(form)
    try:
        outcome = assessments.step_save(
            assessment=obj,
            section=entered.section,
            value=entered.value,
            raw_input=entered.raw_input,
            input_problems=entered.problems,
            expected_version=_version(request),
            strict=action == "next",
            editor=request.POST.get("tab", "")[:40],
            autosave=action == "autosave",
        )
    except assessments.VersionConflict as conflict:
        if action == "autosave":
            # Leave the stale version in the page so the explicit save meets the conflict too.
            return render(
                request,
                "advisor/wizard.html#autosave",
                _step_context(request, obj, current, form, conflict=True),
            )
        # Keep what this tab typed, show the conflict, and let the person decide.
        data = request.POST.copy()
        data["version"] = str(conflict.current.version)
        form = step_form_class(data)
        return _render_step(
            request,
            conflict.current,
            current,
            form,
            conflict=True,
            status=200 if request.htmx else 409,
        )
    if outcome.superseded:
        # This tab has moved on (usually to the next step): nothing here to update.
        return HttpResponse(status=204)

    def saved() -> list[Problem]:
        return outcome.answer_problems  # the save validated the answers already

    if action == "autosave":
        step_forms.attach_problems(form, outcome.problems)
        return render(
            request,
            "advisor/wizard.html#autosave",
            _step_context(request, obj, current, form, answer_problems=saved),
        )
    before, after = neighbours(current, obj.answers)
    if action == "back":
        return _go(request, _step_url(obj, before or current))
    if outcome.ok:
        return _go(request, _step_url(obj, after or BY_SLUG["review"]))
    if request.htmx:
        step_forms.attach_problems(form, outcome.problems)
        return _render_step(request, obj, current, form, answer_problems=saved)
    # Post/redirect/get even for errors: the refused input waits in pending_input, so a
    # refresh shows the same page without a "resubmit the form?" prompt.
    return redirect(_step_url(obj, current))


def _lazy(compute: Callable[[], Any]) -> Any:
    # Computed when a template first uses it: a kept {% fragment %} never does, so the work
    # is done only when the fragment is rendered.
    return SimpleLazyObject(compute)


def _step_context(
    request: HtmxHttpRequest,
    obj: Assessment,
    current: Step,
    form: Any,
    *,
    answer_problems: Callable[[], list[Problem]] | None = None,
    keep: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    steps = functools.cache(lambda: applicable_steps(obj.answers))
    problems = answer_problems or functools.cache(lambda: answers_problems(assessment=obj))
    around = functools.cache(lambda: neighbours(current, obj.answers))
    can_invite = _can_invite(request, obj)
    return {
        "assessment": obj,
        "step": current,
        "form": form,
        "steps": _lazy(
            lambda: [
                {
                    "step": s,
                    "complete": s.is_complete(obj.answers, problems()),
                    "url": _step_url(obj, s),
                }
                for s in steps()
            ]
        ),
        "position": _lazy(lambda: steps().index(current) + 1 if current in steps() else 1),
        "total": _lazy(lambda: len(steps())),
        "previous": _lazy(lambda: around()[0]),
        "next": _lazy(lambda: around()[1]),
        # Never kept: a kept preview's key would need the published catalog's and scoring
        # model's versions, whose two queries cost about what the preview itself does
        # (docs/benchmarks.md).
        "preview": _lazy(lambda: assessments.assessment_preview(assessment=obj)),
        "tab_id": request.POST.get("tab") or secrets.token_urlsafe(12),
        "invite_form": CustomerInviteForm() if can_invite else None,
        # Everything the kept #wizard panel shows: the stored answers, pending input and title
        # (version and updated_at move with each), the step and what the reader may do. The
        # preview in it is live; nothing else in it may come from the catalog or the scoring
        # model, or this key must name their published versions (test_kept_pages.py checks).
        "wizard_key": (
            f"{obj.pk}.{obj.version}.{obj.updated_at.isoformat()}.{current.slug}.{can_invite}"
            if keep
            else None
        ),
        **extra,
    }


def _can_invite(request: HtmxHttpRequest, obj: Assessment) -> bool:
    return permissions.can_invite_to_assessment(
        membership=current_membership(request), assessment=obj
    )


def _render_step(
    request: HtmxHttpRequest,
    obj: Assessment,
    current: Step,
    form: Any,
    *,
    conflict: bool = False,
    status: int = 200,
    answer_problems: Callable[[], list[Problem]] | None = None,
) -> HttpResponse:
    # Only a GET shows exactly what is stored; a POST's page carries its own input and errors.
    keep = request.method == "GET" and not conflict
    context = _step_context(
        request,
        obj,
        current,
        form,
        answer_problems=answer_problems,
        conflict=conflict,
        keep=keep,
    )
    return render_page_or_partial(request, "advisor/wizard.html", context, status=status)


def _review(request: HtmxHttpRequest, obj: Assessment, current: Step) -> HttpResponse:
    problems = functools.cache(lambda: answers_problems(assessment=obj))
    context = _step_context(
        request,
        obj,
        current,
        None,
        answer_problems=problems,
        keep=request.method == "GET",
        sections=_lazy(lambda: step_forms.review_sections(assessment=obj)),
        problems=_lazy(lambda: problems_by_step(assessment=obj, problems=problems())),
        can_submit=_lazy(lambda: not problems() and not obj.pending_input),
    )
    return render_page_or_partial(request, "advisor/wizard.html", context)


@login_required
@require_POST
def submit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    obj = assessment_get_for_user(user=request.user, pk=pk)
    review_url = _step_url(obj, BY_SLUG["review"])
    if not obj.is_draft:
        return _go(request, reverse("advisor:result", kwargs={"pk": obj.pk}))
    try:
        assessments.assessment_submit(
            assessment=obj,
            expected_version=_version(request),
            user=request.user,
            language=languages.engine_language(),
        )
    except (AnswersError, assessments.PendingInput):
        messages.error(request, _("Some answers are missing or need fixing; see the list below."))
        return _go(request, review_url)
    except assessments.VersionConflict:
        messages.error(
            request,
            _(
                "This assessment changed in another tab or by a colleague. "
                "Review it and submit again."
            ),
        )
        return _go(request, review_url)
    except ReportThrottled as refusal:
        # Each submit runs the engine and makes a report and its PDF: it counts against the
        # report limits per person and organisation; the draft stays as it was.
        text = _(
            "Too many report requests: the workers are shared, so please wait %(seconds)s "
            "seconds and try again."
        ) % {"seconds": refusal.retry_after}
        if request.htmx or not request.accepts("text/html"):
            response = HttpResponse(text, status=429, content_type="text/plain; charset=utf-8")
        else:
            messages.error(request, text)
            response = _go(request, review_url)
        response["Retry-After"] = str(refusal.retry_after)
        return response
    url = reverse("advisor:result", kwargs={"pk": obj.pk})
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@login_required
@require_POST
def reopen(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    obj = assessment_get_for_user(user=request.user, pk=pk)
    if not obj.is_draft:
        assessments.assessment_reopen(assessment=obj)
    return redirect("advisor:step", pk=obj.pk, slug="review")
