"""A zh-Hant page names a provider's region with its code kept and its place in
Chinese ("ap-southeast-1（新加坡）"), and the catalog's notes on where a card is offered read in
Chinese; every region and note the bundled data writes has its Chinese form, so a new one
cannot slip in untranslated."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.utils.translation import override

from advisor.demo_offers import HOUSE_OFFERS
from advisor.engine.text import i18n
from advisor.engine.text.messages import REGION_PLACES
from advisor.labels import price_page
from advisor.reporting.options import where_sold
from tests.reports.test_zh_report_language import body_for, result_for

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "advisor/engine/data/catalog.json").read_text())
OFFERS = json.loads((ROOT / "tests/fixtures/offers/offers_hk_tokyo_la.json").read_text())
CJK = re.compile(r"[\u4e00-\u9fff]")
# A provider's own region or zone code ("us-east-1", "us-central1 / us-east1", "europe-west4-a/b").
CODE = re.compile(r"-|[a-z0-9]+(?:[-/][a-z0-9]+)*(?: / [a-z0-9]+(?:[-/][a-z0-9]+)*)*")
# Names a Chinese text writes as they are: companies, products, a building.
NAMES = ("HIGHRESO", "Sakura", "Lambda", "Shadeform", "One Wilshire", "Google Cloud", "RunPod")


def _regions() -> set[str]:
    found = {p["region"] for p in CATALOG["prices"] if p.get("region")}
    for row in CATALOG["availability"]["regions"].values():
        for entry in [*row.get("by_provider", ()), *row.get("not_offered", ())]:
            found.add(entry["region"])
    found |= {row["region"] for row in OFFERS}
    found |= {offer["region"] for offer in HOUSE_OFFERS}
    return found


def _notes() -> set[str]:
    found = {r["note"] for r in CATALOG["regions"].values() if r.get("note")}
    for row in CATALOG["availability"]["regions"].values():
        found |= {row["note"]} if row.get("note") else set()
        found |= {e["note"] for e in row.get("not_offered", ()) if e.get("note")}
    return found


def _english_words(text: str) -> list[str]:
    for name in NAMES:
        text = text.replace(name, " ")
    # Codes carry a digit or a hyphen (is1a, AP-JP-1, tokyo-japan-5) or are capitals (JP, EU).
    text = re.sub(r"[\w.]*[\d-][\w.-]*|\b[A-Z]{2,}\b", " ", text)
    return re.findall(r"[A-Za-z]{3,}", text)


@pytest.mark.parametrize("region", sorted(_regions()))
def test_every_region_the_bundled_data_writes_has_a_chinese_form(region: str) -> None:
    zh = i18n.region_text(region, "zh-hant")
    assert i18n.region_text(region, "en") == region
    if zh == region:
        # Codes only: "us-east-1", "asia-northeast-1 (tokyo-japan-1)".
        assert CODE.fullmatch(region) or not _english_words(region), region
    else:
        assert CJK.search(zh) and not _english_words(zh), (region, zh)
        assert "(" not in zh, zh  # Chinese brackets in full width


def test_every_catalog_note_on_where_a_card_is_offered_has_a_chinese_form() -> None:
    notes = _notes()
    assert len(notes) >= 10
    untranslated = [n for n in notes if not CJK.search(i18n.catalog_text(n, "zh-hant"))]
    assert untranslated == []
    marketplaces = {p["provider"] for p in CATALOG["prices"] if "marketplace" in p["provider"]}
    assert marketplaces and all(
        "marketplace" not in i18n.catalog_text(p, "zh-hant") for p in marketplaces
    )


def test_a_region_an_operator_types_shows_as_entered() -> None:
    assert i18n.region_text("Kowloon Bay rack 7", "zh-hant") == "Kowloon Bay rack 7"
    assert i18n.region_text("Mars (Olympus Mons)", "zh-hant") == "Mars (Olympus Mons)"
    assert "Singapore" in REGION_PLACES


def test_where_an_offer_is_sold_keeps_the_code_and_names_the_place_in_the_pages_language() -> None:
    price = {"provider": "AWS", "region": "ap-southeast-1 (Singapore)"}
    with override("zh-hant"):
        assert where_sold(price) == "AWS · ap-southeast-1（新加坡）"
        assert where_sold({"provider": "Google Cloud", "region": "us-central1 (Iowa (US))"}) == (
            "Google Cloud · us-central1（美國愛荷華州）"
        )
    with override("en"):
        assert where_sold(price) == "AWS · ap-southeast-1 (Singapore)"
        assert price_page("Vast.ai (marketplace)") == "Vast.ai (marketplace) price list"
    with override("zh-hant"):
        assert price_page("Vast.ai (marketplace)").startswith("Vast.ai（市集）")


@pytest.mark.django_db
def test_a_chinese_report_names_every_region_it_shows_in_chinese() -> None:
    body = body_for("llm-fine-tuning-startup")
    shown = {p["region"] for p in result_for("llm-fine-tuning-startup")["cost"]["prices_used"]} - {
        None,
        "",
    }
    assert "ap-southeast-1（新加坡）" in body
    english = [r for r in shown if not CODE.fullmatch(r) and r in body]
    assert english == []
