"""Catalogs: checks, rows from a document, clone, publish, import (whole files and offer rows),
export and diff; the house-offer provider's name."""

from __future__ import annotations

import dataclasses
from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Organization, User
from advisor.decisions import languages, live
from advisor.engine import load_catalog
from advisor.engine.answers.vocabulary import preset_ids
from advisor.engine.catalog import CatalogError
from advisor.engine.catalog.offers import import_offers
from advisor.jsonsafe import JSONRefused, has_control_characters, json_load_bounded
from advisor.reference.catalog_rows import (
    CATALOG_ROW_KEYS,
    accelerator_fields,
    hf_id_valid,
    preset_fields,
    price_fields,
)
from advisor.reference.models import Catalog, CatalogAccelerator, CatalogPreset, CatalogPrice
from advisor.reference.services.versioned import (
    Invalid,
    VersionedKind,
    set_history_user,
    storage_problems,
)


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


class CatalogInvalid(Invalid):
    """What stops a catalog import or publish, each problem a sentence in the user's language."""


def catalog_document_problems(document: Any) -> list[str]:
    """Every problem that keeps `document` from being a catalog the product can publish: the
    engine's checks, plus the wizard's fixed list of model presets and sane price dates."""
    if not isinstance(document, dict):
        return [gettext("The file must hold one JSON object: a catalog.")]
    try:
        catalog = load_catalog(document)
    except CatalogError as error:
        lang = languages.engine_language()
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
    # The pilot's commands name a preset's repository: an id a shell would read as more than
    # one word (`meta-llama/x; curl … | sh`) would reach customers' reports as a command.
    out.extend(
        gettext(
            "Model preset %(id)s: the Hugging Face id %(hf_id)s is not a repository id "
            "(owner/name: letters, digits, “.”, “_” and “-”, at most 96 each)."
        )
        % {"id": p.get("id"), "hf_id": repr(p.get("hf_id"))[:120]}
        for p in document.get("model_presets") or []
        if isinstance(p, dict) and p.get("hf_id") is not None and not hf_id_valid(p["hf_id"])
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
        set_history_user(catalog, user)
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


def catalog_region_groups() -> tuple[str, ...]:
    """The bundled catalog's region groups by key ("us_central"), in its order."""
    return tuple(load_catalog().regions)


def catalog_next_version() -> int:
    return (Catalog.objects.aggregate(v=Max("version"))["v"] or 0) + 1


def catalog_draft_for_edit(*, user: User | None) -> tuple[Catalog, bool]:
    """The draft an edit writes to, and whether it was created here: the newest draft, else
    a new one cloned from the published catalog (the bundled one on a fresh database), so that
    the house-offer form works without cloning a draft first."""
    draft = Catalog.objects.filter(status=Catalog.Status.DRAFT).order_by("-version").first()
    if draft is not None:
        return draft, False
    published = Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
    if published is not None:
        return catalog_clone(catalog=published, user=user), True
    document = live.active_catalog().to_dict()
    return catalog_from_document(document=document, user=user, version=catalog_next_version()), True


# A catalog file may be larger than a scoring model; the bundled one is about 140 KB.
CATALOG_IMPORT_MAX_BYTES = 5_000_000


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
        lang = languages.engine_language()
        raise CatalogInvalid([f"{p.path}: {p.message(lang)}" for p in error.problems]) from error
    new_ids = {p["id"] for p in imported.prices}
    document["prices"] = [p for p in document["prices"] if p["id"] not in new_ids]
    document["prices"] += imported.prices
    held = [h for h in regional.get("held_back") or [] if h.get("reference") != reference]
    regional.update(fx={**dict(regional.get("fx") or {}), **rates}, held_back=held + imported.held)
    document["regional_offers"] = regional
    problems = catalog_document_problems(document) or catalog_storage_problems(document)
    if problems:
        raise CatalogInvalid(problems)
    catalog = catalog_from_document(document=document, user=user, version=catalog_next_version())
    return OffersImported(catalog, len(imported.prices), imported.held)


def catalog_storage_problems(document: dict[str, Any]) -> list[str]:
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
            out.extend(storage_problems(model(**fields(doc)), row))
    return out


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


class Catalogs(VersionedKind[Catalog]):
    """Catalogs as versioned data: one series numbered 1, 2, 3…; an import takes the next
    number and keeps its file's version only as a note."""

    model = Catalog
    locked = CatalogLocked
    invalid = CatalogInvalid
    import_max_bytes = CATALOG_IMPORT_MAX_BYTES

    def document_problems(self, document: Any) -> list[str]:
        return catalog_document_problems(document)

    def storage_problems(self, document: dict[str, Any]) -> list[str]:
        return catalog_storage_problems(document)

    def from_document(
        self, document: dict[str, Any], *, user: User | None, version: int
    ) -> Catalog:
        return catalog_from_document(document=document, user=user, version=version)

    def next_version(self, obj: Catalog | None) -> int:
        return catalog_next_version()

    def prepare_import(self, document: Any) -> Any:
        if isinstance(document, dict) and "model_presets" not in document:
            # An exported price list without presets keeps the active catalog's.
            document["model_presets"] = [
                dataclasses.asdict(p) for p in live.active_catalog().presets.values()
            ]
        return document

    def import_version(self, document: dict[str, Any]) -> int:
        document["imported_version"] = str(document["version"])
        return catalog_next_version()

    def diff(self, old: Catalog, new: Catalog) -> dict[str, Any]:
        return catalog_diff(old=old, new=new)

    def export_filename(self, obj: Catalog) -> str:
        return f"catalog-v{obj.version}.json"

    def diff_default(self, obj: Catalog, others: Any) -> Catalog | None:
        previous: Catalog | None = (
            super().diff_default(obj, others) or others.filter(version__lt=obj.version).first()
        )
        return previous


CATALOGS = Catalogs()


# The kind's operations by their service names, for callers outside the admin.


def catalog_ensure_editable(*, catalog: Catalog) -> None:
    """Raises CatalogLocked unless `catalog` is a draft (as stored, not as in memory)."""
    CATALOGS.ensure_editable(catalog)


def catalog_clone(*, catalog: Catalog, user: User | None) -> Catalog:
    """A new draft with the same accelerators, prices and presets, numbered after the newest."""
    return CATALOGS.clone(catalog, user=user)


def catalog_publish(*, catalog: Catalog, user: User | None) -> Catalog:
    """Make a draft the active catalog and retire the one before; refused with every problem
    found. New reports price with it at once; finished ones keep the catalog they name."""
    return CATALOGS.publish(catalog, user=user)


def catalog_import(*, json_text: str, user: User | None) -> Catalog:
    """A new draft (the next version number) from a catalog JSON document; CatalogInvalid
    lists every problem. The file's own version is kept only as a note."""
    return CATALOGS.import_(json_text, user=user)


def catalog_export(*, catalog: Catalog) -> str:
    """The catalog as the engine's JSON document (what import reads back)."""
    return CATALOGS.export(catalog)


def house_provider_name() -> str:
    """The provider a house offer names: the operating organisation (the company running the
    site), so that a report says whose server it is."""
    name = Organization.objects.filter(is_operator=True).values_list("name", flat=True).first()
    return name or gettext("House offer")
