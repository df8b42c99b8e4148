from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from advisor.models import Report
from advisor.reference.models import Catalog, ImpactPreview, PriceRefresh, ScoringModel
from tests.factories import OrganizationFactory, operator_member

# Django's own state before and after the move; the database is the one today's main built.
BEFORE = [("advisor", "0012_catalog_regional_offers"), ("reference", None)]
# Migrating needs real commits. Like every transactional test this one ends with an empty
# database, and may start with one: it seeds what it reads with the migrations' own seeds.
pytestmark = pytest.mark.django_db(transaction=True)
SEEDS = [
    importlib.import_module("advisor.migrations.0005_seed_scoring_model"),
    importlib.import_module("advisor.migrations.0008_seed_catalog"),
]

MOVED_TABLES = (
    "scoringmodel",
    "criterion",
    "contribution",
    "impactpreview",
    "catalog",
    "catalogaccelerator",
    "catalogprice",
    "catalogpreset",
    "pricerefresh",
    "historicalscoringmodel",
    "historicalcriterion",
    "historicalcontribution",
    "historicalcatalog",
    "historicalcatalogaccelerator",
    "historicalcatalogprice",
    "historicalcatalogpreset",
)


def _counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        counts = {}
        for table in MOVED_TABLES:
            cursor.execute(f'SELECT count(*) FROM "advisor_{table}"')  # noqa: S608 - fixed names
            counts[table] = cursor.fetchone()[0]
    return counts


def _migrate(targets: list[tuple[str, str | None]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def _seeded_before() -> Any:
    old = _migrate(BEFORE)
    for seed in SEEDS:
        seed.seed(old, None)  # each writes only into an empty table
    return old


def _leaf() -> list[tuple[str, str | None]]:
    executor = MigrationExecutor(connection)
    return [key for key in executor.loader.graph.leaf_nodes() if key[0] in ("advisor", "reference")]


def test_a_database_of_today_migrates_forward_with_every_row_and_key_intact() -> None:
    old = _seeded_before()
    # Rows written the way today's main writes them: through the advisor app's models.
    OldCatalog = old.get_model("advisor", "Catalog")
    OldScoringModel = old.get_model("advisor", "ScoringModel")
    OldPreview = old.get_model("advisor", "ImpactPreview")
    OldRefresh = old.get_model("advisor", "PriceRefresh")
    OldReport = old.get_model("advisor", "Report")
    OldAssessment = old.get_model("advisor", "Assessment")
    published = OldCatalog.objects.get(status="published")
    draft = OldCatalog.objects.create(version=published.version + 1, data=published.data)
    scoring = OldScoringModel.objects.get(status="published")
    old.get_model("advisor", "HistoricalCatalog").objects.create(
        **{f.attname: getattr(draft, f.attname) for f in OldCatalog._meta.concrete_fields},
        history_date=draft.created_at,
        history_type="+",
    )
    preview = OldPreview.objects.create(catalog=draft, status="done", total=3)
    refresh = OldRefresh.objects.create(
        source="azure", status="done", started_at="2026-11-30T00:00:00Z", draft=draft
    )
    assessment = OldAssessment.objects.create(
        organization_id=OrganizationFactory().pk, title="Kept"
    )
    report = OldReport.objects.create(assessment=assessment, number=1, language="en", catalog=draft)
    old_type = old.get_model("contenttypes", "ContentType").objects.get_or_create(
        app_label="advisor", model="catalog"
    )[0]
    log = LogEntry.objects.create(
        user=operator_member("admin"),
        content_type_id=old_type.pk,
        object_id=str(draft.pk),
        object_repr="draft",
        action_flag=CHANGE,
    )
    counts = _counts()
    assert counts["catalogprice"] > 0 and counts["criterion"] > 0

    _migrate(_leaf())

    assert _counts() == counts
    report = Report.objects.get(pk=report.pk)
    assert report.catalog is not None and report.catalog.pk == draft.pk
    moved = Catalog.objects.get(pk=draft.pk)
    assert moved.prices.count() == 0 and moved.previews.get().pk == preview.pk
    assert PriceRefresh.objects.get(pk=refresh.pk).draft == moved
    assert ImpactPreview.objects.get(pk=preview.pk).total == 3
    active = ScoringModel.objects.get(pk=scoring.pk)
    assert active.criteria.count() > 0
    assert moved.history.get().version == draft.version
    assert Catalog.objects.get(pk=published.pk).prices.count() == counts["catalogprice"]
    # The admin's log of the catalog follows it: same content type row, new label.
    ContentType.objects.clear_cache()
    log.refresh_from_db()
    assert log.content_type == ContentType.objects.get_for_model(Catalog)
    assert log.content_type_id == old_type.pk
    assert not ContentType.objects.filter(app_label="advisor", model="catalog").exists()


def test_the_move_migrates_back_to_the_advisor_app_and_forward_again() -> None:
    old = _seeded_before()
    catalog = old.get_model("advisor", "Catalog").objects.get(status="published")
    assert catalog.prices.exists()
    _migrate(_leaf())
    assert Catalog.objects.get(pk=catalog.pk).prices.count() == catalog.prices.count()


@pytest.mark.django_db
def test_moved_pages_open_with_the_moved_rows() -> None:
    client = Client()
    client.force_login(operator_member("admin"))
    active = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    assert (
        client.get(reverse("admin:reference_catalog_change", args=[active.pk])).status_code == 200
    )
    assert client.get(reverse("advisor:catalog")).status_code == 200
