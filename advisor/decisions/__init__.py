"""The engine as the product runs it, one module per concern: the user's language
(languages), the published catalog and scoring model compiled once per process (live), the
versions a stored result names (pinned) and the engine runs that use them (evaluation)."""
