"""The billing reason names the way of paying in words, never a raw label:
"monthly fixed: real-time inference keeps its devices busy …" read like a form's key."""

from __future__ import annotations

import re

import pytest

from advisor.engine import evaluate, load_catalog, load_scoring_model
from advisor.engine.text.labels import GROUPS
from advisor.starters import STARTERS

CATALOG = load_catalog()
SCORING = load_scoring_model()
# How the reasons may open, per language.
OPENINGS = {
    "en": (
        "Paid by the hour",
        "A fixed monthly price",
        "A 1-year",
        "A 3-year",
        "Dedicated",
        "Owned",
        "You prefer",
        "At ",
        "Use above",
    ),
    "zh-hant": (
        "按小時付費",
        "依您的要求按小時付費",
        "固定月費",
        "一年期",
        "三年期",
        "專屬",
        "自有",
        "您偏好",
        "在 ",
        "每月使用率",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
@pytest.mark.parametrize("starter", STARTERS, ids=lambda s: s.slug)
def test_the_billing_reason_opens_with_words_not_a_label(starter: object, lang: str) -> None:
    result = evaluate(starter.answers, CATALOG, SCORING, lang=lang)  # type: ignore[attr-defined]
    reason = result["recommendation"]["billing_reason"]
    assert reason.startswith(OPENINGS[lang]), reason
    raw = {label.in_text(lang) for label in GROUPS["billing"].values()} | {"on-demand", "隨需計費"}
    assert not any(reason.startswith(f"{r}:") or reason.startswith(f"{r}：") for r in raw)
    first = re.split(r"(?<=[.。])\s", reason)[0]
    assert "break-even of" not in first and "損益平衡點" not in first, first
    # The statement of what was asked names the way of paying in words too.
    assert "monthly fixed" not in reason and not re.search(r"(^|\. )[a-z-]+ inference: ", reason)
