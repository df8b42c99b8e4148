"""The engine as the product runs it: the active catalog and scoring model, in the user's language.

The bundled catalog and the version-1 scoring model are the seeds; admins' versions in the
database replace them in a later step, behind these same functions.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.utils import translation

from advisor import engine
from advisor.engine import Answers, Catalog, ScoringModel

LANGUAGES = ("en", "zh-hant")


@cache
def active_catalog() -> Catalog:
    return engine.load_catalog()


@cache
def active_scoring_model() -> ScoringModel:
    return engine.load_scoring_model()


def engine_language(language: str | None = None) -> str:
    language = (language or translation.get_language() or "en").lower()
    return "zh-hant" if language.startswith("zh") else "en"


def evaluate(answers: Answers, *, language: str | None = None) -> dict[str, Any]:
    return engine.evaluate(
        answers, active_catalog(), active_scoring_model(), lang=engine_language(language)
    )


def evaluate_all_languages(answers: Answers) -> dict[str, dict[str, Any]]:
    return {lang: evaluate(answers, language=lang) for lang in LANGUAGES}


def preview(draft: dict[str, Any]) -> dict[str, Any] | None:
    return engine.preview(draft, active_catalog(), active_scoring_model(), lang=engine_language())
