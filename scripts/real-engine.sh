#!/usr/bin/env bash
# Builds and starts a real veloFlux Manager with an MQTT broker, for the opt-in real-engine suite
# and the veloFlux eval's output match (README.md, "Against a real veloFlux").
#
#   ENGINE_ENV=$(VELOFLUX_SRC=/path/to/veloFlux bash scripts/real-engine.sh) && set -a && eval "$ENGINE_ENV" && set +a
#   npx jest test/real-engine --selectProjects integration --runInBand
#   EVAL_ITEMS=vf-01,… bash scripts/eval.sh
#   eval "$REAL_ENGINE_STOP"
#
# VELOFLUX_SRC: a checkout of https://github.com/Yisaer/veloFlux (tested at a91221e). It is built
# with `cargo build --no-default-features --features allocator-system --bin veloflux` at low
# priority (CARGO_TARGET_DIR is honoured; ~10 min on 2 cores the first time, needs Debian's
# protobuf-compiler and m4). The broker is mosquitto when on PATH, else the repository's own
# (aedes). Prints, shell-quoted for eval: RUN_VELOFLUX, VELOFLUX_URL, EVAL_VELOFLUX_URL,
# VELOFLUX_DRY_RUN_BROKER_URL and REAL_ENGINE_STOP (stops both, deletes the engine's data).
# Everything else goes to stderr; logs stay in the printed temporary directory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh >/dev/null 2>&1

log() { printf 'real-engine: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

[[ -n "${VELOFLUX_SRC:-}" && -f "${VELOFLUX_SRC}/Cargo.toml" ]] || die "set VELOFLUX_SRC to a checkout of Yisaer/veloFlux"
command -v cargo >/dev/null 2>&1 || die "cargo not found (https://rustup.rs)"

TARGET_DIR="${CARGO_TARGET_DIR:-$VELOFLUX_SRC/target}"
log "building veloflux in $VELOFLUX_SRC (target $TARGET_DIR)"
(cd "$VELOFLUX_SRC" && CARGO_TARGET_DIR="$TARGET_DIR" CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-0}" \
  nice -n 19 cargo build -j "${CARGO_JOBS:-1}" --no-default-features --features allocator-system --bin veloflux >&2) ||
  die "the engine did not build"
BIN="$TARGET_DIR/debug/veloflux"

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

DIR="$(mktemp -d "${TMPDIR:-/tmp}/nl2p-veloflux.XXXXXX")"
PIDS=()
stop_all() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap 'rc=$?; if [[ $rc -ne 0 ]]; then stop_all; fi' EXIT

MQTT_PORT="$(free_port)"
if command -v mosquitto >/dev/null 2>&1; then
  printf 'listener %s 127.0.0.1\nallow_anonymous true\n' "$MQTT_PORT" >"$DIR/mosquitto.conf"
  mosquitto -c "$DIR/mosquitto.conf" >"$DIR/mqtt.log" 2>&1 &
else
  node -e "
    const aedes = require('aedes'); const broker = aedes.createBroker ? aedes.createBroker() : aedes();
    require('node:net').createServer(broker.handle).listen($MQTT_PORT, '127.0.0.1');" >"$DIR/mqtt.log" 2>&1 &
fi
PIDS+=($!)

ENGINE_PORT="$(free_port)"
printf 'profiling:\n  enabled: false\nserver:\n  manager_addr: "127.0.0.1:%s"\n  flow_instances:\n    - id: default\n      backend: in_process\n' \
  "$ENGINE_PORT" >"$DIR/veloflux.yaml"
"$BIN" --config "$DIR/veloflux.yaml" --data-dir "$DIR/data" >"$DIR/veloflux.log" 2>&1 &
PIDS+=($!)

URL="http://127.0.0.1:$ENGINE_PORT"
for _ in $(seq 1 100); do
  curl -fs "$URL/streams" >/dev/null 2>&1 && break
  kill -0 "${PIDS[1]}" 2>/dev/null || die "the engine exited: $(tail -5 "$DIR/veloflux.log")"
  sleep 0.2
done
curl -fs "$URL/streams" >/dev/null || die "the engine did not answer at $URL (log: $DIR/veloflux.log)"
log "engine at $URL, MQTT broker at tcp://127.0.0.1:$MQTT_PORT, logs in $DIR"

printf 'RUN_VELOFLUX=%q\n' 1
printf 'VELOFLUX_URL=%q\n' "$URL"
printf 'EVAL_VELOFLUX_URL=%q\n' "$URL"
printf 'VELOFLUX_DRY_RUN_BROKER_URL=%q\n' "tcp://127.0.0.1:$MQTT_PORT"
printf 'REAL_ENGINE_STOP=%q\n' "kill ${PIDS[*]} 2>/dev/null; sleep 1; rm -rf $DIR"
