"""One field-label table: the wizard's step forms, the report's what-if and
the report's levers word each answer as the engine's field registry
(advisor/engine/fields) does, in English and Traditional Chinese."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils.translation import override

from advisor.engine.answers import fields
from advisor.engine.text import i18n
from advisor.forms.base import StepForm
from advisor.forms.what_if import WHAT_IF, WhatIfForm
from advisor.wizard import forms  # noqa: F401 - defines the step forms

LANGUAGES = ("en", "zh-hant")


def _step_forms() -> list[type[StepForm]]:
    found, todo = [], list(StepForm.__subclasses__())
    while todo:
        form = todo.pop()
        found.append(form)
        todo += form.__subclasses__()
    return found


def _answer_fields() -> list[tuple[str, str, Any]]:
    """(form, answer path, field) for every form field that holds an answer."""
    out = []
    for form in _step_forms():
        for name, field in form.base_fields.items():
            path = f"{form.section}.{name}"
            if form.section == "model" and name != "preset":
                path = f"model.architecture.{name}"
            if path in fields.labels():
                out.append((form.__name__, path, field))
    for name, field in WHAT_IF.items():
        out.append(("WhatIfForm", field.path, WhatIfForm.base_fields[name]))
    return out


def test_every_question_is_an_answer_path_with_a_field_label() -> None:
    assert set(fields.questions()) <= set(fields.labels())
    for entry in fields.questions().values():
        assert set(entry) == set(i18n.LANGS) and all(entry.values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_wizard_and_what_if_fields_take_their_label_from_the_engine_table(language: str) -> None:
    asked_fields = _answer_fields()
    # Every step's answers and all seven what-if fields; the context per sequence is shown on
    # the review (prompt + answer tokens) but asked no more since answers version 2.
    shown_not_asked = {"inference.context_tokens"}
    asked = {path for form, path, _ in asked_fields if form != "WhatIfForm"}
    assert asked == set(fields.questions()) - shown_not_asked
    assert len([f for f in asked_fields if f[0] == "WhatIfForm"]) == len(WHAT_IF)
    with override(language):
        for form, path, field in asked_fields:
            assert str(field.label) == i18n.field_question(path, language), (form, path)


def test_the_what_if_asks_as_the_wizard_does() -> None:
    with override("zh-hant"):
        assert str(WhatIfForm.base_fields["hours_per_day"].label) == "加速器每天忙碌的小時數"
        assert str(WhatIfForm.base_fields["deadline_hours"].label) == "期限（小時，選填）"


def test_a_path_the_wizard_does_not_ask_is_worded_by_its_field_label() -> None:
    assert i18n.field_question("derived.utilisation") == "Daily utilisation"
    assert i18n.field_question("workloads[1].schedule", "zh-hant") == i18n.field_label(
        "workloads[1].schedule", "zh-hant"
    )
    assert i18n.field_question("no.such.path") == "no.such.path"
