"""The move of scoring models and the catalog into the reference app (reference 0001, advisor
0013) keeps every row and key: it changes only Django's picture of the models, and the content
types (with the admin's log and permissions) follow the models there and back.

The migrations' own parts are checked directly, on the test database as migrations built it,
instead of migrating that database backwards and forwards: a migrate inside the test database
left a later live-server test answering 500 once (the same pattern was replaced in 5540b28)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest
from django.apps import apps
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import connection, migrations
from django.test import Client
from django.urls import reverse

from advisor.models import Report
from advisor.reference.models import Catalog, ScoringModel
from tests.factories import AssessmentFactory, operator_member

pytestmark = pytest.mark.django_db

MOVED_TO = importlib.import_module("advisor.reference.migrations.0001_moved_from_advisor")
MOVED_OUT = importlib.import_module("advisor.migrations.0013_reference_data_moved_out")

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


@pytest.fixture(autouse=True)
def _fresh_content_types() -> Iterator[None]:
    # The relabel changes rows the content-type cache holds; the rollback does not reach it.
    ContentType.objects.clear_cache()
    yield
    ContentType.objects.clear_cache()


def _counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        counts = {}
        for table in MOVED_TABLES:
            cursor.execute(f'SELECT count(*) FROM "advisor_{table}"')  # noqa: S608 - fixed names
            counts[table] = cursor.fetchone()[0]
    return counts


def test_the_move_touches_no_table_only_djangos_picture_and_the_content_types() -> None:
    for migration in (MOVED_TO.Migration, MOVED_OUT.Migration):
        for operation in migration.operations:
            if isinstance(operation, migrations.SeparateDatabaseAndState):
                assert operation.database_operations == []
                assert operation.state_operations
            else:
                assert isinstance(operation, migrations.RunPython)
                assert operation.code is MOVED_TO.content_types_forward
                assert operation.reverse_code is MOVED_TO.content_types_backward
    # So the moved models read the very tables the advisor app wrote, under their old names.
    assert MOVED_TO.MOVED == MOVED_TABLES
    tables = {model._meta.db_table for model in apps.get_app_config("reference").get_models()}
    assert {f"advisor_{table}" for table in MOVED_TABLES} <= tables
    assert Report._meta.get_field("catalog").related_model is Catalog
    assert Report._meta.get_field("catalog").column == "catalog_id"


def test_the_moved_models_read_every_row_and_key_the_tables_hold() -> None:
    published = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    draft = Catalog.objects.create(version=published.version + 1, data=published.data)
    report = Report.objects.create(
        assessment=AssessmentFactory(), number=1, language="en", catalog=draft
    )
    counts = _counts()
    assert counts["catalogprice"] > 0 and counts["criterion"] > 0
    assert Catalog.objects.count() == counts["catalog"]
    assert Catalog.history.count() == counts["historicalcatalog"]
    assert Catalog.objects.get(pk=published.pk).prices.count() == counts["catalogprice"]
    assert sum(m.criteria.count() for m in ScoringModel.objects.all()) == counts["criterion"]
    assert ScoringModel.objects.get(status=ScoringModel.Status.PUBLISHED).criteria.exists()
    with connection.cursor() as cursor:
        cursor.execute('SELECT catalog_id FROM "advisor_report" WHERE id = %s', [report.pk])
        assert cursor.fetchone()[0] == draft.pk
    assert Report.objects.get(pk=report.pk).catalog == draft


def test_the_content_types_and_the_admin_log_follow_the_move_back_and_forward() -> None:
    moved = ContentType.objects.get_for_model(Catalog)
    assert moved.app_label == "reference"
    draft = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    log = LogEntry.objects.create(
        user=operator_member("admin"),
        content_type=moved,
        object_id=str(draft.pk),
        object_repr="catalog",
        action_flag=CHANGE,
    )

    MOVED_TO.content_types_backward(apps, None)
    ContentType.objects.clear_cache()
    back = ContentType.objects.get(pk=moved.pk)
    assert (back.app_label, back.model) == ("advisor", "catalog")
    assert not ContentType.objects.filter(app_label="reference", model__in=MOVED_TABLES).exists()

    # A partial migrate may have made the new label's type meanwhile (post_migrate): the old
    # one, with the log, wins.
    ContentType.objects.create(app_label="reference", model="catalog")
    MOVED_TO.content_types_forward(apps, None)
    ContentType.objects.clear_cache()
    log.refresh_from_db()
    assert log.content_type_id == moved.pk
    assert log.content_type == ContentType.objects.get_for_model(Catalog)
    assert not ContentType.objects.filter(app_label="advisor", model__in=MOVED_TABLES).exists()


def test_moved_pages_open_with_the_moved_rows() -> None:
    client = Client()
    client.force_login(operator_member("admin"))
    active = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    assert (
        client.get(reverse("admin:reference_catalog_change", args=[active.pk])).status_code == 200
    )
    assert client.get(reverse("advisor:catalog")).status_code == 200
