from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Role
from accounts.services import membership_create
from advisor.models import Assessment
from advisor.reference.models import Contribution, Criterion, ScoringModel
from advisor.reference.services.impact import impact_preview_request
from advisor.reference.services.scoring import scoring_model_export
from tests.factories import AssessmentFactory, OrganizationFactory
from tests.reference.scoring.conftest import member_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(client: Client) -> Client:
    client.force_login(member_with_role(Role.ADMIN))
    return client


def _change_url(model: ScoringModel) -> str:
    return reverse("admin:reference_scoringmodel_change", args=[model.pk])


def _model_post(model: ScoringModel, **criterion_changes: dict[str, Any]) -> dict[str, Any]:
    """The change form as the browser posts it; `criterion_changes` by criterion key."""
    criteria = list(model.criteria.all())
    data: dict[str, Any] = {
        "name": model.name,
        "version": model.version,
        "description": model.description,
        "criteria-TOTAL_FORMS": len(criteria),
        "criteria-INITIAL_FORMS": len(criteria),
        "criteria-MIN_NUM_FORMS": 0,
        "criteria-MAX_NUM_FORMS": 1000,
    }
    for i, c in enumerate(criteria):
        row = {
            "id": c.pk,
            "scoring_model": model.pk,
            "order": c.order,
            "key": c.key,
            "answer": c.answer,
            "weight": c.weight,
            "applies_to": list(c.applies_to),
            "label_en": c.label_en,
            "label_zh": c.label_zh,
            **criterion_changes.get(c.key, {}),
        }
        data.update({f"criteria-{i}-{k}": v for k, v in row.items()})
    return data


def _contributions_post(criterion: Criterion, rows: list[tuple[str, str, str]]) -> dict[str, Any]:
    existing = list(criterion.contributions.all())
    data: dict[str, Any] = {
        "key": criterion.key,
        "answer": criterion.answer,
        "weight": criterion.weight,
        "applies_to": list(criterion.applies_to),
        "combine": criterion.combine,
        "label_en": criterion.label_en,
        "label_zh": criterion.label_zh,
        "rationale_en": criterion.rationale_en,
        "rationale_zh": criterion.rationale_zh,
        "order": criterion.order,
        # One more: the untouched extra row a browser posts, which must not be saved.
        "contributions-TOTAL_FORMS": len(existing) + len(rows) + 1,
        "contributions-INITIAL_FORMS": len(existing),
        "contributions-MIN_NUM_FORMS": 0,
        "contributions-MAX_NUM_FORMS": 1000,
    }
    for i, row in enumerate(existing):
        data.update(
            {
                f"contributions-{i}-id": row.pk,
                f"contributions-{i}-criterion": criterion.pk,
                f"contributions-{i}-value": row.value,
                f"contributions-{i}-option": row.option,
                f"contributions-{i}-points": row.points,
                f"contributions-{i}-DELETE": "on",
            }
        )
    for j, (value, option, points) in enumerate(rows, start=len(existing)):
        data.update(
            {
                f"contributions-{j}-criterion": criterion.pk,
                f"contributions-{j}-value": value,
                f"contributions-{j}-option": option,
                f"contributions-{j}-points": points,
            }
        )
    blank = len(existing) + len(rows)
    data.update(
        {
            f"contributions-{blank}-criterion": criterion.pk,
            f"contributions-{blank}-value": "",
            f"contributions-{blank}-option": "",
            f"contributions-{blank}-points": "0",
        }
    )
    return data


# --- permissions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "changelist", "public_list"),
    [
        (None, 302, 302),
        (Role.MEMBER, 302, 404),
        (Role.SALES_ENGINEER, 302, 200),
        (Role.ADMIN, 200, 200),
    ],
)
def test_permission_matrix(
    client: Client, active: ScoringModel, role: str | None, changelist: int, public_list: int
) -> None:
    if role is not None:
        client.force_login(member_with_role(role))
    admin_urls = [
        reverse("admin:reference_scoringmodel_changelist"),
        _change_url(active),
        reverse("admin:reference_scoringmodel_import"),
        reverse("admin:reference_scoringmodel_preview", args=[active.pk]),
    ]
    for url in admin_urls:
        response = client.get(url)
        assert response.status_code == changelist, url
        if changelist == 302:
            assert response["Location"].startswith(reverse("admin:login"))
    public_urls = [
        reverse("advisor:scoring_models"),
        reverse("advisor:scoring_model", args=[active.pk]),
        reverse("advisor:scoring_preview", args=[active.pk]),
    ]
    for url in public_urls:
        response = client.get(url)
        assert response.status_code == public_list, url
        if public_list == 302:
            assert response["Location"].startswith(reverse("accounts:login"))


def test_staff_without_the_admin_role_gets_403(client: Client, active: ScoringModel) -> None:
    user = member_with_role(Role.SALES_ENGINEER)
    user.is_staff = True
    user.save()
    client.force_login(user)
    assert client.get(reverse("admin:reference_scoringmodel_changelist")).status_code == 403
    assert (
        client.post(reverse("admin:reference_scoringmodel_clone", args=[active.pk])).status_code
        == 403
    )
    assert ScoringModel.objects.count() == 1


def test_sales_engineers_read_but_do_not_see_edit_links(
    client: Client, draft: ScoringModel
) -> None:
    client.force_login(member_with_role(Role.SALES_ENGINEER))
    page = client.get(reverse("advisor:scoring_model", args=[draft.pk])).content.decode()
    assert "Framework fit" in page and "10.00" in page
    assert "Changes against the active default v1" in page
    assert "/admin/" not in page.split("<main", 1)[1]
    listing = client.get(reverse("advisor:scoring_models")).content.decode()
    assert "default v2" in listing and "Edit in the admin" not in listing


# --- read-only published models --------------------------------------------------------------


def test_a_published_model_opens_read_only_and_refuses_posts(
    editor: Client, active: ScoringModel
) -> None:
    page = editor.get(_change_url(active)).content.decode()
    assert 'name="_save"' not in page
    assert "this version never changes" in page
    response = editor.post(_change_url(active), _model_post(active, stack_changes={"weight": 3}))
    assert response.status_code == 403
    assert active.criteria.get(key="stack_changes").weight == Decimal("2.00")


# --- bad input in the forms -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("weight", "message"),
    [
        ("-1", "A weight must be more than 0 (to switch a criterion off, delete it)."),
        ("0", "A weight must be more than 0 (to switch a criterion off, delete it)."),
        ("50", "A weight of 50 is too large: weights go up to 10."),
        ("heavy", "Enter a number."),
    ],
)
def test_bad_weights_are_refused_with_clear_messages(
    editor: Client, draft: ScoringModel, weight: str, message: str
) -> None:
    response = editor.post(_change_url(draft), _model_post(draft, demand={"weight": weight}))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert draft.criteria.get(key="demand").weight == Decimal("2.00")


def test_a_model_without_criteria_is_refused(editor: Client, draft: ScoringModel) -> None:
    data = _model_post(draft)
    for i in range(draft.criteria.count()):
        data[f"criteria-{i}-DELETE"] = "on"
    response = editor.post(_change_url(draft), data)
    assert "A scoring model needs at least one criterion." in response.content.decode()
    assert draft.criteria.count() == 19


def test_a_valid_weight_change_is_saved_and_audited(editor: Client, draft: ScoringModel) -> None:
    response = editor.post(_change_url(draft), _model_post(draft, demand={"weight": "3.5"}))
    assert response.status_code == 302, response.content.decode()[:2000]
    criterion = draft.criteria.get(key="demand")
    assert criterion.weight == Decimal("3.50")
    record = criterion.history.first()
    assert record is not None and record.history_type == "~"
    assert record.history_user is not None and record.history_user.is_staff
    delta = record.diff_against(record.prev_record)
    assert [(c.field, c.old, c.new) for c in delta.changes] == [
        ("weight", Decimal("2.00"), Decimal("3.50"))
    ]
    audit = editor.get(reverse("admin:reference_scoringmodel_audit", args=[draft.pk]))
    assert "weight: 2.00 → 3.50" in audit.content.decode()


def test_contributions_with_unknown_values_or_no_points_are_refused(
    editor: Client, draft: ScoringModel
) -> None:
    criterion = draft.criteria.get(key="stack_changes")
    url = reverse("admin:reference_criterion_change", args=[criterion.pk])
    response = editor.post(url, _contributions_post(criterion, [("hourly", "gpu", "1")]))
    assert "Select a valid choice. hourly is not one of the available choices." in (
        response.content.decode()
    )
    response = editor.post(url, _contributions_post(criterion, [("weekly", "gpu", "0")]))
    assert "This criterion gives no points to any option" in response.content.decode()
    response = editor.post(url, _contributions_post(criterion, [("weekly", "gpu", "7")]))
    assert "Points must be between -5 and 5; 7 is outside." in response.content.decode()
    assert criterion.contributions.count() == 11
    response = editor.post(url, _contributions_post(criterion, [("monthly", "bare_metal", "2")]))
    assert response.status_code == 302
    assert response["Location"] == _change_url(draft)
    assert [(c.value, c.option, c.points) for c in criterion.contributions.all()] == [
        ("monthly", "bare_metal", Decimal("2.000"))
    ]


def test_import_page_reports_broken_json_and_duplicates(
    editor: Client, active: ScoringModel
) -> None:
    url = reverse("admin:reference_scoringmodel_import")
    page = editor.post(url, {"text": "{not json"}).content.decode()
    assert "The model was not imported:" in page and "not valid JSON" in page
    exported = scoring_model_export(model=active)
    page = editor.post(url, {"text": exported}).content.decode()
    assert "Version 1 of default already exists" in page
    doc = json.loads(exported)
    doc["version"] = 5
    response = editor.post(url, {"text": json.dumps(doc)})
    imported = ScoringModel.objects.get(version=5)
    assert response["Location"] == _change_url(imported)


def test_export_downloads_the_document(editor: Client, active: ScoringModel) -> None:
    response = editor.get(reverse("admin:reference_scoringmodel_export", args=[active.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="scoring-default-v1.json"'
    assert json.loads(response.content)["criteria"][0]["id"] == "stack_changes"


# --- clone, preview, publish, diff ------------------------------------------------------------


def test_clone_preview_and_publish_through_the_admin(
    editor: Client, active: ScoringModel, submitted: list[Assessment]
) -> None:
    response = editor.post(reverse("admin:reference_scoringmodel_clone", args=[active.pk]))
    draft = ScoringModel.objects.get(version=2)
    assert response["Location"] == _change_url(draft)
    Criterion.objects.filter(scoring_model=draft, key="framework_fit").update(weight=10)

    preview_url = reverse("admin:reference_scoringmodel_preview", args=[draft.pk])
    assert editor.post(preview_url)["Location"] == preview_url
    page = editor.get(preview_url).content.decode()
    assert "Assessments that flip" in page
    assert 'src="data:image/svg+xml;base64,' in page
    assert "style=" not in page.split('id="content-main"', 1)[1]

    diff = editor.get(reverse("admin:reference_scoringmodel_diff", args=[draft.pk]))
    assert "framework_fit" in diff.content.decode()

    publish_url = reverse("admin:reference_scoringmodel_publish", args=[draft.pk])
    assert "retires default v1" in editor.get(publish_url).content.decode()
    editor.post(publish_url)
    draft.refresh_from_db()
    active.refresh_from_db()
    assert (draft.status, active.status) == ("published", "retired")


def test_publishing_an_invalid_draft_shows_each_problem(
    editor: Client, draft: ScoringModel
) -> None:
    draft.criteria.get(key="pipeline").contributions.all().delete()
    draft.criteria.get(key="demand").contributions.all().delete()
    response = editor.post(
        reverse("admin:reference_scoringmodel_publish", args=[draft.pk]), follow=True
    )
    page = response.content.decode()
    assert "Default v2 was not published; fix these first:" in page
    assert "Criterion pipeline: it has no contributions." in page
    assert "Criterion demand: it has no contributions." in page
    draft.refresh_from_db()
    assert draft.status == "draft"


def test_the_preview_lists_only_flipped_assessments_the_reader_may_open(
    client: Client, draft: ScoringModel, submitted: list[Assessment]
) -> None:
    # Half the assessments belong to a customer the sales engineer works with, half to another.
    customer = submitted[0].organization
    other = OrganizationFactory(name="Elsewhere Ltd")
    Assessment.objects.filter(pk__in=[a.pk for a in submitted[1::2]]).update(organization=other)
    preview = impact_preview_request(draft=draft, user=None)
    assert preview.result is not None
    engineer = member_with_role(Role.SALES_ENGINEER)
    membership_create(user=engineer, organization=customer, role=Role.SALES_ENGINEER)
    client.force_login(engineer)
    page = client.get(reverse("advisor:scoring_preview", args=[draft.pk])).content.decode()
    flipped = preview.result["flipped"]
    theirs = [row for row in flipped if row["organization"] == customer.name]
    others = [row for row in flipped if row["organization"] == other.name]
    assert theirs and others
    for row in theirs:
        assert f'href="/assessments/{row["id"]}/"' in page
    for row in others:
        assert f'href="/assessments/{row["id"]}/"' not in page
    assert "Elsewhere Ltd" not in page
    # The counts still cover every organisation.
    assert f"<th>{preview.result['flipped_total']}</th>" in page
    assert f"{len(others)} flipped assessments are counted above but not listed" in page
    assert 'src="data:image/svg+xml;base64,' in page


def test_no_bulk_delete_and_published_models_cannot_be_deleted(
    editor: Client, active: ScoringModel, draft: ScoringModel
) -> None:
    page = editor.get(reverse("admin:reference_scoringmodel_changelist")).content.decode()
    assert 'value="delete_selected"' not in page
    delete = reverse("admin:reference_scoringmodel_delete", args=[active.pk])
    assert editor.post(delete, {"post": "yes"}).status_code == 403
    fit = active.criteria.get(key="framework_fit")
    delete = reverse("admin:reference_criterion_delete", args=[fit.pk])
    assert editor.post(delete, {"post": "yes"}).status_code == 403
    assert ScoringModel.objects.filter(pk=active.pk).exists()
    editor.post(reverse("admin:reference_scoringmodel_delete", args=[draft.pk]), {"post": "yes"})
    assert not ScoringModel.objects.filter(pk=draft.pk).exists()


def test_an_admin_adds_a_draft_from_scratch(editor: Client, active: ScoringModel) -> None:
    add = reverse("admin:reference_scoringmodel_add")
    assert 'value="2"' in editor.get(add).content.decode()  # the next free version
    data = {
        "name": "default",
        "version": 2,
        "description": "",
        "criteria-TOTAL_FORMS": 1,
        "criteria-INITIAL_FORMS": 0,
        "criteria-MIN_NUM_FORMS": 0,
        "criteria-MAX_NUM_FORMS": 1000,
        "criteria-0-order": 0,
        "criteria-0-key": "framework_fit",
        "criteria-0-answer": "frameworks.primary",
        "criteria-0-weight": "3",
        "criteria-0-label_en": "Framework fit",
    }
    response = editor.post(add, data)
    assert response.status_code == 302, response.content.decode()[-3000:]
    model = ScoringModel.objects.get(version=2)
    assert model.status == "draft" and model.created_by is not None
    criterion = model.criteria.get()
    assert criterion.applies_to == ["training", "inference", "preprocessing"]
    # Not publishable yet, and the change page says why.
    page = editor.get(_change_url(model)).content.decode()
    assert "Before this draft can be published:" in page
    assert "Criterion framework_fit: it has no contributions." in page
    data["version"] = 1
    response = editor.post(add, data)
    assert "This version of this model already exists; use the next version number." in (
        response.content.decode()
    )


def test_the_audit_trail_names_who_published_not_their_id(
    client: Client, draft: ScoringModel
) -> None:
    admin = member_with_role(Role.ADMIN)
    client.force_login(admin)
    client.post(reverse("admin:reference_scoringmodel_publish", args=[draft.pk]))
    draft.refresh_from_db()
    assert draft.published_by == admin
    audit = client.get(reverse("admin:reference_scoringmodel_audit", args=[draft.pk]))
    page = audit.content.decode()
    assert f"published_by: — → {admin.email}" in page
    assert f"→ {admin.pk}<" not in page
    # django-simple-history's own history page of the model says the same.
    history = client.get(reverse("admin:reference_scoringmodel_history", args=[draft.pk]))
    text = " ".join(history.content.decode().split())
    assert admin.email in text.split('id="change-history"', 1)[1]
    assert f"&rarr;&nbsp;&nbsp;{admin.pk} " not in text


def test_counts_of_one_read_in_the_singular(editor: Client, draft: ScoringModel) -> None:
    organization = OrganizationFactory()
    AssessmentFactory(organization=organization, title="Only one", submitted=True)
    preview_url = reverse("admin:reference_scoringmodel_preview", args=[draft.pk])
    editor.post(preview_url)
    page = " ".join(editor.get(preview_url).content.decode().split())
    assert "over 1 submitted assessment (" in page
    assert "1 submitted assessments" not in page and "1 assessments" not in page
    confirm = editor.get(reverse("admin:reference_scoringmodel_publish", args=[draft.pk]))
    text = " ".join(confirm.content.decode().split())
    assert "of 1 submitted assessment whose recommendation would change" in text


# --- queries (the change page and its save took 2.6 s on a busy box) ----------


def _queries(client: Client, url: str, data: dict[str, Any] | None = None) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, data) if data is not None else client.get(url)
    assert response.status_code == (302 if data is not None else 200), response.content[:2000]
    return len(queries)


def _more_criteria(model: ScoringModel, count: int) -> None:
    """`count` more criteria on `model`, each a copy of its first with its contributions."""
    first = model.criteria.first()
    assert first is not None
    rows = list(first.contributions.all())
    for i in range(count):
        copy = Criterion.objects.get(pk=first.pk)
        copy.pk, copy.key, copy.order = None, f"copy_{i}", 100 + i
        copy.save()
        Contribution.objects.bulk_create(
            Contribution(criterion=copy, value=r.value, option=r.option, points=r.points)
            for r in rows
        )


def test_a_drafts_page_and_its_save_take_as_many_queries_whatever_its_criteria(
    editor: Client, draft: ScoringModel
) -> None:
    url = _change_url(draft)
    editor.get(url)
    page = _queries(editor, url)
    save = _queries(editor, url, _model_post(draft, demand={"weight": "3.5"}))
    _more_criteria(draft, 10)
    assert _queries(editor, url) == page
    # The same one weight changed among 29 rows instead of 19.
    assert _queries(editor, url, _model_post(draft, demand={"weight": "2.5"})) == save
    # Besides the session, the user and the memberships: the model and its criteria with their
    # contribution counts, its checks (the model, criteria, contributions), the admin's record
    # of it, and no query per model of the sidebar or per permission asked.
    assert page <= 12
    assert draft.criteria.get(key="demand").weight == Decimal("2.50")


def test_two_criteria_cannot_be_given_one_key(editor: Client, draft: ScoringModel) -> None:
    response = editor.post(_change_url(draft), _model_post(draft, demand={"key": "stack_changes"}))
    assert response.status_code == 200
    # The changed row is checked against the stored ones (the rows left as they are are not).
    assert "Criterion with this Scoring model and Key already exists." in response.content.decode()
    assert draft.criteria.filter(key="demand").exists()
