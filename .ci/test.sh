#!/usr/bin/env bash
# The README's test command (`make test`): lint, type-check, architecture and migration checks,
# then the whole pytest suite against real PostgreSQL, Redis, a Celery worker and Chromium.
# Services come from DATABASE_URL / REDIS_URL when given, else are installed (when permitted)
# and started here on private ports.
source "$(dirname "$0")/lib.sh"

ensure_venv
apt_install chromium fonts-noto-cjk libharfbuzz-subset0 poppler-utils gettext

given_db="${DATABASE_URL:-}"; given_redis="${REDIS_URL:-}"
if [ -z "$given_db" ] || [ -z "$given_redis" ]; then
  services_up
  [ -n "$given_db" ] && export DATABASE_URL="$given_db"
  [ -n "$given_redis" ] && export REDIS_URL="$given_redis"
fi

# Production settings (DEBUG off), relaxed only where plain-HTTP test servers need it.
export DEBUG=false
export SECRET_KEY="${SECRET_KEY:-test-$(python3 -c 'import secrets; print(secrets.token_urlsafe(40))')}"
export SECURE_SSL_REDIRECT=false SESSION_COOKIE_SECURE=false CSRF_COOKIE_SECURE=false SECURE_HSTS_SECONDS=0
export VAR_DIR="${VAR_DIR:-$ROOT/var/test}"
export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium || command -v chromium-browser || true)}"
# Compiled bytecode is kept under var/ (as `make quick` does), never beside the sources: the
# shared environment ships none, and without it this process and every worker, settings probe
# and `manage.py` the tests start recompiled Django, Celery and the rest first (about 2 s of
# CPU each, some forty processes a run).
unset PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX="$ROOT/var/pycache"

say "ruff";            ruff check .; ruff format --check .
# Comments explain the code; the history of a change is its commit message.
say "comments";        python .ci/no_issue_refs.py
say "mypy";            mypy advisor accounts
say "import-linter";   lint-imports --no-cache
say "migrations";      python manage.py makemigrations --check --dry-run
say "messages";        compile_messages
say "static files";    python manage.py collectstatic --noinput -v0
# The production settings themselves: without the plain-HTTP relaxations above.
say "check --deploy";  env -u SECURE_SSL_REDIRECT -u SESSION_COOKIE_SECURE -u CSRF_COOKIE_SECURE \
                         -u SECURE_HSTS_SECONDS python manage.py check --deploy --fail-level WARNING \
                         || die "production settings fail check --deploy"
# axe-core for the accessibility audit (tests/e2e/test_accessibility.py), into the ignored var/.
say "axe-core";        [ -f var/axe/node_modules/axe-core/axe.min.js ] \
                         || npm install --silent --no-audit --no-fund --prefix var/axe axe-core@4
# Exit code 5 (no tests collected) fails like any other non-zero code. `python -m pytest` puts
# the repository on the path for the early plugin that keeps parallel workers apart.
run_pytest() { python -m pytest -p tests.xdist_isolation "$@"; }
if [ $# -gt 0 ]; then
  say "pytest $* (database: ${DATABASE_URL%%:*}, broker: ${REDIS_URL%%:*})"
  run_pytest "$@"
  exit
fi
# The whole suite: one worker per core, at most four (TEST_JOBS), each with its own test database, Redis
# database, media folder, live server, browser and Celery workers; tests sharing an expensive
# module fixture stay together (xdist_group). What keeps every core busy by design runs after.
jobs="${TEST_JOBS:-$(( $(nproc) < 4 ? $(nproc) : 4 ))}"
say "pytest, $jobs workers (database: ${DATABASE_URL%%:*}, broker: ${REDIS_URL%%:*})"
run_pytest -n "$jobs" --dist loadgroup -m "not alone"
say "pytest, the tests that run alone"
run_pytest -m alone
