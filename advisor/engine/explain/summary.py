"""The plain-text summary of a result document that the CLI prints (--format text)."""

from __future__ import annotations

from typing import Any

from advisor.engine.result.document import ResultDocument
from advisor.engine.text import i18n


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value)


def text_summary(result: ResultDocument, lang: str) -> str:
    """A readable summary of a result document (the CLI's --format text)."""
    t = i18n.message
    rec = result["recommendation"]
    sized = [w for w in result["workloads"] if w["kind"] != "preprocessing"]
    # With no option for any workload there is no mode, billing or confidence to state.
    dead = bool(sized) and all(not w["options"] or w.get("dead_end") for w in sized)
    headline = (
        t("summary.headline_dead_end", lang)
        if dead
        else t(
            "summary.headline",
            lang,
            accelerator=i18n.label(rec["accelerator"], lang),
            mode=i18n.label(rec["deployment_mode"], lang),
            billing=i18n.label(rec["billing"], lang),
            confidence=f"{rec['confidence']:.2f}",
        )
    )
    lines = [
        f"== {t('summary.title', lang)} ==",
        headline,
        t(
            "summary.scores",
            lang,
            gpu=_fmt(rec["scores"]["gpu"]),
            tpu=_fmt(rec["scores"]["tpu"]) if rec["scores"]["tpu"] is not None else "—",
        ),
    ]
    split_note = rec["split_note"]
    if split_note:
        lines.append(split_note)
    if not dead:
        lines.append(rec["billing_reason"])
    if rec["excluded"]:
        lines.append(f"-- {t('summary.excluded', lang)} --")
        seen = set()
        for e in rec["excluded"]:
            if e["reason"] in seen:
                continue
            seen.add(e["reason"])
            lines.append(f"  - {i18n.label(e['option'], lang)}: {e['reason']}")
    lines.append(f"-- {t('summary.reasons', lang)} --")
    lines.extend(f"  - {r['explanation']}" for r in rec["reasons"][:8])
    lines.append(f"-- {t('summary.would_change', lang)} --")
    if rec["would_change_if"]:
        lines.extend(f"  - {w['explanation']}" for w in rec["would_change_if"])
    else:
        lines.append("  - " + t("would_change.none", lang))
    lines.append(f"-- {t('summary.workloads', lang)} --")
    for w in result["workloads"]:
        lines.append(
            "  "
            + t(
                "summary.workload",
                lang,
                kind=i18n.label(w["kind"], lang),
                accelerator=i18n.label(w["accelerator"], lang),
                mode=i18n.label(w["deployment_mode"], lang),
            )
        )
        for o in w["options"][:3]:
            cost = (
                t("summary.option_cost_month", lang, usd=_fmt(o["monthly_cost_usd"]))
                if o["monthly_cost_usd"] is not None
                else t("summary.option_cost_missing", lang)
            )
            lines.append(
                "    - "
                + t(
                    "summary.option",
                    lang,
                    count=o["count"],
                    name=o["name"],
                    hours=_fmt(o["hours"]),
                    cost=cost,
                )
            )
    for phase in ("training", "inference"):
        s = result["sizing"][phase]
        if s is None:
            continue
        mem = s["memory_gib"]
        extra = i18n.list_separator(lang).join(
            f"{i18n.label('other_memory' if k == 'other' else k, lang)} {v}"
            for k, v in mem.items()
            if k not in ("weights", "total")
        )
        colon = "：" if lang == "zh-hant" else ": "
        lines.append(f"-- {t('summary.sizing', lang)}{colon}{i18n.label(phase, lang)} --")
        lines.append(
            "  "
            + t(
                "summary.memory",
                lang,
                phase=i18n.label(s.get("peak_phase", phase), lang),
                total=mem["total"],
                weights=mem["weights"],
                extra=extra,
            )
        )
        lines.append(
            "  "
            + t(
                "summary.fits",
                lang,
                ids=i18n.list_separator(lang).join(s["fits_single_device"])
                or t("summary.none", lang),
            )
        )
        lines.append(f"  {t('summary.assumptions', lang)}{colon.strip()}")
        lines.extend(f"    * {a}" for a in s["assumptions"])
    srv = result["server"]
    if srv is not None:
        lines.append(
            t(
                "summary.server",
                lang,
                cpu=srv["cpu_cores"],
                ram=srv["ram_gib"],
                nvme=srv["nvme_tb"],
                net=srv["network_gbps"],
            )
        )
    for note in result["cost"]["notes"]:
        lines.append(f"! {note}")
    return "\n".join(lines) + "\n"
