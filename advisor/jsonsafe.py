"""Reading JSON and names that a user typed, pasted or uploaded, within bounds.

Python's json module is built for trusted input: it accepts NaN and Infinity, numbers of any
length (int() then refuses more than 4,300 digits with a ValueError) and nesting until the
interpreter's recursion limit (a RecursionError). Each of those reached the admin import as a
500; `json_load_bounded` (through engine.jsonbound) turns every one into a JSONRefused with a
sentence for the user.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput, JSONString
from django.utils.translation import gettext, gettext_lazy

from advisor.engine import jsonbound

MAX_BYTES = 1_000_000
MAX_DEPTH = jsonbound.MAX_DEPTH
MAX_NUMBER_CHARS = jsonbound.MAX_NUMBER_CHARS


class JSONRefused(ValueError):
    """The text is not JSON this product reads; `message` says why in the user's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _message(error: jsonbound.JSONBoundError) -> str:
    p = error.params
    if error.code == "too_large":
        return gettext(
            "The JSON is %(size)s bytes, more than the %(limit)s bytes this import takes."
        ) % {"size": f"{p['size']:,}", "limit": f"{p['limit']:,}"}
    if error.code == "not_json":
        return (
            gettext("The file is not valid JSON: %(error)s at line %(line)s, column %(column)s.")
            % p
        )
    if error.code == "constant":
        return gettext("%(value)s is not a number JSON allows.") % p
    if error.code == "number_too_long":
        return gettext(
            "The number %(number)s has %(length)s characters; numbers may have at most %(limit)s."
        ) % {**p, "length": f"{p['length']:,}"}
    if error.code == "number_too_large":
        return gettext("The number %(number)s is too large.") % p
    if error.code == "nul":
        return gettext("The JSON holds a NUL character (\\u0000), which cannot be stored.")
    return gettext("The JSON nests lists and objects more than %(limit)s levels deep.") % {
        "limit": MAX_DEPTH
    }


def json_load_bounded(text: str, *, max_bytes: int = MAX_BYTES) -> Any:
    """The JSON value in `text`, or JSONRefused saying what is wrong: larger than `max_bytes`
    (UTF-8), not JSON (with line and column), NaN or Infinity, a number longer than
    MAX_NUMBER_CHARS, lists and objects nested deeper than MAX_DEPTH, or a NUL character
    (engine.jsonbound reads it; the pasted benchmark results read through the same)."""
    try:
        return jsonbound.load(text, max_bytes=max_bytes)
    except jsonbound.JSONBoundError as error:
        raise JSONRefused(_message(error)) from error


NAME_HAS_CONTROL_CHARACTERS = gettext_lazy(
    "The name holds a line break, tab or other control character; write it on one line."
)


def has_control_characters(text: str) -> bool:
    """Whether `text` holds a line break, tab or other control character (Unicode Cc, Zl, Zp):
    never part of a name, and a line break in a name breaks the headers it reaches."""
    return any(unicodedata.category(ch) in {"Cc", "Zl", "Zp"} for ch in text)


def refuse_control_characters(value: str) -> None:
    """A form field validator for names."""
    if has_control_characters(value):
        raise ValidationError(NAME_HAS_CONTROL_CHARACTERS, code="control_characters")


class BoundedJSONField(forms.JSONField):
    """Django's form JSONField, reading what is typed with `json_load_bounded`."""

    def to_python(self, value: Any) -> Any:
        if self.disabled or value in self.empty_values or not isinstance(value, str):
            return super().to_python(value)
        try:
            converted = json_load_bounded(value)
        except JSONRefused as error:
            raise ValidationError(error.message, code="invalid") from error
        return JSONString(converted) if isinstance(converted, str) else converted

    def bound_data(self, data: Any, initial: Any) -> Any:
        if self.disabled or not isinstance(data, str):
            return super().bound_data(data, initial)
        try:
            return json_load_bounded(data)
        except JSONRefused:
            return InvalidJSONInput(data)

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            return bool(super().has_changed(initial, data))
        except ValidationError:
            return True
