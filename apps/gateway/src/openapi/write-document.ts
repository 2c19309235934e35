import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { previewOpenApiDocument } from './preview-document';

// Writes the gateway's OpenAPI document to the path given (scripts/openapi.sh), from which the
// typed client is generated.
async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) throw new Error('usage: write-document.ts <openapi.json>');
  writeFileSync(out, `${JSON.stringify(await previewOpenApiDocument(), null, 2)}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
