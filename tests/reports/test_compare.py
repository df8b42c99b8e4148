"""Compare two report versions: what changed in the answer (cards, counts, where, billing, cost,
time and latency per workload) and which answers changed, named as the wizard names them."""

from __future__ import annotations

import copy
import re

import pytest
from django.test import Client
from django.urls import reverse

from advisor.charts.results import chosen_option, option_token_cost
from advisor.engine.text import i18n
from advisor.models import Report
from advisor.reporting.compare import what_if_comparison
from advisor.starters import BY_SLUG as STARTERS
from advisor.templatetags.advisor_tags import per_result
from tests.reports.generated import generated_report, submitted_assessment

pytestmark = pytest.mark.django_db


def _rows(html: str, heading: str) -> list[str]:
    """The text of every table row headed `heading`."""
    rows = re.findall(r"<th scope=\"row\">" + re.escape(heading) + r".*?</tr>", html, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)) for row in rows]


def _serving(report: Report) -> tuple[str, str]:
    """The serving workload's first option as the compare page should name it: card × count
    and its monthly cost."""
    result = report.result
    (workload,) = [w for w in result["workloads"] if w["kind"] == "realtime_inference"]
    option = chosen_option(result, workload)
    assert option is not None
    return f"{option['name']} × {option['count']}", f"${option['monthly_cost_usd']:,.0f}"


def test_a_quieter_service_reads_as_a_change_of_card_count_and_cost() -> None:
    answers = STARTERS["llm-fine-tuning-startup"].document()
    membership, obj = submitted_assessment(answers=answers, title="Compare")
    busy = _serving(generated_report(obj, number=1, answers=answers))
    quieter = copy.deepcopy(answers)
    quieter["inference"].update(concurrent_sequences=1, tokens_per_day=1_000_000)
    quiet = _serving(generated_report(obj, number=2, answers=quieter))
    assert busy != quiet  # the premise: 32 sessions need other hardware than one
    client = Client()
    client.force_login(membership.user)
    page = client.get(reverse("advisor:compare", kwargs={"pk": obj.pk}) + "?a=1&b=2").text
    # The serving workload's first option changed; the training one did not.
    assert busy[0] in page and quiet[0] in page
    assert "unchanged" in page  # fine-tuning
    _training, serving = _rows(page, "Monthly cost")
    assert f"{busy[1]} {quiet[1]}" in serving
    # One wording for the cost per result: per million tokens for serving, as the report's plan
    # says it, never the monthly cost again (that has its own row).
    _training_cost, serving_cost = _rows(page, "Cost per result")
    assert "per month" not in serving_cost
    assert re.search(r"\$[\d,.]+ per million tokens \$[\d,.]+ per million tokens", serving_cost)
    assert re.search(r"\$[\d,.]+ per run", _training_cost)
    # The answers that moved, by the wizard's names, with before and after.
    assert "No criterion contributed differently" not in page
    assert "Your answers changed:" in page
    assert re.search(r"Concurrent.*32.*1", page, re.S)
    assert "20,000,000" in page and "1,000,000" in page  # numbers grouped, as on the review page


def test_the_report_compare_and_what_if_word_a_cost_per_result_alike() -> None:
    """The report's plan, the compare page and the what-if's comparison show a serving
    workload's cost per result as one phrase: "$x per million tokens"."""
    answers = STARTERS["llm-fine-tuning-startup"].document()
    membership, obj = submitted_assessment(answers=answers, title="Wording")
    report = generated_report(obj, number=1, answers=answers)
    generated_report(obj, number=2, answers=answers)
    (workload,) = [w for w in report.result["workloads"] if w["kind"] == "realtime_inference"]
    option = chosen_option(report.result, workload)
    assert option is not None
    token_cost, _slot = option_token_cost(option)
    phrase = f"${token_cost:,.2f} per million tokens"
    client = Client()
    client.force_login(membership.user)
    body = report.html or ""
    page = client.get(reverse("advisor:compare", kwargs={"pk": obj.pk}) + "?a=1&b=2").text
    assert phrase in body
    assert f"{phrase} {phrase}" in " ".join(_rows(page, "Cost per result"))
    assert "per month" not in page
    # The what-if's comparison reads the same pair through the same filter.
    what_if = what_if_comparison(report=report.result, what_if=report.result)
    (serving,) = [w for w in what_if["workloads"] if w["kind"] == "realtime_inference"]
    (row,) = [f for f in serving["fields"] if f["field"] == "cost_to_result"]
    assert per_result(row["left"]) == phrase


def test_compare_names_the_catalog_prices_that_changed_and_its_criteria_in_the_pages_language() -> (
    None
):
    """Two versions priced from different catalogs: the page lists the price that moved (card,
    seller, billing, before and after) and counts the others; v1 was generated in English and
    v2 in Chinese, and a Chinese page names every criterion in Chinese."""
    from advisor.reference.models import Catalog, CatalogPrice
    from advisor.reference.services.catalog import catalog_clone, catalog_publish

    answers = STARTERS["llm-fine-tuning-startup"].document()
    membership, obj = submitted_assessment(answers=answers, title="Prices")
    first = generated_report(obj, number=1, answers=answers)
    (workload,) = [w for w in first.result["workloads"] if w["kind"] == "realtime_inference"]
    option = chosen_option(first.result, workload)
    assert option is not None
    used = option["prices"][option["billing_used"]]
    draft = catalog_clone(catalog=Catalog.objects.get(status=Catalog.Status.PUBLISHED), user=None)
    price = CatalogPrice.objects.get(catalog=draft, key=used["price_id"])
    old_hour = price.usd_per_device_hour
    assert old_hour is not None
    price.usd_per_device_hour = old_hour * 2
    price.save()
    CatalogPrice.objects.filter(catalog=draft, key="p001").update(usd_per_device_hour=9.99)
    catalog_publish(catalog=draft, user=None)
    second = generated_report(obj, number=2, language="zh-hant", answers=answers)
    assert second.catalog_version != first.catalog_version

    client = Client()
    client.force_login(membership.user)
    url = reverse("advisor:compare", kwargs={"pk": obj.pk}) + "?a=1&b=2"
    page = client.get(url).text
    assert f"Catalog prices: version {first.catalog_version} → {second.catalog_version}" in page
    (row,) = _rows(page, f"{option['name']} · {used['provider']}")
    assert f"${float(old_hour):,.2f} per device-hour" in row
    assert f"${float(old_hour) * 2:,.2f} per device-hour" in row
    # A price keeps its unit on its line at 1366 px.
    assert f'<span class="text-nowrap">${float(old_hour):,.2f} per device-hour</span>' in page
    # The latency row names its metric without brackets inside brackets.
    assert "Latency: Whole answer on screen (default)</th>" in page
    assert "Latency (" not in page
    assert used["price_id"] != "p001" or "other price" not in page
    # The criteria that moved are named in the page's language, whichever each version used.
    reasons = page[page.index('<th scope="col">Criterion</th>') :] if "Criterion" in page else ""
    assert not re.search(r"[\u4e00-\u9fff]", reasons)

    zh = client.get(url, headers={"accept-language": "zh-hant"}).text
    assert f"目錄價格：版本 {first.catalog_version} → {second.catalog_version}" in zh
    assert "每裝置每小時" in zh
    assert "延遲：完整回答顯示完畢（預設）</th>" in zh
    # Where the price is: the cloud's code kept, the place in Chinese.
    region = used.get("region") or ""
    assert i18n.region_text(region, "zh-hant") in zh
    assert "(" not in i18n.region_text(region, "zh-hant")
    english_labels = {r["label"] for r in first.result["recommendation"]["reasons"]}
    for label in english_labels:
        assert f'<th scope="row">{label}</th>' not in zh
