"""Premium China bandwidth on the command line: an offers file row may carry its premium route to
mainland China (CN2 GIA/CMI), the Mbps its price includes and the price of one more Mbps a month;
the import keeps them on the price row (converted to USD like the price) where the engine reads
them, and refuses bad ones with every problem listed and nothing written."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from advisor import engine
from advisor.reference.models import Catalog

pytestmark = pytest.mark.django_db

OFFERS = Path(__file__).parents[2] / "fixtures" / "offers" / "offers_hk_tokyo_la.json"


def _rows() -> list[dict[str, Any]]:
    rows = json.loads(OFFERS.read_text("utf-8"))
    return [rows[0], rows[27]]  # AWS p5 (USD, Tokyo), Sakura (JPY)


def _write(tmp_path: Path, rows: list[dict[str, Any]]) -> Path:
    path = tmp_path / "offers.json"
    path.write_text(json.dumps(rows), "utf-8")
    return path


def test_a_row_carries_its_china_route_and_price_per_mbps_month(tmp_path: Path) -> None:
    usd, jpy = _rows()
    usd |= {
        "china_bandwidth_type": "CN2 GIA",
        "china_bandwidth_mbps": 30,
        "china_bandwidth_price_per_mbps_month": 45.5,
    }
    jpy |= {
        "china_bandwidth_type": "CMI",
        "china_bandwidth_mbps": 10,
        "china_bandwidth_price_per_mbps_month": 15676,
    }

    call_command(
        "import_offers", str(_write(tmp_path, [usd, jpy])), "--prefix", "cn", stdout=StringIO()
    )

    draft = Catalog.objects.get(status=Catalog.Status.DRAFT)
    first = draft.prices.get(key="cn01").extra["server"]
    assert first == {
        "china_bandwidth_type": "cn2_gia",
        "china_bandwidth_mbps": 30,
        "china_bandwidth_usd_per_mbps_month": 45.5,
    }
    sakura = draft.prices.get(key="cn02")
    # JPY 15,676 at the catalog's 156.76 JPY per USD (ECB 2026-05-08).
    assert sakura.extra["server"]["china_bandwidth_usd_per_mbps_month"] == 100.0
    assert "China bandwidth JPY 15,676 per Mbps-month at 156.76 JPY/USD" in sakura.note
    # The engine reads the route where it reads a house offer's.
    price = next(p for p in engine.load_catalog(draft.to_document()).prices if p.id == "cn01")
    assert price.server is not None and price.server["china_bandwidth_mbps"] == 30


def test_a_row_without_china_fields_is_imported_as_before(tmp_path: Path) -> None:
    call_command(
        "import_offers", str(_write(tmp_path, _rows())), "--prefix", "cn", stdout=StringIO()
    )
    draft = Catalog.objects.get(status=Catalog.Status.DRAFT)
    assert "server" not in draft.prices.get(key="cn01").extra


def test_bad_china_bandwidth_lists_every_problem_and_writes_nothing(tmp_path: Path) -> None:
    usd, jpy = _rows()
    usd |= {
        "china_bandwidth_type": "BGP",
        "china_bandwidth_mbps": -3,
        "china_bandwidth_price_per_mbps_month": 0,
    }
    jpy |= {"china_bandwidth_price_per_mbps_month": 16_000_000}  # no route, and ~$102k
    err = StringIO()

    with pytest.raises(CommandError) as caught:
        call_command("import_offers", str(_write(tmp_path, [usd, jpy])), stderr=err)

    assert caught.value.returncode == 2
    text = err.getvalue()
    assert "offers[0].china_bandwidth_type: " in text and "CN2 GIA or CMI" in text
    assert "offers[0].china_bandwidth_mbps: " in text
    assert "offers[0].china_bandwidth_price_per_mbps_month: " in text
    assert "at most 10,000 USD per Mbps-month" in text
    assert "offers[1].china_bandwidth_type: " in text
    assert Catalog.objects.count() == 1
