"""One-row reads and versioned writes for the hottest requests, without the ORM building the
same statement again on every call.

A wizard step's save reads the user, reads the assessment through the reader's membership and
writes it over the version the page showed; building those three statements through querysets
cost more of the request's CPU than running them (about 1.4 ms of the
ownership read's 1.65 ms went to the ORM, 2026-12-02). Here the SQL is written once per model
from its `_meta` (a field added to the model is read and written with the rest), values pass
through the fields' own converters and adapters, and instances come from `Model.from_db`, so
the objects are the ones a queryset would give. Each caller states its own `WHERE`; nothing
here decides who may read what.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import connections
from django.db.models import Field, Model


class Columns:
    """A model's concrete columns under one table alias of a `SELECT`, and the instance made
    from them. `exclude` names fields left in the database (deferred, as `.defer()` does)."""

    def __init__(self, model: type[Model], alias: str, *, exclude: Sequence[str] = ()) -> None:
        self.model = model
        self.alias = alias
        self.fields: list[Field[Any, Any]] = [
            f for f in model._meta.concrete_fields if f.name not in exclude
        ]
        self.attnames = [f.attname for f in self.fields]

    def sql(self, using: str) -> str:
        quote = connections[using].ops.quote_name
        return ", ".join(f"{quote(self.alias)}.{quote(_column(f))}" for f in self.fields)

    def instance(self, row: Sequence[Any], start: int, using: str) -> Model:
        """The instance made from `row[start:]`, converted as the ORM converts a fetched row."""
        values = list(row[start : start + len(self.fields)])
        for i, converters, expression in _converters(self, using):
            value = values[i]
            for convert in converters:
                value = convert(value, expression, connections[using])
            values[i] = value
        return self.model.from_db(using, self.attnames, values)

    def __len__(self) -> int:
        return len(self.fields)


@functools.cache
def _converters(columns: Columns, using: str) -> list[tuple[int, list[Any], Any]]:
    # What SQLCompiler.get_converters finds for each selected column (a JSON field decodes its
    # text, for example), worked out once per column set and database.
    connection = connections[using]
    found = []
    for i, f in enumerate(columns.fields):
        expression = f.get_col(columns.alias)
        converters = connection.ops.get_db_converters(expression) + expression.get_db_converters(
            connection
        )
        if converters:
            found.append((i, converters, expression))
    return found


def fetch_one(sql: str, params: Sequence[Any], using: str) -> tuple[Any, ...] | None:
    with connections[using].cursor() as cursor:
        cursor.execute(sql, params)
        row: tuple[Any, ...] | None = cursor.fetchone()
        return row


def update_versioned(
    model: type[Model],
    *,
    pk: Any,
    version: int,
    values: dict[str, Any],
    using: str,
    version_field: str = "version",
) -> int:
    """`UPDATE ... SET <values>, version = version + 1 WHERE pk = %s AND version = %s`; the
    number of rows written (0: another save moved the version on, or no such row). Values are
    adapted by their fields (`get_db_prep_save`), as `QuerySet.update` adapts them."""
    connection = connections[using]
    names = tuple(values)
    sql = _update_sql(model, names, version_field, using)
    params = [_field(model, name).get_db_prep_save(values[name], connection) for name in names]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, pk, version])
        written: int = cursor.rowcount
        return written


@functools.cache
def _update_sql(model: type[Model], names: tuple[str, ...], version_field: str, using: str) -> str:
    version = column(model, version_field, using)
    assignments = [f"{version} = {version} + 1"] + [
        f"{column(model, name, using)} = %s" for name in names
    ]
    # Identifiers come from the model's metadata, quoted; every value is a parameter.
    return (
        f"UPDATE {table(model, using)} SET {', '.join(assignments)} "  # noqa: S608
        f"WHERE {column(model, 'pk', using)} = %s AND {version} = %s"
    )


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field)  # noqa: S101  # a concrete field, never a relation's reverse
    return field


def table(model: type[Model], using: str) -> str:
    """The model's table name, quoted for `using`'s database."""
    return str(connections[using].ops.quote_name(model._meta.db_table))


def column(model: type[Model], name: str, using: str) -> str:
    """A field's column (`pk` for the primary key), quoted for `using`'s database."""
    field = model._meta.pk if name == "pk" else _field(model, name)
    assert field is not None  # noqa: S101  # every model has a primary key
    return str(connections[using].ops.quote_name(_column(field)))


def _column(field: Field[Any, Any]) -> str:
    assert field.column is not None  # noqa: S101  # concrete fields have one
    return field.column
