"""The label table (advisor/engine/labels.py) in the active language, for forms, model choices,
templates and the report.

The table holds both languages itself, so these labels need no gettext catalog entry: a lazy
string picks its language when it is rendered, as gettext_lazy would.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.functional import Promise, lazy

from advisor.engine import labels


def _shown(group: str, value: Any) -> str:
    # decisions.engine_language's rule; models import this module, so it cannot import decisions.
    language = (translation.get_language() or "en").lower()
    return labels.shown(group, value, "zh-hant" if language.startswith("zh") else "en")


_lazy_shown = lazy(_shown, str)


def label_for(group: str, value: Any) -> Any:
    """`value`'s label in `group` in the active language; the value itself when it has none."""
    if labels.GROUPS.get(group, {}).get(str(value)) is None:
        return value
    return _lazy_shown(group, value)


def choices(group: str, values: tuple[str, ...]) -> list[tuple[str, str | Promise]]:
    return [(v, label_for(group, v)) for v in values]


# What a criterion scores: the accelerator families, then the deployment modes.
OPTION_CHOICES = choices("accelerator", ("gpu", "tpu")) + choices(
    "mode", tuple(labels.GROUPS["mode"])
)
