import { checkPlan, QueryPlan, QueryPlanError, type QueryPlanInput } from '@nl2p/query-plan';
import { prevalidate } from '@nl2p/sql-guard';
import { recordedExchange, recordedFunctions, recordedStreams } from '@nl2p/testing';
import { velofluxCompiler } from './compiler';

/**
 * The plan language's newer constructs on veloFlux: each compiles to what the recorded engine
 * runs, or is refused by name in a sentence saying what to ask instead. Each refusal first
 * asserts the recorded exchange it rests on, so a citation that stops being true fails here.
 */
// The recorded streams have no timestamp column (their times are epoch numbers): one is added
// so a date part can be asked for at all.
const STREAMS: Record<string, { name: string; data_type: string }[]> = {
  ...recordedStreams(),
  events: [
    { name: 'at', data_type: 'timestamp' },
    { name: 'kind', data_type: 'string' },
  ],
};
const FUNCTIONS = recordedFunctions();
const col = (column: string) => ({ kind: 'column' as const, ref: { column } });
const value = (column: string) => ({ kind: 'value' as const, expr: col(column) });

function compile(input: QueryPlanInput) {
  const checked = checkPlan(QueryPlan.parse(input), STREAMS);
  if (!checked.ok) throw new Error(`the plan check refused the plan: ${checked.errors.join('; ')}`);
  return velofluxCompiler.compile(checked.plan, STREAMS);
}
function refusal(input: QueryPlanInput): string {
  try {
    compile(input);
  } catch (err) {
    if (err instanceof QueryPlanError) return err.message;
    throw err;
  }
  throw new Error('compiled, but veloFlux cannot run it');
}
const recordedBody = (name: string) => {
  const e = recordedExchange(name);
  return { status: e.status, body: e.body };
};

describe('veloFlux: constructs beyond one stream', () => {
  it('refuses set operations: the parser takes one simple SELECT', () => {
    expect(recordedBody('probe_union_create')).toMatchObject({ status: 400, body: expect.stringContaining('Expected a simple SELECT query') });
    expect(refusal({ source: 'sensor_readings', select: [value('site')], set_operations: [{ op: 'intersect', plan: { source: 'orders', select: [value('region')] } }] })).toBe(
      'veloFlux runs one simple SELECT per pipeline (its parser refuses INTERSECT), so the rows of two queries cannot be combined; run each query as its own pipeline',
    );
  }); // prettier-ignore

  it.each([
    ['in_subquery', { kind: 'in_subquery', left: col('site'), subquery: { plan: { source: 'orders', select: [value('region')] } } }],
    ['exists', { kind: 'exists', negated: true, subquery: { plan: { source: 'orders' }, correlate: [{ outer: { column: 'site' }, inner: { column: 'region' } }] } }],
    ['compare_subquery', { kind: 'compare_subquery', left: col('temp'), op: '>', subquery: { plan: { source: 'sensor_readings', select: [{ kind: 'aggregate', aggregate: { fn: 'avg', arg: col('temp') } }] } } }],
  ] as const)('refuses a sub-plan in a condition (%s): the engine cannot build the filter', (_kind, where) => {
    expect(recordedBody('probe_in_subquery_create')).toMatchObject({ status: 400, body: expect.stringContaining('Unsupported expression: InSubquery') });
    expect(refusal({ source: 'sensor_readings', select: [value('device_id')], where: where as unknown as QueryPlanInput['where'] })).toMatch(
      /^veloFlux cannot filter a stream by another query \(IN, EXISTS or a comparison with a sub-query on (orders|sensor_readings) is refused when the pipeline is built\); compare with fixed values instead$/,
    );
  }); // prettier-ignore

  it('refuses the rows holding a group extreme: no rank(), and a sub-query in FROM reads every row', () => {
    expect(FUNCTIONS.map((f) => f.name)).not.toEqual(expect.arrayContaining(['rank']));
    expect(FUNCTIONS.map((f) => f.name)).not.toContain('row_number');
    expect(recordedBody('probe_subquery_from_create').status).toBe(201);
    expect(refusal({ source: 'sensor_readings', select: [value('device_id'), value('temp')], extreme_per_group: { per: [{ column: 'device_id' }], by: col('temp'), extreme: 'max' } })).toBe(
      "veloFlux has no rank(), so the rows holding each group's max cannot be picked out; ask for the max itself per group instead",
    );
  }); // prettier-ignore

  it('refuses OFFSET: LIMIT itself is ignored', () => {
    expect(recordedBody('probe_limit_create').status).toBe(201);
    expect(refusal({ source: 'sensor_readings', select: [value('temp')], order_by: [{ key: { kind: 'output', index: 0 } }], offset: 1 })).toBe(
      'veloFlux has no OFFSET (a stream has no first rows to skip, and LIMIT is ignored); drop the offset',
    );
  }); // prettier-ignore

  it('refuses date parts: no year, quarter or week function, and weekdays counted from Sunday = 1', () => {
    const names = FUNCTIONS.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['hour', 'month', 'day_of_week']));
    expect(names).not.toContain('year');
    const catalog = JSON.parse(recordedExchange('functions_list').body) as { name: string; description: string }[];
    expect(catalog.find((f) => f.name === 'day_of_week')?.description).toMatch(/Sunday=1/);
    expect(refusal({ source: 'events', select: [{ kind: 'value', expr: { kind: 'column', ref: { column: 'at', part: 'month' } } }, { kind: 'aggregate', aggregate: { fn: 'count' } }], window: { kind: 'tumbling', unit: 'second', size: 60 } })).toMatch(
      /^veloFlux date parts are not compiled: .* so the month of at cannot be taken as on the SQL targets; group with a window or compare the time column instead$/,
    );
  }); // prettier-ignore

  it('compiles case-insensitive equality with lower(), which the local check and the catalog accept', () => {
    const { sql } = compile({ source: 'sensor_readings', select: [value('device_id')], where: { kind: 'text', column: { column: 'site' }, match: 'equals', value: 'Plant-A' } });
    expect(sql).toBe("SELECT device_id FROM sensor_readings WHERE lower(site) = 'plant-a'");
    expect(FUNCTIONS.map((f) => f.name)).toContain('lower');
    const r = prevalidate(sql, { dialect: 'veloflux', streams: Object.keys(STREAMS), stream: 'sensor_readings', columns: STREAMS['sensor_readings'], functions: FUNCTIONS });
    expect(r.ok ? [] : r.errors).toEqual([]);
  }); // prettier-ignore
});
