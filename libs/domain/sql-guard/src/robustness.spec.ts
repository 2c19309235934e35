import { VELOFLUX_FUNCTIONS } from './__fixtures__/contract';
import { assertSingleSelect, UnsafeSqlError } from './single-select';
import { prevalidate } from './prevalidate';
import type { Grounding, SqlDialect } from './types';

/** Small seeded PRNG (mulberry32), so a failure reproduces. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  'SELECT',
  'FROM',
  's',
  'a',
  'b',
  'WHERE',
  'GROUP BY',
  'ORDER BY',
  'HAVING',
  'AS',
  'x',
  '*',
  ',',
  '(',
  ')',
  '[',
  ']',
  "'",
  "''",
  '"',
  '`',
  '--',
  '/*',
  '*/',
  ';',
  '\n',
  '\r',
  '->',
  '->>',
  '||',
  '::',
  '=',
  '>',
  '+',
  '-',
  '.',
  '$$',
  '$1',
  'DROP',
  'DELETE',
  'WITH',
  'INSERT INTO',
  'tumblingwindow(',
  "'ss'",
  '10',
  '1.5',
  'IS NULL',
  'LIKE',
  'CASE',
  'WHEN',
  'THEN',
  'END',
  'OVER',
  'PARTITION BY',
  'FILTER',
  'count(*)',
  'avg(a)',
  'é',
  '温度',
  '🚀',
  '\u00a0',
  '\u0000',
  '\u2028',
  '\\',
  'E',
  'JOIN',
  'UNION',
  'SELECT a FROM s',
  'location->lat',
  'INTERVAL',
  'CAST(',
  'NULLS LAST',
  '{',
  '}',
  ':',
];

function randomSql(rand: () => number): string {
  const length = 1 + Math.floor(rand() * 25);
  const parts: string[] = [];
  for (let i = 0; i < length; i++) parts.push(PIECES[Math.floor(rand() * PIECES.length)] ?? '');
  return parts.join(rand() < 0.8 ? ' ' : '');
}

const grounding = (dialect: SqlDialect): Grounding => ({
  dialect,
  streams: ['s'],
  stream: 's',
  columns: [
    { name: 'a', data_type: 'int64' },
    { name: 'b', data_type: 'string' },
    { name: 'location', data_type: 'struct', fields: [{ name: 'lat', data_type: 'float64' }] },
  ],
  functions: VELOFLUX_FUNCTIONS,
});

describe.each<SqlDialect>(['veloflux', 'duckdb', 'postgres'])('robustness on random input (%s)', (dialect) => {
  const rand = prng(dialect.length * 7919);
  const inputs = Array.from({ length: 1500 }, () => randomSql(rand));

  it('prevalidate never throws and always explains a rejection', () => {
    for (const sql of inputs) {
      const result = prevalidate(sql, grounding(dialect));
      if (!result.ok) expect(result.errors.length).toBeGreaterThan(0);
      for (const message of result.ok ? [] : result.errors) expect(message.trim()).not.toBe('');
    }
  });

  it('assertSingleSelect throws nothing but UnsafeSqlError', () => {
    for (const sql of inputs) {
      try {
        assertSingleSelect(sql, dialect);
      } catch (error) {
        expect(error).toBeInstanceOf(UnsafeSqlError);
      }
    }
  });

  it('never passes in prevalidate what assertSingleSelect would refuse', () => {
    for (const sql of inputs) {
      const result = prevalidate(sql, grounding(dialect));
      if (result.ok) expect(() => assertSingleSelect(result.sql, dialect)).not.toThrow();
    }
  });

  it('never lets a statement keyword through assertSingleSelect unless inside a string, name or comment', () => {
    for (const sql of inputs) {
      let passed = true;
      try {
        assertSingleSelect(sql, dialect);
      } catch {
        passed = false;
      }
      if (passed) {
        // A passing text has no ';' followed by more code and no bare DROP/DELETE/INSERT.
        const withoutStrings = sql
          .replace(/'(?:[^']|'')*'/g, "''")
          .replace(/"(?:[^"]|"")*"/g, '""')
          .replace(/`(?:[^`]|``)*`/g, '``')
          .replace(/--[^\n\r\v\f\u0085\u2028\u2029]*/g, '')
          .replace(/\/\*[\s\S]*?\*\//g, '');
        expect(withoutStrings).not.toMatch(/\b(?:DROP|DELETE|INSERT)\b/i);
        expect(withoutStrings.replace(/[\s;]+$/, '')).not.toContain(';');
      }
    }
  });
});

describe('robustness on pathological input', () => {
  it.each<[string, string]>([
    ['a deep -> chain', `SELECT a${'->b'.repeat(5000)} FROM s`],
    ['deep parentheses', `SELECT ${'('.repeat(20000)}a${')'.repeat(20000)} FROM s`],
    ['nested window calls', `SELECT a FROM s GROUP BY ${"tumblingwindow('ss', ".repeat(4000)}1${')'.repeat(4000)}`],
  ])('%s: no exception in any dialect', (_name, sql) => {
    for (const dialect of ['veloflux', 'duckdb', 'postgres'] as const) {
      expect(() => prevalidate(sql, grounding(dialect))).not.toThrow();
      try {
        assertSingleSelect(sql, dialect);
      } catch (error) {
        expect(error).toBeInstanceOf(UnsafeSqlError);
      }
    }
  });
});
