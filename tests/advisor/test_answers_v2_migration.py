from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps as django_apps

from advisor.engine import parse_answers
from advisor.engine.answers.upgrade import upgrade_answers
from advisor.models import Assessment, Report
from advisor.starters import STARTERS
from tests.answers_versions import as_v1
from tests.factories import OrganizationFactory

MIGRATION = importlib.import_module("advisor.migrations.0019_answers_v2")
# A starter names a published model, so it reads the same in version 2 and version 3.
V2 = {**STARTERS[0].answers, "schema_version": 2}


V1 = as_v1(V2)


@pytest.mark.django_db
def test_stored_v1_answers_migrate_to_v2_and_back() -> None:
    # The migration only rewrites JSON (the tables are the same before and after it), so its
    # own functions run over rows stored the way version 1 stored them.
    [operation] = MIGRATION.Migration.operations
    assert operation.reversible
    organization = OrganizationFactory()
    submitted = Assessment.objects.create(
        organization=organization, title="Submitted", answers=V1, status="submitted"
    )
    # A draft whose inference step still holds typed input, and one with a context only.
    typed = {"inference": {"data": {"context_tokens": ["8,192"], "output_tokens": ["512"]}}}
    draft = Assessment.objects.create(
        organization=organization,
        title="Draft",
        answers={"schema_version": 1, "inference": {"context_tokens": 2048}},
        pending_input=typed,
    )
    report = Report.objects.create(assessment=submitted, number=1, language="en", answers=V1)
    untouched = Assessment.objects.create(
        organization=organization, title="No inference", answers={"schema_version": 1}
    )

    MIGRATION.forward(django_apps, None)

    assert Assessment.objects.get(pk=submitted.pk).answers == V2
    assert Report.objects.get(pk=report.pk).answers == V2
    assert Assessment.objects.get(pk=draft.pk).answers == {"schema_version": 2, "inference": {}}
    assert Assessment.objects.get(pk=draft.pk).pending_input == {
        "inference": {"data": {"prompt_tokens": ["7680"], "output_tokens": ["512"]}}
    }
    assert Assessment.objects.get(pk=untouched.pk).answers == {"schema_version": 2}
    # The engine reads the same context from what was stored and what it became.
    migrated = parse_answers(Assessment.objects.get(pk=submitted.pk).answers)
    assert migrated == parse_answers(V1)
    assert migrated.inference is not None and migrated.inference.context_tokens == 4096

    MIGRATION.backward(django_apps, None)

    assert Assessment.objects.get(pk=submitted.pk).answers == V1
    assert Report.objects.get(pk=report.pk).answers == V1
    assert Assessment.objects.get(pk=untouched.pk).answers == {"schema_version": 1}
    assert Assessment.objects.get(pk=draft.pk).pending_input == {
        "inference": {"data": {"context_tokens": ["8192"], "output_tokens": ["512"]}}
    }


@pytest.mark.parametrize(
    "answers",
    [
        V1,
        as_v1({**V2, "inference": {**V2["inference"], "prompt_tokens": 0}}),
        {"schema_version": 1},
        {"schema_version": 1, "inference": {"output_tokens": 64}},
        {},
    ],
)
def test_the_migration_upgrades_as_the_engine_does_and_reverses(answers: dict[str, Any]) -> None:
    forward = MIGRATION.answers_forward(answers)
    # What 0019 wrote (version 2) the engine reads as it reads the version 1 original.
    assert forward.get("schema_version") in (2, None)
    assert upgrade_answers(forward) == upgrade_answers(answers)
    assert MIGRATION.answers_backward(forward) == answers


def test_a_stored_contradiction_is_left_as_version_1() -> None:
    # Never written (the engine refuses it), but should one be there it stays readable by name.
    contradiction = {"schema_version": 1, "inference": {"context_tokens": 10, "output_tokens": 11}}
    assert MIGRATION.answers_forward(contradiction) == contradiction
