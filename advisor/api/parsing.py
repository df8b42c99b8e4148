"""Request bodies: JSON only, at most a megabyte and 32 levels deep, with no text or number
that PostgreSQL or the engine could not take; each refusal says why (errors.install)."""

from __future__ import annotations

import json
import math
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja.parser import Parser
from ninja.types import DictStrAny

# An answers document is a few kilobytes; a megabyte leaves room for long free text and stops
# a client from making the server parse (and Postgres store) anything much bigger.
MAX_BODY_BYTES = 1024 * 1024
# The answers document nests four levels deep; this bounds the recursion of everything below.
MAX_JSON_DEPTH = 32


class BodyTooLarge(Exception):
    pass


class NotJSON(Exception):
    """A write whose Content-Type is not application/json."""


class BodyRefused(ValueError):
    """Valid JSON that PostgreSQL or the engine cannot take (NUL, lone surrogates, NaN, depth)."""


def _refuse_constant(name: str) -> Any:
    raise BodyRefused(_("%(value)s is not a number JSON allows.") % {"value": name})


def _check_json(data: Any) -> None:
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise BodyRefused(_("The JSON is nested too deeply."))
        if isinstance(node, dict):
            for key, value in node.items():
                _check_text(key)
                stack.append((value, depth + 1))
        elif isinstance(node, list):
            stack.extend((value, depth + 1) for value in node)
        elif isinstance(node, str):
            _check_text(node)
        elif isinstance(node, float) and not math.isfinite(node):
            raise BodyRefused(_("A number is too large."))


def _check_text(text: str) -> None:
    # PostgreSQL refuses NUL in text and jsonb, and UTF-8 cannot encode a lone surrogate.
    if "\x00" in text:
        raise BodyRefused(_("Text may not contain the NUL character."))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BodyRefused(_("Text must be valid Unicode.")) from exc


class JSONParser(Parser):
    def parse_body(self, request: HttpRequest) -> DictStrAny:
        # A form or text/plain post is refused before its body is read: it is no client of
        # this API, and only a JSON body is described by its schema.
        if request.content_type != "application/json":
            raise NotJSON
        body = request.body  # Django raises RequestDataTooBig past DATA_UPLOAD_MAX_MEMORY_SIZE
        if len(body) > MAX_BODY_BYTES:
            raise BodyTooLarge
        data = json.loads(body, parse_constant=_refuse_constant)
        _check_json(data)
        return data  # type: ignore[no-any-return]  # a non-object fails the body schema
