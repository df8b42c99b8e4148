from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from advisor import labels
from advisor.labels import label_for, modes_text, price_page, usd
from advisor.languages import engine_language
from advisor.permissions import can_read_reference

register = template.Library()


@register.filter
def choice_label(value: Any, group: str) -> Any:
    """The translated label of an answer value, e.g. "public_cloud"|choice_label:"mode"."""
    return label_for(group, value)


@register.filter
def modes_label(value: Any) -> str:
    """A house server's modes in words: ["dedicated_hosting", "bare_metal"]|modes_label."""
    return modes_text(value)


@register.filter
def accelerator_label(value: Any) -> Any:
    return {"gpu": _("GPU"), "tpu": _("TPU"), "cpu": _("CPU")}.get(value, value)


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


register.filter(usd)


@register.filter
def billing_label(value: Any) -> Any:
    """The translated name of a billing slot or plan ("on_demand", "commit_1y", "purchase")."""
    from advisor.charts.results import BILLING_LABELS
    from advisor.engine.pricing.billing import BILLING_TO_SLOT

    if value in BILLING_LABELS:
        return BILLING_LABELS[value]
    # A workload's billing is an answer-side plan ("committed_3y"), a price's a slot ("commit_3y");
    # either is named by its label, never by its code.
    slot = BILLING_TO_SLOT.get(value)
    if slot in BILLING_LABELS:
        return BILLING_LABELS[slot]
    label = label_for("billing", value)
    return capfirst(label_for("any", value) if label == value else label)


@register.filter
def per_result(value: Any) -> str:
    """A (usd, per) cost per result as the report words it: "$8.32 per million tokens"."""
    from advisor.reporting.options import per_result_text

    if not value:
        return "—"
    return per_result_text(value[0], value[1])


@register.filter
def number(value: Any, digits: int = 0) -> str:
    try:
        return f"{float(value):,.{int(digits)}f}"
    except (TypeError, ValueError):
        return "—"


@register.filter
def region_text(region: Any) -> str:
    """Where an offer is, its place in the page's language ("ap-southeast-1（新加坡）")."""
    return labels.region_text(region)


@register.filter
def catalog_text(text: Any) -> str:
    """A note or provider name of the bundled catalog in the page's language."""
    return labels.catalog_text(text)


@register.filter
def provider_price_page(provider: Any) -> str:
    """A provider's price page as a customer checks it (never the research-note source)."""
    return price_page(str(provider or ""))


@register.filter
def with_pilot(workloads: Any) -> list[Any]:
    """The result's workloads that carry a pilot, in order."""
    try:
        return [w for w in workloads if isinstance(w, dict) and w.get("pilot")]
    except TypeError:
        return []


def _chinese() -> bool:
    return engine_language() == "zh-hant"


@register.simple_tag
def colon() -> str:
    """The colon before a detail in running text: ": " in English, the full-width "：" (no
    space) in Chinese, as the engine's own sentences write it."""
    return "：" if _chinese() else ": "


@register.filter
def paren(value: Any) -> Any:
    """A detail in brackets after the text before it: " (…)" in English, "（…）" in Chinese.
    Empty values give nothing."""
    if value in (None, ""):
        return ""
    return format_html("（{}）" if _chinese() else " ({})", value)


@register.filter
def nowrap_date(value: Any) -> Any:
    """A date ("2026-12-01") kept whole on one line: a narrow cell or the PDF may wrap before or
    after it but never at its hyphens. report-nowrap serves the PDF (report.css only), text-nowrap
    the pages that load Bootstrap. Empty values pass through, so `|default:` still applies."""
    if value in (None, ""):
        return value
    return format_html('<span class="report-nowrap text-nowrap">{}</span>', value)


_COUNT = re.compile(r" × (?=\d)")


@register.filter
def keep_counts(text: Any) -> Any:
    """An engine sentence with every "card × count" kept on one line ("NVIDIA RTX 6000 Ada
    Generation × 12"): the space before and after the sign never breaks, so a narrow page or
    the PDF wraps before the card's name, never between the sign and its number."""
    if not isinstance(text, str):
        return text
    return _COUNT.sub("\u00a0×\u00a0", text)


# What a person types or a tool names in a message: an option ("--max-concurrency"), a file
# ("profile_export_genai_perf.csv"), a module ("sglang.bench_serving"), a field of the tool's
# output ("max_concurrency") or a tool ("trtllm-bench").
_CODE_TOKEN = re.compile(
    r"(?<![\w/.-])(?:--[a-z][\w-]*|[\w-]+(?:\.[\w-]+)*\.(?:jsonl?|csv)"
    r"|[a-z][a-z0-9]*(?:\.[a-z_][a-z0-9_]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+"
    r"|[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+)(?![\w-])"
)


@register.filter
def code_words(text: Any) -> SafeString:
    """A plain message with its options, file names and fields set as code that never wraps,
    so a narrow screen breaks the sentence between words, not inside "--max-concurrency" at
    its hyphens. The text is escaped first."""
    return mark_safe(  # noqa: S308 - built from escaped text and a fixed tag only.
        _CODE_TOKEN.sub(
            lambda m: f'<code class="text-nowrap">{m.group(0)}</code>', escape(str(text or ""))
        )
    )


@register.filter
def command_parts(command: Any) -> list[str]:
    """A shell command in the pieces a narrow screen may wrap between: its words, each option
    kept with its value ("--max-concurrency 32"), so a line never breaks inside a flag's name
    at a hyphen or between a flag and its value (the pieces join back with single spaces)."""
    parts: list[str] = []
    for word in str(command or "").split(" "):
        if (
            parts
            and parts[-1].startswith("-")
            and " " not in parts[-1]
            and not word.startswith("-")
        ):
            parts[-1] += " " + word
        else:
            parts.append(word)
    return parts


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def billing_short_label(value: Any) -> Any:
    from advisor.charts.results import BILLING_SHORT_LABELS

    return BILLING_SHORT_LABELS.get(value, value)


@register.simple_tag(takes_context=True)
def reads_models(context: template.Context) -> bool:
    """Whether the user reads scoring models and the catalog: the same rule as the pages
    (permissions.can_read_reference), with the memberships the page holds already. Pages
    rendered without a request (error pages) have neither and read nothing."""
    user = context.get("user")
    if user is None:
        return False
    return can_read_reference(user, memberships=context.get("user_memberships") or ())
