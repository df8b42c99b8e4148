"""The site's forms, one module per concern: `base` (field builders and the
step form base, which the wizard's step forms in `advisor.wizard.forms` build on),
`assessments` (new assessment, prospect, invitation), `reports` (report language, share links),
`what_if`, `quotes` (quote requests, lead status) and `measurements`. The forms only convert
types; services take the data they give."""
