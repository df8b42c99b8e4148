"""Reading JSON and names that a user typed, pasted or uploaded, within bounds.

Python's json module is built for trusted input: it accepts NaN and Infinity, numbers of any
length (int() then refuses more than 4,300 digits with a ValueError) and nesting until the
interpreter's recursion limit (a RecursionError). Each of those reached the admin import as a
500; `json_load_bounded` turns every one into a JSONRefused with a sentence for the user.
"""

from __future__ import annotations

import json
import math
import unicodedata
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput, JSONString
from django.utils.translation import gettext, gettext_lazy

MAX_BYTES = 1_000_000
MAX_DEPTH = 64
# The longest number a document of ours holds is a float's 17 significant digits plus sign,
# point and exponent; 40 characters leave room without letting int() do quadratic work.
MAX_NUMBER_CHARS = 40


class JSONRefused(ValueError):
    """The text is not JSON this product reads; `message` says why in the user's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _shown(lexeme: str) -> str:
    return lexeme if len(lexeme) <= 20 else f"{lexeme[:12]}…"


def _number_too_long(lexeme: str) -> JSONRefused:
    return JSONRefused(
        gettext(
            "The number %(number)s has %(length)s characters; numbers may have at most %(limit)s."
        )
        % {"number": _shown(lexeme), "length": f"{len(lexeme):,}", "limit": MAX_NUMBER_CHARS}
    )


def _parse_int(lexeme: str) -> int:
    if len(lexeme) > MAX_NUMBER_CHARS:
        raise _number_too_long(lexeme)
    return int(lexeme)


def _parse_float(lexeme: str) -> float:
    if len(lexeme) > MAX_NUMBER_CHARS:
        raise _number_too_long(lexeme)
    value = float(lexeme)
    if not math.isfinite(value):
        # 1e400 is valid JSON but becomes Infinity in Python.
        raise JSONRefused(
            gettext("The number %(number)s is too large.") % {"number": _shown(lexeme)}
        )
    return value


def _parse_constant(name: str) -> Any:
    raise JSONRefused(gettext("%(value)s is not a number JSON allows.") % {"value": name})


def _too_deep() -> JSONRefused:
    return JSONRefused(
        gettext("The JSON nests lists and objects more than %(limit)s levels deep.")
        % {"limit": MAX_DEPTH}
    )


def _check_tree(value: Any) -> None:
    """Refuse nesting deeper than MAX_DEPTH, and NUL characters, which PostgreSQL stores in
    neither text nor jsonb (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, str):
            if "\x00" in node:
                raise JSONRefused(
                    gettext("The JSON holds a NUL character (\\u0000), which cannot be stored.")
                )
            continue
        if isinstance(node, dict):
            children: Any = [*node, *node.values()]
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > MAX_DEPTH:
            raise _too_deep()
        stack.extend((child, depth + 1) for child in children)


def json_load_bounded(text: str, *, max_bytes: int = MAX_BYTES) -> Any:
    """The JSON value in `text`, or JSONRefused saying what is wrong: larger than `max_bytes`
    (UTF-8), not JSON (with line and column), NaN or Infinity, a number longer than
    MAX_NUMBER_CHARS, lists and objects nested deeper than MAX_DEPTH, or a NUL character."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise JSONRefused(
            gettext("The JSON is %(size)s bytes, more than the %(limit)s bytes this import takes.")
            % {"size": f"{size:,}", "limit": f"{max_bytes:,}"}
        )
    try:
        value = json.loads(
            text.removeprefix("\ufeff"),
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as error:
        raise JSONRefused(
            gettext("The file is not valid JSON: %(error)s at line %(line)s, column %(column)s.")
            % {"error": error.msg, "line": error.lineno, "column": error.colno}
        ) from error
    except RecursionError as error:
        raise _too_deep() from error
    _check_tree(value)
    return value


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
