from __future__ import annotations

import hashlib

import pytest
from django.test import Client

from accounts.models import ApiToken, Membership
from accounts.services import api_token_create
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = "/accounts/tokens/"


@pytest.fixture
def member(client: Client) -> Membership:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def test_the_page_needs_a_login(client: Client) -> None:
    response = client.get(URL)
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_lists_only_the_users_live_tokens(client: Client, member: Membership) -> None:
    mine, _ = api_token_create(user=member.user, name="CI pipeline")
    revoked, _ = api_token_create(user=member.user, name="Old laptop")
    revoked.revoked_at = revoked.created_at
    revoked.save()
    api_token_create(user=UserFactory(), name="Someone else's")
    response = client.get(URL)
    assert response.status_code == 200
    body = response.content.decode()
    assert "CI pipeline" in body and mine.prefix in body
    assert "Old laptop" not in body and "Someone else" not in body
    assert response["Cache-Control"].startswith("max-age=0")


def test_creating_a_token_shows_the_key_once(client: Client, member: Membership) -> None:
    response = client.post(URL, {"name": "CI pipeline"}, follow=True)
    assert response.redirect_chain == [(URL, 302)]
    key = response.context["new_key"]["key"]
    assert f'id="new-api-key">{key}</code>' in response.content.decode()
    token = ApiToken.objects.get(user=member.user)
    assert token.name == "CI pipeline"
    assert token.prefix == key[:8]
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in str(ApiToken.objects.values_list())
    # Shown once: a reload no longer has it.
    assert key not in client.get(URL).content.decode()


def test_the_new_key_works_against_the_api(client: Client, member: Membership) -> None:
    key = client.post(URL, {"name": "CI"}, follow=True).context["new_key"]["key"]
    client.logout()
    response = client.get("/api/v1/assessments", headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 200


@pytest.mark.parametrize("name", ["", "   ", "x" * 101])
def test_a_bad_name_is_refused_at_the_field(client: Client, member: Membership, name: str) -> None:
    response = client.post(URL, {"name": name})
    assert response.status_code == 400
    assert response.context["form"].errors["name"]
    assert not ApiToken.objects.exists()


def test_html_in_a_name_is_shown_escaped(client: Client, member: Membership) -> None:
    client.post(URL, {"name": "<script>alert(1)</script>"})
    body = client.get(URL).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "<script>alert(1)" not in body


def test_revoking_a_token_stops_it_working(client: Client, member: Membership) -> None:
    token, key = api_token_create(user=member.user, name="CI")
    response = client.post(f"/accounts/tokens/{token.pk}/revoke/", follow=True)
    assert response.redirect_chain == [(URL, 302)]
    assert "no longer works" in response.content.decode()
    token.refresh_from_db()
    assert token.revoked_at is not None
    api = client.get("/api/v1/assessments", headers={"Authorization": f"Bearer {key}"})
    assert api.status_code == 401


def test_another_users_token_is_404(client: Client, member: Membership) -> None:
    theirs, key = api_token_create(user=UserFactory(), name="Theirs")
    response = client.post(f"/accounts/tokens/{theirs.pk}/revoke/")
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None


def test_revoke_rejects_get(client: Client, member: Membership) -> None:
    token, _ = api_token_create(user=member.user, name="CI")
    assert client.get(f"/accounts/tokens/{token.pk}/revoke/").status_code == 405


def test_the_page_is_in_traditional_chinese(client: Client, member: Membership) -> None:
    api_token_create(user=member.user, name="CI")
    response = client.get(URL, headers={"Accept-Language": "zh-Hant"})
    body = response.content.decode()
    assert "API 權杖" in body
    assert "撤銷" in body


def test_the_navbar_links_to_the_page(client: Client, member: Membership) -> None:
    assert f'href="{URL}"' in client.get("/dashboard/").content.decode()
