# Two commands for a newcomer: `make run` and `make test`. The rest are helpers.
.DEFAULT_GOAL := help
SHELL := /bin/bash

.PHONY: help run test quick lint fmt services services-down messages shell clean bench bench-engine bench-reports bench-pages load fuzz audit calibration

help:  ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-15s %s\n", $$1, $$2}'

run:  ## Set up and run the product on SQLite + filesystem broker, with a worker
	@bash .ci/serve.sh

test:  ## Lint, type-check and run every test against real PostgreSQL, Redis, worker, Chromium
	@bash .ci/test.sh

quick:  ## Inner loop: engine and database-free unit tests, no browser/worker/Schemathesis (< 1 min)
	@bash .ci/quick.sh $(ARGS)

lint:  ## ruff, no issue numbers in comments, mypy, import-linter and the migrations check only
	@source .ci/lib.sh && ensure_venv && ruff check . && ruff format --check . && python .ci/no_issue_refs.py && DEBUG=true mypy advisor accounts && lint-imports && DEBUG=true python manage.py makemigrations --check --dry-run

fmt:  ## Format and autofix with ruff
	@source .ci/lib.sh && ensure_venv && ruff format . && ruff check --fix .

bench:  ## Load benchmark: gunicorn + PostgreSQL + Redis + worker under wrk, vs a bare view, an authenticated page and a formtools peer; writes docs/benchmarks.md
	@bash .ci/bench.sh

bench-engine:  ## Engine speed: median ms per assessment, seconds to re-score 10,000
	@source .ci/lib.sh && ensure_venv && python -m advisor.engine.bench

bench-reports:  ## Reports through a real worker: p50/p95 generation and submit-to-done (COUNT=20)
	@bash .ci/bench-reports.sh

bench-pages:  ## The slowest pages one at a time: median/p95 ms, CPU ms, queries (REPEAT=30, PROFILE=n)
	@bash .ci/bench-pages.sh

load:  ## Simulated people (Locust, headless) in steps: how many the box holds at p95 < 300 ms; writes docs/benchmarks.md
	@bash .ci/load.sh

audit:  ## Generated teams through the engine and report, every invariant counted (AUDIT_TEAMS=2000, AUDIT_SEED); writes docs/audit.md
	@source .ci/lib.sh && ensure_venv && compile_messages && python -m advisor.audit.run

calibration:  ## The engine's speed against independent models and published runs; writes docs/calibration.md
	@source .ci/lib.sh && ensure_venv && DEBUG=true python -m advisor.calibration

fuzz:  ## Hypothesis against every wizard step and the API with 10,000 examples each
	@FUZZ_EXAMPLES=10000 API_FUZZ_EXAMPLES=10000 bash .ci/test.sh tests/advisor/test_wizard_fuzz.py tests/api/test_api.py -k random

services:  ## Start PostgreSQL and Redis on private ports and print their URLs
	@source .ci/lib.sh && services_up && echo "DATABASE_URL=$$DATABASE_URL" && echo "REDIS_URL=$$REDIS_URL"

services-down:  ## Stop the PostgreSQL and Redis that `make services` started
	@source .ci/lib.sh && services_down

messages:  ## Update the zh-Hant message catalog from the source
	@source .ci/lib.sh && ensure_venv && DEBUG=true python manage.py makemessages -l zh_Hant --ignore=.venv --ignore=var --no-obsolete

shell:  ## Django shell on the embedded default
	@source .ci/lib.sh && ensure_venv && DEBUG=true python manage.py shell

clean:  ## Remove the virtualenv, the SQLite database and var/
	rm -rf .venv var db.sqlite3 db.sqlite3-*
