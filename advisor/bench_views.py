"""The baseline of `make bench`: the cheapest page Django can serve through the product's
whole middleware stack. It reads nothing and reveals nothing."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse


def baseline(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")
