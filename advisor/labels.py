"""The label table (advisor/engine/text/labels.py) in the active language, for forms, model choices,
templates and the report; and how they write a provider's price page and a dollar amount.

The table holds both languages itself, so these labels need no gettext catalog entry: a lazy
string picks its language when it is rendered, as gettext_lazy would.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext

from advisor.engine.text import clouds, i18n, labels
from advisor.languages import engine_language


def _shown(group: str, value: Any) -> str:
    return labels.shown(group, value, engine_language())


_lazy_shown = lazy(_shown, str)


def label_for(group: str, value: Any) -> Any:
    """`value`'s label in `group` in the active language; the value itself when it has none."""
    if labels.GROUPS.get(group, {}).get(str(value)) is None:
        return value
    return _lazy_shown(group, value)


def modes_text(modes: Any) -> str:
    """The modes a house server is sold in, in the active language: "Dedicated hosting or bare
    metal" (the report, its PDF and the quote name them in words)."""
    text = i18n.deployment_words([str(m) for m in modes or ()], engine_language())
    return text[:1].upper() + text[1:]


def region_text(region: Any) -> str:
    """Where an offer is, in the active language: the provider's region code kept, its place
    named in the reader's language ("ap-southeast-1（新加坡）"); an operator's own words as
    entered (advisor/engine/text/i18n.py region_text)."""
    return i18n.region_text(str(region or ""), engine_language())


def catalog_text(text: Any) -> str:
    """A note or provider name of the bundled catalog in the active language; an admin's own
    text as written."""
    return i18n.catalog_text(str(text or ""), engine_language())


def _question(path: str) -> str:
    return i18n.field_question(path, engine_language())


_lazy_question = lazy(_question, str)


def question_for(path: str) -> Any:
    """How the wizard asks for an answer path (the engine's one field-label table), in the
    active language: the label of its form field, the what-if's and the report's levers'."""
    return _lazy_question(path)


def _help(path: str, what_if: bool) -> str:
    return i18n.field_help(path, engine_language(), what_if=what_if)


_lazy_help = lazy(_help, str)


def help_for(path: str, *, what_if: bool = False) -> Any:
    """The help text the field registry gives an answer path, in the active language: under the
    wizard's question, or (`what_if`) under the report's what-if field."""
    return _lazy_help(path, what_if)


def choices(group: str, values: tuple[str, ...]) -> list[tuple[str, str | Promise]]:
    return [(v, label_for(group, v)) for v in values]


# What a criterion scores: the accelerator families, then the deployment modes.
OPTION_CHOICES = choices("accelerator", ("gpu", "tpu")) + choices(
    "mode", tuple(labels.GROUPS["mode"])
)


def price_page(provider: str) -> str:
    """Where a customer checks a provider's price, in the active language: a named cloud's own
    price page (advisor/engine/text/clouds.py), any other provider's "<provider> price list". The
    research-note source of each price stays on /catalog/."""
    cloud = clouds.BY_NAME.get(provider)
    if cloud is not None:
        return cloud.price_page_zh if engine_language() == "zh-hant" else cloud.price_page_en
    name = i18n.catalog_text(provider, engine_language()) if provider else gettext("Provider")
    return gettext("%(provider)s price list") % {"provider": name}


def usd(value: Any) -> str:
    """US dollars for tables: whole dollars from $100, cents below; "—" when unknown."""
    try:
        amount = float(value)
    except (TypeError, ValueError):
        return "—"
    return f"${amount:,.0f}" if abs(amount) >= 100 else f"${amount:,.2f}"
