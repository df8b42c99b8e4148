from __future__ import annotations

import random
from typing import Any

import pytest

from accounts.models import Role
from accounts.services import membership_create
from advisor.management.commands.bench_rescore import varied_answers
from advisor.models import Assessment
from advisor.reference.models import Criterion, ScoringModel
from tests.factories import (
    MembershipFactory,
    OrganizationFactory,
    ScoringModelFactory,
    operator_member,
)


@pytest.fixture
def submitted(db: None) -> list[Assessment]:
    rng = random.Random(6)
    organization = OrganizationFactory()
    return Assessment.objects.bulk_create(
        Assessment(
            organization=organization,
            title=f"Assessment {i}",
            status=Assessment.Status.SUBMITTED,
            answers=varied_answers(rng),
        )
        for i in range(60)
    )


@pytest.fixture
def active(db: None) -> ScoringModel:
    """Version 1 as the data migration seeded it."""
    return ScoringModel.objects.get(status=ScoringModel.Status.PUBLISHED)


@pytest.fixture
def draft(active: ScoringModel) -> ScoringModel:
    """Version 2: a clone that leans hard towards TPUs and bare metal."""
    model = ScoringModelFactory()
    Criterion.objects.filter(scoring_model=model, key="framework_fit").update(weight=10)
    fit = Criterion.objects.get(scoring_model=model, key="framework_fit")
    fit.contributions.filter(option="tpu").update(points=5)
    Criterion.objects.filter(scoring_model=model, key="ops_capacity").update(weight=9)
    return model


def member_with_role(role: str, *, operator: bool = True) -> Any:
    """A user with `role` in the operating organisation, or (operator=False) in a customer's."""
    if operator:
        return operator_member(role)
    membership = MembershipFactory(role=Role.MEMBER)
    if role != Role.MEMBER:
        membership_create(user=membership.user, organization=membership.organization, role=role)
    membership.user.refresh_from_db()
    return membership.user
