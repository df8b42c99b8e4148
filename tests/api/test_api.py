from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client, override_settings
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from accounts.models import Membership
from accounts.services import api_token_revoke
from advisor.engine import answers_schema, check_partial, parse_answers
from advisor.engine.answers.schema import answers_draft_schema
from advisor.models import Assessment
from advisor.starters import STARTERS
from tests.answers_versions import as_v1
from tests.factories import AssessmentFactory, MembershipFactory, OrganizationFactory, api_token_for

pytestmark = pytest.mark.django_db

URL = "/api/v1/assessments"
VALID = STARTERS[0].answers


class Api:
    """The test client speaking JSON with a bearer token, as an API client would."""

    def __init__(self, client: Client, key: str | None, language: str = "en") -> None:
        self.client = client
        self.headers = {"Accept-Language": language}
        if key is not None:
            self.headers["Authorization"] = f"Bearer {key}"

    def post(self, body: Any, path: str = URL) -> Any:
        data = body if isinstance(body, str | bytes) else json.dumps(body)
        return self.client.post(path, data, content_type="application/json", headers=self.headers)

    def get(self, path: str, **params: Any) -> Any:
        return self.client.get(path, params, headers=self.headers)


@pytest.fixture
def member() -> Membership:
    return MembershipFactory()


@pytest.fixture
def api(client: Client, member: Membership) -> Api:
    return Api(client, api_token_for(member.user))


def _body(**overrides: Any) -> dict[str, Any]:
    return {"title": "Fine-tune Llama", "answers": copy.deepcopy(VALID), **overrides}


def _answers_with(path: list[str | int], value: Any) -> dict[str, Any]:
    answers = copy.deepcopy(VALID)
    node: Any = answers
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return answers


def _paths(response: Any) -> set[tuple[str, str]]:
    return {(e["location"], e["path"]) for e in response.json()["errors"]}


# --- Create, read, list ------------------------------------------------------------------------


def test_creates_a_submitted_assessment_with_its_result(api: Api, member: Membership) -> None:
    response = api.post(_body())
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["status"] == "submitted"
    assert data["organization"] == member.organization.slug
    assert data["answers"] == VALID
    assert data["result"]["recommendation"]
    stored = Assessment.objects.get(pk=data["id"])
    assert stored.created_by == member.user
    # One engine run, in the request's language; another language is added when first read.
    assert stored.result is not None and set(stored.result) == {"en"}


def test_creates_a_draft_without_a_result(api: Api) -> None:
    answers = {"schema_version": 3, "training": {"micro_batch_size": 8}}
    response = api.post(_body(answers=answers, draft=True))
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "draft"
    assert response.json()["result"] is None
    assert Assessment.objects.get().answers == answers


def test_reads_an_assessment_back_with_its_result(api: Api) -> None:
    created = api.post(_body()).json()
    response = api.get(f"{URL}/{created['id']}")
    assert response.status_code == 200
    assert response.json() == created


def test_result_follows_the_request_language(client: Client, member: Membership) -> None:
    key = api_token_for(member.user)
    created = Api(client, key).post(_body()).json()
    chinese = Api(client, key, "zh-TW").get(f"{URL}/{created['id']}").json()
    stored = Assessment.objects.get(pk=created["id"]).result
    assert stored is not None
    assert chinese["result"] == stored["zh-hant"]
    assert created["result"] == stored["en"]


def test_lists_the_organisations_assessments_newest_first_without_bodies(
    api: Api, member: Membership
) -> None:
    first = api.post(_body(title="First")).json()
    second = api.post(_body(title="Second", answers={"schema_version": 2}, draft=True)).json()
    other = MembershipFactory()
    AssessmentFactory(organization=other.organization, title="Not mine", answers={})

    response = api.get(URL)
    assert response.status_code == 200
    data = response.json()
    assert data["count"] == 2
    assert [item["id"] for item in data["items"]] == [second["id"], first["id"]]
    assert "answers" not in data["items"][0] and "result" not in data["items"][0]

    drafts = api.get(URL, status="draft").json()
    assert [item["title"] for item in drafts["items"]] == ["Second"]


def test_list_is_paginated(api: Api, member: Membership) -> None:
    Assessment.objects.bulk_create(
        Assessment(organization=member.organization, title=f"A{i}", answers={}) for i in range(25)
    )
    page_one = api.get(URL).json()
    assert page_one["count"] == 25 and len(page_one["items"]) == 20
    assert len(api.get(URL, page=2).json()["items"]) == 5
    assert len(api.get(URL, page_size=100).json()["items"]) == 25
    assert api.get(URL, page_size=101).status_code == 400


def test_list_filters_by_organisation(client: Client, member: Membership) -> None:
    second = MembershipFactory(user=member.user).organization
    AssessmentFactory(organization=member.organization, title="Home", answers={})
    AssessmentFactory(organization=second, title="Customer", answers={})
    api = Api(client, api_token_for(member.user))
    assert api.get(URL).json()["count"] == 2
    items = api.get(URL, organization=second.slug).json()["items"]
    assert [item["title"] for item in items] == ["Customer"]


def test_creates_in_a_named_organisation(client: Client, member: Membership) -> None:
    second = MembershipFactory(user=member.user).organization
    api = Api(client, api_token_for(member.user))
    response = api.post(_body(organization=second.slug))
    assert response.status_code == 201
    assert Assessment.objects.get().organization == second


def test_serves_the_engines_answers_schema(api: Api) -> None:
    response = api.get("/api/v1/schema/answers")
    assert response.status_code == 200
    assert response.json() == answers_schema()


def test_post_needs_no_csrf_token(member: Membership) -> None:
    client = Client(enforce_csrf_checks=True)
    response = Api(client, api_token_for(member.user)).post(_body())
    assert response.status_code == 201


# --- Authentication ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer", "Bearer not-a-key", "Basic dXNlcjpwYXNz", "Bearer " + "x" * 5000],
)
def test_refuses_requests_without_a_valid_token(client: Client, authorization: str | None) -> None:
    headers = {"Authorization": authorization} if authorization else {}
    for response in (
        client.get(URL, headers=headers),
        client.post(URL, "{}", content_type="application/json", headers=headers),
        client.get(f"{URL}/1", headers=headers),
        client.get("/api/v1/schema/answers", headers=headers),
    ):
        assert response.status_code == 401
        assert response["Content-Type"].startswith("application/json")
        assert "Bearer" in response.json()["detail"]
        assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_revoked_token_stops_working(client: Client, member: Membership) -> None:
    from accounts.models import ApiToken

    key = api_token_for(member.user)
    api = Api(client, key)
    assert api.get(URL).status_code == 200
    api_token_revoke(token=ApiToken.objects.get(user=member.user))
    assert api.get(URL).status_code == 401


def test_a_deactivated_users_token_stops_working(api: Api, member: Membership) -> None:
    member.user.is_active = False
    member.user.save()
    assert api.get(URL).status_code == 401


def test_records_when_a_token_was_last_used(api: Api, member: Membership) -> None:
    token = member.user.api_tokens.get()
    assert token.last_used_at is None
    api.get(URL)
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_a_session_login_is_not_enough(client: Client, member: Membership) -> None:
    client.force_login(member.user)
    assert client.get(URL).status_code == 401


# --- Organisation isolation --------------------------------------------------------------------


def test_another_organisations_assessment_is_404(api: Api) -> None:
    other = MembershipFactory()
    theirs = AssessmentFactory(organization=other.organization, title="X", answers={})
    missing = api.get(f"{URL}/{theirs.pk}")
    assert missing.status_code == 404
    assert missing.json() == api.get(f"{URL}/{theirs.pk + 1000}").json()


@pytest.mark.parametrize("assessment_id", ["0", "-1", "99999999999999999999", "abc", "1.5"])
def test_odd_assessment_ids_are_404_or_400(api: Api, assessment_id: str) -> None:
    response = api.get(f"{URL}/{assessment_id}")
    assert response.status_code in (400, 404)
    assert response.json()["detail"]


def test_cannot_create_in_or_list_another_organisation(api: Api) -> None:
    stranger = OrganizationFactory()
    created = api.post(_body(organization=stranger.slug))
    assert created.status_code == 404
    assert api.post(_body(organization="no-such-org")).json() == created.json()
    assert api.get(URL, organization=stranger.slug).status_code == 404
    assert not Assessment.objects.exists()


def test_a_user_without_an_organisation_gets_a_clear_400(client: Client) -> None:
    from tests.factories import UserFactory

    api = Api(client, api_token_for(UserFactory()))
    response = api.post(_body())
    assert response.status_code == 400
    assert ("body", "organization") in _paths(response)


# --- Bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value", "error_path"),
    [
        (["training", "micro_batch_size"], "four", "training.micro_batch_size"),
        (["training", "micro_batch_size"], -3, "training.micro_batch_size"),
        (["inference", "prompt_tokens"], 10**9, "inference.prompt_tokens"),
        (["workloads", 0, "kind"], "mining", "workloads[0].kind"),
        (
            ["deployment", "data_residency"],
            "<script>alert(1)</script>",
            "deployment.data_residency",
        ),
        (["model"], {"architecture": {"parameters": 10**15}}, "model.architecture.parameters"),
    ],
)
def test_invalid_answers_are_400_at_the_engines_path(
    api: Api, path: list[str | int], value: Any, error_path: str
) -> None:
    response = api.post(_body(answers=_answers_with(path, value)))
    assert response.status_code == 400, response.content
    assert ("answers", error_path) in _paths(response)
    assert not Assessment.objects.exists()


def test_an_incomplete_document_is_400_unless_it_is_a_draft(api: Api) -> None:
    answers = copy.deepcopy(VALID)
    del answers["cost"]
    response = api.post(_body(answers=answers))
    assert response.status_code == 400
    assert ("answers", "cost") in _paths(response)
    assert api.post(_body(answers=answers, draft=True)).status_code == 201


def test_a_draft_may_not_hold_wrong_values(api: Api) -> None:
    answers = {"schema_version": 2, "training": {"micro_batch_size": "many"}}
    response = api.post(_body(answers=answers, draft=True))
    assert response.status_code == 400
    assert ("answers", "training.micro_batch_size") in _paths(response)


def test_errors_are_in_the_request_language(client: Client, member: Membership) -> None:
    api = Api(client, api_token_for(member.user), "zh-Hant")
    response = api.post(_body(answers=_answers_with(["training", "micro_batch_size"], -3)))
    assert response.status_code == 400
    data = response.json()
    assert data["detail"] == "答案文件無效。"
    assert data["errors"][0]["message"].startswith("micro-batch 大小不得小於 1 個序列")
    missing = api.post({"answers": {}})
    assert missing.json()["errors"][0]["message"] == "此欄位為必填。"


@pytest.mark.parametrize(
    ("body", "error_path"),
    [
        ({"answers": VALID}, "title"),
        (_body(title=""), "title"),
        (_body(title="   "), "title"),
        (_body(title="x" * 201), "title"),
        (_body(title=42), "title"),
        (_body(title=None), "title"),
        (_body(draft="yes"), "draft"),
        (_body(draft=1), "draft"),
        (_body(answers="everything"), "answers"),
        (_body(answers=[1, 2]), "answers"),
        (_body(organization=7), "organization"),
        (_body(organization="../admin"), "organization"),
        (_body(unexpected=True), "unexpected"),
        ({"title": "No answers"}, "answers"),
    ],
)
def test_wrong_envelope_types_are_400_with_a_path(api: Api, body: Any, error_path: str) -> None:
    response = api.post(body)
    assert response.status_code == 400, response.content
    assert ("body", error_path) in _paths(response)
    assert all(e["message"] for e in response.json()["errors"])


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "not json",
        "[1, 2, 3]",
        '"a string"',
        "null",
        '{"title": "NaN", "answers": {"x": NaN}}',
        '{"title": "big", "answers": {"x": 1e999}}',
        '{"title": "nul\\u0000", "answers": {}}',
        '{"title": "surrogate \\ud800", "answers": {}}',
        '{"title": "deep", "answers": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"title": "digits", "answers": {"x": ' + "9" * 5000 + "}}",
        b"\xff\xfe not utf-8",
    ],
)
def test_malformed_bodies_are_400(api: Api, raw: str | bytes) -> None:
    response = api.post(raw)
    assert response.status_code == 400, response.content
    assert response.json()["detail"]
    assert not Assessment.objects.exists()


def test_a_body_over_one_megabyte_is_413(api: Api) -> None:
    body = _body(title="Big")
    body["answers"]["padding"] = "x" * (1024 * 1024)
    response = api.post(body)
    assert response.status_code == 413
    assert "1 MB" in response.json()["detail"]
    huge = api.post(b"{" + b" " * (3 * 1024 * 1024) + b"}")
    assert huge.status_code == 413


def test_html_in_the_title_is_stored_as_text(api: Api) -> None:
    title = "<script>alert('x')</script> & <b>co</b>"
    response = api.post(_body(title=title))
    assert response.status_code == 201
    assert response.json()["title"] == title
    assert response["Content-Type"].startswith("application/json")


@pytest.mark.parametrize(
    "params",
    [
        {"status": "archived"},
        {"page": "0"},
        {"page": "two"},
        {"page": "9" * 30},
        {"page_size": "-1"},
        {"organization": "<b>"},
    ],
)
def test_bad_list_parameters_are_400(api: Api, params: dict[str, str]) -> None:
    response = api.get(URL, **params)
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["location"] == "query"


# --- OpenAPI -----------------------------------------------------------------------------------


def test_openapi_description_references_the_engines_schema(api: Api) -> None:
    response = api.get("/api/v1/openapi.json")
    assert response.status_code == 200
    spec = response.json()
    assert set(spec["paths"]) == {
        "/api/v1/assessments",
        "/api/v1/assessments/{assessment_id}",
        "/api/v1/schema/answers",
    }
    assert set(spec["paths"]["/api/v1/assessments"]) == {"get", "post"}
    schemas = spec["components"]["schemas"]
    assert schemas["AnswersV3"] == answers_schema()
    assert schemas["AnswersV3Draft"] == answers_draft_schema()
    # A draft's answers meet a draft schema, a submitted document's a whole one: on create any
    # version's, on reading version 3's.
    for name, field, value, draft, whole in (
        ("AssessmentIn", "draft", True, "AnswersDraftIn", "AnswersIn"),
        ("AssessmentOut", "status", "draft", "AnswersV3Draft", "AnswersV3"),
    ):
        [rule] = schemas[name]["allOf"]
        assert rule["if"]["properties"][field] == {"const": value}
        assert rule["then"]["properties"]["answers"] == {"$ref": f"#/components/schemas/{draft}"}
        assert rule["else"]["properties"]["answers"] == {"$ref": f"#/components/schemas/{whole}"}
    assert spec["components"]["securitySchemes"]["BearerToken"]["scheme"] == "bearer"


def test_openapi_lists_answers_v3_and_still_documents_v2_and_v1_as_accepted(api: Api) -> None:
    schemas = api.get("/api/v1/openapi.json").json()["components"]["schemas"]
    inference = schemas["AnswersV3"]["properties"]["inference"]
    assert {"prompt_tokens", "output_tokens"} <= set(inference["required"])
    assert "context_tokens" not in inference["properties"]
    assert schemas["AnswersV3"]["properties"]["schema_version"]["const"] == 3
    architecture = schemas["AnswersV3"]["properties"]["model"]["properties"]["architecture"]
    assert {"kv_heads", "kv_group_size", "head_dim"} <= set(architecture["required"])
    assert "attention_heads" not in architecture["properties"]
    # Versions 2 and 1 are published as they were, and a create's answers are one of the three
    # versions (the draft's likewise), told apart by schema_version, with how the older are read.
    assert schemas["AnswersV2"] == answers_schema(2)
    assert schemas["AnswersV2Draft"] == answers_draft_schema(2)
    assert schemas["AnswersV1"] == answers_schema(1)
    assert schemas["AnswersV1Draft"] == answers_draft_schema(1)
    assert "context_tokens" in schemas["AnswersV1"]["properties"]["inference"]["required"]
    v2_architecture = schemas["AnswersV2"]["properties"]["model"]["properties"]["architecture"]
    assert "attention_heads" in v2_architecture["required"]
    for name, v3, v2, v1 in (
        ("AnswersIn", "AnswersV3", "AnswersV2", "AnswersV1"),
        ("AnswersDraftIn", "AnswersV3Draft", "AnswersV2Draft", "AnswersV1Draft"),
    ):
        assert schemas[name]["oneOf"] == [
            {"$ref": f"#/components/schemas/{v3}"},
            {"$ref": f"#/components/schemas/{v2}"},
            {"$ref": f"#/components/schemas/{v1}"},
        ]
        for code in ("output_exceeds_context", "kv_heads_divide", "heads_divide_hidden"):
            assert code in schemas[name]["description"]
    # A draft that states no version is read as version 3, so only version 3's draft takes it.
    assert "schema_version" not in schemas["AnswersV3Draft"].get("required", [])
    assert schemas["AnswersV2Draft"]["required"] == ["schema_version"]
    assert schemas["AnswersV1Draft"]["required"] == ["schema_version"]


def test_a_version_3_document_is_stored_as_sent(api: Api) -> None:
    assert VALID["schema_version"] == 3 and "prompt_tokens" in VALID["inference"]
    response = api.post(_body())
    assert response.status_code == 201, response.content
    assert Assessment.objects.get().answers == VALID == response.json()["answers"]


def test_a_version_1_document_is_accepted_and_stored_as_version_3(api: Api) -> None:
    v1 = as_v1(VALID)
    assert v1["inference"]["context_tokens"] == 4096 and v1["inference"]["output_tokens"] == 512
    response = api.post(_body(answers=v1))
    assert response.status_code == 201, response.content
    created = response.json()
    # Upgraded: the prompt is the context less the output, and the engine saw the same context.
    assert created["answers"] == VALID
    assert Assessment.objects.get(pk=created["id"]).answers == VALID
    assert created["result"] == api.post(_body()).json()["result"]
    draft = {"schema_version": 1, "inference": {"context_tokens": 4096, "output_tokens": 512}}
    response = api.post(_body(answers=draft, draft=True))
    assert response.status_code == 201, response.content
    assert Assessment.objects.get(pk=response.json()["id"]).answers == {
        "schema_version": 3,
        "inference": {"prompt_tokens": 3584, "output_tokens": 512},
    }


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "The output tokens (9,000) cannot be more than the context tokens (4,096)"),
        ("zh-TW", "輸出 token 數（9,000）不得超過上下文 token 數（4,096）"),
    ],
)
@pytest.mark.parametrize("draft", [False, True])
def test_a_version_1_document_whose_output_exceeds_its_context_is_refused_at_the_output(
    client: Client, member: Membership, language: str, words: str, draft: bool
) -> None:
    v1 = as_v1(VALID)
    v1["inference"]["output_tokens"] = 9000
    response = Api(client, api_token_for(member.user), language).post(
        _body(answers=v1, draft=draft)
    )
    assert response.status_code == 400, response.content
    [error] = response.json()["errors"]
    assert (error["location"], error["path"], error["code"]) == (
        "answers",
        "inference.output_tokens",
        "output_exceeds_context",
    )
    assert words in error["message"]
    assert not Assessment.objects.exists()


def test_there_is_no_swagger_page(client: Client) -> None:
    assert client.get("/api/v1/docs").status_code == 404


# --- Stored documents stay valid ---------------------------------------------------------------


def assert_stored_documents_are_valid() -> None:
    for assessment in Assessment.objects.all():
        if assessment.is_draft:
            assert check_partial(assessment.answers) == [], assessment.answers
        else:
            parse_answers(assessment.answers)
            assert assessment.result is not None


# --- Hypothesis: random and hostile bodies -----------------------------------------------------

settings.register_profile(
    "api",
    # ~50 in CI keeps the suite quick; API_FUZZ_EXAMPLES=2000 for a longer local hunt.
    max_examples=int(os.environ.get("API_FUZZ_EXAMPLES", "50")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
FUZZ = settings.get_profile("api")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=25,
)


def _leaf_paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        items: list[tuple[Any, Any]] = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    else:
        return [prefix]
    paths = [prefix] if prefix else []
    for key, value in items:
        paths += _leaf_paths(value, (*prefix, key))
    return paths


@st.composite
def mutated_answers(draw: st.DrawFn) -> dict[str, Any]:
    """A valid document with a few values replaced or removed: hostile, but near enough to valid
    that the engine's deeper rules (and the result computation) get exercised."""
    answers = copy.deepcopy(VALID)
    for _ in range(draw(st.integers(0, 3))):
        path = draw(st.sampled_from(_leaf_paths(answers)))
        parent: Any = answers
        for part in path[:-1]:
            parent = parent[part]
        if draw(st.booleans()):
            parent[path[-1]] = draw(json_values)
        elif isinstance(parent, dict):
            del parent[path[-1]]
    return answers


well_formed = st.fixed_dictionaries(
    {
        "title": st.text(min_size=1, max_size=60).filter(str.strip),
        "answers": mutated_answers(),
        "draft": st.booleans(),
    }
)
hostile = st.fixed_dictionaries(
    {"title": st.text(max_size=210) | json_values, "answers": mutated_answers() | json_values},
    optional={
        "draft": st.booleans() | json_values,
        "organization": st.text(max_size=20) | json_values,
        "extra": json_values,
    },
)


@pytest.fixture
def unthrottled() -> Iterator[None]:
    # Hypothesis sends hundreds of requests with one token; the budget has its own tests.
    with override_settings(
        API_RATE_LIMIT_READS=10**9,
        API_RATE_LIMIT_WRITES=10**9,
        REPORT_REQUESTS_PER_USER=10**9,
        REPORT_REQUESTS_PER_ORGANIZATION=10**9,
    ):
        yield


@FUZZ
@given(body=well_formed | hostile | json_values)
def test_random_bodies_never_500_nor_store_an_invalid_document(
    api: Api, unthrottled: None, body: Any
) -> None:
    response = api.post(body)
    event(f"HTTP {response.status_code}")
    assert response.status_code < 500, response.content
    assert response["Content-Type"].startswith("application/json")
    if response.status_code == 201:
        assert response.json()["answers"] == body["answers"]
    assert_stored_documents_are_valid()


@FUZZ
@given(raw=st.binary(max_size=200) | st.text(max_size=200))
def test_random_bytes_never_500(api: Api, unthrottled: None, raw: bytes | str) -> None:
    response = api.post(raw)
    assert response.status_code < 500, response.content
    assert not Assessment.objects.exists()


@FUZZ
@given(
    params=st.dictionaries(
        st.sampled_from(["organization", "status", "page", "page_size", "other"]),
        st.text(max_size=40),
        max_size=4,
    ),
    assessment_id=st.text(max_size=30),
)
def test_random_queries_and_ids_never_500(
    api: Api, unthrottled: None, params: dict[str, str], assessment_id: str
) -> None:
    assert api.get(URL, **params).status_code < 500
    assert api.get(f"{URL}/{quote(assessment_id, safe='')}").status_code < 500


# --- China reach from the regions, ops headcount, problems in words


def test_answers_may_leave_china_reach_to_the_regions(api: Api) -> None:
    answers = copy.deepcopy(VALID)
    answers["organization"]["regions"] = ["hong_kong", "mainland_china"]
    answers["deployment"].pop("china_connectivity", None)
    response = api.post(_body(answers=answers))
    assert response.status_code == 201, response.content
    assert "china_connectivity" not in response.json()["answers"]["deployment"]
    assert parse_answers(response.json()["answers"]).deployment.china_connectivity is True


def test_a_stored_document_with_china_reach_stays_valid(api: Api) -> None:
    answers = _answers_with(["deployment", "china_connectivity"], True)
    response = api.post(_body(answers=answers))
    assert response.status_code == 201, response.content
    assert response.json()["answers"]["deployment"]["china_connectivity"] is True


def test_ops_headcount_and_region_price_the_staff_cost(api: Api) -> None:
    answers = copy.deepcopy(VALID)
    answers["cost"].update({"ops_headcount": 2, "ops_region": "tokyo"})
    response = api.post(_body(answers=answers))
    assert response.status_code == 201, response.content
    staff = response.json()["result"]["cost"]["staff"]
    assert staff["region"] == "tokyo" and staff["headcount"] == 2
    assert staff["wage_figure"] == "staff_hourly_wage_usd_tokyo"
    schema = api.get("/api/v1/schema/answers").json()["properties"]["cost"]["properties"]
    assert (schema["ops_headcount"]["minimum"], schema["ops_headcount"]["maximum"]) == (0, 10_000)
    assert "tokyo" in schema["ops_region"]["enum"]


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Operations headcount must be at most 10,000 people, not 20,000"),
        ("zh-Hant", "維運人數不得大於 10,000 人（收到 20,000）"),
    ],
)
def test_an_out_of_bounds_headcount_is_400_in_words(
    client: Client, member: Membership, language: str, message: str
) -> None:
    api = Api(client, api_token_for(member.user), language)
    response = api.post(_body(answers=_answers_with(["cost", "ops_headcount"], 20_000)))
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["path"], error["message"]) == ("cost.ops_headcount", message)


def test_a_customer_anywhere_in_japan_is_an_answer_the_api_and_its_schema_take(api: Api) -> None:
    answers = copy.deepcopy(VALID)
    answers["organization"]["regions"] = ["japan"]
    answers["deployment"]["data_residency"] = "in_region"
    response = api.post(_body(answers=answers))
    assert response.status_code == 201, response.content
    assert response.json()["answers"]["organization"]["regions"] == ["japan"]
    spec = api.get("/api/v1/openapi.json").json()["components"]["schemas"]
    regions = spec["AnswersV3"]["properties"]["organization"]["properties"]["regions"]
    assert "japan" in regions["items"]["enum"]


def test_an_sglang_team_is_an_answer_the_api_and_its_schema_take(api: Api) -> None:
    answers = _answers_with(["frameworks", "serving"], "sglang")
    response = api.post(_body(answers=answers))
    assert response.status_code == 201, response.content
    assert response.json()["answers"]["frameworks"]["serving"] == "sglang"
    serving = [
        run
        for w in response.json()["result"]["workloads"]
        for run in (w.get("pilot") or {}).get("runs", ())
        if run["kind"] == "serving"
    ]
    assert serving and all(r["stack"] == "sglang" for r in serving)
    assert all(
        r["commands"][0].startswith("python -m sglang.launch_server --model-path ")
        for r in serving
        if r["accelerator_id"].startswith(("nvidia-", "amd-"))
    )
    schema = api.get("/api/v1/schema/answers").json()["properties"]["frameworks"]["properties"]
    assert "sglang" in schema["serving"]["enum"]
    spec = api.get("/api/v1/openapi.json").json()["components"]["schemas"]
    frameworks = spec["AnswersV3"]["properties"]["frameworks"]["properties"]
    assert "sglang" in frameworks["serving"]["enum"]
