"""The label table (advisor/engine/labels.py) in the active language, for forms, model choices,
templates and the report.

The table holds both languages itself, so these labels need no gettext catalog entry: a lazy
string picks its language when it is rendered, as gettext_lazy would.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _lazy

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


# The provider's own price page, by provider as the catalog names it; any other provider's is
# "<provider> price list". The research-note source of each price stays on /catalog/.
PRICE_PAGES = {
    "AWS": _lazy("AWS EC2 price list"),
    "Google Cloud": _lazy("Google Cloud GPU price list"),
    "Azure": _lazy("Azure virtual machines price list"),
}


def price_page(provider: str) -> str:
    """Where a customer checks a provider's price, in the active language: its price page."""
    page = PRICE_PAGES.get(provider)
    if page is not None:
        return str(page)
    return gettext("%(provider)s price list") % {"provider": provider or gettext("Provider")}
