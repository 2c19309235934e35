#!/usr/bin/env bash
# Regenerates the gateway's OpenAPI document and the typed client's types from it
# (libs/contracts/gateway-client). Run after changing a controller, a DTO or a view schema;
# libs/contracts/gateway-client/src/generated.spec.ts fails until you do.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
out=libs/contracts/gateway-client
node -r ./test/support/register-ts.js apps/gateway/src/openapi/write-document.ts "$out/openapi.json"
openapi-typescript "$out/openapi.json" --output "$out/src/openapi.ts" --root-types --root-types-no-schema-prefix >/dev/null
echo "wrote $out/openapi.json and $out/src/openapi.ts"
