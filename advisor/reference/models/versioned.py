"""The abstract base of the data admins publish in numbered versions."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Versioned(models.Model):
    """Data admins publish in numbered versions: draft → published → retired. Published and
    retired versions never change, so whatever names a version always means the same data."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        RETIRED = "retired", _("Retired")

    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    description = models.TextField(_("description"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("published by"),
    )
    published_at = models.DateTimeField(_("published"), null=True, blank=True)
    retired_at = models.DateTimeField(_("retired"), null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def is_editable(self) -> bool:
        return self.status == self.Status.DRAFT

    def to_document(self) -> dict[str, Any]:
        """The version as the engine's JSON document (what an export writes)."""
        raise NotImplementedError
