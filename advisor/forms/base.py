"""What every wizard form is built from: the field builders (choices in the user's language,
numbers typed with thousands separators), the renderer that builds common widgets in Python, and
the step form base class that maps one section of the answers document onto fields and back.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.translation import gettext_lazy as _

from advisor.engine import schema as SCH
from advisor.labels import choices

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


def _html_text(value: Any) -> str:
    # What `{{ value }}` prints in a template: localised, then escaped unless already safe.
    return str(conditional_escape(localize(value)))


def _html_attrs(attrs: dict[str, Any]) -> str:
    # django/forms/widgets/attrs.html
    return "".join(
        f" {_html_text(name)}" + ("" if value is True else f'="{_html_text(str(value))}"')
        for name, value in attrs.items()
        if value is not False
    )


def _html_input(widget: dict[str, Any]) -> str:
    # django/forms/widgets/input.html, included from text.html and hidden.html (stripped, as
    # Django's renderers strip what the templates give)
    value = "" if widget["value"] is None else f' value="{_html_text(str(widget["value"]))}"'
    return (
        f'<input type="{_html_text(widget["type"])}" name="{_html_text(widget["name"])}"{value}'
        f"{_html_attrs(widget['attrs'])}>"
    )


SELECT_OPTION = "django/forms/widgets/select_option.html"


def _html_select(widget: dict[str, Any]) -> str | None:
    # django/forms/widgets/select.html with select_option.html
    out = [f'<select name="{_html_text(widget["name"])}"{_html_attrs(widget["attrs"])}>']
    for group_name, group_choices, _index in widget["optgroups"]:
        if group_name:
            out.append(f'\n  <optgroup label="{_html_text(group_name)}">')
        for option in group_choices:
            if option["template_name"] != SELECT_OPTION:
                return None
            value, attrs = _html_text(str(option["value"])), _html_attrs(option["attrs"])
            out.append(
                f'\n  <option value="{value}"{attrs}>{_html_text(option["label"])}</option>\n'
            )
        if group_name:
            out.append("\n  </optgroup>")
    out.append("\n</select>")
    return "".join(out)


# Widget templates that only include django/forms/widgets/input.html.
INPUT_TEMPLATES = frozenset(
    f"django/forms/widgets/{name}.html" for name in ("text", "hidden", "number", "checkbox")
)


class WizardRenderer(DjangoTemplates):
    """Django's form renderer, with text, number and hidden inputs, checkboxes and selects
    built in Python: a step page has up to a dozen, and each costs two to eleven template
    renders (0.2-0.5 ms); a scoring model's criteria table in the admin has a hundred and a
    select of 23 answers per row. The markup is Django's own, byte for byte: tests/advisor/
    test_step_form_markup.py compares every step form and the criteria table with what
    Django's templates give."""

    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        html: str | None = None
        if template_name in INPUT_TEMPLATES:
            html = _html_input(context["widget"])
        elif template_name == "django/forms/widgets/select.html":
            html = _html_select(context["widget"])
        if html is None:
            return super().render(template_name, context, request)
        return html


WIZARD_RENDERER = WizardRenderer()


class StepForm(forms.Form):
    """One wizard step; `section` is the top-level key of the answers document it edits."""

    default_renderer = WIZARD_RENDERER
    section: ClassVar[str]

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

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
        return SCH.nullable_fields(self.section)

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
