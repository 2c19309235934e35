#!/usr/bin/env bash
# The whole test suite on a bare machine: installs what it needs (Node 22, redis-server, npm
# packages), then runs static checks and the three test tiers. Jest's global setup starts a
# throw-away Redis for the integration and e2e tiers (or uses REDIS_URL when set).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/bootstrap.sh
source scripts/env.sh

step() { printf '\n== %s\n' "$*"; }

# Every tier writes a JSON report; the last line of the run (also after a failure) sums them up.
REPORTS="$ROOT/tmp/test-reports"
rm -rf "$REPORTS" && mkdir -p "$REPORTS"
summary() {
  rc=$?
  if [ -n "${POSTGRES_STOP:-}" ]; then eval "$POSTGRES_STOP" || true; fi
  printf '\n== summary\n'
  node tools/ci/summary.js "$REPORTS" unit integration e2e fuzz containers
  exit $rc
}
trap summary EXIT
# The container tier (the shipped Dockerfile and compose file, built and run: minutes) runs by
# default, CI included; CONTAINERS=0 skips it on a developer's machine, and the summary then names
# it under `not run`, as it does when no Docker daemon can run here. Never counted as passed unless run.
CONTAINER_TIER=$([ "${CONTAINERS:-1}" = 0 ] || echo 1)
jest_tier() { npx jest --selectProjects "$1" --json --outputFile="$REPORTS/$1.json" "${@:2}"; }

# PostgreSQL for the postgres target's tests: POSTGRES_URL when given, else a throw-away cluster
# from Debian's server package (installed when missing). Without one those cases skip, saying why.
if [ -z "${POSTGRES_URL:-}" ]; then
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    step "installing postgresql (Debian package)"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2 || true
  fi
  if PG_ENV=$(bash tools/demo-data/start-postgres.sh); then
    set -a; eval "$PG_ENV"; set +a
  else
    echo "PostgreSQL could not be started here; the postgres target's tests will be skipped" >&2
  fi
else
  step "containers: skipped (CONTAINERS=0)"
fi

# Debian's chromium for the web console's browser test (playwright-core drives it and downloads
# no browser of its own); without it that test fails saying so.
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  step "installing chromium (Debian package)"
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2 || true
fi

step "typecheck"
npm run --silent typecheck
step "lint"
npm run --silent lint
step "format"
npm run --silent format:check
step "unit tests"
jest_tier unit
step "integration tests (real Redis, real BullMQ, all services in-process)"
jest_tier integration --runInBand
step "build"
npm run --silent build
step "end-to-end tests (services as separate processes, HTTP only)"
jest_tier e2e --runInBand
step "fuzz (schemathesis, generated from the gateway's OpenAPI document)"
# The fuzz run is one check in the totals (its own line above counts its requests).
fuzz_report() { printf '{"numPassedTests":%d,"numFailedTests":%d,"numPendingTests":0}' "$1" "$2" >"$REPORTS/fuzz.json"; }
if FUZZ_SKIP_BUILD=1 bash scripts/fuzz.sh; then fuzz_report 1 0; else fuzz_report 0 1; exit 1; fi
if [ -n "$CONTAINER_TIER" ]; then
  step "containers (the shipped Dockerfile and docker-compose.yml, built and run)"
  # Exit 3: no Docker daemon can run here. No report is written, so the summary names the tier
  # as not run; it is never counted as passed.
  rc=0
  bash scripts/containers.sh "$REPORTS/containers.json" || rc=$?
  case $rc in
    0) ;;
    3) echo "container tier not run (see the line above)" ;;
    *)
      # A failure before the tier wrote its report still counts as a failure, never as not run.
      [ -f "$REPORTS/containers.json" ] ||
        printf '{"numPassedTests":0,"numFailedTests":1,"numPendingTests":0}' >"$REPORTS/containers.json"
      exit 1
      ;;
  esac
else
  step "containers: skipped (CONTAINERS=0); the summary lists the tier as not run"
fi
