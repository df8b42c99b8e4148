"""A provider added the way docs/architecture.md's recipe says (one module, one registration)
refreshes its catalog rows through `manage.py refresh_prices`, shows in the admin's refresh table
and, once the draft is published, prices the first option of `manage.py assess`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role
from advisor.engine.answers.samples import sample
from advisor.management.commands.assess import Command as Assess
from advisor.reference.models import Catalog, PriceRefresh
from advisor.reference.prices import registry
from advisor.reference.prices.base import PriceSource
from advisor.reference.services.catalog import catalog_import, catalog_publish
from tests.reference.catalog import fake_prices
from tests.reference.scoring.conftest import member_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def fake_source() -> Iterator[PriceSource]:
    source = registry.register(fake_prices.SOURCE)
    yield source
    registry.unregister(source.name)


@pytest.fixture
def published(db: None) -> Catalog:
    """The seeded catalog plus the fake provider's 4 × L40S server in Japan at $1.50 a GPU-hour,
    undated: dearer than the $0.60 marketplace offer the sample team's first option rents there
    today."""
    document = Catalog.objects.get(status=Catalog.Status.PUBLISHED).to_document()
    document["prices"].append(
        {
            "id": "fake-l40s",
            "accelerator_id": "nvidia-l40s",
            "provider": fake_prices.PROVIDER,
            "cloud": "other",
            "modes": ["public_cloud"],
            "billing": "on_demand",
            "usd_per_device_hour": 1.5,
            "usd_per_device_month": None,
            "region": "Japan (JP)",
            "region_key": "japan",
            "source": "a research note",
            "as_of": None,
            "estimated": False,
            "derived": False,
            "note": None,
            "setup_fee_usd": None,
            "min_term_months": None,
            "gpus_per_unit": 4,
        }
    )
    catalog = catalog_import(json_text=json.dumps(document), user=None)
    return catalog_publish(catalog=catalog, user=None)


@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    """The fake provider's price list as a recording: $0.40 per L40S-hour."""
    (tmp_path / "gpus.json").write_text(
        json.dumps(
            {
                "published": "2026-11-30",
                "gpus": [{"accelerator": "nvidia-l40s", "usd_per_gpu_hour": 0.4}],
            }
        )
    )
    (tmp_path / "manifest.json").write_text(json.dumps({fake_prices.FAKE_API: "gpus.json"}))
    return tmp_path


def _first_option(capsys: pytest.CaptureFixture[str], answers: Path) -> dict[str, Any]:
    with pytest.raises(SystemExit) as exit_code:
        Assess().run_from_argv(["manage.py", "assess", str(answers)])
    out = capsys.readouterr().out
    assert exit_code.value.code == 0, out
    option: dict[str, Any] = json.loads(out)["workloads"][0]["options"][0]
    return option


def test_a_registered_provider_refreshes_its_rows_and_prices_the_first_option(
    fake_source: PriceSource,
    published: Catalog,
    recorded: Path,
    client: Client,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(sample()))
    before = _first_option(capsys, answers)
    assert before["prices"]["on_demand"]["price_id"] != "fake-l40s"

    out = StringIO()
    call_command("refresh_prices", "--recorded", str(recorded), "--source", "fakegpu", stdout=out)
    draft = Catalog.objects.get(status=Catalog.Status.DRAFT)
    assert f"fakegpu: done → draft {draft}" in out.getvalue()
    price = draft.prices.get(key="fake-l40s")
    assert price.usd_per_device_hour == Decimal("0.4")
    assert price.as_of == timezone.localdate()
    assert price.source.startswith("Fake GPU Cloud price list (published 2026-11-30)")
    assert "Fake GPU Cloud price list" in draft.description
    assert PriceRefresh.objects.get(source="fakegpu").prices_changed == 1

    client.force_login(member_with_role(Role.ADMIN))
    page = client.get(reverse("admin:reference_catalog_changelist")).content.decode()
    table = page.split('id="price-refreshes"', 1)[1]
    assert "Fake GPU Cloud price list" in table

    catalog_publish(catalog=draft, user=None)
    after = _first_option(capsys, answers)
    rent = after["prices"]["on_demand"]
    assert after["accelerator_id"] == "nvidia-l40s"
    assert rent["price_id"] == "fake-l40s" and rent["provider"] == fake_prices.PROVIDER
    assert rent["usd_per_device_hour"] == 0.4 and rent["as_of"] == timezone.localdate().isoformat()


def test_an_unregistered_provider_is_not_a_source() -> None:
    assert "fakegpu" not in registry.names()
    with pytest.raises(CommandError, match="invalid choice: 'fakegpu'"):
        call_command("refresh_prices", "--source", "fakegpu")
