"""Each answer of the answers document declared once (`table.py`): its path, type, bounds or
values, unit, label, question and help in English and Traditional Chinese, the wizard step that
asks it and whether a report's what-if may change it. The JSON Schema's properties (schema.py),
the field labels, questions and bound units (i18n.py), the label groups (labels.py), the step
forms and the what-if form are read from here.

Versions 1 and 2's own fields (attention_heads, experts, context_tokens …), the sections and the
derived answers the scoring model reads are here for their words only; their schema stays in
schema.py, which builds versions 1 and 2 from version 3.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

# (English, Traditional Chinese)
Text = tuple[str, str]

LANGS: Final = ("en", "zh-hant")
# The types of an answer the schema states; "section" (an object of answers), "legacy" (a
# version 1 or 2 field) and "derived" (what the scoring model computes) are words only.
ANSWER_TYPES: Final = frozenset({"integer", "number", "boolean", "enum", "enum_list"})


class _NoDefault:
    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Final[Any] = _NoDefault()


@dataclass(frozen=True, slots=True, kw_only=True)
class Field:
    """One answer (or, for `type` section/legacy/derived, one name the engine words)."""

    path: str  # "cost.hours_per_day"; a list's items as "workloads[].kind"
    type: str  # integer | number | boolean | enum | enum_list | section | legacy | derived
    label: Text  # how a sentence names it ("hours of use per day")
    description: str = ""  # the JSON Schema's description (the API's contract, English)
    question: Text | None = None  # how the wizard asks it; else its label, capitalised
    help: Text | None = None  # the wizard's help text under the question
    values: tuple[str, ...] | Callable[[], tuple[str, ...]] | None = None  # an enum's values
    group: str | None = None  # the label group (engine/text/labels.py) naming its values
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: bool = False  # the minimum itself is refused
    min_items: int | None = None  # a list's least length
    nullable: bool = False  # null means "not stated" / "no target"
    default: Any = NO_DEFAULT  # the default the schema documents
    required: bool = False  # required in its section
    unit: Text | None = None  # a bound in words: ("{n} hours a day", "每天 {n} 小時")
    plural_en: bool = False  # its English label takes "are" ("Regions are required")
    step: str | None = None  # the wizard step whose form asks it
    widget: str | None = None  # an enum's input: select | radio (lists are checkboxes)
    what_if: int = 0  # its place in a report's what-if form (1 first); 0: not offered there
    what_if_help: Text | None = None  # the what-if's help text
    # Its key in its section: the path's last part ("hours_per_day"), read once per document.
    name: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", self.path.rsplit(".", 1)[-1])

    @property
    def section(self) -> str:
        return self.path.split(".", 1)[0].removesuffix("[]")

    def choices(self) -> tuple[str, ...]:
        values = self.values() if callable(self.values) else self.values
        return values or ()

    def schema(self) -> dict[str, Any]:
        """Its JSON Schema property (draft 2020-12)."""
        node: dict[str, Any]
        if self.type == "enum":
            values = self.choices()
            node = {"type": "string", "enum": list(values), "maxLength": max(map(len, values))}
        elif self.type == "enum_list":
            values = self.choices()
            node = {
                "type": "array",
                "items": {
                    "type": "string",
                    "enum": list(values),
                    "maxLength": max(map(len, values)),
                },
                "minItems": self.min_items or 0,
                "maxItems": len(values),
                "uniqueItems": True,
            }
        elif self.type in ("integer", "number", "boolean"):
            node = {"type": [self.type, "null"] if self.nullable else self.type}
            if self.minimum is not None:
                node["exclusiveMinimum" if self.exclusive_minimum else "minimum"] = self.minimum
            if self.maximum is not None:
                node["maximum"] = self.maximum
        else:
            raise ValueError(f"{self.path} is a {self.type}: words only, no schema")
        if self.default is not NO_DEFAULT:
            node["default"] = self.default
        node["description"] = self.description
        return node

    def read(self, section: Mapping[str, Any]) -> Any:
        """Its value in `section`, its section of a document valid by `schema`, as the engine's
        dataclasses hold it: the stated value, else its default (None when it has none); an
        integer as int, a number as float, a boolean as bool, a list as a tuple. KeyError when
        it is required and missing (the wizard's preview reads drafts, and tells so)."""
        value = section[self.name] if self.required else section.get(self.name, self.default)
        if value is None or value is NO_DEFAULT:
            return None
        convert = _CONVERT.get(self.type)
        return value if convert is None else convert(value)


# How `Field.read` turns a JSON value of each answer type into the engine's (an enum stays a str).
_CONVERT: Final[dict[str, Callable[[Any], Any]]] = {
    "integer": int,
    "number": float,
    "boolean": bool,
    "enum_list": tuple,
}


def _load() -> tuple[Field, ...]:
    from advisor.engine.answers.fields.table import FIELDS  # noqa: PLC0415 - the data imports Field

    return FIELDS


_EXTRA: list[Field] = []


def all_fields() -> tuple[Field, ...]:
    """Every declared field in table order (then any a test added with `register`)."""
    return (*_load(), *_EXTRA)


@cache
def _by_path() -> dict[str, Field]:
    return {f.path: f for f in all_fields()}


def by_path(path: str) -> Field | None:
    """The field at a generic path ("workloads[].kind"), None for an undeclared one."""
    return _by_path().get(path)


def answers_in(prefix: str) -> Iterator[Field]:
    """The answers (schema fields) directly under `prefix` ("cost", "model.architecture"), in
    table order."""
    for f in all_fields():
        if f.type in ANSWER_TYPES and f.path.rsplit(".", 1)[0] == prefix:
            yield f


@cache
def section_answers(prefix: str) -> tuple[Field, ...]:
    """`answers_in(prefix)` as a tuple, kept until `register` changes the registry (the parser
    reads it for every document)."""
    return tuple(answers_in(prefix))


def asked_in(step: str) -> Iterator[Field]:
    """The answers the wizard step `step` asks field by field, in table order (a list of
    objects, such as the workloads, is asked by its step's own form)."""
    return (
        f for f in all_fields() if f.step == step and f.type in ANSWER_TYPES and "[]" not in f.path
    )


def what_if_fields() -> tuple[Field, ...]:
    """The answers a report's what-if may change, in the what-if form's order."""
    return tuple(sorted((f for f in all_fields() if f.what_if), key=lambda f: f.what_if))


def _text(text: Text) -> dict[str, str]:
    return dict(zip(LANGS, text, strict=True))


def labels() -> dict[str, dict[str, str]]:
    """path -> {language: label}: how a sentence names each field."""
    return {f.path: _text(f.label) for f in all_fields()}


def questions() -> dict[str, dict[str, str]]:
    """path -> {language: question} for the fields the wizard (or the review) words itself."""
    return {f.path: _text(f.question) for f in all_fields() if f.question is not None}


def helps() -> dict[str, dict[str, str]]:
    """path -> {language: help text} under the wizard's question."""
    return {f.path: _text(f.help) for f in all_fields() if f.help is not None}


def bound_units() -> dict[str, dict[str, str]]:
    """path -> {language: "{n} <unit>"} for the answers whose bound reads with a unit."""
    return {f.path: _text(f.unit) for f in all_fields() if f.unit is not None}


def plural_en() -> frozenset[str]:
    """The paths whose English label takes "are"."""
    return frozenset(f.path for f in all_fields() if f.plural_en)


def group_paths() -> dict[str, tuple[str, ...]]:
    """label group -> the answer paths whose values it names, in table order."""
    out: dict[str, list[str]] = {}
    for f in all_fields():
        if f.group is not None:
            out.setdefault(f.group, []).append(f.path)
    return {g: tuple(p) for g, p in out.items()}


def register(field: Field) -> Callable[[], None]:
    """Add a field at run time (tests: a question nobody has asked yet); returns its undo. The
    views read here are cached by their users: call `refresh` hooks after both."""
    _EXTRA.append(field)
    _by_path.cache_clear()
    section_answers.cache_clear()

    def undo() -> None:
        _EXTRA.remove(field)
        _by_path.cache_clear()
        section_answers.cache_clear()

    return undo
