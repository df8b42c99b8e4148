from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import Organization


class Assessment(models.Model):
    """One team's answers about their workloads, built step by step in the wizard.

    `answers` only ever holds values the engine accepts for a draft (check_partial is clean);
    input that could not be stored yet (a word in a number field) waits in `pending_input`,
    keyed by step, so that nothing a person typed is lost.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        SUBMITTED = "submitted", _("Submitted")

    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="assessments"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    title = models.CharField(_("title"), max_length=200)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    answers = models.JSONField(_("answers"), default=dict, blank=True)
    pending_input = models.JSONField(default=dict, blank=True, editable=False)
    # Optimistic locking: every save bumps it; a save that names an older one is refused.
    version = models.PositiveIntegerField(default=1, editable=False)
    result = models.JSONField(_("result"), null=True, blank=True, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("last edited"), auto_now=True)
    submitted_at = models.DateTimeField(_("submitted"), null=True, blank=True)

    class Meta:
        verbose_name = _("assessment")
        verbose_name_plural = _("assessments")
        ordering: ClassVar = ["-updated_at"]
        indexes: ClassVar = [models.Index(fields=["organization", "-updated_at"])]

    def __str__(self) -> str:
        return self.title

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT

    def workload_kinds(self) -> set[str]:
        workloads: Any = self.answers.get("workloads")
        if not isinstance(workloads, list):
            return set()
        return {str(w.get("kind")) for w in workloads if isinstance(w, dict)}
