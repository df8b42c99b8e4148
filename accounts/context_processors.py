from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.selectors import current_membership, request_memberships


def organizations(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {
        "current_membership": current_membership(request),
        # The same list the current membership came from (one query per request).
        "user_memberships": request_memberships(request),
    }
