"""Error pages that render without the database, so they still work when it is down."""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a lost database connection is an outage (503, try again), not a bug."""
    error = sys.exc_info()[1]
    if isinstance(error, OperationalError | InterfaceError):
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = "15"
        return response
    return HttpResponse(render_to_string("500.html"), status=500)
