"""The architect's audit: generated teams (teams.py), the invariants an infrastructure architect
checks on every report (invariants.py) and the run that counts them (`make audit`, run.py)."""
