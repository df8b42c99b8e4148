"""Sessions kept in PostgreSQL and read through the shared cache (Redis in production).

Django's `cached_db` store: every signed-in request reads its session from the cache, and only
a login, a logout or a change writes to the database (and then to the cache), so a session
outlives a flushed or restarted Redis. Django's store fails the request when the cache is
unreachable while it reads a session from the database; here, as for the kept fragments
(advisor/templatetags/fragments.py), a cache outage costs speed, never the page, and signing in
works too: the new key's session is written to the database, and the old key's copy, which holds
no signed-in user, may stay in the cache (it grants nothing). A logout, or cycling a signed-in
session, still fails if the cache cannot forget the old copy: a copy left there would keep that
session signed in.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends import cached_db
from django.core.cache.backends.base import BaseCache

logger = logging.getLogger("django.contrib.sessions")


class SessionStore(cached_db.SessionStore):
    _cache: BaseCache  # set by Django's store; django-stubs does not declare it

    def load(self) -> dict[str, Any]:
        try:
            data: dict[str, Any] | None = self._cache.get(self.cache_key)
        except Exception:  # an unreachable cache, or a key it refuses: read the database
            data = None
        if data is not None:
            return data
        stored = self._get_session_from_db()  # type: ignore[attr-defined]  # not in django-stubs
        if stored is None:
            return {}
        data = self.decode(stored.session_data)
        try:
            self._cache.set(self.cache_key, data, self.get_expiry_age(expiry=stored.expire_date))
        except Exception:
            logger.warning("session not cached: the cache is unreachable", exc_info=True)
        return data

    def exists(self, session_key: str) -> bool:
        try:
            if session_key and (self.cache_key_prefix + session_key) in self._cache:
                return True
        except Exception:
            logger.warning("session cache unreachable; asking the database", exc_info=True)
        return bool(super(cached_db.SessionStore, self).exists(session_key))

    def cycle_key(self) -> None:
        data = self._session  # type: ignore[attr-defined]  # not in django-stubs
        if SESSION_KEY in data:  # a signed-in session: its old copy must go from the cache too
            super().cycle_key()
            return
        key = self.session_key
        self.create()
        self._session_cache = data
        if key:
            super(cached_db.SessionStore, self).delete(key)  # the database row
            try:
                self._cache.delete(self.cache_key_prefix + key)
            except Exception:
                logger.warning("old anonymous session left in the unreachable cache", exc_info=True)
