"""House offers through the pages: the operator adds house offers in the admin (a draft
catalog, then published), reports rank them like any other offer, and a report with one sends
a quote request (the sized server, nothing retyped) to the operator's sales engineers, who work
the leads list on their dashboard."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from advisor.models import Assessment, Lead, Report
from advisor.reference.models import Catalog, CatalogPrice, HouseOffer
from advisor.reference.services.catalog import catalog_publish
from advisor.starters import BY_SLUG
from tests.factories import (
    AssessmentFactory,
    CatalogFactory,
    MembershipFactory,
    ReportFactory,
    operator_member,
    operator_organization,
)

pytestmark = pytest.mark.django_db


def _offer_post(catalog: Catalog, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "catalog": catalog.pk,
        "key": "house-hk-h200",
        "accelerator": catalog.accelerators.get(key="nvidia-h200").pk,
        "gpu_count": 8,
        "server_name": "HK-H200-8",
        "cpu": "2 × AMD EPYC 9354 (64 cores)",
        "ram_gb": 2048,
        "nvme_tb": "30.72",
        "network_gbps": "100",
        "china_bandwidth_mbps": 200,
        "china_bandwidth_type": "cn2_gia",
        "region": "Hong Kong (Tseung Kwan O)",
        "region_key": "hong_kong",
        "modes": ["dedicated_hosting", "bare_metal"],
        "usd_per_server_month": "",
        "price_on_request": "on",
        "setup_fee_usd": "500",
        "min_term_months": 12,
        "source": "Operator price list 2026-11",
        "as_of": "2026-11-01",
        "note": "",
    }
    data.update(changes)
    return data


@pytest.fixture
def editor(client: Client) -> Client:
    operator_organization().__class__.objects.filter(is_operator=True).update(
        name="Harbour Compute"
    )
    client.force_login(operator_member(Role.ADMIN))
    return client


@pytest.fixture
def published_offer(editor: Client) -> CatalogPrice:
    draft = CatalogFactory()
    response = editor.post(reverse("admin:reference_houseoffer_add"), _offer_post(draft))
    assert response.status_code == 302, response.context["adminform"].form.errors
    catalog_publish(catalog=draft, user=None)
    return CatalogPrice.objects.get(catalog=draft, key="house-hk-h200")


def _hong_kong_hosted() -> dict[str, Any]:
    answers = BY_SLUG["llm-fine-tuning-startup"].document()
    answers["organization"]["regions"] = ["hong_kong"]
    answers["deployment"]["allowed_modes"] = ["dedicated_hosting"]
    return answers


@pytest.fixture
def customer(published_offer: CatalogPrice) -> tuple[Client, Report]:
    membership = MembershipFactory(role=Role.MEMBER)
    assessment = AssessmentFactory(
        membership=membership, status=Assessment.Status.SUBMITTED, answers=_hong_kong_hosted()
    )
    report = ReportFactory(assessment=assessment)
    client = Client()
    client.force_login(membership.user)
    return client, report


def _report_url(report: Report) -> str:
    return reverse("advisor:report", kwargs={"pk": report.assessment_id, "number": report.number})


def _quote_url(report: Report) -> str:
    return reverse(
        "advisor:quote_request", kwargs={"pk": report.assessment_id, "number": report.number}
    )


# --- the admin ----------------------------------------------------------------------------------


def test_an_admin_adds_a_house_offer_as_a_catalog_price(published_offer: CatalogPrice) -> None:
    row = published_offer
    assert (row.provider, row.cloud, row.billing) == ("Harbour Compute", "other", "monthly")
    assert row.usd_per_device_month is None and row.extra["price_on_request"] is True
    assert row.extra["house"] is True and row.extra["gpus_per_unit"] == 8
    assert row.extra["server"]["china_bandwidth_type"] == "cn2_gia"
    assert row.extra["server"]["ram_gb"] == 2048 and row.extra["server"]["setup_fee_usd"] == 500
    assert HouseOffer.objects.filter(pk=row.pk).exists()


def test_a_priced_house_offer_stores_the_per_card_month(editor: Client) -> None:
    draft = CatalogFactory()
    post = _offer_post(draft, usd_per_server_month="16000", price_on_request="")
    response = editor.post(reverse("admin:reference_houseoffer_add"), post)
    assert response.status_code == 302
    row = CatalogPrice.objects.get(catalog=draft, key="house-hk-h200")
    assert row.usd_per_device_month == 2000 and row.derived is True
    page = editor.get(reverse("admin:reference_houseoffer_change", args=[row.pk]))
    assert page.context["adminform"].form.initial["usd_per_server_month"] == 16000


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"price_on_request": ""}, "usd_per_server_month", "tick “Price on request”"),
        ({"usd_per_server_month": "9000"}, "price_on_request", "not both"),
        ({"china_bandwidth_type": ""}, "china_bandwidth_type", "Choose the route"),
        ({"gpu_count": 17}, "gpu_count", "16"),
        ({"ram_gb": 0}, "ram_gb", "greater than or equal to 1"),
        ({"region_key": "atlantis"}, "region_key", "Select a valid choice"),
        ({"as_of": "2099-01-01"}, "as_of", "in the future"),
        ({"modes": ["public_cloud"]}, "modes", "Select a valid choice"),
    ],
)
def test_bad_house_offers_are_refused_with_every_problem(
    editor: Client, changes: dict[str, Any], field: str, message: str
) -> None:
    draft = CatalogFactory()
    response = editor.post(reverse("admin:reference_houseoffer_add"), _offer_post(draft, **changes))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert message in " ".join(errors[field])
    assert not CatalogPrice.objects.filter(catalog=draft, key="house-hk-h200").exists()


def test_only_editors_open_the_house_offer_admin(client: Client) -> None:
    client.force_login(operator_member(Role.SALES_ENGINEER))
    assert client.get(reverse("admin:reference_houseoffer_add")).status_code in (302, 403)


# --- the report and the quote request -----------------------------------------------------------


def test_the_report_ranks_the_house_offer_and_shows_the_quote_form(
    customer: tuple[Client, Report],
) -> None:
    client, report = customer
    first = report.result["workloads"][0]["options"][0]
    # Sold on request, the server ranks on an indicative price that names its basis.
    price = first["prices"][first["billing_used"]]
    assert first["accelerator_id"] == "nvidia-h200" and "unpriced" not in first
    assert price["price_id"] == "house-hk-h200" and price["indicative"]
    assert first["on_request"][0]["provider"] == "Harbour Compute"
    page = client.get(_report_url(report)).content.decode()
    assert "Request a quote" in page and "Harbour Compute" in page
    assert _quote_url(report) in page


def test_a_quote_request_sends_the_sized_server_to_the_sales_engineers(
    customer: tuple[Client, Report], django_capture_on_commit_callbacks: Any, sent_mail: Any
) -> None:
    client, report = customer
    engineer = operator_member(Role.SALES_ENGINEER)
    post = {"term_months": 24, "china_bandwidth_mbps": 100, "china_bandwidth_type": "cmi"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(_quote_url(report), {**post, "note": "Go live in March"})
    assert response.status_code == 302
    lead = Lead.objects.get()
    assert (lead.organization, lead.report, lead.status) == (
        report.assessment.organization,
        report,
        "new",
    )
    assert lead.server["accelerator_id"] == "nvidia-h200" and lead.server["count"] >= 1
    assert lead.server["offer"]["price_id"] == "house-hk-h200"
    # The server as the operator entered it, not the engine's re-sized host.
    assert lead.server["server"] == {
        "name": "HK-H200-8",
        "cpu": "2 × AMD EPYC 9354 (64 cores)",
        "ram_gb": 2048,
        "nvme_tb": 30.72,
        "network_gbps": 100.0,
        "china_bandwidth_type": "cn2_gia",
        "china_bandwidth_mbps": 200,
        "min_term_months": 12,
        "setup_fee_usd": 500.0,
    }
    assert (lead.region, lead.term_months, lead.china_bandwidth_mbps) == ("hong_kong", 24, 100)
    (message,) = sent_mail()
    assert engineer.email in message.to
    assert lead.server["summary"] in message.subject and "Go live in March" in message.body
    # The customer sees their request and its status on the report and their dashboard.
    assert "New" in client.get(_report_url(report)).content.decode()
    assert lead.server["summary"] in client.get(reverse("advisor:dashboard")).content.decode()


def test_a_quote_request_does_not_wait_on_the_mail_server(
    customer: tuple[Client, Report],
    settings: Any,
    django_capture_on_commit_callbacks: Any,
    sent_mail: Any,
) -> None:
    # The email was sent inside the request once the lead was committed, so a
    # slow mail server held the page and one that was down answered a saved request with 500.
    client, report = customer
    operator_member(Role.SALES_ENGINEER)
    outbox = settings.MAILERS
    with socket.socket() as probe:  # a port nothing listens on: the mail server is down
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    smtp = {"host": "127.0.0.1", "port": port, "timeout": 2}
    settings.MAILERS = {
        "default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend", "OPTIONS": smtp}
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(_quote_url(report), {"term_months": 12})
    assert response.status_code == 302 and Lead.objects.count() == 1
    # A worker sends it once the mail server answers again.
    settings.MAILERS = outbox
    (message,) = sent_mail()
    assert Lead.objects.get().server["summary"] in message.subject


@pytest.mark.parametrize(
    ("post", "problem"),
    [
        ({"term_months": 5}, "Select a valid choice"),
        ({"term_months": 12, "china_bandwidth_mbps": -1}, "greater than or equal to 0"),
        ({"term_months": 12, "china_bandwidth_mbps": 100}, "Choose the route"),
        ({"term_months": 12, "note": "x" * 1001}, "at most 1000"),
    ],
)
def test_bad_quote_requests_are_refused_and_nothing_is_sent(
    customer: tuple[Client, Report],
    post: dict[str, Any],
    problem: str,
    django_capture_on_commit_callbacks: Any,
) -> None:
    client, report = customer
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(_quote_url(report), {**post, "note": post.get("note", "Kept")})
    assert response.status_code == 400
    page = response.content.decode()
    assert problem in page and "The quote request was not sent" in page
    assert "x" * 1000 in page or "Kept" in page  # what was typed comes back
    assert not Lead.objects.exists() and not mail.outbox


def test_a_stranger_gets_404_for_the_quote_request(customer: tuple[Client, Report]) -> None:
    _client, report = customer
    stranger = Client()
    stranger.force_login(MembershipFactory().user)
    assert stranger.post(_quote_url(report), {"term_months": 12}).status_code == 404
    assert not Lead.objects.exists()


def test_a_report_without_a_house_offer_has_no_quote_action(client: Client) -> None:
    membership = MembershipFactory()
    report = ReportFactory(assessment=AssessmentFactory(membership=membership, submitted=True))
    client.force_login(membership.user)
    assert "Request a quote" not in client.get(_report_url(report)).content.decode()
    assert client.post(_quote_url(report), {"term_months": 12}).status_code == 404


def test_the_quote_request_needs_csrf(customer: tuple[Client, Report]) -> None:
    _client, report = customer
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(report.assessment.organization.memberships.first().user)
    assert strict.post(_quote_url(report), {"term_months": 12}).status_code == 403


# --- the leads list -----------------------------------------------------------------------------


def _lead(report: Report) -> Lead:
    client = Client()
    client.force_login(report.assessment.organization.memberships.first().user)
    client.post(_quote_url(report), {"term_months": 12})
    return Lead.objects.get()


def test_sales_engineers_see_every_lead_and_move_its_status(
    customer: tuple[Client, Report],
) -> None:
    _client, report = customer
    lead = _lead(report)
    engineer = Client()
    engineer.force_login(operator_member(Role.SALES_ENGINEER))
    page = engineer.get(reverse("advisor:dashboard")).content.decode()
    assert "Quote requests" in page and report.assessment.organization.name in page
    url = reverse("advisor:lead_status", kwargs={"lead_id": lead.pk})
    assert engineer.post(url, {"status": "quoted"}).status_code == 302
    lead.refresh_from_db()
    assert lead.status == "quoted"
    assert engineer.post(url, {"status": "sold"}).status_code == 302
    lead.refresh_from_db()
    assert lead.status == "quoted"


def test_customers_see_only_their_own_leads_and_cannot_change_them(
    customer: tuple[Client, Report],
) -> None:
    client, report = customer
    lead = _lead(report)
    other = Client()
    other.force_login(MembershipFactory().user)
    assert lead.server["summary"] not in other.get(reverse("advisor:dashboard")).content.decode()
    url = reverse("advisor:lead_status", kwargs={"lead_id": lead.pk})
    assert client.post(url, {"status": "won"}).status_code == 404
    assert other.post(url, {"status": "won"}).status_code == 404
    lead.refresh_from_db()
    assert lead.status == "new"


def test_a_priced_house_offer_heads_the_report_and_is_quoted_with_its_price(
    editor: Client, client: Client
) -> None:
    draft = CatalogFactory()
    post = _offer_post(draft, usd_per_server_month="16000", price_on_request="")
    assert editor.post(reverse("admin:reference_houseoffer_add"), post).status_code == 302
    catalog_publish(catalog=draft, user=None)
    membership = MembershipFactory(role=Role.MEMBER)
    assessment = AssessmentFactory(
        membership=membership, status=Assessment.Status.SUBMITTED, answers=_hong_kong_hosted()
    )
    report = ReportFactory(assessment=assessment)
    first = report.result["workloads"][0]["options"][0]
    price = first["prices"][first["billing_used"]]
    assert (price["price_id"], price["provider"], price["house"]) == (
        "house-hk-h200",
        "Harbour Compute",
        True,
    )
    client.force_login(membership.user)
    page = client.get(_report_url(report)).content.decode()
    assert "Request a quote" in page and "$2,000 per card-month" in page


def test_a_clone_of_a_catalog_keeps_its_house_offers(published_offer: CatalogPrice) -> None:
    clone = CatalogFactory()
    row = HouseOffer.objects.get(catalog=clone, key="house-hk-h200")
    assert row.extra == published_offer.extra and row.usd_per_device_month is None


def test_the_quote_carries_the_cards_needed_and_the_server_bought(
    customer: tuple[Client, Report], django_capture_on_commit_callbacks: Any, sent_mail: Any
) -> None:
    client, report = customer
    first = report.result["workloads"][0]["options"][0]
    # Priced on the whole 8-card server, the run is stretched to it; it needs its minimum.
    needed = first["min_count"]
    assert needed < 8 and first["count"] == 8
    page = client.get(_report_url(report)).content.decode()
    unit = f"bought as 1 server of 8 × {first['name']}"
    assert f"{needed} card{'s' if needed > 1 else ''} needed · {unit}" in page
    operator_member(Role.SALES_ENGINEER)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(_quote_url(report), {"term_months": 12})
    lead = Lead.objects.get()
    assert (lead.server["needed_count"], lead.server["count"]) == (needed, 8)
    assert (lead.server["units"], lead.server["gpus_per_unit"]) == (1, 8)
    (message,) = sent_mail()
    assert f"{needed} card{'s' if needed > 1 else ''} needed · {unit}" in message.body
    engineer = Client()
    engineer.force_login(operator_member(Role.SALES_ENGINEER))
    assert unit in engineer.get(reverse("advisor:dashboard")).content.decode()
    assert unit in client.get(reverse("advisor:dashboard")).content.decode()


# --- The quote as the operator means it ------------------------------------------


def test_the_quote_card_shows_the_server_as_entered_credited_to_the_operator(
    customer: tuple[Client, Report],
) -> None:
    client, report = customer
    page = client.get(_report_url(report)).content.decode()
    card = page[page.index('id="quote"') :]
    assert "<strong>Harbour Compute</strong> offers this server" in card
    assert "2 × AMD EPYC 9354 (64 cores) · 2048 GB RAM · 30.72 TB NVMe · 100.0 Gbps" in card
    assert "CN2 GIA · 200 Mbps included" in card
    # The route entered on the server is the request's default, not "None".
    assert '<option value="cn2_gia" selected>' in card
    # The customer's own organisation is never named as the seller.
    assert f"from <strong>{report.assessment.organization.name}" not in card


def test_a_quote_covers_every_workload_the_offer_serves_and_links_to_the_report(
    customer: tuple[Client, Report], django_capture_on_commit_callbacks: Any, sent_mail: Any
) -> None:
    client, report = customer
    operator_member(Role.SALES_ENGINEER)
    kinds = [
        w["kind"]
        for w in report.result["workloads"]
        if any(
            offer["price_id"] == "house-hk-h200"
            for o in w["options"]
            for offer in [*(o.get("on_request") or []), *(o.get("house_on_request") or [])]
        )
    ]
    assert len(kinds) == 2  # fine-tuning and serving both fit the H200 server
    with django_capture_on_commit_callbacks(execute=True):
        client.post(_quote_url(report), {"term_months": 12})
    lead = Lead.objects.get()
    parts = lead.server["workloads"]
    assert [p["workload"] for p in parts] == kinds
    for part in parts:
        assert part["accelerator_id"] == "nvidia-h200"
        assert part["units"] * 8 == part["count"] >= part["needed_count"] >= 1
    # Workloads that share one fleet are quoted as that fleet's servers, never more than the
    # servers each would take alone; without a shared fleet the quote adds them up.
    fleet = lead.server.get("fleet")
    separate = sum(p["units"] for p in parts)
    if fleet is None:
        assert lead.server["total_units"] == separate
    else:
        assert lead.server["total_units"] == fleet["servers_shared"] <= separate
        assert fleet["servers_shared"] < fleet["servers_separate"]
    assert lead.server["report"] == {"assessment": report.assessment_id, "number": 1}
    (message,) = sent_mail()
    assert f"http://testserver{_report_url(report)}" in message.body
    assert "China route: CN2 GIA (200 Mbps)" in message.body
    dashboard = client.get(reverse("advisor:dashboard")).content.decode()
    assert "From report 1 of" in dashboard


# --- The admin without a draft, and the demand column ------------------


def test_the_house_offer_form_works_without_a_draft_and_names_the_draft_it_wrote(
    editor: Client,
) -> None:
    published = CatalogFactory()
    catalog_publish(catalog=published, user=None)
    assert not Catalog.objects.filter(status=Catalog.Status.DRAFT).exists()
    add = reverse("admin:reference_houseoffer_add")
    form = editor.get(add).content.decode()
    assert "A new draft of the published catalog, created when you save" in form
    # The card is picked from the published catalog; the catalog is left empty.
    response = editor.post(add, {**_offer_post(published), "catalog": ""}, follow=True)
    assert response.redirect_chain, response.context["adminform"].form.errors
    draft = Catalog.objects.get(status=Catalog.Status.DRAFT)
    offer = HouseOffer.objects.get(catalog=draft, key="house-hk-h200")
    assert offer.accelerator.catalog_id == draft.pk and offer.accelerator.key == "nvidia-h200"
    assert f"The offer was written to a new draft catalog, {draft}." in response.content.decode()
    # A second offer goes to that draft, named on the form.
    assert f"The newest draft ({draft})" in editor.get(add).content.decode()
    response = editor.post(add, {**_offer_post(published, key="house-hk-h200-b"), "catalog": ""})
    assert response.status_code == 302
    assert HouseOffer.objects.filter(catalog=draft).count() == 2
    assert Catalog.objects.filter(status=Catalog.Status.DRAFT).count() == 1
    # An id the draft already has is refused on the form, not by the database.
    response = editor.post(add, {**_offer_post(published), "catalog": ""})
    assert response.status_code == 200
    assert "already has a price with this id" in str(response.context["adminform"].form.errors)


def test_the_admin_shows_how_many_recent_assessments_each_house_offer_fitted_and_won(
    editor: Client, customer: tuple[Client, Report]
) -> None:
    _client, report = customer
    fitted = AssessmentFactory(status=Assessment.Status.SUBMITTED, answers=_hong_kong_hosted())
    ReportFactory(assessment=fitted)
    # The starter's team is in Hong Kong and Singapore and allows dedicated hosting: its first
    # option is on public cloud, and the server stands beside it.
    other = AssessmentFactory(status=Assessment.Status.SUBMITTED)
    ReportFactory(assessment=other)
    # The same team on public cloud only: the server is not for it.
    cloud_only = BY_SLUG["llm-fine-tuning-startup"].document()
    cloud_only["deployment"]["allowed_modes"] = ["public_cloud"]
    ReportFactory(
        assessment=AssessmentFactory(status=Assessment.Status.SUBMITTED, answers=cloud_only)
    )
    page = editor.get(reverse("admin:reference_houseoffer_changelist")).content.decode()
    table = page[page.index('id="result_list"') :]
    row = table[table.index("house-hk-h200") :]
    row = row[: row.index("</tr>")]
    # Every team's report lists the server beside or at its first option.
    assert "3 / 3 of 4" in row


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_the_admin_names_region_groups_never_by_their_keys(
    editor: Client, published_offer: CatalogPrice, language: str
) -> None:
    """A price's region group and the house offers' region filter read "US Central" / "香港",
    not "us_central" / "hong_kong"."""
    editor.cookies["django_language"] = language
    draft = CatalogFactory()
    price = CatalogPrice.objects.filter(catalog=draft, region_key="us_central").first()
    assert price is not None  # the bundled catalog prices Google Cloud's us-central1
    page = editor.get(
        reverse("admin:reference_catalogprice_change", args=[price.pk]),
        headers={"accept-language": language},
    ).content.decode()
    central = "US Central" if language == "en" else "美國中部"
    assert f'<option value="us_central" selected>{central}</option>' in page
    assert 'value="us_central"' not in page.replace('<option value="us_central" selected>', "")
    listing = editor.get(
        reverse("admin:reference_houseoffer_changelist"), headers={"accept-language": language}
    ).content.decode()
    hong_kong = "Hong Kong" if language == "en" else "香港"
    assert f'title="{hong_kong}">{hong_kong}</a>' in listing or f">{hong_kong}</a>" in listing
    assert ">hong_kong</a>" not in listing
