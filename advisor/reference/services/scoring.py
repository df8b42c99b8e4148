"""Scoring models: checks, rows from a document, clone, publish, import, export and diff.
Only services call the engine or write models."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext

from accounts.models import User
from advisor.decisions import languages
from advisor.engine import ScoringModelError, load_scoring_model
from advisor.jsonsafe import (
    NAME_HAS_CONTROL_CHARACTERS,
    has_control_characters,
)
from advisor.labels import OPTION_CHOICES
from advisor.reference.models import (
    Contribution,
    Criterion,
    ScoringModel,
)
from advisor.reference.models.scoring import (
    ANSWER_VALUES,
    MAX_POINTS,
    MAX_WEIGHT,
    PHASE_CHOICES,
)
from advisor.reference.services.versioned import (
    Invalid,
    VersionedKind,
    set_history_user,
    storage_problems,
)

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


class ScoringModelInvalid(Invalid):
    """What stops an import or a publish, each problem a sentence in the user's language."""


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
        lang = languages.engine_language()
        return [f"{p.path}: {p.message(lang)}" for p in error.problems]
    return []


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
        set_history_user(model, user)
        model.save()
        for criterion, contributions in _criterion_rows(document):
            criterion.scoring_model = model
            set_history_user(criterion, user)
            criterion.save()
            for row in contributions:
                row.criterion = criterion
                set_history_user(row, user)
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


def _scoring_storage_problems(document: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for criterion, contributions in _criterion_rows(document):
        label = gettext("Criterion %(criterion)s") % {"criterion": criterion.key}
        out.extend(storage_problems(criterion, label))
        for row in contributions:
            out.extend(storage_problems(row, f"{label}, {row.value} → {row.option}"))
    return out


def scoring_model_next_version(*, name: str) -> int:
    latest = ScoringModel.objects.filter(name=name).aggregate(v=Max("version"))["v"]
    return (latest or 0) + 1


class ScoringModels(VersionedKind[ScoringModel]):
    """Scoring models as versioned data: numbered per name; an import keeps its file's version
    unless that one exists."""

    model = ScoringModel
    locked = ScoringModelLocked
    invalid = ScoringModelInvalid

    def document_problems(self, document: Any) -> list[str]:
        return scoring_document_problems(document)

    def storage_problems(self, document: dict[str, Any]) -> list[str]:
        return _scoring_storage_problems(document)

    def from_document(
        self, document: dict[str, Any], *, user: User | None, version: int
    ) -> ScoringModel:
        return scoring_model_from_document(document={**document, "version": version}, user=user)

    def next_version(self, obj: ScoringModel | None) -> int:
        return scoring_model_next_version(name=obj.name if obj is not None else "default")

    def import_version(self, document: dict[str, Any]) -> int:
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
        return int(version)

    def diff(self, old: ScoringModel, new: ScoringModel) -> dict[str, Any]:
        return scoring_model_diff(old=old, new=new)

    def export_filename(self, obj: ScoringModel) -> str:
        # The name is free text; a slug keeps the header valid whatever it holds.
        return f"scoring-{slugify(obj.name, allow_unicode=True) or 'model'}-v{obj.version}.json"

    def diff_default(self, obj: ScoringModel, others: Any) -> ScoringModel | None:
        previous: ScoringModel | None = (
            super().diff_default(obj, others)
            or others.filter(name=obj.name, version__lt=obj.version).first()
        )
        return previous


SCORING_MODELS = ScoringModels()


# The kind's operations by their service names, for callers outside the admin.


def scoring_model_ensure_editable(*, model: ScoringModel) -> None:
    """Raises ScoringModelLocked unless `model` is a draft (as stored, not as in memory)."""
    SCORING_MODELS.ensure_editable(model)


def scoring_model_clone(*, model: ScoringModel, user: User | None) -> ScoringModel:
    """A new draft with the same criteria, numbered after the newest version of that name."""
    return SCORING_MODELS.clone(model, user=user)


def scoring_model_publish(*, model: ScoringModel, user: User | None) -> ScoringModel:
    """Make a draft the active model and retire the one before; refused with every problem
    the engine finds. New reports use it at once; finished ones keep the version they name."""
    return SCORING_MODELS.publish(model, user=user)


def scoring_model_import(*, json_text: str, user: User | None) -> ScoringModel:
    """A new draft from an exported JSON document; ScoringModelInvalid lists every problem."""
    return SCORING_MODELS.import_(json_text, user=user)


def scoring_model_export(*, model: ScoringModel) -> str:
    """The model as the engine's JSON document (what import reads back)."""
    return SCORING_MODELS.export(model)


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
