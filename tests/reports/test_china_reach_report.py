"""China reach through the report: a team serving mainland China reads, in its own
language, what the border adds to its first option's time to first token - the round trip over
the option's path, the figure it comes from and whether it is measured, the allowance for the
evening-peak loss and whether the target holds."""

from __future__ import annotations

import pytest

from tests.engine.test_expert_cases import SHENZHEN_CHATBOT
from tests.reports.test_dead_end_report import LANGUAGES, _report, _url, squash

pytestmark = pytest.mark.django_db

WORDS = {
    "en": (
        "for users in mainland China: the time to first token counts a 90 ms round trip",
        "Round trip to mainland China from Tokyo (internet), estimated",
        "290 ms for a packet lost at the evening peak",
        "measured, 2020-03-02",
        "380 ms in all",
    ),
    "zh-hant": (
        "（中國大陸用戶）：首個詞元時間計入",
        "東京至中國大陸往返延遲（一般網路），估計",
        "晚間尖峰封包遺失的 290 毫秒",
        "實測，2020-03-02",
        "合計 380 毫秒",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_report_says_what_the_border_adds_to_the_time_to_first_token(language: str) -> None:
    client, report = _report(SHENZHEN_CHATBOT, language)
    assert report.result is not None
    (first,) = report.result["workloads"][0]["options"][:1]
    assert first["china_reach"]["added_ms"] == 380.0
    page = squash(client.get(_url(report)).content.decode())
    for words in WORDS[language]:
        assert words in page, words
