#!/usr/bin/env bash
# The inner loop (`make quick`): the engine's tests and the unit tests that need no database,
# browser, live server, worker or Schemathesis, in well under a minute. `make test` stays the
# complete run that CI makes; extra arguments go to pytest (`make quick ARGS="-k costing"`).
source "$(dirname "$0")/lib.sh"
ensure_venv
export DEBUG="${DEBUG:-true}"
# Compiled bytecode is kept under var/: without it every run recompiles Django, Hypothesis,
# Faker and Playwright first, which costs more than the engine's tests themselves.
unset PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX="$ROOT/var/pycache"
# Plugins that only the browser and API-contract tests use stay unloaded.
exec pytest -q -p no:playwright -p no:schemathesis -p no:anyio -p no:faker \
  -m "not e2e and not services and not slow" \
  tests/engine tests/advisor/test_step_form_markup.py tests/test_layers.py "$@"
