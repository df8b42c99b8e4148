"""The operating organisation's own servers, as catalog prices."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from advisor.reference.models.catalog import CatalogPrice


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
