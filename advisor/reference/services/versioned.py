"""What scoring models and catalogs share as versioned reference data: the audit user on
rows a service writes, the database's limits as sentences, and the one-transaction publish."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User


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


def publish_draft(
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
            set_history_user(previous, user)
            previous.save(update_fields=["status", "retired_at"])
        draft.status = rows.Status.PUBLISHED
        draft.published_at = now
        draft.published_by = user
        set_history_user(draft, user)
        draft.save(update_fields=["status", "published_at", "published_by"])
    return draft
