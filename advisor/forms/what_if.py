"""The what-if form: the few answers a report lets its reader change and recompute."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext_lazy as _

from advisor.engine import answers as A
from advisor.engine import schema as SCH
from advisor.forms.base import _checkboxes, _from_field, _integer, _number
from advisor.labels import choices, question_for
from advisor.renderers import FAST_RENDERER

# The answers a what-if may change: field -> (section, key) of the answers document.
WHAT_IF_FIELDS: dict[str, tuple[str, str]] = {
    "hours_per_day": ("cost", "hours_per_day"),
    "tokens_per_day": ("inference", "tokens_per_day"),
    "p95_latency_ms": ("inference", "p95_latency_ms"),
    "deadline_hours": ("training", "deadline_hours"),
    "allowed_modes": ("deployment", "allowed_modes"),
    # The answers that exclude options: where the users and data are decides
    # the providers, regions and cards on offer; data residency rules out whole modes.
    "regions": ("organization", "regions"),
    "data_residency": ("deployment", "data_residency"),
}
# The what-if's multiple-choice answers, shown as groups of checkboxes.
WHAT_IF_LISTS = frozenset({"allowed_modes", "regions"})


class WhatIfForm(forms.Form):
    """The answers a report's what-if may change, pre-filled from the report's answers.

    Only the fields whose section the answers hold are offered (no latency target without an
    inference workload). Like the step forms it only converts types; the engine judges values.
    """

    default_renderer = FAST_RENDERER
    # Blank means "no target" (null) for these; for the others the engine says it is required.
    nullable: ClassVar[frozenset[str]] = frozenset(
        name
        for name, (section, key) in WHAT_IF_FIELDS.items()
        if key in SCH.nullable_fields(section)
    )

    hours_per_day = _number(label=question_for("cost.hours_per_day"), help_text=_("0 to 24."))
    tokens_per_day = _integer(label=question_for("inference.tokens_per_day"))
    p95_latency_ms = _number(
        label=question_for("inference.p95_latency_ms"),
        help_text=_("Leave empty for no latency target."),
    )
    deadline_hours = _number(
        label=question_for("training.deadline_hours"), help_text=_("Leave empty for no deadline.")
    )
    allowed_modes = _checkboxes("mode", A.MODES, label=question_for("deployment.allowed_modes"))
    regions = _checkboxes("region", A.REGIONS, label=question_for("organization.regions"))
    data_residency = forms.ChoiceField(
        label=question_for("deployment.data_residency"),
        choices=choices("residency", A.RESIDENCY),
        required=False,
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )

    def __init__(self, data: Any = None, *, answers: dict[str, Any]) -> None:
        self.paths = {f"{section}.{key}": name for name, (section, key) in WHAT_IF_FIELDS.items()}
        initial = {}
        for name, (section, key) in WHAT_IF_FIELDS.items():
            held = answers.get(section)
            if isinstance(held, dict):
                initial[name] = held.get(key)
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
            path = "{}.{}".format(*WHAT_IF_FIELDS[name])
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
