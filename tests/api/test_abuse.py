"""What a red team tried against the JSON API: amplified errors, a guessed default
organisation, wrong methods and content types, the OpenAPI document, and request floods."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from django.test import Client

from accounts.models import Membership, Role
from advisor.models import Assessment
from tests.api.test_api import URL, VALID, Api, _body
from tests.factories import MembershipFactory, OrganizationFactory, api_token_for

pytestmark = pytest.mark.django_db

MAX_ANSWER_BYTES = 64 * 1024


@pytest.fixture
def member() -> Membership:
    return MembershipFactory()


@pytest.fixture
def api(client: Client, member: Membership) -> Api:
    return Api(client, api_token_for(member.user))


def _hostile_answers(regions: int = 190_000, unknown_keys: int = 0) -> dict[str, Any]:
    answers = copy.deepcopy(VALID)
    answers["organization"]["regions"] = ["x"] * regions
    for section in answers.values():
        if isinstance(section, dict):
            section.update({f"k{i}": 0 for i in range(unknown_keys)})
    return answers


# --- Bounded errors ------------------------------------------------------------------------------


def test_190000_bad_regions_are_one_problem_in_a_small_answer(api: Api) -> None:
    body = _body(answers=_hostile_answers())
    assert len(json.dumps(body)) > 750_000
    response = api.post(body)
    assert response.status_code == 400
    assert len(response.content) < MAX_ANSWER_BYTES
    answer = response.json()
    assert len(answer["errors"]) <= 50
    assert answer["omitted"] == 0
    too_many = [e for e in answer["errors"] if e["path"] == "organization.regions"]
    assert {"code": "max_items", "params": {"limit": 10, "count": 190_000}}.items() <= (
        too_many[0].items()
    )
    assert not Assessment.objects.exists()


def test_more_than_50_problems_list_50_and_count_the_rest(api: Api) -> None:
    response = api.post(_body(answers=_hostile_answers(regions=40_000, unknown_keys=3_000)))
    assert response.status_code == 400
    assert len(response.content) < MAX_ANSWER_BYTES
    answer = response.json()
    assert len(answer["errors"]) == 50
    assert answer["omitted"] > 0
    # Unknown keys past the first ten of an object are one problem that counts them.
    counted = [e for e in answer["errors"] if e["code"] == "unknown_keys"]
    assert counted and counted[0]["params"]["count"] == 2_990


def test_a_draft_is_bounded_the_same_way(api: Api) -> None:
    response = api.post(_body(answers=_hostile_answers(unknown_keys=1_000), draft=True))
    assert response.status_code == 400
    assert len(response.content) < MAX_ANSWER_BYTES
    assert len(response.json()["errors"]) <= 50


def test_thousands_of_unknown_envelope_fields_list_50_and_count_the_rest(api: Api) -> None:
    body = {**_body(), **{f"extra{i}": 0 for i in range(20_000)}}
    response = api.post(body)
    assert response.status_code == 400
    assert len(response.content) < MAX_ANSWER_BYTES
    answer = response.json()
    assert len(answer["errors"]) == 50
    assert answer["omitted"] == 20_000 - 50


def test_a_100_kb_unknown_key_is_elided_in_the_answer(api: Api) -> None:
    answers = copy.deepcopy(VALID)
    answers["organization"]["k" * 100_000] = 1
    body = {**_body(answers=answers), "e" * 100_000: 1}
    for draft in (False, True):
        response = api.post(body if draft else _body(answers=answers))
        assert response.status_code == 400
        assert len(response.content) < 4_000
        path = response.json()["errors"][0]["path"]
        assert path.endswith("…") and len(path) <= 200


def test_a_string_longer_than_any_allowed_value_is_one_short_problem(api: Api) -> None:
    answers = copy.deepcopy(VALID)
    answers["deployment"]["data_residency"] = "z" * 500_000
    response = api.post(_body(answers=answers))
    assert response.status_code == 400
    assert len(response.content) < 4_000
    [error] = response.json()["errors"]
    assert (error["path"], error["code"]) == ("deployment.data_residency", "max_length")


def test_the_schema_bounds_every_array_and_string(api: Api) -> None:
    schema = api.get("/api/v1/schema/answers").json()
    arrays, strings = [], []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "array":
                arrays.append(node)
            if node.get("type") == "string":
                strings.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    assert arrays and all(isinstance(a.get("maxItems"), int) for a in arrays)
    assert strings and all(isinstance(s.get("maxLength"), int) for s in strings)


# --- The organisation an assessment goes to ------------------------------------------------------


def test_the_only_organisation_is_the_default(api: Api, member: Membership) -> None:
    response = api.post(_body())
    assert response.status_code == 201
    assert response.json()["organization"] == member.organization.slug


def test_a_member_of_several_organisations_must_name_one(api: Api, member: Membership) -> None:
    # A sales engineer's prospect named to sort first once received API creates.
    prospect = OrganizationFactory(name="AAA Prospect")
    MembershipFactory(user=member.user, organization=prospect, role=Role.SALES_ENGINEER)
    response = api.post(_body())
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["location"], error["path"], error["code"]) == (
        "body",
        "organization",
        "organization_required",
    )
    assert not Assessment.objects.exists()
    named = api.post(_body(organization=member.organization.slug))
    assert named.status_code == 201
    assert Assessment.objects.get().organization == member.organization


# --- Methods and content types -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [("put", URL), ("delete", URL), ("patch", f"{URL}/1"), ("post", f"{URL}/1")],
)
def test_a_wrong_method_is_a_json_405(client: Client, api: Api, method: str, path: str) -> None:
    response = getattr(client, method)(path, headers=api.headers)
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")
    assert "GET" in response["Allow"]
    assert response.json()["detail"]


@pytest.mark.parametrize("path", ["/api/v1/", "/api/v1/nope", "/api/v1/assessments/1/x/y"])
def test_the_api_root_and_unknown_paths_are_json_404s(api: Api, path: str) -> None:
    response = api.get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["detail"]


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""],
)
def test_a_write_that_is_not_json_is_415(client: Client, api: Api, content_type: str) -> None:
    response = client.post(URL, json.dumps(_body()), content_type=content_type, headers=api.headers)
    assert response.status_code == 415
    assert response["Content-Type"].startswith("application/json")
    assert "application/json" in response.json()["detail"]
    assert not Assessment.objects.exists()


def test_json_with_a_charset_is_accepted(client: Client, api: Api) -> None:
    response = client.post(
        URL,
        json.dumps(_body()),
        content_type="application/json; charset=utf-8",
        headers=api.headers,
    )
    assert response.status_code == 201


# --- The OpenAPI document ------------------------------------------------------------------------

OPENAPI = "/api/v1/openapi.json"


def test_the_openapi_document_is_not_public_by_default(client: Client) -> None:
    response = client.get(OPENAPI)
    assert response.status_code == 401
    assert response["Content-Type"].startswith("application/json")
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_token_holders_and_signed_in_people_read_the_openapi_document(
    client: Client, api: Api, member: Membership
) -> None:
    assert api.get(OPENAPI).json()["info"]["title"]
    client.force_login(member.user)
    assert client.get(OPENAPI).status_code == 200


def test_api_docs_public_publishes_it(client: Client, settings: Any) -> None:
    settings.API_DOCS_PUBLIC = True
    assert client.get(OPENAPI).status_code == 200


def test_the_openapi_document_only_answers_get(api: Api, client: Client) -> None:
    response = client.post(OPENAPI, "{}", content_type="application/json", headers=api.headers)
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")


# --- Rate limit per token ------------------------------------------------------------------------


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [1_800_000_000.0]  # 15 Jan 2027 08:00 UTC: the start of a minute
    monkeypatch.setattr("advisor.api.auth._clock", lambda: now[0])
    return now


@pytest.fixture
def budget(settings: Any) -> None:
    settings.API_RATE_LIMIT_READS = 4
    settings.API_RATE_LIMIT_WRITES = 2
    settings.API_RATE_LIMIT_WINDOW = 60


def _assert_429(response: Any, retry_after: int) -> None:
    assert response.status_code == 429
    assert response["Content-Type"].startswith("application/json")
    assert response["Retry-After"] == str(retry_after)
    assert response.json()["detail"]


def test_writes_past_the_budget_get_429_with_retry_after(
    api: Api, clock: list[float], budget: None
) -> None:
    assert api.post(_body()).status_code == 201
    assert api.post({"title": "bad"}).status_code == 400  # a refused write counts too
    clock[0] += 15
    _assert_429(api.post(_body()), retry_after=45)
    assert Assessment.objects.count() == 1
    # Reads have their own budget.
    assert api.get(URL).status_code == 200
    clock[0] += 45
    assert api.post(_body()).status_code == 201


def test_reads_past_the_budget_get_429(api: Api, clock: list[float], budget: None) -> None:
    for _ in range(3):
        assert api.get(URL).status_code == 200
    assert api.get(OPENAPI).status_code == 200
    _assert_429(api.get(URL), retry_after=60)
    _assert_429(api.get(OPENAPI), retry_after=60)
    _assert_429(api.get("/api/v1/schema/answers"), retry_after=60)
    assert api.post(_body()).status_code == 201


def test_the_budget_is_per_person_across_their_tokens(
    client: Client, api: Api, member: Membership, clock: list[float], budget: None
) -> None:
    for _ in range(2):
        api.post(_body())
    _assert_429(api.post(_body()), retry_after=60)
    other = Api(client, api_token_for(member.user, name="second"))
    _assert_429(other.post(_body()), retry_after=60)
    someone_else = Api(client, api_token_for(MembershipFactory().user))
    assert someone_else.post(_body()).status_code == 201


def test_a_request_without_a_valid_token_is_401_not_counted(
    client: Client, api: Api, clock: list[float], budget: None
) -> None:
    stranger = Api(client, "not-a-key")
    for _ in range(5):
        assert stranger.post(_body()).status_code == 401
    assert api.post(_body()).status_code == 201


def test_the_new_errors_are_in_traditional_chinese(
    client: Client, member: Membership, clock: list[float], budget: None
) -> None:
    MembershipFactory(user=member.user)
    api = Api(client, api_token_for(member.user), language="zh-hant")
    assert "您屬於多個組織" in api.post(_body()).json()["detail"]
    api.post(_body())
    assert "請於 60 秒後再試" in api.post(_body()).json()["detail"]
    response = client.put(URL, headers=api.headers)
    assert "不允許 PUT 方法" in response.json()["detail"]


def test_a_cache_outage_lifts_the_limit_instead_of_failing_requests(
    api: Api, budget: None, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        }
    }
    for _ in range(3):
        assert api.post(_body()).status_code == 201
    assert "API rate limit unavailable" in caplog.text


# --- Invalid tokens per client address ------------------------------------------------


@pytest.fixture
def guesses(settings: Any) -> None:
    settings.API_INVALID_TOKENS_PER_ADDRESS = 3
    settings.API_INVALID_TOKEN_WINDOW = 600


def test_invalid_tokens_are_limited_per_client_address_never_a_valid_one(
    client: Client, member: Membership, guesses: None, budget: None
) -> None:
    guesser = Api(client, "not-a-key")
    for _ in range(3):
        assert guesser.post(_body()).status_code == 401
    refused = guesser.get(URL)
    opened = guesser.get(OPENAPI)
    # The throttle clock stands still 30 s into a 10-minute window (tests/conftest.py).
    _assert_429(refused, retry_after=570)
    _assert_429(opened, retry_after=570)
    assert "invalid API tokens from your address" in refused.json()["detail"]
    # A valid token from the same address works: many people share one (an office, a NAT) ...
    key = api_token_for(member.user)
    assert Api(client, key).post(_body()).status_code == 201
    # ... and does not lift the limit on the guesses.
    _assert_429(guesser.get(URL), retry_after=570)
    elsewhere = Api(Client(REMOTE_ADDR="192.0.2.7"), key)
    assert elsewhere.post(_body()).status_code == 201
    assert Assessment.objects.count() == 2


def test_the_invalid_token_limit_is_said_in_traditional_chinese(
    client: Client, guesses: None
) -> None:
    guesser = Api(client, "not-a-key", language="zh-hant")
    for _ in range(3):
        guesser.get(URL)
    response = guesser.get(URL)
    assert response.status_code == 429 and response["Retry-After"] == "570"
    assert "來自您位址的無效 API 權杖請求過多；請於 570 秒後再試。" in response.json()["detail"]


# --- Titles ---------------------------------------------------------------------------


@pytest.mark.parametrize("title", ["Sizing\u202egpj.exe", "\u2066Sizing\u2069", "Q3 \x1b[31m"])
def test_a_title_with_a_bidi_override_or_a_control_character_is_refused(
    api: Api, title: str
) -> None:
    response = api.post(_body(title=title))
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["path"], error["code"]) == ("title", "control_characters")
    assert Assessment.objects.count() == 0
    schema = api.get(OPENAPI).json()["components"]["schemas"]["AssessmentIn"]
    assert re.search(schema["properties"]["title"]["not"]["pattern"], title)


def test_the_title_error_is_in_traditional_chinese(client: Client, member: Membership) -> None:
    api = Api(client, api_token_for(member.user), language="zh-hant")
    response = api.post(_body(title="Sizing\u202e"))
    assert "請移除看不見的文字方向控制字元" in response.json()["errors"][0]["message"]
