"""The report's pages, one module per concern:

- `common`: what they share: the report a request may see (else 404), the report page's
  context (its quote form and PDF button), the answer to a throttled report request
- `pages`: the report page, its status while a worker generates it, a new version or a retry,
  the comparison of two versions
- `what_if`: answers changed on a report, kept as a new version or adopted
- `exports`: the PDF, JSON and CSV downloads and the polled PDF button
- `sharing`: share links: create, revoke, and the shared page with its PDF and quote form
- `quotes`: a member's quote request for a house offer, and the operator's lead status

advisor/urls.py routes to the concern's module (`report_views.pages.report`).
"""
