import type { Column } from '@nl2p/envelope';
import { CONTRACT_EXAMPLES, CONTRACT_STREAMS, VELOFLUX_FUNCTIONS } from './__fixtures__/contract';
import { HARD_KEYWORDS } from './keywords';
import { significant, tokenize } from './lexer';
import { prevalidate } from './prevalidate';
import type { Grounding } from './types';

const sensor = CONTRACT_STREAMS.find((s) => s.name === 'sensor_stream')!;
const vehicle = CONTRACT_STREAMS.find((s) => s.name === 'vehicle')!;

/** How validator-nodes.ts calls it: no function kinds. */
const plainFunctions = VELOFLUX_FUNCTIONS.map((f) => ({ name: f.name, aliases: f.aliases ?? [] }));

function grounding(stream: { name: string; columns: Column[] }, extra: Partial<Grounding> = {}): Grounding {
  return {
    dialect: 'veloflux',
    streams: ['sensor_stream', 'vehicle', 'kv'],
    stream: stream.name,
    columns: stream.columns,
    functions: VELOFLUX_FUNCTIONS,
    ...extra,
  };
}
const SENSOR = grounding(sensor);
const VEHICLE = grounding(vehicle);
const KV = grounding({
  name: 'kv',
  columns: ['key', 'value', 'time', 'first', 'Temp'].map((name) => ({ name, data_type: 'string' })),
});

function errorsOf(sql: string, g: Grounding): string[] {
  const result = prevalidate(sql, g);
  return result.ok ? [] : result.errors;
}

describe('prevalidate (veloFlux): accepts valid SQL', () => {
  it.each<[string, Grounding]>([
    [
      "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)",
      SENSOR,
    ],
    ['SELECT * FROM sensor_stream GROUP BY countwindow(3)', SENSOR],
    ['SELECT lag(temperature) OVER (PARTITION BY device_id) FROM sensor_stream', SENSOR],
    ['SELECT acc_sum(temperature) FILTER (WHERE humidity > 1) FROM sensor_stream', SENSOR],
    [
      'SELECT acc_avg(temperature) FILTER (WHERE humidity > 1) OVER (PARTITION BY device_id) AS a FROM sensor_stream',
      SENSOR,
    ],
    ['SELECT (location->lat) AS lat FROM vehicle WHERE (location->lat) > 10', VEHICLE],
    ['SELECT vin FROM vehicle GROUP BY vin, statewindow(speed > 1, speed > 5) OVER (PARTITION BY vin)', VEHICLE],
    [
      "SELECT CASE WHEN temperature > 30 THEN 'hot' WHEN temperature < 0 THEN 'cold' ELSE 'ok' END AS level FROM sensor_stream",
      SENSOR,
    ],
    ["SELECT CASE device_id WHEN 'a' THEN 1 ELSE 0 END AS is_a FROM sensor_stream", SENSOR],
    [
      "SELECT * FROM sensor_stream WHERE (device_id = 'a' OR device_id = 'b') AND humidity != 1 AND temperature >= 10 AND temperature <= 90",
      SENSOR,
    ],
    [
      'SELECT temperature * 1.8 + 32 AS temp_f FROM sensor_stream WHERE temp_f > 80 ORDER BY temp_f DESC, ts ASC',
      SENSOR,
    ],
    ['SELECT temperature AS t, t * 2 AS t2 FROM sensor_stream', SENSOR],
    ["SELECT avg(temperature) avg_t FROM sensor_stream GROUP BY tumblingwindow('ss', 5) ORDER BY avg_t", SENSOR],
    ['SELECT sensor_stream.device_id, sensor_stream.* FROM sensor_stream', SENSOR],
    ['SELECT t.device_id FROM sensor_stream AS t WHERE t.temperature > 1', SENSOR],
    ['SELECT x.device_id FROM sensor_stream x', SENSOR],
    ['SELECT "temperature", `humidity` FROM sensor_stream', SENSOR],
    ['SELECT wheels[0]->pressure, tags[1], (wheels[1]->pos) AS p FROM vehicle', VEHICLE],
    ['SELECT isnull(location->lat), NOT isnull(vin) FROM vehicle WHERE NOT isnull(seen_at)', VEHICLE],
    ["SELECT format(speed), concat(vin, '-x') FROM vehicle", VEHICLE],
    // ndv() is the distinct count that runs (count(DISTINCT …) fails when the pipeline runs).
    ["SELECT ndv(device_id) AS devices FROM sensor_stream GROUP BY tumblingwindow('ss', 10)", SENSOR],
    ["SELECT count(*) FROM sensor_stream GROUP BY slidingwindow('ss', 10, 5)", SENSOR],
    ["SELECT * FROM sensor_stream GROUP BY tumblingwindow('ss',10)", SENSOR],
    ["SELECT count(*) FROM sensor_stream GROUP BY TumblingWindow('ss', 10)", SENSOR],
    ['SELECT AVG(temperature), Max(humidity) FROM sensor_stream', SENSOR],
    ['SELECT current_timestamp(), ceiling(temperature), pow(temperature, 2), now() FROM sensor_stream', SENSOR],
    ['SELECT sum(temperature) FROM sensor_stream', SENSOR],
    ['SELECT device_id, avg(temperature) FROM sensor_stream GROUP BY device_id', SENSOR],
    ["SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('ss', 10) HAVING count(*) > 100", SENSOR],
    ['SELECT 0 - temperature, -1 * humidity FROM sensor_stream', SENSOR],
    [
      'SELECT (temperature + humidity) / 2 % 3 FROM sensor_stream WHERE temperature != 1 AND humidity <> 2 OR ts <= 3',
      SENSOR,
    ],
    [
      "SELECT device_id FROM sensor_stream WHERE device_id = 'select * from x; drop stream s' OR device_id = 'a IS NULL || b LIKE c'",
      SENSOR,
    ],
    ['SELECT device_id -- the id; DROP\nFROM sensor_stream /* a comment; with -> and IS NULL */', SENSOR],
    [
      "SELECT sensor_stream.device_id, 'device_id' AS lit, 42 AS n, true, NULL FROM sensor_stream WHERE device_id = 'temperature' ORDER BY n",
      SENSOR,
    ],
    ['SELECT key, value, time, first, Temp FROM kv', KV],
    ["SELECT regexp_matches(vin, '^W'), startswith(vin, 'W'), endswith(vin, 'X') FROM vehicle", VEHICLE],
    ['select device_id from sensor_stream where temperature > 1', SENSOR],
    ['SELECT\n  device_id,\n  temperature\nFROM sensor_stream\nWHERE humidity > 0.5e1', SENSOR],
    ['```sql\nSELECT device_id FROM sensor_stream;\n```', SENSOR],
  ])('%s', (sql, g) => {
    const result = prevalidate(sql, g);
    expect(result).toEqual({ ok: true, sql: expect.any(String), warnings: [] });
  });

  it('returns the cleaned SQL', () => {
    expect(prevalidate('Here you go:\n```sql\nSELECT device_id FROM sensor_stream;\n```', SENSOR)).toEqual({
      ok: true,
      sql: 'SELECT device_id FROM sensor_stream',
      warnings: [],
    });
  });

  it('accepts the same queries when the catalog has no function kinds (as the workflow passes it)', () => {
    const g = grounding(sensor, { functions: plainFunctions });
    expect(
      prevalidate(
        "SELECT device_id, avg(temperature) FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 10)",
        g,
      ).ok,
    ).toBe(true);
  });

  it('accepts a stream other than the active one when its columns are given', () => {
    const g = grounding(sensor, { columnsByTable: { vehicle: vehicle.columns } });
    expect(prevalidate('SELECT vin FROM vehicle', g).ok).toBe(true);
  });

  it('skips checks whose grounding is empty', () => {
    const bare: Grounding = { dialect: 'veloflux', streams: [], stream: '', columns: [], functions: [] };
    expect(prevalidate('SELECT anything, whatever(x) FROM wherever', bare).ok).toBe(true);
    // …but still rejects unsupported constructs.
    expect(prevalidate('SELECT a FROM s WHERE a IS NULL', bare).ok).toBe(false);
  });
});

/**
 * Every example with a FROM in the contract's syntax and function catalogs, against a permissive
 * schema built from the example's own identifiers (plus the struct columns some examples use), so
 * any failure is a false "unsupported construct", not a missing column.
 */
describe('prevalidate (veloFlux): accepts every contract example with a FROM', () => {
  const structs: Column[] = [
    { name: 'user', data_type: 'struct', fields: [{ name: 'name', data_type: 'string' }] },
    {
      name: 'data',
      data_type: 'struct',
      fields: [{ name: 'profile', data_type: 'struct', fields: [{ name: 'age', data_type: 'int64' }] }],
    },
    { name: 'payload', data_type: 'struct', fields: [{ name: 'device_id', data_type: 'string' }] },
  ];
  const section7 = [
    "SELECT * FROM s GROUP BY tumblingwindow('ss',10)",
    'SELECT sum(a) FROM s',
    'SELECT (location->lat) FROM s WHERE (location->lat) > 10',
    'SELECT (a->b) + 1 FROM s',
    "SELECT count(*) FROM s GROUP BY slidingwindow('ss', 10)",
    'SELECT * FROM s GROUP BY statewindow(a > 0, b = 1) OVER (PARTITION BY k1, k2)',
  ];
  // The catalog's BETWEEN and IN examples are created and explained by the engine, then fail on
  // every row when run (live engine): the check refuses them on purpose.
  const failsWhenRun = /\bBETWEEN\b|\bIN\s*\(/i;
  const examples = [
    ...CONTRACT_EXAMPLES.filter(([, sql]) => /\bFROM\b/i.test(sql) && !failsWhenRun.test(sql)),
    ...section7.map((sql) => ['CONTRACT.md §7', sql] as [string, string]),
  ];

  function permissive(sql: string): Grounding {
    const toks = significant(tokenize(sql).tokens);
    const fromIndex = toks.findIndex((t) => t.text.toUpperCase() === 'FROM');
    const stream = toks[fromIndex + 1]?.text ?? 's';
    const names = new Set<string>();
    toks.forEach((t, i) => {
      const prev = toks[i - 1]?.text;
      if (t.kind !== 'word' || HARD_KEYWORDS.has(t.text.toLowerCase())) return;
      if (toks[i + 1]?.text === '(' || prev?.toUpperCase() === 'AS' || prev === '->' || i === fromIndex + 1) return;
      if (!structs.some((c) => c.name === t.text)) names.add(t.text);
    });
    const location: Column = { name: 'location', data_type: 'struct', fields: [{ name: 'lat', data_type: 'float64' }] };
    const a: Column = { name: 'a', data_type: 'struct', fields: [{ name: 'b', data_type: 'int64' }] };
    const columns: Column[] = [
      ...structs,
      ...[...names]
        .filter((n) => n !== 'location' && !(n === 'a' && sql.includes('a->')))
        .map((name) => ({ name, data_type: 'int64' })),
      ...(sql.includes('location->') ? [location] : []),
      ...(sql.includes('a->') ? [a] : []),
    ];
    return { dialect: 'veloflux', streams: [stream], stream, columns, functions: VELOFLUX_FUNCTIONS };
  }

  it('has examples to check', () => {
    expect(examples.length).toBeGreaterThan(60);
  });

  it.each(examples)('%s: %s', (_source, sql) => {
    const g = permissive(sql);
    expect(errorsOf(sql, g)).toEqual([]);
    expect(errorsOf(sql, { ...g, functions: plainFunctions })).toEqual([]);
  });
});

describe('prevalidate (veloFlux): rejects with a specific, actionable message', () => {
  it.each<[string, string, Grounding]>([
    // statements
    ['SELECT 1; DROP STREAM s', 'only one SQL statement is allowed', SENSOR],
    [
      'SELECT device_id FROM sensor_stream; DROP STREAM sensor_stream',
      'only a single SELECT statement is allowed (found DROP)',
      SENSOR,
    ],
    ['DELETE FROM sensor_stream', 'only a single SELECT statement is allowed (found DELETE)', SENSOR],
    // Created by the engine, then failing or ignored when the pipeline runs (live-engine.spec.ts).
    [
      "SELECT count(DISTINCT device_id) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)",
      'use ndv(x) for a distinct count',
      SENSOR,
    ],
    [
      "SELECT max(temperature) FILTER (WHERE humidity > 1) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)",
      'veloFlux ignores FILTER (WHERE …) on max()',
      SENSOR,
    ],
    ['SELECT * FROM sensor_stream ORDER BY sensor_stream.*', 'ORDER BY cannot sort by sensor_stream.*', SENSOR],
    ['/* harmless */ DELETE FROM sensor_stream', 'found DELETE', SENSOR],
    ['SELEC device_id FROM sensor_stream', 'only a single SELECT statement is allowed (found SELEC)', SENSOR],
    [
      'WITH x AS (SELECT device_id FROM sensor_stream) SELECT * FROM x',
      'WITH (common table expressions) is not supported by veloFlux',
      SENSOR,
    ],
    ['SELECT update FROM sensor_stream', `if 'update' is meant as a column name, quote it: "update"`, SENSOR],
    ['', 'there is no SQL to check', SENSOR],
    ["SELECT device_id FROM sensor_stream WHERE device_id = 'abc", 'unterminated string literal', SENSOR],
    ['SELECT device_id\u00a0FROM sensor_stream', 'U+00A0 (no-break space)', SENSOR],
    ['SELECT device_id FROM sensor_stream WHERE\u0000 1 = 1', 'U+0000', SENSOR],
    ['SELECT (device_id FROM sensor_stream', 'unbalanced brackets', SENSOR],
    // columns
    [
      'SELECT missing_col FROM sensor_stream',
      "unknown column 'missing_col' in stream 'sensor_stream'; available columns: device_id, temperature, humidity, ts",
      SENSOR,
    ],
    ['SELECT device_id FROM sensor_stream WHERE missing_col > 1', "unknown column 'missing_col'", SENSOR],
    ['SELECT sensor_stream.missing_col FROM sensor_stream', "unknown column 'missing_col'", SENSOR],
    ['SELECT Temperature FROM sensor_stream', "did you mean 'temperature'? (column names are case-sensitive)", SENSOR],
    ['SELECT temp FROM kv', "did you mean 'Temp'? (column names are case-sensitive)", KV],
    ['SELECT temprature FROM sensor_stream', "did you mean 'temperature'?", SENSOR],
    [
      'SELECT device_id FROM sensor_stream WHERE device_id = "abc"',
      "write a string literal in single quotes: 'abc'",
      SENSOR,
    ],
    [
      'SELECT location->alt FROM vehicle',
      "unknown field 'alt' in struct 'location'; available fields: lat, lon",
      VEHICLE,
    ],
    [
      'SELECT wheels[0]->psi FROM vehicle',
      "unknown field 'psi' in struct 'wheels[0]'; available fields: pos, pressure",
      VEHICLE,
    ],
    ['SELECT speed->x FROM vehicle', "'speed' is a int64, not a struct", VEHICLE],
    ["SELECT location->'lat' FROM vehicle", "'->' must be followed by a field name", VEHICLE],
    [
      'SELECT location.lat FROM vehicle',
      'dot syntax means stream.column in veloFlux; for a struct field write (location->lat)',
      VEHICLE,
    ],
    ['SELECT vehicle.location.lat FROM vehicle', 'has more than two parts', VEHICLE],
    ['SELECT other.vin FROM vehicle', "unknown stream or alias 'other' in 'other.vin'", VEHICLE],
    ['SELECT tags[-1] FROM vehicle', 'use element_at(tags, -1)', VEHICLE],
    // functions
    ['SELECT foo(temperature) FROM sensor_stream', "unknown function 'foo'", SENSOR],
    ['SELECT avgg(temperature) FROM sensor_stream', 'did you mean avg()', SENSOR],
    ["SELECT date_trunc('minute', ts) FROM sensor_stream", "GROUP BY tumblingwindow('ss', <seconds>)", SENSOR],
    [
      "SELECT count(*) FROM sensor_stream GROUP BY hoppingwindow('ss', 10, 5)",
      'veloFlux has no hoppingwindow; use slidingwindow',
      SENSOR,
    ],
    [
      "SELECT count(*) FROM sensor_stream GROUP BY sessionwindow('ss', 10)",
      'veloFlux has no sessionwindow; use statewindow',
      SENSOR,
    ],
    ['SELECT sum(DISTINCT temperature) FROM sensor_stream', 'use ndv(x) for a distinct count', SENSOR],
    // The catalog lists cast(x, 'type'), but the recorded engine fails to parse it (probe_cast_fn).
    ["SELECT cast(speed, 'string') FROM vehicle", "cast(x, 'type') cannot be called in veloFlux", VEHICLE],
    // FROM
    [
      'SELECT a FROM nosuch_stream',
      "unknown stream 'nosuch_stream'; known streams: sensor_stream, vehicle, kv",
      SENSOR,
    ],
    ['SELECT device_id FROM Sensor_Stream', "did you mean 'sensor_stream'? (stream names are case-sensitive)", SENSOR],
    ['SELECT device_id FROM "sensor_stream"', 'do not quote the stream name in FROM', SENSOR],
    ['SELECT device_id FROM `sensor_stream`', 'do not quote the stream name in FROM', SENSOR],
    ['SELECT vin FROM vehicle', "was drafted against stream 'sensor_stream'", SENSOR],
    ['SELECT 1 AS a', 'the query has no FROM clause', SENSOR],
    ['SELECT * FROM (SELECT device_id FROM nosuch) x', "unknown stream 'nosuch'", SENSOR],
    ['SELECT * FROM (VALUES (1)) x', 'subqueries are not supported by veloFlux', SENSOR],
    [
      'SELECT s.device_id FROM sensor_stream s JOIN vehicle v ON s.device_id = v.vin',
      'JOIN and several FROM sources are not supported',
      SENSOR,
    ],
    ['SELECT device_id FROM sensor_stream, vehicle', 'JOIN and several FROM sources are not supported', SENSOR],
    // constructs veloFlux does not compile (contract §7)
    ['SELECT device_id FROM sensor_stream WHERE temperature IS NULL', 'write isnull(x) instead', SENSOR],
    ['SELECT device_id FROM sensor_stream WHERE temperature IS NOT NULL', 'write NOT isnull(x) instead', SENSOR],
    [
      "SELECT device_id FROM sensor_stream WHERE device_id LIKE 'a%'",
      "use regexp_matches(x, 'pattern'), startswith(x, 'prefix') or endswith(x, 'suffix')",
      SENSOR,
    ],
    ["SELECT device_id FROM sensor_stream WHERE device_id NOT ILIKE 'a%'", 'ILIKE is not supported', SENSOR],
    ["SELECT device_id || '-x' FROM sensor_stream", 'use concat(a, b)', SENSOR],
    ['SELECT CAST(temperature AS int) FROM sensor_stream', 'CAST(x AS int) is not supported by veloFlux', SENSOR],
    ['SELECT CAST(ts AS varchar) FROM sensor_stream', 'cast() is not callable in any spelling either', SENSOR],
    ['SELECT temperature::int FROM sensor_stream', "'::' casts are not supported by veloFlux", SENSOR],
    [
      "SELECT device_id FROM sensor_stream WHERE ts > now() - INTERVAL '5' MINUTE",
      'INTERVAL literals are not supported',
      SENSOR,
    ],
    ['SELECT EXTRACT(hour FROM ts) FROM sensor_stream', 'use the time functions hour(ts)', SENSOR],
    [
      'SELECT device_id FROM sensor_stream WHERE device_id IN (SELECT vin FROM vehicle)',
      'subqueries are not supported',
      SENSOR,
    ],
    [
      'SELECT device_id FROM sensor_stream WHERE EXISTS (SELECT 1 FROM vehicle)',
      'EXISTS and subqueries are not supported',
      SENSOR,
    ],
    [
      "SELECT avg(temperature) FROM sensor_stream GROUP BY tumblingwindow('mm', 1)",
      "accepts only the time unit 'ss' (seconds), found 'mm'; write tumblingwindow('ss', 60) for 1 minute(s)",
      SENSOR,
    ],
    ["SELECT avg(temperature) FROM sensor_stream GROUP BY slidingwindow('hh', 2)", "slidingwindow('ss', 7200)", SENSOR],
    [
      'SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow("ss", 10)',
      "needs the time unit 'ss' as its first argument",
      SENSOR,
    ],
    ["SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('ss')", 'tumblingwindow requires 2 arguments', SENSOR],
    [
      "SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('ss', 1.5)",
      'length must be an unsigned integer literal',
      SENSOR,
    ],
    [
      'SELECT count(*) FROM sensor_stream GROUP BY countwindow(ts)',
      'count must be an unsigned integer literal',
      SENSOR,
    ],
    ["SELECT tumblingwindow('ss', 10), count(*) FROM sensor_stream", 'must be written inside GROUP BY', SENSOR],
    ['SELECT count(*) FROM sensor_stream WHERE countwindow(3) > 1', 'must be written inside GROUP BY', SENSOR],
    [
      "SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('ss', 10), countwindow(5)",
      'only one window is allowed in GROUP BY, found 2',
      SENSOR,
    ],
    [
      "SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('ss', 10) OVER (PARTITION BY device_id)",
      'only statewindow accepts OVER',
      SENSOR,
    ],
    [
      'SELECT count(*) FROM sensor_stream GROUP BY statewindow(temperature > 1, temperature < 0) OVER (ORDER BY ts)',
      'statewindow OVER allows only PARTITION BY',
      SENSOR,
    ],
    [
      'SELECT device_id FROM sensor_stream ORDER BY temperature DESC NULLS LAST',
      'NULLS FIRST / NULLS LAST is not supported',
      SENSOR,
    ],
    [
      'SELECT vin FROM vehicle WHERE location->lat > 10',
      "struct access 'location->lat' must be parenthesized when followed by '>'",
      VEHICLE,
    ],
    ['SELECT vin FROM vehicle WHERE location->lat = 1 AND speed > 1', 'write (location->lat) = …', VEHICLE],
    ["SELECT vin->>'x' FROM vehicle", "the JSON operator '->>' is not supported", VEHICLE],
    ['SELECT device_id FROM sensor_stream UNION SELECT vin FROM vehicle', 'UNION is not supported by veloFlux', SENSOR],
    [
      "SELECT device_id FROM sensor_stream WHERE ts > TIMESTAMP '2024-01-01 00:00:00'",
      'compare with a Unix epoch number instead, or use from_unix_time(seconds)',
      SENSOR,
    ],
    // planner rules (contract §7, §8)
    [
      "SELECT device_id, avg(temperature) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)",
      "SELECT expression 'device_id' must be an aggregate or appear in GROUP BY; add it to GROUP BY (e.g. GROUP BY device_id, tumblingwindow('ss', 10))",
      SENSOR,
    ],
    [
      'SELECT device_id FROM sensor_stream GROUP BY device_id',
      'GROUP BY without aggregate functions is not supported',
      SENSOR,
    ],
    [
      'SELECT device_id, count(*) FROM sensor_stream GROUP BY device_id HAVING count(*) > 1',
      'HAVING requires a window in GROUP BY',
      SENSOR,
    ],
    [
      "SELECT avg(temperature) AS temperature FROM sensor_stream GROUP BY tumblingwindow('ss', 10)",
      "alias 'temperature' collides with the input column 'temperature'",
      SENSOR,
    ],
    ['SELECT temperature AS t, humidity AS t FROM sensor_stream', "alias 't' is used twice", SENSOR],
    ['SELECT temperature AS col_1 FROM sensor_stream', "alias 'col_1' is reserved by veloFlux", SENSOR],
    [
      "SELECT device_id AS d, count(*) FROM sensor_stream GROUP BY d, tumblingwindow('ss', 10)",
      "alias 'd' cannot be used in GROUP BY",
      SENSOR,
    ],
    [
      "SELECT count(*) AS c FROM sensor_stream GROUP BY tumblingwindow('ss', 10) HAVING c > 1",
      "alias 'c' cannot be used in HAVING",
      SENSOR,
    ],
    [
      'SELECT device_id FROM sensor_stream WHERE avg(temperature) > 1',
      'aggregate avg() cannot be called in WHERE',
      SENSOR,
    ],
    ['SELECT device_id FROM sensor_stream WHERE', 'WHERE is empty', SENSOR],
  ])('%s', (sql, expected, g) => {
    const result = prevalidate(sql, g);
    expect(result.ok).toBe(false);
    expect(errorsOf(sql, g).join('\n')).toContain(expected);
  });

  it('reports every problem at once, each once', () => {
    const errors = errorsOf("SELECT nope, nope FROM sensor_stream WHERE device_id LIKE 'x' AND zzz IS NULL", SENSOR);
    expect(errors.filter((e) => e.includes("unknown column 'nope'"))).toHaveLength(1);
    expect(errors.some((e) => e.includes("unknown column 'zzz'"))).toBe(true);
    expect(errors.some((e) => e.startsWith('LIKE is not supported'))).toBe(true);
    expect(errors.some((e) => e.startsWith('IS NULL is not supported'))).toBe(true);
  });

  it('does not report keywords, literals, numbers, aliases or the stream name as columns', () => {
    const errors = errorsOf(
      "SELECT sensor_stream AS x, 'nope' AS y, 3 AS z FROM sensor_stream WHERE x = 'missing' ORDER BY z",
      SENSOR,
    );
    expect(errors).toEqual([]);
  });
});

describe('prevalidate (veloFlux): warnings for what the engine silently ignores', () => {
  it.each<[string, string]>([
    ['SELECT device_id FROM sensor_stream LIMIT 10', 'LIMIT is ignored by veloFlux'],
    ['SELECT DISTINCT device_id FROM sensor_stream', 'SELECT DISTINCT is ignored by veloFlux'],
    // Accepted by the recorded engine, planned over the inner stream (probe_subquery_from).
    [
      'SELECT * FROM (SELECT device_id FROM sensor_stream) x',
      "drops the subquery's column list; select from the stream directly: FROM sensor_stream",
    ],
  ])('%s', (sql, warning) => {
    const result = prevalidate(sql, SENSOR);
    expect(result.ok).toBe(true);
    expect(result.warnings.join('\n')).toContain(warning);
  });
});
