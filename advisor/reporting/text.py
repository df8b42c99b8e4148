"""Report wording helpers: engine and catalog text as a customer reads it (no research-note
references, no EST/DER tags), numbers as the report writes them, the glossary."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from django.utils.translation import gettext as _

# Research-note references ("sizing.md A3", "deployment_costs.md 1c: …") and the catalog's
# estimate/derived tags are ours, not the customer's: the report drops them (the admin and
# /catalog/ pages keep the provenance).
_NOTE_REF = re.compile(
    # "(sizing.md B4, B8)", "(offers_hk_tokyo_la.json rows 30 and 38)"
    r"\s*[(（]\s*(?:shared/reference/)?[\w./-]+\.(?:md|json)\b[^)）]*[)）]"
    # "，deployment_costs.md 第 2 節" at the end of a parenthesis
    r"|\s*[,，]\s*[\w-]+\.md(?:\s*第?\s*[\w.§]+\s*節?)?(?=\s*[)）])"
    # "shared/reference/sizing.md B2 (Transformer Math 101): …", "deployment_costs.md 1c: …"
    r"|(?:shared/reference/)?\b[\w-]+\.md\b(?:\s+[§\w./-]*\d[\w./-]*)?(?:\s*\([^)]*\))?"
    r"(?:\s*[:：]\s*|\s*(?=[)）,;]))"
)


_TAG = re.compile(
    r"\s*[(（](?:EST|DER|not in the reference)[)）]"  # "(EST)"
    r"|,\s*(?:EST|DER)\b(?=[)）,.;\s]|$)"  # "…, EST)"
    r"|(?:^|(?<=[(（]))(?:EST|DER)\b[:\s]*(?:from\s+)?"  # "EST: …", "(DER from …"
)


def customer_text(text: str) -> str:
    """Engine or catalog text as a customer reads it: no research-note references, no
    EST/DER tags."""
    text = _NOTE_REF.sub("", str(text))
    text = _TAG.sub("", text)
    return re.sub(r"\s{2,}", " ", text).strip()


def percent(value: Any) -> str:
    try:
        return f"{float(value) * 100:.0f}%"
    except (TypeError, ValueError):
        return "—"


def ms_text(value: Any) -> str:
    try:
        amount = float(value)
    except (TypeError, ValueError):
        return "—"
    return f"{amount:,.0f}" if amount >= 10 else f"{amount:,.1f}"


def mbps(value: Any) -> str:
    amount = float(value)
    return f"{amount:,.2f} Mbps" if amount < 10 else f"{amount:,.0f} Mbps"


def aside(text: Any) -> str:
    # Brackets as the language writes them: (…) in English, full-width （…） in Chinese.
    return _("(%(text)s)") % {"text": text} if text else ""


def parse_date(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def glossary_rows() -> list[tuple[str, str]]:
    return [
        (
            _("On-demand"),
            _("Rented by the hour with no commitment; the most flexible and dearest rate."),
        ),
        (
            _("Commitment"),
            _("A 1- or 3-year promise to pay for the cards, in exchange for a lower rate."),
        ),
        (
            _("Spot"),
            _("Spare capacity at a discount that the provider can take back at short notice."),
        ),
        (
            _("Break-even"),
            _("How busy the cards must be for a cheaper fixed price to beat paying by the hour."),
        ),
        (
            _("Time to first token"),
            _("How long a user waits before the answer starts to appear."),
        ),
        (
            _("Tensor parallel"),
            _("One copy of the model split across several cards that work together."),
        ),
        (
            _("MFU"),
            _("The share of the cards' peak arithmetic that a training run actually uses."),
        ),
        (
            _("Confidence"),
            _("How clearly the recommendation beats the alternatives on your answers."),
        ),
    ]


def rationale_of(explanation: str) -> str:
    """The why of a reason, without the label, weight and points its other columns show
    (the engine writes "label: value (weight w) → points. why")."""
    _head, arrow, tail = explanation.partition("→")
    if not arrow:
        return explanation
    for stop in (". ", "。"):
        _points, found, why = tail.partition(stop)
        if found and why.strip():
            return why.strip()
    return explanation
