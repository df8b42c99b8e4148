"""Publishes a new catalog version with what became catalog data: per-accelerator
compatibility (frameworks, serving stacks, custom CUDA kernels, with sources), where each card is
offered, the inter-region round-trip table and the figures and rules the option engine reads.

Cloned from the published catalog (its prices and edits stay as they are); the old version is
retired, and reports keep the catalog they name. A database seeded from the updated
engine/data/catalog.json already has all of it and is left alone.
"""

from __future__ import annotations

import json
from importlib import resources

from django.db import migrations
from django.db.models import Max
from django.utils import timezone

# Figures whose source changed with the fused-AdamW default; the value is the same.
_UPDATED_FIGURES = ("optimizer_step_transient_bytes",)


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
    compat = {a["id"]: a["compatibility"] for a in doc["accelerators"] if "compatibility" in a}
    accelerators = list(old.accelerators.all())
    data = dict(old.data or {})
    if (
        "availability" in data
        and "round_trip_ms" in data
        and all("compatibility" in (a.extra or {}) for a in accelerators if a.key in compat)
    ):
        return  # seeded from the current catalog.json
    figures = dict(data.get("figures") or {})
    for key, value in doc["figures"].items():
        if key not in figures or key in _UPDATED_FIGURES:
            figures[key] = value
    rules = dict(data.get("rules") or {})
    for key, value in doc["rules"].items():
        rules.setdefault(key, value)
    data.update(
        figures=figures,
        rules=rules,
        availability=data.get("availability") or doc["availability"],
        round_trip_ms=data.get("round_trip_ms") or doc["round_trip_ms"],
    )
    now = timezone.now()
    version = (Catalog.objects.aggregate(v=Max("version"))["v"] or 0) + 1
    new = Catalog.objects.create(
        version=version,
        status="draft",
        description=old.description,
        data=data,
    )
    by_key = {}
    for a in accelerators:
        fields = _fields(a)
        extra = dict(fields.get("extra") or {})
        if a.key in compat:
            extra.setdefault("compatibility", compat[a.key])
        fields["extra"] = extra
        by_key[a.pk] = Accelerator.objects.create(catalog=new, **fields)
    Price.objects.bulk_create(
        Price(
            catalog=new,
            **{
                **_fields(p, skip=("id", "catalog", "accelerator")),
                "accelerator_id": by_key[p.accelerator_id].pk,
            },
        )
        for p in old.prices.all()
    )
    Preset.objects.bulk_create(Preset(catalog=new, **_fields(p)) for p in old.presets.all())
    Catalog.objects.filter(pk=old.pk).update(status="retired", retired_at=now)
    Catalog.objects.filter(pk=new.pk).update(status="published", published_at=now)


class Migration(migrations.Migration):
    dependencies = [("advisor", "0010_price_refresh")]

    operations = [migrations.RunPython(publish, migrations.RunPython.noop)]
