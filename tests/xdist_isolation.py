"""Gives each pytest-xdist worker its own Redis database and media folder.

`make test` runs the suite in two processes (`-n 2`). pytest-django already gives each worker its
own test database (`test_advisor_gw0`, `test_advisor_gw1`), but two more things are shared:

- Redis: the cache's `clear()` between tests is a FLUSHDB, and the Celery broker's queues live in
  the same database index, so one worker's tests would empty the other's cache and take its
  tasks. Worker N uses index base + 1 + N of REDIS_URL (Redis has 16).
- Media files: a report's PDF is named by its assessment's id, and ids repeat across the two
  test databases. Worker N writes under `VAR_DIR/media-gwN`.

Both are read once, when pytest-django imports the settings, which happens before any conftest
is loaded; so this module is a plugin loaded with `-p tests.xdist_isolation`, from the
repository root (`python -m pytest` puts it on the path). The real Celery workers the tests start
inherit the rewritten environment. Without `-n` it changes nothing.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16


def _worker_index() -> int | None:
    name = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1", ...
    return int(name.removeprefix("gw")) if name.startswith("gw") else None


def _redis_url_for(url: str, worker: int) -> str:
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    index = base + 1 + worker
    if index >= REDIS_DATABASES:
        raise RuntimeError(
            f"REDIS_URL uses database {base}; xdist worker {worker} would need database {index}, "
            f"beyond Redis's {REDIS_DATABASES}: use fewer workers or a lower base index"
        )
    return urlunsplit(parts._replace(path=f"/{index}"))


def isolate(environ: os._Environ[str] | dict[str, str], worker: int) -> None:
    """Rewrite `environ` so worker number `worker` shares no Redis database or media folder."""
    if environ.get("REDIS_URL"):
        environ["REDIS_URL"] = _redis_url_for(environ["REDIS_URL"], worker)
    var_dir = Path(environ.get("VAR_DIR") or Path(__file__).resolve().parent.parent / "var")
    environ["MEDIA_ROOT"] = str(var_dir / f"media-gw{worker}")
    environ["ADVISOR_XDIST_ISOLATED"] = "1"


_worker = _worker_index()
if _worker is not None:
    isolate(os.environ, _worker)
