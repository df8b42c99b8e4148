"""A serving team says what its model works on (text tokens by default, or
images, audio, passages or pairs), gives its volume in that unit, and its report prices the work
per that unit."""

from __future__ import annotations

import copy
import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from advisor.models import Assessment, Report
from advisor.services import reports
from tests.advisor.test_wizard import _new, _post, _url, _zh, member  # noqa: F401
from tests.engine.test_expert_cases import CASES

pytestmark = pytest.mark.django_db

TOKYO = copy.deepcopy(
    next(d for n, d, _c in CASES if n == "tokyo_ecommerce_classifies_200m_product_images_a_day")
)
# The Tokyo shop before the work step: everything but what its model works on.
BEFORE = {k: v for k, v in TOKYO.items() if k != "work"}
IMAGES = {
    "unit": "images",
    "model": "resnet-50",
    "per_day": "200,000,000",
    "p95_latency_ms": "100",
    "peak_to_average": "4",
}


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_a_shop_enters_images_a_day_and_its_report_prices_1000_images(
    client: Client,
    member: Any,  # noqa: F811
) -> None:
    obj = _new(member, BEFORE)
    page = client.get(_url(obj, "work")).text
    assert "What your model works on" in page
    assert re.search(r'value="tokens"[^>]*checked', page)  # text tokens is the default
    response = _post(client, obj, "work", IMAGES)
    assert response.status_code == 302
    obj.refresh_from_db()
    assert obj.answers["work"] == {
        "unit": "images",
        "model": "resnet-50",
        "per_day": 200_000_000,
        "p95_latency_ms": 100,
        "peak_to_average": 4,
    }
    # Sized in images: the token steps (model, inference) are no longer asked.
    assert response["Location"] == _url(obj, "maturity")
    assert client.get(_url(obj, "inference")).status_code == 302
    done = client.post(reverse("advisor:submit", kwargs={"pk": obj.pk}), {"version": obj.version})
    assert done.status_code == 302
    obj.refresh_from_db()
    assert obj.status == Assessment.Status.SUBMITTED
    report = obj.reports.get()  # the submit's report, queued for a worker
    reports.report_generate(report_id=report.pk)  # what the worker does
    report.refresh_from_db()
    assert report.status == Report.Status.DONE
    url = reverse("advisor:report", kwargs={"pk": obj.pk, "number": report.number})
    text = _text(client.get(url).content.decode())
    assert "Serving capacity and cost in your unit" in text
    assert "USD per 1,000 images (compute)" in text
    assert "is sized in images, not tokens" in text and "per 1,000 images all in" in text


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_a_model_for_another_unit_is_refused_at_the_field_in_the_readers_language(
    client: Client,
    member: Any,  # noqa: F811
    language: str,
) -> None:
    obj = _new(member, BEFORE)
    response = _post(
        client, obj, "work", {**IMAGES, "model": "whisper-large-v3-turbo"}, **_zh(language)
    )
    page = client.get(response["Location"], **_zh(language)).text
    words = {
        "en": "Whisper large-v3-turbo does not work on images",
        "zh-hant": "Whisper large-v3-turbo 不處理圖片",
    }[language]
    assert words in html.unescape(page)
    title = {"en": "What your model works on", "zh-hant": "您的模型處理什麼"}[language]
    tokens = {"en": "Text tokens: a language model", "zh-hant": "文字 token：語言模型"}[language]
    assert title in page and tokens in page
    obj.refresh_from_db()
    assert "work" not in obj.answers or obj.answers["work"].get("model") != "whisper-large-v3-turbo"


def test_text_tokens_leave_the_token_steps_as_they_were(
    client: Client,
    member: Any,  # noqa: F811
) -> None:
    obj = _new(member, {**BEFORE, "work": TOKYO["work"]})
    response = _post(client, obj, "work", {"unit": "tokens"})
    obj.refresh_from_db()
    assert "work" not in obj.answers
    assert response["Location"] == _url(obj, "model")
