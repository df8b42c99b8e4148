"""The engine as the product runs it: the active catalog and scoring model, in the user's language.

The bundled catalog is the seed. The scoring model is the one admins published in the database
(the bundled version 1 while none is, e.g. on a fresh database).
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

from django.utils import translation

from advisor import engine
from advisor.engine import Answers, Catalog, ScoringModel
from advisor.models import ScoringModel as ScoringModelRow

LANGUAGES = ("en", "zh-hant")


@cache
def active_catalog() -> Catalog:
    return engine.load_catalog()


# The compiled published model, keyed by (row id, version). Published rows never change, so
# one indexed query per call is enough for a publish to reach every web and worker process.
_compiled: dict[tuple[int, int], ScoringModel] = {}
_compiled_lock = threading.Lock()


def active_scoring_model() -> ScoringModel:
    published = (
        ScoringModelRow.objects.filter(status=ScoringModelRow.Status.PUBLISHED)
        .values_list("pk", "version")
        .first()
    )
    if published is None:
        return engine.load_scoring_model()
    model = _compiled.get(published)
    if model is None:
        row = ScoringModelRow.objects.prefetch_related("criteria__contributions").get(
            pk=published[0]
        )
        model = engine.load_scoring_model(row.to_document())
        with _compiled_lock:
            _compiled.clear()
            _compiled[published] = model
    return model


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
