from __future__ import annotations

import importlib

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from advisor import engine
from advisor.reference.models import Catalog

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("advisor.migrations.0011_catalog_compatibility")


def test_a_fresh_seed_already_carries_compatibility_and_availability() -> None:
    published = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    doc = published.to_document()
    assert all(a["compatibility"]["source"] for a in doc["accelerators"])
    assert doc["availability"]["regions"]["hong_kong"]["public_cloud"] == [
        "nvidia-t4",
        "nvidia-a10g",
    ]
    assert engine.load_catalog(doc).to_dict()["round_trip_ms"]["pairs"]["hong_kong|tokyo"] == 53


def test_an_older_published_catalog_is_cloned_with_the_additions_and_retired() -> None:
    old = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    for acc in old.accelerators.all():
        acc.extra = {k: v for k, v in acc.extra.items() if k != "compatibility"}
        acc.save()
    old.data = {k: v for k, v in old.data.items() if k not in ("availability", "round_trip_ms")} | {
        "figures": {k: v for k, v in old.data["figures"].items() if k != "realtime_hours_per_month"}
    }
    old.save()
    prices = old.prices.count()

    # The migration's own picture of the models (they have since moved to the reference app).
    state = MigrationLoader(connection).project_state(("advisor", "0011_catalog_compatibility"))
    MIGRATION.publish(state.apps, None)

    old.refresh_from_db()
    new = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    assert old.status == Catalog.Status.RETIRED and new.version == old.version + 1
    assert new.prices.count() == prices
    doc = new.to_document()
    mi300x = next(a for a in doc["accelerators"] if a["id"] == "amd-mi300x")
    assert mi300x["compatibility"]["serving"]["tensorrt_llm"] == "unsupported"
    assert "availability" in doc and "realtime_hours_per_month" in doc["figures"]
    # The retired version still reads as it was: no compatibility of its own.
    assert all("compatibility" not in a.extra for a in old.accelerators.all())
