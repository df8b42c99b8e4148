"""The JSON API (`/api/v1/`): assessments from answers documents, read back with their result.

Each person authenticates with their own key (`accounts.ApiToken`, `Authorization: Bearer`).
The engine's JSON Schema is the only description of the answers document: the request and
response models take `answers` as a plain object, the engine validates it, and the OpenAPI
description references the engine's schemas (`components.schemas.AnswersV1`, and
`AnswersV1Draft` for drafts) instead of copying their rules into pydantic models. The document is
the whole contract, held to it by Schemathesis (tests/api/test_schemathesis.py): every status an
operation answers is listed, with the headers that come with it.

Every error is JSON, `{"detail": "...", "errors": [{"location", "path", "code", "message"}],
"omitted": 0}`, in the request's language; `path` is the engine's own path for problems in
`answers`. At most 50 problems are listed and `omitted` counts the rest, so that an answer never
grows with the request. Each token has a budget of reads and one of writes per minute
(settings.API_RATE_LIMIT_*); past it the API answers 429 with Retry-After, as it does to a
client address past its budget of invalid tokens (settings.API_INVALID_TOKENS_*).
"""

# No `from __future__ import annotations` here: django-ninja reads the operations' annotations
# at runtime, and @paginate's wrapper resolves string annotations in ninja's own module.
import json
import logging
import math
import time
from collections.abc import Callable
from datetime import datetime
from functools import wraps
from typing import Annotated, Any, Literal

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern, URLResolver, re_path
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from ninja import Field, NinjaAPI, Query, Schema, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.openapi.schema import OpenAPISchema
from ninja.pagination import PageNumberPagination, paginate
from ninja.parser import Parser
from ninja.security import HttpBearer
from ninja.types import DictStrAny
from pydantic import AfterValidator, ConfigDict, StrictBool, StringConstraints, WithJsonSchema
from pydantic_core import PydanticCustomError

from accounts import throttle
from accounts.models import ApiToken, Organization, User
from accounts.selectors import api_token_get_by_key, organizations_for_user
from accounts.services import api_token_used
from accounts.validators import validate_plain_name
from advisor import decisions, services
from advisor.engine import AnswersError, answers_schema
from advisor.engine.answers import MAX_PROBLEMS
from advisor.engine.document import ResultDocument
from advisor.engine.problems import first_problems, join_path
from advisor.engine.schema import answers_draft_schema
from advisor.models import Assessment
from advisor.selectors import assessment_get_for_user

logger = logging.getLogger(__name__)

ANSWERS_SCHEMA_NAME = "AnswersV1"
ANSWERS_DRAFT_SCHEMA_NAME = "AnswersV1Draft"
# An answers document is a few kilobytes; a megabyte leaves room for long free text and stops
# a client from making the server parse (and Postgres store) anything much bigger.
MAX_BODY_BYTES = 1024 * 1024
# The answers document nests four levels deep; this bounds the recursion of everything below.
MAX_JSON_DEPTH = 32
SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"
# Room for a path in an error; a longer one (an unknown key of 100 KB) is elided.
MAX_PATH_CHARS = 200


# --- Request parsing -----------------------------------------------------------------------------


class BodyTooLarge(Exception):
    pass


class NotJSON(Exception):
    """A write whose Content-Type is not application/json."""


class BodyRefused(ValueError):
    """Valid JSON that PostgreSQL or the engine cannot take (NUL, lone surrogates, NaN, depth)."""


def _refuse_constant(name: str) -> Any:
    raise BodyRefused(_("%(value)s is not a number JSON allows.") % {"value": name})


def _check_json(data: Any) -> None:
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise BodyRefused(_("The JSON is nested too deeply."))
        if isinstance(node, dict):
            for key, value in node.items():
                _check_text(key)
                stack.append((value, depth + 1))
        elif isinstance(node, list):
            stack.extend((value, depth + 1) for value in node)
        elif isinstance(node, str):
            _check_text(node)
        elif isinstance(node, float) and not math.isfinite(node):
            raise BodyRefused(_("A number is too large."))


def _check_text(text: str) -> None:
    # PostgreSQL refuses NUL in text and jsonb, and UTF-8 cannot encode a lone surrogate.
    if "\x00" in text:
        raise BodyRefused(_("Text may not contain the NUL character."))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BodyRefused(_("Text must be valid Unicode.")) from exc


class JSONParser(Parser):
    def parse_body(self, request: HttpRequest) -> DictStrAny:
        # A form or text/plain post is refused before its body is read: it is no client of
        # this API, and only a JSON body is described by its schema.
        if request.content_type != "application/json":
            raise NotJSON
        body = request.body  # Django raises RequestDataTooBig past DATA_UPLOAD_MAX_MEMORY_SIZE
        if len(body) > MAX_BODY_BYTES:
            raise BodyTooLarge
        data = json.loads(body, parse_constant=_refuse_constant)
        _check_json(data)
        return data  # type: ignore[no-any-return]  # a non-object fails the body schema


# --- Authentication ------------------------------------------------------------------------------


def _clock() -> float:
    return time.time()


class RateLimited(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def _count_request(request: HttpRequest, token: ApiToken) -> None:
    """Count the request against its token's budget; raise RateLimited past it.

    A fixed window per token and kind (read or write) in the shared cache: cache.add creates
    the counter and cache.incr raises it atomically (Redis INCR), so parallel requests cannot
    all pass as the same count.
    """
    write = request.method not in ("GET", "HEAD", "OPTIONS")
    limit = settings.API_RATE_LIMIT_WRITES if write else settings.API_RATE_LIMIT_READS
    window = max(1, settings.API_RATE_LIMIT_WINDOW)
    now = int(_clock())
    start = now - now % window
    key = f"api-rate:{'write' if write else 'read'}:{token.key_hash}:{start}"
    try:
        cache.add(key, 0, timeout=window + 1)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=window + 1)
            count = 1
    except Exception:  # a cache outage costs the limit, never the API
        logger.warning("API rate limit unavailable", exc_info=True)
        return
    if count > limit:
        raise RateLimited(start + window - now)


class InvalidTokensLimited(RateLimited):
    """Too many requests with invalid tokens from this client address."""


def _invalid_tokens() -> throttle.Limit:
    return throttle.Limit(
        "api-invalid-token",
        limit=settings.API_INVALID_TOKENS_PER_ADDRESS,
        window=max(1, settings.API_INVALID_TOKEN_WINDOW),
    )


def _token_lookup(request: HttpRequest, key: str) -> ApiToken | None:
    """The live token whose key this is, or None; each miss counts against the client
    address's budget of invalid tokens (settings.API_INVALID_TOKENS_*), and past it every
    bearer request from that address is refused (InvalidTokensLimited) without a lookup, so
    that guessing keys costs the guesser, not the database. A cache outage costs the limit,
    never the API."""
    address = throttle.client_ip(request)
    try:
        wait = throttle.exceeded(_invalid_tokens(), address)
    except Exception:
        logger.warning("API invalid-token limit unavailable", exc_info=True)
        wait = None
    if wait is not None:
        raise InvalidTokensLimited(wait)
    api_token = api_token_get_by_key(key=key)
    if api_token is None:
        try:
            throttle.hit(_invalid_tokens(), address)
        except Exception:
            logger.warning("API invalid-token limit unavailable", exc_info=True)
    return api_token


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> User | None:
        api_token = _token_lookup(request, token)
        if api_token is None:
            return None
        _count_request(request, api_token)
        api_token_used(token=api_token)
        request.user = api_token.user
        return api_token.user


def _user(request: HttpRequest) -> User:
    user = request.auth  # type: ignore[attr-defined]
    assert isinstance(user, User)  # noqa: S101 - every operation requires BearerToken
    return user


# --- Schemas -------------------------------------------------------------------------------------

# The engine's schema, referenced rather than restated. Pydantic cannot emit a $ref to a schema
# it does not know, so the field carries a marker that AdvisorAPI.get_openapi_schema replaces.
ANSWERS_MARKER = "x-advisor-engine-schema"
Answers = Annotated[
    dict[str, Any],
    WithJsonSchema({"type": "object", ANSWERS_MARKER: ANSWERS_SCHEMA_NAME}),
]
Slug = Annotated[str, StringConstraints(strict=True, max_length=140, pattern=SLUG_PATTERN)]


# What str.strip removes, spelt out so that the published pattern means the same to every
# regular-expression engine (ECMAScript's \s, Rust's and Python's differ at the edges).
SPACES = "".join(chr(c) for c in range(0x3001) if chr(c).isspace())
TITLE_PATTERN = "[^" + "".join(f"\\u{ord(c):04x}" for c in SPACES) + "]"
TITLE_CONTROLS = "[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]"


def _stripped_title(value: str) -> str:
    stripped = value.strip()
    if not stripped:  # the pattern, which pydantic leaves to the schema
        raise PydanticCustomError("string_too_short", "This field may not be empty.")
    try:  # as titles typed on the site: one line, no text-direction overrides
        validate_plain_name(value)
    except DjangoValidationError as error:
        raise PydanticCustomError("control_characters", str(error.messages[0])) from None
    return stripped


# Bounds apply to the title as sent (so that the schema's maxLength is the whole truth); it is
# stored without surrounding spaces, and must hold something besides them.
Title = Annotated[
    str,
    StringConstraints(strict=True, min_length=1, max_length=200),
    AfterValidator(_stripped_title),
    WithJsonSchema(
        {
            "type": "string",
            "minLength": 1,
            "maxLength": 200,
            "pattern": TITLE_PATTERN,
            # One line of plain text (accounts.validators): no control characters (Unicode Cc,
            # NUL among them), line or paragraph separators, or text-direction overrides.
            "not": {"pattern": TITLE_CONTROLS},
            "description": "Not only spaces; no control characters, line breaks or "
            "text-direction overrides (U+202A-U+202E, U+2066-U+2069); stored without "
            "surrounding spaces.",
        }
    ),
]


class AssessmentIn(Schema):
    model_config = ConfigDict(extra="forbid")

    title: Title
    organization: Slug | None = Field(
        None,
        description=(
            "The organisation's slug. Required when the caller belongs to several "
            "organisations; by default the caller's only one."
        ),
    )
    answers: Answers
    draft: StrictBool = Field(
        False,
        description=(
            "Store an incomplete draft (only values the wizard would keep). Otherwise the "
            "document must be complete and valid; it is submitted and its result computed."
        ),
    )


class AssessmentSummaryOut(Schema):
    id: int
    title: str
    organization: str = Field(description="The organisation's slug.")
    status: Literal["draft", "submitted"]
    version: int = Field(description="Bumped by every save (optimistic locking in the wizard).")
    created_at: datetime
    updated_at: datetime
    submitted_at: datetime | None

    @staticmethod
    def resolve_organization(obj: Assessment) -> str:
        return obj.organization.slug


class AssessmentOut(AssessmentSummaryOut):
    answers: Answers
    result: dict[str, Any] | None = Field(
        description=(
            "The engine's result document in the request's language (Accept-Language: en or "
            "zh-Hant), as frozen at submission; null while the assessment is a draft."
        )
    )

    @staticmethod
    def resolve_result(obj: Assessment) -> ResultDocument | None:
        return services.assessment_result(assessment=obj, language=decisions.engine_language())


class ErrorItem(Schema):
    location: Literal["answers", "body", "query", "path"] = Field(
        description="Where the path points: into `answers`, or at a body, query or path field."
    )
    path: str = Field(description="For `answers`, the engine's path, e.g. `workloads[0].kind`.")
    code: str
    message: str
    params: dict[str, Any] = Field(default_factory=dict)


class ErrorOut(Schema):
    detail: str
    errors: list[ErrorItem] = Field(
        default_factory=list, description=f"At most {MAX_PROBLEMS} problems."
    )
    omitted: int = Field(0, description="How many more problems were found but not listed.")


class AssessmentFilters(Schema):
    organization: Slug | None = Field(None, description="Only this organisation (its slug).")
    status: Literal["draft", "submitted"] | None = None


class Pages(PageNumberPagination):
    class Input(Schema):
        # Bounded so that page x size stays a sane SQL OFFSET.
        page: int = Field(1, ge=1, le=100_000)
        page_size: int | None = Field(None, ge=1, le=100)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(page_size=20, max_page_size=100, **kwargs)


# --- The API -------------------------------------------------------------------------------------


class AdvisorAPI(NinjaAPI):
    def get_openapi_schema(
        self, *, path_prefix: str | None = None, path_params: DictStrAny | None = None
    ) -> OpenAPISchema:
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        _reference_engine_schema(schema)
        _document_headers(schema)
        schemas = schema.setdefault("components", {}).setdefault("schemas", {})
        schemas[ANSWERS_SCHEMA_NAME] = answers_schema()
        schemas[ANSWERS_DRAFT_SCHEMA_NAME] = answers_draft_schema()
        # A draft's answers meet the draft schema only; a submitted one's the whole schema.
        _answers_follow(schemas.get("AssessmentIn"), "draft", True)
        _answers_follow(schemas.get("AssessmentOut"), "status", "draft")
        return schema

    def _get_urls(self) -> list[URLResolver | URLPattern]:
        urls = super()._get_urls()
        for url in urls:
            if isinstance(url, URLPattern):
                url.callback = _json_errors(url.callback)
        # Any other path under the API is a JSON 404 too, not Django's HTML page.
        urls.append(re_path(r"^.+$", _unknown_path, name="unknown"))
        return urls


def _unknown_path(request: HttpRequest) -> HttpResponse:
    return _plain_error(404, _("Not found."))


def _json_errors(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    # ninja answers a wrong method with Django's plain-text 405 and lets the API root's 404
    # reach Django's HTML page; an API client gets JSON like every other error.
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            response = view(request, *args, **kwargs)
        except Http404:
            return _plain_error(404, _("Not found."))
        if response.status_code == 405 and not response.get("Content-Type", "").startswith(
            "application/json"
        ):
            allowed = response.get("Allow", "")
            response = _plain_error(
                405,
                _("Method %(method)s is not allowed here; allowed: %(allowed)s.")
                % {"method": request.method, "allowed": allowed},
            )
            response["Allow"] = allowed
        return response

    return wrapped


def _plain_error(status: int, detail: str) -> JsonResponse:
    return JsonResponse({"detail": detail, "errors": [], "omitted": 0}, status=status)


def _docs_access(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    # The OpenAPI document describes every operation and the answers schema; in production it
    # is for people who use the API (a session or a token) unless API_DOCS_PUBLIC says so.
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            response = _plain_error(
                405,
                _("Method %(method)s is not allowed here; allowed: %(allowed)s.")
                % {"method": request.method, "allowed": "GET, HEAD"},
            )
            response["Allow"] = "GET, HEAD"
            return response
        if not (settings.API_DOCS_PUBLIC or request.user.is_authenticated):
            scheme, _space, key = request.headers.get("Authorization", "").partition(" ")
            try:
                token = _token_lookup(request, key.strip()) if scheme.lower() == "bearer" else None
                if token is None:
                    return _unauthorized(_plain_error(401, _auth_required_message()))
                _count_request(request, token)
            except RateLimited as exc:
                return _too_many(_plain_error(429, _rate_limited_message(exc)), exc)
        return view(request, *args, **kwargs)

    return wrapped


# Headers that come with an error status wherever it is answered (_unauthorized, _too_many).
ERROR_HEADERS: dict[str, dict[str, Any]] = {
    "401": {
        "WWW-Authenticate": {
            "description": "The scheme to authenticate with: `Bearer`.",
            "required": True,
            "schema": {"type": "string"},
        }
    },
    "429": {
        "Retry-After": {
            "description": "Whole seconds until the budget is renewed (at least 1): this "
            "token's, or for invalid tokens this client address's.",
            "required": True,
            "schema": {"type": "integer", "minimum": 1},
        }
    },
}


def _document_headers(schema: OpenAPISchema) -> None:
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                if str(status) in ERROR_HEADERS:
                    response["headers"] = ERROR_HEADERS[str(status)]


def _answers_follow(model: Any, field: str, value: Any) -> None:
    # Only the object can see the sibling field that says which schema `answers` meets.
    if not isinstance(model, dict) or "answers" not in model.get("properties", {}):
        return
    model["properties"]["answers"] = {
        "type": "object",
        "description": f"An answers document: {ANSWERS_DRAFT_SCHEMA_NAME} when {field} is "
        f"{json.dumps(value)}, else {ANSWERS_SCHEMA_NAME}.",
    }
    model.setdefault("allOf", []).append(
        {
            "if": {"properties": {field: {"const": value}}, "required": [field]},
            "then": {
                "properties": {
                    "answers": {"$ref": f"#/components/schemas/{ANSWERS_DRAFT_SCHEMA_NAME}"}
                }
            },
            "else": {
                "properties": {"answers": {"$ref": f"#/components/schemas/{ANSWERS_SCHEMA_NAME}"}}
            },
        }
    )


def _reference_engine_schema(node: Any) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, dict) and ANSWERS_MARKER in value:
                ref = {"$ref": f"#/components/schemas/{value[ANSWERS_MARKER]}"}
                node[key] = {**ref, **{k: v for k, v in value.items() if k == "description"}}
            else:
                _reference_engine_schema(value)
    elif isinstance(node, list):
        for item in node:
            _reference_engine_schema(item)


api = AdvisorAPI(
    title="Accelerator Advisor API",
    version="1",
    description=(
        "Create assessments from answers documents, read them back with the engine's result, "
        "and list your organisations' assessments. Authenticate with a personal API token "
        "(the API tokens page, /accounts/tokens/) as `Authorization: Bearer <key>`. Errors are "
        "JSON with the engine's field paths, in the language of `Accept-Language` (en or "
        "zh-Hant)."
    ),
    # The Swagger page loads its assets from a CDN, which the CSP forbids; the JSON is enough.
    docs_url=None,
    openapi_url="/openapi.json",
    urls_namespace="api-v1",
    auth=BearerToken(),
    parser=JSONParser(),
    docs_decorator=_docs_access,
)

# Every status an operation can answer is in the OpenAPI document, so that a client (and
# Schemathesis, tests/api/test_schemathesis.py) can hold the API to it. 405 is not among them: it
# answers a method that is no operation; 422 neither: validation errors are 400.
ERRORS = {400: ErrorOut, 401: ErrorOut, 404: ErrorOut, 429: ErrorOut}


@api.post(
    "/assessments",
    response={201: AssessmentOut, 413: ErrorOut, 415: ErrorOut, **ERRORS},
    summary="Create an assessment from an answers document",
    tags=["assessments"],
)
def assessment_create(request: HttpRequest, payload: AssessmentIn) -> Status[Assessment]:
    user = _user(request)
    organization = _organization(user, payload.organization)
    assessment = services.assessment_create_from_document(
        organization=organization,
        user=user,
        title=payload.title,
        answers=payload.answers,
        draft=payload.draft,
        language=decisions.engine_language(),
    )
    return Status(201, assessment)


@api.get(
    "/assessments/{assessment_id}",
    response={200: AssessmentOut, **ERRORS},
    summary="Read an assessment with its result",
    tags=["assessments"],
)
def assessment_read(request: HttpRequest, assessment_id: int) -> Assessment:
    return assessment_get_for_user(user=_user(request), pk=assessment_id)


@api.get(
    "/assessments",
    response={200: list[AssessmentSummaryOut], **ERRORS},
    summary="List your organisations' assessments, newest first",
    tags=["assessments"],
)
@paginate(Pages)
def assessment_list(
    request: HttpRequest, filters: Query[AssessmentFilters]
) -> QuerySet[Assessment]:
    user = _user(request)
    organizations = organizations_for_user(user=user)
    if filters.organization is not None:
        organizations = organizations.filter(pk=_organization(user, filters.organization).pk)
    queryset = (
        Assessment.objects.filter(organization__in=organizations)
        .select_related("organization")
        .defer("answers", "pending_input", "result")
        .order_by("-created_at", "-pk")
    )
    if filters.status is not None:
        queryset = queryset.filter(status=filters.status)
    return queryset


@api.get(
    "/schema/answers",
    response={200: dict[str, Any], 401: ErrorOut, 429: ErrorOut},
    summary="The engine's JSON Schema of the answers document",
    tags=["schema"],
)
def schema_answers(request: HttpRequest) -> dict[str, Any]:
    return answers_schema()


def _organization(user: User, slug: str | None) -> Organization:
    organizations = organizations_for_user(user=user)
    if slug is None:
        # Never a guess: a prospect organisation someone named "AAA" once came first by name
        # and received a sales engineer's API creates.
        only = list(organizations.order_by("name", "pk")[:2])
        if not only:
            raise ApiError(
                400,
                _("You are not a member of any organisation."),
                [_item("body", "organization", "no_organization", _("Join or create one first."))],
            )
        if len(only) > 1:
            raise ApiError(
                400,
                _("You belong to several organisations: say which one this is for."),
                [
                    _item(
                        "body",
                        "organization",
                        "organization_required",
                        _("Give the organisation's slug; you are a member of several."),
                    )
                ],
            )
        return only[0]
    organization = organizations.filter(slug=slug).first()
    if organization is None:
        # Another organisation's slug answers like one that does not exist.
        raise Http404
    return organization


# --- Errors --------------------------------------------------------------------------------------


class ApiError(Exception):
    def __init__(self, status: int, detail: str, errors: list[dict[str, Any]] | None = None):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.errors = errors or []


def _item(
    location: str, path: str, code: str, message: str, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "location": location,
        "path": path,
        "code": code,
        "message": message,
        "params": params or {},
    }


def _error(
    request: HttpRequest, status: int, detail: str, errors: Any = (), omitted: int = 0
) -> HttpResponse:
    return api.create_response(
        request, {"detail": detail, "errors": list(errors), "omitted": omitted}, status=status
    )


def _auth_required_message() -> str:
    return _("Authentication required: send a valid API token as “Authorization: Bearer <key>”.")


def _rate_limited_message(exc: RateLimited) -> str:
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
        "Too many requests with this token; try again in %(seconds)d second.",
        "Too many requests with this token; try again in %(seconds)d seconds.",
        seconds,
    ) % {"seconds": seconds}


def _unauthorized(response: HttpResponse) -> HttpResponse:
    response["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


def _too_many(response: HttpResponse, exc: RateLimited) -> HttpResponse:
    # RFC 9110: whole seconds; never 0, which would invite an immediate retry.
    response["Retry-After"] = str(max(1, exc.retry_after))
    return response


@api.exception_handler(RateLimited)
def _rate_limited(request: HttpRequest, exc: RateLimited) -> HttpResponse:
    return _too_many(_error(request, 429, _rate_limited_message(exc)), exc)


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return _error(request, exc.status, exc.detail, exc.errors)


@api.exception_handler(AnswersError)
def _answers_error(request: HttpRequest, exc: AnswersError) -> HttpResponse:
    language = decisions.engine_language()
    shown, omitted = first_problems(exc.problems)
    errors = [
        _item("answers", _short(p.path), p.code, p.message(language), _jsonable(p.params))
        for p in shown
    ]
    return _error(request, 400, _("The answers document is not valid."), errors, omitted)


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return _error(request, 404, _("Not found."))


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    if isinstance(exc, AuthenticationError):
        return _unauthorized(_error(request, 401, _auth_required_message()))
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
    return _item(location, _short(path), code, message, params)


def _short(path: str) -> str:
    return path if len(path) <= MAX_PATH_CHARS else path[: MAX_PATH_CHARS - 1] + "…"


def _jsonable(value: Any) -> Any:
    # Problem params and pydantic contexts can hold tuples, sets or exceptions.
    return json.loads(json.dumps(value, default=str))
