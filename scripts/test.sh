#!/usr/bin/env bash
# The whole test suite on a bare machine: installs what it needs (Node 22, redis-server, npm
# packages), then runs static checks and the three test tiers. Jest's global setup starts a
# throw-away Redis for the integration and e2e tiers (or uses REDIS_URL when set).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/bootstrap.sh
source scripts/env.sh

step() { printf '\n== %s\n' "$*"; }

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
