import fc from 'fast-check';
import type { Column } from '@nl2p/envelope';
import { checkPlan, QueryPlan, QueryPlanError, type QueryPlanInput } from '@nl2p/query-plan';
import { prevalidate } from '@nl2p/sql-guard';
import { velofluxCompiler } from './compiler';

/**
 * Property (issue 14): every streaming plan the catalog check accepts either compiles to SQL the
 * product's veloFlux check (which encodes the recorded engine's dialect) accepts, or is refused
 * by the compiler with a sentence — never SQL the engine would reject.
 */
const c = (name: string, data_type: string, fields?: Column[]): Column => ({
  name,
  data_type,
  ...(fields ? { fields } : {}),
});
const STREAMS: Record<string, Column[]> = {
  sensor_stream: [c('device_id', 'String'), c('temperature', 'Float64'), c('humidity', 'Float64'), c('ok', 'Bool')],
  vehicle: [c('vin', 'String'), c('speed', 'Float64'), c('location', 'Struct', [c('lat', 'Float64'), c('lon', 'Float64')])],
}; // prettier-ignore
const FUNCTIONS = [
  ...['avg', 'sum', 'min', 'max', 'count'].map((name) => ({ name, kind: 'aggregate' })),
  ...['isnull', 'regexp_matches', 'startswith', 'endswith'].map((name) => ({ name, kind: 'scalar' })),
];

const planArb: fc.Arbitrary<QueryPlanInput> = fc.constantFrom('sensor_stream', 'vehicle').chain((source) => {
  const numeric = source === 'vehicle' ? ['speed'] : ['temperature', 'humidity'];
  const text = source === 'vehicle' ? 'vin' : 'device_id';
  const ref = (column: string, path?: string[]) => ({ kind: 'column' as const, ref: { column, ...(path ? { path } : {}) } });
  const values = fc.constantFrom(
    ref(text),
    ...numeric.map((n) => ref(n)),
    ...(source === 'vehicle' ? [ref('location', ['lat']), ref('location', ['lon'])] : []),
  );
  const condition = fc.oneof(
    fc.record({ left: values, op: fc.constantFrom('=', '!=', '<', '>=', '>'), n: fc.integer({ min: -5, max: 100 }) }).map((r) => ({
      kind: 'compare' as const, left: r.left, op: r.op as '>', value: { kind: 'number' as const, value: r.n },
    })),
    fc.constant({ kind: 'in' as const, column: { column: text }, values: [{ kind: 'string' as const, value: 'a' }, { kind: 'string' as const, value: "b'c" }] }),
    fc.constantFrom('contains', 'starts_with', 'ends_with').map((match) => ({ kind: 'text' as const, column: { column: text }, match: match as 'contains', value: 'x.y' })),
    fc.boolean().map((negated) => ({ kind: 'null' as const, column: { column: numeric[0] }, negated })),
  ); // prettier-ignore
  const window = fc.option(
    fc.oneof(
      fc.record({ kind: fc.constant('tumbling' as const), unit: fc.constantFrom('second' as const, 'minute' as const, 'hour' as const), size: fc.integer({ min: 1, max: 30 }) }),
      fc.record({ kind: fc.constant('sliding' as const), unit: fc.constant('second' as const), size: fc.integer({ min: 1, max: 60 }), lookahead: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ kind: fc.constant('count' as const), size: fc.integer({ min: 1, max: 500 }) }),
    ).chain((w) => fc.oneof({ arbitrary: fc.constant(w), weight: 8 }, { arbitrary: fc.constant({ kind: 'hopping' as const, unit: 'second' as const, size: 60, hop: 10 }), weight: 1 })),
    { nil: null },
  ); // prettier-ignore
  return fc
    .record({
      key: fc.boolean(),
      values: fc.subarray(numeric, { minLength: 0, maxLength: numeric.length }),
      aggs: fc.array(fc.record({ fn: fc.constantFrom('avg', 'sum', 'min', 'max', 'count'), of: fc.constantFrom(...numeric) }), { maxLength: 2 }),
      where: fc.option(fc.array(condition, { minLength: 1, maxLength: 2 }), { nil: null }),
      window,
      having: fc.boolean(),
      // Rarely: the engine ignores LIMIT, so the compiler refuses it.
      limit: fc.oneof({ arbitrary: fc.constant(null), weight: 6 }, { arbitrary: fc.constant(5), weight: 1 }),
    })
    .map((r): QueryPlanInput => {
      const aggregates = r.aggs.map((a) => ({ fn: a.fn as 'avg', arg: a.fn === 'count' ? null : ref(a.of) }));
      const grouped = aggregates.length > 0;
      return {
        source,
        select: [
          ...(r.key || grouped ? [{ kind: 'value' as const, expr: ref(text) }] : []),
          ...(grouped ? [] : r.values.map((v) => ({ kind: 'value' as const, expr: ref(v) }))),
          ...aggregates.map((aggregate) => ({ kind: 'aggregate' as const, aggregate })),
        ],
        where: r.where ? { kind: 'and', conditions: r.where } : null,
        group_by: grouped ? [{ column: text }] : [],
        window: r.window,
        having: grouped && r.having ? [{ aggregate: aggregates[0], op: '>', value: 1 }] : [],
        limit: r.limit,
      };
    });
}); // prettier-ignore

describe('veloFlux compiler, random valid streaming plans', () => {
  it('compiles to SQL the veloFlux check accepts, or refuses in a sentence', () => {
    let compiled = 0;
    fc.assert(
      fc.property(planArb, (input) => {
        const checked = checkPlan(QueryPlan.parse(input), STREAMS);
        if (!checked.ok) throw new Error(`the plan check refused a valid plan: ${checked.errors.join('; ')}`);
        let sql: string;
        try {
          sql = velofluxCompiler.compile(checked.plan, STREAMS).sql;
        } catch (err) {
          expect(err).toBeInstanceOf(QueryPlanError);
          expect((err as Error).message).toMatch(/^veloFlux /);
          return;
        }
        compiled += 1;
        const result = prevalidate(sql, {
          dialect: 'veloflux',
          streams: Object.keys(STREAMS),
          stream: checked.plan.source,
          columns: STREAMS[checked.plan.source],
          functions: FUNCTIONS,
        });
        expect({ sql, errors: result.ok ? [] : result.errors }).toEqual({ sql, errors: [] });
      }),
      { numRuns: 300, seed: 15 },
    );
    // Most random plans are expressible: the property is not vacuous.
    expect(compiled).toBeGreaterThan(90);
  });
});
