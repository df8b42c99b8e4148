"""Quote requests for the house offer a report sizes, and the staff's lead status."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.validators import validate_plain_name
from advisor.models import Lead

TERM_CHOICES = [(m, m) for m in (1, 3, 6, 12, 24, 36)]


class QuoteRequestForm(forms.Form):
    """What a quote request adds to the sized server the report already holds: the term, the
    bandwidth to mainland China and a note (nothing of the server is typed again)."""

    term_months = forms.TypedChoiceField(
        label=_("Term (months)"),
        choices=TERM_CHOICES,
        coerce=int,
        initial=12,
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )
    china_bandwidth_mbps = forms.IntegerField(
        label=_("Bandwidth to mainland China (Mbps)"),
        min_value=0,
        max_value=100_000,
        required=False,
        help_text=_("Premium routes (CN2 GIA, CMI); leave empty for none."),
        widget=forms.TextInput(
            attrs={"class": "form-control form-control-sm", "inputmode": "numeric"}
        ),
    )
    china_bandwidth_type = forms.ChoiceField(
        label=_("China route"),
        choices=Lead.ChinaBandwidth.choices,
        required=False,
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )
    note = forms.CharField(
        label=_("Note for the sales engineers"),
        max_length=1000,
        required=False,
        widget=forms.Textarea(attrs={"class": "form-control form-control-sm", "rows": 2}),
    )
    # The house offer asked about, when the report lists several (empty: the first option's).
    offer = forms.CharField(max_length=100, required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("china_bandwidth_mbps") and not data.get("china_bandwidth_type"):
            self.add_error("china_bandwidth_type", _("Choose the route for the China bandwidth."))
        if data.get("china_bandwidth_type") and not data.get("china_bandwidth_mbps"):
            self.add_error("china_bandwidth_mbps", _("Give the bandwidth for this route."))
        return data


class SharedQuoteRequestForm(QuoteRequestForm):
    """A quote request from a visitor with a share link: no account, so who asks is typed."""

    contact_name = forms.CharField(
        label=_("Your name"),
        max_length=100,
        validators=[validate_plain_name],
        widget=forms.TextInput(
            attrs={"class": "form-control form-control-sm", "autocomplete": "name"}
        ),
    )
    contact_email = forms.EmailField(
        label=_("Your email"),
        max_length=254,
        help_text=_("The sales engineers answer here."),
        widget=forms.EmailInput(
            attrs={"class": "form-control form-control-sm", "autocomplete": "email"}
        ),
    )

    field_order = ("contact_name", "contact_email")


class LeadStatusForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Status"),
        choices=Lead.Status.choices,
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )
