#!/usr/bin/env bash
# `make bench`: the production shape under load, on this machine, in one run.
#   gunicorn (WORKERS, default 2 x cores, sync) + PostgreSQL + Redis + one Celery worker,
#   wrk with CONNECTIONS (16) concurrent clients for DURATION (10s) per endpoint, loopback only.
# Prints requests/s, p50/p95/p99, errors, SQL queries and in-process milliseconds per page
# against a bare Django view, then the engine and report benchmarks; writes it all into
# docs/benchmarks.md.
source "$(dirname "$0")/lib.sh"

CONNECTIONS="${CONNECTIONS:-16}"
DURATION="${DURATION:-10s}"
WORKERS="${WORKERS:-$((2 * $(nproc)))}"
BENCH_PORT="${BENCH_PORT:-8089}"
DB_NAME=advisor_bench_http
# Other work on the machine shares the cores with the load: recorded with the results.
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"

ensure_venv
apt_install wrk fonts-noto-cjk libharfbuzz-subset0
services_up
bin="$(pg_bin)"
"$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$DB_NAME'" | grep -q 1 \
  || "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE $DB_NAME OWNER advisor"
REPORTS_DATABASE_URL="$DATABASE_URL" REPORTS_REDIS_URL="$REDIS_URL"
export DATABASE_URL="${DATABASE_URL%/*}/$DB_NAME"
# Redis databases of its own (bench-reports uses 3), so no other worker takes these tasks.
export REDIS_URL="${REDIS_URL%/*}/4"

# Production settings, except plain HTTP on the loopback interface.
export DEBUG=false SECRET_KEY="bench-$(python3 -c 'import secrets; print(secrets.token_urlsafe(30))')"
export SECURE_SSL_REDIRECT=false SESSION_COOKIE_SECURE=false CSRF_COOKIE_SECURE=false
export SECURE_HSTS_SECONDS=0 SECURE_HSTS_INCLUDE_SUBDOMAINS=false SECURE_HSTS_PRELOAD=false
export ALLOWED_HOSTS=127.0.0.1,localhost CACHE_KEY_PREFIX=bench-http LOG_LEVEL=WARNING
# The bare page every endpoint is compared with; off (not routed) outside benchmarks.
export BENCH_BASELINE=true
export VAR_DIR="$ROOT/var/bench-http"
mkdir -p "$VAR_DIR"
compile_messages
say "migrating $DB_NAME, collecting static files"
python manage.py migrate -v0
python manage.py collectstatic --noinput -v0

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
celery -A advisor worker --pool=solo --without-gossip --without-mingle --without-heartbeat \
  -l warning >"$VAR_DIR/worker.log" 2>&1 &
PIDS+=($!)
python manage.py healthcheck --worker --timeout 30 >/dev/null

# Before gunicorn starts, so that its workers' start-up does not share the cores with the
# in-process timing (the worker is idle once the report is done).
say "seeding: a member, $CONNECTIONS draft assessments, a done report with a share link; in-process timing"
python manage.py bench_http_setup --connections "$CONNECTIONS" --out "$VAR_DIR/setup.json"

say "starting gunicorn: $WORKERS sync workers on 127.0.0.1:$BENCH_PORT"
gunicorn advisor.wsgi --workers "$WORKERS" --bind "127.0.0.1:$BENCH_PORT" \
  --error-logfile "$VAR_DIR/gunicorn.log" --log-level warning >"$VAR_DIR/gunicorn.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$BENCH_PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fsS "http://127.0.0.1:$BENCH_PORT/healthz" >/dev/null || die "gunicorn did not answer; see $VAR_DIR/gunicorn.log"

RESULTS="$VAR_DIR/results.jsonl"
: >"$RESULTS"
setup() { python3 -c "import json,sys; d=json.load(open('$VAR_DIR/setup.json')); print(eval(sys.argv[1]))" "$1"; }
COOKIE="$(setup 'd["session_cookie"]+"; "+d["csrf_cookie"]')"
CSRF="$(setup 'd["csrf_token"]')"
measure() {  # name label expected mode path [post args...]; COOKIE="" for an anonymous visitor
  local name="$1" label="$2" expected="$3" mode="$4" path="$5"; shift 5
  local url="http://127.0.0.1:$BENCH_PORT$path"
  say "wrk: $label ($CONNECTIONS connections, $DURATION)"
  # Warm-up: every gunicorn worker imports, connects and fills its caches first. Not for
  # the POST: it would move the versions on (the GETs before it have warmed the workers).
  [ "$mode" = post ] || wrk -t "$CONNECTIONS" -c "$CONNECTIONS" -d 2s --timeout 5s -s .ci/bench.lua "$url" \
    -- "$expected" "$mode" "$COOKIE" "$CSRF" "$@" >/dev/null
  local line
  line="$(wrk -t "$CONNECTIONS" -c "$CONNECTIONS" -d "$DURATION" --timeout 5s -s .ci/bench.lua "$url" \
    -- "$expected" "$mode" "$COOKIE" "$CSRF" "$@" | grep '^BENCH ')"
  python3 -c "import json,sys; r=json.loads(sys.argv[1][6:]); r.update(name=sys.argv[2], label=sys.argv[3], path=sys.argv[4]); print(json.dumps(r))" \
    "$line" "$name" "$label" "$path" >>"$RESULTS"
}
measure baseline "bare Django view (baseline)" 200 get "$(setup 'd["urls"]["baseline"]')"
measure step_get "wizard step GET" 200 get "$(setup 'd["urls"]["step_get"]')"
measure step_post "wizard step POST (valid, Next)" 302 post "$(setup 'd["post"]["paths"][0]')" \
  "$(setup '",".join(d["post"]["paths"])')" "$(setup '",".join(map(str, d["post"]["versions"]))')" \
  "$(setup 'd["post"]["body"]')"
measure dashboard "dashboard" 200 get "$(setup 'd["urls"]["dashboard"]')"
COOKIE="" measure shared "shared report page (anonymous)" 200 get "$(setup 'd["urls"]["shared"]')"
cleanup
PIDS=()

say "engine benchmark"
ENGINE_OUT="$(python -m advisor.engine.bench 2>&1)"
echo "$ENGINE_OUT"
say "report benchmark (COUNT=${REPORT_COUNT:-10}, through a real worker)"
REPORTS_OUT="$(DATABASE_URL="$REPORTS_DATABASE_URL" REDIS_URL="${REPORTS_REDIS_URL%/*}/3" \
  VAR_DIR="$ROOT/var/bench" COUNT="${REPORT_COUNT:-10}" bash .ci/bench-reports.sh 2>&1 | grep -v '^.\[1;34m==>')"
echo "$REPORTS_OUT"

LOAD_BEFORE="$LOAD_BEFORE" ENGINE_OUT="$ENGINE_OUT" REPORTS_OUT="$REPORTS_OUT" WORKERS="$WORKERS" CONNECTIONS="$CONNECTIONS" \
  DURATION="$DURATION" python3 - "$RESULTS" "$VAR_DIR/setup.json" <<'PY'
import json, os, platform, re, subprocess, sys, datetime

rows = [json.loads(line) for line in open(sys.argv[1])]
setup = json.load(open(sys.argv[2]))
queries, timing = setup["queries"], setup.get("timing", {})
base = next(r for r in rows if r["name"] == "baseline")
rps = lambda r: r["requests"] / (r["duration_us"] / 1e6)
alone = lambda name: f"{timing[name]['ms']:.1f}" if name in timing else ""
wizard = {"step_get", "step_post"}
lines = [
    "| endpoint | requests/s | × baseline | p50 ms | p95 ms | p99 ms | errors | SQL queries | ms alone |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
]
misses = []
for r in rows:
    ratio = rps(r) / rps(base)
    p95 = r["p95_us"] / 1000
    lines.append(
        f"| {r['label']} | {rps(r):,.0f} | {ratio:.2f} | {r['p50_us']/1000:.1f} | {p95:.1f} | "
        f"{r['p99_us']/1000:.1f} | {r['errors']} of {r['requests']} | {queries.get(r['name'], '')} | "
        f"{alone(r['name'])} |"
    )
    if r["name"] in wizard and ratio < 0.5:
        misses.append(f"{r['label']}: {ratio:.0%} of the baseline's requests/s (target ≥ 50%)")
    if p95 >= 50:
        misses.append(f"{r['label']}: p95 {p95:.1f} ms (target < 50 ms)")
    if r["requests"] == 0:
        misses.append(f"{r['label']}: no request completed")
    if r["errors"]:
        misses.append(f"{r['label']}: {r['errors']} errors (target 0)")
# Not under wrk (each view would need a save before it): the first view of a step after a
# save, when nothing about the new answers can have been kept yet.
if "step_get_after_save" in timing:
    lines.append(
        f"| wizard step GET, first view after a save (alone, no load) | | | | | | | "
        f"{queries.get('step_get_after_save', '')} | {alone('step_get_after_save')} |"
    )
lines += ["", "*ms alone*: median milliseconds per request served one at a time in-process "
          "(Django's test client, same settings and cookies, no load; `bench_http_setup`)."]
verdict = ["**Targets met.**"] if not misses else ["**Targets missed:**", ""] + [f"- {m}" for m in misses]

def sh(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()

cpu = re.search(r"model name\s*:\s*(.*)", open("/proc/cpuinfo").read())
wrk_version = " ".join(sh("wrk -v 2>&1 | head -n 1").split()[:2]).replace("debian/", "")
machine = [
    f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
    f"- CPU: {cpu.group(1) if cpu else platform.processor()}, `nproc` = {os.cpu_count()}",
    f"- memory (`free -h`): {' '.join(sh('free -h').splitlines()[1].split()[1:2])} total, {sh('free -h').splitlines()[1].split()[-1]} available",
    f"- OS: {platform.platform()}; Python {platform.python_version()}; "
    f"PostgreSQL {(sh('psql --version').split() + ['?'] * 3)[2]}; "
    f"Redis {(sh('redis-server --version').split() + ['?'] * 3)[2].replace('v=', '')}; {wrk_version}",
    f"- gunicorn: {os.environ['WORKERS']} sync workers (2 × cores); wrk: {os.environ['CONNECTIONS']} "
    f"connections on {os.environ['CONNECTIONS']} threads, {os.environ['DURATION']} per endpoint after a 2 s warm-up; "
    "load generator, server, PostgreSQL, Redis and the worker all share the machine",
    f"- load average when the run began (1, 5, 15 min): {os.environ['LOAD_BEFORE']}"
    + (" — **other work was using the cores: these figures are lower than an idle machine's**"
       if float(os.environ["LOAD_BEFORE"].split()[0]) > 0.5 else ""),
]
section = "\n".join(
    ["<!-- bench:start (written by `make bench`; edits here are overwritten) -->", "",
     "### Machine", "", *machine, "",
     "### HTTP load", "", *lines, "", *verdict, "",
     "### Engine (`make bench-engine`)", "", "```", os.environ["ENGINE_OUT"].strip(), "```", "",
     "### Reports (`make bench-reports`, COUNT=10)", "", "```", os.environ["REPORTS_OUT"].strip(), "```", "",
     "<!-- bench:end -->"]
)
print()
print("\n".join(lines))
print()
print("\n".join(verdict))
path = "docs/benchmarks.md"
text = open(path).read() if os.path.exists(path) else "# Benchmarks\n\n<!-- bench:start -->\n<!-- bench:end -->\n"
text = re.sub(r"<!-- bench:start.*?<!-- bench:end -->", lambda _: section, text, flags=re.S)
open(path, "w").write(text)
print(f"\nwritten to {path}")
PY
