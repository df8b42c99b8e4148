"""What every wizard form is built from: the field builders (choices in the user's language,
numbers typed with thousands separators) and the step form base class that maps one section of
the answers document onto fields and back. Its forms render with advisor.renderers.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext_lazy as _

from advisor.engine.answers import fields, schema
from advisor.labels import choices, help_for, question_for
from advisor.renderers import FAST_RENDERER

YES_NO = [("yes", _("Yes")), ("no", _("No"))]


def _select(group: str, values: tuple[str, ...], **kwargs: Any) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=[("", "—"), *choices(group, values)],
        required=False,
        widget=forms.Select(attrs={"class": "form-select"}),
        **kwargs,
    )


def _radio(group: str, values: tuple[str, ...], **kwargs: Any) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=choices(group, values), required=False, widget=forms.RadioSelect, **kwargs
    )


def _checkboxes(group: str, values: tuple[str, ...], **kwargs: Any) -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        choices=choices(group, values),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        **kwargs,
    )


def _yes_no(**kwargs: Any) -> forms.ChoiceField:
    return forms.ChoiceField(choices=YES_NO, required=False, widget=forms.RadioSelect, **kwargs)


# "8,000", "8 000" and "8 000" (no-break or narrow no-break space) are eight thousand: groups of
# exactly three digits after the first. "8,5" is not a grouping and is refused as before rather
# than guessed at (it is 8.5 in much of Europe).
_GROUPED = re.compile(r"^\s*([+-]?)(\d{1,3}(?:[,\u00a0\u202f ]\d{3})+)(\.\d+)?\s*$")


def _ungroup(value: Any) -> Any:
    if isinstance(value, str) and (match := _GROUPED.match(value)):
        sign, digits, fraction = match.groups()
        return sign + re.sub(r"\D", "", digits) + (fraction or "")
    return value


class GroupedIntegerField(forms.IntegerField):
    """An integer that may be typed with thousands separators."""

    def to_python(self, value: Any) -> int | None:
        return super().to_python(_ungroup(value))


class GroupedFloatField(forms.FloatField):
    """A number that may be typed with thousands separators."""

    def to_python(self, value: Any) -> float | None:  # type: ignore[override]  # as FloatField
        return super().to_python(_ungroup(value))


def _integer(**kwargs: Any) -> forms.IntegerField:
    return GroupedIntegerField(
        required=False,
        # Text, not type=number: browsers silently drop what a number input cannot parse, and
        # we want to show people exactly what they typed next to the reason it was refused.
        widget=forms.TextInput(attrs={"class": "form-control", "inputmode": "numeric"}),
        **kwargs,
    )


def _number(**kwargs: Any) -> forms.FloatField:
    return GroupedFloatField(
        required=False,
        widget=forms.TextInput(attrs={"class": "form-control", "inputmode": "decimal"}),
        **kwargs,
    )


def answer_field(path: str, *, what_if: bool = False) -> forms.Field:
    """The form field of the answer at `path`, as the field registry declares it: its question
    as the label, its help text, and the input its type takes (numbers typed as text, an enum
    as a select or radio buttons, a list of values as checkboxes, yes/no as two radios). A
    what-if field takes the what-if's help and shows an enum as a small select."""
    field = fields.by_path(path)
    if field is None:
        raise KeyError(f"{path} is not in the field registry")
    kwargs: dict[str, Any] = {"label": question_for(path)}
    if (field.what_if_help if what_if else field.help) is not None:
        kwargs["help_text"] = help_for(path, what_if=what_if)
    group = field.group or field.name
    if field.type == "integer":
        return _integer(**kwargs)
    if field.type == "number":
        return _number(**kwargs)
    if field.type == "boolean":
        return _yes_no(**kwargs)
    if field.type == "enum_list":
        return _checkboxes(group, field.choices(), **kwargs)
    if field.type == "enum" and what_if:
        return forms.ChoiceField(
            choices=choices(group, field.choices()),
            required=False,
            widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
            **kwargs,
        )
    if field.type == "enum":
        build = _radio if field.widget == "radio" else _select
        return build(group, field.choices(), **kwargs)
    raise ValueError(f"{path} is a {field.type}: no form field")


def step_fields(step: str) -> dict[str, forms.Field]:
    """The form fields of the answers the wizard step `step` asks, in the registry's order."""
    return {f.name: answer_field(f.path) for f in fields.asked_in(step)}


class StepForm(forms.Form):
    """One wizard step; `section` is the top-level key of the answers document it edits."""

    default_renderer = FAST_RENDERER
    section: ClassVar[str]

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The step's questions come from the field registry, after the fields the class declares
        # itself (a declared field of the same name, such as a custom choice, takes their place).
        # Django's form metaclass sets base_fields after this hook runs, so they are added to
        # declared_fields, which base_fields then is.
        section = cls.__dict__.get("section")
        if section is None:
            return
        for name, field in step_fields(section).items():
            cls.declared_fields.setdefault(name, field)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            if isinstance(field.widget, forms.HiddenInput):
                continue
            described_by = f"errors-{name}"
            if field.help_text:
                described_by = f"id_{name}_helptext {described_by}"
            field.widget.attrs.setdefault("aria-describedby", described_by)

    # --- answers <-> fields -------------------------------------------------------------
    def initial_from(self, answers: dict[str, Any]) -> dict[str, Any]:
        section = answers.get(self.section)
        if not isinstance(section, dict):
            return {}
        return {name: _to_field(value) for name, value in section.items() if name in self.fields}

    def section_value(self) -> Any:
        """The section built from the fields that converted; blank fields are left out."""
        out: dict[str, Any] = {}
        for name in self.fields:
            if name == "version" or name not in self.cleaned_data:
                continue
            value = _from_field(self.cleaned_data[name])
            if value is None:
                if name in self.nullable and self._was_given(name):
                    out[name] = None
                continue
            out[name] = value
        return out

    @property
    def nullable(self) -> frozenset[str]:
        """Fields whose empty value means JSON null rather than "not answered" (the answers
        schema says which)."""
        return schema.nullable_fields(self.section)

    def _was_given(self, name: str) -> bool:
        # A blank optional number the person saw and left empty means "no target" (null).
        return self.is_bound and name in self.data

    def field_for(self, path: str) -> str | None:
        """The form field an engine problem path points at, if any."""
        prefix = self.section + "."
        if path.startswith(prefix):
            name = path[len(prefix) :].split(".")[0].split("[")[0]
            return name if name in self.fields else None
        return None

    def owns(self, path: str) -> bool:
        return path == self.section or path.startswith((self.section + ".", self.section + "["))


def _to_field(value: Any) -> Any:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return value


def _from_field(value: Any) -> Any:
    if value in ("", None, []):
        return None
    if value == "yes":
        return True
    if value == "no":
        return False
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        # 24.0 hours is 24 in the document; keeps the JSON tidy and types stable.
        return int(value)
    return value
