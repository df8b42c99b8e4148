"""The engine's language for the user's: zh-Hant for any Chinese, else English."""

from __future__ import annotations

from django.utils import translation

LANGUAGES = ("en", "zh-hant")


def engine_language(language: str | None = None) -> str:
    language = (language or translation.get_language() or "en").lower()
    return "zh-hant" if language.startswith("zh") else "en"
