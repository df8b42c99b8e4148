"""Quote requests (leads) for a report's house offer: bounded per person, organisation and
report, one open request per offer, and an email to the operator's sales engineers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils.translation import gettext

from accounts import throttle as rate_limits
from accounts.models import Role, User
from advisor.models import Lead, Report, ShareLink
from advisor.selectors.leads import quote_snapshot
from advisor.services.mail import email_send_after_commit


class QuoteNotAvailable(Exception):
    """The report has no house offer to quote (or is not finished)."""


def _sales_engineer_emails() -> list[str]:
    return sorted(
        User.objects.filter(
            is_active=True,
            memberships__organization__is_operator=True,
            memberships__role__in=[Role.SALES_ENGINEER, Role.ADMIN],
        )
        .values_list("email", flat=True)
        .distinct()
    )


def lead_create(
    *,
    report: Report,
    user: User | None,
    term_months: int,
    china_bandwidth_mbps: int,
    china_bandwidth_type: str,
    note: str,
    dashboard_url: str,
    offer_id: str = "",
    report_url: str = "",
    contact_name: str = "",
    contact_email: str = "",
    share_link: ShareLink | None = None,
) -> Lead:
    """A quote request for the report's house offer, its sized server copied from the report
    (selectors.quote_snapshot), and an email to the operating organisation's sales engineers,
    sent by a worker once it is committed."""
    snapshot = (
        quote_snapshot(report=report, offer_id=offer_id)
        if report.status == Report.Status.DONE
        else None
    )
    if snapshot is None:
        raise QuoteNotAvailable
    lead = Lead.objects.create(
        report=report,
        organization=report.assessment.organization,
        requested_by=user,
        contact_name=contact_name,
        contact_email=contact_email,
        share_link=share_link,
        server=snapshot,
        region=str(snapshot["region"])[:40],
        term_months=term_months,
        china_bandwidth_mbps=china_bandwidth_mbps,
        china_bandwidth_type=china_bandwidth_type,
        note=note,
    )
    recipients = _sales_engineer_emails()
    if recipients:
        context = {
            "lead": lead,
            "snapshot": snapshot,
            "url": dashboard_url,
            "report_url": report_url,
        }
        message = EmailMessage(
            subject=gettext("Quote request: %(server)s for %(customer)s")
            % {"server": snapshot["summary"], "customer": lead.organization.name},
            body=render_to_string("advisor/email/quote_request.txt", context),
            to=recipients,
            reply_to=[user.email if user is not None else contact_email],
        )
        email_send_after_commit(message=message)
    return lead


class QuoteThrottled(Exception):
    """Too many quote requests from this person, their organisation or on this report; try
    again in `retry_after` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


# A quote request a sales engineer has not answered yet: asking again adds nothing.
OPEN_LEAD_STATUSES = (Lead.Status.NEW, Lead.Status.CONTACTED)


def _quote_limits() -> list[rate_limits.Limit]:
    window = settings.QUOTE_REQUEST_WINDOW_SECONDS
    return [
        rate_limits.Limit("quote-user", limit=settings.QUOTE_REQUESTS_PER_USER, window=window),
        rate_limits.Limit(
            "quote-org", limit=settings.QUOTE_REQUESTS_PER_ORGANIZATION, window=window
        ),
        rate_limits.Limit("quote-report", limit=settings.QUOTE_REQUESTS_PER_REPORT, window=window),
    ]


def quote_throttle(*, user: User, report: Report) -> None:
    """Count one quote request against the person's, the customer organisation's and the
    report's limits (settings.QUOTE_REQUESTS_*); raises QuoteThrottled past any of them. Each
    request emails the operator's staff, so a script must not flood their inboxes. A request
    refused because one limit is used up counts against none of the others."""
    _throttle(str(user.pk), report)


def _throttle(person: str, report: Report) -> None:
    limits = list(
        zip(
            _quote_limits(),
            (person, str(report.assessment.organization_id), str(report.pk)),
            strict=True,
        )
    )
    waits = [rate_limits.exceeded(limit, subject) for limit, subject in limits]
    if not any(waits):
        waits = [rate_limits.hit(limit, subject) for limit, subject in limits]
    refused = [wait for wait in waits if wait is not None]
    if refused:
        raise QuoteThrottled(max(refused))


def quote_request(
    *, report: Report, user: User, offer_id: str = "", **fields: Any
) -> tuple[Lead, bool]:
    """A quote request from a person on a report (lead_create), bounded: the same person's
    open request for the same offer on the same report is returned instead of a new one
    (False: nothing created, nothing sent), and a new one counts against quote_throttle's
    limits first (QuoteThrottled past them). The report's row is locked while this is decided,
    so parallel clicks make one request."""
    return _bounded_request(
        report,
        offer_id,
        asker=Q(requested_by=user),
        person=str(user.pk),
        create=lambda locked: lead_create(report=locked, user=user, offer_id=offer_id, **fields),
    )


def shared_quote_request(
    *,
    report: Report,
    link: ShareLink,
    contact_name: str,
    contact_email: str,
    offer_id: str = "",
    **fields: Any,
) -> tuple[Lead, bool]:
    """A quote request from a visitor who opened a share link of `report`: no account, so
    the visitor's name and email say who asks, and the lead is the report's organisation's
    (whose report it is). Bounded as a member's (quote_request): the same address's open
    request for the same offer on the report is returned instead of a new one, and a new one
    counts against the person's limit (keyed on the address typed), the organisation's and
    the report's, so a link passed around cannot flood the sales engineers."""
    email = contact_email.strip().lower()
    return _bounded_request(
        report,
        offer_id,
        asker=Q(requested_by=None, contact_email__iexact=email),
        person=f"visitor:{email}",
        create=lambda locked: lead_create(
            report=locked,
            user=None,
            offer_id=offer_id,
            contact_name=contact_name.strip(),
            contact_email=email,
            share_link=link,
            **fields,
        ),
    )


def _bounded_request(
    report: Report,
    offer_id: str,
    *,
    asker: Q,
    person: str,
    create: Callable[[Report], Lead],
) -> tuple[Lead, bool]:
    """With the report's row locked: the asker's open request for the offer, if any (False:
    nothing created), else one counted against the person's, the organisation's and the
    report's limits and created (True)."""
    with transaction.atomic():
        locked = Report.objects.select_for_update().select_related("assessment").get(pk=report.pk)
        snapshot = (
            quote_snapshot(report=locked, offer_id=offer_id)
            if locked.status == Report.Status.DONE
            else None
        )
        if snapshot is None:
            raise QuoteNotAvailable
        open_request = (
            Lead.objects.filter(
                asker,
                report=locked,
                status__in=OPEN_LEAD_STATUSES,
                server__offer__price_id=(snapshot.get("offer") or {}).get("price_id", ""),
            )
            .order_by("-created_at")
            .first()
        )
        if open_request is not None:
            return open_request, False
        _throttle(person, locked)
        return create(locked), True


def lead_set_status(*, lead: Lead, status: str) -> Lead:
    """A sales engineer moves a quote request along (new → contacted → quoted → won/lost)."""
    lead.status = status
    lead.save(update_fields=["status", "updated_at"])
    return lead
