import { conditionText } from '@nl2p/envelope';
import { unusedTerms, type Links, type LinkSchema } from '@nl2p/linking';
import {
  columnsOf,
  type ColumnRef,
  describeAggregate,
  describeRef,
  type Condition,
  type HavingCondition,
  type QueryPlan,
} from '@nl2p/query-plan';
import { evidenced, NO_FACTS, type ConditionFacts } from './judge';
import { conditionKey, conjuncts, literalsIn, type RequestEvidence } from './request-evidence';

/** A model's draft after its unevidenced conditions were judged. */
export type GroundedDraft<T> =
  | { kind: 'kept'; draft: T; assumptions: string[] }
  /**
   * A condition was the draft's reading of words the person said, with content nobody said: ask.
   * `draft` and `assumptions` are the removal, for where a question cannot be asked (a repair).
   */
  | { kind: 'ask'; question: string; draft: T; assumptions: string[] };

/**
 * The model's plan without the conditions (WHERE parts, HAVING) and the LIMIT the request gives
 * no evidence for (issue 23), each removal said as an assumption.
 *
 * Removal, not a question, is the default: a condition no word asks for (`quantity IS NULL` in
 * "quantity per status") is not something the person could answer about — they never thought
 * of it — and the plan without it is the plan of what they did say. Removing a filter widens the
 * rows, never invents them, and the assumption names what was left out before anything runs.
 * The exception is a condition that was the plan's only use of a word the person said (`a large
 * quantity` drafted as `quantity > 10`): without it that word would go unread, so the turn asks
 * what the word means instead of silently dropping it or keeping a threshold nobody said.
 */
export function groundModelPlan(
  plan: QueryPlan,
  ev: RequestEvidence,
  links: Links,
  schema: LinkSchema,
): GroundedDraft<QueryPlan> {
  const parts = conjuncts(plan.where);
  const keptParts = parts.filter((c) => ev.proposed.has(conditionKey(c)) || evidenced(conditionFacts(c), ev));
  const droppedParts = parts.filter((c) => !keptParts.includes(c));
  const keptHaving = plan.having.filter((h) => evidenced(havingFacts(h), ev));
  const droppedHaving = plan.having.filter((h) => !keptHaving.includes(h));
  const dropLimit = plan.limit !== null && !limitEvidenced(plan.limit, links, ev);
  if (!droppedParts.length && !droppedHaving.length && !dropLimit)
    return { kind: 'kept', draft: plan, assumptions: [] };

  const where =
    keptParts.length === 0
      ? null
      : keptParts.length === 1
        ? keptParts[0]
        : { kind: 'and' as const, conditions: keptParts };
  const stripped: QueryPlan = {
    ...plan,
    where,
    having: keptHaving,
    ...(dropLimit ? { limit: null, offset: 0 } : {}),
  };
  const removed = [...droppedParts.map(describeCondition), ...droppedHaving.map(describeHaving)];
  const orphaned = orphanedWords(links, stripped, schema, [
    ...droppedParts.map(conditionFacts),
    ...droppedHaving.map(havingFacts),
  ]);
  const assumptions = leftOut(removed, dropLimit ? `LIMIT ${plan.limit}` : null);
  if (orphaned.length && removed.length)
    return { kind: 'ask', question: orphanQuestion(orphaned, removed), draft: stripped, assumptions };
  return { kind: 'kept', draft: stripped, assumptions };
}

/**
 * Words of the request the plan no longer uses once the conditions are left out, that name the
 * columns those conditions read (`card` in "trips paid by card", drafted as `payment_type =
 * 'cash'`): the condition was the draft's reading of them, so they cannot just go with it.
 */
function orphanedWords(links: Links, stripped: QueryPlan, schema: LinkSchema, removed: ConditionFacts[]): string[] {
  const columns = new Set(removed.flatMap((f) => f.columns));
  const unused = new Set(unusedTerms(links, stripped, schema));
  return links.terms
    .filter((t) => unused.has(t.text))
    .filter((t) => [...t.columns, ...t.values].some((c) => columns.has(c.column.toLowerCase())))
    .map((t) => t.text);
}

/** The assumptions saying what was left out of a draft. */
export function leftOut(removed: readonly string[], limit: string | null): string[] {
  const out = removed.map((r) => `I left out '${r}': nothing in the request asks for it.`);
  if (limit) out.push(`I left out '${limit}': nothing in the request asks for a number of rows.`);
  return out;
}

/**
 * A LIMIT is the request's when it says an order or a rank (`top 5`, `the oldest`), or the number
 * itself. A LIMIT nobody asked for cuts the answer short without a word: it is left out.
 */
function limitEvidenced(limit: number, links: Links, ev: RequestEvidence): boolean {
  return links.orders.length > 0 || ev.numbers.has(limit);
}

export function orphanQuestion(words: readonly string[], removed: readonly string[]): string {
  const said = words.map((w) => `'${w}'`).join(', ');
  const drafted = removed.join(' and ');
  return `The draft read ${said} as ${drafted}, which nothing in the request says. What should ${said} mean here?`;
}

/** The facts of a plan condition, for the judge. */
export function conditionFacts(c: Condition): ConditionFacts {
  const literals = literalsIn(c);
  const columns = conditionRefs(c).map((r) => r.column.toLowerCase());
  const subqueryTables =
    c.kind === 'exists' || c.kind === 'in_subquery' || c.kind === 'compare_subquery'
      ? [c.subquery.plan.source, ...c.subquery.plan.joins.map((j) => j.table)].map((t) => t.toLowerCase())
      : [];
  return {
    ...NO_FACTS,
    columns,
    strings: literals.flatMap((l) => (l.kind === 'string' ? [l.value] : [])),
    numbers: literals.flatMap((l) => (l.kind === 'number' ? [l.value] : [])),
    dates: literals.flatMap((l) => (l.kind === 'timestamp' ? [l.value] : [])),
    boolean: literals.some((l) => l.kind === 'boolean'),
    nullTest: hasNullTest(c),
    subqueryTables,
  };
}

function havingFacts(h: HavingCondition): ConditionFacts {
  const columns = h.aggregate.arg ? columnsOf(h.aggregate.arg).map((r) => r.column.toLowerCase()) : [];
  return { ...NO_FACTS, columns, numbers: [h.value] };
}

function conditionRefs(c: Condition): ColumnRef[] {
  switch (c.kind) {
    case 'compare':
    case 'in_subquery':
    case 'compare_subquery':
      return columnsOf(c.left);
    case 'in':
    case 'between':
    case 'text':
    case 'null':
      return [c.column];
    case 'and':
    case 'or':
      return c.conditions.flatMap(conditionRefs);
    case 'not':
      return conditionRefs(c.condition);
    case 'exists':
      return [];
  }
}

function hasNullTest(c: Condition): boolean {
  if (c.kind === 'null') return true;
  if (c.kind === 'and' || c.kind === 'or') return c.conditions.some(hasNullTest);
  return c.kind === 'not' && hasNullTest(c.condition);
}

/** A condition as a turn names it (`quantity is null`); a sub-query by its table. */
function describeCondition(c: Condition): string {
  const text = conditionText(c);
  if (text) return text;
  if (c.kind === 'between') return `${describeRef(c.column)} between ${c.low.value} and ${c.high.value}`;
  if (c.kind === 'text') return `${describeRef(c.column)} ${c.match.replace('_', ' ')} '${c.value}'`;
  if (c.kind === 'exists') return `${c.negated ? 'no' : 'a'} row of ${c.subquery.plan.source}`;
  return `a condition on ${conditionRefs(c).map(describeRef).join(', ') || 'a sub-query'}`;
}

function describeHaving(h: HavingCondition): string {
  return `${describeAggregate(h.aggregate)} ${h.op} ${h.value}`;
}
