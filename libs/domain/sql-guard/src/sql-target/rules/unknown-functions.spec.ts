import { sqlErrorsOf, sqlGrounding } from '../../__fixtures__/rule-harness';
import { unknownFunctions } from './unknown-functions';

describe('unknown-functions (SQL targets)', () => {
  it('reports a function missing from the catalog once, with near misses or the engine named', () => {
    expect(sqlErrorsOf(unknownFunctions, 'SELECT avgg(temperature), avgg(temperature) FROM readings')).toEqual([
      "unknown function 'avgg'; did you mean avg()?",
    ]);
    expect(sqlErrorsOf(unknownFunctions, 'SELECT zzqqx(1) FROM readings', sqlGrounding('postgres'))).toEqual([
      "unknown function 'zzqqx'; it is not a PostgreSQL function in the catalog",
    ]);
  });

  it('accepts catalog functions, SQL syntax that looks like a call, casts, and anything without a catalog', () => {
    expect(
      sqlErrorsOf(
        unknownFunctions,
        'SELECT upper(device_id), CAST(ts AS DATE), COALESCE(temperature, 0) FROM readings',
      ),
    ).toEqual([]);
    expect(
      sqlErrorsOf(unknownFunctions, 'SELECT zzqqx(1) FROM readings', sqlGrounding('duckdb', { functions: [] })),
    ).toEqual([]);
  });
});
