#!/usr/bin/env bash
# Starts the whole product on this machine: installs what it needs (bootstrap), builds, then runs
# the launcher (apps/start: Redis when none is reachable, the demo database, all six services as
# separate processes) until Ctrl-C. Configuration comes from the environment (and .env when
# present); see README "Configuration".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/bootstrap.sh
source scripts/env.sh
if [ -f .env ]; then set -a; source .env; set +a; fi

# Local use without keys: say it loudly, every start.
if [ -z "${API_KEYS:-}" ] && [ -z "${AUTH_DISABLED:-}" ]; then
  export AUTH_DISABLED=true
  cat >&2 <<'WARN'
################################################################################
#  AUTH IS OFF: no API_KEYS configured, so anyone who can reach the gateway    #
#  can use it. Fine on your own machine; for anything else set                 #
#  API_KEYS=tenant:<sha256 of key>,... (see README "Authentication").          #
################################################################################
WARN
fi

printf '[start] building\n' >&2
npm run --silent build
exec node dist/apps/start/src/main.js "$@"
