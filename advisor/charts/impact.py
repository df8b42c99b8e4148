"""An impact preview's histogram: how a draft scoring model moves the GPU − TPU score, or how a
draft catalog changes the recommended monthly cost, across the stored assessments."""

from __future__ import annotations

from typing import Any

import pygal
from django.utils.translation import gettext as _

from advisor.charts.svg import TITLE_CHARS, as_data_uri, chart_config, fit, render_svg


def score_shift_chart(result: dict[str, Any]) -> str | None:
    """An impact preview's histogram, as an SVG data URI (None without data): the shift of the
    GPU−TPU score for a scoring model, the change of the monthly cost for a catalog."""
    bins = result.get("shift", {}).get("histogram") or []
    if not bins:
        return None
    pricing = result.get("kind") == "catalog"
    chart = pygal.Bar(
        **chart_config(
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
    return as_data_uri(render_svg(chart))
