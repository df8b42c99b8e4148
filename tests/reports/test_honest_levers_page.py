"""Honest levers through the report page: the "would change if" flip to TPU for an int8 SGLang
team says to serve in bf16 as well (no TPU serves int8 under SGLang), in both languages."""

from __future__ import annotations

import pytest

from tests.engine.test_honest_levers import BF16, TPU, _team
from tests.reports.test_dead_end_report import _report, _url, squash

pytestmark = pytest.mark.django_db

JAX = {
    "en": "primary framework were JAX instead of PyTorch",
    "zh-hant": "主要框架為「JAX」（而非「PyTorch」）",
}


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_the_report_states_the_tpu_lever_with_bf16(language: str) -> None:
    client, report = _report(_team("sglang", "int8"), language)
    page = squash(client.get(_url(report)).content.decode())
    lever = page[page.index(JAX[language]) :][:400]
    assert BF16[language].format(old="INT8") in lever
    assert TPU[language] in lever
