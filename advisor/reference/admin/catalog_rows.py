"""Admin for a catalog's rows — accelerators, prices and model presets — edited in drafts
only, with each price's freshness."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any, ClassVar

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.admin import SimpleHistoryAdmin

from advisor import jsonsafe
from advisor.engine.answers.vocabulary import ARCHITECTURE_FIELDS, preset_ids
from advisor.labels import label_for
from advisor.permissions import request_can_edit_reference
from advisor.reference import selectors
from advisor.reference.admin.forms import OneLineName, SourcedForm
from advisor.reference.admin.versioned import EditorsOnly, NamedHistory, NoBulkDelete
from advisor.reference.models import (
    Catalog,
    CatalogAccelerator,
    CatalogPreset,
    CatalogPrice,
)
from advisor.reference.models.catalog import MODE_CHOICES
from advisor.reference.services.catalog import catalog_ensure_editable, catalog_region_groups


def region_choices() -> list[tuple[str, Any]]:
    """The catalog's region groups by name ("US Central"), never by key ("us_central")."""
    return [("", "—")] + [(key, label_for("region", key)) for key in catalog_region_groups()]


class RegionGroupChoiceField(forms.ChoiceField):
    """A region group chosen by name; a key the bundled catalog does not know stays choosable."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=region_choices, **kwargs)

    def valid_value(self, value: Any) -> bool:
        return True if value else super().valid_value(value)


class RegionGroupFilter(admin.SimpleListFilter):
    title = gettext_lazy("region group")
    parameter_name = "region_key"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        keys = (
            model_admin.get_queryset(request)
            .exclude(region_key="")
            .values_list("region_key", flat=True)
        )
        return [(key, label_for("region", key)) for key in sorted(set(keys))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(region_key=self.value()) if self.value() else queryset


def catalog_status(catalog_id: int | None) -> str | None:
    if catalog_id is None:
        return None
    return Catalog.objects.filter(pk=catalog_id).values_list("status", flat=True).first()


def catalog_editable(request: HttpRequest, catalog_id: int | None) -> bool:
    """Admins edit drafts; a row of a published or retired catalog is only viewed."""
    status = catalog_status(catalog_id)
    return request_can_edit_reference(request) and status in (None, Catalog.Status.DRAFT)


def _freshness_html(row: Any, days: int) -> str:
    state = selectors.freshness(row, days)
    if state == "current":
        return _("current")
    label = _("undated") if state == "undated" else _("stale")
    return format_html(
        '<strong class="stale-flag" title="{}">⚠ {}</strong>',
        _("Older than %(days)s days, or undated: check it at its source.") % {"days": days},
        label,
    )


class PriceForm(SourcedForm):
    dated_fields = ("usd_per_device_hour", "usd_per_device_month", "source")
    modes = forms.MultipleChoiceField(
        label=gettext_lazy("Deployment modes"),
        choices=MODE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": gettext_lazy("Pick at least one deployment mode.")},
    )
    region_key = RegionGroupChoiceField(label=gettext_lazy("region group"), required=False)

    class Meta:
        model = CatalogPrice
        fields: tuple[str, ...] = (
            "catalog",
            "accelerator",
            "key",
            "provider",
            "cloud",
            "modes",
            "billing",
            "usd_per_device_hour",
            "usd_per_device_month",
            "setup_fee_usd",
            "min_term_months",
            "region",
            "region_key",
            "source",
            "as_of",
            "estimated",
            "derived",
            "note",
        )
        widgets: ClassVar[dict[str, Any]] = {
            "source": forms.Textarea(attrs={"rows": 2, "cols": 80}),
            "note": forms.Textarea(attrs={"rows": 2, "cols": 80}),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        fields = ("usd_per_device_hour", "usd_per_device_month")
        # A house offer sold on request has no figure (HouseOfferForm edits it).
        on_request = bool((self.instance.extra or {}).get("price_on_request"))
        unpriced = all(data.get(f) is None for f in fields)
        if all(f in self.fields for f in fields) and unpriced and not on_request:
            self.add_error(
                "usd_per_device_hour",
                _("Give a price per device-hour or per device-month (or both)."),
            )
        catalog, accelerator = data.get("catalog"), data.get("accelerator")
        if catalog and accelerator and accelerator.catalog_id != catalog.pk:
            self.add_error(
                "accelerator",
                _("%(accelerator)s belongs to %(other)s, not to %(catalog)s.")
                % {"accelerator": accelerator, "other": accelerator.catalog, "catalog": catalog},
            )
        return data


class PriceListForm(PriceForm):
    """A row of the prices table (the admin leaves rows of published catalogs read-only)."""

    class Meta(PriceForm.Meta):
        fields = ("usd_per_device_hour", "usd_per_device_month", "as_of")
        # Narrow inputs keep the price table within a laptop screen.
        widgets: ClassVar[dict[str, Any]] = {
            "usd_per_device_hour": forms.TextInput(attrs={"size": 8, "inputmode": "decimal"}),
            "usd_per_device_month": forms.TextInput(attrs={"size": 8, "inputmode": "decimal"}),
            "as_of": forms.DateInput(attrs={"size": 10}),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["modes"]


class CatalogRowAdmin(NoBulkDelete, EditorsOnly, NamedHistory, SimpleHistoryAdmin):  # type: ignore[misc]
    """Shared by accelerators, prices and presets: drafts only, the catalog fixed once set."""

    class Media:
        css: ClassVar = {"all": ["advisor/admin.css"]}

    def has_add_permission(self, request: HttpRequest) -> bool:
        return request_can_edit_reference(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return catalog_editable(request, obj.catalog_id if obj is not None else None)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj)

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or catalog_status(obj.catalog_id) != Catalog.Status.DRAFT

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        return (*fields, "catalog") if obj is not None else fields

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kw: Any) -> Any:
        if db_field.name == "catalog":
            kw["queryset"] = Catalog.objects.filter(status=Catalog.Status.DRAFT)
        if db_field.name == "accelerator":
            kw["queryset"] = CatalogAccelerator.objects.filter(
                catalog__status=Catalog.Status.DRAFT
            ).select_related("catalog")
        field = super().formfield_for_foreignkey(db_field, request, **kw)
        if db_field.name == "accelerator":
            field.label_from_instance = lambda a: f"{a.name} ({a.catalog})"
        return field

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial: dict[str, Any] = super().get_changeform_initial_data(request)
        if "catalog" not in initial:
            draft = Catalog.objects.filter(status=Catalog.Status.DRAFT).first()
            if draft is not None:
                initial["catalog"] = draft.pk
        return initial

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        catalog_ensure_editable(catalog=obj.catalog)
        super().save_model(request, obj, form, change)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        catalog_ensure_editable(catalog=obj.catalog)
        super().delete_model(request, obj)

    @admin.display(description=gettext_lazy("other data"))
    def extra_display(self, obj: Any) -> str:
        return format_html(
            "<pre>{}</pre>", json.dumps(obj.extra or {}, indent=2, ensure_ascii=False)
        )


class CatalogFreshnessFilter(admin.SimpleListFilter):
    title = gettext_lazy("freshness")
    parameter_name = "freshness"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("stale", gettext_lazy("Older than the catalog's limit (180 days)")),
            ("undated", gettext_lazy("Undated")),
            ("current", gettext_lazy("Current")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        # The limit is the catalog's stale_after_days rule; 180 days in every catalog so far.
        cutoff = timezone.localdate() - timedelta(days=180)
        if self.value() == "stale":
            return queryset.filter(as_of__lt=cutoff)
        if self.value() == "undated":
            return queryset.filter(as_of__isnull=True)
        if self.value() == "current":
            return queryset.filter(as_of__gte=cutoff)
        return queryset


@admin.register(CatalogPrice)
class CatalogPriceAdmin(CatalogRowAdmin):
    form = PriceForm
    # One catalog at a time (see changelist_view), so no catalog column.
    # Sized for a 1366 px laptop (tests/e2e/test_catalog_browser.py): provider and region
    # share a column, headers wrap, and the page gives the app menu's width to the table.
    list_display = (
        "key",
        "accelerator_key",
        "where",
        "billing",
        "usd_per_device_hour",
        "usd_per_device_month",
        "as_of",
        "freshness_flag",
    )
    list_display_links = ("key",)
    list_editable = ("usd_per_device_hour", "usd_per_device_month", "as_of")
    list_filter = (
        "catalog",
        CatalogFreshnessFilter,
        "cloud",
        "billing",
        "provider",
        "accelerator__key",
    )
    list_select_related = ("catalog", "accelerator")
    search_fields = ("key", "provider", "region", "source", "accelerator__name")
    readonly_fields = ("extra_display",)
    list_per_page = 50

    def get_changelist_form(self, request: HttpRequest, **kwargs: Any) -> Any:
        return PriceListForm

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        # Every catalog has the same price ids; without a choice, show the newest draft (the
        # one being edited), else the published catalog.
        if "catalog__id__exact" not in request.GET and request.method == "GET":
            catalog = (
                Catalog.objects.filter(status=Catalog.Status.DRAFT).order_by("-version").first()
                or Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
            )
            if catalog is not None:
                query = request.GET.copy()
                query["catalog__id__exact"] = str(catalog.pk)
                return HttpResponseRedirect(f"{request.path}?{query.urlencode()}")
        extra_context = {**(extra_context or {}), "is_nav_sidebar_enabled": False}
        response: HttpResponse = super().changelist_view(request, extra_context)
        return response

    @admin.display(description=gettext_lazy("accelerator"), ordering="accelerator__key")
    def accelerator_key(self, obj: CatalogPrice) -> str:
        return obj.accelerator.key

    @admin.display(description=gettext_lazy("provider and region"), ordering="provider")
    def where(self, obj: CatalogPrice) -> str:
        if not obj.region:
            return obj.provider
        return format_html('{}<br><span class="price-region">{}</span>', obj.provider, obj.region)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kw: Any
    ) -> Any:
        form = super().get_form(request, obj, change, **kw)
        if obj is not None and "accelerator" in form.base_fields:
            form.base_fields["accelerator"].queryset = CatalogAccelerator.objects.filter(
                catalog_id=obj.catalog_id
            )
        return form

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        obj = super().save_form(request, form, change)
        if obj.catalog_id is None and obj.pk:
            obj.catalog = CatalogPrice.objects.get(pk=obj.pk).catalog
        return obj

    @admin.display(description=gettext_lazy("freshness"))
    def freshness_flag(self, obj: CatalogPrice) -> str:
        return _freshness_html(obj, obj.catalog.stale_after_days)


class AcceleratorForm(OneLineName, SourcedForm):
    class Meta:
        model = CatalogAccelerator
        fields: tuple[str, ...] = (
            "catalog",
            "key",
            "name",
            "vendor",
            "kind",
            "memory_gb",
            "memory_gib",
            "memory_bw_tbps",
            "bf16_dense_tflops",
            "fp16_dense_tflops",
            "fp8_dense_tflops",
            "int8_dense_tops",
            "interconnect",
            "fast_interconnect",
            "max_devices_per_node",
            "max_devices_per_group",
            "slice_sizes",
            "source",
            "as_of",
        )
        widgets: ClassVar[dict[str, Any]] = {
            "source": forms.Textarea(attrs={"rows": 2, "cols": 80})
        }
        field_classes: ClassVar[dict[str, Any]] = {"slice_sizes": jsonsafe.BoundedJSONField}

    def clean_slice_sizes(self) -> Any:
        sizes = self.cleaned_data.get("slice_sizes")
        if sizes in (None, "", []):
            return None
        if not isinstance(sizes, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in sizes
        ):
            raise ValidationError(_("Enter a list of whole device counts, e.g. [1, 4, 8, 16]."))
        return sorted(set(sizes))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("kind") == "tpu" and not data.get("slice_sizes") and "kind" in self.fields:
            self.add_error("slice_sizes", _("A TPU needs the slice sizes it is sold in."))
        peak = [data.get(f) for f in ("bf16_dense_tflops", "fp16_dense_tflops")]
        if "kind" in self.fields and all(v is None for v in peak):
            self.add_error(
                "bf16_dense_tflops",
                _("Give the BF16 or the FP16 dense TFLOPS: the engine sizes compute from it."),
            )
        return data


class AcceleratorInlineForm(AcceleratorForm):
    class Meta(AcceleratorForm.Meta):
        fields = (
            "key",
            "name",
            "kind",
            "memory_gib",
            "memory_bw_tbps",
            "bf16_dense_tflops",
            "fp8_dense_tflops",
        )
        widgets: ClassVar[dict[str, Any]] = {
            "key": forms.TextInput(attrs={"size": 16}),
            "name": forms.TextInput(attrs={"size": 24}),
            **{
                name: forms.TextInput(attrs={"size": 6, "inputmode": "decimal"})
                for name in (
                    "memory_gib",
                    "memory_bw_tbps",
                    "bf16_dense_tflops",
                    "fp8_dense_tflops",
                )
            },
        }


@admin.register(CatalogAccelerator)
class CatalogAcceleratorAdmin(CatalogRowAdmin):
    form = AcceleratorForm
    list_display = ("name", "key", "catalog", "kind", "memory_gib", "memory_bw_tbps", "as_of")
    list_filter = ("catalog", "kind", "vendor")
    search_fields = ("key", "name", "vendor")
    readonly_fields = ("extra_display",)


class PresetForm(OneLineName, SourcedForm):
    class Meta:
        model = CatalogPreset
        fields = (
            "catalog",
            "key",
            "name",
            *ARCHITECTURE_FIELDS,
            "max_position_embeddings",
            "source",
            "as_of",
        )
        widgets: ClassVar = {"source": forms.Textarea(attrs={"rows": 2, "cols": 80})}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        heads, kv = data.get("attention_heads"), data.get("kv_heads")
        if heads and kv and heads % kv:
            self.add_error(
                "kv_heads",
                _("The attention heads (%(heads)s) must be a multiple of the KV heads.")
                % {"heads": heads},
            )
        key = data.get("key")
        if key and key not in preset_ids():
            self.add_error(
                "key",
                _(
                    "The wizard offers only these presets: %(ids)s. Edit their figures here; "
                    "people can describe any other model by its architecture."
                )
                % {"ids": ", ".join(preset_ids())},
            )
        return data


@admin.register(CatalogPreset)
class CatalogPresetAdmin(CatalogRowAdmin):
    form = PresetForm
    list_display = ("name", "key", "catalog", "parameters", "layers", "hidden_size", "as_of")
    list_filter = ("catalog",)
    search_fields = ("key", "name")
    readonly_fields = ("extra_display",)
