"""`make bench-pages`: the pages a walk through the product timed as slow, served one at a time in
this process through Django's test client against the seeded demo: wall and CPU milliseconds and SQL
queries per request, optionally a cProfile of each."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse

from accounts.models import User
from advisor.demo_offers import CORE_CUSTOMER_TITLE
from advisor.management.commands.seed import DEMO_ORG
from advisor.management.timing import counting, profiled, repeated, repeats, timed
from advisor.models import Assessment, Lead, Report, ShareLink
from advisor.reference.models import ScoringModel
from advisor.reference.services.scoring import scoring_model_clone
from advisor.services import reports, sharing

MEMBER = "member@demo.example"
ADMIN = "admin@demo.example"
# Report versions the member's sample assessment has before the timing (the seed makes one).
VERSIONS = 4
# Share links already on the measured report (the page lists them) and quote requests on it.
LINKS = 5


@dataclass
class Page:
    """One measured request: `request` sends it and returns the response; `before` and
    `after` run untimed around each repetition (a link to revoke, a lead to close)."""

    name: str
    request: Callable[[], Any]
    status: int
    before: Callable[[], Any] | None = None
    after: Callable[[], Any] | None = None


class Command(BaseCommand):
    help = (
        "Time the admin scoring-model change page and its draft save, a member's report page, "
        "share link create and revoke, and a quote request against the seeded demo (runs "
        "`seed` first when its users are missing): median and p95 wall ms, CPU ms, SQL queries."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--repeat", type=int, default=30, help="Requests per page.")
        parser.add_argument(
            "--profile", type=int, default=0, help="Also profile this many requests per page."
        )
        parser.add_argument("--only", default="", help="Comma-separated page names.")
        parser.add_argument("--out", default="", help="Also write the figures as JSON here.")

    def handle(self, *args: Any, **options: Any) -> None:
        if not User.objects.filter(email=MEMBER).exists():
            with open(os.devnull, "w") as quiet:
                call_command("seed", stdout=quiet)
        member = User.objects.get(email=MEMBER)
        admin_user = User.objects.get(email=ADMIN)
        report = _report(member)
        draft = _draft(admin_user)

        member_client = _client(member)
        admin_client = _client(admin_user)
        pages = _pages(member_client, admin_client, member, report, draft)
        only = {n for n in options["only"].split(",") if n}
        unknown = only - {p.name for p in pages}
        if unknown:
            raise CommandError(f"unknown pages: {', '.join(sorted(unknown))}")
        figures: dict[str, dict[str, Any]] = {}
        # A quote request emails the operator's staff; here they go nowhere, and the limits
        # that keep a script from flooding their inbox would refuse the repetitions.
        quiet_mail = override_settings(
            MAILERS={"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}},
            QUOTE_REQUESTS_PER_USER=10**6,
            QUOTE_REQUESTS_PER_ORGANIZATION=10**6,
            QUOTE_REQUESTS_PER_REPORT=10**6,
        )
        with quiet_mail:
            for page in pages:
                if only and page.name not in only:
                    continue
                figures[page.name] = self._measure(page, options)
        if options["out"]:
            Path(options["out"]).write_text(json.dumps(figures, indent=2))

    def _measure(self, page: Page, options: dict[str, Any]) -> dict[str, Any]:
        def checked() -> Any:
            response = page.request()
            if response.status_code != page.status:
                raise CommandError(f"{page.name} answered {response.status_code}")
            return response

        # The first request of a process compiles templates and the published models.
        _once(page, checked)
        with counting() as statements:
            _once(page, checked)
        figures: dict[str, Any] = {
            **timed(checked, options["repeat"], before=page.before, after=page.after),
            "queries": len(statements),
            **repeats(statements),
        }
        self.stdout.write(
            f"{page.name:<24} median {figures['ms']:7.1f} ms  p95 {figures['p95_ms']:7.1f} ms  "
            f"CPU {figures['cpu_ms']:7.1f} ms  {figures['queries']:3d} queries "
            f"({figures['duplicates']} duplicate, at most {figures['most_alike']} alike)"
        )
        if options["verbosity"] > 1:
            for n, sql in repeated(statements):
                self.stdout.write(f"    {n} × {sql[:160]}")
        if options["profile"]:
            self.stdout.write(
                profiled(checked, options["profile"], before=page.before, after=page.after)
            )
        return figures


def _once(page: Page, request: Callable[[], Any]) -> None:
    if page.before is not None:
        page.before()
    request()
    if page.after is not None:
        page.after()


def _client(user: User) -> Client:
    # The bench settings allow 127.0.0.1 and localhost, not the test client's "testserver".
    client = Client(SERVER_NAME="127.0.0.1")
    client.force_login(user)
    return client


def _report(member: User) -> Report:
    """The newest English version of the member's house-offer sample, with VERSIONS versions
    in two languages before it and LINKS share links on it, each generated here."""
    assessment = Assessment.objects.get(organization__name=DEMO_ORG, title=CORE_CUSTOMER_TITLE)
    while assessment.reports.count() < VERSIONS:
        language = "zh-hant" if assessment.reports.count() % 2 else "en"
        made = reports.report_request(
            assessment=assessment, user=member, language=language, throttle=False
        )
        reports.report_generate(report_id=made.pk)
    report = assessment.reports.filter(language="en", status=Report.Status.DONE).latest("number")
    ShareLink.objects.filter(report=report, label__startswith="bench").delete()
    for i in range(LINKS - report.share_links.count()):
        sharing.share_link_create(report=report, user=member, label=f"colleague {i + 1}")
    Lead.objects.filter(report=report, note="bench").delete()
    return report


def _draft(admin_user: User) -> ScoringModel:
    """A draft of the published scoring model (cloned once), as an admin edits it."""
    published = ScoringModel.objects.get(status=ScoringModel.Status.PUBLISHED)
    draft = ScoringModel.objects.filter(status=ScoringModel.Status.DRAFT).order_by("pk").last()
    return draft or scoring_model_clone(model=published, user=admin_user)


def _model_post(model: ScoringModel, weight: Decimal) -> dict[str, Any]:
    """The change form as a browser posts it, with the first criterion's weight changed
    ("Save and continue editing")."""
    data: dict[str, Any] = {
        "name": model.name,
        "version": model.version,
        "description": model.description,
        "criteria-TOTAL_FORMS": 0,
        "criteria-INITIAL_FORMS": 0,
        "criteria-MIN_NUM_FORMS": 0,
        "criteria-MAX_NUM_FORMS": 1000,
        "_continue": "Save and continue editing",
    }
    criteria = list(model.criteria.all())
    for i, c in enumerate(criteria):
        row = {
            "id": c.pk,
            "scoring_model": model.pk,
            "order": c.order,
            "key": c.key,
            "answer": c.answer,
            "weight": weight if i == 0 else c.weight,
            "label_en": c.label_en,
        }
        data.update({f"criteria-{i}-{k}": v for k, v in row.items()})
    data["criteria-TOTAL_FORMS"] = data["criteria-INITIAL_FORMS"] = len(criteria)
    return data


def _pages(
    member_client: Client, admin_client: Client, member: User, report: Report, draft: ScoringModel
) -> list[Page]:
    kwargs = {"pk": report.assessment_id, "number": report.number}
    report_url = reverse("advisor:report", kwargs=kwargs)
    change_url = reverse("admin:reference_scoringmodel_change", args=[draft.pk])
    weights = iter(Decimal(w) for w in ("1.25", "1.50") * 10**6)

    def save_draft() -> Any:
        return admin_client.post(change_url, _model_post(draft, next(weights)))

    links: list[ShareLink] = []

    def new_link() -> None:
        links.append(sharing.share_link_create(report=report, user=member, label="bench")[0])

    def drop_links() -> None:
        ShareLink.objects.filter(report=report, label="bench").delete()
        links.clear()

    def revoke(follow: bool = False) -> Any:
        url = reverse(
            "advisor:share_revoke", kwargs={"pk": report.assessment_id, "link_id": links[-1].pk}
        )
        return member_client.post(url, follow=follow)

    def share(follow: bool = False) -> Any:
        url = reverse("advisor:share_create", kwargs=kwargs)
        return member_client.post(url, {"label": "bench", "expires_in_days": "30"}, follow=follow)

    def quote(follow: bool = False) -> Any:
        url = reverse("advisor:quote_request", kwargs=kwargs)
        data = {"term_months": "12", "note": "bench", "offer": ""}
        return member_client.post(url, data, follow=follow)

    def drop_leads() -> None:
        # Each repetition is a new request: an open one would only be acknowledged again.
        Lead.objects.filter(report=report, note="bench").delete()

    return [
        Page("admin_scoring_get", lambda: admin_client.get(change_url), 200),
        Page("admin_scoring_save", save_draft, 302),
        Page("report_get", lambda: member_client.get(report_url), 200),
        Page("share_create", share, 302, after=drop_links),
        Page("share_create+page", lambda: share(follow=True), 200, after=drop_links),
        Page("share_revoke", revoke, 302, before=new_link, after=drop_links),
        Page("share_revoke+page", lambda: revoke(True), 200, before=new_link, after=drop_links),
        Page("quote_request", quote, 302, after=drop_leads),
        Page("quote_request+page", lambda: quote(True), 200, after=drop_leads),
    ]
