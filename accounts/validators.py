"""Checks on the names people type: organisation names, full names and assessment titles.

Names travel into email headers (an invitation's subject names the organisation), CSV cells and
PDF titles. A line break there breaks the header, so names are one line of printable text.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Cc: C0/C1 controls (tab, CR, LF, NEL…); Zl/Zp: the Unicode line and paragraph separators, which
# Python's str.splitlines (and so the email package) also treats as line ends.
_BREAKING = frozenset({"Cc", "Zl", "Zp"})
# Bidirectional overrides and isolates make a name read differently from what it is.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _is_control(char: str) -> bool:
    return char in _BIDI_CONTROLS or unicodedata.category(char) in _BREAKING


def validate_plain_name(value: str) -> None:
    if any(c in _BIDI_CONTROLS for c in value):
        raise ValidationError(
            _(
                "Remove the invisible text-direction characters (such as U+202E): they make "
                "text read differently from what it is."
            ),
            code="control_characters",
        )
    if any(_is_control(c) for c in value):
        raise ValidationError(
            _("Use one line of plain text: no line breaks, tabs or other control characters."),
            code="control_characters",
        )


def plain_name(value: str) -> str:
    """`value` as one line: control characters become spaces, runs of spaces one space.

    For callers that take names from elsewhere than a form (commands, old rows); forms refuse
    such names instead, with validate_plain_name's message.
    """
    return " ".join("".join(" " if _is_control(c) else c for c in value).split())
