from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

# Playwright drives its browser from an event loop while tests also use the ORM.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # PBKDF2's deliberate slowness protects real passwords; tests only need a correct hash.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _throttle_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Throttle windows are fixed buckets of the clock (accounts/throttle.py). A test that makes
    N requests must not straddle a bucket's end, where its count starts again and the test
    fails one run in several; for throttles the clock stands still in tests."""
    from accounts import throttle

    monkeypatch.setattr(throttle, "time", SimpleNamespace(time=lambda: 1_800_000_030.0))


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the default language. A test that renders in Chinese leaves its
    thread's language active, and which test runs next on the same thread depends on how the
    parallel run shares the tests out."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    # Playwright cannot download its own browser here; use the system's Chromium.
    executable = os.environ.get("CHROMIUM_PATH") or "/usr/bin/chromium"
    return {
        **browser_type_launch_args,
        "executable_path": executable,
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    path = Path(os.environ.get("VAR_DIR", ROOT / "var")) / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A real Celery worker process; returns once it logged `ready.`.

    The deadline is for a worker that never comes up, not a speed check: a fresh worker imports
    Django and warms the catalog up before it says `ready.`, which took over 30 s on a 2-core box
    busy with other test processes (the restart test failed there). The wait ends at `ready.`."""
    with log.open("wb") as handle:  # the child keeps its own descriptor
        proc = _spawn_worker(env, handle)
    deadline = time.monotonic() + float(os.environ.get("WORKER_START_TIMEOUT", "180"))
    while time.monotonic() < deadline:
        if b"ready." in log.read_bytes():
            return proc
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    stop_worker(proc)
    raise RuntimeError(f"Celery worker did not start:\n{log.read_text()[-3000:]}")


def _spawn_worker(env: dict[str, str], handle: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "advisor",
            "worker",
            "--pool=solo",
            "--queues=celery,pdf",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-l",
            "info",
        ],
        cwd=ROOT,
        env=env,
        stdout=handle,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop_worker(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.fixture
def worker_env(transactional_db: None) -> dict[str, str]:
    """The environment for a worker process that uses this test run's database and Redis."""
    from django.db import connection

    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs REDIS_URL (make test starts Redis)")
    env = dict(os.environ)
    # An email a test leaves on the queue (advisor.services.mail) never reaches a mail server.
    env["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
    url = env.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        env["DATABASE_URL"] = url.rsplit("/", 1)[0] + "/" + str(connection.settings_dict["NAME"])
    return env


@pytest.fixture
def worker(worker_env: dict[str, str], tmp_path: Path) -> Iterator[Any]:
    """Starts real Celery workers on demand (each test its own, so none steals another's
    tasks); all are stopped at the end of the test."""
    started: list[subprocess.Popen[bytes]] = []

    def start() -> subprocess.Popen[bytes]:
        proc = start_worker(worker_env, tmp_path / f"worker-{len(started)}.log")
        started.append(proc)
        return proc

    yield start
    for proc in started:
        stop_worker(proc)


@pytest.fixture
def sent_mail() -> Callable[[], list[Any]]:
    """The email a request leaves to a worker (advisor.services.mail), taken from the real
    broker and sent by the real task in this process, as a worker would: sent_mail() runs what
    is queued so far and returns Django's test outbox. (Celery's in-process worker closes the
    test's database connection; this task needs none.)"""
    from django.core import mail

    from advisor.celery import app

    app.control.purge()  # what earlier tests left on the queue, with no worker to take it

    def sent() -> list[Any]:
        with app.connection_for_read() as connection:
            queue = connection.SimpleQueue(app.conf.task_default_queue)
            try:
                while True:
                    try:
                        message = queue.get(block=False)
                    except queue.Empty:
                        break
                    name = message.headers["task"]
                    assert name == "advisor.send_email", f"a {name} task was queued too"
                    args, kwargs, _embed = message.decode()
                    app.tasks[name](*args, **kwargs)
                    message.ack()
            finally:
                queue.close()
        return mail.outbox

    return sent


@pytest.fixture
def page(page: Any) -> Any:
    # Fail in seconds, not the default 30, when an element never appears.
    page.set_default_timeout(10_000)
    return page


@pytest.fixture(scope="session")
def live_server(request: pytest.FixtureRequest) -> Iterator[Any]:
    """pytest-django's live server, serving static files the production way.

    Its default StaticFilesHandler answers /static/ from the finders and so 404s the hashed
    names that the manifest storage produces; passing requests straight to the WSGI app lets
    WhiteNoise serve the collected files exactly as in production.
    """
    from pytest_django.live_server_helper import LiveServer

    server = LiveServer("localhost", start=False)
    server.thread.static_handler = lambda handler: handler
    server.start()
    yield server
    server.stop()


def pytest_configure(config: pytest.Config) -> None:
    # Parallel workers need their own Redis database and media folder, which only the early
    # plugin can arrange (tests/xdist_isolation.py says why).
    if os.environ.get("PYTEST_XDIST_WORKER") and not os.environ.get("ADVISOR_XDIST_ISOLATED"):
        raise pytest.UsageError(
            "parallel runs need the isolation plugin: "
            "python -m pytest -p tests.xdist_isolation -n 2 (make test does this)"
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Refuse a test outside the browser suite that picked up pytest-playwright's browser
    parameter (e.g. through an argument named `page`): pytest then regroups it with the browser
    tests, after the transactional ones that flush the migrations' seed data, and it fails or
    passes depending on the order."""
    strays = [
        item.nodeid
        for item in items
        if "browser_name" in getattr(getattr(item, "callspec", None), "params", {})
        and item.get_closest_marker("e2e") is None
    ]
    if strays:
        raise pytest.UsageError(
            "tests outside tests/e2e take a Playwright fixture (rename the argument): "
            + ", ".join(strays[:5])
        )
