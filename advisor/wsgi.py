from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")

handler = get_wsgi_application()

# gunicorn caps no request body and no proxy stands in front (docker-compose.yml): an oversized
# body is refused here, by its Content-Length, before Django or anything else reads it.
from advisor.middleware import body_limit  # noqa: E402 - imports models: after the set-up

application = body_limit(handler)

if os.environ.get("WARM_UP", "true").lower() not in ("0", "false", "no"):
    from advisor import warmup

    warmup.web()
