"""Admin for catalogs (a version with its accelerators inline, counts of stale prices) and the
public price refresh runs."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any, ClassVar

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import User
from advisor.permissions import request_can_edit_reference
from advisor.reference import selectors
from advisor.reference.admin.catalog_rows import (
    AcceleratorInlineForm,
    catalog_editable,
    catalog_status,
)
from advisor.reference.admin.versioned import EditorsOnly, VersionedAdmin
from advisor.reference.models import (
    Catalog,
    CatalogAccelerator,
    CatalogPreset,
    CatalogPrice,
    PriceRefresh,
)
from advisor.reference.services.catalog import (
    CATALOGS,
    CatalogLocked,
)
from advisor.reference.services.impact import impact_preview_request


def stale_cutoff(catalog: Catalog) -> date:
    return timezone.localdate() - timedelta(days=catalog.stale_after_days)


def _prices_label(count: int) -> str:
    return ngettext("%(count)s price", "%(count)s prices", count) % {"count": count}


def _presets_label(count: int) -> str:
    return ngettext("%(count)s model preset", "%(count)s model presets", count) % {"count": count}


class CatalogForm(forms.ModelForm[Catalog]):
    class Meta:
        model = Catalog
        fields = ("description",)
        widgets: ClassVar = {"description": forms.Textarea(attrs={"rows": 3, "cols": 80})}

    def clean(self) -> dict[str, Any]:
        if self.instance.pk and catalog_status(self.instance.pk) != Catalog.Status.DRAFT:
            raise ValidationError(str(CatalogLocked(self.instance)), code="locked")
        return super().clean() or {}


class AcceleratorInline(admin.TabularInline[CatalogAccelerator, Catalog]):
    model = CatalogAccelerator
    form = AcceleratorInlineForm
    fields = (
        "key",
        "name",
        "kind",
        "memory_gib",
        "memory_bw_tbps",
        "bf16_dense_tflops",
        "fp8_dense_tflops",
    )
    extra = 0
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A new accelerator needs its source and date: it is added on its own page.
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return catalog_editable(request, obj.pk if obj is not None else None)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request_can_edit_reference(request)


@admin.register(Catalog)
class CatalogAdmin(VersionedAdmin):
    form = CatalogForm
    inlines = (AcceleratorInline,)

    class Media:
        css: ClassVar = {"all": ["advisor/admin.css"]}

    list_display = (
        "__str__",
        "status",
        "price_count",
        "stale_count",
        "created_by",
        "created_at",
        "published_at",
    )
    list_filter = ("status",)
    readonly_fields = (
        "version",
        "status",
        "rows_summary",
        "data_display",
        "created_by",
        "published_by",
        "published_at",
    )
    fieldsets = (
        (None, {"fields": ("version", "status", "description", "rows_summary")}),
        (
            gettext_lazy("Figures, rules and regions"),
            {
                "fields": ("data_display",),
                "classes": ("collapse",),
                "description": gettext_lazy(
                    "Efficiency figures and product rules, each with its source; change them "
                    "through a JSON import."
                ),
            },
        ),
        (
            gettext_lazy("Record"),
            {"fields": ("created_by", "published_by", "published_at"), "classes": ("collapse",)},
        ),
    )
    actions = ("clone_action",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a catalog starts as a clone or an import: it needs accelerators and prices

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return catalog_editable(request, obj.pk if obj is not None else None)

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or catalog_status(obj.pk) != Catalog.Status.DRAFT

    def get_queryset(self, request: HttpRequest) -> QuerySet[Catalog]:
        from django.db.models import Count, Q

        queryset: QuerySet[Catalog] = super().get_queryset(request)
        cutoff = timezone.localdate() - timedelta(days=180)
        return queryset.annotate(
            prices_total=Count("prices", distinct=True),
            stale_total=Count(
                "prices",
                filter=Q(prices__as_of__lt=cutoff) | Q(prices__as_of__isnull=True),
                distinct=True,
            ),
        )

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        # Each public price list's newest run and newest success, so a failed refresh shows
        # here next to the catalogs it did not touch.
        extra = {**(extra_context or {}), "price_refreshes": selectors.price_refresh_summary()}
        response: HttpResponse = super().changelist_view(request, extra)
        return response

    @admin.display(description=gettext_lazy("prices"), ordering="prices_total")
    def price_count(self, obj: Catalog) -> int:
        return int(getattr(obj, "prices_total", 0))

    @admin.display(description=gettext_lazy("stale or undated prices"), ordering="stale_total")
    def stale_count(self, obj: Catalog) -> str:
        count = int(getattr(obj, "stale_total", 0))
        return format_html("<strong>⚠ {}</strong>", count) if count else "0"

    @admin.display(description=gettext_lazy("contents"))
    def rows_summary(self, obj: Catalog) -> str:
        if obj.pk is None:
            return "—"
        prices = reverse("admin:reference_catalogprice_changelist")
        presets = reverse("admin:reference_catalogpreset_changelist")
        cutoff = stale_cutoff(obj)
        stale = obj.prices.filter(as_of__lt=cutoff).count()
        undated = obj.prices.filter(as_of__isnull=True).count()
        return format_html(
            '<a href="{}?catalog__id__exact={}">{}</a> · <a href="{}?catalog__id__exact={}'
            '&amp;freshness=stale">{}</a> · <a href="{}?catalog__id__exact={}&amp;freshness='
            'undated">{}</a> · <a href="{}?catalog__id__exact={}">{}</a>',
            prices,
            obj.pk,
            _prices_label(obj.prices.count()),
            prices,
            obj.pk,
            _("%(count)s older than %(days)s days")
            % {"count": stale, "days": obj.stale_after_days},
            prices,
            obj.pk,
            _("%(count)s undated") % {"count": undated},
            presets,
            obj.pk,
            _presets_label(obj.presets.count()),
        )

    @admin.display(description=gettext_lazy("figures, rules and regions"))
    def data_display(self, obj: Catalog) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.data, indent=2, ensure_ascii=False))

    noun = "catalog"
    texts: ClassVar = {
        "cloned": gettext_lazy("%(draft)s is a new draft cloned from %(catalog)s."),
        "clone_title": gettext_lazy("Clone %(catalog)s"),
        "publish_title": gettext_lazy("Publish %(catalog)s"),
        "not_published": gettext_lazy("%(catalog)s was not published; fix these first:"),
        "published": gettext_lazy(
            "%(catalog)s is published: new reports are priced with it from now on."
        ),
        "imported": gettext_lazy("%(catalog)s was imported as a draft."),
        "import_title": gettext_lazy("Import a catalog"),
        "diff_title": gettext_lazy("Changes in %(catalog)s"),
        "preview_title": gettext_lazy("Impact preview of %(catalog)s"),
        "audit_title": gettext_lazy("Changes to %(catalog)s, by whom"),
    }
    kind = CATALOGS
    previews = True
    document_prefetch = ("accelerators", "presets")
    import_words: ClassVar = {
        "intro": gettext_lazy(
            "Upload a catalog exported from this or another installation (the engine's "
            "catalog JSON: accelerators, prices, figures, model presets). It arrives as a "
            "draft with the next version number; nothing changes for customers until it is "
            "published."
        ),
        "refused": gettext_lazy("The catalog was not imported:"),
    }
    preview_words: ClassVar = {
        "intro": gettext_lazy(
            "Re-scores every submitted assessment with this catalog and with the active one "
            "(same scoring model) and shows which recommendations would change: specs decide "
            "what fits, prices decide how to pay. Nothing is published."
        ),
    }

    def request_preview(self, obj: Catalog, user: User) -> None:
        impact_preview_request(catalog=obj, user=user)

    def audit_histories(self, obj: Catalog) -> list[Any]:
        return [
            obj.history.all(),
            CatalogAccelerator.history.filter(catalog_id=obj.pk),
            CatalogPrice.history.filter(catalog_id=obj.pk),
            CatalogPreset.history.filter(catalog_id=obj.pk),
        ]

    def publish_context(self, obj: Catalog) -> dict[str, Any]:
        cutoff = stale_cutoff(obj)
        return {
            "stale": obj.prices.filter(as_of__lt=cutoff).count(),
            "undated": obj.prices.filter(as_of__isnull=True).count(),
        }


@admin.register(PriceRefresh)
class PriceRefreshAdmin(EditorsOnly, admin.ModelAdmin[PriceRefresh]):
    list_display = ("source", "status", "started_at", "finished_at", "prices_changed", "draft")
    list_filter = ("source", "status")
    readonly_fields = (
        "source",
        "status",
        "started_at",
        "finished_at",
        "message",
        "prices_changed",
        "draft",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
