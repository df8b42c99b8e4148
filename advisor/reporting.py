"""The report: a frozen result document rendered as HTML (web and PDF), a PDF and a cost CSV.

Rendering only reads the result document; nothing here calls the engine, so an old report
renders from its own numbers. Charts are SVG images from `advisor.charts`.
"""

from __future__ import annotations

import csv
import io
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, cast
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
from advisor import report_dead_ends as DE
from advisor.engine import i18n
from advisor.engine import labels as engine_labels
from advisor.engine import nonllm as NL
from advisor.engine.document import (
    Change,
    Cost,
    Excluded,
    InferenceSizing,
    Option,
    Price,
    PriceUsed,
    Reason,
    ResultDocument,
    TrainingSizing,
    Workload,
    normalise,
)
from advisor.labels import label_for
from advisor.labels import price_page as _price_page
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
    result: Mapping[str, Any],
    title: str,
    organization: str,
    language: str,
    generated_at: datetime,
) -> RenderedReport:
    """Everything a finished report stores, with the charts and the body rendered only once."""
    body, document = render_report_html(
        result=result,
        title=title,
        organization=organization,
        language=language,
        generated_at=generated_at,
    )
    return RenderedReport(body_html=body, document_html=document, pdf=render_report_pdf(document))


def render_report_html(
    *,
    result: Mapping[str, Any],
    title: str,
    organization: str,
    language: str,
    generated_at: datetime,
) -> tuple[str, str]:
    """The report's body for the site's layout and its standalone document (the PDF's
    source), charts rendered once: a tenth of the time the PDF takes."""
    language = decisions.engine_language(language)
    with override(language):
        context = _template_context(normalise(result), title, organization, language, generated_at)
        body = render_to_string("advisor/report/_body.html", context)
        document = _wrap_document(body, context)
    return body, document


def _template_context(
    result: ResultDocument,
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


def report_context(result: ResultDocument, *, language: str) -> dict[str, Any]:
    """Everything the report templates show, derived from the result document (normalised:
    see engine/document.py). Call inside `override(language)`: the derived sentences are
    translated here."""
    rec = result["recommendation"]
    cost = result["cost"]
    names = _accelerator_names(result)
    workloads = [_workload_context(result, w, names) for w in result["workloads"]]
    sizing = result["sizing"]
    memory = [
        _memory_context(result, phase, phase_sizing, names, language)
        for phase, phase_sizing in (
            ("training", sizing["training"]),
            ("inference", sizing["inference"]),
        )
        if phase_sizing
    ]
    server = result["server"]
    training = [w for w in workloads if w["kind"] in charts.TRAINING_KINDS and w["options"]]
    serving = [
        w
        for w in workloads
        if w["kind"] in charts.INFERENCE_KINDS and w["options"] and not _in_units(w)
    ]
    unit_work = [_unit_work_context(w, language) for w in workloads if _in_units(w)]
    cost_blocks = []
    for w in workloads:
        svg = charts.cost_chart(result, language, workload=w["kind"])
        cost_blocks.append({**w, "chart": charts.as_data_uri(svg) if svg else None})
    time_svg = charts.time_cost_chart(result, language)
    serving_svg = charts.serving_chart(result, language)
    plans = [_plan(result, w, raw) for w, raw in zip(workloads, result["workloads"], strict=True)]
    changes = [
        cast(Change, {**c, "explanation": customer_text(c["explanation"])})
        for c in rec["would_change_if"]
        if c.get("kind") != "lever"
    ]
    levers = [
        _lever(c, names, language) for c in rec["would_change_if"] if c.get("kind") == "lever"
    ]
    risks = _risks(result, workloads, memory)
    return {
        "result": result,
        "rec": rec,
        "plans": plans,
        # Every workload is a dead end: no headline recommendation to state (issue 22 item 1).
        "all_dead": _all_dead(plans),
        "confidence": _confidence(result, workloads, changes, levers),
        "top_reasons": [_reason(r) for r in rec["reasons"][:3]],
        "top_risks": risks[:5],
        "glossary": _glossary(),
        "versions": result["versions"],
        "split": rec["split"],
        "workloads": workloads,
        "memory": memory,
        "cost_blocks": cost_blocks,
        "training": training,
        "time_chart": charts.as_data_uri(time_svg) if time_svg else None,
        "serving": serving,
        "unit_work": unit_work,
        "serving_chart": charts.as_data_uri(serving_svg) if serving_svg else None,
        "server": server,
        "server_name": names.get(server["accelerator_id"] or "", "") if server else "",
        "cost": cost,
        "risks": risks,
        "next_steps": _next_steps(result, workloads),
        "price_sources": _price_sources(cost),
        "notes": [customer_text(n) for n in cost["notes"]],
        "gaps": [customer_text(g) for g in cost["gaps"]],
        "server_notes": [customer_text(n) for n in server["notes"]] if server else [],
        # The unit as sold is checked on its provider's page (no research-file names).
        "server_unit_page": _price_page(str(server["sold_as"].get("provider") or ""))
        if server and server.get("sold_as")
        else "",
        "server_estimated": [
            str(_UNIT_FIELDS.get(f, f))
            for f in ((server.get("sold_as") or {}).get("estimated_fields") or [])
        ]
        if server
        else [],
        "split_note": customer_text(rec["split_note"] or ""),
        "billing_reason": customer_text(rec["billing_reason"] or ""),
        "figures": _figures(cost, language),
        "excluded": [_excluded(e) for e in rec["excluded"]],
        "reasons": [_reason(r) for r in rec["reasons"]],
        # Result schema 2 and later: why each workload's option, the rules and the levers. A v1
        # document has none of these (normalise leaves them empty), and the report leaves
        # their sections out.
        "why_options": [w["why"] for w in workloads if w["why"]],
        "rules": [
            {"name": label_for("rule", r["id"]), "statement": customer_text(r["statement"])}
            for r in rec["rules"]
        ],
        # A flip of family and mode has no kind; a numeric lever's is "lever".
        "changes": changes,
        "levers": levers,
    }


# Which label group of the label table (advisor/engine/labels.py) names an answer path's values.
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


def _reason(reason: Reason) -> dict[str, Any]:
    contributions = sorted(reason["contribution"].items(), key=lambda kv: (-abs(kv[1]), kv[0]))
    label: Any = reason["label"]
    # A per-workload criterion (scale and schedule) appears once per workload: name it.
    if reason["answer_path"].startswith("workloads[") and len(reason.get("workloads", [])) == 1:
        label = f"{label} ({label_for('kind', reason['workloads'][0])})"
    return {
        **reason,
        "label": label,
        "explanation": customer_text(reason["explanation"]),
        "rationale": _rationale(customer_text(reason["explanation"])),
        "answer_label": _answer_label(reason["answer_path"], reason["answer_value"]),
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


# Research-note references ("sizing.md A3", "deployment_costs.md 1c: …") and the catalog's
# estimate/derived tags are ours, not the customer's: the report drops them (the admin and
# /catalog/ pages keep the provenance).
_NOTE_REF = re.compile(
    # "(sizing.md B4, B8)", "(offers_hk_tokyo_la.json rows 30 and 38)"
    r"\s*[(（]\s*(?:shared/reference/)?[\w./-]+\.(?:md|json)\b[^)）]*[)）]"
    # "，deployment_costs.md 第 2 節" at the end of a parenthesis
    r"|\s*[,，]\s*[\w-]+\.md(?:\s*第?\s*[\w.§]+\s*節?)?(?=\s*[)）])"
    # "shared/reference/sizing.md B2 (Transformer Math 101): …", "deployment_costs.md 1c: …"
    r"|(?:shared/reference/)?\b[\w-]+\.md\b(?:\s+[§\w./-]*\d[\w./-]*)?(?:\s*\([^)]*\))?"
    r"(?:\s*[:：]\s*|\s*(?=[)）,;]))"
)
_TAG = re.compile(
    r"\s*[(（](?:EST|DER|not in the reference)[)）]"  # "(EST)"
    r"|,\s*(?:EST|DER)\b(?=[)）,.;\s]|$)"  # "…, EST)"
    r"|(?:^|(?<=[(（]))(?:EST|DER)\b[:\s]*(?:from\s+)?"  # "EST: …", "(DER from …"
)


# The unit fields a catalog may mark as estimated, as the server section names them.
_UNIT_FIELDS = {
    "vcpu": _lazy("CPU cores"),
    "ram_gb": _lazy("RAM"),
    "nvme_gb": _lazy("NVMe"),
    "network_gbps": _lazy("Network"),
    "gpu_link": _lazy("GPU link"),
}


def customer_text(text: str) -> str:
    """Engine or catalog text as a customer reads it: no research-note references, no
    EST/DER tags."""
    text = _NOTE_REF.sub("", str(text))
    text = _TAG.sub("", text)
    return re.sub(r"\s{2,}", " ", text).strip()


def _option_label(option: Mapping[str, Any]) -> str:
    return f"{option['name']} × {option['count']}"


def _where(price: Mapping[str, Any] | None) -> str:
    if not price:
        return ""
    return " · ".join(str(v) for v in (price.get("provider"), price.get("region")) if v)


def _result_cost(option: Mapping[str, Any], kind: str) -> tuple[float | None, str]:
    """The cost a customer compares options by: per training run, else per million tokens."""
    if kind in charts.TRAINING_KINDS:
        run_cost, _slot = charts._run_cost(cast(Option, option))
        return run_cost, str(_("per run"))
    token_cost, _slot = charts._token_cost(cast(Option, option))
    return token_cost, str(_("per million tokens"))


def _all_dead(plans: list[dict[str, Any]]) -> bool:
    sized = [p for p in plans if p["kind"] != "preprocessing"]
    return bool(sized) and all(p["dead_end"] for p in sized)


def _plan(result: ResultDocument, w: dict[str, Any], raw: Workload) -> dict[str, Any]:
    """One workload's plan as a buyer reads it: what to rent where, how it is paid, what it
    costs a month and per result, how fast, and the runner-up with the difference."""
    chosen = w["chosen"]
    plan: dict[str, Any] = {"kind": w["kind"], "chosen": None, "dead_end": DE.dead_end_context(raw)}
    if chosen is None:
        return plan
    price = _option_price(chosen)
    used = chosen["billing_used"]
    per_result, per = _result_cost(chosen, w["kind"])
    unpriced = chosen.get("unpriced") if chosen["monthly_cost_usd"] is None else None
    unpriced_text = ""
    if unpriced is not None:
        if unpriced.get("reason") == "no_purchase_price":
            unpriced_text = _(
                "Owned hardware: no sourced purchase price for these cards; ask vendors for a "
                "quote."
            )
        else:
            unpriced_text = _("No price in the catalog for this option: ask for a quote.")
    if chosen.get("target_hours") is not None:
        speed = _time_text(chosen)
    elif chosen.get("latency_metric"):
        speed = _latency_text(chosen)
    else:
        speed = ""
    runner_up = _runner_up(w, chosen, per_result)
    return {
        "kind": w["kind"],
        "chosen": chosen,
        "option": _option_label(chosen),
        "where": "" if unpriced is not None else _where(price),
        "deployment_mode": w["deployment_mode"],
        "billing": charts.BILLING_LABELS.get(used, "") if used else "",
        "monthly": chosen["monthly_cost_usd"],
        "per_result": per_result,
        "per": per,
        "speed": speed,
        "speed_flag": target_flagged(chosen),
        "unpriced": unpriced_text,
        "runner_up": runner_up,
        "house": [_house_beside(offer) for offer in chosen.get("house_on_request") or []],
        "dead_end": DE.dead_end_context(raw),
    }


def _server_spec(server: dict[str, Any], *, china: bool = False) -> str:
    """A server as its seller entered it, in one line: CPU, RAM, NVMe, network and, with
    `china`, its route to mainland China and the Mbps included."""
    parts = (
        server.get("cpu"),
        f"{server['ram_gb']} GB RAM" if server.get("ram_gb") else None,
        f"{server['nvme_tb']} TB NVMe" if server.get("nvme_tb") else None,
        f"{server['network_gbps']} Gbps" if server.get("network_gbps") else None,
        f"{label_for('china_route', server['china_bandwidth_type'])} "
        f"{server.get('china_bandwidth_mbps') or 0} Mbps"
        if china and server.get("china_bandwidth_type")
        else None,
    )
    return " · ".join(str(v) for v in parts if v)


def _house_beside(offer: dict[str, Any]) -> dict[str, Any]:
    """The operator's own server sold on request that fits the workload, shown beside the
    first priced option (issue 22 item 2): the server as entered and its sizing."""
    server = offer.get("server") or {}
    return {
        "provider": offer.get("provider") or "",
        "region": offer.get("region") or "",
        "server": offer.get("sold_as") or server.get("name") or "",
        "spec": _server_spec(server, china=True),
        "card": offer.get("name") or "",
        "needed": offer.get("needed_count"),
        "servers": offer.get("servers"),
        "per_unit": offer.get("gpus_per_unit"),
        "price_id": offer.get("price_id"),
    }


def _runner_up(w: dict[str, Any], chosen: Option, per_result: float | None) -> str:
    others = [o for o in w["options"] if not o["chosen"]]
    if not others:
        return ""
    other = others[0]
    other_cost, per = _result_cost(other, w["kind"])
    text = _("%(option)s (%(where)s)") % {
        "option": _option_label(other),
        "where": _where(_option_price(other)) or _("no price"),
    }
    if other_cost is not None and per_result is not None:
        diff = other_cost - per_result
        if abs(diff) < 0.005:
            text += " — " + _("costs the same %(per)s") % {"per": per}
        elif diff > 0:
            text += " — " + _("%(diff)s more %(per)s") % {"diff": usd(diff), "per": per}
        else:
            text += " — " + _("%(diff)s less %(per)s, but ranked lower") % {
                "diff": usd(-diff),
                "per": per,
            }
    elif other["monthly_cost_usd"] is not None and chosen["monthly_cost_usd"] is not None:
        diff = other["monthly_cost_usd"] - chosen["monthly_cost_usd"]
        text += " — " + _("%(diff)s a month more") % {"diff": usd(diff)}
    return text


CONFIDENCE_PARTS = {
    "family": _lazy("GPU or TPU"),
    "mode": _lazy("deployment mode"),
    "card": _lazy("the card"),
}


def _confidence(
    result: ResultDocument,
    workloads: list[dict[str, Any]],
    changes: list[Change],
    levers: list[dict[str, Any]],
) -> dict[str, Any]:
    """What each workload's confidence covers (the lowest of family, mode and card) and the
    easiest changes that would flip the answer."""
    rows = []
    for w, raw in zip(workloads, result["workloads"], strict=True):
        parts = raw["confidence_parts"]
        if parts is None:
            covers = ""
        else:
            weakest = min(CONFIDENCE_PARTS, key=lambda k: float(parts[k]))  # type: ignore[literal-required]
            covers = _(
                "the lowest of: GPU or TPU %(family)s, deployment mode %(mode)s, card "
                "%(card)s — least sure: %(weakest)s"
            ) % {
                "family": _percent(parts["family"]),
                "mode": _percent(parts["mode"]),
                "card": _percent(parts["card"]),
                "weakest": CONFIDENCE_PARTS[weakest],
            }
        rows.append({"kind": w["kind"], "confidence": w["confidence"], "covers": covers})
    flips = [customer_text(c["explanation"]) for c in DE.page_one_changes(changes)]
    flips += [str(lv["explanation"]) for lv in levers[:2]]
    return {"rows": rows, "flips": flips}


def _glossary() -> list[tuple[str, str]]:
    return [
        (
            _("On-demand"),
            _("Rented by the hour with no commitment; the most flexible and dearest rate."),
        ),
        (
            _("Commitment"),
            _("A 1- or 3-year promise to pay for the cards, in exchange for a lower rate."),
        ),
        (
            _("Spot"),
            _("Spare capacity at a discount that the provider can take back at short notice."),
        ),
        (
            _("Break-even"),
            _("How busy the cards must be for a cheaper fixed price to beat paying by the hour."),
        ),
        (
            _("Time to first token"),
            _("How long a user waits before the answer starts to appear."),
        ),
        (
            _("Tensor parallel"),
            _("One copy of the model split across several cards that work together."),
        ),
        (
            _("MFU"),
            _("The share of the cards' peak arithmetic that a training run actually uses."),
        ),
        (
            _("Confidence"),
            _("How clearly the recommendation beats the alternatives on your answers."),
        ),
    ]


def _rationale(explanation: str) -> str:
    """The why of a reason, without the label, weight and points its other columns show
    (the engine writes "label: value (weight w) → points. why")."""
    _head, arrow, tail = explanation.partition("→")
    if not arrow:
        return explanation
    for stop in (". ", "。"):
        _points, found, why = tail.partition(stop)
        if found and why.strip():
            return why.strip()
    return explanation


def _accelerator_names(result: ResultDocument) -> dict[str, str]:
    # The names of the catalog version the result used; the result's own names win.
    catalog = charts.pinned_catalog(result)
    names = {acc.id: acc.name for acc in catalog.accelerators} if catalog is not None else {}
    for w in result["workloads"]:
        for o in w["options"]:
            names[o["accelerator_id"]] = o["name"]
    return names


def _workload_context(result: ResultDocument, w: Workload, names: dict[str, str]) -> dict[str, Any]:
    chosen = charts.chosen_option(result, w)
    lang = result["lang"]
    options: list[dict[str, Any]] = []
    for o in w["options"]:
        compute = o["compute_usd_per_month"]
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
                "interconnect_text": i18n.message(o["interconnect"], lang)
                if o["interconnect"]
                else "",
                # Serving options only.
                "capacity_tps": o.get("tokens_per_second_per_replica", 0) * o.get("replicas", 1),
                # Issue 21: every option that misses its target (or meets it inside the safety
                # margin) is marked where it is listed.
                "target_verdict": target_verdict(o),
                "target_flag": target_flagged(o),
                "price": _option_price(o),
            }
        )
    return {
        "kind": w["kind"],
        "accelerator": w["accelerator"],
        "deployment_mode": w["deployment_mode"],
        "billing": w["billing"],
        "confidence": w["confidence"],
        "chosen": chosen,
        "offer_sources": _offer_sources(options),
        "on_request": _on_request(options),
        "break_even": _break_even(chosen),
        # Issue 22: owned hardware's cost of ownership, line by line with its sources.
        "tco": _tco_rows(chosen, result),
        "why": _why_option(w, chosen, names),
        "options": options,
        "billing_slots": [
            s
            for s in BILLING_SLOTS
            if any(o["compute"][BILLING_SLOTS.index(s)] is not None for o in options)
        ],
        "china_bandwidth": [_china_bandwidth_row(o) for o in options if o.get("china_bandwidth")],
        "china_egress": [_china_egress_row(o) for o in options if o.get("china_egress")],
    }


def _in_units(w: Mapping[str, Any]) -> bool:
    """Inference work counted in its own unit (issue 21 item 7: images, audio, pairs)."""
    return any("work" in o for o in w["options"])


def unit_work_cost(option: Mapping[str, Any]) -> tuple[float | None, str | None]:
    """An option's cost per the team's unit at the billing it uses (else the first priced)."""
    costs = (option.get("work") or {}).get("cost_per_unit_usd") or {}
    used = option.get("billing_used")
    if used and costs.get(used) is not None:
        return costs[used], used
    return next(((v, k) for k, v in costs.items() if v is not None), (None, None))


def _unit_work_context(w: Mapping[str, Any], language: str) -> dict[str, Any]:
    """The report's table for work in its own unit: per card and fleet throughput against the
    demand, latency per image or request, cost per the team's unit and the throughput's source."""
    lang = decisions.engine_language(language)
    first = next(o for o in w["options"] if "work" in o)
    work = first["work"]
    rows = []
    for o in w["options"]:
        ow = o.get("work")
        if not ow:
            continue
        t = ow["throughput"]
        cost, slot = unit_work_cost(o)
        rows.append(
            {
                "name": o["name"],
                "count": o["count"],
                "chosen": o.get("chosen", False),
                "per_card": ow["per_card_per_second"],
                "capacity": ow["capacity_per_second"],
                "latency_ms": ow.get("latency_ms"),
                "target_verdict": target_verdict(o),
                "target_flag": target_flagged(o),
                "cost": cost,
                "cost_text": "—" if cost is None else "$" + NL.money_text(float(cost)),
                "billing": slot,
                "source": t["source"],
                "as_of": t["as_of"],
                "basis": _("an estimate")
                if t["estimated"]
                else _("worked out from published figures")
                if t["derived"]
                else _("published"),
            }
        )
    return {
        "kind": w["kind"],
        "model": work["model_name"],
        "benchmark": work["benchmark"],
        "unit": i18n.value_label("work.unit", work["unit"], lang),
        "per": i18n.message(f"per.{work['per']}", lang),
        "per_day": work["per_day"],
        "demand": work["demand_per_second"],
        "rows": rows,
    }


def _mbps(value: Any) -> str:
    amount = float(value)
    return f"{amount:,.2f} Mbps" if amount < 10 else f"{amount:,.0f} Mbps"


def _china_bandwidth_row(option: dict[str, Any]) -> dict[str, Any]:
    """A hosted option's premium bandwidth to mainland China (engine 2.2) as the report's row:
    Mbps needed, included with its route, extra, the price per Mbps-month with its price page
    and date, and the monthly line - or, without a route or a price, that it is not priced."""
    bw = option["china_bandwidth"]
    route = label_for("china_route", bw["route"]) if bw["route"] else None
    per_mbps = bw["usd_per_mbps_month"]
    source = _("%(page)s, %(date)s") % {
        "page": _price_page(bw["provider"]),
        "date": bw["as_of"] or _("undated"),
    }
    status = bw["status"]
    if status == "no_route":
        line = _("no premium China route: ask the provider for a CN2 GIA/CMI price per Mbps-month")
    elif status == "not_priced":
        line = _("not priced: ask the provider for a CN2 GIA/CMI price per Mbps-month")
    elif status == "covered":
        line = _("included")
    else:
        line = usd(bw["usd_per_month"])
    return {
        "name": option["name"],
        "count": option["count"],
        "chosen": option.get("chosen", False),
        "needed": _mbps(bw["needed_mbps"]),
        "basis": _aside(CHINA_BASES.get(bw.get("basis") or "", "")),
        "included": f"{_mbps(bw['included_mbps'])} {route}" if route else _("none"),
        "extra": _mbps(bw["extra_mbps"]),
        "per_mbps": (
            _("$%(price)s per Mbps-month") % {"price": f"{per_mbps:,.2f}"}
            if per_mbps is not None
            else "—"
        ),
        "source": _aside(source) if per_mbps is not None else "",
        "line": line,
        "priced": bw["usd_per_month"] is not None,
    }


def _aside(text: Any) -> str:
    # Brackets as the language writes them: (…) in English, full-width （…） in Chinese.
    return _("(%(text)s)") % {"text": text} if text else ""


CHINA_BASES = {
    "peak": _lazy("at peak"),
    "daily_mean": _lazy("results shipped over the day"),
    "run_rate": _lazy("while the batch runs"),
}


def _china_egress_row(option: dict[str, Any]) -> dict[str, Any]:
    """A public-cloud option's egress to mainland China: the rate used and whether the cloud
    publishes one for China (Google does; AWS and Azure do not, so their internet rate is used)."""
    egress = option["china_egress"]
    return {
        "name": option["name"],
        "count": option["count"],
        "chosen": option.get("chosen", False),
        "provider": egress["provider"],
        "rate": _("$%(rate)s per GB") % {"rate": f"{egress['usd_per_gb']:g}"},
        "figure": _aside(
            engine_labels.shown("figure", egress["egress_figure"], decisions.engine_language())
        ),
        "basis": (
            _("published rate to China")
            if egress["china_rate"]
            else _("no rate to China published: internet rate used")
        ),
    }


def _offer_sources(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For the first option and the runner-up: the offer each price slot comes from (provider,
    region, what is sold), saying so when a slot's price is another provider's or region's than
    the option's own offer, and when it is indicative (a "from" price, an estimate)."""
    ranked = sorted(options, key=lambda o: not o["chosen"])[:2]
    out = []
    for role, o in zip((_("Recommended"), _("Runner-up")), ranked, strict=False):
        slots = []
        for slot in BILLING_SLOTS:
            price = o["prices"].get(slot)
            if not price:
                continue
            label = charts.BILLING_LABELS[slot]
            where = _where(price)
            if price.get("sold_as"):
                where += f" · {price['sold_as']}"
            if price.get("same_offer", True):
                text = _("%(slot)s: %(where)s") % {"slot": label, "where": where}
            else:
                text = _("%(slot)s price from another provider or region: %(where)s") % {
                    "slot": label,
                    "where": where,
                }
            slots.append(
                {
                    "text": text,
                    "mixed": not price.get("same_offer", True),
                    "indicative": bool(price.get("estimated")),
                    "used": slot == o["billing_used"],
                }
            )
        if slots:
            out.append({"role": role, "option": _option_label(o), "slots": slots})
    return out


def _on_request(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every offer sold on request that fits one of the workload's options (no figure, so it is
    listed after the priced options, never ranked above them), with a quote link for the
    operator's own servers."""
    seen: dict[str, dict[str, Any]] = {}
    for o in options:
        for offer in o.get("on_request") or []:
            if offer["price_id"] in seen:
                continue
            server = offer.get("server") or {}
            per_unit = int(offer.get("gpus_per_unit") or 1)
            seen[offer["price_id"]] = {
                "provider": offer["provider"],
                "region": offer.get("region") or "",
                "server": offer.get("sold_as") or server.get("name") or "",
                "spec": _server_spec(server),
                "card": o["name"],
                "count": o["count"],
                "per_unit": per_unit,
                "units": -(-int(o["count"]) // per_unit),
                "house": bool(offer.get("house")),
                "price_id": offer["price_id"],
            }
    return list(seen.values())


def _tco_rows(chosen: Option | None, result: ResultDocument) -> list[dict[str, Any]]:
    """Owned hardware's total cost of ownership as report lines: what each line costs a month,
    how it is worked out, and the source and date of the figures it uses (issue 22)."""
    t = cast(dict[str, Any], chosen).get("tco") if chosen is not None else None
    if not t or chosen is None:
        return []
    figures = cast(dict[str, Any], result["cost"]["figures_used"])
    used = t["figures"]

    def source(*keys: str) -> list[dict[str, Any]]:
        # The figure's name and the sites its source cites (the full research note, with its
        # long URLs, is on the catalog page and under Figures used).
        out = []
        for key in keys:
            name = used.get(key, "")
            fig = figures.get(name)
            if fig is not None:
                hosts = list(
                    dict.fromkeys(re.findall(r"https?://(?:www\.)?([^/\s);,]+)", fig["source"]))
                )
                label = engine_labels.shown("figure", name, result["lang"])
                out.append(
                    {
                        "text": f"{label}: {', '.join(hosts)}" if hosts else label,
                        "as_of": fig["as_of"],
                        "estimated": fig["estimated"],
                    }
                )
        return out

    count = chosen["count"]
    return [
        {
            "line": _("Purchase over the term"),
            "basis": _(
                "%(count)s × %(card)s a card + %(servers)s × %(server)s a server = %(capex)s, "
                "over %(months)s months"
            )
            % {
                "count": count,
                "card": usd(t["card_usd"]),
                "servers": t["servers"],
                "server": usd(t["server_usd"]),
                "capex": usd(t["capex_usd"]),
                "months": t["term_months"],
            },
            "usd": t["hardware_usd_per_month"],
            "sources": source("card", "server", "term"),
        },
        {
            "line": _("Electricity"),
            "basis": _("%(kw)s kW × PUE %(pue)s × %(kwh)s per kWh × %(hours)s hours")
            % {
                "kw": f"{t['kw']:,.2f}",
                "pue": f"{t['pue']:g}",
                "kwh": f"${t['usd_per_kwh']:.3f}",
                "hours": f"{(figures.get('hours_per_month') or {}).get('value', 730):g}",
            },
            "usd": t["power_usd_per_month"],
            "sources": source("server_overhead", "pue", "electricity"),
        },
        {
            "line": _("Colocation"),
            "basis": _("%(kw)s kW × %(rate)s per kW-month")
            % {"kw": f"{t['kw']:,.2f}", "rate": usd(t["colocation_usd_per_kw_month"])},
            "usd": t["colocation_usd_per_month"],
            "sources": source("colocation"),
        },
        {
            "line": _("Support"),
            "basis": _("a share of the purchase each year"),
            "usd": t["support_usd_per_month"],
            "sources": source("support"),
        },
        {
            "line": _("Staff"),
            "basis": _("operations hours at your staff's wage (see Staff)"),
            "usd": chosen["staff_usd_per_month"],
            "sources": [],
        },
    ]


def _break_even(chosen: Option | None) -> str:
    """Break-even as a sentence: how busy the cards are and which fixed prices pay off."""
    if chosen is None:
        return ""
    shares = [(s, v) for s, v in chosen["break_even_utilisation"].items() if v is not None]
    if not shares:
        return ""
    parts = []
    for slot, share in shares:
        billing = charts.BILLING_LABELS.get(slot, slot)
        if share > 1:
            parts.append(
                _("%(billing)s would not pay off even with the cards busy all month")
                % {"billing": billing}
            )
        else:
            parts.append(
                _("%(billing)s pays off once the cards are busy more than %(share)s of the month")
                % {"billing": billing, "share": _percent(share)}
            )
    text = _("Against paying by the hour: %(parts)s.") % {"parts": "; ".join(str(p) for p in parts)}
    if chosen.get("utilisation") is not None:
        text += " " + _("This plan keeps them busy %(share)s of the month.") % {
            "share": _percent(chosen["utilisation"])
        }
    return text


def _why_option(w: Workload, chosen: Option | None, names: dict[str, str]) -> dict[str, Any] | None:
    """The facts behind one workload's option, as (label, text) rows: mode decision,
    confidence parts, latency or time to result, cards that need porting, cards excluded and
    the rules applied. None for a v1 result, which states none of them."""
    md = w["mode_decision"]
    parts = w["confidence_parts"]
    if md is None and parts is None and not w["rules"] and not w["excluded_options"]:
        return None
    rows: list[tuple[Any, str]] = []
    if md is not None:
        chosen_mode = label_for("mode", md["chosen"])
        if md["chosen"] == md["by_scores"]:
            text = _("%(chosen)s, as the scores prefer") % {"chosen": chosen_mode}
        else:
            text = _("%(chosen)s (preferred by the scores: %(preferred)s)") % {
                "chosen": chosen_mode,
                "preferred": label_for("mode", md["by_scores"]),
            }
        gap = md.get("gap_usd")  # only when cost moved the mode
        if gap is not None and md["chosen"] != md["by_scores"]:
            text += " · " + _("cost gap %(gap)s") % {"gap": usd(abs(gap))}
        costs = md["costs"]
        per = chosen["cost_to_result"]["per"] if chosen and "cost_to_result" in chosen else None
        if len(costs) > 1 and per:
            text += " · " + _("best option in each mode (%(per)s): %(costs)s") % {
                "per": i18n.message(f"per.{per}", decisions.engine_language()),
                "costs": i18n.message("list.separator", decisions.engine_language()).join(
                    f"{label_for('mode', m)} {usd(c)}" for m, c in costs.items()
                ),
            }
        if md["reason"]:
            text += " — " + customer_text(md["reason"])
        rows.append((_("Deployment mode"), text))
    if parts is not None:
        rows.append(
            (
                _("Confidence"),
                _("family %(family)s · mode %(mode)s · card %(card)s")
                % {
                    "family": _percent(parts["family"]),
                    "mode": _percent(parts["mode"]),
                    "card": _percent(parts["card"]),
                },
            )
        )
    if chosen and chosen.get("latency_metric"):
        rows.append((_("Latency"), _latency_text(chosen)))
    if chosen and chosen.get("target_hours") is not None:
        rows.append((_("Time to result"), _time_text(chosen)))
    for o in w["options"]:
        if "stack" in o and o["stack"]["status"] == "needs_porting":
            what = "; ".join(o["stack"]["porting"]) or "—"
            rows.append((_("Needs porting"), f"{o['name']}: {what}"))
    for e in w["excluded_options"]:
        rows.append((_("Excluded"), f"{e['name']}: {customer_text(e['reason']) or '—'}"))
    rules = [label_for("rule", r) for r in w["rules"]]
    if rules:
        rows.append((_("Rules applied"), " · ".join(str(r) for r in rules)))
    option = f"{chosen['name']} × {chosen['count']}" if chosen else None
    return {"kind": w["kind"], "option": option, "rows": rows}


def _percent(value: Any) -> str:
    try:
        return f"{float(value) * 100:.0f}%"
    except (TypeError, ValueError):
        return "—"


def target_verdict(option: Mapping[str, Any]) -> str:
    """How an option stands to its target, with the margin (result documents from before
    issue 21 carry only met / not met)."""
    status = option.get("target_status")
    margin = option.get("target_margin")
    if status == "missed":
        return str(_("misses the target"))
    if status == "at_risk" and margin is not None:
        return str(
            _("met with only %(margin)s to spare: a risk, not met comfortably")
            % {"margin": f"{float(margin) * 100:.1f}%"}
        )
    if status == "met" and margin is not None:
        return str(_("met, %(margin)s to spare") % {"margin": f"{float(margin) * 100:.0f}%"})
    met = option.get("meets_deadline", option.get("meets_latency"))
    if met is None:
        return "—"
    if "meets_deadline" in option:
        return str(_("met") if met else _("cannot be met"))
    return str(_("met") if met else _("not met"))


def target_flagged(option: Mapping[str, Any]) -> bool:
    """Whether the report marks the option: it misses its target or meets it at risk."""
    met = option.get("meets_deadline", option.get("meets_latency"))
    return met is False or option.get("target_status") in ("missed", "at_risk")


def _latency_text(option: Option) -> str:
    metric = label_for("latency_metric", option.get("latency_metric"))
    at = option.get("latency_at_metric_ms")
    target = option.get("latency_target_ms")
    if target is None:
        return _("p95 %(metric)s: %(ms)s ms, no target") % {"metric": metric, "ms": _ms(at)}
    verdict = target_verdict(option)
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


def _time_text(option: Option) -> str:
    verdict = target_verdict(option)
    basis = TARGET_BASES.get(option.get("target_basis") or "", option.get("target_basis") or "—")
    return _("%(hours)s h per run against a target of %(target)s h (%(basis)s) — %(verdict)s") % {
        "hours": f"{option['hours']:,.1f}",
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


def _lever(change: Change, names: dict[str, str], language: str) -> dict[str, Any]:
    lang = decisions.engine_language()
    option = change.get("option")  # a lever names the option it leads to
    acc = option["accelerator_id"] if option else None
    return {
        "workload": change.get("workload"),
        "changes": [
            {
                "label": FIELD_LABELS.get(c["answer_path"], c["answer_path"]),
                "from": i18n.value_label(c["answer_path"], c["from"], lang),
                "to": i18n.value_label(c["answer_path"], c["to"], lang),
            }
            for c in change["changes"]
        ],
        "option": f"{names.get(acc, acc)} × {option['count']}" if option and acc else "—",
        "explanation": customer_text(change["explanation"]),
    }


def _option_price(option: Option) -> Price | None:
    prices = option["prices"]
    used = option["billing_used"]
    if used and prices.get(used):
        return prices[used]
    return next((p for p in prices.values() if p), None)


def _memory_context(
    result: ResultDocument,
    phase: str,
    sizing: TrainingSizing | InferenceSizing,
    names: dict[str, str],
    language: str,
) -> dict[str, Any]:
    svg = charts.memory_chart(result, language, phase=phase)
    # The chart shows the fewest devices per candidate; the text adds which cards cannot hold
    # the model at all and, for cards that need several devices, how they talk to each other.
    min_devices = sizing["min_devices"]
    interconnect = sizing["interconnect"]
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
        "parts": [(k, v) for k, v in sizing["memory_gib"].items() if k != "total"],
        "total": sizing["memory_gib"].get("total"),
        "fits": [names.get(a, a) for a in sizing["fits_single_device"]],
        "no_fit": no_fit,
        "interconnects": list(grouped.items()),
        "assumptions": [customer_text(a) for a in sizing["assumptions"]],
        "chart": charts.as_data_uri(svg) if svg else None,
    }


def _excluded(entry: Excluded) -> dict[str, Any]:
    option = entry["option"]
    label = {"gpu": _("GPU"), "tpu": _("TPU")}.get(option) or label_for("mode", option)
    return {**entry, "label": label, "reason": customer_text(entry["reason"])}


def _risks(
    result: ResultDocument, workloads: list[dict[str, Any]], memory: list[dict[str, Any]]
) -> list[str]:
    """Risks the result itself shows: prices, confidence, splits, sharding, known gaps."""
    rec = result["recommendation"]
    cost = result["cost"]
    # What the engine says about a workload's target (nothing meets it, or only inside the
    # safety margin) leads the risks, so page one shows it.
    risks: list[str] = [
        customer_text(t) for w in result["workloads"] for t in w.get("target_warnings") or ()
    ]
    stale = [p for p in cost["prices_used"] if p["stale"]]
    if stale:
        risks.append(
            _(
                "%(count)s of the %(total)s prices used are older than %(days)s days or undated: "
                "confirm them with the provider before quoting."
            )
            % {
                "count": len(stale),
                "total": len(cost["prices_used"]),
                "days": f"{cost['stale_after_days']:.0f}",
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
        raw = next(r for r in result["workloads"] if r["kind"] == w["kind"])
        if DE.is_dead(raw) or (
            w["confidence"] is not None and float(w["confidence"]) < LOW_CONFIDENCE
        ):
            # Worded from the same fields the plan shows (issue 24 item 2).
            risks.append(
                DE.workload_confidence_risk(
                    cast(Mapping[str, Any], raw), str(kind), float(w["confidence"] or 0)
                )
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
    confidence = rec["confidence"]
    if confidence < LOW_CONFIDENCE:
        risks.append(DE.overall_confidence_risk(cast(Mapping[str, Any], result), float(confidence)))
    if rec["split"]:
        risks.append(
            _(
                "Training and inference run on different infrastructure: plan to move "
                "checkpoints and models between them and to run two platforms."
            )
        )
    for m in memory:
        if not m["sizing"]["fits_single_device"]:
            risks.append(
                _(
                    "%(phase)s does not fit on any single device: it needs sharding or "
                    "parallelism and a fast interconnect."
                )
                % {"phase": _("Training") if m["phase"] == "training" else _("Serving")}
            )
    total, budget = cost["monthly_total_usd"], cost["monthly_budget_usd"]
    if total and budget and total > budget:
        risks.append(
            _("The estimated monthly total (%(total)s) is above the budget (%(budget)s).")
            % {"total": f"${float(total):,.0f}", "budget": f"${float(budget):,.0f}"}
        )
    for gap in cost["gaps"]:
        risks.append(_("Not in the price catalog yet: %(gap)s.") % {"gap": customer_text(gap)})
    return risks


def _next_steps(result: ResultDocument, workloads: list[dict[str, Any]]) -> list[str]:
    # A dead end's own next step first: the quote, or the answer to change (issue 22 item 1).
    dead = [customer_text(w["dead_end"]["next"]) for w in result["workloads"] if w.get("dead_end")]
    steps = [
        *dead,
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
    if any(w["billing"] in ("monthly_fixed", "purchase") for w in workloads):
        steps.append(
            _("Check utilisation after a month before committing to fixed or owned capacity.")
        )
    steps.append(_("Regenerate this report when prices or your answers change."))
    return steps


def _prices(cost: Cost) -> list[PriceUsed]:
    return sorted(cost["prices_used"], key=lambda p: (p["provider"], p["price_id"]))


def _price_sources(cost: Cost) -> list[dict[str, Any]]:
    """The prices used as a customer checks them: one row per provider's price page and date
    ("AWS EC2 price list, 2026-01-21"), the regions it covers, and what to watch in words
    (old, undated, estimated, worked out from a node price). No internal ids."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for p in _prices(cost):
        key = (p["provider"], p["as_of"] or "")
        group = groups.setdefault(
            key,
            {"page": _price_page(p["provider"]), "as_of": p["as_of"], "regions": [], "notes": []},
        )
        region = p.get("region") or ""
        if region and region not in group["regions"]:
            group["regions"].append(region)
        notes = []
        if p["stale"]:
            notes.append(
                _("confirm before quoting")
                if not p["as_of"]
                else _("older than %(days)s days: confirm before quoting")
                % {"days": f"{cost['stale_after_days']:.0f}"}
            )
        if p["estimated"]:
            notes.append(_("an estimate"))
        if (p.get("gpus_per_unit") or 1) > 1:
            notes.append(
                _("sold as %(gpus)s-card servers; the per-card price is worked out from it")
                % {"gpus": p["gpus_per_unit"]}
            )
        elif p["derived"]:
            notes.append(_("worked out from the published price"))
        for n in notes:
            if n not in group["notes"]:
                group["notes"].append(n)
    return list(groups.values())


def _figures(cost: Cost, language: str) -> list[dict[str, Any]]:
    """The figures used, each named and its unit written in the report's language, with a stale
    flag against the result's own date and threshold."""
    today = _parse_date(cost["today"])
    limit = cost["stale_after_days"]
    rows = []
    for key, fig in cost["figures_used"].items():
        as_of = _parse_date(fig["as_of"])
        stale = bool(as_of and today and limit and (today - as_of).days > limit)
        unit = engine_labels.unit(fig.get("unit") or "", language)
        # One label table (advisor/engine/labels.py) names every figure in both languages.
        label = engine_labels.shown("figure", key, language)
        rows.append({"key": key, **fig, "label": label, "unit": unit, "stale": stale})
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


def cost_table_csv(result: Mapping[str, Any], language: str) -> str:
    """One row per workload × option with every monthly cost component, in `language`."""
    doc = normalise(result)
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
                price = _option_price(o)
                run_cost, _slot = charts._run_cost(o)
                token_cost, _slot = charts._token_cost(o)
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
                            charts.BILLING_LABELS[used] if used else "",
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
    """Issue 21 item 7: the cost per the team's unit and the throughput's source (blank for
    token work)."""
    work = option.get("work")
    if not work:
        return ["", "", "", ""]
    cost, _slot = unit_work_cost(option)
    return [
        _blank(cost),
        i18n.message(f"per.{work['per']}", decisions.engine_language(language)),
        work["throughput"]["source"],
        work["throughput"]["as_of"] or "",
    ]


def _blank(value: Any) -> Any:
    return "" if value is None else value


def warm_up() -> None:
    """Load WeasyPrint, the stylesheet and the Latin and CJK fonts once (a worker calls this
    at start-up), so the first real report pays none of it."""
    render_report_pdf('<html lang="zh-Hant"><body><p>Advisor 加速器</p></body></html>')
