#!/usr/bin/env bash
# The container tier: builds the product image from the shipped Dockerfile, runs the shipped
# docker-compose.yml, checks it, and tears it down. `scripts/test.sh` runs it when CONTAINERS=1.
#
#   bash scripts/containers.sh [REPORT.json]
#
# Exit status: 0 passed, 1 failed, 3 NOT RUN (no Docker daemon can run here; one line says why).
# The last line of output is the summary: `containers: passed|FAILED|not run …` with its figures.
#
# What it does, installing what is missing (root, Debian packages, the Go module proxy):
#   1. a Docker daemon: the running one, else Debian's `docker.io` dockerd started here (plain;
#      if that does not come up, again with `--iptables=false --bridge=none`, then with the
#      `vfs` storage driver) and stopped at the end;
#   2. Compose v2 (`docker compose`): the installed plugin, else built from the Go module proxy
#      (github.com/docker/compose/v2) into the CLI plugin directory;
#   3. base images: pulled when a registry answers, else stand-ins built offline
#      (test/containers/standins: Debian bookworm minbase from mmdebstrap, Node 22 and npm from
#      the npm registry), tagged with the names the Dockerfile and docker-compose.yml use.
#      Built stand-ins stay in the daemon's image store, so a second run on the same machine
#      skips that step; a fresh machine builds them the same way;
#   4. the product image from the shipped Dockerfile (BuildKit; the machine's CA bundle only as
#      the `ca` build secret, when present);
#   5. the shipped docker-compose.yml as it is (no override: with the stand-ins tagged as the
#      images it names, nothing in it needs changing offline), then the checks, then
#      `docker compose down -v`.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
source scripts/env.sh
REPORT=${1:-}
WORK="$ROOT/tmp/containers"
mkdir -p "$WORK"
NOT_RUN=3
PROJECT=nl2p-containers
STARTED_DOCKERD=
declare -A FIG=()
PASSED=0
FAILED=0

say() { printf '[containers] %s\n' "$*" >&2; }
now() { date +%s; }
report() { # passed failed
  if [ -n "$REPORT" ]; then
    printf '{"numPassedTests":%d,"numFailedTests":%d,"numPendingTests":0}\n' "$1" "$2" >"$REPORT"
  fi
}
figures() {
  local out=""
  for k in image_mb build_s healthy_s turn_ms; do [ -n "${FIG[$k]:-}" ] && out+=" $k=${FIG[$k]}"; done
  printf '%s' "$out"
}
not_run() {
  stop_daemon
  echo "containers: not run — $*"
  exit $NOT_RUN
}
stop_daemon() {
  if [ -n "$STARTED_DOCKERD" ]; then
    kill "$STARTED_DOCKERD" 2>/dev/null && for _ in $(seq 30); do kill -0 "$STARTED_DOCKERD" 2>/dev/null || break; sleep 1; done
    STARTED_DOCKERD=
  fi
}
check() { # name, command…: one counted check
  local name=$1
  shift
  if "$@"; then
    PASSED=$((PASSED + 1))
    say "ok   $name"
  else
    FAILED=$((FAILED + 1))
    say "FAIL $name"
  fi
}
apt_install() {
  [ "$(id -u)" = 0 ] || return 1
  say "installing $* (Debian packages)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"; } >"$WORK/apt.log" 2>&1
}

# --- 1. the daemon ------------------------------------------------------------------------------
if ! command -v dockerd >/dev/null 2>&1; then
  apt_install docker.io || not_run "no dockerd, and Debian's docker.io could not be installed (see $WORK/apt.log)"
fi
# The Docker CLI that builds: BuildKit is needed for the CA build secret. A CLI of 23+ builds
# through the buildx plugin; without it, Debian's 20.10 CLI (/usr/bin/docker) has BuildKit inside.
DOCKER=docker
if ! docker buildx version >/dev/null 2>&1 && [ -x /usr/bin/docker ]; then DOCKER=/usr/bin/docker; fi
export DOCKER_BUILDKIT=1

start_dockerd() {
  dockerd "$@" >"$WORK/dockerd.log" 2>&1 &
  STARTED_DOCKERD=$!
  for _ in $(seq 60); do
    docker info >/dev/null 2>&1 && return 0
    kill -0 "$STARTED_DOCKERD" 2>/dev/null || break
    sleep 1
  done
  stop_daemon
  return 1
}
if ! docker info >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || not_run "no Docker daemon answers and this user cannot start one"
  # Plain first (it runs here: overlay2, iptables); the fallbacks are for kernels without
  # iptables/bridges (sandboxes) or without overlayfs.
  say "starting dockerd"
  start_dockerd ||
    start_dockerd --iptables=false --bridge=none ||
    start_dockerd --iptables=false --bridge=none --storage-driver=vfs ||
    not_run "dockerd does not start here: $(grep -m1 -iE 'level=(fatal|error)' "$WORK/dockerd.log" | cut -c1-200)"
fi
trap 'stop_daemon' EXIT

# --- 2. Compose v2 ------------------------------------------------------------------------------
COMPOSE_VERSION=v2.32.4
if ! docker compose version >/dev/null 2>&1; then
  command -v go >/dev/null 2>&1 || apt_install golang-go || true
  PLUGINS=/usr/local/lib/docker/cli-plugins
  say "building Compose $COMPOSE_VERSION from the Go module proxy (a few minutes, once per machine)"
  mkdir -p "$PLUGINS" "$WORK/gobin"
  if GOBIN="$WORK/gobin" go install "github.com/docker/compose/v2/cmd@$COMPOSE_VERSION" >"$WORK/compose-build.log" 2>&1; then
    install -m 0755 "$WORK/gobin/cmd" "$PLUGINS/docker-compose"
  fi
  docker compose version >/dev/null 2>&1 || not_run "no Compose v2 (the Go build failed: $WORK/compose-build.log)"
fi

# --- 3. base images -----------------------------------------------------------------------------
ensure_image() { # image, builder function
  if docker image inspect "$1" >/dev/null 2>&1; then return 0; fi
  if timeout 60 docker pull -q "$1" >/dev/null 2>&1; then return 0; fi
  say "no registry for $1: building its stand-in (test/containers/standins)"
  "$2" "$1"
}
STANDINS="$ROOT/test/containers/standins"
standin_bookworm() {
  command -v mmdebstrap >/dev/null 2>&1 || apt_install mmdebstrap || return 1
  mmdebstrap --variant=minbase --include=ca-certificates bookworm "$WORK/bookworm.tar" >"$WORK/mmdebstrap.log" 2>&1 &&
    docker import "$WORK/bookworm.tar" "$1" >/dev/null && rm -f "$WORK/bookworm.tar"
}
standin_node() {
  ensure_image nl2p-standin/bookworm:minbase standin_bookworm || return 1
  local ctx="$WORK/node-ctx"
  rm -rf "$ctx" && mkdir -p "$ctx"
  cp "$(command -v node)" "$ctx/node"
  (cd "$ctx" && npm pack -q npm@10 >/dev/null && mkdir npm && tar -xzf npm-*.tgz -C npm --strip-components=1 && rm npm-*.tgz) || return 1
  $DOCKER build -q --network host -t "$1" -f "$STANDINS/node.Dockerfile" "$ctx" >/dev/null
}
standin_redis() {
  ensure_image nl2p-standin/bookworm:minbase standin_bookworm || return 1
  $DOCKER build -q --network host -t "$1" -f "$STANDINS/redis.Dockerfile" "$STANDINS" >/dev/null
}
standin_tool() { # image: Jaeger's or Prometheus's stand-in
  local role=otlp-receiver
  case "$1" in prom/*) role=prometheus ;; esac
  $DOCKER build -q --network host --build-arg STANDIN=$role -t "$1" -f "$STANDINS/tools.Dockerfile" "$STANDINS" >/dev/null
}
t0=$(now)
ensure_image node:22-bookworm-slim standin_node || not_run "no base image node:22-bookworm-slim and its stand-in did not build"
for img in $(grep -E '^\s+image:' docker-compose.yml | awk '{print $2}' | grep -v '^nl2pipeline'); do
  case "$img" in
    redis:*) ensure_image "$img" standin_redis ;;
    *) ensure_image "$img" standin_tool ;;
  esac || not_run "no image $img and its stand-in did not build"
done
say "base images ready ($(($(now) - t0)) s)"

# --- 4. the product image -----------------------------------------------------------------------
SECRET=()
CA=${NODE_EXTRA_CA_CERTS:-${SSL_CERT_FILE:-}}
[ -n "$CA" ] && [ -s "$CA" ] && SECRET=(--secret "id=ca,src=$CA")
say "building nl2pipeline:local from the shipped Dockerfile${SECRET:+ (CA bundle as the ca build secret)}"
t0=$(now)
if ! $DOCKER build --network host "${SECRET[@]}" -t nl2pipeline:local . >"$WORK/build.log" 2>&1; then
  tail -20 "$WORK/build.log" >&2
  report 0 1
  echo "containers: FAILED — the image did not build (see $WORK/build.log)"
  exit 1
fi
FIG[build_s]=$(($(now) - t0))
FIG[image_mb]=$(($(docker image inspect -f '{{.Size}}' nl2pipeline:local) / 1000000))
say "image built in ${FIG[build_s]} s, ${FIG[image_mb]} MB"

# --- 5. compose up and the checks --------------------------------------------------------------
KEY="containers-$(date +%s)-$RANDOM"
export API_KEYS="ci:$(printf %s "$KEY" | sha256sum | cut -d' ' -f1)"
# The embedded model: the project's models/ (scripts/bootstrap.sh fetched it).
export NL2P_MODELS_DIR="$ROOT/models"
COMPOSE=(docker compose -p "$PROJECT" -f docker-compose.yml)
down() { "${COMPOSE[@]}" down -v --remove-orphans >"$WORK/down.log" 2>&1; }
trap 'down; stop_daemon' EXIT
down

t0=$(now)
"${COMPOSE[@]}" up -d --no-build --wait --wait-timeout 300 >"$WORK/up.log" 2>&1
up_rc=$?
FIG[healthy_s]=$(($(now) - t0))
all_healthy() {
  local bad
  bad=$("${COMPOSE[@]}" ps -a --format '{{.Service}} {{.Health}} {{.State}}' | awk '$2 != "healthy" {print}')
  [ -z "$bad" ] || {
    say "not healthy: $bad"
    return 1
  }
}
check "compose up --wait: every service healthy" test "$up_rc" = 0
check "all $("${COMPOSE[@]}" ps -a -q | wc -l) containers healthy" all_healthy
if [ "$up_rc" != 0 ]; then "${COMPOSE[@]}" logs --tail 30 >"$WORK/logs.txt" 2>&1; fi

# One turn through the gateway, its preview against a gold query run on the same demo file.
turn_out=$(KEY=$KEY node test/containers/turn.js 2>"$WORK/turn.err")
turn_rc=$?
say "turn: $turn_out"
FIG[turn_ms]=$(sed -n 's/.*turn_ms=\([0-9]*\).*/\1/p' <<<"$turn_out")
gold=$("${COMPOSE[@]}" exec -T gateway node -e "
  const { DuckDBInstance } = require('@duckdb/node-api');
  DuckDBInstance.create('data/demo.duckdb', { access_mode: 'READ_ONLY' })
    .then((i) => i.connect()).then((c) => c.runAndReadAll('SELECT count(*)::INTEGER AS n FROM orders'))
    .then((r) => console.log(r.getRows()[0][0]));" 2>>"$WORK/turn.err")
check "a turn reaches need_confirm with preview rows" test "$turn_rc" = 0
check "its preview matches the gold query (orders: $gold)" grep -q "rows=\[\[$gold\]\]" <<<"$turn_out"

# Traces: the stand-in collector lists the services that sent spans (batches leave every 5 s).
sleep 8
traced=$(curl -s http://127.0.0.1:16686/api/services)
say "traced services: $traced"
# A turn the reader links conclusively runs on the gateway, validator and explainer (the plan is
# compiled on the validator): router-llm and sql-drafter take no part, so 4 of 6 is the most.
traces_ok() { for s in gateway validator explainer janitor; do grep -q "\"$s\"" <<<"$traced" || return 1; done; }
check "the trace collector got spans from gateway, validator, explainer, janitor" traces_ok
targets_up() {
  local up
  up=$(curl -s http://127.0.0.1:9090/api/v1/targets | grep -o '"health":"up"' | wc -l)
  say "Prometheus targets up: $up"
  [ "$up" -ge 6 ]
}
check "Prometheus scrapes all six services" targets_up

# Redis stopped and started again (append-only file on the redis-data volume): the session stays.
session=$(sed -n 's/^session=\([^ ]*\).*/\1/p' <<<"$turn_out")
"${COMPOSE[@]}" stop redis >>"$WORK/up.log" 2>&1
"${COMPOSE[@]}" start redis >>"$WORK/up.log" 2>&1
check "Redis restarted: the session is kept" env KEY="$KEY" node test/containers/turn.js session "$session"
"${COMPOSE[@]}" logs --no-color >"$WORK/logs.txt" 2>&1

down
check "compose down -v leaves nothing" test -z "$(docker ps -aq --filter label=com.docker.compose.project=$PROJECT)$(docker volume ls -q --filter label=com.docker.compose.project=$PROJECT)"
stop_daemon
trap - EXIT

report "$PASSED" "$FAILED"
if [ "$FAILED" = 0 ]; then
  echo "containers: passed $PASSED checks —$(figures)"
else
  echo "containers: FAILED $FAILED of $((PASSED + FAILED)) checks —$(figures) (logs in $WORK)"
  exit 1
fi
