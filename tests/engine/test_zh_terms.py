"""zh-Hant results are written in Traditional Chinese: the usual term for activations, 激活值,
never 啟動值 ("start-up value"), and the catalog's gaps, figures and the server notes in words."""

from __future__ import annotations

import json
import re

import pytest

from advisor.engine import evaluate, load_catalog, load_scoring_model
from advisor.engine.text import i18n, labels
from tests.engine.conftest import JAX_PRETRAIN, SAMPLE

CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_RUN = re.compile(r"[A-Za-z][A-Za-z'\-]*(?:\s+[A-Za-z][A-Za-z'\-]*){2,}")


def test_activations_read_as_激活值_in_traditional_chinese() -> None:
    result = evaluate(JAX_PRETRAIN, load_catalog(), load_scoring_model(), lang="zh-hant")
    text = json.dumps(result, ensure_ascii=False)
    assert "激活值" in text
    assert "啟動值" not in text


@pytest.mark.parametrize("doc", [SAMPLE, JAX_PRETRAIN], ids=["sample", "jax-pretrain"])
def test_gaps_and_server_notes_are_chinese_in_a_chinese_result(doc: dict[str, object]) -> None:
    result = evaluate(doc, load_catalog(), load_scoring_model(), lang="zh-hant")
    gaps = result["cost"]["gaps"]
    notes = [n for s in result["servers"] for n in s["notes"]]
    assert gaps and notes
    assert len(gaps) == len(set(gaps))
    for text in [*gaps, *notes]:
        assert CJK.search(text), text
        assert not ENGLISH_RUN.search(text.replace("HTTP", "")), text


def test_every_bundled_figure_gap_and_unit_has_its_chinese_words() -> None:
    catalog = load_catalog()
    for key, figure in catalog.figures.items():
        assert CJK.search(labels.shown("figure", key, "zh-hant")), key
        assert labels.unit(figure["unit"], "zh-hant") != figure["unit"] or not re.search(
            r"[a-z]{3,}", figure["unit"]
        ), figure["unit"]
    for gap in catalog.gaps:
        assert CJK.search(i18n.catalog_text(gap, "zh-hant")), gap
        assert i18n.catalog_text(gap, "en") == gap


def test_a_gap_an_admin_catalog_adds_shows_as_written() -> None:
    assert i18n.catalog_text("GPU prices on the Moon", "zh-hant") == "GPU prices on the Moon"
    assert labels.unit("furlongs per fortnight", "zh-hant") == "furlongs per fortnight"
