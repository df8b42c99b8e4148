"""A measured serving benchmark, pasted or uploaded for a report to compare with."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class MeasurementForm(forms.Form):
    """A serving benchmark's own result, pasted or uploaded; parsed by the
    engine (engine/sizing/measured/), which names every problem."""

    text = forms.CharField(
        label=_("Paste the benchmark's result file"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "class": "form-control font-monospace small"}),
    )
    file = forms.FileField(
        label=_("or upload it"),
        required=False,
        widget=forms.ClearableFileInput(
            attrs={"class": "form-control", "accept": ".json,.jsonl,.csv,.txt"}
        ),
    )
    concurrency = forms.IntegerField(
        label=_("Concurrency of the run (only for genai-perf's CSV, which does not record it)"),
        required=False,
        min_value=1,
        max_value=100_000,
        widget=forms.NumberInput(attrs={"class": "form-control", "inputmode": "numeric"}),
    )
