"""The walk's rough edges in the report's words: no raw labels, no empty
placeholders, the billing reason in plain words, in both languages."""

from __future__ import annotations

import re
from typing import Any

import pytest

from advisor.models import Report
from advisor.starters import BY_SLUG as STARTERS
from tests.reports.generated import generated_report, submitted_assessment

pytestmark = pytest.mark.django_db


def _report(slug: str, language: str, answers: dict[str, Any] | None = None) -> Report:
    answers = answers or STARTERS[slug].document()
    _membership, obj = submitted_assessment(answers=answers, title="Edges")
    return generated_report(obj, language=language, answers=answers)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_a_team_without_a_budget_reads_its_monthly_total_without_an_empty_budget(
    language: str,
) -> None:
    report = _report("realtime-chatbot", language)  # monthly_budget_usd is None
    text = _text(report.html)
    assert "budget —" not in text and "預算 —" not in text
    total = "Estimated monthly total:" if language == "en" else "估計每月總額："
    assert total in text


def test_chinese_pages_group_numbers_in_thousands_and_write_dates_in_words() -> None:
    from datetime import date

    from django.utils import formats, translation

    with translation.override("zh-hant"):
        assert formats.number_format(12000, force_grouping=True) == "12,000"
        assert formats.number_format(1234567.5, 1, force_grouping=True) == "1,234,567.5"
        assert formats.date_format(date(2026, 12, 5)) == "2026年12月5日"


def test_chinese_text_addresses_the_reader_one_way() -> None:
    """您 throughout: the message catalog and the engine's Chinese text."""
    from pathlib import Path

    from advisor.engine.answers import fields
    from advisor.engine.text.messages import CATALOG_TEXT, MESSAGES

    po = Path(__file__).resolve().parents[2] / "advisor/locale/zh_Hant/LC_MESSAGES/django.po"
    informal = [line for line in po.read_text(encoding="utf-8").splitlines() if "你" in line]
    assert informal == []
    engine = [
        key
        for table in (MESSAGES, fields.labels(), fields.questions(), fields.helps(), CATALOG_TEXT)
        for key, text in table.items()
        if "你" in str(text)
    ]
    assert engine == []
