import fc from 'fast-check';
import {
  checkPlan,
  findJoinPath,
  QueryPlan,
  type Condition,
  type ConditionInput,
  type QueryPlanInput,
  type ValueExpr,
} from '@nl2p/query-plan';
import { targetProfile } from '../targets';
import { demoDataset } from './demo-dataset';
import { BothEngines } from './testing/both-engines';
import { LIBRARY_TABLES } from './testing/library-fixture';

/**
 * Property: random valid plans using the language's nested parts — sub-plans in conditions
 * (IN, NOT IN, EXISTS, NOT EXISTS, comparisons with one, all or any of a sub-plan's values,
 * correlated or not), set operations, rows holding their group's extreme, date parts, OFFSET,
 * and join paths of one to three hops found over the keys the catalog declares — compile, pass
 * the engine's own check, and return the same rows on DuckDB and PostgreSQL.
 */
const url = process.env.POSTGRES_URL;
const TMP = '__nl2pipeline_tmp__0123456789abcdef0123456789abcdef_1_1';
const demo = demoDataset();
const ref = (column: string, table?: string): ValueExpr => ({
  kind: 'column',
  ref: { column, ...(table ? { table } : {}) },
});
const values = (table: string, column: string): string[] => {
  const t = demo.find((x) => x.name === table);
  const i = t?.columns.findIndex((c) => c.name === column) ?? -1;
  return [...new Set((t?.rows ?? []).map((r) => r[i]).filter((v) => v !== null && v !== undefined).map(String))].slice(0, 20);
}; // prettier-ignore

/** Numeric and text columns of the demo tables, for conditions and sub-plans. */
const NUMERIC: Record<string, string[]> = {
  orders: ['quantity', 'unit_price', 'customer_id'],
  sensor_readings: ['temperature', 'humidity', 'battery'],
  customers: ['customer_id'],
};
const TEXT: Record<string, string[]> = {
  orders: ['status', 'category', 'product'],
  sensor_readings: ['device_id'],
  customers: ['country', 'segment', 'name'],
  devices: ['device_id', 'site', 'model'],
};
/** Pairs of tables a sub-plan can be tied to, by their shared key. */
const TIES: [string, string, string][] = [['customers', 'orders', 'customer_id'], ['devices', 'sensor_readings', 'device_id'], ['orders', 'customers', 'customer_id'], ['sensor_readings', 'devices', 'device_id']]; // prettier-ignore

const textFilter = (table: string): fc.Arbitrary<ConditionInput> =>
  fc.constantFrom(...TEXT[table]).chain((c) => fc.subarray(values(table, c), { minLength: 1, maxLength: 3 }).map((vs): ConditionInput => ({ kind: 'in', column: { column: c }, values: vs.map((value) => ({ kind: 'string', value })) }))); // prettier-ignore
const numberFilter = (table: string): fc.Arbitrary<ConditionInput> =>
  fc.record({ c: fc.constantFrom(...NUMERIC[table]), op: fc.constantFrom('>', '<', '>='), n: fc.integer({ min: 0, max: 60 }) }).map((x): ConditionInput => ({ kind: 'compare', left: ref(x.c), op: x.op as '>', value: { kind: 'number', value: x.n } })); // prettier-ignore
const filterOf = (table: string) =>
  NUMERIC[table] ? fc.oneof(textFilter(table), numberFilter(table)) : textFilter(table);

/** A condition holding a sub-plan over the table tied to `outer`. */
const subCondition: fc.Arbitrary<{ source: string; where: ConditionInput }> = fc.constantFrom(...TIES).chain(([outer, inner, key]) =>
  fc.record({ kind: fc.constantFrom('in', 'not_in', 'exists', 'not_exists', 'single', 'all', 'any'), filter: fc.option(filterOf(inner), { nil: null }), fn: fc.constantFrom('avg', 'max', 'min'), op: fc.constantFrom('>', '<', '>=', '=') }).map((x) => {
    const where = x.filter ?? undefined;
    const correlate = [{ outer: { column: key }, inner: { column: key } }];
    const numeric = NUMERIC[outer]?.find((c) => NUMERIC[inner]?.includes(c)) ?? key;
    const of = (select: QueryPlanInput['select'], tied = false) => ({ plan: { source: inner, select, where }, ...(tied ? { correlate } : {}) });
    const cond: ConditionInput =
      x.kind === 'in' || x.kind === 'not_in' ? { kind: 'in_subquery', left: ref(key), negated: x.kind === 'not_in', subquery: of([{ kind: 'value', expr: ref(key) }]) }
      : x.kind === 'exists' || x.kind === 'not_exists' ? { kind: 'exists', negated: x.kind === 'not_exists', subquery: of([], true) }
      : x.kind === 'single' ? { kind: 'compare_subquery', left: ref(numeric), op: x.op as '>', subquery: of([{ kind: 'aggregate', aggregate: { fn: x.fn, arg: ref(numeric) } }], numeric !== key) }
      : { kind: 'compare_subquery', left: ref(numeric), op: x.op as '>', quantifier: x.kind as 'all', subquery: of([{ kind: 'value', expr: ref(numeric) }]) };
    return { source: outer, where: cond };
  }),
); // prettier-ignore

const nested: fc.Arbitrary<QueryPlanInput> = fc.record({ sub: subCondition, extra: fc.boolean(), grouped: fc.boolean() }).chain(({ sub, extra, grouped }) =>
  fc.option(filterOf(sub.source), { nil: null }).map((f): QueryPlanInput => {
    const where: ConditionInput = extra && f ? { kind: 'and', conditions: [sub.where, f] } : sub.where;
    const text = TEXT[sub.source][0];
    return grouped ? { source: sub.source, select: [{ kind: 'value', expr: ref(text) }, { kind: 'aggregate', aggregate: { fn: 'count' } }], where } : { source: sub.source, select: [{ kind: 'value', expr: ref(text) }, { kind: 'value', expr: ref(TEXT[sub.source][1] ?? text) }], where };
  }),
); // prettier-ignore

const setOperation: fc.Arbitrary<QueryPlanInput> = fc.constantFrom('orders', 'customers', 'devices').chain((table) =>
  fc.record({ column: fc.constantFrom(...TEXT[table]), first: filterOf(table), rest: fc.array(fc.record({ op: fc.constantFrom('union', 'union_all', 'intersect', 'except'), where: filterOf(table) }), { minLength: 1, maxLength: 2 }), desc: fc.boolean(), offset: fc.nat({ max: 2 }) }).map((x): QueryPlanInput => ({
    source: table, select: [{ kind: 'value', expr: ref(x.column) }], where: x.first,
    set_operations: x.rest.map((r) => ({ op: r.op as 'union', plan: { source: table, select: [{ kind: 'value', expr: ref(x.column) }], where: r.where } })),
    order_by: [{ key: { kind: 'output', index: 0 }, direction: x.desc ? 'desc' : 'asc' }], offset: x.offset,
  })),
); // prettier-ignore

const extreme: fc.Arbitrary<QueryPlanInput> = fc.constantFrom('orders', 'sensor_readings').chain((table) =>
  fc.record({ per: fc.subarray(TEXT[table], { maxLength: Math.min(2, TEXT[table].length) }), by: fc.constantFrom(...NUMERIC[table]), max: fc.boolean(), count: fc.integer({ min: 1, max: 3 }), where: fc.option(filterOf(table), { nil: null }), part: fc.boolean() }).map((x): QueryPlanInput => {
    const time = table === 'orders' ? 'ordered_at' : 'ts';
    const shown = x.part ? [{ kind: 'value' as const, expr: { kind: 'column' as const, ref: { column: time, part: 'day_of_week' as const } } }] : [];
    return { source: table, select: [...x.per.map((c) => ({ kind: 'value' as const, expr: ref(c) })), { kind: 'value', expr: ref(x.by) }, ...shown], where: x.where, extreme_per_group: { per: x.per.map((column) => ({ column })), by: ref(x.by), extreme: x.max ? 'max' : 'min', count: x.count } };
  }),
); // prettier-ignore

describe('random nested, set-operation, extreme and multi-hop plans run alike on DuckDB and PostgreSQL', () => {
  const engines = new BothEngines();
  beforeAll(() => engines.start(url), 120_000);
  afterAll(() => engines.stop());

  /** Plans over the library: a path of one to three hops to the tables named, found over declared keys. */
  const multiHop = (): fc.Arbitrary<QueryPlanInput> =>
    fc.record({ source: fc.constantFrom(...LIBRARY_TABLES), targets: fc.subarray([...LIBRARY_TABLES], { minLength: 1, maxLength: 2 }), grouped: fc.boolean(), year: fc.option(fc.constantFrom(2014, 2018, 2020), { nil: null }) }).map((x): QueryPlanInput => {
      const path = findJoinPath(engines.keyed, x.source, x.targets.filter((t) => t !== x.source));
      const scope = [x.source, ...(path?.joins.map((j) => j.table) ?? [])];
      const shown = scope.flatMap((t) => (engines.tables[t] ?? []).filter((c) => c.data_type.startsWith('varchar')).map((c) => ref(c.name, t))).slice(0, 2);
      const counted = scope.flatMap((t) => (engines.tables[t] ?? []).filter((c) => c.name.endsWith('_id')).map((c) => ref(c.name, t)))[0];
      const where: Condition | null = x.year && scope.includes('books') ? { kind: 'compare', left: { kind: 'column', ref: { table: 'books', column: 'published', part: 'year' } }, op: '>=', value: { kind: 'number', value: x.year } } : null;
      const select = x.grouped ? [...shown.map((expr) => ({ kind: 'value' as const, expr })), { kind: 'aggregate' as const, aggregate: { fn: 'count' as const, arg: counted ?? null, distinct: true } }] : shown.length ? shown.map((expr) => ({ kind: 'value' as const, expr })) : [];
      return { source: x.source, joins: path?.joins ?? [], select, where };
    }); // prettier-ignore

  it('every such plan the check accepts compiles, validates and runs on both, with the same rows', async () => {
    let compared = 0;
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(nested, setOperation, extreme, multiHop()), async (input) => {
        const checked = checkPlan(QueryPlan.parse(input), engines.tables);
        if (!checked.ok) throw new Error(`the plan check refused a valid plan: ${checked.errors.join('; ')}`);
        const duckSql = targetProfile('duckdb').compiler.compile(checked.plan, engines.tables).sql;
        const d = await engines.duck.validate(duckSql, TMP);
        if (!d.ok) throw new Error(`DuckDB refused ${duckSql}: ${d.error}`);
        if (!engines.pg) return;
        const pgSql = targetProfile('postgres').compiler.compile(checked.plan, engines.tables).sql;
        const p = await engines.pg.validate(pgSql, TMP);
        if (!p.ok) throw new Error(`PostgreSQL refused ${pgSql}: ${p.error}`);
        // Rows compared without LIMIT and OFFSET: which of tied rows they keep is up to each engine.
        const all = { ...checked.plan, limit: null, offset: 0 };
        const duckAll = targetProfile('duckdb').compiler.compile(all, engines.tables).sql;
        const pgAll = targetProfile('postgres').compiler.compile(all, engines.tables).sql;
        const [a, b] = await Promise.all([engines.duckRows(duckAll), engines.pgRows(pgAll)]);
        expect({ duckAll, pgAll, rows: a }).toEqual({ duckAll, pgAll, rows: b });
        compared += 1;
        if (a.length > 0) nonEmpty += 1;
      }),
      { numRuns: 120, seed: 24 },
    );
    if (url) {
      expect(compared).toBe(120);
      expect(nonEmpty).toBeGreaterThan(60);
    }
  }, 240_000);
});
