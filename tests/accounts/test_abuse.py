from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from tests.factories import PASSWORD, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.1"
LOGIN = "/accounts/login/"
WRONG = "wrong-password"


def _behind_proxy(client_address: str) -> Client:
    # What one proxy in front of gunicorn forwards: the client's address appended to the header.
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=client_address)


def _login(client: Client, email: str, password: str = WRONG) -> int:
    return client.post(LOGIN, {"username": email, "password": password}).status_code


def test_behind_a_proxy_an_attackers_failures_do_not_lock_out_the_victim(settings: Any) -> None:
    settings.PROXY_COUNT = 1
    UserFactory(email="grace@example.com")
    attacker = _behind_proxy("203.0.113.9")
    statuses = [_login(attacker, "grace@example.com") for _ in range(5)]
    assert statuses == [200] * 4 + [429]
    assert _login(attacker, "grace@example.com", PASSWORD) == 429
    victim = _behind_proxy("198.51.100.7")
    assert _login(victim, "grace@example.com", PASSWORD) == 302


def test_the_lockout_page_says_when_to_come_back(settings: Any) -> None:
    UserFactory(email="grace@example.com")
    client = Client()
    for _ in range(5):
        _login(client, "grace@example.com")
    locked = client.post(LOGIN, {"username": "grace@example.com", "password": PASSWORD})
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    assert "Too many login attempts" in locked.text


def test_login_ignores_the_case_of_the_email() -> None:
    UserFactory(email="grace@example.com")
    client = Client()
    assert _login(client, "  Grace@Example.COM ", PASSWORD) == 302
    assert client.get(reverse("advisor:dashboard")).status_code == 200


def test_failures_count_towards_the_lockout_whatever_the_case() -> None:
    UserFactory(email="grace@example.com")
    client = Client()
    spellings = ["grace@example.com", "Grace@example.com", "GRACE@EXAMPLE.COM", "grace@Example.com"]
    assert [_login(client, email) for email in spellings] == [200] * 4
    assert _login(client, "gRaCe@example.com") == 429
    assert _login(client, "grace@example.com", PASSWORD) == 429


def test_one_address_spraying_a_password_across_accounts_is_stopped(settings: Any) -> None:
    settings.PROXY_COUNT = 1
    UserFactory(email="grace@example.com")
    sprayer = _behind_proxy("203.0.113.9")
    statuses = [_login(sprayer, f"person{i}@example.com") for i in range(20)]
    assert statuses == [200] * 20
    refused = sprayer.post(LOGIN, {"username": "grace@example.com", "password": WRONG})
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 15 * 60
    # A correct password still signs in: the address may be an office's, shared by many.
    assert _login(sprayer, "grace@example.com", PASSWORD) == 302
    # Others behind the same proxy are not affected.
    assert _login(_behind_proxy("198.51.100.7"), "grace@example.com", PASSWORD) == 302


def test_many_addresses_guessing_one_account_are_stopped(settings: Any) -> None:
    settings.PROXY_COUNT = 1
    UserFactory(email="grace@example.com")
    statuses = [_login(_behind_proxy(f"203.0.113.{i}"), "grace@example.com") for i in range(20)]
    assert statuses == [200] * 20
    assert _login(_behind_proxy("203.0.113.200"), "grace@example.com", PASSWORD) == 429


def test_a_password_reset_lifts_the_accounts_own_limit(
    settings: Any,
    mailoutbox: list,  # type: ignore[type-arg]
) -> None:
    settings.PROXY_COUNT = 1
    UserFactory(email="grace@example.com")
    for i in range(20):
        _login(_behind_proxy(f"203.0.113.{i}"), "grace@example.com")
    owner = _behind_proxy("198.51.100.7")
    assert _login(owner, "grace@example.com", PASSWORD) == 429
    owner.post("/accounts/password-reset/", {"email": "grace@example.com"})
    link = next(line for line in mailoutbox[0].body.splitlines() if "/password-reset/" in line)
    form_page = owner.get(link.split("testserver", 1)[1], follow=True)
    new = "a-brand-new-passphrase-7"
    owner.post(form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert _login(owner, "grace@example.com", new) == 302


@pytest.mark.parametrize("forwarded", ["203.0.113.9:51234", " 203.0.113.9 "])
def test_a_port_or_spaces_in_the_forwarded_address_count_as_the_same_client(
    settings: Any, forwarded: str
) -> None:
    settings.PROXY_COUNT = 1
    UserFactory(email="grace@example.com")
    for _ in range(4):
        _login(_behind_proxy("203.0.113.9"), "grace@example.com")
    assert _login(_behind_proxy(forwarded), "grace@example.com") == 429


# --- Email floods and account enumeration ---------------------------------------------------------

RESET = "/accounts/password-reset/"


def test_password_reset_emails_are_limited_per_address_and_the_page_never_changes(
    mailoutbox: list,  # type: ignore[type-arg]
) -> None:
    UserFactory(email="grace@example.com")
    answers = [
        # From a new client address each time: the limit follows the account's address.
        Client(REMOTE_ADDR=f"203.0.113.{i}").post(RESET, {"email": "Grace@example.com"})
        for i in range(6)
    ]
    assert len(mailoutbox) == 3
    assert {(a.status_code, a["Location"]) for a in answers} == {
        (302, "/accounts/password-reset/sent/")
    }


def test_password_reset_emails_are_limited_per_requester(
    mailoutbox: list,  # type: ignore[type-arg]
) -> None:
    for i in range(12):
        UserFactory(email=f"person{i}@example.com")
    requester = Client(REMOTE_ADDR="203.0.113.9")
    answers = [requester.post(RESET, {"email": f"person{i}@example.com"}) for i in range(12)]
    assert len(mailoutbox) == 10
    assert {a["Location"] for a in answers} == {"/accounts/password-reset/sent/"}
    # Someone else can still reset their password.
    Client(REMOTE_ADDR="198.51.100.7").post(RESET, {"email": "person11@example.com"})
    assert len(mailoutbox) == 11


SIGNUP = {
    "email": "ada@example.com",
    "full_name": "Ada Lovelace",
    "organization_name": "Analytical Engines",
    "password1": PASSWORD,
    "password2": PASSWORD,
}


def test_signup_emails_are_limited_per_address_whether_or_not_it_has_an_account(
    mailoutbox: list,  # type: ignore[type-arg]
) -> None:
    UserFactory(email="grace@example.com")
    for email in ("grace@example.com", "ada@example.com"):
        answers = [
            Client(REMOTE_ADDR=f"203.0.113.{i}").post(
                "/accounts/signup/", {**SIGNUP, "email": email}
            )
            for i in range(5)
        ]
        assert {a["Location"] for a in answers} == {"/accounts/signup/sent/"}
    assert (
        sorted(m.to[0] for m in mailoutbox) == ["ada@example.com"] * 3 + ["grace@example.com"] * 3
    )


def test_signup_emails_are_limited_per_requester(
    mailoutbox: list,  # type: ignore[type-arg]
) -> None:
    requester = Client(REMOTE_ADDR="203.0.113.9")
    for i in range(12):
        response = requester.post("/accounts/signup/", {**SIGNUP, "email": f"new{i}@example.com"})
        assert response["Location"] == "/accounts/signup/sent/"
    assert len(mailoutbox) == 10


def test_invitation_emails_are_limited_per_address_and_per_inviter(
    mailoutbox: list,  # type: ignore[type-arg]
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    inviters = []
    for _ in range(2):
        client = Client()
        client.force_login(MembershipFactory(role=Role.ADMIN).user)
        inviters.append(client)

    def invite(client: Client, email: str) -> str:
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post("/accounts/organisation/", {"email": email, "role": "member"})
        assert response.status_code == 302
        return client.get(response["Location"]).text

    # One address, invited again and again by two organisations: three emails an hour.
    pages = [invite(inviters[i % 2], "target@example.com") for i in range(6)]
    assert all("Invitation sent to target@example.com" in page for page in pages)
    assert len(mailoutbox) == 3

    # One inviter, many addresses: twenty an hour.
    for i in range(22):
        invite(inviters[0], f"colleague{i}@example.com")
    from_first = [m for m in mailoutbox if m.to[0].startswith("colleague")]
    # Its three invitations to target@ above count towards its twenty as well.
    assert len(from_first) == 20 - 3
