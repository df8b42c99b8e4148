"""Where a price stands to the customer's regions: theirs, nearby, their country, not offered."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from advisor.engine.catalog import Catalog

# Regions of one country: data residency is a country's law (Japan's APPI), so a Tokyo
# customer's data may stay on a server in Ishikari or Kagawa ("japan": Japan outside Tokyo),
# and a customer who says "japan" takes a Tokyo server as theirs.
COUNTRY: Mapping[str, str] = {"tokyo": "jp", "japan": "jp"}


# Regions served from a neighbour outside their region group: mainland China from Hong Kong,
# over the China-optimised routes (CN2 GIA/CMI) its hosts sell.
NEIGHBOURS: dict[str, tuple[str, ...]] = {"mainland_china": ("hong_kong",)}


def region_match(catalog: Catalog, key: str | None, regions: Sequence[str]) -> str:
    """How a price's or offer's region (catalog key) stands to the customer's regions: "exact"
    (one of them, or Tokyo for a customer anywhere in Japan), "nearby" (same region group, or
    the neighbour a region is served from) or "elsewhere"."""
    if key is None:
        return "elsewhere"
    if key in regions or (key == "tokyo" and "japan" in regions):
        return "exact"
    if _group(catalog, key) in {_group(catalog, r) for r in regions}:
        return "nearby"
    if any(key in NEIGHBOURS.get(r, ()) for r in regions):
        return "nearby"
    return "elsewhere"


def in_country(key: str | None, regions: Sequence[str]) -> bool:
    """Whether the region `key` is in the country of one of the customer's regions, where data
    residency holds."""
    country = COUNTRY.get(key or "")
    return key in regions or (country is not None and country in {COUNTRY.get(r) for r in regions})


def _group(catalog: Catalog, key: str | None) -> str | None:
    if key is None:
        return None
    if key in ("us", "europe"):
        return key
    region = catalog.regions.get(key)
    return None if region is None else str(region.get("group"))


def not_offered(catalog: Catalog) -> frozenset[tuple[str | None, str, str]]:
    """(region, provider, card) that the availability table says are not offered, though the
    provider may publish a price there (Google's asia-east2 A2/A3 rows)."""

    def build() -> frozenset[tuple[str | None, str, str]]:
        return frozenset(
            (region, str(entry.get("provider")), card)
            for region, row in (catalog.availability.get("regions") or {}).items()
            for entry in row.get("not_offered") or ()
            for card in entry.get("cards") or ()
        )

    return catalog.memo("not_offered", build)
