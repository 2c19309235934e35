import type { Condition, QueryPlan } from '@nl2p/query-plan';
import { conjuncts, tableOf } from './plan-walk';

interface Bounds {
  column: string;
  low: { value: number; inclusive: boolean; said: string } | null;
  high: { value: number; inclusive: boolean; said: string } | null;
  equals: { value: string; said: string }[];
  isNull: string | null;
  notNull: boolean;
}

/**
 * Conditions of a plan that cannot hold together on one row (`temperature > 35 AND temperature IS
 * NULL`, `quantity > 10 AND quantity < 5`, `status = 'a' AND status = 'b'`), each said as a
 * sentence. Only the WHERE's top-level AND is read: an OR may well hold.
 */
export function contradictions(plan: QueryPlan | null): string[] {
  if (!plan) return [];
  const byColumn = new Map<string, Bounds>();
  const boundsOf = (table: string, column: string): Bounds => {
    const key = `${table}.${column}`;
    let b = byColumn.get(key);
    if (!b) {
      b = { column, low: null, high: null, equals: [], isNull: null, notNull: false };
      byColumn.set(key, b);
    }
    return b;
  };
  for (const c of conjuncts(plan.where)) read(c, plan, boundsOf);
  return [...byColumn.values()].flatMap(conflicts);
}

function read(c: Condition, plan: QueryPlan, boundsOf: (t: string, c: string) => Bounds): void {
  if (c.kind === 'null') {
    const b = boundsOf(tableOf(plan, c.column), c.column.column);
    if (c.negated) b.notNull = true;
    else b.isNull = `${c.column.column} IS NULL`;
    return;
  }
  if (c.kind === 'in' && !c.negated && c.values.length === 1 && c.values[0]) {
    const v = String(c.values[0].value);
    boundsOf(tableOf(plan, c.column), c.column.column).equals.push({ value: v, said: `${c.column.column} = '${v}'` });
    return;
  }
  if (c.kind !== 'compare' || c.left.kind !== 'column') return;
  const b = boundsOf(tableOf(plan, c.left.ref), c.left.ref.column);
  const said = `${c.left.ref.column} ${c.op} ${typeof c.value.value === 'string' ? `'${c.value.value}'` : String(c.value.value)}`;
  b.notNull = true;
  if (c.op === '=') b.equals.push({ value: String(c.value.value), said });
  if (c.value.kind !== 'number') return;
  const v = c.value.value;
  if (c.op === '>' || c.op === '>=') {
    if (!b.low || v > b.low.value || (v === b.low.value && c.op === '>'))
      b.low = { value: v, inclusive: c.op === '>=', said };
  }
  if (c.op === '<' || c.op === '<=') {
    if (!b.high || v < b.high.value || (v === b.high.value && c.op === '<'))
      b.high = { value: v, inclusive: c.op === '<=', said };
  }
}

function conflicts(b: Bounds): string[] {
  const out: string[] = [];
  const never = (a: string, c: string) => `${a} and ${c} cannot both hold, so no row can match`;
  if (b.isNull && (b.notNull || b.low || b.high || b.equals.length)) {
    const other = b.low?.said ?? b.high?.said ?? b.equals[0]?.said ?? `${b.column} IS NOT NULL`;
    out.push(never(other, b.isNull));
  }
  if (b.low && b.high) {
    const empty =
      b.low.value > b.high.value || (b.low.value === b.high.value && !(b.low.inclusive && b.high.inclusive));
    if (empty) out.push(never(b.low.said, b.high.said));
  }
  const distinct = [...new Map(b.equals.map((e) => [e.value, e])).values()];
  if (distinct.length > 1 && distinct[0] && distinct[1]) out.push(never(distinct[0].said, distinct[1].said));
  return out;
}
