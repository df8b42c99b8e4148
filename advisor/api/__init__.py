"""The JSON API (`/api/v1/`): assessments from answers documents, read back with their result.

Each person authenticates with their own key (`accounts.ApiToken`, `Authorization: Bearer`).
The engine's JSON Schema is the only description of the answers document: the request and
response models take `answers` as a plain object, the engine validates it, and the OpenAPI
description references the engine's schemas (`components.schemas.AnswersV3`, and
`AnswersV3Draft` for drafts; `AnswersV2` and `AnswersV1`, still accepted on create and stored
as version 3, are published beside them) instead of copying their rules into pydantic models.
The document is the whole contract, held to it by Schemathesis (tests/api/test_schemathesis.py):
every status an operation answers is listed, with the headers that come with it.

Every error is JSON, `{"detail": "...", "errors": [{"location", "path", "code", "message"}],
"omitted": 0}`, in the request's language; `path` is the engine's own path for problems in
`answers`. At most 50 problems are listed and `omitted` counts the rest, so that an answer never
grows with the request. Each token has a budget of reads and one of writes per minute
(settings.API_RATE_LIMIT_*); past it the API answers 429 with Retry-After, as it does to a
client address past its budget of invalid tokens (settings.API_INVALID_TOKENS_*).
"""
