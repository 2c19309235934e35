import { sqlErrorsOf, sqlGrounding } from '../../__fixtures__/rule-harness';
import { unknownColumns } from './unknown-columns';

describe('unknown-columns (SQL targets)', () => {
  it('checks bare names against every known table and qualified names against their table', () => {
    expect(sqlErrorsOf(unknownColumns, 'SELECT temp FROM readings')[0]).toMatch(
      /^unknown column 'temp'; did you mean 'temperature'\?/,
    );
    expect(
      sqlErrorsOf(unknownColumns, 'SELECT d.temperature FROM readings r JOIN devices d USING (device_id)'),
    ).toEqual(["unknown column 'temperature' in table 'devices'; available columns: device_id, site"]);
  });

  it('explains double quotes meant as a string', () => {
    expect(sqlErrorsOf(unknownColumns, 'SELECT * FROM readings WHERE device_id = "abc"')[0]).toContain(
      "write a string literal in single quotes: 'abc'",
    );
  });

  it('leaves names the query defines alone: aliases, CTE columns, lambda parameters, table functions', () => {
    expect(sqlErrorsOf(unknownColumns, 'SELECT temperature AS t FROM readings ORDER BY t')).toEqual([]);
    expect(
      sqlErrorsOf(
        unknownColumns,
        'WITH hot(id, temp) AS (SELECT device_id, temperature FROM readings) SELECT id, temp FROM hot',
      ),
    ).toEqual([]);
    expect(sqlErrorsOf(unknownColumns, 'SELECT list_transform([1, 2], x -> x + 1) FROM readings')).toEqual([]);
    expect(sqlErrorsOf(unknownColumns, 'SELECT generate_series FROM generate_series(1, 3)')).toEqual([]);
    expect(
      sqlErrorsOf(
        unknownColumns,
        'SELECT site FROM readings',
        sqlGrounding('postgres', { columns: [], columnsByTable: {} }),
      ),
    ).toEqual([]);
  });
});
