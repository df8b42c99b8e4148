"""The invariants an infrastructure architect checks on every report, as one function over a
team's answers, its result documents (English and Traditional Chinese) and the rendered text
(page one and the text summary in both languages).

Each check returns violations, never raises: the audit counts them per invariant. A check may be
made stricter; loosening one, or leaving a team out of the generator so that it passes, hides a
defect in the engine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from advisor.engine import answers as A

HOSTED = frozenset({"dedicated_hosting", "bare_metal"})
# The operator's cities and the region keys of its price rows.
OPERATOR_REGIONS = frozenset({"hong_kong", "tokyo", "los_angeles"})
LANGS = ("en", "zh-hant")
# Billing kinds that a continuous service cannot rely on alone: a block ends after days.
SHORT_TERM = frozenset({"capacity_block", "flex_start", "spot"})
# How each answered billing reads in the prices the engine may use for it.
BILLING_SLOTS: dict[str, frozenset[str]] = {
    "pay_as_you_go": frozenset({"on_demand", "spot", "flex_start", "capacity_block"}),
    "monthly_fixed": frozenset({"monthly"}),
    "committed": frozenset({"commit_1y", "commit_3y", "monthly", "capacity_block"}),
}
# The billing a workload names for the price slot its first option is billed at: a capacity
# block or a flex-start price is neither on-demand nor committed, and has no other name.
BILLING_WORDS = {
    "on_demand": "on_demand",
    "spot": "spot",
    "commit_1y": "committed_1y",
    "commit_3y": "committed_3y",
    "monthly": "monthly_fixed",
    "capacity_block": "capacity_block",
    "flex_start": "flex_start",
}
# An English sentence inside the Chinese report: four lowercase English words in a row (names,
# codes and units are capitalised, hyphenated or single words).
_ENGLISH_RUN = re.compile(r"\b[a-z]{2,}(?:[ ,;:]+[a-z]{2,}){3,}\b")
# Words of a product, stack or unit that may stand in a Chinese sentence in a row.
_ENGLISH_ALLOWED = re.compile(
    r"^(?:(?:per|device|hour|month|run|tokens?|million|mbps|gbps|gib|gb|tb|ms|vcpu|cpu|ram|"
    r"nvme|bf16|fp8|fp16|int4|int8|lora|qlora|vllm|sglang|tgi|triton|tensorrt|llm|bench|serve|"
    r"serving|sku|cn2|gia|cmi|nvlink|pcie|sxm|hgx|dgx|ssd|on|demand|spot)[ ,;:]*)+$"
)
_DASH_PRICE = re.compile(r"(?:US)?\$\s?—|USD\s?—|—\s?美元")


@dataclass(frozen=True)
class Violation:
    invariant: str
    sentence: str
    workload: str | None = None


@dataclass(frozen=True)
class Case:
    """One team's report as the architect reads it."""

    answers: Mapping[str, Any]
    results: Mapping[str, Mapping[str, Any]]  # by language
    page_one: Mapping[str, str]  # by language: the executive summary as text
    summary: Mapping[str, str]  # by language: the CLI's text summary
    body: Mapping[str, str] = field(default_factory=dict)  # by language: the whole report

    @property
    def result(self) -> Mapping[str, Any]:
        return self.results["en"]


# The invariants, their titles, and the ones that depend on how plans are built (the planner's
# own work); the audit and the suite report those apart.
TITLES: dict[str, str] = {
    "I1": "An answer or an honest dead end",
    "I1q": "A dead end where the operator sells offers the sized server as a quote",
    "I2": "Built as sold",
    "I3": "Priced on page one",
    "I4": "Targets ranked and told truly",
    "I5": "Billing as asked",
    "I6": "Place",
    "I7": "The operator first where it sells",
    "I8": "One count",
    "I9": "One fleet where one serves",
    "I10": "Budget: compute and staff apart, staff once",
    "I11": "Both languages say the same",
    "I12": "Work as it is",
    "I13": "Figures add up",
}
PLANNER_OWNED = frozenset({"I1q", "I2", "I7", "I8", "I9"})


def check(case: Case) -> list[Violation]:
    """Every violation of every invariant in one team's report."""
    out: list[Violation] = []
    for fn in CHECKS:
        out.extend(fn(case))
    return out


# ------------------------------------------------------------------------------------ helpers


def _sized(w: Mapping[str, Any]) -> bool:
    return bool(w["kind"] != "preprocessing")


def _first(w: Mapping[str, Any]) -> Mapping[str, Any] | None:
    options = w.get("options") or []
    return options[0] if options else None


def _price(option: Mapping[str, Any]) -> Mapping[str, Any] | None:
    prices = option.get("prices") or {}
    used = option.get("billing_used")
    if used and prices.get(used):
        return prices[used]  # type: ignore[no-any-return]
    return None


def _workloads(case: Case) -> Iterator[tuple[int, Mapping[str, Any]]]:
    yield from enumerate(case.result["workloads"])


def _v(inv: str, w: Mapping[str, Any] | None, sentence: str) -> Violation:
    return Violation(inv, sentence, None if w is None else str(w["kind"]))


def _answer(case: Case, path: str) -> Any:
    node: Any = case.answers
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


# ------------------------------------------------------------------------------ I1: dead ends


def i1_answer_or_honest_dead_end(case: Case) -> Iterator[Violation]:
    workloads = case.result["workloads"]
    sized = [w for w in workloads if _sized(w)]
    for w in sized:
        first = _first(w)
        dead = w.get("dead_end")
        if first is None and not dead:
            yield _v("I1", w, "no first option and no dead end that says why")
        if dead:
            for relax in dead.get("relaxations") or []:
                option = relax.get("option") or {}
                if not option or option.get("monthly_cost_usd") is None:
                    yield _v(
                        "I1",
                        w,
                        f"a relaxation ({', '.join(relax.get('gives_up') or []) or '?'}) is "
                        "listed without a first option and a price",
                    )
            if not dead.get("blocking"):
                yield _v("I1", w, "a dead end names no answer that rules the options out")
            relaxed = {
                c.get("answer_path")
                for relax in dead.get("relaxations") or []
                for c in relax.get("changes") or []
            }
            for block in dead.get("blocking") or []:
                answers = block.get("answers") or []
                touched = any(
                    str(p) == a or str(p).startswith(a + ".") for a in answers for p in relaxed
                )
                if relaxed and not touched:
                    yield _v(
                        "I1",
                        w,
                        f"a dead end names {', '.join(block.get('answers') or [])} as ruling "
                        "options out, yet no relaxation of it brings one back",
                    )
            if any(not relax.get("changes") for relax in dead.get("relaxations") or []):
                yield _v(
                    "I1",
                    w,
                    "a dead end lists a plan that changes none of the team's answers: an option "
                    "exists, and the workload has none",
                )
    plans = [w for w in sized if _first(w) is not None and not w.get("dead_end")]
    for lang, word in (("en", "Buy"), ("zh-hant", "採購")):
        bought = len(re.findall(rf"^{word}\b", case.page_one.get(lang, ""), re.M))
        if bought > len(plans):
            yield _v(
                "I1",
                None,
                f"{lang} page one says buy {bought} times for {len(plans)} workload(s) with a "
                "plan: a dead end is shown as a purchase",
            )
    all_dead = bool(sized) and all(_first(w) is None or w.get("dead_end") for w in sized)
    if all_dead:
        for lang in LANGS:
            headline = case.summary[lang].splitlines()[1] if case.summary.get(lang) else ""
            mode = case.result["recommendation"]["deployment_mode"]
            if re.search(r"confidence|信心|billing|計費", headline):
                yield _v(
                    "I1",
                    None,
                    f"every workload is a dead end, yet the {lang} summary's headline names a "
                    f"mode, billing or confidence: {headline!r} ({mode})",
                )
            page = case.page_one.get(lang, "")
            if re.search(r"Recommendation:|建議：", page):
                yield _v(
                    "I1",
                    None,
                    f"every workload is a dead end, yet {lang} page one states a recommendation",
                )


def i1q_dead_end_quote(case: Case) -> Iterator[Violation]:
    regions = set(case.answers["organization"]["regions"])
    if not regions & OPERATOR_REGIONS and "mainland_china" not in regions:
        return
    if not HOSTED & set(case.answers["deployment"]["allowed_modes"]):
        return
    for w in case.result["workloads"]:
        dead = w.get("dead_end")
        if _sized(w) and dead and not dead.get("quote"):
            yield _v("I1q", w, "a dead end in the operator's region group offers no sized quote")


# -------------------------------------------------------------------------- I2: built as sold


def i2_built_as_sold(case: Case) -> Iterator[Violation]:
    """The first GPU option is bought in whole units as sold (its `unit`): the billed cards are
    the units' cards, a tensor-parallel group fits in one unit, a price sold per unit counts that
    unit's cards, a host's server is priced for the cards it holds, and a vendor's SXM build is
    an HGX board of 4 or 8."""
    for _, w in _workloads(case):
        for option in (w.get("options") or [])[:1]:
            if option.get("type") != "gpu":
                continue
            count = int(option["count"])
            billed = int(option.get("billed_count") or count)
            tp = int(option.get("tensor_parallel") or 1)
            name = f"{option['name']} × {count}"
            unit = option.get("unit")
            if not unit:
                yield _v("I2", w, f"{name}: no unit as sold")
                continue
            per_unit, units = int(unit["gpus"]), int(unit["count"])
            if billed != per_unit * units:
                yield _v(
                    "I2",
                    w,
                    f"{name} is billed as {billed} cards, not {units} unit(s) of {per_unit}",
                )
            if tp > per_unit:
                yield _v(
                    "I2",
                    w,
                    f"{name}: a tensor-parallel group of {tp} spans units of {per_unit} card(s)",
                )
            if count > billed:
                yield _v("I2", w, f"{name}: {count} cards needed, {billed} bought")
            price = _price(option) or {}
            priced_per_unit = int(price.get("gpus_per_unit") or 1)
            if priced_per_unit > 1 and priced_per_unit != per_unit:
                yield _v(
                    "I2",
                    w,
                    f"{name}: the unit sold has {per_unit} cards, the price counts "
                    f"{priced_per_unit}",
                )
            server = price.get("server") or {}
            if server and int(server.get("gpus") or per_unit) != per_unit:
                yield _v("I2", w, f"{name}: a server of {server.get('gpus')} priced as {per_unit}")
            board = unit["kind"] == "vendor_build" and unit["name"] in ("HGX", "OAM")
            if board and per_unit not in (4, 8):
                yield _v("I2", w, f"{name}: an HGX board of {per_unit} cards")


# ------------------------------------------------------------------- I3: priced on page one


def i3_priced_on_page_one(case: Case) -> Iterator[Violation]:
    for _, w in _workloads(case):
        first = _first(w)
        if first is None or not _sized(w) or w.get("dead_end"):
            continue  # a dead end has no first option to price: I1 holds it to its own rules
        name = f"{first['name']} × {first['count']}"
        monthly = first.get("monthly_cost_usd")
        if monthly is None or not math.isfinite(float(monthly)) or monthly <= 0:
            yield _v("I3", w, f"the first option {name} has no monthly figure")
            continue
        cost = (first.get("cost_to_result") or {}).get("usd")
        if cost is None or not math.isfinite(float(cost)):
            yield _v("I3", w, f"the first option {name} has no cost per result")
        if (_price(first) or {}).get("indicative"):
            for lang in LANGS:
                if not re.search(
                    r"Indicative: ask for a quote|參考價：請索取報價", case.page_one[lang]
                ):
                    yield _v("I3", w, f"{lang} page one shows an indicative price as firm")
    for lang in LANGS:
        page = case.page_one.get(lang, "")
        if _DASH_PRICE.search(page) or "price missing" in page or "缺少價格" in page:
            yield _v("I3", None, f"{lang} page one shows a missing price beside an option")
        lines = case.summary.get(lang, "").splitlines()
        workloads_at = next(
            (
                i
                for i, ln in enumerate(lines)
                if ln.startswith("-- ") and ("Workloads" in ln or "工作負載" in ln)
            ),
            None,
        )
        if workloads_at is not None:
            for line in lines[workloads_at : workloads_at + 4 * len(case.result["workloads"]) + 1]:
                if line.startswith("    - ") and ("price missing" in line or "缺少價格" in line):
                    yield _v("I3", None, f"the {lang} summary lists an option as {line.strip()!r}")
                    break


# ------------------------------------------------------------------------------- I4: targets


def i4_targets(case: Case) -> Iterator[Violation]:
    for _, w in _workloads(case):
        options = w.get("options") or []
        # Meeting a target counts for a plan the team can run as it is and buy: one that needs
        # its stack ported first, or that nobody in the catalog sells in the mode, meets
        # nothing yet (the report says why it ranks lower).
        statuses = [
            o.get("target_status")
            if o.get("stack", {}).get("runnable", True)
            and (o.get("cost_to_result") or {}).get("usd") is not None
            else "not_a_plan"
            for o in options
        ]
        if "met" in statuses or "at_risk" in statuses:
            good = min(i for i, s in enumerate(statuses) if s in ("met", "at_risk"))
            missed = [i for i, s in enumerate(statuses) if s == "missed" and i < good]
            if missed:
                o = options[missed[0]]
                g = options[good]
                yield _v(
                    "I4",
                    w,
                    f"{o['name']} × {o['count']} misses its target and ranks above "
                    f"{g['name']} × {g['count']}, which meets it",
                )
        if any(o.get("target_status") in ("met", "at_risk") for o in options):
            for note in w.get("target_warnings") or []:
                if "no option meets" in note or "沒有方案能達到" in note:
                    yield _v("I4", w, "the text says no option meets the target while one does")
        first = options[0] if options else None
        if first is None:
            continue
        margin = first.get("target_margin")
        status = first.get("target_status")
        if margin is not None and status == "met" and margin < 0:
            yield _v("I4", w, f"the first option is marked met with a margin of {margin:.1%}")
        if margin is not None and status == "missed" and margin > 0:
            yield _v("I4", w, f"the first option is marked missed with a margin of {margin:.1%}")
        if "meets_latency" in first and first.get("latency_target_ms"):
            best = [o.get("best_latency_at_metric_ms") for o in options]
            met = [
                o["latency_at_metric_ms"]
                for o in options
                if o.get("target_status") == "met" and "latency_at_metric_ms" in o
            ]
            reach = min((b for b in best if b is not None), default=None)
            if reach is not None and met and reach > min(met) * 1.0001:
                yield _v(
                    "I4",
                    w,
                    f"the best reachable ({reach:,.0f} ms) is worse than an option shown as "
                    f"meeting ({min(met):,.0f} ms)",
                )


# ------------------------------------------------------------------------------- I5: billing


def i5_billing(case: Case) -> Iterator[Violation]:
    asked = case.answers["cost"]["billing"]
    rec = case.result["recommendation"]
    for _, w in _workloads(case):
        first = _first(w)
        if first is None or not _sized(w):
            continue
        used = first.get("billing_used")
        if used is None:
            continue
        named = w.get("billing")
        owned = bool((first.get("availability") or {}).get("owned") or first.get("tco"))
        if named and not (owned and named == "purchase") and named != BILLING_WORDS.get(used):
            yield _v(
                "I5",
                w,
                f"the workload names billing {named!r} but its first option is priced {used!r}",
            )
        if w["kind"] == "realtime_inference" and used in SHORT_TERM:
            yield _v("I5", w, f"a continuous service is planned on {used} prices alone")
        slots = BILLING_SLOTS.get(asked)
        if slots is not None and used not in slots:
            reasons = " ".join(
                str(x or "")
                for x in (rec.get("billing_reason"), (w.get("mode_decision") or {}).get("reason"))
            )
            if not reasons.strip():
                yield _v(
                    "I5",
                    w,
                    f"billing {asked!r} was asked, {used!r} is used, and no reason is given",
                )


# --------------------------------------------------------------------------------- I6: place


def i6_place(case: Case) -> Iterator[Violation]:
    for _, w in _workloads(case):
        first = _first(w)
        if first is None or not _sized(w):
            continue
        price = _price(first) or {}
        reach = first.get("china_reach")
        if (
            reach
            and price.get("region_key")
            and reach.get("region")
            and reach["region"] != price["region_key"]
            and reach.get("route") != "domestic"
        ):
            yield _v(
                "I6",
                w,
                f"the round trip to mainland China is counted from {reach['region']}, the "
                f"priced unit runs in {price['region_key']}",
            )
        tco = first.get("tco") or {}
        if tco:
            regions = set(case.answers["organization"]["regions"])
            notes = " ".join(case.result["cost"].get("notes") or [])
            if tco.get("regional") and tco.get("region") not in regions:
                yield _v(
                    "I6",
                    w,
                    f"owned hardware is powered and housed at {tco.get('region')} prices, not "
                    "in the team's regions",
                )
            if not tco.get("regional") and "stands in" not in notes:
                yield _v("I6", w, "owned hardware's power and colocation stand-in is not named")
        availability = first.get("availability") or {}
        if (
            price
            and price.get("region_match") in ("elsewhere", "unknown")
            and not availability.get("owned")
        ):
            notes = " ".join(case.result["cost"].get("notes") or [])
            text = case.page_one.get("en", "") + notes
            if first["name"] not in text or not re.search(
                r"not in your regions|outside your regions|elsewhere|region", text
            ):
                yield _v(
                    "I6",
                    w,
                    f"the first option {first['name']} is priced outside the team's regions "
                    "and the report does not say so",
                )


# ------------------------------------------------------------------------ I7: operator first


def i7_operator_first(case: Case) -> Iterator[Violation]:
    regions = set(case.answers["organization"]["regions"])
    china = bool(case.answers["deployment"].get("china_connectivity")) or (
        "mainland_china" in regions
    )
    if not (regions & OPERATOR_REGIONS or china):
        return
    if not HOSTED & set(case.answers["deployment"]["allowed_modes"]):
        return
    for _, w in _workloads(case):
        first = _first(w)
        if first is None or not _sized(w) or w.get("dead_end"):
            continue  # a dead end offers the operator's sized server as its quote (I1q)
        price = _price(first) or {}
        # The operator's server fits: an option billed on it runs the team's stack as it is,
        # meets its target (one that misses it fits nothing) with no less margin than the first
        # option, and stands where the customer is (its region group, or Hong Kong for mainland
        # China: a Tokyo server is away for a team in Europe that also reaches China). A server
        # on request listed beside the first option fits by being listed. An option billed on
        # another host in the customer's own country, whose other terms the operator sells next
        # door, is that host's plan.
        house_fits = bool(first.get("house_on_request")) or any(
            o.get("house_on_request")
            or (
                bool((_price(o) or {}).get("house"))
                and (_price(o) or {}).get("region_match") != "elsewhere"
                and o["stack"]["runnable"]
                and _tier(o) <= min(_tier(first), 1)
            )
            for o in w.get("options") or []
        )
        if house_fits and not price.get("house"):
            yield _v(
                "I7",
                w,
                f"an operator's server fits, yet the first option is {first['name']} from "
                f"{price.get('provider') or 'no priced offer'}",
            )
        if price.get("house") and first.get("monthly_cost_usd") is None:
            yield _v("I7", w, "the operator's server is first but carries no price")


def _tier(option: Mapping[str, Any]) -> int:
    """0: meets its target with margin (or has none), 1: inside the estimate's error, 2: misses."""
    return {"missed": 2, "at_risk": 1}.get(str(option.get("target_status")), 0)


# ----------------------------------------------------------------------------- I8: one count


_BUY = re.compile(r"(?:Buy|購買)\s*[:：]?\s*(.+?) × (\d+)")


def i8_one_count(case: Case) -> Iterator[Violation]:
    by_workload = {c["workload"]: c for c in case.result["cost"].get("by_workload") or []}
    servers = {s.get("workload"): s for s in case.result.get("servers") or []}
    for _, w in _workloads(case):
        first = _first(w)
        if first is None or not _sized(w):
            continue
        count = int(first["count"])
        cost = by_workload.get(w["kind"])
        if cost is not None and cost.get("count") not in (None, count):
            yield _v("I8", w, f"the plan says {count} cards, the cost table {cost['count']}")
        server = servers.get(w["kind"])
        if server and server.get("accelerator_id") == first["accelerator_id"]:
            cards = int(server.get("devices_per_node") or 0) * int(server.get("nodes") or 0)
            billed = int(first.get("billed_count") or count)
            if cards and cards not in (count, billed):
                yield _v(
                    "I8",
                    w,
                    f"the plan says {count} cards, the balanced server "
                    f"{server['nodes']} × {server['devices_per_node']}",
                )
        for offer in first.get("house_on_request") or []:
            needed = offer.get("needed_count")
            same_card = offer.get("accelerator_id") == first["accelerator_id"]
            if same_card and needed is not None and int(needed) != count:
                yield _v(
                    "I8",
                    w,
                    f"the plan says {count} cards, the operator's server beside it sizes {needed}",
                )
        redundancy = first.get("redundancy") or {}
        units = int((first.get("unit") or {}).get("count") or 0)
        if redundancy.get("spare_units") and units == 1:
            yield _v("I8", w, "a spare server is counted inside one server")
        unit = first.get("unit") or {}
        if unit and int(unit["billed"]) != int(first.get("billed_count") or count):
            yield _v(
                "I8",
                w,
                f"the plan bills {first.get('billed_count') or count} cards, its servers "
                f"{unit['count']} × {unit['gpus']}",
            )


# --------------------------------------------------------------------------- I9: one fleet


def i9_one_fleet(case: Case) -> Iterator[Violation]:
    """Workloads whose first options run on the same card, hosted or owned mode, provider and
    server are planned as one fleet or said to be separate, with the reason; a shared fleet has
    fewer servers than separate ones and its saving is in the total."""
    firsts = [
        (w, _first(w)) for w in case.result["workloads"] if _sized(w) and _first(w) is not None
    ]
    fleet = case.result.get("fleet") or {}
    groups = [set(g["workloads"]) for g in fleet.get("groups") or []]
    keyed: dict[tuple[str, str, str, str], list[str]] = {}
    for w, option in firsts:
        if option is None or option.get("monthly_cost_usd") is None:
            continue
        price = _price(option) or {}
        unit = option.get("unit") or {}
        key = (
            option["accelerator_id"],
            w["deployment_mode"],
            str(price.get("provider") or ""),
            str(unit.get("name")),
        )
        keyed.setdefault(key, []).append(w["kind"])
    for (card, mode, _provider, _server), kinds in keyed.items():
        shareable = mode in HOSTED | {"on_premises", "private_cloud"}
        if len(kinds) > 1 and shareable and set(kinds) not in groups:
            yield _v(
                "I9",
                None,
                f"{' and '.join(kinds)} run on {card} in {mode} as separate fleets; no shared "
                "fleet is offered",
            )
    for g in fleet.get("groups") or []:
        if g["shared"] and not g["servers_shared"] < g["servers_separate"]:
            yield _v("I9", None, "a shared fleet is no smaller than separate fleets")
        if not g["shared"] and not g.get("reason"):
            yield _v("I9", None, "separate fleets on one server with no reason given")
    saves = float(fleet.get("saves_usd_per_month") or 0)
    if saves and abs(float(case.result["cost"].get("fleet_saves_usd_per_month") or 0) - saves) > 1:
        yield _v("I9", None, "the shared fleet's saving is not in the cost")


# ------------------------------------------------------------------------------- I10: budget


def i10_budget(case: Case) -> Iterator[Violation]:
    cost = case.result["cost"]
    staffed = [
        c for c in cost.get("by_workload") or [] if float(c.get("staff_usd_per_month") or 0) > 0
    ]
    # Once per team: a team figure that the total uses (I13 checks the total adds up with it;
    # it may exceed the workloads' own staff summed, when together they outgrow the team).
    if len(staffed) > 1 and cost.get("staff_usd_per_month") is None:
        yield _v(
            "I10",
            None,
            f"staff is counted in {len(staffed)} workloads' monthly costs, not once per team",
        )
    ops = case.answers["cost"]["ops_capacity"]
    headcount = case.answers["cost"].get("ops_headcount")
    if ops == "none" or headcount == 0:
        # Never a hidden salary: no own-staff figure at all, and the hours bought in are their
        # own line that page one names.
        total_staff = float(cost.get("staff_usd_per_month") or 0) + sum(
            float(c.get("staff_usd_per_month") or 0) for c in cost.get("by_workload") or []
        )
        if total_staff > 0:
            yield _v(
                "I10",
                None,
                f"the team has no ops staff yet is charged ${total_staff:,.0f} a month of staff",
            )
        bought = float(cost.get("ops_bought_in_usd_per_month") or 0)
        said = all(re.search(r"bought in|向外採購", case.page_one.get(lang, "")) for lang in LANGS)
        if bought > 0 and not said:
            yield _v(
                "I10",
                None,
                f"${bought:,.0f} a month of operations is bought in without page one saying so",
            )
    if cost.get("monthly_budget_usd") is not None and cost.get("monthly_total_usd"):
        for lang in LANGS:
            page = case.page_one.get(lang, "")
            if not re.search(r"[Cc]ompute|運算", page) or not re.search(
                r"[Ss]taff|人力|人員", page
            ):
                yield _v(
                    "I10",
                    None,
                    f"{lang} page one checks the budget without naming compute and staff apart",
                )


# -------------------------------------------------------------------------- I11: languages


def _key(option: Mapping[str, Any] | None) -> tuple[Any, ...] | None:
    if option is None:
        return None
    return (
        option["accelerator_id"],
        option["count"],
        option.get("monthly_cost_usd"),
        option.get("billing_used"),
    )


def i11_languages(case: Case) -> Iterator[Violation]:
    en, zh = case.results["en"], case.results["zh-hant"]
    for we, wz in zip(en["workloads"], zh["workloads"], strict=True):
        fe, fz = _first(we), _first(wz)
        if _key(fe) != _key(fz):
            yield _v("I11", we, f"the first option differs: en {_key(fe)} vs zh-hant {_key(fz)}")
    if en["cost"].get("monthly_total_usd") != zh["cost"].get("monthly_total_usd"):
        yield _v("I11", None, "the monthly total differs between the languages")
    for where, text in (
        ("page one", case.page_one.get("zh-hant", "")),
        ("summary", case.summary.get("zh-hant", "")),
    ):
        for match in _ENGLISH_RUN.finditer(text):
            if not _ENGLISH_ALLOWED.match(match.group(0)):
                yield _v("I11", None, f"English in the zh-hant {where}: {match.group(0)!r}")
                break


# -------------------------------------------------------------------------- I12: work as is


def i12_work(case: Case) -> Iterator[Violation]:
    for _, w in _workloads(case):
        if w["kind"] == "preprocessing":
            cpu = w.get("cpu_plan") or {}
            if w.get("accelerator") != "cpu" or not cpu.get("vcpu"):
                yield _v("I12", w, f"preprocessing is labelled {w.get('accelerator')}, not CPU")
            if cpu.get("usd_per_month") is None:
                yield _v("I12", w, "preprocessing's CPU server has no price")
            for o in w.get("options") or []:
                if o.get("type") not in ("cpu", None):
                    yield _v("I12", w, f"preprocessing is planned on {o.get('type')} {o['name']}")
                    break
            for lang in LANGS:
                if not re.search(r"vCPU", case.page_one.get(lang, "")):
                    yield _v("I12", w, f"{lang} page one does not size preprocessing in vCPU")
            continue
        first = _first(w)
        if first is None:
            continue
        work = case.answers.get("work")
        if work and w["kind"] in A.INFERENCE_KINDS and not first.get("work"):
            yield _v("I12", w, f"work in {work['unit']} is not sized in its own unit")


# ---------------------------------------------------------------------- I13: figures add up


def i13_figures(case: Case) -> Iterator[Violation]:
    cost = case.result["cost"]
    rows = cost.get("by_workload") or []
    total = cost.get("monthly_total_usd")
    parts = [c.get("monthly_cost_usd") for c in rows]
    if total is not None and parts and all(p is not None for p in parts):
        # Each workload's month less its own staff, the team's staff once, the CPU server.
        summed = sum(
            float(c["monthly_cost_usd"])
            - float(c.get("staff_usd_per_month") or 0)
            - float(c.get("ops_bought_in_usd_per_month") or 0)
            for c in rows
        )
        extra = (
            float(cost.get("cpu_usd_per_month") or 0)
            + float(cost.get("staff_usd_per_month") or 0)
            + float(cost.get("ops_bought_in_usd_per_month") or 0)
            - float(cost.get("fleet_saves_usd_per_month") or 0)
        )
        if abs(summed + extra - float(total)) > max(1.0, 0.005 * float(total)):
            yield _v(
                "I13",
                None,
                f"the monthly total ${float(total):,.2f} is not the sum of its workloads "
                f"${summed:,.2f}",
            )
    for _, w in _workloads(case):
        first = _first(w)
        if first is None:
            continue
        monthly = first.get("monthly_cost_usd")
        row = next((c for c in rows if c.get("workload") == w["kind"]), None)
        if (
            row is not None
            and monthly is not None
            and row.get("monthly_cost_usd") is not None
            and abs(float(row["monthly_cost_usd"]) - float(monthly)) > 0.01
        ):
            yield _v(
                "I13",
                w,
                f"the first option costs ${monthly:,.2f} a month, the cost table "
                f"${row['monthly_cost_usd']:,.2f}",
            )


CHECKS: tuple[Callable[[Case], Iterator[Violation]], ...] = (
    i1_answer_or_honest_dead_end,
    i1q_dead_end_quote,
    i2_built_as_sold,
    i3_priced_on_page_one,
    i4_targets,
    i5_billing,
    i6_place,
    i7_operator_first,
    i8_one_count,
    i9_one_fleet,
    i10_budget,
    i11_languages,
    i12_work,
    i13_figures,
)
