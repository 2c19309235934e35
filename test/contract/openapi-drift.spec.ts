import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata';
import { previewOpenApiDocument } from '../../apps/gateway/src/openapi/preview-document';

const CLIENT = join(__dirname, '../../libs/contracts/gateway-client');
const REGENERATE = 'run `npm run openapi` and commit the result';

// The typed client is generated from a committed copy of the document; both must be what the
// controllers and view schemas say now, or every client is typed against an API that is gone.
describe('the committed OpenAPI document and the generated client types', () => {
  it('are what the gateway’s controllers and view schemas produce', async () => {
    const committed: unknown = JSON.parse(readFileSync(join(CLIENT, 'openapi.json'), 'utf8'));
    const current: unknown = JSON.parse(JSON.stringify(await previewOpenApiDocument()));
    if (JSON.stringify(current) !== JSON.stringify(committed)) {
      expect({ document: current, hint: REGENERATE }).toEqual({ document: committed, hint: REGENERATE });
    }
  }, 30_000);

  it('types are what openapi-typescript writes from the committed document', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-ts-'));
    try {
      const out = join(dir, 'openapi.ts');
      const bin = join(__dirname, '../../node_modules/.bin/openapi-typescript');
      const args = [join(CLIENT, 'openapi.json'), '--output', out, '--root-types', '--root-types-no-schema-prefix'];
      execFileSync(bin, args, { stdio: 'pipe' });
      expect(readFileSync(out, 'utf8') === readFileSync(join(CLIENT, 'src/openapi.ts'), 'utf8') || REGENERATE).toBe(
        true,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
