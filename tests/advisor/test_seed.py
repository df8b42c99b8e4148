"""First run: `manage.py seed` gives every demo role sample assessments with finished reports."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import Organization, Role, User
from advisor.demo_offers import HOUSE_OFFERS, house_offers
from advisor.engine import load_catalog
from advisor.models import Assessment, Report
from advisor.reference.models import Catalog, HouseOffer
from advisor.reference.services.catalog import (
    catalog_from_document,
    catalog_next_version,
    catalog_publish,
)
from advisor.services import assessments, reports
from advisor.starters import BY_SLUG
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
    # source and date; no public list price was found, so each server carries a demo price per
    # term derived from a named public comparable.
    published = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    offers = HouseOffer.objects.filter(catalog=published)
    assert {o.region_key for o in offers} == {"hong_kong", "tokyo", "los_angeles"}
    assert {o.accelerator.key for o in offers} >= {"nvidia-l40s", "nvidia-h100-sxm", "nvidia-h200"}
    # The RTX-class server: four RTX 6000 Ada in Los Angeles.
    rtx = offers.get(extra__server__name="LAX-RTX6000ADA-4", billing="monthly")
    assert (rtx.accelerator.key, rtx.region_key, rtx.extra["gpus_per_unit"]) == (
        "nvidia-rtx-6000-ada",
        "los_angeles",
        4,
    )
    assert published.accelerators.filter(key="nvidia-rtx-6000-ada").exists()
    # Every server by the month, on 12 and on 36 months, each term cheaper than the shorter.
    by_server: dict[str, dict[str, float]] = {}
    for offer in offers:
        by_server.setdefault(offer.extra["server"]["name"], {})[offer.billing] = float(
            offer.usd_per_device_month or 0
        )
    for terms in by_server.values():
        assert terms["monthly"] > terms["commit_1y"] > terms["commit_3y"]
    for offer in offers:
        assert offer.extra["demo"] is True and offer.provider == "Harbour GPU Cloud"
        assert offer.source and offer.as_of is not None
        assert offer.usd_per_device_month and offer.usd_per_device_month > 0
        assert "Demo price, not a quote" in offer.source and "Derived from" in offer.source
        months = {"monthly": 1, "commit_1y": 12, "commit_3y": 36}[offer.billing]
        assert offer.extra["server"]["min_term_months"] == months
        assert offer.extra["server"]["china_bandwidth_type"] == "cn2_gia"
        assert offer.extra["server"]["china_bandwidth_mbps"] > 0
        assert {"bare_metal"} <= set(offer.modes)
    out = capsys.readouterr().out
    assert "not added: HK-RTX4090-8" in out and "not added: LAX-RTX6000ADA-4" not in out
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
    price = first["prices"][first["billing_used"]]
    # The operator's server, priced on its demo list, meeting the latency target.
    assert price["house"] and price["demo"] and price["provider"] == "Harbour GPU Cloud"
    assert first["meets_latency"] is True and first["monthly_cost_usd"] > 0
    unit = first["unit"]
    assert unit["kind"] == "server" and unit["name"] == price["server"]["name"]
    assert unit["billed"] == first["billed_count"] == unit["count"] * unit["gpus"]
    page = _client_for("member@demo.example").get(
        reverse("advisor:report", args=[core.pk, report.number])
    )
    text = page.text
    plan = text[text.index('id="report-plan"') : text.index('id="report-confidence"')]
    assert "Harbour GPU Cloud" in plan and "Demo price list" in plan
    assert f"{unit['count']} × {unit['name']} servers" in plan
    assert "ask for a price" not in plan
    # The quote card credits the operator, never the member's own organisation.
    card = text[text.index('id="quote"') :]
    assert "<strong>Harbour GPU Cloud</strong> offers this server" in card
    assert "Demo AI Lab</strong> offers" not in card
    assert "CN2 GIA" in card


def test_a_catalog_seeded_before_the_rtx_card_gains_it_and_its_los_angeles_server(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A database seeded before the card was bundled: its published catalog has the other demo
    # servers and no RTX 6000 Ada. Seeding again brings the card (with its sourced prices and
    # purchase price) and only the server of that card.
    bundled = load_catalog().to_dict()
    card = "nvidia-rtx-6000-ada"
    sourced = {p["provider"] for p in bundled["prices"] if p["accelerator_id"] == card}
    assert sourced  # the card has public prices to bring
    bundled["accelerators"] = [a for a in bundled["accelerators"] if a["id"] != card]
    bundled["prices"] = [p for p in bundled["prices"] if p["accelerator_id"] != card]
    del bundled["rules"]["purchase_price_by_accelerator"]["value"][card]
    del bundled["figures"]["purchase_usd_nvidia_rtx_6000_ada"]
    bundled["prices"] += [
        p for p in house_offers("Harbour GPU Cloud") if p["accelerator_id"] != card
    ]
    version = catalog_next_version()
    old = catalog_from_document(document=bundled, user=None, version=version)
    catalog_publish(catalog=old, user=None)
    call_command("seed", password=PASSWORD, samples=False)
    published = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    assert published.version == version + 1
    assert published.prices.filter(extra__server__name="LAX-RTX6000ADA-4").count() == 3
    assert (
        set(
            published.prices.filter(accelerator__key=card, extra__house__isnull=True).values_list(
                "provider", flat=True
            )
        )
        == sourced
    )
    assert published.data["figures"]["purchase_usd_nvidia_rtx_6000_ada"]["value"] == 6800.0
    assert published.prices.filter(extra__demo=True).count() == len(HOUSE_OFFERS)
    # And once is enough.
    call_command("seed", password=PASSWORD, samples=False)
    assert Catalog.objects.get(status=Catalog.Status.PUBLISHED).version == version + 1


def test_a_los_angeles_team_on_dedicated_servers_is_planned_on_the_operators_servers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command("seed", password=PASSWORD, samples=False)
    member = User.objects.get(email="member@demo.example")
    doc = BY_SLUG["realtime-chatbot"].document()
    doc["organization"]["regions"] = ["los_angeles"]
    doc["deployment"]["allowed_modes"] = ["dedicated_hosting", "bare_metal"]
    doc["deployment"]["china_connectivity"] = False
    doc["model"] = {"preset": "llama-3-8b"}
    assessment = assessments.assessment_create_from_document(
        organization=member.memberships.get().organization,
        user=member,
        title="LA chatbot on dedicated servers",
        answers=doc,
        draft=False,
    )
    report = assessment.reports.get()
    reports.report_generate(report_id=report.pk)
    page = _client_for("member@demo.example").get(
        reverse("advisor:report", args=[assessment.pk, report.number])
    )
    text = page.text
    plan = text[text.index('id="report-plan"') : text.index('id="report-confidence"')]
    # The plan is the operator's Los Angeles server on its demo price list, in whole servers.
    assert "Harbour GPU Cloud · Los Angeles (One Wilshire)" in plan
    assert "Demo price list" in plan and "ask for a price" not in plan
    report.refresh_from_db()
    first = report.result["workloads"][0]["options"][0]
    server = first["unit"]["name"]
    assert server.startswith("LAX-") and server in plan
    quote = _client_for("member@demo.example").get(
        reverse("advisor:report", args=[assessment.pk, report.number]),
        {"offer": first["prices"][first["billing_used"]]["price_id"]},
    )
    card = quote.text[quote.text.index('id="quote"') :]
    assert server in card
    assert '<dd class="col-sm-9 quote-deployment">Dedicated hosting or bare metal</dd>' in card


def test_the_servers_line_is_punctuated_in_the_reports_language() -> None:
    # The core customer's report in both languages says the servers bought, with the page
    # language's brackets.
    call_command("seed", password=PASSWORD)
    core = Assessment.objects.get(title="Hong Kong assistant serving mainland China")
    client = _client_for("member@demo.example")
    expected = {
        "en": (r"\d+ × \S+ servers?, \d+ × ", " ("),
        "zh-hant": (r"\d+ 台 \S+ 伺服器", "（"),
    }
    for language, (words, bracket) in expected.items():
        report = core.reports.filter(language=language).first() or core.reports.get()
        if report.language != language:
            report = reports.report_request(
                assessment=core, user=core.created_by, language=language, throttle=False
            )
            reports.report_generate(report_id=report.pk)
        text = client.get(reverse("advisor:report", args=[core.pk, report.number])).text
        plan = text[text.index('id="report-plan"') : text.index('id="report-confidence"')]
        units = re.findall(r'<div class="report-units">.*?</div>', plan, re.S)
        assert units, language
        assert all(re.search(words, u) and bracket in u for u in units), (language, units[0])
