"""The engine's versioned inputs as rows: scoring models and the accelerator and price catalog.

Their tables keep the names they had in the advisor app (db_table), so moving the models here
moved no data: see migrations 0001 here and advisor 0012.

- `versioned`: the abstract `Versioned` base (draft → published → retired)
- `scoring`: scoring models, criteria, contributions and the impact preview of a draft
- `catalog`: catalogs, their accelerators, prices and presets, and the price refreshes
- `house_offers`: the operating organisation's own servers, a proxy of catalog prices
"""

from advisor.reference.models.catalog import (
    Catalog,
    CatalogAccelerator,
    CatalogPreset,
    CatalogPrice,
    PriceRefresh,
    cloud_choices,
)
from advisor.reference.models.house_offers import HouseOffer
from advisor.reference.models.scoring import (
    Contribution,
    Criterion,
    ImpactPreview,
    ScoringModel,
    all_phases,
    validate_points,
    validate_weight,
)
from advisor.reference.models.versioned import Versioned

# The models, as Django and callers name them; and the callables that migrations name by this
# module's path (choices, defaults and validators).
__all__ = [
    "Catalog",
    "CatalogAccelerator",
    "CatalogPreset",
    "CatalogPrice",
    "Contribution",
    "Criterion",
    "HouseOffer",
    "ImpactPreview",
    "PriceRefresh",
    "ScoringModel",
    "Versioned",
    "all_phases",
    "cloud_choices",
    "validate_points",
    "validate_weight",
]
