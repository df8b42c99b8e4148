from __future__ import annotations

import copy
import io
import json
import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings

from accounts import services as account_services
from accounts.models import Organization, Role, User
from advisor.engine import cli
from advisor.starters import STARTERS

EMAIL = "bench-bad-input@bench.example"


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = (
        "Time the red team's amplification body (190,000 bad regions, ~1 MB) against "
        "a valid document of the same endpoint, through the API, and through `assess`: prints "
        "status, answer size and milliseconds per request. Writes nothing it keeps."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--regions", type=int, default=190_000)
        parser.add_argument("--repeat", type=int, default=5)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["regions"] < 1 or options["repeat"] < 1:
            self.stderr.write("--regions and --repeat must be at least 1")
            raise SystemExit(2)
        valid = copy.deepcopy(STARTERS[0].answers)
        hostile = copy.deepcopy(valid)
        hostile["organization"]["regions"] = ["x"] * options["regions"]
        try:
            # The in-process client calls itself "testserver".
            with override_settings(ALLOWED_HOSTS=["testserver"]), transaction.atomic():
                self._api(valid, hostile, options["repeat"])
                raise _Rollback
        except _Rollback:
            pass
        self._cli(valid, hostile, options["repeat"])

    def _api(self, valid: dict[str, Any], hostile: dict[str, Any], repeat: int) -> None:
        user = User.objects.create_user(email=EMAIL, password=None)
        organization = Organization.objects.create(name="Bench bad input", slug="bench-bad-in")
        account_services.membership_create(user=user, organization=organization, role=Role.MEMBER)
        _, key = account_services.api_token_create(user=user, name="bench")
        client = Client(HTTP_AUTHORIZATION=f"Bearer {key}")
        for name, answers in [("valid document", valid), ("190k bad regions", hostile)]:
            body = json.dumps({"title": "Bench", "answers": answers})
            times, status, size = [], 0, 0
            for _ in range(repeat):
                start = time.perf_counter()
                response = client.post("/api/v1/assessments", body, content_type="application/json")
                times.append((time.perf_counter() - start) * 1000)
                status, size = response.status_code, len(response.content)
            self.stdout.write(
                f"API POST {name:18} body {len(body):>9,} B -> {status} "
                f"{size:>7,} B  median {statistics.median(times):7.1f} ms"
            )

    def _cli(self, valid: dict[str, Any], hostile: dict[str, Any], repeat: int) -> None:
        for name, answers in [("valid document", valid), ("190k bad regions", hostile)]:
            text = json.dumps(answers)
            times, code, lines = [], 0, 0
            for _ in range(repeat):
                out, err = io.StringIO(), io.StringIO()
                start = time.perf_counter()
                code = cli.main(["-"], io.StringIO(text), out, err)
                times.append((time.perf_counter() - start) * 1000)
                lines = len(err.getvalue().splitlines())
            self.stdout.write(
                f"assess   {name:18} input {len(text):>9,} B -> exit {code}, "
                f"{lines} problem lines  median {statistics.median(times):7.1f} ms"
            )
