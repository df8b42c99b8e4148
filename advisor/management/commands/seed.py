from __future__ import annotations

import secrets
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse

from accounts import services
from accounts.models import Organization, Role, User
from advisor import services as advisor_services
from advisor.models import Assessment, Report
from advisor.starters import STARTERS

DEMO_ORG = "Demo AI Lab"
CUSTOMER_ORG = "Demo Customer Ltd"
DEMO_USERS = (
    ("member@demo.example", "Demo Member", Role.MEMBER),
    ("sales@demo.example", "Demo Sales Engineer", Role.SALES_ENGINEER),
    ("admin@demo.example", "Demo Admin", Role.ADMIN),
)
# Sample assessments, each submitted with a finished report, so a newcomer sees the product's
# point at once: (organisation, starter slug, author's email, report languages).
SAMPLES = (
    (DEMO_ORG, "llm-fine-tuning-startup", "member@demo.example", ("en", "zh-hant")),
    (DEMO_ORG, "realtime-chatbot", "member@demo.example", ("en",)),
    (CUSTOMER_ORG, "regulated-finance-private-cloud", "sales@demo.example", ("en", "zh-hant")),
)


class Command(BaseCommand):
    help = (
        "Load demo data: the operating organisation with one user per role, a customer, and "
        "print their credentials."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--password",
            help="Password for the demo users (default: a new random one each run).",
        )
        parser.add_argument(
            "--no-samples",
            action="store_false",
            dest="samples",
            help="Do not add the sample assessments and their finished reports.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            self._users(options)
        if options["samples"]:
            self._samples()

    def _users(self, options: dict[str, Any]) -> None:
        password = options["password"] or secrets.token_urlsafe(12)
        organization = Organization.objects.filter(name=DEMO_ORG).first()
        if organization is None:
            organization = services.organization_create(name=DEMO_ORG)
        # The demo organisation runs the site: its sales engineer and admin are the staff who
        # read and edit the scoring models and the catalog. An operator chosen before stays.
        operator = Organization.objects.filter(is_operator=True).first()
        if operator is None:
            organization.is_operator = True
            organization.save(update_fields=["is_operator"])
        elif operator.pk != organization.pk:
            self.stderr.write(
                f"{operator.name} runs this site, not {DEMO_ORG}: the demo sales engineer and "
                "admin see no scoring models or catalog."
            )
        customer = Organization.objects.filter(name=CUSTOMER_ORG).first()
        if customer is None:
            customer = services.organization_create(name=CUSTOMER_ORG)
        rows: list[tuple[str, str]] = []
        for email, name, role in DEMO_USERS:
            user = User.objects.filter(email=email).first()
            if user is None:
                user = User.objects.create_user(email=email, password=password, full_name=name)
            else:
                user.set_password(password)
                user.save(update_fields=["password"])
            services.membership_create(user=user, organization=organization, role=role)
            if role == Role.SALES_ENGINEER:
                # Sales engineers work inside their customers' organisations too.
                services.membership_create(user=user, organization=customer, role=role)
            rows.append((str(role), email))
        self.stdout.write(self.style.SUCCESS(f"Demo users (password for all: {password})"))
        for role_name, email in rows:
            self.stdout.write(f"  {role_name:<15} {email}")

    def _samples(self) -> None:
        """Each sample once: an assessment from a starter, submitted, its reports generated here
        (not left to a worker that may not run yet) and, for the customer, a share link."""
        starters = {starter.slug: starter for starter in STARTERS}
        lines: list[str] = []
        for org_name, slug, email, languages in SAMPLES:
            organization = Organization.objects.get(name=org_name)
            user = User.objects.get(email=email)
            starter = starters[slug]
            title = str(starter.title)
            if Assessment.objects.filter(organization=organization, title=title).exists():
                continue
            assessment = advisor_services.assessment_create_from_document(
                organization=organization,
                user=user,
                title=title,
                answers=starter.document(),
                draft=False,
            )
            for language in languages[1:]:
                advisor_services.report_request(
                    assessment=assessment, user=user, language=language, throttle=False
                )
            for report in assessment.reports.order_by("number"):
                advisor_services.report_generate(report_id=report.pk)
            done = assessment.reports.filter(status=Report.Status.DONE).order_by("number")
            count = done.count()
            lines.append(f"  {org_name}: {title} ({count} report{'' if count == 1 else 's'})")
            first = done.first()
            if org_name == CUSTOMER_ORG and first is not None:
                _, token = advisor_services.share_link_create(
                    report=first, user=user, label="Demo share link"
                )
                path = reverse("advisor:shared", args=[token])
                lines.append(f"    shared with the customer: {path}")
        if lines:
            self.stdout.write(self.style.SUCCESS("Sample assessments with finished reports"))
            for line in lines:
                self.stdout.write(line)
