/**
 * What a real veloFlux Manager answered, beyond the recorded exchanges: built from the public
 * `Yisaer/veloFlux` source at commit a91221e (the recorded one) with
 * `cargo build --no-default-features --features allocator-system --bin veloflux`, probed
 * 2026-11-25 over its REST API (create, then delete), and for the runtime facts with pipelines
 * fed known rows over MQTT (mosquitto) and their sink read back. Texts are the engine's own.
 */
import type { Column } from '@nl2p/envelope';

/** The stream the create probes read: columns named like soft keywords and like the stream. */
export const PROBE_STREAM: { name: string; columns: Column[] } = {
  name: 'kw',
  columns: [
    ['zone', 'string'],
    ['value', 'float64'],
    ['timestamp', 'int64'],
    ['kw', 'string'],
    ['date', 'string'],
    ['time', 'int64'],
    ['user', 'string'],
    ['interval', 'int64'],
    ['year', 'int64'],
    ['type', 'string'],
    ['status', 'string'],
    ['level', 'int64'],
    ['name', 'string'],
    ['key', 'string'],
    ['count', 'int64'],
    ['window', 'string'],
    ['position', 'int64'],
    ['current_time', 'int64'],
    ['humidity', 'float64'],
    ['temperature', 'float64'],
  ].map(([name, data_type]) => ({ name: name ?? '', data_type: data_type ?? '' })),
};

/** `POST /pipelines` with a nop sink: 201, or 400 with the engine's text. */
export const LIVE_CREATE_VERDICTS: { sql: string; status: 201 | 400; body?: string }[] = [
  ...[
    'zone',
    'value',
    'timestamp',
    'kw',
    'date',
    'time',
    'user',
    'year',
    'type',
    'status',
    'level',
    'name',
    'key',
    'count',
    'window',
    'position',
    'current_time',
  ].map((c) => ({ sql: `SELECT ${c} FROM kw`, status: 201 as const })),
  {
    sql: 'SELECT interval FROM kw',
    status: 400,
    body: 'failed to create pipeline p_kw: pipeline build error: No data source found in SELECT statement',
  },
  { sql: 'SELECT "interval" FROM kw', status: 201 },
  { sql: 'SELECT `interval` FROM kw', status: 201 },
  { sql: "SELECT kw FROM kw WHERE kw = 'a'", status: 201 },
  { sql: "SELECT kw, count(*) AS n FROM kw GROUP BY kw, tumblingwindow('ss', 10)", status: 201 },
  { sql: 'SELECT kw.* FROM kw', status: 201 },
  { sql: 'SELECT kw.zone FROM kw', status: 201 },
  {
    sql: 'SELECT * FROM kw ORDER BY kw.*',
    status: 400,
    body: "parse pipeline p_kw sql: Parse error: sql parser error: Expected an identifier or a '*' after '.', found: * at Line: 1, Column 30",
  },
  {
    sql: 'SELECT * FROM kw ORDER BY *',
    status: 400,
    body: 'parse pipeline p_kw sql: Parse error: sql parser error: Expected an expression:, found: * at Line: 1, Column 27',
  },
  { sql: 'SELECT zone FROM kw ORDER BY zone', status: 201 },
  { sql: "SELECT value AS v, timestamp AS t FROM kw WHERE zone = 'a' AND timestamp > 5", status: 201 },
  { sql: "SELECT max(timestamp) AS t FROM kw GROUP BY tumblingwindow('ss', 10)", status: 201 },
  { sql: "SELECT zone, avg(value) AS v FROM kw GROUP BY zone, tumblingwindow('ss', 10) ORDER BY v", status: 201 },
  { sql: "SELECT avg(value) AS value_avg FROM kw GROUP BY zone, tumblingwindow('ss', 10)", status: 201 },
];

/**
 * What running pipelines emitted for five known rows in one 6-second tumbling window:
 * d1 (t=10, h=60), d1 (20, 40), d1 (30, 70), d2 (50, 10), d1 (41, 20). A per-row filter
 * `humidity > 50` keeps d1's rows with t=10 and t=30: avg 20, count 2, and nothing for d2.
 */
export const LIVE_RUNTIME_FACTS: { sql: string; emitted: string; meaning: string }[] = [
  {
    sql: "SELECT device_id, avg(temperature) AS a, count(*) AS n FROM probe_in WHERE humidity > 50 GROUP BY device_id, tumblingwindow('ss', 6)",
    emitted: '(nothing)',
    meaning: 'WHERE beside a window is applied after aggregating, to the last row of each group (h=20 and h=10 here)',
  },
  {
    sql: "SELECT device_id, avg(temperature) FILTER (WHERE humidity > 50) AS a, count(*) FILTER (WHERE humidity > 50) AS n FROM probe_in GROUP BY device_id, tumblingwindow('ss', 6)",
    emitted: '[{"a":25.25,"device_id":"d1","n":4},{"a":50.0,"device_id":"d2","n":1}]',
    meaning: 'FILTER (WHERE …) on an aggregate is accepted and ignored: every row is aggregated',
  },
  {
    sql: "SELECT device_id, avg(CASE WHEN humidity > 50 THEN temperature END) AS a, count(CASE WHEN humidity > 50 THEN 1 END) AS n FROM probe_in GROUP BY device_id, tumblingwindow('ss', 6) HAVING count(CASE WHEN humidity > 50 THEN 1 END) > 0",
    emitted: '[{"a":20.0,"device_id":"d1","n":2}]',
    meaning: 'the condition inside the aggregates gives the per-row numbers; HAVING drops the group with no such row',
  },
  {
    sql: "SELECT min(CASE WHEN humidity > 99 THEN temperature END) AS mn FROM probe_in GROUP BY tumblingwindow('ss', 6) HAVING count(CASE WHEN humidity > 99 THEN 1 END) > 0",
    emitted: '(nothing)',
    meaning: 'a window with no row meeting the condition emits nothing, as a per-row filter would',
  },
  {
    sql: "SELECT count(DISTINCT device_id) AS d FROM probe_in GROUP BY tumblingwindow('ss', 6)",
    emitted: '(nothing; the log says: Failed to update window state: DISTINCT aggregates are not supported yet)',
    meaning: 'count(DISTINCT …) is accepted on create and fails when the pipeline runs',
  },
  {
    sql: "SELECT ndv(device_id) AS d, ndv(CASE WHEN humidity > 50 THEN device_id END) AS dm, count(*) AS n FROM probe_in GROUP BY tumblingwindow('ss', 6)",
    emitted: '[{"d":2,"dm":1,"n":5}]',
    meaning: 'ndv(x) is the distinct count that runs, also over a condition',
  },
];

/** Where the running filter failed: the prefix of its `last_error` in the stats. */
const FILTER_FAILED = 'Processing error: Failed to apply filter: Filter error: Failed to evaluate filter expression: ';

/**
 * Started pipelines fed rows over MQTT (live engine, as above): `BETWEEN` and `IN (…)` were
 * created and explained, then failed on every row, the filter's stats counting one error a row
 * and nothing emitted while the pipeline reported itself running; the comparisons they stand for
 * gave the right rows. Re-measured 2026-11-26 (test/real-engine/dry-run.int-spec.ts): the
 * stats' `last_error` carries the prefix below, and the `IN` message reads like the `BETWEEN` one.
 */
export const LIVE_RUNTIME_ERRORS: { sql: string; last_error: string | null }[] = [
  {
    sql: 'SELECT order_id, amount FROM orders WHERE amount BETWEEN 10 AND 50',
    last_error: `${FILTER_FAILED}Type mismatch: expected Int64, Float64, or Uint8, got Bool(true) and Bool(false)`,
  },
  {
    sql: 'SELECT order_id, amount FROM orders WHERE amount NOT BETWEEN 10 AND 50',
    last_error: `${FILTER_FAILED}Type mismatch: expected Int64, Float64, or Uint8, got Bool(true) and Bool(false)`,
  },
  {
    sql: "SELECT order_id, region FROM orders WHERE region IN ('eu-west', 'eu-north')",
    last_error: `${FILTER_FAILED}Type mismatch: expected Int64, Float32, Float64, or String, got Bool(true) and Bool(false)`,
  },
  { sql: 'SELECT order_id, amount FROM orders WHERE amount >= 10 AND amount <= 50', last_error: null },
  { sql: "SELECT order_id, region FROM orders WHERE region = 'eu-west' OR region = 'eu-north'", last_error: null },
];
