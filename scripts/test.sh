#!/usr/bin/env bash
# The whole test suite on a bare machine: installs what it needs (Node 22, redis-server, npm
# packages), then runs static checks and the three test tiers. Jest's global setup starts a
# throw-away Redis for the integration and e2e tiers (or uses REDIS_URL when set).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/bootstrap.sh
source scripts/env.sh

step() { printf '\n== %s\n' "$*"; }

# PostgreSQL for the postgres target's tests: POSTGRES_URL when given, else a throw-away cluster
# from Debian's server package (installed when missing). Without one those cases skip, saying why.
if [ -z "${POSTGRES_URL:-}" ]; then
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    step "installing postgresql (Debian package)"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2 || true
  fi
  if PG_ENV=$(bash tools/demo-data/start-postgres.sh); then
    set -a; eval "$PG_ENV"; set +a
    trap 'eval "$POSTGRES_STOP"' EXIT
  else
    echo "PostgreSQL could not be started here; the postgres target's tests will be skipped" >&2
  fi
fi

step "typecheck"
npm run --silent typecheck
step "lint"
npm run --silent lint
step "format"
npm run --silent format:check
step "unit tests"
npx jest --selectProjects unit
step "integration tests (real Redis, real BullMQ, all services in-process)"
npx jest --selectProjects integration --runInBand
step "build"
npm run --silent build
step "end-to-end tests (services as separate processes, HTTP only)"
npx jest --selectProjects e2e --runInBand
step "fuzz (schemathesis, generated from the gateway's OpenAPI document)"
FUZZ_SKIP_BUILD=1 bash scripts/fuzz.sh
