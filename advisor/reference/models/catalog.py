"""The catalog as rows: accelerators, prices and model presets with their sources, and the
refreshes of public price lists."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from advisor.engine.text import clouds
from advisor.labels import OPTION_CHOICES
from advisor.reference.catalog_rows import (
    ACCELERATOR_COLUMNS,
    PRESET_COLUMNS,
    PRICE_COLUMNS,
    hf_id_valid,
    row_document,
)
from advisor.reference.models.versioned import Versioned
from advisor.reference.prices import registry as price_sources

# --- Catalog: accelerators, prices and model presets --------------------------------------------
# Versioned like the scoring models (draft → published → retired; one published), so that a
# report's catalog version always means the same prices. Rows mirror the engine's catalog
# document (advisor/reference/catalog_rows.py converts both ways).

ACCELERATOR_KIND_CHOICES = [("gpu", _("GPU")), ("tpu", _("TPU"))]


def cloud_choices() -> list[tuple[str, Any]]:
    """The engine's cloud list (advisor/engine/text/clouds.py); a callable, so that a new cloud
    makes no migration."""
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
