# Shared shell helpers for the Makefile targets and .ci/run. Sourced, not executed.
# shellcheck shell=bash
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# runuser and the PostgreSQL tools may live in sbin, which a minimal PATH leaves out.
case ":$PATH:" in *:/usr/sbin:*) ;; *) export PATH="$PATH:/usr/sbin:/sbin" ;; esac
export UV_PYTHON_DOWNLOADS="${UV_PYTHON_DOWNLOADS:-automatic}"
[ "${CI:-}" = "true" ] && export UV_PYTHON_DOWNLOADS=never
SERVICES_DIR="${SERVICES_DIR:-${TMPDIR:-/tmp}/advisor-services-$(id -u)}"
PG_PORT="${PG_PORT:-54329}"
REDIS_PORT="${REDIS_PORT:-63799}"

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }
die() { printf '\033[1;31mxx\033[0m %s\n' "$*" >&2; exit 1; }
warn() { printf '\033[1;33m!!\033[0m %s\n' "$*" >&2; }

can_install() { [ "$(id -u)" = 0 ] || command -v sudo >/dev/null 2>&1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

APT_UPDATED=""
apt_install() {
  # Installs Debian/Ubuntu packages that are missing, when this user may.
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 || die "missing system packages: ${missing[*]} (install them with your package manager)"
  can_install || die "missing system packages: ${missing[*]} (run as root or with sudo to install them)"
  say "installing system packages: ${missing[*]}"
  if [ -z "$APT_UPDATED" ]; then as_root apt-get update -qq >/dev/null; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

find_python() {
  # Python >= 3.12: on PATH, else a pyenv build (its shims may exit 127 without PYENV_VERSION).
  local candidates=(python3.12 python3.13 python3)
  for c in "${candidates[@]}"; do
    if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
      command -v "$c"; return 0
    fi
  done
  local root; root="$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"
  for p in "$root"/versions/3.12*/bin/python3 "$root"/versions/3.13*/bin/python3; do
    [ -x "$p" ] && { echo "$p"; return 0; }
  done
  echo ""
}

ensure_uv() {
  if command -v uv >/dev/null 2>&1; then UV="$(command -v uv)"; return 0; fi
  if [ -x "$ROOT/var/tools/bin/uv" ]; then UV="$ROOT/var/tools/bin/uv"; return 0; fi
  say "installing uv into var/tools"
  local py; py="$(command -v python3)" || die "python3 is needed to bootstrap uv"
  "$py" -m venv "$ROOT/var/tools" || { apt_install python3-venv; "$py" -m venv "$ROOT/var/tools"; }
  "$ROOT/var/tools/bin/pip" install -q uv
  UV="$ROOT/var/tools/bin/uv"
}

ensure_venv() {
  ensure_uv
  local py; py="$(find_python)"
  say "syncing the environment from uv.lock"
  if [ -n "$py" ]; then
    "$UV" sync --frozen -q --python "$py"
  else
    "$UV" sync --frozen -q --python 3.12
  fi
  export PATH="$ROOT/.venv/bin:$PATH"
}

compile_messages() {
  command -v msgfmt >/dev/null 2>&1 || apt_install gettext
  # Settings load with DEBUG on unless the caller set it (no SECRET_KEY is needed to compile).
  DEBUG="${DEBUG:-true}" python manage.py compilemessages -v0 --ignore=.venv
}

pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/pg_ctl" ] && echo "$d"; done | sort -V | tail -n 1
}

services_up() {
  # PostgreSQL and Redis on their own ports, data under $SERVICES_DIR; reused when already up.
  apt_install postgresql redis-server
  mkdir -p "$SERVICES_DIR"
  local bin; bin="$(pg_bin)"; [ -n "$bin" ] || die "PostgreSQL binaries not found"
  local pgdata="$SERVICES_DIR/pg" run_as=()
  if [ "$(id -u)" = 0 ]; then
    # PostgreSQL refuses to run as root.
    run_as=(runuser -u postgres --)
    chown postgres "$SERVICES_DIR"; chmod 755 "$SERVICES_DIR"
  fi
  if [ ! -s "$pgdata/PG_VERSION" ]; then
    say "initialising PostgreSQL in $pgdata"
    "${run_as[@]}" "$bin/initdb" -D "$pgdata" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
  fi
  if ! "${run_as[@]}" "$bin/pg_ctl" -D "$pgdata" status >/dev/null 2>&1; then
    say "starting PostgreSQL on 127.0.0.1:$PG_PORT"
    "${run_as[@]}" "$bin/pg_ctl" -D "$pgdata" -l "$SERVICES_DIR/pg.log" -w -t 30 start \
      -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $SERVICES_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >/dev/null
  fi
  "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "SELECT 1 FROM pg_roles WHERE rolname='advisor'" | grep -q 1 \
    || "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE ROLE advisor LOGIN CREATEDB PASSWORD 'advisor'"
  "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='advisor'" | grep -q 1 \
    || "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE advisor OWNER advisor"
  if ! redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then
    say "starting Redis on 127.0.0.1:$REDIS_PORT"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
      --dir "$SERVICES_DIR" --pidfile "$SERVICES_DIR/redis.pid" --logfile "$SERVICES_DIR/redis.log"
    for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
  fi
  export DATABASE_URL="postgres://advisor:advisor@127.0.0.1:$PG_PORT/advisor"
  export REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
}

ensure_database() {
  # A database of its own on the services_up server (benchmarks and load runs keep theirs apart).
  local bin; bin="$(pg_bin)"
  "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$1'" | grep -q 1 \
    || "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE $1 OWNER advisor"
}

services_down() {
  local bin; bin="$(pg_bin)"
  if [ -n "$bin" ] && [ -d "$SERVICES_DIR/pg" ]; then
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$bin/pg_ctl" -D "$SERVICES_DIR/pg" -m fast stop || true
    else "$bin/pg_ctl" -D "$SERVICES_DIR/pg" -m fast stop || true; fi
  fi
  redis-cli -p "$REDIS_PORT" shutdown nosave 2>/dev/null || true
}
