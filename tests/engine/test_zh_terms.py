"""zh-Hant reports use the usual term for activations, 激活值, never 啟動值 ("start-up value")."""

from __future__ import annotations

import json

from advisor.engine import evaluate, load_catalog, load_scoring_model
from tests.engine.conftest import JAX_PRETRAIN


def test_activations_read_as_激活值_in_traditional_chinese() -> None:
    result = evaluate(JAX_PRETRAIN, load_catalog(), load_scoring_model(), lang="zh-hant")
    text = json.dumps(result, ensure_ascii=False)
    assert "激活值" in text
    assert "啟動值" not in text
