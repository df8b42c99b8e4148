"""parse_answers: a valid answers document into the frozen Answers dataclasses.

Each section's answers are read by their field registry entries (sections.read); what is not a
plain read of one answer is stated here: China reach derived from the regions, the model's
architecture, and which of training, inference and work the workloads apply.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from advisor.engine.answers.problems import AnswersError, validate
from advisor.engine.answers.sections import read
from advisor.engine.answers.upgrade import upgrade_answers
from advisor.engine.answers.vocabulary import (
    INFERENCE_KINDS,
    SCHEMA_VERSION,
    TRAINING_KINDS,
    Answers,
    Cost,
    Deployment,
    Frameworks,
    Inference,
    Maturity,
    Model,
    Organization,
    Training,
    Work,
    Workload,
    architecture_from,
)


def china_by_region(regions: Iterable[Any]) -> bool:
    """deployment.china_connectivity when a document leaves it out: mainland China is among
    the regions where the users and data are (step 1 already asks it)."""
    return "mainland_china" in regions


def parse_answers(doc: Mapping[str, Any]) -> Answers:
    """Validate `doc` against the answers schema of its version (3, or 1 and 2 read as 3) and the
    cross-field rules; return frozen dataclasses.

    Raises AnswersError carrying every problem (schema and cross-field), not just the first.
    """
    problems = validate(doc)
    if problems:
        raise AnswersError(problems)
    doc = upgrade_answers(doc)
    kinds = {w["kind"] for w in doc["workloads"]}
    regions = doc["organization"]["regions"]
    dep = doc["deployment"]
    model: Model | None = None
    if "model" in doc:
        m = doc["model"]
        arch = architecture_from(m["architecture"]) if "architecture" in m else None
        model = read(Model, m, architecture=arch)
    # A section present but not applicable is accepted and ignored (documented in the schema).
    training = (
        read(Training, doc["training"]) if "training" in doc and kinds & TRAINING_KINDS else None
    )
    inference: Inference | None = None
    work: Work | None = None
    if kinds & INFERENCE_KINDS:
        if "work" in doc:
            # The work section sizes the inference workloads: a token inference section is ignored.
            work = read(Work, doc["work"])
        elif "inference" in doc:
            inference = read(Inference, doc["inference"])
    return Answers(
        schema_version=SCHEMA_VERSION,
        organization=read(Organization, doc["organization"]),
        workloads=tuple(read(Workload, w) for w in doc["workloads"]),
        maturity=read(Maturity, doc["maturity"]),
        frameworks=read(Frameworks, doc["frameworks"]),
        deployment=read(
            Deployment,
            dep,
            china_connectivity=bool(dep.get("china_connectivity", china_by_region(regions))),
        ),
        cost=read(Cost, doc["cost"]),
        model=model,
        training=training,
        inference=inference,
        work=work,
    )
