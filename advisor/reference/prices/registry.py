"""The price sources a refresh can read, by name: one line per provider module.

`refresh_prices --source`, the beat task, the admin's refresh table and `PriceRefresh.source`
all read this registry, so a provider added here (docs/architecture.md, "Recipe: a new price
provider") needs no other list changed.
"""

from __future__ import annotations

from advisor.reference.prices import aws, azure, gcp, skypilot
from advisor.reference.prices.base import PriceSource

_SOURCES: dict[str, PriceSource] = {}


def register(source: PriceSource) -> PriceSource:
    """Adds `source` under its name (tests register a fake one and unregister it after)."""
    if source.name in _SOURCES:
        raise ValueError(f"a price source named {source.name!r} is already registered")
    if not 0 < len(source.name) <= 10:  # PriceRefresh.source is 10 characters wide
        raise ValueError(f"price source name {source.name!r} is not 1 to 10 characters")
    _SOURCES[source.name] = source
    return source


def unregister(name: str) -> None:
    del _SOURCES[name]


def get(name: str) -> PriceSource:
    return _SOURCES[name]


def names() -> tuple[str, ...]:
    """Every registered source's name, in the order they were registered."""
    return tuple(_SOURCES)


def choices() -> list[tuple[str, str]]:
    """(name, label) of every source: `PriceRefresh.source`'s choices (a callable, so that a new
    source needs no migration)."""
    return [(s.name, s.label) for s in _SOURCES.values()]


register(azure.SOURCE)
register(aws.SOURCE)
register(gcp.SOURCE)
register(skypilot.SOURCE)
