"""The what-if can change the answers that exclude options, where the users and
data are and data residency, not only latency and modes; refused combinations are named at the
field in the reader's language, nothing typed is lost, never a 500."""

from __future__ import annotations

import copy
import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from advisor.decisions import evaluation
from advisor.models import Report
from tests.advisor.test_what_if import HTMX, _data, _first, _report, _url

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-TW"}


@pytest.fixture
def owner(client: Client) -> Any:
    from tests.factories import MembershipFactory

    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _expected(report: Report, change: dict[str, dict[str, Any]]) -> dict[str, Any]:
    answers = copy.deepcopy(report.answers)
    for section, values in change.items():
        answers[section].update(values)
    return dict(evaluation.evaluate_like(answers, report.result, language="en"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("language", "regions", "residency"),
    [
        ("en", "Where your users and data are", "Data residency"),
        ("zh-hant", "您的使用者與資料所在地", "資料落地要求"),
    ],
)
def test_the_what_if_offers_regions_and_data_residency_filled_from_the_reports_answers(
    client: Client, owner: Any, language: str, regions: str, residency: str
) -> None:
    report = _report(owner)
    accept = ZH if language == "zh-hant" else {}
    page = client.get(
        reverse("advisor:report", kwargs={"pk": report.assessment_id, "number": 1}), **accept
    )
    form = html.unescape(page.text.split('id="what-if"', 1)[1].split("</form>", 1)[0])
    # The starter's team is in Hong Kong and Singapore, with no residency rule.
    assert re.search(r'name="regions" value="hong_kong"[^>]*checked', form)
    assert re.search(r'name="regions" value="singapore"[^>]*checked', form)
    assert not re.search(r'name="regions" value="europe"[^>]*checked', form)
    assert re.search(r'<option value="none" selected', form)
    assert regions in form and residency in form


def test_moving_the_team_to_europe_changes_the_cards_in_the_panel(
    client: Client, owner: Any
) -> None:
    report = _report(owner)
    response = client.post(_url(report), _data(report, regions=["europe"]), **HTMX)
    assert response.status_code == 200 and "<html" not in response.text
    expected = _expected(report, {"organization": {"regions": ["europe"]}})
    before = _first(report.result, "fine_tuning")  # type: ignore[arg-type]
    after = _first(expected, "fine_tuning")
    assert before != after
    text = html.unescape(response.text)
    assert before in text and after in text
    assert Report.objects.filter(assessment=report.assessment).count() == 1


def test_on_premises_only_data_moves_the_recommendation_on_premises(
    client: Client, owner: Any
) -> None:
    report = _report(owner)
    data = _data(report, data_residency="on_premises_only", allowed_modes=["on_premises"])
    response = client.post(_url(report), data, **HTMX)
    assert response.status_code == 200
    panel = response.text.split('id="what-if-panel"', 1)[1]
    assert "The recommendation changes" in panel
    assert "On premises" in html.unescape(panel)


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_on_premises_only_data_with_cloud_modes_is_refused_at_the_residency_field(
    client: Client, owner: Any, language: str
) -> None:
    report = _report(owner)
    accept = ZH if language == "zh-hant" else {}
    data = _data(report, data_residency="on_premises_only")
    # Without JavaScript: the whole page, 422, the message at the field, the choice kept.
    response = client.post(_url(report), data, **accept)
    assert response.status_code == 422
    message = re.search(r'id="errors-whatif-data_residency">([^<]+)<', response.text)
    assert message, "the residency field names the problem"
    expected = "僅限自有機房" if language == "zh-hant" else "Data that must stay on your premises"
    assert expected in html.unescape(message.group(1))
    assert re.search(r'<option value="on_premises_only" selected', response.text)
    # With htmx: the message travels out of band to the same field.
    partial = client.post(_url(report), data, **HTMX, **accept)
    assert partial.status_code == 200
    assert re.search(r'id="errors-whatif-data_residency" hx-swap-oob="true">[^<]+<', partial.text)


def test_no_region_at_all_and_an_unknown_residency_get_field_errors_not_a_500(
    client: Client, owner: Any
) -> None:
    report = _report(owner)
    data = _data(report, data_residency="on_the_moon")
    del data["regions"]
    response = client.post(_url(report), data)
    assert response.status_code == 422
    assert re.search(r'id="errors-whatif-regions">[^<]+<', response.text)
    assert re.search(r'id="errors-whatif-data_residency">[^<]+<', response.text)


def test_saving_a_what_if_with_other_regions_keeps_them_on_the_version(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    report = _report(owner)
    with django_capture_on_commit_callbacks(execute=False):
        client.post(
            _url(report, "report_what_if_save"),
            _data(report, regions=["tokyo"], data_residency="in_region"),
        )
    saved = Report.objects.get(assessment=report.assessment, number=2)
    assert saved.answers["organization"]["regions"] == ["tokyo"]
    assert saved.answers["deployment"]["data_residency"] == "in_region"
    assert saved.origin == Report.Origin.WHAT_IF
