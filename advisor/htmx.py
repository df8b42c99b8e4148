"""Rendering helpers shared by the htmx views."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.cache import patch_vary_headers
from django_htmx.middleware import HtmxDetails

if TYPE_CHECKING:
    from accounts.models import User


class HtmxHttpRequest(HttpRequest):
    """A request as the views see it: django-htmx's middleware has set `request.htmx`."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request to a `login_required` view: the user is signed in."""

    user: User


def render_page_or_partial(
    request: HtmxHttpRequest, template_name: str, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    """Render `template#partial` when htmx targets a partial by its DOM id, else the full page.

    The partial's name equals its DOM id and the hx-target, so any partial a page declares can
    be requested on its own; Vary keeps caches from mixing the two answers. A target the page
    declares no partial for (HX-Target is the client's to send) gets the full page.
    """
    target = request.htmx.target
    name = template_name
    if target:
        try:
            get_template(f"{template_name}#{target}")
            name = f"{template_name}#{target}"
        except TemplateDoesNotExist:
            pass
    response = render(request, name, context, status=status)
    patch_vary_headers(response, ["HX-Request", "HX-Target"])
    return response
