from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.forms import OrganizationForm
from accounts.selectors import current_membership
from advisor.selectors import broker_reachable, database_reachable


@require_GET
def landing(request: HttpRequest) -> HttpResponse:
    return render(request, "advisor/landing.html")


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    membership = current_membership(request)
    if membership is None:
        # Someone whose last organisation removed them: offer to start a new one.
        return render(request, "advisor/dashboard.html", {"organization_form": OrganizationForm()})
    return render(request, "advisor/dashboard.html", {"membership": membership})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": database_reachable(), "broker": broker_reachable()}
    healthy = all(checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503
    )
