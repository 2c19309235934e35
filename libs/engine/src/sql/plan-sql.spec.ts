import type { Column } from '@nl2p/envelope';
import { checkPlan, QueryPlan, QueryPlanError, type QueryPlanInput, type RelativeMoment } from '@nl2p/query-plan';
import { targetProfile } from '../targets';
import { numberSql } from './plan-sql';

const c = (name: string, data_type: string, fields?: Column[]): Column => ({
  name,
  data_type,
  ...(fields ? { fields } : {}),
});
// Types as the DuckDB adapter reports them (lowercased); `order`, `Region` and `count` are there
// to be quoted or avoided.
const TABLES: Record<string, Column[]> = {
  orders: [c('order_id', 'integer'), c('customer_id', 'integer'), c('status', 'varchar'), c('quantity', 'integer'), c('unit_price', 'decimal(10,2)'), c('ordered_at', 'timestamp'), c('order', 'varchar'), c('Region', 'varchar')],
  customers: [c('customer_id', 'integer'), c('country', 'varchar')],
  tallies: [c('count', 'integer'), c('label', 'varchar'), c('place', 'struct', [c('lat', 'double')])],
}; // prettier-ignore

function compile(target: 'duckdb' | 'postgres', input: QueryPlanInput) {
  const checked = checkPlan(QueryPlan.parse(input), TABLES);
  if (!checked.ok) throw new Error(`the plan check refused the plan: ${checked.errors.join('; ')}`);
  return targetProfile(target).compiler.compile(checked.plan, TABLES);
}
/** Both SQL targets, when they must write the same text. */
function both(input: QueryPlanInput): string {
  const duck = compile('duckdb', input).sql;
  expect(compile('postgres', input).sql).toBe(duck);
  return duck;
}
const col = (column: string, table?: string) => ({
  kind: 'column' as const,
  ref: { column, ...(table ? { table } : {}) },
});
const num = (value: number) => ({ kind: 'number' as const, value });
const count = { kind: 'aggregate' as const, aggregate: { fn: 'count' as const } };

describe('SQL compiler (DuckDB and PostgreSQL): clauses', () => {
  it('names aggregates readably, groups the plain keys, sorts by the alias and limits', () => {
    expect(
      both({
        source: 'orders',
        select: [{ kind: 'value', expr: col('status') }, { kind: 'aggregate', aggregate: { fn: 'sum', arg: { kind: 'arith', op: '*', left: col('quantity'), right: col('unit_price') } } }, { kind: 'aggregate', aggregate: { fn: 'avg', arg: col('quantity') } }],
        where: { kind: 'in', column: { column: 'status' }, values: [{ kind: 'string', value: "o'k" }], negated: true },
        order_by: [{ key: { kind: 'output', index: 1 }, direction: 'desc' }],
        limit: 3,
      }),
    ).toBe(
      "SELECT status, sum(quantity * unit_price) AS sum_quantity_times_unit_price, avg(quantity) AS avg_quantity FROM orders WHERE status NOT IN ('o''k') GROUP BY status ORDER BY sum_quantity_times_unit_price DESC LIMIT 3",
    );
  }); // prettier-ignore

  it('writes HAVING, DISTINCT, BETWEEN, NOT and nested OR, and sorts by an aggregate it already shows', () => {
    expect(
      both({
        source: 'orders',
        select: [{ kind: 'value', expr: col('status') }, count],
        where: { kind: 'and', conditions: [{ kind: 'between', column: { column: 'quantity' }, low: num(1), high: num(5) }, { kind: 'or', conditions: [{ kind: 'compare', left: col('customer_id'), op: '=', value: num(1) }, { kind: 'not', condition: { kind: 'compare', left: col('customer_id'), op: '<', value: num(3) } }] }] },
        having: [{ aggregate: { fn: 'count' }, op: '>=', value: 2 }],
        order_by: [{ key: { kind: 'aggregate', aggregate: { fn: 'count' } }, direction: 'desc' }],
      }),
    ).toBe(
      'SELECT status, count(*) AS count FROM orders WHERE quantity BETWEEN 1 AND 5 AND (customer_id = 1 OR NOT (customer_id < 3)) GROUP BY status HAVING count(*) >= 2 ORDER BY count DESC',
    );
    expect(both({ source: 'orders', distinct: true, select: [{ kind: 'value', expr: col('status') }] })).toBe('SELECT DISTINCT status FROM orders');
  }); // prettier-ignore

  it('qualifies columns only when tables are joined, and quotes only reserved or mixed-case names', () => {
    expect(
      both({
        source: 'orders',
        joins: [{ table: 'customers', kind: 'left', on: [{ left: { column: 'customer_id' }, right: { column: 'customer_id' } }] }],
        select: [{ kind: 'value', expr: col('country') }, { kind: 'value', expr: col('order') }, { kind: 'value', expr: col('Region') }, count],
      }),
    ).toBe(
      'SELECT customers.country, orders."order", orders."Region", count(*) AS count FROM orders LEFT JOIN customers ON orders.customer_id = customers.customer_id GROUP BY customers.country, orders."order", orders."Region"',
    );
    expect(both({ source: 'orders', select: [{ kind: 'value', expr: col('order') }, { kind: 'value', expr: col('status') }] })).toBe(
      'SELECT "order", status FROM orders',
    );
  }); // prettier-ignore
});

describe('SQL compiler: time buckets', () => {
  const bucket = (unit: 'minute' | 'day' | 'week' | 'month' | 'quarter' | 'year', size = 1, as_date = false): QueryPlanInput => ({
    source: 'orders',
    select: [{ kind: 'bucket' }, count],
    time_bucket: { column: { column: 'ordered_at' }, unit, size, as_date },
  }); // prettier-ignore

  it('truncates single units with date_trunc on both (weeks start on Monday there), dates on request', () => {
    expect(both(bucket('day', 1, true))).toBe(
      "SELECT CAST(date_trunc('day', ordered_at) AS DATE) AS day, count(*) AS count FROM orders GROUP BY CAST(date_trunc('day', ordered_at) AS DATE)",
    );
    expect(both(bucket('week'))).toBe(
      "SELECT date_trunc('week', ordered_at) AS week_start, count(*) AS count FROM orders GROUP BY date_trunc('week', ordered_at)",
    );
  });

  it('buckets several units with time_bucket on DuckDB and date_bin on PostgreSQL, on the same origin', () => {
    expect(compile('duckdb', bucket('minute', 10)).sql).toBe(
      "SELECT time_bucket(INTERVAL '10 minutes', ordered_at) AS bucket_start, count(*) AS count FROM orders GROUP BY time_bucket(INTERVAL '10 minutes', ordered_at)",
    );
    expect(compile('postgres', bucket('minute', 10)).sql).toContain(
      "date_bin('10 minutes', ordered_at, TIMESTAMP '2000-01-03 00:00:00') AS bucket_start",
    );
  });

  it('buckets several months, quarters or years from 2000-01-01 on both', () => {
    expect(compile('duckdb', bucket('quarter', 2)).sql).toContain("time_bucket(INTERVAL '6 months', ordered_at)");
    expect(compile('duckdb', bucket('year', 2)).sql).toContain("time_bucket(INTERVAL '2 years', ordered_at)");
    expect(compile('postgres', bucket('quarter', 2)).sql).toContain(
      "date_trunc('month', ordered_at) - make_interval(months => mod(mod((extract(year FROM ordered_at)::int - 2000) * 12 + extract(month FROM ordered_at)::int - 1, 6) + 6, 6)) AS bucket_start",
    );
  });

  it('refuses a window on a table, in a sentence', () => {
    expect(() => compile('duckdb', { source: 'orders', select: [count], window: { kind: 'tumbling', unit: 'second', size: 10 } })).toThrow(
      new QueryPlanError('windows are for streams; on DuckDB group by a time bucket instead'),
    );
  }); // prettier-ignore
});

describe('SQL compiler: values, text and names', () => {
  it('matches text case-insensitively with % and _ escaped, and writes full timestamp literals', () => {
    expect(
      both({
        source: 'orders',
        where: {
          kind: 'and',
          conditions: [
            { kind: 'text', column: { column: 'status' }, match: 'contains', value: '50%_off!' },
            { kind: 'text', column: { column: 'status' }, match: 'starts_with', value: 'Ship' },
            { kind: 'text', column: { column: 'status' }, match: 'ends_with', value: "d'" },
            { kind: 'compare', left: col('ordered_at'), op: '>=', value: { kind: 'timestamp', value: '2024-02-01' } },
            {
              kind: 'compare',
              left: col('ordered_at'),
              op: '<',
              value: { kind: 'timestamp', value: '2024-03-01 12:30' },
            },
            { kind: 'null', column: { column: 'customer_id' }, negated: true },
          ],
        },
      }),
    ).toBe(
      "SELECT * FROM orders WHERE status ILIKE '%50!%!_off!!%' ESCAPE '!' AND status ILIKE 'Ship%' ESCAPE '!' AND status ILIKE '%d''' ESCAPE '!' AND ordered_at >= TIMESTAMP '2024-02-01 00:00:00' AND ordered_at < TIMESTAMP '2024-03-01 12:30:00' AND customer_id IS NOT NULL",
    );
  });

  it('writes numbers without exponents and parenthesises negative operands', () => {
    expect(numberSql(1e21)).toBe('1000000000000000000000');
    expect(numberSql(-2.5e-7)).toBe('-0.00000025');
    expect(numberSql(1.5e22)).toBe('15000000000000000000000');
    expect(numberSql(12.5)).toBe('12.5');
    expect(
      both({ source: 'orders', select: [{ kind: 'value', expr: { kind: 'arith', op: '-', left: col('quantity'), right: num(-1) } }], where: { kind: 'compare', left: col('quantity'), op: '>', value: num(1e-7) } }),
    ).toBe('SELECT quantity - (-1) AS quantity_minus_neg_1 FROM orders WHERE quantity > 0.0000001');
  }); // prettier-ignore

  it('divides for real and gives NULL for a zero divisor on both (integer division truncates on PostgreSQL)', () => {
    const plan: QueryPlanInput = {
      source: 'orders',
      select: [{ kind: 'value', expr: { kind: 'arith', op: '/', left: col('quantity'), right: num(2) } }, { kind: 'value', expr: { kind: 'arith', op: '/', left: { kind: 'arith', op: '+', left: col('quantity'), right: num(1) }, right: col('customer_id') } }],
    }; // prettier-ignore
    expect(compile('duckdb', plan).sql).toBe(
      'SELECT quantity / 2 AS quantity_per_2, (quantity + 1) / NULLIF(customer_id, 0) AS quantity_plus_1_per_customer_id FROM orders',
    );
    expect(compile('postgres', plan).sql).toBe(
      'SELECT quantity::numeric / 2 AS quantity_per_2, (quantity + 1)::numeric / NULLIF(customer_id, 0) AS quantity_plus_1_per_customer_id FROM orders',
    );
  });

  it('keeps the aliases a plan chose, renames a repeated one with a note, and keeps generated names off input columns', () => {
    const r = compile('duckdb', {
      source: 'orders',
      select: [{ kind: 'aggregate', aggregate: { fn: 'count' }, alias: 'orders' }, { kind: 'aggregate', aggregate: { fn: 'max', arg: col('quantity') }, alias: 'orders' }],
    }); // prettier-ignore
    expect(r.sql).toBe('SELECT count(*) AS orders, max(quantity) AS max_quantity FROM orders');
    expect(r.assumptions).toEqual([
      "The output asked to be called 'orders' is called 'max_quantity' instead: on DuckDB it is already the name of another output.",
    ]);
    // `tallies` has a column named count: the count output is named around it.
    expect(both({ source: 'tallies', select: [{ kind: 'value', expr: col('label') }, count] })).toBe(
      'SELECT label, count(*) AS count_2 FROM tallies GROUP BY label',
    );
  });

  it('reads struct fields as (column).field, drops DISTINCT where it changes nothing, keeps it in count', () => {
    expect(
      both({
        source: 'tallies',
        select: [{ kind: 'aggregate', aggregate: { fn: 'max', arg: { kind: 'column', ref: { column: 'place', path: ['lat'] } }, distinct: true } }, { kind: 'aggregate', aggregate: { fn: 'count', arg: col('label'), distinct: true } }],
      }),
    ).toBe('SELECT max((place).lat) AS max_place_lat, count(DISTINCT label) AS count_distinct_label FROM tallies');
  }); // prettier-ignore
});

describe('SQL compiler (DuckDB and PostgreSQL): measures', () => {
  const shipped = {
    kind: 'compare' as const,
    left: col('status'),
    op: '=' as const,
    value: { kind: 'string' as const, value: 'shipped' },
  };
  const ratio: QueryPlanInput = {
    source: 'orders',
    select: [{ kind: 'value', expr: col('customer_id') }, { kind: 'measure', expr: { kind: 'arith', op: '*', left: num(100), right: { kind: 'arith', op: '/', left: { ...count, filter: shipped }, right: count } } }],
    order_by: [{ key: { kind: 'output', index: 1 }, direction: 'desc' }],
  }; // prettier-ignore

  it('writes a filtered aggregate as CASE WHEN and divides for real, NULL when dividing by zero', () => {
    expect(compile('duckdb', ratio).sql).toBe(
      "SELECT customer_id, 100 * (count(CASE WHEN status = 'shipped' THEN 1 END) / NULLIF(count(*), 0)) AS percentage FROM orders GROUP BY customer_id ORDER BY percentage DESC",
    );
    // Integer division truncates on PostgreSQL: the numerator is made numeric.
    expect(compile('postgres', ratio).sql).toBe(
      "SELECT customer_id, 100 * (count(CASE WHEN status = 'shipped' THEN 1 END)::numeric / NULLIF(count(*), 0)) AS percentage FROM orders GROUP BY customer_id ORDER BY percentage DESC",
    );
  });

  it('takes the whole of every group with a window over the groups\' figures', () => {
    expect(compile('duckdb', { source: 'orders', select: [{ kind: 'value', expr: col('status') }, { kind: 'measure', expr: { kind: 'arith', op: '/', left: count, right: { ...count, all_groups: true } } }] }).sql).toBe(
      'SELECT status, count(*) / NULLIF(sum(count(*)) OVER (), 0) AS ratio FROM orders GROUP BY status',
    );
  }); // prettier-ignore

  it('names a plain ratio `ratio`, and another figure by its parts', () => {
    const sum = (column: string) => ({ kind: 'aggregate' as const, aggregate: { fn: 'sum' as const, arg: col(column) } });
    expect(compile('duckdb', { source: 'orders', select: [{ kind: 'measure', expr: { kind: 'arith', op: '/', left: sum('quantity'), right: count } }] }).sql).toBe(
      'SELECT sum(quantity) / NULLIF(count(*), 0) AS ratio FROM orders',
    );
    expect(compile('duckdb', { source: 'orders', select: [{ kind: 'measure', expr: { kind: 'arith', op: '-', left: sum('quantity'), right: { ...sum('unit_price'), filter: shipped } } }] }).sql).toBe(
      "SELECT sum(quantity) - sum(CASE WHEN status = 'shipped' THEN unit_price END) AS sum_quantity_minus_sum_unit_price_filtered FROM orders",
    );
  }); // prettier-ignore
});

describe('SQL compiler (DuckDB and PostgreSQL): moments relative to the day the query runs', () => {
  const since = (relative: RelativeMoment) => ({ kind: 'timestamp' as const, value: '2024-01-01 00:00:00', relative });
  it('computes a relative bound when the query runs, not the moment the plan was made', () => {
    expect(
      both({
        source: 'orders',
        select: [count],
        where: { kind: 'and', conditions: [
          { kind: 'compare', left: col('ordered_at'), op: '>=', value: since({ amount: -6, unit: 'month', start_of: 'month' }) },
          { kind: 'compare', left: col('ordered_at'), op: '<', value: since({ amount: 0, unit: 'month', start_of: 'month' }) },
          { kind: 'compare', left: col('ordered_at'), op: '>=', value: since({ amount: -2, unit: 'quarter' }) },
          { kind: 'compare', left: col('ordered_at'), op: '>=', value: since({ amount: -30, unit: 'day' }) },
          { kind: 'compare', left: col('ordered_at'), op: '>=', value: since({ amount: -2, unit: 'hour' }) },
        ] },
      }),
    ).toBe(
      "SELECT count(*) AS count FROM orders WHERE ordered_at >= (date_trunc('month', CURRENT_DATE) - INTERVAL '6 month') AND ordered_at < date_trunc('month', CURRENT_DATE) AND ordered_at >= (CURRENT_DATE - INTERVAL '6 month') AND ordered_at >= (CURRENT_DATE - INTERVAL '30 day') AND ordered_at >= (CURRENT_TIMESTAMP - INTERVAL '2 hour')",
    );
  }); // prettier-ignore
});

describe('SQL compiler (DuckDB and PostgreSQL): time elapsed', () => {
  it('counts seconds since the epoch on both sides, with the fraction, in the unit asked', () => {
    const plan: QueryPlanInput = { source: 'orders', select: [{ kind: 'aggregate', aggregate: { fn: 'avg', arg: { kind: 'elapsed', unit: 'hour', from: { column: 'ordered_at' }, to: { column: 'ordered_at' } } } }] };
    expect(compile('duckdb', plan).sql).toBe(
      'SELECT avg((epoch(CAST(ordered_at AS TIMESTAMP)) - epoch(CAST(ordered_at AS TIMESTAMP))) / 3600) AS avg_hours_from_ordered_at_to_ordered_at FROM orders',
    );
    expect(compile('postgres', plan).sql).toBe(
      'SELECT avg((extract(epoch FROM CAST(ordered_at AS timestamp)) - extract(epoch FROM CAST(ordered_at AS timestamp))) / 3600) AS avg_hours_from_ordered_at_to_ordered_at FROM orders',
    );
  }); // prettier-ignore
});
