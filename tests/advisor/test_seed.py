"""First run: `manage.py seed` gives every demo role sample assessments with finished reports."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import Organization, Role, User
from advisor.models import Assessment, Report
from advisor.reference.models import Catalog, HouseOffer
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
    assert (Assessment.objects.count(), Report.objects.count()) == before == (4, 6)


def test_no_samples_leaves_only_the_users(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("seed", password=PASSWORD, samples=False)
    assert not Assessment.objects.exists()


def test_the_seed_separates_the_operator_from_its_customers_and_adds_its_house_offers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command("seed", password=PASSWORD)
    operator = Organization.objects.get(is_operator=True)
    assert operator.name == "Harbour GPU Cloud"
    roles = dict(operator.memberships.values_list("user__email", "role"))
    assert roles == {"sales@demo.example": Role.SALES_ENGINEER, "admin@demo.example": Role.ADMIN}
    member = User.objects.get(email="member@demo.example")
    assert [m.organization.name for m in member.memberships.all()] == ["Demo AI Lab"]
    # The operator's house offers: in the published catalog, marked demo, each with its
    # source and date; no public list price was found, so each is on request.
    published = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    offers = HouseOffer.objects.filter(catalog=published)
    assert {o.region_key for o in offers} == {"hong_kong", "tokyo", "los_angeles"}
    assert {o.accelerator.key for o in offers} >= {"nvidia-l40s", "nvidia-h100-sxm", "nvidia-h200"}
    for offer in offers:
        assert offer.extra["demo"] is True and offer.provider == "Harbour GPU Cloud"
        assert offer.source and offer.as_of is not None
        assert offer.extra["price_on_request"] is True and offer.usd_per_device_month is None
        assert offer.extra["server"]["china_bandwidth_type"] == "cn2_gia"
        assert offer.extra["server"]["china_bandwidth_mbps"] > 0
        assert {"bare_metal"} <= set(offer.modes)
    assert "not added: HK-RTX4090-8" in capsys.readouterr().out
    # Seeding again adds no second catalog.
    call_command("seed", password=PASSWORD, samples=False)
    assert Catalog.objects.filter(status=Catalog.Status.PUBLISHED).get() == published


def test_the_core_customer_sample_report_leads_with_a_house_server(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command("seed", password=PASSWORD)
    core = Assessment.objects.get(title="Hong Kong assistant serving mainland China")
    assert core.organization.name == "Demo AI Lab"
    report = core.reports.get(language="en")
    assert report.status == Report.Status.DONE
    first = report.result["workloads"][0]["options"][0]
    (house, *_) = first["house_on_request"]
    assert house["provider"] == "Harbour GPU Cloud" and house["region_key"] == "hong_kong"
    page = _client_for("member@demo.example").get(
        reverse("advisor:report", args=[core.pk, report.number])
    )
    text = page.text
    plan = text[text.index('id="report-plan"') : text.index('id="report-confidence"')]
    assert "Our server for this workload" in plan and house["sold_as"] in plan
    assert "ask for a price" in plan
    # The quote card credits the operator, never the member's own organisation.
    card = text[text.index('id="quote"') :]
    assert "<strong>Harbour GPU Cloud</strong> offers this server" in card
    assert "Demo AI Lab</strong> offers" not in card
    assert "CN2 GIA" in card
