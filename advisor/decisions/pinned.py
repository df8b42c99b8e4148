"""The catalog and scoring model versions a stored result names, whatever is published today:
a report shows the figures its numbers came from."""

from __future__ import annotations

from advisor import engine
from advisor.decisions.live import compiled_lock
from advisor.engine import Catalog, ScoringModel
from advisor.reference.models import Catalog as CatalogRow
from advisor.reference.models import ScoringModel as ScoringModelRow

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
        with compiled_lock:
            if len(_pinned) >= 8:
                _pinned.clear()
            _pinned[found] = catalog
    return catalog


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
        with compiled_lock:
            if len(_pinned_models) >= 8:
                _pinned_models.clear()
            _pinned_models[found] = model
    return model


_pinned_models: dict[tuple[int, int], ScoringModel] = {}
