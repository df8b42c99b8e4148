from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.models import Membership, Organization, Role, User
from accounts.validators import validate_plain_name


class EmailAuthenticationForm(AuthenticationForm):
    username = forms.EmailField(
        label=_("Email"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autofocus": True, "autocomplete": "email"}),
    )
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("That email and password do not match an account. Please try again."),
    }


class PasswordPairMixin(forms.Form):
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("At least 8 characters; not only numbers; not a common password."),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def password_user(self) -> User:
        """An unsaved user for the similarity validator."""
        raise NotImplementedError

    def clean_password2(self) -> str:
        first = self.cleaned_data.get("password1")
        second = self.cleaned_data["password2"]
        if first and first != second:
            raise forms.ValidationError(_("The two passwords differ."), code="password_mismatch")
        return str(second)

    def _validate_password(self) -> None:
        password = self.cleaned_data.get("password2")
        if password:
            try:
                password_validation.validate_password(password, self.password_user())
            except forms.ValidationError as error:
                self.add_error("password1", error)


class SignUpForm(PasswordPairMixin, forms.Form):
    email = forms.EmailField(
        label=_("Work email"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    full_name = forms.CharField(
        label=_("Your name"),
        max_length=150,
        validators=[validate_plain_name],
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    organization_name = forms.CharField(
        label=_("Organisation"),
        max_length=Organization._meta.get_field("name").max_length,
        validators=[validate_plain_name],
        help_text=_("Your team or company. You can invite colleagues to it afterwards."),
        widget=forms.TextInput(attrs={"autocomplete": "organization"}),
    )
    field_order = ["email", "full_name", "organization_name", "password1", "password2"]

    def clean_email(self) -> str:
        # Whether the address has an account is not said here (that would tell anyone who
        # asks); the email sent to it says so instead (services.user_sign_up_request).
        return str(self.cleaned_data["email"]).lower()

    def password_user(self) -> User:
        return User(
            email=self.cleaned_data.get("email", ""),
            full_name=self.cleaned_data.get("full_name", ""),
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        self._validate_password()
        return cleaned


class InvitationSignUpForm(PasswordPairMixin, forms.Form):
    full_name = forms.CharField(
        label=_("Your name"), max_length=150, validators=[validate_plain_name]
    )
    field_order = ["full_name", "password1", "password2"]

    def __init__(self, *args: Any, email: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.email = email

    def password_user(self) -> User:
        return User(email=self.email, full_name=self.cleaned_data.get("full_name", ""))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        self._validate_password()
        return cleaned


class InvitationForm(forms.Form):
    email = forms.EmailField(label=_("Colleague's email"), max_length=254)
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)

    def __init__(self, *args: Any, membership: Membership, roles: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.membership = membership
        role_field = self.fields["role"]
        assert isinstance(role_field, forms.ChoiceField)  # noqa: S101 - narrows the type
        role_field.choices = [(v, label) for v, label in Role.choices if v in roles]
        role_field.initial = Role.MEMBER

    def clean_email(self) -> str:
        email = str(self.cleaned_data["email"]).lower()
        if Membership.objects.filter(
            organization=self.membership.organization, user__email__iexact=email
        ).exists():
            raise forms.ValidationError(
                _("%(email)s is already a member of this organisation."),
                params={"email": email},
                code="already_member",
            )
        return email


class OrganizationForm(forms.Form):
    name = forms.CharField(
        label=_("Organisation name"),
        max_length=Organization._meta.get_field("name").max_length,
        validators=[validate_plain_name],
    )


class SwitchOrganizationForm(forms.Form):
    organization = forms.IntegerField(min_value=1)


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        label=pgettext_lazy("API token", "Name"),
        max_length=100,
        help_text=_("Where the key will be used, e.g. “CI pipeline”."),
    )
    expires_in_days = forms.IntegerField(
        label=_("Expires after (days)"),
        min_value=1,
        max_value=3650,
        required=False,
        help_text=_("Leave empty for a token that works until you revoke it."),
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
