"""Read-side queries of the assessment flow, one module per concern. Selectors read: they never
write or import services.

- `assessments`: an assessment for its organisation's members (else 404), the dashboards'
  lists, the answers' problems by step, a reader's membership
- `reports`: a report's versions, one version (else 404), what changed between two
- `sharing`: a report's share links and the live link for a token
- `leads`: the quote a report's house offer makes, and the quote requests a person sees
- `measurements`: measured benchmark runs, a re-planned version's changes, the ratios

Callers import the names they read (`from advisor.selectors.reports import report_get`).
"""
