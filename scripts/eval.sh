#!/usr/bin/env bash
# The NL→SQL eval (evals/README.md).
#   bash scripts/eval.sh        every request of the public sets through the gateway with the
#                               configured LLM (LLM_BASE_URL … from the environment or .env, or a
#                               running deployment at EVAL_GATEWAY_URL); prints the summary and
#                               writes reports/eval-*.json and .md (git-ignored)
#   bash scripts/eval.sh --ci   the eval set's own checks (gold SQL runs on the demo DuckDB) and the
#                               scoring test: the built services with a scripted LLM (no real LLM
#                               needed; what CI runs)
#   bash scripts/eval.sh --linker [--chooser|--chooser-first|--chooser-last] [set…]
#                               the offline linker eval: the product's no-model path in process over
#                               duckdb-demo, duckdb-heldout, defog-dev, defog-heldout, spider-dev,
#                               spider-heldout (default: all);
#                               no build, no Redis, no LLM; seconds. The defog sets need
#                               DEFOG_SQL_EVAL_DIR and DEFOG_DATA_DIR, spider-dev and
#                               spider-heldout SPIDER_EVAL_DIR and MACHINE_SPIDER_DIR (evals/README.md);
#                               --chooser: the close calls go to the configured model as a chooser
#                               (embedded unless LLM_BASE_URL), figures on the items that reached one;
#                               --chooser-first/-last: always the first/last candidate (baselines)
#   bash scripts/eval.sh --probe DB 'request' ['request'…]
#                               a developer's look at how the no-model path reads each request over
#                               one database (demo, spider/<db> or defog/<db> with the variables above):
#                               outcome, SQL, doubts, assumptions, plan
#   bash scripts/eval.sh --sources [plans|requests]
#                               the cross-source eval over the demo split across DuckDB and PostgreSQL
#                               (POSTGRES_URL, else a throw-away cluster), against gold SQL on one
#                               combined DuckDB. `requests`: each natural-language request through the
#                               gateway and the services in a session over all sources, no model
#                               (reports/sources-requests-latest.{md,json}); `plans`: the items' typed
#                               plans split, run and combined in process (reports/sources-eval-latest.md).
#                               Default: both
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
export EVAL_DIST="${EVAL_DIST:-$PWD/tmp/eval-dist}"
build() {
  echo "[eval] building the services into $EVAL_DIST" >&2
  rm -rf "$EVAL_DIST"
  npx tsc -p tsconfig.build.json --outDir "$EVAL_DIST"
  npx tsc-alias -p tsconfig.build.json --outDir "$EVAL_DIST"
}
if [ "${1:-}" = "--ci" ]; then
  shift
  [ "${EVAL_SKIP_BUILD:-0}" = 1 ] || build
  exec npx jest -c evals/jest.config.js evals --selectProjects unit e2e --runInBand "$@"
fi
if [ -f .env ]; then set -a; source .env; set +a; fi
if [ "${1:-}" = "--linker" ]; then
  shift
  # --chooser: close calls go to the configured model as a chooser (MODEL_CHOOSES), see evals/README.md.
  # --chooser-first: the baseline a model must beat (always the first candidate, no model).
  if [ "${1:-}" = "--chooser" ]; then shift; export LINKER_EVAL_CHOOSER=1; fi
  if [ "${1:-}" = "--chooser-first" ]; then shift; export LINKER_EVAL_CHOOSER=first; fi
  if [ "${1:-}" = "--chooser-last" ]; then shift; export LINKER_EVAL_CHOOSER=last; fi
  dirty=$(git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo ', with uncommitted changes' || true)
  echo "[linker-eval] at $(git rev-parse --short HEAD 2>/dev/null || echo '?')$dirty" >&2
  LINKER_EVAL=1 LINKER_EVAL_SETS="$*" exec npx jest -c evals/jest.config.js evals/src/offline/linker-eval.spec.ts \
    --selectProjects unit --runInBand
fi
if [ "${1:-}" = "--probe" ]; then
  [ $# -ge 3 ] || { echo "usage: bash scripts/eval.sh --probe DB 'request' ['request'…]" >&2; exit 2; }
  export PROBE_DB="$2"
  shift 2
  PROBE=$(printf '%s\n' "$@") exec npx jest -c evals/jest.config.js evals/src/offline/probe.spec.ts \
    --selectProjects unit --runInBand --silent=false
fi
if [ "${1:-}" = "--sources" ]; then
  shift
  if [ -z "${POSTGRES_URL:-}" ]; then
    PG_ENV=$(bash tools/demo-data/start-postgres.sh) || { echo "[sources-eval] PostgreSQL could not be started" >&2; exit 1; }
    set -a; eval "$PG_ENV"; set +a
    trap 'eval "$POSTGRES_STOP" || true' EXIT
  fi
  which="${1:-both}"
  [ $# -gt 0 ] && shift
  case "$which" in plans|requests|both) ;; *) echo "usage: bash scripts/eval.sh --sources [plans|requests]" >&2; exit 2 ;; esac
  if [ "$which" != requests ]; then
    SOURCES_EVAL=1 npx jest -c evals/jest.config.js evals/src/sources/sources-eval.spec.ts --selectProjects unit --runInBand "$@"
  fi
  if [ "$which" != plans ]; then
    SOURCES_REQUESTS_EVAL=1 npx jest -c evals/jest.config.js evals/src/sources/sources-requests.e2e-spec.ts \
      --selectProjects e2e --runInBand "$@"
  fi
  exit 0
fi
if [ -z "${EVAL_GATEWAY_URL:-}" ] && [ "${EVAL_SKIP_BUILD:-0}" != 1 ]; then build; fi
mkdir -p reports
rm -f reports/eval-latest.md reports/eval-latest.json
RUN_EVAL=1 npx jest -c evals/jest.config.js evals/eval.e2e-spec.ts --selectProjects e2e --runInBand "$@"
echo
cat reports/eval-latest.md
