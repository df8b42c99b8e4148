"""The engine's language for the user's, as the layers above the models ask for it. The rule
itself is advisor/languages.py's, which the label helpers under the models read as well."""

from __future__ import annotations

from advisor.languages import engine_language

__all__ = ["engine_language"]
