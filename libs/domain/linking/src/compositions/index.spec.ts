import { readdirSync } from 'node:fs';
import { COMPOSITIONS } from '.';

describe('COMPOSITIONS', () => {
  it('names each composition once, after its file, with a corpus next to it', () => {
    const names = COMPOSITIONS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    const files = readdirSync(__dirname);
    for (const name of names) expect(files).toEqual(expect.arrayContaining([`${name}.ts`, `${name}.spec.ts`]));
  });
});
