"""Middleware of the product's own."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from advisor import views


class HealthzMiddleware:
    """Answers /healthz before anything reads the Host header (first in MIDDLEWARE).

    Container healthchecks and load balancers probe by address (`Host: 127.0.0.1:8000`, a
    node's IP), which ALLOWED_HOSTS rightly refuses for every other page; a healthcheck that
    guessed a name from ALLOWED_HOSTS would break on wildcards and on every edit of the list.
    The Host check guards links and caches against a forged name, and the health answer
    builds no link, sets no cookie and is never cached, so it has nothing to guard here.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == "/healthz":
            return views.healthz(request)
        return self.get_response(request)
