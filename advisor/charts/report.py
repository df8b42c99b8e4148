"""The report's charts: memory needed against usable memory, monthly cost against utilisation,
training time against cost per run, and serving cost per million output tokens."""

from __future__ import annotations

from typing import Any

import pygal
from django.utils.translation import gettext as _
from django.utils.translation import override

from advisor.charts.results import (
    BILLING_LABELS,
    FIXED_SLOTS,
    HOURLY_SLOTS,
    INFERENCE_KINDS,
    TRAINING_KINDS,
    chosen_option,
    option_run_cost,
    option_token_cost,
    pinned_catalog,
    workloads_of,
)
from advisor.charts.svg import (
    NAME_CHARS,
    PALETTE,
    TITLE_CHARS,
    chart_config,
    chart_style,
    fit,
    nice_ticks,
    render_svg,
    usd,
)
from advisor.engine.result.document import (
    InferenceSizing,
    Option,
    ResultDocument,
    TrainingSizing,
    Workload,
)
from advisor.engine.sizing import usable_gib
from advisor.labels import label_for

MEMORY_PARTS = ("weights", "gradients", "optimizer", "activations", "kv_cache", "other")

MEMORY_COLORS = {
    "weights": "#1f5f8b",
    "gradients": "#e07b39",
    "optimizer": "#3a9d5d",
    "activations": "#8e5ea2",
    "kv_cache": "#c8423b",
    "other": "#d4a72c",
}
CAPACITY_COLOR = "#b9c3cc"


def _hours_per_month(result: ResultDocument) -> float:
    # The catalog's sourced figure, as every result records it (no constant to drift from it).
    return float(result["cost"]["figures_used"]["hours_per_month"]["value"])


# --- memory -----------------------------------------------------------------------------------


def _memory_candidates(
    result: ResultDocument, phase: str, sizing: TrainingSizing | InferenceSizing
) -> list[tuple[str, str, int]]:
    """(accelerator id, name, min devices) for the accelerators the workloads' options list;
    when no workload lists options, every accelerator the sizing found a device count for."""
    kinds = TRAINING_KINDS if phase == "training" else INFERENCE_KINDS
    names: dict[str, str] = {}
    for w in workloads_of(result, kinds):
        for o in w["options"]:
            names.setdefault(o["accelerator_id"], o["name"])
    min_devices = sizing["min_devices"]
    if not names:
        catalog = pinned_catalog(result)
        by_id = catalog.by_id if catalog is not None else {}
        names = {
            acc_id: (by_id[acc_id].name if acc_id in by_id else acc_id)
            for acc_id, n in min_devices.items()
            if n
        }
    return [(acc_id, name, n) for acc_id, name in names.items() if (n := min_devices.get(acc_id))]


def memory_chart(result: ResultDocument, language: str, *, phase: str | None = None) -> str | None:
    """Memory needed (stacked by component) against each candidate's usable memory × the fewest
    devices it takes. `phase` is "training" or "inference"; None picks the first with sizing."""
    by_phase = {
        "training": result["sizing"]["training"],
        "inference": result["sizing"]["inference"],
    }
    if phase is None:
        phase = next((p for p, found in by_phase.items() if found), None)
    sizing = by_phase.get(phase) if phase else None
    if not sizing or not sizing["memory_gib"]:
        return None
    memory = sizing["memory_gib"]
    # Usable memory comes from the device figures of the catalog version the result used (the
    # result stores only the counts), never from the one published today.
    catalog = pinned_catalog(result)
    candidates = [
        (name, n, usable_gib(catalog.by_id[acc_id], catalog) * n)
        for acc_id, name, n in _memory_candidates(result, phase or "", sizing)
        if catalog is not None and acc_id in catalog.by_id
    ]
    candidates.sort(key=lambda c: c[2])
    candidates = candidates[:10]
    parts = [p for p in MEMORY_PARTS if p in memory]
    top = max([float(memory.get("total") or 0.0), *[cap for _n, _c, cap in candidates]])
    ticks = nice_ticks(top)
    with override(language):
        needed = _("Memory needed")
        rows = [fit(needed)] + [f"{fit(name, NAME_CHARS)} × {n}" for name, n, _cap in candidates]
        chart = pygal.HorizontalStackedBar(
            **chart_config(
                height=max(260, 150 + 30 * len(rows)),
                x_title=_("GiB"),
                value_formatter=lambda v: f"{v:,.0f}",
                y_labels=ticks,
                range=(0, ticks[-1]),
                # One colour per memory component, grey for the capacity bars.
                style=chart_style([MEMORY_COLORS[p] for p in parts] + [CAPACITY_COLOR]),
            )
        )
        chart.title = fit(
            _("Training memory: need vs usable memory")
            if phase == "training"
            else _("Serving memory: need vs usable memory"),
            TITLE_CHARS,
        )
        # pygal draws the first label at the bottom; reverse so the need bar sits on top.
        chart.x_labels = list(reversed(rows))
        padding = [None] * len(candidates)
        for part in parts:
            value = float(memory.get(part) or 0.0)
            chart.add(fit(label_for("memory", part)), list(reversed([value, *padding])))
        chart.add(
            fit(_("Usable memory × devices")),
            list(reversed([None, *[round(cap, 1) for _n, _c, cap in candidates]])),
        )
        return render_svg(chart)


# --- cost against utilisation -----------------------------------------------------------------


def _price_lines(option: Option, hours_per_month: float) -> dict[str, tuple[str, float]]:
    """slot -> ("hourly" | "fixed", USD per month at 100% use (hourly) or flat (fixed))."""
    count = float(option["count"])
    lines: dict[str, tuple[str, float]] = {}
    for slot, price in option["prices"].items():
        if not price:
            continue
        per_hour: float | None = price["usd_per_device_hour"]
        per_month: float | None = price["usd_per_device_month"]
        if slot in HOURLY_SLOTS and per_hour is not None:
            lines[slot] = ("hourly", float(per_hour) * count * hours_per_month)
        elif slot in FIXED_SLOTS:
            # Committed and monthly capacity is paid whether it is used or not.
            if per_month is not None:
                lines[slot] = ("fixed", float(per_month) * count)
            elif per_hour is not None:
                lines[slot] = ("fixed", float(per_hour) * count * hours_per_month)
    return lines


def cost_chart(result: ResultDocument, language: str, *, workload: str | None = None) -> str | None:
    """Monthly compute cost of the recommended option against utilisation (0–100%) for every
    billing it has a price for, with each break-even point against on-demand marked and the
    workload's own utilisation drawn as a dashed line. `workload` is a kind; None picks the
    first workload whose chosen option has a price."""
    for w in result["workloads"]:
        if workload is not None and w["kind"] != workload:
            continue
        option = chosen_option(result, w)
        if option is None:
            continue
        lines = _price_lines(option, _hours_per_month(result))
        if lines:
            return _cost_svg(result, w, option, lines, language)
    return None


def _cost_svg(
    result: ResultDocument,
    w: Workload,
    option: Option,
    lines: dict[str, tuple[str, float]],
    language: str,
) -> str:
    ticks = nice_ticks(max(v for _k, v in lines.values()))
    with override(language):
        chart = pygal.XY(
            **chart_config(
                x_title=_("Utilisation (share of the month in use)"),
                y_title=_("USD per month"),
                range=(0, ticks[-1]),
                y_labels=ticks,
                xrange=(0, 100),
                x_labels=[0, 20, 40, 60, 80, 100],
                x_value_formatter=lambda x: f"{x:.0f}%",
                value_formatter=usd,
                show_dots=False,
                dots_size=5,
            )
        )
        chart.title = fit(
            _("%(option)s × %(count)s: monthly cost against utilisation")
            % {"option": fit(option["name"], NAME_CHARS), "count": option["count"]},
            TITLE_CHARS,
        )
        for slot, (shape, value) in lines.items():
            points = [(0, 0.0), (100, value)] if shape == "hourly" else [(0, value), (100, value)]
            chart.add(fit(BILLING_LABELS[slot]), points)
        marks: list[dict[str, Any]] = []
        od = lines.get("on_demand")
        for slot, share in option["break_even_utilisation"].items():
            if share is None or slot not in lines or od is None:
                continue
            x = float(share) * 100
            if 0 <= x <= 100:
                marks.append(
                    {
                        "value": (x, od[1] * float(share)),
                        "label": fit(
                            _("break-even vs %(billing)s: %(share).0f%%")
                            % {"billing": BILLING_LABELS[slot], "share": x}
                        ),
                    }
                )
        if marks:
            chart.add(
                fit(_("Break-even")),
                marks,
                stroke=False,
                show_dots=True,
                dots_size=6,
                print_labels=True,
            )
        utilisation = option["utilisation"]
        if utilisation is not None:
            x = min(100.0, utilisation * 100)
            top = max(v for _k, v in lines.values())
            chart.add(
                fit(_("Your utilisation (%(share).0f%%)") % {"share": x}),
                [(x, 0.0), (x, top)],
                stroke_style={"dasharray": "6, 4", "width": 1.5},
            )
        return render_svg(chart)


def short_name(name: str) -> str:
    """'NVIDIA H100 SXM 80GB × 2' -> 'H100 SXM 80GB × 2': point labels need to be short."""
    for prefix in ("NVIDIA ", "AMD Instinct ", "AMD ", "Google Cloud TPU ", "Google Cloud "):
        if name.startswith(prefix):
            name = name[len(prefix) :]
            break
    return name.replace(" (HGX)", "").replace(" (Trillium)", "").replace(" (Ironwood)", "")


def time_cost_chart(result: ResultDocument, language: str) -> str | None:
    """Training: hours per run against cost per run, one labelled point per option, so a dearer
    card that finishes sooner shows up to the left."""
    points: list[tuple[str, float, float, bool]] = []
    for w in workloads_of(result, TRAINING_KINDS):
        for o in w["options"]:
            cost, _slot = option_run_cost(o)
            if cost is None:
                continue
            name = f"{fit(o['name'], NAME_CHARS)} × {o['count']}"
            if len(workloads_of(result, TRAINING_KINDS)) > 1:
                name = f"{name} ({label_for('kind', w['kind'])})"
            points.append((name, o["hours"], cost, o.get("meets_deadline") is not False))
    if not points:
        return None
    y_ticks = nice_ticks(max(p[2] for p in points) * 1.1)
    x_ticks = nice_ticks(max(p[1] for p in points) * 1.1)
    with override(language):
        chart = pygal.XY(
            **chart_config(
                height=420,
                x_title=_("Hours per run (time to result)"),
                y_title=_("USD per run"),
                stroke=False,
                dots_size=7,
                print_labels=True,
                value_formatter=usd,
                x_value_formatter=lambda x: f"{x:,.0f} h" if x >= 10 else f"{x:,.1f} h",
                range=(0, y_ticks[-1]),
                xrange=(0, x_ticks[-1]),
                y_labels=y_ticks,
                x_labels=x_ticks,
            )
        )
        chart.title = fit(_("Training: time to result against cost per run"), TITLE_CHARS)
        late = _("misses the deadline")
        for name, hours, cost, meets in points:
            title = name if meets else f"{name} — {late}"
            chart.add(
                fit(title, TITLE_CHARS), [{"value": (hours, cost), "label": fit(short_name(name))}]
            )
        return render_svg(chart)


def serving_chart(result: ResultDocument, language: str) -> str | None:
    """Inference: USD per million output tokens per option (at the billing each option uses)."""
    rows: list[tuple[str, float, bool]] = []
    workloads = workloads_of(result, INFERENCE_KINDS)
    for w in workloads:
        chosen = chosen_option(result, w)
        for o in w["options"]:
            cost, slot = option_token_cost(o)
            if cost is None:
                continue
            name = f"{fit(o['name'], NAME_CHARS)} × {o['count']}"
            if slot:
                name = f"{name}, {BILLING_LABELS[slot]}" if slot in BILLING_LABELS else name
            if len(workloads) > 1:
                name = f"{label_for('kind', w['kind'])}: {name}"
            is_chosen = chosen is not None and o["accelerator_id"] == chosen["accelerator_id"]
            rows.append((name, cost, is_chosen))
    if not rows:
        return None
    rows.sort(key=lambda r: r[1])
    rows = rows[:12]
    ticks = nice_ticks(max(r[1] for r in rows) * 1.15)
    with override(language):
        chart = pygal.HorizontalBar(
            **chart_config(
                height=max(240, 110 + 30 * len(rows)),
                x_title=_("USD per million output tokens"),
                show_legend=False,
                value_formatter=lambda v: f"${v:,.2f}",
                y_labels=ticks,
                range=(0, ticks[-1]),
            )
        )
        chart.title = fit(_("Serving: cost per million output tokens"), TITLE_CHARS)
        ordered = list(reversed(rows))
        chart.x_labels = [fit(name) for name, _cost, _chosen in ordered]
        chart.add(
            fit(_("USD per million output tokens")),
            [
                {"value": cost, "color": PALETTE[1] if chosen else PALETTE[0]}
                for _name, cost, chosen in ordered
            ],
        )
        return render_svg(chart)
