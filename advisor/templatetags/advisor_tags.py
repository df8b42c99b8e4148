from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from advisor.forms import label_for

register = template.Library()


@register.filter
def choice_label(value: Any, group: str) -> Any:
    """The translated label of an answer value, e.g. "public_cloud"|choice_label:"mode"."""
    return label_for(group, value)


@register.filter
def accelerator_label(value: Any) -> Any:
    return {"gpu": _("GPU"), "tpu": _("TPU")}.get(value, value)


@register.filter
def gib(value: Any) -> str:
    try:
        return f"{float(value):,.1f} GiB"
    except (TypeError, ValueError):
        return "—"


@register.filter
def percent(value: Any) -> str:
    try:
        return f"{float(value) * 100:.0f}%"
    except (TypeError, ValueError):
        return "—"
