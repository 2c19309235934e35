import { QueryPlan } from '@nl2p/query-plan';
import { valueKey, type ValueChange, type ValueClass } from './request-values';

// Where a plan holds values a request wrote: the literals of its conditions (compared, listed,
// between, matched as text, a number in arithmetic, a group's threshold) and the numbers that shape
// it (LIMIT, OFFSET, a bucket's or a window's size). Found by walking the plan's JSON, so a construct
// added to the plan later is covered where it reuses these shapes.

/** One value in a plan: where it is, what it is compared as, and whether it is a condition's literal. */
export interface PlanValue {
  path: (string | number)[];
  kind: ValueClass;
  value: string | number;
  /** A literal of a condition or expression (not a count or size that shapes the plan). */
  literal: boolean;
}

const LITERAL_CLASS: Record<string, ValueClass> = { string: 'text', number: 'number', timestamp: 'date' };
/** Numbers that shape a plan; `index` (an output position) and `version` are not values. */
const SHAPING_NUMBERS = new Set(['limit', 'offset', 'size', 'hop', 'gap', 'lookahead', 'count']);
/** Shaping numbers that are there when the request says nothing (no offset, no lookahead). */
const UNSAID_DEFAULTS: Record<string, number> = { offset: 0, lookahead: 0 };

type Json = Record<string, unknown>;

/** Every value of `plan`, in walking order. */
export function planValues(plan: QueryPlan): PlanValue[] {
  const found: PlanValue[] = [];
  walk(plan, [], found);
  return found;
}

function walk(node: unknown, path: (string | number)[], found: PlanValue[]): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => walk(child, [...path, i], found));
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const o = node as Json;
  const own = ownValue(o);
  if (own) found.push({ ...own, path: [...path, 'value'] });
  for (const [key, child] of Object.entries(o)) {
    if (own && key === 'value') continue;
    if (typeof child === 'number' && SHAPING_NUMBERS.has(key) && UNSAID_DEFAULTS[key] !== child) {
      found.push({ path: [...path, key], kind: 'number', value: child, literal: false });
    } else walk(child, [...path, key], found);
  }
}

/** The literal an object of the plan holds in its `value`, if it is one that holds a literal. */
function ownValue(o: Json): Omit<PlanValue, 'path'> | null {
  const kind = typeof o.kind === 'string' ? LITERAL_CLASS[o.kind] : undefined;
  if (kind && (typeof o.value === 'string' || typeof o.value === 'number')) {
    return { kind, value: o.value, literal: true };
  }
  // A text match (`name contains 'ali'`) and a group's threshold (`having count(*) > 5`).
  if (o.kind === 'text' && typeof o.value === 'string') return { kind: 'text', value: o.value, literal: true };
  if ('aggregate' in o && 'op' in o && typeof o.value === 'number') {
    return { kind: 'number', value: o.value, literal: true };
  }
  return null;
}

/** How many of `values` are `key` (see {@link valueKey}). */
export function countOf(values: readonly { kind: ValueClass; value: string | number }[], key: string): number {
  return values.filter((v) => valueKey(v.kind, v.value) === key).length;
}

/**
 * `plan` with every value each change names replaced (numbers as numbers), parsed again so a
 * value the plan cannot hold (a LIMIT of 2.5) is refused; null then.
 */
export function withValues(plan: QueryPlan, changes: readonly ValueChange[]): QueryPlan | null {
  const copy = structuredClone(plan) as unknown as Json;
  for (const slot of planValues(plan)) {
    const change = changes.find((c) => valueKey(c.kind, c.from) === valueKey(slot.kind, slot.value));
    if (!change) continue;
    const parent = slot.path.slice(0, -1).reduce<unknown>((at, step) => (at as Json)[step as string], copy) as Json;
    parent[slot.path.at(-1) as string] = slot.kind === 'number' ? Number(change.to) : change.to;
  }
  const parsed = QueryPlan.safeParse(copy);
  return parsed.success ? parsed.data : null;
}
