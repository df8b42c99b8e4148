#!/usr/bin/env bash
# `make bench-reports`: N reports through a real worker on PostgreSQL + Redis; prints p50/p95.
source "$(dirname "$0")/lib.sh"

ensure_venv
apt_install fonts-noto-cjk libharfbuzz-subset0
if [ -z "${DATABASE_URL:-}" ] || [ -z "${REDIS_URL:-}" ]; then
  services_up
  # A Redis database of its own, so no other worker on this machine takes the bench's tasks.
  export REDIS_URL="${REDIS_URL%/*}/3"
fi
export DEBUG=false SECRET_KEY="${SECRET_KEY:-bench-$(python3 -c 'import secrets; print(secrets.token_urlsafe(30))')}"
export VAR_DIR="$ROOT/var/bench"
python manage.py migrate -v0
mkdir -p "$VAR_DIR"
celery -A advisor worker --pool=solo --queues=celery,pdf --without-gossip --without-mingle --without-heartbeat \
  -l warning >"$VAR_DIR/worker.log" 2>&1 &
WORKER=$!
trap 'kill $WORKER 2>/dev/null || true' EXIT
python manage.py healthcheck --worker --timeout 30 >/dev/null
python manage.py bench_reports --count "${COUNT:-20}"
