"""Report charts: a result document in, SVG text out (pygal).

Pages embed the SVG as `<img src="data:...">` rather than inline: pygal puts a `<style>` element in
its SVG, which the site's `style-src 'self'` CSP forbids inline but allows inside an isolated image.
WeasyPrint renders the same data URIs, so the web page and the PDF show the same pictures.
"""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Iterable
from typing import Any

import pygal
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, override
from pygal.style import Style

from advisor.decisions import pinned
from advisor.engine import Catalog
from advisor.engine.document import (
    InferenceSizing,
    Option,
    ResultDocument,
    TrainingSizing,
    Workload,
)
from advisor.engine.sizing import usable_gib
from advisor.labels import label_for

# The same family the PDF body uses; Noto Sans CJK covers Latin too, so one stack serves both
# languages. Stated on the chart's own style because an SVG image does not inherit page fonts.
FONT_FAMILY = '"Noto Sans CJK TC", "Noto Sans TC", "Noto Sans", sans-serif'

# Viewbox in px; the page scales the image to the A4 text width (about 170 mm).
WIDTH = 760
HEIGHT = 380

# Longest text a chart shows, in characters. Names come from the catalog (up to 100 characters,
# set by admins); pygal sizes its margins from label widths and, once a label is wider than the
# picture, splits the axis title for a negative width forever (the worker grew to 1.7 GB).
NAME_CHARS = 32
LABEL_CHARS = 72
TITLE_CHARS = 90

TRAINING_KINDS = ("pretraining", "fine_tuning")
INFERENCE_KINDS = ("realtime_inference", "batch_inference")
MEMORY_PARTS = ("weights", "gradients", "optimizer", "activations", "kv_cache", "other")
HOURLY_SLOTS = ("on_demand", "spot", "capacity_block")
FIXED_SLOTS = ("commit_1y", "commit_3y", "monthly")

BILLING_LABELS: dict[str, Promise] = {
    "on_demand": gettext_lazy("On-demand (hourly)"),
    "spot": gettext_lazy("Spot"),
    "capacity_block": gettext_lazy("Capacity block"),
    "flex_start": gettext_lazy("Flex-start (queued)"),
    "commit_1y": gettext_lazy("1-year commitment"),
    "commit_3y": gettext_lazy("3-year commitment"),
    "monthly": gettext_lazy("Monthly dedicated"),
    "monthly_fixed": gettext_lazy("Fixed monthly"),
    "purchase": gettext_lazy("Purchase or lease"),
}

MEMORY_COLORS = {
    "weights": "#1f5f8b",
    "gradients": "#e07b39",
    "optimizer": "#3a9d5d",
    "activations": "#8e5ea2",
    "kv_cache": "#c8423b",
    "other": "#d4a72c",
}
CAPACITY_COLOR = "#b9c3cc"

# Short names for table headers, where eleven columns share the page width.
BILLING_SHORT_LABELS: dict[str, Promise] = {
    "on_demand": gettext_lazy("On-demand"),
    "spot": gettext_lazy("Spot"),
    "capacity_block": gettext_lazy("Cap. block"),
    "commit_1y": gettext_lazy("1-yr commit"),
    "commit_3y": gettext_lazy("3-yr commit"),
    "monthly": gettext_lazy("Monthly"),
}

PALETTE = (
    "#1f5f8b",  # deep blue
    "#e07b39",  # orange
    "#3a9d5d",  # green
    "#8e5ea2",  # purple
    "#c8423b",  # red
    "#7a8793",  # grey
    "#d4a72c",  # ochre
    "#2aa1b3",  # teal
    "#5b4a3f",
    "#b5548c",
    "#6f9a2e",
    "#35495e",
)


def _style(colors: Iterable[str] = PALETTE) -> Style:
    return Style(
        font_family=FONT_FAMILY,
        label_font_family=FONT_FAMILY,
        major_label_font_family=FONT_FAMILY,
        legend_font_family=FONT_FAMILY,
        title_font_family=FONT_FAMILY,
        value_font_family=FONT_FAMILY,
        value_label_font_family=FONT_FAMILY,
        tooltip_font_family=FONT_FAMILY,
        no_data_font_family=FONT_FAMILY,
        background="#ffffff",
        plot_background="#ffffff",
        foreground="#222222",
        foreground_strong="#111111",
        foreground_subtle="#666666",
        guide_stroke_color="#dddddd",
        major_guide_stroke_color="#cccccc",
        colors=tuple(colors),
        opacity=".9",
        opacity_hover=".9",
        transition="0ms",
        title_font_size=15,
        label_font_size=12,
        major_label_font_size=12,
        legend_font_size=12,
        value_font_size=11,
        value_label_font_size=11,
        stroke_width=2.5,
    )


def fit(text: object, limit: int = LABEL_CHARS) -> str:
    """`text` as a chart shows it: at most `limit` characters, an ellipsis where it was cut.

    Every label, legend entry and title goes through here before pygal sees it."""
    value = " ".join(str(text).split())
    return value if len(value) <= limit else value[: limit - 1].rstrip() + "…"


def _config(**overrides: Any) -> dict[str, Any]:
    """Options every chart shares: static SVG (no JavaScript, no XML prologue), A4-friendly size."""
    options: dict[str, Any] = {
        "js": [],
        "disable_xml_declaration": True,
        "width": WIDTH,
        "height": HEIGHT,
        "explicit_size": False,
        "legend_at_bottom": True,
        # Leave the column count to pygal: with it set, pygal 3.1 reserves too few legend rows and
        # the legend falls outside the picture.
        "legend_at_bottom_columns": None,
        "truncate_legend": -1,
        "truncate_label": -1,
        "margin": 12,
        "spacing": 10,
        "style": _style(),
        "tooltip_border_radius": 0,
    }
    options.update(overrides)
    for key in ("x_title", "y_title"):
        if options.get(key):
            options[key] = fit(options[key], TITLE_CHARS)
    return options


_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)
# What pygal writes only for its JavaScript tooltips and hover effects: per-value <desc> data,
# <title> tooltips on the axis guides, the (invisible) tooltip layer, comments, and style rules
# for hover, tooltip, active and transition states. A static picture draws none of it, and every
# node and rule costs WeasyPrint time (the PDF parses, styles and walks each chart's whole tree).
_DESC = re.compile(r"<desc\b[^>]*>[^<]*</desc>")
_TITLE = re.compile(r"<title>[^<]*</title>")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_TOOLTIP_LAYER = re.compile(
    r'<g [^>]*class="plot tooltip-overlay"><g [^>]*class="tooltip">'
    r'<rect [^>]*/><g class="text" /></g></g>'
)
# A bar without a width or a height draws nothing (pygal writes the stacked chart's empty cells).
_BAR = re.compile(r'<g class="bar"><rect ([^>]*)/></g>')
_STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.DOTALL)
_UNUSED_RULE = re.compile(
    r":hover|\.tooltip|\.active|\.map-element|\.gauge-background|\.bg-lines|\.no_data"
    r"|\.bound|\.max-value|\.ci\b|\.xlink|\.subtle-fill"
)


def _static_css(css: str) -> str:
    rules = []
    for rule in css.split("}"):
        selector, _brace, body = rule.partition("{")
        if not body.strip() or _UNUSED_RULE.search(selector):
            continue
        declarations = [d for d in body.split(";") if d.strip() and "transition" not in d]
        if declarations:
            rules.append(f"{selector.strip()}{{{';'.join(declarations)}}}")
    return "".join(rules)


def _drop_empty_bar(match: re.Match[str]) -> str:
    attributes = match.group(1)
    return (
        match.group(0) if " width=" in f" {attributes}" and " height=" in f" {attributes}" else ""
    )


def _render(chart: Any) -> str:
    # pygal writes its config as a <script> even with js=[]; an <img> never runs it, but the
    # SVG is also a download and must stay static.
    svg = _SCRIPT.sub("", str(chart.render(is_unicode=True)))
    svg = _COMMENT.sub("", _DESC.sub("", _TOOLTIP_LAYER.sub("", svg)))
    svg = _BAR.sub(_drop_empty_bar, svg).replace(" tooltip-trigger", "")
    # The first <title> names the chart (kept for a downloaded SVG); the rest are tooltips.
    head, found, tail = svg.partition("</title>")
    if found:
        svg = head + found + _TITLE.sub("", tail)
    return _STYLE.sub(lambda m: m.group(1) + _static_css(m.group(2)) + m.group(3), svg, count=1)


def as_data_uri(svg: str) -> str:
    """`data:image/svg+xml;base64,...` for an `<img src>` (see the module docstring for why)."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def nice_ticks(top: float, count: int = 5) -> list[float]:
    """0 and round steps (1, 2, 2.5 or 5 × 10^n) up to at least `top`, about `count` of them."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    return [i * step for i in range(math.ceil(top / step - 1e-9) + 1)]


def _usd(value: float) -> str:
    return f"${value:,.0f}" if abs(value) >= 10 else f"${value:,.2f}"


def _hours_per_month(result: ResultDocument) -> float:
    # The catalog's sourced figure, as every result records it (no constant to drift from it).
    return float(result["cost"]["figures_used"]["hours_per_month"]["value"])


def pinned_catalog(result: ResultDocument) -> Catalog | None:
    """The catalog version the result was computed with (see pinned.catalog_at)."""
    return pinned.catalog_at(str(result["versions"]["catalog"]))


def workloads_of(result: ResultDocument, kinds: Iterable[str]) -> list[Workload]:
    wanted = set(kinds)
    return [w for w in result["workloads"] if w["kind"] in wanted]


def chosen_option(result: ResultDocument, workload: Workload) -> Option | None:
    """The option the cost summary used for this workload (else the first, the cheapest)."""
    options = workload["options"]
    if not options:
        return None
    for entry in result["cost"]["by_workload"]:
        if entry["workload"] == workload["kind"]:
            for option in options:
                if option["accelerator_id"] == entry["accelerator_id"]:
                    return option
    return options[0]


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
            **_config(
                height=max(260, 150 + 30 * len(rows)),
                x_title=_("GiB"),
                value_formatter=lambda v: f"{v:,.0f}",
                y_labels=ticks,
                range=(0, ticks[-1]),
                # One colour per memory component, grey for the capacity bars.
                style=_style([MEMORY_COLORS[p] for p in parts] + [CAPACITY_COLOR]),
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
        return _render(chart)


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
            **_config(
                x_title=_("Utilisation (share of the month in use)"),
                y_title=_("USD per month"),
                range=(0, ticks[-1]),
                y_labels=ticks,
                xrange=(0, 100),
                x_labels=[0, 20, 40, 60, 80, 100],
                x_value_formatter=lambda x: f"{x:.0f}%",
                value_formatter=_usd,
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
        return _render(chart)


# --- time to result vs cost (training) ---------------------------------------------------------


def _run_cost(option: Option) -> tuple[float | None, str | None]:
    costs = option.get("cost_per_run_usd") or {}  # training options only
    used = option["billing_used"]
    cost = costs.get(used) if used else None
    if cost is not None:
        return cost, used
    for slot in HOURLY_SLOTS:
        cost = costs.get(slot)
        if cost is not None:
            return cost, slot
    return None, None


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
            cost, _slot = _run_cost(o)
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
            **_config(
                height=420,
                x_title=_("Hours per run (time to result)"),
                y_title=_("USD per run"),
                stroke=False,
                dots_size=7,
                print_labels=True,
                value_formatter=_usd,
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
        return _render(chart)


# --- serving cost (inference) ------------------------------------------------------------------


def _token_cost(option: Option) -> tuple[float | None, str | None]:
    costs = option.get("cost_per_million_output_tokens_usd") or {}  # serving options only
    used = option["billing_used"]
    cost = costs.get(used) if used else None
    if cost is not None:
        return cost, used
    for slot in (*HOURLY_SLOTS, *FIXED_SLOTS):
        cost = costs.get(slot)
        if cost is not None:
            return cost, slot
    return None, None


def serving_chart(result: ResultDocument, language: str) -> str | None:
    """Inference: USD per million output tokens per option (at the billing each option uses)."""
    rows: list[tuple[str, float, bool]] = []
    workloads = workloads_of(result, INFERENCE_KINDS)
    for w in workloads:
        chosen = chosen_option(result, w)
        for o in w["options"]:
            cost, slot = _token_cost(o)
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
            **_config(
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
        return _render(chart)


# --- impact preview -----------------------------------------------------------------------


def score_shift_chart(result: dict[str, Any]) -> str | None:
    """An impact preview's histogram, as an SVG data URI (None without data): the shift of the
    GPU−TPU score for a scoring model, the change of the monthly cost for a catalog."""
    bins = result.get("shift", {}).get("histogram") or []
    if not bins:
        return None
    pricing = result.get("kind") == "catalog"
    chart = pygal.Bar(
        **_config(
            height=300,
            show_legend=False,
            x_title=_("Change of the recommended monthly cost (%)")
            if pricing
            else _("Shift of the GPU − TPU score (points; positive: towards GPU)"),
            y_title=_("Assessments"),
            x_label_rotation=30 if len(bins) > 8 else 0,
        )
    )
    chart.title = fit(
        _("How the draft catalog changes the monthly cost")
        if pricing
        else _("How the draft moves the GPU − TPU score"),
        TITLE_CHARS,
    )
    chart.x_labels = [
        f"{b['start']:g}" if b["start"] == b["end"] else f"{b['start']:g} … {b['end']:g}"
        for b in bins
    ]
    chart.add(fit(_("Assessments")), [b["count"] for b in bins])
    return as_data_uri(_render(chart))
