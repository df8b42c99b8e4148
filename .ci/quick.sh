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
quick_pytest() {
  pytest -q -p no:playwright -p no:schemathesis -p no:anyio -p no:faker \
    -m "not e2e and not services and not slow" "$@"
}
PATHS=(tests/engine tests/advisor/test_step_form_markup.py tests/test_layers.py)
# With arguments (`-k`, `--lf`, a path), one process, as before.
if [ $# -gt 0 ] || [ "${QUICK_JOBS:-2}" = 1 ]; then
  quick_pytest "${PATHS[@]}" "$@"
  exit
fi
# Without: two processes, one per core, on halves of about equal time. These tests share nothing
# (no database, no files, no ports), so they may run side by side. The three property-test
# modules below take about half the time (docs/benchmarks.md, "Test suite").
FIRST=(tests/engine/test_answers.py tests/engine/test_decision.py tests/engine/test_labels.py)
mkdir -p var
quick_pytest -p no:cacheprovider "${FIRST[@]}" >var/quick-1.log 2>&1 &
first=$!
status=0
quick_pytest -p no:cacheprovider "${PATHS[@]}" "${FIRST[@]/#/--ignore=}" >var/quick-2.log 2>&1 || status=$?
wait "$first" || status=$?
cat var/quick-1.log var/quick-2.log
exit "$status"
