"""`make load`: people, not a closed loop (Locust, headless; run by .ci/load.sh).

Three kinds of simulated people share the server:

- `Person` signs in, starts a blank assessment, walks every wizard step (the page, 3-10 s of
  thinking, a valid answer, Next), submits on the Review page, polls the report's status
  once a second as the page does until it is done, opens the report and its PDF, and starts
  again.
- `SalesEngineer` signs in, opens one of the organisation's done reports, thinks, creates a
  share link and hands it on (to the visitors below).
- `Visitor` has no account: opens a shared report and, half the time, its PDF.

The number of people rises in steps (`StepLoad`). Every request and every report's
submit-to-done time is written to LOAD_RECORDS (JSON lines) for loadtest/summarize.py.
Configuration comes from the environment (see `env`); the accounts from LOAD_SETUP, the JSON
that `manage.py load_setup` writes.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import time
from typing import Any

from locust import HttpUser, LoadTestShape, between, events, task

# Form posts that fill in a blank assessment, step by step (shared with the wizard tests).
from tests.wizard_posts import POSTS


def env(name: str, default: float) -> float:
    return float(os.environ.get(name) or default)


THINK = (env("LOAD_THINK_MIN", 3), env("LOAD_THINK_MAX", 10))
STEP_USERS = int(env("LOAD_STEP_USERS", 10))
STEPS = int(env("LOAD_STEPS", 6))
STEP_SECONDS = env("LOAD_STEP_SECONDS", 120)
SPAWN_RATE = env("LOAD_SPAWN_RATE", 1)  # people arriving per second when a step begins
REPORT_TIMEOUT = env("LOAD_REPORT_TIMEOUT", 120)
POLL_SECONDS = 1  # advisor.report_views.common.POLL_SECONDS: the report page polls once a second
PDF_POLL_SECONDS = 2  # templates/advisor/report/_pdf_button.html: the PDF button asks every 2 s

# What each simulated person does, by class: the flows the load is made of.
FLOWS = {
    "Person": "sign in, walk the wizard, submit, poll the report until done, open it and its PDF",
    "SalesEngineer": "sign in, open a done report, create a share link and hand it on",
    "Visitor": "open a shared report (anonymous) and sometimes its PDF",
}

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION = re.compile(r'name="version" value="(\d+)"|value="(\d+)"[^>]*name="version"')
SHARE = re.compile(r"/s/([A-Za-z0-9_-]{20,})/")

_setup: dict[str, Any] | None = None
_people = itertools.count()
_sales = itertools.count()
TOKENS: list[str] = []  # share links handed on by sales engineers, opened by visitors
RECORDS: list[dict[str, Any]] = []
_started = [0.0]


def setup() -> dict[str, Any]:
    global _setup
    if _setup is None:
        with open(os.environ["LOAD_SETUP"]) as fh:
            _setup = json.load(fh)
        TOKENS.extend(_setup["tokens"])
    return _setup


@events.test_start.add_listener
def _on_start(**_kwargs: Any) -> None:
    _started[0] = time.time()
    RECORDS.clear()


@events.request.add_listener
def _on_request(
    request_type: str,
    name: str,
    response_time: float,
    exception: BaseException | None = None,
    **_kwargs: Any,
) -> None:
    RECORDS.append(
        {
            "t": round(time.time() - _started[0], 3),
            "type": request_type,
            "name": name,
            "ms": round(response_time, 1),
            "error": None if exception is None else str(exception)[:200],
        }
    )


@events.test_stop.add_listener
def _on_stop(**_kwargs: Any) -> None:
    path = os.environ.get("LOAD_RECORDS")
    if path:
        with open(path, "w") as fh:
            for record in RECORDS:
                fh.write(json.dumps(record) + "\n")


class StepLoad(LoadTestShape):
    """STEP_USERS more people every STEP_SECONDS, STEPS times, then stop."""

    def tick(self) -> tuple[int, float] | None:
        step = int(self.get_run_time() // STEP_SECONDS)
        if step >= STEPS:
            return None
        return STEP_USERS * (step + 1), SPAWN_RATE


class _Browser(HttpUser):
    abstract = True
    wait_time = between(*THINK)
    csrf = ""

    def think(self) -> None:
        time.sleep(random.uniform(*THINK))  # noqa: S311 - not a secret

    def page(self, url: str, name: str, **kwargs: Any) -> str:
        """GET a page as a browser would: one request, a 200 expected."""
        with self.client.get(url, name=name, catch_response=True, **kwargs) as response:
            if response.status_code != 200:
                response.failure(f"{response.status_code} for {url}")
                raise _Stop
            html = response.text
        found = CSRF.search(html)
        if found:
            self.csrf = found.group(1)
        return html

    def submit(self, url: str, name: str, data: dict[str, Any], expect: str = "") -> str:
        """POST a form; a 302 expected (to a URL containing `expect`); returns the Location."""
        data = {**data, "csrfmiddlewaretoken": self.csrf}
        with self.client.post(
            url,
            data=data,
            name=name,
            allow_redirects=False,
            catch_response=True,
            headers={"Referer": self.host + url},
        ) as response:
            location = response.headers.get("Location", "")
            if response.status_code != 302 or expect not in location:
                response.failure(f"{response.status_code} to {location!r} for {url}")
                raise _Stop
            return str(location)

    def sign_in(self, email: str) -> None:
        self.page("/accounts/login/", "sign in (page)")
        self.think()
        self.submit(
            "/accounts/login/",
            "sign in (POST: password hashing)",
            {"username": email, "password": setup()["password"]},
        )
        self.page("/dashboard/", "dashboard")


class _Stop(Exception):
    """A request failed (already counted): this journey ends and the next one begins."""


class Person(_Browser):
    weight = 6
    email = ""

    @task
    def fill_in_an_assessment_and_read_its_report(self) -> None:
        try:
            if not self.email:
                people = setup()["people"]
                email = people[next(_people) % len(people)]
                self.sign_in(email)
                self.email = email
            self._journey()
        except _Stop:
            pass

    def _journey(self) -> None:
        self.page("/assessments/new/", "new assessment (page)")
        self.think()
        created = self.submit(
            "/assessments/new/",
            "new assessment (POST)",
            {"title": f"Load test {random.randrange(10**6)}", "starter": ""},  # noqa: S311
            expect="/assessments/",
        )
        with self.client.get(
            created, name="assessment (redirect)", allow_redirects=False, catch_response=True
        ) as response:
            url = response.headers.get("Location", "")
            if response.status_code != 302 or "/steps/" not in url:
                response.failure(f"{response.status_code} to {url!r}")
                raise _Stop
        while True:
            html = self.page(url, "wizard step")
            slug = url.rstrip("/").rsplit("/", 1)[-1]
            version = _version(html)
            self.think()
            if slug == "review":
                break
            if slug not in POSTS:
                raise _Stop
            url = self.submit(
                url,
                "wizard step (POST, Next)",
                {**POSTS[slug], "version": version, "action": "next"},
                expect="/steps/",
            )
        submit_url = url.replace("/steps/review/", "/submit/")
        began = time.monotonic()
        result = self.submit(submit_url, "submit (POST)", {"version": version}, "/result/")
        with self.client.get(
            result, name="result (redirect)", allow_redirects=False, catch_response=True
        ) as response:
            report = response.headers.get("Location", "")
            if response.status_code != 302 or "/reports/" not in report:
                response.failure(f"{response.status_code} to {report!r}")
                raise _Stop
        self.page(report, "report page")
        while True:
            with self.client.get(
                report + "status/",
                name="report status (poll)",
                headers={"HX-Request": "true"},
                catch_response=True,
            ) as response:
                if response.status_code != 200:
                    response.failure(f"{response.status_code}")
                    raise _Stop
                done = response.headers.get("HX-Refresh") == "true"
            if done:
                break
            if time.monotonic() - began > REPORT_TIMEOUT:
                _report_event(began, TimeoutError(f"not done after {REPORT_TIMEOUT:.0f} s"))
                raise _Stop
            time.sleep(POLL_SECONDS)
        _report_event(began, None)
        html = self.page(report, "report page")
        if "/pdf/" not in html:
            _report_event(began, RuntimeError("the finished report has no PDF (failed?)"))
            raise _Stop
        # People read the report; the PDF button says whether the PDF is ready yet (the
        # worker renders it after the page) and asks again every 2 s, as the page does.
        self.think()
        self.await_pdf(html, report + "pdf/button/", "PDF button (poll)")
        self.page(report + "pdf/", "report PDF")

    def await_pdf(self, html: str, button: str, name: str) -> None:
        deadline = time.monotonic() + REPORT_TIMEOUT
        while "Preparing the PDF" in html and time.monotonic() < deadline:
            time.sleep(PDF_POLL_SECONDS)
            html = self.page(button, name, headers={"HX-Request": "true"})


def _version(html: str) -> str:
    found = VERSION.search(html)
    return (found.group(1) or found.group(2)) if found else ""


def _report_event(began: float, exception: BaseException | None) -> None:
    events.request.fire(
        request_type="REPORT",
        name="submit → done",
        response_time=(time.monotonic() - began) * 1000,
        response_length=0,
        exception=exception,
        context={},
    )


class SalesEngineer(_Browser):
    weight = 1
    email = ""

    @task
    def share_a_report(self) -> None:
        try:
            if not self.email:
                sales = setup()["sales"]
                email = sales[next(_sales) % len(sales)]
                self.sign_in(email)
                self.email = email
            report = random.choice(setup()["reports"])  # noqa: S311
            self.page(report, "report page (sales engineer)")
            self.think()
            self.submit(
                report + "share/",
                "share link (POST)",
                {"label": "load test", "expires_in_days": "30"},
                expect="/reports/",
            )
            found = SHARE.search(self.page(report, "report page (sales engineer)"))
            if found:
                TOKENS.append(found.group(1))
        except _Stop:
            pass


class Visitor(_Browser):
    weight = 3

    @task
    def open_a_shared_report(self) -> None:
        tokens = TOKENS or setup()["tokens"]
        token = random.choice(tokens)  # noqa: S311
        try:
            html = self.page(f"/s/{token}/", "shared report (anonymous)")
            if random.random() < 0.5:  # noqa: S311
                self.think()
                self.await_pdf(html, f"/s/{token}/pdf/button/", "shared PDF button (poll)")
                self.page(f"/s/{token}/pdf/", "shared report PDF (anonymous)")
        except _Stop:
            pass
