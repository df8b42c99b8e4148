"""The `Catalog`: its entries indexed, the sourced figures and product rules, the known gaps
less those the operator's servers fill, and a memo for lookups derived from it."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar, cast

from advisor.engine.catalog.entries import Accelerator, ModelPreset, Price, Unit

_T = TypeVar("_T")


@dataclass(frozen=True, repr=False)
class Catalog:
    """Accelerators, prices, figures and presets; `version` travels with every result."""

    version: str
    accelerators: tuple[Accelerator, ...]
    prices: tuple[Price, ...]
    figures: Mapping[str, Mapping[str, Any]]
    rules: Mapping[str, Mapping[str, Any]]
    regions: Mapping[str, Mapping[str, Any]]
    availability: Mapping[str, Any]
    round_trip: Mapping[str, Any]
    presets: Mapping[str, ModelPreset]
    gaps: tuple[str, ...]
    raw: Mapping[str, Any] = field(repr=False)
    by_id: Mapping[str, Accelerator] = field(repr=False)
    prices_by_accelerator: Mapping[str, tuple[Price, ...]] = field(repr=False)
    units: Mapping[str, Unit] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:
        return (
            f"Catalog(version={self.version!r}, accelerators={len(self.accelerators)}, "
            f"prices={len(self.prices)})"
        )

    def figure(self, key: str) -> float:
        """The numeric value of a sourced figure (KeyError names the missing figure)."""
        try:
            return self._figure_values[key]
        except KeyError:
            return float(self.figures[key]["value"])

    @cached_property
    def _figure_values(self) -> dict[str, float]:
        out = {}
        for key, fig in self.figures.items():
            try:
                out[key] = float(fig["value"])
            except (KeyError, TypeError, ValueError):
                continue  # figure() raises for it when asked
        return out

    @cached_property
    def hours_per_month(self) -> float:
        """Hours in a billing month (the sourced `hours_per_month` figure), read once: it turns
        hourly prices into monthly ones and back everywhere in costing."""
        return self.figure("hours_per_month")

    @cached_property
    def open_gaps(self) -> tuple[str, ...]:
        """The known gaps (once each) less those the operator's own servers fill: a report
        never says "no H100-class offer physically in Hong Kong" beside the operator's 8 x H100
        server there. A gap an admin's catalog words otherwise stays as written."""
        house = {(p.accelerator_id, p.region_key) for p in self.prices if p.house}

        def filled(gap: str) -> bool:
            cards, region = _GAP_FILLED_BY.get(gap, ((), ""))
            return any((card, region) in house for card in cards)

        return tuple(gap for gap in dict.fromkeys(self.gaps) if not filled(gap))

    def rule(self, key: str) -> Any:
        """The value of a product rule (may be a mapping)."""
        return self.rules[key]["value"]

    def newest_price_date(self) -> str | None:
        """ISO date of the newest dated price (the default 'today' for staleness)."""
        dates = [p.as_of for p in self.prices if p.as_of]
        return max(dates) if dates else None

    def to_dict(self) -> dict[str, Any]:
        """The catalog as plain data (the same shape load_catalog accepts)."""
        return copy.deepcopy(dict(self.raw))

    @cached_property
    def _memo(self) -> dict[Any, Any]:
        return {}

    def memo(self, key: Any, compute: Callable[[], _T]) -> _T:
        """`compute()`, memoised on this catalog under `key` (which must determine the result).
        For lookups derived from the catalog alone (price choice, usable memory, ...).
        """
        memo = self._memo
        try:
            return cast(_T, memo[key])
        except KeyError:
            pass
        except TypeError:  # an unhashable part of the key: compute without memoising
            return compute()
        if len(memo) > 100_000:
            memo.clear()
        out = memo[key] = compute()
        return out


# Known gaps (catalog.json `gaps`) that a house row fills: the cards and the region group that
# fill them. H100-class is the Hopper generation (H100 SXM and PCIe, H200, GH200).
_GAP_FILLED_BY: dict[str, tuple[tuple[str, ...], str]] = {
    "any H100-class offer physically in Hong Kong": (
        ("nvidia-h100-sxm", "nvidia-h100-pcie", "nvidia-h200", "nvidia-gh200"),
        "hong_kong",
    ),
}
