"""Catalog text at its longest (names are up to 100 characters) still makes a report."""

from __future__ import annotations

import base64
import re

import pytest

from advisor.models import Report
from advisor.reference.models import Catalog
from advisor.reference.services.catalog import catalog_clone, catalog_publish
from advisor.services import reports
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

pytestmark = pytest.mark.django_db

LONG = "Accelerator with a very long marketing name, as an admin may type it into the catalog"


def _publish_long_names() -> list[str]:
    draft = catalog_clone(catalog=Catalog.objects.get(status="published"), user=None)
    names = []
    for i, accelerator in enumerate(draft.accelerators.all()):
        accelerator.name = f"{i:03d} {LONG} {'x' * 100}"[:100]
        accelerator.save()
        names.append(accelerator.name)
    catalog_publish(catalog=draft, user=None)
    return names


@pytest.mark.parametrize("starter", ["llm-fine-tuning-startup", "realtime-chatbot"])
def test_a_catalog_with_100_character_accelerator_names_still_makes_a_report(
    starter: str,
) -> None:
    names = _publish_long_names()
    assert all(len(name) == 100 for name in names)
    membership = MembershipFactory()
    obj = AssessmentFactory(
        membership=membership, title="Long names", submitted=True, starter=starter
    )
    report = ReportFactory(assessment=obj, queued=True)
    # Before labels were cut, pygal split an axis title for a negative width forever.
    reports.report_generate(report_id=report.pk)
    report.refresh_from_db()
    assert report.status == Report.Status.DONE, report.error
    charts = [
        base64.b64decode(uri).decode()
        for uri in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', report.html)
    ]
    assert charts
    text = " ".join(charts)
    # The charts name the accelerators, shortened with an ellipsis; the tables keep the names.
    assert "…" in text and "xxxxxxxxxx" not in text
    assert any(name in report.html for name in names)
