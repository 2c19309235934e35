import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { StreamInfo } from '../port';
import { MAX_INDEXED_VALUES, readColumnValues } from './column-values';

// The real DuckDB (in memory): which text columns' values the linker gets to see.
describe('readColumnValues', () => {
  let connection: DuckDBConnection;
  const table: StreamInfo = {
    name: 'places',
    columns: [
      { name: 'kind', data_type: 'VARCHAR' },
      { name: 'city', data_type: 'VARCHAR' },
      { name: 'note', data_type: 'VARCHAR' },
      { name: 'serial', data_type: 'VARCHAR' },
      { name: 'size', data_type: 'INTEGER' },
    ],
  };
  const distinct = async (sql: string) => (await connection.runAndReadAll(sql)).getRows().map((r) => r[0]);

  beforeAll(async () => {
    connection = await (await DuckDBInstance.create(':memory:')).connect();
    const n = MAX_INDEXED_VALUES + 5;
    await connection.run(`CREATE TABLE places AS SELECT
        CASE WHEN i % 2 = 0 THEN 'shop' ELSE 'depot' END AS kind,
        'City ' || (i % 120) AS city,
        CASE WHEN i % 3 = 0 THEN repeat('a long free-text remark ', 4) ELSE 'ok' END AS note,
        'SN-' || i AS serial,
        i AS size
      FROM range(${n}) t(i)`);
  });
  afterAll(() => connection.closeSync());

  it('reads categories and columns of names, not free text beyond its short values, nor columns past the bound', async () => {
    const values = (await readColumnValues([table], distinct)).places ?? {};
    expect(values.kind).toEqual(['depot', 'shop']);
    // 120 names: more than a category list, still indexed for linking names said in full.
    expect(values.city).toHaveLength(120);
    expect(values.city).toContain('City 7');
    // Long remarks are free text: only the short values stay.
    expect(values.note).toEqual(['ok']);
    // More distinct values than the bound: left out entirely rather than in part.
    expect(values.serial).toBeUndefined();
    expect(values.size).toBeUndefined();
  });
});
