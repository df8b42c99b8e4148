"""An option as the result states it: its prices, stack, availability, China network and cost
to a result; and an option left out, with why."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class Price(TypedDict):
    price_id: str
    usd_per_device_hour: float
    usd_per_device_month: float
    unit: str
    provider: str
    cloud: str | None
    region: str | None
    region_match: str
    # Engine 2.x (additive): in the customer's country but none of their regions.
    in_country: NotRequired[bool]
    region_key: NotRequired[str]
    source: str
    as_of: str | None
    stale: bool
    estimated: bool
    derived: bool
    note: str | None
    # Engine 2.1 (additive): a price sold in units of several devices (an 8-GPU node): the
    # devices one unit holds, its name and hourly price; the per-device figures above are then
    # derived.
    gpus_per_unit: NotRequired[int]
    sold_as: NotRequired[str | None]
    usd_per_unit_hour: NotRequired[float]
    # From the same provider and region as the option's anchor price (its on-demand, else
    # monthly); False labels a slot filled from another offer.
    same_offer: NotRequired[bool]
    # A house offer (the operating organisation's own server) and its server spec.
    house: NotRequired[bool]
    server: NotRequired[dict[str, Any]]
    # A row sold on request, priced on an indicative figure whose basis its source names.
    indicative: NotRequired[bool]
    on_request: NotRequired[bool]
    basis: NotRequired[dict[str, Any]]
    # The unit as sold that builds the option (catalog `units`): its shape, how many,
    # the GPU link inside and the network between units, with source and date.
    sold_unit: NotRequired[dict[str, Any]]


class Stack(TypedDict):
    status: str
    runnable: bool
    checks: list[dict[str, str]]
    porting: list[str]
    source: str
    as_of: str | None


class Availability(TypedDict):
    available: bool
    regions: list[str]
    nearest_region: str | None
    round_trip_ms: float | None
    source: str | None
    as_of: str | None
    # Owned hardware (private cloud, on premises) is where the customer is by definition.
    owned: NotRequired[bool]
    # Billed on a row that names no region: not where the customer is, its round trip the
    # farthest measured from the customer's nearest region (availability.unknown_place).
    location_unknown: NotRequired[bool]


class CostToResult(TypedDict):
    usd: float | None
    per: str


class ChinaBandwidth(TypedDict):
    """Engine 2.2: a hosted option's premium bandwidth to mainland China (CN2 GIA/CMI)."""

    # covered | priced | not_priced (a route, no price for the Mbps beyond it) | no_route
    status: str
    needed_mbps: float
    basis: str  # peak | daily_mean | run_rate (catalog rule china_bandwidth_need)
    route: str | None
    included_mbps: float
    servers: int
    extra_mbps: int
    usd_per_mbps_month: float | None
    usd_per_month: float | None
    price_id: str
    provider: str
    source: str
    as_of: str | None


class ChinaEgress(TypedDict):
    """Engine 2.2: which egress price a public-cloud option's China-bound traffic uses."""

    provider: str
    cloud: str
    region: str | None
    egress_figure: str
    usd_per_gb: float
    china_rate: bool  # False: the cloud publishes no rate to China; its internet rate is used
    # The path to mainland users (internet, no premium route, round trip, loss).
    path: NotRequired[dict[str, Any]]


class ChinaReach(TypedDict):
    """A real-time option's path to a user in mainland China (engine/pricing/china.py)
    and what it adds to that user's time to first token at the 95th percentile."""

    route: str  # premium | internet | domestic (served from inside mainland China)
    premium_route: str | None  # cn2_gia | cmi
    region: str | None  # where the option runs (a region key)
    round_trip_ms: float
    round_trip_figure: str | None  # the catalog figure of the round trip
    peak_loss: float
    loss_figure: str | None
    lost_packets: int  # lost at the 95th percentile (catalog rule china_user_latency)
    retransmit_ms: float  # one retransmission timeout (round trip + tcp_rto_min_ms) each
    added_ms: float  # round trip + retransmit: in round_trip_ms and the time to first token


class Option(TypedDict):
    """One sized and priced card for a workload. Training options carry the run's figures,
    serving options the load's; schema 2 added stack, availability, rank, billing and
    cost_to_result (a schema-1 option has none of them)."""

    accelerator_id: str
    name: str
    type: str
    count: int
    hours: float
    interconnect: str
    prices: dict[str, Price | None]
    missing_prices: list[str]
    compute_usd_per_month: dict[str, float | None]
    billing_used: str | None
    storage_usd_per_month: float
    egress_usd_per_month: float
    idle_usd_per_month: float
    staff_usd_per_month: float
    # Operations bought in beyond the team's own staff (all of it for a team without staff).
    ops_bought_in_usd_per_month: NotRequired[float | None]
    utilisation: float
    break_even_utilisation: dict[str, float | None]
    monthly_cost_usd: float | None
    # Schema 2.
    billing: NotRequired[str | None]
    stack: NotRequired[Stack]
    availability: NotRequired[Availability]
    rank: NotRequired[int]
    cost_to_result: NotRequired[CostToResult]
    # Devices paid for when the price is sold in whole units (an 8-GPU node) and the count is
    # not a multiple of it.
    billed_count: NotRequired[int]
    # An option with no price (a card with no sourced price): why, what it was ranked by and
    # its size; `rental_equivalent` is always None (owned hardware is priced by its cost of
    # ownership, never by a rental proxy).
    unpriced: NotRequired[dict[str, Any]]
    # Owned hardware's total cost of ownership (purchase over the term, electricity,
    # colocation, support), the catalog figures it used and its break-even against renting.
    tco: NotRequired[dict[str, Any]]
    # The card's offers in this mode sold on request (no figure): the report's quote action.
    on_request: NotRequired[list[dict[str, Any]]]
    # Engine 2.6: the unit a GPU option is bought in (units.unit_doc): kind (instance, server,
    # vendor_build), name, gpus per unit, count of units, billed cards, house.
    unit: NotRequired[dict[str, Any]]
    # Engine 2.2: the catalog figure that priced the egress; and, when the customer must reach
    # mainland China and the workload serves it, the premium bandwidth (hosted) or the egress
    # rate used (public cloud). The cost line is None when it has no price (status says why).
    egress_figure: NotRequired[str]
    china_bandwidth: NotRequired[ChinaBandwidth]
    china_bandwidth_usd_per_month: NotRequired[float | None]
    china_egress: NotRequired[ChinaEgress]
    # For a team serving mainland China users, a real-time option's path to
    # them; the larger of its added_ms and the customer's own round trip is round_trip_ms.
    china_reach: NotRequired[ChinaReach]
    # Engine 2.x: the share of the target (deadline hours, latency ms) left unused,
    # and "met", "at_risk" (under the catalog's target_safety_share) or "missed"; both None
    # without a target.
    target_margin: NotRequired[float | None]
    target_status: NotRequired[str | None]
    # Training.
    min_count: NotRequired[int]
    target_hours: NotRequired[float]
    target_basis: NotRequired[str]
    device_hours: NotRequired[float]
    meets_deadline: NotRequired[bool]
    peak_tflops_per_device: NotRequired[float]
    peak_basis: NotRequired[str]
    mfu: NotRequired[float]
    mfu_basis: NotRequired[dict[str, Any]]  # the regime of rule training_mfu that gave it
    cost_per_run_usd: NotRequired[dict[str, float | None] | None]
    # The units as sold and the share of the month the staff cost follows.
    staff_basis: NotRequired[dict[str, float]]
    # Each run's fixed overhead (hours, included in `hours`, and its parts).
    run_overhead: NotRequired[dict[str, float]]
    # Data parallelism across units on the offer's network (time it adds), and an
    # option beyond what its provider rents on demand (needs a reservation / capacity block).
    network: NotRequired[dict[str, Any]]
    capacity: NotRequired[dict[str, Any]]
    # A batch job's answered window (hours, start_hour, firmness: hard or soft) and
    # whether each run with its start-up fits it (target_margin/target_status then measure it).
    window: NotRequired[dict[str, Any]]
    meets_window: NotRequired[bool]
    # What a real-time service keeps spare for a failed server (N+1: one unit of the
    # offer, its devices and monthly cost, included in count and cost) or why none.
    redundancy: NotRequired[dict[str, Any]]
    # Serving.
    tensor_parallel: NotRequired[int]
    # Real-time serving is sized for this peak; the replicas the average needs.
    peak_to_average: NotRequired[float]
    peak_traffic_basis: NotRequired[str]  # "answer" (peak_to_average) or "traffic" (its figure)
    replicas_at_average: NotRequired[int]
    replicas: NotRequired[int]
    batch_per_replica: NotRequired[int]
    tokens_per_second_per_replica: NotRequired[float]
    tpot_ms: NotRequired[float]
    ttft_ms: NotRequired[float]
    latency_ms: NotRequired[float]
    latency_metric: NotRequired[str]
    latency_target_ms: NotRequired[float | None]
    latency_at_metric_ms: NotRequired[float]
    best_latency_at_metric_ms: NotRequired[float]
    round_trip_ms: NotRequired[float | None]
    tp_comm_ms_per_token: NotRequired[float]
    meets_latency: NotRequired[bool]
    # Figures a benchmark run measured in place of the estimates (engine/sizing/measured/).
    measured: NotRequired[dict[str, Any]]
    bound: NotRequired[str]
    cost_per_million_output_tokens_usd: NotRequired[dict[str, float | None] | None]
    # Work in its own unit (engine/planning/nonllm.py): the model, the demand, the
    # card's throughput with its source and basis, and the cost per the team's unit by billing.
    work: NotRequired[dict[str, Any]]


class ExcludedOption(TypedDict):
    accelerator_id: str
    name: str
    code: str
    reason: str
    availability: NotRequired[Availability]
    stack: NotRequired[Stack]
