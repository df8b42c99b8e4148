"""SkyPilot's catalog format as a price source and as the second source of the bundled prices:
the parser, the per-device figure of a catalog row, and the confirmed / flagged states."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from advisor.engine.catalog import load_catalog
from advisor.reference.prices import skypilot

FIXTURE = Path(__file__).parent / "fixtures" / "skypilot_gcp_vms.csv"
BUNDLED = Path(skypilot.__file__).parents[2] / "engine" / "data" / "catalog.json"


def row(**fields: Any) -> dict[str, Any]:
    return {
        "id": "x",
        "provider": "Google Cloud",
        "cloud": "gcp",
        "billing": "on_demand",
        "gpus_per_unit": 8,
        "source": "a provider page",
        **fields,
    }


def test_the_parser_reads_machine_and_accelerator_rows() -> None:
    rows = skypilot.parse(FIXTURE.read_text())
    assert len(rows) == 7
    machine, gpus = rows[0], rows[1]
    assert (machine.instance, machine.accelerator, machine.price) == (
        "a3-highgpu-8g",
        "",
        Decimal("10.0"),
    )
    assert (gpus.instance, gpus.accelerator, gpus.count, gpus.zone) == (
        "",
        "H100",
        8,
        "us-central1-a",
    )
    assert rows[2].spot is None  # an empty spot price is no price, not zero


def test_a_file_without_the_columns_is_refused() -> None:
    with pytest.raises(ValueError, match="not a SkyPilot vms.csv"):
        skypilot.parse("a,b\n1,2\n")


def test_a_google_vm_is_its_machine_plus_its_gpus_per_gpu() -> None:
    rows = skypilot.parse(FIXTURE.read_text())
    h100 = row(
        accelerator_id="nvidia-h100-sxm", unit_id="gcp:a3-highgpu", region="us-central1 (Iowa)"
    )
    assert skypilot.figure(rows, h100)[0] == Decimal("11.25")  # (10 + 80) / 8
    assert skypilot.figure(rows, {**h100, "billing": "spot"})[0] == Decimal("2.75")
    # A GPU charge without its machine row is not a VM price: no figure (asia-east2).
    assert skypilot.figure(rows, {**h100, "region": "asia-east2 (Hong Kong)"}) is None
    b200 = row(accelerator_id="nvidia-b200", unit_id="gcp:a4-highgpu-8g", region="us-central1")
    assert skypilot.figure(rows, b200)[0] == Decimal("11.277")
    # Commitments are not in the file.
    assert skypilot.figure(rows, {**b200, "billing": "commit_1y"}) is None


def test_tpus_are_per_chip_and_the_700_placeholder_is_no_price() -> None:
    rows = skypilot.parse(FIXTURE.read_text())
    v6e = row(accelerator_id="tpu-v6e", gpus_per_unit=1, unit_id=None, region="us-central1-b")
    assert skypilot.figure(rows, v6e)[0] == Decimal("2.7")
    assert skypilot.figure(rows, {**v6e, "region": "asia-east1-c (Taiwan)"}) is None


@pytest.mark.parametrize(
    ("ours", "state"),
    [(2.7, "confirmed"), (2.6, "confirmed"), (2.4, "close"), (2.0, "differs"), (4.0, "differs")],
)
def test_a_row_is_confirmed_within_5_percent_and_flagged_beyond_20(ours: float, state: str) -> None:
    v6e = row(
        id="t",
        accelerator_id="tpu-v6e",
        gpus_per_unit=1,
        region="us-central1-a",
        usd_per_device_hour=ours,
    )
    (check,) = skypilot.cross_check([v6e])
    assert check.state == state
    if state == "confirmed":
        confirmed = check.confirmed_by()
        assert confirmed["as_of"] == "2026-12-06" and "8427bbff" in confirmed["source"]


def test_skypilot_cannot_confirm_a_row_it_is_the_source_of() -> None:
    v6e = row(
        accelerator_id="tpu-v6e",
        gpus_per_unit=1,
        region="us-central1-a",
        usd_per_device_hour=2.7,
        source="github:skypilot-org/skypilot-catalog catalogs/v8/gcp/vms.csv",
    )
    (check,) = skypilot.cross_check([v6e])
    assert check.state == "same source"


def test_every_confirmed_bundled_row_agrees_with_its_second_source() -> None:
    document = json.loads(BUNDLED.read_text())
    load_catalog(document)  # the bundled catalog still loads
    checks = {c.price_id: c for c in skypilot.cross_check(document["prices"])}
    confirmed = [p for p in document["prices"] if p.get("confirmed_by")]
    assert confirmed
    for price in confirmed:
        assert not skypilot.same_source(price), price["id"]
        assert checks[price["id"]].state == "confirmed", price["id"]


@pytest.mark.django_db
def test_the_refresh_table_flags_a_published_price_more_than_20_percent_off(client: Any) -> None:
    from django.urls import reverse

    from accounts.models import Role
    from advisor.reference.models import Catalog
    from advisor.reference.services.catalog import catalog_import, catalog_publish
    from tests.reference.scoring.conftest import member_with_role

    document = Catalog.objects.get(status=Catalog.Status.PUBLISHED).to_document()
    base = {
        "accelerator_id": "tpu-v6e",
        "provider": "Google Cloud",
        "cloud": "gcp",
        "modes": ["public_cloud"],
        "billing": "on_demand",
        "usd_per_device_month": None,
        "region_key": "us_central",
        "source": "a provider page",
        "as_of": "2026-12-01",
        "estimated": False,
        "derived": False,
        "note": None,
        "setup_fee_usd": None,
        "min_term_months": None,
        "gpus_per_unit": 1,
    }
    document["prices"] += [
        {**base, "id": "xc-off", "region": "us-central1-a", "usd_per_device_hour": 2.0},
        {**base, "id": "xc-ok", "region": "europe-west4-a", "usd_per_device_hour": 2.9},
    ]
    catalog_publish(catalog=catalog_import(json_text=json.dumps(document), user=None), user=None)

    client.force_login(member_with_role(Role.ADMIN))
    page = client.get(reverse("admin:reference_catalog_changelist")).content.decode()
    table = page.split('id="price-refreshes"', 1)[1]
    assert "second-source check" in table
    flagged = table.split("price-cross-check-flagged", 1)[1].split("</div>", 1)[0]
    assert 'data-price-id="xc-off"' in flagged  # $2.00 against SkyPilot's $2.70: 35 % off
    assert 'data-price-id="xc-ok"' not in flagged  # $2.90 against $2.97: confirmed


def test_an_aws_row_is_compared_with_its_instance_and_a_local_zone_is_not() -> None:
    p5 = row(
        id="aws-p5",
        provider="AWS",
        cloud="aws",
        accelerator_id="nvidia-h100-sxm",
        unit_id="aws:p5.48xlarge",
        gpus_per_unit=8,
        region="us-west-2 (Oregon)",
        usd_per_device_hour=6.88,
    )
    lax = {**p5, "id": "aws-lax", "region": "us-west-2-lax-1 (Los Angeles Local Zone)"}
    (check,) = skypilot.cross_check([p5, lax])
    assert check.price_id == "aws-p5" and check.state == "confirmed"
    assert check.theirs == Decimal("6.88")  # $55.04 for 8 GPUs
