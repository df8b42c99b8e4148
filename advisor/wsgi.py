from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")

application = get_wsgi_application()

if os.environ.get("WARM_UP", "true").lower() not in ("0", "false", "no"):
    from advisor import warmup

    warmup.web()
