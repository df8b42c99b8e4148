"""What the result totals over the team: the sizing, the servers, and the cost with the prices,
figures and staff rates it was made from."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class TrainingSizing(TypedDict):
    memory_gib: dict[str, float]
    peak_phase: str
    phases_gib: dict[str, float]
    detail_gib: dict[str, float]
    trainable_parameters: int
    fits_single_device: list[str]
    min_devices: dict[str, int | None]
    interconnect: dict[str, str]
    flops: dict[str, float]
    assumptions: list[str]


class InferenceSizing(TypedDict):
    memory_gib: dict[str, float]
    kv_cache_bytes_per_token: float
    fits_single_device: list[str]
    min_devices: dict[str, int | None]
    interconnect: dict[str, str]
    assumptions: list[str]


class Sizing(TypedDict):
    training: TrainingSizing | None
    inference: InferenceSizing | None


class Server(TypedDict):
    accelerator_id: str | None
    devices_per_node: int
    nodes: int
    cpu_cores: int
    ram_gib: int
    nvme_tb: float
    network_gbps: float
    notes: list[str]
    read_mb_per_s: NotRequired[float | None]
    workload: NotRequired[str]
    # The unit as sold (its name, source, date and the fields its source leaves out).
    sold_as: NotRequired[dict[str, Any]]
    # The preprocessing CPU server's monthly price and the figures it uses.
    price: NotRequired[dict[str, Any]]


class CostByWorkload(TypedDict):
    workload: str
    accelerator_id: str
    count: int
    monthly_cost_usd: float | None
    billing_used: str | None
    compute_usd_per_month: dict[str, float | None]
    storage_usd_per_month: float
    egress_usd_per_month: float
    idle_usd_per_month: float
    staff_usd_per_month: float
    ops_bought_in_usd_per_month: NotRequired[float | None]
    china_bandwidth_usd_per_month: NotRequired[float | None]  # engine 2.2
    break_even_utilisation: dict[str, float | None]
    cost_per_run_usd: dict[str, float | None] | None
    cost_per_million_output_tokens_usd: dict[str, float | None] | None


class PriceUsed(TypedDict):
    price_id: str
    provider: str
    region: str | None
    source: str
    as_of: str | None
    stale: bool
    estimated: bool
    derived: bool
    gpus_per_unit: NotRequired[int]
    sold_as: NotRequired[str | None]


class Figure(TypedDict):
    value: float
    source: str
    as_of: str | None
    unit: NotRequired[str]
    estimated: NotRequired[bool]
    derived: NotRequired[bool]


class StaffRate(TypedDict):
    region: str | None
    wage_figure: str
    # False: the region has no sourced wage, so the US figure stands in (a cost note says so).
    regional_wage: bool
    usd_per_hour: float
    headcount: int | None
    # Engine 2.5: the team has no operations staff, so every staff hour is bought in.
    bought_in: NotRequired[bool]


class Cost(TypedDict):
    currency: str
    today: str
    stale_after_days: float
    monthly_total_usd: float
    monthly_budget_usd: float | None
    by_workload: list[CostByWorkload]
    # Engine 2.5: the preprocessing CPU server's month, in the total (only with preprocessing).
    cpu_usd_per_month: NotRequired[float]
    # Engine 2.5: the team's operations staff a month, counted once across its workloads.
    staff_usd_per_month: NotRequired[float]
    # Operations bought in (a managed service or a contractor), once per team, in the total.
    ops_bought_in_usd_per_month: NotRequired[float]
    # Compute and hosting alone (the total less operations): what the budget is checked against.
    compute_and_hosting_usd_per_month: NotRequired[float]
    prices_used: list[PriceUsed]
    figures_used: dict[str, Figure]
    gaps: list[str]
    notes: list[str]
    # Engine 2.1: what the staff cost was priced with (absent from older documents).
    staff: NotRequired[StaffRate]
