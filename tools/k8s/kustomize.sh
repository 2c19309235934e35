#!/usr/bin/env bash
# Runs kustomize (pinned v5.5.0): the project's own copy in .tools/bin, else one on PATH, else
# kubectl's built-in one (`kubectl kustomize` = `kustomize build`), else installs the pinned
# version from the Go module proxy into .tools/bin (needs Go; a few minutes, once).
#   tools/k8s/kustomize.sh build deploy/k8s/overlays/prod
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VERSION=v5.5.0
OWN="$ROOT/.tools/bin/kustomize"
if [ -x "$OWN" ]; then exec "$OWN" "$@"; fi
if command -v kustomize >/dev/null 2>&1; then exec kustomize "$@"; fi
if [ "${1:-}" = build ] && command -v kubectl >/dev/null 2>&1; then
  shift
  exec kubectl kustomize "$@"
fi
if command -v go >/dev/null 2>&1; then
  echo "installing kustomize $VERSION into .tools/bin (go install)" >&2
  GOBIN="$ROOT/.tools/bin" go install "sigs.k8s.io/kustomize/kustomize/v5@$VERSION" >&2
  exec "$OWN" "$@"
fi
echo "kustomize not found: install kubectl, kustomize, or Go (then this script installs kustomize $VERSION)" >&2
exit 127
