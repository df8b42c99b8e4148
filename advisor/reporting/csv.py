"""The report's cost table as CSV, and the cell quoting every CSV export uses."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import override

from advisor.charts.results import BILLING_LABELS, option_run_cost, option_token_cost
from advisor.decisions import languages
from advisor.engine.result.document import normalise
from advisor.engine.text import i18n
from advisor.labels import label_for
from advisor.reporting.options import BILLING_SLOTS, option_price, target_verdict, unit_work_cost

# A spreadsheet runs a cell that starts with one of these as a formula (=HYPERLINK(...) sends the
# reader's data away); catalog text reaches the cells, so text starting so gets a leading quote
# (OWASP "CSV injection"). Numbers stay numbers, negative ones included.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_cell(value: Any) -> Any:
    """One CSV cell as every export writes it: text that a spreadsheet would run as a formula
    is quoted with a leading apostrophe; numbers and other text pass unchanged."""
    if isinstance(value, Promise):
        value = str(value)
    formula = isinstance(value, str) and value.startswith(_FORMULA_START)
    return "'" + value if formula and not _NUMBER.fullmatch(value) else value


def csv_row(values: Iterable[Any]) -> list[Any]:
    return [csv_cell(v) for v in values]


def cost_table_csv(result: Mapping[str, Any], language: str) -> str:
    """One row per workload × option with every monthly cost component, in `language`."""
    doc = normalise(result)
    language = languages.engine_language(language)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    with override(language):
        writer.writerow(
            csv_row(
                [
                    _("Workload"),
                    _("Accelerator"),
                    _("Devices"),
                    _("Hours"),
                    *[
                        _("%(billing)s compute (USD/month)") % {"billing": BILLING_LABELS[s]}
                        for s in BILLING_SLOTS
                    ],
                    _("Storage (USD/month)"),
                    _("Egress (USD/month)"),
                    _("Idle (USD/month)"),
                    _("Staff (USD/month)"),
                    _("China bandwidth (USD/month)"),
                    _("Total (USD/month)"),
                    _("Billing used"),
                    _("Cost per run (USD)"),
                    _("Cost per million output tokens (USD)"),
                    _("Price source"),
                    _("Price as of"),
                    _("Stale price"),
                    _("Target"),
                    _("Target margin"),
                    _("Cost per unit of work (USD)"),
                    _("Unit of work"),
                    _("Throughput source"),
                    _("Throughput as of"),
                ]
            )
        )
        for w in doc["workloads"]:
            for o in w["options"]:
                compute = o["compute_usd_per_month"]
                price = option_price(o)
                run_cost, _slot = option_run_cost(o)
                token_cost, _slot = option_token_cost(o)
                used = o["billing_used"]
                writer.writerow(
                    csv_row(
                        [
                            label_for("kind", w["kind"]),
                            o["name"],
                            o["count"],
                            _blank(o["hours"]),
                            *[_blank(compute.get(s)) for s in BILLING_SLOTS],
                            _blank(o["storage_usd_per_month"]),
                            _blank(o["egress_usd_per_month"]),
                            _blank(o["idle_usd_per_month"]),
                            _blank(o["staff_usd_per_month"]),
                            _blank(o.get("china_bandwidth_usd_per_month")),
                            _blank(o["monthly_cost_usd"]),
                            BILLING_LABELS[used] if used else "",
                            _blank(run_cost),
                            _blank(token_cost),
                            price["source"]
                            if price
                            else _("total cost of ownership (purchase, power, colocation)")
                            if o.get("tco")
                            else "",
                            (price["as_of"] or "") if price else "",
                            (_("yes") if price["stale"] else _("no")) if price else "",
                            target_verdict(o),
                            _blank(o.get("target_margin")),
                            *_unit_work_cells(o, language),
                        ]
                    )
                )
    return buffer.getvalue()


def _unit_work_cells(option: Mapping[str, Any], language: str) -> list[Any]:
    """The cost per the team's unit and the throughput's source (blank for
    token work)."""
    work = option.get("work")
    if not work:
        return ["", "", "", ""]
    cost, _slot = unit_work_cost(option)
    return [
        _blank(cost),
        i18n.message(f"per.{work['per']}", languages.engine_language(language)),
        work["throughput"]["source"],
        work["throughput"]["as_of"] or "",
    ]


def _blank(value: Any) -> Any:
    return "" if value is None else value
