#!/usr/bin/env bash
# The container tier: builds the product image from the shipped Dockerfile, runs the shipped
# docker-compose.yml, checks it, and tears it down. `scripts/test.sh` runs it by default
# (CONTAINERS=0 skips it, and the test summary then lists it under `not run`).
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
#      (github.com/docker/compose/v2) into the CLI plugin directory, in the background while the
#      images build (it is needed only to run them);
#   3. base images: pulled when a registry answers, else stand-ins built offline
#      (test/containers/standins: Debian bookworm minbase from mmdebstrap, Node 22 and npm from
#      the npm registry), tagged with the names the Dockerfile and docker-compose.yml use.
#      Built stand-ins stay in the daemon's image store, labelled with a hash of the files they
#      were built from: a second run on the same machine skips them unless those files changed;
#      a fresh machine builds them the same way;
#   4. the product image from the shipped Dockerfile (BuildKit; the machine's CA bundle only as
#      the `ca` build secret, when present), built beside the Redis, Jaeger and Prometheus
#      stand-ins once the Node base exists;
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
COMPOSE_BUILD=
declare -A FIG=()
PASSED=0
FAILED=0
T_START=$(date +%s)

say() { printf '[containers] %s\n' "$*" >&2; }
now() { date +%s; }
report() { # passed failed
  if [ -n "$REPORT" ]; then
    printf '{"numPassedTests":%d,"numFailedTests":%d,"numPendingTests":0}\n' "$1" "$2" >"$REPORT"
  fi
}
figures() {
  local out=""
  for k in image_mb build_s healthy_s turn_ms drafter_turn_ms restart_s traced_services jaeger tier_s; do
    [ -n "${FIG[$k]:-}" ] && out+=" $k=${FIG[$k]}"
  done
  printf '%s' "$out"
}
not_run() {
  stop_all
  echo "containers: not run — $*"
  exit $NOT_RUN
}
stop_all() {
  # The background Compose build: its `go` process, then the subshell that waits on it.
  if [ -n "$COMPOSE_BUILD" ]; then pkill -P "$COMPOSE_BUILD" 2>/dev/null; kill "$COMPOSE_BUILD" 2>/dev/null; COMPOSE_BUILD=; fi
  stop_daemon
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

# --- 1. what is missing, in one apt run (apt takes one lock at a time) ---------------------------
COMPOSE_VERSION=v2.32.4
missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
# Go builds Compose and the Jaeger stand-in (Debian's is older than they need; a newer `go` on
# PATH, as on this machine kind, is used when present).
command -v go >/dev/null 2>&1 || missing+=(golang-go)
command -v mmdebstrap >/dev/null 2>&1 || missing+=(mmdebstrap)
if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}" || say "apt could not install ${missing[*]} (see $WORK/apt.log)"; fi
command -v dockerd >/dev/null 2>&1 || not_run "no dockerd, and Debian's docker.io could not be installed (see $WORK/apt.log)"

# --- 2. Compose v2, built in the background (CPU-bound; the image builds wait on the network) ---
build_compose() {
  local plugins=/usr/local/lib/docker/cli-plugins
  mkdir -p "$plugins" "$WORK/gobin"
  GOBIN="$WORK/gobin" go install "github.com/docker/compose/v2/cmd@$COMPOSE_VERSION" >"$WORK/compose-build.log" 2>&1 &&
    install -m 0755 "$WORK/gobin/cmd" "$plugins/docker-compose"
}
if ! docker compose version >/dev/null 2>&1 && command -v go >/dev/null 2>&1; then
  say "building Compose $COMPOSE_VERSION from the Go module proxy in the background (minutes, once per machine)"
  build_compose &
  COMPOSE_BUILD=$!
fi

# --- 3. the daemon ------------------------------------------------------------------------------
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
trap 'stop_all' EXIT
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

# --- 4. base images and the product image -------------------------------------------------------
STANDINS="$ROOT/test/containers/standins"
# A stand-in is labelled with the hash of the files it was built from; one whose files changed is
# rebuilt. A pulled (real) image has no such label and is always kept.
standin_hash() { [ $# -eq 0 ] || (cd "$STANDINS" && sha256sum "$@" | sha256sum | cut -c1-16); }
ensure_image() { # image, builder function, the stand-in files it is built from…
  local image=$1 builder=$2 want label
  want=$(standin_hash "${@:3}")
  if docker image inspect "$image" >/dev/null 2>&1; then
    label=$(docker image inspect -f '{{index .Config.Labels "nl2p.standin"}}' "$image" 2>/dev/null)
    case "$label" in "" | "<no value>" | "$want") return 0 ;; esac
    say "the stand-in $image was built from other files: rebuilding it"
  elif timeout 60 docker pull -q "$image" >/dev/null 2>&1; then
    return 0
  fi
  say "no registry for $image: building its stand-in (test/containers/standins)"
  "$builder" "$image" --label "nl2p.standin=$want"
}
standin_bookworm() {
  command -v mmdebstrap >/dev/null 2>&1 || return 1
  mmdebstrap --variant=minbase --include=ca-certificates bookworm "$WORK/bookworm.tar" >"$WORK/mmdebstrap.log" 2>&1 &&
    docker import "$WORK/bookworm.tar" "$1" >/dev/null && rm -f "$WORK/bookworm.tar"
}
standin_node() { # image, build flags…
  ensure_image nl2p-standin/bookworm:minbase standin_bookworm || return 1
  local ctx="$WORK/node-ctx"
  rm -rf "$ctx" && mkdir -p "$ctx"
  cp "$(command -v node)" "$ctx/node"
  (cd "$ctx" && npm pack -q npm@10 >/dev/null && mkdir npm && tar -xzf npm-*.tgz -C npm --strip-components=1 && rm npm-*.tgz) || return 1
  $DOCKER build -q --network host "${@:2}" -t "$1" -f "$STANDINS/node.Dockerfile" "$ctx" >"$WORK/standin-node.log" 2>&1
}
standin_redis() {
  ensure_image nl2p-standin/bookworm:minbase standin_bookworm || return 1
  $DOCKER build -q --network host "${@:2}" -t "$1" -f "$STANDINS/redis.Dockerfile" "$STANDINS" >"$WORK/standin-redis.log" 2>&1
}
standin_tool() { # image (Jaeger's or Prometheus's stand-in), build flags…
  local role=otlp-receiver
  case "$1" in prom/*) role=prometheus ;; esac
  $DOCKER build -q --network host "${@:2}" --build-arg STANDIN=$role -t "$1" -f "$STANDINS/tools.Dockerfile" "$STANDINS" \
    >"$WORK/standin-$role.log" 2>&1
}
go_binary() { # name module version package: builds it from the Go module proxy into $WORK/go-NAME
  local src="$WORK/go-src-$1" dir
  # `go install module@version` refuses modules whose go.mod has replace directives (Jaeger's,
  # Prometheus's do): the module's source is fetched, then built in a writable copy.
  dir=$(GOFLAGS=-mod=mod go mod download -json "$2@$3" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  [ -n "$dir" ] || return 1
  rm -rf "$src" && cp -r "$dir" "$src" && chmod -R u+w "$src"
  (cd "$src" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$WORK/go-$1" "./$4")
}
standin_jaeger() { # image, build flags…: Jaeger all-in-one itself, built from its Go module
  local version=v${1##*:} ctx="$WORK/jaeger-ctx" t0
  command -v go >/dev/null 2>&1 || return 1
  say "building Jaeger all-in-one $version from the Go module proxy (minutes, once per machine)"
  t0=$(now)
  go_binary jaeger github.com/jaegertracing/jaeger "$version" cmd/all-in-one >"$WORK/jaeger-build.log" 2>&1 || return 1
  say "Jaeger built in $(($(now) - t0)) s"
  rm -rf "$ctx" && mkdir -p "$ctx" && mv "$WORK/go-jaeger" "$ctx/all-in-one-linux" && rm -rf "$WORK/go-src-jaeger"
  $DOCKER build -q --network host "${@:2}" -t "$1" -f "$STANDINS/jaeger.Dockerfile" "$ctx" >"$WORK/standin-jaeger.log" 2>&1
}
ensure_jaeger() { # Jaeger itself; if its Go build fails, the OTLP receiver stand-in, saying so
  ensure_image "$1" standin_jaeger jaeger.Dockerfile && return 0
  say "Jaeger could not be built (see $WORK/jaeger-build.log): its OTLP receiver stand-in is used instead"
  FIG[jaeger]=standin
  ensure_image "$1" standin_tool tools.Dockerfile otlp-receiver.js prometheus.js
}
ensure_compose_images() { # redis, Jaeger and Prometheus (whatever docker-compose.yml names)
  local img
  for img in $(grep -E '^\s+image:' docker-compose.yml | awk '{print $2}' | grep -v '^nl2pipeline'); do
    case "$img" in
      redis:*) ensure_image "$img" standin_redis redis.Dockerfile ;;
      jaegertracing/*) ensure_jaeger "$img" ;;
      *) ensure_image "$img" standin_tool tools.Dockerfile otlp-receiver.js prometheus.js ;;
    esac || {
      say "no image $img and its stand-in did not build"
      return 1
    }
  done
}
build_product() { # writes its build time to $WORK/build_s
  local secret=() ca=${NODE_EXTRA_CA_CERTS:-${SSL_CERT_FILE:-}} t0
  [ -n "$ca" ] && [ -s "$ca" ] && secret=(--secret "id=ca,src=$ca")
  say "building nl2pipeline:local from the shipped Dockerfile${secret:+ (CA bundle as the ca build secret)}"
  t0=$(now)
  $DOCKER build --network host "${secret[@]}" -t nl2pipeline:local . >"$WORK/build.log" 2>&1 || return 1
  echo $(($(now) - t0)) >"$WORK/build_s"
}
build_failed() {
  report 0 1
  echo "containers: FAILED — $*"
  exit 1
}

t0=$(now)
ensure_image node:22-bookworm-slim standin_node node.Dockerfile ||
  not_run "no base image node:22-bookworm-slim and its stand-in did not build"
say "Node base ready ($(($(now) - t0)) s)"
# The product image and the other stand-ins only share the Node base: built side by side.
build_product &
product=$!
FIG[jaeger]=real
ensure_compose_images || not_run "a base image of docker-compose.yml is missing and its stand-in did not build"
if ! wait $product; then
  tail -20 "$WORK/build.log" >&2
  build_failed "the image did not build (see $WORK/build.log)"
fi
FIG[build_s]=$(cat "$WORK/build_s")
FIG[image_mb]=$(($(docker image inspect -f '{{.Size}}' nl2pipeline:local) / 1000000))
say "images ready ($(($(now) - t0)) s); the product image built in ${FIG[build_s]} s, ${FIG[image_mb]} MB"
if [ -n "$COMPOSE_BUILD" ]; then
  say "waiting for the Compose build"
  wait "$COMPOSE_BUILD"
  COMPOSE_BUILD=
fi
docker compose version >/dev/null 2>&1 || not_run "no Compose v2 (the Go build failed: $WORK/compose-build.log)"

# --- 5. compose up and the checks --------------------------------------------------------------
KEY="containers-$(date +%s)-$RANDOM"
export API_KEYS="ci:$(printf %s "$KEY" | sha256sum | cut -d' ' -f1)"
# The embedded model: the project's models/ (scripts/bootstrap.sh fetched it).
export NL2P_MODELS_DIR="$ROOT/models"
COMPOSE=(docker compose -p "$PROJECT" -f docker-compose.yml)
down() { "${COMPOSE[@]}" down -v --remove-orphans >"$WORK/down.log" 2>&1; }
trap 'down; stop_all' EXIT
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
check "a turn reaches need_confirm with preview rows, and is confirmed" test "$turn_rc" = 0
check "its preview matches the gold query (orders: $gold)" grep -q "rows=\[\[$gold\]\]" <<<"$turn_out"

# A turn the reader cannot settle goes through router-llm and sql-drafter (the embedded model
# drafts); sql-drafter is restarted while it drafts, and the turn must still complete.
drafter_out=$(KEY=$KEY node test/containers/turn.js drafter "${COMPOSE[@]}" restart sql-drafter 2>>"$WORK/turn.err")
drafter_rc=$?
say "drafter turn: $drafter_out"
FIG[drafter_turn_ms]=$(sed -n 's/.*turn_ms=\([0-9]*\).*/\1/p' <<<"$drafter_out")
FIG[restart_s]=$(sed -n 's/.*restart_s=\([0-9.]*\).*/\1/p' <<<"$drafter_out")
check "sql-drafter restarted mid-draft: the turn still reaches need_confirm, drafted there, and is confirmed" \
  test "$drafter_rc" = 0

# Traces: the collector's copy of the drafter turn's trace (Jaeger's query API; batches leave
# every 5 s). The turn runs on gateway, router-llm, sql-drafter, validator and explainer.
trace_services() { # trace id → the services with spans in it, one per line
  curl -s "http://127.0.0.1:16686/api/traces/$1" |
    node -e 'let s="";process.stdin.on("data",(c)=>(s+=c)).on("end",()=>{const t=JSON.parse(s).data?.[0];
      for (const p of new Set(Object.values(t?.processes??{}).map((p)=>p.serviceName))) console.log(p)})'
}
traced_ok() {
  local trace services
  trace=$(sed -n 's/.*trace=\([0-9a-f]*\).*/\1/p' <<<"$drafter_out")
  [ -n "$trace" ] || return 1
  for _ in $(seq 10); do
    services=$(trace_services "$trace" | sort | tr '\n' ' ')
    [ "$(wc -w <<<"$services")" -ge 5 ] && break
    sleep 3
  done
  FIG[traced_services]=$(wc -w <<<"$services")
  say "the drafter turn's trace $trace at the collector: spans from $services"
  [ "${FIG[traced_services]}" -ge 5 ]
}
check "the trace collector has the turn's trace with spans from at least five services" traced_ok
targets_up() {
  local up
  # The restarted sql-drafter serves /metrics once its model is loaded, and is seen up at the
  # next scrape after that: up to a minute.
  for _ in $(seq 12); do
    up=$(curl -s http://127.0.0.1:9090/api/v1/targets | grep -o '"health":"up"' | wc -l)
    [ "$up" -ge 6 ] && break
    sleep 5
  done
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
stop_all
trap - EXIT
FIG[tier_s]=$(($(now) - T_START))

report "$PASSED" "$FAILED"
if [ "$FAILED" = 0 ]; then
  echo "containers: passed $PASSED checks —$(figures)"
else
  echo "containers: FAILED $FAILED of $((PASSED + FAILED)) checks —$(figures) (logs in $WORK)"
  exit 1
fi
