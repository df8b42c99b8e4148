"""evaluate's pricing stage: the team's month over its workloads' first options.

The prices and figures used, preprocessing's CPU server, operations staff counted once per team,
the shared fleet, the month's totals against the budget and the servers each first option (and
each dead end's quote) runs on: the result's cost, servers and fleet sections.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.planning import fleet
from advisor.engine.planning.decide import staff_section
from advisor.engine.planning.servers import preprocessing_server_doc, quote_server, server_doc
from advisor.engine.pricing import asked
from advisor.engine.pricing.billing import CostInputs
from advisor.engine.pricing.costing import team_staff
from advisor.engine.result.stages import Costs, Decided, Planned, Sizing, Workloads
from advisor.engine.text import i18n

_PRICE_USED_KEYS = (
    "price_id",
    "provider",
    "region",
    "source",
    "as_of",
    "stale",
    "estimated",
    "derived",
    "gpus_per_unit",
    "sold_as",
)


@dataclass(frozen=True)
class _Month:
    """The team's month: compute and hosting (what the providers bill, which the budget is
    checked against), its own operations staff and operations bought in, with the fleet's
    saving already taken off."""

    compute_usd: float
    staff_usd: float
    bought_in_usd: float
    cpu_usd: float
    fleet: dict[str, Any] | None
    fleet_saves_usd: float

    @property
    def total_usd(self) -> float:
        return self.compute_usd + self.staff_usd + self.bought_in_usd


def price(
    decided: Decided, sizing: Sizing, planned: Planned, workloads: Workloads, catalog: Catalog
) -> Costs:
    """The cost section, the servers and the fleet of the workloads' first options.

    Completes two workload documents in place: preprocessing's with its CPU plan, and each dead
    end's quote with the server the engine sizes for it."""
    answers, lang = decided.answers, decided.lang
    prices_used = {
        pid: {k: p[k] for k in _PRICE_USED_KEYS} for pid, p in workloads.price_docs.items()
    }
    notes = _region_notes(answers, lang)
    stale = [p for p in prices_used.values() if p["stale"]]
    if stale:
        notes.append(
            i18n.message("cost.stale", lang, count=len(stale), days=f"{decided.stale_days:g}")
        )
    cpu_server = _cpu_server(answers, catalog, lang, workloads.docs)
    month = _month(answers, catalog, lang, planned.ci, workloads, cpu_server)
    if month.fleet:
        notes += [g["statement"] for g in month.fleet["groups"]]
    budget = answers.cost.monthly_budget_usd
    over_budget = asked.budget_statement(
        month.compute_usd, budget, lang, month.staff_usd, month.bought_in_usd
    )
    if over_budget is not None:
        notes.append(over_budget)
    servers = _servers(answers, catalog, lang, sizing, workloads, cpu_server)
    staff_doc, staff_note = staff_section(answers, catalog, lang)
    if staff_note is not None:
        notes.append(staff_note)
    server_option = max(workloads.firsts, key=lambda o: o["count"], default=None)
    section = {
        "currency": "USD",
        "today": decided.when.isoformat(),
        "stale_after_days": decided.stale_days,
        "monthly_total_usd": round(month.total_usd, 2),
        **({"cpu_usd_per_month": round(month.cpu_usd, 2)} if cpu_server is not None else {}),
        # Compute and hosting alone: the figure the budget is checked against.
        "compute_and_hosting_usd_per_month": round(month.compute_usd, 2),
        # The team's own operations staff, counted once across its workloads.
        "staff_usd_per_month": round(month.staff_usd, 2),
        # Operations bought in (a managed service or a contractor), once per team.
        "ops_bought_in_usd_per_month": round(month.bought_in_usd, 2),
        # What one shared fleet saves against separate fleets (in the total).
        **(
            {"fleet_saves_usd_per_month": round(month.fleet_saves_usd, 2)}
            if month.fleet_saves_usd
            else {}
        ),
        "monthly_budget_usd": budget,
        "by_workload": [_workload_cost(o) for o in workloads.firsts],
        "prices_used": sorted(prices_used.values(), key=lambda p: p["price_id"]),
        "figures_used": {
            k: dict(v) for k, v in catalog.memo("figures_used", lambda: _figures(catalog)).items()
        },
        "staff": staff_doc,
        "gaps": [i18n.catalog_text(g, lang) for g in catalog.open_gaps],
    }
    return Costs(
        section=section,
        servers=servers,
        server=next(
            (
                {k: v for k, v in srv.items() if k != "workload"}
                for srv in servers
                if server_option and srv.get("workload") == server_option["workload"]
            ),
            None,
        ),
        fleet=month.fleet,
        notes=notes,
        over_budget=over_budget,
    )


def _region_notes(answers: vocabulary.Answers, lang: str) -> list[str]:
    """What the team's regions add to the cost of doing business there."""
    if "mainland_china" in answers.organization.regions and (
        answers.deployment.data_residency != "none"
        or answers.organization.regions == ("mainland_china",)
    ):
        # A mainland-facing service hosted in mainland China needs ICP filing.
        return [i18n.message("china.icp", lang)]
    return []


def _cpu_server(
    answers: vocabulary.Answers, catalog: Catalog, lang: str, docs: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """Preprocessing is CPU work: its server is sized and priced apart and counts in the total.
    Its workload's document becomes the CPU plan (cpu_workload)."""
    if "preprocessing" not in answers.kinds:
        return None
    cpu_server = preprocessing_server_doc(answers, catalog, lang)
    for wdoc in docs:
        if wdoc["kind"] == "preprocessing":
            feasible = cast(dict[str, list[str]], wdoc["feasible"])["deployment_modes"]
            wdoc.update(cpu_workload(cpu_server, feasible, str(wdoc["deployment_mode"])))
    return cpu_server


def _month(
    answers: vocabulary.Answers,
    catalog: Catalog,
    lang: str,
    ci: CostInputs,
    workloads: Workloads,
    cpu_server: Mapping[str, Any] | None,
) -> _Month:
    """The team's month over its workloads' priced first options and the CPU server."""
    cpu_usd = float(cpu_server["price"]["usd_per_month"]) if cpu_server else 0.0
    # Operations staff once per team: each option's own month carries the staff its fleet
    # needs alone (options compare on it), but the team runs one practice per mode.
    modes_of = {str(w["kind"]): str(w["deployment_mode"]) for w in workloads.docs}
    priced = [o for o in workloads.firsts if o["monthly_cost_usd"] is not None]
    staff = team_staff(
        [
            (
                modes_of[o["workload"]],
                int(o["staff_basis"]["units"]),
                float(o["staff_basis"]["share"]),
            )
            for o in priced
            if o.get("staff_basis")
        ],
        ci,
    )
    # Workloads on the same servers share one fleet where their hours allow (fleet.py).
    fleet_plan = fleet.plan(answers, priced, modes_of, catalog, lang)
    fleet_saves = float(fleet_plan["saves_usd_per_month"]) if fleet_plan else 0.0
    # Compute and hosting: what the providers bill (the budget is checked against it alone).
    compute = (
        sum(
            o["monthly_cost_usd"]
            - float(o.get("staff_usd_per_month") or 0)
            - float(o.get("ops_bought_in_usd_per_month") or 0)
            for o in priced
        )
        + cpu_usd
        - fleet_saves
    )
    return _Month(
        compute_usd=compute,
        staff_usd=staff.in_house_usd,
        bought_in_usd=staff.bought_in_usd,
        cpu_usd=cpu_usd,
        fleet=fleet_plan,
        fleet_saves_usd=fleet_saves,
    )


def _servers(
    answers: vocabulary.Answers,
    catalog: Catalog,
    lang: str,
    sizing: Sizing,
    workloads: Workloads,
    cpu_server: dict[str, Any] | None,
) -> list[dict[str, Any]]:
    """The server each workload's first option runs on (and preprocessing's CPU server); each
    dead end's quote gets the server sized for its workload."""
    storage_gb = 0.0
    if answers.training is not None:
        storage_gb = (
            answers.training.dataset_tokens * catalog.figure("dataset_bytes_per_token") / 1e9
        )
    imem = sizing.sized.imem
    weight_bytes = imem.weight_bytes if imem is not None else None
    servers = [
        {
            "workload": o["workload"],
            **(server_doc(o, catalog, storage_gb, lang, weight_bytes) or {}),
        }
        for o in workloads.firsts
    ]
    if cpu_server is not None:
        servers.append(cpu_server)
    for wdoc in workloads.docs:
        dead_doc = cast(dict[str, Any], wdoc.get("dead_end") or {})
        quote = dead_doc.get("quote")
        if quote is not None:
            quote["sized_server"] = quote_server(quote, catalog, storage_gb, lang, weight_bytes)
    return servers


def _workload_cost(o: Mapping[str, Any]) -> dict[str, Any]:
    """A workload's row of the cost section: its first option's money."""
    return {
        "workload": o["workload"],
        "accelerator_id": o["accelerator_id"],
        "count": o["count"],
        "monthly_cost_usd": o["monthly_cost_usd"],
        "billing_used": o["billing_used"],
        "compute_usd_per_month": o["compute_usd_per_month"],
        "storage_usd_per_month": o["storage_usd_per_month"],
        "egress_usd_per_month": o["egress_usd_per_month"],
        "idle_usd_per_month": o["idle_usd_per_month"],
        "staff_usd_per_month": o["staff_usd_per_month"],
        "ops_bought_in_usd_per_month": o.get("ops_bought_in_usd_per_month"),
        **(
            {"china_bandwidth_usd_per_month": o["china_bandwidth_usd_per_month"]}
            if "china_bandwidth_usd_per_month" in o
            else {}
        ),
        "break_even_utilisation": o["break_even_utilisation"],
        "cost_per_run_usd": o.get("cost_per_run_usd"),
        "cost_per_million_output_tokens_usd": o.get("cost_per_million_output_tokens_usd"),
    }


def cpu_workload(server: Mapping[str, Any], feasible: Sequence[str], mode: str) -> dict[str, Any]:
    """The preprocessing workload as the CPU work it is: its family, where its CPU server is
    rented among the workload's feasible modes and how it is paid, and the plan (vCPUs,
    servers, a month's price)."""
    price = server["price"]
    hosted = [m for m in ("dedicated_hosting", "bare_metal") if m in feasible]
    if price["billing"] == "monthly" and hosted:
        mode = hosted[0]
    elif price["billing"] != "monthly" and "public_cloud" in feasible:
        mode = "public_cloud"
    return {
        "accelerator": "cpu",
        "deployment_mode": mode,
        "billing": "monthly_fixed" if price["billing"] == "monthly" else "on_demand",
        "cpu_plan": {
            "vcpu": price["vcpu"],
            "servers": price.get("servers"),
            "vcpu_per_server": price.get("vcpu_per_server"),
            "ram_gib": server["ram_gib"],
            "nvme_tb": server["nvme_tb"],
            "billing": price["billing"],
            "hours_per_month": price.get("hours_per_month"),
            "usd_per_month": price["usd_per_month"],
        },
    }


def _figures(catalog: Catalog) -> dict[str, dict[str, Any]]:
    return {
        k: {
            kk: v[kk]
            for kk in ("value", "unit", "source", "as_of", "estimated", "derived")
            if kk in v
        }
        for k, v in catalog.figures.items()
    }
