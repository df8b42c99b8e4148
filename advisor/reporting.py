"""The report: a frozen result document rendered as HTML (web and PDF), a PDF and a cost CSV.

Rendering only reads the result document; nothing here calls the engine, so an old report
renders from its own numbers. Charts are SVG images from `advisor.charts`.
"""

from __future__ import annotations

import csv
import io
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any
from urllib import request
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import override
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse, URLFetchingError

from advisor import charts, decisions
from advisor.engine import i18n
from advisor.forms import label_for
from advisor.templatetags.advisor_tags import usd
from advisor.wizard import STEPS

STYLESHEET = "advisor/report.css"
# WeasyPrint resolves the page's relative and root-relative URLs against this made-up origin;
# the fetcher below answers only for it (static files) and for data: URIs.
PDF_BASE_URL = "https://report.invalid/"
LOW_CONFIDENCE = 0.7
BILLING_SLOTS = ("on_demand", "spot", "capacity_block", "commit_1y", "commit_3y", "monthly")


# --- HTML ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RenderedReport:
    """One report rendered once: the body for the site's layout, the standalone document
    (the body wrapped in its own page) and the PDF of that document."""

    body_html: str
    document_html: str
    pdf: bytes


def render_report(
    *,
    result: dict[str, Any],
    title: str,
    organization: str,
    language: str,
    generated_at: datetime,
) -> RenderedReport:
    """Everything a finished report stores, with the charts and the body rendered only once."""
    language = decisions.engine_language(language)
    with override(language):
        context = _template_context(result, title, organization, language, generated_at)
        body = render_to_string("advisor/report/_body.html", context)
        document = _wrap_document(body, context)
    return RenderedReport(body_html=body, document_html=document, pdf=render_report_pdf(document))


def render_report_html(
    *,
    result: dict[str, Any],
    title: str,
    organization: str,
    language: str,
    generated_at: datetime,
    standalone: bool,
) -> str:
    """The report in `language`: a whole HTML document (for the PDF and a standalone page) or,
    with `standalone=False`, just the body for the site's own layout (which links report.css)."""
    language = decisions.engine_language(language)
    with override(language):
        context = _template_context(result, title, organization, language, generated_at)
        body = render_to_string("advisor/report/_body.html", context)
        return _wrap_document(body, context) if standalone else body


def _template_context(
    result: dict[str, Any],
    title: str,
    organization: str,
    language: str,
    generated_at: datetime,
) -> dict[str, Any]:
    context = report_context(result, language=language)
    context.update(
        title=title,
        organization=organization,
        language=language,
        generated_at=generated_at,
        stylesheet_url=_stylesheet_url(),
    )
    return context


def _wrap_document(body: str, context: dict[str, Any]) -> str:
    # The body is our own template's output, already escaped.
    return render_to_string(
        "advisor/report/document.html",
        {**context, "body": mark_safe(body)},  # noqa: S308
    )


def _stylesheet_url() -> str:
    try:
        return str(staticfiles_storage.url(STYLESHEET))
    except ValueError:
        # No manifest entry yet (collectstatic not run): the unhashed name, which finders and
        # WhiteNoise both serve.
        return f"/{settings.STATIC_URL.strip('/')}/{STYLESHEET}"


def report_context(result: dict[str, Any], *, language: str) -> dict[str, Any]:
    """Everything the report templates show, derived from the result document. Call inside
    `override(language)`: the derived sentences are translated here."""
    rec = result.get("recommendation") or {}
    cost = result.get("cost") or {}
    names = _accelerator_names(result)
    workloads = [_workload_context(result, w, names) for w in result.get("workloads") or []]
    memory = [
        _memory_context(result, phase, sizing, names, language)
        for phase, sizing in (result.get("sizing") or {}).items()
        if sizing
    ]
    training = [w for w in workloads if w["kind"] in charts.TRAINING_KINDS and w["options"]]
    serving = [w for w in workloads if w["kind"] in charts.INFERENCE_KINDS and w["options"]]
    cost_blocks = []
    for w in workloads:
        svg = charts.cost_chart(result, language, workload=w["kind"])
        cost_blocks.append({**w, "chart": charts.as_data_uri(svg) if svg else None})
    time_svg = charts.time_cost_chart(result, language)
    serving_svg = charts.serving_chart(result, language)
    return {
        "result": result,
        "rec": rec,
        "versions": result.get("versions") or {},
        "split": bool(rec.get("split")),
        "workloads": workloads,
        "memory": memory,
        "cost_blocks": cost_blocks,
        "training": training,
        "time_chart": charts.as_data_uri(time_svg) if time_svg else None,
        "serving": serving,
        "serving_chart": charts.as_data_uri(serving_svg) if serving_svg else None,
        "server": result.get("server"),
        "server_name": names.get((result.get("server") or {}).get("accelerator_id", ""), ""),
        "cost": cost,
        "risks": _risks(result, workloads, memory),
        "next_steps": _next_steps(result, workloads),
        "price_sources": _price_sources(cost),
        "figures": _figures(cost),
        "excluded": [_excluded(e) for e in rec.get("excluded") or []],
        "reasons": [_reason(r) for r in rec.get("reasons") or []],
        # Result schema 2 and later: why each workload's option, the rules and the levers. A v1
        # document has none of these fields, and the report leaves their sections out.
        "why_options": [w["why"] for w in workloads if w["why"]],
        "rules": [
            {"name": label_for("rule", r.get("id")), "statement": r.get("statement") or ""}
            for r in rec.get("rules") or []
            if isinstance(r, dict)
        ],
        "changes": [c for c in rec.get("would_change_if") or [] if c.get("kind") != "lever"],
        "levers": [
            _lever(c, names, language)
            for c in rec.get("would_change_if") or []
            if c.get("kind") == "lever"
        ],
    }


# Which label group of advisor.forms.LABELS names the values of an answer path.
ANSWER_GROUPS = {
    "organization.industry": "industry",
    "organization.regions": "region",
    "frameworks.primary": "framework",
    "frameworks.serving": "serving",
    "maturity.stack_changes": "stack_changes",
    "maturity.pipeline": "pipeline",
    "maturity.demand": "demand",
    "deployment.portability": "portability",
    "deployment.allowed_modes": "mode",
    "deployment.residency": "residency",
    "inference.traffic": "traffic",
    "cost.billing": "billing",
    "cost.ops_capacity": "ops",
    "kind": "kind",
    "schedule": "schedule",
}


def _answer_label(path: str | None, value: Any) -> str:
    key = (path or "").split("].")[-1] if "]." in (path or "") else (path or "")
    group = ANSWER_GROUPS.get(key)
    if isinstance(value, list):
        return ", ".join(_answer_label(path, v) for v in value)
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if group:
        return str(label_for(group, value))
    # Derived answers (training scale, region coverage…) are labelled by the engine.
    return i18n.value_label(path or "", value, decisions.engine_language())


def _reason(reason: dict[str, Any]) -> dict[str, Any]:
    contributions = sorted(
        (reason.get("contribution") or {}).items(), key=lambda kv: (-abs(kv[1]), kv[0])
    )
    return {
        **reason,
        "answer_label": _answer_label(reason.get("answer_path"), reason.get("answer_value")),
        "contributions": [
            {
                "label": {"gpu": _("GPU"), "tpu": _("TPU")}.get(key) or label_for("mode", key),
                "value": value,
                "text": f"{value:+.2f}".replace("-", "−"),
            }
            for key, value in contributions
            if value
        ],
    }


def _accelerator_names(result: dict[str, Any]) -> dict[str, str]:
    # The names of the catalog version the result used; the result's own names win.
    catalog = charts.pinned_catalog(result)
    names = {acc.id: acc.name for acc in catalog.accelerators} if catalog is not None else {}
    for w in result.get("workloads") or []:
        for o in w.get("options") or []:
            names[o["accelerator_id"]] = o.get("name") or o["accelerator_id"]
    return names


def _workload_context(
    result: dict[str, Any], w: dict[str, Any], names: dict[str, str]
) -> dict[str, Any]:
    chosen = charts.chosen_option(result, w)
    lang = result.get("lang") or "en"
    options = []
    for o in w.get("options") or []:
        compute = o.get("compute_usd_per_month") or {}
        run_cost, run_slot = charts._run_cost(o)
        token_cost, token_slot = charts._token_cost(o)
        options.append(
            {
                **o,
                "chosen": chosen is not None and o["accelerator_id"] == chosen["accelerator_id"],
                "compute": [compute.get(slot) for slot in BILLING_SLOTS],
                "run_cost": run_cost,
                "run_billing": run_slot,
                "token_cost": token_cost,
                "token_billing": token_slot,
                "interconnect_text": i18n.message(o.get("interconnect") or "", lang)
                if o.get("interconnect")
                else "",
                "capacity_tps": (o.get("tokens_per_second_per_replica") or 0)
                * (o.get("replicas") or 1),
                "price": _option_price(o),
            }
        )
    return {
        "kind": w.get("kind"),
        "accelerator": w.get("accelerator"),
        "deployment_mode": w.get("deployment_mode"),
        "billing": w.get("billing"),
        "confidence": w.get("confidence"),
        "chosen": chosen,
        "break_even": [
            (slot, share)
            for slot, share in ((chosen or {}).get("break_even_utilisation") or {}).items()
            if share is not None
        ],
        "why": _why_option(w, chosen, names),
        "options": options,
        "billing_slots": [
            s
            for s in BILLING_SLOTS
            if any(o["compute"][BILLING_SLOTS.index(s)] is not None for o in options)
        ],
    }


def _why_option(
    w: dict[str, Any], chosen: dict[str, Any] | None, names: dict[str, str]
) -> dict[str, Any] | None:
    """The facts behind one workload's option, as (label, text) rows: mode decision,
    confidence parts, latency or time to result, cards that need porting, cards excluded and
    the rules applied. None for a v1 result, which states none of them."""
    if not any(k in w for k in ("rules", "mode_decision", "confidence_parts", "excluded_options")):
        return None
    rows: list[tuple[Any, str]] = []
    md = w.get("mode_decision")
    if isinstance(md, dict):
        chosen_mode = label_for("mode", md.get("chosen"))
        if md.get("chosen") == md.get("by_scores"):
            text = _("%(chosen)s, as the scores prefer") % {"chosen": chosen_mode}
        else:
            text = _("%(chosen)s (preferred by the scores: %(preferred)s)") % {
                "chosen": chosen_mode,
                "preferred": label_for("mode", md.get("by_scores")),
            }
        if md.get("gap_usd") is not None and md.get("chosen") != md.get("by_scores"):
            text += " · " + _("cost gap %(gap)s") % {"gap": usd(abs(md["gap_usd"]))}
        costs = md.get("costs") or {}
        per = ((chosen or {}).get("cost_to_result") or {}).get("per")
        if len(costs) > 1 and per:
            text += " · " + _("best option in each mode (%(per)s): %(costs)s") % {
                "per": i18n.message(f"per.{per}", decisions.engine_language()),
                "costs": i18n.message("list.separator", decisions.engine_language()).join(
                    f"{label_for('mode', m)} {usd(c)}" for m, c in costs.items()
                ),
            }
        if md.get("reason"):
            text += " — " + str(md["reason"])
        rows.append((_("Deployment mode"), text))
    parts = w.get("confidence_parts")
    if isinstance(parts, dict):
        rows.append(
            (
                _("Confidence"),
                _("family %(family)s · mode %(mode)s · card %(card)s")
                % {k: _percent(parts.get(k)) for k in ("family", "mode", "card")},
            )
        )
    if chosen and chosen.get("latency_metric"):
        rows.append((_("Latency"), _latency_text(chosen)))
    if chosen and chosen.get("target_hours") is not None:
        rows.append((_("Time to result"), _time_text(chosen)))
    porting = [
        o for o in w.get("options") or [] if (o.get("stack") or {}).get("status") == "needs_porting"
    ]
    for o in porting:
        what = "; ".join(str(p) for p in o["stack"].get("porting") or []) or "—"
        rows.append(
            (_("Needs porting"), f"{names.get(o['accelerator_id'], o.get('name'))}: {what}")
        )
    for e in w.get("excluded_options") or []:
        name = e.get("name") or names.get(e.get("accelerator_id", ""), e.get("accelerator_id"))
        rows.append((_("Excluded"), f"{name}: {e.get('reason') or '—'}"))
    rules = [label_for("rule", r) for r in w.get("rules") or []]
    if rules:
        rows.append((_("Rules applied"), " · ".join(str(r) for r in rules)))
    option = (
        f"{chosen.get('name') or chosen.get('accelerator_id')} × {chosen.get('count')}"
        if chosen
        else None
    )
    return {"kind": w.get("kind"), "option": option, "rows": rows}


def _percent(value: Any) -> str:
    try:
        return f"{float(value) * 100:.0f}%"
    except (TypeError, ValueError):
        return "—"


def _latency_text(option: dict[str, Any]) -> str:
    metric = label_for("latency_metric", option.get("latency_metric"))
    at = option.get("latency_at_metric_ms")
    target = option.get("latency_target_ms")
    if target is None:
        return _("p95 %(metric)s: %(ms)s ms, no target") % {"metric": metric, "ms": _ms(at)}
    met = option.get("meets_latency")
    verdict = _("met") if met else _("not met")
    return _("p95 %(metric)s: %(ms)s ms against a target of %(target)s ms — %(verdict)s") % {
        "metric": metric,
        "ms": _ms(at),
        "target": _ms(target),
        "verdict": verdict,
    }


def _ms(value: Any) -> str:
    try:
        amount = float(value)
    except (TypeError, ValueError):
        return "—"
    return f"{amount:,.0f}" if amount >= 10 else f"{amount:,.1f}"


TARGET_BASES = {
    "deadline": _lazy("your deadline"),
    "schedule": _lazy("the schedule"),
    "default": _lazy("the default target"),
}


def _time_text(option: dict[str, Any]) -> str:
    verdict = _("met") if option.get("meets_deadline") else _("cannot be met")
    basis = TARGET_BASES.get(option.get("target_basis") or "", option.get("target_basis") or "—")
    return _("%(hours)s h per run against a target of %(target)s h (%(basis)s) — %(verdict)s") % {
        "hours": f"{float(option.get('hours') or 0):,.1f}",
        "target": f"{float(option['target_hours']):,.0f}",
        "basis": basis,
        "verdict": verdict,
    }


# Wizard field labels by answer path ("training.micro_batch_size"), for the levers table.
FIELD_LABELS: dict[str, Any] = {
    f"{step.form.section}.{name}": field.label
    for step in STEPS
    if step.form is not None
    for name, field in step.form.base_fields.items()
    if field.label
}


def _lever(change: dict[str, Any], names: dict[str, str], language: str) -> dict[str, Any]:
    lang = decisions.engine_language()
    option = change.get("option") or {}
    acc = option.get("accelerator_id")
    return {
        "workload": change.get("workload"),
        "changes": [
            {
                "label": FIELD_LABELS.get(c.get("answer_path"), c.get("answer_path")),
                "from": i18n.value_label(c.get("answer_path") or "", c.get("from"), lang),
                "to": i18n.value_label(c.get("answer_path") or "", c.get("to"), lang),
            }
            for c in change.get("changes") or []
        ],
        "option": f"{names.get(acc, acc)} × {option.get('count')}" if acc else "—",
        "explanation": change.get("explanation"),
    }


def _option_price(option: dict[str, Any]) -> dict[str, Any] | None:
    prices = option.get("prices") or {}
    used = option.get("billing_used")
    if used and prices.get(used):
        return dict(prices[used])
    return next((dict(p) for p in prices.values() if p), None)


def _memory_context(
    result: dict[str, Any],
    phase: str,
    sizing: dict[str, Any],
    names: dict[str, str],
    language: str,
) -> dict[str, Any]:
    svg = charts.memory_chart(result, language, phase=phase)
    # The chart shows the fewest devices per candidate; the text adds which cards cannot hold
    # the model at all and, for cards that need several devices, how they talk to each other.
    min_devices = sizing.get("min_devices") or {}
    interconnect = sizing.get("interconnect") or {}
    no_fit = [names.get(a, a) for a, n in min_devices.items() if not n]
    grouped: dict[str, list[str]] = {}
    for acc_id, n in min_devices.items():
        if n and n > 1 and interconnect.get(acc_id):
            grouped.setdefault(interconnect[acc_id], []).append(
                f"{names.get(acc_id, acc_id)} × {n}"
            )
    return {
        "phase": phase,
        "sizing": sizing,
        "parts": [(k, v) for k, v in (sizing.get("memory_gib") or {}).items() if k != "total"],
        "total": (sizing.get("memory_gib") or {}).get("total"),
        "fits": [names.get(a, a) for a in sizing.get("fits_single_device") or []],
        "no_fit": no_fit,
        "interconnects": list(grouped.items()),
        "chart": charts.as_data_uri(svg) if svg else None,
    }


def _excluded(entry: dict[str, Any]) -> dict[str, Any]:
    option = entry.get("option")
    label = {"gpu": _("GPU"), "tpu": _("TPU")}.get(str(option)) or label_for("mode", option)
    return {**entry, "label": label}


def _risks(
    result: dict[str, Any], workloads: list[dict[str, Any]], memory: list[dict[str, Any]]
) -> list[str]:
    """Risks the result itself shows: prices, confidence, splits, sharding, known gaps."""
    rec = result.get("recommendation") or {}
    cost = result.get("cost") or {}
    risks: list[str] = []
    stale = [p for p in cost.get("prices_used") or [] if p.get("stale")]
    if stale:
        risks.append(
            _(
                "%(count)s of the %(total)s prices used are older than %(days)s days or undated: "
                "confirm them with the provider before quoting."
            )
            % {
                "count": len(stale),
                "total": len(cost.get("prices_used") or []),
                "days": f"{float(cost.get('stale_after_days') or 0):.0f}",
            }
        )
    for w in workloads:
        unpriced = [o for o in w["options"] if o.get("monthly_cost_usd") is None]
        kind = label_for("kind", w["kind"])
        if w["options"] and len(unpriced) == len(w["options"]):
            risks.append(
                _(
                    "%(kind)s: no price in the catalog for this deployment mode, so the cost "
                    "comparison is missing; ask vendors for quotes."
                )
                % {"kind": kind}
            )
        elif unpriced:
            risks.append(
                _("%(kind)s: %(count)s of %(total)s options have no price and are not compared.")
                % {"kind": kind, "count": len(unpriced), "total": len(w["options"])}
            )
        if w["confidence"] is not None and float(w["confidence"]) < LOW_CONFIDENCE:
            risks.append(
                _(
                    "%(kind)s: confidence is %(confidence)s, the alternatives score close; "
                    "a pilot on both should settle it."
                )
                % {"kind": kind, "confidence": f"{float(w['confidence']) * 100:.0f}%"}
            )
        late = [o for o in w["options"] if o.get("meets_deadline") is False]
        slow = [o for o in w["options"] if o.get("meets_latency") is False]
        if late:
            risks.append(
                _("%(kind)s: %(count)s option(s) miss the deadline you set.")
                % {"kind": kind, "count": len(late)}
            )
        if slow:
            risks.append(
                _("%(kind)s: %(count)s option(s) miss the latency target.")
                % {"kind": kind, "count": len(slow)}
            )
    confidence = rec.get("confidence")
    if confidence is not None and float(confidence) < LOW_CONFIDENCE:
        risks.append(
            _("Overall confidence is %(confidence)s: the runner-up is close.")
            % {"confidence": f"{float(confidence) * 100:.0f}%"}
        )
    if rec.get("split"):
        risks.append(
            _(
                "Training and inference run on different infrastructure: plan to move "
                "checkpoints and models between them and to run two platforms."
            )
        )
    for m in memory:
        if not m["sizing"].get("fits_single_device"):
            risks.append(
                _(
                    "%(phase)s does not fit on any single device: it needs sharding or "
                    "parallelism and a fast interconnect."
                )
                % {"phase": _("Training") if m["phase"] == "training" else _("Serving")}
            )
    total, budget = cost.get("monthly_total_usd"), cost.get("monthly_budget_usd")
    if total and budget and float(total) > float(budget):
        risks.append(
            _("The estimated monthly total (%(total)s) is above the budget (%(budget)s).")
            % {"total": f"${float(total):,.0f}", "budget": f"${float(budget):,.0f}"}
        )
    for gap in cost.get("gaps") or []:
        risks.append(_("Not in the price catalog yet: %(gap)s.") % {"gap": gap})
    return risks


def _next_steps(result: dict[str, Any], workloads: list[dict[str, Any]]) -> list[str]:
    steps = [
        _(
            "Run a pilot on the recommended accelerator with your own model and data; compare "
            "measured throughput and memory with the figures here."
        ),
        _("Get written quotes for the recommended option and its runner-up, with dates."),
    ]
    if any(w["kind"] in charts.INFERENCE_KINDS for w in workloads):
        steps.append(
            _(
                "Load-test the serving stack at your peak traffic and check time to first token "
                "and time per output token against your target."
            )
        )
    if any(w["kind"] in charts.TRAINING_KINDS for w in workloads):
        steps.append(
            _(
                "Time one full training run and checkpoint restore; use spot capacity only if "
                "the job resumes from checkpoints."
            )
        )
    if any(w.get("billing") in ("monthly_fixed", "purchase") for w in workloads):
        steps.append(
            _("Check utilisation after a month before committing to fixed or owned capacity.")
        )
    steps.append(_("Regenerate this report when prices or your answers change."))
    return steps


def _prices(cost: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(
        (dict(p) for p in cost.get("prices_used") or []),
        key=lambda p: (p.get("provider") or "", p.get("price_id") or ""),
    )


def _price_sources(cost: dict[str, Any]) -> list[dict[str, Any]]:
    """The prices used, one row per source (with its date and flags): many prices come from
    the same catalog or page, and repeating a long source on every price made the table pages
    long. Each row names every price it covers, by provider and region."""
    groups: dict[tuple[str, str, bool, bool, bool], dict[str, Any]] = {}
    for p in _prices(cost):
        key = (
            str(p.get("source") or ""),
            str(p.get("as_of") or ""),
            bool(p.get("stale")),
            bool(p.get("estimated")),
            bool(p.get("derived")),
        )
        group = groups.setdefault(
            key,
            {
                "source": key[0],
                "as_of": p.get("as_of"),
                "stale": key[2],
                "estimated": key[3],
                "derived": key[4],
                "where": {},
            },
        )
        where = " ".join(str(v) for v in (p.get("provider"), p.get("region")) if v) or "—"
        group["where"].setdefault(where, []).append(str(p.get("price_id") or ""))
    return [
        {**g, "where": [(where, ", ".join(ids)) for where, ids in g["where"].items()]}
        for g in groups.values()
    ]


def _figures(cost: dict[str, Any]) -> list[dict[str, Any]]:
    """The figures used, each with a stale flag against the result's own date and threshold."""
    today = _parse_date(cost.get("today"))
    limit = float(cost.get("stale_after_days") or 0)
    rows = []
    for key, fig in (cost.get("figures_used") or {}).items():
        as_of = _parse_date(fig.get("as_of"))
        stale = bool(as_of and today and limit and (today - as_of).days > limit)
        rows.append({"key": key, **fig, "stale": stale})
    return rows


def _parse_date(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


# --- PDF ----------------------------------------------------------------------------------------


class _ReportFetcher(URLFetcher):  # type: ignore[misc]
    """Serves the report's own stylesheet from the static files and data: URIs (the charts);
    refuses everything else, so a rendered report never reaches the network."""

    def __init__(self) -> None:
        # URLFetcher's own set-up builds an SSL context (about 40 ms) that is never used here.
        request.OpenerDirector.__init__(self)

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
        if url.startswith("data:"):
            # Only data: URLs reach this handler; it decodes in memory and never opens anything.
            response = request.DataHandler().data_open(request.Request(url))  # noqa: S310
            return URLFetcherResponse(url, response.read(), dict(response.headers.items()))
        parts = urlsplit(url)
        static_prefix = "/" + settings.STATIC_URL.strip("/") + "/"
        if url.startswith(PDF_BASE_URL.rstrip("/")) and parts.path.startswith(static_prefix):
            path = _static_path(parts.path.removeprefix(static_prefix))
            if path is not None:
                return URLFetcherResponse(
                    url, path.read_bytes(), {"Content-Type": "text/css; charset=utf-8"}
                )
        raise URLFetchingError(f"the report may not load {url}")


_HASHED = re.compile(r"\.[0-9a-f]{12}(\.\w+)$")


def _static_path(name: str) -> Path | None:
    # Prefer the source file (a hashed manifest name maps back to it), so the PDF always uses
    # the stylesheet in the code, not an older collected copy.
    found = finders.find(_HASHED.sub(r"\1", name))
    if isinstance(found, str):
        return Path(found)
    try:
        # A hashed name from the manifest storage lives only in STATIC_ROOT.
        path = Path(staticfiles_storage.path(name))
    except NotImplementedError:
        return None
    return path if path.is_file() else None


# Parsing report.css takes WeasyPrint about 60 ms and a fresh font configuration loads the
# system fonts again, so a worker keeps both: the stylesheet until the file changes, the font
# configuration for the life of the thread (the report declares no @font-face, so nothing
# document-specific is ever added to it).
_pdf_cache = threading.local()


def _font_config() -> FontConfiguration:
    config = getattr(_pdf_cache, "font_config", None)
    if config is None:
        config = _pdf_cache.font_config = FontConfiguration()
    return config


def _stylesheet() -> CSS | None:
    path = _static_path(STYLESHEET)
    if path is None:
        return None
    key = (path, path.stat().st_mtime_ns)
    cached = getattr(_pdf_cache, "stylesheet", None)
    if cached is None or cached[0] != key:
        css = CSS(
            string=path.read_text(encoding="utf-8"),
            base_url=PDF_BASE_URL,
            url_fetcher=_ReportFetcher(),
            font_config=_font_config(),
        )
        cached = _pdf_cache.stylesheet = (key, css)
    return cached[1]


def render_report_pdf(html: str) -> bytes:
    """A4 PDF of a standalone report document (fonts from the system, CSS from static files)."""
    stylesheets = []
    link = f'<link rel="stylesheet" href="{_stylesheet_url()}">'
    css = _stylesheet() if link in html else None
    if css is not None:
        # The document links report.css; hand WeasyPrint the parsed copy instead. It applies
        # as a user stylesheet, which differs from an author one only against other author
        # styles, and the report has none (no inline styles, no other stylesheet).
        html = html.replace(link, "", 1)
        stylesheets.append(css)
    document = HTML(string=html, base_url=PDF_BASE_URL, url_fetcher=_ReportFetcher())
    return bytes(document.write_pdf(stylesheets=stylesheets, font_config=_font_config()))


# --- CSV ----------------------------------------------------------------------------------------


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


def cost_table_csv(result: dict[str, Any], language: str) -> str:
    """One row per workload × option with every monthly cost component, in `language`."""
    language = decisions.engine_language(language)
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
                        _("%(billing)s compute (USD/month)") % {"billing": charts.BILLING_LABELS[s]}
                        for s in BILLING_SLOTS
                    ],
                    _("Storage (USD/month)"),
                    _("Egress (USD/month)"),
                    _("Idle (USD/month)"),
                    _("Staff (USD/month)"),
                    _("Total (USD/month)"),
                    _("Billing used"),
                    _("Cost per run (USD)"),
                    _("Cost per million output tokens (USD)"),
                    _("Price source"),
                    _("Price as of"),
                    _("Stale price"),
                ]
            )
        )
        for w in result.get("workloads") or []:
            for o in w.get("options") or []:
                compute = o.get("compute_usd_per_month") or {}
                price = _option_price(o) or {}
                run_cost, _slot = charts._run_cost(o)
                token_cost, _slot = charts._token_cost(o)
                used = o.get("billing_used")
                writer.writerow(
                    csv_row(
                        [
                            label_for("kind", w.get("kind")),
                            o.get("name"),
                            o.get("count"),
                            _blank(o.get("hours")),
                            *[_blank(compute.get(s)) for s in BILLING_SLOTS],
                            _blank(o.get("storage_usd_per_month")),
                            _blank(o.get("egress_usd_per_month")),
                            _blank(o.get("idle_usd_per_month")),
                            _blank(o.get("staff_usd_per_month")),
                            _blank(o.get("monthly_cost_usd")),
                            charts.BILLING_LABELS.get(used, ""),
                            _blank(run_cost),
                            _blank(token_cost),
                            price.get("source") or "",
                            price.get("as_of") or "",
                            (_("yes") if price.get("stale") else _("no")) if price else "",
                        ]
                    )
                )
    return buffer.getvalue()


def _blank(value: Any) -> Any:
    return "" if value is None else value


def warm_up() -> None:
    """Load WeasyPrint, the stylesheet and the Latin and CJK fonts once (a worker calls this
    at start-up), so the first real report pays none of it."""
    render_report_pdf('<html lang="zh-Hant"><body><p>Advisor 加速器</p></body></html>')
