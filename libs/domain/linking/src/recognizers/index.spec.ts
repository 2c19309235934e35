import { readdirSync } from 'node:fs';
import { LINK_RULES } from '.';

describe('LINK_RULES', () => {
  it('names each recognizer once, after its file', () => {
    const names = LINK_RULES.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    const files = readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
    for (const name of names) expect(files).toContain(`${name}.ts`);
  });

  it('has a corpus next to every recognizer', () => {
    const specs = readdirSync(__dirname).filter((f) => f.endsWith('.spec.ts'));
    for (const r of LINK_RULES) expect(specs).toContain(`${r.name}.spec.ts`);
  });
});
