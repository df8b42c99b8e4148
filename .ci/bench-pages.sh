#!/usr/bin/env bash
# `make bench-pages`: the pages a walk through the product found slow (the admin scoring-model change page
# and its draft save, a member's report page, share link create and revoke, a quote request),
# served one at a time through Django's test client against the seeded demo on PostgreSQL:
# median and p95 wall ms, CPU ms and SQL queries per page (REPEAT, default 30; PROFILE=n adds
# a cProfile of n requests per page; ONLY=name,name picks pages).
source "$(dirname "$0")/lib.sh"

DB_NAME="${BENCH_PAGES_DB_NAME:-advisor_bench_pages}"
# Other work on the machine shares the cores: recorded with the results.
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"

ensure_venv
apt_install fonts-noto-cjk libharfbuzz-subset0
services_up
ensure_database "$DB_NAME"
export DATABASE_URL="${DATABASE_URL%/*}/$DB_NAME"
# A Redis database of its own: the tasks the pages send wait there, taken by no other worker.
export REDIS_URL="${REDIS_URL%/*}/${BENCH_PAGES_REDIS_DB:-5}"

# Production settings, except plain HTTP on the loopback interface.
export DEBUG=false SECRET_KEY="bench-$(python3 -c 'import secrets; print(secrets.token_urlsafe(30))')"
export SECURE_SSL_REDIRECT=false SESSION_COOKIE_SECURE=false CSRF_COOKIE_SECURE=false
export SECURE_HSTS_SECONDS=0 ALLOWED_HOSTS=127.0.0.1,localhost CACHE_KEY_PREFIX=bench-pages LOG_LEVEL=WARNING
export VAR_DIR="$ROOT/var/bench-pages"
mkdir -p "$VAR_DIR"
compile_messages
say "migrating $DB_NAME, collecting static files"
python manage.py migrate -v0
python manage.py collectstatic --noinput -v0
say "timing (1-minute load before: $LOAD_BEFORE; $(nproc) cores)"
python manage.py bench_pages --repeat "${REPEAT:-30}" --profile "${PROFILE:-0}" --only "${ONLY:-}" \
  --out "$VAR_DIR/pages.json"
say "1-minute load after: $(cut -d' ' -f1-3 /proc/loadavg)"
