"""The catalog's corrections and regional offers in the database: the migration that publishes them,
the offers import on the command line and where each card is offered on the `/catalog/` page."""

from __future__ import annotations

import importlib
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from advisor import engine
from advisor.reference.models import Catalog
from tests.reference.scoring.conftest import member_with_role

pytestmark = pytest.mark.django_db

MIGRATION_NAME = "0012_catalog_regional_offers"
MIGRATION = importlib.import_module(f"advisor.migrations.{MIGRATION_NAME}")
OFFERS = Path(__file__).parents[2] / "fixtures" / "offers" / "offers_hk_tokyo_la.json"


def _migration_apps() -> Any:
    # The migration's own picture of the models (they have since moved to the reference app).
    return MigrationLoader(connection).project_state(("advisor", MIGRATION_NAME)).apps


def _published() -> Catalog:
    return Catalog.objects.get(status=Catalog.Status.PUBLISHED)


def test_a_fresh_seed_already_carries_the_regional_offers() -> None:
    published = _published()
    MIGRATION.publish(_migration_apps(), None)
    assert Catalog.objects.count() == 1
    doc = published.to_document()
    withdrawn = doc["regional_offers"].get("withdrawn", [])  # no public source dates them
    assert sum(p["id"].startswith("rg") for p in doc["prices"]) == 37 - len(withdrawn)
    p064 = next(p for p in doc["prices"] if p["id"] == "p064")
    assert p064["accelerator_id"] == "nvidia-gh200"
    assert engine.load_catalog(doc).by_id["nvidia-gh200"].memory_gb == 96


def test_an_older_published_catalog_is_cloned_with_the_fixes_and_offers_and_retired() -> None:
    old = _published()
    h200 = old.accelerators.get(key="nvidia-h200")
    old.prices.filter(key="p064").update(accelerator=h200, note="On-Demand 1x GH200")
    old.prices.filter(key__startswith="rg").delete()
    old.accelerators.filter(key="nvidia-gh200").delete()
    for price in old.prices.all():
        price.extra = {k: v for k, v in price.extra.items() if k not in ("gpus_per_unit", "unit")}
        price.derived = False
        price.save()
    old.data = {k: v for k, v in old.data.items() if k not in ("regional_offers", "availability")}
    old.data["regions"] = {k: v for k, v in old.data["regions"].items() if k != "japan"}
    old.save()
    prices = old.prices.count()
    bundled = json.loads((Path(engine.__file__).parent / "data" / "catalog.json").read_text())
    added = 37 - len(bundled["regional_offers"].get("withdrawn", []))  # withdrawn: undated

    MIGRATION.publish(_migration_apps(), None)

    old.refresh_from_db()
    new = _published()
    assert old.status == Catalog.Status.RETIRED and new.version == old.version + 1
    assert new.prices.count() == prices + added
    p064 = new.prices.select_related("accelerator").get(key="p064")
    assert p064.accelerator.key == "nvidia-gh200" and "not an H200" in p064.note
    p5 = new.prices.get(key="p021")
    assert p5.extra["gpus_per_unit"] == 8 and p5.derived
    doc = new.to_document()
    assert doc["regions"]["japan"]["group"] == "asia"
    assert doc["availability"]["regions"]["hong_kong"]["not_offered"]
    assert doc["regional_offers"]["fx"]["JPY"]["per_usd"] == 156.76
    catalog = engine.load_catalog(doc)
    assert catalog.by_id["nvidia-gh200"] and len(catalog.prices) == prices + added
    # The retired version still reads as it was.
    assert old.prices.get(key="p064").accelerator.key == "nvidia-h200"
    assert not old.prices.filter(key__startswith="rg").exists()


def test_the_import_command_writes_a_draft_with_every_row_sourced(tmp_path: Path) -> None:
    rows = json.loads(OFFERS.read_text("utf-8"))
    sample = tmp_path / "offers.json"
    sample.write_text(json.dumps([rows[0], rows[27], rows[29]]), "utf-8")  # p5, Sakura, V100
    published = _published()
    out = StringIO()

    call_command("import_offers", str(sample), "--prefix", "new", stdout=out)

    draft = Catalog.objects.get(status=Catalog.Status.DRAFT)
    assert draft.version == published.version + 1
    assert _published().pk == published.pk  # nothing is published by itself
    assert draft.prices.count() == published.prices.count() + 2
    p5 = draft.prices.get(key="new01")
    assert p5.extra["gpus_per_unit"] == 8 and p5.derived and p5.as_of.isoformat() == "2026-01-21"
    sakura = draft.prices.get(key="new02")
    assert sakura.region_key == "japan" and sakura.extra["fx"]["as_of"] == "2026-05-08"
    assert "2 prices imported, 1 held back" in out.getvalue()
    assert "row 3 NVIDIA V100" in out.getvalue()


def test_bad_offers_list_every_problem_and_write_nothing(tmp_path: Path) -> None:
    rows = json.loads(OFFERS.read_text("utf-8"))
    rows[0]["price"] = "68.8"
    rows[5]["region"] = "Atlantis"
    rows[9]["currency"] = "EUR"
    bad = tmp_path / "offers.json"
    bad.write_text(json.dumps(rows), "utf-8")
    err = StringIO()

    with pytest.raises(CommandError) as caught:
        call_command("import_offers", str(bad), stderr=err)

    assert caught.value.returncode == 2
    lines = err.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "offers[0].price",
        "offers[5].region",
        "offers[9].currency",
    ]
    assert Catalog.objects.count() == 1


def test_the_catalog_page_shows_where_each_card_is_offered_with_sources(client: Client) -> None:
    client.force_login(member_with_role(Role.SALES_ENGINEER))
    page = client.get(reverse("advisor:catalog")).content.decode()
    start = page.index('id="availability-hong_kong"')
    hong_kong = page[start : page.index("</tr>", start)]
    assert "NVIDIA T4" in hong_kong and "ap-east-1" in hong_kong
    assert "asia-east2" in hong_kong and "a price-list row is not availability" in hong_kong
    assert "2026-01-21" in hong_kong and "vantage" in hong_kong
    assert 'id="availability-japan"' in page and "Japan outside Tokyo" in page
    start = page.index('id="price-rg01"')
    p5 = page[start : page.index("</tr>", start)]
    assert "sold as p5.48xlarge on-demand (Linux) (8 GPUs); per-GPU figure derived" in p5


def test_a_row_of_wrong_types_lists_every_problem_of_that_row_and_writes_nothing(
    tmp_path: Path,
) -> None:
    # Only the row's first missing field was reported.
    rows = json.loads(OFFERS.read_text("utf-8"))
    rows[3] = {
        "provider": 7,
        "offer": ["p5"],
        "region": {"name": "Tokyo"},
        "gpu": "NVIDIA H100",
        "gpu_count": "8",
        "billing": ["hourly"],
        "price": "68.8",
        "currency": {"code": "USD"},
        "min_term_months": True,
        "china_bandwidth_price_per_mbps_month": 3,
    }
    bad = tmp_path / "offers.json"
    bad.write_text(json.dumps(rows), "utf-8")
    err = StringIO()

    with pytest.raises(CommandError) as caught:
        call_command("import_offers", str(bad), stderr=err)

    assert caught.value.returncode == 2
    fields = [line.split(":")[0] for line in err.getvalue().splitlines()]
    assert fields == [
        f"offers[3].{field}"
        for field in (
            "provider",
            "offer",
            "region",
            "source",
            "gpu_count",
            "billing",
            "price",
            "currency",
            "min_term_months",
            "china_bandwidth_type",
        )
    ]
    assert "10 problem(s); nothing was written" in str(caught.value)
    assert Catalog.objects.count() == 1
