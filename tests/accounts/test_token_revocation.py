from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken, Membership
from tests.factories import PASSWORD, MembershipFactory

pytestmark = pytest.mark.django_db

TOKENS = "/accounts/tokens/"
API = "/api/v1/assessments"
NEW = "a-brand-new-passphrase-7"


@pytest.fixture
def member(client: Client) -> Membership:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _new_key(client: Client, name: str, **extra: str) -> str:
    page = client.post(TOKENS, {"name": name, **extra}, follow=True)
    return str(page.context["new_key"]["key"])


def _api_status(key: str) -> int:
    return Client().get(API, headers={"Authorization": f"Bearer {key}"}).status_code


def test_a_password_reset_revokes_the_users_api_tokens(client: Client, member: Membership) -> None:
    key = _new_key(client, "CI")
    other = MembershipFactory()
    other_client = Client()
    other_client.force_login(other.user)
    others_key = _new_key(other_client, "Theirs")
    assert _api_status(key) == 200
    client.logout()

    client.post("/accounts/password-reset/", {"email": member.user.email})
    link = next(line for line in mail.outbox[0].body.splitlines() if "/password-reset/" in line)
    form_page = client.get(link.split("testserver", 1)[1], follow=True)
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW}
    )
    assert done.status_code == 302
    assert _api_status(key) == 401
    assert _api_status(others_key) == 200


def test_a_password_change_revokes_the_tokens_and_keeps_the_session(
    client: Client, member: Membership
) -> None:
    keys = [_new_key(client, "CI"), _new_key(client, "Laptop")]
    page = client.get("/accounts/password/")
    assert "Change your password" in page.text
    response = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
        follow=True,
    )
    assert response.redirect_chain == [(TOKENS, 302)]
    assert "Your 2 API tokens were revoked" in response.text
    assert "You have no API tokens yet." in response.text
    assert [_api_status(key) for key in keys] == [401, 401]
    # The new key made afterwards works.
    assert _api_status(_new_key(client, "New CI")) == 200


def test_a_wrong_old_password_changes_nothing(client: Client, member: Membership) -> None:
    key = _new_key(client, "CI")
    response = client.post(
        "/accounts/password/",
        {"old_password": "not-it", "new_password1": NEW, "new_password2": NEW},
    )
    assert response.status_code == 200
    assert _api_status(key) == 200


def test_the_password_page_needs_a_login(client: Client) -> None:
    response = client.get("/accounts/password/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_token_can_be_given_an_expiry_after_which_the_api_refuses_it(
    client: Client, member: Membership
) -> None:
    key = _new_key(client, "Short-lived", expires_in_days="30")
    token = ApiToken.objects.get(user=member.user)
    assert token.expires_at is not None
    assert timedelta(days=29) < token.expires_at - timezone.now() <= timedelta(days=30)
    assert token.expires_at.strftime("%m/%d/%Y") in client.get(TOKENS).text
    assert _api_status(key) == 200

    token.expires_at = timezone.now() - timedelta(seconds=1)
    token.save()
    assert _api_status(key) == 401
    assert "Expired" in client.get(TOKENS).text


def test_a_token_without_an_expiry_works_until_revoked(client: Client, member: Membership) -> None:
    key = _new_key(client, "CI")
    assert ApiToken.objects.get(user=member.user).expires_at is None
    assert _api_status(key) == 200


@pytest.mark.parametrize("days", ["0", "-1", "abc", "3651"])
def test_a_bad_expiry_is_refused_at_the_field(
    client: Client, member: Membership, days: str
) -> None:
    response = client.post(TOKENS, {"name": "CI", "expires_in_days": days})
    assert response.status_code == 400
    assert response.context["form"].errors["expires_in_days"]
    assert not ApiToken.objects.exists()
