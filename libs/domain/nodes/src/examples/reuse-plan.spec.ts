import type { CloseExample, Reading } from '@nl2p/envelope';
import { QueryPlan, type QueryPlanInput } from '@nl2p/query-plan';
import { planValues } from './plan-values';
import { reusePlan, sameColumnValueIn, withReusedPlan } from './reuse-plan';

const values = sameColumnValueIn({
  values: { customers: { country: ['France', 'Germany', 'Spain'] }, orders: { status: ['shipped', 'pending'] } },
});
const example = (request: string, plan: QueryPlanInput | null): CloseExample => ({
  request,
  sql: 'SELECT …',
  plan: plan && QueryPlan.parse(plan),
  confirmed_at: '2026-11-25T10:00:00.000Z',
});
const col = (column: string, table?: string) => ({
  kind: 'column' as const,
  ref: table ? { table, column } : { column },
});

const HOT = example('average temperature per device above 30', {
  source: 'sensor_readings',
  select: [
    { kind: 'value', expr: col('device_id') },
    { kind: 'aggregate', aggregate: { fn: 'avg', arg: col('temperature') } },
  ],
  where: { kind: 'compare', left: col('temperature'), op: '>', value: { kind: 'number', value: 30 } },
  group_by: [{ column: 'device_id' }],
});
const FRANCE_TOP = example('top 3 customers from France', {
  source: 'customers',
  where: { kind: 'compare', left: col('country'), op: '=', value: { kind: 'string', value: 'France' } },
  limit: 3,
});

describe('reusing an earlier plan with new values', () => {
  it('replaces the threshold and says so', () => {
    const outcome = reusePlan('average temperature per device above 25', HOT, values);
    expect(outcome).toEqual({
      ok: true,
      reused: {
        plan: { ...HOT.plan, where: { ...HOT.plan?.where, value: { kind: 'number', value: 25 } } },
        assumption: "Reused your earlier question 'average temperature per device above 30' with 25 instead of 30.",
      },
    });
  });

  it('replaces a value of the data, spelled as the data spells it, and a LIMIT', () => {
    const outcome = reusePlan('top 5 customers from germany', FRANCE_TOP, values);
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.reused.plan.limit).toBe(5);
    expect(outcome.reused.plan.where).toMatchObject({ value: { kind: 'string', value: 'Germany' } });
    expect(outcome.reused.assumption).toBe(
      "Reused your earlier question 'top 3 customers from France' with 5 instead of 3 and 'Germany' instead of 'France'.",
    );
  });

  it('reuses the same question as it was confirmed', () => {
    const outcome = reusePlan('Average temperature per device above 30?', HOT, values);
    expect(outcome).toMatchObject({ ok: true, reused: { plan: HOT.plan } });
  });

  it.each([
    ['a column word differs', 'average humidity per device above 25', HOT],
    ['a word is added', 'average temperature per device above 25 today', HOT],
    ['the new value is not in the data', 'top 3 customers from Atlantis', FRANCE_TOP],
    ['a LIMIT the plan cannot hold', 'top 2.5 customers from France', FRANCE_TOP],
    ['no plan was confirmed', 'average temperature per device above 25', example(HOT.request, null)],
  ])('refuses when %s', (_why, request, earlier) => {
    expect(reusePlan(request, earlier, values).ok).toBe(false);
  });

  it('refuses a plan holding a value its question did not write (a date computed from "last week")', () => {
    const lastWeek = example('orders above 5 in the last week', {
      source: 'orders',
      where: {
        kind: 'and',
        conditions: [
          { kind: 'compare', left: col('quantity'), op: '>', value: { kind: 'number', value: 5 } },
          { kind: 'compare', left: col('ordered_at'), op: '>=', value: { kind: 'timestamp', value: '2026-11-18' } },
        ],
      },
    });
    expect(reusePlan('orders above 7 in the last week', lastWeek, values)).toMatchObject({ ok: false });
    expect(reusePlan('orders above 5 in the last week', lastWeek, values)).toMatchObject({ ok: false });
  });

  it('refuses when the changed value also stands for a value from elsewhere (a glossary term)', () => {
    // "hot" defined as temperature > 30 by the glossary, and 30 written for the battery.
    const hot = example('hot devices with battery under 30', {
      source: 'sensor_readings',
      where: {
        kind: 'and',
        conditions: [
          { kind: 'compare', left: col('temperature'), op: '>', value: { kind: 'number', value: 30 } },
          { kind: 'compare', left: col('battery'), op: '<', value: { kind: 'number', value: 30 } },
        ],
      },
    });
    expect(reusePlan('hot devices with battery under 20', hot, values).ok).toBe(false);
  });

  it('finds the values a plan holds, shaping numbers apart from literals', () => {
    expect(planValues(FRANCE_TOP.plan as QueryPlan)).toEqual([
      { path: ['where', 'value', 'value'], kind: 'text', value: 'France', literal: true },
      { path: ['limit'], kind: 'number', value: 3, literal: false },
    ]);
  });
});

describe('the reading with a reused plan', () => {
  const reading = (request: string): Reading => ({
    request,
    intent: null,
    named_table: null,
    tables: [],
    table: null,
    plan: null,
    columns: [],
    tokens: [],
    unknown: ['per'],
    ambiguous: [],
    unexplained: ['per'],
    assumptions: [],
    doubts: ['something'],
    confidence: 'partial',
    trusted: false,
  });

  it('takes the first earlier question that is the same one, trusted, with its table', () => {
    const read = withReusedPlan(reading('top 4 customers from Spain'), [HOT, FRANCE_TOP], values);
    expect(read).toMatchObject({
      intent: 'nl2sql',
      table: 'customers',
      trusted: true,
      confidence: 'high',
      unexplained: [],
      plan: { limit: 4 },
    });
    expect(read.assumptions).toEqual([expect.stringMatching(/^Reused your earlier question 'top 3 customers/)]);
  });

  it('leaves the reading as it was when none is', () => {
    const given = reading('top customers per segment');
    expect(withReusedPlan(given, [HOT, FRANCE_TOP], values)).toBe(given);
  });
});
