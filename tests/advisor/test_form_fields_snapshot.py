"""The wizard's step forms and the report's what-if form, field by field (kind, widget, label,
help text and choices in both languages), as they were before the answer field registry built
them: the registry changes where a field is declared, not what a person sees.

Record again (only when a form is meant to change):
    RECORD_FORM_FIELDS=1 DEBUG=true pytest tests/advisor/test_form_fields_snapshot.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from django import forms
from django.utils import translation

from advisor.forms.what_if import WhatIfForm
from advisor.wizard.forms_by_step import FORMS

PATH = Path(__file__).parent / "data" / "form_fields.json"


def _field(field: forms.Field) -> dict[str, Any]:
    out: dict[str, Any] = {
        "class": type(field).__name__,
        "widget": type(field.widget).__name__,
        "attrs": {k: str(v) for k, v in field.widget.attrs.items()},
        "required": field.required,
    }
    for lang in ("en", "zh-hant"):
        with translation.override(lang):
            out[f"label_{lang}"] = str(field.label) if field.label is not None else None
            out[f"help_{lang}"] = str(field.help_text)
            if isinstance(field, forms.ChoiceField):
                out[f"choices_{lang}"] = [[str(k), str(v)] for k, v in field.choices]
    return out


def _forms() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, form in [
        *((f"{s}:{f.__name__}", f) for s, f in FORMS.items()),
        ("what_if", WhatIfForm),
    ]:
        out[key] = {n: _field(f) for n, f in form.base_fields.items()}
        out[f"{key}:order"] = list(form.base_fields)
    return out


def test_the_forms_ask_as_they_did() -> None:
    now = json.loads(json.dumps(_forms()))
    if os.environ.get("RECORD_FORM_FIELDS"):
        PATH.write_text(json.dumps(now, ensure_ascii=False, indent=1) + "\n", "utf-8")
    assert now == json.loads(PATH.read_text("utf-8"))
