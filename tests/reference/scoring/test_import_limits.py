"""Hostile JSON on the admin's import pages (scoring models and catalogs share one page): each
is refused with a sentence naming what is wrong, the paste stays in the form, nothing is stored
and nothing answers 500."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.models import Role
from advisor.reference.models import Catalog, ScoringModel
from advisor.reference.services.scoring import scoring_model_export
from tests.reference.scoring.conftest import member_with_role
from tests.reference.scoring.test_admin import _change_url, _model_post

pytestmark = pytest.mark.django_db

PAGES = ["admin:reference_scoringmodel_import", "admin:reference_catalog_import"]
HOSTILE = [
    pytest.param("[" * 100_000, "nests lists and objects more than 64 levels deep", id="deep"),
    pytest.param(
        '{"a": ' + "[" * 64 + "]" * 64 + "}",
        "nests lists and objects more than 64 levels deep",
        id="65-levels",
    ),
    pytest.param(
        '{"name": "a\\u0000b"}',
        "The JSON holds a NUL character (\\u0000), which cannot be stored.",
        id="nul",
    ),
    pytest.param(
        '{"name": "x", "version": ' + "9" * 5_000 + "}",
        "The number 999999999999… has 5,000 characters; numbers may have at most 40.",
        id="5000-digits",
    ),
    pytest.param(
        '{"name": "x", "version": NaN}',
        "NaN is not a number JSON allows.",
        id="nan",
    ),
    pytest.param(
        '{"name": "x", "version": Infinity}',
        "Infinity is not a number JSON allows.",
        id="infinity",
    ),
    pytest.param(
        '{"name": "x", "version": -Infinity}',
        "-Infinity is not a number JSON allows.",
        id="minus-infinity",
    ),
    pytest.param('{"version": 1e400}', "The number 1e400 is too large.", id="overflow"),
]


@pytest.fixture
def editor(client: Client) -> Client:
    client.force_login(member_with_role(Role.ADMIN))
    return client


def _counts() -> tuple[int, int]:
    return ScoringModel.objects.count(), Catalog.objects.count()


@pytest.mark.parametrize("import_url", PAGES)
@pytest.mark.parametrize(("text", "message"), HOSTILE)
def test_hostile_pastes_are_refused_and_kept(
    editor: Client, import_url: str, text: str, message: str
) -> None:
    before = _counts()
    response = editor.post(reverse(import_url), {"text": text})
    assert response.status_code == 200
    body = response.content.decode()
    assert "was not imported:" in body
    assert escape(message) in body
    assert f"{escape(text)}</textarea>" in body
    assert _counts() == before


@pytest.mark.parametrize(("text", "message"), HOSTILE[1:3])
def test_uploaded_files_are_read_the_same_way(editor: Client, text: str, message: str) -> None:
    upload = SimpleUploadedFile("catalog.json", text.encode(), "application/json")
    response = editor.post(reverse("admin:reference_catalog_import"), {"file": upload})
    assert response.status_code == 200
    assert escape(message) in response.content.decode()


@pytest.mark.parametrize(
    ("import_url", "advice"),
    [
        ("admin:reference_scoringmodel_import", ""),
        ("admin:reference_catalog_import", " Upload it as a file (up to 5 MB) instead."),
    ],
)
def test_a_paste_over_1_mb_is_refused_and_kept(
    editor: Client, active: ScoringModel, import_url: str, advice: str
) -> None:
    doc = json.loads(scoring_model_export(model=active))
    doc.update(version=9, description="x" * 1_100_000)
    text = json.dumps(doc)
    before = _counts()
    response = editor.post(reverse(import_url), {"text": text})
    assert response.status_code == 200
    body = response.content.decode()
    size = f"{len(text.encode()):,}"
    assert (
        f"The pasted JSON is {size} bytes, more than the 1,000,000 bytes (1 MB) a paste takes."
        f"{advice}"
    ) in body
    assert "Choose a file or paste the JSON." not in body
    assert f"{escape(text)}</textarea>" in body
    assert _counts() == before


@pytest.mark.parametrize("name", ["evil\r\nSet-Cookie: a=b", "tab\there", "bell\x07", "ls\u2028"])
def test_an_imported_name_with_a_control_character_is_refused(
    editor: Client, active: ScoringModel, name: str
) -> None:
    doc = json.loads(scoring_model_export(model=active))
    doc.update(name=name, version=9)
    text = json.dumps(doc)
    response = editor.post(reverse("admin:reference_scoringmodel_import"), {"text": text})
    assert response.status_code == 200
    body = response.content.decode()
    assert (
        "The name holds a line break, tab or other control character; write it on one line."
    ) in body
    assert f"{escape(text)}</textarea>" in body
    assert not ScoringModel.objects.filter(version=9).exists()


def test_a_version_too_large_for_the_database_is_refused(
    editor: Client, active: ScoringModel
) -> None:
    doc = json.loads(scoring_model_export(model=active))
    doc.update(version=10**30)
    response = editor.post(
        reverse("admin:reference_scoringmodel_import"), {"text": json.dumps(doc)}
    )
    assert response.status_code == 200
    assert (
        f"The version {10**30} is too large (versions go up to 2,147,483,647)."
    ) in response.content.decode()


def test_the_change_form_refuses_a_name_with_a_line_break(
    editor: Client, draft: ScoringModel
) -> None:
    data = _model_post(draft)
    data["name"] = "evil\r\nX-Injected: 1"
    response = editor.post(_change_url(draft), data)
    assert response.status_code == 200
    assert "write it on one line" in response.content.decode()
    draft.refresh_from_db()
    assert draft.name == "default"


@pytest.mark.parametrize(
    ("name", "disposition"),
    [
        ("evil\r\nX-Injected: 1", 'attachment; filename="scoring-evil-x-injected-1-v2.json"'),
        ("a\x01b\x1bc", 'attachment; filename="scoring-abc-v2.json"'),
        ('"quoted"; x=1', 'attachment; filename="scoring-quoted-x1-v2.json"'),
        ("\r\n", 'attachment; filename="scoring-model-v2.json"'),
        (
            "預設 模型",
            "attachment; filename*=utf-8''scoring-%E9%A0%90%E8%A8%AD-%E6%A8%A1%E5%9E%8B-v2.json",
        ),
    ],
)
def test_export_names_the_file_safely_whatever_the_model_is_called(
    editor: Client, draft: ScoringModel, name: str, disposition: str
) -> None:
    # Stored before the forms refused such names, or written straight to the database.
    ScoringModel.objects.filter(pk=draft.pk).update(name=name)
    response = editor.get(reverse("admin:reference_scoringmodel_export", args=[draft.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == disposition
    assert json.loads(response.content)["name"] == name


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000, "這份 JSON 的清單與物件巢狀超過 64 層。"),
        ('{"version": NaN}', "NaN 不是 JSON 允許的數字。"),
        (
            "x" * 1_100_000,
            "貼上的 JSON 有 1,100,000 位元組，超過貼上可接受的 1,000,000 位元組（1 MB）。",
        ),
    ],
)
def test_the_messages_follow_the_users_language(editor: Client, text: str, message: str) -> None:
    response = editor.post(
        reverse("admin:reference_scoringmodel_import"), {"text": text}, HTTP_ACCEPT_LANGUAGE="zh-TW"
    )
    assert response.status_code == 200
    assert message in response.content.decode()


def test_values_too_long_for_their_columns_are_refused(
    editor: Client, active: ScoringModel
) -> None:
    doc = json.loads(scoring_model_export(model=active))
    doc["version"] = 9
    criterion = doc["criteria"][0]
    criterion["label"]["en"] = "x" * 201
    text = json.dumps(doc)
    response = editor.post(reverse("admin:reference_scoringmodel_import"), {"text": text})
    assert response.status_code == 200
    body = response.content.decode()
    assert (
        f"Criterion {criterion['id']}, label (English): Ensure this value has at most 200 "
        "characters (it has 201)."
    ) in body
    assert not ScoringModel.objects.filter(version=9).exists()
