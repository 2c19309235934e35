#!/usr/bin/env bash
# The bench (bench/README.md): builds the services into tmp/bench-dist (its own copy, so a
# rebuild of dist/ during the run cannot disturb it), runs every section in one Jest run against a
# throw-away Redis (or REDIS_URL), prints the Markdown report and leaves it, with its JSON, in
# reports/ (git-ignored). BENCH_QUICK=1 runs a short version to check the bench itself.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
export BENCH_DIST="${BENCH_DIST:-$PWD/tmp/bench-dist}"
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
  echo "[bench] building the services into $BENCH_DIST" >&2
  rm -rf "$BENCH_DIST"
  npx tsc -p tsconfig.build.json --outDir "$BENCH_DIST"
  npx tsc-alias -p tsconfig.build.json --outDir "$BENCH_DIST"
fi
out="${BENCH_OUT_DIR:-reports}"
mkdir -p "$out"
rm -f "$out/bench-latest.md" "$out/bench-latest.json"
RUN_BENCH=1 npx jest -c bench/jest.config.js bench/bench.e2e-spec.ts --selectProjects e2e --runInBand "$@"
echo
cat "$out/bench-latest.md"
