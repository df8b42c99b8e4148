"""Addresses the reference app answers besides its pages in advisor/urls.py.

The admin's pages for scoring models and catalogs lived under /admin/advisor/ until the
models moved to this app; bookmarks and links in old mail still lead to the same page.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.urls import URLPattern, re_path, reverse

MOVED = (
    "scoringmodel",
    "criterion",
    "impactpreview",
    "pricerefresh",
    "catalog",
    "catalogaccelerator",
    "catalogprice",
    "catalogpreset",
)


def moved_admin_page(request: HttpRequest, page: str) -> HttpResponsePermanentRedirect:
    url = reverse("admin:app_list", kwargs={"app_label": "reference"}) + page
    query = request.META.get("QUERY_STRING", "")
    return HttpResponsePermanentRedirect(f"{url}?{query}" if query else url)


# Included at admin/advisor/, ahead of the admin's own addresses.
moved_admin_urls: list[URLPattern] = [
    re_path(rf"^(?P<page>(?:{'|'.join(MOVED)})/.*)$", moved_admin_page),
]
