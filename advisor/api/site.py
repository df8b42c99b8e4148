"""The API itself (`/api/v1/`, mounted by advisor.urls): its operations come from
`assessments` and `docs`, its errors from `errors`."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, re_path
from ninja import NinjaAPI
from ninja.openapi.schema import OpenAPISchema
from ninja.operation import Operation
from ninja.types import DictStrAny

from advisor.api import assessments, docs, errors
from advisor.api.auth import BearerToken
from advisor.api.parsing import JSONParser
from advisor.api.schemas import (
    ANSWERS_DRAFT_IN_SCHEMA_NAME,
    ANSWERS_DRAFT_SCHEMA_NAME,
    ANSWERS_IN_SCHEMA_NAME,
    ANSWERS_SCHEMA_NAME,
)


class AdvisorAPI(NinjaAPI):
    def get_openapi_schema(
        self, *, path_prefix: str | None = None, path_params: DictStrAny | None = None
    ) -> OpenAPISchema:
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        docs.reference_engine_schema(schema)
        docs.document_headers(schema)
        schemas = schema.setdefault("components", {}).setdefault("schemas", {})
        schemas.update(docs.answers_components())
        # A create's answers meet one version's draft schema when it is a draft, else one
        # version's whole schema; what is answered is always version 3.
        docs.answers_follow(
            schemas.get("AssessmentIn"),
            "draft",
            True,
            ANSWERS_DRAFT_IN_SCHEMA_NAME,
            ANSWERS_IN_SCHEMA_NAME,
        )
        docs.answers_follow(
            schemas.get("AssessmentOut"),
            "status",
            "draft",
            ANSWERS_DRAFT_SCHEMA_NAME,
            ANSWERS_SCHEMA_NAME,
        )
        return schema

    def _get_urls(self) -> list[URLResolver | URLPattern]:
        urls = super()._get_urls()
        for url in urls:
            if isinstance(url, URLPattern):
                url.callback = errors.json_errors(url.callback)
        # Any other path under the API is a JSON 404 too, not Django's HTML page.
        urls.append(re_path(r"^.+$", errors.unknown_path, name="unknown"))
        return urls

    def get_openapi_operation_id(self, operation: Operation) -> str:
        # The ids published before the API became a package (advisor.api.<operation>).
        return f"advisor_api_{operation.view_func.__name__}"


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
    docs_decorator=docs.docs_access,
)
errors.install(api)
api.add_router("", assessments.router)
api.add_router("", docs.router)
