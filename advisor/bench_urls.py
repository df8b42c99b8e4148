"""The bench urlconf (`advisor.bench_settings`): the product's URLs plus `make bench`'s
references. Production routes `advisor.urls`, which names none of these."""

from __future__ import annotations

from django.urls import path, re_path

from advisor import bench_peer, bench_views
from advisor.urls import handler500
from advisor.urls import urlpatterns as product_urlpatterns

__all__ = ["handler500", "urlpatterns"]

urlpatterns = [
    *product_urlpatterns,
    path("bench/authenticated", bench_views.authenticated, name="bench_authenticated"),
    re_path(r"^bench/peer/(?P<step>[-\w]+)/$", bench_peer.wizard_view, name=bench_peer.URL_NAME),
]
if not any(getattr(p, "name", None) == "bench_baseline" for p in product_urlpatterns):
    urlpatterns.append(path("bench/baseline", bench_views.baseline, name="bench_baseline"))
