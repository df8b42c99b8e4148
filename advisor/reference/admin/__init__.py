"""The reference app's Django admin, one module per kind: `scoring` (scoring models, criteria,
impact previews), `catalog` and `catalog_rows` (catalogs, their rows, price refreshes) and
`house_offers`, on the shared `versioned` base and `forms`.

Only the admin role edits (advisor.permissions.can_edit_reference). Django's admin autodiscovery
imports this package; importing the modules registers their admins.
"""

from advisor.reference.admin import catalog, catalog_rows, house_offers, scoring  # noqa: F401
