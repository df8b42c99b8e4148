"""Forms on a report's page: the language to regenerate it in, and a share link."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class ReportRequestForm(forms.Form):
    language = forms.ChoiceField(
        label=_("Report language"),
        choices=[("en", "English"), ("zh-hant", "繁體中文")],
        widget=forms.Select(attrs={"class": "form-select form-select-sm w-auto"}),
    )
    # The version the page showed: its answers are the ones regenerated (services.report_request).
    source = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)


class ShareLinkForm(forms.Form):
    label = forms.CharField(
        label=_("Label (who it is for)"),
        max_length=100,
        required=False,
        widget=forms.TextInput(attrs={"class": "form-control form-control-sm"}),
    )
    expires_in_days = forms.IntegerField(
        label=_("Expires after (days)"),
        min_value=1,
        max_value=365,
        required=False,
        help_text=_("Leave empty for a link that works until you revoke it."),
        widget=forms.TextInput(
            attrs={"class": "form-control form-control-sm", "inputmode": "numeric"}
        ),
    )
