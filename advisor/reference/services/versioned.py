"""Versioned reference data, written once: `VersionedKind` clones, publishes, imports, exports,
checks and diffs a kind of version (draft → published → retired); a kind — scoring models,
catalogs — is a subclass that names its model, its errors and a few hooks (its document checks,
rows from a document, its diff). The admin's versioned pages call only this interface.

Also what the kinds' own services share: the audit user on rows a service writes and the
database's limits as sentences."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from advisor.jsonsafe import MAX_BYTES, JSONRefused, json_load_bounded
from advisor.reference.models import Versioned


class Invalid(Exception):
    """What stops an import or a publish, each problem a sentence in the user's language."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


def set_history_user(obj: Any, user: User | None) -> None:
    # simple_history takes the user from the request; services also run outside one.
    if user is not None:
        obj._history_user = user


# The field checks whose failure the database would otherwise raise as a 500 on import.
_STORAGE_CODES = frozenset(
    {"max_length", "max_digits", "max_whole_digits", "max_value", "min_value", "null"}
)


def storage_problems(row: Any, label: str) -> list[str]:
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


class VersionedKind[V: Versioned]:
    """One kind of versioned data. A subclass sets `model`, `locked` (raised with the version
    when a published or retired one would change), `invalid` (an `Invalid`) and the hooks
    below; clone, publish, import, export, the checks and the edit guard are the same for
    every kind."""

    model: ClassVar[type[Any]]
    locked: ClassVar[type[Exception]]
    invalid: ClassVar[type[Invalid]]
    # The largest JSON file an import reads (a catalog is larger than a scoring model).
    import_max_bytes: ClassVar[int] = MAX_BYTES

    # The kind's hooks.

    def document_problems(self, document: Any) -> list[str]:
        """Every problem that keeps `document` from being a version the product can publish."""
        raise NotImplementedError

    def storage_problems(self, document: dict[str, Any]) -> list[str]:
        """What the database would refuse in a document the checks accept."""
        raise NotImplementedError

    def from_document(self, document: dict[str, Any], *, user: User | None, version: int) -> V:
        """A new draft's rows for a checked document, numbered `version`."""
        raise NotImplementedError

    def next_version(self, obj: V | None) -> int:
        """The number a new draft (cloned from `obj`, or imported: None) takes."""
        raise NotImplementedError

    def import_version(self, document: dict[str, Any]) -> int:
        """The number an imported, checked document takes; may refuse it with `invalid`."""
        raise NotImplementedError

    def prepare_import(self, document: Any) -> Any:
        """An imported document before its checks (a kind may fill in what a file may omit)."""
        return document

    def diff(self, old: V, new: V) -> dict[str, Any]:
        """What changed from `old` to `new`: {"rows": [...], "counts": {added, removed,
        changed}} and whatever else the kind's diff page shows."""
        raise NotImplementedError

    def export_filename(self, obj: V) -> str:
        raise NotImplementedError

    def diff_default(self, obj: V, others: Any) -> V | None:
        """The version a diff compares `obj` with when none is chosen: the published one."""
        published: V | None = others.filter(status=Versioned.Status.PUBLISHED).first()
        return published

    # What every kind does the same way.

    def problems(self, obj: V) -> list[str]:
        return self.document_problems(obj.to_document())

    def ensure_editable(self, obj: V) -> None:
        """Raises `locked` unless `obj` is a draft (as stored, not as in memory)."""
        status = self.model.objects.filter(pk=obj.pk).values_list("status", flat=True).first()
        if status is not None and status != Versioned.Status.DRAFT:
            raise self.locked(obj)

    def clone(self, obj: V, *, user: User | None) -> V:
        """A new draft with the same content, numbered after the newest version."""
        document = obj.to_document()
        return self.from_document(document, user=user, version=self.next_version(obj))

    def import_(self, json_text: str, *, user: User | None) -> V:
        """A new draft from an exported JSON document; `invalid` lists every problem."""
        try:
            document = json_load_bounded(json_text, max_bytes=self.import_max_bytes)
        except JSONRefused as error:
            raise self.invalid([error.message]) from error
        document = self.prepare_import(document)
        problems = self.document_problems(document) or self.storage_problems(document)
        if problems:
            raise self.invalid(problems)
        return self.from_document(document, user=user, version=self.import_version(document))

    def export(self, obj: V) -> str:
        """The version as the engine's JSON document (what import reads back)."""
        document = obj.to_document()
        return json.dumps(document, ensure_ascii=False, indent=2) + "\n"

    def publish(self, obj: V, *, user: User | None) -> V:
        """Publish the draft `obj` and retire the published one, in one transaction; refused
        with every problem the checks find."""
        rows = self.model
        with transaction.atomic():
            draft = rows.objects.select_for_update().get(pk=obj.pk)
            if draft.status != Versioned.Status.DRAFT:
                raise self.locked(draft)
            found = self.document_problems(draft.to_document())
            if found:
                raise self.invalid(found)
            now = timezone.now()
            for previous in rows.objects.select_for_update().filter(
                status=Versioned.Status.PUBLISHED
            ):
                previous.status = Versioned.Status.RETIRED
                previous.retired_at = now
                set_history_user(previous, user)
                previous.save(update_fields=["status", "retired_at"])
            draft.status = Versioned.Status.PUBLISHED
            draft.published_at = now
            draft.published_by = user
            set_history_user(draft, user)
            draft.save(update_fields=["status", "published_at", "published_by"])
        published: V = draft
        return published
