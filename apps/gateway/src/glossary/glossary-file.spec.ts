import type { GlossaryEntry } from '@nl2p/envelope';
import { GlossaryFileError, readGlossaryFile, writeGlossaryFile } from './glossary-file';

const FILE = `# our words
terms:
  revenue: { table: orders, expr: quantity * (unit_price - 1) }
  hot:
    table: readings
    condition: temperature >= -5.5
  shipped ones: { table: orders, column: status, value: shipped }
  temp: { table: readings, column: temperature }
  clients: { table: customers }
`;

function lineOfError(text: string): number {
  try {
    readGlossaryFile(text);
  } catch (err) {
    if (err instanceof GlossaryFileError) return err.line;
    throw err;
  }
  throw new Error('the file was read');
}

describe('the glossary file', () => {
  it('reads every kind of meaning', () => {
    expect(readGlossaryFile(FILE)).toEqual([
      {
        term: 'revenue',
        means: {
          kind: 'expr',
          table: 'orders',
          expr: {
            kind: 'arith',
            op: '*',
            left: { kind: 'column', ref: { column: 'quantity' } },
            right: {
              kind: 'arith',
              op: '-',
              left: { kind: 'column', ref: { column: 'unit_price' } },
              right: { kind: 'number', value: 1 },
            },
          },
        },
      },
      {
        term: 'hot',
        means: {
          kind: 'condition',
          table: 'readings',
          where: {
            kind: 'compare',
            left: { kind: 'column', ref: { column: 'temperature' } },
            op: '>=',
            value: { kind: 'number', value: -5.5 },
          },
        },
      },
      { term: 'shipped ones', means: { kind: 'value', table: 'orders', column: 'status', value: 'shipped' } },
      { term: 'temp', means: { kind: 'column', table: 'readings', column: 'temperature' } },
      { term: 'clients', means: { kind: 'table', table: 'customers' } },
    ]);
  });

  it('writes what it reads back to the same meanings', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const entries: GlossaryEntry[] = readGlossaryFile(FILE).map((t) => ({
      ...t,
      tenant: 'acme',
      created_by: 'acme',
      created_at: at,
      updated_at: at,
    }));
    const written = writeGlossaryFile(entries);
    expect(written).toContain('expr: quantity * (unit_price - 1)');
    expect(readGlossaryFile(written)).toEqual(readGlossaryFile(FILE));
  });

  it.each([
    ['a YAML syntax error', 'terms:\n  a: { table: t\n  b: 1\n', 3],
    ['a term given twice', 'terms:\n  a: { table: t }\n  a: { table: u }\n', 3],
    ['an unknown field', 'terms:\n  a:\n    table: t\n    colum: x\n', 4],
    ['an unreadable expression', 'terms:\n  a: { table: t }\n  b:\n    table: t\n    expr: x ** 2\n', 5],
    ['a meaning without its table', 'terms:\n  a: { table: t }\n  b: { column: x }\n', 3],
    ['an unknown top-level key', 'version: 1\nterms: {}\n', 1],
    ['a value without its column', 'terms:\n\n  a:\n    table: t\n    value: x\n', 5],
  ])('names the line of %s', (_what, text, line) => {
    expect(lineOfError(text)).toBe(line);
  });
});
