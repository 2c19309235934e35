import type { Column } from '@nl2p/envelope';
import { checkPlan, QueryPlan, QueryPlanError, type QueryPlanInput } from '@nl2p/query-plan';
import { targetProfile } from '../targets';

const c = (name: string, data_type: string, fields?: Column[]): Column => ({
  name,
  data_type,
  ...(fields ? { fields } : {}),
});
const SQL_TABLES: Record<string, Column[]> = {
  orders: [
    c('order_id', 'INTEGER'),
    c('customer_id', 'INTEGER'),
    c('status', 'VARCHAR'),
    c('quantity', 'INTEGER'),
    c('unit_price', 'DOUBLE'),
    c('ordered_at', 'TIMESTAMP'),
    c('order', 'VARCHAR'),
  ],
  customers: [c('customer_id', 'INTEGER'), c('country', 'VARCHAR')],
};
// The example streams of manager-api/examples (types as the Manager describes them).
const STREAMS: Record<string, Column[]> = {
  sensor_stream: [c('device_id', 'String'), c('temperature', 'Float64'), c('humidity', 'Float64')],
  vehicle: [c('vin', 'String'), c('speed', 'Float64'), c('location', 'Struct', [c('lat', 'Float64'), c('lon', 'Float64')])],
}; // prettier-ignore

function compile(target: 'duckdb' | 'postgres' | 'veloflux', input: QueryPlanInput) {
  const tables = target === 'veloflux' ? STREAMS : SQL_TABLES;
  const checked = checkPlan(QueryPlan.parse(input), tables);
  if (!checked.ok) throw new Error(checked.errors.join('; '));
  return targetProfile(target).compiler.compile(checked.plan, tables);
}
const col = (column: string, table?: string) => ({
  kind: 'column' as const,
  ref: { column, ...(table ? { table } : {}) },
});

describe('SQL compiler (DuckDB, PostgreSQL)', () => {
  it('writes readable SQL: aggregates named, plain keys grouped, order by alias', () => {
    const plan: QueryPlanInput = {
      source: 'orders',
      select: [{ kind: 'value', expr: col('status') }, { kind: 'aggregate', aggregate: { fn: 'sum', arg: { kind: 'arith', op: '*', left: col('quantity'), right: col('unit_price') } } }],
      where: { kind: 'in', column: { column: 'status' }, values: [{ kind: 'string', value: "o'k" }], negated: true },
      order_by: [{ key: { kind: 'output', index: 1 }, direction: 'desc' }],
      limit: 3,
    }; // prettier-ignore
    expect(compile('duckdb', plan).sql).toBe(
      "SELECT status, sum(quantity * unit_price) AS sum_quantity_times_unit_price FROM orders WHERE status NOT IN ('o''k') GROUP BY status ORDER BY sum_quantity_times_unit_price DESC LIMIT 3",
    );
  });

  it('qualifies columns only when tables are joined, and quotes only reserved or odd names', () => {
    const sql = compile('postgres', {
      source: 'orders',
      joins: [{ table: 'customers', on: [{ left: { column: 'customer_id' }, right: { table: 'customers', column: 'customer_id' } }] }],
      select: [{ kind: 'value', expr: col('country') }, { kind: 'value', expr: col('order') }, { kind: 'aggregate', aggregate: { fn: 'count' } }],
    }).sql; // prettier-ignore
    expect(sql).toBe(
      'SELECT customers.country, orders."order", count(*) AS count FROM orders JOIN customers ON orders.customer_id = customers.customer_id GROUP BY customers.country, orders."order"',
    );
  });

  it('buckets time per dialect: date_trunc, time_bucket on DuckDB, date_bin on PostgreSQL, dates on request', () => {
    const bucket = (size: number, as_date = false): QueryPlanInput => ({
      source: 'orders',
      select: [{ kind: 'bucket' }, { kind: 'aggregate', aggregate: { fn: 'count' } }],
      time_bucket: { column: { column: 'ordered_at' }, unit: size === 1 ? 'day' : 'minute', size, as_date },
    });
    expect(compile('duckdb', bucket(1, true)).sql).toBe(
      "SELECT CAST(date_trunc('day', ordered_at) AS DATE) AS day, count(*) AS count FROM orders GROUP BY CAST(date_trunc('day', ordered_at) AS DATE)",
    );
    expect(compile('duckdb', bucket(10)).sql).toMatch(
      /time_bucket\(INTERVAL '10 minutes', ordered_at\) AS bucket_start/,
    );
    expect(compile('postgres', bucket(10)).sql).toMatch(
      /date_bin\('10 minutes', ordered_at, TIMESTAMP '2000-01-03 00:00:00'\)/,
    );
  });

  it('matches text case-insensitively with wildcards escaped, and timestamps as literals', () => {
    const sql = compile('duckdb', {
      source: 'orders',
      where: {
        kind: 'and',
        conditions: [
          { kind: 'text', column: { column: 'status' }, match: 'contains', value: '50%_off' },
          { kind: 'compare', left: col('ordered_at'), op: '>=', value: { kind: 'timestamp', value: '2024-02-01' } },
          { kind: 'null', column: { column: 'customer_id' }, negated: true },
        ],
      },
    }).sql;
    expect(sql).toBe(
      "SELECT * FROM orders WHERE status ILIKE '%50!%!_off%' ESCAPE '!' AND ordered_at >= TIMESTAMP '2024-02-01 00:00:00' AND customer_id IS NOT NULL",
    );
  });

  it('refuses what a dialect cannot say, in a sentence', () => {
    const monthly: QueryPlanInput = {
      source: 'orders',
      select: [{ kind: 'bucket' }],
      time_bucket: { column: { column: 'ordered_at' }, unit: 'month', size: 3 },
    };
    expect(() => compile('postgres', monthly)).toThrow(/PostgreSQL cannot bucket by 3 months/);
    expect(() =>
      compile('duckdb', { source: 'orders', window: { kind: 'tumbling', unit: 'second', size: 10 } }),
    ).toThrow(/windows are for streams/);
  });
});

describe('veloFlux compiler (checked against manager-api/recorded)', () => {
  it('puts the window in GROUP BY with its keys, in seconds (pipeline_create_full, ex_slidingwindow, probe_count_star_create)', () => {
    const base: QueryPlanInput = {
      source: 'sensor_stream',
      select: [
        { kind: 'value', expr: col('device_id') },
        { kind: 'aggregate', aggregate: { fn: 'avg', arg: col('temperature') } },
      ],
    };
    expect(compile('veloflux', { ...base, window: { kind: 'tumbling', unit: 'minute', size: 1 } }).sql).toBe(
      "SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 60)",
    );
    expect(
      compile('veloflux', { ...base, window: { kind: 'sliding', unit: 'second', size: 10, lookahead: 5 } }).sql,
    ).toMatch(/slidingwindow\('ss', 10, 5\)/);
    expect(compile('veloflux', { ...base, window: { kind: 'count', size: 100 } }).sql).toMatch(/countwindow\(100\)/);
  });

  it('parenthesises struct access and never aliases onto an input column (err_arrow_precedence_trap, err_alias_collides_with_input_column)', () => {
    const sql = compile('veloflux', {
      source: 'vehicle',
      select: [{ kind: 'value', expr: col('vin') }, { kind: 'value', expr: { kind: 'column', ref: { column: 'location', path: ['lat'] } } }],
      where: { kind: 'compare', left: { kind: 'column', ref: { column: 'location', path: ['lat'] } }, op: '>', value: { kind: 'number', value: 50 } },
    }).sql; // prettier-ignore
    expect(sql).toBe('SELECT vin, (location->lat) AS location_lat FROM vehicle WHERE (location->lat) > 50');
    const speed = compile('veloflux', {
      source: 'vehicle',
      select: [{ kind: 'aggregate', aggregate: { fn: 'max', arg: col('speed') }, alias: null }],
      window: { kind: 'tumbling', unit: 'second', size: 5 },
    }).sql;
    expect(speed).toBe("SELECT max(speed) AS max_speed FROM vehicle GROUP BY tumblingwindow('ss', 5)");
  });

  it('writes isnull() and regexp_matches() for IS NULL and text (probe2_isnull_not_create, probe2_regexp_create)', () => {
    const sql = compile('veloflux', {
      source: 'sensor_stream',
      where: {
        kind: 'and',
        conditions: [
          { kind: 'null', column: { column: 'humidity' }, negated: true },
          { kind: 'text', column: { column: 'device_id' }, match: 'contains', value: 'dev.1' },
        ],
      },
    }).sql;
    expect(sql).toBe("SELECT * FROM sensor_stream WHERE NOT isnull(humidity) AND regexp_matches(device_id, 'dev\\.1')");
  });

  it('says what WHERE beside a window does on this engine (recorded README: Filter above the aggregation)', () => {
    const { assumptions } = compile('veloflux', {
      source: 'sensor_stream',
      select: [{ kind: 'aggregate', aggregate: { fn: 'max', arg: col('temperature') } }],
      where: { kind: 'compare', left: col('humidity'), op: '>', value: { kind: 'number', value: 50 } },
      window: { kind: 'tumbling', unit: 'second', size: 60 },
    });
    expect(assumptions.join(' ')).toMatch(/applied after the aggregation, once per window/);
  });

  it.each<[string, QueryPlanInput, RegExp]>([
    ['a join', { source: 'sensor_stream', joins: [{ table: 'vehicle', on: [{ left: { column: 'device_id' }, right: { table: 'vehicle', column: 'vin' } }] }] }, /cannot join streams/],
    ['a hopping window (probe_hoppingwindow_create)', { source: 'sensor_stream', select: [{ kind: 'aggregate', aggregate: { fn: 'count' } }], window: { kind: 'hopping', unit: 'second', size: 60, hop: 10 } }, /no hopping window/],
    ['a session window (probe_sessionwindow_create)', { source: 'sensor_stream', select: [{ kind: 'aggregate', aggregate: { fn: 'count' } }], window: { kind: 'session', unit: 'second', gap: 60 } }, /no session window/],
    ['a monthly window', { source: 'sensor_stream', select: [{ kind: 'aggregate', aggregate: { fn: 'count' } }], window: { kind: 'tumbling', unit: 'month', size: 1 } }, /measured in seconds/],
    ['HAVING without a window (err_having_without_window)', { source: 'sensor_stream', select: [{ kind: 'value', expr: col('device_id') }, { kind: 'aggregate', aggregate: { fn: 'count' } }], having: [{ aggregate: { fn: 'count' }, op: '>', value: 1 }] }, /HAVING only with a window/],
    ['LIMIT (dropped by the engine)', { source: 'sensor_stream', limit: 3 }, /ignores LIMIT/],
    ['a timestamp literal', { source: 'sensor_stream', where: { kind: 'compare', left: col('temperature'), op: '>', value: { kind: 'timestamp', value: '2024-01-01' } } }, /no timestamp literals/],
  ])('refuses %s with a sentence', (_name, plan, message) => {
    expect(() => compile('veloflux', plan)).toThrow(QueryPlanError);
    expect(() => compile('veloflux', plan)).toThrow(message);
  }); // prettier-ignore
});
