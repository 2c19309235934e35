import type { CloseExample, Reading } from '@nl2p/envelope';
import type { LinkSchema } from '@nl2p/linking';
import type { QueryPlan } from '@nl2p/query-plan';
import { countOf, planValues, withValues } from './plan-values';
import {
  requestTokens,
  valueClassOf,
  valueDiff,
  valueKey,
  type SameColumnValue,
  type ValueChange,
  type ValueClass,
} from './request-values';

/** An earlier confirmed plan with the new request's values, and the sentence that says so. */
export interface ReusedPlan {
  plan: QueryPlan;
  assumption: string;
}

export type ReuseOutcome = { ok: true; reused: ReusedPlan } | { ok: false; reason: string };

/**
 * The confirmed plan of `example` with `request`'s values, when `request` is the same question
 * with other values; otherwise why not.
 *
 * Besides the value diff, the earlier plan must be made of the earlier request's words alone:
 * each literal it holds is written in the request exactly as often as the plan holds it. A plan
 * with a value from anywhere else — a date computed from "last week" on the day it was asked, a
 * glossary's or a session's definition, a value the linker guessed — may not hold today, and a
 * changed value that also stood for such a value would change it too; neither is reused.
 */
export function reusePlan(request: string, example: CloseExample, sameColumnValue: SameColumnValue): ReuseOutcome {
  if (!example.plan) return { ok: false, reason: 'the earlier question has no plan' };
  const diff = valueDiff(example.request, request, sameColumnValue);
  if (!diff.ok) return diff;
  const written = requestValues(example.request);
  const values = planValues(example.plan);
  for (const v of values.filter((v) => v.literal)) {
    const key = valueKey(v.kind, v.value);
    if (countOf(values, key) !== countOf(written, key)) {
      return { ok: false, reason: `the earlier plan's ${String(v.value)} is not one written in its question` };
    }
  }
  for (const change of diff.changes) {
    const key = valueKey(change.kind, change.from);
    const inPlan = countOf(values, key);
    if (inPlan === 0 || inPlan !== countOf(written, key)) {
      return { ok: false, reason: `the earlier plan does not hold '${change.from}' as its question wrote it` };
    }
  }
  const plan = withValues(example.plan, diff.changes);
  if (!plan) return { ok: false, reason: 'the new values do not fit the earlier plan' };
  return { ok: true, reused: { plan, assumption: reuseSentence(example.request, diff.changes) } };
}

/** Every value a request writes: its numbers, quoted texts and dates, and each word as a text. */
function requestValues(request: string): { kind: ValueClass; value: string }[] {
  return requestTokens(request).map((t) => ({ kind: valueClassOf(t.kind) ?? 'text', value: t.text }));
}

/** "Reused your earlier question '…' with 25 instead of 30." */
export function reuseSentence(earlier: string, changes: readonly ValueChange[]): string {
  if (!changes.length) return `Reused the plan you confirmed for your earlier question '${earlier}'.`;
  const said = (c: ValueChange) => (c.kind === 'number' ? c.to : `'${c.to}'`);
  const was = (c: ValueChange) => (c.kind === 'number' ? c.from : `'${c.from}'`);
  const parts = changes.map((c) => `${said(c)} instead of ${was(c)}`);
  return `Reused your earlier question '${earlier}' with ${parts.join(' and ')}.`;
}

/**
 * Whether two words are values of one column of `schema` (its low-cardinality text columns), and
 * the data's spelling of the second: "orders from France" and "… from Germany" are one question.
 */
export function sameColumnValueIn(schema: Pick<LinkSchema, 'values'>): SameColumnValue {
  return (from, to) => {
    for (const columns of Object.values(schema.values ?? {})) {
      for (const values of Object.values(columns)) {
        const spelled = (w: string) => values.find((v) => v.toLowerCase() === w.toLowerCase());
        const a = spelled(from);
        const b = spelled(to);
        if (a !== undefined && b !== undefined) return b;
      }
    }
    return null;
  };
}

/**
 * The reading of `request` with the plan of the closest earlier question that differs only in
 * values (closest first), taken as it is: the person confirmed that plan, so no model redrafts it,
 * and it is compiled and checked (locally, then by the engine) like any other. The reading as it
 * was when no earlier question is the same question.
 */
export function withReusedPlan(
  reading: Reading,
  examples: readonly CloseExample[],
  sameColumnValue: SameColumnValue,
): Reading {
  for (const example of examples) {
    const outcome = reusePlan(reading.request, example, sameColumnValue);
    if (!outcome.ok) continue;
    const { plan, assumption } = outcome.reused;
    return {
      ...reading,
      intent: 'nl2sql',
      table: plan.source,
      tables: [{ table: plan.source, score: 1 }],
      plan,
      unknown: [],
      ambiguous: [],
      unexplained: [],
      doubts: [],
      assumptions: [assumption],
      confidence: 'high',
      trusted: true,
    };
  }
  return reading;
}
