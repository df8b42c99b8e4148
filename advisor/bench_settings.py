"""Settings for `make bench` and `make load` only: the production settings, plus
django-formtools (a dev dependency) and the bench urlconf that routes the references
(`advisor.bench_urls`). Chosen with DJANGO_SETTINGS_MODULE=advisor.bench_settings."""

from advisor.settings import *  # noqa: F403
from advisor.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "formtools"]
ROOT_URLCONF = "advisor.bench_urls"
