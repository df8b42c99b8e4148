"""The site's forms, one module per concern: `base` (field builders and the
step form base), `steps` (the wizard's step forms), `assessments` (new assessment, prospect,
invitation), `reports` (report language, share links), `what_if`, `quotes` (quote requests, lead
status) and `measurements`. The forms only convert types; services take the data they give."""
