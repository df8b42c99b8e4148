"""The references of `make bench`. Neither reads or reveals anything a visitor could use.

- `baseline`: the cheapest page Django can serve through the product's whole middleware stack.
- `authenticated`: the floor of any login-required page here: the session and the user are
  read (as for every signed-in page), then one query for one row, and a few bytes of HTML.
  Routed only by the bench urlconf (`advisor.bench_urls`), never by `advisor.urls`.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html

from accounts.models import Membership, User


def baseline(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


@login_required
def authenticated(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)  # noqa: S101 - login_required
    name = (
        Membership.objects.filter(user=request.user)
        .order_by("pk")
        .values_list("organization__name", flat=True)
        .first()
    )
    return HttpResponse(format_html("<!doctype html><title>bench</title><p>{}</p>", name or ""))
