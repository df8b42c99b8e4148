"""The statements written once for the hottest requests (accounts.rows): the signed-in user's
read, the assessment read through the reader's membership and the versioned save give what the
ORM gives, refuse what it refuses, and leave the session's checks to Django."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Model
from django.http import Http404
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.backends import EmailBackend
from accounts.rows import update_versioned
from advisor.models import Assessment
from advisor.selectors.assessments import assessment_get_for_user
from tests.factories import AssessmentFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

ANSWERS = {
    "schema_version": 1,
    "organization": {"industry": "research", "regions": ["hong_kong", "taipei"]},
    "cost": {"monthly_budget_usd": 12000.5, "hours_per_day": 8, "flags": [True, None, "1"]},
}


def _fields(obj: Model, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        f.attname: getattr(obj, f.attname)
        for f in type(obj)._meta.concrete_fields
        if f.name not in skip
    }


def test_an_owned_assessment_is_the_orms_row_with_its_organisation() -> None:
    member = MembershipFactory()
    obj = AssessmentFactory(membership=member, title="Mine", answers=ANSWERS)
    Assessment.objects.filter(pk=obj.pk).update(result={"en": {"score": 0.5}})
    orm = Assessment.objects.select_related("organization").get(pk=obj.pk)

    read = assessment_get_for_user(user=member.user, pk=obj.pk)
    assert _fields(read) == _fields(orm)
    assert read.answers == ANSWERS and isinstance(read.answers["cost"]["hours_per_day"], int)
    assert _fields(read.organization) == _fields(orm.organization)
    assert read._state.adding is False and read._state.db == "default"

    lean = assessment_get_for_user(user=member.user, pk=obj.pk, with_result=False)
    assert lean.get_deferred_fields() == {"result"}
    assert _fields(lean, skip=("result",)) == _fields(orm, skip=("result",))
    with CaptureQueriesContext(connection) as queries:
        lean.organization.name  # noqa: B018  # read with the row: no query
    assert not queries
    assert lean.result == {"en": {"score": 0.5}}  # read when asked for, as .defer() does


@pytest.mark.parametrize("pk", ["12x", None, 10**12])
def test_an_id_that_is_not_an_assessment_is_not_found(pk: Any) -> None:
    member = MembershipFactory()
    with pytest.raises(Http404):
        assessment_get_for_user(user=member.user, pk=pk)


def test_another_organisations_assessment_is_not_found() -> None:
    mine, theirs = MembershipFactory(), MembershipFactory()
    obj = AssessmentFactory(membership=theirs)
    with pytest.raises(Http404):
        assessment_get_for_user(user=mine.user, pk=obj.pk)
    # A second organisation of the reader does not make it theirs either.
    MembershipFactory(user=mine.user)
    with pytest.raises(Http404):
        assessment_get_for_user(user=mine.user, pk=obj.pk)


def test_a_versioned_save_writes_only_over_the_version_it_read() -> None:
    obj = AssessmentFactory(membership=MembershipFactory(), answers={"schema_version": 1})
    values = {"answers": ANSWERS, "pending_input": {}, "result": None, "last_editor": "tab"}
    assert (
        update_versioned(
            Assessment, pk=obj.pk, version=obj.version + 1, values=values, using="default"
        )
        == 0
    )
    obj.refresh_from_db()
    assert (obj.version, obj.answers) == (1, {"schema_version": 1})
    assert update_versioned(Assessment, pk=obj.pk, version=1, values=values, using="default") == 1
    obj.refresh_from_db()
    assert (obj.version, obj.answers, obj.result, obj.last_editor) == (2, ANSWERS, None, "tab")


def test_the_signed_in_user_is_read_as_the_model_backend_reads_them() -> None:
    user = UserFactory(full_name="Ada Lovelace")
    read = EmailBackend().get_user(user.pk)
    assert read is not None and _fields(read) == _fields(type(user).objects.get(pk=user.pk))
    assert EmailBackend().get_user(10**12) is None
    assert EmailBackend().get_user("not a number") is None
    type(user).objects.filter(pk=user.pk).update(is_active=False)
    assert EmailBackend().get_user(user.pk) is None


@pytest.mark.parametrize("change", ["password", "deactivated"])
def test_a_session_ends_when_its_user_changes_password_or_is_deactivated(
    client: Client, change: str
) -> None:
    member = MembershipFactory()
    client.force_login(member.user)
    dashboard = reverse("advisor:dashboard")
    assert client.get(dashboard).status_code == 200
    user = type(member.user).objects.get(pk=member.user.pk)
    if change == "password":
        user.set_password("a new password for this test")
    else:
        user.is_active = False
    user.save()
    response = client.get(dashboard)
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
