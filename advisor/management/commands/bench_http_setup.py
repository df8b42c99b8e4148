from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import partial
from importlib import import_module
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.management.base import BaseCommand, CommandError
from django.middleware.csrf import _get_new_csrf_string
from django.test import Client
from django.urls import NoReverseMatch, reverse

from accounts import services as account_services
from accounts.models import Organization, Role, User
from advisor.engine.answers.problems import validate
from advisor.management.timing import counting, timed
from advisor.management.waiting import wait_for_report_and_pdf
from advisor.models import Assessment
from advisor.services import reports, sharing
from advisor.starters import STARTERS
from advisor.wizard.steps import progress

EMAIL = "bench-http@bench.example"
ORG = "Benchmark HTTP"
STEP = "organization"
# A valid answer to the measured step (the same as tests/advisor/test_wizard.py's POSTS).
STEP_POST = {"industry": "research", "regions": ["hong_kong", "singapore"], "action": "next"}
# A save that gives the answers a value no earlier run has seen (the budget), for the
# "first view after a save" timing: nothing computed from those answers can be kept yet.
COST_POST = {"billing": "pay_as_you_go", "hours_per_day": "8", "ops_capacity": "part_time"}


class Command(BaseCommand):
    help = (
        "Prepare `make bench`'s HTTP load: a member with a logged-in session and a CSRF "
        "token, one draft assessment per load connection, a done report with a share link; "
        "count the SQL queries of each measured page; write it all as JSON."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--connections", type=int, default=16)
        parser.add_argument("--out", required=True, help="JSON file to write.")
        parser.add_argument("--timeout", type=float, default=60, help="Seconds for the report.")
        parser.add_argument(
            "--timing-requests",
            type=int,
            default=150,
            help="Requests per page for the in-process timing (0: none).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(email=EMAIL).first() or User.objects.create_user(
            email=EMAIL, password=None, full_name="Bench HTTP"
        )
        organization = Organization.objects.filter(name=ORG).first()
        if organization is None:
            organization = account_services.organization_create(name=ORG)
        account_services.membership_create(user=user, organization=organization, role=Role.MEMBER)
        # Repeatable: each run starts from the same data (reports and links go with them).
        Assessment.objects.filter(organization=organization).delete()

        starter = STARTERS[0]

        def draft(title: str) -> Assessment:
            answers = starter.document()
            done, total = progress(answers, validate(answers))
            return Assessment.objects.create(
                organization=organization,
                created_by=user,
                title=title,
                answers=answers,
                completed_steps=done,
                total_steps=total,
            )

        # The dashboard lists the organisation's assessments: give it a realistic page.
        load = [draft(f"load {i}") for i in range(options["connections"])]
        probe = draft("query count probe")

        submitted = Assessment.objects.create(
            organization=organization,
            created_by=user,
            title="shared report",
            status=Assessment.Status.SUBMITTED,
            answers=starter.document(),
        )
        report = reports.report_request(
            assessment=submitted, user=user, language="en", throttle=False
        )
        deadline = time.monotonic() + options["timeout"]
        # Done, and its PDF stored: the worker renders the PDF after the page, and the timing
        # below must not share the cores with that.
        wait_for_report_and_pdf(report, deadline=deadline, poll=0.05)
        _link, token = sharing.share_link_create(report=report, user=user, label="bench")

        store = _signed_in(user)
        csrf = _get_new_csrf_string()

        def step_url(obj: Assessment) -> str:
            return reverse("advisor:step", kwargs={"pk": obj.pk, "slug": STEP})

        urls = {
            "baseline": reverse("bench_baseline"),
            "step_get": step_url(load[0]),
            "dashboard": reverse("advisor:dashboard"),
            "shared": reverse("advisor:shared", kwargs={"token": token}),
        }

        # The references of the bench urlconf (advisor.bench_settings): the formtools peer
        # and the authenticated one-row page. The peer writes its state into the session on
        # every request, so each load connection gets a session of its own, as each person
        # has; its timing client has one of its own too.
        peer: dict[str, Any] = {}
        try:
            urls["authenticated"] = reverse("bench_authenticated")
        except NoReverseMatch:
            pass
        else:
            from advisor import bench_peer

            urls["peer_get"] = bench_peer.step_url("organization")
            peer_data = bench_peer.organization_post("research", ["hong_kong", "singapore"])
            sessions = [_signed_in(user) for _ in range(options["connections"])]
            peer = {
                "cookies": "|".join(
                    f"{settings.SESSION_COOKIE_NAME}={s.session_key}; "
                    f"{settings.CSRF_COOKIE_NAME}={csrf}"
                    for s in sessions
                ),
                "path": urls["peer_get"],
                "body": urlencode(peer_data, doseq=True),
            }

        # SQL queries per page, through the same middleware, with the same cookies. The
        # first request of a process compiles the published catalog and scoring model and
        # fills the kept fragments; the counts are those of the requests after it.
        client = Client(SERVER_NAME="127.0.0.1", enforce_csrf_checks=True)
        client.cookies[settings.SESSION_COOKIE_NAME] = store.session_key
        client.cookies[settings.CSRF_COOKIE_NAME] = csrf
        anonymous = Client(SERVER_NAME="127.0.0.1")
        peer_client = Client(SERVER_NAME="127.0.0.1", enforce_csrf_checks=True)
        peer_client.cookies[settings.SESSION_COOKIE_NAME] = _signed_in(user).session_key
        peer_client.cookies[settings.CSRF_COOKIE_NAME] = csrf
        # A share link's visitor has no account: the load sends it no cookies either.
        clients = {"shared": anonymous, "peer_get": peer_client}
        pages: dict[str, Callable[[], Any]] = {
            name: partial(clients.get(name, client).get, url) for name, url in urls.items()
        }

        # Forms are sent as browsers send them (urlencoded), the peer's too. Nobody else saves
        # the probe, so its version is counted here rather than read back from the database
        # (that query would be the benchmark's, not the page's).
        versions = {probe.pk: probe.version}

        def post(obj: Assessment, slug: str, data: dict[str, Any]) -> Any:
            response = client.post(
                reverse("advisor:step", kwargs={"pk": obj.pk, "slug": slug}),
                urlencode({**data, "version": versions[obj.pk]}, doseq=True),
                content_type="application/x-www-form-urlencoded",
                headers={"X-CSRFToken": csrf},
            )
            response.assessment_pk = obj.pk  # type: ignore[attr-defined]
            return response

        def saved(response: Any) -> Any:
            # A valid POST moves on to the next step; an invalid one redirects back to itself.
            if response.status_code != 302 or response["Location"] == response.request["PATH_INFO"]:
                raise CommandError(f"a step POST is not accepted: {response.status_code}")
            versions[response.assessment_pk] += 1
            return response

        queries: dict[str, int] = {}
        for name, request in pages.items():
            request()
            with counting() as counted:
                response = request()
            if response.status_code != 200:
                raise CommandError(f"{name}: GET {urls[name]} answered {response.status_code}")
            queries[name] = len(counted)
        with counting() as counted:
            saved(post(probe, STEP, STEP_POST))
        queries["step_post"] = len(counted)

        def peer_post() -> Any:
            response = peer_client.post(
                peer["path"],
                urlencode(peer_data, doseq=True),
                content_type="application/x-www-form-urlencoded",
                headers={"X-CSRFToken": csrf},
            )
            if response.status_code != 302:
                raise CommandError(f"the peer's step POST answered {response.status_code}")
            return response

        if peer:
            peer_post()
            with counting() as counted:
                peer_post()
            queries["peer_post"] = len(counted)

        # Milliseconds per request served one at a time in this process (no load): the cost
        # of a page in Django itself, steadier than the load figures on a shared machine.
        timing: dict[str, dict[str, float]] = {}
        n = options["timing_requests"]
        if n:
            for name, request in pages.items():
                timing[name] = _time(request, n)
            timing["step_post"] = _time(lambda: saved(post(probe, STEP, STEP_POST)), n)
            if peer:
                timing["peer_post"] = _time(peer_post, n)
            budget = iter(range(int(time.time() * 1000) % 10**9, 10**10))

            def save_cost() -> None:
                saved(post(probe, "cost", {**COST_POST, "monthly_budget_usd": next(budget)}))

            after_save = reverse("advisor:step", kwargs={"pk": probe.pk, "slug": "cost"})
            timing["step_get_after_save"] = _time(
                lambda: client.get(after_save), n, before=save_cost
            )
            save_cost()
            with counting() as counted:
                client.get(after_save)
            queries["step_get_after_save"] = len(counted)

        data = {
            "session_cookie": f"{settings.SESSION_COOKIE_NAME}={store.session_key}",
            "csrf_cookie": f"{settings.CSRF_COOKIE_NAME}={csrf}",
            "csrf_token": csrf,
            "urls": urls,
            "post": {
                "paths": [step_url(a) for a in load],
                "versions": [a.version for a in load],
                "body": "industry=research&regions=hong_kong&regions=singapore&action=next",
            },
            "peer": peer,
            "queries": queries,
            "timing": timing,
        }
        with open(options["out"], "w") as fh:
            json.dump(data, fh, indent=2)
        self.stdout.write(json.dumps(queries))
        for name, t in timing.items():
            self.stdout.write(
                f"in-process {name}: {t['ms']:.2f} ms per request "
                f"({t['cpu_ms']:.2f} ms CPU), {queries.get(name, '?')} queries"
            )


def _signed_in(user: User) -> Any:
    """A new logged-in session, as django.contrib.auth.login() would store it."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "accounts.backends.EmailBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store


def _time(
    request: Callable[[], Any], n: int, *, before: Callable[[], Any] | None = None
) -> dict[str, float]:
    """Median wall and CPU milliseconds of `request` over n calls (`before` runs untimed),
    after one untimed call."""
    request()
    return timed(request, n, before=before)
