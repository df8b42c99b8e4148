"""The OpenAPI document is the whole contract: what Schemathesis found, one test each.

Each test reads the document a client reads (/api/v1/openapi.json, with a member's token) and
holds a request's answer to it: every status an operation answers is listed there, with the
headers it promises; the published answers schemas accept exactly the documents the API
accepts, the cross-field rules included, and the API still says what is wrong in its own words.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from accounts.models import Membership
from advisor.engine.answers.problems import Problem
from advisor.engine.answers.vocabulary import MODES, RESIDENCY, TRAINING_METHODS, WORKLOAD_KINDS
from advisor.models import Assessment
from tests.answers_versions import as_v1, as_v2
from tests.api.test_api import URL, VALID, Api, _body
from tests.factories import MembershipFactory, api_token_for

pytestmark = pytest.mark.django_db

OPENAPI = "/api/v1/openapi.json"
SPEC_URI = "urn:advisor:openapi"


@pytest.fixture
def member() -> Membership:
    return MembershipFactory()


@pytest.fixture
def api(client: Client, member: Membership) -> Api:
    return Api(client, api_token_for(member.user))


@pytest.fixture
def spec(api: Api) -> dict[str, Any]:
    response = api.get(OPENAPI)
    assert response.status_code == 200
    return response.json()  # type: ignore[no-any-return]


def _validator(spec: dict[str, Any], component: str, pointer: str = "") -> Draft202012Validator:
    """Validates against a component of the document, or what `pointer` points at in it."""
    registry: Registry[Any] = Registry().with_resource(
        SPEC_URI, Resource.from_contents(spec, default_specification=DRAFT202012)
    )
    target = pointer or f"components/schemas/{component}"
    return Draft202012Validator({"$ref": f"{SPEC_URI}#/{target}"}, registry=registry)


def _documented(spec: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    return spec["paths"][path][method]["responses"]  # type: ignore[no-any-return]


# --- Every status code and its headers -----------------------------------------------------------


def test_a_list_filtered_by_an_organisation_you_are_not_in_answers_a_documented_404(
    api: Api, spec: dict[str, Any]
) -> None:
    response = api.get(URL, organization="0")
    assert response.status_code == 404
    assert "404" in _documented(spec, "get", URL)


def _request(api: Api, anonymous: Api, status: int, method: str, path: str, created: int) -> Any:
    url = path.replace("{assessment_id}", str(created))
    client = anonymous if status == 401 else api
    if method == "post":
        if status == 415:
            return api.client.post(url, {"title": "form"}, headers=api.headers)
        bodies = {
            400: _body(title=""),
            404: _body(organization="not-mine"),
            413: _body(answers={"x": "y" * 1_100_000}),
        }
        return client.post(bodies.get(status, _body()))
    if status == 400:
        return api.get(url, page="0") if url == URL else api.get(f"{URL}/abc")
    if status == 404:
        return api.get(url, organization="0") if url == URL else api.get(f"{URL}/0")
    return client.get(url)


OPERATIONS = [
    ("post", URL, (201, 400, 401, 404, 413, 415, 429)),
    ("get", URL, (200, 400, 401, 404, 429)),
    ("get", f"{URL}/{{assessment_id}}", (200, 400, 401, 404, 429)),
    ("get", "/api/v1/schema/answers", (200, 401, 429)),
]


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [(method, path, status) for method, path, statuses in OPERATIONS for status in statuses],
)
def test_every_status_an_operation_answers_is_in_the_document_with_its_headers(
    api: Api,
    client: Client,
    spec: dict[str, Any],
    settings: Any,
    method: str,
    path: str,
    status: int,
) -> None:
    created = api.post(_body()).json()["id"]
    if status == 429:
        settings.API_RATE_LIMIT_READS = settings.API_RATE_LIMIT_WRITES = 0
    response = _request(api, Api(client, None), status, method, path, created)
    assert response.status_code == status, response.content
    documented = _documented(spec, method, path)
    assert str(status) in documented
    pointer = "/".join(
        part.replace("~", "~0").replace("/", "~1")
        for part in ("paths", path, method, "responses", str(status), "content")
    )
    errors = list(
        _validator(spec, "", f"{pointer}/application~1json/schema").iter_errors(response.json())
    )
    assert not errors, errors[0].message
    for header, rule in documented[str(status)].get("headers", {}).items():
        assert not rule["required"] or response.has_header(header), header
    if status == 429:
        assert "Retry-After" in documented["429"]["headers"]
    if status == 401:
        assert "WWW-Authenticate" in documented["401"]["headers"]


# --- The title -----------------------------------------------------------------------------------


def test_the_documents_title_bounds_hold_for_the_title_as_sent(
    api: Api, spec: dict[str, Any]
) -> None:
    # Surrounding spaces used to be stripped before the 200-character bound: the document
    # promised a refusal that never came.
    title = " " + "x" * 200
    schema = spec["components"]["schemas"]["AssessmentIn"]["properties"]["title"]
    assert len(title) > schema["maxLength"]
    response = api.post(_body(title=title))
    assert response.status_code == 400
    assert {(e["location"], e["path"], e["code"]) for e in response.json()["errors"]} == {
        ("body", "title", "string_too_long")
    }
    assert not Assessment.objects.exists()


@pytest.mark.parametrize("title", ["   ", "\u3000", "\t\n"])
def test_a_title_of_spaces_breaks_the_documents_pattern_and_is_refused(
    api: Api, spec: dict[str, Any], title: str
) -> None:
    assert not _validator(spec, "AssessmentIn").is_valid(_body(title=title))
    response = api.post(_body(title=title))
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["path"], error["message"]) == ("title", "This field may not be empty.")


def test_a_title_is_stored_without_its_surrounding_spaces(api: Api) -> None:
    response = api.post(_body(title="  Fine-tune Llama \u3000"))
    assert response.status_code == 201
    assert response.json()["title"] == "Fine-tune Llama"


# --- The answers schemas -------------------------------------------------------------------------


def _answers(**sections: Any) -> dict[str, Any]:
    answers = copy.deepcopy(VALID)
    for name, value in sections.items():
        if value is None:
            answers.pop(name, None)
        else:
            answers[name] = value
    return answers


def _with(section: str, **fields: Any) -> dict[str, Any]:
    value = {**copy.deepcopy(VALID[section]), **fields}
    return {k: v for k, v in value.items() if v is not None}


TRAINING_ONLY = [{"kind": "fine_tuning", "schedule": "weekly"}]
INFERENCE_ONLY = [{"kind": "realtime_inference", "schedule": "continuous"}]

# Each rule that used to be checked in code only, with a document that breaks it and what the API
# says about it (path and code, unchanged).
CROSS_FIELD_RULES = [
    pytest.param(
        _answers(workloads=TRAINING_ONLY, training=None),
        ("training", "section_required"),
        id="training-for-fine-tuning",
    ),
    pytest.param(
        _answers(workloads=[{"kind": "pretraining", "schedule": "daily"}], training=None),
        ("training", "section_required"),
        id="training-for-pretraining",
    ),
    pytest.param(
        _answers(workloads=INFERENCE_ONLY, inference=None),
        ("inference", "section_required"),
        id="inference-for-realtime",
    ),
    pytest.param(
        _answers(workloads=TRAINING_ONLY, model=None),
        ("model", "model_required"),
        id="model-for-training",
    ),
    pytest.param(
        _answers(workloads=INFERENCE_ONLY, model=None),
        ("model", "model_required"),
        id="model-for-inference",
    ),
    pytest.param(
        _answers(training=_with("training", method="qlora", lora_rank=None)),
        ("training.lora_rank", "lora_rank_required"),
        id="lora-rank-for-qlora",
    ),
    pytest.param(
        _answers(workloads=[*TRAINING_ONLY, {"kind": "fine_tuning", "schedule": "daily"}]),
        ("workloads[1].kind", "duplicate_workload"),
        id="unique-kinds",
    ),
    pytest.param(
        _answers(deployment=_with("deployment", data_residency="on_premises_only")),
        ("deployment.data_residency", "residency_needs_on_premises"),
        id="residency-on-premises",
    ),
]


@pytest.mark.parametrize(("answers", "problem"), CROSS_FIELD_RULES)
def test_the_published_schema_refuses_what_the_api_refuses_in_the_apis_words(
    api: Api, spec: dict[str, Any], answers: dict[str, Any], problem: tuple[str, str]
) -> None:
    assert _validator(spec, "AnswersV3").is_valid(VALID)
    assert not _validator(spec, "AnswersV3").is_valid(answers)
    assert not _validator(spec, "AssessmentIn").is_valid(_body(answers=answers))
    response = api.post(_body(answers=answers))
    assert response.status_code == 400
    errors = response.json()["errors"]
    # The engine's own problem, not the schema's generic "required" or "contains".
    assert [(e["path"], e["code"]) for e in errors] == [problem]
    assert errors[0]["message"] == Problem(*problem, errors[0]["params"]).message("en")


def test_a_draft_meets_the_published_draft_schema_and_reads_back_as_one(
    api: Api, spec: dict[str, Any]
) -> None:
    answers = {"schema_version": 3, "workloads": TRAINING_ONLY}
    assert _validator(spec, "AnswersV3Draft").is_valid(answers)
    assert not _validator(spec, "AnswersV3").is_valid(answers)
    body = _body(answers=answers, draft=True)
    assert _validator(spec, "AssessmentIn").is_valid(body)
    response = api.post(body)
    assert response.status_code == 201, response.content
    errors = list(_validator(spec, "AssessmentOut").iter_errors(response.json()))
    assert not errors, errors[0].message
    read = api.get(f"{URL}/{response.json()['id']}")
    assert _validator(spec, "AssessmentOut").is_valid(read.json())


def test_a_draft_with_a_wrong_value_breaks_the_draft_schema_and_is_refused(
    api: Api, spec: dict[str, Any]
) -> None:
    body = _body(answers={"schema_version": 3, "training": {"micro_batch_size": 0}}, draft=True)
    assert not _validator(spec, "AssessmentIn").is_valid(body)
    assert api.post(body).status_code == 400


@st.composite
def documents(draw: st.DrawFn) -> tuple[dict[str, Any], bool]:
    """Documents that vary exactly what the conditional rules look at, all else valid."""
    kinds = draw(st.lists(st.sampled_from(WORKLOAD_KINDS), min_size=1, max_size=5))
    method = draw(st.sampled_from(TRAINING_METHODS))
    rank = draw(st.sampled_from([None, 8]))
    answers = _answers(
        workloads=[{"kind": kind, "schedule": "daily"} for kind in kinds],
        model=draw(st.sampled_from([None, VALID["model"]])),
        training=draw(st.sampled_from([None, _with("training", method=method, lora_rank=rank)])),
        inference=draw(st.sampled_from([None, VALID["inference"]])),
        deployment=_with(
            "deployment",
            data_residency=draw(st.sampled_from(RESIDENCY)),
            allowed_modes=draw(st.lists(st.sampled_from(MODES), min_size=1, unique=True)),
        ),
    )
    return answers, draw(st.booleans())


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(document=documents())
def test_the_api_accepts_exactly_what_the_published_schema_accepts(
    api: Api, spec: dict[str, Any], unthrottled: None, document: tuple[dict[str, Any], bool]
) -> None:
    answers, draft = document
    body = _body(answers=answers, draft=draft)
    valid = _validator(spec, "AssessmentIn").is_valid(body)
    response = api.post(body)
    assert response.status_code == (201 if valid else 400), response.content


@pytest.fixture
def unthrottled(settings: Any) -> None:
    settings.API_RATE_LIMIT_READS = settings.API_RATE_LIMIT_WRITES = 10**9
    settings.REPORT_REQUESTS_PER_USER = settings.REPORT_REQUESTS_PER_ORGANIZATION = 10**9


def test_a_title_with_a_nul_character_breaks_the_document_and_is_refused(
    api: Api, spec: dict[str, Any]
) -> None:
    # Found by Schemathesis (seed 7): the document allowed any text, the parser refuses NUL.
    body = _body(title="Llama\x00")
    assert not _validator(spec, "AssessmentIn").is_valid(body)
    assert api.post(body).status_code == 400
    assert not Assessment.objects.exists()


# --- Answers versions: what the schema says a create accepts, the API accepts -------------------


@pytest.mark.parametrize(
    "answers",
    [
        pytest.param(as_v1(VALID), id="whole-v1"),
        # Only schema_version says 1: a document without an inference section is the same in
        # both versions but for it, and is judged by version 1's schema.
        pytest.param(
            {**_answers(workloads=TRAINING_ONLY, inference=None), "schema_version": 1},
            id="v1-without-inference",
        ),
    ],
)
def test_a_version_1_document_valid_by_the_published_schema_is_accepted_and_returned_as_version_3(
    api: Api, spec: dict[str, Any], answers: dict[str, Any]
) -> None:
    assert _validator(spec, "AnswersV1").is_valid(answers)
    assert not _validator(spec, "AnswersV3").is_valid(answers)
    body = _body(answers=answers)
    errors = list(_validator(spec, "AssessmentIn").iter_errors(body))
    assert not errors, errors[0].message
    response = api.post(body)
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["answers"]["schema_version"] == 3
    assert "context_tokens" not in created["answers"].get("inference", {})
    assert _validator(spec, "AnswersV3").is_valid(created["answers"])
    errors = list(_validator(spec, "AssessmentOut").iter_errors(created))
    assert not errors, errors[0].message
    assert Assessment.objects.get(pk=created["id"]).answers == created["answers"]


def test_a_version_1_draft_meets_the_published_draft_schema_and_reads_back_as_version_3(
    api: Api, spec: dict[str, Any]
) -> None:
    answers = {"schema_version": 1, "inference": {"context_tokens": 4096, "output_tokens": 512}}
    assert _validator(spec, "AnswersV1Draft").is_valid(answers)
    assert not _validator(spec, "AnswersV3Draft").is_valid(answers)
    body = _body(answers=answers, draft=True)
    assert _validator(spec, "AssessmentIn").is_valid(body)
    response = api.post(body)
    assert response.status_code == 201, response.content
    assert response.json()["answers"] == {
        "schema_version": 3,
        "inference": {"prompt_tokens": 3584, "output_tokens": 512},
    }
    assert _validator(spec, "AssessmentOut").is_valid(response.json())


@pytest.mark.parametrize("draft", [False, True])
def test_a_version_1_output_over_its_context_is_the_rule_the_schema_cannot_state_and_is_400(
    api: Api, spec: dict[str, Any], draft: bool
) -> None:
    v1 = as_v1(VALID)
    v1["inference"]["output_tokens"] = 9000
    answers = v1 if not draft else {"schema_version": 1, "inference": v1["inference"]}
    body = _body(answers=answers, draft=draft)
    # Valid by the schema (its description states the rule; the Schemathesis hook holds it back).
    assert _validator(spec, "AssessmentIn").is_valid(body)
    response = api.post(body)
    assert response.status_code == 400, response.content
    [error] = response.json()["errors"]
    assert (error["location"], error["path"], error["code"]) == (
        "answers",
        "inference.output_tokens",
        "output_exceeds_context",
    )
    assert not Assessment.objects.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "The schema version must be 3 (or 2 or 1, still accepted and read as 3), not {value}",
        ),
        ("zh-Hant", "結構描述版本必須是 3（仍接受 2 或 1，並當作 3 讀取），而不是 {value}"),
    ],
)
@pytest.mark.parametrize("version", [4, 0])
@pytest.mark.parametrize("draft", [False, True])
def test_a_schema_version_that_is_neither_is_400_naming_schema_version(
    client: Client,
    member: Membership,
    spec: dict[str, Any],
    language: str,
    words: str,
    version: int,
    draft: bool,
) -> None:
    answers = {**as_v1(VALID), "schema_version": version}
    if draft:
        answers = {"schema_version": version, "workloads": TRAINING_ONLY}
    body = _body(answers=answers, draft=draft)
    assert not _validator(spec, "AssessmentIn").is_valid(body)
    response = Api(client, api_token_for(member.user), language).post(body)
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert (errors[0]["location"], errors[0]["path"], errors[0]["code"]) == (
        "answers",
        "schema_version",
        "schema_version",
    )
    assert errors[0]["message"] == words.format(value=version)
    assert not Assessment.objects.exists()


# --- Answers version 3: the custom architecture has no rule the schema cannot state ---------

# Schemathesis's stateful phase (seed 20261130) sent this architecture as version 2: valid by
# AnswersV2, refused with heads_divide_hidden and kv_heads_divide.
FOUND_V2 = {
    "parameters": 1_000_000,
    "layers": 1,
    "hidden_size": 196,
    "intermediate_size": 64,
    "attention_heads": 181,
    "kv_heads": 635,
    "vocab_size": 1,
    "tied_embeddings": False,
}
# Its nearest version 3 form: the heads are 635 KV heads of one query head each, the head size
# is stated (the least the schema allows), and nothing has to divide anything.
FOUND_V3 = {
    **{k: v for k, v in FOUND_V2.items() if k != "attention_heads"},
    "kv_group_size": 1,
    "head_dim": 8,
}


def test_the_create_schemathesis_found_refused_is_accepted_in_version_3_terms(
    api: Api, spec: dict[str, Any]
) -> None:
    v2 = {**as_v2(VALID), "model": {"architecture": FOUND_V2}}
    body = _body(answers=v2)
    assert _validator(spec, "AnswersV2").is_valid(v2)
    assert _validator(spec, "AssessmentIn").is_valid(body)
    response = api.post(body)
    assert response.status_code == 400, response.content
    assert {(e["path"], e["code"]) for e in response.json()["errors"]} == {
        ("model.architecture.hidden_size", "heads_divide_hidden"),
        ("model.architecture.kv_heads", "kv_heads_divide"),
    }
    assert not Assessment.objects.exists()
    v3 = {**VALID, "model": {"architecture": FOUND_V3}}
    body = _body(answers=v3)
    assert _validator(spec, "AnswersV3").is_valid(v3)
    assert _validator(spec, "AssessmentIn").is_valid(body)
    response = api.post(body)
    assert response.status_code == 201, response.content
    assert response.json()["answers"] == v3


def test_a_version_2_architecture_is_accepted_and_returned_as_version_3(
    api: Api, spec: dict[str, Any]
) -> None:
    mixtral_v3 = {
        "parameters": 46_702_792_704,
        "layers": 32,
        "hidden_size": 4096,
        "intermediate_size": 14336,
        "kv_heads": 8,
        "kv_group_size": 4,
        "head_dim": 128,
        "vocab_size": 32000,
        "tied_embeddings": False,
        "experts_per_token": 2,
        "inactive_experts": 6,
        "active_parameter_share": 12_879_925_248 / 46_702_792_704,
    }
    v3 = {**VALID, "model": {"architecture": mixtral_v3}}
    v2 = as_v2(v3)
    assert v2["model"]["architecture"]["attention_heads"] == 32
    assert v2["model"]["architecture"]["experts"] == 8
    assert v2["model"]["architecture"]["active_parameters"] == 12_879_925_248
    assert _validator(spec, "AnswersV2").is_valid(v2)
    assert not _validator(spec, "AnswersV3").is_valid(v2)
    created = api.post(_body(answers=v2)).json()
    assert created["answers"] == v3
    assert _validator(spec, "AnswersV3").is_valid(created["answers"])
    assert created["result"] == api.post(_body(answers=v3)).json()["result"]
