"""The report's PDF: WeasyPrint with the report's stylesheet and the system fonts, kept per
worker thread, and a fetcher that never reaches the network."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any
from urllib import request
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse, URLFetchingError

STYLESHEET = "advisor/report.css"


# WeasyPrint resolves the page's relative and root-relative URLs against this made-up origin;
# the fetcher below answers only for it (static files) and for data: URIs.
PDF_BASE_URL = "https://report.invalid/"


def stylesheet_href() -> str:
    try:
        return str(staticfiles_storage.url(STYLESHEET))
    except ValueError:
        # No manifest entry yet (collectstatic not run): the unhashed name, which finders and
        # WhiteNoise both serve.
        return f"/{settings.STATIC_URL.strip('/')}/{STYLESHEET}"


class _ReportFetcher(URLFetcher):  # type: ignore[misc]
    """Serves the report's own stylesheet from the static files and data: URIs (the charts);
    refuses everything else, so a rendered report never reaches the network."""

    def __init__(self) -> None:
        # URLFetcher's own set-up builds an SSL context (about 40 ms) that is never used here.
        request.OpenerDirector.__init__(self)

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
        if url.startswith("data:"):
            # Only data: URLs reach this handler; it decodes in memory and never opens anything.
            response = request.DataHandler().data_open(request.Request(url))  # noqa: S310
            return URLFetcherResponse(url, response.read(), dict(response.headers.items()))
        parts = urlsplit(url)
        static_prefix = "/" + settings.STATIC_URL.strip("/") + "/"
        if url.startswith(PDF_BASE_URL.rstrip("/")) and parts.path.startswith(static_prefix):
            path = _static_path(parts.path.removeprefix(static_prefix))
            if path is not None:
                return URLFetcherResponse(
                    url, path.read_bytes(), {"Content-Type": "text/css; charset=utf-8"}
                )
        raise URLFetchingError(f"the report may not load {url}")


_HASHED = re.compile(r"\.[0-9a-f]{12}(\.\w+)$")


def _static_path(name: str) -> Path | None:
    # Prefer the source file (a hashed manifest name maps back to it), so the PDF always uses
    # the stylesheet in the code, not an older collected copy.
    found = finders.find(_HASHED.sub(r"\1", name))
    if isinstance(found, str):
        return Path(found)
    try:
        # A hashed name from the manifest storage lives only in STATIC_ROOT.
        path = Path(staticfiles_storage.path(name))
    except NotImplementedError:
        return None
    return path if path.is_file() else None


# Parsing report.css takes WeasyPrint about 60 ms and a fresh font configuration loads the
# system fonts again, so a worker keeps both: the stylesheet until the file changes, the font
# configuration for the life of the thread (the report declares no @font-face, so nothing
# document-specific is ever added to it).
_pdf_cache = threading.local()


def _font_config() -> FontConfiguration:
    config = getattr(_pdf_cache, "font_config", None)
    if config is None:
        config = _pdf_cache.font_config = FontConfiguration()
    return config


def _stylesheet() -> CSS | None:
    path = _static_path(STYLESHEET)
    if path is None:
        return None
    key = (path, path.stat().st_mtime_ns)
    cached = getattr(_pdf_cache, "stylesheet", None)
    if cached is None or cached[0] != key:
        css = CSS(
            string=path.read_text(encoding="utf-8"),
            base_url=PDF_BASE_URL,
            url_fetcher=_ReportFetcher(),
            font_config=_font_config(),
        )
        cached = _pdf_cache.stylesheet = (key, css)
    return cached[1]


def render_report_pdf(html: str) -> bytes:
    """A4 PDF of a standalone report document (fonts from the system, CSS from static files)."""
    stylesheets = []
    link = f'<link rel="stylesheet" href="{stylesheet_href()}">'
    css = _stylesheet() if link in html else None
    if css is not None:
        # The document links report.css; hand WeasyPrint the parsed copy instead. It applies
        # as a user stylesheet, which differs from an author one only against other author
        # styles, and the report has none (no inline styles, no other stylesheet).
        html = html.replace(link, "", 1)
        stylesheets.append(css)
    document = HTML(string=html, base_url=PDF_BASE_URL, url_fetcher=_ReportFetcher())
    return bytes(document.write_pdf(stylesheets=stylesheets, font_config=_font_config()))
