"""One pass: the engine runs once per submit and once per report at most, and a step save
validates the answers once. Counted through the real pages and API with counting wrappers that
call the real functions."""

from __future__ import annotations

import copy
import html
import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.test.signals import template_rendered
from django.urls import reverse

from advisor import engine
from advisor.engine.answers import problems as engine_problems
from advisor.models import Assessment, Report
from advisor.selectors.measurements import first_serving_option
from advisor.services import pdfs, reports
from advisor.starters import BY_SLUG as STARTERS
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory, api_token_for

pytestmark = pytest.mark.django_db

ANSWERS = STARTERS["llm-fine-tuning-startup"].answers
RECORDED = json.loads(
    (Path(__file__).parents[1] / "engine" / "data" / "vllm_bench_serve_h100.json").read_text()
)


def _counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[Any]:
    calls: list[Any] = []
    real: Callable[..., Any] = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs.get("lang", kwargs.get("partial")))
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)
    return calls


@pytest.fixture
def engine_runs(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The languages of every engine evaluation (decisions calls `advisor.engine.evaluate`)."""
    return _counting(monkeypatch, engine, "evaluate")


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every pass of the answers validator (validate and check_partial both make one)."""
    return _counting(monkeypatch, engine_problems, "_collect")


@pytest.fixture
def member(client: Client) -> Any:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _draft(member: Any, answers: dict[str, Any]) -> Assessment:
    return Assessment.objects.create(
        organization=member.organization,
        created_by=member.user,
        title="One pass",
        answers=copy.deepcopy(answers),
    )


def test_a_submit_runs_the_engine_once_and_its_first_report_reuses_the_result(
    client: Client, member: Any, engine_runs: list[Any]
) -> None:
    obj = _draft(member, ANSWERS)
    response = client.post(reverse("advisor:submit", kwargs={"pk": obj.pk}), {"version": 1})
    assert response.status_code == 302
    assert engine_runs == ["en"]
    report = obj.reports.get()
    # What the task runs, in this process so that its engine runs are counted.
    reports.report_generate(report_id=report.pk)
    report.refresh_from_db()
    obj.refresh_from_db()
    assert report.status == Report.Status.DONE, report.error
    assert engine_runs == ["en"]
    assert obj.result is not None and report.result == obj.result["en"]


def test_a_report_in_the_other_language_runs_the_engine_once(
    client: Client, member: Any, engine_runs: list[Any]
) -> None:
    obj = _draft(member, ANSWERS)
    client.post(reverse("advisor:submit", kwargs={"pk": obj.pk}), {"version": 1})
    client.post(reverse("advisor:report_request", kwargs={"pk": obj.pk}), {"language": "zh-hant"})
    chinese = obj.reports.get(language="zh-hant")
    reports.report_generate(report_id=chinese.pk)
    chinese.refresh_from_db()
    assert chinese.status == Report.Status.DONE, chinese.error
    assert engine_runs == ["en", "zh-hant"]
    assert chinese.result["lang"] == "zh-hant"


def test_the_api_runs_the_engine_once_per_language_it_is_read_in(
    client: Client, member: Any, engine_runs: list[Any]
) -> None:
    auth = {"Authorization": f"Bearer {api_token_for(member.user)}"}
    created = client.post(
        "/api/v1/assessments",
        json.dumps({"title": "API", "answers": ANSWERS}),
        content_type="application/json",
        headers={**auth, "Accept-Language": "en"},
    ).json()
    assert engine_runs == ["en"]
    url = f"/api/v1/assessments/{created['id']}"
    chinese = client.get(url, headers={**auth, "Accept-Language": "zh-Hant"}).json()
    assert engine_runs == ["en", "zh-hant"]
    again = client.get(url, headers={**auth, "Accept-Language": "zh-Hant"}).json()
    english = client.get(url, headers={**auth, "Accept-Language": "en"}).json()
    assert engine_runs == ["en", "zh-hant"]
    assert again["result"] == chinese["result"] and english["result"] == created["result"]
    # The other language is the same recommendation, from the same versions and day.
    assert chinese["result"]["lang"] == "zh-hant"
    for key in ("versions", "recommendation"):
        assert chinese["result"][key].keys() == created["result"][key].keys()
    assert chinese["result"]["versions"] == created["result"]["versions"]
    assert chinese["result"]["cost"]["today"] == created["result"]["cost"]["today"]
    assert (
        chinese["result"]["cost"]["monthly_total_usd"]
        == (created["result"]["cost"]["monthly_total_usd"])
    )


def test_a_step_save_validates_the_answers_once(
    client: Client, member: Any, validations: list[Any]
) -> None:
    obj = _draft(member, ANSWERS)
    url = reverse("advisor:step", kwargs={"pk": obj.pk, "slug": "organization"})
    data = {"industry": "research", "regions": ["hong_kong", "singapore"], "version": 1}
    for action, version in (("next", 1), ("back", 2), ("autosave", 3)):
        validations.clear()
        response = client.post(url, {**data, "action": action, "version": version})
        assert response.status_code in (200, 302)
        assert len(validations) == 1, action
    obj.refresh_from_db()
    assert obj.version == 4 and obj.completed_steps == obj.total_steps


def test_a_refused_value_costs_one_more_validation_and_is_not_stored(
    client: Client, member: Any, validations: list[Any]
) -> None:
    obj = _draft(member, ANSWERS)
    url = reverse("advisor:step", kwargs={"pk": obj.pk, "slug": "inference"})
    inference = {
        "precision": "bf16",
        "prompt_tokens": "3584",
        "output_tokens": "3000000",  # more than the 2,000,000 allowed: the engine refuses it
        "concurrent_sequences": "32",
        "p95_latency_ms": "8000",
        "tokens_per_day": "20000000",
        "traffic": "bursty",
    }
    response = client.post(
        url,
        {**inference, "version": 1, "action": "next"},
        headers={"HX-Request": "true", "HX-Target": "wizard"},
    )
    assert response.status_code == 200
    assert "output_tokens" in response.text
    # The save's pass, and one over what is left once the refused value is dropped.
    assert len(validations) == 2
    obj.refresh_from_db()
    assert obj.answers["inference"].get("output_tokens") != 3_000_000
    assert obj.pending_input["inference"]["data"]["output_tokens"] == ["3000000"]


def _pdf_text(content: bytes) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", "-", "-"],  # noqa: S607
        input=content,
        capture_output=True,
        check=True,
    ).stdout.decode()


def _rendered_for_its_page_and_pdf(client: Client, report: Report) -> tuple[list[str], Any]:
    """What the worker, the member's page, a download that comes before the PDF task and that
    late task do for one report, in this process, with every body template rendered counted
    (Django's test instrumentation sends template_rendered for every template rendered here).
    Returns the bodies rendered, and the downloaded PDF's response."""
    bodies: list[str] = []

    def counted(sender: Any, template: Any, **kwargs: Any) -> None:
        if template.name == "advisor/report/_body.html":
            bodies.append(template.name)

    kwargs = {"pk": report.assessment_id, "number": report.number}
    template_rendered.connect(counted)
    try:
        reports.report_generate(report_id=report.pk)  # what the report task runs
        assert client.get(reverse("advisor:report", kwargs=kwargs)).status_code == 200
        # A member's download that comes before the PDF task renders the PDF…
        pdf = client.get(reverse("advisor:report_pdf", kwargs=kwargs))
        report.refresh_from_db()
        # …and the late PDF task finds it stored.
        pdfs.report_pdf_render(report=report)
    finally:
        template_rendered.disconnect(counted)
    assert pdf.content.startswith(b"%PDF") and report.pdf
    return bodies, pdf


def test_a_report_body_is_rendered_once_for_its_page_its_pdf_and_the_worker(
    client: Client, member: Any
) -> None:
    obj = _draft(member, ANSWERS)
    client.post(reverse("advisor:submit", kwargs={"pk": obj.pk}), {"version": 1})
    bodies, pdf = _rendered_for_its_page_and_pdf(client, obj.reports.get())
    assert len(bodies) == 1  # twice before the PDF wrapped the stored body
    # The PDF is the body the page shows, in its own document.
    text = _pdf_text(pdf.content)
    assert "Executive summary" in text and obj.title in text


MEASURED = "Re-planned with measured figures"


def _measured_version(client: Client, member: Any, capture: Any) -> Report:
    """v2 of a serving plan, re-planned with a benchmark at half the estimated throughput."""
    assessment = AssessmentFactory(membership=member, submitted=True)
    assessment.answers["inference"]["tokens_per_day"] = 150_000_000
    assessment.save()
    v1 = ReportFactory(assessment=assessment)
    first = first_serving_option(v1.result)
    assert first is not None
    run = RECORDED | {
        "max_concurrency": first["batch_per_replica"],
        "output_throughput": first["tokens_per_second_per_replica"] / 2,
    }
    kwargs = {"pk": assessment.pk, "number": v1.number}
    with capture(execute=False):
        client.post(reverse("advisor:report_measure", kwargs=kwargs), {"text": json.dumps(run)})
    return Report.objects.get(assessment=assessment, number=2)


def test_a_measured_version_renders_its_body_once_with_the_measured_section(
    client: Client, member: Any, django_capture_on_commit_callbacks: Any
) -> None:
    v2 = _measured_version(client, member, django_capture_on_commit_callbacks)
    bodies, pdf = _rendered_for_its_page_and_pdf(client, v2)
    # The worker renders the measured section into the stored body; the PDF wraps that body.
    assert len(bodies) == 1  # twice before: the PDF rendered it again with report_measured
    kwargs = {"pk": v2.assessment_id, "number": v2.number}
    page = html.unescape(client.get(reverse("advisor:report", kwargs=kwargs)).content.decode())
    text = _pdf_text(pdf.content)
    assert MEASURED in page and "Compared with v1" in page
    assert MEASURED in text and "Compared with v1" in text and "Executive summary" in text


def test_a_body_stored_before_the_measured_section_still_renders_its_page_and_pdf(
    client: Client, member: Any, django_capture_on_commit_callbacks: Any
) -> None:
    v2 = _measured_version(client, member, django_capture_on_commit_callbacks)
    done = reports.report_generate(report_id=v2.pk)
    assert done is not None and done.html and MEASURED in done.html
    # A body stored before the measured section was part of it: the section cut out.
    older = re.sub(r'<section id="measured".*?</section>', "", done.html, flags=re.DOTALL)
    assert MEASURED not in older
    Report.objects.filter(pk=v2.pk).update(html=older)
    kwargs = {"pk": v2.assessment_id, "number": v2.number}
    page = client.get(reverse("advisor:report", kwargs=kwargs))
    assert page.status_code == 200 and "Executive summary" in page.content.decode()
    pdf = client.get(reverse("advisor:report_pdf", kwargs=kwargs))
    text = _pdf_text(pdf.content)
    # The page and the PDF show the stored body: the section once the version is regenerated.
    assert "Executive summary" in text and MEASURED not in text
    with django_capture_on_commit_callbacks(execute=False):
        client.post(
            reverse("advisor:report_request", kwargs={"pk": v2.assessment_id}),
            {"language": "en", "source": 2},
        )
    v3 = reports.report_generate(report_id=Report.objects.get(number=3).pk)
    assert v3 is not None and v3.html and MEASURED in v3.html
