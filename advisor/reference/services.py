"""Write-side operations on scoring models, catalogs, their impact previews and the public price
refresh: clone, import, export, diff, publish. Only services call the engine or write models."""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import re
import time
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Organization, User
from advisor import decisions
from advisor.engine import (
    Answers,
    AnswersError,
    ScoringModelError,
    evaluate,
    load_catalog,
    load_scoring_model,
    parse_answers,
    rescore,
)
from advisor.engine import Catalog as EngineCatalog
from advisor.engine import ScoringModel as EngineScoringModel
from advisor.engine.answers import preset_ids
from advisor.engine.catalog import CatalogError
from advisor.engine.offers import import_offers
from advisor.engine.samples import sample
from advisor.jsonsafe import (
    NAME_HAS_CONTROL_CHARACTERS,
    JSONRefused,
    has_control_characters,
    json_load_bounded,
)
from advisor.models import Assessment
from advisor.reference.catalog_rows import (
    CATALOG_ROW_KEYS,
    accelerator_fields,
    preset_fields,
    price_fields,
)
from advisor.reference.models import (
    ANSWER_VALUES,
    MAX_POINTS,
    MAX_WEIGHT,
    OPTION_CHOICES,
    PHASE_CHOICES,
    Catalog,
    CatalogAccelerator,
    CatalogPreset,
    CatalogPrice,
    Contribution,
    Criterion,
    ImpactPreview,
    PriceRefresh,
    ScoringModel,
)
from advisor.reference.prices import registry as price_sources
from advisor.reference.prices.base import (
    PLACES,
    PriceTarget,
    PriceUpdate,
    SourceResult,
    SourceUnavailable,
    Transport,
    UrllibTransport,
)
from advisor.starters import STARTERS

logger = logging.getLogger(__name__)


# --- Scoring models --------------------------------------------------------------------------

# Below this many submitted assessments a preview runs in the request (about 0.1 s per 1,000);
# above, a worker runs it and the page polls its progress.
INLINE_PREVIEW_LIMIT = 2_000
# The preview keeps this many flipped assessments to list; the counts cover all of them.
FLIPS_KEPT = 1_000
_TOP_LEVEL = ("name", "version", "description", "criteria")


class ScoringModelLocked(Exception):
    """A published or retired scoring model never changes; editing means cloning it."""

    def __init__(self, model: ScoringModel) -> None:
        self.model = model
        super().__init__(
            gettext(
                "%(model)s is %(status)s: published and retired scoring models never change. "
                "Clone it into a new draft to edit it."
            )
            % {"model": model, "status": model.get_status_display().lower()}
        )


class ScoringModelInvalid(Exception):
    """What stops an import or a publish, each problem a sentence in the user's language."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _decimals_ok(value: float, places: int) -> bool:
    return Decimal(str(value)) == Decimal(str(value)).quantize(Decimal(1).scaleb(-places))


def _criterion_problems(i: int, c: Any) -> list[str]:
    if not isinstance(c, dict):
        return [gettext("Criterion %(n)s is not an object.") % {"n": i + 1}]
    key = c.get("id") or str(i + 1)
    say = {"criterion": key}
    out: list[str] = []
    if not isinstance(c.get("id"), str) or not re.fullmatch(r"[a-z][a-z0-9_]*", c["id"]):
        out.append(
            gettext(
                "Criterion %(criterion)s: its id must be lower-case letters, digits and "
                "underscores, starting with a letter."
            )
            % say
        )
    answer = c.get("answer")
    if answer not in ANSWER_VALUES:
        out.append(
            gettext("Criterion %(criterion)s: %(answer)s is not an answer the engine reads.")
            % {**say, "answer": answer}
        )
    weight: Any = c.get("weight")
    if not _is_number(weight):
        out.append(gettext("Criterion %(criterion)s: the weight must be a number.") % say)
    elif weight <= 0:
        out.append(
            gettext("Criterion %(criterion)s: the weight %(weight)s must be more than 0.")
            % {**say, "weight": weight}
        )
    elif weight > MAX_WEIGHT:
        out.append(
            gettext(
                "Criterion %(criterion)s: the weight %(weight)s is too large "
                "(weights go up to %(max)s)."
            )
            % {**say, "weight": weight, "max": MAX_WEIGHT}
        )
    elif not _decimals_ok(weight, 2):
        out.append(gettext("Criterion %(criterion)s: weights have at most two decimals.") % say)
    applies = c.get("applies_to")
    if (
        not isinstance(applies, list)
        or not applies
        or any(p not in dict(PHASE_CHOICES) for p in applies)
    ):
        out.append(
            gettext(
                "Criterion %(criterion)s: it must apply to one or more of training, "
                "inference and preprocessing."
            )
            % say
        )
    for field_name in ("label", "rationale"):
        text = c.get(field_name)
        if field_name == "rationale" and text is None:
            continue
        if not isinstance(text, dict) or not all(
            isinstance(text.get(lang), str) and text[lang].strip() for lang in ("en", "zh-hant")
        ):
            out.append(
                gettext(
                    "Criterion %(criterion)s: the %(field)s needs an English and a "
                    "Traditional Chinese text."
                )
                % {**say, "field": field_name}
            )
    out.extend(_contribution_problems(c.get("contributions"), answer, say))
    return out


def _contribution_problems(contributions: Any, answer: Any, say: dict[str, Any]) -> list[str]:
    if not isinstance(contributions, dict) or not contributions:
        return [gettext("Criterion %(criterion)s: it has no contributions.") % say]
    out: list[str] = []
    allowed = ANSWER_VALUES.get(answer) if isinstance(answer, str) else None
    options = dict(OPTION_CHOICES)
    moves = False
    for value, points in contributions.items():
        if allowed is not None and value not in allowed:
            out.append(
                gettext(
                    "Criterion %(criterion)s: %(value)s is not a value of %(answer)s "
                    "(it can be %(allowed)s)."
                )
                % {**say, "value": value, "answer": answer, "allowed": ", ".join(allowed)}
            )
        if not isinstance(points, dict):
            out.append(
                gettext("Criterion %(criterion)s: the points for %(value)s must be an object.")
                % {**say, "value": value}
            )
            continue
        for option, p in points.items():
            if option not in options:
                out.append(
                    gettext(
                        "Criterion %(criterion)s: %(option)s is not an option "
                        "(the options are %(options)s)."
                    )
                    % {**say, "option": option, "options": ", ".join(options)}
                )
            elif not _is_number(p) or abs(p) > MAX_POINTS or not _decimals_ok(p, 3):
                out.append(
                    gettext(
                        "Criterion %(criterion)s: %(value)s → %(option)s gives %(points)s "
                        "points; points are numbers from -%(max)s to %(max)s with at most "
                        "three decimals."
                    )
                    % {**say, "value": value, "option": option, "points": p, "max": MAX_POINTS}
                )
            elif p:
                moves = True
    if not moves and not out:
        out.append(gettext("Criterion %(criterion)s: it gives no points to any option.") % say)
    return out


# A PositiveIntegerField's largest value on PostgreSQL (and the other databases Django supports).
_MAX_VERSION = 2_147_483_647


def scoring_document_problems(document: Any) -> list[str]:
    """Every problem that keeps `document` from being a scoring model, as sentences in the
    user's language: the admin's bounds first, then anything else the engine refuses."""
    if not isinstance(document, dict):
        return [gettext("The file must hold one JSON object: a scoring model.")]
    out: list[str] = []
    name = document.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        out.append(gettext("The model needs a name of 1 to 100 characters."))
    elif has_control_characters(name):
        out.append(str(NAME_HAS_CONTROL_CHARACTERS))
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        out.append(gettext("The version must be a whole number from 1 up."))
    elif version > _MAX_VERSION:
        out.append(
            gettext("The version %(version)s is too large (versions go up to %(limit)s).")
            % {"version": version, "limit": f"{_MAX_VERSION:,}"}
        )
    criteria = document.get("criteria")
    if not isinstance(criteria, list) or not criteria:
        out.append(gettext("A scoring model needs at least one criterion."))
        criteria = []
    seen: set[str] = set()
    for i, c in enumerate(criteria):
        out.extend(_criterion_problems(i, c))
        key = c.get("id") if isinstance(c, dict) else None
        if isinstance(key, str) and key in seen:
            out.append(gettext("Criterion %(criterion)s appears twice.") % {"criterion": key})
        seen.add(str(key))
    if out:
        return out
    try:
        load_scoring_model(document)
    except ScoringModelError as error:
        lang = decisions.engine_language()
        return [f"{p.path}: {p.message(lang)}" for p in error.problems]
    return []


def _set_history_user(obj: Any, user: User | None) -> None:
    # simple_history takes the user from the request; services also run outside one.
    if user is not None:
        obj._history_user = user


def scoring_model_from_document(
    *, document: dict[str, Any], user: User | None, status: str = ScoringModel.Status.DRAFT
) -> ScoringModel:
    """Rows for a validated engine document (see `scoring_document_problems`)."""
    with transaction.atomic():
        model = ScoringModel(
            name=document["name"],
            version=document["version"],
            status=status,
            description=document.get("description", ""),
            data={k: v for k, v in document.items() if k not in _TOP_LEVEL},
            created_by=user,
        )
        _set_history_user(model, user)
        model.save()
        for criterion, contributions in _criterion_rows(document):
            criterion.scoring_model = model
            _set_history_user(criterion, user)
            criterion.save()
            for row in contributions:
                row.criterion = criterion
                _set_history_user(row, user)
                row.save()
    return model


def _criterion_rows(document: dict[str, Any]) -> list[tuple[Criterion, list[Contribution]]]:
    """Unsaved criterion and contribution rows for a validated engine document."""
    out = []
    for order, c in enumerate(document["criteria"]):
        criterion = Criterion(
            key=c["id"],
            answer=c["answer"],
            weight=Decimal(str(c["weight"])),
            applies_to=list(c["applies_to"]),
            combine=c.get("combine", ""),
            label_en=c["label"]["en"],
            label_zh=c["label"]["zh-hant"],
            rationale_en=c.get("rationale", {}).get("en", ""),
            rationale_zh=c.get("rationale", {}).get("zh-hant", ""),
            order=order,
        )
        contributions = []
        for value, points in c["contributions"].items():
            rows = [(o, Decimal(str(p))) for o, p in points.items()] or [("", Decimal(0))]
            contributions += [Contribution(value=value, option=o, points=p) for o, p in rows]
        out.append((criterion, contributions))
    return out


# The field checks whose failure the database would otherwise raise as a 500 on import.
_STORAGE_CODES = frozenset(
    {"max_length", "max_digits", "max_whole_digits", "max_value", "min_value", "null"}
)


def _storage_problems(row: Any, label: str) -> list[str]:
    """What the database would refuse in `row` (too long, too large), as sentences."""
    foreign = [f.name for f in row._meta.concrete_fields if f.is_relation]
    try:
        row.clean_fields(exclude=foreign)
    except ValidationError as error:
        return [
            gettext("%(row)s, %(field)s: %(problem)s")
            % {
                "row": label,
                "field": row._meta.get_field(name).verbose_name,
                "problem": " ".join(e.messages[0] for e in stored),
            }
            for name, errors in error.error_dict.items()
            if (stored := [e for e in errors if e.code in _STORAGE_CODES])
        ]
    return []


def _scoring_storage_problems(document: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for criterion, contributions in _criterion_rows(document):
        label = gettext("Criterion %(criterion)s") % {"criterion": criterion.key}
        out.extend(_storage_problems(criterion, label))
        for row in contributions:
            out.extend(_storage_problems(row, f"{label}, {row.value} → {row.option}"))
    return out


def scoring_model_ensure_editable(*, model: ScoringModel) -> None:
    """Raises ScoringModelLocked unless `model` is a draft (as stored, not as in memory)."""
    status = ScoringModel.objects.filter(pk=model.pk).values_list("status", flat=True).first()
    if status is not None and status != ScoringModel.Status.DRAFT:
        raise ScoringModelLocked(model)


def scoring_model_next_version(*, name: str) -> int:
    latest = ScoringModel.objects.filter(name=name).aggregate(v=Max("version"))["v"]
    return (latest or 0) + 1


def scoring_model_clone(*, model: ScoringModel, user: User | None) -> ScoringModel:
    """A new draft with the same criteria, numbered after the newest version of that name."""
    document = model.to_document()
    document["version"] = scoring_model_next_version(name=model.name)
    return scoring_model_from_document(document=document, user=user)


def scoring_model_publish(*, model: ScoringModel, user: User | None) -> ScoringModel:
    """Make a draft the active model and retire the one before; refused with every problem
    the engine finds. New reports use it at once; finished ones keep the version they name."""
    published: ScoringModel = _publish(
        ScoringModel,
        pk=model.pk,
        user=user,
        problems=scoring_document_problems,
        locked=ScoringModelLocked,
        invalid=ScoringModelInvalid,
    )
    return published


def _publish(
    rows: type[Any],
    *,
    pk: int,
    user: User | None,
    problems: Callable[[Any], list[str]],
    locked: Callable[[Any], Exception],
    invalid: Callable[[list[str]], Exception],
) -> Any:
    """Publish the draft `rows` row `pk` and retire the published one, in one transaction."""
    with transaction.atomic():
        draft = rows.objects.select_for_update().get(pk=pk)
        if draft.status != rows.Status.DRAFT:
            raise locked(draft)
        found = problems(draft.to_document())
        if found:
            raise invalid(found)
        now = timezone.now()
        for previous in rows.objects.select_for_update().filter(status=rows.Status.PUBLISHED):
            previous.status = rows.Status.RETIRED
            previous.retired_at = now
            _set_history_user(previous, user)
            previous.save(update_fields=["status", "retired_at"])
        draft.status = rows.Status.PUBLISHED
        draft.published_at = now
        draft.published_by = user
        _set_history_user(draft, user)
        draft.save(update_fields=["status", "published_at", "published_by"])
    return draft


def scoring_model_import(*, json_text: str, user: User | None) -> ScoringModel:
    """A new draft from an exported JSON document; ScoringModelInvalid lists every problem."""
    try:
        document = json_load_bounded(json_text)
    except JSONRefused as error:
        raise ScoringModelInvalid([error.message]) from error
    problems = scoring_document_problems(document) or _scoring_storage_problems(document)
    if problems:
        raise ScoringModelInvalid(problems)
    name, version = document["name"], document["version"]
    if ScoringModel.objects.filter(name=name, version=version).exists():
        raise ScoringModelInvalid(
            [
                gettext(
                    "Version %(version)s of %(name)s already exists; give the file another "
                    "version number (the next free one is %(next)s)."
                )
                % {
                    "version": version,
                    "name": name,
                    "next": scoring_model_next_version(name=name),
                }
            ]
        )
    return scoring_model_from_document(document=document, user=user)


def scoring_model_export(*, model: ScoringModel) -> str:
    """The model as the engine's JSON document (what import reads back)."""
    return json.dumps(model.to_document(), ensure_ascii=False, indent=2) + "\n"


def _contribution_map(c: dict[str, Any]) -> dict[tuple[str, str], float]:
    return {
        (value, option): float(p)
        for value, points in c["contributions"].items()
        for option, p in points.items()
    }


def scoring_model_diff(*, old: ScoringModel, new: ScoringModel) -> dict[str, Any]:
    """What changed from `old` to `new`: criteria, weights, contributions and texts, as rows
    of {change: added|removed|changed, criterion, field, item, before, after}."""
    a = {c["id"]: c for c in old.to_document()["criteria"]}
    b = {c["id"]: c for c in new.to_document()["criteria"]}
    rows: list[dict[str, Any]] = []

    def row(change: str, criterion: str, attr: str, item: str, before: Any, after: Any) -> None:
        rows.append(
            {
                "change": change,
                "criterion": criterion,
                "field": attr,
                "item": item,
                "before": before,
                "after": after,
            }
        )

    for key in a.keys() - b.keys():
        row("removed", key, "criterion", a[key]["label"]["en"], a[key]["weight"], None)
    for key in b.keys() - a.keys():
        row("added", key, "criterion", b[key]["label"]["en"], None, b[key]["weight"])
    for key in [k for k in b if k in a]:
        ca, cb = a[key], b[key]
        for attr in ("weight", "answer", "applies_to", "combine", "label", "rationale"):
            if ca.get(attr) != cb.get(attr):
                row("changed", key, attr, "", ca.get(attr), cb.get(attr))
        pa, pb = _contribution_map(ca), _contribution_map(cb)
        for value, option in sorted(pa.keys() | pb.keys()):
            item = f"{value} → {option}"
            before, after = pa.get((value, option)), pb.get((value, option))
            if before is None:
                row("added", key, "contribution", item, None, after)
            elif after is None:
                row("removed", key, "contribution", item, before, None)
            elif before != after:
                row("changed", key, "contribution", item, before, after)
    rows.sort(key=lambda r: (r["criterion"], r["field"] != "criterion", r["field"], r["item"]))
    settings_changed = sorted(
        k for k in (old.data.keys() | new.data.keys()) if old.data.get(k) != new.data.get(k)
    )
    counts = {c: sum(1 for r in rows if r["change"] == c) for c in ("added", "removed", "changed")}
    return {"rows": rows, "counts": counts, "settings_changed": settings_changed}


def _shift_histogram(shifts: list[float]) -> list[dict[str, float]]:
    if not shifts:
        return []
    low, high = min(shifts), max(shifts)
    if high - low < 1e-9:
        return [{"start": round(low, 3), "end": round(high, 3), "count": len(shifts)}]
    # A "nice" bin width giving at most about 20 bars.
    width = next(
        step * 10**exp
        for exp in range(-2, 6)
        for step in (1, 2, 2.5, 5)
        if step * 10**exp >= (high - low) / 20
    )
    first = math.floor(low / width)
    counts = [0] * (math.floor(high / width) - first + 1)
    for s in shifts:
        counts[math.floor(s / width) - first] += 1
    return [
        {
            "start": round((first + i) * width, 3),
            "end": round((first + i + 1) * width, 3),
            "count": n,
        }
        for i, n in enumerate(counts)
    ]


def impact_preview(
    *,
    draft: ScoringModel | None = None,
    catalog_draft: Catalog | None = None,
    limit: int | None = None,
    progress: Callable[[float], None] | None = None,
) -> dict[str, Any]:
    """Re-score every submitted assessment with a draft scoring model, or a draft catalog, and
    with the active ones.

    Counts the flips (GPU↔TPU, deployment mode, billing), lists the flipped assessments and
    bins the shift of the GPU−TPU score difference (positive: towards GPU). Assessments
    whose stored answers no longer validate are counted as skipped.
    """
    lang = decisions.engine_language()
    baseline = decisions.active_scoring_model()
    catalog = candidate_catalog = decisions.active_catalog()
    candidate = baseline
    if draft is not None:
        try:
            candidate = load_scoring_model(draft.to_document())
        except ScoringModelError as error:
            raise ScoringModelInvalid(
                [f"{p.path}: {p.message(lang)}" for p in error.problems]
            ) from error
        names = {
            "baseline": {"name": baseline.name, "version": baseline.version},
            "candidate": {"name": draft.name, "version": draft.version},
        }
    elif catalog_draft is not None:
        try:
            candidate_catalog = load_catalog(catalog_draft.to_document())
        except CatalogError as error:
            raise ScoringModelInvalid(
                [f"{p.path}: {p.message(lang)}" for p in error.problems]
            ) from error
        names = {
            "baseline": {"name": "catalog", "version": catalog.version},
            "candidate": {"name": "catalog", "version": catalog_draft.version},
        }
    else:
        raise ValueError("a preview needs a draft scoring model or a draft catalog")
    started = time.perf_counter()
    rows = (
        Assessment.objects.filter(status=Assessment.Status.SUBMITTED)
        .order_by("pk")
        .values_list("pk", "title", "organization__name", "answers")
    )
    if limit is not None:
        rows = rows[:limit]
    total = rows.count()
    flips = {"accelerator": 0, "gpu_to_tpu": 0, "tpu_to_gpu": 0, "deployment_mode": 0, "billing": 0}
    # A catalog changes which card is cheapest and what it costs, which the fast path leaves
    # out: catalog previews also compare the full results (cards and monthly cost), and their
    # shift is the change of the monthly cost in percent.
    pricing = catalog_draft is not None
    if pricing:
        flips["card"] = 0
    keys = ("accelerator", "deployment_mode", "billing", *(("card",) if pricing else ()))
    today = timezone.localdate()
    flipped: list[dict[str, Any]] = []
    flipped_total = scored = skipped = 0
    shifts: list[float] = []
    for i, (pk, title, organization, answers) in enumerate(rows.iterator(chunk_size=1_000)):
        if progress is not None and i and i % 1_000 == 0:
            progress(i / total)
        try:
            parsed = parse_answers(answers)
        except AnswersError:
            skipped += 1
            continue
        before = rescore(parsed, catalog, baseline)
        after = rescore(parsed, candidate_catalog, candidate)
        if pricing:
            before.update(_priced(parsed, catalog, baseline, today))
            after.update(_priced(parsed, candidate_catalog, candidate, today))
        scored += 1
        changes = [k for k in keys if before[k] != after[k]]
        for k in changes:
            flips[k] += 1
        if "accelerator" in changes:
            flips["gpu_to_tpu" if after["accelerator"] == "tpu" else "tpu_to_gpu"] += 1
        if changes:
            flipped_total += 1
            if len(flipped) < FLIPS_KEPT:
                flipped.append(
                    {
                        "id": pk,
                        "title": title,
                        "organization": organization,
                        "changes": changes,
                        "before": {k: before[k] for k in (*keys, "monthly_usd") if k in before},
                        "after": {k: after[k] for k in (*keys, "monthly_usd") if k in after},
                    }
                )
        if pricing:
            if before["monthly_usd"] and after["monthly_usd"] is not None:
                shifts.append(round(100 * (after["monthly_usd"] / before["monthly_usd"] - 1), 6))
            continue
        b, a = before["scores"], after["scores"]
        if None not in (b["gpu"], b["tpu"], a["gpu"], a["tpu"]):
            shifts.append(round((a["gpu"] - a["tpu"]) - (b["gpu"] - b["tpu"]), 6))
    return {
        **names,
        "kind": "catalog" if pricing else "scoring",
        "total": total,
        "scored": scored,
        "skipped": skipped,
        "flips": flips,
        "flipped_total": flipped_total,
        "flipped": flipped,
        "shift": {
            "histogram": _shift_histogram(shifts),
            "count": len(shifts),
            "unchanged": sum(1 for s in shifts if abs(s) < 1e-9),
            "mean": round(sum(shifts) / len(shifts), 3) if shifts else 0.0,
            "min": round(min(shifts), 3) if shifts else 0.0,
            "max": round(max(shifts), 3) if shifts else 0.0,
        },
        "seconds": round(time.perf_counter() - started, 3),
    }


def _priced(
    answers: Answers, catalog: EngineCatalog, scoring: EngineScoringModel, today: date
) -> dict[str, Any]:
    """The cards recommended per workload ("h100 × 8, ...") and the monthly cost."""
    result = evaluate(answers, catalog, scoring, lang="en", today=today)
    cost = result["cost"]
    card = ", ".join(f"{w['accelerator_id']} × {w['count']}" for w in cost["by_workload"])
    return {"card": card or None, "monthly_usd": cost["monthly_total_usd"]}


def impact_preview_request(
    *, draft: ScoringModel | None = None, catalog: Catalog | None = None, user: User | None
) -> ImpactPreview:
    """Start a preview of a draft scoring model or catalog: inline for a few assessments, else
    on a worker after commit."""
    total = Assessment.objects.filter(status=Assessment.Status.SUBMITTED).count()
    preview = ImpactPreview.objects.create(
        scoring_model=draft, catalog=catalog, requested_by=user, total=total
    )
    if total < INLINE_PREVIEW_LIMIT:
        return impact_preview_run(preview_id=preview.pk)
    transaction.on_commit(lambda: impact_preview_enqueue(preview_id=preview.pk))
    return preview


def impact_preview_enqueue(*, preview_id: int) -> bool:
    from advisor.reference.tasks import run_impact_preview

    try:
        run_impact_preview.apply_async(
            args=(preview_id,),
            retry=True,
            retry_policy={"max_retries": 1, "interval_start": 0, "interval_step": 0.2},
        )
    except Exception:  # kombu/redis raise transport-specific errors
        logger.warning("impact preview %s: broker unreachable", preview_id, exc_info=True)
        ImpactPreview.objects.filter(pk=preview_id).update(
            status=ImpactPreview.Status.FAILED,
            error=gettext("No worker could be reached; try again in a minute."),
            finished_at=timezone.now(),
        )
        return False
    return True


def impact_preview_run(*, preview_id: int) -> ImpactPreview:
    """Compute one preview and store it; a finished one is left as it is."""
    preview = ImpactPreview.objects.select_related("scoring_model", "catalog").get(pk=preview_id)
    if preview.is_finished:
        return preview
    ImpactPreview.objects.filter(pk=preview_id).update(
        status=ImpactPreview.Status.RUNNING, started_at=timezone.now()
    )

    def progress(fraction: float) -> None:
        ImpactPreview.objects.filter(pk=preview_id).update(progress=round(fraction, 3))

    try:
        result = impact_preview(
            draft=preview.scoring_model, catalog_draft=preview.catalog, progress=progress
        )
    except ScoringModelInvalid as error:
        ImpactPreview.objects.filter(pk=preview_id).update(
            status=ImpactPreview.Status.FAILED,
            error="\n".join(error.problems),
            finished_at=timezone.now(),
        )
    else:
        ImpactPreview.objects.filter(pk=preview_id).update(
            status=ImpactPreview.Status.DONE,
            progress=1.0,
            total=result["total"],
            result=result,
            finished_at=timezone.now(),
        )
    preview.refresh_from_db()
    return preview


# --- Catalog ----------------------------------------------------------------------------------


class CatalogLocked(Exception):
    """A published or retired catalog never changes; editing means cloning it."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        super().__init__(
            gettext(
                "%(catalog)s is %(status)s: published and retired catalogs never change, so "
                "that every report keeps meaning the prices it was made with. Clone it into a "
                "new draft to edit it."
            )
            % {"catalog": catalog, "status": catalog.get_status_display().lower()}
        )


class CatalogInvalid(Exception):
    """What stops a catalog import or publish, each problem a sentence in the user's language."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


def catalog_document_problems(document: Any) -> list[str]:
    """Every problem that keeps `document` from being a catalog the product can publish: the
    engine's checks, plus the wizard's fixed list of model presets and sane price dates."""
    if not isinstance(document, dict):
        return [gettext("The file must hold one JSON object: a catalog.")]
    try:
        catalog = load_catalog(document)
    except CatalogError as error:
        lang = decisions.engine_language()
        return [f"{p.path}: {p.message(lang)}" for p in error.problems]
    out: list[str] = []
    # The answers schema names the presets a wizard offers; a catalog must size every one.
    offered, present = set(preset_ids()), set(catalog.presets)
    if offered - present:
        out.append(
            gettext(
                "The model presets %(missing)s are missing: the wizard offers them, so every "
                "catalog must size them."
            )
            % {"missing": ", ".join(sorted(offered - present))}
        )
    if present - offered:
        out.append(
            gettext(
                "The model presets %(unknown)s are not offered by the wizard; a new preset "
                "needs a new version of the answers schema (people can enter any model by its "
                "architecture meanwhile)."
            )
            % {"unknown": ", ".join(sorted(present - offered))}
        )
    out.extend(
        gettext("Accelerator %(id)s: the name holds a line break, tab or other control character.")
        % {"id": a.id}
        for a in catalog.accelerators
        if has_control_characters(a.name)
    )
    out.extend(
        gettext("Model preset %(id)s: the name holds a line break, tab or other control character.")
        % {"id": p.id}
        for p in catalog.presets.values()
        if has_control_characters(p.name)
    )
    today = timezone.localdate().isoformat()
    for price in catalog.prices:
        if price.as_of and price.as_of > today:
            out.append(
                gettext("Price %(price)s is dated %(date)s, which is in the future.")
                % {"price": price.id, "date": price.as_of}
            )
    return out


def catalog_from_document(
    *, document: dict[str, Any], user: User | None, version: int, status: str = "draft"
) -> Catalog:
    """Rows for a validated engine catalog document (see `catalog_document_problems`)."""
    with transaction.atomic():
        catalog = Catalog(
            version=version,
            status=status,
            description=document.get("description", ""),
            data={k: v for k, v in document.items() if k not in CATALOG_ROW_KEYS},
            created_by=user,
        )
        _set_history_user(catalog, user)
        catalog.save()
        accelerators: dict[str, CatalogAccelerator] = {}
        for a in document["accelerators"]:
            accelerators[a["id"]] = CatalogAccelerator(catalog=catalog, **accelerator_fields(a))
        rows: list[Any] = list(accelerators.values())
        CatalogAccelerator.objects.bulk_create(rows)
        prices = [
            CatalogPrice(
                catalog=catalog, accelerator=accelerators[p["accelerator_id"]], **price_fields(p)
            )
            for p in document["prices"]
        ]
        CatalogPrice.objects.bulk_create(prices)
        presets = [
            CatalogPreset(catalog=catalog, **preset_fields(p))
            for p in document.get("model_presets") or []
        ]
        CatalogPreset.objects.bulk_create(presets)
        # bulk_create skips the history; write it, so the audit shows who created each row.
        for model, created in (
            (CatalogAccelerator, rows),
            (CatalogPrice, prices),
            (CatalogPreset, presets),
        ):
            history: Any = model.history
            history.bulk_history_create(created, default_user=user)
    return catalog


def catalog_ensure_editable(*, catalog: Catalog) -> None:
    """Raises CatalogLocked unless `catalog` is a draft (as stored, not as in memory)."""
    status = Catalog.objects.filter(pk=catalog.pk).values_list("status", flat=True).first()
    if status is not None and status != Catalog.Status.DRAFT:
        raise CatalogLocked(catalog)


def catalog_next_version() -> int:
    return (Catalog.objects.aggregate(v=Max("version"))["v"] or 0) + 1


def catalog_clone(*, catalog: Catalog, user: User | None) -> Catalog:
    """A new draft with the same accelerators, prices and presets, numbered after the newest."""
    return catalog_from_document(
        document=catalog.to_document(), user=user, version=catalog_next_version()
    )


def catalog_draft_for_edit(*, user: User | None) -> tuple[Catalog, bool]:
    """The draft an edit writes to, and whether it was created here: the newest draft, else
    a new one cloned from the published catalog (the bundled one on a fresh database), so that
    the house-offer form works without cloning a draft first (issue 22 item 7)."""
    draft = Catalog.objects.filter(status=Catalog.Status.DRAFT).order_by("-version").first()
    if draft is not None:
        return draft, False
    published = Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
    if published is not None:
        return catalog_clone(catalog=published, user=user), True
    document = decisions.active_catalog().to_dict()
    return catalog_from_document(document=document, user=user, version=catalog_next_version()), True


def catalog_publish(*, catalog: Catalog, user: User | None) -> Catalog:
    """Make a draft the active catalog and retire the one before; refused with every problem
    found. New reports price with it at once; finished ones keep the catalog they name."""
    published: Catalog = _publish(
        Catalog,
        pk=catalog.pk,
        user=user,
        problems=catalog_document_problems,
        locked=CatalogLocked,
        invalid=CatalogInvalid,
    )
    return published


# A catalog file may be larger than a scoring model; the bundled one is about 140 KB.
CATALOG_IMPORT_MAX_BYTES = 5_000_000


def catalog_import(*, json_text: str, user: User | None) -> Catalog:
    """A new draft (the next version number) from a catalog JSON document; CatalogInvalid
    lists every problem. The file's own version is kept only as a note."""
    try:
        document = json_load_bounded(json_text, max_bytes=CATALOG_IMPORT_MAX_BYTES)
    except JSONRefused as error:
        raise CatalogInvalid([error.message]) from error
    if isinstance(document, dict) and "model_presets" not in document:
        # An exported price list without presets keeps the active catalog's.
        document["model_presets"] = [
            dataclasses.asdict(p) for p in decisions.active_catalog().presets.values()
        ]
    problems = catalog_document_problems(document) or _catalog_storage_problems(document)
    if problems:
        raise CatalogInvalid(problems)
    document["imported_version"] = str(document["version"])
    return catalog_from_document(document=document, user=user, version=catalog_next_version())


@dataclasses.dataclass(frozen=True)
class OffersImported:
    catalog: Catalog
    prices: int
    held: list[dict[str, Any]]


def catalog_import_offers(
    *,
    json_text: str,
    user: User | None,
    fx: dict[str, dict[str, Any]] | None = None,
    id_prefix: str = "rg",
    reference: str = "",
) -> OffersImported:
    """A new draft: the published catalog plus the price rows of an offers file (the shape of
    shared/reference/offers_hk_tokyo_la.json), each keeping its source, date, unit and currency
    conversion. Rows with an id already in the catalog replace it. CatalogInvalid lists every
    problem and nothing is written. `fx` defaults to the catalog's `regional_offers.fx`."""
    try:
        rows = json_load_bounded(json_text, max_bytes=CATALOG_IMPORT_MAX_BYTES)
    except JSONRefused as error:
        raise CatalogInvalid([error.message]) from error
    active = Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
    if active is None:
        raise CatalogInvalid([gettext("No catalog is published: publish one first.")])
    document = active.to_document()
    regional = dict(document.get("regional_offers") or {})
    rates = fx if fx is not None else dict(regional.get("fx") or {})
    try:
        imported = import_offers(
            rows,
            accelerator_ids=[a["id"] for a in document["accelerators"]],
            fx=rates,
            id_prefix=id_prefix,
            reference=reference,
        )
    except CatalogError as error:
        lang = decisions.engine_language()
        raise CatalogInvalid([f"{p.path}: {p.message(lang)}" for p in error.problems]) from error
    new_ids = {p["id"] for p in imported.prices}
    document["prices"] = [p for p in document["prices"] if p["id"] not in new_ids]
    document["prices"] += imported.prices
    held = [h for h in regional.get("held_back") or [] if h.get("reference") != reference]
    regional.update(fx={**dict(regional.get("fx") or {}), **rates}, held_back=held + imported.held)
    document["regional_offers"] = regional
    problems = catalog_document_problems(document) or _catalog_storage_problems(document)
    if problems:
        raise CatalogInvalid(problems)
    catalog = catalog_from_document(document=document, user=user, version=catalog_next_version())
    return OffersImported(catalog, len(imported.prices), imported.held)


def _catalog_storage_problems(document: dict[str, Any]) -> list[str]:
    """What the database would refuse in a catalog the engine accepts: dates that do not exist,
    values longer or larger than their columns."""
    out: list[str] = []
    sections: list[tuple[str, Any, Any, str]] = [
        (gettext("Accelerator %(id)s"), CatalogAccelerator, accelerator_fields, "accelerators"),
        (gettext("Price %(id)s"), CatalogPrice, price_fields, "prices"),
        (gettext("Model preset %(id)s"), CatalogPreset, preset_fields, "model_presets"),
    ]
    for label, model, fields, section in sections:
        for doc in document.get(section) or []:
            row, as_of = label % {"id": doc.get("id")}, doc.get("as_of")
            try:
                # The engine checks that a date is a string, not that the day exists.
                if as_of:
                    date.fromisoformat(as_of)
            except ValueError:
                out.append(
                    gettext("%(row)s: the date %(date)s does not exist (write YYYY-MM-DD).")
                    % {"row": row, "date": as_of}
                )
                continue
            out.extend(_storage_problems(model(**fields(doc)), row))
    return out


def catalog_export(*, catalog: Catalog) -> str:
    """The catalog as the engine's JSON document (what import reads back)."""
    return json.dumps(catalog.to_document(), ensure_ascii=False, indent=2) + "\n"


_CATALOG_SECTIONS = (
    ("accelerators", "accelerator"),
    ("prices", "price"),
    ("model_presets", "model preset"),
)


def catalog_diff(*, old: Catalog, new: Catalog) -> dict[str, Any]:
    """What changed from `old` to `new`, as rows of {change, section, item, field, before,
    after}: added and removed rows, and each changed value of the rows both have."""
    a, b = old.to_document(), new.to_document()
    rows: list[dict[str, Any]] = []
    for section, label in _CATALOG_SECTIONS:
        before = {str(r["id"]): r for r in a.get(section) or []}
        after = {str(r["id"]): r for r in b.get(section) or []}
        for key in sorted(before.keys() - after.keys()):
            rows.append({"change": "removed", "section": label, "item": key, "field": ""})
        for key in sorted(after.keys() - before.keys()):
            rows.append({"change": "added", "section": label, "item": key, "field": ""})
        for key in sorted(before.keys() & after.keys()):
            x, y = before[key], after[key]
            for attr in sorted(x.keys() | y.keys()):
                if x.get(attr) != y.get(attr):
                    rows.append(
                        {
                            "change": "changed",
                            "section": label,
                            "item": key,
                            "field": attr,
                            "before": x.get(attr),
                            "after": y.get(attr),
                        }
                    )
    # Figures, rules and regions: one row per entry that differs.
    ignored = {*CATALOG_ROW_KEYS, "imported_version"}
    for key in sorted(k for k in a.keys() | b.keys() if k not in ignored):
        old_value, new_value = a.get(key), b.get(key)
        if old_value == new_value:
            continue
        pairs: list[tuple[str, Any, Any]] = [(key, old_value, new_value)]
        if isinstance(old_value, dict) and isinstance(new_value, dict):
            pairs = [
                (f"{key}.{k}", old_value.get(k), new_value.get(k))
                for k in sorted(old_value.keys() | new_value.keys())
            ]
        for item, before, after in pairs:
            if before != after:
                change = "added" if before is None else "removed" if after is None else "changed"
                rows.append(
                    {
                        "change": change,
                        "section": "catalog",
                        "item": item,
                        "field": "",
                        "before": before,
                        "after": after,
                    }
                )
    counts = {c: sum(1 for r in rows if r["change"] == c) for c in ("added", "removed", "changed")}
    return {"rows": rows, "counts": counts}


# --- Public price refresh -------------------------------------------------------------------------

PRICE_REFRESH_MAX_PROBLEMS = 50


def _refresh_finish(run: PriceRefresh, status: str, message: str, **fields: Any) -> None:
    run.status = status
    run.message = message
    run.finished_at = timezone.now()
    for name, value in fields.items():
        setattr(run, name, value)
    run.save()


def _problems_text(problems: list[str]) -> str:
    shown = problems[:PRICE_REFRESH_MAX_PROBLEMS]
    more = len(problems) - len(shown)
    return "\n".join(shown) + (
        "\n" + gettext("… and %(count)s more.") % {"count": more} if more else ""
    )


def _hourly(price: dict[str, Any], hours_per_month: Decimal) -> Decimal | None:
    """A row's figure per device-hour; a row priced by the month (a regional 1-year
    reservation) is compared by its monthly figure over the catalog's hours per month."""
    if price.get("usd_per_device_hour") is not None:
        return Decimal(str(price["usd_per_device_hour"]))
    if price.get("usd_per_device_month") is not None:
        return Decimal(str(price["usd_per_device_month"])) / hours_per_month
    return None


def _price_targets(document: dict[str, Any]) -> list[PriceTarget]:
    figure = (document.get("figures") or {}).get("hours_per_month") or {}
    hours = Decimal(str(figure.get("value") or 730))
    return [
        PriceTarget(
            key=str(p["id"]),
            accelerator=str(p["accelerator_id"]),
            cloud=str(p.get("cloud") or ""),
            billing=str(p.get("billing") or ""),
            region=str(p.get("region") or ""),
            usd_per_device_hour=_hourly(p, hours),
            unit=str(p.get("unit") or ""),
            gpus_per_unit=int(p.get("gpus_per_unit") or 1),
        )
        for p in document["prices"]
    ]


def _apply_updates(
    document: dict[str, Any], source: str, updates: list[PriceUpdate], today: date
) -> int:
    """Writes `updates` into the document's prices; returns how many prices changed value."""
    by_key = {str(p["id"]): p for p in document["prices"]}
    changed = 0
    for update in updates:
        price = by_key[update.key]
        old = price.get("usd_per_device_hour")
        if old is None or Decimal(str(old)).quantize(PLACES) != update.usd_per_device_hour:
            changed += 1
        price["usd_per_device_hour"] = float(update.usd_per_device_hour)
        price["usd_per_device_month"] = None  # the list prices by the hour
        price["as_of"] = today.isoformat()
        price["source"] = update.source
        price["derived"] = update.derived
        price["estimated"] = False
        if update.region:
            price["region"], price["region_key"] = update.region, update.region_key
        price["price_list"] = {"source": source, "read": today.isoformat(), **update.detail}
    return changed


def price_refresh(
    *,
    sources: list[str],
    transport: Transport,
    user: User | None = None,
    api_key: str = "",
) -> list[PriceRefresh]:
    """Fetch the public price lists of `sources` for the published catalog's cloud prices and,
    when any source answers well, write one draft catalog with the new prices, their dates and
    sources (then request its impact preview). A source that fails — no answer, a malformed,
    partial or implausible document — is recorded with every problem and contributes nothing;
    the published catalog is never changed. Google Cloud without an API key is skipped."""
    today = timezone.localdate()
    runs = {
        source: PriceRefresh.objects.create(source=source, started_at=timezone.now())
        for source in sources
    }
    published = Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
    if published is None:
        for run in runs.values():
            _refresh_finish(run, PriceRefresh.Status.FAILED, gettext("No catalog is published."))
        return list(runs.values())
    document = published.to_document()
    targets = _price_targets(document)
    good: dict[str, SourceResult] = {}
    for source, run in runs.items():
        price_source = price_sources.get(source)
        if price_source.missing_key and not api_key:
            _refresh_finish(run, PriceRefresh.Status.SKIPPED, gettext(price_source.missing_key))
            continue
        try:
            result = price_source.collect(targets, transport, today=today, api_key=api_key)
        except SourceUnavailable as error:
            logger.warning("price refresh %s: %s", source, error)
            _refresh_finish(run, PriceRefresh.Status.FAILED, str(error))
            continue
        except Exception as error:  # a document no check foresaw must not leave a run running
            logger.exception("price refresh %s", source)
            _refresh_finish(
                run,
                PriceRefresh.Status.FAILED,
                gettext("Unexpected error while reading this price list: %(error)s")
                % {"error": repr(error)[:500]},
            )
            continue
        if result.problems:
            _refresh_finish(run, PriceRefresh.Status.FAILED, _problems_text(result.problems))
            continue
        good[source] = result
    changed = {s: _apply_updates(document, s, r.updates, today) for s, r in good.items()}
    if not any(r.updates for r in good.values()):
        for source in good:
            _refresh_finish(
                runs[source],
                PriceRefresh.Status.DONE,
                gettext("No catalog price is listed by this source."),
            )
        return list(runs.values())
    problems = catalog_document_problems(document) or _catalog_storage_problems(document)
    if problems:
        for source in good:
            _refresh_finish(runs[source], PriceRefresh.Status.FAILED, _problems_text(problems))
        return list(runs.values())
    document["description"] = gettext(
        "Public price refresh of %(date)s (%(sources)s), cloned from %(catalog)s."
    ) % {
        "date": today.isoformat(),
        "sources": ", ".join(price_sources.get(s).label for s in good),
        "catalog": published,
    }
    try:
        with transaction.atomic():
            draft = catalog_from_document(
                document=document, user=user, version=catalog_next_version()
            )
            for source, result in good.items():
                _refresh_finish(
                    runs[source],
                    PriceRefresh.Status.DONE,
                    gettext(
                        "%(read)s prices read, %(changed)s changed; %(left)s of this cloud's "
                        "prices are not in this price list and were left as they were."
                    )
                    % {
                        "read": len(result.updates),
                        "changed": changed[source],
                        "left": len(result.left),
                    },
                    prices_changed=changed[source],
                    draft=draft,
                )
    except DatabaseError as error:  # e.g. a refresh running at the same time took the version
        logger.warning("price refresh draft: %s", error)
        for source in good:
            _refresh_finish(
                runs[source],
                PriceRefresh.Status.FAILED,
                gettext("The draft catalog could not be written: %(error)s")
                % {"error": str(error)[:500]},
                prices_changed=0,
                draft=None,
            )
        return list(runs.values())
    try:
        impact_preview_request(catalog=draft, user=user)
    except ScoringModelInvalid as error:
        logger.warning("price refresh preview of %s: %s", draft, error.problems)
    return list(runs.values())


def price_refresh_scheduled() -> list[PriceRefresh]:
    """What beat runs: every source, live, with the settings' timeout and Google Cloud key."""
    return price_refresh(
        sources=list(price_sources.names()),
        transport=UrllibTransport(timeout=settings.PRICE_REFRESH_TIMEOUT_SECONDS),
        api_key=settings.GCP_BILLING_API_KEY,
    )


def house_provider_name() -> str:
    """The provider a house offer names: the operating organisation (the company running the
    site), so that a report says whose server it is."""
    name = Organization.objects.filter(is_operator=True).values_list("name", flat=True).first()
    return name or gettext("House offer")


@dataclasses.dataclass(frozen=True)
class FreshnessRow:
    price_id: str
    provider: str
    region: str
    source: str
    as_of: str | None
    # "fresh", "stale" (dated, older than the catalog's stale rule) or "undated".
    state: str


@dataclasses.dataclass(frozen=True)
class PriceFreshness:
    catalog: str
    today: date
    stale_after_days: float
    # Per team: (name, prices its report uses, how many of them are stale or undated).
    teams: list[tuple[str, int, int]]
    rows: list[FreshnessRow]

    def count(self, state: str) -> int:
        return sum(1 for r in self.rows if r.state == state)

    @property
    def share(self) -> float:
        """The share of the prices the reports use that are stale or undated (0 to 1)."""
        return (len(self.rows) - self.count("fresh")) / len(self.rows) if self.rows else 0.0


def freshness_teams() -> dict[str, dict[str, Any]]:
    """The answers documents a freshness measure runs, by name: the engine's sample team and
    every starter (the seed's sample reports are starters)."""
    return {"sample": sample(), **{s.slug: s.document() for s in STARTERS}}


def price_freshness(*, catalog: Catalog, today: date) -> PriceFreshness:
    """How many distinct price rows the reports of the sample teams use (first options,
    runners-up and alternatives: every price a report names) and which of them are stale or
    undated on `today`, against `catalog` (a draft counts as it would once published)."""
    engine_catalog = load_catalog(catalog.to_document())
    scoring = decisions.active_scoring_model()
    teams = freshness_teams()
    used: dict[str, dict[str, Any]] = {}
    per_team = []
    for name, document in teams.items():
        result = evaluate(document, engine_catalog, scoring, lang="en", today=today)
        prices = result["cost"]["prices_used"]
        per_team.append((name, len(prices), sum(1 for p in prices if p["stale"])))
        for doc in prices:
            used[str(doc["price_id"])] = dict(doc)
    rows = []
    for pid, price in sorted(used.items()):
        dated = isinstance(price["as_of"], str) and re.fullmatch(
            r"\d{4}-\d{2}-\d{2}", price["as_of"]
        )
        rows.append(
            FreshnessRow(
                price_id=pid,
                provider=str(price["provider"]),
                region=str(price.get("region") or ""),
                source=str(price.get("source") or ""),
                as_of=price["as_of"],
                state="undated" if not dated else "stale" if price["stale"] else "fresh",
            )
        )
    return PriceFreshness(
        catalog=str(catalog),
        today=today,
        stale_after_days=float(engine_catalog.rule("stale_after_days")),
        teams=per_team,
        rows=rows,
    )
