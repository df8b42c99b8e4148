"""Who is asking (the client address behind our proxies), and counters that limit abuse.

Every limit here is a fixed-window counter in the shared cache (Redis in production): `cache.add`
then `cache.incr` are single atomic operations there, so concurrent requests cannot all read the
same old count and pass together. The window is part of the key, which also tells a refused
client exactly when to come back (`Retry-After`).
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


def _address(value: str) -> str | None:
    """A bare IP address from an X-Forwarded-For entry ("1.2.3.4", "1.2.3.4:5678", "[::1]:80")."""
    value = value.strip()
    candidates = [value]
    if value.startswith("[") and "]" in value:
        candidates.append(value[1 : value.index("]")])
    elif value.count(":") == 1:
        candidates.append(value.split(":", 1)[0])
    for candidate in candidates:
        try:
            return str(ipaddress.ip_address(candidate))
        except ValueError:
            continue
    return None


def client_ip(request: HttpRequest) -> str | None:
    """The client's address as the PROXY_COUNT trusted proxies in front of us report it.

    Each proxy appends the address it was contacted from to X-Forwarded-For, so with n proxies
    the n-th entry from the right is the client; entries further left are whatever the client
    sent and cannot be trusted. Without proxies (or a header too short for them) REMOTE_ADDR is
    the client. Used by django-axes (AXES_CLIENT_IP_CALLABLE) and by every limit below.
    """
    count: int = settings.PROXY_COUNT
    if count > 0:
        header = request.META.get("HTTP_X_FORWARDED_FOR", "")
        entries = [entry for entry in header.split(",") if entry.strip()]
        if len(entries) >= count:
            address = _address(entries[-count])
            if address is not None:
                return address
    return request.META.get("REMOTE_ADDR") or None


def normalise_email(value: object) -> str:
    """The form of an email address accounts are stored and counted under."""
    return str(value or "").strip().lower()


@dataclass(frozen=True)
class Limit:
    name: str
    limit: int
    window: int  # seconds


def _key(limit: Limit, subject: str | None, now: float) -> tuple[str, int]:
    subject = subject or "unknown"
    bucket = int(now // limit.window)
    # Hashed: subjects are addresses typed by strangers, of any length and character.
    digest = hashlib.sha256(subject.encode()).hexdigest()[:32]
    retry_after = max(1, math.ceil((bucket + 1) * limit.window - now))
    return f"throttle:{limit.name}:{digest}:{bucket}", retry_after


def hit(limit: Limit, subject: str | None) -> int | None:
    """Count one event for `subject`; None while within the limit, else seconds to wait."""
    key, retry_after = _key(limit, subject, time.time())
    cache.add(key, 0, limit.window + 1)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: this is the window's first event
        cache.set(key, 1, limit.window + 1)
        count = 1
    return retry_after if count > limit.limit else None


def exceeded(limit: Limit, subject: str | None) -> int | None:
    """Without counting: seconds to wait if `subject` has used up its limit, else None."""
    key, retry_after = _key(limit, subject, time.time())
    count = cache.get(key, 0)
    return retry_after if count >= limit.limit else None


def clear(limit: Limit, subject: str | None) -> None:
    cache.delete(_key(limit, subject, time.time())[0])
