"""Error pages that render without the database, so they still work when it is down."""

from __future__ import annotations

import sys

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.csp import CSP, build_policy


def _with_csp(response: HttpResponse) -> HttpResponse:
    # The CSP middleware adds the header only to responses that pass back through it; an error
    # raised in a middleware above it (sessions, locale, CSRF) would leave the page without.
    # The error pages run no script, so the policy needs no nonce.
    if settings.SECURE_CSP:
        response[CSP.HEADER_ENFORCE] = build_policy(settings.SECURE_CSP)  # type: ignore[arg-type]
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a lost database connection is an outage (503, try again), not a bug."""
    error = sys.exc_info()[1]
    if isinstance(error, OperationalError | InterfaceError):
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = "15"
        return _with_csp(response)
    return _with_csp(HttpResponse(render_to_string("500.html"), status=500))
