from __future__ import annotations

import secrets
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse

from accounts import services
from accounts.models import Organization, Role, User
from advisor.demo_offers import (
    CORE_CUSTOMER,
    CORE_CUSTOMER_TITLE,
    HELD_BACK,
    HOUSE_OFFERS,
    house_offers,
)
from advisor.engine import load_catalog
from advisor.models import Assessment, Report
from advisor.reference.models import Catalog
from advisor.reference.services.catalog import (
    catalog_from_document,
    catalog_next_version,
    catalog_publish,
)
from advisor.services import assessments, reports, sharing
from advisor.starters import STARTERS, Starter

# The company running the site (its public name is what house offers are credited to) and two
# customers. The operator's staff are its sales engineer and admin; a customer's
# members see only their own organisation (the demo once made the customer's member a member of
# the operator, and a report told them "this is a server from" their own organisation).
OPERATOR_ORG = "Harbour GPU Cloud"
DEMO_ORG = "Demo AI Lab"
CUSTOMER_ORG = "Demo Customer Ltd"
# (email, name, role, organisations): the sales engineer also works inside the customers.
DEMO_USERS = (
    ("member@demo.example", "Demo Member", Role.MEMBER, (DEMO_ORG,)),
    (
        "sales@demo.example",
        "Demo Sales Engineer",
        Role.SALES_ENGINEER,
        (OPERATOR_ORG, DEMO_ORG, CUSTOMER_ORG),
    ),
    ("admin@demo.example", "Demo Admin", Role.ADMIN, (OPERATOR_ORG,)),
)
# Sample assessments, each submitted with a finished report, so a newcomer sees the product's
# point at once: (organisation, starter slug, author's email, report languages). The first is
# the operator's core customer (demo_offers.CORE_CUSTOMER), whose report leads with a house server.
CORE = "core-customer"
SAMPLES = (
    (DEMO_ORG, CORE, "member@demo.example", ("en",)),
    (DEMO_ORG, "llm-fine-tuning-startup", "member@demo.example", ("en", "zh-hant")),
    (DEMO_ORG, "realtime-chatbot", "member@demo.example", ("en",)),
    (CUSTOMER_ORG, "regulated-finance-private-cloud", "sales@demo.example", ("en", "zh-hant")),
)


def _bring_cards(document: dict[str, Any], bundled: dict[str, Any], cards: set[str]) -> None:
    """The bundled catalog's cards that `document` (a published catalog) lacks, with their
    bundled price rows, units, purchase-price figures and rule entries, so that a house server of
    a card added since can be priced and sized."""
    have = {a["id"] for a in document["accelerators"]}
    new = [a for a in bundled["accelerators"] if a["id"] in cards - have]
    if not new:
        return
    added = {a["id"] for a in new}
    document["accelerators"] += new
    price_ids = {p["id"] for p in document["prices"]}
    rows = [
        p for p in bundled["prices"] if p["accelerator_id"] in added and p["id"] not in price_ids
    ]
    document["prices"] += rows
    units = document.setdefault("units", {})
    for row in rows:
        unit = row.get("unit_id")
        if unit and unit not in units and unit in bundled.get("units", {}):
            units[unit] = bundled["units"][unit]
    for name in ("purchase_price_by_accelerator", "card_generations"):
        rule, theirs = document["rules"].get(name), bundled["rules"].get(name)
        if rule is None or theirs is None:
            continue
        for card in added & set(theirs["value"]):
            rule["value"].setdefault(card, theirs["value"][card])
            if name == "purchase_price_by_accelerator":
                key = theirs["value"][card]
                document["figures"].setdefault(key, bundled["figures"][key])


class Command(BaseCommand):
    help = (
        "Load demo data: the operating organisation (its staff and its house offers), two "
        "customers with sample reports, and print the users' credentials."
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
            operator = self._users(options)
            if operator is not None:
                self._house_offers(operator)
        if options["samples"]:
            self._samples()

    def _organization(self, name: str) -> Organization:
        found = Organization.objects.filter(name=name).first()
        return found if found is not None else services.organization_create(name=name)

    def _users(self, options: dict[str, Any]) -> Organization | None:
        """The demo organisations and users; the operator when the seed's own runs the site."""
        password = options["password"] or secrets.token_urlsafe(12)
        organizations = {
            name: self._organization(name) for name in (OPERATOR_ORG, DEMO_ORG, CUSTOMER_ORG)
        }
        ours = organizations[OPERATOR_ORG]
        # An operator chosen before stays; the customer an older seed marked as one gives way.
        operator = Organization.objects.filter(is_operator=True).first()
        if operator is not None and operator.name == DEMO_ORG:
            operator.is_operator = False
            operator.save(update_fields=["is_operator"])
            operator = None
        if operator is None:
            ours.is_operator = True
            ours.save(update_fields=["is_operator"])
        elif operator.pk != ours.pk:
            self.stderr.write(
                f"{operator.name} runs this site, not {OPERATOR_ORG}: the demo sales engineer and "
                "admin see no scoring models or catalog, and no demo house offers are added."
            )
        rows: list[tuple[str, str]] = []
        for email, name, role, names in DEMO_USERS:
            user = User.objects.filter(email=email).first()
            if user is None:
                user = User.objects.create_user(email=email, password=password, full_name=name)
            else:
                user.set_password(password)
                user.save(update_fields=["password"])
            for org_name in names:
                services.membership_create(
                    user=user, organization=organizations[org_name], role=role
                )
            rows.append((str(role), email))
        self.stdout.write(self.style.SUCCESS(f"Demo users (password for all: {password})"))
        for role_name, email in rows:
            self.stdout.write(f"  {role_name:<15} {email}")
        return ours if operator is None or operator.pk == ours.pk else None

    def _house_offers(self, operator: Organization) -> None:
        """The operator's demo house offers in Hong Kong, Tokyo and Los Angeles, once: a new
        catalog version (the published one, or the bundled one on a fresh database, plus the
        rows), published at once. Rows only: nothing here runs the engine."""
        published = Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
        bundled = load_catalog().to_dict()
        document = published.to_document() if published is not None else bundled
        ids = {p["id"] for p in document["prices"]}
        rows = [p for p in house_offers(operator.name) if p["id"] not in ids]
        if published is not None and published.prices.filter(extra__demo=True).exists():
            # Seeded before: only the servers of cards the bundled catalog has gained since (an
            # admin's removal of a demo row stays removed).
            have = {a["id"] for a in document["accelerators"]}
            rows = [p for p in rows if p["accelerator_id"] not in have]
            if not rows:
                return
        _bring_cards(document, bundled, {p["accelerator_id"] for p in rows})
        document["prices"] += rows
        draft = catalog_from_document(document=document, user=None, version=catalog_next_version())
        catalog_publish(catalog=draft, user=None)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo house offers of {operator.name} (catalog v{draft.version}, demo prices "
                "by the month, 12 and 36 months, derived from named public comparables)"
            )
        )
        for row in HOUSE_OFFERS:
            if row["billing"] == "monthly":
                self.stdout.write(
                    f"  {row['unit']:<16} {row['region']:<28} "
                    f"${row['usd_per_device_month'] * row['gpus_per_unit']:,.0f} a month"
                )
        for held in HELD_BACK:
            self.stdout.write(f"  not added: {held['offer']}, {held['region']}: {held['reason']}")

    def _samples(self) -> None:
        """Each sample once: an assessment from a starter, submitted, its reports generated here
        (not left to a worker that may not run yet) and, for the customer, a share link."""
        starters = {starter.slug: starter for starter in STARTERS}
        starters[CORE] = Starter(CORE, CORE_CUSTOMER_TITLE, "", CORE_CUSTOMER)
        lines: list[str] = []
        for org_name, slug, email, languages in SAMPLES:
            organization = Organization.objects.get(name=org_name)
            user = User.objects.get(email=email)
            starter = starters[slug]
            title = str(starter.title)
            if Assessment.objects.filter(organization=organization, title=title).exists():
                continue
            assessment = assessments.assessment_create_from_document(
                organization=organization,
                user=user,
                title=title,
                answers=starter.document(),
                draft=False,
            )
            for language in languages[1:]:
                reports.report_request(
                    assessment=assessment, user=user, language=language, throttle=False
                )
            for report in assessment.reports.order_by("number"):
                reports.report_generate(report_id=report.pk)
            done = assessment.reports.filter(status=Report.Status.DONE).order_by("number")
            count = done.count()
            lines.append(f"  {org_name}: {title} ({count} report{'' if count == 1 else 's'})")
            first = done.first()
            if org_name == CUSTOMER_ORG and first is not None:
                _, token = sharing.share_link_create(
                    report=first, user=user, label="Demo share link"
                )
                path = reverse("advisor:shared", args=[token])
                lines.append(f"    shared with the customer: {path}")
        if lines:
            self.stdout.write(self.style.SUCCESS("Sample assessments with finished reports"))
            for line in lines:
                self.stdout.write(line)
