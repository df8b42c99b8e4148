"""Who calls the API: a personal token (`Authorization: Bearer`); each person has a budget of
reads and of writes per minute across all of their tokens, and each client address a budget
of invalid tokens."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from ninja.security import HttpBearer

from accounts import throttle
from accounts.models import ApiToken, User
from accounts.selectors import api_token_get_by_key
from accounts.services import api_token_used

logger = logging.getLogger(__name__)


def _clock() -> float:
    return time.time()


class RateLimited(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def count_request(request: HttpRequest, token: ApiToken) -> None:
    """Count the request against its owner's budget; raise RateLimited past it.

    The budget is the person's, whichever of their tokens the request carries: a fixed window
    per user and kind (read or write) in the shared cache, so making more keys buys no more
    requests. cache.add creates the counter and cache.incr raises it atomically (Redis
    INCR), so parallel requests cannot all pass as the same count.
    """
    write = request.method not in ("GET", "HEAD", "OPTIONS")
    limit = settings.API_RATE_LIMIT_WRITES if write else settings.API_RATE_LIMIT_READS
    window = max(1, settings.API_RATE_LIMIT_WINDOW)
    now = int(_clock())
    start = now - now % window
    key = f"api-rate:{'write' if write else 'read'}:user:{token.user_id}:{start}"
    try:
        cache.add(key, 0, timeout=window + 1)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=window + 1)
            count = 1
    except Exception:  # a cache outage costs the limit, never the API
        logger.warning("API rate limit unavailable", exc_info=True)
        return
    if count > limit:
        raise RateLimited(start + window - now)


class InvalidTokensLimited(RateLimited):
    """Too many requests with invalid tokens from this client address."""


def _invalid_tokens() -> throttle.Limit:
    return throttle.Limit(
        "api-invalid-token",
        limit=settings.API_INVALID_TOKENS_PER_ADDRESS,
        window=max(1, settings.API_INVALID_TOKEN_WINDOW),
    )


def token_lookup(request: HttpRequest, key: str) -> ApiToken | None:
    """The live token whose key this is, or None.

    Each miss counts against the client address's budget of invalid tokens
    (settings.API_INVALID_TOKENS_*); past it a miss from that address is answered 429
    (InvalidTokensLimited), so a guesser learns nothing more in that window. A valid token is
    never refused for its address: many people share one (an office, a NAT, a CI provider),
    and one of them guessing must not lock the others out; a wrong key costs one indexed
    lookup of its hash either way. A cache outage costs the limit, never the API."""
    address = throttle.client_ip(request)
    api_token = api_token_get_by_key(key=key)
    if api_token is not None:
        return api_token
    try:
        wait = throttle.hit(_invalid_tokens(), address)
    except Exception:
        logger.warning("API invalid-token limit unavailable", exc_info=True)
        wait = None
    if wait is not None:
        raise InvalidTokensLimited(wait)
    return None


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> User | None:
        api_token = token_lookup(request, token)
        if api_token is None:
            return None
        count_request(request, api_token)
        api_token_used(token=api_token)
        request.user = api_token.user
        return api_token.user


def request_user(request: HttpRequest) -> User:
    user = request.auth  # type: ignore[attr-defined]
    assert isinstance(user, User)  # noqa: S101 - every operation requires BearerToken
    return user
