from __future__ import annotations

import json
import time
from typing import Any

from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand

from accounts import services as account_services
from accounts.models import Organization, Role, User
from advisor.management.waiting import wait_for_report_and_pdf
from advisor.models import Assessment
from advisor.services import reports, sharing
from advisor.starters import STARTERS

DOMAIN = "load.example"
SALES_ORG = "Load test sales"


class Command(BaseCommand):
    help = (
        "Seed `make load`: people who fill in assessments (one organisation each, so the "
        "per-organisation report limit is theirs alone), sales engineers of one organisation "
        "with done reports to share, and a few share links for the first anonymous visitors. "
        "Repeatable: earlier load data is removed first. Writes the accounts as JSON."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--people", type=int, default=100)
        parser.add_argument("--sales", type=int, default=10)
        parser.add_argument("--reports", type=int, default=2, help="Done reports to share.")
        parser.add_argument("--links", type=int, default=5, help="Share links made up front.")
        parser.add_argument("--password", required=True)
        parser.add_argument("--out", required=True, help="JSON file to write.")
        parser.add_argument("--timeout", type=float, default=120, help="Seconds for the reports.")

    def handle(self, *args: Any, **options: Any) -> None:
        Organization.objects.filter(name__startswith="Load test ").delete()
        User.objects.filter(email__endswith="@" + DOMAIN).delete()
        # One hash for every account: the production hasher costs ~0.3 s per account.
        password = make_password(options["password"])

        def person(email: str, name: str) -> User:
            return User.objects.create(email=email, full_name=name, password=password)

        people = []
        for i in range(options["people"]):
            user = person(f"person{i}@{DOMAIN}", f"Load person {i}")
            account_services.organization_create(name=f"Load test org {i}", owner=user)
            people.append(user.email)

        sales_org = account_services.organization_create(name=SALES_ORG)
        sales = []
        for i in range(options["sales"]):
            user = person(f"sales{i}@{DOMAIN}", f"Load sales engineer {i}")
            account_services.membership_create(
                user=user, organization=sales_org, role=Role.SALES_ENGINEER
            )
            sales.append(user.email)
        owner = User.objects.get(email=sales[0]) if sales else None

        seeded = []
        for i in range(options["reports"] if owner else 0):
            starter = STARTERS[i % len(STARTERS)]
            assessment = Assessment.objects.create(
                organization=sales_org,
                created_by=owner,
                title=f"Load test report {i}",
                status=Assessment.Status.SUBMITTED,
                answers=starter.document(),
            )
            seeded.append(
                reports.report_request(
                    assessment=assessment, user=owner, language="en", throttle=False
                )
            )
        deadline = time.monotonic() + options["timeout"]
        for report in seeded:
            # Done, and with its PDF: the seeded reports are what people find already there.
            wait_for_report_and_pdf(report, deadline=deadline, poll=0.1)
        tokens = []
        for i in range(options["links"] if owner is not None else 0):
            assert owner is not None  # noqa: S101 - narrows the type
            _link, token = sharing.share_link_create(
                report=seeded[i % len(seeded)], user=owner, label=f"load {i}"
            )
            tokens.append(token)

        data = {
            "password": options["password"],
            "people": people,
            "sales": sales,
            "reports": [f"/assessments/{r.assessment_id}/reports/{r.number}/" for r in seeded],
            "tokens": tokens,
        }
        with open(options["out"], "w") as fh:
            json.dump(data, fh, indent=2)
        self.stdout.write(
            f"{len(people)} people, {len(sales)} sales engineers, {len(seeded)} done reports, "
            f"{len(tokens)} share links"
        )
