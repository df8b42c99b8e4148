"""A report shows the catalog version its result was computed with, never today's."""

from __future__ import annotations

import base64
import re
from datetime import UTC, datetime

import pytest
from django.db.models import F, Value
from django.db.models.functions import Concat

from advisor.decisions import evaluation, live
from advisor.reference.models import Catalog
from advisor.reference.services.catalog import catalog_clone, catalog_publish
from advisor.reporting.render import render_report
from advisor.starters import BY_SLUG as STARTERS

pytestmark = pytest.mark.django_db

GENERATED_AT = datetime(2026, 11, 30, 9, 30, tzinfo=UTC)
DATA_URI = re.compile(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)")
# pygal names each chart with a fresh uuid; nothing else in a rendered report is random.
CHART_ID = re.compile(r"chart-[0-9a-f-]{36}")


def _svg(match: re.Match[str]) -> str:
    return CHART_ID.sub("chart", base64.b64decode(match.group(1)).decode())


def _body(result: dict[str, object]) -> str:
    return DATA_URI.sub(_svg, _render(result))


def _render(result: dict[str, object]) -> str:
    return render_report(
        result=result,
        title="Pinned",
        organization="Acme AI Ltd.",
        language="en",
        generated_at=GENERATED_AT,
    ).body_html


def test_publishing_a_catalog_with_a_renamed_card_leaves_an_old_report_unchanged() -> None:
    result = evaluation.evaluate(STARTERS["llm-fine-tuning-startup"].answers, language="en")
    assert result["versions"]["catalog"] == "1"
    before = _body(result)
    assert "NVIDIA H100 SXM 80GB" in before

    # Version 2 renames every card and halves its memory (so the usable-memory bars would move).
    draft = catalog_clone(catalog=Catalog.objects.get(status=Catalog.Status.PUBLISHED), user=None)
    draft.accelerators.update(
        name=Concat(Value("Renamed "), F("name")),
        memory_gib=F("memory_gib") / 2,
        memory_gb=F("memory_gb") / 2,
    )
    catalog_publish(catalog=draft, user=None)
    renamed = live.active_catalog().by_id["nvidia-h100-sxm"]
    assert renamed.name == "Renamed NVIDIA H100 SXM 80GB"

    after = _body(result)
    assert "Renamed" not in after
    assert after == before
