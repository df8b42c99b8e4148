from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AdvisorConfig(AppConfig):
    name = "advisor"
    verbose_name = _("Advisor")
    default_auto_field = "django.db.models.BigAutoField"
