"""Email login: case-insensitive, and limited across accounts and across client addresses."""

from __future__ import annotations

import functools
from typing import Any, cast

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import router
from django.http import HttpRequest

from accounts import rows, throttle
from accounts.models import User
from accounts.services import LOGIN_FAILURES_PER_ACCOUNT, LOGIN_FAILURES_PER_ADDRESS


def axes_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    """The normalised email django-axes counts failures under (AXES_USERNAME_CALLABLE)."""
    if credentials:
        return throttle.normalise_email(credentials.get("username"))
    return throttle.normalise_email(request.POST.get("username"))


def _lock_out(request: HttpRequest, wait: int) -> None:
    # AxesMiddleware answers flagged requests with views.locked_out (a 429).
    request.axes_locked_out = True  # type: ignore[attr-defined]
    request.login_retry_after = wait  # type: ignore[attr-defined]
    raise PermissionDenied


class EmailBackend(ModelBackend):
    """ModelBackend with the email matched whatever its case, and the spraying limits."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username is None or password is None:
            return None
        email = throttle.normalise_email(username)
        if request is not None:
            wait = throttle.exceeded(LOGIN_FAILURES_PER_ACCOUNT, email)
            if wait is not None:
                _lock_out(request, wait)
        user = super().authenticate(request, username=email, password=password, **kwargs)
        if user is None and request is not None:
            address = throttle.client_ip(request)
            over_address = throttle.hit(LOGIN_FAILURES_PER_ADDRESS, address)
            throttle.hit(LOGIN_FAILURES_PER_ACCOUNT, email)
            if over_address is not None:
                # Past the address's limit a wrong password is answered 429; a correct one
                # still signs in, since many people share an address (an office, a NAT) and
                # one of them spraying must not lock the others out.
                _lock_out(request, over_address)
        return user

    def get_user(self, user_id: Any) -> User | None:
        # ModelBackend's read of the signed-in user on every request (`objects.get(pk=...)`, then
        # is_active), through a statement written once (accounts.rows) rather than a queryset
        # built again per request. django.contrib.auth.get_user still checks the session's
        # password hash against this user, as for any backend.
        using = router.db_for_read(User)
        try:
            row = rows.fetch_one(_user_sql(using), [User._meta.pk.to_python(user_id)], using)
        except (ValueError, ValidationError):
            return None
        if row is None:
            return None
        user = cast(User, _USER.instance(row, 0, using))
        return user if self.user_can_authenticate(user) else None


_USER = rows.Columns(User, "u")


@functools.cache
def _user_sql(using: str) -> str:
    # Identifiers come from the model's metadata, quoted; the id is a parameter.
    return (
        f"SELECT {_USER.sql(using)} FROM {rows.table(User, using)} u "  # noqa: S608
        f"WHERE u.{rows.column(User, 'pk', using)} = %s"
    )
