"""The engine's language for the user's is one rule: the labels under the models, the template
tags and the engine runs above them pick the same language for every Django language code."""

from __future__ import annotations

import pytest
from django.utils.translation import override

from advisor.decisions import languages
from advisor.labels import label_for
from advisor.templatetags.advisor_tags import colon

CODES = {
    "en": "en",
    "en-gb": "en",
    "zh-hant": "zh-hant",
    "zh-Hant": "zh-hant",
    "zh-hans": "zh-hant",
    "zh-hk": "zh-hant",
    "ja": "en",
}


@pytest.mark.parametrize(("code", "expected"), CODES.items())
def test_a_language_code_gives_one_engine_language_everywhere(code: str, expected: str) -> None:
    assert languages.engine_language(code) == expected
    with override(code):
        assert languages.engine_language() == expected
        chinese = expected == "zh-hant"
        assert str(label_for("mode", "public_cloud")) == ("公有雲" if chinese else "Public cloud")
        assert colon() == ("：" if chinese else ": ")
