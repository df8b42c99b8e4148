"""A report's share links: those of a version, one of an assessment's, the live one for a token."""

from __future__ import annotations

import hashlib

from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils import timezone

from advisor.models import Assessment, Report, ShareLink


def share_links_for(*, report: Report) -> QuerySet[ShareLink]:
    return report.share_links.select_related("created_by").order_by("-created_at")


def share_link_get(*, assessment: Assessment, pk: int) -> ShareLink:
    try:
        return ShareLink.objects.select_related("report").get(pk=pk, report__assessment=assessment)
    except ShareLink.DoesNotExist as exc:
        raise Http404 from exc


def share_link_by_token(*, token: str) -> ShareLink | None:
    """The live link for a token: unknown, revoked and expired all give None."""
    if not token or len(token) > 100:
        return None
    digest = hashlib.sha256(token.encode()).hexdigest()
    return (
        ShareLink.objects.select_related("report__assessment__organization")
        # The stored document is loaded only when the page is not kept (shared.html's
        # {% fragment %}); the result and answers documents are never shown.
        .defer(
            "report__html",
            "report__result",
            "report__answers",
            "report__assessment__answers",
            "report__assessment__pending_input",
            "report__assessment__result",
        )
        .filter(token_hash=digest, revoked_at__isnull=True, report__status=Report.Status.DONE)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
        .first()
    )
