"""The API's request and response models. The answers document is the engine's JSON Schema,
referenced from the OpenAPI document (docs.reference_engine_schema) rather than restated."""

# No `from __future__ import annotations` here: django-ninja reads the operations' annotations
# at runtime, and @paginate's wrapper resolves string annotations in ninja's own module.
from datetime import datetime
from typing import Annotated, Any, Literal

from django.core.exceptions import ValidationError as DjangoValidationError
from ninja import Field, Schema
from ninja.pagination import PageNumberPagination
from pydantic import AfterValidator, ConfigDict, StrictBool, StringConstraints, WithJsonSchema
from pydantic_core import PydanticCustomError

from accounts.validators import validate_plain_name
from advisor.decisions import languages
from advisor.engine.answers.upgrade import upgrade_answers
from advisor.engine.answers.vocabulary import MAX_PROBLEMS
from advisor.engine.result.document import ResultDocument
from advisor.models import Assessment
from advisor.services import assessments

ANSWERS_SCHEMA_NAME = "AnswersV3"
ANSWERS_DRAFT_SCHEMA_NAME = "AnswersV3Draft"
# Still accepted on create (read as version 3 and stored so); never answered.
ANSWERS_V2_SCHEMA_NAME = "AnswersV2"
ANSWERS_V2_DRAFT_SCHEMA_NAME = "AnswersV2Draft"
ANSWERS_V1_SCHEMA_NAME = "AnswersV1"
ANSWERS_V1_DRAFT_SCHEMA_NAME = "AnswersV1Draft"
# What a create accepts: one of the versions, told apart by schema_version.
ANSWERS_IN_SCHEMA_NAME = "AnswersIn"
ANSWERS_DRAFT_IN_SCHEMA_NAME = "AnswersDraftIn"
SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"

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
    def resolve_answers(obj: Assessment) -> dict[str, Any]:
        # Stored answers are version 3 (migrations 0019 and 0022); an older one is read as such.
        return upgrade_answers(obj.answers)  # type: ignore[no-any-return]

    @staticmethod
    def resolve_result(obj: Assessment) -> ResultDocument | None:
        return assessments.assessment_result(assessment=obj, language=languages.engine_language())


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


# Every status an operation can answer is in the OpenAPI document, so that a client (and
# Schemathesis, tests/api/test_schemathesis.py) can hold the API to it. 405 is not among them: it
# answers a method that is no operation; 422 neither: validation errors are 400.
ERRORS = {400: ErrorOut, 401: ErrorOut, 404: ErrorOut, 429: ErrorOut}
