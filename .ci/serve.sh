#!/usr/bin/env bash
# The README's run command (`make run`): the product on its embedded default — SQLite in the
# project folder and a filesystem broker — with a real Celery worker beside the web server.
source "$(dirname "$0")/lib.sh"

ensure_venv
export DEBUG="${DEBUG:-true}"
HOST="${HOST:-127.0.0.1}"; PORT="${PORT:-8000}"
compile_messages
python manage.py migrate -v0
python manage.py seed ${DEMO_PASSWORD:+--password "$DEMO_PASSWORD"}

mkdir -p var/log
# -B runs Celery beat inside this one worker: it sweeps stuck reports every minute. The solo
# pool enforces no Celery time limits; report tasks keep their own clock (advisor/tasks.py),
# REPORT_SOFT_TIME_LIMIT / REPORT_TIME_LIMIT seconds, so one runaway report cannot hold it.
celery -A advisor worker -B --schedule var/celerybeat-schedule --pool=solo --without-gossip \
  --without-mingle --without-heartbeat -l info >var/log/worker.log 2>&1 &
WORKER=$!
trap 'kill $WORKER 2>/dev/null || true' EXIT INT TERM
python manage.py healthcheck --worker --timeout 30 | sed 's/^/    /'
say "worker log: var/log/worker.log"
say "open http://$HOST:$PORT/  (Ctrl-C stops web and worker)"
python manage.py runserver "$HOST:$PORT"
