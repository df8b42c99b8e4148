"""Publishes a new catalog version with the catalog's corrections: the GH200 as its own
accelerator (Lambda's 1x GH200 was filed as an H200), the unit each price is sold in (AWS p4d/
p4de/p5/p5en/p6, Azure ND96, Google a3-highgpu-8g/a3-ultragpu-8g/a4, CoreWeave HGX and Lambda
8x A100 nodes are 8-GPU purchases), Flex-start named as its own billing, where each card is
offered per region with sources (a price-list row is not availability), the "japan" region
(Japan is not always Tokyo) and the 37 priced rows of shared/reference/offers_hk_tokyo_la.json
with its FX notes.

Cloned from the published catalog (its prices and edits stay as they are, only the unit and the
GH200 fixes touch existing rows); the old version is retired, and reports keep the catalog they
name. A database seeded from the updated engine/data/catalog.json already has all of it and is
left alone.
"""

from __future__ import annotations

import json
from importlib import resources

from django.db import migrations
from django.db.models import Max
from django.utils import timezone

from advisor.reference.catalog_rows import accelerator_fields, price_fields

_DATA_KEYS = ("availability", "regional_offers")


def _bundled():
    text = resources.files("advisor.engine").joinpath("data/catalog.json").read_text("utf-8")
    return json.loads(text)


def _fields(row, skip=("id", "catalog")):
    return {
        f.attname: getattr(row, f.attname)
        for f in row._meta.concrete_fields
        if f.name not in skip and f.attname not in ("id", "catalog_id")
    }


def publish(apps, schema_editor):
    Catalog = apps.get_model("advisor", "Catalog")
    Accelerator = apps.get_model("advisor", "CatalogAccelerator")
    Price = apps.get_model("advisor", "CatalogPrice")
    Preset = apps.get_model("advisor", "CatalogPreset")
    old = Catalog.objects.filter(status="published").first()
    if old is None:
        return
    doc = _bundled()
    data = dict(old.data or {})
    keys = set(old.prices.values_list("key", flat=True))
    new_prices = [p for p in doc["prices"] if p["id"].startswith("rg")]
    if "regional_offers" in data and all(p["id"] in keys for p in new_prices):
        return  # seeded from the current catalog.json
    regions = dict(data.get("regions") or {})
    for key, value in doc["regions"].items():
        regions.setdefault(key, value)
    gaps = list(data.get("gaps") or [])
    gaps += [g for g in doc["gaps"] if g not in gaps]
    data.update({k: doc[k] for k in _DATA_KEYS}, regions=regions, gaps=gaps)
    now = timezone.now()
    version = (Catalog.objects.aggregate(v=Max("version"))["v"] or 0) + 1
    new = Catalog.objects.create(
        version=version, status="draft", description=old.description, data=data
    )
    accelerators = {}
    for a in old.accelerators.all():
        accelerators[a.key] = Accelerator.objects.create(catalog=new, **_fields(a))
    for a in doc["accelerators"]:
        if a["id"] not in accelerators:
            accelerators[a["id"]] = Accelerator.objects.create(
                catalog=new, **accelerator_fields(a)
            )
    bundled = {p["id"]: p for p in doc["prices"]}
    by_pk = {a.pk: a for a in old.accelerators.all()}
    rows = []
    for p in old.prices.all():
        fields = _fields(p, skip=("id", "catalog", "accelerator"))
        acc_key = by_pk[p.accelerator_id].key
        ref = bundled.get(p.key)
        extra = dict(fields.get("extra") or {})
        if ref is not None and ref.get("gpus_per_unit", 1) > 1 and acc_key == ref["accelerator_id"]:
            extra.setdefault("gpus_per_unit", ref["gpus_per_unit"])
            extra.setdefault("unit", ref["unit"])
            fields["derived"] = True
        if ref is not None and ref["accelerator_id"] == "nvidia-gh200" and "GH200" in p.note:
            acc_key, fields["note"] = "nvidia-gh200", ref["note"]
        if ref is not None and p.billing == "flex_start":
            fields["note"] = ref["note"]
        fields["extra"] = extra
        rows.append(Price(catalog=new, accelerator=accelerators[acc_key], **fields))
    for p in new_prices:
        if p["id"] not in keys:
            fields = price_fields(p)
            rows.append(Price(catalog=new, accelerator=accelerators[p["accelerator_id"]], **fields))
    Price.objects.bulk_create(rows)
    Preset.objects.bulk_create(Preset(catalog=new, **_fields(p)) for p in old.presets.all())
    Catalog.objects.filter(pk=old.pk).update(status="retired", retired_at=now)
    Catalog.objects.filter(pk=new.pk).update(status="published", published_at=now)


class Migration(migrations.Migration):
    dependencies = [("advisor", "0011_catalog_compatibility")]

    operations = [migrations.RunPython(publish, migrations.RunPython.noop)]
