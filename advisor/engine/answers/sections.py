"""What the answers' section dataclasses share: an answer that the field registry declares and a
dataclass does not is read, kept and written all the same, so that a new question reaches the
engine from its registry entry alone (docs/architecture.md, "a new wizard question")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from advisor.engine.answers import fields

# A section's registry-only answers, (name, value) in registry order: a tuple, so that the
# section stays hashable and its equality exact.
Extra = tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Section:
    """A section of a parsed answers document (`PATH` in the registry: "cost", "workloads[]").

    Its attributes are the answers the engine reads by type. The section's other registry
    answers are kept in `extra`, only those that differ from their default, and read by name
    with `answer` (`answers.cost.answer(name)`): a stated value, else the registry's
    default. They are not attributes on purpose: mypy then still catches a misspelled typed
    attribute, and a name the registry does not hold fails at the first run of the code that
    asks for it.
    """

    PATH: ClassVar[str] = ""
    # Answers of the section the dataclass keeps only in another form (derived attributes).
    DERIVED_FROM: ClassVar[frozenset[str]] = frozenset()

    extra: Extra = field(default=(), kw_only=True)

    def answer(self, name: str) -> Any:
        """The section's answer `name`, typed attribute or registry-only alike; KeyError for a
        name the registry does not declare in this section."""
        if name in self.__dataclass_fields__ and name != "extra":
            return getattr(self, name)
        for key, value in self.extra:
            if key == name:
                return value
        f = fields.by_path(f"{self.PATH}.{name}")
        if f is None or f.type not in fields.ANSWER_TYPES:
            raise KeyError(f"{type(self).__name__} has no answer {name!r}")
        return _default(f)


def _default(f: fields.Field) -> Any:
    return None if f.required else f.read({})


@dataclass(frozen=True, slots=True)
class _Layout:
    """A section class against the registry: the answers it was laid out from (laid out again
    when `fields.register` changes them), its typed attributes and its registry-only answers."""

    answers: tuple[fields.Field, ...]
    typed: tuple[fields.Field, ...]
    only: tuple[fields.Field, ...]


_LAYOUTS: dict[type[Section], _Layout] = {}


def _layout(cls: type[Section]) -> _Layout:
    answers = fields.section_answers(cls.PATH)
    known = _LAYOUTS.get(cls)
    if known is None or known.answers is not answers:
        declared = cls.__dataclass_fields__
        known = _LAYOUTS[cls] = _Layout(
            answers,
            typed=tuple(f for f in answers if f.name in declared),
            only=tuple(
                f for f in answers if f.name not in declared and f.name not in cls.DERIVED_FROM
            ),
        )
    return known


def _extra(cls: type[Section], values: Mapping[str, Any]) -> Extra:
    return tuple(
        (f.name, values[f.name])
        for f in _layout(cls).only
        if f.name in values and values[f.name] != _default(f)
    )


def read[S: Section](cls: type[S], node: Mapping[str, Any], **given: Any) -> S:
    """The section `cls` of a valid (version 3) document from its `node`: each attribute not
    `given` read by its registry entry (`Field.read`), the registry's other answers kept in
    `extra`."""
    layout = _layout(cls)
    values = {f.name: f.read(node) for f in layout.typed if f.name not in given}
    stated = {f.name: f.read(node) for f in layout.only if f.name in node}
    if stated:
        return cls(**values, **given, extra=_extra(cls, stated))
    return cls(**values, **given)


def replaced[S: Section](section: S, **changes: Any) -> S:
    """`section` with answers changed by name, its typed attributes and registry-only answers
    alike (`dataclasses.replace` knows only the first)."""
    declared = section.__dataclass_fields__
    typed = {k: v for k, v in changes.items() if k in declared}
    if len(typed) == len(changes):
        return replace(section, **typed)
    unknown = set(changes) - set(typed) - {f.name for f in _layout(type(section)).only}
    if unknown:
        raise TypeError(f"{type(section).__name__} has no answer {sorted(unknown)}")
    values = {**dict(section.extra), **{k: v for k, v in changes.items() if k not in typed}}
    return replace(section, **typed, extra=_extra(type(section), values))


def extra_doc(section: Section) -> dict[str, Any]:
    """The registry-only answers of `section` as its document states them (lists as lists)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in section.extra}
