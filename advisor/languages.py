"""The engine's language for the user's: zh-Hant for any Chinese, else English. The one place this
rule is written: the label helpers under the models read it here, and the layers above them
through advisor.decisions.languages."""

from __future__ import annotations

from django.utils import translation


def engine_language(language: str | None = None) -> str:
    """The engine language ("en" or "zh-hant") for `language`, or for the active one."""
    language = (language or translation.get_language() or "en").lower()
    return "zh-hant" if language.startswith("zh") else "en"
