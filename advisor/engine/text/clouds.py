"""The public clouds the engine knows by name: the one list.

Everything that names a cloud reads it: the answers' `deployment.clouds` values (answers.CLOUDS,
the wizard's choices), the catalog's `cloud` enum, the costing's storage and egress figures, the
label table, the model choices and the report's price pages. A provider that is not one of
these is `other` (its prices are catalog rows all the same, named by `provider`).

Adding a cloud is one `Cloud(...)` here plus its data: catalog figures
`<storage>_storage_usd_per_gb_month` and `<key>_egress_usd_per_gb` (docs/architecture.md,
"Recipe: a new price provider").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Cloud:
    key: str  # as answers and catalog rows write it (at most 10 characters: the model column)
    name: str  # the provider as catalog rows name it; the label in both languages
    # Where a customer checks the cloud's prices: the report's price pages (English, zh-Hant).
    price_page_en: str
    price_page_zh: str
    # The prefix of the catalog's object-storage figure, where it is not `key`.
    storage: str = ""
    # The name in Traditional Chinese, where it is not the English one.
    name_zh: str = ""

    @property
    def storage_figure(self) -> str:
        return f"{self.storage or self.key}_storage_usd_per_gb_month"

    @property
    def egress_figure(self) -> str:
        """The internet egress price's figure (regional and China rates are rules)."""
        return f"{self.key}_egress_usd_per_gb"


PUBLIC_CLOUDS: tuple[Cloud, ...] = (
    Cloud("gcp", "Google Cloud", "Google Cloud GPU price list", "Google Cloud GPU 價目表", "gcs"),
    Cloud("aws", "AWS", "AWS EC2 price list", "AWS EC2 價目表"),
    Cloud("azure", "Azure", "Azure virtual machines price list", "Azure 虛擬機器價目表"),
)
OTHER = "other"
CLOUDS = (*(c.key for c in PUBLIC_CLOUDS), OTHER)
BY_KEY = {c.key: c for c in PUBLIC_CLOUDS}
BY_NAME = {c.name: c for c in PUBLIC_CLOUDS}


def public(key: str | None) -> Cloud | None:
    """The named cloud `key` is, or None for `other`, an unknown key or none."""
    return BY_KEY.get(key or "")


def of_provider(provider: str) -> str:
    """The cloud key of a catalog row's provider name: "AWS" is `aws`; anyone else `other`."""
    cloud = BY_NAME.get(provider)
    return cloud.key if cloud else OTHER
