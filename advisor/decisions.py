"""The engine as the product runs it: the active catalog and scoring model, in the user's language.

Both are the versions admins published in the database (the bundled documents while none is,
e.g. before the migrations ran). Prices are judged stale against today's date.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.utils import timezone, translation

from advisor import engine
from advisor.engine import Answers, Catalog, ScoringModel
from advisor.engine.document import ResultDocument
from advisor.engine.measured import Measurement
from advisor.reference.models import Catalog as CatalogRow
from advisor.reference.models import ScoringModel as ScoringModelRow

LANGUAGES = ("en", "zh-hant")


# The compiled published catalog and model, keyed by (row id, version). Published rows never
# change, so one indexed query per call is enough for a publish to reach every web and worker
# process.
_compiled: dict[tuple[str, int, int], Any] = {}
_compiled_lock = threading.Lock()


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
        with _compiled_lock:
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


# Catalogs a stored result names, compiled once per process and keyed like `_compiled` by
# (row id, version): published and retired versions never change.
_pinned: dict[tuple[int, int], Catalog] = {}


def catalog_at(version: str) -> Catalog | None:
    """The catalog version a result names (`versions.catalog`), whatever is published today:
    a report shows the card names and figures of the catalog its numbers came from. None when
    that version is no longer stored anywhere (the report then uses only the result's own text).
    """
    if not version.isdigit():
        bundled = engine.load_catalog()
        return bundled if bundled.version == version else None
    found: tuple[int, int] | None = (
        CatalogRow.objects.filter(version=int(version))
        .exclude(status=CatalogRow.Status.DRAFT)
        .values_list("pk", "version")
        .first()
    )
    if found is None:
        return None
    catalog = _pinned.get(found)
    if catalog is None:
        rows = CatalogRow.objects.prefetch_related("accelerators", "presets")
        catalog = engine.load_catalog(rows.get(pk=found[0]).to_document())
        with _compiled_lock:
            if len(_pinned) >= 8:
                _pinned.clear()
            _pinned[found] = catalog
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


def engine_language(language: str | None = None) -> str:
    language = (language or translation.get_language() or "en").lower()
    return "zh-hant" if language.startswith("zh") else "en"


def evaluate(
    answers: Answers, *, language: str | None = None, measurements: Sequence[Measurement] = ()
) -> ResultDocument:
    return _evaluate(answers, *active_both(), language, measurements)


def scoring_model_at(name: str, version: int) -> ScoringModel | None:
    """The scoring model version a result names, whatever is published today (None when it is
    no longer stored)."""
    found: tuple[int, int] | None = (
        ScoringModelRow.objects.filter(name=name, version=version)
        .exclude(status=ScoringModelRow.Status.DRAFT)
        .values_list("pk", "version")
        .first()
    )
    if found is None:
        bundled = engine.load_scoring_model()
        return bundled if (bundled.name, bundled.version) == (name, version) else None
    model: ScoringModel | None = _pinned_models.get(found)
    if model is None:
        rows = ScoringModelRow.objects.prefetch_related("criteria__contributions")
        model = engine.load_scoring_model(rows.get(pk=found[0]).to_document())
        with _compiled_lock:
            if len(_pinned_models) >= 8:
                _pinned_models.clear()
            _pinned_models[found] = model
    return model


_pinned_models: dict[tuple[int, int], ScoringModel] = {}


def is_current(result: ResultDocument, *, language: str) -> bool:
    """Whether `result` is what evaluating its answers now would give: the same engine, the
    catalog and scoring model published now, the same day (prices age by the day) and
    `language`."""
    versions = result["versions"]
    catalog, scoring = active_both()
    return (
        versions["engine"] == engine.ENGINE_VERSION
        and str(versions["catalog"]) == catalog.version
        and versions["scoring_model"] == {"name": scoring.name, "version": scoring.version}
        and result["cost"]["today"] == timezone.localdate().isoformat()
        and result["lang"] == engine_language(language)
    )


def evaluate_like(
    answers: Answers,
    result: ResultDocument,
    *,
    language: str | None,
    measurements: Sequence[Measurement] = (),
) -> ResultDocument:
    """`answers` evaluated with the catalog, scoring model and day that `result` used, in
    `language`: the same recommendation, worded in another language. The versions published
    now stand in for one that is no longer stored."""
    versions = result["versions"]
    catalog = catalog_at(str(versions["catalog"])) or active_catalog()
    named = versions["scoring_model"]
    scoring = scoring_model_at(str(named["name"]), int(named["version"])) or (
        active_scoring_model()
    )
    return engine.evaluate(
        answers,
        catalog,
        scoring,
        lang=engine_language(language),
        today=result["cost"]["today"],
        measurements=measurements,
    )


def _evaluate(
    answers: Answers,
    catalog: Catalog,
    scoring: ScoringModel,
    language: str | None,
    measurements: Sequence[Measurement] = (),
) -> ResultDocument:
    return engine.evaluate(
        answers,
        catalog,
        scoring,
        lang=engine_language(language),
        today=timezone.localdate(),
        measurements=measurements,
    )


def preview(draft: dict[str, Any]) -> dict[str, Any] | None:
    # Only stored drafts come here, and a stored draft always passes check_partial.
    catalog, scoring = active_both()
    return engine.preview(draft, catalog, scoring, lang=engine_language(), checked=True)
