"""Why the recommendation: the scored reasons with the answers behind them, each workload's
facts (mode decision, confidence parts, exclusions, rules), the levers and the excluded
families and modes."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from advisor.decisions import languages
from advisor.engine.result.document import Change, Excluded, Option, Reason, Workload
from advisor.engine.text import i18n
from advisor.labels import label_for, usd
from advisor.reporting.options import latency_text, mfu_text, time_text
from advisor.reporting.text import customer_text, percent, rationale_of

# Which label group of the label table (advisor/engine/text/labels.py) names an answer path's
# values.
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
    return i18n.value_label(path or "", value, languages.engine_language())


def reason_row(reason: Reason) -> dict[str, Any]:
    contributions = sorted(reason["contribution"].items(), key=lambda kv: (-abs(kv[1]), kv[0]))
    label: Any = reason["label"]
    # A per-workload criterion (scale and schedule) appears once per workload: name it.
    if reason["answer_path"].startswith("workloads[") and len(reason.get("workloads", [])) == 1:
        label = f"{label} ({label_for('kind', reason['workloads'][0])})"
    return {
        **reason,
        "label": label,
        "explanation": customer_text(reason["explanation"]),
        "rationale": rationale_of(customer_text(reason["explanation"])),
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


def why_option(w: Workload, chosen: Option | None, names: dict[str, str]) -> dict[str, Any] | None:
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
                "per": i18n.message(f"per.{per}", languages.engine_language()),
                "costs": i18n.list_separator(languages.engine_language()).join(
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
                    "family": percent(parts["family"]),
                    "mode": percent(parts["mode"]),
                    "card": percent(parts["card"]),
                },
            )
        )
    if chosen and chosen.get("latency_metric"):
        rows.append((_("Latency"), latency_text(chosen)))
    if chosen and chosen.get("target_hours") is not None:
        rows.append((_("Time to result"), time_text(chosen)))
        if chosen.get("mfu") is not None:
            rows.append((_("Training speed"), mfu_text(chosen)))
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


def lever_row(change: Change, names: dict[str, str], language: str) -> dict[str, Any]:
    lang = languages.engine_language()
    option = change.get("option")  # a lever names the option it leads to
    acc = option["accelerator_id"] if option else None
    return {
        "workload": change.get("workload"),
        "changes": [
            {
                # As the wizard asked it (the engine's one field-label table).
                "label": i18n.field_question(c["answer_path"], lang),
                "from": i18n.value_label(c["answer_path"], c["from"], lang),
                "to": i18n.value_label(c["answer_path"], c["to"], lang),
            }
            for c in change["changes"]
        ],
        "option": f"{names.get(acc, acc)} × {option['count']}" if option and acc else "—",
        "explanation": customer_text(change["explanation"]),
    }


def excluded_row(entry: Excluded) -> dict[str, Any]:
    option = entry["option"]
    label = {"gpu": _("GPU"), "tpu": _("TPU")}.get(option) or label_for("mode", option)
    return {**entry, "label": label, "reason": customer_text(entry["reason"])}
