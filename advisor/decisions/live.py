"""The catalog and scoring model admins published in the database (the bundled documents while
none is, e.g. before the migrations ran), compiled once per process and version."""

from __future__ import annotations

import threading
from typing import Any

from django.db import connection

from advisor import engine
from advisor.engine import Catalog, ScoringModel
from advisor.reference.models import Catalog as CatalogRow
from advisor.reference.models import ScoringModel as ScoringModelRow

# The compiled published catalog and model, keyed by (row id, version). Published rows never
# change, so one indexed query per call is enough for a publish to reach every web and worker
# process.
_compiled: dict[tuple[str, int, int], Any] = {}
compiled_lock = threading.Lock()


def _published(rows: Any) -> tuple[int, int] | None:
    found: tuple[int, int] | None = (
        rows.objects.filter(status=rows.Status.PUBLISHED).values_list("pk", "version").first()
    )
    return found


def _compile(kind: str, published: tuple[int, int], build: Any) -> Any:
    key = (kind, *published)
    compiled = _compiled.get(key)
    if compiled is None:
        compiled = build(published[0])
        with compiled_lock:
            for old in [k for k in _compiled if k[0] == kind]:
                del _compiled[old]
            _compiled[key] = compiled
    return compiled


# The tables' names are fixed in the models' Meta (db_table), so the SQL can name them.
_PUBLISHED_BOTH = (
    "SELECT 0, id, version FROM (SELECT id, version FROM advisor_catalog WHERE status = %s"
    " ORDER BY version DESC LIMIT 1) AS c"
    " UNION ALL SELECT 1, id, version FROM (SELECT id, version FROM advisor_scoringmodel"
    " WHERE status = %s ORDER BY name ASC, version DESC LIMIT 1) AS s"
)


def _published_both() -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """The published catalog's and scoring model's (row id, version), in one round trip (a
    page that runs the engine needs both): the same rows `_published` picks, in the same
    order (the models' Meta.ordering)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _PUBLISHED_BOTH, [CatalogRow.Status.PUBLISHED, ScoringModelRow.Status.PUBLISHED]
        )
        found = {kind: (pk, version) for kind, pk, version in cursor.fetchall()}
    return found.get(0), found.get(1)


def active_both() -> tuple[Catalog, ScoringModel]:
    """active_catalog() and active_scoring_model(), with one query for the two."""
    catalog, scoring = _published_both()
    return _catalog(catalog), _scoring_model(scoring)


def active_catalog() -> Catalog:
    return _catalog(_published(CatalogRow))


def _catalog(published: tuple[int, int] | None) -> Catalog:
    if published is None:
        return engine.load_catalog()
    catalog: Catalog = _compile(
        "catalog",
        published,
        lambda pk: engine.load_catalog(
            CatalogRow.objects.prefetch_related("accelerators", "presets").get(pk=pk).to_document()
        ),
    )
    return catalog


def active_scoring_model() -> ScoringModel:
    return _scoring_model(_published(ScoringModelRow))


def _scoring_model(published: tuple[int, int] | None) -> ScoringModel:
    if published is None:
        return engine.load_scoring_model()
    model: ScoringModel = _compile(
        "scoring",
        published,
        lambda pk: engine.load_scoring_model(
            ScoringModelRow.objects.prefetch_related("criteria__contributions")
            .get(pk=pk)
            .to_document()
        ),
    )
    return model
