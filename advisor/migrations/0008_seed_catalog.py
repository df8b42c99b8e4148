"""Seeds the first catalog, published, from the engine's bundled catalog and model presets."""

from __future__ import annotations

import json
from importlib import resources

from django.db import migrations
from django.utils import timezone

from advisor.reference.catalog_rows import (
    CATALOG_ROW_KEYS,
    accelerator_fields,
    preset_fields,
    price_fields,
)


def _bundled(name):
    return json.loads(resources.files("advisor.engine").joinpath(f"data/{name}").read_text("utf-8"))


def seed(apps, schema_editor):
    Catalog = apps.get_model("advisor", "Catalog")
    Accelerator = apps.get_model("advisor", "CatalogAccelerator")
    Price = apps.get_model("advisor", "CatalogPrice")
    Preset = apps.get_model("advisor", "CatalogPreset")
    if Catalog.objects.exists():
        return
    doc = _bundled("catalog.json")
    presets = _bundled("presets.json")
    version = str(doc["version"])
    catalog = Catalog.objects.create(
        version=int(version) if version.isdigit() else 1,
        status="published",
        description=doc.get("description", ""),
        data={
            **{k: v for k, v in doc.items() if k not in CATALOG_ROW_KEYS},
            "presets_description": presets.get("description", ""),
        },
        published_at=timezone.now(),
    )
    accelerators = {}
    for a in doc["accelerators"]:
        accelerators[a["id"]] = Accelerator.objects.create(catalog=catalog, **accelerator_fields(a))
    Price.objects.bulk_create(
        Price(catalog=catalog, accelerator=accelerators[p["accelerator_id"]], **price_fields(p))
        for p in doc["prices"]
    )
    Preset.objects.bulk_create(
        Preset(catalog=catalog, **preset_fields(p)) for p in presets["presets"]
    )


def unseed(apps, schema_editor):
    apps.get_model("advisor", "Catalog").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("advisor", "0007_catalogs")]

    operations = [migrations.RunPython(seed, unseed)]
