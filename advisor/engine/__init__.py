"""The advisor decision engine: pure Python (stdlib + jsonschema), no Django.

Answers document in, result document out: hard constraints, soft scoring from a data-held scoring
model, memory sizing, time and cost, each figure with its source. See `evaluate`.
"""

from __future__ import annotations

from advisor.engine.answers.parse import parse_answers
from advisor.engine.answers.problems import AnswersError, Problem, check_partial
from advisor.engine.answers.schema import answers_schema
from advisor.engine.answers.vocabulary import SCHEMA_VERSION, Answers
from advisor.engine.catalog import Catalog, CatalogError, load_catalog
from advisor.engine.ranking.scoring import ScoringModel, ScoringModelError, load_scoring_model
from advisor.engine.result.evaluate import ENGINE_VERSION, evaluate, rescore
from advisor.engine.result.preview import preview

__all__ = [
    "ENGINE_VERSION",
    "SCHEMA_VERSION",
    "Answers",
    "AnswersError",
    "Catalog",
    "CatalogError",
    "Problem",
    "ScoringModel",
    "ScoringModelError",
    "answers_schema",
    "check_partial",
    "evaluate",
    "load_catalog",
    "load_scoring_model",
    "parse_answers",
    "preview",
    "rescore",
]
