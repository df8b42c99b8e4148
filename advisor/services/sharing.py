"""Share links: a done report opened by whoever holds the link's token, until it is revoked
or expires."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from django.db.models import F
from django.utils import timezone

from accounts.models import User
from advisor.models import Report, ShareLink


class ReportNotReady(Exception):
    """The report is not done yet (or failed), so it cannot be shared or exported."""


def share_link_create(
    *, report: Report, user: User, label: str = "", expires_at: datetime | None = None
) -> tuple[ShareLink, str]:
    """A new share link to a done report; returns it with the raw token (shown once)."""
    if report.status != Report.Status.DONE:
        raise ReportNotReady
    token = secrets.token_urlsafe(24)  # 192 bits
    link = ShareLink.objects.create(
        report=report,
        token_hash=hashlib.sha256(token.encode()).hexdigest(),
        label=label.strip(),
        created_by=user,
        expires_at=expires_at,
    )
    return link, token


def share_link_revoke(*, link: ShareLink) -> None:
    ShareLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


def share_link_record_view(*, link: ShareLink) -> None:
    ShareLink.objects.filter(pk=link.pk).update(
        view_count=F("view_count") + 1, last_viewed_at=timezone.now()
    )
