"""Admin for house offers: the operating organisation's own servers, described as sales
describes them and saved as a monthly catalog price per card."""

from __future__ import annotations

import threading
from decimal import Decimal
from typing import Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from advisor.permissions import request_can_edit_reference
from advisor.reference import selectors
from advisor.reference.admin.catalog_rows import (
    CatalogRowAdmin,
    RegionGroupFilter,
    catalog_editable,
    region_choices,
)
from advisor.reference.admin.forms import SourcedForm
from advisor.reference.models import Catalog, CatalogAccelerator, HouseOffer
from advisor.reference.models.catalog import MODE_CHOICES
from advisor.reference.services.catalog import catalog_draft_for_edit, house_provider_name

HOUSE_MODES = [(m, label) for m, label in MODE_CHOICES if m in ("dedicated_hosting", "bare_metal")]
CHINA_ROUTES = [
    ("", gettext_lazy("None")),
    ("cn2_gia", "CN2 GIA"),
    ("cmi", "CMI"),
]
# The server fields kept in the price row's `extra.server` (the engine hands them to reports).
SERVER_FIELDS = (
    "cpu",
    "ram_gb",
    "nvme_tb",
    "network_gbps",
    "china_bandwidth_mbps",
    "china_bandwidth_type",
    "china_bandwidth_usd_per_mbps_month",
)
# The most an extra Mbps-month of premium China bandwidth may cost: CN2 GIA is "$100+/Mbps in
# some cases" (deployment_costs.md 4); a larger figure is a price per server or a typo.
CHINA_MBPS_PRICE_MAX = Decimal(10_000)


class HouseOfferForm(SourcedForm):
    """A server as the sales team describes it; saved as a monthly catalog price per card."""

    dated_fields = ("source",)
    modes = forms.MultipleChoiceField(
        label=gettext_lazy("Deployment modes"),
        choices=HOUSE_MODES,
        initial=["dedicated_hosting", "bare_metal"],
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": gettext_lazy("Pick at least one deployment mode.")},
    )
    region_key = forms.ChoiceField(label=gettext_lazy("Region"), choices=region_choices)
    server_name = forms.CharField(
        label=gettext_lazy("Server name"),
        max_length=100,
        help_text=gettext_lazy("As the offer is sold, e.g. “HK-H100-8”."),
    )
    gpu_count = forms.IntegerField(
        label=gettext_lazy("GPUs per server"), min_value=1, max_value=16, initial=8
    )
    cpu = forms.CharField(
        label=gettext_lazy("CPU"),
        max_length=100,
        help_text=gettext_lazy("e.g. “2 × AMD EPYC 9354 (64 cores)”."),
    )
    ram_gb = forms.IntegerField(label=gettext_lazy("RAM (GB)"), min_value=1, max_value=16_384)
    nvme_tb = forms.DecimalField(
        label=gettext_lazy("NVMe (TB)"), min_value=0, max_value=1000, decimal_places=2
    )
    network_gbps = forms.DecimalField(
        label=gettext_lazy("Network (Gbps)"), min_value=0, max_value=3200, decimal_places=1
    )
    china_bandwidth_mbps = forms.IntegerField(
        label=gettext_lazy("Premium bandwidth to mainland China (Mbps)"),
        min_value=0,
        max_value=100_000,
        required=False,
    )
    china_bandwidth_type = forms.ChoiceField(
        label=gettext_lazy("China route"), choices=CHINA_ROUTES, required=False
    )
    china_bandwidth_usd_per_mbps_month = forms.DecimalField(
        label=gettext_lazy("Extra China bandwidth price (USD per Mbps-month)"),
        help_text=gettext_lazy(
            "What each Mbps beyond the included bandwidth costs a month on this route. Leave it "
            "empty when there is no published price: the report then asks for a quote."
        ),
        min_value=Decimal("0.01"),
        max_value=CHINA_MBPS_PRICE_MAX,
        decimal_places=2,
        required=False,
        error_messages={
            "min_value": gettext_lazy(
                "A price per Mbps-month is more than zero; leave the field empty when there is "
                "none."
            ),
            "max_value": gettext_lazy(
                "At most %(limit_value)s USD per Mbps-month: is this the price of the server, not "
                "of one Mbps?"
            ),
            "invalid": gettext_lazy("Give the price as a number of US dollars, e.g. 45.50."),
            "max_decimal_places": gettext_lazy("Give the price to the cent (2 decimal places)."),
        },
    )
    usd_per_server_month = forms.DecimalField(
        label=gettext_lazy("Monthly price per server (USD)"),
        min_value=Decimal("0.01"),
        max_value=Decimal(2_000_000),
        decimal_places=2,
        required=False,
    )
    price_on_request = forms.BooleanField(
        label=gettext_lazy("Price on request"),
        required=False,
        help_text=gettext_lazy(
            "No published price: the offer is listed, unpriced (it never ranks above a priced "
            "option), and the report offers a quote request."
        ),
    )

    class Meta:
        model = HouseOffer
        fields: tuple[str, ...] = (
            "catalog",
            "accelerator",
            "key",
            "region",
            "setup_fee_usd",
            "min_term_months",
            "source",
            "as_of",
            "note",
        )
        labels: ClassVar = {"region": gettext_lazy("Location")}
        help_texts: ClassVar = {
            "region": gettext_lazy("The data centre, e.g. “Hong Kong (Tseung Kwan O)”.")
        }
        widgets: ClassVar[dict[str, Any]] = {
            "source": forms.Textarea(attrs={"rows": 2, "cols": 80}),
            "note": forms.Textarea(attrs={"rows": 2, "cols": 80}),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        obj = self.instance
        if obj.pk:
            extra = obj.extra or {}
            server = extra.get("server") or {}
            count = int(extra.get("gpus_per_unit") or 1)
            self.initial.update({k: server.get(k) for k in SERVER_FIELDS})
            self.initial.update(
                modes=obj.modes,
                region_key=obj.region_key,
                server_name=extra.get("unit") or "",
                gpu_count=count,
                price_on_request=bool(extra.get("price_on_request")),
                usd_per_server_month=(
                    None
                    if obj.usd_per_device_month is None
                    else (obj.usd_per_device_month * count).quantize(Decimal("0.01"))
                ),
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        price, on_request = data.get("usd_per_server_month"), data.get("price_on_request")
        if price is None and not on_request and "usd_per_server_month" not in self.errors:
            self.add_error(
                "usd_per_server_month", _("Give the monthly price, or tick “Price on request”.")
            )
        if price is not None and on_request:
            self.add_error(
                "price_on_request", _("An offer has a monthly price or is on request, not both.")
            )
        mbps, route = data.get("china_bandwidth_mbps"), data.get("china_bandwidth_type")
        if mbps and not route:
            self.add_error("china_bandwidth_type", _("Choose the route for the China bandwidth."))
        if route and not mbps:
            self.add_error("china_bandwidth_mbps", _("Give the bandwidth for this route."))
        if data.get("china_bandwidth_usd_per_mbps_month") is not None and not route:
            self.add_error(
                "china_bandwidth_usd_per_mbps_month",
                _("A price per Mbps-month needs the China route it is for."),
            )
        accelerator, count = data.get("accelerator"), data.get("gpu_count")
        if accelerator and count and count > accelerator.max_devices_per_node:
            self.add_error(
                "gpu_count",
                _("A server holds at most %(n)s %(card)s cards.")
                % {"n": accelerator.max_devices_per_node, "card": accelerator.name},
            )
        catalog = data.get("catalog") or (
            self.instance.catalog if self.instance.catalog_id else None
        )
        published = accelerator is not None and (
            accelerator.catalog.status == Catalog.Status.PUBLISHED
        )
        if catalog is None:
            # Written to the newest draft, else to a new clone of the published catalog: the
            # id must be free there (the database would refuse it after the form).
            target = (
                Catalog.objects.filter(status=Catalog.Status.DRAFT).order_by("-version").first()
                or Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
            )
            key = data.get("key")
            if target is not None and key and target.prices.filter(key=key).exists():
                self.add_error("key", _("This catalog already has a price with this id."))
        if catalog is None and accelerator is not None and not published:
            self.add_error(
                "catalog",
                _("Choose the draft %(catalog)s that %(accelerator)s belongs to.")
                % {"catalog": accelerator.catalog, "accelerator": accelerator},
            )
        if (
            catalog
            and accelerator
            and accelerator.catalog_id != catalog.pk
            and not (published and catalog.accelerators.filter(key=accelerator.key).exists())
        ):
            self.add_error(
                "accelerator",
                _("%(accelerator)s belongs to %(other)s, not to %(catalog)s.")
                % {"accelerator": accelerator, "other": accelerator.catalog, "catalog": catalog},
            )
        return data

    def save(self, commit: bool = True) -> Any:
        obj = super().save(commit=False)
        data = self.cleaned_data
        count = int(data["gpu_count"])
        price = data.get("usd_per_server_month")
        server: dict[str, Any] = {k: data.get(k) for k in SERVER_FIELDS}
        for k in ("nvme_tb", "network_gbps", "china_bandwidth_usd_per_mbps_month"):
            value = server[k]
            server[k] = None if value is None else float(value)
        server["china_bandwidth_mbps"] = server["china_bandwidth_mbps"] or 0
        server["name"] = data["server_name"]
        server["gpus"] = count
        if obj.setup_fee_usd is not None:
            server["setup_fee_usd"] = float(obj.setup_fee_usd)
        if obj.min_term_months is not None:
            server["min_term_months"] = obj.min_term_months
        obj.provider = house_provider_name()
        obj.cloud = "other"
        obj.billing = "monthly"
        obj.modes = list(data["modes"])
        obj.region_key = data["region_key"]
        obj.usd_per_device_hour = None
        obj.usd_per_device_month = (
            None if price is None else (price / count).quantize(Decimal("0.0001"))
        )
        obj.estimated = False
        # A per-card figure of a server sold whole is derived (price / cards).
        obj.derived = count > 1
        obj.extra = {
            **(obj.extra or {}),
            "house": True,
            "gpus_per_unit": count,
            "unit": data["server_name"],
            "server": server,
            "price_on_request": bool(data.get("price_on_request")),
        }
        if commit:
            obj.save()
        return obj


@admin.register(HouseOffer)
class HouseOfferAdmin(CatalogRowAdmin):
    form = HouseOfferForm
    list_display = (
        "key",
        "server",
        "accelerator_key",
        "region",
        "monthly",
        "demand",
        "as_of",
        "catalog",
    )
    list_filter = ("catalog", RegionGroupFilter)
    list_select_related = ("catalog", "accelerator")
    search_fields = ("key", "region", "accelerator__name")
    fieldsets = (
        (None, {"fields": ("catalog", "key", "accelerator", "gpu_count", "server_name")}),
        (
            gettext_lazy("Server"),
            {
                "fields": (
                    "cpu",
                    "ram_gb",
                    "nvme_tb",
                    "network_gbps",
                    "china_bandwidth_mbps",
                    "china_bandwidth_type",
                    "china_bandwidth_usd_per_mbps_month",
                )
            },
        ),
        (gettext_lazy("Where"), {"fields": ("region", "region_key", "modes")}),
        (
            gettext_lazy("Price"),
            {
                "fields": (
                    "usd_per_server_month",
                    "price_on_request",
                    "setup_fee_usd",
                    "min_term_months",
                    "source",
                    "as_of",
                    "note",
                )
            },
        ),
    )

    # A published (or retired) catalog's offer is only viewed: every field is read-only, and
    # the fields the form keeps in `extra` (the server, the price per server) are shown from
    # there, as the form would fill them, under the form's own labels.
    def _initial(self, obj: HouseOffer, name: str) -> Any:
        value = HouseOfferForm(instance=obj).initial.get(name)
        return "—" if value in (None, "") else value

    @admin.display(description=gettext_lazy("GPUs per server"))
    def gpu_count(self, obj: HouseOffer) -> Any:
        return self._initial(obj, "gpu_count")

    @admin.display(description=gettext_lazy("Server name"))
    def server_name(self, obj: HouseOffer) -> Any:
        return self._initial(obj, "server_name")

    @admin.display(description=gettext_lazy("CPU"))
    def cpu(self, obj: HouseOffer) -> Any:
        return self._initial(obj, "cpu")

    @admin.display(description=gettext_lazy("RAM (GB)"))
    def ram_gb(self, obj: HouseOffer) -> Any:
        return self._initial(obj, "ram_gb")

    @admin.display(description=gettext_lazy("NVMe (TB)"))
    def nvme_tb(self, obj: HouseOffer) -> Any:
        return self._initial(obj, "nvme_tb")

    @admin.display(description=gettext_lazy("Network (Gbps)"))
    def network_gbps(self, obj: HouseOffer) -> Any:
        return self._initial(obj, "network_gbps")

    @admin.display(description=gettext_lazy("Premium bandwidth to mainland China (Mbps)"))
    def china_bandwidth_mbps(self, obj: HouseOffer) -> Any:
        return self._initial(obj, "china_bandwidth_mbps")

    @admin.display(description=gettext_lazy("China route"))
    def china_bandwidth_type(self, obj: HouseOffer) -> Any:
        return dict(CHINA_ROUTES).get(self._initial(obj, "china_bandwidth_type"), _("None"))

    @admin.display(description=gettext_lazy("Extra China bandwidth price (USD per Mbps-month)"))
    def china_bandwidth_usd_per_mbps_month(self, obj: HouseOffer) -> Any:
        return self._initial(obj, "china_bandwidth_usd_per_mbps_month")

    @admin.display(description=gettext_lazy("Monthly price per server (USD)"))
    def usd_per_server_month(self, obj: HouseOffer) -> Any:
        return self._initial(obj, "usd_per_server_month")

    @admin.display(description=gettext_lazy("Price on request"), boolean=True)
    def price_on_request(self, obj: HouseOffer) -> bool:
        return bool((obj.extra or {}).get("price_on_request"))

    @admin.display(description=gettext_lazy("Deployment modes"))
    def modes_named(self, obj: HouseOffer) -> str:
        labels = dict(MODE_CHOICES)
        return ", ".join(str(labels.get(m, m)) for m in obj.modes or [])

    @admin.display(description=gettext_lazy("region group"))
    def region_group(self, obj: HouseOffer) -> str:
        return str(dict(region_choices()).get(obj.region_key, obj.region_key or "—"))

    # Model fields whose stored form is a key or a list of keys: shown by name when read-only.
    _NAMED = {"modes": "modes_named", "region_key": "region_group"}

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None or catalog_editable(request, obj.catalog_id):
            return fieldsets
        return [
            (name, {**opts, "fields": tuple(self._NAMED.get(f, f) for f in opts["fields"])})
            for name, opts in fieldsets
        ]

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> Any:
        obj = self.get_object(request, object_id)
        if (
            obj is not None
            and request.method == "GET"
            and request_can_edit_reference(request)
            and not catalog_editable(request, obj.catalog_id)
        ):
            messages.info(request, self._how_to_change(obj))
        return super().change_view(request, object_id, form_url, extra_context)

    def _how_to_change(self, obj: HouseOffer) -> str:
        """What the read-only page says: a published catalog never changes, so the offer is
        changed in a draft (the newest draft's row of the same id, or a clone of this catalog)
        and the draft published."""
        draft = Catalog.objects.filter(status=Catalog.Status.DRAFT).order_by("-version").first()
        row = None if draft is None else HouseOffer.objects.filter(catalog=draft, key=obj.key)
        found = None if row is None else row.first()
        intro = _(
            "This offer belongs to %(catalog)s, which is not a draft: a published catalog never "
            "changes, so that every report keeps meaning what it said."
        ) % {"catalog": obj.catalog}
        if found is not None:
            return format_html(
                '{} <a href="{}">{}</a>',
                intro,
                reverse("admin:reference_houseoffer_change", args=[found.pk]),
                _("Change it in the draft %(draft)s, then publish the draft.") % {"draft": draft},
            )
        return format_html(
            '{} <a href="{}">{}</a>',
            intro,
            reverse("admin:reference_catalog_clone", args=[obj.catalog_id]),
            _("Clone %(catalog)s to a new draft, change the offer there and publish the draft.")
            % {"catalog": obj.catalog},
        )

    @admin.display(description=gettext_lazy("server"))
    def server(self, obj: HouseOffer) -> str:
        extra = obj.extra or {}
        count = extra.get("gpus_per_unit") or 1
        return f"{extra.get('unit') or '—'} ({count} × {obj.accelerator.name})"

    @admin.display(description=gettext_lazy("accelerator"), ordering="accelerator__key")
    def accelerator_key(self, obj: HouseOffer) -> str:
        return obj.accelerator.key

    @admin.display(description=gettext_lazy("per server-month"))
    def monthly(self, obj: HouseOffer) -> str:
        extra = obj.extra or {}
        if extra.get("price_on_request") or obj.usd_per_device_month is None:
            return _("price on request")
        total = obj.usd_per_device_month * int(extra.get("gpus_per_unit") or 1)
        return f"${total:,.0f}"

    @admin.display(description=gettext_lazy("recent demand (fitted / won)"))
    def demand(self, obj: HouseOffer) -> str:
        rows = getattr(_DEMAND, "rows", {})
        fitted, won, read = rows.get(obj.key, (0, 0, getattr(_DEMAND, "read", 0)))
        return _("%(fitted)s / %(won)s of %(read)s") % {"fitted": fitted, "won": won, "read": read}

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        # How many recent assessments each offer would have fitted and won,
        # from the stored results of the newest finished reports (one query per page).
        # Kept for this thread until its next changelist: the page renders after the return.
        _DEMAND.rows = selectors.house_offer_demand()
        _DEMAND.read = next(iter(_DEMAND.rows.values()), (0, 0, 0))[2]
        return super().changelist_view(request, extra_context)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kw: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kw)
        if db_field.name == "accelerator":
            # A draft's cards, or the published catalog's when there is no draft yet (the
            # offer is then written to a new draft with the same cards).
            field.queryset = CatalogAccelerator.objects.filter(
                catalog__status__in=[Catalog.Status.DRAFT, Catalog.Status.PUBLISHED]
            ).select_related("catalog")
        if db_field.name == "catalog":
            draft = field.queryset.order_by("-version").first()
            field.required = False
            field.empty_label = (
                _("A new draft of the published catalog, created when you save")
                if draft is None
                else _("The newest draft (%(draft)s)") % {"draft": draft}
            )
            field.help_text = _(
                "The draft catalog the offer is written to; publish it to put the offer in reports."
            )
        return field

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if obj.catalog_id is None:
            draft, created = catalog_draft_for_edit(user=request.user)  # type: ignore[arg-type]
            obj.catalog = draft
            self.message_user(
                request,
                (
                    _("The offer was written to a new draft catalog, %(draft)s.")
                    if created
                    else _("The offer was written to the draft catalog %(draft)s.")
                )
                % {"draft": draft},
            )
        if obj.accelerator.catalog_id != obj.catalog_id:
            # A card picked from the published catalog: the draft's card of the same id.
            obj.accelerator = CatalogAccelerator.objects.get(
                catalog=obj.catalog, key=obj.accelerator.key
            )
        super().save_model(request, obj, form, change)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kw: Any
    ) -> Any:
        form = super().get_form(request, obj, change, **kw)
        if obj is not None and "accelerator" in form.base_fields:
            form.base_fields["accelerator"].queryset = CatalogAccelerator.objects.filter(
                catalog_id=obj.catalog_id
            )
        return form


# The demand column's figures for the changelist being drawn (per thread: admin instances are
# shared between requests).
_DEMAND = threading.local()
