import { sqlErrorsOf, sqlGrounding } from '../../__fixtures__/rule-harness';
import { unknownTables } from './unknown-tables';

describe('unknown-tables', () => {
  it('reports a table the database does not have, with near misses and the known tables', () => {
    expect(sqlErrorsOf(unknownTables, 'SELECT * FROM reading')).toEqual([
      "unknown table 'reading'; did you mean 'readings'?; known tables: readings, devices",
    ]);
    expect(sqlErrorsOf(unknownTables, 'SELECT * FROM readings r JOIN sites s ON r.device_id = s.id')[0]).toMatch(
      /^unknown table 'sites'/,
    );
  });

  it('accepts known tables (any case, schema-qualified), CTEs, subqueries and table functions', () => {
    expect(sqlErrorsOf(unknownTables, 'SELECT * FROM main.Readings, devices')).toEqual([]);
    expect(sqlErrorsOf(unknownTables, 'WITH hot AS (SELECT * FROM readings) SELECT * FROM hot')).toEqual([]);
    expect(sqlErrorsOf(unknownTables, 'SELECT * FROM (SELECT 1 AS x) t, generate_series(1, 3) g')).toEqual([]);
  });

  it('reads DuckDB FROM-first and skips the check when no tables are known', () => {
    expect(sqlErrorsOf(unknownTables, 'FROM readingz SELECT device_id')[0]).toMatch(/^unknown table 'readingz'/);
    expect(
      sqlErrorsOf(unknownTables, 'SELECT * FROM anything', sqlGrounding('postgres', { streams: [], stream: '' })),
    ).toEqual([]);
  });
});
