"""Forms that open an assessment: a new one (blank or from a starter), a sales engineer's
assessment for a prospect, and the invitation that brings the prospect's contact in."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.validators import validate_plain_name
from advisor.models import Assessment


class NewAssessmentForm(forms.Form):
    title = forms.CharField(
        label=_("Title"),
        max_length=Assessment._meta.get_field("title").max_length,
        validators=[validate_plain_name],
        widget=forms.TextInput(attrs={"class": "form-control"}),
    )
    starter = forms.ChoiceField(label=_("Start from"), required=False)

    def __init__(self, *args: Any, starters: list[tuple[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        starter = self.fields["starter"]
        assert isinstance(starter, forms.ChoiceField)  # noqa: S101 - narrows the type
        starter.choices = [("", _("A blank assessment")), *starters]
        starter.widget.attrs["class"] = "form-select"


class ProspectForm(forms.Form):
    organization_name = forms.CharField(
        label=_("Customer organisation"),
        max_length=120,
        validators=[validate_plain_name],
        widget=forms.TextInput(attrs={"class": "form-control"}),
    )
    title = forms.CharField(
        label=_("Assessment title"),
        max_length=Assessment._meta.get_field("title").max_length,
        validators=[validate_plain_name],
        widget=forms.TextInput(attrs={"class": "form-control"}),
    )
    contact_email = forms.EmailField(
        label=_("Customer contact's email (optional)"),
        required=False,
        help_text=_("They get a link that lets them join and fill in the steps themselves."),
        widget=forms.EmailInput(attrs={"class": "form-control"}),
    )


class CustomerInviteForm(forms.Form):
    email = forms.EmailField(
        label=_("Customer contact's email"),
        widget=forms.EmailInput(attrs={"class": "form-control form-control-sm"}),
    )
