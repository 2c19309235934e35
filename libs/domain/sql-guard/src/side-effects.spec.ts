import { checkDuckDbSelect, checkPostgresSelect } from '@nl2p/engine';
import { SIDE_EFFECT_FUNCTIONS } from '@nl2p/sql-policy';
import { prevalidate } from './prevalidate';
import type { Grounding } from './types';

// One list, both layers: every side-effecting function is refused by the local check on the draft
// and again by the SQL targets' guard right before the database, on both SQL targets.
describe('side-effecting functions (@nl2p/sql-policy)', () => {
  const grounding = (dialect: 'duckdb' | 'postgres'): Grounding => ({
    dialect,
    streams: ['readings'],
    stream: 'readings',
    columns: [{ name: 'path', data_type: 'VARCHAR' }],
    functions: [],
  });

  it.each([...SIDE_EFFECT_FUNCTIONS])('%s() is refused by the local check and by the adapter guard', async (fn) => {
    const sql = `SELECT ${fn}(path) FROM readings`;
    for (const dialect of ['duckdb', 'postgres'] as const) {
      const local = prevalidate(sql, grounding(dialect));
      expect({ dialect, ok: local.ok }).toEqual({ dialect, ok: false });
    }
    for (const guard of [checkDuckDbSelect, checkPostgresSelect]) {
      await expect(guard(sql)).resolves.toMatchObject({ ok: false, cause: 'forbidden' });
    }
  });
});
