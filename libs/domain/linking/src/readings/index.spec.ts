import { readdirSync } from 'node:fs';
import { READING_RULES } from '.';

describe('READING_RULES', () => {
  it('names each reading once, after its file', () => {
    const names = READING_RULES.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    const files = readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
    for (const name of names) expect(files).toContain(`${name}.ts`);
  });

  it('has a corpus next to every reading', () => {
    const specs = readdirSync(__dirname).filter((f) => f.endsWith('.spec.ts'));
    for (const r of READING_RULES) expect(specs).toContain(`${r.name}.spec.ts`);
  });
});
