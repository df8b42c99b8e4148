from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import Role
from advisor.models import Assessment, Report, ShareLink
from advisor.services import pdfs, reports
from advisor.tasks import generate_report_pdf
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

pytestmark = pytest.mark.django_db


def _assessment(membership: Any, starter: str = "llm-fine-tuning-startup") -> Assessment:
    return AssessmentFactory(
        membership=membership, title="Report tests", submitted=True, starter=starter
    )


def _report(
    obj: Assessment, number: int = 1, *, status: str = Report.Status.DONE, **extra: Any
) -> Report:
    if status != Report.Status.DONE:
        extra = {"result": None, "finished_at": None, "pdf": "", **extra}
    return ReportFactory(assessment=obj, number=number, status=status, **extra)


@pytest.fixture
def owner(client: Client) -> Any:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _share(client: Client, report: Report, **data: Any) -> str:
    url = reverse(
        "advisor:share_create", kwargs={"pk": report.assessment_id, "number": report.number}
    )
    page = client.post(url, data, follow=True)
    match = re.search(
        r'id="new-share-url" class="form-control" readonly value="([^"]+)"', page.text
    )
    assert match, page.text[:3000]
    return match.group(1).split("testserver", 1)[1]


def test_owner_shares_a_report_and_a_stranger_reads_it_without_logging_in(
    client: Client, owner: Any
) -> None:
    report = _report(_assessment(owner))
    path = _share(client, report, label="ACME CTO", expires_in_days="7")
    # The token is not stored, only its hash.
    token = path.strip("/").split("/")[-1]
    assert not ShareLink.objects.filter(token_hash=token).exists()
    stranger = Client()
    page = stranger.get(path)
    assert page.status_code == 200
    assert "GPU on public cloud" in page.text
    assert '<meta name="robots" content="noindex, nofollow">' in page.text
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    assert page["Referrer-Policy"] == "same-origin"
    assert "Edit answers" not in page.text and "Revoke" not in page.text
    pdf = stranger.get(path + "pdf/")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    link = ShareLink.objects.get()
    assert link.view_count == 1 and link.last_viewed_at is not None
    assert link.label == "ACME CTO"
    assert link.expires_at is not None and link.expires_at > timezone.now() + timedelta(days=6)


def test_revoked_expired_and_unknown_tokens_all_look_the_same(client: Client, owner: Any) -> None:
    report = _report(_assessment(owner))
    revoked = _share(client, report)
    expired = _share(client, report)
    links = list(ShareLink.objects.order_by("created_at"))
    client.post(
        reverse("advisor:share_revoke", kwargs={"pk": report.assessment_id, "link_id": links[0].pk})
    )
    links[1].expires_at = timezone.now() - timedelta(seconds=1)
    links[1].save()
    answers = [Client().get(p) for p in (revoked, expired, "/s/" + "A" * 32 + "/")]
    assert {r.status_code for r in answers} == {404}
    # Identical pages once the per-request nonce and CSRF token are set aside.
    volatile = re.compile(r'(nonce|value|X-CSRFToken)(=|": )"[^"]*"')
    assert len({volatile.sub("", r.text) for r in answers}) == 1
    assert "This link does not open a report" in answers[0].text


def test_guessing_share_tokens_is_rate_limited(client: Client, owner: Any) -> None:
    report = _report(_assessment(owner))
    good = _share(client, report)
    guesser = Client()
    for i in range(20):
        assert guesser.get(f"/s/guess-{i}/").status_code == 404
    refused = guesser.get(f"/s/guess-{99}/")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 600
    # A link that works is never refused: only misses are counted.
    assert guesser.get(good).status_code == 200
    assert guesser.get(good + "pdf/").status_code == 200


def test_a_share_token_opens_nothing_but_its_report(client: Client, owner: Any) -> None:
    obj = _assessment(owner)
    report = _report(obj)
    path = _share(client, report)
    stranger = Client()
    stranger.get(path)
    for url in (
        reverse("advisor:report", kwargs={"pk": obj.pk, "number": 1}),
        reverse("advisor:report_json", kwargs={"pk": obj.pk, "number": 1}),
        reverse("advisor:step", kwargs={"pk": obj.pk, "slug": "organization"}),
        reverse("advisor:dashboard"),
    ):
        response = stranger.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_plain_members_cannot_share_but_sales_engineers_can(client: Client, owner: Any) -> None:
    report = _report(_assessment(owner))
    url = reverse("advisor:share_create", kwargs={"pk": report.assessment_id, "number": 1})
    colleague = MembershipFactory(organization=owner.organization, role=Role.MEMBER)
    other = Client()
    other.force_login(colleague.user)
    assert other.post(url).status_code == 404
    sales = MembershipFactory(organization=owner.organization, role=Role.SALES_ENGINEER)
    other.force_login(sales.user)
    assert other.post(url).status_code == 302
    assert ShareLink.objects.count() == 1


def test_reports_of_other_organisations_are_404(client: Client, owner: Any) -> None:
    theirs = _report(_assessment(MembershipFactory()))
    kwargs = {"pk": theirs.assessment_id, "number": 1}
    for name in ("report", "report_status", "report_pdf", "report_json", "report_csv"):
        assert client.get(reverse(f"advisor:{name}", kwargs=kwargs)).status_code == 404, name
    for name in ("report_retry", "share_create"):
        assert client.post(reverse(f"advisor:{name}", kwargs=kwargs)).status_code == 404, name
    assert (
        client.get(reverse("advisor:compare", kwargs={"pk": theirs.assessment_id})).status_code
        == 404
    )
    assert (
        client.post(
            reverse("advisor:report_request", kwargs={"pk": theirs.assessment_id}),
            {"language": "en"},
        ).status_code
        == 404
    )


def test_status_partial_polls_while_pending_and_refreshes_the_page_when_done(
    client: Client, owner: Any
) -> None:
    obj = _assessment(owner)
    report = _report(obj, status=Report.Status.PENDING)
    url = reverse("advisor:report_status", kwargs={"pk": obj.pk, "number": 1})
    page = client.get(reverse("advisor:report", kwargs={"pk": obj.pk, "number": 1}))
    assert "Waiting for a worker" in page.text
    assert 'http-equiv="refresh"' in page.text  # without JavaScript, the page reloads itself
    partial = client.get(url, HTTP_HX_REQUEST="true")
    assert partial.status_code == 200
    assert "<html" not in partial.text and 'hx-trigger="every 1s"' in partial.text
    report.status = Report.Status.DONE
    report.save()
    done = client.get(url, HTTP_HX_REQUEST="true")
    assert done["HX-Refresh"] == "true"


def test_a_failed_report_shows_a_plain_message_and_can_be_retried(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    obj = _assessment(owner)
    # A row failed before reasons were codes: its exception text stays out of the page.
    _report(obj, status=Report.Status.FAILED, error="ValueError: broken chart at /srv/app")
    page = client.get(reverse("advisor:report", kwargs={"pk": obj.pk, "number": 1}))
    assert "could not be generated" in page.text and "has been logged" in page.text
    assert "broken chart" not in page.text and "ValueError" not in page.text
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        client.post(reverse("advisor:report_retry", kwargs={"pk": obj.pk, "number": 1}))
    assert len(callbacks) == 1
    assert Report.objects.get().status == Report.Status.PENDING


def test_exports_give_the_pdf_the_result_json_and_the_cost_csv(client: Client, owner: Any) -> None:
    obj = _assessment(owner)
    _report(obj)
    kwargs = {"pk": obj.pk, "number": 1}
    pdf = client.get(reverse("advisor:report_pdf", kwargs=kwargs))
    assert pdf.content.startswith(b"%PDF")
    assert "attachment" in pdf["Content-Disposition"]
    data = client.get(reverse("advisor:report_json", kwargs=kwargs)).json()
    assert data["recommendation"]["accelerator"] == "gpu"


def test_a_report_is_done_before_its_pdf_and_a_download_that_comes_first_renders_it(
    client: Client, owner: Any
) -> None:
    # No worker here: the PDF task the generation sends waits in the broker, unconsumed.
    obj = _assessment(owner)
    report = _report(obj, status=Report.Status.PENDING, answers=obj.answers)
    reports.report_generate(report_id=report.pk)
    report.refresh_from_db()
    assert report.status == Report.Status.DONE
    assert "<section" in report.html
    assert not report.pdf  # the page is ready; the PDF is not rendered yet

    kwargs = {"pk": obj.pk, "number": 1}
    page = client.get(reverse("advisor:report", kwargs=kwargs))
    # The button says the PDF is on its way and asks again; its link works all along.
    button_url = reverse("advisor:report_pdf_button", kwargs=kwargs)
    assert "Preparing the PDF…" in page.text
    assert f'hx-get="{button_url}"' in page.text
    assert f'href="{reverse("advisor:report_pdf", kwargs=kwargs)}"' in page.text
    assert "Preparing the PDF…" in client.get(button_url).text
    first = client.get(reverse("advisor:report_pdf", kwargs=kwargs))
    assert first.status_code == 200
    assert first.content.startswith(b"%PDF")
    report.refresh_from_db()
    assert report.pdf  # stored: the next download (or the late worker task) reuses it
    again = client.get(reverse("advisor:report_pdf", kwargs=kwargs))
    assert again.content == first.content
    assert pdfs.report_pdf_render(report=report).pdf.name == report.pdf.name
    ready = client.get(button_url)
    assert "Download PDF" in ready.text and "hx-get" not in ready.text  # polling stops
    assert "Preparing" not in client.get(reverse("advisor:report", kwargs=kwargs)).text


def test_the_shared_page_polls_for_its_pdf_without_counting_views(
    client: Client, owner: Any
) -> None:
    obj = _assessment(owner)
    report = _report(obj, status=Report.Status.PENDING, answers=obj.answers)
    reports.report_generate(report_id=report.pk)
    path = _share(client, Report.objects.get(pk=report.pk))
    token = path.strip("/").split("/")[-1]
    visitor = Client()
    page = visitor.get(path)
    button_url = reverse("advisor:shared_pdf_button", kwargs={"token": token})
    assert "Preparing the PDF…" in page.text and f'hx-get="{button_url}"' in page.text
    link = ShareLink.objects.get(report=report)
    views = link.view_count
    for _ in range(3):
        polled = visitor.get(button_url)
        assert polled.status_code == 200 and polled["Cache-Control"] == "private, no-store"
    link.refresh_from_db()
    assert link.view_count == views
    # A link holder never makes the web render: the download asks the PDF worker and says so.
    early = visitor.get(path + "pdf/")
    assert early.status_code == 202 and early["Retry-After"] == "3"
    assert "being prepared" in early.text and early["Cache-Control"] == "private, no-store"
    report.refresh_from_db()
    assert not report.pdf and report.pdf_started_at is None
    generate_report_pdf(report.pk)  # what the PDF worker runs for the message it was sent
    assert visitor.get(path + "pdf/").content.startswith(b"%PDF")
    assert "Download PDF" in visitor.get(button_url).text
    assert visitor.get("/s/" + "x" * 32 + "/pdf/button/").status_code == 404
    with translation.override("zh-hant"):
        zh = Client(headers={"accept-language": "zh-hant"})
        assert "下載 PDF" in zh.get(button_url).text


def test_regenerating_creates_a_new_version_and_versions_can_be_compared(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    obj = _assessment(owner)
    _report(obj, 1)
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(
            reverse("advisor:report_request", kwargs={"pk": obj.pk}), {"language": "zh-hant"}
        )
    assert response["Location"] == reverse("advisor:report", kwargs={"pk": obj.pk, "number": 2})
    second = Report.objects.get(number=2)
    assert second.language == "zh-hant" and second.status == Report.Status.PENDING
    second.delete()
    changed = _report(obj, 2, engine_version="9.9.9")
    changed.answers = {**obj.answers, "cost": {**obj.answers["cost"], "hours_per_day": 24}}
    changed.save()
    page = client.get(reverse("advisor:compare", kwargs={"pk": obj.pk}) + "?a=1&b=2", follow=True)
    assert page.status_code == 200
    assert "9.9.9" in page.text
    assert "Your answers changed:" in page.text
    assert re.search(
        r"Hours per day the accelerators are busy</th><td[^>]*>8</td><td[^>]*>24</td>", page.text
    )


def test_bad_share_form_input_gets_a_message_not_a_500(client: Client, owner: Any) -> None:
    report = _report(_assessment(owner))
    url = reverse("advisor:share_create", kwargs={"pk": report.assessment_id, "number": 1})
    for data in ({"expires_in_days": "soon"}, {"expires_in_days": "-3"}, {"label": "x" * 101}):
        page = client.post(url, data, follow=True)
        assert page.status_code == 200
        assert "The link could not be created" in page.text
    assert not ShareLink.objects.exists()


def test_a_report_that_fails_in_generation_keeps_the_exception_out_of_the_page(
    client: Client, owner: Any
) -> None:
    obj = _assessment(owner)
    broken = ReportFactory(
        assessment=obj, queued=True, answers={"schema_version": 2, "bogus": "<x>"}
    )
    reports.report_generate(report_id=broken.pk)
    broken.refresh_from_db()
    assert broken.status == Report.Status.FAILED
    assert broken.error == Report.Failure.ERROR
    page = client.get(reverse("advisor:report", kwargs={"pk": obj.pk, "number": 1}))
    assert "could not be generated" in page.text and "has been logged" in page.text
    assert "AnswersError" not in page.text and "bogus" not in page.text


def test_a_pdf_is_rendered_once_however_many_download_it_at_once(
    client: Client, owner: Any, settings: Any
) -> None:
    obj = _assessment(owner)
    report = _report(obj, status=Report.Status.PENDING, answers=obj.answers)
    reports.report_generate(report_id=report.pk)
    report.refresh_from_db()
    path = _share(client, report)
    kwargs = {"pk": obj.pk, "number": 1}
    # A render is under way (the PDF worker, or a member's download that came first).
    assert pdfs.report_pdf_claim(report=report)
    assert not pdfs.report_pdf_claim(report=report)  # one claimant at a time
    # Every other download meanwhile is told to come back, member or link holder alike.
    for downloader, url in (
        (client, reverse("advisor:report_pdf", kwargs=kwargs)),
        (Client(), path + "pdf/"),
        (Client(headers={"accept-language": "zh-hant"}), path + "pdf/"),
    ):
        answer = downloader.get(url)
        assert answer.status_code == 202 and answer["Retry-After"] == "3", answer.content[:300]
        assert b"%PDF" not in answer.content
    assert "正在準備" in answer.text
    report.refresh_from_db()
    assert not report.pdf
    # A claim older than a report task may run belongs to a renderer that died: taken over.
    Report.objects.filter(pk=report.pk).update(
        pdf_started_at=timezone.now() - timedelta(seconds=settings.REPORT_TIME_LIMIT + 1)
    )
    rendered = client.get(reverse("advisor:report_pdf", kwargs=kwargs))
    assert rendered.status_code == 200 and rendered.content.startswith(b"%PDF")
    assert Client().get(path + "pdf/").content == rendered.content


def test_a_shared_report_opened_in_the_other_language_says_which_language_it_is_in(
    client: Client, owner: Any
) -> None:
    obj = _assessment(owner)
    english = _report(obj)
    path = _share(client, english)
    chinese_chrome = Client()
    chinese_chrome.cookies["django_language"] = "zh-hant"
    page = chinese_chrome.get(path)
    assert page.status_code == 200 and "GPU on public cloud" in page.text
    assert 'id="shared-language-note"' in page.text
    assert "此報告以英文撰寫，目前尚無中文版本" in page.text
    # The page's own language shows no note.
    assert 'id="shared-language-note"' not in Client().get(path).text

    # Once a Chinese version is finished, the note says so (without linking to it: that
    # version is shared only by its own link).
    chinese = _report(obj, 2, language="zh-hant")
    page = chinese_chrome.get(path)
    assert "此報告另有中文版本" in page.text
    assert f"/reports/{chinese.number}/" not in page.text

    english_chrome = Client(headers={"accept-language": "en"})
    page = english_chrome.get(_share(client, chinese))
    assert "This report is written in Traditional Chinese. An English version of it exists" in (
        page.text
    )
