"""A problem with an answers document: where, what and in words, and the error that carries it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from advisor.engine.text import i18n


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an answers document: where (`path`), what (`code`) and details."""

    path: str
    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        """The problem as a sentence in `lang` ("en" or "zh-hant")."""
        return i18n.problem_message(self.code, self.path, self.params, lang)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """JSON form: path, code, params and the message in `lang`."""
        return {
            "path": self.path,
            "code": self.code,
            "params": dict(self.params),
            "message": self.message(lang),
        }


class AnswersError(ValueError):
    """An answers document is invalid; `.problems` lists every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        summary = "; ".join(f"{p.path or '(root)'}: {p.message()}" for p in self.problems[:5])
        super().__init__(f"{len(self.problems)} problem(s): {summary}")


def join_path(parts: Iterable[str | int]) -> str:
    """Render a JSON path as `workloads[1].kind`."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out
