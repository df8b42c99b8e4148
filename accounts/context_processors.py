from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.selectors import current_membership, memberships_for_user


def organizations(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {
        "current_membership": current_membership(request),
        # A queryset: evaluated only where the organisation switcher is rendered.
        "user_memberships": memberships_for_user(user=user).order_by("organization__name"),
    }
