"""The wizard's step forms, one per section of the answers document.

Each form turns one section of the answers document into HTML inputs and back. The forms only
convert types (text to numbers, "yes" to true); every rule about values — enums, bounds, what a
workload requires — is the engine's, and its problems are mapped back onto these fields by path.
All fields are optional here for the same reason: the engine decides what is missing.

A step's questions are the answers the field registry (advisor/engine/fields) gives that step:
StepForm adds them, in the registry's order, after the fields a form declares itself. A form
declares only what the registry cannot say: the workloads' one row per kind, the model's choice
of source and its preset list read at run time, the work step's "text tokens" choice.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from advisor.engine.answers import vocabulary
from advisor.engine.answers.vocabulary import ARCHITECTURE_ANSWERS, MOE_ANSWERS
from advisor.forms.base import (
    StepForm,
    _from_field,
    _radio,
    _select,
    _to_field,
)
from advisor.labels import choices, help_for, label_for, question_for


class OrganizationStepForm(StepForm):
    section = "organization"


class WorkloadsStepForm(StepForm):
    """One checkbox and one schedule per workload kind; becomes the `workloads` list."""

    section = "workloads"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind in vocabulary.WORKLOAD_KINDS:
            self.fields[kind] = forms.BooleanField(label=label_for("kind", kind), required=False)
            self.fields[f"{kind}_schedule"] = _select(
                "schedule", vocabulary.SCHEDULES, label=_("How often")
            )
            self.fields[kind].widget.attrs["aria-describedby"] = f"errors-{kind}"
            self.fields[f"{kind}_schedule"].widget.attrs["aria-describedby"] = (
                f"errors-{kind}_schedule"
            )

    def initial_from(self, answers: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {}
        for item in answers.get("workloads") or []:
            if isinstance(item, dict) and item.get("kind") in vocabulary.WORKLOAD_KINDS:
                initial[item["kind"]] = True
                if "schedule" in item:
                    initial[f"{item['kind']}_schedule"] = item["schedule"]
        return initial

    def section_value(self) -> Any:
        items = []
        for kind in vocabulary.WORKLOAD_KINDS:
            if self.cleaned_data.get(kind):
                item = {"kind": kind}
                schedule = self.cleaned_data.get(f"{kind}_schedule")
                if schedule:
                    item["schedule"] = schedule
                items.append(item)
        return items

    def field_for(self, path: str) -> str | None:
        # "workloads[1].schedule" names the second ticked kind.
        if not path.startswith("workloads["):
            return None
        try:
            index = int(path[len("workloads[") : path.index("]")])
        except ValueError:
            return None
        ticked = [k for k in vocabulary.WORKLOAD_KINDS if self.cleaned_data.get(k)]
        if index >= len(ticked):
            return None
        return f"{ticked[index]}_schedule" if path.endswith(".schedule") else ticked[index]

    def kind_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[kind], self[f"{kind}_schedule"]) for kind in vocabulary.WORKLOAD_KINDS]


class ModelStepForm(StepForm):
    section = "model"
    source = _radio(
        "model_source",
        ("preset", "architecture"),
        label=_("Which model"),
        help_text=_(
            "Memory is sized first: the model's shape decides weights, gradients, optimizer "
            "state, activations and KV cache."
        ),
    )
    preset = forms.ChoiceField(
        label=question_for("model.preset"),
        required=False,
        widget=forms.Select(attrs={"class": "form-select"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        preset = self.fields["preset"]
        assert isinstance(preset, forms.ChoiceField)  # noqa: S101 - narrows the type
        preset.choices = [("", "—"), *choices("preset", vocabulary.preset_ids())]

    def architecture_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in (*ARCHITECTURE_ANSWERS, *MOE_ANSWERS)]

    def initial_from(self, answers: dict[str, Any]) -> dict[str, Any]:
        model = answers.get("model")
        if not isinstance(model, dict):
            return {}
        if "preset" in model:
            return {"source": "preset", "preset": model["preset"]}
        arch = model.get("architecture")
        if isinstance(arch, dict):
            return {"source": "architecture", **{k: _to_field(v) for k, v in arch.items()}}
        return {}

    def section_value(self) -> Any:
        source = self.cleaned_data.get("source")
        if not source and self.cleaned_data.get("preset"):
            source = "preset"  # choosing a published model says which source it is
        if source == "preset" and self.cleaned_data.get("preset"):
            return {"preset": self.cleaned_data["preset"]}
        if source == "architecture":
            arch = {
                name: _from_field(self.cleaned_data.get(name))
                for name in (*ARCHITECTURE_ANSWERS, *MOE_ANSWERS)
                if _from_field(self.cleaned_data.get(name)) is not None
            }
            return {"architecture": arch}
        return None

    def field_for(self, path: str) -> str | None:
        if path.startswith("model.architecture."):
            name = path.split(".")[2]
            return name if name in self.fields else None
        if path.startswith("model.preset"):
            return "preset"
        if path == "model":
            return "source"
        return None


class TrainingStepForm(StepForm):
    section = "training"


class InferenceStepForm(StepForm):
    section = "inference"


class WorkStepForm(StepForm):
    """What the served model works on. Text tokens (the default) leave the
    section out; images, audio, passages or pairs are sized in their own unit."""

    section = "work"
    TOKENS = "tokens"
    unit = forms.ChoiceField(
        choices=[
            (TOKENS, _("Text tokens: a language model (the default)")),
            *choices("work_unit", vocabulary.WORK_UNITS),
        ],
        required=False,
        widget=forms.RadioSelect,
        label=question_for("work.unit"),
        help_text=help_for("work.unit"),
    )

    def initial_from(self, answers: dict[str, Any]) -> dict[str, Any]:
        initial = super().initial_from(answers)
        initial.setdefault("unit", self.TOKENS)
        return initial

    def section_value(self) -> Any:
        if self.cleaned_data.get("unit") in (None, "", self.TOKENS):
            return {}  # text tokens: no work section, the model and inference steps size it
        return super().section_value()


class MaturityStepForm(StepForm):
    section = "maturity"


class FrameworksStepForm(StepForm):
    section = "frameworks"


class DeploymentStepForm(StepForm):
    section = "deployment"
    # China reach is not asked here: step 1's regions say it (mainland China among them), and
    # the engine derives deployment.china_connectivity from them when a document leaves it out.


class CostStepForm(StepForm):
    section = "cost"
