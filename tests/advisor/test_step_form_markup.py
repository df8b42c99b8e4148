"""The form renderer of the wizard and the admin's criteria (advisor.renderers.FastRenderer)
builds some widgets in Python for speed; what it gives must be exactly what Django's own widget
templates give."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils import translation

from advisor.forms.base import StepForm
from advisor.renderers import FAST_RENDERER
from advisor.starters import STARTERS
from advisor.wizard.forms_by_step import FORMS as FORMS_BY_SECTION

FORMS = list(FORMS_BY_SECTION.values())
# Awkward input: markup characters, an unconvertible number, a value no choice has.
ODD = '<b>"5 & more"</b>'


def _variants(form_class: type[StepForm]) -> list[tuple[str, dict[str, Any]]]:
    variants: list[tuple[str, dict[str, Any]]] = [("empty", {})]
    for starter in STARTERS:
        initial = form_class().initial_from(starter.document())
        variants.append((f"{starter.slug}", {"initial": initial}))
    variants.append(("odd input", {"data": dict.fromkeys(form_class.base_fields, ODD)}))
    return variants


@pytest.mark.parametrize("language", ["en", "zh-hant"])
@pytest.mark.parametrize("form_class", FORMS, ids=lambda f: f.section)
def test_every_widget_renders_as_djangos_templates_do(
    form_class: type[StepForm], language: str
) -> None:
    templates = DjangoTemplates()
    with translation.override(language):
        for name, kwargs in _variants(form_class):
            ours, django = form_class(**kwargs), form_class(**kwargs, renderer=templates)
            if ours.is_bound:
                assert not ours.is_valid() and not django.is_valid()  # errors: aria-invalid
            for field in ours.fields:
                assert str(ours[field]) == str(django[field]), (name, field)


class _Inputs(forms.Form):
    """The widgets the renderer builds besides the step forms' (the admin's criteria table)."""

    default_renderer = FAST_RENDERER

    count = forms.IntegerField(widget=forms.NumberInput(attrs={"size": 3}))
    ticked = forms.BooleanField(required=False)


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"initial": {"count": 7, "ticked": True}}, {"data": {"count": ODD, "ticked": "on"}}],
)
def test_number_inputs_and_checkboxes_render_as_djangos_templates_do(
    kwargs: dict[str, Any],
) -> None:
    ours, django = _Inputs(**kwargs), _Inputs(**kwargs, renderer=DjangoTemplates())
    for field in ours.fields:
        assert str(ours[field]) == str(django[field]), field
