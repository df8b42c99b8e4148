from __future__ import annotations

import copy
import html
import re
import time
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from advisor.decisions import evaluation
from advisor.engine.answers.problems import validate
from advisor.models import Assessment, Report
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "what-if-panel"}


@pytest.fixture
def owner(client: Client) -> Any:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _report(membership: Any, **extra: Any) -> Report:
    obj = AssessmentFactory(membership=membership, submitted=True)
    return ReportFactory(assessment=obj, **extra)


def _url(report: Report, name: str = "report_what_if") -> str:
    return reverse(f"advisor:{name}", kwargs={"pk": report.assessment_id, "number": report.number})


def _data(report: Report, **changes: Any) -> dict[str, Any]:
    """The what-if form as the report page fills it, with `changes`."""
    answers = report.answers
    data: dict[str, Any] = {
        "hours_per_day": answers["cost"]["hours_per_day"],
        "tokens_per_day": answers["inference"]["tokens_per_day"],
        "p95_latency_ms": answers["inference"]["p95_latency_ms"] or "",
        "deadline_hours": answers["training"]["deadline_hours"] or "",
        "allowed_modes": list(answers["deployment"]["allowed_modes"]),
        "regions": list(answers["organization"]["regions"]),
        "data_residency": answers["deployment"]["data_residency"],
    }
    data.update(changes)
    return data


def _first(result: dict[str, Any], kind: str) -> str:
    workload = next(w for w in result["workloads"] if w["kind"] == kind)
    entry = next(e for e in result["cost"]["by_workload"] if e["workload"] == kind)
    option = next(o for o in workload["options"] if o["accelerator_id"] == entry["accelerator_id"])
    return f"{option['name']} × {option['count']}"


def _expected(report: Report, section: str, key: str, value: Any) -> dict[str, Any]:
    answers = copy.deepcopy(report.answers)
    answers[section][key] = value
    return evaluation.evaluate_like(answers, report.result, language="en")  # type: ignore[arg-type]


def test_the_report_page_offers_the_what_if_filled_from_the_reports_answers(
    client: Client, owner: Any
) -> None:
    report = _report(owner)
    page = client.get(reverse("advisor:report", kwargs={"pk": report.assessment_id, "number": 1}))
    assert page.status_code == 200
    form = page.text.split('id="what-if"', 1)[1].split("</form>", 1)[0]
    assert f'hx-post="{_url(report)}"' in form
    assert f'action="{_url(report)}#what-if"' in form
    assert f'formaction="{_url(report, "report_what_if_save")}"' in form
    assert 'name="hours_per_day" value="8"' in form
    assert 'name="tokens_per_day" value="20000000"' in form
    assert 'name="deadline_hours" value="24"' in form
    assert re.search(r'value="public_cloud"[^>]*checked', form)
    assert not re.search(r'value="bare_metal"[^>]*checked', form)
    assert "Change a value above to see the result here." in page.text


def test_an_htmx_what_if_returns_the_panel_beside_the_report_and_stores_nothing(
    client: Client, owner: Any
) -> None:
    report = _report(owner)
    before = copy.deepcopy(report.assessment.answers)
    response = client.post(_url(report), _data(report, tokens_per_day="2,000,000,000"), **HTMX)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert response.text.lstrip().startswith('<div id="what-if-panel"')
    expected = _expected(report, "inference", "tokens_per_day", 2_000_000_000)
    card_before = _first(report.result, "realtime_inference")  # type: ignore[arg-type]
    card_after = _first(expected, "realtime_inference")
    assert card_before != card_after  # the scenario is one that moves the answer
    text = html.unescape(response.text)
    assert card_before in text and card_after in text
    assert "The what-if would change if" in text
    # Nothing was written: no report version, the assessment's answers as they were.
    assert Report.objects.filter(assessment=report.assessment).count() == 1
    assert Assessment.objects.get(pk=report.assessment_id).answers == before


def test_without_javascript_the_form_post_returns_the_whole_page_with_the_panel_filled(
    client: Client, owner: Any
) -> None:
    report = _report(owner)
    response = client.post(_url(report), _data(report, hours_per_day="24"))
    assert response.status_code == 200
    assert "<html" in response.text
    assert "Report versions" in response.text  # the rest of the report page is there
    assert 'name="hours_per_day" value="24"' in response.text  # the form shows the what-if
    panel = response.text.split('id="what-if-panel"', 1)[1]
    assert "Monthly cost" in panel
    assert "hx-swap-oob" not in response.text


def test_the_what_if_is_evaluated_with_the_reports_catalog_and_scoring_model(
    client: Client, owner: Any
) -> None:
    report = _report(owner)
    response = client.post(_url(report), _data(report, deadline_hours="6"), **HTMX)
    expected = _expected(report, "training", "deadline_hours", 6)
    assert expected["versions"] == report.result["versions"]  # type: ignore[index]
    assert _first(expected, "fine_tuning") in html.unescape(response.text)


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_a_value_the_engine_refuses_shows_its_message_at_the_field_in_the_readers_language(
    client: Client, owner: Any, language: str
) -> None:
    report = _report(owner)
    accept = {"HTTP_ACCEPT_LANGUAGE": "zh-TW" if language == "zh-hant" else "en"}
    answers = copy.deepcopy(report.answers)
    answers["cost"]["hours_per_day"] = 25
    (problem,) = [p for p in validate(answers) if p.path == "cost.hours_per_day"]
    message = html.escape(problem.message(language))

    page = client.post(_url(report), _data(report, hours_per_day="25"), **accept)
    assert page.status_code == 422
    assert 'name="hours_per_day" value="25"' in page.text  # what was typed is kept
    assert re.search(rf'id="errors-whatif-hours_per_day">{re.escape(message)}<', page.text)

    partial = client.post(_url(report), _data(report, hours_per_day="25"), **HTMX, **accept)
    assert partial.status_code == 200  # htmx swaps 2xx only
    assert re.search(
        rf'id="errors-whatif-hours_per_day" hx-swap-oob="true">{re.escape(message)}<',
        partial.text,
    )


def test_a_word_in_a_number_field_and_no_mode_at_all_get_field_errors_not_a_500(
    client: Client, owner: Any
) -> None:
    report = _report(owner)
    data = _data(report, tokens_per_day="lots")
    del data["allowed_modes"]
    page = client.post(_url(report), data)
    assert page.status_code == 422
    assert 'name="tokens_per_day" value="lots"' in page.text
    assert re.search(r'id="errors-whatif-tokens_per_day">Enter a whole number.<', page.text)
    assert re.search(r'id="errors-whatif-allowed_modes">[^<]+<', page.text)
    assert "Fix the answers marked above to see the result." in page.text


def test_a_blank_latency_target_means_no_target_but_blank_hours_are_required(
    client: Client, owner: Any
) -> None:
    report = _report(owner)
    ok = client.post(_url(report), _data(report, p95_latency_ms="", deadline_hours=""), **HTMX)
    assert "Monthly cost" in ok.text and "Fix the answers" not in ok.text
    missing = client.post(_url(report), _data(report, hours_per_day=""), **HTMX)
    assert re.search(r'id="errors-whatif-hours_per_day" hx-swap-oob="true">[^<]+<', missing.text)


def test_saving_makes_a_new_version_with_the_changed_answers_and_leaves_the_assessment_alone(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    report = _report(owner)
    before = copy.deepcopy(report.assessment.answers)
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(
            _url(report, "report_what_if_save"), _data(report, hours_per_day="20")
        )
    saved = Report.objects.get(assessment=report.assessment, number=2)
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "advisor:report", kwargs={"pk": report.assessment_id, "number": 2}
    )
    assert saved.answers["cost"]["hours_per_day"] == 20
    assert saved.language == report.language and saved.status == Report.Status.PENDING
    # The version renders what the what-if showed: the same catalog, scoring model and day.
    assert saved.result is not None
    assert saved.result["versions"] == report.result["versions"]  # type: ignore[index]
    assert saved.result["cost"]["today"] == report.result["cost"]["today"]  # type: ignore[index]
    assert Assessment.objects.get(pk=report.assessment_id).answers == before

    # A second click while the version is still being generated gives the same version.
    with django_capture_on_commit_callbacks(execute=False):
        again = client.post(_url(report, "report_what_if_save"), _data(report, hours_per_day="20"))
    assert again["Location"] == response["Location"]
    assert Report.objects.filter(assessment=report.assessment).count() == 2

    with django_capture_on_commit_callbacks(execute=False):
        htmx = client.post(
            _url(report, "report_what_if_save"), _data(report, hours_per_day="12"), **HTMX
        )
    assert htmx["HX-Redirect"] == reverse(
        "advisor:report", kwargs={"pk": report.assessment_id, "number": 3}
    )


def test_saving_refused_answers_makes_no_version(client: Client, owner: Any) -> None:
    report = _report(owner)
    response = client.post(_url(report, "report_what_if_save"), _data(report, hours_per_day="-1"))
    assert response.status_code == 422
    assert re.search(r'id="errors-whatif-hours_per_day">[^<]+<', response.text)
    assert Report.objects.filter(assessment=report.assessment).count() == 1


def test_other_organisations_and_strangers_get_no_what_if(client: Client) -> None:
    report = _report(MembershipFactory())
    client.force_login(MembershipFactory().user)
    for name in ("report_what_if", "report_what_if_save"):
        assert client.post(_url(report, name), _data(report)).status_code == 404
    client.logout()
    for name in ("report_what_if", "report_what_if_save"):
        response = client.post(_url(report, name), _data(report))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Report.objects.filter(assessment=report.assessment).count() == 1


def test_a_shared_report_page_has_no_what_if(client: Client, owner: Any) -> None:
    report = _report(owner)
    page = client.post(
        reverse("advisor:share_create", kwargs={"pk": report.assessment_id, "number": 1}),
        {"label": "CTO"},
        follow=True,
    )
    shared = re.search(
        r'id="new-share-url" class="form-control" readonly value="([^"]+)"', page.text
    )
    assert shared
    client.logout()
    public = client.get(shared.group(1).split("testserver", 1)[1])
    assert public.status_code == 200
    assert "what-if" not in public.text


def test_a_report_that_is_not_done_has_no_what_if(client: Client, owner: Any) -> None:
    report = _report(owner, queued=True)
    page = client.get(reverse("advisor:report", kwargs={"pk": report.assessment_id, "number": 1}))
    assert 'id="what-if"' not in page.text
    assert client.post(_url(report), _data(report)).status_code == 404


def test_the_what_if_needs_a_post_with_a_csrf_token(owner: Any) -> None:
    report = _report(owner)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner.user)
    assert strict.get(_url(report)).status_code == 405
    assert strict.post(_url(report), _data(report)).status_code == 403


def test_what_ifs_are_throttled_per_person(client: Client, owner: Any) -> None:
    report = _report(owner)
    # Refused input costs no engine run, so the limit is reached cheaply.
    bad = _data(report, hours_per_day="x")
    codes = [client.post(_url(report), bad, **HTMX).status_code for _ in range(121)]
    assert codes[:120] == [200] * 120
    assert codes[120] == 429


@pytest.mark.services
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_worker_renders_the_saved_version_from_the_result_the_what_if_showed(
    worker: Any, tmp_path: Path
) -> None:
    worker()
    membership = MembershipFactory()
    client = Client()
    client.force_login(membership.user)
    report = _report(membership)
    client.post(_url(report, "report_what_if_save"), _data(report, tokens_per_day="200000000"))
    saved = Report.objects.get(assessment=report.assessment, number=2)
    requested_with = copy.deepcopy(saved.result)
    deadline = time.monotonic() + 60
    while saved.status not in (Report.Status.DONE, Report.Status.FAILED):
        assert time.monotonic() < deadline, "the worker never finished the report"
        time.sleep(0.05)
        saved.refresh_from_db()
    assert saved.status == Report.Status.DONE, saved.error
    assert saved.result == requested_with
    assert saved.catalog_version == report.catalog_version
    log = (tmp_path / "worker-0.log").read_text()
    assert f"report {saved.pk}: keeps the result it was requested with" in log
    page = client.get(reverse("advisor:report", kwargs={"pk": report.assessment_id, "number": 2}))
    assert 'name="tokens_per_day" value="200000000"' in page.text
