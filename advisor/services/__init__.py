"""Write-side operations of the assessment flow, one module per concern. Only services call the
engine, enqueue tasks or write across models.

- `assessments`: create, step save (optimistic locking), submit, reopen, result in a language,
  the wizard's live preview
- `reports`: request (throttled), generate on a worker, fail, retry, sweep
- `pdfs`: a done report's PDF, enqueued, claimed once and rendered
- `what_if`: changed answers evaluated as a report was, saved as a version or adopted
- `sharing`: share links to a done report
- `prospects`: a sales engineer's new prospect and the customer's invitation
- `leads`: quote requests for house offers, bounded and emailed to sales engineers
- `measurements`: a serving benchmark kept and a version re-planned with it
- `mail`: email a request asks for, sent by a worker once the request commits

Callers import the module of the concern (`from advisor.services import reports`).
"""
