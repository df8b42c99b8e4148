"""What every public price source shares: the rows a refresh works on (`PriceTarget`), what a
source returns (`PriceUpdate`, `SourceResult`), the `PriceSource` protocol a provider module
implements, the transports (live, recorded, recording) and the checks every price passes.

No ORM here: the service (services.price_refresh) hands in the published catalog's price rows as
`PriceTarget`s and writes what comes back into a draft. Each source reads only what its public
document says; a document that is malformed, partial or implausible yields problems and no
updates, so a refresh never writes half a source.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Protocol

from django.utils.translation import gettext

MAX_USD_PER_DEVICE_HOUR = Decimal(500)
# A list price that moves more than this factor from the catalog's figure is more likely a
# wrong SKU or unit than a price change: refused, for a person to look at.
MAX_CHANGE_FACTOR = Decimal(5)
HOURS_PER_YEAR = Decimal(8760)
MAX_DOCUMENT_BYTES = 64_000_000
MAX_PAGES = 200
PLACES = Decimal("0.000001")


def say(message: str, **values: Any) -> str:
    """A problem in the active language (the one the refresh runs in)."""
    return gettext(message) % values if values else gettext(message)


class SourceUnavailable(Exception):
    """The provider did not answer usably: an HTTP error, a timeout, a broken connection."""


class Transport(Protocol):
    def get(self, url: str) -> bytes: ...

    def lines(self, url: str) -> Iterator[str]: ...


def redact(url: str) -> str:
    """The URL without its API key: what logs, messages and recordings may hold."""
    parts = urllib.parse.urlsplit(url)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k != "key"]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


class UrllibTransport:
    """The live transport: plain HTTPS GETs with a timeout and a size limit."""

    def __init__(self, *, timeout: float) -> None:
        self.timeout = timeout

    def _open(self, url: str) -> Any:
        if not url.startswith("https://"):
            raise SourceUnavailable(say("%(url)s: only https URLs are fetched", url=redact(url)))
        request = urllib.request.Request(url, headers={"User-Agent": "advisor-price-refresh"})  # noqa: S310 - https only, checked above
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)  # noqa: S310
        except urllib.error.HTTPError as error:
            raise SourceUnavailable(
                say("%(url)s: HTTP %(code)s", url=redact(url), code=error.code)
            ) from error
        except TimeoutError as error:
            raise SourceUnavailable(
                say(
                    "%(url)s: no answer in %(seconds)s s",
                    url=redact(url),
                    seconds=f"{self.timeout:g}",
                )
            ) from error
        except (urllib.error.URLError, OSError) as error:
            raise SourceUnavailable(f"{redact(url)}: {error}") from error

    def get(self, url: str) -> bytes:
        with self._open(url) as response:
            try:
                body: bytes = response.read(MAX_DOCUMENT_BYTES + 1)
            except (TimeoutError, OSError) as error:
                raise SourceUnavailable(
                    say("%(url)s: the answer broke off", url=redact(url))
                ) from error
        if len(body) > MAX_DOCUMENT_BYTES:
            raise SourceUnavailable(
                say(
                    "%(url)s: larger than %(bytes)s bytes",
                    url=redact(url),
                    bytes=MAX_DOCUMENT_BYTES,
                )
            )
        return body

    def lines(self, url: str) -> Iterator[str]:
        with self._open(url) as response:
            try:
                for raw in response:
                    yield raw.decode("utf-8")
            except (TimeoutError, OSError) as error:
                raise SourceUnavailable(
                    say("%(url)s: the answer broke off", url=redact(url))
                ) from error


class RecordedTransport:
    """Answers from files recorded earlier (tests, demos): `manifest.json` in `directory` maps
    each URL (without its key) to a file, or to {"error": "..."} for a recorded failure such as
    a timeout. A URL not in the manifest is a failure too: nothing reaches the network."""

    def __init__(self, directory: Path | str, overrides: dict[str, Any] | None = None) -> None:
        self.directory = Path(directory)
        manifest = json.loads((self.directory / "manifest.json").read_text())
        self.manifest: dict[str, Any] = {
            redact(url): entry for url, entry in {**manifest, **(overrides or {})}.items()
        }

    def _entry(self, url: str) -> Path:
        entry = self.manifest.get(redact(url))
        if entry is None:
            raise SourceUnavailable(say("%(url)s: not in the recorded responses", url=redact(url)))
        if isinstance(entry, dict):
            raise SourceUnavailable(f"{redact(url)}: {entry.get('error', 'failed')}")
        path = Path(entry)
        return path if path.is_absolute() else self.directory / path

    def get(self, url: str) -> bytes:
        return self._entry(url).read_bytes()

    def lines(self, url: str) -> Iterator[str]:
        with self._entry(url).open(encoding="utf-8", newline="") as handle:
            yield from handle


class RecordingTransport:
    """Passes requests to `inner` and keeps every answer in `directory` with a manifest, so
    that a live refresh can be replayed (and trimmed into test fixtures)."""

    def __init__(self, inner: Transport, directory: Path | str) -> None:
        self.inner = inner
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        manifest = self.directory / "manifest.json"
        self.manifest: dict[str, Any] = (
            json.loads(manifest.read_text()) if manifest.exists() else {}
        )

    def _name(self, url: str, suffix: str) -> str:
        host = urllib.parse.urlsplit(url).hostname or "response"
        return f"{host.split('.')[0]}_{len(self.manifest) + 1:03d}{suffix}"

    def _save(self) -> None:
        (self.directory / "manifest.json").write_text(
            json.dumps(self.manifest, indent=2, sort_keys=True) + "\n"
        )

    def get(self, url: str) -> bytes:
        body = self.inner.get(url)
        name = self._name(url, ".json")
        (self.directory / name).write_bytes(body)
        self.manifest[redact(url)] = name
        self._save()
        return body

    def lines(self, url: str) -> Iterator[str]:
        name = self._name(url, ".csv")
        self.manifest[redact(url)] = name
        self._save()
        with (self.directory / name).open("w", encoding="utf-8", newline="") as out:
            for line in self.inner.lines(url):
                out.write(line)
                yield line


# --- What a refresh works on and what it returns ------------------------------------------------


@dataclass(frozen=True)
class PriceTarget:
    """A catalog price row a source may refresh."""

    key: str
    accelerator: str
    cloud: str
    billing: str
    region: str
    usd_per_device_hour: Decimal | None
    # What the row is sold as ("p5.4xlarge on-demand (Linux)"), the catalog unit it is
    # ("aws:p5.4xlarge") and the devices in that unit: a regional row names its own instance,
    # which may not be the card's usual one.
    unit: str = ""
    gpus_per_unit: int = 1
    unit_id: str = ""
    # Who sells it, as the catalog names the provider ("Lambda"): a source for a provider the
    # engine files under `other` picks its rows by this.
    provider: str = ""


@dataclass(frozen=True)
class PriceUpdate:
    key: str
    usd_per_device_hour: Decimal
    source: str
    derived: bool
    detail: dict[str, Any]
    region: str = ""
    region_key: str = ""


@dataclass
class SourceResult:
    updates: list[PriceUpdate] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # Rows of this cloud the source does not price (no SKU mapping, a billing it does not list).
    left: list[str] = field(default_factory=list)


def region_code(region: str, pattern: str) -> str | None:
    match = re.match(pattern, region.strip())
    return match.group(1) if match else None


def default_region(target: PriceTarget, default: tuple[str, str], pattern: str) -> dict[str, str]:
    """A row without a region the source knows ("", "US (region not stated)") is priced in
    the source's default region, and now says so."""
    if region_code(target.region, pattern):
        return {}
    return {"region": default[0], "region_key": default[1]}


def check_update(
    target: PriceTarget, price: Decimal, problems: list[str], label: str
) -> Decimal | None:
    """The per-device-hour price rounded to the catalog's places, or None with a problem."""
    if not price.is_finite() or price <= 0 or price > MAX_USD_PER_DEVICE_HOUR:
        problems.append(
            say(
                "%(row)s: %(price)s USD per device-hour is outside (0, %(most)s]",
                row=label,
                price=price,
                most=MAX_USD_PER_DEVICE_HOUR,
            )
        )
        return None
    old = target.usd_per_device_hour
    if old and not (old / MAX_CHANGE_FACTOR <= price <= old * MAX_CHANGE_FACTOR):
        problems.append(
            say(
                "%(row)s: %(price)s USD per device-hour against %(old)s in the catalog is more "
                "than a %(factor)sx change; check the SKU before trusting it",
                row=label,
                price=f"{price:.4f}",
                old=old,
                factor=MAX_CHANGE_FACTOR,
            )
        )
        return None
    return price.quantize(PLACES)


def to_decimal(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


class PriceSource(Protocol):
    """A public price list: one module per provider implements it and one line in
    `registry.py` registers it (docs/architecture.md, "Recipe: a new price provider")."""

    @property
    def name(self) -> str:
        """The source's key: `refresh_prices --source NAME` and `PriceRefresh.source` (at most
        10 characters, the column's length)."""

    @property
    def label(self) -> str:
        """What the admin's refresh table and a draft's description call it."""

    @property
    def page(self) -> str:
        """The public document the source reads."""

    @property
    def missing_key(self) -> str:
        """For a source that needs an API key: the (untranslated) message a refresh without one
        records when it skips the source. Empty for a source that needs no key."""

    def collect(
        self, targets: Iterable[PriceTarget], transport: Transport, *, today: date, api_key: str
    ) -> SourceResult:
        """The updates for the `targets` this source prices (the others go to `left`), or
        problems and no updates; `SourceUnavailable` when the provider does not answer."""


@dataclass(frozen=True)
class Source:
    """A `PriceSource` made of a collect function, as the provider modules write theirs."""

    name: str
    label: str
    page: str
    collector: Collector
    missing_key: str = ""

    def collect(
        self, targets: Iterable[PriceTarget], transport: Transport, *, today: date, api_key: str
    ) -> SourceResult:
        return self.collector(targets, transport, today=today, api_key=api_key)


class Collector(Protocol):
    def __call__(
        self, targets: Iterable[PriceTarget], transport: Transport, *, today: date, api_key: str
    ) -> SourceResult: ...
