"""The report: a frozen result document rendered as HTML (web and PDF), a PDF and a cost CSV,
one module per concern (context and its parts, render, pdf, csv, warm-up, dead ends)."""
