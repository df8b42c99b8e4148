"""The what-if form: the few answers a report lets its reader change and recompute."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms

from advisor.engine.answers import fields, schema
from advisor.engine.answers.fields import Field
from advisor.forms.base import _from_field, answer_field
from advisor.renderers import FAST_RENDERER

# The answers a what-if may change (those the field registry marks), by form field name.
WHAT_IF: dict[str, Field] = {f.name: f for f in fields.what_if_fields()}
# The what-if's multiple-choice answers, shown as groups of checkboxes.
WHAT_IF_LISTS = frozenset(name for name, f in WHAT_IF.items() if f.type == "enum_list")


class WhatIfForm(forms.Form):
    """The answers a report's what-if may change, pre-filled from the report's answers.

    Only the fields whose section the answers hold are offered (no latency target without an
    inference workload). Like the step forms it only converts types; the engine judges values.
    """

    default_renderer = FAST_RENDERER
    # Blank means "no target" (null) for these; for the others the engine says it is required.
    nullable: ClassVar[frozenset[str]] = frozenset(
        name for name, f in WHAT_IF.items() if f.name in schema.nullable_fields(f.section)
    )

    def __init__(self, data: Any = None, *, answers: dict[str, Any]) -> None:
        self.paths = {f.path: name for name, f in WHAT_IF.items()}
        initial = {}
        for name, f in WHAT_IF.items():
            held = answers.get(f.section)
            if isinstance(held, dict):
                initial[name] = held.get(f.name)
        super().__init__(data, initial=initial, auto_id="id_whatif_%s")
        for name in list(self.fields):
            if name not in initial:
                del self.fields[name]
            else:
                self.fields[name].widget.attrs["aria-describedby"] = f"errors-whatif-{name}"
        for name in WHAT_IF_LISTS & set(self.fields):
            self.fields[name].widget.attrs["class"] = "form-check-input"

    def changes(self) -> tuple[dict[str, Any], list[str]]:
        """The fields that converted, as answers values by path, and the paths of required
        numbers left blank (services.what_if_answers removes them: the engine says so)."""
        values: dict[str, Any] = {}
        removed: list[str] = []
        for name in self.fields:
            if name not in self.cleaned_data:
                continue
            path = WHAT_IF[name].path
            value = self.cleaned_data[name]
            if name in WHAT_IF_LISTS:
                values[path] = list(value or [])
            elif value in (None, "") and name not in self.nullable:
                removed.append(path)
            else:
                values[path] = _from_field(value)
        return values, removed

    def attach(self, problems: list[Any], language: str) -> None:
        """The engine's problems at the fields they name (others for the whole form)."""
        for problem in problems:
            # A problem with one item of a list ("organization.regions[2]") belongs to the list.
            name = self.paths.get(problem.path.split("[", 1)[0])
            if name is None and problem.path.startswith("deployment."):
                name = "allowed_modes"  # data residency rules speak of the allowed modes
            if name is not None and name not in self.fields:
                name = None
            if name is not None and name in self.errors:
                continue  # a conversion error already says what is wrong with it
            self.add_error(name, problem.message(language))


# The fields, in the what-if's order (the registry's `what_if` place), built as the step forms'.
WhatIfForm.base_fields.update(
    {name: answer_field(f.path, what_if=True) for name, f in WHAT_IF.items()}
)
