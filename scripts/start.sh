#!/usr/bin/env bash
# Starts the whole product on this machine: installs what it needs, starts Redis when none is
# reachable, builds, and runs all six services as separate processes until Ctrl-C.
# Configuration comes from the environment (and .env when present); see README "Configuration".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
bash scripts/bootstrap.sh
source scripts/env.sh
if [ -f .env ]; then set -a; source .env; set +a; fi

export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export GATEWAY_HOST="${GATEWAY_HOST:-127.0.0.1}" GATEWAY_PORT="${GATEWAY_PORT:-3000}"
SERVICES=(validator router-llm sql-drafter explainer janitor gateway)
PIDS=()
LOG_DIR="$ROOT/tmp/logs"
mkdir -p "$LOG_DIR"

log() { printf '[start] %s\n' "$*" >&2; }

stop_all() {
  log "stopping services"
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ -n "${REDIS_PID_FILE:-}" ] && [ -f "$REDIS_PID_FILE" ]; then
    local rpid
    rpid="$(cat "$REDIS_PID_FILE")"
    # SIGTERM makes Redis flush its append-only file; wait until it is really gone.
    kill -TERM "$rpid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$rpid" 2>/dev/null || break; sleep 0.05; done
  fi
}
trap stop_all EXIT
trap 'exit 0' INT TERM

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

redis_host_port() { node -e 'const u=new URL(process.argv[1]);console.log(`${u.hostname} ${u.port||6379}`)' "$REDIS_URL"; }
read -r RHOST RPORT < <(redis_host_port)
if ! redis-cli -h "$RHOST" -p "$RPORT" ping >/dev/null 2>&1; then
  if [ "$RHOST" != 127.0.0.1 ] && [ "$RHOST" != localhost ]; then
    log "Redis at $REDIS_URL is not reachable"; exit 1
  fi
  # Append-only persistence so sessions survive a Redis restart.
  REDIS_DIR="$ROOT/data/redis-$RPORT"
  mkdir -p "$REDIS_DIR"
  REDIS_PID_FILE="$REDIS_DIR/redis.pid"
  redis-server --port "$RPORT" --bind 127.0.0.1 --dir "$REDIS_DIR" --appendonly yes \
    --daemonize yes --pidfile "$REDIS_PID_FILE" --logfile "$LOG_DIR/redis.log"
  for _ in $(seq 1 50); do redis-cli -p "$RPORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
  log "started redis-server on 127.0.0.1:$RPORT (append-only data in $REDIS_DIR)"
fi

log "building"
npm run --silent build

# The embedded default target: DuckDB with the demo dataset, created on first start.
export TARGET="${TARGET:-duckdb}" DUCKDB_PATH="${DUCKDB_PATH:-$ROOT/data/demo.duckdb}"
mkdir -p "$(dirname "$DUCKDB_PATH")"
node dist/libs/engine/src/duckdb/demo-data-cli.js "$DUCKDB_PATH" >&2

for svc in "${SERVICES[@]}"; do
  node "dist/apps/$svc/src/main.js" >>"$LOG_DIR/$svc.log" 2>&1 &
  PIDS+=("$!")
done

URL="http://$GATEWAY_HOST:$GATEWAY_PORT"
for _ in $(seq 1 100); do
  curl -fs "$URL/health" >/dev/null 2>&1 && break
  for pid in "${PIDS[@]}"; do
    if ! kill -0 "$pid" 2>/dev/null; then log "a service exited at start; see $LOG_DIR"; tail -n 20 "$LOG_DIR"/*.log >&2; exit 1; fi
  done
  sleep 0.2
done
curl -fs "$URL/health" >/dev/null || { log "gateway did not become healthy; see $LOG_DIR"; exit 1; }

# Mirrors LLM_PROVIDER=auto in libs/infra/config: the OpenAI-compatible server when configured.
if [ "${LLM_PROVIDER:-auto}" = local ] || { [ "${LLM_PROVIDER:-auto}" = auto ] && [ -z "${LLM_BASE_URL:-}" ]; }; then
  LLM_INFO="local model ${LOCAL_MODEL_PATH:-models/SmolLM2-135M-Instruct.Q4_1.gguf} (in-process, CPU)
             (for an OpenAI-compatible server set LLM_BASE_URL, LLM_API_KEY, LLM_MODEL)"
else
  LLM_INFO="${LLM_BASE_URL:-http://127.0.0.1:11434/v1} model ${LLM_MODEL:-gpt-4o-mini} (OpenAI-compatible)"
fi

cat <<INFO
nl2pipeline is running.
  gateway:   $URL   (OpenAPI: $URL/openapi.json, docs: $URL/docs)
  console:   $URL/console/   (in a browser)
  target:    $TARGET $( [ "$TARGET" = duckdb ] && echo "(embedded, demo data in $DUCKDB_PATH)" ) ${VELOFLUX_URL:+(veloFlux Manager at $VELOFLUX_URL)}
  LLM:       $LLM_INFO
  logs:      $LOG_DIR
Press Ctrl-C to stop.
INFO
wait -n "${PIDS[@]}" || true
log "a service exited; stopping the rest"
