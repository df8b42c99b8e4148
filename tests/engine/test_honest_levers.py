"""A "would change if" flip never leads to a dead end. The scores know the
team's answers but not which card runs which stack in which numeric format, so an int8 SGLang
team was told "would become TPU if your primary framework were JAX" although SGLang serves only
bf16 on a TPU. Each flip is now checked against the plan's own per-card rules and stated with
the change that brings a runnable option back, in both languages."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate
from tests.engine.test_expert_cases import BASE, team

LANGUAGES = ("en", "zh-hant")
BF16 = {
    "en": "inference precision were BF16 instead of {old}",
    "zh-hant": "推論精度為「BF16」（而非「{old}」）",
}
TPU = {
    "en": "the recommendation would become TPU on public cloud",
    "zh-hant": "建議將改為在公有雲上使用 TPU",
}


def _team(serving: str, precision: str) -> dict[str, Any]:
    """A US East PyTorch team on Google Cloud serving a chatbot: TPUs are close enough that
    moving to JAX would flip the recommendation."""
    return team(
        organization={"industry": "research", "regions": ["us_east"]},
        frameworks={"serving": serving},
        deployment={**BASE["deployment"], "clouds": ["gcp"], "portability": "not_needed"},
        inference={**BASE["inference"], "precision": precision},
    )


def _tpu_flips(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        c
        for c in result["recommendation"]["would_change_if"]
        if c.get("accelerator") == "tpu" and c.get("kind") is None
    ]


def _applied(answers: dict[str, Any], flip: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(answers)
    for c in flip["changes"]:
        section, field = c["answer_path"].split(".")
        doc[section][field] = c["to"]
    return doc


def _runs(result: dict[str, Any]) -> bool:
    """The plan has, for its workload, a card that runs the team's stack as it is."""
    (w,) = result["workloads"]
    return any(o["stack"]["runnable"] for o in w["options"]) and "dead_end" not in w


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("serving", "precision", "old"),
    [("sglang", "int8", "INT8"), ("vllm", "int4", "INT4")],
)
def test_a_flip_to_tpu_says_to_serve_in_bf16_where_no_tpu_serves_the_format(
    catalog: Catalog,
    scoring: ScoringModel,
    serving: str,
    precision: str,
    old: str,
    language: str,
) -> None:
    answers = _team(serving, precision)
    result = evaluate(answers, catalog, scoring, lang=language)
    assert result["recommendation"]["accelerator"] == "gpu"
    (flip,) = _tpu_flips(result)
    assert flip["changes"] == [
        {"answer_path": "frameworks.primary", "from": "pytorch", "to": "jax"},
        {"answer_path": "inference.precision", "from": precision, "to": "bf16"},
    ]
    assert BF16[language].format(old=old) in flip["explanation"]
    assert TPU[language] in flip["explanation"]
    # Following the whole lever gives a TPU plan that runs; JAX alone (the old lever) leaves
    # no TPU that serves the format, so the plan stays on GPU: that lever would flip nothing.
    followed = evaluate(_applied(answers, flip), catalog, scoring, lang=language)
    assert followed["recommendation"]["accelerator"] == "tpu"
    assert _runs(followed)
    jax_only = {**flip, "changes": flip["changes"][:1]}
    half = evaluate(_applied(answers, jax_only), catalog, scoring, lang=language)
    assert half["recommendation"]["accelerator"] == "gpu"
    (w,) = half["workloads"]
    assert w["accelerator"] == "gpu" and _runs(half)


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_ordinary_teams_flip_is_unchanged(
    catalog: Catalog, scoring: ScoringModel, language: str
) -> None:
    # bf16 under vLLM runs on TPUs: the lever stays the one answer that flips the scores.
    answers = _team("vllm", "bf16")
    result = evaluate(answers, catalog, scoring, lang=language)
    (flip,) = _tpu_flips(result)
    assert flip["changes"] == [
        {"answer_path": "frameworks.primary", "from": "pytorch", "to": "jax"}
    ]
    assert BF16[language].format(old="BF16") not in flip["explanation"]
    assert _runs(evaluate(_applied(answers, flip), catalog, scoring, lang=language))
    # int8 under vLLM runs on TPUs too (vLLM's TPU backend serves it): unchanged as well.
    int8 = evaluate(_team("vllm", "int8"), catalog, scoring, lang=language)
    assert [f["changes"] for f in _tpu_flips(int8)] == [flip["changes"]]
