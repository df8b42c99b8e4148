from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReferenceConfig(AppConfig):
    name = "advisor.reference"
    label = "reference"
    verbose_name = _("Scoring models and catalog")
    default_auto_field = "django.db.models.BigAutoField"
