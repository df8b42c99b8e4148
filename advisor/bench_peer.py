"""`make bench`'s peer: the product's first wizard step written the conventional way.

A django-formtools `NamedUrlSessionWizardView` over the product's own step forms (the
organisation step, then the workloads step), rendered with crispy-forms' bootstrap5 pack
inside the product's page shell, its state in the session (the product's session store:
PostgreSQL, read through Redis). It keeps no assessment, no version and no ownership check: it
is what a team would write first, the reference the product's wizard is measured against.
Bench-only: django-formtools is a dev dependency, and only `advisor.bench_urls`
(`advisor.bench_settings`) routes this view.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse
from formtools.wizard.views import NamedUrlSessionWizardView, normalize_name

from advisor.wizard import forms as f
from advisor.wizard.steps import BY_SLUG

STEPS = [("organization", f.OrganizationStepForm), ("workloads", f.WorkloadsStepForm)]
URL_NAME = "bench_peer_step"


class OrganizationPeerWizard(LoginRequiredMixin, NamedUrlSessionWizardView):  # type: ignore[misc]
    template_name = "bench/peer_wizard.html"

    def get_context_data(self, form: Any, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(form=form, **kwargs)
        context["step_title"] = BY_SLUG[self.steps.current].title
        return context

    def done(self, form_list: Any, **kwargs: Any) -> HttpResponse:
        return HttpResponseRedirect(reverse("advisor:dashboard"))


PREFIX = normalize_name(OrganizationPeerWizard.__name__)

wizard_view = OrganizationPeerWizard.as_view(STEPS, url_name=URL_NAME)


def step_url(step: str = "organization") -> str:
    return reverse(URL_NAME, kwargs={"step": step})


def organization_post(industry: str, regions: list[str]) -> dict[str, Any]:
    """The form data a browser sends for a valid organisation step (the management form says
    which step it is; the step's fields carry the step's name as their prefix)."""
    return {
        f"{PREFIX}-current_step": "organization",
        "organization-industry": industry,
        "organization-regions": regions,
    }
