"""The OpenAPI document (`/api/v1/openapi.json`) and the engine's schema as an operation: the
document references the engine's answers schemas, lists the headers that come with each error
status, and is for the API's users unless settings.API_DOCS_PUBLIC opens it."""

# No `from __future__ import annotations` here: django-ninja reads the operations' annotations
# at runtime, and @paginate's wrapper resolves string annotations in ninja's own module.
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import Router
from ninja.openapi.schema import OpenAPISchema

from advisor.api.auth import RateLimited, count_request, token_lookup
from advisor.api.errors import (
    auth_required_message,
    plain_error,
    rate_limited_message,
    too_many,
    unauthorized,
)
from advisor.api.schemas import (
    ANSWERS_DRAFT_IN_SCHEMA_NAME,
    ANSWERS_DRAFT_SCHEMA_NAME,
    ANSWERS_IN_SCHEMA_NAME,
    ANSWERS_MARKER,
    ANSWERS_SCHEMA_NAME,
    ANSWERS_V1_DRAFT_SCHEMA_NAME,
    ANSWERS_V1_SCHEMA_NAME,
    ANSWERS_V2_DRAFT_SCHEMA_NAME,
    ANSWERS_V2_SCHEMA_NAME,
    ErrorOut,
)
from advisor.engine.answers.schema import answers_draft_schema, answers_schema

router = Router()


@router.get(
    "/schema/answers",
    response={200: dict[str, Any], 401: ErrorOut, 429: ErrorOut},
    summary="The engine's JSON Schema of the answers document",
    tags=["schema"],
)
def schema_answers(request: HttpRequest) -> dict[str, Any]:
    return answers_schema()


def docs_access(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    # The OpenAPI document describes every operation and the answers schema; in production it
    # is for people who use the API (a session or a token) unless API_DOCS_PUBLIC says so.
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            response = plain_error(
                405,
                _("Method %(method)s is not allowed here; allowed: %(allowed)s.")
                % {"method": request.method, "allowed": "GET, HEAD"},
            )
            response["Allow"] = "GET, HEAD"
            return response
        if not (settings.API_DOCS_PUBLIC or request.user.is_authenticated):
            scheme, _space, key = request.headers.get("Authorization", "").partition(" ")
            try:
                token = token_lookup(request, key.strip()) if scheme.lower() == "bearer" else None
                if token is None:
                    return unauthorized(plain_error(401, auth_required_message()))
                count_request(request, token)
            except RateLimited as exc:
                return too_many(plain_error(429, rate_limited_message(exc)), exc)
        return view(request, *args, **kwargs)

    return wrapped


# Headers that come with an error status wherever it is answered (unauthorized, too_many).
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


def document_headers(schema: OpenAPISchema) -> None:
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                if str(status) in ERROR_HEADERS:
                    response["headers"] = ERROR_HEADERS[str(status)]


def answers_components() -> dict[str, dict[str, Any]]:
    """The answers schemas the document names: each version's whole and draft schema, and what a
    create accepts, one of the versions."""

    def one_of(v1: str, v2: str, v3: str, what: str) -> dict[str, Any]:
        # Told apart by schema_version, which each version fixes with `const` (and which a v1
        # draft must state): at most one branch can hold. No OpenAPI `discriminator` object: its
        # values are strings naming schemas, and schema_version is an integer (tools that pin a
        # branch to its discriminator value would pin the string "1" and make it unsatisfiable).
        return {
            "description": f"{what} of answers version 3 ({v3}), version 2 ({v2}) or version "
            f"1 ({v1}), told apart by schema_version. Every document valid by {v3} is accepted. "
            "A version 1 or 2 document is checked by its version's rules, which compare two "
            "numbers as JSON Schema cannot (version 1: output_tokens at most context_tokens, "
            "else 400 with output_exceeds_context at inference.output_tokens; versions 1 and 2: "
            "the custom architecture's kv_heads_divide, heads_divide_hidden, "
            "head_dim_out_of_range, experts_per_token_exceed and active_exceeds_total), and is "
            "stored as version 3 (prompt_tokens = context_tokens - output_tokens, kv_group_size "
            "= attention_heads / kv_heads, head_dim = hidden_size / attention_heads when not "
            "given, inactive_experts = experts - experts_per_token, active_parameter_share = "
            "active_parameters / parameters); answers are always returned as version 3. Any "
            "other schema_version is refused with 400 at schema_version.",
            "oneOf": [
                {"$ref": f"#/components/schemas/{v3}"},
                {"$ref": f"#/components/schemas/{v2}"},
                {"$ref": f"#/components/schemas/{v1}"},
            ],
        }

    return {
        ANSWERS_SCHEMA_NAME: answers_schema(),
        ANSWERS_DRAFT_SCHEMA_NAME: answers_draft_schema(),
        ANSWERS_V2_SCHEMA_NAME: answers_schema(2),
        ANSWERS_V2_DRAFT_SCHEMA_NAME: answers_draft_schema(2),
        ANSWERS_V1_SCHEMA_NAME: answers_schema(1),
        ANSWERS_V1_DRAFT_SCHEMA_NAME: answers_draft_schema(1),
        ANSWERS_IN_SCHEMA_NAME: one_of(
            ANSWERS_V1_SCHEMA_NAME,
            ANSWERS_V2_SCHEMA_NAME,
            ANSWERS_SCHEMA_NAME,
            "A complete answers document",
        ),
        ANSWERS_DRAFT_IN_SCHEMA_NAME: one_of(
            ANSWERS_V1_DRAFT_SCHEMA_NAME,
            ANSWERS_V2_DRAFT_SCHEMA_NAME,
            ANSWERS_DRAFT_SCHEMA_NAME,
            "A draft",
        ),
    }


def answers_follow(model: Any, field: str, value: Any, draft: str, whole: str) -> None:
    # Only the object can see the sibling field that says which schema `answers` meets.
    if not isinstance(model, dict) or "answers" not in model.get("properties", {}):
        return
    model["properties"]["answers"] = {
        "type": "object",
        "description": f"An answers document: {draft} when {field} is {json.dumps(value)}, "
        f"else {whole}.",
    }
    model.setdefault("allOf", []).append(
        {
            "if": {"properties": {field: {"const": value}}, "required": [field]},
            "then": {"properties": {"answers": {"$ref": f"#/components/schemas/{draft}"}}},
            "else": {"properties": {"answers": {"$ref": f"#/components/schemas/{whole}"}}},
        }
    )


def reference_engine_schema(node: Any) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, dict) and ANSWERS_MARKER in value:
                ref = {"$ref": f"#/components/schemas/{value[ANSWERS_MARKER]}"}
                node[key] = {**ref, **{k: v for k, v in value.items() if k == "description"}}
            else:
                reference_engine_schema(value)
    elif isinstance(node, list):
        for item in node:
            reference_engine_schema(item)
