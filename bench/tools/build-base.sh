#!/usr/bin/env bash
# Builds a baseline for an A/B run of bench/tools/cpu-per-turn.ts: the working tree as it is,
# except the given paths, which are taken as they were at <commit> (so others' uncommitted work
# is in both builds and only the change under test differs). Output: tmp/bench-dist-base.
#   bash bench/tools/build-base.sh <commit> <path>...
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source scripts/env.sh
commit="$1"
shift
src=tmp/base-src
rm -rf "$src" tmp/bench-dist-base
mkdir -p "$src"
cp -r apps libs tsconfig.base.json tsconfig.build.json package.json "$src"/
for path in "$@"; do
  rm -rf "${src:?}/$path"
  if git cat-file -e "$commit:$path" 2>/dev/null; then
    mkdir -p "$src/$path"
    git archive "$commit" "$path" | tar -x -C "$src" 2>/dev/null || true
  fi
done
npx tsc -p "$src/tsconfig.build.json" --outDir tmp/bench-dist-base
npx tsc-alias -p "$src/tsconfig.build.json" --outDir tmp/bench-dist-base
echo "built tmp/bench-dist-base"
