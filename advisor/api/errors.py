"""Every error the API answers is JSON, `{"detail", "errors", "omitted"}`, in the request's
language: the engine's problems with their paths, pydantic's in our words, and the statuses
ninja and Django would answer in plain text or HTML (405, an unknown path)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from advisor.api.auth import InvalidTokensLimited, RateLimited
from advisor.api.parsing import BodyRefused, BodyTooLarge, NotJSON
from advisor.decisions import languages
from advisor.engine.answers.problems import AnswersError, first_problems, join_path
from advisor.engine.answers.vocabulary import MAX_PROBLEMS
from advisor.services.reports import ReportThrottled

# Room for a path in an error; a longer one (an unknown key of 100 KB) is elided.
MAX_PATH_CHARS = 200


class ApiError(Exception):
    def __init__(self, status: int, detail: str, errors: list[dict[str, Any]] | None = None):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.errors = errors or []


def item(
    location: str, path: str, code: str, message: str, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "location": location,
        "path": path,
        "code": code,
        "message": message,
        "params": params or {},
    }


def auth_required_message() -> str:
    return _("Authentication required: send a valid API token as “Authorization: Bearer <key>”.")


def rate_limited_message(exc: RateLimited) -> str:
    seconds = max(1, exc.retry_after)
    if isinstance(exc, InvalidTokensLimited):
        return ngettext(
            "Too many requests with invalid API tokens from your address; try again in "
            "%(seconds)d second.",
            "Too many requests with invalid API tokens from your address; try again in "
            "%(seconds)d seconds.",
            seconds,
        ) % {"seconds": seconds}
    return ngettext(
        "Too many requests with your API tokens; try again in %(seconds)d second.",
        "Too many requests with your API tokens; try again in %(seconds)d seconds.",
        seconds,
    ) % {"seconds": seconds}


def unauthorized(response: HttpResponse) -> HttpResponse:
    response["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


def too_many(response: HttpResponse, exc: RateLimited) -> HttpResponse:
    # RFC 9110: whole seconds; never 0, which would invite an immediate retry.
    response["Retry-After"] = str(max(1, exc.retry_after))
    return response


def unknown_path(request: HttpRequest) -> HttpResponse:
    return plain_error(404, _("Not found."))


def json_errors(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    # ninja answers a wrong method with Django's plain-text 405 and lets the API root's 404
    # reach Django's HTML page; an API client gets JSON like every other error.
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            response = view(request, *args, **kwargs)
        except Http404:
            return plain_error(404, _("Not found."))
        if response.status_code == 405 and not response.get("Content-Type", "").startswith(
            "application/json"
        ):
            allowed = response.get("Allow", "")
            response = plain_error(
                405,
                _("Method %(method)s is not allowed here; allowed: %(allowed)s.")
                % {"method": request.method, "allowed": allowed},
            )
            response["Allow"] = allowed
        return response

    return wrapped


def plain_error(status: int, detail: str) -> JsonResponse:
    return JsonResponse({"detail": detail, "errors": [], "omitted": 0}, status=status)


def install(api: NinjaAPI) -> None:
    """Answer each kind of failure of `api`'s operations as JSON."""

    def _error(
        request: HttpRequest, status: int, detail: str, errors: Any = (), omitted: int = 0
    ) -> HttpResponse:
        return api.create_response(
            request, {"detail": detail, "errors": list(errors), "omitted": omitted}, status=status
        )

    @api.exception_handler(RateLimited)
    def _rate_limited(request: HttpRequest, exc: RateLimited) -> HttpResponse:
        return too_many(_error(request, 429, rate_limited_message(exc)), exc)

    @api.exception_handler(ReportThrottled)
    def _reports_throttled(request: HttpRequest, exc: ReportThrottled) -> HttpResponse:
        # A create that submits makes a report and its PDF: it counts against the same
        # limits per person and organisation as the pages' submits and report requests.
        text = _(
            "Too many report requests: the workers are shared, so please wait %(seconds)s "
            "seconds and try again."
        ) % {"seconds": exc.retry_after}
        response = _error(request, 429, text)
        response["Retry-After"] = str(max(1, exc.retry_after))
        return response

    @api.exception_handler(ApiError)
    def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
        return _error(request, exc.status, exc.detail, exc.errors)

    @api.exception_handler(AnswersError)
    def _answers_error(request: HttpRequest, exc: AnswersError) -> HttpResponse:
        language = languages.engine_language()
        shown, omitted = first_problems(exc.problems)
        errors = [
            item("answers", _short(p.path), p.code, p.message(language), _jsonable(p.params))
            for p in shown
        ]
        return _error(request, 400, _("The answers document is not valid."), errors, omitted)

    @api.exception_handler(Http404)
    def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return _error(request, 404, _("Not found."))

    @api.exception_handler(HttpError)
    def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        if isinstance(exc, AuthenticationError):
            return unauthorized(_error(request, 401, auth_required_message()))
        cause = exc.__cause__
        # ninja wraps every failure of the body parser in a generic 400; say what went wrong.
        if isinstance(cause, BodyTooLarge | RequestDataTooBig):
            return _error(request, 413, _("The request body is larger than 1 MB."))
        if isinstance(cause, NotJSON):
            return _error(
                request, 415, _("Send the body as JSON, with Content-Type: application/json.")
            )
        if isinstance(cause, BodyRefused):
            return _error(request, 400, str(cause))
        if cause is not None:
            return _error(request, 400, _("The request body is not valid JSON."))
        return _error(request, exc.status_code, exc.message)

    @api.exception_handler(RequestDataTooBig)
    def _too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
        return _error(request, 413, _("The request body is larger than 1 MB."))

    @api.exception_handler(ValidationError)
    def _validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        # pydantic reports every unknown key of the envelope: list a bounded number of them.
        errors = [_validation_item(error) for error in exc.errors[:MAX_PROBLEMS]]
        omitted = max(0, len(exc.errors) - MAX_PROBLEMS)
        return _error(request, 400, _("The request is not valid."), errors, omitted)


# Pydantic's messages are English only; these cover what a client can get wrong here.
PYDANTIC_MESSAGES: dict[str, Promise] = {
    "missing": gettext_lazy("This field is required."),
    "extra_forbidden": gettext_lazy("Unknown field."),
    "string_type": gettext_lazy("Enter a string."),
    "string_too_short": gettext_lazy("This field may not be empty."),
    "string_too_long": gettext_lazy("Enter at most %(max_length)s characters."),
    "string_pattern_mismatch": gettext_lazy(
        "Enter a slug: letters, numbers, hyphens or underscores."
    ),
    "bool_type": gettext_lazy("Enter true or false."),
    "dict_type": gettext_lazy("Enter a JSON object."),
    "model_attributes_type": gettext_lazy("Send a JSON object."),
    "model_type": gettext_lazy("Send a JSON object."),
    "int_type": gettext_lazy("Enter a whole number."),
    "int_parsing": gettext_lazy("Enter a whole number."),
    "int_parsing_size": gettext_lazy("Enter a whole number."),
    "greater_than_equal": gettext_lazy("Enter a number of at least %(ge)s."),
    "less_than_equal": gettext_lazy("Enter a number of at most %(le)s."),
    "literal_error": gettext_lazy("Choose one of: %(expected)s."),
}


def _validation_item(error: dict[str, Any]) -> dict[str, Any]:
    loc = list(error.get("loc", ()))
    source = str(loc.pop(0)) if loc else "body"
    if source == "body" and loc and loc[0] == "payload":
        loc.pop(0)  # the operation's parameter name, not part of the document
    code = str(error.get("type", "invalid"))
    params = _jsonable(error.get("ctx") or {})
    template = PYDANTIC_MESSAGES.get(code)
    try:
        message = str(template) % params if template else str(error.get("msg", ""))
    except (KeyError, TypeError, ValueError):
        message = str(error.get("msg", ""))
    location = source if source in ("body", "query", "path") else "body"
    path = join_path(p for p in loc if isinstance(p, str | int))
    return item(location, _short(path), code, message, params)


def _short(path: str) -> str:
    return path if len(path) <= MAX_PATH_CHARS else path[: MAX_PATH_CHARS - 1] + "…"


def _jsonable(value: Any) -> Any:
    # Problem params and pydantic contexts can hold tuples, sets or exceptions.
    return json.loads(json.dumps(value, default=str))
