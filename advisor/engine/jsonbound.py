"""Reading JSON that a person typed, pasted or uploaded, within bounds. Pure Python, no Django.

Python's json module is built for trusted input: it accepts NaN and Infinity, numbers of any
length (int() then refuses more than 4,300 digits with a ValueError, float() of a long integer
overflows) and nesting until the interpreter's recursion limit (a RecursionError). `load` turns
each into a JSONBoundError with a code and the figures a message needs; advisor.jsonsafe words
them for the admin imports, engine.measured for a pasted benchmark result.
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 64
# The longest number a document of ours holds is a float's 17 significant digits plus sign,
# point and exponent; 40 characters leave room without letting int() do quadratic work.
MAX_NUMBER_CHARS = 40


class JSONBoundError(ValueError):
    """`code`: too_large (size, limit), not_json (error, line, column), constant (value),
    number_too_long (number, length, limit), number_too_large (number), too_deep (limit), nul."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def shown(lexeme: str) -> str:
    return lexeme if len(lexeme) <= 20 else f"{lexeme[:12]}…"


def _parse_int(lexeme: str) -> int:
    if len(lexeme) > MAX_NUMBER_CHARS:
        raise JSONBoundError(
            "number_too_long", number=shown(lexeme), length=len(lexeme), limit=MAX_NUMBER_CHARS
        )
    return int(lexeme)


def _parse_float(lexeme: str) -> float:
    if len(lexeme) > MAX_NUMBER_CHARS:
        raise JSONBoundError(
            "number_too_long", number=shown(lexeme), length=len(lexeme), limit=MAX_NUMBER_CHARS
        )
    value = float(lexeme)
    if not math.isfinite(value):
        # 1e400 is valid JSON but becomes Infinity in Python.
        raise JSONBoundError("number_too_large", number=shown(lexeme))
    return value


def _parse_constant(name: str) -> Any:
    raise JSONBoundError("constant", value=name)


def _read_constant(name: str) -> float:
    return float(name.replace("Infinity", "inf"))


def _check_tree(value: Any) -> None:
    """Refuse nesting deeper than MAX_DEPTH, and NUL characters, which PostgreSQL stores in
    neither text nor jsonb (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, str):
            if "\x00" in node:
                raise JSONBoundError("nul")
            continue
        if isinstance(node, dict):
            children: Any = [*node, *node.values()]
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > MAX_DEPTH:
            raise JSONBoundError("too_deep", limit=MAX_DEPTH)
        stack.extend((child, depth + 1) for child in children)


def load(text: str, *, max_bytes: int, constants: bool = False) -> Any:
    """The JSON value in `text`, or JSONBoundError saying what is wrong: larger than
    `max_bytes` (UTF-8), not JSON (with line and column), NaN or Infinity, a number longer than
    MAX_NUMBER_CHARS or beyond a float, lists and objects nested deeper than MAX_DEPTH, or a NUL
    character. With `constants`, NaN and Infinity are read as the floats they name, for a
    reader that checks every figure it uses is finite (SGLang's bench_serving writes
    `"request_rate": Infinity` when no rate was set)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise JSONBoundError("too_large", size=size, limit=max_bytes)
    try:
        value = json.loads(
            text.removeprefix("\ufeff"),
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_read_constant if constants else _parse_constant,
        )
    except json.JSONDecodeError as error:
        raise JSONBoundError(
            "not_json", error=error.msg, line=error.lineno, column=error.colno
        ) from error
    except RecursionError as error:
        raise JSONBoundError("too_deep", limit=MAX_DEPTH) from error
    _check_tree(value)
    return value
