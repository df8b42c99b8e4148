"""The engine's versioned inputs as rows: scoring models and the accelerator and price catalog.

Their tables keep the names they had in the advisor app (db_table), so moving the models here
moved no data: see migrations 0001 here and advisor 0012.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from advisor.engine import clouds, scoring
from advisor.labels import OPTION_CHOICES as OPTION_CHOICES
from advisor.reference.catalog_rows import (
    ACCELERATOR_COLUMNS,
    PRESET_COLUMNS,
    PRICE_COLUMNS,
    hf_id_valid,
    row_document,
)
from advisor.reference.prices import registry as price_sources

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


# --- Catalog: accelerators, prices and model presets --------------------------------------------
# Versioned like the scoring models (draft → published → retired; one published), so that a
# report's catalog version always means the same prices. Rows mirror the engine's catalog
# document (advisor/reference/catalog_rows.py converts both ways).

ACCELERATOR_KIND_CHOICES = [("gpu", _("GPU")), ("tpu", _("TPU"))]


def cloud_choices() -> list[tuple[str, Any]]:
    """The engine's cloud list (advisor/engine/clouds.py); a callable, so that a new cloud makes
    no migration."""
    return [(c.key, c.name) for c in clouds.PUBLIC_CLOUDS] + [(clouds.OTHER, _("Other provider"))]


BILLING_CHOICES = [
    ("on_demand", _("On demand (hourly)")),
    ("spot", _("Spot / preemptible")),
    ("flex_start", _("Flex start")),
    ("reserved_block", _("Reserved block")),
    ("commit_1y", _("1-year commitment")),
    ("commit_3y", _("3-year commitment")),
    ("monthly", _("Monthly")),
]
MODE_CHOICES = OPTION_CHOICES[2:]
# Beyond these a figure is a typo (an H200 has 141 GB and 4.8 TB/s; a B200 about 2,250 dense
# BF16 TFLOPS; the dearest catalog price is under $15 per device-hour).
MAX_MEMORY_GIB = 4096
MAX_BANDWIDTH_TBPS = 100
MAX_TFLOPS = 100_000
MAX_USD_PER_HOUR = Decimal(500)
MAX_USD_PER_MONTH = Decimal(250_000)
KEY_VALIDATOR = RegexValidator(
    r"^[a-z0-9][a-z0-9._-]*$",
    _("Use lower-case letters, digits, dots, dashes and underscores."),
)


def _positive_at_most(limit: float | Decimal) -> list[Any]:
    return [MinValueValidator(0), MaxValueValidator(limit)]


class Catalog(Versioned):
    """A numbered version of the accelerator and price list: draft → published → retired."""

    version = models.PositiveIntegerField(
        _("version"), unique=True, validators=[MinValueValidator(1)]
    )
    # The rest of the engine document: sourced figures, product rules, regions, known gaps.
    data = models.JSONField(_("figures, rules and regions"), default=dict, blank=True)
    history = HistoricalRecords(table_name="advisor_historicalcatalog")

    class Meta:
        db_table = "advisor_catalog"
        verbose_name = _("catalog")
        verbose_name_plural = _("catalogs")
        ordering: ClassVar = ["-version"]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["status"],
                condition=models.Q(status="published"),
                name="one_published_catalog",
            ),
        ]

    def __str__(self) -> str:
        return f"catalog v{self.version}"

    @property
    def stale_after_days(self) -> int:
        rule = (self.data.get("rules") or {}).get("stale_after_days") or {}
        return int(rule.get("value") or 180)

    def to_document(self) -> dict[str, Any]:
        """The engine's catalog document (see engine/data/catalog.json and presets.json)."""
        doc: dict[str, Any] = {"version": str(self.version), "description": self.description}
        doc.update({k: v for k, v in self.data.items() if k not in doc})
        doc["accelerators"] = [
            row_document(a, ACCELERATOR_COLUMNS) for a in self.accelerators.all()
        ]
        doc["prices"] = [
            {"accelerator_id": p.accelerator.key, **row_document(p, PRICE_COLUMNS)}
            for p in self.prices.select_related("accelerator")
        ]
        doc["model_presets"] = [_preset_document(p) for p in self.presets.all()]
        return doc


def _preset_document(row: Any) -> dict[str, Any]:
    """A preset row for the engine, its Hugging Face id dropped unless it is a repository id:
    the pilot's commands name it, so one stored before imports checked it (or written into a
    row's `extra` by hand) reaches no command; the pilot then names the placeholder."""
    doc = row_document(row, PRESET_COLUMNS)
    if "hf_id" in doc and not hf_id_valid(doc["hf_id"]):
        del doc["hf_id"]
    return doc


class Sourced(models.Model):
    """Where a figure comes from and when it was read there."""

    source = models.TextField(
        _("source"), help_text=_("Where the figures come from: a URL, a document, a file.")
    )
    as_of = models.DateField(
        _("as of"),
        null=True,
        blank=True,
        help_text=_("The date the figures were read from their source."),
    )
    # Document keys the admin has no column for (notes, frameworks, ...), kept for the engine.
    extra = models.JSONField(_("other data"), default=dict, blank=True)

    class Meta:
        abstract = True


class CatalogAccelerator(Sourced):
    catalog = models.ForeignKey(
        Catalog, on_delete=models.CASCADE, related_name="accelerators", verbose_name=_("catalog")
    )
    key = models.CharField(_("id"), max_length=50, validators=[KEY_VALIDATOR])
    name = models.CharField(_("name"), max_length=100)
    vendor = models.CharField(_("vendor"), max_length=50, blank=True)
    kind = models.CharField(_("type"), max_length=3, choices=ACCELERATOR_KIND_CHOICES)
    memory_gb = models.FloatField(
        _("memory (GB, as marketed)"),
        null=True,
        blank=True,
        validators=_positive_at_most(MAX_MEMORY_GIB * 1.08),
    )
    memory_gib = models.FloatField(
        _("usable memory (GiB)"),
        validators=[MinValueValidator(0.5), *_positive_at_most(MAX_MEMORY_GIB)[1:]],
    )
    memory_bw_tbps = models.FloatField(
        _("memory bandwidth (TB/s)"),
        validators=[MinValueValidator(0.01), *_positive_at_most(MAX_BANDWIDTH_TBPS)[1:]],
    )
    bf16_dense_tflops = models.FloatField(
        _("BF16 dense TFLOPS"), null=True, blank=True, validators=_positive_at_most(MAX_TFLOPS)
    )
    fp16_dense_tflops = models.FloatField(
        _("FP16 dense TFLOPS"), null=True, blank=True, validators=_positive_at_most(MAX_TFLOPS)
    )
    fp8_dense_tflops = models.FloatField(
        _("FP8 dense TFLOPS"), null=True, blank=True, validators=_positive_at_most(MAX_TFLOPS)
    )
    int8_dense_tops = models.FloatField(
        _("INT8 dense TOPS"), null=True, blank=True, validators=_positive_at_most(MAX_TFLOPS)
    )
    interconnect = models.CharField(_("interconnect"), max_length=200, blank=True)
    fast_interconnect = models.BooleanField(_("fast interconnect (NVLink, ICI)"), default=False)
    max_devices_per_node = models.PositiveSmallIntegerField(
        _("devices per server"), default=8, validators=[MinValueValidator(1)]
    )
    max_devices_per_group = models.PositiveIntegerField(
        _("devices per group (pod, cluster)"), default=4096, validators=[MinValueValidator(1)]
    )
    slice_sizes = models.JSONField(
        _("slice sizes (TPU)"),
        null=True,
        blank=True,
        help_text=_("The device counts a TPU slice comes in, e.g. [1, 4, 8, 16]; empty for GPUs."),
    )
    history = HistoricalRecords(table_name="advisor_historicalcatalogaccelerator")

    class Meta:
        db_table = "advisor_catalogaccelerator"
        verbose_name = _("accelerator")
        verbose_name_plural = _("accelerators")
        ordering: ClassVar = ["pk"]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["catalog", "key"],
                name="one_accelerator_key",
                violation_error_message=_("This catalog already has an accelerator with this id."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class CatalogPrice(Sourced):
    catalog = models.ForeignKey(
        Catalog, on_delete=models.CASCADE, related_name="prices", verbose_name=_("catalog")
    )
    accelerator = models.ForeignKey(
        CatalogAccelerator,
        on_delete=models.CASCADE,
        related_name="prices",
        verbose_name=_("accelerator"),
    )
    key = models.CharField(_("id"), max_length=40, validators=[KEY_VALIDATOR])
    provider = models.CharField(_("provider"), max_length=100)
    cloud = models.CharField(_("cloud"), max_length=10, choices=cloud_choices)
    modes = models.JSONField(_("deployment modes"), default=list)
    billing = models.CharField(_("billing"), max_length=20, choices=BILLING_CHOICES)
    usd_per_device_hour = models.DecimalField(
        _("USD per device-hour"),
        max_digits=12,
        decimal_places=6,
        null=True,
        blank=True,
        validators=_positive_at_most(MAX_USD_PER_HOUR),
    )
    usd_per_device_month = models.DecimalField(
        _("USD per device-month"),
        max_digits=14,
        decimal_places=4,
        null=True,
        blank=True,
        validators=_positive_at_most(MAX_USD_PER_MONTH),
    )
    region = models.CharField(_("region"), max_length=200, blank=True)
    region_key = models.CharField(_("region group"), max_length=40, blank=True)
    estimated = models.BooleanField(_("estimated"), default=False)
    derived = models.BooleanField(
        _("derived"), default=False, help_text=_("Converted or computed from a sourced figure.")
    )
    note = models.TextField(_("note"), blank=True)
    setup_fee_usd = models.DecimalField(
        _("setup fee (USD)"),
        max_digits=10,
        decimal_places=2,
        null=True,
        blank=True,
        validators=_positive_at_most(MAX_USD_PER_MONTH),
    )
    min_term_months = models.PositiveSmallIntegerField(
        _("minimum term (months)"), null=True, blank=True
    )
    history = HistoricalRecords(table_name="advisor_historicalcatalogprice")

    class Meta:
        db_table = "advisor_catalogprice"
        verbose_name = _("price")
        verbose_name_plural = _("prices")
        ordering: ClassVar = ["key"]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["catalog", "key"],
                name="one_price_key",
                violation_error_message=_("This catalog already has a price with this id."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key}: {self.provider} {self.accelerator} {self.get_billing_display()}"


class CatalogPreset(Sourced):
    catalog = models.ForeignKey(
        Catalog, on_delete=models.CASCADE, related_name="presets", verbose_name=_("catalog")
    )
    key = models.CharField(_("id"), max_length=50, validators=[KEY_VALIDATOR])
    name = models.CharField(_("name"), max_length=100)
    parameters = models.PositiveBigIntegerField(_("parameters"), validators=[MinValueValidator(1)])
    layers = models.PositiveIntegerField(_("layers"), validators=[MinValueValidator(1)])
    hidden_size = models.PositiveIntegerField(_("hidden size"), validators=[MinValueValidator(1)])
    intermediate_size = models.PositiveIntegerField(
        _("intermediate size"), validators=[MinValueValidator(1)]
    )
    attention_heads = models.PositiveIntegerField(
        _("attention heads"), validators=[MinValueValidator(1)]
    )
    kv_heads = models.PositiveIntegerField(_("KV heads"), validators=[MinValueValidator(1)])
    head_dim = models.PositiveIntegerField(_("head dimension"), validators=[MinValueValidator(1)])
    vocab_size = models.PositiveIntegerField(
        _("vocabulary size"), validators=[MinValueValidator(1)]
    )
    tied_embeddings = models.BooleanField(_("tied embeddings"), default=False)
    max_position_embeddings = models.PositiveIntegerField(
        _("context length"), null=True, blank=True
    )
    history = HistoricalRecords(table_name="advisor_historicalcatalogpreset")

    class Meta:
        db_table = "advisor_catalogpreset"
        verbose_name = _("model preset")
        verbose_name_plural = _("model presets")
        ordering: ClassVar = ["pk"]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["catalog", "key"],
                name="one_preset_key",
                violation_error_message=_("This catalog already has a preset with this id."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PriceRefresh(models.Model):
    """One fetch of one public price list (Azure, AWS, Google Cloud) and what came of it: a
    draft catalog with the new prices, or why nothing was written."""

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")
        SKIPPED = "skipped", _("Skipped")

    # The registered price sources (advisor/reference/prices/registry.py); a callable, so that a
    # new source makes no migration.
    source = models.CharField(_("source"), max_length=10, choices=price_sources.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.RUNNING
    )
    started_at = models.DateTimeField(_("started"))
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    message = models.TextField(_("message"), blank=True)
    prices_changed = models.PositiveIntegerField(_("prices changed"), default=0)
    draft = models.ForeignKey(
        Catalog,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="price_refreshes",
        verbose_name=_("draft catalog"),
    )

    class Meta:
        db_table = "advisor_pricerefresh"
        verbose_name = _("price refresh")
        verbose_name_plural = _("price refreshes")
        ordering: ClassVar = ["-started_at", "-pk"]
        indexes: ClassVar = [models.Index(fields=["source", "status", "-started_at"])]

    def __str__(self) -> str:
        return f"{self.get_source_display()} {self.started_at:%Y-%m-%d %H:%M} {self.status}"


class HouseOfferManager(models.Manager["HouseOffer"]):
    def get_queryset(self) -> models.QuerySet[HouseOffer]:
        return super().get_queryset().filter(extra__house=True)


class HouseOffer(CatalogPrice):
    """The operating organisation's own servers, as catalog prices (`extra.house`): edited as a
    server (GPU x count, CPU, RAM, NVMe, network, China bandwidth, setup fee, term, a monthly price
    or price on request) in a draft catalog, published with it, ranked like any other price."""

    objects = HouseOfferManager()  # type: ignore[misc]

    class Meta:
        proxy = True
        verbose_name = _("house offer")
        verbose_name_plural = _("house offers")


# django-simple-history marks only the concrete model's options with its manager's name; the
# admin's history page of a house offer (a proxy) reads the price rows' history through it.
HouseOffer._meta.simple_history_manager_attribute = "history"  # type: ignore[attr-defined]
