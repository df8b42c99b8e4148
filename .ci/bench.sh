#!/usr/bin/env bash
# `make bench`: the production shape under load, on this machine, in one run.
#   gunicorn (WORKERS, default 2 x cores, sync) + PostgreSQL + Redis + one Celery worker,
#   wrk with CONNECTIONS (16) concurrent clients for DURATION (10s) per endpoint, loopback only.
# Prints requests/s, p50/p95/p99, errors, SQL queries and in-process milliseconds per page
# against three references measured in the same window: a bare Django view, an authenticated
# one-row page, and a conventional django-formtools wizard over the product's organisation
# step (the peer; advisor/bench_peer.py). Then the engine and report benchmarks; writes it all
# into docs/benchmarks.md. The references are routed by the bench settings only
# (DJANGO_SETTINGS_MODULE=advisor.bench_settings, which needs the dev dependencies).
source "$(dirname "$0")/lib.sh"

CONNECTIONS="${CONNECTIONS:-16}"
DURATION="${DURATION:-10s}"
WORKERS="${WORKERS:-$((2 * $(nproc)))}"
BENCH_PORT="${BENCH_PORT:-8089}"
DB_NAME="${BENCH_DB_NAME:-advisor_bench_http}"
# Other work on the machine shares the cores with the load: recorded with the results.
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"

ensure_venv
apt_install wrk fonts-noto-cjk libharfbuzz-subset0
services_up
ensure_database "$DB_NAME"
# The report benchmark's database: the default one unless BENCH_REPORTS_DB_NAME names another.
REPORTS_DATABASE_URL="$DATABASE_URL" REPORTS_REDIS_URL="$REDIS_URL"
if [ -n "${BENCH_REPORTS_DB_NAME:-}" ]; then
  ensure_database "$BENCH_REPORTS_DB_NAME"
  REPORTS_DATABASE_URL="${DATABASE_URL%/*}/$BENCH_REPORTS_DB_NAME"
fi
export DATABASE_URL="${DATABASE_URL%/*}/$DB_NAME"
# Redis databases of its own (bench-reports uses 3), so no other worker takes these tasks.
export REDIS_URL="${REDIS_URL%/*}/${BENCH_REDIS_DB:-4}"

# Production settings, except plain HTTP on the loopback interface.
export DEBUG=false SECRET_KEY="bench-$(python3 -c 'import secrets; print(secrets.token_urlsafe(30))')"
export SECURE_SSL_REDIRECT=false SESSION_COOKIE_SECURE=false CSRF_COOKIE_SECURE=false
export SECURE_HSTS_SECONDS=0 SECURE_HSTS_INCLUDE_SUBDOMAINS=false SECURE_HSTS_PRELOAD=false
export ALLOWED_HOSTS=127.0.0.1,localhost CACHE_KEY_PREFIX=bench-http LOG_LEVEL=WARNING
# The bare page every endpoint is compared with; off (not routed) outside benchmarks.
export BENCH_BASELINE=true
# The bench urlconf adds the authenticated one-row page and the formtools peer.
export DJANGO_SETTINGS_MODULE=advisor.bench_settings
export VAR_DIR="$ROOT/var/bench-http"
mkdir -p "$VAR_DIR"
compile_messages
say "migrating $DB_NAME, collecting static files"
python manage.py migrate -v0
python manage.py collectstatic --noinput -v0

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
celery -A advisor worker --pool=solo --queues=celery,pdf --without-gossip --without-mingle --without-heartbeat \
  -l warning >"$VAR_DIR/worker.log" 2>&1 &
PIDS+=($!)
python manage.py healthcheck --worker --timeout 30 >/dev/null

# Before gunicorn starts, so that its workers' start-up does not share the cores with the
# in-process timing (the worker is idle once the report and its PDF are done).
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
PEER_COOKIES="$(setup 'd["peer"]["cookies"]')"
# Every gunicorn worker serves every page a few times before anything is measured: a page's
# first request in a process compiles its templates (crispy-forms' pack has dozens), which on
# a busy machine takes seconds and would otherwise land in a 2 s warm-up or the measurement.
prime() {  # path cookie
  seq $((WORKERS * 4)) | xargs -P "$WORKERS" -I{} curl -sS -o /dev/null -H "Cookie: $2" \
    "http://127.0.0.1:$BENCH_PORT$1" || true
}
say "priming every page in every gunicorn worker"
prime "$(setup 'd["urls"]["baseline"]')" ""
prime "$(setup 'd["urls"]["authenticated"]')" "$COOKIE"
prime "$(setup 'd["peer"]["path"]')" "${PEER_COOKIES%%|*}"
prime "$(setup 'd["urls"]["step_get"]')" "$COOKIE"
prime "$(setup 'd["urls"]["dashboard"]')" "$COOKIE"
prime "$(setup 'd["urls"]["shared"]')" ""
measure baseline "bare Django view (baseline)" 200 get "$(setup 'd["urls"]["baseline"]')"
measure authenticated "authenticated one-row page (reference)" 200 get "$(setup 'd["urls"]["authenticated"]')"
COOKIE="$PEER_COOKIES" measure peer_get "peer: formtools wizard step GET (reference)" 200 get "$(setup 'd["peer"]["path"]')"
measure step_get "wizard step GET" 200 get "$(setup 'd["urls"]["step_get"]')"
measure step_post "wizard step POST (valid, Next)" 302 post "$(setup 'd["post"]["paths"][0]')" \
  "$(setup '",".join(d["post"]["paths"])')" "$(setup '",".join(map(str, d["post"]["versions"]))')" \
  "$(setup 'd["post"]["body"]')"
COOKIE="$PEER_COOKIES" measure peer_post "peer: formtools wizard step POST (valid, next; reference)" 302 form \
  "$(setup 'd["peer"]["path"]')" "$(setup 'd["peer"]["body"]')"
measure dashboard "dashboard" 200 get "$(setup 'd["urls"]["dashboard"]')"
COOKIE="" measure shared "shared report page (anonymous)" 200 get "$(setup 'd["urls"]["shared"]')"
cleanup
PIDS=()

say "engine benchmark"
ENGINE_OUT="$(python -m advisor.engine.bench 2>&1)"
echo "$ENGINE_OUT"
say "report benchmark (COUNT=${REPORT_COUNT:-10}, through a real worker)"
REPORTS_OUT="$(DATABASE_URL="$REPORTS_DATABASE_URL" REDIS_URL="${REPORTS_REDIS_URL%/*}/${REPORTS_REDIS_DB:-3}" \
  VAR_DIR="$ROOT/var/bench" COUNT="${REPORT_COUNT:-10}" bash .ci/bench-reports.sh 2>&1 | grep -v '^.\[1;34m==>')"
echo "$REPORTS_OUT"

REPORT_COUNT="${REPORT_COUNT:-10}" LOAD_BEFORE="$LOAD_BEFORE" ENGINE_OUT="$ENGINE_OUT" REPORTS_OUT="$REPORTS_OUT" WORKERS="$WORKERS" CONNECTIONS="$CONNECTIONS" \
  DURATION="$DURATION" python3 - "$RESULTS" "$VAR_DIR/setup.json" <<'PY'
import json, os, platform, re, subprocess, sys, datetime

rows = [json.loads(line) for line in open(sys.argv[1])]
setup = json.load(open(sys.argv[2]))
queries, timing = setup["queries"], setup.get("timing", {})
base = next(r for r in rows if r["name"] == "baseline")
rps = lambda r: r["requests"] / (r["duration_us"] / 1e6)
alone = lambda name: f"{timing[name]['ms']:.1f}" if name in timing else ""
wizard = {"step_get", "step_post"}
references = {"baseline", "authenticated", "peer_get", "peer_post"}
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
    if p95 >= 50 and r["name"] not in references:
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

# The product's wizard step against each reference, measured in the same window: its speed
# over the reference's (requests/s ÷ requests/s; the reference's ms ÷ the product's ms).
by = {r["name"]: r for r in rows}
ms = lambda name: timing.get(name, {}).get("ms")
cpu_ms = lambda name: timing.get(name, {}).get("cpu_ms")
TARGETS = {("step_get", "peer_get"): 1.5, ("step_post", "peer_post"): 1.0}
ratios = [
    "| product step | requests/s | × peer | × authenticated page | × bare view | ms alone (CPU) | "
    "× peer (ms) | × peer (CPU ms) | × authenticated page (ms) | × bare view (ms) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
]
for name, peer, label in (("step_get", "peer_get", "GET"), ("step_post", "peer_post", "POST (valid, Next)")):
    if name not in by:
        continue
    cells = [label, f"{rps(by[name]):,.0f}"]
    for ref in (peer, "authenticated", "baseline"):
        cells.append(f"{rps(by[name]) / rps(by[ref]):.2f}× ({rps(by[ref]):,.0f}/s)" if ref in by and rps(by[ref]) else "–")
    cells.append(f"{ms(name):.1f} ({cpu_ms(name):.1f})" if ms(name) else "–")
    cells.append(f"{ms(peer) / ms(name):.2f}× ({ms(peer):.1f} ms)" if ms(peer) and ms(name) else "–")
    cells.append(f"{cpu_ms(peer) / cpu_ms(name):.2f}× ({cpu_ms(peer):.1f} ms)" if cpu_ms(peer) and cpu_ms(name) else "–")
    for ref in ("authenticated", "baseline"):
        cells.append(f"{ms(ref) / ms(name):.2f}× ({ms(ref):.1f} ms)" if ms(ref) and ms(name) else "–")
    ratios.append("| " + " | ".join(cells) + " |")
    target = TARGETS[(name, peer)]
    if peer in by and rps(by[peer]) and rps(by[name]) / rps(by[peer]) < target:
        misses.append(f"{by[name]['label']}: {rps(by[name]) / rps(by[peer]):.2f}× the peer's requests/s (target ≥ {target}×)")
    if ms(peer) and ms(name) and ms(peer) / ms(name) < target:
        misses.append(f"{by[name]['label']}: {ms(peer) / ms(name):.2f}× the peer's speed in-process, {ms(name):.1f} vs {ms(peer):.1f} ms (target ≥ {target}×)")
ratios += ["", "Each ratio is the product's speed over the reference's, measured in the same run: "
           "requests/s ÷ the reference's requests/s, and the reference's ms alone ÷ the product's "
           "(wall clock; CPU ms, the process's own time, moves less when other work shares the "
           "cores); above 1 is faster than the reference. Targets: GET ≥ 1.5× and POST ≥ 1.0× the peer. "
           "The peer is a django-formtools `NamedUrlSessionWizardView` over the same organisation "
           "step form (`advisor/bench_peer.py`); the authenticated page reads the session, the user "
           "and one row (`advisor/bench_views.py`)."]
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
    f"connections on {os.environ['CONNECTIONS']} threads, {os.environ['DURATION']} per endpoint after priming every page in every worker and a 2 s warm-up; "
    "load generator, server, PostgreSQL, Redis and the worker all share the machine",
    f"- load average when the run began (1, 5, 15 min): {os.environ['LOAD_BEFORE']}"
    + (" — **other work was using the cores: these figures are lower than an idle machine's**"
       if float(os.environ["LOAD_BEFORE"].split()[0]) > 0.5 else ""),
]
section = "\n".join(
    ["<!-- bench:start (written by `make bench`; edits here are overwritten) -->", "",
     "### Machine", "", *machine, "",
     "### HTTP load", "", *lines, "",
     "### The wizard step against the peer and the authenticated page", "", *ratios, "", *verdict, "",
     "### Engine (`make bench-engine`)", "", "```", os.environ["ENGINE_OUT"].strip(), "```", "",
     f"### Reports (`make bench-reports`, COUNT={os.environ.get('REPORT_COUNT') or 10})", "", "```", os.environ["REPORTS_OUT"].strip(), "```", "",
     "<!-- bench:end -->"]
)
print()
print("\n".join(lines))
print()
print("\n".join(ratios))
print()
print("\n".join(verdict))
path = "docs/benchmarks.md"
text = open(path).read() if os.path.exists(path) else "# Benchmarks\n\n<!-- bench:start -->\n<!-- bench:end -->\n"
text = re.sub(r"<!-- bench:start.*?<!-- bench:end -->", lambda _: section, text, flags=re.S)
open(path, "w").write(text)
print(f"\nwritten to {path}")
PY
