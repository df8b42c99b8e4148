"""Every chart's SVG: the house style and options, static SVG text out of pygal, a data URI.

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

from pygal.style import Style

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


def chart_style(colors: Iterable[str] = PALETTE) -> Style:
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


def chart_config(**overrides: Any) -> dict[str, Any]:
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
        "style": chart_style(),
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


def render_svg(chart: Any) -> str:
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


def usd(value: float) -> str:
    return f"${value:,.0f}" if abs(value) >= 10 else f"${value:,.2f}"
