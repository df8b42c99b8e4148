"""Middleware of the product's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from advisor import views
from advisor.api.parsing import MAX_BODY_BYTES


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


def _declared_length(environ: dict[str, Any]) -> int | None:
    """The body's declared length; None when it comes in chunks (no Content-Length)."""
    try:
        return max(0, int(environ.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return None


def _chunked(environ: dict[str, Any]) -> bool:
    return "chunked" in str(environ.get("HTTP_TRANSFER_ENCODING", "")).lower()


def body_limit(app: Callable[..., Any]) -> Callable[..., Any]:
    """The WSGI application behind gunicorn, refusing an oversized body before anything reads it.

    Production runs gunicorn with no proxy in front (docker-compose.yml), and gunicorn caps
    request lines and headers but never bodies; this is the cap a proxy's
    client_max_body_size would be. A body whose Content-Length is past
    REQUEST_BODY_MAX_BYTES is answered 413, and one sent in chunks (no length to check
    before reading) 411; RequestBodyLimitMiddleware then applies the smaller caps for
    people who are not signed in and for the API.
    """

    def limited(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        length = _declared_length(environ)
        status = None
        if _chunked(environ) or length is None:
            status = "411 Length Required"
        elif length > settings.REQUEST_BODY_MAX_BYTES:
            status = "413 Content Too Large"
        if status is None:
            return app(environ, start_response)
        body = status.encode("ascii") + b"\n"
        start_response(
            status,
            [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Content-Length", str(len(body))),
                ("Connection", "close"),
            ],
        )
        return [body]

    return limited


class RequestBodyLimitMiddleware:
    """Refuses a request body past its cap by its Content-Length, before Django reads it.

    Django reads a form's files into temporary files as it parses them, so a cap checked after
    parsing (a form's own size check) comes after a gigabyte was written to disk. The caps:
    REQUEST_BODY_MAX_BYTES_ANONYMOUS for people not signed in (sign-up, login, resets: a few
    fields), settings.REQUEST_BODY_MAX_BYTES for signed-in pages (the largest is a catalog
    import, 5 MB), and the API's own megabyte (advisor.api.parsing.MAX_BODY_BYTES, answered
    as the API answers it). A body sent in chunks has no length to check before reading:
    Django would not read it at all, so it is refused (411) rather than silently dropped.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = _declared_length(request.META)
        if _chunked(request.META) or length is None:
            return self._refuse(request, 411, _("Send the request with a Content-Length."))
        if length:
            limit = self._limit(request)
            if length > limit:
                return self._refuse(
                    request,
                    413,
                    _(
                        "The request is %(size)s bytes, more than the %(limit)s bytes this page "
                        "takes."
                    )
                    % {"size": f"{length:,}", "limit": f"{limit:,}"},
                )
        return self.get_response(request)

    @staticmethod
    def _limit(request: HttpRequest) -> int:
        if request.path_info.startswith("/api/"):
            return MAX_BODY_BYTES
        if request.user.is_authenticated:
            return int(settings.REQUEST_BODY_MAX_BYTES)
        return int(settings.REQUEST_BODY_MAX_BYTES_ANONYMOUS)

    @staticmethod
    def _refuse(request: HttpRequest, status: int, text: str) -> HttpResponse:
        if request.path_info.startswith("/api/"):
            if status == 413:
                text = _("The request body is larger than 1 MB.")
            response: HttpResponse = JsonResponse(
                {"detail": text, "errors": [], "omitted": 0}, status=status
            )
        else:
            response = HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")
        # The body was not read: the connection cannot carry another request.
        response["Connection"] = "close"
        return response
