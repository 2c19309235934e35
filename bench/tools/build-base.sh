#!/usr/bin/env bash
# Builds a baseline for an A/B run of bench/tools/cpu-per-turn.ts (or of the whole bench, with
# BENCH_DIST=tmp/bench-dist-base BENCH_SKIP_BUILD=1): the working tree as it is, with the given
# commits taken back (their diffs to apps/ and libs/ reverse-applied, newest first), so others'
# work is in both builds and only the change under test differs. BASE_FIXUP, if set, is run in
# the copy afterwards (e.g. to take back a line someone else committed). Output:
# tmp/bench-dist-base.
#   bash bench/tools/build-base.sh <commit>...
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source scripts/env.sh
src=tmp/base-src
rm -rf "$src" tmp/bench-dist-base
mkdir -p "$src"
cp -r apps libs tsconfig.base.json tsconfig.build.json package.json "$src"/
for commit in $(git rev-list --no-walk=sorted "$@"); do
  # From the repository root with --directory: run inside the copy, git would skip every path.
  git show --format= "$commit" -- apps libs | git apply -R --directory="$src"
done
if [ -n "${BASE_FIXUP:-}" ]; then (cd "$src" && bash -c "$BASE_FIXUP"); fi
npx tsc -p "$src/tsconfig.build.json" --outDir tmp/bench-dist-base
npx tsc-alias -p "$src/tsconfig.build.json" --outDir tmp/bench-dist-base
echo "built tmp/bench-dist-base"
