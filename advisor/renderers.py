"""A form renderer for forms with many widgets: Django's own, with the common inputs and selects
built in Python. The wizard's step forms, the what-if form and the admin's scoring-model criteria
use it; nothing here knows which form it renders."""

from __future__ import annotations

from typing import Any

from django.forms.renderers import DjangoTemplates
from django.utils.formats import localize
from django.utils.html import conditional_escape


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


class FastRenderer(DjangoTemplates):
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


FAST_RENDERER = FastRenderer()
