"""Sentences whose figures must agree with themselves (found on the media transcription
starter, 2026-12-05): a fixed price whose break-even is over 100% "never pays off", not "under
the 256% break-even"; a cost per million tokens under a dollar is not written "$0"; an indicative
first price that ranks first on a tie-breaker does not claim the firm price "costs over 25%
more" when that price is the cheaper one."""

from __future__ import annotations

import re
from typing import Any

import pytest

from advisor.engine import evaluate, load_catalog, load_scoring_model
from advisor.starters import STARTERS

CATALOG = load_catalog()
SCORING = load_scoring_model()
LANGS = ("en", "zh-hant")


def _results(lang: str) -> list[dict[str, Any]]:
    return [evaluate(s.document(), CATALOG, SCORING, lang=lang) for s in STARTERS]


def _numbers(text: str) -> list[float]:
    return [float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text)]


@pytest.mark.parametrize("lang", LANGS)
def test_no_break_even_over_100_percent_is_called_a_threshold(lang: str) -> None:
    seen = 0
    for result in _results(lang):
        reason = result["recommendation"]["billing_reason"] or ""
        for pct in re.findall(r"(\d[\d,]*)%", reason):
            if float(pct.replace(",", "")) > 100:
                seen += 1
                assert ("never pays off" if lang == "en" else "永遠不划算") in reason, reason
                assert "under the" not in reason and "低於" not in reason, reason
    assert seen, "no starter has a fixed price dearer than a month of hours any more"


@pytest.mark.parametrize("lang", LANGS)
def test_a_switched_mode_never_costs_zero_dollars(lang: str) -> None:
    for result in _results(lang):
        for w in result["workloads"]:
            reason = (w.get("mode_decision") or {}).get("reason") or ""
            assert not re.search(r"\$0(?![.,\d])", reason), reason


@pytest.mark.parametrize("lang", LANGS)
def test_an_indicative_first_price_never_claims_a_cheaper_firm_price_costs_more(
    lang: str,
) -> None:
    claim = "costs over 25%" if lang == "en" else "貴了超過 25%"
    close = "within 25%" if lang == "en" else "相差不到 25%"
    seen_close = 0
    for result in _results(lang):
        for note in result["cost"]["notes"]:
            if claim in note:
                first, firm = _costs(note, lang)
                assert firm > first * 1.25, note
            if close in note:
                seen_close += 1
                first, firm = _costs(note, lang)
                assert firm <= first * 1.25, note
    assert seen_close, "no starter meets the tie-breaker case any more"


def _costs(note: str, lang: str) -> tuple[float, float]:
    # The two "<cost> USD" / "<cost> 美元" figures, first option then firm price.
    unit = "USD" if lang == "en" else "美元"
    found = [float(n.replace(",", "")) for n in re.findall(rf"([\d,]+\.\d+) {unit}", note)]
    assert len(found) == 2, note
    return found[0], found[1]
