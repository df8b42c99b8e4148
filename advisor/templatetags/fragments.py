"""{% fragment %}: a rendered piece of a page kept for reuse, without anyone's CSRF token or nonce.

Django's own {% cache %} stores the HTML as rendered, so a fragment holding a form would serve
one visitor's CSRF token and one response's CSP nonce to everybody. This tag renders the
fragment with stand-ins for the per-request values instead (the CSRF token, the CSP nonce and
any `live` value the template names), stores that, and puts this request's values in on the way
out. Usage:

    {% load fragments %}
    {% fragment "wizard" wizard_key %} ...HTML... {% endfragment %}
    {% fragment "navbar-end" user.is_authenticated live next_path=request.get_full_path %}
      ... {{ next_path }} ... {% csrf_token %} ...
    {% endfragment %}

The key is the name, the values after it, the language, the time zone and the release (the
templates, translations and code of this deployment). The values must name everything else the
fragment shows: an assessment's id and version, a digest of rows. A key so built never changes
meaning, so each process also keeps a small copy of what it last used, ahead of the shared cache.
A value that is None (or missing) means "do not keep this rendering"; it is rendered live.

Live values must be printed as they are (`{{ next_path }}`), never through a filter. A part
that must be rendered for every request (the wizard's preview) goes in `{% live %}` inside the
fragment; the key then need not name what that part shows.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import django
from django import template
from django.conf import settings
from django.core.cache import cache as shared_cache
from django.template.base import FilterExpression, Node, NodeList, Parser, Token
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()
logger = logging.getLogger(__name__)

# Values that differ on every response: never stored, always put in on the way out.
PER_REQUEST = ("csrf_token", "csp_nonce")
# Keys change with the data they show, so the timeout only bounds what the cache holds.
TIMEOUT = 60 * 60
LOCAL_BYTES = 16 * 1024 * 1024

_local: OrderedDict[str, str] = OrderedDict()
_local_bytes = 0
_lock = threading.Lock()


@cache
def release() -> str:
    """Names this deployment: its templates, translations, code, data and static files' names."""
    from django.contrib.staticfiles.storage import staticfiles_storage

    digest = hashlib.sha256(django.get_version().encode())
    digest.update(str(getattr(staticfiles_storage, "manifest_hash", "")).encode())
    base = Path(settings.BASE_DIR)
    for folder in ("templates", "advisor", "accounts"):
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in {".html", ".txt", ".py", ".mo", ".json"} and path.is_file():
                digest.update(path.relative_to(base).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def _marker(name: str) -> str:
    # Letters, digits, "-" and "_" only, so escaping leaves it whole; derived from SECRET_KEY,
    # so no one can type it into an answer and have a token put in its place.
    mac = salted_hmac("advisor.fragment", name, algorithm="sha256").hexdigest()
    return f"fragment-{name}-{mac[:20]}"


def key_for(name: str, values: Iterable[Any], masked: Iterable[str] = ()) -> str:
    parts = repr(
        (
            list(values),
            translation.get_language(),
            timezone.get_current_timezone_name(),
            sorted(masked),
        )
    )
    return f"fragment:{name}:{release()}:{hashlib.sha256(parts.encode()).hexdigest()[:32]}"


def _remember(key: str, html: str) -> None:
    global _local_bytes
    with _lock:
        if key in _local:
            _local.move_to_end(key)
            return
        _local[key] = html
        _local_bytes += len(html)
        while _local_bytes > LOCAL_BYTES and _local:
            _, old = _local.popitem(last=False)
            _local_bytes -= len(old)


def get(key: str) -> str | None:
    with _lock:
        html = _local.get(key)
        if html is not None:
            _local.move_to_end(key)
            return html
    try:
        found = shared_cache.get(key)
    except Exception:  # a cache outage costs speed, never the page
        logger.warning("fragment cache unavailable", exc_info=True)
        return None
    if not isinstance(found, str):
        return None
    _remember(key, found)
    return found


def put(key: str, html: str) -> None:
    _remember(key, html)
    try:
        shared_cache.set(key, html, TIMEOUT)
    except Exception:
        logger.warning("fragment cache unavailable", exc_info=True)


def forget_local() -> None:
    """Empty this process's copies (tests; the shared cache has its own clear())."""
    global _local_bytes
    with _lock:
        _local.clear()
        _local_bytes = 0


# Set in the context while a fragment is rendered to be kept: {% live %} blocks leave a marker.
KEEPING = "_fragment_keeping"


class LiveNode(Node):
    marker = ""

    def __init__(self, nodelist: NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> SafeString:
        if self.marker and context.get(KEEPING):
            return mark_safe(self.marker)  # noqa: S308 - letters, digits and dashes
        return self.nodelist.render(context)


class FragmentNode(Node):
    def __init__(
        self,
        name: str,
        vary: list[FilterExpression],
        live: dict[str, FilterExpression],
        nodelist: NodeList,
    ) -> None:
        self.name = name
        self.vary = vary
        self.live = live
        self.nodelist = nodelist
        self.blocks = [n for n in nodelist.get_nodes_by_type(LiveNode) if isinstance(n, LiveNode)]
        for i, block in enumerate(self.blocks):
            block.marker = _marker(f"{name}-live-{i}")

    def render(self, context: template.Context) -> SafeString:
        # A value missing from the context counts as None too: a forgotten key must never
        # share one kept rendering between pages.
        values = [v.resolve(context, ignore_failures=True) for v in self.vary]
        if any(v is None for v in values):
            return self.nodelist.render(context)
        # Resolved now, evaluated only if the fragment shows them (a nonce or CSRF cookie is
        # made only for pages that use one, as without the cache).
        real = {name: context.get(name) for name in PER_REQUEST}
        real.update({name: expr.resolve(context) for name, expr in self.live.items()})
        real = {name: value for name, value in real.items() if value is not None}
        key = key_for(self.name, values, real)
        html = get(key)
        if html is None:
            with context.push(**{name: _marker(name) for name in real}, **{KEEPING: True}):
                html = self.nodelist.render(context)
            put(key, html)
        for name, value in real.items():
            marker = _marker(name)
            if marker in html:
                html = html.replace(marker, conditional_escape(str(value)))
        for block in self.blocks:
            html = html.replace(block.marker, block.nodelist.render(context))
        # The template engine escaped the fragment and the {% live %} blocks when it rendered
        # them; the values put in are escaped just above.
        return mark_safe(html)  # noqa: S308


@register.tag
def live(parser: Parser, token: Token) -> LiveNode:
    """{% live %}...{% endlive %}: a part of a {% fragment %} rendered for every request."""
    nodelist = parser.parse(("endlive",))
    parser.delete_first_token()
    return LiveNode(nodelist)


@register.tag
def fragment(parser: Parser, token: Token) -> FragmentNode:
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][0] != bits[1][-1]:
        raise template.TemplateSyntaxError(
            '{% fragment %} needs a quoted name: {% fragment "name" value ... %}'
        )
    name = bits[1][1:-1]
    vary: list[FilterExpression] = []
    live: dict[str, FilterExpression] = {}
    rest = bits[2:]
    if "live" in rest:
        at = rest.index("live")
        rest, live_bits = rest[:at], rest[at + 1 :]
        for bit in live_bits:
            var, sep, expr = bit.partition("=")
            if not sep or not var.isidentifier():
                raise template.TemplateSyntaxError(
                    f"{{% fragment %}} live values are name=expression, got {bit!r}"
                )
            live[var] = parser.compile_filter(expr)
    vary = [parser.compile_filter(bit) for bit in rest]
    nodelist = parser.parse(("endfragment",))
    parser.delete_first_token()
    return FragmentNode(name, vary, live, nodelist)
