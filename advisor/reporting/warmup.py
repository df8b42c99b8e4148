"""What a worker loads once before its first report."""

from __future__ import annotations

from advisor.reporting.pdf import render_report_pdf


def warm_up() -> None:
    """Load WeasyPrint, the stylesheet and the Latin and CJK fonts once (a worker calls this
    at start-up), so the first real report pays none of it."""
    render_report_pdf('<html lang="zh-Hant"><body><p>Advisor 加速器</p></body></html>')
