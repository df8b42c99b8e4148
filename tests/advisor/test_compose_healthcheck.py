"""docker-compose.yml's web healthcheck passes with .env.example's settings."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db


def _example_env() -> dict[str, str]:
    pairs = (
        line.split("=", 1)
        for line in (ROOT / ".env.example").read_text().splitlines()
        if "=" in line and not line.lstrip().startswith("#")
    )
    return {key.strip(): value.strip() for key, value in pairs}


def _web_healthcheck() -> tuple[str, dict[str, str]]:
    """The URL the web service's healthcheck opens and the headers it sends."""
    compose = (ROOT / "docker-compose.yml").read_text()
    web = compose.split("\n  web:\n", 1)[1].split("\n  worker:\n", 1)[0]
    test = re.search(r"^\s+test: (.+)$", web, re.MULTILINE)
    assert test, web
    url = re.search(r"https?://[^'\"\s]+", test.group(1))
    assert url, test.group(1)
    headers = dict(re.findall(r"['\"]([A-Za-z-]+)['\"]\s*:\s*['\"]([^'\"]+)['\"]", test.group(1)))
    return url.group(0), headers


def test_the_compose_web_healthcheck_passes_with_the_example_settings(settings: Any) -> None:
    env = _example_env()
    settings.ALLOWED_HOSTS = [h.strip() for h in env["ALLOWED_HOSTS"].split(",") if h.strip()]
    settings.SECURE_SSL_REDIRECT = env["SECURE_SSL_REDIRECT"] == "true"
    url, headers = _web_healthcheck()
    parts = urlsplit(url)
    extra = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()}
    extra.setdefault("HTTP_HOST", parts.netloc)
    client = Client()
    response = client.get(parts.path, secure=parts.scheme == "https", **extra)
    assert response.status_code == 200, response.content[:300]
    assert response.json()["status"] == "ok"
    # Every other page still refuses a Host outside ALLOWED_HOSTS.
    assert Client().get("/", HTTP_HOST=parts.netloc).status_code == 400
    assert Client().get("/healthz/", HTTP_HOST=parts.netloc).status_code == 400
