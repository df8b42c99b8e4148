"""Names with control characters and hostile JSON in the catalog's import and row forms (the
bounds shared with scoring models are in tests/reference/scoring/test_import_limits.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.forms.models import model_to_dict
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.models import Role
from advisor.reference.admin.catalog_rows import AcceleratorForm, PresetForm
from advisor.reference.models import Catalog, CatalogAccelerator, CatalogPreset
from advisor.reference.services.catalog import catalog_export
from tests.factories import CatalogFactory
from tests.reference.scoring.conftest import member_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def active(db: None) -> Catalog:
    return Catalog.objects.get(status=Catalog.Status.PUBLISHED)


@pytest.fixture
def draft(active: Catalog) -> Catalog:
    return CatalogFactory()


@pytest.fixture
def editor(client: Client) -> Client:
    client.force_login(member_with_role(Role.ADMIN))
    return client


def _row_post(row: Any, fields: tuple[str, ...], **changes: Any) -> dict[str, Any]:
    data = model_to_dict(row, fields=[f for f in fields if f != "catalog"])
    if "slice_sizes" in data:
        data["slice_sizes"] = json.dumps(data["slice_sizes"])
    data.update(changes)
    return {k: "" if v is None else v for k, v in data.items()}


@pytest.mark.parametrize(
    ("section", "item", "message"),
    [
        ("accelerators", 0, "Accelerator {id}: the name holds a line break"),
        ("model_presets", 0, "Model preset {id}: the name holds a line break"),
    ],
)
def test_an_imported_row_name_with_a_line_break_is_refused(
    editor: Client, active: Catalog, section: str, item: int, message: str
) -> None:
    doc = json.loads(catalog_export(catalog=active))
    row = doc[section][item]
    row["name"] = "H100\r\nX-Injected: 1"
    text = json.dumps(doc)
    response = editor.post(reverse("admin:reference_catalog_import"), {"text": text})
    assert response.status_code == 200
    body = response.content.decode()
    assert message.format(id=row["id"]) in body
    assert f"{escape(text)}</textarea>" in body
    assert Catalog.objects.count() == 1


@pytest.mark.parametrize(
    ("model", "form", "url"),
    [
        (CatalogAccelerator, AcceleratorForm, "admin:reference_catalogaccelerator_change"),
        (CatalogPreset, PresetForm, "admin:reference_catalogpreset_change"),
    ],
)
def test_the_row_forms_refuse_a_name_with_a_line_break(
    editor: Client, draft: Catalog, model: Any, form: Any, url: str
) -> None:
    row = model.objects.filter(catalog=draft).first()
    name = row.name
    data = _row_post(row, form.Meta.fields, name="evil\nname")
    response = editor.post(reverse(url, args=[row.pk]), data)
    assert response.status_code == 200
    assert "write it on one line" in response.content.decode()
    row.refresh_from_db()
    assert row.name == name


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("[" * 100_000, "nests lists and objects more than 64 levels deep"),
        ("[NaN]", "NaN is not a number JSON allows"),
        ("[" + "1" * 5_000 + "]", "has 5,000 characters"),
    ],
)
def test_slice_sizes_are_read_within_bounds(
    editor: Client, draft: Catalog, typed: str, message: str
) -> None:
    tpu = draft.accelerators.filter(kind="tpu").first()
    assert tpu is not None
    data = _row_post(tpu, AcceleratorForm.Meta.fields, slice_sizes=typed)
    response = editor.post(
        reverse("admin:reference_catalogaccelerator_change", args=[tpu.pk]), data
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert message in body
    assert f"{escape(typed)}</textarea>" in body
    data["slice_sizes"] = "[16, 4, 4, 8]"
    response = editor.post(
        reverse("admin:reference_catalogaccelerator_change", args=[tpu.pk]), data
    )
    assert response.status_code == 302
    tpu.refresh_from_db()
    assert tpu.slice_sizes == [4, 8, 16]


@pytest.mark.parametrize(
    ("section", "change", "message"),
    [
        (
            "prices",
            {"provider": "p" * 101},
            "Price {id}, provider: Ensure this value has at most 100 characters (it has 101).",
        ),
        (
            "prices",
            {"setup_fee_usd": 1e20},
            "Price {id}, setup fee (USD): Ensure this value is less than or equal to 250000.",
        ),
        ("prices", {"as_of": "2024-13-45"}, "Price {id}: the date 2024-13-45 does not exist"),
        (
            "accelerators",
            {"max_devices_per_node": 10**12},
            "Accelerator {id}, devices per server: Ensure this value is less than or equal to",
        ),
        (
            "model_presets",
            {"parameters": 10**30},
            "Model preset {id}, parameters: Ensure this value is less than or equal to",
        ),
    ],
)
def test_values_too_large_for_their_columns_are_refused(
    editor: Client, active: Catalog, section: str, change: dict[str, Any], message: str
) -> None:
    doc = json.loads(catalog_export(catalog=active))
    row = doc[section][0]
    row.update(change)
    response = editor.post(reverse("admin:reference_catalog_import"), {"text": json.dumps(doc)})
    assert response.status_code == 200
    assert escape(message.format(id=row["id"])) in response.content.decode()
    assert Catalog.objects.count() == 1
