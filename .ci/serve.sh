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
# Two workers, as in production: report pages (and the health task) on the default queue, PDFs
# on their own. The seed's sample PDFs wait on the PDF queue, never in front of the health
# check. -B runs Celery beat inside the first one: it sweeps stuck reports every minute. The
# solo pool enforces no Celery time limits; report tasks keep their own clock
# (advisor/tasks.py), REPORT_SOFT_TIME_LIMIT / REPORT_TIME_LIMIT seconds.
celery -A advisor worker -B --schedule var/celerybeat-schedule --pool=solo --queues=celery \
  -n reports@%h --without-gossip --without-mingle --without-heartbeat -l info >var/log/worker.log 2>&1 &
WORKER=$!
# PDFs are background work that a person waits for with a "being prepared" answer; on a
# machine that also serves pages the PDF worker yields the cores to them (nice 10).
nice -n 10 celery -A advisor worker --pool=solo --queues=pdf -n pdf@%h --without-gossip --without-mingle \
  --without-heartbeat -l info >var/log/pdf-worker.log 2>&1 &
PDF_WORKER=$!
trap 'kill $WORKER $PDF_WORKER 2>/dev/null || true' EXIT INT TERM

# A fresh worker imports Django and warms the catalog up before it takes tasks: a minute or
# more on a busy 2-core machine. Wait for its `ready.` line (nothing queued can delay that),
# then for one health task; a worker that died stops here with its log, a slow one does not
# keep the pages from being served.
WORKER_START_TIMEOUT="${WORKER_START_TIMEOUT:-300}"
waited=0
until grep -q "ready\." var/log/worker.log 2>/dev/null; do
  if ! kill -0 "$WORKER" 2>/dev/null; then
    tail -n 30 var/log/worker.log >&2
    die "the Celery worker stopped while starting (its log is above, whole in var/log/worker.log); fix what it says and run \`make run\` again"
  fi
  if [ "$waited" -ge "$WORKER_START_TIMEOUT" ]; then
    warn "the Celery worker has not started after ${WORKER_START_TIMEOUT} s (busy machine?); pages are served now and reports wait until it does. Watch var/log/worker.log"
    break
  fi
  sleep 1; waited=$((waited + 1))
done
if ! python manage.py healthcheck --worker --timeout 60 2>&1 | sed 's/^/    /'; then
  warn "the worker did not answer yet; pages are served now and reports are generated once it does. If none ever finishes, see var/log/worker.log and run \`make run\` again"
fi
say "worker logs: var/log/worker.log (reports), var/log/pdf-worker.log (PDFs)"
say "open http://$HOST:$PORT/  (Ctrl-C stops web and workers)"
python manage.py runserver "$HOST:$PORT"
