from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role
from advisor import engine
from advisor.decisions import evaluation, live
from advisor.models import Assessment
from advisor.reference.models import Catalog, CatalogPrice
from advisor.reference.services.catalog import (
    CatalogInvalid,
    CatalogLocked,
    catalog_clone,
    catalog_diff,
    catalog_ensure_editable,
    catalog_export,
    catalog_import,
    catalog_publish,
)
from advisor.services import reports
from advisor.starters import BY_SLUG as STARTERS
from tests.factories import (
    AssessmentFactory,
    CatalogFactory,
    MembershipFactory,
    ReportFactory,
    UserFactory,
)
from tests.reference.scoring.conftest import (
    member_with_role,
    submitted,  # noqa: F401 - a fixture
)

pytestmark = pytest.mark.django_db

STARTER = "llm-fine-tuning-startup"


@pytest.fixture
def active(db: None) -> Catalog:
    """Version 1, as the data migration seeded it from the bundled catalog."""
    return Catalog.objects.get(status=Catalog.Status.PUBLISHED)


@pytest.fixture
def draft(active: Catalog) -> Catalog:
    return CatalogFactory()


@pytest.fixture
def editor(client: Client) -> Client:
    client.force_login(member_with_role(Role.ADMIN))
    return client


def _used_price(catalog: Catalog) -> CatalogPrice:
    """The on-demand price the starter's recommended accelerator is costed with."""
    result = evaluation.evaluate(STARTERS[STARTER].document(), language="en")
    chosen = result["cost"]["by_workload"][0]
    assert chosen["billing_used"] == "on_demand"
    used = [p["price_id"] for p in result["cost"]["prices_used"]]
    return catalog.prices.get(
        key__in=used, accelerator__key=chosen["accelerator_id"], billing="on_demand"
    )


def _price_post(price: CatalogPrice, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "accelerator": price.accelerator_id,
        "key": price.key,
        "provider": price.provider,
        "cloud": price.cloud,
        "modes": list(price.modes),
        "billing": price.billing,
        "usd_per_device_hour": price.usd_per_device_hour or "",
        "usd_per_device_month": price.usd_per_device_month or "",
        "setup_fee_usd": price.setup_fee_usd or "",
        "min_term_months": price.min_term_months or "",
        "region": price.region,
        "region_key": price.region_key,
        "source": price.source,
        "as_of": price.as_of.isoformat() if price.as_of else "",
        "note": price.note,
    }
    if price.estimated:
        data["estimated"] = "on"
    if price.derived:
        data["derived"] = "on"
    data.update(changes)
    return data


# --- versions and what the engine reads --------------------------------------------------------


def test_the_seeded_catalog_is_the_bundled_one(active: Catalog) -> None:
    bundled = engine.load_catalog()
    loaded = live.active_catalog()
    assert loaded.version == "1"
    assert (loaded.accelerators, loaded.prices, loaded.presets) == (
        bundled.accelerators,
        bundled.prices,
        bundled.presets,
    )
    assert dict(loaded.figures) == dict(bundled.figures)


def test_export_then_import_gives_the_same_catalog(active: Catalog) -> None:
    exported = catalog_export(catalog=active)
    imported = catalog_import(json_text=exported, user=None)
    assert (imported.version, imported.status) == (2, "draft")
    assert catalog_diff(old=active, new=imported)["rows"] == []
    again = json.loads(catalog_export(catalog=imported))
    assert again.pop("imported_version") == "1"
    assert again == {**json.loads(exported), "version": "2"}


def test_publish_changes_new_results_and_leaves_old_reports_alone(
    active: Catalog, draft: Catalog
) -> None:
    membership = MembershipFactory()
    assessment = AssessmentFactory(
        organization=membership.organization, title="Priced before", submitted=True, starter=STARTER
    )
    report = ReportFactory(assessment=assessment, queued=True)
    reports.report_generate(report_id=report.pk)
    report.refresh_from_db()
    assert (report.catalog, report.catalog_version) == (active, "1")
    frozen_result, frozen_html = json.loads(json.dumps(report.result)), report.html

    price = _used_price(draft)
    old_hourly = price.usd_per_device_hour
    assert old_hourly is not None
    price.usd_per_device_hour = old_hourly / 2  # cheaper, so still the one chosen
    price.as_of = timezone.localdate()
    price.save()
    catalog_publish(catalog=draft, user=None)

    report.refresh_from_db()
    assert (report.result, report.html, report.catalog_version) == (frozen_result, frozen_html, "1")
    fresh = evaluation.evaluate(assessment.answers, language="en")
    assert fresh["versions"]["catalog"] == "2"
    used = {p["price_id"]: p for p in fresh["cost"]["prices_used"]}
    compute = [r["cost"]["by_workload"][0]["compute_usd_per_month"] for r in (frozen_result, fresh)]
    assert compute[1]["on_demand"] == pytest.approx(compute[0]["on_demand"] / 2, abs=0.01)
    assert used[price.key]["as_of"] == timezone.localdate().isoformat()
    assert used[price.key]["stale"] is False
    active.refresh_from_db()
    assert active.status == "retired"


def test_prices_older_than_180_days_are_flagged_stale_in_results(draft: Catalog) -> None:
    price = _used_price(draft)
    price.as_of = timezone.localdate() - timedelta(days=181)
    price.save()
    catalog_publish(catalog=draft, user=None)
    result = evaluation.evaluate(STARTERS[STARTER].document(), language="en")
    used = {p["price_id"]: p for p in result["cost"]["prices_used"]}
    assert used[price.key]["stale"] is True
    assert result["cost"]["today"] == timezone.localdate().isoformat()


def test_published_catalogs_never_change(active: Catalog, draft: Catalog) -> None:
    with pytest.raises(CatalogLocked):
        catalog_ensure_editable(catalog=active)
    catalog_publish(catalog=draft, user=None)
    with pytest.raises(CatalogLocked):
        catalog_publish(catalog=draft, user=None)
    draft.status = Catalog.Status.DRAFT
    active.status = Catalog.Status.PUBLISHED
    with pytest.raises(IntegrityError), transaction.atomic():
        active.save()


def test_publishing_a_broken_draft_lists_every_problem(draft: Catalog) -> None:
    draft.presets.filter(key="llama-3-8b").delete()
    price = draft.prices.first()
    assert price is not None
    price.as_of = timezone.localdate() + timedelta(days=3)
    price.save()
    with pytest.raises(CatalogInvalid) as error:
        catalog_publish(catalog=draft, user=None)
    text = " ".join(error.value.problems)
    assert "llama-3-8b are missing" in text
    assert f"Price {price.key} is dated" in text and "in the future" in text
    draft.refresh_from_db()
    assert draft.status == "draft"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "The file is not valid JSON"),
        ("[1, 2]", "The file must hold one JSON object: a catalog."),
        ('{"version": "x", "accelerators": [], "prices": [], "figures": {}}', "accelerators"),
    ],
)
def test_bad_imports_are_refused_with_reasons(active: Catalog, text: str, message: str) -> None:
    with pytest.raises(CatalogInvalid) as error:
        catalog_import(json_text=text, user=None)
    assert message in " ".join(error.value.problems)
    assert Catalog.objects.count() == 1


# --- the admin -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "status"),
    [(None, 302), (Role.MEMBER, 302), (Role.SALES_ENGINEER, 302), (Role.ADMIN, 200)],
)
def test_permission_matrix(client: Client, active: Catalog, role: str | None, status: int) -> None:
    if role is not None:
        client.force_login(member_with_role(role))
    price = active.prices.first()
    assert price is not None
    urls = [
        reverse("admin:reference_catalog_changelist"),
        reverse("admin:reference_catalog_change", args=[active.pk]),
        reverse("admin:reference_catalog_import"),
        reverse("admin:reference_catalog_diff", args=[active.pk]),
        reverse("admin:reference_catalog_audit", args=[active.pk]),
        reverse("admin:reference_catalogprice_changelist") + f"?catalog__id__exact={active.pk}",
        reverse("admin:reference_catalogprice_change", args=[price.pk]),
        reverse("admin:reference_catalogaccelerator_changelist"),
        reverse("admin:reference_catalogpreset_changelist"),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == status, url
        if status == 302:
            assert response["Location"].startswith(reverse("admin:login"))


def test_staff_without_the_admin_role_cannot_clone(client: Client, active: Catalog) -> None:
    user = member_with_role(Role.SALES_ENGINEER)
    user.is_staff = True
    user.save()
    client.force_login(user)
    assert client.get(reverse("admin:reference_catalog_changelist")).status_code == 403
    assert (
        client.post(reverse("admin:reference_catalog_clone", args=[active.pk])).status_code == 403
    )
    assert Catalog.objects.count() == 1


def test_a_published_price_opens_read_only_and_refuses_posts(
    editor: Client, active: Catalog
) -> None:
    price = active.prices.first()
    assert price is not None
    url = reverse("admin:reference_catalogprice_change", args=[price.pk])
    assert 'name="_save"' not in editor.get(url).content.decode()
    before = price.usd_per_device_hour
    response = editor.post(url, _price_post(price, usd_per_device_hour="99"))
    assert response.status_code == 403
    price.refresh_from_db()
    assert price.usd_per_device_hour == before


def test_an_admin_edits_a_price_and_the_audit_says_who_and_what(
    editor: Client, draft: Catalog
) -> None:
    price = _used_price(draft)
    url = reverse("admin:reference_catalogprice_change", args=[price.pk])
    today = timezone.localdate().isoformat()
    response = editor.post(url, _price_post(price, usd_per_device_hour="3.21", as_of=today))
    assert response.status_code == 302, response.content.decode()[:3000]
    price.refresh_from_db()
    assert price.usd_per_device_hour == Decimal("3.21")
    audit = editor.get(reverse("admin:reference_catalog_audit", args=[draft.pk])).content.decode()
    assert "usd_per_device_hour" in audit and "3.21" in audit
    admin_email = editor.get(reverse("admin:index")).wsgi_request.user.email  # type: ignore[union-attr]
    assert admin_email in audit


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"usd_per_device_hour": "-1"}, "Ensure this value is greater than or equal to 0."),
        ({"usd_per_device_hour": "5000"}, "Ensure this value is less than or equal to 500."),
        ({"usd_per_device_hour": "cheap"}, "Enter a number."),
        (
            {"usd_per_device_hour": "", "usd_per_device_month": ""},
            "Give a price per device-hour or per device-month (or both).",
        ),
        ({"usd_per_device_hour": "1.5", "as_of": ""}, "Give the date these figures were read"),
        ({"as_of": "2999-01-01"}, "This date is in the future."),
        ({"as_of": "yesterday"}, "Enter a valid date."),
        ({"source": ""}, "This field is required."),
        ({"modes": []}, "Pick at least one deployment mode."),
    ],
)
def test_bad_prices_are_refused_with_clear_messages(
    editor: Client, draft: Catalog, changes: dict[str, Any], message: str
) -> None:
    price = _used_price(draft)
    if "as_of" not in changes:
        changes = {"as_of": timezone.localdate().isoformat(), **changes}
    before = (price.usd_per_device_hour, price.as_of)
    url = reverse("admin:reference_catalogprice_change", args=[price.pk])
    response = editor.post(url, _price_post(price, **changes))
    assert response.status_code == 200
    page = response.content.decode()
    assert message in page.replace("&#x27;", "'")
    # What was typed stays in the form.
    for value in changes.values():
        if isinstance(value, str) and value:
            assert f'value="{value}"' in page or f">{value}<" in page
    price.refresh_from_db()
    assert (price.usd_per_device_hour, price.as_of) == before


def test_a_price_cannot_name_another_catalogs_accelerator(
    editor: Client, active: Catalog, draft: Catalog
) -> None:
    price = _used_price(draft)
    other_draft = catalog_clone(catalog=active, user=None)
    url = reverse("admin:reference_catalogprice_add")
    for foreign, message in (
        (other_draft.accelerators.get(key=price.accelerator.key), "not to catalog v2"),
        (active.accelerators.get(key=price.accelerator.key), "Select a valid choice"),
    ):
        response = editor.post(
            url,
            _price_post(
                price,
                catalog=draft.pk,
                key="p999",
                accelerator=foreign.pk,
                as_of=timezone.localdate().isoformat(),
            ),
        )
        assert response.status_code == 200
        assert message in response.content.decode()
    assert not draft.prices.filter(key="p999").exists()


def test_the_price_list_flags_stale_prices_and_edits_drafts_in_place(
    editor: Client, active: Catalog, draft: Catalog
) -> None:
    listing = reverse("admin:reference_catalogprice_changelist")
    stale = editor.get(f"{listing}?catalog__id__exact={active.pk}&freshness=stale")
    page = stale.content.decode()
    assert "⚠" in page and "stale" in page
    # Published rows are shown, but not as inputs.
    assert "6.880000" in page and 'name="form-0-usd_per_device_hour"' not in page

    rows = list(draft.prices.order_by("-key")[:2])
    data: dict[str, Any] = {
        "form-TOTAL_FORMS": 2,
        "form-INITIAL_FORMS": 2,
        "form-MIN_NUM_FORMS": 0,
        "form-MAX_NUM_FORMS": 1000,
        "_save": "Save",
    }
    today = timezone.localdate().isoformat()
    for i, row in enumerate(rows):
        data.update(
            {
                f"form-{i}-id": row.pk,
                f"form-{i}-usd_per_device_hour": row.usd_per_device_hour or "",
                f"form-{i}-usd_per_device_month": row.usd_per_device_month or "",
                f"form-{i}-as_of": row.as_of.isoformat() if row.as_of else "",
            }
        )
    data["form-0-usd_per_device_hour"] = "7.5"
    data["form-0-usd_per_device_month"] = ""
    data["form-0-as_of"] = today
    response = editor.post(f"{listing}?catalog__id__exact={draft.pk}&o=-1", data)
    assert response.status_code == 302, response.content.decode()[-3000:]
    rows[0].refresh_from_db()
    assert (rows[0].usd_per_device_hour, rows[0].as_of.isoformat()) == (Decimal("7.5"), today)


def test_the_price_list_opens_on_the_draft_being_edited(
    editor: Client, active: Catalog, draft: Catalog
) -> None:
    listing = reverse("admin:reference_catalogprice_changelist")
    response = editor.get(f"{listing}?freshness=undated")
    assert response.status_code == 302
    assert response["Location"] == f"{listing}?freshness=undated&catalog__id__exact={draft.pk}"
    catalog_publish(catalog=draft, user=None)
    assert editor.get(listing)["Location"].endswith(f"?catalog__id__exact={draft.pk}")


def test_catalog_pages_show_counts_problems_and_diff(editor: Client, draft: Catalog) -> None:
    page = editor.get(reverse("admin:reference_catalog_change", args=[draft.pk])).content.decode()
    assert f"{draft.prices.count()} prices" in page and "undated" in page
    assert "This draft passes every check" in page
    price = draft.prices.get(key="p001")
    price.usd_per_device_hour = Decimal("0.4")
    price.save()
    diff = editor.get(reverse("admin:reference_catalog_diff", args=[draft.pk])).content.decode()
    assert "p001" in diff and "usd_per_device_hour" in diff and "0.35" in diff and "0.4" in diff


def test_clone_and_publish_through_the_admin(editor: Client, active: Catalog) -> None:
    response = editor.post(reverse("admin:reference_catalog_clone", args=[active.pk]))
    clone = Catalog.objects.get(version=2)
    assert response["Location"] == reverse("admin:reference_catalog_change", args=[clone.pk])
    confirm = editor.get(reverse("admin:reference_catalog_publish", args=[clone.pk]))
    assert "retires catalog v1" in confirm.content.decode()
    editor.post(reverse("admin:reference_catalog_publish", args=[clone.pk]))
    clone.refresh_from_db()
    assert clone.status == "published"
    assert live.active_catalog().version == "2"


def test_import_page_reports_broken_json(editor: Client, active: Catalog) -> None:
    response = editor.post(reverse("admin:reference_catalog_import"), {"text": '{"version": '})
    page = response.content.decode()
    assert response.status_code == 200
    assert "The catalog was not imported" in page and "not valid JSON" in page
    assert "{&quot;version&quot;: " in page  # what was pasted is still there
    assert Catalog.objects.count() == 1


def test_presets_keep_the_wizards_list(editor: Client, draft: Catalog) -> None:
    preset = draft.presets.get(key="llama-3-8b")
    url = reverse("admin:reference_catalogpreset_change", args=[preset.pk])
    data = {
        f.name: getattr(preset, f.name)
        for f in preset._meta.fields
        if f.name not in {"id", "catalog", "extra", "as_of", "tied_embeddings"}
    }
    data.update(key="my-model", kv_heads=5, as_of=timezone.localdate().isoformat())
    page = editor.post(url, data).content.decode()
    assert "The wizard offers only these presets" in page
    assert "must be a multiple of the KV heads" in page
    preset.refresh_from_db()
    assert preset.key == "llama-3-8b"


def test_the_creator_of_a_clone_is_recorded(active: Catalog) -> None:
    user = UserFactory()
    clone = catalog_clone(catalog=active, user=user)
    assert clone.created_by == user
    record = clone.prices.first().history.first()  # type: ignore[union-attr]
    assert record.history_user == user


# --- the read-only page for sales engineers -----------------------------------------------------


@pytest.mark.parametrize(
    ("role", "status"),
    [(None, 302), (Role.MEMBER, 404), (Role.SALES_ENGINEER, 200), (Role.ADMIN, 200)],
)
def test_who_sees_the_catalog_page(
    client: Client, active: Catalog, role: str | None, status: int
) -> None:
    if role is not None:
        client.force_login(member_with_role(role))
    response = client.get(reverse("advisor:catalog"))
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith(reverse("accounts:login"))


def test_sales_engineers_see_sources_dates_and_stale_flags(client: Client, draft: Catalog) -> None:
    fresh, old = draft.prices.order_by("key")[:2]
    CatalogPrice.objects.filter(pk=fresh.pk).update(as_of=timezone.localdate())
    CatalogPrice.objects.filter(pk=old.pk).update(as_of=timezone.localdate() - timedelta(days=400))
    catalog_publish(catalog=draft, user=None)
    client.force_login(member_with_role(Role.SALES_ENGINEER))
    page = client.get(reverse("advisor:catalog")).content.decode()
    rows = {
        key: page.split(f'id="price-{key}"', 1)[1].split("</tr>", 1)[0]
        for key in (fresh.key, old.key)
    }
    assert "stale" not in rows[fresh.key] and fresh.source[:40] in rows[fresh.key]
    assert "stale" in rows[old.key]
    assert "/admin/" not in page.split("<main", 1)[1]


def test_manage_py_assess_uses_the_published_catalog(
    draft: Catalog, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from advisor.management.commands.assess import Command

    catalog_publish(catalog=draft, user=None)
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(STARTERS[STARTER].document()))
    with pytest.raises(SystemExit) as exit_code:
        Command().run_from_argv(["manage.py", "assess", str(answers)])
    assert exit_code.value.code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["versions"]["catalog"] == "2"
    assert result["cost"]["today"] == timezone.localdate().isoformat()


# --- impact preview of a draft catalog -----------------------------------------------------------


def test_a_catalog_preview_counts_the_flips_a_direct_computation_finds(
    submitted: list[Assessment],  # noqa: F811 - the fixture
    draft: Catalog,
    editor: Client,
) -> None:
    # The L4 at a tenth of its price and with two thirds of its memory: more, cheaper cards. (The
    # L4 is offered where the assessments are; the MI300X, used before, is not.)
    for price in draft.prices.filter(accelerator__key="nvidia-l4"):
        price.usd_per_device_hour = (price.usd_per_device_hour or Decimal(0)) / 10
        price.as_of = timezone.localdate()
        price.save()
    draft.accelerators.filter(key="nvidia-l4").update(memory_gib=16)
    active_catalog = live.active_catalog()
    candidate = engine.load_catalog(draft.to_document())
    scoring = live.active_scoring_model()
    today = timezone.localdate()
    card_flips = accelerator_flips = cheaper = 0
    for assessment in submitted:
        answers = engine.parse_answers(assessment.answers)
        before = engine.evaluate(answers, active_catalog, scoring, today=today)["cost"]
        after = engine.evaluate(answers, candidate, scoring, today=today)["cost"]
        cards = [
            [(w["accelerator_id"], w["count"]) for w in c["by_workload"]] for c in (before, after)
        ]
        card_flips += cards[0] != cards[1]
        cheaper += after["monthly_total_usd"] < before["monthly_total_usd"]
        accelerator_flips += (
            engine.rescore(answers, active_catalog, scoring)["accelerator"]
            != engine.rescore(answers, candidate, scoring)["accelerator"]
        )

    url = reverse("admin:reference_catalog_preview", args=[draft.pk])
    assert editor.post(url).status_code == 302
    page = editor.get(url).content.decode()
    preview = draft.previews.get()
    assert preview.status == "done"
    result = preview.result
    assert result["kind"] == "catalog"
    assert result["flips"]["card"] == card_flips > 0
    assert result["flips"]["accelerator"] == accelerator_flips
    assert result["shift"]["min"] < 0 and cheaper > 0
    assert "catalog v2 against the active catalog v1" in page
    # The assessments are a customer's: counted, not listed, for staff outside it.
    assert 'id="flipped"' not in page and "counted above but not listed" in page
    MembershipFactory(
        user_id=editor.session["_auth_user_id"], organization=submitted[0].organization
    )
    page = editor.get(url).content.decode()
    assert 'id="flipped"' in page and "nvidia-l4" in page
    confirm = editor.get(reverse("admin:reference_catalog_publish", args=[draft.pk]))
    assert "The latest impact preview" in confirm.content.decode()


def test_the_navbar_links_models_and_catalog_for_those_who_may_read_them(
    client: Client, active: Catalog
) -> None:
    for role, shown in ((Role.MEMBER, False), (Role.SALES_ENGINEER, True), (Role.ADMIN, True)):
        client.force_login(member_with_role(role))
        page = client.get(reverse("advisor:dashboard")).content.decode()
        nav = page.split("</nav>", 1)[0]
        assert (reverse("advisor:catalog") in nav) is shown, role
        assert (reverse("advisor:scoring_models") in nav) is shown, role


@pytest.mark.parametrize(
    ("lang", "one", "many"), [("en", "1 price<", "1 prices"), ("zh-hant", "1 筆價格", None)]
)
def test_a_catalog_with_one_price_says_so_in_the_singular(
    editor: Client, draft: Catalog, lang: str, one: str, many: str | None
) -> None:
    keep = draft.prices.order_by("key").first()
    assert keep is not None
    draft.prices.exclude(pk=keep.pk).delete()
    editor.cookies["django_language"] = lang
    page = editor.get(reverse("admin:reference_catalog_change", args=[draft.pk])).content.decode()
    assert one in page
    if many:
        assert many not in page
