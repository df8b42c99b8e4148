"""First run: `manage.py seed` gives every demo role sample assessments with finished reports."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import User
from advisor.models import Assessment, Report
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def _client_for(email: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(email=email))
    return client


def test_each_demo_role_sees_sample_assessments_with_finished_reports(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command("seed", password=PASSWORD)
    out = capsys.readouterr().out
    member = _client_for("member@demo.example")
    dashboard = member.get(reverse("advisor:dashboard")).text
    startup = Assessment.objects.get(title="LLM fine-tuning start-up")
    chatbot = Assessment.objects.get(title="Real-time chatbot")
    finance = Assessment.objects.get(title="Regulated finance on private cloud")
    assert f"/assessments/{startup.pk}/" in dashboard
    assert f"/assessments/{chatbot.pk}/" in dashboard
    # The member's organisation does not see the customer's sample.
    assert f"/assessments/{finance.pk}/" not in dashboard
    assert set(startup.reports.values_list("status", "language")) == {
        (Report.Status.DONE, "en"),
        (Report.Status.DONE, "zh-hant"),
    }
    page = member.get(reverse("advisor:report", args=[startup.pk, 1]))
    assert page.status_code == 200
    assert "Recommendation" in page.text
    sales = _client_for("sales@demo.example")
    assert f"/assessments/{finance.pk}/" in sales.get(reverse("advisor:dashboard")).text
    # The sales engineer's share link is printed, and it opens for anyone.
    shared = re.search(r"shared with the customer: (/s/\S+/)", out)
    assert shared, out
    assert Client().get(shared.group(1)).status_code == 200


def test_seeding_again_adds_no_second_copy(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("seed", password=PASSWORD)
    before = (Assessment.objects.count(), Report.objects.count())
    call_command("seed", password=PASSWORD)
    assert (Assessment.objects.count(), Report.objects.count()) == before == (3, 5)


def test_no_samples_leaves_only_the_users(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("seed", password=PASSWORD, samples=False)
    assert not Assessment.objects.exists()
