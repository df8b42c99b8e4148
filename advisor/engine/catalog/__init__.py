"""The catalog room: accelerators, prices, offers and the stacks each card runs.

The catalog: accelerators, prices, sizing figures and model presets, each figure with its source.

Seeded from shared/reference (accelerators.json, deployment_offers.json, deployment_costs.md,
sizing.md). Admins may load their own catalog data (same shape) to fill the known gaps.

- `entries`: accelerators, units as sold, prices, model presets, and `CatalogError`
- `model`: the `Catalog` that indexes them, with its figures, rules and open gaps
- `checks`: the catalog document's JSON Schema and the checks beyond it
- `indicative`: the indicative month of a row sold on request
- `load`: `load_catalog`, the data checked and built (the bundled catalog when none is given)

The engine's modules read the names below.
"""

from advisor.engine.catalog.entries import Accelerator, CatalogError, ModelPreset, Price, Unit
from advisor.engine.catalog.load import load_catalog
from advisor.engine.catalog.model import Catalog

__all__ = [
    "Accelerator",
    "Catalog",
    "CatalogError",
    "ModelPreset",
    "Price",
    "Unit",
    "load_catalog",
]
