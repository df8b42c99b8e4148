"""What report pages and files give away: nothing to caches, no database ids in file names,
no exception text; and no benchmark page in production."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from advisor.models import Assessment, Report
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

pytestmark = pytest.mark.django_db

TITLE = 'ACME "Q3" GPU plan'


@pytest.fixture
def done(client: Client) -> Report:
    membership = MembershipFactory(role=Role.SALES_ENGINEER)
    client.force_login(membership.user)
    obj = AssessmentFactory(membership=membership, title=TITLE, submitted=True)
    return ReportFactory(assessment=obj, html="<p>GPU on public cloud</p>")


def _urls(report: Report) -> dict[str, str]:
    kwargs = {"pk": report.assessment_id, "number": report.number}
    urls = {
        name: reverse(f"advisor:{name}", kwargs=kwargs)
        for name in ("report", "report_status", "report_pdf", "report_json", "report_csv")
    }
    urls["compare"] = reverse("advisor:compare", kwargs={"pk": report.assessment_id}) + "?a=1&b=1"
    return urls


def test_report_pages_and_downloads_are_never_stored(client: Client, done: Report) -> None:
    for name, url in _urls(done).items():
        response = client.get(url)
        assert response.status_code in {200, 286}, name  # 286: htmx stops polling
        directives = {d.strip() for d in response["Cache-Control"].split(",")}
        assert {"no-store", "private"} <= directives, (name, response["Cache-Control"])
    partial = client.get(_urls(done)["report_status"], HTTP_HX_REQUEST="true")
    assert "no-store" in partial["Cache-Control"]


def test_downloads_are_named_by_title_and_date_not_by_id(client: Client, done: Report) -> None:
    urls = _urls(done)
    day = done.finished_at.date().isoformat() if done.finished_at else ""
    for name, extension in (("report_pdf", "pdf"), ("report_json", "json"), ("report_csv", "csv")):
        disposition = client.get(urls[name])["Content-Disposition"]
        assert disposition == f'attachment; filename="acme-q3-gpu-plan-v1-{day}-en.{extension}"'
    page = client.post(
        reverse("advisor:share_create", kwargs={"pk": done.assessment_id, "number": 1}),
        {"label": "CTO"},
        follow=True,
    )
    match = re.search(
        r'id="new-share-url" class="form-control" readonly value="([^"]+)"', page.text
    )
    assert match
    shared = Client().get(match.group(1).split("testserver", 1)[1] + "pdf/")
    disposition = shared["Content-Disposition"]
    assert disposition == f'attachment; filename="acme-q3-gpu-plan-v1-{day}-en.pdf"'
    assert str(done.assessment_id) not in disposition.replace(day, "")
    assert str(done.pk) not in disposition.replace(day, "")


def test_a_chinese_title_gives_a_utf8_file_name(client: Client, done: Report) -> None:
    Assessment.objects.filter(pk=done.assessment_id).update(title="加速器 評估")
    disposition = client.get(_urls(done)["report_pdf"])["Content-Disposition"]
    assert disposition.startswith("attachment; filename*=utf-8''")
    assert "%E5%8A%A0%E9%80%9F%E5%99%A8" in disposition


def test_the_benchmark_baseline_is_not_routed_unless_configured(client: Client) -> None:
    assert client.get("/bench/baseline").status_code == 404


def test_make_bench_turns_the_baseline_on() -> None:
    from pathlib import Path

    script = (Path(__file__).resolve().parents[2] / ".ci" / "bench.sh").read_text()
    assert re.search(r"^export BENCH_BASELINE=true$", script, re.MULTILINE)


def test_the_invitation_email_shows_quotes_and_ampersands_as_typed(
    client: Client,
    done: Report,
    mailoutbox: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    organization = done.assessment.organization
    organization.name = "O'Brien & Sons <Labs>"
    organization.save()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("advisor:customer_invite", kwargs={"pk": done.assessment_id}),
            {"email": "cto@example.com"},
        )
    assert response.status_code == 302
    body = mailoutbox[-1].body
    assert TITLE in body and "O'Brien & Sons <Labs>" in body
    assert "&quot;" not in body and "&#x27;" not in body and "&amp;" not in body
    assert "&lt;" not in body
