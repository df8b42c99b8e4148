"""Scoring models as rows: the weighted criteria, their contributions, and the impact preview
of a draft."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from advisor.engine.ranking import scoring
from advisor.labels import OPTION_CHOICES
from advisor.reference.models.versioned import Versioned

# --- Scoring models --------------------------------------------------------------------------
# The engine reads a scoring model as one JSON document; here it is kept as rows so that admins
# edit weights and contributions as tables, and every change lands in the history (the audit).

# The engine's table of answer paths a criterion may read, with their values.
ANSWER_VALUES: dict[str, tuple[str, ...]] = scoring.answer_values()
ANSWER_PATH_CHOICES = [(path, path) for path in sorted(ANSWER_VALUES)]
PHASE_CHOICES = [
    ("training", _("Training")),
    ("inference", _("Inference")),
    ("preprocessing", _("Preprocessing")),
]
# Tighter than the engine's own limit (100): ten times the strongest criterion of version 1
# would already drown every other answer, so anything above is a typo.
MAX_WEIGHT = Decimal("10")
MAX_POINTS = Decimal("5")


def validate_weight(value: Decimal) -> None:
    if value is None:
        return
    if value <= 0:
        raise ValidationError(
            _("A weight must be more than 0 (to switch a criterion off, delete it)."),
            code="weight_too_small",
        )
    if value > MAX_WEIGHT:
        raise ValidationError(
            _("A weight of %(value)s is too large: weights go up to %(max)s."),
            code="weight_too_large",
            params={"value": value, "max": MAX_WEIGHT},
        )


def validate_points(value: Decimal) -> None:
    if value is not None and abs(value) > MAX_POINTS:
        raise ValidationError(
            _("Points must be between -%(max)s and %(max)s; %(value)s is outside."),
            code="points_out_of_range",
            params={"value": value, "max": MAX_POINTS},
        )


def all_phases() -> list[str]:
    return [phase for phase, _label in PHASE_CHOICES]


def _number(value: Decimal) -> float:
    return float(value)


class ScoringModel(Versioned):
    """A named, versioned set of weighted criteria: draft → published → retired.

    At most one is published at a time (the active one); published and retired models are never
    changed, so a report's recorded (name, version) always means the same weights.
    """

    name = models.CharField(
        _("name"),
        max_length=100,
        validators=[RegexValidator(r"^\S(.*\S)?$", _("Enter a name without outer spaces."))],
    )
    version = models.PositiveIntegerField(_("version"), validators=[MinValueValidator(1)])
    # The rest of the engine document besides the criteria: confidence and derived buckets.
    data = models.JSONField(_("settings"), default=dict, blank=True)
    history = HistoricalRecords(table_name="advisor_historicalscoringmodel")

    class Meta:
        db_table = "advisor_scoringmodel"
        verbose_name = _("scoring model")
        verbose_name_plural = _("scoring models")
        ordering: ClassVar = ["name", "-version"]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["name", "version"],
                name="one_scoring_model_version",
                violation_error_message=_(
                    "This version of this model already exists; use the next version number."
                ),
            ),
            models.UniqueConstraint(
                fields=["status"],
                condition=models.Q(status="published"),
                name="one_published_scoring_model",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} v{self.version}"

    def to_document(self) -> dict[str, Any]:
        """The engine's scoring-model document (see engine/data/scoring_v1.json)."""
        doc: dict[str, Any] = {
            "name": self.name,
            "version": self.version,
            "description": self.description,
        }
        doc.update({k: v for k, v in self.data.items() if k not in doc and k != "criteria"})
        doc["criteria"] = [c.to_document() for c in self.criteria.all()]
        return doc


class Criterion(models.Model):
    """One answer that moves points between the options, with its weight."""

    scoring_model = models.ForeignKey(
        ScoringModel,
        on_delete=models.CASCADE,
        related_name="criteria",
        verbose_name=_("scoring model"),
    )
    key = models.CharField(
        _("key"),
        max_length=50,
        validators=[
            RegexValidator(
                r"^[a-z][a-z0-9_]*$",
                _("Use lower-case letters, digits and underscores, starting with a letter."),
            )
        ],
    )
    answer = models.CharField(_("answer"), max_length=50, choices=ANSWER_PATH_CHOICES)
    weight = models.DecimalField(
        _("weight"), max_digits=5, decimal_places=2, validators=[validate_weight]
    )
    applies_to = models.JSONField(_("applies to"), default=all_phases)
    # "sum": a list answer adds the points of every value it holds (the engine does so anyway).
    combine = models.CharField(
        _("combine"), max_length=10, blank=True, choices=[("sum", _("Sum over values"))]
    )
    label_en = models.CharField(_("label (English)"), max_length=200)
    label_zh = models.CharField(_("label (Traditional Chinese)"), max_length=200)
    rationale_en = models.TextField(_("rationale (English)"), blank=True)
    rationale_zh = models.TextField(_("rationale (Traditional Chinese)"), blank=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    history = HistoricalRecords(table_name="advisor_historicalcriterion")

    class Meta:
        db_table = "advisor_criterion"
        verbose_name = _("criterion")
        verbose_name_plural = _("criteria")
        ordering: ClassVar = ["order", "pk"]
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["scoring_model", "key"], name="one_criterion_key"),
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.answer})"

    def allowed_values(self) -> tuple[str, ...]:
        return ANSWER_VALUES.get(self.answer, ())

    def to_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "id": self.key,
            "answer": self.answer,
            "weight": _number(self.weight),
            "applies_to": list(self.applies_to),
            "label": {"en": self.label_en, "zh-hant": self.label_zh},
            "rationale": {
                "en": self.rationale_en or self.label_en,
                "zh-hant": self.rationale_zh or self.label_zh,
            },
        }
        contributions: dict[str, dict[str, float]] = {}
        for row in self.contributions.all():
            per_value = contributions.setdefault(row.value, {})
            if row.option:
                per_value[row.option] = _number(row.points)
        doc["contributions"] = contributions
        if self.combine:
            doc["combine"] = self.combine
        return doc


class Contribution(models.Model):
    """Points an answer value gives one option (before the criterion's weight).

    A row without an option records that the value is known but moves nothing.
    """

    criterion = models.ForeignKey(
        Criterion,
        on_delete=models.CASCADE,
        related_name="contributions",
        verbose_name=_("criterion"),
    )
    value = models.CharField(_("answer value"), max_length=50)
    option = models.CharField(_("option"), max_length=20, choices=OPTION_CHOICES, blank=True)
    points = models.DecimalField(
        _("points"), max_digits=5, decimal_places=3, default=0, validators=[validate_points]
    )
    history = HistoricalRecords(table_name="advisor_historicalcontribution")

    class Meta:
        db_table = "advisor_contribution"
        verbose_name = _("contribution")
        verbose_name_plural = _("contributions")
        ordering: ClassVar = ["pk"]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["criterion", "value", "option"], name="one_contribution_per_option"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.value} → {self.option or '—'}: {self.points}"


class ImpactPreview(models.Model):
    """Re-scoring the submitted assessments with a draft scoring model or a draft catalog
    (exactly one of the two): status row for the polling page."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for a worker")
        RUNNING = "running", _("Running")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    scoring_model = models.ForeignKey(
        ScoringModel, on_delete=models.CASCADE, related_name="previews", null=True, blank=True
    )
    catalog = models.ForeignKey(
        "Catalog", on_delete=models.CASCADE, related_name="previews", null=True, blank=True
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    progress = models.FloatField(_("progress"), default=0.0)
    total = models.PositiveIntegerField(_("assessments"), default=0)
    result = models.JSONField(_("result"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    requested_at = models.DateTimeField(_("requested"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        db_table = "advisor_impactpreview"
        verbose_name = _("impact preview")
        verbose_name_plural = _("impact previews")
        ordering: ClassVar = ["-requested_at"]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=models.Q(scoring_model__isnull=True) ^ models.Q(catalog__isnull=True),
                name="preview_of_a_model_or_a_catalog",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scoring_model or self.catalog} preview {self.requested_at:%Y-%m-%d %H:%M}"

    @property
    def is_finished(self) -> bool:
        return self.status in {self.Status.DONE, self.Status.FAILED}

    @property
    def progress_percent(self) -> int:
        return round(100 * self.progress)
