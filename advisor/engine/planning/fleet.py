"""One fleet per team: workloads whose first options run on the same card, in the same hosted or
owned mode, from the same provider and in the same unit can share servers in time — a service's
quiet night hours, a daily batch run, a weekly fine-tune. The fewest servers that carry every
workload's runs at their hours is a small integer programme over the 168 hours of a week, solved
with HiGHS (highspy); the result says which workload runs when on how many servers, what the
shared fleet saves, and that separate fleets are the alternative.

Each workload keeps the plan it was sized for (replicas, run hours, its target); sharing only
moves a run in time, inside its batch window where one was answered. A real-time service holds
all its servers around the clock unless its traffic follows a daily cycle; then it holds, hour
by hour, the servers of its load on a daily curve between its peak (what it is sized for) and
its mean (catalog rule `traffic_peak_to_mean`), never fewer than the mean needs.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import highspy
import numpy as np
from highspy import _core

from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.text import i18n

HOURS = 168
SHARED_MODES = frozenset({"dedicated_hosting", "bare_metal", "private_cloud", "on_premises"})
# The hour a consumer service's daily cycle peaks (local evening) and the hour a moved run
# starts from by preference (after midnight): product assumptions, stated in the note.
PEAK_HOUR = 20
PREFERRED_START = 1
_TRAINING = frozenset({"pretraining", "fine_tuning"})
_PERIOD = {"daily": 24, "weekly": HOURS, "project_cycles": HOURS, "ad_hoc": HOURS}


@dataclass(frozen=True, slots=True)
class Job:
    """A workload's runs: `units` servers for `hours` every `period` hours (None: always on,
    `profile` servers per hour of the week), starting at one of `starts`."""

    kind: str
    units: int
    hours: int
    period: int | None
    starts: tuple[int, ...]
    profile: tuple[int, ...] = ()
    spare: int = 0  # a service's spare servers, free for runs that yield to it


def plan(
    answers: vocabulary.Answers,
    best_options: Sequence[Mapping[str, Any]],
    modes: Mapping[str, str],
    catalog: Catalog,
    lang: str,
) -> dict[str, Any] | None:
    """The team's fleets where two or more workloads' first options could share servers
    (None when none could): each group shared or separate, with its schedule and money."""
    groups: dict[tuple[str, str, str, str], list[Mapping[str, Any]]] = {}
    for o in best_options:
        unit = o.get("unit")
        mode = modes.get(str(o["workload"]), "")
        if not unit or mode not in SHARED_MODES or o.get("monthly_cost_usd") is None:
            continue
        used = o.get("billing_used")
        price = (o.get("prices") or {}).get(used) if used else None
        provider = str((price or {}).get("provider") or "")
        groups.setdefault((str(o["accelerator_id"]), mode, provider, str(unit["name"])), []).append(
            o
        )
    docs = [
        _group(answers, key, options, catalog, lang)
        for key, options in groups.items()
        if len(options) > 1
    ]
    if not docs:
        return None
    return {
        "groups": docs,
        "saves_usd_per_month": round(sum(g["saves_usd_per_month"] for g in docs), 2),
        "solver": "HiGHS (highspy)",
    }


def _job(answers: vocabulary.Answers, o: Mapping[str, Any], catalog: Catalog) -> Job:
    kind = str(o["workload"])
    units = int(o["unit"]["count"])
    schedule = next((w.schedule for w in answers.workloads if w.kind == kind), "continuous")
    inf = answers.inference
    if kind == "realtime_inference" or schedule == "continuous":
        # A production service's spare server stands by for a failed one: runs that yield to
        # the service when a server fails (batch work, a fine-tune) may use it meanwhile.
        gpus = max(1, int(o["unit"]["gpus"]))
        spare = -(-int((o.get("redundancy") or {}).get("spare_devices") or 0) // gpus)
        units = max(1, units - spare)
        profile = [units] * HOURS
        if kind == "realtime_inference" and inf is not None and inf.traffic == "daily_cycle":
            ratio = float(catalog.rule("traffic_peak_to_mean")["daily_cycle"])
            for t in range(HOURS):
                swing = math.cos(2.0 * math.pi * ((t % 24) - PEAK_HOUR) / 24.0)
                load = max(1.0 / ratio, (1.0 + (ratio - 1.0) * swing) / ratio)
                profile[t] = min(units, math.ceil(units * load - 1e-9))
        return Job(kind, units, HOURS, None, (), tuple(profile), spare)
    if kind in _TRAINING:
        run = float(o.get("hours") or 0.0) + float((o.get("run_overhead") or {}).get("hours") or 0)
        period = _PERIOD.get(schedule, HOURS)
    else:
        # Batch work runs every day, its run's hours with start-up (or its busy hours a month
        # spread over the days).
        run = float((o.get("overhead") or {}).get("run_hours") or 0.0) or (
            float(o.get("hours") or 0.0) * 24.0 / catalog.hours_per_month
        )
        period = 24
    hours = max(1, math.ceil(run - 1e-9))
    if hours >= period:
        return Job(kind, units, HOURS, None, (), (units,) * HOURS)
    starts = tuple(range(period))
    if kind == "batch_inference" and inf is not None and inf.batch_window_hours is not None:
        start = int(inf.batch_window_start_hour or 0)
        window = int(inf.batch_window_hours)
        inside = tuple((start + s) % 24 for s in range(max(0, window - hours) + 1))
        starts = inside or starts
    return Job(kind, units, hours, period, starts)


def _covers(job: Job, start: int, t: int) -> bool:
    period = job.period or HOURS
    return (
        (t - start) % period < job.hours if period == HOURS else (t % 24 - start) % 24 < job.hours
    )


def _solve(jobs: Sequence[Job]) -> tuple[int, dict[str, int]] | None:
    """Fewest servers that carry every job at its hours, and each moved job's start (hour of
    the week, or of the day for a daily run); None when HiGHS finds no optimum."""
    base = [sum(j.profile[t] for j in jobs if j.period is None) for t in range(HOURS)]
    spares = sum(j.spare for j in jobs)
    moved = [j for j in jobs if j.period is not None]
    if all(j.period != HOURS or len(j.starts) == HOURS for j in moved):
        # Every day of the week is the same until a weekly run is placed: the first weekly run
        # starts on the first day without loss of generality (far fewer choices to search).
        first = next((j for j in moved if j.period == HOURS), None)
        moved = [
            dataclasses.replace(j, starts=tuple(range(24))) if j is first else j for j in moved
        ]
    total = sum(j.units + j.spare for j in jobs)
    h = _core._Highs()  # the public subclass prints a banner before options can be set
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", 2.0)
    cols = [(j, s) for j in moved for s in j.starts]
    n = 1 + len(cols)
    lower = np.zeros(n)
    upper = np.ones(n)
    lower[0] = float(max(max(base) + spares, max((j.units for j in moved), default=0)))
    upper[0] = float(total)
    h.addVars(n, lower, upper)
    h.changeColCost(0, 1.0)
    for i, s in enumerate((s for _j, s in cols), 1):
        # A small preference for runs after midnight, far below one server.
        h.changeColCost(i, 1e-4 * ((s % 24 - PREFERRED_START) % 24) / 24.0)
    for i in range(n):
        h.changeColIntegrality(i, highspy.HighsVarType.kInteger)
    for j in moved:
        idx = [i for i, (jj, _s) in enumerate(cols, 1) if jj is j]
        h.addRow(1.0, 1.0, len(idx), np.array(idx, dtype=np.int32), np.ones(len(idx)))
    for t in range(HOURS):
        idx = [0] + [i for i, (j, s) in enumerate(cols, 1) if _covers(j, s, t)]
        vals = [-1.0] + [float(cols[i - 1][0].units) for i in idx[1:]]
        h.addRow(
            -highspy.kHighsInf,
            -float(base[t]),
            len(idx),
            np.array(idx, dtype=np.int32),
            np.array(vals),
        )
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    x = h.getSolution().col_value
    starts = {j.kind: s for i, (j, s) in enumerate(cols, 1) if x[i] > 0.5}
    return round(x[0]), starts


def _group(
    answers: vocabulary.Answers,
    key: tuple[str, str, str, str],
    options: Sequence[Mapping[str, Any]],
    catalog: Catalog,
    lang: str,
) -> dict[str, Any]:
    card, mode, provider, server = key
    jobs = [_job(answers, o, catalog) for o in options]
    separate_units = sum(j.units + j.spare for j in jobs)
    # The same workloads recur across the evaluations of one team (languages, what-ifs).
    solved = catalog.memo(("fleet", tuple(jobs)), lambda: _solve(jobs))
    shared_units, starts = solved if solved is not None else (separate_units, {})
    gpus = int(options[0]["unit"]["gpus"])
    # Side by side: the workloads' cards together, all the time, in fewer servers than in time.
    share = float(catalog.rule("target_safety_share"))
    packed = _packed(options, jobs, gpus, share)
    together = packed is not None and packed < shared_units
    if together and packed is not None:
        shared_units, starts = packed, {}
    per_unit = max(
        float(o["compute_usd_per_month"][o["billing_used"]]) / int(o["unit"]["count"])
        for o in options
    )
    separate = sum(float(o["compute_usd_per_month"][o["billing_used"]]) for o in options)
    shared_usd = shared_units * per_unit
    shared = shared_units < separate_units and shared_usd < separate - 0.005
    name = str(options[0]["name"])
    runs = (
        [_side_doc(o, j, share) for o, j in zip(options, jobs, strict=True)]
        if together
        else [_run_doc(j, starts.get(j.kind)) for j in jobs]
    )
    kinds = [j.kind for j in jobs]
    doc: dict[str, Any] = {
        "accelerator_id": card,
        "name": name,
        "deployment_mode": mode,
        "provider": provider or None,
        "server": server,
        "gpus_per_server": gpus,
        "side_by_side": together,
        "workloads": kinds,
        "runs": runs,
        "shared": shared,
        "servers_shared": shared_units if shared else separate_units,
        "servers_separate": separate_units,
        "usd_per_server_month": round(per_unit, 2),
        "usd_per_month_shared": round(shared_usd if shared else separate, 2),
        "usd_per_month_separate": round(separate, 2),
        "saves_usd_per_month": round(separate - shared_usd, 2) if shared else 0.0,
    }
    words = {
        "kinds": i18n.list_separator(lang).join(i18n.label(k, lang) for k in kinds),
        "server": server,
        "card": name,
        "units": doc["servers_shared"],
        "separate": separate_units,
    }
    if shared and together:
        doc["statement"] = i18n.message(
            "fleet.together",
            lang,
            **words,
            cards=i18n.message("list.clause_separator", lang).join(
                i18n.message(
                    "fleet.run.cards_hours" if "hours" in r else "fleet.run.cards",
                    lang,
                    kind=i18n.label(str(r["workload"]), lang),
                    cards=r["cards"],
                    hours=r.get("hours"),
                )
                for r in runs
            ),
            saves=f"{doc['saves_usd_per_month']:,.0f}",
        )
    elif shared:
        doc["statement"] = i18n.message(
            "fleet.shared",
            lang,
            **words,
            schedule=i18n.message("list.clause_separator", lang).join(
                _run_words(r, lang) for r in runs
            ),
            saves=f"{doc['saves_usd_per_month']:,.0f}",
        )
    else:
        doc["reason"] = "no_quiet_hours"
        doc["statement"] = i18n.message("fleet.separate", lang, **words)
    return doc


# Side-by-side packing pays off for fleets of a few servers; beyond this many cards a workload
# fills its own servers (and the list of groups would grow with the answers).
_MAX_PACKED_CARDS = 4096


def _cards(option: Mapping[str, Any], share: float = 0.0) -> tuple[int, int]:
    """(cards a workload holds, cards of one group that must sit in one server): a service's
    replicas without its spare, a batch run's replicas; a training run stretched to a whole
    server it paid for (`min_count` below `count`) shrinks back to the fewest cards that still
    finish inside its target with the catalog's safety `share` to spare."""
    spare = int((option.get("redundancy") or {}).get("spare_devices") or 0)
    cards = max(1, int(option["count"]) - spare)
    group = int(option.get("tensor_parallel") or 1) * int(option.get("pipeline_parallel") or 1)
    least = int(option.get("min_count") or cards)
    limit = float(option.get("target_hours") or 0.0) * (1.0 - share)
    hours = float(option.get("hours") or 0.0)
    if str(option["workload"]) in _TRAINING and least < cards and limit > 0 and hours > 0:
        needed = max(least, math.ceil(cards * hours / limit - 1e-9))
        cards = max(group, -(-min(cards, needed) // group) * group)
    return cards, max(1, group)


def _packed(
    options: Sequence[Mapping[str, Any]], jobs: Sequence[Job], gpus: int, share: float = 0.0
) -> int | None:
    """Servers that hold every workload's cards at once, each group inside one server (first fit
    of the largest groups first), plus the services' spare servers; None when a group is larger
    than a server."""
    groups: list[int] = []
    for o in options:
        cards, group = _cards(o, share)
        if group > gpus or cards > _MAX_PACKED_CARDS:
            return None  # a group no server holds; a fleet too large to matter side by side
        if str(o["workload"]) in _TRAINING:
            # Data-parallel training: whole servers' worth of cards, and the rest together.
            groups += [gpus] * (cards // gpus) + ([cards % gpus] if cards % gpus else [])
        else:
            groups += [group] * -(-cards // group)
    free: list[int] = []
    for g in sorted(groups, reverse=True):
        slot = next((i for i, f in enumerate(free) if f >= g), None)
        if slot is None:
            free.append(gpus - g)
        else:
            free[slot] -= g
    return len(free) + sum(j.spare for j in jobs)


def _side_doc(option: Mapping[str, Any], job: Job, share: float) -> dict[str, Any]:
    cards = _cards(option, share)[0]
    return {
        "workload": job.kind,
        "cards": cards,
        # A training run on fewer cards than it was priced with takes that much longer.
        **(
            {"hours": round(float(option["hours"]) * int(option["count"]) / cards, 1)}
            if job.kind in _TRAINING and option.get("hours")
            else {}
        ),
        "always": True,
        "side_by_side": True,
        **({"spare_servers": job.spare} if job.spare else {}),
    }


def _run_doc(job: Job, start: int | None) -> dict[str, Any]:
    if job.period is None:
        return {
            "workload": job.kind,
            "servers": job.units,
            "always": True,
            "servers_by_hour": list(job.profile[:24]),
            **({"spare_servers": job.spare} if job.spare else {}),
        }
    return {
        "workload": job.kind,
        "servers": job.units,
        "always": False,
        "every_hours": job.period,
        "hours": job.hours,
        "start_hour_of_week" if job.period == HOURS else "start_hour": start,
    }


def _run_words(run: Mapping[str, Any], lang: str) -> str:
    kind = i18n.label(str(run["workload"]), lang)
    if run["always"]:
        by_hour = run["servers_by_hour"]
        low, high = min(by_hour), max(by_hour)
        said = (
            i18n.message("fleet.run.always", lang, kind=kind, servers=high)
            if low == high
            else i18n.message("fleet.run.cycle", lang, kind=kind, high=high, low=low)
        )
        if run.get("spare_servers"):
            said += i18n.message("fleet.run.spare", lang, spare=run["spare_servers"])
        return said
    if run["every_hours"] == 24:
        return i18n.message(
            "fleet.run.daily",
            lang,
            kind=kind,
            servers=run["servers"],
            start=f"{int(run['start_hour']):02d}:00",
            hours=run["hours"],
        )
    start = int(run.get("start_hour_of_week") or 0)
    return i18n.message(
        "fleet.run.weekly",
        lang,
        kind=kind,
        servers=run["servers"],
        day=i18n.message(f"fleet.day.{start // 24}", lang),
        start=f"{start % 24:02d}:00",
        hours=run["hours"],
    )
