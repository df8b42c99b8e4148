from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Membership, Role, User
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

SIGNUP = {
    "email": "Ada@Example.com",
    "full_name": "Ada Lovelace",
    "organization_name": "Analytical Engines",
    "password1": PASSWORD,
    "password2": PASSWORD,
}


def _confirm_link(mailoutbox: list) -> str:  # type: ignore[type-arg]
    match = re.search(r"http://testserver(/accounts/signup/confirm/[^/\s]+/)", mailoutbox[-1].body)
    assert match, mailoutbox[-1].body
    return match.group(1)


def test_signup_creates_user_organisation_and_membership_from_the_emailed_link(
    client: Client,
    mailoutbox: list,  # type: ignore[type-arg]
) -> None:
    response = client.post(reverse("accounts:signup"), SIGNUP, follow=True)
    assert response.redirect_chain[-1][0] == reverse("accounts:signup_sent")
    assert "Check your email" in response.text
    assert not User.objects.exists()
    assert mailoutbox[0].to == ["ada@example.com"]
    link = _confirm_link(mailoutbox)
    # Opening the link (as a mail scanner would) creates nothing; the button does.
    page = client.get(link)
    assert "Analytical Engines" in page.text and "ada@example.com" in page.text
    assert not User.objects.exists()
    response = client.post(link, follow=True)
    assert response.redirect_chain[-1][0] == reverse("advisor:dashboard")
    user = User.objects.get(email="ada@example.com")
    membership = Membership.objects.get(user=user)
    assert membership.organization.name == "Analytical Engines"
    assert membership.role == Role.MEMBER
    assert response.context["user"] == user
    assert b"Analytical Engines" in response.content
    # The password chosen at sign-up is the one that logs in.
    client.post(reverse("accounts:logout"))
    login = {"username": "ada@example.com", "password": PASSWORD}
    assert client.post(reverse("accounts:login"), login).status_code == 302


def test_a_signup_link_works_once(
    client: Client,
    mailoutbox: list,  # type: ignore[type-arg]
) -> None:
    client.post(reverse("accounts:signup"), SIGNUP)
    link = _confirm_link(mailoutbox)
    Client().post(link)
    again = Client().post(link)
    assert again.status_code == 410
    assert "This link no longer works" in again.text
    assert (
        Client().get(reverse("accounts:signup_confirm", kwargs={"token": "x" * 43})).status_code
        == 410
    )
    assert User.objects.count() == 1


def test_signup_page_renders_in_both_languages(client: Client) -> None:
    english = client.get(reverse("accounts:signup"), HTTP_ACCEPT_LANGUAGE="en")
    chinese = client.get(reverse("accounts:signup"), HTTP_ACCEPT_LANGUAGE="zh-TW")
    assert "Create your account" in english.text
    assert "建立帳號" in chinese.text
    assert '<html lang="zh-Hant">' in chinese.text


def test_signup_with_an_existing_email_answers_the_same_and_mails_the_address(
    mailoutbox: list,  # type: ignore[type-arg]
) -> None:
    UserFactory(email="ada@example.com")
    taken = Client().post(reverse("accounts:signup"), SIGNUP, follow=True)
    fresh = Client().post(
        reverse("accounts:signup"), {**SIGNUP, "email": "new@example.com"}, follow=True
    )
    assert taken.redirect_chain == fresh.redirect_chain
    volatile = re.compile(r'(nonce|value|X-CSRFToken)(=|": )"[^"]*"')
    assert volatile.sub("", taken.text) == volatile.sub("", fresh.text)
    assert User.objects.filter(email__iexact="ada@example.com").count() == 1
    note = next(m for m in mailoutbox if m.to == ["ada@example.com"])
    assert "already has an account" in note.body
    assert "http://testserver/accounts/password-reset/" in note.body
    assert "/accounts/signup/confirm/" not in note.body


def test_the_existing_account_email_is_in_traditional_chinese(
    mailoutbox: list,  # type: ignore[type-arg]
) -> None:
    UserFactory(email="ada@example.com")
    Client().post(reverse("accounts:signup"), SIGNUP, HTTP_ACCEPT_LANGUAGE="zh-TW")
    assert "已有帳號" in mailoutbox[0].body


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("email", "not-an-email", "Enter a valid email address."),
        ("email", "a@" + "b" * 260 + ".com", "Ensure this value has at most 254 characters"),
        ("full_name", "x" * 151, "Ensure this value has at most 150 characters"),
        ("organization_name", "x" * 121, "Ensure this value has at most 120 characters"),
        ("password2", "something-else-42", "The two passwords differ."),
        ("password1", "12345678", "This password is too common."),
    ],
)
def test_bad_signup_input_gets_a_message_at_the_field(
    client: Client, field: str, value: str, message: str
) -> None:
    data = {**SIGNUP, field: value}
    if field == "password1":
        data["password2"] = value
    response = client.post(reverse("accounts:signup"), data)
    assert response.status_code == 200
    assert message in response.text
    assert field in response.context["form"].errors
    assert not User.objects.exists()


def test_html_in_names_is_shown_escaped(
    client: Client,
    mailoutbox: list,  # type: ignore[type-arg]
) -> None:
    data = {**SIGNUP, "organization_name": "<script>alert(1)</script>"}
    client.post(reverse("accounts:signup"), data)
    confirm = client.get(_confirm_link(mailoutbox))
    assert "<script>alert(1)</script>" not in confirm.text
    response = client.post(_confirm_link(mailoutbox), follow=True)
    assert "<script>alert(1)</script>" not in response.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in response.text


def test_login_with_email_and_logout(client: Client) -> None:
    UserFactory(email="grace@example.com")
    response = client.post(
        reverse("accounts:login"), {"username": "grace@example.com", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert client.get(reverse("advisor:dashboard")).status_code in {200, 302}
    client.post(reverse("accounts:logout"))
    assert client.get(reverse("advisor:dashboard")).status_code == 302


def test_wrong_password_gets_a_clear_message_in_both_languages(client: Client) -> None:
    UserFactory(email="grace@example.com")
    bad = {"username": "grace@example.com", "password": "wrong-password"}
    english = client.post(reverse("accounts:login"), bad)
    assert "That email and password do not match an account" in english.text
    chinese = client.post(reverse("accounts:login"), bad, HTTP_ACCEPT_LANGUAGE="zh-TW")
    assert "電子郵件與密碼不符" in chinese.text


def test_login_attempts_are_rate_limited(client: Client) -> None:
    UserFactory(email="grace@example.com")
    bad = {"username": "grace@example.com", "password": "wrong-password"}
    statuses = [client.post(reverse("accounts:login"), bad).status_code for _ in range(6)]
    assert statuses[:4] == [200] * 4
    assert statuses[-1] == 429
    # Even the right password is refused while locked out.
    good = {"username": "grace@example.com", "password": PASSWORD}
    locked = client.post(reverse("accounts:login"), good)
    assert locked.status_code == 429
    assert "Too many login attempts" in locked.text


def test_password_reset_by_email(client: Client, mailoutbox: list) -> None:  # type: ignore[type-arg]
    UserFactory(email="grace@example.com")
    response = client.post(reverse("accounts:password_reset"), {"email": "grace@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    link = next(line for line in mailoutbox[0].body.splitlines() if "/password-reset/" in line)
    path = link.split("testserver", 1)[1]
    form_page = client.get(path, follow=True)
    assert "Choose a new password" in form_page.text
    new = "a-brand-new-passphrase-7"
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}
    )
    assert done.status_code == 302
    login = client.post(
        reverse("accounts:login"), {"username": "grace@example.com", "password": new}
    )
    assert login.status_code == 302
    # The link works once.
    client.post(reverse("accounts:logout"))
    assert "This link no longer works" in client.get(path, follow=True).text


def test_password_reset_for_unknown_email_reveals_nothing(
    client: Client,
    mailoutbox: list,  # type: ignore[type-arg]
) -> None:
    response = client.post(
        reverse("accounts:password_reset"), {"email": "nobody@example.com"}, follow=True
    )
    assert "If an account exists for that address" in response.text
    assert mailoutbox == []
