"""A version saved from a what-if keeps its answers. Regenerating it (another
language, a newer model or catalog) starts from them and says so, compare claims no change
nobody made, and the customer can adopt a version's answers as the assessment's, after a
confirmation, under the optimistic lock. Through the pages, as a form post (no JavaScript) and
as htmx sends it."""

from __future__ import annotations

import copy
import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from advisor.models import Assessment, Report
from advisor.services import assessments, reports
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-TW"}


@pytest.fixture
def owner(client: Client) -> Any:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _url(report: Report, name: str = "report") -> str:
    return reverse(f"advisor:{name}", kwargs={"pk": report.assessment_id, "number": report.number})


def _what_if_data(report: Report, **changes: Any) -> dict[str, Any]:
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


def _generate(report: Report) -> Report:
    # What the worker does with a requested version (the Celery round trip has its own tests).
    done = reports.report_generate(report_id=report.pk)
    assert done is not None and done.status == Report.Status.DONE, done and done.error
    return done


def _saved_what_if(client: Client, membership: Any, **extra: Any) -> tuple[Report, Report]:
    """v1 from the assessment's answers and v2 saved from a what-if on it (latency 2,000 ms,
    bare metal allowed too), generated."""
    v1 = ReportFactory(assessment=AssessmentFactory(membership=membership, submitted=True))
    modes = [*v1.answers["deployment"]["allowed_modes"], "bare_metal"]
    data = _what_if_data(v1, p95_latency_ms="2000", allowed_modes=modes)
    response = client.post(_url(v1, "report_what_if_save"), data, **extra)
    assert response.status_code in (200, 302), response.status_code
    v2 = Report.objects.get(assessment=v1.assessment, number=2)
    return v1, _generate(v2)


def _regenerate(client: Client, report: Report, language: str, **extra: Any) -> Any:
    url = reverse("advisor:report_request", kwargs={"pk": report.assessment_id})
    return client.post(url, {"language": language, "source": report.number}, **extra)


def test_a_version_saved_from_a_what_if_keeps_its_answers_and_says_where_they_came_from(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        v1, v2 = _saved_what_if(client, owner)
    assert v2.origin == Report.Origin.WHAT_IF and v2.based_on == v1
    assert v2.answers["inference"]["p95_latency_ms"] == 2000
    assert "bare_metal" in v2.answers["deployment"]["allowed_modes"]
    page = html.unescape(client.get(_url(v2)).text)
    assert "Saved from a what-if on v1: these answers are the scenario's" in page
    # The regenerate form names the version on screen as the one to start from.
    form = page.split('id="versions-heading"', 1)[1].split("</form>", 1)[0]
    assert re.search(r'name="source" value="2"', form)
    # v1 holds the assessment's own answers: nothing to say, nothing to adopt.
    first = client.get(_url(v1)).text
    assert 'id="answers-origin"' not in first


@pytest.mark.parametrize("htmx", [False, True], ids=["form-post", "htmx"])
def test_regenerating_a_what_if_version_in_chinese_keeps_its_answers_and_compare_claims_nothing(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any, htmx: bool
) -> None:
    extra = HTMX if htmx else {}
    with django_capture_on_commit_callbacks(execute=False):
        v1, v2 = _saved_what_if(client, owner, **extra)
        response = _regenerate(client, v2, "zh-hant", **extra)
    assert response.status_code == 302
    v3 = Report.objects.get(assessment=v1.assessment, number=3)
    assert response["Location"] == _url(v3)
    assert v3.language == "zh-hant"
    assert v3.answers == v2.answers != v1.assessment.answers
    assert v3.origin == Report.Origin.REGENERATED and v3.based_on == v2
    v3 = _generate(v3)
    assert v3.result is not None
    # The new version says so, in the reader's language.
    page = html.unescape(client.get(_url(v3), **ZH).text)
    assert "依 v2 的答案重新產生" in page
    english = html.unescape(client.get(_url(v3)).text)
    assert "Generated again from the answers of v2, not from the assessment's answers." in english
    # Compare v2 -> v3: the language changed, no answer did.
    compare = client.get(
        reverse("advisor:compare", kwargs={"pk": v1.assessment_id}) + "?a=2&b=3"
    ).text
    assert 'class="compare-answers' not in compare
    assert "Your answers changed" not in compare
    # Compare v1 -> v3 names exactly the what-if's changes.
    changes = client.get(
        reverse("advisor:compare", kwargs={"pk": v1.assessment_id}) + "?a=1&b=3"
    ).text
    assert 'class="table table-sm small table-stack compare-answers"' in changes
    assert "generated from different answers" in changes
    assert "Your answers changed" not in changes


def test_regenerating_a_version_of_the_assessments_answers_stays_with_the_assessments_answers(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    v1 = ReportFactory(assessment=AssessmentFactory(membership=owner, submitted=True))
    with django_capture_on_commit_callbacks(execute=False):
        _regenerate(client, v1, "zh-hant")
    v2 = Report.objects.get(assessment=v1.assessment, number=2)
    assert v2.origin == Report.Origin.ASSESSMENT and v2.based_on is None
    assert v2.answers == v1.assessment.answers


def test_another_organisations_version_cannot_be_the_source(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    v1 = ReportFactory(assessment=AssessmentFactory(membership=owner, submitted=True))
    url = reverse("advisor:report_request", kwargs={"pk": v1.assessment_id})
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(url, {"language": "en", "source": 7})
    assert response.status_code == 404
    assert Report.objects.filter(assessment=v1.assessment).count() == 1


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_without_javascript_adopting_asks_first_then_makes_the_versions_answers_the_assessments(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any, language: str
) -> None:
    accept = ZH if language == "zh-hant" else {}
    with django_capture_on_commit_callbacks(execute=False):
        v1, v2 = _saved_what_if(client, owner)
    assessment = Assessment.objects.get(pk=v1.assessment_id)
    before = copy.deepcopy(assessment.answers)
    page = client.get(_url(v2), **accept).text
    form = page.split('id="answers-origin"', 1)[1].split("</form>", 1)[0]
    assert f'name="version" value="{assessment.version}"' in form
    assert 'name="confirmed"' not in form.split("hx-vals", 1)[0].split("<form", 1)[1]

    # The form's first post (no JavaScript, so no hx-confirm dialog) only asks.
    asked = client.post(_url(v2, "report_adopt"), {"version": assessment.version}, **accept)
    assert asked.status_code == 200
    text = html.unescape(asked.text)
    question = (
        "以 v2 的答案取代評估的答案？"
        if language == "zh-hant"
        else "Replace the assessment's answers with those of v2?"
    )
    assert question in text
    assert 'name="confirmed" value="yes"' in asked.text
    assert Assessment.objects.get(pk=assessment.pk).answers == before

    done = client.post(
        _url(v2, "report_adopt"),
        {"version": assessment.version, "confirmed": "yes"},
        follow=True,
        **accept,
    )
    adopted = Assessment.objects.get(pk=assessment.pk)
    assert adopted.answers == v2.answers
    assert adopted.version == assessment.version + 1
    assert adopted.status == Assessment.Status.SUBMITTED
    assert adopted.result == {v2.language: v2.result}
    told = "評估的答案現在是 v2 的答案" if language == "zh-hant" else "are now those of v2"
    assert told in html.unescape(done.text)
    # The version's answers are the assessment's now: nothing left to adopt.
    assert 'id="adopt-button"' not in done.text

    # Regenerating v2 now is regenerating the assessment's answers; regenerating v1 goes
    # back to v1's answers, and says so.
    with django_capture_on_commit_callbacks(execute=False):
        _regenerate(client, v2, "en")
        _regenerate(client, v1, "zh-hant")
    v3 = Report.objects.get(assessment=assessment, number=3)
    assert v3.answers == v2.answers and v3.origin == Report.Origin.ASSESSMENT
    v4 = Report.objects.get(assessment=assessment, number=4)
    assert v4.answers == v1.answers and v4.origin == Report.Origin.REGENERATED
    assert v4.based_on == v1


def test_with_htmx_adopting_carries_the_confirmation_and_redirects_the_page(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        v1, v2 = _saved_what_if(client, owner)
    page = html.unescape(client.get(_url(v2), **ZH).text)
    form = page.split('id="answers-origin"', 1)[1].split("</form>", 1)[0]
    assert 'hx-confirm="以 v2 的答案取代評估的答案？' in form
    assert """hx-vals='{"confirmed": "yes"}'""" in form
    version = Assessment.objects.get(pk=v1.assessment_id).version
    response = client.post(
        _url(v2, "report_adopt"), {"version": version, "confirmed": "yes"}, **HTMX
    )
    assert response["HX-Redirect"] == _url(v2)
    assert Assessment.objects.get(pk=v1.assessment_id).answers == v2.answers


def test_adopting_over_a_save_made_since_the_page_loaded_changes_nothing_and_says_why(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        v1, v2 = _saved_what_if(client, owner)
    assessment = Assessment.objects.get(pk=v1.assessment_id)
    stale = assessment.version
    # A colleague reopens the assessment meanwhile (a save: the version moves on).
    assessments.assessment_reopen(assessment=assessment)
    before = copy.deepcopy(Assessment.objects.get(pk=assessment.pk).answers)
    response = client.post(
        _url(v2, "report_adopt"), {"version": stale, "confirmed": "yes"}, follow=True, **ZH
    )
    after = Assessment.objects.get(pk=assessment.pk)
    assert after.answers == before != v2.answers
    assert after.status == Assessment.Status.DRAFT
    assert "其他分頁或同事" in html.unescape(response.text)


def test_strangers_cannot_adopt_a_version(client: Client) -> None:
    other = ReportFactory()
    client.force_login(MembershipFactory().user)
    response = client.post(_url(other, "report_adopt"), {"version": 1, "confirmed": "yes"})
    assert response.status_code == 404


def test_adopting_needs_a_post(client: Client, owner: Any) -> None:
    v1 = ReportFactory(assessment=AssessmentFactory(membership=owner, submitted=True))
    assert client.get(_url(v1, "report_adopt")).status_code == 405
