#!/usr/bin/env bash
# `make load`: simulated people, not a closed loop (Locust, headless; loadtest/locustfile.py).
#   gunicorn (WORKERS, default 2 x cores, sync) + PostgreSQL + Redis + a Celery worker for
#   report pages (prefork, WORKER_CONCURRENCY 2) and one for PDFs on their own queue
#   (PDF_CONCURRENCY 1), as docker-compose.yml runs them, loopback only.
# People sign in and fill in assessments with 3-10 s of thinking per page, submit, poll the
# report until done, open it and its PDF; sales engineers share links; anonymous visitors
# open them. LOAD_STEP_USERS (10) more people every LOAD_STEP_SECONDS (120) for LOAD_STEPS
# (6) steps. Prints, and writes into docs/benchmarks.md, how many concurrent people the box
# holds with p95 < 300 ms per page, no errors and submit-to-done < 10 s, and what broke first.
# A short check: LOAD_STEP_USERS=4 LOAD_STEPS=3 LOAD_STEP_SECONDS=60 make load
source "$(dirname "$0")/lib.sh"

export LOAD_STEP_USERS="${LOAD_STEP_USERS:-10}" LOAD_STEPS="${LOAD_STEPS:-6}"
export LOAD_STEP_SECONDS="${LOAD_STEP_SECONDS:-120}" LOAD_SPAWN_RATE="${LOAD_SPAWN_RATE:-1}"
WORKERS="${WORKERS:-$((2 * $(nproc)))}"
WORKER_CONCURRENCY="${WORKER_CONCURRENCY:-2}"
PDF_CONCURRENCY="${PDF_CONCURRENCY:-1}"
LOAD_PORT="${LOAD_PORT:-8090}"
DB_NAME="${LOAD_DB_NAME:-advisor_load}"
LOAD_BEFORE="$(uptime | sed 's/.*load average: //')"

ensure_venv
apt_install fonts-noto-cjk libharfbuzz-subset0
services_up
ensure_database "$DB_NAME"
export DATABASE_URL="${DATABASE_URL%/*}/$DB_NAME"
# A Redis database of its own, so no other worker on this machine takes these reports.
export REDIS_URL="${REDIS_URL%/*}/${LOAD_REDIS_DB:-6}"

# Production settings, except plain HTTP on the loopback interface.
export DEBUG=false SECRET_KEY="load-$(python3 -c 'import secrets; print(secrets.token_urlsafe(30))')"
export SECURE_SSL_REDIRECT=false SESSION_COOKIE_SECURE=false CSRF_COOKIE_SECURE=false
export SECURE_HSTS_SECONDS=0 SECURE_HSTS_INCLUDE_SUBDOMAINS=false SECURE_HSTS_PRELOAD=false
export ALLOWED_HOSTS=127.0.0.1,localhost CACHE_KEY_PREFIX=load LOG_LEVEL=WARNING
export VAR_DIR="$ROOT/var/load"
mkdir -p "$VAR_DIR"
compile_messages
say "migrating $DB_NAME, collecting static files"
python manage.py migrate -v0
python manage.py collectstatic --noinput -v0

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
redis-cli -p "$REDIS_PORT" -n "${LOAD_REDIS_DB:-6}" flushdb >/dev/null
# Report pages and PDFs on their own queues and workers, as docker-compose.yml runs them.
celery -A advisor worker --queues=celery --concurrency "$WORKER_CONCURRENCY" -n "reports@%h" \
  --without-gossip --without-mingle --without-heartbeat -l warning >"$VAR_DIR/worker.log" 2>&1 &
PIDS+=($!)
# On one machine the PDF worker yields the cores to pages and reports (nice 10), as make run
# does; docker-compose gives it a smaller CPU weight (cpu_shares) for the same reason.
nice -n "${PDF_NICE:-10}" celery -A advisor worker --queues=pdf --concurrency "$PDF_CONCURRENCY" -n "pdf@%h" \
  --without-gossip --without-mingle --without-heartbeat -l warning >"$VAR_DIR/pdf-worker.log" 2>&1 &
PIDS+=($!)
python manage.py healthcheck --worker --timeout 60 >/dev/null

PEOPLE=$((LOAD_STEP_USERS * LOAD_STEPS))
say "seeding: $PEOPLE people (an organisation each), sales engineers, done reports, share links"
python manage.py load_setup --people "$PEOPLE" --sales "$(( (PEOPLE + 9) / 10 ))" \
  --password "load-$(python3 -c 'import secrets; print(secrets.token_urlsafe(12))')" \
  --out "$VAR_DIR/setup.json"

say "starting gunicorn: $WORKERS sync workers on 127.0.0.1:$LOAD_PORT"
gunicorn advisor.wsgi --workers "$WORKERS" --bind "127.0.0.1:$LOAD_PORT" --timeout 60 \
  --error-logfile "$VAR_DIR/gunicorn.log" --log-level warning >"$VAR_DIR/gunicorn.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$LOAD_PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fsS "http://127.0.0.1:$LOAD_PORT/healthz" >/dev/null || die "gunicorn did not answer; see $VAR_DIR/gunicorn.log"
# Warm-up, as a deployed server is: every gunicorn worker imports, connects and compiles the
# published catalog and scoring model before the first person arrives.
TOKEN="$(python3 -c "import json; print(json.load(open('$VAR_DIR/setup.json'))['tokens'][0])")"
seq $((WORKERS * 4)) | xargs -P "$WORKERS" -I{} sh -c \
  "curl -fsS -o /dev/null http://127.0.0.1:$LOAD_PORT/accounts/login/; curl -fsS -o /dev/null http://127.0.0.1:$LOAD_PORT/s/$TOKEN/"

# The machine's load while the test runs, every 5 s.
( while true; do cut -d' ' -f1 /proc/loadavg; sleep 5; done ) >"$VAR_DIR/loadavg.txt" &
PIDS+=($!)
RUN_S=$(python3 -c "print(int($LOAD_STEPS * $LOAD_STEP_SECONDS + 60))")
say "locust: $LOAD_STEP_USERS more people every ${LOAD_STEP_SECONDS}s, $LOAD_STEPS steps (at most ${RUN_S}s)"
LOAD_SETUP="$VAR_DIR/setup.json" LOAD_RECORDS="$VAR_DIR/records.jsonl" \
  locust -f loadtest/locustfile.py --headless --host "http://127.0.0.1:$LOAD_PORT" \
  --run-time "${RUN_S}s" --csv "$VAR_DIR/locust" --only-summary --loglevel WARNING \
  >"$VAR_DIR/locust.log" 2>&1 || true  # exits 1 when any request failed: summarised below
tail -n 40 "$VAR_DIR/locust.log"
cleanup
PIDS=()

python3 - "$VAR_DIR/meta.json" <<PY
import json, sys
loads = [float(x) for x in open("$VAR_DIR/loadavg.txt").read().split()] or [0.0]
json.dump({
    "step_users": int("$LOAD_STEP_USERS"), "steps": int("$LOAD_STEPS"),
    "step_seconds": float("$LOAD_STEP_SECONDS"), "spawn_rate": "$LOAD_SPAWN_RATE",
    "workers": int("$WORKERS"), "worker_pool": "prefork, concurrency $WORKER_CONCURRENCY",
    "pdf_pool": "prefork, concurrency $PDF_CONCURRENCY, nice ${PDF_NICE:-10}",
    "locust": "$(locust --version 2>/dev/null | awk '{print $2}')",
    "load_before": "$LOAD_BEFORE", "load_peak": f"{max(loads):.2f}",
    "load_after": "$(uptime | sed 's/.*load average: //')",
}, open(sys.argv[1], "w"))
PY
python3 loadtest/summarize.py "$VAR_DIR/records.jsonl" "$VAR_DIR/meta.json"
