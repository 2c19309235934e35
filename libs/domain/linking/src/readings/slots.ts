import type { Condition, OrderKey, ValueExpr } from '@nl2p/query-plan';
import type { PlanSlots, SlotColumn } from '../types';
import type { ReadingState, Resolved } from './state';

/** Candidate lists per slot, best first, to narrow the model's enumerated schema. */
export function slotsOf(s: ReadingState, where: Condition | null): PlanSlots {
  const order = s.orderBy[0] ?? null;
  const tg = s.links.timeGroups[0] ?? null;
  return {
    tables: s.ranked,
    columns: columnSlots(s),
    aggregates: s.aggregates.map(({ agg: a }) => ({
      fn: a.fn,
      of: exprLabel(s, a.arg),
      distinct: a.distinct ?? false,
    })),
    groupBy: s.groupKeys.map((k) => groupSlot(s, k)),
    filters: filterSlots(s, where),
    time: tg ? { unit: tg.unit, size: tg.size, window: tg.window } : null,
    order: order === null ? null : { by: orderLabel(s, order.key), direction: order.direction },
    limit: s.limit,
  };
}

/** Every column a term names in scope, best first. */
function columnSlots(s: ReadingState): SlotColumn[] {
  const columns: SlotColumn[] = [];
  for (const t of s.links.terms) {
    for (const c of t.columns) {
      if (!s.scope.includes(c.table) && c.table !== s.source) continue;
      if (!columns.some((x) => x.table === c.table && x.label === c.label)) {
        columns.push({
          table: c.table,
          column: c.column,
          ...(c.path ? { path: c.path } : {}),
          label: c.label,
          score: c.score,
        });
      }
    }
  }
  return columns.sort((a, b) => b.score - a.score);
}

function groupSlot(s: ReadingState, k: Resolved): SlotColumn {
  return {
    table: k.table,
    column: k.info.column,
    ...(k.info.path.length ? { path: k.info.path } : {}),
    label: k.table === s.source ? k.info.label : `${k.table}.${k.info.label}`,
    score: k.score,
  };
}

function filterSlots(s: ReadingState, where: Condition | null): PlanSlots['filters'] {
  const filters: PlanSlots['filters'] = [];
  const flat = !where ? [] : where.kind === 'and' ? where.conditions : [where];
  for (const c of flat) {
    if (c.kind === 'compare') filters.push({ column: exprLabel(s, c.left), op: c.op, values: [c.value.value] });
    else if (c.kind === 'in')
      filters.push({
        column: exprLabel(s, { kind: 'column', ref: c.column }),
        op: c.negated ? 'not_in' : 'in',
        values: c.values.map((v) => v.value),
      });
    else if (c.kind === 'between')
      filters.push({
        column: exprLabel(s, { kind: 'column', ref: c.column }),
        op: 'between',
        values: [c.low.value, c.high.value],
      });
  }
  return filters;
}

function orderLabel(s: ReadingState, key: OrderKey): string {
  if (key.kind === 'aggregate') return `${key.aggregate.fn}(${exprLabel(s, key.aggregate.arg)})`;
  if (key.kind === 'value') return exprLabel(s, key.expr);
  return `#${key.index}`;
}

/** An expression as a slot names it: `column`, `table.column`, `a->b`, `(a * b)`, `*`. */
function exprLabel(s: ReadingState, e: ValueExpr | null | undefined): string {
  if (!e) return '*';
  if (e.kind === 'column')
    return [
      e.ref.table && e.ref.table !== s.source ? `${e.ref.table}.` : '',
      [e.ref.column, ...(e.ref.path ?? [])].join('->'),
    ].join('');
  if (e.kind === 'number') return String(e.value);
  if (e.kind === 'elapsed') return `${e.unit}s from ${e.from.column} to ${e.to.column}`;
  return `(${exprLabel(s, e.left)} ${e.op} ${exprLabel(s, e.right)})`;
}
