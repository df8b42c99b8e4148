from __future__ import annotations

import secrets
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from accounts import services
from accounts.models import Organization, Role, User

DEMO_ORG = "Demo AI Lab"
CUSTOMER_ORG = "Demo Customer Ltd"
DEMO_USERS = (
    ("member@demo.example", "Demo Member", Role.MEMBER),
    ("sales@demo.example", "Demo Sales Engineer", Role.SALES_ENGINEER),
    ("admin@demo.example", "Demo Admin", Role.ADMIN),
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

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
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
